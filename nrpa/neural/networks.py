"""The Morpion paper's networks (Doux, Negrevergne, Cazenave, section 3.2).

BasicCNN, as the paper gives it ("a fully convolutional neural network with 4 convolutional
layers. The first 3 layers have 32 filters with 3x3 kernels, and the last convolutional layer
has 4 filters with 1x1 kernels to match the output"): 3 convolutions of 32 filters 3 x 3, then
a 1 x 1 convolution to 4 planes: one logit per point and direction, 3600 outputs ("n^2 d"; n =
30, d = 4) in the order of ``nrpa.neural.planes.move_index`` (d * 900 + row * 30 + column: the
start point of the move's line). ReLU and padding 1 (the 30 x 30 board kept) are ours: the
paper does not say. ResNet ("a residual neural network [8] with 4 convolutional layers with the
same type and number of filters"): the same layers, the second and third each adding its input
to its output; where the residual connections go is not said: our reading. Illegal moves are
masked out of the softmax (``masked_logits``).
"""

from __future__ import annotations

from nrpa.neural.torch_setup import require_torch

torch = require_torch()
nn = torch.nn

NETWORKS = ("basic", "resnet")
FILTERS = 32
DIRECTIONS = 4


class MorpionNet(nn.Module):
    """BasicCNN (``residual=False``) or its residual version, for ``channels`` input planes."""

    def __init__(self, channels: int, residual: bool, filters: int = FILTERS):
        super().__init__()
        self.residual = residual
        self.first = nn.Conv2d(channels, filters, 3, padding=1)
        self.second = nn.Conv2d(filters, filters, 3, padding=1)
        self.third = nn.Conv2d(filters, filters, 3, padding=1)
        self.head = nn.Conv2d(filters, DIRECTIONS, 1)

    def forward(self, planes):
        x = torch.relu(self.first(planes))
        for layer in (self.second, self.third):
            y = torch.relu(layer(x))
            x = x + y if self.residual else y
        return self.head(x).flatten(1)  # [batch, 4 * 30 * 30]: direction-major, as move_index


def make_network(name: str, channels: int) -> MorpionNet:
    if name not in NETWORKS:
        from nrpa.errors import InputError, did_you_mean

        raise InputError(f"network={name!r} is not valid: {did_you_mean(name, NETWORKS)}")
    return MorpionNet(channels, residual=name == "resnet")


def masked_logits(logits, legal):
    """``logits`` with the illegal moves (``legal`` False) at -inf: a softmax over them
    gives the illegal moves probability 0 exactly."""
    return logits.masked_fill(~legal, float("-inf"))
