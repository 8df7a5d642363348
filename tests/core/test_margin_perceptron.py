"""The theorems of the chapter "The margin perceptron", checked on many random runs.

Each test computes what it checks with NumPy (or plain Python) from the run's returned weights,
never with the package's own margin functions, and the bound is checked against the formula
written out here. Data: planted data sets with a unit vector u of known margin; the run is given
γ = (a fraction of) that margin, so the theorems' hypotheses hold, and any target τ ∈ (0, 1).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.svm import SVC

import perceptron_core as pc

from conftest import examples

REL = 1e-9  # slack for rounding in the bound's own arithmetic and in float margins


@st.composite
def runs(draw, max_n: int = 40, max_d: int = 6, max_target: float = 0.97):
    """Planted data, γ ≤ its margin, a target τ, and the run of the margin perceptron."""
    n = draw(st.integers(2, max_n))
    d = draw(st.integers(1, max_d))
    R = draw(st.floats(0.5, 5.0))
    ratio = draw(st.floats(0.05, 1.0))
    seed = draw(st.integers(0, 2**31 - 1))
    fraction = draw(st.floats(0.05, 1.0))
    target = draw(st.floats(0.01, max_target))
    X, y, u = pc.planted(n, d, ratio * R, R, seed=seed)
    # The margin of u computed here, shaved by a hair so that rounding cannot put γ above it.
    margin_u = float(np.min(y * (X @ u)))
    gamma = fraction * margin_u * (1 - 1e-12)
    radius = float(np.max(np.linalg.norm(X, axis=1)))
    return X, y, u, gamma, radius, target


def _formula(R: float, gamma: float, target: float) -> float:
    """The bound of the chapter's theorem, written out: 2(R/γ)²/ε² + 2(R/γ)/ε."""
    rho, eps = R / gamma, 1.0 - target
    return 2 * rho**2 / eps**2 + 2 * rho / eps


def _run(X, y, gamma, target, **kw):
    cap = int(_formula(float(np.max(np.linalg.norm(X, axis=1))), gamma, target)) + 2
    return pc.margin_perceptron(X, y, gamma, target=target, max_epochs=cap, **kw)


def _reference(X, y, gamma, target, max_updates):
    """Margin Perceptron(γ, τ) in plain Python: w₁ = y₁x₁, update while y w·x/‖w‖ < τγ."""
    Z = [[float(label) * float(v) for v in row] for row, label in zip(X, y)]
    w = list(Z[0])
    updates = 0
    while True:
        clean = True
        for z in Z:
            norm = math.sqrt(sum(a * a for a in w))
            if sum(a * b for a, b in zip(w, z)) < target * gamma * norm:
                w = [a + b for a, b in zip(w, z)]
                updates += 1
                clean = False
                if updates > max_updates:
                    return w, updates
        if clean:
            return w, updates


# ---------------------------------------------------------------------------------------------
# The stopping test decided exactly: data with points within a few ulps of the aim
# ---------------------------------------------------------------------------------------------


def _truly_short(z, w, aim: Fraction) -> bool:
    """z·w/‖w‖ < aim in rational arithmetic (aim > 0): as ‖w‖ = √(w·w) > 0, this holds
    exactly when z·w < 0, or z·w ≥ 0 and (z·w)² < aim²(w·w). With w = 0: every point."""
    if not any(w):
        return True
    s = sum((Fraction(float(a)) * Fraction(float(b)) for a, b in zip(z, w)), Fraction(0))
    q = sum((Fraction(float(b)) ** 2 for b in w), Fraction(0))
    return s < 0 or s * s < aim * aim * q


def _reference_exact(X, y, gamma, target, max_epochs):
    """Margin Perceptron(γ, τ) in plain Python, each test decided in fractions, the weights
    added in floats as the package adds them: (w, update indices, converged)."""
    aim = Fraction(target) * Fraction(gamma)
    Z = [[float(label) * float(v) for v in row] for row, label in zip(X, y)]
    w, updates = list(Z[0]), []
    for _ in range(max_epochs):
        clean = True
        for i, z in enumerate(Z):
            if _truly_short(z, w, aim):
                w = [a + b for a, b in zip(w, z)]
                updates.append(i)
                clean = False
        if clean:
            return w, updates, True
    return w, updates, False


def _near_tie_data(seed: int, n: int = 6, d: int = 3):
    """w₁ = x₁ and n − 1 points whose margin on x₁ is τγ‖x₁‖ give or take 3 ulps (with random
    signs): the float test y w·x < τγ‖w‖ and the exact one disagree on some of them."""
    rng = np.random.default_rng(seed)
    w = rng.uniform(0.5, 2.0, d)
    target, gamma = float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.5))
    norm = math.sqrt(sum(v * v for v in w))
    X = [w.copy()]
    for _ in range(n - 1):
        z = rng.uniform(-1.0, 1.0, d)
        z[0] = (target * gamma * norm - float(z[1:] @ w[1:])) / w[0]
        z[0] += int(rng.integers(-3, 4)) * np.spacing(z[0])
        X.append(z)
    signs = rng.choice([-1.0, 1.0], n)
    signs[0] = 1.0
    return np.array(X) * signs[:, None], signs, gamma, target


def test_a_converged_run_truly_meets_the_aim_on_near_ties():
    """A run reported converged has every normalized margin ≥ τγ in exact arithmetic, on data
    built to sit within a few ulps of the aim; and the run is the exact reference's run."""
    wrong, differ, converged = [], [], 0
    for seed in range(300):
        X, y, gamma, target = _near_tie_data(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pc.ConvergenceWarning)
            res = pc.margin_perceptron(X, y, gamma, target=target, max_epochs=20, record=True)
        aim = Fraction(target) * Fraction(gamma)
        if res.converged:
            converged += 1
            if any(_truly_short(yi * xi, res.w, aim) for xi, yi in zip(X, y)):
                wrong.append(seed)
        w_ref, updates_ref, converged_ref = _reference_exact(X, y, gamma, target, 20)
        if (res.update_indices.tolist(), res.converged, res.w.tolist()) != (updates_ref, converged_ref, w_ref):
            differ.append(seed)
    assert converged > 80  # the check has teeth: many runs converge
    assert wrong == [], f"{len(wrong)} of {converged} converged runs miss the aim"
    assert differ == []


@pytest.mark.parametrize("power", [-700, -300, 300])
def test_the_run_is_the_same_at_any_power_of_two_scale(power):
    """Scaling X by 2ᵏ scales every score and ‖w‖ by 2ᵏ exactly, so the run must be the same,
    update for update, with w scaled by 2ᵏ; also where w·w would underflow or overflow."""
    for seed in range(20):
        X, y, gamma, target = _near_tie_data(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pc.ConvergenceWarning)
            plain = pc.margin_perceptron(X, y, gamma, target=target, max_epochs=50, record=True)
            scaled = pc.margin_perceptron(np.ldexp(X, power), y, math.ldexp(gamma, power),
                                          target=target, max_epochs=50, record=True)
        assert scaled.update_indices.tolist() == plain.update_indices.tolist()
        assert scaled.converged == plain.converged
        assert np.array_equal(scaled.w, np.ldexp(plain.w, power))


@pytest.mark.parametrize("power", [-700, -540, 540, 700])
def test_the_exact_test_holds_where_w_dot_w_underflows_or_overflows(power):
    """The margin test of a w whose w·w is not a normal float (or is near the edge): each
    row's flag, up to the first flagged row, is the exact answer."""
    from perceptron_core.algorithms import _ShortOfAim

    for seed in range(20):
        X, y, gamma, target = _near_tie_data(seed, n=40)
        Z = y[:, None] * X
        aim = Fraction(target) * Fraction(gamma)
        test = _ShortOfAim(Z, target, gamma)
        for w in (Z[0], Z[0] + Z[1], Z[2] - 0.5 * Z[0]):
            w = np.ldexp(w, power)
            with np.errstate(over="ignore"):  # as in margin_perceptron
                flags = test(0, len(Z), w)
            first = int(np.argmax(flags)) if flags.any() else len(Z)
            truth = [_truly_short(z, w, aim) for z in Z[: first + 1]]
            assert truth[:first] == [False] * first and (first == len(Z) or truth[first])


@given(runs())
def test_updates_within_the_bound_for_any_target(case):
    """mp-thm-target (and mp-thm-balcan at τ = ½): updates ≤ 2(R/γ)²/ε² + 2(R/γ)/ε."""
    X, y, u, gamma, R, target = case
    res = _run(X, y, gamma, target)
    assert res.converged
    bound = pc.margin_perceptron_bound(R, gamma, target)
    assert bound == pytest.approx(_formula(R, gamma, target), rel=1e-12)
    assert res.updates <= bound * (1 + REL)


@given(runs())
def test_the_tighter_bound_of_the_exercise(case):
    """mp-ex-init: counting the initialization, M < bound − (4/ε − 1)."""
    X, y, u, gamma, R, target = case
    res = _run(X, y, gamma, target)
    eps = 1 - target
    assert res.updates <= _formula(R, gamma, target) - (4 / eps - 1) + REL * _formula(R, gamma, target)


@given(runs())
def test_a_finished_run_has_every_normalized_margin_at_least_target_gamma(case):
    """mp-thm-reach: when it stops, minᵢ yᵢ w·xᵢ/‖w‖ ≥ τγ, checked in exact arithmetic (no
    tolerance); and it stops within ⌊B⌋ + 1 sweeps."""
    X, y, u, gamma, R, target = case
    res = _run(X, y, gamma, target)
    assert res.converged and res.target == target
    aim = Fraction(target) * Fraction(gamma)
    assert not any(_truly_short(label * x, res.w, aim) for x, label in zip(X, y))
    assert res.epochs <= math.floor(_formula(R, gamma, target) * (1 + REL)) + 1


@settings(max_examples=examples(100))
@given(runs(max_n=25, max_d=4))
def test_the_run_is_the_algorithm_of_the_chapter(case):
    """The package's run equals a plain-Python Margin Perceptron(γ, τ): same updates, same w."""
    X, y, u, gamma, R, target = case
    res = _run(X, y, gamma, target)
    w_ref, updates_ref = _reference(X, y, gamma, target, max_updates=10**6)
    assert res.updates == updates_ref
    np.testing.assert_allclose(res.w, w_ref, rtol=1e-9, atol=1e-9 * R)


@given(runs(max_n=30, max_d=5))
def test_lemmas_at_every_update(case):
    """mp-lem-progress and mp-lem-growth, on the recorded weights of the run."""
    X, y, u, gamma, R, target = case
    res = _run(X, y, gamma, target, record=True)
    W = np.asarray(res.weights)  # row t-1 is w_t, row 0 the initialization
    t = np.arange(1, W.shape[0] + 1)
    assert np.all(W @ u >= t * gamma - REL * t * R)  # progress: w_t·u ≥ tγ
    if res.updates == 0:
        return
    Z = y[:, None] * X
    before, after = W[:-1], W[1:]
    norms = np.linalg.norm(before, axis=1)
    # Every update was a margin mistake: y w_t·x / ‖w_t‖ < τγ.
    scores = np.sum(before * Z[res.update_indices], axis=1) / norms
    assert np.all(scores < target * gamma + REL * R)
    # Growth: ‖w_{t+1}‖ ≤ ‖w_t‖ + τγ + R²/(2‖w_t‖), and ≤ ‖w_t‖ + R.
    grown = np.linalg.norm(after, axis=1)
    assert np.all(grown <= (norms + target * gamma + R**2 / (2 * norms)) * (1 + REL))
    assert np.all(grown <= (norms + R) * (1 + REL))


def _lemma_envelope(R: float, gamma: float, target: float, steps: int) -> list[float]:
    """N_1, …, N_steps: the largest ‖w_t‖ that mp-lem-progress and mp-lem-growth allow after
    t updates (w₁ = y₁x₁ counts as the first), by brute force over the step.

    ‖w₁‖ ≤ R. If ‖w_t‖ = n, progress gives n ≥ w_t·u ≥ tγ, and a margin mistake gives
    ‖w_{t+1}‖ ≤ g(n) = min(n + R, n + τγ + R²/(2n)) (the triangle inequality, and growth, which
    rests on √(1 + α) ≤ 1 + α/2). So N_{t+1} = max of g over [tγ, N_t]: g is n + R up to
    n* = R²/(2(R − τγ)) and convex after it, so the maximum is at tγ, N_t or n*.
    """
    a = target * gamma
    cross = R * R / (2 * (R - a)) if R > a else math.inf
    out = [R]
    for t in range(1, steps):
        lo, hi = t * gamma, out[-1]
        if lo > hi * (1 + 1e-12):
            break  # no run reaches t updates
        candidates = [lo, hi] + ([cross] if lo <= cross <= hi else [])
        out.append(max(min(n + R, n + a + R * R / (2 * n)) for n in candidates))
    return out


@given(runs())
def test_runs_make_no_more_updates_than_the_lemmas_allow(case):
    """The worst case that mp-lem-progress and mp-lem-growth leave open, computed by brute
    force: a run with t updates has tγ ≤ ‖w_t‖ ≤ N_t at every t. This is about three times
    sharper than the theorem's bound, so it catches a run that updates too often."""
    X, y, u, gamma, R, target = case
    res = _run(X, y, gamma, target)
    envelope = _lemma_envelope(R, gamma, target, res.updates + 1)
    assert len(envelope) == res.updates + 1
    for t, N in enumerate(envelope, start=1):
        assert t * gamma <= N * (1 + 1e-9)


@pytest.mark.parametrize("R, gamma, target", [(1.0, 0.1, 0.5), (1.0, 0.1, 0.9), (1.0, 0.3, 0.1),
                                               (2.0, 0.05, 0.5), (1.0, 0.02, 0.75), (5.0, 1.0, 0.2)])
def test_the_bound_covers_every_run_the_lemmas_allow(R, gamma, target):
    """margin_perceptron_bound against the brute force: the lemmas leave no run with more
    updates than the bound (the first t with tγ > N_t, less the initialization)."""
    steps = 10**6
    most = len(_lemma_envelope(R, gamma, target, steps)) - 1  # updates after w₁
    assert most < steps - 1
    assert pc.margin_perceptron_bound(R, gamma, target) >= most


@given(runs(), st.floats(0.05, 1.95))
def test_other_thresholds_give_the_remarks_bound(case, share):
    """The remark after mp-thm-target: with T = R²/(δγ), 0 < δ < 2ε, the same steps give
    M < (R²/(δγ²) + R/γ)/(ε − δ/2), whether or not the run starts below the threshold."""
    X, y, u, gamma, R, target = case
    eps = 1 - target
    delta = share * eps
    res = _run(X, y, gamma, target)
    bound = (R**2 / (delta * gamma**2) + R / gamma) / (eps - delta / 2)
    assert res.updates <= bound * (1 + REL)
    # δ = ε is the best such threshold for the leading term, as the remark says.
    assert 1 / (delta * (eps - delta / 2)) >= 2 / eps**2 * (1 - 1e-12)


@given(st.floats(1e-3, 1e3), st.floats(1e-3, 1e3))
def test_balcans_constants_at_target_one_half(R, gamma):
    rho = R / gamma
    assert pc.margin_perceptron_bound(R, gamma, 0.5) == pytest.approx(8 * rho**2 + 4 * rho, rel=1e-12)
    assert pc.margin_perceptron_bound(R, gamma) == pc.margin_perceptron_bound(R, gamma, 0.5)


@given(st.floats(0.01, 0.99), st.floats(0.01, 0.99))
def test_the_bound_grows_with_the_target(t1, t2):
    lo, hi = sorted((t1, t2))
    assert pc.margin_perceptron_bound(1.0, 0.1, lo) <= pc.margin_perceptron_bound(1.0, 0.1, hi)


def _svc_margin(X, y):
    """Normalized margin of a hard-margin SVC through the origin (fit on the mirrored data)."""
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(np.vstack([X, -X]), np.r_[y, -y])
    w = svm.coef_[0]
    return float(np.min(y * (X @ w)) / np.linalg.norm(w))


@settings(max_examples=examples(40))
@given(runs(max_n=30, max_d=4))
def test_margin_reached_against_gamma_star_and_svc(case):
    """τγ ≤ margin reached ≤ γ* ≤ SVC margin + tol, with γ* from max_margin."""
    X, y, u, gamma, R, target = case
    res = _run(X, y, gamma, target)
    w = np.asarray(res.w)
    reached = np.min(y * (X @ w)) / np.linalg.norm(w)
    mm = pc.max_margin(X, y)
    svc = _svc_margin(X, y)
    tol = 1e-6 * R
    assert target * gamma - REL * R <= reached <= mm.gamma_high + tol
    assert mm.gamma_low <= svc + tol and svc <= mm.gamma_high + tol


def test_failed_run_certifies_gamma_above_gamma_star():
    """mp-ex-search: a run with γ > γ* can exceed the bound, which proves γ > γ*. Here γ is
    three times the margin of a hard-margin SVC (scikit-learn) and τ = 0.9, so τγ > γ*: no w
    has every normalized margin ≥ τγ, and a correct run can never stop; it keeps updating past
    the bound, written out here."""
    X, y, _ = pc.planted(60, 3, 0.1, 1.0, seed=3)
    gstar = _svc_margin(X, y)
    g = 3 * gstar
    B = _formula(max(math.sqrt(sum(v * v for v in row)) for row in X.tolist()), g, 0.9)
    with pytest.warns(pc.ConvergenceWarning):
        res = pc.margin_perceptron(X, y, g, target=0.9, max_epochs=2 * int(B) + 1)
    assert not res.converged and res.epochs == 2 * int(B) + 1
    assert res.updates >= res.epochs > B  # every sweep of a run that never stops updates


@pytest.mark.parametrize("target", [0.0, 1.0, -0.5, 1.5, float("nan"), float("inf")])
def test_bad_target_is_refused(target):
    X, y, _ = pc.planted(10, 2, 0.2, 1.0, seed=0)
    with pytest.raises(ValueError, match="target"):
        pc.margin_perceptron(X, y, 0.1, target=target)
    with pytest.raises(ValueError, match="target"):
        pc.margin_perceptron_bound(1.0, 0.1, target)


def test_target_that_is_not_a_number_is_refused():
    X, y, _ = pc.planted(10, 2, 0.2, 1.0, seed=0)
    with pytest.raises((TypeError, ValueError), match="target"):
        pc.margin_perceptron(X, y, 0.1, target="0.5")


def test_any_memory_layout_of_X_runs_the_same():
    """The compiled loop takes rows in C order; X in Fortran order (as iris_pair returns it, or a
    transpose) or as a strided view runs, with the same result as a C-ordered copy."""
    from perceptron_core.data import iris_pair

    X, y = iris_pair("setosa", "versicolor", (2, 3))
    expected = pc.margin_perceptron(np.ascontiguousarray(X), y, 0.1, record=True)
    for layout in (np.asfortranarray(X), np.ascontiguousarray(X.T).T, np.repeat(X, 2, axis=0)[::2]):
        got = pc.margin_perceptron(layout, y, 0.1, record=True)
        assert got.updates == expected.updates and np.array_equal(got.w, expected.w)
