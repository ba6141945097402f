"""A GraSS style for the Neo4j Browser, made from :mod:`kg.schema`: kg's colours, sizes and
captions (``name``), so the Browser shows a graph that looks like kg's HTML export.

The Browser reads it with ``:style`` followed by the file's text (or by dropping the file on
the style panel). ``kg query style`` prints it; the shipped copy is ``kg/cypher/style.grass``.

>>> text = grass_style()
>>> "node.Method {" in text and 'caption: "{name}";' in text
True
"""

from __future__ import annotations

from importlib import resources

from kg.schema import EDGE_COLOR, NODE_STYLE, Label

#: Papers are the hubs a reader starts from: drawn larger.
_DIAMETER = {Label.PAPER: "65px"}
_DEFAULT_DIAMETER = "50px"
#: The shipped file, next to the canned queries.
STYLE_FILE = "style.grass"


def _darker(color: str, by: float = 0.75) -> str:
    """The border colour: ``color`` darkened (``#rrggbb``)."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(c * by):02x}" for c in (r, g, b))


def grass_style() -> str:
    """The GraSS text: one rule per node label and relationship type of the schema.

    No comment line: the Browser's GraSS parser has no comment syntax (a ``/* ... */`` line
    becomes part of the first rule's selector) and reads any quote as the start of a string.
    """
    out = [
        "node {",
        f"  diameter: {_DEFAULT_DIAMETER};",
        "  font-size: 10px;",
        "  border-width: 2px;",
        "  text-color-internal: #ffffff;",
        '  caption: "{name}";',
        "}",
        "relationship {",
        "  shaft-width: 1px;",
        "  font-size: 8px;",
        "  padding: 3px;",
        "  text-color-external: #000000;",
        '  caption: "<type>";',
        "}",
    ]
    for label, style in NODE_STYLE.items():
        color = style["color"]
        out += [
            f"node.{label.value} {{",
            f"  color: {color};",
            f"  border-color: {_darker(color)};",
            f"  diameter: {_DIAMETER.get(label, _DEFAULT_DIAMETER)};",
            '  caption: "{name}";',
            "}",
        ]
    for rel, color in EDGE_COLOR.items():
        out += [f"relationship.{rel.value} {{", f"  color: {color};", "}"]
    return "\n".join(out) + "\n"


def shipped_style() -> str:
    """The style file shipped in ``kg/cypher`` (what ``kg query style`` prints)."""
    return (resources.files("kg") / "cypher" / STYLE_FILE).read_text(encoding="utf-8")
