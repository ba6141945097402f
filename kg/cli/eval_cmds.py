"""`kg eval scierc|scier`, `kg train scierc|retyper|relations|tagger`: measure extraction
quality and rebuild the models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from kg.cli import main

DATA_HELP = "SciERC folder with train/dev/test.json [default: ../shared/data/scierc]."
#: ``--data DIR``: the SciERC folder a command reads.
data_option = click.option(
    "--data", type=click.Path(file_okay=False, path_type=Path), default=None, help=DATA_HELP
)


def model_output_option(shipped: str, folder: bool = False) -> Any:
    """``--output PATH`` for a ``kg train`` command: where the model goes instead of the
    shipped one at ``shipped`` (a folder with ``folder``, else a file)."""
    return click.option(
        "--output",
        type=click.Path(file_okay=not folder, dir_okay=folder, path_type=Path),
        default=None,
        help=f"Where to write the model [default: the shipped {shipped}].",
    )


@main.group(name="eval")
def eval_group() -> None:
    """Measure extraction quality against gold annotations."""


@eval_group.command(name="scierc")
@click.option("--split", type=click.Choice(["train", "dev", "test"]), default="test",
              show_default=True, help="Which SciERC split to score.")
@data_option
@click.option("--component", type=click.Choice(["full", "model", "rules"]), default="full",
              show_default=True,
              help="kg's full extractor, the trained model alone, or the rules without it.")
@click.option("--model", "model_path", type=click.Path(path_type=Path), default=None,
              help="With --component model: a trained spaCy pipeline directory to score.")
@click.option("--retyper", default=None, metavar="PATH|none",
              help="With --component model: the span re-typer to apply [default: the shipped "
                   "one, unless --model is given]; 'none' scores the recogniser's own types. "
                   "The full extractor always uses the shipped re-typer.")
@click.option("--predictions", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the predictions to this file, in SciERC's own JSON Lines format "
                   "(ner spans as document-level token indices; with --relations, Generic "
                   "mentions and the relations too), for another scorer.")
@click.option("--relations", is_flag=True,
              help="Score relations instead: both argument spans exact and the type right, "
                   "end to end and with gold mentions (kg's full extractor only).")
@click.option("--generic", type=click.Choice(["recogniser", "nouns", "both", "none"]),
              default="recogniser", show_default=True,
              help="With --relations: where the end-to-end Generic mentions ('this method') "
                   "come from: the recogniser's own Generic spans, generic nouns, both, none.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def eval_scierc(split: str, data: Path | None, component: str, model_path: Path | None,
                retyper: str | None, predictions: Path | None, relations: bool, generic: str,
                as_json: bool) -> None:
    """Score entity mentions on SciERC: per-type and micro P/R/F1, exact and relaxed.

    Exact = same character span and type; relaxed = same type and overlapping spans
    (one-to-one). kg types map Method→Method, Task→Task, Dataset→Material, Metric→Metric,
    Concept→OtherScientificTerm; Generic is not scored.

    With --relations: relation P/R/F1 per kg type (SciERC's USED-FOR, EVALUATE-FOR, COMPARE,
    PART-OF, HYPONYM-OF; FEATURE-OF and CONJUNCTION are not kg types and count as missed in
    the "all relations" row, SciERC's end-to-end "Rel" figure). End to end, kg's mentions
    plus SciERC-style Generic mentions, which the graph leaves out but SciERC relates.

    \b
    Example:
      kg eval scierc --split test
      kg eval scierc --split dev --component model --json
      kg eval scierc --split test --predictions kg-test.json
      kg eval scierc --split test --relations --predictions kg-test-relations.json
    """
    from kg.evaluate.scierc import DEFAULT_DATA, format_table, run

    if relations:
        if component != "full" or model_path is not None or retyper is not None:
            raise click.UsageError("--relations scores kg's full extractor: no --component, "
                                   "--model or --retyper")
        _eval_scierc_relations(split, data or DEFAULT_DATA, generic, predictions, as_json)
        return
    rt = None if retyper == "none" else retyper or "default"
    scores = run(split, data or DEFAULT_DATA, component, model_path, rt, predictions)
    if as_json:
        click.echo(json.dumps({"split": split, "component": component, **scores.as_dict()},
                              indent=2))
    else:
        click.echo(format_table(scores, f"SciERC {split}, component: {component}"))
    if predictions is not None:
        click.echo(f"Predictions written to {predictions}", err=True)


def _eval_scierc_relations(split: str, data: Path, generic: str, predictions: Path | None,
                           as_json: bool) -> None:
    """`kg eval scierc --relations`: the report of both settings, as a table or JSON."""
    from kg.evaluate.scierc_relations import format_report, run_relations

    report = run_relations(split, data, generic, predictions)
    click.echo(json.dumps(report.as_dict(), indent=2) if as_json else format_report(report))
    if predictions is not None:
        click.echo(f"Predictions written to {predictions}", err=True)


@eval_group.command(name="scier")
@click.option("--split", type=click.Choice(["test", "ood", "dev"]), default="test",
              show_default=True,
              help="SciER split: test (in-domain), ood (papers from other venues), or dev.")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="SciER folder with dev/test/test_ood.jsonl [default: ../shared/data/scier].")
@click.option("--relations", is_flag=True,
              help="Score relations instead, SciER's labels mapped onto kg's types.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def eval_scier(split: str, data: Path | None, relations: bool, as_json: bool) -> None:
    """Score kg's full extractor on SciER (full papers): Method, Task and Dataset mentions,
    per-type and micro P/R/F1, exact and relaxed.

    A measurement only: SciER's licence (GPL-3.0) keeps models trained on it out of kg. kg's
    Metric and Concept mentions are not scored (SciER does not annotate them).

    With --relations: relation P/R/F1 per kg type, end to end and with gold mentions.
    Used-For→USED_FOR, Trained-With(m, d)→d USED_FOR m, Evaluated-With→EVALUATED_ON,
    Benchmark-For(d, t)→t EVALUATED_ON d, Compare-With→COMPARED_WITH, Part-Of→PART_OF,
    SubClass-Of and SubTask-Of→IS_A; Synonym-Of is left out (kg/evaluate/scier_relations.py).

    \b
    Example:
      kg eval scier --split test
      kg eval scier --split ood --json
      kg eval scier --split ood --relations
    """
    from kg.evaluate.scier import DEFAULT_DATA, format_table, run

    if relations:
        from kg.evaluate.scier_relations import SCORED_TYPES, run_relations
        from kg.evaluate.scierc_relations import format_report

        report = run_relations(split, data or DEFAULT_DATA)
        click.echo(json.dumps(report.as_dict(), indent=2) if as_json
                   else format_report(report, SCORED_TYPES))
        return
    scores = run(split, data or DEFAULT_DATA)
    if as_json:
        click.echo(json.dumps({"split": split, **scores.as_dict()}, indent=2))
    else:
        click.echo(format_table(scores, f"SciER {split}, kg's full extractor"))


@main.group(name="train")
def train_group() -> None:
    """Train kg's supervised models."""


@train_group.command(name="scierc")
@data_option
@model_output_option("kg/extract/models/scierc_ner", folder=True)
@click.option("--pretrain", is_flag=True,
              help="Also `spacy pretrain` the tok2vec on unlabelled abstracts (no gain seen).")
@click.option("--shared", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder with the unlabelled corpora [default: the parent of --data].")
@click.option("--workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep intermediate files here [default: a temporary folder].")
@click.option("--max-steps", type=int, default=None, help="Override the config's max_steps.")
@click.option("--with", "extra", default="", metavar="scirex,scienceie",
              help="Add these corpora of the shared data to train (partly annotated; dev stays "
                   "SciERC's). Not used by the shipped model.")
@click.option("--vectors", type=click.Path(exists=True, path_type=Path), default=None,
              help="Use these static vectors (a spaCy pipeline or vectors folder, e.g. the "
                   "shipped model) instead of training word2vec.")
def train_scierc(data: Path | None, output: Path | None, pretrain: bool,
                 shared: Path | None, workdir: Path | None, max_steps: int | None,
                 extra: str, vectors: Path | None) -> None:
    """Reproduce the shipped SciERC entity recogniser (tens of minutes on a CPU).

    Recipe: word2vec vectors on the unlabelled abstracts in the shared data, then `spacy
    train` on SciERC train with dev for early stopping (en_core_web_sm's tagger supplies a
    POS feature). Config:
    kg/extract/models/scierc_ner.cfg. Needs gensim (for the vectors).

    \b
    Example:
      kg train scierc --output /tmp/scierc_ner
      kg train scierc --output /tmp/ner-scirex --with scirex --vectors kg/extract/models/scierc_ner
      kg eval scierc --split dev --component model --model /tmp/ner-scirex --retyper none
    """
    from kg.evaluate.scierc import DEFAULT_DATA, MODEL_DIR
    from kg.train.recogniser import train

    corpora = tuple(name.strip() for name in extra.split(",") if name.strip())
    out = train(data or DEFAULT_DATA, output or MODEL_DIR, shared, workdir, pretrain,
                max_steps=max_steps, extra=corpora, vectors=vectors)
    click.echo(f"Model written to {out}")


@train_group.command(name="retyper")
@data_option
@model_output_option("kg/extract/models/scierc_retyper.npz")
@click.option("--recovery-output", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Where to write the noun-phrase model [default: the shipped "
                                 "kg/extract/models/scierc_recovery.npz].")
def train_retyper(data: Path | None, output: Path | None, recovery_output: Path | None) -> None:
    """Reproduce the shipped span re-typer and noun-phrase model (a minute or so, one core).

    The re-typer: a logistic regression on SciERC train's gold spans, plus the shipped
    recogniser's spurious train spans as "not an entity". It decides the type of each span the
    recogniser finds, or drops it. The noun-phrase model: the same classifier trained on every
    noun phrase of SciERC train; it picks entities among the phrases the recogniser left
    alone. See kg/extract/retyper.py.

    \b
    Example:
      kg train retyper --output /tmp/retyper.npz
      kg eval scierc --split dev --component model --retyper /tmp/retyper.npz
    """
    from kg.evaluate.scierc import DEFAULT_DATA
    from kg.extract.retyper import RECOVERY_MODEL, SHIPPED_MODEL
    from kg.train.retyper import train, train_recovery

    out, n_spans, n_none = train(data or DEFAULT_DATA, output or SHIPPED_MODEL)
    click.echo(f"Trained on {n_spans} spans ({n_none} not entities); model written to {out}")
    out, n_spans, n_none = train_recovery(data or DEFAULT_DATA, recovery_output or RECOVERY_MODEL)
    click.echo(f"Noun-phrase model: {n_spans} phrases ({n_none} not entities), written to {out}")


@train_group.command(name="relations")
@data_option
@model_output_option("kg/extract/models/relations/relations.npz")
@click.option("--precision", type=float, default=None,
              help="The precision each type's threshold is chosen for [default: 0.70].")
def train_relations(data: Path | None, output: Path | None, precision: float | None) -> None:
    """Reproduce the shipped relation classifier (a minute or two, one core).

    A logistic regression over pairs of mentions of one sentence, on SciERC train with gold
    mentions and with kg's own; each relation type's probability threshold is chosen for
    precision on dev (and train out of fold). kg_relations adds what it finds to what the
    rules find. See kg/extract/relation_model.py and kg/train/relations.py.

    \b
    Example:
      kg train relations --output /tmp/relations.npz
    """
    from kg.evaluate.scierc import DEFAULT_DATA
    from kg.train.relations import TARGET_PRECISION, train

    out, model, n_pairs = train(data or DEFAULT_DATA, output, target=precision or TARGET_PRECISION)
    thresholds = ", ".join(f"{k} {v:.2f}" for k, v in model.thresholds.items())
    click.echo(f"Trained on {n_pairs} pairs; thresholds: {thresholds}; model written to {out}")


@train_group.command(name="tagger")
@click.option("--shared", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder with the unlabelled corpora [default: ../shared/data].")
@click.option("--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write the tagger [default: the shipped "
                   "kg/extract/models/small_tagger].")
@click.option("--workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep intermediate files here [default: a temporary folder].")
@click.option("--max-steps", type=int, default=None, help="Override the config's max_steps.")
def train_tagger(shared: Path | None, output: Path | None, workdir: Path | None,
                 max_steps: int | None) -> None:
    """Reproduce kg's small part-of-speech tagger (tens of minutes on a CPU).

    Distilled from en_core_web_sm's tagger on unlabelled scientific abstracts: nearly always
    the same tags, at a fraction of the cost (docs/extraction-quality.md). See
    kg/train/tagger.py.

    \b
    Example:
      kg train tagger --output /tmp/small_tagger --workdir /tmp/tagger-work
    """
    from kg.evaluate.scierc import DEFAULT_DATA
    from kg.extract.pipeline import SMALL_TAGGER_DIR
    from kg.train.tagger import train

    out = train(shared or DEFAULT_DATA.parent, output or SMALL_TAGGER_DIR, workdir, max_steps)
    click.echo(f"Tagger written to {out}")


@train_group.command(name="vectors")
@click.option("--shared", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder with the unlabelled corpora [default: ../shared/data].")
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write them [default: the shipped kg/data/word_vectors.npz].")
def train_vectors(shared: Path | None, output: Path | None) -> None:
    """Reproduce kg's word vectors (what `kg related` compares words with; minutes on a CPU).

    Trained on the abstracts of the shared data: ICLR 2026 and 2018, and CSFCube's (their
    text only: no labels, no judgments). See kg/train/vectors.py.

    \b
    Example:
      kg train vectors --output /tmp/word_vectors.npz
    """
    from importlib import resources

    from kg.evaluate.scierc import DEFAULT_DATA
    from kg.train.recogniser import iter_abstracts
    from kg.train.vectors import train_word_vectors

    target = output or Path(str(resources.files("kg.data").joinpath("word_vectors.npz")))
    n = train_word_vectors(iter_abstracts(shared or DEFAULT_DATA.parent), target)
    click.echo(f"{n} words written to {target}")
