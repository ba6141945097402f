"""Token-span helpers the extraction components share: the candidate group, acronym
definitions inside a span, written words and compounds, citations, coordinated names and lists.

Every component puts what it finds into the span group ``doc.spans["kg_candidates"]``
(:func:`add_candidate`); a span's ``kb_id_`` names its source, which sets its priority when
candidates overlap (:data:`PRIORITY`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from spacy.tokens import Doc, Span, Token

from kg.extract.lexicon import read_data_lines
from kg.extract.long_forms import SKIPPED_WORDS, is_acronym

#: A mention as ``kg_mentions`` writes it: text, label, role, character offsets, source ...
Mention = dict[str, Any]
#: A mention as an argument of a relation or a claim: its first token, its end token, itself.
Arg = tuple[int, int, Mention]

CANDIDATES = "kg_candidates"

#: Source priority when candidates overlap (higher wins, then the longer span). The trained
#: recogniser decides span boundaries where it fires: it learnt them from annotated abstracts,
#: and a rule or list on top of it cuts good spans short (the curated metric list made "average
#: precision" "precision"; docs/extraction-quality.md, "From the recogniser to kg's full
#: extractor"). Rules fill in what it misses. Only a named dataset outranks it: the recogniser
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
#: A token that is a figure: "26.8", "+1.6", "479M", "2x", "2019" (not "3D", "S6" or "Second").
FIGURE = re.compile(r"^[+\-−±~≈]?\d[\d.,]*(?:[%×xKMBTkmbt])?$")
#: Participles that introduce a name ("a method named X", "dubbed X"): ``naming_cues.txt``.
NAMING_CUES = frozenset(read_data_lines("naming_cues.txt"))
#: Penn tags of comparatives and superlatives ("lower", "best", "more").
COMPARATIVE_TAGS = frozenset({"JJR", "JJS", "RBR", "RBS"})
#: Penn tags of finite verbs and modals, which no entity name holds.
FINITE_VERB_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})
#: Penn tags of a word that opens a clause: verbs, relatives, modals, "to".
CLAUSE_TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "WDT", "WP", "MD", "TO"})
#: Verbs the tagger reads as plural nouns after a name ("X surpasses"): verbs_after_names.txt.
VERBS_AFTER_NAMES = frozenset(read_data_lines("verbs_after_names.txt"))
#: Penn tags a phrase cannot end with: a conjunction, a determiner, a preposition, a comma or
#: a colon ("Fashion-MNIST," of a list).
DANGLING_TAGS = frozenset({"CC", "DT", "IN", "TO", ",", ":"})
#: Penn tags of the words a noun compound is made of ("lesion recognition", "3D segmentation").
NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS", "CD"})
#: Mention sources derived from another mention (a phrase's head noun, a name nested inside a
#: phrase, the acronym inside its definition). They overlap the mention they come from, so a
#: flat gold standard (SciERC) cannot score them: evaluation leaves them out.
DERIVED_SOURCES = frozenset({"head", "nested", "defined"})
#: Sources whose candidates are names (a name inside a longer chosen phrase is kept, nested).
NAME_SOURCES = {"gazetteer", "coined", "named_dataset", "lexicon"}

#: Adverbs that belong to the participle after them: "fully connected" (``compound_adverbs.txt``).
COMPOUND_ADVERBS = frozenset(read_data_lines("compound_adverbs.txt"))
#: Tags of a participle or adjective that a compound adverb can modify.
MODIFIER_TAGS = frozenset({"VBN", "JJ"})


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


def reverse_definition_parts(span: Span, acronyms: dict[str, str]) -> tuple[Span, Span] | None:
    """``(long form, acronym)`` of a span shaped "ACR ( long form )" where the abstract defines
    ACR so (``acronyms``, :mod:`kg.extract.acronyms`): "ATTS (Asynchronous Test-Time Scaling)"
    names one entity, as "Asynchronous Test-Time Scaling (ATTS)" does."""
    if len(span) < 4 or span[-1].text != ")":
        return None
    doc = span.doc
    last = min(span.end - 2, span.start + 1 + _MAX_ACRONYM_TOKENS)
    for open_paren in range(span.start + 1, last):
        if doc[open_paren].text == "(":
            acronym, long_form = doc[span.start : open_paren], doc[open_paren + 1 : span.end - 1]
            if acronyms.get(acronym.text) == long_form.text:
                return long_form, acronym
            return None
    return None


#: The kinds of method a proposed name's definition may be followed by
#: (``definition_kinds.txt``), and the verbs that propose it (``proposal_cues.txt``).
_DEFINITION_KINDS = frozenset(read_data_lines("definition_kinds.txt"))
_PROPOSING = tuple(
    cue.rstrip("e") for cue in read_data_lines("proposal_cues.txt") if " " not in cue
)
#: How many tokens a proposal verb may come before the name it proposes.
_PROPOSAL_REACH = 8


def proposed_definition_asides(span: Span, acronyms: dict[str, str]) -> list[Span]:
    """The acronym a paper defines inside ``span`` for what it proposes, where the kind of
    method follows the brackets: "we propose a novel Neural Adaptive Binning ( NAB ) method"
    defines NAB as "Neural Adaptive Binning ( NAB )" does. Only a name in capitals, before a
    singular kind of method (``definition_kinds.txt``), after a proposal verb:
    "out-of-distribution (OOD) detection" and "Vision-Language-Action (VLA) models" name the
    whole phrase, and a definition in passing may mean something else in another paper.

    >>> import spacy
    >>> doc = spacy.blank("en")("We propose a novel Neural Adaptive Binning (NAB) method for CT")
    >>> [a.text for a in proposed_definition_asides(doc[4:11], {"NAB": "Neural Adaptive Binning"})]
    ['NAB']
    >>> doc = spacy.blank("en")("Prior work uses the Neural Adaptive Binning (NAB) method")
    >>> proposed_definition_asides(doc[4:], {"NAB": "Neural Adaptive Binning"})
    []
    """
    doc = span.doc
    if span[-1].lower_ not in _DEFINITION_KINDS or span.end - span.start < 5:
        return []
    close = span.end - 2
    first = bracketed_acronym(doc, close)
    if first is None or first - 1 <= span.start:
        return []
    acronym = doc[first:close]
    long_form = acronyms.get(acronym.text)
    if not long_form or not doc[span.start : first - 1].text.endswith(long_form):
        return []
    words = [w for w in long_form.split() if w.lower() not in SKIPPED_WORDS]
    if len(words) < 2 or not all(w[:1].isupper() for w in words):
        return []
    sent_start = span.sent.start if doc.has_annotation("SENT_START") else 0
    before = doc[max(sent_start, span.start - _PROPOSAL_REACH) : span.start]
    return [acronym] if any(t.lower_.startswith(_PROPOSING) for t in before) else []


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


def by_sentence(args: Sequence[Arg], sentence_of: Sequence[int]) -> dict[int, list[Arg]]:
    """``args`` by the first token of their sentence (``sentence_of``: each token's), in text
    order."""
    out: dict[int, list[Arg]] = {}
    for arg in args:
        out.setdefault(sentence_of[arg[0]], []).append(arg)
    return out


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
    """Whether tokens ``start:end`` name the author of a cited paper: one capitalised word, or
    two joined by "and"/"&", before "et al.", "(YEAR)" or ", YEAR)": "Zhang (2020)", "Park et
    al.", "Li and Lan (2025)" (both names), "(Ioffe & Szegedy, 2015)", "Hochreiter &
    Schmidhuber (1997)".

    Why: abstracts cite a few papers by author (ICLR 2026: "et al." in 51 abstracts, ICLR 2018:
    in 45), and a surname is no method or dataset.
    """
    span = doc[start:end]
    if len(span) == 3 and span[1].lower_ in _AUTHOR_JOINS:  # "Hochreiter & Schmidhuber"
        names = [span[0], span[2]]
    elif len(span) == 1:
        names = [span[0]]
    else:
        return False
    if not all(_surname(t) for t in names):
        return False

    def cites(i: int) -> bool:  # tokens from i on are "(YEAR", ", YEAR)", ", YEAR;" or "et al"
        nxt = [t.text for t in doc[i : i + 3]]
        if len(nxt) >= 2 and nxt[0] == "(" and _YEAR.match(nxt[1]):
            return True
        if len(nxt) == 3 and nxt[0] == "," and _YEAR.match(nxt[1]) and nxt[2] in (")", ";"):
            return True
        # (spaCy's English tokenizer splits "al." into "al" and ".")
        return nxt[:1] == ["et"] and nxt[1:2] in (["al"], ["al."])

    if cites(end):
        return True
    # The first of two authors: "Li and Lan (2025)".
    joined = end + 1 < len(doc) and doc[end].lower_ in _AUTHOR_JOINS and _surname(doc[end + 1])
    return joined and cites(end + 2)


#: The words between two authors of a cited paper.
_AUTHOR_JOINS = frozenset({"and", "&"})


def _surname(token: Token) -> bool:
    return token.is_title and token.is_alpha


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


def coordinated(doc: Doc, ends: dict[int, int], j: int) -> list[int]:
    """The first tokens of the members of the list that starts at token ``j``, given where each
    candidate member ends (``ends``: first token → end token): commas between the members,
    "and" or "or" before the last ("MMLU, GSM8K, and MATH500").

    >>> import spacy
    >>> doc = spacy.blank("en")("On MMLU, GPQA and MATH it wins.")
    >>> coordinated(doc, {1: 2, 3: 4, 5: 6}, 1)  # MMLU, GPQA, MATH
    [1, 3, 5]
    """
    members, last = [], False
    while j in ends:
        members.append(j)
        j = ends[j]
        if last:
            break
        comma = j < len(doc) and doc[j].text == ","
        j += comma
        if j < len(doc) and doc[j].lower_ in ("and", "or"):
            j, last = j + 1, True
        elif not comma:
            break
    return members


def named_part(span: Span) -> Span:
    """The part of a span that names its entity: the long form of a definition."""
    parts = definition_parts(span)
    return parts[0] if parts else span


def add_candidate(doc: Doc, start: int, end: int, label: str, source: str) -> None:
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
    # "fully connected layers": the adverb is part of the modifier it comes before.
    if start > 0 and doc[start].tag_ in MODIFIER_TAGS and doc[start - 1].lower_ in COMPOUND_ADVERBS:
        start -= 1
    # A version is part of a name: "LongBench-v2", "DOTA-v1.0", "KaLM-Embedding-V2".
    versioned = glued_right and end + 1 < len(doc) and not doc[end].whitespace_
    if versioned and VERSION.match(doc[end + 1].text):
        end += 2
    # ... and so is a written-on part that is a name too: a name found inside a longer one is
    # that one's parent, not it ("OSWorld-MCP", "JudgeBench-Pro", "CareBench-CBT", "MMLU-ProX"
    # introduce new benchmarks of their own).
    elif source in NAME_SOURCES:
        end = _name_continued(doc, end)
    span = Span(doc, start, end, label=label, kb_id=source)
    doc.spans[CANDIDATES].append(span)


def _name_continued(doc: Doc, end: int) -> int:
    """The end of a name written on with hyphens and capitalised parts after ``end``: the end
    of "OSWorld-MCP" for the end of "OSWorld". A part starts with a capital or a digit and
    holds no lower-case word ("-based", "-style" describe, they name nothing)."""
    while (
        end + 1 < len(doc)
        and doc[end].text == "-"
        and not doc[end - 1].whitespace_
        and not doc[end].whitespace_
        and doc[end + 1].text[:1].isupper()
    ):
        end += 2
        while end < len(doc) and _glued(doc[end - 1], doc[end]):
            end += 1
    return end


def _glued(left: Token, right: Token) -> bool:
    """Whether two neighbouring tokens are pieces of one written word: no space between them,
    and letters or digits on both sides (a hyphen, bracket or full stop is a boundary)."""
    return not left.whitespace_ and left.text[-1:].isalnum() and right.text[:1].isalnum()


def ensure_group(doc: Doc) -> None:
    if CANDIDATES not in doc.spans:
        doc.spans[CANDIDATES] = []


#: The label of a stand-in or of a SciERC ``Generic`` mention: it names no entity by itself.
GENERIC = "Generic"


def pseudo_mention(tok: Token, source: str, **extra: Any) -> Mention:
    """A one-token :data:`GENERIC` mention dict, in ``kg_mentions``' form: a stand-in for the
    paper's own method ("we", "our method", an evaluation cue) or a SciERC Generic mention."""
    sent, end = tok.sent, tok.idx + len(tok.text)
    return {
        "start": tok.idx, "end": end, "text": tok.text, "label": GENERIC, "role": "",
        "canonical": tok.text, "sent_start": sent.start_char, "sent_end": sent.end_char,
        "source": source, "confidence": 1.0, **extra,
    }  # fmt: skip


def after_opening_adverb(doc: Doc, first: int) -> int:
    """The first token of the sentence that begins at token ``first`` after an opening adverb
    and its comma ("Notably, on LongBench-V1, ..."), or ``first``."""
    if first + 2 < len(doc) and doc[first].tag_ == "RB" and doc[first + 1].text == ",":
        return first + 2
    return first
