"""The playground's picture and controls (perceptron_core/static/playground.js, below ``@@UI@@``)
in headless Chromium: mouse and keyboard edits reach the model, the live text and the visible
message describe every state (bad ones too), the drawn line is the run's, and axe-core finds no
serious or critical violation in a light or a dark page.

The tests read numbers from the module itself (``pg.perceptronRun``, ``pg.certifiedMargin``) where
they need them, never hard-coded ones: what is tested here is that the picture and the words show
what the mathematics computed.
"""

from __future__ import annotations

import json
import math
import re
import statistics

import pytest
from playground_page import chromium, pg_page, pg_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

VIEW = [-3.0, 3.0, -3.0, 3.0]
# Separable through the origin, and the perceptron needs several updates on it (the first point
# is far from the best direction), so that stepping back changes the line.
SEP = {"points": [[0.5, 2.5], [2.5, 0.4], [2.0, 1.8], [-0.4, -2.2], [-2.4, -0.6], [-1.8, -1.6],
                  [1.2, -0.3], [-1.0, 0.5]],
       "labels": [1, 1, 1, -1, -1, -1, 1, -1]}
XOR = {"points": [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]], "labels": [1, 1, -1, -1]}
# The AND gate: separable only with an offset (and (0, 0) is a point at the origin).
AND = {"points": [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], "labels": [-1, -1, -1, 1]}
PRESETS = [
    {"name": "sep", "title": "Planted margin", "view": VIEW, "note": "Separable through the origin.", **SEP},
    {"name": "xor", "title": "XOR", "view": [-2.0, 2.0, -2.0, 2.0], "note": "Not separable.", **XOR},
    {"name": "and", "title": "AND gate", "view": [-1.0, 2.0, -1.0, 2.0], "note": "Needs an offset.", **AND},
]
AXE_OPTIONS = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}
DARK = ("() => { const s = document.documentElement.style; s.colorScheme = 'dark'; "
        "s.background = '#121212'; s.color = '#e6e6e6'; document.body.style.background = '#121212'; }")


def state(points=(), labels=(), **kw):
    """A model state as the contract defines it (the Python side would send the same keys)."""
    st = {"points": [list(p) for p in points], "labels": list(labels), "presets": PRESETS,
          "preset": "", "view": VIEW, "tie": "mistake", "offset": False, "c": 1.0,
          "margin_target": False, "target": 0.5, "max_epochs": 1000, "title": "Test playground"}
    st.update(kw)
    return st


@pytest.fixture
def page(pg_page):
    """``pg_page``, and at the end: no console error, no uncaught exception and no request of the
    playground's own (it needs nothing from the network)."""
    requests = []
    pg_page.on("request", lambda r: requests.append(r.url))
    yield pg_page
    assert pg_page.pg_errors == []
    assert requests == []


def mount(page, st, host="#host"):
    page.evaluate(
        """([st, host]) => {
            window.model = pg.staticModel(st);
            window.cleanup = pg.default.render({ model, el: document.querySelector(host) });
        }""", [st, host])
    settle(page)


def frame(page):
    """Wait for the next two animation frames: a change made now has been drawn."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def settle(page):
    """Wait until the playground has drawn and said everything that was due (it marks its root
    data-busy while a picture or an announcement is pending)."""
    frame(page)
    page.wait_for_function("() => !document.querySelector('.pcpg[data-busy]')", timeout=20000)


def status(page):
    return page.inner_text(".pcpg-status")


def count_announcements(page):
    """From now on, count the changes of the live text (in window.said)."""
    page.evaluate("""() => { window.said = 0; new MutationObserver(() => said++).observe(
        document.querySelector('.pcpg-status'), { childList: true, characterData: true, subtree: true }); }""")


def model_get(page, key):
    return page.evaluate("k => model.get(k)", key)


def readout(page, key):
    """The readout's row `key` (its <dt> text), e.g. "Margin"."""
    return page.evaluate("""k => { for (const dt of document.querySelectorAll('.pcpg-readout dt'))
        if (dt.textContent === k) return dt.nextElementSibling.textContent; return null; }""", key)


def to_screen(page, x, y):
    """The page position of data point (x, y); the view drawn is the model's (it holds the points)."""
    return page.evaluate(
        """([x, y]) => {
            const svg = document.querySelector('.pcpg-plot'), r = svg.getBoundingClientRect();
            const [x0, x1, y0, y1] = model.get('view');
            return [r.left + (x - x0) / (x1 - x0) * r.width, r.top + (y1 - y) / (y1 - y0) * r.height];
        }""", [x, y])


def click(page, x, y, key=None):
    """Click data point (x, y), with `key` ("Shift", "Alt") held down."""
    if key:
        page.keyboard.down(key)
    page.mouse.click(*to_screen(page, x, y))
    if key:
        page.keyboard.up(key)
    settle(page)


def drawn_line(page):
    """The separator's segment in data coordinates, or None when it is not drawn."""
    return page.evaluate(
        """() => {
            const l = document.querySelector('.pcpg-line');
            if (l.getAttribute('display') === 'none') return null;
            const [x0, x1, y0, y1] = model.get('view');
            const vb = document.querySelector('.pcpg-plot').viewBox.baseVal;
            const d = (u, v) => [x0 + u / vb.width * (x1 - x0), y1 - v / vb.height * (y1 - y0)];
            const a = k => Number(l.getAttribute(k));
            return [d(a('x1'), a('y1')), d(a('x2'), a('y2'))];
        }""")


def run_of(page, points, labels, **opts):
    return page.evaluate("([X, y, o]) => pg.perceptronRun(X, y, o)", [points, labels, opts])


def lifted_w_on_line(seg, w, c=None):
    """How far (relative) the drawn segment's ends are from the line w·x + b = 0 of weights w."""
    b = c * w[2] if c is not None else 0.0
    n = math.hypot(w[0], w[1])
    return max(abs(w[0] * p[0] + w[1] * p[1] + b) / n for p in seg)


# --- drawing and the live text ---------------------------------------------------------------


def test_mount_draws_points_line_readout_and_live_text(page):
    mount(page, state(SEP["points"], SEP["labels"], preset="sep"))
    assert page.locator(".pcpg-plot path.pcpg-pos").count() == 4
    assert page.locator(".pcpg-plot path.pcpg-neg").count() == 4
    text = status(page)
    assert "8 points: 4 labelled +1, 4 labelled \u22121" in text
    low, high = (float(v.replace("\u2212", "-")) for v in
                 re.search(r"γ ∈ \[([-\u2212\d.e]+), ([-\u2212\d.e]+)\]", readout(page, "Margin")).groups())
    cert = page.evaluate("([X, y]) => pg.certifiedMargin(X, y)", [SEP["points"], SEP["labels"]])
    assert cert["status"] == "separable"
    # Shown rounded outwards: still an enclosure of the certified interval.
    assert 0 < low <= cert["low"] <= cert["high"] <= high
    assert "the bound holds" in readout(page, "Check") and "the bound holds" in text
    run = run_of(page, SEP["points"], SEP["labels"])
    total = len(run["steps"])
    assert f"{total} in the whole run" in readout(page, "Mistakes")
    assert f"{total} mistakes" in readout(page, "Check") or f"{total} mistake " in readout(page, "Check")
    # The line drawn is the final w's.
    assert lifted_w_on_line(drawn_line(page), run["w"]) < 1e-2
    assert page.evaluate("document.querySelector('.pcpg').dataset.updateMs") is not None


def test_live_text_not_separable_for_xor(page):
    mount(page, state(XOR["points"], XOR["labels"]))
    assert "4 points: 2 labelled +1, 2 labelled \u22121" in status(page)
    assert "not separable" in status(page)
    assert readout(page, "Margin").startswith("not separable")
    assert "not separable" in readout(page, "Bound")
    assert "stopped at max_epochs" in readout(page, "Run")


def test_a_change_from_python_redraws(page):
    mount(page, state(SEP["points"], SEP["labels"]))
    page.evaluate("p => { model.set('points', p.points); model.set('labels', p.labels); }", XOR)
    settle(page)
    assert page.locator(".pcpg-plot path.pcpg-pos, .pcpg-plot path.pcpg-neg").count() == 4
    assert "not separable" in status(page)
    page.evaluate("() => model.set('offset', true)")
    settle(page)
    assert page.locator("input[type=checkbox]").first.is_checked()
    assert "R\u2032" in readout(page, "Radius")


# --- keyboard --------------------------------------------------------------------------------


def test_keyboard_add_move_select_delete(page):
    mount(page, state())
    page.keyboard.press("Tab")  # the plot is the first stop in the page
    assert page.evaluate("document.activeElement.classList.contains('pcpg-plot')")
    page.keyboard.press("Enter")  # +1 at the cursor (the middle of the view)
    settle(page)
    assert model_get(page, "points") == [[0, 0]] and model_get(page, "labels") == [1]
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowUp")
    page.keyboard.press("Shift+Enter")
    settle(page)
    pts, labels = model_get(page, "points"), model_get(page, "labels")
    assert labels == [1, -1]
    # 4 small steps right (1/40 of the width each), one big step up (1/8 of the height).
    assert pts[1] == pytest.approx([4 * 6 / 40, 6 / 8])
    assert "Added a \u22121 point" in status(page) and "2 points" in status(page)

    page.keyboard.press("n")
    settle(page)
    assert "Selected point 1 of 2" in status(page)
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    settle(page)
    assert model_get(page, "points")[0] == pytest.approx([-6 / 40, 6 / 40])
    page.keyboard.press("p")  # the previous of point 1 is the last, point 2
    settle(page)
    assert "Selected point 2 of 2" in status(page)
    page.keyboard.press("Escape")
    settle(page)
    assert "No point selected" in status(page)
    page.keyboard.press("Delete")  # nothing selected: nothing deleted
    assert len(model_get(page, "points")) == 2
    page.keyboard.press("n")
    page.keyboard.press("Delete")
    settle(page)
    assert model_get(page, "labels") == [-1]
    assert model_get(page, "points") == [pytest.approx([4 * 6 / 40, 6 / 8])]
    assert "Deleted point 1" in status(page) and "1 point:" in status(page)
    page.keyboard.press("n")
    page.keyboard.press("Backspace")
    settle(page)
    assert model_get(page, "points") == []
    assert "No points yet" in status(page)


def test_keyboard_steps_and_plays_the_run(page):
    mount(page, state(SEP["points"], SEP["labels"]))
    total = len(run_of(page, SEP["points"], SEP["labels"])["steps"])
    assert total >= 2, "the data set must take several updates for this test"
    page.focus(".pcpg-plot")
    page.keyboard.press(",")
    settle(page)
    assert f"Update {total - 1} of {total}" in status(page)
    page.keyboard.press(".")
    settle(page)
    assert f"Update {total} of {total}" in status(page)
    page.keyboard.press(" ")  # at the end, play starts again from the start
    page.wait_for_function("document.querySelector('.pcpg button').textContent === 'Pause'")
    page.wait_for_function("document.querySelector('.pcpg button').textContent === 'Play'", timeout=15000)
    settle(page)
    assert f"Update {total} of {total}" in status(page)


# --- mouse -----------------------------------------------------------------------------------


def test_mouse_click_shift_click_drag_alt_click_double_click(page):
    mount(page, state())
    click(page, 1, 1)
    click(page, -1, -2, key="Shift")
    assert model_get(page, "labels") == [1, -1]
    assert model_get(page, "points") == [pytest.approx([1, 1], abs=0.03), pytest.approx([-1, -2], abs=0.03)]
    assert model_get(page, "preset") == ""

    # Drag point 1 to (2, 0.5): the model hears of it once, at the end of the drag.
    page.evaluate("() => { window.saves = 0; const s = model.save_changes; model.save_changes = () => { saves++; s(); }; }")
    count_announcements(page)
    page.mouse.move(*to_screen(page, 1, 1))
    page.mouse.down()
    page.mouse.move(*to_screen(page, 1.5, 0.8), steps=4)
    page.mouse.move(*to_screen(page, 2, 0.5), steps=4)
    page.mouse.up()
    settle(page)
    assert model_get(page, "points")[0] == pytest.approx([2, 0.5], abs=0.03)
    assert len(model_get(page, "points")) == 2
    assert page.evaluate("saves") == 1
    assert "moved to" in status(page)
    assert page.evaluate("said") == 1  # once, at the end of the drag

    click(page, -1, -2, key="Alt")  # deletes the -1 point
    assert model_get(page, "labels") == [1]
    page.mouse.dblclick(*to_screen(page, 2, 0.5))  # deletes the +1 point
    settle(page)
    assert model_get(page, "points") == []
    # A double-click on empty space adds one point: its first click made it, the second keeps it.
    page.mouse.dblclick(*to_screen(page, -2, 2))
    settle(page)
    assert model_get(page, "points") == [pytest.approx([-2, 2], abs=0.03)]


# --- bad states ------------------------------------------------------------------------------

BAD_STATES = {
    "no points": (state(), "click to add a point, shift-click for the other label, or choose a data set"),
    "one class": (state([[1, 1], [2, 0.5]], [1, 1]), "Only +1 points: without an offset"),
    "one class, offset": (state([[1, 1], [2, 0.5]], [1, 1], offset=True), "unbounded"),
    "all at the origin": (state([[0, 0], [0, 0]], [1, -1]), "All points are at the origin"),
    "all at the origin, offset": (state([[0, 0], [0, 0]], [1, -1], offset=True),
                                  "All points are at the origin"),
    "a point at the origin": (state(AND["points"], AND["labels"]),
                              "Point 1 is at the origin: no line through the origin separates it strictly"),
}


@pytest.mark.parametrize("name", BAD_STATES)
def test_bad_state_has_a_visible_message_and_says_it(page, name):
    st, words = BAD_STATES[name]
    mount(page, st)
    message = page.locator(".pcpg-message")
    assert message.is_visible()
    assert words in message.inner_text()
    assert message.inner_text() in status(page)
    # Never a blank readout either.
    for key in ("Points", "Radius", "Margin", "Mistakes", "Bound"):
        assert readout(page, key).strip()


def test_a_point_at_the_origin_is_fine_with_the_offset_trick(page):
    mount(page, state(AND["points"], AND["labels"], view=PRESETS[2]["view"]))
    assert "not separable" in status(page)
    page.get_by_label("Offset trick").check()
    settle(page)
    assert model_get(page, "offset") is True
    assert not page.locator(".pcpg-message").is_visible()
    assert "γ′ ∈ [" in readout(page, "Margin") and "the bound holds" in status(page)
    # With c the line need not pass through the origin, and it does not for AND.
    seg = drawn_line(page)
    run = run_of(page, AND["points"], AND["labels"], c=1.0)
    assert lifted_w_on_line(seg, run["w"], c=1.0) < 1e-2
    (x1, y1), (x2, y2) = seg
    assert abs(x1 * y2 - x2 * y1) / math.hypot(x2 - x1, y2 - y1) > 0.1
    # c moves the lifted radius.
    page.fill("input[type=range][id$='-c']", "2")
    settle(page)
    assert model_get(page, "c") == 2
    assert "c = 2" in readout(page, "Radius")


def test_more_than_200_points_are_refused(page):
    pts = [[-2.5 + 5 * (k % 20) / 19, -2.5 + 5 * (k // 20) / 9] for k in range(200)]
    mount(page, state(pts, [1 if p[0] + p[1] > 0.01 else -1 for p in pts]))
    click(page, 0.3, -2.9)
    assert len(model_get(page, "points")) == 200
    assert "At most 200 points" in page.inner_text(".pcpg-message")
    assert "At most 200 points" in status(page)
    page.focus(".pcpg-plot")
    page.keyboard.press("Enter")
    settle(page)
    assert len(model_get(page, "points")) == 200


# --- controls --------------------------------------------------------------------------------


def test_switching_the_data_set(page):
    mount(page, state(SEP["points"], SEP["labels"], preset="sep"))
    page.select_option("select[id$='-preset']", "xor")
    settle(page)
    assert model_get(page, "points") == XOR["points"]
    assert model_get(page, "labels") == XOR["labels"]
    assert model_get(page, "view") == PRESETS[1]["view"]
    assert model_get(page, "preset") == "xor"
    assert "4 points" in status(page) and "not separable" in status(page)
    assert "Not separable." in page.inner_text(".pcpg-note")
    # An edit makes them the reader's points; Reset brings the data set back.
    click(page, 0.5, 1.5)
    assert model_get(page, "preset") == ""
    assert page.input_value("select[id$='-preset']") == ""
    page.get_by_role("button", name="Reset").click()
    settle(page)
    assert model_get(page, "points") == XOR["points"] and model_get(page, "preset") == "xor"
    page.get_by_role("button", name="Clear points").click()
    settle(page)
    assert model_get(page, "points") == [] and "No points yet" in status(page)


def test_scrub_and_step_change_the_drawn_line(page):
    mount(page, state(SEP["points"], SEP["labels"]))
    run = run_of(page, SEP["points"], SEP["labels"])
    steps = run["steps"]
    scrub = page.locator("input[type=range][id$='-scrub']")
    assert scrub.get_attribute("max") == str(len(steps))
    lines = {}
    for k in range(len(steps), 0, -1):
        page.fill("input[type=range][id$='-scrub']", str(k))
        settle(page)
        seg = drawn_line(page)
        w = steps[k - 1]["w"]
        assert lifted_w_on_line(seg, w) < 1e-2, f"the line at update {k} is not w_{k}'s"
        lines[k] = seg
        # The point whose mistake made update k is ringed.
        i = steps[k - 1]["i"]
        ring = page.evaluate("""() => { const c = document.querySelector('.pcpg-culprit');
            return [c.getAttribute('display'), Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]; }""")
        assert ring[0] != "none"
        vb = page.evaluate("document.querySelector('.pcpg-plot').viewBox.baseVal.width")
        px, py = SEP["points"][i]
        assert ring[1] == pytest.approx((px + 3) / 6 * vb, abs=0.2)
        assert ring[2] == pytest.approx((3 - py) / 6 * vb, abs=0.2)
        assert f"point {i + 1} (" in readout(page, "Update")
        assert f"{k} so far" in readout(page, "Mistakes")
    assert len({json.dumps(v) for v in lines.values()}) > 1
    # Step back from update 1: the start, w = 0, no line and no ring.
    page.get_by_role("button", name="Step back").click()
    settle(page)
    assert drawn_line(page) is None
    assert page.get_attribute(".pcpg-culprit", "display") == "none"
    assert "w = 0" in readout(page, "Update")
    page.get_by_role("button", name="Step forward").click()
    settle(page)
    assert drawn_line(page) == lines[1]


def test_tie_rule_and_margin_perceptron(page):
    mount(page, state(SEP["points"], SEP["labels"]))
    page.select_option("select[id$='-tie']", "positive")
    settle(page)
    assert model_get(page, "tie") == "positive"
    page.get_by_label("Margin perceptron").check()
    settle(page)
    assert model_get(page, "margin_target") is True
    assert page.get_attribute(".pcpg-band", "display") != "none"
    assert readout(page, "Run").startswith("Margin Perceptron aiming at")
    assert re.search(r"\d+ updates? ≤ .*: the bound holds", readout(page, "Check"))
    cert = page.evaluate("([X, y]) => pg.certifiedMargin(X, y)", [SEP["points"], SEP["labels"]])
    mrun = page.evaluate("([X, y, g]) => pg.marginPerceptronRun(X, y, g, {target: 0.5})",
                         [SEP["points"], SEP["labels"], cert["low"]])
    assert lifted_w_on_line(drawn_line(page), mrun["w"]) < 1e-2
    page.fill("input[type=range][id$='-target']", "0.8")
    settle(page)
    assert model_get(page, "target") == 0.8
    # On data that are not separable, the perceptron is run instead, and the message says why.
    page.select_option("select[id$='-preset']", "xor")
    settle(page)
    assert "needs separable data" in page.inner_text(".pcpg-message")
    assert page.get_attribute(".pcpg-band", "display") == "none"


# --- speed, cleanup, two on a page, the static mount -----------------------------------------


@pytest.mark.latency
def test_an_update_with_200_points_is_within_a_frame(page):
    """A point moved among 200 (the whole run and the certified margin computed again, then the
    picture), and a step through the run (the picture only): each within one frame (16.7 ms at
    60 Hz), by the playground's own clock, as a median (`make test` runs the latency tests with
    nothing beside them)."""
    pts = [[-2.5 + 5 * (k % 20) / 19, -2.5 + 5 * (k // 20) / 9] for k in range(200)]
    mount(page, state(pts, [1 if 2 * p[0] + p[1] > 0.3 else -1 for p in pts]))
    page.focus(".pcpg-plot")
    page.keyboard.press("n")
    for keys in (["ArrowUp", "ArrowDown"] * 6, [",", ".", ","] * 4):
        times, computed = [], []
        for key in keys:
            page.keyboard.press(key)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            times.append(float(page.evaluate("document.querySelector('.pcpg').dataset.updateMs")))
            computed.append(float(page.evaluate("document.querySelector('.pcpg').dataset.computeMs")))
        # The moves recompute the run; the steps only redraw.
        assert (min(computed) > 0) == (keys[0] == "ArrowUp"), computed
        assert statistics.median(times) < 16, times


@pytest.mark.latency
def test_dragging_among_200_points_that_are_not_separable_keeps_up(page):
    """200 points that are not separable run to max_epochs (about 10⁵ updates), too long for a
    frame: while a point is dragged the run is previewed with a few epochs, and the full run
    follows on release."""
    pts = [[-2.5 + 5 * (k % 20) / 19, -2.5 + 5 * (k // 20) / 9] for k in range(200)]
    labels = [1 if (k * 7919) % 3 else -1 for k in range(200)]
    mount(page, state(pts, labels))
    assert "stopped at max_epochs = 1000" in readout(page, "Run")
    page.evaluate("""() => { window.ms = []; new MutationObserver(() => ms.push(Number(
        document.querySelector('.pcpg').dataset.updateMs))).observe(document.querySelector('.pcpg'),
        { attributes: true, attributeFilter: ['data-update-ms'] }); }""")
    page.mouse.move(*to_screen(page, *pts[0]))
    page.mouse.down()
    for k in range(1, 25):
        page.mouse.move(*to_screen(page, pts[0][0] + 0.02 * k, pts[0][1] + 0.01 * k))
        frame(page)
    assert "a preview while you drag" in readout(page, "Run")
    page.mouse.up()
    settle(page)
    frames = page.evaluate("ms")
    assert len(frames) >= 10 and statistics.median(frames) < 16, frames
    assert "stopped at max_epochs = 1000" in readout(page, "Run")
    assert "preview" not in readout(page, "Run")
    assert model_get(page, "points")[0] == pytest.approx([pts[0][0] + 0.48, pts[0][1] + 0.24], abs=0.03)


def test_cleanup_removes_the_playground_and_its_listeners(page):
    mount(page, state(SEP["points"], SEP["labels"]))
    page.evaluate("cleanup()")
    assert page.locator(".pcpg").count() == 0
    page.evaluate("() => model.set('points', [[1, 1]])")  # no listener left to throw
    settle(page)
    assert page.locator(".pcpg").count() == 0


def test_two_playgrounds_on_a_page(page):
    mount(page, state(SEP["points"], SEP["labels"]))
    page.evaluate("st => { const el = document.createElement('div'); document.body.append(el); "
                  "pg.default.render({ model: pg.staticModel(st), el }); }",
                  state(XOR["points"], XOR["labels"]))
    settle(page)
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids))
    assert page.locator("style[data-pcpg-style]").count() == 1
    assert page.locator(".pcpg").count() == 2


def test_mount_static(page):
    page.evaluate("""st => {
        const div = document.createElement('div');
        div.className = 'pc-playground';
        const s = document.createElement('script');
        s.type = 'application/json';
        s.textContent = JSON.stringify(st);
        div.append(s);
        document.querySelector('#host').append(div);
        window.first = pg.mountStatic().length;
        window.second = pg.mountStatic().length;
    }""", state(SEP["points"], SEP["labels"]))
    settle(page)
    assert page.evaluate("[first, second]") == [1, 0]
    assert page.locator(".pc-playground .pcpg").count() == 1
    assert "8 points" in status(page)


# --- accessibility ---------------------------------------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_serious(page, theme):
    from axe_playwright_python.sync_playwright import Axe

    if theme == "dark":
        page.evaluate(DARK)
    mount(page, state(SEP["points"], SEP["labels"], preset="sep"))
    page.get_by_role("button", name="Step back").click()  # a ring and an update arrow drawn too
    page.get_by_label("Offset trick").check()
    page.get_by_label("Margin perceptron").check()
    settle(page)
    results = Axe().run(page, options=AXE_OPTIONS).response
    bad = [f"{r['id']} ({r['impact']}): {[n['target'] for n in r['nodes']]}"
           for r in results["violations"] if r["impact"] in ("serious", "critical")]
    assert bad == []


def test_play_is_slower_with_reduced_motion(page):
    page.emulate_media(reduced_motion="reduce")
    mount(page, state(SEP["points"], SEP["labels"]))
    total = len(run_of(page, SEP["points"], SEP["labels"])["steps"])
    count_announcements(page)
    page.evaluate("() => { window.clicked = performance.now(); }")
    page.get_by_role("button", name="Play").click()
    page.get_by_role("button", name="Pause").wait_for(timeout=20000)
    # A reader who asked for less motion gets one step in 0.8 s: the first step comes no sooner.
    page.wait_for_function("document.querySelector(\"input[type=range][id$='-scrub']\").value !== '0'",
                           timeout=20000)
    assert page.evaluate("performance.now() - clicked") >= 700
    page.wait_for_function("document.querySelector('.pcpg button').textContent === 'Play'", timeout=20000)
    settle(page)
    # The live text waited for the end of the run to speak.
    assert f"Update {total} of {total}" in status(page)
    assert page.evaluate("said") == 1
