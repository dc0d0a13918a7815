"""Weak Schur numbers WS(K) for the numba kernels (rules: nrpa/data/weakschur/SOURCE.md).

The numbers 1, 2, 3, ... are placed in order, each into one of K parts; n may join a part
unless n = a + b for two distinct members a, b of that part. The game ends when the next
number fits nowhere (or reaches the cap ``max_number``); the score is how many were placed.

Each part keeps two bitsets over the numbers: its members, and the numbers it forbids. When
n joins a part, every a + n with a a member is forbidden there: ``forbidden |= members << n``
(a word-wise shift), so a move costs about n / 64 word operations instead of n.

A move is the part index. Its policy code combines (number, part, last element of the part)
as the authors' ws.cpp does. Playout rules: ``standard`` (every part n fits in) and ``rule``
(Cazenave 2016: when some part ends with n - 1 and n fits there, only such parts are offered).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from nrpa.domains import contract

RULES = {"standard": 0, "rule": 1}

# max_length: the cap on the numbers placed (one move per number), the contract's bound by its name
WeakSchur = namedtuple("WeakSchur", ["parts", "max_length", "words", "rule"])
# info = [next number to place, numbers placed]; last[p] = largest member of part p (0: empty)
WeakSchurState = namedtuple("WeakSchurState", ["members", "forbidden", "last", "info"])

_ONE = np.uint64(1)


def default_max_number(parts: int) -> int:
    """A cap above every known lower bound of WS(K) (WS(9) >= 22536 < 3.2**9)."""
    return int(3.2**parts) + 100


def make_weakschur(parts: int, *, rule: str = "standard", max_number: int | None = None) -> WeakSchur:
    cap = max_number or default_max_number(parts)
    return WeakSchur(parts=np.int64(parts), max_length=np.int64(cap),
                     words=np.int64((2 * cap + 2) // 64 + 2), rule=np.int64(RULES[rule]))


# The bound on the moves first: a state's arrays are sized by it (a move is a part).
@njit(cache=True)
def ws_max_moves(domain):
    return domain.parts


@njit(cache=True)
def ws_new_state(domain):
    state = WeakSchurState(
        members=np.zeros((domain.parts, domain.words), dtype=np.uint64),
        forbidden=np.zeros((domain.parts, domain.words), dtype=np.uint64),
        last=np.zeros(domain.parts, dtype=np.int64),
        info=np.zeros(2, dtype=np.int64),
    )
    ws_reset(domain, state)
    return state


@njit(cache=True)
def ws_reset(domain, state):
    state.members[:, :] = 0
    state.forbidden[:, :] = 0
    state.last[:] = 0
    state.info[0] = 1
    state.info[1] = 0


@njit(cache=True)
def ws_copy_state(domain, source, target):
    target.members[:, :] = source.members
    target.forbidden[:, :] = source.forbidden
    target.last[:] = source.last
    target.info[:] = source.info


@njit(cache=True, inline="always")
def _fits(forbidden, part, n):
    return (forbidden[part, n >> 6] >> np.uint64(n & 63)) & _ONE == 0


@njit(cache=True, inline="always")
def _code(n, part, last):
    return (n << 40) | (last << 8) | part


@njit(cache=True, inline="always")
def ws_legal_moves(domain, state, moves, codes):
    # One exit, and every array used in its statement: numba then releases them all there,
    # where its pruning removes each release with its acquisition (nrpa.domains.contract).
    info = state.info
    forbidden = state.forbidden
    last = state.last
    n = info[0]
    count = 0
    if n <= domain.max_length:
        if domain.rule == 1:  # parts ending with n - 1 that n fits in, if any
            for part in range(domain.parts):
                if last[part] == n - 1 and _fits(forbidden, part, n):
                    moves[count] = part
                    codes[count] = _code(n, part, last[part])
                    count += 1
        if count == 0:
            for part in range(domain.parts):
                if _fits(forbidden, part, n):
                    moves[count] = part
                    codes[count] = _code(n, part, last[part])
                    count += 1
    return count + 0 * (info.size + forbidden.size + last.size + moves.size + codes.size)


@njit(cache=True, inline="always")
def ws_play(domain, state, part):
    n = state.info[0]
    members = state.members
    forbidden = state.forbidden
    # forbidden[part] |= members[part] << n, word by word; members are all below n, so
    # only the words from n // 64 up to (2n) // 64 can change.
    word_shift = n >> 6
    bit_shift = np.uint64(n & 63)
    top = (2 * n) >> 6
    for word in range(top, word_shift - 1, -1):
        source = word - word_shift
        shifted = members[part, source] << bit_shift
        if bit_shift != 0 and source > 0:
            shifted |= members[part, source - 1] >> (np.uint64(64) - bit_shift)
        forbidden[part, word] |= shifted
    members[part, n >> 6] |= _ONE << np.uint64(n & 63)
    state.last[part] = n
    state.info[0] = n + 1
    state.info[1] = n


@njit(cache=True)
def ws_score(domain, state):
    return np.float64(state.info[1])


contract.register(
    WeakSchur, new_state=ws_new_state, reset=ws_reset, copy_state=ws_copy_state, legal_moves=ws_legal_moves,
    play=ws_play, score=ws_score, max_moves=ws_max_moves,
)
