"""perceptron_core.figures.margin: the chapter's data, and its two figures over their slider grids."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptron_core import dataset_margin, margins, max_margin, min_norm_point, radius
from perceptron_core.figures import margin as fig

from conftest import axes_titles


def _grid(spec: tuple) -> list[int]:
    start, stop, step = spec[:3]
    return list(range(start, stop + 1, step))


def test_data_is_rotated_so_the_optimum_is_on_the_slider_grid():
    X, y = fig.margin_data()
    opt = max_margin(X, y)
    assert X.shape == (14, 2) and set(np.unique(y)) == {-1.0, 1.0}
    np.testing.assert_allclose(opt.w, fig.unit(fig.THETA_STAR), atol=1e-12)
    assert fig.THETA_STAR in _grid(fig.ANGLE_GRID) and fig.THETA_STAR in _grid(fig.HULL_ANGLE_GRID)
    assert radius(X) == pytest.approx(1.0, abs=1e-12)


def test_data_is_read_only():
    X, y = fig.margin_data()
    with pytest.raises(ValueError):
        X[0, 0] = 5.0
    with pytest.raises(ValueError):
        y[0] = -y[0]


@pytest.mark.parametrize("draw, spec", [(fig.draw_turning_separator, fig.ANGLE_GRID),
                                        (fig.draw_hull_bounds, fig.HULL_ANGLE_GRID)])
def test_draw_returns_a_figure_on_the_corners_of_its_grid(draw, spec):
    grid = _grid(spec)
    assert len(grid) <= 40 and spec[3] in grid
    for angle in (grid[0], grid[-1], spec[3], int(fig.THETA_STAR)):
        f = draw(angle=angle)
        assert isinstance(f, Figure)
        assert f"θ = {angle}°" in axes_titles(f)


@pytest.mark.parametrize("angle", _grid(fig.ANGLE_GRID))
def test_displayed_margin_and_verdict_agree_with_the_package(angle):
    X, y = fig.margin_data()
    m = dataset_margin(X, y, fig.unit(angle))
    assert fig.margin_at(angle) == pytest.approx(m, abs=1e-12)
    title = axes_titles(fig.draw_turning_separator(angle=angle))
    assert f"margin {m:.3f}" in title
    g = max_margin(X, y).gamma
    if m <= 0:
        assert "not a separator" in title
    elif angle == fig.THETA_STAR:
        assert "= γ*: the maximum" in title
    else:
        assert f"< γ* = {g:.3f}" in title and m < g


def test_ringed_points_are_the_support_points_at_the_optimum():
    X, y = fig.margin_data()
    np.testing.assert_array_equal(fig.closest_points(fig.THETA_STAR), max_margin(X, y).support)
    for angle in _grid(fig.ANGLE_GRID):
        idx = fig.closest_points(angle)
        assert np.all(margins(X, y, fig.unit(angle))[idx] == pytest.approx(fig.margin_at(angle)))


def test_only_the_optimal_grid_angle_reaches_gamma_star():
    reached = [a for a in _grid(fig.ANGLE_GRID) if "the maximum" in fig.verdict(a)]
    assert reached == [int(fig.THETA_STAR)]


@pytest.mark.parametrize("angle", _grid(fig.HULL_ANGLE_GRID))
def test_hull_figure_shows_both_bounds(angle):
    X, y = fig.margin_data()
    p, _ = min_norm_point(y[:, None] * X)
    m = dataset_margin(X, y, fig.unit(angle))
    title = axes_titles(fig.draw_hull_bounds(angle=angle))
    assert f"m(u) = {m:.3f}" in title and f"‖p*‖ = {np.linalg.norm(p):.3f}" in title
    assert m <= np.linalg.norm(p) + 1e-12
