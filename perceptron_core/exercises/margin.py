"""Public checks of the exercise of the chapter "Margin": ``margin`` and ``radius``."""

from __future__ import annotations

import numpy as np

from . import A, Case, Exercise
from .. import geometry


def _margin_cases() -> list[Case]:
    return [
        Case("unit w and no offset", (A([[2, 1], [-1, -3]]), A([1, -1]), A([1, 0]), 0.0),
             "The margin of a data set is the smallest of its points' margins."),
        Case("w not of unit length", (A([[2, 1], [-1, -3]]), A([1, -1]), A([3, 4]), 0.0),
             "The geometric margin divides by the length of w, so scaling w does not change it."),
        Case("with an offset", (A([[2, 1], [-1, -3]]), A([1, -1]), A([0, 2]), 1.0),
             "The offset b enters the score: y (w·x + b)."),
        Case("a misclassified point", (A([[2, 1], [1, 3]]), A([1, -1]), A([1, 1]), 0.0),
             "A point on the wrong side has a negative margin, and then so does the data set: "
             "keep the sign, do not take absolute values."),
        Case("a point on the boundary", (A([[1, -1], [3, 1]]), A([1, 1]), A([1, 1]), 0.0),
             "A point on the hyperplane has margin 0."),
        Case("a point at the origin", (A([[0, 0], [4, 0]]), A([-1, 1]), A([2, 0]), -1.0),
             "The origin has score b, so its margin is y b / ‖w‖."),
        Case("negative labels", (A([[-1, 0], [-2, 0], [5, 0]]), A([-1, -1, 1]), A([1, 0]), 0.0),
             "Multiply each score by the point's label before taking the minimum."),
    ]


def _margin_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []
    for _ in range(n_cases):
        n, d = int(rng.integers(1, 9)), int(rng.integers(1, 5))
        out.append((rng.normal(size=(n, d)), rng.choice([-1.0, 1.0], size=n),
                    rng.normal(size=d) * 3, float(rng.normal())))
    return out


def _radius_cases() -> list[Case]:
    return [
        Case("one point", (A([[3, 4]]),), "The radius of one point is its length."),
        Case("negative coordinates", (A([[-3, -4], [1, 1]]),),
             "Lengths are never negative: ‖(-3, -4)‖ = 5."),
        Case("largest entry is not largest norm", (A([[4, 0], [3, 3]]),),
             "R is the largest Euclidean length ‖x‖, not the largest coordinate."),
        Case("all points at the origin", (A([[0, 0], [0, 0]]),), "Points at the origin have length 0."),
        Case("one dimension", (A([[-2], [1]]),), "In one dimension ‖x‖ = |x|."),
        Case("many small points", (A([[1, 0]] * 5 + [[0, 2]]),),
             "R is the maximum, not a sum or an average."),
    ]


def _radius_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    return [(rng.normal(size=(int(rng.integers(1, 9)), int(rng.integers(1, 6)))) * 2,)
            for _ in range(n_cases)]


EXERCISES = [
    Exercise("margin", "margin", "margin(X, y, w, b)",
             "the geometric margin ``minᵢ yᵢ (w·xᵢ + b)/‖w‖`` (a float), within 1e-6 times "
             "``R + |b|/‖w‖``.",
             _margin_cases, _margin_random, "margin = min over i of y_i (w·x_i + b) / ‖w‖.",
             geometry.dataset_margin, "float", ("dataset_margin", "margins"),
             # |y(w·x + b)|/‖w‖ ≤ ‖x‖ + |b|/‖w‖ (Cauchy–Schwarz): the size of every term
             lambda X, y, w, b: geometry.radius(X) + abs(b) / float(np.linalg.norm(w)),
             "R + |b|/‖w‖, the largest a margin can be"),
    Exercise("radius", "margin", "radius(X)", "the radius ``R = maxᵢ ‖xᵢ‖`` (a float).",
             _radius_cases, _radius_random, "R = max over i of ‖x_i‖, the Euclidean length.",
             geometry.radius, "float", ("radius",), geometry.radius, "the answer"),
]
