# The two commands of the README: `make run` and `make test`. Everything else follows.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
RUNTIME_STAMP := $(VENV)/.runtime-installed
DEV_STAMP     := $(VENV)/.dev-installed

.PHONY: run test lint bench pi-check clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Easel needs Python 3.11 or newer; found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@ $(RUNTIME_STAMP)

# The host's "Restart the box" exits with 75 (systemd starts the box again); here make
# does what systemd would, so the page's promise of a reconnect holds on a desktop too.
run: $(RUNTIME_STAMP)
	@while :; do $(BIN)/easel run; code=$$?; \
	  if [ $$code -ne 75 ]; then exit $$code; fi; \
	  echo "easel: starting the box again (the host asked for a restart)" >&2; done

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# Two workers (pytest-xdist): the suite is sized for a 2-core machine (about 9 minutes
# there, 14 in one process). --dist loadfile keeps each file's tests in one worker and in
# file order (test_hostile counts what its fuzz test sent).
test: lint
	$(BIN)/pytest -n 2 --dist loadfile

bench: $(DEV_STAMP)
	$(BIN)/python -m tests.bench

# Proof without a Pi that Easel installs on Raspberry Pi OS Bookworm (64-bit): aarch64
# wheels only, the installer's Debian packages for arm64, and a smoke run of the wheels
# under qemu-user (tests/pi_check). Networked and slow the first time (a few minutes, as
# root for debootstrap); cached in .pi-check/ after that.
pi-check: $(DEV_STAMP)
	EASEL_PI_CHECK=1 $(BIN)/pytest -p no:cacheprovider tests/test_pi_wheels.py

clean:
	rm -rf $(VENV) .bench .pi-check .pytest_cache .mypy_cache .ruff_cache
