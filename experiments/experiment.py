"""A named experiment (a paper's table or figure) as the jobs it is made of.

``python run.py -m experiment=NAME scale=S`` runs it: Hydra sweeps the parameters listed
under ``hydra.sweeper.params`` in conf/experiment/NAME.yaml. The functions here compose
the same configurations through Hydra's compose API, so the cost estimate and the report
see exactly the jobs, and therefore the run files, that the sweep makes.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass
from pathlib import Path

from hydra import compose, initialize_config_dir
from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.errors import HydraException, MissingConfigException
from omegaconf import OmegaConf, open_dict

from experiments.experiment_targets import experiment_names
from experiments.cli import column_of, job_from
from experiments.config import (PublishedRate, check_override_keys, published_rate_of, register_configs,
                                starved_rule, targets_of)
from experiments.dask_security import cluster_security
from experiments.machine import StarvedRule
from experiments.runs import Job
from experiments.store import PROJECT_ROOT, RunStore
from nrpa.errors import InputError, did_you_mean
from nrpa.search import label

CONFIG_DIR = PROJECT_ROOT / "conf"


@dataclass(frozen=True)
class Variant:
    label: str  # the paper's column name, or the variant's overrides
    overrides: tuple[str, ...]  # what the sweep sets for this variant, e.g. ("P=2",)
    job: Job
    repeats: int
    root: int = 1  # K > 1: each run is the best of K member runs of the job (experiments.root_parallel)


@dataclass(frozen=True)
class Experiment:
    name: str
    kind: str  # "checkpoints" (score vs time tables) or "boards" (best score per board)
    scale: str
    title: str
    report_source: str  # "paper, table"
    reference: str | None  # file name under analysis/reference/
    value_scale: float  # scores are multiplied by it in tables (the paper's unit)
    unit: str | None  # what the tables' values are, when not the domain's plain score
    baseline: str | None  # speed-up tables: the label of the sequential variant
    variants: tuple[Variant, ...]
    store: RunStore
    backend: dict  # where its runs go: run_runs' backend, address, n_jobs (worker processes; None: one per core), tls, insecure
    published_rate: PublishedRate | None = None  # R of a published time table (report.published_rate)
    matched_work: bool = False  # budgets in playouts: max_time x R
    targets: tuple[float, ...] | None = None  # report.targets: the fixed-target view's scores (table unit)
    # its budgets per scale are its own (scale_budgets), not the scale file's, and its paper ones
    # need a cluster (the claims then read its quick runs: analysis/claims/campaign.py)
    own_budgets: bool = False
    force: bool = False  # force=true: its runs are made again even where the store holds them
    # what makes one of its wall-clock runs starved, not counted (conf/config.yaml's starved section;
    # experiments/valid_runs.py judges each record read by it)
    starved_rule: StarvedRule = StarvedRule()
    notes: tuple[str, ...] = ()  # said under its reports' heading (a sweep's differences from the experiment beside it)
    command: str | None = None  # the command that makes it, where not its make target (a sweep's run.py -m)
    # report.same_search_also: other settings of our engine that the engines page compares with the
    # C++ reference playout for playout too, each (label, why, overrides) (analysis/claims/same_search.py)
    same_search_also: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    @property
    def make_command(self) -> str:
        """The command that makes its runs and report."""
        matched = " ARGS=matched_work=true" if self.matched_work else ""
        return self.command or f"make {self.name.replace('_', '-')} SCALE={self.scale}{matched}"

    @property
    def output_name(self) -> str:
        """The stem of its tables and figures: <name>_<scale>, and _work for matched_work runs."""
        return f"{self.name}_{self.scale}" + ("_work" if self.matched_work else "")

    def run_paths(self, variant: Variant) -> list[Path]:
        """The run files of a variant: the member runs of its root runs when root > 1."""
        return [variant.job.run_path(self.store, r) for r in range(variant.repeats * variant.root)]


def load_experiment(overrides: list[str], default_report: dict | None = None,
                    settings_of: str | None = None) -> Experiment:
    """The experiment that ``python run.py -m <overrides>`` would run. ``default_report``: the
    report section of a sweep without experiment= (experiments/sweep.py), else InputError.
    ``settings_of``: an experiment whose settings (domain, instance, playout rule, level, N,
    budgets...) the sweep's columns start from, the command's overrides on top; the sweep keeps
    its own columns (not the experiment's swept ones) and ``default_report``."""
    register_configs()
    fixed, swept = _split_sweeps(overrides)
    if settings_of is not None:
        fixed = [f"experiment={settings_of}", *fixed]
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        base = _compose(fixed)
        plain = _without_hydra(base)  # what _compose(fixed, hydra=False) gives, without composing again
        own_report = base.report is not None and settings_of is None
        spec = base.report if own_report or default_report is None else OmegaConf.create(default_report)
        if spec is None:
            raise InputError(
                f"no experiment given: add experiment=NAME, one of {', '.join(experiment_names())}"
            )
        # resolved, as Hydra's sweeper resolves them: a swept value may depend on the scale
        # (distributed_fig4.yaml's threads, spmcts_speedup's columns); a sweep drawn beside an
        # experiment sweeps its own keys only
        params_config = base.hydra.sweeper.params if settings_of is None else None
        configured = OmegaConf.to_container(params_config, resolve=True) if params_config else {}
        # a key the command line sets, swept or not (P=1), replaces the file's sweep of it, as in Hydra
        given = {override.split("=", 1)[0].lstrip("+~") for override in fixed} | set(swept)
        params = {**{key: str(values).split(",") for key, values in configured.items() if key not in given}, **swept}
        keys = list(params)
        grid = [params[key] for key in keys]
        # a sweep beside an experiment names a column that is one of the experiment's by its name
        named_by = base.report if settings_of is not None else spec
        columns = OmegaConf.to_container(named_by.columns) if named_by.get("columns") else {}
        variants = []
        composed = {(): plain}  # the config of each choice of config groups, composed once
        for values in itertools.product(*grid):
            chosen = tuple(f"{key}={value.strip()}" for key, value in zip(keys, values))
            cfg = _variant_config(fixed, chosen, composed)
            job = job_from(cfg, column_of(columns, (*fixed, *chosen)))
            variants.append(Variant(_label(columns, (*fixed, *chosen), chosen, job), chosen, job, cfg.repeats, cfg.root))
    rate = published_rate_of(spec)
    unknown = sorted(set(rate.fit_on) - set(columns.values())) if rate else []
    if unknown:
        raise InputError(f"conf/experiment/{spec.name}.yaml: report.published_rate.fit_on names {unknown}, "
                         "not columns of the table: "
                         + did_you_mean(unknown[0], sorted(columns.values()), "choose among"))
    rule = starved_rule(plain)  # InputError for a value out of range, before the store is made
    store = RunStore(plain.outputs_dir)
    store.check()
    return Experiment(
        name=spec.name,
        kind=spec.get("kind", "checkpoints"),
        scale=base.scale_name,
        title=spec.title,
        report_source=f"{spec.get('paper', '?')}, {spec.get('table', '?')}",
        reference=spec.get("reference"),
        value_scale=float(spec.get("value_scale", 1.0)),
        unit=spec.get("unit"),
        baseline=spec.get("baseline"),
        variants=tuple(variants),
        store=store,
        backend={"backend": plain.backend.name, "address": plain.backend.address, "n_jobs": plain.backend.n_jobs,
                 "tls": OmegaConf.to_container(plain.backend.tls), "insecure": plain.backend.insecure},
        published_rate=rate,
        matched_work=bool(plain.matched_work),
        targets=targets_of(spec),
        own_budgets=plain.scale_budgets is not None and not spec.get("paper_budgets_on_one_core", False),
        force=bool(plain.force),
        starved_rule=rule,
        same_search_also=same_search_also_of(spec),
    )


def same_search_also_of(spec) -> tuple:
    """report.same_search_also: a list of {label, why, overrides}; InputError naming what is wrong."""
    found = []
    for entry in spec.get("same_search_also") or ():
        entry = OmegaConf.to_container(entry) if OmegaConf.is_config(entry) else entry
        if (not isinstance(entry, dict) or set(entry) != {"label", "why", "overrides"}
                or not all(isinstance(o, str) and "=" in o for o in entry["overrides"])):
            raise InputError(f"conf/experiment/{spec.name}.yaml: report.same_search_also entries are "
                             f"{{label, why, overrides: [key=value, ...]}}, not {entry!r}")
        found.append((str(entry["label"]), str(entry["why"]), tuple(entry["overrides"])))
    return tuple(found)


def load_outputs_dir(overrides: list[str]) -> Path:
    """The store's folder (outputs_dir) the overrides compose to."""
    register_configs()
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        return Path(_compose(overrides, hydra=False).outputs_dir)


def check_command_line(overrides: list[str]) -> None:
    """What ``python run.py OVERRIDES`` can check before Hydra starts a job: each
    configuration the command line names is composed and made into a job, which validates
    every option and loads the instance files. A swept key (``P=2,3,4``) is checked value by
    value, the other swept keys at their first value. Raises InputError."""
    check_override_keys(overrides)
    register_configs()
    fixed, swept = _split_sweeps(overrides)
    sweeps = [[f"{key}={value}" for value in values] for key, values in swept.items()]
    firsts = [values[0] for values in sweeps]
    configurations = [fixed + firsts] + [fixed + firsts[:i] + [value] + firsts[i + 1:]
                                         for i, values in enumerate(sweeps) for value in values[1:]]
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        for configuration in configurations:
            cfg = _compose(configuration)
            # the column a matched_work budget is read for: the one the command line names, else (the
            # experiment's own sweep picks it later, load_experiment) a baseline's, to check the options
            columns = OmegaConf.to_container(cfg.report.columns) if cfg.report is not None and cfg.report.get(
                "columns") else {}
            rate = published_rate_of(cfg.report) if cfg.report is not None else None
            column = column_of(columns, configuration) or (rate.fit_on[0] if rate is not None else None)
            RunStore(cfg.outputs_dir).check(job_from(cfg, column).domain_options.name)
            if cfg.backend.name == "dask":  # a cluster that only its owner reaches (experiments/dask_security.py)
                cluster_security(cfg.backend.address, cfg.backend.tls, cfg.backend.insecure)


def _variant_config(fixed: list[str], chosen: tuple[str, ...], composed: dict):
    """The config ``compose("config", fixed + chosen)`` gives, made faster: Hydra composes
    once per choice of config groups among ``chosen`` (algo=..., strategy=...: they change the
    defaults list), then the value overrides (threads=2, domain.board=3) are set on a copy as
    Hydra sets them, after composition (OmegaConf.update with merge, the value read by Hydra's
    own override grammar). A 20-board table composes 3 configs, not 60 (about a second each)."""
    groups = tuple(o for o in chosen if "." not in o.split("=")[0] and (CONFIG_DIR / o.split("=")[0]).is_dir())
    if groups not in composed:
        composed[groups] = _compose(fixed + list(groups), hydra=False)
    cfg = copy.deepcopy(composed[groups])
    for override in OverridesParser.create().parse_overrides([o for o in chosen if o not in groups]):
        OmegaConf.update(cfg, override.key_or_group, override.value(), merge=True)
    return cfg


def _split_sweeps(overrides: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """The fixed overrides, and each swept key with its values (``P=2,3`` -> {"P": ["2", "3"]}),
    read with Hydra's own override grammar, as its basic sweeper does."""
    try:
        parsed = OverridesParser.create().parse_overrides(overrides)
    except HydraException as error:
        raise InputError(_hydra_message(error)) from None
    fixed, swept = [], {}
    for override in parsed:
        key = override.get_key_element()
        if not override.is_sweep_override():
            fixed.append(override.input_line)
        elif override.is_discrete_sweep():
            swept[key] = list(override.sweep_string_iterator())
        else:
            raise InputError(f"{override.input_line}: only lists of values (a,b,c) and range() can be swept")
    return fixed, swept


def _without_hydra(cfg):
    """A composed config without its hydra section: as Hydra's compose(return_hydra_config=False)
    makes it, on a copy."""
    plain = copy.deepcopy(cfg)
    with open_dict(plain):
        del plain["hydra"]
    return plain


def _compose(overrides: list[str], hydra: bool = True):
    """The composed config (with its hydra section unless ``hydra`` is false); InputError for
    what Hydra refuses. Composed once per process for the same overrides while conf/ is
    unchanged (a quarter of a second each, reading a dozen YAML files; a campaign's rounds,
    a report after its sweep and the tests compose the same experiments again), a copy each
    time. Interpolations stay unresolved in the copy, so those read at access time (the
    environment, the date) are read when used, as in a fresh compose."""
    key = (str(CONFIG_DIR), tuple(overrides), hydra)
    stamp = _conf_stamp()
    cached = _COMPOSED.get(key)
    if cached is None or cached[0] != stamp:
        try:
            cached = _COMPOSED[key] = (stamp, compose("config", overrides=overrides, return_hydra_config=hydra))
        except HydraException as error:
            raise InputError(_hydra_message(error)) from None
    return copy.deepcopy(cached[1])


_COMPOSED: dict = {}  # (conf dir, overrides, hydra) -> (conf/'s stamp then, the config)


def _conf_stamp() -> tuple:
    """Every file under conf/ with its size and modification time: a file added, removed or
    edited changes it."""
    return tuple(sorted((str(path), stat.st_mtime_ns, stat.st_size)
                        for path in CONFIG_DIR.rglob("*") if path.is_file() for stat in [path.stat()]))


def _hydra_message(error: HydraException) -> str:
    """Hydra's message without its config search path; the reason is sometimes in the cause.
    An option no config group has (``algo=snrpaa``) gets the closest one and the group's
    options on one line, where Hydra lists them a line each."""
    if isinstance(error, MissingConfigException) and error.options and error.missing_cfg_file:
        group, name = error.missing_cfg_file.rsplit("/", 1)
        # not the private bases (experiment/_*.yaml) nor the schemas (domain/*_schema: experiments.config)
        options = [o for o in error.options if not o.startswith("_") and not o.endswith("_schema")]
        return f"{group}={name} is not valid: {did_you_mean(name, options)}"
    message = str(error).split("\nConfig search path")[0].strip()
    if error.__cause__ is not None:
        message = f"{message}: {error.__cause__}" if message else str(error.__cause__)
    return message


def _label(columns: dict, given: tuple[str, ...], chosen: tuple[str, ...], job: Job) -> str:
    """The column name whose overrides (a key like "algo=nrpa") are all among ``given`` (the
    command line's and the sweep's: `experiment=morpion_table2 level=3` names its columns),
    else the sweep's choices, else the search."""
    return column_of(columns, given) or " ".join(chosen) or label(job.settings)
