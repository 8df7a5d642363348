"""The perceptron in the three forms the course uses, and Balcan's Margin Perceptron.

* :func:`perceptron` sweeps a fixed data set in order until one whole epoch makes no mistake,
  or until ``max_epochs``. With ``offset=False`` it is the batch perceptron of *Understanding
  Machine Learning*; with ``offset=True`` it is the T-epoch algorithm with θ₀ of the MIT notes.
* :func:`online_perceptron` is the online model (CS229, Balcan): predict, see the label, update.
* :func:`margin_perceptron` also updates on points it classifies correctly by too little.
* :class:`Perceptron` wraps :func:`perceptron` in the scikit-learn ``fit/predict/score`` shape.

Labels are ±1. A mistake is ``y (w·x + b) ≤ 0``: a tie counts as a mistake (``tie="mistake"``,
as in UML, the MIT notes and scikit-learn). CS229 instead predicts +1 when ``w·x + b = 0``
(``tie="positive"``), so there a tie is a mistake only on a negative example; Balcan predicts
positive only when ``w·x > 0`` (``tie="negative"``), so a tie is a mistake only on a positive
example. The mistake bound holds for all three, since each updates only when ``y (w·x + b) ≤ 0``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import check_max_epochs, check_positive, check_vector, check_X, check_X_y, check_y

Tie = Literal["mistake", "positive", "negative"]
_TIES = ("mistake", "positive", "negative")

# Points are scanned in blocks: one matrix-vector product finds the next mistake in a block,
# which is much faster than a Python loop over points, and visits them in exactly the same order.
_BLOCK = 128


class ConvergenceWarning(UserWarning):
    """The run stopped at ``max_epochs`` while an epoch still made a mistake."""


def _frozen(a: NDArray) -> NDArray:
    a.flags.writeable = False
    return a


def _check_tie(tie: str) -> Tie:
    if tie not in _TIES:
        raise ValueError(
            "tie must be 'mistake' (y(w·x+b) <= 0 is a mistake), 'positive' (predict +1 at 0, CS229) "
            f"or 'negative' (predict -1 at 0, Balcan), got {tie!r}."
        )
    return tie  # type: ignore[return-value]


def _is_mistake(scores: NDArray, y: NDArray, tie: Tie) -> NDArray:
    """Which signed scores ``y (w·x + b)`` count as mistakes under the tie rule."""
    if tie == "mistake":
        return scores <= 0
    # At a tie the prediction is fixed, so only the label on the other side is a mistake.
    tied_side = y < 0 if tie == "positive" else y > 0
    return (scores < 0) | ((scores == 0) & tied_side)


def _sweep(
    Z: NDArray, theta: NDArray, max_epochs: int, short: Callable[[int, int, NDArray], NDArray]
) -> tuple[int, bool, list[int], list[int]]:
    """Cycle through the rows z_i of ``Z`` in order, adding z_i to ``theta`` (in place) whenever
    ``short(start, stop, theta)`` flags it, until a sweep flags nothing or ``max_epochs`` pass.

    ``short`` answers for the block of rows ``start:stop`` at once. Returns the number of
    sweeps, whether the last was clean, and the index and sweep of every update.
    """
    n = Z.shape[0]
    indices: list[int] = []
    epochs: list[int] = []
    epoch, converged = 0, False
    while epoch < max_epochs and not converged:
        epoch += 1
        converged = True
        start = 0
        while start < n:
            stop = min(start + _BLOCK, n)
            hit = np.flatnonzero(short(start, stop, theta))
            if hit.size == 0:
                start = stop
                continue
            i = start + int(hit[0])
            theta += Z[i]
            indices.append(i)
            epochs.append(epoch)
            converged = False
            start = i + 1
    return epoch, converged, indices, epochs


def _running_sums(start: NDArray, steps: NDArray) -> NDArray:
    """``start`` followed by the running sums ``start + steps[0] + ... + steps[k]``.

    ``np.cumsum`` adds in the same order as the loop did, so the rows are bit for bit the
    weights the run held; nothing needs to be copied while it runs.
    """
    return np.cumsum(np.vstack([start, steps]), axis=0)


@dataclass(frozen=True)
class History:
    """What happened at each mistake of a run; row ``k-1`` describes mistake ``k``.

    With an offset, θ = (w, b) is the augmented weight vector, as in the offset trick.

    Attributes
    ----------
    indices : index of the example on which mistake ``k`` was made.
    epochs : the epoch (from 1) in which mistake ``k`` was made.
    weights : ``w`` after mistake ``k``, shape (M, d).
    offsets : ``b`` after mistake ``k`` (all zero without an offset).
    progress : ``θ_k·u`` after mistake ``k`` when a reference unit vector ``u`` was given, else None.
        The convergence proof shows ``progress[k-1] ≥ kγ``.
    norms_sq : ``‖θ_k‖²`` after mistake ``k``. The proof shows ``norms_sq[k-1] ≤ kR²``.
    """

    indices: NDArray[np.int64]
    epochs: NDArray[np.int64]
    weights: NDArray[np.float64]
    offsets: NDArray[np.float64]
    progress: NDArray[np.float64] | None
    norms_sq: NDArray[np.float64]


@dataclass(frozen=True)
class PerceptronResult:
    """The outcome of :func:`perceptron`.

    Attributes
    ----------
    w, b : the final weights and offset (``b = 0`` without an offset).
    mistakes : total number of updates.
    epochs : number of sweeps made, including the final clean one when it converged.
    converged : True when the last epoch made no mistake, so ``(w, b)`` separates the data.
    max_epochs : the cap the run was given.
    history : per-mistake record when ``record=True``, else None.
    """

    w: NDArray[np.float64]
    b: float
    mistakes: int
    epochs: int
    converged: bool
    max_epochs: int
    history: History | None = None

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Predict ±1 labels (+1 on the boundary itself)."""
        X = check_X(X)
        if X.shape[1] != self.w.shape[0]:
            raise ValueError(f"X has {X.shape[1]} features, but the run was on {self.w.shape[0]}.")
        return np.where(X @ self.w + self.b >= 0, 1, -1)

    def __str__(self) -> str:
        status = (
            f"converged after {self.epochs} epochs"
            if self.converged
            else f"did NOT converge: stopped at max_epochs={self.max_epochs} (the data may not be separable)"
        )
        return f"PerceptronResult({self.mistakes} mistakes, {status})"


def perceptron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    offset: bool = False,
    max_epochs: int = 1000,
    record: bool = False,
    u: ArrayLike | None = None,
    tie: Tie = "mistake",
) -> PerceptronResult:
    """Run the cyclic perceptron: sweep the data in order, updating on every mistake.

    Starts from ``w = 0, b = 0``. On a mistake on ``(x, y)`` it sets ``w ← w + y x`` and, with an
    offset, ``b ← b + y``. It stops after the first epoch with no mistake, or after
    ``max_epochs`` epochs with ``converged=False`` and a :class:`ConvergenceWarning`.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    offset : learn an offset ``b`` too (the MIT T-epoch algorithm with θ₀).
    max_epochs : cap on the number of sweeps (the MIT notes' T).
    record : keep the :class:`History` of every mistake.
    u : reference unit vector for the proof's ``θ_k·u``; length d, or d+1 with an offset (the
        last entry multiplies ``b``). Implies ``record=True``. Need not be normalized by you:
        it is divided by its norm.
    tie : ``"mistake"`` (default) counts ``y (w·x + b) = 0`` as a mistake; ``"positive"``
        predicts +1 there, as CS229 does; ``"negative"`` predicts -1 there, as Balcan does.

    Returns
    -------
    PerceptronResult

    Examples
    --------
    >>> res = perceptron([[1.0, 0.5], [-1.0, -0.2]], [1, -1])
    >>> res.converged, res.mistakes
    (True, 1)
    """
    X, y = check_X_y(X, y)
    max_epochs = check_max_epochs(max_epochs)
    tie = _check_tie(tie)
    n, d = X.shape
    # Work with z_i = y_i x_i (augmented by y_i for the offset): then a mistake is z_i·θ <= 0.
    Z = y[:, None] * (np.hstack([X, np.ones((n, 1))]) if offset else X)
    theta = np.zeros(Z.shape[1])
    if u is not None:
        u = check_vector(u, Z.shape[1], "u (length d, or d+1 with offset=True)")
        u_norm = np.linalg.norm(u)
        if u_norm == 0:
            raise ValueError("u must be a non-zero vector (it is normalized to unit length).")
        u = u / u_norm
        record = True

    epochs, converged, indices, update_epochs = _sweep(
        Z, theta, max_epochs, lambda a, b, th: _is_mistake(Z[a:b] @ th, y[a:b], tie)
    )

    if not converged:
        warnings.warn(
            f"perceptron stopped at max_epochs={max_epochs} with mistakes in the last epoch; "
            "the data may not be linearly separable (check with perceptron_core.separability), "
            "or raise max_epochs.",
            ConvergenceWarning,
            stacklevel=2,
        )

    history = None
    if record:
        thetas = _running_sums(np.zeros(Z.shape[1]), Z[indices])[1:]
        history = History(
            indices=_frozen(np.array(indices, dtype=np.int64)),
            epochs=_frozen(np.array(update_epochs, dtype=np.int64)),
            weights=_frozen(thetas[:, :d].copy()),
            offsets=_frozen(thetas[:, d].copy() if offset else np.zeros(len(indices))),
            progress=None if u is None else _frozen(thetas @ u),
            norms_sq=_frozen(np.einsum("ij,ij->i", thetas, thetas)),
        )
    return PerceptronResult(
        w=_frozen(theta[:d].copy()),
        b=float(theta[d]) if offset else 0.0,
        mistakes=len(indices),
        epochs=epochs,
        converged=converged,
        max_epochs=max_epochs,
        history=history,
    )


@dataclass(frozen=True)
class OnlineStep:
    """One round of the online model.

    Attributes
    ----------
    t : round number, from 1.
    prediction : +1, -1, or 0 when the score is exactly 0 under ``tie="mistake"`` (no answer,
        which counts as a mistake).
    label : the true label, revealed after the prediction.
    mistake : whether this round was a mistake (and so caused an update).
    w, b : the hypothesis *after* this round.
    mistakes : mistakes so far, this round included.
    """

    t: int
    prediction: int
    label: int
    mistake: bool
    w: NDArray[np.float64]
    b: float
    mistakes: int


def online_perceptron(
    stream: Iterable[tuple[ArrayLike, float]],
    *,
    offset: bool = False,
    tie: Tie = "mistake",
) -> Iterator[OnlineStep]:
    """Run the perceptron in the online model over any iterable of ``(x, y)`` pairs.

    Each round it predicts from the current hypothesis, is told the label, and updates on a
    mistake. It yields one :class:`OnlineStep` per example as it goes, so it works on a stream
    that never ends (take as many rounds as you like with ``itertools.islice``).

    Parameters
    ----------
    stream : iterable of ``(x, y)``, ``x`` a 1-D vector (all of one length), ``y`` ±1.
    offset : learn an offset ``b`` too.
    tie : as in :func:`perceptron`.

    Yields
    ------
    OnlineStep
    """
    tie = _check_tie(tie)
    w: NDArray | None = None
    b = 0.0
    mistakes = 0
    for t, item in enumerate(stream, start=1):
        try:
            x_raw, label_raw = item
        except (TypeError, ValueError):
            raise ValueError(f"round {t}: each item of the stream must be a pair (x, y), got {item!r}.") from None
        x = check_X(np.atleast_2d(np.asarray(x_raw, dtype=float)), name=f"x at round {t}")
        if x.shape[0] != 1:
            raise ValueError(f"round {t}: x must be one 1-D feature vector, got shape {np.shape(x_raw)}.")
        x = x[0]
        label = int(check_y(np.atleast_1d(label_raw))[0])
        if w is None:
            w = np.zeros_like(x)
        elif x.shape != w.shape:
            raise ValueError(
                f"round {t}: x has {x.shape[0]} features but earlier examples had {w.shape[0]}; "
                "every example must have the same length."
            )
        score = float(x @ w + b)
        if score != 0:
            prediction = 1 if score > 0 else -1
        else:
            prediction = {"mistake": 0, "positive": 1, "negative": -1}[tie]
        mistake = prediction != label
        if mistake:
            w = w + label * x
            b = b + label if offset else b
            mistakes += 1
        yield OnlineStep(t, prediction, label, mistake, _frozen(w.copy()), float(b), mistakes)


@dataclass(frozen=True)
class MarginPerceptronResult:
    """The outcome of :func:`margin_perceptron`.

    Attributes
    ----------
    w : final weights (no offset; augment ``X`` with :func:`perceptron_core.augment` for one).
    updates : number of updates after the initialization ``w₁ = y₁x₁``: true mistakes and
        margin mistakes together. The theorem bounds this by ``8(R/γ)² + 4R/γ``.
    epochs : sweeps made, including the final clean one when it converged.
    converged : True when a whole sweep found every point at normalized margin ≥ γ/2.
    gamma : the γ the run was given.
    max_epochs : the cap the run was given.
    update_indices : index of the example of each update, when ``record=True``.
    weights : ``w`` after each update, when ``record=True`` (row 0 is the initialization).
    """

    w: NDArray[np.float64]
    updates: int
    epochs: int
    converged: bool
    gamma: float
    max_epochs: int
    update_indices: NDArray[np.int64] | None = None
    weights: NDArray[np.float64] | None = None


def margin_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    gamma: float,
    *,
    max_epochs: int = 1000,
    record: bool = False,
) -> MarginPerceptronResult:
    """Balcan's Margin Perceptron(γ), cycled over a fixed data set.

    Initialize ``w₁ = y₁x₁`` from the first example. Then sweep the data in order and update
    ``w ← w + y x`` on every *margin mistake*: a point with ``y (w·x)/‖w‖ < γ/2`` (this includes
    every true mistake). Stop after a sweep with no update: then every point has normalized
    margin at least γ/2. If the data have margin γ with respect to some unit vector, the
    number of updates is at most ``8(R/γ)² + 4R/γ``.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    gamma : the margin the run aims for (> 0); at most the data's margin for the bound to apply.
    max_epochs : cap on the number of sweeps.
    record : keep the index of every update and the weights after it.

    Returns
    -------
    MarginPerceptronResult
    """
    X, y = check_X_y(X, y)
    gamma = check_positive(gamma, "gamma")
    max_epochs = check_max_epochs(max_epochs)
    Z = y[:, None] * X
    w = Z[0].copy()

    def short(a: int, b: int, w: NDArray) -> NDArray:
        norm = np.linalg.norm(w)
        # With w = 0 no point has a margin yet, so every point is a margin mistake.
        return np.ones(b - a, bool) if norm == 0 else (Z[a:b] @ w) < (gamma / 2) * norm

    epochs, converged, indices, _ = _sweep(Z, w, max_epochs, short)
    if not converged:
        warnings.warn(
            f"margin_perceptron stopped at max_epochs={max_epochs} with margin mistakes in the last epoch; "
            "gamma may exceed the data's margin, or raise max_epochs.",
            ConvergenceWarning,
            stacklevel=2,
        )
    return MarginPerceptronResult(
        w=_frozen(w),
        updates=len(indices),
        epochs=epochs,
        converged=converged,
        gamma=gamma,
        max_epochs=max_epochs,
        update_indices=_frozen(np.array(indices, dtype=np.int64)) if record else None,
        weights=_frozen(_running_sums(Z[0], Z[indices])) if record else None,
    )


class Perceptron:
    """The perceptron with the scikit-learn estimator interface.

    Parameters
    ----------
    offset : learn an offset (scikit-learn's ``fit_intercept``).
    max_epochs : cap on sweeps over the data (scikit-learn's ``max_iter``).
    tie : as in :func:`perceptron`.

    Attributes
    ----------
    coef_ : array of shape (d,), the learned weights.
    intercept_ : float, the learned offset.
    n_iter_ : number of epochs run.
    mistakes_ : number of updates.
    converged_ : whether the last epoch was free of mistakes.
    """

    def __init__(self, *, offset: bool = True, max_epochs: int = 1000, tie: Tie = "mistake") -> None:
        self.offset = offset
        self.max_epochs = max_epochs
        self.tie = tie

    def fit(self, X: ArrayLike, y: ArrayLike) -> Perceptron:
        """Fit on ``X`` of shape (n, d) and ±1 labels ``y``; returns ``self``."""
        res = perceptron(X, y, offset=self.offset, max_epochs=self.max_epochs, tie=self.tie)
        self.coef_ = res.w
        self.intercept_ = res.b
        self.n_iter_ = res.epochs
        self.mistakes_ = res.mistakes
        self.converged_ = res.converged
        return self

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Signed scores ``w·x + b``."""
        if not hasattr(self, "coef_"):
            raise ValueError("this Perceptron is not fitted yet; call fit(X, y) first.")
        X = check_X(X)
        if X.shape[1] != self.coef_.shape[0]:
            raise ValueError(f"X has {X.shape[1]} features, but the model was fitted with {self.coef_.shape[0]}.")
        return X @ self.coef_ + self.intercept_

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Predict ±1 labels (+1 on the boundary itself)."""
        return np.where(self.decision_function(X) >= 0, 1, -1)

    def score(self, X: ArrayLike, y: ArrayLike) -> float:
        """Mean accuracy on ``X`` and ±1 labels ``y``."""
        X, y = check_X_y(X, y)
        return float(np.mean(self.predict(X) == y))
