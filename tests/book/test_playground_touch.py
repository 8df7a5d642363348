"""The playground on a phone, by touch alone, in the built book (``separability``, 390x844).

A reader with a thumb and no keyboard or mouse: clears the points, adds a −1 point and a +1
point by taps (the −1 chosen with the label buttons under the plot), drags one, deletes the
other (tap to select, then *Delete point*), and scrolls the page past the plot with one finger:
a swipe that starts on empty plot area moves ``window.scrollY``. Taps are Playwright's
``touchscreen.tap``; the drag and the swipe are touch events sent through the DevTools protocol
(``Input.dispatchTouchEvent``), so that Chromium makes of them what it makes of a finger:
pointer events, and a scroll where the page allows one.

Run with ``BOOK_HTML_DIR=/path/to/_build/html pytest tests/book/test_playground_touch.py -m browser``.
"""

from __future__ import annotations

import pytest
from test_browser import base_url, browser  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def _settle(page):
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_function("() => !document.querySelector('.pcpg[data-busy]')", timeout=20000)


def _model(page):
    """The points and labels drawn: the classes of the point marks, and their centres in page px."""
    return page.evaluate("""() => [...document.querySelectorAll('.pcpg-plot path.pcpg-pos, .pcpg-plot path.pcpg-neg')]
        .map(e => { const r = e.getBoundingClientRect(); return [e.classList.contains('pcpg-pos') ? 1 : -1,
                    Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; })""")


def _finger(cdp, path, steps=8):
    """One finger along `path` (viewport px): down at the first point, moving through the rest."""
    send = cdp.send
    send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": path[0][0], "y": path[0][1]}]})
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        for k in range(1, steps + 1):
            x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
            send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_phone_reader_edits_the_points_and_scrolls_by_touch(browser, base_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  device_scale_factor=3)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.goto(base_url + "book/separability.html")
    page.wait_for_selector(".pcpg-plot")
    page.evaluate("() => document.querySelector('.pcpg-plot').scrollIntoView({ block: 'center' })")
    _settle(page)
    plot = page.locator(".pcpg-plot")
    # Every control a thumb needs is at least 24 CSS px each way.
    for name in ("+1", "\u22121", "Delete point", "Clear points"):
        box = page.get_by_role("button", name=name, exact=True).bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, (name, box)
    page.get_by_role("button", name="Clear points").tap()
    _settle(page)
    assert _model(page) == []


    def at(fx, fy):  # viewport px of a place in the plot (a tap on a button may have scrolled it)
        box = plot.bounding_box()
        return box["x"] + fx * box["width"], box["y"] + fy * box["height"]

    page.get_by_role("button", name="\u22121", exact=True).tap()
    page.touchscreen.tap(*at(0.3, 0.7))
    _settle(page)
    page.get_by_role("button", name="+1", exact=True).tap()
    page.touchscreen.tap(*at(0.75, 0.25))
    _settle(page)
    pts = _model(page)
    assert [p[0] for p in pts] == [-1, 1], pts
    assert "2 points: 1 labelled +1, 1 labelled \u22121" in page.inner_text(".pcpg-status")

    # A drag that starts on the +1 point moves it, and scrolls nothing.
    cdp = context.new_cdp_session(page)
    y0 = page.evaluate("scrollY")
    to = at(0.6, 0.45)
    _finger(cdp, [tuple(pts[1][1:]), to])
    _settle(page)
    moved = _model(page)
    assert page.evaluate("scrollY") == y0 and len(moved) == 2
    assert abs(moved[1][1] - to[0]) < 4 and abs(moved[1][2] - to[1]) < 4, moved

    # A tap on the −1 point selects it; Delete point removes it.
    page.touchscreen.tap(*moved[0][1:])
    _settle(page)
    page.get_by_role("button", name="Delete point").tap()
    _settle(page)
    assert [p[0] for p in _model(page)] == [1]

    # One finger on empty plot area scrolls the page: a 200-px swipe up.
    empty = at(0.15, 0.85)
    y0 = page.evaluate("scrollY")
    _finger(cdp, [empty, (empty[0], empty[1] - 200)], steps=10)
    page.wait_for_function(f"window.scrollY > {y0 + 100}", timeout=5000)  # fails if it never does
    assert len(_model(page)) == 1
    assert errors == []
    context.close()
