"""Tests for perceptron_core.variants: the averaged, voted and kernel perceptrons.

Each algorithm is checked against a naive reference written here in plain Python with exact
rational arithmetic (Freund and Schapire's pseudocode, round by round; the perceptron and its
dual form step by step), on many random data sets, so that no rounding can hide or fake a
difference. No test takes its expected values from the package itself.
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
    KERNELS,
    averaged_perceptron,
    kernel_perceptron,
    voted_perceptron,
)

from conftest import small_labelled_data
from conftest import examples

TIES = ["mistake", "positive", "negative"]


# Runs that stop at the cap are the subject here; their warning is tested separately.
pytestmark = pytest.mark.usefixtures("no_convergence_warnings")


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


def _exact_dot(a, b) -> Fraction:
    return sum((Fraction(float(p)) * Fraction(float(q)) for p, q in zip(a, b)), Fraction(0))


def _reference_primal(X, y, max_epochs, tie):
    """The perceptron through the origin, step by step in plain Python: each sign of w·x decided
    in fractions, w added up in floats in the order of the mistakes (as a float program must).
    Returns (w, mistake indices, epochs, converged)."""
    rows = [[float(v) for v in row] for row in X]
    labels = [int(v) for v in y]
    w, order, epoch, converged = [0.0] * len(rows[0]), [], 0, False
    while epoch < max_epochs and not converged:
        epoch += 1
        converged = True
        for i, (x, label) in enumerate(zip(rows, labels)):
            if _mistake(label, _exact_dot(w, x), tie):
                w = [a + label * b for a, b in zip(w, x)]
                order.append(i)
                converged = False
    return w, order, epoch, converged


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


@st.composite
def awkward_data(draw, max_n: int = 12, max_d: int = 4):
    """Data on which float scores mislead: integers (exact ties), tenths (true ties that floats
    may miss) or huge and small entries whose products cancel; labels arbitrary; test points."""
    family = draw(st.sampled_from(["integers", "tenths", "cancellation"]))
    n, d = draw(st.integers(1, max_n)), draw(st.integers(1, max_d))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    if family == "integers":
        make = lambda m: rng.integers(-4, 5, size=(m, d)).astype(float)  # noqa: E731
    elif family == "tenths":
        make = lambda m: rng.integers(-3, 4, size=(m, d)) / 10.0  # noqa: E731
    else:
        make = lambda m: rng.choice([1.0, -1.0, 0.5, 0.1, 1e16, -1e16, 3e20, -3e20], size=(m, d))  # noqa: E731
    X, T = make(n), make(8)
    y = rng.choice([-1.0, 1.0], size=n)
    return X, y, T


# ---------------------------------------------------------------------------------------------
# Averaged perceptron
# ---------------------------------------------------------------------------------------------


@settings(max_examples=examples(200))
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
    # The last iterate and the number of mistakes are those of the reference run.
    iterates, _, _ = _reference_rounds(X, y, epochs, offset, tie)
    assert [Fraction(v) for v in avg.w_last] == after_round[-1][:d]
    assert Fraction(avg.b_last) == (after_round[-1][d] if offset else 0)
    assert avg.mistakes == len(iterates) - 1
    assert avg.epochs == epochs


@settings(max_examples=examples(100))
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


@settings(max_examples=examples(200))
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


@settings(max_examples=examples(300))
@given(awkward_data(), st.integers(1, 30), st.sampled_from(TIES))
def test_kernel_perceptron_with_linear_kernel_makes_the_exact_primal_run(data, max_epochs, tie):
    """The dual form with the linear kernel makes the mistakes of the perceptron whose every
    sign is decided exactly (the reference above), on data where float scores mislead; so does
    the package's primal perceptron. Predictions: the exact sign of w·t."""
    X, y, T = data
    w_ref, order, epochs, converged = _reference_primal(X, y, max_epochs, tie)
    dual = kernel_perceptron(X, y, kernel="linear", max_epochs=max_epochs, tie=tie)
    assert dual.mistake_indices.tolist() == order
    assert dual.alpha.tolist() == [order.count(i) for i in range(len(y))]
    assert (dual.mistakes, dual.epochs, dual.converged) == (len(order), epochs, converged)
    assert dual.w.tolist() == w_ref
    assert dual.predict(T).tolist() == [_sign_label(_exact_dot(w_ref, t), tie) for t in T]
    primal = pc.perceptron(X, y, max_epochs=max_epochs, record=True, tie=tie)
    assert primal.history.indices.tolist() == order and primal.w.tolist() == w_ref


def _poly(a, b, degree, coef0):
    """(a·b + coef0)^degree in exact arithmetic."""
    return (_exact_dot(a, b) + Fraction(coef0)) ** degree


@settings(max_examples=examples(80))
@given(integer_data(max_n=10, max_d=3), st.integers(1, 10), st.sampled_from(TIES),
       st.sampled_from([(2, 1.0), (3, 1.0), (2, 0.5), (1, 0.0)]))
def test_polynomial_kernels_make_the_exact_dual_run(data, max_epochs, tie, kernel):
    """Named and callable polynomial kernels against the dual pseudocode with the kernel
    computed exactly (integer data: every kernel value is an exact float)."""
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
        assert run.mistake_indices.tolist() == order
        assert run.alpha.tolist() == alpha
        assert (run.epochs, run.converged) == (epochs, converged)
        assert run.predict(T).tolist() == expected


@settings(max_examples=examples(200))
@given(awkward_data(max_d=3), st.integers(1, 20), st.sampled_from(TIES))
def test_a_callable_kernel_run_is_exact_for_the_values_it_returns(data, max_epochs, tie):
    """A kernel given by its (float) values: every decision is the exact sign of
    Σⱼ αⱼ yⱼ K(x_j, x_i) for those values, also where float sums of them would round."""
    X, y, T = data

    def kernel(A, B):  # values that are not exact, and sums of them that round
        # Summed along the last axis (at most 3 terms, in order), so each value is the same
        # floating-point number wherever it is computed.
        return (np.sum(A[:, None, :] * B[None, :, :], axis=-1) + 0.1) ** 2

    G = kernel(X, X)
    K = [[Fraction(float(v)) for v in row] for row in G]
    alpha, order, epochs, converged = _reference_dual(K, y, max_epochs, tie)
    run = kernel_perceptron(X, y, kernel=kernel, max_epochs=max_epochs, tie=tie)
    assert run.mistake_indices.tolist() == order
    assert (run.epochs, run.converged) == (epochs, converged)
    KT = kernel(X, T)
    expected = [_sign_label(sum((Fraction(alpha[j] * int(y[j])) * Fraction(float(KT[j, k]))
                                 for j in range(len(y))), Fraction(0)), tie) for k in range(len(T))]
    assert run.predict(T).tolist() == expected


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


def test_averaged_and_voted_perceptrons_check_their_data_once(monkeypatch):
    # X is validated at the boundary of averaged_perceptron (and voted_perceptron), not again by
    # the run inside: counted by wrapping the validators of both modules.
    import perceptron_core.algorithms as algorithms
    import perceptron_core.variants as variants

    calls = []

    def counting(module):
        original = module.check_X_y

        def check(X, y):
            calls.append(module.__name__)
            return original(X, y)

        monkeypatch.setattr(module, "check_X_y", check)

    counting(variants)
    counting(algorithms)
    X, y = pc.xor()
    avg = averaged_perceptron(X, y, epochs=3, offset=True)
    vote = voted_perceptron(X, y, epochs=3, offset=True)
    assert calls == ["perceptron_core.variants", "perceptron_core.variants"]
    # and the run is the perceptron's all the same
    run = pc.perceptron(X, y, offset=True, max_epochs=3)
    assert avg.mistakes == vote.mistakes == run.mistakes and np.array_equal(avg.w_last, run.w)
