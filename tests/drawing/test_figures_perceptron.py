"""perceptron_core.figures.perceptron: its figures, and the helpers they draw from."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptron_core import perceptron
from perceptron_core.figures import perceptron as figs

from conftest import figure_texts


@pytest.mark.parametrize("k", [0, 1, 7, 15])
def test_draw_update_returns_figure_with_the_run_numbers(k):
    X, y = figs.running_data()
    run = figs.running_run()
    fig = figs.draw_update(k)
    assert isinstance(fig, Figure)
    text = figure_texts(fig)
    w_k = figs.weights_after(k)
    wrong = int(np.sum(y * (X @ w_k) <= 0))
    if wrong == 0:
        assert f"separates all {len(y)} points" in text
    else:
        assert f"still gets {wrong} of {len(y)} points wrong" in text
    assert f"({w_k[0]:.2f}, {w_k[1]:.2f})" in text
    if k > 0:
        i = int(run.history.indices[k - 1])
        assert f"point {i} " in text and f"epoch {int(run.history.epochs[k - 1])}" in text
        before, after = y[i] * (figs.weights_after(k - 1) @ X[i]), y[i] * (w_k @ X[i])
        assert f"{before:+.3f}" in text and f"{after:+.3f}" in text
        assert f"of {run.mistakes}" in text


def test_draw_update_last_frame_separates_and_first_frame_has_no_boundary():
    assert "separates all" in figure_texts(figs.draw_update(figs.running_run().mistakes))
    assert "no boundary yet" in figure_texts(figs.draw_update(0))


def test_weights_after_range():
    run = figs.running_run()
    np.testing.assert_array_equal(figs.weights_after(0), [0.0, 0.0])
    np.testing.assert_array_equal(figs.weights_after(run.mistakes), run.w)
    for bad in (-1, run.mistakes + 1):
        with pytest.raises(ValueError):
            figs.weights_after(bad)


def test_update_scores_needs_history():
    X, y = figs.running_data()
    with pytest.raises(ValueError):
        figs.update_scores(perceptron(X, y), X, y)


def test_margin_stream_has_radius_and_margin():
    u = np.array([np.cos(0.5), np.sin(0.5)])
    for x, label in itertools.islice(figs.margin_stream(0.1, seed=3), 2000):
        assert x @ x <= 1.0
        assert label * (u @ x) >= 0.1
    with pytest.raises(ValueError):
        next(figs.margin_stream(0.0))


@pytest.mark.parametrize("rule", ["mistake", "positive"])
def test_draw_tie(rule):
    fig = figs.draw_tie(rule)
    assert isinstance(fig, Figure)
    run = figs.tie_run(rule)
    assert f"{run.mistakes} mistake" in figure_texts(fig)
