"""Names that a sentence says are datasets (or methods), whatever the recogniser typed them.

The recogniser types a benchmark it has not seen by its shape, and a coined name ("MMVP",
"BrowseComp", "HICO-DET") reads as a method. Where a sentence puts names, these rules type
them Dataset, with the members of their list:

* as examples of a kind of dataset: "benchmarks including AIME25, RULER, and MATH500",
  "datasets (e.g., MNIST)", "ten benchmarks (TextVQA, GQA, MMMU)", "environments: ALFWorld and
  WebShop" (``heads``: the dataset heads, :func:`listed_datasets`);
* as what a score is reported on or experiments are run on: "36.2% on BrowseComp and 47.3%
  on BrowseComp-ZH", "+7.3 pp on BRUMO", "Extensive experiments on HICO-DET and V-COCO"
  (``score_words.txt``, ``experiment_nouns.txt``; :func:`scored_datasets`);
* beside known datasets: "GenEval, WISE, TIIF, GenAI-Bench and OneIG-EN", "AIME'24, AMC'23,
  Minerva, OlympiadBench and MATH500" (:func:`listed_with_datasets`).

Names listed as examples of a kind of method or model are methods: "approaches like EAGLE-2
and EAGLE-3" (:func:`listed_methods`).

A member must be written as a name (a capital or a digit first); a list ends after the member
that follows "and" or "or", or at anything that is neither a member nor a comma.
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span

from kg.extract.lexicon import read_data_lines
from kg.extract.normalize import singularize
from kg.extract.spans import coordinated
from kg.schema import Label

#: Words that introduce examples of what comes before them ("benchmarks such as MMLU"), each
#: cue as its tokens: ``example_cues.txt``.
EXAMPLE_CUES = tuple(tuple(cue.split()) for cue in read_data_lines("example_cues.txt"))
#: Tokens a reported score ends with, before "on": "36.2 %", "7.3 pp", "2 points".
_SCORE_WORDS = frozenset(read_data_lines("score_words.txt"))
#: Nouns of running a method on data: "experiments on X", "results on X".
_EXPERIMENT_NOUNS = frozenset(read_data_lines("experiment_nouns.txt"))
#: A signed number: a change, whatever its unit ("+4.1 on MMStar").
_SIGNED_NUMBER = re.compile(r"^[+\-−]\d+(?:\.\d+)?$")
#: Words a score may be followed by before "on": "36.2% accuracy on X", "2.0% gains on X".
_BETWEEN = 2
_DATASET = str(Label.DATASET)
_NOT_DATASETS = frozenset(str(label) for label in Label) - {_DATASET}
_METHOD_ONLY = frozenset({str(Label.METHOD)})
#: A list of names after "tasks" names benchmarks, where the recogniser typed them methods
#: ("tasks (ViZDoom-Two-Colors, T-Maze)"); a task it typed a task stays one.
_TASK_NOUNS = frozenset({"task", "tasks"})
#: Where a Dataset mention comes from when more than its shape says it is one: a name list
#: (``gazetteers/datasets.tsv``) or a dataset word in the name ("MCDR-Bench", "WikiTQ dataset").
_KNOWN_DATASET_SOURCES = frozenset({"gazetteer", "named_dataset"})
#: The fewest members a list needs for :func:`listed_with_datasets`, and the fewest Datasets
#: among them: two names side by side are as often a paper's new benchmark and its new model.
_MIN_LIST, _MIN_DATASETS = 3, 2
#: Nouns of a kind of method a list of examples may follow ("approaches like X"), singular.
_METHOD_KINDS = frozenset(read_data_lines("method_kind_nouns.txt"))
_METHOD = str(Label.METHOD)


def listed_datasets(doc: Doc, chosen: list[Span], heads: frozenset[str]) -> list[Span]:
    """``chosen`` with the names listed as examples of a kind of dataset typed Dataset: after
    a dataset head (``heads``, singular and plural), an example cue ("including", "such as",
    "e.g."), a bracket or a colon, then the list.

    Why: ICLR 2026 abstracts list about 100 benchmarks so that the recogniser typed Methods
    ("MLVU", "VideoMME", "POPE"); a dataset noun, then a bracket or a colon, opens a list of
    names in about 70. After "tasks", only names typed Method in a list of two or more that a
    bracket or an example cue opens: 10 on ICLR 2026 ("control tasks (CartPole, Acrobot)"),
    all benchmarks; with one name or a colon, half of them were tasks or acronyms.
    """
    at = {s.start: i for i, s in enumerate(chosen)}
    ends = {s.start: s.end for s in chosen}  # (retyping a mention keeps its tokens)
    out = list(chosen)
    for t in doc:
        if t.lower_ in heads:
            kinds, min_members, openers = _NOT_DATASETS, 1, {"(", ",", ":"}
        # "memory-intensive tasks (T-Maze, Memory Maze)"; but "two proxy tasks: DarkEventInfer
        # ..." introduces tasks of its own
        elif t.lower_ in _TASK_NOUNS:
            kinds, min_members, openers = _METHOD_ONLY, 2, {"(", ","}
        else:
            continue
        opener = t.i + 1 < len(doc) and doc[t.i + 1].text in openers
        j = t.i + 1 + opener
        cue = next(
            (c for c in EXAMPLE_CUES if [w.lower_ for w in doc[j : j + len(c)]] == list(c)), None
        )
        if cue is not None:
            j += len(cue) + (j + len(cue) < len(doc) and doc[j + len(cue)].text == ",")
        elif not (opener and doc[t.i + 1].text in {"(", ":"}):
            continue
        _type_list(doc, out, at, ends, j, kinds, min_members)
    return out


def datasets_listed_before(doc: Doc, chosen: list[Span], heads: frozenset[str]) -> list[Span]:
    """``chosen`` with the names of a list that a dataset head closes typed Dataset: "On the
    D-NeRF, NVFi, and HyperNeRF benchmarks", "across the OpenReview, PubMed, and Yelp
    benchmarks". The list is read back from the head: a mention right before it or ending
    with it ("HyperNeRF benchmarks"), then "and" or "or" and commas between mentions.

    Why: the recogniser typed the members of such lists Methods ("MGSM", "NVFi", "PubMed"):
    of the mentions in ICLR 2026 lists that "benchmarks" or "datasets" close, 74 are Datasets
    and 20 Methods, most of them names.
    """
    ending = {s.end: i for i, s in enumerate(chosen)}
    out = list(chosen)
    for t in doc:
        if t.lower_ not in heads or not t.lower_.endswith("s"):
            continue
        last = ending.get(t.i + 1)
        j = t.i + 1 if last is not None and chosen[last].start < t.i else t.i
        # The last member follows "and"/"or" (a comma before it or not), the others a comma.
        members, closed = [], False
        while j in ending:
            members.append(ending[j])
            k = chosen[ending[j]].start
            before = doc[k - 1].lower_ if k > 0 else ""
            if not closed and before in {"and", "or"}:
                j, closed = k - 1 - (k > 1 and doc[k - 2].text == ","), True
            elif closed and before == ",":
                j = k - 1
            else:
                break
        if len(members) > 1:
            for i in members:
                _type_dataset(doc, out, i, _NOT_DATASETS)
    return out


def scored_datasets(doc: Doc, chosen: list[Span]) -> list[Span]:
    """``chosen`` with the names a sentence reports a score on, or runs experiments on, typed
    Dataset (a Method only: a name typed otherwise keeps its type): "<number> % [word word] on
    NAME, NAME and NAME", "<experiment noun> on NAME".

    Why: a score is reported on a benchmark ("A^2FM achieves 13.4% on BrowseComp"), and in
    129 ICLR 2026 abstracts a name follows such a score; experiments run "on" a name in 166.
    The recogniser typed "BrowseComp", "MMVP", "HICO-DET", "SVAMP" Methods there.
    """
    at = {s.start: i for i, s in enumerate(chosen)}
    ends = {s.start: s.end for s in chosen}  # (retyping a mention keeps its tokens)
    out = list(chosen)
    for t in doc:
        if t.lower_ != "on" or t.i + 1 >= len(doc):
            continue
        j = t.i + 1 + (doc[t.i + 1].lower_ == "the")
        if j not in at or not _after_a_score(doc, t.i):
            continue
        _type_list(doc, out, at, ends, j, _METHOD_ONLY)
    return out


def listed_with_datasets(doc: Doc, chosen: list[Span]) -> list[Span]:
    """``chosen`` with the Method names of a list of names typed Dataset, when the list holds
    three names or more, two of them Datasets, one of those known to be a dataset (a name list
    or a dataset word in it: :data:`_KNOWN_DATASET_SOURCES`): "MMLU, Math-500, and SimpleQA",
    "CIFAR-10, FFHQ, CelebA-HQ and AFHQ-v2". Every member must be written as a name.

    Why: the recogniser typed by its shape each member of a list of benchmarks, and coined
    ones read as methods. In ICLR 2026, 55 lists of three names or more mix Datasets and
    Methods, two Datasets among them or more. Where one Dataset is known, the rule types 27
    Methods of 19 abstracts Dataset, all of them benchmarks (MMLU-Pro, AIME'24, Minerva,
    HumanEval+, KODAK). Without a known one, most are lists of models or of categories that
    the recogniser half typed Dataset ("GPT, Llama and Qwen", "Semantic, Temporal, Aesthetic").
    """
    at = {s.start: i for i, s in enumerate(chosen)}
    ends = {s.start: s.end for s in chosen}  # (retyping a mention keeps its tokens)
    out = list(chosen)
    seen: set[int] = set()
    for first in range(len(chosen)):
        if first in seen:
            continue
        members = _list_from(doc, at, ends, out[first].start)
        seen.update(members)
        spans = [out[i] for i in members]
        datasets = [s for s in spans if s.label_ == _DATASET]
        if (
            len(spans) >= _MIN_LIST
            and len(datasets) >= _MIN_DATASETS
            and any(s.kb_id_ in _KNOWN_DATASET_SOURCES for s in datasets)
            and all(_written_as_name(s) for s in spans)
        ):
            for i in members:
                _type_dataset(doc, out, i, _METHOD_ONLY)
    return out


def listed_methods(doc: Doc, chosen: list[Span]) -> list[Span]:
    """``chosen`` with the names typed Dataset that a list gives as examples of a kind of
    method or model typed Method: a noun of ``method_kind_nouns.txt``, an example cue ("like",
    "such as", "including", "e.g."; a bracket or a comma before it), then the list.

    Why: in ICLR 2026 the recogniser typed 56 names so listed Dataset, nearly all of them
    models and methods ("approaches like EAGLE-2 and EAGLE-3", "memory systems such as ExpeL
    and AWM", "models like GPT-4o", "methods such as TracIn"); 357 were Methods already.
    """
    at = {s.start: i for i, s in enumerate(chosen)}
    ends = {s.start: s.end for s in chosen}  # (retyping a mention keeps its tokens)
    out = list(chosen)
    for t in doc:
        if singularize(t.lower_) not in _METHOD_KINDS:
            continue
        j = t.i + 1
        if j < len(doc) and doc[j].text in ("(", ","):
            j += 1
        cue = next(
            (c for c in EXAMPLE_CUES if [w.lower_ for w in doc[j : j + len(c)]] == list(c)), None
        )
        if cue is None:
            continue
        j += len(cue) + (j + len(cue) < len(doc) and doc[j + len(cue)].text == ",")
        for i in _list_from(doc, at, ends, j):
            span = out[i]
            if span.label_ == _DATASET and _written_as_name(span):
                out[i] = Span(doc, span.start, span.end, label=_METHOD, kb_id=span.kb_id_)
    return out


def _after_a_score(doc: Doc, on: int) -> bool:
    """Whether the "on" at token ``on`` follows a score ("13.4 %", "7.3 pp", up to
    :data:`_BETWEEN` words before it; a signed number right before it: "+4.1 on MMStar") or an
    experiment noun ("experiments on")."""
    if on > 0 and doc[on - 1].lower_ in _EXPERIMENT_NOUNS:
        return True
    if on > 0 and _SIGNED_NUMBER.match(doc[on - 1].text):
        return True
    for k in range(on - 1, max(-1, on - 2 - _BETWEEN), -1):
        tok = doc[k]
        if tok.lower_ in _SCORE_WORDS and k > 0 and doc[k - 1].like_num:
            return True
        if not tok.is_alpha:
            return False
    return False


def _type_list(
    doc: Doc,
    out: list[Span],
    at: dict[int, int],
    ends: dict[int, int],
    j: int,
    kinds: frozenset[str],
    min_members: int = 1,
) -> None:
    """Type Dataset the names of ``kinds`` in the list that starts at token ``j`` (``out``
    holds the mentions, ``at`` their index and ``ends`` their end token by first token), in
    place, when the list has ``min_members`` mentions or more."""
    members = _list_from(doc, at, ends, j)
    if len(members) >= min_members:
        for i in members:
            _type_dataset(doc, out, i, kinds)


def _list_from(doc: Doc, at: dict[int, int], ends: dict[int, int], j: int) -> list[int]:
    """The indexes of the mentions of the list that starts at token ``j``
    (:func:`~kg.extract.spans.coordinated`; ``at``: mention index by first token, ``ends``:
    end token by first token)."""
    return [at[s] for s in coordinated(doc, ends, j)]


def _written_as_name(span: Span) -> bool:
    """Whether a mention is written as a name: a capital or a digit first."""
    return span.text[:1].isupper() or span.text[:1].isdigit()


def _type_dataset(doc: Doc, out: list[Span], i: int, kinds: frozenset[str]) -> None:
    """Type ``out[i]`` Dataset, in place, when it is of ``kinds`` and written as a name (a
    capital or a digit first)."""
    span = out[i]
    if span.label_ in kinds and _written_as_name(span):
        out[i] = Span(doc, span.start, span.end, label=_DATASET, kb_id=span.kb_id_)
