"""Public checks of the exercise of the chapter "Convergence": ``mistake_bound`` and
``proof_quantities``."""

from __future__ import annotations

import math

import numpy as np

from . import A, Case, Exercise
from .. import bounds


def _proof_quantities(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> np.ndarray:
    # The chapter's run: the cyclic perceptron from w₀ = 0, a tie a mistake, until a clean pass.
    # Every case has small-integer or dyadic data (every score exact) and is separable.
    unit = u / float(np.linalg.norm(u))
    w, rows, clean = np.zeros(X.shape[1]), [], False
    while not clean:
        clean = True
        for x, label in zip(X, y):
            if label * float(w @ x) <= 0:
                w = w + label * x
                rows.append((float(w @ unit), float(w @ w)))
                clean = False
    return np.array(rows, dtype=float).reshape(-1, 2)


def _proof_scale(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> float:
    # After k ≤ M mistakes ‖w_k‖² ≤ kR² (growth lemma) and |w_k·u| ≤ √k R: the largest entries.
    M, R = len(_proof_quantities(X, y, u)), float(np.max(np.linalg.norm(X, axis=1)))
    return max(M * R * R, math.sqrt(M) * R)


def _bound_cases() -> list[Case]:
    return [
        Case("R = 1 and gamma = 0.5", (1.0, 0.5), "The bound is the square of R/γ."),
        Case("R = 3 and gamma = 0.5", (3.0, 0.5), "Both R and γ are squared: (R/γ)² = R²/γ²."),
        Case("gamma = R", (2.0, 2.0), "With γ = R the bound is 1."),
        Case("R = 0", (0.0, 0.25), "All points at the origin: R = 0, so the bound is 0."),
        Case("small margin", (1.0, 1e-3), "A small γ makes the bound large: γ is in the denominator."),
    ]


def _bound_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    R = rng.uniform(0.1, 10, n_cases)
    return [(float(r), float(r * g)) for r, g in zip(R, rng.uniform(0.01, 1, n_cases))]


def _proof_cases() -> list[Case]:
    three = A([[1, 20], [1, -25], [1, 30]])  # the chapter's three points, times 10
    return [
        Case("one point", (A([[1, 0]]), A([1]), A([1, 0])),
             "From w₀ = 0 every score y w·x is 0, a tie, and a tie is a mistake: the first point "
             "is always a mistake. Record the two quantities after its update, so row 0 holds "
             "w₁·u and ‖w₁‖²."),
        Case("squared length", (A([[3, 4]]), A([1]), A([0, 1])),
             "The second quantity is the squared length ‖w_k‖² of the growth lemma, not ‖w_k‖."),
        Case("negative labels", (A([[-1, 0], [2, 1]]), A([-1, 1]), A([1, 0])),
             "A mistake on (x, y) adds y x, so a mistake on a negative example subtracts x: the "
             "label enters the update, and the test y w·x ≤ 0."),
        Case("u not of unit length", (A([[3, 4], [0, 1]]), A([1, 1]), A([0, 2])),
             "The chapter's u is a unit vector: use u/‖u‖, so that w_k·u is the component of "
             "w_k along the direction of u."),
        Case("several passes", (three, A([1, 1, 1]), A([1, 0])),
             "Sweep the rows in their order again and again, and stop only after a whole pass "
             "without a mistake: here the second pass still makes one."),
        Case("a u that does not separate", (three, A([1, 1, 1]), A([0, 1])),
             "The quantities are defined for any non-zero u: w_k·u may fall and be negative when "
             "u does not separate the data. Keep its sign."),
        Case("ties after the start", (A([[1, 0, 0], [0, -1, 0], [0, 0, 1]]), A([1, -1, 1]), A([1, 1, 1])),
             "On the chapter's orthonormal points every point meets a tie, y w·x = 0, when it is "
             "first visited, also after the first update: each tie is a mistake. Both lemmas "
             "hold with equality here: w_k·u = k/√3 and ‖w_k‖² = k."),
        Case("ties in later passes", (A([[1, 1], [1, 0]]), A([1, -1]), A([-1, 2])),
             "Ties can come in any pass: the run makes five mistakes over four passes, four of "
             "them at a tie y w·x = 0."),
    ]


def _proof_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    # Points of a small grid (integers, or quarters) labelled by a random integer w*: separable,
    # every score of a run exact; runs of at least three mistakes; u separating or not.
    out = []
    while len(out) < n_cases:
        n, d, q = int(rng.integers(3, 13)), int(rng.integers(1, 5)), 4 if len(out) % 4 == 3 else 1
        w_star = rng.integers(1, 4, size=d) * rng.choice([-1, 1], size=d)
        X = rng.integers(-3 * q, 3 * q + 1, size=(n, d)) / q
        X = X[X @ w_star != 0]
        u = [w_star, rng.normal(size=d), rng.integers(1, 4, size=d)][len(out) % 3].astype(float)
        if len(X) and len(_proof_quantities(X, np.sign(X @ w_star), u)) >= 3:
            out.append((X, np.sign(X @ w_star), u))
    return out


EXERCISES = [
    Exercise("mistake_bound", "convergence", "mistake_bound(R, gamma)",
             "the Block–Novikoff bound ``(R/γ)²`` (a float), within a relative 1e-6.",
             _bound_cases, _bound_random, "The bound is (R/γ)².", bounds.novikoff_bound, "float",
             ("novikoff_bound", "uml_bound", "hinge_loss_bound", "solved_hinge_bound",
              "freund_schapire_bound", "online_to_pac"),
             bounds.novikoff_bound, "the answer"),
    Exercise("proof_quantities", "convergence", "proof_quantities(X, y, u)",
             "the two quantities of the Block–Novikoff proof along the cyclic perceptron's run "
             "from ``w₀ = 0`` (ties are mistakes) until a clean pass: an (M, 2) array whose row "
             "k − 1 holds ``w_k·u`` (u normalized) and ``‖w_k‖²``, each within 1e-6 times "
             "``max(M R², √M R)``.",
             _proof_cases, _proof_random,
             "Run the perceptron from w₀ = 0 over the rows in order (y w·x ≤ 0 is a mistake) "
             "until a pass without a mistake; after each update record w_k·u with u normalized, "
             "and ‖w_k‖².", _proof_quantities, "array",
             ("perceptron", "online_perceptron", "voted_perceptron", "kernel_perceptron",
              "margin_perceptron", "PerceptronLearner", "convert_stream"),
             _proof_scale, "max(M R², √M R), the largest an entry can be after M mistakes"),
]
