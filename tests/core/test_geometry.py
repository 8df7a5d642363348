"""Verdicts on tiny margins are exact: witnesses, certificates and margin intervals.

Every check here is done by the test itself in rational arithmetic (``Fraction`` of a float is
exact), not by asking the package whether its own evidence is good.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perceptron_core as pc
from perceptron_core import max_margin, planted
from perceptron_core.geometry import Separability, peak, separator_arc

from conftest import small_labelled_data
from conftest import examples


def exact_rows(X, y, offset=False):
    """The vectors zᵢ = yᵢ xᵢ (or yᵢ (xᵢ, 1)) as tuples of fractions."""
    rows = []
    for x, label in zip(np.asarray(X, float), np.asarray(y, float)):
        z = [Fraction(float(v)) * int(label) for v in x]
        rows.append(tuple(z + ([Fraction(int(label))] if offset else [])))
    return rows


def exact_witness_holds(X, y, verdict):
    theta = list(verdict.w_exact) + ([verdict.b_exact] if verdict.offset else [])
    return all(sum(a * b for a, b in zip(z, theta)) > 0 for z in exact_rows(X, y, verdict.offset))


def exact_certificate_holds(X, y, verdict):
    lam = verdict.certificate_exact
    rows = exact_rows(X, y, verdict.offset)
    return (
        len(lam) == len(rows)
        and all(isinstance(v, Fraction) and v >= 0 for v in lam)
        and sum(lam) == 1
        and all(sum(l * z[j] for l, z in zip(lam, rows)) == 0 for j in range(len(rows[0])))
    )


def exact_margin_lower_bound_holds(X, y, mm):
    """mm.gamma_low <= the margin of (mm.w, mm.b), checked as gamma_low² ‖w‖² <= m² with m > 0."""
    theta = [Fraction(float(v)) for v in mm.w] + ([Fraction(mm.b)] if mm.offset else [])
    m = min(sum(a * b for a, b in zip(z, theta)) for z in exact_rows(X, y, mm.offset))
    norm_sq = sum(v * v for v in theta[: len(mm.w)])
    low = Fraction(mm.gamma_low)
    return m > 0 and low > 0 and low * low * norm_sq <= m * m


def wedge_gamma_sq(k):
    """γ*² of narrow_wedge(k), independently: the nearest point of the segment [z₁, z₂] to 0."""
    z1 = (Fraction(1), Fraction(1))
    z2 = (-(1 - Fraction(1, 2**k)), Fraction(-1))
    dz = (z1[0] - z2[0], z1[1] - z2[1])
    t = -(z2[0] * dz[0] + z2[1] * dz[1]) / (dz[0] ** 2 + dz[1] ** 2)
    t = min(max(t, Fraction(0)), Fraction(1))
    p = (z2[0] + t * dz[0], z2[1] + t * dz[1])
    return p[0] ** 2 + p[1] ** 2


# --- the narrow wedge: a margin of order 2^-k -----------------------------------------------


@pytest.mark.parametrize("s", [0, -1000, -600, -300, 400])
@pytest.mark.parametrize("k", [1, 10, 20, 29, 30, 31, 35, 40, 45, 48, 50])
def test_narrow_wedge_is_certified_at_every_scale(k, s):
    # γ*(2ˢX) = 2ˢγ*(X): the interval must hold 2ˢ·γ*, checked against the independent γ*².
    X, y = pc.narrow_wedge(k)
    Xs = np.ldexp(X, s)
    verdict = pc.separability(Xs, y)
    assert verdict.separable is True and exact_witness_holds(Xs, y, verdict) and verdict.verify(Xs, y)
    mm = pc.max_margin(Xs, y)
    g2 = wedge_gamma_sq(k) * Fraction(4) ** s
    assert exact_margin_lower_bound_holds(Xs, y, mm)
    assert Fraction(mm.gamma_low) ** 2 <= g2 <= Fraction(mm.gamma_high) ** 2
    # The interval is not just valid but informative: within a factor 2 even at k = 50.
    assert mm.gamma_high <= 2 * mm.gamma_low
    if mm.gamma_sq_exact is not None:
        assert mm.gamma_sq_exact == g2


@pytest.mark.parametrize("k", [51, 52])
def test_narrow_wedge_beyond_float_resolution_is_never_called_inseparable(k):
    X, y = pc.narrow_wedge(k)
    verdict = pc.separability(X, y)
    assert verdict.separable is True and exact_witness_holds(X, y, verdict) and verdict.verify(X, y)
    try:
        mm = pc.max_margin(X, y)
    except ValueError as err:
        assert "not linearly separable" not in str(err) and "undecided" in str(err)
    else:
        assert exact_margin_lower_bound_holds(X, y, mm)
        assert Fraction(mm.gamma_high) ** 2 >= wedge_gamma_sq(k)


def test_a_wrong_certificate_is_rejected():
    # The old verdict on narrow_wedge(30): λ = (½, ½). Σλᵢyᵢxᵢ = (2⁻³¹, 0) ≠ 0, so it proves nothing.
    X, y = pc.narrow_wedge(30)
    assert not Separability(False, None, None, np.array([0.5, 0.5]), False).verify(X, y)
    # A witness must separate strictly: w = (1, -1) meets the point (1, 1) at a margin of exactly 0.
    assert not Separability(True, np.array([1.0, -1.0]), 0.0, None, False).verify(X, y)
    assert Separability(True, np.array([1.0, -1.0 + 2.0**-40]), 0.0, None, False).verify(X, y)


# --- planted data pinned to a tiny margin ----------------------------------------------------


def pinned(n, d, gamma, seed):
    """planted data plus the mirror image of its point at margin γ: then γ* = γ exactly (in reals)."""
    X, y, u = pc.planted(n, d, gamma, seed=seed)
    # x₀ has u·x₀ = γ; its mirror x₀ − 2γu, labelled −1, has the same margin, and the midpoint of
    # y₀x₀ and −(x₀ − 2γu) is γu: a point of the hull of norm γ, so no direction does better.
    return np.vstack([X, X[0] - 2 * gamma * u]), np.r_[y, -1.0], u


@settings(max_examples=examples(25))
@given(st.integers(3, 30), st.integers(2, 5), st.sampled_from([1e-6, 1e-9]), st.integers(0, 10**6))
def test_tiny_planted_margin_is_certified(n, d, gamma, seed):
    X, y, u = pinned(n, d, gamma, seed)
    verdict = pc.separability(X, y)
    assert verdict.separable is True
    assert exact_witness_holds(X, y, verdict)
    mm = pc.max_margin(X, y)
    assert exact_margin_lower_bound_holds(X, y, mm)
    # Independent upper bound: the exact midpoint of the pinned pair lies in the hull of {yᵢxᵢ}.
    z = exact_rows(X[[0, -1]], y[[0, -1]])
    mid_sq = sum(((a + b) / 2) ** 2 for a, b in zip(*z))
    assert Fraction(mm.gamma_low) ** 2 <= mid_sq
    assert mm.gamma_low >= gamma * (1 - 1e-6)  # u itself has margin γ, up to the data's rounding
    assert mm.gamma_high <= gamma * (1 + 1e-6)


# --- inseparable data whose certificate needs exact arithmetic -----------------------------


def thin_triangle(e):
    """z₁ = 3(1, 2⁻ᵉ), z₂ = 6(1, −2⁻ᵉ), z₃ = −2(2, 0): (⅓, ⅙, ½) is the only certificate."""
    X = np.array([[3.0, 3 * 2.0**-e], [6.0, -6 * 2.0**-e], [4.0, 0.0]])
    return X, np.array([1.0, 1.0, -1.0])


@pytest.mark.parametrize("e, s", [(0, 0), (20, 0), (40, 0), (60, 0), (20, -1050), (20, -600),
                                  (20, 400)])
def test_certificate_with_thirds_is_exact_at_every_scale(e, s):
    X, y = thin_triangle(e)
    X = np.ldexp(X, s)  # exact: the smallest entry, 3·2⁻²⁰⁺ˢ, is still a multiple of 2⁻¹⁰⁷⁴
    verdict = pc.separability(X, y)
    assert verdict.separable is False
    assert exact_certificate_holds(X, y, verdict)
    assert verdict.certificate_exact == (Fraction(1, 3), Fraction(1, 6), Fraction(1, 2))
    assert verdict.verify(X, y)
    # The float weights are not a certificate: 1/3 is not a float, and verify is exact.
    assert not Separability(False, None, None, np.array([1 / 3, 1 / 6, 1 / 2]), False).verify(X, y)
    with pytest.raises(ValueError, match="not linearly separable"):
        pc.max_margin(X, y)


@pytest.mark.parametrize("e", [0, 20, 40])
def test_crossing_segments_certificate_with_offset_is_exact(e):
    # Positive segment (0,0)–(3,0), negative segment (1, 2⁻ᵉ)–(1, −2^(1−e)): they cross at (1, 0),
    # at a third of the way along each, so the certificate is (⅓, ⅙, ⅓, ⅙).
    X = np.array([[0.0, 0.0], [3.0, 0.0], [1.0, 2.0**-e], [1.0, -(2.0 ** (1 - e))]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    verdict = pc.separability(X, y, offset=True)
    assert verdict.separable is False
    assert exact_certificate_holds(X, y, verdict)
    assert verdict.certificate_exact == (Fraction(1, 3), Fraction(1, 6), Fraction(1, 3), Fraction(1, 6))


@settings(max_examples=examples(60))
@given(st.integers(2, 8), st.integers(1, 3), st.integers(0, 10**6), st.booleans(), st.integers(10, 45))
def test_random_near_degenerate_verdicts_are_exact(n, d, seed, offset, e):
    # Random points squeezed to a slab of width 2⁻ᵉ around a hyperplane, random labels: the
    # verdict (either way) must come with evidence that holds exactly, or say it is undecided.
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X[:, -1] *= 2.0**-e
    y = rng.choice([-1.0, 1.0], size=n)
    verdict = pc.separability(X, y, offset=offset)
    if verdict.separable is True:
        assert exact_witness_holds(X, y, verdict)
    elif verdict.separable is False:
        assert exact_certificate_holds(X, y, verdict)
    else:
        assert verdict.reason
    assert verdict.separable is not None  # on data this small, exact search always decides


def test_undecided_is_said_not_guessed():
    # With no exact search allowed beyond the LPs, tiny margins would be undecided, never wrong.
    X, y = pc.narrow_wedge(50)
    verdict = pc.separability(X, y, max_iter=0)
    assert verdict.separable in (True, None)
    if verdict.separable is None:
        assert "undecided" in verdict.reason and not verdict.verify(X, y)


# --- every scale the validators accept: the same verdicts, scaled exactly --------------------


@given(small_labelled_data(), st.booleans(), st.integers(-1074, 500))
def test_every_verdict_on_small_data_checks_out_exactly_at_every_scale(data, offset, k):
    # The package's verify() is not the judge here: the test redoes the check in fractions.
    X, y = data
    plain = pc.separability(X, y, offset=offset)
    assert plain.separable is not None
    if plain.separable:
        assert np.all(y * (X @ plain.w + plain.b) > 0)  # the float witness too, on integers
    else:
        assert np.allclose(plain.certificate, [float(v) for v in plain.certificate_exact])
    Xk = np.ldexp(X, k)  # exact: integers times a power of two, subnormal to huge
    for data_k, verdict in ((X, plain), (Xk, pc.separability(Xk, y, offset=offset))):
        assert verdict.separable == plain.separable
        if verdict.separable:
            assert exact_witness_holds(data_k, y, verdict)
        else:
            assert exact_certificate_holds(data_k, y, verdict)


@settings(max_examples=examples(100))
@given(st.integers(1, 2**60), st.integers(1, 2**60), st.integers(-2300, 2000))
def test_sqrt_up_is_the_least_float_upper_bound_at_every_scale(a, b, e):
    # _sqrt_up(q) once took a step per float from √fl(q) = 0 up to √q for q below 1e-308.
    from perceptron_core.geometry import _sqrt_up

    q = Fraction(a, b) * Fraction(2) ** e
    s = _sqrt_up(q)
    assert Fraction(s) ** 2 >= q
    below = np.nextafter(s, 0.0)
    assert s == 0.0 or Fraction(float(below)) ** 2 < q or below == 0.0


# ---------------------------------------------------------------------------------------------
# Data in the plane: the arc of separators through the origin, and the peak of the margin curve
# ---------------------------------------------------------------------------------------------


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 25), st.integers(0, 2**31 - 1), st.floats(-4.0, 4.0), st.floats(0.0, 4.0))
def test_separator_arc_is_where_every_margin_is_positive(n, seed, rotation, spread):
    # The y_i x_i at angles in [rotation, rotation + spread] (any place on the circle, across ±π
    # too), at random lengths: a brute force over a fine grid of directions knows nothing of arcs.
    rng = np.random.default_rng(seed)
    phi = rotation + spread * rng.uniform(0.0, 1.0, n)
    y = rng.choice([-1.0, 1.0], size=n)
    Z = rng.uniform(0.1, 2.0, n)[:, None] * np.column_stack([np.cos(phi), np.sin(phi)])
    X = y[:, None] * Z
    width = float(np.ptp(phi))
    if width >= math.pi - 1e-9:
        if width > math.pi + 1e-9:
            with pytest.raises(ValueError, match="half turn"):
                separator_arc(X, y)
        return
    lo, hi = separator_arc(X, y)
    assert hi - lo == pytest.approx(math.pi - width, abs=1e-9)
    assert -math.pi < (lo + hi) / 2 <= math.pi
    deg = separator_arc(X, y, degrees=True)
    assert deg == pytest.approx((math.degrees(lo), math.degrees(hi)), rel=1e-12, abs=1e-12)
    theta = np.linspace(-2 * math.pi, 2 * math.pi, 20_001)
    near_end = np.minimum(np.abs((theta - lo + math.pi) % (2 * math.pi) - math.pi),
                          np.abs((theta - hi + math.pi) % (2 * math.pi) - math.pi)) < 1e-9
    separates = np.min(Z @ np.stack([np.cos(theta), np.sin(theta)]), axis=0) > 0
    inside = (theta - lo) % (2 * math.pi) < hi - lo
    np.testing.assert_array_equal(separates[~near_end], inside[~near_end])


@pytest.mark.parametrize(("X", "y", "match", "error"), [
    ([[1.0, 0.0], [-1.0, 0.0]], [1.0, 1.0], "half turn", ValueError),
    ([[1.0, 0.0], [0.0, 0.0]], [1.0, -1.0], "is the origin", ValueError),
    ([[1.0, 0.0, 0.0]], [1.0], "points in the plane", ValueError),
    ([[1.0, 0.0]], [2.0], "labels must be", ValueError),
])
def test_separator_arc_says_why_there_is_none(X, y, match, error):
    with pytest.raises(error, match=match):
        separator_arc(X, y)


def test_separator_arc_of_points_on_both_sides_of_the_cut_at_pi():
    # y_i x_i at 170° and -170°: the arc of separators is around 180°, and its midpoint is π.
    a = math.radians(170.0)
    Z = np.array([[math.cos(a), math.sin(a)], [math.cos(a), -math.sin(a)]])
    lo, hi = separator_arc(Z, np.ones(2))
    assert (lo, hi) == pytest.approx((math.radians(100.0), math.radians(260.0)), abs=1e-12)
    assert (lo + hi) / 2 == pytest.approx(math.pi)


def test_peak_in_radians_and_degrees_and_its_two_shapes():
    # One closest point, (1, 0): a smooth peak at 0 with height 1. Two closest points on both
    # sides of the optimum: a corner, with one rising and one falling slope.
    smooth = peak([[1.0, 0.0], [2.0, 1.0], [2.0, -1.0]], np.ones(3))
    assert smooth.kind == "smooth" and smooth.active.tolist() == [0]
    assert smooth.theta == pytest.approx(0.0, abs=1e-9) and smooth.gamma == pytest.approx(1.0)
    corner = peak([[1.0, 1.0], [1.0, -1.0]], np.ones(2))
    assert corner.kind == "corner" and corner.active.tolist() == [0, 1]
    assert corner.theta == pytest.approx(0.0, abs=1e-9) and corner.gamma == pytest.approx(1.0)
    assert corner.left_slope == pytest.approx(1.0) and corner.right_slope == pytest.approx(-1.0)
    turned = peak([[0.0, 1.0], [1.0, 2.0], [-1.0, 2.0]], np.ones(3))
    assert turned.theta == pytest.approx(math.pi / 2)
    assert peak([[0.0, 1.0], [1.0, 2.0], [-1.0, 2.0]], np.ones(3), degrees=True).theta == pytest.approx(90.0)
    with pytest.raises(ValueError, match="points in the plane"):
        peak(np.eye(3), np.ones(3))
    with pytest.raises(ValueError, match="tol must be finite and > 0"):
        peak([[1.0, 0.0]], [1.0], tol=0.0)


def _curve(Z: np.ndarray, theta_deg: np.ndarray) -> np.ndarray:
    """The margin curve min_i z_i . u_theta, computed directly (independent of the package)."""
    a = np.radians(theta_deg)
    return np.min(Z @ np.stack([np.cos(a), np.sin(a)]), axis=0)


@settings(max_examples=examples(150))
@given(n=st.integers(1, 25), ratio=st.floats(0.05, 0.9), seed=st.integers(0, 2**31 - 1))
def test_peak_shape_matches_finite_differences(n, ratio, seed):
    # Theorem of the section "Turning a separator": at theta* the curve is a smooth maximum when
    # one point alone is closest (then u* points at it and gamma* = |z|), and a corner when the
    # closest points lie on both sides of u*. Checked against finite differences of the curve.
    X, y, _ = planted(n, 2, ratio, 1.0, seed=seed)
    top = peak(X, y, degrees=True)
    Z = y[:, None] * X
    h = 1e-5
    c = _curve(Z, np.array([top.theta - np.degrees(h), top.theta, top.theta + np.degrees(h)]))
    left, right = (c[1] - c[0]) / h, (c[2] - c[1]) / h
    # theta* is a maximum of the curve: it does not rise on either side
    assert left >= -1e-4 and right <= 1e-4
    assert left == pytest.approx(top.left_slope, abs=1e-4)
    assert right == pytest.approx(top.right_slope, abs=1e-4)
    if top.kind == "smooth":
        assert len(top.active) == 1
        assert top.gamma == pytest.approx(np.linalg.norm(Z[top.active[0]]), rel=1e-9)
    elif top.kind == "corner":
        assert len(top.active) >= 2 and left > 0 > right
        side = Z[top.active] @ np.array([-np.sin(np.radians(top.theta)),
                                         np.cos(np.radians(top.theta))])
        assert side.max() > 0 > side.min()


@settings(max_examples=examples(100))
@given(n=st.integers(2, 30), d=st.integers(1, 4), ratio=st.floats(0.05, 0.9),
       shift=st.floats(-2.0, 2.0), seed=st.integers(0, 2**31 - 1))
def test_support_points_with_an_offset_come_from_both_classes(n, d, ratio, shift, seed):
    # prose (section on the SVM): with an offset and both labels present, the support points of
    # the maximum-margin separator always include both classes. Reference: the margins of the
    # returned (w, b) recomputed here, and the closest point of each class.
    X0, y, _ = planted(n, d, ratio, 1.0, seed=seed)
    if len(set(y)) < 2:
        return
    X = X0 + shift
    opt = max_margin(X, y, offset=True)
    m = y * (X @ opt.w + opt.b) / np.linalg.norm(opt.w)
    closest_pos, closest_neg = m[y > 0].min(), m[y < 0].min()
    # both classes reach the minimum: the line sits halfway between the two class hulls
    assert closest_pos == pytest.approx(closest_neg, rel=1e-6, abs=1e-9)
    assert set(y[opt.support]) == {-1.0, 1.0}


def test_max_margin_matches_the_hard_margin_svc():
    """scikit-learn's SVC as an independent oracle, with an offset and (on mirrored data, whose
    optimal offset is 0) through the origin."""
    from sklearn.svm import SVC

    for X, y in [pc.iris_pair("setosa", "versicolor"), pc.iris_pair("setosa", "virginica", (2, 3)),
                 pc.planted(40, 2, 0.2, 1.0, seed=5)[:2], pc.logic_gate("and"), pc.logic_gate("or")]:
        svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
        mm = pc.max_margin(X, y, offset=True)
        assert abs(mm.gamma - 1 / np.linalg.norm(svc.coef_[0])) <= 1e-6
        assert np.allclose(mm.w, svc.coef_[0] / np.linalg.norm(svc.coef_[0]), atol=1e-5)
    for seed in range(3):
        X, y, _ = pc.planted(30, 3, 0.15, 1.0, seed=seed)
        svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(np.vstack([X, -X]), np.r_[y, -y])
        assert abs(pc.max_margin(X, y).gamma - 1 / np.linalg.norm(svc.coef_[0])) <= 1e-6
