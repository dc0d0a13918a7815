"""Running the repeats of a job in parallel: loky processes here, or a dask cluster.

Each run executes in a worker process (one run per process at a time, as many processes
as cores by default) and returns its record; this process writes the record atomically
as soon as it arrives. Killing the sweep at any moment therefore loses only the runs that
were still running: the next call skips every run whose file exists and is whole (a damaged
one is moved aside and its run made again, and so is a starved one: experiments/valid_runs.py).

Ctrl-C in a dask client: experiments/dask_stop.py stops the runs on the cluster's workers.
Which clusters a command connects to, and with which credentials: experiments/dask_security.py.
"""

from __future__ import annotations

import math
import os
import sys
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import joblib
from tqdm import tqdm

from experiments.dask_security import cluster_security
from experiments.dask_stop import stop_cluster_runs
from experiments.leaderboard import Leaderboard
from experiments.machine import StarvedRule, cores_needed, timed_on_wall_clock, usable_cpus, wait_for_cores
from experiments.runs import Job, execute_run
from experiments.store import RunStore, set_aside_starved
from experiments.valid_runs import judge_in_store, read_and_judge
from nrpa.domains.registry import make_domain
from nrpa.errors import InputError
from nrpa.search import run_search

BACKENDS = ("loky", "dask")
RECHECK_LOAD = 5.0  # seconds: how old a reading of the machine's load may be before a batch of wall-clock runs


@dataclass(frozen=True)
class JobOutcome:
    paths: tuple[Path, ...]  # the run files of repeats 0 .. repeats-1
    ran: int  # runs made and stored by this call
    found: int  # runs already in the store
    starved: int = 0  # runs made by this call and set aside as starved (experiments/machine.py): not stored


def run_job(job: Job, repeats: int, store: RunStore, *, rule: StarvedRule = StarvedRule(),
            n_jobs: int | None = None, backend: str = "loky", address: str | None = None, force: bool = False,
            label: str = "runs", tls=None, insecure: bool = False) -> JobOutcome:
    """Make sure repeats 0 .. repeats-1 of ``job`` are in ``store``, counted by ``rule`` (the
    config's starved section); return their files. ``tls``, ``insecure``: backend.tls and
    backend.insecure (experiments/dask_security.py)."""
    if repeats < 1:
        raise InputError(f"repeats={repeats} is out of range: it must be >= 1")
    if backend not in BACKENDS:
        raise InputError(f"backend={backend!r} is not valid: choose one of {', '.join(BACKENDS)}")
    if backend == "dask" and not address:
        raise InputError("backend=dask needs backend.address=tls://HOST:PORT of a running scheduler "
                         "(docs/howto/cluster.md)")
    security = cluster_security(address, tls, insecure) if backend == "dask" else None
    paths = tuple(job.run_path(store, repeat) for repeat in range(repeats))
    pending = list(range(repeats)) if force else [
        repeat for repeat, run in enumerate(read_and_judge(store, paths, rule)) if run.record is None]
    store.remove_stale_temporaries()
    if pending and job.settings.parallel == "cluster":
        records = _run_on_cluster(job, pending, paths, store, address if backend == "dask" else None, label,
                                  security)
    elif pending:
        records = run_runs([(job, repeat) for repeat in pending], store, rule=rule, n_jobs=n_jobs, backend=backend,
                           address=address, label=label, done=repeats - len(pending), tls=tls, insecure=insecure)
    else:
        records = []
    starved = sum(judge_in_store(store, record, rule) is not None for record in records)
    if force:  # remade under the search's one name: a run stored as SNRPA(1) is now found as NRPA
        paths = tuple(job.run_path(store, repeat) for repeat in range(repeats))
    return JobOutcome(paths=paths, ran=len(pending) - starved, found=repeats - len(pending), starved=starved)


def run_runs(runs: list[tuple[Job, int]], store: RunStore, *, rule: StarvedRule = StarvedRule(),
             n_jobs: int | None = None, backend: str = "loky", address: str | None = None, label: str = "runs",
             done: int = 0, tls=None, insecure: bool = False) -> list[dict]:
    """Make each (job, repeat) of ``runs`` (of one job or of several) in a pool of worker
    processes, writing each record as soon as it arrives; return the records made, in the
    order they finished. ``done``: runs of the same batch already stored (the progress bar's start).

    A starved run (judged by ``rule``: experiments/valid_runs.py) is not stored: its record goes
    into ``.starved/`` beside where its file would be, at once, and the next call makes it
    again; it is among the records returned (it cost its CPU time). Wall-clock runs on this machine (loky) go in
    batches of as many as there are workers, and no more at once than the CPUs hold (two
    2-thread runs on 2 CPUs would starve each other), each batch after the machine leaves the
    cores it needs (machine.wait_for_cores: at most ``rule.wait`` seconds, then BusyMachine).
    ``tls``, ``insecure``: how a dask client connects (experiments/dask_security.py), checked first."""
    security = cluster_security(address, tls, insecure) if backend == "dask" else None
    compile_kernels([job for job, _ in runs], n_jobs if backend == "loky" else 1)
    if len(runs) + done == 1:  # no progress bar for one run: say that it started, and how to stop it
        print(f"{label}: 1 run started (Ctrl-C stops it)", file=sys.stderr, flush=True)
    records = []
    with _parallel_backend(backend, address, security) as cluster_threads, tqdm(
        total=len(runs) + done, initial=done, desc=label, unit="run",
        dynamic_ncols=True, mininterval=1.0, disable=len(runs) + done == 1,
    ) as bar:
        # One pending run needs no pool: joblib runs n_jobs=1 in this process.
        workers = min(cluster_threads or n_jobs or os.cpu_count() or 1, len(runs))
        # Wall-clock runs here (a dask cluster's machines are not this one: their runs' own
        # records judge them) run side by side only as many as the CPUs hold, not to starve each
        # other, and each batch waits for the cores it needs.
        watched = backend == "loky" and any(timed_on_wall_clock(asdict(job.settings)) for job, _ in runs)
        cpus = len(usable_cpus())
        needs = [cores_needed(asdict(job.settings), cpus) for job, _ in runs]
        if watched:
            workers = min(workers, max(1, cpus // max(needs)))
        bar.set_postfix(running=workers)
        parallel = joblib.Parallel(n_jobs=workers if backend == "loky" else -1, return_as="generator_unordered")
        left = len(runs)
        leaderboard = Leaderboard(store.root)
        batches = [range(start, min(start + workers, len(runs))) for start in range(0, len(runs), workers)] \
            if watched else [range(len(runs))]
        checked, starved = -math.inf, False
        for batch in batches:
            # the machine's load is read (LOAD_WINDOW) before a batch when the last reading is
            # RECHECK_LOAD seconds old or a run came back starved: short runs (a smoke sweep's
            # 84 threaded runs) would otherwise spend more time measuring than running; a run
            # started on a machine that got busy meanwhile is judged by its own record
            if watched and (time.monotonic() - checked >= RECHECK_LOAD or starved):
                wait_for_cores(sum(needs[i] for i in batch), rule)
                checked, starved = time.monotonic(), False
            for index, record in parallel(joblib.delayed(_numbered)(index, *runs[index]) for index in batch):
                # the record's own id: force=true remakes a run stored under another spelling (SNRPA(1))
                path = store.path_for(runs[index][0].domain_options.name, record["run_id"])
                reason = judge_in_store(store, record, rule)
                if reason is None:
                    store.write(path, record)
                    leaderboard.offer(record)
                else:
                    set_aside_starved(path, reason, "the next call makes it again", record=record)
                    starved = True
                records.append(record)
                left -= 1
                bar.update(1)
                bar.set_postfix(running=min(workers, left))
    return records


def _numbered(index: int, job: Job, repeat: int) -> tuple[int, dict]:
    """A run's record with its place in the caller's list (runs finish in any order)."""
    return index, execute_run(job, repeat)


def _run_on_cluster(job: Job, pending: list[int], paths: tuple[Path, ...], store: RunStore,
                    address: str | None, label: str, security=None) -> list[dict]:
    """``parallel=cluster``: the runs one after the other from this process, each spread over
    the cluster's workers (experiments/cluster.py); each record is written as it arrives."""
    from experiments.cluster import cluster_client, compile_member_kernels

    compile_member_kernels(job.domain_options, job.settings)
    leaderboard = Leaderboard(store.root)
    records = []
    with cluster_client(address, job.settings.threads, security) as client:
        for repeat in tqdm(pending, desc=label, unit="run", dynamic_ncols=True, disable=len(pending) == 1):
            record = execute_run(job, repeat, client)
            store.write(paths[repeat], record)
            leaderboard.offer(record)
            records.append(record)
    return records


def compile_kernels(jobs: list[Job], n_jobs: int | None = None) -> None:
    """Compile the kernels of ``jobs`` into the disk cache (or load them from it) before their
    runs, so that the workers load them instead of each compiling them at the same time: one
    tiny run per kernel (a domain's kind, an algorithm, a parallel strategy), spread over
    ``n_jobs`` processes (default: the cores), since numba compiles on one core and a cold
    cache (a fresh clone, an edited source) has dozens to compile. The workers' processes
    are loky's reusable ones, so the runs that follow find the kernels loaded. A kernel this
    process has seen to already (an earlier batch, a campaign's earlier round) is not
    compiled again.

    A kernel's first compile also compiles its callees (the domain's functions, the policy,
    an algorithm's threaded core) and caches them; two processes compiling two kernels that
    share callees at once would both compile them. So the sequential kernels go first, a
    task per domain (one process compiles the domain's callees once and reuses them), the
    largest first; then the threaded ones, a task per domain and algorithm (``shared`` and
    ``thread_local`` share nearly all their code), which load the domain's callees from the
    cache."""
    kernels = {key: job for job in jobs
               if (key := (type(job.domain_options).__name__, job.settings.algorithm, job.settings.parallel))
               not in _COMPILED}
    sequential: dict[str, list[Job]] = {}
    threaded: dict[tuple[str, str], list[Job]] = {}
    for (domain, algorithm, parallel), job in kernels.items():
        if parallel == "none":
            sequential.setdefault(domain, []).append(job)
        else:
            threaded.setdefault((domain, algorithm), []).append(job)
    for tasks in (sorted(sequential.values(), key=len, reverse=True), list(threaded.values())):
        workers = min(n_jobs or os.cpu_count() or 1, len(tasks))
        if workers <= 1:
            for task in tasks:
                _compile_kernels_in_turn(task)
        else:
            joblib.Parallel(n_jobs=workers)(joblib.delayed(_compile_kernels_in_turn)(task) for task in tasks)
    _COMPILED.update(kernels)


_COMPILED: set[tuple[str, str, str]] = set()  # the kernels compile_kernels saw to, in this process


def _compile_kernels_in_turn(jobs: list[Job]) -> None:
    for job in jobs:
        tiny = replace(job.settings, max_time=None, max_playouts=1, restart=True)
        run_search(make_domain(job.domain_options).kernel_domain(), tiny)


@contextmanager
def _parallel_backend(backend: str, address: str | None, security=None):
    """Yields the number of worker threads of the dask cluster (None for loky); ``security``:
    the client's (experiments/dask_security.py)."""
    if backend == "loky":
        yield None
        return
    from dask.distributed import Client

    with Client(address, security=security) as client, joblib.parallel_config(backend="dask"):
        try:
            yield sum(client.nthreads().values())
        except KeyboardInterrupt:
            stop_cluster_runs(client)
            raise
