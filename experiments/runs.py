"""Turning validated options into one finished, stored, verifiable run."""

from __future__ import annotations

import platform
import socket
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path

from experiments.store import RunStore, code_version, run_id
from nrpa.domains.registry import make_domain
from nrpa.search import SearchResult, SearchSettings, run_search

# Settings that change what a run computes; policy_capacity_bits only sizes a hash table.
_NRPA_KEYS = ("level", "N", "alpha", "P")
_NMCS_KEYS = ("level",)


def semantic_config(domain_options, settings: SearchSettings) -> dict:
    """What identifies a run: the domain options and the settings the algorithm reads."""
    keys = _NMCS_KEYS if settings.algorithm == "nmcs" else _NRPA_KEYS
    values = asdict(settings)
    return {
        "domain": asdict(domain_options),
        "algorithm": settings.algorithm,
        **{key: values[key] for key in keys},
        "budget": {
            "max_time": settings.max_time,
            "max_playouts": settings.max_playouts,
            "clock": settings.clock,
            "restart": settings.restart,
        },
        "seed": settings.seed,
    }


def make_record(domain, settings: SearchSettings, result: SearchResult) -> dict:
    config = semantic_config(domain.options, settings)
    certificate = domain.certificate(result.best_moves)
    return {
        "run_id": run_id(config),
        "config": config,
        "seed": settings.seed,
        "settings": asdict(settings),
        "code_version": code_version(),
        "domain_info": domain.describe(),
        "result": {
            "best_score": result.best_score,
            "playouts": result.playouts,
            "restarts": result.restarts,
            "wall_seconds": result.wall_seconds,
            "cpu_seconds": result.cpu_seconds,
            "playouts_per_cpu_second": result.playouts / max(result.cpu_seconds, 1e-9),
        },
        "trace": {
            "wall_seconds": list(result.trace.wall_seconds),
            "cpu_seconds": list(result.trace.cpu_seconds),
            "playouts": list(result.trace.playouts),
            "score": list(result.trace.score),
        },
        "certificate": {
            "format": domain.certificate_format,
            "score": result.best_score,
            "moves": certificate,
        },
        "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "host": {"name": socket.gethostname(), "machine": platform.machine(), "python": platform.python_version()},
    }


def run_once(domain_options, settings: SearchSettings, store: RunStore, *, force: bool = False):
    """Run (or find already finished) the run these options identify.

    Returns (record, path, ran): ``ran`` is False when the store already held the run."""
    domain = make_domain(domain_options)  # validates before any compiling or searching
    path = store.path_for(domain_options.name, run_id(semantic_config(domain.options, settings)))
    if path.exists() and not force:
        return store.load(path), path, False
    result = run_search(domain.kernel_domain(), settings)
    record = make_record(domain, settings, result)
    return record, store.write(path, record), True


def verify_record(record: dict) -> tuple[bool, str]:
    """Replay the certificate with the domain's plain-Python rules and compare scores."""
    domain = make_domain(record["config"]["domain"])
    claimed = float(record["certificate"]["score"])
    try:
        replayed = domain.replay_score(record["certificate"]["moves"])
    except ValueError as error:
        return False, f"certificate does not replay: {error}"
    if replayed != claimed:
        return False, f"certificate replays to {replayed:g}, the run file claims {claimed:g}"
    if claimed != float(record["result"]["best_score"]):
        return False, "certificate score differs from the run's best score"
    return True, f"replays to {replayed:g}"


def verify_files(paths: list[Path]) -> int:
    """Print one line per run file; return the number that failed."""
    failures = 0
    for path in paths:
        ok, message = verify_record(RunStore(path.parent).load(path))
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {path}: {message}")
    return failures
