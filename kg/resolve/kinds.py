"""What names a kind of thing rather than which thing, and whether a Concept is worth a node.

A phrase may say what kind of thing a name is ("FooNet framework", "RULER benchmark": the kind
words), describe rather than name ("prior methods", "UCB-based algorithm", "7B model",
"high-quality"), or name a class of things ("RL algorithms", "large language models", "AI
agents"). :func:`worth_a_node` asks these questions of a Concept, and :func:`names_a_kind` of
the words after a name. The word sets the other readings share (kind, task and method words)
are defined here.

These look only at the phrase's words, its merge key and the shipped word lists
(:mod:`kg.resolve.words`). How a phrase reads as a technical term (:mod:`kg.resolve.terms`)
and as a name (:mod:`kg.resolve.names`) build on this module, which imports neither.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kg.extract.lexicon import load_lexicon
from kg.extract.normalize import normalize_key, singularize
from kg.resolve.words import (
    ResolutionWords,
    known_terms,
    modifier_acronyms,
    resolution_words,
    with_plurals,
    word_list,
)

#: Trailing words that only say "a task" ("code generation tasks"): the head is the word before
#: (``task_words.txt``).
TASK_WORDS = frozenset(word_list("task_words.txt"))
#: ... and words that only say "a method" after a technique ("gradient descent algorithm":
#: ``method_words.txt``).
METHOD_WORDS = frozenset(word_list("method_words.txt"))
#: Kind words that say a coined name is a dataset ("RULER benchmark"), singular and plural.
DATASET_KIND_WORDS = with_plurals(word_list("dataset_kind_words.txt"))
#: Lower-case words after a name that say what kind of thing it is, not which: "FooNet framework"
#: is FooNet, "HumanRef dataset" is HumanRef, "CUDA implementations" is CUDA (``kind_words.txt``
#: and ``dataset_kind_words.txt``, singular and plural).
KIND_WORDS = with_plurals(word_list("kind_words.txt")) | DATASET_KIND_WORDS


_SUFFIXES = "|".join(re.escape(w) for w in word_list("descriptive_suffixes.txt"))
_ADJECTIVES = "|".join(re.escape(w) for w in word_list("descriptive_adjectives.txt"))
#: A hyphen-suffixed modifier that makes a phrase a description of a kind ("UCB-based
#: algorithm", "REPO-trained models", "LLM-based agents": ``descriptive_suffixes.txt``) rather
#: than a name.
DESCRIPTIVE = re.compile(
    rf"\S-(?:{_SUFFIXES})\s(?:.*\s)?[a-z][a-z-]*$"
    # The adjective alone: "ETR-predicted", "non-UCB-based" describe, they name nothing (any
    # suffix in -ed, and descriptive_adjectives.txt).
    rf"|^\S+-(?:[a-z]+ed|{_ADJECTIVES})$"
)


#: A model's size written as its name or in it ("1.5B", "Qwen2.5-7B-Instruct", "LLaDA-8B"),
#: matched on merge keys and names alike; as a name, a memory's size too ("80GB", "400KB":
#: 11 such entities on ICLR 2026 and 2018).
WRITTEN_SIZE = re.compile(r"\d+(?:\.\d+)?(?:[bmBM]|[kKmMgGtT]i?[bB])")


#: Heads of properties a system has (``property_heads.txt``).
PROPERTY_HEADS = frozenset(word_list("property_heads.txt"))
#: Nouns that say how something is done ("unsupervised manner": ``manner_heads.txt``).
_MANNER_HEADS = frozenset(word_list("manner_heads.txt"))
#: What every paper does: learning, training, optimization (``generic_activities.txt``).
_GENERIC_ACTIVITIES = frozenset(word_list("generic_activities.txt"))


def is_listed(word: str, listed: frozenset[str]) -> bool:
    """Whether ``word`` or its singular is in ``listed``."""
    return word in listed or singularize(word) in listed


def worth_a_node(name: str, key: str) -> bool:
    """Whether a Concept names something specific enough to be a node of the graph, one that
    ties together papers about the same thing rather than papers that share an everyday word.

    Not worth a node:

    * a single lower-case word common in general English, or the plural of one
      (``general_words.txt``: "signals", "overhead", "patterns"), research activities too
      ("retrieval", "detection", "matching"): alone, such a word ties together papers on
      unrelated tasks ("document retrieval", "molecule retrieval"), which have nodes of their
      own;
    * words separated by commas ("audio, visual"): a list, not one name;
    * a generic name ("AI", "GPU": ``generic_names.txt``), an ordinary word capitalised at the
      start of a sentence ("Remarkably", "Evaluation"), a lone letter;
    * hardware ("H100", "NVIDIA A100 GPUs": :func:`names_hardware`), which papers run on, not
      study; a word cut at a hyphen or a formula (:func:`cut_or_formula`); a count of
      things (:func:`counts_things`: "average 6.51 images");
    * a broad research field ("deep learning", "computer vision": ``broad_fields.txt``), which
      most papers of a corpus could name;
    * rating words alone ("high-quality", even where an acronym is defined for it), and an
      acronym written only before what it modifies ("KV" of "KV cache":
      ``modifier_acronyms.tsv``);
    * a description (:func:`describes`): words that rate or place (``generic_modifiers.txt``)
      before an everyday head ("downstream tasks", "prior methods", "complex reasoning"), a
      phrase of generic nouns only ("state-of-the-art", "model behavior"), an everyday activity
      before a generic noun ("generation process", "reasoning tasks", "learning algorithms"), a
      field before words that name nothing ("machine learning models").

    A rare word ("overfitting", "sycophancy"), a phrase of a shipped list ("weight decay") and
    any other phrase may be a research concept.

    >>> [worth_a_node(n, normalize_key(n)) for n in ("signals", "overhead", "Remarkably", "AI")]
    [False, False, False, False]
    >>> [worth_a_node(n, normalize_key(n)) for n in ("deep learning", "neural networks")]
    [False, True]
    >>> [worth_a_node(n, normalize_key(n)) for n in ("prior methods", "state-of-the-art")]
    [False, False]
    >>> [worth_a_node(n, normalize_key(n)) for n in ("overfitting", "in-context learning")]
    [True, True]
    >>> worth_a_node("retrieval", "retrieval"), worth_a_node("quantization", "quantization")
    (False, True)
    """
    words = resolution_words()
    if DESCRIPTIVE.match(name) or WRITTEN_SIZE.fullmatch(key):  # "large-scale", "zero-shot"
        return False
    if key in words.fields or names_hardware(name) or cut_or_formula(name):
        return False
    if only_a_size(name) or counts_things(name):  # "8B parameters", "5 jailbreak attacks"
        return False
    if ", " in name:  # a list or adjectives in a row: "audio, visual", "lightweight, post-hoc"
        return False
    if only_rating_words(name):  # "high-quality" (even defined: "(HQ)"), "adaptive"
        return False
    if key in modifier_acronyms():  # "KV" of "KV cache"
        return False
    if " " in name or "-" in name:
        if key in known_terms():  # a listed name, unless a plain property ("Computational
            *modifiers, head = name.lower().split()  # Efficiency" is a leaderboard's title)
            return not _plain_property(modifiers, head, words)
        return not _a_description(name.lower(), words)
    word = name.lower()
    if len(word) < 2 or key in words.generic_names or normalize_key(name) in words.generic_names:
        return False
    if name.islower() or name.istitle():
        return not (is_listed(word, words.general) or is_listed(word, words.ml_common))
    return True


def describes(name: str) -> bool:
    """Whether a phrase describes rather than names (:func:`_a_description`).

    >>> describes("prior methods"), describes("model"), describes("RL training")
    (True, True, False)
    >>> describes("reasoning tasks"), describes("MuJoCo tasks"), describes("inverse problems")
    (True, False, False)
    >>> describes("learning algorithms"), describes("learning rate")
    (True, False)
    >>> describes("machine learning models"), describes("machine learning theory")
    (True, False)
    """
    return bool(name.strip()) and _a_description(name.lower(), resolution_words())


def _generic_noun(word: str, words: ResolutionWords) -> bool:
    """Whether a word is a generic noun or a part any system has (singular or plural)."""
    return is_listed(word, words.generic_nouns) or is_listed(word, words.ml_common)


def _generic_word(word: str, words: ResolutionWords) -> bool:
    """Whether a word names nothing of its own: a generic noun (:func:`_generic_noun`) or a
    word that says what kind of thing a name is."""
    return _generic_noun(word, words) or word in KIND_WORDS or singularize(word) in METHOD_WORDS


def _plain_property(modifiers: list[str], head: str, words: ResolutionWords) -> bool:
    """Everyday words before a generic property: "visual quality", "computational efficiency",
    "image quality" say in plain words what a paper improves (``property_heads.txt``), and
    name no research concept."""
    return (
        bool(modifiers)
        and head in PROPERTY_HEADS
        and _generic_noun(head, words)
        and all(is_listed(w, words.general) for w in modifiers)
    )


def _a_description(phrase: str, words: ResolutionWords) -> bool:
    """Whether a lower-cased phrase describes rather than names (:func:`worth_a_node`): its
    words apart from stop words are generic nouns, hyphenated parts too ("state-of-the-art");
    a generic name comes before words that name nothing ("machine learning models"); an
    everyday activity before a generic noun ("generation process");
    or words that rate or place ("real-world") come before an everyday head."""
    content = [w for w in phrase.replace("-", " ").split() if w not in words.stop]
    if content and all(_generic_noun(w, words) for w in content):
        return True
    # A field or a broad class, then words that name nothing: "machine learning models", "deep
    # learning algorithms", "neural network architecture", "AI systems" (generic_names.txt);
    # not an activity ("3D understanding" is a task).
    for i in range(1, len(content)):
        if normalize_key(" ".join(content[:i])) in words.generic_names and all(
            _generic_word(w, words) and w not in words.task_heads for w in content[i:]
        ):
            return True
    *modifiers, head = phrase.split()
    # An everyday activity word and a generic noun: "reasoning tasks", "classification
    # problems" (kinds of tasks, :func:`kg.resolve.terms.reads_as_task`), "generation process",
    # "training strategy", "learning algorithms" — any paper's process or strategy; but
    # "reasoning models" are a class of models.
    if (
        len(modifiers) == 1
        and (singular := singularize(head)) != "model"
        and (
            singular in TASK_WORDS
            or singular in METHOD_WORDS
            or is_listed(head, words.generic_nouns)
        )
        and (modifiers[0] in words.task_heads or modifiers[0] in _GENERIC_ACTIVITIES)
        and is_listed(modifiers[0], words.general)
    ):
        return True
    if _plain_property(modifiers, head, words):
        return True
    if modifiers and head in _MANNER_HEADS:  # "in an unsupervised manner"
        return True
    # "large-scale dataset", "novel framework": a generic head, rated, describes too.
    everyday = (
        is_listed(head, words.general)
        or is_listed(head, words.generic_nouns)
        or (head in KIND_WORDS)
    )
    return bool(modifiers) and everyday and all(w in words.modifiers for w in modifiers)


def only_rating_words(name: str) -> bool:
    """Whether every word of a phrase rates or places (``generic_modifiers.txt``), hyphenated
    parts too: "high-quality", "Adaptive", "Slow-Fast" describe, they name nothing.

    >>> only_rating_words("high-quality"), only_rating_words("high-quality images")
    (True, False)
    """
    modifiers = resolution_words().modifiers
    words = name.lower().split()
    return bool(words) and all(
        w in modifiers or all(part in modifiers for part in w.split("-")) for w in words
    )


#: A written size or count, alone or joined to what it counts: "7B", "1.5B-parameter",
#: "7B-scale", "52k", "1M+".
_SIZE_WORD = re.compile(
    r"[~∼]?\d+(?:\.\d+)?[kmbt]\+?(?:-(?:parameters?|scale|sample|token|instruction)s?)?"
)
#: Words that only say what a size counts: "8B parameters", "0.1B parameter models".
_SIZE_NOUNS = frozenset({"parameter", "parameters", "scale", "of"})


def only_a_size(name: str) -> bool:
    """Whether a phrase is a written size and everyday words: "7B model", "3B-parameter
    model", "expert 8B models", "8B parameters", "dataset of 52k videos" describe a model or
    data by its size and name none ("Llama-3.1 8B model", "Atari 100K", "1B Word" name one: a
    capitalised word is a name's). So does a size before a class of models ("8B-parameter
    LLM", "38M-parameter Transformer": ``generic_names.txt``, ``strong_method_heads.txt``).

    >>> [only_a_size(n) for n in ("7B model", "1.5B-parameter models", "387k videos", "200k")]
    [True, True, True, True]
    >>> [only_a_size(n) for n in ("Llama-3.1 8B model", "Atari 100K", "GSM8K", "large model")]
    [False, False, False, False]
    >>> [only_a_size(n) for n in ("8B-parameter LLM", "4B base LLM", "3B parameter Transformers")]
    [True, True, True]
    """
    words = resolution_words()
    written = name.split()
    sized = [t for t in written if _SIZE_WORD.fullmatch(t.lower())]
    if not sized:
        return False
    rest = [t for t in written if t not in sized and t.lower() not in _SIZE_NOUNS]
    return all(
        _model_class(part, words)
        or (
            part.islower()  # a capital makes a name: "Gemma 7B model", "1B Word", "DeMo"
            and (
                _generic_word(part, words)
                or is_listed(part, words.general)
                or part in words.modifiers
            )
        )
        for w in rest
        for part in w.split("-")
    )


def _model_class(word: str, words: ResolutionWords) -> bool:
    """Whether a word, capitalised or not, names a class of models: "LLM", "MLLM" (generic
    names), "Transformers" (a method's head)."""
    return (
        normalize_key(word) in words.generic_names
        or singularize(word.lower()) in load_lexicon().strong_method_heads
    )


#: ``hardware_words.tsv``: word -> processor, model or maker.
_HARDWARE = dict(line.split("\t") for line in word_list("hardware_words.tsv"))
_PROCESSORS = with_plurals(sorted(w for w, kind in _HARDWARE.items() if kind == "processor"))
_MODELS = frozenset(w for w, kind in _HARDWARE.items() if kind == "model")
_MAKERS = frozenset(w for w, kind in _HARDWARE.items() if kind == "maker")


def names_hardware(name: str) -> bool:
    """Whether ``name`` names a piece of hardware (``hardware_words.tsv``): its last word is a
    processor, or it opens with an accelerator model, its maker before it or not ("H100",
    "NVIDIA A100", "RTX 4090").

    >>> [names_hardware(n) for n in ("H100 GPU", "Nvidia GPUs", "NVIDIA A100", "RTX 4090")]
    [True, True, True, True]
    >>> [names_hardware(n) for n in ("GPU hours", "multi-GPU training", "Writing GPU kernels")]
    [False, False, False]
    """
    words = re.findall(r"[a-z0-9]+", name.lower())
    if not words:
        return False
    if words[-1] in _PROCESSORS:
        return True
    if words[0] in _MAKERS:
        words = words[1:]
    return bool(words) and words[0] in _MODELS


#: Signs of a formula, and a superscript or subscript left open at the end.
_FORMULA = re.compile(r"[=∈∉≤≥≈→←⊂⊆]|[\^_]$")


def cut_or_formula(name: str) -> bool:
    """Whether ``name`` is a piece of a word cut at a hyphen ("tool-" of "tool-use", "-group
    accuracy" of "worst-group accuracy", "Controllable Harmonization of On-") or a formula
    ("FID=1.46", "x^0 ∈R^d", "submatrix A^"): no entity (ICLR 2026: about 60 such nodes).

    >>> [cut_or_formula(n) for n in ("tool-", "-group accuracy", "FID=1.46", "submatrix A^")]
    [True, True, True, True]
    >>> [cut_or_formula(n) for n in ("DPM-Solver++", "A-VARC^+", "k-means", "π^3")]
    [False, False, False, False]
    """
    return name.startswith("-") or name.endswith("-") or _FORMULA.search(name) is not None


#: A number as a count of things: "6.51", "600", "∼ 4" (its sign a word of its own).
_COUNT = re.compile(r"[~∼≈]?\d+(?:\.\d+)?")
#: Words a number follows in a metric's name ("top 5 accuracy", "pass 1"): not a count.
_METRIC_BEFORE_NUMBER = frozenset({"top", "pass", "hits", "recall", "precision", "rank"})


def counts_things(name: str) -> bool:
    """Whether ``name`` counts things: a number that opens it or follows a lower-case word or
    a sign, before a lower-case word ("5 jailbreak attacks", "average 6.51 images", "benchmark
    spanning 12 scientific domains", "database of 600 high-quality source videos", "∼ 4
    million"). A phrase that says how many of something there are names none of them; a
    number after a capitalised word is a version or part of a name ("Llama 3 models",
    "Earth Reanalysis 5 reanalysis dataset").

    >>> [counts_things(n) for n in ("5 jailbreak attacks", "average 6.51 images", "∼ 4 million")]
    [True, True, True]
    >>> [counts_things(n) for n in ("Llama 3 models", "V-JEPA 2 encoders", "top 5 accuracy")]
    [False, False, False]
    >>> counts_things("ImageNet-1k 256 × 256 generation")
    False
    """
    words = name.split()
    for i, word in enumerate(words[:-1]):
        if not _COUNT.fullmatch(word) or not words[i + 1][:1].islower():
            continue
        before = words[i - 1] if i else ""
        if before.lower() in _METRIC_BEFORE_NUMBER or before in ("×", "x"):
            continue  # "top 5 accuracy"; "256 × 256 generation" is a size of images
        if not before or before.islower() or not any(c.isalnum() for c in before):
            return True
    return False


def generic_modifier(name: str, generic: frozenset[str]) -> bool:
    """Whether ``name`` is a generic name followed by lower-case words only: "AI agents", "GPU
    hours", "ML models", "AI-generated text" are kinds of things, not names.

    >>> g = frozenset({"ai", "gpu"})
    >>> [generic_modifier(n, g) for n in ("AI agents", "AI-generated text", "AI2 Reasoning")]
    [True, True, False]
    """
    first, sep, rest = name.partition(" ")
    head, hyphen, tail = first.partition("-")
    if hyphen and normalize_key(head) in generic:  # "AI-generated text"
        return f"{tail} {rest}".strip().islower()
    return bool(sep) and normalize_key(first) in generic and rest.islower()


def is_model_class(key: str, names: dict[str, int]) -> bool:
    """A broad class of models or agents, not a method: "... model(s)" or "... agent(s)" that
    papers write in lower case ("large language models", "diffusion models", "reward model",
    "deep research agents"), even when an acronym names it ("LLMs"). "Gaussian mixture model"
    or "Qwen2.5-VL model" are always written as names.

    >>> is_model_class("large-language-model", {"large language models": 3, "LLMs": 9})
    True
    >>> is_model_class("gaussian-mixture-model", {"Gaussian mixture model": 2})
    False
    >>> is_model_class("web-agent", {"web agents": 2})
    True
    """
    return key.rpartition("-")[2] in _CLASS_HEADS and any(n == n.lower() for n in names)


#: Heads of broad classes of models and agents (``class_heads.txt``).
_CLASS_HEADS = frozenset(word_list("class_heads.txt"))


@lru_cache(maxsize=1)
def _kind_heads() -> frozenset[str]:
    """The last words of a phrase that names a kind of thing: "SSM-based language model",
    "gradient-based NAS framework", "math reasoning benchmarks" (``kind_words.txt``,
    ``dataset_kind_words.txt``, ``class_heads.txt`` and the extraction's ``method_heads.txt``),
    read on first use: importing this module is on paths that never ask."""
    return (
        KIND_WORDS
        | with_plurals(word_list("class_heads.txt"))
        | with_plurals(sorted(load_lexicon().method_heads))
    )


#: Research fields that, before a kind of method, name a class of methods: ``field_names.txt``.
_FIELDS = frozenset(word_list("field_names.txt"))
#: The kinds of method such a class is written with ("RL algorithms", "FL frameworks").
_CLASS_KINDS = METHOD_WORDS | frozenset(
    {"approach", "framework", "paradigm", "pipeline", "scheme", "strategy"}
)


def names_a_field_class(key: str) -> bool:
    """Whether a merge key is a field and a kind of method: a class of methods, no method.

    >>> [names_a_field_class(k) for k in ("rl-algorithm", "reinforcement-learning-framework",
    ...                                   "rl-training", "ppo-algorithm", "reinforcement-learning")]
    [True, True, False, False, False]
    """
    field, _, kind = key.rpartition("-")
    return kind in _CLASS_KINDS and field in _FIELDS


def names_a_kind(name: str) -> bool:
    """Whether a phrase of two words or more names a kind of thing worth a node
    (:func:`worth_a_node`), by its last word.

    >>> names_a_kind("SSM-based language model"), names_a_kind("math reasoning benchmarks")
    (True, True)
    >>> names_a_kind("language model"), names_a_kind("downstream tasks"), names_a_kind("regime")
    (True, False, False)
    """
    words = name.lower().split()
    if len(words) < 2 or words[-1] not in _kind_heads():
        return False
    return worth_a_node(name, normalize_key(name))
