"""Metric frames: the metric a sentence measures the datasets it evaluates on with.

"Experiments on KITTI and nuScenes show that our approach achieves state-of-the-art
registration accuracy", "We evaluate our method on the MAESTRO-E and CocoChorales-E datasets by
measuring the F1 score": the sentence measures each dataset it evaluates on by the metric it
names, however far apart they are written, and without a number (a number makes a result, whose
dataset and metric say the same: :func:`kg.graph.results.result_relations`). A dataset counts
as an evaluation's when an evaluation preposition governs it, as for the evaluation frames
(:func:`kg.extract.frames.governing_preposition`): "trained on LAION" measures nothing.

Only a sentence that names one metric says which metric measures which dataset: "lower
generative perplexity on OpenWebText and FID on CIFAR10" pairs them by position, which a frame
does not read. A metric that holds a dataset's name ("AIME score", "Imagenet1K accuracy") says
nothing more. Costs ("speedup", "latency") are left to the graph, which drops every
MEASURED_BY whose metric is one (:func:`kg.graph.relations.relation_links`).

>>> from kg.extract.pipeline import load_pipeline
>>> from kg.extract.relations import relations_in
>>> text = ("We propose FooNet. Experiments on KITTI and nuScenes show that FooNet achieves "
...         "higher registration accuracy.")
>>> doc = load_pipeline()(text)
>>> [(r.head["text"], r.type, r.tail["text"]) for r in relations_in(doc, doc._.kg_mentions)
...  if r.rule == METRIC_RULE]
[('KITTI', 'MEASURED_BY', 'registration accuracy'), \
('nuScenes', 'MEASURED_BY', 'registration accuracy')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spacy.tokens import Doc

from kg.extract.frames import governing_preposition
from kg.extract.names import has_capital_or_digit
from kg.extract.spans import Arg, by_sentence

METRIC_RULE = "metric_frame"
#: As sure as an evaluation frame: the same reading of the same sentences.
METRIC_CONFIDENCE = 0.55


def metric_frames(
    doc: Doc,
    args: Sequence[Arg],
    proposed: dict[str, Any] | None,
    sentence_of: Sequence[int],
) -> list[tuple[Arg, str, Arg]]:
    """(dataset argument, "MEASURED_BY", metric argument) for each named dataset under
    evaluation in a sentence that names one metric and no number (see the module's docstring).
    ``args`` in text order, as :func:`kg.extract.relations.argument_tokens` gives them;
    ``proposed`` is not needed (a frame finder's signature)."""
    found: list[tuple[Arg, str, Arg]] = []
    for first, group in by_sentence(args, sentence_of).items():
        metrics = [a for a in group if a[2]["label"] == "Metric"]
        if len({a[2]["text"].casefold() for a in metrics}) != 1:
            continue
        datasets = [
            a for a in group
            if a[2]["label"] == "Dataset" and has_capital_or_digit(a[2]["text"])
            and governing_preposition(doc, a[0], first) is not None
        ]  # fmt: skip
        if not datasets or _has_number(doc, first, group, sentence_of):
            continue
        for dataset in datasets:
            if dataset[2]["text"].casefold() in metrics[0][2]["text"].casefold():
                continue  # "AIME score"
            found.extend((dataset, "MEASURED_BY", metric) for metric in metrics)
    return found


def _has_number(doc: Doc, first: int, group: Sequence[Arg], sentence_of: Sequence[int]) -> bool:
    """Whether the sentence from token ``first`` writes a number outside its arguments (a
    digit in "GPT-4o" or "AIME'24" is a name's)."""
    inside = {i for start, end, _ in group for i in range(start, end)}
    i = first
    while i < len(doc) and sentence_of[i] == first:
        if i not in inside and doc[i].like_num and any(c.isdigit() for c in doc[i].text):
            return True
        i += 1
    return False
