"""perceptron_core.figures.guarantees: its slider grid, its figure (the simulation it claims, drawn
again without simulating again), and every frame within δ."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure
from scipy.stats import binom

from perceptron_core.figures import guarantees as fig
from perceptron_core.figures.sliders import _expand_all

from conftest import axes_titles


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
    title = axes_titles(f)
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
