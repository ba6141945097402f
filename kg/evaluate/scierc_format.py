"""Predictions in SciERC's own format, so that anyone can score kg with their own scorer.

A record per abstract, as in SciERC's ``{train,dev,test}.json``: ``doc_key``, ``sentences``
(SciERC's tokens, unchanged), ``ner`` (per sentence, ``[start, end, label]`` with document-level,
inclusive token indices) holding kg's predictions, and ``relations`` (per sentence; empty until
kg extracts relations). kg tokenises text its own way, so a predicted character span becomes
the SciERC tokens it covers.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kg.evaluate.scierc import SciercDoc, Span, token_offsets


def prediction_record(doc: SciercDoc, spans: Sequence[Span]) -> dict[str, Any]:
    """``doc`` in SciERC's format with ``spans`` (character offsets into ``doc.text``, SciERC
    labels) as its ``ner``. Each span goes to the sentence of its first token.

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
    """
    tokens, starts, first_of_sentence = token_offsets(doc.sentences)
    ends = [start + len(token) for start, token in zip(starts, tokens, strict=True)]
    ner: list[list[list[Any]]] = [[] for _ in doc.sentences]
    for start, end, label in sorted(set(spans)):
        first = max(0, bisect.bisect_right(starts, start) - 1)  # the token holding the start
        last = min(len(tokens) - 1, bisect.bisect_left(ends, end))  # ... and the end
        which = bisect.bisect_right(first_of_sentence, first) - 1
        ner[which].append([first, max(first, last), label])
    for spans_of_sentence in ner:
        spans_of_sentence.sort()
    return {
        "doc_key": doc.doc_key,
        "sentences": doc.sentences,
        "ner": ner,
        "relations": [[] for _ in doc.sentences],
    }


def write_predictions(
    docs: Sequence[SciercDoc], predictions: Sequence[Sequence[Span]], path: str | Path
) -> Path:
    """Write one :func:`prediction_record` per document to ``path`` (JSON Lines)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for doc, spans in zip(docs, predictions, strict=True):
            out.write(json.dumps(prediction_record(doc, spans)) + "\n")
    return path
