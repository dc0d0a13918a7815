"""Best-score tables over many problem instances (the 20 SameGame boards): pure functions.

One row per board plus a total; per algorithm the best and the mean final score over its
runs with a 95% CI; the published columns beside them; the best certificate ever kept in
the leaderboard.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import t_interval


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
    return f"{caption}\n\n{frame.to_markdown(index=False)}\n"


def _number(value, spec: str = ".0f") -> str:
    return "-" if value is None or np.isnan(value) else format(value, spec)
