// name: compared_methods
// answers: The methods a sentence compares a method with (COMPARED_WITH, either way: "X outperforms Y", "compared to Y"), with the papers that say so and a sentence.
// param method: "GRPO"  -- a method name or alias (any case)
MATCH (m:Method)
WHERE toLower(m.name) = toLower($method) OR m.id = $method
   OR any(alias IN coalesce(m.aliases, []) WHERE toLower(alias) = toLower($method))
MATCH (m)-[r:COMPARED_WITH]-(other:Method)
RETURN m.name AS method, other.name AS compared_with,
       CASE WHEN startNode(r) = m THEN "out" ELSE "in" END AS direction,
       size(r.papers) AS papers, r.papers AS paper_ids, r.evidence[0] AS evidence
ORDER BY papers DESC, compared_with ASC, direction ASC
LIMIT 50
