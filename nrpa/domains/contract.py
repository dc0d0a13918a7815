"""The domain contract: the only functions the search kernels call on a problem.

A domain is two NamedTuple classes of numpy arrays and scalars:

* the *domain* value (read-only during a search): the problem instance and its settings,
  for example the initial board, the Zobrist table and the playout-policy rule;
* the *state* value (mutable arrays only): one position of the problem. Kernels allocate a
  few states up front and never allocate inside the search loop.

Each domain module implements every function below as an ``@njit`` function and registers
them once, with ``register(DomainClass, new_state=..., reset=..., ...)``, which installs one
numba overload per stub dispatching on the NamedTuple class of the domain argument. The
algorithms are plain module-level ``@njit(cache=True)`` functions that call the stubs, so one
compiled algorithm serves each domain and loads from numba's disk cache in a new process.

Types used throughout:

* move: ``int64``, an opaque id that ``play`` understands in the state it was generated in;
* code: ``int64``, the key of the move in the policy table (a 64-bit hash for SameGame,
  read as a bit pattern: the kernels never do arithmetic on it apart from hashing);
* score: ``float64``, larger is better (domains where the paper minimises report ``-cost``).

Buffers passed in are preallocated by the caller:

* ``moves``: ``int64[max_moves(domain)]``, ``codes``: ``int64[max_moves(domain)]``;
* a sequence from the initial state holds at most ``max_length(domain)`` moves.

Printing a move for a certificate is done on the Python side by each domain's plain-Python
rules module (see ``nrpa.domains.registry``), which is also what verifies certificates.

Speed: numba acquires every array a function receives (a NamedTuple's arrays included) or
reads from a NamedTuple, with an atomic update, and releases it after its last use; its pruning
pass removes a pair only where the release follows on every way out of the function and no
other release lies between. ``legal_moves``, ``play`` and ``score`` run at every step, so a
domain keeps them at zero updates, and ``reset`` (once a playout) at a few at most
(docs/explanation/kernels.md, "Reference counts"; ``make bench ARGS=--refcounts`` counts them
in the compiled code against a budget, and the slow suite fails over it):

* read each array of the domain and the state into a local once, at the top;
* one way out, and every array used once more in the last statement (``return n + 0 *
  (a.size + b.size)``), so that all the releases sit at the exit
  (``nrpa.domains.samegame.sg_legal_moves``);
* per-step helpers ``inline="always"`` (a call can raise: a way out the pass cannot pair) and
  given arrays, not the domain or the state: an inlined helper given a NamedTuple acquires and
  releases every array it holds, pairs the pass may not remove (TSPTW's ``_arrival`` kept 8 in
  ``tw_score`` so); TSPTW's ``_arrays``, which only reads them all first thing, is the checked
  exception. A helper with branches uses its arrays once more at its end;
* no slice assignment (``a[:] = b``) on the way: its views are acquired and released; copy
  element by element.
"""

import builtins
import inspect
import types

from numba import njit
from numba.extending import overload


def new_state(domain):
    """A freshly allocated state equal to the initial state of ``domain``."""


def reset(domain, state):
    """Overwrite ``state`` with the initial state of ``domain``."""


def copy_state(domain, source, target):
    """Copy every array of ``source`` into ``target`` (same domain)."""


def legal_moves(domain, state, moves, codes):
    """Write the moves the playout policy allows in ``state`` into ``moves[:n]`` and their
    policy codes into ``codes[:n]``; return ``n`` (``int64``). ``n == 0`` exactly when the
    state is terminal. The order is deterministic for a given state."""


def play(domain, state, move):
    """Apply ``move`` (an id returned by ``legal_moves`` for this very state) to ``state``."""


def score(domain, state):
    """The score (``float64``) of ``state``: the value of the sequence played so far."""


def max_moves(domain):
    """Upper bound (``int64``) on the number of legal moves in any state."""


def max_length(domain):
    """Upper bound (``int64``) on the number of moves of any sequence from the initial state."""


def bias(domain, state, moves, codes, n, factors):
    """GNRPA's bias: write exp(beta) of each of the ``n`` moves ``legal_moves`` just returned
    for ``state`` into ``factors[:n]`` (``float64``), beta being the move's bias (a playout
    weighs a move exp(w / tau + beta) = exp(w / tau) * exp(beta); a factor rather than beta
    so that a domain can precompute its exps). Optional: a domain without a bias gets
    ``no_bias`` (beta = 0, factor 1). The kernels call it only when the user chose a domain
    bias (``domain.bias``)."""


def code_bound(domain):
    """B (``int64``) when every code lies in [0, B), dense codes such as Morpion's move ids
    and TSPTW's (from, to); 0 for codes that are any 64-bit values (SameGame's hashes).
    Policy tables put code c in slot c when B fits them, so that the codes of one step share
    cache lines, and hash the codes otherwise (``nrpa.policy``). Optional (default 0). B > 0
    is a promise: a playout reads a dense table at slot = code without checking the key, so
    a code outside [0, B) would read another code's weight (tests/test_contract.py checks the
    promise on random playouts of every domain)."""


@njit(cache=True)
def no_bias(domain, state, moves, codes, n, factors):
    factors[:n] = 1.0


@njit(cache=True)
def hashed_codes(domain):
    return 0


# A domain whose bounds are fixed numbers keeps them as fields of these names and registers
# nothing for them (Morpion).
@njit(cache=True)
def stored_max_moves(domain):
    return domain.max_moves


@njit(cache=True)
def stored_max_length(domain):
    return domain.max_length


CONTRACT = {stub.__name__: stub for stub in (new_state, reset, copy_state, legal_moves, play, score, max_moves,
                                             max_length, bias, code_bound)}
# what a domain that does not register these gets
OPTIONAL = {"bias": no_bias, "code_bound": hashed_codes}
REGISTERED = {}  # domain NamedTuple class -> its implementations, by contract name


def register(domain_class, **implementations) -> None:
    """Make the ``@njit`` functions ``implementations`` (one per name of ``CONTRACT``, each
    with the stub's parameters; those of ``OPTIONAL`` may be left out, and ``max_moves`` and
    ``max_length`` where ``domain_class`` has fields of those names) what the kernels call
    for a domain value of ``domain_class``. A missing, unknown or mis-declared function is
    refused here, at import."""
    stored = {name: function for name, function in (("max_moves", stored_max_moves),
                                                    ("max_length", stored_max_length))
              if name in getattr(domain_class, "_fields", ())}
    implementations = {**OPTIONAL, **stored, **implementations}
    missing = [name for name in CONTRACT if name not in implementations]
    unknown = sorted(set(implementations) - set(CONTRACT))
    if missing or unknown:
        raise TypeError(f"contract.register({domain_class.__name__}, ...): "
                        + "; ".join([f"missing {', '.join(missing)}"] * bool(missing)
                                    + [f"unknown {', '.join(unknown)}"] * bool(unknown))
                        + f" (the contract is {', '.join(CONTRACT)})")
    for name, function in implementations.items():
        expected = list(inspect.signature(CONTRACT[name]).parameters)
        python_function = getattr(function, "py_func", None)
        if python_function is None or len(inspect.signature(python_function).parameters) != len(expected):
            raise TypeError(f"contract.register({domain_class.__name__}, {name}=...): an @njit function "
                            f"of {len(expected)} parameters ({', '.join(expected)}) is needed, got {function!r}")
    if domain_class in REGISTERED:
        raise TypeError(f"contract.register: {domain_class.__name__} is registered already")
    REGISTERED[domain_class] = dict(implementations)
    for name, function in implementations.items():
        _install(CONTRACT[name], domain_class, function)


def _install(stub, domain_class, function):
    """One overload of ``stub`` for ``domain_class`` whose body calls ``function``.

    The body numba compiles is a copy of the forwarder of the same name below, with its own
    globals binding ``implementation`` to ``function``. Not a closure: numba keys a cached
    overload on the pickled contents of its closure, and a pickled dispatcher carries an id
    that differs in every process, so closures would recompile in each new process. The
    copies share their code and source line; numba tells their cache entries apart by
    signature, whose first type is the domain's NamedTuple class."""
    forwarder = _FORWARDERS[stub.__name__]
    body = types.FunctionType(forwarder.__code__, {"implementation": function, "__builtins__": builtins},
                              forwarder.__name__)

    def typer(domain, *args):
        if getattr(domain, "instance_class", None) is domain_class:
            return body

    typer.__signature__ = inspect.signature(stub)  # numba checks it against the body's
    overload(stub, jit_options={"cache": True})(typer)


# The overload bodies. ``implementation`` is bound per domain by ``_install``.
def _new_state(domain):
    return implementation(domain)  # noqa: F821


def _reset(domain, state):
    return implementation(domain, state)  # noqa: F821


def _copy_state(domain, source, target):
    return implementation(domain, source, target)  # noqa: F821


def _legal_moves(domain, state, moves, codes):
    return implementation(domain, state, moves, codes)  # noqa: F821


def _play(domain, state, move):
    return implementation(domain, state, move)  # noqa: F821


def _score(domain, state):
    return implementation(domain, state)  # noqa: F821


def _max_moves(domain):
    return implementation(domain)  # noqa: F821


def _max_length(domain):
    return implementation(domain)  # noqa: F821


def _bias(domain, state, moves, codes, n, factors):
    return implementation(domain, state, moves, codes, n, factors)  # noqa: F821


def _code_bound(domain):
    return implementation(domain)  # noqa: F821


_FORWARDERS = {name: globals()["_" + name] for name in CONTRACT}
