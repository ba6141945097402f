"""The ``kg_trained_ner`` component: the shipped entity recogniser (trained on SciERC), its span
re-typer and the noun-phrase model that follows it; their spans become candidates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span, Token
from spacy.util import registry

from kg.extract.fast import NerRunner, ner_runner
from kg.extract.features import noun_phrases
from kg.extract.long_forms import is_acronym
from kg.extract.names import has_capital_or_digit
from kg.extract.retyper import RECOVERY_MODEL, TOKVEC_KEY, Retyper, words_and_tags
from kg.extract.retyper import SHIPPED_MODEL as RETYPER_MODEL
from kg.extract.spans import (
    COMPARATIVE_TAGS,
    DANGLING_TAGS,
    FIGURE,
    FINITE_VERB_TAGS,
    MULTIPLIER,
    NAMING_CUES,
    SIGNS,
    VERBS_AFTER_NAMES,
    add_candidate,
    ensure_group,
    split_coordinated_names,
)
from kg.schema import Label

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
    a candidate (its gain on SciERC: ``docs/extraction-quality.md``). It is disabled when the
    file does not exist (or the path is empty).

    ``recovery``: the noun-phrase model (same format, :func:`kg.extract.features.noun_phrases`).
    It picks entities among the noun phrases outside the recogniser's spans. Used only with the
    re-typer, and disabled the same way.
    """

    def __init__(self, nlp: Language, path: str, retyper: str = "", recovery: str = "") -> None:
        import spacy

        # Its own tokenizer is never used (the host pipeline's tokenizes), so none is loaded or
        # made, which an incremental build would wait for. Nor are its strings: it reads tokens
        # by their hashes, and its labels come with its moves; re-adding its strings to the
        # shared vocab would cost as much again.
        self.model = spacy.load(
            path,
            vocab=nlp.vocab,
            exclude=["tokenizer", "strings"],
            config={"nlp": {"tokenizer": {"@tokenizers": BARE_TOKENIZER}}},
        )
        ner = self.model.get_pipe("ner")
        self.run_ner = ner_runner(ner)
        self.retyper: Retyper | None = None
        self.recovery: Retyper | None = None
        if retyper and Path(retyper).is_file():
            # The recogniser leaves its token vectors on each doc for the re-typer, which
            # pops them (a doc must not carry them into kg_mentions or another process).
            self.retyper = Retyper.load(retyper, ner=ner)
            if recovery and Path(recovery).is_file():
                self.recovery = Retyper.load(recovery, ner=ner)

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
        ensure_group(doc)
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
                    add_candidate(doc, end - 2, end - 1, str(label), "model")
                end -= 3
            # "GSM8K benchmark (+1.6%)", "Qwen2.5 (7B)": a bracketed figure is a result or a
            # size, no part of the name.
            if doc[end - 1].text == ")":
                inner = next((i for i in range(end - 2, start, -1) if doc[i].text == "("), None)
                if inner is not None and any(
                    FIGURE.match(t.text) for t in doc[inner + 1 : end - 1]
                ):
                    end = inner
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
            # A finite verb ends a noun phrase: "REPO preserve entropy" ran into its clause; so
            # does a verb the tagger read as a noun after a name ("Co-rewarding reaches").
            end = next((t.i for t in doc[start + 1 : end] if ends_a_name(doc, start, t)), end)
            while end > start + 1 and doc[end - 1].tag_ in DANGLING_TAGS:  # "FineWeb-Edu and"
                end -= 1
            # Two names joined by "and"/"or" are two names ("Llama-3 and Qwen2.5-7B").
            for part_start, part_end in split_coordinated_names(doc, start, end):
                add_candidate(doc, part_start, part_end, str(label), "model")
        doc.ents = []
        return doc

    def __call__(self, doc: Doc) -> Doc:
        return next(iter(self.pipe([doc], batch_size=1)))

    def pipe(self, docs: Any, batch_size: int = 32) -> Any:
        # The re-typer reads the recogniser's token vectors: they are left on each doc.
        key = TOKVEC_KEY if self.retyper is not None else None
        for doc in run_pipeline(self.model, docs, batch_size, self.run_ner, key):
            yield self._collect(doc)


def ends_a_name(doc: Doc, start: int, tok: Token) -> bool:
    """Whether ``tok`` is a verb that ends the phrase from token ``start``: a finite verb, or a
    verb of ``verbs_after_names.txt`` after words written as a name, which the tagger often
    reads as a plural noun ("Qwen2.5-1.5B-Instruct surpasses", "Co-rewarding reaches")."""
    if tok.tag_ in FINITE_VERB_TAGS:
        return True
    return tok.lower_ in VERBS_AFTER_NAMES and has_capital_or_digit(doc[start : tok.i].text)


def run_pipeline(
    nlp: Language,
    docs: Any,
    batch_size: int,
    run_ner: NerRunner | None = None,
    tokvecs_key: str | None = None,
) -> Any:
    """``nlp``'s components over ``docs`` (made already), its ``ner`` through ``run_ner``
    (:func:`kg.extract.fast.ner_runner`), which leaves the recogniser's token vectors on each
    doc under ``tokvecs_key``."""
    for name, proc in nlp.pipeline:
        if name in ("ner", "scierc_ner"):
            docs = (run_ner or ner_runner(proc))(docs, batch_size, tokvecs_key)
        elif hasattr(proc, "pipe"):
            docs = proc.pipe(docs, batch_size=batch_size)
        else:
            docs = map(proc, docs)
    return docs
