"""Public checks of the exercise of the chapter "Margin Perceptron": ``margin_mistake`` and
``margin_run``."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from . import A, Case, Exercise, largest


def _margin_mistake(w: np.ndarray, x: np.ndarray, y: float, gamma: float, target: float) -> bool:
    norm = float(np.linalg.norm(w))
    # With w = 0 no point has a margin yet: Margin Perceptron updates on every point.
    return True if norm == 0 else bool(y * float(w @ x) < target * gamma * norm)


def _dot(a: np.ndarray, b: np.ndarray) -> Fraction:
    return sum((Fraction(float(p)) * Fraction(float(q)) for p, q in zip(a, b)), Fraction(0))


def _replay(X: np.ndarray, y: np.ndarray, gamma: float, target: float) -> tuple[np.ndarray, int, float]:
    """The run of the chapter's algorithm box, every test decided exactly: ``w₁ = y₁x₁``, then
    sweeps with ``w ← w + yᵢxᵢ`` whenever ``y w·x/‖w‖ < τγ``, decided in fractions as ``y w·x < 0``
    or ``(y w·x)² < (τγ)² ‖w‖²``, until a clean sweep. Returns w, the number of updates, and the
    closest call (how near a test came to going the other way, relative to its sides)."""
    Z = y[:, None] * X
    aim = Fraction(target) * Fraction(gamma)
    w, updates, closest = Z[0].copy(), 0, np.inf
    while True:
        clean = True
        for z in Z:
            s, nn = _dot(z, w), _dot(w, w)
            closest = min(closest, abs(float(s) / float(nn) ** 0.5 - float(aim))
                          / (float(np.linalg.norm(z)) + float(aim)))
            if s < 0 or s * s < aim * aim * nn:
                w, updates, clean = w + z, updates + 1, False
        if clean or updates > 1000:  # every case meets the theorem's hypotheses, and stops
            return w, updates, closest


def _margin_mistake_cases() -> list[Case]:
    return [
        Case("a true mistake", (A([1, 0]), A([-1, 1]), 1.0, 0.5, 0.5),
             "A point on the wrong side is always a margin mistake."),
        Case("correct but too close", (A([1, 0]), A([0.1, 1]), 1.0, 0.5, 0.5),
             "A correct point whose margin is below τγ is still a margin mistake."),
        Case("far enough", (A([1, 0]), A([2, 1]), 1.0, 0.5, 0.5),
             "A point whose normalized margin reaches τγ is not a margin mistake."),
        Case("target, not gamma", (A([1, 0]), A([0.4, 0]), 1.0, 0.5, 0.5),
             "The run aims for τγ, a fraction of γ: 0.4 ≥ 0.5 · 0.5."),
        Case("exactly at target", (A([1, 0]), A([0.25, 3]), 1.0, 0.5, 0.5),
             "The test is strict: a margin equal to τγ is enough, so it is not a margin mistake."),
        Case("w not of unit length", (A([4, 0]), A([0.5, 0]), 1.0, 1.0, 0.75),
             "Normalize: the margin is y w·x / ‖w‖, and scaling w must not change the verdict."),
        Case("zero weights", (A([0, 0]), A([1, 1]), 1.0, 0.5, 0.5),
             "With w = 0 no point has a margin yet, so every point counts as a margin mistake "
             "(and there is no ‖w‖ to divide by)."),
        Case("negative example", (A([0, 1]), A([0, -1]), -1.0, 0.5, 0.9), "Multiply by the label: y w·x."),
    ]


def _margin_mistake_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []
    for _ in range(n_cases):
        d = int(rng.integers(1, 5))
        out.append((rng.normal(size=d), rng.normal(size=d), float(rng.choice([-1.0, 1.0])),
                    float(rng.uniform(0.05, 1)), float(rng.uniform(0.1, 0.9))))
    return out


def _margin_run_cases() -> list[Case]:
    # Multiples of 1/4, and at their ties w lies along an axis, so that every way of computing
    # a margin in floats is exact there; each meets the theorem's hypotheses, so each run stops.
    return [
        Case("one point", (A([[3, 4]]), A([-1]), 4.0, 0.5),
             "The run starts from w₁ = y₁x₁: the update the first example makes from w = 0, where "
             "no point has a normalized margin (0/0)."),
        Case("correct but too close", (A([[1, 0], [0.25, 1]]), A([1, 1]), 0.5, 0.8),
             "A point on the correct side whose normalized margin is below τγ is a margin mistake "
             "too: the run updates on it, not only on true mistakes."),
        Case("target, not gamma", (A([[2, 0], [0.75, 3]]), A([1, 1]), 1.0, 0.5),
             "The run aims for τγ, a fraction of γ: here the second point's normalized margin, "
             "0.75, reaches τγ = 0.5, so it is no margin mistake."),
        Case("exactly at target", (A([[2, 0], [0.5, 3]]), A([1, 1]), 1.0, 0.5),
             "The test is strict: a normalized margin equal to τγ is not a margin mistake, so "
             "the run makes no update on it."),
        Case("at target after an update", (A([[2, 0.5], [2, -2]]), A([-1, 1]), 1.0, 0.5),
             "After the update to w = (0, -2.5) the first point's normalized margin is exactly "
             "τγ = 0.5: not a margin mistake, as the test is strict."),
        Case("w not of unit length", (A([[4, 0], [1, 3]]), A([1, 1]), 1.5, 0.9),
             "Normalize: the margin is y w·x/‖w‖. With w = (4, 0) the second point has y w·x = 4 "
             "but normalized margin 1, below τγ = 1.35."),
        Case("negative labels", (A([[-2, 1], [1, -3], [0.5, 2]]), A([-1, 1, -1]), 1.0, 0.6),
             "Multiply by the label, in the test and in the update w ← w + y x."),
        Case("several epochs", (A([[-0.5, -2], [-0.5, 0]]), A([1, 1]), 0.5, 0.75),
             "One update may not be enough: here the second point stays a margin mistake for "
             "four epochs. Sweep again until a whole epoch makes no update."),
    ]


def _margin_run_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    # Multiples of 1/8 (sums exact, in float32 too) at distance 1/4 to 3/4 from a random unit
    # u's hyperplane, γ below u's margin; kept when no test comes within 1e-5 of going the
    # other way, so that float32 and any order of operations decide as the exact run does.
    out = []
    while len(out) < n_cases:
        n, d = int(rng.integers(2, 11)), int(rng.integers(2, 5))
        u = rng.normal(size=d)
        u /= np.linalg.norm(u)
        X = rng.integers(-16, 17, size=(20 * n, d)) / 8.0
        X = X[(np.abs(X @ u) >= 0.25) & (np.abs(X @ u) <= 0.75)][:n]
        if len(X) < 2:
            continue
        y = np.where(X @ u > 0, 1.0, -1.0)
        gamma = float(np.min(np.abs(X @ u))) * float(rng.uniform(0.6, 0.99))
        target = float(rng.uniform(0.3, 0.9))
        _, updates, closest = _replay(X, y, gamma, target)
        if closest >= 1e-5 and 1 <= updates <= 40:
            out.append((X, y, gamma, target))
    return out


EXERCISES = [
    Exercise("margin_mistake", "margin_perceptron", "margin_mistake(w, x, y, gamma, target)",
             "does Margin Perceptron(γ) update on (x, y)? True when ``w = 0`` or "
             "``y w·x / ‖w‖ < target·gamma``, else False (a bool).",
             _margin_mistake_cases, _margin_mistake_random,
             "Margin mistake: y w·x / ‖w‖ < τγ, or w = 0.", _margin_mistake, "bool",
             ("margin_perceptron",)),
    Exercise("margin_run", "margin_perceptron", "margin_run(X, y, gamma, target)",
             "the weights at the end of the chapter's Margin Perceptron run: ``w₁ = y₁x₁``, then "
             "sweeps with ``w ← w + yᵢxᵢ`` whenever ``yᵢ w·xᵢ/‖w‖ < target·gamma``, until a "
             "sweep makes no update; every entry within 1e-6 times ``(M + 1) max|xᵢⱼ|``.",
             _margin_run_cases, _margin_run_random,
             "Start from w₁ = y₁x₁; sweep in order, add yᵢxᵢ whenever yᵢ w·xᵢ/‖w‖ < τγ; stop "
             "after an epoch with no update.",
             lambda X, y, gamma, target: _replay(X, y, gamma, target)[0], "array",
             ("margin_perceptron",),
             # the final w (and every partial sum) is a sum of M + 1 of the yᵢxᵢ
             lambda X, y, gamma, target: (_replay(X, y, gamma, target)[1] + 1) * largest(X),
             "(M + 1) max|xᵢⱼ|, the largest |entry| a run of M updates can reach"),
]
