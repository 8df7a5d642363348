"""Tests for perceptron_core.variants: the averaged, voted and kernel perceptrons.

Each algorithm is checked against a naive reference written here in plain Python with exact
rational arithmetic (Freund and Schapire's pseudocode, round by round), on many random integer
data sets, so that no rounding can hide or fake a difference.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perceptron_core as pc
from perceptron_core.variants import (
    KERNELS,
    averaged_perceptron,
    kernel_perceptron,
    voted_perceptron,
)

TIES = ["mistake", "positive", "negative"]


@pytest.fixture(autouse=True)
def _no_convergence_warnings():
    # Runs that stop at the cap are the subject here; their warning is tested separately.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        yield


@st.composite
def integer_data(draw, max_n: int = 10, max_d: int = 3, low: int = -4, high: int = 4):
    """Small integer data with arbitrary labels (separable or not), and integer test points."""
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    entries = st.integers(low, high)
    X = np.array(draw(st.lists(st.lists(entries, min_size=d, max_size=d), min_size=n, max_size=n)), float)
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    T = draw(st.lists(st.lists(entries, min_size=d, max_size=d), min_size=1, max_size=8))
    return X, y, np.array(T, float)


def _mistake(label: int, score: Fraction, tie: str) -> bool:
    if score != 0:
        return label * score < 0
    return tie == "mistake" or (tie == "positive" and label < 0) or (tie == "negative" and label > 0)


def _sign_label(score: Fraction, tie: str) -> int:
    if score != 0:
        return 1 if score > 0 else -1
    return {"mistake": 0, "positive": 1, "negative": -1}[tie]


def _reference_rounds(X, y, epochs, offset, tie):
    """Freund and Schapire's loop in exact arithmetic: the list of (iterate, count) pairs and
    the weight vector held after every single round."""
    rows = [[Fraction(int(v)) for v in row] + ([Fraction(1)] if offset else []) for row in X]
    labels = [int(v) for v in y]
    v = [Fraction(0)] * len(rows[0])
    iterates, counts, after_round = [list(v)], [0], []
    for _ in range(epochs):
        for x, label in zip(rows, labels):
            score = sum(a * b for a, b in zip(v, x))
            if _mistake(label, score, tie):
                v = [a + label * b for a, b in zip(v, x)]
                iterates.append(list(v))
                counts.append(1)
            else:
                counts[-1] += 1
            after_round.append(list(v))
    return iterates, counts, after_round


# ---------------------------------------------------------------------------------------------
# Averaged perceptron
# ---------------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(integer_data(), st.integers(1, 5), st.booleans(), st.sampled_from(TIES))
def test_averaged_is_the_mean_of_the_iterates_computed_naively(data, epochs, offset, tie):
    X, y, _ = data
    avg = averaged_perceptron(X, y, epochs=epochs, offset=offset, tie=tie)
    _, _, after_round = _reference_rounds(X, y, epochs, offset, tie)
    assert len(after_round) == len(y) * epochs
    mean = [float(sum(col) / len(after_round)) for col in zip(*after_round)]
    d = X.shape[1]
    np.testing.assert_allclose(avg.w, mean[:d], rtol=1e-12, atol=1e-12)
    assert math.isclose(avg.b, mean[d] if offset else 0.0, rel_tol=1e-12, abs_tol=1e-12)
    # The last iterate is the perceptron's own, and the mistakes are its mistakes.
    last = pc.perceptron(X, y, offset=offset, max_epochs=epochs, tie=tie)
    np.testing.assert_array_equal(avg.w_last, last.w)
    assert avg.b_last == last.b
    assert avg.mistakes == last.mistakes
    assert avg.epochs == epochs


@settings(max_examples=100)
@given(integer_data(), st.integers(1, 4), st.booleans())
def test_averaged_predict_is_the_sign_of_the_averaged_score(data, epochs, offset):
    X, y, T = data
    avg = averaged_perceptron(X, y, epochs=epochs, offset=offset)
    _, _, after_round = _reference_rounds(X, y, epochs, offset, "mistake")
    total = [sum(col) for col in zip(*after_round)]  # n·T times the average: same sign, exact
    for t, got in zip(T, avg.predict(T)):
        score = sum(Fraction(int(a)) * b for a, b in zip(list(t) + ([1] if offset else []), total))
        assert got == _sign_label(score, "mistake")


def test_averaged_predict_keeps_an_exact_tie_that_division_would_round_away():
    # The averaged score at (3, -2) is exactly 0 (2·3 − (8/3)·2 − 2/3 = 0), but with the
    # averages rounded to floats it comes out nonzero; the sums keep it exact.
    X = np.array([[-3.0, 0.0], [4.0, 1.0], [-3.0, 2.0]])
    y = np.array([-1.0, 1.0, 1.0])
    avg = averaged_perceptron(X, y, epochs=3, offset=True)
    np.testing.assert_allclose(avg.w, [2.0, 8 / 3])
    assert math.isclose(avg.b, -2 / 3)
    assert avg.predict([[3.0, -2.0]]).tolist() == [0]


def test_averaged_on_separable_data_keeps_averaging_after_convergence():
    # Converged after the first sweep: the remaining epochs still count, with the last iterate.
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0])
    avg = averaged_perceptron(X, y, epochs=3)
    assert avg.converged
    # Rounds: (1,0) mistake -> w=(1,0); (0,1) mistake -> w=(1,1); then 4 rounds at (1,1).
    np.testing.assert_allclose(avg.w, [(1 + 1 + 4) / 6, (0 + 1 + 4) / 6])


# ---------------------------------------------------------------------------------------------
# Voted perceptron
# ---------------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(integer_data(), st.integers(1, 5), st.booleans(), st.sampled_from(TIES))
def test_voted_predictions_equal_a_naive_weighted_vote(data, epochs, offset, tie):
    X, y, T = data
    voted = voted_perceptron(X, y, epochs=epochs, offset=offset, tie=tie)
    iterates, counts, _ = _reference_rounds(X, y, epochs, offset, tie)
    d = X.shape[1]
    assert voted.counts.tolist() == counts
    assert int(voted.counts.sum()) == len(y) * epochs
    assert [[float(v) for v in it[:d]] for it in iterates] == voted.weights.tolist()
    expected_votes, expected = [], []
    for t in list(T) + list(X):
        point = [Fraction(int(a)) for a in t] + ([Fraction(1)] if offset else [])
        vote = sum(c * _sign_label(sum(a * b for a, b in zip(point, it)), tie)
                   for it, c in zip(iterates, counts))
        expected_votes.append(vote)
        expected.append(_sign_label(Fraction(vote), tie))
    points = np.vstack([T, X])
    assert voted.votes(points).tolist() == expected_votes
    assert voted.predict(points).tolist() == expected


# ---------------------------------------------------------------------------------------------
# Kernel perceptron
# ---------------------------------------------------------------------------------------------


@settings(max_examples=200)
@given(integer_data(max_n=12, max_d=4), st.integers(1, 30), st.sampled_from(TIES))
def test_kernel_perceptron_with_linear_kernel_makes_the_primal_mistakes(data, max_epochs, tie):
    X, y, T = data
    primal = pc.perceptron(X, y, max_epochs=max_epochs, record=True, tie=tie)
    dual = kernel_perceptron(X, y, kernel="linear", max_epochs=max_epochs, tie=tie)
    # Bit for bit: integer data, so every score of both forms is an exact integer.
    assert dual.mistake_indices.tolist() == primal.history.indices.tolist()
    assert dual.mistakes == primal.mistakes
    assert dual.epochs == primal.epochs and dual.converged == primal.converged
    np.testing.assert_array_equal(dual.alpha, np.bincount(primal.history.indices, minlength=len(y)))
    # w = Σ αⱼ yⱼ xⱼ: the dual scores are the primal scores, and the predictions agree.
    np.testing.assert_array_equal(dual.decision_function(T), T @ primal.w)
    np.testing.assert_array_equal(dual.predict(T), primal.predict(T))


@settings(max_examples=50)
@given(integer_data(max_n=10, max_d=3), st.integers(1, 10))
def test_callable_kernel_equals_the_named_one(data, max_epochs):
    X, y, T = data
    named = kernel_perceptron(X, y, kernel="quadratic", max_epochs=max_epochs)
    custom = kernel_perceptron(X, y, kernel=lambda A, B: (A @ B.T + 1.0) ** 2, max_epochs=max_epochs)
    poly = kernel_perceptron(X, y, kernel="poly", degree=2, max_epochs=max_epochs)
    for other in (custom, poly):
        assert other.mistake_indices.tolist() == named.mistake_indices.tolist()
        np.testing.assert_array_equal(other.predict(T), named.predict(T))


def _explicit_quadratic_features(X):
    """φ(x) with φ(x)·φ(z) = (x·z + 1)²: 1, √2 xᵢ, xᵢ², √2 xᵢxⱼ (i < j)."""
    n, d = X.shape
    cols = [np.ones(n)] + [math.sqrt(2) * X[:, i] for i in range(d)] + [X[:, i] ** 2 for i in range(d)]
    cols += [math.sqrt(2) * X[:, i] * X[:, j] for i in range(d) for j in range(i + 1, d)]
    return np.column_stack(cols)


def test_quadratic_kernel_separates_xor_and_matches_the_explicit_features():
    X, y = pc.xor()
    kp = kernel_perceptron(X, y, kernel="quadratic")
    assert kp.converged
    assert kp.predict(X).tolist() == y.tolist()
    assert pc.separability(_explicit_quadratic_features(X), y).separable
    # The linear perceptron cannot do it, with or without an offset.
    assert not pc.perceptron(X, y, offset=True, max_epochs=50).converged
    primal = pc.perceptron(_explicit_quadratic_features(X), y, record=True)
    assert primal.history.indices.tolist() == kp.mistake_indices.tolist()


def test_rbf_kernel_separates_distinct_points():
    # The Gaussian Gram matrix of distinct points is positive definite: any labels separate.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 2))
    y = rng.choice([-1.0, 1.0], size=30)
    kp = kernel_perceptron(X, y, kernel="rbf", gamma=5.0, max_epochs=10_000)
    assert kp.converged
    assert kp.predict(X).tolist() == y.tolist()


def test_kernel_perceptron_warns_when_it_stops_at_the_cap():
    X, y = pc.xor()
    with pytest.warns(pc.ConvergenceWarning, match="linear kernel"):
        res = kernel_perceptron(X, y, kernel="linear", max_epochs=5)
    assert not res.converged and res.epochs == 5


def test_results_are_frozen():
    X, y = pc.xor()
    for res in (averaged_perceptron(X, y), voted_perceptron(X, y), kernel_perceptron(X, y, kernel="quadratic")):
        with pytest.raises(AttributeError):
            res.epochs = 3  # type: ignore[misc]
    with pytest.raises(ValueError):
        averaged_perceptron(X, y).w[0] = 1.0


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------

X_OK, Y_OK = np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([1.0, -1.0])
ALL = [averaged_perceptron, voted_perceptron]


@pytest.mark.parametrize("fit", ALL + [kernel_perceptron])
@pytest.mark.parametrize(
    ("X", "y", "error", "match"),
    [
        ([[np.nan, 1.0], [1.0, 0.0]], Y_OK, ValueError, "NaN"),
        (X_OK, [1, 0], ValueError, "2\\*y - 1"),
        (X_OK, [1, -1, 1], ValueError, "one label per row"),
        ([1.0, 2.0], Y_OK, ValueError, "2-D"),
        ([["a", "b"], ["c", "d"]], Y_OK, TypeError, "text"),
        ([[1 + 1j, 0], [0, 1]], Y_OK, TypeError, "complex"),
        (np.empty((0, 2)), [], ValueError, "empty"),
    ],
)
def test_bad_data_is_refused(fit, X, y, error, match):
    with pytest.raises(error, match=match):
        fit(X, y)


@pytest.mark.parametrize("fit", ALL)
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"epochs": 0}, ValueError, "positive integer"),
        ({"epochs": 2.5}, ValueError, "positive integer"),
        ({"epochs": True}, ValueError, "positive integer"),
        ({"offset": "yes"}, TypeError, "True or False"),
        ({"tie": "up"}, ValueError, "tie must be"),
    ],
)
def test_bad_options_are_refused(fit, kwargs, error, match):
    with pytest.raises(error, match=match):
        fit(X_OK, Y_OK, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"kernel": "cubic"}, ValueError, "unknown kernel"),
        ({"kernel": 3}, TypeError, "callable"),
        ({"kernel": None}, TypeError, "callable"),
        ({"kernel": "poly", "degree": 0}, ValueError, "degree"),
        ({"kernel": "poly", "degree": 2.0}, ValueError, "degree"),
        ({"kernel": "rbf", "gamma": -1.0}, ValueError, "gamma"),
        ({"kernel": "rbf", "gamma": "wide"}, TypeError, "gamma"),
        ({"coef0": np.nan}, ValueError, "finite"),
        ({"max_epochs": 0}, ValueError, "positive integer"),
        ({"tie": 0}, ValueError, "tie must be"),
        ({"kernel": lambda A, B: A @ B.T[:, :1]}, ValueError, "Gram matrix of shape"),
        ({"kernel": lambda A, B: 1 / 0}, ValueError, "failed"),
        ({"kernel": lambda A, B: np.full((len(A), len(B)), np.inf)}, ValueError, "NaN or inf"),
        ({"kernel": lambda A, B: np.full((len(A), len(B)), "x")}, TypeError, "real numbers"),
        ({"kernel": "poly", "degree": 400}, ValueError, "overflowed"),
    ],
)
def test_bad_kernel_options_are_refused(kwargs, error, match):
    X = X_OK * 10.0
    with pytest.raises(error, match=match):
        kernel_perceptron(X, Y_OK, **kwargs)


def test_predict_refuses_the_wrong_number_of_features():
    X, y = pc.xor()
    for res in (averaged_perceptron(X, y), voted_perceptron(X, y), kernel_perceptron(X, y)):
        with pytest.raises(ValueError, match="2 columns"):
            res.predict(np.ones((3, 3)))
        with pytest.raises(ValueError, match="NaN"):
            res.predict([[np.nan, 0.0]])


def test_kernel_names():
    assert set(KERNELS) == {"linear", "poly", "quadratic", "rbf"}
    X, y = pc.xor()
    assert kernel_perceptron(X, y, kernel="quadratic").kernel == "poly(degree=2, coef0=1.0)"
