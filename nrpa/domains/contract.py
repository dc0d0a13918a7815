"""The domain contract: the only functions the search kernels call on a problem.

A domain is two NamedTuple classes of numpy arrays and scalars:

* the *domain* value (read-only during a search): the problem instance and its settings,
  for example the initial board, the Zobrist table and the playout-policy rule;
* the *state* value (mutable arrays only): one position of the problem. Kernels allocate a
  few states up front and never allocate inside the search loop.

Each domain module implements every stub below with
``@overload(stub, jit_options={"cache": True})``, dispatching on the NamedTuple class of the
domain argument. The algorithms are plain module-level ``@njit(cache=True)`` functions that
call the stubs, so one compiled algorithm serves each domain and loads from numba's disk
cache in a new process (closures over jitted domain functions would recompile every time).

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
"""


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


def is_terminal(domain, state):
    """``True`` when no move is left (the same as ``legal_moves(...) == 0``, but cheaper)."""


def max_moves(domain):
    """Upper bound (``int64``) on the number of legal moves in any state."""


def max_length(domain):
    """Upper bound (``int64``) on the number of moves of any sequence from the initial state."""
