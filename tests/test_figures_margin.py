"""Tests of the chapter "Margin": its figures, and the claims its prose makes about its data."""

from __future__ import annotations

import time

import numpy as np
import pytest
from matplotlib.figure import Figure
from sklearn.svm import SVC

from perceptron_core import (
    dataset_margin,
    margins,
    max_margin,
    min_norm_point,
    novikoff_bound,
    orthonormal_worst_case,
    perceptron,
    radius,
    uml_bound,
    unnormalized_bound,
)
from perceptron_core.figures import margin as fig


def _grid(spec: tuple) -> list[int]:
    start, stop, step = spec[:3]
    return list(range(start, stop + 1, step))


def _titles(f: Figure) -> str:
    return " | ".join(ax.get_title() for ax in f.axes)


# --- the data set -------------------------------------------------------------------------------


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


# --- the figures --------------------------------------------------------------------------------


@pytest.mark.parametrize("draw, spec", [(fig.draw_turning_separator, fig.ANGLE_GRID),
                                        (fig.draw_hull_bounds, fig.HULL_ANGLE_GRID)])
def test_draw_returns_a_figure_on_the_corners_of_its_grid(draw, spec):
    grid = _grid(spec)
    assert len(grid) <= 40 and spec[3] in grid
    for angle in (grid[0], grid[-1], spec[3], int(fig.THETA_STAR)):
        f = draw(angle=angle)
        assert isinstance(f, Figure)
        assert f"θ = {angle}°" in _titles(f)


@pytest.mark.parametrize("angle", _grid(fig.ANGLE_GRID))
def test_displayed_margin_and_verdict_agree_with_the_package(angle):
    X, y = fig.margin_data()
    m = dataset_margin(X, y, fig.unit(angle))
    assert fig.margin_at(angle) == pytest.approx(m, abs=1e-12)
    title = _titles(fig.draw_turning_separator(angle=angle))
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
    title = _titles(fig.draw_hull_bounds(angle=angle))
    assert f"m(u) = {m:.3f}" in title and f"‖p*‖ = {np.linalg.norm(p):.3f}" in title
    assert m <= np.linalg.norm(p) + 1e-12


@pytest.mark.parametrize("name, draw, params", fig.BENCH_CASES)
def test_draws_are_fast(name, draw, params):
    draw(**params)  # warm the caches
    start = time.perf_counter()
    draw(**params)
    # The budget is 100 ms on the build machine; leave room for a loaded CI runner.
    assert time.perf_counter() - start < 0.5, name


# --- claims in the prose ------------------------------------------------------------------------


def test_candidate_w_separates_and_scaling_keeps_the_geometric_margin():
    X, y = fig.margin_data()
    w = np.array([1.0, 2.0])
    assert np.all(margins(X, y, w) > 0)
    for c in (3.0, 0.1):
        np.testing.assert_allclose(margins(X, y, c * w), margins(X, y, w), rtol=1e-12)
        assert np.min(y * (X @ (c * w))) == pytest.approx(c * np.min(y * (X @ w)))


def test_scaling_the_data_scales_R_and_gamma_star_together():
    X, y = fig.margin_data()
    g, R = max_margin(X, y).gamma, radius(X)
    assert max_margin(5 * X, y).gamma == pytest.approx(5 * g, rel=1e-9)
    assert radius(5 * X) == pytest.approx(5 * R)


def test_perceptron_stays_within_the_bound_on_the_chapter_data():
    X, y = fig.margin_data()
    run = perceptron(X, y)
    assert run.converged and run.mistakes <= novikoff_bound(radius(X), max_margin(X, y).gamma)


def test_support_points_through_origin_are_both_positive_and_with_offset_both_classes():
    X, y = fig.margin_data()
    opt, opt_b = max_margin(X, y), max_margin(X, y, offset=True)
    assert len(opt.support) == 2 and np.all(y[opt.support] == 1)
    assert set(y[opt_b.support]) == {-1.0, 1.0}
    assert opt_b.gamma > opt.gamma


def test_certified_interval_from_the_hull():
    X, y = fig.margin_data()
    Z = y[:, None] * X
    opt = max_margin(X, y)
    p, lam = min_norm_point(Z)
    assert np.all(lam >= 0) and lam.sum() == pytest.approx(1.0)
    low, high = np.min(Z @ opt.w), np.linalg.norm(lam @ Z)
    assert low <= high and high - low < 1e-12
    assert opt.gamma_low <= opt.gamma_high
    # Every grid angle is a lower bound (weak duality), the optimum is attained at THETA_STAR.
    for a in range(0, 360, 5):
        assert fig.margin_at(a) <= high + 1e-12


def test_svc_on_mirrored_data_matches_gamma_star_without_offset():
    X, y = fig.margin_data()
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(np.vstack([X, -X]), np.r_[y, -y])
    g = max_margin(X, y)
    assert 1 / np.linalg.norm(svm.coef_) == pytest.approx(g.gamma, abs=5e-7)
    assert abs(svm.intercept_[0]) < 1e-6
    assert np.linalg.norm(svm.coef_) == pytest.approx(g.B, rel=1e-5)


def test_svc_with_offset_matches_max_margin_with_offset():
    X, y = fig.margin_data()
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    assert 1 / np.linalg.norm(svm.coef_) == pytest.approx(max_margin(X, y, offset=True).gamma, abs=5e-7)


def test_mirroring_only_costs_the_offset():
    # Proposition mgn-prop-mirror: margin of (w, b) on mirrored data = margin of (w, 0) - |b|/||w||.
    X, y = fig.margin_data()
    X2, y2 = np.vstack([X, -X]), np.r_[y, -y]
    rng = np.random.default_rng(0)
    for _ in range(20):
        w, b = rng.standard_normal(2), rng.standard_normal()
        assert dataset_margin(X2, y2, w, b) == pytest.approx(
            dataset_margin(X, y, w) - abs(b) / np.linalg.norm(w), abs=1e-12)


def test_the_conventions_give_the_same_bound():
    X, y = fig.margin_data()
    opt, R = max_margin(X, y), radius(X)
    w_star = 3.0 * opt.w
    eps = np.min(y * (X @ w_star))
    assert eps == pytest.approx(3 * opt.gamma)
    assert np.min(np.abs(X @ opt.w)) == pytest.approx(opt.gamma, rel=1e-12)
    target = novikoff_bound(R, opt.gamma)
    assert uml_bound(R, opt.B) == pytest.approx(target, rel=1e-12)
    assert unnormalized_bound(R, w_star, eps) == pytest.approx(target, rel=1e-12)


# --- claims in the exercises' solutions ---------------------------------------------------------


def test_exercise_adding_a_point():
    X, y = fig.margin_data()
    opt = max_margin(X, y)
    far, near = np.array([0.3, 0.8]), np.array([0.3, -0.1])
    assert far @ opt.w >= opt.gamma and near @ opt.w < opt.gamma
    assert max_margin(np.vstack([X, far]), np.r_[y, 1.0]).gamma == pytest.approx(opt.gamma, rel=1e-12)
    assert max_margin(np.vstack([X, near]), np.r_[y, 1.0]).gamma < opt.gamma


@pytest.mark.parametrize("n", [2, 5, 10])
def test_exercise_orthonormal(n):
    X, y = orthonormal_worst_case(n)
    assert radius(X) == pytest.approx(1.0)
    assert max_margin(X, y).gamma == pytest.approx(1 / np.sqrt(n), rel=1e-12)
    assert perceptron(X, y).mistakes == n


def test_exercise_translation():
    X, y = fig.margin_data()
    g, g_b = max_margin(X, y).gamma, max_margin(X, y, offset=True).gamma
    up = max_margin(X + np.array([-0.1, 0.1]), y).gamma
    down = max_margin(X + np.array([0.2, 0.2]), y).gamma
    assert up > g > down > 0
    with pytest.raises(ValueError):
        max_margin(X + np.array([0.5, 0.5]), y)
    for t in ([-0.1, 0.1], [0.2, 0.2], [0.5, 0.5]):
        assert max_margin(X + np.array(t), y, offset=True).gamma == pytest.approx(g_b, rel=1e-9)
