"""Public checks of the exercise of the chapter "Margin": ``margin`` and ``radius``."""

from __future__ import annotations

import numpy as np

from . import A, Case as C, Exercise
from .. import geometry

EXERCISES = [
    Exercise("margin(X, y, w, b)", lambda: [
        C("unit w and no offset", (A([[2, 1], [-1, -3]]), A([1, -1]), A([1, 0]), 0.0),
          "The margin of a data set is the smallest of its points' margins."),
        C("w not of unit length", (A([[2, 1], [-1, -3]]), A([1, -1]), A([3, 4]), 0.0),
          "The geometric margin divides by the length of w, so scaling w does not change it."),
        C("with an offset", (A([[2, 1], [-1, -3]]), A([1, -1]), A([0, 2]), 1.0), "The offset b enters the score: y (w·x + b)."),
        C("a misclassified point", (A([[2, 1], [1, 3]]), A([1, -1]), A([1, 1]), 0.0),
          "A point on the wrong side has a negative margin, and so has the data set: keep the sign."),
        C("a point on the boundary", (A([[1, -1], [3, 1]]), A([1, 1]), A([1, 1]), 0.0), "A point on the hyperplane has margin 0."),
        C("a point at the origin", (A([[0, 0], [4, 0]]), A([-1, 1]), A([2, 0]), -1.0),
          "The origin has score b, so its margin is y b / ‖w‖."),
        C("negative labels", (A([[-1, 0], [-2, 0], [5, 0]]), A([-1, -1, 1]), A([1, 0]), 0.0),
          "Multiply each score by the point's label before taking the minimum."),
    ], lambda rng, k: [(rng.normal(size=(n, d)), rng.choice([-1.0, 1.0], size=n), rng.normal(size=d) * 3,
                        float(rng.normal())) for n, d in zip(rng.integers(1, 9, k), rng.integers(1, 5, k))],
             "margin = min over i of y_i (w·x_i + b) / ‖w‖.", geometry.dataset_margin, "float",
             ("dataset_margin", "margins"),
             # |y(w·x + b)|/‖w‖ ≤ ‖x‖ + |b|/‖w‖ (Cauchy–Schwarz): the size of every term
             lambda X, y, w, b: geometry.radius(X) + abs(b) / float(np.linalg.norm(w)),
             "R + |b|/‖w‖, the largest a margin can be"),
    Exercise("radius(X)", lambda: [
        C("one point", (A([[3, 4]]),), "The radius of one point is its length."),
        C("negative coordinates", (A([[-3, -4], [1, 1]]),), "Lengths are never negative: ‖(-3, -4)‖ = 5."),
        C("largest entry is not largest norm", (A([[4, 0], [3, 3]]),),
          "R is the largest Euclidean length ‖x‖, not the largest coordinate."),
        C("all points at the origin", (A([[0, 0], [0, 0]]),), "Points at the origin have length 0."),
        C("one dimension", (A([[-2], [1]]),), "In one dimension ‖x‖ = |x|."),
        C("many small points", (A([[1, 0]] * 5 + [[0, 2]]),), "R is the maximum, not a sum or an average."),
    ], lambda rng, k: [(rng.normal(size=(n, d)) * 2,) for n, d in zip(rng.integers(1, 9, k), rng.integers(1, 6, k))],
             "R = max over i of ‖x_i‖, the Euclidean length.", geometry.radius, "float", ("radius",),
             geometry.radius, "the answer"),
]
