"""Code blocks, "Back to top" and the notation tables on the reader's screen (issue 37).

Run with ``make test-browser`` or, against another build,
``BOOK_HTML_DIR=/path/to/_build/html pytest tests/book/test_code_and_layout.py -m browser -s``.

What book/_static/book.css promises, measured in Chromium on the built book:

* at 1280x900, on every page, with every dropdown (the solutions) open, no code block scrolls
  sideways: no input (``div.highlight pre``) and nothing in a cell's output whose overflow
  scrolls has ``scrollWidth > clientWidth + 1``. Visible code is at most 79 characters a line,
  and each block sets its text to fit 80 columns in its width;
* at 390x844 (a phone, touch) nothing in a cell's output scrolls sideways: outputs wrap. Inputs
  may scroll there, with the fade of book/_static/overflow.js, which tests/book/test_phone.py
  checks;
* on a phone (360 and 390 px), the theme's "Back to top" button, shown as the reader scrolls
  back up, covers no text of the main column (its box against the visible part of every
  paragraph, list item, heading, table cell, code block, figure and display equation below the
  sticky header bar) and no other control of that bar; it is at least 24x24 px, is named "Back
  to top", works from the keyboard, and axe-core finds nothing serious in it, light or dark;
* the notation page's tables at 360 and 390 px: the symbols table and the last one fit their
  column (no chapter name cut at the screen's edge), no cell's content runs out of its cell, and
  each cell of the side-by-side tables, which scroll, can be seen whole; at 1280 px, where they
  scroll too, their first column (the source's name) stays in view and opaque when they are
  scrolled to their right end, and each other cell fits beside it.

The counts are printed for each page (``pytest -s`` shows them live).
"""

from __future__ import annotations

import pytest

# The same browser and local server as the desktop tests (module-scoped: one per module).
from test_browser import _DARK, AXE_OPTIONS, HTML_DIR, _page_names, _pages, _report
from test_browser import base_url, browser  # noqa: F401  (fixtures)
from test_phone import _open

pytestmark = pytest.mark.browser

DESKTOP = (1280, 900)
PHONES = {360: 800, 390: 844}  # CSS px, as in tests/book/test_phone.py
TOLERANCE = 1  # CSS px of sub-pixel layout
SHOWN = 5  # offenders named per kind and page
MIN_TARGET = 24  # CSS px, WCAG 2.2's minimum target size (2.5.8)


# Code blocks that scroll sideways: inputs (div.highlight pre outside any output) and anything
# inside a cell's output whose overflow scrolls (its <pre>, a table's box, ...).
_SCROLLING = """() => {
  const over = el => el.scrollWidth - el.clientWidth;
  const shown = el => el.checkVisibility() && el.clientWidth > 0;
  const line = el => (el.innerText || '').split('\\n')
    .reduce((a, b) => b.length > a.length ? b : a, '');
  const input = [...document.querySelectorAll('div.highlight pre')]
    .filter(el => !el.closest('div.cell_output') && shown(el));
  const output = [...document.querySelectorAll('div.cell_output, div.cell_output *')]
    .filter(el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && shown(el));
  const wide = els => els.filter(el => over(el) > %(tol)d).map(el => ({
    over: over(el), width: el.clientWidth, font: getComputedStyle(el).fontSize,
    chars: line(el).length, line: line(el).slice(0, 90)}));
  return {inputs: input.length, outputs: output.length, input: wide(input), output: wide(output)};
}""" % {"tol": TOLERANCE}


@pytest.mark.parametrize("rel", _page_names())
def test_no_code_block_scrolls_sideways(rel, browser, base_url):
    """At 1280 px no input and no output scrolls sideways; at 390 px no output does (the same
    page, its window narrowed: what wraps there is a matter of width alone)."""
    assert HTML_DIR / rel in _pages()
    problems: list[str] = []
    lines: list[str] = []
    context, page = _open(browser, base_url + rel, rel, *DESKTOP)
    try:
        for width, kinds in ((DESKTOP[0], ("input", "output")), (390, ("output",))):
            page.set_viewport_size({"width": width, "height": PHONES.get(width, DESKTOP[1])})
            m = page.evaluate(_SCROLLING)
            lines.append(f"@{width}px: inputs {m['inputs']} ({len(m['input'])} scroll), "
                         f"scrolling boxes in outputs {m['outputs']} ({len(m['output'])} scroll)")
            problems += [f"@{width}px: one of {len(m[kind])} {kind}s that scroll, by "
                         f"{w['over']} px ({w['chars']} characters at {w['font']} in "
                         f"{w['width']} px): {w['line']!r}" for kind in kinds
                         for w in m[kind][:SHOWN]]
    finally:
        context.close()
    _report(rel, lines)
    assert not problems, f"{rel}:\n" + "\n".join(problems)


def _longest_chapter() -> str:
    """The longest page of the book: the one a reader most wants to get back up."""
    page = max(_pages(generated=False), key=lambda p: p.stat().st_size)
    return page.relative_to(HTML_DIR).as_posix()


# Where "Back to top" is, and what of the main column's text and of the header bar's controls
# lies under it. Text under the sticky header bar is hidden by the bar, not by the button.
_BACK_TO_TOP = """() => {
  const b = document.getElementById('pst-back-to-top');
  const r = b.getBoundingClientRect();
  const bar = document.querySelector('.bd-header-article').getBoundingClientRect();
  const meets = (e, top) => e.left < r.right && r.left < e.right
                            && Math.max(e.top, top) < r.bottom && r.top < e.bottom;
  const words = el => (el.innerText || el.alt || '').replace(/\\s+/g, ' ').trim().slice(0, 60);
  const text = [...document.querySelectorAll('article.bd-article :is(p, li, dt, dd, pre, h1, '
      + 'h2, h3, h4, th, td, figcaption, img, mjx-container[display="true"])')]
    .filter(el => el.checkVisibility())
    .filter(el => meets(el.getBoundingClientRect(), Math.max(bar.bottom, 0)))
    .map(el => el.tagName.toLowerCase() + ' ' + JSON.stringify(words(el)));
  const controls = [...document.querySelectorAll('.bd-header-article :is(button, a, label)')]
    .filter(el => el !== b && el.checkVisibility() && meets(el.getBoundingClientRect(), -1e9))
    .map(el => el.getAttribute('aria-label') || el.title || el.className);
  return {left: r.left, top: r.top, width: r.width, height: r.height, text, controls};
}"""


def test_back_to_top_covers_no_text_on_a_phone(browser, base_url):
    """Scrolled down a long chapter and back up a little, as a reader does, on a 360-px phone
    in the light theme and a 390-px one in the dark: the button is shown and covers no text and
    no control; it is a 24-px target named "Back to top", axe-core finds nothing serious in it,
    and Enter on it goes to the top."""
    from axe_playwright_python.sync_playwright import Axe

    rel = _longest_chapter()
    problems: list[str] = []
    lines: list[str] = []
    context, page = _open(browser, base_url + rel, rel, 360, PHONES[360])
    try:
        for width, mode in ((360, "light"), (390, "dark")):
            if mode == "dark":
                page.set_viewport_size({"width": width, "height": PHONES[width]})
                assert page.evaluate(_DARK)[0] == "dark"
            for down in (2000, 6000):  # a screen or two in, and deep in the page
                page.evaluate("() => window.scrollTo(0, 0)")
                page.mouse.wheel(0, down)
                page.wait_for_function("y => window.scrollY >= y - 1", arg=down)
                page.mouse.wheel(0, -300)  # back up: the theme shows the button
                page.wait_for_function("() => document.getElementById('pst-back-to-top')"
                                       ".checkVisibility()")
                m = page.evaluate(_BACK_TO_TOP)
                where = f"{rel} @{width}px {mode}, {down - 300} px down"
                lines.append(f"{where}: button {m['width']:.0f}x{m['height']:.0f} at "
                             f"({m['left']:.0f}, {m['top']:.0f}); text under it "
                             f"{len(m['text'])}, controls under it {len(m['controls'])}")
                problems += [f"{where}: the button covers {t}" for t in m["text"][:SHOWN]]
                problems += [f"{where}: the button covers the control {c!r}"
                             for c in m["controls"]]
                if min(m["width"], m["height"]) < MIN_TARGET:
                    problems.append(f"{where}: the button is {m['width']:.0f}x"
                                    f"{m['height']:.0f} px (at least {MIN_TARGET})")
            button = page.get_by_role("button", name="Back to top")
            if button.count() != 1 or not button.is_visible():
                problems.append(f"{rel} @{width}px: no visible button named 'Back to top'")
            axe = Axe().run(page, context={"include": [["#pst-back-to-top"]]},
                            options=AXE_OPTIONS).response
            problems += [f"{rel} @{width}px {mode}: axe {v['id']} ({v['impact']}) on the button"
                         for v in axe["violations"] if v["impact"] in ("serious", "critical")]
        page.focus("#pst-back-to-top")
        page.keyboard.press("Enter")
        page.wait_for_function("() => window.scrollY === 0")
    finally:
        context.close()
    _report("Back to top on a phone", lines)
    assert not problems, "\n".join(problems)


# The notation page's tables: whether each fits its column, cells whose content runs out of
# them, and the side-by-side tables scrolled to their right end.
_NOTATION = """() => [...document.querySelectorAll('article table')].map(t => {
  const box = t.closest('.pst-scrollable-table-container') || t.parentElement;
  const head = t.rows[0].cells[0].innerText.trim();
  const words = el => el.innerText.replace(/\\s+/g, ' ').trim().slice(0, 50);
  const overflowing = [...t.querySelectorAll('th, td')]
    .filter(c => c.scrollWidth > c.clientWidth + %(tol)d).map(words);
  const fits = box.scrollWidth <= box.clientWidth + %(tol)d;
  box.scrollLeft = box.scrollWidth;
  const b = box.getBoundingClientRect();
  const firsts = [...t.rows].map(row => row.cells[0]);
  const firstWidth = Math.max(...firsts.map(c => c.getBoundingClientRect().width));
  // Chromium writes an opaque colour rgb(...), one with alpha below 1 rgba(...).
  const hidden = firsts.filter(c => c.getBoundingClientRect().left < b.left - %(tol)d
                               || getComputedStyle(c).backgroundColor.startsWith('rgba'))
    .map(words);
  // Beside the first column where it stays in place, else in the whole column.
  const sticky = getComputedStyle(firsts[0]).position === 'sticky';
  const room = box.clientWidth - (sticky ? firstWidth : 0);
  const tooWide = [...t.querySelectorAll('td')].filter(c => c.cellIndex > 0
      && c.getBoundingClientRect().width > room + %(tol)d).map(words);
  box.scrollLeft = 0;
  return {head, cls: t.className, fits, width: box.scrollWidth, column: box.clientWidth,
          sticky, overflowing, hidden, tooWide};
})""" % {"tol": TOLERANCE}


def test_notation_tables_show_every_cell(browser, base_url):
    """At 360 and 390 px the notation page's tables show every cell: the symbols table and the
    letters table fit, each cell of the side-by-side tables fits the column; at 1280 px those
    scroll with their first column in place."""
    from axe_playwright_python.sync_playwright import Axe

    rel = "book/notation.html"
    problems: list[str] = []
    lines: list[str] = []
    context, page = _open(browser, base_url + rel, rel, 360, PHONES[360])
    measured = []
    try:
        for width, mode in ((360, "light"), (390, "dark"), (DESKTOP[0], "dark")):
            page.set_viewport_size({"width": width, "height": PHONES.get(width, DESKTOP[1])})
            if mode == "dark" and width == 390:
                assert page.evaluate(_DARK)[0] == "dark"
            tables = page.evaluate(_NOTATION)
            # At 1280 px tests/book/test_browser.py runs axe-core on the whole page.
            axe = Axe().run(page, context={"include": [["table.pc-notation"]]},
                            options=AXE_OPTIONS).response if width in PHONES else {}
            measured.append((width, mode, tables, axe))
    finally:
        context.close()
    for width, mode, tables, axe in measured:
        where = f"{rel} @{width}px {mode}"
        assert len(tables) >= 5, f"{where}: {len(tables)} tables"
        side_by_side = [t for t in tables if "pc-notation-compare" in t["cls"]]
        assert len(side_by_side) >= 3, f"{where}: side-by-side tables lost their class"
        for t in tables:
            name = f"{where}, table {t['head']!r}"
            lines.append(f"{name}: {t['width']} px in {t['column']}")
            if width in PHONES and t not in side_by_side and not t["fits"]:
                problems.append(f"{name} is {t['width']} px wide in a {t['column']}-px column")
            problems += [f"{name}: a cell's content runs out of it: {c!r}"
                         for c in t["overflowing"][:SHOWN]]
            if width not in PHONES and t in side_by_side:  # its first column stays in place
                problems += [f"{name}: scrolled right, the first column is out of view or not "
                             f"opaque: {c!r}" for c in t["hidden"][:SHOWN]]
            problems += [f"{name}: a cell wider than the room it has: {c!r}"
                         for c in t["tooWide"][:SHOWN] if t in side_by_side]
        problems += [f"{where}: axe {v['id']} ({v['impact']}) in the tables"
                     for v in axe.get("violations", []) if v["impact"] in ("serious", "critical")]
    _report("Notation tables", lines)
    assert not problems, "\n".join(problems)
