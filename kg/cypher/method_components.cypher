// name: method_components
// answers: What a method is made of and what it is part of (PART_OF: a named method or a part the paper describes, a Concept), with the papers that say so and a sentence.
// param method: "RAG"  -- a method name or alias (any case)
MATCH (m:Method)
WHERE toLower(m.name) = toLower($method) OR m.id = $method
   OR any(alias IN coalesce(m.aliases, []) WHERE toLower(alias) = toLower($method))
MATCH (m)-[r:PART_OF]-(other)
RETURN m.name AS method,
       CASE WHEN endNode(r) = m THEN "component" ELSE "part of" END AS relation,
       other.name AS other, size(r.papers) AS papers, r.papers AS paper_ids,
       r.evidence[0] AS evidence
ORDER BY relation ASC, papers DESC, other ASC
LIMIT 50
