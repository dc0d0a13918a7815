"""Shared helpers: small random boards and reading a kernel state back as a cell grid."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from experiments.runs import Job
from experiments.store import PROJECT_ROOT
from nrpa.domains.registry import SameGameOptions
from nrpa.search import SearchSettings


def random_rows(seed: int, height: int, width: int, colours: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return rng.integers(0, colours, size=(height, width)).tolist()


def kernel_grid(domain, state) -> list[list[int | None]]:
    """The kernel state as grid[row][col] (row 0 at the top, None empty)."""
    width, height = int(domain.width), int(domain.height)
    grid = [[None] * width for _ in range(height)]
    for index, colour in enumerate(domain.colours):
        for x in range(width):
            bits = int(state.masks[index, x])
            for k in range(height):
                if bits >> k & 1:
                    assert grid[height - 1 - k][x] is None, "two colours in one cell"
                    grid[height - 1 - k][x] = int(colour)
    return grid


@pytest.fixture
def tmp_outputs(tmp_path):
    return tmp_path / "outputs"


def run_experiment(name: str, outputs: Path, scale: str = "smoke") -> None:
    """``run.py -m experiment=NAME`` then ``analysis.report`` into ``outputs``, as `make` does."""
    for command in (["run.py", "-m"], ["-m", "analysis.report"]):
        done = subprocess.run([sys.executable, *command, f"experiment={name}", f"scale={scale}",
                               f"outputs_dir={outputs}"], cwd=PROJECT_ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr



def small_job(P=1, **settings) -> Job:
    """A job on board 1 that stops after 300 playouts, so its runs are exactly reproducible."""
    options = {"level": 2, "N": 10, "P": P, "max_time": None, "max_playouts": 300, **settings}
    algorithm = "nrpa" if P == 1 else "snrpa"
    return Job(SameGameOptions(board="1"), SearchSettings(algorithm=algorithm, **options))
