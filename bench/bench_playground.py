"""How fast is the playground in the page? One update for 200 points against one animation frame.

The playground (perceptron_core/static/playground.js) recomputes everything it shows on every
edit: the perceptron's whole run (plain float64, as the core's), the margin (Wolfe's algorithm in
floats, its answer checked exactly), R and the bound, then redraws. The budget is one animation
frame (16.7 ms at 60 Hz) for 200 points. In headless Chromium this prints, for 200 points:

* the module alone: ``perceptronRun`` (to convergence, or 100 epochs) and ``certifiedMargin``,
  median over repeats, in ms;
* a whole update as a reader makes it: one point moved (``model.set("points", …)``), then the
  playground's own time for it (``data-update-ms``: the run, the margin and the new picture),
  p50 and p95 over the moves;
* the same work in Python in the same run: ``perceptron_core.perceptron`` and ``max_margin``
  (``separability`` on the inseparable set), scikit-learn's ``Perceptron`` (same epochs,
  ``shuffle=False``) and a hard-margin linear ``SVC`` (separable set only: on the other it tries
  C = 1e10 in vain for most of a minute), with the ratios page / Python.

Data: 200 planted points (margin 0.05, radius 1, through the origin) and the same points with
5% of their labels flipped. Also the module's size, raw and gzipped (budget 100 KB).

Run from the repository root: ``python bench/bench_playground.py`` (60 moves, 30 repeats). A benchmark,
not a test: nothing is asserted about time.
"""

from __future__ import annotations

import gzip
import os
import statistics
import sys
import timeit
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import perceptron_core as pc  # noqa: E402
from perceptron_core.data import flip_labels, planted  # noqa: E402

MODULE = REPO / "perceptron_core" / "static" / "playground.js"
EPOCHS, MOVES, REPEAT = 100, 60, 30
# The module inline (as the static book has it), its functions handed to the page.
PAGE = '<div id="host"></div><script type="module">{}\nwindow.pg = {{ perceptronRun, certifiedMargin, staticModel, render }};</script>'
MEASURE = """async ([d, repeat, moves, epochs]) => {
    const med = (f) => { const t = []; for (let k = 0; k < repeat; k++) { const t0 = performance.now(); for (let j = 0; j < 10; j++) f();
        t.push((performance.now() - t0) / 10); } return t.sort((a, b) => a - b)[t.length >> 1]; };  // 10 calls a sample: the clock has 0.1 ms steps
    const run = pg.perceptronRun(d.X, d.y, { maxEpochs: epochs }), host = document.querySelector('#host'), own = [];
    const model = pg.staticModel({ points: d.X, labels: d.y, view: [-1.2, 1.2, -1.2, 1.2], max_epochs: epochs }), stop = pg.render({ model, el: host });
    for (let k = 0; k < moves; k++) {  // one point moved a little, alternately left and right
        model.set('points', model.get('points').map((p, i) => (i === (k * 37) % 200 ? [p[0] + (k % 2 ? 0.01 : -0.01), p[1]] : p)));
        await new Promise((r) => requestAnimationFrame(r)).then(() => own.push(Number(host.querySelector('.pcpg').dataset.updateMs)));
    }
    stop();
    return { run: med(() => pg.perceptronRun(d.X, d.y, { maxEpochs: epochs })), margin: med(() => pg.certifiedMargin(d.X, d.y)),
        updates: run.steps.length, converged: run.converged, own: own.sort((a, b) => a - b) };
}"""


def ms(fn, repeat: int) -> float:
    return statistics.median(timeit.repeat(fn, number=1, repeat=repeat)) * 1000  # the median call, in ms


def main() -> None:
    from playwright.sync_api import sync_playwright
    from sklearn.linear_model import Perceptron
    from sklearn.svm import SVC

    warnings.simplefilter("ignore")  # the perceptron's ConvergenceWarning on the flipped labels

    raw = MODULE.read_bytes()
    print(f"module: {len(raw) / 1000:.1f} KB raw, {len(gzip.compress(raw)) / 1000:.1f} KB gzipped (budget 100 KB); "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    X, y, _ = planted(200, 2, 0.05, 1.0, seed=1)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.set_content(PAGE.format(raw.decode("utf-8")))
        page.wait_for_function("window.pg !== undefined")
        for name, ys in (("separable", y), ("5% flipped", flip_labels(y, 0.05, seed=1))):
            js = page.evaluate(MEASURE, [{"X": X.tolist(), "y": ys.astype(int).tolist()}, REPEAT, MOVES, EPOCHS])
            core_run = ms(lambda: pc.perceptron(X, ys, max_epochs=EPOCHS), REPEAT)
            core_margin = ms(lambda: pc.max_margin(X, ys) if name == "separable" else pc.separability(X, ys), REPEAT)
            sk_run = ms(lambda: Perceptron(shuffle=False, tol=None, penalty=None, fit_intercept=False, max_iter=EPOCHS).fit(X, ys), REPEAT)
            svc = ms(lambda: SVC(kernel="linear", C=1e10).fit(X, ys), 5) if name == "separable" else float("nan")
            print(f"\n{name}: 200 points, {js['updates']} updates, {'converged' if js['converged'] else f'stopped at {EPOCHS} epochs'}\n"
                  f"  page  perceptronRun {js['run']:7.2f} ms   certifiedMargin {js['margin']:7.2f} ms\n"
                  f"  core  perceptron    {core_run:7.2f} ms   max_margin/separability {core_margin:7.2f} ms\n"
                  f"  sklearn Perceptron  {sk_run:7.2f} ms   SVC(linear, C=1e10) {svc:7.2f} ms\n"
                  f"  ratios page/core {js['run'] / core_run:.2f} (run), {js['margin'] / core_margin:.2f} (margin); "
                  f"page/sklearn {js['run'] / sk_run:.2f} (run), {js['margin'] / svc:.2f} (margin vs SVC)\n"
                  f"  whole update (one point moved): p50 {js['own'][MOVES // 2]:.2f} ms, p95 {js['own'][int(0.95 * MOVES)]:.2f} ms "
                  f"(one frame = {1000 / 60:.1f} ms)")
        browser.close()


if __name__ == "__main__":
    main()
