"""Shared helpers: small random boards, reading a kernel state back as a cell grid, the
harness's commands run in this process (``cli``: most tests) or in a new one (``python``)."""

from __future__ import annotations

import contextlib
import io
import os
import runpy
import signal
import subprocess
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hydra.core.global_hydra import GlobalHydra

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


@pytest.fixture(autouse=True)
def no_project_archive(monkeypatch):
    """Tests make their own runs: the project's committed archive (archive/) must not hand them
    runs made elsewhere (a test expecting a run to be made would find it archived). Subprocesses
    inherit the variable; tests of the archive give their own folder."""
    monkeypatch.setenv("NRPA_ARCHIVE", "none")


@pytest.fixture
def tmp_outputs(tmp_path):
    return tmp_path / "outputs"


def run_experiment(name: str, outputs: Path, scale: str = "smoke") -> None:
    """``run.py -m experiment=NAME`` then ``analysis.results.report`` into ``outputs``, as `make` does
    (in this process: see ``cli``)."""
    for command in (["run.py", "-m"], ["-m", "analysis.results.report"]):
        done = cli(*command, f"experiment={name}", f"scale={scale}", f"outputs_dir={outputs}")
        assert done.returncode == 0, done.stderr


def python(*arguments: str, env: dict | None = None, wait: bool = True, cwd: Path = PROJECT_ROOT, **kwargs):
    """``python ARGUMENTS`` in a new interpreter, for what needs its own process (a signal, a
    fresh kernel cache, another process's random stream); ``env`` is added to the
    environment. Returns the CompletedProcess (text), or with ``wait=False`` the Popen of a
    new session (``os.killpg`` reaches its workers) in which Ctrl-C (SIGINT) interrupts, as in a
    terminal, even when the tests themselves run with SIGINT ignored (as a background job of
    a non-interactive shell does, and Python keeps an ignored SIGINT ignored)."""
    command = [sys.executable, *arguments]
    environment = {**os.environ, **(env or {})}
    if not wait:
        return subprocess.Popen(command, cwd=cwd, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, preexec_fn=_interruptible, **kwargs)
    return subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True, **kwargs)


def small_job(P=1, **settings) -> Job:
    """A job on board 1 that stops after 300 playouts, so its runs are exactly reproducible."""
    options = {"level": 2, "N": 10, "P": P, "max_time": None, "max_playouts": 300, **settings}
    algorithm = "nrpa" if P == 1 else "snrpa"
    return Job(SameGameOptions(board="1"), SearchSettings(algorithm=algorithm, **options))


def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@dataclass(frozen=True)
class Completed:
    returncode: int
    stdout: str
    stderr: str


def cli(*arguments: str) -> Completed:
    """``python ARGUMENTS`` (``run.py ...`` or ``-m module ...``) run in this process, as its
    ``__main__``: exit status, standard output and error. A traceback lands in stderr with
    status 1, as Python would print it. For commands that end before any search: a new
    interpreter costs a second or more, this a few milliseconds."""
    if arguments[0] == "-m":
        name, rest = arguments[1], arguments[2:]
        sys.modules.pop(name, None)  # imported by another module already: runpy would warn
        start = lambda: runpy.run_module(name, run_name="__main__", alter_sys=True)  # noqa: E731
    else:
        name, rest = str(PROJECT_ROOT / arguments[0]), arguments[1:]
        start = lambda: runpy.run_path(name, run_name="__main__")  # noqa: E731
    stdout, stderr = io.StringIO(), io.StringIO()
    saved_argv = sys.argv
    sys.argv = [name, *rest]
    GlobalHydra.instance().clear()
    code = 0
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                start()
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
            except Exception:
                traceback.print_exc()
                code = 1
    finally:
        sys.argv = saved_argv
        GlobalHydra.instance().clear()
    return Completed(code, stdout.getvalue(), stderr.getvalue())
