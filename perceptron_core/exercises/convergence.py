"""Public checks of the exercise of the chapter "Convergence": ``mistake_bound`` and
``proof_quantities``."""

from __future__ import annotations

import math

import numpy as np

from . import A, Case as C, Exercise
from .. import bounds


def _proof_quantities(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> np.ndarray:
    # The chapter's run: the cyclic perceptron from w₀ = 0, a tie a mistake, until a clean pass.
    # Every case has small-integer or dyadic data (every score exact) and is separable.
    w, rows, clean = np.zeros(X.shape[1]), [], False
    while not clean:
        clean = True
        for x, label in zip(X, y):
            if label * float(w @ x) <= 0:
                w, clean = w + label * x, False
                rows.append((float(w @ u) / float(np.linalg.norm(u)), float(w @ w)))
    return np.array(rows, dtype=float).reshape(-1, 2)


def _proof_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    # Points of a small grid (integers, or quarters) labelled by a random integer w*: separable,
    # every score of a run exact; runs of at least three mistakes; u separating or not.
    out = []
    while len(out) < n_cases:
        n, d, q = int(rng.integers(3, 13)), int(rng.integers(1, 5)), 4 if len(out) % 4 == 3 else 1
        w_star = rng.integers(1, 4, size=d) * rng.choice([-1, 1], size=d)
        X = rng.integers(-3 * q, 3 * q + 1, size=(n, d)) / q
        X, u = X[X @ w_star != 0], [w_star, rng.normal(size=d), rng.integers(1, 4, size=d)][len(out) % 3]
        if len(X) and len(_proof_quantities(X, np.sign(X @ w_star), u)) >= 3:
            out.append((X, np.sign(X @ w_star), u.astype(float)))
    return out


def _proof_scale(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> float:
    # After k ≤ M mistakes ‖w_k‖² ≤ kR² (growth lemma) and |w_k·u| ≤ √k R: the largest entries.
    M, R = len(_proof_quantities(X, y, u)), float(np.max(np.linalg.norm(X, axis=1)))
    return max(M * R * R, math.sqrt(M) * R)


THREE = A([[1, 20], [1, -25], [1, 30]])  # the chapter's three points, times 10
EXERCISES = [
    Exercise("mistake_bound(R, gamma)", lambda: [
        C("R = 1 and gamma = 0.5", (1.0, 0.5), "The bound is the square of R/γ."),
        C("R = 3 and gamma = 0.5", (3.0, 0.5), "Both R and γ are squared: (R/γ)² = R²/γ²."),
        C("gamma = R", (2.0, 2.0), "With γ = R the bound is 1."),
        C("R = 0", (0.0, 0.25), "All points at the origin: R = 0, so the bound is 0."),
        C("small margin", (1.0, 1e-3), "A small γ makes the bound large: γ is in the denominator."),
    ], lambda rng, k: [(float(R), float(R * g)) for R, g in zip(rng.uniform(0.1, 10, k), rng.uniform(0.01, 1, k))],
             "The bound is (R/γ)².", bounds.novikoff_bound, "float",
             ("novikoff_bound", "uml_bound", "hinge_loss_bound", "solved_hinge_bound", "freund_schapire_bound",
              "online_to_pac"), bounds.novikoff_bound, "the answer"),
    Exercise("proof_quantities(X, y, u)", lambda: [
        C("one point", (A([[1, 0]]), A([1]), A([1, 0])),
          "From w₀ = 0 the first score is a tie, a mistake: row 0 holds w₁·u and ‖w₁‖² after its update."),
        C("squared length", (A([[3, 4]]), A([1]), A([0, 1])),
          "The second quantity is the squared length ‖w_k‖² of the growth lemma, not ‖w_k‖."),
        C("negative labels", (A([[-1, 0], [2, 1]]), A([-1, 1]), A([1, 0])),
          "A mistake on (x, y) adds y x: the label enters the update, and the test y w·x ≤ 0."),
        C("u not of unit length", (A([[3, 4], [0, 1]]), A([1, 1]), A([0, 2])),
          "The chapter's u is a unit vector: use u/‖u‖, the direction of u."),
        C("several passes", (THREE, A([1, 1, 1]), A([1, 0])),
          "Sweep the rows again and again; stop only after a whole pass without a mistake."),
        C("a u that does not separate", (THREE, A([1, 1, 1]), A([0, 1])),
          "w_k·u may fall and be negative when u does not separate the data: keep its sign."),
        C("ties after the start", (A([[1, 0, 0], [0, -1, 0], [0, 0, 1]]), A([1, -1, 1]), A([1, 1, 1])),
          "Every point meets a tie y w·x = 0 when first visited, after the first update too: a mistake."),
        C("ties in later passes", (A([[1, 1], [1, 0]]), A([1, -1]), A([-1, 2])),
          "Ties can come in any pass: five mistakes over four passes, four of them at a tie."),
    ], _proof_random, "Run the perceptron from w₀ = 0 over the rows in order (y w·x ≤ 0 is a mistake) until a "
             "pass without a mistake; after each update record w_k·u with u normalized, and ‖w_k‖².",
             _proof_quantities, "array", ("perceptron", "online_perceptron", "voted_perceptron", "kernel_perceptron",
                                          "margin_perceptron", "PerceptronLearner", "convert_stream"),
             _proof_scale, "max(M R², √M R), the largest an entry can be after M mistakes"),
]
