// name: co_occurring_methods
// answers: Pairs of methods that are used (or proposed) together in the same papers, most frequent first.
// param min_papers: 1  -- only pairs that share at least this many papers
MATCH (m1:Method)<-[:USES|PROPOSES]-(p:Paper)-[:USES|PROPOSES]->(m2:Method)
WHERE m1.id < m2.id
WITH m1, m2, count(DISTINCT p) AS papers, collect(DISTINCT p.display_name)[..5] AS examples
WHERE papers >= $min_papers
RETURN m1.name AS method_a, m2.name AS method_b, papers, examples
ORDER BY papers DESC, method_a ASC, method_b ASC
LIMIT 25
