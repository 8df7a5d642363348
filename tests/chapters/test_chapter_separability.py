"""The claims of the chapter "Linear separability" (book/separability.ipynb): every concrete
statement the page makes about its data (gates, Iris, clouds), checked in exact arithmetic, by
hand-made certificates or by the runs themselves.

Gordan's alternative itself (never both, always one) is property-tested with the core."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from perceptron_core import (Separability, augment, dataset_margin, flip_labels, gaussian_clouds,
                             iris_pair, logic_gate, max_margin, min_norm_point, separability)
from perceptron_core.certificates import carries_certificate, near_certificates

GATES = ["and", "or", "nand", "nor", "xor"]
DISTANCES = np.arange(0.0, 6.01, 0.5).round(1).tolist()


def combination(X, y, lam) -> list[Fraction]:
    """Σ λᵢ yᵢ xᵢ in exact rational arithmetic (independent of the package)."""
    return [sum(Fraction(l) * int(yi) * Fraction(float(x[k])) for l, yi, x in zip(lam, y, X))
            for k in range(X.shape[1])]


def test_the_gates():
    """None separable through the origin ((0,0) alone is a certificate); AND, OR, NAND, NOR with
    an offset, as with the constant feature; XOR not: λ = 1/4 each; XOR with x1·x2 is."""
    for gate in GATES:
        X, y = logic_gate(gate)
        assert separability(X, y).separable is False
        assert Separability(False, None, None, np.array([1.0, 0, 0, 0]), False).verify(X, y)
        assert separability(X, y, offset=True).separable == separability(augment(X), y).separable == (gate != "xor")
    X, y = logic_gate("xor")
    assert combination(X, y, [Fraction(1, 4)] * 4) == [0, 0] and np.sum(y) == 0
    X3 = np.column_stack([X, X[:, 0] * X[:, 1]])
    assert separability(X3, y, offset=True).separable


def test_and_certificates_are_the_segment_one_minus_3q_q_q_q():
    X, y = logic_gate("and")
    assert np.array_equal(X, [[0, 0], [0, 1], [1, 0], [1, 1]])
    for q in (Fraction(0), Fraction(1, 5), Fraction(1, 3)):
        assert combination(X, y, [1 - 3 * q, q, q, q]) == [0, 0]
    assert combination(X, y, [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4), 0]) != [0, 0]
    lam = separability(X, y).certificate
    np.testing.assert_allclose(lam, [1 - 3 * lam[3], lam[3], lam[3], lam[3]], atol=1e-9)
    assert separability(X[1:], y[1:]).separable is False  # still without (0, 0)
    assert np.all(y * (X @ [1.0, 1.0] - 1.5) > 0)  # the line x1 + x2 = 3/2


def test_iris():
    """Setosa/versicolor petals: a witness, strict in exact arithmetic; versicolor/virginica: a
    certificate on flowers of both species whose exact sums are 1, 0 and (0, 0), even with all
    four measurements; a flower recorded with both labels; p* of Gordan's proof has |p*| = γ*."""
    X, y = iris_pair("setosa", "versicolor", features=(2, 3))
    s = separability(X, y, offset=True)
    w, b = [Fraction(float(v)) for v in s.w], Fraction(float(s.b))
    assert all(yi * (w[0] * Fraction(x[0]) + w[1] * Fraction(x[1]) + b) > 0 for x, yi in zip(X, y))
    X, y = iris_pair("versicolor", "virginica", features=(2, 3))
    lam = separability(X, y, offset=True).certificate_exact
    used = [i for i, v in enumerate(lam) if v > 0]
    assert min(lam) >= 0 and sum(lam) == 1 and sum(l * int(v) for l, v in zip(lam, y)) == 0
    assert combination(X, y, lam) == [0, 0] and {1, -1} <= set(y[used])
    assert separability(*iris_pair("versicolor", "virginica"), offset=True).separable is False
    i, j = next((i, j) for i in np.flatnonzero(y > 0) for j in np.flatnonzero(y < 0)
                if np.array_equal(X[i], X[j]))
    assert combination(X, y, [Fraction(1, 2) if k in (i, j) else 0 for k in range(len(y))]) == [0, 0]
    X, y = iris_pair("setosa", "versicolor")
    p, _ = min_norm_point(y[:, None] * X)
    assert np.min((y[:, None] * X) @ p) >= (p @ p) * (1 - 1e-9)
    assert np.linalg.norm(p) == pytest.approx(max_margin(X, y).gamma, rel=1e-9)


def test_setosa_and_versicolor_petals_through_the_origin():
    """Exercise sep-ex-origin: not separable; the certificate uses both species and their common
    point a = Σ₊ λᵢxᵢ = Σ₋ λᵢxᵢ is not 0 (every measurement is positive)."""
    X, y = iris_pair("setosa", "versicolor", features=(2, 3))
    s = separability(X, y)
    lam = np.asarray(s.certificate_exact, dtype=object)
    assert s.separable is False and combination(X, y, lam) == [0, 0] and np.all(X > 0)
    assert {1, -1} <= set(y[[i for i, v in enumerate(lam) if v > 0]])


def test_reading_a_certificate_by_hand():
    """Exercise sep-ex-read: λ = (1/4, 1/8, 1/8, 1/2, 0) is a certificate whose common point is
    x₄; removing x₂, x₃ or x₄ separates (by the lines the solution names), removing x₁ or x₅
    does not, and (0, 1/4, 1/4, 3/8, 1/8) is a certificate without x₁."""
    X = np.array([[0, 0], [4, 0], [0, 4], [1, 1], [5, 5]], float)
    y = np.array([1, 1, 1, -1, -1], float)
    F = Fraction
    for lam in ([F(1, 4), F(1, 8), F(1, 8), F(1, 2), 0], [0, F(1, 4), F(1, 4), F(3, 8), F(1, 8)]):
        assert sum(lam) == 1 and sum(l * int(v) for l, v in zip(lam, y)) == 0
        assert combination(X, y, lam) == [0, 0]
    lines = {3: ([-1, -1], 6), 1: ([-1, 0], 0.5), 2: ([0, -1], 0.5)}  # w, b with w·x + b
    for k in range(5):
        keep = np.arange(5) != k
        assert separability(X[keep], y[keep], offset=True).separable is (k in lines)
        if k in lines:
            assert np.all(y[keep] * (X[keep] @ lines[k][0] + lines[k][1]) > 0)


def test_the_smallest_certificates_of_the_four_measurements():
    """The search lists 3 sets of 5 flowers (Carathéodory allows 6; the solver's uses 6). None is
    a certificate for the floats, all are for the recorded decimals; the floats of each set are
    separable, by a margin below the largest rounding error of a flower, itself below 1e-15 cm."""
    X, y = iris_pair("versicolor", "virginica")
    s4 = separability(X, y, offset=True)
    assert sum(v > 0 for v in s4.certificate_exact) == X.shape[1] + 2 == 6
    near = near_certificates(X, y, max_size=5)
    held = [[Fraction(v) for v in row] for row in X]
    recorded = [[Fraction(round(v * 10), 10) for v in row] for row in X]  # tenths of a cm
    assert len(near) == 3 and all(len(S) == 5 for S in near)
    for S in map(list, near):
        assert carries_certificate(recorded, y, S) and not carries_certificate(held, y, S)
        sub = separability(X[S], y[S], offset=True)
        assert sub.separable is True and sub.verify(X[S], y[S])
        error = max(np.linalg.norm([float(a - b) for a, b in zip(held[i], recorded[i])]) for i in S)
        unit = sub.w / np.linalg.norm(sub.w)
        assert dataset_margin(X[S], y[S], unit, sub.b / np.linalg.norm(sub.w)) <= error < 1e-15


def clouds(d, q):
    X, clean = gaussian_clouds(20, d, seed=0)
    y = flip_labels(clean, q, seed=1)
    return X, y, np.flatnonzero(y != clean), separability(X, y, offset=True)


def test_watching_separability_break():
    """Without noise separable from 6.0 down to a first distance and not below it, the witness's
    smallest margin shrinking; 1 and more flipped labels (the same points at every distance) make the data
    inseparable at every distance; where the clean clouds separate, every certificate uses a
    flipped point; at distance 0 the unflipped points are inseparable among themselves."""
    clean = [clouds(d, 0.0)[3].separable for d in DISTANCES]
    first = clean.index(True)
    assert all(clean[first:]) and first > 0
    margins = []
    for d in DISTANCES[first:]:
        X, y, _, sep = clouds(d, 0.0)
        norm = np.linalg.norm(sep.w)
        margins.append(dataset_margin(X, y, sep.w / norm, sep.b / norm))
    assert all(0 < a < b for a, b in zip(margins, margins[1:]))
    for q, flips in ((0.025, 1), (0.1, 4)):
        assert {tuple(clouds(d, q)[2]) for d in DISTANCES} == {tuple(clouds(0.0, q)[2])}
        assert len(clouds(0.0, q)[2]) == flips
        for d in DISTANCES:
            X, y, flipped, sep = clouds(d, q)
            assert sep.separable is False and sep.verify(X, y)
            if clean[DISTANCES.index(d)]:
                assert set(flipped) & {i for i, v in enumerate(sep.certificate_exact) if v > 0}
        X, y, flipped, _ = clouds(0.0, q)
        keep = np.setdiff1d(np.arange(len(y)), flipped)
        own = separability(X[keep], y[keep], offset=True)
        exact = [Fraction(0)] * len(y)
        for i, v in zip(keep, own.certificate_exact):
            exact[i] = v
        lam = np.zeros(len(y))
        lam[keep] = own.certificate
        assert dataclasses.replace(own, certificate=lam, certificate_exact=exact).verify(X, y)


@pytest.mark.parametrize("seed", range(10))
def test_moving_the_hyperplane_away_from_its_points_separates_them(seed):
    """Under the CS229 rule (a positive point may lie on the hyperplane) raising b by less than
    the smallest |score| of a negative point separates strictly."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(12, 2)).astype(float)
    w, b = rng.integers(-3, 4, size=2).astype(float), float(rng.integers(-3, 4))
    if not np.any(w):
        return
    y = np.where(X @ w + b >= 0, 1.0, -1.0)  # correct under the CS229 rule
    neg = np.abs((X @ w + b)[y < 0])
    shift = (neg.min() if len(neg) else 1.0) / 2
    assert np.all(y * (X @ w + b + shift) > 0)
