"""The playground live in JupyterLab: anywidget loads the module, the reader adds a point with
the keyboard, and Python reads it back as ``pg.X`` and ``pg.y``.

A notebook of three cells, written into the private server of ``test_jupyterlab.py`` (its
fixtures ``server`` and ``browser``: 127.0.0.1, a token, temporary folders, the repository on the
kernel's path, live widgets)::

    from perceptron_core.playground import playground; pg = playground(preset="and")
    pg
    print(len(pg.X), list(pg.y))

The first two cells run; once the plot (``svg.pcpg-plot``) is in the output, it gets the focus
and Enter adds a +1 point at the keyboard cursor (the contract's keyboard map); then the third
cell runs, and must print one point more than the AND gate's four, labelled +1. The page's
update reaches the kernel before the third cell's code: both go to the kernel over the same
connection, in order.

Under ``CI=true`` a missing Chromium, Playwright or JupyterLab fails the test instead of
skipping it (the fixtures' rule).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from test_jupyterlab import WIDGET_ERRORS, browser, open_notebook, server  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser]

NOTEBOOK = "playground_in_jupyterlab.ipynb"
CELLS = [
    'from perceptron_core.playground import playground\npg = playground(preset="and")',
    "pg",
    "print(len(pg.X), list(pg.y))",
]
#: The widget's view appears once anywidget has loaded the module: allow a cold JupyterLab.
RENDER_S = 60
RUN_CELL_S = 60


def _write_notebook(folder) -> None:
    cells = [{"cell_type": "code", "execution_count": None, "id": f"cell-{i}", "metadata": {},
              "outputs": [], "source": source} for i, source in enumerate(CELLS)]
    nb = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                       "language_info": {"name": "python"}}}
    (folder / NOTEBOOK).write_text(json.dumps(nb, indent=1), encoding="utf-8")


def _cell(page, index: int):
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


def _run_cell(page, index: int) -> None:
    """Select cell ``index`` in command mode, run it (Shift+Enter) and wait until it has run."""
    cell = _cell(page, index)
    cell.scroll_into_view_if_needed()
    cell.locator(".jp-InputPrompt").click()  # command mode, this cell active
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        """cell => /\\[\\d+\\]/.test((cell.querySelector('.jp-InputPrompt') || {}).textContent || '')""",
        arg=cell.element_handle(), timeout=RUN_CELL_S * 1000, polling=100)


def _outputs(page, index: int) -> str:
    return _cell(page, index).locator(".jp-Cell-outputWrapper").inner_text()


def test_a_point_added_with_the_keyboard_reaches_python(browser, server):  # noqa: F811
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    _write_notebook(server.root)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    try:
        open_notebook(page, server, "lab/workspaces/pc-playground/tree", NOTEBOOK)
        _run_cell(page, 0)
        _run_cell(page, 1)
        plot = _cell(page, 1).locator("svg.pcpg-plot")
        try:
            plot.wait_for(timeout=RENDER_S * 1000)
        except PlaywrightTimeout:
            pytest.fail(f"no playground plot within {RENDER_S} s; the output shows "
                        f"{_outputs(page, 1)[:500]!r}; page errors: {errors}")
        assert plot.count() == 1, f"{plot.count()} plots in one output"
        for line in _outputs(page, 1).splitlines():
            assert not WIDGET_ERRORS.search(line), line
        assert "Traceback" not in _outputs(page, 0) + _outputs(page, 1)

        plot.focus()
        assert plot.evaluate("svg => document.activeElement === svg"), "the plot does not take the focus"
        page.keyboard.press("Enter")  # a +1 point at the keyboard cursor

        _run_cell(page, 2)
        printed = _outputs(page, 2).strip()
        match = re.fullmatch(r"(\d+) (\[.*\])", printed)
        assert match, f"the third cell printed {printed!r}"
        # NumPy 2 prints a float64 in a list as np.float64(-1.0), NumPy 1 as -1.0.
        count, labels = int(match[1]), json.loads(re.sub(r"np\.float64\(([^()]*)\)", r"\1", match[2]))
        assert count == 5, f"{count} points after Enter on the AND gate's 4 (expected 5); page errors: {errors}"
        assert sorted(labels) == [-1.0, -1.0, -1.0, 1.0, 1.0], f"labels {labels}: the new point is not +1"
        assert not errors, errors
        if os.environ.get("PLAYGROUND_SCREENSHOTS"):  # bench/screenshot_playground.py asks for one
            _cell(page, 1).screenshot(path=str(Path(os.environ["PLAYGROUND_SCREENSHOTS"]) / "jupyterlab.png"))
    finally:
        page.close()
