"""A trained pairwise relation classifier, beside :mod:`kg.extract.relations`' rules.

The rules are precise but find few of the relations a sentence states. This model looks at
every pair of arguments (mentions, and the "our method" stand-ins) of one sentence, near
enough (:data:`MAX_GAP` tokens between), and decides whether one is USED_FOR, EVALUATED_ON,
COMPARED_WITH, PART_OF, MEASURED_BY or IS_A the other, and which way round, or neither
(:data:`CLASSES`: a pair is seen once, first argument in the text first).

* Features (:func:`pair_features`): sparse indicators of the two arguments' types and head
  words, the words and POS tags between them (the whole string when short, and a bag), the
  words just before and after, the distance, the other mentions between, whether a verb or a
  cue of the rules' cue lists is between. Each feature name is hashed (CRC32, stable across
  processes) into :data:`BUCKETS` buckets; the model keeps the buckets training saw.
* A multinomial logistic regression over them (scikit-learn, at training time only:
  :mod:`kg.train.relations`, ``kg train relations``), trained on SciERC train with gold
  mentions and with kg's own predicted mentions.
* A pair's relation is its most probable class but NONE, when that class' probability
  reaches its type's threshold (:attr:`RelationModel.thresholds`, chosen on SciERC dev for
  precision). MEASURED_BY's tail is a Metric, EVALUATED_ON's never (SciERC's EVALUATE-FOR,
  split by the tail's type).

A model is one ``.npz`` of plain arrays (buckets, float16 weights, bias, thresholds), loaded
with ``allow_pickle=False``; inference is numpy alone.
"""

from __future__ import annotations

import re
import zlib
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from kg.extract.lexicon import read_data_lines

RELATION_TYPES = ("USED_FOR", "EVALUATED_ON", "COMPARED_WITH", "PART_OF", "MEASURED_BY", "IS_A")
#: The classes of a pair (a, b), a first in the text: ">" a is the head, "<" b is; a comparison
#: has no direction.
CLASSES: tuple[str, ...] = (
    "NONE",
    "USED_FOR>", "USED_FOR<",
    "EVALUATED_ON>", "EVALUATED_ON<",
    "COMPARED_WITH",
    "PART_OF>", "PART_OF<",
    "MEASURED_BY>", "MEASURED_BY<",
    "IS_A>", "IS_A<",
)  # fmt: skip
#: Each class' relation type (None for NONE) and whether the first argument is the head.
CLASS_TYPE: tuple[str | None, ...] = tuple(c.rstrip("<>") if c != "NONE" else None for c in CLASSES)
HEAD_FIRST: tuple[bool, ...] = tuple(not c.endswith("<") for c in CLASSES)
#: Pairs further apart than this many tokens are not asked about: 91% of SciERC train's
#: relations have no more between their arguments, and on dev, of what a model asked about
#: pairs up to 24 tokens apart added beyond 12, 1 in 4 was right, at a quarter of the cost.
MAX_GAP = 12
#: The feature hash space (a feature is ``crc32(name) % BUCKETS``).
BUCKETS = 1 << 22
SHIPPED_MODEL = Path(__file__).parent / "models" / "relations" / "relations.npz"
METRIC = "Metric"
#: The words between two arguments taken whole ("for the") when there are at most this many.
_SHORT = 4
_BAG = 12  # at most this many words between go in the bag, from each end
#: How many feature names a model remembers the row of (:meth:`RelationModel.row`).
_REMEMBERED = 200_000
_VERB_TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "MD"})
_FINITE_TAGS = frozenset({"VBD", "VBP", "VBZ", "MD"})

#: The cue lists of the relation rules (kg/extract/relations.py), by the name its patterns use
#: (``"@name"``: a token's values; ``"%name"``: one cue, perhaps several words). A cue between
#: two arguments is also a feature of this model, ``cue=<name without _verbs or _cues>``.
CUE_LISTS = {
    "use_verbs": "relations/use_verbs.txt",
    "based_on_cues": "relations/based_on_cues.txt",
    "evaluate_verbs": "relations/evaluate_verbs.txt",
    "compare_cues": "relations/compare_cues.txt",
    "part_cues": "relations/part_cues.txt",
    "example_cues": "example_cues.txt",  # kg_mentions' "such as", "including", ...
}
#: An argument for the model: its first token, its end token, its label, its head word.
ModelArg = tuple[int, int, str]


@lru_cache(maxsize=1)
def _cues() -> dict[tuple[str, ...], str]:
    """Each cue, as its lower-case words, -> its list's feature name ("use", "compare")."""
    out: dict[tuple[str, ...], str] = {}
    for name, path in CUE_LISTS.items():
        feature = re.sub(r"_(verbs|cues)$", "", name)  # "use_verbs" -> "use"
        for cue in read_data_lines(path):
            out.setdefault(tuple(cue.lower().split()), feature)
    return out


@lru_cache(maxsize=1)
def _cue_firsts() -> frozenset[str]:
    return frozenset(cue[0] for cue in _cues())


def _distance(gap: int) -> str:
    if gap <= 4:
        return str(gap)
    return "5-6" if gap <= 6 else "7-9" if gap <= 9 else "10-14" if gap <= 14 else "15+"


def cue_starts(words: Sequence[str]) -> list[tuple[tuple[str, int], ...]]:
    """Per token, the cues (:data:`CUE_LISTS`) that start there: (list name, length)."""
    cues, firsts = _cues(), _cue_firsts()
    out: list[tuple[tuple[str, int], ...]] = [()] * len(words)
    for i, word in enumerate(words):
        if word in firsts:
            out[i] = tuple(
                (name, n) for n in (1, 2, 3) if (name := cues.get(tuple(words[i : i + n])))
            )
    return out


def pair_features(
    words: Sequence[str],
    tags: Sequence[str],
    a: ModelArg,
    b: ModelArg,
    between_labels: Sequence[str],
    sent: tuple[int, int],
    cues: Sequence[tuple[tuple[str, int], ...]] | None = None,
) -> list[str]:
    """The feature names of the pair (``a``, ``b``), ``a`` first in the text: ``words`` lower
    case, ``tags`` the POS tags, ``between_labels`` the labels of the arguments between,
    ``sent`` the sentence's first and end tokens, ``cues`` :func:`cue_starts` of ``words``
    (made here without). ``t`` below is the two labels.

    * the arguments: labels, head (last) words, with the other's label; their last four words
      (a bag each) and first word (with the label);
    * around them: the word and tag before ``a``, the two words before it, the word and tag
      after ``b``;
    * between them: the distance, how many other arguments and of which labels; the first and
      the last word (alone, together, with ``t``, with the count), their tags; all the words
      when at most :data:`_SHORT`, the tags when at most twice that; a bag of the words and of
      their bigrams (at most :data:`_BAG` from each end); the verbs (with ``t``), whether
      there is none, how many finite ones; a comma; which cue lists' cues (:data:`CUE_LISTS`).
    """
    s1, e1, l1 = a
    s2, e2, l2 = b
    h1, h2 = words[e1 - 1], words[e2 - 1]
    gap = s2 - e1
    n_args = len(between_labels)
    pre = words[s1 - 1] if s1 > sent[0] else "<s>"
    pre2 = words[s1 - 2] if s1 - 2 >= sent[0] else "<s>"
    pre_tag = tags[s1 - 1] if s1 > sent[0] else "<s>"
    post = words[e2] if e2 < sent[1] else "</s>"
    post_tag = tags[e2] if e2 < sent[1] else "</s>"
    t = f"{l1}|{l2}"
    f = [
        f"t={t}", f"t1={l1}", f"t2={l2}", f"h1={h1}", f"h2={h2}", f"h1t2={h1}|{l2}",
        f"t1h2={l1}|{h2}", f"d={_distance(gap)}", f"dt={_distance(gap)}|{t}",
        f"nm={min(n_args, 3)}", f"pre={pre}", f"post={post}", f"pret={pre}|{t}",
        f"postt={post}|{t}", f"pre2={pre2}|{pre}",
        *(f"bm={label}" for label in set(between_labels)),
        *(f"w1={w}" for w in set(words[max(s1, e1 - 4) : e1])),
        *(f"w2={w}" for w in set(words[max(s2, e2 - 4) : e2])),
        f"f1={words[s1]}|{l1}", f"f2={words[s2]}|{l2}", f"pt={pre_tag}", f"qt={post_tag}",
    ]  # fmt: skip
    if gap == 0:
        f.append(f"adj|{t}")
        return f
    between, btags = words[e1:s2], tags[e1:s2]
    first, last = between[0], between[-1]
    f += [
        f"bf={first}", f"bl={last}", f"bfl={first}|{last}", f"bft={first}|{t}",
        f"blt={last}|{t}", f"btf={btags[0]}", f"btl={btags[-1]}",
    ]  # fmt: skip
    if gap <= _SHORT:
        joined = " ".join(between)
        f += [f"bw={joined}", f"bwt={joined}|{t}"]
    if gap <= 2 * _SHORT:
        f.append("bt=" + " ".join(btags))
    if gap <= 2 * _BAG:
        bag, bag_tags = between, btags
    else:
        bag, bag_tags = [*between[:_BAG], *between[-_BAG:]], [*btags[:_BAG], *btags[-_BAG:]]
    f += [f"b={w}" for w in set(bag)]
    f += [f"bb={x} {y}" for x, y in set(zip(bag, bag[1:], strict=False))]
    verbs = {w for w, tag in zip(bag, bag_tags, strict=True) if tag in _VERB_TAGS}
    f += [f"bv={w}|{t}" for w in verbs]
    if not verbs:
        f.append(f"noverb|{t}")
    finite = sum(tag in _FINITE_TAGS for tag in bag_tags)
    f += [f"fin={min(finite, 2)}|{t}", f"blnm={last}|{min(n_args, 2)}"]
    if "," in between:
        f.append(f"comma|{t}")
    if gap <= 2 * _BAG:  # (always for candidates: MAX_GAP)
        starts = cue_starts(between) if cues is None else cues[e1:s2]
        found = {name for k, here in enumerate(starts) for name, n in here if k + n <= gap}
    else:
        found = {name for here in cue_starts(bag) for name, _ in here}
    f += [f"cue={name}|{t}" for name in found]
    return f


def hashed(features: Iterable[str]) -> list[int]:
    """Feature names -> their buckets."""
    return [zlib.crc32(name.encode()) % BUCKETS for name in features]


def candidate_pairs(
    args: Sequence[ModelArg], sentence_of: Sequence[int], sentence_end: dict[int, int]
) -> list[tuple[int, int]]:
    """Pairs (i, j), i < j, of ``args`` (in text order) in one sentence with at most
    :data:`MAX_GAP` tokens between."""
    out = []
    for i, (s1, e1, _) in enumerate(args):
        for j in range(i + 1, len(args)):
            s2 = args[j][0]
            if s2 - e1 > MAX_GAP or sentence_of[s2] != sentence_of[s1]:
                break
            out.append((i, j))
    return out


def doc_features(
    words: Sequence[str],
    tags: Sequence[str],
    args: Sequence[ModelArg],
    pairs: Sequence[tuple[int, int]],
    sentence_of: Sequence[int],
    sentence_end: dict[int, int],
) -> list[list[str]]:
    """:func:`pair_features` of each of ``pairs`` (indexes into ``args``)."""
    cues = cue_starts(words)
    out = []
    for i, j in pairs:
        first = sentence_of[args[i][0]]
        sent = (first, sentence_end[first])
        labels = [args[k][2] for k in range(i + 1, j)]
        out.append(pair_features(words, tags, args[i], args[j], labels, sent, cues))
    return out


def sentence_index(doc: Any) -> tuple[list[int], dict[int, int]]:
    """Per token, its sentence's first token; and each sentence's end token by its first."""
    sentence_of = [0] * len(doc)
    ends = {}
    for sent in doc.sents:
        sentence_of[sent.start : sent.end] = [sent.start] * len(sent)
        ends[sent.start] = sent.end
    return sentence_of, ends


def lower_and_tags(doc: Any) -> tuple[list[str], list[str]]:
    """A doc's lower-case words and POS tags, from one array."""
    strings = doc.vocab.strings
    arr = doc.to_array(["LOWER", "TAG"])
    return [strings[int(x)] for x in arr[:, 0]], [strings[int(x)] for x in arr[:, 1]]


class RelationModel:
    """The classifier's weights (a row per kept bucket, a column per class) and thresholds."""

    def __init__(
        self,
        buckets: np.ndarray,
        weights: np.ndarray,
        bias: np.ndarray,
        thresholds: dict[str, float],
    ) -> None:
        order = np.argsort(buckets)
        self.buckets = np.asarray(buckets, dtype=np.int64)[order]
        self.weights = np.asarray(weights, dtype=np.float32)[order]
        self.bias = np.asarray(bias, dtype=np.float32)
        self.thresholds = {t: float(thresholds.get(t, 1.01)) for t in RELATION_TYPES}
        self._class_threshold = np.array(
            [1.01 if t is None else self.thresholds[t] for t in CLASS_TYPE], dtype=np.float32
        )
        self._bucket_list: list[int] = self.buckets.tolist()
        self._rows: dict[str, int] = {}

    def save(self, path: str | Path) -> None:
        np.savez_compressed(
            path,
            classes=np.array(CLASSES, dtype=str),
            buckets=self.buckets.astype(np.int32),
            weights=self.weights.astype(np.float16),
            bias=self.bias.astype(np.float32),
            thresholds=np.array([self.thresholds[t] for t in RELATION_TYPES], dtype=np.float32),
            n_buckets=np.int64(BUCKETS),
            max_gap=np.int64(MAX_GAP),
        )

    @classmethod
    def load(cls, path: str | Path) -> RelationModel:
        with np.load(path, allow_pickle=False) as z:
            if tuple(str(c) for c in z["classes"]) != CLASSES or int(z["n_buckets"]) != BUCKETS:
                raise ValueError(f"{path}: not a relation model for {CLASSES}")
            thresholds = dict(zip(RELATION_TYPES, map(float, z["thresholds"]), strict=True))
            return cls(z["buckets"], z["weights"], z["bias"], thresholds)

    def row(self, name: str) -> int:
        """The weight row of a feature name (-1 for a bucket training never saw), remembered:
        most names come back in every abstract."""
        r = self._rows.get(name)
        if r is None:
            if len(self._rows) >= _REMEMBERED:
                self._rows.clear()
            bucket = zlib.crc32(name.encode()) % BUCKETS
            k = bisect_left(self._bucket_list, bucket)
            r = k if k < len(self._bucket_list) and self._bucket_list[k] == bucket else -1
            self._rows[name] = r
        return r

    def scores(self, features: Sequence[Sequence[str]]) -> np.ndarray:
        """(pairs, classes) log-linear scores of the pairs' feature names."""
        out = np.tile(self.bias, (len(features), 1))
        names = [name for pair in features for name in pair]
        if not names:
            return out
        found = list(map(self._rows.get, names))
        if None in found:
            found = [self.row(n) if r is None else r for r, n in zip(found, names, strict=True)]
        rows = np.array(found)
        pair = np.repeat(np.arange(len(features)), [len(f) for f in features])
        known = rows >= 0
        rows, pair = rows[known], pair[known]
        if len(rows):
            starts = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]])
            out[pair[starts]] += np.add.reduceat(self.weights[rows], starts, axis=0)
        return out

    def proba(
        self, features: Sequence[Sequence[str]], tail_metric: np.ndarray | None = None
    ) -> np.ndarray:
        """(pairs, classes) probabilities. ``tail_metric``: (pairs, 2) whether the first and
        the second argument is a Metric; MEASURED_BY needs its tail to be one, EVALUATED_ON
        needs it not to be."""
        s = self.scores(features)
        s -= s.max(1, keepdims=True)
        np.exp(s, out=s)
        if tail_metric is not None:
            first_metric, second_metric = tail_metric[:, 0], tail_metric[:, 1]
            for k, c in enumerate(CLASSES):
                if c.startswith(("MEASURED_BY", "EVALUATED_ON")):
                    tail = second_metric if HEAD_FIRST[k] else first_metric
                    s[:, k] *= tail if c.startswith("MEASURED_BY") else ~tail
        s /= s.sum(1, keepdims=True)
        return s

    def decide(self, proba: np.ndarray) -> list[tuple[int, int, float]]:
        """Per pair with a relation: its index, its class, the class' probability."""
        if not len(proba):
            return []
        best = 1 + np.argmax(proba[:, 1:], axis=1)
        p = proba[np.arange(len(proba)), best]
        keep = np.nonzero(p >= self._class_threshold[best])[0]
        return [(int(i), int(best[i]), float(p[i])) for i in keep]

    def predict(
        self,
        words: Sequence[str],
        tags: Sequence[str],
        args: Sequence[ModelArg],
        sentence_of: Sequence[int],
        sentence_end: dict[int, int],
    ) -> list[tuple[int, int, str, float]]:
        """The relations among ``args`` (in text order): (head index, tail index, type,
        probability)."""
        pairs = candidate_pairs(args, sentence_of, sentence_end)
        if not pairs:
            return []
        features = doc_features(words, tags, args, pairs, sentence_of, sentence_end)
        metric = np.array([(args[i][2] == METRIC, args[j][2] == METRIC) for i, j in pairs])
        out = []
        for k, c, p in self.decide(self.proba(features, metric)):
            i, j = pairs[k]
            head, tail = (i, j) if HEAD_FIRST[c] else (j, i)
            out.append((head, tail, str(CLASS_TYPE[c]), p))
        return out


@lru_cache(maxsize=1)
def shipped_model() -> RelationModel | None:
    """The shipped model (``kg/extract/models/relations/relations.npz``), or None without one."""
    return RelationModel.load(SHIPPED_MODEL) if SHIPPED_MODEL.exists() else None
