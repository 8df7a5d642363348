"""Tests for perceptron_core.variants: the averaged, voted and kernel perceptrons.

Each algorithm is checked against a naive reference written here in plain Python, on integer
data (where every float score is exact, so the reference can use exact rationals: Freund and
Schapire's pseudocode round by round, the dual form step by step), and the linear kernel
against the primal perceptron bit for bit on any data. No test takes its expected values from
the package itself.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perceptron_core as pc
from perceptron_core.variants import (
    averaged_perceptron,
    kernel_perceptron,
    voted_perceptron,
)

from conftest import small_labelled_data
from conftest import examples

TIES = ["mistake", "positive", "negative"]


# Runs that stop at the cap are the subject here; their warning is tested separately.
pytestmark = pytest.mark.filterwarnings("ignore::perceptron_core.ConvergenceWarning")


@st.composite
def integer_data(draw, max_n: int = 10, max_d: int = 3):
    """Small integer data (entries -4..4) with arbitrary labels (separable or not), and integer
    test points."""
    X, y = draw(small_labelled_data(max_n=max_n, max_d=max_d, top=4))
    entries = st.integers(-4, 4)
    T = draw(st.lists(st.lists(entries, min_size=X.shape[1], max_size=X.shape[1]), min_size=1, max_size=8))
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


def _reference_dual(K, y, max_epochs, tie):
    """The dual perceptron's pseudocode over exact kernel values ``K[j][i] = K(x_j, x_i)``
    (fractions): score x_i by Σⱼ αⱼ yⱼ K(x_j, x_i), add 1 to αᵢ on a mistake.
    Returns (α, mistake indices, epochs, converged)."""
    labels = [int(v) for v in y]
    n = len(labels)
    alpha, order, epoch, converged = [0] * n, [], 0, False
    while epoch < max_epochs and not converged:
        epoch += 1
        converged = True
        for i in range(n):
            score = sum((alpha[j] * labels[j] * K[j][i] for j in range(n) if alpha[j]), Fraction(0))
            if _mistake(labels[i], score, tie):
                alpha[i] += 1
                order.append(i)
                converged = False
    return alpha, order, epoch, converged



@settings(max_examples=examples(200))
@given(integer_data(), st.integers(1, 5), st.booleans(), st.sampled_from(TIES))
def test_averaged_and_voted_are_freund_and_schapires_pseudocode(data, epochs, offset, tie):
    X, y, T = data
    iterates, counts, after_round = _reference_rounds(X, y, epochs, offset, tie)
    d = X.shape[1]
    avg = averaged_perceptron(X, y, epochs=epochs, offset=offset, tie=tie)
    mean = [float(sum(col) / len(after_round)) for col in zip(*after_round)]
    np.testing.assert_allclose(avg.w, mean[:d], rtol=1e-12, atol=1e-12)
    assert math.isclose(avg.b, mean[d] if offset else 0.0, rel_tol=1e-12, abs_tol=1e-12)
    assert [Fraction(v) for v in avg.w_last] == after_round[-1][:d] and avg.mistakes == len(iterates) - 1
    total = [sum(col) for col in zip(*after_round)]  # n·T times the average: same sign, exact
    points = np.vstack([T, X])
    rows = [[Fraction(int(a)) for a in t] + ([Fraction(1)] if offset else []) for t in points]
    assert avg.predict(points).tolist() == [_sign_label(sum(a * b for a, b in zip(r, total)), tie) for r in rows]
    voted = voted_perceptron(X, y, epochs=epochs, offset=offset, tie=tie)
    assert voted.counts.tolist() == counts and int(voted.counts.sum()) == len(y) * epochs
    assert [[float(v) for v in it[:d]] for it in iterates] == voted.weights.tolist()
    votes = [sum(c * _sign_label(sum(a * b for a, b in zip(r, it)), tie) for it, c in zip(iterates, counts))
             for r in rows]
    assert voted.votes(points).tolist() == votes
    assert voted.predict(points).tolist() == [_sign_label(Fraction(v), tie) for v in votes]


def test_averaged_predict_keeps_an_exact_tie_that_division_would_round_away():
    # The averaged score at (3, -2) is exactly 0 (2·3 − (8/3)·2 − 2/3 = 0), but with the
    # averages rounded to floats it comes out nonzero; the sums keep it exact.
    X, y = np.array([[-3.0, 0.0], [4.0, 1.0], [-3.0, 2.0]]), np.array([-1.0, 1.0, 1.0])
    avg = averaged_perceptron(X, y, epochs=3, offset=True)
    np.testing.assert_allclose(avg.w, [2.0, 8 / 3])
    assert avg.predict([[3.0, -2.0]]).tolist() == [0]
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0])  # converged: the last iterate counts on
    np.testing.assert_allclose(averaged_perceptron(X, y, epochs=3).w, [(1 + 1 + 4) / 6, (0 + 1 + 4) / 6])


@settings(max_examples=examples(200))
@given(st.integers(1, 12), st.integers(1, 4), st.integers(0, 2**32 - 1), st.integers(1, 30), st.sampled_from(TIES))
def test_the_linear_kernel_makes_the_primal_run_bit_for_bit(n, d, seed, max_epochs, tie):
    rng = np.random.default_rng(seed)
    X = rng.choice([rng.standard_normal, lambda s: rng.integers(-3, 4, s) / 10.0])((n, d))
    y, T = rng.choice([-1.0, 1.0], n), rng.standard_normal((5, d))
    dual = kernel_perceptron(X, y, kernel="linear", max_epochs=max_epochs, tie=tie)
    primal = pc.perceptron(X, y, max_epochs=max_epochs, record=True, tie=tie)
    assert dual.mistake_indices.tolist() == primal.history.indices.tolist()
    assert (dual.mistakes, dual.epochs, dual.converged) == (primal.mistakes, primal.epochs, primal.converged)
    assert np.array_equal(dual.w, primal.w) and dual.predict(T).tolist() == primal.predict(T).tolist()
    assert dual.alpha.tolist() == np.bincount(primal.history.indices, minlength=n).tolist()


def _poly(a, b, degree, coef0):
    """(a·b + coef0)^degree in exact arithmetic."""
    return (sum((Fraction(float(p)) * Fraction(float(q)) for p, q in zip(a, b)), Fraction(0)) + Fraction(coef0)) ** degree


@settings(max_examples=examples(80))
@given(integer_data(max_n=10, max_d=3), st.integers(1, 10), st.sampled_from(TIES),
       st.sampled_from([(2, 1.0), (3, 1.0), (2, 0.5), (1, 0.0)]))
def test_polynomial_kernels_make_the_dual_pseudocodes_run(data, max_epochs, tie, kernel):
    """Named and callable polynomial kernels against the dual pseudocode with the kernel
    computed exactly (integer data and halves: every kernel value and score is an exact float)."""
    X, y, T = data
    degree, coef0 = kernel
    K = [[_poly(a, b, degree, coef0) for b in X] for a in X]
    alpha, order, epochs, converged = _reference_dual(K, y, max_epochs, tie)
    expected = [_sign_label(sum((alpha[j] * int(y[j]) * _poly(X[j], t, degree, coef0) for j in range(len(y))),
                                Fraction(0)), tie) for t in T]
    runs = [kernel_perceptron(X, y, kernel="poly", degree=degree, coef0=coef0, max_epochs=max_epochs, tie=tie),
            kernel_perceptron(X, y, kernel=lambda A, B: (A @ B.T + coef0) ** degree, max_epochs=max_epochs, tie=tie)]
    if (degree, coef0) == (2, 1.0):
        runs.append(kernel_perceptron(X, y, kernel="quadratic", max_epochs=max_epochs, tie=tie))
    for run in runs:
        assert run.mistake_indices.tolist() == order and run.alpha.tolist() == alpha
        assert (run.epochs, run.converged) == (epochs, converged)
        assert run.predict(T).tolist() == expected


def test_quadratic_and_rbf_kernels_separate_what_no_line_does():
    X, y = pc.xor()
    kp = kernel_perceptron(X, y, kernel="quadratic")
    assert kp.converged and kp.predict(X).tolist() == y.tolist() and kp.kernel == "poly(degree=2, coef0=1.0)"
    assert not pc.perceptron(X, y, offset=True, max_epochs=50).converged
    phi = np.column_stack([np.ones(4), math.sqrt(2) * X, X**2, math.sqrt(2) * X[:, 0] * X[:, 1]])  # (x·z + 1)²
    assert pc.perceptron(phi, y, record=True).history.indices.tolist() == kp.mistake_indices.tolist()
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((30, 2)), rng.choice([-1.0, 1.0], 30)  # distinct points: any labels
    rbf = kernel_perceptron(X, y, kernel="rbf", gamma=5.0)
    assert rbf.converged and rbf.predict(X).tolist() == y.tolist()
    with pytest.warns(pc.ConvergenceWarning):
        assert not kernel_perceptron(*pc.xor(), kernel="linear", max_epochs=3).converged
    with pytest.raises(ValueError):
        kp.alpha[0] = 5  # results are frozen
