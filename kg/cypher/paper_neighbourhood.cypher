// name: paper_neighbourhood
// answers: A paper and everything it links to (methods, tasks, datasets, metrics, concepts) as a picture.
// param paper: "MetaEmbed"  -- a paper id, title or short name (any case)
MATCH (p:Paper)
WHERE p.id = $paper OR toLower(p.display_name) = toLower($paper) OR toLower(p.title) = toLower($paper)
MATCH path = (p)-[r]->(e)
RETURN labels(e)[0] AS label, e.name AS entity, type(r) AS role, r.evidence AS evidence, path
ORDER BY label, entity
LIMIT 100
