"""The type of a resolved entity, and the name it goes by: the votes of its mentions, then what
the corpus and the shipped lists say (:mod:`kg.resolve.resolver` says why a node of a named
type must be a name, and how the rules score).

:func:`entity_type` is the decision :class:`~kg.resolve.resolver.Resolver` makes for each final
key, from the key's votes and a :class:`Corpus` (the resolver itself): what several papers
write, which keys a rule found as names, and the shipped lists.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from kg.extract.lexicon import load_lexicon
from kg.extract.normalize import normalize_key
from kg.resolve.kinds import (
    DESCRIPTIVE,
    WRITTEN_SIZE,
    counts_things,
    cut_or_formula,
    describes,
    generic_modifier,
    is_model_class,
    names_a_field_class,
    names_hardware,
    only_a_size,
    only_rating_words,
)
from kg.resolve.names import (
    names_a_benchmark,
    names_a_dataset_kind,
    names_a_model,
    names_an_at_k_metric,
    names_data,
    plain_word,
    reads_as_material,
    reads_as_unnamed_data,
)
from kg.resolve.terms import (
    ends_in_one_of,
    names_a_property,
    names_things,
    rated,
    reads_as_activity,
    reads_as_measure,
    reads_as_metric,
    reads_as_task,
    reads_as_technique,
    reads_as_training,
)
from kg.resolve.words import listed, listed_datasets
from kg.schema import Label

#: Tie-break when a name is typed differently in different papers: specific types first.
TYPE_ORDER = [Label.DATASET, Label.METHOD, Label.TASK, Label.METRIC, Label.CONCEPT]
#: Types whose nodes must be names (others become concepts).
NAMED_TYPES = frozenset({Label.METHOD, Label.DATASET, Label.TASK, Label.METRIC})

#: Tasks are mostly lower-case phrases ("object referring"), so for them a name's evidence is
#: rare; a task phrase that several papers address is a shared research problem and stays a task
#: if it reads like one (:func:`reads_as_task`). A lower-case method needs only to read as a
#: technique ("ridge regression", :func:`reads_as_technique`).
TASK_MIN_PAPERS = 2
#: ... or that one abstract names twice: what the abstract is about ("visual verification").
TASK_MIN_MENTIONS = 2
#: ... and the share of a phrase's mentions that must agree on its type for the type to stand
#: without a list's word for it (:func:`reads_as_activity`).
AGREED_SHARE = 2 / 3


_READS_AS = {Label.TASK: reads_as_task, Label.METRIC: reads_as_metric}


def _variant_of_dataset(key: str) -> bool:
    """Whether a key is a listed dataset's with a year or size after it ("AIME24", "MATH500")."""
    stem = key.rstrip("0123456789").rstrip("-")
    return stem != key and len(stem) > 1 and stem in listed_datasets()


def _ends_in_method_head(key: str) -> bool:
    """Whether a key's last word is a head that makes a method ("a3c-algorithm", "cnn-rnn":
    strong_method_heads.txt)."""
    return key.rpartition("-")[2] in load_lexicon().strong_method_heads


#: A name coined for a network: "PyramidNet", "GoogLeNet", "PossibleWorldNets".
_NETWORK_NAME = re.compile(r"[a-z0-9]Nets?$")


def _dataset_or_not(key: str, name: str) -> Label:
    """The type of an entity the mentions call a dataset, from what its name says: a model's
    name is a Method ("Gemini 2.0 Flash", "ResNet"); a task's a Task ("QA benchmarks" and
    "VQA datasets" are benchmarks *for* question answering); a kind of data in everyday words
    or lower-case ones a Concept ("natural images", "3D data", "out-of-distribution inputs").
    Otherwise a Dataset.

    >>> [_dataset_or_not(normalize_key(n), n).value for n in ("PyramidNet", "ShapeNet",
    ...     "mini-ImageNet", "GSM8K")]
    ['Method', 'Dataset', 'Dataset', 'Dataset']
    """
    # "Asynchronous Advantage Actor Critic (A3C) algorithm", "Dataset Distillation": what
    # experiments run "on" may be a method, and its head says so
    if names_a_model(name) or _ends_in_method_head(key):
        return Label.METHOD
    # "PyramidNet", "RevNet", "DeltaNet": a network, unless kg's list knows it as data
    # ("ShapeNet", "WordNet") or it names a variant of a listed dataset ("mini-ImageNet")
    if _NETWORK_NAME.search(name) and not ends_in_one_of(key, listed_datasets()):
        return Label.METHOD
    if _variant_of_dataset(key):
        return Label.DATASET
    if (
        not any(c.isdigit() for c in key)
        and not names_a_dataset_kind(key)  # "Massive Multimodal Embedding Benchmark"
        and reads_as_task(key, key.replace("-", " "))
    ):
        return Label.TASK
    if reads_as_material(name) or reads_as_unnamed_data(key, name):
        return Label.CONCEPT
    return Label.DATASET


#: "half-precision", "FP8 precision": the precision numbers are stored in, not a metric's.
_NUMBER_FORMAT = re.compile(
    r"(?:half|single|double|full|mixed|low|lower|reduced|arbitrary|infinite|fixed-point"
    r"|floating-point|\d+-bit|(?:fp|bf|int|nvfp|mxfp)\d+)-precision"
)


def _metric_or_not(key: str, name: str) -> Label:
    """The type of an entity the mentions call a metric, from what its name says: a model's
    parts ("CNN-RNN", "CNN-Transformer": a method's head) make a Method, a dataset of the
    shipped list ("EMNIST") a Dataset, the precision numbers are stored in ("half-precision",
    "FP8 precision") a Concept. Otherwise a Metric.

    >>> [_metric_or_not(normalize_key(n), n).value for n in ("CNN-RNN", "EMNIST",
    ...     "half-precision", "BLEU", "top-1 accuracy", "mean average precision")]
    ['Method', 'Dataset', 'Concept', 'Metric', 'Metric', 'Metric']
    """
    if _ends_in_method_head(key):
        return Label.METHOD
    if key in listed_datasets() and key not in listed(Label.METRIC):
        return Label.DATASET
    if _NUMBER_FORMAT.fullmatch(key):
        return Label.CONCEPT
    return Label.METRIC


def _pick_label(votes: dict[Label, int]) -> Label:
    return max(votes, key=lambda lab: (votes[lab], -TYPE_ORDER.index(lab)))


def _spells_out(form: str, acronym: str) -> bool:
    """Whether ``form``'s words start with the letters of ``acronym``, in order.

    >>> _spells_out("Super-Resolution", "SR"), _spells_out("machine learning methods", "RF")
    (True, False)
    """
    words = [w for w in re.split(r"[\s-]+", form) if w]
    return len(words) == len(acronym) and all(
        w[0].upper() == c for w, c in zip(words, acronym.upper(), strict=True)
    )


def _pick_name(forms: dict[str, int]) -> str:
    # The most frequent surface form; ties go to the shorter (usually the singular, lower-case
    # form), then the alphabetically first.
    return min(forms, key=lambda f: (-forms[f], len(f), f))


class Corpus(Protocol):
    """What :func:`entity_type` reads beside one entity's votes: the resolver's view of the
    corpus and the shipped lists, as merge keys."""

    named: set[str]  # keys with evidence of being a name
    compounds: set[str]  # keys some mention writes as a noun compound
    known: frozenset[str]  # known terms of the shipped lists
    generic_names: frozenset[str]  # fields, hardware and the like: no name
    metric_terms: frozenset[str]  # kg's curated metric phrases
    listed_methods: frozenset[str]  # the methods of the shipped Papers with Code list
    listed_tasks: frozenset[str]  # the tasks of the shipped lists
    acronyms: dict[str, tuple[Label, str]]  # undefined acronyms kg's list knows, and meanings
    listed_long_forms: set[str]  # the keys undefined acronyms went to, by the list


def entity_type(
    key: str,
    raw: Sequence[str],
    votes: dict[Label, int],
    forms: dict[str, int],
    papers: set[str],
    long_form: bool,
    corpus: Corpus,
) -> tuple[Label, str]:
    """The type and the name of the entity of final key ``key``: ``raw``, the keys folded into
    it; ``votes``, its mentions' types; ``forms``, its surface forms and their counts;
    ``papers``, the papers that name it; ``long_form``, whether an acronym spells it out."""
    label = _pick_label(votes)
    name = _pick_name(forms)
    shared = len(papers) >= TASK_MIN_PAPERS or sum(votes.values()) >= TASK_MIN_MENTIONS
    # ... or its one mention is a noun compound ("lesion recognition", "face editing"; not
    # "inadequate reasoning"): a kind of activity, named.
    compound = any(k in corpus.compounds for k in raw)
    # The recogniser calls many techniques "other scientific terms" ("hard-negative mining")
    # or tasks ("instruction fine-tuning"): a technique's head says what they are.
    if (
        label in (Label.CONCEPT, Label.TASK)
        and shared
        and reads_as_technique(key, name)
        and not (label == Label.TASK and reads_as_task(key, name))
    ):
        label = Label.METHOD
    # Papers with Code lists it as a method and not as a task ("random search", "Monte Carlo
    # Tree Search", "k-means clustering"): a technique the recogniser read as a task.
    if label == Label.TASK and key in corpus.listed_methods and key not in corpus.listed_tasks:
        label = Label.METHOD
    # Papers with Code lists it as a method ("weight decay", "focal loss"), where the
    # recogniser learnt SciERC's habit of calling such phrases "other scientific terms".
    if label == Label.CONCEPT and key in corpus.listed_methods and not is_model_class(key, forms):
        label = Label.METHOD
    # ... and a phrase of kg's curated metric list is a metric, whatever the recogniser
    # said: cost measures ("inference time", "memory usage", "GPU hours") most often get
    # SciERC's "other scientific term".
    elif (
        key in corpus.metric_terms
        or label == Label.CONCEPT
        and shared
        and reads_as_measure(key, name)
    ):
        label = Label.METRIC
    # "mR@100", "SecurePass@1": a metric at a cut-off, which the recogniser reads as a name
    if names_an_at_k_metric(name):
        label = Label.METRIC
    # "AIME24" looks coined; "SWE-bench", "PICABench" say what they are
    elif (label == Label.METHOD and _variant_of_dataset(key)) or (
        label in (Label.METHOD, Label.TASK) and names_a_benchmark(name)
    ):
        label = Label.DATASET
    elif label == Label.TASK and key not in corpus.known:
        if reads_as_training(key, name):  # "RL training", "post-training": a way of training
            # ... unless its other words are generic ("model training")
            label = Label.CONCEPT if describes(name.rpartition(" ")[0]) else Label.METHOD
        # "diverse reasoning", "efficient reasoning", "generation tasks": a description
        elif rated(name) or describes(name):
            label = Label.CONCEPT
    # An acronym that no abstract defines, which kg's list knows the meaning of ("KL": the KL
    # divergence, a concept; "T2I": a task): its type and a name that says what it is.
    meaning = next((corpus.acronyms[k] for k in raw if k in corpus.acronyms), None)
    if meaning is not None:
        label = meaning[0]
        if key in corpus.listed_long_forms:  # named as the list spells it out
            name = meaning[1]
    elif label == Label.DATASET:
        label = _dataset_or_not(key, name)
    elif label == Label.METRIC and key not in corpus.metric_terms:
        label = _metric_or_not(key, name)
    # Long forms defined by an acronym are names too ("test-time training (TTT)").
    named = long_form or any(k in corpus.named for k in raw)
    if meaning is None and label in NAMED_TYPES and not named and key not in corpus.known:
        reads_as = _READS_AS.get(label, reads_as_technique)
        # A method or metric the recogniser typed needs no second paper: the head says
        # enough ("softmax self-attention" is no name but a method all the same, "language
        # modeling perplexity" a metric).
        reads = (
            label in (Label.METHOD, Label.METRIC) or (label == Label.TASK and (shared or compound))
        ) and (
            reads_as(key, name)
            or (label == Label.METRIC and reads_as_measure(key, name))
            or (label == Label.METHOD and reads_as_training(key, name))
        )
        # A procedure no list knows the head of ("curriculum learning", "majority voting",
        # "linear probing"): a gerund that papers agree is a method.
        agreed = (
            label == Label.METHOD
            and len(papers) >= TASK_MIN_PAPERS
            and votes.get(label, 0) >= AGREED_SHARE * sum(votes.values())
            and reads_as_activity(key, name)
        )
        if not (reads or agreed):
            label = Label.CONCEPT
    elif meaning is None and is_model_class(key, forms):  # "Multimodal LLMs": no task either
        label = Label.CONCEPT
    # "word embeddings", "time series": a task phrase that names things, even one the
    # lists know (a leaderboard's title)
    if label == Label.TASK and meaning is None and names_things(name):
        label = Label.CONCEPT
    # "generation quality", "reliability": a property papers improve, which metrics measure
    if label == Label.METRIC and names_a_property(key) and key not in corpus.metric_terms:
        label = Label.CONCEPT
    if label in NAMED_TYPES:
        generic = corpus.generic_names
        if (
            # "UCB-based algorithm": a kind of method, no name
            (DESCRIPTIVE.search(name) and not long_form and key not in corpus.known)
            # A lone letter is a variable ("data structure D"); "AI", "GPU" or "machine
            # learning" is a field or hardware (generic_names.txt). The name too: an acronym
            # that some abstract defines has its long form's key.
            or len(key) < 2
            or ", " in name  # "average, FZOO", "audio, visual": a list, no name
            or not any(c.isalpha() for c in key)  # "18" of "18 benchmarks"
            or WRITTEN_SIZE.fullmatch(key) is not None  # "1.5B", "80GB": a size
            or only_a_size(name)  # "7B model", "387k videos": a size, no name
            or counts_things(name)  # "5 jailbreak attacks", "average 6.51 images"
            or plain_word(name)  # "Learning" of "Learning to optimize is ..."
            or names_data(name)  # "latent representations": data, not a method
            or only_rating_words(name)  # "high-quality", even defined as "HQ"
            or names_a_field_class(key)  # "RL algorithms": a class of methods
            or names_hardware(name)  # "H100 GPU", "NVIDIA A100": hardware
            or cut_or_formula(name)  # "tool-" of "tool-use", "FID=1.46"
            or key in generic
            or (len(name) < 8 and normalize_key(name) in generic)
            # "AI agents", "GPU clusters"; but "OOD detection" is a task, and "GPU hours"
            # a metric of kg's curated list
            or (
                generic_modifier(name, generic)
                and not (label == Label.TASK and reads_as_task(key, name))
                and key not in corpus.metric_terms
            )
        ):
            label = Label.CONCEPT
    # "SR", "IS", "GA": two letters name many things across a field; the spelled-out form
    # papers also write says which ("super-resolution", "importance sampling"). Last, and
    # not for a concept: the checks above, and the graph's for concepts, judge the name as
    # written ("AI" is a generic name).
    if label in NAMED_TYPES and len(name) <= 2 and name.isupper():
        spelled = {f: n for f, n in forms.items() if _spells_out(f, name)}
        if spelled:
            name = _pick_name(spelled)
    return label, name
