// name: papers_on_dataset
// answers: Which papers evaluate on (or introduce) a dataset or benchmark, with the sentence that says so.
// param dataset: "MMEB"  -- a dataset name or alias (any case)
MATCH (d:Dataset)
WHERE toLower(d.name) = toLower($dataset) OR d.id = $dataset
   OR any(alias IN coalesce(d.aliases, []) WHERE toLower(alias) = toLower($dataset))
MATCH (p:Paper)-[r:EVALUATES_ON|PROPOSES]->(d)
RETURN d.name AS dataset, p.display_name AS paper, p.id AS paper_id, type(r) AS role,
       r.evidence AS evidence
ORDER BY role DESC, paper
LIMIT 50
