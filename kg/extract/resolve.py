"""Cross-paper entity resolution: mentions → canonical entities.

Two mentions name one entity when their normalised keys match (case, plurals, hyphen/space and
dash variants), or when one is an acronym that some abstract defines as the other's long form.
Each entity keeps every surface form as an alias; its type is the majority type of its mentions.

A Method, Dataset, Task or Metric node of the graph is a *named* thing: the recogniser (trained
on SciERC, which types every scientific phrase) also calls "regularization method" or
"out-of-domain settings" a method or a dataset. Such an entity becomes a Concept (its links stay)
unless the corpus shows it is a name: some paper writes it as one (a capital or digit inside it,
or a capital mid-sentence: "Mesa layer", "GPT-4o"), a rule that knows names found it (gazetteer,
curated lexicon, coined word, "<Name> benchmark", an acronym definition), or it is a known term
of the shipped lists ("language modeling", "accuracy"); a task also stays a task when at least
two papers address it. A broad class of models ("large language models", "diffusion models") is
a concept however it is named, as the issue's annotation guidelines have it. Measured on the
hand-annotated ICLR 2026 sample (``benchmarks/iclr_gold.py``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import lru_cache

from kg.extract.acronyms import is_acronym
from kg.extract.normalize import clean_surface, normalize_key
from kg.models import Entity, Mention
from kg.schema import DEFAULT_ROLE, Label, Rel, entity_id

#: Tie-break when a name is typed differently in different papers: specific types first.
TYPE_ORDER = [Label.DATASET, Label.METHOD, Label.TASK, Label.METRIC, Label.CONCEPT]
_DIGIT = re.compile(r"\d")
#: Types whose nodes must be names (others become concepts).
NAMED_TYPES = frozenset({Label.METHOD, Label.DATASET, Label.TASK, Label.METRIC})
#: Tasks are mostly lower-case phrases ("object referring"), so for them a name's evidence is
#: rare; a task phrase that several papers address is a shared research problem and stays a task.
TASK_MIN_PAPERS = 2
#: Mention sources that only fire on names or known terms.
NAME_EVIDENCE = frozenset({"gazetteer", "lexicon", "coined", "named_dataset", "acronym", "defined"})


def written_as_name(text: str, sentence: str) -> bool:
    """True when a mention is written as a name: a digit or a capital after its first letter,
    or a capital first letter in the middle of a sentence.

    >>> written_as_name("Mesa layer", "We study the Mesa layer."), written_as_name("GRPO", "")
    (True, True)
    >>> written_as_name("Object referring", "Object referring is hard.")
    False
    """
    rest = text[1:]
    if rest.lower() != rest or _DIGIT.search(text):  # string methods: 150k calls a conference
        return True
    return text[:1].isupper() and not sentence.startswith(text)


def is_model_class(key: str, names: dict[str, int]) -> bool:
    """A broad class of models, not a method: "... model(s)" that papers write in lower case
    ("large language models", "diffusion models", "reward model"), even when an acronym names
    it ("LLMs"). "Gaussian mixture model" or "Qwen2.5-VL model" are always written as names.

    >>> is_model_class("large-language-model", {"large language models": 3, "LLMs": 9})
    True
    >>> is_model_class("gaussian-mixture-model", {"Gaussian mixture model": 2})
    False
    """
    return (key == "model" or key.endswith("-model")) and any(n == n.lower() for n in names)


@lru_cache(maxsize=1)
def known_terms() -> frozenset[str]:
    """Merge keys of every name in the shipped gazetteers and the curated metric list."""
    from kg.extract.lexicon import load_lexicon

    lex = load_lexicon()
    names = [n for rows in lex.gazetteers.values() for name, al in rows for n in (name, *al)]
    return frozenset(normalize_key(n) for n in [*names, *lex.metric_terms])


def _pick_label(votes: dict[Label, int]) -> Label:
    return max(votes, key=lambda lab: (votes[lab], -TYPE_ORDER.index(lab)))


def _pick_name(forms: dict[str, int]) -> str:
    # The most frequent surface form; ties go to the shorter (usually the singular, lower-case
    # form), then the alphabetically first.
    return min(forms, key=lambda f: (-forms[f], len(f), f))


class Resolver:
    """Resolution fed paper by paper: ``add(paper_id, mentions)`` as mentions arrive (a build
    adds the cached ones while new abstracts are still being extracted), then ``finish()``.

    Votes are counted per raw merge key; acronym keys are folded into their long form's key only
    in ``finish()``, once every definition in the corpus has been seen. Counts add up, so the
    result is independent of the order papers are added in.
    """

    def __init__(self) -> None:
        self.long_forms: dict[str, Counter[str]] = defaultdict(Counter)
        self.label_votes: Counter[tuple[str, Label]] = Counter()
        self.name_votes: Counter[tuple[str, str]] = Counter()
        self.aliases: dict[str, set[str]] = defaultdict(set)
        self.papers: dict[str, set[str]] = defaultdict(set)
        self.keyed: list[tuple[Mention, str]] = []
        self.named: set[str] = set()  # keys with evidence of being a name
        # Made here, not in finish(): a build resolves the cached papers while the new ones are
        # extracted elsewhere, and waits for them before finish().
        self.known = known_terms()

    def add(self, paper_id: str, mentions: list[Mention]) -> None:
        named = self.named
        labels: list[tuple[str, Label]] = []
        names: list[tuple[str, str]] = []
        aliases: list[tuple[str, str]] = []  # besides the names
        # One pass over the mentions; the counters are updated once per paper, in C.
        for m in mentions:
            text = m.text
            surface = m.canonical or text
            # Merge keys come computed from the extraction (and its cache); hand-made mentions
            # may lack one.
            key = m.key or normalize_key(surface)
            if surface != text and is_acronym(text):
                self.long_forms[normalize_key(text)][normalize_key(surface)] += 1
            if not key:
                continue
            self.keyed.append((m, key))
            if key not in named and (
                m.source in NAME_EVIDENCE or written_as_name(text, m.sentence)
            ):
                named.add(key)
            labels.append((key, m.type))
            names.append((key, clean_surface(surface)))  # memoised: most surfaces recur
            # A definition's text ("long form (ACR)") is no alias: its two names are.
            if text != surface and "(" not in text:
                aliases.append((key, clean_surface(text)))
        self.label_votes.update(labels)
        self.name_votes.update(names)
        found = self.aliases
        for key, alias in names:
            found[key].add(alias)
        for key, alias in aliases:
            found[key].add(alias)
        papers = self.papers
        for key in {key for key, _ in names}:
            papers[key].add(paper_id)

    def finish(self) -> dict[str, Entity]:
        """Give every mention added an entity id (``mention.entity``) and its final type;
        return the entities by id."""
        # An acronym's key goes to its most frequent long form's key: an undefined use ("MMEB"
        # in a paper that never spells it out) joins the entity of the defined ones.
        expand = {
            acr: max(forms, key=lambda k, forms=forms: (forms[k], k))  # type: ignore[misc]
            for acr, forms in self.long_forms.items()
        }
        # Plain dicts, not Counters: a conference has 64k keys, and making a Counter per key was
        # a sixth of this pass.
        labels_of: dict[str, dict[Label, int]] = {}
        for (key, label), n in self.label_votes.items():
            votes = labels_of.setdefault(expand.get(key, key), {})
            votes[label] = votes.get(label, 0) + n
        names_of: dict[str, dict[str, int]] = {}
        for (key, name), n in self.name_votes.items():
            forms = names_of.setdefault(expand.get(key, key), {})
            forms[name] = forms.get(name, 0) + n
        aliases: dict[str, set[str]] = defaultdict(set)
        papers: dict[str, set[str]] = defaultdict(set)
        for key, found in self.aliases.items():
            aliases[expand.get(key, key)] |= found
        for key, found in self.papers.items():
            papers[expand.get(key, key)] |= found

        # Long forms defined by an acronym are names too ("test-time training (TTT)").
        named = {expand.get(k, k) for k in self.named} | set(expand.values())
        known = self.known
        entities: dict[str, Entity] = {}
        id_of_key: dict[str, str] = {}
        label_of_key: dict[str, Label] = {}
        for key in sorted(labels_of):
            label = _pick_label(labels_of[key])
            if label in NAMED_TYPES and key not in named and key not in known:
                recurring_task = label == Label.TASK and len(papers[key]) >= TASK_MIN_PAPERS
                if not recurring_task:
                    label = Label.CONCEPT
            elif label == Label.METHOD and is_model_class(key, names_of[key]):
                label = Label.CONCEPT
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

        # Every raw key added has papers; resolve each once, then each of the 150k mentions.
        resolved = {
            raw: (id_of_key[expand.get(raw, raw)], label_of_key[expand.get(raw, raw)])
            for raw in self.papers
        }
        proposes = Rel.PROPOSES
        for m, raw_key in self.keyed:
            eid, label = resolved[raw_key]
            m.entity = eid
            if m.type is not label:
                m.type = label
                if m.role != proposes:
                    m.role = DEFAULT_ROLE[label]
        return entities


def resolve_entities(mentions_by_paper: dict[str, list[Mention]]) -> dict[str, Entity]:
    """Give every mention an entity id (``mention.entity``) and its final type; return the
    entities by id. Mentions are updated in place; the result is independent of paper order."""
    resolver = Resolver()
    for pid in sorted(mentions_by_paper):
        resolver.add(pid, mentions_by_paper[pid])
    return resolver.finish()
