"""The result store: one JSON file per finished run, written atomically.

A run's identity is its semantic configuration (domain options, algorithm settings,
budget, seed), hashed: never output paths, job counts or scale names. A file appears only
complete (written to a temporary name, flushed, then renamed), so a run killed at any
moment leaves either no file or a whole one, and a finished run is never lost.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
import time
from functools import lru_cache
from pathlib import Path

import nrpa

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TEMPORARY_SUFFIX = ".partial"


def run_id(semantic_config: dict) -> str:
    """First 20 hex digits of the SHA-256 of the canonical JSON of the semantic config."""
    canonical = json.dumps(semantic_config, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:20]


@lru_cache(maxsize=1)
def code_version() -> dict:
    """The git commit of the checkout (and whether it had local changes), plus the hash of
    the package sources, which is what the compiled kernels were built from."""
    version = {"git_commit": None, "git_dirty": None, "source_hash": nrpa.SOURCE_HASH}
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


class RunStore:
    """Run files under ``root/runs/<domain>/<run id>.json``."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    def path_for(self, domain_name: str, identity: str) -> Path:
        return self.root / "runs" / domain_name / f"{identity}.json"

    def load(self, path: Path) -> dict:
        return json.loads(Path(path).read_text())

    def write(self, path: Path, record: dict) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=TEMPORARY_SUFFIX)
        try:
            with os.fdopen(descriptor, "w") as handle:
                json.dump(record, handle, indent=1)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
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
