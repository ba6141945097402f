"""Author keywords as links of their own evidence kind (kg.resolve.keywords)."""

from __future__ import annotations

from kg.graph.assemble import build_graph
from kg.models import Mention, Paper
from kg.resolve.keywords import EVIDENCE_KIND, link_keywords
from kg.resolve.resolver import resolve_entities
from kg.schema import EVIDENCE_KIND_ATTR, Label, Rel


def _mention(text: str, label: Label, role: Rel) -> Mention:
    return Mention(0, len(text), text, label, role, f"We use {text}.")


def _graph(keywords: dict[str, list[str]], link: bool = True):  # noqa: ANN202
    papers = [
        Paper(id=pid, abstract=f"abstract {pid}", title=pid, keywords=kws)
        for pid, kws in keywords.items()
    ]
    mentions = {
        "p0": [_mention("GRPO", Label.METHOD, Rel.USES)],
        "p1": [_mention("GRPO", Label.METHOD, Rel.USES)],
        "p2": [],
    }
    entities = resolve_entities(mentions)
    if link:
        link_keywords(papers, mentions, entities)
    return build_graph(papers, mentions, entities)


def test_a_keyword_joins_the_entity_of_its_name_and_says_so() -> None:
    G = _graph({"p0": ["GRPO"], "p1": [], "p2": ["GRPO"]})
    edges = {(u, d.get(EVIDENCE_KIND_ATTR)) for u, v, d in G.edges(data=True) if v == "method:grpo"}
    # p0's text names GRPO already: the keyword adds no link; p2's link is the keyword's.
    assert edges == {("p0", None), ("p1", None), ("p2", EVIDENCE_KIND)}
    (data,) = [d for u, v, d in G.edges(data=True) if u == "p2" and d["type"] != "IN_TOPIC"]
    assert data["evidence"] == "author keyword: GRPO" and data["type"] == "USES"


def test_keywords_only_papers_list_make_typed_entities_and_fields_make_none() -> None:
    G = _graph(
        {
            "p0": ["code generation", "Machine Learning", "reasoning", "rare topic"],
            "p1": ["Code Generation", "Machine Learning", "reasoning"],
            "p2": ["code generation"],
        }
    )
    names = {a["name"]: a["label"] for _, a in G.nodes(data=True) if a["label"] != "Paper"}
    assert names["code generation"] == "Task"  # its most common spelling, typed as it reads
    assert G.nodes["task:code-generation"]["paper_count"] == 3
    # A field ("Machine Learning"), a lone everyday word ("reasoning") and one paper's keyword
    # ("rare topic") make no entity.
    assert "Machine Learning" not in names and "reasoning" not in names
    assert "rare topic" not in names


def test_withheld_keywords_change_nothing() -> None:
    kws = {"p0": ["code generation"], "p1": ["code generation"], "p2": []}
    plain = _graph({pid: [] for pid in kws})
    withheld = _graph(kws, link=False)
    assert sorted(plain.edges(keys=True)) == sorted(withheld.edges(keys=True))


def test_a_keyword_link_is_written_with_its_evidence_kind(tmp_path) -> None:  # noqa: ANN001
    # A paper's links are kept as kg.graph.paper_link.PaperLink, not dicts: the graph file and
    # the store must still write each as the dict it reads as, the evidence kind last.
    import orjson

    from kg.graph.assemble import graph_data
    from kg.store.file import write_graph_data
    from kg.store.sqlite import Store

    papers = [Paper(id="p0", abstract="a", title="p0"), Paper(id="p2", abstract="b", title="p2",
                                                             keywords=["GRPO"])]  # fmt: skip
    mentions = {"p0": [_mention("GRPO", Label.METHOD, Rel.USES)], "p2": []}
    entities = resolve_entities(mentions)
    link_keywords(papers, mentions, entities)
    data = graph_data(papers, mentions, entities, min_concept_papers=1, topics=False)
    written = orjson.loads(write_graph_data(data, tmp_path / "g.json").read_bytes())["links"]
    keyword = {"type": "USES", "evidence": "author keyword: GRPO", "start": 0, "end": 0,
               "confidence": 1.0, "count": 1, "source": "p2", "target": "method:grpo",
               "key": "USES", EVIDENCE_KIND_ATTR: EVIDENCE_KIND}  # fmt: skip
    assert written[1] == keyword and list(written[1]) == sorted(keyword)
    assert list(data["links"][1]) == list(keyword)  # (the order a dict literal would have)
    with Store(write_graph_data(data, tmp_path / "g.db")) as store:
        assert store.links_of("p2") == [keyword]
        (text,) = store.links_of("p0")
    assert EVIDENCE_KIND_ATTR not in text and text["evidence"] == "We use GRPO."
