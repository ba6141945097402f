// name: related_papers
// answers: The papers most related to a paper, ranked exactly like `kg related`, with the shared entities that explain each score.
// param paper: "WebGen-Agent"  -- a paper id, title or short name (any case)
// param k: 10  -- how many related papers
// A shared entity e counts TYPE_WEIGHT[label(e)] / ln(1 + paper_count(e)) (kg/schema.py,
// kg/related.py); a paper's score is the sum over what it shares, rounded to 6 decimals.
MATCH (p:Paper)
WHERE p.id = $paper OR toLower(p.display_name) = toLower($paper) OR toLower(p.title) = toLower($paper)
WITH p ORDER BY p.id = $paper DESC, p.id LIMIT 1
MATCH (p)-->(e)
WHERE NOT e:Paper
WITH p, e,
     CASE WHEN coalesce(e.paper_count, 0) > 0 THEN e.paper_count
          ELSE COUNT { (e)<--(:Paper) } END AS papers
WITH p, e,
     CASE labels(e)[0]
       WHEN 'Method' THEN 1.0 WHEN 'Dataset' THEN 1.0 WHEN 'Task' THEN 0.9
       WHEN 'Metric' THEN 0.4 WHEN 'Concept' THEN 0.5 ELSE 0.0
     END / log(1 + CASE WHEN papers < 1 THEN 1 ELSE papers END) AS w
ORDER BY w DESC, e.name ASC
MATCH (e)<--(q:Paper)
WHERE q <> p
WITH q, collect({id: e.id, name: coalesce(e.name, e.id), label: labels(e)[0], weight: round(w, 6)}) AS shared,
     sum(w) AS total
RETURN q.id AS id, q.title AS title, q.display_name AS display_name, round(total, 6) AS score, shared
ORDER BY score DESC, id ASC
LIMIT $k
