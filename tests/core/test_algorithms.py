"""The algorithms against scikit-learn, against each other, and on hand-checked examples."""

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
from sklearn.svm import SVC

import perceptron_core as pc
from perceptron_core import ConvergenceWarning, perceptron

from conftest import reference_perceptron
from conftest import examples
from conftest import small_labelled_data
from conftest import integer_run_states


def _sklearn_perceptron(X, y, T, fit_intercept=True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        return SkPerceptron(
            shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=T, fit_intercept=fit_intercept
        ).fit(X, y)


def _ours(X, y, T, offset=True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        return pc.perceptron(X, y, offset=offset, max_epochs=T)


def _datasets():
    rng = np.random.default_rng(7)
    X, y, _ = pc.planted(60, 3, 0.05, 2.0, seed=3)
    yield "planted", X, y
    yield "planted, 20% label noise", X, pc.flip_labels(y, 0.2, seed=1)
    Xc, yc = pc.gaussian_clouds(40, 1.0, seed=2)
    yield "overlapping clouds", Xc + np.array([0.7, -0.3]), yc
    Xi = rng.integers(-3, 4, size=(40, 2)).astype(float)  # integer data: many exact ties
    yield "integers with ties", Xi, rng.choice([-1.0, 1.0], size=40)
    yield "integers, labels from a line", Xi, np.where(Xi @ [1.0, -2.0] + 1 >= 0, 1.0, -1.0)
    yield "xor", *pc.xor()
    yield "iris setosa/versicolor", *pc.iris_pair("setosa", "versicolor")
    yield "iris versicolor/virginica", *pc.iris_pair("versicolor", "virginica")


@pytest.mark.parametrize("name, X, y", list(_datasets()), ids=[d[0] for d in _datasets()])
@pytest.mark.parametrize("T", [1, 2, 5, 30])
def test_bit_for_bit_parity_with_sklearn(name, X, y, T):
    sk = _sklearn_perceptron(X, y, T)
    ours = _ours(X, y, T)
    assert np.array_equal(ours.w, sk.coef_[0]), name
    assert ours.b == sk.intercept_[0], name


@pytest.mark.parametrize("name, X, y", list(_datasets()), ids=[d[0] for d in _datasets()])
def test_parity_without_offset(name, X, y):
    sk = _sklearn_perceptron(X, y, 10, fit_intercept=False)
    ours = _ours(X, y, 10, offset=False)
    assert np.array_equal(ours.w, sk.coef_[0]) and sk.intercept_[0] == 0 and ours.b == 0


@given(small_labelled_data(), st.integers(1, 6))
def test_parity_on_random_integer_data(data, T):
    X, y = data
    if len(set(y.tolist())) < 2:
        return  # scikit-learn refuses data with a single class
    sk = _sklearn_perceptron(X, y, T)
    ours = _ours(X, y, T)
    assert np.array_equal(ours.w, sk.coef_[0]) and ours.b == sk.intercept_[0]


def test_estimator_matches_function_and_sklearn_predictions():
    X, y = pc.iris_pair("setosa", "versicolor", features=(2, 3))
    est = pc.Perceptron(offset=True, max_epochs=50).fit(X, y)
    res = pc.perceptron(X, y, offset=True, max_epochs=50)
    assert np.array_equal(est.coef_[0], res.w) and est.intercept_[0] == res.b
    assert est.converged_ and est.score(X, y) == 1.0
    assert np.array_equal(est.predict(X), _sklearn_perceptron(X, y, 50).predict(X))


def test_max_margin_matches_hard_margin_svc():
    for X, y in [pc.iris_pair("setosa", "versicolor"), pc.iris_pair("setosa", "virginica", (2, 3)),
                 pc.planted(40, 2, 0.2, 1.0, seed=5)[:2], pc.logic_gate("and"), pc.logic_gate("or")]:
        svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
        mm = pc.max_margin(X, y, offset=True)
        assert abs(mm.gamma - 1 / np.linalg.norm(svc.coef_[0])) <= 1e-6
        assert np.allclose(mm.w, svc.coef_[0] / np.linalg.norm(svc.coef_[0]), atol=1e-5)


def test_max_margin_through_origin_matches_svc_on_mirrored_data():
    # Adding (-x, -y) for every (x, y) makes the problem symmetric, so the SVC's optimal offset is
    # 0 and its margin is the margin through the origin.
    for seed in range(4):
        X, y, _ = pc.planted(30, 3, 0.15, 1.0, seed=seed)
        Xm, ym = np.vstack([X, -X]), np.r_[y, -y]
        svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(Xm, ym)
        assert abs(pc.max_margin(X, y).gamma - 1 / np.linalg.norm(svc.coef_[0])) <= 1e-6
        assert abs(svc.intercept_[0]) <= 1e-6


def test_tie_rule_changes_the_run():
    # Two positive points on the axes: at w = 0 the "mistake" rule updates on both, while CS229's
    # rule predicts +1 at the tie and never updates.
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1.0, 1.0])
    strict = pc.perceptron(X, y, record=True)
    cs229 = pc.perceptron(X, y, record=True, tie="positive")
    assert strict.mistakes == 2 and np.array_equal(strict.w, [1.0, 1.0])
    assert cs229.mistakes == 0 and np.array_equal(cs229.w, [0.0, 0.0])
    assert np.array_equal(pc.perceptron(X, -y, tie="positive").w, [-1.0, -1.0])
    # Balcan predicts -1 at a tie: the mirror image of CS229's rule.
    assert pc.perceptron(X, -y, tie="negative").mistakes == 0
    assert np.array_equal(pc.perceptron(X, y, tie="negative").w, [1.0, 1.0])


def test_online_predictions_at_a_tie_follow_the_rule():
    first = {tie: next(pc.online_perceptron([([1.0, 2.0], 1)], tie=tie)) for tie in ("mistake", "positive", "negative")}
    assert {t: (s.prediction, s.mistake) for t, s in first.items()} == {
        "mistake": (0, True), "positive": (1, False), "negative": (-1, True)
    }


def test_online_over_repeated_data_equals_cyclic_perceptron():
    X, y, _ = pc.planted(25, 2, 0.1, 1.0, seed=11)
    for T in (1, 3, 50):
        stream = itertools.chain.from_iterable(zip(X, y) for _ in range(T))
        last = list(pc.online_perceptron(stream, offset=True))[-1]
        res = _ours(X, y, T)
        assert np.array_equal(last.w, res.w) and last.b == res.b and last.mistakes == res.mistakes


def test_online_steps_predict_before_update():
    steps = list(pc.online_perceptron([([1.0, 0.0], 1), ([1.0, 0.0], 1), ([-2.0, 0.0], 1)]))
    assert [s.prediction for s in steps] == [0, 1, -1]
    assert [s.mistake for s in steps] == [True, False, True]
    assert np.array_equal(steps[-1].w, [-1.0, 0.0]) and steps[-1].mistakes == 2


def test_online_runs_on_an_endless_stream():
    endless = itertools.cycle([([1.0, 0.2], 1), ([-1.0, 0.1], -1)])
    steps = list(itertools.islice(pc.online_perceptron(endless), 1000))
    assert len(steps) == 1000 and steps[-1].mistakes == 1


def test_history_is_the_running_sum_of_updates():
    X, y, u = pc.planted(30, 3, 0.2, 1.0, seed=4)
    res = pc.perceptron(X, y, offset=True, u=np.r_[u, 0.0])
    h = res.history
    Z = y[:, None] * np.hstack([X, np.ones((30, 1))])
    running = np.cumsum(Z[h.indices], axis=0)
    assert np.allclose(h.weights, running[:, :3]) and np.allclose(h.offsets, running[:, 3])
    assert np.allclose(h.norms_sq, np.sum(running**2, axis=1))
    assert np.array_equal(h.weights[-1], res.w) and h.offsets[-1] == res.b
    assert np.all(np.diff(h.epochs) >= 0) and h.epochs[-1] <= res.epochs
    assert len(h.indices) == res.mistakes


def test_converged_run_separates_and_result_is_frozen():
    X, y, _ = pc.planted(40, 4, 0.1, 1.0, seed=9)
    res = pc.perceptron(X, y)
    assert res.converged and np.all(y * (X @ res.w) > 0)
    assert np.array_equal(res.predict(X), y)
    with pytest.raises(ValueError):
        res.w[0] = 1.0  # read-only: a result cannot drift from the run that made it
    assert "converged" in str(res)


def test_non_separable_stops_at_max_epochs_and_says_so():
    X, y = pc.xor()
    with pytest.warns(pc.ConvergenceWarning, match="max_epochs=25"):
        res = pc.perceptron(X, y, offset=True, max_epochs=25)
    assert not res.converged and res.epochs == 25
    assert "did NOT converge" in str(res)
    with pytest.warns(pc.ConvergenceWarning):
        assert not pc.margin_perceptron(X, y, 0.5, max_epochs=10).converged


def test_margin_perceptron_starts_from_first_example_and_records():
    X, y, _ = pc.planted(20, 2, 0.2, 1.0, seed=2)
    res = pc.margin_perceptron(X, y, 0.2, record=True)
    assert np.array_equal(res.weights[0], y[0] * X[0])
    assert len(res.update_indices) == res.updates == len(res.weights) - 1
    assert np.allclose(res.weights[-1], res.w)
    assert np.min(pc.margins(X, y, res.w)) >= 0.1


def test_margin_perceptron_updates_on_correct_but_close_points():
    # After w = x_0 = (1, 0), the point (0.1, 1) is classified correctly, with margin only 0.1:
    # the plain perceptron leaves it, the margin rule (gamma = 0.5, threshold 0.25) updates.
    X = np.array([[1.0, 0.0], [0.1, 1.0]])
    y = np.array([1.0, 1.0])
    assert pc.perceptron(X, y).mistakes == 1
    margin = pc.margin_perceptron(X, y, 0.5, record=True)
    assert margin.updates == 1 and list(margin.update_indices) == [1]
    assert np.allclose(margin.w, [1.1, 1.0])
    assert np.min(pc.margins(X, y, margin.w)) >= 0.25


# ------------------------------------------------------------------ predict follows the tie rule

TIES = ("mistake", "positive", "negative")


@st.composite
def _separable_integer_data(draw, max_n: int = 14, max_d: int = 3):
    """Integer points labelled by an integer hyperplane; points on it get an arbitrary label.

    So some data are separable only under one tie rule, and runs meet exact ties at every step.
    """
    n, d = draw(st.integers(1, max_n)), draw(st.integers(1, max_d))
    ints = st.integers(-3, 3)
    X = np.array(draw(st.lists(st.lists(ints, min_size=d, max_size=d), min_size=n, max_size=n)), float)
    w = np.array(draw(st.lists(ints, min_size=d, max_size=d)), float)
    b = float(draw(ints))
    on_plane = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    s = X @ w + b
    return X, np.where(s > 0, 1.0, np.where(s < 0, -1.0, on_plane))


def _check_predict_reproduces_labels(X, y, tie, offset, max_epochs=1000):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        res = pc.perceptron(X, y, offset=offset, tie=tie, max_epochs=max_epochs)
        # The scikit-learn classifier needs two classes.
        est = pc.Perceptron(offset=offset, tie=tie, max_epochs=max_epochs).fit(X, y) if len(set(y)) == 2 else None
    if res.converged:
        assert np.array_equal(res.predict(X), y), (tie, offset)
        assert est is None or np.array_equal(est.predict(X), y) and est.score(X, y) == 1.0
    return res.converged


@given(_separable_integer_data(), st.sampled_from(TIES), st.booleans())
def test_predict_after_a_converged_run_returns_the_training_labels(data, tie, offset):
    X, y = data
    _check_predict_reproduces_labels(X, y, tie, offset, max_epochs=200)


@given(st.integers(2, 30), st.integers(1, 4), st.floats(0.05, 1.0), st.integers(0, 2**31 - 1),
       st.sampled_from(TIES), st.booleans(), st.floats(1e-12, 1e6))
def test_predict_after_a_converged_run_on_float_data(n, d, ratio, seed, tie, offset, scale):
    # Float data at every scale: predict and the run must decide every sign alike. Through the
    # origin the run converges within (R/γ)² <= 400 mistakes; with an offset it may not.
    X, y, _ = pc.planted(n, d, ratio, 1.0, seed=seed)
    assert _check_predict_reproduces_labels(scale * X, y, tie, offset) or offset


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.floats(-1, 1, allow_subnormal=True), min_size=2, max_size=2), min_size=n, max_size=n),
    st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n))), st.sampled_from(TIES), st.booleans())
def test_predict_agrees_with_the_run_on_arbitrary_floats(data, tie, offset):
    # Arbitrary floats, separable or not: whenever a run converges, predict agrees with it.
    X, y = np.array(data[0]), np.array(data[1])
    _check_predict_reproduces_labels(X, y, tie, offset, max_epochs=50)


def test_predict_at_a_tie_follows_the_rule_of_the_run():
    # Balcan's rule predicts -1 at w·x = 0. The run updates on (1, 0) only; (0, 1), labelled -1,
    # stays on the boundary, where the old predict said +1.
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    res = pc.perceptron(X, y, tie="negative")
    assert res.converged and np.array_equal(res.w, [1.0, 0.0])
    assert list(res.predict(X)) == [1, -1]
    assert list(pc.Perceptron(offset=False, tie="negative").fit(X, y).predict(X)) == [1, -1]
    # CS229's rule, mirrored; and "mistake" gives no answer (0) on the boundary.
    assert list(pc.perceptron(X, -y, tie="positive").predict(X)) == [-1, 1]
    assert list(pc.perceptron(X, y).predict([[3.0, 3.0], [2.0, 0.0]])) == [0, 1]  # w = (1, -1)


def test_signs_are_exact_whatever_the_summation_order():
    # (1e16, 1, -1e16)·(1, 1, 1) = 1 exactly, but summed left to right in floats it is 0. The
    # run decides the exact sign, so the second point is no mistake on any machine.
    X = np.array([[1.0, 1.0, 1.0], [1e16, 1.0, -1e16]])
    res = pc.perceptron(X, [1.0, 1.0])
    assert res.mistakes == 1 and res.converged and np.array_equal(res.w, [1.0, 1.0, 1.0])
    assert list(res.predict(X)) == [1, 1]
    steps = list(pc.online_perceptron(zip(X, [1.0, 1.0])))
    assert [s.mistake for s in steps] == [True, False]


# ------------------------------------------------------------------ online to PAC


def test_online_to_pac_counts_m_plus_one_hypotheses():
    # By hand: R = 1, γ = 0.5 gives M = 4 mistakes at most, so h1..h5 are tested. Each may fail
    # with probability δ/5: window ⌈(1/0.1)·ln(5/0.01)⌉ = ⌈62.146⌉ = 63; five windows, 315.
    sizes = pc.online_to_pac(1.0, 0.5, 0.1, 0.01)
    assert (sizes.hypotheses, sizes.window, sizes.sample_size) == (5, 63, 315)
    assert sizes.mistake_bound == 4.0
    # M = 0 (R < γ): no mistake is possible, one hypothesis, window ⌈ln(1/δ)/ε⌉ = ⌈46.05⌉.
    zero = pc.online_to_pac(0.5, 1.0, 0.1, 0.01)
    assert (zero.hypotheses, zero.window, zero.sample_size) == (1, 47, 47)
    # (R/γ)² = 2.25: at most 2 mistakes, 3 hypotheses; ⌈ln(3/0.05)/0.2⌉ = ⌈20.47⌉ = 21.
    frac = pc.online_to_pac(1.5, 1.0, 0.2, 0.05)
    assert (frac.hypotheses, frac.window, frac.sample_size) == (3, 21, 63)


@given(st.floats(0.01, 50.0), st.floats(0.01, 50.0), st.floats(1e-3, 0.999), st.floats(1e-6, 0.999))
def test_online_to_pac_union_bound_holds(R, gamma, eps, delta):
    # The guarantee itself: (M+1) hypotheses, each fooling a window with probability at most
    # (1 - ε)^window, must fool it in total with probability at most δ.
    sizes = pc.online_to_pac(R, gamma, eps, delta)
    M = int(np.floor((R / gamma) ** 2 * (1 + 1e-12)))
    assert sizes.hypotheses == M + 1
    assert (M + 1) * (1 - eps) ** sizes.window <= delta * (1 + 1e-9)
    assert sizes.sample_size == (M + 1) * sizes.window


# ---------------------------------------------------------------------------------------------
# Reading a recorded run: its first repeated state, and its closest call
# ---------------------------------------------------------------------------------------------


def _ours_recorded(X, y, T):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        return pc.perceptron(X, y, offset=True, max_epochs=T, record=True)


@settings(max_examples=examples(100))
@given(st.integers(1, 6), st.integers(1, 4), st.integers(0, 10**6), st.integers(2, 12))
def test_find_cycle_agrees_with_an_integer_reference(n, d, seed, epochs):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(float)
    y = rng.choice([-1.0, 1.0], size=n)
    res = _ours_recorded(X, y, epochs)
    states = integer_run_states(X, y, epochs)
    if res.converged:
        states = states[: res.mistakes + 1]
    expected = next(((k, l - k) for l in range(len(states)) for k in range(l) if states[k] == states[l]), None)
    assert pc.find_cycle(res, n) == expected
    if expected is not None:
        k, p = expected  # from there on the run is periodic
        assert all(states[j] == states[j + p] for j in range(k, len(states) - p))


def test_find_cycle_needs_a_history():
    X, y = pc.xor()
    with pytest.raises(ValueError, match="record=True"):
        pc.find_cycle(_ours(X, y, 2, offset=False), 4)



def _closest_by_loop(Z, y, max_epochs):
    """The cyclic perceptron through the origin on the rows of Z as a plain float loop, and the
    smallest |w·z| / (‖w‖ ‖z‖) over its tests with w ≠ 0 (written here, independently)."""
    w = np.zeros(Z.shape[1])
    closest = math.inf
    for _ in range(max_epochs):
        clean = True
        for z, label in zip(Z, y):
            s = float(w @ z)
            size = float(np.linalg.norm(w)) * float(np.linalg.norm(z))
            if size > 0:
                closest = min(closest, abs(s) / size)
            if label * s <= 0:
                w = w + label * z
                clean = False
        if clean:
            break
    return closest


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 30), st.integers(1, 4), st.floats(0.05, 0.5), st.integers(0, 10**6), st.booleans(),
       st.floats(1e-3, 1e3))
def test_closest_call_is_the_smallest_cosine_of_a_plain_loop(n, d, ratio, seed, offset, c):
    X, y, _ = pc.planted(n, d, ratio, 1.0, seed=seed)
    X = X + 0.5  # an offset is needed to separate them now, or the augmented points (x, c)
    Z = pc.augment(X, 1.0) if offset else pc.augment(X, c)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        run = pc.perceptron(X, y, offset=True, max_epochs=50, record=True) if offset else \
            pc.perceptron(Z, y, max_epochs=50, record=True)
    expected = _closest_by_loop(Z, y, 50)
    got = pc.closest_call(X if offset else Z, run)
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-15)
    # Far from a tie, the float loop and the exact run made the same decisions.
    assert expected < 1e-9 or got > 0


def test_closest_call_of_a_run_that_touches_a_tie_is_zero_and_of_no_test_is_inf():
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    run = pc.perceptron(X, y, record=True)  # w = (1, 0) meets (0, 1) at a tie, w·x = 0
    assert pc.closest_call(X, run) == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        one = pc.perceptron([[0.0, 0.0]], [1.0], max_epochs=1, record=True)
    assert pc.closest_call([[0.0, 0.0]], one) == math.inf  # x = 0: no direction to test


@given(small_labelled_data(), st.sampled_from(["mistake", "positive", "negative"]))
def test_tie_rules_match_an_exact_reference(data, tie):
    """Integer data make ties frequent; the package's rules match exact arithmetic."""
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        run = perceptron(X, y, tie=tie, max_epochs=20, record=True)
    ref = reference_perceptron(X, y, tie=tie, exact=True, max_epochs=20, must_converge=False)
    hits, w, epochs = ref.indices, ref.w, ref.epochs
    assert run.history.indices.tolist() == hits and run.epochs == epochs
    np.testing.assert_array_equal(run.w, [float(v) for v in w])


@given(small_labelled_data())
def test_balcan_is_cs229_on_flipped_labels_negated(data):
    """Exercise per-ex-balcan, on any data (separable or not), bit for bit."""
    X, y = data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        balcan = perceptron(X, y, tie="negative", max_epochs=20, record=True)
        mirror = perceptron(X, -y, tie="positive", max_epochs=20, record=True)
    assert balcan.history.indices.tolist() == mirror.history.indices.tolist()
    np.testing.assert_array_equal(balcan.w, 0 - mirror.w)
