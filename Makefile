# Quick start:  make play   (a game in the terminal)   ·   make test   (the test suite)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install play serve test lint typecheck bench clean

$(STAMP): pyproject.toml package-lock.json src/fivehundred/env/_speedups.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -e '.[all,dev]'
	if command -v npm >/dev/null; then npm ci --no-audit --no-fund; fi
	touch $(STAMP)

install: $(STAMP)

play: $(STAMP)
	$(BIN)/fivehundred play

serve: $(STAMP)
	$(BIN)/fivehundred serve

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/bench_engine.py

clean:
	rm -rf $(VENV) node_modules build *.egg-info .pytest_cache .mypy_cache .ruff_cache
