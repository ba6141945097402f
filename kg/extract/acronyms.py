"""The ``kg_acronyms`` component: "long form (ACR)" definitions inside an abstract.

It records ACR → long form in ``doc._.kg_acronyms`` and makes the whole definition a candidate
(``kg_mentions`` later adds the acronym inside it as a mention of its own, so that every other
use of ACR links to the long form's entity). The matching itself is spaCy-free
(:mod:`kg.extract.long_forms`).
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.long_forms import find_long_form
from kg.extract.spans import UNKNOWN, add_candidate, bracketed_acronym, ensure_group

if not Doc.has_extension("kg_acronyms"):
    Doc.set_extension("kg_acronyms", default=None)


@Language.factory(
    "kg_acronyms", assigns=["doc._.kg_acronyms", "doc.spans"], requires=["token.text"]
)
def make_acronyms(nlp: Language, name: str) -> AcronymFinder:
    return AcronymFinder()


class AcronymFinder:
    """Finds "long form (ACR)" and records ACR → long form; the long form becomes a candidate."""

    def __call__(self, doc: Doc) -> Doc:
        ensure_group(doc)
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
            add_candidate(doc, span.start, close.i + 1, UNKNOWN, "acronym")
        doc._.kg_acronyms = found
        return doc
