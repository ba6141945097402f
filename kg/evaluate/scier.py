"""Score kg's extractor against SciER (Zhang et al., EMNLP 2024): Dataset, Method and Task
mentions in full-text papers, with an in-domain test and an out-of-domain test (other venues).

**Measure only.** SciER is GPL-3.0: no model kg ships may be trained or tuned on it, so
nothing here trains, and the only choice made with it (the text unit below) was made on its
``dev`` split.

Data: ``{dev,test,test_ood}.jsonl``, one paper a line: ``doc_id``, ``sentences`` of tokens,
``ner`` spans ``[start, end, type]`` per sentence with document-level, inclusive token indices
(SciERC's layout, so :func:`kg.evaluate.scierc.doc_from_record` reads it).

Scoring reuses SciERC's scorer (:func:`kg.evaluate.scierc.score`): exact = same character span
and type; relaxed = same type and overlapping, matched one-to-one. Types: kg's Method→Method,
Task→Task, Dataset→Dataset. SciER annotates no metrics and no concepts, so kg's Metric and
Concept mentions are left out rather than counted as false positives. Micro = summed counts
over the three types.

Definitions: SciER annotates "long form ( ACR )" as two mentions, the long form and the
acronym (75 such pairs in dev against 1 whole span), where SciERC annotates the whole span. kg's
extractor gives the whole span plus the acronym inside it (a derived ``defined`` mention), so
for SciER a definition is scored as its two parts (:func:`scier_spans`).

Text unit: kg reads abstracts, SciER gives whole papers. Each paper is extracted as one text
(its sentences joined by spaces); :func:`passages` can cut it into abstract-sized pieces
instead, which scored a little lower on dev (see :data:`PASSAGE_WORDS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from kg.errors import InputError
from kg.evaluate.scierc import (
    Extractor,
    SciercDoc,
    Scores,
    Span,
    doc_from_record,
    kg_to_scierc,
    read_docs,
    score,
    score_rows,
)
from kg.models import Mention

#: SciER's entity types, in report order.
SCIER_TYPES: tuple[str, ...] = ("Method", "Task", "Dataset")
#: SciER type → the SciERC label the shared scorer and kg's SciERC mapping use for it (kg's
#: Dataset is SciERC's Material).
TO_SCIERC: dict[str, str] = {"Method": "Method", "Task": "Task", "Dataset": "Material"}
#: ``--split`` name → file. ``dev`` is there to choose settings on; the tests are reported.
SPLIT_FILES: dict[str, str] = {"dev": "dev.jsonl", "test": "test.jsonl", "ood": "test_ood.jsonl"}
DEFAULT_DATA = Path("../shared/data/scier")

#: Words per passage; ``0``: the whole paper is one text. Chosen on SciER dev (exact micro F1):
#: whole papers 49.7, passages of 100 / 200 / 400 words 48.5 / 49.1 / 49.6. A paper read whole
#: keeps what kg shares across one text (its acronym definitions; the re-typer's one type for a
#: phrase written several times).
PASSAGE_WORDS = 0


def doc_from_scier(rec: dict) -> SciercDoc:
    """One SciER paper as text plus gold character spans (SciER's own labels)."""
    return doc_from_record(
        {"doc_key": rec["doc_id"], "sentences": rec["sentences"], "ner": rec["ner"]}
    )


def load_split(data_dir: str | Path, split: str) -> list[SciercDoc]:
    """Load a SciER split (``dev``, ``test`` or ``ood``); InputError when missing or malformed."""
    if split not in SPLIT_FILES:
        raise InputError(f"unknown SciER split {split!r}; choose one of {', '.join(SPLIT_FILES)}")
    docs = read_docs(Path(data_dir) / SPLIT_FILES[split], doc_from_scier, "SciER")
    for i, doc in enumerate(docs, 1):
        unknown = {label for *_, label in doc.gold} - set(SCIER_TYPES)
        if unknown:
            raise InputError(f"SciER {split} document {i}: unknown entity types {sorted(unknown)}")
    return docs


def passages(doc: SciercDoc, max_words: int = PASSAGE_WORDS) -> list[tuple[int, str]]:
    """``doc`` cut at sentence boundaries into pieces of about ``max_words`` words (a sentence
    is never split; a piece closes once it reaches ``max_words``), as (character offset, text).
    ``max_words=0``: the whole text.

    >>> doc = doc_from_record({"doc_key": "d", "sentences": [["A", "b", "."], ["C", "."],
    ...                        ["D", "."]], "ner": [[], [], []]})
    >>> passages(doc, 3)
    [(0, 'A b .'), (6, 'C . D .')]
    >>> passages(doc, 0)
    [(0, 'A b . C . D .')]
    """
    if max_words <= 0:
        return [(0, doc.text)]
    bounds = [*doc.sentence_starts, len(doc.text) + 1]  # +1: no joining space after the last
    out, first, words = [], 0, 0
    for i, sentence in enumerate(doc.sentences):
        words += len(sentence)
        if words >= max_words or i == len(doc.sentences) - 1:
            start, end = bounds[first], bounds[i + 1] - 1
            out.append((start, doc.text[start:end]))
            first, words = i + 1, 0
    return out


def predict(
    extract: Extractor, docs: Sequence[SciercDoc], max_words: int = PASSAGE_WORDS
) -> list[list[Span]]:
    """Run ``extract`` (texts → SciERC-labelled spans) over each paper's passages in one batch;
    return each paper's spans in its own character offsets."""
    units = [
        (i, offset, text) for i, d in enumerate(docs) for offset, text in passages(d, max_words)
    ]
    found = extract([text for _, _, text in units])
    out: list[list[Span]] = [[] for _ in docs]
    for (i, offset, _), spans in zip(units, found, strict=True):
        out[i].extend((offset + s, offset + e, label) for s, e, label in spans)
    return out


def score_scier(gold_docs: Sequence[Sequence[Span]], pred_docs: Sequence[Sequence[Span]]) -> Scores:
    """SciERC's scorer on SciER's three types. ``gold_docs`` carry SciER labels, ``pred_docs``
    SciERC labels (as kg's SciERC extractors give them); predictions of types SciER does not
    annotate are dropped. The tables are keyed by SciER's types (and ``micro``)."""
    keep = set(TO_SCIERC.values())
    gold = [[(s, e, TO_SCIERC[label]) for s, e, label in doc] for doc in gold_docs]
    pred = [[span for span in doc if span[2] in keep] for doc in pred_docs]
    scores = score(gold, pred)

    def by_scier_type(table: dict) -> dict:
        return {**{t: table[TO_SCIERC[t]] for t in SCIER_TYPES}, "micro": table["micro"]}

    return Scores(
        by_scier_type(scores.exact), by_scier_type(scores.relaxed), scores.span, scores.n_docs
    )


def evaluate(
    extract: Extractor, docs: Sequence[SciercDoc], max_words: int = PASSAGE_WORDS
) -> Scores:
    """Extract from ``docs`` (see :func:`predict`) and score against their gold spans."""
    return score_scier([d.gold for d in docs], predict(extract, docs, max_words))


def scier_spans(mentions: Sequence[Mention]) -> list[Span]:
    """kg's mentions of one text as SciER would annotate them, with SciERC labels.

    Derived mentions are left out, as for SciERC, except that a definition's acronym
    (``defined``) splits the definition it sits in: "long form ( ACR )" becomes the long form
    and the acronym.
    """
    from kg.extract.spans import DERIVED_SOURCES

    acronyms = {(m.start, m.end): m.type.value for m in mentions if m.source == "defined"}
    spans: list[tuple[int, int, str]] = []
    for m in mentions:
        if m.source in DERIVED_SOURCES:
            continue
        long_form, inner = definition_parts(m.start, m.text, list(acronyms))
        if long_form:
            spans.append((*long_form, m.type.value))
        if inner:
            spans.append((*inner, acronyms[inner]))  # the acronym's own type
    return kg_to_scierc(spans)


CharSpan = tuple[int, int]


def definition_parts(
    start: int, text: str, acronyms: Sequence[CharSpan]
) -> tuple[CharSpan | None, CharSpan | None]:
    """A mention (``text`` at ``start``) as SciER writes it: ``(mention, None)``, or for a
    definition "long form ( ACR )" holding one of ``acronyms`` (the ``defined`` mentions'
    spans), ``(long form, acronym)`` (the long form None when there is none).

    >>> definition_parts(10, "conditional random field ( CRF )", [(37, 40)])
    ((10, 34), (37, 40))
    >>> definition_parts(10, "CRF", [(37, 40)])
    ((10, 13), None)
    """
    end = start + len(text)
    inner = next(((s, e) for s, e in acronyms if start < s and e <= end), None)
    if inner is None:
        return (start, end), None
    long_form = text[: inner[0] - start].rstrip(" (")
    return ((start, start + len(long_form)) if long_form else None), inner


def full_extractor() -> Extractor:
    """kg's full extractor, the one ``kg eval scierc`` scores, its mentions in SciER's
    convention (:func:`scier_spans`)."""
    from kg.extract.extractor import Extractor as KgExtractor

    ex = KgExtractor(use_trained=True)

    def extract(texts: list[str]) -> list[list[Span]]:
        return [scier_spans(mentions) for mentions in ex.extract_texts(texts)]

    return extract


def run(
    split: str = "test", data: str | Path = DEFAULT_DATA, max_words: int = PASSAGE_WORDS
) -> Scores:
    """Score kg's full extractor on a SciER split."""
    docs = load_split(data, split)  # before loading the pipeline: a bad path fails fast
    return evaluate(full_extractor(), docs, max_words)


def format_table(scores: Scores, title: str = "") -> str:
    """A plain-text table: one row per SciER type, exact and relaxed P/R/F1 (percent)."""
    lines = score_rows(scores, SCIER_TYPES, title, width=16)
    lines.append(
        f"{scores.n_docs} papers; exact = same span and type, relaxed = same type and "
        "overlapping (one-to-one). kg's Metric and Concept mentions not scored."
    )
    return "\n".join(lines)
