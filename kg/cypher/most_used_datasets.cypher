// name: most_used_datasets
// answers: The datasets and benchmarks that the most papers evaluate on (or introduce).
MATCH (p:Paper)-[:EVALUATES_ON|PROPOSES]->(d:Dataset)
WITH d, count(DISTINCT p) AS papers, collect(DISTINCT p.display_name)[..5] AS examples
RETURN d.name AS dataset, papers, examples
ORDER BY papers DESC, dataset ASC
LIMIT 25
