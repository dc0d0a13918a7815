"""The layout's arrows run one way: nrpa/ <- experiments/ <- analysis/ <- run.py.

experiments/ makes runs and analysis/ reads them, so no module of experiments/ imports
analysis/ (at the top or inside a function); the modules of experiments/ import each other
without a circle; within analysis/, its packages import one way (results/ <- claims/ <- site/)
and no package or module at its top imports one that imports it back; and no file of nrpa/
passes 450 lines, none of analysis/ or experiments/ 600. Every check walks the folders' subpackages too. Read
from the sources with ast: no module is imported here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MAX_NRPA_LINES = 450
MAX_ANALYSIS_LINES = 600
# analysis/'s packages, each importing only those before it: an experiment's tables and figures, the
# claims judged on its runs (which read its report), the sites that show both
ANALYSIS_PACKAGES = ("analysis.results", "analysis.claims", "analysis.site")


def module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str) -> set[str]:
    """Every module ``source`` imports, anywhere in it (inside a function too): ``from a.b
    import c`` gives a.b and a.b.c (c may be a module), ``import a.b`` gives a.b. The project
    writes absolute imports only (a relative one is refused, so that none slips past)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"a relative import (line {node.lineno}): write it absolute"
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph`` (module -> the modules of the graph it imports): each
    strongly connected component (scipy's) of more than one module, or a module importing itself."""
    names = sorted(graph)
    at = {name: number for number, name in enumerate(names)}
    edges = [(at[module], at[other]) for module in names for other in graph[module]]
    rows, columns = zip(*edges) if edges else ((), ())
    matrix = csr_matrix((np.ones(len(edges)), (rows, columns)), shape=(len(names), len(names)))
    _, labels = connected_components(matrix, directed=True, connection="strong")
    components: dict[int, list[str]] = {}
    for name, label in zip(names, labels):
        components.setdefault(label, []).append(name)
    return [component for component in components.values()
            if len(component) > 1 or component[0] in graph[component[0]]]


def test_cycles_finds_a_circle_and_nothing_else():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert cycles({"a": {"a"}}) == [["a"]]


def test_imported_sees_the_imports_inside_functions():
    source = "import experiments.store\n\ndef f():\n    from analysis.results.report import write_report\n"
    assert imported(source) == {"experiments.store", "analysis.results.report", "analysis.results.report.write_report"}


@pytest.fixture(scope="module")
def experiments_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((PROJECT_ROOT / "experiments").rglob("*.py"))}


def test_no_module_of_experiments_imports_analysis(experiments_modules):
    wrong = {module: sorted(name for name in imported(path.read_text()) if name == "analysis" or name.startswith("analysis."))
             for module, path in experiments_modules.items()}
    assert {module: names for module, names in wrong.items() if names} == {}


def test_the_modules_of_experiments_import_each_other_without_a_circle(experiments_modules):
    graph = {module: {name for name in imported(path.read_text()) if name in experiments_modules and name != "experiments"}
             for module, path in experiments_modules.items()}
    assert cycles(graph) == []


def test_no_file_of_nrpa_passes_450_lines():
    lengths = {str(path.relative_to(PROJECT_ROOT)): len(path.read_text().splitlines())
               for path in sorted((PROJECT_ROOT / "nrpa").rglob("*.py"))}
    assert lengths, "no file under nrpa/"
    assert {path: n for path, n in lengths.items() if n > MAX_NRPA_LINES} == {}


def test_no_file_of_analysis_or_experiments_passes_600_lines():
    lengths = {str(path.relative_to(PROJECT_ROOT)): len(path.read_text().splitlines())
               for folder in ("analysis", "experiments") for path in sorted((PROJECT_ROOT / folder).rglob("*.py"))}
    assert any(path.count("/") > 1 for path in lengths), "no subpackage of analysis/ read"
    assert any(path.startswith("experiments/") for path in lengths), "no file of experiments/ read"
    assert {path: n for path, n in lengths.items() if n > MAX_ANALYSIS_LINES} == {}


@pytest.fixture(scope="module")
def analysis_imports() -> dict[str, set[str]]:
    """Each module of analysis/ (its subpackages' too) -> the modules of analysis/ it imports."""
    modules = {module_name(path): path for path in sorted((PROJECT_ROOT / "analysis").rglob("*.py"))}
    return {module: {name for name in imported(path.read_text()) if name in modules and name != module}
            for module, path in modules.items()}


def group_of(module: str) -> str:
    """analysis.claims.decide -> analysis.claims (its package); analysis.stats -> itself."""
    return ".".join(module.split(".")[:2])


def test_the_packages_of_analysis_import_one_way(analysis_imports):
    order = {package: rank for rank, package in enumerate(ANALYSIS_PACKAGES)}
    assert set(order) <= {group_of(module) for module in analysis_imports}, "a package of ANALYSIS_PACKAGES is gone"
    upward = sorted(f"{module} imports {name}" for module, names in analysis_imports.items() for name in names
                    if group_of(module) in order and group_of(name) in order
                    and order[group_of(name)] > order[group_of(module)])
    assert upward == []


def test_no_package_of_analysis_imports_one_that_imports_it_back(analysis_imports):
    # a package and a module at the top of analysis/ (stats, api, ...) as one node each: shared
    # modules that a package imports must import none of the packages
    groups: dict[str, set[str]] = {}
    for module, names in analysis_imports.items():
        groups.setdefault(group_of(module), set()).update(group_of(name) for name in names)
    assert cycles({group: others - {group} for group, others in groups.items()}) == []


def test_no_module_imports_one_that_imports_it_back():
    # nrpa/, experiments/ and analysis/, imports inside functions included; a package's __init__ is
    # left out (importing a.b always runs a/__init__.py first: that is no circle of the code's own)
    modules = {module_name(path): path for top in ("nrpa", "experiments", "analysis")
               for path in sorted((PROJECT_ROOT / top).rglob("*.py")) if path.name != "__init__.py"}
    graph = {module: {name for name in imported(path.read_text()) if name in modules and name != module}
             for module, path in modules.items()}
    assert cycles(graph) == []


def test_importing_the_entry_point_alone_fills_the_algorithms_registry():
    import subprocess
    import sys

    shown = subprocess.run([sys.executable, "-c", "import nrpa.search as s; print(' '.join(sorted(s.ALGORITHMS)))"],
                           cwd=PROJECT_ROOT, capture_output=True, text=True, check=True)
    declared = sorted(path.stem for path in (PROJECT_ROOT / "conf" / "algo").glob("*.yaml"))
    assert shown.stdout.split() == declared
