"""The certified geometry at every scale the package accepts: data multiplied by 2**k, from
subnormal to huge. (Runs are plain floats: at 1e-181 their products underflow, as floats do.)

Multiplying data by a power of two is exact (no bit of an integer-valued entry is lost from
2**-1074 up to the float maximum), and the theory says how each result moves: the margins and
the maximum margin γ* are times 2**k, the radius too, separability does not change, and a
margin does not change when only w is scaled. Each test checks that against the run on the unscaled data and
against exact rational arithmetic (fractions.Fraction), which has no scale at all.

Before these tests, norms computed as the square root of a sum of squares underflowed: for data
near 1e-180, ``radius`` returned 0.0, ``max_margin`` raised a bare OverflowError, and
``margins(X, y, w)`` returned infinities for ``w = [8.1e-306, 8.1e-306]``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import perceptron_core as pc

from conftest import small_labelled_data
from conftest import examples

EPS = 2.0**-52
SUB = 2.0**-1074  # the smallest positive float

# k from the subnormal range (2**-1074 times a small integer is exact) to entries near the
# largest the validators accept for these small data sets (4 * 2**500 ≈ 1.3e151).
SHIFTS = st.integers(-1074, 500)
SHIFTS_NORMAL_RESULT = st.integers(-1000, 500)  # results (margins, radii) stay normal floats


def int_data(max_n: int = 7):
    """Small integer data (entries -4..4) with both labels possible, as float arrays."""
    return small_labelled_data(max_n=max_n, top=4)


def F(v) -> Fraction:
    return Fraction(float(v))


def fsqrt(q: Fraction) -> Fraction:
    """√q to about 1e-16 relative, as a fraction, for any positive q (no float underflow)."""
    j = (q.numerator.bit_length() - q.denominator.bit_length()) // 2
    return Fraction(math.sqrt(float(q / Fraction(4) ** j))) * Fraction(2) ** j


def exact_margins(X, y, w, b=0.0) -> list[Fraction]:
    norm = fsqrt(sum(F(a) ** 2 for a in w))
    return [F(yi) * (sum(F(a) * F(c) for a, c in zip(x, w)) + F(b)) / norm for x, yi in zip(X, y)]


def assert_margins_right(got, X, y, w, b=0.0):
    """Each computed margin is within the rounding of a dot product of the exact one."""
    norm = fsqrt(sum(F(a) ** 2 for a in w))
    for gi, ex, x in zip(got, exact_margins(X, y, w, b), X):
        scale = (sum(abs(F(a) * F(c)) for a, c in zip(x, w)) + abs(F(b))) / norm
        tol = 8 * (len(w) + 2) * Fraction(EPS) * scale + 4 * (len(w) + 1) * Fraction(SUB)
        assert math.isfinite(gi) and abs(F(gi) - ex) <= tol, (gi, float(ex))


# ------------------------------------------------------------------------ geometry


@settings(max_examples=examples(60))
@given(int_data(), st.lists(st.integers(-4, 4), min_size=3, max_size=3), st.integers(-4, 4), SHIFTS, SHIFTS)
@example(  # hypothesis's find: w = [8.1e-306, 8.1e-306] gave [inf, inf, -inf]
    (np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -2.0]]), np.array([1.0, -1.0, 1.0])), [8, 8, 0], 0, 0, -1015
)
def test_margins_at_every_scale(data, w_int, b_int, kx, kw):
    X, y = data
    d = X.shape[1]
    w = np.ldexp(np.array(w_int[:d], float), kw)
    assume(np.any(w))
    Xk = np.ldexp(X, kx)
    kb = kx + kw  # b has the units of w·x
    b = math.ldexp(b_int, kb) if -1074 <= kb <= 900 else 0.0
    got = pc.margins(Xk, y, w, b)
    assert_margins_right(got, Xk, y, w, b)
    assert pc.dataset_margin(Xk, y, w, b) == float(np.min(got))


@settings(max_examples=examples(40))
@given(int_data(), SHIFTS)
def test_margins_do_not_change_when_w_and_b_are_scaled(data, k):
    X, y = data
    w = np.arange(1.0, X.shape[1] + 1)
    want = pc.margins(X, y, w, 1.0)
    np.testing.assert_allclose(pc.margins(X, y, np.ldexp(w, k), math.ldexp(1.0, k)), want, rtol=1e-14)


def test_margins_beyond_the_float_range_are_refused():
    with pytest.raises(ValueError, match=r"margins .* exceed the float range"):
        pc.margins([[1.0, 0.0]], [1.0], [1e-300, 0.0], 1e10)
    # ... but a large b/‖w‖ that is a float is returned.
    assert pc.margins([[1.0, 0.0]], [1.0], [1e-300, 0.0], 1.0)[0] == pytest.approx(1e300, rel=1e-15)


@settings(max_examples=examples(60))
@given(int_data(), SHIFTS)
@example((np.array([[2.0, 1.0], [1.0, 3.0], [3.0, -1.0], [-2.0, -1.0], [-1.0, -2.0], [-3.0, 1.0]]), np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])), -600)  # radius was 0.0
@example((np.array([[2.0, 1.0], [1.0, 3.0], [3.0, -1.0], [-2.0, -1.0], [-1.0, -2.0], [-3.0, 1.0]]), np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])), -1030)
def test_radius_at_every_scale(data, k):
    X, _ = data
    Xk = np.ldexp(X, k)
    R = pc.radius(Xk)
    R_sq = max(sum(F(a) ** 2 for a in x) for x in Xk)
    assert abs(F(R) - fsqrt(R_sq)) <= 4 * Fraction(EPS) * fsqrt(R_sq) + Fraction(SUB) if R_sq else R == 0.0
    if -1000 <= k:
        assert R == math.ldexp(pc.radius(X), k)


@settings(max_examples=examples(40))
@given(int_data(max_n=6), SHIFTS_NORMAL_RESULT)
@example((np.array([[2.0, 1.0], [1.0, 3.0], [3.0, -1.0], [-2.0, -1.0], [-1.0, -2.0], [-3.0, 1.0]]), np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])), -600)  # the point was off by 20%
def test_min_norm_point_at_every_scale(data, k):
    X, y = data
    Z = y[:, None] * X
    point, weights = pc.min_norm_point(Z)
    point_k, weights_k = pc.min_norm_point(np.ldexp(Z, k))
    R = pc.radius(Z)
    np.testing.assert_allclose(weights_k, weights, atol=1e-9)
    np.testing.assert_allclose(np.ldexp(point_k, -k), point, atol=1e-12 * max(R, 1.0))


def _certified_below(m: pc.geometry.MaxMargin, X, y) -> bool:
    """The returned (w, b) has margin at least gamma_low on (X, y), in exact arithmetic."""
    low = min(F(yi) * (sum(F(a) * F(c) for a, c in zip(x, m.w)) + F(m.b)) for x, yi in zip(X, y))
    norm_sq = sum(F(a) ** 2 for a in m.w)
    return low > 0 and low * low >= F(m.gamma_low) ** 2 * norm_sq


@settings(max_examples=examples(40))
@given(int_data(), st.booleans(), SHIFTS)
@example((np.array([[2.0, 1.0], [1.0, 3.0], [3.0, -1.0], [-2.0, -1.0], [-1.0, -2.0], [-3.0, 1.0]]), np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])), False, -600)  # raised a bare OverflowError
@example((np.array([[2.0, 1.0], [1.0, 3.0], [3.0, -1.0], [-2.0, -1.0], [-1.0, -2.0], [-3.0, 1.0]]), np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])), True, -1030)
def test_max_margin_at_every_scale(data, offset, k):
    X, y = data
    Xk = np.ldexp(X, k)
    try:
        base = pc.max_margin(X, y, offset=offset)
    except ValueError as exc:
        with pytest.raises(ValueError) as scaled:
            pc.max_margin(Xk, y, offset=offset)
        if "not linearly separable" in str(exc):
            assert "not linearly separable" in str(scaled.value)
        return
    try:
        m = pc.max_margin(Xk, y, offset=offset)
    except ValueError as exc:  # only when γ* itself is below the smallest float
        assert "below the smallest positive float" in str(exc) and math.ldexp(base.gamma_high, k) < 2 * SUB
        return
    scale = Fraction(2) ** k
    # Both intervals hold γ* (of their data), so they overlap once scaled; the scaled run is the
    # same computation, so its interval is as narrow (but for rounding into subnormal floats).
    assert F(m.gamma_low) <= F(base.gamma_high) * scale and F(base.gamma_low) * scale <= F(m.gamma_high)
    width = (base.gamma_high - base.gamma_low) / base.gamma_high
    assert 0 < m.gamma_low <= m.gamma_high <= m.gamma_low * (1 + 2 * width + 1e-12) + 4 * SUB
    assert _certified_below(m, Xk, y)


@settings(max_examples=examples(40))
@given(int_data(), st.booleans(), SHIFTS)
def test_separability_at_every_scale(data, offset, k):
    X, y = data
    Xk = np.ldexp(X, k)
    base, scaled = pc.separability(X, y, offset=offset), pc.separability(Xk, y, offset=offset)
    assert base.separable is not None and scaled.separable == base.separable
    assert scaled.verify(Xk, y)
    if scaled.separable:  # the exact witness, checked here without the package
        theta = list(scaled.w_exact) + [scaled.b_exact]
        assert all(F(yi) * (sum(F(a) * t for a, t in zip(x, theta)) + theta[-1]) > 0 for x, yi in zip(Xk, y))


@settings(max_examples=examples(30))
@given(st.integers(1, 4), st.integers(-1074, -200))
def test_max_margin_and_separability_when_the_margin_is_far_below_the_data(j, e):
    # Points (1, ±t) labelled ±1: γ* = t, however small next to the entries 1.
    t = math.ldexp(j, e)
    X, y = np.array([[1.0, t], [1.0, -t]]), np.array([1.0, -1.0])
    m = pc.max_margin(X, y)
    assert m.gamma_low <= t <= m.gamma_high and _certified_below(m, X, y)
    assert pc.separability(X, y).separable is True


def test_a_max_margin_below_the_smallest_float_is_refused_with_the_reason():
    u = SUB  # γ* of [[u, u], [u, 0]], y = (1, -1), is u/√5 < the smallest float
    with pytest.raises(ValueError, match="below the smallest positive float"):
        pc.max_margin([[u, u], [u, 0.0]], [1.0, -1.0])
    with pytest.raises(ValueError, match=r"B = 1/gamma .* overflows"):
        pc.max_margin(np.ldexp([[2.0, 1.0], [1.0, 3.0]], -1030), [1.0, 1.0]).B
