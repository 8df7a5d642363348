"""How long does the book take to build: fresh, cached, and after editing one markdown cell?

Builds a copy of the repository's tracked files (so the working tree is never edited) with
``make book`` itself (the chapters run by jupyter-cache's local-parallel executor, then
``jupyter-book build``), with this repository's venv, and prints three wall times:

* fresh: no ``_build`` at all, so every notebook is executed and every slider frame computed;
* cached, nothing changed: Sphinx and the execution cache have everything;
* after editing one markdown cell of one chapter: the execution cache still matches (it hashes
  the code cells only), so only that page is read and written again.

Run from the repository root: ``python bench/bench_book.py``. Not a test: the numbers depend on
the machine and its load (``uptime`` before and after is printed). Targets (issue 13): fresh
<= 120 s, a rebuild after one edit <= 15 s.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EDITED = "book/margin.ipynb"
TARGETS = {"fresh": 120.0, "after one markdown edit": 15.0}


def _load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def copy_tracked(dest: Path) -> None:
    """The files git tracks (what a fresh clone has), without _build or .venv."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, names):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def build(root: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run(["make", "--no-print-directory", "book"], cwd=root,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"the build failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return seconds


def edit_one_markdown_cell(notebook: Path) -> None:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c["cell_type"] == "markdown")
    cell["source"] = ["".join(cell["source"]).rstrip() + "\n\nAn edited sentence.\n"]
    notebook.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    print(f"cores {os.cpu_count()}; {_load()}")
    with tempfile.TemporaryDirectory(prefix="bench-book-") as tmp:
        root = Path(tmp)
        copy_tracked(root)
        (root / ".venv").symlink_to((REPO / ".venv").resolve())
        times = {"fresh": build(root)}
        times["cached, nothing changed"] = build(root)
        edit_one_markdown_cell(root / EDITED)
        times["after one markdown edit"] = build(root)
    print(f"{'build':28} {'seconds':>8}  target")
    for what, seconds in times.items():
        target = TARGETS.get(what)
        print(f"{what:28} {seconds:8.1f}  {f'<= {target:.0f} s' if target else ''}")
    print(f"({_load()}; the edit: one markdown cell of {EDITED})")


if __name__ == "__main__":
    main()
