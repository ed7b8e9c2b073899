"""The whole appliance booted in a virtual machine (`make boot-check`, tests/test_boot_check.py).

An x86_64 Debian trixie system under KVM, built only from what this project reaches:

- the root: `debootstrap` of trixie from the Debian mirror this machine's apt names, with
  Debian's kernel (linux-image-amd64), systemd as init, Mesa and every Debian package the
  installer asks for (so its apt-get finds them installed), and the x86_64 cp313 wheels of
  Easel's dependencies in a local folder the image's pip is pointed at (`/etc/pip.conf`):
  the VM's installer needs no index and no certificate of this machine;
- a first-boot unit that does what docs/install.md says, from a copy of this checkout on a
  second disk: `sudo easel/systemd/install.sh --profile hdmi-tv`, then `reboot`;
- QEMU from Debian (qemu-system-x86), the kernel booted directly (-kernel, -initrd) with
  the root on a virtio disk, a virtio-vga screen (DRM/KMS: SDL's kmsdrm, Mesa's GBM/EGL),
  the serial console in a file, QEMU's monitor on a socket for `screendump`, and the box's
  port 8080 forwarded to a loopback port only (hostfwd=tcp:127.0.0.1:PORT-:8080).

Everything slow is cached under .boot-check/ (ignored by git): the root, its disk image
(the runs write to a copy-on-write overlay, never to it), the wheels. Each run makes a
fresh overlay and a fresh source disk, so the installer always runs on a clean image.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests import pi_check

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("EASEL_BOOT_CHECK_CACHE") or REPO / ".boot-check")
SUITE = "trixie"
PYTHON = "3.13"
QEMU = "qemu-system-x86_64"
# What the root has besides debootstrap's minimal base: init, the kernel, the network, the
# installer's Debian packages (systemd/install.sh's lists; lgpio is Raspberry Pi OS's).
ROOT_PACKAGES = (
    "systemd-sysv", "udev", "dbus", "kmod", "linux-image-amd64", "initramfs-tools",
    "iproute2", "sudo", "ca-certificates", "procps",
    # The checks' own tools: cec-ctl (the TV remote on vivid's CEC bus), gpioinfo (gpio-sim).
    "v4l-utils", "gpiod",
)
DISK_SIZE = "4G"
# The recipe's version: a change to the image's making makes a new image.
RECIPE = "3"

FIRST_BOOT_UNIT = """\
[Unit]
Description=Easel's installer, run once on a fresh image as docs/install.md says
After=network-online.target local-fs.target
Wants=network-online.target
ConditionPathExists=!/var/lib/easel-first-boot.done

[Service]
Type=oneshot
StandardOutput=journal+console
StandardError=journal+console
ExecStart=/usr/local/sbin/easel-first-boot

[Install]
WantedBy=multi-user.target
"""

FIRST_BOOT = """\
#!/bin/sh
# docs/install.md, step 3 and 4: the checkout in a home folder, the installer with a
# profile, then a restart. (git clone is the copy from the source disk here.)
set -eu
echo "easel-boot-check: first boot: installing"
mkdir -p /home/pi
rm -rf /home/pi/easel
cp -a /srv/easel-src /home/pi/easel
cd /home/pi
if sudo easel/systemd/install.sh --profile hdmi-tv; then
    echo "easel-boot-check: installer exit 0"
else
    echo "easel-boot-check: installer exit $?"
fi
touch /var/lib/easel-first-boot.done
echo "easel-boot-check: rebooting"
systemctl reboot
"""


# The check's own way in: a root shell on a virtio serial port (a unix socket on the host,
# nothing on the VM's network). One command a line, its output, then its exit status on a
# line of its own, so the tests read the journal, stop a process or cut a partition.
CONTROL_PORT = "org.easel.control"
CONTROL_UNIT = """\
[Unit]
Description=make boot-check's control channel (a root shell on a virtio serial port)

[Service]
ExecStart=/usr/local/sbin/easel-control
Restart=always
RestartSec=1

[Install]
WantedBy=multi-user.target
"""
CONTROL = f"""\
#!/bin/bash
# One command a line from the host; its output; then "easel-control: exit N". The port
# reads as ended while the host has no connection: open it again a moment later.
port=/dev/virtio-ports/{CONTROL_PORT}
while true; do
    if [ -e "$port" ] && exec 3<>"$port"; then
        while IFS= read -r line <&3; do
            bash -c "$line" </dev/null >&3 2>&3
            echo "easel-control: exit $?" >&3
        done
        exec 3>&-
    fi
    sleep 0.5
done
"""
CONTROL_DONE = re.compile(r"easel-control: exit (\d+)\n")


class BootCheckError(RuntimeError):
    """A step of making or running the VM failed; the message says which and why."""


def kvm_usable() -> str:
    """'' when /dev/kvm can be opened, else why not (the tests' skip reason)."""
    try:
        fd = os.open("/dev/kvm", os.O_RDWR)
    except OSError as err:
        return f"/dev/kvm cannot be opened ({err.strerror})"
    os.close(fd)
    return ""


_ACCELERATOR: list[str] = []


def accelerator(kernel: Path) -> list[str]:
    """QEMU's accelerator: KVM where it runs Debian's kernel, else TCG (emulated, slower).

    /dev/kvm opening is not enough. This project's machines are themselves VMs whose
    /dev/kvm is PVM (the kvm_pvm module: no VMX/SVM in the CPU flags), which runs guest
    kernels built for PVM only; any other guest's ring-0 code goes through KVM's
    instruction emulator, which stops at the first instruction it lacks ("KVM internal
    error ... emulation failure": SHRX in the bzImage's decompressor, CMPXCHG16B in the
    uncompressed kernel booted through PVH), whatever -cpu or -machine is given
    (docs/testing.md lists what was tried). So the kernel is started under KVM once for a
    few seconds; if it prints its banner, KVM it is. EASEL_BOOT_CHECK_ACCEL=kvm or tcg
    decides without the probe."""
    if _ACCELERATOR:
        return _ACCELERATOR
    chosen = os.environ.get("EASEL_BOOT_CHECK_ACCEL", "")
    if not chosen:
        chosen = "tcg"
        if not kvm_usable():
            with tempfile.TemporaryDirectory() as scratch:
                log = Path(scratch) / "probe.log"
                with contextlib.suppress(subprocess.TimeoutExpired):
                    subprocess.run(
                        [QEMU, "-enable-kvm", "-m", "512", "-kernel", str(kernel),
                         "-append", "console=ttyS0 panic=-1", "-display", "none",
                         "-serial", f"file:{log}", "-no-reboot"],
                        capture_output=True, timeout=15, check=False)
                if log.exists() and "Linux version" in log.read_text(errors="replace"):
                    chosen = "kvm"
    _ACCELERATOR[:] = (["-enable-kvm", "-cpu", "host"] if chosen == "kvm"
                       else ["-accel", "tcg,thread=multi", "-cpu", "max"])
    return _ACCELERATOR


def _run(argv: list[str], timeout: float = 1800, **kw: object) -> str:
    try:
        return pi_check.run(argv, timeout=timeout, **kw)  # type: ignore[arg-type]
    except pi_check.PiCheckError as err:
        raise BootCheckError(str(err)) from None


def installer_debian_packages() -> set[str]:
    """The Debian packages the installer may ask for, less Raspberry Pi OS's own and the
    ones only a hotspot or a compiler needs."""
    return pi_check.installer_packages() - pi_check.RASPBERRY_PI_ONLY - {
        "dnsmasq-base", "python3-dev", "build-essential"}


def root_dir(cache: Path = CACHE) -> Path:
    """Debian trixie for amd64 with the kernel, systemd and the installer's packages."""
    root = cache / f"{SUITE}-amd64"
    want = ",".join(sorted({*ROOT_PACKAGES, *installer_debian_packages()}))
    stamp = root / ".easel-root"
    if stamp.is_file() and stamp.read_text() == want + RECIPE:
        return root
    if os.geteuid() != 0:
        raise BootCheckError("debootstrap needs root (CI runs as root)")
    # debootstrap (minutes, networked) only when the package list changed; a change to
    # the recipe's own files (RECIPE) only configures the root again.
    base = root / ".easel-base"
    if not (base.is_file() and base.read_text() == want):
        shutil.rmtree(root, ignore_errors=True)
        root.parent.mkdir(parents=True, exist_ok=True)
        mirror = pi_check.debian_mirror()
        _run(["debootstrap", "--variant=minbase", f"--include={want}", SUITE, str(root),
              mirror], timeout=3600)
        base.write_text(want)
    configure_root(root)
    stamp.write_text(want + RECIPE)
    return root


def configure_root(root: Path) -> None:
    """What a Raspberry Pi OS image has and debootstrap's base does not: a name, a network,
    a console, the mirror's sources; and what the check adds: the first-boot unit, the
    wheels for pip."""
    (root / "etc" / "hostname").write_text("easel\n")
    (root / "etc" / "hosts").write_text("127.0.0.1 localhost\n127.0.1.1 easel\n")
    (root / "etc" / "fstab").write_text(
        "/dev/vda / ext4 defaults,errors=remount-ro 0 1\n"
        "LABEL=easel-src /srv/easel-src ext4 ro,nofail 0 0\n"
    )
    (root / "srv" / "easel-src").mkdir(parents=True, exist_ok=True)
    network = root / "etc" / "systemd" / "network"
    network.mkdir(parents=True, exist_ok=True)
    (network / "10-wired.network").write_text("[Match]\nName=en*\n\n[Network]\nDHCP=yes\n")
    wants = root / "etc" / "systemd" / "system" / "multi-user.target.wants"
    wants.mkdir(parents=True, exist_ok=True)
    link = wants / "systemd-networkd.service"
    if not link.exists():
        link.symlink_to("/usr/lib/systemd/system/systemd-networkd.service")
    online = root / "etc" / "systemd" / "system" / "network-online.target.wants"
    online.mkdir(parents=True, exist_ok=True)
    link = online / "systemd-networkd-wait-online.service"
    if not link.exists():
        link.symlink_to("/usr/lib/systemd/system/systemd-networkd-wait-online.service")
    (root / "etc" / "resolv.conf").unlink(missing_ok=True)
    (root / "etc" / "resolv.conf").write_text("nameserver 10.0.2.3\n")  # QEMU's user network
    (root / "etc" / "systemd" / "system" / "easel-first-boot.service").write_text(
        FIRST_BOOT_UNIT)
    (wants / "easel-first-boot.service").unlink(missing_ok=True)
    (wants / "easel-first-boot.service").symlink_to("/etc/systemd/system/easel-first-boot.service")
    script = root / "usr" / "local" / "sbin" / "easel-first-boot"
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(FIRST_BOOT)
    script.chmod(0o755)
    (root / "etc" / "systemd" / "system" / "easel-control.service").write_text(CONTROL_UNIT)
    (wants / "easel-control.service").unlink(missing_ok=True)
    (wants / "easel-control.service").symlink_to("/etc/systemd/system/easel-control.service")
    # Every phone reaches the VM through QEMU's NAT, so the box sees them all at one
    # address (10.0.2.2) and its seats-per-address cap (2) would keep the third out: lift it
    # in a drop-in, the way docs/install.md says local changes are made.
    dropin = root / "etc" / "systemd" / "system" / "easel.service.d"
    dropin.mkdir(parents=True, exist_ok=True)
    (dropin / "boot-check.conf").write_text(
        "# make boot-check: all phones come through QEMU's NAT, from one address.\n"
        "[Service]\nEnvironment=EASEL_TABLE_SEATS_PER_ADDRESS=0\n")
    control = root / "usr" / "local" / "sbin" / "easel-control"
    control.write_text(CONTROL)
    control.chmod(0o755)
    # The root has no password and logs in on the serial console (a VM's, nobody else's).
    (root / "etc" / "shadow").write_text(
        "\n".join(
            ("root::1:0:99999:7:::" if line.startswith("root:") else line)
            for line in (root / "etc" / "shadow").read_text().splitlines()
        ) + "\n"
    )
    wheels = root / "opt" / "easel-wheels"
    download_wheels(wheels)
    (root / "etc" / "pip.conf").write_text(
        "[global]\n# make boot-check: the wheels are in the image; no index is asked.\n"
        "no-index = true\nfind-links = /opt/easel-wheels\n"
    )


def download_wheels(dest: Path) -> None:
    """x86_64 cp313 wheels of the runtime dependencies and of the build backend."""
    dest.mkdir(parents=True, exist_ok=True)
    platforms: list[str] = []
    for minor in range(41, 16, -1):
        platforms += ["--platform", f"manylinux_2_{minor}_x86_64"]
    platforms += ["--platform", "manylinux2014_x86_64", "--platform", "linux_x86_64"]
    requirements = [r for r in pi_check.wheel_requirements(PYTHON)
                    if pi_check.requirement_name(r) != "lgpio"]
    _run(pi_check.pip("download", "--quiet", "--dest", str(dest), "--only-binary=:all:",
                      "--implementation", "cp", "--python-version", PYTHON,
                      "--abi", "cp313", *platforms, *requirements,
                      "setuptools>=68", "wheel"))


def disk_image(cache: Path = CACHE) -> Path:
    """The root as a raw ext4 disk (mkfs.ext4 -d: no loop device, no partition table)."""
    root = root_dir(cache)
    image = cache / f"{SUITE}-amd64.raw"
    stamp = cache / f"{SUITE}-amd64.raw.stamp"
    key = (root / ".easel-root").read_text()
    if image.is_file() and stamp.is_file() and stamp.read_text() == key:
        return image
    image.unlink(missing_ok=True)
    _run(["mkfs.ext4", "-q", "-L", "easel-root", "-d", str(root), str(image), DISK_SIZE])
    stamp.write_text(key)
    return image


def kernel_and_initrd(root: Path) -> tuple[Path, Path]:
    kernels = sorted(glob.glob(str(root / "boot" / "vmlinuz-*")))
    initrds = sorted(glob.glob(str(root / "boot" / "initrd.img-*")))
    if not kernels or not initrds:
        raise BootCheckError(f"no kernel or initrd in {root}/boot")
    return Path(kernels[-1]), Path(initrds[-1])


def source_disk(dest: Path) -> Path:
    """This checkout (git's files, as a clone has them) on a small ext4 disk."""
    with tempfile.TemporaryDirectory() as scratch:
        src = Path(scratch) / "easel"
        src.mkdir()
        pi_check._copy_source(src)
        for script in ("systemd/install.sh",):
            (src / script).chmod(0o755)
        image = dest / "easel-src.raw"
        _run(["mkfs.ext4", "-q", "-L", "easel-src", "-d", str(src), str(image), "256M"])
    return image


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Vm:
    """One run of the VM: its files, its QEMU, the forwarded port."""

    work: Path
    port: int
    process: subprocess.Popen[bytes] | None = None
    # The cached image, the kernel, the initrd and the source disk of the first start.
    _disks: tuple[Path, Path, Path, Path] | None = None
    _control: socket.socket | None = None
    _pending: bytes = b""
    _seen_at: dict[str, float] = field(default_factory=dict)

    @property
    def serial(self) -> Path:
        return self.work / "serial.log"

    @property
    def monitor(self) -> Path:
        return self.work / "monitor.sock"

    @property
    def control(self) -> Path:
        return self.work / "control.sock"

    def shell(self, command: str, timeout: float = 120) -> tuple[int, str]:
        """Run one shell command line as root in the VM: (exit status, its output)."""
        if "\n" in command:
            raise ValueError(f"one line only: {command!r}")
        channel = self._channel()
        channel.sendall(command.encode() + b"\n")
        found = self._read_until(CONTROL_DONE, timeout, command)
        return int(found.group(1)), found.string[:found.start()]

    def _channel(self) -> socket.socket:
        """The control socket, connected once and greeted until the VM's end answers."""
        if self._control is not None:
            return self._control
        channel = socket.socket(socket.AF_UNIX)
        channel.connect(str(self.control))
        channel.settimeout(1)
        self._control = channel
        for _ in range(120):
            channel.sendall(b"echo easel-control-hello\n")
            with contextlib.suppress(BootCheckError):
                self._read_until(re.compile(r"easel-control-hello\neasel-control: exit 0\n"),
                                 2, "hello")
                break
        else:
            raise BootCheckError("the VM's control channel never answered")
        time.sleep(1)  # greetings sent while it was opening may still answer: drop them
        with contextlib.suppress(TimeoutError):
            while channel.recv(65536):
                pass
        self._pending = b""
        return channel

    def _read_until(self, pattern: re.Pattern[str], timeout: float, what: str) -> re.Match[str]:
        assert self._control is not None
        end = time.monotonic() + timeout
        while (found := pattern.search(self._pending.decode(errors="replace"))) is None:
            if time.monotonic() > end:
                raise BootCheckError(f"no answer to {what!r} within {timeout:.0f} s:\n"
                                     f"{self._pending.decode(errors='replace')[-2000:]}")
            with contextlib.suppress(TimeoutError):
                chunk = self._control.recv(65536)
                if not chunk:
                    raise BootCheckError(f"the control channel closed during {what!r}")
                self._pending += chunk
        text = self._pending.decode(errors="replace")
        self._pending = text[found.end():].encode()
        return pattern.search(text[:found.end()]) or found

    def console(self) -> str:
        try:
            return self.serial.read_text(errors="replace")
        except OSError:
            return ""

    def start(self, image: Path, kernel: Path, initrd: Path, source: Path) -> None:
        self._disks = (image, kernel, initrd, source)
        overlay = self.work / "overlay.qcow2"
        if not overlay.exists():
            _run(["qemu-img", "create", "-q", "-f", "qcow2", "-F", "raw", "-b", str(image),
                  str(overlay)])
        argv = [
            QEMU, *accelerator(kernel), "-m", "2048", "-smp", "2",
            "-kernel", str(kernel), "-initrd", str(initrd),
            "-append", "root=/dev/vda rw console=ttyS0 systemd.show_status=1",
            "-drive", f"file={overlay},if=virtio,format=qcow2",
            "-drive", f"file={source},if=virtio,format=raw,readonly=on",
            "-device", os.environ.get("EASEL_BOOT_CHECK_GPU", "virtio-vga"),
            "-display", "none",
            # Appended to across a reboot and a power cut: one console log for the run.
            "-chardev", f"file,id=serial,path={self.serial},append=on",
            "-serial", "chardev:serial",
            "-monitor", f"unix:{self.monitor},server,nowait",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=control,path={self.control},server=on,wait=off",
            "-device", f"virtserialport,chardev=control,name={CONTROL_PORT}",
            "-netdev", f"user,id=net0,hostfwd=tcp:127.0.0.1:{self.port}-:8080",
            "-device", "virtio-net-pci,netdev=net0",
        ]
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                        stdout=(self.work / "qemu.out").open("ab"),
                                        stderr=subprocess.STDOUT)

    def wait_for(self, text: str, timeout: float) -> None:
        """Until `text` is on the serial console; BootCheckError with its tail if not."""
        end = time.monotonic() + timeout
        while text not in self.console():
            self.seconds_since(text)
            if self.process is not None and self.process.poll() is not None:
                raise BootCheckError(f"QEMU exited {self.process.returncode} before "
                                     f"{text!r}:\n{self.console()[-4000:]}")
            if time.monotonic() > end:
                raise BootCheckError(f"no {text!r} on the console within {timeout:.0f} s:\n"
                                     f"{self.console()[-4000:]}")
            time.sleep(0.5)
        self.seconds_since(text)

    def seconds_since(self, marker: str) -> float:
        """Seconds since `marker` first reached the console (as this process saw it)."""
        if marker not in self._seen_at and marker in self.console():
            self._seen_at[marker] = time.monotonic()
        return time.monotonic() - self._seen_at.get(marker, time.monotonic())

    def wait_for_after(self, marker: str, pattern: re.Pattern[str], timeout: float) -> None:
        """Until `pattern` is on the console after `marker` (e.g. after the reboot)."""
        end = time.monotonic() + timeout
        while True:
            _, seen, after = self.console().partition(marker)
            if seen and pattern.search(after):
                return
            if self.process is not None and self.process.poll() is not None:
                raise BootCheckError(f"QEMU exited {self.process.returncode}:\n"
                                     f"{self.console()[-4000:]}")
            if time.monotonic() > end:
                raise BootCheckError(f"no {pattern.pattern!r} after {marker!r} within "
                                     f"{timeout:.0f} s:\n{self.console()[-4000:]}")
            time.sleep(0.5)

    def command(self, line: str) -> str:
        """One QEMU monitor command (screendump, quit); what it answered."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(30)
            s.connect(str(self.monitor))
            s.recv(4096)  # the banner and prompt
            s.sendall(line.encode() + b"\n")
            time.sleep(0.5)
            return s.recv(65536).decode(errors="replace")

    def screendump(self, dest: Path) -> Path:
        dest.unlink(missing_ok=True)
        self.command(f"screendump {dest}")
        end = time.monotonic() + 20
        while not (dest.exists() and dest.stat().st_size > 0):
            if time.monotonic() > end:
                raise BootCheckError("QEMU's screendump wrote nothing")
            time.sleep(0.2)
        time.sleep(0.3)  # written whole
        return dest

    def power_cut(self) -> None:
        """The plug pulled: QEMU killed at once, nothing flushed or shut down."""
        self._forget_control()
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)

    def power_on(self) -> None:
        """Boot again from the same disks after a power cut (the overlay kept as it was)."""
        if self._disks is None:
            raise BootCheckError("power_on before start")
        self.monitor.unlink(missing_ok=True)
        self.control.unlink(missing_ok=True)
        self.start(*self._disks)

    def _forget_control(self) -> None:
        if self._control is not None:
            self._control.close()
            self._control = None
        self._pending = b""

    def stop(self) -> None:
        if self._control is not None:
            self._control.close()
            self._control = None
        if self.process is None:
            return
        with contextlib.suppress(OSError, BootCheckError):
            self.command("quit")
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


# What the VM lacks for the panel's test, built here once and cached beside the image, in
# a throwaway trixie root (debootstrap: the VM's own compiler and Python, run natively with
# chroot, as the host is x86_64 too): lgpio for Python 3.13 (PyPI has no cp313 wheel, and
# Raspberry Pi OS's python3-lgpio is not in Debian; its sdist bundles the C library and a
# SWIG interface) and the gpio-sim kernel module (Debian's amd64 kernel has none).
LGPIO = "lgpio==0.2.2.0"
BUILD_PACKAGES = ("build-essential", "python3-dev", "swig", "python3-setuptools",
                  "python3-wheel", "python3-pip")


def build_root(cache: Path = CACHE) -> Path:
    """A throwaway trixie root with a compiler, Python's headers and SWIG (debootstrap,
    cached): the VM's own toolchain, run here with chroot (the host is x86_64 too)."""
    root = cache / f"{SUITE}-amd64-build"
    want = ",".join(BUILD_PACKAGES)
    stamp = root / ".easel-build-root"
    if not (stamp.is_file() and stamp.read_text() == want):
        if os.geteuid() != 0:
            raise BootCheckError("debootstrap (the build root) needs root")
        shutil.rmtree(root, ignore_errors=True)
        root.parent.mkdir(parents=True, exist_ok=True)
        _run(["debootstrap", "--variant=minbase", f"--include={want}", SUITE,
              str(root), pi_check.debian_mirror()], timeout=3600)
        stamp.write_text(want)
    return root


def _in_root(root: Path, script: str, timeout: float = 1800) -> str:
    """A shell script run in `root` (chroot) with a clean environment: none of this
    machine's pip or apt settings reach it."""
    return _run(["chroot", str(root), "env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
                 "DEBIAN_FRONTEND=noninteractive", "PYPI=1", "sh", "-ec", script],
                timeout=timeout)


def lgpio_wheel(cache: Path = CACHE) -> Path:
    """A cp313 x86_64 wheel of lgpio, built from PyPI's sdist in a trixie chroot (cached)."""
    out = cache / "lgpio"
    built = sorted(out.glob("lgpio-*-cp313-cp313-linux_x86_64.whl"))
    if built:
        return built[-1]
    root = build_root(cache)
    work = root / "easel-lgpio"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    _run(pi_check.pip("download", "--quiet", "--no-deps", "--no-binary", ":all:",
                      "--dest", str(work), LGPIO))
    sdists = sorted(work.glob("lgpio-*.tar.gz"))
    if len(sdists) != 1:
        raise BootCheckError(f"pip download {LGPIO} gave {sdists}, not one sdist")
    # PYPI=1: setup.py's static build (the C library compiled into the module, as PyPI's
    # own wheels are); else it links a liblgpio.so the VM does not have. env -i: none of
    # this machine's pip settings (its index, its certificates) reach the chroot's pip.
    _in_root(root, "python3 -m pip wheel --no-deps --no-build-isolation --no-index "
                   f"--wheel-dir /easel-lgpio/wheel /easel-lgpio/{sdists[0].name}")
    wheels = sorted((work / "wheel").glob("lgpio-*-cp313-cp313-linux_x86_64.whl"))
    if len(wheels) != 1:
        raise BootCheckError(f"lgpio's build in {root} gave {wheels}, not one wheel")
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / wheels[0].name
    shutil.copy2(wheels[0], wheel)
    return wheel


def gpio_sim_module(release: str, cache: Path = CACHE) -> Path:
    """gpio-sim for the VM's kernel `release`, built out of tree (cached).

    Debian's amd64 kernel has no GPIO test chip (CONFIG_GPIO_SIM and CONFIG_GPIO_MOCKUP
    are off, and so is the IRQ_SIM it needs): the module is built in the build root from
    that very kernel's source package (linux-source) and headers, with kernel/irq/irq_sim.c
    linked in. One line of irq_sim.c is changed: it calls irq_to_desc(), which the kernel
    does not export to modules, where generic_handle_irq_safe() does the same. Unsigned,
    so loading it taints the kernel (no Secure Boot here, so it loads)."""
    out = cache / "gpio-sim" / release / "gpio-sim.ko"
    if out.is_file():
        return out
    root = build_root(cache)
    shutil.copy2("/etc/resolv.conf", root / "etc" / "resolv.conf")
    series = ".".join(release.split(".")[:2])
    _in_root(root, f"""
        apt-get update -q >/dev/null
        apt-get install -y -q --no-install-recommends linux-headers-{release} xz-utils >/dev/null
        rm -rf /easel-gpio-sim && mkdir /easel-gpio-sim && cd /easel-gpio-sim
        apt-get download -q linux-source-{series} >/dev/null 2>&1
        dpkg-deb --fsys-tarfile linux-source-{series}_*.deb |
            tar -xO ./usr/src/linux-source-{series}.tar.xz |
            tar -xJ --strip-components=3 linux-source-{series}/drivers/gpio/gpio-sim.c \
                linux-source-{series}/kernel/irq/irq_sim.c
        rm linux-source-{series}_*.deb
        mv gpio-sim.c gpio-sim-main.c
        sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq_safe(irqnum);/' \
            irq_sim.c
        grep -q generic_handle_irq_safe irq_sim.c
        printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' > Kbuild
        make -s -C /usr/src/linux-headers-{release} M=/easel-gpio-sim modules
        strip --strip-debug gpio-sim.ko
    """, timeout=3600)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(root / "easel-gpio-sim" / "gpio-sim.ko", out)
    return out


@contextlib.contextmanager
def booted(work: Path) -> Iterator[Vm]:
    """A fresh VM from the cached image; stopped (QEMU quit) afterwards."""
    image = disk_image()
    kernel, initrd = kernel_and_initrd(root_dir())
    source = source_disk(work)
    vm = Vm(work, free_port())
    vm.start(image, kernel, initrd, source)
    try:
        yield vm
    finally:
        vm.stop()


__all__ = ["CACHE", "BootCheckError", "Vm", "booted", "disk_image", "kvm_usable", "root_dir"]
