"""perceptron_core.estimator.Perceptron is a true scikit-learn classifier over the same core."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

import perceptron_core as pc
from perceptron_core.estimator import Perceptron

TIES = ("mistake", "positive", "negative")


@parametrize_with_checks([Perceptron(), Perceptron(offset=False, tie="positive")])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def _iris_two_species():
    X, species = pc.iris()
    keep = species != "setosa"  # versicolor and virginica: not separable, so a real fit
    return X[keep], species[keep]


@pytest.mark.parametrize("offset", [True, False])
def test_weights_and_predictions_equal_sklearn_on_any_labels(offset):
    X, species = _iris_two_species()
    ours = Perceptron(offset=offset, max_epochs=30).fit(X, species)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = SkPerceptron(shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=30,
                          fit_intercept=offset).fit(X, species)
    assert list(ours.classes_) == ["versicolor", "virginica"] == list(sk.classes_)
    assert np.array_equal(ours.coef_, sk.coef_) and np.array_equal(ours.intercept_, sk.intercept_)
    assert np.array_equal(ours.predict(X), sk.predict(X))
    assert ours.score(X, species) == sk.score(X, species)
    assert ours.n_features_in_ == 4 and not ours.converged_


def test_the_same_run_as_the_core():
    X, species = _iris_two_species()
    signed = np.where(species == "virginica", 1.0, -1.0)
    for tie in TIES:
        est = Perceptron(tie=tie, max_epochs=15).fit(X, species)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pc.ConvergenceWarning)
            res = pc.perceptron(X, signed, offset=True, max_epochs=15, tie=tie)
        assert np.array_equal(est.coef_[0], res.w) and est.intercept_[0] == res.b
        assert est.mistakes_ == res.mistakes and est.n_iter_ == res.epochs
        core = res.predict(X)
        assert np.array_equal(est.predict(X), np.where(core > 0, "virginica", "versicolor"))


@pytest.mark.parametrize("tie, at_tie", [("mistake", "no"), ("negative", "no"), ("positive", "yes")])
def test_a_point_on_the_boundary_gets_a_class_by_the_tie_rule(tie, at_tie):
    # classes_ = ["no", "yes"]; x = (w2, -w1) has w·x = w1 w2 - w2 w1 = 0 exactly in floats.
    X, y = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]]), np.array(["yes", "no", "yes"])
    est = Perceptron(offset=False, tie=tie, max_epochs=5).fit(X, y)
    w1, w2 = est.coef_[0]
    assert w1 != 0 and est.decision_function([[w2, -w1]])[0] == 0.0
    assert est.predict([[w2, -w1], [w1, w2]]).tolist() == [at_tie, "yes"]


def test_predict_follows_the_tie_rule_of_the_fit():
    # Under CS229's rule the run leaves (1, 0), labelled 1, on the boundary: w = (0, -1).
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, 0])
    est = Perceptron(offset=False, tie="positive").fit(X, y)
    assert est.coef_.tolist() == [[0.0, -1.0]] and est.predict([[1.0, 0.0]])[0] == 1
    est.set_params(tie="negative")  # a parameter for the next fit, not for this model
    assert est.get_params()["tie"] == "negative" and est.predict([[1.0, 0.0]])[0] == 1
    # Refitted under Balcan's rule, (0, 1), labelled 0, stays on the boundary: w = (1, 0).
    assert est.fit(X, y).coef_.tolist() == [[1.0, 0.0]] and est.predict([[0.0, 1.0]])[0] == 0


def test_bad_parameters_fail_at_fit_with_the_core_messages():
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1, 0])
    with pytest.raises(ValueError, match="max_epochs must be a positive integer"):
        Perceptron(max_epochs=0).fit(X, y)
    with pytest.raises(ValueError, match="tie must be 'mistake'"):
        Perceptron(tie="up").fit(X, y)
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        Perceptron().fit(np.eye(3), ["a", "b", "c"])


def test_pipeline_cross_val_score_and_grid_search_on_iris():
    X, species = _iris_two_species()
    model = make_pipeline(StandardScaler(), Perceptron(max_epochs=50))
    accuracy = model.fit(X, species).score(X, species)
    assert 0.8 < accuracy <= 1.0
    # Iris is sorted by species, so an unshuffled 5-fold split would hold out one class at a time.
    from sklearn.model_selection import StratifiedKFold
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    scores = cross_val_score(model, X, species, cv=folds)
    assert scores.shape == (5,) and np.all((0.6 <= scores) & (scores <= 1.0))
    grid = GridSearchCV(model, {"perceptron__max_epochs": [1, 50], "perceptron__offset": [True, False]},
                        cv=folds).fit(X, species)
    assert set(grid.best_params_) == {"perceptron__max_epochs", "perceptron__offset"}
    assert grid.best_score_ >= scores.mean() - 1e-12 or grid.best_params_ != {
        "perceptron__max_epochs": 50, "perceptron__offset": True}
    assert grid.predict(X).dtype == species.dtype and set(grid.predict(X)) <= set(species)
