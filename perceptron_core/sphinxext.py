"""Sphinx extension for the book build: static sliders, and math that renders offline.

`jupyter-book build` loads this extension (see ``_config.yml``) before it executes any notebook.

* It sets :data:`perceptron_core.interactive.STATIC_ENV_VAR` in the build process. Every kernel
  the build starts inherits it, so :func:`perceptron_core.explore` emits self-contained HTML/JS
  controls instead of ipywidgets (which would need a live kernel).
* It serves MathJax 3 from the book's own ``_static`` folder instead of a CDN, using the copy of
  MathJax 3.2.2 that the ``sphinx-mathjax-offline`` package ships, so that the equations render
  with no network: from ``file://``, from a zip, or on an offline machine. MathJax 3 keeps its
  assistive features: hidden MathML for screen readers on every equation, and the speech and
  exploration tools of its menu, all loaded from the same local copy. Only the files MathJax
  may load are copied (not the other combined builds, nor ``latest.js``, which fetches MathJax
  from a CDN). Without that package Sphinx's default (a CDN) is left alone.
* With :data:`HIDE_SOLUTIONS_ENV_VAR` set (``make exercises``), it builds the book without the
  exercises' solutions, for instructors to hand out.
"""

from __future__ import annotations

import copy
import fnmatch
import importlib.util
import os
import shutil
from pathlib import Path
from typing import Any

from .interactive import STATIC_ENV_VAR

# The combined component: TeX input, CommonHTML output, the contextual menu and the assistive
# MathML for screen readers. Everything else it needs (TeX packages on first use, the web fonts,
# the accessibility explorer and its speech rules) it loads from next to itself.
MATHJAX_ENTRY = "tex-chtml.js"
MATHJAX_DIR = "mathjax"
# What the entry point never loads: the other combined builds, the node.js adaptor, and
# latest.js, whose only job is to load MathJax from a CDN.
MATHJAX_SKIP = ("*.js", "adaptors")
MATHJAX_KEEP = (MATHJAX_ENTRY,)
# Sphinx marks inline math as \(...\) and display math as \[...\], MathJax 3's defaults, so no
# delimiter settings are needed. The menu would otherwise remember a reader's settings in
# localStorage only; the explicit defaults say what every reader starts with: the hidden MathML
# that screen readers read, and no pop-up explorer unless the reader turns it on in the menu.
MATHJAX3_CONFIG: dict[str, Any] = {
    "options": {"menuOptions": {"settings": {"assistiveMml": True}}},
}
HIDE_SOLUTIONS_ENV_VAR = "PERCEPTRON_HIDE_SOLUTIONS"


def _bundled_mathjax() -> Path | None:
    """The ``static/mathjax`` folder of ``sphinx-mathjax-offline``, if that package is installed.

    Its import name has hyphens, and importing it would run nothing we need: find it instead.
    """
    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None or not spec.submodule_search_locations:
        return None
    static = Path(list(spec.submodule_search_locations)[0]) / "static" / "mathjax"
    return static if (static / MATHJAX_ENTRY).is_file() else None


def _use_local_mathjax(app: Any, config: Any) -> None:
    if _bundled_mathjax() is not None:
        config.mathjax_path = f"{MATHJAX_DIR}/{MATHJAX_ENTRY}"
        # A copy, because myst-parser adds its own options to this dict later; settings of the
        # book's own (none today) win over these defaults.
        own = getattr(config, "mathjax3_config", None) or {}
        config.mathjax3_config = {**copy.deepcopy(MATHJAX3_CONFIG), **own}


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
        target = Path(app.outdir) / "_static" / MATHJAX_DIR

        def skip(folder: str, names: list[str]) -> set[str]:
            if Path(folder) != source:
                return set()
            dropped = set().union(*(fnmatch.filter(names, pattern) for pattern in MATHJAX_SKIP))
            return dropped - set(MATHJAX_KEEP)

        shutil.copytree(source, target, ignore=skip, dirs_exist_ok=True)


def setup(app: Any) -> dict[str, Any]:
    os.environ[STATIC_ENV_VAR] = "1"
    app.connect("config-inited", _use_local_mathjax)
    app.connect("doctree-read", _drop_solutions)
    app.connect("build-finished", _copy_mathjax)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
