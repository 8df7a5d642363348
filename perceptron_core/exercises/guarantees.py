"""Public checks of the exercise of the chapter "Guarantees": ``pac_window`` and ``adversary``.

``adversary`` gets a factory, ``new_learner()``, rather than a learner: the reference and the
student's function must each play a learner in the same fresh state. The learners are
deterministic and answer +1, -1 or 0 ("no label"), as the package's OnlineLearner protocol says.
"""

from __future__ import annotations

import numpy as np

from . import Case as C, Exercise
from .. import bounds, guarantees as g


class _Learner:
    """A small learner: ``rule(labels, x)`` predicts from the labels told so far (``first``
    before any)."""

    def __init__(self, rule, first: int = 0) -> None:
        self.rule, self.labels = rule, [first]

    def predict(self, x):
        return self.rule(self.labels, x)

    def update(self, x, y):
        self.labels.append(1 if y > 0 else -1)


class NewLearner:
    """A factory of fresh learners, whose repr says which learner, for the verdict."""

    def __init__(self, description: str, make) -> None:
        self.description, self.make = description, make

    def __call__(self):
        return self.make()

    def __repr__(self) -> str:
        return f"<a factory of fresh learners: {self.description}>"


def _said(p: int) -> str:
    return f"{p:+d}" if p else "0 (no label)"


def _learner(kind: str, v) -> NewLearner:
    """The case's learner: ``kind`` and its parameter ``v``."""
    if kind == "constant":
        return NewLearner(f"always predicts {_said(v)}", lambda: _Learner(lambda s, x: v))
    if kind == "majority":  # the first entry, 0, does not count
        return NewLearner(f"the majority of the labels told so far, {_said(v)} on a tie",
                          lambda: _Learner(lambda s, x: int(np.sign(sum(s))) or v))
    if kind == "last":
        return NewLearner(f"the last label told, {v:+d} before any", lambda: _Learner(lambda s, x: s[-1], v))
    if kind == "threshold":
        return NewLearner(f"+1 when the coordinates of x add up to more than {v:g}, -1 when less, 0 "
                          "(no label) when equal; learns nothing",
                          lambda: _Learner(lambda s, x: int(np.sign(float(np.sum(x)) - v))))
    if kind == "perceptron":
        return NewLearner(f'the perceptron, tie="{v}" (PerceptronLearner)', lambda: g.PerceptronLearner(v))
    if kind == "nearest":
        return NewLearner("1-nearest neighbour, the first on a tie in distance, +1 before any example "
                          "(NearestNeighbourLearner)", g.NearestNeighbourLearner)
    return NewLearner(f"halving over the {2**v} sign vectors of R^{v} (HalvingLearner)",
                      lambda: g.HalvingLearner(g.sign_vectors(v)))


def _games(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []
    for k in range(n_cases):
        kind = ("constant", "majority", "last", "threshold", "perceptron", "nearest", "halving")[k % 7]
        n, R = int(rng.integers(1, 9 if kind == "halving" else 13)), int(rng.integers(1, 33)) / 8
        v = {"constant": int(rng.choice([-1, 0, 1])), "majority": int(rng.choice([-1, 0, 1])),
             "last": int(rng.choice([-1, 1])), "perceptron": str(rng.choice(["mistake", "positive", "negative"])),
             # sometimes exactly R, the sum of R e_i's coordinates: no label
             "threshold": R if rng.random() < 0.3 else int(rng.integers(0, 33)) / 8}.get(kind, n)
        out.append((_learner(kind, v), n, R))
    return out


EXERCISES = [
    Exercise("pac_window(R, gamma, epsilon, delta)", lambda: [
        C("R = gamma", (1.0, 1.0, 0.1, 0.05),
          "With R = γ the perceptron makes at most M = 1 mistake and holds M + 1 = 2 hypotheses: the "
          "union bound is over both."),
        C("M = 4", (2.0, 1.0, 0.1, 0.1),
          "M = ⌊(R/γ)²⌋ mistakes leave M + 1 hypotheses, each to fail with probability at most δ/(M + 1)."),
        C("bound not an integer", (1.5, 1.0, 0.2, 0.05), "Round (R/γ)² down to get M."),
        C("small epsilon", (3.0, 1.0, 0.01, 0.01), "The window grows like 1/ε."),
        C("R = 0", (0.0, 1.0, 0.5, 0.5), "With R = 0 there are no mistakes, M = 0, and one hypothesis to test."),
    ], lambda rng, k: [(float(R), float(R * q), float(e), float(d)) for R, q, e, d in zip(
        rng.uniform(0.1, 5, k), rng.uniform(0.1, 1, k), rng.uniform(0.01, 0.5, k), rng.uniform(0.001, 0.5, k))],
             "window = ⌈(1/ε) ln((M + 1)/δ)⌉ with M = ⌊(R/γ)²⌋.",
             lambda R, gamma, epsilon, delta: bounds.online_to_pac(R, gamma, epsilon, delta).window, "int",
             ("online_to_pac", "max_rounds")),
    Exercise("adversary(new_learner, n, R)", lambda: [
        C("always +1", (_learner("constant", 1), 3, 1.0),
          "The adversary contradicts the prediction: a learner that always says +1 is told -1 every time."),
        C("always no label", (_learner("constant", 0), 3, 1.0),
          "A prediction of 0 means no label: a mistake whatever the label, and the adversary then says +1."),
        C('perceptron with tie="mistake"', (_learner("perceptron", "mistake"), 4, 1.0),
          'Each R e_i is orthogonal to the weights: a tie, which under tie="mistake" gives no label (0): +1.'),
        C('perceptron with tie="positive"', (_learner("perceptron", "positive"), 4, 1.0),
          "Every score is a tie, which this rule predicts +1: the adversary says -1 each time."),
        C('perceptron with tie="negative"', (_learner("perceptron", "negative"), 4, 1.0),
          "Every score is a tie, which this rule predicts -1: the adversary says +1 each time."),
        C("majority of the labels so far", (_learner("majority", -1), 6, 1.0),
          "Tell one learner each label with update(x_i, y_i) in its round, before the next prediction."),
        C("the last label again", (_learner("last", 1), 5, 1.0),
          "This learner repeats the last label it was told: predict, then update, one round at a time."),
        C("1-nearest neighbour", (_learner("nearest", 0), 5, 1.0),
          "1-nearest neighbour answers with the label of the closest point seen: show it every point."),
        C("one round", (_learner("perceptron", "positive"), 1, 1.0),
          "With n = 1 the adversary shows the one point R e_1 in R^1 and returns one label."),
        C("R = 3 and a learner that sees lengths", (_learner("threshold", 1.0), 4, 3.0),
          "The points are R e_i, of length R, not the unit vectors e_i."),
        C("halving over sign vectors", (_learner("halving", 5), 5, 2.0),
          "Halving votes among the sign vectors consistent with every label told: tell it every label."),
    ], _games, "In round i show x = R e_i in R^n, ask for the prediction p, give the label y = -p (+1 when p "
             "is 0), and tell the learner before the next round.",
             lambda new_learner, n, R: g.adversary_game(new_learner(), n, R=R).y, "labels", ("adversary_game",)),
]
