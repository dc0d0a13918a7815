"""The imitation data set: Morpion games of NRPA, stored once, with how they were made.

A data set is a set of whole games (kernel move ids, padded), not of positions: the planes of
the position before each move are computed when a batch is drawn
(``nrpa.neural.planes.positions_planes``, a numba kernel replaying the game), so that 700,000
positions of 17 planes of 30 x 30 never have to sit on disk (10 GB as bytes). The file is a
compressed numpy archive: ``games`` (int64, one game a row, -1 after its end), ``lengths``,
``scores``, and ``provenance``, a JSON text saying where the games come from (the run files,
their settings and code version, the score filter). No torch here.
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nrpa.errors import InputError

FORMAT = "nrpa-morpion-games-1"


@dataclass(frozen=True)
class GameSet:
    games: np.ndarray  # int64 [n, max length], kernel move ids, -1 after the end
    lengths: np.ndarray  # int64 [n]
    scores: np.ndarray  # float64 [n]
    provenance: dict

    def __post_init__(self):
        n = len(self.lengths)
        if self.games.ndim != 2 or self.games.shape[0] != n or len(self.scores) != n:
            raise InputError(f"a game set needs games [n, length], lengths [n] and scores [n]: got "
                             f"{self.games.shape}, {len(self.lengths)} and {len(self.scores)}")
        if n and (self.lengths.min() < 0 or self.lengths.max() > self.games.shape[1]):
            raise InputError("a game set's lengths must lie between 0 and its games' width")

    def __len__(self) -> int:
        return len(self.lengths)

    def positions(self, games: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(game, ply) of every position with a move played from it, of the games ``games``
        (indices; all by default), in game order."""
        chosen = np.arange(len(self)) if games is None else np.asarray(games, dtype=np.int64)
        counts = self.lengths[chosen]
        game_of = np.repeat(chosen, counts)
        starts = np.cumsum(counts) - counts
        ply_of = np.arange(counts.sum()) - np.repeat(starts, counts)
        return game_of.astype(np.int64), ply_of.astype(np.int64)


def from_sequences(sequences: list, scores: list, provenance: dict) -> GameSet:
    """A game set from lists of kernel move ids."""
    width = max((len(s) for s in sequences), default=0)
    games = np.full((len(sequences), width), -1, dtype=np.int64)
    for row, sequence in enumerate(sequences):
        games[row, :len(sequence)] = sequence
    return GameSet(games, np.array([len(s) for s in sequences], dtype=np.int64),
                   np.asarray(scores, dtype=np.float64), provenance)


def save(game_set: GameSet, path: Path) -> None:
    """Write atomically (a temporary file renamed): an interrupted save leaves no half file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(temporary, format=np.array(FORMAT), games=game_set.games, lengths=game_set.lengths,
                        scores=game_set.scores, provenance=np.array(json.dumps(game_set.provenance, sort_keys=True)))
    os.replace(temporary, path)


def load(path: Path) -> GameSet:
    """The game set at ``path``, or InputError naming what is wrong with the file."""
    if not path.is_file():
        raise InputError(f"no game set at {path}: make it first (its experiment's data step)")
    try:
        with np.load(path, allow_pickle=False) as archive:
            if str(archive["format"]) != FORMAT:
                raise InputError(f"{path} is not a game set of this harness (format {archive['format']})")
            return GameSet(archive["games"].astype(np.int64), archive["lengths"].astype(np.int64),
                           archive["scores"].astype(np.float64), json.loads(str(archive["provenance"])))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:  # a truncated or foreign file
        raise InputError(f"{path} is damaged or not a game set ({type(error).__name__}: {error}): "
                         "delete it and make it again") from None
