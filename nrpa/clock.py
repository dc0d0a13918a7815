"""Clocks readable from nopython code.

`clock_gettime` is declared as an external C function: it costs ~50 ns (monotonic) to
~0.5 us (CPU-time clocks) per call and, unlike a ctypes pointer in the call graph, it does
not stop numba from caching the functions that call it.
"""

from numba import njit, types

CLOCK_MONOTONIC = 1  # wall clock
CLOCK_PROCESS_CPUTIME_ID = 2  # CPU time of the whole process (all threads)
CLOCK_THREAD_CPUTIME_ID = 3

CLOCKS = {"cpu": CLOCK_PROCESS_CPUTIME_ID, "wall": CLOCK_MONOTONIC}

_clock_gettime = types.ExternalFunction(
    "clock_gettime", types.int32(types.int32, types.CPointer(types.int64))
)


@njit(cache=True, inline="always")  # inlined: a call would acquire and release ``scratch``
def read_clock(clock_id, scratch):
    """Seconds on the clock `clock_id`; `scratch` is an int64 array of length >= 2."""
    _clock_gettime(clock_id, scratch.ctypes)
    return scratch[0] + scratch[1] * 1e-9
