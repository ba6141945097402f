"""kg's registered spaCy pipeline components.

Each component declares what it needs and what it writes:

* ``kg_acronyms``  — finds "long form (ACR)" definitions          → ``doc._.kg_acronyms``
* ``kg_gazetteer`` — known datasets/methods/metrics/tasks (data files) → candidate spans
* ``kg_rules``     — coined names, "X benchmark", task and concept phrases → candidate spans
* ``kg_mentions``  — picks non-overlapping mentions, types them, spreads acronyms,
  assigns roles (PROPOSES vs the default role of the type)   → ``doc._.kg_mentions``

Candidates from every source go into the span group ``doc.spans["kg_candidates"]``; a span's
``kb_id_`` names its source, which sets its priority when candidates overlap. A trained entity
recogniser (the shipped SciERC model) adds its spans to the same group.
"""

from __future__ import annotations

import marshal
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.matcher import Matcher
from spacy.tokens import Doc, Span, Token
from spacy.util import registry

from kg.extract.acronyms import find_long_form, is_acronym
from kg.extract.fast import ner_decode
from kg.extract.lexicon import Lexicon, load_lexicon
from kg.extract.names import COINED, DATASET_SUFFIX, PROPN_LIKE, is_name_like
from kg.extract.normalize import balanced_prefix, singularize
from kg.extract.retyper import (
    RECOVERY_MODEL,
    TOKVEC_KEY,
    Retyper,
    noun_phrases,
    words_and_tags,
)
from kg.extract.retyper import SHIPPED_MODEL as RETYPER_MODEL
from kg.schema import DEFAULT_ROLE, Label, Rel

CANDIDATES = "kg_candidates"

#: Source priority when candidates overlap (higher wins, then the longer span). The trained
#: recogniser decides span boundaries where it fires (measured on SciERC dev: rules on top of it
#: lost 5 points of F1; the curated metric list on top of it lost 0.5, as "average precision"
#: became "precision"); rules fill in what it misses. Only a named dataset outranks it: it
#: often calls "XBench" or "the MMEB benchmark" a method.
PRIORITY = {
    "named_dataset": 10,
    "model": 9,
    "lexicon": 8,  # kg's curated metric names
    "acronym": 6,
    "gazetteer": 4,
    "coined": 3,
    "phrase": 1,
    "concept": 0,
    "word": -1,
}
UNKNOWN = "Unknown"
#: Tokens that start a quantity ("+0.46 dB"), never an entity.
SIGNS = frozenset({"+", "-", "±", "~", "≈", "<", ">", "≤", "≥", "×"})
#: A factor written as one token ("10x", "2.5×"): what follows it is a result.
MULTIPLIER = re.compile(r"^\d+(?:\.\d+)?[x×]$")
#: A version suffix after a hyphen ("-v2", "-V1.5").
VERSION = re.compile(r"^[vV]\d+(?:\.\d+)*$")
#: A metric at a cut-off, written as one token ("Pass@5", "Recall@10", "nDCG@20").
AT_K_METRIC = re.compile(
    r"^(?:pass|recall|precision|acc|accuracy|hit|hits|ndcg|map|mrr|f1|p|r|success)@(?:\d+|k)$",
    re.IGNORECASE,
)
#: Participles that introduce a name ("a method named X", "dubbed X").
NAMING_CUES = frozenset({"named", "called", "dubbed", "termed", "coined"})
#: Penn tags of comparatives and superlatives ("lower", "best", "more").
COMPARATIVE_TAGS = frozenset({"JJR", "JJS", "RBR", "RBS"})
#: Penn tags of finite verbs and modals, which no entity name holds.
FINITE_VERB_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})
#: Penn tags a phrase cannot end with: a conjunction, a determiner, a preposition.
DANGLING_TAGS = frozenset({"CC", "DT", "IN", "TO"})
#: Penn tags of the words a noun compound is made of ("lesion recognition", "3D segmentation").
NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS", "CD"})
#: Sources whose candidates are names (a name inside a longer chosen phrase is kept, nested).
NAME_SOURCES = {"gazetteer", "coined", "named_dataset", "lexicon"}

if not Doc.has_extension("kg_acronyms"):
    Doc.set_extension("kg_acronyms", default=None)
if not Doc.has_extension("kg_mentions"):
    Doc.set_extension("kg_mentions", default=None)


def defined_acronym(text: str, acronyms: dict[str, str]) -> str | None:
    """The acronym defined in this abstract that ``text`` is, or is the plural of ("LLMs").

    >>> defined_acronym("LLMs", {"LLM": "large language model"})
    'LLM'
    """
    if text in acronyms:
        return text
    if text.endswith("s") and text[:-1] in acronyms:
        return text[:-1]
    return None


#: Tokens an acronym written as one word may span: "GN-IVO" is "GN", "-", "IVO".
_MAX_ACRONYM_TOKENS = 5


def bracketed_acronym(doc: Doc, close: int) -> int | None:
    """Where the acronym starts when token ``close`` is the ")" of "( ACR )", else None. The
    acronym is one written word, perhaps several tokens ("( GN-IVO )", "( DVLA-RL )")."""
    if doc[close].text != ")":
        return None
    for start in range(close - 1, max(0, close - 1 - _MAX_ACRONYM_TOKENS), -1):
        if doc[start - 1].text == "(":
            word = doc[start:close]
            joined = all(not t.whitespace_ for t in word[:-1])
            return start if joined and is_acronym(word.text) else None
        if doc[start].text in ("(", ")"):
            return None
    return None


def definition_parts(span: Span) -> tuple[Span, Span] | None:
    """``(long form, acronym)`` of a span shaped "long form ( ACR )", else None.

    Such a span is one mention (the recogniser and SciERC's annotators take the whole
    definition) whose entity is named by its long form.
    """
    if len(span) < 4:
        return None
    start = bracketed_acronym(span.doc, span.end - 1)
    if start is None or start - 1 <= span.start:
        return None
    return span.doc[span.start : start - 1], span.doc[start : span.end - 1]


def without_acronym_asides(span: Span, text: str, acronyms: dict[str, str]) -> str:
    """``text`` (the span's text, perhaps cut short) without the "( ACR )" asides inside it that
    spell out an acronym this abstract defines: "abundant supervised fine-tuning ( SFT ) data"
    names the same thing as "abundant supervised fine-tuning data", and ACR has a mention of
    its own. An aside that ends the span is a definition (:func:`definition_parts`); other
    asides ("LLaMA3 ( 8B )") are part of a name. The acronym may be several tokens ("( GN-IVO )",
    :func:`bracketed_acronym`)."""
    doc = span.doc
    out, last = [], 0
    for close in range(span.start + 3, span.end - 1):
        first = bracketed_acronym(doc, close)
        if first is None or first - 1 <= span.start:
            continue
        if defined_acronym(doc[first:close].text, acronyms):
            start, end = doc[first - 1].idx - span.start_char, doc[close].idx + 1 - span.start_char
            if end >= len(text):
                break
            out.append(text[last:start].rstrip())
            last = end
    if not out:
        return text
    return " ".join([*out, text[last:].lstrip()])


def in_compound(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens ``start:end`` are a piece of a written word rather than a word of their
    own: "SGD" in "INO-SGD", "INO" in "INO-SGD", "thought" in "chain-of-thought", "GSM8" in
    "GSM8K". A name followed by a lower-case suffix is whole: "GRPO" in "GRPO-based", "AdamW"
    in "AdamW-trained".
    """

    def attached_hyphen(i: int) -> bool:  # token i is a hyphen written inside a word
        return (
            0 < i < len(doc) - 1 and doc[i].text == "-" and not doc[i - 1].whitespace_
        ) and not doc[i].whitespace_

    if attached_hyphen(start - 1):
        return True
    if attached_hyphen(end):
        nxt = doc[end + 1].text
        return nxt[:1].isupper() or nxt[:1].isdigit()
    # A word the tokenizer split without a hyphen: "GSM8" of "GSM8K".
    if start > 0 and not doc[start - 1].whitespace_ and doc[start - 1].text[-1:].isalnum():
        return True
    return end < len(doc) and not doc[end - 1].whitespace_ and doc[end].text[:1].isalnum()


def noun_compound(doc: Doc, start: int, end: int) -> bool:
    """Whether every word of tokens ``start:end`` before the last is a noun or a number (a word
    written with hyphens counts as its last part: "mislabeled-sample detection"). A noun compound
    names a kind of activity ("lesion recognition", "time series synthesis"); an adjective before
    the head mostly describes one ("inadequate reasoning", "faithful editing").
    """
    head_start = end - 1
    while head_start > start and not doc[head_start - 1].whitespace_:
        head_start -= 1
    # A word's last token is the one followed by a space.
    return all(doc[i].tag_ in NOUN_TAGS for i in range(start, head_start) if doc[i].whitespace_)


_YEAR = re.compile(r"^(?:19|20)\d\d[a-z]?$")


def cited_author(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens ``start:end`` are one capitalised word that cites a paper's author:
    "Zhang (2020)", "Park et al.", "Li and Lan (2025)" (both names).

    Why: abstracts cite a few papers by author, and a surname is no method or dataset.
    """
    if end - start != 1 or not doc[start].is_title or not doc[start].is_alpha:
        return False

    def cites(i: int) -> bool:  # tokens from i on are "(YEAR)", "(YEAR;" or "et al."
        nxt = [t.text for t in doc[i : i + 3]]
        return (len(nxt) >= 2 and nxt[0] == "(" and bool(_YEAR.match(nxt[1]))) or nxt[:2] == [
            "et",
            "al.",
        ]

    if cites(end):
        return True
    # The first of two authors: "Li and Lan (2025)".
    joined = end + 1 < len(doc) and doc[end].lower_ in ("and", "&") and doc[end + 1].is_title
    return joined and cites(end + 2)


#: Words between members of a list ("DeltaNet, Mamba or xLSTM").
_LIST_JOINS = frozenset({",", "or", "and", "/"})
#: Words that introduce examples of what comes before them ("methods such as Best-of-N").
_EXAMPLE_CUES = (("such", "as"), ("e.g.",), ("e.g",), ("including",), ("like",))
#: Types whose members a list passes on: a list of names names things of one type.
_LISTED_TYPES = frozenset({str(Label.METHOD), str(Label.DATASET), str(Label.METRIC)})
_STOP_END = frozenset({",", ".", ";", ":", "(", ")", "[", "]"})
#: Penn tag prefixes of words that are no name: verbs, pronouns, determiners, prepositions.
_NOT_NAME_TAGS = ("VB", "PRP", "DT", "IN", "CC", "W", "MD", "TO")


def _written_word(doc: Doc, i: int) -> int:
    """End of the whitespace-delimited word that starts at token ``i`` ("Best-of-N")."""
    j = i + 1
    while j < len(doc) and not doc[j - 1].whitespace_ and doc[j].text not in _STOP_END:
        j += 1
    return j


def listed_names(doc: Doc, chosen: list[Span], taken: list[bool]) -> list[Span]:
    """Names that nothing recognised but that a list puts beside recognised ones, or that
    follow "such as" after a typed phrase: "DeltaNet, **Mamba** or xLSTM", "test-time scaling
    methods, such as **Best-of-N**". A member must be written as a name (a capital, not at
    the start of a sentence) and be one word; it takes the type of its neighbour (source
    "listed"). Marks the tokens it takes in ``taken``.
    """
    found: list[Span] = []

    def add(i: int, label: str) -> None:
        if i >= len(doc) or taken[i] or doc[i].is_sent_start:
            return
        end = _written_word(doc, i)
        word = doc[i:end]
        text = word.text
        if not (text[:1].isupper() and any(c.isalpha() for c in text)) or any(taken[i:end]):
            return
        if end < len(doc) and doc[end].tag_.startswith("NN"):
            return  # the first word of a longer phrase ("Mamba layers"): not a name alone
        if doc[i].is_stop or doc[i].tag_.startswith(_NOT_NAME_TAGS):
            return
        for k in range(i, end):
            taken[k] = True
        found.append(Span(doc, i, end, label=label, kb_id="listed"))

    for span in chosen:
        label = span.label_
        if label not in _LISTED_TYPES:
            continue
        e = span.end
        if span.text[:1].isupper() or COINED.match(span.text):
            # "A, B or C": the next member, and the one before
            if e + 1 < len(doc) and doc[e].text in _LIST_JOINS:
                nxt = e + 1 + (doc[e + 1].text in {"or", "and"})
                add(nxt, label)
            s = span.start
            if s >= 2 and doc[s - 1].text in _LIST_JOINS:
                b = s - 2
                while b > 0 and not doc[b - 1].whitespace_ and doc[b - 1].text not in _STOP_END:
                    b -= 1  # back to the start of a hyphenated word
                if b == 0 or doc[b - 1].text in _LIST_JOINS or doc[b - 1].lower_ in {"as", "("}:
                    add(b, label)
        j = e + (e < len(doc) and doc[e].text == ",")
        for cue in _EXAMPLE_CUES:
            if [t.lower_ for t in doc[j : j + len(cue)]] == list(cue):
                first = j + len(cue)
                add(first + (first < len(doc) and doc[first].text == ","), label)
                break
    return found


def split_coordinated_names(doc: Doc, start: int, end: int) -> list[tuple[int, int]]:
    """The parts of tokens ``start:end`` that are names joined by "and"/"or"/"," ("Llama-3 and
    Qwen2.5-7B"), or the whole span. Only when every part starts with a capital: "graph and
    text encoders" is one phrase.
    """
    cuts = [i for i in range(start + 1, end - 1) if doc[i].lower_ in ("and", "or", ",")]
    if not cuts:
        return [(start, end)] if end > start else []
    pairs = zip([start] + [c + 1 for c in cuts], [*cuts, end], strict=True)
    parts = [(a, b) for a, b in pairs if b > a and doc[a].lower_ not in ("and", "or")]
    if all(doc[a].text[:1].isupper() or doc[a].text[:1].isdigit() for a, _ in parts):
        return parts
    return [(start, end)]


def _core(span: Span) -> Span:
    """The part of a span that names its entity: the long form of a definition."""
    parts = definition_parts(span)
    return parts[0] if parts else span


def _add_candidate(doc: Doc, start: int, end: int, label: str, source: str) -> None:
    # A phrase that starts or ends inside a hyphenated compound ("art" in "state-of-the-art") is
    # a fragment; a name stays a name ("AdamW" in "AdamW-trained").
    glued_left = start > 0 and doc[start - 1].text == "-" and not doc[start - 1].whitespace_
    glued_right = end < len(doc) and doc[end].text == "-" and not doc[end - 1].whitespace_
    if source in ("phrase", "concept", "word") and (glued_left or glued_right):
        return
    # A candidate is made of whole written words: the tokenizer splits "LLaMA60M" into
    # "LLaMA60" + "M", and the name is both.
    while start > 0 and _glued(doc[start - 1], doc[start]):
        start -= 1
    while end < len(doc) and _glued(doc[end - 1], doc[end]):
        end += 1
    # A version is part of a name: "LongBench-v2", "DOTA-v1.0", "KaLM-Embedding-V2".
    versioned = glued_right and end + 1 < len(doc) and not doc[end].whitespace_
    if versioned and VERSION.match(doc[end + 1].text):
        end += 2
    span = Span(doc, start, end, label=label, kb_id=source)
    doc.spans[CANDIDATES].append(span)


def _glued(left: Token, right: Token) -> bool:
    """Whether two neighbouring tokens are pieces of one written word: no space between them,
    and letters or digits on both sides (a hyphen, bracket or full stop is a boundary)."""
    return not left.whitespace_ and left.text[-1:].isalnum() and right.text[:1].isalnum()


def _ensure_group(doc: Doc) -> None:
    if CANDIDATES not in doc.spans:
        doc.spans[CANDIDATES] = []


# --------------------------------------------------------------------------- acronyms


@Language.factory(
    "kg_acronyms", assigns=["doc._.kg_acronyms", "doc.spans"], requires=["token.text"]
)
def make_acronyms(nlp: Language, name: str) -> AcronymFinder:
    return AcronymFinder()


class AcronymFinder:
    """Finds "long form (ACR)" and records ACR → long form; the long form becomes a candidate."""

    def __call__(self, doc: Doc) -> Doc:
        _ensure_group(doc)
        found: dict[str, str] = {}
        for close in doc:
            first = bracketed_acronym(doc, close.i) if close.text == ")" else None
            if first is None:
                continue
            tok = doc[first : close.i]  # the acronym: one token, or one word of several
            open_paren = first - 1
            sent_start = tok.sent.start if doc.has_annotation("SENT_START") else 0
            before = doc[max(sent_start, open_paren - 12) : open_paren]
            long_form = find_long_form(tok.text, before.text)
            if not long_form:
                continue
            start_char = (
                before.end_char - len(long_form) if before.text.endswith(long_form) else None
            )
            if start_char is None:
                continue
            span = doc.char_span(start_char, before.end_char, alignment_mode="expand")
            if span is None or len(span) == 0:
                continue
            found.setdefault(tok.text, span.text)
            # The candidate is the whole definition, "long form ( ACR )": it is one mention of
            # the entity (SciERC annotates it so too), and kg_mentions adds the acronym inside
            # it as a mention of its own so that other uses link to the long form.
            _add_candidate(doc, span.start, close.i + 1, UNKNOWN, "acronym")
        doc._.kg_acronyms = found
        return doc


# --------------------------------------------------------------------------- gazetteer


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

    Tokenising the ~19k gazetteer names was most of the pipeline's start-up (about 1 s, which
    an incremental build waits for), so the tokens are kept in the user cache folder, keyed by
    the names and the tokenizer (model name and version, spaCy version).
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

    A ``PhraseMatcher`` wants every pattern as a ``Doc``, and making the gazetteer's 19k Docs
    created a lexeme for each new word: 1.3 s of the pipeline's 2.2 s start-up, which an
    incremental build waits for. Unlike it, a span gets one match: the label added first wins
    (86 Papers with Code names are in two lists, "change detection" as a task and a dataset;
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
        # Building the tables from the 19k names took 0.1 s of every pipeline load (which an
        # incremental build waits for): they are kept in the user cache folder, keyed by all
        # they are made from, this file's code included.
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
        _ensure_group(doc)
        for matcher, source in (
            (self.exact, "gazetteer"),
            (self.lower, "gazetteer"),
            (self.curated, "lexicon"),
        ):
            for label, start, end in matcher(doc):
                src = source
                if label.endswith("!"):  # a curated entry matched as written
                    label, src = label[:-1], "lexicon"
                _add_candidate(doc, start, end, label, src)
        # "Pass@5", "Recall@10", "nDCG@20": a metric at a cut-off (one look at the text first:
        # most abstracts have no "@", and this runs on every token of a conference otherwise).
        for tok in doc if "@" in doc.text else ():
            if AT_K_METRIC.match(tok.text):
                _add_candidate(doc, tok.i, tok.i + 1, str(Label.METRIC), "lexicon")
        return doc


# --------------------------------------------------------------------------- rules


@Language.factory(
    "kg_rules",
    assigns=["doc.spans"],
    requires=["token.text", "token.tag"],
    default_config={"tasks": True, "concepts": False, "words": False},
)
def make_rules(nlp: Language, name: str, tasks: bool, concepts: bool, words: bool) -> PhraseRules:
    return PhraseRules(nlp, load_lexicon(), tasks=tasks, concepts=concepts, words=words)


class PhraseRules:
    """Coined names, "<Name> benchmark" datasets, task phrases and concept noun phrases.

    Phrase shapes use part-of-speech tags when the pipeline has a tagger; without one only the
    lexical rules (coined names, named datasets) run.
    """

    def __init__(
        self,
        nlp: Language,
        lexicon: Lexicon,
        tasks: bool = True,
        concepts: bool = True,
        words: bool = False,
    ) -> None:
        self.lexicon = lexicon
        self.enabled = {"task": tasks, "concept": concepts, "word": words}
        self.matcher = Matcher(nlp.vocab)
        coined = {"TEXT": {"REGEX": COINED.pattern}}
        # After a hyphen a name continues with a capital or a digit ("Qwen3-8B-Base", "GPT-4o");
        # "LLM-based", "RL-style" are a name plus an ordinary word.
        name_part = {"TEXT": {"REGEX": r"^(?:[A-Z0-9][A-Za-z0-9.+]*|v\d[\d.]*)$"}}
        hyphen = {"ORTH": {"IN": ["-", "/"]}}
        # "Qwen3-8B-Base", "MetaEmbed", "Youtu-GraphRAG" (the tokenizer splits on hyphens).
        self.matcher.add(
            "coined",
            [
                [coined],
                [coined, hyphen, name_part],
                [coined, hyphen, name_part, hyphen, name_part],
                [name_part, hyphen, coined],
                [name_part, hyphen, coined, hyphen, name_part],
            ],
        )
        dataset_heads = sorted(lexicon.dataset_heads | {h + "s" for h in lexicon.dataset_heads})
        titled = {
            # A letter at least: "18 benchmarks" counts them, it names none.
            "TEXT": {"REGEX": r"^(?=.*[A-Za-z])[A-Z0-9][A-Za-z0-9\-.+]+$"},
            "LOWER": {
                "NOT_IN": ["the", "this", "our", "a", "an", "these", "each", "every", "both"]
            },
        }
        # "Visual Document Retrieval Benchmark", "the MMEB benchmark", "Atari environments".
        self.matcher.add(
            "named_dataset",
            [
                [titled, {"LOWER": {"IN": dataset_heads}, "OP": "+"}],
                [titled, titled, {"LOWER": {"IN": dataset_heads}}],
                [titled, titled, titled, {"LOWER": {"IN": dataset_heads}}],
                [titled, titled, titled, titled, {"LOWER": {"IN": dataset_heads}}],
            ],
        )
        # Penn Treebank tags straight from the tagger: the attribute_ruler that maps them to
        # universal POS costs a fifth of the pipeline's time and kg needs nothing else from it.
        modifier = {"TAG": {"IN": ["JJ", "NN", "NNS", "NNP", "NNPS"]}}
        task_heads = {"LOWER": {"IN": sorted(lexicon.task_heads)}}
        noun = {"TAG": {"IN": ["NN", "NNS", "NNP", "NNPS"]}}
        optional: dict[str, list[list[dict[str, Any]]]] = {
            "task": [
                [modifier, task_heads],
                [modifier, modifier, task_heads],
                [modifier, {"ORTH": "-"}, modifier, task_heads],
                [modifier, modifier, modifier, task_heads],
            ],
            "concept": [
                [modifier, noun],
                [modifier, modifier, noun],
                [modifier, {"ORTH": "-"}, modifier, noun],
                [modifier, modifier, modifier, noun],
            ],
            # A single content noun ("retrieval", "embeddings") is a concept too: shared words
            # of this kind are much of what relates two abstracts (rare ones weigh more in kg
            # related).
            "word": [
                [
                    {
                        "TAG": {"IN": ["NN", "NNS"]},
                        "IS_ALPHA": True,
                        "IS_LOWER": True,
                        "LENGTH": {">=": 4},
                    }
                ]
            ],
        }
        # A rule switched off is not matched at all: the matcher's time grows with its matches
        # (the "word" rule, off by default, was an eighth of it).
        for rule, patterns in optional.items():
            if self.enabled[rule]:
                self.matcher.add(rule, patterns)
        self.has_tags = nlp.has_pipe("tagger")

    def _generic(self, span: Span) -> bool:
        words = [t.lower_ for t in span if t.is_alpha]
        generic = self.lexicon.generic_nouns
        if not words or all(w in generic or w.rstrip("s") in generic for w in words):
            return True
        head = span[-1].lower_
        first = span[0].lower_
        # "state-of-the-art methods", "novel approach", "this task": adjectives of praise and
        # generic heads make no entity.
        return (head in generic or head.rstrip("s") in generic) or first in {
            "novel",
            "new",
            "existing",
            "previous",
            "prior",
            "recent",
            "current",
            "various",
            "different",
            "several",
            "many",
            "most",
            "more",
            "other",
            "such",
            "same",
            "key",
            "significant",
            "strong",
            "extensive",
            "comprehensive",
            "effective",
            "efficient",
            "simple",
            "state",
            "further",
            "additional",
            "specific",
            "first",
            "second",
            "third",
        }

    def __call__(self, doc: Doc) -> Doc:
        _ensure_group(doc)
        tagged = self.has_tags and doc.has_annotation("TAG")
        for match_id, start, end in self.matcher(doc):
            rule = doc.vocab.strings[match_id]
            if not self.enabled.get(rule, True):
                continue
            span = doc[start:end]
            if rule == "coined":
                if span[0].is_sent_start and span[0].is_title and len(span) == 1:
                    continue  # "We", "In" at a sentence start are not names
                named_dataset = bool(DATASET_SUFFIX.search(span.text)) or (
                    end < len(doc) and doc[end].lower_.rstrip("s") in self.lexicon.dataset_heads
                )
                if named_dataset:
                    _add_candidate(doc, start, end, str(Label.DATASET), "named_dataset")
                else:
                    _add_candidate(doc, start, end, str(Label.METHOD), "coined")
            elif rule == "named_dataset":
                if span[0].is_sent_start and len(span) == 2 and not COINED.match(span[0].text):
                    continue
                if span[0].lower_ in {"the", "a", "this", "our"}:
                    continue
                _add_candidate(doc, start, end, str(Label.DATASET), "named_dataset")
            elif tagged and rule == "task" and not self._generic(span[:-1]):
                _add_candidate(doc, start, end, str(Label.TASK), "phrase")
            elif tagged and rule == "concept" and not self._generic(span):
                _add_candidate(doc, start, end, str(Label.CONCEPT), "concept")
            elif (
                tagged
                and rule == "word"
                and not span[0].is_stop
                and not self._generic(span)
                and singularize(span[0].lower_) not in self.lexicon.common_words
                and span[0].lower_ not in self.lexicon.common_words
            ):
                _add_candidate(doc, start, end, str(Label.CONCEPT), "word")
        return doc


# --------------------------------------------------------------------------- mentions + roles


@Language.factory(
    "kg_mentions",
    assigns=["doc._.kg_mentions"],
    requires=["doc.spans", "doc._.kg_acronyms"],
    default_config={"heads": True},
)
def make_mentions(nlp: Language, name: str, heads: bool) -> MentionSelector:
    return MentionSelector(load_lexicon(), heads=heads)


class MentionSelector:
    """Chooses the final mentions and their roles.

    ``doc._.kg_mentions`` becomes a list of plain dicts (they survive multiprocessing):
    ``start``/``end`` (characters), ``text``, ``label``, ``role``, ``canonical`` (the surface
    form of the entity it names: the long form for an acronym), ``sent_start``/``sent_end``,
    ``source``, ``confidence``.
    """

    def __init__(self, lexicon: Lexicon, heads: bool = True) -> None:
        self.lexicon = lexicon
        self.heads = heads
        self.cue_stems = tuple(c.rstrip("e") for c in lexicon.proposal_cues if " " not in c) + (
            "built",
        )

    # -- typing -----------------------------------------------------------------
    def classify(self, text: str) -> Label:
        """Type of a phrase from its head noun and its shape (used for acronym long forms)."""
        words = text.replace("-", " ").split()
        head = words[-1].lower() if words else ""
        head_singular = head[:-1] if head.endswith("s") and not head.endswith("ss") else head
        lex = self.lexicon
        if head_singular in lex.dataset_heads:
            return Label.DATASET
        if head in lex.task_heads or head_singular in lex.task_heads:
            return Label.TASK
        if any(text.lower() == m.lower() for m in lex.metric_terms) or head_singular in {
            "score",
            "rate",
            "error",
            "accuracy",
            "distance",
            "divergence",
        }:
            return Label.METRIC
        titled = sum(1 for w in words if PROPN_LIKE.match(w)) >= max(1, len(words) - 1)
        if titled or COINED.match(text):
            return Label.METHOD
        strong_method = {
            "network",
            "transformer",
            "encoder",
            "decoder",
            "autoencoder",
            "optimizer",
            "optimization",
            "algorithm",
            "distillation",
            "regularization",
            "prompting",
            "normalization",
            "descent",
            "attention",
            "fine-tuning",
            "adaptation",
            "tuning",
        }
        if head_singular in strong_method:
            return Label.METHOD
        return Label.CONCEPT

    # -- selection --------------------------------------------------------------
    def _select(self, doc: Doc) -> list[Span]:
        cands = list(doc.spans[CANDIDATES]) if CANDIDATES in doc.spans else []
        # Highest priority first, then longest, then leftmost: deterministic greedy cover.
        cands.sort(
            key=lambda s: (-PRIORITY.get(s.kb_id_, 0), -(s.end - s.start), s.start, s.label_)
        )
        taken = [False] * len(doc)
        chosen: list[Span] = []
        for s in cands:
            if any(taken[s.start : s.end]) or self._common_word(s):
                continue
            label = s.label_
            if label == UNKNOWN:
                label = self._vote(_core(s), cands) or str(self.classify(_core(s).text))
            label = self.retype(s, label)
            for i in range(s.start, s.end):
                taken[i] = True
            chosen.append(Span(doc, s.start, s.end, label=label, kb_id=s.kb_id_))
        chosen.extend(listed_names(doc, chosen, taken))
        chosen.sort(key=lambda s: s.start)
        return chosen

    def _common_word(self, span: Span) -> bool:
        """A lone lower-case word that most abstracts use ("training", "images", "reward") is
        not an entity, whatever typed it."""
        if len(span) != 1 or span.kb_id_ not in {"model", "phrase"} or not span[0].is_lower:
            return False
        word = span[0].lower_
        lex = self.lexicon
        return any(
            w in lex.common_words or w in lex.generic_nouns for w in (word, singularize(word))
        )

    def retype(self, span: Span, label: str) -> str:
        """Corrects a type from the phrase itself: the head noun decides ("micro-expression
        recognition" is a task, "X benchmark" a dataset) and a coined name is not a concept."""
        span = _core(span)
        head = span[-1].lower_
        singular = singularize(head)
        if singular in self.lexicon.dataset_heads and len(span) > 1:
            return str(Label.DATASET)
        is_task_head = head in self.lexicon.task_heads or singular in self.lexicon.task_heads
        changeable = label in (str(Label.METHOD), str(Label.CONCEPT)) and not span[0].is_stop
        if is_task_head and len(span) > 1 and changeable:
            return str(Label.TASK)
        if label == str(Label.CONCEPT) and len(span) == 1 and COINED.match(span.text):
            return str(Label.METHOD)
        return label

    @staticmethod
    def _vote(span: Span, cands: list[Span]) -> str | None:
        # A long form that a gazetteer or the model also typed takes that type.
        votes = Counter(
            c.label_
            for c in cands
            if c.label_ != UNKNOWN
            and c.kb_id_ in {"gazetteer", "model"}
            and c.start >= span.start
            and c.end <= span.end
            and c.end == span.end
        )
        return votes.most_common(1)[0][0] if votes else None

    # -- roles --------------------------------------------------------------------
    def _dataset_cue(self, sent: Span) -> bool:
        heads = self.lexicon.dataset_heads
        return any(t.lower_ in heads or singularize(t.lower_) in heads for t in sent)

    def _proposal_starts(self, sent: Span) -> list[int]:
        """Token indices right after a proposal cue in this sentence ("we propose|X")."""
        starts = []
        lowers = [t.lower_ for t in sent]
        has_subject = (
            any(w in {"we", "our"} for w in lowers)
            or "this paper" in sent.text.lower()
            or "this work" in sent.text.lower()
        )
        for t in sent:
            w = t.lower_
            if has_subject and w.startswith(self.cue_stems) and t.is_alpha:
                nxt = t.nbor(1) if t.i + 1 < len(t.doc) else None
                if nxt is not None and nxt.lower_ == "to":
                    continue  # "we propose to use X": X is used, not proposed
                starts.append(t.i + 1)
            elif w in {"called", "named", "dubbed", "termed", "coined"} and has_subject:
                starts.append(t.i + 1)
        return starts

    @staticmethod
    def _object_of_cue(doc: Doc, cue_end: int, start: int) -> bool:
        """Whether a mention starting at token ``start`` is the object of the proposal cue that
        ends at ``cue_end``: only determiners, modifiers and a description in apposition stand
        between them ("we propose a novel FooNet", "we build the first X dataset, FooSet"), no
        preposition, verb, relative or bracket ("we propose a new analysis of ReLU networks",
        "we propose a fix, which beats PPO")."""
        between = doc[cue_end:start]
        if (
            between
            and between[0].is_title
            and all(t.is_title or t.is_upper or t.lower_ in _IN_A_NAME for t in between)
        ):
            return True  # a name under way: "we propose Code Driven Planning with FooSelector"
        return not any(_ends_object(t) for t in between)

    @staticmethod
    def _after_our(doc: Doc, sent_start: int, t: int) -> bool:
        """Whether token ``t`` follows "our", directly or after a description in apposition
        ("our FooNet", "our first technique, AskLLM", "leading to our method, FooNet"; not "our
        results on GSM8K", nor "In our experiments, GPT-4 ...", where it is a circumstance)."""
        apposed = False  # a comma or dash between: "our <description>, NAME"
        for i in range(t - 1, max(sent_start, t - 6) - 1, -1):
            w = doc[i]
            if w.lower_ == "our":
                # "In our experiments, GPT-4 ...": a sentence that opens with "<prep> our X,"
                opener = i - 1 >= sent_start and doc[i - 1].tag_ == "IN"
                opener = opener and (i - 1 == sent_start or doc[i - 2].is_punct)
                return not (apposed and opener)
            if _ends_object(w):
                return False
            apposed = apposed or w.text in _APPOSED  # (not the hyphen of "4-bit")
        return False

    @staticmethod
    def _names_of_object(
        doc: Doc, obj: dict[str, Any], cue_end: int, mentions: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The names a proposal cue's object gives: the object itself when it is a name ("we
        propose GRPO", "Group Relative Policy Optimization", and "we propose Directo": a
        capitalised word right after the cue; "the local Bayesian influence function (BIF)": it
        defines an acronym), a name at either end of it ("the DenseWarper
        model", "an agentic workflow EvidenceLoop"), and, when it is no name, a name right
        after it ("a novel cache eviction method, DefensiveKV"; "a dataset: FooSet")."""

        def name(m: dict[str, Any]) -> bool:
            return (
                m["source"] in ("acronym", "defined")
                or is_name_like(m["text"])
                or is_name_like(m["canonical"])
            )

        start, end = obj["start"], obj["end"]
        own = (
            name(obj)
            or (obj["token"] == cue_end and obj["text"][:1].isupper() and " " not in obj["text"])
            # ... or it defines an acronym for itself: "we propose the local Bayesian influence
            # function (BIF)" names what it introduces.
            or (
                obj["text"].endswith(")")
                and any(
                    m["source"] == "defined" and start <= m["start"] and m["end"] <= end
                    for m in mentions
                )
            )
        )
        names = [obj] if own else []
        text = doc.text  # (spaCy joins the tokens again on every access)
        for m in mentions:
            inside = start <= m["start"] and m["end"] <= end
            near = not own and 0 <= m["start"] - end <= 3
            if m is obj or not (inside or near) or not name(m):
                continue
            if inside:
                # ... at its start or end, the rest of it lower-case words that say what kind
                # of thing the name is ("model", "agentic workflow"; not the "Pusa" of "Pusa
                # V1.0"), and not what the object is about ("a principled formulation of AT")
                rest = text[start : m["start"]] + text[m["end"] : end]
                at_edge = (
                    # a whole word of it: not the "KV" of "KV-cache management strategy"
                    (
                        (m["start"] == start and text[m["end"] : m["end"] + 1] == " ")
                        or (m["end"] == end and text[m["start"] - 1 : m["start"]] == " ")
                    )
                    and rest.strip(" -") != ""
                    and not any(c.isupper() for c in rest)
                    and doc[m["token"] - 1].tag_ not in _NOT_IN_AN_OBJECT
                )
                if at_edge:
                    names.append(m)
            elif text[end : m["start"]].strip() in _APPOSITION:  # beside it
                names.append(m)
        return names

    def __call__(self, doc: Doc) -> Doc:
        acronyms: dict[str, str] = doc._.kg_acronyms or {}
        chosen = self._select(doc)
        long_label: dict[str, str] = {}
        # A definition "long form ( ACR )" is one mention named by its long form; the acronym
        # inside it is a mention of its own (source "defined", derived like "nested"), which
        # tells entity resolution that ACR names the long form's entity in every paper.
        named: dict[tuple[int, int], str] = {}  # a definition span's tokens -> its entity's name
        extra = []
        for span in chosen:
            parts = definition_parts(span)
            if parts is None:
                for short, long_form in acronyms.items():
                    if span.text == long_form:
                        long_label[short] = span.label_
                continue
            long_span, inner = parts
            if inner.text in acronyms and long_span.text.endswith(acronyms[inner.text]):
                long_label[inner.text] = span.label_
                named[span.start, span.end] = acronyms[inner.text]
            else:  # "X ( Y )" that is no definition of Y: two names
                named[span.start, span.end] = long_span.text
            extra.append(Span(doc, inner.start, inner.end, label=span.label_, kb_id="defined"))
        mentions: list[dict[str, Any]] = []
        covered = [False] * len(doc)
        for span in chosen:
            for i in range(span.start, span.end):
                covered[i] = True
        # Every use of a defined acronym is a mention of its long form's entity.
        for tok in doc:
            acr = defined_acronym(tok.text, acronyms)
            if acr and not covered[tok.i] and acr in long_label:
                extra.append(Span(doc, tok.i, tok.i + 1, label=long_label[acr], kb_id="acronym"))
        # A known name inside a longer phrase ("AdamW" in "AdamW-trained baselines") is a mention
        # of its own: the phrase stays as the recogniser found it, the name links the paper to
        # the method. Marked source="nested" (SciERC's flat gold has no nested mentions).
        names = (
            [c for c in doc.spans[CANDIDATES] if c.kb_id_ in NAME_SOURCES and c.label_ != UNKNOWN]
            if CANDIDATES in doc.spans
            else []
        )
        for span in chosen:
            if span.kb_id_ in NAME_SOURCES or span.kb_id_ == "acronym":
                continue  # a name is not split into smaller names
            for c in names:
                inside = span.start <= c.start and c.end <= span.end and c.end - c.start < len(span)
                # A lower-case word of the phrase's own type is part of it, not a name in it
                # ("accuracy" in "top-1 accuracy"; "community detection" stays nested).
                if c.label_ == span.label_ and len(c) == 1 and c.text.islower():
                    continue
                if (
                    inside
                    and not in_compound(doc, c.start, c.end)  # "INO" or "SGD" of "INO-SGD"
                    and not any(e.start == c.start and e.end == c.end for e in extra)
                ):
                    extra.append(Span(doc, c.start, c.end, label=c.label_, kb_id="nested"))
        # The head noun of a multi-word task or concept is a broader concept the paper also
        # talks about ("multimodal retrieval" -> "retrieval"); it links papers that phrase the
        # same thing differently. Marked source="head" so evaluation can leave it out.
        for span in chosen if self.heads else []:
            core = _core(span)
            head = core[-1]
            if (
                len(core) > 1
                and span.label_ in (str(Label.TASK), str(Label.CONCEPT))
                and head.is_lower
                and head.is_alpha
                and len(head) >= 4
                and head.lower_ not in self.lexicon.generic_nouns
                and head.lower_ not in self.lexicon.common_words
                and singularize(head.lower_) not in self.lexicon.common_words
                and head.lower_.rstrip("s") not in self.lexicon.generic_nouns
                and not in_compound(doc, head.i, head.i + 1)  # "thought" of "chain-of-thought"
            ):
                extra.append(Span(doc, head.i, head.i + 1, label=str(Label.CONCEPT), kb_id="head"))
        spans = sorted(chosen + extra, key=lambda s: (s.start, -(s.end - s.start)))
        for span in spans:
            if cited_author(doc, span.start, span.end) or not any(c.isalpha() for c in span.text):
                continue  # "Li and Lan (2025)", "et al." cite people; "18" names nothing
            # Half an aside is no part of a name ("AE)-based", "T2I-ReasonBench(+3.7"): keep
            # what comes before it, or nothing when that is not a word.
            text = balanced_prefix(span.text)
            if text != span.text and sum(c.isalnum() for c in text) < 2:
                continue
            # At a sentence's end (or before a capitalised word: a boundary the splitter
            # missed), the tokenizer may leave the full stop on "GSM8K." or "7B.".
            sentence_end = (
                span.end == len(doc)
                or doc[span.end].is_sent_start
                or doc[span.end].text[:1].isupper()
            )
            if sentence_end and text.endswith(".") and text[-2:-1].isalnum():
                text = text[:-1]
            acr = defined_acronym(text, acronyms)
            if acr and acr in long_label:
                canonical, label = acronyms[acr], long_label[acr]
            else:
                canonical = named.get((span.start, span.end)) or without_acronym_asides(
                    span, text, acronyms
                )
                label = span.label_
            sent = span.sent if doc.has_annotation("SENT_START") else doc[:]
            mention: dict[str, Any] = {
                "start": span.start_char,
                "end": span.start_char + len(text),
                "text": text,
                "label": label,
                "role": str(DEFAULT_ROLE[Label(label)]),
                "canonical": canonical,
                "sent_start": sent.start_char,
                "sent_end": sent.end_char,
                "source": span.kb_id_,
                "confidence": 1.0 if span.kb_id_ in {"gazetteer", "acronym"} else 0.8,
                "token": span.start,
            }
            # Entity resolution keeps a task that one abstract names once when it is a noun
            # compound (kept off the others: most mentions are no tasks, and the cache is smaller).
            if label == str(Label.TASK) and noun_compound(doc, span.start, span.end):
                mention["compound"] = True
            mentions.append(mention)
        self._assign_roles(doc, mentions)
        for m in mentions:
            del m["token"]
        doc._.kg_mentions = mentions
        return doc

    def _assign_roles(self, doc: Doc, mentions: list[dict[str, Any]]) -> None:
        sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
        proposed: set[str] = set()
        relabel: dict[str, str] = {}
        for sent in sents:
            for cue_end in self._proposal_starts(sent):
                # The cue's object, the first mention within a few tokens after it, is the
                # contribution when it is a name; when it is not ("we propose a new analysis
                # of ReLU networks"), nothing is, not the next name in the sentence, unless the
                # object is written around a name or beside one (:meth:`_names_of_object`).
                for m in mentions:
                    if not cue_end <= m["token"] < min(sent.end, cue_end + 8):
                        continue
                    if m["label"] == str(Label.TASK):
                        continue
                    if not self._object_of_cue(doc, cue_end, m["token"]):
                        break  # "we propose a simple fix, which beats PPO": PPO is no object
                    for n in self._names_of_object(doc, m, cue_end, mentions):
                        key = n["canonical"].lower()
                        proposed.add(key)
                        if n["label"] in (str(Label.CONCEPT), str(Label.TASK)):
                            relabel[key] = str(Label.METHOD)  # a proposed technique is a method
                        elif n["label"] == str(Label.DATASET) and not self._dataset_cue(sent):
                            # "we propose FooNet, a sparse encoder": a contribution is a
                            # dataset only when the sentence says benchmark/dataset/corpus...
                            relabel[key] = str(Label.METHOD)
                    break
            # "our X" where X is a name, or a name beside "our <description>" ("Our first
            # technique, AskLLM"): the paper's own contribution.
            for m in mentions:
                t = m["token"]
                if (
                    sent.start <= t < sent.end
                    and COINED.match(m["text"])
                    and self._after_our(doc, sent.start, t)
                ):
                    proposed.add(m["canonical"].lower())
        for m in mentions:
            key = m["canonical"].lower()
            if key in proposed:
                m["role"] = str(Rel.PROPOSES)
            if key in relabel:
                m["label"] = relabel[key]


#: Penn Treebank tags that end a proposal cue's object before a mention: prepositions,
#: conjunctions, relatives and finite verbs ("we propose a new analysis of ReLU networks").
_NOT_IN_AN_OBJECT = frozenset({"IN", "CC", "TO", "WDT", "WP", "MD", "VBD", "VBP", "VBZ"})
#: Lower-case words inside a capitalised name ("Code Driven Planning with Domain-Adaptive
#: SeleCtor", "Learning to Defer", "Chain of Thought").
_IN_A_NAME = frozenset({"with", "of", "for", "and", "the", "in", "on", "to", "via", "-"})
#: What may stand between a description and the name it describes: "a novel method, FooNet",
#: "a new benchmark: FooBench", "a method—FooNet", "an agentic workflow EvidenceLoop".
_APPOSITION = frozenset({"", ",", ":", "-", "—", "–"})
_APPOSED = frozenset({",", ":", "—", "–"})


def _ends_object(t: Token) -> bool:
    """Whether a token between a cue (or "our") and a name ends the phrase before the name: a
    bracket or full stop, a preposition, conjunction, relative or finite verb."""
    return (t.is_punct and t.text not in _APPOSITION) or t.tag_ in _NOT_IN_AN_OBJECT


# --------------------------------------------------------------------------- trained model

#: SciERC's entity types → kg's (Generic is SciERC's "this method"-style reference: dropped).
SCIERC_TO_KG = {
    "Method": Label.METHOD,
    "Task": Label.TASK,
    "Material": Label.DATASET,
    "Metric": Label.METRIC,
    "OtherScientificTerm": Label.CONCEPT,
}


@Language.factory(
    "kg_trained_ner",
    assigns=["doc.spans"],
    requires=["token.text"],
    default_config={"path": "", "retyper": str(RETYPER_MODEL), "recovery": str(RECOVERY_MODEL)},
)
def make_trained_ner(
    nlp: Language, name: str, path: str, retyper: str, recovery: str
) -> TrainedRecognizer:
    return TrainedRecognizer(nlp, path, retyper, recovery)


BARE_TOKENIZER = "kg.bare_tokenizer.v1"


@registry.tokenizers(BARE_TOKENIZER)
def make_bare_tokenizer() -> Any:
    """A tokenizer with no rules of its own: for a pipeline that never tokenizes (kg's
    recogniser), or one whose rules its ``from_disk`` loads in full anyway (the base model,
    :func:`kg.extract.pipeline.load_base`)."""
    from spacy.tokenizer import Tokenizer

    return lambda nlp: Tokenizer(nlp.vocab)


class TrainedRecognizer:
    """Runs the shipped entity recogniser (trained on SciERC, see ``kg train``) and adds its
    entities as candidates. It shares the pipeline's vocabulary, so its labels are our strings.

    ``retyper``: a span re-typer model (:mod:`kg.extract.retyper`, ``kg train retyper``). It
    decides the type of each recognised span again, or drops the span, before the span becomes
    a candidate: +5 points of F1 on SciERC dev. It is disabled when the file does not exist
    (or the path is empty).

    ``recovery``: the noun-phrase model (same format, :func:`kg.extract.retyper.noun_phrases`).
    It picks entities among the noun phrases outside the recogniser's spans: +0.7 on SciERC dev.
    Used only with the re-typer, and disabled the same way.
    """

    def __init__(self, nlp: Language, path: str, retyper: str = "", recovery: str = "") -> None:
        import spacy

        # Its own tokenizer is never used (the host pipeline's tokenizes): neither loading
        # its special cases nor making the English defaults' (4,000 of them) saves 0.15 s,
        # which an incremental build waits for. Nor are its strings: it reads tokens by their
        # hashes, and its labels come with its moves. Loading its 80k strings into the shared
        # vocab re-added the 80k there one by one (0.05 s).
        self.model = spacy.load(
            path,
            vocab=nlp.vocab,
            exclude=["tokenizer", "strings"],
            config={"nlp": {"tokenizer": {"@tokenizers": BARE_TOKENIZER}}},
        )
        self.retyper: Retyper | None = None
        self.recovery: Retyper | None = None
        if retyper and Path(retyper).is_file():
            # The recogniser leaves its token vectors on each doc for the re-typer, which
            # pops them (a doc must not carry them into kg_mentions or another process).
            self.retyper = Retyper.attach(self.model.get_pipe("ner"), retyper)
            if recovery and Path(recovery).is_file():
                self.recovery = Retyper.load(recovery, ner=self.model.get_pipe("ner"))

    def _recovered(
        self, doc: Doc, found: list[Span], words_tags: tuple[list[str], list[str]] | None = None
    ) -> list[tuple[int, int, str]]:
        """Entities among the noun phrases outside the recogniser's spans (``recovery``)."""
        if self.recovery is None:
            return []
        words, tags = words_tags or words_and_tags(doc)
        phrases = noun_phrases(tags, [(sp.start, sp.end) for sp in found])
        tokvecs = doc.user_data.get(TOKVEC_KEY)
        return self.recovery.retype_tokens(words, tags, phrases, tokvecs)

    def _collect(self, doc: Doc) -> Doc:
        _ensure_group(doc)
        if self.retyper is not None:
            found = list(doc.ents)
            words_tags = words_and_tags(doc)
            # Before retype(), which takes the token vectors off the doc.
            recovered = self._recovered(doc, found, words_tags)
            doc.ents = self.retyper.retype(doc, found, words_tags) + [
                Span(doc, s, e, label=label) for s, e, label in recovered
            ]
        for ent in doc.ents:
            label = SCIERC_TO_KG.get(ent.label_)
            if label is None:
                continue
            start, end = ent.start, ent.end
            first = doc[start]
            if (first.like_num and not first.is_alpha) or first.text in SIGNS:
                continue  # "+0.46 dB increase in PSNR" is a result, not an entity
            if MULTIPLIER.match(first.text):
                continue  # "10x faster sampling", "2.5× speedup": a result too
            # "long form ( ACR )" stays whole (kg_mentions makes ACR a mention of its own), but
            # "set-coverage metric ( OVERTONSCORE )" or "average ( 1 )" is a phrase and a
            # bracketed aside: the aside is a name of its own, or nothing (a number).
            if (
                end - start >= 4
                and doc[end - 1].text == ")"
                and doc[end - 3].text == "("
                and not is_acronym(doc[end - 2].text)
            ):
                if not doc[end - 2].like_num and doc[end - 2].is_alpha:
                    _add_candidate(doc, end - 2, end - 1, str(label), "model")
                end -= 3
            # An unbalanced bracket means the span ran into (or out of) a parenthesis: keep the
            # part before it ("GHOST (Generating Hallucinations" -> "GHOST").
            opened = [t.i for t in doc[start:end] if t.text == "("]
            if opened and not any(t.text == ")" for t in doc[opened[0] : end]):
                end = opened[0]
            # "named Extended Rotary Position Embedding": the naming cue is no part of the name;
            # nor is a comparison ("lower language modeling perplexity", "higher accuracy").
            while end - start > 1 and (
                doc[start].lower_ in NAMING_CUES or doc[start].tag_ in COMPARATIVE_TAGS
            ):
                start += 1
            # A full stop on a word followed by a capitalised one is a sentence boundary the
            # splitter missed ("termed CHTsL. The method"): the span ends there.
            end = next(
                (
                    t.i + 1
                    for t in doc[start : end - 1]
                    if len(t) > 1 and t.text.endswith(".") and doc[t.i + 1].text[:1].isupper()
                ),
                end,
            )
            # A finite verb ends a noun phrase: "REPO preserve entropy" ran into its clause.
            end = next((t.i for t in doc[start + 1 : end] if t.tag_ in FINITE_VERB_TAGS), end)
            while end > start + 1 and doc[end - 1].tag_ in DANGLING_TAGS:  # "FineWeb-Edu and"
                end -= 1
            # Two names joined by "and"/"or" are two names ("Llama-3 and Qwen2.5-7B").
            for part_start, part_end in split_coordinated_names(doc, start, end):
                _add_candidate(doc, part_start, part_end, str(label), "model")
        doc.ents = []
        return doc

    def __call__(self, doc: Doc) -> Doc:
        return next(iter(self.pipe([doc], batch_size=1)))

    def pipe(self, docs: Any, batch_size: int = 32) -> Any:
        for name, proc in self.model.pipeline:
            if name == "ner":  # decoded in numpy: spaCy's own loop spends most of its time locking
                docs = ner_decode.pipe(proc, docs, batch_size)
            elif hasattr(proc, "pipe"):
                docs = proc.pipe(docs, batch_size=batch_size)
            else:
                docs = map(proc, docs)
        for doc in docs:
            yield self._collect(doc)
