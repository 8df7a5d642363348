"""The playground's module (perceptron_core/static/playground.js) loaded in headless Chromium.

Fixtures for the tests of tests/playground, imported by each test module
(``from playground_page import chromium, pg_url, pg_page``): a ``conftest.py`` here would be
imported as the module ``conftest`` and hide tests/conftest.py, whose helpers other tests import.

``pg_page`` is a blank page served over http://127.0.0.1 from a temporary folder holding the
module and an HTML file that imports it: ``window.pg`` is the module (its named exports and
``default``), so a test can call ``pg.perceptronRun(...)`` with ``page.evaluate`` or mount the
playground with ``pg.default.render({ model: pg.staticModel(state), el })``. Every console error
and uncaught exception of the page is collected in ``page.pg_errors``.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

MODULE = Path(__file__).resolve().parents[2] / "perceptron_core" / "static" / "playground.js"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Playground test page</title>
<link rel="icon" href="data:,"></head>
<body><main id="main"><h1>Playground</h1><div id="host"></div></main>
<script type="module">
import * as pg from "./playground.js";
window.pg = pg;
window.pgReady = true;
</script></body></html>
"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def chromium():
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
def pg_url(tmp_path_factory):
    root = tmp_path_factory.mktemp("playground")
    shutil.copy(MODULE, root / "playground.js")
    (root / "index.html").write_text(PAGE, encoding="utf-8")
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    server.shutdown()
    server.server_close()


@pytest.fixture
def pg_page(chromium, pg_url):
    """A fresh page with the module loaded as ``window.pg``; ``page.pg_errors`` collects errors."""
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(f"console: {msg.text}"))
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    page.goto(pg_url, wait_until="load")
    page.wait_for_function("window.pgReady === true")
    page.pg_errors = errors
    yield page
    context.close()
