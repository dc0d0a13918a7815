"""Ctrl-C stops a run, a sweep, a pool of workers and the runs on a dask cluster at once
(nrpa/interrupt.py, experiments/workers.py): the run in progress is dropped, the finished ones
kept, one line says so, no traceback."""

import json
import os
import re
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from nrpa import interrupt
from nrpa.domains.registry import SameGameOptions, make_domain
from nrpa.search import SearchSettings, kernel_params, run_search
from tests.conftest import python

STARTED = "1 run started (Ctrl-C stops it)"


def test_a_kernel_stops_at_its_next_playout_once_asked():
    # the flag the signal handler's thread sets, read by the kernel where it checks its budget
    domain = make_domain(SameGameOptions(board="1")).kernel_domain()
    settings = SearchSettings(level=2, N=10, seed=1, max_time=None, max_playouts=10**9)
    params = kernel_params(settings)
    assert params.interrupt is interrupt.STOP_REQUEST
    threading.Timer(0.5, interrupt.STOP_REQUEST.__setitem__, (0, 1)).start()
    try:
        result = run_search(domain, settings)
    finally:
        interrupt.STOP_REQUEST[0] = 0
    assert 0 < result.playouts < 10**9 and result.wall_seconds < 30


def test_a_kernel_runs_the_same_search_in_its_own_thread():
    domain = make_domain(SameGameOptions(board="1")).kernel_domain()
    settings = SearchSettings(level=2, N=10, seed=3, max_time=None, max_playouts=500)
    here = run_search(domain, settings)
    elsewhere = []
    worker = threading.Thread(target=lambda: elsewhere.append(run_search(domain, settings)))  # not the main thread
    worker.start()
    worker.join()
    there = elsewhere[0]
    assert (here.best_score, here.best_moves, here.trace.score, here.trace.playouts, here.playouts) == (
        there.best_score, there.best_moves, there.trace.score, there.trace.playouts, there.playouts)


def _off_the_main_thread(call):
    """``call()`` in a thread of its own (as a dask worker's task): its value, or "Stopped"."""
    outcome = []

    def target():
        try:
            outcome.append(call())
        except interrupt.Stopped:
            outcome.append("Stopped")

    worker = threading.Thread(target=target)
    worker.start()
    worker.join()
    return outcome[0]


def test_a_run_off_the_main_thread_that_a_stop_request_overlaps_raises_instead_of_returning():
    try:
        assert _off_the_main_thread(lambda: interrupt.run_kernel(lambda: 7)) == 7
        # asked and cleared again while the kernel ran: still dropped (the requests are counted)
        cut = lambda: (interrupt.request_stop(), interrupt.clear_stop(), 7)[-1]  # noqa: E731
        assert _off_the_main_thread(lambda: interrupt.run_kernel(cut)) == "Stopped"
        interrupt.request_stop()  # asked before it started, not cleared yet: it would stop at its first playout
        assert _off_the_main_thread(lambda: interrupt.run_kernel(lambda: 7)) == "Stopped"
        interrupt.clear_stop()
        # a real search of a billion playouts, asked to stop after half a second
        domain = make_domain(SameGameOptions(board="1")).kernel_domain()
        settings = SearchSettings(level=2, N=10, seed=1, max_time=None, max_playouts=10**9)
        threading.Timer(0.5, interrupt.request_stop).start()
        assert _off_the_main_thread(lambda: run_search(domain, settings)) == "Stopped"
    finally:
        interrupt.clear_stop()
    assert _off_the_main_thread(lambda: interrupt.run_kernel(lambda: 7)) == 7  # cleared: runs again


@pytest.mark.slow  # the cluster member's kernels are threaded: behind slow, as tests/test_parallel.py says
def test_a_cluster_member_cut_short_by_a_stop_request_answers_none_and_its_run_is_dropped():
    from experiments.cluster import TreeMember, _unless_stopped

    settings = SearchSettings(algorithm="spmcts", parallel="cluster", threads=2, clock="wall", max_time=60.0)
    member = TreeMember(SameGameOptions(board="1"), settings, 5)  # here its kernels load on the main thread
    member.start()
    assert _off_the_main_thread(lambda: member.grow(0.2)) is False  # (an actor's call runs in a thread)
    threading.Timer(0.3, interrupt.request_stop).start()
    try:
        assert _off_the_main_thread(lambda: member.grow(np.inf)) is None  # returned, not raised (TreeMember.grow)
    finally:
        interrupt.clear_stop()
    assert _unless_stopped([False, True]) == [False, True]
    with pytest.raises(interrupt.Stopped):
        _unless_stopped([True, None])


def test_a_ctrl_c_inside_numbas_compiler_is_raised_when_the_compile_ends():
    # raised inside the compiler, it would leave an LLVM module half built (an abort at exit)
    from numba.core.compiler_lock import global_compiler_lock
    previous = signal.getsignal(signal.SIGINT)
    interrupt.install()
    try:
        with pytest.raises(KeyboardInterrupt):
            with global_compiler_lock:  # as numba holds it while it compiles or loads a kernel
                with global_compiler_lock:  # nested, as a compile inside a compile
                    interrupt._on_sigint(signal.SIGINT, None)  # noted, not raised
                assert interrupt._pending  # still inside: not raised yet
        assert not interrupt._pending
        with pytest.raises(KeyboardInterrupt):  # outside the compiler: at once
            interrupt._on_sigint(signal.SIGINT, None)
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_until(arguments, tmp_path, marker: str, settle: float = 1.0):
    """Start ``python run.py ARGUMENTS`` in a new session; return it once its standard error has
    shown ``marker`` (a line, or a progress bar's text: read a character at a time, as a bar
    ends no line) and ``settle`` seconds more have passed (inside the kernel by then)."""
    process = python("run.py", *arguments, f"outputs_dir={tmp_path}", wait=False, text=True)
    seen = ""
    while marker not in seen:
        character = process.stderr.read(1)
        assert character, seen
        seen += character
    time.sleep(settle)
    return process


def _interrupt(process):
    """SIGINT to the process group, as Ctrl-C on a terminal; (seconds to exit, stderr after)."""
    sent = time.time()
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    return time.time() - sent, stderr


def _running_in_group(group: int) -> list[int]:
    """The processes of process group ``group`` that have not exited (Linux's /proc)."""
    running = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after "pid (name)": state, ppid, pgrp, ...
        except OSError:  # exited meanwhile
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            running.append(int(stat.parent.name))
    return running


def _warm(settings):
    """The kernel compiled into the disk cache first (a compile in progress ends before a stop)."""
    run_search(make_domain(SameGameOptions(board="1")).kernel_domain(), settings)


@pytest.mark.slow  # a new interpreter per case, and a second inside a kernel
def test_ctrl_c_stops_a_single_run_of_a_minute_at_once_and_stores_nothing(tmp_path):
    _warm(SearchSettings(algorithm="snrpa", P=4, max_time=None, max_playouts=10))
    process = _run_until(["algo=snrpa", "P=4", "max_time=60"], tmp_path, STARTED)
    seconds, stderr = _interrupt(process)
    assert process.returncode == 130 and seconds < 3.0
    said = stderr.strip().splitlines()
    # its best so far, shown and not stored
    best = re.fullmatch(r"The run stopped had found a best score of (\d+) after ([\d,]+) playouts \(([\d.]+) "
                        r"CPU-seconds\); a run cut short is not stored\.", said[0])
    assert best and int(best[1]) > 0 and int(best[2].replace(",", "")) > 0, said
    assert said[1:] == ["", "Interrupted: 0 runs finished by this command; what was running was "
                            "dropped. The same command goes on from there (a stored run is not made again)."]
    assert not list(tmp_path.glob("runs/*/*.json"))


@pytest.mark.slow
def test_ctrl_c_stops_a_sweep_keeping_its_finished_runs(tmp_path):
    _warm(SearchSettings(max_time=None, max_playouts=10))
    # the sweep's two runs go into one pool (experiments/sweep.py): its progress bar says when the
    # 0.2 s run has finished, the 60 s one still running
    process = _run_until(["-m", "algo=nrpa", "max_time=0.2,60"], tmp_path, "1/2 ")
    seconds, stderr = _interrupt(process)
    assert process.returncode == 130 and seconds < 3.0
    assert "Traceback" not in stderr and stderr.count("Interrupted:") == 1
    kept = list(tmp_path.glob("runs/samegame/*.json"))
    assert len(kept) == 1 and f"1 run finished by this command is kept in {kept[0].parent}" in stderr
    assert '"max_time": 0.2' in kept[0].read_text()  # the finished one; the 60 s run is absent


@pytest.mark.slow
def test_ctrl_c_stops_a_pool_of_workers_and_leaves_none_behind(tmp_path):
    _warm(SearchSettings(max_time=None, max_playouts=10))
    # the progress bar says two workers have started; 3 s more: their kernels loaded and running
    process = _run_until(["algo=nrpa", "repeats=4", "max_time=60"], tmp_path, "running=2", settle=3.0)
    seconds, stderr = _interrupt(process)
    assert process.returncode == 130 and seconds < 3.0
    assert "Traceback" not in stderr and "Interrupted: 0 runs finished" in stderr
    assert not list(tmp_path.glob("runs/*/*.json"))
    # no worker left behind: the pool's are killed on the way out (an exited one not reaped yet is not running)
    deadline = time.time() + 5
    while _running_in_group(process.pid) and time.time() < deadline:
        time.sleep(0.1)
    assert _running_in_group(process.pid) == []


def _worker_state(dask_worker) -> tuple[int, int]:
    """On a dask worker (client.run): its threads running a task or an actor call, and its stop flag."""
    from nrpa import interrupt as worker_interrupt  # the worker process's own module

    return len(dask_worker.active_threads), int(worker_interrupt.STOP_REQUEST[0])


@pytest.mark.slow  # a dask cluster, a new interpreter, and a second inside a kernel
@pytest.mark.parametrize("command", [
    # three runs of a minute: two running, the third waiting for a worker
    ["algo=nrpa", "repeats=3", "max_time=60"],
    # a cluster SP-MCTS run of a minute, its two members' trees growing for 30 s before they share
    ["algo=spmcts", "parallel=cluster", "threads=2", "clock=wall", "max_time=60", "average_every=30"],
], ids=["runs", "cluster-spmcts"])
def test_ctrl_c_in_a_dask_client_stops_the_runs_on_its_cluster_which_then_runs_the_next_command(command, tmp_path):
    from dask.distributed import Client, LocalCluster

    _warm(SearchSettings(max_time=None, max_playouts=10))
    # two workers of one thread (joblib runs the runs in the client itself on a cluster of one)
    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                      processes=True) as cluster, Client(cluster) as client:
        backend = ["backend=dask", f"backend.address={cluster.scheduler_address}"]
        process = python("run.py", *command, *backend, f"outputs_dir={tmp_path}", wait=False, text=True)
        deadline = time.time() + 300
        while sum(threads for threads, _ in client.run(_worker_state).values()) < 2:  # tasks or actor calls
            assert process.poll() is None and time.time() < deadline, process.communicate()
            time.sleep(0.1)
        time.sleep(1.0)  # inside the kernels by now (or loading them: stopped all the same)
        seconds, stderr = _interrupt(process)
        assert process.returncode == 130 and seconds < 3.0
        assert "Traceback" not in stderr and stderr.count("Interrupted: 0 runs finished by this command") == 1
        # on the cluster: the running runs stopped at their next playout, a waiting one never started,
        # and the workers' flags are cleared once they returned
        deadline = time.time() + 10
        while (any(client.processing().values()) or set(client.run(_worker_state).values()) != {(0, 0)}) \
                and time.time() < deadline:
            time.sleep(0.1)
        assert not any(client.processing().values())
        assert list(client.run(_worker_state).values()) == [(0, 0), (0, 0)]
        time.sleep(2.0)  # nothing of the interrupted command started since
        assert not any(client.processing().values())
        assert list(client.run(_worker_state).values()) == [(0, 0), (0, 0)]
        assert not list(tmp_path.glob("runs/*/*.json"))
        # the next command on the same cluster runs its run to its end
        done = python("run.py", "algo=nrpa", "level=2", "N=10", "max_time=null", "max_playouts=500", *backend,
                      f"outputs_dir={tmp_path}")
        assert done.returncode == 0, done.stderr
    stored = [json.loads(path.read_text()) for path in tmp_path.glob("runs/*/*.json")]
    assert [run["result"]["playouts"] for run in stored] == [500]


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far (Linux's /proc), 0 once it exited."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


@pytest.mark.slow  # starts a dask cluster, and two kernels for a while
def test_ctrl_c_stops_a_cluster_search_on_its_own_loopback_cluster_without_a_traceback(tmp_path):
    # without backend.address the command starts its workers, in its own process group: Ctrl-C
    # reaches them too, and they ignore it (experiments.cluster.dask_setup)
    process = python("run.py", "algo=spmcts", "parallel=cluster", "threads=2", "clock=wall", "max_time=60",
                     "average_every=30", f"outputs_dir={tmp_path}", wait=False, text=True)
    deadline = time.time() + 300
    # the two workers' members growing: each worker's CPU time well past its start and kernel load
    while sum(_cpu_seconds(pid) >= 8.0 for pid in _running_in_group(process.pid) if pid != process.pid) < 2:
        assert process.poll() is None and time.time() < deadline, process.communicate()
        time.sleep(0.2)
    seconds, stderr = _interrupt(process)
    assert process.returncode == 130 and seconds < 3.0
    assert "Traceback" not in stderr and stderr.count("Interrupted: 0 runs finished by this command") == 1
    assert not list(tmp_path.glob("runs/*/*.json"))
    deadline = time.time() + 5  # the cluster is closed on the way out
    while _running_in_group(process.pid) and time.time() < deadline:
        time.sleep(0.1)
    assert _running_in_group(process.pid) == []
