"""The kernel's event devices (/dev/input/event*) as the box's readers look for them.

python-evdev's `list_devices` keeps only the nodes this process may read *and write*
(`os.access(R_OK | W_OK)`). The box only reads them, and its unit allows exactly that
(`DeviceAllow=char-input r`): the device cgroup refuses the write check, so inside the
unit `list_devices` answered [] and neither the touch panel nor a remote was ever found by
looking (`make boot-check` found it; a panel named in `[touch] device` still opened). Here
every character device is listed, readable or not: whoever opens one learns from its
PermissionError that it may not, and says which group is missing.
"""

from __future__ import annotations

import glob
import os
import re
import stat

INPUT_DIR = "/dev/input"


def _number(path: str) -> tuple[int, str]:
    found = re.search(r"(\d+)$", path)
    return (int(found.group(1)) if found else -1, path)


def event_devices(directory: str = INPUT_DIR) -> list[str]:
    """Every character device named event* in `directory`, in the kernel's order
    (event2 before event10), whatever this process may do with it."""
    paths = []
    for path in glob.glob(os.path.join(directory, "event*")):
        try:
            if stat.S_ISCHR(os.stat(path).st_mode):
                paths.append(path)
        except OSError:
            continue  # gone between listing and looking
    return sorted(paths, key=_number)


__all__ = ["INPUT_DIR", "event_devices"]
