"""A sweep, ``python run.py -m KEY=a,b,c ...``, run by the harness from start to report.

run.py hands a sweep on Hydra's basic launcher here instead of to Hydra, which would run its
jobs one after another, each in its own pool. Here the sweep is composed as an Experiment
(experiments/experiment.py: the same jobs, so the same run files, as Hydra's jobs make),
its cost is printed (and asked about when over an hour, on a terminal), its runs go into ONE
pool across its jobs (``make_runs``, which the claims campaign uses too), and run.py ends it
in the report an experiment gets (analysis/report.py, which reads the sweep's folder from
here; this module imports nothing of analysis/), whose paths it prints:

  with experiment=NAME   outputs/tables/<name>_<scale>.* and outputs/figures/..., as
                         ``python -m analysis.report experiment=NAME scale=S`` writes them
  without                outputs/sweeps/sweep_<hash>/: sweep.yaml (its overrides, scale and
                         ``against``), the checkpoint tables (CSV, Markdown) and figures, one
                         column per swept combination ("P=2"); rebuilt later by
                         ``python -m analysis.report sweep=<folder or name>``

``against=EXPERIMENT`` (e.g. against=stabilized_table4) adds that experiment's columns at the
sweep's scale (their runs are the experiment's own: the store shares them with `make table4`)
and its published table, so the researcher's variant is drawn beside the paper's columns and
published values.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import yaml

from experiments.estimate import confirm, cost, describe, wall_seconds
from experiments.experiment import Experiment, Variant, load_experiment, load_outputs_dir
from experiments.workers import compile_kernels, run_job, run_runs
from nrpa.errors import InputError

SWEEPS = "sweeps"  # the sweeps' folder under outputs_dir
DEFINITION = "sweep.yaml"
NOT_NAMED = ("outputs_dir", "force", "against")  # overrides that do not change what the sweep's runs are


def sweep_name(overrides: list[str]) -> str:
    """sweep_<8 hex digits of the sorted overrides>: the same sweep gets the same folder."""
    named = sorted(o for o in overrides if o.split("=", 1)[0] not in NOT_NAMED)
    return "sweep_" + hashlib.sha256("\n".join(named).encode()).hexdigest()[:8]


def load_sweep(overrides: list[str], against: str | None = None) -> Experiment:
    """The Experiment of ``run.py -m OVERRIDES``: the experiment named by experiment=, or a
    sweep of its own with a checkpoints report; ``against``: an experiment whose columns and
    published table join it."""
    if any(o.startswith("experiment=") for o in overrides):
        experiment = load_experiment(overrides)
    else:
        shown = " ".join(o for o in overrides if o.split("=", 1)[0] not in NOT_NAMED)
        experiment = load_experiment(overrides, default_report={
            "name": sweep_name(overrides), "kind": "checkpoints", "title": f"Sweep: {shown}",
            "paper": "a sweep", "table": shown})
    if against is None:
        return experiment
    if experiment.kind != "checkpoints":
        raise InputError(f"against={against} draws a published table beside a checkpoints report; "
                         f"{experiment.name}'s report is {experiment.kind}")
    outputs = [o for o in overrides if o.startswith("outputs_dir=")]
    paper = load_experiment([f"experiment={against}", f"scale={experiment.scale}", *outputs])
    if paper.kind != "checkpoints" or paper.reference is None:
        raise InputError(f"against={against}: its report is not a published table of scores at checkpoints "
                         "(choose an experiment whose report.kind is checkpoints with a report.reference)")
    return replace(experiment, title=f"{experiment.title}, against {paper.name}",
                   report_source=paper.report_source, reference=paper.reference, value_scale=paper.value_scale,
                   unit=paper.unit, published_rate=paper.published_rate,
                   variants=experiment.variants + tuple(v for v in paper.variants if v not in experiment.variants))


def folder_of(experiment: Experiment) -> Path:
    return experiment.store.root / SWEEPS / experiment.name


def make_sweep(overrides: list[str], against: str | None = None,
               yes: bool = False) -> tuple[Experiment, Path | None]:
    """Print the cost, ask when it is over an hour, make the runs in one pool. Returns the
    experiment and the folder its report goes in (None: an experiment's own, under
    outputs/tables and outputs/figures); run.py writes the report (analysis/report.py)."""
    experiment = load_sweep(overrides, against)
    costs = cost(experiment)  # once: it looks up every run file in the store
    print(describe(experiment, costs), flush=True)
    confirm(wall_seconds(costs), costs[3], yes)
    named = any(o.startswith("experiment=") for o in overrides) and against is None
    folder = None if named else folder_of(experiment)
    if folder is not None:  # its definition first: a sweep stopped half way can be reported on
        folder.mkdir(parents=True, exist_ok=True)
        definition = {"name": experiment.name, "scale": experiment.scale, "against": against,
                      "overrides": [o for o in overrides if not o.startswith(("outputs_dir=", "force="))]}
        (folder / DEFINITION).write_text(yaml.safe_dump(definition, sort_keys=False))
    wanted = [(experiment, v, v.repeats * v.root) for v in experiment.variants]
    records, found = make_runs(wanted, experiment.backend, force=experiment.force)
    starved = sum(experiment.store.starved(record) is not None for record in records)
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
        pending = [r for r, path in enumerate(experiment.run_paths(variant)[:count])
                   if force or store.load_or_set_aside(path) is None]
        found += count - len(pending)
        if pending and variant.job.settings.parallel == "cluster":
            cluster.append((store, variant, count, pending))
        else:  # a threaded search holds every core (backend.n_jobs: 1): one at a time
            (alone if experiment.backend["n_jobs"] == 1 else pooled).extend((variant.job, r) for r in pending)
    if not wanted:
        return [], 0
    store = wanted[0][0].store
    store.remove_stale_temporaries()
    if backend.get("backend", "loky") == "loky":  # every kernel at once, on every core
        compile_kernels([job for job, _ in pooled + alone], backend.get("n_jobs"))
    records = []
    if pooled:
        records += run_runs(pooled, store, label=label or f"{len(pooled)} runs", **backend)
    if alone:
        records += run_runs(alone, store, label=f"{len(alone)} threaded runs", **{**backend, "n_jobs": 1})
    for cluster_store, variant, count, pending in cluster:
        outcome = run_job(variant.job, count, cluster_store, backend=backend.get("backend", "loky"),
                          address=backend.get("address"), force=force, label=variant.label)
        records += [record for r in pending if (record := cluster_store.load_or_set_aside(outcome.paths[r]))]
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
    return load_sweep([*definition["overrides"], f"outputs_dir={outputs_dir}"],
                      definition.get("against") if against else None)


def sweep_folders(root: Path, scale: str | None = None) -> list[Path]:
    """The sweeps stored under outputs_dir ``root`` (at ``scale`` when given), for export and the site."""
    folders = sorted(p.parent for p in (Path(root) / SWEEPS).glob(f"*/{DEFINITION}"))
    return [f for f in folders if scale is None or read_definition(f).get("scale") == scale]
