"""Titles as statements (kg.resolve.titles): the links and USED_FOR relations titles make."""

from __future__ import annotations

from kg.extract.rows import UNNAMED
from kg.graph.assemble import build_graph
from kg.models import Mention, Paper, RelationMention, ResultMention, Statements
from kg.resolve.resolver import resolve_entities
from kg.resolve.titles import TITLE, link_titles
from kg.schema import Label, Rel

#: What the abstracts of the corpus name: enough papers for each to be known.
KNOWN = [
    ("video generation", Label.TASK),
    ("GRPO", Label.METHOD),
    ("diffusion models", Label.CONCEPT),
    ("Low-Rank Self-Rewarding", Label.METHOD),
]
ABSTRACTS = {
    "a1": KNOWN,
    "a2": KNOWN,
    "a3": [("memory", Label.CONCEPT), ("memory-efficient", Label.CONCEPT)],
    "a4": [("memory", Label.CONCEPT), ("memory-efficient", Label.CONCEPT)],
}


def _graph(  # noqa: ANN202
    titles: dict[str, str],
    own: dict[str, list[tuple[str, Label, Rel]]],
    abstracts: dict[str, list[tuple[str, Label]]] = ABSTRACTS,
):
    papers = [Paper(id=pid, abstract="", title="") for pid in abstracts]
    papers += [Paper(id=pid, abstract="", title=title) for pid, title in titles.items()]
    mentions = {
        pid: [Mention(0, len(t), t, label, Rel.USES, f"We use {t}.") for t, label in ms]
        for pid, ms in abstracts.items()
    }
    for pid in titles:
        mentions[pid] = [
            Mention(0, len(t), t, label, role, f"We propose {t}.")
            for t, label, role in own.get(pid, [])
        ]
    entities = resolve_entities(mentions)
    stated = Statements()
    link_titles(papers, mentions, entities, stated)
    return build_graph(papers, mentions, entities, relations=stated.relations), mentions


def _links(G, pid: str) -> dict[str, str]:  # noqa: ANN001
    return {v: d["evidence"] for u, v, d in G.out_edges(pid, data=True) if d["type"] != "IN_TOPIC"}


#: A paper whose abstract proposes FlowX, the name its titles give.
FLOWX = {"p": [("FlowX", Label.METHOD, Rel.PROPOSES)]}


def _tasks_of(title: str) -> list[str]:
    """The tasks the title of FlowX's paper links it to."""
    G, _ = _graph({"p": title}, FLOWX)
    return [n for n in _links(G, "p") if n.startswith("task:")]


def test_a_title_links_what_abstracts_name_with_the_title_as_evidence() -> None:
    title = "Secure Inference for Diffusion Models with GRPO"
    G, mentions = _graph({"p": title}, {})
    assert _links(G, "p") == {"concept:diffusion-model": title, "method:grpo": title}
    assert {m.source for m in mentions["p"]} == {TITLE}


def test_one_capitalised_word_or_a_modifier_links_nothing() -> None:
    # "Memory" could be any capitalised title word; "Memory-Efficient" rates what follows.
    G, _ = _graph({"p": "Memory for Memory-Efficient Training"}, {})
    assert _links(G, "p") == {}


def test_name_for_task_is_used_for_it() -> None:
    own = {"p": [("FlowX", Label.METHOD, Rel.PROPOSES)]}
    G, _ = _graph({"p": "FlowX: Fast Sampling for Video Generation"}, own)
    (edge,) = [d for u, v, d in G.edges(data=True) if d["type"] == "USED_FOR"]
    assert G.has_edge("method:flowx", "task:video-generation")
    assert edge["papers"] == ["p"]
    assert edge["evidence"] == ["FlowX: Fast Sampling for Video Generation"]
    # the abstract names FlowX: the title adds no second link to it
    assert _links(G, "p")["method:flowx"] == "We propose FlowX."


def test_name_towards_task_is_used_for_it_and_for_comes_first() -> None:
    own = {"p": [("FlowX", Label.METHOD, Rel.PROPOSES)]}
    G, _ = _graph({"p": "FlowX: Towards Video Generation"}, own)
    assert G.has_edge("method:flowx", "task:video-generation")
    # with both, "for" says what it is for: GRPO (before "for") for video generation
    G, _ = _graph({"p": "Towards Scalable GRPO for Video Generation"}, {})
    assert G.has_edge("method:grpo", "task:video-generation")


def test_task_via_method_is_used_for_it() -> None:
    G, _ = _graph({"p": "Better Video Generation via GRPO"}, {})
    assert G.has_edge("method:grpo", "task:video-generation")


def test_a_named_contribution_uses_the_method_after_via() -> None:
    G, _ = _graph({"p": "FlowX: Better Video Generation via GRPO"}, FLOWX)
    assert G.has_edge("method:grpo", "method:flowx")
    assert G.has_edge("method:grpo", "task:video-generation")
    G, _ = _graph({"p": "FlowX: Video Generation with Low-Rank Self-Rewarding"}, FLOWX)
    assert G.has_edge("method:low-rank-self-rewarding", "method:flowx")
    # a method that spells the name out is the name's own long form, not a method it uses
    own = {"p": [("LSR", Label.METHOD, Rel.PROPOSES)]}
    G, _ = _graph({"p": "LSR: Video Generation with Low-Rank Self-Rewarding"}, own)
    assert not G.has_edge("method:low-rank-self-rewarding", "method:lsr")


def test_a_title_naming_nothing_known_adds_nothing() -> None:
    G, mentions = _graph({"p": "Rare Words for Unknown Things"}, {})
    assert _links(G, "p") == {} and mentions["p"] == []
    assert not [d for _, _, d in G.edges(data=True) if d["type"] == "USED_FOR"]


def test_a_phrase_key_put_together_from_its_words_is_normalize_keys() -> None:
    from kg.extract.normalize import normalize_key
    from kg.resolve.title_phrases import span_key, title_words

    titles = [
        "LLMs Are Few-Shot Learners: Scaling KV-Caches for Diffusion Models",
        "The Analysis of Bias in GPT-4o and Qwen2.5-7B via Q-Learning Policies",
        "An Atlas of Series: ImageNet-Sketches, Text-to-Image Models and 3D Gaussians",
        "Towards Safer α-DPO: e.g. Learning Rates of 0.5 for Processes’ Boxes",
    ]
    for title in titles:
        words = title_words(title)
        for i in range(len(words)):
            for j in range(i + 1, len(words) + 1):
                assert span_key(words, i, j) == normalize_key(" ".join(words[i:j])), words[i:j]


def test_a_purpose_phrase_no_abstract_names_is_a_task_of_its_own() -> None:
    own = {"p": [("FlowX", Label.METHOD, Rel.PROPOSES)]}
    title = "FlowX: Fast Sampling for Robust Few-Shot Anomaly Detection in the Wild"
    G, mentions = _graph({"p": title}, own)
    task = "task:few-shot-anomaly-detection"
    assert G.nodes[task]["label"] == "Task"
    assert G.nodes[task]["name"] == "few-shot anomaly detection"  # "Robust" rates it
    assert _links(G, "p")[task] == title
    assert G.has_edge("method:flowx", task)
    # Two titles with one purpose share its task; the abstracts' name a task comes first.
    G, _ = _graph({"p": title, "q": "Dual Distillation for Few-Shot Anomaly Detection"}, own)
    assert G.nodes[task]["paper_count"] == 2
    G, _ = _graph({"p": "FlowX: Fast Sampling for Robust Video Generation"}, own)
    assert G.has_edge("method:flowx", "task:video-generation")


def test_a_purpose_that_reads_as_no_task_makes_none() -> None:
    for title in (
        "FlowX: Memory for Large Language Models",  # no task's head word
        "FlowX: Rewards for Eliciting Reasoning",  # a verb and its object
        "FlowX: A Model for Flow Field Prediction of Airfoils",  # "X of Y" is longer
        "FlowX: Fast Sampling for Efficient Detection",  # one word once rated
    ):
        assert not _tasks_of(title), title


def test_a_named_title_is_used_for_the_task_its_description_does() -> None:
    own = {"p": [("FlowX", Label.METHOD, Rel.PROPOSES)]}
    G, _ = _graph({"p": "FlowX: Fast Video Generation with GRPO"}, own)
    assert G.has_edge("method:flowx", "task:video-generation")
    # what follows "with", "in", "of" ... qualifies the description: no task of FlowX's
    G, _ = _graph({"p": "FlowX: Caching in Video Generation"}, own)
    assert not G.has_edge("method:flowx", "task:video-generation")


def test_the_task_that_ends_a_long_purpose_phrase_is_what_it_is_for() -> None:
    G, _ = _graph({"p": "FlowX: Fast Sampling for Generalised Multi-Modal Video Generation"}, FLOWX)
    assert G.has_edge("method:flowx", "task:video-generation")
    # a task the phrase names before its head is no purpose ("of" ends the phrase first)
    G, _ = _graph({"p": "FlowX: Fast Sampling for Video Generation Costs of Users"}, FLOWX)
    assert not G.has_edge("method:flowx", "task:video-generation")


def test_a_named_description_that_is_a_task_phrase_is_what_the_name_is_for() -> None:
    title = "FlowX: Window-Based Streaming Reconstruction with Camera Tokens"
    G, _ = _graph({"p": title}, FLOWX)
    task = "task:window-based-streaming-reconstruction"
    assert G.nodes[task]["name"] == "window-based streaming reconstruction"
    assert G.has_edge("method:flowx", task)
    for title in (
        "FlowX: A Unified Streaming Reconstruction Model",  # a kind of thing, not a task
        "FlowX: Collective Intelligence Improves Video Predictions",  # a claim
        "FlowX: Streaming Reconstruction of Camera Tokens",  # "X of Y" is longer
    ):
        assert not _tasks_of(title), title


def test_a_name_only_the_title_writes_is_what_the_paper_proposes() -> None:
    """"RayI2P: Learning Rays for ..." whose abstract says "our approach": the name is the
    paper's method (a dataset when it says benchmark), and what the title says it is for."""
    title = "RayX: Learning Rays for Video Generation"
    G, _ = _graph({"p": title}, {})
    assert _links(G, "p")["method:rayx"] == title
    assert G.has_edge("p", "method:rayx", Rel.PROPOSES.value)
    assert G.has_edge("method:rayx", "task:video-generation")
    G, _ = _graph({"p": "VidArena: Benchmarking Video Generation"}, {})
    assert "dataset:vidarena" in _links(G, "p")
    # A longer head is as often a claim as a name.
    G, _ = _graph({"p": "LLMs are Greedy Agents: Video Generation"}, {})
    assert not [n for n in _links(G, "p") if n.startswith(("method:", "dataset:"))]


def test_what_an_abstract_says_of_its_unnamed_proposal_is_said_of_the_title_s_name() -> None:
    """"RayI2P: ..." whose abstract says "Experiments on KITTI show that our approach ...":
    the relations and results of the unnamed proposal (kg.extract.rows.UNNAMED) are RayI2P's;
    in a paper whose title names nothing they keep no entity (the graph leaves them out)."""
    titles = {"p": "RayX: Learning Rays for Registration", "q": "Learning Rays for Registration"}
    papers = [Paper(id=pid, abstract="", title=t) for pid, t in titles.items()]
    mentions = {pid: [Mention(0, 4, "GRPO", Label.METHOD, Rel.USES, "s")] for pid in titles}
    entities = resolve_entities(mentions)
    stated = Statements()
    for pid in titles:
        unnamed = Mention(0, 0, "", Label.METHOD, Rel.PROPOSES, "", source=UNNAMED)
        stated.relations[pid] = [
            RelationMention(unnamed, "COMPARED_WITH", mentions[pid][0], "It beats GRPO.")
        ]
        stated.results[pid] = [ResultMention("5%", 5.0, "%", True, "s", 0, 2, method=unnamed)]
    link_titles(papers, mentions, entities, stated)
    assert [r.head.entity for r in stated.relations["p"]] == ["method:rayx"]
    assert [r.method.entity for r in stated.results["p"] if r.method] == ["method:rayx"]
    assert [r.head.entity for r in stated.relations["q"]] == [""]
    G = build_graph(papers, mentions, entities, relations=stated.relations)
    assert [(u, v) for u, v, d in G.edges(data=True) if d["type"] == "COMPARED_WITH"] == [
        ("method:rayx", "method:grpo")]


def test_a_named_title_s_kind_is_what_the_name_is() -> None:
    """"HippoTune: A Hippocampal ... Fine-Tuning Method for ...": the name IS_A the kind its
    description opens with, the shared kind its last words name when other papers name it."""
    kind = [("fine-tuning method", Label.CONCEPT, Rel.MENTIONS)]
    own = {**FLOWX, "k1": kind, "k2": kind}
    titles = {"p": "FlowX: A Hippocampal Fine-Tuning Method for Video Generation"}
    titles |= {"k1": "Rare Words", "k2": "Rare Words"}
    G, _ = _graph(titles, own)
    assert G.has_edge("method:flowx", "concept:fine-tuning-method", "IS_A")
    # A kind no other paper names describes the contribution only: no link.
    G, _ = _graph({"p": "FlowX: A Hippocampal Method for Video Generation"}, FLOWX)
    assert not [e for e in G.edges(keys=True) if e[2] == "IS_A"]


def test_a_purpose_the_corpus_names_as_a_concept_is_for_the_task_it_ends_in() -> None:
    # "Interaction-Aware Video Generation" is a concept of some abstracts, and a kind of video
    # generation; a concept right after "for" is no tail ("for LLM Video Generation")
    known = [("interaction-aware video generation", Label.CONCEPT), ("LLM", Label.CONCEPT)]
    abstracts = {**ABSTRACTS, "a3": known, "a4": known}
    for title in (
        "FlowX: Mask Alignment for Interaction-Aware Video Generation",
        "FlowX: Mask Alignment for LLM Video Generation",
    ):
        G, _ = _graph({"p": title}, FLOWX, abstracts)
        assert G.has_edge("method:flowx", "task:video-generation"), title
        assert not G.has_edge("method:flowx", "concept:llm")
    G, _ = _graph({"p": "FlowX: Mask Alignment for Interaction-Aware Scenes"}, FLOWX, abstracts)
    assert not [v for v in G.successors("method:flowx") if v.startswith("task:")]
