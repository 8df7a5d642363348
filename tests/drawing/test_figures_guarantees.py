"""perceptron_core.figures.guarantees: the figure states the simulation it is given."""

from __future__ import annotations

import pytest

import perceptron_core as pc
from perceptron_core.figures import guarantees as gf

from conftest import figure_texts


def test_draw_conversion_states_failures_and_sizes():
    sim = pc.simulate_conversion(pc.BandDistribution(0.1, 1.0), 0.2, 0.1, repeats=50, seed=0)
    text = figure_texts(gf.draw_conversion(sim))
    rel = "≤" if sim.failure_rate <= 0.1 else ">"
    assert f"failures {sim.failures}/50 = {sim.failure_rate:.4f} {rel} δ = 0.1" in text
    assert f"window {sim.window}; most read {int(sim.examples.max())}" in text
    assert f"= {sim.plan.sample_size}" in text


def test_the_slider_needs_a_simulation_for_every_setting_and_says_what_it_shows():
    sim = pc.simulate_conversion(pc.BandDistribution(0.1, 1.0), 0.2, 0.1, repeats=50, seed=0)
    with pytest.raises(ValueError, match=r"no simulation for \(epsilon, delta\) = \(0.05, 0.05\)"):
        gf.conversion({(0.2, 0.1): sim})
    sims = {(e, d): sim for e in (0.05, 0.1, 0.15, 0.2, 0.25, 0.3) for d in (0.05, 0.1, 0.2)}
    e = gf.conversion(sims)
    assert e.params == gf.GRID
    alt = e.alt(epsilon=0.2, delta=0.1)
    assert f"{sim.failures} runs above it" in alt and f"{sim.plan.sample_size}." in alt
