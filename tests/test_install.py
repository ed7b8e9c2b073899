"""The appliance's installation: the systemd unit, systemd/install.sh and every shell script.

ShellCheck and `systemd-analyze verify` are skipped where missing, unless
EASEL_REQUIRE_TOOLS=1 (CI) makes that a failure. The installer only ever runs here with
--dry-run or --root (a scratch directory): a plain run as root would install Easel on
the machine running the tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from appliance.system import config as config_module

REPO = Path(__file__).resolve().parents[1]
UNIT = REPO / "systemd" / "easel.service"
INSTALL = REPO / "systemd" / "install.sh"
PROFILES = sorted((REPO / "config" / "profiles").glob("*.toml"))
CMDLINE = (
    "console=serial0,115200 console=tty1 root=PARTUUID=6c586e13-02 rootfstype=ext4 "
    "fsck.repair=yes rootwait\n"
)
BOOT_ARGS = ["quiet", "loglevel=3", "logo.nologo", "vt.global_cursor_default=0", "consoleblank=0"]


def need_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        reason = f"{name} is not installed"
        if os.environ.get("EASEL_REQUIRE_TOOLS") == "1":
            pytest.fail(f"{reason} (EASEL_REQUIRE_TOOLS=1)")
        pytest.skip(reason)
    return path


def install(*args: str, root: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Runs the installer, never against this machine: --root DIR or --dry-run only."""
    argv = ["bash", str(INSTALL), *args]
    if root is not None:
        argv += ["--root", str(root)]
    assert "--root" in argv or "--dry-run" in argv
    # stdin not a terminal: the installer's "am I on tty1" check must not see the
    # developer's terminal.
    return subprocess.run(
        argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60, check=False
    )


def ok(*args: str, root: Path | None = None) -> str:
    result = install(*args, root=root)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A scratch root with what a fresh Raspberry Pi OS has there: the boot command line."""
    scratch = tmp_path / "root"
    (scratch / "boot" / "firmware").mkdir(parents=True)
    (scratch / "boot" / "firmware" / "cmdline.txt").write_text(CMDLINE)
    return scratch


def tree(root: Path) -> dict[str, str]:
    """Every file and link under root with its content (or target): what a run laid down."""
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = path.read_text(errors="replace")
    return out


def unit_settings() -> dict[str, dict[str, list[str]]]:
    """The unit's [section] -> key -> values (a key may repeat, as DeviceAllow= does)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


# --- shell scripts and the unit, checked by their own tools ------------------------------


def test_every_shell_script_passes_shellcheck() -> None:
    shellcheck = need_tool("shellcheck")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.sh", ".ci/run"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.split()
    assert "systemd/install.sh" in listed and ".ci/run" in listed
    result = subprocess.run(
        [shellcheck, "--shell=bash", *listed], cwd=REPO, capture_output=True, text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = need_tool("systemd-analyze")
    # verify insists that ExecStart's program exists: point a copy at a stand-in. The
    # user and groups need not exist for verify.
    program = tmp_path / "easel"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    text = UNIT.read_text()
    assert text.count("ExecStart=/opt/easel/venv/bin/easel ") == 1
    copy = tmp_path / "easel.service"
    copy.write_text(text.replace("ExecStart=/opt/easel/venv/bin/easel ", f"ExecStart={program} "))
    result = subprocess.run(
        [analyze, "verify", "--man=no", str(copy)], capture_output=True, text=True,
        timeout=60, check=False,
    )
    # verify exits 0 on unknown keys and bad values, only warning: any line about our
    # unit is a failure (lines about the host's other units are not ours to judge).
    ours = [line for line in (result.stdout + result.stderr).splitlines() if "easel" in line]
    assert result.returncode == 0 and not ours, result.stdout + result.stderr


def test_unit_says_what_the_appliance_needs() -> None:
    unit = unit_settings()
    service = unit["Service"]

    def one(key: str) -> str:
        assert len(service.get(key, [])) == 1, f"{key}= {service.get(key)}"
        return service[key][0]

    assert one("Type") == "notify"
    assert one("NotifyAccess") == "main"
    assert one("WatchdogSec") == "30"
    assert one("Restart") == "always"
    assert one("User") == "easel"
    assert set(one("SupplementaryGroups").split()) == {"video", "render", "input", "gpio"}
    assert one("StateDirectory") == "easel"
    assert one("WorkingDirectory") == "/var/lib/easel"
    assert "SDL_VIDEODRIVER=kmsdrm" in service["Environment"]
    # A traceback in the journal when the watchdog's SIGABRT (or a segfault) ends it.
    assert "PYTHONFAULTHANDLER=1" in service["Environment"]
    assert one("ExecStart") == "/opt/easel/venv/bin/easel run"
    assert one("TTYPath") == "/dev/tty1"
    assert one("StandardInput").startswith("tty")
    assert one("StandardOutput") == one("StandardError") == "journal"
    assert one("NoNewPrivileges") == "yes"
    assert one("ProtectSystem") == "strict"
    assert one("ProtectHome") == "yes"
    assert one("PrivateTmp") == "yes"
    assert one("DevicePolicy") == "closed"
    allowed = dict(entry.split() for entry in service["DeviceAllow"])
    assert allowed["char-drm"] == "rw"
    assert allowed["char-input"] == "r"
    assert allowed["char-cec"] == "rw"  # cec-ctl: the TV's remote and wake-up (docs/remote.md)
    assert allowed["char-gpiochip"] == "rw"
    assert allowed["/dev/tty1"] == "rw"
    # PrivateDevices= would hide /dev/dri, /dev/input and the GPIO chips.
    assert "PrivateDevices" not in service
    assert "getty@tty1.service" in unit["Unit"]["Conflicts"]
    # The lobby must not wait for the network: the join address follows it later.
    ordering = " ".join(unit["Unit"].get("After", []) + unit["Unit"].get("Wants", []))
    assert "network-online" not in ordering
    # An appliance never gives up restarting.
    assert unit["Unit"]["StartLimitIntervalSec"] == ["0"]
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


# --- the installer ------------------------------------------------------------------------


def test_help_names_every_option() -> None:
    result = subprocess.run(
        ["bash", str(INSTALL), "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    for option in ("--profile", "--hotspot", "--uninstall", "--dry-run", "--root"):
        assert option in result.stdout


def test_dry_run_prints_the_steps_and_changes_nothing() -> None:
    watched = [
        Path("/etc/easel"), Path("/opt/easel"), Path("/etc/systemd/system/easel.service"),
        Path("/usr/local/bin/easel"), Path("/boot/firmware/cmdline.txt"),
    ]

    def state() -> list[tuple[bool, float]]:
        return [(p.exists(), p.stat().st_mtime if p.exists() else 0.0) for p in watched]

    before = state()
    out = ok("--dry-run", "--profile", "pi-7inch")
    assert state() == before
    # Dry run queries this machine: what is already here is said, not printed as a step.
    assert "would run: apt-get install" in out or "Debian packages already installed" in out
    assert "would run: useradd" in out or "user easel exists" in out
    for step in (
        "would run: systemctl enable easel.service",
        "would run: systemctl disable getty@tty1.service",
        "would run: systemctl restart easel.service",
        "/opt/easel/venv/bin/python -m pip install",
    ):
        assert step in out
    # Nothing ran ("+ " marks a command run) and nothing was written.
    lines = out.splitlines()
    assert not [line for line in lines if line.startswith("+ ") or ": wrote " in line]


def test_refuses_to_change_the_system_without_root(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        # As root, the refusal is checked as "nobody" (never as root: that would install).
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv to drop to an ordinary user")
        prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    else:
        prefix = []
    # "nobody" must be able to read the script wherever the checkout is (a CI workspace or
    # pytest's tmp_path may be private to root): run a copy from a world-readable place.
    shared = Path(tempfile.mkdtemp(prefix="easel-install-"))
    try:
        shutil.copytree(REPO / "config", shared / "config")
        (shared / "systemd").mkdir()
        shutil.copy(INSTALL, shared / "systemd" / "install.sh")
        shutil.copy(REPO / "pyproject.toml", shared / "pyproject.toml")
        for path in [shared, *shared.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        result = subprocess.run(
            [*prefix, "bash", str(shared / "systemd" / "install.sh"), "--profile", "pi-7inch"],
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=30, check=False,
            env={**os.environ, "HOME": str(shared)}, cwd=shared,
        )
    finally:
        shutil.rmtree(shared)
    assert result.returncode != 0
    assert "needs root" in result.stderr and "--dry-run" in result.stderr


def test_root_run_lays_down_the_appliance(root: Path) -> None:
    out = ok("--profile", "pi-7inch", root=root)
    # The system steps are printed, for a fresh Raspberry Pi OS.
    packages = next(line for line in out.splitlines() if "apt-get install" in line).split()
    for package in ("python3-venv", "python3-lgpio", "python3-evdev", "fonts-dejavu-core",
                    "v4l-utils"):
        assert package in packages
    assert "useradd --system" in out and "--groups video,render,input,gpio easel" in out
    assert "would run: /usr/bin/python3 -m venv --system-site-packages" in out
    assert f"{root}/opt/easel/venv/bin/python -m pip install" in out
    venv = f"{root}/opt/easel/venv"
    assert f"{venv}/bin/python -m compileall -q -j 0 {venv}/lib" in out
    assert "would run: systemctl enable easel.service" in out
    assert "would run: systemctl disable getty@tty1.service" in out
    # The files, under the root.
    assert (root / "etc/systemd/system/easel.service").read_text() == UNIT.read_text()
    assert os.readlink(root / "usr/local/bin/easel") == "/opt/easel/venv/bin/easel"
    assert (root / "opt/easel/share/appliance.toml").read_text() == (
        REPO / "config/appliance.toml"
    ).read_text()
    settings = root / "etc/easel/appliance.toml"
    assert settings.read_text().endswith((REPO / "config/profiles/pi-7inch.toml").read_text())
    cfg = config_module.load(files=[settings], env={})
    assert (cfg.display.width, cfg.display.height) == (800, 480)
    words = (root / "boot/firmware/cmdline.txt").read_text().split()
    assert words[: len(CMDLINE.split())] == CMDLINE.split()
    assert all(words.count(arg) == 1 for arg in BOOT_ARGS)


def test_a_second_run_changes_nothing(root: Path) -> None:
    ok("--profile", "pi-7inch", root=root)
    first = tree(root)
    out = ok("--profile", "pi-7inch", root=root)
    assert tree(root) == first
    assert "boot text already quiet" in out
    assert "kept" in out and ": wrote " not in out


def test_boot_args_already_there_are_not_added_again(root: Path) -> None:
    cmdline = root / "boot/firmware/cmdline.txt"
    cmdline.write_text(CMDLINE.strip() + " quiet loglevel=7\n")
    ok(root=root)
    words = cmdline.read_text().split()
    assert words.count("quiet") == 1
    assert "loglevel=7" in words and "loglevel=3" not in words  # a choice someone made
    assert "logo.nologo" in words


def test_no_profile_writes_a_stub_of_defaults(root: Path) -> None:
    ok(root=root)
    settings = root / "etc/easel/appliance.toml"
    assert "/opt/easel/share/appliance.toml" in settings.read_text()
    assert config_module.load(files=[settings], env={}) == config_module.Config()


def test_existing_settings_are_never_overwritten(root: Path) -> None:
    settings = root / "etc/easel/appliance.toml"
    settings.parent.mkdir(parents=True)
    mine = '[table]\nlanguage = "cs"\n'
    settings.write_text(mine)
    out = ok("--profile", "hdmi-tv", root=root)
    assert settings.read_text() == mine
    assert "kept" in out and "hdmi-tv profile was not applied" in out


@pytest.mark.parametrize("profile", PROFILES, ids=[p.stem for p in PROFILES])
def test_every_profile_installs_as_settings_easel_accepts(root: Path, profile: Path) -> None:
    ok("--profile", profile.stem, root=root)
    config_module.load(files=[root / "etc/easel/appliance.toml"], env={})


def test_unknown_profile_is_refused_with_the_names(root: Path) -> None:
    result = install("--profile", "no-such-screen", root=root)
    assert result.returncode != 0
    assert "no-such-screen" in result.stderr and "pi-7inch" in result.stderr
    assert not (root / "etc").exists()


def test_hotspot_goes_into_the_lobby_settings(root: Path) -> None:
    ssid, password = "Café Easel", 'pa"ss\\word 1'
    out = ok("--profile", "pi-7inch", "--hotspot", ssid, password, root=root)
    settings = root / "etc/easel/appliance.toml"
    cfg = config_module.load(files=[settings], env={})
    assert (cfg.wifi.ssid, cfg.wifi.password, cfg.wifi.security) == (ssid, password, "WPA")
    assert cfg.display.width == 800  # the profile is still there
    assert "would run: nmcli connection add type wifi" in out
    assert "would run: nmcli connection up easel-hotspot" in out
    assert password not in out  # printed as <password>


def test_hotspot_updates_the_wifi_section_of_existing_settings(root: Path) -> None:
    settings = root / "etc/easel/appliance.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text(
        '[wifi]\n# ours\nssid = "Old"\n\n[table]\nlanguage = "cs"\n'
    )
    ok("--hotspot", "New", "password1", root=root)
    text = settings.read_text()
    assert "# ours" in text and '"Old"' not in text
    cfg = config_module.load(files=[settings], env={})
    assert (cfg.wifi.ssid, cfg.wifi.password, cfg.table.language) == ("New", "password1", "cs")
    first = text
    ok("--hotspot", "New", "password1", root=root)
    assert settings.read_text() == first


@pytest.mark.parametrize(
    ("ssid", "password"), [("", "password1"), ("x" * 33, "password1"), ("Easel", "short")]
)
def test_hotspot_name_and_password_are_checked(root: Path, ssid: str, password: str) -> None:
    result = install("--hotspot", ssid, password, root=root)
    assert result.returncode != 0 and "hotspot" in result.stderr


def test_uninstall_removes_what_it_laid_down_and_keeps_data_and_settings(root: Path) -> None:
    ok("--profile", "pi-7inch", root=root)
    data = root / "var/lib/easel/easel.sqlite3"
    data.parent.mkdir(parents=True)
    data.write_bytes(b"SQLite format 3\0")
    settings = (root / "etc/easel/appliance.toml").read_text()
    out = ok("--uninstall", root=root)
    assert "would run: systemctl disable --now easel.service" in out
    assert "would run: systemctl enable getty@tty1.service" in out
    assert not (root / "etc/systemd/system/easel.service").exists()
    assert not (root / "opt/easel").exists()
    assert not (root / "usr/local/bin/easel").is_symlink()
    assert (root / "boot/firmware/cmdline.txt").read_text() == CMDLINE
    assert not (root / "boot/firmware/cmdline.txt.before-easel").exists()
    # Kept, and said where.
    assert data.read_bytes() == b"SQLite format 3\0"
    assert (root / "etc/easel/appliance.toml").read_text() == settings
    assert "/etc/easel" in out and "/var/lib/easel" in out


def shim(bin_dir: Path, name: str, script: str) -> None:
    """A stand-in command on PATH: `script` answers some calls, the rest go to the real one."""
    real = shutil.which(name) or f"/usr/bin/{name}"
    bin_dir.mkdir(exist_ok=True)
    path = bin_dir / name
    path.write_text(f"#!/bin/bash\n{script}\nexec {real} \"$@\"\n")
    path.chmod(0o755)


def install_with_path(bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert "--root" in args or "--dry-run" in args
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True,
        stdin=subprocess.DEVNULL, timeout=60, check=False,
        env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
    )


@pytest.mark.parametrize("arch", ["armhf", "armel"])
def test_a_32_bit_system_is_refused_with_the_fix(tmp_path: Path, arch: str) -> None:
    """No armv7l wheels for pygame-ce or msgspec: say so before installing anything."""
    shim(tmp_path / "bin", "dpkg",
         f'[ "$1" = --print-architecture ] && {{ echo {arch}; exit 0; }}')
    result = install_with_path(tmp_path / "bin", "--dry-run", "--profile", "pi-7inch")
    assert result.returncode == 1
    assert f"32-bit system ({arch})" in result.stderr
    assert "Raspberry Pi OS Lite (64-bit)" in result.stderr
    assert "would run" not in result.stdout, "refused before any step"
    shim(tmp_path / "bin", "dpkg", '[ "$1" = --print-architecture ] && { echo arm64; exit 0; }')
    assert install_with_path(tmp_path / "bin", "--dry-run").returncode == 0


# --- the TV's video mode in cmdline.txt ---------------------------------------------------


@pytest.mark.parametrize(
    ("model", "mode", "width"),
    [
        ("Raspberry Pi 4 Model B Rev 1.4", "1920x1080@60D", "width = 1920"),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", "1280x720@60D", "width = 1280"),
        ("Raspberry Pi Zero 2 W Rev 1.0", "1280x720@60D", "width = 1280"),
    ],
)
def test_the_tv_profile_sets_the_hdmi_mode_for_this_pi_once(
    root: Path, model: str, mode: str, width: str
) -> None:
    """A 4K TV would otherwise give the kiosk 3840x2160 to draw in software, and a TV
    switched off at boot no screen at all (the D forces the port on)."""
    (root / "proc" / "device-tree").mkdir(parents=True)
    (root / "proc" / "device-tree" / "model").write_bytes(model.encode() + b"\0")
    cmdline = root / "boot" / "firmware" / "cmdline.txt"
    ok("--profile", "hdmi-tv", root=root)
    words = cmdline.read_text().split()
    assert words.count(f"video=HDMI-A-1:{mode}") == 1
    assert width in (root / "etc" / "easel" / "appliance.toml").read_text()
    again = ok("--profile", "hdmi-tv", root=root)
    assert cmdline.read_text().split() == words, "idempotent"
    assert "already set" in again
    ok("--uninstall", root=root)
    assert cmdline.read_text() == CMDLINE


def test_a_video_mode_set_by_hand_is_kept_and_touch_profiles_set_none(root: Path) -> None:
    cmdline = root / "boot" / "firmware" / "cmdline.txt"
    ok("--profile", "pi-7inch", root=root)
    assert "video=" not in cmdline.read_text()
    mine = CMDLINE.strip() + " video=HDMI-A-1:1280x1024@75\n"
    cmdline.write_text(mine)
    ok("--profile", "hdmi-tv", root=root)
    assert [w for w in cmdline.read_text().split() if w.startswith("video=")] == [
        "video=HDMI-A-1:1280x1024@75"
    ]


# --- who runs the installer: SSH over Wi-Fi, or the Pi's own keyboard --------------------

IP_WIFI = ('[ "$1 $2 $3" = "-o route get" ] && '
           '{ echo "$4 dev wlan0 src 192.0.2.1 uid 0 \\\\    cache"; exit 0; }')
IP_CABLE = ('[ "$1 $2 $3" = "-o route get" ] && '
            '{ echo "$4 via 192.0.2.254 dev eth0 src 192.0.2.1"; exit 0; }')


def loginctl_says(**properties: str) -> str:
    """A loginctl whose `show-session self` has these properties (none: no logind)."""
    cases = "".join(f"    {key}) echo '{value}' ;;\n" for key, value in properties.items())
    return (
        "for a; do case $a in --property=*) p=${a#--property=} ;; esac; done\n"
        f'case "$p" in\n{cases}    *) exit 1 ;;\nesac\nexit 0'
    )


def hotspot_dry_run(tmp_path: Path, *, ip: str, loginctl: str,
                    outer_env: dict[str, str] | None = None) -> str:
    """The installer as `sudo` runs it: no SSH_CONNECTION in its own environment (the
    login shell above it, here `bash -c`, may have one), stdin not a terminal."""
    shim(tmp_path / "bin", "ip", ip)
    shim(tmp_path / "bin", "loginctl", loginctl)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SSH_")}
    env["PATH"] = f"{tmp_path / 'bin'}:{env['PATH']}"
    env.update(outer_env or {})
    result = subprocess.run(
        # `; exit $?` keeps bash from exec-ing the installer in its place: the shell
        # stays its parent, as a login shell stays above sudo.
        ["bash", "-c", 'env -u SSH_CONNECTION bash "$0" "$@"; exit $?', str(INSTALL),
         "--dry-run", "--hotspot", "Easel", "a-password-8"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60, check=False,
        env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_the_hotspot_is_deferred_over_wifi_ssh_found_in_the_login_shell(tmp_path: Path) -> None:
    """sudo's env_reset hides SSH_CONNECTION from the installer; the login shell above it
    still has it."""
    ssh = {"SSH_CONNECTION": "192.0.2.9 50022 192.0.2.1 22"}
    out = hotspot_dry_run(tmp_path, ip=IP_WIFI, loginctl=loginctl_says(), outer_env=ssh)
    assert "this SSH session (192.0.2.9) runs over the Wi-Fi" in out
    assert "would run: nmcli connection up" not in out
    lines = out.splitlines()
    restart = next(i for i, line in enumerate(lines) if "systemctl restart easel" in line)
    hotspot = next(i for i, line in enumerate(lines) if "nmcli connection add" in line)
    assert restart < hotspot, "the hotspot is the very last step"
    # Over the cable the same session is safe: the hotspot comes up at once.
    out = hotspot_dry_run(tmp_path, ip=IP_CABLE, loginctl=loginctl_says(), outer_env=ssh)
    assert "would run: nmcli connection up easel-hotspot" in out


def test_the_ssh_peer_is_found_through_logind(tmp_path: Path) -> None:
    out = hotspot_dry_run(
        tmp_path, ip=IP_WIFI, loginctl=loginctl_says(Remote="yes", RemoteHost="192.0.2.10")
    )
    assert "this SSH session (192.0.2.10)" in out
    out = hotspot_dry_run(tmp_path, ip=IP_WIFI, loginctl=loginctl_says(Remote="no", TTY="tty2"))
    assert "would run: nmcli connection up easel-hotspot" in out, "no SSH: nothing to cut"


def test_at_the_pis_keyboard_the_installer_does_not_restart_easel_under_itself(
    tmp_path: Path,
) -> None:
    """sudo's use_pty gives the installer /dev/pts/N even on tty1; logind still knows the
    session is the console's."""
    out = hotspot_dry_run(tmp_path, ip=IP_CABLE, loginctl=loginctl_says(Remote="no", TTY="tty1"))
    assert "not starting Easel now: it takes over this screen (tty1)" in out
    assert "would run: systemctl restart" not in out
    assert "would run: systemctl enable easel.service" in out


@pytest.mark.skipif(shutil.which("make") is None, reason="no make here")
@pytest.mark.parametrize(("model", "flag"), [
    (b"Raspberry Pi 5 Model B Rev 1.0\0", True), (b"", False), (None, False)])
def test_make_run_on_a_pi_builds_its_venv_with_debians_packages(tmp_path, model, flag) -> None:
    """On a Pi `make run`'s venv sees Debian's python3-lgpio and python3-evdev (no compiler,
    and no lgpio wheel for trixie's Python), as the installer's venv does; not elsewhere."""
    path = tmp_path / "model"
    if model is not None:
        path.write_bytes(model)
    venv = tmp_path / "venv"
    out = subprocess.run(
        ["make", "-n", "-s", "-C", str(REPO), f"{venv}/bin/python", f"VENV={venv}",
         f"PI_MODEL={path}"], capture_output=True, text=True, check=True, timeout=60).stdout
    (line,) = [w for w in out.splitlines() if "-m venv" in w]
    assert ("--system-site-packages" in line) == flag, line
