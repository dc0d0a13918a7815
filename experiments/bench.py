"""Speed benchmark of the engine (`make bench`): SameGame board 1, NRPA level 4, N = 100,
with the `tabu` and the `none` playout rule, about 20 CPU-seconds each, and the other
domains (Weak Schur, Maximum, TSPTW, bus regulation, Morpion) at 5 CPU-seconds each, and leaf
parallelisation (shared and thread-local policy) on 1 and 2 threads, in playouts per
wall-second (five interleaved pairs of 4 s runs each), the scaling figure (playouts per
wall-second of root parallelism and of leaf parallelism with thread-local policies on 1, 2, ...
os.cpu_count() workers, 2.5 s a point, written to outputs/bench/scaling.{csv,png}), and GNRPA's
playouts per CPU-second over NRPA's with a domain bias on SameGame and TSPTW (the same
playouts, fastest of seven).

Prints playouts per CPU-second for both, what reading the budget clock after every
playout costs as a share of the run, the cold start of `python run.py` with a warm
cache (process start to the end of a one-playout run, an upper bound on the time to the
first playout), and the start of a threaded run (`parallel=shared threads=2`) with an empty
kernel cache (everything compiled) and then with that cache (everything loaded). The last
line is `playouts_per_cpu_second: <tabu figure>`.

    python -m experiments.bench --level1 [--seconds S]

prints instead where a level-1 NRPA iteration (one playout, one Adapt) spends its time on
SameGame board 1 (tabu), Morpion 5D and TSPTW rc_204.1 (all moves): microseconds of playout
and of Adapt, on the wall clock, in level-1 calls of N = 100 from a uniform policy for about
S / 4 seconds, and how many legal moves a playout lists (each is a policy look-up in the
playout and in Adapt); then, for the same domains, what a move of the game alone costs:
uniform games recorded, then replayed with and without listing the legal moves before each
move (nanoseconds of listing and of playing, the fastest of three rounds).

    python -m experiments.bench --contention [--pairs 3] [--seconds 20] [--layers omp tbb]

prints instead the contention line alone: the threaded kernels' playouts per wall-second alone,
beside a CPU hog and two runs at once (experiments/bench_contention.py), each layer named by
--layers side by side (omp: numba's default here, before nrpa/threading_layer.py chose TBB).

    python -m experiments.bench --refcounts

counts instead numba's atomic reference counts on the hot paths of every domain in the compiled
code, against their committed budgets (experiments/refcounts.py; exit status 1 over budget).

    python -m experiments.bench --scaling-only [--outputs-dir DIR]

makes the scaling figure alone (its points take --seconds / 8 each, 2.5 s by default;
experiments/bench_scaling.py).

    python -m experiments.bench --against REV [--pairs 9] [--seconds 5] [--workloads nrpa gnrpa spmcts ...]

compares instead this checkout with the code at git revision REV (a temporary worktree, with
its own kernel cache): by default on SameGame board 1, NRPA (tabu), GNRPA (selective t = 10,
tabu bias) and SP-MCTS (S = 100, tabu); the workloads morpion, tsptw, weakschur, maximum and bus
add NRPA level 4 on the other domains, as above. The runs are interleaved pairs of fresh processes,
which one goes first alternating; it prints each pair's ratio (this / REV), and per workload their
median and range (experiments/bench_against.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from numba import njit

from experiments import refcounts
from experiments.bench_against import AGAINST_WORKLOADS, DEFAULT_AGAINST, against, ratio_summary
from experiments.bench_contention import contention, contention_lines
from experiments.bench_scaling import scaling
from experiments.store import PROJECT_ROOT
from nrpa.bias import bias_for
from nrpa import nested, policy as pol
from nrpa.clock import CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID, read_clock
from nrpa.run import new_run, start_clocks
from nrpa.domains.contract import code_bound, legal_moves, max_length, max_moves, new_state, play, reset
from nrpa.domains.registry import (
    BusOptions, MaximumOptions, MorpionOptions, SameGameOptions, TsptwOptions, WeakSchurOptions, make_domain,
)
from nrpa.search import SearchSettings, kernel_params, run_search


# The other domains, on the paper tables' settings (NRPA level 4, N = 100).
OTHER_DOMAINS = {
    "Weak Schur WS(7), rule": WeakSchurOptions(parts=7, policy="rule"),
    "Weak Schur WS(7), standard": WeakSchurOptions(parts=7, policy="standard"),
    "Maximum, 199 atoms": MaximumOptions(max_atoms=199),
    "TSPTW rc_204.1, all moves": TsptwOptions(instance="rc_204.1", policy="all"),
    "TSPTW rc_204.1, pruned": TsptwOptions(instance="rc_204.1", policy="pruned"),
    "Bus regulation, standard": BusOptions(model="bus_cpp", delta=0),  # bus.cpp's, as the C++ reference
    "Bus regulation, delta = 4": BusOptions(model="bus_cpp", delta=4),
    "Morpion 5D": MorpionOptions(variant="5D"),
    "Morpion 5T": MorpionOptions(variant="5T"),
}


def playouts_per_cpu_second(options, seconds: float, settings: SearchSettings | None = None) -> float:
    """Playouts per CPU-second of ``settings`` (NRPA level 4, N = 100 by default) on ``options``."""
    domain = make_domain(options).kernel_domain()
    settings = settings or SearchSettings(level=4, N=100)
    run_search(domain, replace(settings, max_time=0.05))  # compile or load from cache
    result = run_search(domain, replace(settings, max_time=seconds, seed=1))
    return result.playouts / result.cpu_seconds


@njit(cache=True)
def _read_cpu_clock(times):
    scratch = np.zeros(2, dtype=np.int64)
    total = 0.0
    for _ in range(times):
        total += read_clock(CLOCK_PROCESS_CPUTIME_ID, scratch)
    return total


def clock_read_seconds(times: int = 1_000_000) -> float:
    """CPU seconds one read of the CPU-time clock costs in nopython code."""
    _read_cpu_clock(10)
    start = time.process_time()
    _read_cpu_clock(times)
    return (time.process_time() - start) / times


@njit(cache=True)
def _level1_iterations(domain, params, iterations):
    """``iterations`` level-1 iterations: a playout on row 1, kept when it scores >= the
    best, then Adapt toward the best, in calls of N iterations each from a uniform policy (a
    single long call drives the weights to where exp takes its slow path). Returns the wall
    seconds of the playouts, of keeping the best and adapting (the keeping is a copy now and
    then), and the legal moves the playouts listed."""
    np.random.seed(params.seed)
    run = new_run(domain, params)
    ws = nested._new_workspace(domain, 1, params)
    policy = pol.new_policy(1, params.policy_capacity_bits, code_bound(domain))
    scratch = np.zeros(2, dtype=np.int64)
    start_clocks(run)
    best = -np.inf
    playing = adapting = 0.0
    listed = 0
    for iteration in range(iterations):
        if iteration % params.iterations == 0:
            pol.clear(policy, 1)
            best = -np.inf
        start = read_clock(CLOCK_MONOTONIC, scratch)
        value = nested._policy_playout(domain, ws, policy, 1, run, params)
        played = read_clock(CLOCK_MONOTONIC, scratch)
        listed += ws.seq_starts[0, ws.seq_len[0]]
        if value >= best:
            best = value
            nested.copy_sequence(ws, 0, ws, 1)
        nested.adapt(ws, policy, 1, 1, nested.adapt_step(params))
        adapting += read_clock(CLOCK_MONOTONIC, scratch) - played
        playing += played - start
    return playing, adapting, listed


LEVEL1_DOMAINS = {"SameGame board 1, tabu": SameGameOptions(board="1", policy="tabu"),
                  **{name: OTHER_DOMAINS[name] for name in ("Morpion 5D", "TSPTW rc_204.1, all moves")}}


def level1_split(seconds: float) -> list[str]:
    """Per domain of ``LEVEL1_DOMAINS``: microseconds of playout and of Adapt per level-1
    iteration (level-1 calls of N = 100 from a uniform policy, about ``seconds`` of them), and
    the legal moves a playout lists. Wall-clock times: run it on an idle machine."""
    lines = []
    for name, options in LEVEL1_DOMAINS.items():
        domain = make_domain(options).kernel_domain()
        params = kernel_params(SearchSettings(level=1, N=100, seed=1))
        playing, adapting, _ = _level1_iterations(domain, params, 1000)  # compiles, and sizes the run
        iterations = max(1000, int(1000 * seconds / (playing + adapting)))
        playing, adapting, listed = _level1_iterations(domain, params, iterations)
        lines.append(f"{name}: playout {playing / iterations * 1e6:.2f} µs, Adapt {adapting / iterations * 1e6:.2f} µs "
                     f"({100 * adapting / (playing + adapting):.0f}% of a level-1 iteration), "
                     f"{listed / iterations:.0f} legal moves listed a playout ({iterations:,} iterations)")
    return lines


@njit(cache=True)
def _max_length(domain):
    return max_length(domain)


@njit(cache=True)
def _uniform_games(domain, games, seed, sequences, lengths):
    """Play ``games`` games with uniform draws; record each game's moves in ``sequences``."""
    np.random.seed(seed)
    state = new_state(domain)
    moves = np.zeros(max_moves(domain), dtype=np.int64)
    codes = np.zeros(max_moves(domain), dtype=np.int64)
    for game in range(games):
        reset(domain, state)
        length = 0
        while True:
            n = legal_moves(domain, state, moves, codes)
            if n == 0:
                break
            sequences[game, length] = moves[np.random.randint(n)]
            play(domain, state, sequences[game, length])
            length += 1
        lengths[game] = length


@njit(cache=True)
def _replay_games(domain, sequences, lengths, listing):
    """Play the recorded games again, listing the legal moves before each move when
    ``listing``; returns the wall seconds and the moves listed."""
    state = new_state(domain)
    moves = np.zeros(max_moves(domain), dtype=np.int64)
    codes = np.zeros(max_moves(domain), dtype=np.int64)
    scratch = np.zeros(2, dtype=np.int64)
    listed = 0
    start = read_clock(CLOCK_MONOTONIC, scratch)
    for game in range(lengths.size):
        reset(domain, state)
        for t in range(lengths[game]):
            if listing:
                listed += legal_moves(domain, state, moves, codes)
            play(domain, state, sequences[game, t])
    return read_clock(CLOCK_MONOTONIC, scratch) - start, listed


def game_step_split(seconds: float, games: int = 2000) -> list[str]:
    """Per domain of ``LEVEL1_DOMAINS``: nanoseconds per move of listing the legal moves and of
    playing one, in ``games`` uniform games replayed (with and without the listing) about
    ``seconds`` in all, the fastest of three rounds. The domain's game alone: no policy."""
    lines = []
    for name, options in LEVEL1_DOMAINS.items():
        domain = make_domain(options).kernel_domain()
        sequences = np.zeros((games, _max_length(domain)), dtype=np.int64)
        lengths = np.zeros(games, dtype=np.int64)
        _uniform_games(domain, games, 1, sequences, lengths)
        steps = int(lengths.sum())
        playing, _ = _replay_games(domain, sequences, lengths, False)  # compiles
        both, listed = _replay_games(domain, sequences, lengths, True)
        rounds = max(1, int(seconds / 3 / (playing + both)))
        playing = min(sum(_replay_games(domain, sequences, lengths, False)[0] for _ in range(rounds)) for _ in range(3))
        both = min(sum(_replay_games(domain, sequences, lengths, True)[0] for _ in range(rounds)) for _ in range(3))
        per_step = 1e9 / (rounds * steps)
        lines.append(f"{name}, uniform games: listing the legal moves {(both - playing) * per_step:.0f} ns and playing one "
                     f"{playing * per_step:.0f} ns a move ({steps / games:.1f} moves a game, {listed / steps:.1f} "
                     f"legal moves a step)")
    return lines


def run_py_seconds(arguments: list[str], times: int, cache_root: str | None = None) -> list[float]:
    """Wall time of each of ``times`` runs of `python run.py ARGUMENTS force=true`, one after
    the other, into a scratch store; with ``cache_root``, kernels are cached there instead of
    in the project's cache."""
    command = [sys.executable, str(PROJECT_ROOT / "run.py"), *arguments, "force=true"]
    environment = {**os.environ, **({"NRPA_CACHE_ROOT": cache_root} if cache_root else {})}
    seconds = []
    with tempfile.TemporaryDirectory() as outputs:
        command.append(f"outputs_dir={outputs}")
        for _ in range(times):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, env=environment)
            seconds.append(time.perf_counter() - start)
    return seconds


def cold_start_seconds() -> float:
    """Wall time of `python run.py ... max_playouts=1` in a fresh process (the first run
    warms the cache)."""
    return run_py_seconds(["level=1", "max_playouts=1"], 2)[1]


def parallel_start_seconds() -> tuple[float, float]:
    """Wall time of a threaded `python run.py` (SameGame board 1, shared policy, 2 threads, two
    playouts) with an empty kernel cache, then again with the cache it left."""
    with tempfile.TemporaryDirectory() as cache_root:
        # (no time budget: a run budgeted in playouts alone is not watched for a busy machine, experiments/machine.py)
        compiled, loaded = run_py_seconds(["parallel=shared", "threads=2", "clock=wall", "max_time=null",
                                           "max_playouts=2"], 2, cache_root)
    return compiled, loaded


def leaf_speedup(parallel: str, threads: int, pairs: int, seconds: float) -> tuple[float, float, list[float]]:
    """SameGame board 1, NRPA level 4, leaf parallelisation (L = 1): ``thread_speedup``."""
    settings = SearchSettings(level=4, N=100, parallel=parallel, parallel_level=1, clock="wall", max_time=0.05)
    return thread_speedup(settings, threads, pairs, seconds)


def thread_speedup(settings: SearchSettings, threads: int, pairs: int,
                   seconds: float) -> tuple[float, float, list[float]]:
    """SameGame board 1 (tabu playouts), the threaded search ``settings``: playouts per
    wall-second on 1 thread and on ``threads`` threads, in ``pairs`` interleaved pairs of
    runs (seeds 1..pairs, ``seconds`` each). Returns the median rates and each pair's ratio.

    Pairs, because this 2-vCPU virtual machine's speed drifts by 10-20% over minutes: the
    two runs of a pair see the same machine, and the median of the pairs' ratios is not
    moved by one disturbed pair, as one long run of each would be."""
    domain = make_domain(SameGameOptions(board="1", policy="tabu")).kernel_domain()
    for count in (1, threads):
        run_search(domain, replace(settings, threads=count))  # compile or load from cache

    def rate(count, seed):
        result = run_search(domain, replace(settings, threads=count, max_time=seconds, seed=seed))
        return result.playouts / result.wall_seconds

    # (two lists, not a dict keyed on the thread count: on a 1-core machine both counts are 1)
    one_thread, many_threads = [], []
    for seed in range(1, pairs + 1):
        one_thread.append(rate(1, seed))
        many_threads.append(rate(threads, seed))
    ratios = [many / one for one, many in zip(one_thread, many_threads)]
    return statistics.median(one_thread), statistics.median(many_threads), ratios


# GNRPA's cost: its time against NRPA's for the same work. A bias of weight 0 gives every move
# the factor exp(0) = 1, so GNRPA then makes NRPA's very moves (tested): the same playouts,
# and the difference in CPU time is the engine's cost of the bias alone.
GNRPA_DOMAINS = {
    "SameGame board 1, selective t = 10, bias tabu": SameGameOptions(board="1", policy="selective", threshold=10,
                                                                     bias="tabu"),
    "TSPTW rc_204.1, all moves, bias time": TsptwOptions(instance="rc_204.1", policy="all", bias="time"),
}


def gnrpa_cost(options, repeats: int, playouts: int) -> tuple[float, float]:
    """CPU seconds of NRPA (level 4, N = 100, seed 1) for ``playouts`` playouts and of GNRPA
    (tau = 1, the domain bias of ``options`` at weight 0) for the same playouts, each the
    fastest of ``repeats`` interleaved runs: on a virtual machine, whose speed drifts, the fastest of
    identical runs is the steadiest estimate of what the work costs."""
    plain = make_domain(replace(options, bias="none"))
    zero = make_domain(replace(options, bias_weight=0.0))
    budget = SearchSettings(level=4, N=100, max_time=None, max_playouts=playouts, seed=1)
    runs = {"nrpa": (plain, budget), "gnrpa": (zero, replace(budget, algorithm="gnrpa"))}

    def seconds(name: str, settings_change: dict) -> float:
        adapter, settings = runs[name]
        return run_search(adapter.kernel_domain(), replace(settings, **settings_change), bias_for(adapter)).cpu_seconds

    for name in runs:
        seconds(name, {"max_playouts": 10})  # compile or load from cache
    times = {name: [] for name in runs}
    for repeat in range(repeats):
        for name in (("nrpa", "gnrpa") if repeat % 2 == 0 else ("gnrpa", "nrpa")):
            times[name].append(seconds(name, {}))
    return min(times["nrpa"]), min(times["gnrpa"])


CONTENTION_PAIRS = 3  # rounds of the contention line's three cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="CPU-seconds per playout rule (per run with --against; / 8: wall-seconds per scaling point)")
    parser.add_argument("--against", metavar="REV", help="compare NRPA, GNRPA and SP-MCTS on SameGame board 1 with the code at git revision REV")
    parser.add_argument("--pairs", type=int, default=9, help="interleaved pairs of runs with --against")
    parser.add_argument("--workloads", nargs="+", choices=list(AGAINST_WORKLOADS), default=DEFAULT_AGAINST,
                        help="with --against: these workloads (default: nrpa gnrpa spmcts, on SameGame board 1)")
    parser.add_argument("--level1", action="store_true",
                        help="only where a level-1 iteration spends its time (playout, Adapt) on SameGame, Morpion, TSPTW, "
                             "and what a move of the game alone costs (listing the legal moves, playing one)")
    parser.add_argument("--scaling-only", action="store_true",
                        help="only the scaling figure (root and leaf parallelism on 1 .. all cores)")
    parser.add_argument("--contention", action="store_true",
                        help="only the threaded kernels under load: alone, beside a CPU hog, two runs at once "
                             "(experiments/bench_contention.py; --pairs rounds of --seconds / 5 s runs)")
    parser.add_argument("--layers", nargs="+", choices=["tbb", "omp", "workqueue"],
                        help="with --contention: these numba threading layers side by side (omp: the layer "
                             "before nrpa/threading_layer.py; default: the one nrpa chooses)")
    parser.add_argument("--refcounts", action="store_true",
                        help="only numba's atomic reference counts on the hot paths, counted in the compiled IR "
                             "against their budgets (experiments/refcounts.py; exit status 1 over budget)")
    parser.add_argument("--outputs-dir", type=Path, default=PROJECT_ROOT / "outputs",
                        help="the scaling figure goes to OUTPUTS_DIR/bench/scaling.{csv,png}")
    arguments = parser.parse_args()
    seconds = arguments.seconds
    scaling_folder = arguments.outputs_dir / "bench"
    if arguments.refcounts:
        sys.exit(refcounts.main([]))
    if arguments.against:
        for workload, ratios in against(arguments.against, arguments.pairs, seconds, arguments.workloads).items():
            print(f"{AGAINST_WORKLOADS[workload]}: this / {arguments.against} "
                  f"{ratio_summary(ratios, f'{seconds:g} CPU-s runs')}")
        return
    if arguments.contention:
        pairs = arguments.pairs if "--pairs" in sys.argv else CONTENTION_PAIRS
        rates = contention(pairs, seconds / 5, arguments.layers or [None])
        print(*contention_lines(rates, pairs, seconds / 5), sep="\n")
        return
    if arguments.scaling_only:
        print(*scaling(seconds / 8, scaling_folder), sep="\n")
        return
    if arguments.level1:
        print(*level1_split(seconds / 4), *game_step_split(seconds / 4), sep="\n")
        return
    print(f"machine: {os.cpu_count()} cores; NRPA level 4, N=100")
    print(f"cold start (python run.py, warm cache, one playout): {cold_start_seconds():.2f} s")
    compiled, loaded = parallel_start_seconds()
    print(f"threaded run start (python run.py parallel=shared threads=2, two playouts): {compiled:.1f} s "
          f"with an empty kernel cache (all compiled), {loaded:.2f} s with its cache (all loaded)")
    for name, options in OTHER_DOMAINS.items():
        rate = playouts_per_cpu_second(options, seconds / 4)
        print(f"{name}: {rate:,.0f} playouts per CPU-second ({seconds / 4:g} CPU-s)")
    none = playouts_per_cpu_second(SameGameOptions(board="1", policy="none"), seconds)
    print(f"SameGame board 1, none: {none:,.0f} playouts per CPU-second")
    tabu = playouts_per_cpu_second(SameGameOptions(board="1", policy="tabu"), seconds)
    print(f"SameGame board 1, tabu: {tabu:,.0f} playouts per CPU-second")
    read = clock_read_seconds()
    print(f"budget clock: {read * 1e9:.0f} ns per read, one read per playout = "
          f"{100 * read * tabu:.1f}% of the run")
    for name, options in GNRPA_DOMAINS.items():
        nrpa, gnrpa = gnrpa_cost(options, 7, 30_000)
        print(f"GNRPA / NRPA playouts per CPU-second, {name}: x{nrpa / gnrpa:.2f} (the same 30,000 playouts, "
              f"the bias at weight 0: NRPA {nrpa:.2f} s, GNRPA {gnrpa:.2f} s, fastest of 7 interleaved runs each; "
              "target >= 0.90)")
    threads = min(2, os.cpu_count() or 1)
    pairs = 5
    for parallel in ("shared", "thread_local"):
        one, many, ratios = leaf_speedup(parallel, threads, pairs, seconds / 5)
        print(f"leaf parallel NRPA, {parallel} policy, SameGame board 1 tabu, {pairs} pairs of {seconds / 5:g} s "
              f"runs: 1 thread {one:,.0f}, {threads} threads {many:,.0f} playouts per wall-second (medians); "
              f"x{statistics.median(ratios):.2f} (median of the pairs' ratios; they range "
              f"{min(ratios):.2f} to {max(ratios):.2f}; target x1.8 on 2 cores)")
    print(*contention_lines(contention(CONTENTION_PAIRS, seconds / 5, [None]), CONTENTION_PAIRS, seconds / 5),
          sep="\n")
    print(*scaling(seconds / 8, scaling_folder), sep="\n")
    # S = 100 as the SP-MCTS experiments (conf/variant/spmcts.yaml): with one tree for the whole
    # run (S = 0) the tree soon keeps selecting a finished game, whose simulations cost nothing.
    spmcts = SearchSettings(algorithm="spmcts", simulations_per_move=100, max_time=seconds / 4)
    rate = playouts_per_cpu_second(SameGameOptions(board="1", policy="tabu"), seconds / 4, spmcts)
    print(f"SP-MCTS (S = 100), SameGame board 1, tabu (TabuColorRandom): {rate:,.0f} simulations per CPU-second "
          f"({seconds / 4:g} CPU-s)")
    one, many, ratios = thread_speedup(replace(spmcts, parallel="shared", clock="wall", max_time=0.05), threads,
                                       pairs, seconds / 5)
    print(f"SP-MCTS (S = 100), one tree shared by threads, SameGame board 1 tabu, {pairs} pairs of {seconds / 5:g} s runs: "
          f"1 thread {one:,.0f}, {threads} threads {many:,.0f} simulations per wall-second (medians); "
          f"x{statistics.median(ratios):.2f} (median of the pairs' ratios; they range {min(ratios):.2f} to "
          f"{max(ratios):.2f})")
    neural_speed()
    print(f"playouts_per_cpu_second: {tabu:.0f}")


def neural_speed() -> None:
    """The Morpion networks on the device the neural targets would use (skipped without PyTorch)."""
    from nrpa.errors import InputError

    try:
        from nrpa.neural import speed
        from nrpa.neural.torch_setup import describe, pick_device
    except InputError as missing:
        print(f"neural policies: skipped ({missing})")
        return
    device = pick_device("auto")
    where = describe(device)
    for batch in (1, 64):
        rate = speed.forward_states_per_second("resnet", "R2", batch, device, 3.0)
        print(f"neural: ResNet R2 forward, batch {batch}: {rate:,.0f} states per second on {where}")
    rate = speed.training_examples_per_second("resnet", "R2", 64, device, 5.0)
    print(f"neural: ResNet R2 training, batch 64: {rate:,.0f} examples per second on {where}")
    games, moves = speed.sampled_games_per_second("resnet", "R2", 256, device)
    print(f"neural: games sampled from an untrained ResNet R2, 256 at once: {games:,.1f} games, {moves:,.0f} moves "
          f"(network playout steps) per second on {where}")
    playouts, moves = speed.cached_playouts_per_second(3.0)
    print(f"neural: one-forward-pass playouts (moves drawn from one forward pass's logits, numba, CPU): "
          f"{playouts:,.0f} playouts, {moves:,.0f} moves per second")


if __name__ == "__main__":
    main()
