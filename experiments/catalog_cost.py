"""`make list COST=1` (``python -m experiments.catalog --cost [NAME ...]``): each experiment
target with its paper, table and cost at each scale, and the runs the store holds already.

Each experiment is what ``load_experiment`` composes, job by job, as the sweep would. For every
experiment at every scale that takes a minute or two, so the composed experiments are kept in
``.catalog_cache/<key>.pickle`` under the project root (git ignores the folder; deleting it is
always safe). The key is a hash of everything they are made from: the path and bytes of every
file under conf/, experiments/ and nrpa/ (code and instance data), the versions of Hydra,
OmegaConf and PyYAML, and the Python version. A change to any of them gives a new key, and the
next listing composes afresh (the minute again), so a cached experiment is never stale. The
runs already done are counted from the store every time. A neural table (the Makefile's
NEURAL_TABLES) has no sweep to compose: its cost is the plan experiments/neural.py prints first.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import pickle
import sys
from pathlib import Path

from experiments.experiment_targets import entries, neural_step
from experiments.estimate import cost, duration
from experiments.experiment import Experiment, load_experiment
from experiments.neural import plan
from experiments.store import PROJECT_ROOT, write_atomically

SCALES = ("smoke", "quick", "paper")
CACHE_DIR = PROJECT_ROOT / ".catalog_cache"
KEYED_FOLDERS = ("conf", "experiments", "nrpa")  # hashed file by file, content included
COMPOSING_PACKAGES = ("hydra-core", "omegaconf", "PyYAML")  # their versions


def main(targets: list[str]) -> None:
    """Print each experiment target of ``targets`` (experiments.catalog checked them) with its cost."""
    names = [target.replace("-", "_") for target in targets]
    composed = [name for name in names if (PROJECT_ROOT / "conf" / "experiment" / f"{name}.yaml").is_file()]
    experiments = load_experiments(composed)
    for target, title, source in entries(targets):
        print(f"make {target}   ({title})")
        print(f"    {source}")
        name = target.replace("-", "_")
        for scale in SCALES:
            if name not in composed:  # a neural table: its cost is its plan
                print(f"    SCALE={scale:<6} {plan(scale, neural_step(target))}")
                continue
            experiment = experiments[name, scale]
            runs, to_make, seconds, workers = cost(experiment)
            spent = "no time budget: unknown" if seconds is None else (
                f"{seconds / 3600:.2f} h of run budgets, about {duration(seconds / workers)} on {workers} "
                f"worker process{'es' if workers > 1 else ''}")
            print(f"    SCALE={scale:<6} {len(experiment.variants)} jobs, {runs} runs ({runs - to_make} done): {spent}")
        print()


def load_experiments(names: list[str]) -> dict[tuple[str, str], Experiment]:
    """``load_experiment([experiment=NAME, scale=SCALE])`` for each name and scale, from the
    cache when it holds them for the present inputs (a cache that cannot be read or written
    only makes the listing slower)."""
    path = CACHE_DIR / f"{inputs_key()}.pickle"
    # A pickle (the composed Experiment objects, not JSON-able as they are) runs what it names when
    # read, so only the project's own file is read: this module writes it (_write_cache) in the
    # project's own ignored folder, and whoever can write there can edit conf/ and nrpa/ as well.
    # Nothing that comes from elsewhere (archive packs, run files, checkpoints) is ever unpickled.
    try:
        with path.open("rb") as file:
            experiments = pickle.load(file)
    except Exception:  # noqa: BLE001  (no cache for these inputs yet, or a damaged one)
        experiments = {}
    missing = [(name, scale) for name in names for scale in SCALES if (name, scale) not in experiments]
    for name, scale in missing:
        experiments[name, scale] = load_experiment([f"experiment={name}", f"scale={scale}"])
    for name in names:
        for scale in SCALES:
            experiments[name, scale].store.check()  # as load_experiment does
    if missing:
        _write_cache(path, experiments)
    return experiments


def inputs_key() -> str:
    """A hash of everything ``load_experiment`` reads to compose an experiment (module docstring)."""
    digest = hashlib.sha256()
    versions = [importlib.metadata.version(package) for package in COMPOSING_PACKAGES]
    digest.update(f"{sys.version}\0{versions}\0".encode())
    for folder in KEYED_FOLDERS:
        for path in sorted((PROJECT_ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(PROJECT_ROOT).as_posix()}\0".encode())
                digest.update(hashlib.sha256(_read(path)).digest())
    return digest.hexdigest()[:24]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # removed (or made unreadable) while listing: the key changes all the same
        return b"\0unreadable"


def _write_cache(path: Path, experiments: dict) -> None:
    """Write atomically (experiments.store.write_atomically), and remove the caches of other inputs."""
    try:
        CACHE_DIR.mkdir(exist_ok=True)
        ignore = CACHE_DIR / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# the catalog's cache (experiments/catalog_cost.py)\n*\n")
        write_atomically(path, pickle.dumps(experiments, protocol=pickle.HIGHEST_PROTOCOL))
        for other in CACHE_DIR.glob("*.pickle"):
            if other != path:
                other.unlink(missing_ok=True)
    except OSError:
        pass
