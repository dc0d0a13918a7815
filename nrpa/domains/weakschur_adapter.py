"""Weak Schur numbers' options and adapter (``domain=weakschur``; kernel: weakschur.py, rules:
weakschur_rules.py; what an adapter is: nrpa.domains.adapter)."""

from __future__ import annotations

from dataclasses import dataclass

from nrpa.domains import weakschur, weakschur_rules
from nrpa.domains.adapter import Adapter, check_choice, check_range


@dataclass
class WeakSchurOptions:
    """Options of ``domain=weakschur``: ``parts`` K; ``policy``: standard or rule (Cazenave
    2016); ``max_number``: cap on the numbers placed (0: a default above every known WS(K))."""

    name: str = "weakschur"
    parts: int = 6
    policy: str = "standard"
    max_number: int = 0
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)

    # The options that choose how playouts draw moves (the playout rule, GNRPA's bias), not the
    # game: a sweep drawn beside an experiment may change them (experiments/sweep.py)
    playout_options = ('policy', 'bias')


class WeakSchurDomain(Adapter):
    """A partition of 1..n into K weakly sum-free parts, n the score (weakschur_rules); its
    certificate, the parts."""

    options_class = WeakSchurOptions
    certificate_format = "partition: one list of numbers per part (printed one part a line)"

    def __init__(self, options: WeakSchurOptions):
        check_range("parts", options.parts, 1 <= options.parts <= 12, "K must be 1..12")
        check_choice("policy", options.policy, weakschur.RULES)
        check_range("max_number", options.max_number, options.max_number >= 0, "it must be >= 0 (0: the default cap)")
        super().__init__(options)

    def kernel_domain(self):
        return weakschur.make_weakschur(self.options.parts, rule=self.options.policy,
                                        max_number=self.options.max_number or None)

    def certificate(self, kernel_moves) -> list[list[int]]:
        return weakschur_rules.partition_from_moves(self.options.parts, kernel_moves)

    def replay_score(self, certificate) -> float:
        if len(certificate) != self.options.parts:
            raise weakschur_rules.InvalidPartition(
                f"{len(certificate)} parts where the run had K = {self.options.parts}")
        return float(weakschur_rules.check_partition(certificate))

    def print_certificate(self, certificate) -> str:
        return weakschur_rules.format_partition(certificate)

    def leaderboard_key(self) -> str:
        return f"weakschur/K{self.options.parts}"

    def describe(self) -> dict:
        return {"instance": f"WS({self.options.parts})", "parts": self.options.parts,
                "max_number": int(self.kernel_domain().max_length)}
