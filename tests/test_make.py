"""The Makefile and the README as a new user reads them: `make help`, `make list`, and no path
of the machine they were written on."""

from __future__ import annotations

import re

from experiments.store import PROJECT_ROOT

# a home or work folder of one machine (not /tmp/perf-<pid>.map, perf's own place on any machine)
MACHINE_PATH = re.compile(r"(?<![\w.])/(work|home|Users|root)/")


def test_no_machine_path_in_the_makefile_or_the_readme():
    for name in ("Makefile", "README.md"):
        text = (PROJECT_ROOT / name).read_text()
        found = [line for line in text.splitlines() if MACHINE_PATH.search(line)]
        assert found == [], f"{name}: {found}"
