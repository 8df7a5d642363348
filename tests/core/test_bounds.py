"""The bounds of :mod:`perceptron_core.bounds` for data that cannot be separated.

Balcan's bound ``(R/γ)² + (2/γ)·TD_γ`` is checked against real runs on noisy data over one to
four passes, with the reference vector u and the margin γ taken from a source independent of the
run: the planted truth, or a soft-margin linear SVM from scikit-learn. The deviations, norms and
products are recomputed here with plain numpy, not taken from the package's own bookkeeping. The
solved quadratic is checked against numpy's roots and a bracketing root finder, Freund and
Schapire's form against its formula, the smallest bound over γ against grids and a scalar
minimizer, and the smallest bound over u and γ together (``best_bound``, an SVM) against
searches that know nothing of SVMs and against scikit-learn's solver.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq, minimize, minimize_scalar
from sklearn.svm import LinearSVC

import perceptron_core as pc
from perceptron_core import bounds as hb

from conftest import examples


# Runs that stop at their cap are what these tests read; the warning is tested in core/.
pytestmark = pytest.mark.usefixtures("no_convergence_warnings")


def _check_bound(X, y, u, gamma, res, passes):
    """Every claim of the proof, recomputed with numpy, for a run of at most ``passes`` epochs."""
    u = np.asarray(u, float) / np.linalg.norm(u)
    R = float(np.max(np.linalg.norm(X, axis=1)))
    M = res.mistakes
    dev = np.maximum(0.0, gamma - y * (X @ u))
    td = float(dev.sum())
    assert math.isclose(td, pc.total_hinge_deviation(X, y, u, gamma), rel_tol=1e-9, abs_tol=1e-12)
    h = res.history
    paid = np.cumsum(dev[h.indices])
    k = np.arange(1, M + 1)
    tol = 1e-9 * (1 + R * k)
    # The changed progress claim: w_{k+1}·u >= γk − (deviation of the first k mistakes).
    assert np.all(h.weights @ u >= gamma * k - paid - tol)
    # The growth claim, unchanged: ‖w_{k+1}‖² <= k R².
    assert np.all(np.einsum("ij,ij->i", h.weights, h.weights) <= k * R * R * (1 + 1e-12) + 1e-12)
    # Each example is met at most once per pass, so the proof pays at most P·TD_γ.
    assert paid[-1] <= res.epochs * td * (1 + 1e-12) + 1e-12 if M else True
    assert res.epochs <= passes
    solved_tight = hb.solved_hinge_bound(R, gamma, float(paid[-1]) if M else 0.0)
    solved = hb.solved_hinge_bound(R, gamma, passes * td)
    balcan = pc.hinge_loss_bound(R, gamma, passes * td)
    assert M <= solved_tight * (1 + 1e-9)
    assert solved_tight <= solved * (1 + 1e-12) + 1e-12
    assert solved <= balcan * (1 + 1e-12) + 1e-12
    assert math.isclose(balcan, (R / gamma) ** 2 + 2 * passes * td / gamma, rel_tol=1e-12)
    return M, balcan


@st.composite
def noisy_planted(draw):
    n = draw(st.integers(5, 60))
    d = draw(st.integers(1, 6))
    R = draw(st.floats(0.5, 3.0))
    margin = draw(st.floats(0.02, 1.0)) * R
    rate = draw(st.floats(0.0, 0.4))
    seed = draw(st.integers(0, 2**31 - 1))
    X, y, u = pc.planted(n, d, margin, R, seed=seed)
    return X, pc.flip_labels(y, rate, seed=seed), u, margin


@settings(max_examples=examples(200))
@given(noisy_planted(), st.integers(1, 4), st.floats(0.05, 2.0), st.booleans())
def test_hinge_bound_holds_for_the_planted_u_over_several_passes(data, passes, scale, perturb):
    X, y, u, margin = data
    gamma = scale * margin  # any γ > 0, below or above the planted margin
    if perturb:  # any unit u works, not only the truth
        u = u + 0.3 * np.random.default_rng(len(y)).standard_normal(u.shape)
        assume(np.linalg.norm(u) > 1e-3)
    res = pc.perceptron(X, y, max_epochs=passes, record=True)
    _check_bound(X, y, u, gamma, res, passes)


@settings(max_examples=examples(60))
@given(noisy_planted(), st.integers(1, 4), st.sampled_from([0.01, 0.1, 1.0, 10.0]))
def test_hinge_bound_holds_for_an_svm_u_at_its_best_gamma(data, passes, C):
    X, y, _, _ = data
    assume(len(np.unique(y)) == 2)
    svm = LinearSVC(C=C, fit_intercept=False, loss="hinge", max_iter=20_000).fit(X, y)
    u = svm.coef_.ravel()
    assume(np.linalg.norm(u) > 1e-9)
    best = hb.best_gamma(X, y, u, passes=passes)
    assume(math.isfinite(best.gamma))
    res = pc.perceptron(X, y, max_epochs=passes, record=True)
    M, balcan = _check_bound(X, y, u, best.gamma, res, passes)
    assert math.isclose(balcan, best.bound, rel_tol=1e-9)


@settings(max_examples=examples(150))
@given(noisy_planted(), st.integers(1, 4), st.floats(0.05, 2.0))
def test_freund_schapire_bound_holds_over_several_passes(data, passes, scale):
    # ((R + D)/γ)² with D the Euclidean norm of the deviations of the whole sequence: √T times
    # that of the data set over T passes. Recomputed here with numpy.
    X, y, u, margin = data
    gamma = scale * margin
    R = float(np.max(np.linalg.norm(X, axis=1)))
    dev = np.maximum(0.0, gamma - y * (X @ u))
    D_seq = math.sqrt(passes * float(np.sum(dev**2)))
    assert math.isclose(hb.square_deviation(X, y, u, gamma), math.sqrt(np.sum(dev**2)),
                        rel_tol=1e-12, abs_tol=1e-15)
    res = pc.perceptron(X, y, max_epochs=passes)
    assert res.mistakes <= ((R + D_seq) / gamma) ** 2 * (1 + 1e-9)
    assert math.isclose(hb.freund_schapire_bound(R, gamma, D_seq), ((R + D_seq) / gamma) ** 2)


@settings(max_examples=examples(100))
@given(st.integers(1, 5), st.floats(0.01, 10.0), st.lists(st.floats(-3, 3), min_size=3, max_size=3))
def test_on_xor_no_u_and_gamma_beat_twice_the_trivial_bound(passes, gamma, u):
    # Σ yᵢ zᵢ = 0 on XOR with the constant feature, so Σ yᵢ u·zᵢ = 0 for every u.
    X, y = pc.xor()
    Z = pc.augment(X)
    assume(np.linalg.norm(u) > 1e-6)
    td = float(np.sum(np.maximum(0.0, gamma - y * (Z @ u) / np.linalg.norm(u))))
    assert pc.hinge_loss_bound(pc.radius(Z), gamma, passes * td) > 2 * passes * len(y) * (1 - 1e-12)
    assert hb.best_gamma(Z, y, u, passes=passes).bound == 2 * passes * len(y)


@settings(max_examples=examples(200))
@given(st.integers(1, 30), st.integers(1, 4), st.integers(0, 10**6), st.integers(1, 5))
def test_best_gamma_is_the_minimum_over_gamma(n, d, seed, passes):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = rng.choice([-1.0, 1.0], size=n)
    u = rng.standard_normal(d)
    m = y * (X @ u) / np.linalg.norm(u)
    R = float(np.max(np.linalg.norm(X, axis=1)))

    def f(g):  # the bound, written out independently
        return (R / g) ** 2 + 2 * passes * np.sum(np.maximum(0.0, g - m)) / g

    best = hb.best_gamma(X, y, u, passes=passes)
    if math.isinf(best.gamma):  # the infimum is the limit 2Pn at γ → ∞, not attained
        assert best.bound == 2 * passes * n
        assert f(1e9 * max(R, 1.0)) == pytest.approx(best.bound, rel=1e-6)
    else:
        assert math.isclose(best.bound, f(best.gamma), rel_tol=1e-9)
    grid = np.geomspace(1e-3, 1e3, 4000) * max(R, 1e-9)
    on_grid = (R / grid) ** 2 + 2 * passes * np.maximum(0.0, grid - m[:, None]).sum(axis=0) / grid
    assert best.bound <= on_grid.min() * (1 + 1e-9)  # f at every point of the grid, at once
    # A local search started anywhere on the grid does no better either.
    for g0 in grid[::800]:
        sol = minimize_scalar(f, bounds=(g0 / 3, g0 * 3), method="bounded")
        assert best.bound <= sol.fun * (1 + 1e-9)


@settings(max_examples=examples(200))
@given(st.floats(0.0, 100.0), st.floats(1e-3, 10.0), st.floats(0.0, 1000.0))
def test_solved_quadratic_is_tighter_and_is_the_largest_feasible_count(R, gamma, td):
    solved = hb.solved_hinge_bound(R, gamma, td)
    balcan = pc.hinge_loss_bound(R, gamma, td)
    assert solved <= balcan * (1 + 1e-12) + 1e-12
    # M = solved satisfies R√M >= γM − TD with equality (up to rounding); a bit more does not.
    assert math.isclose(R * math.sqrt(solved), gamma * solved - td, rel_tol=1e-7, abs_tol=1e-7)
    bigger = solved * (1 + 1e-6) + 1e-6
    assert R * math.sqrt(bigger) < gamma * bigger - td


@settings(max_examples=examples(300))
@given(st.floats(0.01, 100.0), st.floats(1e-3, 10.0), st.floats(0.0, 1000.0))
def test_solved_form_is_the_square_of_the_positive_root(R, gamma, td):
    # The quadratic γs² − Rs − TD in s = √M, solved by numpy and by a bracketing root finder on
    # γM − TD − R√M, knows nothing of the closed form.
    roots = np.roots([gamma, -R, -td]).real
    s_plus = float(roots.max())
    solved = hb.solved_hinge_bound(R, gamma, td)
    assert math.isclose(solved, s_plus**2, rel_tol=1e-9, abs_tol=1e-9)
    f = lambda M: gamma * M - td - R * math.sqrt(M)  # noqa: E731
    hi = 2 * pc.hinge_loss_bound(R, gamma, td) + 1.0
    if td > 0:
        assert math.isclose(solved, brentq(f, 1e-300, hi, xtol=1e-14, rtol=1e-13), rel_tol=1e-9)
    # The other root is never positive: with it the "bound" would be 0 or less than the truth.
    assert float(roots.min()) <= 1e-9 * max(1.0, R / gamma)


def test_the_wrong_sign_of_the_root_is_not_a_bound():
    # (R − √(R² + 4γ·TD))/(2γ), squared, is 0 on separable data, where runs make mistakes, and
    # is broken on noisy data too: the sign in the chapter's derivation matters.
    def wrong(R, gamma, td):
        return ((R - math.sqrt(R * R + 4 * gamma * td)) / (2 * gamma)) ** 2

    X, y, u = pc.planted(50, 3, 0.1, seed=4)
    res = pc.perceptron(X, y)
    assert res.converged and res.mistakes > wrong(pc.radius(X), 0.1, 0.0) == 0.0
    broken = 0
    rng = np.random.default_rng(0)
    for trial in range(60):
        X, y, u = pc.planted(40, 3, 0.2, seed=trial)
        y = pc.flip_labels(y, 0.1, seed=trial)
        gamma = float(rng.uniform(0.05, 0.4))
        res = pc.perceptron(X, y, max_epochs=2, record=True)
        paid = hb.mistake_deviation(X, y, u, gamma, res.history.indices)
        assert res.mistakes <= hb.solved_hinge_bound(pc.radius(X), gamma, paid) * (1 + 1e-9)
        broken += res.mistakes > wrong(pc.radius(X), gamma, paid)
    assert broken > 0


@settings(max_examples=examples(300))
@given(st.floats(0.01, 10.0), st.floats(1e-3, 5.0),
       st.lists(st.floats(0.0, 3.0), min_size=1, max_size=40))
def test_freund_schapire_is_the_smaller_exactly_under_the_chapters_condition(R, gamma, dev):
    # Multiplied by γ²: FS is R² + 2R√Σd² + Σd², Balcan's R² + 2γ·TD. The chapter's condition
    # 2R√Σd² + Σd² < 2γ·TD, against the two bounds computed by the package.
    dev = np.array(dev)
    td, root = float(dev.sum()), float(np.sqrt(np.sum(dev**2)))
    fs = hb.freund_schapire_bound(R, gamma, root)
    balcan = pc.hinge_loss_bound(R, gamma, td)
    lhs, rhs = 2 * R * root + root**2, 2 * gamma * td
    assume(abs(lhs - rhs) > 1e-9 * (1 + lhs + rhs))  # not at the boundary, where rounding decides
    assert (fs < balcan) == (lhs < rhs)


@settings(max_examples=examples(300))
@given(st.floats(0.1, 10.0), st.floats(0.01, 2.0), st.integers(1, 5000), st.floats(1e-4, 5.0))
def test_equal_deviations_favour_freund_schapire_only_beyond_r_over_gamma_squared_points(
        R, gamma, N, delta):
    # N points deviating by Δ each: FS < Balcan exactly when Δ < 2γ − 2R/√N, which needs
    # N > (R/γ)².
    fs = hb.freund_schapire_bound(R, gamma, math.sqrt(N) * delta)
    balcan = pc.hinge_loss_bound(R, gamma, N * delta)
    edge = 2 * gamma - 2 * R / math.sqrt(N)
    assume(abs(delta - edge) > 1e-9 * (1 + abs(edge)))
    assert (fs < balcan) == (delta < edge)
    if fs < balcan:
        assert N > (R / gamma) ** 2


@settings(max_examples=examples(300))
@given(st.floats(0.01, 100.0), st.floats(1e-3, 10.0), st.floats(0.0, 1000.0))
def test_umls_solution_of_the_quadratic_is_never_below_the_chapters(R, gamma, paid):
    # UML's Theorem 21.16 in the book's letters, with w* = u/γ and the hinge losses of the
    # mistakes adding up to paid/γ: M <= L + b√L + b² with L = paid/γ, b = R/γ. It bounds the
    # same root a little more loosely than the solved form.
    b, L = R / gamma, paid / gamma
    uml = L + b * math.sqrt(L) + b * b
    assert hb.solved_hinge_bound(R, gamma, paid) <= uml * (1 + 1e-12) + 1e-12


@settings(max_examples=examples(200))
@given(st.integers(1, 30), st.integers(1, 4), st.integers(0, 10**6), st.integers(1, 5),
       st.floats(0.01, 0.99))
def test_between_two_margins_the_bound_is_a_quadratic_in_one_over_gamma(n, d, seed, passes, at):
    # The chapter: with I the points with m_i < γ, |I| of them with margins adding up to S, the
    # T-pass bound is R²/γ² − 2TS/γ + 2T|I|, for every γ between two consecutive positive margins.
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = rng.choice([-1.0, 1.0], size=n)
    u = rng.standard_normal(d)
    assume(np.linalg.norm(u) > 1e-6)
    m = y * (X @ u) / np.linalg.norm(u)
    R = float(np.max(np.linalg.norm(X, axis=1)))
    edges = np.r_[0.0, np.unique(m[m > 0])]
    j = int(rng.integers(len(edges)))
    hi = edges[j + 1] if j + 1 < len(edges) else edges[j] + 1.0
    gamma = edges[j] + at * (hi - edges[j])
    assume(gamma > 0)
    inside = m < gamma
    size, S = int(inside.sum()), float(m[inside].sum())
    quadratic = R**2 / gamma**2 - 2 * passes * S / gamma + 2 * passes * size
    assert hb.bound_at(m, R, gamma, passes) == pytest.approx(quadratic, rel=1e-9, abs=1e-9)


def test_solved_equals_novikoff_without_deviation():
    assert math.isclose(hb.solved_hinge_bound(2.0, 0.5, 0.0), 16.0)


def test_best_gamma_with_no_positive_margin_is_the_limit():
    best = hb.best_gamma([[1.0], [2.0]], [-1.0, -1.0], [1.0], passes=3)
    assert math.isinf(best.gamma) and best.bound == 12.0


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(2, 25), st.integers(1, 3), st.integers(0, 10**6), st.integers(1, 4),
       st.floats(0.0, 1.0))
def test_best_bound_is_the_minimum_over_u_and_gamma(n, d, seed, passes, noise):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X @ rng.standard_normal(d) + noise * rng.standard_normal(n) >= 0, 1.0, -1.0)
    R = float(np.max(np.linalg.norm(X, axis=1)))

    def f(w, g):  # Balcan's P-pass bound at direction w and margin g, written out here
        norm = math.sqrt(float(w @ w))
        if not (norm > 1e-12 and 1e-9 < g < 1e9):
            return math.inf
        m = y * (X @ w) / norm
        return (R / g) ** 2 + 2 * passes * float(np.maximum(0.0, g - m).sum()) / g

    best = hb.best_bound(X, y, passes=passes)
    if best.u is None:
        assert best.bound == 2 * passes * n
    else:
        assert math.isclose(np.linalg.norm(best.u), 1.0, rel_tol=1e-12)
        assert math.isclose(f(best.u, best.gamma), best.bound, rel_tol=1e-9)
    # The dual certificate: the bound found is within the solver's tolerance of optimal.
    assert best.lower <= best.bound * (1 + 1e-12)
    assert best.bound - best.lower <= 1e-5 * best.bound
    # An independent search that knows nothing of SVMs: Nelder–Mead over (w, log γ) from
    # random starts (most converge within 900 iterations; the rest circle a kink of the hinge,
    # where 20 000 iterations found nothing lower than 1 000 did), and random directions at
    # many γ. None goes below the certified lower bound, and the best found is not below the
    # package's bound.
    found = []
    for _ in range(4):
        z0 = np.r_[rng.standard_normal(d), rng.normal(0.0, 1.0)]
        sol = minimize(lambda z: f(z[:d], math.exp(z[d])), z0, method="Nelder-Mead",
                       options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 1_000})
        found.append(sol.fun)
    # f at 200 random directions times 50 margins, all at once: the same sum, written for arrays.
    W, G = rng.standard_normal((200, d)), np.geomspace(1e-2, 1e2, 50) * R
    M = y[:, None] * (X @ W.T) / np.sqrt(np.sum(W * W, axis=1))
    hinge = np.maximum(0.0, G[None, None, :] - M[:, :, None]).sum(axis=0)
    found += ((R / G) ** 2 + 2 * passes * hinge / G).ravel().tolist()
    assert min(found) >= best.lower * (1 - 1e-9)
    assert best.bound <= min(found) * (1 + 1e-5)
    # scikit-learn's solver of the same SVM (C = P/R², hinge loss, no offset) agrees.
    if len(np.unique(y)) == 2:
        svm = LinearSVC(C=passes / R**2, loss="hinge", fit_intercept=False, tol=1e-10,
                        max_iter=1_000_000).fit(X, y)
        w = svm.coef_.ravel()
        if np.linalg.norm(w) > 0:
            sk = hb.best_gamma(X, y, w, passes=passes).bound
            assert sk >= best.lower * (1 - 1e-9)


def test_best_bound_on_xor_is_the_limit():
    # Σ yᵢzᵢ = 0 on XOR with the constant feature: the SVM's best v is 0 (see the exercise).
    Z, y = pc.augment(pc.xor()[0]), pc.xor()[1]
    best = hb.best_bound(Z, y, passes=3)
    assert best.u is None and math.isinf(best.gamma) and best.bound == 24.0
    assert best.lower == pytest.approx(24.0, rel=1e-5)


@settings(max_examples=examples(200))
@given(st.integers(1, 20), st.integers(1, 4), st.integers(0, 10**6), st.floats(0.01, 3.0),
       st.floats(1e-200, 1e150))
def test_deviations_are_the_hinge_terms_of_the_unit_vector_at_any_scale_of_u(n, d, seed, gamma, scale):
    # Recomputed with numpy from u/‖u‖; the length of u, from 1e-200 to 1e150, changes nothing.
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = rng.choice([-1.0, 1.0], size=n)
    u = rng.standard_normal(d)
    assume(np.linalg.norm(u) > 1e-6)
    expected = np.maximum(0.0, gamma - y * (X @ (u / np.linalg.norm(u))))
    dev = hb.deviations(X, y, scale * u, gamma)
    np.testing.assert_allclose(dev, expected, rtol=1e-12, atol=1e-12)
    assert hb.total_hinge_deviation(X, y, u, gamma) == pytest.approx(expected.sum(), rel=1e-12, abs=1e-12)
    assert hb.square_deviation(X, y, u, gamma) == pytest.approx(math.sqrt(np.sum(expected**2)),
                                                                rel=1e-12, abs=1e-12)
    idx = rng.integers(0, n, size=3 * n)
    assert hb.mistake_deviation(X, y, u, gamma, idx) == pytest.approx(expected[idx].sum(), rel=1e-12, abs=1e-12)
    m = y * (X @ (u / np.linalg.norm(u)))
    assert hb.bound_at(m, 2.0, gamma, 3) == pytest.approx((2.0 / gamma) ** 2 + 6 * expected.sum() / gamma,
                                                          rel=1e-12)


def test_square_deviation_does_not_underflow_on_tiny_data():
    # Deviations near 1e-200: their squares underflow to 0 in floats, their norm does not.
    X, y = np.array([[1e-200], [-3e-200]]), np.array([1.0, 1.0])
    D = hb.square_deviation(X, y, [1.0], 2e-200)
    assert D == pytest.approx(math.hypot(1e-200, 5e-200), rel=1e-12)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: hb.best_gamma([[1.0]], [1.0], [0.0]), ValueError, "non-zero"),
        (lambda: hb.best_gamma([[1.0]], [1.0], [1.0], passes=0), ValueError, "passes must be a positive integer"),
        (lambda: hb.best_gamma([[1.0]], [1.0], [1.0], passes=True), ValueError, "passes"),
        (lambda: hb.best_gamma([[1.0]], [1.0], [1.0, 2.0]), ValueError, "length 1"),
        (lambda: hb.best_bound([[1.0]], [1.0], passes=2.5), ValueError, "passes"),
        (lambda: hb.best_bound([[1.0]], [1.0], tol=0.0), ValueError, "tol must be finite and > 0"),
        (lambda: hb.best_bound([[1.0]], [1.0], max_sweeps=0), ValueError, "max_sweeps must be a positive"),
        (lambda: hb.best_bound([[0.0]], [1.0]), ValueError, "R = 0"),
        (lambda: hb.solved_hinge_bound(1.0, 0.0, 1.0), ValueError, "gamma"),
        (lambda: hb.solved_hinge_bound(1.0, 1.0, -1.0), ValueError, "td"),
        (lambda: hb.solved_hinge_bound(1e300, 1e-300, 1.0), ValueError, "overflows the float range"),
        (lambda: hb.freund_schapire_bound(1.0, 1.0, np.nan), ValueError, "D must be finite"),
        (lambda: hb.freund_schapire_bound(1e200, 1e-200, 0.0), ValueError, "overflows the float range"),
        (lambda: hb.freund_schapire_bound("1", 1.0, 0.0), TypeError, "R must be a non-negative number"),
        (lambda: hb.deviations([[1.0]], [1.0], [1.0], -0.1), ValueError, "gamma"),
        (lambda: hb.deviations([[1.0]], [1.0], [0.0], 0.1), ValueError, "u is the zero vector"),
        (lambda: hb.deviations([[1.0]], [2.0], [1.0], 0.1), ValueError, "labels must be"),
        (lambda: hb.mistake_deviation([[1.0]], [1.0], [1.0], 0.1, [1]), ValueError, "indices must lie in 0..0"),
        (lambda: hb.mistake_deviation([[1.0]], [1.0], [1.0], 0.1, [0.5]), ValueError, "indices must be a 1-D array"),
        (lambda: hb.bound_at([[0.1]], 1.0, 0.1), ValueError, "margins must be a finite 1-D array"),
        (lambda: hb.bound_at([np.nan], 1.0, 0.1), ValueError, "margins must be a finite 1-D array"),
        (lambda: hb.bound_at(["a"], 1.0, 0.1), TypeError, "margins holds text"),
        (lambda: hb.bound_at([0.1], 1.0, 0.1, passes=0), ValueError, "passes"),
    ],
)
def test_bad_input_gets_a_message_that_says_what_to_do(call, error, match):
    with pytest.raises(error, match=match):
        call()
