"""The run archive: run files packed into compressed, versioned Parquet files under
``archive/`` in the repository, committed with it, so that runs made on one machine are
reused on another (as COCO's ``cocopp.archives`` holds published runs to compare with).

    python -m experiments.archive pack     # `make archive`: a new pack of the runs no pack holds
    python -m experiments.archive list     # what the archive holds: packs, runs, CPU-hours
    (either takes outputs_dir=DIR, the store to pack, and archive_dir=DIR, the packs' folder)

A pack, ``archive/runs-v1-<UTC time>.parquet``, holds one row per run: its id, its domain, a
few columns to query it by (algorithm, best_score, playouts, cpu_seconds, wall_seconds,
source_hash, git_commit, finished_at), and ``record``, the whole run file as JSON text:
``json.loads(record)`` is the run file's dict, nothing dropped. Packs are append-only
segments: ``pack`` writes a new one with the runs of the store that no earlier pack holds and
never rewrites an old one, so committing the archive in steps adds only the new runs to git.

The store (experiments/store.py) looks a run up here (through experiments/packs.py, the packs'
format and index, which this module and the store share) when its file is absent: the sweep then
does not make it again, and the reports, exports and verdicts count it as any stored run. The
index (run id -> pack and row) is read once per process, from the packs' run_id columns; a
pack's record texts are read when one of its runs is first asked for. An archived record is
checked as a run file is; a bad one is skipped with a line on stderr and its run made again.
A damaged pack (not Parquet, a column missing or of the wrong type; when its records are first
read, one that is not a JSON object with a run file's keys and its row's run id), or one of a
format version this code does not read, stops the command with one line naming the file and what
to do, before any record of it is used. ``make verify`` replays every archived
certificate.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from experiments.machine import StarvedRule
from experiments.packs import (FORMAT_VERSION, PACK_SUFFIX, VERSION_KEY, archive_index, check_pack, pack_paths,
                               parse_record, read_column, schema)
from experiments.run_file import DamagedFile, load_run_file
from experiments.runs import VERIFY_MARKS, verify_record
from experiments.store import PROJECT_ROOT, RunStore, default_archive_dir, write_atomically
from experiments.valid_runs import judge_in_store
from nrpa.errors import InputError

# zstd level 19, not the default 3: packs 20-27% smaller (measured 2026-11-24 on 310 smoke runs of
# five domains and on 1258 runs of a store), for about 3 ms of packing per run; reading a pack is
# as fast at any level, and a pack is written once and then cloned many times.
ZSTD_LEVEL = 19


def pack_row(domain: str, record: dict) -> dict:
    result, version = record["result"], record["code_version"]
    return {"run_id": record["run_id"], "domain": domain, "algorithm": record["config"].get("algorithm"),
            "best_score": float(result["best_score"]), "playouts": int(result["playouts"]),
            "cpu_seconds": float(result["cpu_seconds"]), "wall_seconds": float(result["wall_seconds"]),
            "source_hash": version["source_hash"], "git_commit": version.get("git_commit"),
            "finished_at": record.get("finished_at"),
            # compact JSON of the dict as read: json.loads gives the same dict, keys in order
            "record": json.dumps(record, separators=(",", ":"))}


def pack_order(domain: str, record: dict) -> tuple:
    """Rows of one configuration side by side (their records differ in little but the trace),
    which zstd compresses better than the run-id order of the files (measured: README)."""
    config = {key: value for key, value in record["config"].items() if key != "repeat"}
    return domain, json.dumps(config, sort_keys=True), record["repeat"], record["run_id"]


@dataclass(frozen=True)
class Packed:
    path: Path | None  # None: nothing new to pack
    runs: int
    size: int  # bytes
    skipped: int  # damaged run files left out
    starved: int = 0  # run files of starved runs left out (experiments/valid_runs.py)


def pack(store: RunStore, folder: Path, now: datetime | None = None, rule: StarvedRule = StarvedRule()) -> Packed:
    """Write a new pack into ``folder`` of every run file of ``store`` that no pack there holds
    and whose record counts by ``rule`` (experiments/valid_runs.py)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    index = archive_index(folder)
    rows, skipped, starved = [], 0, 0
    for path in store.run_files():
        if path.stem in index:
            continue
        try:
            record = load_run_file(path)
        except FileNotFoundError:  # moved aside by a reader since the listing
            continue
        except DamagedFile as damage:  # packing only reads: the sweep that meets it sets it aside
            print(f"damaged {damage}: not packed", file=sys.stderr)
            skipped += 1
            continue
        reason = judge_in_store(store, record, rule)
        if reason is not None:  # a run that did not get its cores is no result to keep
            print(f"starved run file {path}: {reason}: not packed", file=sys.stderr)
            starved += 1
            continue
        rows.append((pack_order(path.parent.name, record), pack_row(path.parent.name, record)))
    if not rows:
        return Packed(None, 0, 0, skipped, starved)
    rows = [row for _, row in sorted(rows, key=lambda keyed: keyed[0])]
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
    target = Path(folder) / f"runs-v{FORMAT_VERSION}-{stamp}{PACK_SUFFIX}"
    number = 1
    while target.exists():  # two packs in one second: never overwrite one
        number += 1
        target = Path(folder) / f"runs-v{FORMAT_VERSION}-{stamp}-{number}{PACK_SUFFIX}"
    table = pa.Table.from_pylist(rows, schema=schema()).replace_schema_metadata(
        {VERSION_KEY: str(FORMAT_VERSION).encode(), b"created_at": stamp.encode(),
         b"created_by": b"python -m experiments.archive pack"})
    buffer = pa.BufferOutputStream()
    pq.write_table(table, buffer, compression="zstd", compression_level=ZSTD_LEVEL,
                   use_dictionary=["domain", "algorithm", "source_hash", "git_commit"])
    data = buffer.getvalue().to_pybytes()
    write_atomically(target, data)  # a killed pack leaves no half pack for the store to stop on
    return Packed(target, len(rows), len(data), skipped, starved)


def verify_packs(paths: list[Path]) -> tuple[list[tuple[str, dict]], int, int]:
    """Replay the certificate of every record of every pack (duplicates too), printing a line
    per run as verify_files does for run files; a damaged pack or record fails and the others
    are still checked. Returns the (label, record) of each verified run, the count checked
    and the count that could not be replayed (their instance file is gone)."""
    verified, checked, skipped = [], 0, 0
    for path in paths:
        try:
            check_pack(path)
            rows = zip(read_column(path, "run_id"), read_column(path, "record"))
        except InputError as error:  # a damaged pack, or one of another format version
            checked += 1
            print(f"FAIL {path}: {error}")
            continue
        for identity, text in rows:
            checked += 1
            label = f"{path} run {identity}"
            record, problem = parse_record(text, identity)
            ok, message = (False, f"damaged: {problem}") if problem else verify_record(record)
            if ok:
                verified.append((label, record))
            skipped += ok is None
            print(f"{VERIFY_MARKS[ok]} {label}: {message}")
    return verified, checked, skipped


def kib(size: int) -> str:
    return f"{size / 1024:.1f} KiB"


def archive_total(folder: Path) -> tuple[int, int, int]:
    """(packs, runs, bytes) of the archive."""
    index = archive_index(folder)
    return len(index.packs), len(index.where), sum(path.stat().st_size for path in pack_paths(folder))


def pack_command(store: RunStore, folder: Path) -> None:
    packed = pack(store, folder)
    if packed.path is None:
        print(f"nothing new to pack: no run file under {store.root / 'runs'} that {folder} lacks; no pack written")
    else:
        print(f"{packed.path}: {packed.runs} runs, {packed.size} bytes ({kib(packed.size)}, "
              f"{packed.size / packed.runs / 1024:.2f} KiB per run)")
    if packed.skipped:
        print(f"{packed.skipped} damaged run file(s) left out (named above); a sweep sets them aside and makes "
              "their runs again")
    if packed.starved:
        print(f"{packed.starved} run file(s) of starved runs left out (named above); a sweep sets them aside and "
              "makes their runs again")
    packs, runs, size = archive_total(folder)
    print(f"archive {folder}: {packs} pack(s), {runs} runs, {size} bytes ({kib(size)})"
          + (f"; commit it (`git add {folder}`) to reuse its runs in another clone" if packed.path else ""))


def list_command(folder: Path) -> None:
    """Each pack, then the runs per domain and algorithm with their CPU-hours."""
    index = archive_index(folder)
    if not index.packs:
        print(f"no packs in {folder}: `make archive` writes one")
        return
    print(f"{'pack':<40} {'format':>6} {'runs':>6} {'size':>12}")
    for pack_ in index.packs:
        size = pack_.path.stat().st_size
        print(f"{pack_.path.name:<40} {FORMAT_VERSION:>6} {len(pack_.run_ids):>6} {kib(size):>12}")
    groups = defaultdict(lambda: {"runs": 0, "cpu": 0.0, "wall": 0.0, "threads": set()})
    for identity in index.where:
        record = index.record(identity)
        if record is None:
            continue
        settings = record.get("settings", {})
        group = groups[record["config"]["domain"]["name"], record["config"].get("algorithm", "?")]
        group["runs"] += 1
        group["cpu"] += record["result"]["cpu_seconds"]
        group["wall"] += record["result"]["wall_seconds"]
        if settings.get("parallel", "none") != "none":
            group["threads"].add(int(settings.get("threads", 1)))
    print(f"\n{'domain':<12} {'algorithm':<10} {'runs':>6} {'CPU-hours':>10} {'wall-hours':>10}")
    for (domain, algorithm), group in sorted(groups.items()):
        # A parallel run's CPU-seconds count every thread: its wall-hours are what it took.
        note = (f"  parallel runs on {', '.join(map(str, sorted(group['threads'])))} threads: CPU-hours count "
                "every thread" if group["threads"] else "")
        print(f"{domain:<12} {algorithm:<10} {group['runs']:>6} {group['cpu'] / 3600:>10.3f} "
              f"{group['wall'] / 3600:>10.3f}{note}")
    packs, runs, size = archive_total(folder)
    print(f"\narchive {folder}: {packs} pack(s), {runs} runs, {kib(size)}")


def parse_overrides(overrides: list[str]) -> dict[str, Path]:
    known = ("outputs_dir", "archive_dir")
    values = {}
    for override in overrides:
        key, equals, value = override.partition("=")
        if not equals or key not in known or not value:
            raise InputError(f"{override!r} is not valid here: give {' or '.join(f'{k}=DIR' for k in known)}")
        values[key] = Path(value)
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("pack", "list"))
    parser.add_argument("overrides", nargs="*", help="outputs_dir=DIR (the store to pack), archive_dir=DIR")
    arguments = parser.parse_args(argv)
    try:
        values = parse_overrides(arguments.overrides)
        folder = values.get("archive_dir") or default_archive_dir()
        if folder is None:
            raise InputError("no archive folder: NRPA_ARCHIVE=none is set; unset it or give archive_dir=DIR")
        if folder.exists() and not folder.is_dir():
            raise InputError(f"the archive needs {folder} to be a folder, and it is a file: move it away")
        if arguments.command == "pack":
            # the archive's records are never read as runs here; they judge an old file's rate (valid_runs.py)
            store = RunStore(values.get("outputs_dir") or PROJECT_ROOT / "outputs", archive=folder)
            store.check()
            pack_command(store, folder)
        else:
            list_command(folder)
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
