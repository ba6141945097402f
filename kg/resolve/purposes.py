"""The task a title says its contribution is for, when no entity of the corpus names it.

"Dual Distillation for Few-Shot Anomaly Detection", "S3OD: Towards Generalizable Salient
Object Detection with Synthetic Data": a title's purpose phrase (after "for" or "towards", up
to a preposition) that ends in a task's head word (``task_heads.txt``: "detection",
"generation", "estimation") names the task the paper addresses, even when no abstract of the
corpus names it in two papers (what :mod:`kg.resolve.titles` needs to link a phrase). Rating
words that open it ("Efficient", "Robust", "Few-Shot" stays) are not part of the task, so
"Scalable Deepfake Detection" is the task "deepfake detection" other titles and abstracts
name too.

A named title's description is read the same way when it opens with such a phrase:
"WinT3R: Window-Based Streaming Reconstruction with Camera Token Pool" says what WinT3R does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kg.extract.lexicon import read_data_lines
from kg.extract.normalize import normalize_key
from kg.models import Entity
from kg.resolve.title_phrases import written_as_name
from kg.resolve.words import word_list
from kg.schema import Label, entity_id

#: Where a purpose phrase ends: ``purpose_stops.txt``.
STOPS = frozenset(word_list("purpose_stops.txt"))
#: The last words of a task phrase: ``kg/extract/data/task_heads.txt``.
TASK_HEADS = frozenset(read_data_lines("task_heads.txt"))
#: Words that rate rather than name ("efficient", "robust", "novel"): dropped from the start.
RATING_WORDS = frozenset(word_list("generic_modifiers.txt")) | frozenset(
    read_data_lines("generic_first_words.txt")
)
#: The words a purpose phrase opens after, the first found first.
OPENERS = ("for", "towards", "toward")
#: The types of a phrase the purpose's task is left to.
_TAKEN_BY = frozenset({Label.TASK, Label.METHOD})
#: A task phrase's length in words, rating words off.
MIN_WORDS, MAX_WORDS = 2, 5


#: The words that open a description naming a kind of thing, not a task ("A Unified Face
#: Understanding and Generation Model").
_ARTICLES = frozenset({"a", "an", "the"})


def purpose_span(words: list[str], described: bool = False) -> tuple[int, int, int] | None:
    """Where a title segment's purpose word is, and where the task of its purpose phrase is
    written (words ``start:end``); None when it names no task. ``described``: the segment is
    a named title's description, and its opening phrase is the purpose (``at`` is -1) when
    the segment has no purpose word.

    >>> from kg.resolve.title_phrases import title_words
    >>> words = title_words("Dual Distillation for Robust Few-Shot Anomaly Detection in the Wild")
    >>> at, start, end = purpose_span(words)
    >>> words[at], words[start:end]
    ('for', ['Few-Shot', 'Anomaly', 'Detection'])
    >>> [purpose_span(title_words(t)) for t in ("Memory for Large Language Models",
    ...     "Rewards for Eliciting Reasoning", "A Model for Flow Field Prediction of Airfoils")]
    [None, None, None]
    >>> words = title_words("Window-Based Streaming Reconstruction with Camera Token Pool")
    >>> at, start, end = purpose_span(words, described=True)
    >>> at, words[start:end]
    (-1, ['Window-Based', 'Streaming', 'Reconstruction'])
    """
    lowered = [w.lower() for w in words]
    at = next((lowered.index(w) for w in OPENERS if w in lowered), None)
    if at is None and described and lowered and lowered[0] not in _ARTICLES:
        at = -1
    if at is None:
        return None
    start = end = at + 1
    while end < len(words) and lowered[end] not in STOPS:
        end += 1
    while start < end and lowered[start] in RATING_WORDS:
        start += 1
    if not MIN_WORDS <= end - start <= MAX_WORDS:
        return None
    # "Generation of Multi-turn Dialogues": the task is the whole "X of Y", longer than a
    # title's phrase can be told; "Eliciting Reasoning": a verb and its object, no task's name.
    if (end < len(words) and lowered[end] == "of") or lowered[start].endswith("ing"):
        return None
    head = normalize_key("x " + words[end - 1])[2:]  # singular: "Generations" ends in "generation"
    return (at, start, end) if head in TASK_HEADS else None


def task_name(words: list[str]) -> str:
    """A title's task phrase as a task is written in a sentence: lower case but for the parts
    written as names ("LLM", "3D").

    >>> task_name(["Text-to-Image", "Generation", "for", "LLM", "Agents", "in", "3D"])
    'text-to-image generation for LLM agents in 3D'
    """
    def part(p: str) -> str:
        return p if written_as_name(p) else p.lower()

    return " ".join("-".join(part(p) for p in w.split("-")) for w in words)


def purpose_task(
    words: list[str],
    found: Sequence[tuple[int, int, Label]],
    lookup: Callable[[str], str | None],
    entities: dict[str, Entity],
    described: bool = False,
) -> tuple[int, int, str, str] | None:
    """The task of a title segment's purpose phrase (:func:`purpose_span`, ``described`` as
    there): its words ``start:end``, its text and the id of its entity. None when it names
    none, when a task
    or method of ``found`` (the entities of the corpus the segment names, as ``(start, end,
    label)``) is where :func:`kg.resolve.titles.title_relations` takes the task from or
    overlaps the phrase, or when its merge key is an entity's of another type. (A concept
    may overlap it: "LLM" of "Knowledge-Intensive LLM Generation".) The entity is the one of
    its merge key (``lookup``, or the Task of that key), else a new Task added to
    ``entities``."""
    span = purpose_span(words, described)
    if span is None:
        return None
    at, start, end = span
    if any(
        label in _TAKEN_BY and (at < a <= at + 2 or (a < end and b > start))
        for a, b, label in found
    ):
        return None
    text = " ".join(words[start:end])
    key = normalize_key(text)
    eid = lookup(key) or entity_id(Label.TASK, key)
    known = entities.get(eid)
    if known is None:
        entities[eid] = Entity(eid, Label.TASK, task_name(words[start:end]))
    elif known.label != Label.TASK:
        return _task_it_ends_in(words, start, end, lookup, entities)
    return start, end, text, eid


def _task_it_ends_in(
    words: list[str],
    start: int,
    end: int,
    lookup: Callable[[str], str | None],
    entities: dict[str, Entity],
) -> tuple[int, int, str, str] | None:
    """The longest task of the corpus that ends the phrase ``words[start:end]``, which the
    corpus names as something else: "Interaction-aware Video Generation" is a concept of
    the abstracts, and a kind of video generation."""
    for first in range(start + 1, end - MIN_WORDS + 1):
        eid = lookup(normalize_key(" ".join(words[first:end])))
        known = entities.get(eid) if eid is not None else None
        if known is not None and known.label == Label.TASK:
            return first, end, " ".join(words[first:end]), known.id
    return None
