"""The algorithms users choose with ``algo=NAME``: each one's declaration, ``register(Algorithm(...))``
(``nrpa.search.Algorithm`` says what each field is), with its label, column name and checks.
``nrpa.search`` imports this module last, so ``ALGORITHMS`` holds them all once it is imported.
"""

from __future__ import annotations

import math

from nrpa.beam import beam_search
from nrpa.leaf_node import leaf_node_search
from nrpa.nested import nrpa_search
from nrpa.nmcs import nmcs_search
from nrpa.policy_averaging import policy_averaging_search
from nrpa.settings import Algorithm, SearchSettings, nrpa_parallel_identity, register
from nrpa.spmcts import spmcts_search
from nrpa.spmcts_parallel import averaged_trees_search, shared_tree_search


def _parallel_text(s: SearchSettings) -> str:
    """The NRPA parallel strategies in words (nrpa.leaf_node, nrpa.policy_averaging)."""
    if s.parallel == "averaged":
        return f", {s.threads} root searches averaging their policies every {s.average_every:g} s"
    if s.parallel != "none":
        return f", {s.parallel} policy at level {s.parallel_level} on {s.threads} thread(s)"
    return ""


def _nrpa_column(s: SearchSettings) -> str:
    return "NRPA" if s.P == 1 else f"SNRPA({s.P})"


def _nrpa_label(s: SearchSettings) -> str:
    return f"{_nrpa_column(s)} level {s.level} N={s.N} alpha={s.alpha:g}{_parallel_text(s)}"


def _nrpa_checks(s: SearchSettings) -> list[tuple[bool, str]]:
    return [
        (s.N >= 1, f"N={s.N} is out of range: it must be >= 1"),
        (math.isfinite(s.alpha) and s.alpha > 0, f"alpha={s.alpha} is out of range: it must be > 0"),
        (s.P >= 1, f"P={s.P} is out of range: it must be >= 1"),
    ]


def _gnrpa_column(s: SearchSettings) -> str:
    name = "GNRPA" if s.repetitions is None else f"GNRPA-LR(R={s.repetitions})"
    return name + (f" P={s.P}" if s.P > 1 else "")


def _gnrpa_label(s: SearchSettings) -> str:
    name = "GNRPA" if s.repetitions is None else f"GNRPA-LR(R={s.repetitions})"
    stabilized = f" P={s.P}" if s.P > 1 else ""
    return f"{name} level {s.level} N={s.N} alpha={s.alpha:g} tau={s.tau:g}{stabilized}{_parallel_text(s)}"


def _gnrpa_checks(s: SearchSettings) -> list[tuple[bool, str]]:
    return [
        *_nrpa_checks(s),
        (math.isfinite(s.tau) and s.tau > 0, f"tau={s.tau} is out of range: it must be > 0"),
        (s.repetitions is None or s.repetitions >= 1,
         f"repetitions={s.repetitions} is out of range: it must be >= 1 (or null: no limit)"),
        (s.repetitions is None or s.parallel == "none",
         f"repetitions={s.repetitions} (GNRPA-LR) runs sequentially only: set parallel=none, or use root=K "
         "for independent searches"),
    ]


BEAM_MEMORY_LIMIT = 4 * 2**30  # bytes of policy tables a Beam NRPA run may take


def _beam_policy_bytes(s: SearchSettings) -> int:
    """Beam NRPA's policy tables: 2B rows per level (nrpa/beam.py), each of 2**bits slots of
    32 bytes (key, weight, exp(weight), used-slot index)."""
    return (2 * s.beam * s.level + 1) * 2**s.policy_capacity_bits * 32


def _beam_checks(s: SearchSettings) -> list[tuple[bool, str]]:
    return [
        *_nrpa_checks(s),
        (1 <= s.beam <= 64, f"beam={s.beam} is out of range: 1..64 (B = 1 is NRPA)"),
        (_beam_policy_bytes(s) <= BEAM_MEMORY_LIMIT,
         f"beam={s.beam} at level={s.level} takes {_beam_policy_bytes(s) / 2**30:.1f} GiB of policy tables "
         f"(2B rows per level of 2**{s.policy_capacity_bits} slots), over the {BEAM_MEMORY_LIMIT / 2**30:g} GiB "
         "limit: lower beam, level or policy_capacity_bits"),
        (s.level >= 1, f"level={s.level} is out of range for Beam NRPA: it must be >= 1"),
        (s.P == 1, f"P={s.P}: Beam NRPA runs with P = 1 (SNRPA's P is not defined for a beam)"),
    ]


def _restarting_column(s: SearchSettings) -> str:
    return f"Restarting NRPA(K={s.patience})" + (f" P={s.P}" if s.P > 1 else "")


def _restarting_checks(s: SearchSettings) -> list[tuple[bool, str]]:
    return [
        *_nrpa_checks(s),
        (s.patience is not None and s.patience >= 1,
         f"patience={'null' if s.patience is None else s.patience} is out of range: it must be >= 1 (the level-1 "
         "iterations in a row without a better score after which the call goes back to the policy it started from)"),
    ]


def _spmcts_label(s: SearchSettings) -> str:
    moves = f" {s.simulations_per_move} simulations per move" if s.simulations_per_move else ""
    text = f"SP-MCTS C={s.C:g} D={s.D:g}{moves}"
    each = " each" if s.simulations_per_move else ""
    if s.parallel == "shared":
        text += f"{each}, one tree shared by {s.threads} thread(s), playing the most simulated move"
    elif s.parallel == "averaged" and s.share_every == 0:
        text += f"{each}, {s.threads} trees voting at the end (T0 = infinity) for the most simulated move"
    elif s.parallel in ("averaged", "cluster"):
        where = " on a dask cluster" if s.parallel == "cluster" else ""
        every = (f"{s.average_every:g} s" if s.parallel == "cluster"
                 else f"{s.share_every} simulations of each tree")
        text += (f"{each}, {s.threads} trees{where} averaging the statistics of their moves down to depth "
                 f"{s.share_depth} (at least {s.share_min_visits:g} visits) every {every}")
        if s.parallel == "averaged":
            text += ", playing the most simulated move"
    return text


TREE_NODE_BYTES = 92  # SP-MCTS: 7 int64 and 4 float64 arrays per node, plus the path and marks


def _spmcts_checks(s: SearchSettings) -> list[tuple[bool, str]]:
    return [
        (math.isfinite(s.C) and s.C >= 0, f"C={s.C} is out of range: it must be >= 0"),
        (math.isfinite(s.D) and s.D >= 0, f"D={s.D} is out of range: it must be >= 0"),
        (s.simulations_per_move >= 0,
         f"simulations_per_move={s.simulations_per_move} is out of range: >= 0 (0: one tree for the whole budget)"),
        (1 <= s.tree_nodes <= 2**28, f"tree_nodes={s.tree_nodes} is out of range: 1..2**28 "
                                     f"({TREE_NODE_BYTES} bytes per node in use)"),
        (s.max_time is not None or s.max_playouts is not None or (s.simulations_per_move > 0 and not s.restart),
         "SP-MCTS needs a budget: set max_time and/or max_playouts (or simulations_per_move > 0 and restart=false "
         "to play one game)"),
        (s.parallel != "cluster" or (s.simulations_per_move == 0 and s.max_time is not None
                                     and s.max_playouts is None),
         "parallel=cluster grows one tree per machine for the whole budget: set simulations_per_move=0 and a "
         "max_time budget (no max_playouts)"),
        (0 <= s.share_depth <= 16, f"share_depth={s.share_depth} is out of range: 0..16 (0: the root's moves)"),
        (math.isfinite(s.share_min_visits) and s.share_min_visits >= 0,
         f"share_min_visits={s.share_min_visits} is out of range: it must be >= 0"),
        (s.share_every >= 0, f"share_every={s.share_every} is out of range: >= 0 simulations of each tree "
                             "(0: T0 = infinity, the trees meet only at the decision)"),
        (s.parallel != "averaged" or s.average_every == SearchSettings.average_every,
         f"average_every={s.average_every}: SP-MCTS parallel=averaged averages every share_every simulations of "
         "each tree (Gelly's T0 in simulations); average_every is parallel=cluster's T0 in seconds"),
        (s.parallel != "cluster" or s.share_every == SearchSettings.share_every,
         f"share_every={s.share_every}: parallel=cluster averages every average_every wall-seconds; share_every "
         "is parallel=averaged's T0 in simulations of each tree"),
    ]


def _spmcts_parallel_identity(s: SearchSettings) -> dict:
    """The cluster's: its K trees, T0 in seconds, the depth and visits averaged. The threaded
    versions' also say that each thread or tree makes S simulations per move and that they
    play the most simulated move, so that the runs made before (S split among the threads or
    trees, the best top score played) are not taken for theirs."""
    if s.parallel == "cluster":
        return {"strategy": s.parallel, "searches": s.threads, "average_every": s.average_every,
                "share_depth": s.share_depth, "share_min_visits": s.share_min_visits}
    gelly = {"decision": "most simulated"}
    if s.parallel == "averaged":
        return {"strategy": s.parallel, "searches": s.threads, "share_every": s.share_every,
                "share_depth": s.share_depth, "share_min_visits": s.share_min_visits, "per_move": "each tree", **gelly}
    return {**nrpa_parallel_identity(s), "per_move": "each thread", **gelly}


NRPA_KERNELS = {"none": nrpa_search, "shared": leaf_node_search, "thread_local": leaf_node_search,
                "averaged": policy_averaging_search}
def _nrpa_only_checks(s: SearchSettings) -> list[tuple[bool, str]]:
    return [*_nrpa_checks(s),
            (s.P == 1, f"P={s.P} is the Stabilized NRPA parameter: NRPA is SNRPA(1); use algo=snrpa P={s.P}")]


register(Algorithm("nrpa", "NRPA", NRPA_KERNELS, ("level", "N", "alpha", "P"), _nrpa_label, _nrpa_only_checks,
                   column=_nrpa_column))
register(Algorithm("snrpa", "Stabilized NRPA", {"none": nrpa_search}, ("level", "N", "alpha", "P"), _nrpa_label,
                   _nrpa_checks, same_as=lambda s: "nrpa" if s.P == 1 else None, column=_nrpa_column))
# GNRPA's identity has its own keys: NRPA's runs keep theirs.
register(Algorithm("gnrpa", "GNRPA", NRPA_KERNELS, ("level", "N", "alpha", "P", "tau", "repetitions"), _gnrpa_label,
                   _gnrpa_checks, own_settings=("tau", "repetitions"), biased=True, column=_gnrpa_column,
                   examples={"tau": 0.5, "repetitions": 1}))
register(Algorithm("beam", "Beam NRPA", {"none": beam_search}, ("level", "N", "alpha", "beam"),
                   lambda s: f"Beam NRPA(B={s.beam}) level {s.level} N={s.N} alpha={s.alpha:g}", _beam_checks,
                   own_settings=("beam",), column=lambda s: f"Beam NRPA(B={s.beam})", examples={"beam": 2}))
# The worked example of docs/howto/add-algorithm.md: a step of nrpa_until (nrpa/nested.py),
# sequential only (the step restores the policy a level-1 call of nrpa_search starts from).
register(Algorithm("rnrpa", "Restarting NRPA", {"none": nrpa_search}, ("level", "N", "alpha", "P", "patience"),
                   lambda s: f"{_restarting_column(s)} level {s.level} N={s.N} alpha={s.alpha:g}",
                   _restarting_checks, own_settings=("patience",), column=_restarting_column,
                   examples={"patience": 2}))
register(Algorithm("nmcs", "NMCS", {"none": nmcs_search}, ("level",), lambda s: f"NMCS level {s.level}"))
register(Algorithm("spmcts", "SP-MCTS",
                   {"none": spmcts_search, "shared": shared_tree_search, "averaged": averaged_trees_search,
                    "cluster": None},
                   ("C", "D", "simulations_per_move", "tree_nodes"), _spmcts_label, _spmcts_checks,
                   own_settings=("C", "D", "simulations_per_move", "tree_nodes", "share_depth", "share_min_visits",
                                 "share_every"),
                   parallel_identity=_spmcts_parallel_identity,
                   # tree_nodes under the contract's 240 simulations: a pool that fills up
                   examples={"C": 0.0, "D": 1.0, "simulations_per_move": 20, "tree_nodes": 64, "share_depth": 1,
                             "share_min_visits": 0.0, "share_every": 3}))
