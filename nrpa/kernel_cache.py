"""numba's disk cache of compiled kernels, made safe against interrupted and concurrent compiles.

Three faults of numba's own cache (numba 0.68.1) can crash a run or load a kernel other than
the one asked for; this module closes each, and ``tests/test_cache.py`` reproduces each.

1. **The threading layer is never started** (numba issue #9938; its PR #9950, still open,
   fixes it the same way). numba records on a compiled library the calls to make when it is loaded
   again (``reload_init``: for a ``parallel=True`` kernel, starting the threading layer), and
   a caller inherits its callees' list when it links them; but a library *loaded from the
   cache* starts with an empty list. So a kernel compiled in a process whose parallel callees
   came from the cache is saved without that call, and a later process that loads it runs its
   first prange loop through threading-layer symbols that were never registered: a
   segmentation fault, or "LLVM ERROR: Symbol not found: deallocate_sched". An interrupted first compile (callees saved, the entry point not) is
   the usual way there. Fix: a library loaded from the cache gets back the list it was saved
   with, so callers compiled against it inherit it. (Starting the threading layer at import
   would also do, but then no process forked after ``import nrpa`` could run a parallel
   kernel: GNU OpenMP refuses to run in a forked child.)
2. **Index and data files race.** ``IndexDataCacheFile.save`` reads a function's index, picks
   the first data-file number it does not list, writes the index, then the data, with no
   lock. Two processes saving two signatures of one function (two domains) at once can both
   pick ``f.1.nbc``: the index then maps one signature to the other's code. An interrupt
   between the two writes, after the index was reset (numba resets it when the source file's
   modification time changes), leaves it naming a data file that holds another signature.
   Fix: a save holds an exclusive ``flock`` on the folder's lock file and writes the data
   before the index; each data file carries the index key it was written for, and a load
   (under a shared lock) uses a data file only when that key is the one asked for.
3. **Damaged files raise.** A truncated or garbage index or data file (a disk that filled
   up, a copy cut short) makes numba raise from ``pickle``. Fix: it counts as a miss; the
   kernel is compiled again and the file rewritten.

These are patches of numba internals (``IndexDataCacheFile``, ``CompileResult._rebuild``):
after a numba upgrade, ``make test-slow`` says whether they still hold. numba's own files are
written to a temporary name and renamed, so a file is never seen half written. Kernels compiled in different processes may still be linked together (that is how
numba's cache works, and safe once the above is fixed). The cache folder is keyed on a hash
of the package sources (``nrpa/__init__.py``), so an edited source never runs a stale kernel.
"""

from __future__ import annotations

import contextlib
import itertools
import os

from numba.core import caching, compiler

try:
    import fcntl
except ImportError:  # not POSIX: no file locks, numba's own behaviour
    fcntl = None

LOCK_FILE = ".nrpa-cache.lock"
_numba_load_index = caching.IndexDataCacheFile._load_index
_numba_rebuild = compiler.CompileResult._rebuild.__func__


@contextlib.contextmanager
def _folder_lock(folder: str, exclusive: bool):
    """Hold an exclusive (writers) or shared (readers) lock on ``folder``'s lock file. A
    folder that does not exist yet, or cannot hold a lock file, is used without one."""
    try:
        descriptor = os.open(os.path.join(folder, LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield
        return
    try:
        if fcntl is not None:
            fcntl.flock(descriptor, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def _load_index(self) -> dict:
    """numba's index loader, with a damaged index read as an empty one."""
    try:
        return _numba_load_index(self)
    except Exception as error:  # truncated or garbage pickle
        caching._cache_log("[cache] damaged index %r ignored: %s", self._index_path, error)
        return {}


def _save(self, key, data) -> None:
    """Store ``data`` under ``key``: the data file first (with its key), then the index."""
    with _folder_lock(self._cache_path, exclusive=True):
        overloads = self._load_index()
        data_name = overloads.get(key)
        if data_name is None:
            listed = set(overloads.values())
            data_name = next(name for name in map(self._data_name, itertools.count(1)) if name not in listed)
        self._save_data(data_name, (key, data))
        if overloads.get(key) != data_name:
            overloads[key] = data_name
            self._save_index(overloads)


def _load(self, key):
    """The data stored under ``key``, or None: not listed, missing, damaged, or written for
    another key."""
    with _folder_lock(self._cache_path, exclusive=False):
        data_name = self._load_index().get(key)
        if data_name is None:
            return None
        try:
            stored_key, data = self._load_data(data_name)
        except Exception as error:  # missing, truncated, garbage, or not written by _save
            caching._cache_log("[cache] data file %r ignored: %s", data_name, error)
            return None
    if stored_key != key:
        caching._cache_log("[cache] data file %r holds another signature: ignored", data_name)
        return None
    return data


def _rebuild(cls, *payload):
    """numba's loader of a cached compile result, which also gives the loaded library its
    ``reload_init`` back: a caller linking it then inherits it, as from a fresh compile."""
    result = _numba_rebuild(cls, *payload)
    result.library._reload_init.update(result.reload_init or ())
    return result


def install() -> None:
    """Make numba's cache safe in this process (see the module docstring); idempotent."""
    caching.IndexDataCacheFile._load_index = _load_index
    caching.IndexDataCacheFile.save = _save
    caching.IndexDataCacheFile.load = _load
    compiler.CompileResult._rebuild = classmethod(_rebuild)
