"""Sphinx extension that tells notebooks they are being executed for the published book.

`jupyter-book build` loads this extension before it executes any notebook. It sets
:data:`perceptron_core.interactive.STATIC_ENV_VAR` in the build process, and every kernel the
build starts inherits it, so :func:`perceptron_core.interactive.explore` emits self-contained
HTML/JS controls instead of ipywidgets (which would need a live kernel).
"""

from __future__ import annotations

import os
from typing import Any

STATIC_ENV_VAR = "PERCEPTRON_STATIC_WIDGETS"


def setup(app: Any) -> dict[str, Any]:
    os.environ[STATIC_ENV_VAR] = "1"
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
