"""Gelly et al.'s cluster SP-MCTS on several machines: ``parallel=cluster threads=K``.

The K trees live in K dask actors (``TreeMember``), one per worker of a dask.distributed
cluster: the one at ``backend.address``, or, without one, a cluster of K worker processes
started on this machine on loopback for the sweep. This process is the client: every
``average_every`` seconds (T0) each member grows its tree up to that time of its own wall clock
(the members started together), sends the top of it (the moves from the nodes at depth <=
``share_depth``), the client averages the tops with the same ``share_statistics`` as the
threaded version (``parallel=averaged``), and sends each member its own top back to be written
into its tree. S = 0 only: one tree per member for the whole budget (``max_time``).

Against the threaded versions' rules (nrpa/spmcts_parallel.py): each member's tree makes all
its own simulations for the whole time, as each of their trees makes S per move; with S = 0
there is no move, so no decision step (Gelly's "most simulated, on the whole set of nodes"):
the answer is the best simulation of any member. What differs: T0 is wall-seconds
(``average_every``, a real cluster's clock), not ``share_every`` simulations of each tree, and
S > 0 is refused (playing moves would need each member to keep a game's roots and the client
to decide each move from the members' root statistics: not built).

The run's record is the members' runs merged as a root run's are (experiments/root_parallel.py): the
best of the members' bests at each wall time; its playouts and CPU seconds are the members'
sums, and an improvement made after p playouts of one member is placed at K x p playouts (the
members go at the same pace).
"""

from __future__ import annotations

import logging
import signal
from contextlib import contextmanager
from dataclasses import replace

import numpy as np
from numba.typed import List

from nrpa import spmcts_parallel, spmcts_tree
from nrpa.interrupt import Stopped, run_kernel
from nrpa.run import result
from nrpa.domains.registry import make_domain
from nrpa.search import SearchResult, SearchSettings, Trace, kernel_params


class TreeMember:
    """One machine's tree: a dask actor (its methods run on its worker, one at a time)."""

    def __init__(self, domain_options, settings: SearchSettings, seed: int):
        self.domain = make_domain(domain_options).kernel_domain()
        self.params = kernel_params(replace(settings, parallel="none", threads=1, clock="wall", seed=seed))
        self.member = spmcts_parallel.new_member(self.domain, self.params)
        # load every kernel now, so that none is loaded within the budget
        spmcts_parallel.grow(self.domain, self.member, self.params, -1.0)
        self.graft(self.top(0, 0))

    def start(self) -> None:
        """Start the clocks (the members are told at the same time)."""
        spmcts_parallel.start_member(self.member, self.params.seed)

    def grow(self, deadline: float) -> bool | None:
        """Grow until ``deadline`` seconds after the start; whether the budget is spent, None
        when a stop request cut it short (nrpa.interrupt; returned, not raised: dask leaves the
        thread of an actor call that raised marked as busy)."""
        try:
            return bool(run_kernel(spmcts_parallel.grow, self.domain, self.member, self.params, deadline))
        except Stopped:
            return None

    def top(self, depth: int, room: int):
        return spmcts_parallel.top_subtree(self.member.tree, 0, depth, room)

    def graft(self, top) -> None:
        spmcts_parallel.graft(self.member.tree, 0, top)

    def result(self) -> tuple:
        return result(self.member.run)


def compile_member_kernels(domain_options, settings: SearchSettings) -> None:
    """Compile (or load from the disk cache) a member's kernels and the averaging here, so
    that the workers load them from the cache instead of each compiling them."""
    member = TreeMember(domain_options, replace(settings, parallel="none", threads=1, max_time=None,
                                                max_playouts=1), 0)
    member.start()
    member.grow(np.inf)
    top = member.top(settings.share_depth, 1)
    spmcts_tree.share_statistics(List([top, top]), np.zeros(2, dtype=np.int64), settings.share_depth,
                                 settings.share_min_visits)
    member.graft(top)
    member.result()


@contextmanager
def cluster_client(address: str | None, members: int, security=None):
    """A client of the cluster at ``address`` (with ``security``: experiments/dask_security.py),
    or of a loopback cluster of ``members`` worker processes (one thread each) started here."""
    from dask.distributed import Client, LocalCluster

    from experiments.dask_stop import stop_cluster_runs

    if address:
        with Client(address, security=security) as client:
            try:
                yield client
            except KeyboardInterrupt:  # the members' trees stop growing (experiments.workers)
                stop_cluster_runs(client)
                raise
        return
    with LocalCluster(n_workers=members, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, preload=[__name__]) as cluster, Client(cluster) as client:
        try:
            yield client
        except KeyboardInterrupt:
            stop_cluster_runs(client)
            raise
        finally:
            _quiet_while_closing(client)


def _quiet_while_closing(client) -> None:
    """Silence the loopback cluster's own logs before it closes: a worker whose heartbeat meets
    the scheduler already gone logs that error with its traceback (a race inside dask's close,
    harmless), which would end a command, interrupted or not, on a traceback it did not cause."""
    try:
        client.run(_silence_dask_logs)
        client.run_on_scheduler(_silence_dask_logs)
    except Exception:  # a cluster already half gone: nothing left to silence
        pass
    _silence_dask_logs()


def _silence_dask_logs() -> None:
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def dask_setup(worker) -> None:
    """The loopback cluster's preload, in each of its worker processes: ignore Ctrl-C. Those
    processes are in the command's process group, so a terminal's Ctrl-C reaches them too, and
    each would die printing its traceback; the command stops their runs and closes them itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def cluster_search(client, domain_options, settings: SearchSettings) -> SearchResult:
    """One cluster SP-MCTS run on ``client``'s workers (one member per worker, round robin)."""
    count = settings.threads
    seeds = np.random.default_rng(settings.seed).integers(0, 2**31, size=count)
    workers = list(client.scheduler_info()["workers"])
    members = [client.submit(TreeMember, domain_options, settings, int(seed), actor=True, pure=False,
                             workers=[workers[i % len(workers)]]).result()
               for i, seed in enumerate(seeds)]
    for future in [member.start() for member in members]:
        future.result()
    period = 0
    while True:
        period += 1
        spent = [member.grow(period * settings.average_every) for member in members]
        spent = _unless_stopped([future.result() for future in spent])
        if any(spent):
            break
        tops = [member.top(settings.share_depth, 0) for member in members]
        tops = [future.result() for future in tops]
        union = sum(int(top.size[0]) for top in tops)  # room for every node averaging may add
        widened = List([spmcts_parallel.top_subtree(top, 0, settings.share_depth, union) for top in tops])
        spmcts_tree.share_statistics(widened, np.zeros(count, dtype=np.int64), settings.share_depth,
                                     settings.share_min_visits)
        for future in [member.graft(top) for member, top in zip(members, widened)]:
            future.result()
    for member in members:  # the members whose budget was not spent yet finish it
        _unless_stopped([member.grow(np.inf).result()])
    return merged_result([member.result().result() for member in members])


def _unless_stopped(spent: list) -> list:
    """The members' ``grow`` answers; Stopped when a stop request cut one short (its run is dropped)."""
    if any(answer is None for answer in spent):
        raise Stopped()
    return spent


def merged_result(outcomes: list[tuple]) -> SearchResult:
    """The members' kernel results (``nrpa.run.result``) as one run (module docstring)."""
    count = len(outcomes)
    best = max(outcomes, key=lambda outcome: outcome[0])
    events = sorted((wall, cpu * count, playouts * count, score) for outcome in outcomes
                    for wall, cpu, playouts, score in zip(*outcome[2:6]))
    trace = []
    for event in events:
        if not trace or event[3] > trace[-1][3]:
            trace.append(event)
    return SearchResult(
        best_score=float(best[0]),
        best_moves=tuple(int(m) for m in best[1]),
        trace=Trace(wall_seconds=tuple(float(event[0]) for event in trace),
                    cpu_seconds=tuple(float(event[1]) for event in trace),
                    playouts=tuple(int(event[2]) for event in trace), score=tuple(float(event[3]) for event in trace)),
        playouts=int(sum(outcome[6] for outcome in outcomes)),
        restarts=int(sum(outcome[7] for outcome in outcomes)),
        wall_seconds=float(max(outcome[8] for outcome in outcomes)),
        cpu_seconds=float(sum(outcome[9] for outcome in outcomes)),
    )
