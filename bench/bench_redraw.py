"""How long does one slider move take, and how long does a static control take to build?

For every figure the book passes to :func:`perceptron_core.figures.explore` (the ``BENCH_CASES``
lists of the modules in :mod:`perceptron_core.figures`: each chapter's figure with the grid of its
sliders) this prints

* live redraw: from new slider values to the PNG bytes the kernel sends, what one slider move
  costs in a kernel (p50 / p95 in ms over random grid points, target p95 < 100 ms; "cpu p95"
  is the same in processor time of this process, which other jobs on the machine inflate less). As the live
  widget does, the first frame is drawn, then one step along each slider, then the timed moves;
  each draws a new figure over the axes kept from earlier frames
  (:mod:`perceptron_core.figures.render`). The model runs of every grid point are computed
  first (they are cached, as after a reader's first visit), so the numbers are the figure's,
  not the perceptron's. "kept" counts the timed moves whose axes were all kept, "new" those
  that drew some axes, "whole" those drawn as plain matplotlib draws them;
* static build: computing every frame of the whole control, as ``jupyter-book build`` does,
  with the number of distinct frames and the weight of the HTML.

It does this under every matplotlib the package is tested with, one after the other: the
interpreter running it (the pinned versions, ``.venv``) and the lowest versions
(``.venv-lowest``, made by ``make venv-lowest``), or the interpreters given with ``--python``,
each with one BLAS thread (numpy 1.24's OpenBLAS would otherwise keep a second thread spinning).
It ends with one line per matplotlib::

    worst p95: 71 ms (matplotlib 3.11.2)
    worst p95: 64 ms (matplotlib 3.10.0)

``--before DIR`` times an older copy of the package (one with ``perceptron_core.figures``) side
by side, in the same process and interleaved move by move (the machine's load then weighs on
both alike), e.g. the last commit::

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
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # runnable without installing

TARGET_P95_MS = 100.0
LOWEST_PYTHON = REPO / ".venv-lowest" / "bin" / "python"
#: The last line a run under one interpreter prints, read back by the parent run.
SUMMARY = re.compile(r"^worst p95: (?P<ms>[\d.]+|-) ms \(matplotlib (?P<version>\S+)\)$")


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


def grid_points(sliders, params: dict) -> list[dict]:
    grid = sliders.slider_grid(**params)
    return [dict(zip(grid, combo)) for combo in itertools.product(*grid.values())]


class Live:
    """A live widget's drawing path: the first frame, one step along each slider, then moves."""

    def __init__(self, sliders, draw, params):
        self.frames = sliders._Frames(draw)
        expanded = sliders._expand_all(params, max_frames=10**9)
        first = {p.name: p.values[p.initial] for p in expanded}
        self.frames.png(first)
        for p in expanded:  # the widget's first steps (see LiveExplorer._learn)
            if len(p.values) > 1:
                step = p.initial + 1 if p.initial + 1 < len(p.values) else p.initial - 1
                self.frames.png({**first, p.name: p.values[step]})
        self.ways: Counter = Counter()

    def move(self, values: dict) -> bytes:
        png = self.frames.png(values)
        self.ways[getattr(getattr(self.frames, "renderer", None), "last", None)] += 1
        return png


def percentiles(xs: list[float]) -> tuple[float, float]:
    return float(np.percentile(xs, 50)), float(np.percentile(xs, 95))


def static_build(sliders, draw, params) -> tuple[float, int, int, int]:
    start = time.perf_counter()
    ctrl = sliders.explore(draw, alt="benchmark", mode="static", max_frames=10**9, **params)
    return time.perf_counter() - start, len(ctrl.frame_index), len(ctrl.frames), len(ctrl.html)


def run_here(args) -> float | None:
    """Time every figure under this interpreter; print the table and the summary line."""
    import matplotlib

    import perceptron_core
    from perceptron_core.figures import sliders

    cases = discover_cases(perceptron_core)
    old = load_package(args.before.resolve(), "perceptron_core_before") if args.before else None
    if args.only:
        cases = {k: v for k, v in cases.items() if args.only in k}
    if not cases:
        raise SystemExit("no BENCH_CASES in perceptron_core.figures")

    load = os.getloadavg()
    print(f"matplotlib {matplotlib.__version__}, numpy {np.__version__}, Python "
          f"{sys.version.split()[0]} ({sys.executable})")
    print(f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"at the start; {args.moves} moves per figure")
    width = max(len(name) for name in cases) + 1
    cols = f"{'p50':>7} {'p95':>7} {'cpu p95':>7}  {'kept':>4} {'new':>4} {'whole':>5}"
    if old is not None:
        cols = f"{'before p50':>10} {'p95':>7}  " + cols
    header = f"{'figure':<{width}} {cols}"
    if not args.no_static:
        header += f"  {'static s':>8} {'points':>6} {'frames':>6} {'KB':>6}"
        if old is not None:
            header += f" {'before s':>8}"
    print(header)
    print("-" * len(header))
    slow, worst = [], None
    for name, (draw, params) in cases.items():
        try:
            # The static build first: it also computes (and caches) every grid point's data.
            static = None if args.no_static else static_build(sliders, draw, params)
            points = grid_points(sliders, params)
            if args.no_static:
                for values in points:
                    sliders._close(sliders._call_draw(draw, values))
            after = Live(sliders, draw, params)
            before = old_static = None
            old_draw = find_before(old, name, draw) if old is not None else None
            if old_draw is not None:
                old_sliders = importlib.import_module(f"{old.__name__}.figures.sliders")
                old_static = (None if args.no_static
                              else static_build(old_sliders, old_draw, params))
                before = Live(old_sliders, old_draw, params)
            rng = random.Random(0)
            times: dict[str, list[float]] = {"after": [], "before": [], "cpu": []}
            for i in range(args.moves):
                values = rng.choice(points)
                runs = [("after", after)] + ([("before", before)] if before else [])
                for label, runner in (runs if i % 2 else runs[::-1]):  # alternate who goes first
                    start, cpu = time.perf_counter(), time.process_time()
                    runner.move(values)
                    times[label].append((time.perf_counter() - start) * 1000)
                    if label == "after":
                        times["cpu"].append((time.process_time() - cpu) * 1000)
        except Exception as err:  # report and go on with the other figures
            print(f"{name:<{width}} failed: {err!r}", flush=True)
            slow.append(name)
            continue
        p50, p95 = percentiles(times["after"])
        worst = p95 if worst is None else max(worst, p95)
        row = f"{name:<{width}} "
        if old is not None:
            row += (f"{percentiles(times['before'])[0]:>8.0f}ms {percentiles(times['before'])[1]:>5.0f}ms  "
                    if times["before"] else f"{'-':>10} {'-':>7}  ")
        row += (f"{p50:>5.0f}ms {p95:>5.0f}ms {percentiles(times['cpu'])[1]:>5.0f}ms  "
                f"{after.ways['reused']:>4} {after.ways['drawn']:>4} {after.ways['whole']:>5}")
        if static is not None:
            seconds, n_points, n_frames, size = static
            row += f"  {seconds:>8.2f} {n_points:>6} {n_frames:>6} {size / 1000:>6.0f}"
            if old_static is not None:
                row += f" {old_static[0]:>8.2f}"
        if p95 >= TARGET_P95_MS:
            slow.append(name)
            row += "  <- over target"
        print(row, flush=True)
    load = os.getloadavg()
    print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end")
    print(f"live = new slider values -> PNG bytes, over {args.moves} random grid points; "
          f"target p95 < {TARGET_P95_MS:.0f} ms; cpu = this process's processor time. kept / "
          "new / whole: moves drawn over kept axes / with some axes drawn / as plain matplotlib "
          "draws. static = every frame of the control at build time; KB = its HTML (pages <= "
          "3 MB).")
    if slow:
        print("Over target or failed:", ", ".join(slow))
    print(f"worst p95: {'-' if worst is None else f'{worst:.0f}'} ms "
          f"(matplotlib {matplotlib.__version__})", flush=True)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40, help="live moves per figure")
    parser.add_argument("--before", type=Path, help="an older perceptron_core directory")
    parser.add_argument("--only", help="time only the figures whose name contains this")
    parser.add_argument("--no-static", action="store_true", help="skip the static builds")
    parser.add_argument("--python", action="append", type=Path, metavar="PYTHON",
                        help="interpreters to run under (repeatable); default: this one and "
                             f"{LOWEST_PYTHON.relative_to(REPO)} if it exists")
    parser.add_argument("--here", action="store_true",
                        help="run under this interpreter only (what each run of the others does)")
    args = parser.parse_args()
    if args.moves < 1:
        parser.error("--moves must be at least 1")
    if args.here:
        run_here(args)
        return

    pythons = args.python or [Path(sys.executable)] + (
        [LOWEST_PYTHON] if LOWEST_PYTHON.exists() else [])
    if not args.python and not LOWEST_PYTHON.exists():
        print(f"({LOWEST_PYTHON.relative_to(REPO)} is missing: `make venv-lowest` makes it; "
              "timing this interpreter only)")
    # numpy 1.24's OpenBLAS (the lowest versions) keeps a second thread spinning once matplotlib's
    # transforms have called it: twice the processor time of the drawing itself, taken from
    # whatever else runs. One BLAS thread, as bench_perceptron.py uses, times the drawing alike
    # under every numpy (numpy 2's OpenBLAS does not spin, so the pinned run is unchanged).
    env = dict(os.environ)
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(name, "1")
    summaries = []
    for python in pythons:  # one after the other: the runs must not share the cores
        print(f"\n=== {python} ===", flush=True)
        # The lowest environment's numba keeps its compiled loops apart, as the Makefile does.
        own = {"NUMBA_CACHE_DIR": str(LOWEST_PYTHON.parents[1] / "numba-cache")} if python == LOWEST_PYTHON else {}
        child = subprocess.run([str(python), str(Path(__file__).resolve()), "--here",
                                *_without_python(sys.argv[1:])],
                               cwd=REPO, env={**env, **own}, stdout=subprocess.PIPE, text=True)
        print(child.stdout, end="", flush=True)
        lines = [m for line in child.stdout.splitlines() if (m := SUMMARY.match(line))]
        if child.returncode != 0 or not lines:
            summaries.append(f"worst p95: - ms (the run under {python} failed, exit status "
                             f"{child.returncode})")
        else:
            summaries.append(lines[-1].group(0))
    print()
    for line in summaries:
        print(line)


def _without_python(argv: list[str]) -> list[str]:
    """``argv`` without its ``--python X`` / ``--python=X`` options (the children run here)."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--python":
            skip = True
        elif not arg.startswith("--python="):
            kept.append(arg)
    return kept


if __name__ == "__main__":
    main()
