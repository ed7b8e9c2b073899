"""The café day's figures (issue 11): power cuts, dropped phones, eight hours of play.

The harnesses are tests/test_endurance.py's, at full length:

- `powercut_kills_survived`: SIGKILLs of a real appliance process mid-play
  (`EASEL_POWERCUTS`, default 200), each followed by a restart and an audit of the data
  file; `powercut_actions_lost` acknowledged acts missing after a restart (must be 0),
  `powercut_actions_duplicated` ids logged twice (must be 0), `powercut_integrity_failures`
  failed `PRAGMA integrity_check`s (must be 0), `powercut_bad_replays` logs that do not
  replay to what the phones were shown (must be 0); `powercut_acked_actions` and
  `powercut_committed_unacked` (committed when the power went, ack never heard: resent and
  acknowledged once) say how much was at stake.
- `drops_survived`: phones dropping and coming back (`EASEL_DROPS`, default 200),
  `drop_actions_lost` and `drop_actions_duplicated` (must be 0).
- `cafe_rss_start_mb`, `cafe_rss_warm_mb` (after the first round of every game) and
  `cafe_rss_end_mb`: the test process (the appliance runs in it, with its headless kiosk)
  over `EASEL_CAFE_HOURS` (default 8) of the box's clock; `cafe_errors_logged` (must be 0).

Wall times are reported as `*_s`; like every benchmark, this reports and never asserts.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.bench import print_figures


def run() -> dict[str, float]:
    from tests.test_endurance import cafe_day, dropped_phones, power_cuts

    kills = int(os.environ.get("EASEL_POWERCUTS", "200"))
    drops = int(os.environ.get("EASEL_DROPS", "200"))
    hours = float(os.environ.get("EASEL_CAFE_HOURS", "8"))
    results: dict[str, float] = {}

    cuts = asyncio.run(power_cuts(Path(tempfile.mkdtemp(prefix="easel-cuts-")), kills))
    results |= {
        "powercut_kills_survived": cuts.kills,
        "powercut_actions_lost": cuts.lost,
        "powercut_actions_duplicated": cuts.duplicates,
        "powercut_integrity_failures": cuts.bad_integrity,
        "powercut_bad_replays": cuts.bad_replays,
        "powercut_acked_actions": cuts.acked,
        "powercut_committed_unacked": cuts.committed_unacked,
        "powercut_matches": cuts.matches,
        "powercut_run_s": cuts.seconds,
    }
    print(f"   power cuts: {cuts}", flush=True)

    dropped = asyncio.run(dropped_phones(Path(tempfile.mkdtemp(prefix="easel-drops-")), drops))
    results |= {
        "drops_survived": dropped.drops,
        "drop_actions_lost": dropped.lost,
        "drop_actions_duplicated": dropped.duplicates,
        "drop_seat_handovers": dropped.handovers,
        "drops_run_s": dropped.seconds,
    }
    print(f"   dropped phones: {dropped}", flush=True)

    day = asyncio.run(cafe_day(Path(tempfile.mkdtemp(prefix="easel-cafe-")), hours))
    results |= {
        "cafe_hours": day.hours,
        "cafe_matches": day.matches,
        "cafe_actions": day.actions,
        "cafe_rss_start_mb": day.rss_start_mb,
        "cafe_rss_warm_mb": day.rss_warm_mb,
        "cafe_rss_end_mb": day.rss_end_mb,
        "cafe_errors_logged": len(day.errors),
        "cafe_run_s": day.seconds,
    }
    print(f"   café day: {day.matches} matches, RSS by match {day.rss_by_match}", flush=True)
    return {k: float(v) for k, v in results.items()}


if __name__ == "__main__":
    print_figures(run())
