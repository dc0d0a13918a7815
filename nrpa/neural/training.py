"""Training a Morpion network to imitate the moves of a game set, with checkpoints that a
killed run resumes from.

Cross-entropy on the moves played, over the legal moves only (the illegal ones masked out of
the softmax), as the paper trains (section 3.3: "We used a decaying learning rate starting at
0.01 and divided it by 10 every 40 epochs"). The paper names no optimizer, batch size or
held-out share: SGD with momentum 0.9, batches of 64 and a tenth of the games are our choices,
stated in every output. The held-out tenth is of the games (not of the positions: the
positions of one game are alike); it measures the loss and accuracy the paper's Figures 3 and
4 and Table 1 report.

Determinism and resumption: the games' split and the order of every epoch come from
generators seeded with (seed, epoch), and after every epoch a checkpoint holds the weights,
the optimizer's and the scheduler's states, the epoch and the curves so far, written to a
temporary file and renamed (a kill leaves the previous checkpoint whole). A run that finds a
checkpoint made with the same settings goes on from it, and ends with the same weights as one
that was never stopped (tested). A checkpoint holds tensors and plain settings only, and is
read with ``weights_only=True``: one that holds anything else is refused unread (a checkpoint
is a pickle, and a crafted pickle would run code; docs/explanation/security.md).
"""

from __future__ import annotations

import os
import pickle
import re
import time
import warnings
from collections import OrderedDict
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from nrpa.domains.registry import MorpionOptions, make_domain
from nrpa.errors import InputError, require
from nrpa.neural.data import GameSet
from nrpa.neural.networks import make_network, masked_logits
from nrpa.neural.planes import (
    CHANNELS, HISTORY, LAYOUT, SIZE, legal_from_planes, move_indices, positions_planes,
)
from nrpa.neural.torch_setup import describe, require_torch

torch = require_torch()


@dataclass(frozen=True)
class TrainSettings:
    network: str = "resnet"  # basic (BasicCNN) or resnet
    representation: str = "R2"  # R1 (9 planes) or R2 (17: R1 and the 8 previous moves)
    epochs: int = 80
    batch_size: int = 64
    learning_rate: float = 0.01
    decay_every: int = 40  # epochs between two divisions of the learning rate by 10
    momentum: float = 0.9
    validation: float = 0.1  # the share of the games held out
    seed: int = 0
    variant: str = "5D"
    planes: int = LAYOUT  # the planes' layout (nrpa.neural.planes.LAYOUT): another layout's checkpoint is refused

    def __post_init__(self):
        checks = [
            (self.representation in CHANNELS, f"representation={self.representation!r} is not valid: R1 or R2"),
            (self.epochs >= 1, f"epochs={self.epochs} is out of range: >= 1"),
            (self.batch_size >= 1, f"batch_size={self.batch_size} is out of range: >= 1"),
            (self.learning_rate > 0, f"learning_rate={self.learning_rate} is out of range: > 0"),
            (self.decay_every >= 1, f"decay_every={self.decay_every} is out of range: >= 1"),
            (0 <= self.validation < 1, f"validation={self.validation} is out of range: 0 <= v < 1"),
        ]
        require(checks)


@dataclass
class Batches:
    """Planes, legal masks and target indices of positions of a game set, drawn batch by batch
    (numba computes the planes: no torch there)."""

    game_set: GameSet
    settings: TrainSettings

    def __post_init__(self):
        self.domain = make_domain(MorpionOptions(variant=self.settings.variant)).kernel_domain()
        self.history = HISTORY[self.settings.representation]
        self.channels = CHANNELS[self.settings.representation]

    def arrays(self, game_of: np.ndarray, ply_of: np.ndarray):
        planes = np.zeros((len(game_of), self.channels, SIZE, SIZE), dtype=np.float32)
        targets = np.zeros(len(game_of), dtype=np.int64)
        positions_planes(self.domain, self.game_set.games, self.game_set.lengths, game_of, ply_of, self.history,
                         planes, targets)
        return planes, targets

    def tensors(self, game_of, ply_of, device):
        planes, targets = self.arrays(game_of, ply_of)
        legal = legal_from_planes(planes)
        return (torch.from_numpy(planes).to(device), torch.from_numpy(legal).to(device),
                torch.from_numpy(targets).to(device))


def split(game_set: GameSet, settings: TrainSettings) -> tuple[np.ndarray, np.ndarray]:
    """(training games, held-out games): a seeded permutation of the games."""
    order = np.random.default_rng([settings.seed, 0]).permutation(len(game_set))
    held = int(round(settings.validation * len(game_set)))
    return np.sort(order[held:]), np.sort(order[:held])


def usable(batches: Batches, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions of ``games`` whose move the network can play (its line starts inside the
    30 x 30 window: target index >= 0)."""
    game_of, ply_of = batches.game_set.positions(games)
    keep = move_indices(batches.game_set.games[game_of, ply_of]) >= 0
    return game_of[keep], ply_of[keep]


def evaluate(network, batches: Batches, positions, device, batch_size: int) -> tuple[float, float]:
    """Mean cross-entropy and accuracy (the most probable legal move is the one played)."""
    loss, correct = predictions(network, batches, positions, device, batch_size)
    return loss, (int(correct.sum()) / correct.size if correct.size else float("nan"))


def predictions(network, batches: Batches, positions, device, batch_size: int) -> tuple[float, np.ndarray]:
    """Mean cross-entropy over ``positions`` and, per position in their order, whether the
    network's most probable legal move is the one played."""
    game_of, ply_of = positions
    if len(game_of) == 0:
        return float("nan"), np.zeros(0, dtype=bool)
    network.eval()
    loss_sum, correct = 0.0, []
    with torch.no_grad():
        for first in range(0, len(game_of), batch_size):
            chunk = slice(first, first + batch_size)
            planes, legal, targets = batches.tensors(game_of[chunk], ply_of[chunk], device)
            logits = masked_logits(network(planes), legal)
            loss_sum += float(torch.nn.functional.cross_entropy(logits, targets, reduction="sum"))
            correct.append((logits.argmax(1) == targets).cpu().numpy())
    return loss_sum / len(game_of), np.concatenate(correct)


def held_out_correct(network, game_set: GameSet, settings: TrainSettings, device=None) -> tuple[np.ndarray, np.ndarray]:
    """The held-out positions a trained network is measured on (Table 1), as (the game of each,
    an index into ``game_set``; whether the network's most probable legal move there is the one
    played). Networks trained with the same seed and held-out share on the same game set are
    measured on the same positions, in the same order: their correctness pairs position by
    position (the claims on Table 1 compare them so)."""
    batches = Batches(game_set, settings)
    positions = usable(batches, split(game_set, settings)[1])
    return positions[0], predictions(network, batches, positions, device or torch.device("cpu"),
                                     settings.batch_size)[1]


def train_epoch(network, optimizer, batches: Batches, positions, settings: TrainSettings, epoch: int, device,
                progress: bool = True) -> tuple[float, float]:
    """One epoch over ``positions`` in an order seeded by (seed, epoch): the mean loss and
    accuracy of its batches."""
    network.train()
    game_of, ply_of = positions
    order = torch.randperm(len(game_of), generator=torch.Generator().manual_seed(
        settings.seed * 1_000_003 + epoch)).numpy()
    loss_sum, correct = 0.0, 0
    bar = tqdm(range(0, len(order), settings.batch_size), desc=f"epoch {epoch + 1}/{settings.epochs}",
               unit="batch", disable=not progress, dynamic_ncols=True, mininterval=1.0)
    for first in bar:
        chosen = order[first:first + settings.batch_size]
        planes, legal, targets = batches.tensors(game_of[chosen], ply_of[chosen], device)
        logits = masked_logits(network(planes), legal)
        loss = torch.nn.functional.cross_entropy(logits, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_sum += loss.item() * len(chosen)
        correct += int((logits.argmax(1) == targets).sum())
        bar.set_postfix(loss=f"{loss.item():.3f}", refresh=False)
    return loss_sum / len(order), correct / len(order)


def train(game_set: GameSet, settings: TrainSettings, checkpoint: Path, *, device=None,
          stop_after: int | None = None, progress: bool = True) -> dict:
    """Train (or resume from ``checkpoint``) to ``settings.epochs``; ``stop_after``: stop after
    that many epochs of this call (the tests' kill). Returns the checkpoint's content: the
    network's weights, the curves, the settings and the device."""
    device = device or torch.device("cpu")
    batches = Batches(game_set, settings)
    train_games, held_games = split(game_set, settings)
    train_positions = usable(batches, train_games)
    held_positions = usable(batches, held_games)
    if len(train_positions[0]) == 0:
        raise InputError("the game set has no position to train on")
    torch.manual_seed(settings.seed)
    network = make_network(settings.network, batches.channels).to(device)
    optimizer = torch.optim.SGD(network.parameters(), lr=settings.learning_rate, momentum=settings.momentum)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=settings.decay_every, gamma=0.1)
    state = {"settings": asdict(settings), "epoch": 0, "curves": [],
             "data": {"games": len(game_set), "train_positions": len(train_positions[0]),
                      "held_out_positions": len(held_positions[0]), "provenance": game_set.provenance}}
    if checkpoint.is_file():
        saved = load_checkpoint(checkpoint, device)
        if saved["settings"] != state["settings"] or saved["data"]["games"] != len(game_set):
            raise InputError(f"{checkpoint} was made with other settings or data: delete it to train anew "
                             f"(it has {saved['settings']})")
        network.load_state_dict(saved["network"])
        optimizer.load_state_dict(saved["optimizer"])
        scheduler.load_state_dict(saved["scheduler"])
        state.update(epoch=saved["epoch"], curves=saved["curves"])
    state["device"] = describe(device)
    done_here = 0
    for epoch in range(state["epoch"], settings.epochs):
        if stop_after is not None and done_here >= stop_after:
            break
        started = time.perf_counter()
        train_loss, train_accuracy = train_epoch(network, optimizer, batches, train_positions, settings, epoch,
                                                 device, progress)
        scheduler.step()
        held_loss, held_accuracy = evaluate(network, batches, held_positions, device, settings.batch_size)
        state["curves"].append({"epoch": epoch + 1, "learning_rate": optimizer.param_groups[0]["lr"],
                                "train_loss": train_loss, "train_accuracy": train_accuracy,
                                "held_out_loss": held_loss, "held_out_accuracy": held_accuracy,
                                "seconds": time.perf_counter() - started})
        state["epoch"] = epoch + 1
        done_here += 1
        save_checkpoint(checkpoint, {**state, "network": network.state_dict(), "optimizer": optimizer.state_dict(),
                                     "scheduler": scheduler.state_dict()})
    return {**state, "network": network.state_dict()}


def save_checkpoint(path: Path, content: dict) -> None:
    """Write ``content`` (tensors and plain settings only: ``plain``) to a temporary file and
    rename it, so that a kill leaves the previous checkpoint whole."""
    content = plain(content)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    torch.save(content, temporary)
    os.replace(temporary, path)


def plain(value, where: str = "the checkpoint"):
    """``value`` as a checkpoint may hold it: tensors, dicts (str or int keys), lists, tuples,
    str, int, float, bool and None, numpy numbers and arrays made Python numbers and lists;
    anything else is a bug (TypeError naming where it is). ``torch.load(weights_only=True)``
    reads these and nothing that runs code; the networks', optimizers' and schedulers' state
    dicts are of them already (their OrderedDicts kept as they are)."""
    if isinstance(value, np.generic):  # before float: numpy's float64 is one, and pickles as numpy's
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str, torch.Tensor)):
        return value
    if isinstance(value, np.ndarray):
        return value.tolist()
    if type(value) in (list, tuple):
        items = [plain(item, f"{where}[{index}]") for index, item in enumerate(value)]
        return value if all(new is old for new, old in zip(items, value)) else type(value)(items)
    if isinstance(value, dict) and type(value) in (dict, OrderedDict):
        for key in value:
            if not isinstance(key, (str, int)):
                raise TypeError(f"{where} has a key of type {type(key).__name__}: a checkpoint's keys are str or int")
        items = {key: plain(item, f"{where}[{key!r}]") for key, item in value.items()}
        if all(items[key] is item for key, item in value.items()):
            return value
        copy = type(value)(items)
        if hasattr(value, "_metadata"):  # a state dict's module versions (load_state_dict reads them)
            copy._metadata = value._metadata
        return copy
    raise TypeError(f"{where} holds a {type(value).__name__}: a checkpoint holds tensors and plain settings only")


_REMAKE = "make morpion-table1 trains the imitation networks, make morpion-table4 the Expert Iteration rows"


def load_checkpoint(path: Path, device) -> dict:
    """A checkpoint's content, read with ``weights_only=True``: tensors and plain settings, and
    nothing that runs code (a checkpoint is a pickle, and a crafted pickle runs what it names
    when read without it). InputError, one line, for a file that holds anything else (refused
    before anything it names runs), or a damaged one (checkpoints are written whole or not at all, so damage comes from
    elsewhere: a full disk, a copy cut short)."""
    try:
        with warnings.catch_warnings():  # torch's warning about a pickle not of torch.save: refused below anyway
            warnings.filterwarnings("ignore", message="Detected pickle protocol")
            return torch.load(path, map_location=device, weights_only=True)
    except pickle.UnpicklingError as error:
        if "Weights only load failed" not in str(error):
            raise InputError(f"{path} is damaged or not a checkpoint (UnpicklingError): delete it to start that "
                             "training anew") from None
        named = re.search(r"GLOBAL (\S+)", str(error))
        holds = f"it names {named.group(1)}" if named else "damaged, or more than tensors and plain settings"
        raise InputError(f"{path} is not a plain checkpoint ({holds}) and was not loaded: this project's "
                         f"checkpoints hold tensors and plain settings only; if it is one of yours, delete it and "
                         f"remake it ({_REMAKE})") from None
    except Exception as error:  # torch raises many kinds (zip, runtime, key) for a bad file
        raise InputError(f"{path} is damaged or not a checkpoint ({type(error).__name__}): delete it to start "
                         "that training anew") from None


def load_network(checkpoint: Path, device=None):
    """The trained network of a checkpoint, in eval mode, and its settings."""
    device = device or torch.device("cpu")
    if not checkpoint.is_file():
        raise InputError(f"no trained network at {checkpoint}: train it first")
    saved = load_checkpoint(checkpoint, device)
    if saved["settings"].get("planes") != LAYOUT:
        raise InputError(f"{checkpoint} was trained on another layout of the input planes: delete it and train "
                         "the network anew")
    settings = TrainSettings(**saved["settings"])
    network = make_network(settings.network, CHANNELS[settings.representation]).to(device)
    network.load_state_dict(saved["network"])
    network.eval()
    return network, settings
