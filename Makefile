# The two commands of the README: `make run` and `make test`. Everything else follows.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
RUNTIME_STAMP := $(VENV)/.runtime-installed
DEV_STAMP     := $(VENV)/.dev-installed

.PHONY: run test lint bench pi-check boot-check clean

# On a Raspberry Pi the venv sees Debian's packages (--system-site-packages): python3-lgpio
# (Raspberry Pi OS's own; PyPI has none for trixie's Python 3.13) and python3-evdev (pip
# would compile it), as the installer's venv does. Elsewhere a plain venv.
PI_MODEL ?= /proc/device-tree/model
VENV_FLAGS := $(if $(findstring Raspberry Pi,$(shell cat $(PI_MODEL) 2>/dev/null | tr -d '\000')),--system-site-packages)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Easel needs Python 3.11 or newer; found " + sys.version.split()[0])'
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)

$(RUNTIME_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@ $(RUNTIME_STAMP)

# The host's "Restart the box" needs nothing here: `easel run` replaces itself with the
# same command on a desktop, and exits 75 for systemd only under systemd (appliance/cli.py).
run: $(RUNTIME_STAMP)
	$(BIN)/easel run

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# Two workers (pytest-xdist): the suite is sized for a 2-core machine (about 11 minutes
# there). --dist loadfile keeps each file's tests in one worker and in
# file order (test_hostile counts what its fuzz test sent).
test: lint
	$(BIN)/pytest -n 2 --dist loadfile

bench: $(DEV_STAMP)
	$(BIN)/python -m tests.bench

# Proof without a Pi that Easel installs on Raspberry Pi OS trixie (64-bit; PI_SUITE=bookworm
# for the previous release): aarch64 wheels only, the installer's Debian packages for arm64,
# and a smoke run of the wheels under qemu-user (tests/pi_check). Needs debootstrap and
# qemu-user-static (apt-get install debootstrap qemu-user-static). Networked and slow the
# first time (a few minutes, as root for debootstrap); cached in .pi-check/ after that.
PI_SUITE ?= trixie
pi-check: $(DEV_STAMP)
	EASEL_PI_CHECK=1 EASEL_PI_SUITE=$(PI_SUITE) $(BIN)/pytest -p no:cacheprovider tests/test_pi_wheels.py

# The appliance booted whole in an x86_64 Debian trixie VM (tests/boot_check; KVM where it
# runs Debian's kernel, else emulated): the installer on a clean image, a reboot, the unit
# by itself on virtio-gpu through kmsdrm, three phones through a loopback port playing a
# round, a power cut, the watchdog (docs/testing.md). Needs root, apt-get install
# debootstrap qemu-system-x86 qemu-utils, Debian's chromium; the image is cached in
# .boot-check/. Never part of `make test`.
boot-check: $(DEV_STAMP)
	EASEL_BOOT_CHECK=1 $(BIN)/pytest -p no:cacheprovider tests/test_boot_check.py

clean:
	rm -rf $(VENV) .bench .pi-check .boot-check .pytest_cache .mypy_cache .ruff_cache
