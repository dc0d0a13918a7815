"""TSPTW in plain Python: instance files, tour evaluation, the pruning rule, best-known tours.

Independent of the numba kernel (``nrpa.domains.tsptw``). Format and objective:
nrpa/data/tsptw/SOURCE.md.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from nrpa.errors import InputError

VIOLATION_COST = 1_000_000


class InstanceError(InputError):
    """An instance file that cannot be read; the message names the file and line."""


class InvalidTour(ValueError):
    """A certificate that is not a permutation of the customers."""


@dataclass(frozen=True)
class Instance:
    name: str
    distance: tuple[tuple[float, ...], ...]  # n x n, node 0 = depot
    ready: tuple[float, ...]
    due: tuple[float, ...]

    @property
    def nodes(self) -> int:
        return len(self.ready)


def instance_names() -> list[str]:
    folder = resources.files("nrpa") / "data" / "tsptw" / "instances"
    return sorted(path.name.removesuffix(".txt") for path in folder.iterdir() if path.name.endswith(".txt"))


def instance_file(name: str) -> Path:
    """The file of the shipped instance ``name`` (one of instance_names())."""
    return Path(str(resources.files("nrpa") / "data" / "tsptw" / "instances" / f"{name}.txt"))


def load_instance(spec: str, text: str | None = None) -> Instance:
    """A shipped Potvin-Bengio instance by name (rc_204.1) or the path of a file in that format;
    ``text``: that file's contents read elsewhere (the copy a run file keeps), parsed in its place."""
    if spec in instance_names():
        return parse_instance(instance_file(spec).read_text(), spec)
    path = Path(spec).expanduser()
    if text is None:
        if not path.is_file():
            raise InstanceError(f"domain.instance={spec!r}: neither a shipped instance "
                                f"({', '.join(instance_names())}) nor an instance file")
        text = path.read_text()
    return parse_instance(text, str(path))


def parse_instance(text: str, source: str) -> Instance:
    lines = [(number, line.split()) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise InstanceError(f"instance file {source} is empty")

    def numbers(number, tokens):
        try:
            return [float(token) for token in tokens]
        except ValueError:
            bad = next(t for t in tokens if not _is_number(t))
            raise InstanceError(f"instance file {source}, line {number}: {bad!r} is not a number") from None

    first_line, first = lines[0]
    if len(first) != 1 or not first[0].isdigit() or int(first[0]) < 2:
        raise InstanceError(f"instance file {source}, line {first_line}: the first line must be the number "
                            "of nodes (depot included, at least 2)")
    nodes = int(first[0])
    if len(lines) != 1 + 2 * nodes:
        raise InstanceError(f"instance file {source}: {nodes} nodes need {nodes} matrix lines and {nodes} "
                            f"time-window lines after line {first_line}, found {len(lines) - 1} lines")
    distance = []
    for number, tokens in lines[1:1 + nodes]:
        row = numbers(number, tokens)
        if len(row) != nodes:
            raise InstanceError(f"instance file {source}, line {number}: {len(row)} distances where the "
                                f"first line says {nodes} nodes")
        distance.append(tuple(row))
    ready, due = [], []
    for number, tokens in lines[1 + nodes:]:
        window = numbers(number, tokens)
        if len(window) != 2 or window[0] > window[1]:
            raise InstanceError(f"instance file {source}, line {number}: a time window is "
                                "'ready due' with ready <= due")
        ready.append(window[0])
        due.append(window[1])
    return Instance(source, tuple(distance), tuple(ready), tuple(due))


def _is_number(token: str) -> bool:
    try:
        float(token)
        return True
    except ValueError:
        return False


def evaluate(instance: Instance, tour) -> tuple[float, int]:
    """(cost, violations) of depot -> tour -> depot; ``tour`` lists every customer once."""
    if sorted(tour) != list(range(1, instance.nodes)):
        raise InvalidTour(f"the tour must visit customers 1..{instance.nodes - 1} once each")
    d = instance.distance
    time = cost = 0.0
    violations = 0
    here = 0
    for node in [*tour, 0]:
        cost += d[here][node]
        time = max(time + d[here][node], instance.ready[node])
        violations += time > instance.due[node]
        here = node
    return cost, violations


def score(instance: Instance, tour) -> float:
    cost, violations = evaluate(instance, tour)
    return -(VIOLATION_COST * violations + cost)


def legal_customers(instance: Instance, visited: set[int], here: int, time: float, *, rule: str) -> list[int]:
    """The customers a playout may go to next (SOURCE.md's three pruning steps): ``pruned``
    applies steps (1) and (2), ``late_first`` step (1) alone, ``harmless`` step (2) alone,
    ``all`` neither; step (3), every unvisited customer, when the others leave none."""
    d, due = instance.distance, instance.due
    left = [j for j in range(1, instance.nodes) if j not in visited]
    if rule in ("pruned", "late_first"):
        unreachable = [j for j in left if time + d[here][j] > due[j]]
        if unreachable:
            return unreachable
    if rule in ("pruned", "harmless"):
        harmless = [i for i in left
                    if all(max(time + d[here][i], instance.ready[i]) + d[i][j] <= due[j] for j in left if j != i)]
        if harmless:
            return harmless
    return left


def best_known() -> dict[str, tuple[float, list[int]]]:
    """Instance name -> (cost, tour of customers) from best_known_tours.csv (LKH-3)."""
    path = resources.files("nrpa") / "data" / "tsptw" / "best_known_tours.csv"
    with path.open() as handle:
        return {row["instance"]: (float(row["best_known_cost"]),
                                  [int(c) for c in row["tour_0based_customers_excl_depot"].split()])
                for row in csv.DictReader(handle)}
