"""The extraction pipeline on small hand-written abstracts (real spaCy model, no fakes)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from spacy.tokens import Doc, Span

from kg.extract.extractor import Extractor
from kg.extract.pipeline import load_pipeline
from kg.models import Mention
from kg.schema import Label, Rel


@pytest.fixture(scope="module")
def extractor() -> Extractor:
    return Extractor()


def by_text(mentions: list[Mention]) -> dict[str, Mention]:
    return {m.text: m for m in mentions}


def test_pipeline_is_made_of_registered_components() -> None:
    nlp = load_pipeline()
    for name in ("kg_acronyms", "kg_gazetteer", "kg_rules", "kg_mentions", "kg_roles"):
        assert name in nlp.pipe_names
    assert "parser" not in nlp.pipe_names  # excluded: kg does not need it


def test_proposed_versus_used(extractor: Extractor) -> None:
    text = (
        "We propose FooNet, a sparse encoder for protein folding. "
        "FooNet is trained with AdamW and evaluated on the CASP14 benchmark."
    )
    ms = by_text(extractor.extract_texts([text])[0])
    assert ms["FooNet"].role == Rel.PROPOSES and ms["FooNet"].type == Label.METHOD
    assert ms["AdamW"].role == Rel.USES
    casp = next(m for m in ms.values() if m.text.startswith("CASP14"))
    assert casp.type == Label.DATASET and casp.role == Rel.EVALUATES_ON


@pytest.mark.parametrize(
    ("text", "proposed", "used"),
    [
        # a capitalised word right after the cue
        (
            "Thus, we propose Gravelo, the first generative model for directed graphs.",
            "Gravelo",
            "",
        ),
        # a name beside the description the cue introduces
        ("We propose a novel cache eviction method, ShieldKV, for long contexts.", "ShieldKV", ""),
        ("We construct a dedicated dataset, Terra3DSet, with graded levels.", "Terra3DSet", ""),
        # a name inside it, at either end
        ("We introduce the WarpFuser model, which exchanges heatmaps.", "WarpFuser", ""),
        ("We develop an agentic workflow TraceLoop that tracks evidence.", "TraceLoop", ""),
        # not a piece of a hyphenated word of the object
        ("We propose a novel KV-cache eviction strategy called FrostKV.", "FrostKV", "KV"),
        # a capitalised name under way, with a lower-case word inside: the whole of what
        # the acronym spells
        (
            "We propose Graph Guided Search with Adaptive PathPicker (GGS-AP).",
            "Graph Guided Search with Adaptive PathPicker (GGS-AP)",
            "",
        ),
        # a description that defines an acronym for itself
        (
            "We propose the local spectral influence function (LSIF), an extension of them.",
            "local spectral influence function (LSIF)",
            "",
        ),
        # a name beside "our <description>", but not what "our" results are on
        ("Our first technique, RankLLM, scores each example.", "RankLLM", ""),
        ("Our results on GSM8K improve by ten points.", "", "GSM8K"),
        ("In our experiments, Llama-3 beats GPT-4 on every task.", "", "Llama-3"),
        ("This leads to our novel SquarePO loss.", "SquarePO", ""),
        ("The rule gives rise to our method, MaxTO, which is stable.", "MaxTO", ""),
        ("Results improve, with our 4-bit QuantNet beating FP16.", "QuantNet", ""),
        # what the object is about, or what comes after the object, is used
        ("We propose a new analysis of ReLU networks and GELU networks.", "", "ReLU"),
        ("We propose a simple fix, which beats PPO on Atari.", "", "PPO"),
        ("We introduce a principled formulation of DPO for diffusion models.", "", "DPO"),
        # what a problem is recast as, or what a purpose is about, is not proposed
        ("We formulate MOO as a conditional generation problem.", "", "MOO"),
        ("We formulate GreedyPO, a regularization scheme.", "GreedyPO", ""),
        ("We propose a framework for constructing GSM8K problems.", "", "GSM8K"),
    ],
)
def test_what_a_proposal_cue_introduces(
    extractor: Extractor, text: str, proposed: str, used: str
) -> None:
    roles = {m.text: m.role for m in extractor.extract_texts([text])[0]}
    if proposed:
        assert roles.get(proposed) == Rel.PROPOSES, roles
    if used:
        assert roles.get(used) not in (None, Rel.PROPOSES), roles


def test_acronym_resolves_to_long_form(extractor: Extractor) -> None:
    text = "Scene text recognition (STR) is hard. We improve STR accuracy with a new decoder."
    mentions = extractor.extract_texts([text])[0]
    str_mentions = [m for m in mentions if m.text == "STR"]
    assert str_mentions, [m.text for m in mentions]
    assert all(m.canonical == "Scene text recognition" for m in str_mentions)
    assert all(m.type == Label.TASK for m in str_mentions)


def test_an_acronym_of_several_tokens_is_defined_too(extractor: Extractor) -> None:
    text = (
        "We propose Group-Normalized Implicit Value Optimization (GN-IVO), a new method. "
        "GN-IVO beats PPO."
    )
    mentions = extractor.extract_texts([text])[0]
    long_form = "Group-Normalized Implicit Value Optimization"
    definition = [m for m in mentions if m.text.endswith("(GN-IVO)")]
    assert definition and definition[0].canonical == long_form
    later = [m for m in mentions if m.text == "GN-IVO" and m.start == text.rindex("GN-IVO")]
    assert later and later[0].canonical == long_form


def test_a_definition_the_recogniser_cut_short_is_its_whole_long_form(
    extractor: Extractor,
) -> None:
    """The recogniser leaves a capitalised adjective out of a name ("Reward Policy Optimization
    (DRPO)"); the acronym's letters put it back, so that "DRPO" names the proposal; a long
    form that runs into lower-case words is not trusted so."""
    text = "We propose Decoupled Reward Policy Optimization (DRPO), a new method. DRPO is fast."
    mentions = extractor.extract_texts([text])[0]
    long_form = "Decoupled Reward Policy Optimization"
    assert f"{long_form} (DRPO)" in [m.text for m in mentions], [m.text for m in mentions]
    assert {m.canonical for m in mentions if m.text == "DRPO"} == {long_form}


def test_a_cut_long_form_joined_by_a_small_word_is_one_method(extractor: Extractor) -> None:
    """"with", "for", "and" between capitalised words stay in the long form the acronym
    spells: the recogniser split "Recurrent Action Transformer" from "Memory (RATE)". Such a
    name is a method, whatever a task's head word in it says ("Generation")."""
    text = (
        "We propose the Recurrent Action Transformer with Memory (RATE). We introduce "
        "Trajectory Generation with Conservative Value Guidance (TGCVG), an augmentation "
        "method."
    )
    found = {m.text: m.type for m in extractor.extract_texts([text])[0]}
    for name in (
        "Recurrent Action Transformer with Memory (RATE)",
        "Trajectory Generation with Conservative Value Guidance (TGCVG)",
    ):
        assert found.get(name) == Label.METHOD, found
    assert "Memory (RATE)" not in found and "Recurrent Action Transformer" not in found


def test_a_proposed_name_written_on_a_known_one_is_mended(extractor: Extractor) -> None:
    """A new name that writes a capitalised word before or after a known one names the new
    thing, everywhere the abstract writes it: not IFEval, not ACPBench."""
    text = (
        "To test this, we propose Inverse IFEval, a benchmark of hard prompts. Models fail "
        "on Inverse IFEval. We also introduce ACPBench Hard, a dataset of questions."
    )
    mentions = extractor.extract_texts([text])[0]
    names = [m.text for m in mentions if m.role == Rel.PROPOSES]
    assert names.count("Inverse IFEval") == 2 and "ACPBench Hard" in names, names
    assert "IFEval" not in [m.text for m in mentions]


def test_a_definition_is_one_mention_and_its_acronym_another(extractor: Extractor) -> None:
    # SciERC annotates "long form ( ACR )" as one span; kg keeps that span, names its entity by
    # the long form, and adds the acronym inside it as a derived mention ("defined").
    text = "We use statistical machine translation (SMT) for Basque. SMT systems need corpora."
    mentions = extractor.extract_texts([text])[0]
    whole = [m for m in mentions if m.text == "statistical machine translation (SMT)"]
    assert len(whole) == 1, [(m.text, m.source) for m in mentions]
    assert whole[0].canonical == "statistical machine translation"
    inner = [m for m in mentions if m.text == "SMT" and m.start == text.index("SMT")]
    assert [m.source for m in inner] == ["defined"]
    assert all(m.canonical == "statistical machine translation" for m in inner)
    later = [m for m in mentions if m.text == "SMT" and m.start == text.rindex("SMT")]
    assert later and later[0].canonical == "statistical machine translation"


def test_an_acronym_the_brackets_spell_out_names_one_entity(extractor: Extractor) -> None:
    # "ACR (long form)" defines ACR as "long form (ACR)" does: one entity, not "ATTS" and
    # "ATTS (Asynchronous Test-Time Scaling)"; about 200 definitions in ICLR 2026 abstracts.
    text = (
        "We introduce ATTS (Asynchronous Test-Time Scaling), a statistically guaranteed "
        "adaptive scaling framework. ATTS delivers up to 56.7x speedup."
    )
    mentions = extractor.extract_texts([text])[0]
    atts = [m for m in mentions if m.text.startswith("ATTS")]
    assert len(atts) >= 2, [(m.text, m.canonical) for m in mentions]
    assert {m.canonical for m in atts} == {"Asynchronous Test-Time Scaling"}


@pytest.mark.parametrize(
    ("text", "acronym", "long_form"),
    [
        # a proposed name's definition before its kind defines it
        (
            "We propose a novel Neural Adaptive Binning (NAB) method that integrates "
            "rectangular priors. NAB outperforms baselines.",
            "NAB",
            "Neural Adaptive Binning",
        ),
        # a long form after a dash inside a word starts after it
        (
            "We propose a novel unlearning method—Partial Model Collapse (PMC), which needs no "
            "targets. PMC works.",
            "PMC",
            "Partial Model Collapse",
        ),
    ],
    ids=["definition-before-its-kind", "long-form-after-a-dash"],
)
def test_a_later_use_of_the_acronym_names_its_long_form(
    extractor: Extractor, text: str, acronym: str, long_form: str
) -> None:
    mentions = extractor.extract_texts([text])[0]
    later = [m for m in mentions if m.text == acronym and m.start == text.rindex(acronym)]
    assert later and later[0].canonical == long_form


def _collected(
    text: str, ents: list[tuple[str, str]], tagged: bool = False
) -> list[tuple[str, str]]:
    """The candidates the trained-recogniser stage adds for the given (phrase, label) ents
    (``tagged``: with the pipeline's part-of-speech tags, which some rules read)."""

    from kg.extract.spans import CANDIDATES

    nlp = load_pipeline()
    recogniser = nlp.get_pipe("kg_trained_ner")
    doc = nlp.make_doc(text)
    if tagged:
        for name, proc in nlp.pipeline:
            if name.startswith("kg_"):  # the base model's tagger only: no other candidates
                break
            doc = proc(doc)
    spans = []
    for phrase, label in ents:
        char = text.index(phrase)
        span = doc.char_span(char, char + len(phrase), label=label)
        assert span is not None
        spans.append(span)
    doc.ents = spans
    retyper, recogniser.retyper = recogniser.retyper, None  # keep the labels given
    try:
        recogniser._collect(doc)
    finally:
        recogniser.retyper = retyper
    return [(s.text, s.label_) for s in doc.spans[CANDIDATES]]


def test_recognised_asides_and_quantities() -> None:
    text = (
        "We define a set-coverage metric (OVERTONSCORE) and report an average (1) gain, "
        "a +0.46 dB increase in PSNR, and graph neural networks (GNNs) results."
    )
    got = _collected(
        text,
        [
            ("set-coverage metric (OVERTONSCORE)", "Metric"),
            ("average (1)", "Metric"),
            ("+0.46 dB increase in PSNR", "Method"),
            ("graph neural networks (GNNs)", "Method"),
        ],
    )
    assert got == [
        ("OVERTONSCORE", "Metric"),  # an aside that is a name of its own
        ("set-coverage metric", "Metric"),
        ("average", "Metric"),  # a numbered aside is nothing
        ("graph neural networks (GNNs)", "Method"),  # a definition stays whole
    ]


def test_a_recognised_span_ends_before_its_verb_and_splits_into_coordinated_names() -> None:
    text = (
        "REPO preserve entropy and FineWeb-Edu and the rest. We compare Llama-3 and Qwen2.5-7B "
        "with graph and text encoders, a layer named Extended Rotary Position Embedding."
    )
    got = _collected(
        text,
        [
            ("REPO preserve entropy", "Method"),
            ("FineWeb-Edu and", "Material"),
            ("Llama-3 and Qwen2.5-7B", "Method"),
            ("graph and text encoders", "Method"),
            ("named Extended Rotary Position Embedding", "Method"),
        ],
        tagged=True,
    )
    assert got == [
        ("REPO", "Method"),  # "preserve" is a finite verb: the phrase ran into its clause
        ("FineWeb-Edu", "Dataset"),  # no phrase ends with a conjunction
        ("Llama-3", "Method"),  # two names
        ("Qwen2.5-7B", "Method"),
        ("graph and text encoders", "Method"),  # one lower-case phrase
        ("Extended Rotary Position Embedding", "Method"),  # no naming cue
    ]


def test_a_recognised_name_ends_before_a_verb_read_as_a_noun() -> None:
    # "reaches" is tagged a plural noun here
    text = "Notably, Co-rewarding reaches or even surpasses ground-truth labeled reward."
    got = _collected(text, [("Co-rewarding reaches", "Method")], tagged=True)
    assert got == [("Co-rewarding", "Method")]
    text = "We count the exact matches of each answer."
    got = _collected(text, [("exact matches", "Metric")], tagged=True)
    assert got == [("exact matches", "Metric")]  # a noun after no name stays


def _span_of(doc: Doc, phrase: str, label: str) -> Span:
    """The span of ``doc`` that ``phrase`` (its first occurrence) covers, with ``label``."""
    start = doc.text.index(phrase)
    found = doc.char_span(start, start + len(phrase), label=label)
    assert found is not None
    return found


def test_a_list_passes_its_type_to_names_nothing_recognised() -> None:
    from kg.extract.mentions import listed_names

    nlp = load_pipeline()
    text = "Models such as DeltaNet, Mamba or xLSTM. We beat sampling methods such as Best-of-N."
    doc = nlp(text)

    span = functools.partial(_span_of, doc)

    chosen = [span("DeltaNet", "Method"), span("sampling methods", "Method")]
    taken = [False] * len(doc)
    found = [(s.text, s.label_, s.kb_id_) for s in listed_names(doc, chosen, taken)]
    assert ("Mamba", "Method", "listed") in found  # "DeltaNet, Mamba"
    assert any(t.startswith("Best-of-N") for t, _, _ in found)  # "methods such as Best-of-N"
    assert not any(t in {"Models", "We"} for t, _, _ in found)  # no sentence starts
    # A type a list does not pass on (a task phrase) adds nothing.
    assert listed_names(doc, [span("DeltaNet", "Task")], [False] * len(doc)) == []


def _dataset_labels(text: str, typed: list[tuple[str, str]]) -> dict[str, str]:
    """Each phrase's label after kg_mentions' dataset rules, given the labels it came with."""
    from kg.extract.benchmark_lists import (
        datasets_listed_before,
        listed_datasets,
        scored_datasets,
    )

    doc = load_pipeline()(text)
    chosen = [_span_of(doc, phrase, label) for phrase, label in typed]
    heads = frozenset({"benchmarks", "datasets"})
    listed = datasets_listed_before(doc, listed_datasets(doc, chosen, heads), heads)
    return {s.text: s.label_ for s in scored_datasets(doc, listed)}


def test_names_listed_as_examples_of_benchmarks_are_datasets() -> None:
    text = (
        "Across benchmarks including AIME25, RULER, and MATH500, KVTC wins. "
        "Datasets (e.g., POPE) help with scalability. We use tools such as Foo."
    )
    labels = _dataset_labels(text, [
        ("AIME25", "Method"), ("RULER", "Method"), ("MATH500", "Dataset"), ("KVTC", "Method"),
        ("POPE", "Method"), ("scalability", "Concept"), ("Foo", "Method"),
    ])  # fmt: skip
    assert labels["AIME25"] == labels["RULER"] == labels["POPE"] == "Dataset"
    # the list ends after its "and" member; a lower-case phrase and other kinds' lists stay
    assert labels["KVTC"] == labels["Foo"] == "Method" and labels["scalability"] == "Concept"


def test_names_of_a_list_a_dataset_noun_closes_are_datasets() -> None:
    text = (
        "On the D-NeRF, NVFi, and HyperNeRF benchmarks, it wins. "
        "GPT-4 and Claude fail on MMLU. Our Foo, Bar and math benchmarks help."
    )
    labels = _dataset_labels(text, [
        ("D-NeRF", "Method"), ("NVFi", "Method"), ("HyperNeRF benchmarks", "Dataset"),
        ("GPT-4", "Method"), ("Claude", "Method"), ("MMLU", "Dataset"), ("Foo", "Method"),
        ("Bar", "Method"), ("math benchmarks", "Dataset"),
    ])  # fmt: skip
    assert labels["D-NeRF"] == labels["NVFi"] == "Dataset"
    assert labels["GPT-4"] == labels["Claude"] == "Method"  # no dataset noun closes the list
    assert labels["Foo"] == labels["Bar"] == "Dataset"  # a lower-case last member closes it too


def test_names_listed_with_known_datasets_are_datasets() -> None:
    from kg.extract.benchmark_lists import listed_with_datasets

    text = "We test on GenEval, WISE, TIIF and GenAI-Bench. GPT, Llama and Qwen answer."
    doc = load_pipeline()(text)

    def typed(phrase: str, label: str, source: str) -> Span:
        span = _span_of(doc, phrase, label)
        return Span(doc, span.start, span.end, label=label, kb_id=source)

    chosen = [
        typed("GenEval", "Dataset", "named_dataset"), typed("WISE", "Method", "model"),
        typed("TIIF", "Method", "model"), typed("GenAI-Bench", "Dataset", "model"),
        typed("GPT", "Dataset", "model"), typed("Llama", "Dataset", "model"),
        typed("Qwen", "Method", "model"),
    ]  # fmt: skip
    labels = {s.text: s.label_ for s in listed_with_datasets(doc, chosen)}
    assert labels["WISE"] == labels["TIIF"] == "Dataset"
    assert labels["Qwen"] == "Method"  # no Dataset of that list is a known one
    # two names are not enough: a paper's new benchmark and its new model stand so
    two = [typed("GenEval", "Dataset", "named_dataset"), typed("WISE", "Method", "model")]
    assert {s.text: s.label_ for s in listed_with_datasets(doc, two)}["WISE"] == "Method"


def test_names_listed_as_examples_of_a_kind_of_method_are_methods() -> None:
    from kg.extract.benchmark_lists import listed_methods

    text = (
        "Recent approaches like EAGLE-2 and EAGLE-3 help. Benchmarks like MMLU and GPQA too. "
        "Pruning strategies such as SparseGPT fail."
    )
    doc = load_pipeline()(text)
    chosen = [
        _span_of(doc, "EAGLE-2", "Dataset"), _span_of(doc, "EAGLE-3", "Dataset"),
        _span_of(doc, "MMLU", "Dataset"), _span_of(doc, "GPQA", "Dataset"),
        _span_of(doc, "SparseGPT", "Dataset"),
    ]  # fmt: skip
    labels = {s.text: s.label_ for s in listed_methods(doc, chosen)}
    assert labels["EAGLE-2"] == labels["EAGLE-3"] == "Method"
    assert labels["SparseGPT"] == "Method"  # (a plural read as its singular: "strategies")
    assert labels["MMLU"] == labels["GPQA"] == "Dataset"  # examples of no kind of method


def test_names_listed_after_a_bracket_or_scored_on_are_datasets() -> None:
    text = (
        "Across ten benchmarks (TextVQA, MMMU, and BLINK), it helps. "
        "It reaches 36.2% accuracy on BrowseComp and HLE, with experiments on HICO-DET. "
        "We deploy it on Jetson and run 3x faster on A100. It scores +4.1 on MMStar."
    )
    labels = _dataset_labels(text, [
        ("TextVQA", "Method"), ("MMMU", "Method"), ("BLINK", "Method"), ("BrowseComp", "Method"),
        ("HLE", "Method"), ("HICO-DET", "Method"), ("Jetson", "Method"), ("A100", "Method"),
        ("MMStar", "Method"),
    ])  # fmt: skip
    assert {n for n, label in labels.items() if label == "Dataset"} == {
        "TextVQA", "MMMU", "BLINK", "BrowseComp", "HLE", "HICO-DET", "MMStar",
    }  # fmt: skip
    # no score before "on" (a factor is none), no experiment noun: the names keep their type
    assert labels["Jetson"] == labels["A100"] == "Method"


def test_names_listed_after_tasks_are_datasets_when_two_or_more() -> None:
    """After "tasks", a bracketed list of two names or more lists benchmarks; one name in
    brackets may be the tasks' acronym, and a colon introduces new tasks."""
    text = (
        "It wins on memory tasks (T-Maze, CartPole, and Acrobot). "
        "We study isotropic tasks (ISO). We propose two proxy tasks: Foo and Bar."
    )
    labels = _dataset_labels(text, [
        ("T-Maze", "Method"), ("CartPole", "Method"), ("Acrobot", "Method"), ("ISO", "Method"),
        ("Foo", "Method"), ("Bar", "Method"),
    ])  # fmt: skip
    assert labels["T-Maze"] == labels["CartPole"] == labels["Acrobot"] == "Dataset"
    assert labels["ISO"] == labels["Foo"] == labels["Bar"] == "Method"


def test_versions_cut_offs_and_comparisons(extractor: Extractor) -> None:
    text = (
        "Our models gain on LongBench-v2 with lower perplexity, and Pass@1 vs. Pass@5 rise "
        "on DOTA-v1.0."
    )
    ms = by_text(extractor.extract_texts([text])[0])
    assert "LongBench-v2" in ms and "LongBench" not in ms  # a version is part of the name
    assert "DOTA-v1.0" in ms
    assert ms["Pass@5"].type == Label.METRIC  # a metric at a cut-off
    assert not any(t.startswith("lower") for t in ms)  # a comparison is no part of a name


def test_a_name_written_on_with_capitalised_parts_is_one_name(extractor: Extractor) -> None:
    """ "OSWorld-MCP" is a new benchmark, not its parent "OSWorld"; "-based" only describes."""
    text = (
        "We introduce OSWorld-MCP, a benchmark, and JudgeBench-Pro, an extension of JudgeBench, "
        "and test GPT-4o-based agents."
    )
    texts = {m.text for m in extractor.extract_texts([text])[0]}
    assert {"OSWorld-MCP", "JudgeBench-Pro", "JudgeBench", "GPT-4o"} <= texts, texts
    assert "OSWorld" not in texts and "GPT-4o-based" not in texts


def test_a_phrase_ends_before_a_comma(extractor: Extractor) -> None:
    text = "With evaluations on datasets such as Fashion-MNIST, CelebA, and Chairs, it works."
    texts = {m.text for m in extractor.extract_texts([text])[0]}
    assert "Fashion-MNIST" in texts and not any(t.endswith(",") for t in texts), texts


def test_a_compound_adverb_is_part_of_the_phrase(extractor: Extractor) -> None:
    """ "fully connected layers" is one phrase; "connected layers" would be a fragment."""
    text = (
        "Pruning reduces the number of parameters in fully connected layers often with little "
        "or no drop in classification accuracy."
    )
    texts = {m.text for m in extractor.extract_texts([text])[0]}
    assert "fully connected layers" in texts and "connected layers" not in texts, texts


def test_a_factor_starts_a_result_not_an_entity(extractor: Extractor) -> None:
    text = (
        "Scaling to 662M, our model surpasses the best diffusion method with 10x faster "
        "sampling and a 2.5× speedup on ImageNet-512."
    )
    texts = {m.text for m in extractor.extract_texts([text])[0]}
    assert "ImageNet-512" in texts
    assert not any(t.startswith(("10x", "2.5×")) for t in texts), texts


def test_names_are_whole_written_words(extractor: Extractor) -> None:
    """The tokenizer splits "LLaMA60M" into "LLaMA60" + "M"; the name is the written word."""
    text = "The method is evaluated on LLaMA60M and LLaMA130M using the OpenWebText corpus."
    texts = {m.text for m in extractor.extract_texts([text])[0]}
    assert {"LLaMA60M", "LLaMA130M"} <= texts, texts
    assert not texts & {"LLaMA60", "LLaMA130", "M"}


def test_a_missed_sentence_boundary_ends_a_name(extractor: Extractor) -> None:
    """The full stop stays on "CHTsL." and the splitter misses the boundary after it."""
    text = "We propose an approach termed CHTsL. The method is evaluated on GSM8K."
    mentions = extractor.extract_texts([text])[0]
    texts = {m.text for m in mentions}
    assert "CHTsL" in texts, texts
    assert not any("The method" in t or t.endswith(".") for t in texts), texts


def test_cited_authors_and_counts_are_no_entities(extractor: Extractor) -> None:
    text = (
        "Attempts have been made by Li and Lan (2025) and Park et al. to do this. We train "
        "Adam (Kingma and Ba, 2015) and test on 18 benchmarks, including GLUE. Recently, "
        "Cremer et al. reinterpreted the IWAE. From P and Q, Gretton et al. (2012) show that "
        "batch normalization (Ioffe & Szegedy, 2015) solves the task from Hochreiter & "
        "Schmidhuber (1997)."
    )
    texts = {m.text for m in extractor.extract_texts([text])[0]}
    assert {"Adam", "GLUE", "IWAE", "batch normalization"} <= texts, texts  # names stay
    cited = {"Li", "Lan", "Park", "Cremer", "Gretton", "Szegedy", "Hochreiter & Schmidhuber"}
    assert not texts & {*cited, "18"}, texts


def test_a_web_address_is_no_entity(extractor: Extractor) -> None:
    # ICLR 2026 had 25 nodes that were code links ("https://github.com/org/SAGE").
    text = (
        "We propose SAGE, evaluated on ImageNet. Code is available at "
        "https://github.com/chenshunpeng/SAGE and anonymous.4open.science/r/BoRA."
    )
    texts = {m.text for m in extractor.extract_texts([text])[0]}
    assert {"SAGE", "ImageNet"} <= texts, texts
    assert not any("/" in t for t in texts), texts


def test_a_piece_of_a_hyphenated_name_is_no_name_of_its_own(extractor: Extractor) -> None:
    text = (
        "We propose the INO-SGD algorithm, trained with GRPO-based RL on chain-of-thought data "
        "and tested on GSM8K."
    )
    texts = {m.text for m in extractor.extract_texts([text])[0]}
    assert "INO-SGD" in texts and "GRPO" in texts  # a name before "-based" is whole
    assert "GSM8K" in texts
    assert not texts & {"INO", "SGD", "thought", "GSM8"}


def test_no_mention_keeps_half_an_aside(extractor: Extractor) -> None:
    text = (
        "We compare against Dream-v0-Instruct-7B) and LLaDA. Our Any-Step Defense (ASD) uses "
        "a variational autoencoder (VAE)-based tokenizer and DPM-Solver++ (2M)."
    )
    mentions = extractor.extract_texts([text])[0]
    for m in mentions:
        assert m.text.count("(") == m.text.count(")"), m.text
        assert text[m.start : m.end] == m.text
    assert "Dream-v0-Instruct-7B" in by_text(mentions)


def test_a_defined_acronym_inside_a_phrase_is_left_out_of_its_name(extractor: Extractor) -> None:
    text = (
        "We release abundant supervised fine-tuning (SFT) data. We test LLaMA3 (8B) on "
        "out-of-distribution (OOD) data."
    )
    canonical = {m.text: m.canonical for m in extractor.extract_texts([text])[0]}
    assert canonical["abundant supervised fine-tuning (SFT) data"] == (
        "abundant supervised fine-tuning data"
    )
    assert canonical["out-of-distribution (OOD) data"] == "out-of-distribution data"


def test_only_asides_that_spell_out_a_defined_acronym_are_left_out() -> None:
    import spacy

    from kg.extract.spans import without_acronym_asides

    nlp = spacy.blank("en")
    acronyms = {"SFT": "supervised fine-tuning", "GN-IVO": "group-normalized optimization"}

    def name(text: str) -> str:
        doc = nlp(text)
        return without_acronym_asides(doc[:], doc.text, acronyms)

    assert name("abundant supervised fine-tuning ( SFT ) data") == (
        "abundant supervised fine-tuning data"
    )
    assert name("LLaMA3 ( 8B ) model") == "LLaMA3 ( 8B ) model"  # a size is part of a name
    assert name("supervised fine-tuning ( SFT )") == "supervised fine-tuning ( SFT )"
    # An acronym of several tokens ("GN", "-", "IVO") is an aside too.
    assert name("group-normalized optimization (GN-IVO) updates") == (
        "group-normalized optimization updates"
    )


def test_a_noun_compound_has_only_nouns_before_its_head() -> None:
    """Tagged by hand, so the test is about the rule, not the tagger."""
    import spacy
    from spacy.tokens import Doc

    from kg.extract.spans import noun_compound

    vocab = spacy.blank("en").vocab

    def compound(tagged: str) -> bool:
        pairs = [w.rsplit("/", 1) for w in tagged.split()]
        # "a_-_b" is one written word "a-b" (no spaces between its tokens)
        words, tags, spaces = [], [], []
        for word, tag in pairs:
            parts = word.split("_")
            part_tags = tag.split("_")
            words += parts
            tags += part_tags
            spaces += [False] * (len(parts) - 1) + [True]
        doc = Doc(vocab, words=words, spaces=spaces, tags=tags)
        return noun_compound(doc, 0, len(doc))

    assert compound("lesion/NN recognition/NN")
    assert compound("time/NN series/NN synthesis/NN")
    assert compound("3D/CD segmentation/NN")
    assert compound("segmentation/NN")  # nothing before the head
    assert compound("mislabeled_-_sample/VBN_HYPH_NN detection/NN")  # counts as "sample"
    assert not compound("inadequate/JJ reasoning/NN")
    assert not compound("audio_-_visual/NN_HYPH_JJ segmentation/NN")
    assert not compound("face/NN faithful/JJ editing/NN")
    # The head may be hyphenated too: only what comes before it counts.
    assert compound("policy/NN fine_-_tuning/JJ_HYPH_NN")


def test_offsets_and_evidence_point_into_the_text(extractor: Extractor) -> None:
    text = "Retrieval is old. We evaluate on ImageNet and report top-1 accuracy."
    for m in extractor.extract_texts([text])[0]:
        assert text[m.start : m.end] == m.text
        assert m.text in m.sentence and m.sentence in text
    metric = [m for m in extractor.extract_texts([text])[0] if m.type == Label.METRIC]
    assert [m.text for m in metric] == ["top-1 accuracy"]


def test_common_words_alone_are_not_entities(extractor: Extractor) -> None:
    text = "In this paper, we study the performance of the method on many tasks."
    assert extractor.extract_texts([text])[0] == []


def _candidates_up_to_gazetteer(text: str) -> list:
    """The candidate spans of ``text`` once the pipeline has run up to its gazetteer."""
    from kg.extract.spans import CANDIDATES

    nlp = load_pipeline()
    doc = nlp.make_doc(text)
    for name, proc in nlp.pipeline:
        doc = proc(doc)
        if name == "kg_gazetteer":
            break
    return list(doc.spans[CANDIDATES])


def test_no_list_names_rated_generic_data() -> None:
    """Papers with Code lists "Real-world Datasets" as a dataset; the shipped list leaves out
    dataset names made only of rating words and heads (scripts/build_gazetteers.py)."""
    text = "We test on 7 real-world datasets and on ImageNet."
    found = {c.text: c.kb_id_ for c in _candidates_up_to_gazetteer(text)}
    assert found.get("ImageNet") == "gazetteer"
    assert "real-world datasets" not in found


def test_no_list_metrics_that_measure_nothing() -> None:
    """Papers with Code's metric lists hold leaderboard columns ("Reference images"); the
    shipped list keeps a name of several words only with a measure word or a metric's
    acronym (scripts/build_gazetteers.py, scripts/measure_words.txt)."""
    text = "Given two reference images, we report the Jaccard Index and Macro F1."
    found = {c.text.lower() for c in _candidates_up_to_gazetteer(text) if c.kb_id_ == "gazetteer"}
    assert {"jaccard index", "macro f1"} <= found
    assert "reference images" not in found


def test_list_names_match_either_spelling_of_a_multiplier(extractor: Extractor) -> None:
    """The tokenizer splits "100K" but not "100k": the list's "Atari 100k" matches both."""
    for text in ("We test on Atari 100K and report scores.", "We test on Atari 100k today."):
        found = {m.text: m for m in extractor.extract_texts([text])[0]}
        atari = next(m for t, m in found.items() if t.lower() == "atari 100k")
        assert atari.source == "gazetteer" and atari.type == Label.DATASET


def test_deterministic(extractor: Extractor) -> None:
    text = "We introduce BarBench, a benchmark for code repair, and evaluate GPT-4o on it."
    first = extractor.extract_texts([text])[0]
    second = Extractor(batch_size=1).extract_texts([text])[0]
    assert first == second
    assert any(
        m.text == "BarBench" and m.type == Label.DATASET and m.role == Rel.PROPOSES for m in first
    )


def test_new_words_do_not_stay_in_the_vocabulary_and_rows_are_the_same(
    extractor: Extractor,
) -> None:
    from kg.extract.extractor import doc_rows

    texts = [f"We propose Zorblax{i}Net and evaluate it on Quuxbench{i}." for i in range(30)]
    strings = len(extractor.nlp.vocab.strings)
    rows = extractor.rows(texts)
    # A worker extracting a corpus would otherwise keep every new word it met.
    assert len(extractor.nlp.vocab.strings) == strings
    assert rows == [doc_rows(doc) for doc in load_pipeline().pipe(texts)]
    assert any(row[2] == "Zorblax7Net" for row in rows[7])


@pytest.mark.parametrize("method", ["fork", "spawn", "inline"])
def test_warm_extractor_gives_what_the_extractor_gives(
    extractor: Extractor, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kg.extract.extractor import WarmExtractor

    monkeypatch.setenv("KG_START_METHOD", method)
    texts = ["We propose FooNet and evaluate it on ImageNet.", "Accuracy improves by 3%."]
    warm = WarmExtractor()
    assert warm.extract(texts) == list(extractor.raw_mentions(texts))
    # Enough texts to be split between forked copies of the warm process: the same rows.
    more = [f"We propose BazNet{i} and reach {60 + i}% accuracy on CIFAR-10." for i in range(20)]
    assert WarmExtractor().extract(more) == list(extractor.raw_mentions(more))


def test_an_incremental_extraction_does_later_work_while_the_new_texts_are_extracted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kg.build import extract_and_resolve
    from kg.extract.extractor import WarmExtractor
    from kg.models import Paper

    monkeypatch.setenv("KG_START_METHOD", "fork")
    papers = [
        Paper("p1", "We propose FooNet, evaluated on ImageNet.", "FooNet"),
        Paper("p2", "BarNet improves accuracy on CIFAR-10 by 3%.", "BarNet"),
    ]
    extract_and_resolve(papers[:1], cache_dir=tmp_path)
    calls: list[str] = []
    mentions, entities, cached, _ = extract_and_resolve(
        papers, cache_dir=tmp_path, warm=WarmExtractor(), meanwhile=lambda: calls.append("done")
    )
    assert calls == ["done"] and cached == 1
    assert (mentions, entities) == extract_and_resolve(papers)[:2]
    # Nothing new to wait for: nothing done meanwhile.
    extract_and_resolve(papers, cache_dir=tmp_path, warm=WarmExtractor(), meanwhile=calls.clear)
    assert calls == ["done"]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_worker_processes_give_what_one_process_gives(
    extractor: Extractor, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forked workers inherit the loaded pipeline, spawned ones load their own: the same rows,
    in the same order, either way."""
    monkeypatch.setenv("KG_START_METHOD", method)
    texts = [f"We propose FooNet{i} and evaluate it on ImageNet." for i in range(40)]
    texts[7] = "Accuracy improves by 3% on GSM8K with GRPO."
    pooled = Extractor(n_process=2, batch_size=4)
    assert list(pooled.raw_mentions(texts)) == list(extractor.raw_mentions(texts))


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_started_ahead_give_what_one_process_gives(
    extractor: Extractor, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build forks its workers before the papers arrive: they extract the texts that come
    later as workers started for them would, and once only."""
    monkeypatch.setenv("KG_START_METHOD", method)
    texts = [f"We propose BarNet{i} and evaluate it on CIFAR-10." for i in range(24)]
    ahead = Extractor(n_process=2, batch_size=4)
    ahead.start_workers()
    pool = ahead._pool
    assert pool is not None
    assert list(ahead.raw_mentions(texts)) == list(extractor.raw_mentions(texts))
    assert ahead._pool is None  # used up: the next texts get workers of their own
    assert list(ahead.raw_mentions(texts[:3])) == list(extractor.raw_mentions(texts[:3]))


def test_workers_started_ahead_stop_when_no_texts_come(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KG_START_METHOD", "fork")
    ahead = Extractor(n_process=2)
    ahead.start_workers()
    workers = list(ahead._pool._pool)  # type: ignore[union-attr]
    assert len(workers) == 2 and all(w.is_alive() for w in workers)
    ahead.close()
    for w in workers:
        w.join(timeout=10)
    assert not any(w.is_alive() for w in workers)
    ahead.close()  # twice is fine


def test_one_process_starts_no_workers_ahead() -> None:
    one = Extractor(n_process=1)
    one.start_workers()
    assert one._pool is None


def test_warm_extractor_reports_a_bad_model_in_the_parent() -> None:
    from kg.errors import ModelError
    from kg.extract.extractor import WarmExtractor

    warm = WarmExtractor("no_such_spacy_model")
    with pytest.raises(ModelError, match="no_such_spacy_model"):
        warm.extract(["Some text."])


def test_unused_warm_extractor_closes(monkeypatch: pytest.MonkeyPatch) -> None:
    from kg.extract.extractor import WarmExtractor

    monkeypatch.setenv("KG_START_METHOD", "fork")
    warm = WarmExtractor()
    warm.close()
    assert not warm._stages._proc.is_alive()  # type: ignore[attr-defined]


def test_gazetteer_name_tokens_come_back_from_the_cache_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import spacy

    from kg.extract.gazetteer import name_tokens

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path))
    nlp = spacy.blank("en")
    names = ["ImageNet-1K", "GPT-4o mini", "don't", "U.S. census data", "Qwen3-8B-Base"]
    want = [[t.text for t in nlp.make_doc(n)] for n in names]
    assert name_tokens(nlp, names) == want  # tokenised, then written to the cache
    assert name_tokens(nlp, names) == want  # read from the cache
    assert len(list((tmp_path / "tokens").glob("*.json"))) == 1


def test_gazetteer_tables_come_back_from_the_cache_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    from kg.extract.gazetteer import Gazetteer, _tables_path
    from kg.extract.lexicon import load_lexicon
    from kg.extract.pipeline import DEFAULT_MODEL, load_base

    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path))
    nlp, lexicon = load_base(DEFAULT_MODEL), load_lexicon()
    built = Gazetteer(nlp, lexicon)  # built, then written to the cache
    path = _tables_path(nlp, lexicon)
    assert path.exists()
    cached = Gazetteer(nlp, lexicon)
    fresh = Gazetteer.__new__(Gazetteer)
    fresh._build(nlp, lexicon)
    for table in ("exact", "lower", "curated"):
        want = getattr(fresh, table)
        for got in (getattr(built, table), getattr(cached, table)):
            assert got.state() == want.state() and got._seen == want._seen
    text = "We evaluate on ImageNet and the Atari 100K benchmark with top-1 accuracy."
    a, b = cached(nlp(text)), fresh(nlp(text))
    found = [(s.text, s.label_) for s in a.spans["kg_candidates"]]
    assert found == [(s.text, s.label_) for s in b.spans["kg_candidates"]]
    assert ("ImageNet", "Dataset") in found
    # Other names make other tables; a damaged file is built again.
    more = dataclasses.replace(lexicon, metric_terms=(*lexicon.metric_terms, "frobnication rate"))
    assert _tables_path(nlp, more) != path
    path.write_bytes(b"not marshal")
    assert Gazetteer(nlp, lexicon).exact.state() == fresh.exact.state()


@pytest.mark.parametrize("lower", [False, True])
def test_phrase_table_finds_what_spacy_phrase_matcher_finds(lower: bool) -> None:
    # The gazetteer's matcher against spaCy's PhraseMatcher, with the real gazetteer names on
    # the seed abstracts.
    from spacy.matcher import PhraseMatcher
    from spacy.tokens import Doc

    from kg.extract.gazetteer import PhraseTable, name_tokens
    from kg.extract.lexicon import load_lexicon

    nlp = load_pipeline()
    table = PhraseTable(lower=lower)
    spacy_matcher = PhraseMatcher(nlp.vocab, attr="LOWER" if lower else "ORTH")
    for label, rows in load_lexicon().gazetteers.items():
        names = [n for name, aliases in rows for n in (name, *aliases)]
        tokens = [t for t in name_tokens(nlp, names) if (len(t) > 1) == lower]
        table.add(str(label), tokens)
        spacy_matcher.add(str(label), [Doc(nlp.vocab, words=t) for t in tokens])
    seeds = Path(__file__).resolve().parents[2] / "seeds"
    texts = [p.read_text(encoding="utf-8") for p in sorted(seeds.glob("*.txt"))]
    found = 0
    texts.append("We study change detection and LIME on it.")  # names in two lists
    for doc in nlp.tokenizer.pipe(texts):
        want: dict[tuple[int, int], set[str]] = {}
        for m, s, e in spacy_matcher(doc):
            want.setdefault((s, e), set()).add(nlp.vocab.strings[m])
        got = table(doc)
        assert [(s, e) for _, s, e in got] == sorted(want)  # one match per span, in order
        for label, s, e in got:  # the first label added of those PhraseMatcher found
            assert label == min(want[s, e], key=table.labels.index)
        found += len(got)
    assert found > 25


def test_default_base_uses_kg_small_tagger() -> None:
    from kg.extract.pipeline import DEFAULT_MODEL, load_base

    nlp = load_base(DEFAULT_MODEL)
    assert nlp.pipe_names[0] == "tagger" and "tok2vec" not in nlp.pipe_names
    doc = nlp("We propose a novel graph network and evaluate it on three datasets.")
    tags = {t.text: t.tag_ for t in doc}
    assert tags["propose"].startswith("VB") and tags["datasets"] == "NNS"
    assert tags["novel"] == "JJ" and tags["three"] == "CD"


def test_default_base_tokenizes_as_the_model_does() -> None:
    """load_base starts the default model from a bare tokenizer, which from_disk fills: the
    model's own rules and patterns, so the same tokens as the model loaded as it ships."""
    import spacy

    from kg.extract.pipeline import DEFAULT_MODEL, EXCLUDED, MODEL_ALIASES, load_base

    ours = load_base(DEFAULT_MODEL).tokenizer
    for name in MODEL_ALIASES[DEFAULT_MODEL]:
        try:
            shipped = spacy.load(name, exclude=[*EXCLUDED, "tok2vec", "tagger", "senter"]).tokenizer
            break
        except OSError:
            continue
    assert len(ours.rules) > 1000 and ours.rules == shipped.rules
    for attr in ("prefix_search", "suffix_search", "infix_finditer", "url_match", "token_match"):
        got, want = getattr(ours, attr), getattr(shipped, attr)
        assert (got and got.__self__.pattern) == (want and want.__self__.pattern), attr
    text = (
        "We don't use e.g. U.S. data:) (see https://x.org/a-b?c=1), i.e. 3.5x faster "
        "self-supervised ViT-B/16 models' top-1 acc. of 81.2% vs. $10 on Jan. 5th :-)"
    )
    assert [t.text for t in ours(text)] == [t.text for t in shipped(text)]


@pytest.mark.parametrize(
    ("text", "name", "label"),
    [
        # the recogniser reads these names as tasks; the cue says they are contributions
        (
            "We propose Quantile Advantage Estimation (QAE), replacing the mean with a "
            "group-wise K-quantile baseline.",
            "Quantile Advantage Estimation (QAE)",
            Label.METHOD,
        ),
        (
            "To bridge this gap, we introduce Multimodal Policy Internalization (MPI), a new "
            "task that aims to internalize reasoning-intensive policies.",
            "Multimodal Policy Internalization (MPI)",
            Label.TASK,
        ),
        (
            "To address this problem, we introduce Video Understanding Domain Generalization "
            "(VUDG), the first dataset designed for it.",
            "Video Understanding Domain Generalization (VUDG)",
            Label.DATASET,
        ),
    ],
)
def test_a_task_a_proposal_cue_names_is_proposed(
    extractor: Extractor, text: str, name: str, label: Label
) -> None:
    found = by_text(extractor.extract_texts([text])[0])
    assert (found[name].type, found[name].role) == (label, Rel.PROPOSES), found


def test_a_task_the_abstract_named_before_the_cue_is_not_proposed(extractor: Extractor) -> None:
    text = (
        "Diffusion alignment aims to optimize diffusion models for the downstream objective. "
        "We introduce Diffusion Alignment as Variational Expectation-Maximization (DAV), a "
        "framework that formulates diffusion alignment as an iterative process."
    )
    roles = {m.role for m in extractor.extract_texts([text])[0] if m.key == "diffusion-alignment"}
    assert roles == {Rel.ADDRESSES}


def test_a_phrase_its_writer_calls_a_task_is_one() -> None:
    """Hand-tagged: "spatiotemporal prediction tasks" is a task that one abstract may name
    once (kept by entity resolution: ``compound``), typed from the word before "tasks"."""
    import spacy
    from spacy.tokens import Doc

    from kg.extract.lexicon import load_lexicon
    from kg.extract.mentions import MentionSelector, called_a_task

    vocab = spacy.blank("en").vocab

    def span(tagged: str):  # noqa: ANN202
        words, tags = zip(*(w.rsplit("/", 1) for w in tagged.split()), strict=True)
        return Doc(vocab, words=list(words), tags=list(tags))[:]

    task = span("spatiotemporal/JJ prediction/NN tasks/NNS")
    assert called_a_task(task)
    assert MentionSelector(load_lexicon()).retype(task, "Concept") == "Task"
    assert not called_a_task(span("reasoning/NN tasks/NNS"))  # a class of tasks
    assert not called_a_task(span("analysis/NN and/CC planning/NN tasks/NNS"))  # two
    assert not called_a_task(span("image/video/NN synthesis/NN tasks/NNS"))
    assert not called_a_task(span("solving/VBG complicated/JJ reasoning/NN tasks/NNS"))
    assert not called_a_task(span("spatiotemporal/JJ prediction/NN models/NNS"))
