"""Which threading layer runs the threaded kernels (``prange``): Intel TBB, so that a waiting
thread gives its core back.

A round of the shared policy at level 1 is M playouts of ~50 us between two synchronisations
(``nrpa.leaf_node._shared_round``). On numba's default layer here, GNU OpenMP, a thread that
reaches the end of a round spins (GOMP_SPINCOUNT: 300,000 pause loops, milliseconds) before it
sleeps. Alone on the machine that is harmless; but when two threaded runs share the cores, each
one's spinning threads hold the cores the other's last thread needs to finish its round, and
both collapse (measured on 2 cores: 1,390 playouts in 5 s where one run alone makes 184,000).
TBB's workers spin briefly, then yield the core (``sched_yield``), then sleep: two runs at once
made 125,000 playouts each, beside a CPU hog 123,000, alone 162,000 (make bench's contention
line measures these in interleaved pairs). Shorter spinning under OpenMP (GOMP_SPINCOUNT) only
works in a narrow band that depends on the machine (1,000 loops halved the idle rate here,
10,000 collapsed under contention), and OMP_WAIT_POLICY=passive halves the idle rate.

The draws do not depend on the layer: every prange iteration seeds its thread's generator
first (``nrpa.leaf_node``), whichever thread runs it.

numba looks for TBB's library ``libtbb.so.12`` on the loader's path only, where pip's ``tbb``
package does not put it (it installs it in the environment's ``lib/``). Loading it here by its
full path, before numba starts a threading layer, lets numba's TBB pool find it by its name.
``NUMBA_THREADING_LAYER`` set by the user is left as it is; without TBB, numba's own choice
stands (``threading_layer_name`` then says which it was).
"""

from __future__ import annotations

import ctypes
import os
import site
import sys
from importlib import metadata
from pathlib import Path

TBB_LIBRARY = "libtbb.so.12"  # the soname numba's tbbpool extension links against


def _tbb_library_path() -> str | None:
    """Where pip put TBB's library: the environment's lib/ (a venv, a plain install), the
    user's (pip --user), or, failing those, wherever the package's file list says (slower:
    reading installed packages' metadata takes ~0.2 s)."""
    for prefix in (sys.prefix, site.getuserbase()):
        path = Path(prefix) / "lib" / TBB_LIBRARY
        if path.exists():
            return str(path)
    try:
        files = metadata.files("tbb") or []
    except metadata.PackageNotFoundError:
        return None
    for file in files:
        if file.name == TBB_LIBRARY:
            path = Path(file.locate())
            return str(path) if path.exists() else None
    return None


def use_tbb() -> bool:
    """Load pip's TBB library and ask numba for the TBB layer (unless the user named a layer);
    False where TBB is not installed or cannot be loaded (another platform)."""
    path = _tbb_library_path()
    if path is None:
        return False
    try:
        ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    except OSError:
        return False
    os.environ.setdefault("NUMBA_THREADING_LAYER", "tbb")
    return True


def threading_layer_name() -> str:
    """The layer numba runs prange loops on in this process: the one it started, or, before the
    first threaded kernel ran, the one it will ask for."""
    import numba

    try:
        return numba.threading_layer()
    except ValueError:  # no threaded kernel has run yet
        return os.environ.get("NUMBA_THREADING_LAYER", "default")
