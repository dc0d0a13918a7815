# NRPA research harness. `make help` lists the targets, `make list` the experiments.
# the interpreter that creates .venv (make install)
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

# The variables a user sets (`make help` says them once, with their defaults):
# paper (the published protocol, hours to days), quick (a preview in minutes) or smoke (seconds: it runs)
SCALE ?= paper
ARGS ?=  # more overrides for an experiment, e.g. ARGS="threads=1,2,4,8"
BUDGET ?=  # make claims BUDGET=6h: CPU-hours of new runs, spent in rounds on the claims still undecided (analysis/claims/campaign.py); make campaign BUDGET=6h: CPU-hours of this start
CLAIMS ?=  # make claims: only the claims of analysis/claims/<name>.yaml, e.g. CLAIMS="gnrpa gnrpa_lr"
COST ?=  # make list COST=1: with each experiment's cost at each scale (composes every experiment: a minute or two the first time)
claim_files = $(if $(strip $(CLAIMS)),--files $(CLAIMS))
# conf/experiment/<name>.yaml of a target: dashes become underscores
experiment = $(subst -,_,$@)
# Paper tables and figures, named <paper>-<table>; each is conf/experiment/<paper>_<table>.yaml.
EXPERIMENTS := selective-table2 selective-table3 selective-table4 selective-table5 selective-table6 \
	stabilized-table1 stabilized-table2 stabilized-table3 stabilized-table4 distributed-table1 \
	morpion-table2 distributed-fig3 distributed-fig4 distributed-fig5 speedup \
	family-samegame family-tsptw family-weakschur family-boards spmcts-samegame spmcts-boards spmcts-speedup
# The Morpion paper's neural tables: steps of analysis/results/neural.py, not Hydra sweeps (`make list` reads this)
NEURAL_TABLES := morpion-table1 morpion-table3 morpion-table4

.DEFAULT_GOAL := help
.PHONY: help install browser test test-slow docs bench bench-cpp cpp-ref reference-runs engines rates verify list leaderboard archive clean-cache table4 family claims campaign snapshot readings reproduction results export site $(NEURAL_TABLES) $(EXPERIMENTS)

# Each target's `##` text is one line of `make help`: 72 characters at most, so that a line
# of it stays under 100; the details are in the comment above the target.

help: ## list the targets
	@echo "make TARGET [SCALE=paper|quick|smoke] [ARGS=\"key=value ...\"]"
	@echo "  SCALE: paper (the default: the published protocol, hours to days), quick (a preview"
	@echo "  in minutes) or smoke (seconds: a check that it runs). Every experiment target prints"
	@echo "  its cost (over an hour, on a terminal: asks first; YES=1 does not ask), then runs what"
	@echo "  the store lacks; \`make list\`: the experiments and their papers."
	@echo "  ARGS: more overrides (ARGS=\"threads=1,2,4\"); claims, campaign: BUDGET=6h; CLAIMS=\"gnrpa\";"
	@echo "  list: COST=1; export, rates, snapshot: EXPERIMENT=name; bench-cpp: CPP_REF=dir;"
	@echo "  install: NEURAL=no (no PyTorch), TORCH_INDEX=URL (PyTorch from that index: CPU-only)."
	@echo
	@grep -E '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-19s %s\n", $$1, $$2}'

NEURAL ?= yes  # make install NEURAL=no: without PyTorch (the neural Morpion targets then say what is missing)
extras = dev$(if $(filter no,$(strip $(NEURAL))),,$(comma)neural)
comma := ,
# PyTorch's default wheels bring 4 GB of CUDA libraries (docs/notes/requirements.md); its CPU-only
# wheels are on its own index, which cannot serve the project's other packages: torch comes from
# there first, and the project's install then finds torch>=2.4 satisfied and keeps it
TORCH_INDEX ?=  # make install TORCH_INDEX=https://download.pytorch.org/whl/cpu: PyTorch without CUDA
torch_first = $(if $(and $(strip $(TORCH_INDEX)),$(findstring neural,$(extras))),$(PY) -m pip install --quiet torch --index-url $(strip $(TORCH_INDEX)))

install: ## create .venv: the project, its dev extras, PyTorch (NEURAL=no: none)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(torch_first)
	$(PY) -m pip install --quiet -e ".[$(extras)]"

# the browser test of the results site (tests/test_site_browser.py) drives Debian's chromium, a system
# package: installed by this step alone (apt-get, as root), never by make install; without it the test is skipped
browser: ## Debian's chromium for the results site's browser test (apt-get, root)
	command -v chromium >/dev/null || apt-get install -y chromium || echo "chromium not installed (apt-get needs root): tests/test_site_browser.py will be skipped"

# one worker process per core, each test file in one (numba compile included)
test: ## the fast tests (3-4 min on 2 cores from a fresh clone; 2 run again)
	$(PY) -m pytest -q -n auto --dist loadfile

# kernel cache under interrupted and concurrent compiles, the threaded kernels, submitit, the site in a browser
test-slow: ## the slow checks only (about 30 minutes on 2 cores)
	$(PY) -m pytest -q -m slow

# mkdocs-material (the dev extra), --strict: a broken link or a page left out of the nav fails;
# the make-targets, config-options and results pages are generated from the Makefile, the Hydra
# schema and docs/results/ (analysis/site/mkdocs_hooks.py)
docs: ## the documentation site: outputs/docs/index.html (opens from disk)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --quiet
	@echo "documentation site: $(CURDIR)/outputs/docs/index.html (open it from disk)"

# playouts per CPU-second of every domain, leaf parallel speed-up, the scaling figure (root and leaf
# parallelism on 1..all cores: outputs/bench/scaling.{csv,png}; alone: ARGS=--scaling-only), where a
# level-1 iteration spends its time and what a game move costs (ARGS=--level1), threaded run start cold
# and warm, the threaded kernels under load (alone, beside a CPU hog, two runs at once: ARGS=--contention
# alone), SP-MCTS, the neural networks
bench: ## engine speed: every domain, parallel scaling, ... (about 10 minutes)
	$(PY) -m experiments.bench $(ARGS)

# rho of a published time table's columns (experiments/rates.py): the YAML to put under
# report.published_rate in conf/experiment/<EXPERIMENT>.yaml, e.g. ARGS="--seconds 16 --rounds 6"
rates: ## rho of a time table's columns, for matched time (EXPERIMENT, ARGS)
	$(PY) -m experiments.rates experiment=$(EXPERIMENT) $(ARGS)

# The C++ reference engine, an instrument of the harness (experiments/reference_engine.py): clones
# CPP_REF and builds it with experiments/cpp_ref/instrument.patch into build/cpp-ref (git, make, g++)
cpp-ref: ## build the C++ reference engine (CPP_REF=a clone of bnegreve/nrpa)
ifndef CPP_REF
	@echo "make cpp-ref needs CPP_REF=<a clone of github.com/bnegreve/nrpa>: get one with" \
		"git clone https://github.com/bnegreve/nrpa, then run make cpp-ref CPP_REF=nrpa (the clone's folder)" >&2; exit 2
else
	experiments/cpp_ref/build.sh "$(abspath $(CPP_REF))" build/cpp-ref
endif

# a time table's columns run on the reference engine, resumable (experiments/reference_runs.py),
# appended to archive/reference/<TABLE>.jsonl, e.g. TABLE=stabilized_table4 ARGS="--runs 10 --hours 2"
reference-runs: ## C++ reference engine runs of a time table (TABLE, ARGS)
	$(PY) -m experiments.reference_runs $(TABLE) $(ARGS)

# the reference engine's runs beside ours, from committed data (analysis/claims/engines.py):
# docs/results/engines_<TABLE>.{md,csv,png} and the summary over tables, engines_clocks.md
engines: ## the C++ engine's clock and search beside ours (TABLE)
	$(PY) -m analysis.claims.engines_page $(TABLE) --summary

# SameGame board 1, NRPA level 4, playouts per CPU-second in interleaved pairs (ARGS="--pairs 7 --seconds 10");
# experiments/cpp_ref/build.sh builds the reference (needs git, make, g++; CPP_REF_BUILD=another script)
bench-cpp: ## this engine beside the C++ reference, CPP_REF=its checkout (6 min)
ifndef CPP_REF
	@echo "make bench-cpp needs CPP_REF=<a checkout of github.com/bnegreve/nrpa>: get one with" \
		"git clone https://github.com/bnegreve/nrpa, then run make bench-cpp CPP_REF=nrpa (the clone's folder)" >&2; exit 2
else
	$(PY) -m experiments.bench_cpp --reference "$(CPP_REF)" $(ARGS)
endif

verify: ## replay every certificate of outputs/ and archive/ with the plain rules
	$(PY) -m experiments.verify

# runs are offered as they finish; this offers every stored one
leaderboard: ## offer every stored run to the per-board leaderboard
	$(PY) -m experiments.leaderboard

# a new archive/runs-v1-<UTC time>.parquet (commit it: other clones reuse its runs;
# `python -m experiments.archive list`: what it holds)
archive: ## pack the run files that no pack holds yet into archive/
	$(PY) -m experiments.archive pack $(ARGS)

list: ## every experiment target with its paper (COST=1: and its cost)
	$(PY) -m experiments.catalog $(if $(strip $(COST)),--cost)

table4: stabilized-table4 ## = stabilized-table4

selective-table2: ## Selective NRPA Table 2: bus regulation, standard vs rule, delta 1..4
selective-table3: ## Selective NRPA Table 3: SameGame board 1 by playout rule
selective-table4: ## Selective NRPA Table 4: best scores on the 20 SameGame boards
selective-table5: ## Selective NRPA Table 5: Weak Schur K = 6, 7, standard vs rule
selective-table6: ## Selective NRPA Table 6: Weak Schur K = 8, 9, standard vs rule
stabilized-table1: ## Stabilized NRPA Table 1: Maximum problem (199 atoms), NRPA vs SNRPA(P)
stabilized-table2: ## Stabilized NRPA Table 2: best scores on the 20 SameGame boards
stabilized-table3: ## Stabilized NRPA Table 3: TSPTW rc_204.1, NRPA vs SNRPA(P)
stabilized-table4: ## Stabilized NRPA Table 4: SameGame board 1, NRPA vs SNRPA(P)
# NMCS(4), NRPA(4), Dist-NRPA(5) (hybrid-1)
distributed-table1: ## Distributed NRPA Table 1: best scores on the 20 SameGame boards
distributed-fig3: ## Distributed NRPA Fig. 3: score vs playouts, shared/thread-local
# threads 1..32 at SCALE=paper, 1,2 below; ARGS=threads=1,2,4 for others
distributed-fig4: ## Distributed NRPA Fig. 4: score after a fixed time, by threads
# root (K x threads jobs) vs hybrid-1 vs hybrid-2 over time, boards 1 and 3
distributed-fig5: ## Distributed NRPA Fig. 5: root vs hybrid-1 vs hybrid-2 over time
speedup: ## speed-up k(t) of parallel over sequential NRPA (Gelly et al.)
# 5D: uniform policy, NRPA(1..3) final scores, best grid as PNG; then the neural rows (games
# sampled from Table 1's networks) and Figure 5
morpion-table2: ## Morpion Table 2: uniform and NRPA(1..3), then the neural rows
# NRPA games (5D) and the score filter's trade-off, the three imitation networks trained, their
# held-out accuracy and curves (Figures 2, 3 and 4)
morpion-table1: ## Morpion Table 1: the imitation networks trained (PyTorch)
	$(PY) -m analysis.results.neural table1 scale=$(SCALE) $(ARGS)
# score and time per game
morpion-table3: ## Morpion Table 3: Nested(1) with ResNet R2 vs the network alone
	$(PY) -m analysis.results.neural table3 scale=$(SCALE) $(ARGS)
# a run per published row (NeuralNMCS, NeuralNRPA experts), network and expert scores, best over
# time (Figure 6)
morpion-table4: ## Morpion Table 4: Expert Iteration, a run per row (PyTorch)
	$(PY) -m analysis.results.neural table4 scale=$(SCALE) $(ARGS)
# NRPA, SNRPA(4), GNRPA (tabu bias), GNRPA-LR vs time (no published table)
family-samegame: ## NRPA family on SameGame board 1 vs time
# NRPA, SNRPA(4), GNRPA (time bias), GNRPA-LR vs time (no published table)
family-tsptw: ## NRPA family on TSPTW rc_204.1 vs time
family-weakschur: ## NRPA family: GNRPA vs GNRPA-LR on Weak Schur WS(7) vs time
# Diversity-NRPA as published
family-boards: ## Beam NRPA(4) on the 20 boards beside Distributed NRPA Table 1
spmcts-samegame: ## SP-MCTS beside NRPA on SameGame board 1 vs time
spmcts-boards: ## SP-MCTS on the 20 boards beside Selective NRPA Table 4
# Gelly et al.'s comparison: speed-up of the shared tree (2 threads; paper 2, 4, 16), averaged trees
# (K = 0) and voting at the end (T0 = infinity) (2 nodes; paper 2, 3, 4, 9), root, over sequential
spmcts-speedup: ## SP-MCTS parallel: shared tree, averaged, voting, root (Gelly)
family: family-samegame family-tsptw family-weakschur family-boards ## the four family-* (quick: 29 min)

# run.py -m prints the cost (asks first on a terminal when over an hour: YES=1 does not ask),
# makes the runs the store lacks in one pool, then writes the tables and figures (experiments/sweep.py)
$(EXPERIMENTS):
	$(PY) run.py -m experiment=$(experiment) scale=$(SCALE) $(ARGS)
	$(if $(filter morpion-table2,$@),$(PY) -m analysis.results.neural table2 scale=$(SCALE))

# makes the runs missing at SCALE (cost first), writes each experiment's tables, then
# outputs/claims/claims_<scale>.*; BUDGET=6h: rounds until decided or spent, claims_<scale>_decided.*
claims: ## the papers' claims judged at their own settings (CLAIMS, BUDGET)
	$(PY) -m analysis.claims.campaign scale=$(SCALE) $(ARGS) $(if $(strip $(BUDGET)),--budget $(BUDGET)) $(claim_files)

export: ## every stored run at SCALE as one table: outputs/export/ (EXPERIMENT)
	$(PY) -m analysis.results.export scale=$(SCALE) $(if $(EXPERIMENT),experiment=$(EXPERIMENT)) $(ARGS)

# a page per paper, the claims, the records (opens from disk); the documentation first
# (make docs: outputs/docs/), which every page links to
site: docs ## the results site of the stored runs at SCALE: outputs/site/index.html
	-$(PY) -m analysis.claims.reproduction scale=$(SCALE)
	$(PY) -m analysis.site.build scale=$(SCALE) $(ARGS)

# the papers' time tables at matched time, 200 runs a column for Stabilized Table 4 and Selective
# Table 3, 50 for the five others, in that order (experiments/paper_campaign.py); resumes where it
# stopped, packs into archive/ after each step (commit the packs); BUDGET=6h: CPU-hours this start
campaign: ## fill the time tables at paper scale, resumable (BUDGET, ARGS=--status)
	$(PY) -m experiments.paper_campaign $(if $(strip $(BUDGET)),--budget $(BUDGET)) $(ARGS)

# a time table at paper scale and matched time as the claims read it, beside the published cells, for
# committing: docs/results/<EXPERIMENT>_paper.{md,csv,png} (makes no run: make campaign makes them)
snapshot: ## a time table at paper scale into docs/results (EXPERIMENT)
	$(PY) -m analysis.claims.snapshot experiment=$(EXPERIMENT) --to docs/results $(ARGS)

# each setting a paper leaves unsaid (analysis/readings.yaml): its candidate readings run on the
# published baseline column (the runs the store lacks first: 20 a candidate at paper scale, to twice the work of 163.84 s), R fitted
# with each, the published cells choosing: outputs/readings/readings[_SCALE].{md,csv,png}
readings: ## candidate readings of unsaid settings, fitted to the papers' baselines
	$(PY) -m analysis.claims.readings scale=$(SCALE) --make $(ARGS)

# every committed results page (claims report, reproduction, readings, the time tables' snapshots) and the
# README's summary, remade from the committed archive at the committed code (refuses local changes);
# ARGS=--check remakes into a temporary folder and fails on any difference (tests/test_pages.py, slow)
results: ## remake the committed results pages from the archive (ARGS=--check)
	$(PY) -m analysis.claims.pages $(ARGS)

# from the claims report under a budget (make claims writes both): one status per published table and figure
reproduction: ## each published table and figure's status: outputs/claims/reproduction.*
	$(PY) -m analysis.claims.reproduction scale=$(SCALE) $(ARGS)

clean-cache: ## delete numba's compiled kernels and make list's cache (rebuilt on use)
	rm -rf .numba_cache .catalog_cache
