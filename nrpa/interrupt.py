"""Ctrl-C within a second, in a numba kernel too.

A numba kernel does not see a signal: Python runs its handler between two bytecodes of the
main thread, and a kernel called from that thread holds it until its budget ends (up to two
hours at paper scale). So ``run_kernel`` runs the kernel in a thread of its own (the search
kernels are compiled with ``nogil=True``: they release the GIL) while the main thread waits
for it, where SIGINT raises ``KeyboardInterrupt`` at once. The main thread then sets
``STOP_REQUEST``, which every kernel reads at each playout's end
(``nrpa.run.end_playout``, where it checks its budget: a threaded kernel's threads read it
too), waits up to half a second for the kernel to stop there (not for a compile in progress),
and raises ``Interrupted`` (a ``KeyboardInterrupt`` carrying the kernel's best so far when it
stopped): the interrupted run is dropped, never stored as finished. The command's own handler
(``experiments.config.exit_interrupted``) then says in one line what was kept.

A ``KeyboardInterrupt`` raised inside numba's compiler (a kernel compiled or loaded from the
disk cache by the main thread) leaves an LLVM module half built, and the process then aborts
at its exit on an LLVM assertion. ``install`` (called by the commands) puts a SIGINT handler
in place that, while the main thread holds numba's compiler lock, only notes the request, and
raises it as soon as the lock is released: the compile is whole by then.

Off the main thread (a dask worker's task or actor thread) no signal arrives: the client that
was interrupted asks each worker process to stop (``experiments.dask_stop.stop_cluster_runs``),
which calls ``request_stop`` there. ``run_kernel`` then raises ``Stopped`` instead of returning
when a stop was asked while its kernel ran (or before it started, the flag still set), so that
a run cut short never becomes a record; the worker clears the flag (``clear_stop``) once the
interrupted client's tasks have returned (experiments/dask_stop.py: sooner, a task still loading
its kernel would start it after the clear and run to its budget). A cut run is dropped however
soon the flag is cleared: ``run_kernel`` compares the count of requests before and after its kernel.
"""

from __future__ import annotations

import signal
import threading

import numpy as np
from numba.core import event
from numba.core.compiler_lock import global_compiler_lock

# 1 once Ctrl-C asked the kernel running to stop; passed to the kernels in Params.interrupt
STOP_REQUEST = np.zeros(1, dtype=np.int64)
_POLL = 0.05  # seconds between two looks of the waiting thread (a signal interrupts a wait anyway)
_STOP_WAIT = 0.5  # seconds Ctrl-C waits for the kernel to stop (a compile in progress is not waited for)
_requests = [0]  # the stops asked by request_stop in this process so far


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a kernel on the main thread: ``partial`` is what the kernel returned when
    it stopped (its best so far), or None. The run is dropped all the same; a single run's
    command shows that best (``experiments.config.exit_interrupted``), never stores it."""

    def __init__(self, partial=None):
        super().__init__()
        self.partial = partial
        self.best_so_far = None  # set by nrpa.search.run_search: (best score, playouts, CPU-seconds)


class Stopped(RuntimeError):
    """A run off the main thread cut short by a stop request (``request_stop``): dropped, so no
    result. An ordinary exception: a dask worker shuts down on a KeyboardInterrupt."""

    def __init__(self):
        super().__init__("the run was stopped by a stop request (Ctrl-C in a dask cluster's client): dropped")


def request_stop() -> None:
    """Stop the kernels running in this process at their next playout (module docstring)."""
    _requests[0] += 1
    STOP_REQUEST[0] = 1


def clear_stop() -> None:
    """Let kernels run again, once those that the stop request concerned have returned."""
    STOP_REQUEST[0] = 0


def run_kernel(kernel, *args):
    """``kernel(*args)``, stoppable by Ctrl-C (module docstring). Off the main thread (a dask
    worker's thread) no signal arrives: the kernel is called there directly, and raises
    ``Stopped`` when a stop request (``request_stop``) came before it returned."""
    if threading.current_thread() is not threading.main_thread():
        asked = _requests[0]
        if STOP_REQUEST[0]:  # it would stop at its first playout
            raise Stopped()
        value = kernel(*args)
        if STOP_REQUEST[0] or _requests[0] != asked:  # cut short (the flag may be cleared by now)
            raise Stopped()
        return value
    outcome = {}
    # Waited on instead of the thread itself: a Thread.join interrupted by Ctrl-C can mark a
    # thread still running as stopped (CPython 3.11, bpo-45274's fix), so a join after it
    # returned at once and the kernel went on without being waited for.
    finished = threading.Event()

    def call():
        try:
            outcome["value"] = kernel(*args)
        except BaseException as error:  # handed to the waiting thread, which raises it
            outcome["error"] = error
        finally:
            finished.set()

    threading.Thread(target=call, name="nrpa-kernel", daemon=True).start()
    try:
        while not finished.wait(_POLL):
            pass
    except KeyboardInterrupt:
        request_stop()
        # A running kernel stops at its next playout's end (milliseconds) and hands back its
        # best so far; one still being compiled in its thread is not waited for beyond
        # _STOP_WAIT: the command ends within a second, and numba's cache keeps what was whole
        # (tests/test_cache.py interrupts compiles).
        finished.wait(_STOP_WAIT)
        clear_stop()
        raise Interrupted(outcome.get("value")) from None
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


_pending = []  # a Ctrl-C that came while the main thread was compiling


def _on_sigint(signum, frame):
    if global_compiler_lock.is_locked():  # this (the main) thread is inside numba's compiler
        _pending.append(signum)
        return
    raise KeyboardInterrupt


class _RaiseAfterCompile(event.Listener):
    """Raises the Ctrl-C noted during a compile once the main thread leaves the compiler."""

    def on_start(self, event_):
        pass

    def on_end(self, event_):
        if _pending and threading.current_thread() is threading.main_thread() \
                and not global_compiler_lock.is_locked():
            _pending.clear()
            raise KeyboardInterrupt


_listening = []  # the listener, once registered


def install() -> None:
    """The SIGINT handler of the module docstring, from the main thread (a command calls it)."""
    signal.signal(signal.SIGINT, _on_sigint)
    if not _listening:
        _listening.append(_RaiseAfterCompile())
        event.register("numba:compiler_lock", _listening[0])
