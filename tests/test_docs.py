"""The documentation kept true: the site builds with --strict (a broken link or a page left out
of the nav fails), the generated references list every target, option and result snapshot, and
every command of the README's and the tutorials' code blocks names a real `make` target, module
or config option, so that a renamed one cannot leave a stale command behind."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import fields

import pytest
from omegaconf import OmegaConf

from experiments.config import check_override_keys
from experiments.experiment import check_command_line, experiment_names
from experiments.store import PROJECT_ROOT
from nrpa.domains.registry import DOMAINS
from analysis.site.docs_reference import config_page, make_page, makefile_targets, results_page

# the pages whose commands a reader copies: the front page, the tutorials, and the guide whose
# worked example ends in a comparison with a paper's table
COMMAND_PAGES = ["README.md", *sorted(p.relative_to(PROJECT_ROOT).as_posix()
                                      for p in (PROJECT_ROOT / "docs" / "tutorials").glob("*.md")),
                 "docs/howto/add-algorithm.md"]
CODE_BLOCK = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
PYTHON = re.compile(r"^(\.venv/bin/)?python3?$")


def test_the_site_builds_strict(tmp_path):
    """`make docs`'s build: every page in the nav, every link and anchor resolves (seconds)."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("mkdocs-material is not installed (the dev extra: make install)")
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT), "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                            "--site-dir", str(tmp_path / "site")], cwd=PROJECT_ROOT, env=env,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    for page in ("index.html", "reference/config.html", "reference/make-targets.html", "results/index.html",
                 "readings.html", "tutorials/table4.html"):
        assert (tmp_path / "site" / page).is_file(), page
    # no directory URLs: the pages link to .html files, so the site opens from disk
    assert 'href="tutorials/table4.html"' in (tmp_path / "site" / "index.html").read_text()


def flat_keys(node: dict, prefix=""):
    """Every leaf key of a YAML mapping, dotted."""
    for key, value in node.items():
        if isinstance(value, dict) and value:
            yield from flat_keys(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}"


def test_the_config_reference_lists_every_key_of_the_config_and_the_domain_schemas():
    page = config_page()
    config = OmegaConf.to_container(OmegaConf.load(PROJECT_ROOT / "conf" / "config.yaml"), resolve=False)
    keys = [key for key in flat_keys(config) if key.split(".")[0] not in ("defaults", "hydra")]
    assert "starved.wait" in keys and "level" in keys
    for key in keys:
        assert f"| `{key}` |" in page, key
    for name, adapter in DOMAINS.items():
        assert f"### `domain={name}`" in page
        for option in fields(adapter.options_class):
            if option.name != "name":
                assert f"| `domain.{option.name}` |" in page, f"{name}: {option.name}"
    for group in ("algo", "domain", "scale", "experiment", "backend"):
        assert f"| `{group}=` |" in page
    # a row has its default and a meaning (the comment of conf/config.yaml)
    assert "| `N` | `100` | iterations per level (NRPA/SNRPA) |" in page


def test_the_make_reference_lists_every_target_of_make_help():
    shown = subprocess.run(["make", "--no-print-directory", "help"], cwd=PROJECT_ROOT, capture_output=True, text=True)
    targets = [line.split()[1] for line in shown.stdout.splitlines() if line.startswith("  make ")]
    assert "docs" in targets and "stabilized-table4" in targets
    assert [target for target, _, _ in makefile_targets()] == targets
    page = make_page()
    for target in targets:
        assert f"| `make {target}` |" in page
    assert "| `SCALE` | `paper` |" in page


def test_the_results_index_lists_every_snapshot():
    page = results_page()
    folder = PROJECT_ROOT / "docs" / "results"
    for path in folder.rglob("*"):
        if path.is_file():
            assert f"]({path.relative_to(folder).as_posix()})" in page, path.name


def commands(page: str) -> list[str]:
    """The shell commands of a page's code blocks: lines that start with make or python (an
    output listing or a Python snippet is not one), without their comments."""
    found = []
    for block in CODE_BLOCK.findall((PROJECT_ROOT / page).read_text()):
        for line in block.splitlines():
            first = line.split(maxsplit=1)[0] if line.strip() else ""
            if first == "make" or PYTHON.match(first):
                found.append(shlex.join(shlex.split(line, comments=True)))
    return found


def check_make(words: list[str], targets: set[str]) -> None:
    """A real target (`make -n` accepts the line), and ARGS whose keys the config knows."""
    names = [word for word in words[1:] if "=" not in word and not word.startswith("-")]
    assert names, "no target"
    for name in names:
        assert name in targets, f"no make target {name!r}"
    dry = subprocess.run(["make", "-n", "--no-print-directory", *words[1:]], cwd=PROJECT_ROOT,
                         capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr
    for word in words[1:]:
        if word.startswith("ARGS="):
            check_override_keys([arg for arg in shlex.split(word[5:]) if "=" in arg and not arg.startswith("-")])


def check_python(words: list[str]) -> None:
    """`python -m MODULE ...`: an importable module; `python run.py ...`: overrides that compose."""
    if words[1] == "-m":
        assert importlib.util.find_spec(words[2]) is not None, f"no module {words[2]!r}"
        return
    assert words[1] == "run.py", f"not a command of this project: {words}"
    overrides = []
    for word in words[2:]:
        if word.startswith("against="):
            assert word.split("=", 1)[1] in experiment_names(), word
        elif not word.startswith("-"):
            overrides.append(word)
    check_command_line(overrides)


def test_every_command_of_the_readme_and_the_tutorials_is_real():
    targets = {target for target, _, _ in makefile_targets()}
    text = (PROJECT_ROOT / "Makefile").read_text().replace("\\\n", " ")
    for variable in ("EXPERIMENTS", "NEURAL_TABLES"):
        targets |= set(re.search(rf"^{variable} :=(.*)$", text, re.MULTILINE).group(1).split())
    checked = 0
    for page in COMMAND_PAGES:
        for command in commands(page):
            words = shlex.split(command)
            try:
                check_make(words, targets) if words[0] == "make" else check_python(words)
            except Exception as error:  # noqa: BLE001: the page and the command say where
                raise AssertionError(f"{page}: {command}: {error}") from error
            checked += 1
    # the README's set-up and test commands, which CI (.ci/run) runs, are among them
    assert {"make install", "make browser", "make test", "make test-slow"} <= set(commands("README.md"))
    ci = [line for line in (PROJECT_ROOT / ".ci" / "run").read_text().splitlines() if line.startswith("make ")]
    assert ci == ["make install", "make browser", "make test", "make test-slow"]
    assert checked > 10
