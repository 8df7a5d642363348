"""The live sliders in the real clients students use: JupyterLab 4 and Notebook 7.

A private ``jupyter lab`` server (127.0.0.1, a free port, a token; config, data, runtime,
workspace and IPython folders in a temporary directory; copies of the chapters, so nothing is
written into ``book/``) runs every chapter in headless Chromium. For every ``explore`` figure it
checks that the picture renders (no widget error box, no traceback), that its accessible name is
the frame's alt text, and that every control, moved twice with the keyboard, shows a new picture,
decoded and at the same height on the first frame it appears (no flicker), within 2 s. It prints
the p95 from key press to the new picture on the screen (the goal: under 150 ms on a quiet
machine; a kernel draws one frame in 30-100 ms, and the steps next to the shown frame ahead).

Part of ``make test`` through the ``browser`` marker; the ``latency`` marker makes it run with no
other test beside it, so that the latencies are the client's and the kernel's alone. Under
``CI=true`` a missing Chromium, Playwright, JupyterLab or Notebook fails the test instead of
skipping it.
"""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

import pytest

from perceptron_core.figures.sliders import STATIC_ENV_VAR
from chapters import chapter_paths  # book/_tools (tests/conftest.py puts it on sys.path)

pytestmark = [pytest.mark.browser, pytest.mark.latency]

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
MAX_LATENCY_MS = 2000  # every move must show its new picture within this
SERVER_START_S = 120
RUN_ALL_S = 240  # one chapter, on a loaded 2-core machine
EXPLORE_CALL = re.compile(r"(?<![\w])explore\(")  # a call, not the name in an import list
WIDGET_ERRORS = re.compile(r"Error displaying widget|javascript error|Failed to create view",
                           re.I)
FIGURE = ".pc-explore-live"  # the live figure's widget box


def _missing(reason: str) -> None:
    """CI must not pass by skipping the real-client test."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@dataclass
class Server:
    url: str
    token: str
    root: Path
    log: Path
    notebooks: list[Path]

    def page_url(self, prefix: str, name: str) -> str:
        # ?reset: start from an empty workspace, not whatever a previous page left open.
        return f"{self.url}/{prefix}/{name}?reset&token={self.token}"


@pytest.fixture(scope="module")
def server():
    for module in ("jupyterlab", "notebook", "psutil"):
        if find_spec(module) is None:
            _missing(f"the {module} package is not installed (pip install -r requirements.txt)")
    import psutil

    tmp = Path(tempfile.mkdtemp(prefix="pc-jupyterlab-"))
    dirs = {name: tmp / name for name in ("notebooks", "config", "data", "runtime",
                                          "workspaces", "ipython")}
    # No news feed or update check: the machine may be offline, and a toast could cover
    # the controls.
    settings = dirs["config"] / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    for d in dirs.values():
        d.mkdir(exist_ok=True)
    notebooks = [Path(shutil.copy2(nb, dirs["notebooks"] / nb.name)) for nb in chapter_paths()]
    env = {k: v for k, v in os.environ.items() if k != STATIC_ENV_VAR}  # live widgets
    env.update(JUPYTER_CONFIG_DIR=str(dirs["config"]), JUPYTER_DATA_DIR=str(dirs["data"]),
               JUPYTER_RUNTIME_DIR=str(dirs["runtime"]), IPYTHONDIR=str(dirs["ipython"]),
               JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url, token, log = f"http://127.0.0.1:{port}", secrets.token_hex(16), tmp / "server.log"
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1",
           f"--port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={dirs['notebooks']}", "--allow-root"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=env, cwd=dirs["notebooks"], stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:  # until it answers, with our token
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"jupyter lab did not start:\n{log.read_text()[-3000:]}")
                try:  # a moment for the server to come up, cut short if it exits
                    proc.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    pass
        yield Server(url, token, dirs["notebooks"], log, notebooks)
    finally:
        # The server shuts its kernels down on SIGTERM; kernels run in sessions of their own,
        # which the group signal does not reach, so any left are ended by their process ids.
        children = psutil.Process(proc.pid).children(recursive=True) if proc.poll() is None \
            else []
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        for child in psutil.wait_procs(children, timeout=10)[1]:
            child.kill()
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    if find_spec("playwright") is None:
        _missing("the playwright package is not installed (pip install -r requirements.txt)")
    if not CHROMIUM.exists():
        _missing(f"Chromium not found at {CHROMIUM} (make chromium, or set CHROMIUM=)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def open_notebook(page, server: Server, prefix: str, name: str) -> None:
    """Open the notebook ``name`` in ``page``, in the interface at ``prefix``, with every request
    off 127.0.0.1 aborted, and wait until its kernel has started and is idle."""
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1)"), lambda route: route.abort())
    page.goto(server.page_url(prefix, name))
    page.wait_for_function(
        """() => {
          const k = document.querySelector('.jp-KernelName');
          const i = document.querySelector('.jp-Notebook-ExecutionIndicator');
          return k && i && k.innerText.trim() && !/No Kernel/.test(k.innerText)
                 && i.dataset.status === 'idle';
        }""", timeout=SERVER_START_S * 1000)


def _run_all(browser, server: Server, prefix: str, nb: Path):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    open_notebook(page, server, prefix, nb.name)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    return page


def _wait_finished(page) -> None:
    """Every code cell has run (an error leaves the later prompts empty) and the kernel idles."""
    page.wait_for_function(
        """() => {
          const ps = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
            .map(e => e.textContent);
          const i = document.querySelector('.jp-Notebook-ExecutionIndicator');
          return ps.some(p => /\\[\\d+\\]/.test(p)) && !ps.some(p => /\\[\\*\\]/.test(p))
                 && i && i.dataset.status === 'idle';
        }""", timeout=RUN_ALL_S * 1000, polling=250)


def _problems(page, nb: Path) -> list[str]:
    """Cells not run, tracebacks and widget error boxes anywhere in the notebook."""
    cells = page.evaluate("""() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')]
      .map(c => [(c.querySelector('.jp-InputPrompt') || {}).textContent || '',
                 [...c.querySelectorAll('.jp-OutputArea-output')].map(o => o.innerText || '')
                   .join('\\n')])""")
    return [f"{nb.name} code cell {i}: " + ("not run" if not re.search(r"\[\d+\]", prompt)
                                              else out[:400])
            for i, (prompt, out) in enumerate(cells)
            if not re.search(r"\[\d+\]", prompt) or "Traceback (most recent" in out
            or WIDGET_ERRORS.search(out)]


# Stamps the press (keydown) or release (pointerup), and each animation frame on which the
# figure shows a new picture: is it decoded, and is the figure as tall as before (if not, the
# reader sees a blank or a jump)?
_PROBE = """(root, trigger) => {
  let src = root.querySelector('img.pc-explore-live-img').getAttribute('src');
  const height = root.getBoundingClientRect().height;
  const probe = window.__pcProbe = {t0: null, changes: []};
  document.addEventListener(trigger, () => { probe.t0 = performance.now(); },
                            {capture: true, once: true});
  new MutationObserver(() => requestAnimationFrame(() => {  // the frame the reader sees next
    const img = root.querySelector('img.pc-explore-live-img');
    if (!img || img.getAttribute('src') === src) return;
    src = img.getAttribute('src');
    probe.changes.push({t: performance.now(), alt: img.alt,
                        decoded: img.complete && img.naturalWidth > 0,
                        jumped: Math.abs(root.getBoundingClientRect().height - height) >= 1});
  })).observe(root, {childList: true, subtree: true, attributes: true});
}"""


def _move(page, cell, control, by_mouse: bool) -> dict | None:
    """Move ``control`` one step (a key) or across its track (a drag) away from the end it sits
    at; the probe once the new picture is on the screen (after a drag: once it has stayed put
    for 400 ms, since a slider may follow the hand), or None after MAX_LATENCY_MS."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    control.scroll_into_view_if_needed()
    # On the cell, which JupyterLab keeps, not on the widget's view, which it may render anew.
    cell.evaluate(_PROBE, "pointerup" if by_mouse else "keydown")
    base = control.evaluate("h => { const b = h.closest('.noUi-base').getBoundingClientRect();"
                            " const r = h.getBoundingClientRect();"
                            " return [b.left, b.width, r.left + r.width / 2, r.top + r.height / 2]; }")
    at_right = base[2] > base[0] + base[1] / 2
    if by_mouse:
        page.mouse.move(base[2], base[3])
        page.mouse.down()
        page.mouse.move(base[0] + 2 if at_right else base[0] + base[1] - 2, base[3], steps=8)
        page.mouse.up()
    else:
        control.focus()
        page.keyboard.press("ArrowLeft" if at_right else "ArrowRight")
    try:
        page.wait_for_function(
            """settle => { const p = window.__pcProbe, last = p.changes[p.changes.length - 1];
                           return p.t0 !== null && last && (settle ? performance.now() - last.t
                                                            > settle : last.t > p.t0); }""",
            arg=400 if by_mouse else 0, timeout=MAX_LATENCY_MS * 2, polling="raf")
    except PlaywrightTimeout:
        return None
    return page.evaluate("() => window.__pcProbe")


def _check(browser, server: Server, prefix: str, notebooks: list[Path], by_mouse=False):
    """Start every notebook (their kernels run side by side), then check them one by one with
    the other kernels idle. Returns the errors, the latencies and the number of figures."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    pages = [(nb, _run_all(browser, server, prefix.format(stem=nb.stem), nb)) for nb in notebooks]
    errors, latencies, figures = [], [], 0
    for nb, page in pages:
        _wait_finished(page)
        page.bring_to_front()  # animation frames (the probe's clock) run in the front page
        errors += _problems(page, nb)
        cells = [i for i, c in enumerate(json.loads(nb.read_text())["cells"])
                 if c["cell_type"] == "code" and EXPLORE_CALL.search(
                     "\n".join(line.split("#")[0] for line in "".join(c["source"]).splitlines()))]
        for index in cells:
            figures += 1
            where = f"{nb.name} cell {index}"
            cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
            cell.scroll_into_view_if_needed()  # JupyterLab renders the cells in view
            figure = cell.locator(FIGURE).first
            try:
                figure.wait_for(timeout=10_000)  # widget views render after the kernel idles
            except PlaywrightTimeout:
                errors.append(f"{where}: no live figure; the cell shows "
                              f"{cell.inner_text()[-300:]!r}")
                continue
            img = figure.locator("img.pc-explore-live-img")
            if figure.get_by_role("img", name=img.get_attribute("alt"), exact=True).count() != 1:
                errors.append(f"{where}: the picture's accessible name is not its alt text")
            controls = figure.locator(".noUi-handle[role=slider]")
            for k in range(controls.count()):
                for move in (1, 2):
                    probe = _move(page, cell, controls.nth(k), by_mouse)
                    here = f"{where} control {k} move {move}"
                    if probe is None:
                        errors.append(f"{here}: no new picture within {MAX_LATENCY_MS} ms")
                        continue
                    last = probe["changes"][-1]  # a drag's last picture may come before the release
                    latencies.append(max(last["t"] - probe["t0"], 0.0))
                    if any(not c["decoded"] or c["jumped"] for c in probe["changes"]):
                        errors.append(f"{here}: a new picture flickered {probe['changes']}")
                    if figure.get_by_role("img", name=last["alt"], exact=True).count() != 1:
                        errors.append(f"{here}: the new picture is not named by its alt text")
        errors += [e for e in _problems(page, nb) if "not run" not in e]
        page.close()
    return errors, latencies, figures


def _p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, math.ceil(0.95 * len(xs)) - 1)] if xs else float("nan")


def test_every_chapter_in_jupyterlab(browser, server):
    """Every explore figure of every chapter renders and follows its controls (keyboard)."""
    start = time.monotonic()
    errors, latencies, figures = _check(browser, server, "lab/workspaces/pc-{stem}/tree",
                                        server.notebooks)
    print(f"\nJupyterLab: {figures} figures, {len(latencies)} moves; key press -> new picture "
          f"p95 {_p95(latencies):.0f} ms, median "
          f"{sorted(latencies)[len(latencies) // 2] if latencies else math.nan:.0f} ms, max {max(latencies, default=0):.0f} ms; load {os.getloadavg()[0]:.2f} "
          f"[{time.monotonic() - start:.0f} s]")
    assert figures, "no explore figure found in any chapter"
    assert not errors, "\n".join(errors)


def test_one_chapter_in_notebook7(browser, server):
    """The same checks in the Notebook 7 interface, dragging the controls with the mouse."""
    nb = next((nb for nb in server.notebooks if nb.name == "first_look.ipynb"),
              server.notebooks[0])
    errors, latencies, figures = _check(browser, server, "notebooks", [nb], by_mouse=True)
    print(f"\nNotebook 7: {figures} figures; mouse release -> new picture p95 "
          f"{_p95(latencies):.0f} ms")
    assert figures and not errors, "\n".join(errors)
