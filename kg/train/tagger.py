"""Reproduce kg's small tagger (``kg/extract/models/small_tagger``, ``kg train tagger``).

kg's pipeline needs part-of-speech tags only (the SciERC recogniser and the re-typer read
``token.tag_``, the rules match on it). en_core_web_sm's tok2vec + tagger made them a large
part of extraction time; this tagger is distilled from them on in-domain text at a fraction of
their cost per token:

1. The unlabelled scientific texts of :func:`kg.train.recogniser.write_pretrain_corpus`
   (SciERC dev/test texts excluded) are tagged by en_core_web_sm: silver TAGs. A stable hash
   keeps 5% aside to measure agreement.
2. ``spacy train`` with ``kg/extract/models/small_tagger.cfg``: a tagger with its own inline
   tok2vec (width 64, depth 2; hash embeddings of NORM, PREFIX, SUFFIX, SHAPE), en_core_web_sm's
   tokenizer and vocab copied in, so tokens and NORM are the same as kg's.
3. The best model's tagger is saved alone (component config + weights): :func:`ship`.

How often it agrees with en_core_web_sm, what it costs per token, what it does to SciERC
(with the re-typer retrained on its tags) and how long training takes:
``docs/extraction-quality.md``; its effect on build speed: ``docs/benchmarks.md``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path

from kg.extract.pipeline import EXCLUDED, SMALL_TAGGER_DIR
from kg.train.recogniser import BASE_MODEL, write_pretrain_corpus

CONFIG = SMALL_TAGGER_DIR.parent / "small_tagger.cfg"


def held_out(text: str) -> bool:
    """About 5% of texts, chosen by a stable hash: never trained on, used for agreement."""
    return int(hashlib.md5(text.encode()).hexdigest(), 16) % 20 == 0


def prepare(shared_data: str | Path, work: Path) -> tuple[Path, Path]:
    """Silver-tagged train and held-out DocBins under ``work``."""
    import spacy
    from spacy.tokens import DocBin

    raw = work / "texts.jsonl"
    write_pretrain_corpus(shared_data, raw)
    with raw.open(encoding="utf-8") as fh:
        texts = [json.loads(line)["text"] for line in fh]
    teacher = spacy.load(BASE_MODEL, exclude=[*EXCLUDED, "senter"])  # its own tagger
    paths = []
    for name, keep in (("train", False), ("heldout", True)):
        db = DocBin(attrs=["ORTH", "TAG", "SPACY"], store_user_data=False)
        for doc in teacher.pipe((t for t in texts if held_out(t) == keep), batch_size=64):
            db.add(doc)
        paths.append(work / f"{name}.spacy")
        db.to_disk(paths[-1])
    return paths[0], paths[1]


def ship(best: str | Path, output: str | Path = SMALL_TAGGER_DIR) -> Path:
    """Save the trained tagger alone: its component config and weights (the vocab and
    tokenizer are en_core_web_sm's, which kg loads anyway)."""
    from spacy.util import load_config
    from thinc.api import Config

    best, output = Path(best), Path(output)
    if output.exists():
        shutil.rmtree(output)
    output.mkdir(parents=True)
    component = load_config(best / "config.cfg", interpolate=True)["components"]["tagger"]
    Config({"components": {"tagger": component}}).to_disk(output / "config.cfg")
    shutil.copytree(best / "tagger", output / "tagger")
    return output


def train(
    shared_data: str | Path,
    output: str | Path = SMALL_TAGGER_DIR,
    workdir: str | Path | None = None,
    max_steps: int | None = None,
) -> Path:
    """prepare → ``spacy train`` → ship. Returns ``output``."""
    from spacy.cli.train import train as spacy_train
    from spacy.util import load_config

    work = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="kg-tagger-"))
    work.mkdir(parents=True, exist_ok=True)
    train_path, heldout_path = prepare(shared_data, work)
    cfg = load_config(CONFIG, interpolate=False)
    cfg["paths"]["train"] = str(train_path)
    cfg["paths"]["dev"] = str(heldout_path)
    if max_steps is not None:
        cfg["training"]["max_steps"] = max_steps
    cfg.to_disk(work / "train.cfg")
    spacy_train(work / "train.cfg", work / "trained")
    return ship(work / "trained" / "model-best", output)
