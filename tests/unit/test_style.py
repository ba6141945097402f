"""The Neo4j Browser style: generated from kg/schema.py, shipped, printed by kg query style."""

from __future__ import annotations

import re

from click.testing import CliRunner

from kg.cli import main
from kg.query.style import grass_style, shipped_style
from kg.schema import EDGE_COLOR, NODE_STYLE


def test_the_shipped_style_is_the_schemas() -> None:
    """Regenerate with: python -c "from kg.query.style import grass_style;
    open('kg/cypher/style.grass', 'w').write(grass_style())" """
    assert shipped_style() == grass_style()


def test_every_label_and_type_has_its_colour() -> None:
    text = grass_style()
    for label, style in NODE_STYLE.items():
        rule = re.search(rf"node\.{label.value} \{{(.*?)\n\}}", text, re.S)
        assert rule and f"color: {style['color']};" in rule.group(1), label
        assert 'caption: "{name}";' in rule.group(1)
    for rel, color in EDGE_COLOR.items():
        assert f"relationship.{rel.value} {{\n  color: {color};" in text
    assert text.count("{") == text.count("}")  # balanced rules


def test_kg_query_style_prints_it() -> None:
    out = CliRunner().invoke(main, ["query", "style"])
    assert out.exit_code == 0 and out.output == shipped_style()
