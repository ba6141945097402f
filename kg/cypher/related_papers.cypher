// name: related_papers
// answers: The papers most related to a paper, ranked exactly like `kg related`, with the shared entities and the similar words that explain each score.
// param paper: "WebGen-Agent"  -- a paper id, title or short name (any case)
// param k: 10  -- how many related papers
// param labels: null  -- only entities of these labels count, e.g. ["Method"] (kg related --facet method); null: all
// A shared entity e counts TYPE_WEIGHT[label(e)] / ln(1 + paper_count(e)) (kg/schema.py,
// kg/query/related.py); a paper among p's text neighbours (p.similar, computed by `kg build`) adds
// TEXT_WEIGHT * cosine. The score is the sum, rounded to 6 decimals.
MATCH (p:Paper)
WHERE p.id = $paper OR toLower(p.display_name) = toLower($paper) OR toLower(p.title) = toLower($paper)
WITH p ORDER BY p.id = $paper DESC, p.id LIMIT 1
CALL {
  WITH p
  MATCH (p)-->(e)
  WHERE (e:Method OR e:Task OR e:Dataset OR e:Metric OR e:Concept)
    AND ($labels IS NULL OR labels(e)[0] IN $labels)
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
  RETURN q.id AS qid,
         collect({id: e.id, name: coalesce(e.name, e.id), label: labels(e)[0], weight: round(w, 6)}) AS shared,
         sum(w) AS total
  UNION
  WITH p
  UNWIND coalesce(p.similar, []) AS qid
  RETURN qid, [] AS shared, 0.0 AS total
}
WITH p, qid, collect(shared) AS shareds, sum(total) AS total
MATCH (q:Paper {id: qid})
WITH q, reduce(acc = [], s IN shareds | acc + s) AS shared, total,
     [i IN range(0, size(coalesce(p.similar, [])) - 1) WHERE p.similar[i] = qid | i] AS at, p
WITH q, shared, total,
     CASE WHEN size(at) > 0 THEN p.similar_scores[at[0]] ELSE 0.0 END AS similarity,
     CASE WHEN size(at) > 0 AND size(p.similar_terms[at[0]]) > 0 THEN split(p.similar_terms[at[0]], ', ') ELSE [] END AS terms
RETURN q.id AS id, q.title AS title, q.display_name AS display_name,
       round(total + 10.0 * similarity, 6) AS score, shared, similarity, terms
ORDER BY score DESC, id ASC
LIMIT $k
