"""Score an entity extractor against SciERC (Luan et al., EMNLP 2018).

Data: the DyGIE-format JSON Lines files ``{train,dev,test}.json`` (one abstract per line,
``sentences`` of tokens, ``ner`` spans ``[start, end, label]`` with document-level, inclusive
token indices).

Text: an abstract's tokens joined by single spaces, after turning the PTB bracket escapes
(``-LRB-`` → ``(`` …) back into characters, so the extractor sees text close to a real
abstract. Each escape is one token and one character, so every gold span maps to exact
character offsets.

Scoring (documented choices, kept simple and honest):

- Types: kg's Method→Method, Task→Task, Dataset→Material, Metric→Metric,
  Concept→OtherScientificTerm. Gold ``Generic`` spans are not scored. Predictions of any other
  type are ignored.
- **Exact**: a prediction is a true positive when a gold span has the same start, end and type.
- **Relaxed**: a prediction and a gold span of the same type match when their character
  ranges overlap; matching is one-to-one (greedy, largest overlap first), so one long
  prediction cannot earn several true positives.
- A prediction that matches nothing is a false positive, even if it covers a ``Generic`` gold
  span or a correct span with the wrong type (that counts as FP for the predicted type and FN for
  the gold type).
- ``span`` (extra, informative): exact boundary match ignoring the type.
- Micro average = sums of TP/FP/FN over the five types; P = TP/(TP+FP), R = TP/(TP+FN).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from kg.errors import InputError

#: SciERC labels scored, in report order.
SCORED_TYPES: tuple[str, ...] = ("Method", "Task", "Material", "Metric", "OtherScientificTerm")
ALL_TYPES: tuple[str, ...] = SCORED_TYPES + ("Generic",)
#: kg schema label value → SciERC label.
KG_TO_SCIERC: dict[str, str] = {
    "Method": "Method",
    "Task": "Task",
    "Dataset": "Material",
    "Metric": "Metric",
    "Concept": "OtherScientificTerm",
}
SPLITS = ("train", "dev", "test")
DEFAULT_DATA = Path("../shared/data/scierc")
PTB_ESCAPES = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}

Span = tuple[int, int, str]  # (start_char, end_char exclusive, label)


@dataclass
class SciercDoc:
    """One SciERC abstract as text plus gold character spans (all six labels)."""

    doc_key: str
    text: str
    gold: list[Span]
    sentence_starts: list[int] = field(default_factory=list)  # char offset of each sentence
    sentences: list[list[str]] = field(default_factory=list)  # SciERC's tokens, as written


def token_offsets(sentences: list[list[str]]) -> tuple[list[str], list[int], list[int]]:
    """SciERC's tokens with the PTB escapes undone, the character offset of each in the text
    they make joined by single spaces, and the index of each sentence's first token.

    >>> token_offsets([["A", "-LRB-", "b"], ["C"]])
    (['A', '(', 'b', 'C'], [0, 2, 4, 6], [0, 3])
    """
    tokens: list[str] = []
    sent_first_token: list[int] = []
    for sent in sentences:
        sent_first_token.append(len(tokens))
        tokens.extend(PTB_ESCAPES.get(t, t) for t in sent)
    starts, pos = [], 0
    for tok in tokens:
        starts.append(pos)
        pos += len(tok) + 1
    return tokens, starts, sent_first_token


def doc_from_record(rec: dict) -> SciercDoc:
    """Build a :class:`SciercDoc` from one parsed JSON line."""
    tokens, starts, sent_first_token = token_offsets(rec["sentences"])
    text = " ".join(tokens)
    gold = sorted(
        {
            (starts[s], starts[e] + len(tokens[e]), label)
            for sent in rec["ner"]
            for s, e, label in sent
        }
    )
    return SciercDoc(
        rec["doc_key"], text, gold, [starts[i] for i in sent_first_token], rec["sentences"]
    )


def load_split(data_dir: str | Path, split: str) -> list[SciercDoc]:
    """Load ``<data_dir>/<split>.json``; raises InputError when missing or malformed."""
    return read_docs(Path(data_dir) / f"{split}.json", doc_from_record, "SciERC")


Record = TypeVar("Record")


def read_docs(path: Path, parse: Callable[[dict[str, Any]], Record], corpus: str) -> list[Record]:
    """The documents of a JSON-lines file, each made by ``parse``; InputError naming the file
    (and ``file:line`` for a record ``parse`` cannot read) when missing or malformed."""
    if not path.is_file():
        raise InputError(f"{corpus} file not found: {path} (use --data to point at the folder)")
    docs = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                docs.append(parse(json.loads(line)))
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise InputError(f"{path}:{lineno}: not a {corpus} record ({exc})") from exc
    return docs


@dataclass
class PRF:
    """True/false positive and false negative counts with derived P/R/F1."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, other: PRF) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def as_dict(self) -> dict[str, float]:
        return {
            **asdict(self),
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


@dataclass
class Scores:
    """Per-type and micro scores for exact and relaxed matching."""

    exact: dict[str, PRF]
    relaxed: dict[str, PRF]
    span: PRF  # untyped exact boundaries
    n_docs: int = 0

    def as_dict(self) -> dict:
        return {
            "n_docs": self.n_docs,
            "exact": {k: v.as_dict() for k, v in self.exact.items()},
            "relaxed": {k: v.as_dict() for k, v in self.relaxed.items()},
            "span": self.span.as_dict(),
        }


def _scored(spans: Iterable[Span]) -> list[Span]:
    return sorted({s for s in spans if s[2] in SCORED_TYPES})


def _relaxed_matches(gold: list[Span], pred: list[Span]) -> list[tuple[Span, Span]]:
    """One-to-one same-type overlap matching, largest overlap first (ties: earliest)."""
    cands = []
    for g in gold:
        for p in pred:
            ov = min(g[1], p[1]) - max(g[0], p[0])
            if g[2] == p[2] and ov > 0:
                cands.append((-ov, g, p))
    cands.sort()
    used_g: set[Span] = set()
    used_p: set[Span] = set()
    out = []
    for _, g, p in cands:
        if g not in used_g and p not in used_p:
            used_g.add(g)
            used_p.add(p)
            out.append((g, p))
    return out


def score(gold_docs: Sequence[Sequence[Span]], pred_docs: Sequence[Sequence[Span]]) -> Scores:
    """Score predicted spans (SciERC labels) against gold spans, document by document."""
    if len(gold_docs) != len(pred_docs):
        raise ValueError(f"{len(gold_docs)} gold documents but {len(pred_docs)} predictions")
    exact = {t: PRF() for t in SCORED_TYPES}
    relaxed = {t: PRF() for t in SCORED_TYPES}
    span = PRF()
    for gold_raw, pred_raw in zip(gold_docs, pred_docs, strict=True):
        gold, pred = _scored(gold_raw), _scored(pred_raw)
        gset, pset = set(gold), set(pred)
        for g in gold:
            if g in pset:
                exact[g[2]].tp += 1
            else:
                exact[g[2]].fn += 1
        for p in pred:
            if p not in gset:
                exact[p[2]].fp += 1
        matched = _relaxed_matches(gold, pred)
        mg = {g for g, _ in matched}
        mp = {p for _, p in matched}
        for g in gold:
            if g in mg:
                relaxed[g[2]].tp += 1
            else:
                relaxed[g[2]].fn += 1
        for p in pred:
            if p not in mp:
                relaxed[p[2]].fp += 1
        gb, pb = {g[:2] for g in gold}, {p[:2] for p in pred}
        span.tp += len(gb & pb)
        span.fp += len(pb - gb)
        span.fn += len(gb - pb)
    for table in (exact, relaxed):
        micro = PRF()
        for t in SCORED_TYPES:
            micro.add(table[t])
        table["micro"] = micro
    return Scores(exact, relaxed, span, len(gold_docs))


Extractor = Callable[[list[str]], list[list[Span]]]


def evaluate(
    extract: Extractor, docs: Sequence[SciercDoc], predictions: str | Path | None = None
) -> Scores:
    """Run ``extract`` (texts → SciERC-labelled char spans per text) on ``docs`` and score it.
    ``predictions``: also write the predictions there, in SciERC's own format
    (:func:`kg.evaluate.scierc_format.write_predictions`), for any other scorer."""
    preds = extract([d.text for d in docs])
    if predictions is not None:
        from kg.evaluate.scierc_format import write_predictions

        write_predictions(docs, preds, predictions)
    return score([d.gold for d in docs], preds)


def kg_to_scierc(spans: Iterable[tuple[int, int, str]]) -> list[Span]:
    """Map kg-typed spans to SciERC labels, dropping types SciERC does not score."""
    out = []
    for start, end, kg_type in spans:
        label = KG_TO_SCIERC.get(str(getattr(kg_type, "value", kg_type)))
        if label:
            out.append((start, end, label))
    return out


#: Where the trained SciERC recogniser ships inside the package.
MODEL_DIR = Path(__file__).resolve().parent.parent / "extract" / "models" / "scierc_ner"


def load_model(model: str | Path | None = None):  # noqa: ANN201
    """kg's base pipeline (en_core_web_sm's tokenizer, kg's small tagger) with the trained
    recogniser after it (it reads ``token.tag_``), sharing one vocab (which takes over the
    model's vectors)."""
    import spacy

    from kg.errors import ModelError
    from kg.extract.pipeline import DEFAULT_MODEL, load_base

    path = Path(model) if model else MODEL_DIR
    try:
        nlp = load_base(DEFAULT_MODEL, exclude=("senter",))  # kg's tokenizer and tagger
        trained = spacy.load(path, vocab=nlp.vocab)
    except OSError as exc:
        raise ModelError(f"cannot load the SciERC model at {path}: {exc}") from exc
    for name in trained.pipe_names:
        if name not in nlp.pipe_names:
            nlp.add_pipe(name, name=name if name != "ner" else "scierc_ner", source=trained)
    return nlp


def model_extractor(
    model: str | Path | None = None, retyper: str | Path | None = "default", batch_size: int = 64
) -> Extractor:
    """The trained recogniser alone (``--component model``): texts → SciERC spans.

    ``retyper``: the span re-typer applied to its spans (:mod:`kg.extract.retyper`); the
    default is the shipped one for the shipped recogniser and none for another ``model`` (the
    re-typer reads the recogniser's own vectors, so it only fits the model it was trained
    with); ``None`` scores the recogniser's own types. Its labels already are SciERC's;
    ``Generic`` predictions are dropped by the scorer.
    """
    from kg.extract.recogniser import run_pipeline
    from kg.extract.retyper import SHIPPED_MODEL, TOKVEC_KEY, Retyper

    nlp = load_model(model)
    if retyper == "default":
        retyper = None if model else SHIPPED_MODEL
    rt = None
    if retyper is not None:
        if not Path(retyper).is_file():
            raise InputError(f"no re-typer model at {retyper}")
        rt = Retyper.load(retyper, ner=nlp.get_pipe("scierc_ner"))
    key = TOKVEC_KEY if rt is not None else None

    def extract(texts: list[str]) -> list[list[Span]]:
        out = []
        docs = (nlp.make_doc(t) for t in texts)
        for doc in run_pipeline(nlp, docs, batch_size, tokvecs_key=key):
            ents = rt.retype(doc, list(doc.ents)) if rt is not None else doc.ents
            out.append([(e.start_char, e.end_char, e.label_) for e in ents])
        return out

    return extract


def full_extractor(use_trained: bool = True) -> Extractor:
    """kg's full extractor (rules + trained model; ``use_trained=False``: rules only), its kg
    types mapped to SciERC labels."""
    from kg.extract.extractor import Extractor as KgExtractor

    ex = KgExtractor(use_trained=use_trained)

    from kg.extract.spans import DERIVED_SOURCES

    def extract(texts: list[str]) -> list[list[Span]]:
        # Derived mentions (a phrase's head noun, a name nested in a phrase) overlap the mention
        # they come from; SciERC's flat gold cannot score them, so they are left out.
        return [
            kg_to_scierc(
                (m.start, m.end, m.type) for m in mentions if m.source not in DERIVED_SOURCES
            )
            for mentions in ex.extract_texts(texts)
        ]

    return extract


def run(
    split: str = "test",
    data: str | Path = DEFAULT_DATA,
    component: str = "full",
    model: str | Path | None = None,
    retyper: str | Path | None = "default",
    predictions: str | Path | None = None,
) -> Scores:
    """Load a split, build the chosen extractor and score it.

    ``component``: ``full`` (kg's extractor), ``model`` (the trained recogniser alone, re-typed
    by ``retyper``, see :func:`model_extractor`) or ``rules`` (kg's extractor without the
    trained model, to see what each part adds). The full extractor always uses the shipped
    re-typer. ``predictions``: also write the predictions there (:func:`evaluate`).
    """
    if split not in SPLITS:
        raise InputError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    docs = load_split(data, split)
    if component == "model":
        extract = model_extractor(model, retyper)
    elif component in ("full", "rules"):
        extract = full_extractor(use_trained=component == "full")
    else:
        raise InputError(f"unknown component {component!r}; choose full, model or rules")
    return evaluate(extract, docs, predictions)


def score_rows(scores: Scores, types: Sequence[str], title: str = "", width: int = 20) -> list[str]:
    """A title, a header and one row per type and for "micro": exact and relaxed P/R/F1
    (percent), gold and predicted counts. :func:`format_table`'s body, and SciER's."""
    head = (
        f"{'type':<{width}} {'gold':>5} {'pred':>5} | {'P':>5} {'R':>5} {'F1':>5} | "
        f"{'rP':>5} {'rR':>5} {'rF1':>5}"
    )
    lines = [title] if title else []
    lines += [head, "-" * len(head)]
    for t in (*types, "micro"):
        e, r = scores.exact[t], scores.relaxed[t]
        lines.append(
            f"{t:<{width}} {e.tp + e.fn:>5} {e.tp + e.fp:>5} | {100 * e.precision:5.1f} "
            f"{100 * e.recall:5.1f} {100 * e.f1:5.1f} | {100 * r.precision:5.1f} "
            f"{100 * r.recall:5.1f} {100 * r.f1:5.1f}"
        )
    return lines


def format_table(scores: Scores, title: str = "") -> str:
    """A plain-text table: one row per type, exact and relaxed P/R/F1 (percent)."""
    lines = score_rows(scores, SCORED_TYPES, title)
    s = scores.span
    lines.append(
        f"{'(untyped spans)':<20} {s.tp + s.fn:>5} {s.tp + s.fp:>5} | {100 * s.precision:5.1f} "
        f"{100 * s.recall:5.1f} {100 * s.f1:5.1f} |"
    )
    lines.append(
        f"{scores.n_docs} abstracts; exact = same span and type, relaxed = same type "
        "and overlapping (one-to-one). Generic not scored."
    )
    return "\n".join(lines)
