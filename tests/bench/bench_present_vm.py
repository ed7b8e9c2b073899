"""Benchmark: the kiosk's frame with a real DRM/KMS present, as the boot-check VM measured it.

The other kiosk benches present through SDL's dummy driver (free) or an X11 window under
Xvfb; a Pi presents through SDL's kmsdrm, Mesa's GBM/EGL and GLES. `make boot-check`
(tests/test_boot_check.py) runs tests/boot_check/present_cost.py in its VM: the kiosk on
the VM's virtio-gpu card through kmsdrm and Mesa (software GLES: llvmpipe), upright and
turned by 90, through the window surface and through SDL's renderer, and the same frames
on SDL's dummy driver in the same VM. It saves the figures under the boot-check cache
(`present-cost.json`); this bench reports them beside the dummy's, and the ratios:

- `vm_frame_cpu_ms_rot<r>_<path>`: CPU ms of a full lobby frame including its present
  (the whole process: SDL's and llvmpipe's threads too), the median; `vm_frame_wall_ms_*`
  the wall time; `<path>` is `kmsdrm_surface`, `kmsdrm_renderer` or `dummy`;
- `vm_present_over_dummy_rot<r>_<path>`: the kmsdrm frame's CPU over the dummy's, the
  factor the present adds on this path.

The VM is emulated (TCG) on this project's machines, so the absolute figures are QEMU's,
not a Pi's: docs/testing.md says how a Pi's cost is estimated from the ratios. Without a
boot-check run's figures the bench says so and reports nothing. Run alone:
`python -m tests.bench.bench_present_vm`.
"""

from __future__ import annotations

import json

from tests.bench import print_figures
from tests.boot_check import CACHE

FIGURES = CACHE / "present-cost.json"


def run() -> dict[str, float]:
    if not FIGURES.is_file():
        print(f"   no boot-check figures in {FIGURES} (EASEL_BOOT_CHECK=1 make boot-check "
              "measures them in its VM): no figures")
        return {}
    measured = json.loads(FIGURES.read_text())
    results = {k: float(v) for k, v in sorted(measured.items())
               if isinstance(v, (int, float)) and not isinstance(v, bool)}
    notes = {k: v for k, v in measured.items() if isinstance(v, str)}
    print(f"   measured in the boot-check VM: {notes}")
    for rotation in (0, 90):
        dummy = results.get(f"vm_frame_cpu_ms_rot{rotation}_dummy")
        for path in ("kmsdrm_surface", "kmsdrm_renderer"):
            real = results.get(f"vm_frame_cpu_ms_rot{rotation}_{path}")
            if dummy and real is not None:
                results[f"vm_present_over_dummy_rot{rotation}_{path}"] = real / dummy
    return results


if __name__ == "__main__":
    figures = run()
    if figures:
        print_figures(figures)
