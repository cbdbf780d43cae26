# Quick start:  make play   (a game in the terminal)   ·   make test   (the test suite)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install play serve test lint typecheck bench clean

$(STAMP): pyproject.toml package-lock.json src/fivehundred/env/_speedups.c \
		src/fivehundred/env/_batched.c \
		src/fivehundred/solver/_kernel.c src/fivehundred/solver/_kernel_search.h
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
	@# the layers of pyproject.toml's [tool.importlinter]; tests/test_layers.py: private names
	$(BIN)/lint-imports --no-cache
	@# the JavaScript (web/static/js, pad/static): biome's linter and formatter check (biome.json)
	if [ -x node_modules/.bin/biome ]; then node_modules/.bin/biome ci --colors=off; \
	else echo "JavaScript not linted: node_modules/.bin/biome missing (npm ci)"; fi

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -n 2 --dist worksteal --durations=25

bench: $(STAMP)
	$(BIN)/python bench/bench_engine.py

clean:
	rm -rf $(VENV) node_modules build *.egg-info .pytest_cache .mypy_cache .ruff_cache
