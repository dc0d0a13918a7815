"""What ``python run.py ...`` does with a composed config: one job, its runs stored."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import numpy as np
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from experiments.config import published_rate_of, starved_rule
from experiments.machine import BusyMachine
from experiments.root_parallel import group_root_runs
from experiments.runs import Job, game_scores
from experiments.store import RunStore
from experiments.valid_runs import read_and_judge
from experiments.workers import run_job
from nrpa.bias import bias_for
from nrpa.domains.registry import make_domain
from nrpa.errors import InputError
from nrpa.search import SearchSettings, check_bias, label


def settings_from(cfg: DictConfig) -> SearchSettings:
    return SearchSettings(**{f.name: cfg[f.name] for f in fields(SearchSettings)})


def job_from(cfg: DictConfig, column: str | None = None) -> Job:
    """The job a composed config describes; every option is validated here. ``column``: the
    published table's column it is (report.columns), which sets a matched_work budget."""
    if cfg.root < 1:
        raise InputError(f"root={cfg.root} is out of range: it must be >= 1 (K independent searches)")
    settings = settings_from(cfg)
    domain = make_domain(OmegaConf.to_container(cfg.domain, resolve=True))
    check_bias(settings, bias_for(domain))  # GNRPA's bias (a bias file read), checked before any work
    if cfg.matched_work:
        settings = replace(settings, max_time=None, max_playouts=matched_budget(cfg, column))
    if cfg.games < 1:
        raise InputError(f"games={cfg.games} is out of range: it must be >= 1 (independent searches per run)")
    if cfg.games > 1 and (cfg.root > 1 or cfg.parallel != "none"):
        other = f"root={cfg.root}" if cfg.root > 1 else f"parallel={cfg.parallel}"
        raise InputError(f"games={cfg.games} plays sequential searches one after the other: it does not take "
                         f"{other} (leave games=1)")
    return Job(domain.options, settings, games=cfg.games)


def matched_budget(cfg: DictConfig, column: str | None) -> int:
    """matched_work=true: a playout budget that holds ``max_time`` published seconds of the
    column's work, t x R x rho(column), and of a baseline column's, t x R (PublishedRate.budget:
    the reports read matched time and equal playouts off the same run). The run then has no
    time budget: the same run id makes the same run on any machine."""
    rate = published_rate_of(cfg.report)
    if rate is None:
        raise InputError("matched_work=true needs an experiment with a published time table and its "
                         "published runs' rate (report.published_rate in conf/experiment/NAME.yaml): "
                         "add experiment=NAME")
    if cfg.max_time is None:
        raise InputError("matched_work=true runs max_time published seconds as max_time x R x rho playouts: "
                         "set max_time")
    if cfg.max_playouts is not None:
        raise InputError(f"matched_work=true sets the playout budget (max_time x R x rho); drop max_playouts="
                         f"{cfg.max_playouts}")
    known = [*rate.fit_on, *(name for name, _ in rate.relative)]
    if column not in known:
        raise InputError(f"matched_work=true on {column or 'a column'} of {cfg.report.name}: only its columns "
                         f"with a measured rho ({', '.join(known)}) have a matched budget; measure another's with "
                         f"`python -m experiments.rates experiment={cfg.report.name}`, or run equal CPU time with "
                         "matched_work=false (at scale=paper a time table runs matched time unless told so)")
    return rate.budget(cfg.max_time, column)


def column_of(columns: dict, chosen) -> str | None:
    """The published column whose overrides (a key like "domain.parts=6 playout=ws_rule") are all
    among ``chosen`` (a run's or a variant's overrides); None when none is."""
    return next((name for key, name in columns.items() if set(str(key).split()) <= set(chosen)), None)


def run_from_config(cfg: DictConfig) -> float:
    columns = OmegaConf.to_container(cfg.report.columns) if cfg.report is not None and cfg.report.get("columns") else {}
    job = job_from(cfg, column_of(columns, HydraConfig.get().overrides.task))
    rule = starved_rule(cfg)
    store = RunStore(cfg.outputs_dir)
    text = label(job.settings)
    if getattr(job.domain_options, "policy", None):
        text += f", {job.domain_options.policy} playouts"
    if getattr(job.domain_options, "bias", "none") != "none":
        text += f", bias {job.domain_options.bias}"
    if cfg.root > 1:
        text += f", root x{cfg.root}"
    outcome = run_job(job, cfg.repeats * cfg.root, store, rule=rule, n_jobs=cfg.backend.n_jobs,
                      backend=cfg.backend.name, address=cfg.backend.address, force=cfg.force, label=text,
                      tls=cfg.backend.tls, insecure=cfg.backend.insecure)
    _record_in_job_directory(outcome.paths)
    records = [run.record for run in read_and_judge(store, outcome.paths, rule) if run.record is not None]
    if cfg.root > 1:
        records = group_root_runs(records, cfg.root)
    starved = (f"; {outcome.starved} set aside as starved (other processes took their cores): run the command "
               "again to make them" if outcome.starved else "")
    if not records:
        raise BusyMachine(f"no run to report: {outcome.starved} run(s) made and set aside as starved (other processes "
                          "took their cores); run the command again on a quieter machine")
    scores = np.array([record["result"]["best_score"] for record in records])
    done = f"{outcome.ran} run(s) made, {outcome.found} already in the store{starved}"
    if len(records) == 1 and cfg.root == 1:
        result = records[0]["result"]
        print(
            f"best score {result['best_score']:g}  ({records[0]['domain_info']['instance']}, "
            f"{text}, {result['playouts']} playouts in {result['cpu_seconds']:.2f} CPU-s "
            f"/ {result['wall_seconds']:.2f} wall-s, {result['playouts_per_cpu_second']:,.0f} playouts per CPU-s)"
        )
        print(f"run file: {outcome.paths[0]} ({done})")
    else:
        print(f"{text} on {records[0]['domain_info']['instance']}: {len(scores)} runs, "
              f"best score mean {scores.mean():.1f}, min {scores.min():g}, max {scores.max():g} ({done})")
        print(f"run files: {outcome.paths[0].parent} (listed in the job directory's runs.txt)")
    if cfg.games > 1:
        games = np.array([score for record in records for score in game_scores(record)])
        print(f"{len(games)} games ({cfg.games} a run): mean {games.mean():.2f} (standard error "
              f"{games.std(ddof=1) / np.sqrt(len(games)) if len(games) > 1 else float('nan'):.2g}), "
              f"min {games.min():g}, max {games.max():g}")
    return float(scores.mean())


def _record_in_job_directory(paths) -> None:
    """List the job's run files beside Hydra's record of its config."""
    if HydraConfig.initialized():
        listing = Path(HydraConfig.get().runtime.output_dir) / "runs.txt"
        listing.write_text("".join(f"{path}\n" for path in paths))
