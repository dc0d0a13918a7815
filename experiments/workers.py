"""Running the repeats of a job in parallel: loky processes here, or a dask cluster.

Each run executes in a worker process (one run per process at a time, as many processes
as cores by default) and returns its record; this process writes the record atomically
as soon as it arrives. Killing the sweep at any moment therefore loses only the runs that
were still running: the next call skips every run whose file exists and is whole (a damaged
one is moved aside and its run made again).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import joblib
from tqdm import tqdm

from experiments.leaderboard import Leaderboard
from experiments.runs import Job, execute_run
from experiments.store import RunStore
from nrpa.domains.registry import make_domain
from nrpa.errors import InputError
from nrpa.search import run_search

BACKENDS = ("loky", "dask")


@dataclass(frozen=True)
class JobOutcome:
    paths: tuple[Path, ...]  # the run files of repeats 0 .. repeats-1
    ran: int  # runs made by this call
    found: int  # runs already in the store


def run_job(job: Job, repeats: int, store: RunStore, *, n_jobs: int | None = None,
            backend: str = "loky", address: str | None = None, force: bool = False,
            label: str = "runs") -> JobOutcome:
    """Make sure repeats 0 .. repeats-1 of ``job`` are in ``store``; return their files."""
    if repeats < 1:
        raise InputError(f"repeats={repeats} is out of range: it must be >= 1")
    if backend not in BACKENDS:
        raise InputError(f"backend={backend!r} is not valid: choose one of {', '.join(BACKENDS)}")
    if backend == "dask" and not address:
        raise InputError("backend=dask needs backend.address=tcp://HOST:PORT of a running scheduler")
    paths = tuple(job.run_path(store, repeat) for repeat in range(repeats))
    pending = [repeat for repeat, path in enumerate(paths) if force or store.load_or_set_aside(path) is None]
    store.remove_stale_temporaries()
    if pending and job.settings.parallel == "cluster":
        _run_on_cluster(job, pending, paths, store, address if backend == "dask" else None, label)
    elif pending:
        run_runs([(job, repeat) for repeat in pending], store, n_jobs=n_jobs, backend=backend, address=address,
                 label=label, done=repeats - len(pending))
    return JobOutcome(paths=paths, ran=len(pending), found=repeats - len(pending))


def run_runs(runs: list[tuple[Job, int]], store: RunStore, *, n_jobs: int | None = None, backend: str = "loky",
             address: str | None = None, label: str = "runs", done: int = 0) -> list[dict]:
    """Make each (job, repeat) of ``runs`` (of one job or of several) in a pool of worker
    processes, writing each record as soon as it arrives; return the records in the order
    they finished. ``done``: runs of the same batch already stored (the progress bar's start)."""
    for job in {id(job): job for job, _ in runs}.values():
        _compile_kernels(job)
    records = []
    with _parallel_backend(backend, address) as cluster_threads, tqdm(
        total=len(runs) + done, initial=done, desc=label, unit="run",
        dynamic_ncols=True, mininterval=1.0, disable=len(runs) + done == 1,
    ) as bar:
        # One pending run needs no pool: joblib runs n_jobs=1 in this process.
        workers = min(cluster_threads or n_jobs or os.cpu_count() or 1, len(runs))
        bar.set_postfix(running=workers)
        parallel = joblib.Parallel(n_jobs=workers if backend == "loky" else -1, return_as="generator_unordered")
        left = len(runs)
        leaderboard = Leaderboard(store.root)
        for index, record in parallel(joblib.delayed(_numbered)(index, job, repeat)
                                      for index, (job, repeat) in enumerate(runs)):
            store.write(runs[index][0].run_path(store, record["repeat"]), record)
            leaderboard.offer(record)
            records.append(record)
            left -= 1
            bar.update(1)
            bar.set_postfix(running=min(workers, left))
    return records


def _numbered(index: int, job: Job, repeat: int) -> tuple[int, dict]:
    """A run's record with its place in the caller's list (runs finish in any order)."""
    return index, execute_run(job, repeat)


def _run_on_cluster(job: Job, pending: list[int], paths: tuple[Path, ...], store: RunStore,
                    address: str | None, label: str) -> None:
    """``parallel=cluster``: the runs one after the other from this process, each spread over
    the cluster's workers (experiments/cluster.py); each record is written as it arrives."""
    from experiments.cluster import cluster_client, compile_member_kernels

    compile_member_kernels(job.domain_options, job.settings)
    leaderboard = Leaderboard(store.root)
    with cluster_client(address, job.settings.threads) as client:
        for repeat in tqdm(pending, desc=label, unit="run", dynamic_ncols=True, disable=len(pending) == 1):
            record = execute_run(job, repeat, client)
            store.write(paths[repeat], record)
            leaderboard.offer(record)


def _compile_kernels(job: Job) -> None:
    """Compile (or load from the disk cache) here first, so that the workers load the
    kernels from the cache instead of each compiling them at the same time."""
    tiny = replace(job.settings, max_time=None, max_playouts=1, restart=True)
    run_search(make_domain(job.domain_options).kernel_domain(), tiny)


@contextmanager
def _parallel_backend(backend: str, address: str | None):
    """Yields the number of worker threads of the dask cluster (None for loky)."""
    if backend == "loky":
        yield None
        return
    from dask.distributed import Client

    with Client(address) as client, joblib.parallel_config(backend="dask"):
        yield sum(client.nthreads().values())
