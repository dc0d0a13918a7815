"""TSPTW's options and adapter (``domain=tsptw``; kernel: tsptw.py, rules: tsptw_rules.py; what
an adapter is: nrpa.domains.adapter; its final-solution summary in the reports:
analysis.results.domain_views)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nrpa.domains import tsptw, tsptw_rules
from nrpa.domains.adapter import Adapter, check_choice, content_key


@dataclass
class TsptwOptions:
    """Options of ``domain=tsptw``: ``instance``, a shipped Potvin-Bengio instance (rc_204.1)
    or the path of a file in that format; ``policy``: the playout moves, all, pruned, late_first or harmless (tsptw.py)."""

    name: str = "tsptw"
    instance: str = "rc_204.1"
    policy: str = "all"
    bias: str = "none"  # GNRPA: none, time (tsptw.py) or a bias file (nrpa/bias.py)
    bias_weight: float = 1.0  # the size of the domain's bias

    # The options that choose how playouts draw moves (the playout rule, GNRPA's bias), not the
    # game: a sweep drawn beside an experiment may change them (experiments/sweep.py)
    playout_options = ('policy', 'bias', 'bias_weight')


class TsptwDomain(Adapter):
    """A TSPTW instance (tsptw_rules.load_instance); its certificate, the tour; its own GNRPA
    bias, ``time``."""

    options_class = TsptwOptions
    biases = tuple(tsptw.BIASES)
    certificate_format = "tour: the customers in visiting order (depot 0 at both ends omitted)"
    best_known_source = "LKH-3"  # of the tours in best_known_tours.csv (nrpa/data/tsptw/SOURCE.md)

    instance_option = "instance"

    def __init__(self, options: TsptwOptions, instance_text: str | None = None):
        check_choice("policy", options.policy, tsptw.RULES)
        super().__init__(options, instance_text)
        self.instance = tsptw_rules.load_instance(options.instance, self.instance_text)

    @classmethod
    def instance_source(cls, spec: str) -> tuple[str, Path]:
        if spec in tsptw_rules.instance_names():
            return "shipped", tsptw_rules.instance_file(spec)
        return "file", Path(spec).expanduser()

    def kernel_domain(self):
        i = self.instance
        bias = self.options.bias if self.options.bias in tsptw.BIASES else "none"
        return tsptw.make_tsptw(i.distance, i.ready, i.due, rule=self.options.policy, bias=bias,
                                bias_weight=self.options.bias_weight)

    def replay_score(self, certificate) -> float:
        return tsptw_rules.score(self.instance, certificate)

    def leaderboard_key(self) -> str:
        if self.instance.name in tsptw_rules.instance_names():
            return f"tsptw/{self.instance.name}"
        return content_key("tsptw", repr((self.instance.distance, self.instance.ready, self.instance.due)).encode())

    def describe(self) -> dict:
        known = tsptw_rules.best_known().get(self.instance.name)
        return {"instance": self.instance.name, "nodes": self.instance.nodes,
                "best_known_cost": known[0] if known else None}
