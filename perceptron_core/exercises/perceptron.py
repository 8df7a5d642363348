"""Public checks of the exercise of the chapter "The perceptron": ``update`` and ``train``.

The book's rule (the CS229 notes'): a score ``y w·x ≤ 0``, ties included, is a mistake.
"""

from __future__ import annotations

import math

import numpy as np

from . import A, Case as C, Exercise, largest


def _train(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
    w = np.zeros(X.shape[1])  # the cases are small integers, on which this float loop is exact
    for _ in range(epochs):
        for x, label in zip(X, y):
            w = w + label * x if label * float(w @ x) <= 0 else w
    return w


def _train_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    # Small integers: every score of a run is an integer, exact in float32 too, so every way of
    # computing it decides alike, ties included. In turn: labels of a hyperplane through the
    # origin (separable), random labels, random labels with repeats and a point at the origin.
    out = []
    for k, n, d in zip(range(n_cases), rng.integers(2, 9, n_cases), rng.integers(1, 5, n_cases)):
        X, w_star = rng.integers(-3, 4, size=(n, d)), rng.integers(1, 3, size=d)
        if k % 3 == 2:
            X = np.vstack([X, X[:2], np.zeros((1, d), dtype=X.dtype)])[rng.permutation(n + 3)]
        y = np.where(X @ w_star >= 0, 1.0, -1.0) if k % 3 == 0 else rng.choice([-1.0, 1.0], size=len(X))
        out.append((X.astype(float), y, int(rng.integers(0, 7))))
    return out


EXERCISES = [
    Exercise("update(w, x, y)", lambda: [
        C("mistake on a positive example", (A([1, -2]), A([-1, 1]), 1.0), "On a mistake the new weights are w + y x."),
        C("mistake on a negative example", (A([2, 1]), A([1, 1]), -1.0),
          "A mistake on a negative example (y = -1) moves w away from x: the label enters the update."),
        C("correct positive", (A([1, 1]), A([2, 0.5]), 1.0), "When y w·x > 0 the example is right and w stays as it is."),
        C("correct negative", (A([1, 1]), A([-2, -0.5]), -1.0),
          "A negative example with a negative score is right: compare y w·x with 0, not w·x."),
        C("tie: zero score", (A([1, -1]), A([2, 2]), 1.0),
          "A score of exactly 0 (a point on the boundary) is a mistake in this book: it updates."),
        C("zero weights", (A([0, 0, 0]), A([1, 2, 3]), -1.0),
          "From w = 0 every score is 0, a tie, so the first example is always a mistake."),
    ], lambda rng, k: [(rng.normal(size=d), rng.normal(size=d), float(rng.choice([-1.0, 1.0])))
                       for d in rng.integers(1, 6, k)],
             "Compute the score y w·x; update only when it is at most 0.",
             lambda w, x, y: w + y * x if y * float(w @ x) <= 0 else w.copy(), "array", (),
             lambda w, x, y: largest(w, x), "the largest |entry| of w and x"),
    Exercise("train(X, y, epochs)", lambda: [
        C("one point", (A([[2, -1]]), A([-1]), 1),
          "From w = 0 the first score is 0, a tie, which is a mistake: the first example always updates."),
        C("negative labels", (A([[2, 1]]), A([-1]), 2),
          "The test is y w·x ≤ 0: a point labelled -1 is right when w·x < 0, and then w stays."),
        C("the order of the rows", (A([[1, 2], [2, -1], [-1, 1]]), A([1, -1, 1]), 1),
          "Go through the rows in order, testing each with the weights as they are when you reach it."),
        C("duplicate points", (A([[1, 1], [1, 1], [-1, 2]]), A([1, 1, -1]), 1),
          "Test each row with the current weights: once the first copy is learned, the second is right."),
        C("epochs = 0", (A([[1, 2], [3, -1]]), A([1, -1]), 0), "No pass, no update: return w = 0, an array of d zeros."),
        C("stops after the given epochs", (A([[1, 0], [-1, 2], [2, -3]]), A([1, 1, 1]), 2),
          "Make exactly `epochs` passes, even if the data are not separated yet (here that takes 18)."),
        C("a point at the origin", (A([[0, 0], [1, 2], [0, 0]]), A([1, -1, -1]), 3),
          "The origin is always a mistake (score 0), but its update adds y·0 = 0 and changes nothing."),
        C("not separable", (A([[-1, 0], [1, 2], [2, -1], [-2, -1]]), A([1, 1, 1, -1]), 3),
          "No w separates these data, so every pass updates: stop after `epochs` passes anyway."),
    ], _train_random, "From w = 0, `epochs` passes in order, w ← w + y_i x_i whenever y_i w·x_i ≤ 0.",
             _train, "array", ("perceptron", "online_perceptron", "averaged_perceptron", "voted_perceptron",
                               "kernel_perceptron", "margin_perceptron", "PerceptronLearner", "convert_stream"),
             # each update adds at most R² to ‖w‖², and T epochs make at most Tn of them
             lambda X, y, epochs: float(np.max(np.linalg.norm(X, axis=1))) * math.sqrt(epochs * len(X)),
             "R √(epochs·n), the largest ‖w‖ of the run"),
]
