"""The Maximum problem for the numba kernels (nrpa/data/maxexpr/SOURCE.md).

A prefix (Polish) expression over the atoms + and * (arity 2) and 1 (arity 0) with at most
``max_atoms`` atoms; the score is its value. A state is the atoms so far and the number of
leaves still open (1 at the start); atom a is legal when length + open + arity(a) <= L,
and the game ends when no leaf is open. Move = atom id (0: +, 1: *, 2: 1); policy code =
position * 100 + atom, as the authors' maximum.cpp.

Values are computed in float64 (exact for integers below 2**53, so for every L <= 199,
whose optimum is 4 * 3**32), or, with ``single``, as the authors' maximum.cpp computes them: each
+ and * rounded to single precision (C float). A float64 result rounded to float32 is the float32
operation's result (double rounding is harmless for + and * when the wider format has at least
2 x 24 + 2 bits of mantissa; float64 has 53).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from nrpa.domains import contract

ATOMS = ("+", "*", "1")
ARITY = (2, 2, 0)

Maximum = namedtuple("Maximum", ["max_atoms", "single"])
MaximumState = namedtuple("MaximumState", ["atoms", "stack", "info"])  # info = [length, open leaves]


def make_maximum(max_atoms: int = 199, precision: str = "float64") -> Maximum:
    """``precision``: float64 (exact values) or float32 (the authors' maximum.cpp)."""
    return Maximum(max_atoms=np.int64(max_atoms), single=np.int64(precision == "float32"))


@njit(cache=True)
def mx_new_state(domain):
    state = MaximumState(atoms=np.zeros(domain.max_atoms, dtype=np.int64),
                         stack=np.zeros(domain.max_atoms + 1), info=np.zeros(2, dtype=np.int64))
    mx_reset(domain, state)
    return state


@njit(cache=True)
def mx_reset(domain, state):
    state.info[0] = 0
    state.info[1] = 1


@njit(cache=True)
def mx_copy_state(domain, source, target):
    target.atoms[: source.info[0]] = source.atoms[: source.info[0]]
    target.info[:] = source.info


@njit(cache=True, inline="always")
def mx_legal_moves(domain, state, moves, codes):
    length = state.info[0]
    open_leaves = state.info[1]
    if open_leaves == 0:
        return 0
    count = 0
    for atom in range(3):
        arity = 0 if atom == 2 else 2
        if length + open_leaves + arity <= domain.max_atoms:
            moves[count] = atom
            codes[count] = length * 100 + atom
            count += 1
    return count


@njit(cache=True)
def mx_code_bound(domain):
    """Codes position * 100 + atom lie below max_atoms * 100: slot = code in the policy."""
    return domain.max_atoms * 100


@njit(cache=True, inline="always")
def mx_play(domain, state, atom):
    state.atoms[state.info[0]] = atom
    state.info[0] += 1
    state.info[1] += (-1 if atom == 2 else 1)


@njit(cache=True, inline="always")  # inlined: a call would keep numba's counts of the state's arrays
def mx_score(domain, state):
    """Value of the expression (leaves still open count as 1)."""
    # the state's arrays read once, and used again in the return: see nrpa.domains.contract
    stack = state.stack
    info = state.info
    atoms = state.atoms
    top = info[1]  # the open leaves, at the end of the prefix order
    for i in range(top):
        stack[i] = 1.0
    for i in range(info[0] - 1, -1, -1):
        atom = atoms[i]
        if atom == 2:
            stack[top] = 1.0
            top += 1
        else:
            first = stack[top - 1]
            second = stack[top - 2]
            top -= 1
            result = first + second if atom == 0 else first * second
            stack[top - 1] = np.float32(result) if domain.single else result
    return stack[0] + 0 * (info.size + atoms.size)


@njit(cache=True)
def mx_max_moves(domain):
    return np.int64(3)


@njit(cache=True)
def mx_max_length(domain):
    return domain.max_atoms


contract.register(
    Maximum, new_state=mx_new_state, reset=mx_reset, copy_state=mx_copy_state, legal_moves=mx_legal_moves,
    play=mx_play, score=mx_score, max_moves=mx_max_moves, max_length=mx_max_length,
    code_bound=mx_code_bound,
)
