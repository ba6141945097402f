"""Topic names: the entities most *specific* to a group of papers (:mod:`kg.graph.topics`).

An entity names a topic when a good share of the topic's papers link it *and* it is several
times more common there than in the corpus (a lift of :data:`MIN_LIFT`: an entity in a third of
a conference can never reach it, so "large language models" names no topic of ICLR 2026).
Among those, the score is the share times the log of the lift: the common one of two specific
entities wins. The name is the first :data:`NAME_PARTS` that do not repeat one another
(:func:`same_thing`), acronyms spelled out where the long form is short (:func:`readable_name`).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from kg.schema import LABEL_ATTR, NAME, Label

#: Entities in a topic's name, and in each of its top lists.
NAME_PARTS = 3
TOP_LIST = 5
#: An entity describes a topic when at least this share of its papers (and MIN_COUNT) link
#: it and it is at least MIN_LIFT times as common in the topic as in the whole corpus.
MIN_TOPIC_SHARE = 0.05
MIN_COUNT = 2
MIN_LIFT = 3.0
OTHER_NAME = "Other papers"
#: An acronym is spelled out in a topic name when its long form is at most this long.
SPELLED_MAX = 24
#: How much an entity of a type counts towards naming a topic (others: 1).
NAME_FACTOR = {Label.METRIC.value: 0.5}


def paper_count(node: dict[str, Any], fallback: int) -> int:
    """An entity's paper count as the graph stores it, else ``fallback``."""
    return int(node.get("paper_count") or fallback or 1)


def specific_entities(
    counts: Counter[str], size: int, nodes: dict[str, dict[str, Any]], corpus: int
) -> list[str]:
    """The entities specific to a group of ``size`` papers of a corpus of ``corpus``, most
    specific first; ``counts``: how many of the group's papers link each entity."""
    scored = []
    for e, c in counts.items():
        pc = paper_count(nodes[e], c)
        share = c / size
        lift = share / (pc / corpus)
        if c < MIN_COUNT or share < MIN_TOPIC_SHARE or lift < MIN_LIFT:
            continue
        if _words(str(nodes[e].get(NAME, ""))) <= _GENERIC:
            continue
        # How often it is in the topic, times how much more often than in the corpus (a log:
        # among specific entities the common one names the topic). A metric ("recall",
        # "speedup") is how papers of many fields measure, rarely what a field is called.
        factor = NAME_FACTOR.get(nodes[e][LABEL_ATTR], 1.0)
        scored.append((factor * share * math.log(lift), c, e))
    scored.sort(key=lambda x: (-x[0], -x[1], x[2]))
    return [e for _, _, e in scored]


def distinct(entities: list[str], nodes: dict[str, dict[str, Any]]) -> list[str]:
    """``entities`` without those that name the same thing as an earlier one
    (:func:`same_thing`)."""
    out: list[str] = []
    for e in entities:
        if not any(same_thing(nodes[e], e, nodes[m], m) for m in out):
            out.append(e)
    return out


def topic_profile(
    members: list[str],
    entities_of: dict[str, list[str]],
    nodes: dict[str, dict[str, Any]],
    corpus: int,
) -> dict[str, Any]:
    """A topic's name and its top methods, tasks and datasets: the entities most specific to
    its papers (see the module docstring).

    >>> nodes = {"method:grpo": {"label": "Method", "name": "GRPO", "paper_count": 2},
    ...          "concept:llm": {"label": "Concept", "name": "LLMs", "paper_count": 9},
    ...          "task:math": {"label": "Task", "name": "math reasoning", "paper_count": 2}}
    >>> entities = {"a": ["concept:llm", "method:grpo", "task:math"],
    ...             "b": ["concept:llm", "method:grpo", "task:math"], "c": ["concept:llm"]}
    >>> profile = topic_profile(["a", "b", "c"], entities, nodes, corpus=10)
    >>> profile["name"], profile["top_methods"], profile["top_tasks"]
    ('GRPO · math reasoning', ['GRPO'], ['math reasoning'])
    """
    counts = Counter(e for p in members for e in entities_of.get(p, ()))
    specific = specific_entities(counts, len(members), nodes, corpus)
    chosen: list[str] = []
    for e in specific:
        if len(chosen) == NAME_PARTS:
            break
        twin = next((c for c in chosen if same_thing(nodes[e], e, nodes[c], c)), None)
        if twin is None:
            chosen.append(e)
        elif _narrows(nodes[e], nodes[twin]) and counts[e] * 5 >= counts[twin] * 2:
            # "KV cache" says what "KV" meant: the longer name takes its place
            chosen[chosen.index(twin)] = e

    def top(label: Label) -> list[str]:
        mine = distinct([e for e in specific if nodes[e][LABEL_ATTR] == label.value], nodes)
        rank = {e: i for i, e in enumerate(mine)}
        mine = sorted(mine[:TOP_LIST], key=lambda e: (-counts[e], rank[e]))
        return [readable_name(nodes[e], e) for e in mine]

    return {
        "name": " · ".join(readable_name(nodes[e], e) for e in chosen)
        or _fallback_name(members, counts, nodes),
        "top_methods": top(Label.METHOD),
        "top_tasks": top(Label.TASK),
        "top_datasets": top(Label.DATASET),
    }


#: Words that say nothing about which thing a name names ("... learning", "... models").
_FILLER = frozenset({
    "a", "an", "and", "for", "in", "of", "on", "the", "to", "with", "via", "based", "large",
    "learning", "model", "method", "approach", "framework", "network", "task",
})  # fmt: skip
#: Words that alone name no field: an entity whose telling words are all of these ("neural
#: networks", "AI systems", "base model", "success rate") never names a topic.
_GENERIC = frozenset({
    "neural", "deep", "machine", "ai", "system", "data", "algorithm", "base", "training",
    "performance", "accuracy", "loss", "function", "general", "novel", "success", "rate",
})  # fmt: skip


def _words(name: str) -> set[str]:
    words = name.lower().replace("-", " ").replace("/", " ").split()
    return {_singular(w) for w in words} - _FILLER


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _initials(name: str) -> str:
    return "".join(w[0] for w in name.lower().replace("-", " ").split() if w)


def same_thing(a: dict[str, Any], a_id: str, b: dict[str, Any], b_id: str) -> bool:
    """Whether two entities' names would say the same thing twice in a topic name: one is an
    alias or the acronym of the other, or their telling words overlap ("machine unlearning",
    "LLM unlearning").

    >>> moe = {"name": "Mixture-of-Experts", "aliases": ["MoE"]}
    >>> same_thing(moe, "method:mixture-of-experts", {"name": "MoE models"}, "method:moe-models")
    True
    >>> same_thing({"name": "HJ"}, "method:hj", {"name": "Hamilton-Jacobi equation"}, "x:hje")
    True
    >>> same_thing({"name": "SGD"}, "method:stochastic-gradient-descent",
    ...            {"name": "gradient descent"}, "method:gradient-descent")
    True
    >>> same_thing({"name": "PPO"}, "method:proximal-policy-optimization",
    ...            {"name": "GRPO"}, "method:group-relative-policy-optimization")
    False
    >>> same_thing({"name": "continual learning"}, "task:continual-learning",
    ...            {"name": "catastrophic forgetting"}, "concept:catastrophic-forgetting")
    False
    """
    names_a = {str(a.get(NAME, "")), a_id.partition(":")[2], *map(str, a.get("aliases") or [])}
    names_b = {str(b.get(NAME, "")), b_id.partition(":")[2], *map(str, b.get("aliases") or [])}
    words_a = set().union(*map(_words, names_a))
    words_b = set().union(*map(_words, names_b))
    initials_a, initials_b = {_initials(n) for n in names_a}, {_initials(n) for n in names_b}
    if initials_a & words_b or initials_b & words_a:
        return True
    # "HJ" of "Hamilton-Jacobi equation", "PU" of "Positive-Unlabeled learning"
    for names, initials in ((names_a, initials_b), (names_b, initials_a)):
        for acronym in (n.lower().rstrip("s") for n in names if _is_acronym(n)):
            if any(i.startswith(acronym) for i in initials):
                return True
    # Names as written or spelled out repeat each other when half their telling words are
    # shared ("machine unlearning", "LLM unlearning"). An id's key (the long form) repeats a
    # name it contains ("SGD" is "stochastic-gradient-descent", which has "gradient descent"),
    # but two long forms sharing words name two things ("proximal policy optimization", GRPO's).
    said_a = [w for w in map(_words, {str(a.get(NAME, "")), readable_name(a, a_id)}) if w]
    said_b = [w for w in map(_words, {str(b.get(NAME, "")), readable_name(b, b_id)}) if w]
    for wa in said_a:
        for wb in said_b:
            if len(wa & wb) * 2 >= min(len(wa), len(wb)):
                return True
    key_a, key_b = _words(a_id.partition(":")[2]), _words(b_id.partition(":")[2])
    return any(wb <= key_a for wb in said_b) or any(wa <= key_b for wa in said_a)


def _is_acronym(name: str) -> bool:
    return 2 <= len(name) <= 8 and name.isalnum() and not any(c.islower() for c in name.rstrip("s"))


def _narrows(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether name ``a`` is name ``b`` and more ("KV cache" of "KV")."""
    wa, wb = _words(str(a.get(NAME, ""))), _words(str(b.get(NAME, "")))
    return bool(wb) and wb < wa


def readable_name(node: dict[str, Any], node_id: str) -> str:
    """An entity's name for a topic name: an acronym is spelled out when the graph knows its
    long form (the entity id keeps it), so a newcomer can read it.

    >>> readable_name({"name": "TTA", "aliases": ["TTA methods", "Test-Time Adaptation",
    ...                "test-time adaptation"]}, "method:test-time-adaptation")
    'test-time adaptation'
    >>> readable_name({"name": "GRPO", "aliases": []}, "method:grpo")
    'GRPO'
    """
    name = str(node.get(NAME) or node_id)
    key = node_id.partition(":")[2]
    if "-" not in key or not _is_acronym(name):
        return name
    # A long form of more than a few words reads worse than the acronym everyone uses (GRPO).
    spelled = [
        a
        for a in node.get("aliases") or []
        if _key(a) in (key, key + "s") and len(a) <= SPELLED_MAX
    ]
    return min(spelled, key=lambda a: (a != a.lower(), a)) if spelled else name


def _key(name: str) -> str:
    return "-".join(name.lower().replace("-", " ").split())


def _fallback_name(
    members: list[str], counts: Counter[str], nodes: dict[str, dict[str, Any]]
) -> str:
    """A name for a topic where no entity stands out: its most linked entities, else the
    words its papers' text similarity rests on (withdrawn papers share only "withdrawn")."""
    common = [e for e in sorted(counts, key=lambda e: (-counts[e], e)) if counts[e] >= MIN_COUNT]
    if common:
        return " · ".join(readable_name(nodes[e], e) for e in common[:NAME_PARTS])
    inside = set(members)
    words: Counter[str] = Counter()
    for p in members:
        attrs = nodes[p]
        for q, terms in zip(
            attrs.get("similar") or [], attrs.get("similar_terms") or [], strict=False
        ):
            if q in inside:
                words.update(t for t in str(terms).split(", ") if t)
    top = [w for w in sorted(words, key=lambda w: (-words[w], w)) if words[w] > 1][:NAME_PARTS]
    return " · ".join(top) or "Papers"
