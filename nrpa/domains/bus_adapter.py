"""The bus regulation problem's options and adapter (``domain=bus``; kernel: bus.py, rules:
bus_rules.py; what an adapter is: nrpa.domains.adapter)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nrpa.domains import bus, bus_rules
from nrpa.domains.adapter import Adapter, check_choice, check_range, content_key


@dataclass
class BusOptions:
    """Options of ``domain=bus``: ``instance``, ``paper`` (the instance of the authors'
    bus.cpp), ``random:SEED`` (a generated instance, not the paper's) or a CSV file in the
    shipped format; ``model``: ``paper`` (the Selective paper's words: waits 1..5 minutes, one
    decision per arrival, coded by stop, arrival minute and wait) or ``bus_cpp`` (the authors'
    bus.cpp: waits 1..4, a dwelling bus asked again every minute, coded by minute, bus and
    wait); ``delta``: 0 for the standard playouts (every waiting time), or the selective
    rule's threshold (only 1 minute when the bus behind is fewer than delta stops away)."""

    name: str = "bus"
    instance: str = "paper"
    delta: int = 0
    model: str = "paper"
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)

    # The options that choose how playouts draw moves (the playout rule, GNRPA's bias), not the
    # game: a sweep drawn beside an experiment may change them (experiments/sweep.py)
    playout_options = ('delta', 'bias')

    # Every bus run made before ``model`` existed is of bus.cpp's model: its identity (and a
    # record's options, nrpa.domains.registry.replay_domain) has no ``model``, so a bus_cpp
    # run keeps that identity and a paper run gets another (experiments.runs.domain_identity).
    identity_defaults = {"model": "bus_cpp"}


class BusDomain(Adapter):
    """The bus regulation problem (bus_rules: the instance, the waiting time a schedule costs);
    its certificate, the waiting times chosen."""

    options_class = BusOptions
    instance_option = "instance"

    def __init__(self, options: BusOptions, instance_text: str | None = None):
        check_choice("model", options.model, tuple(bus_rules.MODELS))
        check_range("delta", options.delta, 0 <= options.delta <= bus_rules.STOPS, f"0 (no rule) .. {bus_rules.STOPS}")
        super().__init__(options, instance_text)
        self.instance = bus_rules.load_instance(options.instance, self.instance_text)

    @property
    def certificate_format(self) -> str:
        waits = bus_rules.MODELS[self.options.model]
        return (f"waiting times (minutes, {waits[0]}..{waits[-1]}, model {self.options.model}) chosen at "
                "successive decision points")

    @classmethod
    def instance_source(cls, spec: str) -> tuple[str, Path] | None:
        if spec == bus_rules.PAPER_INSTANCE:
            return "shipped", bus_rules.paper_file()
        return None if spec.startswith("random:") else ("file", Path(spec).expanduser())

    def kernel_domain(self):
        i = self.instance
        return bus.make_bus(i.new_passengers, i.travel_time, i.incident, delta=self.options.delta,
                            model=self.options.model)

    def replay_score(self, certificate) -> float:
        return bus_rules.replay(self.instance, certificate, delta=self.options.delta,
                                model=self.options.model).score()

    def leaderboard_key(self) -> str:
        """The instance's key; the paper model's keys are apart (``bus/paper_model_...``): its
        certificates are not games of bus.cpp's model, nor the other way round."""
        i = self.instance
        if i.name == bus_rules.PAPER_INSTANCE or i.name.startswith("random:"):
            key = f"bus/{i.name.replace(':', '_')}"
        else:
            key = content_key("bus", np.stack([i.new_passengers, i.travel_time, i.incident]).tobytes())
        return key.replace("bus/", "bus/paper_model_", 1) if self.options.model == "paper" else key

    def describe(self) -> dict:
        waits = bus_rules.MODELS[self.options.model]
        model = {"paper": "the Selective paper's: one decision per arrival, coded by (stop, arrival minute, wait)",
                 "bus_cpp": "the authors' bus.cpp: a dwelling bus asked again every minute, coded by "
                            "(minute, bus, wait)"}[self.options.model]
        return {"instance": f"bus line, {self.instance.name} instance",
                "model": f"{self.options.model}: waits {waits[0]}..{waits[-1]} minutes, {model}",
                "unit": "paper unit = (total waiting minutes - 200000) / 1000 = -score; lower is better"}
