"""The data generators deliver what their docstrings promise."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import perceptron_core as pc


@given(st.integers(1, 60), st.integers(1, 8), st.floats(0.01, 1.0), st.floats(0.1, 10.0), st.integers(0, 10**6))
def test_planted_margin_and_radius_are_exact(n, d, ratio, R, seed):
    if d == 1 and n == 1:
        ratio = 1.0
    X, y, u = pc.planted(n, d, ratio * R, R, seed=seed)
    assert X.shape == (n, d) and set(np.unique(y)) <= {-1.0, 1.0}
    assert np.isclose(np.linalg.norm(u), 1.0)
    assert np.isclose(pc.dataset_margin(X, y, u), ratio * R, rtol=1e-12)
    assert np.isclose(pc.radius(X), R, rtol=1e-12)
    if n >= 2:
        assert set(y.tolist()) == {-1.0, 1.0}


def test_planted_is_deterministic_per_seed():
    a, b = pc.planted(10, 3, 0.1, seed=4), pc.planted(10, 3, 0.1, seed=4)
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    assert not np.array_equal(a[0], pc.planted(10, 3, 0.1, seed=5)[0])


@pytest.mark.parametrize("gate, separable", [("and", True), ("or", True), ("nand", True), ("nor", True), ("xor", False)])
def test_logic_gates(gate, separable):
    X, y = pc.logic_gate(gate)
    assert pc.separability(X, y, offset=True).separable is separable
    assert not pc.separability(X, y).separable  # (0, 0) lies on every hyperplane through 0


def test_iris_is_fishers_data():
    X, species = pc.iris()
    assert X.shape == (150, 4)
    assert {s: int(np.sum(species == s)) for s in pc.data.IRIS_SPECIES} == {"setosa": 50, "versicolor": 50, "virginica": 50}
    assert np.allclose(X[0], [5.1, 3.5, 1.4, 0.2]) and np.allclose(X.mean(0), [5.8433, 3.0573, 3.758, 1.1993], atol=1e-3)


def test_iris_pairs_separability():
    for offset in (False, True):
        X, y = pc.iris_pair("setosa", "versicolor")
        assert pc.separability(X, y, offset=offset).separable
    X, y = pc.iris_pair("versicolor", "virginica")
    verdict = pc.separability(X, y, offset=True)
    assert not verdict.separable and verdict.verify(X, y)


def test_augment_turns_an_offset_separator_into_one_through_the_origin():
    X, y = pc.logic_gate("and")
    verdict = pc.separability(X, y, offset=True)
    for c in (1.0, 0.5, 3.0):
        Xa = pc.augment(X, c)
        assert np.array_equal(Xa[:, :2], X) and np.all(Xa[:, 2] == c)
        assert np.all(y * (Xa @ np.r_[verdict.w, verdict.b / c]) > 0)


def test_flip_labels_flips_the_stated_fraction():
    y = np.ones(40)
    flipped = pc.flip_labels(y, 0.25, seed=3)
    assert np.sum(flipped != y) == 10
    assert np.array_equal(pc.flip_labels(y, 0.0), y)


def test_gaussian_clouds_layout():
    X, y = pc.gaussian_clouds(200, 6.0, spread=0.5, seed=1)
    assert X.shape == (400, 2) and np.sum(y > 0) == 200
    assert np.allclose(X[y > 0].mean(0), [3.0, 0.0], atol=0.15)
    assert pc.separability(X, y).separable
    Xo, yo = pc.gaussian_clouds(200, 0.0, seed=1)
    assert not pc.separability(Xo, yo, offset=True).separable


def test_orthonormal_worst_case_geometry():
    X, y = pc.orthonormal_worst_case(6, seed=2)
    assert np.allclose(np.abs(X), np.eye(6)) and np.allclose(np.diag(X), y)


def test_narrow_wedge_margin_halves_with_k():
    gammas = [pc.max_margin(*pc.narrow_wedge(k)).gamma for k in range(2, 8)]
    assert np.allclose(np.array(gammas[:-1]) / np.array(gammas[1:]), 2.0, rtol=0.05)


def _fib(m):
    a, b = 1, 1  # F_1, F_2
    for _ in range(m - 1):
        a, b = b, a + b
    return a


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 12, 20])
def test_hypercube_small_margin_layout_and_exact_witness(n):
    X, y = pc.hypercube_small_margin(n)
    assert X.shape == (n, n) and X.dtype == np.float64 and set(np.unique(X)) <= {0.0, 1.0}
    assert np.array_equal(y, [(-1.0) ** k for k in range(1, n + 1)])
    # The docstring's separator w_k = (−1)^k F_{k+1} gives every point functional margin exactly
    # 1, in integer arithmetic: an exact witness that the data are separable through the origin.
    w = [(-1) ** k * _fib(k + 1) for k in range(1, n + 1)]
    Xi = X.astype(int)
    assert all(int(yk) * sum(int(a) * b for a, b in zip(row, w)) == 1 for row, yk in zip(Xi, y))
    verdict = pc.separability(X, y)
    assert verdict.separable is True and verdict.verify(X, y)
    assert np.isclose(pc.radius(X), np.sqrt(1 + n // 2))


@pytest.mark.parametrize("n", range(1, 21))
def test_hypercube_small_margin_is_exponentially_small(n):
    X, y = pc.hypercube_small_margin(n)
    mm = pc.max_margin(X, y)
    phi = (1 + 5**0.5) / 2
    # The docstring's theorem: γ*² = 1/(F_{n+1}F_{n+2} − 1) exactly, and γ* <= 1/F_{n+1} <= φ^−(n−1).
    exact_sq = Fraction(1, _fib(n + 1) * _fib(n + 2) - 1)
    assert Fraction(mm.gamma_low) ** 2 <= exact_sq <= Fraction(mm.gamma_high) ** 2
    assert mm.gamma_high <= np.sqrt(float(exact_sq)) * (1 + 1e-9)  # the interval is tight
    assert mm.gamma_high <= 1 / _fib(n + 1) * (1 + 1e-12)
    assert mm.gamma_high <= phi ** -(n - 1) * (1 + 1e-12)
    if mm.gamma_sq_exact is not None:
        assert mm.gamma_sq_exact == exact_sq


@pytest.mark.parametrize("n", [*range(1, 13), 20, 31])
def test_hypercube_small_margin_optimality_certificate(n):
    # The docstring's proof, checked in integers: w* = Σ μ_k y_k x_k with μ > 0, and every
    # constraint y_k w*·x_k = 1 is tight, so w* is the least-norm w with all y_k w·x_k >= 1.
    # hypercube_mu gives these μ (the perceptron's updates per point): they add up to ‖w*‖².
    from perceptron_core.data import hypercube_mu

    X, y = pc.hypercube_small_margin(n)
    Xi, yi = X.astype(int), y.astype(int)
    w_star = [(-1) ** k * _fib(k + 1) for k in range(1, n + 1)]
    mu = []
    for k in range(1, n + 1):
        m = n - k
        mu.append(_fib(m + 1) * _fib(n + 1) if m % 2 == 0 else _fib(m) * _fib(n + 2))
    assert all(v > 0 for v in mu) and hypercube_mu(n) == mu
    assert all(isinstance(m, int) for m in hypercube_mu(n))
    assert [sum(mu[k] * yi[k] * Xi[k, j] for k in range(n)) for j in range(n)] == w_star
    assert all(yi[k] * sum(Xi[k, j] * w_star[j] for j in range(n)) == 1 for k in range(n))
    assert sum(v * v for v in w_star) == _fib(n + 1) * _fib(n + 2) - 1 == sum(mu)


@pytest.mark.parametrize("n", range(1, 11))
def test_perceptron_on_the_hypercube_family_is_exponentially_slow(n):
    X, y = pc.hypercube_small_margin(n)
    res = pc.perceptron(X, y, max_epochs=10**6)
    mm = pc.max_margin(X, y)
    assert res.converged
    # Lower bound from the docstring: integer weights, |w_n| >= F_{n+1}, one unit per update.
    assert res.mistakes >= _fib(n + 1)
    assert res.mistakes <= pc.novikoff_bound(pc.radius(X), mm.gamma_low) * (1 + 1e-9)


@pytest.mark.parametrize("n", range(2, 11))
def test_hypercube_small_margin_matches_an_independent_svc(n):
    # Hard-margin SVC on the mirrored data (x, y), (−x, −y): offset 0, margin 1/‖w‖ = γ*.
    from sklearn.svm import SVC

    X, y = pc.hypercube_small_margin(n)
    svc = SVC(kernel="linear", C=1e10, tol=1e-12).fit(np.vstack([X, -X]), np.r_[y, -y])
    w = svc.coef_[0]
    gamma_svc = np.min(y * (X @ w)) / np.linalg.norm(w)  # the margin the SVC's w achieves
    mm = pc.max_margin(X, y)
    assert gamma_svc <= mm.gamma_high * (1 + 1e-12)
    assert np.isclose(gamma_svc, mm.gamma_low, rtol=1e-5)


def test_fibonacci_numbers():
    from perceptron_core.data import fibonacci

    assert [fibonacci(m) for m in range(12)] == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
    # Cassini's identity F_{m-1}F_{m+1} - F_m² = (-1)^m, far beyond float precision.
    for m in (50, 100, 300):
        assert fibonacci(m - 1) * fibonacci(m + 1) - fibonacci(m) ** 2 == (-1) ** m
    with pytest.raises(ValueError, match="m must be an integer of at least 0"):
        fibonacci(-1)
