"""Entity→entity relations from extraction rows to the graph file, Neo4j rows and the views."""

from __future__ import annotations

from typing import Any

from kg.cache import ExtractionCache
from kg.extract.extractor import doc_rows
from kg.extract.rows import (
    UNNAMED,
    doc_mentions,
    doc_relations,
    doc_results,
    raw_rows,
    split_rows,
)
from kg.graph.assemble import graph_data
from kg.graph.relations import MAX_EVIDENCE, kind_tasks, relation_links
from kg.models import Entity, Mention, Paper, RelationMention, ResultMention
from kg.query.explore import data_counts, describe_node
from kg.query.index import PaperIndex
from kg.schema import EntityRel, Label, Rel
from kg.store.file import graph_from_data, graph_to_data
from kg.store.neo4j_rows import graph_to_rows, rel_statement

TEXT = "We propose GRPO, a reinforcement learning method for math reasoning."


def found(text: str, label: str, role: str = "USES") -> dict[str, Any]:
    start = TEXT.index(text)
    return {"start": start, "end": start + len(text), "text": text, "label": label,
            "role": role, "sent_start": 0, "sent_end": len(TEXT), "canonical": "",
            "confidence": 0.9, "source": "model"}


MENTIONS = [found("GRPO", "Method", "PROPOSES"), found("reinforcement learning", "Method"),
            found("math reasoning", "Task")]
RELATIONS = [{"head": 0, "tail": 1, "type": "IS_A", "evidence": TEXT, "confidence": 0.8,
              "rule": "appositive"},
             {"head": 0, "tail": 2, "type": "USED_FOR", "evidence": TEXT, "confidence": 0.7,
              "rule": "for"}]


def test_rows_carry_relations_through_the_cache(tmp_path: Any) -> None:
    rows = raw_rows(MENTIONS, RELATIONS)
    mention_rows, relation_rows, result_rows = split_rows(rows)
    assert len(mention_rows) == 3 and len(relation_rows) == 2 and result_rows == []
    cache = ExtractionCache(tmp_path, "model:v1")
    cache.put_many([(TEXT, rows)])
    back = ExtractionCache(tmp_path, "model:v1").get_many([TEXT])[TEXT]
    assert back == rows
    ms = doc_mentions(TEXT, back)
    assert [m.text for m in ms] == ["GRPO", "reinforcement learning", "math reasoning"]
    rels = doc_relations(back, ms)
    assert [(r.head.text, r.type, r.tail.text) for r in rels] == [
        ("GRPO", "IS_A", "reinforcement learning"), ("GRPO", "USED_FOR", "math reasoning")]
    assert rels[0].head is ms[0]  # the same objects: resolution's entities reach the relations
    assert split_rows(raw_rows(MENTIONS)) == (raw_rows(MENTIONS), [], [])
    assert doc_relations(raw_rows(MENTIONS), ms) == []


def test_what_an_abstract_says_of_an_unnamed_proposal_travels_as_its_own_row(nlp: Any) -> None:
    """"Experiments on KITTI show that our approach ..." in an abstract that names no proposal:
    the relation's head is UNNAMED_ROW, which the rows make one mention with no entity (the
    build names it from the title or drops it), and so do the results' methods."""
    text = "Experiments on KITTI and nuScenes show that our approach reaches 85.3% accuracy."
    rows = doc_rows(nlp(text))
    ms = doc_mentions(text, rows)
    rels = doc_relations(rows, ms)
    assert [(r.type, r.tail.text) for r in rels if r.head.source == UNNAMED] == [
        ("EVALUATED_ON", "KITTI"), ("EVALUATED_ON", "nuScenes")]
    unnamed = {id(r.head): r.head for r in rels if r.head.source == UNNAMED}
    assert len(unnamed) == 1 and not next(iter(unnamed.values())).entity
    assert [r.method.source for r in doc_results(rows, ms) if r.method] == [UNNAMED]
    # Where the abstract names its proposal, "our approach" stands for it as before.
    named = "We propose RayNet. " + text
    rows = doc_rows(nlp(named))
    rels = doc_relations(rows, doc_mentions(named, rows))
    assert {r.head.text for r in rels if r.type == "EVALUATED_ON"} == {"RayNet"}


def mention(entity: str, label: Label, sentence: str = "s") -> Mention:
    return Mention(0, 1, entity, label, Rel.USES, sentence, entity=entity)


LABELS = {"method:grpo": Label.METHOD, "method:rl": Label.METHOD, "task:math": Label.TASK,
          "dataset:gsm8k": Label.DATASET}


def test_one_link_per_source_type_target() -> None:
    grpo, rl, math = (mention(e, LABELS[e]) for e in ("method:grpo", "method:rl", "task:math"))
    papers = [Paper(f"p{i}", "") for i in (3, 1, 2, 4, 5)]
    by_paper = {
        f"p{i}": [RelationMention(grpo, "USED_FOR", math, f"sentence {i}", 0.1 * i)]
        for i in (1, 2, 3, 4, 5)
    }
    by_paper["p1"].append(RelationMention(grpo, "USED_FOR", math, "sentence 1b", 0.2))
    by_paper["p1"].append(RelationMention(grpo, "IS_A", rl, "GRPO, an RL method.", 0.8))
    links = relation_links(papers, by_paper, LABELS)
    assert [(x["source"], x["type"], x["target"]) for x in links] == [
        ("method:grpo", "IS_A", "method:rl"), ("method:grpo", "USED_FOR", "task:math")]
    used = links[1]
    assert used["papers"] == ["p1", "p2", "p3", "p4", "p5"] and used["count"] == 6
    assert used["evidence"] == ["sentence 1", "sentence 2", "sentence 3"][:MAX_EVIDENCE]
    assert used["confidence"] == 0.5 and used["key"] == "USED_FOR"


def test_links_the_schema_does_not_allow_are_left_out() -> None:
    grpo, math = mention("method:grpo", Label.METHOD), mention("task:math", Label.TASK)
    gsm, gone = mention("dataset:gsm8k", Label.DATASET), mention("method:gone", Label.METHOD)
    stated = [
        RelationMention(grpo, "USED_FOR", grpo, "self", 1.0),  # one entity: no loop
        RelationMention(math, "USED_FOR", grpo, "task for method", 1.0),  # not a schema triple
        RelationMention(grpo, "IS_A", gsm, "a method is no dataset", 1.0),
        RelationMention(grpo, "COMPARED_WITH", gone, "not a node", 1.0),
        RelationMention(grpo, "USES", math, "a paper's type", 1.0),
        RelationMention(grpo, "EVALUATED_ON", gsm, "kept", 1.0),
    ]
    links = relation_links([Paper("p", "")], {"p": stated}, LABELS)
    assert [x["evidence"] for x in links] == [["kept"]]


def small_graph() -> dict[str, Any]:
    papers = [Paper("paper:b", "x"), Paper("paper:a", "y")]
    ents = {e: Entity(e, lab, e.split(":")[1]) for e, lab in LABELS.items()}
    grpo, math = mention("method:grpo", Label.METHOD), mention("task:math", Label.TASK)
    gsm = mention("dataset:gsm8k", Label.DATASET)
    mentions = {"paper:a": [grpo, math], "paper:b": [mention("method:grpo", Label.METHOD), gsm]}
    relations = {"paper:a": [RelationMention(grpo, "USED_FOR", math, "GRPO for math.", 0.9)],
                 "paper:b": [RelationMention(grpo, "EVALUATED_ON", gsm, "On GSM8K.", 0.6)]}
    return graph_data(papers, mentions, ents, relations=relations)


def test_graph_data_merges_relation_links_in_file_order() -> None:
    data = small_graph()
    keys = [(x["source"], x["target"], x["key"]) for x in data["links"]]
    assert keys == sorted(keys)
    assert ("method:grpo", "task:math", "USED_FOR") in keys
    # What a build writes is what saving its networkx graph writes.
    assert graph_to_data(graph_from_data(data))["links"] == data["links"]
    assert data_counts(data)["edges"]["USED_FOR"] == 1
    assert data_counts(data)["edges"]["EVALUATED_ON"] == 1


def test_a_kind_is_a_node_and_an_is_a_target_when_two_papers_name_it() -> None:
    kinds = {"concept:ssm-based-language-model": "SSM-based language model",
             "concept:regime": "regime", "concept:orphan-language-model": "orphan language model",
             "concept:sparse-ssm-framework": "sparse selective-state framework"}
    ents = {"method:mamba2": Entity("method:mamba2", Label.METHOD, "Mamba2"),
            **{e: Entity(e, Label.CONCEPT, name) for e, name in kinds.items()}}
    mamba = mention("method:mamba2", Label.METHOD)
    ssm, regime, orphan, own = (mention(e, Label.CONCEPT) for e in kinds)
    relations = {"p": [RelationMention(mamba, "IS_A", ssm, "Mamba2, an SSM-based model.", 0.6),
                       RelationMention(mamba, "IS_A", regime, "Mamba2 is a regime.", 0.6),
                       RelationMention(mamba, "IS_A", own, "Mamba2, a sparse ... framework.")]}
    papers = [Paper("p", "x"), Paper("q", "y")]
    mentions = {"p": [mamba, ssm, regime, orphan, own],
                "q": [mention("concept:ssm-based-language-model", Label.CONCEPT)]}
    data = graph_data(papers, mentions, ents, relations=relations)
    ids = {n["id"] for n in data["nodes"]}
    is_a = {x["target"] for x in data["links"] if x.get("type") == "IS_A"}
    # A kind two papers name is kept for the IS_A (it is no concept worth a node otherwise);
    # the kind only this paper gives its method describes it; an everyday word is never one,
    # and a kind no kept entity IS_A is not kept for it.
    assert "concept:ssm-based-language-model" in ids
    assert is_a == {"concept:ssm-based-language-model"}
    assert not ids & {"concept:regime", "concept:orphan-language-model",
                      "concept:sparse-ssm-framework"}


def test_a_kind_only_one_paper_names_is_said_of_the_shared_kind_it_ends_in() -> None:
    sentence = "We propose CoT-Evo, an evolutionary CoT distillation framework."
    names = {"method:cot-evo": ("CoT-Evo", Label.METHOD),
             "concept:own": ("evolutionary CoT distillation framework", Label.CONCEPT),
             "concept:df": ("distillation framework", Label.CONCEPT),
             "task:cot-distillation": ("CoT distillation", Label.TASK)}
    ents = {e: Entity(e, label, name) for e, (name, label) in names.items()}

    def at(entity: str) -> Mention:
        text, label = names[entity]
        start = sentence.index(text)
        return Mention(start, start + len(text), text, label, Rel.USES, sentence, entity=entity)

    evo, own = at("method:cot-evo"), at("concept:own")
    relations = {"p": [RelationMention(evo, "IS_A", own, sentence, 0.6)]}
    papers = [Paper("p", "x"), Paper("q", "y"), Paper("r", "z")]
    other = Mention(0, 22, names["concept:df"][0], Label.CONCEPT, Rel.USES, "s",
                    entity="concept:df")
    task = Mention(0, 16, names["task:cot-distillation"][0], Label.TASK, Rel.USES, "s",
                   entity="task:cot-distillation")
    mentions = {"p": [evo, own], "q": [other, task], "r": [other]}

    def relations_of(data: dict[str, Any]) -> set[tuple[str, str, str]]:
        return {(x["source"], x["type"], x["target"]) for x in data["links"]
                if x["type"] in ("IS_A", "USED_FOR")}

    data = graph_data(papers, mentions, ents, relations=relations)
    # The kind this paper alone gives makes no node; the shared kind its last words name is
    # the IS_A's target, and kept for it. The kind's own words still name its task.
    assert relations_of(data) == {("method:cot-evo", "IS_A", "concept:df"),
                                  ("method:cot-evo", "USED_FOR", "task:cot-distillation")}
    assert "concept:df" in {n["id"] for n in data["nodes"]}
    # No shared kind in its words: no IS_A, as before.
    data = graph_data(papers, {**mentions, "r": []}, ents, relations=relations)
    assert relations_of(data) == {("method:cot-evo", "USED_FOR", "task:cot-distillation")}


def test_a_part_a_paper_describes_of_its_method_is_a_node() -> None:
    sentence = "LiteGuard introduces a local verifier architecture and a classifier."
    names = {"method:liteguard": ("LiteGuard", Label.METHOD),
             "concept:local-verifier-architecture": ("local verifier architecture", Label.CONCEPT),
             "concept:classifier": ("classifier", Label.CONCEPT),
             "concept:said-by-the-classifier": ("gated memory router", Label.CONCEPT),
             "concept:part-of-a-concept": ("sparse expert layer", Label.CONCEPT),
             "concept:mixture-framework": ("mixture framework", Label.CONCEPT),
             "method:dpo": ("DPO", Label.METHOD),
             "concept:scheduling-mechanism": ("dynamic scheduling mechanism", Label.CONCEPT),
             "method:helpernet": ("HelperNet", Label.METHOD),
             "concept:gating-router": ("adaptive gating router", Label.CONCEPT)}
    ents = {e: Entity(e, label, name) for e, (name, label) in names.items()}
    at = {e: Mention(0, 1, name, label, Rel.USES, sentence, entity=e)
          for e, (name, label) in names.items()}
    at["method:liteguard"].role = Rel.PROPOSES
    ents["method:dpo"].paper_count = 48  # (a method other papers name: not this paper's own)

    def part_of(part: str, whole: str, rule: str = "component_frame") -> RelationMention:
        return RelationMention(at[part], "PART_OF", at[whole], sentence, 0.6, rule=rule)

    relations = {"p": [
        part_of("concept:local-verifier-architecture", "method:liteguard"),
        part_of("concept:classifier", "method:liteguard"),  # an everyday word: no node
        part_of("concept:said-by-the-classifier", "method:liteguard", rule="model"),
        part_of("concept:part-of-a-concept", "concept:mixture-framework"),  # no method's part
        # a method the paper neither proposes nor alone names: its part is the paper's own
        # method's, not DPO's
        part_of("concept:scheduling-mechanism", "method:dpo"),
        part_of("concept:gating-router", "method:helpernet"),  # a method this paper alone names
    ]}
    data = graph_data([Paper("p", "x")], {"p": list(at.values())}, ents, relations=relations)
    nodes = {n["id"]: n for n in data["nodes"]}
    parts = {(x["source"], x["target"]) for x in data["links"] if x.get("type") == "PART_OF"}
    # One paper names the part, yet it is a node: what the method is made of.
    assert parts == {("concept:local-verifier-architecture", "method:liteguard"),
                     ("concept:gating-router", "method:helpernet")}
    assert nodes["concept:local-verifier-architecture"]["paper_count"] == 1
    assert not nodes.keys() & {"concept:classifier", "concept:said-by-the-classifier",
                               "concept:part-of-a-concept", "concept:mixture-framework",
                               "concept:scheduling-mechanism"}


def test_a_result_of_the_papers_own_method_on_a_dataset_evaluates_it_there() -> None:
    sentence = "On GSM8K, GRPO reaches 81.2%, up from 78.6% for Llama-3."
    names = {"dataset:gsm8k": ("GSM8K", Label.DATASET, Rel.EVALUATES_ON),
             "method:grpo": ("GRPO", Label.METHOD, Rel.PROPOSES),
             "method:llama-3": ("Llama-3", Label.METHOD, Rel.USES)}
    ents = {e: Entity(e, label, name) for e, (name, label, _) in names.items()}

    def at(entity: str) -> Mention:
        text, label, role = names[entity]
        start = sentence.index(text)
        return Mention(start, start + len(text), text, label, role, sentence, entity=entity)

    gsm, grpo, llama = at("dataset:gsm8k"), at("method:grpo"), at("method:llama-3")

    def result(value: str, method: Mention) -> ResultMention:
        start = sentence.index(value)
        return ResultMention(value, float(value[:-1]), "%", False, sentence, start,
                             start + len(value), method=method, dataset=gsm)

    results = {"p": [result("81.2%", grpo), result("78.6%", llama)]}
    data = graph_data([Paper("p", "x")], {"p": [gsm, grpo, llama]}, ents, results=results)
    evaluated = [(x["source"], x["target"], x["evidence"]) for x in data["links"]
                 if x["type"] == "EVALUATED_ON"]
    # The paper's own method only: another's result is as often a model it was applied to.
    assert evaluated == [("method:grpo", "dataset:gsm8k", [sentence])]


def test_neo4j_rows_and_statement_for_relations() -> None:
    rows = graph_to_rows(graph_from_data(small_graph()))
    [row] = rows.rels[(EntityRel.USED_FOR, Label.METHOD, Label.TASK)]
    assert row == {"src": "method:grpo", "dst": "task:math",
                   "props": {"confidence": 0.9, "count": 1, "evidence": ["GRPO for math."],
                             "papers": ["paper:a"]}}
    stmt = rel_statement(EntityRel.USED_FOR, Label.METHOD, Label.TASK, sync=True)
    assert "MERGE (a)-[r:`USED_FOR`]->(b)" in stmt and "row.props" in stmt


def test_views_keep_papers_links_apart_from_relations() -> None:
    G = graph_from_data(small_graph())
    info = describe_node(G, "task:math")
    assert [x["id"] for x in info["links"]] == ["paper:a"]
    assert [(x["type"], x["direction"], x["id"]) for x in info["relations"]] == [
        ("USED_FOR", "in", "method:grpo")]
    grpo = describe_node(G, "method:grpo")
    assert {x["id"] for x in grpo["links"]} == {"paper:a", "paper:b"}
    assert len(grpo["relations"]) == 2
    idx = PaperIndex.from_graph(G)
    assert "method:grpo" not in idx.links
    assert idx.backlinks["task:math"] == ["paper:a"]


def test_a_methods_kind_names_the_task_it_is_used_for() -> None:
    def m(text: str, label: Label, entity: str) -> Mention:
        return Mention(0, len(text), text, label, Rel.USES, "s", entity=entity)

    lumi = m("Lumi", Label.METHOD, "method:lumi")
    kind = m("agentic VG framework", Label.CONCEPT, "concept:agentic-vg-framework")
    vg, rare = "task:video-generation", "task:reasoning-video-generation"
    entities = {
        kind.entity: Entity(kind.entity, Label.CONCEPT, kind.text),
        # "VG" is an alias of both; the task more papers name takes it
        rare: Entity(rare, Label.TASK, "reasoning—video generation", ["VG"], 1),
        vg: Entity(vg, Label.TASK, "video generation", ["VG"], 700),
    }
    rows = {"p": [RelationMention(lumi, "IS_A", kind, "Lumi, a novel agentic VG framework.")]}
    used = [r for r in kind_tasks(rows, entities)["p"] if r.type == "USED_FOR"]
    assert [(r.head.entity, r.tail.entity) for r in used] == [("method:lumi", vg)]
    # Not from a task's kind.
    task = m("math reasoning", Label.TASK, "task:math-reasoning")
    rows = {"p": [RelationMention(task, "IS_A", kind, "s")]}
    assert kind_tasks(rows, entities) == rows
    # Not a way of learning: an RL algorithm is one, not one used for RL.
    arpo = m("ARPO", Label.METHOD, "method:arpo")
    rl_kind = m("agentic RL algorithm", Label.CONCEPT, "concept:agentic-rl-algorithm")
    rl = "task:reinforcement-learning"
    entities = {
        rl_kind.entity: Entity(rl_kind.entity, Label.CONCEPT, rl_kind.text),
        rl: Entity(rl, Label.TASK, "reinforcement learning", ["RL"], 700),
    }
    rows = {"p": [RelationMention(arpo, "IS_A", rl_kind, "ARPO, an agentic RL algorithm.")]}
    assert kind_tasks(rows, entities) == rows


def test_a_use_for_a_phrase_no_node_names_is_one_for_the_task_it_ends_in() -> None:
    sentence = "DualFlow, a framework for two-person motion generation and for music in film."
    ents = {
        "method:dualflow": Entity("method:dualflow", Label.METHOD, "DualFlow"),
        "task:mg": Entity("task:mg", Label.TASK, "motion generation"),
        "task:two-person-mg": Entity("task:two-person-mg", Label.CONCEPT, "two-person mg"),
        "concept:music-in-film": Entity("concept:music-in-film", Label.CONCEPT, "music in film"),
        "task:film": Entity("task:film", Label.TASK, "film"),
    }

    def at(text: str, entity: str, label: Label, source: str = "model") -> Mention:
        start = sentence.index(text)
        return Mention(start, start + len(text), text, label, Rel.USES, sentence,
                       entity=entity, source=source)  # fmt: skip

    flow = at("DualFlow", "method:dualflow", Label.METHOD)
    phrase = at("two-person motion generation", "task:two-person-mg", Label.CONCEPT)
    inner = at("motion generation", "task:mg", Label.TASK, "nested")
    music = at("music in film", "concept:music-in-film", Label.CONCEPT)
    film = at("film", "task:film", Label.TASK, "nested")
    relations = {"p": [RelationMention(flow, "USED_FOR", phrase, sentence, 0.6),
                       RelationMention(flow, "USED_FOR", music, sentence, 0.6)]}  # fmt: skip
    papers = [Paper("p", sentence), Paper("q", "x")]
    mentions = {"p": [flow, phrase, inner, music, film], "q": [at("film", "task:film",
                Label.TASK), at("motion generation", "task:mg", Label.TASK)]}  # fmt: skip
    data = graph_data(papers, mentions, ents, relations=relations, min_concept_papers=1)
    used_for = {(x["source"], x["target"]) for x in data["links"] if x.get("type") == "USED_FOR"}
    # what follows "in" names something else: no use for film
    assert used_for == {("method:dualflow", "task:mg")}
    assert relations["p"][0].tail is phrase  # the caller's relations are left as they are


def test_a_use_for_a_phrase_is_one_for_the_corpus_task_it_ends_in() -> None:
    """No mention of the paper names the task inside the phrase; a task of the corpus does. A
    rule's relation is moved onto it, not the classifier's."""
    sentence = "ODI-Bench, a benchmark designed for omnidirectional image understanding."
    ents = {
        "dataset:odi-bench": Entity("dataset:odi-bench", Label.DATASET, "ODI-Bench"),
        "concept:oiu": Entity("concept:oiu", Label.CONCEPT, "omnidirectional image understanding"),
        "task:iu": Entity("task:iu", Label.TASK, "image understanding"),
    }

    def at(text: str, entity: str, label: Label) -> Mention:
        start = sentence.index(text)
        return Mention(start, start + len(text), text, label, Rel.USES, sentence, entity=entity)

    bench = at("ODI-Bench", "dataset:odi-bench", Label.DATASET)
    phrase = at("omnidirectional image understanding", "concept:oiu", Label.CONCEPT)
    papers = [Paper("p", sentence), Paper("q", "x")]
    elsewhere = Mention(0, 19, "image understanding", Label.TASK, Rel.ADDRESSES, "x",
                        entity="task:iu")  # fmt: skip

    def used_for(rule: str) -> set[tuple[str, str]]:
        relations = {"p": [RelationMention(bench, "USED_FOR", phrase, sentence, 0.6, rule)]}
        mentions = {"p": [bench, phrase], "q": [elsewhere]}
        data = graph_data(papers, mentions, ents, relations=relations, min_concept_papers=2)
        return {(x["source"], x["target"]) for x in data["links"] if x.get("type") == "USED_FOR"}

    assert used_for("x_a_benchmark_for_y") == {("dataset:odi-bench", "task:iu")}
    assert used_for("model") == used_for("model+kind") == set()


def test_a_cost_measures_no_benchmark() -> None:
    def m(text: str, label: Label, entity: str) -> Mention:
        return Mention(0, len(text), text, label, Rel.USES, "s", entity=entity)

    imagenet = m("ImageNet", Label.DATASET, "dataset:imagenet")
    labels = {"dataset:imagenet": Label.DATASET, "metric:speedup": Label.METRIC,
              "metric:top-1": Label.METRIC}  # fmt: skip
    rows = {"p": [
        RelationMention(imagenet, "MEASURED_BY", m("2.2× speedup", Label.METRIC,
                                                    "metric:speedup"), "s"),
        RelationMention(imagenet, "MEASURED_BY", m("top-1 accuracy", Label.METRIC,
                                                    "metric:top-1"), "s"),
    ]}  # fmt: skip
    links = relation_links([Paper("p", "")], rows, labels)
    assert [(x["source"], x["target"]) for x in links] == [("dataset:imagenet", "metric:top-1")]


def test_the_classifier_s_uses_between_methods_make_no_link() -> None:
    """The pair classifier is wrong about half the time that one method is used for another
    (CLASSIFIER_LEFT_OUT); a rule saying so, and the classifier's use of a method for a task,
    make links."""
    def m(entity: str, label: Label) -> Mention:
        return Mention(0, 1, "x", label, Rel.USES, "s", entity=entity)

    dpo, llama = m("method:dpo", Label.METHOD), m("method:llama", Label.METHOD)
    qa = m("task:qa", Label.TASK)
    labels = {"method:dpo": Label.METHOD, "method:llama": Label.METHOD, "task:qa": Label.TASK}

    def linked(rule: str) -> list[tuple[str, str]]:
        rows = {"p": [RelationMention(dpo, "USED_FOR", llama, "s", 0.9, rule),
                      RelationMention(llama, "USED_FOR", qa, "s", 0.9, rule)]}  # fmt: skip
        return [(x["source"], x["target"]) for x in relation_links([Paper("p", "")], rows, labels)]

    assert linked("model") == linked("model+kind") == [("method:llama", "task:qa")]
    assert linked("use_x_for_y") == [("method:dpo", "method:llama"), ("method:llama", "task:qa")]
