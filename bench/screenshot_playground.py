"""Screenshots of the playground: in the three chapters that use it, light and dark, and in
JupyterLab.

Takes the built book (`make book`) from ``_build/html`` and writes, into ``--out`` (default
``_build/screenshots``), ``<chapter>-<theme>.png`` for separability, convergence and offset: the
playground as the page first shows it, from file:// (as a reader opens the book from a folder),
in headless Chromium at 1280×1000. With ``--jupyterlab`` it also runs
tests/book/test_playground_jupyterlab.py, which saves ``jupyterlab.png`` (the widget in
JupyterLab after a point was added with the keyboard).

Run from the repository root: ``python bench/screenshot_playground.py [--out DIR] [--jupyterlab]``.
It prints, for each screenshot, the playground's live text (what a screen reader hears).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    out = Path(sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else REPO / "_build" / "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
        for chapter in ("separability", "convergence", "offset"):
            for theme in ("light", "dark"):
                context = browser.new_context(viewport={"width": 1280, "height": 1000})
                if theme == "dark":  # what the theme's switcher stores, read before it paints
                    context.add_init_script("localStorage.setItem('mode','dark');localStorage.setItem('theme','dark');")
                page = context.new_page()
                page.goto((REPO / "_build" / "html" / "book" / f"{chapter}.html").as_uri(), wait_until="load")
                page.wait_for_function("() => !document.querySelector('.pcpg[data-busy]')")  # drawn and said
                page.locator(".pcpg").first.screenshot(path=str(out / f"{chapter}-{theme}.png"))  # scrolls to it
                print(f"{out / f'{chapter}-{theme}.png'}:\n  {page.inner_text('.pcpg-status')}\n")
                context.close()
        browser.close()
    if "--jupyterlab" in sys.argv:
        subprocess.run([sys.executable, "-m", "pytest", "tests/book/test_playground_jupyterlab.py", "-q", "-p", "no:nbval",
                        "-p", "no:anyio"], cwd=REPO, env=dict(os.environ, PLAYGROUND_SCREENSHOTS=str(out)), check=True)


if __name__ == "__main__":
    main()
