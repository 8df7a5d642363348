"""perceptron_core.figures.convergence: each figure states the run it is given."""

from __future__ import annotations

import numpy as np

from perceptron_core import narrow_wedge, orthonormal_worst_case, perceptron, planted
from perceptron_core.figures import convergence as cf

from conftest import figure_texts


def test_proof_quantities_follow_the_run():
    X, y, u = planted(50, 3, 0.1, seed=1)
    run = perceptron(X, y, record=True)
    progress, norms = cf.proof_quantities(X, y, run.history.indices, u)
    assert np.isclose(progress[-1], run.w @ u) and np.isclose(norms[-1], np.linalg.norm(run.w))
    text = figure_texts(cf.draw_invariants(X, y, u, run, 0.1, 1.0))
    assert f"{run.mistakes} mistakes ≤ (R/γ)² = 100" in text


def test_worst_case_and_survey_titles():
    X, y = orthonormal_worst_case(6)
    text = figure_texts(cf.draw_worst_case(X, y, perceptron(X, y, record=True), np.ones(6) / 6**0.5))
    assert "6 mistakes = (R/γ*)² = 6" in text
    text = figure_texts(cf.draw_survey([(3, 10.0), (5, 20.0)], [(8, 10.0)], 0.25, 20))
    assert "3 data sets" in text and "mistakes ≤ 0.80·bound" in text


def test_draw_wedge_marks_the_row_of_its_slider():
    t = {"ell": [0, 1], "gamma": [0.3, 0.15], "mistakes": [5, 9], "epochs": [3, 5],
         "bound": [20.0, 80.0], "w_max_margin": [[1.0, -0.5], [1.0, -0.6]], "w_final": [[2.0, -1.0]] * 2}
    assert narrow_wedge(1)[0][1, 0] == 0.5
    assert "9 mistakes, 5 epochs ≤ bound 80" in figure_texts(cf.draw_wedge(t, 1))
