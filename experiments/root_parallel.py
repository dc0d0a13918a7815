"""Root parallelisation: K independent searches, the best kept.

A root-parallel run of a job with ``root=K`` is made of K member runs, which are ordinary
runs of the job (repeats r*K .. r*K+K-1 for root run r), each its own file, made in separate
processes by joblib: loky workers here, or the workers of a dask cluster. A hybrid run is
a root run whose members are threaded searches (``parallel=shared|thread_local threads=M``).

The members are meant to run at the same time, one per machine (or per group of cores), so
the root run's best at wall time t is the best of its members' bests at t; its playout and
CPU-second positions are K times a member's (each member makes its own playouts at its own
pace). The merged record lists its members' files: every number traces back to them, and
its certificate is the best member's.
"""

from __future__ import annotations


def member_repeats(root_run: int, root: int) -> range:
    return range(root_run * root, (root_run + 1) * root)


AXES = ("wall_seconds", "cpu_seconds", "playouts")


def merge_members(records: list[dict]) -> dict:
    """The record of a root run from its members' records (in member order). Its ``axes``
    hold, per axis, the positions and scores of every improvement of the best over all
    members, merged on that axis (positions do not keep one order across axes)."""
    root = len(records)
    best = max(records, key=lambda record: record["result"]["best_score"])
    axes = {}
    for axis in AXES:
        scale = 1 if axis == "wall_seconds" else root
        points = sorted((scale * position, score) for record in records
                        for position, score in zip(record["trace"][axis], record["trace"]["score"]))
        merged = {"positions": [], "score": []}
        for position, score in points:
            if not merged["score"] or score > merged["score"][-1]:
                merged["positions"].append(position)
                merged["score"].append(score)
        axes[axis] = merged
    results = [record["result"] for record in records]
    return {
        "root": root,
        "members": [record["run_id"] for record in records],
        "repeat": records[0]["repeat"] // root,
        "config": best["config"],
        "settings": best["settings"],
        "code_version": best["code_version"],
        "domain_info": best["domain_info"],
        "result": {
            "best_score": best["result"]["best_score"],
            "playouts": sum(r["playouts"] for r in results),
            "wall_seconds": max(r["wall_seconds"] for r in results),
            "cpu_seconds": sum(r["cpu_seconds"] for r in results),
        },
        "axes": axes,
        "certificate": best["certificate"],
    }


def axis_trace(record: dict, axis: str) -> tuple[list, list]:
    """(positions, scores) of a run's improvements on ``axis``, for a run or a root run."""
    if "axes" in record:
        return record["axes"][axis]["positions"], record["axes"][axis]["score"]
    return record["trace"][axis], record["trace"]["score"]


def group_root_runs(records: list[dict], root: int) -> list[dict]:
    """Root runs from member records listed by repeat (a root run needs all its members)."""
    by_repeat = {record["repeat"]: record for record in records}
    runs = []
    for root_run in range(max(by_repeat, default=-1) // root + 1):
        members = [by_repeat.get(repeat) for repeat in member_repeats(root_run, root)]
        if all(members):
            runs.append(merge_members(members))
    return runs
