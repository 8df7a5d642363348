"""The perceptron as a true scikit-learn classifier, for pipelines, cross-validation and grid search.

:class:`Perceptron` here is a thin layer over :func:`perceptron_core.perceptron`: it maps any two
class labels to ±1, runs the same core, and predicts from the same scores, summed in the run's
order. It passes scikit-learn's ``check_estimator``.

This module imports scikit-learn; the rest of :mod:`perceptron_core` does not need it, and
``import perceptron_core`` does not import this module: ``perceptron_core.Perceptron`` is this
class, loaded (with scikit-learn) the first time it is asked for.

Example
-------
>>> from sklearn.pipeline import make_pipeline
>>> from sklearn.preprocessing import StandardScaler
>>> from perceptron_core.estimator import Perceptron
>>> model = make_pipeline(StandardScaler(), Perceptron(max_epochs=100))
"""

from __future__ import annotations

import warnings

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import check_X
from .algorithms import ConvergenceWarning, Tie, perceptron, scores

__all__ = ["Perceptron"]


class Perceptron(ClassifierMixin, BaseEstimator):
    """The cyclic perceptron of :func:`perceptron_core.perceptron` as a scikit-learn classifier.

    Parameters
    ----------
    offset : learn an offset (scikit-learn's ``fit_intercept``).
    max_epochs : cap on sweeps over the data (scikit-learn's ``max_iter``). The run stops at
        the first sweep without a mistake.
    tie : as in :func:`perceptron_core.perceptron`: what a score of exactly 0 means.

    Attributes
    ----------
    classes_ : the two labels, sorted; ``classes_[1]`` is the positive class (+1 inside).
    coef_ : array of shape (1, d), the weights (scikit-learn's shape for a binary classifier).
    intercept_ : array of shape (1,), the offset.
    n_features_in_ : number of features seen in ``fit``.
    n_iter_ : number of epochs run.
    mistakes_ : number of updates.
    converged_ : whether the last epoch was free of mistakes.

    Notes
    -----
    ``predict`` takes the sign of ``w·x + b`` summed as the run summed it. A point exactly on the
    boundary gets ``classes_[1]`` under ``tie="positive"`` and ``classes_[0]`` under
    ``tie="negative"`` and under ``tie="mistake"`` (where the core gives no answer, 0): the
    estimator must name a class, and ``classes_[0]`` is what scikit-learn's own linear
    classifiers predict at a score of 0. With ``tie="mistake"`` and ``max_epochs=T`` the run adds
    the same numbers in the same order as ``sklearn.linear_model.Perceptron(shuffle=False,
    tol=None, eta0=1, penalty=None, max_iter=T)``, so the weights are bit for bit the same as
    long as every decision is: scikit-learn sums ``w·x`` with BLAS, in an order of its own, so
    a score within rounding of 0 can still part the runs.
    """

    def __init__(self, *, offset: bool = True, max_epochs: int = 1000, tie: Tie = "mistake") -> None:
        self.offset = offset
        self.max_epochs = max_epochs
        self.tie = tie

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def fit(self, X: ArrayLike, y: ArrayLike) -> Perceptron:
        """Fit on ``X`` of shape (n, d) and labels ``y`` of exactly two classes; returns ``self``."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        if y_type not in ("binary", "multiclass"):
            raise ValueError(f"Unknown label type: {y_type}. Perceptron needs class labels, not numbers.")
        self.classes_ = np.unique(y)
        if len(self.classes_) == 1:
            raise ValueError(
                f"y has only one class ({self.classes_[0]!r}); the perceptron needs examples of two "
                "classes."
            )
        if len(self.classes_) > 2:
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {y_type} "
                f"({len(self.classes_)} classes); the perceptron separates two classes. For more, "
                "wrap it in sklearn.multiclass.OneVsRestClassifier."
            )
        signed = np.where(y == self.classes_[1], 1.0, -1.0)
        with warnings.catch_warnings():
            # Reported by converged_ and n_iter_, as scikit-learn's own estimators do not warn
            # when a run stops at max_iter on purpose.
            warnings.simplefilter("ignore", ConvergenceWarning)
            res = perceptron(X, signed, offset=self.offset, max_epochs=self.max_epochs, tie=self.tie)
        self._fit_tie = res.tie  # predict follows the rule of the fit, even if self.tie changes
        self.coef_ = res.w.reshape(1, -1).copy()
        self.intercept_ = np.array([res.b])
        self.n_iter_ = res.epochs
        self.mistakes_ = res.mistakes
        self.converged_ = res.converged
        return self

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Scores ``w·x + b``, summed as the run summed them; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = check_X(validate_data(self, X, dtype=np.float64, reset=False))  # and not too large
        return scores(X, self.coef_[0], self.intercept_[0])

    def predict(self, X: ArrayLike) -> NDArray:
        """The class of each row, from the sign of :meth:`decision_function` (see Notes for a tie)."""
        s = self.decision_function(X)
        positive = s > 0 if self._fit_tie != "positive" else s >= 0
        return self.classes_[positive.astype(int)]
