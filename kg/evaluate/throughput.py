"""Abstracts/s of the SciERC recogniser and of plain en_core_web_sm: same texts, same run."""

from __future__ import annotations

import csv
import glob
import time
from pathlib import Path

from kg.evaluate.scierc import MODEL_DIR


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
    """abstracts/s of: the recogniser alone (its own pipeline), en_core_web_sm (full), and
    en_core_web_sm with the recogniser sourced in.

    The recogniser's static vectors live in its vocab, so it is loaded with the host
    pipeline's vocab (which takes the vectors over) before it is sourced.
    """
    import spacy

    from kg.evaluate.training import BASE_MODEL

    path = Path(model) if model else MODEL_DIR
    ner_nlp = spacy.load(path)
    sm = spacy.load(BASE_MODEL)
    both = spacy.load(BASE_MODEL)
    both.add_pipe("ner", name="scierc_ner", source=spacy.load(path, vocab=both.vocab))
    return {
        "n_abstracts": len(texts),
        "scierc_ner_alone": round(_rate(ner_nlp, texts), 1),
        "en_core_web_sm": round(_rate(sm, texts), 1),
        "en_core_web_sm+scierc_ner": round(_rate(both, texts), 1),
    }
