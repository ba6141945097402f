"""The ``kg_roles`` component: which mentions name what the paper proposes.

A mention becomes PROPOSES when it is the object of a proposal cue ("we propose X", "we
introduce a novel benchmark, X", "called X") or follows "our" ("our X", "our first technique,
X"); every other mention keeps its type's default role. A proposed technique is a method, and a
proposed name is a dataset only when the sentence says benchmark, dataset or corpus. A known name
that a cue's object writes on with capitalised words ("we propose Inverse IFEval") is mended to
the whole new name.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from kg.extract.lexicon import Lexicon, load_lexicon, read_data_lines
from kg.extract.names import COINED, is_name_like
from kg.extract.normalize import singularize
from kg.extract.spans import NAME_SOURCES, NAMING_CUES
from kg.schema import Label, Rel

#: Penn Treebank tags that end a proposal cue's object before a mention: prepositions,
#: conjunctions, relatives and finite verbs ("we propose a new analysis of ReLU networks").
_NOT_IN_AN_OBJECT = frozenset({"IN", "CC", "TO", "WDT", "WP", "MD", "VBD", "VBP", "VBZ"})
#: Lower-case words inside a capitalised name ("Code Driven Planning with Domain-Adaptive
#: SeleCtor", "Learning to Defer", "Chain of Thought"): ``name_inner_words.txt``.
_IN_A_NAME = frozenset(read_data_lines("name_inner_words.txt"))
#: Subjects that make a proposal cue the paper's own ("we", "this paper"):
#: ``proposal_subjects.txt``. A word must be a token of the sentence, a phrase be in its text.
_SUBJECTS = read_data_lines("proposal_subjects.txt")
_SUBJECT_WORDS = frozenset(s for s in _SUBJECTS if " " not in s)
_SUBJECT_PHRASES = tuple(s for s in _SUBJECTS if " " in s)
#: What may stand between a description and the name it describes: "a novel method, FooNet",
#: "a new benchmark: FooBench", "a method—FooNet", "an agentic workflow EvidenceLoop".
_APPOSITION = frozenset({"", ",", ":", "-", "—", "–"})
_APPOSED = frozenset({",", ":", "—", "–"})
#: Nouns with which a description in apposition says that a name is a task (:func:`_called`).
_TASK_WORDS = frozenset({"task", "tasks", "problem", "problems"})
#: Tags of the words a description in apposition may hold before the noun that says what kind
#: of thing a name is: ", the first large-scale benchmark", ", a new task".
_DESCRIPTION_TAGS = frozenset({"DT", "JJ", "JJR", "JJS", "VBN", "VBG", "NN", "NNP", "HYPH", "CD"})
_DESCRIPTION_WORDS = 5


def _called(doc: Doc, m: dict[str, Any], sent: Span, kinds: Collection[str]) -> bool:
    """Whether a description in apposition right after mention ``m`` (a bracket between
    skipped) says it is a thing of one of ``kinds``: "MPI, a new task that ...", "MoSu (Most
    Replayed ...), the first large-scale benchmark" (not "ABME, which injects new task ...")."""
    span = doc.char_span(m["start"], m["end"], alignment_mode="expand")
    if span is None:
        return False
    i = span.end
    if i < sent.end and doc[i].text == "(":
        while i < sent.end and doc[i].text != ")":
            i += 1
        i += 1
    if i >= sent.end or doc[i].text not in _APPOSED:
        return False
    for t in doc[i + 1 : min(sent.end, i + 1 + _DESCRIPTION_WORDS)]:
        if t.lower_ in kinds or singularize(t.lower_) in kinds:
            return True
        if t.tag_ not in _DESCRIPTION_TAGS:
            return False
    return False


def _named_before(m: dict[str, Any], mentions: list[dict[str, Any]]) -> bool:
    """Whether the abstract names ``m``'s entity before ``m``."""
    key = m["canonical"].lower()
    return any(n["canonical"].lower() == key and n["start"] < m["start"] for n in mentions)


#: Prepositions before a cue that make it what something is for or about, not what the paper
#: does: "a framework for constructing high-coverage IS tasks", "the problem of constructing
#: coresets", "insights for developing VLMs" (ICLR 2026: 151 sentences hold "for" or "of" and
#: a cue's "-ing" form; two abstracts' proposals change, each to the name "we propose" gives:
#: BaseReward, not the "MRMs" of "a guide for building MRMs").
_PURPOSE_PREPOSITIONS = frozenset({"for", "of"})
#: Proposal cues whose object, when "as" follows it, is what the paper recasts, not what it
#: proposes: "we formulate pose estimation as an inverse problem", "We formulate IS as a
#: tree-structured reasoning problem" (ICLR 2026: "we formulate" in 31 sentences, 20 of them
#: "X as", one a name that was proposed; "we formulate a dynamic programming algorithm"
#: still proposes it).
_RECASTING_CUES = ("formulat",)


def _recast(doc: Doc, cue_end: int, m: dict[str, Any]) -> bool:
    """Whether the mention ``m`` after the cue ending at token ``cue_end`` is recast ("we
    formulate X as Y"), not proposed."""
    if not doc[cue_end - 1].lower_.startswith(_RECASTING_CUES):
        return False
    span = doc.char_span(m["start"], m["end"], alignment_mode="expand")
    return span is not None and span.end < len(doc) and doc[span.end].lower_ == "as"


def _ends_object(t: Token) -> bool:
    """Whether a token between a cue (or "our") and a name ends the phrase before the name: a
    bracket or full stop, a preposition, conjunction, relative or finite verb."""
    return (t.is_punct and t.text not in _APPOSITION) or t.tag_ in _NOT_IN_AN_OBJECT


@Language.factory(
    "kg_roles",
    assigns=["doc._.kg_mentions"],
    requires=["doc._.kg_mentions", "token.tag"],
)
def make_roles(nlp: Language, name: str) -> RoleAssigner:
    return RoleAssigner(load_lexicon())


class RoleAssigner:
    """Sets each mention's ``role`` to PROPOSES where the paper introduces what it names (and
    retypes a proposed technique as a method), then drops the mentions' ``token`` index."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        # "propose", "introduce", ... as stems that also match "proposes", "introduced"; the
        # past of "build" is no form of its stem.
        self.cue_stems = tuple(c.rstrip("e") for c in lexicon.proposal_cues if " " not in c) + (
            "built",
        )

    def __call__(self, doc: Doc) -> Doc:
        mentions: list[dict[str, Any]] = doc._.kg_mentions or []
        self._assign_roles(doc, mentions)
        for m in mentions:
            del m["token"]
        return doc

    def _dataset_cue(self, sent: Span) -> bool:
        heads = self.lexicon.dataset_heads
        return any(t.lower_ in heads or singularize(t.lower_) in heads for t in sent)

    def _proposal_starts(self, sent: Span) -> list[int]:
        """Token indices right after a proposal cue in this sentence ("we propose|X")."""
        starts = []
        lowers = [t.lower_ for t in sent]
        has_subject = any(w in _SUBJECT_WORDS for w in lowers) or any(
            p in sent.text.lower() for p in _SUBJECT_PHRASES
        )
        for t in sent:
            w = t.lower_
            if has_subject and w.startswith(self.cue_stems) and t.is_alpha:
                nxt = t.nbor(1) if t.i + 1 < len(t.doc) else None
                if nxt is not None and nxt.lower_ == "to":
                    continue  # "we propose to use X": X is used, not proposed
                if t.i > sent.start and t.nbor(-1).lower_ in _PURPOSE_PREPOSITIONS:
                    continue  # "a framework for constructing IS tasks": a purpose
                starts.append(t.i + 1)
            elif w in NAMING_CUES and has_subject:
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

    def _qualifier(self, t: Token, taken: set[int]) -> bool:
        """Whether a token may be written on to a proposed name: a capitalised word that no
        mention holds and that abstracts do not use everywhere ("Inverse", "Hard", "Net")."""
        return (
            t.i not in taken
            and t.is_title
            and t.is_alpha
            and not t.is_stop
            and t.lower_ not in self.lexicon.common_words
        )

    def _mend(
        self, doc: Doc, name: dict[str, Any], cue_end: int, sent_end: int,
        mentions: list[dict[str, Any]],
    ) -> None:
        """Write a proposed name on over the capitalised words a known name left beside it in
        the cue's object: "we propose Inverse IFEval", "we introduce ACPBench Hard, a dataset"
        name new things, not IFEval or ACPBench. Every mention of the cut name in the abstract
        that the same words surround is mended alike (and so proposed)."""
        if name["source"] not in NAME_SOURCES or name["canonical"] != name["text"]:
            return
        own = doc.char_span(name["start"], name["end"], alignment_mode="expand")
        if own is None or not (
            (own.start > cue_end and doc[own.start - 1].is_title)
            or (own.end < sent_end and doc[own.end].is_title)
        ):
            return  # nearly every proposed name: no capitalised word beside it
        spans = {
            id(m): doc.char_span(m["start"], m["end"], alignment_mode="expand") for m in mentions
        }
        taken = {t.i for span in spans.values() if span is not None for t in span}
        before, after = own.start, own.end
        while before > cue_end and self._qualifier(doc[before - 1], taken):
            before -= 1
        while after < sent_end and self._qualifier(doc[after], taken):
            after += 1
        left = [t.text for t in doc[before : own.start]]
        right = [t.text for t in doc[own.end : after]]
        if not (left or right):
            return
        cut = name["text"]  # (the loop mends ``name`` too)
        for m in mentions:
            span = spans[id(m)]
            if span is None or m["text"] != cut or m["canonical"] != cut:
                continue
            a, b = span.start - len(left), span.end + len(right)
            if a < 0 or b > len(doc):
                continue
            if [t.text for t in doc[a : span.start]] == left and [
                t.text for t in doc[span.end : b]
            ] == right:
                mended = doc[a:b]
                m.update(start=mended.start_char, end=mended.end_char, text=mended.text,
                         canonical=mended.text, token=a)  # fmt: skip

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
                    if not self._object_of_cue(doc, cue_end, m["token"]):
                        break  # "we propose a simple fix, which beats PPO": PPO is no object
                    if _recast(doc, cue_end, m):
                        break  # "we formulate MOO as a generation problem": not proposed
                    names = self._names_of_object(doc, m, cue_end, mentions)
                    # A task phrase is what a paper works on ("we propose to study X"), but a
                    # task the cue names ("we propose Quantile Advantage Estimation (QAE)")
                    # is the paper's technique, or, where the sentence says so, a new task,
                    # unless the abstract named it before ("Diffusion alignment aims to ...
                    # We introduce Diffusion Alignment as Variational EM (DAV)").
                    if m["label"] == str(Label.TASK) and not (
                        any(n is m for n in names) and not _named_before(m, mentions)
                    ):
                        continue
                    for n in names:
                        self._mend(doc, n, cue_end, sent.end, mentions)
                        key = n["canonical"].lower()
                        proposed.add(key)
                        if n["label"] == str(Label.TASK) and _called(doc, n, sent, _TASK_WORDS):
                            pass  # "we introduce Visual Question Generation, a new task"
                        elif n["label"] == str(Label.TASK) and _called(
                            doc, n, sent, self.lexicon.dataset_heads
                        ):
                            relabel[key] = str(Label.DATASET)  # "VUDG, the first dataset ..."
                        elif n["label"] in (str(Label.CONCEPT), str(Label.TASK)):
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
