"""Cross-paper entity resolution: mentions → canonical entities.

Two mentions name one entity when their normalised keys match (case, plurals, hyphen/space and
dash variants), or when one is an acronym that some abstract defines as the other's long form.
Each entity keeps every surface form as an alias; its type is the majority type of its mentions.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from kg.extract.acronyms import is_acronym
from kg.extract.normalize import clean_surface, normalize_key
from kg.models import Entity, Mention
from kg.schema import DEFAULT_ROLE, Label, Rel, entity_id

#: Tie-break when a name is typed differently in different papers: specific types first.
TYPE_ORDER = [Label.DATASET, Label.METHOD, Label.TASK, Label.METRIC, Label.CONCEPT]


def _pick_label(votes: Counter[Label]) -> Label:
    return max(votes, key=lambda lab: (votes[lab], -TYPE_ORDER.index(lab)))


def _pick_name(forms: Counter[str]) -> str:
    # The most frequent surface form; ties go to the shorter (usually the singular, lower-case
    # form), then the alphabetically first.
    return min(forms, key=lambda f: (-forms[f], len(f), f))


def resolve_entities(mentions_by_paper: dict[str, list[Mention]]) -> dict[str, Entity]:
    """Give every mention an entity id (``mention.entity``) and its final type; return the
    entities by id. Mentions are updated in place; the result is independent of paper order."""
    # 1. acronym key -> its most frequent long-form key, from the definitions seen anywhere in
    #    the corpus.
    long_forms: dict[str, Counter[str]] = defaultdict(Counter)
    for mentions in mentions_by_paper.values():
        for m in mentions:
            if m.canonical and m.canonical != m.text and is_acronym(m.text):
                long_forms[normalize_key(m.text)][normalize_key(m.canonical)] += 1
    expand = {
        acr: max(forms, key=lambda k, forms=forms: (forms[k], k))  # type: ignore[misc]
        for acr, forms in long_forms.items()
    }
    # A conference repeats the same surface forms tens of thousands of times: key each once.
    key_of_surface: dict[str, str] = {}

    def key_of(surface: str) -> str:
        key = key_of_surface.get(surface)
        if key is None:
            key = normalize_key(surface)
            # an undefined acronym use ("MMEB" in a paper that never spells it out)
            key = key_of_surface[surface] = expand.get(key, key)
        return key

    # 2. group mentions by key and vote on the type and the name (flat counters: one Counter
    #    per key cost more than the voting itself).
    label_votes: Counter[tuple[str, Label]] = Counter()
    name_votes: Counter[tuple[str, str]] = Counter()
    aliases: dict[str, set[str]] = defaultdict(set)
    papers: dict[str, set[str]] = defaultdict(set)
    keyed: list[tuple[Mention, str]] = []
    for pid in sorted(mentions_by_paper):
        for m in mentions_by_paper[pid]:
            surface = m.canonical or m.text
            key = expand.get(m.key, m.key) if m.key else key_of(surface)
            if not key:
                continue
            keyed.append((m, key))
            label_votes[key, m.type] += 1
            name = clean_surface(surface)
            name_votes[key, name] += 1
            aliases[key].update((clean_surface(m.text), name))
            papers[key].add(pid)
    labels_of: dict[str, Counter[Label]] = defaultdict(Counter)
    for (key, label), n in label_votes.items():
        labels_of[key][label] = n
    names_of: dict[str, Counter[str]] = defaultdict(Counter)
    for (key, name), n in name_votes.items():
        names_of[key][name] = n

    entities: dict[str, Entity] = {}
    id_of_key: dict[str, str] = {}
    label_of_key: dict[str, Label] = {}
    for key in sorted(labels_of):
        label = _pick_label(labels_of[key])
        eid = entity_id(label, key)
        name = _pick_name(names_of[key])
        entities[eid] = Entity(
            id=eid,
            label=label,
            name=name,
            aliases=sorted(a for a in aliases[key] if a and a != name),
            paper_count=len(papers[key]),
        )
        id_of_key[key] = eid
        label_of_key[key] = label

    # 3. write the resolution back onto the mentions.
    for m, key in keyed:
        m.entity = id_of_key[key]
        if m.type != label_of_key[key]:
            m.type = label_of_key[key]
            if m.role != Rel.PROPOSES:
                m.role = DEFAULT_ROLE[m.type]
    return entities
