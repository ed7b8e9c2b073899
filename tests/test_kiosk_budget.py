"""The kiosk's drawing budget for changed views (appliance/kiosk DrawBudget): a burst
after a calm moment is drawn at once, a flood is paced to VIEW_SHARE of the time, and no
change waits longer than the view interval."""

from __future__ import annotations

import pytest

from appliance.kiosk import VIEW_BURST_S, VIEW_INTERVAL_S, VIEW_SHARE, DrawBudget, Kiosk


def test_changes_after_a_calm_moment_are_drawn_at_once_until_the_burst_is_spent() -> None:
    budget, now, frame = DrawBudget(), 100.0, 0.004
    drawn_at_once = 0
    while budget.wait(now) == 0.0:
        drawn_at_once += 1
        now += frame
        budget = budget.spent(frame, now)
        now += 0.002  # the next move comes 2 ms after the frame is shown
    # Each frame spends 4 ms and earns a quarter of the 6 ms it took: a burst of frames,
    # not one (the old rule paced the second change already).
    assert drawn_at_once > 5
    assert drawn_at_once * frame <= VIEW_BURST_S + VIEW_SHARE * (now - 100.0) + frame


def test_a_flood_is_paced_to_the_share_once_the_burst_is_spent() -> None:
    budget, now, frame, busy = DrawBudget(), 0.0, 0.004, 0.0
    for _ in range(2000):  # a change always waiting: drawn as soon as allowed
        now += budget.wait(now)
        now += frame
        busy += frame
        budget = budget.spent(frame, now)
    assert busy / now == pytest.approx(VIEW_SHARE, abs=0.02)
    # In the flood, after a frame of t the next waits 3t (the share), as before.
    assert budget.wait(now) == pytest.approx(frame * (1 / VIEW_SHARE - 1), rel=0.05)


def test_no_change_waits_longer_than_the_view_interval() -> None:
    budget = DrawBudget().spent(5.0, 10.0)  # a frame that took seconds (a Pi's worst)
    assert budget.wait(10.0) == pytest.approx(VIEW_INTERVAL_S)
    assert budget.wait(10.0 + VIEW_INTERVAL_S) == 0.0


def test_a_kiosk_with_no_view_interval_never_paces() -> None:
    kiosk = Kiosk((320, 200), view_interval=0.0)
    try:
        kiosk.budget = kiosk.budget.spent(1.0, 5.0)
        assert kiosk.budget.wait(5.0) == 0.0
    finally:
        kiosk.close()


def test_the_budget_earns_back_the_burst_while_calm() -> None:
    budget = DrawBudget().spent(VIEW_BURST_S, 1.0)  # the whole burst spent
    assert budget.credit_at(1.0) == pytest.approx(0.0)
    assert budget.credit_at(1.0 + VIEW_BURST_S / VIEW_SHARE) == pytest.approx(VIEW_BURST_S)
    assert budget.credit_at(1000.0) == VIEW_BURST_S  # never more than the burst
