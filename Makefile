# NRPA research harness. `make help` lists the targets.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.DEFAULT_GOAL := help
.PHONY: help install test test-slow bench verify clean-cache

help: ## list the targets
	@grep -E '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

install: ## create .venv and install the project with its dev extras
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"

test: ## fast test suite (numba compile included; under 5 minutes on 2 cores)
	$(PY) -m pytest -q

test-slow: ## the slow checks only
	$(PY) -m pytest -q -m slow

bench: ## engine speed: playouts per CPU-second on SameGame board 1 (about 1 minute)
	$(PY) -m experiments.bench

verify: ## replay every certificate under outputs/ with the plain-Python rules
	$(PY) -m experiments.verify

clean-cache: ## delete numba's compiled kernels (they are rebuilt on the next run)
	rm -rf .numba_cache
