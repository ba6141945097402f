"""Relations between mentions (kg/extract/relations.py) through kg's real pipeline, the rule
file's own examples, and the SciERC relation scorer (kg/evaluate/scierc_relations.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from spacy.language import Language
from spacy.tokens import Doc

from kg.evaluate.scierc_relation_gold import load_relation_split, map_relation, record_relations
from kg.evaluate.scierc_relations import generic_mentions, score_relations, triple
from kg.extract.patterns import PatternError, read_jsonl
from kg.extract.relation_rules import RULES_FILE, load_relation_rules
from kg.extract.relations import Relation, find_relations, fits_graph, relations_in
from kg.extract.stand_ins import is_own_it


def found(nlp: Language, text: str) -> set[tuple[str, str, str]]:
    doc = nlp(text)
    return {(r.head["text"], r.type, r.tail["text"]) for r in relations_in(doc, doc._.kg_mentions)}


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        # apposition and "X for Y"
        (
            "We propose FooNet, a sparse encoder for protein folding.",
            ("FooNet", "IS_A", "sparse encoder"),
        ),
        (
            "We propose FooNet, a sparse encoder for protein folding.",
            ("sparse encoder", "USED_FOR", "protein folding"),
        ),
        (
            "We apply GRPO to mathematical reasoning.",
            ("GRPO", "USED_FOR", "mathematical reasoning"),
        ),
        (
            "FooNet is evaluated on the CASP14 benchmark.",
            ("FooNet", "EVALUATED_ON", "CASP14 benchmark"),
        ),
        (
            "FooNet outperforms AlphaFold by a large margin.",
            ("FooNet", "COMPARED_WITH", "AlphaFold"),
        ),
        ("BERT is a language model.", ("BERT", "IS_A", "language model")),
        (
            "We present Tina, a family of tiny reasoning models.",
            ("Tina", "IS_A", "tiny reasoning models"),
        ),
        ("It reaches 85% accuracy on ImageNet.", ("ImageNet", "MEASURED_BY", "accuracy")),
        (
            "We introduce ToolBench, a benchmark for tool use, and evaluate GPT-4 on ToolBench.",
            ("GPT-4", "EVALUATED_ON", "ToolBench"),
        ),
    ],
)
def test_a_sentence_states_its_relation(nlp: Language, text: str, relation: tuple) -> None:
    assert relation in found(nlp, text)


def test_our_method_stands_for_the_proposed_entity(nlp: Language) -> None:
    doc = nlp("We propose FooNet. Our method outperforms AlphaFold on CASP14.")
    relations = relations_in(doc, doc._.kg_mentions)
    compared = next(r for r in relations if r.type == "COMPARED_WITH")
    assert (compared.head["text"], compared.tail["text"]) == ("FooNet", "AlphaFold")
    assert doc.text[slice(*compared.head_span)] == "method"  # where the stand-in is written
    assert compared.sentence == "Our method outperforms AlphaFold on CASP14."


def test_without_a_proposed_entity_a_stand_in_relates_nothing(nlp: Language) -> None:
    assert not any(t[1] == "COMPARED_WITH" for t in found(nlp, "Our method outperforms AlphaFold."))


@pytest.mark.parametrize(
    ("second", "stands_in"),
    [
        ("It also reaches 81.2% on ImageNet.", True),
        ("It then extracts edges from each image.", True),
        ("It can handle images of any size.", True),
        ("It is worth noting that ImageNet is noisy.", False),
        ("It can be shown that ImageNet is noisy.", False),
        ("It indicates that ImageNet is noisy.", False),
        ("Moreover, it reaches 81.2% on ImageNet.", True),  # after a short opener
        ("In particular, it reaches 81.2% on ImageNet.", True),
        ("However, it fails on ImageNet.", False),  # after a contrast: the prior work
        ("While promising, it poses several challenges.", False),  # a concession
        ("On the large and noisy ImageNet, it reaches 81.2%.", False),  # opener too long
    ],
)
def test_an_opening_it_that_acts_stands_for_the_proposed_entity(
    nlp: Language, second: str, stands_in: bool
) -> None:
    doc = nlp("We propose FooNet, a sparse encoder. " + second)
    its = [t for t in doc if t.lower_ == "it"]
    assert [is_own_it(t) for t in its] == [stands_in]


def test_an_apposition_needs_a_name(nlp: Language) -> None:
    # "X, a Y" with X a lower-case phrase is mostly a sentence opener or a list (SciERC)
    assert not any(t[1] == "IS_A" for t in found(nlp, "In training, a sparse encoder is used."))


def test_a_kind_before_a_name_is_its_kind_only_when_proposed(nlp: Language) -> None:
    # "we propose a Y, X" names the kind first; "On a Y, X improves" is a setting, not a kind
    def by_rule(text: str) -> set[tuple[str, str, str]]:
        doc = nlp(text)
        rules = relations_in(doc, doc._.kg_mentions, model=None)
        return {(r.head["text"], r.type, r.tail["text"]) for r in rules}

    proposed = by_rule("We propose a novel inference algorithm, GuidedSampling, for search.")
    assert ("GuidedSampling", "IS_A", "inference algorithm") in proposed
    setting = by_rule("On a real-world benchmark, GuidedSampling improves accuracy.")
    assert not any(t[1] == "IS_A" for t in setting)


def test_a_list_shares_the_relation(nlp: Language) -> None:
    text = "We compare with methods such as Mamba, DeltaNet and RetNet for language modeling."
    doc = nlp(text)
    mentions = [
        {**m, "label": "Method"} if m["text"] in {"Mamba", "DeltaNet", "RetNet", "methods"} else m
        for m in doc._.kg_mentions
    ]
    if not any(m["text"] == "methods" for m in mentions):  # the hypernym, as SciERC writes it
        start = text.index("methods")
        mentions.append(
            {
                **mentions[0],
                "start": start,
                "end": start + 7,
                "text": "methods",
                "label": "Method",
                "source": "gold",
            }
        )
    got = {(r.head["text"], r.type, r.tail["text"]) for r in relations_in(doc, mentions)}
    for name in ("Mamba", "DeltaNet", "RetNet"):
        assert (name, "IS_A", "methods") in got


def test_a_part_we_propose_is_part_of_the_papers_method(nlp: Language) -> None:
    first = "We propose FooNet for dense retrieval. "
    got = found(nlp, first + "We further propose a consistency loss to align the two views.")
    assert ("consistency loss", "PART_OF", "FooNet") in got
    # a part given a name is the method the sentence proposes; a framework is no part
    for later in ("We introduce a new fine-tuning strategy, STAT, to train the retriever.",
                  "We further propose a lightweight framework to align the two views."):
        assert not any(r[1] == "PART_OF" for r in found(nlp, first + later)), later


def test_evaluated_on_a_class_is_evaluated_on_its_examples(nlp: Language) -> None:
    got = found(
        nlp,
        "RedSage is further evaluated on established cybersecurity benchmarks (e.g., CTI-Bench, "
        "CyberMetric, SECURE) and on general LLM benchmarks.",
    )
    assert ("RedSage", "EVALUATED_ON", "established cybersecurity benchmarks") in got
    for name in ("CTI-Bench", "CyberMetric", "SECURE"):
        assert ("RedSage", "EVALUATED_ON", name) in got
        assert (name, "IS_A", "established cybersecurity benchmarks") in got


def test_what_an_apposition_s_kind_is_for_the_name_is_for(nlp: Language) -> None:
    got = found(nlp, "We introduce LoongRL, a data-driven RL method for long-context reasoning.")
    assert ("LoongRL", "USED_FOR", "long-context reasoning") in got
    # a kind the sentence does not give the name passes nothing on
    got = found(nlp, "LoongRL is fast. A data-driven RL method for long-context reasoning.")
    assert ("LoongRL", "USED_FOR", "long-context reasoning") not in got
    # the kind's use found by the classifier, not a rule, passes on too
    got = found(
        nlp,
        "We introduce ThinkMorph, a unified thinking model capable of effective interleaved "
        "reasoning.",
    )
    assert ("unified thinking model", "USED_FOR", "interleaved reasoning") in got
    assert ("ThinkMorph", "USED_FOR", "interleaved reasoning") in got


def test_what_an_apposition_s_kind_is_built_on_the_name_is_built_on(nlp: Language) -> None:
    got = found(
        nlp, "We introduce VL-JEPA, a vision-language model built on a Joint Embedding "
        "Predictive Architecture (JEPA)."
    )
    assert ("Joint Embedding Predictive Architecture", "USED_FOR", "VL-JEPA") in {
        (h.split(" (")[0], t, v) for h, t, v in got
    }


def test_what_an_apposition_s_kind_integrates_is_part_of_the_name(nlp: Language) -> None:
    got = found(
        nlp, "Furthermore, we propose EfRLFN, an efficient real-time model that integrates "
        "Efficient Channel Attention and a hyperbolic tangent activation."
    )
    assert ("Efficient Channel Attention", "PART_OF", "EfRLFN") in got
    got = found(
        nlp, "We introduce SWAX, a hybrid architecture consisting of sliding-window attention "
        "and xLSTM linear RNN layers."
    )
    assert ("sliding-window attention", "PART_OF", "SWAX") in got


def test_what_a_name_s_generic_kind_is_for_the_name_is_for(nlp: Language) -> None:
    got = found(nlp, "We propose FooNet, a novel framework for protein folding.")
    assert ("FooNet", "USED_FOR", "protein folding") in got
    got = found(nlp, "We introduce FooBench, a benchmark for evaluating protein folding.")
    assert ("FooBench", "USED_FOR", "evaluating protein folding") in got
    # what the kind does to something is not what it is for
    got = found(nlp, "We propose FooNet, the first framework to integrate GRPO into decoding.")
    assert ("FooNet", "USED_FOR", "GRPO") not in got


def test_the_method_before_a_comparison_is_no_setting_or_baseline(nlp: Language) -> None:
    def compared(text: str) -> list[tuple[str, str]]:
        doc = nlp(text)
        rows = relations_in(doc, doc._.kg_mentions, model=None)
        return [(r.head["text"], r.tail["text"]) for r in rows if r.type == "COMPARED_WITH"]

    # what "trained from" names is where the claimant came from, not the claimant
    text = "Our FooNet model, trained from Qwen2.5-32B, consistently outperforms SFT methods."
    assert compared(text) == [("FooNet model", "SFT methods")]
    # what the claimant outperformed first is no claimant of the next comparison
    text = (
        "MemGen surpasses leading memory systems, ExpeL and AWM, by up to 38.22, and exceeds "
        "GRPO by up to 13.44."
    )
    assert ("AWM", "GRPO") not in compared(text) and ("MemGen", "GRPO") in compared(text)


def test_a_word_for_the_own_method_introduces_its_parts(nlp: Language) -> None:
    text = "We propose FooNet. Our approach features Pyramid Temporal Gridding (PTG)."
    assert ("Pyramid Temporal Gridding (PTG)", "PART_OF", "FooNet") in found(nlp, text)
    # "we" is no system with parts
    text = "We propose FooNet. We also introduce Pyramid Temporal Gridding (PTG)."
    assert not any(t[1] == "PART_OF" for t in found(nlp, text))


def test_relations_stay_inside_a_sentence(nlp: Language) -> None:
    assert not found(nlp, "We train FooNet. For protein folding, data is scarce.") & {
        ("FooNet", "USED_FOR", "protein folding")
    }


def test_the_component_writes_rows_that_fit_the_graph(nlp: Language) -> None:
    doc = nlp("FooNet achieves 85.3% accuracy on ImageNet and outperforms AlphaFold.")
    find_relations(doc)
    rows = doc._.kg_relations
    mentions = doc._.kg_mentions
    assert rows and all(
        set(r) == {"head", "tail", "type", "evidence", "confidence", "rule"} for r in rows
    )
    by_type = {r["type"]: (mentions[r["head"]]["text"], mentions[r["tail"]]["text"]) for r in rows}
    assert by_type["COMPARED_WITH"] == ("FooNet", "AlphaFold")
    # "FooNet achieves accuracy" (a method measured by a metric) is SciERC's, not the graph's
    assert (
        "MEASURED_BY" not in by_type
        or mentions[next(r["head"] for r in rows if r["type"] == "MEASURED_BY")]["label"]
        != "Method"
    )
    everything = relations_in(doc, mentions)
    assert any(not fits_graph(r) for r in everything)


def test_a_described_class_after_a_finite_comparison_holds_the_baselines(
    nlp: Language,
) -> None:
    text = (
        "FooNet substantially outperforms state-of-the-art memory systems such as Mem0 and"
        " HippoRAG."
    )
    assert ("FooNet", "COMPARED_WITH", "Mem0") in found(nlp, text)
    # after a participle the nearest name before is seldom the claimant
    text = "BarNet scores 4.3 points, outperforming existing scaling methods, such as Mem0."
    assert not {t for t in found(nlp, text) if t[1] == "COMPARED_WITH"}


def test_a_comparison_keeps_a_name_its_sentence_typed_a_dataset() -> None:
    """In "HELIX further surpasses GPT-4o" the recogniser may type GPT-4o a dataset; the
    graph decides by the entity's type in the corpus."""

    def rel(type_: str, head: str, tail: str) -> Relation:
        m = {"text": "x", "label": head}, {"text": "y", "label": tail}
        return Relation(m[0], type_, m[1], "s", 0.8, "x_outperforms_y", (0, 1), (2, 3))

    assert fits_graph(rel("COMPARED_WITH", "Method", "Dataset"))
    assert fits_graph(rel("COMPARED_WITH", "Dataset", "Method"))
    assert not fits_graph(rel("COMPARED_WITH", "Method", "Task"))
    assert not fits_graph(rel("PART_OF", "Method", "Dataset"))


# -- the rule file ---------------------------------------------------------------------------

_BRACKETED = re.compile(r"\[([^\]]+)\]")


def _example_doc(nlp: Language, example: str, rule: dict[str, Any]) -> tuple[Doc, list[dict]]:
    """The example's text as a tagged Doc and its two bracketed phrases as mentions, typed to
    fit the rule."""
    text, spans, last = "", [], 0
    for match in _BRACKETED.finditer(example):
        text += example[last : match.start()]
        spans.append((len(text), len(text) + len(match.group(1))))
        text += match.group(1)
        last = match.end()
    text += example[last:]
    doc = nlp.make_doc(text)
    for tok in doc:
        tok.is_sent_start = tok.i == 0  # one sentence
    doc = nlp.get_pipe("tagger")(doc)
    labels = [
        sorted(rule.get("head_types", ["Method"]))[0],
        sorted(rule.get("tail_types", ["Method"]))[0],
    ]
    if rule.get("head", 0) == 1:
        labels.reverse()
    mentions = [
        {
            "start": s,
            "end": e,
            "text": text[s:e],
            "label": label,
            "role": "",
            "canonical": text[s:e],
            "sent_start": 0,
            "sent_end": len(text),
            "source": "gold",
            "confidence": 1.0,
        }
        for (s, e), label in zip(spans, labels, strict=True)
    ]
    return doc, mentions


RULE_ROWS = [row for _, row in read_jsonl(RULES_FILE)]


@pytest.mark.parametrize("rule", RULE_ROWS, ids=lambda r: r["rule"])
def test_each_rule_finds_its_examples(nlp: Language, rule: dict[str, Any]) -> None:
    assert rule.get("examples") and rule.get("why"), "a rule says why it is there, with examples"
    for example in rule["examples"]:
        doc, mentions = _example_doc(nlp, example, rule)
        assert len(mentions) == 2, example
        head, tail = mentions if rule.get("head", 0) == 0 else mentions[::-1]
        got = [
            (r.head["text"], r.type, r.tail["text"], r.rule.split("[")[0])
            for r in relations_in(doc, mentions, proposed=None, stand_in=False)
        ]
        assert (head["text"], rule["type"], tail["text"], rule["rule"]) in got, (example, got)


def test_a_bad_rule_is_reported_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "relations.jsonl"
    bad.write_text(
        '{"rule": "x", "type": "USED_FOR", "pattern": ["@arg", "@arg"]}\n'
        '{"rule": "y", "type": "LIKES", "pattern": ["@arg", "@arg"]}\n'
    )
    with pytest.raises(PatternError, match="line 2: unknown relation type"):
        load_relation_rules(bad)
    bad.write_text('{"rule": "x", "type": "USED_FOR", "pattern": ["@arg", "%nothing", "@arg"]}\n')
    with pytest.raises(PatternError, match="line 1: unknown cue list"):
        load_relation_rules(bad)


# -- SciERC ------------------------------------------------------------------------------------


def test_scierc_types_map_onto_kg_types() -> None:
    assert map_relation("USED-FOR", (0, 3), (5, 9), "Method") == ((0, 3), "USED_FOR", (5, 9))
    # EVALUATE-FOR(a1, a2) says a1 evaluates a2: kg's head is a2
    assert map_relation("EVALUATE-FOR", (0, 3), (5, 9), "Metric") == ((5, 9), "MEASURED_BY", (0, 3))
    assert map_relation("EVALUATE-FOR", (0, 3), (5, 9), "Material") == (
        (5, 9),
        "EVALUATED_ON",
        (0, 3),
    )
    assert map_relation("HYPONYM-OF", (0, 3), (5, 9), "Method") == ((0, 3), "IS_A", (5, 9))
    assert map_relation("FEATURE-OF", (0, 3), (5, 9), "Method") is None


def test_a_record_s_relations_become_character_spans() -> None:
    rec = {
        "doc_key": "d",
        "sentences": [["A", "parser", "for", "MT", "."]],
        "ner": [[[1, 1, "Method"], [3, 3, "Task"]]],
        "relations": [[[1, 1, 3, 3, "USED-FOR"]]],
    }
    assert record_relations(rec) == [((2, 8), "USED_FOR", (13, 15))]


def test_scoring_is_direction_aware_except_for_comparisons() -> None:
    from kg.extract.relations import Relation

    def rel(head: tuple, kind: str, tail: tuple) -> Relation:
        return Relation({}, kind, {}, "", 1.0, "r", head, tail)

    gold = [[((0, 1), "USED_FOR", (2, 3)), ((4, 5), "COMPARED_WITH", (6, 7))]]
    scores = score_relations(
        gold, [[rel((2, 3), "USED_FOR", (0, 1)), rel((6, 7), "COMPARED_WITH", (4, 5))]]
    )
    assert scores.directed["USED_FOR"].tp == 0 and scores.undirected["USED_FOR"].tp == 1
    assert scores.directed["COMPARED_WITH"].tp == 1
    assert scores.directed["micro"].fp == 1 and scores.directed["micro"].fn == 1
    assert triple(rel((0, 1), "IS_A", (2, 3))) == ((0, 1), "IS_A", (2, 3))


def test_generic_nouns_are_arguments_for_scierc_only(nlp: Language) -> None:
    doc = nlp("The method is used for parsing.")
    generic = generic_mentions(doc, doc._.kg_mentions)
    assert [m["text"] for m in generic] == ["method"]
    assert not relations_in(doc, doc._.kg_mentions)  # kg cannot tell which method


@pytest.mark.shared
@pytest.mark.slow
def test_scierc_dev_with_gold_mentions(shared_dir: Path) -> None:
    """A floor under the relation step on SciERC dev (gold mentions): 28.7 micro F1 when
    this was written (docs in the module); a broken rule family shows here."""
    from kg.evaluate.scierc_relations import evaluate

    docs = load_relation_split(shared_dir / "data" / "scierc", "dev")
    assert sum(len(d.relations) for d in docs) == 364  # FEATURE-OF and CONJUNCTION left out
    scores = evaluate(docs, "gold")
    assert scores.directed["micro"].f1 > 0.25
    assert scores.directed["USED_FOR"].precision > 0.55
    assert json.dumps(scores.as_dict())


def test_what_a_name_introduces_is_its_part_but_not_what_a_lower_case_system_does(
    nlp: Language,
) -> None:
    [rule] = [r for r in RULE_ROWS if r["rule"] == "named_y_introduces_x"]
    for example, parts in (
        ("[FlowNet] introduces [adaptive caching]", {("adaptive caching", "FlowNet")}),
        ("our [pipeline] introduces [adaptive caching]", set()),
    ):
        doc, mentions = _example_doc(nlp, example, rule)
        got = {
            (r.head["text"], r.tail["text"])
            for r in relations_in(doc, mentions, proposed=None, stand_in=False)
            if r.type == "PART_OF"
        }
        assert got == parts, example
