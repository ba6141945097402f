"""Incremental entity resolution: a resolver restored from a snapshot and fed the papers it
lacks ends with exactly what resolving every paper at once gives."""

from __future__ import annotations

import marshal
import random
from pathlib import Path

import pytest

from kg.cache import KEEP_SNAPSHOTS, ResolverSnapshots, text_digest
from kg.models import Mention
from kg.resolve.resolver import Resolver, resolve_entities
from kg.schema import DEFAULT_ROLE, ENTITY_LABELS, Label, Rel

#: Names that collide on purpose: case and plural variants, model classes, two long forms
#: competing for one acronym (so adding papers can move the acronym to the other entity).
LONG_FORMS = {
    "RAG": ["retrieval-augmented generation", "Retrieval Augmented Generators"],
    "TTT": ["test-time training", "Test-Time Tuning"],
    "LLM": ["large language models", "Large Language Model"],
}
NAMES = [
    "ImageNet", "imagenet", "GRPO", "reward model", "reward models", "Mesa layer",
    "object referring", "accuracy", "Top-1 Accuracy", "diffusion models", "rare idea",
    # phrases with an acronym, and written out: one entity once both are seen
    "RAG pipeline", "retrieval-augmented generation pipeline", "LLM agents",
    "large language model agents", "TTT layers",
]


def random_corpus(rng: random.Random, n_papers: int) -> dict[str, list[Mention]]:
    corpus = {}
    for i in range(n_papers):
        ms = []
        for j in range(rng.randint(0, 6)):
            label = rng.choice(ENTITY_LABELS)
            role = Rel.PROPOSES if rng.random() < 0.2 else DEFAULT_ROLE[label]
            kind = rng.random()
            if kind < 0.3:  # an acronym, defined here or used bare
                acr = rng.choice(list(LONG_FORMS))
                long_form = rng.choice(LONG_FORMS[acr])
                text, canonical = (acr, long_form) if rng.random() < 0.6 else (acr, acr)
            else:
                text = canonical = rng.choice(NAMES)
            source = rng.choice(["model", "gazetteer", "model", "coined"])
            ms.append(
                Mention(
                    start=j * 10,
                    end=j * 10 + len(text),
                    text=text,
                    type=label,
                    role=role,
                    sentence=rng.choice([f"{text} is used.", f"We use {text}."]),
                    canonical=canonical,
                    source=source,
                )
            )
        corpus[f"p{i:03d}"] = ms
    return corpus


def links(corpus: dict[str, list[Mention]]) -> dict[str, list[tuple]]:
    return {pid: [(m.entity, m.type, m.role) for m in ms] for pid, ms in corpus.items()}


@pytest.mark.parametrize("seed", range(40))
def test_restored_resolver_plus_new_papers_equals_resolving_all(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 40)
    state = rng.getstate()
    everything = random_corpus(rng, n)
    expected = resolve_entities(everything)
    rng.setstate(state)
    corpus = random_corpus(rng, n)  # the same mentions, fresh objects
    ids = sorted(corpus)
    rng.shuffle(ids)
    cut = rng.randint(0, n)
    first = Resolver()
    for pid in ids[:cut]:
        first.add(pid, corpus[pid])
    first.finish()
    # The snapshot goes through marshal, as on disk.
    restored = Resolver.from_state(marshal.loads(marshal.dumps(first.state())))
    for pid in ids[cut:]:
        restored.add(pid, corpus[pid])
    entities = restored.finish()
    restored.assign(m for pid in ids[:cut] for m in corpus[pid])
    assert entities == expected
    assert list(entities) == list(expected)  # the same order too
    assert links(corpus) == links(everything)


@pytest.mark.usefixtures("one_definition_is_enough")
def test_a_new_definition_can_move_an_acronym_to_another_entity() -> None:
    def defines(long_form: str) -> list[Mention]:
        return [Mention(0, 3, "RAG", Label.METHOD, Rel.USES, "RAG is used.", long_form)]

    bare = [Mention(0, 3, "RAG", Label.METHOD, Rel.USES, "We use RAG.", "RAG")]
    resolver = Resolver()
    resolver.add("a", defines("retrieval-augmented generation"))
    resolver.add("b", bare)
    resolver.finish()
    assert bare[0].entity == "method:retrieval-augmented-generation"
    restored = Resolver.from_state(resolver.state())
    restored.add("c", defines("Retrieval Augmented Generators"))
    restored.add("d", defines("Retrieval Augmented Generators"))
    entities = restored.finish()
    restored.assign(bare)
    assert bare[0].entity == "method:retrieval-augmented-generator"
    # The first long form keeps its own entity, without the acronym's bare use.
    assert entities["method:retrieval-augmented-generation"].paper_count == 1


def snapshot_papers(n: int, changed: int | None = None) -> dict[str, str]:
    return {f"p{i}": text_digest(f"abstract {i}{'*' if i == changed else ''}") for i in range(n)}


def test_snapshots_fit_only_corpora_that_still_hold_their_papers(tmp_path: Path) -> None:
    snaps = ResolverSnapshots(tmp_path, "model:v1")
    assert snaps.load(snapshot_papers(3)) is None  # nothing saved yet
    snaps.save(("state", 3), snapshot_papers(3))
    state, covered = snaps.load(snapshot_papers(5)) or (None, set())
    assert state == ("state", 3) and covered == {"p0", "p1", "p2"}
    assert snaps.load(snapshot_papers(2)) is None  # a paper of the snapshot was removed
    assert snaps.load(snapshot_papers(5, changed=1)) is None  # an abstract changed
    assert ResolverSnapshots(tmp_path, "model:v2").load(snapshot_papers(5)) is None
    snaps.save(("state", 4), snapshot_papers(4))
    assert snaps.load(snapshot_papers(5))[0] == ("state", 4)  # type: ignore[index]  # the largest


def test_damaged_snapshots_are_ignored_and_old_ones_pruned(tmp_path: Path) -> None:
    snaps = ResolverSnapshots(tmp_path, "model:v1")
    path = snaps.save(("state", 3), snapshot_papers(3))
    path.write_bytes(path.read_bytes()[:-5])  # cut short: the header reads, the state does not
    assert snaps.load(snapshot_papers(3)) is None
    path.write_bytes(b"not marshal")
    assert snaps.load(snapshot_papers(3)) is None
    for n in range(1, 8):
        snaps.save(("state", n), snapshot_papers(n))
    assert len(list(snaps.folder.glob("*.marshal"))) == KEEP_SNAPSHOTS
    assert snaps.load(snapshot_papers(9))[0] == ("state", 7)  # type: ignore[index]


def test_resolution_version_is_the_same_in_every_process() -> None:
    """Snapshots are found by this fingerprint: a process-dependent one (a set iterated under
    hash randomisation) would make every build resolve everything again."""
    import os
    import subprocess
    import sys

    code = "from kg.resolve import resolution_version; print(resolution_version())"
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ("1", "2", "3")
    }
    assert len(seen) == 1 and len(seen.pop()) == 16


@pytest.mark.usefixtures("one_definition_is_enough")
def test_a_phrase_written_out_later_takes_in_the_acronym_phrase() -> None:
    def one(text: str, canonical: str = "") -> list[Mention]:
        return [Mention(0, len(text), text, Label.CONCEPT, Rel.USES, "s", canonical or text)]

    corpus = {"a": one("LLM", "large language models"), "b": one("LLM agents")}
    resolver = Resolver()
    for pid, ms in corpus.items():
        resolver.add(pid, ms)
    assert "concept:llm-agent" in resolver.finish()
    restored = Resolver.from_state(marshal.loads(marshal.dumps(resolver.state())))
    corpus["c"] = one("large language model agents")
    restored.add("c", corpus["c"])
    entities = restored.finish()
    assert entities == resolve_entities({pid: [*ms] for pid, ms in corpus.items()})
    assert "concept:llm-agent" not in entities
