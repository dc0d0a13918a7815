"""The Maximum problem's options and adapter (``domain=maximum``; kernel: maximum.py, rules:
maximum_rules.py; what an adapter is: nrpa.domains.adapter)."""

from __future__ import annotations

from dataclasses import dataclass

from nrpa.domains import maximum, maximum_rules
from nrpa.domains.adapter import Adapter, check_choice, check_range


@dataclass
class MaximumOptions:
    """Options of ``domain=maximum``: ``max_atoms`` L, the limit on the expression's atoms
    (199 in the authors' maximum.cpp); ``precision``: the score's arithmetic, float64 (the exact
    value for L <= 199) or float32 (the authors' maximum.cpp evaluates in C float: each + and *
    rounded to single precision, so that values above 2**24 lose their last units and expressions
    that differ there tie)."""

    name: str = "maximum"
    max_atoms: int = 199
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)
    precision: str = "float64"

    # Every Maximum run made before ``precision`` existed is a float64 run: its identity (and a
    # record's options, nrpa.domains.registry.replay_domain) has no ``precision``
    identity_defaults = {"precision": "float64"}


class MaximumDomain(Adapter):
    """An expression of at most L atoms (maximum_rules); its certificate, the atoms."""

    options_class = MaximumOptions
    certificate_format = "prefix expression: atoms +, *, 1 in order"

    def __init__(self, options: MaximumOptions):
        check_range("max_atoms", options.max_atoms, 1 <= options.max_atoms <= 100_000, "L must be 1..100000")
        check_choice("precision", options.precision, maximum_rules.PRECISIONS)
        super().__init__(options)

    def kernel_domain(self):
        return maximum.make_maximum(self.options.max_atoms, self.options.precision)

    def certificate(self, kernel_moves) -> list[str]:
        return [maximum.ATOMS[int(atom)] for atom in kernel_moves]

    def replay_score(self, certificate) -> float:
        maximum_rules.check(certificate, self.options.max_atoms)  # complete, within the limit
        number = maximum_rules.PRECISIONS[self.options.precision]
        return float(maximum_rules.value(maximum_rules.parse(certificate), number))

    def leaderboard_key(self) -> str:
        """float32 runs are apart: an expression's score there is its value rounded op by op."""
        key = f"maximum/L{self.options.max_atoms}"
        return key if self.options.precision == "float64" else f"{key}/{self.options.precision}"

    def describe(self) -> dict:
        return {"instance": f"Maximum, L = {self.options.max_atoms}", "precision": self.options.precision,
                "optimum": maximum_rules.optimum(self.options.max_atoms)}
