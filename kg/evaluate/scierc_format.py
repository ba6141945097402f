"""Predictions in SciERC's own format, so that anyone can score kg with their own scorer.

A record per abstract, as in SciERC's ``{train,dev,test}.json``: ``doc_key``, ``sentences``
(SciERC's tokens, unchanged), ``ner`` (per sentence, ``[start, end, label]`` with document-level,
inclusive token indices) holding kg's predictions, and ``relations`` (per sentence,
``[start1, end1, start2, end2, label]``, the same indices, SciERC's labels; empty unless
relations are given). kg tokenises text its own way, so a predicted character span becomes the
SciERC tokens it covers (:class:`TokenIndex`).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kg.evaluate.scierc import SciercDoc, Span, token_offsets

CharSpan = tuple[int, int]
#: A relation in SciERC's terms, in characters: (arg1 span, arg2 span, SciERC label).
SciercRelation = tuple[CharSpan, CharSpan, str]


class TokenIndex:
    """SciERC's tokens of one document, to turn character spans into token spans and back.

    >>> from kg.evaluate.scierc import doc_from_record
    >>> doc = doc_from_record({"doc_key": "d", "sentences": [["A", "non-linear", "map", "."],
    ...                                                       ["It", "works"]], "ner": [[], []]})
    >>> index = TokenIndex(doc)
    >>> index.token_span(6, 12)  # "linear": inside the token "non-linear"
    (1, 1)
    >>> index.snap((6, 12)), doc.text[slice(*index.snap((6, 12)))]
    ((2, 12), 'non-linear')
    >>> index.sentence(4)
    1
    """

    def __init__(self, doc: SciercDoc) -> None:
        tokens, self.starts, self.first_of_sentence = token_offsets(doc.sentences)
        self.ends = [start + len(token) for start, token in zip(self.starts, tokens, strict=True)]

    def token_span(self, start: int, end: int) -> tuple[int, int]:
        """The first and last (inclusive) SciERC tokens the characters ``start:end`` touch."""
        first = max(0, bisect.bisect_right(self.starts, start) - 1)  # the token holding start
        last = min(len(self.ends) - 1, bisect.bisect_left(self.ends, end))  # ... and the end
        return first, max(first, last)

    def snap(self, span: CharSpan) -> CharSpan:
        """``span`` widened to whole SciERC tokens: what :func:`prediction_record` writes."""
        first, last = self.token_span(*span)
        return self.starts[first], self.ends[last]

    def sentence(self, token: int) -> int:
        """The index of the sentence holding ``token``."""
        return bisect.bisect_right(self.first_of_sentence, token) - 1


def prediction_record(
    doc: SciercDoc, spans: Sequence[Span], relations: Sequence[SciercRelation] = ()
) -> dict[str, Any]:
    """``doc`` in SciERC's format with ``spans`` (character offsets into ``doc.text``, SciERC
    labels) as its ``ner`` and ``relations`` (character spans, SciERC labels) as its
    ``relations``. Each goes to the sentence of its first token (a relation: of its first
    argument's, as SciERC's relations never cross sentences).

    >>> from kg.evaluate.scierc import doc_from_record
    >>> rec = {"doc_key": "d", "sentences": [["A", "parser", "."], ["It", "-LRB-", "x", "-RRB-"]],
    ...        "ner": [[], []]}
    >>> doc = doc_from_record(rec)
    >>> doc.text
    'A parser . It ( x )'
    >>> prediction_record(doc, [(2, 8, "Method"), (16, 17, "Task"), (11, 13, "Generic")])["ner"]
    [[[1, 1, 'Method']], [[3, 3, 'Generic'], [5, 5, 'Task']]]
    >>> prediction_record(doc, [(3, 6, "Method")])["ner"]  # inside a token: the token
    [[[1, 1, 'Method']], []]
    >>> prediction_record(doc, [], [((11, 13), (16, 17), "USED-FOR")])["relations"]
    [[], [[3, 3, 5, 5, 'USED-FOR']]]
    """
    index = TokenIndex(doc)
    ner: list[list[list[Any]]] = [[] for _ in doc.sentences]
    for start, end, label in sorted(set(spans)):
        first, last = index.token_span(start, end)
        ner[index.sentence(first)].append([first, last, label])
    rels: list[list[list[Any]]] = [[] for _ in doc.sentences]
    for arg1, arg2, label in sorted(set(relations)):
        s1, e1 = index.token_span(*arg1)
        s2, e2 = index.token_span(*arg2)
        rels[index.sentence(s1)].append([s1, e1, s2, e2, label])
    for per_sentence in (*ner, *rels):
        per_sentence.sort()
    return {"doc_key": doc.doc_key, "sentences": doc.sentences, "ner": ner, "relations": rels}


def write_predictions(
    docs: Sequence[SciercDoc],
    predictions: Sequence[Sequence[Span]],
    path: str | Path,
    relations: Sequence[Sequence[SciercRelation]] | None = None,
) -> Path:
    """Write one :func:`prediction_record` per document to ``path`` (JSON Lines); ``relations``:
    each document's, if any."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    per_doc = relations if relations is not None else [()] * len(docs)
    with path.open("w", encoding="utf-8") as out:
        for doc, spans, rels in zip(docs, predictions, per_doc, strict=True):
            out.write(json.dumps(prediction_record(doc, spans, rels)) + "\n")
    return path
