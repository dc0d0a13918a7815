"""The Hydra side of the configuration: the typed schema and a check of override keys.

The schema (dataclasses in Hydra's ConfigStore) makes typos in known sections and wrong
types fail at compose time; the YAML files under conf/ hold the variants. Ranges are
checked by ``nrpa.search.validate`` and each domain adapter, before any work starts.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field, fields, make_dataclass
from pathlib import Path
from typing import Any, Optional

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, OmegaConf

from experiments.machine import StarvedRule
from experiments.store import PROJECT_ROOT, STORED_RUNS
from nrpa.domains.registry import DOMAINS
from nrpa.errors import InputError, did_you_mean
from nrpa.search import SearchSettings


@dataclass
class TLSConfig:
    """The files of a TLS dask cluster's client (experiments/dask_security.py)."""

    ca_file: Optional[str] = None
    cert: Optional[str] = None
    key: Optional[str] = None


@dataclass
class BackendConfig:
    """Where the repeats run: ``loky`` (local processes) or ``dask`` (a scheduler address,
    with TLS or on loopback unless ``insecure``: experiments/dask_security.py)."""

    name: str = "loky"
    n_jobs: Optional[int] = None
    address: Optional[str] = None
    insecure: bool = False
    tls: TLSConfig = field(default_factory=TLSConfig)


@dataclass
class StarvedConfig:
    """When a wall-clock run is starved, and how long a sweep waits for a busy machine
    (experiments/machine.StarvedRule; the values and their meaning are in conf/config.yaml)."""

    tolerance: float = MISSING
    rate_fraction: float = MISSING
    wait: float = MISSING


def starved_rule(cfg) -> StarvedRule:
    """The composed config's ``starved`` section as a rule (InputError for a value out of range)."""
    section = cfg.get("starved") or {}
    return StarvedRule(**{key: float(section[key]) for key in ("tolerance", "rate_fraction", "wait") if key in section})


# Top-level options: the search settings (their defaults and comments are in
# conf/config.yaml, the one place a command-line user reads them) plus what the command
# line adds.
RunConfig = make_dataclass(
    "RunConfig",
    [(f.name, f.type, field(default=MISSING)) for f in fields(SearchSettings)]
    + [("repeats", int, field(default=MISSING)),
       ("root", int, field(default=MISSING)),
       ("games", int, field(default=MISSING)),
       ("force", bool, field(default=MISSING)),
       ("outputs_dir", str, field(default=MISSING)),
       ("scale_name", str, field(default=MISSING)),
       ("report", Any, field(default=None)),
       ("scale_budgets", Any, field(default=None)),
       ("matched_work", bool, field(default=MISSING)),
       ("domain", Any, field(default=MISSING)),
       ("backend", BackendConfig, field(default_factory=BackendConfig)),
       ("starved", StarvedConfig, field(default_factory=StarvedConfig))],
)


CONFIG_GROUPS = ("algo", "domain", "playout", "morpion_rules", "backend", "scale", "experiment", "strategy", "variant")


def register_configs() -> None:
    """Put the schemas in Hydra's ConfigStore and the ``project_root`` (output paths are
    anchored to the project root, whatever the working directory), ``str`` and ``paper_scale``
    resolvers in OmegaConf."""
    OmegaConf.register_new_resolver("project_root", lambda: str(PROJECT_ROOT), replace=True)
    # ${str:${level}}: a number as a config key, e.g. runs per level in morpion_table2.yaml
    OmegaConf.register_new_resolver("str", str, replace=True)
    # ${paper_scale:${scale_name}}: whether the scale is the paper's (a time table runs matched time there)
    OmegaConf.register_new_resolver("paper_scale", lambda scale: scale == "paper", replace=True)
    # ${choosable_groups:}: the config groups in `python run.py --help` (conf/config.yaml, hydra.help)
    OmegaConf.register_new_resolver("choosable_groups", choosable_groups, replace=True)
    store = ConfigStore.instance()
    store.store(name="schema", node=RunConfig)
    for name, domain_class in DOMAINS.items():
        store.store(group="domain", name=f"{name}_schema", node=domain_class.options_class)


def choosable_groups() -> str:
    """Each config group with the options a user can choose, as Hydra's $APP_CONFIG_GROUPS
    writes them ("group: a, b, c" a line), but only the YAML files under conf/ whose names do
    not start with _: not the schemas above (ConfigStore entries that conf/domain/*.yaml
    extend) nor the private bases that several files of a group include (experiment/_*.yaml)."""
    config_dir = PROJECT_ROOT / "conf"
    lines = []
    groups = {path.parent.relative_to(config_dir).as_posix() for path in config_dir.rglob("*.yaml")} - {"."}
    for group in sorted(groups):
        options = sorted(path.stem for path in (config_dir / group).glob("*.yaml") if not path.stem.startswith("_"))
        if options:
            lines.append(f"{group}: {', '.join(options)}")
    return "\n".join(lines)


def experiment_domain(name: str) -> str | None:
    """The domain conf/experiment/NAME.yaml chooses (``override /domain: ...``), or None."""
    path = PROJECT_ROOT / "conf" / "experiment" / f"{name}.yaml"
    if not path.is_file():
        return None  # Hydra names the unknown experiment
    for entry in OmegaConf.load(path).get("defaults", []):
        if isinstance(entry, dict) or OmegaConf.is_dict(entry):
            for key, value in entry.items():
                if key.replace(" ", "") in ("override/domain", "/domain"):
                    return str(value)
    return None


# RunConfig keys the experiment and scale files set for the harness, not options for users
INTERNAL_KEYS = ("scale_name", "report", "scale_budgets")


def check_override_keys(arguments: list[str]) -> None:
    """Reject an unknown key such as ``levle=3`` with the closest valid key and the list of
    them (Hydra's own message does not list them). Group choices (``algo=...``, ``domain=...``) and
    ``hydra.*``, ``+key``, ``~key`` overrides are left to Hydra."""
    top_keys = [f.name for f in fields(RunConfig) if f.name not in ("domain", "backend", "starved")]
    # what a user sets; the experiment files' own sections are accepted but not offered
    offered = [key for key in top_keys if key not in INTERNAL_KEYS]
    domain_name = "samegame"
    for argument in arguments:  # the experiment's domain (selective_table2: bus), unless domain= names one
        if argument.startswith("experiment=") and "," not in argument:
            domain_name = experiment_domain(argument.split("=", 1)[1]) or domain_name
    for argument in arguments:
        if argument.startswith("domain=") and "," not in argument:
            domain_name = argument.split("=", 1)[1]
    for argument in arguments:
        if argument.startswith(("-", "+", "~")) or "=" not in argument:
            continue
        key = argument.split("=", 1)[0]
        head = key.split(".", 1)[0].split("/", 1)[0]  # hydra.run.dir, hydra/launcher
        if head in ("hydra", "report", "scale_budgets") or key in CONFIG_GROUPS:
            continue
        if head in ("backend", "starved"):
            section = BackendConfig if head == "backend" else StarvedConfig
            valid = [f.name for f in fields(section) if f.name not in ("name", "tls")]
            if head == "backend":  # backend.tls.ca_file, ...
                valid += [f"tls.{f.name}" for f in fields(TLSConfig)]
            if key.split(".", 1)[-1] not in valid:
                raise InputError(f"unknown option {key!r}: "
                                 + did_you_mean(key, [f"{head}.{name}" for name in valid], "valid are"))
            continue
        if head == "domain" and domain_name in DOMAINS:
            option = key.split(".", 1)[1] if "." in key else ""
            valid = [f.name for f in fields(DOMAINS[domain_name].options_class) if f.name != "name"]
            if option not in valid:
                raise InputError(f"unknown option {key!r} for domain={domain_name}: "
                                 + did_you_mean(key, [f"domain.{name}" for name in valid], "valid are"))
        elif head not in top_keys:
            raise InputError(f"unknown option {key!r}: "
                             + did_you_mean(key, offered + [f"{group}=" for group in CONFIG_GROUPS], "valid are"))


@dataclass(frozen=True)
class RelativeRate:
    """rho: a column's playouts per CPU-second over its baseline's (a fit_on column) on this
    engine, with its 95% interval (experiments/rates.py measures it)."""

    rho: float
    ci_low: float
    ci_high: float
    against: str


@dataclass(frozen=True)
class PublishedRate:
    """R: the playouts per second that the published runs of a time table made (the paper's
    engine on the paper's machine), with its 95% interval, where it comes from, and the
    published columns it was fitted on; and ``relative``: each other column's rho, its
    playouts per CPU-second over its baseline's on this engine. Set once per published time
    table, as ``report.published_rate: {R, ci_low, ci_high, fit_on, source, relative}`` in
    conf/experiment/NAME.yaml.

    The papers compare their columns at the same time. At matched time a column gets the
    work the paper's machine did for that column in t seconds, t x R x rho(column) playouts
    (``work``): a column that makes more playouts per second (SNRPA(P) adapts once per P
    playouts) gets more of them, as it did in the paper. t x R for every column (``playouts``)
    is another comparison, at equal playouts: it answers which column uses a playout better, a
    question the papers do not ask. matched_work=true runs each column for the longer of the
    two (``budget``), so that one run serves both readings, and a run is a function of its seed
    and playout count alone: the same run on any machine and any engine version that keeps the
    draws."""

    R: float
    ci_low: float
    ci_high: float
    fit_on: tuple[str, ...]
    source: str
    relative: tuple[tuple[str, RelativeRate], ...] = ()  # (column, its rho), every column not in fit_on
    measured: str = ""  # how rho was measured: the command, date, CPU and code

    def playouts(self, seconds: float) -> float:
        """The published work of ``seconds`` on the paper's machine for a baseline column, in
        playouts: every column's budget at equal playouts."""
        return seconds * self.R

    def rho(self, column: str) -> float:
        """The column's rho (1 for a fit_on column); InputError for a column without one."""
        if column in self.fit_on:
            return 1.0
        measured = dict(self.relative)
        if column not in measured:
            raise InputError(f"no rho for column {column} in report.published_rate.relative (its playouts per "
                             "CPU-second over its baseline's): measure it with `python -m experiments.rates "
                             "experiment=<name>`")
        return measured[column].rho

    def work(self, seconds: float, column: str) -> float:
        """The paper's machine's work for ``column`` in ``seconds``, t x R x rho: matched time."""
        return seconds * self.R * self.rho(column)

    def budget(self, seconds: float, column: str) -> int:
        """A matched_work run's playout budget: enough for matched time and for equal playouts."""
        return max(1, round(seconds * self.R * max(1.0, self.rho(column))))

    def reach(self, playouts: float, column: str) -> float:
        """The published seconds whose matched work for ``column`` is ``playouts``: work's inverse."""
        return playouts / self.work(1.0, column)

    # how a column's work at published time t is read, for the reports (engines.ReferenceClock has another)
    describe = "t x R x rho playouts"


def published_rate_of(report) -> PublishedRate | None:
    """The published runs' rate in an experiment's ``report`` section (None without);
    InputError naming the experiment's file when it is malformed."""
    entry = report.get("published_rate") if report is not None else None
    if entry is None:
        return None
    where = f"conf/experiment/{report.get('name')}.yaml"

    def number(values, key: str, name: str) -> float:
        value = values.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise InputError(f"{where}: report.published_rate.{name} must be a number > 0, got {value!r}")
        return float(value)

    if not OmegaConf.is_dict(entry):
        raise InputError(f"{where}: report.published_rate must be {{R, ci_low, ci_high, fit_on, source, relative}}, "
                         f"got {entry!r}")
    rate, low, high = (number(entry, key, key) for key in ("R", "ci_low", "ci_high"))
    if not low <= rate <= high:
        raise InputError(f"{where}: report.published_rate.R = {rate:g} is outside its interval [{low:g}, {high:g}]")
    fit_on = entry.get("fit_on")
    if not OmegaConf.is_list(fit_on) or not fit_on or not entry.get("source"):
        raise InputError(f"{where}: report.published_rate needs fit_on (the published columns R was fitted on, "
                         f"a list) and source (where R comes from)")
    fit_on = tuple(str(c) for c in fit_on)
    relative = entry.get("relative")
    columns = relative.get("columns") if relative is not None else None
    if relative is not None and (not OmegaConf.is_dict(columns) or not relative.get("measured")):
        raise InputError(f"{where}: report.published_rate.relative needs measured (the command that measured "
                         "it) and columns (column: {rho, ci_low, ci_high, against})")
    rhos = []
    for column, value in (columns or {}).items():
        name = f"relative.columns.{column}"
        if not OmegaConf.is_dict(value) or str(value.get("against")) not in fit_on:
            raise InputError(f"{where}: report.published_rate.{name} must be {{rho, ci_low, ci_high, against}}, "
                             f"against one of fit_on ({', '.join(fit_on)})")
        rho, rho_low, rho_high = (number(value, key, f"{name}.{key}") for key in ("rho", "ci_low", "ci_high"))
        if not rho_low <= rho <= rho_high:
            raise InputError(f"{where}: report.published_rate.{name}.rho = {rho:g} is outside its interval "
                             f"[{rho_low:g}, {rho_high:g}]")
        rhos.append((str(column), RelativeRate(rho, rho_low, rho_high, str(value.against))))
    return PublishedRate(rate, low, high, fit_on, str(entry.source), tuple(rhos),
                         str(relative.measured) if relative is not None else "")


def targets_of(report) -> tuple[float, ...] | None:
    """The scores of the fixed-target view, ``report.targets`` (in the table's unit), when
    given: a list of numbers, e.g. ``+report.targets=[2000,2500,3000]`` on a command line."""
    entry = report.get("targets") if report is not None else None
    if entry is None:
        return None
    values = OmegaConf.to_container(entry) if OmegaConf.is_config(entry) else entry
    if not isinstance(values, list) or not values or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise InputError(f"report.targets={values!r} is not valid: give a list of numbers, e.g. [2000,2500]")
    return tuple(float(v) for v in values)


def exit_on_input_error(error: InputError) -> None:
    print(f"error: {error}", file=sys.stderr)
    sys.exit(2)


def exit_interrupted(stop: BaseException | None = None) -> None:
    """The one line a command prints when Ctrl-C stopped it (the runs it stored, and where),
    then exit status 130 (a shell's 128 + SIGINT); nrpa/interrupt.py stops the kernel. A run
    cut short (``stop.best_so_far``, a single run's) shows its best so far on a line before."""
    best = getattr(stop, "best_so_far", None)
    if best is not None:
        score, playouts, cpu = best
        print(f"\nThe run stopped had found a best score of {score:g} after {playouts:,} playouts "
              f"({cpu:.1f} CPU-seconds); a run cut short is not stored.", file=sys.stderr, flush=True)
    count = len(STORED_RUNS)
    kept = f"{count} run{'s' if count != 1 else ''} finished by this command"
    if count:
        folder = Path(os.path.commonpath([os.path.dirname(path) for path in STORED_RUNS])).resolve()
        shown = folder.relative_to(Path.cwd()) if folder.is_relative_to(Path.cwd()) else folder
        kept += f" {'are' if count != 1 else 'is'} kept in {shown}"
    print(f"\nInterrupted: {kept}; what was running was dropped. The same command goes on from there "
          "(a stored run is not made again).", file=sys.stderr, flush=True)
    sys.exit(130)


def overrides_parser(description: str, overrides: str, nargs: str = "+") -> argparse.ArgumentParser:
    """The start of a command that takes overrides (KEY=VALUE ..., as run.py does), each analysis
    command's: its help is ``description`` (the module's docstring) as written, then the
    overrides, ``overrides`` saying which; the command adds its own options."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("overrides", nargs=nargs, help=overrides)
    return parser


def print_outputs(produce) -> int:
    """The end of a command that writes files: run ``produce()`` and print the paths it
    returns, one a line (status 0); an InputError ends the command with its message (status 2)."""
    try:
        paths = produce()
    except InputError as error:
        exit_on_input_error(error)
    for path in paths:
        print(path)
    return 0
