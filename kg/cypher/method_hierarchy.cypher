// name: method_hierarchy
// answers: The IS_A hierarchy around an entity: the broader things it is a kind of (up to three steps: "GRPO, a reinforcement learning algorithm"), and the narrower ones that are a kind of it, each with a sentence.
// param name: "GRPO"  -- an entity name or alias (any case), usually a method
MATCH (e)
WHERE (e:Method OR e:Task OR e:Dataset OR e:Metric OR e:Concept)
  AND (toLower(e.name) = toLower($name) OR e.id = $name
       OR any(alias IN coalesce(e.aliases, []) WHERE toLower(alias) = toLower($name)))
CALL {
  WITH e
  MATCH path = (e)-[:IS_A*1..3]->(b)
  RETURN "broader" AS direction, b AS other, length(path) AS depth,
         last(relationships(path)) AS step
  UNION
  WITH e
  MATCH (n)-[step:IS_A]->(e)
  RETURN "narrower" AS direction, n AS other, 1 AS depth, step
}
RETURN e.name AS entity, direction, depth, other.name AS other, labels(other)[0] AS label,
       size(step.papers) AS papers, step.evidence[0] AS evidence
ORDER BY direction ASC, depth ASC, papers DESC, other ASC
LIMIT 50
