"""The playground's picture and controls (perceptron_core/static/playground.js) in headless
Chromium: mouse and keyboard edits reach the model, the live text and the visible message describe
every state (bad ones too), the drawn line is the run's, the readout says what is certified, and
axe-core finds no serious or critical violation in a light or a dark page.

Numbers come from the module itself (``pg.perceptronRun``, ``pg.certifiedMargin``), never typed
in: what is tested here is that the picture and the words show what the mathematics computed.
"""

from __future__ import annotations

import math
import re
import statistics

import pytest
from playground_page import chromium, pg_page, pg_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

VIEW = [-3.0, 3.0, -3.0, 3.0]
# Separable through the origin, and the perceptron needs several updates on it.
SEP = {"points": [[0.5, 2.5], [2.5, 0.4], [2.0, 1.8], [-0.4, -2.2], [-2.4, -0.6], [-1.8, -1.6], [1.2, -0.3], [-1.0, 0.5]],
       "labels": [1, 1, 1, -1, -1, -1, 1, -1]}
XOR = {"points": [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]], "labels": [1, 1, -1, -1]}
AND = {"points": [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], "labels": [-1, -1, -1, 1]}  # (0, 0) at the origin
PRESETS = [{"name": "sep", "title": "Planted margin", "view": VIEW, "note": "Separable through the origin.", **SEP},
           {"name": "xor", "title": "XOR", "view": [-2.0, 2.0, -2.0, 2.0], "note": "Not separable.", **XOR}]
GRID = [[-2.5 + 5 * (k % 20) / 19, -2.5 + 5 * (k // 20) / 9] for k in range(200)]
DARK = ("() => { const s = document.documentElement.style; s.colorScheme = 'dark'; s.background = '#121212'; "
        "s.color = '#e6e6e6'; document.body.style.background = '#121212'; }")


def state(data=None, **kw):
    """A model state as the contract defines it (the Python side would send the same keys)."""
    return {"points": (data or {}).get("points", []), "labels": (data or {}).get("labels", []), "presets": PRESETS,
            "preset": "", "view": VIEW, "tie": "mistake", "offset": False, "c": 1.0, "margin_target": False,
            "target": 0.5, "max_epochs": 1000, "title": "Test playground", **kw}


@pytest.fixture
def page(pg_page):
    """``pg_page``, and at the end: no console error, no uncaught exception, no request."""
    requests = []
    pg_page.on("request", lambda r: requests.append(r.url))
    yield pg_page
    assert pg_page.pg_errors == [] and requests == []


def mount(page, st):
    page.evaluate("st => { window.model = pg.staticModel(st); "
                  "window.cleanup = pg.default.render({ model, el: document.querySelector('#host') }); }", st)
    settle(page)


def settle(page):
    """Two animation frames, then until the playground has drawn and said what was due (it marks
    its root data-busy while a picture or an announcement is pending)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_function("() => !document.querySelector('.pcpg[data-busy]')", timeout=20000)


def status(page):
    return page.inner_text(".pcpg-status")


def model_get(page, key):
    return page.evaluate("k => model.get(k)", key)


def readout(page, key):
    """The readout's row `key` (its <dt> text, primes dropped: "R and γ" is "R′ and γ′" too)."""
    return page.evaluate("""k => { for (const dt of document.querySelectorAll('.pcpg-readout dt'))
        if (dt.textContent.replaceAll('\u2032', '') === k) return dt.nextElementSibling.textContent; return null; }""", key)


def to_screen(page, x, y):
    """The page position of data point (x, y) (the view drawn is the model's: it holds the points)."""
    return page.evaluate("""([x, y]) => { const r = document.querySelector('.pcpg-plot').getBoundingClientRect();
        const [x0, x1, y0, y1] = model.get('view');
        return [r.left + (x - x0) / (x1 - x0) * r.width, r.top + (y1 - y) / (y1 - y0) * r.height]; }""", [x, y])


def click(page, x, y, key=None):
    """Click data point (x, y), with `key` ("Shift", "Alt") held down. The plot is brought into
    the middle of the window first: an earlier test on the same page may have scrolled it, and a
    click outside the window reaches nothing."""
    page.evaluate("() => document.querySelector('.pcpg-plot').scrollIntoView({ block: 'center' })")
    if key:
        page.keyboard.down(key)
    page.mouse.click(*to_screen(page, x, y))
    if key:
        page.keyboard.up(key)
    settle(page)


def off_line(page, w, c=None):
    """How far the drawn line's ends are from w·x + b = 0 (b = c·w₃), or None when none is drawn."""
    seg = page.evaluate("""() => { const l = document.querySelector('.pcpg-line');
        if (l.getAttribute('display') === 'none') return null;
        const [x0, x1, y0, y1] = model.get('view'), vb = document.querySelector('.pcpg-plot').viewBox.baseVal;
        const d = (u, v) => [x0 + u / vb.width * (x1 - x0), y1 - v / vb.height * (y1 - y0)], a = k => Number(l.getAttribute(k));
        return [d(a('x1'), a('y1')), d(a('x2'), a('y2'))]; }""")
    b = c * w[2] if c is not None else 0.0
    return seg and max(abs(w[0] * p[0] + w[1] * p[1] + b) / math.hypot(w[0], w[1]) for p in seg)


def pl(k, one, many):
    return f"{k} {one if k == 1 else many}"


def js(page, call, *args):
    return page.evaluate(f"([X, y, o]) => pg.{call}", [*args, {}][:3])


def test_readout_live_text_and_line(page):
    mount(page, state(SEP, preset="sep"))
    assert page.locator(".pcpg-plot path.pcpg-pos").count() == 4 == page.locator(".pcpg-plot path.pcpg-neg").count()
    assert "8 points: 4 labelled +1, 4 labelled \u22121" in status(page)
    cert, run = js(page, "certifiedMargin(X, y)", SEP["points"], SEP["labels"]), js(page, "perceptronRun(X, y)", SEP["points"], SEP["labels"])
    # The sizes and the bound are 4-digit estimates; the check against the bound is exact.
    R, g = (float(v) for v in re.fullmatch(r"R ≈ ([\d.]+), γ ≈ ([\d.]+)", readout(page, "R and γ")).groups())
    assert cert["status"] == "separable" and readout(page, "Separable") == "Yes, through the origin, checked exactly."
    assert g == pytest.approx(cert["gamma"], rel=1e-3) and R == pytest.approx(max(math.hypot(*x) for x in SEP["points"]), rel=1e-3)
    bound = float(re.fullmatch(r"\(R/γ\)² ≈ ([\d.]+)", readout(page, "Bound")).group(1))
    assert bound == pytest.approx((R / g) ** 2, rel=3e-3)
    k = len(run["steps"])
    assert re.fullmatch(rf"{k} so far, {k} in the whole run: converged after \d+ epochs?, within the bound\.",
                        readout(page, "Mistakes"))
    assert "within the bound" in status(page)
    assert off_line(page, run["w"]) < 1e-2
    # A change from Python redraws: XOR, not separable, with the certificate's points named by
    # number, label and place (the picture does not number them).
    page.evaluate("p => { model.set('points', p.points); model.set('labels', p.labels); }", XOR)
    settle(page)
    said = re.fullmatch(r"No, checked exactly\. With weights ≥ 0, checked exactly, y x of points (.*) add up to the origin, "
                        r"so no line through the origin separates the data\.", readout(page, "Separable"))
    named = [[int(k), int(lab), float(a), float(b)] for k, lab, a, b in
             re.findall(r"(\d+) \(([+-]1) at \((\S+), (\S+)\)\)", said.group(1).replace("\u2212", "-"))]
    assert len(named) >= 2 and all([XOR["labels"][k - 1], XOR["points"][k - 1]] == [lab, [a, b]] for k, lab, a, b in named)
    assert "not separable" in readout(page, "Bound")
    assert "in 1000 epochs: stopped at the cap of 1000 epochs (max_epochs), still making mistakes." in readout(page, "Mistakes")
    page.evaluate("() => model.set('offset', true)")
    settle(page)
    assert page.get_by_label("Offset trick").is_checked() and "R\u2032 ≈" in readout(page, "R and γ")
    assert ("A mix of the +1 points 1 at (1, 1) and 2 at (\u22121, \u22121) equals a mix of the \u22121 points 3 at (1, \u22121) and "
            "4 at (\u22121, 1) (weights checked exactly), so the two classes' hulls meet and no line separates them.") in status(page)


def test_keyboard_add_move_select_delete_and_step(page):
    mount(page, state())
    page.keyboard.press("Tab")  # the plot is the first stop in the page
    page.keyboard.press("Enter")  # +1 at the cursor (the middle of the view)
    settle(page)
    assert model_get(page, "points") == [[0, 0]] and model_get(page, "labels") == [1]
    for key in ["ArrowRight"] * 4 + ["Shift+ArrowUp", "Shift+Enter"]:
        page.keyboard.press(key)
    settle(page)
    # 4 small steps right (1/40 of the width each), one big step up (1/8 of the height).
    assert model_get(page, "points")[1] == pytest.approx([4 * 6 / 40, 6 / 8]) and model_get(page, "labels") == [1, -1]
    assert "Added a \u22121 point" in status(page) and "2 points" in status(page)
    for key in ("n", "ArrowUp", "ArrowLeft"):
        page.keyboard.press(key)
    settle(page)
    assert model_get(page, "points")[0] == pytest.approx([-6 / 40, 6 / 40])
    page.keyboard.press("p")  # the previous of point 1 is the last, point 2
    settle(page)
    assert "Selected point 2 of 2" in status(page)
    page.keyboard.press("Escape")
    page.keyboard.press("Delete")  # nothing selected: nothing deleted
    settle(page)
    assert len(model_get(page, "points")) == 2 and "No point selected" in status(page)
    for key in ("n", "Delete"):
        page.keyboard.press(key)
    settle(page)
    assert model_get(page, "labels") == [-1] and "Deleted point 1" in status(page) and "1 point:" in status(page)
    for key in ("n", "Backspace"):
        page.keyboard.press(key)
    settle(page)
    assert model_get(page, "points") == [] and "No points yet" in status(page)
    page.evaluate("p => { model.set('points', p.points); model.set('labels', p.labels); }", SEP)
    settle(page)
    total = len(js(page, "perceptronRun(X, y)", SEP["points"], SEP["labels"])["steps"])
    page.keyboard.press(",")
    settle(page)
    assert f"Update {total - 1} of {total}" in status(page)


def test_mouse_click_shift_click_drag_alt_click_double_click(page):
    mount(page, state())
    click(page, 1, 1)
    click(page, -1, -2, key="Shift")
    assert model_get(page, "labels") == [1, -1] and model_get(page, "preset") == ""
    assert model_get(page, "points") == [pytest.approx([1, 1], abs=0.03), pytest.approx([-1, -2], abs=0.03)]
    # Drag point 1 to (2, 0.5): the model hears of it, and the live text speaks, once, at the end.
    page.evaluate("""() => { window.saves = 0; window.said = 0; const s = model.save_changes; model.save_changes = () => { saves++; s(); };
        new MutationObserver(() => said++).observe(document.querySelector('.pcpg-status'), { childList: true, characterData: true, subtree: true }); }""")
    page.mouse.move(*to_screen(page, 1, 1))
    page.mouse.down()
    for x, y in ((1.5, 0.8), (2, 0.5)):
        page.mouse.move(*to_screen(page, x, y), steps=4)
    page.mouse.up()
    settle(page)
    assert model_get(page, "points")[0] == pytest.approx([2, 0.5], abs=0.03) and len(model_get(page, "points")) == 2
    assert page.evaluate("[saves, said]") == [1, 1] and "moved to" in status(page)
    click(page, -1, -2, key="Alt")  # deletes the -1 point
    assert model_get(page, "labels") == [1]
    page.mouse.dblclick(*to_screen(page, 2, 0.5))  # deletes the +1 point
    settle(page)
    assert model_get(page, "points") == []
    page.mouse.dblclick(*to_screen(page, -2, 2))  # on empty space: its first click adds, the second keeps it
    settle(page)
    assert model_get(page, "points") == [pytest.approx([-2, 2], abs=0.03)]


BAD_STATES = {
    "no points": (state(), "tap or click the plot to add one (the +1 and \u22121 buttons under it choose the label)"),
    "one class": (state({"points": [[1, 1], [2, 0.5]], "labels": [1, 1]}), "Only +1 points: without an offset"),
    "one class, offset": (state({"points": [[1, 1], [2, 0.5]], "labels": [1, 1]}, offset=True), "unbounded"),
    "all at the origin": (state({"points": [[0, 0], [0, 0]], "labels": [1, -1]}), "All points are at the origin"),
    "all at the origin, offset": (state({"points": [[0, 0], [0, 0]], "labels": [1, -1]}, offset=True), "with or without an offset"),
    "a point at the origin": (state(AND), "Point 1 is at the origin: w·0 = 0 for every w, so no line through the origin has it "
                              "strictly on one side"),
    "the margin perceptron on XOR": (state(XOR, margin_target=True), "needs a margin γ > 0 checked exactly"),
}


@pytest.mark.parametrize("name", BAD_STATES)
def test_bad_state_has_a_visible_message_and_says_it(page, name):
    st, words = BAD_STATES[name]
    mount(page, st)
    message = page.locator(".pcpg-message")
    assert message.is_visible() and words in message.inner_text() and message.inner_text() in status(page)
    assert all(readout(page, key).strip() for key in ("Points", "Separable", "R and γ", "Bound", "Mistakes"))


def test_offset_trick_more_points_than_allowed_and_data_sets(page):
    mount(page, state(AND))
    page.get_by_label("Offset trick").check()
    settle(page)
    assert model_get(page, "offset") is True and not page.locator(".pcpg-message").is_visible()
    assert "γ′ ≈ " in readout(page, "R and γ") and "within the bound" in status(page)
    assert page.locator(".pcpg-readout dt", has_text="R′ and γ′").count() == 1
    run = js(page, "perceptronRun(X, y, { c: 1 })", AND["points"], AND["labels"])
    assert off_line(page, run["w"], c=1.0) < 1e-2  # the line w·x + c·w₃ = 0, not through the origin
    page.fill("input[type=range][id$='-c']", "2")
    settle(page)
    assert model_get(page, "c") == 2 and "c = 2" in readout(page, "R and γ")
    page.select_option("select[id$='-preset']", "xor")
    settle(page)
    assert (model_get(page, "points"), model_get(page, "view"), model_get(page, "preset")) == (XOR["points"], PRESETS[1]["view"], "xor")
    assert "Not separable." in page.inner_text(".pcpg-note")
    # XOR's run ends on w = 0, no line: the data set opens on the last update that drew one.
    assert page.get_attribute(".pcpg-line", "display") != "none" and "w = 0" not in readout(page, "Update")
    click(page, 0.5, 1.5)  # an edit makes them the reader's points; Reset brings the data set back
    assert model_get(page, "preset") == "" and page.input_value("select[id$='-preset']") == ""
    page.get_by_role("button", name="Reset").click()
    settle(page)
    assert model_get(page, "points") == XOR["points"] and model_get(page, "preset") == "xor"
    page.get_by_role("button", name="Clear points").click()
    settle(page)
    assert model_get(page, "points") == [] and "No points yet" in status(page)
    page.evaluate("p => { model.set('view', [-3, 3, -3, 3]); model.set('points', p); model.set('labels', p.map(q => q[0] > 0 ? 1 : -1)); }", GRID)
    page.focus(".pcpg-plot")
    page.keyboard.press("Enter")  # a 201st point, at the keyboard's cursor
    settle(page)
    assert len(model_get(page, "points")) == 200 and "At most 200 points" in page.inner_text(".pcpg-message")


def test_scrub_and_step_change_the_drawn_line(page):
    mount(page, state(SEP))
    steps = js(page, "perceptronRun(X, y)", SEP["points"], SEP["labels"])["steps"]
    assert page.get_attribute("input[type=range][id$='-scrub']", "max") == str(len(steps)) and len(steps) >= 2
    vb = page.evaluate("document.querySelector('.pcpg-plot').viewBox.baseVal.width")
    for k in range(len(steps), 0, -1):
        page.fill("input[type=range][id$='-scrub']", str(k))
        settle(page)
        assert off_line(page, steps[k - 1]["w"]) < 1e-2, f"the line at update {k} is not w_{k}'s"
        i = steps[k - 1]["i"]  # the point whose mistake made update k is ringed
        ring = page.evaluate("() => ['display', 'cx', 'cy'].map(a => document.querySelector('.pcpg-culprit').getAttribute(a))")
        assert ring[0] != "none" and float(ring[1]) == pytest.approx((SEP["points"][i][0] + 3) / 6 * vb, abs=0.2)
        assert f"point {i + 1} (" in readout(page, "Update") and f"{k} so far" in readout(page, "Mistakes")
    page.get_by_role("button", name="Step back").click()  # the start: w = 0, no line, no ring
    settle(page)
    assert off_line(page, [1, 1]) is None and page.get_attribute(".pcpg-culprit", "display") == "none"
    assert "w = 0" in readout(page, "Update")


def test_arrows_and_labels_stay_in_the_frame_and_the_legend_has_both_colours(page):
    """The narrow wedge (the view of its preset, from perceptron_core.playground): at every update
    the arrows, the normal and its label end inside the plot, and the update arrow has the colour
    of the point that made it, which the legend shows for both labels."""
    wedge = {"points": [[1.0, 1.0], [0.875, 1.0]], "labels": [1, -1]}
    mount(page, state(wedge, view=[-0.2, 1.2, -0.2, 1.2]))
    steps = js(page, "perceptronRun(X, y)", wedge["points"], wedge["labels"])["steps"]
    assert len(steps) > 20 and page.locator(".pcpg-legend .pcpg-upd-pos").count() == 1 == page.locator(".pcpg-legend .pcpg-upd-neg").count()
    for k in range(1, len(steps) + 1):
        page.fill("input[type=range][id$='-scrub']", str(k))
        settle(page)
        out = page.evaluate(r"""() => { const svg = document.querySelector('.pcpg-plot'), vb = svg.viewBox.baseVal, bad = [];
            for (const c of ['normal', 'wold', 'wnew', 'upd']) {
              const d = svg.querySelector('.pcpg-' + c).getAttribute('d'), xy = ((d || '').match(/-?[\d.]+/g) || []).map(Number);
              for (let i = 0; i < xy.length; i += 2) if (xy[i] < 0 || xy[i] > vb.width || xy[i + 1] < 0 || xy[i + 1] > vb.height) bad.push(c);
            }
            const b = svg.querySelector('.pcpg-wlabel').getBBox();
            if (b.x < 0 || b.y < 0 || b.x + b.width > vb.width || b.y + b.height > vb.height) bad.push('w label');
            return [bad, svg.querySelector('.pcpg-upd').getAttribute('class')]; }""")
        assert out[0] == [], f"update {k}: {out[0]} outside the frame"
        assert out[1].endswith("pcpg-upd-pos" if wedge["labels"][steps[k - 1]["i"]] > 0 else "pcpg-upd-neg")


def test_tie_rule_and_margin_perceptron(page):
    mount(page, state(SEP))
    page.select_option("select[id$='-tie']", "positive")
    settle(page)
    assert model_get(page, "tie") == "positive"
    assert not page.get_by_text("unused: the margin perceptron updates at every tie").is_visible()
    page.get_by_label("Margin perceptron").check()
    settle(page)
    assert model_get(page, "margin_target") is True and page.get_attribute(".pcpg-band", "display") != "none"
    # The tie rule is off, and says why; the legend names the band.
    assert page.locator("select[id$='-tie']").is_disabled() and page.get_by_text("unused: the margin perceptron updates at every tie").is_visible()
    assert page.get_by_text("the band the margin perceptron aims beyond (τγ)").is_visible()
    # The run aims at the certified γ (`low`), which the readout names beside the estimate, and
    # its bound is from that γ; the counts add up to the run's.
    low = js(page, "certifiedMargin(X, y)", SEP["points"], SEP["labels"])["low"]
    for target, eta in ((0.5, "0.5"), (0.9, "0.1")):  # 1 − 0.9 is 0.09999999999999998 in floats
        page.fill("input[type=range][id$='-target']", str(target))
        settle(page)
        assert model_get(page, "target") == target
        mrun = page.evaluate("([X, y, g, t]) => pg.marginPerceptronRun(X, y, g, { target: t })", [SEP["points"], SEP["labels"], low, target])
        assert off_line(page, mrun["w"]) < 1e-2
        assert readout(page, "R and γ").endswith(f"; the run aims at τ × {low:g}")
        assert readout(page, "Bound").endswith(f" with γ = {low:g} and η = 1 − τ = {eta}")
        true, short = sum(s["mistake"] for s in mrun["steps"]), sum(not s["mistake"] for s in mrun["steps"])
        margin = f", and {pl(short, 'margin mistake that was not a true mistake', 'margin mistakes that were not true mistakes')} (short of τγ)"
        assert readout(page, "Mistakes") == (f"{pl(true, 'true mistake', 'true mistakes')} so far, {true} in the whole run{margin if short else ''}: "
                                             f"converged after {pl(mrun['epochs'], 'epoch', 'epochs')}; "
                                             f"{pl(len(mrun['steps']), 'update', 'updates')} in all, within the bound.")


@pytest.mark.latency
def test_an_update_with_200_points_is_within_a_frame(page):
    """A point moved among 200 (the run, the margin and the picture again), a step through the run
    (the picture only), and a drag among 200 points that are not separable (a run to max_epochs
    each time): each a median within one frame (16.7 ms at 60 Hz), by the playground's clock."""
    mount(page, state({"points": GRID, "labels": [1 if 2 * p[0] + p[1] > 0.3 else -1 for p in GRID]}))
    page.focus(".pcpg-plot")
    page.keyboard.press("n")
    for keys in (["ArrowUp", "ArrowDown"] * 6, [",", ".", ","] * 4):
        times = []
        for key in keys:
            page.keyboard.press(key)
            settle(page)
            times.append(float(page.evaluate("document.querySelector('.pcpg').dataset.updateMs")))
        assert statistics.median(times) < 16, times
    page.evaluate("p => { model.set('labels', p.map((_, k) => (k * 7919) % 3 ? 1 : -1)); model.set('max_epochs', 100); }", GRID)
    settle(page)
    assert "stopped at the cap of 100 epochs (max_epochs)" in readout(page, "Mistakes")
    page.evaluate("""() => { window.ms = []; new MutationObserver(() => ms.push(Number(document.querySelector('.pcpg').dataset.updateMs)))
        .observe(document.querySelector('.pcpg'), { attributes: true, attributeFilter: ['data-update-ms'] }); }""")
    page.mouse.move(*to_screen(page, *GRID[0]))
    page.mouse.down()
    for k in range(1, 25):
        page.mouse.move(*to_screen(page, GRID[0][0] + 0.02 * k, GRID[0][1] + 0.01 * k))
    page.mouse.up()
    settle(page)
    assert len(page.evaluate("ms")) >= 10 and statistics.median(page.evaluate("ms")) < 16, page.evaluate("ms")


def test_two_playgrounds_mount_static_and_cleanup(page):
    page.evaluate("""st => { const div = document.createElement('div'), s = document.createElement('script');
        div.className = 'pc-playground'; s.type = 'application/json'; s.textContent = JSON.stringify(st);
        div.append(s); document.body.append(div); window.counts = [pg.mountStatic().length, pg.mountStatic().length]; }""", state(XOR))
    mount(page, state(SEP))
    assert page.evaluate("counts") == [1, 0] and page.locator(".pcpg").count() == 2
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)) and page.locator("style[data-pcpg-style]").count() == 1
    page.evaluate("cleanup()")
    page.evaluate("() => model.set('points', [[1, 1]])")  # no listener left to throw
    settle(page)
    assert page.locator(".pcpg").count() == 1 and "4 points" in status(page)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_serious(page, theme):
    from axe_playwright_python.sync_playwright import Axe

    if theme == "dark":
        page.evaluate(DARK)
    mount(page, state(SEP, preset="sep"))
    page.get_by_role("button", name="Step back").click()  # a ring and an update arrow drawn too
    page.get_by_label("Offset trick").check()
    page.get_by_label("Margin perceptron").check()
    settle(page)
    results = Axe().run(page, options={"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}).response
    assert [r["id"] for r in results["violations"] if r["impact"] in ("serious", "critical")] == []


def test_play_is_slower_with_reduced_motion(page):
    page.emulate_media(reduced_motion="reduce")
    mount(page, state(SEP))
    total = len(js(page, "perceptronRun(X, y)", SEP["points"], SEP["labels"])["steps"])
    page.evaluate("""() => { window.said = 0; window.clicked = performance.now(); new MutationObserver(() => said++).observe(
        document.querySelector('.pcpg-status'), { childList: true, characterData: true, subtree: true }); }""")
    page.get_by_role("button", name="Play").click()
    page.get_by_role("button", name="Pause").wait_for(timeout=20000)
    # A reader who asked for less motion gets one step in 0.8 s: the first step comes no sooner.
    page.wait_for_function("document.querySelector(\"input[type=range][id$='-scrub']\").value !== '0'", timeout=20000)
    assert page.evaluate("performance.now() - clicked") >= 700
    page.wait_for_function("document.querySelector('.pcpg button[id$=\"-play\"]').textContent === 'Play'", timeout=20000)
    settle(page)
    assert f"Update {total} of {total}" in status(page) and page.evaluate("said") == 1  # spoken once, at the end
