"""Ctrl-C in a dask client stops the runs on the cluster's workers.

Ctrl-C in the client of a dask cluster (experiments/workers.py ``_parallel_backend``,
``experiments.cluster.cluster_client``)
reaches only the client: ``stop_cluster_runs`` then cancels the client's tasks and asks every
worker process (``client.run``, in its event loop, outside the task threads) to set its stop flag
(``nrpa.interrupt.request_stop``). The kernels running there return at their next playout and
their runs raise ``nrpa.interrupt.Stopped``, never a record. Each worker clears its flag once none
of the client's cancelled tasks is left on it (a running one stays until its thread returns, a
queued one until the cancel arrives) and the actor calls made before it (SP-MCTS's cluster
members) have returned: cleared sooner, a task still loading its kernel, or one queued on the
worker, would run to its budget. A shared cluster's other clients lose the runs they had running
on those workers at that moment (``Stopped``); theirs that start later run normally.
"""

from __future__ import annotations

import asyncio
import sys

from nrpa import interrupt


def stop_cluster_runs(client) -> None:
    """Ctrl-C in this dask client: cancel its tasks and stop their kernels on every worker
    (module docstring). The client does not wait for them: each worker clears its flag itself."""
    from distributed import Future

    keys = list(client.futures)
    try:
        client.cancel([Future(key, client) for key in keys])
        client.run(_stop_kernels, keys)
    except Exception as error:  # the cluster unreachable: its runs go on, and the line says so
        print(f"The dask cluster's workers could not be asked to stop ({type(error).__name__}: {error}): "
              "their runs go on to their budgets.", file=sys.stderr, flush=True)


_waited_keys: set = set()  # in a worker process: the interrupted client's task keys a stop waits for
_waited_calls: list = []  # and the actor calls made before it (asyncio futures)
_clearing: list = []  # the task that clears the flag, while it waits


async def _stop_kernels(keys: list, dask_worker) -> None:
    """In each worker process (``client.run``): set the stop flag now; clear it in the
    background once what it concerns has returned (module docstring)."""
    interrupt.request_stop()
    _waited_keys.update(keys)
    # the actors' one thread (dask runs their calls one at a time) reaches this once the calls before it returned
    _waited_calls.append(asyncio.get_running_loop().run_in_executor(dask_worker.executors["actor"], int))
    if not _clearing:
        _clearing.append(asyncio.get_running_loop().create_task(_clear_when_returned(dask_worker)))


async def _clear_when_returned(dask_worker) -> None:
    # A cancelled task stays in the worker's state until its thread returns (or, queued, until the
    # cancel arrives). A key not here yet stays waited for: the scheduler, before the cancel reached
    # it, may still send one when a task of the client ends here (whose key leaves after it).
    while _waited_keys.intersection(dask_worker.state.tasks) or not all(call.done() for call in _waited_calls):
        await asyncio.sleep(0.05)
    _waited_keys.clear()
    _waited_calls.clear()
    interrupt.clear_stop()
    _clearing.clear()
