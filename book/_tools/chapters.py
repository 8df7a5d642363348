"""The book's chapters, read from ``_toc.yml``: the one list of them.

A chapter is a notebook listed in the table of contents. Every tool and test that walks the
chapters asks this module, so adding a chapter means adding one line to ``_toc.yml``.

    >>> from chapters import chapter_names
    >>> chapter_names()[:2]  # doctest: +SKIP
    ['first_look', 'perceptron']
"""

from __future__ import annotations

from pathlib import Path

import yaml

__all__ = ["GUIDE", "REPO", "TOC", "chapter_paths", "chapter_names"]

REPO = Path(__file__).resolve().parents[2]
TOC = REPO / "_toc.yml"
#: The instructor guide's docname: the student edition (``make exercises``) and the handouts
#: (``make pdf``) leave it out.
GUIDE = "book/instructor_guide"


def _files(node) -> list[str]:
    """Every ``file:`` entry under ``node``, in the order of the table of contents."""
    found = []
    if isinstance(node, dict):
        if "file" in node:
            found.append(node["file"])
        for value in node.values():
            if isinstance(value, (dict, list)):
                found += _files(value)
    elif isinstance(node, list):
        for item in node:
            found += _files(item)
    return found


def chapter_paths(toc: Path = TOC) -> list[Path]:
    """The chapters' notebooks, in reading order: every ``_toc.yml`` entry that is an .ipynb."""
    entries = _files(yaml.safe_load(toc.read_text(encoding="utf-8")))
    paths = [toc.parent / f"{entry}.ipynb" for entry in entries]
    return [p for p in paths if p.exists()]


def chapter_names(toc: Path = TOC) -> list[str]:
    """The chapters' names (``"margin"`` for ``book/margin.ipynb``), in reading order."""
    return [p.stem for p in chapter_paths(toc)]
