"""Public checks of the exercise of the chapter "The perceptron": ``update`` and ``train``.

The book's rule (the CS229 notes'): a score ``y w·x ≤ 0``, ties included, is a mistake.
"""

from __future__ import annotations

import math

import numpy as np

from . import A, Case, Exercise, largest


def _update(w: np.ndarray, x: np.ndarray, y: float) -> np.ndarray:
    return w + y * x if y * float(w @ x) <= 0 else w.copy()


def _train(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
    # The cases are small integers, on which this float loop is exact.
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        for x, label in zip(X, y):
            if label * float(w @ x) <= 0:
                w = w + label * x
    return w


def _update_cases() -> list[Case]:
    return [
        Case("mistake on a positive example", (A([1, -2]), A([-1, 1]), 1.0),
             "On a mistake the new weights are w plus y times x."),
        Case("mistake on a negative example", (A([2, 1]), A([1, 1]), -1.0),
             "A mistake on a negative example (y = -1) moves w away from x: the label enters "
             "the update."),
        Case("correct positive", (A([1, 1]), A([2, 0.5]), 1.0),
             "When y w·x > 0 the example is classified correctly and w stays as it is."),
        Case("correct negative", (A([1, 1]), A([-2, -0.5]), -1.0),
             "A negative example with a negative score is correct: compare y w·x with 0, not "
             "w·x alone."),
        Case("tie: zero score", (A([1, -1]), A([2, 2]), 1.0),
             "A score of exactly 0 (the point lies on the boundary) counts as a mistake in "
             "this book, so it triggers an update."),
        Case("zero weights", (A([0, 0, 0]), A([1, 2, 3]), -1.0),
             "From w = 0 every score is 0, a tie, so the first example is always a mistake."),
    ]


def _update_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []
    for _ in range(n_cases):
        d = int(rng.integers(1, 6))
        out.append((rng.normal(size=d), rng.normal(size=d), float(rng.choice([-1.0, 1.0]))))
    return out


def _train_cases() -> list[Case]:
    return [
        Case("one point", (A([[2, -1]]), A([-1]), 1),
             "Start from w = 0: the first example's score is then 0, a tie, which counts as a "
             "mistake, so it always causes an update, w + y x."),
        Case("negative labels", (A([[2, 1]]), A([-1]), 2),
             "The test multiplies the score by the label, y w·x ≤ 0: a point labelled -1 is "
             "right when w·x < 0, and then w stays as it is."),
        Case("the order of the rows", (A([[1, 2], [2, -1], [-1, 1]]), A([1, -1, 1]), 1),
             "Go through the rows in their order, first to last, and test each with the "
             "weights as they are when you reach it, after the updates of the rows before it."),
        Case("duplicate points", (A([[1, 1], [1, 1], [-1, 2]]), A([1, 1, -1]), 1),
             "Make one full pass over all the rows, testing each with the weights as they are "
             "when the pass reaches it: once the first copy has been learned, the second one "
             "is right and adds nothing."),
        Case("epochs = 0", (A([[1, 2], [3, -1]]), A([1, -1]), 0),
             "No pass, no update: return w = 0, an array of d zeros."),
        Case("stops after the given epochs", (A([[1, 0], [-1, 2], [2, -3]]), A([1, 1, 1]), 2),
             "Make exactly `epochs` passes, each continuing from the weights the one before "
             "ended with, even if the data are not separated yet (here that takes 18)."),
        Case("a point at the origin", (A([[0, 0], [1, 2], [0, 0]]), A([1, -1, -1]), 3),
             "The origin has score 0 under every w, so it is always a mistake, but its update "
             "adds y·0 = 0 and changes nothing."),
        Case("not separable", (A([[-1, 0], [1, 2], [2, -1], [-2, -1]]), A([1, 1, 1, -1]), 3),
             "No w separates these data, so every pass makes a mistake and w keeps changing: "
             "stop after `epochs` passes anyway and return the weights you have."),
    ]


def _train_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    # Small integers: every score of a run is an integer, exact in float32 too, so every
    # implementation makes the same decisions, ties included. In turn: labels of a hyperplane
    # through the origin (separable), random labels, random labels with repeated points and a
    # point at the origin.
    out = []
    for k in range(n_cases):
        n, d = int(rng.integers(2, 9)), int(rng.integers(1, 5))
        X = rng.integers(-3, 4, size=(n, d))
        if k % 3 == 0:
            w_star = rng.integers(1, 3, size=d)
            X = X[X @ w_star != 0] if np.any(X @ w_star) else w_star[None, :]
            y = np.sign(X @ w_star).astype(float)
        else:
            if k % 3 == 2:
                X = np.vstack([X, X[:2], np.zeros((1, d), dtype=X.dtype)])[rng.permutation(n + 3)]
            y = rng.choice([-1.0, 1.0], size=len(X))
        out.append((X.astype(float), y, int(rng.integers(0, 7))))
    return out


EXERCISES = [
    Exercise("update", "perceptron", "update(w, x, y)",
             "the weights after one perceptron step on (x, y): ``w + y x`` when ``y w·x ≤ 0`` "
             "(ties count), else ``w``, as a new array. Every entry may be off by 1e-6 times "
             "the largest ``|entry|`` of w and x.",
             _update_cases, _update_random,
             "Compute the score y w·x; update only when it is at most 0.", _update, "array", (),
             lambda w, x, y: largest(w, x), "the largest |entry| of w and x"),
    Exercise("train", "perceptron", "train(X, y, epochs)",
             "the perceptron's weights (no offset) after ``epochs`` passes over the rows in "
             "order from ``w = 0``, ``w ← w + yᵢxᵢ`` whenever ``yᵢ w·xᵢ ≤ 0``. Every entry may "
             "be off by 1e-6 times ``R √(epochs·n)``, the largest ``‖w‖`` of such a run.",
             _train_cases, _train_random,
             "From w = 0, `epochs` passes in order, w ← w + y_i x_i whenever y_i w·x_i ≤ 0.",
             _train, "array",
             ("perceptron", "online_perceptron", "averaged_perceptron", "voted_perceptron",
              "kernel_perceptron", "margin_perceptron", "PerceptronLearner", "convert_stream"),
             # each update adds at most R² to ‖w‖², and T epochs make at most Tn of them
             lambda X, y, epochs: float(np.max(np.linalg.norm(X, axis=1))) * math.sqrt(epochs * len(X)),
             "R √(epochs·n), the largest ‖w‖ of the run"),
]
