"""Weak Schur numbers in plain Python: the rules, certificates and their checker.

Independent of the numba kernel (``nrpa.domains.weakschur``): parts are Python sets and a
number fits a part when no two distinct members sum to it. Definition and sources:
nrpa/data/weakschur/SOURCE.md.
"""

from __future__ import annotations

from pathlib import Path

from nrpa.errors import InputError


class InvalidPartition(ValueError):
    """A certificate that is not a weakly sum-free partition of 1..N."""


def fits(part: set[int], n: int) -> bool:
    """n may join ``part``: it is not a + b for distinct members a, b."""
    return not any(n - a in part and n - a != a for a in part)


def legal_parts(parts: list[set[int]], n: int, *, rule: str) -> list[int]:
    """Indices of the parts n may join under the playout rule (standard or rule)."""
    legal = [p for p, part in enumerate(parts) if fits(part, n)]
    if rule == "rule":
        following = [p for p in legal if parts[p] and max(parts[p]) == n - 1]
        if following:
            return following
    return legal


def partition_from_moves(parts: int, kernel_moves) -> list[list[int]]:
    """Number k + 1 goes to part ``kernel_moves[k]``."""
    partition = [[] for _ in range(parts)]
    for index, part in enumerate(kernel_moves):
        partition[int(part)].append(index + 1)
    return partition


def check_partition(partition) -> int:
    """N when ``partition`` is K weakly sum-free parts covering exactly 1..N; else raise."""
    seen = [n for part in partition for n in part]
    if len(seen) != len(set(seen)):
        raise InvalidPartition("a number appears twice")
    if sorted(seen) != list(range(1, len(seen) + 1)):
        missing = sorted(set(range(1, max(seen, default=0) + 1)) - set(seen))
        raise InvalidPartition(f"not a partition of 1..N: {missing[:5]} missing")
    for index, part in enumerate(partition, start=1):
        members = set(part)
        for n in part:
            if not fits(members - {n}, n):
                a = next(a for a in members if n - a in members and n - a != a and a != n)
                raise InvalidPartition(f"part {index}: {a} + {n - a} = {n}")
    return len(seen)


def parse_partition(text: str, source: str) -> list[list[int]]:
    """One part per line, integers separated by spaces; lines starting with # are comments."""
    partition = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            partition.append([int(token) for token in line.split()])
        except ValueError:
            raise InputError(f"partition file {source}, line {number}: not a list of integers") from None
    return partition


def check_file(path: str | Path) -> int:
    """N of the certificate file ``path`` (raises InvalidPartition when it is not valid)."""
    return check_partition(parse_partition(Path(path).read_text(), str(path)))


def format_partition(partition) -> str:
    return "\n".join(" ".join(map(str, part)) for part in partition)
