"""The runs behind a claim against the settings its paper states: where they differ
(settings_gaps: each Gap with what would close it, hardware, compute, or the claim file's reading
of a setting the paper leaves unsaid), and what runs at the paper's settings would take
(paper_cost: CPU-hours, in words with the command that makes them, by search).
"""

from __future__ import annotations

import collections
import functools
import hashlib
import json
import math
import os
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pandas as pd

from analysis.claims.files import MAKE_TARGETS, NEURAL, Claim, claim_variants, resolve
from analysis.claims.sources import NeuralSource, Source
from analysis.results.report import variant_key
from experiments.experiment import Experiment, load_experiment
from experiments.runs import game_count


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
        return neural_gaps(claim, source)
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


def neural_gaps(claim: Claim, source: NeuralSource) -> list[Gap]:
    """settings_gaps for a claim on a step of the neural pipeline: the pipeline's settings against
    the paper's (CHECKED's neural keys), then those of the NEURAL_BASELINE columns it reads."""
    if claim.kind != "paper":
        return []
    paper, ours = claim.paper_settings, source.settings()
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
    others = sorted(claim.variants() - set(source.own))
    if others:  # the claim as read on the baseline's columns alone (their level, N, ...)
        alone = replace(claim, pairs=tuple((label, label) for label in others), variant=None,
                        settings=tuple((key, value) for key, value in claim.settings if key != "unstated"))
        gaps += settings_gaps(alone, source.baseline)
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


# The campaign's table whose archived runs give a complete SameGame search's rate where the claim's own
# experiment holds no run of its family: board 1, level 4, N = 100, NRPA and SNRPA(P) for P = 2..7, 10
RATES_FROM = "stabilized_table4"


@functools.lru_cache(maxsize=None)
def measured_rates(outputs_dir: str) -> dict[tuple[str, int], float]:
    """(algorithm, P) -> the median playouts per CPU-second of RATES_FROM's runs at paper scale and
    matched time in the store at ``outputs_dir`` and the archive."""
    from analysis.results.report import collect

    experiment = load_experiment([f"experiment={RATES_FROM}", "scale=paper", "matched_work=true",
                                  f"outputs_dir={outputs_dir}"])
    found = collections.defaultdict(list)
    for records in collect(experiment).records.values():
        for record in records:
            settings = record["settings"]
            found[(settings["algorithm"], int(settings.get("P", 1)))].append(
                record["result"]["playouts"] / max(record["result"]["cpu_seconds"], 1e-9))
    return {key: float(np.median(rates)) for key, rates in found.items()}


def paper_cost(claim: Claim, source: Source) -> tuple[float, str, dict]:
    """What runs at the paper's settings take: CPU-hours on one core (all the cores a run holds,
    added up; NaN where unknown), in words with the command that makes them, and by part
    ({"column (its search's hash)": CPU-seconds}: claims that read the same search, in one
    experiment or two, share its cost, which a total counts once, parts_once). Each column
    is priced at its own settings: its threads and jobs at scale=paper (at most the paper's
    cores), the paper's seconds, or for a complete search its measured (or N^level x P playouts')
    cost; a complete search with no stored run to
    read a cost off is estimated: an NRPA or SNRPA one at N^level x P playouts at the rate of the
    experiment's stored NRPA-family runs, or where it holds none (the 20-board tables) and the domain
    is SameGame, at the measured rate of the same algorithm and P on board 1 (measured_rates);
    another (NMCS, SP-MCTS) at the paper-scale config's time budget (the papers' 2 hours a board, a
    placeholder), and the text says which."""
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
            elif (not math.isfinite(cost) and settings.algorithm in ("nrpa", "snrpa") and variant.job.domain_options.name == "samegame"
                  and isinstance(source, Source)):
                measured = measured_rates(str(source.experiment.store.root)).get((settings.algorithm, settings.P))
                if measured:
                    cost = settings.N ** settings.level * settings.P / measured
                    what = (f"complete searches, estimated: N^level x P playouts at the median rate of the archive's "
                            f"{RATES_FROM} runs of the same algorithm and P (SameGame board 1)")
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
