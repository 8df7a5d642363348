"""perceptron_core.figures.first_look: the figure states the run it is given."""

from __future__ import annotations

import perceptron_core as pc
from perceptron_core.figures import first_look

from conftest import figure_texts


def test_draw_trained_states_the_run_and_its_bound():
    X, y, u = pc.planted(40, 2, gamma=0.2, R=1.0, seed=1)
    run = pc.perceptron(X, y)
    text = figure_texts(first_look.draw_trained(X, y, u, run, 12.34, 0.2))
    assert f"planted margin γ = 0.20: {run.mistakes} mistakes" in text and "= 12.3" in text
