"""Display names (kg.resolve.naming.display_name): a named contribution, else the title, else a
title-like phrase of the paper's main method and task, never the abstract's first words."""

from __future__ import annotations

import re

import networkx as nx
import pytest

from kg.extract.normalize import normalize_key
from kg.models import Mention, Paper
from kg.resolve.naming import display_name, proposed_acronym, topic_phrase
from kg.schema import DEFAULT_ROLE, Label, Rel

M, T, D, C = Label.METHOD, Label.TASK, Label.DATASET, Label.CONCEPT


def mentions(abstract: str, *specs: tuple) -> list[Mention]:
    """Mentions of ``abstract``: (text, label[, role[, source[, canonical]]]), each at its first
    occurrence after the previous spec of the same text; the sentence is found around it."""
    out: list[Mention] = []
    seen: dict[str, int] = {}
    for text, label, *rest in specs:
        role = rest[0] if rest and rest[0] is not None else DEFAULT_ROLE[label]
        source = rest[1] if len(rest) > 1 else "model"
        canonical = rest[2] if len(rest) > 2 else text
        start = abstract.index(text, seen.get(text, 0))
        seen[text] = start + 1
        begin = max(abstract.rfind(". ", 0, start) + 2, 0) if ". " in abstract[:start] else 0
        end = abstract.find(". ", start)
        sentence = abstract[begin : end + 1 if end >= 0 else len(abstract)]
        key = normalize_key(canonical)
        out.append(
            Mention(start, start + len(text), text, label, role, sentence, canonical=canonical,
                    entity=f"{label.value.lower()}:{key}", source=source, key=key)
        )  # fmt: skip
    return out


def untitled(abstract: str, *specs: tuple, keywords: list[str] | None = None) -> str:
    paper = Paper(id="p", abstract=abstract, keywords=keywords or [])
    return display_name(paper, mentions(abstract, *specs))


def first_words(abstract: str, n: int = 4) -> str:
    return " ".join(abstract.split()[:n])


# --- what stays as it was -----------------------------------------------------------------


def test_a_real_title_is_kept_as_it_is() -> None:
    abstract = "We study variational inference for sparse regression."
    specs = (("variational inference", M), ("sparse regression", T))
    paper = Paper(id="p", abstract=abstract, title="Sparse Variational Regression, Revisited")
    assert display_name(paper, mentions(abstract, *specs)) == paper.title
    long = Paper(id="q", abstract=abstract, title="A " + "very " * 20 + "long title")
    assert display_name(long, mentions(abstract, *specs)) == "A very very very very very very very…"


def test_a_named_contribution_comes_before_title_and_phrase() -> None:
    abstract = "We propose MetaEmbed for multimodal retrieval. MetaEmbed beats CLIP on retrieval."
    specs = (("MetaEmbed", M, Rel.PROPOSES), ("multimodal retrieval", T), ("CLIP", M))
    paper = Paper(id="p", abstract=abstract, title="Flexible Multi-Vector Retrieval")
    assert display_name(paper, mentions(abstract, *specs)) == "MetaEmbed"
    assert untitled(abstract, *specs) == "MetaEmbed"


# --- the phrase of a paper without a title or a named contribution --------------------------


def test_method_for_task_never_the_first_words() -> None:
    abstract = (
        "In this paper, we study variational inference for sparse regression. "
        "Variational inference scales to millions of features. "
        "Experiments on sparse regression benchmarks confirm it."
    )
    name = untitled(
        abstract,
        ("variational inference", M),
        ("sparse regression", T),
        ("Variational inference", M),
        ("sparse regression", T),
    )
    assert name == "Variational inference for sparse regression"
    assert not name.startswith(first_words(abstract, 2))


def test_task_with_method_when_the_task_is_what_the_paper_is_about() -> None:
    abstract = (
        "Time series anomaly detection matters for many systems. "
        "We study time series anomaly detection in sensor networks. "
        "We show that time series anomaly detection improves with a Transformer encoder."
    )
    name = untitled(
        abstract,
        ("Time series anomaly detection", T),
        ("time series anomaly detection", T),
        ("time series anomaly detection", T),
        ("Transformer encoder", M),
    )
    # The task's capital came from the start of its sentence; inside the title it is dropped.
    assert name == "Time series anomaly detection with Transformer encoder"


def test_a_proposed_method_is_the_head_of_the_phrase() -> None:
    abstract = (
        "Image reconstruction is studied widely. Image reconstruction is hard. "
        "Image reconstruction needs priors. We propose spectral activation modulation for it."
    )
    name = untitled(
        abstract,
        ("Image reconstruction", T),
        ("Image reconstruction", T),
        ("Image reconstruction", T),
        ("spectral activation modulation", M, Rel.PROPOSES),
    )
    assert name == "Spectral activation modulation for image reconstruction"


def test_the_opening_sentence_and_examples_count_less_than_the_papers_own_sentences() -> None:
    """The opening sentence is mostly background ("... capabilities in language
    understanding"), a sentence of examples names what the paper is not about."""
    abstract = (
        "Large language models have shown remarkable capabilities in language understanding. "
        "For example, experimental design is one use. "
        "In this work, we develop layer merging to compress models. "
        "Our experiments show that layer merging keeps 97% of the performance."
    )
    name = untitled(
        abstract,
        ("language understanding", T),
        ("experimental design", T),
        ("layer merging", M),
        ("layer merging", M),
    )
    assert name == "Layer merging"


def test_descriptions_generic_names_and_nested_names_do_not_count() -> None:
    abstract = (
        "We compare LLMs, the State-Of-The-Art (SOTA) and DPO-based fine-tuning algorithms. "
        "We show that LLMs with DPO-based fine-tuning algorithms beat the State-Of-The-Art. "
        "We propose conformal calibration for judge models. Conformal calibration helps."
    )
    sota = ("State-Of-The-Art", M, None, "acronym", "State-Of-The-Art")
    dpo = ("DPO", M, None, "nested")
    name = untitled(
        abstract,
        ("LLMs", M), sota, dpo,  # each in two sentences of the paper's own: 4 if they counted
        ("LLMs", M), dpo, sota,
        ("conformal calibration", M),  # 2 + 1
        ("Conformal calibration", M),
    )  # fmt: skip
    assert name == "Conformal calibration"


def test_trailing_fragments_are_left_off() -> None:
    abstract = (
        "We introduce a spectral clustering algorithm for the Multimodal Dialogue Generation "
        "task. The spectral clustering algorithm is fast."
    )
    name = untitled(
        abstract,
        ("spectral clustering algorithm", M),
        ("Multimodal Dialogue Generation task", T),
        ("spectral clustering algorithm", M),
    )
    assert name == "Spectral clustering for Multimodal Dialogue Generation"
    assert not re.search(r"\b(task|algorithm|for|of|with)$", name)


def test_an_acronym_the_proposal_spells_out_names_the_paper() -> None:
    abstract = (
        "Time series anomaly detection matters. We propose a novel multimodal time series "
        "anomaly detection model (MindTS). MindTS aligns text and time."
    )
    specs = (
        ("multimodal time series anomaly detection model (MindTS)", C, Rel.PROPOSES),
        ("Time series anomaly detection", T),
        ("MindTS", M),
    )
    assert untitled(abstract, *specs) == "MindTS"
    assert proposed_acronym(mentions(abstract, *specs)) == "MindTS"
    # Only a coined acronym of a proposal: a background one ("(SOTA)", used) is no name.
    assert proposed_acronym(mentions(abstract, ("MindTS", M))) is None


def test_without_method_or_task_the_most_named_concept_phrase() -> None:
    abstract = (
        "When reading, people have goals. In this work, we ask whether reading goals can be "
        "decoded from eye movements. We collect eye movements of many readers."
    )
    name = untitled(abstract, ("eye movements", C), ("eye movements", C), ("goals", C))
    assert name == "Eye movements"


def test_keywords_then_first_words_when_nothing_is_named() -> None:
    abstract = "Short note."
    assert untitled(abstract, keywords=["optimal transport", "flows"]) == "optimal transport"
    assert untitled(abstract) == "Short note."  # nothing else at all to name it by


def test_topic_phrase_is_none_without_mentions() -> None:
    assert topic_phrase("Anything at all.", []) is None


# --- the seeds -------------------------------------------------------------------------------


def test_no_seed_paper_is_named_by_the_first_words_of_its_abstract(
    seeds_graph: nx.MultiDiGraph,
) -> None:
    papers = [a for _, a in seeds_graph.nodes(data=True) if a["label"] == "Paper"]
    for attrs in papers:
        name, abstract = attrs["display_name"], " ".join(attrs["abstract"].split())
        assert name and not name.endswith("…"), name
        assert not abstract.startswith(name) or len(name.split()) <= 4, name
        assert not re.match(r"(?i)(in this (paper|work)|we (introduce|propose)|the recent)", name)


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        ("Implicit neural representations (INRs) have recently emerged",
         "Implicit neural representations for image reconstruction"),
        ("In this paper, we study Riemannian zeroth-order optimization",
         "Riemannian zeroth-order optimization"),
        ("Time series anomaly detection plays a critical role", "MindTS"),
        ("The recent advancement of Artificial Intelligence Generated Content",
         "Multi-modal conditional dialogue generation with MM-Dia"),
    ],
)  # fmt: skip
def test_seed_papers_named_by_their_method_and_task(
    seeds_graph: nx.MultiDiGraph, start: str, expected: str
) -> None:
    (attrs,) = [
        a
        for _, a in seeds_graph.nodes(data=True)
        if a["label"] == "Paper" and a["abstract"].startswith(start)
    ]
    assert attrs["display_name"] == expected
