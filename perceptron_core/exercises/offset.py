"""Public checks of the exercise of the chapter "Offset": ``augment`` and ``offset_bound``."""

from __future__ import annotations

import numpy as np

from . import A, Case, Exercise, largest
from .. import bounds, data


def _augment_cases() -> list[Case]:
    return [
        Case("c = 1", (A([[1, 2], [3, 4]]), 1.0), "Append one coordinate, equal to c, at the end of every point."),
        Case("another constant", (A([[1, 2], [3, 4]]), 5.0), "The new coordinate is c, not always 1."),
        Case("one point", (A([[7, -1, 2]]), 1.0), "One point gains one coordinate."),
        Case("one dimension", (A([[2], [-3], [0]]), 2.0),
             "Keep one row per point: the result has shape (n, d + 1)."),
        Case("points at the origin", (A([[0, 0], [0, 0]]), 0.5), "The origin becomes (0, ..., 0, c)."),
        Case("negative constant", (A([[1, 1]]), -1.0), "Use c exactly as given, sign included."),
    ]


def _augment_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    return [(rng.normal(size=(int(rng.integers(1, 7)), int(rng.integers(1, 5)))),
             float(rng.uniform(0.1, 4))) for _ in range(n_cases)]


def _offset_bound_cases() -> list[Case]:
    return [
        Case("c = 1", (3.0, 0.5, 1.0, 1.0),
             "The bound is Block–Novikoff's (R'/γ')² on the augmented points (xᵢ, c): they lie "
             "within radius R', with R'² = R² + c², and the separator tilted towards the "
             "constant axis has margin at least γ' = γ/√(1 + b²/c²)."),
        Case("no offset: b = 0", (2.0, 0.5, 0.0, 1.0),
             "Even with b = 0 the constant coordinate lengthens every point, R'² = R² + c², so "
             "the bound is (R² + c²)/γ², not (R/γ)²."),
        Case("negative offset", (3.0, 0.5, -1.0, 1.0), "Only b² enters the bound: an offset -b gives the same bound as b."),
        Case("another constant", (3.0, 0.5, 1.0, 2.0),
             "c enters twice: in the radius, R'² = R² + c², and in the tilt, 1 + b²/c², both squared."),
        Case("c = |b|", (3.0, 0.5, 2.0, 2.0), "At c = |b| the tilt factor 1 + b²/c² is 2."),
        Case("the best constant", (4.0, 0.5, 1.0, 2.0),
             "At c² = R|b| the bound is smallest over c, and equals ((R + |b|)/γ)²."),
        Case("large constant", (1.0, 0.25, 0.5, 100.0), "A large c makes every augmented point long: R'² = R² + c²."),
        Case("tiny constant", (1.0, 0.25, 0.5, 1e-3), "A small c tilts the separator towards the constant axis: b²/c² is large."),
    ]


def _offset_bound_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []
    for _ in range(n_cases):
        R = float(rng.uniform(0.1, 10))
        gamma = float(R * rng.uniform(0.01, 1))
        # |b*| ≤ R − γ for a separator with points on both sides (the chapter's lemma)
        out.append((R, gamma, float((R - gamma) * rng.uniform(-1, 1)), float(R * 10.0 ** rng.uniform(-2, 1.5))))
    return out


EXERCISES = [
    Exercise("augment", "offset", "augment(X, c)",
             "X with a last column equal to c, shape (n, d + 1); every entry within 1e-6 times "
             "the largest ``|entry|`` of X and c.",
             _augment_cases, _augment_random, "The result is X with a last column of c's.",
             data.augment, "array", ("augment",), lambda X, c: largest(X, c),
             "the largest |entry| of X and c"),
    Exercise("offset_bound", "offset", "offset_bound(R, gamma, b, c)",
             "the mistake bound ``(R² + c²)(1 + b²/c²)/γ²`` of the perceptron on the points "
             "``(xᵢ, c)`` (a float), within a relative 1e-6.",
             _offset_bound_cases, _offset_bound_random, "The bound is (R² + c²)(1 + b²/c²)/γ².",
             bounds.offset_bound, "float",
             ("offset_bound", "novikoff_bound", "uml_bound", "unnormalized_bound",
              "hinge_loss_bound", "solved_hinge_bound", "freund_schapire_bound", "bound_at",
              "best_offset_bound", "online_to_pac"),
             bounds.offset_bound, "the answer"),
]
