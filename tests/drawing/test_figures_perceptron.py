"""perceptron_core.figures.perceptron: each frame states the run it is given."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import perceptron, planted
from perceptron_core.figures import perceptron as figs

from conftest import figure_texts

X, Y, _ = planted(16, 2, 0.03, seed=6)
RUN = perceptron(X, Y, record=True)


@pytest.mark.parametrize("k", [0, 1, 7, 15])
def test_draw_update_states_the_update_it_draws(k):
    idx = RUN.history.indices
    W = figs.weight_path(X, Y, idx)
    text = figure_texts(figs.draw_update(X, Y, idx, np.array([0.6, 0.8]), k))
    wrong = int(np.sum(Y * (X @ W[k]) <= 0))
    assert (f"separates all {len(Y)} points" if wrong == 0 else f"still gets {wrong} of") in text
    assert f"({W[k][0]:.2f}, {W[k][1]:.2f})" in text
    if k:
        i = int(idx[k - 1])
        assert f"update k = {k} of {RUN.mistakes}: point {i} " in text
        assert f"{Y[i] * (W[k - 1] @ X[i]):+.3f} → {Y[i] * (W[k] @ X[i]):+.3f}" in text
    else:
        assert "no boundary yet" in text
    with pytest.raises(ValueError):
        figs.draw_update(X, Y, idx, np.array([0.6, 0.8]), RUN.mistakes + 1)


def test_weight_path_is_the_runs_weights_bit_for_bit():
    W = figs.weight_path(X, Y, RUN.history.indices)
    assert np.array_equal(W[0], [0, 0]) and np.array_equal(W[-1], RUN.w)


@pytest.mark.parametrize("rule, title", [("mistake", "2 mistakes, final w = (1, -1)"),
                                         ("positive", "1 mistake, final w = (0, -1)")])
def test_draw_tie_states_the_run(rule, title):
    Xt, yt = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    text = figure_texts(figs.draw_tie(Xt, yt, perceptron(Xt, yt, tie=rule, record=True), rule))
    assert title in text and ("on the boundary" in text) == (rule == "positive")
