"""How long does each cell of each chapter take, run as a student runs it?

Every chapter (or those named) runs in a kernel of its own, in an empty folder (so
``glue_numbers`` is missing and the glue cells do nothing, as in a reader notebook), without its
cells tagged ``book-only`` (the reader notebooks leave them out), with live sliders
(``PERCEPTRON_STATIC_WIDGETS`` unset). For each chapter it prints the whole run and its slowest
cells: wall-clock seconds (nbclient's timing of the cell) and the kernel's CPU seconds
(IPython's cell events), which a busy machine moves less. ``--fresh-numba`` points numba's
cache at an empty folder, as on a fresh install, where numba compiles the loops once.

Run from the repository root: ``python bench/bench_cells.py [--fresh-numba] [book/x.ipynb ...]``.
Not a test: the numbers depend on the machine and its load, which is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
# Cell events of IPython: the CPU time of every cell, printed by a last cell added for it.
HOOK = """import time as _t
_cpu, _c0 = [], _t.process_time()
def _pre(info):
    global _c0; _c0 = _t.process_time()
get_ipython().events.register('pre_run_cell', _pre)
get_ipython().events.register('post_run_cell', lambda r: _cpu.append(_t.process_time() - _c0))"""


def seconds(cell) -> float:
    run = cell.metadata["execution"]
    start, end = (datetime.fromisoformat(run[k].replace("Z", "+00:00"))
                  for k in ("iopub.execute_input", "shell.execute_reply"))
    return (end - start).total_seconds()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", default=sorted(map(str, REPO.glob("book/*.ipynb"))))
    parser.add_argument("--fresh-numba", action="store_true")
    parser.add_argument("--top", type=int, default=3)
    args = parser.parse_args()
    os.environ.pop("PERCEPTRON_STATIC_WIDGETS", None)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    for path in args.chapters:
        nb = nbformat.read(path, as_version=4)
        code = [c for c in nb.cells  # the reader notebooks leave out what only the prose needs
                if c.cell_type == "code" and "book-only" not in c.metadata.get("tags", [])]
        nb.cells = [nbformat.v4.new_code_cell(HOOK), *code, nbformat.v4.new_code_cell("print(_cpu)")]
        with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as cache:
            if args.fresh_numba:
                os.environ["NUMBA_CACHE_DIR"] = cache
            start = time.perf_counter()
            NotebookClient(nb, timeout=900, kernel_name="python3", record_timing=True,
                           resources={"metadata": {"path": folder}}).execute()
            total = time.perf_counter() - start
        cpu = json.loads(nb.cells[-1].outputs[0]["text"])[-len(code):]
        rows = sorted(zip((seconds(c) for c in code), cpu, code), key=lambda r: -r[0])
        print(f"{Path(path).stem}: {total:.1f} s in all; slowest cells (wall, CPU):")
        for wall, used, cell in rows[:args.top]:
            print(f"  {wall:6.2f} s {used:6.2f} s  {cell.source.splitlines()[0][:60]}")
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())} at the end")


if __name__ == "__main__":
    sys.exit(main())
