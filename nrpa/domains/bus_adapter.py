"""The bus regulation problem's options and adapter (``domain=bus``; kernel: bus.py, rules:
bus_rules.py; what an adapter is: nrpa.domains.adapter)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nrpa.domains import bus, bus_rules
from nrpa.domains.adapter import Adapter, check_range, content_key


@dataclass
class BusOptions:
    """Options of ``domain=bus``: ``instance``, ``paper`` (the instance of the authors'
    bus.cpp), ``random:SEED`` (a generated instance, not the paper's) or a CSV file in the
    shipped format; ``delta``: 0 for the standard playouts (every dwell time 1..4), or the
    selective rule's threshold (only dwell 1 when the bus behind is fewer than delta stops away)."""

    name: str = "bus"
    instance: str = "paper"
    delta: int = 0
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)


class BusDomain(Adapter):
    """The bus regulation problem (bus_rules: the instance, the waiting time a schedule costs);
    its certificate, the dwell times chosen."""

    options_class = BusOptions
    certificate_format = "dwell times (minutes, 1..4) chosen at successive decision points"

    instance_option = "instance"

    def __init__(self, options: BusOptions, instance_text: str | None = None):
        check_range("delta", options.delta, 0 <= options.delta <= bus_rules.STOPS, f"0 (no rule) .. {bus_rules.STOPS}")
        super().__init__(options, instance_text)
        self.instance = bus_rules.load_instance(options.instance, self.instance_text)

    @classmethod
    def instance_source(cls, spec: str) -> tuple[str, Path] | None:
        if spec == bus_rules.PAPER_INSTANCE:
            return "shipped", bus_rules.paper_file()
        return None if spec.startswith("random:") else ("file", Path(spec).expanduser())

    def kernel_domain(self):
        i = self.instance
        return bus.make_bus(i.new_passengers, i.travel_time, i.incident, delta=self.options.delta)

    def replay_score(self, certificate) -> float:
        return bus_rules.replay(self.instance, certificate, delta=self.options.delta).score()

    def leaderboard_key(self) -> str:
        if self.instance.name == bus_rules.PAPER_INSTANCE or self.instance.name.startswith("random:"):
            return f"bus/{self.instance.name.replace(':', '_')}"
        i = self.instance
        return content_key("bus", np.stack([i.new_passengers, i.travel_time, i.incident]).tobytes())

    def describe(self) -> dict:
        return {"instance": f"bus line, {self.instance.name} instance",
                "unit": "paper unit = (total waiting minutes - 200000) / 1000 = -score; lower is better"}
