"""Author keywords as links: each paper to the entities its authors list as its keywords.

A corpus such as OpenReview's gives each paper its authors' keywords ("diffusion models",
"GRPO", "Machine Learning"). They are links the text may not state, so a build adds them after
entity resolution, in their own kind of evidence ("author keyword"):

* a lone word that is not written as a name names a field, not an entity: it links nothing;
* a keyword whose merge key is an entity's (its own or an acronym's long form: "LLMs" for
  "large language models") links the paper to that entity, whatever the extraction typed it;
* any other keyword that two papers or more list makes an entity of its own, typed from how it
  reads (:func:`keyword_label`) — a field or a generic name ("Machine Learning", "LLM") makes
  none;
* keywords never vote on an entity's type or name, and never make a paper propose anything:
  the text decides those.

Every measurement of the extraction withholds them (``kg build --no-keywords``, and the
benchmarks' builds): a keyword cannot count as something the text was found to say.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from kg.extract.normalize import normalize_key
from kg.models import Entity, Mention, Paper
from kg.resolve.kinds import worth_a_node
from kg.resolve.names import names_a_model
from kg.resolve.terms import reads_as_metric, reads_as_task, reads_as_technique
from kg.resolve.words import gazetteer_methods, listed_datasets, resolution_words
from kg.schema import DEFAULT_ROLE, Label, entity_id

#: The source of a keyword's mention (:attr:`kg.models.Mention.source`), and the evidence kind
#: of the links only keywords make.
KEYWORD = "keyword"
EVIDENCE_KIND = "author keyword"
#: A keyword no entity has becomes one when this many papers list it: one paper's keyword ties
#: no papers together.
MIN_KEYWORD_PAPERS = 2


def keyword_label(keyword: str, key: str) -> Label | None:
    """The type of an entity that only keywords name, from how the keyword reads; None when it
    names no entity (a field, a generic name, an everyday word).

    >>> [keyword_label(k, normalize_key(k)) for k in ("code generation", "ridge regression",
    ...     "Machine Learning", "distribution shift", "ImageNet")]
    [<Label.TASK: 'Task'>, <Label.METHOD: 'Method'>, None, <Label.CONCEPT: 'Concept'>, \
<Label.DATASET: 'Dataset'>]
    """
    if key in resolution_words().generic_names or not worth_a_node(keyword, key):
        return None
    if key in listed_datasets():
        return Label.DATASET
    if key in gazetteer_methods() or names_a_model(keyword) or reads_as_technique(key, keyword):
        return Label.METHOD
    if reads_as_task(key, keyword):
        return Label.TASK
    if reads_as_metric(key, keyword):
        return Label.METRIC
    return Label.CONCEPT


def _usable(keyword: str) -> bool:
    """Whether a keyword can name an entity: a phrase, or one word written as a name ("GRPO",
    "LoRA", "GPT-4"). A lone word otherwise names a field ("reasoning", "Alignment",
    "Diffusion": ICLR 2026 lists "reasoning" 130 times), and would land on whatever entity the
    text happens to have for it.

    >>> [_usable(k) for k in ("GRPO", "LoRA", "fine-tuning", "Reasoning", "safety")]
    [True, True, True, False, False]
    """
    keyword = keyword.strip()
    if not normalize_key(keyword):
        return False
    if " " in keyword or "-" in keyword:  # "fine-tuning", "post-training"
        return True
    rest = keyword[1:]
    return rest.lower() != rest or any(c.isdigit() for c in keyword)


def link_keywords(
    papers: list[Paper], mentions: dict[str, list[Mention]], entities: dict[str, Entity]
) -> None:
    """Add each paper's keyword links to ``mentions`` (source :data:`KEYWORD`), and to
    ``entities`` the entities only keywords name. Deterministic: entities are made in key order
    and named by their most common spelling (ties: the first in sort order)."""
    by_key: dict[str, str] = {}  # merge key -> entity id, for the keys the text resolved
    for pid_mentions in mentions.values():
        for m in pid_mentions:
            if m.entity and m.key:
                by_key.setdefault(m.key, m.entity)
    for eid in entities:  # an entity's own key, also when only an acronym of it was written
        by_key.setdefault(eid.partition(":")[2], eid)
    listed: dict[str, dict[str, str]] = {}  # paper id -> keyword key -> keyword as written
    for p in papers:
        listed[p.id] = {normalize_key(k): k for k in p.keywords if _usable(k)}
    entities.update(_keyword_entities(listed, by_key))
    for p in papers:
        linked = {m.entity for m in mentions.get(p.id, ())}
        for key, written in sorted(listed[p.id].items()):
            found = by_key.get(key)
            if found is None or found in linked:
                continue
            eid = found
            linked.add(eid)
            label = entities[eid].label
            mentions.setdefault(p.id, []).append(
                Mention(
                    start=0,
                    end=0,
                    text=written,
                    type=label,
                    role=DEFAULT_ROLE[label],
                    sentence="",
                    entity=eid,
                    source=KEYWORD,
                    key=key,
                )
            )


def _keyword_entities(
    listed: dict[str, dict[str, str]], by_key: dict[str, str]
) -> dict[str, Entity]:
    """Entities for the keywords that no entity has and enough papers list."""
    papers_of: Counter[str] = Counter()
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for keywords in listed.values():
        for key, written in keywords.items():
            if key not in by_key:
                papers_of[key] += 1
                spellings[key][written] += 1
    out: dict[str, Entity] = {}
    for key in sorted(papers_of):
        if papers_of[key] < MIN_KEYWORD_PAPERS:
            continue
        forms = spellings[key]
        name = min(forms, key=lambda f: (-forms[f], f))
        label = keyword_label(name, key)
        if label is None:
            continue
        eid = entity_id(label, key)
        out[eid] = Entity(
            id=eid,
            label=label,
            name=name,
            aliases=sorted(f for f in forms if f != name),
            paper_count=papers_of[key],
        )
    by_key.update({e.id.partition(":")[2]: e.id for e in out.values()})
    return out
