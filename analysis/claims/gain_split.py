"""Each gain split in two: a column's gain over another at equal time, as the algorithm's part (the
gain at equal playouts, on our runs and on the C++ reference engine's) plus the engine's part (what
each column's extra work, its rho or the reference's rho_ref, adds). The engines pages
(analysis/claims/engines_page.py) show it per column; the claims report (campaign.with_engine_split)
per equal-time compare claim. It reads what analysis/claims/engines.py measures.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.claims.basis import ROUNDED_BUDGET_SLACK
from analysis.claims.engines import first_reaching, mean_work, measured_table, own_baseline, tables, work_by_time
from analysis.claims.same_search import MIN_RUNS, scores_at, welch
from analysis.stats import best_at, t_interval

SPLIT_TIMES = (1.28, 10.24, 40.96, 163.84)  # where the page splits each column's gain over the baseline


def split_pair(measured: dict, ours: dict, reference: dict, scale: float, column: str, other: str, t: float) -> dict:
    """``column``'s gain over ``other`` at published time t, split in two. The algorithm's part:
    the gain at equal playouts (both at t x R, R the table's), with Welch's 95% interval, on our
    runs and on the reference engine's (``reference``: column -> (traces, reach); where MIN_RUNS
    runs of each reach it). The engine's part: what each column's own extra work adds, its
    mean at t x R x rho less its mean at t x R (the same runs: paired), column's less other's,
    for rho this engine's and rho_ref the reference's (at tau = t / s, the clock's s); 95%
    interval: the paired t interval where ``other`` is the baseline (its rho is 1), else Welch's
    over the two columns' paired differences. The gain at equal time on an engine is the sum of
    the two parts. NaN where our runs do not reach the work asked for."""
    experiment, clock = measured["experiment"], measured["clock"]
    rate, speed = experiment.published_rate, measured["speed"]
    equal = t * rate.R

    def scores(label: str, playouts: float, sample: tuple | None = None) -> np.ndarray:
        traces, reach = sample or ours[label]
        if playouts > min(reach) + ROUNDED_BUDGET_SLACK:
            return np.full(len(traces), np.nan)
        return np.array([best_at(p, sc, [playouts])[0] for p, sc in traces]) * scale

    def reaching(label: str, playouts: float) -> tuple[tuple, int]:
        """The judged runs where they reach ``playouts``, else the first longer sample that does
        (engines.first_reaching), and its runs (0: the judged runs, also where none reaches)."""
        found = first_reaching([ours[label], *measured.get("longer", {}).get(label, [])], playouts)
        if found is None or found[0] == 0:
            return ours[label], 0
        return found[1], len(found[1][0])

    def rho_ref(label: str) -> float:  # over the column's own baseline, as rho
        own = own_baseline(rate, label)
        if own == label:
            return 1.0
        if label not in clock or own not in clock or not np.isfinite(speed):
            return np.nan
        tau = t / speed
        return float(work_by_time(*mean_work(clock[label]), [tau])[0]
                     / work_by_time(*mean_work(clock[own]), [tau])[0])

    mine, theirs = scores(column, equal), scores(other, equal)
    algorithm = (float(np.mean(mine) - np.mean(theirs)), *welch(mine, theirs, 0.95))
    ref_algorithm = (np.nan, np.nan, np.nan)
    if column in reference and other in reference:
        a, b = (scores_at(*reference[label], int(round(equal))) * scale for label in (column, other))
        if a.size >= MIN_RUNS and b.size >= MIN_RUNS:
            ref_algorithm = (float(a.mean() - b.mean()), *welch(a, b, 0.95))
    row = {"column": column, "other": other, "time": t,
           "equal_playouts": algorithm[0], "equal_playouts_low": algorithm[1], "equal_playouts_high": algorithm[2],
           "ref_equal_playouts": ref_algorithm[0], "ref_equal_playouts_low": ref_algorithm[1],
           "ref_equal_playouts_high": ref_algorithm[2]}
    for key, rho_of in (("ours", rate.rho), ("ref", rho_ref)):
        rhos = {label: rho_of(label) for label in (column, other)}
        # each column's extra work on one sample of runs (paired): the judged runs, or longer ones
        samples = {label: reaching(label, equal * rho) if np.isfinite(rho) else (None, 0) for label, rho in rhos.items()}
        extra = {label: (scores(label, equal * rho, samples[label][0]) - scores(label, equal, samples[label][0]))
                 if np.isfinite(rho) else np.array([np.nan]) for label, rho in rhos.items()}
        if not all(np.isfinite(values).all() for values in extra.values()):
            part = (np.nan, np.nan, np.nan)
        elif own_baseline(rate, other) == other:  # rho 1: no extra work
            part = t_interval(extra[column])
        else:
            part = (float(extra[column].mean() - extra[other].mean()), *welch(extra[column], extra[other], 0.95))
        longer = [runs for _, runs in samples.values() if runs]
        row.update({f"{key}_rho": rhos[column], f"{key}_other_rho": rhos[other], f"{key}_part": part[0],
                    f"{key}_part_low": part[1], f"{key}_part_high": part[2], f"{key}_longer_runs": min(longer, default=0)})
    return row


def split_gains(measured: dict) -> pd.DataFrame:
    """Each column's gain over its own baseline (own_baseline) at the SPLIT_TIMES the table reaches
    (``split_pair``), beside the published gain: of a table as engines.measure reads it."""
    ours, reference, published = measured["ours"], measured["reference"], measured["published"]
    rate, last, scale = measured["experiment"].published_rate, float(published["time"].max()), measured["experiment"].value_scale
    rows = []
    for column in ours:
        baseline = own_baseline(rate, column)
        if column == baseline or column not in published.columns or baseline not in ours:
            continue
        for t in (t for t in SPLIT_TIMES if t <= last + 1e-9):
            row = published.loc[np.isclose(published["time"], t)]
            gain = float(row[column].iloc[0] - row[baseline].iloc[0]) if len(row) else np.nan
            split = split_pair(measured, ours, reference, scale, column, baseline, t)
            rows.append({"column": column, "over": baseline, "time": t, "published_gain": gain,
                         **{k: v for k, v in split.items() if k not in ("column", "other", "time", "ours_other_rho",
                                                                         "ref_other_rho")}})
    return pd.DataFrame(rows)


def split_text(split: dict) -> str:
    """One line: a gain's two parts on both engines, for the claims report."""
    def interval(key: str) -> str:
        mean, low, high = (split[f"{key}{end}"] for end in ("", "_low", "_high"))
        longer = split.get(key.replace("_part", "_longer_runs"), 0) if key.endswith("_part") else 0
        on = f" (on {longer:.0f} longer runs)" if longer == longer and longer else ""
        return f"{mean:+.4g} [{low:+.4g}, {high:+.4g}]{on}" if np.isfinite(mean) else "not reached"

    def rho(key: str) -> str:
        mine, other = split[f"{key}_rho"], split[f"{key}_other_rho"]
        if not (np.isfinite(mine) and np.isfinite(other)):
            return "no clock measured"
        return f"rho {mine:.3g}" + (f" against {other:.3g}" if other != 1.0 else "")

    return (f"{split['column']} over {split['other']} at {split['time']:g} s: at equal playouts (t x R) "
            f"ours {interval('equal_playouts')}, the reference engine's {interval('ref_equal_playouts')}, and the "
            f"engine's part, this engine ({rho('ours')}) {interval('ours_part')}, the reference engine "
            f"({rho('ref')}) {interval('ref_part')}")


def claim_split(claim, source, overrides=()) -> str:
    """The split of a compare claim made at equal time on a paper-scale table with reference runs
    (``split_pair`` for each of its pairs, at its time: the last published time for "last", the
    SPLIT_TIMES for "every"), in the claim's direction (> 0: as claimed, as the claims' effects),
    one line (split_text) per pair and time; "" for any other claim. It reads the runs the claims
    read at t x R x rho (measured_table: up to 200 a column, the engines pages' runs; ``overrides``:
    the campaign's, its store's)."""
    experiment = getattr(source, "experiment", None)  # none for the neural pipeline's results
    if (experiment is None or claim.test != "compare" or claim.basis != "equal time" or claim.axis is not None
            or experiment.scale != "paper" or experiment.published_rate is None or claim.experiment not in tables()):
        return ""
    found = measured_table(claim.experiment, tuple(overrides))
    times = ([found["last"]] if claim.at == "last" else
             [t for t in SPLIT_TIMES if t <= found["last"] + 1e-9] if claim.at == "every" else list(claim.at))
    return "\n".join(split_text(split_pair(found, found["ours"], found["reference"], abs(experiment.value_scale),
                                           better, worse, t))
                     for better, worse in claim.pairs for t in times
                     if better in found["ours"] and worse in found["ours"])
