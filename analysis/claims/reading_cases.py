"""The settings the papers leave unsaid and their candidate readings (analysis/readings.yaml), and
the committed fit of those readings to the papers' published baselines (docs/results/readings.csv,
made by analysis/claims/readings.py: `make readings`), as the claims read it: each claim on a reading
names its reading's fit, and a reading the fit rejects carries no verdict (analysis/claims/judging.py).
Imports nothing of analysis/, so that the claims can read it and readings.py can judge with them."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import yaml

from nrpa.errors import InputError, did_you_mean

CASES_FILE = Path(__file__).resolve().parents[1] / "readings.yaml"  # outside analysis/claims/, whose .yaml are claim files


@dataclass(frozen=True)
class Candidate:
    name: str
    overrides: tuple[str, ...]
    labels: dict = field(default_factory=dict)  # published column -> our column's name, where they differ

    def label(self, column: str) -> str:
        return self.labels.get(column, column)


@dataclass(frozen=True)
class Part:
    experiment: str
    columns: tuple[str, ...]
    run_with: tuple[str, ...]


@dataclass(frozen=True)
class Case:
    case: str
    paper: str
    setting: str
    quote: str
    current: str
    candidates: tuple[Candidate, ...]
    parts: tuple[Part, ...]


def load_cases(path: Path = CASES_FILE) -> list[Case]:
    """The cases of analysis/readings.yaml; InputError naming the case and the key that is wrong."""
    cases = []
    for entry in yaml.safe_load(path.read_text()):
        name = entry.get("case", "?")
        missing = [key for key in ("case", "paper", "setting", "quote", "current", "candidates", "parts")
                   if key not in entry]
        if missing:
            raise InputError(f"{path.name}, case {name}: missing {', '.join(missing)}")
        candidates = tuple(
            Candidate(str(key), tuple(value), {}) if isinstance(value, list)
            else Candidate(str(key), tuple(value["overrides"]), dict(value.get("labels", {})))
            for key, value in entry["candidates"].items())
        if len(candidates) < 2:
            raise InputError(f"{path.name}, case {name}: a case needs at least two candidate readings")
        if str(entry["current"]) not in {c.name for c in candidates}:
            raise InputError(f"{path.name}, case {name}: current {entry['current']!r} is not a candidate: "
                             f"{did_you_mean(str(entry['current']), [c.name for c in candidates])}")
        parts = tuple(Part(p["experiment"], tuple(p["columns"]), tuple(p.get("run_with", ()))) for p in entry["parts"])
        cases.append(Case(name, entry["paper"], entry["setting"], entry["quote"], str(entry["current"]), candidates, parts))
    return cases


COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "results" / "readings.csv"  # the fit the claims rest on


@functools.lru_cache(maxsize=None)  # read once per process: every claim of a report asks
def committed_fits(path: Path = COMMITTED) -> dict[str, list[dict]]:
    """Each experiment's cases as the row of its current reading in the committed fit (the paper-
    scale report of `make readings`, copied to docs/results/ with its runs archived): what its
    claims on a reading rest on. A declared case without a committed row reads "not fitted"."""
    table = pd.read_csv(path) if path.exists() else pd.DataFrame(columns=["case", "current"])
    by_experiment: dict[str, list[dict]] = {}
    for case in load_cases():
        # the row of the reading the claims rest on now (analysis/readings.yaml's current)
        rows = table[(table["case"] == case.case) & (table["candidate"].astype(str) == case.current)].to_dict("records") \
            if len(table) else []
        row = rows[0] if rows else {"setting": case.setting, "candidate": case.current, "status": "not fitted"}
        for part in case.parts:
            by_experiment.setdefault(part.experiment, []).append(row)
    return by_experiment


def fit_text(row: dict) -> str:
    """What a claim on the case's current reading says of the fit: "TSPTW playout moves (Table 3):
    all; by the published baseline: rejected: does not fit (11 of 15 cells inside our 95% interval,
    mean z^2 5.21, largest abs(z) 5.02 for a bound of 2.94, the 0.01 s cells left out, 20 runs a
    column; docs/results/readings.md)". The runs: the fewest a column of the fit (RUNS of
    analysis/claims/readings.py), fewer than a claim may read: more runs test a reading harder."""
    if row["status"] in ("not fitted", "no runs"):
        return f"{row['setting']}: {row['candidate']}, not fitted yet (make readings)"
    return (f"{row['setting']}: {row['candidate']}; by the published baseline: {row['status']} "
            f"({row['inside']} of {row['cells']} cells inside our 95% interval, mean z^2 {row['z2_per_cell']:.3g}, "
            f"largest abs(z) {row['worst_z']:.3g} for a bound of {row['worst_bound']:.3g}, the 0.01 s cells left out, "
            f"{row['runs']} runs a column; docs/results/readings.md)")


def rejects(row: dict) -> bool:
    return str(row["status"]).startswith("rejected")
