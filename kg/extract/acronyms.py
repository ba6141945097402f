"""The ``kg_acronyms`` component: "long form (ACR)" definitions inside an abstract.

It records ACR → long form in ``doc._.kg_acronyms`` and makes the whole definition a candidate
(``kg_mentions`` later adds the acronym inside it as a mention of its own, so that every other
use of ACR links to the long form's entity). The matching itself is spaCy-free
(:mod:`kg.extract.long_forms`).
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.long_forms import find_long_form, is_acronym
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
        for acronym, long_form, start, end in reverse_definitions(doc):
            found.setdefault(acronym, long_form)
            add_candidate(doc, start, end, UNKNOWN, "acronym")
        doc._.kg_acronyms = found
        return doc


def reverse_definitions(doc: Doc) -> list[tuple[str, str, int, int]]:
    """The definitions "ACR ( long form )" of ``doc``: (ACR, long form, first token, end).
    The brackets hold the long form whole, its initials (or letters) spelling the acronym
    (:func:`find_long_form`): "We introduce ATTS (Asynchronous Test-Time Scaling)". ICLR 2026
    abstracts write about 200, most of them for the paper's own method.

    >>> import spacy
    >>> nlp = spacy.blank("en")
    >>> reverse_definitions(nlp("We introduce ATTS (Asynchronous Test-Time Scaling), a method."))
    [('ATTS', 'Asynchronous Test-Time Scaling', 2, 10)]
    >>> reverse_definitions(nlp("We train LLaMA3 (8B) and GPT-4 (OpenAI, 2023)."))
    []
    """
    out = []
    for open_paren in doc:
        if open_paren.text != "(" or open_paren.i == 0 or not open_paren.i + 2 < len(doc):
            continue
        acronym = doc[open_paren.i - 1]
        if not is_acronym(acronym.text) or not acronym.whitespace_:
            continue
        close = next((t.i for t in doc[open_paren.i + 1 : open_paren.i + 14]
                      if t.text in ("(", ")")), None)  # fmt: skip
        if close is None or doc[close].text != ")" or close - open_paren.i < 3:
            continue
        inside = doc[open_paren.i + 1 : close]
        if find_long_form(acronym.text, inside.text) == inside.text:
            out.append((acronym.text, inside.text, acronym.i, close + 1))
    return out
