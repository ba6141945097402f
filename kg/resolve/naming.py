"""Naming: what each paper proposes beyond what its sentences say, and a short name for it.

These run once the whole corpus is resolved, because two of them need it: a name only one paper
of a big corpus defines is that paper's own, and a paper's display name is its named
contribution.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from kg.extract.names import COINED, is_name_like
from kg.extract.normalize import clean_surface, normalize_key
from kg.models import Entity, Mention, Paper
from kg.resolve.kinds import worth_a_node
from kg.resolve.names import name_key
from kg.resolve.words import known_terms, listed_datasets, resolution_words
from kg.schema import DEFAULT_ROLE, Label, Rel


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
    key = name_key(name)
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


#: A method, task, concept or metric that this many papers or more of a corpus name is
#: established: the field's (supervised fine-tuning, RLVR, LoRA, Muon), not one paper's.
ESTABLISHED_NAME_PAPERS = 5


def unmark_established_names(
    paper: Paper, mentions: list[Mention], entities: dict[str, Entity]
) -> None:
    """What many papers of the corpus name is not what one of them proposes: "we propose
    applying the RLVR paradigm", "a Group Relative Policy Optimization (GRPO)-trained model",
    "we introduce a novel SAE architecture — Temporal SAE" put a proposal cue or a definition
    next to an established name (ICLR 2026: 166 PROPOSES links to entities of five papers or
    more, nearly all such). Their mentions take the type's default role (a method is USED).

    Unlike a dataset (:func:`unmark_established_datasets`), a name in the title keeps no
    proposal: "MuonBP: Faster Muon via ...", "Latent Stochastic Interpolants" name what they
    build on. Only a title that is the name ("GRPO: ...", the paper that introduced it, which
    others then use) keeps it.
    """
    named = normalize_key(title_name(paper.title) or paper.title or "")
    for m in mentions:
        entity = entities.get(m.entity) if m.role is Rel.PROPOSES else None
        if (
            entity is not None
            and entity.label is not Label.DATASET
            and entity.paper_count >= ESTABLISHED_NAME_PAPERS
            and named not in {normalize_key(n) for n in (entity.name, *entity.aliases)}
        ):
            m.role = DEFAULT_ROLE[entity.label]


def _in_key(part: str, whole: str) -> bool:
    """Whether merge key ``part`` is a run of whole words of merge key ``whole``."""
    return bool(part) and f"-{part}-" in f"-{whole}-"


def display_name(paper: Paper, mentions: list[Mention]) -> str:
    """A short name for a paper: its named contribution ("MetaEmbed"), else its title, else a
    title-like phrase of its main method and task (:func:`topic_phrase`)."""
    for m in mentions:
        if (
            m.role == Rel.PROPOSES
            and m.type in (Label.METHOD, Label.DATASET)
            and COINED.match(m.text)
            and " " not in m.text  # one coined word ("MetaEmbed"), not a phrase
        ):
            return m.text
    # A proposed multi-word name ("Weighted Gaussian Mechanism"), or in an untitled paper the
    # acronym a proposal spells out ("a detection model (MindTS)"): the first proposal, which
    # is the paper's own, before the parts it goes on to propose.
    for m in mentions:
        if m.role == Rel.PROPOSES and is_name_like(m.text) and len(m.text) <= 60:
            return m.text
        if m.role == Rel.PROPOSES and not paper.title.strip():
            acronym = proposed_acronym([m])
            if acronym:
                return acronym
    if paper.title.strip():
        return paper.title if len(paper.title) <= 60 else _first_words(paper.title, 8)
    # (an untitled paper's proposed acronym named it in the loop above)
    return (
        topic_phrase(paper.abstract, mentions)
        or next((k for k in paper.keywords if 0 < len(k) <= 60), None)
        # An abstract with no entity at all (a few words, or none): nothing else to go by.
        or _first_words(re.sub(r"\s+", " ", paper.abstract))
    )


_ACRONYM_AFTER = re.compile(r"\(([^\s()]+)\)$")


def proposed_acronym(mentions: Iterable[Mention]) -> str | None:
    """The coined acronym a proposal spells out, whatever type the proposal was given: "we
    propose a novel multimodal time series anomaly detection model (MindTS)" -> "MindTS".

    >>> m = Mention(0, 9, "a detection model (MindTS)", Label.CONCEPT, Rel.PROPOSES, "")
    >>> proposed_acronym([m])
    'MindTS'
    """
    for m in mentions:
        found = _ACRONYM_AFTER.search(m.text.strip()) if m.role == Rel.PROPOSES else None
        if found and COINED.match(found.group(1)) and _useful(found.group(1)):
            return found.group(1)
    return None


# --- A title-like phrase from a paper's main method and task -------------------------------

#: A sentence in which the paper speaks of its own work ("we propose", "in this paper", "our
#: experiments show", "the proposed"): what it names counts more than the background's names.
_OWN_WORK = re.compile(
    r"\b(?:we|our)\s+(?:[\w()-]+,?\s+){0,2}?"
    r"(?:propos|introduc|present|develop|design|devis|build|buil[td]|construct|creat|curat"
    r"|releas|contribut|formul|formaliz|establish|put forward|stud|explor|investigat|examin"
    r"|analy[sz]|identif|address|tackl|focus|ask|show|demonstrat|revisit|extend|provid|find"
    r"|found|pose[sd]?\b|deriv|prov|offer|evaluat|validat|compar|leverag|incorporat|appl"
    r"|use[sd]?\b|using|conduct|achiev|yield|outperform|improv|reveal|aim)"
    r"|^(?:in\s+)?this\s+(?:paper|work|study|article)\b"
    r"|\bthe\s+proposed\b",
    re.IGNORECASE,
)
#: A sentence of examples ("For example, you might be reading this paper because ...").
_EXAMPLE = re.compile(r"^(?:for\s+(?:example|instance)|e\.g\.)", re.IGNORECASE)
#: How much a sentence counts: the paper's own work; the opening sentence (mostly background:
#: "Large language models have shown remarkable capabilities in language understanding"); a
#: sentence of examples (not at all); any other sentence. A name counts once per sentence.
OWN_WORK_WEIGHT, OPENING_WEIGHT, EXAMPLE_WEIGHT, OTHER_WEIGHT = 2.0, 0.5, 0.0, 1.0
#: A method or task enters the phrase only when it is named this much: in one sentence besides
#: the opening one, at least.
MIN_SCORE = 1.0
#: Longest part of a phrase (words, characters) and longest phrase (characters).
PART_WORDS, PART_CHARS, PHRASE_CHARS = 6, 48, 72
#: Words a name ends with that a title leaves out ("the Multimodal Dialogue Generation task",
#: "policy distillation methods", "a spectral clustering algorithm").
_TRAILING_WORDS = frozenset(
    {"task", "tasks", "problem", "problems", "setting", "settings", "method", "methods",
     "approach", "approaches", "algorithm", "algorithms", "technique", "techniques"}
)  # fmt: skip
#: Words a name may not end with: a span cut before its noun ("methods for").
_DANGLING = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to",
     "via", "with"}
)  # fmt: skip
_LEFT_OFF_AT_END = _TRAILING_WORDS | _DANGLING
_METHOD_TYPES = (Label.METHOD,)
_TASK_TYPES = (Label.TASK,)


@dataclass
class _Candidate:
    """One entity a paper names, with what it counts for a title."""

    name: str  # as the title shows it
    score: float
    first: int  # offset of its first mention (ties go to the earlier)
    proposed: bool
    opens: bool  # whether ``name`` was written at the start of a sentence (capitalised for it)


def topic_phrase(abstract: str, mentions: list[Mention]) -> str | None:
    """A short, title-like phrase of what a paper does, from its main method and task: "<Method>
    for <task>" when the method is the paper's or named at least as much as the task,
    "<Task> with <method>" else, one of them alone when the other is missing or the two would
    make too long a phrase. A paper that names neither often enough (:data:`MIN_SCORE`) gets
    the one it names most; one that names neither at all its most named concept of a few
    words, else dataset, else concept. ``None`` when it names nothing.

    What is "main": the entity named in the most sentences, a sentence where the paper speaks
    of its own work ("we propose", "in this paper") counting twice and the opening sentence,
    mostly background, half (:data:`OWN_WORK_WEIGHT` ...). A name inside a longer one, names
    that describe rather than name ("the proposed method", "State-Of-The-Art") and generic
    ones ("LLMs") do not count.

    >>> s = "We study variational inference for sparse regression."
    >>> ms = [Mention(9, 30, "variational inference", Label.METHOD, Rel.USES, s),
    ...       Mention(35, 52, "sparse regression", Label.TASK, Rel.ADDRESSES, s)]
    >>> topic_phrase(s, ms)
    'Variational inference for sparse regression'
    """
    weights = _sentence_weights(abstract, mentions)
    # A shipped dataset name the paper's sentences made a method of ("MNIST", "ViZDoom") is a
    # dataset still: it says where, not what.
    listed = listed_datasets()
    methods = _candidates(
        (
            m
            for m in mentions
            if (m.type in _METHOD_TYPES or m.role == Rel.PROPOSES)
            and (m.key or normalize_key(m.text)) not in listed
        ),
        weights,
    )
    tasks = _candidates((m for m in mentions if m.type in _TASK_TYPES), weights)
    method = next((c for c in methods if c.score >= MIN_SCORE), None)
    task = next((c for c in tasks if c.score >= MIN_SCORE and c is not method), None)
    if method and task:
        a, b = normalize_key(method.name), normalize_key(task.name)
        if a in b or b in a:  # "anomaly detection model" for "anomaly detection"
            task = None if method.score >= task.score else task
            method = None if task else method
    if method and task:
        if method.proposed or method.score >= task.score:
            phrase = f"{_title_case(method.name)} for {_inner_case(task)}"
        else:
            phrase = f"{_title_case(task.name)} with {_inner_case(method)}"
        if len(phrase) <= PHRASE_CHARS:
            return phrase
        method, task = (method, None) if method.score >= task.score else (None, task)
    single = method or task
    if single:
        return _title_case(single.name)
    # Named in the opening sentence only ("Federated Learning enables ..."): still what the
    # paper is about, more than the concepts of its own sentences are.
    either = sorted(methods[:1] + tasks[:1], key=lambda c: (-c.score, c.first))
    if either and either[0].score > 0:
        return _title_case(either[0].name)
    concepts = _candidates((m for m in mentions if m.type is Label.CONCEPT), weights)
    datasets = _candidates((m for m in mentions if m.type is Label.DATASET), weights)
    phrases = [c for c in concepts if " " in c.name and c.score >= MIN_SCORE]
    for found in (phrases, datasets, concepts):
        if found and found[0].score > 0:
            return _title_case(found[0].name)
    return None


def _sentence_weights(abstract: str, mentions: list[Mention]) -> dict[str, float]:
    weights: dict[str, float] = {}
    for m in mentions:
        if m.sentence not in weights:
            sentence = m.sentence.strip()
            if _OWN_WORK.search(sentence):
                weights[m.sentence] = OWN_WORK_WEIGHT
            elif _EXAMPLE.match(sentence):
                weights[m.sentence] = EXAMPLE_WEIGHT
            elif not abstract[: abstract.find(sentence)].strip():
                weights[m.sentence] = OPENING_WEIGHT
            else:
                weights[m.sentence] = OTHER_WEIGHT
    return weights


def _candidates(mentions: Iterable[Mention], weights: dict[str, float]) -> list[_Candidate]:
    """The entities of ``mentions`` that may go into a title, most named first."""
    per_sentence: dict[str, dict[str, float]] = {}  # entity -> sentence -> weight
    found: dict[str, _Candidate] = {}
    for m in sorted(mentions, key=lambda m: m.start):
        # The head word alone ("detection" of "anomaly detection") or a name inside a longer one
        # ("DPO" in "DPO-based fine-tuning algorithms", "TV" in "movies and TV series"): the
        # longer name is what the sentence names.
        if m.source in ("head", "nested"):
            continue
        name = _part(m)
        if name is None:
            continue
        entity = m.entity or m.key or normalize_key(name)
        weight = weights.get(m.sentence, OTHER_WEIGHT)
        sentences = per_sentence.setdefault(entity, {})
        sentences[m.sentence] = max(sentences.get(m.sentence, 0.0), weight)
        opens = m.sentence.lstrip().startswith(m.text)
        candidate = found.get(entity)
        if candidate is None:
            found[entity] = candidate = _Candidate(name, 0.0, m.start, False, opens)
        elif (_spelled_out(name), not opens) > (
            _spelled_out(candidate.name),
            not candidate.opens,
        ):  # "stochastic gradient descent" rather than "SGD", as written inside a sentence
            candidate.name, candidate.opens = name, opens
        candidate.proposed |= m.role == Rel.PROPOSES
    for entity, candidate in found.items():
        candidate.score = sum(per_sentence[entity].values())
    return sorted(found.values(), key=lambda c: (-c.score, c.first))


def _part(m: Mention) -> str | None:
    """How a mention reads in a title, or ``None`` when it should not be in one."""
    for surface in (m.canonical, m.text):
        text = clean_surface(re.sub(r"\s*\([^()]*\)", "", surface or ""))
        words = text.split()
        while words and words[-1].lower() in _LEFT_OFF_AT_END:
            words.pop()
        while words and words[0].lower() in _DANGLING:
            words.pop(0)
        text = " ".join(words)
        if (
            words
            and len(words) <= PART_WORDS
            and len(text) <= PART_CHARS
            and not re.search(r"[,;:!?\"“”()\[\]{}]|^\W|\W$", text)
            and _useful(text)
        ):
            return text
    return None


def _useful(name: str) -> bool:
    """Whether a name says what a paper is about: not a description ("novel framework",
    "State-Of-The-Art"), a generic name ("LLMs", "GPU") or an everyday word."""
    key = normalize_key(name)
    if not key or key in resolution_words().generic_names:
        return False
    return worth_a_node(name, key)


def _spelled_out(name: str) -> bool:
    return " " in name and not COINED.match(name)


def _title_case(name: str) -> str:
    """``name`` at the head of a title: its first letter capital ("Time series anomaly
    detection"), the rest as written."""
    return name[:1].upper() + name[1:]


def _inner_case(part: _Candidate) -> str:
    """A name inside a title: as written, but for a capital only the start of its sentence gave
    it ("Time series anomaly detection plays a critical role" -> "time series anomaly
    detection"; "Transformer", "INR network" and "Fine-grained Semantic Alignment" stay)."""
    name = part.name
    first, *rest = name.split()
    if part.opens and first[1:] == first[1:].lower() and all(w == w.lower() for w in rest):
        return name[:1].lower() + name[1:]
    return name
