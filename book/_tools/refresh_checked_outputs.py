"""Re-run the book's notebooks and store only the outputs nbval checks.

nbval (`--nbval-lax`) compares the stored output of every cell marked `# NBVAL_CHECK_OUTPUT`
with a fresh run. Those outputs must be in the committed notebook; everything else (figures,
widgets) is dropped so the notebooks stay small and diffs stay readable.

Usage: python book/_tools/refresh_checked_outputs.py [NOTEBOOK_OR_DIR ...]  (default: book/)
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

MARK = "# NBVAL_CHECK_OUTPUT"


def refresh(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)
        # nbval treats a cell with outputs but no execution count as an error, so checked
        # cells keep theirs; the others lose both.
        if MARK not in cell.source:
            cell.execution_count = None
            cell.outputs = []
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, path)
    print(f"refreshed {path}")


def main(args: list[str]) -> None:
    targets = [Path(a) for a in args] or [Path(__file__).resolve().parents[1]]
    for t in targets:
        for nb in sorted(t.rglob("*.ipynb")) if t.is_dir() else [t]:
            if ".ipynb_checkpoints" not in nb.parts and "_build" not in nb.parts:
                refresh(nb)


if __name__ == "__main__":
    main(sys.argv[1:])
