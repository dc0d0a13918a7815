"""Best-score tables over many problem instances (the 20 SameGame boards): pure functions.

One row per board plus a total; per algorithm the best and the mean final score over its
runs with a 95% CI; the published columns beside them; the best certificate ever kept in
the leaderboard.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import t_interval
from analysis.results.tables import markdown_table


def board_table(final_scores: dict[tuple[str, int], list[float]], reference: pd.DataFrame | None,
                leaderboard: dict[int, float]) -> pd.DataFrame:
    """``final_scores[(algorithm, board)]``: the runs' final best scores."""
    algorithms = list(dict.fromkeys(algorithm for algorithm, _ in final_scores))
    boards = sorted({board for _, board in final_scores})
    rows = []
    for board in boards:
        row = {"board": str(board)}
        for algorithm in algorithms:
            scores = final_scores.get((algorithm, board), [])
            mean, low, high = t_interval(scores)
            row.update({f"{algorithm} best": max(scores) if scores else np.nan,
                        f"{algorithm} mean": mean, f"{algorithm} ci_low": low,
                        f"{algorithm} ci_high": high, f"{algorithm} runs": len(scores)})
        if reference is not None:
            published = reference[reference["board"].astype(str) == str(board)]
            for column in reference.columns[1:]:
                row[f"published {column}"] = float(published[column].iloc[0]) if len(published) else np.nan
        row["leaderboard"] = leaderboard.get(board, np.nan)
        rows.append(row)
    table = pd.DataFrame(rows)
    total = {"board": "Total"}
    for column in table.columns[1:]:
        if column.endswith((" ci_low", " ci_high")):
            total[column] = np.nan  # an interval of a sum needs the runs paired across boards
        else:
            total[column] = table[column].sum(min_count=len(table))
    if reference is not None:
        published_total = reference[reference["board"].astype(str) == "Total"]
        for column in reference.columns[1:]:
            if len(published_total):
                total[f"published {column}"] = float(published_total[column].iloc[0])
    return pd.concat([table, pd.DataFrame([total])], ignore_index=True)


def board_markdown(table: pd.DataFrame, algorithms: list[str], *, caption: str) -> str:
    """Per algorithm one cell 'best / mean [low, high]'; published and leaderboard as is."""
    frame = pd.DataFrame({"board": table["board"]})
    for algorithm in algorithms:
        cells = []
        for _, row in table.iterrows():
            cell = _number(row[f"{algorithm} best"]) + " / " + _number(row[f"{algorithm} mean"], ".1f")
            if not np.isnan(row[f"{algorithm} ci_low"]):
                cell += f" [{row[f'{algorithm} ci_low']:.0f}, {row[f'{algorithm} ci_high']:.0f}]"
            cells.append(cell)
        frame[f"{algorithm}: best / mean"] = cells
    for column in table.columns:
        if column.startswith("published ") or column == "leaderboard":
            frame[column] = [_number(value) for value in table[column]]
    return f"{caption}\n\n{markdown_table(frame, index=False)}\n"


def _number(value, spec: str = ".0f") -> str:
    return "-" if value is None or np.isnan(value) else format(value, spec)


# Comparisons across the boards, after rliable (Agarwal et al., NeurIPS 2021, "Deep RL at the
# edge of the statistical precipice"): each board is a task, each run a sample. ---------------

def probability_of_improvement(x: list[np.ndarray], y: list[np.ndarray]) -> float:
    """P(X > Y): on each board, the share of (run of X, run of Y) pairs in which X scores
    more, a tie counting half (the Mann-Whitney U statistic over its maximum); then the mean
    over the boards. ``x[b]``, ``y[b]``: the final scores of each algorithm's runs on board b."""
    shares = []
    for a, b in zip(x, y):
        a, b = np.asarray(a, dtype=float)[:, None], np.asarray(b, dtype=float)[None, :]
        shares.append(np.mean((a > b) + 0.5 * (a == b)))
    return float(np.mean(shares))


def performance_profile(normalized: list[np.ndarray], taus) -> np.ndarray:
    """At each tau, the share of runs whose normalized score is above tau, per board, then
    averaged over the boards (each board weighs the same whatever its number of runs)."""
    taus = np.asarray(taus, dtype=float)
    return np.mean([(np.asarray(runs, dtype=float)[None, :] > taus[:, None]).mean(axis=1)
                    for runs in normalized], axis=0)


def board_bootstrap(scores: dict[str, list[np.ndarray]], statistic, *, resamples: int = 2000,
                    seed: int = 0) -> np.ndarray:
    """``statistic`` over ``resamples`` resamples of ``scores`` (algorithm -> per-board runs):
    the boards drawn with replacement (the same boards for every algorithm), then each
    algorithm's runs on each drawn board. Resampling the boards too (rliable's task
    bootstrap) keeps an interval when a board has one run per algorithm, as at paper scale;
    the interval then speaks for boards like these, not only for these twenty."""
    rng = np.random.default_rng(seed)
    boards = len(next(iter(scores.values())))
    results = []
    for _ in range(resamples):
        drawn = rng.integers(0, boards, boards)
        sample = {algorithm: [runs[b][rng.integers(0, len(runs[b]), len(runs[b]))] for b in drawn]
                  for algorithm, runs in scores.items()}
        results.append(statistic(sample))
    return np.array(results)


def best_known(final_scores: dict[tuple[str, int], list[float]], reference: pd.DataFrame | None,
               leaderboard: dict[int, float]) -> dict[int, float]:
    """Per board, the highest score known: the published columns, the leaderboard and these
    runs. Scores normalized by it lie in (0, 1] (SameGame's scores are positive)."""
    best = {}
    for (_, board), scores in final_scores.items():
        candidates = list(scores) + [leaderboard.get(board, np.nan)]
        if reference is not None:
            row = reference[reference["board"].astype(str) == str(board)]
            candidates += [float(v) for v in row.iloc[0, 1:]] if len(row) else []
        best[board] = max(best.get(board, -np.inf), np.nanmax(candidates))
    return best


def comparisons(final_scores: dict[tuple[str, int], list[float]], best: dict[int, float], *,
                resamples: int = 2000, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The probability of improvement of each pair of algorithms (in table order: P(first >
    second)) and each algorithm's performance profile over normalized scores (score / the
    board's best known), with 95% percentile intervals from ``board_bootstrap``."""
    algorithms = list(dict.fromkeys(algorithm for algorithm, _ in final_scores))
    # the boards every algorithm has runs on (a sweep still running leaves some out)
    boards = sorted(b for b in {board for _, board in final_scores}
                    if all(len(final_scores.get((a, b), [])) for a in algorithms))
    if not boards:
        raise ValueError("no board has runs of every algorithm")
    scores = {a: [np.asarray(final_scores[(a, b)], dtype=float) / best[b] for b in boards] for a in algorithms}
    pairs = [(x, y) for i, x in enumerate(algorithms) for y in algorithms[i + 1:]]
    lowest = min(float(np.min(runs)) for per_board in scores.values() for runs in per_board)
    taus = np.linspace(min(lowest, 1.0) - 0.01, 1.0, 101)

    def statistic(sample):
        return np.concatenate([[probability_of_improvement(sample[x], sample[y]) for x, y in pairs],
                               *[performance_profile(sample[a], taus) for a in algorithms]])

    observed = statistic(scores)
    low, high = np.percentile(board_bootstrap(scores, statistic, resamples=resamples, seed=seed), [2.5, 97.5], axis=0)
    improvement = pd.DataFrame([{"X": x, "Y": y, "P(X > Y)": observed[i], "ci_low": low[i], "ci_high": high[i],
                                 "boards": len(boards)} for i, (x, y) in enumerate(pairs)])
    profile = pd.DataFrame([{"algorithm": a, "tau": tau, "share_above": observed[len(pairs) + j * taus.size + t],
                             "ci_low": low[len(pairs) + j * taus.size + t],
                             "ci_high": high[len(pairs) + j * taus.size + t]}
                            for j, a in enumerate(algorithms) for t, tau in enumerate(taus)])
    return improvement, profile
