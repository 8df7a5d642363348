"""perceptron_core.figures.guarantees: the figure states the simulation it is given."""

from __future__ import annotations

import perceptron_core as pc
from perceptron_core.figures import guarantees as gf

from conftest import figure_texts


def test_draw_states_failures_and_sizes():
    sim = pc.simulate_conversion(pc.BandDistribution(0.1, 1.0), 0.2, 0.1, repeats=50, seed=0)
    text = figure_texts(gf.draw(sim))
    rel = "≤" if sim.failure_rate <= 0.1 else ">"
    assert f"failures {sim.failures}/50 = {sim.failure_rate:.4f} {rel} δ = 0.1" in text
    assert f"window {sim.window}; most read {int(sim.examples.max())}" in text
    assert f"= {sim.plan.sample_size}" in text
