"""A run file's format: the run id that names it, what every run file holds, and reading one.

The layer under the store (experiments/store.py) and the archive's packs
(experiments/packs.py): both check a record against the same format, and the store reads
the packs, so what they share sits here, below both (no import circle among them).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from nrpa.errors import InputError


class DamagedFile(InputError):
    """A stored file (a run file, a leaderboard entry) that cannot be read or lacks what it holds."""

    def __init__(self, path: Path, reason: str, kind: str = "run file"):
        super().__init__(f"{kind} {path}: {reason}")
        self.path, self.reason = Path(path), reason


def run_id(semantic_config: dict) -> str:
    """First 20 hex digits of the SHA-256 of the canonical JSON of the semantic config."""
    canonical = json.dumps(semantic_config, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:20]


def load_run_file(path: Path) -> dict:
    """The run file's record; DamagedFile if it cannot be read or is not a whole run file."""
    record = read_json(path)
    problem = run_file_problem(record, Path(path).stem)
    if problem:
        raise DamagedFile(path, problem)
    return record


def read_json(path: Path, kind: str = "run file") -> dict:
    """A JSON object from a file; DamagedFile naming what is wrong otherwise."""
    try:
        data = json.loads(Path(path).read_bytes())
    except FileNotFoundError:
        raise
    except OSError as error:
        raise DamagedFile(path, f"cannot be read ({error.strerror})", kind) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DamagedFile(path, f"not valid JSON ({error})", kind) from None
    if not isinstance(data, dict):
        raise DamagedFile(path, f"not a JSON object but a {type(data).__name__}", kind)
    return data


# What every run file holds (readers rely on these), by section: key -> accepted types.
_NUMBER = (int, float)
_RUN_FILE = {
    None: {"run_id": str, "config": dict, "seed": int, "repeat": int, "settings": dict,
           "code_version": dict, "domain_info": dict, "result": dict, "trace": dict, "certificate": dict},
    "config": {"domain": dict},
    "code_version": {"source_hash": str},
    "result": {"best_score": _NUMBER, "playouts": int, "wall_seconds": _NUMBER, "cpu_seconds": _NUMBER},
    "trace": {"wall_seconds": list, "cpu_seconds": list, "playouts": list, "score": list},
    "certificate": {"score": _NUMBER, "moves": list},
}
REQUIRED_KEYS = tuple(_RUN_FILE[None])  # the top-level keys, which an archive pack's records must all have


def run_file_problem(record: dict, file_stem: str) -> str | None:
    """What makes ``record`` not a whole run file named ``file_stem``, or None."""
    for section, keys in _RUN_FILE.items():
        part = record if section is None else record[section]
        where = "" if section is None else f"{section}."
        for key, types in keys.items():
            if key not in part:
                return f"lacks {where}{key}"
            if not isinstance(part[key], types) or isinstance(part[key], bool):
                return f"{where}{key} is not a {'number' if types is _NUMBER else types.__name__}"
    lengths = {len(record["trace"][key]) for key in _RUN_FILE["trace"]}
    if len(lengths) > 1:
        return "its trace lists have different lengths"
    if record["run_id"] != file_stem or run_id(record["config"]) != file_stem:
        return "its run id, its config and its file name do not agree (edited by hand?)"
    return None
