"""`make bench-cpp` (experiments.bench_cpp): bad input ends with one line and status 2 before
any build; the reference's "PLAYOUTS n CPU s" line and the pairs' summary on made-up numbers;
and (slow) the build script and one real pair against the C++ reference, when the environment
variable CPP_REF names a checkout of it (`git clone https://github.com/bnegreve/nrpa`)."""

import os
import subprocess
from pathlib import Path

import pytest

from experiments import bench_cpp
from experiments.bench_against import ratio_summary
from experiments.store import PROJECT_ROOT
from nrpa.errors import InputError
from tests.conftest import cli

REFERENCE = os.environ.get("CPP_REF")


@pytest.fixture
def build_script(tmp_path):
    """A build script that is never run: every case here ends before the build."""
    script = tmp_path / "build.sh"
    script.write_text("#!/bin/sh\nexit 1\n")
    script.chmod(0o755)
    return script


@pytest.fixture
def fake_reference(tmp_path):
    """A git repository with src/same.cpp at its HEAD, as bnegreve/nrpa has."""
    folder = tmp_path / "nrpa"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "same.cpp").write_text("int main() {}\n")
    git = ["git", "-C", str(folder), "-c", "user.name=test", "-c", "user.email=test@example.com"]
    for command in (["init", "-q"], ["add", "src/same.cpp"], ["commit", "-q", "-m", "same"]):
        subprocess.run(git + command, check=True, capture_output=True)
    return folder


def bad(*arguments: str, expected: str) -> None:
    done = cli("-m", "experiments.bench_cpp", *arguments)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert expected in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_no_reference(build_script, monkeypatch):
    monkeypatch.delenv("CPP_REF", raising=False)
    bad("--build-script", str(build_script), expected="no C++ reference: give --reference PATH")


def test_missing_reference_folder(build_script, tmp_path):
    missing = tmp_path / "nowhere"
    bad("--reference", str(missing), "--build-script", str(build_script),
        expected=f"--reference {missing}: no such folder")


def test_reference_not_a_repository(build_script, tmp_path):
    bad("--reference", str(tmp_path), "--build-script", str(build_script),
        expected="is not a git repository of bnegreve/nrpa")


def test_missing_build_script(tmp_path):
    missing = tmp_path / "build.sh"
    bad("--reference", str(tmp_path), "--build-script", str(missing),
        expected=f"build script {missing} not found: give --build-script PATH or set CPP_REF_BUILD")


def test_build_script_from_the_environment(tmp_path, monkeypatch):
    missing = tmp_path / "elsewhere.sh"
    monkeypatch.setenv("CPP_REF_BUILD", str(missing))
    bad("--reference", str(tmp_path), expected=f"build script {missing} not found")


def test_no_compiler(build_script, fake_reference, monkeypatch):
    real_which = bench_cpp.shutil.which
    monkeypatch.setattr(bench_cpp.shutil, "which", lambda tool: None if tool == "g++" else real_which(tool))
    bad("--reference", str(fake_reference), "--build-script", str(build_script),
        expected="g++ not found on PATH")


def test_failing_build(build_script, fake_reference):
    bad("--reference", str(fake_reference), "--build-script", str(build_script),
        expected=f"build script {build_script} failed (exit status 1)")


def test_make_without_reference():
    """The message says how to get the reference with commands a user has: git clone, then make."""
    done = subprocess.run(["make", "bench-cpp", "CPP_REF="], cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert done.returncode == 2
    assert "make bench-cpp needs CPP_REF=" in done.stderr
    assert "git clone https://github.com/bnegreve/nrpa" in done.stderr
    assert "make bench-cpp CPP_REF=nrpa" in done.stderr
    assert "shared" not in done.stderr and ".." not in done.stderr


def test_the_build_script_is_the_projects():
    """The default build script and its patch ship with the project, so a clone and CPP_REF suffice."""
    script = bench_cpp.DEFAULT_BUILD_SCRIPT
    assert script.is_relative_to(PROJECT_ROOT) and script.is_file() and os.access(script, os.X_OK)
    assert (script.parent / "instrument.patch").is_file()
    assert "git clone https://github.com/bnegreve/nrpa" in bench_cpp.HOW_TO_GET


def test_playouts_line():
    stderr = "RAND_MAX = 2147483647\n1 -> 0\nPLAYOUTS 1000 CPU 2.000000\n"
    assert bench_cpp.cpp_playouts_per_cpu_second(stderr) == 500.0
    assert bench_cpp.cpp_playouts_per_cpu_second("PLAYOUTS 3 CPU 0.5\n") == 6.0
    for broken in ("", "PLAYOUTS 1000\n", "PLAYOUTS 10 CPU 0.000000\n"):
        with pytest.raises(InputError, match="printed no \"PLAYOUTS n CPU s\" line"):
            bench_cpp.cpp_playouts_per_cpu_second(broken)


def test_ratio_summary():
    # three pairs: this engine 750, 600, 900 playouts per CPU-second against C++ 500, 600, 450
    ratios = [750 / 500, 600 / 600, 900 / 450]
    assert ratios == [1.5, 1.0, 2.0]
    assert ratio_summary(ratios, "10 s runs") == "median ratio 1.500 over 3 pairs of 10 s runs (range 1.000 to 2.000)"
    assert ratio_summary([0.8, 1.2], "1 s runs") == "median ratio 1.000 over 2 pairs of 1 s runs (range 0.800 to 1.200)"


@pytest.mark.slow
def test_one_pair_against_the_reference():
    if not REFERENCE or not Path(REFERENCE).is_dir():
        pytest.skip("needs CPP_REF=<a checkout of github.com/bnegreve/nrpa> in the environment "
                    "(git clone https://github.com/bnegreve/nrpa)")
    done = cli("-m", "experiments.bench_cpp", "--reference", REFERENCE, "--build-script",
               str(bench_cpp.DEFAULT_BUILD_SCRIPT), "--pairs", "1", "--seconds", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    workloads = [words for words, _ in bench_cpp.WORKLOADS.values()]
    assert len(lines) == 5
    for pair, summary, words in zip(lines[1:3], lines[3:], workloads):
        assert pair.startswith(f"pair 1, {words}: this engine ") and " playouts per CPU-second, ratio " in pair
        assert summary.startswith(f"{words}: this engine / C++ median ratio ") and "over 1 pairs of 1 s runs" in summary
