"""perceptron_core.figures.margin_perceptron: a frame states the run it is given."""

from __future__ import annotations

from perceptron_core.figures import margin_perceptron as mpf

from conftest import figure_texts


def test_a_frame_states_its_run():
    frames = {(1.0, t): dict(gamma=0.1, updates=u, bound=1000.0 * (1 + t), margin=0.06 + t / 20)
              for t, u in ((0.2, 10), (0.5, 30))}
    text = figure_texts(mpf.draw_target_runs(frames, 1.0, 0.1, 1.0, 0.5))
    assert "τ = 0.5: 30 updates ≤ bound 1,500" in text
    assert "reached 0.0850 ≥ τγ = 0.0500" in text and "γ* = 0.1000" in text
