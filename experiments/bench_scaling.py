"""`make bench`'s scaling figure (alone: `python -m experiments.bench --scaling-only`):
playouts per wall-second of root parallelism and of leaf parallelism with thread-local policies
on 1, 2, ... os.cpu_count() workers, written to outputs/bench/scaling.{csv,png}."""

from __future__ import annotations

import csv
import multiprocessing
import os
from dataclasses import replace
from functools import partial
from pathlib import Path

from nrpa.domains.registry import SameGameOptions, make_domain
from nrpa.search import SearchSettings, run_search


# The scaling figure: playouts per wall-second on 1, 2, ... cores of root parallelism (independent
# searches in as many processes, their rates summed as a root run's playouts are,
# experiments.root_parallel) and of leaf parallelism with thread-local policies (one search whose
# level-1 calls run on threads). SameGame board 1, tabu, NRPA level 4, N = 100.
SCALING = {"root": "root (independent searches, one process each)",
           "leaf_thread_local": "leaf, thread-local policies (one search, threads)"}


_root_barrier = None  # in a root member's process: set by _set_root_barrier


def _set_root_barrier(barrier) -> None:
    """Pool initializer: the barrier at which the root members start their measured runs together."""
    global _root_barrier
    _root_barrier = barrier


def _root_member(seed: int, seconds: float) -> float:
    domain = make_domain(SameGameOptions(board="1", policy="tabu")).kernel_domain()
    settings = SearchSettings(level=4, N=100, clock="wall", max_time=0.05)
    run_search(domain, settings)  # compile or load from cache, which takes each process its own time
    _root_barrier.wait(timeout=600)
    result = run_search(domain, replace(settings, max_time=seconds, seed=seed))
    return result.playouts / result.wall_seconds


def root_rate(workers: int, seconds: float) -> float:
    """Playouts per wall-second of ``workers`` searches (seeds 1..workers) in as many processes at once."""
    context = multiprocessing.get_context("spawn")  # no fork of a process whose numba threads have run
    with context.Pool(workers, initializer=_set_root_barrier, initargs=(context.Barrier(workers),)) as pool:
        # each member waits at the barrier, so no process takes a second member
        return sum(pool.map(partial(_root_member, seconds=seconds), range(1, workers + 1), chunksize=1))


def leaf_thread_local_rate(threads: int, seconds: float) -> float:
    """Playouts per wall-second of one search whose level-1 calls run on ``threads`` threads."""
    domain = make_domain(SameGameOptions(board="1", policy="tabu")).kernel_domain()
    settings = SearchSettings(level=4, N=100, parallel="thread_local", parallel_level=1, threads=threads,
                              clock="wall", max_time=0.05)
    run_search(domain, settings)  # compile or load from cache
    result = run_search(domain, replace(settings, max_time=seconds, seed=1))
    return result.playouts / result.wall_seconds


def scaling(seconds: float, folder: Path) -> list[Path]:
    """Each strategy of ``SCALING`` on 1 .. os.cpu_count() workers, ``seconds`` of wall time a
    point, printed, then written to ``folder``/scaling.csv and scaling.png; returns both paths."""
    rates = {"root": root_rate, "leaf_thread_local": leaf_thread_local_rate}
    workers = range(1, (os.cpu_count() or 1) + 1)
    points = {strategy: [] for strategy in SCALING}
    for count in workers:
        for strategy, words in SCALING.items():
            points[strategy].append(rates[strategy](count, seconds))
            print(f"scaling, {words}, {count} workers: {points[strategy][-1]:,.0f} playouts per wall-second "
                  f"({seconds:g} s)", flush=True)
    folder.mkdir(parents=True, exist_ok=True)
    table = folder / "scaling.csv"
    with table.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["strategy", "workers", "playouts_per_wall_second", "seconds"])
        writer.writerows((strategy, count, f"{rate:.1f}", seconds)
                         for strategy in SCALING for count, rate in zip(workers, points[strategy]))
    figure = folder / "scaling.png"
    plot_scaling(workers, points, figure)
    return [table, figure]


def plot_scaling(workers: range, points: dict[str, list[float]], path: Path) -> None:
    """The rates of ``scaling`` against the workers, with the linear speed-up from root's first point."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on the machines this runs on
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots(figsize=(6, 4))
    for strategy, words in SCALING.items():
        ax.plot(workers, points[strategy], marker="o", label=words)
    ax.plot(workers, [count * points["root"][0] for count in workers], linestyle=":", color="0.5",
            label="linear: workers x root's rate on 1")
    ax.set_xticks(list(workers))
    ax.set_xlabel("workers (processes or threads)")
    ax.set_ylabel("playouts per wall-second")
    ax.set_title(f"NRPA level 4, N = 100, SameGame board 1 (tabu), {os.cpu_count()} cores")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    figure.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(figure)
