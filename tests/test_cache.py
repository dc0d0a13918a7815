"""Compiled kernels are cached on disk, and an edited source never runs a stale kernel."""

import shutil
import subprocess
import sys
from pathlib import Path

import numba

import nrpa


def test_numba_caches_into_a_directory_named_after_the_source_hash():
    assert numba.config.CACHE_DIR == nrpa.NUMBA_CACHE_DIR
    assert Path(nrpa.NUMBA_CACHE_DIR).name == nrpa.SOURCE_HASH == nrpa.source_hash()


def test_editing_any_package_file_changes_the_cache_directory(tmp_path):
    copy = tmp_path / "nrpa"
    shutil.copytree(Path(nrpa.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert nrpa.source_hash(copy) == nrpa.SOURCE_HASH
    domain_file = copy / "domains" / "samegame.py"
    domain_file.write_text(domain_file.read_text() + "\n# an edit\n")
    assert nrpa.source_hash(copy) != nrpa.SOURCE_HASH


def test_a_new_process_loads_the_search_kernel_from_the_cache():
    code = (
        "from nrpa.algorithms import search; from nrpa.domains.samegame import make_samegame;"
        "from nrpa.search import SearchSettings, run_search;"
        "run_search(make_samegame([[0, 0, 1], [1, 1, 0]]), SearchSettings(level=1, N=2, max_time=None, max_playouts=5));"
        "print(sum(search.stats.cache_hits.values()), sum(search.stats.cache_misses.values()))"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)  # fill the cache
    output = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    hits, misses = output.stdout.split()
    assert (int(hits), int(misses)) == (1, 0)
