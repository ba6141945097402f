"""Greedy decoding of spaCy's transition-based entity recogniser, vectorised over a batch.

spaCy decodes its NER model one state at a time in compiled code (``Parser._parseC``). In the
spaCy 3.8 wheels for Python 3.10 and 3.11 that loop takes and releases the GIL in every
``StateC`` accessor (Cython's profiling hooks, which those wheels are built with, take it on
every exit), and each action's validity check calls several of them: ``perf`` puts most of the
decoding time in locking (``docs/upstream-spacy-ner-gil.md``). This module computes the same
thing in numpy, all states of a batch at a time:

* The model is spaCy's: its tok2vec, the precomputed first hidden layer ("lower") and the
  output layer ("upper") run as they do in spaCy, with the same inputs and the same BLAS (blis,
  for the output layer), so the scores are the same numbers.
* The transition system is spaCy's BILUO one (``spacy/pipeline/_parser_internals/ner.pyx``).
  Every action consumes one token, so a batch steps through its docs in lock step: step ``t``
  decides token ``t`` of every doc at least ``t + 1`` tokens long.

It covers the case kg runs: greedy search (beam width 1), the ``ner`` state features (``nF``
3), BILUO moves, no classes left unseen in training, and docs without preset entities.
Anything else goes to spaCy's own code (:func:`unsupported` says why).
``tests/unit/test_ner_decode.py`` checks both give the same entities.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from kg.extract.fast.gemm import max_of_pieces

# Move types of spaCy's BiluoPushDown (spacy.pipeline._parser_internals.ner), by name prefix,
# and the numbers :func:`decode` gives them (the two that end an entity last).
BEGIN, IN, LAST, UNIT, OUT = "B", "I", "L", "U", "O"
_BEGIN, _IN, _OUT, _LAST, _UNIT = range(5)
_KIND = {BEGIN: _BEGIN, IN: _IN, OUT: _OUT, LAST: _LAST, UNIT: _UNIT}


def unsupported(ner: Any) -> str | None:
    """Why :func:`decode` cannot decode the recogniser ``ner`` (spaCy's own decoder must), or
    None when it can."""
    try:
        model = ner.model
        if ner.cfg.get("beam_width", 1) != 1:
            return "beam search"
        if len(model.layers) != 3:
            return "not a tok2vec, lower, upper model"
        lower, upper = model.layers[1], model.layers[2]
        if lower.name != "precomputable_affine" or not model.attrs.get("has_upper"):
            return "no precomputed hidden layer and output layer"
        if model.attrs.get("unseen_classes"):  # spaCy scores those specially
            return "classes unseen in training"
        if lower.get_dim("nF") != 3 or not upper.has_param("W"):
            return "not the ner state features"
        names = [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]
    except (AttributeError, KeyError, ValueError, TypeError) as exc:
        return f"the recogniser's internals are not as expected ({exc})"
    if not all(n == OUT or n[:2] in ("B-", "I-", "L-", "U-") for n in names):
        return "not BILUO moves"
    return None


class _Moves:
    """The recogniser's actions as arrays, in spaCy's class order."""

    def __init__(self, ner: Any) -> None:
        names = [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]
        labels = [n[2:] if n != OUT else "" for n in names]
        #: Label names by number; 0 is none ("O", and "U-", which only preset tokens allow).
        self.label_names = ["", *sorted(set(labels) - {""})]
        number = {lb: i for i, lb in enumerate(self.label_names)}
        self.kind = np.array([_KIND[n[0]] for n in names], dtype=np.int64)
        self.label_id = np.array([number[lb] for lb in labels], dtype=np.int64)

    def penalty(self) -> np.ndarray:
        """0 for the valid actions, -inf for the others, by state: the Begin/In/Last/Unit/Out
        ``is_valid`` of spaCy's ner.pyx for tokens without a preset entity.

        Rows 0-3 are states without an open entity, ``2 * space + room`` (the token is
        whitespace; an entity may go on past it). Row ``2 + 2 * label + room`` is a state
        inside an entity of that label number.
        """
        kind, label = self.kind, self.label_id
        labelled = label != 0
        rows = []
        for space in (False, True):
            for room in (False, True):
                starts = (kind == _UNIT) | ((kind == _BEGIN) & room)
                rows.append((kind == _OUT) | (labelled & (not space) & starts))
        for number in range(1, len(self.label_names)):
            for room in (False, True):
                rows.append((label == number) & ((kind == _LAST) | ((kind == _IN) & room)))
        return np.where(np.array(rows), 0.0, -np.inf).astype(np.float32)


def has_preset_entities(doc: Any) -> bool:
    """Whether ``doc`` has tokens already marked as in an entity (spaCy's decoder must keep
    them; :func:`decode` does not model that)."""
    from spacy.attrs import ENT_IOB

    iob = doc.to_array([ENT_IOB]).reshape(-1)
    return bool(np.any((iob == 1) | (iob == 3)))


def decode(ner: Any, docs: list[Any]) -> tuple[list[list[tuple[int, int, str]]], Any]:
    """The entities spaCy's greedy decoder would find in ``docs``, as (start, end, label) per
    doc, in order, and the recogniser's token vectors of the batch (one row per token, docs one
    after the other; None when the docs have no tokens). ``docs`` must have no preset entities
    (:func:`has_preset_entities`)."""
    import blis.py
    from spacy.attrs import IS_SPACE, SENT_START

    moves = _Moves(ner)
    lengths = np.array([len(d) for d in docs], dtype=np.int64)
    out: list[list[tuple[int, int, str]]] = [[] for _ in docs]
    if not lengths.any():
        return out, None  # (nothing to run the model on)
    model = ner.model
    tokvecs = model.layers[0].predict(docs)
    lower, upper = model.layers[1], model.layers[2]
    cached = lower.predict(tokvecs)  # (tokens + 1, nF, nO, nP); row 0 is the padding
    n_rows, n_feats, n_hidden, n_pieces = cached.shape
    # Pieces first: the maxout is then an elementwise maximum of contiguous slices (a max over
    # a last axis of 2 is a numpy reduction, slow for so short an axis).
    cached = np.ascontiguousarray(cached.transpose(0, 1, 3, 2))
    cached = cached.reshape(n_rows, n_feats, n_pieces * n_hidden)
    bias = np.ascontiguousarray(lower.get_param("b").T).reshape(n_pieces * n_hidden)
    w_upper = np.ascontiguousarray(upper.get_param("W"))
    b_upper = upper.get_param("b")

    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    # Per token of the batch, what the validity of an action depends on: whether it is
    # whitespace (no entity may start there) and whether an entity may go on past it (not when
    # it is its doc's last token or the next one starts a sentence).
    n_tokens = int(lengths.sum())
    is_space = np.zeros(n_tokens, dtype=np.int64)
    room = np.zeros(n_tokens, dtype=np.int64)
    for doc, off, n in zip(docs, offsets, lengths, strict=True):
        if n:
            arr = doc.to_array([IS_SPACE, SENT_START])
            is_space[off : off + n] = arr[:, 0] != 0
            room[off : off + n - 1] = arr[1:, 1].astype(np.int64) != 1
    closed_code = 2 * is_space + room
    penalty = moves.penalty()

    # States in order of decreasing length: the states still running at step t are a prefix.
    order = np.argsort(-lengths, kind="stable")
    length = lengths[order]
    offset = offsets[order]
    n_docs = len(docs)
    is_open = np.zeros(n_docs, dtype=bool)
    ent_start = np.zeros(n_docs, dtype=np.int64)  # the open entity's first token (batch-wide)
    ent_label = np.zeros(n_docs, dtype=np.int64)  # the open entity's moves.label_id
    found: list[tuple[np.ndarray, np.ndarray, int, np.ndarray]] = []
    k = n_docs
    for t in range(int(length[0])):
        while length[k - 1] <= t:
            k -= 1
        opened = is_open[:k]
        token = offset[:k] + t  # this step's token, batch-wide
        # State features (StateC.set_context_tokens, n == 3): the token, the open entity's
        # first token, the token before; -1 (here row 0, the padding) when there is none.
        f_ent = np.where(opened, ent_start[:k] + 1, 0)
        f_prev = np.where(opened, token, 0)
        unmaxed = cached[token + 1, 0] + cached[f_ent, 1]
        unmaxed += cached[f_prev, 2]
        unmaxed += bias
        hidden = max_of_pieces(unmaxed, n_hidden, n_pieces)
        scores = blis.py.gemm(np.ascontiguousarray(hidden), w_upper, trans2=True, beta=0.0)
        scores += b_upper
        # Invalid actions get -inf; argmax takes the first best, as spaCy's arg_max_if_valid.
        code = np.where(opened, 2 + 2 * ent_label[:k] + room[token], closed_code[token])
        scores += penalty[code]
        guess = scores.argmax(axis=1)
        kind = moves.kind[guess]
        label = moves.label_id[guess]
        # Begin opens an entity, Last closes it, Unit is a one-token entity.
        begins = np.flatnonzero(kind == _BEGIN)
        is_open[begins] = True
        ent_start[begins] = token[begins]
        ent_label[begins] = label[begins]
        ends = np.flatnonzero(kind >= _LAST)
        if len(ends):
            starts = np.where(kind[ends] == _LAST, ent_start[ends] - offset[ends], t)
            found.append((order[ends], starts, t + 1, label[ends]))
            is_open[ends] = False
    names = moves.label_names
    for docs_i, starts, end, labels in found:
        for d, s, lb in zip(docs_i.tolist(), starts.tolist(), labels.tolist(), strict=True):
            out[d].append((s, end, names[lb]))
    return out, tokvecs


def set_entities(ner: Any, docs: list[Any], tokvecs_key: str | None = None) -> None:
    """Decode ``docs`` and set their entities as spaCy's recogniser would (every other token
    is marked outside an entity); with ``tokvecs_key``, leave each doc's token vectors in its
    ``user_data`` under that key."""
    from spacy.tokens import Span

    found, tokvecs = decode(ner, docs)
    start = 0
    for doc, ents in zip(docs, found, strict=True):
        doc.set_ents([Span(doc, s, e, label=lb) for s, e, lb in ents], default="outside")
        if tokvecs_key is not None and tokvecs is not None:
            doc.user_data[tokvecs_key] = np.asarray(tokvecs[start : start + len(doc)])
        start += len(doc)


def pipe(
    ner: Any, docs: Iterable[Any], batch_size: int, tokvecs_key: str | None = None
) -> Iterator[Any]:
    """``ner.pipe(docs, batch_size=...)`` decoded by :func:`decode` (``ner`` must not be
    :func:`unsupported`); a batch with preset entities goes to spaCy's decoder."""
    from spacy.util import minibatch

    for batch in minibatch(docs, size=batch_size):
        yield from _run(ner, list(batch), tokvecs_key)


def _run(ner: Any, batch: list[Any], tokvecs_key: str | None) -> list[Any]:
    if any(has_preset_entities(d) for d in batch):
        from kg.extract.fast import spacy_ner_pipe

        return list(spacy_ner_pipe(ner, batch, len(batch), tokvecs_key))
    set_entities(ner, batch, tokvecs_key)
    return batch
