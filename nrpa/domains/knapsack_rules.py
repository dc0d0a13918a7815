"""The 0/1 knapsack in plain Python (rules: nrpa/data/knapsack/SOURCE.md): instances,
certificate replay and the optimum by dynamic programming. Independent of the kernel."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nrpa.errors import InputError

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "knapsack"


@dataclass(frozen=True)
class Instance:
    name: str
    capacity: int
    weights: tuple[int, ...]
    values: tuple[int, ...]


def shipped_file(name: str) -> Path | None:
    """The file of the instance shipped as ``name`` (``p07``); None if no shipped instance has
    that name (it is then the path of a file)."""
    path = DATA_DIR / f"{name}.txt"
    return path if path.is_file() else None


def load_instance(name_or_path: str, text: str | None = None) -> Instance:
    """An instance shipped in nrpa/data/knapsack (by name, e.g. ``p07``) or a file of the
    same format; InputError naming the file and line when it is not one. ``text``: that file's
    contents read elsewhere (the copy a run file keeps), parsed in its place."""
    shipped = shipped_file(name_or_path)
    path = shipped or Path(name_or_path)
    if shipped or text is None:
        if not path.is_file():
            shipped = sorted(p.stem for p in DATA_DIR.glob("*.txt"))
            raise InputError(f"domain.instance={name_or_path!r} is neither a shipped instance "
                             f"({', '.join(shipped)}) nor a file")
        text = path.read_text()
    numbers = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                numbers.append((number, [int(field) for field in line.split()]))
            except ValueError:
                raise InputError(f"{path}, line {number}: {line.strip()!r} is not integers") from None
    if not numbers or len(numbers[0][1]) != 1 or numbers[0][1][0] < 0:
        raise InputError(f"{path}: the first line must be the capacity, one integer >= 0")
    items = numbers[1:]
    for number, fields in items:
        if len(fields) != 2 or fields[0] <= 0 or fields[1] < 0:
            raise InputError(f"{path}, line {number}: an item is 'weight value', weight > 0 and value >= 0")
    if not items:
        raise InputError(f"{path}: no items")
    return Instance(name=path.stem, capacity=numbers[0][1][0],
                    weights=tuple(fields[0] for _, fields in items),
                    values=tuple(fields[1] for _, fields in items))


def replay(instance: Instance, items) -> int:
    """Total value of the items put in, in order; ValueError at the first illegal move."""
    room = instance.capacity
    taken = set()
    for step, item in enumerate(items):
        if not isinstance(item, int) or not 0 <= item < len(instance.weights):
            raise ValueError(f"move {step}: {item!r} is not an item index 0..{len(instance.weights) - 1}")
        if item in taken:
            raise ValueError(f"move {step}: item {item} is in the knapsack already")
        if instance.weights[item] > room:
            raise ValueError(f"move {step}: item {item} of weight {instance.weights[item]} does not fit "
                             f"in the {room} left")
        taken.add(item)
        room -= instance.weights[item]
    return sum(instance.values[item] for item in taken)


def optimum(instance: Instance) -> int:
    """The best total value, by dynamic programming over the capacity."""
    best = [0] * (instance.capacity + 1)
    for weight, value in zip(instance.weights, instance.values):
        for room in range(instance.capacity, weight - 1, -1):
            best[room] = max(best[room], best[room - weight] + value)
    return best[instance.capacity]
