"""What the machine gave a wall-clock run, and whether that was enough: starved runs.

A run on the wall clock (``clock=wall``: the threaded searches, the averaged ones, the members
of root and hybrid runs) with a time budget (``max_time``) does the work the machine lets it
do in its seconds. When other
processes take the cores it needs, it makes a fraction of its playouts (two threaded runs at
once: 1/170 of them on numba's OpenMP layer, a half to four fifths on TBB, which the threaded
kernels now use: nrpa/threading_layer.py), and its scores mean nothing at its time budget.
Such a run is *starved*: its readers set it
aside as they do a damaged file, and it never enters a table, a verdict, the archive or the
leaderboard (experiments/valid_runs.py judges each record the store reads by this module's rule).

What a run records, in its run file's ``machine`` section (absent from records made before;
CPU-clock runs have none, their budget is their own CPU time):

  cpus                the CPUs it could run on (``os.sched_getaffinity``)
  cores_needed        its threads (1 for a sequential run), at most ``cpus``
  wall_seconds        its window: from before the search started to after it ended
  cpu_seconds         the CPU time of its own process in that window (every thread)
  playouts_per_wall_second
  others_cpu_seconds  the CPU time that every other process took on its CPUs in that window:
                      the busy time of those CPUs in ``/proc/stat`` (user, nice, system, irq,
                      softirq and steal: a hypervisor's steal is a core taken too) minus its
                      own; null where there is no ``/proc/stat`` (not Linux) or where the work
                      ran elsewhere (a dask cluster's workers), and then the run is never
                      judged starved from it
  cores_left          cpus - others_cpu_seconds / wall_seconds: what the others left it

The rule (``starved.tolerance``, default 0.25): a run is starved when ``cores_left`` falls below
(1 - tolerance) x ``cores_needed``. It reads what other processes took, never the run's own
CPU share: the shared policy at levels 2-3 idles by design while the slowest thread of a
round finishes (a CPU share of 0.56-0.79 of wall x threads in healthy runs), and a plain
CPU-share threshold would condemn those. A run pinned to fewer CPUs than its threads (taskset)
needs only the CPUs it has: it is slower, not starved.

Records made before the ``machine`` section existed are judged by their rate within their
column (a column: the repeats of one job, the run config less ``repeat``): starved when their
playouts per wall-second are under ``starved.rate_fraction`` (default 0.25) of the median of
the column's records without the section. Over the archive of 2026-11-25 this finds the 34
runs of 410 on the wall clock that made under a quarter of their column's median playouts
(25 shared-policy level-1 runs of distributed_fig4/fig5, 9 threaded SP-MCTS runs); the
median is robust to them as long as they are under half the column.

Before a sweep starts wall-clock runs, and between them, it looks at the machine for
``LOAD_WINDOW`` seconds (the same /proc/stat figures) and waits until the others leave the
cores its next runs need, at most ``starved.wait`` seconds (default 600), then stops with a
one-line message (BusyMachine) rather than make starved runs (experiments/workers.py).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median

from nrpa.errors import InputError

PROC_STAT = Path("/proc/stat")
# The fields of a cpuN line of /proc/stat that count a CPU busy (guest time is inside user and nice)
BUSY_FIELDS = (0, 1, 2, 5, 6, 7)  # user, nice, system, irq, softirq, steal (idle 3 and iowait 4 are not)
LOAD_WINDOW = 0.2  # seconds of /proc/stat a sweep reads before each batch of wall-clock runs (20 ticks a CPU at 100 Hz)


@dataclass(frozen=True)
class StarvedRule:
    """The settings of the ``starved`` section of conf/config.yaml."""

    tolerance: float = 0.25
    rate_fraction: float = 0.25
    wait: float = 600.0

    def __post_init__(self):
        if not (math.isfinite(self.tolerance) and 0 <= self.tolerance < 1):
            raise InputError(f"starved.tolerance={self.tolerance} is out of range: 0 <= tolerance < 1")
        if not (math.isfinite(self.rate_fraction) and 0 <= self.rate_fraction < 1):
            raise InputError(f"starved.rate_fraction={self.rate_fraction} is out of range: 0 <= rate_fraction < 1")
        if not (math.isfinite(self.wait) and self.wait >= 0):
            raise InputError(f"starved.wait={self.wait} is out of range: it must be >= 0 seconds")

    def cores_short(self, cores_left: float, cores_needed: float) -> bool:
        return cores_left < (1 - self.tolerance) * cores_needed


class BusyMachine(InputError):
    """The machine stayed too busy for wall-clock runs: the sweep stops rather than make starved runs."""


def usable_cpus() -> set[int]:
    """The CPUs this process may run on."""
    try:
        return set(os.sched_getaffinity(0))
    except AttributeError:  # not Linux: every CPU
        return set(range(os.cpu_count() or 1))


def busy_seconds(cpus: set[int], text: str | None = None) -> float | None:
    """Seconds the CPUs ``cpus`` have been busy since boot, from /proc/stat (``text``: its
    contents, for tests); None where there is no /proc/stat or it does not list them."""
    if text is None:
        try:
            text = PROC_STAT.read_text()
        except OSError:
            return None
    ticks, seen = 0, set()
    for line in text.splitlines():
        name, _, fields = line.partition(" ")
        if name.startswith("cpu") and name[3:].isdigit() and int(name[3:]) in cpus:
            values = fields.split()
            ticks += sum(int(values[i]) for i in BUSY_FIELDS if i < len(values))
            seen.add(int(name[3:]))
    if seen != cpus:
        return None
    return ticks / os.sysconf("SC_CLK_TCK")


def cores_needed(settings: dict, cpus: int) -> int:
    """The cores a run of ``settings`` (a record's settings) keeps busy: its threads (1 when
    sequential), no more than the CPUs it may use."""
    threads = int(settings.get("threads", 1)) if settings.get("parallel", "none") != "none" else 1
    return max(1, min(threads, cpus))


class Watch:
    """The window of one run: ``start()`` before the search, ``section(playouts, settings)`` after."""

    def start(self) -> Watch:
        self.cpus = usable_cpus()
        self.busy = busy_seconds(self.cpus)
        self.own = time.process_time()
        self.wall = time.monotonic()
        return self

    def section(self, playouts: int, settings: dict, measured: bool = True) -> dict:
        """The run's ``machine`` section; ``measured=False``: its work ran elsewhere (a dask
        cluster), so what other processes did here says nothing of it."""
        wall = max(time.monotonic() - self.wall, 1e-9)
        own = time.process_time() - self.own
        busy = busy_seconds(self.cpus) if measured else None
        others = None if busy is None or self.busy is None else max(0.0, busy - self.busy - own)
        return machine_section(len(self.cpus), cores_needed(settings, len(self.cpus)), wall, own, playouts, others)


def machine_section(cpus: int, needed: int, wall: float, own: float, playouts: int, others: float | None) -> dict:
    return {"cpus": cpus, "cores_needed": needed, "wall_seconds": wall, "cpu_seconds": own,
            "playouts_per_wall_second": playouts / wall, "others_cpu_seconds": others,
            "cores_left": None if others is None else cpus - others / wall}


def timed_on_wall_clock(settings: dict) -> bool:
    """Whether a run of ``settings`` (a record's) does the work its wall-seconds allow: a
    time budget on the wall clock. A run budgeted in playouts alone does the same work on any
    machine (only its wall trace stretches), so it is never judged starved."""
    return settings.get("clock") == "wall" and settings.get("max_time") is not None


def on_wall_clock(record: dict) -> bool:
    return timed_on_wall_clock(record.get("settings", {}))


def column_key(record: dict) -> str:
    """A record's column: its run config less the repeat (the repeats of one job)."""
    return json.dumps({key: value for key, value in record["config"].items() if key != "repeat"}, sort_keys=True)


def wall_rate(record: dict) -> float:
    """Playouts per wall-second of the whole run."""
    return record["result"]["playouts"] / max(float(record["result"]["wall_seconds"]), 1e-9)


def machine_verdict(record: dict, rule: StarvedRule) -> str | None:
    """Why the run is starved by what its ``machine`` section recorded, or None (not starved,
    not on the wall clock, or nothing measured)."""
    machine = record.get("machine")
    if not on_wall_clock(record) or not isinstance(machine, dict) or machine.get("cores_left") is None:
        return None
    left, needed = float(machine["cores_left"]), float(machine["cores_needed"])
    if not rule.cores_short(left, needed):
        return None
    return (f"other processes left it {left:.2f} of {machine['cpus']} CPUs, under {1 - rule.tolerance:g} x the "
            f"{needed:g} core(s) it needs (starved.tolerance={rule.tolerance:g})")


def judged_by_rate(record: dict) -> bool:
    """Whether the rate rule judges ``record``: a wall-clock record without a ``machine``
    section (made before the section existed), which only its column's rates can tell starved."""
    return on_wall_clock(record) and "machine" not in record


def rate_verdict(record: dict, column_median: float | None, rule: StarvedRule) -> str | None:
    """Why a record without a ``machine`` section is starved by its rate within its column
    (``column_median``: the median rate of the column's records without one), or None."""
    if not judged_by_rate(record) or not column_median:
        return None
    rate = wall_rate(record)
    if rate >= rule.rate_fraction * column_median:
        return None
    return (f"{rate:,.0f} playouts per wall-second, under {rule.rate_fraction:g} x its column's median "
            f"{column_median:,.0f} (starved.rate_fraction; it records no machine section)")


def legacy_rates(records) -> dict[str, dict[str, float]]:
    """Column -> run id -> rate of the wall-clock records without a ``machine`` section: what
    the rate rule compares a record of the same kind with."""
    rates: dict[str, dict[str, float]] = {}
    for record in records:
        if judged_by_rate(record):
            rates.setdefault(column_key(record), {})[record["run_id"]] = wall_rate(record)
    return rates


def median_rate(rates) -> float | None:
    rates = list(rates)
    return median(rates) if rates else None


def rate_outliers(records: list[dict], rule: StarvedRule) -> list[dict]:
    """The wall-clock records with a ``machine`` section (kept: it shows no contention) whose
    rate is under ``rule.rate_fraction`` of the median of ``records`` (one column): worth a look."""
    measured = [r for r in records if on_wall_clock(r) and "machine" in r]
    if len(measured) < 2:
        return []
    middle = median(wall_rate(r) for r in measured)
    return [r for r in measured if wall_rate(r) < rule.rate_fraction * middle]


def others_cores() -> tuple[float, int] | None:
    """(cores that other processes keep busy over LOAD_WINDOW seconds, CPUs usable here), or
    None without /proc/stat. This process's own CPU in the window is left out."""
    window = LOAD_WINDOW
    cpus = usable_cpus()
    before, own = busy_seconds(cpus), time.process_time()
    if before is None:
        return None
    time.sleep(window)
    after = busy_seconds(cpus)
    if after is None:
        return None
    return max(0.0, after - before - (time.process_time() - own)) / window, len(cpus)


def wait_for_cores(needed: int, rule: StarvedRule, *, measure=None, sleep=time.sleep,
                   clock=time.monotonic) -> None:
    """Return when other processes leave ``needed`` cores (within the rule's tolerance), said
    once on stderr if it has to wait; BusyMachine when they do not within ``rule.wait`` seconds.
    Nothing to wait for without /proc/stat (the runs' own records still judge them).
    ``measure``: others_cores (tests give their own)."""
    measure = measure or others_cores
    started, said = clock(), False
    while True:
        measured = measure()
        if measured is None:
            return
        busy, cpus = measured
        needed_here = min(needed, cpus)
        if not rule.cores_short(cpus - busy, needed_here):
            return
        waited = clock() - started
        text = (f"other processes keep {busy:.2f} of the {cpus} CPUs busy, and the next wall-clock run(s) need "
                f"{needed_here}")
        if waited >= rule.wait:
            raise BusyMachine(f"{text}: still so after {waited:.0f} s (starved.wait={rule.wait:g}); stopped rather "
                              "than make runs that would be set aside as starved: run again on a quieter machine")
        if not said:
            print(f"{text}: waiting up to {rule.wait:g} s (starved.wait) for them", file=sys.stderr, flush=True)
            said = True
        sleep(min(5.0, max(0.0, rule.wait - waited)))
