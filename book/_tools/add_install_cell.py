"""Give every chapter notebook its first code cell: install ``perceptron_core`` where it is missing.

A notebook opened in Colab (or any Jupyter without the course's library) cannot import
``perceptron_core``. The cell this script writes installs it from the book's repository with pip
when, and only when, the import would fail. Locally, under the notebook tests and in the book
build the package is installed, so the cell does nothing. In the HTML book the cell is removed
(tag ``remove-cell``): readers of the page need not see it.

The repository URL comes from ``repository: url:`` in ``_config.yml`` (the same setting that
turns on the launch buttons), or from ``--url``. Without one the cell cannot install anything and
says so: it raises ``ModuleNotFoundError`` with what to do, still only when the package is missing.

Usage::

    .venv/bin/python book/_tools/add_install_cell.py [--url URL] [--check] [NOTEBOOK ...]

Without notebooks it updates every chapter of ``_toc.yml``. The cell is found by its tag
(:data:`TAG`), replaced in place and moved before the first other code cell, so running the
script twice changes nothing the second time. ``--check`` changes nothing and exits with status
1 when some notebook's cell is missing or out of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat
import yaml

from chapters import chapter_paths

REPO = Path(__file__).resolve().parents[2]
TAG = "install-perceptron-core"
CELL_ID = "install-perceptron-core"

_INSTALL_HEAD = '''\
# In Colab, Binder or a Jupyter without the course's library, install perceptron_core
# from the book's repository. Where it is installed already (locally, in the tests, in
# the book build) this cell does nothing.
import importlib.util
import subprocess
import sys

# The library and the parts of its `book` extra that the chapters import.
if any(importlib.util.find_spec(name) is None
       for name in ("perceptron_core", "matplotlib", "ipywidgets", "sklearn")):
'''

# Without a repository URL there is nothing to install from: the cell only says what to do.
_STOP_HEAD = '''\
# This chapter needs the course's library, perceptron_core. Where it is installed
# (locally, in the tests, in the book build) this cell does nothing; elsewhere it
# stops and says how to install it.
import importlib.util

# The library and the parts of its `book` extra that the chapters import.
if any(importlib.util.find_spec(name) is None
       for name in ("perceptron_core", "matplotlib", "ipywidgets", "sklearn")):
'''


def cell_source(url: str) -> str:
    """The install cell's code for the repository ``url`` ("" when the book has none yet)."""
    url = url.strip().rstrip("/")
    if url:
        if url.endswith(".git"):
            url = url[:-4]
        return _INSTALL_HEAD + (
            '    package = "perceptron_core[book] @ git+" + (\n'
            f'        "{url}")\n'
            '    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", package],\n'
            '                   check=True)\n'
            '    importlib.invalidate_caches()'
        )
    return _STOP_HEAD + (
        '    raise ModuleNotFoundError(\n'
        '        "perceptron_core[book] is not installed. In a copy of the book\'s "\n'
        '        "repository run `pip install -e \'.[book]\'`, then restart the kernel.")'
    )


def config_url(config: Path = REPO / "_config.yml") -> str:
    """``repository: url:`` from the book's configuration ("" when unset)."""
    data = yaml.safe_load(config.read_text(encoding="utf-8")) or {}
    return str((data.get("repository") or {}).get("url") or "")


def chapter_notebooks() -> list[Path]:
    return chapter_paths()


def _is_install_cell(cell: nbformat.NotebookNode) -> bool:
    return cell.cell_type == "code" and TAG in cell.get("metadata", {}).get("tags", [])


def with_install_cell(nb: nbformat.NotebookNode, url: str) -> nbformat.NotebookNode:
    """The notebook with exactly one install cell, just before its first other code cell."""
    cells = [c for c in nb.cells if not _is_install_cell(c)]
    cell = nbformat.v4.new_code_cell(cell_source(url))
    cell.id = CELL_ID
    cell.metadata = {"tags": ["remove-cell", TAG]}
    first_code = next((i for i, c in enumerate(cells) if c.cell_type == "code"), len(cells))
    cells.insert(first_code, cell)
    nb.cells = cells
    return nb


def update(path: Path, url: str, *, check: bool = False) -> bool:
    """Write (or with ``check``, only compare) the notebook's install cell; True if it changed."""
    text = path.read_text(encoding="utf-8")
    nb = nbformat.reads(text, as_version=4)
    new = nbformat.writes(with_install_cell(nb, url)) + "\n"
    if new.rstrip("\n") == text.rstrip("\n"):
        return False
    if not check:
        path.write_text(new, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--url", default=None, help="repository URL (default: _config.yml's)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if out of date")
    args = parser.parse_args(argv)
    url = config_url() if args.url is None else args.url
    notebooks = args.notebooks or chapter_notebooks()
    changed = [p for p in notebooks if update(p, url, check=args.check)]
    for p in changed:
        print(("out of date: " if args.check else "updated: ") + str(p))
    if not url:
        print("note: no repository URL (_config.yml repository.url); the cell explains how to "
              "install perceptron_core instead of installing it.", file=sys.stderr)
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
