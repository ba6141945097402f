// name: similar_papers
// answers: The papers whose words mean most alike a paper's, from Neo4j's vector index of the papers' text vectors (what `kg related` calls the dense signal), with the cosine.
// param paper: "WebGen-Agent"  -- a paper id, title or short name (any case)
// param k: 10  -- how many papers
// `kg load` stores each paper's text vector (kg/query/text_index.py, unit length) as
// p.text_vector and indexes it (kg_paper_text_vector). The index is approximate: it proposes
// 4k candidates, which are ranked by their exact cosine (the dot product of unit vectors).
MATCH (p:Paper)
WHERE p.id = $paper OR toLower(p.display_name) = toLower($paper) OR toLower(p.title) = toLower($paper)
WITH p ORDER BY p.id = $paper DESC, p.id LIMIT 1
CALL db.index.vector.queryNodes('kg_paper_text_vector', 4 * $k + 1, p.text_vector)
YIELD node
WITH p, node WHERE node <> p
WITH node, reduce(dot = 0.0, i IN range(0, size(p.text_vector) - 1) |
                  dot + p.text_vector[i] * node.text_vector[i]) AS cosine
RETURN node.id AS id, node.display_name AS paper, node.title AS title, round(cosine, 4) AS cosine
ORDER BY cosine DESC, id
LIMIT $k
