"""What a name looks like: coined words, capitalised phrases, dataset suffixes.

No spaCy here: the build uses these to name papers without loading the pipeline.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kg.extract.lexicon import read_data_lines

#: What abstracts write before "@" in a metric at a cut-off, as one token ("Pass@5",
#: "Recall@10", "nDCG@20"): ``at_k_metrics.txt``, read by the gazetteer and by resolution.
AT_K_WORDS = tuple(read_data_lines("at_k_metrics.txt"))

# A coined name: inner capital ("MetaEmbed", "ViDoRe"), letters and digits ("GPT4", "Qwen3"), an
# all-caps word of 2+ letters ("MMEB", "LLM"), or a capitalised word, a hyphen and a version
# ("Llama-3", "Gemini-2.5-Pro"; not "Stage-2" or "Table-1").
# The capitalised words a number follows without a name are numbered_parts.txt.
_NUMBERED_PARTS = "|".join(re.escape(w) for w in read_data_lines("numbered_parts.txt"))
COINED = re.compile(
    r"^(?=.*[A-Za-z])(?=.{3,})(?!.*-$)"
    r"(?:[A-Za-z]*[a-z][A-Z]|[A-Z]{2,}|[A-Za-z]+\d|[A-Z]+-[A-Z]{2,}"
    rf"|(?!(?:{_NUMBERED_PARTS})-)[A-Z][a-z]+-\d)"
    r"|^[A-Z]{2}$"
)


def has_capital_or_digit(text: str) -> bool:
    """Whether a mention is written as a name rather than as a common noun: a capital or a digit
    anywhere ("GRPO", "LoRA", "ResNet-50"; not "policy gradient").

    >>> [has_capital_or_digit(t) for t in ("LoRA", "t5-base", "policy gradient")]
    [True, True, False]
    """
    return any(c.isupper() or c.isdigit() for c in text)


#: A name-like phrase: coined, or capitalised words ("Group Relative Policy Optimization").
def is_name_like(text: str) -> bool:
    words = text.replace("-", " ").split()
    return bool(COINED.match(text)) or (
        len(words) >= 2 and sum(1 for w in words if w[:1].isupper()) >= len(words) - 1
    )


# Suffixes that mark a coined name as a benchmark or dataset ("CodeBench", "TruthfulQA":
# dataset_suffixes.txt), or a size in thousands or millions ("X-160K"). Not "-7B": billions are
# a model's parameters ("Qwen2.5-VL-3B", "OmniVerifier-7B").
_DATASET_SUFFIXES = "|".join(re.escape(w) for w in read_data_lines("dataset_suffixes.txt"))
DATASET_SUFFIX = re.compile(rf"({_DATASET_SUFFIXES}|-\d+[KM])$")
PROPN_LIKE = re.compile(r"^[A-Z]")


def named_method(m: Mapping[str, Any]) -> bool:
    """Whether a mention (a ``kg_mentions`` dict) is a method written as a name: "GRPO", not
    "policy gradient methods".

    >>> named_method({"label": "Method", "text": "GRPO"}), named_method({"label": "Method",
    ...                                                                "text": "baselines"})
    (True, False)
    """
    return m["label"] == "Method" and has_capital_or_digit(m["text"])
