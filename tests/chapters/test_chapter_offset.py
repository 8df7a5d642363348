"""The claims of the chapter "The offset trick" (book/offset.ipynb) and the numbers of its figure.

Runs are recounted with the reference sweep of oracles.py (exact fractions where the data are
integers), margins recomputed with scikit-learn's SVC, not the package against itself."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from oracles import prose, sweep
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.svm import SVC

from perceptron_core import (augment, iris_pair, max_margin, offset_bound, perceptron, planted,
                             radius, separability)


def svc_unit(X, y):
    """The maximum-margin separator with an offset, unit w, from a hard-margin SVC."""
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    norm = float(np.linalg.norm(svm.coef_[0]))
    w, b = svm.coef_[0] / norm, float(svm.intercept_[0]) / norm
    return w, b, float(np.min(y * (X @ w + b)))


def shifted(shift, n=40, seed=3):
    X, y, u = planted(n, 2, 0.1, 1.0, seed=seed)
    return X + shift * (2 * u + np.array([-u[1], u[0]])) / math.sqrt(5), y


def test_the_trick_on_the_irises_and_the_dummy_inputs():
    """In millimetres (integers, exact): the MIT run with θ₀, the run through the origin on
    (x, 1), the 1 in front and scikit-learn make the same mistakes and the same weights."""
    Xi, yi = iris_pair("setosa", "versicolor", features=(2, 3))
    X = np.round(10 * Xi)
    w, b, idx, epochs = sweep(X, yi, offset=True, exact=True)
    mit = perceptron(X, yi, offset=True, max_epochs=1000, record=True)
    origin = perceptron(augment(X, 1.0), yi, max_epochs=1000, record=True)
    assert mit.history.indices.tolist() == origin.history.indices.tolist() == idx
    assert np.array_equal(origin.w, np.r_[w, b]) and np.array_equal(mit.w, w) and mit.b == b
    assert origin.epochs == epochs
    front = perceptron(np.c_[np.ones(len(yi)), X], yi, max_epochs=1000)
    assert np.array_equal(front.w, np.r_[b, w])
    sk = SkPerceptron(shuffle=False, tol=None, eta0=1, penalty=None, max_iter=1000).fit(X, yi)
    assert np.array_equal(sk.coef_[0], w) and sk.intercept_[0] == b


def test_the_irises_at_three_constants():
    """R, γ*_b, b* as an SVC finds them; the bound drops from c = 1 to c = R to the best c, the
    best below 4(R/γ*_b)²; the runs drop too (the exact sweep agrees); not separable through the
    origin; the run at c = 1 exceeds (R/γ*_b)²."""
    Xi, yi = iris_pair("setosa", "versicolor", features=(2, 3))
    X = np.round(10 * Xi)
    w, b, g = svc_unit(X, yi)
    mm = max_margin(X, yi, offset=True)
    assert mm.gamma == pytest.approx(g, rel=1e-5) and mm.b / np.linalg.norm(mm.w) == pytest.approx(b, rel=1e-4)
    R = radius(X)
    cs = (1.0, R, math.sqrt(R * abs(b)))
    bounds = [offset_bound(R, g, b, c) for c in cs]
    runs = [len(sweep(augment(X, c), yi, max_epochs=10**6)[2]) for c in cs]
    assert bounds[0] > bounds[1] > bounds[2] < 4 * (R / g) ** 2 and runs[0] > runs[1] >= runs[2]
    assert runs == [perceptron(augment(X, c), yi, max_epochs=10**6).mistakes for c in cs]
    assert runs[0] == len(sweep(augment(X, 1.0), yi, exact=True, max_epochs=10**6)[2])
    assert runs[0] > (R / g) ** 2
    lam = separability(X, yi).certificate_exact  # through the origin: checked here, exactly
    assert min(lam) >= 0 < sum(lam) and all(
        sum(l * int(v) * Fraction(x[k]) for l, v, x in zip(lam, yi, X)) == 0 for k in range(2))


@pytest.mark.parametrize("seed", range(4))
def test_the_best_constant_and_the_factor_four(seed):
    """The bound is smallest at c² = R|b*|, where it is ((R + |b*|)/γ)² ≤ 4(R/γ)² (both labels)."""
    X, y = shifted(1.0 + seed, n=30, seed=seed)
    w, b, g = svc_unit(X, y)
    R = radius(X)
    grid = np.geomspace(0.01, 100, 4001)
    best = min(offset_bound(R, g, b, c) for c in grid)
    assert offset_bound(R, g, b, math.sqrt(R * abs(b))) == pytest.approx(((R + abs(b)) / g) ** 2)
    assert ((R + abs(b)) / g) ** 2 <= best * (1 + 1e-9) and abs(b) <= R - g + 1e-9


def test_the_counterexample():
    """x = 11 (+1), 9 (−1): γ*_b = 1 at b* = −10; 202 mistakes (exact), 101 on each point,
    against (R/γ*_b)² = 121 (91 on the positive point); w = 2, b = −20 at the end; 12322 at
    c = 1; 441 at the best c, where the run makes 21."""
    X, y = np.array([[11.0], [9.0]]), np.array([1.0, -1.0])
    w, b, idx, _ = sweep(X, y, offset=True, exact=True, max_epochs=10**6)
    assert (len(idx), idx.count(0), idx.count(1), w[0], b) == (202, 91, 111, 2.0, -20.0)
    _, b_star, g = svc_unit(X, y)
    assert g == pytest.approx(1) and b_star == pytest.approx(-10)
    assert offset_bound(11, 1, -10) == pytest.approx(12322) and 202 > 121
    c = math.sqrt(110)
    assert offset_bound(11, 1, -10, c) == pytest.approx(441)
    assert len(sweep(augment(X, c), y, max_epochs=10**6)[2]) == 21


def test_the_translation_table():
    """γ*_b is the same in every row; the mean mistakes climb with the shift, on the last two
    doublings of s faster than the mean bound at c = 1 and than the best bound (margins from
    an SVC); centered, each data set makes the same mistakes in every row (the reference
    sweep, not the package)."""
    raw, centered = np.zeros((5, 5)), np.zeros((5, 5))
    bound, best = np.zeros((5, 5)), np.zeros((5, 5))
    for i, s in enumerate((0.0, 1.0, 2.0, 4.0, 8.0)):
        for seed in range(5):
            X, y = shifted(s, 100, seed)
            if seed == 0:
                assert max_margin(X, y, offset=True).gamma == pytest.approx(
                    max_margin(*shifted(0.0, 100, 0), offset=True).gamma, abs=1e-6)
            raw[i, seed] = len(sweep(X, y, offset=True, max_epochs=10**6)[2])
            centered[i, seed] = len(sweep(X - X.mean(axis=0), y, offset=True, max_epochs=10**6)[2])
            _, b, g = svc_unit(X, y)
            bound[i, seed] = offset_bound(radius(X), g, b, 1.0)
            best[i, seed] = ((radius(X) + abs(b)) / g) ** 2
    assert np.all(np.diff(raw.mean(axis=1)) > 0) and np.all(centered == centered[0])
    growth = [m[2:] / m[1:-1] for m in (raw.mean(axis=1), bound.mean(axis=1), best.mean(axis=1))]
    assert np.all(growth[0][1:] > growth[1][1:]) and np.all(growth[0][1:] > growth[2][1:])


def test_the_figure_frames():
    """At every shift the fewest mistakes come at a slider c next to √(R|b*|), the same c as the
    smallest bound or the next larger one; every run within its bound; at the largest shift the
    smallest c is the worst."""
    cs = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0]
    for shift in np.arange(0.0, 4.01, 0.5):
        X, y = shifted(shift)
        w, b, g = svc_unit(X, y)
        R = radius(X)
        runs = [len(sweep(augment(X, c), y, max_epochs=10**6)[2]) for c in cs]
        bounds = [offset_bound(R, g, b, c) for c in cs]
        assert all(m <= bd for m, bd in zip(runs, bounds))
        i_run, i_bound, cb = int(np.argmin(runs)), int(np.argmin(bounds)), math.sqrt(R * abs(b))
        assert i_run in (i_bound, i_bound + 1)
        assert cs[i_run] in ({c for c in cs if c <= cb} and {max(c for c in cs if c <= cb)}
                             | ({min(c for c in cs if c >= cb)} if cb <= cs[-1] else set()))
    assert runs[0] == max(runs)


def test_the_prose_keeps_no_exactness_claim_about_runs():
    text = prose("offset")
    assert "decides each sign exactly" not in text and "closest call" not in text
