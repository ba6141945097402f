// name: evaluated_on
// answers: The methods a sentence says are evaluated or benchmarked on a dataset (EVALUATED_ON), with the papers that say so and a sentence.
// param dataset: "GSM8K"  -- a dataset name or alias (any case)
MATCH (d:Dataset)
WHERE toLower(d.name) = toLower($dataset) OR d.id = $dataset
   OR any(alias IN coalesce(d.aliases, []) WHERE toLower(alias) = toLower($dataset))
MATCH (m:Method)-[r:EVALUATED_ON]->(d)
RETURN d.name AS dataset, m.name AS method, size(r.papers) AS papers, r.papers AS paper_ids,
       r.evidence[0] AS evidence
ORDER BY papers DESC, method ASC
LIMIT 50
