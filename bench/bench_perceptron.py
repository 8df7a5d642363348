"""How fast is perceptron_core? Ratios against scikit-learn and against a plain Python loop.

Run: python bench/bench_perceptron.py   (or `make bench`). A benchmark, not a test: the numbers
depend on the machine and its load, so nothing here asserts a time. BLAS runs on one thread
(set below, before numpy loads), so both libraries get the same single core.

The first table is issue 13's: planted data with γ = 0.01 at three sizes, separable and with 5%
of the labels flipped, T = 20 epochs, for each tie rule and with and without an offset. Times are
medians; ratio = ours / scikit-learn's, both measured in this run. scikit-learn has one tie rule
(a tie is a mistake), so under the other two rules the weights may differ from its own, and the
bench then says so instead of asserting parity.

Then: teaching sizes run to convergence, and the first call in a fresh process (numba is imported
and the loop compiled, or loaded from numba's on-disk cache, at the first call of perceptron()),
with a cold cache (an empty NUMBA_CACHE_DIR) and a warm one, and without numba.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import json
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.svm import SVC

import perceptron_core as pc


def plain_loop(X, y, T):
    """The textbook loop: one point at a time, no vectorization."""
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(T):
        clean = True
        for x_i, y_i in zip(X, y):
            if y_i * (w @ x_i + b) <= 0:
                w, b, clean = w + y_i * x_i, b + y_i, False
        if clean:
            break
    return w, b


def sklearn_fit(X, y, T):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        return SkPerceptron(shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=T).fit(X, y)


def sklearn_fit_offset(X, y, T, offset=True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        return SkPerceptron(
            shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=T, fit_intercept=offset
        ).fit(X, y)


def ours(X, y, T, offset=True, tie="mistake"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        return pc.perceptron(X, y, offset=offset, max_epochs=T, tie=tie)


def issue_table(repeat: int = 5) -> None:
    """Issue 13's table: γ = 0.01, separable and 5% noise, T = 20, every tie rule, ± offset."""
    T = 20
    sizes = [(1_000, 2), (10_000, 20), (100_000, 100)]
    data = []
    for seed, (n, d) in enumerate(sizes):
        X, y, _ = pc.planted(n, d, 0.01, 1.0, seed=seed)
        data.append((f"{n}x{d}, separable", X, y))
        data.append((f"{n}x{d}, 5% noise", X, pc.flip_labels(y, 0.05, seed=seed)))
    for offset in (True, False):
        for tie in ("mistake", "positive", "negative"):
            print(f"\noffset={offset}, tie={tie!r}, T={T}, gamma=0.01 (medians of {repeat}, "
                  "the two libraries timed alternately)")
            print(f"{'data':24s} {'sklearn ms':>11s} {'ours ms':>9s} {'ratio':>7s} "
                  f"{'mistakes':>9s}  weights")
            for name, X, y in data:
                res = ours(X, y, T, offset, tie)
                sk = sklearn_fit_offset(X, y, T, offset)
                same = np.array_equal(res.w, sk.coef_[0]) and res.b == sk.intercept_[0]
                if tie == "mistake":
                    assert same, f"parity with scikit-learn lost on {name}"
                # Alternating the two keeps a change in the machine's load from favouring one.
                t_sk, t_ours = [], []
                for _ in range(repeat):
                    t_sk.append(best_of(sklearn_fit_offset, X, y, T, offset, repeat=1)[0])
                    t_ours.append(best_of(ours, X, y, T, offset, tie, repeat=1)[0])
                t_sk, t_ours = statistics.median(t_sk), statistics.median(t_ours)
                print(f"{name:24s} {t_sk*1e3:11.2f} {t_ours*1e3:9.2f} {t_ours/t_sk:7.2f} "
                      f"{res.mistakes:9d}  {'= sklearn' if same else 'differ (other tie rule)'}")


def teaching_table(repeat: int = 5) -> None:
    """Teaching sizes (n <= 1000, d <= 3), each run to convergence: the target is under 1 ms."""
    calls = max(repeat, 5) * 5
    print(f"\nTeaching sizes, offset=True, tie='mistake', run to convergence (median of {calls} calls)")
    print(f"{'data':32s} {'ms':>7s} {'mistakes':>9s} {'epochs':>7s}")
    for n, d, gamma in [(20, 2, 0.1), (100, 2, 0.05), (1000, 2, 0.01), (1000, 3, 0.01), (1000, 3, 0.002)]:
        X, y, _ = pc.planted(n, d, gamma, 1.0, seed=n + d)
        res = pc.perceptron(X, y, offset=True, max_epochs=10**6)
        assert res.converged
        fit = lambda: pc.perceptron(X, y, offset=True, max_epochs=10**6)  # noqa: E731
        times = [best_of(fit, repeat=1)[0] for _ in range(calls)]
        print(f"{f'{n}x{d}, gamma={gamma}':32s} {statistics.median(times)*1e3:7.3f} "
              f"{res.mistakes:9d} {res.epochs:7d}")


# Run in a fresh interpreter: the import, then the first call of perceptron(), each timed.
_FIRST_CALL = """
import sys, time
if {block_numba}:
    sys.modules["numba"] = None
t0 = time.perf_counter()
import perceptron_core as pc
t1 = time.perf_counter()
if {numba_first}:
    import numba
t2 = time.perf_counter()
pc.perceptron([[1.0, 0.5], [-1.0, -0.2]], [1, -1])
t3 = time.perf_counter()
import json
print(json.dumps([t1 - t0, t2 - t1, t3 - t2, pc._compiled.perceptron_epochs.uses_numba]))
"""


def _fresh_process(cache_dir: str, block_numba: bool = False, numba_first: bool = False) -> list:
    code = _FIRST_CALL.format(block_numba=block_numba, numba_first=numba_first)
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def first_call_table(repeat: int = 5) -> None:
    """The first call in a fresh process: cold cache, warm cache, without numba (medians)."""
    rows: dict[str, list] = {"cold": [], "warm": [], "warm, numba imported first": [], "without numba": []}
    with tempfile.TemporaryDirectory() as warm_dir:
        _fresh_process(warm_dir)  # fills the cache
        for _ in range(repeat):  # interleaved, so that a change of load hits every row alike
            with tempfile.TemporaryDirectory() as cold_dir:
                rows["cold"].append(_fresh_process(cold_dir))
            rows["warm"].append(_fresh_process(warm_dir))
            rows["warm, numba imported first"].append(_fresh_process(warm_dir, numba_first=True))
            rows["without numba"].append(_fresh_process(warm_dir, block_numba=True))
    print(f"\nFirst call in a fresh process (medians of {repeat}): `import perceptron_core`, then the "
          "first perceptron() call,\nwhich imports numba and compiles the loop (cold cache) or loads "
          "it from disk (warm cache)")
    print(f"{'cache':28s} {'import s':>9s} {'numba import s':>15s} {'first call s':>13s} {'numba':>6s}")
    for name, runs in rows.items():
        med = [statistics.median(r[k] for r in runs) for k in range(3)]
        numba_import = f"{med[1]:15.3f}" if name.endswith("first") else f"{'(in call)':>15s}"
        print(f"{name:28s} {med[0]:9.3f} {numba_import} {med[2]:13.3f} {str(runs[0][3]):>6s}")


def best_of(fn, *args, repeat=5):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> None:
    repeat = int(os.environ.get("BENCH_REPEAT", "5"))
    issue_table(repeat)
    teaching_table(repeat)
    first_call_table(repeat)
    print()
    cases = []
    X, y, _ = pc.planted(2_000, 10, 0.05, 1.0, seed=0)
    cases.append(("separable n=2000 d=10", X, y, 1000))
    X, y, _ = pc.planted(20_000, 50, 0.1, 1.0, seed=1)
    cases.append(("separable n=20000 d=50", X, y, 1000))
    cases.append(("10% noise n=2000 d=10, T=20", *pc.planted(2_000, 10, 0.05, 1.0, seed=0)[:1],
                  pc.flip_labels(pc.planted(2_000, 10, 0.05, 1.0, seed=0)[1], 0.1), 20))
    cases.append(("iris versicolor/virginica, T=100", *pc.iris_pair("versicolor", "virginica"), 100))

    print("scikit-learn with tol=None always runs all T epochs; perceptron_core stops at the first")
    print("epoch without a mistake, so on separable data the ratio mostly measures that difference.\n")
    print(f"{'case':36s} {'ours ms':>9s} {'sklearn ms':>11s} {'loop ms':>9s} {'ours/sklearn':>13s} {'loop/ours':>10s}")
    for name, X, y, T in cases:
        res = ours(X, y, T)
        sk = sklearn_fit(X, y, T)
        assert np.array_equal(res.w, sk.coef_[0]), "parity lost"
        t_ours = best_of(ours, X, y, T)[0]
        t_sk = best_of(sklearn_fit, X, y, T)[0]
        t_loop = best_of(plain_loop, X, y, T, repeat=2)[0]
        print(f"{name:36s} {t_ours*1e3:9.2f} {t_sk*1e3:11.2f} {t_loop*1e3:9.2f} {t_ours/t_sk:13.2f} {t_loop/t_ours:10.1f}")

    print()
    print(f"{'maximum margin':36s} {'ours ms':>9s} {'SVC ms':>11s} {'ours/SVC':>9s} {'|gamma diff|':>13s}")
    for name, (X, y) in [
        ("planted n=200 d=5", pc.planted(200, 5, 0.1, 1.0, seed=2)[:2]),
        ("planted n=1000 d=10", pc.planted(1000, 10, 0.05, 1.0, seed=3)[:2]),
        ("iris setosa/versicolor", pc.iris_pair("setosa", "versicolor")),
    ]:
        t_mm = best_of(lambda: pc.max_margin(X, y, offset=True), repeat=3)[0]
        t_svc = best_of(lambda: SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y), repeat=3)[0]
        svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
        diff = abs(pc.max_margin(X, y, offset=True).gamma - 1 / np.linalg.norm(svc.coef_[0]))
        print(f"{name:36s} {t_mm*1e3:9.2f} {t_svc*1e3:11.2f} {t_mm/t_svc:9.2f} {diff:13.2e}")


if __name__ == "__main__":
    main()
