"""The smallest certificates of inseparability (:mod:`perceptron_core.certificates`).

Checked against Gordan's alternative as :func:`perceptron_core.separability` decides it (a
linear program whose answer is verified in fractions), against brute force over every subset of
small data sets, and on the Iris flowers whose recorded decimals carry a certificate that their
binary floats do not.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from perceptron_core import certificates as cert
from perceptron_core import iris_pair, logic_gate, separability


def test_recorded_values_are_the_decimals_the_floats_stand_for():
    X, _ = iris_pair("versicolor", "virginica")
    rec, flo = cert.recorded_values(X), cert.float_values(X)
    assert rec[0][0] == Fraction(70, 10) and flo[0][0] == Fraction(7.0)
    i = next(i for i, row in enumerate(X) if row[0] == 5.1)
    assert rec[i][0] == Fraction(51, 10) != flo[i][0] == Fraction(5.1)
    with pytest.raises(ValueError):
        cert.recorded_values(np.array([[0.123]]))


def test_carries_certificate_agrees_with_gordan_on_small_data():
    """A certificate on all the points exists exactly when the data are not separable."""
    rng = np.random.default_rng(5)
    X, y = logic_gate("xor")
    assert cert.carries_certificate(cert.float_values(X), y, range(4))
    X, y = logic_gate("and")
    assert not cert.carries_certificate(cert.float_values(X), y, range(4))
    assert cert.carries_certificate(cert.float_values(X), y, range(4), offset=False)
    for _ in range(60):
        n, d = int(rng.integers(2, 6)), int(rng.integers(1, 3))
        X = rng.integers(-2, 3, size=(n, d)).astype(float)
        y = rng.choice([-1.0, 1.0], size=n)
        for offset in (False, True):
            verdict = separability(X, y, offset=offset).separable
            assert cert.carries_certificate(cert.float_values(X), y, range(n), offset=offset) == (
                not verdict)


def test_near_certificates_find_the_smallest_certificates_on_small_data():
    """Against brute force: every subset, smallest first, checked exactly."""
    rng = np.random.default_rng(11)
    tried = 0
    while tried < 6:
        X = rng.integers(-2, 3, size=(7, 2)) + rng.normal(scale=0.01, size=(7, 2))
        X[0] = X[1]  # sometimes a duplicate point with the other label: a certificate of 2
        y = rng.choice([-1.0, 1.0], size=7)
        if separability(X, y, offset=True).separable:
            continue
        tried += 1
        vals = cert.float_values(X)
        for m in range(1, 8):
            smallest = [S for S in itertools.combinations(range(7), m)
                        if cert.carries_certificate(vals, y, S)]
            if smallest:
                break
        near = cert.near_certificates(X, y, max_size=m)
        assert all(len(S) == m for S in near)
        assert [S for S in near if cert.carries_certificate(vals, y, S)] == smallest


def test_exhaustive_small_certificates_agrees_with_brute_force():
    """The exhaustive exact search (determinants modulo primes, then fractions) finds exactly the
    smallest certificates that trying every subset finds, on eight versicolor and virginica
    flowers that include a recorded-decimal certificate on five of them and the repeated
    virginica rows 51 and 92."""
    X, y = iris_pair("versicolor", "virginica")
    sel = [14, 33, 56, 68, 83, 51, 92, 60]
    for vals, expect in ((cert.recorded_values(X[sel]), [(0, 1, 2, 3, 4)]),
                         (cert.float_values(X[sel]), [])):
        got = cert.exhaustive_small_certificates(vals, y[sel])
        brute: list[tuple[int, ...]] = []
        for k in range(1, 6):
            for T in itertools.combinations(range(len(sel)), k):
                if (not any(set(U) <= set(T) for U in brute)
                        and cert.carries_certificate(vals, y[sel], T)):
                    brute.append(T)
        assert got == brute == expect


def test_common_point_lies_in_both_hulls_or_cones():
    # With an offset the certificate's weights are half on each class, and 2·Σ₊λᵢxᵢ = 2·Σ₋λᵢxᵢ
    # is a convex combination of each class; without, Σ₊λᵢxᵢ = Σ₋λᵢxᵢ. Recomputed here from the
    # exact weights, in fractions.
    for offset in (True, False):
        X, y = iris_pair("versicolor", "virginica")
        if not offset:
            X, y = logic_gate("xor")
        sep = separability(X, y, offset=offset)
        assert sep.separable is False
        lam = sep.certificate_exact
        pos = [sum((l * Fraction(float(x[k])) for l, x, t in zip(lam, X, y) if t > 0), Fraction(0))
               for k in range(X.shape[1])]
        neg = [sum((l * Fraction(float(x[k])) for l, x, t in zip(lam, X, y) if t < 0), Fraction(0))
               for k in range(X.shape[1])]
        assert pos == neg
        if offset:
            assert sum(l for l, t in zip(lam, y) if t > 0) == Fraction(1, 2)
        expected = np.array([float((2 if offset else 1) * v) for v in pos])
        np.testing.assert_allclose(cert.common_point(X, y, sep), expected, rtol=1e-12, atol=1e-12)


def test_rounding_margin_bound_is_the_largest_rounding_error_of_the_points_rounded_up():
    X = np.array([[0.1, 0.2], [5.1, 3.3], [7.0, 1.0]])
    errs = [max(abs(Fraction(float(v)) - Fraction(round(10 * v), 10)) for v in row) for row in X]
    bound = cert.rounding_margin_bound(X, [0, 1])
    worst = max(sum((Fraction(float(v)) - Fraction(round(10 * v), 10)) ** 2 for v in X[i]) for i in (0, 1))
    assert Fraction(bound) ** 2 >= worst and bound < 2 * float(max(errs[:2])) + 1e-300
    assert cert.rounding_margin_bound(X, [2]) > 0  # whole numbers: exact, up to the two steps up


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: cert.common_point([[1.0]], [1.0], "verdict"), TypeError, "sep must be the verdict"),
    (lambda: cert.common_point(*logic_gate("and"), separability(*logic_gate("and"), offset=True)),
     ValueError, "carries no certificate"),
    (lambda: cert.common_point([[1.0]], [1.0], separability(*logic_gate("xor"), offset=True)),
     ValueError, "pass the X and y the verdict was made on"),
    (lambda: cert.float_values([[np.nan]]), ValueError, "X contains NaN"),
    (lambda: cert.recorded_values([[0.5]], decimals=-1), ValueError, "decimals must be a whole number"),
    (lambda: cert.recorded_values([[0.123]]), ValueError, "not all decimals with 1 places"),
    (lambda: cert.carries_certificate([[0.5]], [1.0], [0]), TypeError, "rows of fractions.Fraction"),
    (lambda: cert.carries_certificate(cert.float_values([[1.0]]), [1.0], [1]), ValueError,
     r"points must be distinct indices of data points, in 0\.\.0"),
    (lambda: cert.carries_certificate(cert.float_values([[1.0]]), [3.0], [0]), ValueError, "labels must be"),
    (lambda: cert.near_certificates([[1.0]], [1.0], max_size=0), ValueError, "max_size must be a positive"),
    (lambda: cert.near_certificates(*iris_pair("versicolor", "virginica"), max_size=6), ValueError,
     r"C\(100, 6\) = 1,192,052,400 sets, too many to search here"),
    (lambda: cert.rounding_margin_bound([[0.5]], []), ValueError, "at least one data point"),
    (lambda: cert.exhaustive_small_certificates([[Fraction(1)], [Fraction(2)]], [1.0]), ValueError,
     "X has 2 samples but y has 1 labels"),
])
def test_bad_input_gets_a_message_that_says_what_to_do(call, error, match):
    with pytest.raises(error, match=match):
        call()
