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

The store reads and writes; which of the records it reads count is not its to say. A
wall-clock run that did not get its cores (another process took them) is *starved*: the
readers judge each record after the store has read it (experiments/valid_runs.py, by the rule
of experiments/machine.py) and move a starved run's file aside into a ``.starved`` folder
beside it (set_aside_starved), as they do a damaged file; an archived record judged starved
is not used either. So a starved run never enters a table, a verdict, the archive or the
leaderboard, and the next sweep makes it again.

A store also reads the run archive (experiments/archive.py): the packs under ``archive/`` in
the repository, committed, so that runs made on one machine are found on another. A run whose
file is absent is looked up there by its id; a file, when there is one, always wins. The
archive is the project's ``archive/`` folder, or the folder ``$NRPA_ARCHIVE`` names
(``NRPA_ARCHIVE=none``: no archive, every run is made here).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path

import nrpa
from experiments.packs import ArchiveIndex, archive_index, archived_record
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


_PROJECT_ARCHIVE = object()  # RunStore's default archive: default_archive_dir() when the store is made


class RunStore:
    """Run files under ``root/runs/<domain>/<run id>.json``, and the archived runs of
    ``archive`` (a folder of packs; by default the project's, see default_archive_dir; None:
    none) where a run has no file."""

    def __init__(self, root: str | Path, archive: str | Path | None = _PROJECT_ARCHIVE):
        self.root = Path(root)
        self.archive_dir = default_archive_dir() if archive is _PROJECT_ARCHIVE else (
            None if archive is None else Path(archive))

    def check(self, domain_name: str | None = None) -> None:
        """InputError when a file stands where the store (or its runs folder, or the domain's
        folder in it) must be a folder: nothing could be written there."""
        folders = [self.root, self.root / "runs"] + ([self.root / "runs" / domain_name] if domain_name else [])
        for folder in folders:
            if folder.exists() and not folder.is_dir():
                raise InputError(f"the result store needs {folder} to be a folder, and it is a file: "
                                 "move it away or choose another outputs_dir")

    def domain_folder(self, domain_name: str) -> Path:
        return self.root / "runs" / domain_name

    def path_for(self, domain_name: str, identity: str) -> Path:
        return self.domain_folder(domain_name) / f"{identity}.json"

    def load(self, path: Path) -> dict:
        """The run file's record, or the archived record of its run when there is no file;
        DamagedFile if the file cannot be read or is not a whole run file, FileNotFoundError
        when neither the file nor the archive holds the run."""
        if not Path(path).exists():
            archived = self.archived(path)
            if archived is not None:
                return archived
        return load_run_file(path)

    def read_file(self, path: Path) -> tuple[dict | None, DamagedFile | None]:
        """The run file's record (None, None when there is no file), or (None, the damage) when
        it cannot be read or is not a whole run file: the file is left where it is, for the
        reader to set aside (set_aside) once it knows what takes the run's place."""
        try:
            return load_run_file(path), None
        except FileNotFoundError:
            return None, None
        except DamagedFile as damage:
            return None, damage

    def archived(self, path: Path) -> dict | None:
        """The archive's record of the run whose file would be ``path``, or None (no archive,
        the run not in it, or its record damaged: then said once on stderr). InputError when a
        pack is damaged or of an unknown format version."""
        if self.archive_dir is None:
            return None
        return archived_record(self.archive_dir, Path(path).stem)

    def starved_copy_exists(self, path: Path) -> bool:
        """Whether ``.starved/`` beside ``path`` holds a file of its run: an earlier reader
        judged it starved and set it aside there (set_aside_starved)."""
        path = Path(path)
        return (path.parent / STARVED_FOLDER / path.name).exists()

    def domain_records(self, domain_name: str):
        """The records of the whole run files in the domain's folder (a damaged one skipped and
        left where it is), in file name order."""
        for path in sorted(self.domain_folder(domain_name).resolve().glob("*.json")):
            record = read_or_none(path)
            if record is not None:
                yield record

    def archive(self) -> ArchiveIndex | None:
        """The index of the archive's packs (a new one when a pack was added or changed since
        the last call), or None without an archive; InputError when a pack is damaged."""
        return None if self.archive_dir is None else archive_index(self.archive_dir)

    def archived_runs(self):
        """Every run of the archive, each once, as a record (a damaged one skipped, said on
        stderr); InputError when a pack is damaged."""
        index = self.archive()
        if index is None:
            return
        for identity in index.where:
            record = index.record(identity)
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
