"""How long does one slider move take, and how long does a static control take to build?

For every figure the book passes to :func:`perceptron_core.figures.sliders.explore` (the
``BENCH_CASES`` lists of the modules in :mod:`perceptron_core.figures`: each chapter's figure
with the grid of its sliders) this prints

* live redraw: from new slider values to the PNG bytes the kernel sends, what one slider move
  costs in a kernel (p50 / p95 in ms over random grid points, target p95 < 100 ms). As the
  live widget does, the figure is drawn once, one step is taken along each slider, and from
  then on each move updates the figure in place and redraws what changed. The model runs of
  every grid point are computed first (they are cached, as after a reader's first visit), so
  the numbers are the figure's, not the perceptron's;
* static build: computing every frame of the whole control, as ``jupyter-book build`` does,
  with the number of distinct frames and the weight of the HTML.

``--before DIR`` times an older copy of the package side by side, in the same process and
interleaved move by move (the machine's load then weighs on both alike), e.g. the last commit::

    mkdir -p /tmp/before && git archive HEAD perceptron_core | tar -x -C /tmp/before
    python bench/bench_redraw.py --before /tmp/before/perceptron_core

Run from the repository root: ``python bench/bench_redraw.py [--moves 40] [--only NAME]``.
Not a test: the numbers depend on the machine and on its load, which is printed.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import itertools
import os
import pkgutil
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runnable without installing

import perceptron_core  # noqa: E402
from perceptron_core.figures import sliders as interactive  # noqa: E402

TARGET_P95_MS = 100.0


def load_package(path: Path, name: str):
    """Import the package in directory ``path`` under another name (its imports are relative)."""
    spec = importlib.util.spec_from_file_location(
        name, path / "__init__.py", submodule_search_locations=[str(path)])
    if spec is None or spec.loader is None:
        raise SystemExit(f"--before {path}: no package there (expected {path}/__init__.py)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def discover_cases(package) -> dict[str, tuple]:
    """``{module:name: (draw, params)}`` from every ``<package>.figures.<chapter>``."""
    figures = importlib.import_module(f"{package.__name__}.figures")
    cases = {}
    for info in sorted(pkgutil.iter_modules(figures.__path__), key=lambda m: m.name):
        try:
            module = importlib.import_module(f"{figures.__name__}.{info.name}")
        except Exception as err:  # a chapter in progress must not stop the benchmark
            print(f"(skipping {info.name}: import failed: {err!r})")
            continue
        for label, draw, params in getattr(module, "BENCH_CASES", None) or []:
            # A plain value is a fixed point: a one-value choice, so explore() accepts it.
            grid = {k: v if isinstance(v, (tuple, list)) else [v] for k, v in params.items()}
            cases[f"{info.name}:{label}"] = (draw, grid)
    return cases


def find_before(old, name: str, draw):
    """The older package's function of the same chapter and name as ``draw``, if any."""
    chapter = name.split(":")[0]
    try:
        module = importlib.import_module(f"{old.__name__}.figures.{chapter}")
    except ImportError:
        return None
    return getattr(module, draw.__name__, None)


def grid_points(interactive_module, params: dict) -> tuple[list[dict], dict]:
    expanded = interactive_module._expand_all(params, max_frames=10**9)
    names = [p.name for p in expanded]
    points = [dict(zip(names, combo)) for combo in itertools.product(*(p.values for p in expanded))]
    first = {p.name: p.values[p.initial] for p in expanded}
    return points, first


class After:
    """This package's live path: the figure drawn once, then updated (what a LiveExplorer does)."""

    def __init__(self, draw, params):
        self.frames = interactive._Frames(draw)
        expanded = interactive._expand_all(params, max_frames=10**9)
        first = {p.name: p.values[p.initial] for p in expanded}
        self.frames.png(first)
        for p in expanded:  # the widget's first steps, which show what a move changes
            if len(p.values) > 1:
                step = p.initial + 1 if p.initial + 1 < len(p.values) else p.initial - 1
                self.frames.png({**first, p.name: p.values[step]})

    def move(self, values: dict) -> bytes:
        return self.frames.png(values)


class Before:
    """An older package's live path, whatever it is: draw() a new figure, render it to PNG."""

    def __init__(self, module, draw):
        self.module, self.draw = module, draw
        # An older copy of this very design keeps its figure from move to move.
        self.frames = module._Frames(draw) if hasattr(module, "_Frames") else None

    def move(self, values: dict) -> bytes:
        if self.frames is not None:
            return self.frames.png(values)
        return self.module._render_png(self.module._call_draw(self.draw, values))


def percentiles(xs: list[float]) -> tuple[float, float]:
    return float(np.percentile(xs, 50)), float(np.percentile(xs, 95))


def static_build(interactive_module, draw, params) -> tuple[float, int, int, int]:
    start = time.perf_counter()
    ctrl = interactive_module.explore(draw, alt="benchmark", mode="static", max_frames=10**9,
                                      **params)
    return time.perf_counter() - start, len(ctrl.frame_index), len(ctrl.frames), len(ctrl.html)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="live moves per figure")
    parser.add_argument("--before", type=Path, help="an older perceptron_core directory")
    parser.add_argument("--only", help="time only the figures whose name contains this")
    parser.add_argument("--no-static", action="store_true", help="skip the static builds")
    args = parser.parse_args()

    cases = discover_cases(perceptron_core)
    old = load_package(args.before.resolve(), "perceptron_core_before") if args.before else None
    if args.only:
        cases = {k: v for k, v in cases.items() if args.only in k}
    if not cases:
        raise SystemExit("no BENCH_CASES in perceptron_core.figures")

    load = os.getloadavg()
    print(f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"at the start; {args.moves} moves per figure")
    width = max(len(name) for name in cases) + 1
    cols = f"{'after p50':>9} {'p95':>7}"
    if old is not None:
        cols = f"{'before p50':>10} {'p95':>7}  " + cols
    header = f"{'figure':<{width}} {cols}"
    if not args.no_static:
        header += f"  {'static s':>8} {'points':>6} {'frames':>6} {'KB':>6}"
        if old is not None:
            header += f" {'before s':>8}"
    print(header)
    print("-" * len(header))
    slow = []
    for name, (draw, params) in cases.items():
        try:
            # The static build first: it also computes (and caches) every grid point's data.
            static = (None if args.no_static
                      else static_build(interactive, draw, params))
            points, _ = grid_points(interactive, params)
            if args.no_static:
                for values in points:
                    interactive._close(interactive._call_draw(draw, values))
            after = After(draw, params)
            before = None
            old_draw = find_before(old, name, draw) if old is not None else None
            if old_draw is not None:
                old_params = params  # this package's grid, drawn by the older code
                old_static = (None if args.no_static
                              else static_build(old.interactive, old_draw, old_params))
                if args.no_static:
                    for values in points:
                        old.interactive._close(old.interactive._call_draw(old_draw, values))
                before = Before(old.interactive, old_draw)
            rng = random.Random(0)
            times: dict[str, list[float]] = {"after": [], "before": []}
            for i in range(args.moves):
                values = rng.choice(points)
                runs = [("after", after)] + ([("before", before)] if before else [])
                for label, runner in (runs if i % 2 else runs[::-1]):  # alternate who goes first
                    start = time.perf_counter()
                    runner.move(values)
                    times[label].append((time.perf_counter() - start) * 1000)
        except Exception as err:  # report and go on with the other figures
            print(f"{name:<{width}} failed: {err!r}")
            continue
        p50, p95 = percentiles(times["after"])
        row = f"{name:<{width}} "
        if old is not None:
            row += (f"{percentiles(times['before'])[0]:>8.0f}ms {percentiles(times['before'])[1]:>5.0f}ms  "
                    if times["before"] else f"{'-':>10} {'-':>7}  ")
        row += f"{p50:>7.0f}ms {p95:>5.0f}ms"
        if static is not None:
            seconds, n_points, n_frames, size = static
            row += f"  {seconds:>8.2f} {n_points:>6} {n_frames:>6} {size / 1000:>6.0f}"
            if old is not None and before is not None:
                row += f" {old_static[0]:>8.2f}"
        if p95 >= TARGET_P95_MS:
            slow.append(name)
            row += "  <- over target"
        print(row, flush=True)
    load = os.getloadavg()
    print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")
    print(f"live = new slider values -> PNG bytes, over {args.moves} random grid points; "
          f"target p95 < {TARGET_P95_MS:.0f} ms. static = every frame of the control at build "
          "time; KB = its HTML (pages <= 3 MB).")
    if slow:
        print("Over target:", ", ".join(slow))


if __name__ == "__main__":
    main()
