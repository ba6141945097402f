// name: methods_for_task
// answers: The methods used for a task: first those a sentence states are used for it (USED_FOR, with the papers that say so and a sentence), then those merely used by papers that address it.
// param task: "mathematical reasoning"  -- a task name or alias (any case)
MATCH (t:Task)
WHERE toLower(t.name) = toLower($task) OR t.id = $task
   OR any(alias IN coalesce(t.aliases, []) WHERE toLower(alias) = toLower($task))
CALL {
  WITH t
  MATCH (m:Method)-[:USED_FOR]->(t)
  RETURN m
  UNION
  WITH t
  MATCH (t)<-[:ADDRESSES|PROPOSES]-(:Paper)-[:USES|PROPOSES]->(m:Method)
  RETURN m
}
OPTIONAL MATCH (m)-[u:USED_FOR]->(t)
OPTIONAL MATCH (t)<-[:ADDRESSES|PROPOSES]-(p:Paper)-[:USES|PROPOSES]->(m)
WITH t, m, u, count(DISTINCT p) AS papers, collect(DISTINCT p.display_name)[..5] AS examples
RETURN t.name AS task, m.name AS method, size(coalesce(u.papers, [])) AS stated,
       u.evidence[0] AS evidence, papers, examples
ORDER BY stated DESC, papers DESC, method ASC
LIMIT 25
