"""Normalisation of entity surface forms into merge keys.

Two mentions name the same entity when their keys are equal: case, plural, hyphen/space, dash
variants and leading determiners are ignored.

>>> normalize_key("Micro-Expression Recognition")
'micro-expression-recognition'
>>> normalize_key("micro expression recognitions")
'micro-expression-recognition'
>>> normalize_key("the LLMs") == normalize_key("LLM")
True
>>> normalize_key("Atlas")  # a capitalised name is not a plural
'atlas'
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from kg.extract.lexicon import read_data_lines

_DASHES = re.compile(r"[\u2010\u2011\u2012\u2013\u2014\u2015\u2212_]")
_NON_WORD = re.compile(r"[^0-9a-z+#.\s-]")
_SEPARATORS = re.compile(r"[\s-]+")
_LETTER_NUMBER = re.compile(r"(?<=[a-z])-(?=\d)")
#: Words that open a surface form without belonging to the name: ``leading_words.txt``.
_LEADING = frozenset(read_data_lines("leading_words.txt"))
_ACRONYM_PLURAL = re.compile(r"^[A-Z][A-Z0-9]*[A-Z]s$")  # "LLMs", "VLMs"
# Words ending in -s that are not plurals ("analysis", "bias"): not_plural_endings.txt.
_NOT_PLURAL_ENDINGS = "|".join(re.escape(e) for e in read_data_lines("not_plural_endings.txt"))
_NOT_PLURAL = re.compile(f"({_NOT_PLURAL_ENDINGS})$")
#: Plurals the rules get wrong, and their singulars ("caches" -> "cache"): irregular_plurals.txt.
_IRREGULAR = dict(line.split() for line in read_data_lines("irregular_plurals.txt"))


def singularize(word: str) -> str:
    """Singular of a lower-case English word (rules, not a dictionary: good enough for keys).

    >>> [singularize(w) for w in ["models", "strategies", "processes", "analysis", "bias"]]
    ['model', 'strategy', 'process', 'analysis', 'bias']
    >>> [singularize(w) for w in ["caches", "approaches", "series"]]
    ['cache', 'approach', 'series']
    """
    if len(word) <= 3 or not word.isalpha():
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    if word.endswith("s") and not _NOT_PLURAL.search(word):
        return word[:-1]
    return word


def _strip_leading(words: list[str]) -> list[str]:
    while len(words) > 1 and words[0].lower() in _LEADING:
        words = words[1:]
    return words


@lru_cache(maxsize=200_000)  # resolution asks for the same surface forms again and again
def normalize_key(surface: str) -> str:
    """The merge key of a surface form (lower case, hyphen-joined, singular).

    >>> [normalize_key(s) for s in ("Large Language Models", "Time Series", "LLMs", "Atlas")]
    ['large-language-model', 'time-series', 'llm', 'atlas']
    >>> [normalize_key(s) for s in ("CIFAR-10", "CIFAR10", "MATH-500", "Qwen2.5-VL-7B")]
    ['cifar10', 'cifar10', 'math500', 'qwen2.5-vl7b']
    """
    text = unicodedata.normalize("NFKC", surface).strip()
    text = _DASHES.sub("-", text)
    words = _strip_leading(text.split())
    if not words:
        return ""
    last = words[-1]
    # Only plural-looking lower-case words and acronym plurals ("LLMs") are singularised:
    # "Atlas" or "ImageNet-Sketches" are names, not plurals.
    if _ACRONYM_PLURAL.match(last):
        words[-1] = last[:-1]
    elif last.islower() or (len(words) > 1 and last.istitle()):  # "Large Language Models"
        parts = last.split("-")
        parts[-1] = singularize(parts[-1].lower())  # "Time Series": the lists are lower case
        words[-1] = "-".join(parts)
    text = " ".join(words).lower()
    text = _NON_WORD.sub(" ", text)
    text = text.replace(".", " ").replace("  ", " ") if not re.search(r"\d\.\d", text) else text
    # "CIFAR-10" and "CIFAR10", "MATH-500" and "MATH500", "GPT-4" and "GPT 4" are one name:
    # a separator between a letter and the number after it is dropped.
    return fold_letter_numbers(_SEPARATORS.sub("-", text).strip("-"))


def fold_letter_numbers(key: str) -> str:
    """``key`` without the hyphens between a letter and the number after it ("cifar-10" →
    "cifar10"), as :func:`normalize_key` writes it."""
    return _LETTER_NUMBER.sub("", key)


@lru_cache(maxsize=200_000)
def clean_surface(surface: str) -> str:
    """A surface form as shown to users: whitespace collapsed, unicode dashes unified."""
    text = unicodedata.normalize("NFKC", surface)
    text = re.sub(r"[\u2010\u2011\u2012\u2013\u2212]", "-", text)
    return " ".join(text.split()).strip(" ,;:.")


def acronym_letters(acronym: str) -> str:
    """Letters of an acronym that a long form must cover (plural 's' dropped).

    >>> acronym_letters("LLMs")
    'llm'
    """
    if _ACRONYM_PLURAL.match(acronym):
        acronym = acronym[:-1]
    return "".join(ch.lower() for ch in acronym if ch.isalnum())


_BRACKETS = {")": "(", "]": "["}
_TRAILING = " \t-–—,;:/"


def balanced_prefix(text: str) -> str:
    """``text`` up to its first bracket that is never matched, without trailing separators.

    A span cut at token boundaries can keep half of an aside, as the tokenizer glues brackets
    to words ("(AE)-based" gives the token "AE)-based"); the name is what comes before.

    >>> balanced_prefix("AE)-based"), balanced_prefix("T2I-ReasonBench(+3.7")
    ('AE', 'T2I-ReasonBench')
    >>> balanced_prefix("Adaptive Temperature Sampling)"), balanced_prefix("DPM-Solver++ (2M)")
    ('Adaptive Temperature Sampling', 'DPM-Solver++ (2M)')
    >>> balanced_prefix("mean pooling ( MP )")
    'mean pooling ( MP )'
    """
    opened: list[tuple[str, int]] = []
    for i, c in enumerate(text):
        if c in "([":
            opened.append((c, i))
        elif c in _BRACKETS:
            if not opened or opened[-1][0] != _BRACKETS[c]:
                return text[:i].rstrip(_TRAILING)
            opened.pop()
    return text[: opened[0][1]].rstrip(_TRAILING) if opened else text
