"""The smaller facts the chapters prove, each checked on random cases."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import perceptron_core as pc
from perceptron_core import planted

from conftest import planted_data, small_labelled_data
from conftest import examples

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


def vectors(d):
    return arrays(np.float64, d, elements=finite)


@given(st.integers(1, 6).flatmap(lambda d: st.tuples(vectors(d), vectors(d))), st.sampled_from([-1.0, 1.0]))
def test_update_moves_the_score_by_the_squared_norm(wx, y):
    # The perceptron chapter's lemma: y (w + y x)·x = y w·x + ‖x‖².
    w, x = wx
    assert np.isclose(y * (w + y * x) @ x, y * (w @ x) + x @ x, rtol=1e-12, atol=1e-9)


@given(planted_data(), st.floats(0.01, 100.0), st.floats(-1.0, 1.0))
def test_geometric_margin_is_scale_invariant(data, c, b):
    X, y, u, _, _ = data
    m = pc.margins(X, y, u, b)
    assert np.allclose(pc.margins(X, y, c * u, c * b), m, rtol=1e-9, atol=1e-12)
    assert np.allclose(pc.margins(X, y, -c * u, -c * b), -m, rtol=1e-9, atol=1e-12)


@given(planted_data(max_n=25, max_d=4), st.floats(0.01, 100.0))
def test_scaling_the_data_scales_R_and_gamma_star_alike(data, c):
    X, y, _, _, R = data
    mm, mm_c = pc.max_margin(X, y), pc.max_margin(c * X, y)
    assert np.isclose(pc.radius(c * X), c * R, rtol=1e-12)
    assert np.isclose(mm_c.gamma, c * mm.gamma, rtol=1e-9)
    assert np.isclose(pc.novikoff_bound(c * R, mm_c.gamma), pc.novikoff_bound(R, mm.gamma), rtol=1e-8)
    # ...and the perceptron's run is the same run, scaled.
    run, run_c = pc.perceptron(X, y), pc.perceptron(c * X, y)
    assert run.mistakes == run_c.mistakes and np.allclose(run_c.w, c * run.w, rtol=1e-9, atol=1e-12)


@given(planted_data(max_n=25, max_d=4), st.integers(0, 10**6))
def test_weak_duality_any_unit_w_below_any_hull_point(data, seed):
    # The margin chapter's lemma: min_i y_i w·x_i <= ‖Σ λ_i y_i x_i‖ for unit w and convex λ.
    X, y, _, _, _ = data
    rng = np.random.default_rng(seed)
    Z = y[:, None] * X
    w = rng.standard_normal(X.shape[1])
    w /= np.linalg.norm(w)
    lam = rng.dirichlet(np.ones(len(y)))
    assert np.min(Z @ w) <= np.linalg.norm(lam @ Z) + 1e-12


@given(small_labelled_data(), st.integers(0, 10**6))
def test_gordan_witness_and_certificate_exclude_each_other(data, seed):
    # If w separates, no convex combination of the y_i x_i can vanish: (Σ λ_i z_i)·w > 0.
    X, y = data
    verdict = pc.separability(X, y)
    Z = y[:, None] * X
    lam = np.random.default_rng(seed).dirichlet(np.ones(len(y)))
    if verdict.separable:
        assert (lam @ Z) @ verdict.w > 0
    else:
        # The certificate rules out every candidate w at once: Σ λ_i z_i·w = 0 for all w, so
        # some z_i·w <= 0. Check it on a random w.
        w = np.random.default_rng(seed).standard_normal(X.shape[1])
        assert np.isclose(verdict.certificate @ (Z @ w), 0, atol=1e-9)
        assert np.min(Z @ w) <= 1e-9


@given(small_labelled_data(), st.floats(0.25, 4.0), st.integers(1, 8))
def test_offset_trick_is_the_perceptron_on_augmented_points(data, c, T):
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        with_offset = pc.perceptron(X, y, offset=True, max_epochs=T)
        augmented = pc.perceptron(pc.augment(X, 1.0), y, max_epochs=T)
    assert np.array_equal(augmented.w, np.r_[with_offset.w, with_offset.b])
    # Separability with an offset is separability through the origin one dimension up, for any c.
    assert pc.separability(pc.augment(X, c), y).separable == pc.separability(X, y, offset=True).separable


@given(st.integers(2, 25), st.integers(1, 4), st.floats(0.2, 1.0), st.floats(0.0, 1.0),
       st.floats(0.5, 3.0), st.integers(0, 2**31 - 1))
def test_offset_trick_with_a_nonzero_offset(n, d, gamma, b_frac, t, seed):
    # Data separable by (u, b0) with b0 >= gamma > 0, and NOT through the origin: they contain
    # two positive points p and -p (or the origin itself when d = 1), which no hyperplane
    # through 0 puts strictly on one side.
    X0, y0, u = pc.planted(n, d, gamma, 1.0, seed=seed)
    b0 = gamma + b_frac * (1.5 - gamma)
    X = X0 - b0 * u  # u·x' + b0 = u·x, so y (u·x' + b0) = y u·x >= gamma
    if d == 1:
        extra = np.zeros((1, 1))
    else:
        v = np.random.default_rng([seed, 1]).standard_normal(d)  # not planted's own u
        for _ in range(2):  # twice: once leaves ~1e-16/‖v‖ along u when v starts near ±u
            v -= (v @ u) * u
        v *= t / np.linalg.norm(v)
        extra = np.vstack([v, -v])  # u·(±v) + b0 = b0 >= gamma
    X, y = np.vstack([X, extra]), np.r_[y0, np.ones(len(extra))]
    # Independent check of both facts the test relies on.
    assert np.min(y * (X @ u + b0)) >= gamma * (1 - 1e-12)
    assert np.any(np.all(extra == 0, axis=1)) or np.allclose(extra[0], -extra[1])

    u_aug = np.r_[u, b0]
    with_offset = pc.perceptron(X, y, offset=True, u=u_aug, max_epochs=10_000)
    augmented = pc.perceptron(pc.augment(X, 1.0), y, u=u_aug, max_epochs=10_000)
    # The perceptron with an offset IS the perceptron through the origin on the points (x, 1).
    assert with_offset.mistakes == augmented.mistakes and with_offset.epochs == augmented.epochs
    assert np.array_equal(augmented.w, np.r_[with_offset.w, with_offset.b])
    assert np.array_equal(with_offset.history.indices, augmented.history.indices)
    assert np.array_equal(with_offset.history.progress, augmented.history.progress)
    assert with_offset.converged and with_offset.b != 0
    # The bound that holds is the one on the augmented points: (x, 1) has norm at most
    # sqrt(R'² + 1), and the unit vector (u, b0)/‖(u, b0)‖ has margin gamma/‖(u, b0)‖ on them.
    R_aug = np.sqrt(np.max(np.sum(X**2, axis=1)) + 1)
    gamma_aug = gamma / np.linalg.norm(u_aug)
    k = np.arange(1, with_offset.mistakes + 1)
    h = with_offset.history
    assert np.all(h.progress * np.linalg.norm(u_aug) >= k * gamma * (1 - 1e-9))
    assert np.all(h.norms_sq <= k * R_aug**2 * (1 + 1e-9))
    assert with_offset.mistakes <= (R_aug / gamma_aug) ** 2 * (1 + 1e-9)
    # Through the origin the same data cannot be separated: the run never converges.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        assert not pc.perceptron(X, y, max_epochs=20).converged


def test_update_lemma_random():
    rng = np.random.default_rng(1)
    for _ in range(100):
        w, x = rng.normal(size=5), rng.normal(size=5)
        yv = rng.choice([-1.0, 1.0])
        assert np.isclose(yv * (w + yv * x) @ x, yv * w @ x + x @ x)
        b = rng.normal()
        assert np.isclose(yv * ((w + yv * x) @ x + b + yv), yv * (w @ x + b) + x @ x + 1)


@settings(max_examples=examples(100))
@given(n=st.integers(2, 20), d=st.integers(2, 4), ratio=st.floats(0.05, 0.9),
       seed=st.integers(0, 2**31 - 1), wb=st.lists(st.floats(-3, 3), min_size=5, max_size=5))
def test_mirroring_costs_exactly_the_offset(n, d, ratio, seed, wb):
    # Proposition mgn-prop-mirror on random data and a random (w, b), computed directly.
    X, y, _ = planted(n, d, ratio, 1.0, seed=seed)
    w, b = np.array(wb[:d]), wb[4]
    if np.linalg.norm(w) < 1e-3:
        return
    X2, y2 = np.vstack([X, -X]), np.r_[y, -y]
    mirrored = np.min(y2 * (X2 @ w + b)) / np.linalg.norm(w)
    assert mirrored == pytest.approx(np.min(y * (X @ w)) / np.linalg.norm(w)
                                     - abs(b) / np.linalg.norm(w), abs=1e-9)
