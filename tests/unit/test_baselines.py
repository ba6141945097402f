"""Baseline frames (kg/extract/baselines.py) through kg's real pipeline: a named method a
sentence measures its claimant against, however far apart the two are written."""

from __future__ import annotations

import pytest
from spacy.language import Language

from kg.extract.baselines import BASELINE_RULE
from kg.extract.relations import relations_in


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
    ],
)
def test_baseline_frames(nlp: Language, text: str, expected: set) -> None:
    doc = nlp(text)
    found = {
        (r.head["text"], r.tail["text"])
        for r in relations_in(doc, doc._.kg_mentions)
        if r.rule == BASELINE_RULE
    }
    assert found == expected
