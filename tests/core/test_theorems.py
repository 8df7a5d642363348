"""Every theorem and lemma the book states, checked on many random data sets (hypothesis).

The convergence theorem (Block–Novikoff) and its proof's invariants, the three forms of the
bound, the offset trick and the offset bound, the Margin Perceptron's bound and its lemmas,
Balcan's hinge-loss bound and Freund and Schapire's, the best γ and c, and the small lemmas of
the chapters. Each checks a run or a formula against quantities recomputed here with numpy or
plain Python, or against an independent source (the planted truth, scikit-learn's SVC).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar, nnls
from sklearn.svm import SVC

import perceptron_core as pc
from perceptron_core import bounds as hb

from conftest import examples, planted_data, small_labelled_data

REL = 1e-9  # slack for rounding in a bound's own arithmetic
TIES = ("mistake", "positive", "negative")
pytestmark = pytest.mark.usefixtures("no_convergence_warnings")


def _R(X):
    return float(np.max(np.linalg.norm(X, axis=1)))


# ------------------------------------------------------------------ Block–Novikoff and its proof


@given(planted_data(), st.sampled_from(TIES))
def test_novikoff_mistakes_at_most_R_over_gamma_star_squared(data, tie):
    X, y, _, _, R = data
    mm = pc.max_margin(X, y)
    res = pc.perceptron(X, y, tie=tie, max_epochs=10_000)
    assert res.converged  # gamma_high >= gamma*: (R/gamma_high)² is the strongest check
    assert res.mistakes <= pc.novikoff_bound(R, mm.gamma_high) * (1 + REL)
    assert res.epochs <= pc.max_rounds(R, mm.gamma_high)


@given(planted_data(), st.booleans())
def test_proof_invariants_at_every_mistake(data, offset):
    """w_k·u ≥ kγ and ‖w_k‖² ≤ kR² (with an offset: on (x, 1), radius √(R² + 1))."""
    X, y, u, gamma, R = data
    res = pc.perceptron(X, y, offset=offset, u=np.r_[u, 0.0] if offset else u, max_epochs=10_000)
    W = np.hstack([res.history.weights, res.history.offsets[:, None]]) if offset else res.history.weights
    k = np.arange(1, res.mistakes + 1)
    R2 = R**2 + offset
    assert np.allclose(res.history.progress, W @ np.r_[u, [0.0] * offset], rtol=1e-12, atol=1e-12)
    assert np.all(res.history.progress >= k * gamma - REL * k * R)
    assert np.all(res.history.norms_sq <= k * R2 * (1 + REL))
    assert np.all(res.history.progress <= np.sqrt(res.history.norms_sq) * (1 + REL))  # the cosine step
    assert res.mistakes <= pc.novikoff_bound(math.sqrt(R2), gamma) * (1 + REL)


@given(planted_data(max_n=15, max_d=4), st.sampled_from(TIES), st.lists(st.integers(0, 10_000), min_size=1, max_size=300))
def test_mistake_bound_online_any_order_any_repetition(data, tie, picks):
    X, y, u, gamma, R = data
    assert np.all(y * (X @ u) >= gamma * (1 - 1e-9))  # the planted margin, independent of the LP
    order = [p % len(y) for p in picks]
    steps = list(pc.online_perceptron(((X[i], y[i]) for i in order), tie=tie))
    assert steps[-1].mistakes <= (R / gamma) ** 2 * (1 + 1e-9)


@settings(max_examples=examples(60))
@given(planted_data(max_n=30, max_d=4))
def test_three_forms_of_the_bound_agree(data):
    X, y, u, gamma, R = data
    mm = pc.max_margin(X, y)
    # UML's B = min{‖w‖ : yᵢ w·xᵢ ≥ 1} from a hard-margin SVC on the mirrored data (offset 0).
    svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(np.vstack([X, -X]), np.r_[y, -y])
    w_svc = svc.coef_[0]
    B_svc = np.linalg.norm(w_svc) / np.min(y * (X @ w_svc))
    assert B_svc * (1 - 1e-5) <= mm.B <= B_svc * (1 + 1e-9)
    assert 1 / mm.gamma_high <= B_svc * (1 + 1e-12)
    assert np.min(y * (X @ mm.w_B)) >= 1 - 1e-9
    novikoff = pc.novikoff_bound(R, mm.gamma)
    assert np.isclose(pc.uml_bound(R, B_svc), novikoff, rtol=1e-4)
    assert np.isclose(pc.unnormalized_bound(R, w_svc, np.min(y * (X @ w_svc))), novikoff, rtol=1e-4)
    eps = np.min(y * (X @ (3.7 * u)))
    assert np.isclose(pc.unnormalized_bound(R, 3.7 * u, eps), pc.novikoff_bound(R, gamma), rtol=1e-9)


@pytest.mark.parametrize("n", [1, 2, 5, 13, 50])
def test_orthonormal_worst_case_meets_the_bound(n):
    X, y = pc.orthonormal_worst_case(n, seed=n)
    mm = pc.max_margin(X, y)
    assert np.isclose(mm.gamma, 1 / np.sqrt(n), rtol=1e-12)
    assert round(pc.novikoff_bound(pc.radius(X), mm.gamma)) == n == pc.perceptron(X, y).mistakes


@pytest.mark.parametrize("k", range(1, 9))
def test_narrow_wedge_runs_long_but_within_the_bound(k):
    X, y = pc.narrow_wedge(k)
    res = pc.perceptron(X, y, max_epochs=10**6)
    assert res.converged and 2 ** (k + 2) <= res.mistakes <= pc.novikoff_bound(pc.radius(X), pc.max_margin(X, y).gamma_high)


# ------------------------------------------------------------------ small lemmas of the chapters


@given(st.integers(1, 6), st.integers(0, 10**6), st.sampled_from([-1.0, 1.0]))
def test_update_moves_the_score_by_the_squared_norm(d, seed, label):
    w, x = np.random.default_rng(seed).uniform(-10, 10, (2, d))
    assert np.isclose(label * (w + label * x) @ x, label * (w @ x) + x @ x, rtol=1e-12, atol=1e-9)


@given(planted_data(), st.floats(0.01, 100.0), st.floats(-1.0, 1.0))
def test_geometric_margin_is_scale_invariant(data, c, b):
    X, y, u, _, _ = data
    m = pc.margins(X, y, u, b)
    assert np.allclose(m, y * (X @ u + b), rtol=1e-12, atol=1e-15)
    assert np.allclose(pc.margins(X, y, c * u, c * b), m, rtol=1e-9, atol=1e-12)
    assert np.allclose(pc.margins(X, y, -c * u, -c * b), -m, rtol=1e-9, atol=1e-12)


@given(planted_data(max_n=25, max_d=4), st.floats(0.01, 100.0), st.integers(0, 10**6))
def test_scaling_and_weak_duality(data, c, seed):
    """R and γ* scale with the data (the run with them); any unit w is below any hull point."""
    X, y, _, _, R = data
    mm, mm_c = pc.max_margin(X, y), pc.max_margin(c * X, y)
    assert np.isclose(pc.radius(c * X), c * R, rtol=1e-12) and np.isclose(mm_c.gamma, c * mm.gamma, rtol=1e-9)
    run, run_c = pc.perceptron(X, y), pc.perceptron(c * X, y)
    assert run.mistakes == run_c.mistakes and np.allclose(run_c.w, c * run.w, rtol=1e-9, atol=1e-12)
    rng = np.random.default_rng(seed)
    Z, w = y[:, None] * X, rng.standard_normal(X.shape[1])
    assert np.min(Z @ (w / np.linalg.norm(w))) <= np.linalg.norm(rng.dirichlet(np.ones(len(y))) @ Z) + 1e-12


@given(small_labelled_data(), st.integers(0, 10**6))
def test_gordan_witness_and_certificate_exclude_each_other(data, seed):
    X, y = data
    verdict = pc.separability(X, y)
    Z = y[:, None] * X
    lam = np.random.default_rng(seed).dirichlet(np.ones(len(y)))
    if verdict.separable:
        assert (lam @ Z) @ verdict.w > 0
    else:  # the certificate rules out every w at once
        w = np.random.default_rng(seed).standard_normal(X.shape[1])
        assert np.isclose(verdict.certificate @ (Z @ w), 0, atol=1e-9) and np.min(Z @ w) <= 1e-9
        assert not pc.perceptron(X, y, max_epochs=50).converged


@settings(max_examples=examples(100))
@given(st.integers(2, 20), st.integers(2, 4), st.floats(0.05, 0.9), st.integers(0, 2**31 - 1),
       st.lists(st.floats(-3, 3), min_size=5, max_size=5))
def test_mirroring_costs_exactly_the_offset(n, d, ratio, seed, wb):
    """mgn-prop-mirror on random data and a random (w, b)."""
    X, y, _ = pc.planted(n, d, ratio, 1.0, seed=seed)
    w, b = np.array(wb[:d]), wb[4]
    assume(np.linalg.norm(w) > 1e-3)
    mirrored = np.min(np.r_[y, -y] * (np.vstack([X, -X]) @ w + b)) / np.linalg.norm(w)
    assert mirrored == pytest.approx(np.min(y * (X @ w)) / np.linalg.norm(w) - abs(b) / np.linalg.norm(w), abs=1e-9)


# ------------------------------------------------------------------ the offset trick and its bound


@st.composite
def translated(draw):
    """Planted data moved by s: the truth is (u, b = −u·s); γ' its margin on the moved points."""
    d = draw(st.integers(1, 4))
    X, y, u = pc.planted(draw(st.integers(2, 30)), d, draw(st.floats(0.05, 0.5)), 1.0,
                         seed=draw(st.integers(0, 2**31 - 1)))
    s = np.array(draw(st.lists(st.floats(-3, 3), min_size=d, max_size=d)))
    b = -float(u @ s)
    g = float(np.min(y * ((X + s) @ u + b)))
    assume(g > 1e-3)
    return X + s, y, u, b, g


@settings(max_examples=examples(150))
@given(translated(), st.sampled_from([0.1, 0.5, 1.0, 2.0, 5.0]))
def test_offset_runs_are_the_runs_on_augmented_points_and_obey_the_offset_bound(data, c):
    """off-thm-trick and off-thm-bound: (R² + c²)(1 + b²/c²)/γ², written out here."""
    X, y, u, b, g = data
    R = _R(X)
    run = pc.perceptron(pc.augment(X, c), y, max_epochs=10**6, record=True)
    bound = pc.offset_bound(R, g, b, c)
    assert bound == pytest.approx((R * R + c * c) * (1 + b * b / (c * c)) / (g * g), rel=1e-12)
    assert run.converged and run.mistakes <= bound * (1 + REL)
    if c == 1.0:  # with an offset, the same run: the same rows, and (w, b) the augmented weights
        off = pc.perceptron(X, y, offset=True, max_epochs=10**6, record=True)
        assert off.history.indices.tolist() == run.history.indices.tolist()
        assert np.array_equal(run.w, np.r_[off.w, off.b])
    assert abs(b) <= R - g + 1e-9 or len(set(y.tolist())) < 2  # off-lem-b-le-R


@settings(max_examples=examples(150))
@given(st.floats(1e-2, 1e2), st.floats(1e-2, 1e2), st.floats(-1e2, 1e2).filter(lambda b: abs(b) > 1e-3))
def test_best_c_minimizes_the_offset_bound(R, gamma, b):
    c_star = math.sqrt(R * abs(b))
    assert hb.best_c(R, b) == pytest.approx(c_star, rel=1e-15)
    best = pc.offset_bound(R, gamma, b, c_star)
    assert best == pytest.approx(((R + abs(b)) / gamma) ** 2, rel=1e-9) == hb.best_offset_bound(R, gamma, b)
    assert all(pc.offset_bound(R, gamma, b, float(c)) >= best * (1 - 1e-12) for c in c_star * np.geomspace(1e-3, 1e3, 61))
    if abs(b) <= R:  # both sides: at most 4(R/γ)², also at c = R
        assert max(best, pc.offset_bound(R, gamma, b, R)) <= 4 * (R / gamma) ** 2 * (1 + 1e-12)


def test_the_one_dimensional_example_breaks_the_naive_bound_but_not_the_offset_bound():
    X, y = np.array([[11.0], [9.0]]), np.array([1.0, -1.0])  # w* = 1, b* = -10, margin 1, R = 11
    assert pc.perceptron(X, y, offset=True, max_epochs=10**6).mistakes == 202 > pc.novikoff_bound(11.0, 1.0)
    assert pc.offset_bound(11.0, 1.0, -10.0) == 12322.0
    assert pc.perceptron(pc.augment(X, math.sqrt(110.0)), y, max_epochs=10**6).mistakes <= 441


# ------------------------------------------------------------------ the Margin Perceptron


@st.composite
def margin_runs(draw, max_n=40, max_d=6, record=False):
    """Planted data, γ ≤ its margin, a target τ, and the run of the Margin Perceptron."""
    R, ratio = draw(st.floats(0.5, 5.0)), draw(st.floats(0.05, 1.0))
    X, y, u = pc.planted(draw(st.integers(2, max_n)), draw(st.integers(1, max_d)), ratio * R, R,
                         seed=draw(st.integers(0, 2**31 - 1)))
    gamma = draw(st.floats(0.05, 1.0)) * float(np.min(y * (X @ u))) * (1 - 1e-12)
    target = draw(st.floats(0.01, 0.97))
    R = _R(X)
    rho, eps = R / gamma, 1 - target
    formula = 2 * rho**2 / eps**2 + 2 * rho / eps
    run = pc.margin_perceptron(X, y, gamma, target=target, max_epochs=int(formula) + 2, record=record)
    return X, y, u, gamma, R, target, formula, run


@given(margin_runs())
def test_margin_perceptron_updates_within_the_bound_and_reach_the_target(case):
    """mp-thm-target (Balcan's at τ = ½), mp-ex-init's tighter count, and mp-thm-reach."""
    X, y, u, gamma, R, target, formula, run = case
    assert run.converged and pc.margin_perceptron_bound(R, gamma, target) == pytest.approx(formula, rel=1e-12)
    assert run.updates <= formula - (4 / (1 - target) - 1) + REL * formula
    assert np.min(y * (X @ run.w)) / np.linalg.norm(run.w) >= target * gamma * (1 - 1e-12)
    assert run.epochs <= math.floor(formula * (1 + REL)) + 1
    if target == 0.5:
        assert pc.margin_perceptron_bound(R, gamma) == pytest.approx(8 * (R / gamma) ** 2 + 4 * R / gamma, rel=1e-12)


@given(margin_runs(max_n=30, max_d=5, record=True))
def test_margin_perceptron_lemmas_at_every_update(case):
    """mp-lem-progress and mp-lem-growth, on the recorded weights of the run."""
    X, y, u, gamma, R, target, _, run = case
    W = np.asarray(run.weights)  # row t-1 is w_t, row 0 the initialization
    t = np.arange(1, W.shape[0] + 1)
    assert np.all(W @ u >= t * gamma - REL * t * R)
    if run.updates:
        before, after = W[:-1], W[1:]
        norms = np.linalg.norm(before, axis=1)
        assert np.all(np.sum(before * (y[:, None] * X)[run.update_indices], axis=1) / norms < target * gamma + REL * R)
        grown = np.linalg.norm(after, axis=1)
        assert np.all(grown <= (norms + target * gamma + R**2 / (2 * norms)) * (1 + REL))
        assert np.all(grown <= (norms + R) * (1 + REL))


# ------------------------------------------------------------------ data that cannot be separated


@st.composite
def noisy_planted(draw):
    R = draw(st.floats(0.5, 3.0))
    margin = draw(st.floats(0.02, 1.0)) * R
    seed = draw(st.integers(0, 2**31 - 1))
    X, y, u = pc.planted(draw(st.integers(5, 60)), draw(st.integers(1, 6)), margin, R, seed=seed)
    return X, pc.flip_labels(y, draw(st.floats(0.0, 0.4)), seed=seed), u, margin


@settings(max_examples=examples(200))
@given(noisy_planted(), st.integers(1, 4), st.floats(0.05, 2.0), st.booleans())
def test_hinge_loss_bounds_hold_over_several_passes(data, passes, scale, perturb):
    """Balcan's (R/γ)² + (2T/γ)TD_γ, the proof's changed progress claim, the solved quadratic,
    and Freund and Schapire's ((R + D)/γ)², all recomputed here with numpy, for any unit u."""
    X, y, u, margin = data
    gamma = scale * margin
    if perturb:
        u = u + 0.3 * np.random.default_rng(len(y)).standard_normal(u.shape)
        assume(np.linalg.norm(u) > 1e-3)
    u = u / np.linalg.norm(u)
    R = _R(X)
    res = pc.perceptron(X, y, max_epochs=passes, record=True)
    dev = np.maximum(0.0, gamma - y * (X @ u))
    td = float(dev.sum())
    assert math.isclose(td, pc.total_hinge_deviation(X, y, u, gamma), rel_tol=1e-9, abs_tol=1e-12)
    h, k = res.history, np.arange(1, res.mistakes + 1)
    paid = np.cumsum(dev[h.indices])
    assert np.all(h.weights @ u >= gamma * k - paid - 1e-9 * (1 + R * k))
    balcan = pc.hinge_loss_bound(R, gamma, passes * td)
    assert math.isclose(balcan, (R / gamma) ** 2 + 2 * passes * td / gamma, rel_tol=1e-12)
    solved = hb.solved_hinge_bound(R, gamma, passes * td)
    assert res.mistakes <= solved * (1 + REL) and solved <= balcan * (1 + 1e-12) + 1e-12
    D = math.sqrt(passes * float(np.sum(dev**2)))
    assert res.mistakes <= hb.freund_schapire_bound(R, gamma, D) * (1 + REL)
    assert math.isclose(hb.freund_schapire_bound(R, gamma, D), ((R + D) / gamma) ** 2)


@settings(max_examples=examples(200))
@given(planted_data(max_n=30, max_d=4), st.floats(0.0, 0.4), st.integers(0, 1000), st.integers(1, 4))
def test_hinge_loss_bound_on_any_sequence_of_passes(data, rate, seed, passes):
    X, y, u, gamma, R = data
    y = pc.flip_labels(y, rate, seed=seed)
    stream = itertools.chain.from_iterable(zip(X, y) for _ in range(passes))
    mistakes = max((step.mistakes for step in pc.online_perceptron(stream)), default=0)
    assert mistakes <= pc.hinge_loss_bound(R, gamma, passes * pc.total_hinge_deviation(X, y, u, gamma)) * (1 + REL)


@settings(max_examples=examples(150))
@given(st.integers(1, 30), st.integers(1, 4), st.integers(0, 10**6), st.integers(1, 5))
def test_best_gamma_is_the_minimum_over_gamma(n, d, seed, passes):
    rng = np.random.default_rng(seed)
    X, y, u = rng.standard_normal((n, d)), rng.choice([-1.0, 1.0], size=n), rng.standard_normal(d)
    m = y * (X @ u) / np.linalg.norm(u)
    R = _R(X)
    best = hb.best_gamma(X, y, u, passes=passes)
    grid = np.geomspace(1e-3, 1e3, 4000) * max(R, 1e-9)
    on_grid = (R / grid) ** 2 + 2 * passes * np.maximum(0.0, grid - m[:, None]).sum(axis=0) / grid
    assert best.bound <= on_grid.min() * (1 + 1e-9)
    if math.isinf(best.gamma):  # the infimum is the limit 2Tn at γ → ∞
        assert best.bound == 2 * passes * n
    else:
        f = (R / best.gamma) ** 2 + 2 * passes * np.sum(np.maximum(0.0, best.gamma - m)) / best.gamma
        assert math.isclose(best.bound, f, rel_tol=1e-9)


@settings(max_examples=examples(40))
@given(noisy_planted(), st.integers(1, 3))
def test_best_bound_is_the_minimum_over_u_and_gamma(data, passes):
    X, y, _, _ = data
    best = hb.best_bound(X, y, passes=passes)
    assert best.lower <= best.bound * (1 + 1e-9)
    rng = np.random.default_rng(len(y))
    for u in rng.standard_normal((20, X.shape[1])):  # no random direction does better
        assert best.lower <= hb.best_gamma(X, y, u, passes=passes).bound * (1 + 1e-6)


# ------------------------------------------------------------------ certified geometry


@settings(max_examples=examples(100))
@given(planted_data(max_n=25, max_d=4), st.booleans())
def test_max_margin_interval_is_certified_tight_and_contains_the_hull_distance(data, offset):
    X, y, u, gamma, R = data
    mm = pc.max_margin(X, y, offset=offset)
    assert mm.gamma_low <= mm.gamma_high and (mm.gamma_high - mm.gamma_low) / mm.gamma_high <= 1e-9
    assert mm.gamma_low >= gamma * (1 - REL)  # at least the planted margin
    assert np.isclose(pc.dataset_margin(X, y, mm.w, mm.b), mm.gamma_low, rtol=1e-12)
    if not offset:  # an independent distance to the hull: non-negative least squares
        Z = y[:, None] * X
        M = 1e4 * R
        ref, _ = nnls(np.vstack([Z.T, M * np.ones(len(y))]), np.r_[np.zeros(Z.shape[1]), M], maxiter=10_000)
        dist = np.linalg.norm((ref / ref.sum()) @ Z)
        assert mm.gamma_low * (1 - 1e-6) <= dist <= mm.gamma_high * (1 + 1e-6)
        point, lam = pc.min_norm_point(Z)
        assert np.all(lam >= 0) and np.isclose(lam.sum(), 1.0) and np.allclose(lam @ Z, point)
        assert np.isclose(np.linalg.norm(point), dist, rtol=1e-6)


def test_best_c_and_minimize_scalar_agree():
    res = minimize_scalar(lambda t: pc.offset_bound(11.0, 1.0, -10.0, math.exp(t)), bracket=(0.0, 3.0), tol=1e-12)
    assert math.exp(res.x) == pytest.approx(hb.best_c(11.0, -10.0), rel=1e-4)
