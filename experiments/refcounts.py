"""numba's atomic reference counts on the hot paths, counted in the compiled code, against a
committed budget (`make bench ARGS=--refcounts`; `tests/test_refcounts.py` runs it in the slow suite).

numba acquires an array (an atomic increment of its reference count, ``NRT_incref``) when a
function receives it or reads it from a NamedTuple, and releases it (``NRT_decref``) after its
last use; an LLVM pass removes the pairs it can prove redundant, and what it leaves costs an
atomic instruction each, per call. On the step of a playout they were a sixth of NRPA's run
time on SameGame (docs/explanation/kernels.md says how a domain keeps them out).

This compiles GNRPA with a bias (whose playout is NRPA's, the bias chosen at run time) on
every domain type with an empty kernel cache (so that the optimized LLVM IR of each function
is there to read), then counts the calls to ``NRT_incref`` and ``NRT_decref`` in
the IR of each hot function, its callees included (a callee compiled apart and called counts
its own): per domain,

* ``legal_moves``, ``play``, ``score``, ``reset``, ``bias``: the contract's functions as the
  playout calls them (the contract's forwarder with the domain's function inlined in it);
* ``playout step loop``: the updates inside the loops of ``_policy_playout`` (a step);
* ``playout entry and exit``: those outside its loops (once a playout: the arrays it receives);
* ``adapt``, ``copy_sequence``, ``end_playout``: once a level-1 iteration or a playout.

The counts are of the code, not of a run: an update in a branch counts once, taken or not.
A count above its ``BUDGET`` fails, naming the function and the domain.

    python -m experiments.refcounts        # compiles in a temporary kernel cache (1.5 to 2 minutes)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

# Atomic updates (increments + decrements) a call may keep, per function, on every domain.
# Zero wherever a function runs at each step or each playout; the playout's entry and exit and
# Adapt keep theirs for the reasons given (each is once a playout or an iteration, 1-3% of it).
BUDGET = {
    "legal_moves": 0,
    "play": 0,
    "score": 0,
    "bias": 0,
    "playout step loop": 0,
    "end_playout": 0,
    "copy_sequence": 0,
    # Morpion's: LLVM turns a switch on the direction into one with an `unreachable` default,
    # which is a way out of the function for the pruning pass (1 pair of the state's arrays)
    "reset": 4,
    # the arrays the playout receives: its loop calls the domain's functions, and a call can
    # raise, a way out on which the pass cannot pair them (40 to 50 pairs, by domain)
    "playout entry and exit": 100,
    # Adapt's insertion raises when the policy table is full: the same (7 and 22)
    "adapt": 30,
}
CONTRACT_CALLS = ("legal_moves", "play", "score", "reset", "bias")
FRESH_CACHE_FLAG = "--in-this-process"  # the child that compiles, in a cache of its own

DEFINE = re.compile(r'^define [^@]*@("?)([^"(]+)\1\(.*?^}$', re.S | re.M)
BLOCK_LABEL = re.compile(r'^("?[\w.$-]+"?):.*$', re.M)
CALL = re.compile(r'call [^@]*@("?)([^"(]+)\1\(')
BRANCH_TARGET = re.compile(r'label %("?)([\w.$-]+)\1')
FORWARDER = re.compile(r"_3cdynamic_3e\d+_(" + "|".join(CONTRACT_CALLS) + r")B\d")


def functions(ir: str) -> dict[str, str]:
    """The functions a module defines: mangled name -> body."""
    return {match.group(2): match.group(0) for match in DEFINE.finditer(ir)}


def _blocks(body: str) -> tuple[list[str], list[bool]]:
    """The text of each basic block of a function body, and whether it lies in a loop (in a
    strongly connected part of the control-flow graph)."""
    parts = BLOCK_LABEL.split(body)
    names = ["<entry>"] + [name.strip('"') for name in parts[1::2]]
    texts = [parts[0]] + parts[2::2]
    index = {block: i for i, block in enumerate(names)}
    edges = [(i, index[m.group(2)]) for i, text in enumerate(texts) for m in BRANCH_TARGET.finditer(text)
             if m.group(2) in index]
    graph = csr_matrix((np.ones(len(edges)), ([a for a, _ in edges], [b for _, b in edges])),
                       shape=(len(names), len(names)))
    _, component = connected_components(graph, directed=True, connection="strong")
    size = Counter(component)
    self_loop = graph.diagonal() > 0
    return texts, [size[component[i]] > 1 or self_loop[i] for i in range(len(names))]


def counts(module: dict[str, str], name: str, memo: dict | None = None) -> dict[str, int]:
    """The reference-count updates of function ``name`` of ``module``: ``increfs`` and
    ``decrefs``, each callee defined in the module counted with its own; ``loop_increfs`` and
    ``loop_decrefs``, those inside its loops (a callee called in a loop counts wholly there);
    ``own_increfs`` and ``own_decrefs``, its own outside its loops, callees left out."""
    memo = {} if memo is None else memo
    if name not in memo:
        memo[name] = dict.fromkeys(("increfs", "decrefs", "loop_increfs", "loop_decrefs", "own_increfs",
                                    "own_decrefs"), 0)  # what a recursive call adds
        total = dict(memo[name])
        texts, in_loop = _blocks(module[name])
        for text, looped in zip(texts, in_loop):
            for match in CALL.finditer(text):
                callee = match.group(2)
                own = callee in ("NRT_incref", "NRT_decref")
                if own:
                    found = (int(callee == "NRT_incref"), int(callee == "NRT_decref"))
                elif callee in module and callee != name:
                    found = tuple(counts(module, callee, memo)[key] for key in ("increfs", "decrefs"))
                else:
                    continue
                for prefix, applies in (("", True), ("loop_", looped), ("own_", own and not looped)):
                    if applies:
                        total[prefix + "increfs"] += found[0]
                        total[prefix + "decrefs"] += found[1]
        memo[name] = total
    return memo[name]


def _workloads() -> dict:
    """One setting per domain type (the kernels are compiled per type, not per setting), with a
    GNRPA bias where the domain has one."""
    from nrpa.domains.registry import (
        BusOptions, KnapsackOptions, MaximumOptions, MorpionOptions, SameGameOptions, TsptwOptions,
        WeakSchurOptions,
    )
    return {
        "SameGame": SameGameOptions(board="1", policy="tabu", bias="tabu"),
        "Morpion": MorpionOptions(variant="5D"),
        "Morpion line_span 6": MorpionOptions(variant="5D", line_span=6),
        "TSPTW": TsptwOptions(instance="rc_204.1", policy="pruned", bias="time"),
        "Weak Schur": WeakSchurOptions(parts=7, policy="rule"),
        "Maximum": MaximumOptions(max_atoms=199),
        "Bus": BusOptions(model="bus_cpp", delta=4),
        "Knapsack": KnapsackOptions(),
    }


def measure() -> list[tuple[str, str, int | None, int | None]]:
    """(function, domain, increfs, decrefs) of every function counted, compiled here: the
    kernel cache must be empty (``main`` runs this in a child with a temporary one). A contract
    function that LLVM inlined into the playout has None: its updates are in the playout's rows."""
    from numba import typeof

    from nrpa import nested
    from nrpa.bias import bias_for
    from nrpa.domains.contract import REGISTERED
    from nrpa.domains.registry import make_domain
    from nrpa.search import SearchSettings, run_search

    rows = []
    for domain_name, options in _workloads().items():
        adapter = make_domain(options)
        domain = adapter.kernel_domain()
        # GNRPA with a bias compiles the playout NRPA runs (the bias is chosen at run time) and its bias branch
        run_search(domain, SearchSettings(algorithm="gnrpa", level=2, N=2, max_time=None, max_playouts=8,
                                          restart=False), bias_for(adapter))
        domain_type = str(typeof(domain))
        state_type = str(typeof(REGISTERED[type(domain)]["new_state"](domain)))
        playout = [c for sig, c in nested._policy_playout.overloads.items() if str(sig[0]) == domain_type]
        if len(playout) != 1:
            raise RuntimeError(f"{domain_name}: no playout compiled here for {domain_type} (is the kernel cache empty?)")
        module = functions(playout[0].library.get_llvm_str())
        name = playout[0].fndesc.mangled_name
        memo = {}
        found = counts(module, name, memo)
        rows.append(("playout step loop", domain_name, found["loop_increfs"], found["loop_decrefs"]))
        rows.append(("playout entry and exit", domain_name, found["own_increfs"], found["own_decrefs"]))
        called = []
        for callee in sorted(set(match.group(2) for match in CALL.finditer(module[name])) & set(module)):
            forwarder = FORWARDER.search(callee)
            label = forwarder.group(1) if forwarder else "end_playout" if "end_playout" in callee else None
            if label:
                rows.append((label, domain_name, memo[callee]["increfs"], memo[callee]["decrefs"]))
                called.append(label)
        # LLVM inlined the others into the playout: their updates are in its two rows
        rows += [(label, domain_name, None, None) for label in CONTRACT_CALLS if label not in called]
        for label, dispatcher in (("adapt", nested.adapt), ("copy_sequence", nested.copy_sequence)):
            compiled = [c for sig, c in dispatcher.overloads.items() if state_type in str(sig[0])]
            if compiled:  # Morpion's variants share their state type, hence these kernels
                own = counts(functions(compiled[0].library.get_llvm_str()), compiled[0].fndesc.mangled_name)
                rows.append((label, domain_name, own["increfs"], own["decrefs"]))
    return rows


def over_budget(rows) -> list[str]:
    """A line for each count above its budget."""
    return [f"{function} on {domain}: {increfs} + {decrefs} atomic updates a call, budget {BUDGET[function]}"
            for function, domain, increfs, decrefs in rows
            if increfs is not None and increfs + decrefs > BUDGET[function]]


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(FRESH_CACHE_FLAG, action="store_true", help=argparse.SUPPRESS)
    if not parser.parse_args(arguments).in_this_process:
        # numba keeps no IR of a kernel it loads from its cache: compile everything in a child
        # whose kernel cache is empty (nrpa reads NRPA_CACHE_ROOT when imported)
        with tempfile.TemporaryDirectory() as cache:
            return subprocess.run([sys.executable, "-m", "experiments.refcounts", FRESH_CACHE_FLAG],
                                  env={**os.environ, "NRPA_CACHE_ROOT": cache}).returncode
    rows = measure()
    print(f"{'function':24} {'domain':20} increfs decrefs budget")
    for function, domain, increfs, decrefs in rows:
        if increfs is None:
            print(f"{function:24} {domain:20} inlined in the playout: counted in its rows")
        else:
            print(f"{function:24} {domain:20} {increfs:7} {decrefs:7} {BUDGET[function]:6}")
    failures = over_budget(rows)
    print(*(["over budget:", *failures] if failures else ["every count within its budget"]), sep="\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
