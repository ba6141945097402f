// name: search_text
// answers: Full-text search over paper titles, abstracts and entity names (the kg_text index), best match first.
// param text: "retrieval"  -- Lucene syntax: words, "quoted phrases", prefix*, AND/OR
CALL db.index.fulltext.queryNodes('kg_text', $text) YIELD node, score
RETURN labels(node)[0] AS label, node.id AS id, node.name AS name, round(score, 3) AS score
ORDER BY score DESC, id ASC
LIMIT 25
