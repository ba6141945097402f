// name: bridging_concepts
// answers: The concepts that bridge the most tasks: mentioned by papers addressing many different tasks.
MATCH (c:Concept)<-[:MENTIONS|PROPOSES]-(p:Paper)-[:ADDRESSES|PROPOSES]->(t:Task)
WITH c, count(DISTINCT t) AS tasks, count(DISTINCT p) AS papers,
     collect(DISTINCT t.name)[..8] AS example_tasks
WHERE tasks >= 2
RETURN c.name AS concept, tasks, papers, example_tasks
ORDER BY tasks DESC, papers DESC, concept ASC
LIMIT 25
