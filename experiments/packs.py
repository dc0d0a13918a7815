"""The run archive's packs, read: their format (columns, format version) and the index of
run id -> pack and row, built once per process (experiments/archive.py says what a pack is).

The store (experiments/store.py) reads archived runs through this module; writing packs,
listing them and replaying their certificates are experiments/archive.py's, above the store.
pyarrow is imported where packs are read only: a store without an archive, and every command
that never meets a missing run file, do without it.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from experiments.run_file import REQUIRED_KEYS, run_file_problem
from nrpa.errors import InputError

FORMAT_VERSION = 1
VERSION_KEY = b"nrpa_archive_format"  # in each pack's Parquet key-value metadata
PACK_SUFFIX = ".parquet"
# The columns to query a pack by without parsing its records, after run_id and domain.
QUERY_COLUMNS = ("algorithm", "best_score", "playouts", "cpu_seconds", "wall_seconds", "source_hash",
                 "git_commit", "finished_at")
COLUMNS = ("run_id", "domain", *QUERY_COLUMNS, "record")


class DamagedPack(InputError):
    """A pack that cannot be read as an archive pack: the command stops, naming it."""

    def __init__(self, path: Path, reason: str):
        super().__init__(f"archive pack {path}: {reason}: restore it (`git checkout -- {path}`) or move it out "
                         f"of {path.parent}, then run the command again")


def pack_paths(folder: Path) -> list[Path]:
    """The packs of an archive folder, oldest name first (none when the folder is absent)."""
    try:
        return sorted(path for path in Path(folder).iterdir() if path.suffix == PACK_SUFFIX and path.is_file())
    except (FileNotFoundError, NotADirectoryError):
        return []


def schema():
    # pyarrow is imported where packs are read or written only: a store without an archive, and
    # every command that never meets a missing run file, do without it.
    import pyarrow as pa

    types = {"run_id": pa.string(), "domain": pa.string(), "algorithm": pa.string(), "best_score": pa.float64(),
             "playouts": pa.int64(), "cpu_seconds": pa.float64(), "wall_seconds": pa.float64(),
             "source_hash": pa.string(), "git_commit": pa.string(), "finished_at": pa.string(),
             "record": pa.large_string()}
    return pa.schema([(name, types[name]) for name in COLUMNS])


def check_pack(path: Path) -> None:
    """DamagedPack (or InputError for another format version) unless ``path`` is a pack this
    code reads: Parquet, its format version in its metadata, its columns there."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        arrow_schema = pq.read_schema(path)  # the file's footer: a file cut short has none
    except (pa.ArrowException, OSError) as error:
        raise DamagedPack(path, f"not a Parquet file, or cut short ({error})") from None
    metadata = arrow_schema.metadata or {}
    if VERSION_KEY not in metadata:
        raise DamagedPack(path, f"not a run archive pack (its metadata has no {VERSION_KEY.decode()})")
    version = metadata[VERSION_KEY].decode(errors="replace")
    if version != str(FORMAT_VERSION):
        raise InputError(f"archive pack {path}: format version {version}, and this code reads version "
                         f"{FORMAT_VERSION} only: update the code (`git pull`), or move the pack out of "
                         f"{path.parent}")
    missing = [name for name in COLUMNS if name not in arrow_schema.names]
    if missing:
        raise DamagedPack(path, f"lacks the column(s) {', '.join(missing)}")
    # Each column must hold what pack() writes there (a pack written by other tools may use either
    # string type, any integer width, an integer in a float column): a reader, or the user's own
    # query, then never meets a value of another type.
    wrong = [f"{field.name} ({arrow_schema.field(field.name).type}, not {field.type})" for field in schema()
             if not _same_kind(arrow_schema.field(field.name).type, field.type)]
    if wrong:
        raise DamagedPack(path, f"its column(s) {', '.join(wrong)} have the wrong type")


def _same_kind(found, expected) -> bool:
    import pyarrow as pa

    if pa.types.is_integer(expected):
        return pa.types.is_integer(found)
    if pa.types.is_floating(expected):
        return pa.types.is_floating(found) or pa.types.is_integer(found)
    return pa.types.is_string(found) or pa.types.is_large_string(found)


def read_column(path: Path, name: str) -> list:
    """One column of a checked pack (the file is opened and closed again: an index of many
    packs holds no open files)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path, columns=[name]).column(name).to_pylist()
    except (pa.ArrowException, OSError) as error:
        raise DamagedPack(path, f"its {name} column cannot be read ({error})") from None


def parse_record(text: str | None, run_identity: str, parsed: dict | None = None) -> tuple[dict | None, str | None]:
    """(the record, None) when ``text`` (or ``parsed``, its dict) is a whole run file of that run
    id, else (None, what is wrong)."""
    try:
        record = json.loads(text) if parsed is None else parsed
    except (TypeError, json.JSONDecodeError) as error:
        return None, f"not valid JSON ({error})"
    if not isinstance(record, dict):
        return None, f"not a JSON object but a {type(record).__name__}"
    problem = run_file_problem(record, run_identity)
    return (None, problem) if problem else (record, None)


def check_records(path: Path, run_ids: list[str], texts: list) -> list[dict]:
    """The records of a pack, parsed; DamagedPack, naming the pack and the first bad row, unless
    every one is a JSON object with the keys of a run file and the run id of its row (a record
    that has them and is still not a whole run file is skipped when asked for: parse_record)."""
    records = []
    for row, (identity, text) in enumerate(zip(run_ids, texts)):
        try:
            record = json.loads(text)
        except (TypeError, json.JSONDecodeError) as error:
            raise DamagedPack(path, f"the record of row {row} (run {identity}) is not valid JSON ({error})") from None
        if not isinstance(record, dict):
            raise DamagedPack(path, f"the record of row {row} (run {identity}) is a JSON "
                                    f"{type(record).__name__}, not an object")
        missing = [key for key in REQUIRED_KEYS if key not in record]
        if missing:
            raise DamagedPack(path, f"the record of row {row} (run {identity}) lacks {', '.join(missing)}")
        if record["run_id"] != identity:
            raise DamagedPack(path, f"the record of row {row} has the run id {record['run_id']!r}, "
                                    f"and its run_id column {identity!r}")
        records.append(record)
    return records


@dataclass
class Pack:
    path: Path
    run_ids: list[str]
    records: list[str] | None = None  # the record texts, read and checked when one is first asked for
    parsed: list[dict | None] | None = None  # their dicts from the check, each handed out once

    def record_text(self, row: int) -> str:
        if self.records is None:
            # a pack whose records do not parse is refused, naming it, before any is used
            texts = read_column(self.path, "record")
            self.parsed = check_records(self.path, self.run_ids, texts)
            self.records = texts
        return self.records[row]

    def take_parsed(self, row: int) -> dict | None:
        """The record of ``row`` parsed by the check, the first time only (then None): a
        caller gets a dict of its own, and no record is parsed twice for one reading."""
        record, self.parsed[row] = self.parsed[row], None
        return record


@dataclass
class ArchiveIndex:
    """Every pack of a folder, opened and checked, and where each run id is."""

    folder: Path
    signature: tuple  # (name, size, mtime) of each pack: a pack added or changed gives a new index
    packs: list[Pack] = field(default_factory=list)
    where: dict[str, tuple[int, int]] = field(default_factory=dict)  # run id -> (pack, row)
    rejected: set[str] = field(default_factory=set)  # run ids whose record is bad (said once)

    @classmethod
    def build(cls, folder: Path, signature: tuple) -> ArchiveIndex:
        index = cls(folder, signature)
        for path in pack_paths(folder):
            check_pack(path)
            pack = Pack(path, read_column(path, "run_id"))
            for row, identity in enumerate(pack.run_ids):
                # Two packs can hold the same run (two clones packed it before merging): the
                # same id is the same config and seed, so the first pack's record serves.
                index.where.setdefault(identity, (len(index.packs), row))
            index.packs.append(pack)
        return index

    def __contains__(self, identity: str) -> bool:
        return identity in self.where

    def record(self, identity: str) -> dict | None:
        """The archived record of run ``identity`` (a new dict each call), or None."""
        if identity not in self.where or identity in self.rejected:
            return None
        pack_number, row = self.where[identity]
        pack = self.packs[pack_number]
        text = pack.record_text(row)
        record, problem = parse_record(text, identity, pack.take_parsed(row))
        if problem:
            self.rejected.add(identity)
            print(f"damaged archived run {identity} in {pack.path}: {problem}; skipped, the run will be made "
                  "again", file=sys.stderr)
        return record


_INDEXES: dict[Path, ArchiveIndex] = {}


def archive_index(folder: Path) -> ArchiveIndex:
    """The index of ``folder``'s packs, built once per process and again only when a pack is
    added, removed or changed (a listing of the folder tells; no archive costs that listing)."""
    folder = Path(folder).resolve()
    signature = tuple((path.name, *_size_and_time(path)) for path in pack_paths(folder))
    index = _INDEXES.get(folder)
    if index is None or index.signature != signature:
        index = _INDEXES[folder] = ArchiveIndex.build(folder, signature)
    return index


def _size_and_time(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_size, status.st_mtime_ns


def archived_record(folder: Path, identity: str) -> dict | None:
    """The archived record of run ``identity`` in ``folder``'s packs, or None."""
    return archive_index(folder).record(identity)
