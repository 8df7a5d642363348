"""How fast is the playground in the page? One update for 200 points against one animation frame.

The playground (perceptron_core/static/playground.js) recomputes everything it shows on every
edit: the perceptron's whole run (every sign decided exactly), the certified maximum margin,
R and the bound, then redraws. The issue's budget is one animation frame (16.7 ms at 60 Hz) for
200 points. In headless Chromium this prints, for 200 points in the plane:

* the module alone: ``perceptronRun`` (to convergence, or 100 epochs) and ``certifiedMargin``,
  median over repeats, in ms;
* a whole update as a reader makes it: one point moved (``model.set("points", …)``), then the
  playground's own time for that update (``data-update-ms``, from the change to the new picture
  built), median and p95 over the moves, and the wall time until the next animation frame;
* the same run in Python, measured in the same run: ``perceptron_core.perceptron`` and
  ``max_margin``, and scikit-learn's ``Perceptron`` (same epochs, ``shuffle=False``) and a
  hard-margin linear ``SVC`` (on the separable points only), with the ratios page / Python.

Data: 200 planted points (margin 0.05, radius 1, through the origin) and the same points with
5% of their labels flipped (inseparable: the run goes on to its cap). Also the module's size,
raw and gzipped (budget 100 KB).

Run from the repository root: ``python bench/bench_playground.py [--moves 60]``. A benchmark,
not a test: nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import perceptron_core as pc  # noqa: E402
from perceptron_core.data import flip_labels, planted  # noqa: E402

MODULE = REPO / "perceptron_core" / "static" / "playground.js"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FRAME_MS = 1000 / 60
EPOCHS = 100
PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head>
<body><div id="host"></div><script type="module">
import * as pg from "./playground.js"; window.pg = pg; window.pgReady = true;
</script></body></html>"""


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    from sklearn.linear_model import Perceptron
    from sklearn.svm import SVC

    raw = MODULE.read_bytes()
    print(f"module: {len(raw) / 1000:.1f} KB raw, {len(gzip.compress(raw)) / 1000:.1f} KB gzipped "
          f"(budget 100 KB); load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    X, y, _ = planted(200, 2, 0.05, 1.0, seed=1)
    sets = {"separable": (X, y), "5% flipped": (X, flip_labels(y, 0.05, seed=1))}

    root = Path(tempfile.mkdtemp())
    shutil.copy(MODULE, root / "playground.js")
    (root / "index.html").write_text(PAGE)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(url)
        page.wait_for_function("window.pgReady === true")
        for name, (Xs, ys) in sets.items():
            data = {"X": Xs.tolist(), "y": ys.astype(int).tolist()}
            js = page.evaluate("""([d, repeat, epochs]) => {
                const med = (f) => { const t = []; for (let k = 0; k < repeat; k++) {
                    const t0 = performance.now(); f(); t.push(performance.now() - t0); }
                    t.sort((a, b) => a - b); return t[t.length >> 1]; };
                const run = pg.perceptronRun(d.X, d.y, { maxEpochs: epochs });
                return { run: med(() => pg.perceptronRun(d.X, d.y, { maxEpochs: epochs })),
                         margin: med(() => pg.certifiedMargin(d.X, d.y)),
                         updates: run.steps.length, converged: run.converged };
            }""", [data, args.repeat, EPOCHS])
            # The whole update, as a reader makes it: one point moved at a time.
            view = [-1.2, 1.2, -1.2, 1.2]
            state = {"points": data["X"], "labels": data["y"], "presets": [], "preset": "",
                     "view": view, "tie": "mistake", "offset": False, "c": 1.0,
                     "margin_target": False, "target": 0.5, "max_epochs": EPOCHS,
                     "title": "Perceptron playground (benchmark)"}
            upd = page.evaluate("""async ([state, moves]) => {
                const host = document.querySelector('#host'); host.innerHTML = '';
                const model = pg.staticModel(state);
                pg.default.render({ model, el: host });
                const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
                await frame(); await frame();
                const own = [], wall = [];
                for (let k = 0; k < moves; k++) {
                    const pts = model.get('points').map((p) => p.slice());
                    const i = (k * 37) % pts.length;
                    pts[i] = [pts[i][0] + (k % 2 ? 0.01 : -0.01), pts[i][1]];
                    const t0 = performance.now();
                    model.set('points', pts); model.save_changes();
                    await frame();
                    wall.push(performance.now() - t0);
                    own.push(Number(host.querySelector('.pcpg').dataset.updateMs));
                }
                const q = (a, p) => { const s = a.slice().sort((x, y) => x - y);
                    return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
                return { own50: q(own, 0.5), own95: q(own, 0.95), wall50: q(wall, 0.5), wall95: q(wall, 0.95) };
            }""", [state, args.moves])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                core_run = median_ms(lambda: pc.perceptron(Xs, ys, max_epochs=EPOCHS), args.repeat)
                try:
                    core_margin = median_ms(lambda: pc.max_margin(Xs, ys), args.repeat)
                except ValueError:
                    core_margin = median_ms(lambda: pc.separability(Xs, ys), args.repeat)
                sk_run = median_ms(lambda: Perceptron(shuffle=False, tol=None, eta0=1.0, penalty=None,
                                                      fit_intercept=False, max_iter=EPOCHS)
                                   .fit(Xs, ys), args.repeat)
                # A hard-margin SVC is the reference for a margin only where there is one (on the
                # flipped labels it only tries C = 1e10 in vain, for most of a minute).
                sk_svc = (median_ms(lambda: SVC(kernel="linear", C=1e10).fit(Xs, ys), max(3, args.repeat // 5))
                          if name == "separable" else float("nan"))
            print(f"\n{name}: 200 points, {js['updates']} updates, "
                  f"{'converged' if js['converged'] else f'stopped at {EPOCHS} epochs'}")
            print(f"  page  perceptronRun {js['run']:7.2f} ms   certifiedMargin {js['margin']:7.2f} ms")
            print(f"  core  perceptron    {core_run:7.2f} ms   max_margin/separability {core_margin:7.2f} ms")
            print(f"  sklearn Perceptron  {sk_run:7.2f} ms   SVC(linear, C=1e10) {sk_svc:7.2f} ms")
            print(f"  ratios page/core {js['run'] / core_run:.2f} (run), {js['margin'] / core_margin:.2f} (margin); "
                  f"page/sklearn {js['run'] / sk_run:.2f} (run), {js['margin'] / sk_svc:.2f} (margin vs SVC)")
            print(f"  whole update (one point moved): own p50 {upd['own50']:.2f} ms, p95 {upd['own95']:.2f} ms; "
                  f"to the next frame p50 {upd['wall50']:.1f} ms, p95 {upd['wall95']:.1f} ms "
                  f"(one frame = {FRAME_MS:.1f} ms)")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
