"""How long does one slider move take, and how long does a static control take to build?

For every figure the book passes to :func:`perceptron_core.figures.explore` (the ``BENCH_CASES``
of the modules in :mod:`perceptron_core.figures`: each chapter's figure with its sliders' grid)
this prints

* live redraw: from new slider values to the PNG bytes the kernel sends, what a slider move
  costs in a kernel: p50 / p95 in ms over random grid points (target p95 < 100 ms), and the
  share of it in the chapter's ``draw`` (building the figure), matplotlib's Agg draw and the
  PNG encode, so that a slow figure says where its time goes. As in the widget, the first
  frame is drawn once before the timed moves, and every grid point's computation is done
  first (cached, as after a reader's first visit): the numbers are the figure's;
* static build (``--static``): the whole control as ``jupyter-book build`` makes it, with the
  number of distinct pictures and the weight of its HTML.

It ends with one line per matplotlib, ``worst p95: 71 ms (matplotlib 3.11.2)``: the interpreter
running it, then each ``--python`` given (``--python .venv-lowest/bin/python`` for the lowest
versions, made by ``make venv-lowest``), one after the other, each with one BLAS thread (numpy
1.24's OpenBLAS would otherwise keep a second thread spinning).

Run from the repository root: ``python bench/bench_redraw.py [--moves 40] [--only NAME]``.
Not a test: the numbers depend on the machine and its load, which is printed.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
import pkgutil
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # runnable without installing
TARGET_P95_MS = 100.0


def book_cases() -> dict[str, tuple]:
    """``{name: (draw, params)}`` from every chapter module of :mod:`perceptron_core.figures`."""
    figures = importlib.import_module("perceptron_core.figures")
    cases = {}
    for info in sorted(pkgutil.iter_modules(figures.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"perceptron_core.figures.{info.name}")
        for name, draw, params in getattr(module, "BENCH_CASES", []):
            cases[name] = (draw, params)
    return cases


def time_moves(draw, params: dict, moves: int) -> dict[str, list[float]]:
    """Seconds per part of each of ``moves`` live redraws at random grid points."""
    from perceptron_core.figures import sliders

    grid = sliders.slider_grid(**params)
    points = [dict(zip(grid, combo)) for combo in itertools.product(*grid.values())]
    for values in points:  # the chapter's computations, cached as after a first visit
        draw(**values)
    parts: dict[str, float] = {}

    def timed(function, part):
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                parts[part] = parts.get(part, 0.0) + time.perf_counter() - start
        return wrapper

    painter = sliders._Painter(timed(draw, "draw"))
    painter(points[0])  # the first frame, as the widget draws it before any move
    times: dict[str, list[float]] = {"total": [], "draw": [], "encode": []}
    rng = random.Random(0)
    for _ in range(moves):
        parts.clear()
        start = time.perf_counter()
        rgba = painter(rng.choice(points))[0]
        drawn = time.perf_counter()
        sliders._png(rgba)
        end = time.perf_counter()
        times["total"].append(end - start)
        times["draw"].append(parts["draw"])
        times["encode"].append(end - drawn)
    return times


def run_here(args) -> None:
    import matplotlib

    from perceptron_core.figures import sliders

    load = os.getloadavg()
    print(f"matplotlib {matplotlib.__version__}, {os.cpu_count()} CPUs, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'figure':28s} {'p50':>6s} {'p95':>6s}   of p95: draw() Agg  PNG"
          + ("   static: s  pictures  KB" if args.static else ""))
    worst = 0.0
    for name, (draw, params) in book_cases().items():
        if args.only and args.only not in name:
            continue
        t = {k: np.array(v) * 1000 for k, v in time_moves(draw, params, args.moves).items()}
        p50, p95 = np.percentile(t["total"], [50, 95])
        slow = t["total"] >= np.percentile(t["total"], 90)  # the moves that make the p95
        shares = [t[k][slow].mean() for k in ("draw", "encode")]
        agg = t["total"][slow].mean() - sum(shares)
        line = (f"{name:28s} {p50:6.1f} {p95:6.1f}{' *' if p95 > TARGET_P95_MS else '  '}"
                f"        {shares[0]:5.1f} {agg:5.1f} {shares[1]:4.1f}")
        if args.static:
            start = time.perf_counter()
            control = sliders.explore(draw, alt=name, mode="static", max_frames=10**6, **params)
            line += (f"   {time.perf_counter() - start:8.1f} {sum(p["count"] for p in control.packs):9d} "
                     f"{len(control.html) / 1000:5.0f}")
        print(line, flush=True)
        worst = max(worst, p95)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")
    print(f"worst p95: {worst:.0f} ms (matplotlib {matplotlib.__version__})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="timed moves per figure")
    parser.add_argument("--only", help="only the figures whose name contains this")
    parser.add_argument("--static", action="store_true", help="also build each static control")
    parser.add_argument("--python", action="append", default=[], type=Path,
                        help="also run under this interpreter (repeatable)")
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.here:
        return run_here(args)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    argv = [a for a in sys.argv[1:] if a not in map(str, args.python) and a != "--python"]
    summaries = []
    for python in [Path(sys.executable), *args.python]:  # one after the other, not together
        print(f"\n=== {python} ===", flush=True)
        child = subprocess.run([str(python), __file__, "--here", *argv], cwd=REPO, env=env,
                               stdout=subprocess.PIPE, text=True)
        print(child.stdout, end="", flush=True)
        summaries.append(child.stdout.strip().splitlines()[-1] if child.returncode == 0
                         else f"worst p95: - ms (the run under {python} failed)")
    print("\n" + "\n".join(summaries))


if __name__ == "__main__":
    main()
