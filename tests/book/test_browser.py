"""The built book in headless Chromium: clean pages, local math, no off-site requests, axe-core.

Run with ``make test-browser`` (builds the book first) or, against another build,
``BOOK_HTML_DIR=/path/to/_build/html pytest tests/book/test_browser.py -m browser``.

On every page of the book, in the light and the dark theme, over http://127.0.0.1 and from
file://, with no filter on what is counted:

* 0 console errors and uncaught exceptions, of any origin;
* 0 failed requests (network errors and HTTP statuses >= 400);
* 0 requests to any host but 127.0.0.1: each one is blocked, counted and reported;
* the math is typeset by the book's own MathJax 4 (no raw TeX left, no TeX errors), with the
  hidden MathML that screen readers read;
* 0 serious or critical accessibility violations found by axe-core (all of its rules, WCAG 2.2
  AA's target size included);
* every static slider works by mouse and keyboard, keeps its label and its aria-live readout,
  and announces the new picture's alt text to a screen reader (checked in Chromium's own
  accessibility tree).

The counts are printed at the end of each test (``pytest -s`` shows them live).
"""

from __future__ import annotations

import base64
import collections
import functools
import http.server
import json
import os
import re
import threading
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
HTML_DIR = Path(os.environ.get("BOOK_HTML_DIR", REPO / "_build" / "html"))
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic",
                 "--no-first-run"]
CONTROL = "div.pc-explore"  # the markup class emitted by perceptron_core.figures.sliders
SKIP_PARTS = {"_static", "_sources", "_images", "_sphinx_design_static", "jupyter_execute"}
# Sphinx's generated pages: in the accessibility and console checks, not in the page budget.
GENERATED = {"genindex.html", "search.html", "py-modindex.html"}
MODES = ("light", "dark")
# Anything else is off-site. data: and blob: URLs never reach the network.
LOCAL_URL = re.compile(r"^(http://127\.0\.0\.1[:/]|file:|data:|blob:|about:)")
MATHJAX_ENTRY = "_static/mathjax/startup.js"
# The site's _static/mathjax: the components the pages load and the font (3 MB), not the whole
# of MathJax (MathJax 3's folder was 24 MB, MathJax 4 with its fonts is 70 MB).
MATHJAX_MAX_BYTES = 4_000_000


def _pages(generated: bool = True) -> list[Path]:
    if not (HTML_DIR / "index.html").exists():
        pytest.fail(f"No built book at {HTML_DIR}: run `make book` first "
                    "(or point BOOK_HTML_DIR at a _build/html directory).")
    return sorted(p for p in HTML_DIR.glob("**/*.html")
                  if (generated or p.name not in GENERATED)
                  and not SKIP_PARTS.intersection(p.relative_to(HTML_DIR).parts))


def _rel(path: Path) -> str:
    return path.relative_to(HTML_DIR).as_posix()


def _redirect(path: Path) -> str | None:
    """Where a redirecting page (jupyter-book's index.html) sends the browser, if it is one."""
    m = re.search(r'http-equiv="refresh" content="0; url=([^"]+)"', path.read_text(encoding="utf-8"),
                  re.IGNORECASE)
    return m.group(1) if m else None


def _pages_with_controls() -> list[Path]:
    return [p for p in _pages() if 'class="pc-explore"' in p.read_text(encoding="utf-8")]


def _pages_with_math() -> list[Path]:
    return [p for p in _pages() if 'class="math' in p.read_text(encoding="utf-8")]


# ------------------------------------------------------------------- no browser needed


def test_book_has_static_controls_and_math():
    """Guard against the browser tests passing vacuously on a book without sliders or math."""
    assert _pages_with_controls(), (
        f"No static explore() control found in {HTML_DIR}; was the book built with "
        "book/_tools/sphinx_extension.py (PERCEPTRON_STATIC_WIDGETS=1)?")
    assert _pages_with_math(), f"No equations found in {HTML_DIR}"


def test_pages_load_nothing_off_site_and_mathjax_from_the_book():
    """What the browser tests see, read from the HTML: every script, stylesheet, image and icon
    is a local file of the build, and MathJax is the book's own MathJax 4, no more of it in the
    site than the pages load."""
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        rel = _rel(page)
        for tag, attr, url in re.findall(
                r'<(script|link|img|iframe|source)\b[^>]*?\b(src|href)="([^"]*)"', text):
            if tag == "link" and re.search(rf'href="{re.escape(url)}"[^>]*rel="(next|prev|'
                                           r'index|search|canonical)"', text):
                continue  # navigation between pages, not something the page loads
            assert not re.match(r"^(https?:)?//", url), f"{rel}: <{tag} {attr}> loads {url}"
            if not url.startswith(("data:", "#")) and url:
                target = (page.parent / url.split("#")[0].split("?")[0]).resolve()
                assert target.is_file(), f"{rel}: <{tag} {attr}={url!r}> is not in the build"
        if _redirect(page) is None:
            assert 'rel="icon"' in text, f"{rel}: declares no icon (browsers then ask /favicon.ico)"
        assert "THEBE_JS_URL" not in text, f"{rel}: sphinx-thebe's snippet is back"
        assert "fontawesome.js" not in text, f"{rel} loads Font Awesome's 1.5 MB script"
        # A chapter's run printed nothing to stderr (a warning on the page is noise to a reader;
        # a stale matplotlib font cache once put "findfont: ... not found" on every chapter).
        assert "output stderr" not in text, f"{rel} shows a cell's stderr output"
        if 'class="math' in text:
            assert MATHJAX_ENTRY in text, f"{rel} has math but does not load {MATHJAX_ENTRY}"
            assert "MathJax.js" not in text, f"{rel} still loads MathJax 2"
    assert (HTML_DIR / "favicon.ico").is_file(), "no /favicon.ico for pages that declare none"
    head = (HTML_DIR / MATHJAX_ENTRY).read_text(encoding="utf-8", errors="replace")
    assert re.search(r'="4\.\d+\.\d+"', head), "the book's MathJax is not MathJax 4"
    folder = sum(f.stat().st_size for f in (HTML_DIR / "_static" / "mathjax").rglob("*"))
    assert folder <= MATHJAX_MAX_BYTES, (
        f"_static/mathjax holds {folder / 1e6:.1f} MB: more of MathJax than the pages load")


# ------------------------------------------------------------------- browser fixtures


@pytest.fixture(scope="module")
def browser():
    reason = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        reason = "the playwright Python package is not installed"
    if reason is None and not CHROMIUM.exists():
        reason = f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM=)"
    if reason:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def base_url():
    handler = functools.partial(_QuietHandler, directory=str(HTML_DIR))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)  # port 0 = any free one
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output readable
        pass


class Visit:
    """One page in a fresh browser context, with everything it logs and asks for recorded.

    Nothing is filtered: every console error, uncaught exception and failed request counts.
    Every request to a host other than 127.0.0.1 is aborted before it leaves the machine, and
    counted as ``blocked``.
    """

    def __init__(self, browser, url: str, mode: str = "light"):
        self.url = url
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        if mode == "dark":
            # What the theme's switcher stores; the theme reads it before it paints.
            self.context.add_init_script(
                "localStorage.setItem('mode', 'dark'); localStorage.setItem('theme', 'dark');")
        self.errors: list[str] = []
        self.failed: list[str] = []
        self.blocked: list[str] = []
        self.context.route(lambda url: not LOCAL_URL.match(url), self._block)
        self.page = self.context.new_page()
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda exc: self._note(self.errors, f"uncaught: {exc}"))
        self.page.on("requestfailed", self._on_failed)
        self.page.on("response", lambda r: r.status >= 400 and self._note(
            self.failed, f"HTTP {r.status}: {r.url}"))
        self.page.goto(url, wait_until="load")
        target = _redirect(Path(url.split("://", 1)[1]) if url.startswith("file:") else
                           HTML_DIR / url.split("/", 3)[3]) if url.endswith(".html") else None
        if target is not None:
            # jupyter-book's index.html sends the browser on at once; check where it lands.
            self.page.wait_for_url(re.compile(re.escape(target) + "$"))
            self.page.wait_for_load_state("load")
        self.settle()
        if mode == "dark":
            theme = self.page.evaluate("document.documentElement.dataset.theme")
            assert theme == "dark", f"{url}: the dark theme did not apply ({theme!r})"

    @staticmethod
    def _note(where: list[str], what: str) -> None:
        where.append(what)

    def _block(self, route) -> None:
        self._note(self.blocked, route.request.url)
        route.abort("blockedbyclient")

    def _on_console(self, msg) -> None:
        if msg.type == "error":
            where = (msg.location or {}).get("url", "")
            self._note(self.errors, f"console: {msg.text} (at {where})")

    def _on_failed(self, request) -> None:
        if request.url not in self.blocked:
            self._note(self.failed, f"{request.failure}: {request.url}")

    def settle(self) -> None:
        """Wait for MathJax's first typesetting (it moves everything below each equation) and
        for what it loads on demand (TeX packages, fonts, the screen-reader MathML)."""
        self.page.evaluate("""() => (window.MathJax && MathJax.startup && MathJax.startup.promise)
                                   ? MathJax.startup.promise.then(() => document.fonts.ready)
                                   : document.fonts.ready""")
        self.page.wait_for_load_state("networkidle")

    def problems(self) -> list[str]:
        return self.errors + self.failed + [f"blocked off-site request: {u}" for u in self.blocked]

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def visit(browser):
    opened: list[Visit] = []

    def open_(url: str, mode: str = "light") -> Visit:
        v = Visit(browser, url, mode)
        opened.append(v)
        return v

    yield open_
    for v in opened:
        v.close()


def test_off_site_requests_are_blocked_and_counted(visit, base_url):
    """The guard itself: a request to another host never leaves the machine, and it counts."""
    v = visit(base_url + _rel(_pages_with_math()[0]))
    assert not v.problems(), v.problems()
    v.page.evaluate("""() => { new Image().src = 'https://cdn.example.org/font.png';
                               return fetch('http://localhost:9/x.js').catch(() => null); }""")
    v.page.wait_for_load_state("networkidle")
    assert sorted(v.blocked) == ["http://localhost:9/x.js", "https://cdn.example.org/font.png"]
    assert len(v.problems()) >= 2


# ------------------------------------------------------------------- checks on a loaded page

# Text nodes a reader sees as prose: not code, not scripts, not what MathJax already typeset.
_PROSE_TEXT = """() => {
  const skip = 'script,style,code,pre,textarea,mjx-container,.highlight,.pc-explore';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement.closest(skip)) out.push(n.textContent);
  }
  return out.join(' ');
}"""

# Raw TeX that MathJax should have replaced: \\( \\) \\[ \\] delimiters, an environment, or
# dollar math ($x$ or $$x$$) left in the prose.
RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\\begin\{|\$\$|\$[^$\s][^$]*\$")


def _check_math(visit: Visit) -> tuple[int, list[str]]:
    """Every equation Sphinx marked is typeset by MathJax 4, with MathML for screen readers."""
    page = visit.page
    found = page.evaluate("""() => ({
      mathjax: window.MathJax && MathJax.version,
      marked: document.querySelectorAll('.math').length,
      untypeset: [...document.querySelectorAll('.math')]
                   .filter(m => !m.querySelector('mjx-container')).map(m => m.textContent.slice(0, 60)),
      containers: document.querySelectorAll('mjx-container').length,
      assistive: document.querySelectorAll('mjx-container > mjx-assistive-mml > math').length,
      texErrors: [...document.querySelectorAll('mjx-merror')].map(e => e.getAttribute('data-mjx-error')),
    })""")
    problems = []
    if found["marked"]:
        if not str(found["mathjax"] or "").startswith("4."):
            problems.append(f"MathJax 4 not running (version {found['mathjax']!r})")
        if found["untypeset"]:
            problems.append(f"{len(found['untypeset'])} equations not typeset: {found['untypeset'][:3]}")
        if found["assistive"] != found["containers"]:
            problems.append(f"{found['containers'] - found['assistive']} of {found['containers']} "
                            "equations have no MathML for screen readers")
    if found["texErrors"]:
        problems.append(f"TeX errors: {found['texErrors'][:3]}")
    raw = RAW_TEX.findall(page.evaluate(_PROSE_TEXT))
    if raw:
        problems.append(f"raw TeX left in the text: {raw[:5]}")
    return found["containers"], problems


# ------------------------------------------------------------------- the static sliders


@functools.lru_cache(maxsize=64)
def _panels(data_text: str) -> list[dict]:
    return json.loads(data_text)["panels"]


def _expected_sum(data_text: str, panel: int, number: int, dark: bool) -> int:
    """The checksum of picture ``number`` of a panel, unpacked from the control's data as
    perceptron_core.figures.sliders packs it (a palette over a zlib stream of indices, rows of
    every picture interleaved), independently of the page's script."""
    pack = _panels(data_text)[panel]
    palette, stream = pack["dark"] if dark else pack["light"]
    stream = stream or pack["light"][1]  # a dark palette over the light stream
    rows = np.frombuffer(zlib.decompress(base64.b64decode(stream)), np.uint8).reshape(
        pack["h"], pack["n"], pack["w"])
    rgb = np.frombuffer(base64.b64decode(palette), np.uint8).reshape(-1, 3)[
        rows[:, number - pack["first"]]].reshape(-1, 3).astype(np.int64)
    weights = np.arange(len(rgb)) % 9973 + 1
    return int((rgb @ np.array([3, 5, 7]) * weights).sum() % 4294967291)


def _state(control) -> dict:
    """Slider indices, readouts, the pictures shown (their pixels' checksums) and how many of
    them are not the pictures the data say the sliders and theme must show."""
    state = _state_on_page(control)
    data_text = control.evaluate("r => r.querySelector('script.pc-explore-data').textContent")
    state["wrong"] = sum(_expected_sum(data_text, p, n, state["dark"]) != got
                         for p, (n, got) in enumerate(zip(state["numbers"], state["sums"])))
    return state


def _state_on_page(control) -> dict:
    return control.evaluate("""async root => {
      const data = JSON.parse(root.querySelector('script.pc-explore-data').textContent);
      const inputs = [...root.querySelectorAll('input.pc-explore-range')];
      const idx = inputs.map(i => parseInt(i.value, 10));
      let flat = 0;
      idx.forEach((i, k) => { flat = flat * data.labels[k].length + i; });
      // One picture per panel; the first carries the alt text of the whole figure. The
      // pictures are those drawn for the page's theme.
      const imgs = [...root.querySelectorAll('img.pc-explore-img')];
      await Promise.all(imgs.map(i => i.decode().catch(() => null)));  // a new src decodes
      const dark = document.documentElement.dataset.theme === 'dark';
      const frames = (dark ? data.dark : data.index)[flat];
      return {idx, flat, frame: (dark ? 'dark ' : 'light ') + frames.join(' '),
              src: imgs.map(i => i.src).join(' '),
              id: root.id, dark, numbers: frames,
              // What each picture shows, read back from the screen's decoded pixels: a
              // checksum the test compares with the data unpacked in Python (_expected_sum).
              sums: imgs.map(img => {
                const c = document.createElement('canvas');
                c.width = img.naturalWidth; c.height = img.naturalHeight;
                const g = c.getContext('2d');
                g.drawImage(img, 0, 0);
                const d = g.getImageData(0, 0, c.width, c.height).data;
                let s = 0;
                for (let i = 0, j = 0; i < d.length; i += 4, j++) {
                  s = (s + (3 * d[i] + 5 * d[i + 1] + 7 * d[i + 2]) * (j % 9973 + 1)) % 4294967291;
                }
                return s;
              }),
              broken: imgs.filter(i => !i.complete || i.naturalWidth === 0).length,
              alt: imgs[0].alt, otherAlts: imgs.slice(1).map(i => i.alt),
              expectedAlt: data.alts[flat],
              labels: data.labels,
              status: root.querySelector('.pc-explore-status').textContent,
              readouts: [...root.querySelectorAll('output.pc-explore-value')].map(o => o.textContent),
              valuetexts: inputs.map(i => i.getAttribute('aria-valuetext'))};
    }""")


def _check_consistent(state: dict, seen: dict[int, str]) -> None:
    """Readouts show the labels of the slider positions, and the image is the right frame."""
    expected = [state["labels"][k][i] for k, i in enumerate(state["idx"])]
    assert state["readouts"] == expected
    assert state["valuetexts"] == expected
    assert state["alt"] == state["expectedAlt"] and state["alt"].strip()
    assert all(alt == "" for alt in state["otherAlts"]), "a panel after the first is not decorative"
    assert state["wrong"] == 0, f"{state['wrong']} pictures are not those of the sliders and theme"
    assert state["broken"] == 0, f"{state['broken']} pictures do not decode"
    # Same frame number <=> same src; a different frame must have changed the src.
    for frame, src in seen.items():
        assert (src == state["src"]) == (frame == state["frame"]), "image does not match sliders"
    seen[state["frame"]] = state["src"]


def _ax(visit: Visit, selector: str) -> dict:
    """The node as Chromium's accessibility tree, which screen readers read, exposes it."""
    cdp = visit.context.new_cdp_session(visit.page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        assert node, f"no element matches {selector}"
        ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})
    finally:
        cdp.detach()
    n = ax["nodes"][0]
    return {"ignored": n.get("ignored", False), "role": n.get("role", {}).get("value"),
            "name": n.get("name", {}).get("value", ""),
            **{p["name"]: p["value"].get("value") for p in n.get("properties", [])}}


def _check_screen_reader(visit: Visit, control, state: dict) -> None:
    """After a move, a screen reader gets the new picture: as the image's accessible name, and
    spoken through the polite live region; each slider keeps its label and live readout."""
    cid = control.get_attribute("id")
    img = _ax(visit, f"#{cid} img.pc-explore-img")
    assert img["role"] == "image" and img["name"] == state["alt"], img
    # The other panels' pictures are part of the same figure: decorative, not read twice.
    for k in range(2, control.locator("img.pc-explore-img").count() + 1):
        other = _ax(visit, f"#{cid} img.pc-explore-img:nth-of-type({k})")
        assert other["ignored"] or other["role"] in ("none", "presentation"), other
    status = _ax(visit, f"#{cid} .pc-explore-status")
    assert not status["ignored"] and status.get("live") == "polite" and status.get("atomic"), status
    assert state["status"] == state["alt"], "the live region did not announce the new picture"
    for k in range(len(state["idx"])):
        slider = _ax(visit, f"#{cid}-{k}")
        assert slider["role"] == "slider" and slider["name"].strip(), f"slider {k} has no label"
        readout = _ax(visit, f'#{cid} output[for="{cid}-{k}"]')
        assert readout.get("live") == "polite", f"readout {k} is not a live region"


def _exercise_control(visit: Visit, control) -> None:
    page = visit.page
    seen: dict[int, str] = {}
    start = _state(control)
    _check_consistent(start, seen)
    assert start["status"] == "", "the live region speaks before anyone moved a slider"
    n_frames = control.evaluate(
        "r => JSON.parse(r.querySelector('script.pc-explore-data').textContent).frames.length")
    srcs = {start["src"]}
    inputs = control.locator("input.pc-explore-range")
    for k in range(inputs.count()):
        slider = inputs.nth(k)
        slider.scroll_into_view_if_needed()
        n = len(start["labels"][k])
        if n < 2:
            continue
        box = slider.bounding_box()
        y = box["y"] + box["height"] / 2

        # Mouse: click on the far side of the track from the current thumb.
        before = _state(control)
        frac = 0.9 if before["idx"][k] < (n - 1) / 2 else 0.1
        page.mouse.click(box["x"] + frac * box["width"], y)
        after = _state(control)
        assert after["idx"][k] != before["idx"][k], f"click did not move slider {k}"
        _check_consistent(after, seen)
        srcs.add(after["src"])

        # Mouse: drag the thumb back across the track (measured again: nothing may have moved,
        # but a stale box would make a failure here look like a broken control).
        box = slider.bounding_box()
        y = box["y"] + box["height"] / 2
        x_from = box["x"] + frac * box["width"]
        page.mouse.move(x_from, y)
        page.mouse.down()
        page.mouse.move(box["x"] + (1 - frac) * box["width"], y, steps=5)
        page.mouse.up()
        dragged = _state(control)
        assert dragged["idx"][k] != after["idx"][k], f"drag did not move slider {k}"
        _check_consistent(dragged, seen)
        srcs.add(dragged["src"])

        # Keyboard: End, ArrowLeft, Home, ArrowRight.
        slider.focus()
        for key, want in [("End", n - 1), ("ArrowLeft", n - 2), ("Home", 0), ("ArrowRight", 1)]:
            page.keyboard.press(key)
            st = _state(control)
            assert st["idx"][k] == want, f"{key} left slider {k} at {st['idx'][k]}, not {want}"
            _check_consistent(st, seen)
            srcs.add(st["src"])
        _check_screen_reader(visit, control, st)
    if n_frames > 1:
        assert len(srcs) > 1, "moving the sliders never changed the picture"


def _check_controls(visit: Visit, rel: str) -> int:
    """Every static control on the page works by mouse and keyboard; returns how many."""
    controls = visit.page.locator(CONTROL)
    ids = visit.page.eval_on_selector_all("[id]", "els => els.map(e => e.id)")
    dupes = {i for i in ids if ids.count(i) > 1 and i.startswith("pc-explore")}
    assert not dupes, f"{rel}: duplicate ids {dupes}"
    for c in range(controls.count()):
        control = controls.nth(c)
        assert control.get_attribute("data-pc-ready") == "1", f"{rel}: control {c} not wired"
        _exercise_control(visit, control)
    return controls.count()


# ------------------------------------------------------------------- every page, every way


def _report(title: str, lines: list[str]) -> None:
    print(f"\n== {title}\n" + "\n".join(lines), flush=True)


_DARK = """async () => {
  // The theme's own switch, as a reader clicks it: auto -> dark -> light -> ...
  for (let i = 0; i < 3 && document.documentElement.dataset.theme !== 'dark'; i++) {
    document.querySelector('.theme-switch-button').click();
  }
  // Two frames for the new styles to apply, then any transition they start runs out.
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  await Promise.all(document.getAnimations().map(a => a.finished));
  return [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor];
}"""


def _page_names() -> list[str]:
    """The pages, by path in the build, for parametrizing (read when the tests are collected:
    without a build, one name that fails with the reason when run)."""
    if not (HTML_DIR / "index.html").exists():
        return ["(no built book)"]
    return [_rel(p) for p in _pages()]


# Every rule axe-core runs by default, and WCAG 2.2 AA's too: its one rule there, target-size
# (2.5.8: a control at least 24x24 CSS px, or that far from the next), ships disabled.
AXE_OPTIONS = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}


@pytest.mark.parametrize("rel", _page_names())
def test_page_over_http(rel, browser, base_url):
    """Over http://127.0.0.1, each page once: no console error, no failed or off-site request,
    all math typeset, and 0 serious or critical axe-core violations (every rule it has, WCAG 2.2's
    target size too), in the
    light theme and then in the dark one (switched with the theme's button); then every static
    slider on the page, moved by mouse and keyboard."""
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.fail("axe-playwright-python is not installed (it is in requirements.txt)")
    path = HTML_DIR / rel
    assert path in _pages()
    t0 = time.perf_counter()
    problems: list[str] = []
    axe_line = []
    axe_own_failures = 0
    v = Visit(browser, base_url + rel)
    try:
        n_math, problems = _check_math(v)
        # The icon the page declares is served (headless Chromium does not fetch it).
        icon = v.page.evaluate("""() => { const l = document.querySelector('link[rel~=icon]');
            return l ? fetch(l.href).then(r => l.href + ' ' + r.status) : null; }""")
        if icon is not None and not icon.endswith(" 200"):
            problems.append(f"icon {icon}")
        # The theme's icons (menu, search, theme switch) are drawn from Font Awesome's web font
        # now that its script is gone: each shows a glyph of that font.
        blank = v.page.evaluate("""() => document.fonts.ready.then(() => [...document
            .querySelectorAll('.fa-solid, .fas')].filter(i => i.offsetParent !== null
              && !(getComputedStyle(i, '::before').fontFamily.includes('Font Awesome')
                   && i.getBoundingClientRect().width > 0
                   && document.fonts.check('900 16px "Font Awesome 6 Free"')))
            .map(i => i.className))""")
        if blank:
            problems.append(f"icons without their glyph: {blank}")
        # At 1280 x 900 the sidebar holds the search box and the logo, whole: no header strip
        # above it repeats the search box, and it opens at its top (book/_static/sidebar.js).
        header, logo = v.page.evaluate("""() => [document.querySelector('#pst-header')
            .offsetHeight, (document.querySelector('.navbar-brand.logo img') || {
              getBoundingClientRect: () => ({top: 0})}).getBoundingClientRect().top]""")
        if header or logo < 0:
            problems.append(f"header strip {header} px high, logo's top at {logo} px")
        for mode in MODES:
            if mode == "dark":
                theme, background = v.page.evaluate(_DARK)
                rgb = [int(c) for c in re.findall(r"\d+", background)[:3]]
                if theme != "dark" or sum(rgb) > 3 * 64:  # axe must see a dark page
                    problems.append(f"the theme button did not give the dark theme ({theme!r}, "
                                    f"background {background})")
                    continue
            n_failed, n_errors = len(v.failed), len(v.errors)
            results = Axe().run(v.page, options=AXE_OPTIONS).response
            # axe-core's own requests are not the page's: its CSSOM preload resolves the
            # theme's `@import "../basic.css"` against the page, not the stylesheet (axe-core
            # issue #5268), and asks for a file that is not there (a failed request and its
            # console line). Counted apart.
            axe_own_failures += len(v.failed) - n_failed
            del v.failed[n_failed:], v.errors[n_errors:]
            impacts = collections.Counter()
            for rule in results["violations"]:
                impacts[f"{rule['id']} ({rule['impact']})"] += len(rule["nodes"])
                if rule["impact"] in ("serious", "critical"):
                    problems += [f"{mode}: axe {rule['id']} ({rule['impact']}): {node['target']} "
                                 f"{node['failureSummary'][:200]}" for node in rule["nodes"]]
            axe_line.append(f"{mode} {dict(impacts) or 0}")
        n_controls = 0
        if 'class="pc-explore"' in path.read_text(encoding="utf-8"):
            try:
                n_controls = _check_controls(v, rel)
            except AssertionError as exc:
                problems.append(f"sliders: {exc}")
            else:
                if not n_controls:
                    problems.append("control markup present but no control rendered")
        # Everything the page logged or asked for, through both themes and the slider moves.
        problems += v.problems()
        _report(f"{rel} over http", [
            f"math {n_math}  sliders {n_controls}  console {len(v.errors)}  failed {len(v.failed)}  "
            f"blocked {len(v.blocked)}  axe-core violations: {'; '.join(axe_line)}  (axe-core's "
            f"own failed requests, not the page's: {axe_own_failures}); "
            f"{time.perf_counter() - t0:.1f} s"])
    finally:
        v.close()
    assert not problems, f"{rel}:\n" + "\n".join(problems)


def test_dark_theme_applies_as_the_page_loads(visit, base_url):
    """A reader who chose the dark theme gets it as a page loads (the theme reads the stored
    choice before it paints; Visit checks it), with a clean console. One chapter with sliders
    stands for all: every page comes from the same template and scripts."""
    v = visit(base_url + _rel(_pages_with_controls()[0]), mode="dark")
    assert not v.problems(), v.problems()


_SEEN_BACKGROUND = """async () => {
  // The colour of every picture of every control in its top left corner, as the page shows it
  // (drawn on a canvas at the size the page shows it).
  const out = [];
  for (const img of document.querySelectorAll('div.pc-explore img.pc-explore-img')) {
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    out.push([...g.getImageData(1, 1, 1, 1).data.slice(0, 3)]);
  }
  return out;
}"""


def test_figures_follow_the_theme(visit, base_url):
    """The sliders' figures are drawn for each theme: on a dark page the pictures have the dark
    page's own background (the body's, which perceptron_core.figures.theme.PAPER must match),
    and they change back and forth with the theme's button, with no dimming filter on them."""
    v = visit(base_url + _rel(_pages_with_controls()[0]))
    light = v.page.evaluate(_SEEN_BACKGROUND)
    def near(rgb, want):  # the palette of a compressed picture may move a colour a little
        return all(abs(a - b) <= 3 for a, b in zip(rgb, want))

    assert light and all(near(rgb, (255, 255, 255)) for rgb in light), light
    theme, background = v.page.evaluate(_DARK)
    assert theme == "dark"
    page = [int(c) for c in re.findall(r"\d+", background)[:3]]
    assert sum(page) < 3 * 64, background
    dark = v.page.evaluate(_SEEN_BACKGROUND)
    assert all(near(rgb, page) for rgb in dark), (page, dark)
    styles = v.page.evaluate("""() => [...document.querySelectorAll('img.pc-explore-img')]
        .map(i => [getComputedStyle(i).filter, getComputedStyle(i).backgroundColor,
                   getComputedStyle(i).paddingLeft])""")
    assert all(s == ["none", "rgba(0, 0, 0, 0)", "0px"] for s in styles), styles[:3]
    for control in range(v.page.locator(CONTROL).count()):
        _check_consistent(_state(v.page.locator(CONTROL).nth(control)), {})
    v.page.evaluate("document.querySelector('.theme-switch-button').click()")  # dark -> light
    v.page.wait_for_function("document.documentElement.dataset.theme === 'light'")
    assert v.page.evaluate(_SEEN_BACKGROUND) == light
    assert not v.problems(), v.problems()


def test_every_page_works_from_file_url(browser):
    """Opened from disk (file://), with no server: the same clean console, no failed or off-site
    request, the math typeset, and every slider moves by keyboard and announces its picture."""
    t0 = time.perf_counter()
    problems: list[str] = []
    lines: list[str] = []
    n_controls = 0
    for path in _pages():
        rel = _rel(path)
        v = Visit(browser, path.as_uri())
        try:
            n_math, math_problems = _check_math(v)
            controls = v.page.locator(CONTROL)
            for c in range(controls.count()):
                control = controls.nth(c)
                assert control.get_attribute("data-pc-ready") == "1", f"{rel}: control {c}"
                slider = control.locator("input.pc-explore-range").first
                before = _state(control)
                last = len(before["labels"][0]) - 1
                key, want = ("Home", 0) if before["idx"][0] == last else ("End", last)
                slider.focus()
                v.page.keyboard.press(key)
                after = _state(control)
                assert after["idx"][0] == want != before["idx"][0], f"{rel}: {key} did nothing"
                _check_consistent(after, {before["frame"]: before["src"]})
                _check_screen_reader(v, control, after)
                n_controls += 1
            problems += [f"file {rel}: {p}" for p in v.problems() + math_problems]
            lines.append(f"file  {rel:28} math {n_math:4}  sliders {controls.count()}  "
                         f"console {len(v.errors)}  failed {len(v.failed)}  "
                         f"blocked {len(v.blocked)}")
        finally:
            v.close()
    lines.append(f"{len(lines)} pages from file://, {n_controls} controls moved; "
                 f"{time.perf_counter() - t0:.1f} s")
    _report("pages from file://", lines)
    assert n_controls > 0
    assert not problems, "\n".join(problems)
