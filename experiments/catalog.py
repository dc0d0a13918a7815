"""`make list`: every experiment with its paper, table, make target and cost at each scale.

    python -m experiments.catalog [NAME ...]   (every experiment, or the ones named)

Each experiment is what ``load_experiment`` composes, job by job, as the sweep would. For every
experiment at every scale that takes a minute or two, so the composed experiments are kept in
``.catalog_cache/<key>.pickle`` under the project root (git ignores the folder; deleting it is
always safe). The key is a hash of everything they are made from: the path and bytes of every
file under conf/, experiments/ and nrpa/ (code and instance data), the versions of Hydra,
OmegaConf and PyYAML, and the Python version. A change to any of them gives a new key, and the
next listing composes afresh (the minute again), so a cached experiment is never stale. The
runs already done are counted from the store every time.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pickle
import sys
import tempfile
from pathlib import Path

from experiments.config import exit_on_input_error
from experiments.estimate import cost, duration
from experiments.experiment import Experiment, experiment_names, load_experiment
from experiments.store import PROJECT_ROOT
from nrpa.errors import InputError

SCALES = ("smoke", "quick", "paper")
CACHE_DIR = PROJECT_ROOT / ".catalog_cache"
KEYED_FOLDERS = ("conf", "experiments", "nrpa")  # hashed file by file, content included
COMPOSING_PACKAGES = ("hydra-core", "omegaconf", "PyYAML")  # their versions


def main(names: list[str] | None = None) -> None:
    known = experiment_names()
    for name in names or []:
        if name not in known:
            raise InputError(f"no experiment {name!r}: choose among {', '.join(known)}")
    names = names or known
    experiments = load_experiments(names)
    for name in names:
        first = experiments[name, "smoke"]
        print(f"make {name.replace('_', '-')}   ({first.title})")
        print(f"    {first.report_source}")
        for scale in SCALES:
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
    """Write atomically (a temporary file renamed), and remove the caches of other inputs."""
    try:
        CACHE_DIR.mkdir(exist_ok=True)
        ignore = CACHE_DIR / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# the catalog's cache (experiments/catalog.py)\n*\n")
        with tempfile.NamedTemporaryFile(dir=CACHE_DIR, suffix=".partial", delete=False) as file:
            try:
                pickle.dump(experiments, file, protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException:
                os.unlink(file.name)
                raise
        os.replace(file.name, path)
        for other in CACHE_DIR.glob("*.pickle"):
            if other != path:
                other.unlink(missing_ok=True)
    except OSError:
        pass


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except InputError as error:
        exit_on_input_error(error)
