// name: rising_methods
// answers: The methods whose share of a year's papers grew most from the graph's first year to its last: what `kg trends --type Method` lists as rising.
// param min_papers: 5  -- papers a method needs in its best year (fewer is noise)
// param top: 10  -- how many methods
// A method's share of a year is the fraction of that year's papers linked to it; shares, not
// counts, since conferences grow (kg/query/trends.py). Shares are rounded to 4 decimals.
MATCH (p:Paper) WHERE p.year IS NOT NULL
WITH min(p.year) AS first, max(p.year) AS last
WHERE first < last
CALL { WITH first MATCH (f:Paper {year: first}) RETURN count(f) AS n_first }
CALL { WITH last MATCH (l:Paper {year: last}) RETURN count(l) AS n_last }
MATCH (p:Paper)-->(m:Method)
WHERE p.year IS NOT NULL
WITH first, last, n_first, n_last, m, p.year AS year, count(DISTINCT p) AS papers
WITH first, last, n_first, n_last, m, max(papers) AS best,
     sum(CASE WHEN year = first THEN papers ELSE 0 END) AS in_first,
     sum(CASE WHEN year = last THEN papers ELSE 0 END) AS in_last
WHERE best >= $min_papers
WITH m, first, last, in_first, in_last,
     round(toFloat(in_first) / n_first, 4) AS share_first,
     round(toFloat(in_last) / n_last, 4) AS share_last
WHERE share_last > share_first
RETURN m.name AS method, first, last, in_first AS papers_first, in_last AS papers_last,
       share_first, share_last
ORDER BY share_last - share_first DESC, method
LIMIT $top
