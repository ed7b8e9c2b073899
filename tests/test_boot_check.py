"""`make boot-check`: the appliance booted whole in an x86_64 VM under KVM (tests/boot_check).

A clean Debian trixie image; at its first boot the project's own installer runs as
docs/install.md says and restarts the box; after that reboot the unit comes up by itself,
the kiosk shows the lobby on the VM's virtio-gpu screen through SDL's kmsdrm (QEMU's
screendump, its QR code decoded), and a phone (Chromium on this machine) joins through the
forwarded loopback port.

Slow (minutes) and networked the first time (debootstrap, the wheels): skipped unless
EASEL_BOOT_CHECK=1 (`make boot-check`); never part of `make test`. Under KVM where it runs
Debian's kernel, else under TCG (the same image, emulated: slower; tests/boot_check).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pygame
import pytest
import zxingcpp

from tests import boot_check
from tests.boot_check import BootCheckError, Vm

pytestmark = [
    pytest.mark.skipif(os.environ.get("EASEL_BOOT_CHECK") != "1",
                       reason="make boot-check runs these (EASEL_BOOT_CHECK=1)"),
    # The fixture builds the image (minutes cold) and boots twice: its own bounds below.
    pytest.mark.timeout(120, func_only=True),
]

INSTALLED = "easel-boot-check: installer exit"
REBOOTING = "easel-boot-check: rebooting"
UNIT_UP = re.compile(r"Started (\x1b\[[0-9;]*m)?easel\.service")  # systemd colours the name
JOIN = re.compile(r"^http://10\.0\.2\.15:8080/\?room=\w+")  # QEMU's user network gives .15


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Vm]:
    for tool in ("debootstrap", "mkfs.ext4", "qemu-img", boot_check.QEMU):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing (apt-get install debootstrap qemu-system-x86 "
                        "qemu-utils e2fsprogs)")
    work = tmp_path_factory.mktemp("boot-check")
    with boot_check.booted(work) as machine:
        # First boot: the installer, then its reboot; then the unit by itself.
        machine.wait_for(INSTALLED, 1800)  # under TCG the installer takes minutes
        machine.wait_for(REBOOTING, 120)
        yield machine
        # What a failing test needs to see.
        (Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp")) / "easel-boot-check-console.log"
         ).write_text(machine.console())


def after_reboot(machine: Vm) -> str:
    return machine.console().split(REBOOTING, 1)[1]


def test_the_installer_ran_on_the_clean_image_as_the_guide_says(vm: Vm) -> None:
    console = vm.console()
    assert f"{INSTALLED} 0" in console, console[-4000:]
    first = console.split(REBOOTING, 1)[0]
    # The installer's own words: the unit installed, the settings from the profile.
    assert "the systemd unit" in first and "settings from the hdmi-tv profile" in first


def test_after_the_reboot_the_unit_comes_up_by_itself(vm: Vm) -> None:
    try:
        vm.wait_for_after(REBOOTING, UNIT_UP, 600)
    except BootCheckError as err:
        pytest.fail(str(err))
    assert UNIT_UP.search(after_reboot(vm))


def lobby_qr(vm: Vm, dest: Path) -> list[str]:
    dump = vm.screendump(dest)
    surface = pygame.image.load(str(dump))
    pixels = np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1))
    return [r.text for r in zxingcpp.read_barcodes(pixels)]


def test_the_lobby_is_on_the_virtio_screen_with_the_join_address(vm: Vm, tmp_path: Path) -> None:
    vm.wait_for_after(REBOOTING, UNIT_UP, 600)
    texts: list[str] = []
    for _ in range(30):  # the lobby's first frame follows the unit's READY by a moment
        texts = [t for t in lobby_qr(vm, tmp_path / "screen.ppm") if JOIN.match(t)]
        if texts:
            break
    shutil.copy(tmp_path / "screen.ppm",
                Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp")) / "easel-boot-check.ppm")
    assert texts, "no QR code of the join address on the VM's screen"


def test_a_phone_joins_through_the_forwarded_port(vm: Vm, tmp_path: Path, browser) -> None:
    from playwright.sync_api import expect

    vm.wait_for_after(REBOOTING, UNIT_UP, 600)
    (join,) = {t for t in lobby_qr(vm, tmp_path / "screen.ppm") if JOIN.match(t)} or {""}
    assert join, "no join address on the screen"
    # The phone reaches the box at the address the QR code names, here through QEMU's
    # forward of the box's 8080 to a loopback port of this machine.
    parts = urlsplit(join)
    url = f"http://127.0.0.1:{vm.port}{parts.path}?{parts.query}"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(url)
        expect(page.locator('[data-screen="join"]')).to_be_visible(timeout=20_000)
        page.fill("#name-input", "Vm")
        page.click('label[for="swatch-0"]')
        page.click("#join-button")
        expect(page.locator('[data-screen="lobby"]')).to_be_visible(timeout=20_000)
    finally:
        context.close()
