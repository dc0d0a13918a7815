"""GNRPA's bias from the user's choice (``domain.bias``): none, the domain's own, or a table.

``domain.bias`` is ``none``; the name of one of the domain's biases (its ``BIASES``, computed
in the playout by the domain's ``bias`` function: SameGame ``tabu``, TSPTW ``time``); or the
path of a file giving beta per move code, for any domain (the neural policies fill one):

* ``.npz`` with two 1-D arrays, ``codes`` (integers) and ``bias`` (finite floats);
* ``.csv`` with the header ``code,bias`` and a row per code.

A code the file does not list has beta = 0. The kernels read the table as one row of a
policy-like hash table holding exp(beta) (``nrpa.policy``), so a playout looks a bias up as
it looks a weight up. The caller that runs a search builds it from the domain's adapter
(``bias_for``) and hands it to ``nrpa.search.run_search``.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from nrpa import policy as pol
from nrpa.errors import InputError

# Params.bias: where a playout's biases come from (nrpa.nested._policy_playout)
NO_BIAS, DOMAIN_BIAS, TABLE_BIAS = 0, 1, 2
MIN_TABLE_BITS = 10  # the policy tables' smallest size (and the empty table's)


@dataclass(frozen=True)
class KernelBias:
    """The bias as the kernels take it (``Params.bias``, ``bias_keys``, ``bias_factors``,
    ``bias_shift``). ``description`` says what it is, for run files and labels."""

    kind: int
    keys: np.ndarray
    factors: np.ndarray
    shift: np.uint64
    description: str


def _table(codes: np.ndarray, betas: np.ndarray, kind: int, description: str) -> KernelBias:
    bits = MIN_TABLE_BITS
    while (1 << bits) * pol.MAX_LOAD <= codes.size:
        bits += 1
    table = pol.new_policy(0, bits, 0)  # hashed: the playout looks bias codes up with pol.GOLDEN
    pol.fill_row(table, 0, codes, betas)
    return KernelBias(kind, table.keys, table.exp_weights, table.shift, description)


def table_bias(codes: np.ndarray, betas: np.ndarray, description: str) -> KernelBias:
    """A bias table built in the program (a network's logits: nrpa/neural/bias.py), as a
    bias file would give it."""
    return _table(np.asarray(codes, dtype=np.int64), np.asarray(betas, dtype=np.float64), TABLE_BIAS, description)


def no_bias() -> KernelBias:
    return _table(np.zeros(0, dtype=np.int64), np.zeros(0), NO_BIAS, "none")


def domain_bias(name: str) -> KernelBias:
    return _table(np.zeros(0, dtype=np.int64), np.zeros(0), DOMAIN_BIAS, name)


def read_table(path: str) -> tuple[np.ndarray, np.ndarray]:
    """(codes, betas) from a ``.npz`` or ``.csv`` bias file; InputError naming what is wrong."""
    file = Path(path)
    where = f"domain.bias={path!r}"
    if file.suffix not in (".npz", ".csv"):
        raise InputError(f"{where} is neither a bias of this domain nor a bias file (.npz or .csv)")
    if not file.is_file():
        raise InputError(f"{where}: no such bias file")
    try:
        if file.suffix == ".npz":
            with np.load(file, allow_pickle=False) as data:
                missing = [name for name in ("codes", "bias") if name not in data]
                if missing:
                    raise InputError(f"{where}: the .npz file lacks the array(s) {', '.join(missing)} "
                                     "(it needs 'codes' and 'bias')")
                codes, betas = data["codes"], data["bias"]
        else:
            with file.open(newline="") as handle:
                rows = list(csv.reader(handle))
            if not rows or [cell.strip() for cell in rows[0]] != ["code", "bias"]:
                raise InputError(f"{where}: the first line must be the header 'code,bias'")
            body = [row for row in rows[1:] if row]
            bad = next((n for n, row in enumerate(body, start=2) if len(row) != 2), None)
            if bad is not None:
                raise InputError(f"{where}, line {bad}: two values are needed (code,bias)")
            try:
                codes = np.array([int(row[0]) for row in body], dtype=np.int64)
                betas = np.array([float(row[1]) for row in body])
            except ValueError as error:
                raise InputError(f"{where}: {error}") from None
    except (OSError, ValueError) as error:
        raise InputError(f"{where}: unreadable bias file ({error})") from None
    if codes.ndim != 1 or betas.ndim != 1 or codes.size != betas.size:
        raise InputError(f"{where}: 'codes' and 'bias' must be 1-D arrays of the same length "
                         f"(got shapes {codes.shape} and {betas.shape})")
    if codes.size and not np.issubdtype(codes.dtype, np.integer):
        raise InputError(f"{where}: the codes must be integers (got {codes.dtype})")
    if not np.all(np.isfinite(betas.astype(np.float64))):
        raise InputError(f"{where}: every bias must be a finite number")
    codes = codes.astype(np.int64)
    if np.unique(codes).size != codes.size:
        raise InputError(f"{where}: a code is listed twice")
    return codes, betas.astype(np.float64)


def kernel_bias(choice: str, domain_biases, weight: float = 1.0) -> KernelBias:
    """The kernels' bias for ``domain.bias=choice`` on a domain whose own biases are
    ``domain_biases`` (names). InputError, before any work, for a bad choice or file."""
    if choice == "none":
        return no_bias()
    if not (math.isfinite(weight) and weight >= 0):
        raise InputError(f"domain.bias_weight={weight} is out of range: it must be >= 0")
    if choice in domain_biases:
        return domain_bias(choice)
    if not choice.endswith((".npz", ".csv")):
        raise InputError(f"domain.bias={choice!r} is not valid: choose none, "
                         + "".join(f"{name}, " for name in domain_biases if name != "none")
                         + "or the path of a bias file (.npz or .csv)")
    codes, betas = read_table(choice)
    return _table(codes, betas, TABLE_BIAS, f"table {choice} ({codes.size} codes)")


def bias_for(domain) -> KernelBias:
    """The kernels' bias of a domain adapter (``nrpa.domains.adapter``): its options' ``bias``
    and ``bias_weight`` (1 where the domain has none) over its own ``biases``. InputError,
    before any work, for a bad choice or file."""
    return kernel_bias(domain.options.bias, domain.biases, getattr(domain.options, "bias_weight", 1.0))
