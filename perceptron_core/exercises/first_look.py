"""Public checks of the exercise of the chapter "A first look": ``mistakes`` and ``first_mistake``.

A point on the line (score 0) counts as a mistake, as in the perceptron's own test.
"""

from __future__ import annotations

import numpy as np

from . import A, Case as C, Exercise


def _first_mistake(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> int | None:
    wrong = np.flatnonzero(y * (X @ w) <= 0)
    return int(wrong[0]) if wrong.size else None


def _random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    # Small integers: every score is exact, so ties (mistakes) happen exactly and every way of
    # computing a score decides alike. Labels the line gets right, then up to two flipped.
    out = []
    for n, d in zip(rng.integers(1, 12, n_cases), rng.integers(1, 5, n_cases)):
        X, w = rng.integers(-3, 4, size=(n, d)).astype(float), rng.integers(-2, 3, size=d).astype(float)
        y = np.where(X @ w > 0, 1.0, -1.0)
        y[rng.choice(n, size=min(n, int(rng.integers(0, 3))), replace=False)] *= -1
        out.append((X, y, w))
    return out


EXERCISES = [
    Exercise("mistakes(X, y, w)", lambda: [
        C("all correct", (A([[1, 2], [-2, -1]]), A([1, -1]), A([1, 1])), "A point is correct when y w·x > 0."),
        C("one wrong", (A([[1, 2], [2, 1]]), A([1, -1]), A([1, 1])),
          "A point is a mistake when its label disagrees with its side: multiply the score by the label."),
        C("a point on the line", (A([[1, -1], [2, 1]]), A([1, 1]), A([1, 1])),
          "A point on the line (score exactly 0) counts as a mistake."),
        C("zero weights", (A([[1, 2], [3, 4], [5, 6]]), A([1, -1, 1]), A([0, 0])),
          "With w = 0 every score is 0, so every point is a mistake."),
        C("a point at the origin", (A([[0, 0], [1, 0]]), A([-1, 1]), A([1, 0])),
          "The origin has score 0 under every w: a mistake."),
        C("all wrong", (A([[1, 0], [2, 0]]), A([-1, -1]), A([1, 0])), "Count every point with y w·x ≤ 0, not only the first."),
    ], _random, "Count the points with y w·x ≤ 0.", lambda X, y, w: int(np.count_nonzero(y * (X @ w) <= 0)),
             "int", ("margins",)),
    Exercise("first_mistake(X, y, w)", lambda: [
        C("one wrong", (A([[2, 1], [1, 3], [-1, 2], [3, 0]]), A([1, 1, 1, 1]), A([1, 0])),
          "Return the index of the mistaken point, counting the rows from 0, not how many are wrong."),
        C("all correct", (A([[1, 2], [2, -1], [3, 0]]), A([1, 1, 1]), A([1, 1])),
          "When the line gets every point right there is no first mistake: return None (not -1 or 0)."),
        C("several wrong", (A([[1, 1], [-1, 2], [2, -3], [-2, -1]]), A([1, 1, -1, -1]), A([1, 0])),
          "Two points are wrong: return the first of them, in the order of the rows."),
        C("a point on the line first", (A([[1, -1], [2, 1], [-1, -2]]), A([1, 1, 1]), A([1, 1])),
          "A point on the line (score exactly 0) is a mistake, and here it is the first row."),
        C("a point on the line later", (A([[1, 0], [0, -1], [1, 2], [3, 1]]), A([1, 1, -1, 1]), A([2, -1])),
          "The only point the line does not get right lies on it: a score of 0 is a mistake."),
        C("zero weights", (A([[1, 2], [3, 4]]), A([1, -1]), A([0, 0])),
          "With w = 0 every score is 0, so the very first point is a mistake."),
        C("negative labels", (A([[-1, 0], [3, 0], [-2, 1]]), A([-1, -1, -1]), A([1, 0])),
          "Multiply the score by the label: a point labelled -1 is right when w·x < 0."),
        C("a point at the origin", (A([[1, 0], [0, 0], [2, 1]]), A([1, -1, 1]), A([1, 1])),
          "The origin has score 0 under every w, so it is a mistake, whatever its label."),
        C("the last point", (A([[1, 1], [2, 3], [0, -1]]), A([1, 1, 1]), A([0, 1])), "Look at every row, the last one too."),
    ], _random, "The first row i with y_i w·x_i ≤ 0, counting from 0, or None.", _first_mistake, "index",
             ("margins", "perceptron", "online_perceptron", "margin_perceptron", "voted_perceptron",
              "kernel_perceptron")),
]
