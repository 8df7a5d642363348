"""The claims of the chapter "From mistakes to guarantees" (book/guarantees.ipynb): its games,
its simulations and its prose, checked against independent computations (plain numpy, the
binomial distribution of scipy, an independent sampler). The theorems themselves are tested
with the core."""

from __future__ import annotations

import math

import numpy as np
import pytest
from oracles import prose
from scipy.stats import binom

import perceptron_core as pc
from perceptron_core.guarantees import (HalvingLearner, NearestNeighbourLearner, failure_quantile,
                                        sign_vectors)

DIST = pc.BandDistribution(0.1, 1.0)


def late_stream(M, window):
    """The stream of the solution of gua-ex-window (c): e_1, ..., e_M of R^M, all labelled +1;
    each new e_j comes just after the current hypothesis was right window - 1 times on earlier
    points, and the stream ends with a whole window for h_{M+1}."""
    I, rows = np.eye(M), []
    for j in range(M):
        rows.append(I[j])
        if j < M - 1:
            rows += [I[t % (j + 1)] for t in range(window - 1)]
    rows += [I[t % M] for t in range(window)]
    return np.array(rows), np.ones(len(rows))


@pytest.mark.parametrize("R", [1.0, 2.0])
def test_every_learner_errs_in_every_round_of_the_adversary_game(R):
    """9 mistakes each, the margin of u measured on each game's data R/3 in all of them, so
    (R/γ)² = 9; tie="mistake" gets all +, tie="positive" all −, 1-NN − then +."""
    players = [pc.PerceptronLearner("mistake"), pc.PerceptronLearner("positive"),
               pc.PerceptronLearner("negative"), NearestNeighbourLearner(), HalvingLearner(sign_vectors(9))]
    games = [pc.adversary_game(p, 9, R=R) for p in players]
    for g in games:
        assert g.mistakes == 9 and np.linalg.norm(g.u) == pytest.approx(1)
        assert min(float(yi * (g.u @ xi)) for xi, yi in zip(g.X, g.y)) == pytest.approx(R / 3, rel=1e-12)
    assert list(games[0].y) == [1] * 9 and list(games[1].y) == [-1] * 9
    assert list(games[3].y) == [-1] + [1] * 8


def test_the_off_by_one_stream():
    """Exercise gua-ex-window (c) and the sources box: window ⌈10 ln 40⌉ = 37, sample 148: no
    output; one example more: h_5. The corrected window
    ⌈10 ln 50⌉ on that stream runs out, holding Σ eᵢ after 4 mistakes; on its own stream it
    outputs after 4·K + 1 examples."""
    X, y = late_stream(4, 37)
    assert len(y) == 149 and np.all(np.linalg.norm(X, axis=1) == 1)
    run = pc.convert_stream(zip(X, y), 37, max_examples=148)
    more = pc.convert_stream(zip(X, y), 37, max_examples=149)
    assert not run.output and run.examples == 148 and more.output and more.examples == 149
    plan = pc.online_to_pac(1.0, 0.5, 0.1, 0.1)
    assert plan.window == math.ceil(10 * math.log(50)) and plan.hypotheses == 5
    here = pc.convert_stream(zip(X, y), plan.window, max_examples=plan.sample_size)
    assert not here.output and here.mistakes == 4 and np.array_equal(here.current, np.ones(4))
    Xp, yp = late_stream(4, plan.window)
    own = pc.convert_stream(zip(Xp, yp), plan.window, max_examples=plan.sample_size)
    assert own.output and own.examples == len(yp) == 1 + 4 * plan.window


@pytest.mark.parametrize("M", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("eps, delta", [(0.1, 0.1), (0.3, 0.05), (0.05, 0.2)])
def test_a_sample_of_M_windows_can_run_out_and_M_plus_1_cannot(M, eps, delta):
    kb = math.ceil(math.log(M / delta) / eps)  # Balcan's window
    X, y = late_stream(M, kb)
    u = np.ones(M) / math.sqrt(M)
    assert np.min(y * (X @ u)) == pytest.approx(1 / math.sqrt(M)) and pc.radius(X) == 1.0
    run = pc.convert_stream(zip(X, y), kb, max_examples=M * kb)
    assert not run.output and run.mistakes == M and run.examples == M * kb
    # The same under Balcan's tie rule, and under tie="positive" with every label -1.
    for tie, sign in (("negative", 1), ("positive", -1)):
        other = pc.convert_stream(zip(X, sign * y), kb, tie=tie, max_examples=M * kb)
        assert not other.output and other.mistakes == M and other.examples == M * kb
    # The sample ran out while h_{M+1} was tested, and h_{M+1} is already right everywhere.
    assert np.all(y * (X @ run.current) > 0)
    # One more example, and h_{M+1} is accepted: it is right on every point.
    more = pc.convert_stream(zip(X, y), kb, max_examples=M * kb + 1)
    assert more.output and more.mistakes == M and np.all(y * (X @ more.w) > 0)
    # The corrected plan: (M+1) windows of ⌈(1/ε) ln((M+1)/δ)⌉ always suffice on this stream.
    plan = pc.online_to_pac(1.0, 1 / math.sqrt(M), eps, delta)
    Xp, yp = late_stream(M, plan.window)
    assert pc.convert_stream(zip(Xp, yp), plan.window, max_examples=plan.sample_size).output


def test_the_band_error_formula_against_an_independent_sampler():
    rng = np.random.default_rng(1)
    phi = rng.uniform(0, 2 * math.pi, 200_000)
    P = np.column_stack([np.cos(phi), np.sin(phi)])
    P = P[np.abs(P[:, 0]) >= 0.1]
    for theta in (0.0, 0.05, 0.1, 0.5, 1.5, 2.5, math.pi):
        w = np.array([math.cos(theta), math.sin(theta)])
        exact, estimate = DIST.error(w), np.mean(np.sign(P @ w) != np.sign(P[:, 0]))
        assert abs(estimate - exact) < 5 * max(math.sqrt(exact * (1 - exact) / len(P)), 1 / len(P))
        if theta <= math.asin(0.1):
            assert exact == estimate == 0


def test_the_simulations_and_their_failure_quantile():
    """The chapter's frame (ε = δ = 0.1) stays below δ and below the binomial quantile at
    1 − 10⁻⁶; a window of ⌈1/ε⌉ fails above δ and above the quantile."""
    q = failure_quantile(2000, 0.1)
    assert binom.sf(q, 2000, 0.1) < 1e-6 <= binom.sf(q - 1, 2000, 0.1)
    sim = pc.simulate_conversion(DIST, 0.1, 0.1, repeats=2000, seed=100100)
    assert sim.failure_rate <= 0.1 and sim.failures <= q and np.all(np.isfinite(sim.errors))
    short = pc.simulate_conversion(DIST, 0.1, 0.1, repeats=2000, seed=7, window=10)
    assert short.failure_rate > 0.1 and short.failures > q


def test_the_vectorized_simulation_agrees_with_the_online_perceptron_run_by_run():
    plan = pc.online_to_pac(1.0, 0.1, 0.2, 0.1)
    phi, y = DIST.sample_parts((30, plan.sample_size), np.random.default_rng(4))
    X = DIST.points(phi, y)
    fast = pc.simulate_conversion(DIST, 0.2, 0.1, streams=(X, y))
    for r in range(30):
        one = pc.convert_stream(zip(X[r], y[r]), plan.window)
        assert one.mistakes == fast.mistakes[r] and one.examples == fast.examples[r]
        assert DIST.error(one.w) == pytest.approx(fast.errors[r], rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("gamma", [0.45, 0.5, 0.3, 0.26])
def test_the_perceptron_is_perfect_after_floor_mistakes_and_not_before(gamma):
    k = math.floor((1 / gamma) ** 2)
    game = pc.adversary_game(pc.PerceptronLearner("mistake"), k, R=1.0)
    assert game.mistakes == k and np.min(game.y * (game.X @ game.u)) >= gamma - 1e-12
    w = np.zeros(k)
    for x, label in zip(game.X, game.y):
        assert label * (w @ x) <= 0
        w = w + label * x
    assert np.all(game.y * (game.X @ w) > 0)


def test_the_text_uses_the_books_notation():
    text = prose("guarantees")
    assert "\\bar M = \\lfloor (R/\\gamma)^2\\rfloor" in text and "(\\bar M+1)L" in text
    assert "gf.simulation_agreement" not in text and "N + 1 > (R/\\gamma)^2" in text
