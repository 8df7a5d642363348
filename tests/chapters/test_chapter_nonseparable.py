"""The claims of the chapter "When the data cannot be separated" (book/nonseparable.ipynb).

The cycle on XOR and the Iris run in millimetres are checked against a perceptron in Python
integers written here; the hinge-loss bounds against real runs on noisy data, with u and γ from
a source independent of the run; the kernel perceptron against the reference sweep."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from conftest import integer_run_states
from oracles import sweep

import perceptron_core as pc
from perceptron_core.bounds import best_gamma, freund_schapire_bound, square_deviation


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():  # capped runs are what these tests read
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        yield


@pytest.mark.parametrize("seed", range(40))
def test_an_epoch_without_a_mistake_proves_the_data_separable(seed):
    """Ties counted as mistakes, or any rule with an offset: on data separability certifies
    inseparable every epoch errs (small integers: every score exact)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(int(rng.integers(1, 8)), 2)).astype(float)
    y = rng.choice([-1.0, 1.0], size=len(X))
    for tie, offset in (("mistake", False), ("mistake", True), ("positive", True), ("negative", True)):
        res = pc.perceptron(X, y, offset=offset, tie=tie, max_epochs=8, record=True)
        if pc.separability(X, y, offset=offset).separable is False:
            assert not res.converged and np.bincount(res.history.epochs, minlength=9)[1:].min() >= 1


def test_a_tie_ends_a_run_on_data_no_hyperplane_through_the_origin_separates():
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0, -1.0])
    assert pc.separability(X, y).separable is False and pc.separability(X, y, offset=True).separable
    for tie, labels in (("positive", y), ("negative", -y)):
        w, _, idx, epochs = sweep(X, labels, tie=tie, max_epochs=20, exact=True)
        assert (idx, epochs) == ([2], 2) and np.count_nonzero(X @ w == 0) == 2
    assert sweep(X, y, max_epochs=20)[3] == 20 and len(sweep(X, y, max_epochs=20)[2]) >= 20


def test_xor_cycles_back_to_zero_and_iris_finds_no_repeat():
    """XOR: 4 mistakes an epoch, θ back at 0 after each sweep: period 4 from the start. Iris in
    millimetres: 1000 epochs, a mistake in each, no repeated state (integers: exact); the offset
    and ‖w‖ still grow from epoch 10 to 100 to 1000."""
    X, y = pc.xor()
    states = integer_run_states(X, y, 6)
    run = pc.perceptron(X, y, offset=True, max_epochs=6, record=True)
    assert len(states) - 1 == run.mistakes == 24 and states[4] == states[0]
    assert pc.find_cycle(run, 4) == (0, 4)
    Xi, yi = pc.iris_pair("versicolor", "virginica")
    X_mm = np.round(10 * Xi)
    assert np.all(np.abs(X_mm - 10 * Xi) < 1e-9)
    states = integer_run_states(X_mm, yi, 1000)
    run = pc.perceptron(X_mm, yi, offset=True, max_epochs=1000, record=True)
    assert len(states) - 1 == run.mistakes and len(set(states)) == len(states)
    assert np.array_equal(np.r_[run.w, run.b], states[-1][0]) and pc.find_cycle(run, 100) is None
    assert np.bincount(run.history.epochs)[1:].min() >= 1
    at = [pc.perceptron(X_mm, yi, offset=True, max_epochs=e) for e in (10, 100, 1000)]
    assert at[0].b < at[1].b < at[2].b and np.linalg.norm(at[0].w) < np.linalg.norm(at[2].w)


def noisy(seed=0, rate=0.1):
    X, y, u = pc.planted(200, 5, 0.1, 1.0, seed=seed)
    return X, pc.flip_labels(y, rate, seed=seed), u, y


@pytest.mark.parametrize("seed", range(3))
def test_the_hinge_bound_on_noisy_runs(seed):
    """Every step of the proof on the run (weights from the reference sweep, not the package),
    the run within each form of the bound, a deviation charged once broken after a few passes;
    the planted u misclassifies exactly the flipped points."""
    X, y, u, clean = noisy(seed)
    assert np.array_equal(y * (X @ u) < 0, y != clean) and np.sum(y != clean) == 20
    R, gamma, T = pc.radius(X), 0.4, 10
    dev = np.maximum(0, gamma - y * (X @ u))
    idx = sweep(X, y, max_epochs=T)[2]
    W = np.cumsum(y[idx, None] * X[idx], axis=0)
    k = np.arange(1, len(idx) + 1)
    assert np.all(W @ u >= gamma * k - np.cumsum(dev[idx]) - 1e-9)
    assert np.all(np.sum(W**2, axis=1) <= k * R**2 * (1 + 1e-12))
    assert len(idx) <= pc.hinge_loss_bound(R, gamma, T * dev.sum())
    assert len(idx) <= freund_schapire_bound(R, gamma, math.sqrt(T * np.sum(dev**2)))
    assert len(idx) > best_gamma(X, y, u, passes=1).bound
    assert len(idx) <= best_gamma(X, y, u, passes=T).bound
    assert np.isclose(square_deviation(X, y, u, gamma), np.sqrt(np.sum(dev**2)))


def test_neither_form_of_the_hinge_bound_is_always_the_smaller():
    """50 points deviating by γ/10 at R/γ = 10: Balcan 110, Freund–Schapire ≈ 114.6; four times
    as many points: theirs is the smaller; the chapter's run: Balcan's."""
    assert pc.hinge_loss_bound(1, 0.1, 50 * 0.01) == pytest.approx(110)
    assert freund_schapire_bound(1, 0.1, math.sqrt(50) * 0.01) == pytest.approx(((1 + math.sqrt(50) * 0.01) / 0.1) ** 2)
    assert freund_schapire_bound(1, 0.1, math.sqrt(200) * 0.01) < pc.hinge_loss_bound(1, 0.1, 2)
    X, y, u, _ = noisy()
    td = pc.total_hinge_deviation(X, y, u, 0.4)
    assert pc.hinge_loss_bound(pc.radius(X), 0.4, 10 * td) < freund_schapire_bound(
        pc.radius(X), 0.4, math.sqrt(10) * square_deviation(X, y, u, 0.4))


def test_the_best_bound_is_certified_and_beats_the_planted_u():
    X, y, u, _ = noisy()
    opt = pc.bounds.best_bound(X, y, passes=10)
    assert opt.lower <= opt.bound * (1 + 1e-9) and (opt.bound - opt.lower) / opt.bound < 1e-3
    assert opt.bound <= best_gamma(X, y, u, passes=10).bound
    grid = np.geomspace(0.01, 10, 400)
    assert min(pc.bounds.bound_at(y * (X @ u), pc.radius(X), g, passes=10) for g in grid) >= opt.lower


def test_averaging_beats_the_last_iterate_on_noisy_planted_data():
    errors = []
    for s in range(8):
        X, y, _ = pc.planted(1200, 10, 0.05, 1.0, seed=s)
        X_tr, y_tr = X[:200], pc.flip_labels(y[:200], 0.1, seed=s)
        last = pc.perceptron(X_tr, y_tr, max_epochs=10)
        avg = pc.averaged_perceptron(X_tr, y_tr, epochs=10)
        errors.append([np.mean(r.predict(X[200:]) != y[200:]) for r in (last, avg)])
    last, avg = np.array(errors).T
    assert avg.mean() < last.mean() and avg.std() < last.std()


def test_the_linear_kernel_makes_the_perceptrons_mistakes_and_a_quadratic_one_solves_xor():
    """Iris in millimetres: the linear kernel makes the perceptron's mistakes under every tie
    rule (integers: every sum exact). XOR: the quadratic kernel separates it, and the chapter's
    polynomial is positive just on the points labelled +1."""
    Xi, yi = pc.iris_pair("versicolor", "virginica")
    X_mm = np.round(10 * Xi)
    for tie in ("mistake", "positive", "negative"):
        dual = pc.kernel_perceptron(pc.augment(X_mm), yi, kernel="linear", max_epochs=20, tie=tie)
        assert dual.mistake_indices.tolist() == sweep(X_mm, yi, offset=True, tie=tie, max_epochs=20)[2]
    X, y = pc.xor()
    quad = pc.kernel_perceptron(X, y, kernel="quadratic")
    assert quad.converged and np.array_equal(quad.predict(X), y)
    assert np.all(y * (X[:, 0] + X[:, 1] - 2 * X[:, 0] * X[:, 1] - 0.5) > 0)
