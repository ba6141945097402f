"""Extra training data for the SciERC recogniser (:mod:`kg.train.recogniser`, ``kg train scierc
--with scirex,scienceie``): SciREX sentences and ScienceIE paragraphs.

Their labels are mapped to SciERC's where the mapping is faithful (:data:`SCIREX_LABELS`,
:data:`SCIENCEIE_LABELS`), and what they leave unannotated is marked *unknown* rather than "no
entity" where a token may belong to an entity nobody marked (:func:`partial_docs`). Papers that
are also in SciERC's dev or test, or in SciER, are left out (:func:`held_out_texts`, by shared
word 10-grams).
"""

from __future__ import annotations

import json
import random
import re
import sys
import tarfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.evaluate.scierc import load_split

#: Corpora :func:`kg.train.recogniser.prepare` can add to SciERC train, under ``../shared/data``.
EXTRA_CORPORA = ("scirex", "scienceie")
#: SciREX type → SciERC label. The same four kinds of thing (SciREX's Material are datasets,
#: SciERC's Material "data, datasets, resources"). SciREX has no OtherScientificTerm, Generic.
#: Its Method is broader than SciERC's ("pooling"); leaving it unknown (None) did no better on
#: dev (docs/extraction-quality.md, "SciER and SciREX").
SCIREX_LABELS: dict[str, str | None] = {
    "Method": "Method", "Task": "Task", "Metric": "Metric", "Material": "Material",
}
#: ScienceIE type → SciERC label, or None: an entity of no SciERC type we can trust, left
#: unknown. Its Task is SciERC's Task. Its Process mixes methods with physical processes and
#: equipment ("annealing", "electron microscope": SciERC's OtherScientificTerm), and its Material
#: is mostly physical matter ("steel"), seldom SciERC's data sets.
SCIENCEIE_LABELS: dict[str, str | None] = {"Task": "Task", "Process": None, "Material": None}
#: en_core_web_sm tags of which at least 10% of SciERC train's tokens lie inside a gold span
#: (NN 66%, NNP 86%, JJ 51%, HYPH 84%, VBG 24%, CD 12%, PRP 13% for Generic "it", ...; IN 7%,
#: DT 2%, VBZ 1%). Outside the annotated mentions of a partly annotated text, such a token may
#: belong to an entity nobody marked (an OtherScientificTerm, a Generic, a missed mention): it is
#: left unknown. Any other token is taught as outside every entity.
MAY_BE_INSIDE_TAGS = frozenset({
    "NN", "NNS", "NNP", "NNPS", "JJ", "JJS", "VBN", "VBG", "CD", "FW", "HYPH", "CC", "PRP",
    "POS", "RP", "SYM", "UH", "-LRB-", "-RRB-", "``", "''",
})
#: Shared word 10-grams that make a SciREX paper the same paper as a held-out text: CornerNet-Lite
#: shares 657 with SciER dev; the most any other SciREX paper shares is 16 (a quoted phrase).
SAME_PAPER_SHINGLES = 50
#: SciREX sentence lengths kept (words): shorter ones are headings, longer ones parse debris.
SENTENCE_WORDS = (5, 80)


@dataclass
class PartialText:
    """A text whose annotation is incomplete: ``ents`` (character spans with SciERC labels) are
    trusted, ``unknown`` spans are entities of no trusted type."""

    text: str
    ents: list[tuple[int, int, str]]
    unknown: list[tuple[int, int]] = field(default_factory=list)

    @property
    def words(self) -> int:
        return len(self.text.split())


def shingles(text: str, n: int = 10) -> set[str]:
    """Lower-cased alphanumeric word ``n``-grams (tokenisation-blind).

    >>> sorted(shingles("A b-c, d!", n=3))
    ['a b c', 'b c d']
    """
    words = re.sub(r"[^a-z0-9]+", " ", text.lower()).split()
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def held_out_texts(scierc_dir: Path, shared_data: Path) -> list[str]:
    """What no training text may overlap: SciERC dev and test, and every SciER split (a public
    test of kg; SciER's own licence keeps it out of training anyway)."""
    texts = [d.text for split in ("dev", "test") for d in load_split(scierc_dir, split)]
    scier_dir = shared_data / "scier"
    if scier_dir.is_dir():
        from kg.evaluate import scier

        texts += [d.text for split in scier.SPLIT_FILES for d in scier.load_split(scier_dir, split)]
    return texts


def _joined(words: Sequence[str], spans: Iterable[tuple[int, int, str | None]]) -> PartialText:
    """Tokens joined by spaces, token spans (end exclusive) → a text with character spans; a
    span labelled None is unknown.

    >>> piece = _joined(["We", "use", "Penn", "Treebank", "."], [(2, 4, "Material"), (1, 2, None)])
    >>> [(piece.text[s:e], label) for s, e, label in piece.ents], piece.unknown
    ([('Penn Treebank', 'Material')], [(3, 6)])
    """
    starts, pos = [], 0
    for w in words:
        starts.append(pos)
        pos += len(w) + 1
    piece = PartialText(" ".join(words), [])
    for a, b, label in spans:
        start, end = starts[a], starts[b - 1] + len(words[b - 1])
        if label:
            piece.ents.append((start, end, label))
        else:
            piece.unknown.append((start, end))
    return piece


_MARKUP = re.compile(r"^(?:document|section|subsection|paragraph|bibliography) :$")


def scirex_texts(tar_path: Path, held_out: set[str]) -> Iterator[PartialText]:
    """SciREX's sentences with at least one mention of a trusted type, labels mapped by
    :data:`SCIREX_LABELS` (None: unknown).

    Only sentences with a mention: the annotators marked the salient entities of each paper, so
    a sentence without any is more likely unannotated than free of entities. A paper sharing
    :data:`SAME_PAPER_SHINGLES` 10-grams with a held-out text is left out whole, a sentence
    sharing any is left out alone.
    """
    for doc in scirex_docs(tar_path):
        words = doc["words"]
        if len(shingles(" ".join(words)) & held_out) >= SAME_PAPER_SHINGLES:
            continue
        for start, end in doc["sentences"]:
            first = start
            while first + 1 < end and _MARKUP.match(" ".join(words[first : first + 2])):
                first += 2  # "section : Introduction ..." → "Introduction ..."
            mentions = [(a - first, b - first, SCIREX_LABELS[t]) for a, b, t in doc["ner"]
                        if first <= a and b <= end]
            text_words = words[first:end]
            trusted = any(label for *_, label in mentions)
            if not trusted or not SENTENCE_WORDS[0] <= len(text_words) <= SENTENCE_WORDS[1]:
                continue
            if any("\ue000" <= c <= "\uf8ff" for w in text_words for c in w):
                continue  # private-use glyphs: PDF-extraction debris
            piece = _joined(text_words, mentions)
            if not shingles(piece.text) & held_out:
                yield piece


def scirex_docs(tar_path: Path) -> Iterator[dict[str, Any]]:
    """The papers of a SciREX ``.tar.gz`` (one JSON document a file: words, sentences,
    sections, ner, ...), in the archive's order."""
    with tarfile.open(tar_path) as tar:
        for member in tar:
            fh = tar.extractfile(member) if member.isfile() else None
            if fh is not None:
                yield json.load(fh)


def read_brat(txt: Path) -> PartialText:
    """One ScienceIE paragraph: its Task keyphrases as Task, every other keyphrase unknown
    (:data:`SCIENCEIE_LABELS`). A discontinuous keyphrase, or a span annotated with two types
    ("thermalization" as Task and as Process), is unknown too."""
    text = txt.read_text(encoding="utf-8")
    types: dict[tuple[int, int], set[str]] = {}
    for line in txt.with_suffix(".ann").read_text(encoding="utf-8").splitlines():
        if not line.startswith("T"):
            continue  # relations and synonym lines
        kind, *offsets = line.split("\t")[1].replace(";", " ").split()
        bounds = [int(x) for x in offsets]
        span = (min(bounds), max(bounds))
        types.setdefault(span, set()).add(kind if len(bounds) == 2 else "discontinuous")
    piece = PartialText(text, [])
    for (start, end), kinds in sorted(types.items()):
        label = SCIENCEIE_LABELS.get(next(iter(kinds))) if len(kinds) == 1 else None
        if label:
            piece.ents.append((start, end, label))
        else:
            piece.unknown.append((start, end))
    return piece


def scienceie_texts(folder: Path, held_out: set[str]) -> Iterator[PartialText]:
    """ScienceIE train and dev paragraphs with at least one Task (its test split is left for
    anyone who wants an out-of-domain check)."""
    for split in ("train", "dev"):
        for txt in sorted((folder / split).glob("*.txt")):
            piece = read_brat(txt)
            if piece.ents and not shingles(piece.text) & held_out:
                yield piece


def sample_words(pieces: list[PartialText], words: int, seed: int = 0) -> list[PartialText]:
    """A seeded random sample of ``pieces`` of about ``words`` words (all of them if fewer).

    >>> pieces = [PartialText("a b", []) for _ in range(10)]
    >>> len(sample_words(pieces, 7))
    4
    """
    order = list(pieces)
    random.Random(seed).shuffle(order)
    out, total = [], 0
    for piece in order:
        if total >= words:
            break
        out.append(piece)
        total += piece.words
    return out


def partial_docs(nlp, pieces: Iterable[PartialText], labels: set[str]) -> list:  # noqa: ANN001
    """spaCy Docs for partly annotated texts: the trusted mentions are entities; the tokens of
    unknown spans, and tokens outside any mention whose tag may be inside an entity
    (:data:`MAY_BE_INSIDE_TAGS`), are *missing* (the NER is not told anything about them); the
    rest are outside every entity. ``nlp`` must tag (en_core_web_sm's tok2vec and tagger)."""
    from spacy.tokens import Span
    from spacy.util import filter_spans

    pieces = list(pieces)
    out = []
    for piece, doc in zip(pieces, nlp.pipe(p.text for p in pieces), strict=True):
        ents = [doc.char_span(s, e, label=label, alignment_mode="expand")
                for s, e, label in piece.ents if label in labels]
        ents = filter_spans([span for span in ents if span is not None])
        known = [False] * len(doc)
        for span in ents:
            known[span.start : span.end] = [True] * len(span)
        for s, e in piece.unknown:
            span = doc.char_span(s, e, alignment_mode="expand")
            if span is not None:
                known[span.start : span.end] = [True] * len(span)  # known, as unknown
        outside = [Span(doc, t.i, t.i + 1) for t in doc
                   if not known[t.i] and t.tag_ not in MAY_BE_INSIDE_TAGS]
        doc.set_ents(ents, outside=outside, default="missing")
        out.append(doc)
    return out


def extra_train_docs(extra: Sequence[str], shared_data: Path, scierc_dir: Path, words: int,
                     labels: set[str], base_model: str) -> list:
    """About ``words`` words of each corpus in ``extra``, as partly annotated spaCy Docs
    (tokenised and tagged by the spaCy pipeline ``base_model``)."""
    import spacy

    held_out = set().union(*(shingles(t) for t in held_out_texts(scierc_dir, shared_data)))
    nlp = spacy.load(base_model, exclude=["parser", "senter", "ner", "attribute_ruler",
                                          "lemmatizer"])
    readers = {
        "scirex": lambda: scirex_texts(shared_data / "scirex" / "scirex_train_docs.tar.gz",
                                       held_out),
        "scienceie": lambda: scienceie_texts(shared_data / "scienceie2017", held_out),
    }
    docs = []
    for name in extra:
        pieces = sample_words(list(readers[name]()), words)
        n_ents = sum(len(p.ents) for p in pieces)
        print(f"{name}: {len(pieces)} texts, {sum(p.words for p in pieces)} words, "
              f"{n_ents} mentions", file=sys.stderr)
        docs += partial_docs(nlp, pieces, labels)
    return docs
