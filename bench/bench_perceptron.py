"""How fast is perceptron_core? Ratios against scikit-learn, both measured in this run.

Run: python bench/bench_perceptron.py   (or `make bench`). A benchmark, not a test: the numbers
depend on the machine and its load, so nothing here asserts a time. BLAS runs on one thread
(set below, before numpy loads), so both libraries get the same single core.

Planted data with γ = 0.01 at three sizes, separable and with 5% of the labels flipped, T = 20
epochs, each tie rule, with an offset; then the Margin Perceptron chapter's longest run, and the
first call in a fresh process: a short run (Python), and a long one with numba's cache warm, with
an empty cache (a fresh install: numba compiles), and without numba. Times are medians; ratio = ours / scikit-learn's. scikit-learn has one tie rule (a tie is
a mistake) and sums w·x in its own order, so "same" says whether the weights agree bit for bit.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics
import subprocess
import sys
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

import perceptron_core as pc


def median_time(fn, repeat=5):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def sklearn_fit(X, y, T):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        return SkPerceptron(shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=T).fit(X, y)


def ours(X, y, T, tie="mistake"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        return pc.perceptron(X, y, offset=True, max_epochs=T, tie=tie)


def runs_table(T=20):
    print(f"{'n x d':>12} {'noise':>5} {'tie':>9} {'ours ms':>9} {'sklearn ms':>10} {'ratio':>6} same")
    for seed, (n, d) in enumerate([(1_000, 2), (10_000, 20), (100_000, 100)]):
        X, y, _ = pc.planted(n, d, 0.01, 1.0, seed=seed)
        for noise in (0.0, 0.05):
            yn = pc.flip_labels(y, noise, seed=seed)
            t_sk, sk = median_time(lambda: sklearn_fit(X, yn, T))
            for tie in ("mistake", "positive", "negative"):
                t_ours, res = median_time(lambda: ours(X, yn, T, tie))
                same = np.array_equal(res.w, sk.coef_[0]) and res.b == sk.intercept_[0]
                print(f"{n:>7} x {d:<3} {noise:>5.2f} {tie:>9} {1e3 * t_ours:9.2f} {1e3 * t_sk:10.2f} "
                      f"{t_ours / t_sk:6.2f} {same}")


def margin_run():
    X, y, _ = pc.planted(500, 10, 0.05, 1.0, seed=0)  # the Margin Perceptron chapter's data
    gamma = pc.max_margin(X, y).gamma_low
    t, run = median_time(lambda: pc.margin_perceptron(X, y, gamma, target=0.95, max_epochs=10**6), 3)
    print(f"margin perceptron, target 0.95: {run.updates} updates, {run.epochs} epochs, {1e3 * t:.1f} ms")


def first_call():
    """A fresh process: a short run (as Python: numba is not loaded for it), and a long one
    (10⁷ steps, where numba loads the loop), with numba's cache warm, with an empty cache (a
    fresh install, where numba compiles), and without numba."""
    import tempfile

    short = "pc.perceptron([[1.0, 0.5], [-1.0, -0.2]], [1, -1])"
    long = ("import warnings; warnings.simplefilter('ignore'); "  # it stops at max_epochs
            "X, y, _ = pc.planted(500, 10, 0.05, 1.0, seed=0); "   # γ above γ*: 2,000 sweeps
            "pc.margin_perceptron(X, y, 2 * pc.max_margin(X, y).gamma, max_epochs=2000)")
    with tempfile.TemporaryDirectory() as empty:
        for label, run, env, block in (
                ("short run", short, {}, ""),
                ("long run, numba's cache warm", long, {}, ""),
                ("long run, numba's cache empty", long, {"NUMBA_CACHE_DIR": empty}, ""),
                ("long run, without numba", long, {}, "import sys; sys.modules['numba'] = None; ")):
            code = (f"{block}import time; t = time.perf_counter(); import perceptron_core as pc; "
                    f"{run}; print(time.perf_counter() - t)")
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True, env={**os.environ, **env})
            print(f"first call in a fresh process, {label}: {1e3 * float(out.stdout):.0f} ms")


if __name__ == "__main__":
    from perceptron_core import _compiled

    _compiled.perceptron_epochs.uses_numba  # loaded first: every timed run is compiled
    _compiled.margin_epochs.uses_numba
    runs_table()
    margin_run()
    first_call()
