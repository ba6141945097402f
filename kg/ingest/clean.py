"""Turn the LaTeX and markdown found in abstracts into plain text.

Abstracts from OpenReview and friends mix LaTeX (``\\textsc{GenRep}``, ``$O(n^2)$``, ``\\ie``,
``\\%``), markdown (``**PMark**``, ``*x*``, ``[text](url)``) and TeX typography (``---``,
``~``, ````quotes''``). :func:`clean_text` returns readable plain text with **no backslash,
brace or dollar residue**, so nothing LaTeX-ish can reach an entity name.

How it works (order matters):

1. NFC-normalise; turn escaped literals (``\\_``, ``\\*``, ``\\$`` currency, ...) and URLs into
   placeholders so that no later step can mangle them.
2. Set math spans (``$...$``, ``\\(...\\)``) aside, then strip markdown emphasis, code, links
   and TeX quotes/dashes/tildes from the prose.
3. Put the math back and, only if LaTeX markup remains, convert it with pylatexenc
   (``LatexNodes2Text``, math rendered as readable text: ``$\\alpha$`` → α, ``$O(n^2)$`` →
   O(n^2)). Most abstracts have no ``\\``, ``$`` or ``{`` at all and skip this slow step.
4. Remove whatever residue is left, restore placeholders, collapse whitespace.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Callable

from pylatexenc.latex2text import (
    LatexNodes2Text,
    MacroTextSpec,
    get_default_latex_context_db,
)
from pylatexenc.latexwalker import LatexWalker
from pylatexenc.latexwalker import get_default_latex_context_db as walker_context_db
from pylatexenc.macrospec import MacroSpec

__all__ = ["clean_text", "normalise_abstract", "abstract_hash"]

# Private-use characters delimit placeholders; they never occur in real abstracts.
_LIT_OPEN, _LIT_CLOSE = "\ue000", "\ue001"  # final text, restored at the very end
_MATH_OPEN, _MATH_CLOSE = "\ue002", "\ue003"  # raw math, restored before LaTeX conversion
_LIT_RE = re.compile(_LIT_OPEN + r"(\d+)" + _LIT_CLOSE)
_MATH_RE = re.compile(_MATH_OPEN + r"(\d+)" + _MATH_CLOSE)

_NEEDS_LATEX = re.compile(r"[\\${}]")
# Anything clean_text may have to rewrite beyond whitespace; text without it takes a short cut.
_MARKUP_HINT = re.compile(r"[\\${}*_`~#\u200b\u200c\u200d\u2060\ufeff]|''|--|://|www\.")
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")

# --- step 1: literals, currency, URLs ------------------------------------------------------

_ESCAPED_LITERALS = {"\\_": "_", "\\*": "*", "\\#": "#", "\\&": "&", "\\%": "%"}
_ESCAPED_RE = re.compile(r"\\[_*#&%]")
# "\$0.9480\$" / "\$5.55\times\$": OpenReview sometimes escapes math delimiters. Treat an
# escaped pair as math when what it encloses is short and has no run of plain words.
_ESCAPED_MATH_PAIR = re.compile(r"\\\$([^$\n]{1,60}?)\\\$")
_PLAIN_WORDS = re.compile(r"[A-Za-z]{3,}\s+[A-Za-z]{3,}")
# A dollar that is money, not math: "$2000 bug bounty", "\$0.60 per trajectory".
_CURRENCY = re.compile(r"\\?\$(?=\d)")
_CURRENCY_NAMED = re.compile(r"\\?\$(?=\d[\d,.]*\s*(?:USD|dollars?)\b)")  # "$9 USD"

# Bare URLs stop at whitespace and at characters that cannot be part of one in an abstract.
_URL_CHARS = r"[^\s<>\"{}\\$\ue000-\ue003]"
_URL = re.compile(r"(?:https?://|www\.)" + _URL_CHARS + "+")
_URL_TRAILING = ".,;:!?'\"*_`"
_LATEX_URL = re.compile(r"\\url\s*\{([^{}]*)\}")
_LATEX_HREF = re.compile(r"\\href\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_MD_LINK = re.compile(r"\[([^\[\]\n]*)\]\(\s*([^()\s]*)\s*\)")
_ANGLE_URL = re.compile(r"<((?:https?://|www\.)[^<>\s]+)>")

# --- step 2: math spans, markdown, typography ------------------------------------------------

_MATH_SPANS = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
_MD_STRONG = [
    re.compile(r"\*\*\*(?=\S)(.+?)(?<=\S)\*\*\*", re.DOTALL),
    re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.DOTALL),
    re.compile(r"(?<![\w\\])__(?=\S)(.+?)(?<=\S)__(?!\w)", re.DOTALL),
]
# CommonMark: "*" may emphasise inside a word ("f-*IN*fluence"), "_" may not.
_MD_EM_STAR = re.compile(r"(?<![*\\])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*\\])\*(?!\*)")
_MD_EM_UNDERSCORE = re.compile(r"(?<![\w\\])_(?=[^\s_])([^_\n]+?)(?<=[^\s_\\])_(?!\w)")
_TEX_DQUOTE = re.compile(r"``(.*?)(?:''|\")", re.DOTALL)
_TEX_SQUOTE = re.compile(r"(?<!`)`([^`'\n]{1,80})'(?!\w)")
_MD_CODE = re.compile(r"`([^`\n]+)`")
_EM_DASH = re.compile(r"\s*---\s*")
_EN_DASH = re.compile(r"(?<=\w)--(?=\w)")
_DOUBLE_DASH = re.compile(r"\s+--\s+")
_APPROX_TILDE = re.compile(r"(?<![^\s(])~(?=\d)")  # "~2.31%" means "about", keep it
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.MULTILINE)

# --- step 3: LaTeX --------------------------------------------------------------------------

# Macros that only style their argument: keep the argument as is.
_STYLE_MACROS = [
    "texttt",
    "textsc",
    "textbf",
    "textit",
    "textrm",
    "textsf",
    "textnormal",
    "textup",
    "textmd",
    "textsl",
    "emph",
    "underline",
    "uline",
    "textup",
    "mathtt",
    "mathrm",
    "mathbf",
    "mathit",
    "mathsf",
    "mathcal",
    "mathbb",
    "mathfrak",
    "mathscr",
    "mathnormal",
    "boldsymbol",
    "bm",
    "pmb",
    "text",
    "mbox",
    "hbox",
    "textsuperscript",
    "textsubscript",
    "operatorname",
    "hl",
    "mathord",
    "mathrel",
    "mathbin",
    "mathop",
]
# Abbreviation macros common in ML papers.
_ABBREVIATIONS = {
    "ie": "i.e.",
    "eg": "e.g.",
    "etc": "etc.",
    "etal": "et al.",
    "vs": "vs.",
    "wrt": "w.r.t.",
    "cf": "cf.",
    "aka": "a.k.a.",
    "iid": "i.i.d.",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
}
# Macros whose output is noise in an abstract: citations, references, icons, spacing.
_DISCARD_1ARG = [
    "cite",
    "citep",
    "citet",
    "citealp",
    "citealt",
    "citeauthor",
    "citeyear",
    "ref",
    "cref",
    "Cref",
    "eqref",
    "autoref",
    "label",
    "ding",
    "includegraphics",
    "vspace",
    "hspace",
    "color",
]
_DISCARD_0ARG = [
    "faGithub",
    "faLink",
    "faGlobe",
    "noindent",
    "newline",
    "linebreak",
    "centering",
    "small",
    "large",
    "Large",
    "LARGE",
    "tiny",
    "footnotesize",
    "normalsize",
    "huge",
    "Huge",
    "bigskip",
    "medskip",
    "smallskip",
    "quad",
    "qquad",
    "displaystyle",
    "textstyle",
    "scriptstyle",
    "left",
    "right",
    "big",
    "Big",
    "bigg",
    "Bigg",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
]


def _macro_name(node: object) -> str:
    """Unknown macros (``\\oursname``, ``\\method``) are usually a paper's own name for its
    contribution; keeping the name keeps the sentence readable."""
    return str(getattr(node, "macroname", "")) + _post_space(node)


def _post_space(node: object) -> str:
    # LaTeX swallows the space after a control word; in prose we want it back.
    return " " if getattr(node, "macro_post_space", "") else ""


def _word(text: str) -> Callable[[object], str]:
    return lambda node: text + _post_space(node)


@functools.lru_cache(maxsize=1)
def _latex_converter() -> tuple[Callable[[str], str], frozenset[str]]:
    """Build the pylatexenc converter once (building the context databases is not free)."""
    l2t_db = get_default_latex_context_db()
    l2t_specs = [MacroTextSpec(name, "%(1)s") for name in _STYLE_MACROS]
    l2t_specs += [
        MacroTextSpec(name, simplify_repl=_word(text)) for name, text in _ABBREVIATIONS.items()
    ]
    l2t_specs += [MacroTextSpec(name, discard=True) for name in _DISCARD_1ARG + _DISCARD_0ARG]
    l2t_specs += [
        MacroTextSpec("textcolor", "%(3)s"),
        MacroTextSpec("colorbox", "%(3)s"),
        MacroTextSpec("footnote", " (%(2)s)"),
        MacroTextSpec("enquote", "“%(1)s”"),
        MacroTextSpec("hyperref", "%(2)s"),
        MacroTextSpec("hyperlink", "%(2)s"),
        MacroTextSpec("|", "‖"),
        MacroTextSpec("Vert", "‖"),
        MacroTextSpec("lVert", "‖"),
        MacroTextSpec("rVert", "‖"),
        MacroTextSpec("vert", "|"),
        MacroTextSpec("lvert", "|"),
        MacroTextSpec("rvert", "|"),
        MacroTextSpec("mid", "|"),
        MacroTextSpec("textemdash", "—"),
        MacroTextSpec("textendash", "–"),
        MacroTextSpec("texttimes", "×"),
        MacroTextSpec("textperthousand", "‰"),
        MacroTextSpec("widetilde", "%(1)s"),
        MacroTextSpec("widehat", "%(1)s"),
    ]
    l2t_db.add_context_category("kg", prepend=True, macros=l2t_specs)
    l2t_db.set_unknown_macro_spec(MacroTextSpec("", simplify_repl=_macro_name))

    walker_db = walker_context_db()
    walker_specs = [MacroSpec(name, "{") for name in _STYLE_MACROS + _DISCARD_1ARG]
    # natbib: \citep[see][p. 3]{key}
    walker_specs += [MacroSpec(name, "[[{") for name in _DISCARD_1ARG if name.startswith("cite")]
    walker_specs += [MacroSpec(name, "") for name in list(_ABBREVIATIONS) + _DISCARD_0ARG]
    walker_specs += [
        MacroSpec("textcolor", "[{{"),
        MacroSpec("colorbox", "[{{"),
        MacroSpec("footnote", "[{"),
        MacroSpec("enquote", "{"),
        MacroSpec("hyperref", "[{"),
        MacroSpec("hyperlink", "{{"),
        MacroSpec("widetilde", "{"),
        MacroSpec("widehat", "{"),
    ]
    walker_db.add_context_category("kg", prepend=True, macros=walker_specs)
    known = frozenset(spec.macroname for spec in walker_db.iter_macro_specs())

    converter = LatexNodes2Text(latex_context=l2t_db, math_mode="text", strict_latex_spaces=False)

    def convert(text: str) -> str:
        walker = LatexWalker(text, latex_context=walker_db, tolerant_parsing=True)
        nodes, _, _ = walker.get_latex_nodes()
        return str(converter.nodelist_to_text(nodes))

    return convert, known


_MACRO = re.compile(r"\\([A-Za-z]+)\*?")
# An unknown macro applied to an argument (``\\red{x}``, ``\\cmt{x}``) is a wrapper: drop its name.
_UNKNOWN_WRAPPER = re.compile(r"\\([A-Za-z]+)\s*(?=\{[^}])")

# The LaTeX bits of a text: math, environments, macros with their arguments, brace groups.
# Converting these spans one by one (instead of the whole abstract) keeps pylatexenc's
# character-by-character tokenizer off the plain prose, which is most of the text.
_BALANCED = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"  # braces nested up to 3 deep
_LATEX_SPAN = re.compile(
    r"\$\$.+?\$\$|\$.+?\$|\\\(.+?\\\)|\\\[.+?\\\]"
    r"|\\begin\{([A-Za-z]+\*?)\}.*?\\end\{\1\}"
    r"|\\['\"`^~=.](?:\{[A-Za-z]?\}|[A-Za-z])"  # accents: \'e, \"{o}
    r"|\\(?:[A-Za-z]+\*?|.)(?:\s*\[[^\[\]{}]*\]){0,2}(?:\s*" + _BALANCED + ")*"
    r"|" + _BALANCED,
    re.DOTALL,
)


def _drop_unknown_wrappers(text: str, known: frozenset[str]) -> str:
    return _UNKNOWN_WRAPPER.sub(lambda m: m.group(0) if m.group(1) in known else "", text)


def _latex_to_text(text: str) -> str:
    _, known = _latex_converter()
    text = _drop_unknown_wrappers(text, known)
    return _LATEX_SPAN.sub(lambda m: _convert_span(m.group(0)), text)


@functools.lru_cache(maxsize=8192)
def _convert_span(span: str) -> str:
    convert, _ = _latex_converter()
    try:
        return convert(span)
    except Exception:  # pylatexenc has crashed on odd input (e.g. a bare \\href); degrade
        return _strip_latex(span)


def _strip_latex(text: str) -> str:
    """Last-resort LaTeX removal: abbreviations spelled out, known (styling) macros dropped
    with their arguments kept, unknown macros kept by name; braces and dollars removed."""
    _, known = _latex_converter()

    def repl(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in _ABBREVIATIONS:
            return _ABBREVIATIONS[name]
        return "" if name in known else name

    text = _MACRO.sub(repl, text).replace("\\", " ")
    return text.replace("{", "").replace("}", "").replace("$", "")


# --- the public function ----------------------------------------------------------------------


def clean_text(text: str) -> str:
    """Return ``text`` as plain, NFC-normalised, single-spaced text.

    LaTeX and markdown markup is converted (``\\textsc{GenRep}`` → GenRep, ``$22$`` → 22,
    ``\\ie`` → i.e., ``\\%`` → %, ``**x**`` → x, ``[t](u)`` → t, ``$\\alpha$`` → α); URLs are
    kept intact; the result never contains a backslash, a brace or a dollar sign.
    """
    if not text:
        return ""
    lits: list[str] = []

    def lit(value: str) -> str:
        lits.append(value)
        return f"{_LIT_OPEN}{len(lits) - 1}{_LIT_CLOSE}"

    text = unicodedata.normalize("NFC", text)
    if not _MARKUP_HINT.search(text):  # plain text (most titles and keywords): tidy only
        return _tidy(text)
    text = _ZERO_WIDTH.sub("", text).replace("\\\\", "\n")  # "\\\\" is a LaTeX line break

    # 1. URLs, money and escaped characters become placeholders. (The `in` tests skip
    #    regex scans that cannot match; clean_text runs on every field of every record.)
    has_backslash = "\\" in text
    if has_backslash:
        text = _LATEX_URL.sub(lambda m: lit(m.group(1).strip()), text)
        text = _LATEX_HREF.sub(lambda m: m.group(2) or lit(m.group(1).strip()), text)
    if "](" in text:
        text = _MD_LINK.sub(_markdown_link(lit), text)
    if "://" in text or "www." in text:
        text = _ANGLE_URL.sub(lambda m: lit(m.group(1)), text)
        text = _URL.sub(_bare_url(lit), text)
    if "$" in text:
        text = _fix_dollars(text, lit)
    if has_backslash:
        text = _ESCAPED_RE.sub(lambda m: lit(_ESCAPED_LITERALS[m.group(0)]), text)

    # 2. Math aside; markdown and typography on the prose only.
    maths: list[str] = []

    def keep_math(m: re.Match[str]) -> str:
        maths.append(m.group(0))
        return f"{_MATH_OPEN}{len(maths) - 1}{_MATH_CLOSE}"

    if "$" in text or has_backslash:
        text = _MATH_SPANS.sub(keep_math, text)
    text = _prose(text, lit)
    if maths:
        text = _MATH_RE.sub(lambda m: maths[int(m.group(1))], text)

    # 3. LaTeX, only when there is some (the slow path).
    if _NEEDS_LATEX.search(text):
        text = _latex_to_text(text)
        text = _strip_latex(text)  # whatever pylatexenc left behind

    # 4. Placeholders back, whitespace tidy.
    if lits:
        text = _LIT_RE.sub(lambda m: lits[int(m.group(1))], text)
    return _tidy(text)


def _markdown_link(lit: Callable[[str], str]) -> Callable[[re.Match[str]], str]:
    def repl(m: re.Match[str]) -> str:
        label, url = m.group(1).strip(), m.group(2).strip()
        if not label or _URL.fullmatch(label):
            return lit(label or url)
        return label

    return repl


def _bare_url(lit: Callable[[str], str]) -> Callable[[re.Match[str]], str]:
    def repl(m: re.Match[str]) -> str:
        url = m.group(0)
        tail = ""
        while url and (
            url[-1] in _URL_TRAILING or (url[-1] == ")" and url.count("(") < url.count(")"))
        ):
            tail = url[-1] + tail
            url = url[:-1]
        return lit(url) + tail

    return repl


def _fix_dollars(text: str, lit: Callable[[str], str]) -> str:
    """Make ``$`` signs pair up as math delimiters; money becomes "USD"."""
    text = _CURRENCY_NAMED.sub("", text)
    if "\\$" in text:
        text = _ESCAPED_MATH_PAIR.sub(
            lambda m: m.group(0) if _PLAIN_WORDS.search(m.group(1)) else "$" + m.group(1) + "$",
            text,
        )
        text = _CURRENCY.sub(lambda m: lit("USD ") if m.group(0) == "\\$" else m.group(0), text)
        text = text.replace("\\$", "")
    # An odd number of unescaped $: some are money ("a $2000 bug bounty") or strays.
    while text.count("$") % 2:
        m = next((m for m in _CURRENCY.finditer(text) if _is_money(text, m.start())), None)
        if m is None:
            last = text.rindex("$")
            text = text[:last] + " " + text[last + 1 :]
        else:
            text = text[: m.start()] + lit("USD ") + text[m.end() :]
    return text


def _is_money(text: str, pos: int) -> bool:
    """``$2000 bug`` (a number, then a space and a word) rather than ``$2$``."""
    m = re.match(
        r"\$\d[\d,.]*(?:\s*(?:[kKMB]|million|billion|thousand))?(?=[\s,.;)]|$)", text[pos:]
    )
    return m is not None and (pos == 0 or not text[pos - 1].isalnum())


def _prose(text: str, lit: Callable[[str], str]) -> str:
    """Markdown and TeX typography on text without math or URLs."""
    if "#" in text:
        text = _MD_HEADING.sub("", text)
    if "*" in text or "__" in text:
        for pattern in _MD_STRONG:
            text = pattern.sub(r"\1", text)
    if "`" in text or "''" in text:
        text = _TEX_DQUOTE.sub(r"“\1”", text).replace("``", "“").replace("''", "”")
        text = _TEX_SQUOTE.sub(r"‘\1’", text)
        text = _MD_CODE.sub(r"\1", text)
    if "*" in text:
        text = _MD_EM_STAR.sub(r"\1", text)
    if "_" in text:
        text = _MD_EM_UNDERSCORE.sub(r"\1", text)
    if "--" in text:
        text = _EM_DASH.sub(" — ", text)
        text = _EN_DASH.sub("–", text)
        text = _DOUBLE_DASH.sub(" — ", text)
    if "~" in text:
        text = _APPROX_TILDE.sub(lambda m: lit("~"), text)
        text = text.replace("~", " ")
    return text


_SPACE = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+(?=[,.;:!?)\]])")
_SPACE_AFTER_OPEN = re.compile(r"(?<=[(\[])\s+")
_EMPTY_BRACKETS = re.compile(r"\s\(\s*\)|\s\[\s*\]")


def _tidy(text: str) -> str:
    text = _SPACE.sub(" ", text)
    if "()" in text or "( )" in text or "[]" in text or "[ ]" in text:
        text = _EMPTY_BRACKETS.sub("", text)  # left by removed citations: "method (\\citep{x})"
    text = _SPACE_BEFORE_PUNCT.sub("", text)
    text = _SPACE_AFTER_OPEN.sub("", text)
    return text.strip()


def normalise_abstract(abstract: str) -> str:
    """The dedupe/hash key of an already-cleaned abstract: lowercase, single spaces."""
    return " ".join(abstract.split()).lower()  # split() and \s agree on what is a space


def abstract_hash(abstract: str) -> str:
    """``paper:`` + the first 16 hex digits of the SHA-1 of the normalised abstract."""
    digest = hashlib.sha1(normalise_abstract(abstract).encode("utf-8")).hexdigest()
    return "paper:" + digest[:16]
