"""Public checks of the exercise of the chapter "Non-separable data": ``hinge_deviation`` and
``averaged``."""

from __future__ import annotations

import numpy as np

from . import A, Case as C, Exercise, largest
from .. import bounds


def _averaged(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[np.ndarray, int]:
    """The chapter's averaged perceptron: the mean of the weights after each of the n·T rounds,
    and the run's number of mistakes. The cases are small integers: every score is exact."""
    w, total, mistakes = np.zeros(X.shape[1]), np.zeros(X.shape[1]), 0
    for _ in range(epochs):
        for x, label in zip(X, y):
            if label * float(w @ x) <= 0:  # ties count as mistakes, w = 0 included
                w, mistakes = w + label * x, mistakes + 1
            total += w  # after every round, whether or not it changed w
    return total / (len(X) * epochs), mistakes


def _averaged_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []  # labels of a random hyperplane (often separable) or random labels, in turn
    for k, n, d in zip(range(n_cases), rng.integers(1, 9, n_cases), rng.integers(1, 5, n_cases)):
        X = rng.integers(-3, 4, size=(n, d)).astype(float)
        y = np.where(X @ rng.integers(-3, 4, size=d) >= 0, 1.0, -1.0) if k % 2 else rng.choice([-1.0, 1.0], size=n)
        out.append((X, y, int(rng.integers(1, 6))))
    return out


EXERCISES = [
    Exercise("hinge_deviation(X, y, w, gamma)", lambda: [
        C("all beyond the margin", (A([[2, 0], [-3, 1]]), A([1, -1]), A([1, 0]), 1.0), "Points with margin at least γ contribute 0."),
        C("one point inside", (A([[0.5, 0], [-3, 1]]), A([1, -1]), A([1, 0]), 1.0), "A point with margin m < γ contributes γ - m."),
        C("a misclassified point", (A([[-1, 0], [-3, 1]]), A([1, -1]), A([1, 0]), 1.0),
          "A point on the wrong side has negative margin m and contributes γ - m > γ."),
        C("w not of unit length", (A([[0.5, 0]]), A([1]), A([4, 0]), 1.0),
          "Use the unit vector u = w/‖w‖: the deviation must not depend on the length of w."),
        C("a point at the origin", (A([[0, 0]]), A([-1]), A([0, 1]), 0.25),
          "The origin has margin 0 under every u, so it contributes exactly γ."),
        C("negative labels", (A([[-0.5, 0], [-2, 0]]), A([-1, -1]), A([1, 0]), 1.0),
          "Multiply by the label: the margin of a point is y u·x."),
    ], lambda rng, k: [(rng.normal(size=(n, d)), rng.choice([-1.0, 1.0], size=n), rng.normal(size=d),
                        float(rng.uniform(0.05, 1))) for n, d in zip(rng.integers(1, 9, k), rng.integers(1, 4, k))],
             "TD_γ = sum over i of max(0, γ - y_i u·x_i), u = w/‖w‖.", bounds.total_hinge_deviation, "float",
             ("total_hinge_deviation", "deviations", "mistake_deviation"),
             # each of the n terms is at most γ + ‖xᵢ‖ ≤ γ + R
             lambda X, y, w, gamma: len(X) * (gamma + float(np.max(np.linalg.norm(X, axis=1)))),
             "n (γ + R), the largest TD_γ can be"),
    Exercise("averaged(X, y, epochs)", lambda: [
        C("one example, one epoch", (A([[2, -1]]), A([1]), 1),
          "Average the weights after each round; the start w = 0 is not a term of the average."),
        C("settles in the first epoch", (A([[2, 1], [1, -3], [1, 1]]), A([1, 1, 1]), 4),
          "All n·T rounds count, also after w stopped changing: divide by n·T, not the last weights."),
        C("a point and its opposite", (A([[1, 0], [-1, 0]]), A([1, 1]), 3),
          "w goes back and forth between (1, 0) and 0, and the average lies between."),
        C("XOR through the origin", (A([[1, 1], [-1, -1], [1, -1], [-1, 1]]), A([1, 1, -1, -1]), 3),
          "Multiply by the label, in the test y w·x ≤ 0 and in the update w ← w + y x."),
        C("a tie after the start", (A([[1, 0], [0, 1]]), A([1, 1]), 2),
          "A score of exactly 0 is a mistake at every w: the second point scores 0 against (1, 0)."),
        C("a point at the origin", (A([[0, 0], [1, 2]]), A([1, -1]), 2),
          "The origin is a mistake, but its update adds 0; it is still a round of the average."),
        C("duplicate points", (A([[1, 1], [1, 1], [-1, 2]]), A([1, 1, -1]), 2),
          "A point given twice is presented twice in each epoch: two rounds."),
    ], _averaged_random, "From w = 0, sweep in order T times, update when yᵢ w·xᵢ ≤ 0, add up the weights "
             "after every round and divide by n·T.", lambda X, y, epochs: _averaged(X, y, epochs)[0], "array",
             ("averaged_perceptron", "voted_perceptron", "perceptron", "online_perceptron"),
             # every iterate, and so their mean, is a sum of at most M of the yᵢxᵢ
             lambda X, y, epochs: _averaged(X, y, epochs)[1] * largest(X),
             "M max|xᵢⱼ|, the largest |entry| an iterate of a run of M mistakes can reach"),
]
