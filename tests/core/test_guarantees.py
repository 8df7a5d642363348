"""The theorems of the chapter "From mistakes to guarantees", checked on many random cases.

* the adversary forces exactly k mistakes on every deterministic learner, with labels
  consistent with u = Σ yᵢeᵢ/√k at margin R/√k (checked with plain numpy, and the learners'
  predictions replayed by independent reference implementations);
* the exact error of the planted band distribution against Monte Carlo with an independent
  sampler;
* Balcan's conversion: the failure rate stays ≤ δ (one-sided binomial bound, so a fixed seed
  cannot flake), its vectorized simulation and the one-stream conversion both equal a
  step-by-step reference written here (plain floats, the run contract's sums) run by run, and a
  sample of M windows can run out where M + 1 windows cannot;
* the LP route returns a halfspace consistent with the sample, checked in exact arithmetic.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

import perceptron_core as pc
from perceptron_core import guarantees as g
from perceptron_core.geometry import separator_arc

from conftest import examples

TIES = ("mistake", "positive", "negative")


# --- independent reference learners (plain Python, not the package) -------------------------


def _ref_perceptron_predictions(X: np.ndarray, y: np.ndarray, tie: str) -> list[int]:
    w = np.zeros(X.shape[1])
    out = []
    for x, label in zip(X, y):
        s = float(w @ x)
        p = 1 if s > 0 else -1 if s < 0 else {"mistake": 0, "positive": 1, "negative": -1}[tie]
        out.append(p)
        if p != label:
            w = w + label * x
    return out


def _ref_nn_predictions(X: np.ndarray, y: np.ndarray) -> list[int]:
    out = []
    for i, x in enumerate(X):
        if i == 0:
            out.append(1)
        else:
            d = [float(np.sum((X[j] - x) ** 2)) for j in range(i)]
            out.append(int(y[d.index(min(d))]))
    return out


def _ref_halving_predictions(X: np.ndarray, y: np.ndarray, d: int) -> list[int]:
    import itertools

    alive = [np.array(s) for s in itertools.product((-1.0, 1.0), repeat=d)]
    out = []
    for x, label in zip(X, y):
        votes = [1 if float(h @ x) > 0 else -1 for h in alive]
        out.append(1 if votes.count(1) >= votes.count(-1) else -1)
        alive = [h for h, v in zip(alive, votes) if v == label]
    return out


def _check_game(game: g.AdversaryGame, k: int, d: int, R: float) -> None:
    """The statement of the theorem, checked with numpy only."""
    X, y = game.X, game.y
    assert X.shape == (k, d)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), R, rtol=1e-12)
    np.testing.assert_allclose(X[:, :k], R * np.eye(k), rtol=0, atol=0)
    assert set(np.unique(y)) <= {-1.0, 1.0}
    # Every round was a mistake: the label is never the prediction.
    assert np.all(game.predictions != y)
    assert game.mistakes == k
    # u = Σ yᵢ eᵢ/√k, unit, with margin exactly R/√k on every point.
    u = np.zeros(d)
    u[:k] = y / math.sqrt(k)
    np.testing.assert_allclose(game.u, u, rtol=1e-15, atol=0)
    assert np.linalg.norm(u) == pytest.approx(1.0, rel=1e-12)
    np.testing.assert_allclose(y * (X @ u), R / math.sqrt(k), rtol=1e-12)
    assert game.margin == pytest.approx(R / math.sqrt(k), rel=1e-12)
    # So the data have (R/γ)² = k exactly: the perceptron's bound is met.
    assert (R / game.margin) ** 2 == pytest.approx(k, rel=1e-12)


# --- the adversary ------------------------------------------------------------------------------


@given(k=st.integers(1, 14), extra=st.integers(0, 4), R=st.floats(0.01, 100.0), tie=st.sampled_from(TIES))
def test_adversary_forces_k_mistakes_on_the_perceptron_under_each_tie_rule(k, extra, R, tie):
    game = g.adversary_game(g.PerceptronLearner(tie), k, d=k + extra, R=R)
    _check_game(game, k, k + extra, R)
    assert _ref_perceptron_predictions(game.X, game.y, tie) == game.predictions.tolist()
    # ... and the package's batch perceptron on the same data makes exactly k mistakes too.
    assert pc.perceptron(game.X, game.y, tie=tie).mistakes == k


@given(k=st.integers(1, 14), extra=st.integers(0, 4), R=st.floats(0.01, 100.0))
def test_adversary_forces_k_mistakes_on_nearest_neighbour(k, extra, R):
    game = g.adversary_game(g.NearestNeighbourLearner(), k, d=k + extra, R=R)
    _check_game(game, k, k + extra, R)
    assert _ref_nn_predictions(game.X, game.y) == game.predictions.tolist()


@settings(max_examples=examples(60))
@given(k=st.integers(1, 9), extra=st.integers(0, 2), R=st.floats(0.01, 100.0))
def test_adversary_forces_k_mistakes_on_halving(k, extra, R):
    d = k + extra
    learner = g.HalvingLearner(g.sign_vectors(d))
    game = g.adversary_game(learner, k, d=d, R=R)
    _check_game(game, k, d, R)
    assert _ref_halving_predictions(game.X, game.y, d) == game.predictions.tolist()
    # Each forced mistake halved the version space exactly: 2^d → 2^(d−k).
    assert learner.consistent == 2 ** (d - k)


class _TableLearner:
    """An arbitrary deterministic learner: its prediction is a fixed function of the round and
    of the labels seen so far."""

    def __init__(self, table: list[int]) -> None:
        self.table, self.labels = table, []

    def predict(self, x):
        key = (len(self.labels) * 7 + 3 * int(sum(self.labels))) % len(self.table)
        return self.table[key]

    def update(self, x, y):
        self.labels.append(int(y))


@given(k=st.integers(1, 30), table=st.lists(st.sampled_from([-1, 0, 1]), min_size=1, max_size=20),
       R=st.floats(0.01, 100.0))
def test_adversary_forces_k_mistakes_on_any_deterministic_learner(k, table, R):
    game = g.adversary_game(_TableLearner(table), k, R=R)
    _check_game(game, k, k, R)


@given(R=st.floats(0.1, 10.0), ratio=st.floats(0.08, 1.0))
def test_forced_mistakes_meet_radius_and_margin(R, ratio):
    gamma = ratio * R
    k = pc.max_rounds(R, gamma) - 1  # ⌊(R/γ)²⌋, the mistakes the adversary forces
    assert k == math.floor((R / gamma) ** 2 * (1 + 1e-12))
    # The game for every k up to 156 costs seconds; the long games are played once each below.
    if k <= 30:
        _meets_radius_and_margin(R, gamma, k)


def _meets_radius_and_margin(R: float, gamma: float, k: int) -> None:
    game = g.adversary_game(g.PerceptronLearner(), k, R=R)
    assert game.mistakes == k and game.margin >= gamma * (1 - 1e-12)
    assert pc.radius(game.X) == pytest.approx(R, rel=1e-12)


@settings(max_examples=examples(60))
@given(d=st.integers(1, 8), seed=st.integers(0, 2**31 - 1), n=st.integers(1, 60))
def test_halving_makes_at_most_log2_H_mistakes_when_the_target_is_in_the_class(d, seed, n):
    rng = np.random.default_rng(seed)
    H = g.sign_vectors(d)
    target = H[rng.integers(H.shape[0])]
    learner, mistakes = g.HalvingLearner(H), 0
    for x in rng.normal(size=(n, d)):
        label = 1 if float(target @ x) > 0 else -1
        mistakes += learner.predict(x) != label
        learner.update(x, label)
    assert mistakes <= d


# --- the planted distribution -------------------------------------------------------------------


def _band_error(w, gamma: float, R: float = 1.0, tie: str = "mistake") -> float:
    """The band distribution's error of w in closed form, written out here: with θ the angle
    between w and u = (1, 0) and α = arcsin(γ/R), clip(θ − α, 0, π − 2α)/(π − 2α); for w = 0,
    1 (no answer) under tie="mistake" and ½ under the other rules."""
    w1, w2 = float(w[0]), float(w[1])
    if w1 == 0 and w2 == 0:
        return 1.0 if tie == "mistake" else 0.5
    theta, a = math.atan2(abs(w2), w1), math.asin(gamma / R)
    return min(max(theta - a, 0.0), math.pi - 2 * a) / (math.pi - 2 * a)


def _independent_sample(n: int, gamma: float, R: float, rng: np.random.Generator):
    """Rejection sampling from the uniform circle: keep the points outside the band."""
    out = np.empty((0, 2))
    while out.shape[0] < n:
        t = rng.uniform(-np.pi, np.pi, size=2 * n)
        P = R * np.stack([np.cos(t), np.sin(t)], axis=1)
        out = np.vstack([out, P[np.abs(P[:, 0]) >= gamma]])
    X = out[:n]
    return X, np.where(X[:, 0] > 0, 1.0, -1.0)


@settings(max_examples=examples(60))
@given(ratio=st.floats(0.0, 0.9), R=st.floats(0.5, 5.0), phi=st.floats(-np.pi, np.pi),
       scale=st.floats(0.1, 10.0), seed=st.integers(0, 2**31 - 1))
def test_exact_error_matches_monte_carlo(ratio, R, phi, scale, seed):
    n = 100_000
    gamma = max(ratio * R, 1e-9)
    dist = g.BandDistribution(gamma, R)
    w = scale * np.array([np.cos(phi), np.sin(phi)])
    exact = dist.error(w)
    rng = np.random.default_rng(seed)
    X, y = _independent_sample(n, gamma, R, rng)
    mc = float(np.mean(np.where(X @ w > 0, 1.0, -1.0) != y))
    sd = math.sqrt(max(exact * (1 - exact), 1.0 / n) / n)
    assert abs(mc - exact) <= 6 * sd + 1e-9
    # The package's own sampler draws the same distribution.
    Xp, yp = dist.sample(n, seed=seed + 1)
    mcp = float(np.mean(np.where(Xp @ w > 0, 1.0, -1.0) != yp))
    assert abs(mcp - exact) <= 6 * sd + 1e-9
    # Both of the package's forms against the closed form written out here.
    assert exact == pytest.approx(_band_error(w, gamma, R), abs=1e-12)
    assert dist.errors(w[None, :])[0] == pytest.approx(_band_error(w, gamma, R), abs=1e-12)


def test_error_at_gamma_zero_is_angle_over_pi_and_sampler_has_the_margin():
    dist = g.BandDistribution(1e-300)
    for theta in np.linspace(0, np.pi, 13):
        assert dist.error([np.cos(theta), np.sin(theta)]) == pytest.approx(theta / np.pi, abs=1e-12)
    d2 = g.BandDistribution(0.25, 2.0)
    X, y = d2.sample(5000, seed=0)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 2.0, rtol=1e-12)
    assert np.min(y * (X @ d2.u)) >= 0.25 * (1 - 1e-12)
    assert d2.error([0.0, 0.0]) == 1.0 and d2.error([0.0, 0.0], tie="negative") == 0.5
    with pytest.raises(ValueError, match="below R"):
        g.BandDistribution(1.0, 1.0)


# --- Balcan's conversion ------------------------------------------------------------------------


@settings(max_examples=examples(40))
@given(gamma=st.floats(0.1, 0.6), eps=st.floats(0.05, 0.4), delta=st.floats(0.02, 0.3),
       tie=st.sampled_from(TIES), seed=st.integers(0, 2**31 - 1))
def test_conversion_failure_rate_is_at_most_delta(gamma, eps, delta, tie, seed):
    n = 400
    sim = g.simulate_conversion(g.BandDistribution(gamma), eps, delta, repeats=n, seed=seed, tie=tie)
    M = math.floor((1 / gamma) ** 2 * (1 + 1e-12))
    assert sim.plan.hypotheses == M + 1
    # Every run outputs a hypothesis within (M+1) windows, after at most M mistakes.
    assert np.all(np.isfinite(sim.errors))
    assert sim.mistakes.max() <= M
    assert sim.examples.max() <= (M + 1) * sim.window
    # If the true failure probability is <= delta, more failures than this happen with
    # probability below 1e-6: a one-sided binomial bound.
    assert sim.failures <= binom.ppf(1 - 1e-6, n, delta)


def test_the_failure_test_has_power_a_too_short_window_fails_it():
    n = 2000
    sim = g.simulate_conversion(g.BandDistribution(0.1), 0.1, 0.05, repeats=n, seed=0, window=3)
    assert sim.failures > binom.ppf(1 - 1e-6, n, 0.05)


def _ref_conversion(X, y, window: int, tie: str):
    """Balcan's conversion step by step: h₁ = 0; predict each example by the sign of w·x summed
    as the run contract sums it (0.0, then each product, left to right; the tie rule at 0); a
    mistake adds y x to w and restarts the count; ``window`` right answers in a row accept w.
    Returns (w or None, mistakes, examples read)."""
    w, mistakes, streak = [0.0] * X.shape[1], 0, 0
    for t, (x, label) in enumerate(zip(X, y), start=1):
        score = 0.0
        for a, b in zip(x, w):
            score += float(a) * b
        p = 1 if score > 0 else -1 if score < 0 else {"mistake": 0, "positive": 1, "negative": -1}[tie]
        if p != label:
            w = [a + float(label) * float(b) for a, b in zip(w, x)]
            mistakes, streak = mistakes + 1, 0
        else:
            streak += 1
            if streak == window:
                return w, mistakes, t
    return None, mistakes, len(y)


def _check_against_reference(X, y, window, tie, sim, gamma):
    for r in range(y.shape[0]):
        w, mistakes, examples = _ref_conversion(X[r], y[r], window, tie)
        assert (sim.mistakes[r], sim.examples[r]) == (mistakes, examples), r
        run = g.convert_stream(zip(X[r], y[r]), window, tie=tie, max_examples=y.shape[1])
        assert (run.mistakes, run.examples, run.output) == (mistakes, examples, w is not None), r
        if w is None:
            assert np.isnan(sim.errors[r])
        else:
            assert run.w.tolist() == w
            assert sim.errors[r] == pytest.approx(_band_error(w, gamma, 1.0, tie), abs=1e-12)


@settings(max_examples=examples(25))
@given(gamma=st.floats(0.15, 0.6), eps=st.floats(0.05, 0.4), delta=st.floats(0.02, 0.3),
       tie=st.sampled_from(TIES), seed=st.integers(0, 2**31 - 1))
def test_simulation_and_conversion_equal_a_reference_run_by_run(gamma, eps, delta, tie, seed):
    dist = g.BandDistribution(gamma)
    plan = pc.online_to_pac(1.0, gamma, eps, delta)
    rng = np.random.default_rng(seed)
    phi, y = dist.sample_parts((12, plan.sample_size), rng)
    X = dist.points(phi, y)
    sim = g.simulate_conversion(dist, eps, delta, tie=tie, streams=(X, y))
    assert sim.window == plan.window
    _check_against_reference(X, y, plan.window, tie, sim, gamma)


@settings(max_examples=examples(60))
@given(window=st.integers(1, 4), tie=st.sampled_from(TIES), seed=st.integers(0, 2**31 - 1))
def test_the_simulation_makes_the_online_perceptrons_float_decisions(window, tie, seed):
    """Streams whose scores w·x are often exactly 0, or cancel in floating point (entries such
    as 0.1, 3 and 0.30000000000000004): the vectorized simulation decides as the online
    perceptron and the plain reference do, bit for bit."""
    rng = np.random.default_rng(seed)
    values = [0.0, 0.1, -0.1, 0.2, 0.3, -0.3, 3.0, -3.0, 1.0, -1.0, 0.30000000000000004]
    X = rng.choice(values, size=(20, 12, 2))
    y = rng.choice([-1.0, 1.0], size=(20, 12))
    gamma = 0.1  # the distribution only sizes the plan and scores the outputs
    sim = g.simulate_conversion(g.BandDistribution(gamma), 0.1, 0.1, tie=tie, window=window, streams=(X, y))
    _check_against_reference(X, y, window, tie, sim, gamma)


@settings(max_examples=examples(80))
@given(M=st.integers(1, 7), k=st.integers(1, 12), seed=st.integers(0, 2**31 - 1))
def test_M_windows_run_out_only_while_h_M_plus_1_is_tested(M, k, seed):
    # The chapter's claim: with a sample of M windows the run can end without output only after
    # M mistakes, and then the hypothesis in use is right on the whole support. Streams: the
    # vectors R·Q e_j (Q a random rotation) with random labels, each new one arriving after a
    # random number (< k) of repeats of earlier ones. (Q is orthogonal only up to rounding, so a
    # new point is not always a tie; the claim holds for every stream with this radius and margin.)
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.normal(size=(M, M)))
    R = float(rng.uniform(0.5, 3.0))
    P = R * Q.T  # rows: the support, pairwise orthogonal, of length R
    labels = rng.choice([-1.0, 1.0], size=M)
    X, y = [], []
    for j in range(M):
        for _ in range(int(rng.integers(0, k)) if j else 0):
            i = int(rng.integers(0, j))
            X.append(P[i]), y.append(labels[i])
        X.append(P[j]), y.append(labels[j])
    for _ in range((M + 1) * k):  # long enough for any plan below
        i = int(rng.integers(0, M))
        X.append(P[i]), y.append(labels[i])
    X, y = np.array(X), np.array(y)
    u = (labels[:, None] * P).sum(axis=0) / (R * math.sqrt(M))  # unit, margin R/sqrt(M)
    assert np.min(y * (X @ u)) >= R / math.sqrt(M) * (1 - 1e-9)
    run = g.convert_stream(zip(X, y), k, max_examples=M * k)
    if not run.output:
        assert run.mistakes == M and run.examples == M * k
        assert np.all(labels * (P @ run.current) > 0)  # h_{M+1} is right on every support point
    # With (M+1) windows the run always outputs.
    assert g.convert_stream(zip(X, y), k, max_examples=(M + 1) * k).output


# --- the LP route -------------------------------------------------------------------------------


def _exactly_consistent(X, y, w) -> bool:
    return all(
        Fraction(float(yi)) * sum((Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x, w)), Fraction(0)) > 0
        for x, yi in zip(X, y)
    )


@settings(max_examples=examples(60))
@given(n=st.integers(2, 60), d=st.integers(1, 5), ratio=st.floats(0.01, 0.9), seed=st.integers(0, 2**31 - 1))
def test_lp_route_returns_a_consistent_halfspace(n, d, ratio, seed):
    X, y, _ = pc.planted(n, d, ratio, 1.0, seed=seed)
    w = g.lp_consistent_halfspace(X, y)
    assert _exactly_consistent(X, y, w)


def test_lp_route_refuses_inseparable_data_and_reports_its_run():
    X, y = pc.xor()
    with pytest.raises(ValueError, match="not separable"):
        g.lp_consistent_halfspace(X, y)
    run = g.lp_route(g.BandDistribution(0.2), 0.2, 0.1, seed=3)
    assert run.samples == g.vc_sample_size(2, 0.2, 0.1)
    Xs, ys = g.BandDistribution(0.2).sample(run.samples, seed=3)
    assert _exactly_consistent(Xs, ys, run.w)
    assert run.error == pytest.approx(_band_error(run.w, 0.2), abs=1e-12)


@given(d=st.integers(1, 200), eps=st.floats(0.001, 0.999), delta=st.floats(1e-6, 0.2499))
def test_vc_sample_size_is_the_smallest_m_of_ummls_inequality(d, eps, delta):
    m = g.vc_sample_size(d, eps, delta)
    rhs = 8 / eps * (2 * d * math.log(16 * math.e / eps) + math.log(2 / delta))
    assert m >= rhs - 1e-9 * rhs and m - 1 < rhs


@settings(max_examples=examples(10))
@given(gamma=st.floats(0.01, 0.5), seed=st.integers(0, 2**31 - 1))
def test_lp_route_failure_rate_is_at_most_delta(gamma, seed):
    """UML's sample size (gua-thm-vc) on the band distribution: failures stay below δ."""
    n, eps, delta = 20, 0.2, 0.1
    dist = g.BandDistribution(gamma)
    rng = np.random.default_rng(seed)
    errors = [g.lp_route(dist, eps, delta, seed=int(rng.integers(2**31))).error for _ in range(n)]
    assert sum(e > eps for e in errors) <= binom.ppf(1 - 1e-6, n, delta)


# ---------------------------------------------------------------------------------------------
# What a consistent learner can be sure of, and how many failures a simulation may show
# ---------------------------------------------------------------------------------------------


def test_every_consistent_separator_of_the_lp_samples_has_small_error():
    # The chapter: on the LP route's samples every consistent separator has error below the
    # glued number, and the LP's output lies within psi of u, where the error is 0. Checked on
    # a few samples by brute force over a fine grid of directions.
    dist = g.BandDistribution(0.1, 1.0)
    psi = math.asin(dist.gamma / dist.R)
    m = pc.vc_sample_size(2, 0.1, 0.1)
    for seed in range(2):
        X, y = dist.sample(m, seed=seed)
        lo, hi = separator_arc(X, y)
        worst = g.worst_consistent_error(dist, X, y)
        grid = np.linspace(-math.pi, math.pi, 100_001)
        W = np.column_stack([np.cos(grid), np.sin(grid)])
        Z = y[:, None] * X
        # y w.x > 0 for every point, by definition. A direction that errs on one of every 40
        # points errs, so only the directions right on those (a narrow arc) meet all 2184: the
        # same verdict for every direction of the grid, without a 2184 x 200001 matrix.
        consistent = np.min(Z[::40] @ W.T, axis=0) > 0
        candidates = np.flatnonzero(consistent)
        consistent[candidates] = np.min(Z @ W[candidates].T, axis=0) > 0
        inside = (grid > lo) & (grid < hi)
        away = (np.abs(grid - lo) > 1e-9) & (np.abs(grid - hi) > 1e-9)
        np.testing.assert_array_equal(consistent[away], inside[away])
        errors = [dist.error(w) for w in W[consistent]]
        assert max(errors) <= worst + 1e-12 and max(errors) >= worst - 1e-4
        w = pc.lp_consistent_halfspace(X, y)
        cos = float(w @ dist.u) / (math.hypot(*w) * math.hypot(*dist.u))
        assert math.acos(min(1.0, cos)) < psi and dist.error(w) == 0.0
    with pytest.raises(ValueError, match="half turn"):
        separator_arc(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, 1.0]))



def test_worst_consistent_error_needs_the_distribution_and_planar_separable_data():
    dist = g.BandDistribution(0.1, 1.0)
    with pytest.raises(TypeError, match="dist must be a BandDistribution"):
        g.worst_consistent_error(0.1, [[1.0, 0.0]], [1.0])
    with pytest.raises(ValueError, match="points in the plane"):
        g.worst_consistent_error(dist, [[1.0, 0.0, 0.0]], [1.0])
    # One point at angle 0: every direction within a quarter turn of it is consistent, and the
    # worst of them, a quarter turn away, errs exactly where the band leaves room.
    assert g.worst_consistent_error(dist, [[1.0, 0.0]], [1.0]) == pytest.approx(
        dist.error(np.array([0.0, 1.0])), abs=1e-12)


def _binomial_sf(k: int, n: int, p: Fraction) -> Fraction:
    """P(Binomial(n, p) > k), exactly, from the probabilities of k + 1, ..., n failures."""
    return sum((math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k + 1, n + 1)), Fraction(0))


@pytest.mark.parametrize(("n", "delta", "level"), [(20, 0.1, 1e-3), (60, 0.05, 1e-6), (200, 0.2, 0.01)])
def test_failure_quantile_is_the_binomial_quantile_in_exact_arithmetic(n, delta, level):
    q = g.failure_quantile(n, delta, level)
    p = Fraction(delta)
    assert _binomial_sf(q, n, p) < level <= _binomial_sf(q - 1, n, p)


