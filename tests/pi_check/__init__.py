"""What a Raspberry Pi would install, checked on this machine (no Pi here).

Three proofs for Raspberry Pi OS trixie (Debian 13, Python 3.13, 64-bit aarch64), run by
`make pi-check` (tests/test_pi_wheels.py; `python -m tests.pi_check` builds the caches and
times it). EASEL_PI_SUITE=bookworm (`make pi-check PI_SUITE=bookworm`) checks the previous
release, Bookworm (Python 3.11), which Easel still supports.

- every runtime dependency in pyproject.toml resolves to a binary wheel for linux_aarch64
  and the release's CPython (pip download --only-binary=:all: --platform ...), so a Pi
  never needs a compiler; evdev has no wheel and comes from Debian's python3-evdev, and
  lgpio has no wheel for Python 3.13: on trixie it comes from Raspberry Pi OS's own
  archive (python3-lgpio), and where that is missing the box starts without a panel;
- the Debian packages systemd/install.sh names exist for arm64 and install together, seen
  through a private apt view (APT_CONFIG pointing at a folder here: the machine's own
  sources and architecture are never changed);
- an arm64 root that `debootstrap --foreign` unpacks (its packages extracted with
  dpkg-deb; nothing arm64 is executed by debootstrap, no binfmt handler is registered)
  runs the aarch64 wheels under `qemu-aarch64-static -L <root>`: Easel imports,
  `easel check-config` passes, and pygame-ce's SDL has kmsdrm compiled in.

Everything slow is cached under .pi-check/ (gitignored): the root, the apt lists, the
wheels. The Debian mirror is the one this machine's apt sources name, asked for the
checked release's suites (this machine's own release may be older).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("EASEL_PI_CHECK_CACHE") or REPO / ".pi-check")
QEMU = "qemu-aarch64-static"


@dataclass(frozen=True)
class Release:
    """A Raspberry Pi OS release as pi-check sees it: the Debian suite it is built on, that
    suite's python3 and glibc, and whether PyPI has an aarch64 lgpio wheel for it."""

    suite: str
    python: str
    glibc_minor: int
    lgpio_wheel: bool


# Raspberry Pi OS has been built on trixie since October 2025; Bookworm is the previous one.
RELEASES = {
    "trixie": Release("trixie", "3.13", 41, lgpio_wheel=False),
    "bookworm": Release("bookworm", "3.11", 36, lgpio_wheel=True),
}
SUITE = os.environ.get("EASEL_PI_SUITE") or "trixie"
if SUITE not in RELEASES:
    raise ValueError(f"EASEL_PI_SUITE={SUITE!r}: pi-check knows {', '.join(RELEASES)}")
RELEASE = RELEASES[SUITE]

# Every manylinux tag from 2014 (glibc 2.17) up to the release's glibc installs there.
# (lgpio's only aarch64 wheel is manylinux_2_34: manylinux2014 alone would miss it.)
PLATFORMS = (
    *(f"manylinux_2_{minor}_aarch64" for minor in range(RELEASE.glibc_minor, 16, -1)),
    "manylinux2014_aarch64",
)
# Packages without an aarch64 wheel on purpose, and where a Pi gets them instead.
FROM_DEBIAN = {"evdev": "python3-evdev"}
# In the installer's lists but not in Debian's archive (Raspberry Pi OS's own archive):
# where they are missing the installer takes the [pi] extra from PyPI instead.
RASPBERRY_PI_ONLY = {"python3-lgpio"}
# What the smoke run needs in the arm64 root: the release's Python, Debian's evdev and the
# libraries SDL's kmsdrm driver opens (so only the missing DRM device can stop it).
ROOT_PACKAGES = (
    "python3", "python3-evdev", "libdrm2", "libgbm1", "libegl1", "libgles2",
    "libegl-mesa0", "fonts-dejavu-core",
)


class PiCheckError(RuntimeError):
    """A step of the check could not run; the message says which and what it printed."""


def run(argv: list[str], *, env: Mapping[str, str] | None = None, timeout: float = 900,
        cwd: Path | None = None) -> str:
    """Run a command; its output, or PiCheckError with the command and what it said."""
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout,
                            cwd=cwd, check=False)
    if result.returncode != 0:
        raise PiCheckError(
            f"{' '.join(argv[:6])}... exited {result.returncode}:\n"
            f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )
    return result.stdout + result.stderr


# --- what Easel asks for ------------------------------------------------------------------


def project() -> dict[str, object]:
    with (REPO / "pyproject.toml").open("rb") as fh:
        data: dict[str, object] = tomllib.load(fh)["project"]
    return data


def requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return match.group(0).lower().replace("_", "-")


def wheel_requirements(python_version: str = RELEASE.python) -> list[str]:
    """The runtime dependencies and the [pi] extra for the Pi's Python, less those a Pi
    takes from Debian. Markers are read here for that Python (pip would read them for its
    own): the [pi] extra's lgpio is left out for a Python PyPI has no lgpio wheel for."""
    data = project()
    deps = list(data["dependencies"])  # type: ignore[call-overload]
    deps += data["optional-dependencies"]["pi"]  # type: ignore[index]
    wanted = []
    for dep in deps:
        requirement = Requirement(dep)
        if requirement.marker is not None and not requirement.marker.evaluate(
                {"python_version": python_version, "python_full_version": python_version + ".0",
                 "platform_machine": "aarch64", "sys_platform": "linux"}):
            continue
        if requirement_name(dep) not in FROM_DEBIAN:
            wanted.append(f"{requirement.name}{requirement.specifier}")
    return wanted


def debian_minimum(name: str) -> str:
    """The lowest version pyproject.toml allows for `name` (a package Debian provides)."""
    for dep in project()["dependencies"]:  # type: ignore[attr-defined]
        if requirement_name(dep) == name:
            found = re.search(r">=\s*([0-9.]+)", dep)
            assert found, dep
            return found.group(1)
    raise PiCheckError(f"{name} is not among pyproject.toml's dependencies")


def installer_packages() -> set[str]:
    """Every Debian package systemd/install.sh may install (its want=(...) lists)."""
    text = (REPO / "systemd" / "install.sh").read_text()
    names: set[str] = set()
    for body in re.findall(r"\bwant\+?=\(([^)]*)\)", text):
        names.update(w for w in body.split() if re.fullmatch(r"[a-z0-9][a-z0-9.+-]+", w))
    return names


# --- pip for the Pi -------------------------------------------------------------------------


def pip_platform_args(python_version: str) -> list[str]:
    args = ["--only-binary=:all:", "--implementation", "cp", "--python-version",
            python_version, "--abi", "cp" + python_version.replace(".", "")]
    for platform in PLATFORMS:
        args += ["--platform", platform]
    return args


def pip(*args: str) -> list[str]:
    return [os.environ.get("EASEL_PI_CHECK_PYTHON") or _host_python(), "-m", "pip",
            "--disable-pip-version-check", *args]


def _host_python() -> str:
    venv = REPO / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else shutil.which("python3") or "python3"


def download_wheels(dest: Path, python_version: str) -> list[Path]:
    """Resolve and download every wheel a Pi installs; PiCheckError names the one missing."""
    dest.mkdir(parents=True, exist_ok=True)
    run(pip("download", "--quiet", "--dest", str(dest), *pip_platform_args(python_version),
            *wheel_requirements(python_version)))
    return sorted(dest.glob("*.whl"))


def easel_wheel(dest: Path) -> Path:
    """Easel's own wheel, built from a copy of the checkout (no build/ left in it)."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        src = Path(scratch) / "src"
        src.mkdir()
        _copy_source(src)
        run(pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(dest), str(src)))
    (wheel,) = dest.glob("easel-*.whl")
    return wheel


def _copy_source(dest: Path) -> None:
    listed = run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                 cwd=REPO).split("\n")
    for rel in filter(None, listed):
        source = REPO / rel
        if source.is_file():
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def install_target(target: Path, wheels: Iterable[Path], python_version: str) -> None:
    """Unpack wheels for the Pi's Python into `target` (a folder put on PYTHONPATH)."""
    run(pip("install", "--quiet", "--no-deps", "--no-index", "--target", str(target),
            *pip_platform_args(python_version), *map(str, wheels)))


# --- Debian for arm64 -----------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """One Debian source of this machine's apt: its address, suites and keyring."""

    uri: str
    suites: tuple[str, ...]
    components: tuple[str, ...]
    signed_by: str = ""


def debian_sources(etc: Path = Path("/etc/apt")) -> list[Source]:
    """This machine's Debian apt sources (either format), their suites renamed from this
    machine's release to the checked one: the same mirror, asked for SUITE's suites."""
    found: list[Source] = []
    files = [etc / "sources.list", *sorted((etc / "sources.list.d").glob("*.list"))]
    for path in files:
        if not path.is_file():
            continue
        for line in path.read_text().splitlines():
            match = re.match(r"\s*deb\s+(\[[^]]*\]\s+)?(\S+)\s+(\S+)\s+(.*)", line)
            if match:
                options = match.group(1) or ""
                signed = re.search(r"signed-by=(\S+?)[\s\]]", options)
                found.append(Source(match.group(2), (match.group(3),),
                                    tuple(match.group(4).split()),
                                    signed.group(1) if signed else ""))
    for path in sorted((etc / "sources.list.d").glob("*.sources")):
        for stanza in re.split(r"\n\s*\n", path.read_text()):
            fields: dict[str, str] = {}
            for line in stanza.splitlines():
                if ":" in line and not line.startswith(("#", " ")):
                    key, _, value = line.partition(":")
                    fields[key.strip().lower()] = value.strip()
            if "deb" not in fields.get("types", "").split() or fields.get("enabled") == "no":
                continue
            for uri in fields.get("uris", "").split():
                found.append(Source(uri, tuple(fields.get("suites", "").split()),
                                    tuple(fields.get("components", "").split()),
                                    fields.get("signed-by", "")))
    host = host_suite(etc.parent / "os-release")
    renamed = []
    for source in found:
        if "main" not in source.components:
            continue
        suites = tuple(_renamed(suite, host) for suite in source.suites
                       if suite.startswith(SUITE) or (host and suite.startswith(host)))
        if suites:
            renamed.append(Source(source.uri, tuple(dict.fromkeys(suites)),
                                  source.components, source.signed_by))
    return renamed


def _renamed(suite: str, host: str) -> str:
    """'bookworm-updates' as SUITE's ('trixie-updates'); SUITE's own suites as they are."""
    if suite.startswith(SUITE) or not host:
        return suite
    return SUITE + suite.removeprefix(host)


def host_suite(os_release: Path = Path("/etc/os-release")) -> str:
    """This machine's Debian codename ('bookworm'), or '' where it says none."""
    try:
        text = os_release.read_text()
    except OSError:
        return ""
    match = re.search(r"^VERSION_CODENAME=\"?([a-z]+)", text, re.MULTILINE)
    return match.group(1) if match else ""


def debian_mirror() -> str:
    """The mirror this machine's apt uses for its release itself (for debootstrap)."""
    for source in debian_sources():
        if SUITE in source.suites:
            return source.uri
    raise PiCheckError(f"no apt source for {SUITE} main in /etc/apt: cannot fetch arm64 packages")


class AptView:
    """A private apt for arm64 under `home`: its own lists, an empty dpkg status (a fresh
    system), this machine's Debian sources. APT_CONFIG points apt at it; /etc/apt and
    the machine's architectures are left alone."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.config = home / "apt.conf"

    def prepare(self, max_age_s: float = 86_400) -> None:
        home = self.home
        for sub in ("lists/partial", "cache/archives/partial", "parts", "prefs.d",
                    "sources.list.d"):
            (home / sub).mkdir(parents=True, exist_ok=True)
        (home / "status").touch()
        lines = []
        for source in debian_sources():
            signed = f" signed-by={source.signed_by}" if source.signed_by else ""
            lines.append(f"deb [arch=arm64{signed}] {source.uri} "
                         f"{' '.join(source.suites)} main")
        sources = "\n".join(lines) + "\n"
        conf = "\n".join([
            f'Dir::State "{home}";',
            f'Dir::State::lists "{home}/lists";',
            f'Dir::State::status "{home}/status";',
            f'Dir::Cache "{home}/cache";',
            f'Dir::Etc::SourceList "{home}/sources.list";',
            f'Dir::Etc::SourceParts "{home}/sources.list.d";',
            f'Dir::Etc::Parts "{home}/parts";',
            f'Dir::Etc::Preferences "{home}/preferences";',
            f'Dir::Etc::PreferencesParts "{home}/prefs.d";',
            'APT::Architecture "arm64";',
            'APT::Architectures { "arm64"; };',
            'Acquire::Languages "none";',
            'APT::Sandbox::User "root";',
            "",
        ])
        changed = not self.config.exists() or self.config.read_text() != conf or (
            home / "sources.list").read_text() != sources
        (home / "sources.list").write_text(sources)
        self.config.write_text(conf)
        lists = list((home / "lists").glob("*Packages*"))
        fresh = lists and time.time() - min(p.stat().st_mtime for p in lists) < max_age_s
        if changed or not fresh:
            self.apt("apt-get", "update", "-q")

    def apt(self, *argv: str) -> str:
        return run(list(argv), env=dict(os.environ, APT_CONFIG=str(self.config),
                                        LC_ALL="C", DEBIAN_FRONTEND="noninteractive"))

    def candidate(self, package: str) -> str:
        """The version a fresh arm64 system of SUITE would install, or ''."""
        out = self.apt("apt-cache", "policy", package)
        match = re.search(r"Candidate:\s*(\S+)", out)
        return "" if match is None or match.group(1) == "(none)" else match.group(1)

    def simulate_install(self, packages: Iterable[str]) -> str:
        """apt-get -s install on the empty arm64 system: fails if anything is unresolvable."""
        return self.apt("apt-get", "-s", "-q", "install", "--no-install-recommends",
                        *sorted(packages))


def python_version_of(debian_version: str) -> str:
    """'3.11' from Debian's python3 version '3.11.2-1+b1'."""
    match = re.match(r"(?:\d+:)?(\d+)\.(\d+)", debian_version)
    if not match:
        raise PiCheckError(f"cannot read a Python version from {debian_version!r}")
    return f"{match.group(1)}.{match.group(2)}"


def version_at_least(have: str, want: str) -> bool:
    result = subprocess.run(["dpkg", "--compare-versions", have, "ge", want], check=False)
    return result.returncode == 0


# --- the arm64 root -------------------------------------------------------------------------


def arm64_root(cache: Path = CACHE) -> Path:
    """SUITE for arm64, unpacked: debootstrap --foreign fetches and unpacks the base,
    then every fetched package (Python and ROOT_PACKAGES among them) is extracted. No
    maintainer script runs: nothing here executes arm64 code but the smoke run itself."""
    root = cache / f"{SUITE}-arm64"
    stamp = root / ".easel-root"
    want = ",".join(ROOT_PACKAGES)
    if stamp.is_file() and stamp.read_text() == want:
        return root
    if os.geteuid() != 0:
        raise PiCheckError("debootstrap needs root to unpack the arm64 root (CI runs as root)")
    shutil.rmtree(root, ignore_errors=True)  # a half-made root from an interrupted run
    root.parent.mkdir(parents=True, exist_ok=True)
    run(["debootstrap", "--foreign", "--arch=arm64", "--variant=minbase",
         f"--include={want}", SUITE, str(root), debian_mirror()], timeout=1800)
    for deb in sorted((root / "var" / "cache" / "apt" / "archives").glob("*.deb")):
        run(["dpkg-deb", "-x", str(deb), str(root)])
    stamp.write_text(want)
    return root


def aarch64_python(root: Path) -> list[str]:
    """The command that runs the arm64 root's Python on this machine."""
    qemu = shutil.which(QEMU)
    if qemu is None:
        raise PiCheckError(f"{QEMU} is missing: apt-get install qemu-user-static")
    return [qemu, "-L", str(root), str(root / "usr" / "bin" / "python3")]


def deps_site(cache: Path, python_version: str) -> Path:
    """The Pi's wheels installed into a folder, cached by the requirements asked for."""
    key = hashlib.sha256("\n".join([python_version, *PLATFORMS,
                                   *wheel_requirements(python_version)])
                         .encode()).hexdigest()[:12]
    site = cache / f"site-{key}"
    if (site / ".easel-site").is_file():
        return site
    shutil.rmtree(site, ignore_errors=True)
    with tempfile.TemporaryDirectory() as scratch:
        wheels = download_wheels(Path(scratch), python_version)
        install_target(site, wheels, python_version)
    (site / ".easel-site").write_text("\n".join(w.name for w in wheels) + "\n")
    return site


def easel_site(dest: Path, python_version: str) -> Path:
    """Easel itself, as a wheel built from this checkout, installed into `dest`."""
    with tempfile.TemporaryDirectory() as scratch:
        wheel = easel_wheel(Path(scratch))
        install_target(dest, [wheel], python_version)
    return dest


def smoke_env(home: Path, *sites: Path) -> dict[str, str]:
    """A clean environment for the aarch64 Python: nothing of this machine's Python."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "LANG": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join(map(str, sites)),
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
    }


def main() -> None:
    """Build (or reuse) every cache and time each step."""
    started = time.monotonic()

    def step(what: str, since: float) -> float:
        now = time.monotonic()
        print(f"{what}: {now - since:.1f} s")
        return now

    at = started
    view = AptView(CACHE / "apt-arm64")
    view.prepare()
    at = step("apt view for arm64", at)
    version = python_version_of(view.candidate("python3"))
    root = arm64_root()
    at = step(f"arm64 root ({root})", at)
    site = deps_site(CACHE, version)
    at = step(f"aarch64 wheels for Python {version} ({site})", at)
    with tempfile.TemporaryDirectory() as scratch:
        easel_site(Path(scratch) / "easel", version)
        at = step("Easel's wheel", at)
    print(f"total: {time.monotonic() - started:.1f} s")


__all__ = [
    "CACHE",
    "FROM_DEBIAN",
    "RASPBERRY_PI_ONLY",
    "RELEASE",
    "RELEASES",
    "ROOT_PACKAGES",
    "SUITE",
    "AptView",
    "PiCheckError",
    "Release",
    "aarch64_python",
    "arm64_root",
    "debian_minimum",
    "debian_sources",
    "deps_site",
    "download_wheels",
    "easel_site",
    "host_suite",
    "installer_packages",
    "python_version_of",
    "smoke_env",
    "version_at_least",
    "wheel_requirements",
]
