"""SameGame's options and adapter (``domain=samegame``; kernel: samegame.py, rules:
samegame_rules.py; what an adapter is: nrpa.domains.adapter)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nrpa.domains import samegame, samegame_rules
from nrpa.domains.adapter import Adapter, check_choice, check_range, content_key


@dataclass
class SameGameOptions:
    """Options of ``domain=samegame`` (not frozen: Hydra uses it as the schema to override).
    ``board``: 1..20 or a board file path; ``policy``: none, tabu or selective (the
    playout rule of Cazenave 2016); ``threshold``: t of the selective rule;
    ``zobrist_seed``: seed of the random table behind the move codes."""

    name: str = "samegame"
    board: str = "1"
    policy: str = "tabu"
    threshold: int = 0
    zobrist_seed: int = 0
    bias: str = "none"  # GNRPA: none, tabu (samegame.py) or a bias file (nrpa/bias.py)
    bias_weight: float = 1.0  # the size of the domain's bias

    # The options that choose how playouts draw moves (the playout rule, GNRPA's bias), not the
    # game: a sweep drawn beside an experiment may change them (experiments/sweep.py)
    playout_options = ('policy', 'threshold', 'zobrist_seed', 'bias', 'bias_weight')


class SameGameDomain(Adapter):
    """A SameGame board (samegame_rules.load_board: a number or a file); its certificate, the
    clicks; its own GNRPA bias, ``tabu``."""

    options_class = SameGameOptions
    biases = tuple(samegame.BIASES)
    certificate_format = "clicks [row, col], 0-based, row 0 at the top: the top-left stone of the group removed"

    instance_option = "board"

    def __init__(self, options: SameGameOptions, instance_text: str | None = None):
        check_choice("policy", options.policy, samegame.RULES)
        check_range("threshold", options.threshold, options.threshold >= 0, "it must be >= 0")
        super().__init__(options, instance_text)
        self.board = samegame_rules.load_board(options.board, self.instance_text)

    @classmethod
    def instance_source(cls, spec: str) -> tuple[str, Path] | None:
        spec = str(spec).strip()
        if not spec.isdigit():
            return "file", Path(spec).expanduser()
        number = int(spec)
        return ("shipped", samegame_rules.board_file(number)) if number in samegame_rules.STANDARD_BOARDS else None

    def kernel_domain(self):
        return samegame.make_samegame(
            self.board.rows,
            rule=self.options.policy,
            threshold=self.options.threshold,
            zobrist_seed=self.options.zobrist_seed,
            bias=self.options.bias if self.options.bias in samegame.BIASES else "none",
            bias_weight=self.options.bias_weight,
        )

    def certificate(self, kernel_moves) -> list[list[int]]:
        return [list(cell) for cell in samegame_rules.certificate(self.board.rows, kernel_moves)]

    def replay_score(self, certificate) -> float:
        return float(samegame_rules.replay(self.board.rows, [tuple(move) for move in certificate]))

    def print_certificate(self, certificate) -> str:
        return "\n".join(f"{row} {col}" for row, col in certificate)

    def leaderboard_key(self) -> str:
        """Where the best certificate of this board is kept, whatever the playout rule."""
        if self.board.name.startswith("board "):
            return f"samegame/board_{int(self.board.name.split()[1]):02d}"
        return content_key("samegame", "\n".join(" ".join(map(str, row)) for row in self.board.rows).encode())

    def describe(self) -> dict:
        """Facts a reader of a run file needs beside the options."""
        return {
            "instance": self.board.name,
            "board": self.board.name,
            "width": self.board.width,
            "height": self.board.height,
            "tabu_colour": samegame_rules.tabu_colour(self.board.rows),
            "rows": [" ".join(map(str, row)) for row in self.board.rows],
        }
