"""Acronym definitions inside one abstract: "micro-expression recognition (MER)".

The matching follows Schwartz & Hearst (2003): walk the acronym's characters right to left and
find them, in order, in the words before the parenthesis, the first character at the start of a
word. The shortest long form that covers the acronym wins.

>>> find_long_form("MER", "micro-expression recognition")
'micro-expression recognition'
>>> find_long_form("MMEB", "on the Massive Multimodal Embedding Benchmark")
'Massive Multimodal Embedding Benchmark'
>>> find_long_form("LLMs", "training of large language models")
'large language models'
>>> find_long_form("XYZ", "a plain sentence") is None
True
"""

from __future__ import annotations

import re

from kg.extract.lexicon import read_data_lines
from kg.extract.normalize import acronym_letters

# An acronym: 2-10 characters, starts with a letter, at least two capitals ("MER", "ViDoRe",
# "LLMs", "T2I"); a plain capitalised word ("Adam") is not one.
ACRONYM = re.compile(r"^(?=(?:.*[A-Z]){2})[A-Za-z][A-Za-z0-9\-]{1,9}$")
_STOP_AT = {"(", ")", ";", ":", "[", "]"}
#: Dashes that join two words into one written word ("method—Partial"), unlike a hyphen.
_DASHES = frozenset("—–")
#: Small words a long form may hold without a letter of the acronym ("Learning with Noisy Labels
#: (LNL)"): ``initials_skipped_words.txt``.
SKIPPED_WORDS = frozenset(read_data_lines("initials_skipped_words.txt"))


def is_acronym(text: str) -> bool:
    """True for strings that look like acronyms.

    >>> is_acronym("MER"), is_acronym("ViDoRe"), is_acronym("Adam"), is_acronym("GPT-4")
    (True, True, False, True)
    """
    return bool(ACRONYM.match(text))


def find_long_form(acronym: str, before: str) -> str | None:
    """The long form of ``acronym`` at the end of ``before`` (the text before "(ACR)")."""
    letters = acronym_letters(acronym)
    if len(letters) < 2:
        return None
    words = before.split()
    max_words = min(len(letters) + 5, len(letters) * 2)
    words = words[-max_words:]
    # Cut at clause punctuation: a long form never spans "(", ";" or ":".
    for i in range(len(words) - 1, -1, -1):
        if words[i] in _STOP_AT or words[i].endswith((";", ":", ",")) and i < len(words) - 1:
            words = words[i + 1 :]
            break
    candidate = " ".join(words)
    by_initials = _match_initials(letters, words)
    if by_initials is not None:
        return by_initials
    lower = candidate.lower()
    s_index = len(letters) - 1
    l_index = len(lower) - 1
    while s_index >= 0:
        ch = letters[s_index]
        # Find ch to the left; the first acronym letter must start a word.
        while l_index >= 0 and (
            lower[l_index] != ch or (s_index == 0 and l_index > 0 and lower[l_index - 1].isalnum())
        ):
            l_index -= 1
        if l_index < 0:
            return None
        l_index -= 1
        s_index -= 1
    start = lower.rfind(" ", 0, l_index + 1) + 1
    long_form = candidate[start:].strip(" ,.;:\"'")
    if not long_form or len(long_form) <= len(acronym) or long_form.lower() == acronym.lower():
        return None
    # Reject long forms that swallowed most of a clause (more words than letters allow).
    if len(long_form.split()) > max_words:
        return None
    return long_form


def _match_initials(letters: str, words: list[str]) -> str | None:
    """Long form whose word (or hyphen-part) initials spell the acronym, if there is one.

    Tried before the character walk because it is right whenever it applies: the walk happily
    matches a letter inside a word ("Multimodal") and drops the word before it. A long form
    that starts after a dash inside a written word starts there: in "an unlearning
    method—Partial Model Collapse (PMC)" it is "Partial Model Collapse".

    >>> _match_initials("pmc", "a novel unlearning method—Partial Model Collapse".split())
    'Partial Model Collapse'
    >>> _match_initials("vlm", "pre-trained Vision–Language Models".split())
    'Vision–Language Models'
    """
    # (word index, where the part starts in the word, initial) for every word and every part
    # of a word between hyphens, slashes and dashes.
    initials: list[tuple[int, int, str]] = []
    for i, word in enumerate(words):
        for part in re.finditer(r"[^-/—–]+", word):
            if part.group()[0].isalnum():
                initials.append((i, part.start(), part.group()[0].lower()))
    # Walk right to left, allowing skipped small words ("of", "for", "and").
    s_index, k = len(letters) - 1, len(initials) - 1
    first: tuple[int, int] | None = None
    while s_index >= 0 and k >= 0:
        word_index, at, initial = initials[k]
        if initial == letters[s_index]:
            s_index -= 1
            first = word_index, at
        elif words[word_index].lower() not in SKIPPED_WORDS:
            return None
        k -= 1
    if s_index >= 0 or first is None:
        return None
    word_index, at = first
    head = words[word_index]
    if at > 0 and head[at - 1] in _DASHES:
        head = head[at:]
    return " ".join([head, *words[word_index + 1 :]]).strip(" ,.;:\"'")
