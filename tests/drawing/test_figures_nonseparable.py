"""perceptron_core.figures.nonseparable: its two figures over the corners of their grids, every
frame of the noise figure within its bound, and the helpers they draw from."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from matplotlib.figure import Figure

import perceptron_core as pc
from perceptron_core.figures import nonseparable as nf


# The slider grids of the chapter (book/nonseparable.ipynb); the tests draw their corners.
GRIDS = {
    nf.draw_never_settles: {"data": list(nf.NEVER_SETTLES_DATA)},
    nf.draw_noise: {"rate": [0.0, 0.2], "seed": [0, 2]},
}


# Runs that stop at their cap are what these tests read; the warning is tested in core/.
pytestmark = pytest.mark.usefixtures("no_convergence_warnings")


def _corners():
    for draw, grid in GRIDS.items():
        for values in itertools.product(*grid.values()):
            yield draw, dict(zip(grid, values))


@pytest.mark.parametrize(("draw", "params"), list(_corners()), ids=lambda v: getattr(v, "__name__", str(v)))
def test_draw_returns_figure_on_grid_corners(draw, params):
    fig = draw(**params)
    assert isinstance(fig, Figure)
    assert len(fig.axes) == 2


def test_alt_texts_fill_in():
    assert "0.1" in nf.NOISE_ALT.format(rate=0.1, seed=0)
    assert "XOR" in nf.NEVER_SETTLES_ALT.format(data="XOR")


def test_drift_reads_the_end_of_each_epoch():
    X, y = pc.xor()
    res = pc.perceptron(X, y, offset=True, max_epochs=3, record=True)
    rows = nf.drift(res, (1, 2, 3))
    # XOR returns to w = 0, b = 0 after every sweep.
    assert [(r["epoch"], r["b"], r["norm_w"]) for r in rows] == [(1, 0.0, 0.0), (2, 0.0, 0.0),
                                                                  (3, 0.0, 0.0)]
    with pytest.raises(ValueError, match="record=True"):
        nf.drift(pc.perceptron(X, y, max_epochs=2), (1,))


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: nf.never_settles_run("AND"), ValueError, "XOR"),
        (lambda: nf.ways_out("mnist"), ValueError, "planted"),
    ],
)
def test_bad_input_to_the_helpers(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_noise_run_is_bounded_on_every_slider_frame():
    for rate in np.round(np.arange(0.0, 0.201, 0.02), 2):
        for seed in (0, 1, 2):
            r = nf.noise_run(float(rate), seed)
            X, y, u = nf.noise_data(float(rate), seed)
            assert np.sum(y != pc.planted(nf.NOISE_N, nf.NOISE_D, nf.NOISE_GAMMA, seed=seed)[1]) == round(rate * 200)
            # After each pass p the mistakes so far are within the bound for p passes.
            for p, (after, best) in enumerate(zip(r["after_pass"], r["best"]), start=1):
                assert best.passes == p
                assert after <= best.bound
                direct = pc.perceptron(X, y, max_epochs=p).mistakes
                assert after == direct
