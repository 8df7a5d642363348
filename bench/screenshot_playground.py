"""Screenshots of the playground: in the three chapters that use it, light and dark, and in
JupyterLab.

Takes the built book (`make book`) from ``_build/html`` and writes, into ``--out`` (default
``_build/screenshots``), ``<chapter>-<theme>.png`` for separability, convergence and offset: the
playground as the page first shows it, over http://127.0.0.1, in headless Chromium at 1280×1000.
With ``--jupyterlab`` it also runs tests/book/test_playground_jupyterlab.py, which saves
``jupyterlab.png`` (the widget in JupyterLab after a point was added with the keyboard).

Run from the repository root: ``python bench/screenshot_playground.py [--jupyterlab]``.
It prints, for each screenshot, the playground's live text (what a screen reader hears).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHAPTERS = ("separability", "convergence", "offset")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--html", default=str(REPO / "_build" / "html"))
    ap.add_argument("--out", default=str(REPO / "_build" / "screenshots"))
    ap.add_argument("--jupyterlab", action="store_true")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=args.html))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/book/"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                     args=["--no-sandbox"])
        for chapter in CHAPTERS:
            for theme in ("light", "dark"):
                context = browser.new_context(viewport={"width": 1280, "height": 1000})
                if theme == "dark":  # what the theme's switcher stores, read before it paints
                    context.add_init_script("localStorage.setItem('mode','dark');localStorage.setItem('theme','dark');")
                page = context.new_page()
                page.goto(base + chapter + ".html", wait_until="load")
                playground = page.locator(".pcpg").first
                playground.scroll_into_view_if_needed()
                page.wait_for_timeout(500)  # the live text waits for the page to settle
                target = out / f"{chapter}-{theme}.png"
                playground.screenshot(path=str(target))
                if theme == "light":
                    print(f"{target}:\n  {page.inner_text('.pcpg-status')}\n")
                context.close()
        browser.close()
    server.shutdown()
    if args.jupyterlab:
        env = dict(os.environ, PLAYGROUND_SCREENSHOTS=str(out))
        subprocess.run([sys.executable, "-m", "pytest", "tests/book/test_playground_jupyterlab.py", "-q",
                        "-p", "no:nbval", "-p", "no:anyio"], cwd=REPO, env=env, check=True)
        print(f"{out / 'jupyterlab.png'}: the widget in JupyterLab")


if __name__ == "__main__":
    main()
