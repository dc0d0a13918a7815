"""The Maximum problem in plain Python: prefix expressions, exact values, certificates.

Independent of the numba kernel: expressions are parsed recursively and valued with
Python's exact integers (and, for comparing with the kernel, in float64 along the same tree).
"""

from __future__ import annotations

import numpy as np

ATOMS = ("+", "*", "1")
# The score's arithmetic -> the number type value() evaluates in: float64, or float32 as the
# authors' maximum.cpp (C float; numpy's float32 + and * round each result to single precision)
PRECISIONS = {"float64": float, "float32": np.float32}


class InvalidExpression(ValueError):
    """Not a complete prefix expression over +, *, 1 within the atom limit."""


def parse(tokens) -> tuple:
    """A prefix expression (tokens '+', '*', '1' or '1.0') as a nested tuple tree."""
    tokens = list(tokens)
    position = 0

    def node():
        nonlocal position
        if position >= len(tokens):
            raise InvalidExpression("the expression ends with leaves still open")
        token = tokens[position]
        position += 1
        if token in ("1", "1.0"):
            return 1
        if token in ("+", "*"):
            return (token, node(), node())
        raise InvalidExpression(f"atom {position}: {token!r} is not +, * or 1")

    tree = node()
    if position != len(tokens):
        raise InvalidExpression(f"{len(tokens) - position} atom(s) after the complete expression")
    return tree


def value(tree, number=int):
    """Value of a tree; ``number=float`` (``np.float32``) evaluates in float64 (float32) as the
    kernel does at that precision."""
    if not isinstance(tree, tuple):
        return number(tree)
    operator, left, right = tree
    a, b = value(left, number), value(right, number)
    return a + b if operator == "+" else a * b


def check(tokens, max_atoms: int) -> int:
    """Exact value of a certificate, checking it is complete and within the atom limit."""
    if len(tokens) > max_atoms:
        raise InvalidExpression(f"{len(tokens)} atoms, the limit is {max_atoms}")
    return value(parse(tokens))


def optimum(max_atoms: int) -> int:
    """Best value with at most ``max_atoms`` atoms, by dynamic programming over tree sizes."""
    best = {1: 1}
    for size in range(3, max_atoms + 1, 2):
        best[size] = max(max(best[a] + best[size - 1 - a], best[a] * best[size - 1 - a])
                         for a in range(1, size - 1, 2))
    return max(v for size, v in best.items() if size <= max_atoms)
