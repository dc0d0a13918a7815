"""A sweep, ``python run.py -m KEY=a,b,c ...``, run by the harness from start to report.

run.py hands a sweep on Hydra's basic launcher here instead of to Hydra, which would run its
jobs one after another, each in its own pool. Here the sweep is composed as an Experiment
(experiments/experiment.py: the same jobs, so the same run files, as Hydra's jobs make),
its cost is printed (and asked about when over an hour, on a terminal), its runs go into ONE
pool across its jobs (``make_runs``, which the claims campaign uses too), and run.py ends it
in the report an experiment gets (analysis/results/report.py, which reads the sweep's folder from
here; this module imports nothing of analysis/), whose paths it prints:

  with experiment=NAME   outputs/tables/<name>_<scale>.* and outputs/figures/..., as
                         ``python -m analysis.results.report experiment=NAME scale=S`` writes them
  without                outputs/sweeps/sweep_<hash>/: sweep.yaml (its overrides, scale and
                         ``against``), the checkpoint tables (CSV, Markdown) and figures, one
                         column per swept combination, named by its algorithm
                         ("SNRPA(2)"); rebuilt later by
                         ``python -m analysis.results.report sweep=<folder or name>``

``against=EXPERIMENT`` (e.g. against=stabilized_table4) runs the swept columns on that
experiment's settings (domain, instance, playout rule, level, N, budgets; the command's
overrides on top, a difference in the game refused unless --other-game), says what still
differs from its nearest column, and adds its columns at the sweep's scale (their runs are the
experiment's own: the store shares them with `make table4`) and its published table, so the
researcher's variant is drawn beside the paper's columns and published values on its basis.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import yaml

from experiments.estimate import confirm, cost, describe, wall_seconds
from experiments.experiment import Experiment, Variant, load_experiment, load_outputs_dir
from experiments.experiment_targets import experiment_names
from experiments.valid_runs import judge_in_store, read_and_judge
from experiments.workers import compile_kernels, run_job, run_runs
from nrpa.errors import InputError, did_you_mean
from nrpa.search import column_name

SWEEPS = "sweeps"  # the sweeps' folder under outputs_dir
DEFINITION = "sweep.yaml"
NOT_NAMED = ("outputs_dir", "force", "against")  # overrides that do not change what the sweep's runs are


def sweep_name(overrides: list[str]) -> str:
    """sweep_<8 hex digits of the sorted overrides>: the same sweep gets the same folder."""
    named = sorted(o for o in overrides if o.split("=", 1)[0] not in NOT_NAMED)
    return "sweep_" + hashlib.sha256("\n".join(named).encode()).hexdigest()[:8]


def load_sweep(overrides: list[str], against: str | None = None, other_game: bool = False,
               paper_columns: bool = True) -> Experiment:
    """The Experiment of ``run.py -m OVERRIDES``: the experiment named by experiment=, or a
    sweep of its own with a checkpoints report; ``against``: an experiment whose settings the
    sweep's columns start from and whose columns and published table join it (without
    ``paper_columns``, the sweep's own columns only); a difference in the game is refused
    unless ``other_game``."""
    if any(o.startswith("experiment=") for o in overrides):
        if against is not None:
            raise InputError(f"against={against} draws a sweep beside an experiment's columns; experiment= runs an "
                             "experiment's own columns: give one of them")
        return load_experiment(overrides)
    shown = " ".join(o for o in overrides if o.split("=", 1)[0] not in NOT_NAMED)
    # beside an experiment, the same overrides are other searches (its settings): another folder
    named = [*overrides, *([f"settings_of={against}"] if against else [])]
    report = {"name": sweep_name(named), "kind": "checkpoints", "title": f"Sweep: {shown}",
              "paper": "a sweep", "table": shown}
    command = " ".join(["python run.py -m", *(o for o in overrides if not o.startswith(("outputs_dir=", "force="))),
                        *([f"against={against}"] if against else []), *(["--other-game"] if other_game else [])])
    if against is None:
        return replace(_named_by_algorithm(load_experiment(overrides, default_report=report), ()), command=command)
    check_against(against)
    outputs = [o for o in overrides if o.startswith("outputs_dir=")]
    scale = [o for o in overrides if o.startswith("scale=")]
    paper = load_experiment([f"experiment={against}", *scale, *outputs])
    if paper.kind != "checkpoints" or paper.reference is None:
        raise InputError(f"against={against}: its report is not a published table of scores at checkpoints "
                         "(choose an experiment whose report.kind is checkpoints with a report.reference)")
    experiment = load_experiment(overrides, default_report=report, settings_of=against)
    same = [(v, next((p for p in paper.variants if p.job.semantic_config() == v.job.semantic_config()), None))
            for v in experiment.variants]
    yours = tuple(v for v, column in same if column is None)
    differences = [differences_from(v, paper) for v in yours]
    experiment = _named_by_algorithm(replace(experiment, variants=yours), paper.variants, differences)
    other_games = [f"{v.label}: " + "; ".join(apart.game) for v, apart in zip(experiment.variants, differences)
                   if apart.game]
    if other_games and not other_game:
        raise InputError(f"against={against}: your columns play another game than its columns ("
                         + "; ".join(other_games) + "): add --other-game to draw them beside it anyway")
    notes = [f"Your columns take every setting of {against} (domain, instance, playout rule, level, N, alpha, "
             "budgets, scale) except what the command sets."]
    notes += [f"{' '.join(v.overrides) or 'Your column'} is {against}'s {column.label}: the same search, "
              "its column and runs are the experiment's." for v, column in same if column is not None]
    notes += [f"{v.label} differs from {against}'s nearest column: {apart.said}."
              for v, apart in zip(experiment.variants, differences)]
    return replace(experiment, title=f"{experiment.title}, against {paper.name}",
                   report_source=paper.report_source, reference=paper.reference, value_scale=paper.value_scale,
                   unit=paper.unit, published_rate=paper.published_rate, notes=tuple(notes), command=command,
                   variants=experiment.variants + (paper.variants if paper_columns else ()))


def check_against(against: str) -> None:
    """InputError unless ``against`` names an experiment."""
    if against not in experiment_names():
        raise InputError(f"against={against} is not an experiment: "
                         + did_you_mean(against, experiment_names(), "choose among"))


class Difference(NamedTuple):
    """How a swept column's search differs from the nearest column of the experiment beside it."""

    game: list[str]  # the differences in the game (domain, instance, rules), in words
    said: str  # every difference in words ("P = 8 where SNRPA(7) has 7")
    settings: list[str]  # the differing settings as overrides would set them ("P=8")


def differences_from(variant: Variant, paper: Experiment) -> Difference:
    """How ``variant``'s search differs from the nearest of ``paper``'s columns: the fewest
    settings apart, then the nearest values. A domain option that is not one of the domain's
    ``playout_options`` is the game (its instance, its rules)."""
    mine = _flat(variant.job.semantic_config())

    def apart(column):  # (how far, column, the keys that differ, its settings)
        theirs = _flat(column.job.semantic_config())
        keys = [key for key in dict.fromkeys([*mine, *theirs]) if mine.get(key) != theirs.get(key)]
        gaps = [abs(mine[key] - theirs[key]) for key in keys if _numbers(mine.get(key), theirs.get(key))]
        return (len(keys), sum(gaps)), column, keys, theirs

    _, column, keys, theirs = min((apart(column) for column in paper.variants), key=lambda found: found[0])
    playout = getattr(type(variant.job.domain_options), "playout_options", ("bias", "bias_weight"))
    said = {key: f"{key} = {_shown(mine.get(key))} where {column.label} has {_shown(theirs.get(key))}"
            for key in keys}
    game = [said[key] for key in keys if key.startswith("domain.") and key.split(".", 1)[1] not in playout]
    return Difference(game, "; ".join(said.values()), [f"{key}={_shown(mine.get(key))}" for key in keys])


def _flat(config: dict, prefix: str = "") -> dict:
    """A run identity's settings as dotted keys (domain.policy, budget.max_time)."""
    flat = {}
    for key, value in config.items():
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _numbers(*values) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _shown(value) -> str:
    return "unset" if value is None else str(value)


def _named_by_algorithm(experiment: Experiment, taken: tuple[Variant, ...],
                        differences: list[Difference] | None = None) -> Experiment:
    """A sweep's columns named by their algorithms (SNRPA(8), GNRPA); a column whose name
    another column has (among them or ``taken``, the columns of the experiment drawn beside
    them) gets its swept settings added, then the settings that set it apart from the
    experiment's nearest column (``differences``) or, in a sweep of its own, every override."""
    def candidates(index, variant):
        name = column_name(variant.job.settings)
        swept = [o for o in variant.overrides if not o.startswith("algo=")]
        apart = differences[index].settings if differences else list(variant.overrides)
        return [name, " ".join([name, *swept]), " ".join([name, *dict.fromkeys([*swept, *apart])])]

    options = [candidates(i, v) for i, v in enumerate(experiment.variants)]
    labels: list[str | None] = [None] * len(options)
    used = {v.label for v in taken}
    for level in range(3):
        wanted = [option[level] for option in options]
        for i, option in enumerate(options):
            if labels[i] is None and (level == 2 or (wanted.count(option[level]) == 1 and option[level] not in used)):
                labels[i] = option[level]
        used |= {label for label in labels if label is not None}
    return replace(experiment, variants=tuple(replace(v, label=label) for v, label in zip(experiment.variants, labels)))


def folder_of(experiment: Experiment) -> Path:
    return experiment.store.root / SWEEPS / experiment.name


def make_sweep(overrides: list[str], against: str | None = None, yes: bool = False,
               other_game: bool = False) -> tuple[Experiment, Path | None]:
    """Print the cost, ask when it is over an hour, make the runs in one pool. Returns the
    experiment and the folder its report goes in (None: an experiment's own, under
    outputs/tables and outputs/figures); run.py writes the report (analysis/results/report.py)."""
    experiment = load_sweep(overrides, against, other_game)
    costs = cost(experiment)  # once: it looks up every run file in the store
    print("\n".join([*experiment.notes, describe(experiment, costs)]), flush=True)
    confirm(wall_seconds(costs), costs[3], yes, unpriced=costs[1])
    named = any(o.startswith("experiment=") for o in overrides) and against is None
    folder = None if named else folder_of(experiment)
    if folder is not None:  # its definition first: a sweep stopped half way can be reported on
        folder.mkdir(parents=True, exist_ok=True)
        definition = {"name": experiment.name, "scale": experiment.scale, "against": against,
                      **({"other_game": True} if other_game else {}),
                      "overrides": [o for o in overrides if not o.startswith(("outputs_dir=", "force="))]}
        (folder / DEFINITION).write_text(yaml.safe_dump(definition, sort_keys=False))
    wanted = [(experiment, v, v.repeats * v.root) for v in experiment.variants]
    records, found = make_runs(wanted, experiment.backend, force=experiment.force)
    rule = experiment.starved_rule
    starved = sum(judge_in_store(experiment.store, record, rule) is not None for record in records)
    print(f"{len(records) - starved} run(s) made, {found} already in the store"
          + (f"; {starved} set aside as starved (other processes took their cores): run the command again to "
             "make them" if starved else ""), flush=True)
    return experiment, folder


def make_runs(wanted: list[tuple[Experiment, Variant, int]], backend: dict, force: bool = False,
              label: str | None = None) -> tuple[list[dict], int]:
    """Make the first ``count`` run files of each (experiment, variant, count) that the store
    lacks (all of them with ``force``) in ONE pool of worker processes across the variants (a
    sweep's jobs, a campaign's columns), on ``backend`` (run_runs' backend, address, n_jobs).
    A threaded experiment (its backend.n_jobs: 1, a run holds every core) runs one at a time
    after them, and a parallel=cluster job spreads each run over the cluster (run_job). Returns
    the records made (the starved ones among them) and the count of runs found in the store."""
    pooled, alone, cluster, found = [], [], [], 0
    for experiment, variant, count in wanted:
        store = experiment.store
        paths = experiment.run_paths(variant)[:count]
        pending = list(range(len(paths))) if force else [
            r for r, run in enumerate(read_and_judge(store, paths, experiment.starved_rule)) if run.record is None]
        found += count - len(pending)
        if pending and variant.job.settings.parallel == "cluster":
            cluster.append((experiment, variant, count, pending))
        else:  # a threaded search holds every core (backend.n_jobs: 1): one at a time
            (alone if experiment.backend["n_jobs"] == 1 else pooled).extend((variant.job, r) for r in pending)
    if not wanted:
        return [], 0
    store, rule = wanted[0][0].store, wanted[0][0].starved_rule
    store.remove_stale_temporaries()
    if backend.get("backend", "loky") == "loky":  # every kernel at once, on every core
        compile_kernels([job for job, _ in pooled + alone], backend.get("n_jobs"))
    records = []
    if pooled:
        records += run_runs(pooled, store, rule=rule, label=label or f"{len(pooled)} runs", **backend)
    if alone:
        records += run_runs(alone, store, rule=rule, label=f"{len(alone)} threaded runs", **{**backend, "n_jobs": 1})
    for cluster_experiment, variant, count, pending in cluster:
        cluster_store, cluster_rule = cluster_experiment.store, cluster_experiment.starved_rule
        outcome = run_job(variant.job, count, cluster_store, rule=cluster_rule, backend=backend.get("backend", "loky"),
                          address=backend.get("address"), force=force, label=variant.label,
                          tls=backend.get("tls"), insecure=backend.get("insecure", False))
        records += [run.record for run in read_and_judge(cluster_store, [outcome.paths[r] for r in pending],
                                                         cluster_rule) if run.record is not None]
    return records, found


def find_sweep(given: str, overrides: list[str]) -> Path:
    """The folder of sweep=``given``: a folder holding sweep.yaml, or a sweep's name under
    outputs_dir/sweeps/."""
    folder = Path(given)
    if not (folder / DEFINITION).is_file():
        root = load_outputs_dir(overrides)
        folder = root / SWEEPS / given
        if not (folder / DEFINITION).is_file():
            known = sorted(p.parent.name for p in (root / SWEEPS).glob(f"*/{DEFINITION}"))
            raise InputError(f"sweep={given}: no {DEFINITION} there nor under {root / SWEEPS} "
                             f"(sweeps there: {', '.join(known) or 'none'})")
    return folder.resolve()


def read_definition(folder: Path) -> dict:
    return yaml.safe_load((folder / DEFINITION).read_text())


def sweep_of_folder(folder: Path, against: bool = True) -> Experiment:
    """The Experiment of the sweep whose sweep.yaml is in ``folder`` (outputs_dir/sweeps/NAME/);
    without ``against``, its own columns only (export: the paper's are exported as its own)."""
    definition = read_definition(folder)
    outputs_dir = Path(folder).resolve().parent.parent
    return load_sweep([*definition["overrides"], f"outputs_dir={outputs_dir}"], definition.get("against"),
                      definition.get("other_game", False), paper_columns=against)


def sweep_folders(root: Path, scale: str | None = None) -> list[Path]:
    """The sweeps stored under outputs_dir ``root`` (at ``scale`` when given), for export and the site."""
    folders = sorted(p.parent for p in (Path(root) / SWEEPS).glob(f"*/{DEFINITION}"))
    return [f for f in folders if scale is None or read_definition(f).get("scale") == scale]
