"""Every theorem the book states, checked on hundreds of random data sets."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import nnls
from sklearn.svm import SVC

import perceptron_core as pc
from perceptron_core import online_perceptron, perceptron

from conftest import planted_data, reference_perceptron, small_labelled_data
from conftest import examples

REL = 1e-9  # slack for rounding in the bound's own arithmetic


@given(planted_data(), st.sampled_from(["mistake", "positive", "negative"]))
def test_novikoff_mistakes_at_most_R_over_gamma_star_squared(data, tie):
    X, y, _, _, R = data
    mm = pc.max_margin(X, y)
    # gamma_high >= gamma*, so (R/gamma_high)^2 is at most the theorem's bound: the strongest check.
    res = pc.perceptron(X, y, tie=tie, max_epochs=10_000)
    assert res.converged
    assert res.mistakes <= pc.novikoff_bound(R, mm.gamma_high) * (1 + REL)
    assert res.epochs <= pc.max_rounds(R, mm.gamma_high)


@given(planted_data())
def test_proof_invariants_at_every_mistake(data):
    X, y, u, gamma, R = data
    res = pc.perceptron(X, y, u=u, max_epochs=10_000)
    k = np.arange(1, res.mistakes + 1)
    assert np.all(res.history.progress >= k * gamma - REL * k * R)  # Lemma: w_k·u >= k gamma
    assert np.all(res.history.norms_sq <= k * R**2 * (1 + REL))  # Lemma: ‖w_k‖² <= k R²
    # ...and the cosine step: k gamma <= w_k·u <= ‖w_k‖ <= sqrt(k) R.
    assert np.all(res.history.progress <= np.sqrt(res.history.norms_sq) * (1 + REL))


@given(planted_data())
def test_invariants_with_offset_on_augmented_vectors(data):
    X, y, u, gamma, R = data
    # With b = 0 the planted u, padded with a 0 for the offset, still has margin gamma on (x, 1),
    # whose norm is at most sqrt(R² + 1): the offset trick's bound.
    res = pc.perceptron(X, y, offset=True, u=np.r_[u, 0.0], max_epochs=10_000)
    k = np.arange(1, res.mistakes + 1)
    assert np.all(res.history.progress >= k * gamma - REL * k * R)
    assert np.all(res.history.norms_sq <= k * (R**2 + 1) * (1 + REL))
    assert res.mistakes <= pc.novikoff_bound(np.sqrt(R**2 + 1), gamma) * (1 + REL)


@settings(max_examples=examples(60))
@given(planted_data(max_n=30, max_d=4))
def test_three_forms_of_the_bound_agree(data):
    X, y, u, gamma, R = data
    mm = pc.max_margin(X, y)
    # UML's B = min{‖w‖ : yᵢ w·xᵢ >= 1}, computed independently: a hard-margin SVC on the
    # mirrored data (x, y) and (−x, −y), whose optimal offset is 0. Its w, rescaled so that its
    # smallest functional margin is exactly 1, is feasible, so B <= B_svc; the SVC is accurate
    # to about 1e-6, so B >= B_svc (1 − 1e-5).
    svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(np.vstack([X, -X]), np.r_[y, -y])
    w_svc = svc.coef_[0]
    B_svc = np.linalg.norm(w_svc) / np.min(y * (X @ w_svc))
    assert mm.B <= B_svc * (1 + 1e-9)  # the package's w_B is no worse than the SVC's...
    assert mm.B >= B_svc * (1 - 1e-5)  # ...and not better than the optimum allows
    assert 1 / mm.gamma_high <= B_svc * (1 + 1e-12)  # B_svc >= B = 1/γ* >= 1/gamma_high
    # w_B is feasible for UML's problem (functional margins >= 1, up to rounding).
    assert np.min(y * (X @ mm.w_B)) >= 1 - 1e-9
    novikoff = pc.novikoff_bound(R, mm.gamma)
    assert np.isclose(pc.uml_bound(R, B_svc), novikoff, rtol=1e-4)
    assert np.isclose(pc.unnormalized_bound(R, w_svc, np.min(y * (X @ w_svc))), novikoff, rtol=1e-4)
    # Any rescaling c·u with its functional margin c·gamma gives (R/gamma)² back.
    c = 3.7
    eps = np.min(y * (X @ (c * u)))
    assert np.isclose(pc.unnormalized_bound(R, c * u, eps), pc.novikoff_bound(R, gamma), rtol=1e-9)


@given(planted_data(max_n=30, max_d=4))
def test_margin_perceptron_theorem(data):
    X, y, u, gamma, R = data
    res = pc.margin_perceptron(X, y, gamma, max_epochs=100_000)
    assert res.converged
    assert res.updates <= pc.margin_perceptron_bound(R, gamma) * (1 + REL)
    # When it stops, every point has normalized margin at least gamma/2.
    assert np.min(pc.margins(X, y, res.w)) >= gamma / 2 * (1 - REL)


@given(planted_data(max_n=30, max_d=4), st.floats(0.0, 0.4), st.integers(0, 1000), st.integers(1, 4))
def test_hinge_loss_bound_on_noisy_data(data, rate, seed, passes):
    X, y, u, gamma, R = data
    y_noisy = pc.flip_labels(y, rate, seed=seed)
    # T passes over S form one sequence of length T·n, whose TD_gamma is T times that of S.
    stream = itertools.chain.from_iterable(zip(X, y_noisy) for _ in range(passes))
    mistakes = max((step.mistakes for step in pc.online_perceptron(stream)), default=0)
    td = passes * pc.total_hinge_deviation(X, y_noisy, u, gamma)
    assert mistakes <= pc.hinge_loss_bound(R, gamma, td) * (1 + REL)


@given(small_labelled_data(), st.booleans())
def test_separability_evidence_checks_out(data, offset):
    X, y = data
    verdict = pc.separability(X, y, offset=offset)
    assert verdict.verify(X, y)
    if verdict.separable:
        assert verdict.certificate is None
    else:
        lam = verdict.certificate
        assert np.all(lam >= 0) and np.isclose(lam.sum(), 1.0)
        # Gordan: a certificate rules out every separator, so the perceptron cannot converge.
        with pytest.warns(pc.ConvergenceWarning):
            assert not pc.perceptron(X, y, offset=offset, max_epochs=50).converged


@given(small_labelled_data(), st.booleans())
def test_separable_verdict_agrees_with_max_margin(data, offset):
    X, y = data
    verdict = pc.separability(X, y, offset=offset)
    if offset and len(set(y.tolist())) < 2:
        return  # one class: separable, but the margin with an offset is unbounded
    if verdict.separable:
        mm = pc.max_margin(X, y, offset=offset)
        assert mm.gamma_low > 0
        assert pc.dataset_margin(X, y, verdict.w, verdict.b) <= mm.gamma_high * (1 + REL)
    else:
        with pytest.raises(ValueError, match="not linearly separable"):
            pc.max_margin(X, y, offset=offset)


@given(planted_data(max_n=25, max_d=4), st.booleans())
def test_max_margin_interval_is_certified_and_tight(data, offset):
    X, y, u, gamma, R = data
    mm = pc.max_margin(X, y, offset=offset)
    assert mm.gamma_low <= mm.gamma_high * (1 + 1e-12)  # equal at the optimum, up to rounding
    assert (mm.gamma_high - mm.gamma_low) / mm.gamma_high <= 1e-9
    assert mm.gamma_low >= gamma * (1 - REL)  # gamma* is at least the planted margin
    # The returned separator achieves the lower end.
    assert np.isclose(pc.dataset_margin(X, y, mm.w, mm.b), mm.gamma_low, rtol=1e-12)


@given(planted_data(max_n=25, max_d=4))
def test_min_norm_point_is_the_distance_to_the_hull(data):
    X, y, _, _, R = data
    Z = y[:, None] * X
    point, lam = pc.min_norm_point(Z)
    assert np.all(lam >= 0) and np.isclose(lam.sum(), 1.0)
    assert np.allclose(lam @ Z, point)
    # Independent reference: min ‖Zᵀλ‖ over the simplex as a non-negative least-squares problem,
    # with Σλ = 1 imposed by a heavily weighted extra row.
    M = 1e4 * R
    ref, _ = nnls(np.vstack([Z.T, M * np.ones(len(y))]), np.r_[np.zeros(Z.shape[1]), M], maxiter=10_000)
    ref_norm = np.linalg.norm((ref / ref.sum()) @ Z)
    assert np.isclose(np.linalg.norm(point), ref_norm, rtol=1e-6)
    # And the certified interval of max_margin contains that independent distance.
    mm = pc.max_margin(X, y)
    assert mm.gamma_low * (1 - 1e-6) <= ref_norm <= mm.gamma_high * (1 + 1e-6)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 50])
def test_orthonormal_worst_case_meets_the_bound(n):
    X, y = pc.orthonormal_worst_case(n, seed=n)
    res = pc.perceptron(X, y)
    mm = pc.max_margin(X, y)
    assert res.mistakes == n
    assert np.isclose(mm.gamma, 1 / np.sqrt(n), rtol=1e-12)
    assert round(pc.novikoff_bound(pc.radius(X), mm.gamma)) == n == res.mistakes


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 50])
@pytest.mark.parametrize("tie", ["mistake", "positive", "negative"])
def test_orthonormal_worst_case_mistakes_depend_on_the_tie_rule(n, tie):
    # Every score starts at 0 and stays 0 until that point's own update (the points are
    # orthogonal). A tie counted as a mistake costs every point one mistake; predicting +1 at a
    # tie costs only the negative points, predicting −1 only the positive ones.
    X, y = pc.orthonormal_worst_case(n, seed=n)
    res = pc.perceptron(X, y, tie=tie)
    expected = {"mistake": n, "positive": int(np.sum(y < 0)), "negative": int(np.sum(y > 0))}[tie]
    assert res.converged and res.mistakes == expected
    if 0 < np.sum(y > 0) < n:
        assert tie == "mistake" or res.mistakes < n  # only the "mistake" rule meets the bound n


@pytest.mark.parametrize("k", range(1, 9))
def test_narrow_wedge_runs_long_but_within_the_bound(k):
    X, y = pc.narrow_wedge(k)
    res = pc.perceptron(X, y, max_epochs=10**6)
    mm = pc.max_margin(X, y)
    assert res.converged
    assert res.mistakes <= pc.novikoff_bound(pc.radius(X), mm.gamma_high)
    assert res.mistakes >= 2 ** (k + 2)  # exponential in k, as the margin 2^-k predicts


@given(planted_data(max_n=15, max_d=4), st.sampled_from(["mistake", "positive", "negative"]),
       st.lists(st.integers(0, 10_000), min_size=1, max_size=300))
def test_mistake_bound_online_any_order_any_repetition(data, tie, picks):
    """per-thm-bound: any order, any repetitions, any tie rule, against the planted (u, γ)."""
    X, y, u, gamma, R = data
    assert np.all(y * (X @ u) >= gamma * (1 - 1e-9))  # the planted margin, independent of the LP
    order = [p % len(y) for p in picks]
    steps = list(online_perceptron(((X[i], y[i]) for i in order), tie=tie))
    assert steps[-1].mistakes <= (R / gamma) ** 2 * (1 + 1e-9)


@st.composite
def separable_by_u(draw):
    """Points with margin at least gamma from a random unit u, built here (not by the package)."""
    d = draw(st.integers(2, 5))
    n = draw(st.integers(2, 30))
    seed = draw(st.integers(0, 2**31 - 1))
    gamma = draw(st.floats(0.02, 0.5))
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    X = rng.uniform(-1, 1, size=(n, d))
    along = X @ u
    y = np.where(along >= 0, 1.0, -1.0)
    # Push every point out of the slab |u.x| < gamma along u; the margin is then >= gamma.
    X += np.outer(y * np.maximum(gamma - np.abs(along), 0.0), u)
    X[0] += (y[0] * gamma - X[0] @ u) * u  # one point exactly at the margin
    return X, y, u, gamma


@given(separable_by_u())
def test_cosine_stays_above_its_rising_lower_bound(case):
    X, y, u, _ = case
    gamma = float(np.min(y * (X @ u)))
    R = float(np.max(np.linalg.norm(X, axis=1)))
    weights = reference_perceptron(X, y).weights
    W = np.array(weights)
    k = np.arange(1, len(W) + 1)
    cosine = (W @ u) / np.linalg.norm(W, axis=1)
    lower = np.sqrt(k) * gamma / R
    assert np.all(cosine >= lower - 1e-9)
    assert np.all(np.diff(lower) > 0)
    assert len(W) <= (R / gamma) ** 2 + 1e-9
    # The package records the same quantities along the same run.
    res = perceptron(X, y, u=u, max_epochs=10**6)
    assert res.mistakes == len(W)
    assert np.allclose(res.history.progress, W @ u, atol=1e-9)
    assert np.allclose(res.history.norms_sq, np.sum(W * W, axis=1), atol=1e-9)
