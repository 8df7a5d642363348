"""Public checks of the exercise of the chapter "Offset": ``augment`` and ``offset_bound``."""

from __future__ import annotations

import numpy as np

from . import A, Case as C, Exercise, largest
from .. import bounds, data


def _offset_bound_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    R = rng.uniform(0.1, 10, n_cases)
    gamma = R * rng.uniform(0.01, 1, n_cases)
    # |b*| ≤ R − γ for a separator with points on both sides (the chapter's lemma)
    return [tuple(map(float, v)) for v in zip(R, gamma, (R - gamma) * rng.uniform(-1, 1, n_cases),
                                               R * 10.0 ** rng.uniform(-2, 1.5, n_cases))]


EXERCISES = [
    Exercise("augment(X, c)", lambda: [
        C("c = 1", (A([[1, 2], [3, 4]]), 1.0), "Append one coordinate, equal to c, at the end of every point."),
        C("another constant", (A([[1, 2], [3, 4]]), 5.0), "The new coordinate is c, not always 1."),
        C("one point", (A([[7, -1, 2]]), 1.0), "One point gains one coordinate."),
        C("one dimension", (A([[2], [-3], [0]]), 2.0), "Keep one row per point: the result has shape (n, d + 1)."),
        C("points at the origin", (A([[0, 0], [0, 0]]), 0.5), "The origin becomes (0, ..., 0, c)."),
        C("negative constant", (A([[1, 1]]), -1.0), "Use c exactly as given, sign included."),
    ], lambda rng, k: [(rng.normal(size=(n, d)), float(rng.uniform(0.1, 4)))
                       for n, d in zip(rng.integers(1, 7, k), rng.integers(1, 5, k))],
             "The result is X with a last column of c's.", data.augment, "array", ("augment",),
             lambda X, c: largest(X, c), "the largest |entry| of X and c"),
    Exercise("offset_bound(R, gamma, b, c)", lambda: [
        C("c = 1", (3.0, 0.5, 1.0, 1.0),
          "Block–Novikoff's (R'/γ')² on the points (xᵢ, c): R'² = R² + c² and γ' = γ/√(1 + b²/c²)."),
        C("no offset: b = 0", (2.0, 0.5, 0.0, 1.0),
          "Even with b = 0 the constant lengthens every point: the bound is (R² + c²)/γ², not (R/γ)²."),
        C("negative offset", (3.0, 0.5, -1.0, 1.0), "Only b² enters the bound: an offset -b gives the same bound as b."),
        C("another constant", (3.0, 0.5, 1.0, 2.0), "c enters twice: R'² = R² + c² and the tilt 1 + b²/c²."),
        C("c = |b|", (3.0, 0.5, 2.0, 2.0), "At c = |b| the tilt factor 1 + b²/c² is 2."),
        C("the best constant", (4.0, 0.5, 1.0, 2.0), "At c² = R|b| the bound is smallest, ((R + |b|)/γ)²."),
        C("large constant", (1.0, 0.25, 0.5, 100.0), "A large c makes every augmented point long: R'² = R² + c²."),
        C("tiny constant", (1.0, 0.25, 0.5, 1e-3), "A small c tilts the separator towards the constant axis: b²/c² is large."),
    ], _offset_bound_random, "The bound is (R² + c²)(1 + b²/c²)/γ².", bounds.offset_bound, "float",
             ("offset_bound", "novikoff_bound", "uml_bound", "unnormalized_bound", "hinge_loss_bound",
              "solved_hinge_bound", "freund_schapire_bound", "bound_at", "best_offset_bound", "online_to_pac"),
             bounds.offset_bound, "the answer"),
]
