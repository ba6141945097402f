// name: methods_cooccurring_with_task
// answers: The methods most used by the papers that address a task (co-occurrence in a paper, not a stated relation: methods_for_task has those).
// param task: "mathematical reasoning"  -- a task name or alias (any case)
MATCH (t:Task)
WHERE toLower(t.name) = toLower($task) OR t.id = $task
   OR any(alias IN coalesce(t.aliases, []) WHERE toLower(alias) = toLower($task))
MATCH (t)<-[:ADDRESSES|PROPOSES]-(p:Paper)-[:USES|PROPOSES]->(m:Method)
WITH t, m, count(DISTINCT p) AS papers, collect(DISTINCT p.display_name)[..5] AS examples
RETURN t.name AS task, m.name AS method, papers, examples
ORDER BY papers DESC, method ASC
LIMIT 25
