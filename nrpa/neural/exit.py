"""Expert Iteration on Morpion 5D (the Morpion paper, section 4: Table 4, Figure 6).

The loop, as the paper's section 4 gives it ("Training setting: In our experiments, at each
iteration we generated 10.000 boards with the learner. We train our model with a learning rate
of 5 * 10^-4 and 20 epochs"; the policy is learnt "from scratch"): a network starts untrained
(seeded) and each iteration

1. an expert, a search driven by the current network, plays ``expert_games`` games from the
   start (the paper: 10,000 boards per iteration);
2. the network is trained on the expert's moves, cross-entropy as in Table 1, ``epochs`` epochs
   (the paper: 20) at learning rate ``learning_rate`` (the paper: 5e-4); the paper does not
   name the optimizer: Adam, the one 5e-4 is the customary rate of, is our choice, kept from
   iteration to iteration;
3. the network alone plays ``network_games`` games sampled at the row's temperature: Table 4's
   nn mean and nn best (Figure 6: "the maximum score evolution on 100 rollouts").

The experts (``Expert``), as the paper defines them: NeuralNMCS(0), "the best sequence out of x
rollouts played by the neural network", and NeuralNMCS(1), "NMCS level 1 as expert"
(``nrpa.neural.play.nmcs_game``: ``rollouts`` network playouts per evaluation, moves drawn from
softmax(logits / temperature)); NeuralNMCS(1)c, "an early stopped version of NMCS": the best
sequence of NMCS(1)'s first step is the game; NeuralNRPA(level), "GNRPA of level 1 and 2 with
the bias given by the policy output by the neural network" (N = ``rollouts`` iterations per
level, our reading of the column; the bias the network's logits / temperature from one forward
pass on the cross, the paper's "single forward pass for an entire game": ``nrpa.neural.bias``).
The letter "A" marks the rows the paper calls "the best approaches among all tested
parameters", one per expert type, the four of Figure 6: a label, not a setting. Training on the
expert's games under the 8 symmetries of the board (``augment``, ``nrpa.neural.symmetry``) is an
option beyond the paper that no published row uses.

A run stops at the first iteration boundary past its budget (``minutes``). After every
iteration a checkpoint (weights, optimizer, the record so far, the time spent) is written
atomically; a run that finds one goes on from it, its iterations seeded by (seed, iteration)
as an unbroken run's.
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from nrpa.domains.morpion import make_morpion
from nrpa.errors import InputError, require
from nrpa.neural.bias import network_bias
from nrpa.neural.data import from_sequences
from nrpa.neural.networks import make_network
from nrpa.neural.planes import CHANNELS
from nrpa.neural.play import nmcs_game, sample_games
from nrpa.neural.symmetry import augmented
from nrpa.neural.torch_setup import describe, require_torch
from nrpa.neural.training import Batches, TrainSettings, load_checkpoint, save_checkpoint, train_epoch, usable
from nrpa.search import SearchSettings, run_search

torch = require_torch()


@dataclass(frozen=True)
class Expert:
    """A row of Table 4: the expert, its temperature and rollouts, whether it is the early
    stopped NeuralNMCS(1)c, and whether the paper marks it "A" (the best row of its type)."""

    search: str  # nmcs or nrpa
    level: int
    temperature: float
    rollouts: int
    early_stop: bool = False  # NeuralNMCS(1)c: the best sequence of NMCS(1)'s first step is the game
    best: bool = False  # the "A" rows: the paper's best of each expert type (Figure 6); a label only
    augment: bool = False  # beyond the paper: train on the expert's games under the board's 8 symmetries

    def __post_init__(self):
        checks = [
            (self.search in ("nmcs", "nrpa"), f"expert search={self.search!r} is not valid: nmcs or nrpa"),
            (self.search == "nrpa" or self.level in (0, 1), f"NeuralNMCS level={self.level} is not valid: 0 or 1"),
            (self.search == "nmcs" or self.level >= 1, f"NeuralNRPA level={self.level} is not valid: >= 1"),
            (self.temperature > 0, f"temperature={self.temperature} is out of range: > 0"),
            (self.rollouts >= 1, f"rollouts={self.rollouts} is out of range: >= 1"),
            (not self.early_stop or (self.search, self.level) == ("nmcs", 1),
             "only NeuralNMCS(1) has an early stopped (c) variant"),
        ]
        require(checks)

    @property
    def label(self) -> str:
        name = f"Neural{self.search.upper()}({self.level})" + ("c" if self.early_stop else "")
        return name + (" A" if self.best else "")

    @staticmethod
    def parse(label: str, temperature: float, rollouts: int) -> "Expert":
        """The expert of a Table 4 row, from its published label (``NeuralNMCS(1)c A``)."""
        match = re.fullmatch(r"Neural(NMCS|NRPA)\((\d)\)(c?)( A)?", label.strip())
        if not match:
            raise InputError(f"{label!r} is not a Table 4 expert: NeuralNMCS(L), NeuralNMCS(1)c or NeuralNRPA(L), "
                             "with ' A' for the paper's best row of a type")
        search, level, early_stop, best = match.groups()
        return Expert(search.lower(), int(level), float(temperature), int(rollouts), early_stop=bool(early_stop),
                      best=bool(best))


@dataclass(frozen=True)
class ExitSettings:
    minutes: float  # the run's budget (wall-clock), checked between iterations
    expert_games: int
    network_games: int
    epochs: int = 20
    learning_rate: float = 5e-4
    batch_size: int = 64
    network: str = "resnet"
    representation: str = "R2"
    seed: int = 0

    def __post_init__(self):
        checks = [
            (self.minutes >= 0, f"exit minutes={self.minutes} is out of range: >= 0"),
            (self.expert_games >= 1, f"exit expert_games={self.expert_games} is out of range: >= 1"),
            (self.network_games >= 1, f"exit network_games={self.network_games} is out of range: >= 1"),
            (self.epochs >= 1, f"exit epochs={self.epochs} is out of range: >= 1"),
        ]
        require(checks)


def expert_games(expert: Expert, network, representation: str, domain, count: int, seed: int, device,
                 progress: bool) -> tuple[list, list]:
    """``count`` games of the expert with ``network``: (their kernel moves, their scores)."""
    network.eval()
    sequences, scores = [], []
    seeds = np.random.default_rng(seed).integers(2**31, size=count)
    bias = network_bias(network, representation, domain, expert.temperature, device) if expert.search == "nrpa" \
        else None  # the network does not change during the iteration: one forward pass serves every game
    for game_seed in tqdm(seeds, desc=f"{expert.label} games", unit="game", disable=not progress,
                          dynamic_ncols=True, mininterval=1.0):
        if expert.search == "nrpa":
            result = run_search(domain, SearchSettings(algorithm="gnrpa", level=expert.level, N=expert.rollouts,
                                                       max_time=None, restart=False, seed=int(game_seed)), bias)
            moves, score = list(result.best_moves), result.best_score
        else:
            moves, score, _ = nmcs_game(network, representation, domain, level=expert.level,
                                        rollouts=expert.rollouts, temperature=expert.temperature,
                                        early_stop=expert.early_stop,
                                        generator=torch.Generator().manual_seed(int(game_seed)),
                                        device=device)
        sequences.append(moves)
        scores.append(float(score))
    return sequences, scores


def expert_iteration(expert: Expert, settings: ExitSettings, checkpoint: Path, *, device=None,
                     stop_after: int | None = None, progress: bool = True) -> dict:
    """Run (or resume from ``checkpoint``) Expert Iteration with ``expert``; ``stop_after``:
    stop after that many iterations of this call (the tests' kill). Returns the record: the
    settings, one entry per iteration, the best game found (its moves replay to its score)."""
    device = device or torch.device("cpu")
    domain = make_morpion("5D")
    train_settings = TrainSettings(network=settings.network, representation=settings.representation,
                                   epochs=settings.epochs, batch_size=settings.batch_size,
                                   learning_rate=settings.learning_rate, validation=0.0, seed=settings.seed)
    torch.manual_seed(settings.seed)
    network = make_network(settings.network, CHANNELS[settings.representation]).to(device)
    optimizer = torch.optim.Adam(network.parameters(), lr=settings.learning_rate)
    record = {"expert": asdict(expert), "label": expert.label, "settings": asdict(settings),
              "device": describe(device), "iterations": [], "seconds": 0.0,
              "best": {"score": -1.0, "moves": [], "by": None, "seconds": None}}
    if checkpoint.is_file():
        saved = load_checkpoint(checkpoint, device)
        if (saved["record"]["expert"], saved["record"]["settings"]) != (record["expert"], record["settings"]):
            raise InputError(f"{checkpoint} was made with another expert or other settings: delete it to start anew")
        network.load_state_dict(saved["network"])
        optimizer.load_state_dict(saved["optimizer"])
        record = {**saved["record"], "device": record["device"]}
    done_here = 0
    while record["seconds"] < 60 * settings.minutes or not record["iterations"]:
        if stop_after is not None and done_here >= stop_after:
            break
        iteration = len(record["iterations"])
        started = time.perf_counter()
        sequences, scores = expert_games(expert, network, settings.representation, domain, settings.expert_games,
                                         settings.seed * 1_000_003 + iteration, device, progress)
        expert_seconds = time.perf_counter() - started
        games = from_sequences(sequences, scores, {"expert": expert.label, "iteration": iteration})
        games = augmented(games, domain) if expert.augment else games
        batches = Batches(games, train_settings)
        positions = usable(batches, np.arange(len(games)))
        losses = [train_epoch(network, optimizer, batches, positions, train_settings,
                              iteration * settings.epochs + epoch, device, progress=False)[0]
                  for epoch in range(settings.epochs)] if len(positions[0]) else [float("nan")]
        played = sample_games(network, settings.representation, domain, settings.network_games,
                              temperature=expert.temperature, seed=settings.seed * 1_000_003 + iteration, device=device)
        record["seconds"] += time.perf_counter() - started
        best_network = int(np.argmax(played.scores))
        for by, score, moves in (("expert", max(scores), sequences[int(np.argmax(scores))]),
                                 ("network", float(played.scores[best_network]), played.sequences[best_network])):
            if score > record["best"]["score"]:
                record["best"] = {"score": score, "moves": [int(m) for m in moves], "by": by,
                                  "seconds": record["seconds"], "iteration": iteration}
        record["iterations"].append({
            "iteration": iteration, "seconds": record["seconds"], "expert_seconds": expert_seconds,
            "expert_mean": float(np.mean(scores)), "expert_best": max(scores),
            "positions": len(positions[0]), "train_loss": losses[-1],
            "nn_mean": float(played.scores.mean()), "nn_best": float(played.scores.max()),
            "nn_cut_short": played.cut_short})
        record["final_nn_scores"] = [float(score) for score in played.scores]  # the nn mean's CI
        done_here += 1
        if progress:
            last = record["iterations"][-1]
            print(f"{expert.label} iteration {iteration}: expert mean {last['expert_mean']:.1f} best "
                  f"{last['expert_best']:.0f}, network mean {last['nn_mean']:.1f} best {last['nn_best']:.0f}, "
                  f"{record['seconds']:.0f} s", flush=True)
        save_checkpoint(checkpoint, {"record": record, "network": network.state_dict(),
                                     "optimizer": optimizer.state_dict()})
    return record
