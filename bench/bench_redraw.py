"""How long does one slider move take, and how long does a static control take to build?

For every figure the book passes to :func:`perceptron_core.interactive.explore` (the
``BENCH_CASES`` lists of the modules in :mod:`perceptron_core.figures`) this prints

* live redraw: ``draw(**params)`` + render to PNG bytes, what one slider move costs in a kernel,
  timed over random grid points (p50 / p95 in ms, target p95 < 100 ms);
* static build: computing every frame of the whole control, as ``jupyter-book build`` does,
  with the number of distinct frames and the weight of the HTML.

``params`` may hold explore() specs (``{"angle": (0, 350, 10)}``: a grid, timed as the whole
control) or plain values (``{"angle": 40}``: a single point, which then counts as a one-value
grid, so the static column only times one frame). Give grids to benchmark the static build.

Run from the repository root: ``python bench/bench_redraw.py [--reps 30]``. Not a test: the
numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import pkgutil
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runnable without installing

from perceptron_core import interactive  # noqa: E402

TARGET_P95_MS = 100.0


def discover_cases() -> list[tuple[str, object, dict]]:
    """``(module:name, draw, params)`` from every ``perceptron_core.figures.<chapter>``."""
    try:
        package = importlib.import_module("perceptron_core.figures")
    except ImportError as err:
        print(f"(no perceptron_core.figures package: {err})")
        return []
    cases = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        name = f"{package.__name__}.{info.name}"
        try:
            module = importlib.import_module(name)
        except Exception as err:  # a chapter in progress must not stop the benchmark
            print(f"(skipping {name}: import failed: {err!r})")
            continue
        for case in getattr(module, "BENCH_CASES", None) or []:
            label, draw, params = case
            # A plain value is a fixed point: make it a one-value choice so explore() accepts it.
            grid = {k: v if isinstance(v, (tuple, list)) else [v] for k, v in params.items()}
            cases.append((f"{info.name}:{label}", draw, grid))
    return cases


def demo_case() -> tuple[str, object, dict]:
    """A book-sized stand-in used while no chapter defines BENCH_CASES yet."""
    from matplotlib.figure import Figure

    def draw(gamma: float, seed: int) -> Figure:
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(80, 2))
        y = np.where(X @ [1.0, 1.0] >= 0, 1, -1)
        X = X + gamma * y[:, None]
        fig = Figure(figsize=(6.4, 4), layout="constrained")
        ax = fig.add_subplot()
        ax.scatter(*X[y > 0].T, marker="o")
        ax.scatter(*X[y < 0].T, marker="x")
        xs = np.linspace(-3, 3, 2)
        ax.plot(xs, -xs, "k-")
        ax.fill_between(xs, -xs - gamma * 2**0.5, -xs + gamma * 2**0.5, alpha=0.15)
        ax.set(xlim=(-3, 3), ylim=(-3, 3), title=f"margin {gamma:.2f}, data set {seed}")
        return fig

    return "demo (built-in)", draw, {"gamma": (0.05, 0.5, 0.05), "seed": [0, 1, 2]}


def bench_live(draw, params: dict, reps: int) -> tuple[float, float, float]:
    """p50 and p95 of a whole slider move, and p50 of the part spent inside ``draw``."""
    grids = [p.values for p in interactive._expand_all(params, max_frames=10**9)]
    names = list(params)
    rng = random.Random(0)
    interactive._render_png(interactive._call_draw(draw, {n: g[0] for n, g in zip(names, grids)}))
    total, in_draw = [], []
    for _ in range(reps):
        values = {n: rng.choice(g) for n, g in zip(names, grids)}
        start = time.perf_counter()
        fig = interactive._call_draw(draw, values)
        drawn = time.perf_counter()
        interactive._render_png(fig)  # draw + render = one slider move
        end = time.perf_counter()
        total.append((end - start) * 1000)
        in_draw.append((drawn - start) * 1000)
    return (float(np.percentile(total, 50)), float(np.percentile(total, 95)),
            float(np.percentile(in_draw, 50)))


def bench_static(draw, params: dict) -> tuple[float, int, int, int]:
    start = time.perf_counter()
    ctrl = interactive.explore(draw, alt="benchmark", mode="static", max_frames=10**9, **params)
    seconds = time.perf_counter() - start
    n_points = len(ctrl.frame_index)
    return seconds, n_points, len(ctrl.frames), len(ctrl.html)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=30, help="live redraws per case")
    args = parser.parse_args()

    cases = discover_cases()
    if not cases:
        print("(no BENCH_CASES in perceptron_core.figures yet; timing a built-in demo figure)")
        cases = [demo_case()]

    width = max(len(c[0]) for c in cases) + 1
    header = (f"{'case':<{width}} {'live p50':>9} {'live p95':>9} {'in draw':>8}  {'static s':>8} "
              f"{'points':>6} "
              f"{'frames':>6} {'KB':>7} {'KB/frame':>8}")
    print(header)
    print("-" * len(header))
    slow = []
    for name, draw, params in cases:
        try:
            p50, p95, p50_draw = bench_live(draw, params, args.reps)
            seconds, points, frames, size = bench_static(draw, params)
        except Exception as err:  # report and go on with the other figures
            print(f"{name:<{width}} failed: {err!r}")
            continue
        flag = "" if p95 < TARGET_P95_MS else "  <- over target"
        if flag:
            slow.append(name)
        print(f"{name:<{width}} {p50:>7.1f}ms {p95:>7.1f}ms {p50_draw:>6.1f}ms  {seconds:>8.2f} "
              f"{points:>6} {frames:>6} "
              f"{size / 1000:>7.0f} {size / 1000 / max(frames, 1):>8.1f}{flag}")
    print(f"\nlive = draw + PNG render per slider move over {args.reps} random grid points "
          "('in draw' = p50 of the part inside draw(), i.e. building the figure); "
          f"target p95 < {TARGET_P95_MS:.0f} ms.")
    print("static = all frames of one control at build time; KB = its HTML (pages <= 3 MB).")
    if slow:
        print("Over target:", ", ".join(slow))


if __name__ == "__main__":
    main()
