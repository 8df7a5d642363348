"""The claims of the chapter "From mistakes to guarantees" (book/guarantees.ipynb): its tables, its
simulations and its prose, checked against independent computations. The theorems themselves are
tested in tests/core/test_guarantees.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

import perceptron_core as pc
from perceptron_core.figures import guarantees as fig

from conftest import markdown_text, notebook_cells


def test_the_prose_claim_that_a_window_without_the_log_fails():
    short = pc.simulate_conversion(fig.distribution(), 0.1, 0.1, repeats=2000, seed=7,
                                   window=math.ceil(1 / 0.1))
    assert short.failure_rate > 0.1


def test_adversary_table():
    rows = fig.adversary_table(n=9)
    assert [r["mistakes"] for r in rows] == [9] * 5
    assert all(r["margin"] == pytest.approx(1 / 3, rel=1e-12) for r in rows)
    assert all(r["radius"] == 1.0 for r in rows)
    bounds = [r["bound"] for r in rows]
    assert bounds[3] is None
    assert [b for b in bounds if b is not None] == pytest.approx([9.0] * 4, rel=1e-12)
    # Under tie="mistake" every score is a tie (no answer), so the adversary gives +1 throughout;
    # under tie="positive" the perceptron says +1 at a tie, so the labels are all -1.
    assert rows[0]["labels"] == "+" * 9 and rows[1]["labels"] == "−" * 9
    assert rows[3]["labels"] == "−" + "+" * 8  # 1-NN copies the label of e_1 from then on


def test_the_adversary_margin_is_measured_on_each_games_data():
    # The chapter: the margin quoted is measured on the data each game produced, the same in
    # all games, and (R/γ)² is computed from it, not copied from the theorem. Recomputed here
    # from the games themselves, with plain numpy.
    rows = fig.adversary_table(n=9, R=2.0)
    for learner, row in zip(fig.learners(9), rows):
        game = pc.adversary_game(learner, 9, R=2.0)
        measured = min(float(yi * (game.u @ xi)) for xi, yi in zip(game.X, game.y))
        assert row["margin"] == pytest.approx(measured, rel=1e-15)
        assert row["radius"] == pytest.approx(float(np.max(np.sqrt((game.X**2).sum(1)))))
    margins = [r["margin"] for r in rows]
    assert max(margins) - min(margins) <= 1e-12 * max(margins)
    assert (2.0 / min(margins)) ** 2 == pytest.approx(9.0, rel=1e-12)


@pytest.mark.parametrize("tie", ["mistake", "positive", "negative"])
def test_on_the_line_the_perceptron_makes_at_most_one_mistake(tie):
    # Exercise gua-ex-line and the remark: in d = 1, whatever R/γ, at most one mistake.
    rng = np.random.default_rng(3)
    for trial in range(200):
        n = int(rng.integers(1, 40))
        gamma = float(10.0 ** rng.uniform(-4, 0))
        u = float(rng.choice([-1.0, 1.0]))
        x = rng.choice([-1.0, 1.0], size=n) * rng.uniform(gamma, 1.0, size=n)
        y = np.sign(u * x)
        assert np.all(y * u * x >= gamma)
        res = pc.perceptron(x[:, None], y, tie=tie, max_epochs=5)
        assert res.mistakes <= 1 and res.converged
        if trial >= 50:  # the online learner, a call per example, on the first 50 data sets
            continue
        learner = pc.PerceptronLearner(tie)
        online = 0
        for xi, yi in zip(np.r_[x, x], np.r_[y, y]):  # a stream: the data twice
            online += learner.predict(np.array([xi])) != yi
            learner.update(np.array([xi]), int(yi))
        assert online <= 1


def test_the_tie_rules_read_the_same_within_sampling_noise():
    # Exercise gua-ex-balcan-tie: over 2000 runs each, the mean examples read under the two
    # rules differ by less than the standard error of the difference (two samples' spreads).
    dist = fig.distribution()
    runs = {t: pc.simulate_conversion(dist, 0.1, 0.1, repeats=2000, seed=3, tie=t).examples
            for t in ("mistake", "negative")}
    diff = runs["negative"].mean() - runs["mistake"].mean()
    se = math.sqrt(sum(r.var(ddof=1) / r.size for r in runs.values()))
    assert abs(diff) < se
    # h1 itself reads one example more on average under tie="negative": it is rejected at the
    # first positive example (a fair coin: two on average), under "mistake" at the first one.
    rng = np.random.default_rng(0)
    X, y = dist.sample(20_000, seed=rng)
    assert dist.error(np.zeros(2), tie="negative") == 0.5 and np.mean(y > 0) == pytest.approx(
        0.5, abs=0.02)


def test_off_by_one_numbers_of_the_prose():
    ob = fig.off_by_one(M=4, epsilon=0.1, delta=0.1)
    assert ob["window_balcan"] == math.ceil(10 * math.log(40)) == 37
    assert ob["sample_balcan"] == 148
    assert not ob["run_balcan"].output and ob["run_balcan"].examples == 148
    assert ob["run_plus_one"].output and ob["run_plus_one"].examples == 149
    assert ob["plan"].window == math.ceil(10 * math.log(50)) and ob["plan"].hypotheses == 5
    assert ob["run_plan"].examples == 1 + 4 * ob["plan"].window  # mistakes at 1, 1+k, ...


def test_comparison_guarantees_hold_on_a_small_run():
    c = fig.comparison(epsilon=0.2, delta=0.1, repeats=20, seed=5)
    assert c["perceptron"]["samples"] == pc.online_to_pac(1.0, fig.GAMMA, 0.2, 0.1).sample_size
    assert c["lp"]["samples"] == pc.vc_sample_size(2, 0.2, 0.1)
    assert c["perceptron"]["used"] <= c["perceptron"]["samples"]
    assert c["perceptron"]["failures"] <= binom.ppf(1 - 1e-6, 20, 0.1)
    assert c["lp"]["failures"] <= binom.ppf(1 - 1e-6, 20, 0.1)
    assert c["lp"]["seconds"] > 0 and c["perceptron"]["seconds"] > 0
    assert c["lp"]["psi"] == pytest.approx(math.asin(fig.GAMMA / fig.R))
    assert c["lp"]["max_angle"] < c["lp"]["psi"] and c["lp"]["max_error"] == 0.0
    assert c["lp"]["max_error"] <= c["lp"]["worst_consistent"] < 0.05


def test_off_by_one_stream_runs_out_and_what_the_conversion_then_returns():
    ob = fig.off_by_one(M=4, epsilon=0.1, delta=0.1)
    M, k, K = ob["M"], ob["window_balcan"], ob["plan"].window
    # The stream built for the notes' window holds M·k + 1 examples; built for the corrected
    # window, M·K + 1. Counted here from the streams themselves.
    assert ob["stream_length"] == len(fig.off_by_one_stream(M, k)[1]) == M * k + 1 == 149
    assert ob["plan_stream_length"] == len(fig.off_by_one_stream(M, K)[1]) == M * K + 1 == 161
    # The corrected window on the notes' stream: the stream ends first. No output, and the
    # hypothesis in use is h_{M+1} = Σ e_i, right on every point, after M mistakes.
    here = ob["run_plan_here"]
    assert not here.output and here.w is None and here.examples == 149 and here.mistakes == M
    np.testing.assert_array_equal(here.current, np.ones(M))
    last_mistake = 1 + (M - 1) * k
    assert here.examples - last_mistake == k < K  # right on the last k, short of a window of K
    # On its own stream the corrected procedure outputs h_{M+1} within its sample.
    assert ob["run_plan"].output and ob["run_plan"].examples == 161 <= ob["plan"].sample_size


def test_band_error_formula_against_an_independent_sampler():
    rows = fig.band_error_check(n=200_000, seed=1)
    assert all(r["z"] < 5 for r in rows)
    psi = math.asin(fig.GAMMA / fig.R)
    for r in rows:
        if r["theta"] <= psi:  # within psi of u: no point of the sample is misclassified
            assert r["exact"] == 0 and r["estimate"] == 0
    # Closed forms at two angles: a quarter turn errs on half, a half turn on everything.
    w = np.array([0.0, 1.0])
    assert fig.distribution().error(w) == pytest.approx(0.5, abs=1e-15)
    assert fig.distribution().error(-fig.distribution().u) == 1.0


def test_failure_quantile_is_the_binomial_quantile():
    q = fig.failure_quantile(2000, 0.1)
    assert binom.sf(q, 2000, 0.1) < fig.QUANTILE_LEVEL <= binom.sf(q - 1, 2000, 0.1)
    # The short window's failures exceed it, the chapter's window's do not.
    short = pc.simulate_conversion(fig.distribution(), 0.1, 0.1, repeats=2000, seed=7, window=10)
    assert short.failures > q
    assert fig.simulation(0.1, 0.1).failures <= q
    assert fig.slider_summary()["below_quantile"]


def test_the_vectorized_simulation_agrees_with_the_online_perceptron_run_by_run():
    r = fig.simulation_agreement(epsilon=0.2, delta=0.1, repeats=30, seed=4)
    assert r == {"repeats": 30, "agree": 30}


@pytest.mark.parametrize("x", [1.0, 4.0, 4.938, 9.0, 9.5, 100.0, 2.0000001, 1.9999999])
def test_no_further_mistake_exactly_when_m_plus_one_exceeds_the_bound(x):
    # Exercise (b): an (M+1)-th mistake is ruled out exactly when M + 1 > (R/γ)², that is
    # M >= ⌊(R/γ)²⌋ for an integer M, and not M >= (R/γ)² when (R/γ)² is not an integer.
    for M in range(0, 120):
        assert (M + 1 > x) == (M >= math.floor(x))
    if x != math.floor(x):
        M = math.floor(x)
        assert M + 1 > x and not M >= x


@pytest.mark.parametrize("gamma", [0.45, 0.5, 0.3, 0.26])
def test_the_perceptron_is_perfect_after_floor_mistakes_and_not_before(gamma):
    # R = 1: (R/γ)² is 4.94, 4, 11.1 and 14.8. The adversary's k = ⌊(R/γ)²⌋ points have margin
    # 1/√k >= γ; the perceptron makes exactly k mistakes on them, its hypothesis after k - 1
    # of them errs on the next point, and after k it is right on every point.
    k = math.floor((1 / gamma) ** 2)
    game = pc.adversary_game(pc.PerceptronLearner("mistake"), k, R=1.0)
    assert game.mistakes == k and np.min(game.y * (game.X @ game.u)) >= gamma - 1e-12
    w = np.zeros(k)
    for j, (x, label) in enumerate(zip(game.X, game.y)):
        assert label * (w @ x) <= 0  # h_{j+1} errs on point j + 1
        w = w + label * x
    assert np.all(game.y * (game.X @ w) > 0)


def test_the_text_is_for_readers_and_uses_the_books_notation():
    cells = notebook_cells("guarantees")
    text = markdown_text("guarantees")
    for bad in ("tests/", "test_", "the tests ", "\\alpha", "161"):
        assert bad not in text, bad
    # The distribution is \mathcal{D}; a bare D is only the CS229 notes' radius.
    assert text.count("$D$") == 1 and "(with $D$ for $R$)" in text
    assert "\\sim D" not in text
    # "Can any learner do better?" comes with the dimension the adversary needs.
    assert "in dimension $d \\ge (R/\\gamma)^2$" in text
    # Exercise (b): the condition N + 1 > (R/γ)² for a count N of hypotheses.
    assert "N + 1 > (R/\\gamma)^2" in text
    # One notation: M̄ is the mistake bound, M the mistakes of a run, n the adversary's rounds,
    # L the window; k (the update index) and t (the stream position) play no other part.
    assert "\\bar M = \\lfloor (R/\\gamma)^2\\rfloor" in text
    for bad in ("(M+1)k", "(M+1)\\,k", "$M+1$", "$k/2$", "R/\\sqrt{k}", "window $k$",
                "1 - t \\le e^{-t}", "\\ln(1+t) \\le t", "\\beta = \\pi/2"):
        assert bad not in text, bad
    assert "(\\bar M+1)L" in text and "window length $L$" in text
    # The LP's zero error is explained by where its output lies, not by closeness alone.
    assert "one within $\\psi$ of\n$u$ has error $0$" not in text
    # The remark on low dimension says what is shown.
    assert "other learners can do better than" not in text
    # The tie-rule exercise does not read a difference into sampling noise.
    assert "so the runs read a little more" not in text
    assert "check = gf.band_error_check" not in "\n".join("".join(c["source"]) for c in cells)
