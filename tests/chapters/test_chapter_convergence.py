"""The claims of the chapter "The convergence theorem" (book/convergence.ipynb), each recomputed
with the reference sweep of oracles.py (exact fractions where the data allow), an exact
active-set solver, plain integer loops, or a quadratic program: not the package against itself."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from oracles import cells, sweep

from perceptron_core import (hypercube_small_margin, max_margin, narrow_wedge, novikoff_bound,
                             orthonormal_worst_case, perceptron, planted, radius)


def fib(m: int) -> int:
    a, b = 0, 1
    for _ in range(m):
        a, b = b, a + b
    return a


def shell_data(*args, **kwargs):
    """The chapter's own function, taken from its page."""
    ns = {"np": np, "planted": planted}
    exec(next(c for c in cells("convergence", "code") if c.startswith("def shell_data")), ns)
    return ns["shell_data"](*args, **kwargs)


def test_the_cosine_can_fall_while_its_bound_rises():
    """Exact fractions: three mistakes (products 0, then negative), cos² up then down, each
    above its bound k γ²/R²."""
    Z = [(Fraction(1, 10), Fraction(2)), (Fraction(1, 10), Fraction(-5, 2)), (Fraction(1, 10), Fraction(3))]
    w, cos_sq, scores = (Fraction(0), Fraction(0)), [], []
    for z in Z:
        scores.append(w[0] * z[0] + w[1] * z[1])
        w = (w[0] + z[0], w[1] + z[1])
        cos_sq.append(w[0] ** 2 / (w[0] ** 2 + w[1] ** 2))
    assert scores[0] == 0 > scores[1] and scores[2] < 0 and cos_sq[0] < cos_sq[1] > cos_sq[2]
    assert all(c >= k * Fraction(1, 100) / max(a * a + b * b for a, b in Z) for k, c in enumerate(cos_sq, 1))
    assert sweep(np.array(Z, float), np.ones(3))[2][:3] == [0, 1, 2]


def test_the_shell_run_and_the_two_lemmas():
    """The demo run: both lemmas met with equality at the first mistake, strict later; every
    product y w_{k-1}.x after the first is negative; the cosine falls at some mistakes. The
    exact reference sweep makes the same updates, so no count hinges on a rounding."""
    X, y, u = shell_data(200, 10, 0.1, seed=0)
    assert np.allclose(np.linalg.norm(X, axis=1), 1) and np.isclose(np.min(y * (X @ u)), 0.1)
    _, _, idx, epochs = sweep(X, y, exact=True)
    run = perceptron(X, y, record=True)
    assert run.history.indices.tolist() == idx and run.epochs == epochs
    W = np.cumsum(y[idx, None] * X[idx], axis=0)
    k = np.arange(1, len(idx) + 1)
    prog, grow = (W @ u) / (0.1 * k), np.sum(W**2, axis=1) / k
    assert np.isclose(prog[0], 1) and np.isclose(grow[0], 1) and prog.min() >= 1 - 1e-12 >= grow.max() - 2e-12
    # "met at the first mistake, up to rounding": point 0's margin and norm are gamma and R
    # only up to the rounding of the operations that build it.
    assert idx[0] == 0 and max(abs(prog[0] - 1), abs(grow[0] - 1)) < 1e-12
    text = " ".join(cells("convergence", "markdown"))
    assert "norm exactly $R$" not in text and "margin $\\gamma$ and norm $R$, up to rounding" in text
    before = np.vstack([np.zeros(10), W[:-1]])
    assert np.all(np.sum(before * (W - before), axis=1)[1:] < 0)
    assert np.sum(np.diff((W @ u) / np.linalg.norm(W, axis=1)) < 0) >= 1


@pytest.mark.parametrize("gamma", [0.05, 0.1, 0.25])
def test_runs_on_shell_data_stop_long_before_the_bounds_cross(gamma):
    """At every setting the run stops at well under (R/γ)² mistakes (the crossing of kγ and √k R
    lies past the panel) and the same R/γ gives the same run, scaled."""
    X1, y1, _ = shell_data(200, 10, gamma, 1.0)
    X2, y2, _ = shell_data(200, 10, 2 * gamma, 2.0)
    assert np.array_equal(y1, y2) and np.allclose(X2, 2 * X1)
    m = len(sweep(X1, y1)[2])
    assert m == len(sweep(X2, y2)[2]) and 1.15 * m < novikoff_bound(1.0, gamma)


@pytest.mark.parametrize("n, d", [(1000, 10), (200, 1000)])
def test_the_mistakes_stay_far_below_the_bound_for_any_n_or_d(n, d):
    for s in range(2):
        assert 2 * len(sweep(*shell_data(n, d, 0.1, seed=s)[:2])[2]) < novikoff_bound(1.0, 0.1)


def test_the_survey_stays_below_each_bound():
    for family in (planted, shell_data):
        for s in range(10):
            X, y, _ = family(100, 10, 0.05, 1.0, seed=s)
            assert len(sweep(X, y)[2]) <= novikoff_bound(radius(X), max_margin(X, y).gamma)


def test_the_three_forms_agree_and_B_is_the_shortest():
    X, y, _ = planted(30, 2, 0.1, seed=3)
    mm = max_margin(X, y)
    assert np.isclose(np.linalg.norm(mm.w_B), mm.B) and np.isclose(mm.B * mm.gamma, 1)
    assert np.isclose(np.min(y * (X @ mm.w_B)), 1)
    v = 3 * mm.w_B
    assert np.isclose(radius(X) ** 2 * (v @ v) / np.min(y * (X @ v)) ** 2, (radius(X) * mm.B) ** 2)
    Z = y[:, None] * X  # no shorter w has y w.x >= 1: the KKT multipliers of w_B are >= 0
    tight = np.isclose(Z @ mm.w_B, 1, atol=1e-7)
    lam = np.linalg.lstsq(Z[tight].T, mm.w_B, rcond=None)[0]
    assert np.all(lam >= -1e-9) and np.allclose(Z[tight].T @ lam, mm.w_B, atol=1e-7)


@pytest.mark.parametrize("n", range(1, 7))
def test_orthonormal_points_and_the_tie_rules(n):
    """Ties counted: n = (R/γ*)² mistakes, both lemmas with equality; CS229's rule: one per
    negative point; Balcan's: one per positive point (every labelling, exact sweeps)."""
    X, y = orthonormal_worst_case(n)
    assert novikoff_bound(radius(X), max_margin(X, y).gamma) == pytest.approx(n)
    for labels in itertools.product([-1.0, 1.0], repeat=n):
        y = np.array(labels)
        X = np.diag(y)
        assert len(sweep(X, y, exact=True)[2]) == n
        assert len(sweep(X, y, tie="positive", exact=True)[2]) == np.sum(y < 0)
        assert len(sweep(X, y, tie="negative", exact=True)[2]) == np.sum(y > 0)


def test_the_narrow_wedge():
    """2^(ℓ+2) + 1 mistakes on every row, far under the bound; dyadic data: the exact sweep
    agrees."""
    for ell in range(11):
        X, y = narrow_wedge(ell)
        idx = sweep(X, y, max_epochs=10**6)[2]
        assert len(idx) == 2 ** (ell + 2) + 1 < 0.6 * novikoff_bound(radius(X), max_margin(X, y).gamma)
        if ell < 6:
            assert sweep(X, y, exact=True, max_epochs=10**6)[2] == idx


def exact_min_norm_sq(Z):
    """min |v|² subject to z_i·v >= 1, exactly, by trying every active set (KKT: the solution
    of the equalities on a set S with multipliers >= 0 that is feasible is optimal)."""
    dot = lambda a, b: sum(p * q for p, q in zip(a, b))
    best = None
    for size in range(1, len(Z) + 1):
        for S in itertools.combinations(range(len(Z)), size):
            G = [[Fraction(dot(Z[i], Z[j])) for j in S] + [Fraction(1)] for i in S]
            for c in range(size):  # Gauss-Jordan
                p = next((r for r in range(c, size) if G[r][c]), None)
                if p is None:
                    break
                G[c], G[p] = G[p], G[c]
                G = [row if r == c else [a - row[c] / G[c][c] * b for a, b in zip(row, G[c])]
                     for r, row in enumerate(G)]
            else:
                lam = [G[r][size] / G[r][r] for r in range(size)]
                v = [sum(l * Z[i][j] for l, i in zip(lam, S)) for j in range(len(Z[0]))]
                if min(lam) >= 0 and all(dot(z, v) >= 1 for z in Z):
                    best = dot(v, v)
    return best


def mu(n):
    m = {}
    for i in range(n, 0, -1):
        m[i] = fib(i + 1) + sum(m[j] for j in range(i + 1, n + 1, 2))
    return [m[i] for i in range(1, n + 1)]


@pytest.mark.parametrize("n", range(1, 8))
def test_the_hypercube_proposition(n):
    """γ* = 1/√(F_{n+1}F_{n+2} − 1) (an exact active-set solution, n ≤ 6), and in any order the
    perceptron ends at the Fibonacci separator after exactly μᵢ updates on point i, F_{n+1}F_{n+2}
    − 1 in all (plain integer loops over random sweeps and streams)."""
    X, y = hypercube_small_margin(n)
    Z = [[int(v) for v in row] for row in y[:, None] * X]
    target = fib(n + 1) * fib(n + 2) - 1
    if n <= 6:
        assert exact_min_norm_sq(Z) == target
    assert max_margin(X, y).gamma == pytest.approx(1 / math.sqrt(target), rel=1e-9)
    v_bar = [(-1) ** j * fib(j + 1) for j in range(1, n + 1)]
    rng = random.Random(n)
    for kind in ("sweeps", "stream") * 5:
        w, counts = [0] * n, [0] * n
        while any(sum(a * b for a, b in zip(w, z)) <= 0 for z in Z):
            order = rng.sample(range(n), n) if kind == "sweeps" else [rng.randrange(n)]
            for i in order:
                if sum(a * b for a, b in zip(w, Z[i])) <= 0:
                    w, counts[i] = [a + b for a, b in zip(w, Z[i])], counts[i] + 1
        assert w == v_bar and counts == mu(n) and sum(counts) == target
    idx = sweep(X, y, max_epochs=10**6)[2]
    assert np.bincount(idx, minlength=n).tolist() == mu(n)

