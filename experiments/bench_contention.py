"""Threaded kernels under load (`make bench`'s contention line; alone: `python -m experiments.bench
--contention`): leaf parallel NRPA (shared and thread-local policy, L = 1, 2 threads; SameGame
board 1, tabu, level 4, N = 100) in playouts per wall-second in three cases:

* alone: one threaded run, nothing else running;
* beside a hog: one threaded run beside a process that spins on one core;
* two at once: two threaded runs started together (the figure is their mean).

Each run is a fresh process that loads its kernels, then waits until every process of its case
is ready, so that the measured windows overlap. The cases are interleaved, pair after pair (and
the threading layers, when several are compared: ``--layers omp tbb`` sets the code before and
after nrpa/threading_layer.py side by side), so that a drift of the machine's speed favours none.

What a run may expect under load is the idle rate per core times the cores it gets: its fair
share of the machine under the kernel's scheduler (the hog's one thread and the run's M threads
share C cores: C x M / (M + 1); two runs of M threads share C cores: C / 2), never more than M.
The line prints, per case, that ratio to the idle rate per core; the goal is at least 0.5.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from contextlib import ExitStack

from experiments.store import PROJECT_ROOT

CASES = ("alone", "beside a hog", "two at once")
KERNELS = ("shared", "thread_local")
THREADS = 2

_RUN = """
import sys
from dataclasses import replace
from nrpa.domains.registry import SameGameOptions, make_domain
from nrpa.search import SearchSettings, run_search
from nrpa.threading_layer import threading_layer_name
domain = make_domain(SameGameOptions(board="1", policy="tabu")).kernel_domain()
settings = SearchSettings(level=4, N=100, parallel="{parallel}", parallel_level=1, threads={threads}, clock="wall",
                          max_time=0.05)
run_search(domain, settings)  # compile or load from the cache, before the measured window
print("ready", flush=True)
sys.stdin.readline()
result = run_search(domain, replace(settings, max_time={seconds}, seed={seed}))
print(threading_layer_name(), result.playouts / result.wall_seconds, flush=True)
"""
_HOG = "while True:\n    pass"


def cores(case: str, threads: int = THREADS) -> float:
    """The cores a run of ``threads`` threads gets in ``case`` (its fair share; see the module's doc)."""
    machine = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    share = {"alone": machine, "beside a hog": machine * threads / (threads + 1), "two at once": machine / 2}[case]
    return min(threads, share)


def _measure(case: str, parallel: str, layer: str | None, seconds: float, seed: int) -> float:
    """Playouts per wall-second of the threaded run(s) of ``case`` (the mean of two at once)."""
    environment = {**os.environ, **({"NUMBA_THREADING_LAYER": layer} if layer else {})}
    code = _RUN.format(parallel=parallel, threads=THREADS, seconds=seconds, seed=seed)
    with ExitStack() as stack:
        runs = [stack.enter_context(subprocess.Popen([sys.executable, "-c", code], cwd=PROJECT_ROOT, env=environment,
                                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
                for _ in range(2 if case == "two at once" else 1)]
        for run in runs:
            if run.stdout.readline().strip() != "ready":
                raise RuntimeError(f"a contention run ended before its measured window (status {run.wait()})")
        hog = subprocess.Popen([sys.executable, "-c", _HOG]) if case == "beside a hog" else None
        try:
            for run in runs:
                run.stdin.write("go\n")
                run.stdin.flush()
            outputs = [run.stdout.readline().split() for run in runs]
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()
        for run in runs:
            run.wait()
    names = {words[0] for words in outputs}
    if layer and names != {layer}:
        raise RuntimeError(f"asked for the {layer} threading layer, the runs used {', '.join(sorted(names))}")
    return statistics.mean(float(words[1]) for words in outputs)


def contention(pairs: int, seconds: float, layers: list[str | None]) -> dict:
    """{(kernel, layer, case): [rates]}, ``pairs`` rounds of every case and layer, their order
    reversed every other round."""
    rates = {}
    for pair in range(pairs):
        order = [(kernel, layer, case) for kernel in KERNELS for layer in layers for case in CASES]
        for kernel, layer, case in order if pair % 2 == 0 else reversed(order):
            rates.setdefault((kernel, layer, case), []).append(_measure(case, kernel, layer, seconds, seed=pair + 1))
    return rates


def contention_lines(rates: dict, pairs: int, seconds: float) -> list[str]:
    """One line per kernel and layer: the median rate of each case, and its ratio per core to
    the idle rate per core (goal: >= 0.5)."""
    lines = []
    for kernel, layer in dict.fromkeys((kernel, layer) for kernel, layer, _ in rates):
        idle = statistics.median(rates[kernel, layer, "alone"]) / cores("alone")
        parts = []
        for case in CASES:
            rate = statistics.median(rates[kernel, layer, case])
            parts.append(f"{case} {rate:,.0f} (x{rate / cores(case) / idle:.2f} of the idle rate per core)")
        name = layer or os.environ.get("NUMBA_THREADING_LAYER", "numba's default")
        lines.append(f"contention, leaf parallel NRPA, {kernel} policy, {THREADS} threads, {name} layer, "
                     f"{pairs} rounds of {seconds:g} s runs, playouts per wall-second (medians): {'; '.join(parts)}; "
                     "goal x0.50 or more in each case")
    return lines
