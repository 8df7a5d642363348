"""Public checks of the exercise of the chapter "Margin Perceptron": ``margin_mistake`` and
``margin_run``."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np

from . import A, Case as C, Exercise, largest


def _margin_mistake(w: np.ndarray, x: np.ndarray, y: float, gamma: float, target: float) -> bool:
    norm = float(np.linalg.norm(w))  # w = 0: no point has a margin yet, every point updates
    return norm == 0 or bool(y * float(w @ x) < target * gamma * norm)


def _replay(X: np.ndarray, y: np.ndarray, gamma: float, target: float) -> tuple[np.ndarray, int, float]:
    """The run of the chapter's algorithm box, every test decided exactly: ``w₁ = y₁x₁``, then
    sweeps with ``w ← w + yᵢxᵢ`` whenever ``y w·x/‖w‖ < τγ``, decided in fractions as ``y w·x < 0``
    or ``(y w·x)² < (τγ)² ‖w‖²``, until a clean sweep. Returns w, the number of updates, and the
    closest call (how near a test came to going the other way, relative to its sides)."""
    Z, aim = y[:, None] * X, F(target) * F(gamma)
    w, updates, closest, clean = Z[0].copy(), 0, np.inf, False
    while not clean and updates <= 1000:  # every case meets the theorem's hypotheses, and stops
        clean = True
        for z in Z:
            s, nn = sum(F(a) * F(b) for a, b in zip(z, w)), sum(F(a) ** 2 for a in w)
            closest = min(closest, abs(float(s) / float(nn) ** 0.5 - float(aim)) / (float(np.linalg.norm(z)) + float(aim)))
            if s < 0 or s * s < aim * aim * nn:
                w, updates, clean = w + z, updates + 1, False
    return w, updates, closest


def _runs(rng: np.random.Generator, n_cases: int) -> list[tuple]:
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
        if len(X) >= 2:
            y, target = np.where(X @ u > 0, 1.0, -1.0), float(rng.uniform(0.3, 0.9))
            gamma = float(np.min(np.abs(X @ u))) * float(rng.uniform(0.6, 0.99))
            _, updates, closest = _replay(X, y, gamma, target)
            if closest >= 1e-5 and 1 <= updates <= 40:
                out.append((X, y, gamma, target))
    return out


EXERCISES = [
    Exercise("margin_mistake(w, x, y, gamma, target)", lambda: [
        C("a true mistake", (A([1, 0]), A([-1, 1]), 1.0, 0.5, 0.5), "A point on the wrong side is always a margin mistake."),
        C("correct but too close", (A([1, 0]), A([0.1, 1]), 1.0, 0.5, 0.5),
          "A correct point whose margin is below τγ is still a margin mistake."),
        C("far enough", (A([1, 0]), A([2, 1]), 1.0, 0.5, 0.5), "A point whose normalized margin reaches τγ is no margin mistake."),
        C("target, not gamma", (A([1, 0]), A([0.4, 0]), 1.0, 0.5, 0.5), "The run aims for τγ, a fraction of γ: 0.4 ≥ 0.5 · 0.5."),
        C("exactly at target", (A([1, 0]), A([0.25, 3]), 1.0, 0.5, 0.5),
          "The test is strict: a margin equal to τγ is enough, so it is not a margin mistake."),
        C("w not of unit length", (A([4, 0]), A([0.5, 0]), 1.0, 1.0, 0.75),
          "Normalize: the margin is y w·x / ‖w‖, and scaling w must not change the verdict."),
        C("zero weights", (A([0, 0]), A([1, 1]), 1.0, 0.5, 0.5),
          "With w = 0 no point has a margin yet: every point is a margin mistake (and there is no ‖w‖)."),
        C("negative example", (A([0, 1]), A([0, -1]), -1.0, 0.5, 0.9), "Multiply by the label: y w·x."),
    ], lambda rng, k: [(rng.normal(size=d), rng.normal(size=d), float(rng.choice([-1.0, 1.0])),
                        float(rng.uniform(0.05, 1)), float(rng.uniform(0.1, 0.9))) for d in rng.integers(1, 5, k)],
             "Margin mistake: y w·x / ‖w‖ < τγ, or w = 0.", _margin_mistake, "bool", ("margin_perceptron",)),
    Exercise("margin_run(X, y, gamma, target)", lambda: [
        # multiples of 1/4, and at their ties w lies along an axis: every float margin is exact
        C("one point", (A([[3, 4]]), A([-1]), 4.0, 0.5),
          "The run starts from w₁ = y₁x₁, the update the first example makes from w = 0 (0/0 there)."),
        C("correct but too close", (A([[1, 0], [0.25, 1]]), A([1, 1]), 0.5, 0.8),
          "A correct point whose normalized margin is below τγ is a margin mistake too: it updates."),
        C("target, not gamma", (A([[2, 0], [0.75, 3]]), A([1, 1]), 1.0, 0.5),
          "The run aims for τγ: the second point's normalized margin, 0.75, reaches τγ = 0.5."),
        C("exactly at target", (A([[2, 0], [0.5, 3]]), A([1, 1]), 1.0, 0.5),
          "The test is strict: a normalized margin equal to τγ is not a margin mistake."),
        C("at target after an update", (A([[2, 0.5], [2, -2]]), A([-1, 1]), 1.0, 0.5),
          "After the update to w = (0, -2.5) the first point's margin is exactly τγ = 0.5: no update."),
        C("w not of unit length", (A([[4, 0], [1, 3]]), A([1, 1]), 1.5, 0.9),
          "Normalize: with w = (4, 0) the second point has y w·x = 4 but margin 1, below τγ = 1.35."),
        C("negative labels", (A([[-2, 1], [1, -3], [0.5, 2]]), A([-1, 1, -1]), 1.0, 0.6),
          "Multiply by the label, in the test and in the update w ← w + y x."),
        C("several epochs", (A([[-0.5, -2], [-0.5, 0]]), A([1, 1]), 0.5, 0.75),
          "The second point stays a margin mistake for four epochs: sweep until an epoch makes no update."),
    ], _runs, "Start from w₁ = y₁x₁; sweep in order, add yᵢxᵢ whenever yᵢ w·xᵢ/‖w‖ < τγ; stop after an "
             "epoch with no update.", lambda X, y, gamma, target: _replay(X, y, gamma, target)[0], "array",
             ("margin_perceptron",),
             # the final w (and every partial sum) is a sum of M + 1 of the yᵢxᵢ
             lambda X, y, gamma, target: (_replay(X, y, gamma, target)[1] + 1) * largest(X),
             "(M + 1) max|xᵢⱼ|, the largest |entry| a run of M updates can reach"),
]
