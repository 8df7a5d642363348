"""The claims of the chapter "Margin" (book/margin.ipynb) about its data and in its exercises,
checked by brute force, scikit-learn's SVC, or finite differences of the margin curve."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.svm import SVC

from perceptron_core import (
    dataset_margin,
    margins,
    max_margin,
    min_norm_point,
    novikoff_bound,
    perceptron,
    planted,
    radius,
    separability,
)
from perceptron_core.geometry import peak, separator_arc



def margin_data():
    """The chapter's data, made as its first cell makes them."""
    X, y, _ = planted(14, 2, 0.15, 1.0, seed=1)
    w = max_margin(X, y).w
    turn = np.radians(60) - np.arctan2(w[1], w[0])
    return X @ np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]]), y


def unit(angle):
    return np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])


def test_hull_figure_line_touches_the_circle_only_at_the_optimum():
    # The prose: at theta_opt the line z.u = m(u) passes through p* at right angles, so it is
    # tangent to the circle of radius gamma*; at the one other separating grid angle it cuts the
    # circle (0 < m < gamma*); elsewhere m <= 0. Recomputed here from the points, not the module.
    X, y = margin_data()
    Z = y[:, None] * X
    p, _ = min_norm_point(Z)
    g = float(np.linalg.norm(p))
    touch, cut, none = [], [], []
    for angle in range(0, 331, 30):
        a = np.radians(angle)
        u = np.array([np.cos(a), np.sin(a)])
        m = float(np.min(Z @ u))
        foot = m * u  # the point of the line nearest to the origin, at distance |m|
        if abs(abs(m) - g) <= 1e-9:
            touch.append(angle)
            assert np.allclose(foot, p, atol=1e-9)  # it touches at p*
        elif 0 < m < g:
            cut.append(angle)
        else:
            assert m <= 0 and abs(m) != pytest.approx(g)
            none.append(angle)
    assert touch == [60] and cut == [90] and len(none) == 10


def _brute_force_margin(Z, offset_labels=None, steps=36_000):
    """max over unit u (and over b, when labels are given) of min_i margin, on an angle grid.

    Without an offset: min_i z_i.u. With one: for a fixed u the best b puts the line midway
    between the classes' extreme projections, so the margin is half the gap between them.
    """
    a = np.linspace(0, 2 * np.pi, steps, endpoint=False)
    U = np.stack([np.cos(a), np.sin(a)])
    if offset_labels is None:
        return float(np.max(np.min(Z @ U, axis=0)))
    s = Z @ U  # here Z holds the raw points x_i
    pos, neg = s[offset_labels > 0], s[offset_labels < 0]
    return float(np.max((pos.min(axis=0) - neg.max(axis=0)) / 2))


def test_hull_distance_equals_gamma_star_only_for_separable_data():
    # The summary's condition: gamma* is the distance from 0 to the hull of the y_i x_i only
    # when the data are separable through the origin. The chapter's example: z = +-e1, +-e2.
    Z = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    p, _ = min_norm_point(Z)
    assert np.linalg.norm(p) == pytest.approx(0.0, abs=1e-12)  # 0 is in the hull
    assert _brute_force_margin(Z) == pytest.approx(-1 / np.sqrt(2), abs=1e-6)
    assert not separability(Z, np.ones(4)).separable
    # On the chapter's (separable) data the two agree, as the theorem says.
    X, y = margin_data()
    Zc = y[:, None] * X
    assert _brute_force_margin(Zc) == pytest.approx(np.linalg.norm(min_norm_point(Zc)[0]),
                                                    abs=1e-6)


def test_half_hull_distance_equals_gamma_star_b_only_for_separable_data():
    # The remark on the offset: gamma*_b is half the distance between the classes' hulls when
    # they do not meet. XOR: the hulls (the two diagonals of the square) cross, so their
    # distance is 0, while gamma*_b = -1/(2 sqrt 2) < 0.
    X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    assert not separability(X, y, offset=True).separable
    assert _brute_force_margin(X, y) == pytest.approx(-1 / (2 * np.sqrt(2)), abs=1e-6)
    # Separable with an offset: half the distance between the hulls (here the segments
    # [0, 1] x {0} and [2, 3] x {0}) is the maximum margin.
    X2 = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
    assert _brute_force_margin(X2, y) == pytest.approx(0.5, abs=1e-6)
    assert max_margin(X2, y, offset=True).gamma == pytest.approx(0.5, abs=1e-9)


def test_candidate_w_separates_and_scaling_keeps_the_geometric_margin():
    X, y = margin_data()
    w = np.array([1.0, 2.0])
    assert np.all(margins(X, y, w) > 0)
    for c in (3.0, 0.1):
        np.testing.assert_allclose(margins(X, y, c * w), margins(X, y, w), rtol=1e-12)
        assert np.min(y * (X @ (c * w))) == pytest.approx(c * np.min(y * (X @ w)))


def test_scaling_the_data_scales_R_and_gamma_star_together():
    X, y = margin_data()
    g, R = max_margin(X, y).gamma, radius(X)
    assert max_margin(5 * X, y).gamma == pytest.approx(5 * g, rel=1e-9)
    assert radius(5 * X) == pytest.approx(5 * R)


def test_the_bound_on_the_chapter_data_allows_a_whole_number_of_mistakes():
    # The prose: (R/gamma*)^2 is shown with one decimal, and the bound allows at most its
    # floor mistakes. The floor is decided by the certified interval of gamma*, so no rounding
    # of gamma* can move it, and the run stays within it.
    X, y = margin_data()
    opt, R = max_margin(X, y), radius(X)
    R_sq = max(float(x @ x) for x in X)
    ends = [R_sq / opt.gamma_high**2, R_sq / opt.gamma_low**2]  # the bound lies between
    floor = math.floor(novikoff_bound(R, opt.gamma))
    assert math.floor(ends[0]) == math.floor(ends[1]) == floor
    assert ends[0] - floor > 1e-6 and floor + 1 - ends[1] > 1e-6
    shown = novikoff_bound(R, opt.gamma) * 10  # one decimal
    assert abs(shown - math.floor(shown) - 0.5) > 1e-6
    assert perceptron(X, y).mistakes <= floor < novikoff_bound(R, opt.gamma)


def test_support_points_through_origin_are_both_positive_and_with_offset_both_classes():
    X, y = margin_data()
    opt, opt_b = max_margin(X, y), max_margin(X, y, offset=True)
    assert len(opt.support) == 2 and np.all(y[opt.support] == 1)
    assert set(y[opt_b.support]) == {-1.0, 1.0}
    assert opt_b.gamma > opt.gamma


def test_certified_interval_from_the_hull():
    X, y = margin_data()
    Z = y[:, None] * X
    opt = max_margin(X, y)
    p, lam = min_norm_point(Z)
    assert np.all(lam >= 0) and lam.sum() == pytest.approx(1.0)
    low, high = np.min(Z @ opt.w), np.linalg.norm(lam @ Z)
    assert low <= high and high - low < 1e-12
    assert f"{low:.6f}" == f"{high:.6f}"  # "the two ends agree in every printed digit"
    assert opt.gamma_low <= opt.gamma_high
    # Every grid angle is a lower bound (weak duality), the optimum is attained at THETA_STAR.
    for a in range(0, 360, 5):
        assert float(np.min(y * (X @ unit(a)))) <= high + 1e-12


def test_svc_on_mirrored_data_matches_gamma_star_without_offset():
    X, y = margin_data()
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(np.vstack([X, -X]), np.r_[y, -y])
    g = max_margin(X, y)
    assert 1 / np.linalg.norm(svm.coef_) == pytest.approx(g.gamma, abs=5e-7)
    assert f"{1 / np.linalg.norm(svm.coef_):.6f}" == f"{g.gamma:.6f}"  # as printed
    assert abs(svm.intercept_[0]) < 1e-6
    assert np.linalg.norm(svm.coef_) == pytest.approx(g.B, rel=1e-5)


def test_svc_with_offset_matches_max_margin_with_offset():
    X, y = margin_data()
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    g_b = max_margin(X, y, offset=True).gamma
    assert 1 / np.linalg.norm(svm.coef_) == pytest.approx(g_b, abs=5e-7)
    assert f"{1 / np.linalg.norm(svm.coef_):.6f}" == f"{g_b:.6f}"  # as printed


def test_mirroring_only_costs_the_offset():
    # Proposition mgn-prop-mirror: margin of (w, b) on mirrored data = margin of (w, 0) - |b|/||w||.
    X, y = margin_data()
    X2, y2 = np.vstack([X, -X]), np.r_[y, -y]
    rng = np.random.default_rng(0)
    for _ in range(20):
        w, b = rng.standard_normal(2), rng.standard_normal()
        assert dataset_margin(X2, y2, w, b) == pytest.approx(
            dataset_margin(X, y, w) - abs(b) / np.linalg.norm(w), abs=1e-12)


def test_exercise_adding_a_point():
    X, y = margin_data()
    opt = max_margin(X, y)
    far, near = np.array([0.3, 0.8]), np.array([0.3, -0.1])
    assert far @ opt.w >= opt.gamma and near @ opt.w < opt.gamma
    assert max_margin(np.vstack([X, far]), np.r_[y, 1.0]).gamma == pytest.approx(opt.gamma, rel=1e-12)
    assert max_margin(np.vstack([X, near]), np.r_[y, 1.0]).gamma < opt.gamma


def test_exercise_translation():
    X, y = margin_data()
    g, g_b = max_margin(X, y).gamma, max_margin(X, y, offset=True).gamma
    up = max_margin(X + np.array([-0.1, 0.1]), y).gamma
    down = max_margin(X + np.array([0.2, 0.2]), y).gamma
    assert up > g > down > 0
    # "a large enough shift (0.5, 0.5) puts 0 into the hull": decided, and certified by Gordan
    far = separability(X + np.array([0.5, 0.5]), y)
    assert far.separable is False and far.verify(X + np.array([0.5, 0.5]), y)
    for t in ([-0.1, 0.1], [0.2, 0.2]):
        assert separability(X + np.array(t), y).separable is True
    for t in ([-0.1, 0.1], [0.2, 0.2], [0.5, 0.5]):
        assert max_margin(X + np.array(t), y, offset=True).gamma == pytest.approx(g_b, rel=1e-9)


def _curve(Z: np.ndarray, theta_deg: np.ndarray) -> np.ndarray:
    """The margin curve min_i z_i . u_theta, computed directly (independent of the package)."""
    a = np.radians(theta_deg)
    return np.min(Z @ np.stack([np.cos(a), np.sin(a)]), axis=0)


def test_chapter_peak_is_a_corner_of_two_positive_points():
    # prose: "On this chapter's data the peak is a corner", 2 closest points, both positive
    X, y = margin_data()
    top = peak(X, y, degrees=True)
    assert top.kind == "corner"
    np.testing.assert_array_equal(top.active, max_margin(X, y).support)
    assert len(top.active) == 2 and np.all(y[top.active] > 0)
    assert top.theta == pytest.approx(60, abs=1e-9)
    # the slopes peak reports (the smooth-peak exercise reads them) are the curve's one-sided
    # derivatives (finite differences, h = 1e-6 rad)
    Z, h = y[:, None] * X, 1e-6
    t = np.array([top.theta - np.degrees(h), top.theta, top.theta + np.degrees(h)])
    c = _curve(Z, t)
    assert (c[1] - c[0]) / h == pytest.approx(top.left_slope, abs=1e-5)
    assert (c[2] - c[1]) / h == pytest.approx(top.right_slope, abs=1e-5)


def test_smooth_peak_example_of_the_exercise():
    X, y = np.array([[1.0, 0.0], [2.0, 1.0], [2.0, -1.0]]), np.ones(3)
    top = peak(X, y, degrees=True)
    assert top.kind == "smooth" and top.active.tolist() == [0]
    assert top.theta == pytest.approx(0.0, abs=1e-9) and top.gamma == pytest.approx(1.0)
    # near the top the curve is cos(theta): second order, no kink
    h = 1e-4
    c = _curve(X, np.degrees(np.array([-h, 0.0, h])))
    assert abs(c[0] - c[1]) < h * 1e-3 and abs(c[2] - c[1]) < h * 1e-3


def test_chapter_separator_arc():
    X, y = margin_data()
    lo, hi = separator_arc(X, y, degrees=True)
    assert lo < 60 < hi
    # the glued ends are shown rounded to whole degrees: not on a rounding boundary
    for end in (lo, hi, hi - lo):
        assert abs(end - round(end) - 0.5) > 0.01 and abs(end - round(end) + 0.5) > 0.01


@settings(max_examples=60)
@given(n=st.integers(2, 20), ratio=st.floats(0.1, 0.9), seed=st.integers(0, 2**31 - 1),
       point=st.lists(st.floats(-1, 1), min_size=2, max_size=2))
def test_adding_a_point_keeps_or_lowers_gamma_star(n, ratio, seed, point):
    # exercise mgn-ex-add: gamma* stays iff y u*.x >= gamma*, else it strictly decreases.
    # Reference for the new gamma*: a linear SVM on the mirrored data (independent solver).
    X, y, _ = planted(n, 2, ratio, 1.0, seed=seed)
    opt = max_margin(X, y)
    x = np.array(point)
    proj = float(opt.w @ x)
    # too close to the band's edge, or to the origin, for a floating-point solver to tell
    if abs(proj - opt.gamma) < 1e-3 or np.linalg.norm(x) < 0.1:
        return
    X1, y1 = np.vstack([X, x]), np.r_[y, 1.0]
    if separability(X1, y1).separable is not True:
        assert proj < opt.gamma
        return
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(np.vstack([X1, -X1]), np.r_[y1, -y1])
    g_new = 1 / np.linalg.norm(svm.coef_)
    if proj >= opt.gamma:
        assert g_new == pytest.approx(opt.gamma, rel=1e-4)
    else:
        assert g_new < opt.gamma * (1 - 1e-6)
