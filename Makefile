# The two commands of the README: `make run` and `make test`. Everything else follows.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
RUNTIME_STAMP := $(VENV)/.runtime-installed
DEV_STAMP     := $(VENV)/.dev-installed

.PHONY: run test lint bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Easel needs Python 3.11 or newer; found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@ $(RUNTIME_STAMP)

run: $(RUNTIME_STAMP)
	$(BIN)/easel run

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

bench: $(DEV_STAMP)
	$(BIN)/python -m tests.bench

clean:
	rm -rf $(VENV) .bench .pytest_cache .mypy_cache .ruff_cache
