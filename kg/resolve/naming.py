"""Naming: what each paper proposes beyond what its sentences say, and a short name for it.

These run once the whole corpus is resolved, because two of them need it: a name only one paper
of a big corpus defines is that paper's own, and a paper's display name is its named
contribution.
"""

from __future__ import annotations

import re

from kg.extract.names import COINED, is_name_like
from kg.extract.normalize import normalize_key
from kg.models import Entity, Mention, Paper
from kg.resolve.words import known_terms
from kg.schema import Label, Rel


def _first_words(text: str, n: int = 6) -> str:
    words = text.split()
    return " ".join(words[:n]) + ("…" if len(words) > n else "")


#: Types a paper proposes without saying so: what its title names, what only it defines.
_PROPOSED_TYPES = frozenset({Label.METHOD, Label.DATASET})


def title_name(title: str) -> str | None:
    """The name a title gives its paper's contribution: the part before the colon, when it
    reads as a name ("GenDR: One-Step Diffusion..." -> "GenDR").

    >>> title_name("GenDR: One-Step Diffusion for Detail Restoration"), title_name("AnyTouch 2: X")
    ('GenDR', 'AnyTouch 2')
    >>> title_name("Trust but verify: adaptive X"), title_name("Preventing Collapse")
    (None, None)
    """
    head, colon, _ = title.partition(":")
    head = head.strip()
    if not colon or not head or len(head.split()) > 4:
        return None
    return head if COINED.match(head.split()[0]) else None


def mark_title_names(paper: Paper, mentions: list[Mention]) -> None:
    """A method or dataset the title names ("GenDR: ...") is what the paper proposes, even when
    no sentence of the abstract says "we propose" (its mentions become PROPOSES)."""
    name = title_name(paper.title) if paper.title else None
    if name is None:
        return
    key = normalize_key(name)
    entities = {m.entity for m in mentions if m.key == key and m.type in _PROPOSED_TYPES}
    for m in mentions:
        if m.entity in entities and m.type in _PROPOSED_TYPES:
            m.role = Rel.PROPOSES


#: Corpora smaller than this get no :func:`mark_own_definitions`: among a few dozen papers most
#: names appear in one paper only, which then says nothing ("supervised fine-tuning (SFT)" in
#: one seed abstract).
OWN_DEFINITIONS_MIN_PAPERS = 500


def mark_own_definitions(mentions: list[Mention], entities: dict[str, Entity]) -> None:
    """A name the abstract defines with an acronym ("Relational Self-Attention (RSA)"), that no
    other paper of the corpus names and no shipped list knows, is the paper's own: authors spell
    out the acronyms of what they introduce. Its mentions become PROPOSES.

    Why: the abstract often names a contribution's parts without a "we propose" before each
    ("... with a Relational Self-Attention (RSA) module"). Names known from other papers
    ("Material Point Method (MPM)") are what a paper uses, and stay so.
    """
    known = known_terms()
    defined = {m.entity for m in mentions if m.source == "defined" and m.entity}
    for m in mentions:
        entity = entities.get(m.entity) if m.entity in defined else None
        if (
            entity is not None
            and entity.paper_count == 1
            and m.type in _PROPOSED_TYPES
            and is_name_like(entity.name)
            and m.key not in known
        ):
            m.role = Rel.PROPOSES


#: A dataset that this many papers or more of a corpus name (two besides the one at hand) is
#: established: a paper whose title does not name it uses it rather than introduces it.
ESTABLISHED_PAPERS = 3


def unmark_established_datasets(
    paper: Paper, mentions: list[Mention], entities: dict[str, Entity]
) -> None:
    """A dataset that many papers of the corpus evaluate on is not what one of them proposes,
    unless its title names it: "we design a protocol spanning MMLU, MGSM and XQuAD" or "we
    evaluate ... on ScienceWorld" put a proposal cue near an established benchmark (ICLR 2026:
    MMLU, ScienceWorld and COIN were among the first rows of ``new_benchmarks``). Such mentions
    become EVALUATES_ON. A new benchmark that others already use keeps its proposal through the
    title that names it ("OSWorld-MCP: Benchmarking MCP Tool Invocation ...")."""
    title = normalize_key(paper.title or "")
    for m in mentions:
        entity = entities.get(m.entity) if m.role is Rel.PROPOSES else None
        if (
            entity is not None
            and entity.label is Label.DATASET
            and entity.paper_count >= ESTABLISHED_PAPERS
            and not any(_in_key(normalize_key(n), title) for n in (entity.name, *entity.aliases))
        ):
            m.role = Rel.EVALUATES_ON


def _in_key(part: str, whole: str) -> bool:
    """Whether merge key ``part`` is a run of whole words of merge key ``whole``."""
    return bool(part) and f"-{part}-" in f"-{whole}-"


def display_name(paper: Paper, mentions: list[Mention]) -> str:
    """A short name for a paper: its named contribution ("MetaEmbed"), else its title, else the
    first words of its abstract."""
    for m in mentions:
        if (
            m.role == Rel.PROPOSES
            and m.type in (Label.METHOD, Label.DATASET)
            and COINED.match(m.text)
            and " " not in m.text  # one coined word ("MetaEmbed"), not a phrase
        ):
            return m.text
    for m in mentions:  # a proposed multi-word name ("Weighted Gaussian Mechanism")
        if m.role == Rel.PROPOSES and is_name_like(m.text) and len(m.text) <= 60:
            return m.text
    if paper.title:
        return paper.title if len(paper.title) <= 60 else _first_words(paper.title, 8)
    return _first_words(re.sub(r"\s+", " ", paper.abstract))
