// name: shared_between_papers
// answers: What two papers have in common: every entity both link to, drawn as paths.
// param paper_a: "WebGen-Agent"  -- a paper id, title or short name (any case)
// param paper_b: "TriMPI"  -- the other paper
MATCH (a:Paper)
WHERE a.id = $paper_a OR toLower(a.display_name) = toLower($paper_a) OR toLower(a.title) = toLower($paper_a)
MATCH (b:Paper)
WHERE b.id = $paper_b OR toLower(b.display_name) = toLower($paper_b) OR toLower(b.title) = toLower($paper_b)
MATCH path = (a)-[ra]->(e)<-[rb]-(b)
WHERE a <> b
RETURN labels(e)[0] AS label, e.name AS shared, type(ra) AS role_a, type(rb) AS role_b, path
ORDER BY label, shared
LIMIT 50
