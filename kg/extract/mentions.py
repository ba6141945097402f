"""The ``kg_mentions`` component: the final mentions of an abstract.

It picks non-overlapping candidates (priority, then length), types each again from its head
noun, adds the names a list puts beside recognised ones, the acronyms an abstract defines, the
names nested in longer phrases and the head nouns of tasks and concepts, and writes
``doc._.kg_mentions``. Roles (PROPOSES or the type's default) are the next component's
(:mod:`kg.extract.roles`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.extract.benchmark_lists import (
    EXAMPLE_CUES,
    datasets_listed_before,
    listed_datasets,
    listed_methods,
    listed_with_datasets,
    scored_datasets,
)
from kg.extract.lexicon import Lexicon, load_lexicon, read_data_lines
from kg.extract.names import COINED, PROPN_LIKE
from kg.extract.normalize import balanced_prefix, singularize
from kg.extract.spans import (
    CANDIDATES,
    NAME_SOURCES,
    PRIORITY,
    UNKNOWN,
    cited_author,
    defined_acronym,
    definition_parts,
    in_compound,
    named_part,
    noun_compound,
    proposed_definition_asides,
    reverse_definition_parts,
    without_acronym_asides,
)
from kg.schema import DEFAULT_ROLE, Label

if not Doc.has_extension("kg_mentions"):
    Doc.set_extension("kg_mentions", default=None)

#: Words between members of a list ("DeltaNet, Mamba or xLSTM").
_LIST_JOINS = frozenset({",", "or", "and", "/"})
#: Types whose members a list passes on: a list of names names things of one type.
_LISTED_TYPES = frozenset({str(Label.METHOD), str(Label.DATASET), str(Label.METRIC)})
_STOP_END = frozenset({",", ".", ";", ":", "(", ")", "[", "]"})
#: Penn tag prefixes of words that are no name: verbs, pronouns, determiners, prepositions.
_NOT_NAME_TAGS = ("VB", "PRP", "DT", "IN", "CC", "W", "MD", "TO")
#: Heads that type a phrase by its words alone ("word error rate" is a metric, "variational
#: autoencoder" a method: the lexicon's ``strong_method_heads``).
#: Small words a capitalised long form may hold ("Identify and Unlearn (IU)"): the ones its
#: acronym may skip (``initials_skipped_words.txt``), but "the" and "a".
_JOINING = frozenset(read_data_lines("initials_skipped_words.txt")) - {"the", "a"}


def called_a_task(span: Span) -> bool:
    """Whether a phrase names one task and its writer calls it so: two words or more before a
    closing "task" or "tasks" ("spatiotemporal prediction tasks"), no conjunction, slash or
    preposition between ("analysis and planning tasks", "image/video synthesis tasks" are
    two) and no verb opening them ("solving complicated reasoning tasks")."""
    return (
        len(span) > 2
        and span[-1].lower_ in ("task", "tasks")
        and span[0].tag_ != "VBG"
        and not any(t.tag_ in ("CC", "IN", "TO") or "/" in t.text for t in span[:-1])
    )


def _written_word(doc: Doc, i: int) -> int:
    """End of the whitespace-delimited word that starts at token ``i`` ("Best-of-N")."""
    j = i + 1
    while j < len(doc) and not doc[j - 1].whitespace_ and doc[j].text not in _STOP_END:
        j += 1
    return j


def _has_address(span: Span) -> bool:
    """Whether ``span`` holds a web address ("https://github.com/org/repo",
    "anonymous.4open.science/r/BoRA"): where the code is, never the name of a method or a
    dataset, however the recogniser typed it."""
    return any(t.like_url for t in span)


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
        for cue in EXAMPLE_CUES:
            if [t.lower_ for t in doc[j : j + len(cue)]] == list(cue):
                first = j + len(cue)
                add(first + (first < len(doc) and doc[first].text == ","), label)
                break
    return found


@Language.factory(
    "kg_mentions",
    assigns=["doc._.kg_mentions"],
    requires=["doc.spans", "doc._.kg_acronyms"],
    default_config={"heads": True},
)
def make_mentions(nlp: Language, name: str, heads: bool) -> MentionSelector:
    return MentionSelector(load_lexicon(), heads=heads)


class MentionSelector:
    """Chooses the final mentions and their types.

    ``doc._.kg_mentions`` becomes a list of plain dicts (they survive multiprocessing):
    ``start``/``end`` (characters), ``text``, ``label``, ``role`` (the type's default, until
    ``kg_roles``), ``canonical`` (the surface form of the entity it names: the long form for an
    acronym), ``sent_start``/``sent_end``, ``source``, ``confidence``, and ``token`` (the first
    token's index, for ``kg_roles``, which removes it).
    """

    def __init__(self, lexicon: Lexicon, heads: bool = True) -> None:
        self.lexicon = lexicon
        self.heads = heads
        self.dataset_nouns = frozenset(h + n for h in lexicon.dataset_heads for n in ("", "s"))

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
        listed_metric = any(text.lower() == m.lower() for m in lex.metric_terms)
        if listed_metric or head_singular in lex.metric_heads:
            return Label.METRIC
        titled = sum(1 for w in words if PROPN_LIKE.match(w)) >= max(1, len(words) - 1)
        if titled or COINED.match(text):
            return Label.METHOD
        if head_singular in lex.strong_method_heads:
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
        # Where each acronym definition starts, by where it ends: the long form the acronym's
        # letters spell ("Decoupled Reward Policy Optimization (DRPO)").
        definitions = {c.end: c.start for c in cands if c.kb_id_ == "acronym"}
        for s in cands:
            if any(taken[s.start : s.end]) or self._common_word(s) or _has_address(s):
                continue
            start = definitions.get(s.end, s.start)
            joined = None  # where a joining word is, in a long form the recogniser cut short
            if (
                start < s.start
                and not any(taken[start : s.start])
                and doc[start].is_title
                and all(t.is_title or t.text == "-" or t.lower_ in _JOINING
                        for t in doc[start : s.start])  # fmt: skip
            ):
                # The recogniser cut a capitalised long form short ("Reward Policy Optimization
                # (DRPO)", "Recurrent Action Transformer with Memory (RATE)"): the definition is
                # the whole of it, or "DRPO" would name another entity. Capitalised words and the
                # small words that join them only: a long form that runs into other lower-case
                # words may be a clause the letters happened to match.
                joined = next((t.i for t in doc[start : s.start] if t.lower_ in _JOINING), None)
                s = Span(doc, start, s.end, label=s.label_, kb_id=s.kb_id_)
            if joined is not None:
                # A coined name of words a small one joins, defined by its acronym, names a
                # method ("Contrastive Activation Steering for Amortized Learning (CASAL)",
                # "Trajectory Generation with Conservative Value Guidance (TGCVG)"), or a dataset
                # by its last word ("... and Machine Attachment Benchmark (INTIMA)"), whatever
                # the recogniser made of the words it kept or a task's head word says.
                whole = self.classify(named_part(s).text)
                label = str(Label.DATASET if whole == Label.DATASET else Label.METHOD)
            else:
                label = s.label_
                if label == UNKNOWN:
                    label = self._vote(named_part(s), cands) or str(
                        self.classify(named_part(s).text)
                    )
                label = self.retype(s, label)
            for i in range(s.start, s.end):
                taken[i] = True
            chosen.append(Span(doc, s.start, s.end, label=label, kb_id=s.kb_id_))
        chosen.extend(listed_names(doc, chosen, taken))
        chosen.sort(key=lambda s: s.start)
        listed = listed_datasets(doc, chosen, self.dataset_nouns)
        listed = scored_datasets(doc, datasets_listed_before(doc, listed, self.dataset_nouns))
        return listed_methods(doc, listed_with_datasets(doc, listed))

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
        span = named_part(span)
        if called_a_task(span):  # "spatiotemporal prediction tasks"
            span = span[:-1]
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
            parts = definition_parts(span) or reverse_definition_parts(span, acronyms)
            if parts is None:
                for short, long_form in acronyms.items():
                    if span.text == long_form:
                        long_label[short] = span.label_
                # "we propose a novel Neural Adaptive Binning (NAB) method"
                for inner in proposed_definition_asides(span, acronyms):
                    long_label[inner.text] = span.label_
                    extra.append(Span(doc, inner.start, inner.end, label=span.label_,
                                      kb_id="defined"))  # fmt: skip
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
            core = named_part(span)
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
            # compound or the abstract calls it a task ("spatiotemporal prediction tasks"):
            # kept off the others (most mentions are no tasks, and the cache is smaller).
            if label == str(Label.TASK) and (
                noun_compound(doc, span.start, span.end) or called_a_task(span)
            ):
                mention["compound"] = True
            mentions.append(mention)
        doc._.kg_mentions = mentions
        return doc
