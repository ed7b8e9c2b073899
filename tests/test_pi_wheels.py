"""Proof, without a Pi, that Easel installs on Raspberry Pi OS trixie (64-bit; Bookworm with
EASEL_PI_SUITE=bookworm) with no compiler and that the kiosk's display driver is in the
wheel (tests/pi_check).

Slow and networked (the package index, Debian's mirror): run by `make pi-check` (and CI
after `make test`), skipped in a plain `make test`. EASEL_PI_CHECK=1 turns them on;
there a missing tool is a failure, not a skip. The fixtures build the caches (debootstrap,
the downloads: minutes on a cold run) with no pytest timeout of their own: the suite's
120 s is for a test, not for a download (func_only).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import pi_check
from tests.pi_check import AptView, PiCheckError

pytestmark = [
    pytest.mark.skipif(os.environ.get("EASEL_PI_CHECK") != "1",
                       reason="make pi-check runs these (EASEL_PI_CHECK=1)"),
    # The suite's timeout counts a test's own time; the fixtures' downloads and debootstrap
    # have their own bounds (run()'s timeouts) and a cold cache takes minutes.
    pytest.mark.timeout(120, func_only=True),
]

SMOKE = Path(pi_check.__file__).parent / "smoke_aarch64.py"


@pytest.fixture(scope="module")
def apt_view() -> AptView:
    for tool in ("apt-get", "apt-cache", "dpkg"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing: the arm64 view needs Debian's apt")
    view = AptView(pi_check.CACHE / "apt-arm64")
    view.prepare()
    return view


@pytest.fixture(scope="module")
def pi_python_version(apt_view: AptView) -> str:
    """The Python of Raspberry Pi OS (its Debian release's python3 for arm64)."""
    return pi_check.python_version_of(apt_view.candidate("python3"))


def test_the_pi_python_is_the_releases(pi_python_version: str) -> None:
    # Raspberry Pi OS trixie is built on Debian 13's python3: 3.13 (Bookworm's: 3.11).
    assert pi_python_version == pi_check.RELEASE.python, pi_check.SUITE


def test_every_dependency_has_an_aarch64_wheel(tmp_path: Path, pi_python_version: str) -> None:
    """pip resolves the whole dependency tree from binary wheels only, for aarch64."""
    wanted = pi_check.wheel_requirements(pi_python_version)
    assert any(r.startswith("pygame-ce") for r in wanted)
    # The [pi] extra is checked too where PyPI has lgpio for the Pi's Python; its marker
    # leaves it out for 3.13, where it comes from Raspberry Pi OS's archive
    # (test_lgpio_is_raspberry_pi_oss_own_on_trixie).
    has_lgpio = any(r.startswith("lgpio") for r in wanted)
    assert has_lgpio == pi_check.RELEASE.lgpio_wheel, wanted
    wheels = pi_check.download_wheels(tmp_path, pi_python_version)
    names = {w.name.split("-")[0].lower().replace("_", "-") for w in wheels}
    assert {pi_check.requirement_name(r) for r in wanted} <= names
    assert not list(tmp_path.glob("*.tar.gz")), "only wheels: a Pi builds nothing"
    for wheel in wheels:
        tags = wheel.name.removesuffix(".whl").split("-")[-1]
        assert tags == "any" or "aarch64" in tags, wheel.name
    (pygame,) = [w for w in wheels if w.name.startswith("pygame_ce-")]
    assert re.match(r"pygame_ce-2\.(5|6|7|8|9|\d\d)", pygame.name), (
        "kmsdrm is in the manylinux wheels from pygame-ce 2.5 on; 3.x is SDL3"
    )


def test_a_dependency_without_a_wheel_is_named(tmp_path: Path, pi_python_version: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: evdev (sdist only on PyPI) is refused by name."""
    monkeypatch.setattr(pi_check, "wheel_requirements", lambda *_: ["evdev>=1.6"])
    with pytest.raises(PiCheckError, match="evdev"):
        pi_check.download_wheels(tmp_path, pi_python_version)


def test_the_installers_debian_packages_exist_for_arm64(apt_view: AptView) -> None:
    named = pi_check.installer_packages()
    # The lists the installer may ask apt for (install_packages in systemd/install.sh).
    assert {"python3", "python3-venv", "python3-evdev", "libgbm1", "dnsmasq-base"} <= named
    debian = named - pi_check.RASPBERRY_PI_ONLY
    for package in sorted(debian):
        assert apt_view.candidate(package), f"{package} is not in {pi_check.SUITE} for arm64"
    # Together, on a fresh arm64 system: every dependency resolves.
    plan = apt_view.simulate_install(debian)
    installed = set(re.findall(r"^Inst (\S+)", plan, re.MULTILINE))
    assert debian <= installed, debian - installed


def test_lgpio_is_raspberry_pi_oss_own_on_trixie(apt_view: AptView, tmp_path: Path,
                                                 pi_python_version: str) -> None:
    """python3-lgpio is not in Debian (only in Raspberry Pi OS's archive, which a Pi's apt
    has), and PyPI has no lgpio wheel for trixie's Python: the installer says so and the box
    starts without a panel (tests/test_app.py: on-screen buttons and a notice)."""
    assert "python3-lgpio" in pi_check.RASPBERRY_PI_ONLY
    assert apt_view.candidate("python3-lgpio") == "", "python3-lgpio is in Debian now"
    if pi_check.RELEASE.lgpio_wheel:
        pytest.skip(f"{pi_check.SUITE}'s Python {pi_python_version} has an lgpio wheel")
    with pytest.raises(PiCheckError, match="lgpio"):
        pi_check.run(pi_check.pip("download", "--quiet", "--no-deps", "--dest", str(tmp_path),
                                  *pi_check.pip_platform_args(pi_python_version),
                                  "lgpio>=0.2,<1"))


def test_debians_evdev_is_new_enough_so_pip_compiles_nothing(apt_view: AptView) -> None:
    have = apt_view.candidate("python3-evdev")
    want = pi_check.debian_minimum("evdev")
    assert pi_check.version_at_least(have, want), f"python3-evdev {have} < evdev>={want}"


# --- the smoke run under qemu-user ---------------------------------------------------------


@pytest.fixture(scope="module")
def smoke(pi_python_version: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        tuple[dict[str, str], str]]:
    if shutil.which(pi_check.QEMU) is None:
        pytest.fail(f"{pi_check.QEMU} is missing (apt-get install qemu-user-static)")
    if shutil.which("debootstrap") is None:
        pytest.fail("debootstrap is missing (apt-get install debootstrap)")
    root = pi_check.arm64_root()
    deps = pi_check.deps_site(pi_check.CACHE, pi_python_version)
    scratch = tmp_path_factory.mktemp("pi-smoke")
    easel = pi_check.easel_site(scratch / "easel", pi_python_version)
    # The settings a 7" box gets from the installer, where the Pi keeps them. (qemu's -L
    # looks in the root first, so /etc/easel/appliance.toml is the root's.)
    settings = root / "etc" / "easel" / "appliance.toml"
    settings.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(pi_check.REPO / "config" / "profiles" / "pi-7inch.toml", settings)
    env = pi_check.smoke_env(scratch, easel, deps)
    env["SDL_LOGGING"] = "*=debug"  # SDL says which devices a driver looked for
    env["EASEL_SMOKE_LGPIO"] = "1" if pi_check.RELEASE.lgpio_wheel else "0"
    result = subprocess.run(
        [*pi_check.aarch64_python(root), str(SMOKE)], env=env, capture_output=True,
        text=True, timeout=600, check=False, cwd=scratch,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    found = dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
    found["stdout"] = result.stdout
    yield found, result.stderr


def test_the_wheels_run_on_aarch64_python(smoke: tuple[dict[str, str], str]) -> None:
    found, _ = smoke
    assert found["machine"] == "aarch64"
    assert found["python"].startswith(pi_check.RELEASE.python + ".")
    assert "dist-packages" in found["import evdev"], "Debian's python3-evdev, not a build"
    if pi_check.RELEASE.lgpio_wheel:
        assert "site-" in found["import lgpio"], "lgpio from its wheel"
    else:
        # No lgpio (Raspberry Pi OS's archive only): the panel says what to install.
        assert "import lgpio" not in found
        assert found["gpio without lgpio"].startswith("PanelError: no GPIO library works")
        assert "python3-lgpio" in found["gpio without lgpio"]
    assert found["pygame-ce"].startswith("2.")


def test_easel_check_config_passes_on_aarch64(smoke: tuple[dict[str, str], str]) -> None:
    found, _ = smoke
    assert found["easel script"] == "appliance.cli:main"
    assert found["check-config exit"] == "0"
    # The pi-7inch profile's settings, read from the root's /etc/easel/appliance.toml.
    assert "width = 800" in found["stdout"] and "config OK" in found["stdout"]


def test_sdl_has_kmsdrm_compiled_in_and_only_the_device_is_missing(
    smoke: tuple[dict[str, str], str],
) -> None:
    found, log = smoke
    assert "KMSDRM" in found["SDL video drivers"].split(), found["SDL video drivers"]
    # SDL words both failures "<name> not available"; what differs is what it tried.
    # kmsdrm looked for the DRM devices (there is none under emulation) ...
    kmsdrm = log.split("--- opening kmsdrm", 1)[1].split("--- done kmsdrm", 1)[0]
    assert "/dev/dri" in kmsdrm, kmsdrm
    assert found["open kmsdrm"].startswith("error:")
    # ... an unknown driver gets the same words without looking for any device.
    unknown = log.split("--- opening nosuchdriver", 1)[1].split("--- done nosuchdriver", 1)[0]
    assert "/dev/dri" not in unknown and "nosuchdriver not available" in unknown
    assert found["open nosuchdriver"] == "error: nosuchdriver not available"
