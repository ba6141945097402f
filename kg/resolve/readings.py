"""How a phrase reads: as a name, a technique, a task, a metric, an activity, a class of models.

Entity resolution (:mod:`kg.resolve.resolver`) asks these questions of each merged phrase to
decide whether it is a named Method, Dataset, Task or Metric, or a Concept. They look only at the
phrase's words, its merge key and the shipped word lists (:mod:`kg.resolve.words`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from kg.extract.lexicon import load_lexicon
from kg.extract.names import COINED
from kg.extract.normalize import clean_surface, normalize_key, singularize
from kg.models import Mention
from kg.resolve.words import (
    ResolutionWords,
    known_terms,
    model_families,
    modifier_acronyms,
    resolution_words,
    with_plurals,
    word_list,
)
from kg.schema import Label

_DIGIT = re.compile(r"\d")
_NAME_CHAR = re.compile(r"[A-Z0-9]")
#: Trailing words that only say "a task" ("code generation tasks"): the head is the word before
#: (``task_words.txt``).
_TASK_WORDS = frozenset(word_list("task_words.txt"))
#: The trailing words of a task phrase that say only "a task" and go from its name (merge key,
#: and as written: a capitalised "Problem" is part of a name).
_TRAILING_TASK_WORDS = frozenset({"task", "problem"})
_TRAILING_TASK_FORMS = with_plurals(sorted(_TRAILING_TASK_WORDS))
#: ... and words that only say "a method" after a technique ("gradient descent algorithm":
#: ``method_words.txt``).
_METHOD_WORDS = frozenset(word_list("method_words.txt"))
#: Kind words that say a coined name is a dataset ("RULER benchmark"), singular and plural.
_DATASET_KIND_WORDS = with_plurals(word_list("dataset_kind_words.txt"))
#: Lower-case words after a name that say what kind of thing it is, not which: "FooNet framework"
#: is FooNet, "HumanRef dataset" is HumanRef, "CUDA implementations" is CUDA (``kind_words.txt``
#: and ``dataset_kind_words.txt``, singular and plural).
KIND_WORDS = with_plurals(word_list("kind_words.txt")) | _DATASET_KIND_WORDS
_KIND_KEYS = frozenset(normalize_key(w) for w in KIND_WORDS)
#: The type a kind word after a coined name says ("RULER benchmark").
_KIND_LABEL = {w: Label.DATASET.value for w in sorted(_DATASET_KIND_WORDS)}
#: A mention whose kind word says what it is ("RULER benchmark") outvotes a few mentions typed
#: only by their shape (the coined-word rule calls every coined name a method).
KIND_VOTES = 3
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
#: Mention sources that only fire on names or known terms.
NAME_EVIDENCE = frozenset({"gazetteer", "lexicon", "coined", "named_dataset", "acronym", "defined"})


#: Heads of an apposition that says a proposed name is a method ("A2D, a token-level alignment
#: method"; "InfoSeek, a novel data synthesis framework") or a dataset ("X, a benchmark of ...").
_METHOD_APPOSITIVES = "|".join(
    sorted({*word_list("kind_words.txt"), "algorithm", "paradigm", "model", "architecture"})
)
_DATASET_APPOSITIVES = "|".join(sorted(word_list("dataset_kind_words.txt")))
_APPOSITION = re.compile(
    r"\s*(?:\([^()]{1,80}\))?,\s+(?:a|an)\s+(?:[\w-]+\s+){0,5}?"
    rf"(?:(?P<method>{_METHOD_APPOSITIVES})|(?P<dataset>{_DATASET_APPOSITIVES}))s?\b"
)


def apposition_label(text: str, sentence: str) -> str:
    """The type an apposition right after a name gives it, or "": "A2D (Any-Order Defense), a
    token-level alignment method" says Method, "OSWorld-MCP, the first ... benchmark" nothing
    (only "a"/"an" introduce a kind), "X, a benchmark for ..." Dataset.

    >>> apposition_label("A2D", "We introduce A2D (Any-Order), a token-level alignment method.")
    'Method'
    >>> apposition_label("InfoSeek", "we introduce InfoSeek, a novel data synthesis framework that")
    'Method'
    >>> apposition_label("IFEval", "we propose Inverse IFEval, a benchmark that measures")
    'Dataset'
    """
    at = sentence.find(text)
    if at < 0:
        return ""
    found = _APPOSITION.match(sentence, at + len(text))
    if found is None:
        return ""
    return Label.METHOD.value if found.group("method") else Label.DATASET.value


def written_as_name(text: str, sentence: str) -> bool:
    """True when a mention is written as a name: a digit or a capital after its first letter,
    or a capital first letter in the middle of a sentence.

    >>> written_as_name("Mesa layer", "We study the Mesa layer."), written_as_name("GRPO", "")
    (True, True)
    >>> written_as_name("Object referring", "Object referring is hard.")
    False
    """
    rest = text[1:]
    # String methods, not a regex: this runs for every mention of a corpus.
    if rest.lower() != rest or _DIGIT.search(text):
        return True
    return text[:1].isupper() and not sentence.startswith(text)


def without_kind_word(surface: str) -> str | None:
    """A name without the word after it that says what kind of thing it is, or None.

    >>> without_kind_word("HumanRef dataset"), without_kind_word("Lean 4 benchmark")
    ('HumanRef', 'Lean 4')
    >>> without_kind_word("unified framework"), without_kind_word("Ising model")
    (None, None)
    """
    words = surface.split()
    if len(words) > 1 and words[-1] in KIND_WORDS and _NAME_CHAR.search(words[-2]):
        return " ".join(words[:-1])
    return None


#: Enum members as module constants: ``Label.TASK`` is a class-attribute look-up, and
#: :func:`mention_key` runs for every mention of a conference.
_TASK, _METHOD = Label.TASK, Label.METHOD


def mention_key(m: Mention) -> tuple[str, str, str]:
    """A mention's merge key, the surface form it names (sets ``m.key``) and the type its kind
    word gives it ("RULER benchmark": Dataset), or ""."""
    surface = m.canonical or m.text
    # Merge keys come computed from the extraction (and its cache); hand-made mentions may
    # lack one.
    key = m.key or normalize_key(surface)
    kind = ""
    last = key.rpartition("-")[2]
    if last in _KIND_KEYS:  # rare: the string work only then
        cleaned = clean_surface(surface)
        base = without_kind_word(cleaned)
        if base:
            # Only a coined name's kind word says what it is: "Visual Question Answering
            # benchmark" is a benchmark *for* a task, "SR methods" methods for one.
            if COINED.match(base):
                kind = _KIND_LABEL.get(cleaned.rpartition(" ")[2], "")
            surface, key = base, normalize_key(base)
            last = key.rpartition("-")[2]
    elif m.type is _TASK and last in _TRAILING_TASK_WORDS:
        # "image synthesis tasks" are image synthesis, "reinforcement learning problems"
        # reinforcement learning, "decision-making tasks" decision-making. Two words at least
        # must remain: "few-shot tasks" or "downstream tasks" say which tasks, not what task. A
        # capitalised "Problem" is part of a name ("Traveling Salesman Problem").
        split = _last_word_off(surface, min_parts=2)
        if split and split[2] in _TRAILING_TASK_FORMS and (
            # as before for "X Y tasks"; a hyphenated word or a problem must say an activity
            (split[2].startswith("task") and " " in split[0]) or _names_an_activity(split[1])
        ):
            surface, key, _ = split
            last = key.rpartition("-")[2]
    if last in _METHOD_WORDS and m.type is _METHOD:
        # "magnetic mirror descent algorithm" is magnetic mirror descent, "data augmentation
        # techniques" data augmentation: a technique's name needs no word saying it is one.
        # (After the kind words: "methods" after a lower-case phrase is left to this.)
        split = _last_word_off(surface)
        if split and (
            reads_as_technique(split[1], split[0]) or reads_as_activity(split[1], split[0])
        ):
            surface, key, _ = split
    m.key = key
    return key, surface, kind


def _names_an_activity(key: str) -> bool:
    """Whether a key of two parts or more ends in an activity: a task head or a gerund
    ("question-answering", "decision-making", "image synthesis"; not "few-shot")."""
    head = key.rpartition("-")[2]
    return key.count("-") > 0 and (head.endswith("ing") or head in resolution_words().task_heads)


def _last_word_off(surface: str, min_parts: int = 0) -> tuple[str, str, str] | None:
    """The phrase without its last word, that phrase's merge key and the word, when two words or
    more remain ("image synthesis tasks" -> "image synthesis", "image-synthesis", "tasks"); with
    ``min_parts``, when the rest's key has that many hyphen-joined parts ("question-answering")."""
    words = clean_surface(surface).split()
    if len(words) < 2:
        return None
    base = " ".join(words[:-1])
    key = normalize_key(base)
    if len(words) < 3 and not (min_parts and key.count("-") + 1 >= min_parts):
        return None
    return base, key, words[-1]


_FIRST_WORD = re.compile(r"[A-Za-z]+(?:v\d)?")
#: ... or with its digits, for the families whose names hold one ("T5", "o3-mini").
_FIRST_PART = re.compile(r"[A-Za-z0-9]+")
#: A model's size written as its name or in it ("1.5B", "Qwen2.5-7B-Instruct", "LLaDA-8B"),
#: matched on merge keys and names alike; as a name, a memory's size too ("80GB", "400KB":
#: 11 such entities on ICLR 2026 and 2018).
WRITTEN_SIZE = re.compile(r"\d+(?:\.\d+)?(?:[bmBM]|[kKmMgGtT]i?[bB])")
_SIZED = re.compile(r"(?:^|[-_ ])\d+(?:\.\d+)?[BM](?:$|[-_ ])")


def names_a_dataset_kind(key: str) -> bool:
    """Whether a merge key ends in a word that says "a dataset" ("...-benchmark", "...-corpus")."""
    return key.rpartition("-")[2] in _DATASET_KIND_WORDS


#: A part of a name that says "benchmark": "bench", "Bench", "BenchQ", "PICABench", "U2BENCH".
_BENCH_PART = re.compile(
    r"^(?:[Bb]ench|BENCH|[A-Za-z0-9]*Bench[A-Z]?|[A-Z0-9]+BENCH)$"
)


def names_a_benchmark(name: str) -> bool:
    """Whether a coined name says it is a benchmark: a part "bench" ("SWE-bench", "ReD Bench",
    "U2-BENCH") or a word ending in "Bench" ("PICABench", "T2I-ReasonBench"), followed only by
    capitalised parts or versions ("SWE-bench Verified", "BIG-bench Hard", "Terminal-Bench
    1.5"). ICLR 2026 has 43 such names that the mentions call a method or a task.

    >>> [names_a_benchmark(n) for n in ("SWE-bench Verified", "PICABench", "MoReBench-Theory",
    ...                                 "CODE2BENCH", "bench press", "DARE-bench training tasks",
    ...                                 "benchmark TPPs", "Benchmarking")]
    [True, True, True, True, False, False, False, False]
    """
    if name.islower():
        return False
    parts = [p for p in re.split(r"[\s\-_()]+", name) if p]
    for i, part in enumerate(parts):
        if _BENCH_PART.match(part):
            return all(p[0].isupper() or p[0].isdigit() for p in parts[i + 1 :])
    return False


def names_a_model(name: str) -> bool:
    """Whether a name starts with the name of a family of trained models
    (``model_families.txt``): "Gemini 2.5 Pro", "Claude-4-Sonnet", "ResNet-50", "FLUX.1-dev".

    A size in the name says so too ("LLaDA-8B-Instruct").

    >>> [names_a_model(n) for n in ("Gemini 2.0 Flash", "ResNet", "LLaDA-8B-Instruct", "GSM8K")]
    [True, True, True, False]
    >>> [names_a_model(n) for n in ("T5", "o3-mini", "Qwen2.5-VL", "MATH500")]
    [True, True, True, False]
    """
    families = model_families()
    for pattern in (_FIRST_WORD, _FIRST_PART):
        first = pattern.match(name)
        if first is not None and first.group().lower() in families:
            return True
    return _SIZED.search(name) is not None


#: Words that say which kind of data, not which dataset ("3D data", "RGB images", "2D images").
_FORMAT_WORDS = frozenset({"2d", "3d", "4d", "rgb", "rgb-d"})


def reads_as_material(name: str) -> bool:
    """Whether a phrase describes a kind of data in everyday words rather than naming a dataset:
    each word is an everyday English word (``general_words.txt``, or its singular) or a format
    word, and none is written as a name ("natural images", "high-resolution images", "3D data",
    "Videos"; not "MuJoCo", "ImageNet", "Atari games", "MATH").

    >>> [reads_as_material(n) for n in ("natural images", "3D data", "Videos", "MuJoCo")]
    [True, True, True, False]
    """
    general = resolution_words().general
    words = name.replace("-", " ").split()
    if not words or (len(words) == 1 and not name[1:].islower()):
        return False
    for w in words:
        lower = w.lower()
        if lower in _FORMAT_WORDS:
            continue
        # A capital starts a sentence ("Videos"), or a name ("Massive Multimodal Embedding
        # Benchmark") when it is on more than one word.
        written = w.islower() or (len(words) == 1 and w.istitle())
        if not written or not _listed(lower, general) or lower in _DATASET_KIND_WORDS:
            return False
    return True


def reads_as_unnamed_data(key: str, name: str) -> bool:
    """Whether a dataset's name is a lower-case phrase that says what data is like, not which
    data: two words or more, no digit, no kind word of a dataset ("benchmark", "suite"), and
    not a dataset kg's list knows. ICLR 2026 has 10 such "datasets", none one
    ("out-of-distribution inputs", "unpaired data", "text-to-image", "image-to-video").

    >>> [reads_as_unnamed_data(normalize_key(n), n) for n in ("out-of-distribution inputs",
    ...     "text-to-image", "tiny-imagenet", "wikitext-103", "MuJoCo", "reasoning benchmark")]
    [True, True, False, False, False, False]
    """
    from kg.resolve.words import listed_datasets

    parts = [p for p in re.split(r"[\s\-]+", name) if p]
    return (
        name.islower()
        and len(parts) >= 2
        and not any(c.isdigit() for c in name)
        and not any(p in _DATASET_KIND_WORDS for p in parts)
        and key not in listed_datasets()
    )


#: Heads of measured quantities (``measure_heads.txt``).
_MEASURE_HEADS = frozenset(word_list("measure_heads.txt"))


#: Heads of properties a system has (``property_heads.txt``).
_PROPERTY_HEADS = frozenset(word_list("property_heads.txt"))


def names_a_property(key: str) -> bool:
    """Whether a phrase names a property that papers improve rather than a measure they report:
    its head is in ``property_heads.txt`` ("generation quality", "reliability").

    >>> [names_a_property(k) for k in ("generation-quality", "reliability", "success-rate")]
    [True, True, False]
    """
    return key.rpartition("-")[2] in _PROPERTY_HEADS


#: Nouns that say how something is done ("unsupervised manner": ``manner_heads.txt``).
_MANNER_HEADS = frozenset(word_list("manner_heads.txt"))


#: Heads of ways of training (``training_heads.txt``).
_TRAINING_HEADS = frozenset(word_list("training_heads.txt"))
#: What every paper does: learning, training, optimization (``generic_activities.txt``).
_GENERIC_ACTIVITIES = frozenset(word_list("generic_activities.txt"))


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

    >>> [reads_as_measure(normalize_key(n), n) for n in ("computational cost", "inference costs",
    ...     "low cost", "cost", "generalization error", "factual errors")]
    [True, True, False, False, True, False]
    """
    words = key.split("-")
    if words[-1] == "error" and (not name.endswith("error") or "and" in words):
        return False  # "factual errors", "trial-and-error": things that go wrong, not a measure
    return len(words) > 1 and words[-1] in _MEASURE_HEADS and not rated(name)


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
    capitalised word is a name's).

    >>> [only_a_size(n) for n in ("7B model", "1.5B-parameter models", "387k videos", "200k")]
    [True, True, True, True]
    >>> [only_a_size(n) for n in ("Llama-3.1 8B model", "Atari 100K", "GSM8K", "large model")]
    [False, False, False, False]
    """
    words = resolution_words()
    written = name.split()
    sized = [t for t in written if _SIZE_WORD.fullmatch(t.lower())]
    if not sized:
        return False
    rest = [t for t in written if t not in sized and t.lower() not in _SIZE_NOUNS]
    return all(
        part.islower()  # a capital makes a name: "Gemma 7B model", "1B Word", "DeMo"
        and (_generic_word(part, words) or _listed(part, words.general) or part in words.modifiers)
        for w in rest
        for part in w.split("-")
    )


#: Endings of abstract nouns, adjectives and verbs: an everyday English word so ended names a
#: process, a property or an action ("Learning", "Generation", "Complexity", "Semantic",
#: "Optimize"), not a thing a paper could call its own.
_PLAIN_ENDINGS = (
    "ing", "tion", "tions", "sion", "ment", "ity", "ness", "sis", "ic", "al", "ize", "ise", "ify"
)  # fmt: skip


def plain_word(name: str) -> bool:
    """Whether a name is one everyday English word (``general_words.txt``), capitalised, that
    names a process, a property or an action by its ending: "Learning" ("Learning to optimize
    is ..."), "Reasoning", "Generation", "Alignment", "Semantic". Model names that are words
    ("Gemini", "Shampoo", "Lean", "Falcon") end otherwise, and a family of models is a name.

    >>> [plain_word(n) for n in ("Learning", "Generation", "Semantic", "Alignment")]
    [True, True, True, True]
    >>> [plain_word(n) for n in ("Adam", "Gemini", "Shampoo", "GRPO", "learning")]
    [False, False, False, False, False]
    """
    if " " in name or "-" in name or not name.istitle():
        return False
    word = name.lower()
    return (
        word.endswith(_PLAIN_ENDINGS)
        and _listed(word, resolution_words().general)
        and word not in model_families()
    )


#: Plural nouns of data a model takes or makes: ``data_plurals.txt``.
_DATA_PLURALS = frozenset(word_list("data_plurals.txt"))


def names_data(name: str) -> bool:
    """Whether a lower-case phrase ends in a plural noun of data (``data_plurals.txt``):
    "latent representations", "high-resolution inputs" name kinds of data, not methods.

    >>> [names_data(n) for n in ("latent representations", "Rotary Position Embeddings")]
    [True, False]
    >>> names_data("implicit neural representation"), names_data("representations")
    (False, False)
    """
    words = name.split()
    return len(words) > 1 and name.islower() and words[-1] in _DATA_PLURALS


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
    metrics = resolution_words().metrics
    words = key.split("-")
    return any("-".join(words[i:]) in metrics for i in range(len(words))) and not rated(name)


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
    while len(words) > 1 and words[-1] in _TASK_WORDS:
        words.pop()
        trimmed = True
    head = words[-1]
    if trimmed and len(words) == 1 and _listed(head, lists.general):  # "reasoning tasks"
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
    if singularize(last) in _TASK_WORDS or "of" in words or words[0].endswith("ing"):
        return False
    return last in _INVARIANT_PLURALS or (last.endswith("s") and singularize(last) != last)


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
    * rating words alone ("high-quality", even where an acronym is defined for it), and an
      acronym written only before what it modifies ("KV" of "KV cache":
      ``modifier_acronyms.tsv``);
    * a description (:func:`describes`): words that rate or place (``generic_modifiers.txt``)
      before an everyday head ("downstream tasks", "prior methods", "complex reasoning"), a
      phrase of generic nouns only ("state-of-the-art", "model behavior"), an everyday activity
      before a generic noun ("generation process", "reasoning tasks", "learning algorithms"), a
      field before words that name nothing ("machine learning models").

    A rare word ("overfitting", "sycophancy"), a phrase of a shipped list ("deep learning") and
    any other phrase may be a research concept.

    >>> [worth_a_node(n, normalize_key(n)) for n in ("signals", "overhead", "Remarkably", "AI")]
    [False, False, False, False]
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
    if only_a_size(name):  # "8B parameters", "7B scale"
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
        return not (_listed(word, words.general) or _listed(word, words.ml_common))
    return True


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
_CLASS_KINDS = _METHOD_WORDS | frozenset(
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


def _listed(word: str, listed: frozenset[str]) -> bool:
    """Whether ``word`` or its singular is in ``listed``."""
    return word in listed or singularize(word) in listed


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
    return _listed(word, words.generic_nouns) or _listed(word, words.ml_common)


def _generic_word(word: str, words: ResolutionWords) -> bool:
    """Whether a word names nothing of its own: a generic noun (:func:`_generic_noun`) or a
    word that says what kind of thing a name is."""
    return _generic_noun(word, words) or word in KIND_WORDS or singularize(word) in _METHOD_WORDS


def _plain_property(modifiers: list[str], head: str, words: ResolutionWords) -> bool:
    """Everyday words before a generic property: "visual quality", "computational efficiency",
    "image quality" say in plain words what a paper improves (``property_heads.txt``), and
    name no research concept."""
    return (
        bool(modifiers)
        and head in _PROPERTY_HEADS
        and _generic_noun(head, words)
        and all(_listed(w, words.general) for w in modifiers)
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
    # problems" (kinds of tasks, :func:`reads_as_task`), "generation process", "training
    # strategy", "learning algorithms" — any paper's process or strategy; but "reasoning
    # models" are a class of models.
    if (
        len(modifiers) == 1
        and (singular := singularize(head)) != "model"
        and (
            singular in _TASK_WORDS
            or singular in _METHOD_WORDS
            or _listed(head, words.generic_nouns)
        )
        and (modifiers[0] in words.task_heads or modifiers[0] in _GENERIC_ACTIVITIES)
        and _listed(modifiers[0], words.general)
    ):
        return True
    if _plain_property(modifiers, head, words):
        return True
    if modifiers and head in _MANNER_HEADS:  # "in an unsupervised manner"
        return True
    # "large-scale dataset", "novel framework": a generic head, rated, describes too.
    everyday = (
        _listed(head, words.general) or _listed(head, words.generic_nouns) or (head in KIND_WORDS)
    )
    return bool(modifiers) and everyday and all(w in words.modifiers for w in modifiers)
