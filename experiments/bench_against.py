"""This engine against another, in interleaved pairs of runs: `python -m experiments.bench
--against REV` (this checkout against the code at git revision REV, in a temporary worktree);
experiments/bench_cpp.py compares with the C++ reference through the same pairs."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from experiments.store import PROJECT_ROOT


# What ``--against`` compares: NRPA, GNRPA (with a domain bias) and SP-MCTS on SameGame board 1,
# and NRPA on each other domain.
# The code runs in a fresh process of either checkout, so it reads only what every revision
# since the run archive has: the bias was the adapter's ``kernel_bias`` before ``bias_for``.
AGAINST_CODE = """
from dataclasses import replace
from nrpa.domains.registry import (
    BusOptions, MaximumOptions, MorpionOptions, SameGameOptions, TsptwOptions, WeakSchurOptions, make_domain,
)
from nrpa.search import SearchSettings, run_search
try:
    from nrpa.bias import bias_for
except ImportError:
    bias_for = lambda adapter: adapter.kernel_bias
options, settings = {{
    "nrpa": (SameGameOptions(board="1", policy="tabu"), SearchSettings(level=4, N=100)),
    "gnrpa": (SameGameOptions(board="1", policy="selective", threshold=10, bias="tabu"),
              SearchSettings(algorithm="gnrpa", level=4, N=100)),
    "spmcts": (SameGameOptions(board="1", policy="tabu"), SearchSettings(algorithm="spmcts", simulations_per_move=100)),
    "morpion": (MorpionOptions(variant="5D"), SearchSettings(level=4, N=100)),
    "tsptw": (TsptwOptions(instance="rc_204.1", policy="all"), SearchSettings(level=4, N=100)),
    "weakschur": (WeakSchurOptions(parts=7, policy="rule"), SearchSettings(level=4, N=100)),
    "maximum": (MaximumOptions(max_atoms=199), SearchSettings(level=4, N=100)),
    "bus": (BusOptions(model="bus_cpp", delta=0), SearchSettings(level=4, N=100)),
}}["{workload}"]
adapter = make_domain(options)
domain, bias = adapter.kernel_domain(), bias_for(adapter)
run_search(domain, replace(settings, max_time=0.05), bias)  # compile or load from cache
result = run_search(domain, replace(settings, max_time={seconds}, seed=1), bias)
print(result.playouts / result.cpu_seconds)
"""
AGAINST_WORKLOADS = {"nrpa": "NRPA level 4, tabu", "gnrpa": "GNRPA level 4, selective t = 10, bias tabu",
                     "spmcts": "SP-MCTS S = 100, tabu", "morpion": "NRPA level 4, Morpion 5D",
                     "tsptw": "NRPA level 4, TSPTW rc_204.1, all moves", "weakschur": "NRPA level 4, Weak Schur WS(7), rule",
                     "maximum": "NRPA level 4, Maximum, 199 atoms", "bus": "NRPA level 4, bus regulation, standard"}
# The workloads `--against` runs unless told: the three algorithms on SameGame. The domains
# (Morpion, TSPTW, ...) are asked for by name, e.g. `--workloads nrpa morpion tsptw`.
DEFAULT_AGAINST = ["nrpa", "gnrpa", "spmcts"]




def against(revision: str, pairs: int, seconds: float, workloads: list[str]) -> dict[str, list[float]]:
    """Playouts per CPU-second of this checkout over those of the code at ``revision``, for
    each of ``workloads`` (names of ``AGAINST_WORKLOADS``), in ``pairs`` interleaved pairs of fresh processes
    of ``seconds`` each. Pairs, for the reason experiments/bench.py's ``thread_speedup`` gives."""
    with tempfile.TemporaryDirectory() as scratch:
        worktree = Path(scratch) / "checkout"
        subprocess.run(["git", "worktree", "add", "--detach", str(worktree), revision], cwd=PROJECT_ROOT,
                       check=True, capture_output=True)
        # `python -c` in a folder imports that folder's packages before the installed ones
        trees = {"this": (PROJECT_ROOT, {}), "that": (worktree, {"NRPA_CACHE_ROOT": str(Path(scratch) / "cache")})}

        def rate(tree: str, workload: str) -> float:
            folder, environment = trees[tree]
            code = AGAINST_CODE.format(workload=workload, seconds=seconds)
            done = subprocess.run([sys.executable, "-c", code], cwd=folder, env={**os.environ, **environment},
                                  check=True, capture_output=True, text=True)
            return float(done.stdout.split()[-1])

        try:
            for workload in workloads:
                rate("this", workload), rate("that", workload)  # compile or load from cache
            return interleaved_ratios(rate, {workload: AGAINST_WORKLOADS[workload] for workload in workloads},
                                      pairs, ("this", revision))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=PROJECT_ROOT,
                           capture_output=True)


def interleaved_ratios(rate, workloads: dict[str, str], pairs: int, names: tuple[str, str]) -> dict[str, list[float]]:
    """Each pair's ratio (this / that, playouts per CPU-second) per workload of ``workloads``
    (key -> its words), ``rate(engine, key)`` measuring engine "this" or "that"; which goes
    first alternates from pair to pair, so that a drift of the machine's speed favours
    neither. Each pair is printed as it comes, the engines called ``names``."""
    ratios = {key: [] for key in workloads}
    for pair in range(pairs):
        for key, words in workloads.items():
            order = ("this", "that") if pair % 2 == 0 else ("that", "this")
            rates = {engine: rate(engine, key) for engine in order}
            ratios[key].append(rates["this"] / rates["that"])
            print(f"pair {pair + 1}, {words}: {names[0]} {rates['this']:,.0f}, {names[1]} {rates['that']:,.0f} "
                  f"playouts per CPU-second, ratio {ratios[key][-1]:.3f}", flush=True)
    return ratios


def ratio_summary(ratios: list[float], runs: str) -> str:
    """The median and the range of a comparison's pairs' ratios; ``runs`` says what a pair's runs are."""
    return (f"median ratio {statistics.median(ratios):.3f} over {len(ratios)} pairs of {runs} "
            f"(range {min(ratios):.3f} to {max(ratios):.3f})")
