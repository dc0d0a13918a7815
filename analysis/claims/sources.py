"""What a claim is read on: one experiment's runs at one scale, read once (Source), or a step of
the neural pipeline's stored results with the runs of NEURAL_BASELINE beside them (NeuralSource);
and why the runs may not judge a claim (NotJudged, and its kinds Untestable and Refused), which
the reports turn into a row without a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis.claims import verdicts
from analysis.claims.files import MAKE_TARGETS, NEURAL, NEURAL_BASELINE, Claim, neural_columns
from analysis.results.report import FIRST_PLAYOUTS, FIRST_TIME, Runs
from analysis.stats import best_at, doubling_checkpoints
from experiments.experiment import Experiment
from experiments.published import load_reference
from experiments.root_parallel import axis_trace
from experiments.runs import game_scores
from nrpa.errors import InputError


class NotJudged(Exception):
    """The runs cannot judge a claim (too short, too few): the report says why."""


class Untestable(NotJudged):
    """No run can test the claim (its paper's evidence is one run per row): the row compares
    what the runs say, without a verdict (why: UNTESTABLE)."""


class Refused(NotJudged):
    """The runs are of another basis than the claim's (check_basis): more of them would not judge it."""


@dataclass
class Source:
    """One experiment at one scale, its runs read once."""

    experiment: Experiment
    runs: Runs = field(repr=False)

    @property
    def time_axis(self) -> str:
        clocks = {v.job.settings.clock for v in self.experiment.variants}
        return "wall_seconds" if clocks == {"wall"} else "cpu_seconds"

    @property
    def reference(self) -> pd.DataFrame | None:
        return load_reference(self.experiment.reference) if self.experiment.reference else None

    def boards(self) -> list[int]:
        """The boards of a 20-board table's columns, in order."""
        return sorted({int(v.job.domain_options.board) for v in self.experiment.variants})

    def labels(self) -> set[str]:
        return set(self.runs.records) | {v.label for v in self.experiment.variants}

    def last(self, axis: str, labels) -> float:
        """The last checkpoint every run of ``labels`` reaches on ``axis``: their time budget, or
        what the runs recorded where they have none (runs budgeted in playouts)."""
        budgets = [v.job.settings.max_time for v in self.experiment.variants if v.label in labels]
        if axis == "playouts" or None in budgets:
            return min(r["result"][axis] for label in labels for r in self.runs.records[label])
        return min(budgets)

    def published_times(self, axis: str, last: float) -> np.ndarray:
        """The published table's times; without one, every doubling up to ``last`` and
        ``last`` itself where it falls between two, so that a claim "at the end" reads the
        runs' end (Figure 3's complete executions end at playout counts between doublings)."""
        reference = self.reference
        if axis != "playouts" and reference is not None and "time" in reference.columns:
            return reference["time"].to_numpy(dtype=float)
        doublings = doubling_checkpoints(FIRST_PLAYOUTS if axis == "playouts" else FIRST_TIME, last)
        return doublings if doublings.size and doublings[-1] >= last * (1 - 1e-9) else np.append(doublings, last)

    def at(self, label: str, axis: str, t: float) -> np.ndarray:
        """Each run's best at ``t`` on ``axis`` (the kernel's unit; NaN: no solution yet)."""
        return np.array([best_at(*axis_trace(r, axis), [t])[0] for r in self.runs.records[label]])

    def finals(self, label: str) -> np.ndarray:
        """The final scores of ``label``'s runs: one per game (a run of several games holds
        them all: experiments.runs.game_scores)."""
        return np.array([score for r in self.runs.records[label] for score in game_scores(r)], dtype=float)

    def published_rate(self):
        """The experiment's published runs' rate R when its claims can be judged at matched
        work (a published CPU-time table), else None."""
        if self.experiment.kind != "checkpoints" or self.time_axis != "cpu_seconds":
            return None
        return self.experiment.published_rate


class NeuralSource:
    """A step of the neural pipeline at one scale, read from what it stored, with the runs of
    NEURAL_BASELINE beside it (``baseline``: a Source, or decide's PrefixSource). Both claims
    reports judge a claim on it: ``evidence`` (fixed n, analysis/claims/verdicts.py) and the campaign's
    contrasts (analysis/claims/decide.py) from ``pairs``, on the values of ``columns``.

    The evidence of each step, and its test:
      table1  the networks' correctness on the same held-out positions: paired, game by game (a
              game's positions are alike, so positions are not independent units; games are).
              A network's value for a game is its correct positions there over the mean positions
              per held-out game, so that the values' mean is its accuracy and the mean of two
              networks' differences the difference of their accuracies: verdicts.compare(paired).
      table2, table3  independent games (and NEURAL_BASELINE's runs): Welch's t on the scores.
      table4  one Expert Iteration run per row, in the paper as here: no test; not judged."""

    def __init__(self, name: str, baseline: Source, scale: str):
        from experiments.neural import results_path
        from experiments.run_file import DamagedFile, read_json

        self.name, self.step, self.baseline, self.scale = name, NEURAL[name], baseline, scale
        self.own = neural_columns(name)
        self.path = results_path(baseline.experiment.store.root, scale, self.step)
        try:
            self.results = read_json(self.path, "neural results") if self.path.is_file() else None
        except DamagedFile as damage:
            raise InputError(f"{self.path} is damaged ({damage}): delete it and run "
                             f"`make {MAKE_TARGETS[self.step]} SCALE={scale}` again") from None
        self.make = f"`make {MAKE_TARGETS[self.step]} SCALE={scale}`"

    def settings(self) -> dict:
        """The settings the stored results were made with; before they are made, the scale's
        (conf/neural_morpion.yaml) so far as they say."""
        if self.results is not None:
            return self.results["settings"]
        from experiments.neural import scale_settings

        planned = scale_settings(self.scale)
        return {"epochs": planned["train"]["epochs"], "keep": planned["data"]["keep"],
                "minutes": planned["exit"]["minutes"]}

    def columns(self, claim: Claim) -> dict[str, np.ndarray]:
        """The values of each column ``claim`` reads (see the class); NotJudged where the
        results or the baseline's runs are not made yet."""
        if self.results is None:
            raise NotJudged(f"the neural pipeline's {self.step} is not made at {self.scale} scale: {self.make} "
                            f"makes it ({self.path.name})")
        values = {}
        for label in sorted(claim.variants()):
            if label not in self.own:
                finals = self.baseline.finals(label) if self.baseline.runs.records.get(label) else np.zeros(0)
                if finals.size < 2:
                    raise NotJudged(f"{label} has {finals.size} runs of {NEURAL_BASELINE} at {self.scale} scale: "
                                    f"`make {NEURAL_BASELINE.replace('_', '-')} SCALE={self.scale}` makes them")
                values[label] = finals
            elif self.step == "table1":
                held = self.results["held_out"]
                counts = np.array(held["positions"])
                if not counts.size:
                    raise NotJudged(f"no held-out position in {self.path.name}: the game set is too small")
                hits = np.array([c == "1" for c in self.results["columns"][label]], dtype=float)
                # the positions come game by game, counts[i] of them for the i-th held-out game
                values[label] = np.add.reduceat(hits, np.cumsum(counts) - counts) / counts.mean()
            else:
                values[label] = np.asarray(self.results["columns"][label], dtype=float)
        return values

    def where(self) -> str:
        if self.step == "table1":
            held = self.results["held_out"]
            return f"{sum(held['positions'])} held-out positions of {len(held['games'])} games (accuracy in points)"
        return "final scores"

    @property
    def unit(self) -> float:
        """Table 1's accuracies are shares here and percentages in the paper: 100 makes the
        effect percentage points; scores are moves in both."""
        return 100.0 if self.step == "table1" else 1.0

    def pairs(self, claim: Claim) -> tuple[list, str]:
        """The claim's (name, a, b) comparisons on this step's values, and where they are read;
        the fixed-n report tests them (``evidence``), the campaign makes them contrasts
        (analysis/claims/decide.py)."""
        if self.step == "table4":  # one run per row: nothing to test, what the runs say is shown
            ours = ("; ours: " + ", ".join(f"{label} {values[0]:g}" for label, values in
                                           sorted(self.columns(claim).items()))
                    if self.results is not None else f"; not made at {self.scale} scale: {self.make} makes it")
            raise Untestable("one run per row (Table 4: one Expert Iteration run per approach, in the paper as here): "
                            "no test tells a difference from one run's luck" + ours)
        values = self.columns(claim)
        unit = "held-out game" if self.step == "table1" else "game"
        few = sorted(f"{label} has {v.size} {unit}{'s' if v.size != 1 else ''}" for label, v in values.items()
                     if v.size < 2)
        if few:
            raise NotJudged(f"{', '.join(few)}: a test needs 2 or more")
        return [(f"{a} vs {b}", values[a], values[b]) for a, b in claim.pairs], self.where()

    def evidence(self, claim: Claim) -> tuple[verdicts.Evidence, str]:
        """The fixed-n report's evidence (analysis/claims/verdicts.py) and where it was judged."""
        pairs, where = self.pairs(claim)
        return verdicts.compare(pairs, unit_scale=self.unit, paired=self.step == "table1"), where


def with_neural_sources(claims: list[Claim], sources: dict, scale: str) -> dict:
    """``sources`` (one per experiment, NEURAL_BASELINE's among them when a claim reads the
    neural pipeline) with a NeuralSource for each neural step the claims read."""
    neural = dict.fromkeys(claim.experiment for claim in claims if claim.experiment in NEURAL)
    return {**sources, **{name: NeuralSource(name, sources[NEURAL_BASELINE], scale) for name in neural}}
