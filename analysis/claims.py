"""Does each published result hold? The claims report (never runs a search).

    python -m analysis.claims scale=quick                 # outputs/claims/claims_quick.{md,csv,png}
    python -m analysis.claims scale=quick --experiments   # check the claims, list their experiments

The claims are in analysis/claims/<paper>.yaml, each a statement over one experiment's runs
with its test (analysis/verdicts.py says which test fits which claim and why). Each claim
is evaluated twice:
  at the published time   our runs at the time the paper states (or at their last checkpoint
                          when the paper's time is beyond the runs' budget: the report says so)
  at matched time         each column at t x R x rho(column) playouts, read on the runs'
                          playouts traces, R the published runs' rate (playouts per second
                          of the paper's engine on its machine, fitted on the baseline column)
                          and rho the column's playouts per CPU-second over the baseline's on
                          this engine (report.published_rate.relative, experiments/rates.py):
                          the work the paper's machine did for that column in t seconds, the
                          same on any machine. Only for claims on a published CPU-time table;
                          n/a elsewhere (playouts and final scores need no matching).
A claim is judged only on a reading of the comparison its paper makes (its file's `basis`:
equal time, equal playouts, complete searches, final scores, wall time; check_basis).
A claim may rest on the neural pipeline's stored results instead of an experiment's runs
(experiment: neural_table1 .. neural_table4, the steps of experiments/neural.py): NeuralSource
reads them at the report's scale, with the runs of morpion_table2 (Uniform, NRPA(L)) beside
them; where they are not made yet the claim is not judged and its row says which `make` target
makes them.
Holm's correction runs across the claims of each of the two evaluations; the verdict
(supported, contradicted, inconclusive) reads the corrected p-values at alpha = 0.05, and an
inconclusive claim gets about how many runs per column would decide it.
`make claims SCALE=...` first runs every experiment that has runs missing.
"""

from __future__ import annotations

import argparse
import collections
import functools
import hashlib
import json
import math
import re
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import yaml

from analysis import reading_cases, verdicts
from analysis.plots import new_figure, save_figure
from analysis.report import FIRST_PLAYOUTS, FIRST_TIME, Runs, collect, variant_key
from analysis.stats import best_at, doubling_checkpoints
from experiments.config import print_outputs
from experiments.experiment import Experiment, experiment_names, load_experiment
from experiments.published import load_reference
from experiments.root_parallel import axis_trace
from experiments.runs import game_count, game_scores
from nrpa.errors import InputError, did_you_mean

CLAIMS_DIR = Path(__file__).resolve().parent / "claims"
# A matched-time run's budget is the paper's work for it (t x R x rho playouts) rounded to a whole
# playout, so its runs reach that work within half a playout: checkpoints are read that far on.
ROUNDED_BUDGET_SLACK = 0.5
TESTS = ("compare", "value", "total", "gain", "speedup")
# The fixed-n report's two readings of a claim on a published time table: our runs at the
# published CPU-seconds, and at matched time (each column at t x R x rho(column) playouts).
BASES = ("published time", "matched time")
# The comparison a paper makes, as its claim file states it (`basis:`), and the readings of runs
# that make that comparison: a claim is judged only on a reading of its own basis (check_basis).
# Equal time: the time tables ("given the same computation time"), each column at the same
# seconds (on this engine, or at matched time t x R x rho); equal playouts: the same playouts for
# every column (Distributed Figure 3); complete searches: each search to the end of its top
# level, no budget, no restart (the 20-board totals); final scores: each run's final score
# (Morpion's games; a complete search's is one); wall time: wall-clock seconds on given cores.
CLAIM_BASES = {"equal time": ("equal time",), "equal playouts": ("equal playouts",),
               "complete searches": ("complete searches",), "final scores": ("final scores", "complete searches"),
               "wall time": ("wall time",)}
KEYS = {"id", "kind", "text", "source", "settings", "experiment", "test", "basis", "better", "than", "pairs", "at",
        "axis", "variant", "published", "margin", "from", "needs_cores", "reading"}
# paper: the paper's own words, judged only at the paper's settings; transfer: a paper's claim
# carried to another domain or algorithm (e.g. Gelly's, made on Go, to SP-MCTS on SameGame);
# observation: the harness's own. Only paper claims count as the papers'.
KINDS = ("paper", "transfer", "observation")
# The paper's settings a claim file states (`settings:`) that are checked against the runs;
# any other key (rules, cores, nodes, runs, ...) is shown, not checked.
CHECKED = ("seconds", "threads", "jobs", "complete", "level", "N", "unstated",
           # the neural pipeline's (NeuralSource.gaps): the networks' training epochs, the games
           # they imitate (at least) and the score filter that kept them, Expert Iteration's hours
           "epochs", "imitation_games", "keep", "hours")
# a claim whose runs at the paper's settings need hardware or compute this machine lacks (its why);
# what scaled-down runs say is kept apart, in scaled_down_verdict
NOT_RUN = "not run"
# A claim's `experiment:` naming a step of the neural pipeline (NeuralSource): the step's results
# file at the report's scale (experiments/neural.py, RESULTS), made by the `make` target beside it.
NEURAL = {"neural_table1": "table1", "neural_table2": "table2", "neural_table3": "table3",
          "neural_table4": "table4"}
MAKE_TARGETS = {"table1": "morpion-table1", "table2": "morpion-table2", "table3": "morpion-table3",
                "table4": "morpion-table4"}
# The experiment of the paper's other Table 2 rows: a claim may set a network's games beside its
# Uniform or NRPA(L) runs (its columns, at the same scale).
NEURAL_BASELINE = "morpion_table2"


@dataclass(frozen=True)
class NotTested:
    """A comparative sentence of a paper that no claim tests, and why (a file's `not_tested:`)."""
    paper: str
    where: str
    quote: str
    why: str
    file: str = ""


class NotJudged(Exception):
    """The runs cannot judge a claim (too short, too few): the report says why."""


class Untestable(NotJudged):
    """No run can test the claim (its paper's evidence is one run per row): the row compares
    what the runs say, without a verdict (why: UNTESTABLE)."""


class Refused(NotJudged):
    """The runs are of another basis than the claim's (check_basis): more of them would not judge it."""


@dataclass(frozen=True)
class Claim:
    paper: str
    id: str
    text: str
    experiment: str
    test: str
    pairs: tuple[tuple[str, str], ...] = ()  # compare, total: (better, worse) variant labels
    at: object = "last"  # "every", "last", or a list of published times
    axis: str | None = None  # None: the experiment's time axis; or "playouts"
    variant: str | None = None  # value, gain
    published: str | None = None  # value: the published table's column
    margin: float | None = None  # value
    start: float | None = None  # gain: its first checkpoint
    kind: str = "paper"  # one of KINDS
    where: str = ""  # the section, table or figure it comes from
    quote: str = ""  # the sentence it rests on, verbatim ("[...]" marks a cut; tests/test_quotes.py)
    figures: str = ""  # the published numbers it reads (table cells), as the paper prints them
    settings: tuple = ()  # the paper's settings for it, (key, value) pairs (see CHECKED)
    file: str = ""  # the claims file's stem (analysis/claims/<file>.yaml)
    needs_cores: int = 0  # wall-clock claims: the cores the runs must have had (0: any)
    basis: str = "equal time"  # the comparison the paper makes (CLAIM_BASES)
    reading: str = ""  # how the runs read what the paper does not state (settings.unstated), in words
    templates: tuple = ()  # the pairs as the file gives them, before resolve() named the threads of a scale

    @property
    def paper_settings(self) -> dict:
        return dict(self.settings)

    def variants(self) -> set[str]:
        baseline = {"sequential"} if self.test == "speedup" else set()  # a speed-up is over the sequential column
        return {label for pair in self.pairs for label in pair} | ({self.variant} if self.variant else set()) | baseline


def load_claims(directory: Path = CLAIMS_DIR, files: list[str] | None = None) -> list[Claim]:
    """Every claim of every file (of the files named ``files``, e.g. ["gnrpa"], when given),
    checked for what a file alone can get wrong."""
    paths = _claim_files(directory, files)
    claims = []
    for path in paths:
        content = _claims_file(path)
        for entry in content["claims"]:
            claims.append(_claim(path, content.get("paper", path.stem), entry))
    ids = [claim.id for claim in claims]
    if len(set(ids)) != len(ids):
        raise InputError(f"{directory}: claim ids repeat: {sorted({i for i in ids if ids.count(i) > 1})}")
    return claims


def _claim_files(directory: Path, files: list[str] | None) -> list[Path]:
    paths = sorted(directory.glob("*.yaml"))
    if files:
        unknown = sorted(set(files) - {path.stem for path in paths})
        if unknown:
            raise InputError(f"no claims file {', '.join(unknown)}: "
                             + did_you_mean(unknown[0], [p.stem for p in paths], "choose among"))
        paths = [path for path in paths if path.stem in files]
    return paths


def _claims_file(path: Path) -> dict:
    try:
        content = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        raise InputError(f"{path}: not valid YAML: {error}") from None
    if not isinstance(content, dict) or not isinstance(content.get("claims"), list):
        raise InputError(f"{path}: expected a mapping with 'paper' and a list 'claims'")
    unknown = set(content) - {"paper", "claims", "not_tested"}
    if unknown:
        raise InputError(f"{path}: unknown key(s) {sorted(unknown)}: valid are paper, claims, not_tested")
    return content


def load_not_tested(directory: Path = CLAIMS_DIR, files: list[str] | None = None) -> list[NotTested]:
    """The papers' comparative sentences that no claim tests, each with its reason (the files'
    `not_tested:` lists): the report lists them, so "not tested" is told apart from "forgotten"."""
    sentences = []
    for path in _claim_files(directory, files):
        content = _claims_file(path)
        for number, entry in enumerate(content.get("not_tested") or [], start=1):
            if not (isinstance(entry, dict) and set(entry) == {"where", "quote", "why"}
                    and all(isinstance(value, str) and value.strip() for value in entry.values())):
                raise InputError(f"{path.name}, not_tested entry {number}: expected {{where: <section, table or "
                                 "figure>, quote: <the paper's words>, why: <why no claim tests it>}}")
            sentences.append(NotTested(paper=str(content.get("paper", path.stem)), where=entry["where"].strip(),
                                       quote=" ".join(entry["quote"].split()), why=" ".join(entry["why"].split()),
                                       file=path.stem))
    return sentences


def _claim(path: Path, paper: str, entry) -> Claim:
    where = f"{path.name}, claim {entry.get('id', '?') if isinstance(entry, dict) else entry!r}"
    if not isinstance(entry, dict):
        raise InputError(f"{where}: expected a mapping")
    unknown = set(entry) - KEYS
    if unknown:
        raise InputError(f"{where}: unknown key(s) {sorted(unknown)}: "
                         + did_you_mean(min(unknown), sorted(KEYS), "valid are"))
    missing = {"id", "kind", "text", "source", "experiment", "test", "basis"} - set(entry)
    if entry.get("kind") == "paper":
        missing |= {"settings"} - set(entry)
    if missing:
        raise InputError(f"{where}: missing {sorted(missing)}")
    if entry["kind"] not in KINDS:
        raise InputError(f"{where}: kind={entry['kind']!r} is not valid: {did_you_mean(entry['kind'], KINDS)}")
    source = entry["source"]
    if not (isinstance(source, dict) and {"where", "quote"} <= set(source) <= {"where", "quote", "figures"}
            and all(isinstance(source[key], str) and source[key].strip() for key in source)):
        raise InputError(f"{where}: source must be {{where: <section, table or figure>, quote: <the paper's words>}} "
                         "and optionally figures: <the published numbers it reads>")
    settings = entry.get("settings") or {}
    if not isinstance(settings, dict):
        raise InputError(f"{where}: settings must be a mapping of the paper's settings (checked: {', '.join(CHECKED)})")
    for key in ("seconds", "threads", "jobs", "level", "N") if entry["kind"] == "paper" else ():
        low = 0 if key == "level" else 1e-9  # a level-0 search is a playout
        if key in settings and not (isinstance(settings[key], (int, float)) and settings[key] >= low):
            raise InputError(f"{where}: settings.{key}={settings[key]!r} must be a number >= {low:g}")
    if not isinstance(settings.get("unstated", []), list):
        raise InputError(f"{where}: settings.unstated must be a list of what the paper does not state")
    if settings.get("unstated") and not (isinstance(entry.get("reading"), str) and entry["reading"].strip()):
        raise InputError(f"{where}: settings.unstated needs reading: how the runs read what the paper does not "
                         "state (the row shows the verdict under that reading), or \"none\" and why")
    if entry["basis"] not in CLAIM_BASES:
        raise InputError(f"{where}: basis={entry['basis']!r} is not valid: {did_you_mean(entry['basis'], CLAIM_BASES)}")
    if entry["test"] not in TESTS:
        raise InputError(f"{where}: test={entry['test']!r} is not valid: {did_you_mean(entry['test'], TESTS)}")
    if entry["experiment"] not in [*experiment_names(), *NEURAL]:
        raise InputError(f"{where}: experiment={entry['experiment']!r} is not valid: "
                         + did_you_mean(entry["experiment"], [*experiment_names(), *NEURAL]))
    if entry["experiment"] in NEURAL and entry["test"] != "compare":
        raise InputError(f"{where}: test={entry['test']} is not valid on the neural pipeline's results: compare")
    for key in ("epochs", "imitation_games", "hours"):
        if key in settings and not (isinstance(settings[key], (int, float)) and settings[key] > 0):
            raise InputError(f"{where}: settings.{key}={settings[key]!r} must be a number > 0")
    if "keep" in settings and not (isinstance(settings["keep"], list) and len(settings["keep"]) == 2):
        raise InputError(f"{where}: settings.keep={settings['keep']!r} must be [lowest, highest] score kept")
    pairs = [tuple(pair) for pair in entry.get("pairs", [])]
    pairs += [(better, than) for better in entry.get("better", []) for than in entry.get("than", [])]
    if any(len(pair) != 2 for pair in pairs):
        raise InputError(f"{where}: each of 'pairs' is [better, worse]")
    at = entry.get("at", "last")
    if not (at in ("every", "last") or (isinstance(at, list) and at and all(
            isinstance(t, (int, float)) and t > 0 for t in at))):
        raise InputError(f"{where}: at={at!r} is not valid: every, last, or a list of times > 0")
    needs = {"compare": ["pairs"], "total": ["pairs"], "value": ["variant", "published", "margin"],
             "gain": ["variant", "from"], "speedup": ["variant", "published", "margin"]}[entry["test"]]
    given = {"pairs": pairs, "variant": entry.get("variant"), "published": entry.get("published"),
             "margin": entry.get("margin"), "from": entry.get("from")}
    absent = [key for key in needs if not given[key]]
    if absent:
        raise InputError(f"{where}: test={entry['test']} needs {', '.join(absent)}"
                         + (" (or better and than)" if "pairs" in absent else ""))
    if entry["test"] == "speedup" and not isinstance(entry.get("published"), (int, float)):
        raise InputError(f"{where}: test=speedup needs published: the speed-up the paper gives, a number")
    if entry.get("axis") not in (None, "playouts"):
        raise InputError(f"{where}: axis={entry['axis']!r} is not valid: leave it out (time) or playouts")
    return Claim(paper=str(paper), id=str(entry["id"]), text=str(entry["text"]), experiment=entry["experiment"],
                 test=entry["test"], pairs=tuple(pairs), at=tuple(at) if isinstance(at, list) else at,
                 axis=entry.get("axis"), variant=entry.get("variant"),
                 published=str(entry["published"]) if entry.get("published") is not None else None,
                 margin=float(entry["margin"]) if entry.get("margin") is not None else None,
                 start=float(entry["from"]) if entry.get("from") is not None else None,
                 kind=entry["kind"], where=source["where"].strip(), quote=" ".join(source["quote"].split()),
                 figures=" ".join(source.get("figures", "").split()),
                 settings=tuple((key, tuple(value) if isinstance(value, list) else value)
                                for key, value in settings.items()),
                 file=path.stem, needs_cores=int(entry.get("needs_cores", 0)), basis=entry["basis"],
                 reading=" ".join(str(entry.get("reading", "")).split()))


@dataclass
class Source:
    """One experiment at one scale, its runs read once."""

    experiment: Experiment
    runs: Runs = field(repr=False)

    @property
    def time_axis(self) -> str:
        clocks = {v.job.settings.clock for v in self.experiment.variants}
        return "wall_seconds" if clocks == {"wall"} else "cpu_seconds"

    @property
    def reference(self) -> pd.DataFrame | None:
        return load_reference(self.experiment.reference) if self.experiment.reference else None

    def boards(self) -> list[int]:
        """The boards of a 20-board table's columns, in order."""
        return sorted({int(v.job.domain_options.board) for v in self.experiment.variants})

    def labels(self) -> set[str]:
        return set(self.runs.records) | {v.label for v in self.experiment.variants}

    def last(self, axis: str, labels) -> float:
        """The last checkpoint every run of ``labels`` reaches on ``axis``: their time budget, or
        what the runs recorded where they have none (runs budgeted in playouts)."""
        budgets = [v.job.settings.max_time for v in self.experiment.variants if v.label in labels]
        if axis == "playouts" or None in budgets:
            return min(r["result"][axis] for label in labels for r in self.runs.records[label])
        return min(budgets)

    def published_times(self, axis: str, last: float) -> np.ndarray:
        """The published table's times; without one, every doubling up to ``last`` and
        ``last`` itself where it falls between two, so that a claim "at the end" reads the
        runs' end (Figure 3's complete executions end at playout counts between doublings)."""
        reference = self.reference
        if axis != "playouts" and reference is not None and "time" in reference.columns:
            return reference["time"].to_numpy(dtype=float)
        doublings = doubling_checkpoints(FIRST_PLAYOUTS if axis == "playouts" else FIRST_TIME, last)
        return doublings if doublings.size and doublings[-1] >= last * (1 - 1e-9) else np.append(doublings, last)

    def at(self, label: str, axis: str, t: float) -> np.ndarray:
        """Each run's best at ``t`` on ``axis`` (the kernel's unit; NaN: no solution yet)."""
        return np.array([best_at(*axis_trace(r, axis), [t])[0] for r in self.runs.records[label]])

    def finals(self, label: str) -> np.ndarray:
        """The final scores of ``label``'s runs: one per game (a run of several games holds
        them all: experiments.runs.game_scores)."""
        return np.array([score for r in self.runs.records[label] for score in game_scores(r)], dtype=float)

    def published_rate(self):
        """The experiment's published runs' rate R when its claims can be judged at matched
        work (a published CPU-time table), else None."""
        if self.experiment.kind != "checkpoints" or self.time_axis != "cpu_seconds":
            return None
        return self.experiment.published_rate


def resolve(claim: Claim, experiment: Experiment) -> Claim:
    """The claim with "{threads}" in its columns' names replaced by the experiment's largest
    thread count (Figure 4's "on the most threads": 32 at paper scale, 2 at quick)."""
    if not any("{threads}" in label for label in claim.variants()):
        return claim
    most = str(max(v.job.settings.threads for v in experiment.variants))
    return replace(claim, pairs=tuple((a.replace("{threads}", most), b.replace("{threads}", most))
                                      for a, b in claim.pairs), templates=claim.pairs)


def experiment_of(claim: Claim) -> str:
    """The experiment whose runs a claim reads: its own, or for a claim on the neural
    pipeline's results NEURAL_BASELINE (runs it may set beside a network's games, and the
    scale and outputs folder the results are looked for in)."""
    return NEURAL_BASELINE if claim.experiment in NEURAL else claim.experiment


def load_experiments(claims: list[Claim], overrides: list[str]) -> dict[str, Experiment]:
    """Each experiment the claims use (experiment_of), composed with ``overrides`` (scale=S,
    ...); every column a claim names checked (check_columns)."""
    experiments = {}
    for name in dict.fromkeys(experiment_of(claim) for claim in claims):
        experiments[name] = load_experiment([f"experiment={name}", *overrides])
        check_columns(claims, name, experiments[name], overrides)
    return experiments


def check_columns(claims: list[Claim], name: str, experiment: Experiment, overrides: list[str]) -> None:
    """Each column the claims on experiment ``name`` read must be one of its columns at this
    scale or, for a column only the paper's settings have (32 threads), at scale=paper; a
    claim on a neural step's results, one of the step's columns or of ``name``'s."""
    labels = {v.label for v in experiment.variants}
    for claim in claims:
        if experiment_of(claim) != name:
            continue
        if claim.experiment in NEURAL:
            known = set(neural_columns(claim.experiment)) | labels
            if not claim.variants() <= known:
                missing = sorted(claim.variants() - known)
                raise InputError(f"claim {claim.id}: {missing} are not columns of {claim.experiment} or {name}: "
                                 + did_you_mean(missing[0], sorted(known), "choose among"))
            continue
        if resolve(claim, experiment).variants() <= labels:
            continue
        at_paper = load_experiment([f"experiment={name}", *overrides, "scale=paper"])
        claim, paper = resolve(claim, at_paper), {v.label for v in at_paper.variants}
        if not claim.variants() <= labels | paper:
            missing = sorted(claim.variants() - labels - paper)
            raise InputError(f"claim {claim.id}: {missing} are not columns of {name}: "
                             + did_you_mean(missing[0], sorted(labels | paper), "choose among"))


def claim_variants(claim: Claim, experiment: Experiment) -> list:
    """The experiment's variants (columns) a claim reads: for a 20-board total, each board's."""
    labels = claim.variants()
    return [v for v in experiment.variants
            if v.label in labels or any(v.label.startswith(f"{label} board ") for label in labels)]


class Gap(str):
    """One way the runs behind a claim differ from its paper's settings: its text (the string
    itself, as the reports show it), and ``kind``, what would close it: NEEDS_HARDWARE (cores or
    threads this machine does not have), NEEDS_COMPUTE (runs at the paper's settings, affordable
    in principle: paper_cost), UNSTATED (the paper does not say: the claim file's `reading` says
    how the runs read it)."""

    kind: str

    def __new__(cls, kind: str, text: str) -> "Gap":
        gap = super().__new__(cls, text)
        gap.kind = kind
        return gap


NEEDS_HARDWARE, NEEDS_COMPUTE, UNSTATED = "needs hardware", "needs compute", "unstated setting"
# A claim no run can test: its paper's evidence is one run per row (Morpion's Expert Iteration), so a
# difference cannot be told from one run's luck, here or there; its row compares, it does not judge.
UNTESTABLE = "no run can test it"
# A claim on a reading that the paper's own published baseline rejects (analysis/readings.py, the
# committed fit in docs/results/readings.csv): no verdict rests on it; its row says what its runs say.
READING_REJECTED = "its reading does not fit the paper's published baseline"
# Why a row has no verdict: not run at the paper's settings (the first of its gaps' kinds in this
# order; runs not made at all need compute), or untestable. An unstated setting is no reason: the
# claim is judged on the claim file's reading of it, and its row says so (judged_on).
WHY = (NEEDS_HARDWARE, NEEDS_COMPUTE, UNTESTABLE, READING_REJECTED)
# judged_on: what a paper claim's verdict rests on, the settings its paper states or, where the paper
# leaves one unsaid, the reading its claim file names (on the paper's text elsewhere, the code it
# points to, or a fit to its published numbers)
ON_STATED, ON_READING = "the stated settings", "a named reading"
# reading_fit of a claim on a reading that no published column can test (analysis/readings.yaml has no case for it)
ARGUED_ONLY = "argued only (docs/readings.md): no published baseline column tests it"


def machine_cores() -> int:
    return os.cpu_count() or 1


def paper_cores(claim: Claim) -> int:
    """The cores the paper's runs had: its `cores`, else threads x jobs, else 1 (a setting given in
    words, e.g. a transfer's "1, 2, 4" threads, is shown only, and counts as 1 here)."""
    def number(key: str) -> int:
        value = claim.paper_settings.get(key, 1)
        return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 1
    return number("cores") if "cores" in claim.paper_settings else number("threads") * number("jobs")


def needs_machine(claim: Claim) -> bool:
    """Whether runs at the paper's settings need a machine with more cores than this one: its
    cores beyond ours, on a basis where cores change the result. At equal playouts they do not:
    a round-synchronous parallel search makes the same search on any number of cores (the
    threads are a setting of the algorithm), so more cores only make it sooner: compute."""
    return paper_cores(claim) > machine_cores() and claim.basis != "equal playouts"


def settings_gaps(claim: Claim, source: Source) -> list[Gap]:
    """Where the runs behind ``claim`` differ from the paper's settings its file states (for a
    paper claim; any kind: fewer cores than ``needs_cores``); empty when they match, and the
    claim may then be given a verdict. N is stated by none of the five papers: it is read as 100
    (Rosin's) in every paper, as each experiment's config sets it, and is not a gap."""
    if isinstance(source, NeuralSource):
        return source.gaps(claim)
    gaps = []
    variants = claim_variants(claim, source.experiment)
    # threads, jobs or columns of the paper's machine: beyond this machine's cores, hardware
    parallel = NEEDS_HARDWARE if needs_machine(claim) else NEEDS_COMPUTE
    missing = claim.variants() - {v.label for v in source.experiment.variants}
    if missing:
        gaps.append(Gap(parallel, f"{', '.join(sorted(missing))} run only at scale=paper"))
    if claim.needs_cores:
        cpus = [r.get("machine", {}).get("cpus") for rs in source.runs.records.values() for r in rs]
        cpus = [c for c in cpus if c]
        if cpus and min(cpus) < claim.needs_cores:
            gaps.append(Gap(NEEDS_HARDWARE, f"runs made on {min(cpus)} cores; the claim needs {claim.needs_cores}"))
    paper = claim.paper_settings
    if claim.kind == "paper" and paper.get("unstated"):  # said even where no column runs at this scale
        gaps.append(Gap(UNSTATED, f"the paper does not state {', '.join(paper['unstated'])}"))
    if claim.kind != "paper" or not variants:
        return gaps
    jobs = [v.job.settings for v in variants]
    for key, noun in (("threads", "threads"), ("level", "level"), ("N", "N")):
        if key in paper:
            ours = sorted({getattr(s, key) for s in jobs})
            if (key == "threads" and max(ours) < paper[key]) or (key != "threads" and ours != [paper[key]]):
                gaps.append(Gap(parallel if key == "threads" else NEEDS_COMPUTE,
                                f"{noun} {'/'.join(map(str, ours))} for the paper's {paper[key]}"))
    if "jobs" in paper and max(v.root for v in variants) < paper["jobs"]:
        gaps.append(Gap(parallel, f"{max(v.root for v in variants)} jobs for the paper's {paper['jobs']}"))
    if "seconds" in paper:
        reach = min(_seconds(v.job.settings, source.experiment.published_rate, v.label) for v in variants)
        if reach < paper["seconds"] * (1 - 1e-3):  # t x R playouts are rounded to a whole playout
            gaps.append(Gap(NEEDS_COMPUTE, f"{reach:.3g} s for the paper's {paper['seconds']:g} s"))
    if paper.get("complete") and not all(map(complete, jobs)):
        budget = min(_seconds(v.job.settings, source.experiment.published_rate, v.label) for v in variants)
        gaps.append(Gap(NEEDS_COMPUTE, f"searches stopped at {budget:g} s for the paper's complete searches"
                        if math.isfinite(budget) else
                        "searches cut short (a playout budget or restarts) for the paper's complete searches"))
    return gaps


def complete(settings) -> bool:
    """A search run to the end of its top level: no time or playout budget, no restart."""
    return not (settings.max_time or settings.max_playouts or settings.restart)


def why_not_judged(gaps: list[Gap]) -> str:
    """The reason a row with ``gaps`` gets no verdict: the first of hardware or compute among
    its gaps' kinds; "" when every gap is an unstated setting (judged on its reading) or none."""
    kinds = {gap.kind for gap in gaps}
    return next((kind for kind in (NEEDS_HARDWARE, NEEDS_COMPUTE) if kind in kinds), "")


def _seconds(settings, rate, column: str) -> float:
    """A run's budget in the paper's seconds: its time budget, or for a run budgeted in playouts
    (matched_work) the published seconds whose work for its column they hold, playouts / (R x
    rho(column)) (inf: none, a search that runs to its end)."""
    if settings.max_time:
        return float(settings.max_time)
    if settings.max_playouts and rate is not None:
        return settings.max_playouts / rate.work(1.0, column)
    return math.inf


@functools.lru_cache(maxsize=None)
def at_paper_scale(name: str) -> Experiment:
    """Experiment ``name`` at scale=paper, as its own paper budgets have it (the columns' threads,
    jobs and budgets a claim's cost is read from): a time table's at equal CPU time, the paper's
    seconds on one core each (matched_work=false; its default at paper scale is matched time)."""
    return load_experiment([f"experiment={name}", "scale=paper", "matched_work=false"])


def complete_search_seconds(variant, source: Source, key: str) -> float:
    """CPU-seconds of one complete search of a column (NaN where unknown): its stored runs' mean
    a game when they are complete searches (a run of several games holds their sum), else
    N^level x P playouts (a complete NRPA or SNRPA search) at the playouts per CPU-second its
    stored runs made."""
    settings = variant.job.settings
    stored = source.runs.records.get(key, []) if isinstance(source, Source) else []
    if stored and complete(settings) and all(complete(SimpleNamespace(**r["settings"])) for r in stored):
        return float(np.mean([r["result"]["cpu_seconds"] / game_count(r) for r in stored]))
    if not stored or settings.algorithm not in ("nrpa", "snrpa"):
        return math.nan
    rate = np.mean([r["result"]["playouts"] / max(r["result"]["cpu_seconds"], 1e-9) for r in stored])
    return settings.N ** settings.level * settings.P / rate


def paper_cost(claim: Claim, source: Source) -> tuple[float, str, dict]:
    """What runs at the paper's settings take: CPU-hours on one core (all the cores a run holds,
    added up; NaN where unknown), in words with the command that makes them, and by part
    ({"column (its search's hash)": CPU-seconds}: claims that read the same search, in one
    experiment or two, share its cost, which a total counts once, parts_once). Each column
    is priced at its own settings: its threads and jobs at scale=paper (at most the paper's
    cores), the paper's seconds, or for a complete search its measured (or N^level x P playouts')
    cost; a complete search with no stored run to
    read a cost off is estimated: an NRPA or SNRPA one at N^level x P playouts at the rate of the
    experiment's stored NRPA-family runs, another (NMCS, SP-MCTS) at the paper-scale config's time
    budget (the papers' 2 hours a board, a placeholder), and the text says which."""
    if claim.experiment in NEURAL:
        from experiments.neural import plan, plan_seconds

        step = NEURAL[claim.experiment]
        parts = {f"morpion neural {part}": seconds for part, seconds in plan_seconds("paper", step).items()}
        return sum(parts.values()) / 3600, f"`make {MAKE_TARGETS[step]} SCALE=paper`: {plan('paper', step)}", parts
    paper = claim.paper_settings
    cores = paper_cores(claim)
    runs = int(paper.get("runs", 200))
    experiment = at_paper_scale(claim.experiment)
    as_filed = replace(claim, pairs=claim.templates) if claim.templates else claim  # "{threads}": the paper's scale's
    variants = claim_variants(resolve(as_filed, experiment), experiment)
    command = (f"`make claims SCALE=paper BUDGET=<CPU-h> CLAIMS={claim.file} ARGS=\"--own-paper-budgets"
               + (" backend=dask backend.address=<scheduler>" if needs_machine(claim) else "") + "\"`")
    if paper.get("complete") and any(v.job.settings.max_time or v.job.settings.restart for v in variants):
        # the paper-scale configs of the 20-board tables run 7,200 s with restarts, not complete searches
        command = (f"`python run.py -m experiment={claim.experiment} scale=paper max_time=null restart=false` (complete "
                   "searches; the paper-scale config runs timed searches with restarts)")
    # playouts per CPU-second of the experiment's stored NRPA and SNRPA runs (any column, any board): the
    # estimate of a complete NRPA-family search with no stored run of its own, the same for every claim
    stored = [r for records in source.runs.records.values() for r in records
              if r["settings"].get("algorithm") in ("nrpa", "snrpa")] if isinstance(source, Source) else []
    rate = np.mean([r["result"]["playouts"] / max(r["result"]["cpu_seconds"], 1e-9) for r in stored]) \
        if stored else math.nan
    parts, pieces = {}, collections.Counter()
    for variant in variants:
        settings = variant.job.settings
        held = min(settings.threads * variant.root, cores)
        if paper.get("complete") or not (settings.max_time or settings.max_playouts):
            cost = complete_search_seconds(variant, source, variant_key(experiment, variant))
            what = "complete searches (their stored runs' cost, or N^level x P playouts at their rate)"
            if not math.isfinite(cost) and settings.algorithm in ("nrpa", "snrpa") and math.isfinite(rate):
                cost = settings.N ** settings.level * settings.P / rate
                what = "complete searches, estimated: N^level x P playouts at the rate of the experiment's stored runs"
            elif not math.isfinite(cost) and settings.max_time:
                cost = settings.max_time * held
                what = (f"complete searches, priced at a placeholder, the paper-scale budget of "
                        f"{settings.max_time:g} s x {held} core{'s' if held > 1 else ''} (no stored complete search "
                        "to read a cost off)")
        else:
            cost = paper.get("seconds", settings.max_time) * held
            what = f"{paper.get('seconds', settings.max_time):g} s x {held} core{'s' if held > 1 else ''}"
        pieces[what] += 1
        if math.isfinite(cost):
            parts[search_key(experiment, variant)] = runs * cost
    how = "; ".join(f"{count} column{'s' if count > 1 else ''} x {runs} runs of {what}" for what, count in pieces.items())
    machine = f"a machine with {cores} cores (this one has {machine_cores()}); " if needs_machine(claim) else ""
    if len(parts) < len(variants):
        return math.nan, f"{machine}{how}; some columns not priced: {command}", parts
    hours = sum(parts.values()) / 3600
    return hours, f"{machine}~{hours:,.1f} CPU-h on one core ({how}): {command}", parts


def search_key(experiment: Experiment, variant) -> str:
    """A column named by the search it runs, "NRPA board 1 (3f2a...)": two experiments' columns that
    run the same search (the 20-board tables, a board-1 column of two tables) share their runs, and
    a total over claims counts them once."""
    search = json.dumps(variant.job.semantic_config(), sort_keys=True, default=str)
    return f"{variant_key(experiment, variant)} ({hashlib.sha256(search.encode()).hexdigest()[:10]})"


def parts_once(rows: pd.DataFrame, column: str) -> dict:
    """The parts a by-part JSON column of ``rows`` names (paper_cost_parts, cpu_seconds_by_column:
    {search: CPU-seconds}), each once: claims that read the same search share its runs."""
    parts: dict = {}
    for text in rows[column].dropna() if column in rows else []:
        parts.update(json.loads(text) if isinstance(text, str) and text else {})
    return parts


def check_basis(claim: Claim, reading: str) -> None:
    """NotJudged unless ``reading`` (what a reading of the runs compares: a key of CLAIM_BASES'
    values) is a reading of the comparison the claim's paper makes."""
    if reading not in CLAIM_BASES[claim.basis]:
        raise Refused(f"the paper compares at {claim.basis}; these runs are read at {reading}: refused (a verdict "
                        "on another basis answers another question)")


def final_reading(claim: Claim, source: Source) -> str:
    """A reading of runs' final scores: of complete searches when no column the claim reads has
    a budget or restarts (each search ran to the end of its top level), else of final scores."""
    jobs = [v.job.settings for v in claim_variants(claim, source.experiment)]
    return "complete searches" if jobs and all(map(complete, jobs)) \
        else "final scores"


def time_reading(axis: str, rate) -> str:
    """What a checkpoint reading compares: wall time, equal time (CPU-seconds, or with ``rate``
    matched time on the playouts axis), or equal playouts."""
    if rate is not None or axis == "cpu_seconds":
        return "equal time"
    return "wall time" if axis == "wall_seconds" else "equal playouts"


def matched_reach(source: Source, label: str, rate) -> float:
    """The published seconds a column's runs reach at matched time: its fewest playouts over R x rho
    (within a rounded budget's slack)."""
    return (source.last("playouts", [label]) + ROUNDED_BUDGET_SLACK) / rate.work(1.0, label)


def checkpoint_times(claim: Claim, source: Source, axis: str, rate=None) -> tuple[list[tuple[float, dict]], str]:
    """The points at which a claim is judged, each (t, {column: where the column is read on
    ``axis``}), and how the report says it. Without ``rate``: the published times, every column
    read at t. With ``rate`` (a PublishedRate: matched time, on the playouts axis): each column
    at the paper's work for it in t seconds, t x R x rho(column). Where the claim's time is
    beyond the runs: the last point every column reaches, and the report says so."""
    labels = sorted(claim.variants())
    empty = [label for label in labels if not source.runs.records.get(label)]
    if empty:
        raise NotJudged(f"{', '.join(empty)}: no runs yet")
    unit = "playouts" if axis == "playouts" and rate is None else "s"
    if rate is None:
        last = source.last(axis, labels)
        published = source.published_times(axis, last)

        def position(t: float, label: str) -> float:  # every column at the same t
            return t
    else:
        # the published seconds every column's runs reach: a column's fewest playouts over its R x rho
        last = min(matched_reach(source, label, rate) for label in labels)
        published = source.reference["time"].to_numpy(dtype=float)
        position = rate.work
    wanted = published if claim.at == "every" else [published[-1]] if claim.at == "last" else list(claim.at)
    times = [float(t) for t in wanted if t <= last * (1 + 1e-9)]
    matched = "" if rate is None else " at matched time (each column at t x R x rho playouts)"
    if not times:
        return [(last, {label: position(last, label) for label in labels})], \
            f"{last:.4g} {unit}{matched}: the runs end there; the claim is at {wanted[-1]:g} {unit}"
    text = f"{times[0]:.4g} {unit}" if len(times) == 1 else \
        f"{len(times)} checkpoints, {times[0]:.4g}-{times[-1]:.4g} {unit}"
    return [(t, {label: position(t, label) for label in labels}) for t in times], text + matched


def published_difference(source: Source, a: str, b: str, t: float | None = None) -> float:
    """The paper's own value of the comparison "a above b": a - b at published time ``t`` of a time
    table, or of the two columns' totals (``t`` None: a board table's Total row), in a contrast's
    unit and sign (higher is better: the paper's unit times the sign of value_scale); NaN where the
    paper has no such cells."""
    reference = source.reference
    if reference is None or a not in reference.columns or b not in reference.columns:
        return math.nan
    if t is None:
        row = reference[reference.iloc[:, 0].astype(str) == "Total"]
    elif "time" in reference.columns:
        row = reference[np.isclose(reference["time"].to_numpy(dtype=float), t)]
    else:
        return math.nan
    if len(row) != 1:
        return math.nan
    return float(row[a].iloc[0] - row[b].iloc[0]) * float(np.sign(source.experiment.value_scale))


def pair_name(a: str, b: str, t: float, positions: dict, axis: str, rate) -> str:
    """A contrast's name: "A vs B at 163.8 s", or at matched time "A vs B at 163.8 s (1.9e+06 vs
    9.5e+05 playouts)", each column at its own work."""
    if rate is None:
        return f"{a} vs {b} at {t:.4g} {'playouts' if axis == 'playouts' else 's'}"
    return f"{a} vs {b} at {t:.4g} s ({positions[a]:.3g} vs {positions[b]:.3g} playouts)"


def evaluate(claim: Claim, source: Source, basis: str) -> tuple[verdicts.Evidence, str] | None:
    """The evidence for ``claim`` from its runs on ``basis`` (one of BASES), with where it
    was judged; None where the basis does not apply."""
    scale = source.experiment.value_scale
    rate = source.published_rate() if basis == "matched time" else None
    if basis == "matched time" and (rate is None or claim.axis == "playouts" or claim.test == "gain"):
        return None
    if claim.test == "total":
        check_basis(claim, final_reading(claim, source))
        return _total(claim, source, scale), "final scores"
    if claim.test == "speedup":  # Gelly et al.'s k: the parallel column at t scores as the sequential one at k t
        check_basis(claim, "wall time")
        from analysis.speedup import speedup_samples
        at = source.last("wall_seconds", {claim.variant, "sequential"})
        if min(len(source.runs.records.get(label, [])) for label in (claim.variant, "sequential")) < 2:
            raise NotJudged(f"{claim.variant} or sequential has fewer than 2 runs")
        k, samples = speedup_samples(source.runs.records, claim.variant, at)
        return verdicts.speedup(k, samples, float(claim.published), claim.margin,
                                runs=len(source.runs.records[claim.variant]),
                                detail=f"{claim.variant} at {at:g} s: "), f"{at:g} s"
    if claim.test == "value" or source.experiment.kind == "final":
        check_basis(claim, final_reading(claim, source))
        if claim.test == "value":
            reference = source.reference.set_index(source.reference.columns[0])
            published = float(reference.loc[claim.variant, claim.published])
            if source.finals(claim.variant).size < 2:
                raise NotJudged(f"{claim.variant} has fewer than 2 runs")
            return verdicts.value(source.finals(claim.variant), published, claim.margin, unit_scale=scale), \
                "final scores"
        pairs = [(f"{a} vs {b}", source.finals(a), source.finals(b)) for a, b in claim.pairs]
        if any(min(a.size, b.size) < 2 for _, a, b in pairs):
            raise NotJudged("a variant has fewer than 2 runs")
        return verdicts.compare(pairs, unit_scale=scale), "final scores"
    axis = "playouts" if rate else claim.axis or source.time_axis
    check_basis(claim, time_reading(axis, rate))
    if claim.test == "gain":
        last = source.last(axis, claim.variants())
        checkpoints = doubling_checkpoints(claim.start, last)
        matrix = np.array([best_at(*axis_trace(r, axis), checkpoints) for r in source.runs.records[claim.variant]])
        matrix = matrix[np.isfinite(matrix).all(axis=1)]
        if len(checkpoints) < 3 or len(matrix) < 2:
            raise NotJudged(f"needs 2 runs over 2 doublings from {claim.start:g} s; the runs end at {last:g} s")
        where = f"{len(checkpoints)} checkpoints, {checkpoints[0]:g}-{checkpoints[-1]:g} s"
        return verdicts.gain(matrix, unit_scale=scale, detail=f"{claim.variant}: "), where
    points, where = checkpoint_times(claim, source, axis, rate)
    pairs = []
    for t, positions in points:
        for a, b in claim.pairs:
            # higher is better in the kernel's unit: compare there
            a_values, b_values = source.at(a, axis, positions[a]), source.at(b, axis, positions[b])
            if np.isfinite(a_values).sum() >= 2 and np.isfinite(b_values).sum() >= 2:
                pairs.append((pair_name(a, b, t, positions, axis, rate), a_values, b_values))
    if not pairs:
        raise NotJudged("no checkpoint where both variants have 2 runs with a solution")
    return verdicts.compare(pairs, unit_scale=scale), where


def _total(claim: Claim, source: Source, scale: float) -> verdicts.Evidence:
    boards = source.boards()
    (better, worse), = claim.pairs

    def per_board(label: str) -> list[np.ndarray]:
        found = [source.runs.records.get(f"{label} board {board}", []) for board in boards]
        if not all(found):
            raise NotJudged(f"{label} has no runs on some of the boards")
        return [np.array([r["result"]["best_score"] for r in rs], dtype=float) for rs in found]

    return verdicts.total(per_board(better), per_board(worse), unit_scale=abs(scale),
                          detail=f"{better} vs {worse} over {len(boards)} boards: ")


# --- claims on the neural pipeline's stored results (experiments/neural.py) ---


def neural_columns(name: str) -> list[str]:
    from experiments.neural import step_columns

    return step_columns(NEURAL[name])


class NeuralSource:
    """A step of the neural pipeline at one scale, read from what it stored, with the runs of
    NEURAL_BASELINE beside it (``baseline``: a Source, or decide's PrefixSource). Both claims
    reports judge a claim on it: ``evidence`` (fixed n, analysis/verdicts.py) and the campaign's
    contrasts (analysis/decide.py) from ``pairs``, on the values of ``columns``.

    The evidence of each step, and its test:
      table1  the networks' correctness on the same held-out positions: paired, game by game (a
              game's positions are alike, so positions are not independent units; games are).
              A network's value for a game is its correct positions there over the mean positions
              per held-out game, so that the values' mean is its accuracy and the mean of two
              networks' differences the difference of their accuracies: verdicts.compare(paired).
      table2, table3  independent games (and NEURAL_BASELINE's runs): Welch's t on the scores.
      table4  one Expert Iteration run per row, in the paper as here: no test; not judged."""

    def __init__(self, name: str, baseline: Source, scale: str):
        from experiments.neural import results_path
        from experiments.run_file import DamagedFile, read_json

        self.name, self.step, self.baseline, self.scale = name, NEURAL[name], baseline, scale
        self.own = neural_columns(name)
        self.path = results_path(baseline.experiment.store.root, scale, self.step)
        try:
            self.results = read_json(self.path, "neural results") if self.path.is_file() else None
        except DamagedFile as damage:
            raise InputError(f"{self.path} is damaged ({damage}): delete it and run "
                             f"`make {MAKE_TARGETS[self.step]} SCALE={scale}` again") from None
        self.make = f"`make {MAKE_TARGETS[self.step]} SCALE={scale}`"

    def settings(self) -> dict:
        """The settings the stored results were made with; before they are made, the scale's
        (conf/neural_morpion.yaml) so far as they say."""
        if self.results is not None:
            return self.results["settings"]
        from experiments.neural import scale_settings

        planned = scale_settings(self.scale)
        return {"epochs": planned["train"]["epochs"], "keep": planned["data"]["keep"],
                "minutes": planned["exit"]["minutes"]}

    def gaps(self, claim: Claim) -> list[Gap]:
        """settings_gaps for a claim on this step: the pipeline's settings against the paper's
        (CHECKED's neural keys), then those of the NEURAL_BASELINE columns it reads."""
        if claim.kind != "paper":
            return []
        paper, ours = claim.paper_settings, self.settings()
        gaps = [Gap(UNSTATED, f"the paper does not state {', '.join(paper['unstated'])}")] \
            if paper.get("unstated") else []
        if "epochs" in paper and ours.get("epochs") != paper["epochs"]:
            gaps.append(Gap(NEEDS_COMPUTE, f"{ours.get('epochs')} epochs for the paper's {paper['epochs']}"))
        if "imitation_games" in paper and ours.get("imitation_games", paper["imitation_games"]) < paper["imitation_games"]:
            gaps.append(Gap(NEEDS_COMPUTE, f"{ours['imitation_games']} games imitated for the paper's "
                                           f"{paper['imitation_games']}"))
        if "keep" in paper and list(ours.get("keep", paper["keep"])) != list(paper["keep"]):
            gaps.append(Gap(NEEDS_COMPUTE, f"games scoring {ours['keep'][0]}-{ours['keep'][1]} kept for the "
                                           f"paper's {paper['keep'][0]}-{paper['keep'][1]}"))
        if "hours" in paper and ours.get("minutes", 0) / 60 < paper["hours"]:
            gaps.append(Gap(NEEDS_COMPUTE, f"{ours.get('minutes', 0) / 60:.3g} h of Expert Iteration per row for "
                                           f"the paper's {paper['hours']:g} h"))
        others = sorted(claim.variants() - set(self.own))
        if others:  # the claim as read on the baseline's columns alone (their level, N, ...)
            alone = replace(claim, pairs=tuple((label, label) for label in others), variant=None,
                            settings=tuple((key, value) for key, value in claim.settings if key != "unstated"))
            gaps += settings_gaps(alone, self.baseline)
        return gaps

    def columns(self, claim: Claim) -> dict[str, np.ndarray]:
        """The values of each column ``claim`` reads (see the class); NotJudged where the
        results or the baseline's runs are not made yet."""
        if self.results is None:
            raise NotJudged(f"the neural pipeline's {self.step} is not made at {self.scale} scale: {self.make} "
                            f"makes it ({self.path.name})")
        values = {}
        for label in sorted(claim.variants()):
            if label not in self.own:
                finals = self.baseline.finals(label) if self.baseline.runs.records.get(label) else np.zeros(0)
                if finals.size < 2:
                    raise NotJudged(f"{label} has {finals.size} runs of {NEURAL_BASELINE} at {self.scale} scale: "
                                    f"`make {NEURAL_BASELINE.replace('_', '-')} SCALE={self.scale}` makes them")
                values[label] = finals
            elif self.step == "table1":
                held = self.results["held_out"]
                counts = np.array(held["positions"])
                if not counts.size:
                    raise NotJudged(f"no held-out position in {self.path.name}: the game set is too small")
                hits = np.array([c == "1" for c in self.results["columns"][label]], dtype=float)
                # the positions come game by game, counts[i] of them for the i-th held-out game
                values[label] = np.add.reduceat(hits, np.cumsum(counts) - counts) / counts.mean()
            else:
                values[label] = np.asarray(self.results["columns"][label], dtype=float)
        return values

    def where(self) -> str:
        if self.step == "table1":
            held = self.results["held_out"]
            return f"{sum(held['positions'])} held-out positions of {len(held['games'])} games (accuracy in points)"
        return "final scores"

    @property
    def unit(self) -> float:
        """Table 1's accuracies are shares here and percentages in the paper: 100 makes the
        effect percentage points; scores are moves in both."""
        return 100.0 if self.step == "table1" else 1.0

    def pairs(self, claim: Claim) -> tuple[list, str]:
        """The claim's (name, a, b) comparisons on this step's values, and where they are read;
        the fixed-n report tests them (``evidence``), the campaign makes them contrasts
        (analysis/decide.py)."""
        if self.step == "table4":  # one run per row: nothing to test, what the runs say is shown
            ours = ("; ours: " + ", ".join(f"{label} {values[0]:g}" for label, values in
                                           sorted(self.columns(claim).items()))
                    if self.results is not None else f"; not made at {self.scale} scale: {self.make} makes it")
            raise Untestable("one run per row (Table 4: one Expert Iteration run per approach, in the paper as here): "
                            "no test tells a difference from one run's luck" + ours)
        values = self.columns(claim)
        unit = "held-out game" if self.step == "table1" else "game"
        few = sorted(f"{label} has {v.size} {unit}{'s' if v.size != 1 else ''}" for label, v in values.items()
                     if v.size < 2)
        if few:
            raise NotJudged(f"{', '.join(few)}: a test needs 2 or more")
        return [(f"{a} vs {b}", values[a], values[b]) for a, b in claim.pairs], self.where()

    def evidence(self, claim: Claim) -> tuple[verdicts.Evidence, str]:
        """The fixed-n report's evidence (analysis/verdicts.py) and where it was judged."""
        pairs, where = self.pairs(claim)
        return verdicts.compare(pairs, unit_scale=self.unit, paired=self.step == "table1"), where


def with_neural_sources(claims: list[Claim], sources: dict, scale: str) -> dict:
    """``sources`` (one per experiment, NEURAL_BASELINE's among them when a claim reads the
    neural pipeline) with a NeuralSource for each neural step the claims read."""
    neural = dict.fromkeys(claim.experiment for claim in claims if claim.experiment in NEURAL)
    return {**sources, **{name: NeuralSource(name, sources[NEURAL_BASELINE], scale) for name in neural}}


def claim_columns(claim: Claim, source: Source) -> dict:
    """The columns every claims report has for a claim: what it is, where the paper says it,
    the paper's settings, and how far the runs are from them (gaps: none, a verdict may be
    given; else the paper's settings' cost)."""
    gaps = settings_gaps(claim, source)
    # the cost of runs at the paper's settings (any kind: a transfer's at its experiment's paper scale)
    known = claim.experiment in NEURAL or claim.experiment in experiment_names()
    hours, cost, parts = paper_cost(claim, source) if known else (math.nan, "", {})
    on_reading = claim.kind == "paper" and any(gap.kind == UNSTATED for gap in gaps)
    fits = reading_cases.committed_fits().get(claim.experiment, []) if on_reading else []
    rejected = READING_REJECTED if any(map(reading_cases.rejects, fits)) else ""
    return {"paper": claim.paper, "kind": claim.kind, "claim": claim.id, "text": claim.text,
            "experiment": claim.experiment, "test": claim.test, "claim_basis": claim.basis, "unit": unit_of(source),
            "source": source_text(claim), "paper_settings": settings_text(claim),
            "reading": claim.reading, "gaps": "; ".join(gaps),
            "reading_fit": ("; ".join(map(reading_cases.fit_text, fits)) or ARGUED_ONLY) if on_reading else "",
            "why": why_not_judged(gaps) or rejected,
            "judged_on": (ON_READING if on_reading else ON_STATED) if claim.kind == "paper" else "",
            "paper_cost": cost, "paper_cost_hours": hours, "paper_cost_parts": json.dumps(parts, sort_keys=True)}


def settings_text(claim: Claim) -> str:
    return ", ".join(f"{key} {'/'.join(map(str, value)) if isinstance(value, tuple) else value}"
                     for key, value in claim.settings)


def apply_settings(table: pd.DataFrame, p_columns=("p_support", "p_contradict"), by=("kind",)) -> pd.DataFrame:
    """Holm's correction within each group of rows ``by`` (a kind is its own family: transfers
    and observations never weigh on the papers' claims; within it three: the rows at the settings
    their paper states, those on a named reading, those not run there), then each row's verdict:

      judged       supported, contradicted or inconclusive, on the stated settings or on the claim
                   file's reading of a setting the paper leaves unsaid (judged_on says which)
      NOT_RUN      no runs at the paper's settings: they need hardware or compute (why); what our
                   scaled-down runs say is kept in scaled_down_verdict, never counted as a verdict
      not judged   no run can test the claim (why: UNTESTABLE, set by the caller), or its reading
                   does not fit the paper's published baseline (READING_REJECTED)"""
    for key in p_columns:
        if key not in table:
            table[key] = np.nan
        table[f"{key}_holm"] = np.nan
    for key in ("why", "judged_on"):
        if key not in table:
            table[key] = ""
    # three families within a kind: at the stated settings, on a named reading, away from the paper's
    # settings (scaled down, never counted): a p-value of one never weighs on another's verdicts
    table["_away"] = np.where(~table["gaps"].astype(bool), "stated",
                              np.where(table["why"].fillna("").astype(bool), "away", "reading"))
    for _, rows in table.groupby([*by, "_away"], sort=False):
        for key in p_columns:
            table.loc[rows.index, f"{key}_holm"] = verdicts.holm(rows[key])
        # Holm's m: the rows of the family with a p-value (a row with no runs yet tests nothing)
        table.loc[rows.index, "family"] = max(1, int(np.isfinite(rows[p_columns[0]].astype(float)).sum()))
    table.pop("_away")
    found = [verdicts.verdict(s, c) if e is not None else ""
             for s, c, e in zip(table["p_support_holm"], table["p_contradict_holm"], table["_evidence"])]
    verdict, why, scaled_down = [], [], []
    for ours, reason in zip(found, table["why"].fillna("")):
        if reason in (UNTESTABLE, READING_REJECTED):
            verdict.append("not judged"), why.append(reason), scaled_down.append("")
        elif reason or not ours:  # hardware or compute at the paper's settings; no runs at all: compute
            verdict.append(NOT_RUN), why.append(reason or NEEDS_COMPUTE), scaled_down.append(ours)
        else:
            verdict.append(ours), why.append(""), scaled_down.append("")
    table["verdict"], table["why"], table["scaled_down_verdict"] = verdict, why, scaled_down
    table["judged_on"] = np.where(table["verdict"].isin(JUDGED), table["judged_on"].fillna(""), "")
    return table


def claims_table(claims: list[Claim], sources: dict[str, Source]) -> pd.DataFrame:
    """One row per (claim, basis) with its evidence, Holm-corrected p-values and verdict."""
    rows = []
    for claim in claims:
        source = sources[claim.experiment]
        about = claim_columns(claim, source)
        if isinstance(source, NeuralSource):  # final values: judged once, as a final-score table's claims
            try:
                evidence, where = source.evidence(claim)
            except NotJudged as reason:
                rows.append({**about, "basis": BASES[0], "evaluated_at": "-", "detail": str(reason), "_evidence": None,
                             **({"why": UNTESTABLE} if isinstance(reason, Untestable) else {})})
                continue
            rows.append({**about, "basis": BASES[0], "evaluated_at": where, "runs": evidence.runs, "runs_missing": 0,
                         "runs_starved": 0, **evidence_columns(evidence), "detail": evidence.detail,
                         "_evidence": evidence})
            continue
        if not claim.variants() <= {v.label for v in source.experiment.variants}:
            rows.append({**about, "basis": BASES[0], "evaluated_at": "-", "detail": about["gaps"], "_evidence": None})
            continue
        for basis in BASES:
            try:
                result = evaluate(claim, source, basis)
            except NotJudged as reason:
                rows.append({**about, "basis": basis, "evaluated_at": "-", "detail": str(reason), "_evidence": None})
                continue
            if result is None:
                continue
            evidence, where = result
            missing = {label: source.runs.expected[label] - len(rs) for label, rs in source.runs.records.items()
                       if len(rs) < source.runs.expected[label]}
            rows.append({**about, "basis": basis, "evaluated_at": where, "runs": evidence.runs,
                         "runs_missing": sum(missing.values()),
                         "runs_starved": sum(source.runs.starved.get(label, 0) for label in source.runs.records),
                         **evidence_columns(evidence), "detail": evidence.detail, "_evidence": evidence})
    table = apply_settings(with_evidence_columns(pd.DataFrame(rows)), by=("basis", "kind"))
    # no verdict from fewer runs than the budgeted report accepts (analysis/sequential.py): the sd of
    # a handful of runs says too little, and a smoke report's two runs a column would otherwise decide
    few = np.array([e is not None and e.runs < minimum_runs(test) for e, test in zip(table["_evidence"], table["test"])],
                   dtype=bool)
    for column in ("verdict", "scaled_down_verdict"):
        for index in table.index[table[column].isin(["supported", "contradicted"]) & few]:
            table.loc[index, column] = "inconclusive"
            table.loc[index, "detail"] = (f"{table.loc[index, 'detail']} (a verdict needs "
                                          f"{minimum_runs(table.loc[index, 'test'])} runs per column)")
    table["runs_to_decide"] = [verdicts.runs_to_decide(e, int(f)) if v == "inconclusive" else np.nan
                               for e, f, v in zip(table["_evidence"], table["family"], table["verdict"])]
    return table.drop(columns=["_evidence"])


def minimum_runs(test: str) -> int:
    """The fewest runs per column (or games) on which a report gives a verdict, as the budgeted
    report (analysis/sequential.py): one sample (a published value, a gain) needs more than pairs."""
    from analysis import sequential

    return sequential.MIN_RUNS_ONE_SAMPLE if test in ("value", "gain") else sequential.MIN_RUNS


def evidence_columns(evidence) -> dict:
    """A report row's columns from its Evidence."""
    return {key: getattr(evidence, key) for key in ("effect", "effect_low", "effect_high", "standardized",
                                                     "standardized_low", "standardized_high", "p_support",
                                                     "p_contradict", "published")}


def with_evidence_columns(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with every evidence column, NaN where a row has none (a report whose every row is
    not judged still has them)."""
    for key in ("effect", "effect_low", "effect_high", "standardized", "standardized_low", "standardized_high",
                "p_support", "p_contradict", "published", "runs"):
        if key not in table:
            table[key] = np.nan
    return table


def unit_of(source) -> str:
    """The unit of a claim's effect, in words: the paper's unit of its table (with its scale)."""
    if isinstance(source, NeuralSource):
        return "accuracy, percentage points" if source.step == "table1" else "moves (score)"
    experiment = source.experiment
    if experiment.unit:
        return experiment.unit
    if abs(experiment.value_scale) != 1:
        return f"score x {abs(experiment.value_scale):g} (the paper's unit)"
    return "score"


def effect_cells(row) -> tuple[str, str]:
    """The effect cell, "+3.1 [-47, +50]" (> 0: as claimed), and the paper's own effect of the same
    comparison beside it, saying when our interval excludes it."""
    ours = f"{row['effect']:+.4g} [{row['effect_low']:+.4g}, {row['effect_high']:+.4g}]"
    published = row.get("published", math.nan)
    if not (isinstance(published, (int, float)) and math.isfinite(published)):
        return ours, "-"
    if row["effect_low"] <= published <= row["effect_high"]:
        return ours, f"{published:+.4g} (inside ours)"
    return ours, f"{published:+.4g}: not reproduced, ours {ours}"


def source_text(claim: Claim) -> str:
    """The source cell: where, the quote, and the published numbers the claim reads."""
    return f"{claim.where}: \"{claim.quote}\"" + (f" ({claim.figures})" if claim.figures else "")


def not_tested_lines(sentences: list[NotTested]) -> list[str]:
    """The report's last section: the papers' comparative sentences no claim tests
    (load_not_tested), with why."""
    if not sentences:
        return []
    lines = ["## Sentences not tested here", "",
             f"{len(sentences)} comparative sentences of the papers that no claim above tests, each with the reason "
             "(the claim files' `not_tested:` lists): not forgotten, but out of what runs here can judge.", "",
             "| paper | where | the paper's words | why not tested |", "|---|---|---|---|"]
    lines += [f"| {sentence.paper} | {sentence.where} | \"{sentence.quote}\" | {sentence.why} |"
              for sentence in sentences]
    return lines + [""]


KIND_SECTIONS = {
    "paper": ("The papers' claims", "Each in the paper's own words (its details quote it). A claim is judged on the "
              "settings its paper states or, where the paper leaves one unsaid, on the reading its claim file names "
              "(the row says \"on a named reading\" and its details name the reading and what it rests on); a claim "
              "whose runs at the paper's settings need hardware or compute this machine lacks is \"not run\", with "
              "what our scaled-down runs say beside it (never counted) and the cost of the runs that would judge it."),
    "transfer": ("Transfers (not the papers' claims)", "A paper's claim carried to another domain or algorithm: what "
                 "they say of the paper is only that its finding does (or does not) carry over."),
    "observation": ("Observations (the harness's own, not the papers')", "Statements of this harness about its runs."),
}
VERDICTS = ("supported", "contradicted", "inconclusive", NOT_RUN, "not judged")
JUDGED = VERDICTS[:3]


def counts_line(rows: pd.DataFrame, cpu_hours: float | None = None) -> str:
    """"3 supported (1 on a named reading), 1 contradicted (0), 2 inconclusive (2), 5 not run (1
    needs hardware, 4 needs compute), 1 not judged" for the rows of one kind (and the CPU behind
    them)."""
    counts = rows["verdict"].value_counts()
    reading = rows.loc[rows["judged_on"] == ON_READING, "verdict"].value_counts()
    why = rows.loc[rows["verdict"] == NOT_RUN, "why"].value_counts()
    unjudged = rows.loc[rows["verdict"] == "not judged", "why"].value_counts()
    text = ", ".join(f"{counts.get(v, 0)} {v}" + (f" ({reading.get(v, 0)} on a named reading)" if len(reading) else "")
                     for v in JUDGED)
    text += (f", {counts.get(NOT_RUN, 0)} not run at the paper's settings ({why.get(NEEDS_HARDWARE, 0)} "
             f"{NEEDS_HARDWARE}, {why.get(NEEDS_COMPUTE, 0)} {NEEDS_COMPUTE}), {counts.get('not judged', 0)} not judged "
             f"({unjudged.get(UNTESTABLE, 0)} {UNTESTABLE}, {unjudged.get(READING_REJECTED, 0)}: {READING_REJECTED})")
    return text + (f"; the runs behind them hold {cpu_hours:.2f} CPU-h" if cpu_hours is not None else "")


def verdict_text(row) -> str:
    """A row's verdict in a few words: "supported", "supported on a named reading", "not run: needs
    compute", "not judged: no run can test it"."""
    if row["verdict"] in JUDGED:
        return row["verdict"] + (" on a named reading" if row.get("judged_on") == ON_READING else "")
    return f"{row['verdict']}: {row['why']}" if row.get("why") else row["verdict"]


def claim_cells(row) -> tuple[str, str]:
    """The verdict cell and the "what it rests on / what would judge it" cell of a row: for a
    verdict on a named reading, the reading; for a row not run at the paper's settings, what our
    scaled-down runs say and the cost of runs at the paper's settings."""
    if row["verdict"] in JUDGED:
        reading = f"on the reading \"{row['reading']}\" ({row['gaps']})" if row.get("judged_on") == ON_READING else ""
        return f"**{verdict_text(row)}**", reading
    if row["verdict"] != NOT_RUN:
        return verdict_text(row), ""
    scaled = row.get("scaled_down_verdict")
    ours = f"ours, scaled down: {scaled} ({row['gaps']}); " if isinstance(scaled, str) and scaled else ""
    return verdict_text(row), f"{ours}at the paper's settings: {row.get('paper_cost') or 'the runs as the paper states them'}"


def item_of(source: str) -> str:
    """The tables and figures a claim's source names ("Section 4, Figure 6, Table 4: ..." ->
    "Figure 6, Table 4"), or "-"."""
    where = str(source).split(":")[0]
    return ", ".join(dict.fromkeys(re.findall(r"(?:Table|Figure) \d+", where))) or "-"


def claim_anchor(claim: str, basis: str = "") -> str:
    """A claim's details anchor in a report ("claim-<id>", and its basis where a report has a row per basis)."""
    return "claim-" + re.sub(r"[^a-z0-9]+", "-", f"{claim} {basis}".strip().lower()).strip("-")


def effect_short(row) -> tuple[str, str]:
    """The paper's effect and ours [95% CI] for the main table ("-" where there is none)."""
    if row["evaluated_at"] == "-" or not np.isfinite(row.get("effect", np.nan)):
        return "-", "-"
    published = row.get("published", np.nan)
    paper = f"{published:+.4g}" if isinstance(published, float) and np.isfinite(published) else "-"
    return paper, f"{row['effect']:+.4g} [{row['effect_low']:+.4g}, {row['effect_high']:+.4g}]"


def detail_lines(row) -> list[str]:
    """A claim's details: every field the main table leaves out."""
    verdict, rests = claim_cells(row)
    effect, published = effect_cells(row) if row["evaluated_at"] != "-" and np.isfinite(row.get("effect", np.nan)) \
        else ("-", "-")
    anchor = claim_anchor(row["claim"], row.get("basis_anchor", ""))
    lines = [f'<a id="{anchor}"></a>', "", f"#### {row['claim']}: {row['text']}", "",
             f"- Source: {row['source']}",
             f"- The paper's settings: {row['paper_settings'] or '-'}; its basis: {row['claim_basis']}; the runs read at: "
             f"{row['basis']}, {row['evaluated_at']}.",
             f"- Verdict: {verdict}" + (f", {rests}" if rests else "") + "."]
    if effect != "-":
        lines.append(f"- Effect (> 0: as claimed; {row['unit']}): {effect}; the paper's: {published}; p support / "
                     f"contradict, Holm-corrected over {row['family']:.0f} claims: {row['p_support_holm']:.2g} / "
                     f"{row['p_contradict_holm']:.2g}; decided by: {row['detail']}.")
    elif row["detail"]:
        lines.append(f"- Why no effect: {row['detail']}.")
    cpu = row.get("cpu_hours", math.nan)
    to_decide = row.get("to_decide") if isinstance(row.get("to_decide"), str) else ""
    if isinstance(row.get("reading_fit"), str) and row["reading_fit"]:
        lines.append(f"- The reading's fit to the paper's published baseline: {row['reading_fit']}.")
    lines.append(f"- Runs per column: {row['runs']}" + (f"; CPU behind them {cpu:.2f} h" if cpu == cpu else "")
                 + (f"; to decide: {to_decide}" if to_decide else "") + ".")
    return lines + [""]


def claims_sections(table: pd.DataFrame, per_basis: bool = False) -> list[str]:
    """The claims reports' body: per kind and paper, one short line per claim (its item, verdict,
    the paper's effect and ours, runs), each linked to its details below, where every other field
    is. ``per_basis``: the fixed-n report, with a row per basis a claim is judged on."""
    table = table.assign(item=[item_of(source) for source in table["source"]])
    if per_basis:
        table = table.assign(basis_anchor=table["basis"])
    lines = []
    for kind, (title, about) in KIND_SECTIONS.items():
        rows = table[table["kind"] == kind]
        if not len(rows):
            continue
        lines += [f"## {title}", "", about, ""]
        for paper, group in rows.groupby("paper", sort=False):
            basis = "basis | " if per_basis else ""
            lines += [f"### {paper}", "", f"| claim | item | {basis}verdict | the paper's effect | "
                      "ours [95% CI, this comparison] | runs per column |",
                      "|---|---|" + "---|" * (bool(per_basis)) + "---|---|---|---|"]
            for _, row in group.iterrows():
                paper_effect, ours = effect_short(row)
                anchor = claim_anchor(row["claim"], row.get("basis_anchor", ""))
                cell = f"{row['basis']} | " if per_basis else ""
                lines.append(f"| [{row['text']}](#{anchor}) | {row['item']} | {cell}{verdict_text(row)} | "
                             f"{paper_effect} | {ours} | {row['runs'] if row['runs'] == row['runs'] else '-'} |")
            lines.append("")
    lines += ["## Details", "", "Each claim: its source, the paper's settings and basis, the reading it rests on, the "
              "effect with its p-values, and what would decide it.", ""]
    for _, row in table.iterrows():
        lines += detail_lines(row)
    return lines


def markdown(table: pd.DataFrame, scale: str, sources: dict[str, Source], files: list[str] | None = None) -> str:
    sources = {name: source for name, source in sources.items() if isinstance(source, Source)}  # runs, not results
    lines = [f"# Claims report ({scale} scale)", "",
             "Each claim, tested on this harness's runs at the published time and at matched time "
             "(each column at t x R x rho playouts: R the published runs' rate, rho the column's playouts per "
             "CPU-second over the baseline's on this engine, both stated in each experiment's config, "
             "report.published_rate), and only on a reading of the comparison its paper makes (the basis column). "
             "p-values are Holm-corrected across the claims of each kind and evaluation; a verdict needs p < 0.05, "
             "and a paper's claim gets one where the runs match the settings its file states, or a named reading "
             "of those the paper leaves unsaid (the row says which); elsewhere it is not run. The effect is the difference in the claimed direction (> 0: as claimed) in the paper's unit, "
             "with its 95% CI: for a value claim our mean minus the published one, for a gain claim the mean gain per "
             "doubling. Tests: analysis/verdicts.py; claims: analysis/claims/*.yaml.", ""]
    for kind, (title, _) in KIND_SECTIONS.items():
        for basis in BASES:
            rows = table[(table["kind"] == kind) & (table["basis"] == basis)]
            if len(rows):
                lines.append(f"- {title}, at {basis}: {counts_line(rows)}.")
    missing = {name: sum(source.runs.expected[label] - len(rs) for label, rs in source.runs.records.items())
               for name, source in sources.items()}
    if any(missing.values()):
        lines.append(f"- WARNING: runs missing ({', '.join(f'{k}: {v}' for k, v in missing.items() if v)}): "
                     f"run `make claims SCALE={scale}` again.")
    starved = [f"{name} {label}: {n}" for name, source in sources.items() for label, n in source.runs.starved.items()
               if n]
    if starved:
        lines.append(f"- Runs set aside as starved, other processes having taken their cores (experiments/machine.py;"
                     f" not counted, so among those missing): {'; '.join(starved)}.")
    lines += ["", *in_short(table), "", *claims_sections(table, per_basis=True)]
    lines += not_tested_lines(load_not_tested(files=files))
    return "\n".join(lines) + "\n"


def in_short(table: pd.DataFrame) -> list[str]:
    """The verdicts in plain words: which of the papers' claims our runs contradict (on the stated
    settings or a named reading), then one row per claim with its verdict on each basis (the
    details follow in the kinds' sections)."""
    verdict_of = {(row["claim"], row["basis"]): verdict_text(row) for _, row in table.iterrows()}
    texts = dict(zip(table["claim"], table["text"]))
    kinds = dict(zip(table["claim"], table["kind"]))
    contradicted = [(claim, [basis for basis in BASES if str(verdict_of.get((claim, basis))).startswith("contradicted")])
                    for claim in texts if kinds[claim] == "paper"]
    contradicted = [(claim, bases) for claim, bases in contradicted if bases]
    lines = ["## In short", ""]
    if contradicted:
        lines.append("Our runs **contradict** these claims of the papers, on their stated settings or a named reading "
                     "(the opposite holds at p < 0.05, Holm-corrected; the table below says which):")
        # the basis is worth naming only for a claim judged on both
        lines += [f"- {texts[claim]}" + (f" (at {' and at '.join(bases)})" if (claim, BASES[1]) in verdict_of else "")
                  for claim, bases in contradicted]
    else:
        lines.append("Our runs contradict none of the papers' claims.")
    lines += ["", f"| claim | kind | at {BASES[0]} | at {BASES[1]} |", "|---|---|---|---|"]
    lines += [f"| {text} | {kinds[claim]} | {verdict_of.get((claim, BASES[0]), 'n/a')} | "
              f"{verdict_of.get((claim, BASES[1]), 'n/a')} |" for claim, text in texts.items()]
    lines += ["", "n/a: the claim is not on a published CPU-time table (a figure without published numbers, "
              "final scores or playouts): there is no published work to match, or it is matched already."]
    return lines


VERDICT_COLOURS = {"supported": "tab:green", "contradicted": "tab:red", "inconclusive": "0.45"}


def plot_effects(table: pd.DataFrame, ax) -> list[str]:
    """One row per claim with a verdict, grouped by paper: our effect in the claimed direction
    with its 95% interval (a confidence sequence under a budget), standardized (difference / SD
    of the runs; a gain claim's log2 late / early gain), filled when judged on the stated
    settings and hollow on a named reading, coloured by verdict, and the paper's own effect of
    the same comparison on the same scale (a black cross) where it publishes one. A claim judged
    on two bases is drawn at matched time. Returns the claims left out (no verdict), for the
    caller to list in words."""
    rows = table[table["verdict"].isin(JUDGED) & table["standardized"].notna()]
    if "basis" in rows and rows["claim"].duplicated().any():  # the fixed-n report: matched time first
        rows = rows.sort_values("basis", key=lambda b: b.astype(str).str.contains("matched").map({True: 0, False: 1}))
        rows = rows.drop_duplicates("claim")
    rows = rows.assign(_paper=pd.Categorical(rows["paper"], categories=list(dict.fromkeys(table["paper"]))))
    rows = rows.sort_values(["_paper"], kind="stable")
    labels, y = [], 0
    for paper, group in rows.groupby("_paper", sort=False, observed=True):
        for _, row in group.iloc[::-1].iterrows():
            colour = VERDICT_COLOURS[row["verdict"]]
            low, high = row["standardized_low"], row["standardized_high"]
            if np.isfinite(low) and np.isfinite(high):
                ax.plot([low, high], [y, y], color=colour, linewidth=1.5)
            filled = row.get("judged_on") != ON_READING
            ax.plot([row["standardized"]], [y], marker="o", color=colour, markerfacecolor=colour if filled else "white")
            published, effect = row.get("published", np.nan), row["effect"]
            if row["test"] != "gain" and np.isfinite(published) and np.isfinite(effect) and effect != 0:
                ax.plot([published * row["standardized"] / effect], [y], marker="x", color="black", linestyle="none")
            labels.append(f"{row['claim']}" + (" [log2 late/early gain]" if row["test"] == "gain" else ""))
            y += 1
        ax.axhline(y - 0.5, color="0.8", linewidth=0.6)
        ax.text(1.01, y - 0.6, str(paper).split(" (")[0], transform=ax.get_yaxis_transform(), fontsize="x-small",
                va="top", color="0.3")
    ax.set_yticks(range(len(labels)), labels=labels, fontsize="small")
    ax.set_ylim(-0.7, max(len(labels), 1) - 0.3)
    ax.axvline(0, color="0.3", linewidth=0.8)
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlabel("effect in the claimed direction / SD of our runs (> 0: as claimed), with its 95% interval")
    for verdict, colour in VERDICT_COLOURS.items():
        ax.plot([], [], color=colour, marker="o", label=verdict)
    ax.plot([], [], color="0.3", marker="o", markerfacecolor="white", linestyle="none", label="on a named reading")
    ax.plot([], [], color="black", marker="x", linestyle="none", label="the paper's effect")
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=5)
    ax.grid(True, axis="x", alpha=0.3)
    return sorted(set(table["claim"]) - set(rows["claim"]))


def claims_report(overrides: list[str], claims: list[Claim] | None = None, files: list[str] | None = None,
                  experiments: dict[str, Experiment] | None = None) -> list[Path]:
    """Write outputs/claims/claims_<scale>.{md,csv,png,pdf} (claims_<scale>_<files>.* for the
    claims of some files only); return their paths. ``overrides``: scale=S and any other
    override of the experiments (outputs_dir=...); ``experiments``: those load_experiments
    composed from them already (a second composition costs about a second each)."""
    claims = load_claims(files=files) if claims is None else claims
    experiments = load_experiments(claims, overrides) if experiments is None else experiments
    claims = [resolve(claim, experiments[experiment_of(claim)]) for claim in claims]
    sources = {name: Source(experiment, collect(experiment)) for name, experiment in experiments.items()}
    first = next(iter(sources.values())).experiment
    scale = first.scale
    empty = [name for name, source in sources.items() if not any(source.runs.records.values())]
    if empty:
        raise InputError(f"no runs of {', '.join(empty)} at scale {scale}: run `make claims SCALE={scale}` "
                         "(it runs what is missing first)")
    sources = with_neural_sources(claims, sources, scale)
    table = claims_table(claims, sources)
    folder = first.store.root / "claims"
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / "_".join(["claims", scale, *(files or [])])
    table.to_csv(stem.with_suffix(".csv"), index=False)
    stem.with_suffix(".md").write_text(markdown(table, scale, sources, files))
    figure, ax = new_figure()
    figure.set_size_inches(9, 0.3 * table[table["verdict"].isin(JUDGED)]["claim"].nunique() + 1.8)
    plot_effects(table, ax)
    ax.set_title(f"Claims ({scale} scale): the claims with a verdict, ours beside the paper's effect", fontsize="medium")
    return [stem.with_suffix(".csv"), stem.with_suffix(".md"), *save_figure(figure, stem)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("overrides", nargs="+", help="scale=S (paper, quick, smoke) and any other overrides")
    parser.add_argument("--experiments", action="store_true",
                        help="check the claim files and print the experiments they use, one a line")
    parser.add_argument("--files", nargs="+", metavar="NAME",
                        help="only the claims of analysis/claims/NAME.yaml, e.g. --files gnrpa gnrpa_lr")
    arguments = parser.parse_args(argv)
    if arguments.experiments:  # the experiments' names, printed as the paths of a report are
        return print_outputs(lambda: list(load_experiments(load_claims(files=arguments.files), arguments.overrides)))
    return print_outputs(lambda: claims_report(arguments.overrides, files=arguments.files))


if __name__ == "__main__":
    sys.exit(main())
