"""The papers' published tables, transcribed under analysis/reference/, read.

They define runs as well as judge them: the neural pipeline runs an Expert Iteration run per
row of the published Morpion Table 4 (experiments/neural.py), and the reports and claims
(analysis/) put our values beside them. So the reader sits here, below both.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

REFERENCE_DIR = Path(__file__).resolve().parent.parent / "analysis" / "reference"
ALIASES_SUFFIX = "_aliases.csv"


def load_reference(file_name: str, aliases: bool = True) -> pd.DataFrame:
    """A published table (analysis/reference/, transcribed from the papers). Our rows are
    matched to its rows by name (its first column). A file ``<stem>_aliases.csv`` beside it
    (columns ``row``, ``published_row``) puts one published row beside several of ours: each
    of its lines appends a copy of the published row named as our row (Morpion Table 2, each
    row measured under two readings of the rules); the transcription itself stays as printed
    (``aliases=False``: the transcription alone)."""
    path = REFERENCE_DIR / file_name
    table = pd.read_csv(path)
    aliases_path = path.with_name(path.stem + ALIASES_SUFFIX)
    if not aliases or not aliases_path.exists():
        return table
    alias_rows = pd.read_csv(aliases_path)
    key = table.columns[0]
    rows = table.set_index(key)
    missing = sorted(set(alias_rows["published_row"]) - set(rows.index))
    if missing or list(alias_rows.columns) != ["row", "published_row"]:
        raise ValueError(f"{aliases_path}: columns must be row,published_row and each published_row a row of "
                         f"{file_name} (not found: {missing})")
    copies = rows.loc[alias_rows["published_row"]].reset_index(drop=True)
    copies.insert(0, key, alias_rows["row"].to_numpy())
    return pd.concat([table, copies], ignore_index=True)
