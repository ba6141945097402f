// name: shortest_connection
// answers: The shortest chain of shared entities and papers that connects two papers (up to 8 hops).
// param paper_a: "WebGen-Agent"  -- a paper id, title or short name (any case)
// param paper_b: "TriMPI"  -- the other paper
MATCH (a:Paper)
WHERE a.id = $paper_a OR toLower(a.display_name) = toLower($paper_a) OR toLower(a.title) = toLower($paper_a)
MATCH (b:Paper)
WHERE b.id = $paper_b OR toLower(b.display_name) = toLower($paper_b) OR toLower(b.title) = toLower($paper_b)
WITH a, b WHERE a <> b
MATCH path = shortestPath((a)-[*..8]-(b))
RETURN a.display_name AS from, b.display_name AS to, length(path) AS hops,
       [n IN nodes(path) | coalesce(n.name, n.id)] AS via, path
ORDER BY hops
LIMIT 1
