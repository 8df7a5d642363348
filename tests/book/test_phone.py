"""The built book on a phone: every page at 360 and 390 CSS px wide, in mobile emulation.

Run with ``make test-browser`` or, against another build,
``BOOK_HTML_DIR=/path/to/_build/html pytest tests/book/test_phone.py -m browser -s``.

Each page of the book is opened over http://127.0.0.1 in a new browser context per width
(360x800 and 390x844, ``is_mobile``, touch, 3 device pixels per CSS px), after MathJax has
typeset it and the fonts have loaded, with every dropdown (the solutions) opened as a reader
opens it. It fails, with one message listing every problem on the
page, when:

* the page is wider than the screen (``scrollWidth`` of the document > the screen width + 1):
  the message names the outermost elements that run past the right edge;
* inline math is cut: an ``mjx-container`` that is not a display equation runs more than 1 px
  past an ancestor whose overflow hides or clips (as the theme's ``span.math { display:
  inline-flex; overflow: hidden }`` did). Inline math inside a box that scrolls sideways is not
  cut (a reader can scroll to it), but that box must say it has more to the right: the class
  ``pc-scroll-more`` that ``book/_static/overflow.js`` sets, whose edge book.css fades;
* a figure's text is under 9 CSS px: each picture of a static control says, in
  ``data-pc-text-px``, the smallest font its figure code drew (in pixels of the picture, from
  :mod:`perceptron_core.figures.sliders`); times the scale the page shows the picture at
  (its width on the page over its natural width), that is the smallest text a reader sees;
* a slider of a static control (``div.pc-explore input[type=range]``) is under 24 CSS px tall
  (WCAG 2.2's target size). Its thumb is 24 px by the control's CSS, which Chromium follows
  only when the input and the thumb both have ``appearance: none`` (the native thumb is 16 px
  whatever the CSS says): tests/drawing/test_sliders.py checks that CSS.

The math on a phone (issue 37, :func:`_math_problems`) fails the page too, when:

* an inline formula is wider than its column: any line box of an inline ``mjx-container`` runs
  past the content box of the nearest block around it (MathJax 4 breaks inline math at its
  operators; one it cannot break must be rewritten, e.g. with ``\\allowbreak``);
* a line starts with punctuation torn from the formula before it: the "," "." ";" or ":" right
  after an inline formula sits on a line below the formula's last line
  (book/_tools/sphinx_extension.py holds them together);
* a display formula is cut: wider than its box (MathJax 4 breaks it to the column) with no
  ``pc-scroll-more`` cue, or running past the ``div.math`` that clips it;
* MathJax (its scripts, glyph tables and web fonts, from ``_static/mathjax``) weighs more than
  :data:`MATHJAX_MAX_BYTES` on the page.

The counts are printed for each page and width (``pytest -s`` shows them live).
"""

from __future__ import annotations

import pytest

# The same browser and local server as the desktop tests (module-scoped: one per module).
from test_browser import CONTROL, HTML_DIR, _page_names, _pages, _redirect, _report
from test_browser import base_url, browser  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

SCREENS = {360: 800, 390: 844}  # CSS px: a small Android phone and a recent iPhone
MIN_TEXT = 9  # CSS px: the smallest figure text a reader should have to read
MIN_TARGET = 24  # CSS px: WCAG 2.2's minimum target size (2.5.8), for the slider and its thumb
TOLERANCE = 1  # CSS px of sub-pixel layout that is not a cut
SHOWN = 5  # offenders named per kind and page
# CSS px a scrolling box may hide without a cue: MathJax's glyphs overhang their box by a pixel
# or two. The same as SLACK in book/_static/overflow.js.
SLACK = 4
# What MathJax may cost a page: its scripts, glyph tables and web fonts (issue 37's goal; MathJax
# 3.2's tex-chtml.js alone was 1.16 MB). Bytes as decoded, as the site stores them.
MATHJAX_MAX_BYTES = 800_000


# What the page measures of itself, at a screen `width` CSS px wide.
_MEASURE = """(width) => {
  const limit = width + %(tol)d;
  const words = el => (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 80);
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
                     + [...el.classList].slice(0, 2).map(c => '.' + c).join('');
  const style = el => getComputedStyle(el);
  const scrolls = v => v === 'auto' || v === 'scroll';
  const clips = v => v === 'hidden' || v === 'clip';

  // (a) Wider than the screen.
  const doc = document.documentElement;
  const page = {scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth,
                clientWidth: doc.clientWidth};
  // What makes it so (for the message): the outermost elements past the right edge.
  const wide = Math.max(doc.scrollWidth, window.innerWidth) <= limit ? [] :
    [...document.body.querySelectorAll('*')].filter(el => el.getBoundingClientRect().right > limit
      && !(el.parentElement.getBoundingClientRect().right > limit))
    .map(el => ({what: name(el), right: Math.round(el.getBoundingClientRect().right),
                 text: words(el)}));

  // (b) Inline math cut by an ancestor that hides what runs past it.
  const tex = new Map();
  const md = window.MathJax && MathJax.startup && MathJax.startup.document;
  if (md && md.math) for (const item of md.math) if (item.typesetRoot) tex.set(item.typesetRoot, item.math);
  const cut = [], uncued = [], faded = [];
  let inline = 0, inScroller = 0;
  for (const m of document.querySelectorAll('mjx-container:not([display="true"])')) {
    const r = m.getBoundingClientRect();
    if ((r.width === 0 && r.height === 0)
        || !m.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    inline += 1;
    for (let a = m.parentElement; a && a !== doc; a = a.parentElement) {
      const s = style(a);
      if (scrolls(s.overflowX)) {
        inScroller += 1;
        // More of it to the right, and nothing to say so: book/_static/overflow.js should have
        // marked the box (its edge fades).
        const rest = a.scrollWidth - a.clientWidth - a.scrollLeft;
        if (rest > %(slack)d && !a.classList.contains('pc-scroll-more')) {
          uncued.push({what: name(a), text: (tex.get(m) || words(m)).slice(0, 80)});
        }
        // ... and a box with nothing more to show must not fade (a short formula, blurred).
        if (rest <= %(slack)d && a.classList.contains('pc-scroll-more')) {
          faded.push({what: name(a), text: (tex.get(m) || words(m)).slice(0, 80)});
        }
        break;
      }
      const ar = a.getBoundingClientRect();
      const past = Math.max(clips(s.overflowX) ? Math.max(r.right - ar.right, ar.left - r.left) : 0,
                            clips(s.overflowY) ? Math.max(r.bottom - ar.bottom, ar.top - r.top) : 0);
      if (past > %(tol)d) {
        cut.push({what: name(a), past: Math.round(past),
                  text: (tex.get(m) || words(m)).replace(/\\s+/g, ' ').trim().slice(0, 80)});
        break;
      }
    }
  }

  // (c) The sliders' own boxes.
  const sliders = [...document.querySelectorAll('%(control)s input[type=range]')].map(i => {
    const r = i.getBoundingClientRect();
    const label = i.labels && i.labels[0] ? words(i.labels[0]) : i.id;
    return {id: i.id, label, height: r.height, width: r.width};
  });
  // (d) Figures: each picture's smallest text, as the figure code drew it (data-pc-text-px,
  // pixels of the picture), times the scale the page shows the picture at.
  const figures = [...document.querySelectorAll('%(control)s img.pc-explore-img')].map(img => {
    const root = img.closest('%(control)s');
    const scale = img.getBoundingClientRect().width / img.naturalWidth;
    return {id: root.id, panel: [...root.querySelectorAll('img.pc-explore-img')].indexOf(img),
            drawn: parseFloat(img.dataset.pcTextPx), scale,
            shown: parseFloat(img.dataset.pcTextPx) * scale,
            alt: root.querySelector('img.pc-explore-img').alt.slice(0, 60)};
  });
  return {page, wide, inline, inScroller, cut, uncued, faded, sliders, figures};
}""" % {"tol": TOLERANCE, "control": CONTROL, "slack": SLACK}


# sphinx-togglebutton hides a closed dropdown's content (visibility: hidden, height 0) under its
# class toggle-hidden; sphinx-design's dropdowns are <details>. Opened; then two frames for the
# new styles to apply, and the transitions they start (opacity, height) run out.
_OPEN_DROPDOWNS = """async () => {
  for (const el of document.querySelectorAll('.toggle-hidden')) el.classList.remove('toggle-hidden');
  for (const el of document.querySelectorAll('details:not([open])')) el.open = true;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  await Promise.all(document.getAnimations()
    .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map(a => a.finished));
}"""


def _open(browser, url: str, rel: str, width: int, height: int | None = None):
    """A page in a fresh context, `width` x `height` CSS px (below 500 px a phone: touch, mobile
    viewport, 3 device px per CSS px), once MathJax, the fonts and the sliders are ready, with
    every dropdown open."""
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": height or SCREENS[width]},
                                  is_mobile=phone, has_touch=phone,
                                  device_scale_factor=3 if phone else 1)
    page = context.new_page()
    page.goto(url, wait_until="load")
    target = _redirect(HTML_DIR / rel)
    if target is not None:  # jupyter-book's index.html sends the browser on at once
        page.wait_for_url(f"**/{target}")
        page.wait_for_load_state("load")
    page.evaluate("""() => (window.MathJax && MathJax.startup && MathJax.startup.promise)
                           ? MathJax.startup.promise.then(() => document.fonts.ready)
                           : document.fonts.ready""")
    page.wait_for_load_state("networkidle")
    # Every dropdown open, as a reader opens it: the solutions' math is checked too.
    page.evaluate(_OPEN_DROPDOWNS)
    if page.locator(CONTROL).count():
        page.wait_for_function(f"""() => [...document.querySelectorAll('{CONTROL}')]
                                   .every(c => c.dataset.pcReady === '1')""")
    return context, page


# Issue 37's math checks, at the screen's width (see the module's docstring).
_MATH_FIT = """() => {
  const tol = %(tol)d, slack = %(slack)d;
  const tex = m => ((m.querySelector('mjx-math') || m).getAttribute('data-latex')
                    || m.textContent).replace(/\\s+/g, ' ').trim().slice(0, 80);
  const shown = m => m.getClientRects().length && m.checkVisibility({checkVisibilityCSS: true});
  const content = el => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return {left: r.left + parseFloat(s.paddingLeft) + parseFloat(s.borderLeftWidth),
            right: r.right - parseFloat(s.paddingRight) - parseFloat(s.borderRightWidth)};
  };
  const wide = [], torn = [], cut = [];
  for (const m of document.querySelectorAll('mjx-container:not([display="true"])')) {
    if (!shown(m)) continue;
    let column = m.parentElement;
    while (getComputedStyle(column).display.startsWith('inline')) column = column.parentElement;
    const c = content(column), rects = [...m.getClientRects()];
    const over = Math.max(...rects.map(r => Math.max(r.right - c.right, c.left - r.left)));
    if (over > tol) wide.push({tex: tex(m), over: Math.round(over)});
    const next = (m.closest('span.math') || m).nextSibling;
    if (next && next.nodeType === Node.TEXT_NODE && /^[,.;:]/.test(next.textContent)) {
      const mark = document.createRange();
      mark.setStart(next, 0);
      mark.setEnd(next, 1);
      const p = mark.getBoundingClientRect(), last = rects[rects.length - 1];
      if ((p.top + p.bottom) / 2 > last.bottom) torn.push({tex: tex(m), mark: next.textContent[0]});
    }
  }
  for (const m of document.querySelectorAll('mjx-container[display="true"]')) {
    if (!shown(m)) continue;
    const box = m.closest('div.math') || m.parentElement;
    const hidden = m.scrollWidth - m.clientWidth - m.scrollLeft;
    const past = m.getBoundingClientRect().right - content(box).right;
    if ((hidden > slack && !m.classList.contains('pc-scroll-more')) || past > tol) {
      cut.push({tex: tex(m), over: Math.round(Math.max(hidden, past))});
    }
  }
  const bytes = performance.getEntriesByType('resource')
    .filter(e => e.name.includes('/_static/mathjax/'))
    .reduce((sum, e) => sum + e.decodedBodySize, 0);
  return {wide, torn, cut, bytes};
}""" % {"tol": TOLERANCE, "slack": SLACK}


def _math_problems(page, where: str) -> tuple[list[str], str]:
    """Issue 37's math checks on an open page: its problems, and a line of counts."""
    m = page.evaluate(_MATH_FIT)
    problems = [f"{where}: inline formula {w['over']} px wider than its column: {w['tex']!r}"
                for w in m["wide"][:SHOWN]]
    problems += [f"{where}: a line starts with {t['mark']!r} torn from the formula before it: "
                 f"{t['tex']!r}" for t in m["torn"][:SHOWN]]
    problems += [f"{where}: display formula cut by {c['over']} px with no cue to the rest: "
                 f"{c['tex']!r}" for c in m["cut"][:SHOWN]]
    if m["bytes"] > MATHJAX_MAX_BYTES:
        problems.append(f"{where}: MathJax loads {m['bytes'] / 1e3:.0f} kB (at most "
                        f"{MATHJAX_MAX_BYTES / 1e3:.0f} kB)")
    line = (f"  math: too wide {len(m['wide'])}  torn punctuation {len(m['torn'])}  cut display "
            f"{len(m['cut'])}  MathJax {m['bytes'] / 1e3:.0f} kB")
    return problems, line


@pytest.mark.parametrize("rel", _page_names())
def test_page_on_a_phone(rel, browser, base_url):
    """At 360 and 390 CSS px: no sideways scrolling, no inline math cut, sliders at
    least 24 px, figure text at least 9 px; no formula wider than its column, no punctuation
    torn from a formula, MathJax within its weight."""
    assert HTML_DIR / rel in _pages()
    problems: list[str] = []
    lines: list[str] = []
    for width in SCREENS:
        context, page = _open(browser, base_url + rel, rel, width)
        try:
            m = page.evaluate(_MEASURE, width)
            math_problems, math_line = _math_problems(page, f"{rel} @{width}px")  # issue 37
        finally:
            context.close()
        where = f"{rel} @{width}px"
        p = m["page"]
        if max(p["scrollWidth"], p["innerWidth"]) > width + TOLERANCE:
            problems.append(f"{where}: page {p['scrollWidth']} px wide (innerWidth "
                            f"{p['innerWidth']}), wider than the screen; outermost elements past "
                            f"the edge: " + "; ".join(
                                f"<{w['what']}> to {w['right']} px {w['text']!r}"
                                for w in m["wide"][:SHOWN]))
        for c in m["cut"][:SHOWN]:
            problems.append(f"{where}: inline math cut by {c['past']} px by <{c['what']}>: "
                            f"{c['text']!r}")
        if len(m["cut"]) > SHOWN:
            problems.append(f"{where}: ... and {len(m['cut']) - SHOWN} more inline math cut")
        for u in m["uncued"][:SHOWN]:
            problems.append(f"{where}: <{u['what']}> scrolls sideways with more to the right, "
                            f"unmarked (no pc-scroll-more): {u['text']!r}")
        for f in m["faded"][:SHOWN]:
            problems.append(f"{where}: <{f['what']}> fades at its edge with nothing more to "
                            f"show: {f['text']!r}")
        # The thumbs are 24 px as drawn in Chromium's shadow tree only when the input and the
        # thumb both have appearance: none, which tests/drawing/test_sliders.py checks in the CSS.
        small = [s for s in m["sliders"] if s["height"] < MIN_TARGET]
        problems += [f"{where}: slider {s['label']!r} is {s['height']:.0f} px tall (at least "
                     f"{MIN_TARGET} px)" for s in small]
        tiny = [f for f in m["figures"] if not f["shown"] >= MIN_TEXT]  # NaN: no data-pc-text-px
        for f in tiny:
            problems.append(f"{where}: figure {f['id']} panel {f['panel'] + 1} ({f['alt']!r}...):"
                            f" its smallest text is {f['shown']:.1f} CSS px ({f['drawn']:.1f} px "
                            f"drawn, shown at {f['scale']:.2f}), under {MIN_TEXT}")
        smallest = min((f["shown"] for f in m["figures"]), default=float("nan"))
        lines.append(f"{rel:28} @{width}  width {p['scrollWidth']:4} (inner {p['innerWidth']})  "
                     f"past edge {len(m['wide'])}  inline math {m['inline']:4}  cut "
                     f"{len(m['cut']):3}  in a scroller {m['inScroller']:3}  sliders "
                     f"{len(m['sliders'])}  under {MIN_TARGET} px {len(small)}  figure panels "
                     f"{len(m['figures'])}  smallest text {smallest:.1f} px  under {MIN_TEXT} "
                     f"{len(tiny)}" + math_line)
        problems += math_problems
    _report(f"{rel} on a phone", lines)
    assert not problems, f"{rel}:\n" + "\n".join(problems)


def test_a_tap_on_a_solution_title_opens_it(browser, base_url):
    """The title's link to its exercise ("Solution to Exercise 14") takes a tap as a tap on the
    title: the solution opens, and the page stays where it is."""
    context = browser.new_context(viewport={"width": 390, "height": SCREENS[390]}, is_mobile=True,
                                  has_touch=True)
    try:
        page = context.new_page()
        page.goto(base_url + "book/margin.html", wait_until="load")
        solution = page.locator("div.solution.dropdown").first
        link = solution.locator(".admonition-title a")
        link.scroll_into_view_if_needed()
        box = link.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        solution.locator("section").first.wait_for(state="visible")
        assert "#" not in page.url and "toggle-hidden" not in solution.get_attribute("class")
    finally:
        context.close()
