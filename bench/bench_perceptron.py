"""How fast is perceptron_core? Ratios against scikit-learn and against a plain Python loop.

Run: python bench/bench_perceptron.py   (or `make bench`). A benchmark, not a test: the numbers
depend on the machine and its load, so nothing here asserts a time.
"""

from __future__ import annotations

import statistics
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


def ours(X, y, T):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        return pc.perceptron(X, y, offset=True, max_epochs=T)


def best_of(fn, *args, repeat=5):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main() -> None:
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
        t_ours, _ = best_of(ours, X, y, T)
        t_sk, _ = best_of(sklearn_fit, X, y, T)
        t_loop, _ = best_of(plain_loop, X, y, T, repeat=2)
        print(f"{name:36s} {t_ours*1e3:9.2f} {t_sk*1e3:11.2f} {t_loop*1e3:9.2f} {t_ours/t_sk:13.2f} {t_loop/t_ours:10.1f}")

    print()
    print(f"{'maximum margin':36s} {'ours ms':>9s} {'SVC ms':>11s} {'ours/SVC':>9s} {'|gamma diff|':>13s}")
    for name, (X, y) in [
        ("planted n=200 d=5", pc.planted(200, 5, 0.1, 1.0, seed=2)[:2]),
        ("planted n=1000 d=10", pc.planted(1000, 10, 0.05, 1.0, seed=3)[:2]),
        ("iris setosa/versicolor", pc.iris_pair("setosa", "versicolor")),
    ]:
        t_mm, _ = best_of(lambda: pc.max_margin(X, y, offset=True), repeat=3)
        t_svc, _ = best_of(lambda: SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y), repeat=3)
        svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
        diff = abs(pc.max_margin(X, y, offset=True).gamma - 1 / np.linalg.norm(svc.coef_[0]))
        print(f"{name:36s} {t_mm*1e3:9.2f} {t_svc*1e3:11.2f} {t_mm/t_svc:9.2f} {diff:13.2e}")


if __name__ == "__main__":
    main()
