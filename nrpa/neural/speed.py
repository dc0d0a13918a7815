"""The neural policies' speed on the device used, for ``make bench``: network forward
passes (states per second), training (examples per second) and sampled games."""

from __future__ import annotations

import time

import numpy as np

from nrpa.domains.morpion import make_morpion
from nrpa.neural.networks import make_network, masked_logits
from nrpa.neural.planes import CHANNELS, SIZE, legal_from_planes
from nrpa.neural.play import sample_games
from nrpa.neural.torch_setup import require_torch

torch = require_torch()


def _planes(batch: int, representation: str, seed: int = 0):
    """Random binary planes: the networks' cost does not depend on what the planes hold."""
    planes = np.random.default_rng(seed).random((batch, CHANNELS[representation], SIZE, SIZE)) < 0.1
    return torch.from_numpy(planes.astype(np.float32))


def forward_states_per_second(network: str, representation: str, batch: int, device, seconds: float) -> float:
    model = make_network(network, CHANNELS[representation]).to(device).eval()
    planes = _planes(batch, representation).to(device)
    done, started = 0, time.perf_counter()
    with torch.no_grad():
        while time.perf_counter() - started < seconds:
            model(planes)
            done += batch
        if device.type == "cuda":
            torch.cuda.synchronize()
    return done / (time.perf_counter() - started)


def training_examples_per_second(network: str, representation: str, batch: int, device, seconds: float) -> float:
    model = make_network(network, CHANNELS[representation]).to(device).train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    planes = _planes(batch, representation).to(device)
    legal = legal_from_planes(planes)
    legal[:, 0] = True  # at least one legal move per example
    targets = legal.float().argmax(1)
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        loss = torch.nn.functional.cross_entropy(masked_logits(model(planes), legal), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        done += batch
    if device.type == "cuda":
        torch.cuda.synchronize()
    return done / (time.perf_counter() - started)


def sampled_games_per_second(network: str, representation: str, games: int, device) -> tuple[float, float]:
    """(games, moves) per second of games sampled from an untrained network, ``games`` at once."""
    model = make_network(network, CHANNELS[representation]).to(device)
    domain = make_morpion("5D")
    sample_games(model, representation, domain, 2, device=device)  # compile the kernels first
    started = time.perf_counter()
    played = sample_games(model, representation, domain, games, device=device, batch=games)
    elapsed = time.perf_counter() - started
    return games / elapsed, float(played.scores.sum()) / elapsed


def cached_playouts_per_second(seconds: float) -> tuple[float, float]:
    """(playouts, moves) per second of one-forward-pass playouts (``nmcs_game(cached=True)``,
    the paper's NeuralNRPA speed-up applied to playouts; numba, CPU: moves drawn from fixed
    logits, random here, no forward pass)."""
    from nrpa.neural.play import new_game, playout_with_logits

    domain = make_morpion("5D")
    logits = np.random.default_rng(0).normal(size=4 * SIZE * SIZE)
    playout_with_logits(domain, new_game(domain), logits, 1.0, 0)  # compile first
    playouts = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        moves += len(playout_with_logits(domain, new_game(domain), logits, 1.0, playouts)[0])
        playouts += 1
    elapsed = time.perf_counter() - started
    return playouts / elapsed, moves / elapsed
