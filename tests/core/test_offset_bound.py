"""The theorems of the chapter "The offset trick" (book/offset.ipynb), on many random cases.

* off-thm-trick: the perceptron with an offset is the perceptron through the origin on (x, 1);
  checked against a plain-Python run of the MIT 6.036 notes' algorithm with θ₀, in exact
  arithmetic, and against scikit-learn's ``fit_intercept=True``.
* off-thm-bound: mistakes on ``augment(X, c)`` never exceed ``offset_bound(R, γ, b, c)``, with
  ``(w*, b*, γ)`` from an independent source: the planted truth, or a linear SVC normalized here.
  The runs are counted by the reference perceptron of tests/conftest.py.
* off-prop-best-c: ``c² = R|b|`` minimizes the bound, against a grid and a scalar minimizer.
* off-lem-b-le-R: ``|b*| ≤ R − γ`` for separators with points on both sides.
* The chapter's counterexample: ``(R/γ*_b)²`` is not a bound, so ``offset_bound`` cannot be it.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.svm import SVC

from perceptron_core import (
    ConvergenceWarning,
    augment,
    dataset_margin,
    margins,
    novikoff_bound,
    offset_bound,
    perceptron,
    planted,
    radius,
)
from perceptron_core.bounds import best_c, best_offset_bound

from conftest import reference_perceptron
from conftest import examples

SETTINGS = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------------
# References written here, independent of the package
# ---------------------------------------------------------------------------------------------


def _mit_theta0(X, y, T):
    """The MIT 6.036 notes' perceptron with θ₀ in exact rational arithmetic: (steps, θ, θ₀)."""
    rows = [[Fraction(float(v)) for v in row] for row in np.asarray(X)]
    labels = [int(v) for v in y]
    theta, theta0, steps = [Fraction(0)] * len(rows[0]), Fraction(0), []
    for _ in range(T):
        for i, (x, label) in enumerate(zip(rows, labels)):
            if label * (sum(a * b for a, b in zip(theta, x)) + theta0) <= 0:
                theta = [a + label * b for a, b in zip(theta, x)]
                theta0 += label
                steps.append(i)
    return steps, theta, theta0


def _bound_formula(R, gamma, b, c):
    """(R² + c²)(1 + b²/c²)/γ², written out as the chapter states it."""
    return (R * R + c * c) * (1 + b * b / (c * c)) / (gamma * gamma)


# ---------------------------------------------------------------------------------------------
# Data: planted data translated away from the origin, with their true separator
# ---------------------------------------------------------------------------------------------


@st.composite
def translated(draw):
    """Planted data moved by a vector s: the truth is (u, −u·s) with margin γ.

    Returns X, y, the unit u, the offset b = −u·s, and γ' = the margin of (u, b) recomputed on
    the moved points (it equals γ up to rounding; the bound is checked with the recomputed one).
    """
    n = draw(st.integers(2, 30))
    d = draw(st.integers(1, 4))
    gamma = draw(st.floats(0.05, 0.5))
    seed = draw(st.integers(0, 2**31 - 1))
    X, y, u = planted(n, d, gamma, 1.0, seed=seed)
    s = np.array(draw(st.lists(st.floats(-3, 3), min_size=d, max_size=d)))
    Xs = X + s
    b = -float(u @ s)
    g = float(np.min(y * (Xs @ u + b)))
    assume(g > 1e-3)
    return Xs, y, u, b, g


def _svc_separator(X, y):
    """A unit w and its b and margin from a hard-margin linear SVC (scikit-learn), normalized."""
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    w = svm.coef_[0]
    norm = float(np.linalg.norm(w))
    w, b = w / norm, float(svm.intercept_[0]) / norm
    return w, b, float(np.min(y * (X @ w + b)))


# ---------------------------------------------------------------------------------------------
# off-thm-bound: the bound holds on runs
# ---------------------------------------------------------------------------------------------


@SETTINGS
@given(translated(), st.sampled_from([0.1, 0.5, 1.0, 2.0, 5.0]))
def test_runs_never_exceed_offset_bound_with_the_planted_separator(data, c):
    X, y, _, b, g = data
    R = float(np.max(np.linalg.norm(X, axis=1)))
    m = reference_perceptron(augment(X, c), y).mistakes
    bound = offset_bound(R, g, b, c)
    assert m <= bound * (1 + 1e-9)
    assert bound == pytest.approx(_bound_formula(R, g, b, c), rel=1e-12)
    # The package's perceptron makes the same run (c = 1 is offset=True, off-thm-trick).
    assert perceptron(augment(X, c), y, max_epochs=10**6).mistakes == m
    if c == 1.0:
        assert perceptron(X, y, offset=True, max_epochs=10**6).mistakes == m


@SETTINGS
@given(translated(), st.floats(0.01, 100.0), st.booleans())
def test_the_augmented_points_have_the_lemmas_radius_and_margin(data, c, negative):
    """off-lem-radius and off-lem-margin on the package's augment(X, c), measured with the
    package's radius and margins, against closed forms computed here from X alone: the
    radius is exactly √(R² + c²) (‖(x, c)‖² = ‖x‖² + c², largest at the farthest x), and the
    point margins of (u, b/c) are y(u·x + b)/√(1 + b²/c²) (also for c < 0)."""
    X, y, u, b, g = data
    c = -c if negative else c
    Xa = augment(X, c)
    assert Xa.shape == (len(y), X.shape[1] + 1)
    assert np.array_equal(Xa[:, :-1], X) and np.all(Xa[:, -1] == c)
    R = max(math.sqrt(sum(v * v for v in row)) for row in X.tolist())
    assert radius(Xa) == pytest.approx(math.sqrt(R * R + c * c), rel=1e-12)
    shrink = math.sqrt(1 + (b / c) ** 2)
    expected = [float(label) * (sum(a * v for a, v in zip(u, row)) + b) / shrink
                for row, label in zip(X.tolist(), y)]
    np.testing.assert_allclose(margins(Xa, y, np.r_[u, b / c]), expected, rtol=1e-9, atol=1e-12)
    # The lemma's margin is attained, not just bounded: equality at the closest point.
    assert dataset_margin(Xa, y, np.r_[u, b / c]) == pytest.approx(g / shrink, rel=1e-9)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(translated())
def test_runs_never_exceed_offset_bound_with_an_svc_separator(data):
    X, y, *_ = data
    w, b, g = _svc_separator(X, y)
    assume(g > 1e-3)  # the SVC found a separator with a usable margin
    R = float(np.max(np.linalg.norm(X, axis=1)))
    for c in (1.0, 0.3, 3.0, math.sqrt(R * abs(b)) or 1.0):
        assert reference_perceptron(augment(X, c), y).mistakes <= offset_bound(R, g, b, c) * (1 + 1e-9)


def test_the_one_dimensional_example_breaks_the_naive_bound_but_not_offset_bound():
    # x = 11 (+1), x = 9 (-1): w* = 1, b* = -10, margin 1, R = 11. Integers: exact runs.
    X, y = np.array([[11.0], [9.0]]), np.array([1.0, -1.0])
    m = reference_perceptron(augment(X, 1.0), y).mistakes
    assert m == 202
    assert m > novikoff_bound(11.0, 1.0) == 121.0  # (R/γ*_b)² is not a bound
    assert offset_bound(11.0, 1.0, -10.0) == 12322.0
    assert offset_bound(11.0, 1.0, -10.0, c=math.sqrt(110.0)) == pytest.approx(441.0, rel=1e-12)
    assert reference_perceptron(augment(X, math.sqrt(110.0)), y).mistakes <= 441


def test_offset_bound_does_not_drop_the_offset_or_the_constant():
    # Formulas that look plausible but are wrong: (R/γ)², (R² + c²)/γ², (R² + 1)(1 + b²)/γ².
    assert offset_bound(11.0, 1.0, -10.0) != novikoff_bound(11.0, 1.0)
    assert offset_bound(3.0, 0.5, 2.0, c=1.0) == pytest.approx((9 + 1) * (1 + 4) / 0.25)
    assert offset_bound(3.0, 0.5, 2.0, c=2.0) == pytest.approx((9 + 4) * (1 + 1) / 0.25)
    assert offset_bound(3.0, 0.5, 0.0, c=2.0) == pytest.approx(13 / 0.25)
    assert offset_bound(3.0, 0.5, -2.0, c=2.0) == offset_bound(3.0, 0.5, 2.0, c=2.0)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"R": -1.0, "gamma": 1.0, "b": 0.0}, ValueError),
        ({"R": 1.0, "gamma": 0.0, "b": 0.0}, ValueError),
        ({"R": 1.0, "gamma": 1.0, "b": float("nan")}, ValueError),
        ({"R": 1.0, "gamma": 1.0, "b": 0.0, "c": 0.0}, ValueError),
        ({"R": 1.0, "gamma": 1.0, "b": 0.0, "c": -1.0}, ValueError),
        ({"R": 1.0, "gamma": 1.0, "b": "1"}, TypeError),
        ({"R": 1.0, "gamma": 1.0, "b": True}, TypeError),
        ({"R": 1e200, "gamma": 1e-200, "b": 0.0}, ValueError),  # overflow, not inf
    ],
)
def test_offset_bound_rejects_bad_input_clearly(kwargs, error):
    with pytest.raises(error):
        offset_bound(**kwargs)


def test_offset_bound_survives_large_but_representable_values():
    # R² alone would overflow; the bound itself fits in a float.
    assert offset_bound(1e200, 1e200, 0.0, c=1e200) == pytest.approx(2.0)


# ---------------------------------------------------------------------------------------------
# off-prop-best-c: the best constant
# ---------------------------------------------------------------------------------------------


@settings(max_examples=examples(300), deadline=None)
@given(
    st.floats(1e-3, 1e3),
    st.floats(1e-3, 1e3),
    st.floats(1e-3, 1e3) | st.floats(-1e3, -1e-3),
)
def test_best_c_minimizes_the_bound(R, gamma, b):
    c_star = math.sqrt(R * abs(b))
    assert best_c(R, b) == pytest.approx(c_star, rel=1e-15)
    best = offset_bound(R, gamma, b, c_star)
    assert best == pytest.approx(((R + abs(b)) / gamma) ** 2, rel=1e-9)
    assert best_offset_bound(R, gamma, b) == pytest.approx(best, rel=1e-9)
    # No c of a wide grid does better; a scalar minimizer over log c finds the same point.
    for c in c_star * np.geomspace(1e-3, 1e3, 121):
        assert offset_bound(R, gamma, b, float(c)) >= best * (1 - 1e-12)
    # A scalar minimizer of the package's bound over log c lands on the closed form c*.
    res = minimize_scalar(lambda t: offset_bound(R, gamma, b, math.exp(t)) / best,
                          bracket=(math.log(c_star) - 1, math.log(c_star) + 1), tol=1e-12)
    assert math.exp(res.x) == pytest.approx(c_star, rel=1e-4)


@settings(max_examples=examples(200), deadline=None)
@given(st.floats(1e-3, 1e3), st.floats(1e-3, 1e3), st.floats(0.0, 1.0))
def test_with_both_sides_the_best_bound_is_at_most_four_times_novikoff(R, gamma, frac):
    b = frac * R  # |b| <= R, as off-lem-b-le-R guarantees for a two-sided separator
    assert offset_bound(R, gamma, b, math.sqrt(R * b) or R) <= 4 * (R / gamma) ** 2 * (1 + 1e-12)
    # c = R, chosen without knowing b, is within the same factor.
    assert offset_bound(R, gamma, b, R) <= 4 * (R / gamma) ** 2 * (1 + 1e-12)


# ---------------------------------------------------------------------------------------------
# off-lem-b-le-R
# ---------------------------------------------------------------------------------------------


@settings(max_examples=examples(300), deadline=None)
@given(
    st.integers(1, 5),
    st.integers(2, 40),
    st.integers(0, 2**31 - 1),
    st.floats(-5, 5),
)
def test_a_separator_with_points_on_both_sides_has_offset_at_most_R_minus_gamma(d, n, seed, b):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    X = rng.standard_normal((n, d)) * rng.uniform(0.1, 3.0)
    y = np.where(X @ w + b > 0, 1.0, -1.0)
    assume(len(set(y)) == 2)  # points on both sides
    gamma = float(np.min(y * (X @ w + b)))
    R = float(np.max(np.linalg.norm(X, axis=1)))
    assert abs(b) <= R - gamma + 1e-12 * max(1.0, R)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(translated())
def test_the_svc_and_the_planted_separators_have_offset_at_most_R(data):
    X, y, _, b, g = data
    R = float(np.max(np.linalg.norm(X, axis=1)))
    assert abs(b) <= R - g + 1e-9
    _, b_svc, g_svc = _svc_separator(X, y)
    if g_svc > 0:
        assert abs(b_svc) <= R - g_svc + 1e-6


def test_one_sided_separators_can_have_a_larger_offset():
    # The exercise: one label, one point x = 1. The separator w = 1 with offset b has margin
    # 1 + b (closed form), so b = 5 gives margin 6 and |b| > R = 1, and the margin grows
    # without bound with b: without points on both sides, |b*| ≤ R − γ fails.
    X, y = np.array([[1.0]]), np.array([1.0])
    assert radius(X) == 1.0
    for b in (0.0, 5.0, 100.0, 1e6):
        assert dataset_margin(X, y, [1.0], b) == 1.0 + b
        assert dataset_margin(X, y, [3.0], 3.0 * b) == 1.0 + b  # scaling (w, b) changes nothing
    # With a point of the other label at x = -1 the offset is pinned: |b| ≤ R − γ (= 0 here).
    X2, y2 = np.array([[1.0], [-1.0]]), np.array([1.0, -1.0])
    assert dataset_margin(X2, y2, [1.0], 0.0) == 1.0
    for b in (0.5, -0.5, 5.0):
        assert dataset_margin(X2, y2, [1.0], b) == 1.0 - abs(b) < 1.0


# ---------------------------------------------------------------------------------------------
# off-thm-trick: the two runs are one run, with b != 0
# ---------------------------------------------------------------------------------------------


@st.composite
def integer_data(draw):
    """Integer points labelled by an integer separator with a non-zero offset (both classes)."""
    d = draw(st.integers(1, 3))
    n = draw(st.integers(2, 15))
    w = draw(st.lists(st.integers(-5, 5), min_size=d, max_size=d).filter(any))
    b = draw(st.integers(-30, 30).filter(lambda v: v != 0))
    X = np.array(draw(st.lists(st.lists(st.integers(-20, 20), min_size=d, max_size=d),
                               min_size=n, max_size=n)), dtype=float)
    score = X @ np.array(w, dtype=float) + b
    assume(np.all(score != 0))
    y = np.where(score > 0, 1.0, -1.0)
    assume(len(set(y)) == 2)
    return X, y


@SETTINGS
@given(integer_data(), st.integers(1, 30))
def test_the_offset_trick_is_the_same_run(data, T):
    X, y = data
    steps, theta, theta0 = _mit_theta0(X, y, T)
    assume(theta0 != 0)  # the trick with a real offset: the last coordinate must carry it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        through_origin = perceptron(augment(X, 1.0), y, max_epochs=T, record=True)
        with_offset = perceptron(X, y, offset=True, max_epochs=T, record=True)
        # The dummy input in front (Balcan's x0 = 1) is the same run too.
        front = perceptron(np.hstack([np.ones((len(y), 1)), X]), y, max_epochs=T, record=True)
    assert list(through_origin.history.indices) == steps
    assert list(with_offset.history.indices) == steps
    assert list(front.history.indices) == steps
    assert [Fraction(v) for v in through_origin.w] == theta + [theta0]
    assert [Fraction(v) for v in with_offset.w] == theta and Fraction(with_offset.b) == theta0
    assert [Fraction(v) for v in front.w] == [theta0] + theta


def test_the_trick_gives_a_non_zero_offset_on_the_chapter_example():
    X, y = np.array([[11.0], [9.0]]), np.array([1.0, -1.0])
    steps, theta, theta0 = _mit_theta0(X, y, 200)
    run = perceptron(augment(X, 1.0), y, max_epochs=200, record=True)
    assert theta0 == -20 and theta == [2] and len(steps) == 202
    assert list(run.history.indices) == steps and list(run.w) == [2.0, -20.0]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(integer_data(), st.integers(1, 30))
def test_the_offset_run_is_scikit_learns_fit_intercept_run(data, T):
    """The package's perceptron with offset=True against scikit-learn's Perceptron with
    fit_intercept=True (no shuffling, step 1, no penalty), and both against the MIT notes'
    algorithm in exact arithmetic: the same w and b after T epochs."""
    X, y = data
    _, theta, theta0 = _mit_theta0(X, y, T)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = SkPerceptron(shuffle=False, tol=None, eta0=1, penalty=None, max_iter=T,
                          fit_intercept=True).fit(X, y)
        ours = perceptron(X, y, offset=True, max_epochs=T)
    assert [Fraction(v) for v in sk.coef_[0]] == theta
    assert Fraction(sk.intercept_[0]) == theta0
    assert ours.w.tolist() == sk.coef_[0].tolist() and ours.b == sk.intercept_[0]


def test_without_an_offset_no_c_is_best_and_the_infimum_is_novikoff():
    # b* = 0: (R² + c²)/γ² falls all the way to c -> 0, where it is (R/γ)²; best_c refuses.
    with pytest.raises(ValueError, match="no positive c minimizes the offset bound"):
        best_c(1.0, 0.0)
    with pytest.raises(ValueError, match="no positive c"):
        best_c(0.0, 2.0)
    assert best_offset_bound(2.0, 0.5, 0.0) == novikoff_bound(2.0, 0.5) == 16.0
    assert offset_bound(2.0, 0.5, 0.0, 1e-6) == pytest.approx(16.0, rel=1e-9)
    # Far outside the range where R|b| is a float, the constant is still √R·√|b|.
    assert best_c(1e300, 1e300) == pytest.approx(1e300, rel=1e-12)
    assert best_c(1e-300, 1e-300) == pytest.approx(1e-300, rel=1e-12)
    with pytest.raises(TypeError, match="b must be a real number"):
        best_c(1.0, "1")


@settings(max_examples=examples(100))
@given(n=st.integers(2, 30), d=st.integers(1, 4), ratio=st.floats(0.1, 0.9),
       shift=st.floats(-2.0, 2.0), seed=st.integers(0, 2**31 - 1))
def test_offset_perceptron_obeys_the_lifted_bound(n, d, ratio, shift, seed):
    # M <= (R^2 + 1)(1 + b*^2) / gamma^2 for a planted unit w* with offset b*: the data are
    # planted through the origin and then shifted, so b* = -u.t is known without any solver.
    X0, y, u = planted(n, d, ratio, 1.0, seed=seed)
    t = np.full(d, shift)
    X = X0 + t
    b_star = -float(u @ t)
    gamma = float(np.min(y * (X @ u + b_star)))
    assert gamma == pytest.approx(float(np.min(y * (X0 @ u))), abs=1e-9)
    run = perceptron(X, y, offset=True, max_epochs=100_000)
    assert run.converged
    assert run.mistakes <= (radius(X) ** 2 + 1) * (1 + b_star**2) / gamma**2 * (1 + 1e-9)


@st.composite
def separable_with_offset(draw):
    """Data with a planted unit w, an offset b and margin >= gamma, built here."""
    d = draw(st.integers(1, 3))
    n = draw(st.integers(2, 20))
    seed = draw(st.integers(0, 2**31 - 1))
    gamma = draw(st.floats(0.05, 0.5))
    b = draw(st.floats(-3.0, 3.0))
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    X = rng.uniform(-4, 4, size=(n, d))
    score = X @ w + b
    y = np.where(score >= 0, 1.0, -1.0)
    X += np.outer(y * np.maximum(gamma - np.abs(score), 0.0), w)
    return X, y, w, b, gamma


@settings(max_examples=examples(100))
@given(separable_with_offset())
def test_offset_bound_on_the_augmented_points(case):
    # The chapter's bound with an offset: M <= (R^2 + 1)(1 + b^2) / gamma^2.
    X, y, w, b, _ = case
    gamma = float(np.min(y * (X @ w + b)))
    R_sq = float(np.max(np.sum(X * X, axis=1)))
    m = len(reference_perceptron(X, y, offset=True).weights)
    assert m == perceptron(X, y, offset=True, max_epochs=10**6).mistakes
    assert m <= (R_sq + 1) * (1 + b * b) / gamma**2 + 1e-9
