"""drivers/inputs.py: the event devices the touch panel and the remotes look through.

Inside the box's unit (`DeviceAllow=char-input r`) an input device may be read but not
written, and python-evdev's `list_devices` wants both: it listed nothing there, so no
touch panel or remote was ever found (`make boot-check`). The lister here asks for
neither; opening says what is not allowed.
"""

from __future__ import annotations

import inspect
import os
from pathlib import Path

import evdev
import pytest

from drivers import remote, touch
from drivers.inputs import event_devices


@pytest.fixture
def input_dir(tmp_path: Path) -> Path:
    """event0, event2 and event10 as character devices (links to /dev/null), beside a
    plain file and a mouse node that are not event devices."""
    for name in ("event10", "event0", "event2", "mouse0"):
        (tmp_path / name).symlink_to("/dev/null")
    (tmp_path / "event3").write_text("not a device")
    return tmp_path


def only_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    """As the box's unit is: every input device readable, none writable."""
    real = os.access

    def access(path: object, mode: int, *args: object, **kw: object) -> bool:
        if mode & os.W_OK:
            return False
        return real(path, mode, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)


def test_every_event_device_is_listed_in_the_kernels_order(input_dir: Path) -> None:
    assert event_devices(str(input_dir)) == [
        str(input_dir / "event0"), str(input_dir / "event2"), str(input_dir / "event10")]


def test_a_device_the_box_may_only_read_is_still_listed(
    input_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    only_readable(monkeypatch)
    assert evdev.list_devices(str(input_dir)) == []  # why drivers/inputs.py exists
    assert len(event_devices(str(input_dir))) == 3


def test_a_device_gone_while_listing_is_left_out(
    input_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.stat

    def stat(path: object, *args: object, **kw: object) -> os.stat_result:
        if str(path).endswith("event2"):
            raise FileNotFoundError(path)
        return real(path, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)
    assert [Path(p).name for p in event_devices(str(input_dir))] == ["event0", "event10"]


def test_the_touch_panel_and_the_remotes_look_through_it() -> None:
    for reader in (touch.TouchPanel, remote.RemoteInputs):
        assert inspect.signature(reader).parameters["lister"].default is event_devices
