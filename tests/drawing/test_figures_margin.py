"""perceptron_core.figures.margin: each frame states the margin of the line it draws."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import max_margin, min_norm_point
from perceptron_core.figures import margin as mf

from conftest import figure_texts

X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -2.5]])
Y = np.array([1.0, 1.0, -1.0])
OPT = max_margin(X, Y)


@pytest.mark.parametrize("angle", [0, 45, 90, 225])
def test_the_turning_separator_states_its_margin(angle):
    m = float(np.min(Y * (X @ [np.cos(np.radians(angle)), np.sin(np.radians(angle))])))
    text = figure_texts(mf.draw_turning_separator(X, Y, OPT, angle))
    assert f"θ = {angle}°: margin {m:.3f}" in text
    assert ("not a separator" in text) == (m <= 0)
    theta = np.degrees(np.arctan2(OPT.w[1], OPT.w[0])) % 360
    assert f"at θ = {theta:.0f}°" in text


def test_the_hull_figure_states_both_bounds():
    p = min_norm_point(Y[:, None] * X)[0]
    text = figure_texts(mf.draw_hull_bounds(X, Y, OPT.gamma, p, 45))
    m = float(np.min(Y * (X @ [np.cos(np.pi / 4), np.sin(np.pi / 4)])))
    assert f"m(u) = {m:.3f}  ≤  γ*  ≤  ‖p*‖ = {np.linalg.norm(p):.3f}" in text
