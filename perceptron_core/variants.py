"""Ways out for data that cannot be separated: the averaged, voted and kernel perceptrons.

On data that no hyperplane separates the perceptron never settles: its weights keep moving, and
the last iterate is whatever the run happened to hold when it was stopped. Freund and Schapire
(1999, "Large margin classification using the perceptron algorithm") combine *all* the iterates
instead:

* :func:`averaged_perceptron` predicts with the average of the weight vectors the run held,
  one per example presented (``n·T`` rounds for ``T`` epochs);
* :func:`voted_perceptron` lets every weight vector vote with its own prediction, weighted by
  the number of rounds it survived.

Both are computed from one run of :func:`perceptron_core.perceptron` with its history, so they
make exactly the perceptron's mistakes and share its exact decisions of every sign.

:func:`kernel_perceptron` is the perceptron in its dual form: it keeps a count ``αᵢ`` of the
mistakes on each example and scores ``f(x) = Σⱼ αⱼ yⱼ K(xⱼ, x)``. With the linear kernel this is
the primal perceptron written differently; a polynomial or Gaussian kernel lets it separate data
(such as XOR) that no hyperplane in the original space separates.

None of these is in the lecture notes the book follows; they are the standard ways out.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import (
    check_flag,
    check_max_epochs,
    check_positive,
    check_real,
    check_X,
    check_X_y,
)
from .algorithms import ConvergenceWarning, PerceptronResult, Tie, _check_tie, _exact_sign, perceptron

__all__ = [
    "AveragedPerceptronResult",
    "VotedPerceptronResult",
    "KernelPerceptronResult",
    "averaged_perceptron",
    "voted_perceptron",
    "kernel_perceptron",
    "KERNELS",
]

#: The kernels :func:`kernel_perceptron` knows by name ("quadratic" is "poly" with degree 2).
KERNELS = ("linear", "poly", "quadratic", "rbf")
Kernel = Union[str, Callable[[NDArray, NDArray], ArrayLike]]
_UNIT_ROUNDOFF = 2.0**-53


def _frozen(a: NDArray) -> NDArray:
    a.flags.writeable = False
    return a


def _check_epochs(epochs: object) -> int:
    """``epochs`` as a positive int, with a message that names this argument."""
    try:
        return check_max_epochs(epochs)  # type: ignore[arg-type]
    except ValueError:
        raise ValueError(
            f"epochs must be a positive integer, got {epochs!r}: the number of sweeps whose "
            "iterates are combined, e.g. epochs=10."
        ) from None


def _check_features(X: NDArray, d: int, context: str) -> None:
    if X.shape[1] != d:
        raise ValueError(f"X has {X.shape[1]} features, but {context} {d}; pass X with {d} columns.")


def _exact_signs(A: NDArray, thetas: NDArray) -> NDArray[np.int8]:
    """Exact signs of every ``A[i]·thetas[k]`` as an (n, K) array.

    The float product is trusted where it is farther from 0 than its rounding error can reach
    (``2(d+2)·2⁻⁵³·Σ|aⱼθⱼ|``, twice the textbook bound); the few products nearer 0 are decided
    in rational arithmetic, which is exact because a float is a rational.
    """
    scores = A @ thetas.T
    d = A.shape[1]
    slack = 2.0 * (d + 2) * _UNIT_ROUNDOFF * (np.abs(A) @ np.abs(thetas).T) + 1e-300
    signs = np.sign(scores).astype(np.int8)
    for i, k in np.argwhere(~(np.abs(scores) > slack)):
        signs[i, k] = _exact_sign(A[i], thetas[k])
    return signs


def _labels(signs: NDArray, tie: Tie) -> NDArray[np.int64]:
    at_tie = {"mistake": 0, "positive": 1, "negative": -1}[tie]
    return np.where(signs > 0, 1, np.where(signs < 0, -1, at_tie)).astype(np.int64)


def _iterates(
    X: ArrayLike, y: ArrayLike, epochs: int, offset: bool, tie: Tie
) -> tuple[PerceptronResult, NDArray, NDArray, NDArray[np.int64], int]:
    """Run the perceptron for ``epochs`` epochs and list the weight vectors it held.

    Returns the run, the weights ``W`` (K, d) and offsets ``B`` (K,) of the K distinct iterates
    (row 0 is the start, ``w = 0``; row k the weights after mistake k), the number of rounds
    each was held *after* a round (Freund and Schapire's survival counts ``c_k``), and the total
    number of rounds ``n·epochs``. The counts add up to that total.
    """
    X, y = check_X_y(X, y)
    epochs = _check_epochs(epochs)
    offset = check_flag(offset, "offset")
    tie = _check_tie(tie)
    with warnings.catch_warnings():
        # Running all T epochs on data that cannot be separated is the point, not a problem.
        warnings.simplefilter("ignore", ConvergenceWarning)
        run = perceptron(X, y, offset=offset, max_epochs=epochs, record=True, tie=tie)
    n, d = X.shape
    h = run.history
    W = np.vstack([np.zeros((1, d)), h.weights])
    B = np.r_[0.0, h.offsets]
    # Round (from 1) of mistake k; the iterate made there is held from that round on. A run
    # that converged early keeps its last iterate for the epochs it did not need to sweep.
    rounds = (h.epochs - 1) * n + h.indices + 1
    total = n * epochs
    starts = np.r_[1, rounds]
    counts = np.diff(np.r_[starts, total + 1])
    # The start w = 0 is held only until the first mistake; a first-round mistake leaves it 0.
    counts[0] = starts[1] - 1 if len(starts) > 1 else total
    return run, W, B, counts.astype(np.int64), total


@dataclass(frozen=True)
class AveragedPerceptronResult:
    """The outcome of :func:`averaged_perceptron`.

    Attributes
    ----------
    w, b : the averaged weights and offset, ``(1/(nT)) Σₜ wₜ`` over the ``n·T`` rounds.
    w_last, b_last : the last iterate, which is what :func:`perceptron_core.perceptron` returns.
    mistakes : updates made in the ``T`` epochs.
    epochs : ``T``, the number of epochs averaged over (all of them are counted, also those a
        run that converged early did not need).
    converged : whether an epoch made no mistake (then the last iterate separates the data).
    tie : the tie rule of the run; :meth:`predict` follows it.
    w_sum, b_sum : the sums ``Σₜ wₜ``, ``Σₜ bₜ`` (``n·T`` times the averages). :meth:`predict`
        takes the sign of ``w_sum·x + b_sum``, which is that of the average, so that the
        rounding of the division cannot move a score that is exactly 0 (with integer data the
        sums are exact).
    """

    w: NDArray[np.float64]
    b: float
    w_last: NDArray[np.float64]
    b_last: float
    mistakes: int
    epochs: int
    converged: bool
    tie: Tie = "mistake"
    w_sum: NDArray[np.float64] | None = None
    b_sum: float = 0.0

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Scores ``w·x + b`` of the averaged weights."""
        X = check_X(X)
        _check_features(X, self.w.shape[0], "the run was on")
        return X @ self.w + self.b

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Labels from the exact sign of ``w·x + b`` with the averaged weights (tie rule at 0).

        The sign is taken of ``w_sum·x + b_sum``, which has the sign of the average.
        """
        X = check_X(X)
        _check_features(X, self.w.shape[0], "the run was on")
        A = np.hstack([X, np.ones((X.shape[0], 1))])
        w_sum = self.w if self.w_sum is None else self.w_sum
        b_sum = self.b if self.w_sum is None else self.b_sum
        return _labels(_exact_signs(A, np.r_[w_sum, b_sum][None, :])[:, 0], self.tie)


def averaged_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    epochs: int = 10,
    offset: bool = False,
    tie: Tie = "mistake",
) -> AveragedPerceptronResult:
    """The averaged perceptron (Freund and Schapire, 1999): the mean of every iterate.

    Run the cyclic perceptron (:func:`perceptron_core.perceptron`) for ``epochs`` epochs and
    average the weight vector it holds after each of the ``n·epochs`` rounds (one round per
    example presented). An iterate that survives many rounds weighs more; one that is replaced
    at once weighs little. The average settles even when the iterates never do.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    epochs : the number T of sweeps to run and average over, a positive int.
    offset : learn an offset ``b`` too (averaged like ``w``).
    tie : as in :func:`perceptron_core.perceptron`.

    Returns
    -------
    AveragedPerceptronResult

    Examples
    --------
    >>> import perceptron_core as pc
    >>> X, y = pc.xor()
    >>> avg = averaged_perceptron(X, y, epochs=4, offset=True)
    >>> avg.mistakes, avg.converged
    (16, False)
    """
    run, W, B, counts, total = _iterates(X, y, epochs, offset, tie)
    w_sum = np.asarray(counts @ W, dtype=float)
    b_sum = float(counts @ B)
    if not (np.all(np.isfinite(w_sum)) and np.isfinite(b_sum)):
        raise ValueError("the sum of the iterates overflowed the float range; rescale X, e.g. X / np.abs(X).max().")
    return AveragedPerceptronResult(
        w=_frozen(w_sum / total),
        b=b_sum / total,
        w_sum=_frozen(w_sum),
        b_sum=b_sum,
        w_last=run.w,
        b_last=run.b,
        mistakes=run.mistakes,
        epochs=int(epochs),
        converged=run.converged,
        tie=run.tie,
    )


@dataclass(frozen=True)
class VotedPerceptronResult:
    """The outcome of :func:`voted_perceptron`.

    Attributes
    ----------
    weights, offsets : the iterates ``w_k, b_k`` the run held; row 0 is the start ``w = 0``.
    counts : survival count ``c_k`` of each iterate: the rounds after which it was the current
        one. They add up to ``n·T``.
    mistakes : updates made in the ``T`` epochs (one fewer than the number of iterates).
    epochs : ``T``.
    converged : whether an epoch made no mistake.
    tie : the tie rule, used both for each iterate's vote and for a tied vote.
    """

    weights: NDArray[np.float64]
    offsets: NDArray[np.float64]
    counts: NDArray[np.int64]
    mistakes: int
    epochs: int
    converged: bool
    tie: Tie = "mistake"

    def votes(self, X: ArrayLike) -> NDArray[np.int64]:
        """The weighted vote ``Σ_k c_k · sign(w_k·x + b_k)`` for each row of ``X`` (an integer).

        Each iterate's sign is decided exactly; at ``w_k·x + b_k = 0`` it votes by the tie rule
        (0, an abstention, under ``tie="mistake"``).
        """
        X = check_X(X)
        _check_features(X, self.weights.shape[1], "the run was on")
        A = np.hstack([X, np.ones((X.shape[0], 1))])
        each = _labels(_exact_signs(A, np.hstack([self.weights, self.offsets[:, None]])), self.tie)
        return each @ self.counts

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """The sign of the weighted vote; a tied vote is decided by the tie rule."""
        return _labels(np.sign(self.votes(X)), self.tie)


def voted_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    epochs: int = 10,
    offset: bool = False,
    tie: Tie = "mistake",
) -> VotedPerceptronResult:
    """The voted perceptron (Freund and Schapire, 1999): every iterate votes.

    Run the cyclic perceptron for ``epochs`` epochs. The iterate ``w_k`` it holds after the
    k-th mistake (``w_0 = 0`` at the start) gets the weight ``c_k``, the number of rounds it
    survived, and a new point gets the label ``sign(Σ_k c_k sign(w_k·x + b_k))``. Unlike the
    averaged perceptron this is not one linear classifier: the vote of signs is not the sign of
    a sum of scores.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    epochs : the number T of sweeps, a positive int.
    offset : learn an offset ``b`` too.
    tie : as in :func:`perceptron_core.perceptron`; also decides a tied vote.

    Returns
    -------
    VotedPerceptronResult
    """
    run, W, B, counts, total = _iterates(X, y, epochs, offset, tie)
    return VotedPerceptronResult(
        weights=_frozen(W),
        offsets=_frozen(B),
        counts=_frozen(counts),
        mistakes=run.mistakes,
        epochs=int(epochs),
        converged=run.converged,
        tie=run.tie,
    )


# --------------------------------------------------------------------------------------------
# The kernel perceptron
# --------------------------------------------------------------------------------------------


def _check_degree(degree: object) -> int:
    if isinstance(degree, (bool, np.bool_)) or not isinstance(degree, (int, np.integer)) or degree < 1:
        raise ValueError(f"degree must be a positive integer, got {degree!r}; e.g. degree=2 for a quadratic kernel.")
    return int(degree)


def _kernel_function(
    kernel: Kernel, degree: int, gamma: float, coef0: float
) -> tuple[str, Callable[[NDArray, NDArray], NDArray]]:
    """The kernel as a name and a function of two row-matrices returning their Gram block."""
    if callable(kernel):
        name = getattr(kernel, "__name__", "callable")

        def custom(A: NDArray, B: NDArray) -> NDArray:
            try:
                K = np.asarray(kernel(A, B))
            except Exception as exc:  # the user's function failed: say which call
                raise ValueError(
                    f"the kernel {name!r} failed on arrays of shapes {A.shape} and {B.shape}: {exc!r}. "
                    "A kernel takes two 2-D arrays (rows are points) and returns their Gram matrix."
                ) from exc
            if K.shape != (A.shape[0], B.shape[0]):
                raise ValueError(
                    f"the kernel {name!r} returned shape {K.shape} for inputs with {A.shape[0]} and "
                    f"{B.shape[0]} rows; it must return the Gram matrix of shape "
                    f"({A.shape[0]}, {B.shape[0]})."
                )
            if K.dtype.kind not in "iuf":
                raise TypeError(f"the kernel {name!r} returned values of dtype {K.dtype}; it must return real numbers.")
            K = K.astype(float)
            if not np.all(np.isfinite(K)):
                raise ValueError(f"the kernel {name!r} returned NaN or inf; rescale X or fix the kernel.")
            return K

        return name, custom
    if not isinstance(kernel, str):
        raise TypeError(
            f"kernel must be one of {KERNELS} or a callable k(A, B) -> Gram matrix, got {kernel!r} "
            f"of type {type(kernel).__name__}."
        )
    if kernel not in KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}; choose one of {KERNELS}, or pass a callable k(A, B).")
    if kernel == "linear":
        return "linear", lambda A, B: A @ B.T
    if kernel in ("poly", "quadratic"):
        deg = 2 if kernel == "quadratic" else degree
        return f"poly(degree={deg}, coef0={coef0})", lambda A, B: (A @ B.T + coef0) ** deg

    def rbf(A: NDArray, B: NDArray) -> NDArray:
        sq = np.sum(A * A, axis=1)[:, None] + np.sum(B * B, axis=1)[None, :] - 2.0 * (A @ B.T)
        return np.exp(-gamma * np.maximum(sq, 0.0))

    return f"rbf(gamma={gamma})", rbf


@dataclass(frozen=True)
class KernelPerceptronResult:
    """The outcome of :func:`kernel_perceptron`.

    Attributes
    ----------
    alpha : ``αᵢ``, the number of mistakes made on training example i.
    X_train, y_train : the training data, which the dual form needs to predict.
    kernel : the kernel's name, e.g. ``"linear"`` or ``"poly(degree=2, coef0=1.0)"``.
    mistakes : total mistakes, ``Σ αᵢ``.
    epochs : sweeps made, including the final clean one when it converged.
    converged : True when the last sweep made no mistake: the training data are separated in
        the kernel's feature space.
    max_epochs : the cap the run was given.
    mistake_indices : the example of each mistake, in order.
    tie : the tie rule of the run; :meth:`predict` follows it.
    """

    alpha: NDArray[np.int64]
    X_train: NDArray[np.float64]
    y_train: NDArray[np.float64]
    kernel: str
    mistakes: int
    epochs: int
    converged: bool
    max_epochs: int
    mistake_indices: NDArray[np.int64]
    tie: Tie
    _function: Callable[[NDArray, NDArray], NDArray]

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Scores ``f(x) = Σⱼ αⱼ yⱼ K(xⱼ, x)``."""
        X = check_X(X)
        _check_features(X, self.X_train.shape[1], "the run was on")
        # K(x_j, x) with the training point first, as in the run (matters for a callable only).
        return self._function(self.X_train, X).T @ (self.alpha * self.y_train)

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """The sign of the score, with the run's tie rule at 0 (0 under ``tie="mistake"``)."""
        return _labels(np.sign(self.decision_function(X)), self.tie)


def kernel_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    kernel: Kernel = "linear",
    degree: int = 3,
    gamma: float = 1.0,
    coef0: float = 1.0,
    max_epochs: int = 1000,
    tie: Tie = "mistake",
) -> KernelPerceptronResult:
    """The perceptron in dual form: a mistake count per example, scores through a kernel.

    The primal perceptron's weights are always ``w = Σⱼ αⱼ yⱼ xⱼ``, with ``αⱼ`` the mistakes
    made on example j; so ``w·x = Σⱼ αⱼ yⱼ xⱼ·x`` needs only inner products. Replacing ``xⱼ·x``
    by a kernel ``K(xⱼ, x)`` runs the perceptron in the kernel's feature space without ever
    forming a feature vector. Sweep the data in order; on a mistake, ``y_i f(x_i) ≤ 0`` (ties
    by the tie rule), add one to ``α_i``. Stop after a clean sweep or ``max_epochs`` sweeps.

    With ``kernel="linear"`` this is :func:`perceptron_core.perceptron` without an offset: the
    same mistakes on the same examples, exactly so whenever the products are exact (integer
    data of moderate size); otherwise the two round differently and could disagree only on a
    score within rounding error of 0.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    kernel : ``"linear"`` (``x·z``), ``"poly"`` (``(x·z + coef0)^degree``), ``"quadratic"``
        (``"poly"`` with degree 2), ``"rbf"`` (``exp(−gamma‖x − z‖²)``), or a callable
        ``k(A, B)`` returning the Gram matrix of the rows of A against the rows of B.
    degree : the degree of ``"poly"``, a positive integer.
    gamma : the width parameter of ``"rbf"`` (> 0).
    coef0 : the constant of ``"poly"`` and ``"quadratic"``; with ``coef0 > 0`` the feature space
        contains the constant and the linear features, so an offset is built in.
    max_epochs : cap on the number of sweeps, a positive int.
    tie : as in :func:`perceptron_core.perceptron`.

    Returns
    -------
    KernelPerceptronResult

    Examples
    --------
    >>> import perceptron_core as pc
    >>> X, y = pc.xor()
    >>> kp = kernel_perceptron(X, y, kernel="quadratic")
    >>> kp.converged, kp.predict(X).tolist() == y.tolist()
    (True, True)
    """
    X, y = check_X_y(X, y)
    degree = _check_degree(degree)
    try:
        gamma = check_positive(gamma, "gamma")
    except ValueError:
        raise ValueError(
            f"gamma (the width of the rbf kernel exp(-gamma·‖x − z‖²)) must be finite and > 0, "
            f"got {gamma!r}; e.g. gamma=1.0 on standardized data."
        ) from None
    coef0 = check_real(coef0, "coef0")
    max_epochs = check_max_epochs(max_epochs)
    tie = _check_tie(tie)
    name, function = _kernel_function(kernel, degree, gamma, coef0)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported just below
        G = function(X, X)
    if not np.all(np.isfinite(G)):
        raise ValueError(
            f"the Gram matrix of the {name} kernel overflowed (inf or NaN); rescale X, e.g. "
            "X / np.abs(X).max(), or lower the degree."
        )
    n = X.shape[0]
    # Scores of every training point, updated by one column of G per mistake: f(x_i) = s_i.
    scores = np.zeros(n)
    alpha = np.zeros(n, dtype=np.int64)
    order: list[int] = []
    epoch, converged = 0, False
    negative_side = tie == "positive"  # at 0: "positive" errs on negatives, "negative" on positives
    while epoch < max_epochs and not converged:
        epoch += 1
        converged = True
        for i in range(n):
            margin = y[i] * scores[i]
            if margin < 0 or (margin == 0 and (tie == "mistake" or (y[i] < 0) == negative_side)):
                scores += y[i] * G[i]
                alpha[i] += 1
                order.append(i)
                converged = False
        if not np.all(np.isfinite(scores)):
            raise ValueError("the kernel perceptron's scores overflowed the float range; rescale X.")
    if not converged:
        warnings.warn(
            f"kernel_perceptron stopped at max_epochs={max_epochs} with mistakes in the last epoch; "
            f"the data may not be separable in the feature space of the {name} kernel, or raise "
            "max_epochs.",
            ConvergenceWarning,
            stacklevel=2,
        )
    Xf = X.copy()
    yf = y.copy()
    return KernelPerceptronResult(
        alpha=_frozen(alpha),
        X_train=_frozen(Xf),
        y_train=_frozen(yf),
        kernel=name,
        mistakes=int(alpha.sum()),
        epochs=epoch,
        converged=converged,
        max_epochs=max_epochs,
        mistake_indices=_frozen(np.array(order, dtype=np.int64)),
        tie=tie,
        _function=function,
    )
