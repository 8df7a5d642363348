"""Sphinx extension for the book build: static sliders, and math that renders offline.

`jupyter-book build` loads this extension (see ``_config.yml``) before it executes any notebook.

* It sets :data:`perceptron_core.interactive.STATIC_ENV_VAR` in the build process. Every kernel
  the build starts inherits it, so :func:`perceptron_core.explore` emits self-contained HTML/JS
  controls instead of ipywidgets (which would need a live kernel).
* It serves MathJax from the book's own ``_static`` folder instead of a CDN, using the copy of
  MathJax 2.7 that the ``jupyter-server-mathjax`` package ships, so that the equations render
  with no network: from ``file://``, from a zip, or on an offline machine. Without that package
  Sphinx's default (a CDN) is left alone.
* With :data:`HIDE_SOLUTIONS_ENV_VAR` set (``make exercises``), it builds the book without the
  exercises' solutions, for instructors to hand out.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from .interactive import STATIC_ENV_VAR

# The web-font settings are those classic Jupyter used with this MathJax copy (it ships the
# STIX-Web fonts only); the tex2jax settings confine MathJax to the math Sphinx marks up.
MATHJAX2_CONFIG = {
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processEscapes": True,
        "processEnvironments": True,
        "processClass": "tex2jax_process|mathjax_process|math|output_area",
        "ignoreClass": "document",
    },
    "HTML-CSS": {"availableFonts": [], "imageFont": None, "preferredFont": None, "webFont": "STIX-Web"},
    # Native MathML output would ask for TeX web fonts that this copy does not ship (console
    # errors, and the STIX glyphs unused): render with HTML-CSS in every browser.
    "MMLorHTML": {"prefer": "HTML"},
}
MATHJAX_DIR = "mathjax"
HIDE_SOLUTIONS_ENV_VAR = "PERCEPTRON_HIDE_SOLUTIONS"


def _bundled_mathjax() -> Path | None:
    try:
        import jupyter_server_mathjax
    except ImportError:
        return None
    static = Path(jupyter_server_mathjax.__file__).parent / "static"
    return static if (static / "MathJax.js").is_file() else None


def _use_local_mathjax(app: Any, config: Any) -> None:
    if _bundled_mathjax() is not None:
        config.mathjax_path = f"{MATHJAX_DIR}/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
        config.mathjax2_config = MATHJAX2_CONFIG


def _hiding_solutions() -> bool:
    return os.environ.get(HIDE_SOLUTIONS_ENV_VAR, "").lower() in {"1", "true", "yes", "on"}


def _drop_solutions(app: Any, doctree: Any) -> None:
    """Remove every solution, once sphinx-exercise has merged the gated ones into one node.

    sphinx-exercise's own ``hide_solutions`` drops only the directive: the code cells of a gated
    solution (between ``solution-start`` and ``solution-end``) would stay, and the leftover end
    marker crashes the HTML writer. Removing the merged nodes removes all of it.
    """
    from sphinx_exercise.nodes import solution_node

    if _hiding_solutions():
        for node in list(doctree.findall(solution_node)):
            node.parent.remove(node)


def _copy_mathjax(app: Any, exception: Exception | None) -> None:
    source = _bundled_mathjax()
    if exception is None and source is not None and app.builder.format == "html":
        shutil.copytree(source, Path(app.outdir) / "_static" / MATHJAX_DIR, dirs_exist_ok=True)


def setup(app: Any) -> dict[str, Any]:
    os.environ[STATIC_ENV_VAR] = "1"
    app.connect("config-inited", _use_local_mathjax)
    app.connect("doctree-read", _drop_solutions)
    app.connect("build-finished", _copy_mathjax)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
