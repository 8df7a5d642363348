"""Glue a chapter's numbers into its prose (build code: needs myst-nb, not part of the package).

Chapters import it from a cell tagged ``remove-input``, and fall back to a no-op where it is
missing (a chapter copied out of the repository, or run without myst-nb), so that they run
anywhere the package is installed::

    try:
        from glue_numbers import glue_numbers
    except ImportError:
        def glue_numbers(prefix, **values):
            pass

The chapters run with ``book/`` as their working directory (jupyter-cache's executor and myst-nb
run a notebook in its own folder), which is how the kernel finds this module in the book build and
in the cross-CPU run (``book/_tools/notebook_numbers.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from myst_nb import glue


def glue_numbers(prefix: str, **values: Any) -> None:
    """Glue each value under ``f"{prefix}-{name}"`` for the prose, without displaying it.

    Underscores in names become hyphens. NumPy scalars become Python numbers, whose repr
    (``3.0``, not ``np.float64(3.0)``) is what myst-nb's format specs and the reader
    notebooks can format.
    """
    for name, value in values.items():
        if isinstance(value, np.generic):
            value = value.item()
        glue(f"{prefix}-{name.replace('_', '-')}", value, display=False)
