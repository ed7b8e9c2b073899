"""`make boot-check`: the appliance booted whole in an x86_64 VM (tests/boot_check).

A clean Debian trixie image; at its first boot the project's own installer runs as
docs/install.md says and restarts the box; after that reboot the unit comes up by itself
and answers in the lobby through the forwarded loopback port; the kiosk's picture on the
VM's virtio-gpu screen (QEMU's screendump) shows the lobby whose QR code is the VM's join
address; three phones (Debian's Chromium) join by it through the forwarded port and play
a round of Broad Lines; the VM's power is cut and it boots again: the match resumes with
every move the phones saw acknowledged; a hung box (SIGSTOP) is restarted by systemd's
watchdog and the journal says so. Then the table's devices, made with the kernel's test
devices and told to the box in drop-ins: a touch screen (uinput), the GPIO panel (gpio-sim
through lgpio) and the TV's remote (vivid's CEC bus) each reach the game. Last, on a data
partition that is read-only, then full, the box starts degraded and says so on /healthz
and on the screen, and the kiosk's frame with its present is measured.

The tests run in this file's order on one VM (module fixtures): each step is the next
thing a café owner's box lives through, and each needs the one before it.

Slow (minutes) and networked the first time (debootstrap, the wheels): skipped unless
EASEL_BOOT_CHECK=1 (`make boot-check`); never part of `make test`. Under KVM where it runs
Debian's kernel, else under TCG (the same image, emulated: slower; tests/boot_check).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import pygame
import pytest
import zxingcpp

from appliance.kiosk.intents import ButtonName
from tests import boot_check
from tests.boot_check import Vm
from tests.browser import GamePhone, game_phones
from tests.test_browser_broad_lines import draw_line

pytestmark = [
    pytest.mark.skipif(os.environ.get("EASEL_BOOT_CHECK") != "1",
                       reason="make boot-check runs these (EASEL_BOOT_CHECK=1)"),
    # The fixture builds the image (minutes cold) and boots twice: its own bounds below.
    pytest.mark.timeout(120, func_only=True),
]

INSTALLED = "easel-boot-check: installer exit"
REBOOTING = "easel-boot-check: rebooting"
LOGIN = re.compile(r"easel login:")  # the second boot's console prompt
SCREENSHOTS = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))
# The VM is emulated (TCG) on this project's machines: a phone's wait is longer than the
# browser tests' 10 s.
SLOW_MS = 60_000
# The lobby's QR code: the box's own address on its network, its port, the room.
JOIN_LINK = re.compile(r"^http://(?P<host>[0-9.]+):8080/\?room=(?P<room>[A-Za-z0-9]+)$")


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Vm]:
    for tool in ("debootstrap", "mkfs.ext4", "qemu-img", boot_check.QEMU):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing (apt-get install debootstrap qemu-system-x86 "
                        "qemu-utils e2fsprogs)")
    attach = os.environ.get("EASEL_BOOT_CHECK_ATTACH")
    if attach:
        # Working on these tests: a VM already booted by an earlier run (its folder holds
        # the sockets and the port), left running afterwards.
        yield Vm(Path(attach), int((Path(attach) / "port").read_text()))
        return
    work = tmp_path_factory.mktemp("boot-check")
    with boot_check.booted(work) as machine:
        (work / "port").write_text(str(machine.port))
        # First boot: the installer, then its reboot; then the unit by itself.
        machine.wait_for(INSTALLED, 1800)  # under TCG the installer takes minutes
        machine.wait_for(REBOOTING, 120)
        yield machine
        # What a failing test needs to see.
        (SCREENSHOTS / "easel-boot-check-console.log").write_text(machine.console())


def after_reboot(machine: Vm) -> str:
    return machine.console().split(REBOOTING, 1)[1]


def test_the_installer_ran_on_the_clean_image_as_the_guide_says(vm: Vm) -> None:
    console = vm.console()
    assert f"{INSTALLED} 0" in console, console[-4000:]
    first = console.split(REBOOTING, 1)[0]
    # The installer's own words: the unit installed, the settings from the profile.
    assert "the systemd unit" in first and "settings from the hdmi-tv profile" in first


@pytest.mark.timeout(1300, func_only=True)  # its own waits: the login, then /healthz
def test_after_the_reboot_the_unit_comes_up_by_itself(vm: Vm) -> None:
    """After the installer's reboot nobody starts anything: the box answers on its port
    (forwarded to this machine's loopback) in the lobby, by itself."""
    vm.wait_for_after(REBOOTING, LOGIN, 600)
    end = time.monotonic() + 600
    health: dict[str, object] = {}
    while time.monotonic() < end and health.get("phase") != "lobby":
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{vm.port}/healthz",
                                        timeout=5) as response:
                health = json.load(response)
        except (OSError, ValueError):
            time.sleep(2)
    assert health.get("ok") is True and health.get("phase") == "lobby", health
    uptime = health.get("uptime_s")
    assert isinstance(uptime, (int, float))
    # This start is the second boot's, not the installer's: it began after the reboot.
    assert uptime < vm.seconds_since(REBOOTING), (uptime, vm.seconds_since(REBOOTING))


# --- the kiosk's picture ---------------------------------------------------------------------


def health(vm: Vm) -> dict[str, Any]:
    """/healthz through the forwarded port; {} while nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{vm.port}/healthz", timeout=5) as r:
            body: dict[str, Any] = json.load(r)
            return body
    except (OSError, ValueError):
        return {}


def wait_until(what: str, check: Callable[[], Any], timeout: float) -> Any:
    """`check()` until it is truthy; its value. Fails naming `what` after `timeout`."""
    end = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > end:
            pytest.fail(f"{what}: not within {timeout:.0f} s")
        time.sleep(2)
    return value


def read_ppm(path: Path) -> np.ndarray:
    """QEMU's screendump (binary PPM, P6) as rows x columns x RGB."""
    data = path.read_bytes()
    header = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", data)
    if header is None:
        raise ValueError(f"{path} is not an 8-bit binary PPM: {data[:20]!r}")
    width, height = int(header.group(1)), int(header.group(2))
    pixels = np.frombuffer(data, np.uint8, width * height * 3, header.end())
    return pixels.reshape(height, width, 3)


def kiosk_frame(vm: Vm, name: str) -> np.ndarray:
    """What the VM's screen shows now (QEMU's screendump), kept as a PNG beside the logs."""
    pixels = read_ppm(vm.screendump(vm.work / f"{name}.ppm"))
    surface = pygame.surfarray.make_surface(np.ascontiguousarray(pixels.swapaxes(0, 1)))
    pygame.image.save(surface, str(SCREENSHOTS / f"easel-boot-check-{name}.png"))
    return pixels


def qr_texts(pixels: np.ndarray) -> list[str]:
    return [r.text for r in zxingcpp.read_barcodes(np.ascontiguousarray(pixels))]


def guest_address(vm: Vm) -> str:
    """The VM's own IPv4 address on its network (what a phone on that network reaches)."""
    status, out = vm.shell("ip -4 -o addr show scope global")
    assert status == 0, out
    found = re.search(r"inet ([0-9.]+)/", out)
    assert found, out
    return found.group(1)


def lobby_link(vm: Vm, timeout: float) -> str:
    """The QR code's text on the kiosk once it shows one (the lobby drawn on virtio-gpu)."""
    def decoded() -> str:
        texts = qr_texts(kiosk_frame(vm, "lobby"))
        return texts[0] if len(texts) == 1 else ""
    link: str = wait_until("a QR code on the kiosk's screen", decoded, timeout)
    return link


@pytest.mark.timeout(900, func_only=True)
def test_the_kiosk_takes_the_virtio_gpu_screen_through_kmsdrm(vm: Vm) -> None:
    """After the reboot the unit, in its sandbox, opens the VM's virtio-gpu card through
    SDL's kmsdrm and Mesa's GBM/EGL and puts its own framebuffer on the screen's plane."""
    vm.wait_for_after(REBOOTING, LOGIN, 600)
    wait_until("the lobby on /healthz", lambda: health(vm).get("phase") == "lobby", 600)
    status, journal = vm.shell("journalctl -b -u easel --no-pager -o cat")
    assert status == 0, journal
    assert "kiosk display: kmsdrm on /dev/dri/card0" in journal, journal[-3000:]
    assert "lobby on screen" in journal, journal[-3000:]
    status, state = vm.shell("mount -t debugfs none /sys/kernel/debug 2>/dev/null; "
                             "cat /sys/kernel/debug/dri/0/state")
    assert status == 0, state
    plane = state.split("plane[", 2)[1]  # the primary plane, the first listed
    assert "crtc=crtc-0" in plane and "allocated by = easel" in plane, state[:3000]


@pytest.mark.timeout(600, func_only=True)
def test_the_screen_shows_the_lobby_whose_qr_code_is_the_vms_join_address(vm: Vm) -> None:
    """The picture itself (QEMU's screendump): the lobby, its QR code decoding to this
    VM's address on its network, port 8080, the room the box reports. (It was black
    until the kiosk asked SDL for its GLES 2 renderer on kmsdrm and spent the unseen
    first present of the renderer on the background: docs/testing.md.)"""
    link = lobby_link(vm, 90)
    found = JOIN_LINK.match(link)
    assert found, link
    assert found.group("host") == guest_address(vm), link
    assert link == join_address(vm)  # the room too, as the box itself reports it


# --- phones ----------------------------------------------------------------------------------


def join_address(vm: Vm) -> str:
    """The join address as the box knows it: its /healthz asked from inside the VM (on its
    own loopback, which is told the room) and the VM's address on its network."""
    status, out = vm.shell("python3 -c \"import urllib.request as u; "
                           "print(u.urlopen('http://127.0.0.1:8080/healthz').read().decode())\"")
    assert status == 0, out
    room = json.loads(out)["room"]
    return f"http://{guest_address(vm)}:8080/?room={room}"


@pytest.fixture(scope="module")
def link(vm: Vm) -> str:
    """The join address with its host and port rewritten to the forwarded loopback port
    (the phone here is this machine's Chromium, not on the VM's network)."""
    parts = urlsplit(join_address(vm))
    return urlunsplit(parts._replace(netloc=f"127.0.0.1:{vm.port}"))


@pytest.fixture(scope="module")
def phones(browser: Any) -> Iterator[list[GamePhone]]:
    with game_phones(browser, "boot-check", ("Ada", "Bo", "Cy")) as made:
        for phone in made:
            phone.page.set_default_timeout(SLOW_MS)
        yield made


def one_phone_offering(phones: list[GamePhone], act: str) -> GamePhone:
    def found() -> GamePhone | None:
        offering = [p for p in phones if p.act(act).count() > 0]
        return offering[0] if len(offering) == 1 else None
    phone: GamePhone = wait_until(f"one phone offering {act}", found, SLOW_MS / 1000)
    return phone


def the_word(artist: GamePhone) -> str:
    from playwright.sync_api import expect

    line = artist.page.locator("#game-root [data-word]").first
    expect(line).to_be_visible(timeout=SLOW_MS)
    found = re.search(r"“(.+)”", line.inner_text())
    assert found, line.inner_text()
    return found.group(1)


@pytest.mark.timeout(900, func_only=True)
def test_three_phones_join_by_that_address_and_play_a_round(
    vm: Vm, link: str, phones: list[GamePhone]
) -> None:
    """Chromium on this machine opens the QR's address (through the forwarded port), three
    players sit down, the first starts Broad Lines, and a round is played to its end: a
    number named, a line drawn and placed, the word guessed and marked right."""
    from playwright.sync_api import expect

    for i, phone in enumerate(phones):
        phone.page.goto(link)
        expect(phone.screen("join")).to_be_visible(timeout=SLOW_MS)
        phone.page.fill("#name-input", phone.name)
        phone.page.click(f'label[for="swatch-{i}"]')
        phone.page.click("#join-button")
        expect(phone.screen("lobby")).to_be_visible(timeout=SLOW_MS)
    host = phones[0]
    expect(host.page.locator('[data-screen="lobby"] li.seat')).to_have_count(3, timeout=SLOW_MS)
    assert health(vm).get("players") == 3
    host.page.click('.game[data-game="broad-lines"]')
    expect(host.page.locator("#start-button")).to_be_enabled(timeout=SLOW_MS)
    host.page.click("#start-button")
    for phone in phones:
        expect(phone.page.locator("#game-root .broad-lines")).to_be_visible(timeout=SLOW_MS)
    critic = one_phone_offering(phones, "number-1")
    critic.act("number-3").click()
    artists = [p for p in phones if p is not critic]
    word = the_word(artists[0])
    drawer = one_phone_offering(phones, "place")
    draw_line(drawer.page, drawer.page.locator("#game-root .pad canvas.sheet-canvas"))
    expect(drawer.page.locator('#game-root [data-check="ok"]')).to_be_visible(timeout=SLOW_MS)
    drawer.act("place").click()
    for phone in phones:
        expect(phone.page.locator("#game-root")).to_contain_text("Sheets 1 / 25",
                                                                 timeout=SLOW_MS)
    critic.act("guess-text").fill(word.upper())
    critic.act("send-guess").click()
    expect(artists[0].page.locator('#game-root [data-opinion="match"]')).to_be_visible(
        timeout=SLOW_MS)
    artists[0].act("mark-right").click()
    for phone in phones:
        result = phone.page.locator('#game-root [data-result="guessed"]')
        expect(result).to_be_visible(timeout=SLOW_MS)
        expect(result).to_contain_text(word)
    phones[0].shot("round-guessed")
    assert health(vm).get("phase") == "playing"


# --- a power cut and a hung box ----------------------------------------------------------


@pytest.mark.timeout(900, func_only=True)
def test_after_a_power_cut_the_match_resumes_with_every_acknowledged_move(
    vm: Vm, phones: list[GamePhone]
) -> None:
    """The next round begins (its number named: every phone shows the word or the Critic's
    card), then the VM's power is cut, QEMU killed with nothing flushed. It boots again by
    itself into the same match: the guessed round, the sheet placed and the new round's
    word, each acknowledged to the phones before the cut, are all there."""
    from playwright.sync_api import expect

    phones[1].act("next").click()
    critic = one_phone_offering(phones, "number-1")
    critic.act("number-5").click()
    artists = [p for p in phones if p is not critic]
    word = the_word(artists[0])
    expect(artists[1].page.locator("#game-root [data-word]").first).to_contain_text(
        word, timeout=SLOW_MS)
    logins = vm.console().count("easel login:")
    vm.power_cut()
    vm.power_on()
    wait_until("the console's login prompt after the power cut",
               lambda: vm.console().count("easel login:") > logins, 900)
    after = wait_until("/healthz after the power cut", lambda: health(vm), 600)
    assert after.get("phase") == "playing" and after.get("players") == 3, after
    for phone in phones:
        phone.page.reload()
        game = phone.page.locator("#game-root")
        expect(game).to_contain_text("Sheets 1 / 25", timeout=SLOW_MS)
        expect(game).to_contain_text("1 word guessed", timeout=SLOW_MS)
    for artist in artists:
        assert the_word(artist) == word
    expect(critic.page.locator("#game-root")).to_contain_text("Art Critic", timeout=SLOW_MS)
    phones[0].shot("after-power-cut")


def unit_main_pid(vm: Vm) -> int:
    status, out = vm.shell("systemctl show -p MainPID --value easel")
    assert status == 0, out
    return int(out.strip() or 0)


@pytest.mark.timeout(600, func_only=True)
def test_a_hung_box_is_restarted_by_the_watchdog_and_the_journal_says_so(vm: Vm) -> None:
    """SIGSTOP: the frame loop's watchdog pings stop; after WatchdogSec systemd sends
    SIGABRT (with a SIGCONT, so the stopped process takes it), Python's fault handler
    writes every thread's traceback to the journal, and the unit starts again with the
    match it had."""
    hung = unit_main_pid(vm)
    assert hung > 0
    status, out = vm.shell(f"kill -STOP {hung}")
    assert status == 0, out
    wait_until("a new easel process",
               lambda: unit_main_pid(vm) not in (0, hung), 300)
    wait_until("/healthz after the watchdog's restart",
               lambda: health(vm).get("ok") is True, 300)
    status, journal = vm.shell("journalctl -b -u easel --no-pager -o cat")
    assert status == 0, journal
    (SCREENSHOTS / "easel-boot-check-watchdog-journal.log").write_text(journal)
    _, seen, after = journal.rpartition("Watchdog timeout")
    assert seen, journal[-4000:]
    assert "Fatal Python error: Aborted" in after and "appliance/" in after, after[:4000]
    assert "Failed with result 'watchdog'" in after, after[:4000]
    assert "resumed match" in after.partition("Scheduled restart job")[2], after[-4000:]


# --- the table's devices: the touch screen, the GPIO panel, the TV remote ------------------
#
# Each made in the VM with the kernel's own test devices (uinput, gpio-sim, vivid's CEC
# bus), so the box's real drivers read them through the unit's sandbox: its DeviceAllow=
# lines, its groups, its read-only /proc. The box is told of each in a systemd drop-in,
# the way docs/install.md says local changes are made, and restarted: the match goes on.

VM_SCRIPTS = "/run/easel-boot-check"


def vm_ok(vm: Vm, command: str, timeout: float = 120) -> str:
    """A command in the VM that must succeed; its output."""
    status, out = vm.shell(command, timeout)
    assert status == 0, f"{command}: exit {status}\n{out[-3000:]}"
    return out


def put_file(vm: Vm, dest: str, data: bytes, mode: str = "0644") -> str:
    """`data` written to `dest` in the VM through the control channel (base64, one
    command line per 48 kB): the VM has no other way in from here."""
    vm_ok(vm, f"mkdir -p {os.path.dirname(dest)} && : > {dest}.part")
    chunk = 48_000
    for start in range(0, len(data), chunk):
        text = base64.b64encode(data[start:start + chunk]).decode()
        vm_ok(vm, f"echo {text} | base64 -d >> {dest}.part")
    vm_ok(vm, f"chmod {mode} {dest}.part && mv {dest}.part {dest}")
    return dest


def put_script(vm: Vm, name: str) -> str:
    """A VM-side script of tests/boot_check/ copied in (the source disk has the copy made
    when the VM was first started; an attached VM may be older than the checkout)."""
    source = Path(boot_check.__file__).parent / name
    return put_file(vm, f"{VM_SCRIPTS}/{name}", source.read_bytes(), "0755")


def vm_clock(vm: Vm) -> int:
    """The VM's wall clock in whole seconds (for journalctl --since)."""
    return int(vm_ok(vm, "date +%s").strip())


def journal_since(vm: Vm, since: int) -> str:
    return vm_ok(vm, f"journalctl -u easel --no-pager -o cat --since @{since}")


def missing(reason: str) -> NoReturn:
    """A kernel feature the check needs is missing: a skip that says which, or a failure
    where every step must run (EASEL_REQUIRE_TOOLS=1, as CI sets)."""
    if os.environ.get("EASEL_REQUIRE_TOOLS") == "1":
        pytest.fail(f"{reason} (EASEL_REQUIRE_TOOLS=1)")
    pytest.skip(reason)


def kernel_module(vm: Vm, module: str, *options: str) -> None:
    """modprobe `module` in the VM, or skip naming the missing kernel feature."""
    status, out = vm.shell(f"modprobe {module} {' '.join(options)}")
    if status != 0:
        missing(f"the VM's kernel has no {module} (modprobe {module}: {out.strip()})")


def box_dropin(vm: Vm, name: str, service_lines: list[str]) -> None:
    """A drop-in for easel.service (docs/install.md's way of a local change), then the
    unit restarted: `systemctl restart` returns once the lobby or the match is on screen
    (Type=notify)."""
    text = ("# make boot-check: " + name + "\n[Service]\n" + "\n".join(service_lines)
            + "\n").encode()
    put_file(vm, f"/etc/systemd/system/easel.service.d/{name}.conf", text)
    vm_ok(vm, "systemctl daemon-reload && systemctl restart easel", timeout=300)
    wait_until("/healthz after the restart", lambda: health(vm).get("ok") is True, 300)


def kiosk_size(vm: Vm) -> tuple[int, int]:
    """The kiosk's screen as its journal says it opened it (the last start's)."""
    journal = vm_ok(vm, "journalctl -b -u easel --no-pager -o cat")
    sizes = re.findall(r"kiosk display: .*?(\d{3,5})x(\d{3,5})", journal)
    assert sizes, journal[-3000:]
    return int(sizes[-1][0]), int(sizes[-1][1])


def table_button_centre(size: tuple[int, int], button: ButtonName) -> tuple[float, float]:
    """Where the kiosk draws a table button's on-screen stand-in (the bar along the
    bottom while a game runs on a box without a real panel), 0..1 across the screen:
    the kiosk's own layout code, run here at the VM's screen size."""
    from appliance.kiosk.intents import PressButton
    from appliance.kiosk.render import KioskRenderer
    from appliance.kiosk.theme import Metrics

    renderer = KioskRenderer()
    surface = pygame.Surface(size)
    metrics = Metrics.for_size(size)
    renderer.begin_frame(surface, metrics)
    renderer._draw_panel_buttons(surface, {"match": {}}, "en", metrics)
    for rect, intent in renderer.targets:
        if intent == PressButton(button):
            return rect.centerx / size[0], rect.centery / size[1]
    raise AssertionError(f"no {button} button in the kiosk's bar: {renderer.targets}")


@pytest.mark.timeout(900, func_only=True)
def test_a_tap_on_the_touch_screen_reaches_the_game(vm: Vm) -> None:
    """A multi-touch screen made with uinput in the VM, plugged in while the box runs
    (as a panel on a USB cable would be): the box's evdev touch reader, in its sandbox
    (the input group, DeviceAllow=char-input), finds it by itself; a finger's tap on
    the kiosk's on-screen DIE button reaches the match, whose game (Broad Lines) answers
    that it has no use for the die."""
    kernel_module(vm, "uinput")
    assert health(vm).get("phase") == "playing"
    started = time.monotonic()
    box_dropin(vm, "boot-check-touch", ["Environment=EASEL_TOUCH_SOURCE=evdev"])
    restarted = time.monotonic()
    since = vm_clock(vm)
    x, y = table_button_centre(kiosk_size(vm), "die")
    script = put_script(vm, "vm_touch.py")

    def refused() -> str:
        journal = journal_since(vm, since)
        return journal if "button press_die means nothing now" in journal else ""

    # A person whose tap did nothing taps again; the first miss is kept (the screen as it
    # was and the journal) for whoever reads the log: one CI run's tap went unanswered
    # with nothing in the journal but the panel found and gone.
    for tries_left in (1, 0):
        out = vm_ok(vm, f"python3 {script} {x:.4f} {y:.4f} --wait 60", timeout=180)
        assert "vm_touch: finger down" in out, out
        try:
            journal = wait_until("the tapped DIE button in the journal", refused,
                                 20 if tries_left else 60)
            break
        except pytest.fail.Exception:
            if not tries_left:
                raise
            kiosk_frame(vm, "touch-unanswered")
            print("boot-check: the first tap went unanswered (easel-boot-check-touch-"
                  f"unanswered.png); the journal since the restart:\n"
                  f"{journal_since(vm, since)[-3000:]}")
    assert "touch panel found: easel-boot-check touch at /dev/input/event" in journal, journal
    print(f"boot-check figures: touch: the box restarted with evdev touch in "
          f"{restarted - started:.0f} s; the device made, found and tapped in "
          f"{time.monotonic() - restarted:.0f} s")


# The panel's wiring as config/appliance.toml has it (BCM numbers: lines of the chip).
HOURGLASS_BUTTON, DIE_BUTTON, REVEAL_BUTTON = 17, 27, 22
DIE_LED, REVEAL_LED = 24, 25
# A Raspberry Pi 4 Model B's revision code, which gpiozero's LGPIOFactory reads to know
# the board's header; the VM's /proc/cpuinfo has none (docs/testing.md).
PI_REVISION = "c03114"
GPIO_SIM = "/sys/kernel/config/gpio-sim/easel-header"


def gpio_sim_chip(vm: Vm, lines: int = 28) -> tuple[str, str]:
    """A gpio-sim chip with `lines` lines (BCM 0..27, the Pi's header) made through
    configfs, readable by the gpio group as on Raspberry Pi OS (its udev rule): its
    /dev name (gpiochipN) and the sysfs folder of its lines (sim_gpioN/pull, value)."""
    if vm.shell("[ -d /sys/module/gpio_sim ] || modprobe gpio-sim")[0] != 0:
        # Debian's amd64 kernel has none: gpio-sim built from its own source package.
        release = vm_ok(vm, "uname -r").strip()
        try:
            module = boot_check.gpio_sim_module(release)
        except boot_check.BootCheckError as err:
            missing(f"the VM's kernel has no gpio-sim and it could not be built: {err}")
        dest = put_file(vm, f"{VM_SCRIPTS}/gpio-sim.ko", module.read_bytes())
        vm_ok(vm, f"modprobe configfs && insmod {dest}")
    put_file(vm, "/etc/udev/rules.d/60-easel-boot-check-gpio.rules",
             b'# make boot-check: as Raspberry Pi OS gives its GPIO chips to the gpio group\n'
             b'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"\n')
    vm_ok(vm, "udevadm control --reload")
    vm_ok(vm, "mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config")
    vm_ok(vm, f"[ -d {GPIO_SIM} ] || {{ mkdir -p {GPIO_SIM}/bank0 && "
              f"echo {lines} > {GPIO_SIM}/bank0/num_lines && "
              f"echo easel-header > {GPIO_SIM}/bank0/label && "
              f"echo 1 > {GPIO_SIM}/live; }}")
    chip = vm_ok(vm, f"cat {GPIO_SIM}/bank0/chip_name").strip()
    device = vm_ok(vm, f"cat {GPIO_SIM}/dev_name").strip()
    vm_ok(vm, f"udevadm settle && test $(stat -c %G /dev/{chip}) = gpio")
    return chip, f"/sys/devices/platform/{device}/{chip}"


def install_lgpio(vm: Vm) -> None:
    """lgpio for the VM's Python where Raspberry Pi OS's python3-lgpio puts it (the
    box's venv sees Debian's packages: --system-site-packages): a cp313 wheel built from
    PyPI's sdist (tests/boot_check.lgpio_wheel), unpacked into dist-packages."""
    wheel = boot_check.lgpio_wheel()
    dest = put_file(vm, f"{VM_SCRIPTS}/{wheel.name}", wheel.read_bytes())
    vm_ok(vm, f"python3 -m zipfile -e {dest} /usr/lib/python3/dist-packages/ && "
              "python3 -c 'import lgpio'")


def agree_once(phone: GamePhone) -> None:
    """The phone's player agrees to give up, and sees their agreement taken.

    Playwright's click is a mousedown and a mouseup sent one after the other; when another
    phone's agreement rebuilt this page between them (an emulated box's view can take a
    second), the mouseup met a new button and no click fired: CI lost one so. The page
    now counts such a release as the click (app.js, `keepClicksAcrossRebuilds`); should
    one still go unanswered, the player clicks again, and the output says so."""
    from playwright.sync_api import expect

    agree = phone.act("agree-give-up")
    for tries_left in (1, 0):
        expect(agree).to_be_visible(timeout=SLOW_MS)
        agree.click()
        try:
            expect(agree).to_be_hidden(timeout=SLOW_MS // 4 if tries_left else SLOW_MS)
            return
        except AssertionError:
            if not tries_left:
                raise
            print(f"boot-check: {phone.name}'s agreement clicked again: the page was rebuilt")


def press_line(vm: Vm, lines: str, line: int, hold_s: float = 0.3) -> None:
    """A button wired to ground pressed: its line pulled low for `hold_s`, then let go."""
    pull = f"{lines}/sim_gpio{line}/pull"
    vm_ok(vm, f"echo pull-down > {pull} && sleep {hold_s} && echo pull-up > {pull}")


def led_samples(vm: Vm, lines: str, line: int, count: int = 40) -> list[str]:
    """The LED line's output level, read `count` times over about two seconds (a lit
    button's LED breathes: lgpio drives it with PWM)."""
    return vm_ok(vm, f"for i in $(seq {count}); do cat {lines}/sim_gpio{line}/value; "
                     "sleep 0.05; done").split()


@pytest.mark.timeout(900, func_only=True)
def test_the_gpio_panel_on_gpio_sim_through_lgpio(vm: Vm, phones: list[GamePhone]) -> None:
    """The table's panel on the kernel's gpio-sim chip, through gpiozero's lgpio factory
    on the GPIO character device (the Pi's path since Bookworm), in the unit's sandbox
    (the gpio group, DeviceAllow=char-gpiochip). Pulls on the buttons' lines: DIE is
    refused by Broad Lines, HOURGLASS held proposes giving the round up (the phones
    agree), and the round over, REVEAL's LED breathes while DIE's stays dark; REVEAL
    pressed starts the next round."""
    from playwright.sync_api import expect

    started = time.monotonic()
    chip, lines = gpio_sim_chip(vm)
    install_lgpio(vm)
    put_file(vm, "/etc/easel-boot-check/cpuinfo",
             f"processor\t: 0\nmodel name\t: QEMU\nRevision\t: {PI_REVISION}\n".encode())
    made = time.monotonic()
    since = vm_clock(vm)
    box_dropin(vm, "boot-check-gpio", [
        "Environment=EASEL_PANEL_PIN_FACTORY=lgpio",
        "BindReadOnlyPaths=/etc/easel-boot-check/cpuinfo:/proc/cpuinfo",
    ])
    restarted = time.monotonic()
    journal = journal_since(vm, since)
    assert "panel: GPIO through lgpio" in journal, journal[-3000:]
    used = vm_ok(vm, f"gpioinfo -c {chip}")
    assert re.search(rf"line\s+{DIE_BUTTON}:.*input.*consumer=", used), used

    for phone in phones:  # the box restarted: each phone's page as its player opens it
        phone.page.reload()
        expect(phone.page.locator("#game-root .broad-lines")).to_be_visible(timeout=SLOW_MS)
    if any(p.act("next").count() for p in phones):  # a round over: the next one, drawn
        phones[1].act("next").click()
        one_phone_offering(phones, "number-1").act("number-2").click()
        one_phone_offering(phones, "place")

    since = vm_clock(vm)
    press_line(vm, lines, DIE_BUTTON)
    wait_until("DIE's press in the journal",
               lambda: "button press_die means nothing now" in journal_since(vm, since), 60)
    assert set(led_samples(vm, lines, REVEAL_LED, 10)) == {"0"}
    press_line(vm, lines, HOURGLASS_BUTTON, hold_s=2.5)  # hold_s is 1.5
    for phone in phones:
        agree_once(phone)
    for phone in phones:
        expect(phone.page.locator('#game-root [data-result="given_up"]')).to_be_visible(
            timeout=SLOW_MS)
    lit = led_samples(vm, lines, REVEAL_LED)
    assert "1" in lit, lit
    assert set(led_samples(vm, lines, DIE_LED, 10)) == {"0"}
    press_line(vm, lines, REVEAL_BUTTON)
    one_phone_offering(phones, "number-1")  # the next round: its Critic names a number
    print(f"boot-check figures: gpio: the chip and lgpio made in {made - started:.0f} s; "
          f"the box restarted on lgpio in {restarted - made:.0f} s; the presses and lights "
          f"{time.monotonic() - restarted:.0f} s")


PLAYBACK_1 = 4  # the logical address a first playback device takes on a CEC bus


def vivid_adapters(vm: Vm) -> tuple[str, str]:
    """vivid's emulated CEC bus: (the TV's adapter, on its HDMI input, and the box's, on
    its HDMI output), told apart by the adapter names cec-ctl reports."""
    kernel_module(vm, "vivid")
    # vivid's HDMI input shows its test pattern until told it is wired to the output:
    # then the output (the box) has a physical address on the TV's bus (1.0.0.0).
    vm_ok(vm, "for d in /dev/video*; do v4l2-ctl -d $d "
              "-c hdmi_000_0_is_connected_to=2 2>/dev/null && echo $d; done; true")
    found: dict[str, str] = {}
    for _ in range(30):
        listing = vm_ok(vm, "for d in /dev/cec*; do [ -e $d ] && echo \"== $d\" && "
                            "cec-ctl -d $d | grep -i 'adapter\\|name'; done; true")
        for block in listing.split("== ")[1:]:
            device, _, status = block.partition("\n")
            if "vid-cap" in status:
                found.setdefault("tv", device.strip())
            elif "vid-out" in status:
                found.setdefault("box", device.strip())
        if len(found) == 2:
            return found["tv"], found["box"]
        time.sleep(1)
    missing(f"vivid made no CEC adapters for an HDMI input and output (the kernel's "
                f"CONFIG_VIDEO_VIVID_CEC?): {listing.strip()[:500]}")


def remote_key(vm: Vm, tv: str, ui_cmd: str) -> None:
    """The TV's remote: a User Control Pressed and Released from the TV to the box."""
    vm_ok(vm, f"cec-ctl -d {tv} --to {PLAYBACK_1} --user-control-pressed ui-cmd={ui_cmd} "
              f"&& cec-ctl -d {tv} --to {PLAYBACK_1} --user-control-released")


@pytest.mark.timeout(900, func_only=True)
def test_the_tv_remote_on_vivids_cec_bus(vm: Vm, phones: list[GamePhone]) -> None:
    """The TV's remote through the kernel's CEC framework: vivid's emulated HDMI input
    (the TV) and output (the box) on one CEC bus. The box, told its adapter in a drop-in,
    registers itself as a playback device with cec-ctl from its sandbox and reads the
    adapter's remote-control input device (rc-cec); the TV sends its remote's keys to it:
    green (the DIE button) reaches the game, which refuses it; Pause pauses the match on
    every phone and Play resumes it."""
    from playwright.sync_api import expect

    started = time.monotonic()
    tv, box = vivid_adapters(vm)
    vm_ok(vm, f"cec-ctl -d {tv} --tv --osd-name TV")
    since = vm_clock(vm)
    box_dropin(vm, "boot-check-tv", [f"Environment=EASEL_TV_DEVICE={box}"])
    restarted = time.monotonic()

    def on_the_bus() -> str:
        # Both come after the start's READY: cec-ctl runs off the start's path.
        journal = journal_since(vm, since)
        found = ("remote keys: remote" in journal
                 and "tv: on HDMI-CEC as playback device 'Easel'" in journal)
        return journal if found else ""
    wait_until("the box registered on the CEC bus and reading its remote", on_the_bus, 60)
    topology = vm_ok(vm, f"cec-ctl -d {tv} --show-topology")
    assert "1.0.0.0: Playback Device 1" in topology, topology
    name = vm_ok(vm, f"cec-ctl -d {tv} --to {PLAYBACK_1} --give-osd-name")
    assert "name: Easel" in name, name  # the box's adapter answers with its OSD name

    since = vm_clock(vm)
    remote_key(vm, tv, "f3-green")
    wait_until("the remote's green key (DIE) in the journal",
               lambda: "button press_die means nothing now" in journal_since(vm, since), 60)
    remote_key(vm, tv, "pause")
    for phone in phones:
        expect(phone.page.locator("#pause-banner")).to_be_visible(timeout=SLOW_MS)
    remote_key(vm, tv, "play")
    for phone in phones:
        expect(phone.page.locator("#pause-banner")).to_be_hidden(timeout=SLOW_MS)
    print(f"boot-check figures: tv: vivid and the box restarted in {restarted - started:.0f} "
          f"s; the remote's keys {time.monotonic() - restarted:.0f} s")


# --- a data partition that cannot be written ---------------------------------------------

DATA_DIR = "/var/lib/easel"  # the unit's StateDirectory=easel
# The lobby's notices (appliance/kiosk/render.py): one WARN panel a line along the bottom.
WARN = (240, 84, 72)


def warning_rows(pixels: np.ndarray) -> int:
    """Rows of the screen's bottom fifth that a wide WARN-coloured panel crosses (the
    kiosk's notices' strip: each notice is a WARN panel at least a quarter of the screen
    wide). A player's swatch or a red word is far narrower."""
    height, width, _ = pixels.shape
    band = pixels[height * 4 // 5:].astype(np.int16)
    warn = (np.abs(band - np.array(WARN, np.int16)) <= 12).all(axis=2)
    return int((warn.sum(axis=1) >= width // 4).sum())


def restart_unit(vm: Vm) -> None:
    """`systemctl restart easel`: it returns once the unit said READY (Type=notify)."""
    status, out = vm.shell("systemctl restart easel", timeout=300)
    assert status == 0, out


def degraded_start(vm: Vm, name: str, prepare: str) -> tuple[dict[str, Any], np.ndarray]:
    """The unit stopped, `prepare` run (what becomes of the data partition), the unit
    started again: its /healthz and the kiosk's picture once it says degraded."""
    status, out = vm.shell("systemctl stop easel", timeout=120)
    assert status == 0, out
    status, out = vm.shell(prepare)
    assert status == 0, out
    restart_unit(vm)
    body: dict[str, Any] = wait_until("/healthz degraded",
                                      lambda: (h := health(vm)).get("degraded") and h, 300)
    # The notices are in the first frame; give the kiosk a moment to put it on the screen.
    def warned() -> tuple[np.ndarray] | None:
        pixels = kiosk_frame(vm, name)
        return (pixels,) if warning_rows(pixels) > 0 else None
    (frame,) = wait_until("the notices' strip on the kiosk's screen", warned, 120)
    return body, frame


def restore_unit(vm: Vm, undo: str) -> None:
    """The partition as it was and the unit started on it: not degraded any more."""
    status, out = vm.shell(f"systemctl stop easel; {undo}", timeout=120)
    assert status == 0, out
    restart_unit(vm)
    after = wait_until("/healthz after the partition came back", lambda: health(vm), 300)
    assert after.get("ok") is True and "degraded" not in after, after


def degraded_journal(vm: Vm) -> str:
    """The unit's journal since its last start."""
    status, journal = vm.shell("journalctl -u easel --no-pager -o cat -n 300")
    assert status == 0, journal
    return journal.rpartition("Starting easel.service")[2]


@pytest.mark.timeout(900, func_only=True)
def test_on_a_read_only_data_partition_the_box_starts_degraded_and_says_so(vm: Vm) -> None:
    """The data directory mounted read-only (what the kernel does to a card's ext4 after
    an error, errors=remount-ro): the box still starts, in the lobby with the room code and
    the seats the card holds (read, not written: every phone's token still works), /healthz
    says degraded and why, and the kiosk shows the notices' warning panels along the bottom
    edge, which the screen before did not have. (The words themselves are not read from
    the picture: their text is checked on /healthz.)"""
    # The unit active: READY comes after the kiosk's first frame (a /healthz may answer
    # before it, just after the watchdog's restart).
    wait_until("the unit active", lambda: vm.shell("systemctl is-active easel")[0] == 0, 300)
    room = urlsplit(join_address(vm)).query
    players = health(vm).get("players")
    # A key refused just before (the remote's green) shows its red toast for a few
    # seconds, and each frame takes the emulated VM a second or more to draw: the plain
    # screen is the one the box settles on.
    def settled() -> tuple[np.ndarray] | None:
        pixels = kiosk_frame(vm, "before-read-only")
        return (pixels,) if warning_rows(pixels) == 0 else None
    (plain,) = wait_until("the screen without a warning strip", settled, 120)
    assert plain.max() > 0, "the screen is black before the partition changed"
    body, frame = degraded_start(
        vm, "read-only",
        f"mount --bind {DATA_DIR} {DATA_DIR} && mount -o remount,bind,ro {DATA_DIR}")
    try:
        assert body.get("ok") is False and "cannot be written" in body["degraded"], body
        assert body.get("phase") == "lobby", body
        # Two notices (what is wrong, what to do): two panels, a text line high each.
        assert warning_rows(frame) >= 20, warning_rows(frame)
        link = lobby_link(vm, 60)  # still the lobby: its QR code is the join address
        assert JOIN_LINK.match(link), link
        # The room code on the table and the seats are the card's (Store.keep_from).
        assert urlsplit(link).query == room, (link, room)
        assert body.get("players") == players, (body, players)
        journal = degraded_journal(vm)
        assert "running degraded" in journal
        assert "kept the room code and seats" in journal, journal[-3000:]
    finally:
        restore_unit(vm, f"umount {DATA_DIR}")


@pytest.mark.timeout(900, func_only=True)
def test_on_a_full_data_partition_the_box_starts_degraded_and_says_so(vm: Vm) -> None:
    """The data directory on a partition with no space left (a small tmpfs, filled up):
    the data file cannot be made; the box starts in the lobby, /healthz says degraded
    and the kiosk shows the notices' warning panels."""
    body, frame = degraded_start(
        vm, "full", f"mount -t tmpfs -o size=2m,mode=0755,uid=$(id -u easel),gid=$(id -g easel) "
            f"easel-full {DATA_DIR} && (dd if=/dev/zero of={DATA_DIR}/filler bs=64k "
            f"2>/dev/null; true) && test $(stat -f -c %a {DATA_DIR}) -eq 0")
    try:
        assert body.get("ok") is False and "cannot be written" in body["degraded"], body
        assert body.get("phase") == "lobby", body
        assert warning_rows(frame) >= 20, warning_rows(frame)
        assert JOIN_LINK.match(lobby_link(vm, 60))
        assert "running degraded" in degraded_journal(vm)
    finally:
        restore_unit(vm, f"umount {DATA_DIR}")


# --- the present's cost on a real DRM/KMS path (issue 29 item 4) ---------------------------

PRESENT_COST = "/srv/easel-src/tests/boot_check/present_cost.py"


@pytest.mark.timeout(1200, func_only=True)
def test_the_kiosks_frame_with_its_present_is_measured_on_the_vms_kmsdrm(vm: Vm) -> None:
    """With the unit stopped, tests/boot_check/present_cost.py opens the kiosk on the VM's
    virtio-gpu card through kmsdrm and Mesa, upright and turned, through both present
    paths, and on SDL's dummy driver; its figures are kept under the boot-check cache for
    `make bench` (tests/bench/bench_present_vm.py). The unit is started again after."""
    status, out = vm.shell("systemctl stop easel", timeout=120)
    assert status == 0, out
    try:
        status, out = vm.shell(f"/opt/easel/venv/bin/python {PRESENT_COST} 2>&1", timeout=1000)
    finally:
        restart_unit(vm)
    assert status == 0, out
    figures = json.loads(out.strip().splitlines()[-1])
    for rotation in (0, 90):
        for path in ("kmsdrm_surface", "kmsdrm_renderer", "dummy"):
            assert figures[f"vm_frame_cpu_ms_rot{rotation}_{path}"] > 0, figures
    (boot_check.CACHE / "present-cost.json").write_text(json.dumps(figures, indent=1) + "\n")
    wait_until("/healthz after the measurement", lambda: health(vm).get("ok") is True, 300)
