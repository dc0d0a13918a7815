"""numba's atomic reference counts on the hot paths stay within their committed budgets
(experiments/refcounts.py): the counting on hand-made IR, then the real kernels, compiled with
an empty kernel cache (slow)."""

import subprocess
import sys

import pytest

from experiments import refcounts
from experiments.store import PROJECT_ROOT

# A function whose entry acquires one array, then a loop (B1 <-> B2) that calls a callee
# holding one pair and acquires and releases once more itself, then an exit releasing.
MODULE = """
define i32 @callee(ptr %a) {
entry:
  tail call void @NRT_incref(ptr %a)
  tail call void @NRT_decref(ptr %a)
  ret i32 0
}

define i32 @kernel(ptr %a) {
entry:
  tail call void @NRT_incref(ptr %a)
  br label %B1

B1:                                               ; preds = %entry, %B2
  %x = call i32 @callee(ptr %a)
  tail call void @NRT_incref(ptr %a)
  br i1 %c, label %B2, label %exit

B2:                                               ; preds = %B1
  tail call void @NRT_decref(ptr %a)
  br label %B1

exit:                                             ; preds = %B1
  tail call void @NRT_decref(ptr %a)
  tail call void @NRT_decref(ptr %a)
  ret i32 0
}
"""


def test_counts_by_hand():
    module = refcounts.functions(MODULE)
    assert set(module) == {"callee", "kernel"}
    assert refcounts.counts(module, "callee") == dict(increfs=1, decrefs=1, loop_increfs=0, loop_decrefs=0,
                                                      own_increfs=1, own_decrefs=1)
    # entry 1/0, loop: callee 1/1 + own 1/1, exit 0/2
    assert refcounts.counts(module, "kernel") == dict(increfs=3, decrefs=4, loop_increfs=2, loop_decrefs=2,
                                                      own_increfs=1, own_decrefs=2)


def test_a_count_over_budget_names_its_function_and_domain():
    rows = [("legal_moves", "SameGame", 0, 0), ("play", "TSPTW", 2, 3), ("adapt", "Bus", 7, 23),
            ("score", "Bus", None, None)]
    assert refcounts.over_budget(rows) == ["play on TSPTW: 2 + 3 atomic updates a call, budget 0"]


@pytest.mark.slow
def test_every_hot_function_within_its_budget():
    done = subprocess.run([sys.executable, "-m", "experiments.refcounts"], cwd=PROJECT_ROOT, capture_output=True,
                          text=True, timeout=1200)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "every count within its budget" in done.stdout
    for domain in refcounts._workloads():
        for function in ("legal_moves", "play", "playout step loop", "playout entry and exit", "end_playout"):
            assert any(line.startswith(function) and f" {domain} " in line for line in done.stdout.splitlines()), (
                function, domain, done.stdout)
