// name: leaderboard
// answers: The results papers report on a dataset (levels reached, not improvements), one board per metric, best first: higher numbers first, unless the metric's name says error, loss, perplexity, FID, latency ... (kg leaderboard's rule, kg/query/data/lower_is_better.txt).
// param dataset: "GSM8K"  -- a dataset name or alias (any case)
// param metric: ""  -- part of a metric's name (any case); "" for every metric
MATCH (d:Dataset)
WHERE toLower(d.name) = toLower($dataset) OR d.id = $dataset
   OR any(alias IN coalesce(d.aliases, []) WHERE toLower(alias) = toLower($dataset))
MATCH (p:Paper)-[:REPORTS]->(r:Result)-[:ON_DATASET]->(d)
WHERE NOT r.relative
OPTIONAL MATCH (r)-[:IN_METRIC]->(x:Metric)
OPTIONAL MATCH (r)-[:FOR_METHOD]->(m:Method)
WITH d, p, r, x, m
WHERE size($metric) = 0 OR toLower(x.name) CONTAINS toLower($metric)
WITH d, p, r, x, m,
     x IS NOT NULL AND toLower(x.name) =~ '.*\\b(error|errors|loss|perplexity|ppl|fid|rfid|gfid|fvd|kid|wer|cer|ter|latency|runtime|time|memory|mse|mae|rmse|nll|bpd|bpc|regret|cost|eer|ece|distance|divergence|violation|violations|hallucination)\\b.*' AS lower_is_better
RETURN d.name AS dataset, x.name AS metric, r.value AS value, m.name AS method,
       p.display_name AS paper, r.evidence AS evidence, r.number AS number, r.id AS result,
       lower_is_better
ORDER BY metric IS NULL, metric ASC,
         CASE WHEN lower_is_better THEN r.number ELSE -r.number END ASC, p.id ASC, r.id ASC
LIMIT 100
