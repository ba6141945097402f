import pytest

from kg.extract.long_forms import find_long_form, is_acronym
from kg.extract.normalize import clean_surface, normalize_key


@pytest.mark.parametrize(
    "a, b",
    [
        ("Micro-Expression Recognition", "micro expression recognition"),
        ("large language models", "Large Language Model"),
        ("LLMs", "LLM"),
        ("Vision–Language Model", "vision-language models"),  # en dash
        ("the ImageNet dataset", "ImageNet dataset"),
        ("strategies", "strategy"),
        ("CIFAR-10", "CIFAR10"),  # a number after letters, written on or hyphenated
        ("MATH-500", "MATH500"),
        ("AIME 2025", "AIME2025"),
        ("Qwen-2.5-7B", "Qwen2.5-7B"),
    ],
)
def test_variants_share_a_key(a: str, b: str) -> None:
    assert normalize_key(a) == normalize_key(b)


@pytest.mark.parametrize(
    "a, b",
    [
        ("GPT-4", "GPT-3"),
        ("Atlas", "Atla"),
        ("analysis", "analysi"),
        ("MMEB", "MMLU"),
        ("Llama-3-8B", "Llama-38B"),  # numbers stay apart
    ],
)
def test_different_names_keep_different_keys(a: str, b: str) -> None:
    assert normalize_key(a) != normalize_key(b)


def test_clean_surface_collapses_space_and_dashes() -> None:
    assert clean_surface("  multi\u2013vector   retrieval, ") == "multi-vector retrieval"


@pytest.mark.parametrize(
    "acronym, before, expected",
    [
        ("MER", "Micro-expression recognition", "Micro-expression recognition"),
        (
            "MMEB",
            "evaluations on the Massive Multimodal Embedding Benchmark",
            "Massive Multimodal Embedding Benchmark",
        ),
        (
            "ViDoRe",
            "and the Visual Document Retrieval Benchmark",
            "Visual Document Retrieval Benchmark",
        ),
        (
            "GRPO",
            "we train with Group Relative Policy Optimization",
            "Group Relative Policy Optimization",
        ),
        ("MoE", "a sparse Mixture-of-Experts", "Mixture-of-Experts"),
        ("CoT", "we elicit chain-of-thought", "chain-of-thought"),
        ("INRs", "Implicit neural representations", "Implicit neural representations"),
    ],
)
def test_long_forms(acronym: str, before: str, expected: str) -> None:
    assert find_long_form(acronym, before) == expected


def test_no_long_form_when_letters_do_not_match() -> None:
    assert find_long_form("XYZ", "a sentence about something else") is None
    assert find_long_form("ML", "ML") is None


def test_acronym_shape() -> None:
    assert is_acronym("MER") and is_acronym("LLMs") and is_acronym("ViDoRe")
    assert not is_acronym("Adam") and not is_acronym("x") and not is_acronym("the")


@pytest.mark.parametrize(
    ("word", "coined"),
    [
        ("MetaEmbed", True),
        ("Qwen3", True),
        ("LLM", True),
        ("GPT-4o", True),
        ("Llama-3", True),  # a capitalised word, a hyphen and a version
        ("Gemini-2.5-Pro", True),
        ("Adam", False),  # a plain capitalised word
        ("Stage-2", False),  # a numbered part of a paper or a procedure
        ("Table-1", False),
        ("top-1", False),
    ],
)
def test_what_a_coined_name_looks_like(word: str, coined: bool) -> None:
    from kg.extract.names import COINED

    assert bool(COINED.match(word)) is coined
