// name: new_benchmarks
// answers: The papers that introduce a new dataset or benchmark, and how many other papers already use it.
MATCH path = (p:Paper)-[r:PROPOSES]->(d:Dataset)
WITH p, d, r, path, COUNT { (d)<-[:EVALUATES_ON]-(other:Paper) WHERE other <> p } AS used_by
RETURN d.name AS benchmark, p.display_name AS paper, p.id AS paper_id, used_by, r.evidence AS evidence, path
ORDER BY used_by DESC, benchmark ASC
LIMIT 50
