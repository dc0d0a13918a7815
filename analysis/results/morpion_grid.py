"""A picture of a Morpion Solitaire game: the cross, the lines and the dots numbered by move.

``draw_grid(variant, certificate, path)`` writes a PNG of a certificate (moves as
[dot_x, dot_y, dir_dx, dir_dy, start_x, start_y], nrpa/data/morpion/SOURCE.md coordinates,
y down). The certificate is replayed with the plain-Python rules first, so an illegal game
raises ``IllegalMove`` instead of being drawn.

    python -m analysis.results.morpion_grid RUN_FILE.json|MOVES.csv|MOVES.psol OUT.png [--variant 5T]

(a run file gives its own variant; a move file is drawn as 5D unless ``--variant`` says.)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display on the machines this runs on
import matplotlib.pyplot as plt  # noqa: E402

from nrpa.domains import morpion_rules as rules  # noqa: E402
from nrpa.errors import InputError  # noqa: E402


def draw_grid(variant: str, certificate, path, line_span: int = 5, one_sided: bool = False) -> Path:
    """Write a PNG of the game ``certificate`` under ``variant`` (5D or 5T; ``line_span`` 6,
    on both sides or ``one_sided``: the 5D rule variants of nrpa/domains/morpion_rules.py) to
    ``path``."""
    moves = rules.replay_position(variant, certificate, line_span, one_sided).moves
    points = list(rules.CROSS) + [move.dot for move in moves]
    for move in moves:
        points += move.points()
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    low_x, high_x, low_y, high_y = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    size = max(high_x - low_x, high_y - low_y) * 0.3 + 1.5
    figure, ax = plt.subplots(figsize=(size, size))
    for x in range(low_x, high_x + 1):
        ax.axvline(x, color="0.92", linewidth=0.5, zorder=0)
    for y in range(low_y, high_y + 1):
        ax.axhline(y, color="0.92", linewidth=0.5, zorder=0)
    for move in moves:
        (x0, y0), (x1, y1) = move.points()[0], move.points()[-1]
        ax.plot([x0, x1], [y0, y1], color="tab:blue", linewidth=1.2, alpha=0.7, zorder=1,
                solid_capstyle="round")
    ax.scatter([x for x, _ in rules.CROSS], [y for _, y in rules.CROSS], s=40, color="black", zorder=2)
    ax.scatter([m.dot_x for m in moves], [m.dot_y for m in moves], s=110, color="white",
               edgecolors="tab:red", linewidths=0.8, zorder=2)
    for number, move in enumerate(moves, start=1):
        ax.text(move.dot_x, move.dot_y, str(number), ha="center", va="center", fontsize=5, zorder=3)
    ax.set_xlim(low_x - 0.5, high_x + 0.5)
    ax.set_ylim(high_y + 0.5, low_y - 0.5)  # y down, as in the certificate
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(f"Morpion {rules.rules_name(variant, line_span, one_sided)}: {len(moves)} moves")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=150, bbox_inches="tight")
    plt.close(figure)
    return path


def load_game(source: str, variant: str | None) -> tuple[str, list]:
    """(variant, certificate) of a run file (.json) or a move file (.csv, .psol)."""
    path = Path(source)
    if path.suffix == ".json":
        try:
            record = json.loads(path.read_text())
            options = record["config"]["domain"]
            if options.get("name") != "morpion":
                raise InputError(f"run file {path} is a {options.get('name')} run, not a Morpion one")
            return variant or options["variant"], record["certificate"]["moves"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            if isinstance(error, InputError):
                raise
            raise InputError(f"run file {path}: not a readable run file ({error})") from None
    return variant or "5D", [list(move) for move in rules.load_moves(path)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a Morpion run file (.json) or a move file (.csv, .psol)")
    parser.add_argument("out", help="the PNG to write")
    parser.add_argument("--variant", choices=rules.VARIANTS, help="the rules (default: the run's, or 5D)")
    args = parser.parse_args(argv)
    try:
        variant, certificate = load_game(args.source, args.variant)
        print(draw_grid(variant, certificate, args.out))
    except (InputError, rules.IllegalMove) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
