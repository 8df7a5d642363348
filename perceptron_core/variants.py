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
make exactly the perceptron's mistakes.

:func:`kernel_perceptron` is the perceptron in its dual form: it keeps a count ``αᵢ`` of the
mistakes on each example and scores ``f(x) = Σⱼ αⱼ yⱼ K(xⱼ, x)``. With the linear kernel this
is the primal perceptron written differently, and it makes the primal's run bit for bit; a
polynomial or Gaussian kernel lets it separate data (such as XOR) that no hyperplane in the
original space separates.

Every score is summed in a fixed order (:func:`perceptron_core.algorithms.scores`), never by a
BLAS product, so that a run is the same on every machine.

None of these is in the lecture notes the book follows; they are the standard ways out.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import check_count, check_flag, check_max_epochs, check_positive, check_real, check_X, check_X_y
from .algorithms import (
    _AT_TIE,
    ConvergenceWarning,
    PerceptronResult,
    Tie,
    _check_tie,
    _frozen,
    _perceptron,
    labels,
    scores,
)

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


def _check_features(X: ArrayLike, d: int) -> NDArray[np.float64]:
    X = check_X(X)
    if X.shape[1] != d:
        raise ValueError(f"X has {X.shape[1]} features, but the run was on {d}; pass X with {d} columns.")
    return X


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
    epochs = check_count(epochs, "epochs", why=": the number of sweeps whose iterates are combined, e.g. epochs=10")
    # No warning at the cap: running all T epochs on inseparable data is the point here.
    run = _perceptron(X, y, offset=check_flag(offset, "offset"), max_epochs=epochs, record=True,
                      tie=_check_tie(tie))
    n, d = X.shape
    h = run.history
    W = np.vstack([np.zeros((1, d)), h.weights])
    B = np.r_[0.0, h.offsets]
    # Round (from 1) of mistake k; the iterate made there is held from that round on. A run
    # that converged early keeps its last iterate for the epochs it did not need to sweep.
    total = n * epochs
    starts = np.r_[1, (h.epochs - 1) * n + h.indices + 1]
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
    w_sum: NDArray[np.float64] = None  # type: ignore[assignment]  # always set by averaged_perceptron
    b_sum: float = 0.0

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Scores ``w·x + b`` of the averaged weights."""
        return scores(_check_features(X, self.w.shape[0]), self.w, self.b)

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Labels from the sign of ``w_sum·x + b_sum`` (the sign of the average's score), with
        the tie rule at 0."""
        return labels(scores(_check_features(X, self.w.shape[0]), self.w_sum, self.b_sum), self.tie)


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
    at once weighs little. The average settles even when the iterates never do. The sum adds
    ``c_k·w_k`` in the order of the iterates, so it is the same on every machine.

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
    with np.errstate(over="ignore", invalid="ignore"):
        sums = np.cumsum(counts[:, None] * np.c_[W, B], axis=0)[-1]  # in order, not by BLAS
    if not np.all(np.isfinite(sums)):
        raise ValueError("the sum of the iterates overflowed the float range; rescale X, e.g. X / np.abs(X).max().")
    w_sum, b_sum = sums[:-1], float(sums[-1])
    return AveragedPerceptronResult(_frozen(w_sum / total), b_sum / total, run.w, run.b, run.mistakes,
                                    int(epochs), run.converged, run.tie, _frozen(w_sum), b_sum)


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
        """The weighted vote ``Σ_k c_k · label(w_k·x + b_k)`` for each row of ``X`` (an integer);
        at ``w_k·x + b_k = 0`` an iterate votes by the tie rule (0 under ``tie="mistake"``)."""
        X = _check_features(X, self.weights.shape[1])
        each = labels(scores(X[:, None, :], self.weights, self.offsets), self.tie)
        return each @ self.counts  # integers: exact in any order

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """The sign of the weighted vote; a tied vote is decided by the tie rule."""
        return labels(self.votes(X), self.tie)


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
    return VotedPerceptronResult(_frozen(W), _frozen(B), _frozen(counts), run.mistakes, int(epochs),
                                 run.converged, run.tie)


# --------------------------------------------------------------------------------------------
# The kernel perceptron
# --------------------------------------------------------------------------------------------


def _kernel_function(kernel: Kernel, degree: int, gamma: float,
                     coef0: float) -> tuple[str, Callable[[NDArray, NDArray], NDArray]]:
    """The kernel as a name and a function of two row-matrices returning their Gram block.

    The named kernels sum their inner products in a fixed order (no BLAS) and raise to a power
    by repeated products, so a Gram matrix is the same on every machine (``np.exp`` of the rbf
    kernel may differ in its last bit between CPUs).
    """
    if callable(kernel):
        name = getattr(kernel, "__name__", "callable")

        def custom(A: NDArray, B: NDArray) -> NDArray:
            try:
                K = np.asarray(kernel(A, B))
            except Exception as exc:  # the user's function failed: say which call
                raise ValueError(f"the kernel {name!r} failed on arrays of shapes {A.shape} and {B.shape}: "
                                 f"{exc!r}. A kernel takes two 2-D arrays (rows are points) and returns "
                                 "their Gram matrix.") from exc
            if K.shape != (A.shape[0], B.shape[0]):
                raise ValueError(f"the kernel {name!r} returned shape {K.shape} for inputs with {A.shape[0]} "
                                 f"and {B.shape[0]} rows; it must return the Gram matrix of shape "
                                 f"({A.shape[0]}, {B.shape[0]}).")
            if K.dtype.kind not in "iuf":
                raise TypeError(f"the kernel {name!r} returned values of dtype {K.dtype}; it must return real numbers.")
            return K.astype(float)

        return name, custom
    if not isinstance(kernel, str):
        raise TypeError(f"kernel must be one of {KERNELS} or a callable k(A, B) -> Gram matrix, got "
                        f"{kernel!r} of type {type(kernel).__name__}.")
    if kernel not in KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}; choose one of {KERNELS}, or pass a callable k(A, B).")

    def dot(A: NDArray, B: NDArray) -> NDArray:
        return scores(A[:, None, :], B[None, :, :])

    if kernel == "linear":
        return "linear", dot
    if kernel in ("poly", "quadratic"):
        deg = 2 if kernel == "quadratic" else degree

        def poly(A: NDArray, B: NDArray) -> NDArray:
            base = dot(A, B) + coef0
            K = base
            for _ in range(deg - 1):
                K = K * base
            return K

        return f"poly(degree={deg}, coef0={coef0})", poly

    def rbf(A: NDArray, B: NDArray) -> NDArray:
        diff = A[:, None, :] - B[None, :, :]
        return np.exp(-gamma * scores(diff, diff))

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
    w : with ``kernel="linear"``, the primal weights ``Σⱼ αⱼ yⱼ xⱼ`` added up in the order of
        the mistakes, bit for bit those of :func:`perceptron_core.perceptron`; None otherwise.
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
    w: NDArray[np.float64] | None = None

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Scores ``f(x) = Σⱼ αⱼ yⱼ K(xⱼ, x)``, added in the order of the mistakes as the run
        added them (for the linear kernel, ``w·x`` with the primal weights, as the run)."""
        X = _check_features(X, self.X_train.shape[1])
        if self.w is not None:
            return scores(X, self.w)
        with np.errstate(over="ignore", invalid="ignore"):
            K = self._function(self.X_train, X)  # K(x_j, x), the training point first, as in the run
            s = np.zeros(X.shape[0])
            for i in self.mistake_indices:
                s = s + self.y_train[i] * K[i]
        if not np.all(np.isfinite(s)):
            raise ValueError(f"the scores of the {self.kernel} kernel exceed the float range for these X; "
                             "rescale X and the training data together.")
        return s

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Labels from :meth:`decision_function`, with the run's tie rule at 0 (0 under
        ``tie="mistake"``): on the training points, the run's own scores."""
        return labels(self.decision_function(X), self.tie)


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

    The scores of all training points are kept and updated by one row of the Gram matrix per
    mistake, in the order of the mistakes. With ``kernel="linear"`` the scores are instead those
    of the primal weights ``w``, added up as :func:`perceptron_core.perceptron` adds them: the
    two forms then make the same run, ties included, bit for bit (a sum of Gram entries would
    round differently from ``w·x``).

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
    degree = check_count(degree, "degree", why="; e.g. degree=2 for a quadratic kernel")
    try:
        gamma = check_positive(gamma, "gamma")
    except ValueError:
        raise ValueError(f"gamma (the width of the rbf kernel exp(-gamma·‖x − z‖²)) must be finite and > 0, "
                         f"got {gamma!r}; e.g. gamma=1.0 on standardized data.") from None
    coef0 = check_real(coef0, "coef0")
    max_epochs = check_max_epochs(max_epochs)
    tie = _check_tie(tie)
    name, function = _kernel_function(kernel, degree, gamma, coef0)
    n = len(y)
    linear = name == "linear"
    if linear:
        w = np.zeros(X.shape[1])
        s = np.zeros(n)
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            G = function(X, X)
        if not np.all(np.isfinite(G)):
            raise ValueError(f"the Gram matrix of the {name} kernel overflowed (inf or NaN); rescale X, "
                             "e.g. X / np.abs(X).max(), or lower the degree.")
        s = np.zeros(n)
    order: list[int] = []
    epoch, converged = 0, False
    while epoch < max_epochs and not converged:
        epoch, converged, i = epoch + 1, True, 0
        while True:
            wrong = np.flatnonzero(labels(s[i:], tie) != y[i:])  # the first mistake from row i on
            if not wrong.size:
                break
            i += int(wrong[0])
            order.append(i)
            converged = False
            if linear:
                w = w + y[i] * X[i]
                s = scores(X, w)
            else:
                s = s + y[i] * G[i]
            if not np.all(np.isfinite(s)):
                raise ValueError("the kernel perceptron's scores overflowed the float range; rescale X.")
            i += 1
    if not converged:
        warnings.warn(
            f"kernel_perceptron stopped at max_epochs={max_epochs} with mistakes in the last epoch; "
            f"the data may not be separable in the feature space of the {name} kernel, or raise "
            "max_epochs.",
            ConvergenceWarning,
            stacklevel=2,
        )
    indices = np.array(order, dtype=np.int64)
    alpha = np.bincount(indices, minlength=n).astype(np.int64)
    return KernelPerceptronResult(_frozen(alpha), _frozen(X.copy()), _frozen(y.copy()), name, int(alpha.sum()),
                                  epoch, converged, max_epochs, _frozen(indices), tie, function,
                                  _frozen(w) if linear else None)
