"""The claims of the chapter "The margin perceptron" (book/margin_perceptron.ipynb): its data,
every frame of its figure, its table and its prose, recounted with a loop of the Margin
Perceptron written here (Balcan's rule, the runs' contract) and an SVC."""

from __future__ import annotations

import math

import numpy as np
import pytest

import perceptron_core as pc

X, Y, _ = pc.planted(500, 10, 0.05, 1.0, seed=0)
Z = Y[:, None] * X
OPT = pc.max_margin(X, Y)
R = float(np.max(np.linalg.norm(X, axis=1)))


def margin_run(gamma, tau, max_epochs=10**6):
    """Balcan's Margin Perceptron by hand: w₁ = y₁x₁, update when y w·x < τγ‖w‖, until an
    epoch without an update. Returns the final w, the updates and how many were at y w·x ≤ 0."""
    w, updates, true = Z[0].copy(), 0, 0
    for _ in range(max_epochs):
        clean = True
        for z in Z:
            s = z @ w
            if s < tau * gamma * math.sqrt(w @ w):
                w, updates, true, clean = w + z, updates + 1, true + (s <= 0), False
        if clean:
            return w, updates, true
    raise AssertionError("no convergence")


def margin(w):
    return float(np.min(Z @ w) / np.linalg.norm(w))


def test_the_data_and_their_certified_margin():
    assert np.all(np.linalg.norm(X, axis=1) <= 1 + 1e-12)
    assert OPT.gamma_low <= OPT.gamma <= OPT.gamma_high and OPT.gamma_high - OPT.gamma_low < 1e-6
    svm = __import__("sklearn.svm", fromlist=["SVC"]).SVC(kernel="linear", C=1e10, tol=1e-10)
    w = svm.fit(np.vstack([X, -X]), np.r_[Y, -Y]).coef_[0]
    assert margin(w) == pytest.approx(OPT.gamma, rel=1e-4)


@pytest.mark.parametrize("fraction", [0.2, 0.6, 1.0])
def test_every_frame_is_a_correct_run(fraction):
    """Each run of the figure: within its bound (by far), margin ≥ τγ and ≤ γ*; the package's
    run makes the same updates as the loop here."""
    gamma = fraction * OPT.gamma_low
    over = []
    for tau in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95):
        w, updates, true = margin_run(gamma, tau)
        bound = pc.margin_perceptron_bound(R, gamma, tau)
        assert bound == pytest.approx(2 * (R / gamma) ** 2 / (1 - tau) ** 2 + 2 * (R / gamma) / (1 - tau))
        run = pc.margin_perceptron(X, Y, gamma, target=tau, max_epochs=int(bound) + 2)
        assert run.converged and run.updates == updates and updates < 0.1 * bound
        assert tau * gamma <= margin(w) <= OPT.gamma_high * (1 + 1e-9)
        over.append((margin(w) / gamma, true / updates))
    if fraction == 0.2:  # a small γ: some runs land above γ itself, some below; mostly true mistakes
        assert min(v for v, _ in over) < 1 < max(v for v, _ in over)


def test_the_table_and_the_first_run():
    """With γ = γ*: both kinds of update in Balcan's run; at τ = ½, 0.8, 0.95 the margin just
    above the floor (within 10 %), the updates growing slower than the bound."""
    gamma = OPT.gamma_low
    _, updates, true = margin_run(gamma, 0.5)
    assert 0 < true < updates
    rows = [(margin_run(gamma, t)[:2], pc.margin_perceptron_bound(R, gamma, t), t) for t in (0.5, 0.8, 0.95)]
    for (w, u), bound, t in rows:
        assert t * gamma <= margin(w) <= 1.1 * t * gamma and u < bound / 10
    assert rows[2][0][1] / rows[0][0][1] < rows[2][1] / rows[0][1]


def test_the_plain_perceptron_from_w1_misses_the_floor():
    """mp-ex-strict: updating only at y w·x ≤ 0 stops below γ*/2."""
    w, clean = Z[0].copy(), False
    while not clean:
        clean = True
        for z in Z:
            if z @ w <= 0:
                w, clean = w + z, False
    assert margin(w) < OPT.gamma_low / 2


def test_a_run_above_gamma_star_can_finish_within_a_factor_tau():
    """The remark: with τ = 0.9 a γ above γ* (but at most γ*/τ) can still converge."""
    w, _, _ = margin_run(OPT.gamma / 0.9 * 0.99, 0.9)
    assert margin(w) >= 0.9 * OPT.gamma / 0.9 * 0.99 * (1 - 1e-12)
