"""Abstracts/s of the SciERC recogniser and of plain en_core_web_sm: same texts, same run."""

from __future__ import annotations

import csv
import glob
import time
from pathlib import Path


def iclr_abstracts(shared_data: str | Path = "../shared/data", limit: int = 1000) -> list[str]:
    """Up to ``limit`` ICLR 2026 abstracts from the shared CSVs (file order)."""
    csv.field_size_limit(1 << 30)
    out: list[str] = []
    folder = Path(shared_data) / "corpora" / "iclr2026-alickzhu"
    for path in sorted(glob.glob(str(folder / "*.csv"))):
        with open(path, encoding="utf-8-sig", newline="") as fh:
            out.extend(r["abstract"] for r in csv.DictReader(fh) if r.get("abstract"))
        if len(out) >= limit:
            break
    return out[:limit]


def _rate(nlp, texts: list[str], batch_size: int = 64) -> float:  # noqa: ANN001
    list(nlp.pipe(texts[:50]))  # warm-up
    t0 = time.perf_counter()
    for _ in nlp.pipe(texts, batch_size=batch_size):
        pass
    return len(texts) / (time.perf_counter() - t0)


def measure(texts: list[str], model: str | Path | None = None) -> dict[str, float]:
    """Abstracts/s, same texts, same run, of:

    - ``en_core_web_sm``: the naive baseline, its full pipeline;
    - ``sm_tagger``: en_core_web_sm's tokenizer + tok2vec + tagger (the recogniser's inputs);
    - ``sm_tagger+scierc_ner``: the above plus the recogniser (``--component model``);
    - ``scierc_ner_alone``: the recogniser on already tagged docs (its marginal cost in kg's
      pipeline, which runs the tagger anyway).
    """
    import spacy

    from kg.evaluate.scierc import load_model
    from kg.train.recogniser import BASE_MODEL

    sm = spacy.load(BASE_MODEL)
    both = load_model(model)
    ner = both.get_pipe("scierc_ner")
    with both.select_pipes(disable=["scierc_ner"]):
        tagger_rate = _rate(both, texts)
        tagged = list(both.pipe(texts, batch_size=64))
    list(ner.pipe(tagged[:50]))
    t0 = time.perf_counter()
    for _ in ner.pipe(tagged, batch_size=64):
        pass
    alone = len(texts) / (time.perf_counter() - t0)
    return {
        "n_abstracts": len(texts),
        "en_core_web_sm": round(_rate(sm, texts), 1),
        "sm_tagger": round(tagger_rate, 1),
        "sm_tagger+scierc_ner": round(_rate(both, texts), 1),
        "scierc_ner_alone": round(alone, 1),
    }
