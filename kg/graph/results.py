"""The graph's Result nodes (:data:`kg.schema.Label.RESULT`) from the quantitative claims the
papers' sentences make (:class:`kg.models.ResultMention`).

One node per claim, ``result:<paper key>:<n>`` (the paper's claims in text order), linked from
its paper (``REPORTS``) and to the entities its sentence says it is about (``FOR_METHOD``,
``ON_DATASET``, ``IN_METRIC``, ``FOR_TASK``) where those entities are nodes of the graph. A
result's arguments are mentions, which entity resolution has given their entities by now.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from kg.graph.relations import task_in
from kg.models import Mention, Paper, RelationMention, ResultMention
from kg.resolve.names import names_a_benchmark
from kg.resolve.words import word_list
from kg.schema import (
    KEY,
    LABEL_ATTR,
    NAME,
    RESULT_ARGUMENT,
    RESULT_TARGET,
    TYPE_ATTR,
    EntityRel,
    Label,
    Rel,
    ResultRel,
)


def result_id(paper_id: str, n: int) -> str:
    """The id of paper ``paper_id``'s ``n``-th result (from 1).

    >>> result_id("paper:abc123", 2)
    'result:abc123:2'
    """
    return f"result:{paper_id.partition(':')[2] or paper_id}:{n}"


def result_name(value: str, args: Mapping[ResultRel, Mention]) -> str:
    """A caption that reads as the claim: the value, then the metric and the dataset (or task)
    of ``args`` (the result's linked mentions) as the sentence writes them.

    >>> from kg.schema import Rel
    >>> m = lambda text, label: Mention(0, 1, text, label, Rel.USES, "s")
    >>> result_name("85.3%", {ResultRel.IN_METRIC: m("top-1 accuracy", Label.METRIC),
    ...                       ResultRel.ON_DATASET: m("ImageNet", Label.DATASET)})
    '85.3% top-1 accuracy on ImageNet'
    """
    name = value
    metric, dataset, task = (args.get(r) for r in _NAMED_BY)
    if metric is not None and metric.text.casefold() not in name.casefold():
        name += f" {metric.text}"
    if dataset is not None:
        name += f" on {dataset.text}"
    elif task is not None:
        name += f" in {task.text}"
    return name


_NAMED_BY = (ResultRel.IN_METRIC, ResultRel.ON_DATASET, ResultRel.FOR_TASK)


#: Title words that say a paper builds a benchmark (their beginnings): benchmark_title_words.txt.
_BENCHMARK_WORDS = tuple(word_list("benchmark_title_words.txt"))


def introduces_a_benchmark(title: str, name: str) -> bool:
    """Whether a paper that introduces one dataset, ``name``, introduces it as a benchmark: the
    name says so (:func:`kg.resolve.names.names_a_benchmark`) or the title does ("MCPMark: A
    Benchmark for ...", "Cancer-Myth: Evaluating LLMs on ..."). A dataset built to train on
    ("SpatialLadder-26k") is not where the paper's results are measured.

    >>> introduces_a_benchmark("MCPMark: A Benchmark for Stress-Testing MCP Use", "MCPMark")
    True
    >>> introduces_a_benchmark("SpatialLadder: Progressive Training for Spatial Reasoning",
    ...                        "SpatialLadder-26k")
    False
    """
    words = (w.lower() for w in re.findall(r"[\w-]+", title))
    return names_a_benchmark(name) or any(w.startswith(_BENCHMARK_WORDS) for w in words)


def result_graph(
    papers: Iterable[Paper],
    results_by_paper: Mapping[str, list[ResultMention]],
    label_of: Mapping[str, Label],
    benchmarks: Mapping[str, Mention] | None = None,
    tasks: Mapping[str, str] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The Result nodes and their links for ``papers`` (the links' ends among the graph's
    entities, ``label_of``: the kept entities' labels). A result links to an entity only when
    the entity has the label its link needs (resolution may type an entity otherwise than
    the sentence's mention).

    ``benchmarks``: per paper id, the mention of the one benchmark the paper introduces, where
    it links no other dataset (:func:`introduces_a_benchmark`): a result whose sentence names
    no dataset or task is on it. A benchmark paper reports what models reach on its benchmark
    ("even the strongest model, GPT-5, reaches only 52.56% pass@1") without naming it in
    every sentence.

    ``tasks`` (:func:`kg.graph.relations.task_keys`): a result whose dataset is a suite the
    graph has no node for is in the task the suite is named by (:func:`suite_task`).

    >>> from kg.models import Mention
    >>> from kg.schema import Rel
    >>> imagenet = Mention(0, 1, "ImageNet", Label.DATASET, Rel.EVALUATES_ON, "s",
    ...                    entity="dataset:imagenet")
    >>> r = ResultMention("85.3%", 85.3, "%", False, "We reach 85.3% on ImageNet.", 9, 14,
    ...                   dataset=imagenet)
    >>> nodes, links = result_graph([Paper("paper:p1", "")], {"paper:p1": [r]},
    ...                             {"dataset:imagenet": Label.DATASET})
    >>> [(n["id"], n["name"]) for n in nodes]
    [('result:p1:1', '85.3% on ImageNet')]
    >>> [(e["source"], e["type"], e["target"]) for e in links]
    [('paper:p1', 'REPORTS', 'result:p1:1'), ('result:p1:1', 'ON_DATASET', 'dataset:imagenet')]
    """
    nodes: list[dict[str, Any]] = []
    links: list[dict[str, Any]] = []
    reports = ResultRel.REPORTS.value
    for p in papers:
        for n, r in enumerate(sorted(results_by_paper.get(p.id, ()), key=_text_order), 1):
            rid = result_id(p.id, n)
            args = _linked(r, label_of)
            placed = ResultRel.ON_DATASET in args or ResultRel.FOR_TASK in args
            if tasks is not None and not placed and r.dataset is not None:
                task = suite_task(r.dataset, tasks)
                if task is not None and label_of.get(task.entity) == Label.TASK:
                    args[ResultRel.FOR_TASK] = task
                    args = {rel: args[rel] for rel in RESULT_TARGET if rel in args}
            own = benchmarks.get(p.id) if benchmarks else None
            if (
                own is not None
                and ResultRel.ON_DATASET not in args
                and ResultRel.FOR_TASK not in args
            ):
                args[ResultRel.ON_DATASET] = own
                args = {rel: args[rel] for rel in RESULT_TARGET if rel in args}
            nodes.append(
                {
                    KEY: rid,
                    LABEL_ATTR: Label.RESULT.value,
                    NAME: result_name(r.value, args),
                    "value": r.value,
                    "number": r.number,
                    "unit": r.unit,
                    "relative": r.relative,
                    "evidence": r.evidence,
                    "paper": p.id,
                }
            )
            links.append(
                {TYPE_ATTR: reports, "evidence": r.evidence, "start": r.start, "end": r.end,
                 "source": p.id, "target": rid, "key": reports}
            )  # fmt: skip
            links += [
                {TYPE_ATTR: rel.value, "source": rid, "target": m.entity, "key": rel.value}
                for rel, m in args.items()
            ]
    return nodes, links


#: The nouns that end a phrase naming a suite of datasets by their task ("seven commonsense
#: reasoning benchmarks", "long-horizon planning tasks").
SUITE_NOUNS = frozenset({"benchmark", "benchmarks", "datasets", "suite", "tasks"})
_LAST_WORD = re.compile(r"(.*\S)\s+(\S+)", re.S)


def suite_task(phrase: Mention, tasks: Mapping[str, str]) -> Mention | None:
    """The task a suite of datasets (``phrase``: "eight image classification benchmarks") is
    named by: the longest run of the words before its last, a suite noun (:data:`SUITE_NOUNS`),
    that a task of the corpus is called (``tasks``: merge key → id), or None.

    >>> from kg.schema import Rel
    >>> p = Mention(15, 51, "eight image classification benchmarks", Label.CONCEPT,
    ...             Rel.MENTIONS, "s")
    >>> t = suite_task(p, {"image-classification": "task:ic"})
    >>> t.text, t.start, t.entity
    ('image classification', 21, 'task:ic')
    >>> p = Mention(0, 17, "reasoning ability", Label.CONCEPT, Rel.MENTIONS, "s")
    >>> suite_task(p, {"reasoning": "task:r"}) is None
    True
    """
    split = _LAST_WORD.fullmatch(phrase.text)
    if split is None or split.group(2).lower() not in SUITE_NOUNS:
        return None
    return task_in(phrase, tasks, split.group(1), whole=True)


#: The confidence of a relation a result states: as sure as the result's own links.
RESULT_CONFIDENCE = 0.6


def result_relations(
    relations: Mapping[str, list[RelationMention]],
    results: Mapping[str, list[ResultMention]],
    label_of: Mapping[str, Label],
) -> dict[str, list[RelationMention]]:
    """``relations`` and, per paper, what each of its results states, with the result's
    sentence. A result's dataset and metric are those of its node where the graph has them
    (:func:`_linked`: "MATH500" a sentence read as a metric is the dataset the corpus knows),
    else those its sentence gave (``label_of``: the kept entities' labels):

    * a result on a dataset in a metric says the dataset is MEASURED_BY it ("On AIME'24, ReMix
      reaches a Pass@1 accuracy of 52.1%": AIME'24 MEASURED_BY Pass@1 accuracy). Not a
      result's task: a task's results are as often its cost ("video generation" in "latency",
      "speedup") as its measure, and not a metric that holds the dataset's name ("AIME score").
    * a result of the paper's own method on a dataset says the method is EVALUATED_ON it
      (ReMix EVALUATED_ON AIME'24). Only its own: the method of another's result is as often
      a model the paper's method was applied to ("improves Qwen2.5-7B by 3% on MATH500").

    The types, and costs, are left to :func:`kg.graph.relations.relation_links`.

    >>> from kg.schema import Rel
    >>> aime = Mention(3, 10, "AIME'24", Label.DATASET, Rel.EVALUATES_ON, "s",
    ...                entity="dataset:aime")
    >>> acc = Mention(20, 28, "Pass@1", Label.METRIC, Rel.MEASURES, "s", entity="metric:pass-1")
    >>> remix = Mention(12, 17, "ReMix", Label.METHOD, Rel.PROPOSES, "s", entity="method:remix")
    >>> r = ResultMention("52.1%", 52.1, "%", False, "On AIME'24 ...", 30, 35, dataset=aime,
    ...                   metric=acc, method=remix)
    >>> [(x.head.text, x.type, x.tail.text) for x in result_relations({}, {"p": [r]}, {})["p"]]
    [("AIME'24", 'MEASURED_BY', 'Pass@1'), ('ReMix', 'EVALUATED_ON', "AIME'24")]
    >>> score = Mention(3, 16, "AIME'24 score", Label.METRIC, Rel.MEASURES, "s", entity="m:s")
    >>> r = ResultMention("50.5", 50.5, "", False, "An AIME'24 score of 50.5", 20, 24,
    ...                   dataset=aime, metric=score)
    >>> result_relations({}, {"p": [r]}, {})
    {}

    In "by 3.6% on GSM8K, 2.6% on MATH500" the sentence read MATH500 as 2.6%'s metric:

    >>> math = Mention(40, 47, "MATH500", Label.METRIC, Rel.MEASURES, "s", entity="dataset:math")
    >>> r = ResultMention("2.6%", 2.6, "%", True, "s", 30, 34, method=remix, metric=math)
    >>> [(x.head.text, x.type, x.tail.text)
    ...  for x in result_relations({}, {"p": [r]}, {"dataset:math": Label.DATASET})["p"]]
    [('ReMix', 'EVALUATED_ON', 'MATH500')]
    """
    out = dict(relations)  # (a paper's own list is copied only when a result adds to it)
    for pid, rows in results.items():
        measured, evaluated = [], []
        for r in rows:
            linked = _linked(r, label_of)
            dataset = linked.get(ResultRel.ON_DATASET, r.dataset)
            metric = linked.get(ResultRel.IN_METRIC, r.metric)
            if dataset is None:
                continue
            # "AIME score" holds its dataset: measured by itself says nothing
            if metric is not None and not _holds(metric, dataset):
                measured.append(_stated(dataset, EntityRel.MEASURED_BY, metric, r))
            if r.method is not None and r.method.role is Rel.PROPOSES:
                evaluated.append(_stated(r.method, EntityRel.EVALUATED_ON, dataset, r))
        if measured or evaluated:
            out[pid] = [*relations.get(pid, ()), *measured, *evaluated]
    return out


def _holds(outer: Mention, inner: Mention) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end


def _stated(head: Mention, rel: EntityRel, tail: Mention, r: ResultMention) -> RelationMention:
    return RelationMention(head, rel.value, tail, r.evidence, RESULT_CONFIDENCE, "result")


def _linked(r: ResultMention, label_of: Mapping[str, Label]) -> dict[ResultRel, Mention]:
    """The mentions of ``r`` whose entities are nodes of the label their link needs, in the
    order of :data:`~kg.schema.RESULT_TARGET`.

    A mention whose entity resolution typed a dataset, where its sentence did not, is the
    dataset of a result that has neither a dataset nor a task: in "56.3% on MAESTRO-E" the
    sentence read "MAESTRO-E" as a method, and the corpus knows it is a dataset. (Not the
    other way round: "9.44% on GPT-J" is a result on a model, not of it.) Nor when the sentence
    names the result's dataset and that is no node: in "2.6% on MATH500, 18.4% on Countdown"
    18.4% is on Countdown, not on MATH500 (which the list gave it as its metric).

    >>> from kg.schema import Rel
    >>> m = Mention(0, 1, "MAESTRO-E", Label.METHOD, Rel.USES, "s", entity="dataset:maestro-e")
    >>> r = ResultMention("56.3%", 56.3, "%", False, "s", 0, 5, method=m)
    >>> list(_linked(r, {"dataset:maestro-e": Label.DATASET}))
    [<ResultRel.ON_DATASET: 'ON_DATASET'>]
    >>> math = Mention(0, 1, "MATH500", Label.METRIC, Rel.MEASURES, "s", entity="dataset:math")
    >>> countdown = Mention(0, 1, "Countdown", Label.DATASET, Rel.EVALUATES_ON, "s",
    ...                     entity="dataset:countdown")
    >>> r = ResultMention("18.4%", 18.4, "%", False, "s", 0, 5, dataset=countdown, metric=math)
    >>> list(_linked(r, {"dataset:math": Label.DATASET}))
    []
    """
    mentions = {rel: getattr(r, RESULT_ARGUMENT[rel.value]) for rel in RESULT_TARGET}
    out = {
        rel: m
        for rel, m in mentions.items()
        if m is not None and label_of.get(m.entity) == RESULT_TARGET[rel]
    }
    unknown = r.dataset is not None and r.dataset.entity not in label_of
    if ResultRel.ON_DATASET not in out and ResultRel.FOR_TASK not in out and not unknown:
        linked = [id(m) for m in out.values()]
        retyped = (m for m in mentions.values() if m is not None and id(m) not in linked)
        dataset = next((m for m in retyped if label_of.get(m.entity) == Label.DATASET), None)
        if dataset is not None:
            out[ResultRel.ON_DATASET] = dataset
            out = {rel: out[rel] for rel in RESULT_TARGET if rel in out}
    return out


def _text_order(r: ResultMention) -> tuple[int, int]:
    return r.start, r.end
