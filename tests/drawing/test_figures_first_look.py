"""perceptron_core.figures.first_look: its figure and its slider grid."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

import perceptron_core as pc
from perceptron_core.figures import first_look
from perceptron_core.figures.first_look import draw_trained, trained


@pytest.mark.parametrize("gamma", [0.05, 0.5])
@pytest.mark.parametrize("seed", [0, 2])
def test_draw_trained_shows_the_run(gamma, seed):
    fig = draw_trained(gamma, seed)
    assert isinstance(fig, Figure)
    X, y, u, res, bound = trained(gamma, seed)
    assert f"{res.mistakes} mistakes" in fig.axes[0].get_title()
    assert res.converged and res.mistakes <= bound
    assert np.isclose(pc.dataset_margin(X, y, u), gamma)


def test_slider_values_are_the_ones_explore_offers():
    lo, hi, step = first_look.GAMMAS
    expected = [round(lo + i * step, 6) for i in range(int(round((hi - lo) / step)) + 1)]
    assert first_look.slider_gammas() == expected
    assert expected[0] == 0.05 and expected[-1] == 0.5 and len(expected) == 10
