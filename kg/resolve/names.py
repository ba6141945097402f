"""How a phrase reads as a name: its merge key without a kind word (:func:`mention_key`),
the type an apposition or a kind word gives it, whether it is written as a name, names a model,
a benchmark or a dataset, or only a size, an everyday word or a kind of data.

Entity resolution (:mod:`kg.resolve.resolver`) asks these questions of each merged phrase to
decide whether it is a named Method, Dataset, Task or Metric. They look only at the phrase's
words, its merge key and the shipped word lists (:mod:`kg.resolve.words`, and the kind words
of :mod:`kg.resolve.kinds`); whether the words before a method word read as a technique is
:mod:`kg.resolve.terms`'s question.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kg.extract.names import AT_K_WORDS, COINED
from kg.extract.normalize import clean_surface, normalize_key
from kg.models import Mention
from kg.resolve.kinds import DATASET_KIND_WORDS, KIND_WORDS, METHOD_WORDS, is_listed
from kg.resolve.terms import reads_as_activity, reads_as_technique
from kg.resolve.words import (
    acronym_meanings,
    known_terms,
    listed_datasets,
    model_families,
    resolution_words,
    with_plurals,
    word_list,
)
from kg.schema import Label

_DIGIT = re.compile(r"\d")
_NAME_CHAR = re.compile(r"[A-Z0-9]")
#: The trailing words of a task phrase that say only "a task" and go from its name (merge key,
#: and as written: a capitalised "Problem" is part of a name).
_TRAILING_TASK_WORDS = frozenset({"task", "problem"})
_TRAILING_TASK_FORMS = with_plurals(sorted(_TRAILING_TASK_WORDS))
_KIND_KEYS = frozenset(normalize_key(w) for w in KIND_WORDS)
#: The type a kind word after a coined name says ("RULER benchmark").
_KIND_LABEL = {w: Label.DATASET.value for w in sorted(DATASET_KIND_WORDS)}
#: A mention whose kind word says what it is ("RULER benchmark") outvotes a few mentions typed
#: only by their shape (the coined-word rule calls every coined name a method).
KIND_VOTES = 3
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


def capitals_key(text: str) -> str | None:
    """The merge key of a name written in capitals that is also an everyday English word
    ("SPEED", "CARE", "PRISM"), or None. It keeps the capitals: SPEED, the method one paper
    proposes, is not the speed hundreds of papers write of, whose votes would make it a
    concept of no node. A name the shipped lists know (CLIP, MATH, REINFORCE) or call generic
    keeps the key its list gives it.

    >>> capitals_key("SPEED"), capitals_key("speed"), capitals_key("GRPO"), capitals_key("MATH")
    ('SPEED', None, None, None)
    """
    if not (len(text) >= 3 and text.isalpha() and text.isupper()):
        return None
    word = text.lower()
    if word not in resolution_words().general or word in _shipped_keys():
        return None
    return text


def name_key(text: str) -> str:
    """The merge key of a name as written: :func:`capitals_key`, else ``normalize_key``.

    >>> name_key("SPEED"), name_key("Speed"), name_key("LLMs")
    ('SPEED', 'speed', 'llm')
    """
    return capitals_key(text) or normalize_key(text)


def key_capitals(mentions: list[Mention]) -> None:
    """Give one paper's mentions of a name in capitals that is an everyday word their own
    merge key (:func:`capitals_key`), its title-case mentions too: "we propose Doppler ...
    DOPPLER achieves" name one thing, not the Doppler effect of other papers. Keys already
    given stay the same, so a second call changes nothing."""
    caps = {
        m.text
        for m in mentions
        if m.text.isupper()
        and _as_written(m)
        and capitals_key(m.text) is not None
        and not in_capitals(m.sentence)
    }
    if not caps:
        return
    for m in mentions:
        written = m.text.upper()
        if written in caps and (m.text.isupper() or m.text.istitle()) and _as_written(m):
            m.key = written


def in_capitals(sentence: str) -> bool:
    """Whether most words of a sentence are in capitals (a title so written), where capitals
    say nothing of names.

    >>> in_capitals("TRACEDET: HALLUCINATION DETECTION FROM THE DECODING TRACE"), in_capitals("")
    (True, False)
    """
    words = sentence.split()
    return sum(w.isupper() for w in words) * 2 > len(words)


def _as_written(m: Mention) -> bool:
    """Whether a mention names what it writes (no acronym definition gives it a long form)."""
    return not m.canonical or m.canonical == m.text


@lru_cache(maxsize=1)
def _shipped_keys() -> frozenset[str]:
    """The merge keys of every name the shipped lists give a type or call generic."""
    words = resolution_words()
    return frozenset().union(
        known_terms(), listed_datasets(), acronym_meanings(), words.generic_names, words.metrics
    )


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
            shouted = in_capitals(m.sentence)
            surface, key = base, normalize_key(base) if shouted else name_key(base)
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
    if last in METHOD_WORDS and m.type is _METHOD:
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
_SIZED = re.compile(r"(?:^|[-_ ])\d+(?:\.\d+)?[BM](?:$|[-_ ])")


def names_a_dataset_kind(key: str) -> bool:
    """Whether a merge key ends in a word that says "a dataset" ("...-benchmark", "...-corpus")."""
    return key.rpartition("-")[2] in DATASET_KIND_WORDS


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


#: What abstracts write before "@" in a metric at a cut-off ("Pass@1", "R@0.1", "mR@100"): the
#: gazetteer's words and the abbreviations of ``at_k_prefixes.txt``.
_AT_K_WORDS = frozenset(w.lower() for w in (*AT_K_WORDS, *word_list("at_k_prefixes.txt")))
#: Those that end a longer word's name as well ("SecurePass", "AnsF1"; not "r" or "mr").
_AT_K_ENDINGS = frozenset(w for w in _AT_K_WORDS if len(w) > 2) | {"f1"}
_AT_K = re.compile(r"([A-Za-z][\w-]*)@(?:\d+(?:\.\d+)?|[kK])")


def names_an_at_k_metric(name: str) -> bool:
    """Whether ``name`` is a metric at a cut-off: a metric word, or one of its abbreviations,
    before "@" and a number or k, as one word ("Pass@k", "SecurePass@1", "CoT-Pass@K",
    "AnsF1@1", "R1@0.7", "mR@100"). The recogniser reads many as methods' names; not a
    method with its budget ("DeepConf@512").

    >>> [names_an_at_k_metric(n) for n in ("SecurePass@1", "mR@100", "R@0.1", "AnsF1@1")]
    [True, True, True, True]
    >>> [names_an_at_k_metric(n) for n in ("DeepConf@512", "Pass@k and recent variants")]
    [False, False]
    """
    m = _AT_K.fullmatch(name)
    if m is None:
        return False
    before = m.group(1).lower()
    return before in _AT_K_WORDS or any(before.endswith(w) for w in _AT_K_ENDINGS)


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
        if not written or not is_listed(lower, general) or lower in DATASET_KIND_WORDS:
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
    parts = [p for p in re.split(r"[\s\-]+", name) if p]
    return (
        name.islower()
        and len(parts) >= 2
        and not any(c.isdigit() for c in name)
        and not any(p in DATASET_KIND_WORDS for p in parts)
        and key not in listed_datasets()
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
        and is_listed(word, resolution_words().general)
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
