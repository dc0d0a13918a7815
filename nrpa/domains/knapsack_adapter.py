"""The knapsack example domain's options and adapter (``domain=knapsack``; kernel: knapsack.py,
rules: knapsack_rules.py; what an adapter is: nrpa.domains.adapter). The smallest adapter: a
model for a new domain (README, "Add a domain")."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nrpa.domains import knapsack, knapsack_rules
from nrpa.domains.adapter import Adapter


@dataclass
class KnapsackOptions:
    """Options of ``domain=knapsack`` (the example domain, nrpa/data/knapsack/SOURCE.md):
    ``instance``, a shipped instance's name or the path of an instance file."""

    name: str = "knapsack"
    instance: str = "p07"
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)


class KnapsackDomain(Adapter):
    """A 0/1 knapsack instance (knapsack_rules.load_instance); its certificate, the items put in."""

    options_class = KnapsackOptions
    certificate_format = "item indices (0-based, in the instance file's order) in the order put in"

    instance_option = "instance"

    def __init__(self, options: KnapsackOptions, instance_text: str | None = None):
        super().__init__(options, instance_text)
        self.instance = knapsack_rules.load_instance(options.instance, self.instance_text)

    @classmethod
    def instance_source(cls, spec: str) -> tuple[str, Path]:
        shipped = knapsack_rules.shipped_file(spec)
        return ("shipped", shipped) if shipped else ("file", Path(spec))

    def kernel_domain(self):
        return knapsack.make_knapsack(self.instance.capacity, self.instance.weights, self.instance.values)

    def replay_score(self, certificate) -> float:
        return float(knapsack_rules.replay(self.instance, certificate))

    def leaderboard_key(self) -> str:
        return f"knapsack/{self.instance.name}"

    def describe(self) -> dict:
        return {"instance": f"knapsack {self.instance.name}", "items": len(self.instance.weights),
                "capacity": self.instance.capacity, "optimum": knapsack_rules.optimum(self.instance)}
