"""Public checks of the exercise of the chapter "Separability": ``separable`` and ``is_certificate``."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from . import A, Case, Exercise
from .. import data, geometry


def _separable(X: np.ndarray, y: np.ndarray) -> bool:
    verdict = geometry.separability(X, y).separable
    if verdict is None:  # never for the check's cases, which are chosen to be decidable
        raise RuntimeError("the reference could not decide this case")
    return bool(verdict)


def _is_certificate(X: np.ndarray, y: np.ndarray, lam: np.ndarray) -> bool:
    # Gordan's alternative as the chapter states it, exactly for the floats as given (every
    # float is a fraction): λ ≥ 0, Σλ = 1 and Σ λᵢyᵢxᵢ = 0. An independent restatement, not the
    # package's Separability.verify.
    lam_q = [Fraction(float(v)) for v in lam]
    if any(v < 0 for v in lam_q) or sum(lam_q) != 1:
        return False
    return all(sum(l * Fraction(float(yi)) * Fraction(float(xi[j])) for l, yi, xi in zip(lam_q, y, X)) == 0
               for j in range(X.shape[1]))


def _separable_cases() -> list[Case]:
    return [
        Case("one point", (A([[1, 2]]), A([-1])), "A single non-zero point is separated by w = y x."),
        Case("XOR", (A([[1, 1], [-1, -1], [1, -1], [-1, 1]]), A([1, 1, -1, -1])),
             "XOR is the classic set that no line separates."),
        Case("a point at the origin", (A([[0, 0], [1, 0]]), A([1, 1])),
             "A point at the origin has score w·0 = 0 for every w, so no hyperplane through "
             "the origin puts it strictly on its side."),
        Case("same point with both labels", (A([[1, 2], [1, 2]]), A([1, -1])),
             "Two copies of one point with opposite labels cannot both be strictly correct."),
        Case("separable with an offset only", (A([[1, 1], [2, 2], [3, 3]]), A([1, -1, 1])),
             "Through the origin, points on one ray from the origin all get the same sign."),
        Case("offset needed in one dimension", (A([[1], [2]]), A([1, -1])),
             "On the line through the origin the sign of w x depends only on the sign of x. "
             "The question is separability through the origin, with no offset b."),
        Case("opposite rays", (A([[1, 0], [-2, 0]]), A([1, -1])),
             "x and -2x with opposite labels are separated by w = x."),
        Case("separable with a tiny margin", (A([[1, 1e-3], [1, -1e-3], [-1, 0]]), A([1, 1, -1])),
             "Separable data may have a very small margin."),
        # Balcan's example: margin about φ⁻⁸, and the perceptron needs 717 sweeps to separate it.
        Case("separable but slow for the perceptron", data.hypercube_small_margin(8),
             "These data are separable, but the perceptron needs hundreds of sweeps to find a "
             "separator: a run that has not converged after a fixed number of sweeps proves "
             "nothing. Decide with a method that always terminates (the separability chapter)."),
    ]


def _separable_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    return [(rng.integers(-3, 4, size=(n, d)).astype(float), rng.choice([-1.0, 1.0], size=n))
            for n, d in zip(rng.integers(2, 9, n_cases), rng.integers(1, 4, n_cases))]


def _is_certificate_cases() -> list[Case]:
    xor_X, xor_y = A([[1, 1], [-1, -1], [1, -1], [-1, 1]]), A([1, 1, -1, -1])
    and_X, and_y = A([[0, 0], [0, 1], [1, 0], [1, 1]]), A([-1, -1, -1, 1])
    ulp = 2.0**-54  # one unit in the last place of 0.25
    return [
        Case("XOR with weights 1/4", (xor_X, xor_y, A([0.25] * 4)),
             "With z_i = y_i x_i the four points of XOR add up to 0, so equal weights 1/4 are a "
             "certificate: all ≥ 0, sum 1, and Σ λ_i y_i x_i = 0."),
        Case("a point with both labels", (A([[1, 2], [1, 2]]), A([1, -1]), A([0.5, 0.5])),
             "The sum is Σ λ_i y_i x_i: multiply each point by its label. Here ½(1, 2) - ½(1, 2) = 0."),
        Case("a point at the origin", (A([[0, 0], [1, 0]]), A([1, 1]), A([1, 0])),
             "All the weight on the origin is a certificate: 1·y·0 = 0, as the chapter says of "
             "the input (0, 0). Weights equal to 0 are allowed."),
        Case("AND through the origin with q = 1/4", (and_X, and_y, A([0.25] * 4)),
             "The chapter's certificates for AND through the origin are (1 - 3q, q, q, q) with "
             "0 ≤ q ≤ 1/3; q = 1/4 gives a quarter each."),
        Case("separable data", (A([[1, 0], [0, 1]]), A([1, 1]), A([0.5, 0.5])),
             "Compute Σ λ_i y_i x_i: here it is (½, ½), not 0. (No weights could be a "
             "certificate: w = (1, 1) separates these points.)"),
        Case("the labels matter", (A([[1, 0], [-1, 0]]), A([1, -1]), A([0.5, 0.5])),
             "Σ λ_i x_i = 0 here, but the certificate's sum is Σ λ_i y_i x_i = (1, 0). "
             "(w = (1, 0) separates these two points.)"),
        Case("not normalized", (xor_X, xor_y, A([1, 1, 1, 1])),
             "In this chapter's statement of Gordan's alternative the weights sum to exactly 1."),
        Case("all weights zero", (xor_X, xor_y, A([0, 0, 0, 0])),
             "λ = 0 gives Σ λ_i y_i x_i = 0 for any data and proves nothing: the weights must "
             "sum to 1."),
        Case("a negative weight", (A([[1, 0], [2, 0]]), A([1, 1]), A([2, -1])),
             "Every weight must be ≥ 0. Here 2·(1, 0) - 1·(2, 0) = 0 and 2 - 1 = 1, yet "
             "w = (1, 0) separates the points: a negative weight can cancel anything."),
        Case("AND through the origin with q = 1/3 in floats", (and_X, and_y, A([0, 1 / 3, 1 / 3, 1 / 3])),
             "1/3 is not a float: three copies of the float nearest to 1/3 add up to exactly "
             "1 - 2^-54, not 1, although float addition rounds that sum to 1.0. Check in exact "
             "arithmetic: fractions.Fraction(v) is the exact value of the float v."),
        Case("decimal weights 0.1", (A([[1, 0]] * 5 + [[-1, 0]] * 5), A([1] * 10), A([0.1] * 10)),
             "The float 0.1 is not 1/10, and ten of them do not add up to 1. A comparison with a "
             "tolerance (isclose, allclose) would accept these weights; a certificate must "
             "satisfy its equations exactly."),
        Case("one weight off by one unit in the last place", (xor_X, xor_y, A([0.25, 0.25, 0.25, 0.25 + ulp])),
             "The last weight is 0.25 + 2^-54, the next float after 0.25: exactly, the weights sum "
             "to 1 + 2^-54 and Σ λ_i y_i x_i = (2^-54, -2^-54), though float arithmetic gives a "
             "sum of 1.0 and a vector a tolerance calls 0."),
        Case("weights summing to 1 and a sum off by 2^-53", (xor_X, xor_y, A([0.25 + ulp, 0.25 - ulp, 0.25, 0.25])),
             "These weights sum to exactly 1, but Σ λ_i y_i x_i = (2^-53, 2^-53), not 0. A "
             "tolerance accepts it; the exact check does not."),
        Case("large numbers that cancel", (A([[4e16, 1], [4, 2], [4e16, 1], [4, 2]]), A([1, 1, -1, -1]), A([0.25] * 4)),
             "A certificate: exactly, 1e16 + 1 - 1e16 - 1 = 0. In float64, 1e16 + 1 rounds to "
             "1e16, so the sum taken in this order comes out as -1 (in another order, 0): sum in "
             "exact arithmetic."),
        Case("large numbers that do not cancel", (A([[4e16, 0], [1, 0], [4e16, 0]]), A([1, 1, -1]), A([0.25, 0.5, 0.25])),
             "Not a certificate: exactly, Σ λ_i y_i x_i = (1e16 + 0.5 - 1e16, 0) = (0.5, 0). In "
             "float64, 1e16 + 0.5 rounds to 1e16 and the sum comes out as 0."),
    ]


def _is_certificate_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    """Small integer data with a certificate built exactly: weights in eighths on 2 to 4 signed
    points zᵢ = yᵢxᵢ, the last of them -(Σ of the others' aᵢzᵢ)/4, so that Σ λᵢzᵢ = 0 holds
    exactly in floats; then, in four cases of six, one change that a certificate does not
    survive (weight moved, a label flipped, a weight one ulp larger, a negative weight)."""
    out = []
    for k in range(n_cases):
        d, m, extra = int(rng.integers(1, 4)), int(rng.integers(2, 5)), int(rng.integers(0, 4))
        a = np.diff(np.r_[0, np.sort(rng.choice(np.arange(1, 4), size=m - 2, replace=False)), 4])
        Z = rng.integers(-3, 4, size=(m - 1, d)).astype(float)
        Z = np.r_[Z, [-(a @ Z) / 4], rng.integers(-3, 4, size=(extra, d)).astype(float)]
        lam = np.r_[a, 4, np.zeros(extra)] / 8
        y = rng.choice([-1.0, 1.0], size=len(Z))
        X = y[:, None] * Z
        i = int(rng.integers(0, m))  # a point of the support
        how = k % 6
        if how == 2:
            lam[i] -= 0.125
            lam[(i + 1) % len(lam)] += 0.125
        elif how == 3:
            y[i] = -y[i]
        elif how == 4:
            lam[i] = np.nextafter(lam[i], 1.0)
        elif how == 5:
            X, y, lam = np.r_[X, [X[i]]], np.r_[y, y[i]], np.r_[lam, -0.125]
            lam[i] += 0.125
        order = rng.permutation(len(lam))
        out.append((X[order], y[order], lam[order]))
    return out


EXERCISES = [
    Exercise("separable", "separability", "separable(X, y)",
             "True when some w has ``yᵢ w·xᵢ > 0`` for all i (no offset), else False (a bool).",
             _separable_cases, _separable_random,
             "Decide whether some w has y_i w·x_i > 0 for every i, strictly; the separability "
             "chapter gives a way that always terminates.", _separable, "bool",
             ("separability", "max_margin", "min_norm_point", "lp_consistent_halfspace",
              "perceptron", "online_perceptron", "margin_perceptron", "averaged_perceptron",
              "voted_perceptron", "kernel_perceptron")),
    Exercise("is_certificate", "separability", "is_certificate(X, y, lam)",
             "True when every ``λᵢ ≥ 0``, ``Σᵢ λᵢ = 1`` and ``Σᵢ λᵢ yᵢ xᵢ = 0``, all exactly for "
             "the floats as given, else False (a bool).",
             _is_certificate_cases, _is_certificate_random,
             "A certificate: every λ_i ≥ 0, Σ λ_i = 1 and Σ λ_i y_i x_i = 0, each exactly, for "
             "the floats as given.", _is_certificate, "bool",
             ("Separability", "separability", "carries_certificate", "verify")),
]
