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
mistakes on each example and scores ``f(x) = Σⱼ αⱼ yⱼ K(xⱼ, x)``, deciding every sign exactly.
With the linear kernel this is the primal perceptron written differently, and it makes the
primal's decisions; a polynomial or Gaussian kernel lets it separate data (such as XOR) that no
hyperplane in the original space separates.

None of these is in the lecture notes the book follows; they are the standard ways out.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _signs
from ._validation import (
    check_flag,
    check_max_epochs,
    check_positive,
    check_real,
    check_X,
    check_X_y,
    unit_scale_rows,
)
from .algorithms import (
    _AT_TIE,
    ConvergenceWarning,
    PerceptronResult,
    Tie,
    _check_tie,
    _perceptron,
    labels_from_signs,
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
_UNIT_ROUNDOFF = _signs.UNIT_ROUNDOFF
_SUBNORMAL = _signs.SUBNORMAL
_EXACT_INTEGERS = _signs.EXACT_INTEGERS


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
    # X and y are checked once, here; the run does not warn when it stops at the cap, since
    # running all T epochs on data that cannot be separated is the point, not a problem.
    run = _perceptron(X, y, offset=offset, max_epochs=epochs, record=True, u=None, tie=tie)
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
        return labels_from_signs(_signs.signs(A, np.r_[w_sum, b_sum]), self.tie)


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
        each = labels_from_signs(_signs.signs(A, np.hstack([self.weights, self.offsets[:, None]])), self.tie)
        return each @ self.counts

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """The sign of the weighted vote; a tied vote is decided by the tie rule."""
        return labels_from_signs(np.sign(self.votes(X)), self.tie)


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
    w : with ``kernel="linear"``, the primal weights ``Σⱼ αⱼ yⱼ xⱼ`` added up in the order of
        the mistakes, as :func:`perceptron_core.perceptron` adds them (so bit for bit its
        weights); None for the other kernels.
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
        """Scores ``f(x) = Σⱼ αⱼ yⱼ K(xⱼ, x)``, in floating point."""
        X = check_X(X)
        _check_features(X, self.X_train.shape[1], "the run was on")
        # K(x_j, x) with the training point first, as in the run (matters for a callable only).
        with np.errstate(over="ignore", invalid="ignore"):
            scores = self._function(self.X_train, X).T @ (self.alpha * self.y_train)
        if not np.all(np.isfinite(scores)):  # e.g. (x·z)ᵖ of data near 1e100, which the run scales
            raise ValueError(
                f"the scores of the {self.kernel} kernel exceed the float range for these X; "
                "predict(X) still gives the labels, or rescale X and the training data together."
            )
        return scores

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """The exact sign of the score, with the run's tie rule at 0 (0 under ``tie="mistake"``).

        For ``kernel="linear"`` the sign of ``w·x`` with the run's primal weights :attr:`w`,
        so the prediction is that of :meth:`PerceptronResult.predict` after the same run; for
        the other kernels the sign of ``Σⱼ αⱼ yⱼ K(xⱼ, x)``, exact for the kernel values as
        computed in floating point.
        """
        X = check_X(X)
        _check_features(X, self.X_train.shape[1], "the run was on")
        if self.w is not None:
            return labels_from_signs(_signs.signs(X, self.w), self.tie)
        if getattr(self._function, "homogeneous", False):
            # (x·z)ᵖ: the training data scaled by the run's power of two, and each row of X by
            # its own, give every score a positive factor and kernel values that do not underflow.
            K = self._function(np.ldexp(self.X_train, _unit_shift(self.X_train)), unit_scale_rows(X))
        else:
            K = self._function(self.X_train, X)
        coef = (self.alpha * self.y_train).astype(float)  # integers below 2⁵³: exact
        return labels_from_signs(_signs.signs(K.T, coef), self.tie)


def _unit_shift(X: NDArray) -> int:
    """The k for which the largest ``|2ᵏXᵢⱼ|`` lies in [½, 1) (0 for X = 0)."""
    top = float(np.max(np.abs(X)))
    return -int(np.frexp(top)[1]) if top > 0 else 0


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

    Every decision is exact. A float score farther from 0 than its rounding error can reach is
    trusted; a nearer one is decided in rational arithmetic: for a named or callable kernel,
    the exact sign of ``Σⱼ αⱼ yⱼ K(xⱼ, xᵢ)`` for the kernel values as computed in floating
    point; for ``kernel="linear"``, the exact sign of ``w·xᵢ`` with the primal weights
    ``w = Σⱼ αⱼ yⱼ xⱼ`` added up in the order of the mistakes, as
    :func:`perceptron_core.perceptron` adds them. So with ``kernel="linear"`` this is
    :func:`perceptron_core.perceptron` without an offset, on any data: the same mistakes on the
    same examples, ties included, and :meth:`KernelPerceptronResult.predict` gives the same
    labels.

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
    # A homogeneous polynomial kernel (coef0 = 0) has the same run on 2ᵏX, with k bringing the
    # largest entry to [½, 1): then no Gram entry (x·z)ᵖ underflows (for data near 1e-180, or
    # 1e-60 with p = 3) or overflows. (The linear kernel needs no such care: its doubtful signs
    # are decided from X and w exactly.)
    homogeneous = isinstance(kernel, str) and kernel in ("poly", "quadratic") and coef0 == 0
    shift = _unit_shift(X) if homogeneous else 0
    function.homogeneous = homogeneous  # type: ignore[attr-defined]  # predict scales the same way
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported just below
        G = function(np.ldexp(X, shift), np.ldexp(X, shift)) if shift else function(X, X)
    if not np.all(np.isfinite(G)):
        raise ValueError(
            f"the Gram matrix of the {name} kernel overflowed (inf or NaN); rescale X, e.g. "
            "X / np.abs(X).max(), or lower the degree."
        )
    run = _KernelRun(X, y, G, name == "linear", _AT_TIE[tie])
    epoch, converged = 0, False
    while epoch < max_epochs and not converged:
        epoch += 1
        converged = True
        i = run.next_mistake(0)
        while i < run.n:
            run.update(i)
            converged = False
            i = run.next_mistake(i + 1)
    alpha = np.bincount(np.array(run.order, dtype=np.int64), minlength=run.n).astype(np.int64)
    order = run.order
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
        w=_frozen(run.w) if run.w is not None else None,
    )


class _KernelRun:
    """The state of a kernel perceptron run, with every decision exact.

    The score of training point k, ``f(x_k) = Σⱼ αⱼ yⱼ G[j, k]``, is kept in floating point and
    updated by one row of the Gram matrix G per mistake. Its rounding error is bounded with
    ``B[k]``, a running sum of the absolute values of what was added (or, for the linear
    kernel, of ``Σₗ |x_jl x_kl|``); a score farther from 0 than that bound has the sign of the
    exact one, and the few nearer are decided in rational arithmetic
    (:func:`perceptron_core._signs.exact_sign`):

    * for a kernel given by its values, the exact sign of ``Σⱼ αⱼ yⱼ G[j, k]`` with G's
      floats taken as exact. The float score adds m terms one at a time, so it is off by at most
      ``m·2⁻⁵³·B[k]`` (B[k] = ``Σⱼ αⱼ |G[j, k]|``);
    * for the linear kernel, the exact sign of ``w·x_k`` with ``w`` the primal weights added
      up in the order of the mistakes, as :func:`perceptron_core.perceptron` does: so both forms
      make the same decision on every point, ties included, on any data. The float score
      differs from ``w·x_k`` by the rounding of the score's sum, of each ``G[j, k] = x_j·x_k``
      (``d`` products) and of ``w`` (m terms): at most ``(2m + d)·2⁻⁵³·B[k]`` plus underflow,
      B[k] = ``Σⱼ αⱼ Σₗ |x_jl x_kl|``.

    The bounds are taken twice over, which also covers the rounding of B itself. With integer
    data (or integer kernel values) and B[k] below 2⁵³ every operation is exact and so is the
    float score.
    """

    def __init__(self, X: NDArray, y: NDArray, G: NDArray, linear: bool, at_tie: int) -> None:
        self.n, d = X.shape
        self.X, self.y, self.G, self.at_tie = X, y, G, at_tie
        self.linear = linear
        self.scores = np.zeros(self.n)
        if linear:
            # B = |X|·Σⱼ αⱼ|x_j|, the second factor kept up to date (no n×n matrix of bounds).
            self.abs_X, self.abs_w = np.abs(X), np.zeros(d)
            self.integral = bool(np.all(X == np.round(X)))
            self.w: NDArray | None = np.zeros(d)
            self.rate, self.per_update = 2.0 * (d + 2) * _UNIT_ROUNDOFF, 4.0 * _UNIT_ROUNDOFF
            self.tiny, self.tiny_per_update = 2.0 * (d + 2) * _SUBNORMAL, 2.0 * (d + 2) * _SUBNORMAL
        else:
            self.bound = np.zeros(self.n)  # B, kept up to date
            self.integral = bool(np.all(G == np.round(G)))
            self.w = None
            self.rate, self.per_update = 2.0 * _UNIT_ROUNDOFF, 2.0 * _UNIT_ROUNDOFF
            self.tiny, self.tiny_per_update = 0.0, 0.0  # sums of floats: no underflow error
        self.coef = np.zeros(self.n)  # αⱼ yⱼ, integers: exact while below 2⁵³
        self.order: list[int] = []

    def _exact(self, k: int) -> int:
        """The exact sign of the score of training point k."""
        if self.w is not None:
            return _signs.exact_sign(self.X[k], self.w)
        return _signs.exact_sign(self.coef, self.G[:, k])

    def next_mistake(self, start: int) -> int:
        """The first mistake at or after row ``start`` for the current scores (n if none)."""
        if start >= self.n:
            return self.n
        m = len(self.order)
        margins = self.y[start:] * self.scores[start:]  # y·f, exact products by ±1
        bound = self.abs_X[start:] @ self.abs_w if self.linear else self.bound[start:]
        slack = (self.rate + m * self.per_update) * bound + (self.tiny + m * self.tiny_per_update)
        if self.integral:
            slack[bound < _EXACT_INTEGERS] = 0.0  # integers below 2⁵³: the scores are exact
        doubt = ~(margins > slack)  # not surely right (NaN included)
        while True:
            k = int(np.argmax(doubt))
            if not doubt[k]:
                return self.n
            if margins[k] < -slack[k]:
                return start + k  # surely wrong
            if slack[k] == 0.0 and margins[k] == 0:
                sign = 0  # an exact score of 0: a tie
            else:  # too near 0 for its float to tell: decide it exactly
                sign = int(self.y[start + k]) * self._exact(start + k)
            if sign < 0 or (sign == 0 and self.at_tie != self.y[start + k]):
                return start + k
            doubt[k] = False

    def update(self, i: int) -> None:
        """A mistake on training point i: α_i += 1."""
        label = self.y[i]
        self.scores += label * self.G[i]
        self.coef[i] += label
        if self.w is None:
            self.bound += np.abs(self.G[i])
        else:
            self.abs_w += self.abs_X[i]
            self.w += label * self.X[i]
            if not np.all(np.isfinite(self.w)):
                raise ValueError("the kernel perceptron's weights overflowed the float range; rescale X.")
        self.order.append(i)
        if not np.isfinite(self.scores).all():
            raise ValueError("the kernel perceptron's scores overflowed the float range; rescale X.")
