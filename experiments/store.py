"""The result store: one JSON file per finished run, written atomically.

A run's identity is its semantic configuration (domain options, algorithm settings,
budget, seed), hashed: never output paths, job counts or scale names. A file appears only
complete (written to a temporary name, flushed, renamed, then the folder flushed, so the
rename survives a power cut too), so a run killed at any moment leaves either no file or a
whole one, and a finished run is never lost.

A file that is there but cannot be read, or lacks what a run file holds (a disk that filled
up, a copy cut short, a hand edit), is damaged: readers move it aside into a ``.damaged``
folder beside it, say so in one line, and treat the run as missing, so a sweep makes it again
and no report stops on it.

A wall-clock run that did not get its cores (another process took them) is *starved*
(experiments/machine.py says how that is told): readers move its file aside into a
``.starved`` folder beside it, say so in one line, and treat the run as missing, as they do a
damaged file; an archived record judged starved is not used either. So a starved run never
enters a table, a verdict, the archive or the leaderboard, and the next sweep makes it again.

A store also reads the run archive (experiments/archive.py): the packs under ``archive/`` in
the repository, committed, so that runs made on one machine are found on another. A run whose
file is absent is looked up there by its id; a file, when there is one, always wins. The
archive is the project's ``archive/`` folder, or the folder ``$NRPA_ARCHIVE`` names
(``NRPA_ARCHIVE=none``: no archive, every run is made here).
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path

import nrpa
from experiments import machine
from experiments.packs import archive_index, archived_record
from experiments.run_file import DamagedFile, load_run_file
from nrpa.errors import InputError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TEMPORARY_SUFFIX = ".partial"
STORED_RUNS: list[str] = []  # the run files this process wrote (for the line a Ctrl-C ends with)
DAMAGED_FOLDER = ".damaged"
STARVED_FOLDER = ".starved"
ARCHIVE_ENVIRONMENT = "NRPA_ARCHIVE"


def default_archive_dir() -> Path | None:
    """The project's archive/ folder, or the folder $NRPA_ARCHIVE names; None for
    NRPA_ARCHIVE=none (the tests set it, so that runs archived here are never theirs)."""
    named = os.environ.get(ARCHIVE_ENVIRONMENT)
    if named is None:
        return PROJECT_ROOT / "archive"
    return None if named.strip().lower() in ("", "none") else Path(named)


@lru_cache(maxsize=1)
def code_version() -> dict:
    """The git commit of the checkout (and whether it had local changes), the hash of the
    package sources and the hash of its kernel files, which the compiled kernels were built from."""
    version = {"git_commit": None, "git_dirty": None, "source_hash": nrpa.SOURCE_HASH,
               "kernel_hash": nrpa.KERNEL_HASH}
    try:
        def git(*args):
            return subprocess.run(
                ["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=10, check=True
            ).stdout.strip()

        version["git_commit"] = git("rev-parse", "HEAD")
        version["git_dirty"] = bool(git("status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        pass  # not a git checkout: the source hash still identifies the code
    return version


_SAID_STARVED: dict[str, str] = {}  # archived run id judged starved -> why, said on stderr at exit


def _say_starved_archived() -> None:
    """One line for the starved archived runs a command met: they are not read, and a command
    that makes their columns' runs makes them again."""
    count = len(_SAID_STARVED)
    first, reason = next(iter(_SAID_STARVED.items()))
    print(f"{count} starved archived run{'s' if count != 1 else ''} not used (e.g. {first}: {reason}); a "
          "command that makes their columns' runs makes them again", file=sys.stderr)


# A domain folder of run files -> column -> run id -> rate of its records without a machine
# section (experiments/machine.py), read once per process: new runs always record the section.
_FILE_RATES: dict[Path, dict[str, dict[str, float]]] = {}
_PROJECT_ARCHIVE = object()  # RunStore's default archive: default_archive_dir() when the store is made


class RunStore:
    """Run files under ``root/runs/<domain>/<run id>.json``, and the archived runs of
    ``archive`` (a folder of packs; by default the project's, see default_archive_dir; None:
    none) where a run has no file."""

    def __init__(self, root: str | Path, archive: str | Path | None = _PROJECT_ARCHIVE,
                 rule: machine.StarvedRule = machine.StarvedRule()):
        self.root = Path(root)
        self.archive_dir = default_archive_dir() if archive is _PROJECT_ARCHIVE else (
            None if archive is None else Path(archive))
        self.rule = rule  # what makes a wall-clock run starved (conf/config.yaml, starved)
        self._starved_archived: set[str] = set()  # archived run ids judged starved (said once)

    def check(self, domain_name: str | None = None) -> None:
        """InputError when a file stands where the store (or its runs folder, or the domain's
        folder in it) must be a folder: nothing could be written there."""
        folders = [self.root, self.root / "runs"] + ([self.root / "runs" / domain_name] if domain_name else [])
        for folder in folders:
            if folder.exists() and not folder.is_dir():
                raise InputError(f"the result store needs {folder} to be a folder, and it is a file: "
                                 "move it away or choose another outputs_dir")

    def path_for(self, domain_name: str, identity: str) -> Path:
        return self.root / "runs" / domain_name / f"{identity}.json"

    def load(self, path: Path) -> dict:
        """The run file's record, or the archived record of its run when there is no file;
        DamagedFile if the file cannot be read or is not a whole run file, FileNotFoundError
        when neither the file nor the archive holds the run."""
        if not Path(path).exists():
            archived = self.archived(path)
            if archived is not None:
                return archived
        return load_run_file(path)

    def load_or_set_aside(self, path: Path) -> dict | None:
        """The record of the run file, else the archive's record of its run, else None (no
        file, or a damaged one, then moved aside, and the run not archived)."""
        # A run both in a file and in the archive: the file wins. Both have the same run id,
        # hence the same config and seed, so either is the same run; the file is at hand.
        if not Path(path).exists():
            return self.archived(path)
        try:
            record = load_run_file(path)
        except DamagedFile as damage:
            archived = self.archived(path)
            set_aside(damage, "the archive's record of the run is used instead" if archived is not None
                      else "the run will be made again")
            return archived
        reason = self.starved(record)
        if reason is None:
            return record
        archived = self.archived(path)
        set_aside_starved(Path(path), reason, "the archive's record of the run is used instead"
                          if archived is not None else "the run will be made again")
        return archived

    def starved(self, record: dict) -> str | None:
        """Why ``record`` is a starved run (experiments/machine.py), or None: by its
        ``machine`` section, or for a record without one, by its rate within its column."""
        reason = machine.machine_verdict(record, self.rule)
        if reason is None and machine.on_wall_clock(record) and "machine" not in record:
            reason = machine.rate_verdict(record, self._column_median(record), self.rule)
        return reason

    def set_aside_as_starved(self, path: Path) -> bool:
        """Whether the run of ``path`` is missing because it was starved: its file is in
        ``.starved/`` (and no file or archived record replaced it), or the archive's record of
        it is starved. The reports count these per column."""
        path = Path(path)
        if path.exists() or self.archived(path) is not None:
            return False
        return path.stem in self._starved_archived or (path.parent / STARVED_FOLDER / path.name).exists()

    def _column_median(self, record: dict) -> float | None:
        """The median rate of the records without a ``machine`` section in ``record``'s
        column, over the archive and this store's files (each run once). New runs always
        record the section, so the files read once per domain stay the right ones."""
        folder = (self.root / "runs" / record["config"]["domain"]["name"]).resolve()
        if folder not in _FILE_RATES:
            files = (read_or_none(path) for path in sorted(folder.glob("*.json")))
            _FILE_RATES[folder] = machine.legacy_rates(record for record in files if record is not None)
        rates = dict(self._archive_rates().get(machine.column_key(record), {}))
        rates.update(_FILE_RATES[folder].get(machine.column_key(record), {}))
        return machine.median_rate(rates.values())

    def _archive_rates(self) -> dict[str, dict[str, float]]:
        if self.archive_dir is None:
            return {}
        return archive_index(self.archive_dir).legacy_rates()

    def archived(self, path: Path) -> dict | None:
        """The archive's record of the run whose file would be ``path``, or None (no archive,
        the run not in it, or its record damaged: then said once on stderr). InputError when a
        pack is damaged or of an unknown format version."""
        if self.archive_dir is None:
            return None
        return self._unless_starved(archived_record(self.archive_dir, Path(path).stem))

    def _unless_starved(self, record: dict | None) -> dict | None:
        """An archived record, or None when it is None or starved (said once per run)."""
        reason = None if record is None else self.starved(record)
        if reason is None:
            return record
        self._starved_archived.add(record["run_id"])
        if record["run_id"] not in _SAID_STARVED:  # once per process, however many stores read the archive
            if not _SAID_STARVED:  # one line in all at the command's end, not one per run
                atexit.register(_say_starved_archived)
            _SAID_STARVED[record["run_id"]] = reason
        return None

    def archived_runs(self):
        """Every run of the archive, each once, as a record (a damaged one skipped, said on
        stderr); InputError when a pack is damaged."""
        if self.archive_dir is None:
            return
        index = archive_index(self.archive_dir)
        for identity in index.where:
            record = self._unless_starved(index.record(identity))
            if record is not None:
                yield record

    def write(self, path: Path, record: dict) -> Path:
        write_json(path, record)
        STORED_RUNS.append(str(path))  # what a Ctrl-C's last line counts as kept (config.exit_interrupted)
        return path

    def run_files(self) -> list[Path]:
        return sorted((self.root / "runs").glob("*/*.json"))

    def remove_stale_temporaries(self, older_than_seconds: float = 60.0) -> None:
        """Delete the half-written files of runs killed while being written. A record is
        written in milliseconds, so a younger one may belong to a sweep still running."""
        now = time.time()
        for temporary in (self.root / "runs").glob(f"*/.*{TEMPORARY_SUFFIX}"):
            try:
                if now - temporary.stat().st_mtime > older_than_seconds:
                    temporary.unlink()
            except FileNotFoundError:
                pass


def read_or_none(path: Path) -> dict | None:
    """The run file's record, or None when it is gone or damaged (left where it is)."""
    try:
        return load_run_file(path)
    except (FileNotFoundError, DamagedFile):
        return None


def write_json(path: Path, data: dict) -> None:
    """Write atomically and durably (see write_atomically)."""
    write_atomically(path, json.dumps(data, indent=1).encode())


def write_atomically(path: Path, data: bytes) -> None:
    """Write atomically and durably: a temporary file, flushed to disk, renamed into place,
    then the folder flushed so that the rename itself survives a power cut (what SQLite and
    LMDB do; one more fsync, about a millisecond). The file gets the mode any new file gets
    (0o666 less the umask: 0644 under the usual 022), so the group reads the runs; mkstemp's
    temporary file would be 0600, private to its writer."""
    path = Path(path)
    created = not path.parent.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.parent / f".{secrets.token_hex(8)}{TEMPORARY_SUFFIX}"
    # O_EXCL: a new file or an error, never another writer's; the kernel applies the umask to 0o666
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)
    if created:  # the new folder's own entry, in its parent
        _fsync_folder(path.parent.parent)


def _fsync_folder(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:  # a platform that cannot open folders (Windows): nothing to flush
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def set_aside(damage: DamagedFile, consequence: str) -> Path:
    """Move a damaged file into ``.damaged/`` beside it (never over an earlier one) and say so
    in one line on stderr."""
    folder = damage.path.parent / DAMAGED_FOLDER
    folder.mkdir(exist_ok=True)
    target = folder / damage.path.name
    if target.exists():
        target = folder / f"{damage.path.stem}.{time.strftime('%Y%m%d-%H%M%S')}.{os.getpid()}{damage.path.suffix}"
    try:
        os.replace(damage.path, target)
    except FileNotFoundError:  # another process (a second sweep) moved it first
        return target
    print(f"damaged {damage} -> moved to {target}; {consequence}", file=sys.stderr)
    return target


def set_aside_starved(path: Path, reason: str, consequence: str, record: dict | None = None) -> Path:
    """Move the run file of a starved run into ``.starved/`` beside it (never over an earlier
    one), or write ``record`` there when it has no file yet (a sweep's newly made run), and
    say so in one line on stderr."""
    folder = path.parent / STARVED_FOLDER
    target = folder / path.name
    if target.exists():
        target = folder / f"{path.stem}.{time.strftime('%Y%m%d-%H%M%S')}.{os.getpid()}{path.suffix}"
    if record is not None:
        write_json(target, record)
    else:
        folder.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(path, target)
        except FileNotFoundError:  # another process moved it first
            return target
    print(f"starved run {path.stem}: {reason} -> {'kept' if record is not None else 'moved'} in {target}, "
          f"not counted; {consequence}", file=sys.stderr)
    return target
