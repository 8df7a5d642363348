"""A pytest plugin for nbval: after a notebook's cells have run, check the numbers it glued.

``pytest --nbval-lax book/`` executes every code cell of every chapter and fails on an error.
Loaded beside it (``-p nbval_glue`` with ``book/_tools`` on ``PYTHONPATH``, as ``make test``
does), this plugin adds one more test to each notebook, ``<notebook>.ipynb::glued numbers``,
which runs after the notebook's last cell and compares every value the run glued with the
notebook's reference in ``tests/notebook_numbers/`` by the rules of ``notebook_numbers.py``
(floats to a relative 1e-6, integers and strings exactly).

It reads only what nbval's cell items expose after they run (``test_outputs``, the outputs
received from the kernel), so it adds no execution of its own.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest

import notebook_numbers as nn

# The same settings as tests/book/test_notebooks.py, so that a test can point the plugin elsewhere.
BOOK = Path(os.environ.get("PERCEPTRON_NOTEBOOK_DIR", nn.BOOK)).resolve()
REFERENCES = Path(os.environ.get("PERCEPTRON_NOTEBOOK_REFERENCES", nn.REFERENCES)).resolve()
_OUTPUTS: dict[Path, list[list]] = defaultdict(list)  # notebook -> each cell's outputs, in order


class GluedNumbers(pytest.Item):
    """Compares the glue of the notebook's run with its stored reference."""

    def runtest(self) -> None:
        notebook = Path(self.parent.path)
        cells = [{"cell_type": "code", "outputs": outs} for outs in _OUTPUTS.pop(notebook, [])]
        glued = nn.collect_glue({"cells": cells})
        ref_path = nn.reference_path(notebook, BOOK, REFERENCES)
        if not ref_path.exists():
            pytest.fail(f"no reference {nn.label(ref_path)}: run `{nn.REFRESH_COMMAND}`", pytrace=False)
        problems = nn.compare(nn.load_reference(ref_path), glued)
        if problems:
            pytest.fail(
                f"{nn.label(notebook)}: {len(problems)} glued value(s) differ from "
                f"{nn.label(ref_path)}:\n  " + "\n  ".join(problems)
                + f"\nIf the change is intended, refresh the references with `{nn.REFRESH_COMMAND}` "
                "and review the diff.",
                pytrace=False,
            )

    def reportinfo(self):
        return self.path, None, f"{self.parent.name}::glued numbers"


def pytest_collection_modifyitems(session, config, items) -> None:
    """Put a ``glued numbers`` test right after the last cell of each chapter notebook."""
    last: dict[object, int] = {}
    for i, item in enumerate(items):
        if item.path.suffix == ".ipynb" and hasattr(item, "cell_num"):
            last[item.parent] = i
    for parent, i in sorted(last.items(), key=lambda kv: -kv[1]):  # from the end: indices hold
        if Path(parent.path).resolve().parent == BOOK:  # the chapters, not notebooks elsewhere
            items.insert(i + 1, GluedNumbers.from_parent(parent, name="glued numbers"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    yield
    if call.when == "call" and hasattr(item, "cell_num") and item.path.suffix == ".ipynb":
        _OUTPUTS[Path(item.path)].append(list(getattr(item, "test_outputs", None) or []))
