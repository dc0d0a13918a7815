"""Playing Morpion with a trained network: games whose every move is sampled from the
network's softmax over the legal moves (Table 2's neural rows, Figure 5's distributions), and
Nested(1) with the network (Table 3).

The games of a batch advance together, one forward pass per step for all of them: the planes
come from the numba kernel (``write_planes``), the move from ``torch.multinomial`` on a seeded
CPU generator, so a seed gives the same games on any device up to the network's float
rounding. A game ends when it has no legal move the network can play (none at all, or only
moves whose line starts outside the 30 x 30 window: counted in the result).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from tqdm import tqdm

from nrpa.domains.contract import copy_state, legal_moves, max_moves, new_state, play, reset, score
from nrpa.neural.planes import CHANNELS, HISTORY, SIZE, legal_from_planes, move_index, write_planes
from nrpa.neural.torch_setup import require_torch


@njit(cache=True)
def new_game(domain):
    state = new_state(domain)
    reset(domain, state)
    return state


@njit(cache=True)
def state_after(domain, moves):
    """The state after the kernel moves ``moves`` from the start."""
    state = new_game(domain)
    for move in moves:
        play(domain, state, move)
    return state


@njit(cache=True)
def play_index(domain, state, index):
    """Play the legal move whose output index is ``index``; its kernel move id (-1: none)."""
    width = max_moves(domain)
    moves = np.zeros(width, dtype=np.int64)
    codes = np.zeros(width, dtype=np.int64)
    n = legal_moves(domain, state, moves, codes)
    for i in range(n):
        if move_index(moves[i]) == index:
            play(domain, state, moves[i])
            return moves[i]
    return -1


@njit(cache=True)
def legal_move_ids(domain, state):
    width = max_moves(domain)
    moves = np.zeros(width, dtype=np.int64)
    n = legal_moves(domain, state, moves, np.zeros(width, dtype=np.int64))
    return moves[:n].copy()


@njit(cache=True)
def child_state(domain, state, move):
    """A copy of ``state`` with ``move`` played."""
    child = new_state(domain)
    copy_state(domain, state, child)
    play(domain, child, move)
    return child


@njit(cache=True)
def play_move(domain, state, move):
    play(domain, state, move)


@njit(cache=True)
def game_score(domain, state):
    return score(domain, state)


@dataclass(frozen=True)
class Games:
    sequences: list  # kernel move ids of each game
    scores: np.ndarray
    cut_short: int  # games that ended with legal moves left, all outside the network's window


def _sample_to_end(network, representation: str, domain, states: list, sequences: list, generator,
                   temperature: float, device) -> int:
    """Play every state of ``states`` to its end, each move sampled from the network and
    appended to its sequence; one forward pass per move for all the games still going.
    Returns the games cut short (legal moves left, none inside the window)."""
    torch = require_torch()
    from nrpa.neural.networks import masked_logits  # (imports torch: not at this module's import)

    history = HISTORY[representation]
    alive = list(range(len(states)))
    cut_short = 0
    while alive:
        planes = np.zeros((len(alive), CHANNELS[representation], SIZE, SIZE), dtype=np.float32)
        for row, game in enumerate(alive):
            write_planes(domain, states[game], history, planes[row])
        legal = legal_from_planes(planes)
        playable = legal.any(axis=1)
        cut_short += sum(1 for row, game in enumerate(alive)
                         if not playable[row] and legal_move_ids(domain, states[game]).size > 0)
        rows = np.flatnonzero(playable)
        if rows.size == 0:
            break
        with torch.no_grad():
            logits = network(torch.from_numpy(planes[rows]).to(device)).float().cpu()
        logits = masked_logits(logits, torch.from_numpy(legal[rows])) / temperature
        chosen = torch.multinomial(torch.softmax(logits, dim=1), 1, generator=generator)[:, 0].numpy()
        for row, index in zip(rows, chosen):
            game = alive[row]
            sequences[game].append(int(play_index(domain, states[game], int(index))))
        alive = [alive[row] for row in rows]
    return cut_short


def sample_games(network, representation: str, domain, count: int, *, temperature: float = 1.0, seed: int = 0,
                 device=None, batch: int = 256) -> Games:
    """``count`` games, each move drawn from softmax(logits / temperature) over the legal moves."""
    torch = require_torch()
    device = device or torch.device("cpu")
    generator = torch.Generator().manual_seed(seed)
    network.eval()
    sequences, scores, cut_short = [], [], 0
    for first in range(0, count, batch):
        states = [new_game(domain) for _ in range(min(batch, count - first))]
        moves = [[] for _ in states]
        cut_short += _sample_to_end(network, representation, domain, states, moves, generator, temperature, device)
        sequences += moves
        scores += [float(game_score(domain, state)) for state in states]
    return Games(sequences, np.array(scores), cut_short)


def nested_games(network, representation: str, domain, count: int, *, temperature: float = 1.0, seed: int = 0,
                 device=None, progress: bool = True) -> Games:
    """``count`` games of Nested(1) with the network (Table 3): NMCS level 1 whose playouts
    sample from the network. At each step every legal move is tried, followed by a network
    playout to the end (all of them in one batch); the best sequence found so far (replaced
    on a strictly better score) is followed one move."""
    torch = require_torch()
    device = device or torch.device("cpu")
    generator = torch.Generator().manual_seed(seed)
    network.eval()
    sequences, scores, cut_short = [], [], 0
    for _ in tqdm(range(count), desc="Nested(1) games", unit="game", disable=not progress or count < 2,
                  dynamic_ncols=True):
        state = new_game(domain)
        played, best_score, best_sequence = [], -1.0, []
        while True:
            legal = legal_move_ids(domain, state)
            if legal.size == 0:
                break
            children = [child_state(domain, state, move) for move in legal]
            tails = [[int(move)] for move in legal]
            cut_short += _sample_to_end(network, representation, domain, children, tails, generator, temperature,
                                        device)
            results = [float(game_score(domain, child)) for child in children]
            best = int(np.argmax(results))
            if results[best] > best_score:
                best_score, best_sequence = results[best], played + tails[best]
            move = best_sequence[len(played)]
            play_move(domain, state, move)
            played.append(move)
        sequences.append(played)
        scores.append(float(game_score(domain, state)))
    return Games(sequences, np.array(scores), cut_short)
