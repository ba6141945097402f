"""How a phrase reads as a technical term: a technique, a metric, an activity, a task, a way of
training, a measure or a property, unless a word before its head rates or places it
(:func:`rated`).

Entity resolution (:mod:`kg.resolve.resolver`) asks these questions of a phrase with no name's
evidence to decide whether it is a Method, Task or Metric, or a Concept. They look only at the
phrase's words, its merge key and the shipped word lists (:mod:`kg.resolve.words`,
:mod:`kg.resolve.kinds`).
"""

from __future__ import annotations

from kg.extract.normalize import singularize
from kg.resolve.kinds import PROPERTY_HEADS, TASK_WORDS, is_listed
from kg.resolve.words import resolution_words, word_list


def rated(name: str) -> bool:
    """Whether a word before the phrase's head rates or places it ("real-world", "complex":
    ``generic_modifiers.txt``)."""
    modifiers = resolution_words().modifiers
    return any(w in modifiers for w in name.lower().split()[:-1])


#: Single words that name a technique alone: ``technique_words.txt``.
_TECHNIQUE_WORDS = frozenset(word_list("technique_words.txt"))


def reads_as_technique(key: str, name: str) -> bool:
    """Whether a method phrase with no name's evidence reads as a technique: it ends in a
    technique head (``technique_heads.txt``) and no word before it rates or places it; a
    single word, when it is one of ``technique_words.txt``.

    >>> reads_as_technique("ridge-regression", "ridge regression")
    True
    >>> [reads_as_technique(w, w) for w in ("quantization", "sampling")]
    [True, False]
    >>> reads_as_technique("efficient-fine-tuning", "efficient fine-tuning")
    False
    >>> reads_as_technique("minibatch-back-propagation", "minibatch back-propagation")
    True
    """
    techniques = resolution_words().techniques
    words = key.split("-")
    if len(words) == 1:
        return key in _TECHNIQUE_WORDS  # "quantization"; not "sampling" or "decoding" alone
    # The head may be written with a hyphen: "back-propagation", "pre-training".
    heads = (words[-1], "".join(words[-2:]))
    return any(h in techniques for h in heads) and not rated(name)


def reads_as_metric(key: str, name: str) -> bool:
    """Whether a metric phrase with no name's evidence reads as a metric: it ends in a metric of
    kg's curated list (``metric_terms.txt``) and no word before it rates or places it.

    >>> reads_as_metric("language-modeling-perplexity", "language modeling perplexity")
    True
    >>> reads_as_metric("task-success-rate", "task success rates")
    True
    >>> reads_as_metric("generalization-error-formula", "generalization error formulae")
    False
    >>> reads_as_metric("attention-map", "attention maps")  # not mAP
    False
    """
    return ends_in_one_of(key, resolution_words().metrics) and not rated(name)


def ends_in_one_of(key: str, keys: frozenset[str]) -> bool:
    """Whether ``key``, or its words from one on, is one of ``keys``.

    >>> ends_in_one_of("mini-imagenet", frozenset({"imagenet"})), ends_in_one_of("map", frozenset())
    (True, False)
    """
    words = key.split("-")
    return any("-".join(words[i:]) in keys for i in range(len(words)))


#: Nouns that end in "-ing" and name no activity ("one-shot setting", "token embedding":
#: ``ing_nouns.txt``).
_ING_NOUNS = frozenset(word_list("ing_nouns.txt"))


def reads_as_activity(key: str, name: str) -> bool:
    """Whether a phrase names an activity: a gerund after a modifier ("curriculum learning",
    "linear probing"), not a technique's (``technique_heads.txt``), nor a plural noun that ends in
    "-ing" ("discriminative embeddings"), with no word before it that rates or places it.

    >>> [reads_as_activity(k, n) for k, n in [("majority-voting", "majority voting"),
    ...     ("discriminative-embedding", "discriminative embeddings"),
    ...     ("complex-reasoning", "complex reasoning")]]
    [True, False, False]
    """
    words = key.split("-")
    return (
        _gerund(words)
        and words[-1] not in _ING_NOUNS
        and not name.endswith("ings")
        and not rated(name)
    )


def _gerund(words: list[str]) -> bool:
    """Whether a phrase's words end in a gerund after a modifier that is no technique's head
    ("object referring", "curriculum learning"; not "prompt tuning")."""
    return (
        len(words) > 1
        and words[-1].endswith("ing")
        and words[-1] not in resolution_words().techniques
    )


def reads_as_task(key: str, name: str) -> bool:
    """Whether a task phrase with no name's evidence reads as a research task: its head (before
    a trailing "tasks") is a task head of ``task_heads.txt`` ("generation", "reasoning") or a
    gerund after a modifier ("object referring"), and no word before it rates or places it
    (``generic_modifiers.txt``: "real-world", "complex").

    A lone everyday word before "tasks" or "problems" says what kind of tasks, not which task:
    "reasoning tasks", "generation tasks", "classification problems" are classes of tasks.

    >>> reads_as_task("code-generation-task", "code generation tasks")
    True
    >>> [reads_as_task(k, n) for k, n in [("real-world-application", "real-world applications"),
    ...     ("complex-reasoning", "complex reasoning"), ("model-design", "model design")]]
    [False, False, False]
    >>> reads_as_task("reasoning-task", "reasoning tasks")
    False
    """
    lists = resolution_words()
    words = key.split("-")
    trimmed = False
    while len(words) > 1 and words[-1] in TASK_WORDS:
        words.pop()
        trimmed = True
    head = words[-1]
    if trimmed and len(words) == 1 and is_listed(head, lists.general):  # "reasoning tasks"
        return False
    # A gerund after a modifier names an activity too ("object referring", "image captioning"),
    # unless it is a technique's ("prompt tuning", "hard-negative mining").
    if (
        not _gerund(words)
        and head not in lists.task_heads
        and "-".join(words[-2:]) not in lists.task_heads
    ):
        return False
    return not rated(name)


#: Plural nouns written as their singular: "time series".
_INVARIANT_PLURALS = frozenset({"series"})


def names_things(name: str) -> bool:
    """Whether a task phrase names things in the plural, not an activity: the products of
    one ("word embeddings", "model predictions", "LLM generations"), or things ("video
    games", "point processes", "time series"). "inverse problems" and "GUI tasks" are kinds
    of tasks (``task_words.txt``), and a phrase with an activity in it ("Segmenting 3D
    objects", "generation of 3D objects") stays a task.

    >>> [names_things(n) for n in ("word embeddings", "time series", "inverse problems")]
    [True, True, False]
    >>> [names_things(n) for n in ("Segmenting 3D objects", "robotics", "image generation")]
    [False, False, False]
    """
    words = name.lower().split()
    last = words[-1]
    if singularize(last) in TASK_WORDS or "of" in words or words[0].endswith("ing"):
        return False
    return last in _INVARIANT_PLURALS or (last.endswith("s") and singularize(last) != last)


#: Heads of measured quantities (``measure_heads.txt``).
_MEASURE_HEADS = frozenset(word_list("measure_heads.txt"))
#: Heads of ways of training (``training_heads.txt``).
_TRAINING_HEADS = frozenset(word_list("training_heads.txt"))


def reads_as_training(key: str, name: str) -> bool:
    """Whether a phrase names a way of training: a modifier, then a head of
    ``training_heads.txt`` ("RL training", "contrastive pre-training"), or such a head written
    with its prefix ("post-training"), and no word that rates it ("naive fine-tuning").

    >>> [reads_as_training(k, k) for k in ("rl-training", "post-training", "training")]
    [True, True, False]
    >>> reads_as_training("naive-fine-tuning", "naive fine-tuning")
    False
    """
    words = key.split("-")
    return (
        len(words) > 1
        and not rated(name)
        and (words[-1] in _TRAINING_HEADS or "-".join(words[-2:]) in _TRAINING_HEADS)
    )


def reads_as_measure(key: str, name: str) -> bool:
    """Whether a phrase names a quantity papers measure: a modifier, then a head of
    ``measure_heads.txt``, singular or plural, and no word that rates or places it.

    >>> from kg.extract.normalize import normalize_key
    >>> [reads_as_measure(normalize_key(n), n) for n in ("computational cost", "inference costs",
    ...     "low cost", "cost", "generalization error", "factual errors")]
    [True, True, False, False, True, False]
    """
    words = key.split("-")
    if words[-1] == "error" and (not name.endswith("error") or "and" in words):
        return False  # "factual errors", "trial-and-error": things that go wrong, not a measure
    return len(words) > 1 and words[-1] in _MEASURE_HEADS and not rated(name)


def names_a_property(key: str) -> bool:
    """Whether a phrase names a property that papers improve rather than a measure they report:
    its head is in ``property_heads.txt`` ("generation quality", "reliability").

    >>> [names_a_property(k) for k in ("generation-quality", "reliability", "success-rate")]
    [True, True, False]
    """
    return key.rpartition("-")[2] in PROPERTY_HEADS
