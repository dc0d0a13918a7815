"""Morpion Solitaire's options and adapter (``domain=morpion``; kernel: morpion.py, rules:
morpion_rules.py; what an adapter is: nrpa.domains.adapter; its grid drawing in the reports:
analysis.results.domain_views)."""

from __future__ import annotations

from dataclasses import dataclass

from nrpa.domains import morpion, morpion_rules
from nrpa.domains.adapter import Adapter, check_choice
from nrpa.errors import InputError


@dataclass
class MorpionOptions:
    """Options of ``domain=morpion``: ``variant`` 5D (lines of one direction share no point)
    or 5T (they may share an end point, not a unit segment). The start is the Greek cross
    (rules and record games: nrpa/data/morpion/SOURCE.md); the score is the moves played.
    ``line_span``: 5, the standard rules (default), or 6, a rule variant of 5D only, our
    reading of the Morpion paper's planes ("a segment between the place i, j and the place
    i + 5, j"): a line blocks the 6 points from its start to one past its end in its direction,
    so two lines of one direction may not lie end to end (nrpa/domains/morpion.py).
    ``one_sided`` (with line_span 6): half of it, a new line may not end one step before a line
    of its direction starts but may start one step past one's end: a reading of the paper's
    published Table 2, against its stated 5D rule (docs/readings.md). ``code``: a move's policy
    code, ``move`` (the line and its new dot, Rosin's; default) or ``line`` (the line alone, start
    and direction, as the paper's network outputs moves: a candidate for its NRPA)."""

    name: str = "morpion"
    variant: str = "5D"
    line_span: int = 5
    one_sided: bool = False
    code: str = "move"  # a move's policy code: move (the line and the dot) or line (the line alone)
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)
    # Options left out of a run's identity at these values, so that the runs made before the
    # option existed keep theirs (experiments.runs.domain_identity).
    identity_defaults = {"line_span": 5, "one_sided": False, "code": "move"}


class MorpionDomain(Adapter):
    """Morpion Solitaire from the Greek cross (morpion_rules); its certificate, the moves."""

    options_class = MorpionOptions
    certificate_format = (
        "moves in order, each [dot_x, dot_y, dir_dx, dir_dy, start_x, start_y]: the new dot and the line "
        "start + i * dir (i = 0..4), dir one of (1,0) (1,1) (0,1) (-1,1); origin at the cross's top-left "
        "inner corner, x right, y down (printed as CSV with a ply column)"
    )

    def __init__(self, options: MorpionOptions):
        check_choice("variant", options.variant, morpion.RULES)
        check_choice("code", options.code, morpion.CODES)
        if options.line_span not in morpion.LINE_SPANS:
            raise InputError(f"domain.line_span={options.line_span!r} is not valid: choose 5 (the standard "
                             "rules) or 6 (the 5D variant whose lines block 6 points)")
        if options.line_span != 5 and options.variant != "5D":
            raise InputError(f"domain.line_span={options.line_span} is a variant of 5D only: with "
                             f"domain.variant={options.variant} it would give the rules of 5D; leave it at 5")
        if not isinstance(options.one_sided, bool):
            raise InputError(f"domain.one_sided={options.one_sided!r} is not valid: true or false")
        if options.one_sided and options.line_span != 6:
            raise InputError("domain.one_sided=true is a form of line_span 6: add domain.line_span=6")
        super().__init__(options)
        self._kernel = None

    def kernel_domain(self):
        if self._kernel is None:
            self._kernel = morpion.make_morpion(self.options.variant, self.options.line_span,
                                                self.options.one_sided, self.options.code)
        return self._kernel

    def certificate(self, kernel_moves) -> list[list[int]]:
        kernel = self.kernel_domain()
        return [morpion.decode_move(kernel, move) for move in kernel_moves]

    def replay_score(self, certificate) -> float:
        return float(morpion_rules.replay(self.options.variant, certificate, self.options.line_span,
                                                self.options.one_sided))

    def print_certificate(self, certificate) -> str:
        return morpion_rules.format_moves(certificate)

    def leaderboard_key(self) -> str:
        span = "" if self.options.line_span == 5 else f"_span{self.options.line_span}"
        span += "_one_sided" if self.options.one_sided else ""
        return f"morpion/{self.options.variant}{span}"

    def describe(self) -> dict:
        if self.options.line_span == 5:
            return {"instance": f"Morpion {self.options.variant}", "variant": self.options.variant}
        rules = morpion_rules.rules_name(self.options.variant, self.options.line_span, self.options.one_sided)
        return {"instance": f"Morpion {rules}", "variant": self.options.variant,
                "line_span": self.options.line_span, **({"one_sided": True} if self.options.one_sided else {})}
