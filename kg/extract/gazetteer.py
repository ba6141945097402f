"""The ``kg_gazetteer`` component: known names from the shipped lists (Papers with Code names of
datasets, methods, metrics and tasks, and kg's curated metric names), found as token sequences.
"""

from __future__ import annotations

import marshal
import os
import re
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.lexicon import Lexicon, load_lexicon
from kg.extract.names import AT_K_WORDS
from kg.extract.spans import add_candidate, ensure_group
from kg.schema import Label

#: A metric at a cut-off, written as one token ("Pass@5", "Recall@10", "nDCG@20").
_AT_K_NAMES = "|".join(re.escape(w) for w in AT_K_WORDS)
AT_K_METRIC = re.compile(rf"^(?:{_AT_K_NAMES})@(?:\d+|k)$", re.IGNORECASE)


@Language.factory("kg_gazetteer", assigns=["doc.spans"], requires=["token.text"])
def make_gazetteer(nlp: Language, name: str) -> Gazetteer:
    return Gazetteer(nlp, load_lexicon())


def _tokenizer_ident(nlp: Language) -> str:
    """What a tokenisation depends on: the model's name and version, and spaCy's version."""
    import spacy

    meta = nlp.meta
    return f"{meta.get('name')}-{meta.get('version')}-{spacy.__version__}"


def _user_cache_file(name: str) -> Path:
    """A file of the gazetteer's start-up cache, in the user cache folder."""
    from kg.cache import default_cache_dir

    return default_cache_dir() / "tokens" / name


def _save_best_effort(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (a reader never sees half a file), or not at all: a
    read-only cache folder only costs computing it again next time."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError:
        pass


def name_tokens(nlp: Language, names: list[str]) -> list[list[str]]:
    """``names`` tokenised by ``nlp``'s tokenizer, as lists of token texts.

    Tokenising every gazetteer name would be most of the pipeline's start-up, which an
    incremental build waits for, so the tokens are kept in the user cache folder, keyed by the
    names and the tokenizer (model name and version, spaCy version).
    """
    import hashlib

    import orjson

    digest = hashlib.sha256("\n".join([_tokenizer_ident(nlp), *names]).encode()).hexdigest()
    path = _user_cache_file(f"{digest[:20]}.json")
    try:
        tokens = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        tokenizer: Any = nlp.tokenizer
        # (words, spaces) per name: the format of earlier kg versions, whose files stay valid
        tokens = [
            [[t.text for t in d], [bool(t.whitespace_) for t in d]] for d in tokenizer.pipe(names)
        ]
        _save_best_effort(path, orjson.dumps(tokens))
    return [words for words, _spaces in tokens]


class PhraseTable:
    """Finds token sequences in a doc: what spaCy's ``PhraseMatcher`` does for ``ORTH`` (or,
    with ``lower=True``, ``LOWER``) patterns, over plain strings.

    A ``PhraseMatcher`` wants every pattern as a ``Doc``, and making a Doc of every gazetteer
    name created a lexeme for each new word: most of the pipeline's start-up, which an
    incremental build waits for. Unlike it, a span gets one match: the label added first wins
    (some Papers with Code names are in two lists, "change detection" as a task and a dataset;
    ``PhraseMatcher`` returned both in hash order, which then decided). Matches come sorted by
    start, then end (a unit test checks them against ``PhraseMatcher``).
    """

    def __init__(self, lower: bool = False) -> None:
        self.lower = lower
        self.labels: list[str] = []
        self.by_first: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        self._seen: set[tuple[tuple[str, ...], int]] = set()

    def state(self) -> tuple[bool, list[str], dict[str, list[tuple[tuple[str, ...], int]]]]:
        """What :meth:`from_state` needs: plain values, for ``marshal``."""
        return self.lower, self.labels, self.by_first

    @classmethod
    def from_state(
        cls, state: tuple[bool, list[str], dict[str, list[tuple[tuple[str, ...], int]]]]
    ) -> PhraseTable:
        table = cls(lower=state[0])
        table.labels, table.by_first = list(state[1]), dict(state[2])
        table._seen = {entry for entries in table.by_first.values() for entry in entries}
        return table

    def add(self, label: str, patterns: list[list[str]]) -> None:
        if label not in self.labels:
            self.labels.append(label)
        rank = self.labels.index(label)
        for words in patterns:
            key = tuple(w.lower() for w in words) if self.lower else tuple(words)
            if key and (key, rank) not in self._seen:
                self._seen.add((key, rank))
                self.by_first.setdefault(key[0], []).append((key, rank))

    def __call__(self, doc: Doc) -> list[tuple[str, int, int]]:
        words = [t.lower_ for t in doc] if self.lower else [t.text for t in doc]
        found = []
        n = len(words)
        for i, word in enumerate(words):
            for key, rank in self.by_first.get(word, ()):
                end = i + len(key)
                if end <= n and (end == i + 1 or tuple(words[i:end]) == key):
                    found.append((i, end, rank))
        found.sort()
        out: list[tuple[str, int, int]] = []
        for start, end, rank in found:
            if not out or out[-1][1:] != (start, end):
                out.append((self.labels[rank], start, end))
        return out


#: A one-letter multiplier after a number ("100k", "1M", "21K").
_MULTIPLIER_CASE = re.compile(r"(?<=\d)[kKmMbB]\b")


def _swapcase(m: re.Match[str]) -> str:
    return m.group(0).swapcase()


def _tables_path(nlp: Language, lexicon: Lexicon) -> Path:
    """Where :class:`Gazetteer` keeps its tables for this tokenizer, lexicon and code."""
    import hashlib

    h = hashlib.sha256()
    for part in (
        _tokenizer_ident(nlp),
        Path(__file__).read_text(encoding="utf-8"),
        *sorted(nlp.Defaults.stop_words),
        *lexicon.metric_terms,
        *(
            f"{label}\t{name}\t{'|'.join(aliases)}"
            for label, rows in lexicon.gazetteers.items()
            for name, aliases in rows
        ),
    ):
        h.update(part.encode())
        h.update(b"\0")
    return _user_cache_file(f"gazetteer-{h.hexdigest()[:20]}.marshal")


class Gazetteer:
    """Known names from the shipped lists: multi-word names case-insensitively, single words as
    written (so "ImageNet" matches but the common word "imagenet" in a URL does not matter)."""

    #: Which list a name in several lists counts for: a lower-case phrase is most often a task
    #: ("change detection"), a single word or acronym a method ("LIME", "OSCAR").
    CASELESS_ORDER = (Label.TASK, Label.METHOD, Label.DATASET, Label.METRIC)
    EXACT_ORDER = (Label.METHOD, Label.DATASET, Label.METRIC, Label.TASK)

    def __init__(self, nlp: Language, lexicon: Lexicon) -> None:
        # Building the tables from every name would be done again at every pipeline load
        # (which an incremental build waits for): they are kept in the user cache folder, keyed
        # by all they are made from, this file's code included.
        path = _tables_path(nlp, lexicon)
        try:
            self.exact, self.lower, self.curated = (
                PhraseTable.from_state(state) for state in marshal.loads(path.read_bytes())
            )
            return
        except (OSError, ValueError, EOFError, TypeError, IndexError):
            pass
        self._build(nlp, lexicon)
        tables = (self.exact, self.lower, self.curated)
        _save_best_effort(path, marshal.dumps([table.state() for table in tables]))

    def _build(self, nlp: Language, lexicon: Lexicon) -> None:
        stop_words = nlp.Defaults.stop_words
        self.exact = PhraseTable()
        self.lower = PhraseTable(lower=True)
        # kg's own curated metric list outranks the (noisier) Papers with Code lists.
        self.curated = PhraseTable(lower=True)
        terms = lexicon.metric_terms
        # Acronym-like metric names ("mAP", "FID") only as written: "map" is a word.
        self.exact.add(
            str(Label.METRIC) + "!", name_tokens(nlp, [t for t in terms if not t.islower()])
        )
        self.curated.add(str(Label.METRIC), name_tokens(nlp, [t for t in terms if t.islower()]))
        for table, order in ((self.exact, self.EXACT_ORDER), (self.lower, self.CASELESS_ORDER)):
            for label in order:
                table.add(str(label), [])  # fixes the labels' order
        for label, rows in lexicon.gazetteers.items():
            single: list[list[str]] = []
            multi: list[list[str]] = []
            names = [n for name, aliases in rows for n in (name, *aliases)]
            # The tokenizer splits "Atari 100K" after the number but not "Atari 100k": a
            # caseless name is matched in both spellings of its multiplier.
            respelt = [_MULTIPLIER_CASE.sub(_swapcase, n) for n in names]
            flipped = [r for r, n in zip(respelt, names, strict=True) if r != n]
            for i, words in enumerate(name_tokens(nlp, names + flipped)):
                # A name of stop words only ("Among Them") matches only as written: lower-cased
                # it is ordinary English.
                caseless = len(words) > 1 and not all(w.lower() in stop_words for w in words)
                if caseless:
                    multi.append(words)
                elif i < len(names):
                    single.append(words)
            self.exact.add(str(label), single)
            self.lower.add(str(label), multi)

    def __call__(self, doc: Doc) -> Doc:
        ensure_group(doc)
        for matcher, source in (
            (self.exact, "gazetteer"),
            (self.lower, "gazetteer"),
            (self.curated, "lexicon"),
        ):
            for label, start, end in matcher(doc):
                src = source
                if label.endswith("!"):  # a curated entry matched as written
                    label, src = label[:-1], "lexicon"
                add_candidate(doc, start, end, label, src)
        # "Pass@5", "Recall@10", "nDCG@20": a metric at a cut-off (one look at the text first:
        # most abstracts have no "@", and this runs on every token of a conference otherwise).
        for tok in doc if "@" in doc.text else ():
            if AT_K_METRIC.match(tok.text):
                add_candidate(doc, tok.i, tok.i + 1, str(Label.METRIC), "lexicon")
        return doc
