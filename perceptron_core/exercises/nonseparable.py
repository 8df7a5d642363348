"""Public checks of the exercise of the chapter "Non-separable data": ``hinge_deviation`` and
``averaged``."""

from __future__ import annotations

import numpy as np

from . import A, Case, Exercise, largest
from .. import bounds


def _averaged_run(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[np.ndarray, int]:
    """The chapter's averaged perceptron: the mean of the weights after each of the n·T rounds,
    and the run's number of mistakes. The cases are small integers: every score is exact."""
    w, total, mistakes = np.zeros(X.shape[1]), np.zeros(X.shape[1]), 0
    for _ in range(epochs):
        for x, label in zip(X, y):
            if label * float(w @ x) <= 0:  # ties count as mistakes, w = 0 included
                w, mistakes = w + label * x, mistakes + 1
            total += w  # after every round, whether or not it changed w
    return total / (len(X) * epochs), mistakes


def _hinge_cases() -> list[Case]:
    return [
        Case("all beyond the margin", (A([[2, 0], [-3, 1]]), A([1, -1]), A([1, 0]), 1.0),
             "Points with margin at least γ contribute 0."),
        Case("one point inside", (A([[0.5, 0], [-3, 1]]), A([1, -1]), A([1, 0]), 1.0),
             "A point with margin m < γ contributes γ - m."),
        Case("a misclassified point", (A([[-1, 0], [-3, 1]]), A([1, -1]), A([1, 0]), 1.0),
             "A point on the wrong side has negative margin m and contributes γ - m > γ."),
        Case("w not of unit length", (A([[0.5, 0]]), A([1]), A([4, 0]), 1.0),
             "Use the unit vector u = w/‖w‖: the deviation must not depend on the length of w."),
        Case("a point at the origin", (A([[0, 0]]), A([-1]), A([0, 1]), 0.25),
             "The origin has margin 0 under every u, so it contributes exactly γ."),
        Case("negative labels", (A([[-0.5, 0], [-2, 0]]), A([-1, -1]), A([1, 0]), 1.0),
             "Multiply by the label: the margin of a point is y u·x."),
    ]


def _hinge_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []
    for _ in range(n_cases):
        n, d = int(rng.integers(1, 9)), int(rng.integers(1, 4))
        out.append((rng.normal(size=(n, d)), rng.choice([-1.0, 1.0], size=n), rng.normal(size=d),
                    float(rng.uniform(0.05, 1))))
    return out


def _averaged_cases() -> list[Case]:
    return [
        Case("one example, one epoch", (A([[2, -1]]), A([1]), 1),
             "Average the weights after each round: with one example and one epoch that is the "
             "weights after its update. The start w = 0 is not a term of the average."),
        Case("settles in the first epoch", (A([[2, 1], [1, -3], [1, 1]]), A([1, 1, 1]), 4),
             "All n·T rounds count, also those of the epochs after the run stopped changing w; "
             "the average is not the last weights, and it is divided by n·T."),
        Case("a point and its opposite", (A([[1, 0], [-1, 0]]), A([1, 1]), 3),
             "These two points cannot both be right: w goes back and forth between (1, 0) and 0, "
             "and the average lies between."),
        Case("XOR through the origin", (A([[1, 1], [-1, -1], [1, -1], [-1, 1]]), A([1, 1, -1, -1]), 3),
             "Multiply by the label, in the test y w·x ≤ 0 and in the update w ← w + y x."),
        Case("a tie after the start", (A([[1, 0], [0, 1]]), A([1, 1]), 2),
             "A score of exactly 0 is a mistake at every w, not only at w = 0: the second point "
             "scores 0 against w = (1, 0)."),
        Case("a point at the origin", (A([[0, 0], [1, 2]]), A([1, -1]), 2),
             "The origin scores 0 under every w, so it is a mistake, but its update adds 0: w does "
             "not change. It is still a round of the average."),
        Case("duplicate points", (A([[1, 1], [1, 1], [-1, 2]]), A([1, 1, -1]), 2),
             "A point given twice is presented twice in each epoch: two rounds."),
    ]


def _averaged_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []
    for k in range(n_cases):
        n, d = int(rng.integers(1, 9)), int(rng.integers(1, 5))
        X = rng.integers(-3, 4, size=(n, d)).astype(float)
        y = (np.where(X @ rng.integers(-3, 4, size=d) >= 0, 1.0, -1.0) if k % 2
             else rng.choice([-1.0, 1.0], size=n))  # labels of a hyperplane: often separable
        out.append((X, y, int(rng.integers(1, 6))))
    return out


EXERCISES = [
    Exercise("hinge_deviation", "nonseparable", "hinge_deviation(X, y, w, gamma)",
             "Balcan's total hinge deviation ``Σᵢ max(0, γ − yᵢ u·xᵢ)`` with ``u = w/‖w‖`` (a "
             "float), within 1e-6 times ``n (γ + R)``.",
             _hinge_cases, _hinge_random, "TD_γ = sum over i of max(0, γ - y_i u·x_i), u = w/‖w‖.",
             bounds.total_hinge_deviation, "float",
             ("total_hinge_deviation", "deviations", "mistake_deviation"),
             # each of the n terms is at most γ + ‖xᵢ‖ ≤ γ + R
             lambda X, y, w, gamma: len(X) * (gamma + float(np.max(np.linalg.norm(X, axis=1)))),
             "n (γ + R), the largest TD_γ can be"),
    Exercise("averaged", "nonseparable", "averaged(X, y, epochs)",
             "the averaged perceptron's weights (no offset): the mean of the weights after each "
             "of the n·T rounds of the perceptron from ``w = 0`` (ties are mistakes); every "
             "entry within 1e-6 times ``M max|xᵢⱼ|``, M the run's mistakes.",
             _averaged_cases, _averaged_random,
             "From w = 0, sweep in order T times, update when yᵢ w·xᵢ ≤ 0, add up the weights "
             "after every round and divide by n·T.",
             lambda X, y, epochs: _averaged_run(X, y, epochs)[0], "array",
             ("averaged_perceptron", "voted_perceptron", "perceptron", "online_perceptron"),
             # every iterate, and so their mean, is a sum of at most M of the yᵢxᵢ
             lambda X, y, epochs: _averaged_run(X, y, epochs)[1] * largest(X),
             "M max|xᵢⱼ|, the largest |entry| an iterate of a run of M mistakes can reach"),
]
