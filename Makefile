# NRPA research harness. `make help` lists the targets.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

SCALE ?= paper
ARGS ?=  # more overrides for an experiment, e.g. ARGS="threads=1,2,4,8"
BUDGET ?=  # make claims BUDGET=6h: CPU-hours of new runs, spent in rounds on the claims still undecided (experiments/campaign.py)
CLAIMS ?=  # make claims: only the claims of analysis/claims/<name>.yaml, e.g. CLAIMS="gnrpa gnrpa_lr"
claim_files = $(if $(strip $(CLAIMS)),--files $(CLAIMS))
# conf/experiment/<name>.yaml of a target: dashes become underscores
experiment = $(subst -,_,$@)
# Paper tables and figures, named <paper>-<table>; each is conf/experiment/<paper>_<table>.yaml.
EXPERIMENTS := selective-table2 selective-table3 selective-table4 selective-table5 selective-table6 \
	stabilized-table1 stabilized-table2 stabilized-table3 stabilized-table4 distributed-table1 \
	morpion-table2 distributed-fig3 distributed-fig4 distributed-fig5 speedup \
	family-samegame family-tsptw family-weakschur family-boards spmcts-samegame spmcts-boards spmcts-speedup

.DEFAULT_GOAL := help
.PHONY: help install test test-slow bench bench-cpp verify list leaderboard archive clean-cache table4 family claims export site morpion-table1 morpion-table3 morpion-table4 $(EXPERIMENTS)

help: ## list the targets
	@grep -E '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-20s %s\n", $$1, $$2}'

NEURAL ?= yes  # make install NEURAL=no: without PyTorch (the neural Morpion targets then say what is missing)
extras = dev$(if $(filter no,$(strip $(NEURAL))),,$(comma)neural)
comma := ,

install: ## create .venv and install the project with its dev extras and PyTorch (NEURAL=no: without PyTorch)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[$(extras)]"
	@# the browser test of the results site drives Debian's chromium; without apt (or root) it is skipped
	command -v chromium >/dev/null || apt-get install -y chromium || echo "chromium not installed: tests/test_site_browser.py will be skipped"

test: ## fast test suite, one worker process per core, each test file in one (numba compile included; about 4 minutes on 2 cores from a fresh clone)
	$(PY) -m pytest -q -n auto --dist loadfile

test-slow: ## the slow checks only (kernel cache under interrupted and concurrent compiles, the threaded kernels, submitit, the site in a browser; 20 minutes from a fresh clone on a busy machine)
	$(PY) -m pytest -q -m slow

bench: ## engine speed: playouts per CPU-second of every domain, leaf parallel speed-up, the scaling figure (root and leaf parallelism on 1..all cores: outputs/bench/scaling.{csv,png}; alone: ARGS=--scaling-only; where a level-1 iteration spends its time and what a game move costs: ARGS=--level1), threaded run start cold and warm, the threaded kernels under load (alone, beside a CPU hog, two runs at once: ARGS=--contention alone), SP-MCTS, the neural networks (about 10 minutes)
	$(PY) -m experiments.bench $(ARGS)

bench-cpp: ## this engine beside the C++ reference (github.com/bnegreve/nrpa), SameGame board 1, NRPA level 4, playouts per CPU-second in interleaved pairs: make bench-cpp CPP_REF=<its mirror or checkout> (ARGS="--pairs 7 --seconds 10"; CPP_REF_BUILD: the build script; about 6 minutes)
ifndef CPP_REF
	@echo "make bench-cpp needs CPP_REF=<a git mirror or checkout of github.com/bnegreve/nrpa>:" \
		"get it with git clone https://github.com/bnegreve/nrpa, or the search tool's fetch of github:bnegreve/nrpa" >&2; exit 2
else
	$(PY) -m experiments.bench_cpp --reference "$(CPP_REF)" $(ARGS)
endif

verify: ## replay every certificate under outputs/ and in the archive (archive/) with the plain-Python rules
	$(PY) -m experiments.verify

leaderboard: ## offer every stored run to the per-board leaderboard (runs are offered as they finish)
	$(PY) -m experiments.leaderboard

archive: ## pack the run files that no pack holds yet into a new archive/runs-v1-<UTC time>.parquet (commit it: other clones reuse its runs; `python -m experiments.archive list`: what it holds)
	$(PY) -m experiments.archive pack $(ARGS)

list: ## every experiment with its paper, table and cost at each scale
	$(PY) -m experiments.catalog

table4: stabilized-table4 ## = stabilized-table4

selective-table2: ## Selective NRPA Table 2, bus regulation: standard vs the rule with delta = 1..4 (lower is better)
selective-table3: ## Selective NRPA Table 3, SameGame board 1 by playout rule (SCALE=paper|quick|smoke)
selective-table4: ## Selective NRPA Table 4, best scores on the 20 SameGame boards
selective-table5: ## Selective NRPA Table 5, Weak Schur K = 6, 7: standard vs rule
selective-table6: ## Selective NRPA Table 6, Weak Schur K = 8, 9: standard vs rule
stabilized-table1: ## Stabilized NRPA Table 1, Maximum problem (199 atoms), NRPA vs SNRPA(P)
stabilized-table2: ## Stabilized NRPA Table 2, best scores on the 20 SameGame boards
stabilized-table3: ## Stabilized NRPA Table 3, TSPTW rc_204.1, NRPA vs SNRPA(P), gap to the best-known tour
stabilized-table4: ## Stabilized NRPA Table 4, SameGame board 1, NRPA vs SNRPA(P)
distributed-table1: ## Distributed NRPA Table 1, best scores on the 20 SameGame boards: NMCS(4), NRPA(4), Dist-NRPA(5) (hybrid-1)
distributed-fig3: ## Distributed NRPA Figure 3: score vs playouts, shared/thread-local policy at levels 1..3 vs sequential
distributed-fig4: ## Distributed NRPA Figure 4: score after a fixed time by strategy, level and threads (1..32 at SCALE=paper, 1,2 below; ARGS=threads=1,2,4 for others)
distributed-fig5: ## Distributed NRPA Figure 5: root (K x threads jobs) vs hybrid-1 vs hybrid-2 over time, boards 1 and 3
speedup: ## speed-up k(t) of parallel NRPA over sequential (Gelly et al.), with CIs, and playouts per wall-second
morpion-table2: ## Morpion paper Table 2, 5D: uniform policy, NRPA(1..3) final scores, best grid as PNG; then the neural rows (games sampled from Table 1's networks) and Figure 5
morpion-table1: ## Morpion paper Table 1, Figures 2, 3 and 4: NRPA games (5D) and the score filter's trade-off, the three imitation networks trained, their held-out accuracy and curves (needs PyTorch)
	$(PY) -m experiments.neural table1 scale=$(SCALE) $(ARGS)
morpion-table3: ## Morpion paper Table 3: Nested(1) with the ResNet R2 network beside the network alone, score and time per game (needs PyTorch)
	$(PY) -m experiments.neural table3 scale=$(SCALE) $(ARGS)
morpion-table4: ## Morpion paper Table 4, Figure 6: Expert Iteration, a run per published row (NeuralNMCS, NeuralNRPA experts), network and expert scores, best over time (needs PyTorch)
	$(PY) -m experiments.neural table4 scale=$(SCALE) $(ARGS)
family-samegame: ## NRPA family, SameGame board 1: NRPA, SNRPA(4), GNRPA (tabu bias), GNRPA-LR vs time (no published table)
family-tsptw: ## NRPA family, TSPTW rc_204.1: NRPA, SNRPA(4), GNRPA (time bias), GNRPA-LR vs time (no published table)
family-weakschur: ## NRPA family, Weak Schur WS(7): GNRPA vs GNRPA-LR over time (no published table)
family-boards: ## NRPA family, 20 SameGame boards: Beam NRPA(4) beside Distributed NRPA's Table 1 (Diversity-NRPA as published)
spmcts-samegame: ## SP-MCTS beside NRPA on SameGame board 1, mean best score vs time (no published table)
spmcts-boards: ## SP-MCTS on the 20 SameGame boards beside Selective NRPA's Table 4 (the published SP-MCTS column)
spmcts-speedup: ## Gelly et al.'s comparison on SP-MCTS: speed-up of the shared tree (2 threads; paper 2, 4, 16), averaged trees (K = 0) and voting at the end (T0 = infinity) (2 nodes; paper 2, 3, 4, 9), root, over sequential
family: family-samegame family-tsptw family-weakschur family-boards ## the four NRPA-family experiments (SCALE=quick: 29 min measured on 2 cores)

$(EXPERIMENTS): ## run an experiment through the store, then write its tables and figures
	$(PY) -m experiments.estimate experiment=$(experiment) scale=$(SCALE) $(ARGS)
	$(PY) run.py -m experiment=$(experiment) scale=$(SCALE) $(ARGS)
	$(PY) -m analysis.report experiment=$(experiment) scale=$(SCALE) $(ARGS)
	$(if $(filter morpion-table2,$@),$(PY) -m experiments.neural table2 scale=$(SCALE))

claims: ## the papers' claims judged at their own settings (SCALE=smoke|quick|paper; CLAIMS="distributed gelly": those files only): makes the runs missing at SCALE (cost first), writes each experiment's tables, then outputs/claims/claims_<scale>.*; BUDGET=6h: rounds until decided or spent, claims_<scale>_decided.*
	$(PY) -m experiments.campaign scale=$(SCALE) $(ARGS) $(if $(strip $(BUDGET)),--budget $(BUDGET)) $(claim_files)

export: ## every stored run at SCALE (or of EXPERIMENT=name only) as one long table: outputs/export/*.{parquet,csv}
	$(PY) -m analysis.export scale=$(SCALE) $(if $(EXPERIMENT),experiment=$(EXPERIMENT)) $(ARGS)

site: ## the results site from the stored runs at SCALE: outputs/site/index.html, a page per paper, the claims, the records (opens from disk)
	$(PY) -m analysis.site scale=$(SCALE) $(ARGS)

clean-cache: ## delete numba's compiled kernels and make list's cache (both are rebuilt on the next use)
	rm -rf .numba_cache .catalog_cache
