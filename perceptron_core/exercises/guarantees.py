"""Public checks of the exercise of the chapter "Guarantees": ``pac_window`` and ``adversary``.

``adversary`` gets a factory, ``new_learner()``, rather than a learner: the reference and the
student's function must each play a learner in the same fresh state. The learners are
deterministic and answer +1, -1 or 0 ("no label"), as the package's OnlineLearner protocol says.
"""

from __future__ import annotations

import numpy as np

from . import Case, Exercise
from .. import bounds, guarantees


class _Learner:
    """A small deterministic learner: ``rule(state, x)`` predicts, ``learn(state, y)`` updates
    the state (a list)."""

    def __init__(self, rule, learn=None, state=None) -> None:
        self.rule, self.learn, self.state = rule, learn, list(state or [])

    def predict(self, x):
        return self.rule(self.state, x)

    def update(self, x, y):
        if self.learn:
            self.learn(self.state, y)


class NewLearner:
    """A factory of fresh learners, whose repr says which learner, for the verdict."""

    def __init__(self, description: str, make) -> None:
        self.description, self.make = description, make

    def __call__(self):
        return self.make()

    def __repr__(self) -> str:
        return f"<a factory of fresh learners: {self.description}>"


def _constant(p: int) -> NewLearner:
    return NewLearner(f"always predicts {p:+d}" if p else "always predicts 0 (no label)",
                      lambda: _Learner(lambda s, x: p))


def _majority(tie: int) -> NewLearner:
    return NewLearner(f"the majority of the labels told so far, {tie:+d} on a tie" if tie else
                      "the majority of the labels told so far, 0 (no label) on a tie",
                      lambda: _Learner(lambda s, x: int(np.sign(sum(s))) or tie, lambda s, y: s.append(y)))


def _last_label(first: int) -> NewLearner:
    return NewLearner(f"the last label told, {first:+d} before any",
                      lambda: _Learner(lambda s, x: s[-1], lambda s, y: s.append(1 if y > 0 else -1), [first]))


def _threshold(c: float) -> NewLearner:
    return NewLearner(f"+1 when the coordinates of x add up to more than {c:g}, -1 when less, 0 "
                      "(no label) when equal; learns nothing",
                      lambda: _Learner(lambda s, x: int(np.sign(float(np.sum(x)) - c))))


def _perceptron(tie: str) -> NewLearner:
    return NewLearner(f'the perceptron, tie="{tie}" (PerceptronLearner)',
                      lambda: guarantees.PerceptronLearner(tie))


def _nearest() -> NewLearner:
    return NewLearner("1-nearest neighbour, the first on a tie in distance, +1 before any example "
                      "(NearestNeighbourLearner)", guarantees.NearestNeighbourLearner)


def _halving(n: int) -> NewLearner:
    return NewLearner(f"halving over the {2**n} sign vectors of R^{n} (HalvingLearner)",
                      lambda: guarantees.HalvingLearner(guarantees.sign_vectors(n)))


def _adversary(new_learner, n: int, R: float) -> np.ndarray:
    return guarantees.adversary_game(new_learner(), n, R=R).y


def _window_cases() -> list[Case]:
    return [
        Case("R = gamma", (1.0, 1.0, 0.1, 0.05),
             "With R = γ the perceptron makes at most M = 1 mistake, so it holds at most M + 1 = 2 "
             "hypotheses: the union bound is over both."),
        Case("M = 4", (2.0, 1.0, 0.1, 0.1),
             "M = ⌊(R/γ)²⌋ mistakes leave M + 1 hypotheses, and each must survive its window "
             "with probability of failure at most δ/(M + 1)."),
        Case("bound not an integer", (1.5, 1.0, 0.2, 0.05), "Round (R/γ)² down to get M."),
        Case("small epsilon", (3.0, 1.0, 0.01, 0.01), "The window grows like 1/ε."),
        Case("R = 0", (0.0, 1.0, 0.5, 0.5), "With R = 0 there are no mistakes, M = 0, and one hypothesis to test."),
    ]


def _window_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []
    for _ in range(n_cases):
        R = float(rng.uniform(0.1, 5))
        out.append((R, float(R * rng.uniform(0.1, 1)), float(rng.uniform(0.01, 0.5)), float(rng.uniform(0.001, 0.5))))
    return out


def _adversary_cases() -> list[Case]:
    return [
        Case("always +1", (_constant(1), 3, 1.0),
             "The adversary gives each point the label opposite to the prediction: a learner "
             "that always says +1 is told -1 every time."),
        Case("always no label", (_constant(0), 3, 1.0),
             "A prediction of 0 means no label: a mistake whatever the label, and the chapter's "
             "adversary then says +1 (a label is +1 or -1, never 0)."),
        Case('perceptron with tie="mistake"', (_perceptron("mistake"), 4, 1.0),
             "Each new point R e_i is orthogonal to the perceptron's weights, so every score is a "
             'tie; under tie="mistake" the perceptron gives no label (0), and the adversary says +1.'),
        Case('perceptron with tie="positive"', (_perceptron("positive"), 4, 1.0),
             "Every score is a tie, which this rule predicts +1: the adversary says -1 each time."),
        Case('perceptron with tie="negative"', (_perceptron("negative"), 4, 1.0),
             "Every score is a tie, which this rule predicts -1: the adversary says +1 each time."),
        Case("majority of the labels so far", (_majority(-1), 6, 1.0),
             "This learner's prediction depends on the labels it has been told: give it each "
             "label with update(x_i, y_i) in its round, before the next prediction, and use one "
             "learner for the whole game."),
        Case("the last label again", (_last_label(1), 5, 1.0),
             "This learner repeats the last label it was told, so it must be told the labels one "
             "round at a time, in order: predict, then update with the adversary's label."),
        Case("1-nearest neighbour", (_nearest(), 5, 1.0),
             "1-nearest neighbour answers with the label of the closest point seen so far (the "
             "first on a tie, +1 before any): tell it every label, and show it every point."),
        Case("one round", (_perceptron("positive"), 1, 1.0),
             "With n = 1 the adversary shows the one point R e_1 in R^1 and returns one label."),
        Case("R = 3 and a learner that sees lengths", (_threshold(1.0), 4, 3.0),
             "The points are R e_i, of length R, not the unit vectors e_i: this learner says +1 "
             "when the coordinates of x add up to more than 1."),
        Case("halving over sign vectors", (_halving(5), 5, 2.0),
             "Halving predicts the majority vote of the sign vectors still consistent with every "
             "label it has been told: tell it every label."),
    ]


def _adversary_random(rng: np.random.Generator, n_cases: int) -> list[tuple]:
    out = []
    for k in range(n_cases):
        kind = k % 7
        n = int(rng.integers(1, 9 if kind == 6 else 13))
        R = int(rng.integers(1, 33)) / 8  # multiples of 1/8: a sum of x equals R exactly
        learner = [lambda: _constant(int(rng.choice([-1, 0, 1]))),
                   lambda: _majority(int(rng.choice([-1, 0, 1]))),
                   lambda: _last_label(int(rng.choice([-1, 1]))),
                   lambda: _threshold(R if rng.random() < 0.3 else int(rng.integers(0, 33)) / 8),
                   lambda: _perceptron(str(rng.choice(["mistake", "positive", "negative"]))),
                   _nearest, lambda: _halving(n)][kind]()
        out.append((learner, n, R))
    return out


EXERCISES = [
    Exercise("pac_window", "guarantees", "pac_window(R, gamma, epsilon, delta)",
             "the window of the online-to-PAC conversion, ``⌈(1/ε) ln((M + 1)/δ)⌉`` with "
             "``M = ⌊(R/γ)²⌋`` (an int).",
             _window_cases, _window_random, "window = ⌈(1/ε) ln((M + 1)/δ)⌉ with M = ⌊(R/γ)²⌋.",
             lambda R, gamma, epsilon, delta: bounds.online_to_pac(R, gamma, epsilon, delta).window,
             "int", ("online_to_pac", "max_rounds")),
    Exercise("adversary", "guarantees", "adversary(new_learner, n, R)",
             "the labels of the lower bound's adversary: in round i it shows ``x = R eᵢ`` in ℝⁿ "
             "to one fresh learner, gives the label ``y = −p`` for its prediction p (+1 when p "
             "is 0) and tells it ``update(x, y)``; an array (or list) of n labels ±1.",
             _adversary_cases, _adversary_random,
             "In round i show x = R e_i in R^n, ask for the prediction p, give the label y = -p "
             "(+1 when p is 0), and tell the learner before the next round.", _adversary, "labels",
             ("adversary_game",)),
]
