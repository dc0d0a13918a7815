"""SameGame in plain Python: board files, the rules, certificates and their verification.

Deliberately independent of the numba kernel (``nrpa.domains.samegame``): a cell grid,
breadth-first flood fill, list-based gravity. Tests compare the two move by move, and run
files are verified by replaying their certificates here.

Grid: ``grid[row][col]``, row 0 at the top, ``None`` for an empty cell. A group is a list
of ``(row, col)`` cells. Rules: nrpa/data/samegame/SOURCE.md.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from nrpa.errors import InputError

STANDARD_BOARDS = range(1, 21)
MAX_COLOURS = 8
MAX_HEIGHT = 63  # the kernel keeps a column in one 64-bit word
MAX_WIDTH = 256  # the kernel packs a group's column numbers in 8 bits


class BoardError(InputError):
    """A board that cannot be loaded; the message names the file and line."""


class IllegalMove(ValueError):
    """A certificate move that does not click a group of 2 or more stones."""


@dataclass(frozen=True)
class Board:
    name: str  # "board 1" or the file path
    rows: tuple[tuple[int, ...], ...]  # colour codes, row 0 at the top

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)


def board_file(number: int) -> Path:
    """The shipped file of standard board ``number`` (1..20)."""
    return Path(str(resources.files("nrpa") / "data" / "samegame" / f"board_{number:02d}.txt"))


def load_board(spec: int | str, text: str | None = None) -> Board:
    """Board ``spec``: a standard board number 1..20 or the path of a board file; ``text``:
    that board file's contents read elsewhere (the copy a run file keeps), parsed in its place."""
    text_spec = str(spec).strip()
    if text_spec.isdigit():
        number = int(text_spec)
        if number not in STANDARD_BOARDS:
            raise BoardError(
                f"domain.board={number} is out of range: valid are the standard boards 1..20 "
                "or the path of a board file"
            )
        return Board(f"board {number}", parse_board(board_file(number).read_text(), f"board {number}"))
    path = Path(text_spec).expanduser()
    if text is None:
        if not path.is_file():
            raise BoardError(
                f"domain.board={text_spec!r}: no such board file (valid are the standard boards "
                "1..20 or the path of a board file)"
            )
        text = path.read_text()
    return Board(str(path), parse_board(text, str(path)))


def parse_board(text: str, source: str) -> tuple[tuple[int, ...], ...]:
    """Rows of single-digit colour codes separated by white space, top row first."""
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise BoardError(f"board file {source} is empty")
    rows = []
    for number, line in enumerate(lines, start=1):
        tokens = line.split()
        if not tokens:
            raise BoardError(f"board file {source}, line {number}: blank line inside the board")
        for token in tokens:
            if len(token) != 1 or not token.isdigit():
                raise BoardError(
                    f"board file {source}, line {number}: {token!r} is not a colour digit 0-9"
                )
        if rows and len(tokens) != len(rows[0]):
            raise BoardError(
                f"board file {source}, line {number}: {len(tokens)} cells where line 1 has "
                f"{len(rows[0])} (the board must be rectangular)"
            )
        rows.append(tuple(int(token) for token in tokens))
    if len(rows) > MAX_HEIGHT:
        raise BoardError(f"board file {source}: {len(rows)} rows, at most {MAX_HEIGHT}")
    if len(rows[0]) > MAX_WIDTH:
        raise BoardError(f"board file {source}: {len(rows[0])} columns, at most {MAX_WIDTH}")
    colours = sorted({colour for row in rows for colour in row})
    if len(colours) > MAX_COLOURS:
        raise BoardError(
            f"board file {source}: {len(colours)} colours {colours}, at most {MAX_COLOURS}"
        )
    return tuple(rows)


def new_grid(rows) -> list[list[int | None]]:
    return [list(row) for row in rows]


def group_at(grid, row: int, col: int) -> list[tuple[int, int]]:
    """The 4-connected same-colour cells containing (row, col), sorted; [] if empty."""
    colour = grid[row][col]
    if colour is None:
        return []
    height, width = len(grid), len(grid[0])
    seen = {(row, col)}
    queue = deque([(row, col)])
    while queue:
        r, c = queue.popleft()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < height and 0 <= nc < width and (nr, nc) not in seen:
                if grid[nr][nc] == colour:
                    seen.add((nr, nc))
                    queue.append((nr, nc))
    return sorted(seen)


def all_groups(grid) -> list[list[tuple[int, int]]]:
    """Every group of 2 or more stones, each sorted, listed by their top-left cell."""
    seen = set()
    groups = []
    for r, row in enumerate(grid):
        for c, colour in enumerate(row):
            if colour is None or (r, c) in seen:
                continue
            cells = group_at(grid, r, c)
            seen.update(cells)
            if len(cells) >= 2:
                groups.append(cells)
    return groups


def components(grid, colour: int) -> int:
    """Number of 4-connected components of ``colour``, single stones included."""
    seen = set()
    count = 0
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value == colour and (r, c) not in seen:
                seen.update(group_at(grid, r, c))
                count += 1
    return count


def tabu_colour(rows) -> int:
    """The most frequent colour of the initial board, ties to the lowest code."""
    counts = {}
    for row in rows:
        for colour in row:
            counts[colour] = counts.get(colour, 0) + 1
    return min(counts, key=lambda colour: (-counts[colour], colour))


def legal_groups(grid, *, rule: str, threshold: int, tabu: int, moves_played: int):
    """The groups the playout rule allows (every group when it would allow none)."""
    groups = all_groups(grid)
    if rule == "none" or components(grid, tabu) < 2:
        return groups
    allowed = [
        cells for cells in groups
        if grid[cells[0][0]][cells[0][1]] != tabu
        or (rule == "selective" and len(cells) == 2 and moves_played > threshold)
    ]
    return allowed or groups


def remove_group(grid, cells) -> int:
    """Remove ``cells`` from ``grid`` in place (gravity, then empty columns shift left);
    return the points: (n - 2)^2, plus 1000 when the board is cleared."""
    height, width = len(grid), len(grid[0])
    for r, c in cells:
        grid[r][c] = None
    columns = []
    for c in range(width):
        stones = [grid[r][c] for r in range(height) if grid[r][c] is not None]
        if stones:
            columns.append([None] * (height - len(stones)) + stones)
    while len(columns) < width:
        columns.append([None] * height)
    for r in range(height):
        for c in range(width):
            grid[r][c] = columns[c][r]
    points = (len(cells) - 2) ** 2
    if all(cell is None for row in grid for cell in row):
        points += 1000
    return points


def group_code(grid, cells, table: np.ndarray) -> int:
    """Zobrist code of a group: XOR of table[row * width + col, colour] over its cells."""
    width = len(grid[0])
    code = 0
    for r, c in cells:
        code ^= int(table[r * width + c, grid[r][c]])
    return code


def replay(rows, clicks) -> int:
    """Score of the certificate ``clicks`` [(row, col), ...] played from ``rows``."""
    grid = new_grid(rows)
    total = 0
    for number, (row, col) in enumerate(clicks, start=1):
        if not (0 <= row < len(grid) and 0 <= col < len(grid[0])):
            raise IllegalMove(f"move {number}: ({row}, {col}) is off the board")
        cells = group_at(grid, row, col)
        if len(cells) < 2:
            raise IllegalMove(f"move {number}: ({row}, {col}) is not in a group of 2 or more")
        total += remove_group(grid, cells)
    return total


def certificate(rows, kernel_moves) -> list[tuple[int, int]]:
    """Turn kernel move ids (cell x * 64 + k, k counted from the bottom) into clicks: the
    top-left cell (row, col) of each group on the board at that moment."""
    grid = new_grid(rows)
    height = len(grid)
    clicks = []
    for move in kernel_moves:
        col, k = divmod(int(move), 64)
        cells = group_at(grid, height - 1 - k, col)
        if len(cells) < 2:
            raise IllegalMove(f"kernel move {move} does not hit a group of 2 or more stones")
        clicks.append(cells[0])
        remove_group(grid, cells)
    return clicks
