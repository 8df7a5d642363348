"""The book's interactive figures, one module per chapter.

Each module holds the ``draw(**params) -> Figure`` functions its chapter passes to
:func:`perceptron_core.explore`, and a list ``BENCH_CASES`` of ``(name, draw, params)`` that
``bench/bench_redraw.py`` times.
"""

from __future__ import annotations

from typing import Any


def glue_numbers(prefix: str, **values: Any) -> None:
    """Glue each value under ``f"{prefix}-{name}"`` for the prose, without displaying it.

    Chapters call this from a cell tagged ``remove-input``, so that readers see the numbers in
    the text and not the plumbing that puts them there. Underscores in names become hyphens.
    NumPy scalars become Python numbers, whose repr (``3.0``, not ``np.float64(3.0)``) is what
    myst-nb's format specs and the glued-number checks can parse.
    """
    import numpy as np
    from myst_nb import glue

    for name, value in values.items():
        if isinstance(value, np.generic):
            value = value.item()
        glue(f"{prefix}-{name.replace('_', '-')}", value, display=False)
