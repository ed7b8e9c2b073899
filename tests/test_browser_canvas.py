"""The phone's drawing canvas in a real Chromium: a stroke still under the finger when the
hourglass is about to run out is sent (flush) and drawing goes on from the same spot."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import PHONE, Appliance

pytestmark = pytest.mark.browser

SCRIPT = """
async () => {
  const { createCanvas } = await import('/static/canvas.js');
  const sent = [];
  const pad = createCanvas({ onStroke: (s) => sent.push(s), onUndo: () => {} });
  document.body.replaceChildren(pad.el);
  pad.el.style.width = '400px';
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const c = pad.canvas, box = c.getBoundingClientRect();
  const at = (x, y, type) => c.dispatchEvent(new PointerEvent(type, {
    pointerId: 7, pointerType: 'touch', isPrimary: true, bubbles: true, cancelable: true,
    clientX: box.left + x, clientY: box.top + y }));
  at(20, 20, 'pointerdown');
  for (let i = 1; i <= 10; i += 1) at(20 + 10 * i, 20 + 5 * i, 'pointermove');
  pad.flush();                       // the hourglass is nearly out, the finger still down
  const afterFlush = sent.length;
  for (let i = 1; i <= 5; i += 1) at(120 + 10 * i, 70, 'pointermove');
  at(170, 70, 'pointerup');
  return { afterFlush, strokes: sent.map((s) => s.points.length),
           joined: JSON.stringify(sent[0].points.at(-1).slice(0, 2)) ===
                   JSON.stringify(sent[1].points[0].slice(0, 2)) };
}
"""


def test_flush_sends_the_stroke_under_the_finger(box: Appliance, browser: Any) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(box.url + "/")
        result = page.evaluate(SCRIPT)
    finally:
        context.close()
    assert result["afterFlush"] == 1, "the half stroke went to the box at once"
    assert len(result["strokes"]) == 2 and result["strokes"][0] >= 8
    assert result["joined"], "drawing went on from where the sent part ended"
