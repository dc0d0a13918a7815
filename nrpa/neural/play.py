"""Playing Morpion with a trained network: games whose every move is sampled from the
network's softmax over the legal moves (Table 2's neural rows, Figure 5's distributions), and
NeuralNMCS, the nested Monte Carlo search whose playouts sample from the network (Nested(1)
of Table 3, the experts of Table 4).

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

from nrpa.domains.contract import copy_state, legal_moves, max_length, max_moves, new_state, play, reset, score
from nrpa.errors import InputError
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
def copied(domain, state):
    copy = new_state(domain)
    copy_state(domain, state, copy)
    return copy


@njit(cache=True)
def child_state(domain, state, move):
    """A copy of ``state`` with ``move`` played."""
    child = copied(domain, state)
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


@njit(cache=True)
def playout_with_logits(domain, state, logits, temperature, seed):
    """Play ``state`` to its end, each move drawn among the legal moves inside the window with
    probability proportional to exp(logit of its line / temperature), ``logits`` being the
    network's outputs at the playout's first position (NeuralNMCS(1)c: one forward pass per
    playout, as moves commute). Returns (the kernel moves played, whether the playout was cut
    short: legal moves left, all outside the window)."""
    np.random.seed(seed)
    width = max_moves(domain)
    moves = np.zeros(width, dtype=np.int64)
    codes = np.zeros(width, dtype=np.int64)
    weights = np.zeros(width)
    played = np.zeros(max_length(domain), dtype=np.int64)
    count = 0
    while True:
        n = legal_moves(domain, state, moves, codes)
        if n == 0:
            return played[:count].copy(), False
        top = -np.inf
        for i in range(n):
            index = move_index(moves[i])
            weights[i] = logits[index] / temperature if index >= 0 else -np.inf
            top = max(top, weights[i])
        if top == -np.inf:
            return played[:count].copy(), True
        total = 0.0
        for i in range(n):
            weights[i] = np.exp(weights[i] - top)
            total += weights[i]
        draw = np.random.random() * total
        chosen = n - 1
        for i in range(n):
            draw -= weights[i]
            if draw < 0.0:
                chosen = i
                break
        while weights[chosen] == 0.0:  # rounding left the draw on a move outside the window
            chosen -= 1
        play(domain, state, moves[chosen])
        played[count] = moves[chosen]
        count += 1


def network_logits(network, representation: str, domain, states: list, device) -> np.ndarray:
    """The network's outputs at each state, one forward pass for all (float64 [n, 3600])."""
    torch = require_torch()
    planes = np.zeros((len(states), CHANNELS[representation], SIZE, SIZE), dtype=np.float32)
    for row, state in enumerate(states):
        write_planes(domain, state, HISTORY[representation], planes[row])
    with torch.no_grad():
        return network(torch.from_numpy(planes).to(device)).double().cpu().numpy()


def _best_playouts(network, representation: str, domain, starts: list, rollouts: int, temperature: float,
                   cached: bool, generator, device) -> tuple[list, int]:
    """``rollouts`` network playouts from each state of ``starts`` (left as they are): the best
    (score, moves) of each start's playouts and the playouts cut short. Sampled playouts
    (``cached`` false) take a forward pass per move, all the playouts in one batch; cached
    ones one forward pass at their start (the paper's NeuralNRPA speed-up applied to
    playouts: an option beyond the paper, which no Table 4 expert uses)."""
    torch = require_torch()
    states = [copied(domain, start) for start in starts for _ in range(rollouts)]
    tails, cut_short = [[] for _ in states], 0
    if cached:
        logits = network_logits(network, representation, domain, starts, device)
        for row, state in enumerate(states):
            seed = int(torch.randint(2**62, (1,), generator=generator))
            moves, cut = playout_with_logits(domain, state, logits[row // rollouts], temperature, seed)
            tails[row], cut_short = [int(m) for m in moves], cut_short + int(cut)
    else:
        cut_short = _sample_to_end(network, representation, domain, states, tails, generator, temperature, device)
    scores = [float(game_score(domain, state)) for state in states]
    best = []
    for first in range(0, len(states), rollouts):
        row = first + int(np.argmax(scores[first:first + rollouts]))
        best.append((scores[row], tails[row]))
    return best, cut_short


def nmcs_game(network, representation: str, domain, *, level: int, rollouts: int = 1, temperature: float = 1.0,
              cached: bool = False, early_stop: bool = False, generator=None,
              device=None) -> tuple[list, float, int]:
    """One game of NeuralNMCS(level) (the Morpion paper, sections 3 and 4): level 0 plays
    ``rollouts`` network playouts from the start and keeps the best ("the best sequence out of
    x rollouts played by the neural network"); level 1, at each move, tries every legal move
    followed by ``rollouts`` network playouts (the child's score: their best, our reading of
    how x enters level 1), and follows the best sequence found so far (replaced on a strictly
    better score), one move at a time, as NMCS does.

    ``early_stop`` (level 1): NeuralNMCS(1)c, as the paper defines it: "instead of calling NMCS
    after each move played, we stop the algorithm after the end of the first call from the
    highest nested level end and use the best sequence found as the label": the game is the
    best sequence of the first step (every legal move of the start, each followed by its
    playouts). ``cached``: each playout draws from the logits of one forward pass at its first
    position (beyond the paper). Returns (the kernel moves, the score, the playouts cut short)."""
    torch = require_torch()
    device = device or torch.device("cpu")
    generator = generator or torch.Generator().manual_seed(0)
    network.eval()
    state = new_game(domain)
    if level == 0:
        [(best_score, best_sequence)], cut_short = _best_playouts(
            network, representation, domain, [state], rollouts, temperature, cached, generator, device)
        return best_sequence, best_score, cut_short
    if level != 1:
        raise InputError(f"NeuralNMCS level={level} is not valid: 0 or 1")
    played, best_score, best_sequence, cut_short = [], -1.0, [], 0
    while True:
        legal = legal_move_ids(domain, state)
        if legal.size == 0:
            break
        children = [child_state(domain, state, move) for move in legal]
        results, cut = _best_playouts(network, representation, domain, children, rollouts, temperature, cached,
                                      generator, device)
        cut_short += cut
        best = int(np.argmax([result for result, _ in results]))
        if results[best][0] > best_score:
            best_score, best_sequence = results[best][0], played + [int(legal[best])] + results[best][1]
        if early_stop:  # NeuralNMCS(1)c: the first step's best sequence is the expert's game
            return best_sequence, best_score, cut_short
        move = best_sequence[len(played)]
        play_move(domain, state, move)
        played.append(move)
    return played, float(game_score(domain, state)), cut_short


def nested_games(network, representation: str, domain, count: int, *, temperature: float = 1.0, seed: int = 0,
                 device=None, progress: bool = True) -> Games:
    """``count`` games of Nested(1) with the network (Table 3): NeuralNMCS(1), one sampled
    playout per move tried."""
    torch = require_torch()
    generator = torch.Generator().manual_seed(seed)
    sequences, scores, cut_short = [], [], 0
    for _ in tqdm(range(count), desc="Nested(1) games", unit="game", disable=not progress or count < 2,
                  dynamic_ncols=True):
        moves, result, cut = nmcs_game(network, representation, domain, level=1, temperature=temperature,
                                       generator=generator, device=device)
        sequences.append(moves)
        scores.append(result)
        cut_short += cut
    return Games(sequences, np.array(scores), cut_short)
