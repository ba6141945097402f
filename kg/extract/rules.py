"""The ``kg_rules`` component: coined names, "<Name> benchmark" datasets, task and concept
phrases, matched by token patterns."""

from __future__ import annotations

from typing import Any

from spacy.language import Language
from spacy.matcher import Matcher
from spacy.tokens import Doc, Span

from kg.extract.lexicon import Lexicon, load_lexicon
from kg.extract.names import COINED, DATASET_SUFFIX
from kg.extract.normalize import singularize
from kg.extract.spans import add_candidate, ensure_group
from kg.schema import Label


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
                if span[0].lower_ in {"the", "a", "this", "our"}:
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
