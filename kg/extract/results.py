"""The quantitative claims of an abstract: "achieves 85.3% top-1 accuracy on ImageNet",
"improves BLEU by 2.1 points", "3.5× faster than X", "reduces error by 30%".

Each becomes a :class:`Result`: the number as written, its value and unit, whether it is a
change (``relative``: an improvement, a reduction, a speed-up) or a level reached, the
sentence, and the mentions of that sentence it is about: the method that reaches it, the
dataset, metric and task, where the sentence names them.

A number is a result when it has a unit (``kg/extract/data/relations/results.jsonl``: "%",
points, a factor, a measure such as dB), or, bare, when a metric mention takes it ("an F1 of
0.89", "0.89 F1") or a result verb comes before it with a metric near ("scores 71.2 BLEU"). A
number inside a mention ("GPT-4", "top-1", "CIFAR-10") is part of a name, never a result; the
first number of "from 60% to 75%" is the baseline, not a claim (what the words around a number
say it is: :mod:`kg.extract.number_roles`).

>>> from kg.extract.pipeline import load_pipeline
>>> doc = load_pipeline()("Our method achieves 85.3% top-1 accuracy on ImageNet.")
>>> [(r.value, r.number, r.unit, r.relative, r.metric["text"], r.dataset["text"])
...  for r in results_in(doc, doc._.kg_mentions)]
[('85.3%', 85.3, '%', False, 'top-1 accuracy', 'ImageNet')]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.matcher import Matcher
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from kg.extract.baselines import under_comparison
from kg.extract.claim_mentions import (
    BASELINE_NAME_TAGS,
    baseline_named,
    bracketed_after,
    clause_of,
    dataset_in_metric,
    method_on,
    nearest,
    on_a_mention,
    one_of_a_list,
    opening_dataset,
    sentence_dataset,
    trained_on,
)
from kg.extract.claimants import claimant
from kg.extract.lexicon import DATA, read_data_lines
from kg.extract.number_roles import (
    RESULT_VERBS,
    RETAINED_WORDS,
    SETTING_CUES,
    after_by,
    baselines_number,
    ends_from_to,
    in_one_list,
    is_baseline,
    is_setting,
    metric_from_to,
    metric_takes,
    score_of,
    share_of_quality,
    word_before,
)
from kg.extract.patterns import PatternError, expand, numbered_matcher, read_jsonl
from kg.extract.relations import argument_tokens
from kg.extract.result_lists import pair_lists, pair_methods, share_change
from kg.extract.rows import mention_index
from kg.extract.spans import Arg, Mention
from kg.extract.stand_ins import proposal_of, proposed_mention, stand_ins

RULES_FILE = DATA / "relations" / "results.jsonl"
#: A number as abstracts write it: "85.3", "+4.2", "−1.3", "1,000", "~2", "∼50" (ICLR 2026
#: writes 23 numbers with the tilde operator U+223C).
NUMBER = r"^[+\-−±~≈∼]?\d+(?:,\d{3})*(?:\.\d+)?$"
_SIGNED = re.compile(r"^[+\-−±]")
_CHANGE = frozenset(read_data_lines("relations/result_change_cues.txt"))
_UNITS = [u.lower() for u in read_data_lines("relations/result_units.txt")]
#: How far (tokens) a cue may be from the number it qualifies.
_WINDOW = 6

if not Doc.has_extension("kg_results"):
    Doc.set_extension("kg_results", default=None)


@dataclass
class Result:
    """One quantitative claim. ``value`` is the number as written ("85.3%", "3.5×"),
    ``number`` its value (85.3, 3.5), ``unit`` "%", "points", "×", a measure ("dB") or ""; the
    mentions are ``kg_mentions`` dicts or None; ``span`` is where ``value`` is (characters)."""

    value: str
    number: float
    unit: str
    relative: bool
    evidence: str
    method: Mention | None
    dataset: Mention | None
    metric: Mention | None
    task: Mention | None
    span: tuple[int, int]


@dataclass(frozen=True)
class ResultRule:
    kind: str
    unit: str  # "@token": the unit is the pattern's last token, as written
    pattern: list[dict[str, Any]]


def load_result_rules(path: Path = RULES_FILE) -> list[ResultRule]:
    """The number shapes of ``results.jsonl``, in file order."""
    values = {"number_regex": NUMBER, "result_units": _UNITS}
    rules = []
    for number, row in read_jsonl(path):
        try:
            if not isinstance(row.get("kind"), str) or not isinstance(row.get("pattern"), list):
                raise PatternError('a result rule needs a "kind" and a "pattern"')
            pattern = expand(row["pattern"], {}, values)
            rules.append(ResultRule(row["kind"], row.get("unit", ""), pattern))
        except PatternError as exc:
            raise PatternError(f"{path.name} line {number}: {exc}") from None
    return rules


@lru_cache(maxsize=4)
def _matcher(vocab: Vocab) -> tuple[Matcher, list[ResultRule]]:
    rules = load_result_rules()
    return numbered_matcher(vocab, [rule.pattern for rule in rules]), rules


def parse_number(text: str) -> float:
    """The value of a number as written.

    >>> parse_number("−1,200.5"), parse_number("+4.2"), parse_number("3.5×"), parse_number("10×.")
    (-1200.5, 4.2, 3.5, 10.0)
    """
    cleaned = text.replace("−", "-").replace(",", "").lstrip("+±~≈∼").rstrip(".").rstrip("x×")
    return float(cleaned)


def results_in(
    doc: Doc, mentions: Sequence[Mention], proposed: Mention | None = None
) -> list[Result]:
    """The results each sentence of ``doc`` reports, attached to ``mentions`` of the sentence
    (``kg_mentions``' dicts). "We"/"our method" before a result stand for ``proposed`` (by
    default the paper's proposed mention, :func:`~kg.extract.relations.proposed_mention`)."""
    proposed = proposed or proposed_mention(mentions)
    spans = argument_tokens(doc, mentions, stand_in=False)
    inside = [False] * len(doc)
    for start, end, _ in spans:
        inside[start:end] = [True] * (end - start)
    matcher, rules = _matcher(doc.vocab)
    found: dict[int, tuple[int, int, ResultRule]] = {}  # first token -> longest match
    for match_id, start, end in matcher(doc):
        if any(inside[start:end]):
            continue  # "top-1", "GPT-4": a number in a name
        rule = rules[int(doc.vocab.strings[match_id])]
        if start not in found or found[start][1] < end:
            found[start] = (start, end, rule)
    borrowed = _numbers_sharing_a_unit(doc, found, inside)
    found.update({start: claim for start, (claim, _) in borrowed.items()})
    for tok in doc:  # bare numbers that a metric takes ("an F1 of 0.89")
        bare = tok.i not in found and not inside[tok.i] and re.match(NUMBER, tok.text)
        if bare and (metric_takes(doc, tok.i, spans) or score_of(doc, tok.i)):
            found[tok.i] = (tok.i, tok.i + 1, ResultRule("score", "", []))
    # "we", "our method": where the sentence speaks of the proposed entity
    own = [m["start"] for m in stand_ins(doc, inside) if m["refers"] in ("we", "own")]
    claims = []
    last_end = 0
    for start, end, rule in sorted(found.values(), key=lambda f: f[0]):
        if start < last_end:
            continue  # overlapping matches: the first wins
        last_end = end
        if is_setting(doc, end):
            continue
        if not is_baseline(doc, start, end):  # "from 60% to 75%": 60% is where it started
            claims.append((start, end, rule))
    # A figure in brackets right after another ("72.50% (+10.73%) on AIME24") is an aside of
    # that claim: on its dataset, and no claim of its own between that and the mentions.
    ends = {end for _, end, _ in claims}
    asides = {s for s, _, _ in claims if s >= 2 and doc[s - 1].text == "(" and s - 1 in ends}
    numbers = [start for start, _, _ in claims if start not in asides]
    out: list[Result] = []
    runs: list[list[tuple[int, int]]] = []  # numbers listed with nothing named between
    previous_end = -1
    for start, end, rule in claims:
        result = _result(doc, doc[start:end], rule, spans, proposed, own, numbers)
        if result is None:
            continue
        if start in borrowed:  # "13" of "by 13 and 34 points" is "13 points"
            result.value += borrowed[start][1]
        if start in asides and out and previous_end == start - 1:
            result.dataset = out[-1].dataset
        if out and previous_end > doc[start].sent.start and _baselines(doc, start, end):
            _measured_where(result, out[-1])
        listed = bool(out) and in_one_list(doc, previous_end, start)
        # a mention between the numbers ends the list's shared reading ("44.2% on MATH500 and
        # 84.5% on GSM8K"), and its run (kg/extract/result_lists.py)
        named = [(s0, m) for s0, _, m in spans if previous_end <= s0 < start] if listed else []
        between = bool(named)
        if listed:
            # "gains of 14.9% on search, 14.0% on agentic": a list shares its kind and metric
            result.relative = result.relative or out[-1].relative
            result.metric = result.metric or out[-1].metric
            # ... and "76.7% and 75.2% top-1 accuracy on ImageNet": the metric and dataset
            # after the last number are the whole list's (not "44.2% on MATH500 and 84.5% on
            # GSM8K": a mention between the numbers is the first one's; a metric right
            # after the first is its own: "0.25 rFID and 82.0% zero-shot accuracy on ImageNet")
            own_metric = all(s0 == previous_end and m["label"] == "Metric" for s0, m in named)
            if own_metric and (out[-1].metric is None or out[-1].dataset is None):
                out[-1].metric = out[-1].metric or result.metric
                after = result.dataset is not None and result.dataset["start"] > doc[start].idx
                # (the list's, not a setting written before its first number: "Scaling up
                # multimodal math data, A and B achieve 76.4% and 78.2% MathVista scores")
                earlier = out[-1].dataset
                if after and (earlier is None or earlier["end"] <= doc[start].idx):
                    out[-1].dataset = result.dataset
        if rule.kind == "signed" and not (
            listed
            or result.metric
            or after_by(doc, start, doc[start].sent.start)
            or on_a_mention(doc, end, spans)
        ):
            continue  # "+3" alone may be anything; "by +17.0", "+12.4 accuracy" are changes
        if listed and not between:
            runs[-1].append((start, end))
        else:
            runs.append([(start, end)])
        out.append(result)
        previous_end = end
    pair_lists(doc, out, runs, spans)
    pair_methods(doc, out, runs, spans)
    share_change(doc, out, runs, _CHANGE)
    for result in out:  # "an AIME score of 15.5", "ImageNet top-1 accuracy"
        result.dataset = dataset_in_metric(result.metric, mentions) or result.dataset
    return _with_range_starts(doc, out, inside)


#: The kinds of number whose unit a list of bare numbers before it shares.
_SHARED_UNIT_KINDS = frozenset({"percent", "points", "measure"})
#: What joins the numbers of such a list: "by 13 and 34 points", "10.1, 7.7, and 3.9 points".
_NUMBER_JOINS = frozenset({",", "and", "or"})


def _numbers_sharing_a_unit(
    doc: Doc, found: dict[int, tuple[int, int, ResultRule]], inside: list[bool]
) -> dict[int, tuple[tuple[int, int, ResultRule], str]]:
    """The bare numbers listed right before a number with a unit (``found``: the matches by
    first token), which they share: "decline by 13 and 34 points", "improvements of 15.3, 17.2,
    and 20.5 percentage points", "PSNR gains of 0.55 and 1.31 dB" (ICLR 2026 writes 5 such
    lists). By first token: the claim each makes, and what its value lacks (the unit as
    written after a number). Not a number in a name ("Llama 3 and 10%")."""
    shared: dict[int, tuple[tuple[int, int, ResultRule], str]] = {}
    for start, end, rule in found.values():
        if rule.kind not in _SHARED_UNIT_KINDS:
            continue
        if start < 2 or doc[start - 1].lower_ not in ("and", "or"):
            continue  # a list ends "... and 34 points" ("BRUMO 2025, +4.6 pp" is none)
        unit = doc[end - 1].text if rule.unit == "@token" else rule.unit
        suffix = unit if unit in ("%", "×") else f" {unit}"
        listed: list[int] = []
        j = start - 1
        while j > 0 and doc[j].lower_ in _NUMBER_JOINS and not doc[j].is_sent_start:
            j -= 1 + (doc[j - 1].text == "," and doc[j].lower_ != ",")  # ", and"
            if j < 0 or j in found or inside[j] or not re.match(NUMBER, doc[j].text):
                break
            listed.append(j)
            j -= 1
        if listed and not (doc[j].tag_ in ("NNP", "NNPS") or inside[j]):  # "Llama 3 and 10%"
            for i in listed:
                shared[i] = ((i, i + 1, ResultRule(rule.kind, unit, [])), suffix)
    return shared


def _baselines(doc: Doc, start: int, end: int) -> bool:
    """Whether the claim at tokens ``start:end`` is the baseline's number of a comparison
    (:func:`~kg.extract.number_roles.baselines_number`)."""
    return baselines_number(doc, start, clause_of(doc, doc[start:end])[0])


def _measured_where(baseline: Result, claim: Result) -> None:
    """A baseline's number is measured where the claim it is compared with is, unless it
    names its own dataset: "26.95% Pass@1 on L0 VM code generation compared to 22.58% for
    GPT-4o" (a name after the number is the baseline's method, whatever its type here)."""
    if baseline.dataset is None or baseline.dataset is baseline.method:
        baseline.dataset = claim.dataset
    baseline.task = baseline.task or claim.task
    baseline.metric = baseline.metric or claim.metric


#: What joins the two numbers of a range: "0.8-0.9%", "40 – 80%", "9 to 13×".
_RANGE_JOINS = frozenset({"-", "–", "—", "to"})


def _with_range_starts(doc: Doc, out: list[Result], inside: list[bool]) -> list[Result]:
    """``out`` and, before each result that ends a range, the range's first number as a claim
    of its own, the same in all but its number ("improves the validation error by 0.8-0.9%" is
    0.8% and 0.9%; "3-7× speedups", "9 to 13× faster"); not "from 9 to 13" (a change)."""
    claimed = {r.span[0]: r for r in out}
    with_starts: list[Result] = []
    for result in out:
        at = doc.char_span(*result.span, alignment_mode="expand")
        first = at.start - 2 if at is not None else -1
        if (
            first >= 0
            and doc[first + 1].lower_ in _RANGE_JOINS
            and re.match(NUMBER, doc[first].text)
            and not inside[first]
            and not (first > 0 and doc[first - 1].lower_ in ("from", "between"))
        ):
            number = doc[first]
            # "improves the error by 0.8-0.9%": "by" before the range makes both changes
            result.relative = result.relative or after_by(doc, first, number.sent.start)
            unit = result.unit if result.unit in ("%", "×", "") else f" {result.unit}"
            before = claimed.get(number.idx)
            if before is None:
                with_starts.append(replace(
                    result,
                    value=number.text + unit,
                    number=parse_number(number.text),
                    span=(number.idx, number.idx + len(number.text)),
                ))  # fmt: skip
            elif not before.unit:  # "+4–8%": "+4" is a claim already, without its unit
                before.value, before.unit = number.text + unit, result.unit
        with_starts.append(result)
    return with_starts


def _result(
    doc: Doc,
    span: Span,
    rule: ResultRule,
    spans: list[Arg],
    proposed: Mention | None,
    own: list[int],
    numbers: list[int],
) -> Result | None:
    sent = span.sent
    retained = rule.kind == "percent" and share_of_quality(doc, span.end, sent.end)
    after = doc[span.end].lower_ if span.end < sent.end else ""
    if rule.kind == "percent" and after == "of" and not retained:
        return None  # "only 10% of the data", "less than 0.005% of the tokens": a setting
    if rule.kind == "factor" and span.end < sent.end and re.match(NUMBER, doc[span.end].text):
        return None  # "ImageNet 256 × 256", "at 1024× 576 resolution": a size, no factor
    c0, c1 = clause_of(doc, span)
    window = doc[max(c0, span.start - _WINDOW) : min(c1, span.end + 2)]
    changed = any(t.lower_ in _CHANGE for t in doc[span.end : min(c1, span.end + 2)])
    if word_before(doc, span.start, c0) in SETTING_CUES and not changed:
        return None  # "under 128× update ratio", "with 4 bits": how it was run, not a claim
    if rule.kind == "measure" and not any(t.lower_ in _CHANGE | RESULT_VERBS for t in window):
        return None  # "each expert spent over 100 hours": a measure, no claim
    relative = (
        rule.kind == "factor"
        or bool(_SIGNED.match(span[0].text))
        or any(t.lower_ in _CHANGE for t in window)
        or after_by(doc, span.start, c0)
        or retained
    ) and not ends_from_to(doc, span.start)  # "from 60% to 75%": 75% is the level reached
    # A mention another claim of the sentence is nearer to (a number lies between) is that
    # claim's: "85.3% on ImageNet and 2.1 BLEU on WMT14".
    in_sentence = [
        (s, e, m)
        for s, e, m in spans
        if sent.start <= s < sent.end
        and not any(min(s, span.start) < n < max(e, span.end) and n != span.start for n in numbers)
    ]
    metric = nearest(span, [x for x in in_sentence if x[2]["label"] == "Metric"], (c0, c1))
    if retained:  # the share's own metric, if it names one: "99% of the accuracy of ..."
        metric = next(
            (m for s, _, m in in_sentence
             if m["label"] == "Metric" and span.end < s <= span.end + 1 + RETAINED_WORDS),
            None,
        )  # fmt: skip
    if (
        rule.kind == "score"
        and metric is None
        and not metric_from_to(doc, span.start, spans)
        and not score_of(doc, span.start)
    ):
        return None  # (a metric the recogniser missed may still head "... score from A to B")
    # A dataset or task written before the number is another claim's when a claim of the
    # sentence comes before it: "+12.4 accuracy on GSM8K and +7.6 on MATH" (GSM8K is not
    # +7.6's). A claim of an earlier sentence takes nothing of this one.
    own_side = [
        x for x in in_sentence
        if x[0] > span.start or not any(sent.start <= n < x[0] for n in numbers)
    ]  # fmt: skip
    # The subject is shared by the claims of a sentence: "X achieves A and improves B".
    of_sentence = [(s, e, m) for s, e, m in spans if sent.start <= s < sent.end]
    method, setting = claimant(doc, span, of_sentence, proposed, own)
    if baselines_number(doc, span.start, c0):
        # "26.95% Pass@1 compared to 22.58% for GPT-4o": 22.58% is GPT-4o's, not the claim's
        # subject's; a baseline the sentence does not name ("vs. 17% sequential baseline")
        # reaches no result of the paper's
        method = baseline_named(doc, span.end, in_sentence)
        if method is None:
            return None
    dataset = bracketed_after(doc, span, in_sentence, "Dataset")
    if dataset is None:
        # A dataset something was trained on only when the sentence names no other: "On the
        # SQuAD dataset, our model, trained with augmented data, achieves 84.6 F1", but "our
        # architecture trained on ImageNet achieves top-5 accuracy of 65.7%".
        # not a baseline the recogniser typed a dataset: "outperforms the strongest
        # baseline, Gemini Flash, by 10.9%" is no claim on Gemini Flash
        datasets = [
            x for x in own_side
            if x[2]["label"] == "Dataset"
            and not under_comparison(doc, x[0], sent.start, BASELINE_NAME_TAGS)
        ]  # fmt: skip
        tested = [x for x in datasets if not trained_on(doc, x[0])]
        dataset = (
            nearest(span, tested or datasets, None)
            or opening_dataset(doc, sent.start, spans)
            or sentence_dataset(doc, span, of_sentence, numbers)
            or method_on(doc, span.end, in_sentence)
            or setting
        )
        if dataset is not None and one_of_a_list(doc, dataset, of_sentence):
            # "Experiments on MATH, AMC23, and AIME show 8.4% accuracy improvements": a claim
            # on a list is on none of its members alone (a list with as many numbers pairs
            # with them: kg/extract/result_lists.py)
            dataset = None
    # A task written after the number is its claim's only within its clause: not in "boosts
    # accuracy by 5.1% on MATH, offering insights for resource allocation", nor in "pose
    # (+4 mAP), body-part segmentation (+22.3 mIoU)" (a bracket ends the clause).
    task = nearest(span, [x for x in own_side if x[2]["label"] == "Task" and x[0] < c1], None)
    unit = doc[span.end - 1].text if rule.unit == "@token" else rule.unit
    # "by 10×." at a sentence's end is one token: the full stop is not the value's
    value = span.text[:-1] if rule.kind == "factor" and span.text.endswith(".") else span.text
    return Result(
        value=value,
        number=parse_number(span[0].text),
        unit=unit,
        relative=relative,
        evidence=sent.text.strip(),
        method=method,
        dataset=dataset,
        metric=metric,
        task=task,
        span=(span.start_char, span.start_char + len(value)),
    )


@Language.component(
    "kg_results",
    assigns=["doc._.kg_results"],
    requires=["doc._.kg_mentions", "token.tag", "token.is_sent_start"],
)
def find_results(doc: Doc) -> Doc:
    """``doc._.kg_results``: the doc's :func:`results_in` as :func:`result_rows` ("we" stands
    for the paper's proposal: :func:`~kg.extract.stand_ins.proposal_of`)."""
    mentions = doc._.kg_mentions or []
    doc._.kg_results = result_rows(results_in(doc, mentions, proposal_of(mentions)), mentions)
    return doc


def result_rows(results: Sequence[Result], mentions: Sequence[Mention]) -> list[dict[str, Any]]:
    """``results`` as plain dicts (for worker processes and JSON): the fields of
    :class:`Result`, each mention as its index in ``mentions`` (None when absent;
    :func:`~kg.extract.rows.mention_index`), ``span`` as ``start`` and ``end``."""
    index = mention_index(mentions)
    rows = []
    for r in results:
        row: dict[str, Any] = {k: v for k, v in vars(r).items() if k not in _MENTION_FIELDS}
        row.update({k: index(getattr(r, k)) for k in _MENTION_FIELDS})
        row["start"], row["end"] = row.pop("span")
        rows.append(row)
    return rows


_MENTION_FIELDS = ("method", "dataset", "metric", "task")
