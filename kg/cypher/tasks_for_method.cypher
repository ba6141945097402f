// name: tasks_for_method
// answers: The tasks a method is applied to: the tasks addressed by the papers that use or propose it.
// param method: "Youtu-GraphRAG"  -- a method name or alias (any case)
MATCH (m:Method)
WHERE toLower(m.name) = toLower($method) OR m.id = $method
   OR any(alias IN coalesce(m.aliases, []) WHERE toLower(alias) = toLower($method))
MATCH path = (m)<-[:USES|PROPOSES]-(p:Paper)-[:ADDRESSES|PROPOSES]->(t:Task)
WITH m, t, count(DISTINCT p) AS papers, collect(DISTINCT p.display_name)[..5] AS via,
     collect(path)[0] AS example
RETURN m.name AS method, t.name AS task, papers, via, example
ORDER BY papers DESC, task ASC
LIMIT 25
