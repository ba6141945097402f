// name: similar_papers
// answers: The papers whose words mean most alike a paper's, from Neo4j's vector indexes of the papers' text vectors (what `kg related` calls the dense signal): whole papers, or one facet's sentences.
// param paper: "WebGen-Agent"  -- a paper id, title or short name (any case)
// param k: 10  -- how many papers
// param facet: null  -- "background", "method" or "result": compare those sentences only; null: whole papers
// `kg load` stores each paper's text vector as p.text_vector and, per facet, the mean vector of
// its sentences of that facet as p.<facet>_vector (kg/query/text_index.py; unit length), each
// with a vector index kg_paper_<property>. The index is approximate: it proposes 4k
// candidates, which are ranked by their exact cosine (the dot product of unit vectors).
MATCH (p:Paper)
WHERE p.id = $paper OR toLower(p.display_name) = toLower($paper) OR toLower(p.title) = toLower($paper)
WITH p ORDER BY p.id = $paper DESC, p.id LIMIT 1
WITH p, CASE WHEN $facet IS NULL THEN 'text_vector' ELSE $facet + '_vector' END AS prop
WHERE p[prop] IS NOT NULL
CALL db.index.vector.queryNodes('kg_paper_' + prop, 4 * $k + 1, p[prop])
YIELD node
WITH p, prop, node WHERE node <> p
WITH node, reduce(dot = 0.0, i IN range(0, size(p[prop]) - 1) |
                  dot + p[prop][i] * node[prop][i]) AS cosine
RETURN node.id AS id, node.display_name AS paper, node.title AS title, round(cosine, 4) AS cosine
ORDER BY cosine DESC, id
LIMIT $k
