"""Morpion Solitaire 5T and 5D in plain Python: the rules, record files and the checker.

Independent of the numba kernel (``nrpa.domains.morpion``): a position is a set of dots and,
per direction, a set of "used" points. Rules, coordinates and record games:
nrpa/data/morpion/SOURCE.md.

Coordinates: origin at the top-left inner corner of the Greek cross, x right, y down. A move
is ``Move(dot_x, dot_y, dir_dx, dir_dy, start_x, start_y)``: the new dot and the line
``start + i * dir`` (i = 0..4) drawn with it, dir one of (1,0) '-', (1,1) '\\', (0,1) '|',
(-1,1) '/'. A certificate is the list of moves in the order played, each as that list of six
integers (the CSV columns without ``ply``).

* 5D (disjoint): a new line may not share any point with a line of the same direction;
* 5T (touching): it may not share a unit segment with a line of the same direction (it may
  share an end point). Lines of different directions may cross in both variants.

``used[d]`` holds, for direction d, the points of the lines drawn in d (5D) or the first end
of each unit segment drawn in d, the segment from p to p + d (5T).

``line_span=6`` (5D only; default 5, standard 5D) is a rule variant, our reading of the
Morpion paper's planes (Doux, Negrevergne, Cazenave, section 3.1: "there is a segment between
the place i, j and the place i + 5, j"): on top of 5D, a new line may not lie end to end with
a line of the same direction, i.e. start one step past that line's end (s = e + d, for e its
last point) or end one step before that line's start. Equivalently, each line blocks the 6
points from its start to one past its end and two lines' 6 points may not meet (the kernel's
formulation, nrpa/domains/morpion.py); here it is checked from the lines drawn (``lines``:
the start of each line per direction), an independent formulation. The paper does not state
the rule: it is a reading.

``one_sided=True`` (with ``line_span=6``) is half of it: a new line may not end one step before
a line of the same direction starts (s + 5 d = the other's start), but may start one step past
one's end. A reading of the paper's published Table 2 (docs/readings.md), which contradicts the paper's
stated 5D rule; checked here, as above, from the lines drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from nrpa.errors import InputError

VARIANTS = ("5D", "5T")
LINE_SPANS = (5, 6)  # 5: the standard rules; 6: the variant above (5D only)
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1))
SYMBOLS = {"-": (1, 0), "\\": (1, 1), "|": (0, 1), "/": (-1, 1)}
CSV_HEADER = "ply,dot_x,dot_y,dir_dx,dir_dy,start_x,start_y"
RECORDS = {"5d_82_rosin": "5D", "5t_178_rosin": "5T", "5t_170_bruneau": "5T"}

CROSS = (
    (0, 0), (-1, 0), (-2, 0), (-3, 0), (-3, 1), (-3, 2), (-3, 3), (-2, 3), (-1, 3), (0, 3),
    (0, 4), (0, 5), (0, 6), (1, 6), (2, 6), (3, 6), (3, 5), (3, 4), (3, 3), (4, 3), (5, 3),
    (6, 3), (6, 2), (6, 1), (6, 0), (5, 0), (4, 0), (3, 0), (3, -1), (3, -2), (3, -3),
    (2, -3), (1, -3), (0, -3), (0, -2), (0, -1),
)


class IllegalMove(ValueError):
    """A move (of a certificate or record) that the rules forbid; the message names the ply."""


class Move(NamedTuple):
    dot_x: int
    dot_y: int
    dir_dx: int
    dir_dy: int
    start_x: int
    start_y: int

    @property
    def dot(self) -> tuple[int, int]:
        return (self.dot_x, self.dot_y)

    @property
    def direction(self) -> tuple[int, int]:
        return (self.dir_dx, self.dir_dy)

    def points(self) -> list[tuple[int, int]]:
        """The five points of the line, from the start."""
        return [(self.start_x + i * self.dir_dx, self.start_y + i * self.dir_dy) for i in range(5)]


@dataclass
class Position:
    variant: str
    dots: set = field(default_factory=lambda: set(CROSS))
    used: dict = field(default_factory=lambda: {d: set() for d in DIRECTIONS})
    moves: list = field(default_factory=list)
    line_span: int = 5
    lines: dict = field(default_factory=lambda: {d: set() for d in DIRECTIONS})  # line starts per direction
    one_sided: bool = False

    def __post_init__(self):
        if self.variant not in VARIANTS:
            raise ValueError(f"variant {self.variant!r}: choose one of {', '.join(VARIANTS)}")
        _check_span(self.variant, self.line_span, self.one_sided)


def _check_span(variant: str, line_span: int, one_sided: bool = False) -> None:
    if line_span not in LINE_SPANS or (line_span != 5 and variant != "5D"):
        raise ValueError(f"line_span={line_span!r} with {variant}: 5, or 6 with 5D only (under 5T a "
                         "6-point span would give the rules of 5D)")
    if one_sided and line_span != 6:
        raise ValueError("one_sided is a form of line_span 6")


def initial_position(variant: str, line_span: int = 5, one_sided: bool = False) -> Position:
    return Position(variant, line_span=line_span, one_sided=one_sided)


def rules_name(variant: str, line_span: int = 5, one_sided: bool = False) -> str:
    """The rules in words, as the errors name them: "5D", "5D, line_span 6", "5D, line_span 6
    one-sided"."""
    return variant if line_span == 5 else f"{variant}, line_span {line_span}{' one-sided' if one_sided else ''}"


def _end_to_end(position: Position, direction, start) -> tuple[int, int] | None:
    """line_span 6: the start of a line of ``direction`` lying end to end with the line from
    ``start`` (starting one step past its end, or ending one step before its start; one-sided:
    only the latter), else None."""
    dx, dy = direction
    after = (start[0] + 5 * dx, start[1] + 5 * dy)  # a line starting one step past the new one's end
    before = (start[0] - 5 * dx, start[1] - 5 * dy)  # a line ending one step before the new one starts
    for t in ((after,) if position.one_sided else (after, before)):
        if t in position.lines[direction]:
            return t
    return None


def _marked(variant: str, line: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The entries of ``used[d]`` a line covers: its 5 points (5D) or its 4 segment starts (5T)."""
    return line if variant == "5D" else line[:4]


def why_illegal(position: Position, move: Move) -> str | None:
    """None when ``move`` is legal in ``position``, else the reason."""
    direction = move.direction
    if direction not in DIRECTIONS:
        return (f"direction ({move.dir_dx},{move.dir_dy}) is not one of "
                f"{', '.join(f'({dx},{dy})' for dx, dy in DIRECTIONS)}")
    line = move.points()
    if move.dot not in line:
        return f"the dot ({move.dot_x},{move.dot_y}) is not on the line from ({move.start_x},{move.start_y})"
    if move.dot in position.dots:
        return f"({move.dot_x},{move.dot_y}) is already a dot"
    missing = [p for p in line if p != move.dot and p not in position.dots]
    if missing:
        return f"the line needs dots at {', '.join(f'({x},{y})' for x, y in missing)}"
    clash = [p for p in _marked(position.variant, line) if p in position.used[direction]]
    if clash:
        what = "point" if position.variant == "5D" else "unit segment from"
        x, y = clash[0]
        return (f"{position.variant}: the line shares the {what} ({x},{y}) with a line of the same "
                "direction")
    if position.line_span == 6:
        other = _end_to_end(position, direction, (move.start_x, move.start_y))
        if other is not None:
            return (f"the line lies end to end with the line of the same direction from "
                    f"({other[0]},{other[1]}) (line_span 6{' one-sided' if position.one_sided else ''})")
    return None


def legal_moves(position: Position) -> list[Move]:
    """Every legal move of ``position``, sorted: each line through a dot with exactly one
    empty point and no point (5D) or segment (5T) used in its direction (line_span 6: and no
    line of its direction end to end with it)."""
    dots = position.dots
    found = []
    for direction in DIRECTIONS:
        dx, dy = direction
        used = position.used[direction]
        seen = set()
        for x, y in dots:
            for i in range(5):  # the lines of this direction through this dot
                start = (x - i * dx, y - i * dy)
                if start in seen:
                    continue
                seen.add(start)
                line = [(start[0] + j * dx, start[1] + j * dy) for j in range(5)]
                empty = [p for p in line if p not in dots]
                if len(empty) != 1 or any(p in used for p in _marked(position.variant, line)):
                    continue
                if position.line_span == 6 and _end_to_end(position, direction, start) is not None:
                    continue
                found.append(Move(empty[0][0], empty[0][1], dx, dy, start[0], start[1]))
    return sorted(found)


def is_terminal(position: Position) -> bool:
    return not legal_moves(position)


def play(position: Position, move: Move) -> None:
    """Apply a move known to be legal (check it with ``why_illegal`` first)."""
    position.dots.add(move.dot)
    position.used[move.direction].update(_marked(position.variant, move.points()))
    position.lines[move.direction].add((move.start_x, move.start_y))
    position.moves.append(move)


def replay_position(variant: str, moves, line_span: int = 5, one_sided: bool = False) -> Position:
    """The position after ``moves`` (Move or six integers each) under ``variant``,
    ``line_span`` and ``one_sided``; raises IllegalMove naming the first illegal ply (1-based)
    and why."""
    if variant not in VARIANTS:
        raise ValueError(f"variant {variant!r}: choose one of {', '.join(VARIANTS)}")
    position = initial_position(variant, line_span, one_sided)
    for ply, raw in enumerate(moves, start=1):
        try:
            move = Move(*(int(v) for v in raw))
        except (TypeError, ValueError):
            raise IllegalMove(f"ply {ply}: {raw!r} is not six integers "
                              "[dot_x, dot_y, dir_dx, dir_dy, start_x, start_y]") from None
        reason = why_illegal(position, move)
        if reason is not None:
            raise IllegalMove(f"ply {ply}: move {list(move)} is illegal under "
                              f"{rules_name(variant, line_span, one_sided)}: {reason}")
        play(position, move)
    return position


def replay(variant: str, moves, line_span: int = 5, one_sided: bool = False) -> int:
    """The score (number of moves) of a certificate, every move checked legal under ``variant``
    (and ``line_span``, ``one_sided``)."""
    return len(replay_position(variant, moves, line_span, one_sided).moves)


# ---------------------------------------------------------------------------------------
# Record files


def _content_lines(text: str):
    """(line number, stripped line) of each line that is neither blank nor a # comment."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


def parse_csv(text: str, source: str) -> list[Move]:
    """``ply,dot_x,dot_y,dir_dx,dir_dy,start_x,start_y``: a header line, then one move a line,
    plies numbered 1, 2, ...; blank lines and lines starting with # are skipped."""
    moves = []
    header_seen = False
    for number, stripped in _content_lines(text):
        if not header_seen:
            if stripped.replace(" ", "") != CSV_HEADER:
                raise InputError(f"move file {source}, line {number}: the header must be {CSV_HEADER!r}")
            header_seen = True
            continue
        fields = [token.strip() for token in stripped.split(",")]
        try:
            values = [int(token) for token in fields]
        except ValueError:
            raise InputError(f"move file {source}, line {number}: {stripped!r} is not 7 integers "
                             f"({CSV_HEADER})") from None
        if len(values) != 7:
            raise InputError(f"move file {source}, line {number}: {len(values)} fields where "
                             f"{CSV_HEADER} needs 7")
        if values[0] != len(moves) + 1:
            raise InputError(f"move file {source}, line {number}: ply {values[0]} where "
                             f"{len(moves) + 1} was expected")
        moves.append(Move(*values[1:]))
    if not header_seen:
        raise InputError(f"move file {source} is empty: it needs the header {CSV_HEADER!r}")
    return moves


def _parse_pair(token: str):
    if not (token.startswith("(") and token.endswith(")")):
        raise ValueError
    x, y = token[1:-1].split(",")
    return int(x), int(y)


def parse_psol(text: str, source: str) -> list[Move]:
    """Pentasol: a first line ``(rx,ry)`` (the reference dot, the cross's inner top-left
    corner), then one move a line ``(x,y) D o``: the new dot, the direction symbol and the
    offset o of the line's middle point from the dot along x (along y for ``|``)."""
    moves = []
    reference = None
    for number, stripped in _content_lines(text):
        tokens = stripped.replace(" ,", ",").replace(", ", ",").split()
        if reference is None:
            try:
                if len(tokens) != 1:
                    raise ValueError
                reference = _parse_pair(tokens[0])
            except ValueError:
                raise InputError(f"Pentasol file {source}, line {number}: {stripped!r} is not the reference "
                                 "dot (rx,ry)") from None
            continue
        try:
            if len(tokens) != 3 or tokens[1] not in SYMBOLS:
                raise ValueError
            x, y = _parse_pair(tokens[0])
            offset = int(tokens[2])
            if not -2 <= offset <= 2:
                raise ValueError
        except ValueError:
            raise InputError(f"Pentasol file {source}, line {number}: {stripped!r} is not a move "
                             "'(x,y) D o' with D one of - | / \\ and o in -2..2") from None
        dx, dy = SYMBOLS[tokens[1]]
        x, y = x - reference[0], y - reference[1]
        # The middle point is dot + o along x (along y for '|'): dot + o * dir, except for '/'
        # (dir (-1,1)), where moving o along x is -o steps of dir.
        steps = -offset if (dx, dy) == (-1, 1) else offset
        mid_x, mid_y = x + steps * dx, y + steps * dy
        moves.append(Move(x, y, dx, dy, mid_x - 2 * dx, mid_y - 2 * dy))
    if reference is None:
        raise InputError(f"Pentasol file {source} is empty: it needs the reference dot (rx,ry)")
    return moves


def load_moves(path: str | Path) -> list[Move]:
    """The moves of a ``.csv`` or ``.psol`` file (InputError naming the file and line)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"move file {path} does not exist")
    if path.suffix == ".psol":
        return parse_psol(path.read_text(), str(path))
    return parse_csv(path.read_text(), str(path))


def record_path(name: str, suffix: str = ".csv"):
    """A shipped record game (5d_82_rosin, 5t_178_rosin, 5t_170_bruneau)."""
    return resources.files("nrpa") / "data" / "morpion" / f"{name}{suffix}"


def load_record(name: str, suffix: str = ".csv") -> list[Move]:
    path = record_path(name, suffix)
    text = path.read_text()
    return parse_psol(text, str(path)) if suffix == ".psol" else parse_csv(text, str(path))


def format_moves(moves) -> str:
    """The CSV text of a certificate: the header, then ``ply,dot_x,...`` one move a line."""
    rows = [CSV_HEADER] + [",".join(map(str, [ply, *move])) for ply, move in enumerate(moves, start=1)]
    return "\n".join(rows)
