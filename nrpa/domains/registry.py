"""The domains the harness knows, by the name users type (``domain=samegame``).

Each entry is a Python-side adapter: it validates the domain's options, builds the value
the numba kernels take, and turns a kernel sequence into a printable certificate, which it
can also replay with the domain's plain-Python rules to verify a score. An adapter has:

* ``options_class``: a (non-frozen) dataclass with a ``name`` field, also the Hydra schema
  of ``conf/domain/<name>.yaml``; the constructor takes an instance and raises InputError
  naming the bad option, file or line before any work;
* ``kernel_domain()``: the NamedTuple the kernels take (``nrpa.domains.contract``);
* ``certificate(kernel_moves)``: a JSON-able certificate; ``certificate_format``: its words;
* ``replay_score(certificate)``: its score by the plain-Python rules (raises if illegal);
* ``print_certificate(certificate)``: the text a person reads;
* ``leaderboard_key()``: the instance, whatever the playout rule; ``describe()``: facts for
  the run file, with ``instance`` naming the problem instance;
* optionally ``biases``: the names of its own GNRPA biases (its kernel module's ``BIASES``).
  Every options class has ``bias`` (none, one of those, or a bias file: ``nrpa.bias``);
  ``make_domain`` sets the adapter's ``kernel_bias`` from it;
* optionally ``final_summary(record)``: more about a run's final solution (TSPTW's gap);
  ``final_summary_table(rows)``: those rows (a DataFrame, with ``variant`` and ``repeat``)
  summed up per variant, with the caption's note; ``draw_solution(certificate, path)``: a
  picture of a certificate (Morpion's grid). The report asks for them with getattr.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass

import numpy as np

from nrpa.domains import (
    bus, bus_rules, knapsack, knapsack_rules, maximum, maximum_rules, morpion, morpion_rules, samegame,
    samegame_rules, tsptw, tsptw_rules, weakschur, weakschur_rules,
)
from nrpa.bias import kernel_bias
from nrpa.errors import InputError


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


class SameGameDomain:
    options_class = SameGameOptions
    biases = samegame.BIASES
    certificate_format = "clicks [row, col], 0-based, row 0 at the top: the top-left stone of the group removed"

    def __init__(self, options: SameGameOptions):
        if options.policy not in samegame.RULES:
            raise InputError(
                f"domain.policy={options.policy!r} is not valid: choose one of "
                f"{', '.join(samegame.RULES)}"
            )
        if options.threshold < 0:
            raise InputError(f"domain.threshold={options.threshold} is out of range: it must be >= 0")
        self.options = options
        self.board = samegame_rules.load_board(options.board)

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
        text = "\n".join(" ".join(map(str, row)) for row in self.board.rows)
        return f"samegame/file_{hashlib.sha256(text.encode()).hexdigest()[:12]}"

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


@dataclass
class WeakSchurOptions:
    """Options of ``domain=weakschur``: ``parts`` K; ``policy``: standard or rule (Cazenave
    2016); ``max_number``: cap on the numbers placed (0: a default above every known WS(K))."""

    name: str = "weakschur"
    parts: int = 6
    policy: str = "standard"
    max_number: int = 0
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)


class WeakSchurDomain:
    options_class = WeakSchurOptions
    certificate_format = "partition: one list of numbers per part (printed one part a line)"

    def __init__(self, options: WeakSchurOptions):
        if not 1 <= options.parts <= 12:
            raise InputError(f"domain.parts={options.parts} is out of range: K must be 1..12")
        if options.policy not in weakschur.RULES:
            raise InputError(f"domain.policy={options.policy!r} is not valid: choose one of "
                             f"{', '.join(weakschur.RULES)}")
        if options.max_number < 0:
            raise InputError(f"domain.max_number={options.max_number} is out of range: it must be "
                             ">= 0 (0: the default cap)")
        self.options = options

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
                "max_number": int(self.kernel_domain().max_number)}


@dataclass
class MaximumOptions:
    """Options of ``domain=maximum``: ``max_atoms`` L, the limit on the expression's atoms
    (199 in the authors' maximum.cpp)."""

    name: str = "maximum"
    max_atoms: int = 199
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)


class MaximumDomain:
    options_class = MaximumOptions
    certificate_format = "prefix expression: atoms +, *, 1 in order"

    def __init__(self, options: MaximumOptions):
        if not 1 <= options.max_atoms <= 100_000:
            raise InputError(f"domain.max_atoms={options.max_atoms} is out of range: L must be 1..100000")
        self.options = options

    def kernel_domain(self):
        return maximum.make_maximum(self.options.max_atoms)

    def certificate(self, kernel_moves) -> list[str]:
        return [maximum.ATOMS[int(atom)] for atom in kernel_moves]

    def replay_score(self, certificate) -> float:
        maximum_rules.check(certificate, self.options.max_atoms)  # complete, within the limit
        return float(maximum_rules.value(maximum_rules.parse(certificate), float))

    def print_certificate(self, certificate) -> str:
        return " ".join(certificate)

    def leaderboard_key(self) -> str:
        return f"maximum/L{self.options.max_atoms}"

    def describe(self) -> dict:
        return {"instance": f"Maximum, L = {self.options.max_atoms}",
                "optimum": maximum_rules.optimum(self.options.max_atoms)}


@dataclass
class TsptwOptions:
    """Options of ``domain=tsptw``: ``instance``, a shipped Potvin-Bengio instance (rc_204.1)
    or the path of a file in that format; ``policy``: all or pruned playout moves."""

    name: str = "tsptw"
    instance: str = "rc_204.1"
    policy: str = "all"
    bias: str = "none"  # GNRPA: none, time (tsptw.py) or a bias file (nrpa/bias.py)
    bias_weight: float = 1.0  # the size of the domain's bias


class TsptwDomain:
    options_class = TsptwOptions
    biases = tsptw.BIASES
    certificate_format = "tour: the customers in visiting order (depot 0 at both ends omitted)"
    best_known_source = "LKH-3"  # of the tours in best_known_tours.csv (nrpa/data/tsptw/SOURCE.md)

    def __init__(self, options: TsptwOptions):
        if options.policy not in tsptw.RULES:
            raise InputError(f"domain.policy={options.policy!r} is not valid: choose one of "
                             f"{', '.join(tsptw.RULES)}")
        self.options = options
        self.instance = tsptw_rules.load_instance(options.instance)

    def kernel_domain(self):
        i = self.instance
        bias = self.options.bias if self.options.bias in tsptw.BIASES else "none"
        return tsptw.make_tsptw(i.distance, i.ready, i.due, rule=self.options.policy, bias=bias,
                                bias_weight=self.options.bias_weight)

    def certificate(self, kernel_moves) -> list[int]:
        return [int(customer) for customer in kernel_moves]

    def replay_score(self, certificate) -> float:
        return tsptw_rules.score(self.instance, certificate)

    def print_certificate(self, certificate) -> str:
        return " ".join(map(str, certificate))

    def leaderboard_key(self) -> str:
        if self.instance.name in tsptw_rules.instance_names():
            return f"tsptw/{self.instance.name}"
        text = repr((self.instance.distance, self.instance.ready, self.instance.due))
        return f"tsptw/file_{hashlib.sha256(text.encode()).hexdigest()[:12]}"

    def describe(self) -> dict:
        known = tsptw_rules.best_known().get(self.instance.name)
        return {"instance": self.instance.name, "nodes": self.instance.nodes,
                "best_known_cost": known[0] if known else None}

    def final_summary(self, record: dict) -> dict:
        """Violations, cost and gap to the best-known cost of a run's best tour."""
        cost, violations = tsptw_rules.evaluate(self.instance, record["certificate"]["moves"])
        known = record["domain_info"].get("best_known_cost")
        return {"violations": violations, "cost": cost,
                "gap_percent": 100 * (cost - known) / known if known and violations == 0 else None}

    def final_summary_table(self, rows):
        """Per variant, from the ``final_summary`` rows: runs, feasible runs, mean violations,
        best feasible cost and mean gap; and the caption's note on the best-known cost."""
        summary = rows.groupby("variant", sort=False).agg(
            runs=("repeat", "size"),
            feasible=("violations", lambda v: int((v == 0).sum())),
            mean_violations=("violations", "mean"),
            best_feasible_cost=("cost", lambda c: c[rows.loc[c.index, "violations"] == 0].min()),
            mean_gap_percent=("gap_percent", "mean"),
        )
        known = self.describe()["best_known_cost"]
        if known is None:
            return summary, f"No best-known cost for {self.instance.name}: no gap."
        return summary, (f"Best-known cost {known:g} ({self.best_known_source}); gap = (cost - best known) "
                         "/ best known, over the runs whose tour has no violation.")


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


class BusDomain:
    options_class = BusOptions
    certificate_format = "dwell times (minutes, 1..4) chosen at successive decision points"

    def __init__(self, options: BusOptions):
        if not 0 <= options.delta <= bus_rules.STOPS:
            raise InputError(f"domain.delta={options.delta} is out of range: 0 (no rule) .. {bus_rules.STOPS}")
        self.options = options
        self.instance = bus_rules.load_instance(options.instance)

    def kernel_domain(self):
        i = self.instance
        return bus.make_bus(i.new_passengers, i.travel_time, i.incident, delta=self.options.delta)

    def certificate(self, kernel_moves) -> list[int]:
        return [int(dwell) for dwell in kernel_moves]

    def replay_score(self, certificate) -> float:
        return bus_rules.replay(self.instance, certificate, delta=self.options.delta).score()

    def print_certificate(self, certificate) -> str:
        return " ".join(map(str, certificate))

    def leaderboard_key(self) -> str:
        if self.instance.name == bus_rules.PAPER_INSTANCE or self.instance.name.startswith("random:"):
            return f"bus/{self.instance.name.replace(':', '_')}"
        tables = np.stack([self.instance.new_passengers, self.instance.travel_time, self.instance.incident])
        return f"bus/file_{hashlib.sha256(tables.tobytes()).hexdigest()[:12]}"

    def describe(self) -> dict:
        return {"instance": f"bus line, {self.instance.name} instance",
                "unit": "paper unit = (total waiting minutes - 200000) / 1000 = -score; lower is better"}


@dataclass
class MorpionOptions:
    """Options of ``domain=morpion``: ``variant`` 5D (lines of one direction share no point)
    or 5T (they may share an end point, not a unit segment). The start is the Greek cross
    (rules and record games: nrpa/data/morpion/SOURCE.md); the score is the moves played.
    ``line_span``: 5, the standard rules (default), or 6, a rule variant of 5D only, our
    reading of the Morpion paper's planes ("a segment between the place i, j and the place
    i + 5, j"): a line blocks the 6 points from its start to one past its end in its direction,
    so two lines of one direction may not lie end to end (nrpa/domains/morpion.py)."""

    name: str = "morpion"
    variant: str = "5D"
    line_span: int = 5
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)
    # Options left out of a run's identity at these values, so that the runs made before the
    # option existed keep theirs (experiments.runs.domain_identity).
    identity_defaults = {"line_span": 5}


class MorpionDomain:
    options_class = MorpionOptions
    certificate_format = (
        "moves in order, each [dot_x, dot_y, dir_dx, dir_dy, start_x, start_y]: the new dot and the line "
        "start + i * dir (i = 0..4), dir one of (1,0) (1,1) (0,1) (-1,1); origin at the cross's top-left "
        "inner corner, x right, y down (printed as CSV with a ply column)"
    )

    def __init__(self, options: MorpionOptions):
        if options.variant not in morpion.RULES:
            raise InputError(f"domain.variant={options.variant!r} is not valid: choose one of "
                             f"{', '.join(morpion.RULES)}")
        if options.line_span not in morpion.LINE_SPANS:
            raise InputError(f"domain.line_span={options.line_span!r} is not valid: choose 5 (the standard "
                             "rules) or 6 (the 5D variant whose lines block 6 points)")
        if options.line_span != 5 and options.variant != "5D":
            raise InputError(f"domain.line_span={options.line_span} is a variant of 5D only: with "
                             f"domain.variant={options.variant} it would give the rules of 5D; leave it at 5")
        self.options = options
        self._kernel = None

    def kernel_domain(self):
        if self._kernel is None:
            self._kernel = morpion.make_morpion(self.options.variant, self.options.line_span)
        return self._kernel

    def certificate(self, kernel_moves) -> list[list[int]]:
        kernel = self.kernel_domain()
        return [morpion.decode_move(kernel, move) for move in kernel_moves]

    def replay_score(self, certificate) -> float:
        return float(morpion_rules.replay(self.options.variant, certificate, self.options.line_span))

    def print_certificate(self, certificate) -> str:
        return morpion_rules.format_moves(certificate)

    def leaderboard_key(self) -> str:
        span = "" if self.options.line_span == 5 else f"_span{self.options.line_span}"
        return f"morpion/{self.options.variant}{span}"

    def describe(self) -> dict:
        if self.options.line_span == 5:
            return {"instance": f"Morpion {self.options.variant}", "variant": self.options.variant}
        return {"instance": f"Morpion {self.options.variant}, line_span {self.options.line_span}",
                "variant": self.options.variant, "line_span": self.options.line_span}

    def draw_solution(self, certificate, path):
        """A picture of the grid the certificate's moves leave; matplotlib is imported here only."""
        from analysis.morpion_grid import draw_grid

        return draw_grid(self.options.variant, certificate, path, line_span=self.options.line_span)


@dataclass
class KnapsackOptions:
    """Options of ``domain=knapsack`` (the example domain, nrpa/data/knapsack/SOURCE.md):
    ``instance``, a shipped instance's name or the path of an instance file."""

    name: str = "knapsack"
    instance: str = "p07"
    bias: str = "none"  # GNRPA: none or a bias file (nrpa/bias.py)


class KnapsackDomain:
    options_class = KnapsackOptions
    certificate_format = "item indices (0-based, in the instance file's order) in the order put in"

    def __init__(self, options: KnapsackOptions):
        self.options = options
        self.instance = knapsack_rules.load_instance(options.instance)

    def kernel_domain(self):
        return knapsack.make_knapsack(self.instance.capacity, self.instance.weights, self.instance.values)

    def certificate(self, kernel_moves) -> list[int]:
        return [int(item) for item in kernel_moves]

    def replay_score(self, certificate) -> float:
        return float(knapsack_rules.replay(self.instance, certificate))

    def print_certificate(self, certificate) -> str:
        return " ".join(map(str, certificate))

    def leaderboard_key(self) -> str:
        return f"knapsack/{self.instance.name}"

    def describe(self) -> dict:
        return {"instance": f"knapsack {self.instance.name}", "items": len(self.instance.weights),
                "capacity": self.instance.capacity, "optimum": knapsack_rules.optimum(self.instance)}


DOMAINS = {"samegame": SameGameDomain, "weakschur": WeakSchurDomain, "maximum": MaximumDomain,
           "tsptw": TsptwDomain, "bus": BusDomain, "morpion": MorpionDomain, "knapsack": KnapsackDomain}


def make_domain(options):
    """The adapter for ``options`` (a dataclass or a mapping with a ``name`` key)."""
    values = dict(options) if not hasattr(options, "__dataclass_fields__") else asdict(options)
    name = values.get("name")
    if name not in DOMAINS:
        raise InputError(f"domain={name!r} is not valid: choose one of {', '.join(DOMAINS)}")
    domain_class = DOMAINS[name]
    known = domain_class.options_class.__dataclass_fields__
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise InputError(
            f"unknown option(s) domain.{', domain.'.join(unknown)} for domain={name}: valid are "
            f"{', '.join('domain.' + key for key in known if key != 'name')}"
        )
    adapter = domain_class(domain_class.options_class(**values))
    # GNRPA's bias, checked (and a bias file read) here, before any work
    adapter.kernel_bias = kernel_bias(values.get("bias", "none"), getattr(domain_class, "biases", {}),
                                      values.get("bias_weight", 1.0))
    return adapter
