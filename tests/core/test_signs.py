"""The package's one exact sign decision (:mod:`perceptron_core._signs`), against fractions.

Every float is a rational number, and ``fractions.Fraction`` computes with rationals exactly: the
sign of ``Σ Fraction(aⱼ)·Fraction(θⱼ)`` is the truth the package's decision must match, on the
cases where floating point goes wrong: products that cancel, sums within an ulp of 0, entries
whose products underflow (1e-200) or overflow (1e200), integers with exact ties.

The second half checks that every algorithm, every ``predict`` and the conversion decide through
this one function: each runs on a point where the float score is unreliable, must give the exact
answer, and must have asked :func:`perceptron_core._signs.exact_sign` for it.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perceptron_core as pc
from perceptron_core import _signs
from perceptron_core.guarantees import BandDistribution, HalvingLearner

from conftest import examples


def _truth(a, b) -> int:
    total = sum((Fraction(float(p)) * Fraction(float(q)) for p, q in zip(a, b)), Fraction(0))
    return (total > 0) - (total < 0)


# Floats of every size the package may meet: tiny (products underflow), huge (products overflow
# to inf: the decision must still be exact), and ordinary ones; with exact zeros and integers.
_magnitude = st.sampled_from([1e-200, 1e-160, 1e-20, 1.0, 3.0, 1e16, 1e150, 1e200])
_entry = st.one_of(
    st.builds(lambda m, s: m * s, _magnitude, st.floats(-1.0, 1.0, allow_subnormal=False)),
    st.integers(-3, 3).map(float),
    st.just(0.0),
)


@st.composite
def cancelling(draw):
    """a and θ whose products nearly cancel: big + small − big, or p·q − p'·q' with p·q ≈ p'·q'."""
    d = draw(st.integers(2, 6))
    a = draw(st.lists(_entry, min_size=d, max_size=d))
    theta = draw(st.lists(_entry, min_size=d, max_size=d))
    if draw(st.booleans()):  # make the first two products cancel up to a few ulps
        big = draw(st.sampled_from([1e16, 2.0**60, 1e-150, 7.0]))
        a[0], theta[0] = big, 1.0
        a[1], theta[1] = -big * (1 + draw(st.integers(-3, 3)) * 2.0**-52), 1.0
    return np.array(a), np.array(theta)


@settings(max_examples=examples(600), deadline=None)
@given(cancelling())
def test_signs_are_the_signs_of_exact_rational_arithmetic(case):
    a, theta = case
    assert int(_signs.signs(a[None, :], theta)[0]) == _truth(a, theta)
    assert _signs.exact_sign(a, theta) == _truth(a, theta)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 6), st.integers(1, 4), st.integers(1, 5), st.integers(0, 2**31 - 1))
def test_signs_of_many_rows_and_vectors_at_once(n, d, k, seed):
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-200, 200, size=(n, 1))
    A = rng.integers(-3, 4, size=(n, d)) * scale + rng.choice([0.0, 1e-300], size=(n, d))
    T = rng.integers(-3, 4, size=(k, d)).astype(float)
    T[0] = 0.0  # the zero vector scores exactly 0 against every row
    got = _signs.signs(A, T)
    assert got.shape == (n, k) and got.dtype == np.int8
    assert got.tolist() == [[_truth(A[i], T[j]) for j in range(k)] for i in range(n)]
    R = rng.integers(-3, 4, size=(k, n, d)) * scale[None] + 0.5
    W = rng.integers(-3, 4, size=(k, d)) * 1e-180
    assert _signs.paired_signs(R, W).tolist() == [[_truth(R[r, j], W[r]) for j in range(n)] for r in range(k)]


def test_the_hard_cases_by_name():
    cases = {
        "cancels to 1, floats say 0": ([1e16, 1.0, -1e16], [1.0, 1.0, 1.0], 1),
        "cancels to -1": ([1e16, -1.0, -1e16], [1.0, 1.0, 1.0], -1),
        "0.1 + 0.2 - 0.3 is not 0": ([0.1, 0.2, -0.3], [1.0, 1.0, 1.0], 1),
        "products underflow to 0": ([1e-200, 0.0], [1e-200, 1.0], 1),
        "underflowing products cancel": ([1e-200, -1e-200], [3e-200, 3e-200], 0),
        "products overflow to inf and cancel": ([1e200, -1e200, 1.0], [1e200, 1e200, -1.0], -1),
        "exact tie of integers": ([3.0, -2.0], [2.0, 3.0], 0),
        "a tie at 2^53": ([2.0**53, 1.0, -(2.0**53)], [1.0, 1.0, 1.0], 1),
    }
    for name, (a, theta, sign) in cases.items():
        assert _truth(a, theta) == sign, name
        with np.errstate(over="ignore", invalid="ignore"):
            assert int(_signs.signs(np.array([a]), np.array(theta))[0]) == sign, name


def test_decide_trusts_a_float_only_beyond_the_slack():
    asked = []

    def exact(i):
        asked.append(i)
        return -7  # a marker: the decision came from here

    scores = np.array([5.0, 0.5, -0.5, 0.0, np.nan, -3.0])
    out = _signs.decide(scores, np.full(6, 1.0), exact)
    assert out.tolist() == [1, -7, -7, -7, -7, -1] and asked == [1, 2, 3, 4]
    asked.clear()
    exact_mask = np.array([False, False, False, True, True, False])
    out = _signs.decide(scores, np.zeros(6), exact, exact_scores=exact_mask)
    assert out.tolist() == [1, 1, -1, 0, -7, -1] and asked == [4]  # a NaN is never trusted
    rel, tiny = _signs.slack_coefficients(3, 2.0)
    assert _signs.slack(3, 10.0) == pytest.approx(10 * rel / 2 + tiny) and tiny == 10 * _signs.SUBNORMAL


# ---------------------------------------------------------------------------------------------
# Every algorithm, predict and conversion decides through the one function
# ---------------------------------------------------------------------------------------------

# The final weights after a run on the unit vectors (each met first at a tie, so each updates
# once): w = (1, 1, 1). Against it, x = (1e16, 1, -1e16) scores exactly 1, but a float sum in
# the usual order says 0.
HARD_X = np.array([[1e16, 1.0, -1e16], [1e16, -1.0, -1e16]])
EXACT = [1, -1]


@pytest.fixture
def asked(monkeypatch):
    calls = []
    original = _signs.exact_sign

    def counting(a, b):
        calls.append(1)
        return original(a, b)

    monkeypatch.setattr(_signs, "exact_sign", counting)
    return calls


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        return fn(*args, **kwargs)


@pytest.mark.parametrize("path", [
    "PerceptronResult.predict",
    "online_perceptron",
    "averaged_perceptron.predict",
    "voted_perceptron.votes",
    "kernel_perceptron(linear).predict",
    "estimator.Perceptron.predict",
    "HalvingLearner.predict",
])
def test_every_predict_asks_the_one_exact_sign(path, asked):
    E = np.eye(3)
    ones = np.ones(3)
    if path == "PerceptronResult.predict":
        got = pc.perceptron(E, ones).predict(HARD_X).tolist()
    elif path == "online_perceptron":
        steps = list(pc.online_perceptron(zip(np.vstack([E, HARD_X]), np.r_[ones, -1.0, 1.0])))
        got = [s.prediction for s in steps[3:]]  # predicted with w = (1, 1, 1), then updated
    elif path == "averaged_perceptron.predict":
        avg = _quiet(pc.averaged_perceptron, E, ones, epochs=1)
        assert avg.w_sum.tolist() == [3.0, 2.0, 1.0]
        X = np.array([[1e16, 1.0, -3e16], [1e16, -3.0, -3e16]])  # exact scores 2 and -3
        got = avg.predict(X).tolist()
        assert got == [_truth(x, avg.w_sum) for x in X] == [1, -1]
        assert asked
        return
    elif path == "voted_perceptron.votes":
        vote = _quiet(pc.voted_perceptron, E, ones, epochs=1)
        # Each iterate votes its exact sign (0 at a tie, under tie="mistake"), weighted by its count.
        expected = [sum(int(c) * _truth(x, w) for c, w in zip(vote.counts, vote.weights)) for x in HARD_X]
        assert vote.votes(HARD_X).tolist() == expected and asked
        return
    elif path == "kernel_perceptron(linear).predict":
        got = pc.kernel_perceptron(E, ones, kernel="linear").predict(HARD_X).tolist()
    elif path == "estimator.Perceptron.predict":
        est = pc.Perceptron(offset=False).fit(np.vstack([E, -E]), np.r_[ones, -ones])
        assert est.coef_[0].tolist() == [1.0, 1.0, 1.0]
        got = [1 if label > 0 else -1 for label in est.predict(HARD_X)]
    else:  # the halving algorithm's hypotheses vote by the exact sign of h·x
        learner = HalvingLearner(np.ones((1, 3)))
        got = [learner.predict(x) for x in HARD_X]
    assert got == EXACT
    assert asked, f"{path} decided without the package's exact sign"


def test_the_runs_and_the_conversion_ask_the_one_exact_sign(asked):
    # The compiled loop hands the score it cannot trust back to Python, which asks exact_sign.
    X = np.vstack([np.eye(3), HARD_X])
    y = np.array([1.0, 1.0, 1.0, -1.0, 1.0])
    run = _quiet(pc.perceptron, X, y, max_epochs=3, record=True)
    assert asked
    # Recounted here: the weights are added in floats, as the run adds them, and a mistake is
    # y·(w·x) <= 0 decided in fractions.
    w = np.zeros(3)
    mistakes = []
    for _ in range(3):
        for i, (x, label) in enumerate(zip(X, y)):
            if label * _truth(x, w) <= 0:
                w = w + label * x
                mistakes.append(i)
    assert run.history.indices.tolist() == mistakes[: run.mistakes] and run.mistakes >= 5
    asked.clear()
    # The conversion's vectorized runs decide each w·x of their streams the same way, and make
    # the online perceptron's decisions: after (1e16, 1) the hypothesis meets (1, -1e16), whose
    # score is exactly 0, a tie, far inside the rounding of its products.
    stream = np.array([[1e16, 1.0], [1.0, -1e16]] + [[1e16, 1.0]] * 48)
    labels = np.ones(len(stream))
    sim = pc.simulate_conversion(BandDistribution(0.5, 1.0), 0.3, 0.3, streams=(stream[None], labels[None]))
    assert asked
    online = pc.convert_stream(zip(stream, labels), sim.window)
    assert (sim.mistakes[0], sim.examples[0]) == (online.mistakes, online.examples) == (2, 12)
