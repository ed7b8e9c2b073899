"""make boot-check's touch screen: run inside the VM (its /usr/bin/python3, Debian's
python3-evdev), not by the host's suite.

Makes a direct multi-touch device with uinput (protocol B slots, INPUT_PROP_DIRECT: what
`drivers.touch.find_touchscreen` takes for a touch screen), waits until the box's journal
says its touch reader found it (it looks for a panel every few seconds: a panel plugged in
after the start), then draws with one finger: a tap at X Y, or a stroke from X Y to X2 Y2,
each 0..1 across the screen. It prints one line per step and exits 0 once the finger is
lifted; 2 if the box never found the device.

    python3 vm_touch.py X Y [X2 Y2] [--wait SECONDS]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from typing import Any

from evdev import AbsInfo, UInput
from evdev import ecodes as e

NAME = "easel-boot-check touch"
SPAN = 4095  # the axes' range, 0..SPAN, like a 12-bit controller


def found_by_the_box(since: str) -> bool:
    journal = subprocess.run(
        ["journalctl", "-u", "easel", "--no-pager", "-o", "cat", "--since", since],
        capture_output=True, text=True, check=False).stdout
    return f"touch panel found: {NAME}" in journal or f"touch panel back: {NAME}" in journal


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("points", type=float, nargs="+", help="X Y, or X Y X2 Y2 (0..1)")
    parser.add_argument("--wait", type=float, default=60.0,
                        help="seconds to wait for the box to find the device")
    args = parser.parse_args()
    if len(args.points) not in (2, 4) or not all(0 <= p <= 1 for p in args.points):
        parser.error("give X Y (a tap) or X Y X2 Y2 (a stroke), each 0..1")
    axis = AbsInfo(value=0, min=0, max=SPAN, fuzz=0, flat=0, resolution=0)
    capabilities: dict[int, Any] = {
        e.EV_KEY: [e.BTN_TOUCH],
        e.EV_ABS: [
            (e.ABS_X, axis), (e.ABS_Y, axis),
            (e.ABS_MT_SLOT, AbsInfo(0, 0, 9, 0, 0, 0)),
            (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
            (e.ABS_MT_POSITION_X, axis), (e.ABS_MT_POSITION_Y, axis),
        ],
    }
    since = f"@{int(time.time()) - 1}"
    with UInput(capabilities, name=NAME, input_props=[e.INPUT_PROP_DIRECT]) as device:
        print(f"vm_touch: made {NAME}", flush=True)
        started = time.monotonic()
        while not found_by_the_box(since):
            if time.monotonic() - started > args.wait:
                print(f"vm_touch: the box did not find it within {args.wait:.0f} s",
                      flush=True)
                return 2
            time.sleep(0.5)
        print(f"vm_touch: the box found it after {time.monotonic() - started:.1f} s",
              flush=True)
        time.sleep(0.5)  # its reader is open: the next events are read

        def at(x: float, y: float) -> None:
            device.write(e.EV_ABS, e.ABS_MT_POSITION_X, round(x * SPAN))
            device.write(e.EV_ABS, e.ABS_MT_POSITION_Y, round(y * SPAN))
            device.write(e.EV_ABS, e.ABS_X, round(x * SPAN))
            device.write(e.EV_ABS, e.ABS_Y, round(y * SPAN))

        x, y = args.points[:2]
        device.write(e.EV_ABS, e.ABS_MT_SLOT, 0)
        device.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, 1)
        at(x, y)
        device.write(e.EV_KEY, e.BTN_TOUCH, 1)
        device.syn()
        if len(args.points) == 4:
            x2, y2 = args.points[2:]
            steps = 20
            for i in range(1, steps + 1):
                time.sleep(0.02)
                at(x + (x2 - x) * i / steps, y + (y2 - y) * i / steps)
                device.syn()
        time.sleep(0.1)
        device.write(e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)
        device.write(e.EV_KEY, e.BTN_TOUCH, 0)
        device.syn()
        print(f"vm_touch: finger down at {x:.3f}, {y:.3f} and lifted", flush=True)
        time.sleep(1)  # read before the device goes
    return 0


if __name__ == "__main__":
    sys.exit(main())
