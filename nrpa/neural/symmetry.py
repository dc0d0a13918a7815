"""The 8 symmetries of the Morpion board, applied to whole games: data augmentation for Expert
Iteration (``Expert.augment``), an option beyond the Morpion paper. (An earlier reading took
the letter "A" of the paper's Table 4 for this augmentation; the paper's text calls the "A"
rows "the best approaches among all tested parameters" and never mentions symmetries, so no
published row uses it: docs/readings.md.)

The starting cross is symmetric under the 8 rotations and reflections of the square about its
centre, (1.5, 1.5) in SOURCE.md's coordinates, and so are the rules (5D and 5T): a game mapped
by a symmetry is a game, with the same score (tested with the plain-Python rules). Mapping the
games rather than the planes keeps one way of making planes (``positions_planes``) and gives
the R2 history planes for free.
"""

from __future__ import annotations

from nrpa.domains.morpion import DIRECTIONS, decode_move, encode_move
from nrpa.neural.data import GameSet, from_sequences

# (a, b, c, d): (u, v) -> (a u + b v, c u + d v) about the centre; the identity first.
SYMMETRIES = ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
              (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0))


def _map_point(symmetry, x: int, y: int) -> tuple[int, int]:
    a, b, c, d = symmetry
    u, v = 2 * x - 3, 2 * y - 3  # doubled coordinates about the centre (1.5, 1.5): integers
    return ((a * u + b * v) + 3) // 2, ((c * u + d * v) + 3) // 2


def map_move(domain, move: int, symmetry) -> int:
    """The kernel move id of ``move``'s image: the same line's points mapped, its start the end
    from which the mapped direction is one of the 4 the kernel numbers."""
    dot_x, dot_y, dx, dy, sx, sy = decode_move(domain, move)
    a, b, c, d = symmetry
    direction = (a * dx + b * dy, c * dx + d * dy)
    if direction in DIRECTIONS:
        start = _map_point(symmetry, sx, sy)
    else:
        direction = (-direction[0], -direction[1])
        start = _map_point(symmetry, sx + 4 * dx, sy + 4 * dy)
    return encode_move(domain, [*_map_point(symmetry, dot_x, dot_y), *direction, *start])


def augmented(game_set: GameSet, domain) -> GameSet:
    """The games of ``game_set`` under each of the 8 symmetries (8 times as many games, the
    originals first)."""
    sequences, scores = [], []
    for symmetry in SYMMETRIES:
        for game, length, score in zip(game_set.games, game_set.lengths, game_set.scores):
            sequences.append([map_move(domain, int(move), symmetry) for move in game[:length]])
            scores.append(float(score))
    provenance = {**game_set.provenance, "augmented": "the 8 symmetries of the board"}
    return from_sequences(sequences, scores, provenance)
