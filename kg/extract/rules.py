"""The ``kg_rules`` component: coined names, "<Name> benchmark" datasets, task and concept
phrases, matched by token patterns: the data files of ``kg/extract/data/patterns``, read by
:mod:`kg.extract.patterns` (the folder's README.md says why each pattern is as it is)."""

from __future__ import annotations

from spacy.language import Language
from spacy.matcher import Matcher
from spacy.tokens import Doc, Span

from kg.extract.lexicon import Lexicon, load_lexicon, read_data_lines
from kg.extract.names import COINED, DATASET_SUFFIX
from kg.extract.normalize import singularize
from kg.extract.patterns import PatternError, load_rules
from kg.extract.spans import add_candidate, ensure_group
from kg.schema import Label

#: The rule families of ``kg/extract/data/patterns/rules.jsonl``, each a label of its patterns;
#: the last three are switched on and off by the component's settings (tasks, concepts, words).
FAMILIES = ("coined", "named_dataset", "task", "concept", "word")
#: First words that make a phrase generic ("novel approach", "several tasks"):
#: ``generic_first_words.txt``.
GENERIC_FIRST_WORDS = frozenset(read_data_lines("generic_first_words.txt"))


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
        families = load_rules(lexicon)
        unknown = sorted(set(families) - set(FAMILIES))
        if unknown:
            raise PatternError(f"rules.jsonl: rule families kg_rules has no use for: {unknown}")
        # A family switched off is not matched at all: the matcher's time grows with its
        # matches, and the "word" family, off by default, matches nearly every noun.
        for family, patterns in families.items():
            if self.enabled.get(family, True):
                self.matcher.add(family, patterns)
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
        return (head in generic or head.rstrip("s") in generic) or first in GENERIC_FIRST_WORDS

    def __call__(self, doc: Doc) -> Doc:
        ensure_group(doc)
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
                    add_candidate(doc, start, end, str(Label.DATASET), "named_dataset")
                else:
                    add_candidate(doc, start, end, str(Label.METHOD), "coined")
            elif rule == "named_dataset":
                if span[0].is_sent_start and len(span) == 2 and not COINED.match(span[0].text):
                    continue
                add_candidate(doc, start, end, str(Label.DATASET), "named_dataset")
            elif tagged and rule == "task" and not self._generic(span[:-1]):
                add_candidate(doc, start, end, str(Label.TASK), "phrase")
            elif tagged and rule == "concept" and not self._generic(span):
                add_candidate(doc, start, end, str(Label.CONCEPT), "concept")
            elif (
                tagged
                and rule == "word"
                and not span[0].is_stop
                and not self._generic(span)
                and singularize(span[0].lower_) not in self.lexicon.common_words
                and span[0].lower_ not in self.lexicon.common_words
            ):
                add_candidate(doc, start, end, str(Label.CONCEPT), "word")
        return doc
