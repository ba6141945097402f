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
of the shipped lists ("language modeling", "accuracy"); a task also stays one when at least two
papers address it, or one names it twice, or its one mention is a noun compound ("lesion
recognition", not "inadequate reasoning"), and it reads as a task ("temporal reasoning", not
"real-world applications"), and a method when it reads as a technique ("ridge regression"). A
broad class of models ("large language models", "diffusion models") is a concept however it is
named, as kg's annotation guidelines have it (``benchmarks/data/iclr2026_gold_sample.md``).
``docs/extraction-quality.md`` reports how these rules score against the hand-annotated ICLR 2026
samples (``benchmarks/iclr_gold.py``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from kg.extract.long_forms import is_acronym
from kg.extract.names import COINED
from kg.extract.normalize import clean_surface, normalize_key
from kg.models import Entity, Mention
from kg.resolve.entity_types import NAMED_TYPES, TYPE_ORDER, entity_type
from kg.resolve.names import (
    KIND_VOTES,
    NAME_EVIDENCE,
    apposition_label,
    key_capitals,
    mention_key,
    name_key,
    written_as_name,
)
from kg.resolve.terms import (
    reads_as_task,
)
from kg.resolve.words import (
    acronym_meanings,
    gazetteer_methods,
    known_terms,
    listed,
    resolution_words,
    word_list,
)
from kg.schema import DEFAULT_ROLE, Label, Rel, entity_id

#: How many papers must spell an acronym out as one long form (without proposing it) before
#: another paper's undefined use of the acronym joins that long form's entity. Of 40 acronyms
#: of ICLR 2026 that one paper spells out and others use bare, 19 meant something else there
#: ("Transition Matching (TM)" and a Turing machine's "TM", "Super Experts (SE)" and SE(3)).
MIN_DEFINING_PAPERS = 2


#: Head words after a name that only say what kind of thing it names (``name_heads.txt``).
_NAME_HEADS = frozenset(word_list("name_heads.txt"))
#: A hyphenated spelling joins the other only when at least 1 in this many papers write it.
MIN_VARIANT_SHARE = 10
#: A word that starts with a prefix written with or without a hyphen (``joined_prefixes.txt``)
#: and goes on with three letters or more: "finetuning", "multimodal", "pretraining".
_PREFIXES = "|".join(map(re.escape, word_list("joined_prefixes.txt")))
_PREFIXED = re.compile(f"^({_PREFIXES})(?=[a-z]{{3}})")
#: The hyphen after such a prefix in a key: "pre-training", "supervised-fine-tuning".
_PREFIX_HYPHEN = re.compile(f"(?:^|(?<=-))(?:{_PREFIXES})(-)(?=[a-z]{{3}})")


def _joined_forms(key: str) -> Iterator[str]:
    """``key`` with some of its prefixes' hyphens left out, each way (none for most keys)."""
    at = [m.start(1) for m in _PREFIX_HYPHEN.finditer(key)]
    for n in range(1, 2 ** len(at)):
        dropped = {a for i, a in enumerate(at) if n >> i & 1}
        yield "".join(c for i, c in enumerate(key) if i not in dropped)


def _one_split(parts: list[str], split: list[str]) -> Iterator[str]:
    """``parts`` joined with one of its words split as in ``split``, in word order."""
    for i, (part, new) in enumerate(zip(parts, split, strict=True)):
        if part != new:
            yield "-".join([*parts[:i], new, *parts[i + 1 :]])


def _through(expand: dict[str, str], variants: dict[str, str]) -> dict[str, str]:
    """``expand`` and ``variants`` (other spellings of a key) as one map, each key taken one
    step further when its target is a key too (unless that leads back to it): an acronym whose
    long form is written without a hyphen goes to the hyphenated key, and "MMDiT", defined as
    "multimodal DiT", to the phrase written out, "multimodal diffusion transformer"
    (:meth:`Resolver._written_out`).
    """
    both = {**expand, **variants}
    return {k: further if (further := both.get(v, v)) != k else v for k, v in both.items()}


#: A plural ending a name may have: a lower-case "s" after a letter, not "ss" ("Loss").
_PLURAL_ENDING = re.compile(r"[^\WsS\d_]s$")
#: What may stand between the words of a name: spaces, hyphens, dashes.
_SEPARATORS = re.compile(r"[\s\-\u2010-\u2015]+")


def _plural_of(plural: str, singular: str) -> bool:
    """Whether ``plural`` (ending in "s") is written as ``singular`` in the plural, or as
    another plural of its merge key, case and hyphens aside; a ``singular`` in capitals only
    as itself and "s" ("LLMs").

    >>> _plural_of("Mixture-of-Experts", "mixture of experts"), _plural_of("ResNets", "ResNet")
    (True, True)
    >>> _plural_of("Mars", "MAR"), _plural_of("LLMs", "LLM")
    (False, True)
    """
    if singular.isupper() and not plural[:-1].isupper():
        return False
    words = _SEPARATORS.sub(" ", singular).lower()
    return words in (_SEPARATORS.sub(" ", form).lower() for form in (plural[:-1], plural))


def _coined_label(key: str, name: str) -> str:
    """The type of a name a paper coins, where the recogniser said concept: a task when it
    reads as one ("object-centric zero-shot segmentation"), else a method."""
    return (Label.TASK if reads_as_task(key, name) else Label.METHOD).value


def _known_name(key: str) -> bool:
    """Whether ``key`` is the merge key of a name of the shipped lists (any type)."""
    return any(key in listed(label) for label in NAMED_TYPES)


class Resolver:
    """Resolution fed paper by paper: ``add(paper_id, mentions)`` as mentions arrive (a build
    adds the cached ones while new abstracts are still being extracted), then ``finish()``.

    Votes are counted per raw merge key; acronym keys are folded into their long form's key only
    in ``finish()``, once every definition in the corpus has been seen. Counts add up, so the
    result is independent of the order papers are added in.

    ``finish()`` is incremental: it recomputes only the entities whose keys papers added since
    the last ``finish()`` touched (or whose acronym expansion changed), so a resolver saved with
    :meth:`state` and restored with :meth:`from_state` resolves a corpus grown by a few papers
    in a fraction of the time (:class:`kg.cache.ResolverSnapshots`). The first ``finish()`` computes
    every entity, with the same code.
    """

    def __init__(self) -> None:
        self.long_forms: dict[str, Counter[str]] = defaultdict(Counter)
        # (acronym, long form) pairs -> how many papers spell them out without proposing the
        # long form: one that no paper spells out so is coined ("a new paradigm named Visual
        # Self-Refine (VSR)").
        self.established: Counter[tuple[str, str]] = Counter()
        # Labels as plain strings: the state is saved with marshal, and a str Enum does not
        # hash like its value.
        self.label_votes: Counter[tuple[str, str]] = Counter()
        self.name_votes: Counter[tuple[str, str]] = Counter()
        self.aliases: dict[str, set[str]] = defaultdict(set)
        self.papers: dict[str, set[str]] = defaultdict(set)
        self.named: set[str] = set()  # keys with evidence of being a name
        self.compounds: set[str] = set()  # keys some mention writes as a noun compound
        # What the last finish() made, for the next one: the acronym expansion and the entity
        # of each final key.
        self.expanded: dict[str, str] = {}
        self.entity_of: dict[str, Entity] = {}
        self.dirty: set[str] = set()  # raw keys changed since the last finish()
        self.pending: list[list[Mention]] = []  # mentions added since, assigned by finish()
        # Made here, not in finish(): a build resolves the cached papers while the new ones are
        # extracted elsewhere, and waits for them before finish().
        self.known = known_terms()
        words = resolution_words()
        self.generic_names, self.metric_terms = words.generic_names, words.metrics
        self.listed_methods = gazetteer_methods()
        self.listed_tasks = listed(Label.TASK)
        self.acronyms = acronym_meanings()
        self.listed_long_forms: set[str] = set()  # keys undefined acronyms went to, by the list

    def add(self, paper_id: str, mentions: list[Mention]) -> None:
        """Count one paper's mentions, whose paper-wide keys are given already
        (:func:`~kg.resolve.names.key_capitals`: the build gives them as it makes the
        mentions, :func:`resolve_entities` before it adds them)."""
        named, compounds = self.named, self.compounds
        proposes = Rel.PROPOSES
        labels: list[tuple[str, str]] = []
        names: list[tuple[str, str]] = []
        aliases: list[tuple[str, str]] = []  # besides the names
        spelled_out: dict[tuple[str, str], bool] = {}  # (acronym, long form) -> proposed here
        coined: dict[str, str] = {}  # keys of the long forms this paper proposes -> a surface
        # One pass over the mentions; the counters are updated once per paper, in C.
        for m in mentions:
            text = m.text
            key, surface, kind = mention_key(m)
            if surface != text and is_acronym(text):
                acronym = name_key(text)
                long_form = normalize_key(surface)
                self.long_forms[acronym][long_form] += 1
                pair = (acronym, long_form)
                spelled_out[pair] = spelled_out.get(pair, False) or m.role is proposes
                self.dirty.add(acronym)
                if m.role is proposes and key:
                    coined[key] = surface
            if not key:
                continue
            if key not in named and (
                m.source in NAME_EVIDENCE or written_as_name(text, m.sentence)
            ):
                named.add(key)
            if m.compound:
                compounds.add(key)
            if not kind and m.role is proposes:  # "A2D, a token-level alignment method"
                kind = apposition_label(text, m.sentence)
            if kind:
                labels.extend([(key, kind)] * KIND_VOTES)
            else:
                labels.append((key, m.type.value))
            names.append((key, clean_surface(surface)))  # memoised: most surfaces recur
            # A definition's text ("long form (ACR)") is no alias: its two names are.
            if text != surface and "(" not in text:
                aliases.append((key, clean_surface(text)))
        self.established.update(pair for pair, proposed in spelled_out.items() if not proposed)
        if coined:
            # "we propose the score-regularized continuous-time consistency model (rCM)": a name
            # the paper coins and spells out is a method (or a task), whatever the recogniser
            # typed its mentions; a concept of one paper would have no node.
            concept = Label.CONCEPT.value
            labels = [
                (k, _coined_label(k, coined[k]) if lab == concept and k in coined else lab)
                for k, lab in labels
            ]
        self.label_votes.update(labels)
        self.name_votes.update(names)
        found = self.aliases
        for key, alias in names:
            found[key].add(alias)
        for key, alias in aliases:
            found[key].add(alias)
        papers = self.papers
        keys = {key for key, _ in names}
        for key in keys:
            papers[key].add(paper_id)
        self.dirty |= keys
        self.pending.append(mentions)

    def finish(self) -> dict[str, Entity]:
        """Give every mention added since the last ``finish()`` an entity id
        (``mention.entity``) and its final type; return every entity by id."""
        # An acronym's key goes to its most frequent long form's key: an undefined use ("MMEB"
        # in a paper that never spells it out) joins the entity of the defined ones. Not to a
        # name that only the papers proposing it spell out: it is new there, so another paper's
        # "VSR" (video super-resolution) is not the "Visual Self-Refine (VSR)" one paper coins.
        # Nor to a long form only one paper spells out: another paper's "TM" is as often a
        # Turing machine as the "Transition Matching (TM)" of one (MIN_DEFINING_PAPERS).
        #
        # A name in capitals that is an everyday word ("SPEED", :func:`capitals_key`) keeps a
        # key of its own only while some paper writes the word in lower case ("speed"): there
        # is then a word to keep it apart from. Else it goes to the word's key, as any other
        # name, and its definitions count there ("ROI" and "RoI").
        folds = {
            k: k.lower() for k in self.papers if k.isupper() and not self._written_lower(k.lower())
        }
        definitions, established_pairs = self._definitions(folds)
        expand: dict[str, str] = {}
        for acr, forms in definitions.items():
            established = [
                (n, k) for k, n in forms.items() if self._established(acr, k, established_pairs)
            ]
            if established:
                expand[acr] = max(established)[1]  # the most frequent, then the last key
        # An acronym no abstract defines goes to the long form kg's list gives it ("KL" to "KL
        # divergence", "T2I" to "text-to-image generation"), so it joins that entity.
        self.listed_long_forms = set()
        for acr, (_, long_form) in self.acronyms.items():
            if acr not in expand and acr in self.papers:
                expand[acr] = normalize_key(long_form)
                self.listed_long_forms.add(expand[acr])
        # (every long form an acronym spells out is a name, the ones only their paper defines
        # too: "history-guided sampling (HiGS)")
        long_forms = set(expand.values()).union(*definitions.values())
        expand.update(self._written_out(expand))
        expand.update({k: expand.get(word, word) for k, word in folds.items()})
        # keys written otherwise than the final one: "finetuning", "GRPO algorithm"
        variants = self._hyphenated(expand) | self._named_with_head(expand)
        targets = set(expand.values())
        variants |= self._plural_names(expand, targets)
        variants |= self._joined_names(expand, targets, variants)
        expand = _through(expand, variants)
        long_forms = {variants.get(k, k) for k in long_forms}
        old = self.expanded
        # The final keys whose entity may differ: where changed keys go now, and went before
        # (an acronym whose definitions changed is among the changed keys, a phrase whose
        # written-out form appeared or whose acronym's meaning changed too).
        changed = self.dirty | {
            k for k in expand.keys() | old.keys() if expand.get(k) != old.get(k)
        }
        finals = {expand.get(k, k) for k in changed} | {old.get(k, k) for k in changed}
        folded: dict[str, list[str]] = defaultdict(list)  # final key → keys folded in
        for acr, long_form in expand.items():
            folded[long_form].append(acr)
        for key in finals:
            own = [] if key in expand else [key]  # an acronym's own key went to its long form
            raw = [k for k in own + folded.get(key, []) if k in self.papers]
            entity = self._entity(key, raw, key in long_forms) if raw else None
            if entity is None:
                self.entity_of.pop(key, None)
            else:
                self.entity_of[key] = entity
        self.expanded, self.dirty = expand, set()
        pending, self.pending = self.pending, []
        self.assign(m for ms in pending for m in ms)
        return {self.entity_of[k].id: self.entity_of[k] for k in sorted(self.entity_of)}

    def _written_out(self, expand: dict[str, str]) -> dict[str, str]:
        """Phrases with an acronym among their words, to the same phrase with the acronym
        written out, when a mention writes it so: "offline RL" is "offline reinforcement
        learning", "multimodal LLMs" are "multimodal large language models" (``expand``: the
        acronyms' keys to their long forms')."""
        acronyms = {acr: long_form for acr, long_form in expand.items() if "-" not in acr}
        found: dict[str, str] = {}
        for key in self.papers:
            if "-" not in key or key in expand:
                continue
            parts = key.split("-")
            if not any(part in acronyms for part in parts):
                continue
            spelled = "-".join(acronyms.get(part, part) for part in parts)
            if spelled != key and spelled in self.papers and spelled not in expand:
                found[key] = spelled
        return found

    def _named_with_head(self, expand: dict[str, str]) -> dict[str, str]:
        """A name with a head word that says what kind of thing it is, to the name: "GRPO
        algorithm" is GRPO, "CLIP model" CLIP, "GAN models" GAN, "RNN architectures" RNN
        (``name_heads.txt``), when the name is coined however it is written
        (:data:`~kg.extract.names.COINED`: not "Domain Adaptation", nor "diffusion", which a
        sentence may open with "Diffusion"), and its mentions most often a method ("NLI models"
        are models for a task), and the phrase opens with it as written ("multimodal models" are
        no "MultiModal"). Not "ReLU networks": networks are no kind of ReLU."""
        found: dict[str, str] = {}
        for key in self.papers:
            name, _, head = key.rpartition("-")
            if head not in _NAME_HEADS or key in expand:
                continue
            caps = name.upper()  # "SAE architecture": the SAE written in capitals (capitals_key)
            if caps in self.papers and any(f.startswith(caps) for f in self.aliases[key]):
                name = caps
            if name not in self.named:
                continue
            method = self.label_votes.get((name, Label.METHOD.value), 0)
            other = max(self.label_votes.get((name, label.value), 0) for label in TYPE_ORDER)
            if method == other and self._coined(name) and self._coined(key, first_word=True):
                found[key] = expand.get(name, name)
        return found

    def _plural_names(self, expand: dict[str, str], targets: set[str]) -> dict[str, str]:
        """A name written in the plural, which its merge key keeps (a capitalised word may be a
        name: "Atlas"), to the singular's key when the corpus writes the singular too, as a
        name, whatever the case and hyphens: "Transformers" is "Transformer", "GPU-hours" "GPU
        hours", "ResNets" "ResNet". A name in capitals has only its own plural: "MARS" and
        "Mars" are no plurals of "MAR". ``targets``: the keys acronyms and folds go to."""
        found: dict[str, str] = {}
        votes = self.name_votes
        for key in self.papers:
            stem = key[:-1]
            if (
                not key.endswith("s")
                or key in expand
                or stem in expand
                or stem not in self.named  # (a word's plural is none: "Optimas" and "optima")
                or stem not in self.papers
            ):
                continue
            plurals = [form for form in self.aliases[key] if votes.get((key, form), 0)]
            if not plurals or not all(_PLURAL_ENDING.search(form) for form in plurals):
                continue
            singulars = [form for form in self.aliases[stem] if votes.get((stem, form), 0)]
            if not any(_plural_of(p, s) for p in plurals for s in singulars):
                continue
            if key not in targets:
                found[key] = stem
            elif stem not in targets:
                # the plural is where an acronym goes: "MoE" to "Mixture-of-Experts", and
                # "Mixture of Experts" with it
                found[stem] = key
        return found

    def _joined_names(
        self, expand: dict[str, str], targets: set[str], variants: dict[str, str]
    ) -> dict[str, str]:
        """Names whose keys differ only by hyphens, to the one most papers write: "MSCOCO" and
        "MS-COCO", "FlashAttention" and "Flash-Attention", "Qwen2.5VL" and "Qwen2.5-VL" are one
        name each (where an acronym goes comes first). Only names: words have their own
        spellings ("pre-training", :meth:`_hyphenated`), and slips ("frame-work"). ``targets``:
        the keys acronyms and folds go to; ``variants``: the other spellings found already."""
        taken = variants.keys() | set(variants.values())
        spellings: dict[str, list[str]] = defaultdict(list)
        for key in self.named:
            joined = key.replace("-", "")
            if key in self.papers and key not in expand and key not in taken and len(joined) > 3:
                spellings[joined].append(key)  # (not "U.S." and "US": a few letters say little)
        found: dict[str, str] = {}
        for keys in spellings.values():
            if len(keys) < 2:
                continue
            final = min(keys, key=lambda k: (k not in targets, -len(self.papers[k]), k))
            found.update((k, final) for k in keys if k != final)
        return found

    def _written_lower(self, key: str) -> bool:
        """Whether some mention of ``key`` writes it in lower case ("speed"; not "CoT")."""
        return any(form.islower() for form in self.aliases.get(key, ()))

    def _definitions(
        self, folds: dict[str, str]
    ) -> tuple[dict[str, Counter[str]], Counter[tuple[str, str]]]:
        """The long forms each acronym is spelt out with, and the (acronym, long form) pairs
        papers spell out without proposing them, the acronyms' keys taken through ``folds``."""
        if not folds:
            return self.long_forms, self.established
        long_forms: dict[str, Counter[str]] = defaultdict(Counter)
        for acr, forms in self.long_forms.items():
            long_forms[folds.get(acr, acr)].update(forms)
        established: Counter[tuple[str, str]] = Counter()
        for (acr, long_form), n in self.established.items():
            established[folds.get(acr, acr), long_form] += n
        return long_forms, established

    def _established(
        self, acronym: str, long_form: str, established: Counter[tuple[str, str]]
    ) -> bool:
        """Whether another paper's undefined ``acronym`` means ``long_form``: enough papers
        spell it out so without proposing it (:data:`MIN_DEFINING_PAPERS`), or one does and
        the name is no one paper's coinage: others write the long form too ("Generative
        Adversarial Networks"), or the acronym is a known name (the shipped lists: PCA, DDPG,
        LSTM), where "Transition Matching (TM)" and "Super Experts (SE)" are neither."""
        n = established[acronym, long_form]
        if n >= MIN_DEFINING_PAPERS:
            return True
        return n > 0 and (len(self.papers.get(long_form, ())) >= 2 or _known_name(acronym))

    def _coined(self, key: str, first_word: bool = False) -> bool:
        """Whether every form the mentions of ``key`` write (its first word only, with
        ``first_word``) is coined (:data:`~kg.extract.names.COINED`)."""
        votes = self.name_votes
        written = [form for form in self.aliases[key] if votes.get((key, form), 0)]
        return bool(written) and all(
            COINED.match(form.split()[0] if first_word else form) for form in written
        )

    def _hyphenated(self, expand: dict[str, str]) -> dict[str, str]:
        """Keys with a word written without its prefix's hyphen, to the key written with it,
        when a mention writes it so: "supervised finetuning" is "supervised fine-tuning",
        "multimodal pretraining" "multi-modal pre-training" (``joined_prefixes.txt``). The
        hyphenated key is the final one: kg's word lists know its head ("tuning"). A spelling
        that a tenth as many papers write is a slip, not a variant: one abstract's "re-sponse"
        does not take the many papers' "response"."""
        found: dict[str, str] = {}
        papers = self.papers
        # Only keys that some hyphenated key joins into: few of the corpus's.
        joinable = {j for k in papers if _PREFIX_HYPHEN.search(k) for j in _joined_forms(k)}
        for key in sorted(joinable):
            if key in expand or key not in papers:
                continue
            parts = key.split("-")
            split = [_PREFIXED.sub(r"\1-", part) for part in parts]
            if split == parts:
                continue
            # every such word split, else the first one alone ("multimodal-pre-training")
            for variant in ("-".join(split), *_one_split(parts, split)):
                if (
                    variant != key
                    and variant in papers
                    and variant not in expand
                    and len(papers[variant]) * MIN_VARIANT_SHARE >= len(papers[key])
                ):
                    found[key] = variant
                    break
        return found

    def _entity(self, key: str, raw: list[str], long_form: bool) -> Entity:
        """The entity of a final key from the votes of the raw keys folded into it."""
        label_votes, name_votes = self.label_votes, self.name_votes
        votes: dict[Label, int] = {}
        forms: dict[str, int] = {}
        if len(raw) == 1:  # nearly every key: no acronym folded in (the loop of a cold build)
            k = raw[0]
            for label in TYPE_ORDER:
                n = label_votes.get((k, label.value), 0)
                if n:
                    votes[label] = n
            aliases = self.aliases[k]
            for alias in aliases:
                n = name_votes.get((k, alias), 0)
                if n:
                    forms[alias] = n
            papers = self.papers[k]
        else:
            for label in TYPE_ORDER:
                n = sum(label_votes.get((k, label.value), 0) for k in raw)
                if n:
                    votes[label] = n
            aliases = set().union(*(self.aliases[k] for k in raw))
            for alias in aliases:
                n = sum(name_votes.get((k, alias), 0) for k in raw)
                if n:
                    forms[alias] = n
            papers = set().union(*(self.papers[k] for k in raw))
        label, name = entity_type(key, raw, votes, forms, papers, long_form, self)
        return Entity(
            id=entity_id(label, key),
            label=label,
            name=name,
            aliases=sorted(a for a in aliases if a and a != name),
            paper_count=len(papers),
        )

    def assign(self, mentions: Iterable[Mention] | dict[str, list[Mention]]) -> None:
        """Give mentions of papers resolved earlier their entity and final type; ``finish()``
        does this for the mentions added since the last one. ``mentions`` may come grouped by
        merge key already (:func:`by_key`)."""
        groups = mentions if isinstance(mentions, dict) else by_key(mentions)
        expand, entity_of = self.expanded, self.entity_of
        proposes = Rel.PROPOSES
        for key, ms in groups.items():
            e = entity_of[expand.get(key, key)]
            eid, label = e.id, e.label
            for m in ms:
                m.entity = eid
                if m.type is not label:
                    m.type = label
                    if m.role != proposes:
                        m.role = DEFAULT_ROLE[label]

    def state(self) -> tuple[Any, ...]:
        """Everything ``finish()`` needs, as plain builtins (for marshal)."""
        return (
            {k: dict(c) for k, c in self.long_forms.items()},
            dict(self.established),
            dict(self.label_votes),
            dict(self.name_votes),
            dict(self.aliases),
            dict(self.papers),
            self.named,
            self.compounds,
            self.expanded,
            {
                k: (e.label.value, e.name, tuple(e.aliases), e.paper_count)
                for k, e in self.entity_of.items()
            },
        )

    @classmethod
    def from_state(cls, state: tuple[Any, ...]) -> Resolver:
        """A resolver as :meth:`state` saved it, after a ``finish()``."""
        (
            long_forms,
            established,
            labels,
            names,
            aliases,
            papers,
            named,
            compounds,
            expanded,
            entities,
        ) = state
        r = cls()
        r.long_forms.update((k, Counter(c)) for k, c in long_forms.items())
        r.established = Counter(established)
        r.label_votes.update(labels)
        r.name_votes.update(names)
        r.aliases.update(aliases)
        r.papers.update(papers)
        r.named, r.compounds, r.expanded = set(named), set(compounds), dict(expanded)
        label_of = {label.value: label for label in Label}
        r.entity_of = {
            k: Entity(entity_id(label_of[lab], k), label_of[lab], name, list(al), n)
            for k, (lab, name, al, n) in entities.items()
        }
        return r


def by_key(mentions: Iterable[Mention]) -> dict[str, list[Mention]]:
    """Mentions grouped by merge key (mentions without one left out), for
    :meth:`Resolver.assign`. An incremental build groups its cached papers' mentions while the
    new papers are still being extracted, so that only the look-ups are left for after."""
    groups: dict[str, list[Mention]] = defaultdict(list)
    for m in mentions:
        key = mention_key(m)[0]
        if key:
            groups[key].append(m)
    return groups


def resolve_entities(mentions_by_paper: dict[str, list[Mention]]) -> dict[str, Entity]:
    """Give every mention an entity id (``mention.entity``) and its final type; return the
    entities by id. Mentions are updated in place; the result is independent of paper order."""
    resolver = Resolver()
    for pid in sorted(mentions_by_paper):
        key_capitals(mentions_by_paper[pid])  # (a build does it as it makes the mentions)
        resolver.add(pid, mentions_by_paper[pid])
    return resolver.finish()
