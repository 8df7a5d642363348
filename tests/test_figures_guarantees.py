"""Tests of the chapter "From mistakes to guarantees": its figure, tables, and the claims its
prose makes about them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from matplotlib.figure import Figure
from scipy.stats import binom

import perceptron_core as pc
from perceptron_core.figures import guarantees as fig
from perceptron_core.interactive import _expand_all


def _initial(params: dict) -> dict:
    """The first frame of an explore() grid (BENCH_CASES hold the chapter's grids)."""
    return {p.name: p.values[p.initial] for p in _expand_all(params, max_frames=10**6)}


def _titles(f: Figure) -> str:
    return " | ".join(ax.get_title() for ax in f.axes)


def test_slider_grid_fits_the_frame_budget_and_delta_is_where_uml_states_its_theorem():
    eps, deltas = fig.slider_values()
    assert eps == [0.05, 0.1, 0.15, 0.2, 0.25, 0.3]
    assert len(eps) * len(deltas) <= 60
    assert all(0 < d < 0.25 for d in deltas)
    # explore expands the same grids.
    params = _expand_all({"epsilon": fig.EPSILONS, "delta": fig.DELTAS}, 60)
    assert [p.values for p in params] == [eps, deltas]


@pytest.mark.parametrize("epsilon, delta", [(0.05, 0.05), (0.3, 0.2), (0.1, 0.1)])
def test_draw_shows_the_simulation_it_claims(epsilon, delta):
    f = fig.draw(epsilon=epsilon, delta=delta)
    assert isinstance(f, Figure)
    sim = fig.simulation(epsilon, delta)
    title = _titles(f)
    assert f"failures {sim.failures}/{sim.repeats}" in title and f"δ = {delta:g}" in title
    assert f"window {sim.window}" in title and f"mistakes ≤ {int(sim.mistakes.max())}" in title
    # The alt text states what this frame measured, and says "above" when the rate exceeds δ.
    alt = fig.alt_text(epsilon, delta)
    assert f"epsilon = {epsilon:g}" in alt and f"{sim.failures} of {sim.repeats}" in alt
    assert f"{sim.failure_rate:.4f}, " + ("at most" if sim.failure_rate <= delta else "above") in alt
    assert f"at most {int(sim.examples.max())})" in alt and str(sim.plan.sample_size) in alt


def test_a_redraw_does_not_simulate_again():
    # Not timed (bench/bench_redraw.py measures the time): the simulation is what costs, and a
    # frame drawn again must reuse it.
    fig.draw(epsilon=0.2, delta=0.1)
    before = fig._simulation.cache_info()
    fig.draw(epsilon=0.2, delta=0.1)
    after = fig._simulation.cache_info()
    assert after.misses == before.misses and after.hits > before.hits


def test_every_frame_is_within_delta_with_a_binomial_margin():
    s = fig.slider_summary()
    assert s["frames"] == 18 and s["always_output"] and s["all_within"]
    assert s["hypotheses"] == 101 and s["most_mistakes"] <= 100
    eps, deltas = fig.slider_values()
    for e in eps:
        for d in deltas:
            sim = fig.simulation(e, d)
            assert sim.failures <= binom.ppf(1 - 1e-6, sim.repeats, d)
            assert np.all(sim.examples <= sim.plan.sample_size)


def test_the_prose_claim_that_a_window_without_the_log_fails():
    short = pc.simulate_conversion(fig.distribution(), 0.1, 0.1, repeats=2000, seed=7,
                                   window=math.ceil(1 / 0.1))
    assert short.failure_rate > 0.1


def test_adversary_table():
    rows = fig.adversary_table(k=9)
    assert [r["mistakes"] for r in rows] == [9] * 5
    assert all(r["margin"] == pytest.approx(1 / 3, rel=1e-12) for r in rows)
    assert [r["bound"] for r in rows] == [9.0, 9.0, 9.0, None, 9.0]
    # Under tie="mistake" every score is a tie (no answer), so the adversary gives +1 throughout;
    # under tie="positive" the perceptron says +1 at a tie, so the labels are all -1.
    assert rows[0]["labels"] == "+" * 9 and rows[1]["labels"] == "−" * 9
    assert rows[3]["labels"] == "−" + "+" * 8  # 1-NN copies the label of e_1 from then on


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


def test_bench_cases_draw():
    for name, draw, params in fig.BENCH_CASES:
        assert isinstance(draw(**_initial(params)), Figure), name
