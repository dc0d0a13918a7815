"""Which stored runs count, and why the others do not: the records are read, then judged.

The two steps run one way. The store (experiments/store.py) reads and never judges; judge
reads nothing: it takes a record and says whether it counts. A run that does not count is
*starved*: a wall-clock run that other processes kept from its cores, whose scores mean
nothing at its time budget (experiments/machine.py says the rule and what a run records of
the machine). For each run a reader asks for, read_and_judge:

  1. reads it: its run file's record, else the archive's (RunStore.read_file, RunStore.archived);
  2. for a record made before runs recorded a ``machine`` section, reads the rates it is
     compared with: its column's records without the section, in the store's files and the
     archive (column_median; once per process);
  3. judges it (judge): it counts, or why not;
  4. acts on the judgement: a starved run file is moved aside into ``.starved/`` and a damaged
     one into ``.damaged/`` (the archive's record of the same run takes its place when that
     one counts), each said in one line on stderr; the starved archived records a command
     met are said in one line at its end.

So a starved run never enters a table, a verdict, the archive or the leaderboard, and the next
sweep makes it again. The reports count, per column, the runs missing because they were
starved (JudgedRun.starved): judged so now, or set aside so by an earlier reading.
"""

from __future__ import annotations

import atexit
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from experiments.machine import (StarvedRule, column_key, judged_by_rate, legacy_rates, machine_verdict,
                                 median_rate, rate_verdict)
from experiments.packs import ArchiveIndex
from experiments.store import RunStore, set_aside, set_aside_starved

SET_ASIDE_EARLIER = "set aside as starved by an earlier reading (its file is in .starved/)"


def judge(record: dict, rule: StarvedRule, column_median: float | None = None) -> str | None:
    """Why ``record``'s run does not count, or None when it counts. A run on the wall clock
    with a time budget is starved when its ``machine`` section says that other processes left
    it fewer cores than it needs (within ``rule.tolerance``); a record made before the section
    existed, when its playouts per wall-second are under ``rule.rate_fraction`` of
    ``column_median``, the median rate of its column's records without the section
    (column_median; None: nothing to compare it with, and it counts). A CPU-clock run, or one
    budgeted in playouts alone, does the same work on any machine: it always counts."""
    return machine_verdict(record, rule) or rate_verdict(record, column_median, rule)


def judge_in_store(store: RunStore, record: dict, rule: StarvedRule) -> str | None:
    """judge ``record`` (read from ``store``, or just made for it), reading first from ``store``
    the median rate of its column where the rate rule needs it."""
    return judge(record, rule, column_median(store, record) if judged_by_rate(record) else None)


@dataclass(frozen=True)
class JudgedRun:
    """One run as its reader gets it: the record that counts, or none and why."""

    path: Path  # its run file, there or not
    record: dict | None  # its run file's record, else the archive's; None: no record of it counts
    starved: str | None = None  # where no record counts because the run was starved: why


def read_and_judge(store: RunStore, paths: Iterable[Path], rule: StarvedRule) -> Iterator[JudgedRun]:
    """Each run of ``paths`` (run files of ``store``), read, then judged, one after the other:
    a reader may stop at the first that does not count and read no further."""
    for path in paths:
        yield _read_and_judge(store, Path(path), rule)


def _read_and_judge(store: RunStore, path: Path, rule: StarvedRule) -> JudgedRun:
    record, damage = store.read_file(path)
    starved = None if record is None else judge_in_store(store, record, rule)
    if record is not None and starved is None:
        return JudgedRun(path, record)
    # No file, a damaged one or a starved one: the archive's record of the run (the same run id,
    # hence the same config and seed: the same run) takes its place if it counts.
    archived = store.archived(path)
    archived_starved = None if archived is None else judge_in_store(store, archived, rule)
    if archived_starved is not None:
        say_at_exit(archived["run_id"], archived_starved)
    counted = archived if archived_starved is None else None
    consequence = ("the archive's record of the run is used instead" if counted is not None
                   else "the run will be made again")
    if damage is not None:
        set_aside(damage, consequence)
    if starved is not None:
        set_aside_starved(path, starved, consequence)
    if counted is not None:
        return JudgedRun(path, counted)
    return JudgedRun(path, None, starved or archived_starved
                     or (SET_ASIDE_EARLIER if store.starved_copy_exists(path) else None))


def counted_archived_runs(store: RunStore, rule: StarvedRule) -> Iterator[dict]:
    """Every run of ``store``'s archive whose record counts, each once (a starved one is said
    at the command's end); InputError when a pack is damaged."""
    for record in store.archived_runs():
        starved = judge_in_store(store, record, rule)
        if starved is None:
            yield record
        else:
            say_at_exit(record["run_id"], starved)


# The rates the rate rule compares a record with (machine.legacy_rates: column -> run id ->
# playouts per wall-second of the wall-clock records without a machine section), read once per
# process: of a store's domain folder (runs made now always record the section, so the files
# read once stay the right ones), and of an archive, again when its index is a new one (a pack
# added or changed).
_FOLDER_RATES: dict[Path, dict[str, dict[str, float]]] = {}
_ARCHIVE_RATES: dict[Path, tuple[ArchiveIndex, dict[str, dict[str, float]]]] = {}  # folder -> (its index, rates)


def column_median(store: RunStore, record: dict) -> float | None:
    """The median rate of the records without a ``machine`` section in ``record``'s column (a
    column: the repeats of one job), over ``store``'s archive and files, each run once (its
    file's rate over its archived record's); None when there are none."""
    domain = record["config"]["domain"]["name"]
    folder = store.domain_folder(domain).resolve()
    if folder not in _FOLDER_RATES:
        _FOLDER_RATES[folder] = legacy_rates(store.domain_records(domain))
    column = column_key(record)
    rates = dict(_archive_rates(store).get(column, {}))
    rates.update(_FOLDER_RATES[folder].get(column, {}))
    return median_rate(rates.values())


def _archive_rates(store: RunStore) -> dict[str, dict[str, float]]:
    index = store.archive()
    if index is None:
        return {}
    known = _ARCHIVE_RATES.get(index.folder)
    if known is None or known[0] is not index:
        known = _ARCHIVE_RATES[index.folder] = (index, legacy_rates(store.archived_runs()))
    return known[1]


_SAID_STARVED: dict[str, str] = {}  # archived run id judged starved -> why, said on stderr at exit


def say_at_exit(run_id: str, reason: str) -> None:
    """Keep a starved archived run for the one line said at the command's end (once per run and
    process, however many stores read the archive)."""
    if run_id in _SAID_STARVED:
        return
    if not _SAID_STARVED:  # one line in all at the command's end, not one per run
        atexit.register(_say_starved_archived)
    _SAID_STARVED[run_id] = reason


def _say_starved_archived() -> None:
    """One line for the starved archived runs a command met: they are not read, and a command
    that makes their columns' runs makes them again."""
    count = len(_SAID_STARVED)
    first, reason = next(iter(_SAID_STARVED.items()))
    print(f"{count} starved archived run{'s' if count != 1 else ''} not used (e.g. {first}: {reason}); a "
          "command that makes their columns' runs makes them again", file=sys.stderr)
