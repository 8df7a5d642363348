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
    """
    from myst_nb import glue

    for name, value in values.items():
        glue(f"{prefix}-{name.replace('_', '-')}", value, display=False)
