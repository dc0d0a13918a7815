"""NRPA research harness: numba search kernels over a domain contract.

Importing this package points numba's on-disk cache at a directory keyed on a hash of the
package's kernel files (those that import numba: the algorithms and the domains' kernel
modules), and makes that cache safe against interrupted and concurrent compiles
(``nrpa.kernel_cache``). numba only checks the source file of a cached function itself, so an
edited domain kernel could otherwise leave a cached algorithm running the old domain code;
with the key, an edit to any kernel file gives a fresh cache directory, while an edit to a
plain-Python file (the rules, the adapters, the settings) keeps every compiled kernel.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def source_hash(package_dir: Path = _PACKAGE_DIR, *, kernels_only: bool = False) -> str:
    """SHA-256 (first 16 hex digits) over the path and bytes of every .py file of the package,
    or with ``kernels_only`` of every one that imports numba (what compiled kernels come from)."""
    digest = hashlib.sha256()
    for path in sorted(package_dir.rglob("*.py")):
        text = path.read_bytes()
        if kernels_only and not _imports_numba(text):
            continue
        digest.update(str(path.relative_to(package_dir)).encode())
        digest.update(text)
    return digest.hexdigest()[:16]


def _imports_numba(text: bytes) -> bool:
    return any(line.startswith((b"import numba", b"from numba")) for line in text.splitlines())


def _cache_root() -> Path:
    configured = os.environ.get("NRPA_CACHE_ROOT")
    if configured:
        return Path(configured)
    return _PACKAGE_DIR.parent / ".numba_cache"


# Budgets are in CPU time of the whole process: idle BLAS worker threads (numpy, scipy)
# would add to it, and the searches never use BLAS.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

SOURCE_HASH = source_hash()  # the code version of a run file
KERNEL_HASH = source_hash(kernels_only=True)  # the cache directory
NUMBA_CACHE_DIR = str(_cache_root() / KERNEL_HASH)
os.environ["NUMBA_CACHE_DIR"] = NUMBA_CACHE_DIR
# The threaded kernels run on TBB, whose waiting threads give their cores back (nrpa/threading_layer.py).
from nrpa.threading_layer import use_tbb  # noqa: E402  (imports no numba)

use_tbb()
if "numba" in sys.modules:  # imported before us: its config was read already, so set it directly
    sys.modules["numba"].config.CACHE_DIR = NUMBA_CACHE_DIR
    sys.modules["numba"].config.THREADING_LAYER = os.environ.get("NUMBA_THREADING_LAYER", "default")

from nrpa import kernel_cache  # noqa: E402  (after NUMBA_CACHE_DIR: it imports numba)

kernel_cache.install()
