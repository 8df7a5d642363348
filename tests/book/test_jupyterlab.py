"""The live sliders in the real clients students use: JupyterLab 4 and Notebook 7.

A private ``jupyter lab`` server (127.0.0.1, a free port, a token; config, data, runtime,
workspace and IPython folders in a temporary directory; copies of the chapters, so nothing is
written into ``book/``) runs every chapter in headless Chromium. For every ``explore`` figure it
checks that the picture renders (no widget error box, no traceback), that its accessible name is
the frame's alt text, and that every control, moved twice, changes the picture within 2 s each
time. It prints the counts and the p95 from key press (or mouse release) to the new picture,
over all moves and separately over the first and the second move of each control.

Part of ``make test`` through the ``browser`` marker; the ``latency`` marker makes it run with
no other test beside it, so that the latencies are the client's and the kernel's alone. Under
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
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path

import pytest

from perceptron_core.figures.sliders import STATIC_ENV_VAR
from chapters import chapter_paths  # book/_tools (tests/conftest.py puts it on sys.path)

pytestmark = [pytest.mark.browser, pytest.mark.latency]

REPO = Path(__file__).resolve().parents[2]
BOOK = REPO / "book"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: The chapter also driven in the Notebook 7 interface (falls back to the first chapter).
NOTEBOOK7_CHAPTER = "first_look.ipynb"
#: Every control move must show its new picture within this time.
MAX_LATENCY_MS = 2000
SERVER_START_S = 120
RUN_ALL_S = 240  # one chapter, on a loaded 2-core machine
#: A call of explore(...) or pc.explore(...), not the name in an import list.
EXPLORE_CALL = re.compile(r"(?<![\w])explore\(")
WIDGET_ERRORS = re.compile(r"Error displaying widget|javascript error|Failed to create view",
                           re.I)


def _missing(reason: str) -> None:
    """CI must not pass by skipping the real-client test."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(reason)
    pytest.skip(reason)


# --------------------------------------------------------------------------- the server


@dataclass
class Server:
    url: str
    token: str
    root: Path
    log: Path
    notebooks: list[Path] = field(default_factory=list)

    def page_url(self, prefix: str, name: str) -> str:
        # ?reset: start from an empty workspace, not whatever a previous page left open.
        return f"{self.url}/{prefix}/{name}?reset&token={self.token}"


#: The module name of the extension that tells the test the server listens (see ``server``).
READY_PROBE = "pc_ready_probe"
READY_LINE = f"{READY_PROBE}: listening on port"
READY_PROBE_SOURCE = f'''"""Prints one line when the Jupyter server listens: a start hook runs in its event loop."""


def _jupyter_server_extension_points():
    return [{{"module": "{READY_PROBE}"}}]


def _load_jupyter_server_extension(serverapp):
    pass


async def _start_jupyter_server_extension(serverapp):
    print("{READY_LINE}", serverapp.port, flush=True)
'''


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM the server's process group (the server shuts its kernels down), then make sure:
    kernels run in sessions of their own, which the group signal does not reach."""
    import psutil

    try:
        children = psutil.Process(proc.pid).children(recursive=True)
    except psutil.Error:
        children = []
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)
    # psutil.Process objects refuse to signal a recycled PID.
    for sig in ("terminate", "kill"):
        alive = [c for c in children if c.is_running()]
        for child in alive:
            try:
                getattr(child, sig)()
            except psutil.NoSuchProcess:
                pass
        children = psutil.wait_procs(alive, timeout=10)[1]


@pytest.fixture(scope="module")
def server():
    for module in ("jupyterlab", "notebook", "psutil"):
        if find_spec(module) is None:
            _missing(f"the {module} package is not installed (pip install -r requirements.txt)")
    chapters = chapter_paths()
    assert chapters, f"no chapter notebooks in {BOOK}"
    tmp = Path(tempfile.mkdtemp(prefix="pc-jupyterlab-"))
    proc = reader = None
    try:
        root = tmp / "notebooks"
        root.mkdir()
        for nb in chapters:
            shutil.copy2(nb, root / nb.name)
        dirs = {name: tmp / name for name in ("config", "data", "runtime", "workspaces",
                                              "ipython")}
        for d in dirs.values():
            d.mkdir()
        # No news feed or update check: the machine may be offline, and a toast could cover
        # the controls.
        settings = dirs["config"] / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        env = {k: v for k, v in os.environ.items() if k != STATIC_ENV_VAR}  # live widgets
        env.update(JUPYTER_CONFIG_DIR=str(dirs["config"]), JUPYTER_DATA_DIR=str(dirs["data"]),
                   JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
                   JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
                   IPYTHONDIR=str(dirs["ipython"]),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(REPO),
                                                            env.get("PYTHONPATH")])))
        port, token = _free_port(), secrets.token_hex(16)
        cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1",
               f"--port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               f"--LabApp.workspaces_dir={dirs['workspaces']}"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:  # CI containers often run as root
            cmd.append("--allow-root")
        # The server says when it listens: it awaits its extensions' start hooks once its event
        # loop runs, after the loop's first callback has bound the port. A probe extension of
        # ours prints a line there, which a thread reading the server's output waits for.
        probe = tmp / "probe"
        probe.mkdir()
        (probe / f"{READY_PROBE}.py").write_text(READY_PROBE_SOURCE)
        env["PYTHONPATH"] = os.pathsep.join([str(probe), env["PYTHONPATH"]])
        (dirs["config"] / "jupyter_server_config.json").write_text(
            json.dumps({"ServerApp": {"jpserver_extensions": {READY_PROBE: True}}}))
        log = tmp / "server.log"
        proc = subprocess.Popen(cmd, env=env, cwd=root, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        listening = threading.Event()
        ended = threading.Event()

        def copy_output() -> None:
            """Copy the server's output into its log, and say when it listens or has ended."""
            with open(log, "wb") as out:
                for line in proc.stdout:  # until the server's output closes
                    out.write(line)
                    out.flush()
                    if READY_LINE.encode() in line:  # not the server's own lines naming the probe
                        listening.set()
            ended.set()
            listening.set()

        reader = threading.Thread(target=copy_output, name="jupyter-lab-output", daemon=True)
        reader.start()
        if not listening.wait(SERVER_START_S):
            pytest.fail(f"jupyter lab did not listen within {SERVER_START_S} s:\n"
                        f"{log.read_text(errors='replace')[-3000:]}")
        if ended.is_set():
            pytest.fail(f"jupyter lab exited with {proc.wait(timeout=30)}:\n"
                        f"{log.read_text(errors='replace')[-3000:]}")
        url = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=30):
            pass  # it listens, and the token lets us in
        yield Server(url, token, root, log, chapters)
    finally:
        if proc is not None:
            _stop(proc)
            if reader is not None:
                reader.join(timeout=30)  # the output closed with the server
            proc.stdout.close()
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    if find_spec("playwright") is None:
        _missing("the playwright package is not installed (pip install -r requirements.txt)")
    if not CHROMIUM.exists():
        _missing(f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM=)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


# --------------------------------------------------------------------------- notebooks


def _explore_cells(nb: Path) -> list[int]:
    """Indices of the code cells that show an explore figure."""
    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    found = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        code = "\n".join(line.split("#")[0] for line in "".join(cell["source"]).splitlines())
        if EXPLORE_CALL.search(code):
            found.append(i)
    return found


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


def _open_and_start(browser, server: Server, prefix: str, nb: Path):
    """Open ``nb`` in the interface at ``prefix`` and start running all its cells."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    open_notebook(page, server, prefix, nb.name)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    return page


def _wait_finished(page) -> None:
    """Wait for the end of Run All Cells."""
    # Done when every code cell has an execution count (an error stops the run: then the
    # remaining prompts stay empty while the kernel idles) and the kernel is idle.
    page.wait_for_function(
        """() => {
          const ps = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
            .map(e => e.textContent);
          const i = document.querySelector('.jp-Notebook-ExecutionIndicator');
          const started = ps.some(p => /\\[\\d+\\]/.test(p));
          return ps.length && started && !ps.some(p => /\\[\\*\\]/.test(p))
                 && i && i.dataset.status === 'idle';
        }""", timeout=RUN_ALL_S * 1000, polling=250)


def _notebook_problems(page, nb: Path) -> list[str]:
    """Tracebacks, widget error boxes and cells left unexecuted, anywhere in the notebook."""
    cells = page.evaluate(
        """() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map((c, i) => {
          if (!c.classList.contains('jp-CodeCell')) return null;
          const outputs = [...c.querySelectorAll('.jp-OutputArea-output')];
          return {i, prompt: (c.querySelector('.jp-InputPrompt') || {}).textContent || '',
                  outputs: outputs.map(o => [o.innerText || '',
                                             o.dataset.mimeType || '']).filter(o => o[0])};
        }).filter(Boolean)""")
    problems = []
    for cell in cells:
        where = f"{nb.name} cell {cell['i']}"
        if not re.search(r"\[\d+\]", cell["prompt"]):
            problems.append(f"{where}: not executed ({cell['prompt'].strip()})")
        for text, mime in cell["outputs"]:
            if mime == "application/vnd.jupyter.error" or "Traceback (most recent" in text:
                problems.append(f"{where}: traceback: {text[:400]}")
            for line in text.splitlines():
                if WIDGET_ERRORS.search(line):
                    problems.append(f"{where}: widget error: {line[:300]}")
    return problems


# The in-page probe: stamps the press (keydown) or release (pointerup), and every animation frame
# on which the figure shows a new picture, with whether that picture was decoded and laid out at
# the old size by then (if not, the reader would see a blank or jumping frame: flicker).
_PROBE = """(root, trigger) => {
  const content = root.querySelector('.widget-html-content');
  const probe = {t0: null, changes: [], src: content.querySelector('img').getAttribute('src'),
                 height: content.getBoundingClientRect().height};
  window.__pcProbe = probe;
  const stamp = () => { probe.t0 = performance.now(); };
  document.addEventListener(trigger, stamp, {capture: true, once: true});
  let pending = false;
  new MutationObserver(() => {
    const img = content.querySelector('img');
    if (!img || img.getAttribute('src') === probe.src || pending) return;
    pending = true;
    requestAnimationFrame(() => {  // the frame the reader sees next
      pending = false;
      const now = content.querySelector('img');
      probe.src = now.getAttribute('src');
      probe.changes.push({t: performance.now(), ready: now.complete && now.naturalWidth > 0,
                          sameHeight: Math.abs(content.getBoundingClientRect().height
                                               - probe.height) < 1,
                          alt: now.getAttribute('alt'),
                          imgs: content.querySelectorAll('img').length});
    });
  }).observe(content, {childList: true, subtree: true, attributes: true,
                       attributeFilter: ['src']});
}"""


def _wait_probe(page, settle_ms: int) -> dict | None:
    """The probe once the picture changed and then stayed put for ``settle_ms``; None if the
    picture did not change within :data:`MAX_LATENCY_MS` of the press or release.

    With ``settle_ms`` (a drag), a picture that changed while the hand moved counts too: a
    slider that follows the drag may show its last frame before the release.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            f"""() => {{ const p = window.__pcProbe; return p.t0 !== null && p.changes.length
                       && ({'true' if settle_ms else 'false'}
                           || p.changes[p.changes.length - 1].t > p.t0); }}""",
            timeout=MAX_LATENCY_MS + 500, polling=50)
    except PlaywrightTimeout:
        return None
    if settle_ms:
        page.wait_for_function(
            f"""() => {{ const p = window.__pcProbe;
                        return performance.now() - p.changes[p.changes.length - 1].t > {settle_ms};
                     }}""", timeout=MAX_LATENCY_MS * 3, polling=50)
    return page.evaluate("() => window.__pcProbe")


def _move_by_keyboard(page, control) -> None:
    """One step of ``control`` with the keyboard, away from the end it sits at."""
    if control.evaluate("e => e.tagName") == "SELECT":
        last = control.evaluate("e => e.selectedIndex === e.options.length - 1")
        control.focus()
        page.keyboard.press("ArrowUp" if last else "ArrowDown")
        return
    control.focus()
    page.keyboard.press("ArrowLeft" if _at_right_end(control) else "ArrowRight")


def _at_right_end(handle) -> bool:
    return handle.evaluate("""h => {
      const base = h.closest('.noUi-base').getBoundingClientRect();
      const r = h.getBoundingClientRect();
      return r.left + r.width / 2 > base.left + base.width / 2;
    }""")


def _move_by_mouse(page, control) -> None:
    """Drag the handle to the other end of its track and release it (which changes the value
    whatever the grid; a select gets the next option)."""
    if control.evaluate("e => e.tagName") == "SELECT":
        n, i = control.evaluate("e => [e.options.length, e.selectedIndex]")
        control.click()  # opens and focuses it, as a reader's click does
        page.dispatch_event("body", "pointerup")  # the probe's start: the choice comes next
        control.select_option(index=(i + 1) % n)
        return
    control.scroll_into_view_if_needed()
    base = control.evaluate("h => { const b = h.closest('.noUi-base').getBoundingClientRect();"
                            " return [b.left, b.width]; }")
    box = control.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    target = base[0] + 2 if _at_right_end(control) else base[0] + base[1] - 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(target, y, steps=8)
    page.mouse.up()


@dataclass
class Report:
    notebooks: int = 0
    figures: int = 0
    controls: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    where: list[str] = field(default_factory=list)  # which control each latency belongs to
    move_numbers: list[int] = field(default_factory=list)  # 1st or 2nd move of its control
    errors: list[str] = field(default_factory=list)
    keyboard: list[str] = field(default_factory=list)  # evidence, printed, not asserted
    rechecked: list[str] = field(default_factory=list)  # notebooks run again, and why: printed

    def add(self, other: Report) -> None:
        """Count ``other``, the report of one notebook, in this one."""
        self.notebooks += other.notebooks
        self.figures += other.figures
        self.controls += other.controls
        for name in ("latencies_ms", "where", "move_numbers", "errors", "keyboard"):
            getattr(self, name).extend(getattr(other, name))

    def p95(self, move_number: int | None = None) -> float:
        xs = sorted(t for t, m in zip(self.latencies_ms, self.move_numbers)
                    if move_number in (None, m))
        return xs[max(0, math.ceil(0.95 * len(xs)) - 1)] if xs else float("nan")

    def summary(self, where: str, how: str) -> str:
        lat = (f"{how}->new picture p95 {self.p95():.0f} ms (first moves {self.p95(1):.0f} ms, "
               f"second moves {self.p95(2):.0f} ms), median "
               f"{sorted(self.latencies_ms)[len(self.latencies_ms) // 2]:.0f} ms, max "
               f"{max(self.latencies_ms):.0f} ms (n={len(self.latencies_ms)})"
               if self.latencies_ms else "no latency measured")
        slowest = sorted(zip(self.latencies_ms, self.where), reverse=True)[:3]
        slow = ", ".join(f"{w} {t:.0f} ms" for t, w in slowest)
        again = "".join(f"\n  run again: {r}" for r in self.rechecked)
        return (f"{where}: {self.notebooks} notebooks, {self.figures} figures, {self.controls} "
                f"controls, {len(self.errors)} errors; {lat}; slowest: {slow}{again}")


def _unresponsive(report: Report) -> bool:
    """Whether no move of a notebook's controls gave a picture (and nothing else went wrong):
    the page as a whole stopped answering, not one figure."""
    return bool(report.errors) and not report.latencies_ms and all(
        "did not change" in e for e in report.errors)


def _sessions(server: Server) -> list[dict]:
    with urllib.request.urlopen(f"{server.url}/api/sessions?token={server.token}",
                                timeout=10) as response:
        return json.load(response)


def _end_session(server: Server, nb: Path) -> None:
    """Shut down the notebook's kernel, so that opening it again starts a new one."""
    for session in _sessions(server):
        if session.get("path", "").endswith(nb.name):
            request = urllib.request.Request(
                f"{server.url}/api/sessions/{session['id']}?token={server.token}", method="DELETE")
            with urllib.request.urlopen(request, timeout=30):
                pass


def _diagnosis(page, server: Server, nb: Path) -> str:
    """What the kernel, the page and the server say about a notebook that stopped answering."""
    try:
        kernel = next((s["kernel"].get("execution_state", "?") for s in _sessions(server)
                       if s.get("path", "").endswith(nb.name)), "no session")
    except OSError as exc:
        kernel = f"unknown ({exc})"
    dialogs = page.locator(".jp-Dialog").all_inner_texts()
    focus = page.evaluate("() => document.activeElement ? document.activeElement.className : null")
    log = [line for line in server.log.read_text(errors="replace").splitlines()
           if re.search(r"(?i)restart|died|dead|traceback|error|^\[[EW] ", line)
           and "without encryption" not in line][-8:]
    return (f"kernel {kernel}; dialogs {dialogs}; focus on {focus!r}; "
            f"server log: {' | '.join(log) or 'no warning, error or restart'}")


# Where does an arrow key on a focused slider handle go? Records who sees the keydown (window in
# the capture phase, the handle itself) and which script calls preventDefault on it.
_KEY_PROBE = """h => {
  const log = [];
  window.__pcKeys = log;
  const rec = where => e => log.push(where + (e.defaultPrevented ? ' (already prevented)' : ''));
  window.addEventListener('keydown', rec('window, capture phase'), {capture: true, once: true});
  h.addEventListener('keydown', rec('the slider handle'), {once: true});
  const original = KeyboardEvent.prototype.preventDefault;
  KeyboardEvent.prototype.preventDefault = function () {
    const frame = (new Error()).stack.split('\\n')[2] || '';
    log.push('preventDefault ' + frame.trim().replace(/\\?v=\\w+/g, '').slice(0, 200));
    return original.call(this);
  };
  setTimeout(() => { KeyboardEvent.prototype.preventDefault = original; }, 3000);
}"""


def _arrow_key_evidence(page, root) -> str:
    """Press ArrowRight (or ArrowLeft) on a focused slider handle and say what happened."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    handle = root.locator(".noUi-handle[role=slider]").first
    img = root.locator("img.pc-explore-live-img")
    before = (handle.get_attribute("aria-valuetext"), img.get_attribute("src"))
    key = "ArrowLeft" if _at_right_end(handle) else "ArrowRight"
    handle.evaluate(_KEY_PROBE)
    handle.focus()
    page.keyboard.press(key)
    try:  # the new picture, or MAX_LATENCY_MS without one: either way the evidence is in
        page.wait_for_function("([img, src]) => img.getAttribute('src') !== src",
                               arg=[img.element_handle(), before[1]], timeout=MAX_LATENCY_MS)
    except PlaywrightTimeout:
        pass
    after = (handle.get_attribute("aria-valuetext"), img.get_attribute("src"))
    seen = page.evaluate("() => window.__pcKeys")
    return (f"{key} on a focused slider handle: value {before[0]} -> {after[0]}, picture "
            f"{'changed within' if after[1] != before[1] else 'unchanged after'} {MAX_LATENCY_MS} ms; "
            f"the keydown reached: {seen}")


def _check_chapters(browser, server: Server, prefix: str, notebooks: list[Path], move,
                    trigger: str, report: Report, key_evidence: bool = False) -> None:
    """Start all chapters at once (their kernels run side by side), then check them one by one
    with the other kernels idle, so that the latencies are not inflated by their work."""
    from playwright.sync_api import Error as PlaywrightError

    started = []
    for nb in notebooks:
        try:
            started.append((nb, _open_and_start(browser, server, prefix.format(stem=nb.stem),
                                                nb)))
        except PlaywrightError as exc:
            report.errors.append(f"{nb.name}: could not open and run it: {exc}")
    finished = []
    for nb, page in started:
        try:
            _wait_finished(page)
            finished.append((nb, page))
        except PlaywrightError as exc:  # e.g. a chapter that never finishes: report, go on
            report.errors.append(f"{nb.name}: {exc}")
            page.close()
    for nb, page in finished:
        for attempt in (1, 2):
            one = Report()
            try:
                page.bring_to_front()  # animation frames (the probe's clock) run in the front page
                _check_chapter(page, nb, move, trigger, one, key_evidence)
            except PlaywrightError as exc:
                one.errors.append(f"{nb.name}: {exc}")
            # A page where nothing at all answered (seen twice in many runs, each time in one
            # chapter, with no traceback) is run once more from a new kernel; the summary prints
            # what the kernel, the page and the server said, and a second failure counts.
            if attempt == 1 and _unresponsive(one):
                report.rechecked.append(f"{nb.name}: {len(one.errors)} moves got no picture; "
                                        f"{_diagnosis(page, server, nb)}")
                page.close()
                try:
                    _end_session(server, nb)
                    page = _open_and_start(browser, server, prefix.format(stem=nb.stem), nb)
                    _wait_finished(page)
                except (PlaywrightError, OSError) as exc:
                    one.errors.append(f"{nb.name}, run again: {exc}")
                    report.add(one)
                    break
                continue
            report.add(one)
            break
        page.close()


def _check_chapter(page, nb: Path, move, trigger: str, report: Report,
                   key_evidence: bool) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    cells = _explore_cells(nb)
    report.notebooks += 1
    report.errors += _notebook_problems(page, nb)
    for index in cells:
        report.figures += 1
        where = f"{nb.name} cell {index}"
        cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
        cell.scroll_into_view_if_needed()
        root = cell.locator(".widget-vbox").filter(has=page.locator("img.pc-explore-live-img"))
        try:
            root.first.wait_for(timeout=10_000)  # widget views render after the kernel idles
        except PlaywrightTimeout:
            text = cell.locator(".jp-Cell-outputWrapper").inner_text()[:300]
            report.errors.append(f"{where}: no live picture; the output shows {text!r}")
            continue
        if root.count() != 1:
            report.errors.append(f"{where}: {root.count()} figures in one output")
            continue
        root = root.first
        img = root.locator("img.pc-explore-live-img")
        alt = img.get_attribute("alt") or ""
        # A screen-reader-style query: the picture's accessible name is its alt text.
        named = root.get_by_role("img", name=alt, exact=True)
        if not alt.strip() or named.count() != 1:
            report.errors.append(f"{where}: picture has no accessible name equal to its alt "
                                 f"text {alt!r} ({named.count()} matches)")
        controls = root.locator(".noUi-handle[role=slider], select")
        if controls.count() == 0:
            report.errors.append(f"{where}: figure without controls")
        for k in range(controls.count()):
            report.controls += 1
            control = controls.nth(k)
            control.scroll_into_view_if_needed()
            # Each control is moved twice. The live widget draws one step along each slider
            # before the reader arrives (to learn what a move changes), so a first step may
            # show a frame drawn in advance; the second move shows a frame drawn on demand.
            for move_number in (1, 2):
                root.evaluate(_PROBE, trigger)
                move(page, control)
                # A drag may redraw while the hand moves; what counts is the picture after
                # the release, so wait for it to settle. A key press gives exactly one picture.
                probe = _wait_probe(page, settle_ms=400 if trigger == "pointerup" else 0)
                here = f"{where} control {k} move {move_number}"
                if probe is None:
                    report.errors.append(f"{here}: the picture did not change "
                                         f"within {MAX_LATENCY_MS} ms")
                    continue
                last = probe["changes"][-1]
                # Clamped at 0: a drag whose last frame arrived before the release felt instant.
                latency = max(last["t"] - probe["t0"], 0.0)
                if latency > MAX_LATENCY_MS:
                    report.errors.append(f"{here}: new picture after {latency:.0f} ms")
                report.latencies_ms.append(latency)
                report.where.append(here)
                report.move_numbers.append(move_number)
                for change in probe["changes"]:
                    if not (change["ready"] and change["sameHeight"] and change["imgs"] == 1):
                        report.errors.append(
                            f"{here}: a new picture flickered (decoded "
                            f"{change['ready']}, same height {change['sameHeight']}, "
                            f"{change['imgs']} images)")
                if root.get_by_role("img", name=last["alt"], exact=True).count() != 1:
                    report.errors.append(f"{here}: the new picture's accessible "
                                         f"name is not its alt text {last['alt']!r}")
    report.errors += [e for e in _notebook_problems(page, nb) if "traceback" in e]
    live = page.locator(".widget-vbox").filter(has=page.locator("img.pc-explore-live-img"))
    if key_evidence and live.count():
        report.keyboard.append(_arrow_key_evidence(page, live.first))


# --------------------------------------------------------------------------- the tests


def test_every_chapter_in_jupyterlab(browser, server):
    """Every explore figure of every chapter renders and follows its controls (keyboard)."""
    report = Report()
    start = time.monotonic()
    # One workspace per page: the pages are open side by side.
    _check_chapters(browser, server, "lab/workspaces/pc-{stem}/tree", server.notebooks,
                    _move_by_keyboard, "keydown", report)
    print(f"\n{report.summary('JupyterLab', 'key press')} "
          f"[{time.monotonic() - start:.0f} s]")
    assert report.figures, "no explore figure found in any chapter"
    assert not report.errors, "\n".join(report.errors)


def test_one_chapter_in_notebook7(browser, server):
    """The same checks in the Notebook 7 interface, moving the controls with the mouse."""
    names = [nb.name for nb in server.notebooks]
    nb = server.notebooks[names.index(NOTEBOOK7_CHAPTER) if NOTEBOOK7_CHAPTER in names else 0]
    report = Report()
    start = time.monotonic()
    _check_chapters(browser, server, "notebooks", [nb], _move_by_mouse, "pointerup", report,
                    key_evidence=True)
    print(f"\n{report.summary('Notebook 7', 'mouse release')} "
          f"[{time.monotonic() - start:.0f} s]")
    # Notebook 7.6.5's shell binds ArrowRight/ArrowLeft (notebook:move-cursor-heading-*) on the
    # document in the capture phase, so the handle may never see the key: an upstream matter,
    # reported here rather than asserted.
    print("Notebook 7 keyboard check: " + "; ".join(report.keyboard))
    assert report.figures, f"no explore figure in {nb.name}"
    assert not report.errors, "\n".join(report.errors)
