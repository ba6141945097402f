"""Cross-paper resolution and the graph built from it (hand-made mentions, no model)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kg.graph.assemble import build_graph
from kg.models import Mention, Paper
from kg.resolve.resolver import resolve_entities
from kg.schema import Label, Rel
from kg.store.file import load_graph, save_graph


def mention(
    text: str, label: Label, role: Rel | None = None, canonical: str = "", start: int = 0
) -> Mention:
    from kg.schema import DEFAULT_ROLE

    return Mention(
        start=start,
        end=start + len(text),
        text=text,
        type=label,
        role=role or DEFAULT_ROLE[label],
        sentence=f"... {text} ...",
        canonical=canonical or text,
    )


def corpus() -> tuple[list[Paper], dict[str, list[Mention]]]:
    papers = [
        Paper(id=f"p{i}", abstract=f"abstract {i}", title=f"Paper {i}", display_name=f"P{i}")
        for i in range(3)
    ]
    mentions = {
        "p0": [
            mention("Massive Multimodal Embedding Benchmark", Label.DATASET),
            mention(
                "MMEB", Label.DATASET, canonical="Massive Multimodal Embedding Benchmark", start=50
            ),
            mention("FooNet", Label.METHOD, Rel.PROPOSES),
        ],
        "p1": [
            mention("MMEB", Label.METHOD),  # typed differently, acronym not defined here
            mention("foonet", Label.METHOD),
            mention("multi-vector retrieval", Label.TASK),
        ],
        "p2": [mention("Multi Vector Retrievals", Label.TASK), mention("rare idea", Label.CONCEPT)],
    }
    return papers, mentions


@pytest.mark.usefixtures("one_definition_is_enough")
def test_acronyms_and_variants_merge_across_papers() -> None:
    _, mentions = corpus()
    entities = resolve_entities(mentions)
    mmeb = entities["dataset:massive-multimodal-embedding-benchmark"]
    assert "MMEB" in mmeb.aliases and mmeb.paper_count == 2
    assert mentions["p1"][0].entity == mmeb.id and mentions["p1"][0].type == Label.DATASET
    task = entities["task:multi-vector-retrieval"]
    assert task.paper_count == 2 and task.name == "multi-vector retrieval"
    assert "Multi Vector Retrievals" in task.aliases
    assert entities["method:foonet"].name == "FooNet" or entities["method:foonet"].name == "foonet"


@pytest.mark.usefixtures("one_definition_is_enough")
def test_an_acronym_another_paper_coins_is_not_what_this_one_means() -> None:
    """An undefined "VSR" joins the long form other papers spell it out as, not a name that
    only the paper proposing it spells out: that name is new there."""
    coined = "Visual Self-Refine"
    mentions = {
        "p0": [
            mention("VSR", Label.METHOD, Rel.PROPOSES, canonical=coined),
            mention(coined, Label.METHOD, Rel.PROPOSES, start=20),
        ],
        "p1": [mention("VSR", Label.DATASET)],
    }
    entities = resolve_entities(mentions)
    assert entities["method:visual-self-refine"].paper_count == 1
    assert mentions["p1"][0].entity == "dataset:vsr"
    # Once another paper spells it out without proposing it, undefined uses join that form.
    mentions["p2"] = [mention("VSR", Label.TASK, canonical="video super-resolution")]
    entities = resolve_entities(mentions)
    assert mentions["p1"][0].entity == mentions["p2"][0].entity != "method:visual-self-refine"
    assert entities["method:visual-self-refine"].paper_count == 1


def test_one_paper_s_definition_does_not_speak_for_other_papers() -> None:
    """The acronym "TM" is "Transition Matching" where a paper spells it out, and stays "TM" in
    another that never does (a Turing machine there); two papers spelling it out alike, or one
    with the long form written by others too or a known acronym, make it the acronym's meaning
    everywhere."""
    tm = "Transition Matching"

    def defines(long_form: str, acronym: str = "TM") -> list[Mention]:
        return [mention(acronym, Label.METHOD, canonical=long_form)]

    mentions = {"p0": defines(tm), "p1": [mention("TM", Label.METHOD)]}
    resolve_entities(mentions)
    assert mentions["p0"][0].entity == "method:transition-matching"
    assert mentions["p1"][0].entity == "method:tm"
    mentions["p2"] = defines(tm)
    resolve_entities(mentions)
    assert mentions["p1"][0].entity == "method:transition-matching"
    gan = "Generative Adversarial Networks"
    mentions = {
        "p0": defines(gan, "GAN"),
        "p1": [mention(gan, Label.METHOD)],
        "p2": [mention("GAN", Label.METHOD)],
    }
    resolve_entities(mentions)
    assert mentions["p2"][0].entity == "method:generative-adversarial-network"
    # ... or the acronym is a name of the shipped lists
    pca = "Principal Component Analysis"
    mentions = {"p0": defines(pca, "PCA"), "p1": [mention("PCA", Label.METHOD)]}
    resolve_entities(mentions)
    assert mentions["p1"][0].entity == "method:principal-component-analysis"


@pytest.mark.usefixtures("one_definition_is_enough")
def test_a_definition_text_is_no_alias() -> None:
    long_form = "graph neural network"
    entities = resolve_entities(
        {
            "p0": [
                mention("graph neural network (GNN)", Label.METHOD, canonical=long_form),
                mention("GNN", Label.METHOD, canonical=long_form, start=22),
            ],
            "p1": [mention("GNNs", Label.METHOD)],
        }
    )
    (gnn,) = entities.values()
    assert gnn.name == long_form and gnn.paper_count == 2
    assert gnn.aliases == ["GNN", "GNNs"]


def test_only_names_and_known_terms_keep_a_named_type() -> None:
    def m(text: str, label: Label, source: str = "model", sentence: str = "") -> Mention:
        out = mention(text, label)
        out.source, out.sentence = source, sentence or f"We use {text} here."
        return out

    entities = resolve_entities(
        {
            "p0": [
                m("regularization method", Label.METHOD),  # a description: a concept
                m("Mesa layer", Label.METHOD),  # capital mid-sentence: a name
                m("Object referring", Label.TASK, sentence="Object referring is hard."),
                m("accuracy", Label.METRIC),  # a known term of the shipped lists
                m("structured planning", Label.TASK),  # one paper's task phrase
                m("sparse probing", Label.METHOD, source="coined"),  # a name rule found it
                m("diffusion models", Label.METHOD, source="gazetteer"),  # a class of models
                m("Gaussian mixture model", Label.METHOD),  # a named model
            ],
            "p1": [m("object referring", Label.TASK)],  # two papers address it: a task
        }
    )
    labels = {e.name: e.label for e in entities.values()}
    assert labels == {
        "regularization method": Label.CONCEPT,
        "Mesa layer": Label.METHOD,
        "Object referring": Label.TASK,
        "accuracy": Label.METRIC,
        "structured planning": Label.CONCEPT,
        "sparse probing": Label.METHOD,
        "diffusion models": Label.CONCEPT,
        "Gaussian mixture model": Label.METHOD,
    }


def test_shared_task_and_method_phrases_must_read_as_such() -> None:
    """Two papers sharing a lower-case task phrase keep it a task only when it reads as one:
    a task head or a gerund, and no word that rates or places it."""

    def both(text: str, label: Label = Label.TASK) -> dict[str, list[Mention]]:
        return {f"p{i}": [mention(text, label)] for i in range(2)}

    def label_of(text: str, label: Label = Label.TASK) -> Label:
        (entity,) = resolve_entities(both(text, label)).values()
        return entity.label

    assert label_of("temporal reasoning") == Label.TASK
    assert label_of("code generation tasks") == Label.TASK
    assert label_of("object referring") == Label.TASK
    assert label_of("real-world applications") == Label.CONCEPT  # no task head
    assert label_of("model design") == Label.CONCEPT
    assert label_of("complex reasoning") == Label.CONCEPT  # rated, not named
    assert label_of("final prediction") == Label.CONCEPT
    # A broad class of models is a concept whatever type the recogniser gave it.
    assert label_of("multimodal large language models") == Label.CONCEPT
    # Lower-case methods likewise: a technique's head, and no rating word.
    assert label_of("ridge regression", Label.METHOD) == Label.METHOD
    assert label_of("minibatch back-propagation", Label.METHOD) == Label.METHOD  # hyphenated head
    assert label_of("prompt tuning", Label.METHOD) == Label.METHOD
    assert label_of("naive fine-tuning", Label.METHOD) == Label.CONCEPT
    assert label_of("regularization method", Label.METHOD) == Label.CONCEPT
    (one,) = resolve_entities({"p0": [mention("ridge regression", Label.METHOD)]}).values()
    assert one.label == Label.METHOD  # the head says it: one mention is enough for a method
    (task,) = resolve_entities({"p0": [mention("visual verification", Label.TASK)]}).values()
    assert task.label == Label.CONCEPT  # but not for a task
    twice = [mention("visual verification", Label.TASK, start=s) for s in (0, 40)]
    (named_twice,) = resolve_entities({"p0": twice}).values()
    assert named_twice.label == Label.TASK  # what one abstract is about
    # ... or once as a noun compound (what kg_mentions marks): a kind of activity, named.
    compound = mention("lesion recognition", Label.TASK)
    compound.compound = True
    (named_once,) = resolve_entities({"p0": [compound]}).values()
    assert named_once.label == Label.TASK
    rated = mention("complex recognition", Label.TASK)
    rated.compound = True  # not that the tagger would say so: a rating word still wins
    assert next(iter(resolve_entities({"p0": [rated]}).values())).label == Label.CONCEPT
    # The recogniser's "other scientific term" that reads as a technique is a method.
    assert label_of("hard-negative mining", Label.CONCEPT) == Label.METHOD
    assert label_of("instruction fine-tuning", Label.TASK) == Label.METHOD  # a task? a technique
    # A method of the shipped Papers with Code list, whatever the recogniser called it.
    assert label_of("weight decay", Label.CONCEPT) == Label.METHOD
    assert label_of("latent diffusion models", Label.CONCEPT) == Label.CONCEPT  # a model class
    # ... and a task only when the list does not name it a task too.
    assert label_of("random search", Label.TASK) == Label.METHOD
    assert label_of("variational inference", Label.TASK) == Label.TASK  # listed as both
    # A cost measure of kg's curated metric list is a metric whatever the recogniser said.
    assert label_of("inference time", Label.CONCEPT) == Label.METRIC
    assert label_of("memory usage", Label.CONCEPT) == Label.METRIC
    assert label_of("GPU hours", Label.CONCEPT) == Label.METRIC  # though GPU is a generic name
    assert label_of("GPU clusters", Label.METHOD) == Label.CONCEPT
    # The broadest classes, and kinds of things named after a class's acronym, are concepts.
    assert label_of("deep neural networks", Label.METHOD) == Label.CONCEPT
    assert label_of("Graph Neural Networks", Label.METHOD) == Label.METHOD  # an architecture
    assert label_of("LLM agents", Label.METHOD) == Label.CONCEPT
    assert label_of("VLM backbones", Label.METHOD) == Label.CONCEPT
    assert label_of("negative samples", Label.CONCEPT) == Label.CONCEPT


def test_a_gerund_that_papers_agree_is_a_method_is_one() -> None:
    """A lower-case procedure whose head no list knows ("curriculum learning") is a method when
    the recogniser says so in two papers or more, in at least two thirds of its mentions."""

    def label_of(labels: list[Label], text: str = "curriculum learning") -> Label:
        found = {f"p{i}": [mention(text, label)] for i, label in enumerate(labels)}
        (entity,) = resolve_entities(found).values()
        return entity.label

    assert label_of([Label.METHOD, Label.METHOD]) == Label.METHOD
    assert label_of([Label.METHOD, Label.METHOD, Label.TASK]) == Label.METHOD
    assert label_of([Label.METHOD]) == Label.CONCEPT  # one paper is no agreement
    assert label_of([Label.METHOD, Label.CONCEPT]) == Label.CONCEPT  # nor is half
    assert label_of([Label.METHOD] * 2, "complex learning") == Label.CONCEPT  # rated
    assert label_of([Label.METHOD] * 2, "one-shot setting") == Label.CONCEPT  # a noun in -ing
    assert label_of([Label.METHOD] * 2, "discriminative embeddings") == Label.CONCEPT


def test_a_kind_word_after_a_name_names_the_same_entity() -> None:
    entities = resolve_entities(
        {
            "p0": [mention("HumanRef dataset", Label.DATASET)],
            "p1": [mention("HumanRef", Label.DATASET)],
            "p2": [mention("Ising model", Label.METHOD), mention("FooNet framework", Label.METHOD)],
            "p3": [mention("FooNet", Label.METHOD)],
        }
    )
    by_name = {e.name: e for e in entities.values()}
    assert by_name["HumanRef"].paper_count == 2 and "HumanRef dataset" not in by_name
    assert by_name["FooNet"].paper_count == 2
    assert "Ising model" in by_name  # "model" stays part of a name
    # A coined name's kind word says its type, over the shape rule that calls it a method.
    ruler = resolve_entities(
        {
            "p0": [mention("RULER benchmark", Label.DATASET)],
            "p1": [mention("RULER", Label.METHOD)],
            "p2": [mention("RULER", Label.METHOD)],
        }
    )
    assert [(e.name, e.label) for e in ruler.values()] == [("RULER", Label.DATASET)]


def test_a_technique_named_with_its_kind_word_is_the_technique() -> None:
    """ "gradient descent algorithms" is gradient descent; "regularization method" keeps its
    word (one word would remain), and so does a phrase that reads as no technique."""
    entities = resolve_entities(
        {
            "p0": [mention("gradient descent algorithms", Label.METHOD)],
            "p1": [mention("gradient descent", Label.METHOD)],
            "p2": [mention("magnetic mirror descent algorithm", Label.METHOD)],
            "p3": [mention("regularization method", Label.METHOD)],
            "p4": [mention("Viterbi algorithm", Label.METHOD)],
            "p5": [mention("dataset distillation methods", Label.METHOD)],
            "p6": [mention("dataset distillation", Label.METHOD)],
        }
    )
    by_name = {e.name: e for e in entities.values()}
    assert by_name["gradient descent"].paper_count == 2
    assert by_name["magnetic mirror descent"].label == Label.METHOD
    assert by_name["dataset distillation"].paper_count == 2
    assert "regularization method" in by_name and "Viterbi algorithm" in by_name


def test_a_metric_phrase_ending_in_a_known_metric_stays_a_metric() -> None:
    """One paper's "language modeling perplexity" is a metric: its head is a known metric. A
    metric phrase with another head, or a rating word, is no metric without a second paper."""

    def label_of(text: str) -> Label:
        (entity,) = resolve_entities({"p0": [mention(text, Label.METRIC)]}).values()
        return entity.label

    assert label_of("language modeling perplexity") == Label.METRIC
    assert label_of("task success rates") == Label.METRIC
    assert label_of("generalization error formulae") == Label.CONCEPT
    assert label_of("strong accuracy") == Label.CONCEPT  # rated, not named


def test_x_tasks_are_the_task_x() -> None:
    """The phrase "image synthesis tasks" names the task "image synthesis"; "few-shot
    tasks" says which tasks and stays as it is."""
    entities = resolve_entities(
        {
            "p0": [mention("image synthesis tasks", Label.TASK)],
            "p1": [mention("image synthesis", Label.TASK)],
            "p2": [mention("few-shot tasks", Label.TASK)],
        }
    )
    by_name = {e.name: e for e in entities.values()}
    assert by_name["image synthesis"].paper_count == 2
    assert by_name["image synthesis"].label == Label.TASK
    assert "image synthesis tasks" in by_name["image synthesis"].aliases
    assert "few-shot tasks" in by_name


def test_a_problem_or_a_hyphenated_activity_before_tasks_is_the_task() -> None:
    """"reinforcement learning problems" and "decision-making tasks" name the task before the
    task word; a capitalised "Problem" is part of a name, and a lone everyday activity before
    "tasks" says what kind of tasks, not which: no task."""
    entities = resolve_entities(
        {
            "p0": [
                mention("reinforcement learning problems", Label.TASK),
                mention("decision-making tasks", Label.TASK),
                mention("Traveling Salesman Problem", Label.TASK),
                mention("reasoning tasks", Label.TASK),
            ],
            "p1": [
                mention("reinforcement learning", Label.TASK),
                mention("decision-making", Label.TASK),
                mention("reasoning tasks", Label.TASK),
            ],
        }
    )
    by_name = {e.name: e for e in entities.values()}
    assert by_name["reinforcement learning"].paper_count == 2
    assert by_name["decision-making"].paper_count == 2
    assert "Traveling Salesman Problem" in by_name
    assert by_name["reasoning tasks"].label == Label.CONCEPT


def test_a_hyphen_suffixed_description_is_no_name() -> None:
    def label_of(text: str) -> Label:
        (entity,) = resolve_entities({"p0": [mention(text, Label.METHOD)]}).values()
        return entity.label

    assert label_of("UCB-based algorithm") == Label.CONCEPT
    assert label_of("REPO-trained models") == Label.CONCEPT
    assert label_of("ETR-predicted") == Label.CONCEPT  # the adjective alone
    assert label_of("18 benchmarks") == Label.CONCEPT  # a count: no letter left of a name
    assert label_of("non-UCB-based") == Label.CONCEPT
    assert label_of("POS-Aware Delay Mechanism") == Label.METHOD  # capitalised: a name


@pytest.mark.usefixtures("one_definition_is_enough")
def test_generic_names_and_lone_letters_are_no_names() -> None:
    def label_of(*texts: str) -> Label:
        (entity,) = resolve_entities({"p0": [mention(t, Label.METHOD) for t in texts]}).values()
        return entity.label

    assert label_of("GPU") == Label.CONCEPT
    assert label_of("OOD") == Label.CONCEPT
    assert label_of("Machine Learning") == Label.CONCEPT  # a field, not a task
    assert label_of("PyTorch") == label_of("NeurIPS") == Label.CONCEPT  # a library, a venue
    assert label_of("D") == Label.CONCEPT  # "a data structure D": a variable
    assert label_of("GRPO") == Label.METHOD
    # A generic name before lower-case words makes a kind of thing, not a name.
    assert label_of("AI agents") == Label.CONCEPT
    assert label_of("AI-generated text") == Label.CONCEPT
    assert label_of("AI2 Reasoning Challenge") == Label.METHOD
    shared = {f"p{i}": [mention("OOD detection", Label.TASK)] for i in range(2)}
    assert [e.label for e in resolve_entities(shared).values()] == [Label.TASK]  # reads as a task
    # So does a class of agents written in lower case.
    assert label_of("deep research agents") == Label.CONCEPT
    # An acronym that one abstract defines is named by its long form's key, and by "AI" when
    # most papers write it so: the name is judged too.
    long_form = "artificial intelligence"
    papers = {
        "p0": [mention("AI", Label.METHOD, canonical=long_form)],  # defined here
        "p1": [mention("AI", Label.METHOD)],
        "p2": [mention("AI", Label.METHOD)],
    }
    (entity,) = resolve_entities(papers).values()
    assert entity.name == "AI" and entity.label == Label.CONCEPT


def test_a_size_and_everyday_words_name_no_model_or_dataset() -> None:
    def label_of(text: str, label: Label) -> Label:
        (entity,) = resolve_entities({"p0": [mention(text, label)]}).values()
        return entity.label

    # ICLR 2026 had 55 such nodes: "7B model" (10 papers), "3B-parameter model", "387k videos".
    assert label_of("7B model", Label.METHOD) == Label.CONCEPT
    assert label_of("1.5B-parameter models", Label.METHOD) == Label.CONCEPT
    assert label_of("dataset of 52k videos", Label.DATASET) == Label.CONCEPT
    # A name with its size stays a name.
    assert label_of("Llama-3.1 8B model", Label.METHOD) == Label.METHOD
    assert label_of("Atari 100K", Label.DATASET) == Label.DATASET
    assert label_of("1B Word", Label.DATASET) != Label.CONCEPT


def test_an_everyday_word_capitalised_is_no_name() -> None:
    def label_of(text: str) -> Label:
        (entity,) = resolve_entities({"p0": [mention(text, Label.METHOD)]}).values()
        return entity.label

    # "Learning to optimize is ...": ICLR 2026 had "Learning" (13 papers) and "Reasoning" (9)
    # as methods.
    assert label_of("Learning") == label_of("Generation") == Label.CONCEPT
    assert label_of("Adam") == label_of("Shampoo") == Label.METHOD  # names that are words


def test_a_name_in_capitals_is_not_the_everyday_word() -> None:
    """SPEED, the method one paper proposes, is not the speed other papers write of: merged,
    the word's votes made it a concept of no node (ICLR 2026: SPEED, FOCUS, LINK, MATRIX). The
    paper's "Doppler" is its DOPPLER. With no paper writing the word in lower case, the name
    keeps the word's key, and its definitions count with those written otherwise ("RoI")."""
    mentions = {
        "p0": [
            mention("SPEED", Label.METHOD, Rel.PROPOSES),
            mention("Doppler", Label.METHOD, Rel.PROPOSES, start=10),
            mention("DOPPLER", Label.METHOD, start=20),
        ],
        "p1": [mention("speed", Label.CONCEPT), mention("SAE architecture", Label.METHOD)],
        "p2": [mention("speed", Label.CONCEPT), mention("SAE", Label.METHOD)],
    }
    entities = resolve_entities(mentions)
    speed, doppler, _ = mentions["p0"]
    assert speed.entity == "method:SPEED" and entities[speed.entity].paper_count == 1
    assert mentions["p1"][0].entity != speed.entity
    assert doppler.entity == mentions["p0"][2].entity == "method:doppler"
    assert mentions["p1"][1].entity == mentions["p2"][1].entity == "method:sae"  # "SAE" + head
    del mentions["p1"], mentions["p2"]
    assert resolve_entities(mentions)["method:speed"].name == "SPEED"
    roi = "regions of interest"
    mentions = {
        "p0": [mention("ROI", Label.METHOD, canonical=roi)],
        "p1": [mention("RoI", Label.METHOD, canonical=roi)],
        "p2": [mention("ROI", Label.METHOD)],
    }
    resolve_entities(mentions)
    assert mentions["p2"][0].entity == mentions["p0"][0].entity == mentions["p1"][0].entity


def test_a_name_a_paper_coins_and_spells_out_is_no_concept() -> None:
    """"we propose history-guided sampling (HiGS)": the recogniser's concept, and a "-guided"
    phrase that would describe a kind of method, but the paper's own name, spelt out."""
    for long_form, acronym in (("history-guided sampling", "HiGS"), ("self-aligned reward", "SAR")):
        ms = [
            mention(f"{long_form} ({acronym})", Label.CONCEPT, Rel.PROPOSES, canonical=long_form),
            mention(acronym, Label.CONCEPT, Rel.PROPOSES, canonical=long_form, start=40),
        ]
        (entity,) = resolve_entities({"p0": ms}).values()
        assert entity.label == Label.METHOD, long_form


def test_a_plural_of_data_in_lower_case_is_a_concept() -> None:
    def label_of(text: str) -> Label:
        (entity,) = resolve_entities({"p0": [mention(text, Label.METHOD)]}).values()
        return entity.label

    assert label_of("latent representations") == Label.CONCEPT  # 20 ICLR 2026 papers
    assert label_of("high-resolution inputs") == Label.CONCEPT
    assert label_of("Rotary Position Embeddings") == Label.METHOD  # a name


def test_graph_follows_schema() -> None:
    papers, mentions = corpus()
    entities = resolve_entities(mentions)
    G = build_graph(papers, mentions, entities)
    # One edge per (paper, entity); PROPOSES wins over the default role.
    assert set(G["p0"]["method:foonet"]) == {"PROPOSES"}
    assert set(G["p1"]["method:foonet"]) == {"USES"}
    edge = G["p0"]["dataset:massive-multimodal-embedding-benchmark"]["EVALUATES_ON"]
    assert edge["count"] == 2 and edge["evidence"] and edge["start"] == 0
    assert G.nodes["p0"]["label"] == "Paper" and G.nodes["p0"]["name"] == "P0"
    # A concept of one paper is not kept: it relates nothing.
    assert "concept:rare-idea" not in G
    assert G.nodes["task:multi-vector-retrieval"]["paper_count"] == 2


def test_same_input_same_bytes(tmp_path: Path) -> None:
    outputs = []
    for order in (1, -1):
        papers, mentions = corpus()
        mentions = dict(list(mentions.items())[::order])
        G = build_graph(papers[::order], mentions, resolve_entities(mentions))
        outputs.append(save_graph(G, tmp_path / f"g{order}.json").read_bytes())
    assert outputs[0] == outputs[1]
    G = load_graph(tmp_path / "g1.json")
    assert G.number_of_nodes() > 0 and G.is_multigraph() and G.is_directed()


def test_graph_data_is_what_the_graph_file_holds(tmp_path: Path) -> None:
    from kg.graph.assemble import graph_data
    from kg.store.file import graph_to_data, write_graph_data

    papers, mentions = corpus()
    entities = resolve_entities(mentions)
    data = graph_data(papers, mentions, entities)
    G = build_graph(papers, mentions, entities)
    assert graph_to_data(G) == data  # the round trip through networkx changes nothing
    direct = write_graph_data(data, tmp_path / "direct.json").read_bytes()
    assert direct == save_graph(G, tmp_path / "via_nx.json").read_bytes()
    assert [n["id"] for n in data["nodes"]] == sorted(n["id"] for n in data["nodes"])
    pairs = [(e["source"], e["target"], e["key"]) for e in data["links"]]
    assert pairs == sorted(set(pairs)) and len(pairs) > 5  # in order, one link per pair


def test_graph_data_releasing_the_mentions_as_it_goes_gives_the_same_data() -> None:
    from kg.graph.assemble import graph_data

    papers, mentions = corpus()
    entities = resolve_entities(mentions)
    kept = graph_data(papers, mentions, entities)
    assert mentions  # left as they were
    assert graph_data(papers, mentions, entities, release=True) == kept
    assert not mentions  # a build's mentions are gone once its links are made


@pytest.mark.usefixtures("one_definition_is_enough")
def test_resolver_fed_in_any_order_gives_the_same_entities() -> None:
    from kg.resolve.resolver import Resolver

    papers, mentions = corpus()
    expected = resolve_entities(mentions)
    expected_links = {pid: [(m.entity, m.type) for m in ms] for pid, ms in mentions.items()}
    # An incremental build adds the cached papers first and the new ones later: the undefined
    # "MMEB" (p1) may arrive before the paper that defines it (p0).
    _, fresh = corpus()
    resolver = Resolver()
    for pid in sorted(fresh, reverse=True):
        resolver.add(pid, fresh[pid])
    assert resolver.finish() == expected
    assert {pid: [(m.entity, m.type) for m in ms] for pid, ms in fresh.items()} == expected_links
    assert fresh["p1"][0].entity == "dataset:massive-multimodal-embedding-benchmark"


def test_the_name_a_title_gives_is_what_the_paper_proposes() -> None:
    from kg.resolve.naming import mark_title_names

    papers = {
        "p0": Paper(id="p0", abstract="...", title="GenDR: One-Step Diffusion for Restoration"),
        "p1": Paper(id="p1", abstract="...", title="Diffusion for restoration"),
    }
    mentions = {
        "p0": [
            mention("GenDR", Label.METHOD),
            mention("GenDR", Label.METHOD, start=40),
            mention("ImageNet", Label.DATASET),
        ],
        "p1": [mention("GenDR", Label.METHOD)],
    }
    resolve_entities(mentions)
    for pid, paper in papers.items():
        mark_title_names(paper, mentions[pid])
    assert [m.role for m in mentions["p0"]] == [Rel.PROPOSES, Rel.PROPOSES, Rel.EVALUATES_ON]
    assert mentions["p1"][0].role == Rel.USES  # its title names no contribution


def test_a_name_only_this_paper_defines_is_its_own() -> None:
    """ "Relational Self-Attention (RSA)" defined in one abstract only is that paper's
    contribution; a long form another paper names too, or a known one, is used."""
    from dataclasses import replace

    from kg.resolve.naming import mark_own_definitions

    def defined(long_form: str, acronym: str) -> list[Mention]:
        named = mention(long_form, Label.METHOD)
        short = replace(mention(acronym, Label.METHOD, start=60), canonical=long_form)
        short.source = "defined"
        return [named, short]

    mentions = {
        "p0": [
            *defined("Relational Self-Attention", "RSA"),
            *defined("Material Point Method", "MPM"),
            *defined("Proximal Policy Optimization", "PPO"),
        ],
        "p1": [mention("Material Point Method", Label.METHOD)],
    }
    entities = resolve_entities(mentions)
    mark_own_definitions(mentions["p0"], entities)
    roles = {m.text: m.role for m in mentions["p0"]}
    assert roles["Relational Self-Attention"] == roles["RSA"] == Rel.PROPOSES
    assert roles["Material Point Method"] == Rel.USES  # another paper names it
    assert roles["Proximal Policy Optimization"] == Rel.USES  # a known method


def test_only_concepts_worth_a_node_become_nodes() -> None:
    """Shared by both papers, an everyday word ("signals"), an everyday activity alone
    ("retrieval"), a generic name ("AI") and a description ("prior methods", "state-of-the-art",
    "generation process") make no node; a rare word ("overfitting", "sycophancy"), a class of
    models ("reasoning models") and a concept's phrase ("distribution shift") do."""
    assert concept_nodes(
        [
            "signals",
            "AI",
            "prior methods",
            "state-of-the-art",
            "overfitting",
            "retrieval",
            "detection",
            "sycophancy",
            "generation process",
            "training strategy",
            "reasoning models",
            "distribution shift",
        ]
    ) == {"overfitting", "sycophancy", "reasoning models", "distribution shift"}


def concept_nodes(names: list[str]) -> set[str]:
    """The Concept nodes of a graph whose two papers both mention each of ``names``."""
    papers = [Paper(id=f"p{i}", abstract=f"abstract {i}", title=f"P{i}") for i in range(2)]
    mentions = {p.id: [mention(n, Label.CONCEPT) for n in names] for p in papers}
    G = build_graph(papers, mentions, resolve_entities(mentions))
    return {a["name"] for _, a in G.nodes(data=True) if a["label"] == "Concept"}


def _label(*texts: str, label: Label = Label.DATASET, papers: int = 1) -> tuple[Label, str]:
    """The type and name of the one entity ``texts`` resolve to, in ``papers`` papers."""
    mentions = {f"p{i}": [mention(t, label) for t in texts] for i in range(papers)}
    (entity,) = resolve_entities(mentions).values()
    return entity.label, entity.name


def test_what_a_dataset_name_says_decides_its_type() -> None:
    # A model's name is a Method, however its mentions were typed.
    assert _label("Gemini 2.0 Flash")[0] == Label.METHOD
    assert _label("ResNet")[0] == Label.METHOD
    assert _label("LLaDA-8B-Instruct")[0] == Label.METHOD  # a size in the name
    # ... and so is a phrase with a method's head ("experiments on the A3C algorithm").
    assert _label("Asynchronous Advantage Actor Critic algorithm")[0] == Label.METHOD
    # "QA benchmarks" are benchmarks for a task: the task.
    assert _label("question answering")[0] == Label.TASK
    assert _label("visual question answering")[0] == Label.TASK
    assert _label("Massive Multimodal Embedding Benchmark")[0] == Label.DATASET
    # A kind of data in everyday words is no dataset's name.
    assert _label("natural images")[0] == Label.CONCEPT
    assert _label("3D data")[0] == Label.CONCEPT
    assert _label("MuJoCo")[0] == Label.DATASET
    # ... nor is a phrase most papers write in lower case that says what data is like.
    for name in ("out-of-distribution inputs", "text-to-image"):
        titled = "-".join(w.capitalize() for w in name.split("-"))
        assert _label(name, name, titled, papers=2) == (Label.CONCEPT, name)
        assert _label(titled, papers=2)[0] == Label.DATASET  # (as a name is written)
    # A listed dataset with a year or size after it is that dataset's variant, not a method.
    assert _label("AIME24", label=Label.METHOD)[0] == Label.DATASET
    # A name that says "bench" is a benchmark, whatever its mentions were typed.
    assert _label("SWE-bench Verified", label=Label.METHOD, papers=2)[0] == Label.DATASET
    assert _label("PICABench", label=Label.TASK, papers=2)[0] == Label.DATASET
    assert _label("GRPO24", label=Label.METHOD)[0] == Label.METHOD


def test_hardware_is_no_method_or_dataset() -> None:
    """Papers run on hardware; they do not evaluate on it ("1.9x speedup on H100 GPU")."""
    assert _label("H100 GPU", papers=2)[0] == Label.CONCEPT
    assert _label("NVIDIA A100", label=Label.METHOD, papers=2)[0] == Label.CONCEPT
    assert _label("multi-GPU training", label=Label.METHOD, papers=2)[0] == Label.METHOD


def test_a_metric_at_a_cut_off_is_a_metric_and_a_unit_no_name() -> None:
    assert _label("mR@100", label=Label.METHOD) == (Label.METRIC, "mR@100")
    assert _label("SecurePass@1", label=Label.DATASET)[0] == Label.METRIC
    assert _label("DeepConf@512", label=Label.METHOD)[0] == Label.METHOD  # a method's budget
    assert _label("GB", label=Label.METHOD)[0] == Label.CONCEPT  # "(8 GB)"


def test_a_word_cut_at_a_hyphen_or_a_formula_is_no_name() -> None:
    assert _label("tool-", label=Label.METHOD, papers=8)[0] == Label.CONCEPT  # "tool-use"
    assert _label("-group accuracy", label=Label.METRIC, papers=2)[0] == Label.CONCEPT
    assert _label("FID=1.46", label=Label.METHOD)[0] == Label.CONCEPT
    assert _label("DPM-Solver++", label=Label.METHOD)[0] == Label.METHOD


def test_a_count_of_things_is_no_name() -> None:
    assert _label("average 6.51 images", label=Label.DATASET)[0] == Label.CONCEPT
    assert _label("5 jailbreak attacks", label=Label.METHOD)[0] == Label.CONCEPT
    assert _label("Llama 3 models", label=Label.METHOD)[0] == Label.METHOD  # a version


def test_undefined_acronyms_take_their_listed_meaning() -> None:
    assert _label("KL", label=Label.METHOD) == (Label.CONCEPT, "KL divergence")
    assert _label("T2I", label=Label.METHOD) == (Label.TASK, "text-to-image generation")
    # A metric's acronym the recogniser takes for a method's name ("48.0 AP on COCO").
    assert _label("LPIPS", label=Label.METHOD) == (Label.METRIC, "LPIPS")
    assert _label("AP", label=Label.METHOD) == (Label.METRIC, "average precision")
    # ... and join the entity of the long form, where papers write it.
    mentions = {
        "p0": [mention("T2I", Label.METHOD)],
        "p1": [mention("text-to-image generation", Label.TASK)],
    }
    (entity,) = resolve_entities(mentions).values()
    assert (entity.label, entity.name, entity.paper_count) == (
        Label.TASK,
        "text-to-image generation",
        2,
    )
    # A definition in the corpus wins over the list's meaning.
    defined = {"p0": [mention("SR", Label.TASK, canonical="symbolic regression")]}
    assert {e.name for e in resolve_entities(defined).values()} == {"symbolic regression"}


def test_measured_quantities_are_metrics() -> None:
    assert _label("computational cost", label=Label.CONCEPT, papers=2)[0] == Label.METRIC
    assert _label("low cost", label=Label.CONCEPT, papers=2)[0] == Label.CONCEPT


def test_properties_are_not_metrics() -> None:
    """A property papers improve is what metrics measure, not a metric, even where the
    recogniser follows SciERC and calls it one; the curated metric list keeps its own."""
    assert _label("image quality", label=Label.METRIC, papers=2)[0] == Label.CONCEPT
    assert _label("adversarial robustness", label=Label.METRIC, papers=2)[0] == Label.CONCEPT
    assert _label("generation quality", label=Label.CONCEPT, papers=2)[0] != Label.METRIC
    assert _label("sample efficiency", label=Label.CONCEPT, papers=2)[0] == Label.METRIC


def test_a_head_alone_links_no_paper() -> None:
    """The head word the extraction adds ("quantization" of "weight quantization") links a
    paper only where the paper also writes it on its own."""
    papers = [Paper(id=f"p{i}", abstract=f"abstract {i}", title=f"P{i}") for i in range(3)]
    mentions = {
        p.id: [
            mention("weight quantization", Label.METHOD),
            replace(mention("quantization", Label.CONCEPT, start=7), source="head"),
        ]
        for p in papers
    }
    G = build_graph(papers, mentions, resolve_entities(mentions))
    assert "quantization" not in {a["name"] for _, a in G.nodes(data=True)}
    mentions["p0"].append(mention("quantization", Label.CONCEPT, start=40))
    mentions["p1"].append(mention("quantization", Label.CONCEPT, start=40))
    G = build_graph(papers, mentions, resolve_entities(mentions))
    (node,) = [n for n, a in G.nodes(data=True) if a["name"] == "quantization"]
    assert sorted(u for u, _ in G.in_edges(node)) == ["p0", "p1"]


def test_lone_hyphenated_adjectives_make_no_node() -> None:
    assert concept_nodes(["large-scale", "zero-shot", "1.5B", "80GB", "in-context learning"]) == {
        "in-context learning"
    }


def test_a_field_then_generic_words_describes() -> None:
    """"machine learning models", "AI systems": a field or a class and words that name
    nothing; "3D understanding" and "machine learning theory" say more."""
    assert concept_nodes(
        ["machine learning models", "AI systems", "machine learning theory"]
    ) == {"machine learning theory"}
    assert _label("3D understanding", label=Label.TASK, papers=2)[0] == Label.TASK


def test_a_two_letter_acronym_shows_its_spelled_out_form() -> None:
    """"SR" names super-resolution, symbolic regression, speech recognition...: the entity
    shows the form the papers spell out, however often the acronym is written."""
    mentions = {
        "p0": [mention("SR", Label.TASK, canonical="super-resolution")] * 3,
        "p1": [mention("super-resolution", Label.TASK)],
    }
    (entity,) = resolve_entities(mentions).values()
    assert entity.name == "super-resolution"


def test_a_task_phrase_that_names_things_is_no_task() -> None:
    """"word embeddings", "time series": things, even where a leaderboard has that title."""
    assert _label("word embeddings", label=Label.TASK, papers=2)[0] == Label.CONCEPT
    assert _label("time series", label=Label.TASK, papers=2)[0] == Label.CONCEPT
    assert _label("image generation", label=Label.TASK, papers=2)[0] == Label.TASK


def test_a_name_with_commas_is_a_list_not_a_node() -> None:
    assert concept_nodes(["audio, visual", "lightweight, post-hoc framework", "KV cache"]) == {
        "KV cache"
    }
    assert _label("MNIST, fashion-MNIST")[0] == Label.CONCEPT


def test_plain_properties_and_manners_are_no_nodes() -> None:
    """"visual quality" says in everyday words what a paper improves, "unsupervised manner"
    how it does something; "adversarial robustness" and "training stability" are concepts."""
    assert concept_nodes(
        ["visual quality", "computational efficiency", "unsupervised manner", "zero-shot fashion",
         "adversarial robustness", "training stability"]
    ) == {"adversarial robustness", "training stability"}  # fmt: skip


def test_rating_words_alone_name_nothing_even_defined() -> None:
    """"high-quality (HQ)" defines an acronym, which makes a name; rating words alone still
    name nothing."""
    assert _label("high-quality", label=Label.METRIC, papers=2)[0] == Label.CONCEPT
    defined = {"p0": [mention("HQ", Label.METRIC, canonical="high-quality")],
               "p1": [mention("high-quality", Label.METRIC)]}  # fmt: skip
    assert [e.label for e in resolve_entities(defined).values()] == [Label.CONCEPT]
    assert concept_nodes(["high-quality", "Adaptive", "overfitting"]) == {"overfitting"}


def test_an_acronym_that_only_modifies_is_no_node() -> None:
    """"KV" of "KV cache" names no concept alone; the phrase keeps its node."""
    assert concept_nodes(["KV", "AR", "KV cache", "ODE"]) == {
        "KV cache",
        "ordinary differential equation",
    }


def test_ways_of_training_are_methods_and_rated_tasks_descriptions() -> None:
    assert _label("RL training", label=Label.TASK, papers=2)[0] == Label.METHOD
    assert _label("post-training", label=Label.TASK, papers=2)[0] == Label.METHOD
    assert _label("model training", label=Label.TASK, papers=2)[0] == Label.CONCEPT
    assert _label("diverse reasoning", label=Label.TASK, papers=2)[0] == Label.CONCEPT


def test_words_every_abstract_uses_make_no_node() -> None:
    assert concept_nodes(
        ["modalities", "scalability", "model parameters", "modality alignment", "decoder",
         "vision encoder", "base model"]
    ) == {"modality alignment", "vision encoder"}


def test_an_established_dataset_is_proposed_only_by_a_paper_its_title_names() -> None:
    from kg.models import Entity
    from kg.resolve.naming import unmark_established_datasets

    mmlu = Entity("dataset:mmlu", Label.DATASET, "MMLU", [], paper_count=5)
    new = Entity("dataset:osworld-mcp", Label.DATASET, "OSWorld-MCP", [], paper_count=5)
    entities = {e.id: e for e in (mmlu, new)}
    for title, eid, role in [
        ("LinguaMap: Which Layers Speak Your Language", "dataset:mmlu", Rel.EVALUATES_ON),
        ("MMLU Revisited", "dataset:mmlu", Rel.PROPOSES),
        ("OSWorld-MCP: Benchmarking Tool Invocation", "dataset:osworld-mcp", Rel.PROPOSES),
    ]:
        m = mention(entities[eid].name, Label.DATASET, Rel.PROPOSES)
        m.entity = eid
        unmark_established_datasets(Paper(id="p", abstract="a", title=title), [m], entities)
        assert m.role == role, title
    rare = {"dataset:mmlu": replace(mmlu, paper_count=2)}
    m = replace(mention("MMLU", Label.DATASET, Rel.PROPOSES), entity="dataset:mmlu")
    unmark_established_datasets(Paper(id="p", abstract="a", title="Other"), [m], rare)
    assert m.role == Rel.PROPOSES  # a dataset few papers name may be new


def test_a_method_many_papers_name_is_used_not_proposed() -> None:
    # ICLR 2026: "we propose applying the RLVR paradigm", "a Group Relative Policy
    # Optimization (GRPO)-trained model": 165 PROPOSES links to names of 5+ papers.
    from kg.models import Entity
    from kg.resolve.naming import ESTABLISHED_NAME_PAPERS, unmark_established_names

    grpo = Entity("method:grpo", Label.METHOD, "GRPO", ["Group Relative Policy Optimization"],
                  paper_count=ESTABLISHED_NAME_PAPERS)  # fmt: skip
    rl = Entity("task:rl", Label.TASK, "reinforcement learning", [], paper_count=700)
    entities = {e.id: e for e in (grpo, rl)}
    for title, eid, role in [
        ("DGPO: Reinforcing Diffusion Models", "method:grpo", Rel.USES),
        ("Faster GRPO via Block Updates", "method:grpo", Rel.USES),  # named, but built on
        ("GRPO: Group Relative Policy Optimization", "method:grpo", Rel.PROPOSES),
        ("Group Relative Policy Optimization", "method:grpo", Rel.PROPOSES),
        ("A Reinforcement Learning Approach to Doubt", "task:rl", Rel.ADDRESSES),
    ]:
        m = replace(mention(entities[eid].name, entities[eid].label, Rel.PROPOSES), entity=eid)
        unmark_established_names(Paper(id="p", abstract="a", title=title), [m], entities)
        assert m.role == role, title
    few = {"method:grpo": replace(grpo, paper_count=ESTABLISHED_NAME_PAPERS - 1)}
    m = replace(mention("GRPO", Label.METHOD, Rel.PROPOSES), entity="method:grpo")
    unmark_established_names(Paper(id="p", abstract="a", title="Other"), [m], few)
    assert m.role == Rel.PROPOSES  # a name a few papers share may be this one's


def test_an_apposition_after_a_proposed_name_says_what_it_is() -> None:
    def proposed(text: str, sentence: str) -> Mention:
        m = mention(text, Label.DATASET, Rel.PROPOSES)
        m.sentence = sentence
        return m

    method = proposed(
        "A2D", "We introduce A2D (Any-Order Defense), a token-level alignment method."
    )
    bench = proposed("FATE", "We present FATE, a benchmark series for algebra.")
    entities = resolve_entities(
        {"p0": [method], "p1": [mention("A2D", Label.DATASET)] * 2, "p2": [bench]}
    )
    assert {e.name: e.label for e in entities.values()} == {
        "A2D": Label.METHOD,
        "FATE": Label.DATASET,
    }


@pytest.mark.usefixtures("one_definition_is_enough")
def test_a_phrase_with_an_acronym_joins_the_phrase_written_out() -> None:
    """ "offline RL" is "offline reinforcement learning" once the corpus defines RL and some
    paper writes the phrase out; before that it stays its own entity."""
    rl = mention("RL", Label.TASK, canonical="reinforcement learning")
    mentions = {
        "p0": [rl, mention("offline RL", Label.TASK, start=10)],
        "p1": [mention("offline RL", Label.TASK)],
    }
    assert "task:offline-rl" in resolve_entities(mentions)
    mentions["p2"] = [mention("offline reinforcement learning", Label.CONCEPT)]
    entities = resolve_entities(mentions)
    merged = entities["task:offline-reinforcement-learning"]  # the votes decide the type
    assert merged.paper_count == 3 and "task:offline-rl" not in entities
    assert {"offline RL", "offline reinforcement learning"} <= {merged.name, *merged.aliases}


def test_a_prefix_written_without_its_hyphen_joins_the_hyphenated_key() -> None:
    """ "supervised finetuning" is "supervised fine-tuning" once some paper writes the hyphen;
    an acronym of the joined spelling follows it there. A hyphen that a tenth as many papers
    write is a slip: "deep re-search" does not take "deep research"."""
    mentions = {
        "p0": [mention("supervised finetuning", Label.METHOD)],
        "p1": [mention("SFT", Label.METHOD, canonical="supervised finetuning")],
        "p2": [mention("deep re-search", Label.TASK)],
        **{f"r{i}": [mention("deep research", Label.TASK)] for i in range(11)},
    }
    assert "method:supervised-finetuning" in resolve_entities(mentions)
    mentions["p3"] = [mention("supervised fine-tuning", Label.METHOD)]
    entities = resolve_entities(mentions)
    merged = entities["method:supervised-fine-tuning"]
    assert merged.paper_count == 3 and "method:supervised-finetuning" not in entities
    counts = {e.id.partition(":")[2]: e.paper_count for e in entities.values()}
    assert counts["deep-research"] == 11 and counts["deep-re-search"] == 1


def test_a_field_and_a_kind_of_method_is_a_class_not_a_method() -> None:
    """ "RL algorithms" names no algorithm: a Concept, however the recogniser typed it; the
    field keeps its own entity."""
    mentions = {
        f"p{i}": [mention("RL algorithms", Label.METHOD), mention("PPO", Label.METHOD)]
        for i in range(3)
    }
    entities = resolve_entities(mentions)
    assert entities["concept:rl-algorithm"].paper_count == 3
    assert "method:ppo" in entities and "method:rl-algorithm" not in entities


def test_a_name_with_a_kind_word_after_it_is_the_name() -> None:
    """"GRPO algorithm" and "DiT models" are GRPO and DiT; "multimodal models" are no kind of
    "MultiModal", "NLI models" no kind of the NLI task, "ReLU networks" no kind of ReLU."""
    mentions = {
        "p0": [mention("GRPO", Label.METHOD), mention("DiT", Label.METHOD),
               mention("MultiModal", Label.METHOD), mention("NLI", Label.TASK),
               mention("ReLU", Label.METHOD)],
        "p1": [mention("GRPO algorithm", Label.METHOD), mention("DiT models", Label.METHOD),
               mention("multimodal models", Label.CONCEPT), mention("NLI models", Label.METHOD),
               mention("ReLU networks", Label.METHOD)],
    }  # fmt: skip
    resolve_entities(mentions)
    grpo, dit, multimodal, nli, relu = mentions["p0"]
    assert mentions["p1"][0].entity == grpo.entity and mentions["p1"][1].entity == dit.entity
    for named, headed in zip((multimodal, nli, relu), mentions["p1"][2:], strict=True):
        assert headed.entity != named.entity, headed.text


def test_a_name_written_in_the_plural_is_the_singular_name() -> None:
    """ "Transformers" and "GPU-hours" are "Transformer" and "GPU hours", which the corpus writes
    as names; a word's plural is not ("Optimas" beside "optima"), nor is a name in capitals
    the plural of another ("MARS" beside "MAR"). Where an acronym goes to the plural ("MoE"
    to "Mixture-of-Experts"), the singular joins it."""
    mentions = {
        "p0": [mention("Transformers", Label.METHOD), mention("GPU-hours", Label.METRIC),
               mention("Optimas", Label.METHOD, Rel.PROPOSES), mention("MARS", Label.METHOD)],
        "p1": [mention("Transformer", Label.METHOD), mention("GPU hours", Label.METRIC),
               mention("optima", Label.METHOD), mention("MAR", Label.METHOD)],
        **{f"m{i}": [mention("Mixture-of-Experts", Label.METHOD),
                     mention("MoE", Label.METHOD, canonical="Mixture-of-Experts", start=30)]
           for i in range(2)},
        "m2": [mention("Mixture of Experts", Label.METHOD)],
    }  # fmt: skip
    entities = resolve_entities(mentions)
    assert entities["method:transformer"].paper_count == 2
    assert entities["metric:gpu-hour"].paper_count == 2
    assert "method:transformers" not in entities and "metric:gpu-hours" not in entities
    assert {"method:optimas", "method:mars", "method:mar"} <= entities.keys()
    assert entities["method:mixture-of-experts"].paper_count == 3
    assert "method:mixture-of-expert" not in entities


def test_names_that_differ_only_by_hyphens_are_one() -> None:
    """ "MS-COCO" is "MSCOCO", the spelling most papers write; not words ("frame-work", a slip,
    is no name), nor a few letters ("U-S" and "US")."""
    mentions = {
        "p0": [mention("MSCOCO", Label.DATASET), mention("US", Label.METHOD),
               mention("frame-work", Label.METHOD)],
        "p1": [mention("MSCOCO", Label.DATASET), mention("U-S", Label.DATASET),
               mention("framework", Label.METHOD)],
        "p2": [mention("MS-COCO", Label.DATASET)],
    }  # fmt: skip
    entities = resolve_entities(mentions)
    coco = entities["dataset:mscoco"]
    assert coco.paper_count == 3 and "MS-COCO" in coco.aliases
    assert "dataset:ms-coco" not in entities
    assert {"method:us", "dataset:u-s"} <= entities.keys()
    assert sum(k.endswith(("frame-work", "framework")) for k in entities) == 2
