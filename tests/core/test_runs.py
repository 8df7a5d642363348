"""Runs: the perceptron, its online form and the Margin Perceptron follow the run contract bit
for bit, compiled or not, and agree with scikit-learn and with each other.

The oracles: the contract re-implemented here in plain Python floats (``contract_*``), the loop
run as Python (numba's ``py_func``), exact integer arithmetic, and scikit-learn's Perceptron.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

import perceptron_core as pc
from perceptron_core import _compiled

from conftest import AT_TIE, contract_margin, contract_perceptron, examples, integer_run_states, small_labelled_data

TIES = ("mistake", "positive", "negative")
pytestmark = pytest.mark.usefixtures("no_convergence_warnings")


@st.composite
def float_data(draw, max_n=25, max_d=5):
    """Random float data at a random scale, or decimals with one digit (near ties in floats),
    with random labels: separable or not."""
    n, d = draw(st.integers(1, max_n)), draw(st.integers(1, max_d))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["normal", "decimals", "scaled"]))
    X = {"normal": lambda: rng.standard_normal((n, d)),
         "decimals": lambda: rng.integers(-9, 10, (n, d)) / 10,
         "scaled": lambda: rng.standard_normal((n, d)) * 10.0 ** rng.integers(-150, 150)}[kind]()
    return X, rng.choice([-1.0, 1.0], n)


any_data = st.one_of(float_data(), small_labelled_data())


def _bits(a):
    return (np.asarray(a, dtype=float) + 0.0).tobytes()  # + 0.0: -0.0 and 0.0 alike


@settings(max_examples=examples(150))
@given(any_data, st.booleans(), st.sampled_from(TIES), st.integers(1, 30))
def test_a_run_is_the_contract_bit_for_bit_compiled_or_not(data, offset, tie, epochs):
    X, y = data
    run = pc.perceptron(X, y, offset=offset, tie=tie, max_epochs=epochs, record=True)
    ref = contract_perceptron(X, y, offset=offset, tie=tie, max_epochs=epochs)
    w, b, n_epochs, converged = ref["w"], ref["b"], ref["epochs"], ref["converged"]
    rounds = [(s["epoch"] - 1) * len(y) + s["i"] for s in ref["steps"]]
    assert _bits(run.w) == _bits(w) and run.b + 0.0 == b + 0.0
    assert ((run.history.epochs - 1) * len(y) + run.history.indices).tolist() == rounds
    assert (run.epochs, run.converged, run.mistakes) == (n_epochs, converged, len(rounds))
    # The same loop run as Python (what runs without numba) makes the same bits.
    theta = np.zeros(X.shape[1] + 1)
    buf = np.empty(len(rounds), np.int64)
    out = _compiled.perceptron_epochs.py_func(np.ascontiguousarray(X), y, theta, offset, AT_TIE[tie], epochs, buf)
    assert out == (n_epochs, converged, len(rounds)) and buf.tolist() == rounds
    assert _bits(theta) == _bits(np.r_[run.w, run.b])
    # The recorded weights are the ones the run held: the last is the result.
    if run.mistakes:
        assert _bits(run.history.weights[-1]) == _bits(run.w) and run.history.offsets[-1] == run.b


@settings(max_examples=examples(100))
@given(float_data(max_n=15), st.floats(0.01, 2.0), st.sampled_from([0.1, 0.5, 0.9]), st.integers(1, 20))
def test_a_margin_run_is_the_contract_bit_for_bit_compiled_or_not(data, gamma, target, epochs):
    X, y = data
    X = X / max(1e-300, float(np.max(np.abs(X))))  # unit scale, so gamma means something
    run = pc.margin_perceptron(X, y, gamma, target=target, max_epochs=epochs, record=True)
    ref = contract_margin(X, y, gamma, target, epochs)
    w, n_epochs, converged = ref["w"], ref["epochs"], ref["converged"]
    updates = [s["i"] for s in ref["steps"]]
    assert _bits(run.w) == _bits(w) and run.update_indices.tolist() == updates
    assert (run.epochs, run.converged, run.updates) == (n_epochs, converged, len(updates))
    assert _bits(run.weights[-1]) == _bits(run.w)
    assert run.mistakes == sum(s["mistake"] for s in ref["steps"])  # the playground's count
    Z = np.ascontiguousarray(y[:, None] * X)
    w_py, buf = Z[0].copy(), np.empty(len(updates), np.int64)
    out = _compiled.margin_epochs.py_func(Z, w_py, target * gamma, epochs, buf)
    assert out == (n_epochs, converged, len(updates)) and _bits(w_py) == _bits(w)


def test_the_compiled_loop_adds_as_python_does_where_rounding_decides():
    """Tenths in 4 to 12 dimensions: many scores are ties in exact arithmetic, and their float
    sign depends on the order and the rounding of every product and sum. A compiled loop that
    reassociated or fused them (numba's fastmath, an FMA) parts from Python on a few percent
    of these runs; the contract's loop never does."""
    pytest.importorskip("numba")
    for seed in range(200):
        rng = np.random.default_rng(seed)
        n, d = rng.integers(4, 16), rng.integers(4, 13)
        X, y = rng.integers(-9, 10, (n, d)) / 10, rng.choice([-1.0, 1.0], n)
        runs = []
        for loop in (_compiled.perceptron_epochs.compiled, _compiled.perceptron_epochs.py_func):
            theta = np.zeros(d + 1)
            runs.append((loop(X, y, theta, True, 0, 10, np.empty(0, np.int64)), _bits(theta)))
        assert runs[0] == runs[1], seed


@pytest.mark.parametrize("margin", [False, True])
def test_a_run_passed_from_python_to_numba_midway_is_one_run(monkeypatch, margin):
    """A run starts as Python and goes on compiled after PYTHON_STEPS (here 3 epochs): its
    state, epochs, updates and recorded rounds are those of the run made as Python alone,
    with a record buffer that holds all rounds, or fills up in either part."""
    rng = np.random.default_rng(3)
    X, y = rng.integers(-9, 10, (30, 4)) / 10, rng.choice([-1.0, 1.0], 30)  # never separated
    monkeypatch.setattr(_compiled, "PYTHON_STEPS", 3 * X.size)
    fn = _compiled._margin_epochs if margin else _compiled._perceptron_epochs
    for size in (0, 10, 60, 1000):
        runs = []
        for loop in (_compiled._Loop(fn), fn):  # a new _Loop: numba not yet loaded for it
            state = (y[:, None] * X)[0].copy() if margin else np.zeros(5)
            head = (y[:, None] * X, state, 0.3) if margin else (X, y, state, True, 0)
            rounds = np.full(size, -1, np.int64)
            runs.append((loop(*head, 12, rounds), _bits(state), rounds.tolist()))
        assert runs[0] == runs[1] and runs[0][0][0] == 12 and runs[0][0][2] > 60


def test_numba_compiles_both_loops():
    """(That ``import perceptron_core`` does not import numba: test_import.py.)"""
    pytest.importorskip("numba")
    assert _compiled.perceptron_epochs.uses_numba and _compiled.margin_epochs.uses_numba


def test_a_long_record_and_a_huge_cap_are_no_problem():
    X, y = pc.xor()
    run = pc.perceptron(X, y, offset=True, max_epochs=5000, record=True)  # longer than the buffer
    assert run.mistakes == len(run.history.indices) > 64 * 4 and run.epochs == 5000
    assert pc.find_cycle(run, 4) is not None
    X, y, _ = pc.planted(50, 3, 0.1, seed=1)
    assert pc.perceptron(X, y, max_epochs=2**80).converged  # stops at its first clean epoch


def _sklearn(X, y, T, fit_intercept=True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        return SkPerceptron(shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=T,
                            fit_intercept=fit_intercept).fit(X, y)


def _book_data():
    X, y, _ = pc.planted(60, 3, 0.05, 2.0, seed=3)
    yield "planted", X, y
    yield "planted, 20% label noise", X, pc.flip_labels(y, 0.2, seed=1)
    Xi = np.random.default_rng(7).integers(-3, 4, size=(40, 2)).astype(float)
    yield "integers, labels from a line", Xi, np.where(Xi @ [1.0, -2.0] + 1 >= 0, 1.0, -1.0)
    yield "xor", *pc.xor()
    Xs, ys = pc.iris_pair("setosa", "versicolor", features=(2, 3))
    yield "iris petals in mm", Xs * 10, ys
    yield "iris versicolor/virginica", *pc.iris_pair("versicolor", "virginica")


@pytest.mark.parametrize("name, X, y", list(_book_data()), ids=[d[0] for d in _book_data()])
@pytest.mark.parametrize("T", [1, 5, 30])
def test_scikit_learn_makes_the_same_run_on_the_books_data(name, X, y, T):
    for offset in (True, False):
        sk = _sklearn(X, y, T, fit_intercept=offset)
        ours = pc.perceptron(X, y, offset=offset, max_epochs=T)
        assert np.array_equal(ours.w, sk.coef_[0]) and ours.b == sk.intercept_[0], name


@given(small_labelled_data(), st.integers(1, 6))
def test_scikit_learn_makes_the_same_run_on_integer_data(data, T):
    X, y = data
    if len(set(y.tolist())) == 2:  # scikit-learn refuses a single class
        sk, ours = _sklearn(X, y, T), pc.perceptron(X, y, offset=True, max_epochs=T)
        assert np.array_equal(ours.w, sk.coef_[0]) and ours.b == sk.intercept_[0]


@given(small_labelled_data(), st.sampled_from(TIES))
def test_runs_on_integer_data_are_those_of_exact_arithmetic(data, tie):
    """Integer data: every score is exact in floats, ties included, so the run is the run of
    exact arithmetic (written here in Python ints)."""
    X, y = data
    run = pc.perceptron(X, y, tie=tie, max_epochs=20, record=True)
    w, rounds = [0] * X.shape[1], []
    for epoch in range(run.epochs):
        for i, (x, label) in enumerate(zip(X.astype(int).tolist(), y.astype(int).tolist())):
            s = sum(a * b for a, b in zip(w, x))
            if label * s < 0 or (s == 0 and AT_TIE[tie] != label):
                w = [a + label * b for a, b in zip(w, x)]
                rounds.append(epoch * len(y) + i)
    assert run.w.tolist() == w
    assert ((run.history.epochs - 1) * len(y) + run.history.indices).tolist() == rounds


@given(any_data, st.sampled_from(TIES), st.booleans())
def test_predict_sees_the_training_points_as_the_run_saw_them(data, tie, offset):
    X, y = data
    run = pc.perceptron(X, y, offset=offset, tie=tie, max_epochs=50)
    if run.converged:
        assert run.predict(X).tolist() == y.tolist()
    s = pc.algorithms.scores(X, run.w, run.b)  # vectorised over rows: each row the contract's bits
    for i in range(len(y)):
        ref = run.b
        for j in range(X.shape[1]):
            ref += float(X[i, j]) * float(run.w[j])
        assert s[i] == ref
    if len(set(y.tolist())) == 2 and run.converged:
        est = pc.Perceptron(offset=offset, tie=tie, max_epochs=50).fit(X, y)
        assert est.predict(X).tolist() == y.tolist()


@given(small_labelled_data())
def test_balcan_is_cs229_on_flipped_labels_negated(data):
    """Exercise per-ex-balcan, on any data, bit for bit."""
    X, y = data
    balcan = pc.perceptron(X, y, tie="negative", max_epochs=20, record=True)
    mirror = pc.perceptron(X, -y, tie="positive", max_epochs=20, record=True)
    assert balcan.history.indices.tolist() == mirror.history.indices.tolist()
    np.testing.assert_array_equal(balcan.w, 0 - mirror.w)


@given(any_data, st.sampled_from(TIES), st.integers(1, 5))
def test_online_over_repeated_data_is_the_cyclic_run(data, tie, T):
    X, y = data
    stream = itertools.chain.from_iterable(zip(X, y) for _ in range(T))
    steps = list(pc.online_perceptron(stream, offset=True, tie=tie))
    run = pc.perceptron(X, y, offset=True, tie=tie, max_epochs=T)
    assert _bits(steps[-1].w) == _bits(run.w) and steps[-1].b == run.b
    if run.converged or run.epochs == T:
        assert steps[-1].mistakes == run.mistakes


def test_online_predicts_before_it_updates_and_runs_on_an_endless_stream():
    steps = list(pc.online_perceptron([([1.0, 0.0], 1), ([1.0, 0.0], 1), ([-2.0, 0.0], 1)]))
    assert [s.prediction for s in steps] == [0, 1, -1] and [s.mistake for s in steps] == [True, False, True]
    endless = itertools.cycle([([1.0, 0.2], 1), ([-1.0, 0.1], -1)])
    assert list(itertools.islice(pc.online_perceptron(endless), 1000))[-1].mistakes == 1


def test_the_history_is_derived_from_the_rounds():
    X, y, u = pc.planted(30, 3, 0.2, 1.0, seed=4)
    res = pc.perceptron(X, y, offset=True, u=np.r_[u, 0.0])
    h = res.history
    running = np.cumsum((y[:, None] * np.hstack([X, np.ones((30, 1))]))[h.indices], axis=0)
    assert np.array_equal(h.weights, running[:, :3]) and np.array_equal(h.offsets, running[:, 3])
    assert np.allclose(h.norms_sq, np.sum(running**2, axis=1), rtol=1e-14)
    assert np.allclose(h.progress, running @ np.r_[u, 0.0], rtol=1e-12, atol=1e-15)
    assert np.all(np.diff(h.epochs) >= 0) and h.epochs[-1] <= res.epochs
    with pytest.raises(ValueError):
        res.w[0] = 1.0  # results are frozen


@settings(max_examples=examples(60))
@given(st.integers(1, 6), st.integers(1, 3), st.integers(0, 10**6), st.integers(1, 12))
def test_find_cycle_agrees_with_an_integer_reference(n, d, seed, epochs):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(float)
    y = rng.choice([-1.0, 1.0], size=n)
    res = pc.perceptron(X, y, offset=True, max_epochs=epochs, record=True)
    states = integer_run_states(X, y, epochs)
    if res.converged:
        states = states[: res.mistakes + 1]
    expected = next(((k, l - k) for l in range(len(states)) for k in range(l) if states[k] == states[l]), None)
    assert pc.find_cycle(res, n) == expected


def _closest_by_loop(Z, y, max_epochs):
    """The cyclic perceptron through the origin on the rows of Z as a plain float loop, and the
    smallest |w·z| / (‖w‖ ‖z‖) over its tests with w ≠ 0 (written here, independently)."""
    w, closest = np.zeros(Z.shape[1]), math.inf
    for _ in range(max_epochs):
        clean = True
        for z, label in zip(Z, y):
            s, size = float(w @ z), float(np.linalg.norm(w)) * float(np.linalg.norm(z))
            if size > 0:
                closest = min(closest, abs(s) / size)
            if label * s <= 0:
                w, clean = w + label * z, False
        if clean:
            break
    return closest


@settings(max_examples=examples(60))
@given(st.integers(2, 30), st.integers(1, 4), st.floats(0.05, 0.5), st.integers(0, 10**6), st.floats(1e-3, 1e3))
def test_closest_call_is_the_smallest_sine_of_a_plain_loop(n, d, ratio, seed, c):
    X, y, _ = pc.planted(n, d, ratio, 1.0, seed=seed)
    Z = pc.augment(X + 0.5, c)
    run = pc.perceptron(Z, y, max_epochs=50, record=True)
    assert pc.closest_call(Z, run) == pytest.approx(_closest_by_loop(Z, y, 50), rel=1e-9, abs=1e-15)
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    assert pc.closest_call(X, pc.perceptron(X, y, record=True)) == 0.0  # w = (1, 0) meets (0, 1)
    assert pc.closest_call([[0.0]], pc.perceptron([[0.0]], [1.0], max_epochs=1, record=True)) == math.inf


@pytest.mark.parametrize("n", [1, 2, 5, 13])
@pytest.mark.parametrize("tie", TIES)
def test_orthonormal_worst_case_mistakes_depend_on_the_tie_rule(n, tie):
    """Every score is 0 until the point's own update: a tie costs each point one mistake under
    "mistake", only the negative points under "positive", only the positive under "negative"."""
    X, y = pc.orthonormal_worst_case(n, seed=n)
    res = pc.perceptron(X, y, tie=tie)
    expected = {"mistake": n, "positive": int(np.sum(y < 0)), "negative": int(np.sum(y > 0))}[tie]
    assert res.converged and res.mistakes == expected


def test_the_margin_perceptron_starts_from_the_first_example_and_updates_on_close_points():
    X, y = np.array([[1.0, 0.0], [1.0, 0.1], [0.2, 1.0]]), np.array([1.0, 1.0, 1.0])
    run = pc.margin_perceptron(X, y, 0.5, record=True)
    assert np.array_equal(run.weights[0], X[0]) and run.converged
    assert 2 in run.update_indices  # (0.2, 1) is on the right side, but too close
    assert np.min(y * (X @ run.w)) / np.linalg.norm(run.w) >= 0.25
    # (0.5, 5) sits exactly at the aim τγ‖w‖ = 0.5 of w = (1, 0): short means strictly below.
    assert pc.margin_perceptron([[1.0, 0.0], [0.5, 5.0]], [1.0, 1.0], 1.0).updates == 0
    X, y = pc.xor()  # x₁ = 0: w starts at 0, which has no direction: every point is short
    assert not pc.margin_perceptron(X, y, 0.5, max_epochs=10).converged


def test_the_scikit_learn_estimator():
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(pc.Perceptron())
    X, species = pc.iris()
    keep = species != "setosa"
    model = make_pipeline(StandardScaler(), pc.Perceptron(max_epochs=50))
    assert np.mean(cross_val_score(model, X[keep], species[keep], cv=3)) > 0.6
    X, y = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]), np.array(["a", "b", "a"])
    est = pc.Perceptron(tie="positive").fit(X, y)
    run = pc.perceptron(X, np.where(y == "b", 1.0, -1.0), offset=True, tie="positive")
    assert np.array_equal(est.coef_[0], run.w) and est.intercept_[0] == run.b
    assert est.predict(np.zeros((1, 2))).tolist() == (["b"] if run.b >= 0 else ["a"])
