"""What a name looks like: coined words, capitalised phrases, dataset suffixes.

No spaCy here: the build uses these to name papers without loading the pipeline.
"""

from __future__ import annotations

import re

# A coined name: inner capital ("MetaEmbed", "ViDoRe"), letters and digits ("GPT4", "Qwen3"), an
# all-caps word of 2+ letters ("MMEB", "LLM"), or a capitalised word, a hyphen and a version
# ("Llama-3", "Gemini-2.5-Pro"; not "Stage-2" or "Table-1").
_NUMBERED_PARTS = (
    "Stage|Phase|Step|Round|Table|Figure|Fig|Section|Level|Layer|Type|Version|Top|Part|Chapter|"
    "Day|Year|Task|Class|Group|Block|Epoch|Iteration|Case|Setting|Experiment|Appendix|Eq"
)
COINED = re.compile(
    r"^(?=.*[A-Za-z])(?=.{3,})(?!.*-$)"
    r"(?:[A-Za-z]*[a-z][A-Z]|[A-Z]{2,}|[A-Za-z]+\d|[A-Z]+-[A-Z]{2,}"
    rf"|(?!(?:{_NUMBERED_PARTS})-)[A-Z][a-z]+-\d)"
    r"|^[A-Z]{2}$"
)


#: A name-like phrase: coined, or capitalised words ("Group Relative Policy Optimization").
def is_name_like(text: str) -> bool:
    words = text.replace("-", " ").split()
    return bool(COINED.match(text)) or (
        len(words) >= 2 and sum(1 for w in words if w[:1].isupper()) >= len(words) - 1
    )


# Suffixes that mark a coined name as a benchmark or dataset ("CodeBench", "X-160K", "TruthfulQA").
# Not "-7B": billions are a model's parameters ("Qwen2.5-VL-3B", "OmniVerifier-7B").
DATASET_SUFFIX = re.compile(r"(Bench|Benchmark|Eval|QA|Arena|Gym|World|Set|Corpus|-\d+[KM])$")
PROPN_LIKE = re.compile(r"^[A-Z]")
