"""Public checks of the exercise of the chapter "Separability": ``separable`` and ``is_certificate``."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np

from . import A, Case as C, Exercise
from .. import data, geometry


def _separable(X: np.ndarray, y: np.ndarray) -> bool:
    verdict = geometry.separability(X, y).separable
    if verdict is None:  # never for the check's cases, which are chosen to be decidable
        raise RuntimeError("the reference could not decide this case")
    return bool(verdict)


def _is_certificate(X: np.ndarray, y: np.ndarray, lam: np.ndarray) -> bool:
    # Gordan's alternative as the chapter states it, exactly for the floats as given (every
    # float is a fraction): λ ≥ 0, Σλ = 1, Σ λᵢyᵢxᵢ = 0. Not the package's Separability.verify.
    lam = [F(float(v)) for v in lam]
    return (min(lam) >= 0 and sum(lam) == 1
            and not any(sum(l * F(float(yi)) * F(float(xi[j])) for l, yi, xi in zip(lam, y, X))
                        for j in range(X.shape[1])))


def _certificates(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    """Small integer data with a certificate built exactly: weights in eighths on 2 to 4 signed
    points zᵢ = yᵢxᵢ, the last of them -(Σ of the others' aᵢzᵢ)/4, so that Σ λᵢzᵢ = 0 holds
    exactly in floats; then, in four cases of six, one change a certificate does not survive
    (weight moved, a label flipped, a weight one ulp larger, a negative weight)."""
    out = []
    for k in range(n_cases):
        d, m, extra = int(rng.integers(1, 4)), int(rng.integers(2, 5)), int(rng.integers(0, 4))
        a = np.diff(np.r_[0, np.sort(rng.choice(np.arange(1, 4), size=m - 2, replace=False)), 4])
        Z = rng.integers(-3, 4, size=(m - 1, d)).astype(float)
        Z = np.r_[Z, [-(a @ Z) / 4], rng.integers(-3, 4, size=(extra, d)).astype(float)]
        lam, y = np.r_[a, 4, np.zeros(extra)] / 8, rng.choice([-1.0, 1.0], size=len(Z))
        X, i = y[:, None] * Z, int(rng.integers(0, m))  # i: a point of the support
        if k % 6 == 2:
            lam[i], lam[(i + 1) % len(lam)] = lam[i] - 0.125, lam[(i + 1) % len(lam)] + 0.125
        elif k % 6 == 3:
            y[i] = -y[i]
        elif k % 6 == 4:
            lam[i] = np.nextafter(lam[i], 1.0)
        elif k % 6 == 5:
            X, y, lam = np.r_[X, [X[i]]], np.r_[y, y[i]], np.r_[lam, -0.125]
            lam[i] += 0.125
        order = rng.permutation(len(lam))
        out.append((X[order], y[order], lam[order]))
    return out


XOR, XOR_Y = A([[1, 1], [-1, -1], [1, -1], [-1, 1]]), A([1, 1, -1, -1])
AND, AND_Y = A([[0, 0], [0, 1], [1, 0], [1, 1]]), A([-1, -1, -1, 1])
ULP = 2.0**-54  # one unit in the last place of 0.25
EXERCISES = [
    Exercise("separable(X, y)", lambda: [
        C("one point", (A([[1, 2]]), A([-1])), "A single non-zero point is separated by w = y x."),
        C("XOR", (XOR, XOR_Y), "XOR is the classic set that no line separates."),
        C("a point at the origin", (A([[0, 0], [1, 0]]), A([1, 1])),
          "The origin has score 0 under every w: no hyperplane through the origin puts it strictly on a side."),
        C("same point with both labels", (A([[1, 2], [1, 2]]), A([1, -1])),
          "Two copies of one point with opposite labels cannot both be strictly right."),
        C("separable with an offset only", (A([[1, 1], [2, 2], [3, 3]]), A([1, -1, 1])),
          "Through the origin, points on one ray from the origin all get the same sign."),
        C("offset needed in one dimension", (A([[1], [2]]), A([1, -1])),
          "The question is separability through the origin, with no offset b: the sign of w x is x's."),
        C("opposite rays", (A([[1, 0], [-2, 0]]), A([1, -1])), "x and -2x with opposite labels are separated by w = x."),
        C("separable with a tiny margin", (A([[1, 1e-3], [1, -1e-3], [-1, 0]]), A([1, 1, -1])),
          "Separable data may have a very small margin."),
        # Balcan's example: margin about φ⁻⁸; the perceptron needs 717 sweeps to separate it.
        C("separable but slow for the perceptron", data.hypercube_small_margin(8),
          "Separable, but the perceptron needs hundreds of sweeps: a run stopped early proves nothing. "
          "Decide with a method that always terminates (the separability chapter)."),
    ], lambda rng, k: [(rng.integers(-3, 4, size=(n, d)).astype(float), rng.choice([-1.0, 1.0], size=n))
                       for n, d in zip(rng.integers(2, 9, k), rng.integers(1, 4, k))],
             "Decide whether some w has y_i w·x_i > 0 for every i, strictly; the separability chapter gives "
             "a way that always terminates.", _separable, "bool",
             ("separability", "max_margin", "min_norm_point", "lp_consistent_halfspace", "perceptron",
              "online_perceptron", "margin_perceptron", "averaged_perceptron", "voted_perceptron", "kernel_perceptron")),
    Exercise("is_certificate(X, y, lam)", lambda: [
        C("XOR with weights 1/4", (XOR, XOR_Y, A([0.25] * 4)),
          "The four z_i = y_i x_i of XOR add up to 0: equal weights 1/4 are a certificate."),
        C("a point with both labels", (A([[1, 2], [1, 2]]), A([1, -1]), A([0.5, 0.5])),
          "The sum is Σ λ_i y_i x_i: multiply each point by its label. Here ½(1, 2) - ½(1, 2) = 0."),
        C("a point at the origin", (A([[0, 0], [1, 0]]), A([1, 1]), A([1, 0])),
          "All the weight on the origin is a certificate: 1·y·0 = 0. Weights equal to 0 are allowed."),
        C("AND through the origin with q = 1/4", (AND, AND_Y, A([0.25] * 4)),
          "The chapter's certificates for AND through the origin are (1 - 3q, q, q, q), 0 ≤ q ≤ 1/3."),
        C("separable data", (A([[1, 0], [0, 1]]), A([1, 1]), A([0.5, 0.5])), "Σ λ_i y_i x_i is (½, ½) here, not 0."),
        C("the labels matter", (A([[1, 0], [-1, 0]]), A([1, -1]), A([0.5, 0.5])),
          "Σ λ_i x_i = 0 here, but the certificate's sum is Σ λ_i y_i x_i = (1, 0)."),
        C("not normalized", (XOR, XOR_Y, A([1, 1, 1, 1])), "In this chapter's statement the weights sum to exactly 1."),
        C("all weights zero", (XOR, XOR_Y, A([0, 0, 0, 0])),
          "λ = 0 gives Σ λ_i y_i x_i = 0 for any data and proves nothing: the weights must sum to 1."),
        C("a negative weight", (A([[1, 0], [2, 0]]), A([1, 1]), A([2, -1])),
          "Every weight must be ≥ 0: 2·(1, 0) - 1·(2, 0) = 0, yet w = (1, 0) separates the points."),
        C("AND through the origin with q = 1/3 in floats", (AND, AND_Y, A([0, 1 / 3, 1 / 3, 1 / 3])),
          "Three floats nearest 1/3 add up to exactly 1 - 2^-54, though float addition says 1.0: check "
          "in exact arithmetic (fractions.Fraction(v) is the exact value of the float v)."),
        C("decimal weights 0.1", (A([[1, 0]] * 5 + [[-1, 0]] * 5), A([1] * 10), A([0.1] * 10)),
          "The float 0.1 is not 1/10, and ten of them do not add up to 1: a tolerance would accept them."),
        C("one weight off by one unit in the last place", (XOR, XOR_Y, A([0.25, 0.25, 0.25, 0.25 + ULP])),
          "Exactly, these weights sum to 1 + 2^-54 and Σ λ_i y_i x_i = (2^-54, -2^-54), not 0."),
        C("weights summing to 1 and a sum off by 2^-53", (XOR, XOR_Y, A([0.25 + ULP, 0.25 - ULP, 0.25, 0.25])),
          "These weights sum to exactly 1, but Σ λ_i y_i x_i = (2^-53, 2^-53): a tolerance accepts it."),
        C("large numbers that cancel", (A([[4e16, 1], [4, 2], [4e16, 1], [4, 2]]), A([1, 1, -1, -1]), A([0.25] * 4)),
          "A certificate: exactly, 1e16 + 1 - 1e16 - 1 = 0, but float64 rounds 1e16 + 1 to 1e16."),
        C("large numbers that do not cancel", (A([[4e16, 0], [1, 0], [4e16, 0]]), A([1, 1, -1]), A([0.25, 0.5, 0.25])),
          "Not a certificate: exactly, Σ λ_i y_i x_i = (0.5, 0), but float64 rounds 1e16 + 0.5 to 1e16."),
    ], _certificates, "A certificate: every λ_i ≥ 0, Σ λ_i = 1 and Σ λ_i y_i x_i = 0, each exactly, for the "
             "floats as given.", _is_certificate, "bool", ("Separability", "separability", "carries_certificate", "verify")),
]
