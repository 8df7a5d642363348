"""perceptron_core.figures.offset: a frame states the run and the bound it is given."""

from __future__ import annotations

import numpy as np

from perceptron_core.figures import offset as of

from conftest import figure_texts


def test_a_frame_states_its_numbers_and_the_limits_hold_every_frame():
    X = np.array([[3.0, 1.0], [4.0, 2.0], [1.0, 3.0]])
    runs = {1.0: (7, np.array([1.0, -1.0]), 0.5), 4.0: (3, np.array([1.0, -1.0]), 1.0)}
    frames = {0.0: dict(X=X, y=np.array([1.0, 1.0, -1.0]), R=5.0, gamma=0.5,
                        u=np.array([0.6, -0.8]), b=1.8, runs=runs)}
    (lo, hi), (y0, y1) = limits = of.frame_limits(frames)
    assert lo < 1.0 and hi > 4.0 and y0 < 3 and y1 > ((5 + 1.8) / 0.5) ** 2
    text = figure_texts(of.draw_shift_and_constant(frames, limits, 0.0, 4.0))
    assert "made 3 mistakes" in text and "at best c = 3.00: 185" in text
    assert f"bound at c = 4: {(25 + 16) * (1 + 1.8**2 / 16) / 0.25:.0f}" in text
    e = of.shift_and_constant(frames)  # the sliders are the frames' own shifts and constants
    assert e.params == {"shift": (0.0, 0.0, 1.0), "c": [1.0, 4.0]}
    assert "made 7 mistakes" in e.alt(shift=0.0, c=1.0)
