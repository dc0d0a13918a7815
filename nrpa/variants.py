"""The decisions that make NRPA's variants, each taken once per iteration of a level in
``nrpa.nested.nrpa_until`` from the iteration's score and the level's best before it, with
the per-level state the variant keeps in ``Call`` (``nrpa.nested``):

* GNRPA with limited repetitions (Cazenave 2024): a level's call ends (without adapting)
  when an iteration finds the level's best score again for the R-th time since that best
  was found; without R it runs its N iterations, as NRPA.
* Restarting NRPA (beyond the papers; ``docs/howto/add-algorithm.md`` builds it as its worked
  example): a level-1 call whose last K (``patience``) iterations did not raise its best score
  goes back to the policy it started from, keeping its best sequence, and counts afresh.
"""

from numba import njit


@njit(cache=True, inline="always")
def repeated(repeats, level, before, value, limit):
    """GNRPA-LR: an iteration of ``level`` scored ``value``, the level's best being
    ``before``. Counts the times the best score is found again since it was first found;
    returns whether this was the ``limit``-th (never when ``limit`` is 0: no limit)."""
    if limit <= 0:
        return False
    if value > before:
        repeats[level] = 0
    elif value == before:
        repeats[level] += 1
    return repeats[level] >= limit


@njit(cache=True, inline="always")
def out_of_patience(stale, level, before, value, patience):
    """Restarting NRPA: an iteration of ``level`` scored ``value``, the level's best being
    ``before``. Counts the iterations in a row that did not raise the best; returns whether
    this was the ``patience``-th, counting afresh from it (never when ``patience`` is 0)."""
    if patience <= 0:
        return False
    if value > before:
        stale[level] = 0
        return False
    stale[level] += 1
    if stale[level] < patience:
        return False
    stale[level] = 0
    return True
