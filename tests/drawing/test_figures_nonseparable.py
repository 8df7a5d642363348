"""perceptron_core.figures.nonseparable: each figure states the run it is given."""

from __future__ import annotations

import warnings

import numpy as np

import perceptron_core as pc
from perceptron_core.bounds import best_gamma
from perceptron_core.figures import nonseparable as nf

from conftest import figure_texts


def test_draw_never_settles_states_the_cycle_and_the_epochs():
    X, y = pc.xor()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        run = pc.perceptron(X, y, offset=True, max_epochs=6, record=True)
    fig = nf.draw_never_settles(X, y, run, (0, 4), "XOR")
    text = figure_texts(fig)
    assert "XOR: state repeats every 4 mistakes" in text and "at least 4 per epoch, 24 in all" in text
    b = fig.axes[0].lines[-1].get_ydata()  # the offset after each mistake: ±1 steps back to 0
    assert b[3] == 0 and set(np.abs(np.diff(b))) == {1}


def test_draw_noise_states_the_run_and_its_bound():
    X, y, u = pc.planted(60, 3, 0.1, seed=0)
    y = pc.flip_labels(y, 0.1, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        run = pc.perceptron(X, y, max_epochs=3, record=True)
    best = [best_gamma(X, y, u, passes=p) for p in (1, 2, 3)]
    text = figure_texts(nf.draw_noise(run, 60, best, [0.1, 1.0], [50.0, 40.0], 0.1))
    assert f"noise 0.10: {run.mistakes} mistakes ≤ bound {best[-1].bound:.0f}" in text
