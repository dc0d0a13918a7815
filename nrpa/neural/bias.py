"""A network's logits as GNRPA's bias: NeuralNRPA (the Morpion paper, section 4).

The paper: "NeuralNRPA(1) and NeuralNRPA(2) are GNRPA [5] of level 1 and 2 with the bias given
by the policy output by the neural network", sped up since "moves are often commutative ... We
can exploit this property and make a single forward pass for an entire game (including the
many rollouts)". Our reading of what it leaves open: the forward pass is made on the position
the search starts from (the cross), and beta(move) = logit of the move's line / temperature
(where the Table 4 temperature enters NeuralNRPA is not said), for every line
starting inside the 30 x 30 window (each of its 5 possible new dots is a move code: the kernel
move id, ``line * 5 + k``); a move outside the window has beta = 0. GNRPA then draws a move
with probability proportional to exp(w / tau + beta): with a fresh policy, the network's own
softmax at the root. A network whose logits are all 0 gives beta = 0 everywhere: NRPA (tested).
"""

from __future__ import annotations

import numpy as np

from nrpa.bias import KernelBias, table_bias
from nrpa.domains.morpion_board import WIDTH
from nrpa.neural.planes import OFFSET, SIZE
from nrpa.neural.play import network_logits, new_game
from nrpa.neural.torch_setup import require_torch


def line_codes() -> np.ndarray:
    """The move codes of every output index: [3600, 5], row d * 900 + r * 30 + c holding the
    5 kernel move ids of the line of direction d starting at window cell (r, c)."""
    d, row, column = np.meshgrid(np.arange(4), np.arange(SIZE), np.arange(SIZE), indexing="ij")
    lines = ((OFFSET + row) * WIDTH + OFFSET + column) * 4 + d
    return lines.reshape(-1, 1) * 5 + np.arange(5)


def network_betas(network, representation: str, domain, temperature: float = 1.0, device=None):
    """(codes, betas) of the bias: one forward pass on the initial position."""
    network.eval()
    logits = network_logits(network, representation, domain, [new_game(domain)],
                            device or require_torch().device("cpu"))[0]
    codes = line_codes()
    betas = np.repeat(logits[:, None] / temperature, 5, axis=1)
    return codes.ravel(), betas.ravel()


def network_bias(network, representation: str, domain, temperature: float = 1.0, device=None) -> KernelBias:
    """The kernels' GNRPA bias from the network (``run_search(..., bias)`` with algo=gnrpa)."""
    codes, betas = network_betas(network, representation, domain, temperature, device)
    return table_bias(codes, betas, f"network logits / {temperature:g} ({representation})")
