"""`make list`: every experiment with its paper, table, make target and cost at each scale."""

from __future__ import annotations

from experiments.estimate import cost, duration
from experiments.experiment import experiment_names, load_experiment

SCALES = ("smoke", "quick", "paper")


def main() -> None:
    for name in experiment_names():
        first = load_experiment([f"experiment={name}", "scale=smoke"])
        print(f"make {name.replace('_', '-')}   ({first.title})")
        print(f"    {first.report_source}")
        for scale in SCALES:
            experiment = first if scale == "smoke" else load_experiment([f"experiment={name}", f"scale={scale}"])
            runs, to_make, seconds, workers = cost(experiment)
            spent = "no time budget: unknown" if seconds is None else (
                f"{seconds / 3600:.2f} h of run budgets, about {duration(seconds / workers)} on {workers} "
                f"worker process{'es' if workers > 1 else ''}")
            print(f"    SCALE={scale:<6} {len(experiment.variants)} jobs, {runs} runs ({runs - to_make} done): {spent}")
        print()


if __name__ == "__main__":
    main()
