"""Evaluation frames (kg/extract/frames.py) through kg's real pipeline: the datasets and tasks
a sentence evaluates the paper's own method on."""

from __future__ import annotations

import pytest
from spacy.language import Language

from kg.extract.applied_frames import APPLIED_RULE, applied_frames, names_a_model
from kg.extract.baselines import BASELINE_RULE
from kg.extract.contrast_frames import CONTRAST_RULE
from kg.extract.frames import FRAME_RULE, governing_preposition, under_evaluation
from kg.extract.metric_frames import METRIC_RULE
from kg.extract.part_frames import COMPONENT_RULE
from kg.extract.relations import argument_tokens, relations_in
from kg.extract.stand_ins import own_names


def pairs_by(nlp: Language, text: str, rule: str) -> set[tuple[str, str]]:
    """The (head, tail) texts of the relations ``rule`` finds in ``text``."""
    doc = nlp(text)
    return {
        (r.head["text"], r.tail["text"])
        for r in relations_in(doc, doc._.kg_mentions)
        if r.rule == rule
    }


def framed(nlp: Language, text: str) -> set[tuple[str, str, str]]:
    doc = nlp(text)
    return {
        (r.head["text"], r.type, r.tail["text"])
        for r in relations_in(doc, doc._.kg_mentions)
        if r.rule == FRAME_RULE
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # the dataset before the method, under "On"
            "We propose FooNet. On ImageNet, FooNet reaches 81% top-1 accuracy.",
            {("FooNet", "EVALUATED_ON", "ImageNet")},
        ),
        (  # "such as" opens a list the preposition still governs
            "We propose FooNet. FooNet improves accuracy on benchmarks such as GQA and TextVQA.",
            {("FooNet", "EVALUATED_ON", "GQA"), ("FooNet", "EVALUATED_ON", "TextVQA")},
        ),
        (  # tasks under evaluation: the method is used for them
            "We propose FooNet. Experiments on image classification and machine translation "
            "show that FooNet is fast.",
            {
                ("FooNet", "USED_FOR", "image classification"),
                ("FooNet", "USED_FOR", "machine translation"),
            },
        ),
        (  # training data is no evaluation
            "We propose FooNet. FooNet is pretrained on ImageNet and reaches 81% accuracy.",
            set(),
        ),
        (  # models under evaluation: the method is applied to them
            "We propose FooNet. Experiments on Llama-3-8B and Mistral-7B show that FooNet is "
            "fast.",
            {("FooNet", "USED_FOR", "Llama-3-8B"), ("FooNet", "USED_FOR", "Mistral-7B")},
        ),
        (  # but a model "over" which it improves is a baseline
            "We propose FooNet. FooNet improves over Llama-3-8B and Mistral-7B on average.",
            set(),
        ),
        (  # a list a kind of method heads holds models
            "We propose FooNet. Experiments across architectures including ResNet show that "
            "FooNet is fast.",
            set(),
        ),
        (  # without a proposed method there is no frame
            "BarNet reaches 81% top-1 accuracy on ImageNet.",
            set(),
        ),
    ],
)
def test_evaluation_frames(nlp: Language, text: str, expected: set) -> None:
    assert framed(nlp, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # an evaluation cue stands for the method the sentence does not name
            "We propose FooNet, a sparse encoder. Experiments on ImageNet and CIFAR-10 show "
            "strong gains.",
            {("FooNet", "EVALUATED_ON", "ImageNet"), ("FooNet", "EVALUATED_ON", "CIFAR-10")},
        ),
        (  # "conducted" after an experiment noun; "using" after a cue
            "We propose FooNet, a sparse encoder. Experiments were conducted on ImageNet. "
            "We also run tests using the QuickDraw dataset.",
            {
                ("FooNet", "EVALUATED_ON", "ImageNet"),
                ("FooNet", "EVALUATED_ON", "QuickDraw dataset"),
            },
        ),
        (  # "conducted" alone is no evaluation: the optimisation is trained there
            "We propose FooNet, a sparse encoder. This optimization is conducted on ImageNet.",
            set(),
        ),
        (  # another system before the cue: its evaluation, not the paper's
            "We propose FooNet, a sparse encoder. BERT was tested on ImageNet.",
            set(),
        ),
        (  # a relative clause holds the cue
            "We propose FooNet, a sparse encoder. Detectors, which are evaluated on ImageNet, "
            "fail.",
            set(),
        ),
    ],
)
def test_evaluation_cues_stand_for_the_own_method(
    nlp: Language, text: str, expected: set
) -> None:
    # A cue's relation is stated of the proposed mention: its head is FooNet, not the cue.
    assert {r for r in framed(nlp, text) if r[1] in ("EVALUATED_ON", "USED_FOR")} == expected


def test_using_after_a_cue_governs_even_at_the_start_of_a_doc(nlp: Language) -> None:
    doc = nlp("Experiments using the QuickDraw dataset show gains.")
    [at] = [t.i for t in doc if t.text == "QuickDraw"]
    assert governing_preposition(doc, at, 0) == 1  # "using", after "Experiments" (token 0)
    doc = nlp("Models using the QuickDraw dataset fail.")
    assert governing_preposition(doc, 3, 0) is None  # no cue before "using"


def test_a_list_of_data_holds_datasets_whatever_their_type(nlp: Language) -> None:
    """"on five benchmarks—BrowserComp, GAIA, ...": the recogniser may type a member a method;
    the frame relates it, and the graph keeps it if the corpus types it a dataset."""
    text = (
        "We propose FooNet. Experiments on five benchmarks, including BrowserComp, GAIA, "
        "WideSearch, and xbench-DeepSearch, show that FooNet is fast."
    )
    doc = nlp(text)
    members = {"BrowserComp", "GAIA", "WideSearch", "xbench-DeepSearch"}
    typed = {m["text"]: m["label"] for m in doc._.kg_mentions if m["text"] in members}
    assert "Method" in typed.values()  # (else this test shows nothing)
    assert {t for (_, _, t) in framed(nlp, text)} == set(typed)
    # ... and the pipeline's relations keep them all (fits_graph)
    kept = {doc._.kg_mentions[r["tail"]]["text"] for r in doc._.kg_relations}
    assert set(typed) <= kept


def test_a_verb_between_ends_the_scan(nlp: Language) -> None:
    # "ImageNet" is the object of "uses", not under the "on" of "experiments on".
    text = "We propose FooNet. In experiments on speed, FooNet uses ImageNet for pretraining."
    assert not {t for t in framed(nlp, text) if t[2] == "ImageNet"}


@pytest.mark.parametrize(
    ("text", "governed"),
    [
        ("FooNet is strong on ImageNet.", True),
        ("FooNet gains across benchmarks such as ImageNet.", True),
        ("FooNet gains on a wide range of benchmarks such as ImageNet.", True),
        ("FooNet gains on the images of benchmarks such as ImageNet.", False),  # not a quantity
        ("FooNet is pretrained on ImageNet.", False),  # training data
        ("FooNet is fast across architectures including ImageNet.", False),  # models
        ("In experiments on speed, FooNet uses ImageNet.", False),  # a verb between
        # a gerund inside the noun phrase is no verb
        ("FooNet gains on challenging question answering benchmarks such as ImageNet.", True),
        ("FooNet is trained on GSM8K using ImageNet.", False),  # "using" stays a preposition
        # a word inside a hyphenated name is part of the name, whatever its tag
        ("FooNet gains on Needle-In-A-Haystack, LongBench, and ImageNet.", True),
        ("FooNet gains on text-to-image generation tasks such as ImageNet.", True),
    ],
)
def test_the_scan_from_a_mention_to_its_preposition(
    nlp: Language, text: str, governed: bool
) -> None:
    # The scan alone, on the tokens: whatever the recogniser types the words, the frames'
    # cases above cannot pass for another reason than the one they are about.
    doc = nlp(text)
    [at] = [t.i for t in doc if t.text == "ImageNet"]
    assert under_evaluation(doc, at, doc[at].sent.start) is governed


def test_own_names_take_the_bracketed_acronym(nlp: Language) -> None:
    doc = nlp("We propose the Dendritic LIF (DLIF) model, which extends LIF. DLIF is fast.")
    mentions = doc._.kg_mentions
    proposed = next(m for m in mentions if m["role"] == "PROPOSES")
    names = own_names(proposed, argument_tokens(doc, mentions, stand_in=False))
    assert "dlif" in names
    assert "lif" not in names  # nested in the name, but not its acronym


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # numbered items, the whole named before the colon
            "We propose ReMix. ReMix consists of three major components: (1) Mix-policy "
            "proximal policy gradient with an increased ratio; (2) KL-Convex policy constraint "
            "that combines the KL constraints.",
            {
                ("Mix-policy proximal policy gradient", "PART_OF", "ReMix"),
                ("KL-Convex policy constraint", "PART_OF", "ReMix"),
            },
        ),
        (  # "It" opens the sentence: the paper's method
            "We propose URSA. It integrates two key designs: a Linearized Metric Path and a "
            "Resolution-dependent Timestep Shifting mechanism.",
            {
                ("Linearized Metric", "PART_OF", "URSA"),
                ("Resolution-dependent Timestep Shifting mechanism", "PART_OF", "URSA"),
            },
        ),
        (  # no count before the noun: no announcement
            "We propose URSA. It integrates designs: a Linearized Metric Path.",
            set(),
        ),
        (  # roles and strategies announce parts too
            "EvoTest has two roles: the Actor Agent, which plays the game, and the Evolver "
            "Agent, which analyzes the episode transcript.",
            {("Actor Agent", "PART_OF", "EvoTest"), ("Evolver Agent", "PART_OF", "EvoTest")},
        ),
        (  # contributions too, when they are methods
            "We propose ContextGen. Our approach integrates two key technical contributions: a "
            "Contextual Layout Anchoring (CLA) mechanism and an Identity Consistency Attention "
            "(ICA) module.",
            {
                ("Contextual Layout Anchoring (CLA) mechanism", "PART_OF", "ContextGen"),
                ("Identity Consistency Attention (ICA) module", "PART_OF", "ContextGen"),
            },
        ),
        (  # an item that opens with a name the tagger reads as a verb ("Directed")
            "We propose SPEED. We incorporate three complementary strategies: Influence-based "
            "Prior Filtering (IPF) to retain concepts, Directed Prior Augmentation (DPA) to "
            "expand the retain set, and Invariant Equality Constraints (IEC) to keep invariants.",
            {
                ("Influence-based Prior Filtering (IPF)", "PART_OF", "SPEED"),
                ("Directed Prior Augmentation (DPA)", "PART_OF", "SPEED"),
                ("Invariant Equality Constraints (IEC)", "PART_OF", "SPEED"),
            },
        ),
    ],
)
def test_component_frames(nlp: Language, text: str, expected: set) -> None:
    doc = nlp(text)
    found = {
        (r.head["text"], r.type, r.tail["text"])
        for r in relations_in(doc, doc._.kg_mentions)
        if r.rule == COMPONENT_RULE
    }
    assert found == expected


def test_an_unnumbered_list_ends_at_a_verb(nlp: Language) -> None:
    doc = nlp(
        "We propose HoE. HoE consists of three components: LoRA Experts, Router Experts and "
        "Weighting Router, reaching optimal Pareto frontiers."
    )
    parts = {r.head["text"] for r in relations_in(doc, doc._.kg_mentions) if r.type == "PART_OF"}
    assert "LoRA Experts" in parts
    assert "Pareto frontiers" not in parts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # the methods before the comma, against "we"
            "We propose ReMix. Unlike GRPO and PPO, we train with a mixture of policies.",
            {("ReMix", "GRPO"), ("ReMix", "PPO")},
        ),
        (  # "our ..." after the comma stands for the paper's method
            "We propose ReMix, a policy optimizer. Compared to standard GRPO, our ReMix "
            "variant converges faster.",
            {("ReMix", "GRPO")},
        ),
        (  # what follows the comma is not the paper's method
            "We propose ReMix. Unlike GRPO, current methods fail on long horizons.",
            set(),
        ),
        (  # a relative clause's methods are parts of what is contrasted, not it
            "We propose ReMix. Unlike prior methods that rely on PPO, ReMix is stable.",
            {("ReMix", "prior methods")},
        ),
        (  # a contrast may open a clause after "that" or a comma
            "We propose ReMix. Results show that, compared to GRPO and PPO, ReMix converges "
            "faster.",
            {("ReMix", "GRPO"), ("ReMix", "PPO")},
        ),
        (  # another method written as a name right after the comma: what is set against
            "We propose ReMix. Compared to GRPO, DAPO converges faster.",
            {("DAPO", "GRPO")},
        ),
        (  # but not one further into the clause, nor a contrast inside a phrase
            "We propose ReMix. Compared to GRPO, training with DAPO is slow. Methods "
            "unlike GRPO, DAPO and PPO exist.",
            set(),
        ),
    ],
)
def test_contrast_frames(nlp: Language, text: str, expected: set) -> None:
    assert pairs_by(nlp, text, CONTRAST_RULE) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # a result's clause between the subject and the comparison
            "FooNet reaches an 84% pass rate, which significantly outperforms baselines "
            "including GRPO and PPO.",
            {("FooNet", "GRPO"), ("FooNet", "PPO")},
        ),
        (  # "our method" speaks for the paper's method
            "We propose FooNet. Under a fixed budget of tokens, our method lifts accuracy on "
            "ImageNet to 81%, which is far better than GRPO.",
            {("FooNet", "GRPO")},
        ),
        (  # "compared to" is a comparison; "applied to" is not
            "FooNet, trained on a small budget, brings 2x faster training on ImageNet compared "
            "to GRPO. FooNet, trained on a small budget, is then applied to Llama-3 with gains.",
            {("FooNet", "GRPO")},
        ),
        (  # a class of methods is no named baseline
            "FooNet reaches 84% accuracy, outperforming recent multi-agent LLM baselines.",
            set(),
        ),
        (  # "against" a named method compares
            "In head-to-head games, FooNet achieves a 66% win rate against Llama-3-8B.",
            {("FooNet", "Llama-3-8B")},
        ),
        (  # but not after a word of defence: the method is a threat
            "FooNet improves robustness against GCG while reducing over-refusal.",
            set(),
        ),
    ],
)
def test_baseline_frames(nlp: Language, text: str, expected: set) -> None:
    """Baseline frames (kg/extract/baselines.py): a named method a sentence measures its
    claimant against, however far apart the two are written."""
    assert pairs_by(nlp, text, BASELINE_RULE) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # "<quality> of" a list of models, in a sentence that reports a change
            "FooNet boosts the performances of Llama-3-8B, Mistral-7B and Gemma-2B by 2%.",
            {("FooNet", "Llama-3-8B"), ("FooNet", "Mistral-7B"), ("FooNet", "Gemma-2B")},
        ),
        (  # the model as the object of a verb that changes it
            "FooNet delivers larger gains, raising Llama-3-8B by 41% on MATH.",
            {("FooNet", "Llama-3-8B")},
        ),
        (  # a name and "model": "the LLaVA-1.5 model series"
            "Our results show that FooNet improves the accuracy of the LLaVA-1.5 model series "
            "by 3%.",
            {("FooNet", "LLaVA-1.5 model")},
        ),
        (  # "on" a model, named by its family: LLaDA
            "FooNet achieves a 15x speedup on LLaDA with minimal accuracy drop.",
            {("FooNet", "LLaDA")},
        ),
        (  # "applying it to" a list of models, brackets between them
            "We propose FooNet. Finally, we demonstrate its scalability by applying it to large "
            "systems, including Qwen1.5-MoE (14B) and DeepSeek-MoE (16B).",
            {("FooNet", "Qwen1.5-MoE"), ("FooNet", "DeepSeek-MoE")},
        ),
        (  # an opening phrase names the models, its subject the method
            "FooNet is fast. When paired with Llama-3-8B and Mistral-7B, FooNet enables small "
            "models to reason.",
            {("FooNet", "Llama-3-8B"), ("FooNet", "Mistral-7B")},
        ),
        (
            "FooNet is fast. When applied to the Llama-3-8B model, FooNet reduces decoding "
            "steps by 80%.",
            {("FooNet", "Llama-3-8B model")},
        ),
        (  # but not what a verb in the opening phrase governs
            "FooNet is fast. With a small backbone optimized using Llama-3-8B, FooNet sets a "
            "strong baseline.",
            set(),
        ),
        (  # a comparison applies nothing
            "FooNet reaches 84% accuracy, outperforming much larger models (e.g., Llama-3-70B).",
            set(),
        ),
        (  # nor does matching a model's performance
            "FooNet matches the performance of Llama-3-70B while reducing cost by 10x.",
            set(),
        ),
        (  # without a change reported, "the performance of X" is only studied
            "We propose FooNet and analyze the performance of Llama-3-8B.",
            set(),
        ),
        (  # "on" a name that is no model: a dataset the corpus may type a method
            "FooNet improves accuracy by 5% on MAESTRO-E.",
            set(),
        ),
    ],
)
def test_applied_frames(nlp: Language, text: str, expected: set) -> None:
    """Applied frames (kg/extract/applied_frames.py): the named models a sentence's claimant
    is applied to, USED_FOR."""
    assert pairs_by(nlp, text, APPLIED_RULE) == expected


def test_a_model_of_a_family_is_applied_to_whatever_its_type(nlp: Language) -> None:
    """"gains of 24.3% on Qwen2.5-3B": the recogniser may type a model of a family a dataset;
    the frames read it as a model the method is applied to, not a dataset it is evaluated on,
    and the pipeline keeps the relation for the graph to decide by the corpus' type."""
    text = (
        "We propose FooNet. Across five reasoning benchmarks, FooNet consistently outperforms "
        "baselines, achieving average gains of 24.3% on Qwen2.5-3B and 33.0% on Llama3.2-3B."
    )
    doc = nlp(text)
    models = {"Qwen2.5-3B", "Llama3.2-3B"}
    typed = {m["text"]: m["label"] for m in doc._.kg_mentions if m["text"] in models}
    assert "Dataset" in typed.values()  # (else this test shows nothing)
    mentions = doc._.kg_mentions
    kept = {(mentions[r["tail"]]["text"], r["type"]) for r in doc._.kg_relations}
    assert {(m, "USED_FOR") for m in models} <= kept


def test_applied_frame_takes_what_is_applied(nlp: Language) -> None:
    """What "applying ... to" applies is the method written between them, not the claimant
    (the token patterns relate this pair first, so the finder is called alone)."""
    doc = nlp("We show that FooNet helps, while applying BarNet to Llama-3-8B hurts accuracy.")
    args = argument_tokens(doc, doc._.kg_mentions, stand_in=True)
    sentence_of = [t.sent.start for t in doc]
    found = {
        (h[2]["text"], t[2]["text"]) for h, _, t in applied_frames(doc, args, None, sentence_of)
    }
    assert found == {("BarNet", "Llama-3-8B")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Qwen3-1.7B", True), ("LLaDA", True), ("Qwen-Image-Edit", True), ("GRPO", False)],
)
def test_names_a_model(nlp: Language, text: str, expected: bool) -> None:
    doc = nlp.make_doc(text)
    assert names_a_model(doc, 0, len(doc), text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # each dataset under evaluation, measured by the sentence's one metric
            "We propose FooNet. Experiments on KITTI and nuScenes show that FooNet achieves "
            "higher registration accuracy.",
            {("KITTI", "registration accuracy"), ("nuScenes", "registration accuracy")},
        ),
        (  # a number makes a result, which says it already
            "We propose FooNet. On ImageNet, FooNet reaches 81% top-1 accuracy.",
            set(),
        ),
        (  # two metrics: which measures which is not read
            "We propose FooNet. On OpenWebText and CIFAR10, FooNet achieves lower generative "
            "perplexity and FID.",
            set(),
        ),
        (  # training data is measured by nothing
            "We propose FooNet. FooNet is trained on ImageNet and improves robustness accuracy.",
            set(),
        ),
        (  # a metric that holds the dataset's name
            "We propose FooNet. On MATH500, FooNet improves the MATH500 accuracy.",
            set(),
        ),
    ],
)
def test_metric_frames(nlp: Language, text: str, expected: set) -> None:
    """Metric frames (kg/extract/metric_frames.py): the datasets a sentence evaluates on,
    measured by the one metric it names."""
    assert pairs_by(nlp, text, METRIC_RULE) == expected
