"""The Maximum problem's options and adapter (``domain=maximum``; kernel: maximum.py, rules:
maximum_rules.py; what an adapter is: nrpa.domains.adapter)."""

from __future__ import annotations

from dataclasses import dataclass

from nrpa.domains import maximum, maximum_rules
from nrpa.domains.adapter import Adapter, check_range


@dataclass
class MaximumOptions:
    """Options of ``domain=maximum``: ``max_atoms`` L, the limit on the expression's atoms
    (199 in the authors' maximum.cpp)."""

    name: str = "maximum"
    max_atoms: int = 199
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)


class MaximumDomain(Adapter):
    """An expression of at most L atoms (maximum_rules); its certificate, the atoms."""

    options_class = MaximumOptions
    certificate_format = "prefix expression: atoms +, *, 1 in order"

    def __init__(self, options: MaximumOptions):
        check_range("max_atoms", options.max_atoms, 1 <= options.max_atoms <= 100_000, "L must be 1..100000")
        super().__init__(options)

    def kernel_domain(self):
        return maximum.make_maximum(self.options.max_atoms)

    def certificate(self, kernel_moves) -> list[str]:
        return [maximum.ATOMS[int(atom)] for atom in kernel_moves]

    def replay_score(self, certificate) -> float:
        maximum_rules.check(certificate, self.options.max_atoms)  # complete, within the limit
        return float(maximum_rules.value(maximum_rules.parse(certificate), float))

    def leaderboard_key(self) -> str:
        return f"maximum/L{self.options.max_atoms}"

    def describe(self) -> dict:
        return {"instance": f"Maximum, L = {self.options.max_atoms}",
                "optimum": maximum_rules.optimum(self.options.max_atoms)}
