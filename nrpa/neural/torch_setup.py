"""PyTorch for the neural policies: imported only here, with a clear error when it is missing,
and the device every neural output names.

PyTorch is an optional dependency (``make install`` installs it, ``make install NEURAL=no``
does not); the rest of the harness never imports it.
"""

from __future__ import annotations

import os

from nrpa.errors import InputError


def require_torch():
    """The ``torch`` module, or InputError saying how to install it."""
    try:
        import torch
    except ImportError:
        raise InputError("the neural Morpion targets need PyTorch, which this installation skipped "
                         "(make install NEURAL=no): run `make install` to add it") from None
    # nrpa sets OMP_NUM_THREADS=1 for the searches' CPU clocks; training and inference want
    # every core of the machine.
    torch.set_num_threads(os.cpu_count() or 1)
    return torch


def pick_device(name: str = "auto"):
    """``auto``: CUDA when there is a GPU, else the CPU; or ``cpu`` / ``cuda`` as asked."""
    torch = require_torch()
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name not in ("cpu", "cuda"):
        raise InputError(f"device={name!r} is not valid: choose auto, cpu or cuda")
    if name == "cuda" and not torch.cuda.is_available():
        raise InputError("device=cuda: PyTorch sees no CUDA GPU here: use device=auto or cpu")
    return torch.device(name)


def describe(device) -> str:
    """The device in words, for every output: 'cpu (2 threads)' or the GPU's name."""
    torch = require_torch()
    if device.type == "cuda":
        return f"cuda ({torch.cuda.get_device_name(device)})"
    return f"cpu ({torch.get_num_threads()} threads)"
