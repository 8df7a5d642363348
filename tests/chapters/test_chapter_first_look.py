"""The claims of the chapter "A first look" (book/first_look.ipynb), each checked by an independent
computation."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import perceptron_core as pc
from oracles import prose, sweep


def test_the_slider_claim_and_the_opening_run():
    """'A smaller margin raises the bound steeply, but the mistake count moves much less', over
    the 30 settings; the opening run converges, the same in exact arithmetic, within its bound."""
    bounds, mistakes = [], []
    for g in np.round(np.arange(0.05, 0.501, 0.05), 2):
        for s in (0, 1, 2):
            X, y, _ = pc.planted(40, 2, gamma=g, R=1.0, seed=s)
            w, _, idx, _ = sweep(X, y)
            bounds.append(pc.novikoff_bound(pc.radius(X), pc.max_margin(X, y).gamma))
            mistakes.append(len(idx))
            assert len(idx) <= bounds[-1] and pc.perceptron(X, y).mistakes == len(idx)
    assert max(bounds) - min(bounds) > 10 * (max(mistakes) - min(mistakes))
    # The bound uses gamma*, not the planted gamma: planted 0.05 (data set 0) gives about 148.
    assert bounds[0] == pytest.approx(148.374, abs=1e-3) and pc.novikoff_bound(1.0, 0.05) == 400
    assert "{glue:text}`fl-slider-low-bound:.0f`" in prose("first_look")
    X, y, u = pc.planted(40, 2, gamma=0.1, R=1.0, seed=0)
    assert sweep(X, y, exact=True)[2] == sweep(X, y)[2]
    assert float(np.max(np.sum(X**2, axis=1))) - 1 < 1e-15  # within R, up to rounding


@given(st.floats(0.05, 0.5), st.integers(0, 10_000))
def test_exercise_scale_by_two_is_the_same_run(gamma, seed):
    """fl-ex-scale: doubling every point doubles w exactly, keeps the mistakes and the bound."""
    X, y, u = pc.planted(20, 3, gamma=gamma, R=1.0, seed=seed)
    run, run2 = pc.perceptron(X, y), pc.perceptron(2 * X, y)
    assert run2.mistakes == run.mistakes and run2.epochs == run.epochs
    np.testing.assert_array_equal(run2.w, 2 * run.w)
    b1 = pc.novikoff_bound(pc.radius(X), pc.max_margin(X, y).gamma)
    b2 = pc.novikoff_bound(pc.radius(2 * X), pc.max_margin(2 * X, y).gamma)
    assert b2 == pytest.approx(b1, rel=1e-6)


def test_exercise_dimension():
    """fl-ex-dimension: every run within its bound, every bound at most (1/0.1)² = 100; the
    solution says the planted margin 0.1 holds up to rounding (it does only that: in d = 2 the
    planted u's computed margin is 0.1 - 2.4e-16)."""
    bounds = []
    for d in (2, 10, 100):
        Xd, yd, ud = pc.planted(40, d, gamma=0.1, R=1.0, seed=0)
        assert abs(np.min(yd * (Xd @ ud)) - 0.1) < 1e-12  # margin 0.1, up to rounding
        run_d = pc.perceptron(Xd, yd)
        bound_d = pc.novikoff_bound(pc.radius(Xd), pc.max_margin(Xd, yd).gamma)
        assert run_d.converged and run_d.mistakes <= bound_d <= 100 * (1 + 1e-9)
        bounds.append(bound_d)
    assert "margin $0.1$,\nboth up to floating-point rounding" in prose("first_look")
    # "the bounds need not even move in the same direction as d"
    assert not (bounds[0] <= bounds[1] <= bounds[2] or bounds[0] >= bounds[1] >= bounds[2])


def test_iris_folds_one_separable_and_converged_the_others_capped():
    """The scikit-learn section: fold by fold, separable exactly when the run converged.

    A converged run's (w, b) is checked to separate its standardized training flowers, and an
    unconverged fold's certificate to be one, both in exact rational arithmetic, here.
    """
    pytest.importorskip("sklearn")
    from sklearn.model_selection import StratifiedKFold, cross_validate
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from perceptron_core.estimator import Perceptron

    epochs = 50
    X, y = pc.iris_pair("versicolor", "virginica")
    model = make_pipeline(StandardScaler(), Perceptron(max_epochs=epochs))
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    fits = cross_validate(model, X, y, cv=folds, return_estimator=True)
    separable = []
    for fit, (train, _) in zip(fits["estimator"], folds.split(X, y)):
        Xs, ys = fit[0].transform(X[train]), y[train]
        rows = [[Fraction(float(v)) for v in x] + [Fraction(1)] for x in Xs]
        run = fit[-1]
        if run.converged_:
            theta = [Fraction(float(v)) for v in run.coef_[0]] + [Fraction(float(run.intercept_[0]))]
            assert all(int(t) * sum(a * b for a, b in zip(r, theta)) > 0 for r, t in zip(rows, ys))
            separable.append(True)
        else:
            assert run.n_iter_ == epochs
            cert = pc.separability(Xs, ys, offset=True)
            lam = [Fraction(v) for v in cert.certificate_exact]
            assert cert.separable is False and min(lam) >= 0 and sum(lam) == 1
            assert all(sum(l * int(t) * r[j] for l, t, r in zip(lam, ys, rows)) == 0
                       for j in range(len(rows[0])))
            separable.append(False)
    assert separable.count(True) == 1  # "Only the training set of fold ... is separable"
    k = separable.index(True)
    assert fits["test_score"][k] == min(fits["test_score"])  # "the lowest of all the folds"
    assert not pc.separability(X, y, offset=True).separable  # the whole data set is not


def test_text_says_hyperplane_in_four_dimensions():
    text = prose("first_look")
    assert "no line" not in text.lower() and "No hyperplane separates the two species" in text
    assert "the run never\nconverges" not in text and "50 epochs" not in text


def test_stratified_folds_are_balanced_with_or_without_shuffling():
    """The prose: stratified folds hold the same share of each species whether or not they are
    shuffled; shuffling only changes which flowers of each species fall into which fold."""
    pytest.importorskip("sklearn")
    from sklearn.model_selection import StratifiedKFold

    X, y = pc.iris_pair("versicolor", "virginica")
    for shuffle in (False, True):
        folds = StratifiedKFold(n_splits=5, shuffle=shuffle,
                                random_state=0 if shuffle else None)
        for _, test in folds.split(X, y):
            assert np.sum(y[test] > 0) == np.sum(y[test] < 0)
