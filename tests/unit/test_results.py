"""Quantitative claims (kg/extract/results.py) through kg's real pipeline."""

from __future__ import annotations

from typing import Any

import pytest
from spacy.language import Language
from spacy.matcher import Matcher

from kg.extract.patterns import read_jsonl
from kg.extract.results import RULES_FILE, Result, find_results, load_result_rules, results_in


def claims(nlp: Language, text: str) -> list[Result]:
    doc = nlp(text)
    return results_in(doc, doc._.kg_mentions)


def text_of(m: dict[str, Any] | None) -> str | None:
    return m["text"] if m else None


def test_an_absolute_result_with_its_metric_dataset_and_method(nlp: Language) -> None:
    (r,) = claims(nlp, "FooNet achieves 85.3% top-1 accuracy on ImageNet.")
    assert (r.value, r.number, r.unit, r.relative) == ("85.3%", 85.3, "%", False)
    assert (text_of(r.method), text_of(r.metric), text_of(r.dataset)) == (
        "FooNet",
        "top-1 accuracy",
        "ImageNet",
    )
    assert r.evidence == "FooNet achieves 85.3% top-1 accuracy on ImageNet."


def test_improvements_and_speedups_are_relative(nlp: Language) -> None:
    text = (
        "FooNet achieves 85.3% top-1 accuracy on ImageNet, improves BLEU by 2.1 points on "
        "WMT14 and is 3.5× faster than AlphaFold."
    )
    got = {r.value: r for r in claims(nlp, text)}
    assert set(got) == {"85.3%", "2.1 points", "3.5×"}
    points, factor = got["2.1 points"], got["3.5×"]
    assert (points.unit, points.relative, text_of(points.metric)) == ("points", True, "BLEU")
    assert text_of(points.dataset) == "WMT14"  # not ImageNet: 85.3% is between them
    assert (factor.unit, factor.number, factor.relative) == ("×", 3.5, True)
    # the subject makes every claim of the sentence; AlphaFold is the baseline
    assert {text_of(r.method) for r in got.values()} == {"FooNet"}


def test_a_reduction_by_a_percentage(nlp: Language) -> None:
    (r,) = claims(nlp, "It reduces the error rate by 30%.")
    assert (r.value, r.relative, text_of(r.metric)) == ("30%", True, "error rate")


def test_numbers_in_names_and_settings_are_no_results(nlp: Language) -> None:
    # "GPT-4", "top-1", "CIFAR-10" are names; "10% of the data" says how it was trained;
    # "1,000 sentences", "3 epochs" have no unit and no metric
    text = (
        "GPT-4 reaches top-1 on CIFAR-10 using only 10% of the training data after "
        "training on 1,000 sentences for 3 epochs."
    )
    assert claims(nlp, text) == []


def test_from_a_baseline_to_a_level(nlp: Language) -> None:
    (r,) = claims(nlp, "FooNet increases accuracy from 60% to 75%.")
    assert (r.value, r.relative, text_of(r.metric)) == ("75%", False, "accuracy")


def test_a_metric_from_a_baseline_to_a_bare_level(nlp: Language) -> None:
    # ICLR 2026: 7 results so written, the recogniser's metric or a metric's head word before
    # "from"; a range of settings is none.
    [r] = claims(nlp, "Our method improves MathQA accuracy from 73.7 to 83.6.")
    assert (r.value, r.relative) == ("83.6", False)
    [r] = claims(nlp, "It raises the appearance score from 3.4 to 3.7.")
    assert r.value == "3.7"
    assert claims(nlp, "It reaches a higher speedup from 512 to 2048 resolution.") == []
    assert claims(nlp, "Our model sizes range from 0.4 to 5 billion parameters.") == []


def test_an_opening_on_dataset_is_every_claims_dataset(nlp: Language) -> None:
    rs = claims(
        nlp,
        "We propose FooNet. On the CASP14 benchmark, FooNet raises accuracy from 60% to 75% "
        "and cuts latency by 2x.",
    )
    assert [(r.value, text_of(r.dataset)) for r in rs] == [
        ("75%", "CASP14 benchmark"),
        ("2x", "CASP14 benchmark"),  # a claim after another one: the opening dataset
    ]


def test_a_bare_number_that_a_metric_takes(nlp: Language) -> None:
    (r,) = claims(nlp, "Our parser obtains an F1 of 0.89 on CoNLL-2003.")
    assert (r.value, r.number, r.unit, text_of(r.metric), text_of(r.dataset)) == (
        "0.89",
        0.89,
        "",
        "F1",
        "CoNLL-2003",
    )


def test_we_make_the_proposed_entity_the_method(nlp: Language) -> None:
    text = "We propose FooNet. With it, we reach 71.2% accuracy on GSM8K, beating AlphaFold."
    r = next(r for r in claims(nlp, text) if r.value == "71.2%")
    assert text_of(r.method) == "FooNet"


def test_a_list_of_gains_shares_its_kind_and_metric(nlp: Language) -> None:
    text = "FooNet yields average accuracy gains of 14.9% on search, 14.0% on math."
    got = {r.value: r for r in claims(nlp, text)}
    assert got["14.0%"].relative and text_of(got["14.0%"].metric) == text_of(got["14.9%"].metric)


def test_a_baseline_after_outperforms_is_not_the_method(nlp: Language) -> None:
    text = "FooNet outperforms fine-tuning and AlphaFold, improving accuracy by up to 18%."
    (r,) = claims(nlp, text)
    assert r.relative and text_of(r.method) == "FooNet"


def test_a_baseline_typed_a_dataset_is_not_the_claims_dataset(nlp: Language) -> None:
    # the recogniser types "Gemini Flash" a dataset here; the claim is on WebPRMBench
    text = (
        "On WebPRMBench, WebArbiter-7B outperforms the strongest baseline, Gemini Flash, "
        "by 10.9%."
    )
    doc = nlp(text)
    assert any(m["text"] == "Gemini Flash" and m["label"] == "Dataset" for m in doc._.kg_mentions)
    (r,) = results_in(doc, doc._.kg_mentions)
    assert (text_of(r.method), text_of(r.dataset)) == ("WebArbiter-7B", "WebPRMBench")


def test_a_gain_over_a_dataset_is_on_it(nlp: Language) -> None:
    text = "FooNet achieves a notable 7% improvement over TruthfulQA."
    (r,) = claims(nlp, text)
    assert text_of(r.dataset) == "TruthfulQA"


def test_a_baseline_after_a_hyphenated_modifier_is_not_the_method(nlp: Language) -> None:
    text = "FooNet outperforms the state-of-the-art method AsFT, reducing the error to 3.6%."
    (r,) = claims(nlp, text)
    assert text_of(r.method) == "FooNet"


def test_the_subject_after_an_opening_comparison_is_the_method(nlp: Language) -> None:
    text = "Compared to prior state-of-the-art methods, FooNet achieves a 9.5% gain on MMLU."
    (r,) = claims(nlp, text)
    assert text_of(r.method) == "FooNet"


def test_the_model_a_metric_is_measured_of_is_not_the_method(nlp: Language) -> None:
    text = "NEO improves the classification accuracy of ViT-Base from 55.6% to 59.2%."
    (r,) = claims(nlp, text)
    assert (r.value, text_of(r.method)) == ("59.2%", "NEO")


def test_the_model_a_claim_was_made_on_is_not_the_method(nlp: Language) -> None:
    for text in (
        "We propose FooNet. It matches the performance of LoRA on GSM8K (90.8%).",
        "We propose FooNet. It improves the accuracy on LoRA from 78.6% to 90.8%.",
    ):
        (r,) = claims(nlp, text)
        assert (r.value, text_of(r.method)) == ("90.8%", "FooNet")


def test_the_subject_of_the_clause_is_the_method(nlp: Language) -> None:
    text = "FooNet achieves strong results with LoRA and delivers 11% gains."
    (r,) = claims(nlp, text)
    assert (r.value, text_of(r.method)) == ("11%", "FooNet")


def test_a_number_written_on_a_method_is_that_methods(nlp: Language) -> None:
    text = "FooNet achieves 57.4% accuracy, while other strong methods are lower (LoRA: 39.5%)."
    got = {r.value: text_of(r.method) for r in claims(nlp, text)}
    assert got == {"57.4%": "FooNet", "39.5%": "LoRA"}


def test_the_method_whose_merit_is_shown_is_the_method(nlp: Language) -> None:
    text = "Experiments show the effectiveness of LoRA, improving accuracy by 4.45%."
    (r,) = claims(nlp, text)
    assert (r.value, text_of(r.method)) == ("4.45%", "LoRA")


def test_a_range_is_two_claims(nlp: Language) -> None:
    got = claims(nlp, "FooNet improves the validation error by 0.8-0.9% on ImageNet.")
    assert [(r.value, r.number, r.unit, r.relative) for r in got] == [
        ("0.8%", 0.8, "%", True),
        ("0.9%", 0.9, "%", True),
    ]
    assert [text_of(r.method) for r in got] == ["FooNet", "FooNet"]
    assert [r.value for r in claims(nlp, "FooNet is 9 to 13× faster.")] == ["9×", "13×"]
    # an en dash between the numbers, and a sign before the first
    assert [r.value for r in claims(nlp, "FooNet gains +4–8% on MMLU.")] == ["+4%", "8%"]
    # "from 60 to 75%" is a change, reaching 75%
    assert [r.value for r in claims(nlp, "FooNet raises accuracy from 60 to 75%.")] == ["75%"]
    # each number with its unit
    found = claims(nlp, "FooNet cuts the parameters by 24%-30%, enabling 1.3x–2.1x speedups.")
    assert [(r.value, r.relative) for r in found] == [
        ("24%", True), ("30%", True), ("1.3x", True), ("2.1x", True)]


def test_the_component_writes_indexed_rows(nlp: Language) -> None:
    doc = nlp("FooNet achieves 85.3% top-1 accuracy on ImageNet.")
    find_results(doc)
    (row,) = doc._.kg_results
    mentions = doc._.kg_mentions
    assert row["value"] == "85.3%" and row["relative"] is False
    assert mentions[row["metric"]]["text"] == "top-1 accuracy"
    assert mentions[row["dataset"]]["text"] == "ImageNet"
    assert row["task"] is None
    assert doc.text[row["start"] : row["end"]] == "85.3%"


@pytest.mark.parametrize("row", [r for _, r in read_jsonl(RULES_FILE)], ids=lambda r: r["kind"])
def test_each_number_shape_matches_its_examples_whole(nlp: Language, row: dict) -> None:
    rules = load_result_rules()
    matcher = Matcher(nlp.vocab)
    for i, rule in enumerate(rules):
        matcher.add(str(i), [rule.pattern])
    assert row.get("examples")
    for example in row["examples"]:
        doc = nlp.make_doc(example)
        spans = {(s, e) for _, s, e in matcher(doc)}
        assert (0, len(doc)) in spans, example


def test_signed_changes_in_a_list_keep_their_own_dataset(nlp: Language) -> None:
    text = "Substituting SwallowMath yields +12.4 accuracy on GSM8K and +7.6 on MATH."
    got = {r.value: r for r in claims(nlp, text)}
    assert set(got) == {"+12.4", "+7.6"} and all(r.relative for r in got.values())
    assert text_of(got["+7.6"].metric) == "accuracy"  # the list's metric
    assert text_of(got["+7.6"].dataset) != "GSM8K"  # GSM8K is +12.4's


def test_settings_and_bare_measures_are_no_claims(nlp: Language) -> None:
    assert [r.value for r in claims(nlp, "We gain 20% on AMC under 128× update ratio.")] == ["20%"]
    assert claims(nlp, "Each expert spent over 100 hours implementing the idea.") == []
    assert claims(nlp, "Scores differ, with +3 layers.") == []


def test_an_arrow_goes_from_the_baseline_to_the_level(nlp: Language) -> None:
    found = claims(nlp, "Training lifts accuracy on GSM8K (19.6% → 57.1%).")
    assert [(r.value, r.relative) for r in found] == [("57.1%", False)]


def test_a_number_written_into_a_word_is_a_setting(nlp: Language) -> None:
    found = claims(nlp, "On ImageNet, it attains 1-step FID 3.34 with our 4-bit model.")
    assert [(r.value, text_of(r.metric)) for r in found] == [("3.34", "FID")]


def test_a_factor_at_the_sentence_end_and_a_tilde(nlp: Language) -> None:
    found = claims(nlp, "DUPA accelerates inference by 10×. It reaches ∼50% accuracy on GSM8K.")
    assert [(r.value, r.number, r.relative) for r in found] == [
        ("10×", 10.0, True), ("∼50%", 50.0, False)]


def test_a_list_takes_the_metric_and_dataset_written_after_it(nlp: Language) -> None:
    found = claims(nlp, "ULD-Net yields 76.7% and 75.2% top-1 accuracy on ImageNet.")
    assert [(r.value, text_of(r.metric), text_of(r.dataset)) for r in found] == [
        ("76.7%", "top-1 accuracy", "ImageNet"), ("75.2%", "top-1 accuracy", "ImageNet")]


def test_a_claim_of_an_earlier_sentence_takes_no_dataset_of_this_one(nlp: Language) -> None:
    text = "SPRINT cuts memory by 75%. On ImageNet-1K 256^2, SPRINT achieves 9.8x training savings."
    got = {r.value: r for r in claims(nlp, text)}
    assert text_of(got["9.8x"].dataset) == "ImageNet-1K"


def test_a_list_takes_the_dataset_after_it_over_a_setting_before_it(nlp: Language) -> None:
    text = (
        "It cuts memory by 75%. Scaling up the multimodal math data in training, Vision-R1-32B"
        " and Vision-R1-72B achieve 76.4% and 78.2% MathVista benchmark scores, respectively."
    )
    got = {r.value: r for r in claims(nlp, text)}
    assert [text_of(got[v].dataset) for v in ("76.4%", "78.2%")] == ["MathVista benchmark"] * 2


def test_the_data_a_model_was_trained_on_is_its_dataset_only_alone(nlp: Language) -> None:
    text = (
        "It is 13x faster. On the SQuAD dataset, our single model, trained with augmented"
        " data, achieves 84.6 F1 score on the test set."
    )
    assert [text_of(r.dataset) for r in claims(nlp, text) if r.value == "84.6"] == [
        "SQuAD dataset"]
    text = "Our network trained on ImageNet achieves a top-5 accuracy of 65.7%."
    assert [text_of(r.dataset) for r in claims(nlp, text)] == ["ImageNet"]


def test_a_list_with_its_own_mentions_keeps_them(nlp: Language) -> None:
    found = claims(nlp, "wd1++ achieves 44.2% on MATH500 and 84.5% on GSM8K.")
    assert [text_of(r.dataset) for r in found if r.value == "44.2%"] == ["MATH500"]


def test_numbers_listed_with_as_many_datasets_pair_in_order(nlp: Language) -> None:
    found = claims(nlp, "FooNet improves accuracy by 6.2% and 9.9% on ChartMimic and ReachQA.")
    assert [(r.value, text_of(r.dataset)) for r in found] == [
        ("6.2%", "ChartMimic"), ("9.9%", "ReachQA")]
    # a list of datasets before the numbers, when the sentence says "respectively"
    text = "On CIFAR-100 and ImageNet, FooNet achieves 28.6% and 11.3% gains, respectively."
    assert [(r.value, text_of(r.dataset)) for r in claims(nlp, text)] == [
        ("28.6%", "CIFAR-100"), ("11.3%", "ImageNet")]


def test_numbers_listed_with_as_many_subject_methods_pair_in_order(nlp: Language) -> None:
    text = (
        "Even the strongest models, Gemini-2.5-Pro and GPT-5-Think, achieve only 38.20% and "
        "37.20% accuracy, respectively."
    )
    assert [(r.value, text_of(r.method)) for r in claims(nlp, text)] == [
        ("38.20%", "Gemini-2.5-Pro"), ("37.20%", "GPT-5-Think")]  # fmt: skip
    # a model the claim was made on and the method are no list of methods
    text = "On Qwen3-4B, FooNet improves accuracy by +12.6 and +14.1 points, respectively."
    assert "Qwen3-4B" not in {text_of(r.method) for r in claims(nlp, text)}


def test_a_change_word_after_a_list_makes_each_number_a_change(nlp: Language) -> None:
    text = "FooNet shows 11%, 14%, and 19% performance gains on Sokoban, MineSweeper and WebShop."
    assert [r.relative for r in claims(nlp, text)] == [True, True, True]
    # not across a comma: the levels reached, then what else improves
    text = "FooNet keeps refusal rates at 7.1% and 6.8%, significantly improving the trade-off."
    assert [r.relative for r in claims(nlp, text)] == [False, False]


def test_a_signed_number_on_a_named_benchmark_is_a_change(nlp: Language) -> None:
    text = "We propose FooNet. It scores +4.1 on MMLU, +7.1 on GSM8K, and +12.9 on MATH500."
    got = [(r.value, r.relative, text_of(r.dataset)) for r in claims(nlp, text)]
    assert got == [("+4.1", True, "MMLU"), ("+7.1", True, "GSM8K"), ("+12.9", True, "MATH500")]
    # a signed number on nothing named stays no claim
    assert claims(nlp, "The model with +3 layers on top is deeper.") == []


def test_a_score_of_a_bare_number_is_a_claim(nlp: Language) -> None:
    (r,) = claims(nlp, "FooNet achieves a state-of-the-art score of 55.4 on the VSI-Bench.")
    assert (r.value, r.relative) == ("55.4", False)
    assert claims(nlp, "FooNet runs at a token rate of 12.5 Hz.") == []  # a setting


def test_an_opening_adverb_leaves_the_opening_dataset_every_claims(nlp: Language) -> None:
    text = "Notably, on LongBench-V1, FASA keeps 100% of the quality with a 2.56× speedup."
    got = claims(nlp, text)
    assert [r.value for r in got] == ["100%", "2.56×"]
    assert {text_of(r.dataset) for r in got} == {"LongBench-V1"}


def test_numbers_and_datasets_of_unequal_lists_do_not_pair(nlp: Language) -> None:
    # two numbers, three datasets: no pairing, and the list is no one number's dataset
    text = "FooNet improves accuracy by 6.2% and 9.9% on ChartMimic, ReachQA and MMLU."
    assert [(r.value, text_of(r.dataset)) for r in claims(nlp, text)] == [
        ("6.2%", None), ("9.9%", None)]
    # without "respectively", a list before the numbers is no partner of theirs
    text = "On CIFAR-100 and ImageNet, FooNet achieves 28.6% and 11.3% gains."
    assert [text_of(r.dataset) for r in claims(nlp, text)] == [None, None]


def test_a_claim_on_a_list_of_datasets_is_on_none_of_them(nlp: Language) -> None:
    text = "Experiments on MATH, AMC23, and AIME show that FooNet improves accuracy by 8.4%."
    assert [(r.value, text_of(r.dataset)) for r in claims(nlp, text)] == [("8.4%", None)]
    text = "On GSM8K and MATH, our method correlates strongly (up to 86%) with the students."
    assert [text_of(r.dataset) for r in claims(nlp, text)] == [None]
    # a dataset, then the method after a comma: no list
    text = "On Meta-World, FooNet attains a 74.5% average success rate."
    assert [text_of(r.dataset) for r in claims(nlp, text)] == ["Meta-World"]


def test_a_list_of_datasets_may_hold_one_its_sentence_typed_otherwise(nlp: Language) -> None:
    text = (
        "FooNet achieves up to 11.23%, 12.43%, and 7.62% gains over state-of-the-art "
        "baselines on CIFAR-100, ImageNet-R, and CUB-200, respectively."
    )
    doc = nlp(text)
    # the case: the recogniser types ImageNet-R a method, and the list is further than six
    # tokens from the last number ("respectively" lets it be)
    assert {m["text"]: m["label"] for m in doc._.kg_mentions}["ImageNet-R"] == "Method"
    got = [(r.value, text_of(r.dataset)) for r in results_in(doc, doc._.kg_mentions)]
    assert got == [("11.23%", "CIFAR-100"), ("12.43%", "ImageNet-R"), ("7.62%", "CUB-200")]


def test_a_bracketed_aside_parts_no_claim_from_its_dataset(nlp: Language) -> None:
    text = (
        "Our 1.5B models reach 72.50% (+10.73%) on AIME24, 62.29% (+12.79%) on AIME25, and "
        "41.67% (+10.11%) on HMMT25."
    )
    got = [(r.value, text_of(r.dataset)) for r in claims(nlp, text)]
    assert got == [
        ("72.50%", "AIME24"), ("+10.73%", "AIME24"), ("62.29%", "AIME25"),
        ("+12.79%", "AIME25"), ("41.67%", "HMMT25"), ("+10.11%", "HMMT25"),
    ]  # fmt: skip


def test_a_size_is_no_factor(nlp: Language) -> None:
    text = "FooNet achieves state-of-the-art FID on ImageNet 256 × 256 among AR models."
    assert [r.value for r in claims(nlp, text)] == []
    text = "It attains 1.9 FID at 1024× 576 resolution, 50× faster."
    assert [r.value for r in claims(nlp, text)] == ["1.9", "50×"]


def test_a_bracketed_figure_is_the_claim_of_the_dataset_it_follows(nlp: Language) -> None:
    """The figure is no part of the dataset's name, and belongs to it though another claim
    comes first."""
    text = (
        "FooNet succeeds on HarmBench (+72.7%) and improves performance on the GSM8K "
        "benchmark (+1.6%)."
    )
    got = {r.value: text_of(r.dataset) for r in claims(nlp, text)}
    assert got == {"+72.7%": "HarmBench", "+1.6%": "GSM8K benchmark"}


def test_a_metric_that_names_its_dataset_gives_the_result_its_dataset(nlp: Language) -> None:
    # "OLMo-2-1.48B", typed a dataset, is nearer 15.5 than the AIME of "AIME score"
    (r,) = claims(
        nlp,
        "For example, X-LLM-R1-950M achieves an AIME score of 15.5, compared to just 0.6 for "
        "OLMo-2-1.48B and 0.3 for SmolLM-2-1.7B.",
    )
    assert (r.value, text_of(r.metric), text_of(r.dataset)) == ("15.5", "AIME score", "AIME")
    (r,) = claims(nlp, "Our model reaches 81.2% ImageNet top-1 accuracy.")
    assert text_of(r.dataset) == "ImageNet"


def test_a_share_of_the_original_performance_is_a_result_a_share_of_data_is_not(
    nlp: Language,
) -> None:
    text = (
        "FooPrune uses only 10% of the vision tokens while maintaining 98.7% of the original "
        "performance on MMBench, and retains 99% of the accuracy of the dense model."
    )
    got = {r.value: r for r in claims(nlp, text)}
    assert set(got) == {"98.7%", "99%"}
    kept, dense = got["98.7%"], got["99%"]
    assert kept.relative and text_of(kept.method) == "FooPrune"
    assert text_of(kept.dataset) == "MMBench" and kept.metric is None
    assert text_of(dense.metric) == "accuracy"


def test_a_task_after_the_number_is_its_claims_only_within_its_clause(nlp: Language) -> None:
    text = (
        "FooNet improves accuracy by 5.1% on code generation, offering insights for "
        "machine translation."
    )
    (r,) = claims(nlp, text)
    assert text_of(r.task) == "code generation"
    (r,) = claims(nlp, "FooNet reaches 5.1% accuracy, offering insights for machine translation.")
    assert r.task is None


def test_a_number_after_vs_or_compared_to_is_the_baselines(nlp: Language) -> None:
    text = (
        "FooNet achieves 26.95% Pass@1 on MBPP compared to 22.58% for GPT-4o, and 44.0% vs. "
        "24.0% on HumanEval."
    )
    got = {r.value: text_of(r.method) for r in claims(nlp, text)}
    # A named baseline's number is its result; an unnamed one's is no result of the paper's.
    assert got == {"26.95%": "FooNet", "22.58%": "GPT-4o", "44.0%": "FooNet"}


def test_a_baselines_number_is_measured_where_its_claim_is(nlp: Language) -> None:
    text = "FooNet achieves 26.95% Pass@1 on HumanEval compared to 22.58% for GPT-4o."
    got = {r.value: (text_of(r.dataset), text_of(r.metric)) for r in claims(nlp, text)}
    assert got["22.58%"] == ("HumanEval", "Pass@1")
    # a claim of the sentence before it gives a number no place when it compares nothing
    got = {r.value: text_of(r.dataset) for r in claims(nlp, "FooNet reaches 80.1% on MMLU.")}
    assert got == {"80.1%": "MMLU"}


def test_the_only_dataset_before_the_claims_is_each_claims(nlp: Language) -> None:
    text = (
        "We improve the accuracy of CLIP on NegBench from 25.5% to 67.0% for multiple choice"
        " and from 50.9% to 56.1% for retrieval."
    )
    assert [text_of(r.dataset) for r in claims(nlp, text)] == ["NegBench", "NegBench"]
    # not past another "on": the later claim may be on a name the recogniser missed
    text = (
        "FooNet increases performance on GSM8K from 20.0% to 50.0%, and on Polyglot from"
        " 14.2% to 30.7%."
    )
    got = {r.value: text_of(r.dataset) for r in claims(nlp, text)}
    assert got["50.0%"] == "GSM8K" and got["30.7%"] != "GSM8K"
    # nor the object of a verb: "generate PDDL files" is no place of the later claim
    text = "FooNet can generate PDDL files to reach 70.0% valid plans and a 54.1% success rate."
    got = {r.value: text_of(r.dataset) for r in claims(nlp, text)}
    assert got["54.1%"] is None


def test_a_metric_right_after_a_listed_number_keeps_the_lists_dataset(nlp: Language) -> None:
    text = "DualToken sets a new record of 0.25 rFID and 82.0% zero-shot accuracy on ImageNet."
    got = [(r.value, text_of(r.metric), text_of(r.dataset)) for r in claims(nlp, text)]
    assert got == [("0.25", "rFID", "ImageNet"), ("82.0%", "zero-shot accuracy", "ImageNet")]


def test_bare_numbers_listed_before_a_unit_share_it(nlp: Language) -> None:
    text = "On average, open-source models decline by 13 and 34 points on SG and CS."
    got = [(r.value, r.number, r.unit, r.relative) for r in claims(nlp, text)]
    assert got == [("13 points", 13.0, "points", True), ("34 points", 34.0, "points", True)]
    text = "FooNet achieves PSNR improvements of 0.55 and 1.31 dB on the Set5 dataset."
    assert [r.value for r in claims(nlp, text)] == ["0.55 dB", "1.31 dB"]
    # a number in a name before the list is no claim
    text = "FooNet beats GPT-5 and reaches 46.8% accuracy."
    assert [r.value for r in claims(nlp, text)] == ["46.8%"]


def test_a_number_a_setting_word_brings_in_is_no_listed_claims(nlp: Language) -> None:
    # "with only 0.36% additional training compute" shares nothing of "an FID of 1.02"
    text = "FooNet reaches a new state-of-the-art FID of 1.02 with only 0.36% additional compute."
    got = {r.value: text_of(r.metric) for r in claims(nlp, text)}
    assert got["1.02"] == "FID" and got.get("0.36%") != "FID"
