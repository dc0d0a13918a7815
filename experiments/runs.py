"""Jobs and runs: a job is one configuration run ``repeats`` times; a run is one search, or
with ``games`` G > 1, G independent searches of it (games) whose scores the run records as a
histogram (``game_scores``): 100,000 games of a table are then 100 files, not 100,000.

A run's identity is its semantic configuration: the domain options, the settings the
algorithm reads, the budget, the job's base seed and the repeat index. The run's own seed
is derived from that identity, so repeat r of a job always gets the same seed, whatever
the order, the number of workers or where the files are written.
"""

from __future__ import annotations

import hashlib
import json
import platform
import socket
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from experiments.machine import Watch
from experiments.run_file import DamagedFile, load_run_file, run_id
from experiments.store import RunStore, code_version
from nrpa.bias import bias_for
from nrpa.domains.registry import MissingInstance, make_domain, replay_domain
from nrpa.errors import InputError
from nrpa.search import ALGORITHMS, SearchResult, SearchSettings, Trace, other_spellings, run_search, same_search
from nrpa.threading_layer import threading_layer_name


@dataclass(frozen=True)
class Job:
    """One configuration: domain options plus search settings whose ``seed`` is the base
    seed of the job (each run derives its own)."""

    domain_options: object
    settings: SearchSettings
    games: int = 1  # independent searches per run (> 1: their scores' histogram, the best game's certificate)

    def __post_init__(self):
        # One identity per search: SNRPA(1) and NRPA are the same runs (nrpa.search.same_search)
        object.__setattr__(self, "settings", same_search(self.settings))

    def semantic_config(self) -> dict:
        return semantic_config(self.domain_options, self.settings, self.games)

    def run_config(self, repeat: int) -> dict:
        return {**self.semantic_config(), "repeat": repeat}

    def run_seed(self, repeat: int) -> int:
        """A 32-bit seed drawn from the hash of the run's identity."""
        canonical = json.dumps(self.run_config(repeat), sort_keys=True, separators=(",", ":"))
        return int.from_bytes(hashlib.sha256(b"seed:" + canonical.encode()).digest()[:4], "little")

    def run_settings(self, repeat: int) -> SearchSettings:
        return replace(self.settings, seed=self.run_seed(repeat))

    def run_path(self, store: RunStore, repeat: int) -> Path:
        """Where repeat ``repeat`` is stored: its file, or the file of the same search stored
        under another spelling before the two were one (Table 4's NRPA runs as SNRPA(1)) when
        only that one is in the store or the archive."""
        path = store.path_for(self.domain_options.name, run_id(self.run_config(repeat)))
        if path.exists() or store.archived(path) is not None:
            return path
        for spelled in other_spellings(self.settings):
            spelled_config = {**semantic_config(self.domain_options, spelled, self.games), "repeat": repeat}
            other = store.path_for(self.domain_options.name, run_id(spelled_config))
            if other.exists() or store.archived(other) is not None:
                return other
        return path


def semantic_config(domain_options, settings: SearchSettings, games: int = 1) -> dict:
    """A run's identity without its repeat index: what makes two runs the same search."""
    values = asdict(settings)
    algorithm = ALGORITHMS[settings.algorithm]
    return {
        "domain": domain_identity(domain_options),
        "algorithm": settings.algorithm,
        **{key: values[key] for key in algorithm.identity},
        "budget": {
            "max_time": settings.max_time,
            "max_playouts": settings.max_playouts,
            "clock": settings.clock,
            "restart": settings.restart,
        },
        "base_seed": settings.seed,
        # only parallel runs carry the key, so sequential runs keep their identities
        **({"parallel": algorithm.parallel_identity(settings)} if settings.parallel != "none" else {}),
        # only runs of several games carry the key, so every other run keeps its identity
        **({"games": games} if games > 1 else {}),
    }


def domain_identity(options) -> dict:
    """The domain options in a run's identity. GNRPA's bias options are there only when a
    bias is set, and an option named in the options class's ``identity_defaults`` only when
    it differs from the value given there (Morpion's line_span; bus's model, bus_cpp there
    and paper by default), so that every run made before they existed keeps its identity
    (a record without the option is read with that value: registry.replay_domain)."""
    values = asdict(options)
    if values.get("bias", "none") == "none":
        values.pop("bias", None)
        values.pop("bias_weight", None)
    for key, default in getattr(type(options), "identity_defaults", {}).items():
        if key in values and values[key] == default:
            values.pop(key)
    return values


def execute_run(job: Job, repeat: int, client=None) -> dict:
    """Run repeat ``repeat`` of ``job`` and return its record (the caller stores it); a
    ``parallel=cluster`` job runs on the dask ``client``'s workers."""
    domain = make_domain(job.domain_options)
    bias = bias_for(domain)
    settings = job.run_settings(repeat)
    watch = Watch().start()
    games = None
    if settings.parallel == "cluster":
        from experiments.cluster import cluster_search

        result = cluster_search(client, job.domain_options, settings)
    elif job.games > 1:
        result, games = play_games(domain.kernel_domain(), settings, bias, job.games)
    else:
        result = run_search(domain.kernel_domain(), settings, bias)
    # what the machine gave a wall-clock run, to tell a starved one (experiments/machine.py)
    machine = watch.section(result.playouts, asdict(settings), measured=settings.parallel != "cluster") \
        if settings.clock == "wall" else None
    config = job.run_config(repeat)
    kept = domain.kept_instance()  # the instance file as the run read it, for a replay after it moves
    return {
        "run_id": run_id(config),
        "config": config,
        "seed": settings.seed,
        "repeat": repeat,
        "settings": asdict(settings),
        "code_version": code_version(),
        "domain_info": {**domain.describe(), **({"bias": bias.description} if bias.kind else {}),
                        **({"instance_file": kept} if kept else {})},
        "result": {
            "best_score": result.best_score,
            "playouts": result.playouts,
            "restarts": result.restarts,
            "wall_seconds": result.wall_seconds,
            "cpu_seconds": result.cpu_seconds,
            "playouts_per_cpu_second": result.playouts / max(result.cpu_seconds, 1e-9),
            **({"games": games} if games is not None else {}),
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
            "moves": domain.certificate(result.best_moves),
        },
        "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "host": {"name": socket.gethostname(), "machine": platform.machine(),
                 "python": platform.python_version(),
                 # where threads ran (nrpa/threading_layer.py): OpenMP's spinning waiters collapse under load
                 **({"threading_layer": threading_layer_name()} if settings.threads > 1 else {})},
        **({"machine": machine} if machine is not None else {}),
    }


def game_seed(run_seed: int, game: int) -> int:
    """The seed of game ``game`` (0-based) of a run of several games whose seed is
    ``run_seed``: a 32-bit seed drawn from the hash of the two, so any game can be replayed."""
    digest = hashlib.sha256(b"game:" + run_seed.to_bytes(8, "little") + game.to_bytes(8, "little")).digest()
    return int.from_bytes(digest[:4], "little")


def play_games(kernel_domain, settings: SearchSettings, bias, games: int):
    """``games`` independent searches of ``settings``, game g seeded by ``game_seed(settings.seed,
    g)``. Returns a SearchResult for the whole run (the best game's score and moves, the
    playouts and times summed, the trace of the best so far over the games played one after
    the other) and the record's ``games`` section: the count, the histogram of the games'
    scores ({score: games}) and which game was the best (the first of the highest score)."""
    histogram, best, best_game = {}, None, 0
    wall, cpu, at, scores = [], [], [], []
    playouts = restarts = 0
    wall_total = cpu_total = 0.0
    for game in range(games):
        result = run_search(kernel_domain, replace(settings, seed=game_seed(settings.seed, game)), bias)
        histogram[result.best_score] = histogram.get(result.best_score, 0) + 1
        if best is None or result.best_score > best.best_score:
            best, best_game = result, game
            wall.append(wall_total + result.wall_seconds)
            cpu.append(cpu_total + result.cpu_seconds)
            at.append(playouts + result.playouts)
            scores.append(result.best_score)
        playouts += result.playouts
        restarts += result.restarts
        wall_total += result.wall_seconds
        cpu_total += result.cpu_seconds
    run = SearchResult(best_score=best.best_score, best_moves=best.best_moves,
                       trace=Trace(tuple(wall), tuple(cpu), tuple(at), tuple(scores)), playouts=playouts,
                       restarts=restarts, wall_seconds=wall_total, cpu_seconds=cpu_total)
    section = {"count": games, "scores": {str(score): n for score, n in sorted(histogram.items())},
               "best_game": best_game, "seeds": "game g's seed: experiments.runs.game_seed(seed, g)"}
    return run, section


def game_count(record: dict) -> int:
    """How many games a run file holds: a run of several games counts them, any other run is one."""
    games = record["result"].get("games")
    return 1 if games is None else int(games["count"])


def game_scores(record: dict) -> list[float]:
    """The final scores a run file holds: one per game of a run of several games, else its best
    score. A histogram keeps no order, and a sequential test reads its samples in order (its
    confidence sequence on scores sorted low to high would be no confidence sequence), so the
    games come out in an order drawn from the run's id: a uniformly random arrangement of iid
    games, the same on every reading."""
    games = record["result"].get("games")
    if games is None:
        return [float(record["result"]["best_score"])]
    scores = np.array([float(score) for score, n in games["scores"].items() for _ in range(n)])
    seed = int.from_bytes(hashlib.sha256(b"order:" + record["run_id"].encode()).digest()[:8], "little")
    return np.random.default_rng(seed).permutation(scores).tolist()


def verify_record(record: dict) -> tuple[bool | None, str]:
    """Replay the certificate with the domain's plain-Python rules and compare scores: (True,
    how) when it verifies, (False, why) when it does not, (None, why) when it cannot be
    replayed because its instance file is gone or changed and the record keeps no copy
    (``nrpa.domains.registry.replay_domain``: a missing input, not a wrong certificate)."""
    try:
        domain, note = replay_domain(record["config"]["domain"], record.get("domain_info", {}).get("instance_file"))
    except MissingInstance as missing:
        return None, str(missing)
    except InputError as error:
        return False, f"its domain options are not valid: {error}"
    note = f" ({note})" if note else ""
    claimed = float(record["certificate"]["score"])
    try:
        replayed = domain.replay_score(record["certificate"]["moves"])
    except (ValueError, TypeError, IndexError) as error:  # an illegal move, or not a move at all
        return False, f"certificate does not replay: {error}{note}"
    if replayed != claimed:
        return False, f"certificate replays to {replayed:g}, the run file claims {claimed:g}{note}"
    if claimed != float(record["result"]["best_score"]):
        return False, f"certificate score differs from the run's best score{note}"
    games = record["result"].get("games")
    if games is not None and (sum(games["scores"].values()) != games["count"]
                              or max(map(float, games["scores"])) != claimed):
        return False, f"its games' histogram does not hold {games['count']} games whose best is {claimed:g}{note}"
    return True, f"replays to {replayed:g}{note}"


VERIFY_MARKS = {True: "ok  ", False: "FAIL", None: "SKIP"}  # the first word of a line of `make verify`


def verify_files(paths: list[Path]) -> tuple[list[Path], int]:
    """Print one line per run file (a damaged one fails, and the others are still checked);
    return the files that verified and the number that could not be replayed (their
    instance is gone: verify_record)."""
    verified, skipped = [], 0
    for path in paths:
        try:
            ok, message = verify_record(load_run_file(path))
        except DamagedFile as damage:
            ok, message = False, f"damaged: {damage.reason}"
        if ok:
            verified.append(path)
        skipped += ok is None
        print(f"{VERIFY_MARKS[ok]} {path}: {message}")
    return verified, skipped
