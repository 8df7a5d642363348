"""The perceptron in the three forms the course uses, and Balcan's Margin Perceptron.

* :func:`perceptron` sweeps a fixed data set in order until one whole epoch makes no mistake,
  or until ``max_epochs``. With ``offset=False`` it is the batch perceptron of *Understanding
  Machine Learning*; with ``offset=True`` it is the T-epoch algorithm with θ₀ of the MIT notes.
* :func:`online_perceptron` is the online model (CS229, Balcan): predict, see the label, update.
* :func:`margin_perceptron` also updates on points it classifies correctly by too little.
* :func:`find_cycle` and :func:`closest_call` read a recorded run: where its state first
  repeats, and how near to a tie its closest test came.

Labels are ±1. A mistake is ``y (w·x + b) ≤ 0``: a tie counts as a mistake (``tie="mistake"``,
as in UML, the MIT notes and scikit-learn). CS229 instead predicts +1 when ``w·x + b = 0``
(``tie="positive"``), so there a tie is a mistake only on a negative example; Balcan predicts
positive only when ``w·x > 0`` (``tie="negative"``), so a tie is a mistake only on a positive
example. The mistake bound holds for all three, since each updates only when ``y (w·x + b) ≤ 0``.

Runs are plain float64 and deterministic. Every score is summed in one fixed order,
``b + x₀w₀ + x₁w₁ + …`` left to right, a multiply then an add (:func:`scores`), in the compiled
loop, in ``predict`` and in the online form alike, and never by a BLAS product, whose order
of summation depends on the CPU. So a run is the same on every machine, the same as the
playground's JavaScript makes in the page, and ``predict`` after a converged run sees every
training point as the run saw it. Nothing here is certified: a claim that needs more than
floats (a tie on decimal data, a margin exactly at the aim) is settled by the exact functions of
:mod:`perceptron_core.geometry`. On integer data of moderate size every sum is exact anyway.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _compiled
from ._validation import (
    check_count,
    check_flag,
    check_max_epochs,
    check_positive,
    check_probability,
    check_vector,
    check_X,
    check_X_y,
    check_y,
    unit_vector,
)

__all__ = [
    "Tie",
    "ConvergenceWarning",
    "scores",
    "labels",
    "History",
    "PerceptronResult",
    "perceptron",
    "OnlineStep",
    "online_perceptron",
    "MarginPerceptronResult",
    "margin_perceptron",
    "find_cycle",
    "closest_call",
]

Tie = Literal["mistake", "positive", "negative"]
# The label each rule predicts where w·x + b = 0 (0: no answer, which is always a mistake).
_AT_TIE = {"mistake": 0, "positive": 1, "negative": -1}


class ConvergenceWarning(UserWarning):
    """The run stopped at ``max_epochs`` while an epoch still made a mistake."""


def _frozen(a: NDArray) -> NDArray:
    a.flags.writeable = False
    return a


def _check_tie(tie: str) -> Tie:
    if not isinstance(tie, str) or tie not in _AT_TIE:
        raise ValueError(
            "tie must be 'mistake' (y(w·x+b) <= 0 is a mistake), 'positive' (predict +1 at 0, CS229) "
            f"or 'negative' (predict -1 at 0, Balcan), got {tie!r}."
        )
    return tie  # type: ignore[return-value]


def scores(A: NDArray, w: NDArray, b: float | NDArray = 0.0) -> NDArray[np.float64]:
    """``b + A[..., 0]·w[..., 0] + A[..., 1]·w[..., 1] + …``, summed left to right.

    The score of every row, in the order the run contract fixes: vectorised over rows, in
    sequence over features, so each row gets the very bits the compiled loop (and the
    playground) computes for it. ``w`` broadcasts against ``A`` (one vector, or one per row).
    """
    s = np.asarray(b, dtype=float) + np.zeros(A.shape[:-1])
    for j in range(A.shape[-1]):
        s = s + A[..., j] * w[..., j]
    return s


def labels(s: NDArray, tie: Tie) -> NDArray[np.int64]:
    """Labels from scores: their sign off the boundary, and at 0 the label the tie rule
    predicts there: +1, -1, or 0 (no answer, a mistake whatever the label) under ``"mistake"``."""
    return np.where(s > 0, 1, np.where(s < 0, -1, _AT_TIE[tie])).astype(np.int64)


def _overflow_error(what: str) -> ValueError:
    return ValueError(
        f"{what} overflowed the float range (inf or NaN): X is too large in magnitude. "
        "Rescale X, e.g. X / np.abs(X).max(); the perceptron without an offset makes the same "
        "run on data rescaled by a power of two."
    )


def _run(loop: _compiled._Loop, args: tuple, state: NDArray, n: int, max_epochs: int,
         record: bool) -> tuple[int, bool, int, NDArray[np.int64]]:
    """Run a loop of :mod:`perceptron_core._compiled` on ``state`` (updated in place).

    With ``record`` the loop writes the round of every update into a buffer; when the buffer
    was too short the run is made again from the start with one of the right size: a run is
    deterministic, so the second is the first, recorded whole.
    """
    start = state.copy()
    rounds = np.empty(n * min(max_epochs, 64) if record else 0, np.int64)
    cap = min(max_epochs, np.iinfo(np.int64).max)
    with np.errstate(over="ignore", invalid="ignore"):  # reported below
        epochs, clean, updates = loop(*args, cap, rounds)
        if record and updates > len(rounds):
            state[:] = start
            rounds = np.empty(updates, np.int64)
            epochs, clean, updates = loop(*args, cap, rounds)
    if not np.all(np.isfinite(state)):
        raise _overflow_error(f"the weights after {updates} updates")
    return int(epochs), bool(clean), int(updates), rounds[:updates if record else 0]


@dataclass(frozen=True)
class History:
    """What happened at each mistake of a run; entry ``k-1`` describes mistake ``k``.

    Only the rounds are stored: the weights after each mistake follow from them, added up in
    the run's order (``np.cumsum`` adds in that order), so they are bit for bit those the run
    held. With an offset, θ = (w, b) is the augmented weight vector, as in the offset trick.

    Attributes
    ----------
    indices : index of the example on which mistake ``k`` was made.
    epochs : the epoch (from 1) in which mistake ``k`` was made.
    weights : ``w`` after mistake ``k``, shape (M, d) (computed).
    offsets : ``b`` after mistake ``k``, all zero without an offset (computed).
    progress : ``θ_k·u`` after mistake ``k`` when a reference unit vector ``u`` was given, else
        None. The convergence proof shows ``progress[k-1] ≥ kγ``.
    norms_sq : ``‖θ_k‖²`` after mistake ``k``. The proof shows ``norms_sq[k-1] ≤ kR²``.
    """

    indices: NDArray[np.int64]
    epochs: NDArray[np.int64]
    _X: NDArray = field(repr=False)
    _y: NDArray = field(repr=False)
    _augmented: bool = field(repr=False)
    _u: NDArray | None = field(default=None, repr=False)

    @cached_property
    def thetas(self) -> NDArray[np.float64]:
        """θ_k = (w_k, b_k) after each mistake, shape (M, d + 1)."""
        X, y, i = self._X, self._y, self.indices
        steps = np.hstack([y[i, None] * X[i], (y[i] if self._augmented else 0 * y[i])[:, None]])
        return _frozen(np.cumsum(np.vstack([np.zeros(X.shape[1] + 1), steps]), axis=0)[1:])

    @property
    def weights(self) -> NDArray[np.float64]:
        return self.thetas[:, :-1]

    @property
    def offsets(self) -> NDArray[np.float64]:
        return self.thetas[:, -1]

    @property
    def norms_sq(self) -> NDArray[np.float64]:
        return scores(self.thetas, self.thetas)

    @property
    def progress(self) -> NDArray[np.float64] | None:
        if self._u is None:
            return None
        return scores(self.thetas if self._augmented else self.weights, self._u)


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
    tie : the tie rule of the run; :meth:`predict` follows it.
    offset : whether the run learned an offset.
    """

    w: NDArray[np.float64]
    b: float
    mistakes: int
    epochs: int
    converged: bool
    max_epochs: int
    history: History | None = None
    tie: Tie = "mistake"
    offset: bool = False

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Labels from the score ``b + Σⱼ xⱼwⱼ``, summed as the run summed it, and the run's
        tie rule at 0 (0, no answer, under ``tie="mistake"``). So after a converged run
        ``predict`` returns the training labels, whatever the tie rule."""
        X = check_X(X)
        if X.shape[1] != self.w.shape[0]:
            raise ValueError(f"X has {X.shape[1]} features, but the run was on {self.w.shape[0]}; "
                             f"pass X with {self.w.shape[0]} columns.")
        return labels(scores(X, self.w, self.b), self.tie)

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
    max_epochs : cap on the number of sweeps (the MIT notes' T), a positive int. The run stops
        at the first sweep without a mistake, so a huge cap costs nothing on separable data.
    record : keep the :class:`History` of every mistake.
    u : reference unit vector for the proof's ``θ_k·u``; length d, or d+1 with an offset (the
        last entry multiplies ``b``). Implies ``record=True``; it is divided by its norm.
    tie : ``"mistake"`` (default) counts ``y (w·x + b) = 0`` as a mistake; ``"positive"``
        predicts +1 there, as CS229 does; ``"negative"`` predicts -1 there, as Balcan does.

    Returns
    -------
    PerceptronResult

    Notes
    -----
    The loop runs compiled by numba where numba is installed (the ``fast`` extra); the first
    call in a process loads it from numba's on-disk cache. Without numba the same loop runs as
    Python, with the same result, slowly on large data.

    Examples
    --------
    >>> res = perceptron([[1.0, 0.5], [-1.0, -0.2]], [1, -1])
    >>> res.converged, res.mistakes
    (True, 1)
    """
    X, y = check_X_y(X, y)
    max_epochs = check_max_epochs(max_epochs)
    tie = _check_tie(tie)
    offset, record = check_flag(offset, "offset"), check_flag(record, "record")
    if u is not None:
        u = check_vector(u, X.shape[1] + offset, "u (length d, or d+1 with offset=True)")
        u, record = unit_vector(u, "u"), True
    res = _perceptron(X, y, offset=offset, max_epochs=max_epochs, record=record, u=u, tie=tie)
    if not res.converged:
        warnings.warn(
            f"perceptron stopped at max_epochs={max_epochs} with mistakes in the last epoch; "
            "the data may not be linearly separable (check with perceptron_core.separability), "
            "or raise max_epochs.",
            ConvergenceWarning,
            stacklevel=2,
        )
    return res


def _perceptron(X: NDArray, y: NDArray, *, offset: bool, max_epochs: int, record: bool,
                u: NDArray | None = None, tie: Tie = "mistake") -> PerceptronResult:
    """:func:`perceptron` on arguments already validated, without the warning."""
    n, d = X.shape
    X = np.require(X, np.float64, "CW")  # one compiled version: C order, writable
    theta = np.zeros(d + 1)
    epochs, converged, mistakes, rounds = _run(
        _compiled.perceptron_epochs, (X, y, theta, offset, _AT_TIE[tie]), theta, n, max_epochs, record)
    history = None
    if record:
        # A frozen copy of X: the weights are derived from it later, and the caller's X may change.
        history = History(_frozen(rounds % n), _frozen(rounds // n + 1), _frozen(X.copy()), y, offset, u)
        if not np.all(np.isfinite(history.norms_sq)):
            raise _overflow_error("the recorded squared norms ‖θ_k‖²")
    return PerceptronResult(_frozen(theta[:d].copy()), float(theta[d]), mistakes, epochs, converged,
                            max_epochs, history, tie, offset)


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
    that never ends (take as many rounds as you like with ``itertools.islice``). Scores and
    updates are those of :func:`perceptron`, in the same order, so on ``zip(X, y)`` repeated
    it makes the same run.

    Parameters
    ----------
    stream : iterable of ``(x, y)``, ``x`` a 1-D vector (all of one length), ``y`` ±1.
    offset : learn an offset ``b`` too.
    tie : as in :func:`perceptron`.

    Yields
    ------
    OnlineStep
    """
    # Checked here, not at the first round: a generator's body runs only when iterated.
    tie = _check_tie(tie)
    offset = check_flag(offset, "offset")
    if isinstance(stream, (str, bytes)) or not isinstance(stream, Iterable):
        raise TypeError(
            f"stream must be an iterable of (x, y) pairs, got {type(stream).__name__}; "
            "e.g. zip(X, y) for a fixed data set."
        )
    return _online_rounds(stream, offset, tie)


def _online_rounds(stream: Iterable, offset: bool, tie: Tie) -> Iterator[OnlineStep]:
    w: NDArray | None = None
    b, mistakes = 0.0, 0
    for t, item in enumerate(stream, start=1):
        pair = None if isinstance(item, (str, bytes, dict, np.ndarray)) else item
        try:
            x_raw, label_raw = pair  # type: ignore[misc]
        except (TypeError, ValueError):
            raise ValueError(f"round {t}: each item of the stream must be a pair (x, y), got {item!r}; "
                             "build the stream as zip(X, y).") from None
        if isinstance(x_raw, (str, bytes)) or np.ndim(x_raw) > 1:
            raise ValueError(f"round {t}: x must be one 1-D feature vector (or a number), got {x_raw!r}; "
                             "pass the rows of X one at a time, e.g. zip(X, y).")
        x = check_X([np.atleast_1d(x_raw)], name=f"x at round {t}")[0]  # a number is one feature
        if isinstance(label_raw, (str, bytes)) or np.ndim(label_raw) != 0:
            raise ValueError(f"round {t}: the label must be a single +1 or -1, got {label_raw!r}.")
        label = int(check_y(np.atleast_1d(label_raw), name=f"the label at round {t}")[0])
        w = np.zeros_like(x) if w is None else w
        if x.shape != w.shape:
            raise ValueError(f"round {t}: x has {x.shape[0]} features but earlier examples had "
                             f"{w.shape[0]}; every example must have the same length.")
        prediction = int(labels(scores(x, w, b), tie))
        mistake = prediction != label
        if mistake:  # b first, then w, as in the compiled loop (the order does not matter here)
            b, w = (b + label if offset else b), w + label * x
            if not (np.all(np.isfinite(w)) and np.isfinite(b)):
                raise _overflow_error(f"round {t}: the weights")
            mistakes += 1
        yield OnlineStep(t, prediction, label, mistake, _frozen(w.copy()), float(b), mistakes)


@dataclass(frozen=True)
class MarginPerceptronResult:
    """The outcome of :func:`margin_perceptron`.

    Attributes
    ----------
    w : final weights (no offset; augment ``X`` with :func:`perceptron_core.augment` for one).
    updates : number of updates after the initialization ``w₁ = y₁x₁``: true mistakes and
        margin mistakes together. The theorem bounds this by ``8(R/γ)² + 4R/γ`` at the default
        target ½, and by :func:`~perceptron_core.margin_perceptron_bound` for any target.
    epochs : sweeps made, including the final clean one when it converged.
    converged : True when a whole sweep found, in floats, every point at normalized margin at
        least τγ.
    gamma : the γ the run was given.
    max_epochs : the cap the run was given.
    update_indices : index of the example of each update, when ``record=True``.
    target : the fraction τ of γ the run aimed for.
    weights : ``w`` after each update, when ``record=True`` (row 0 is the initialization;
        computed from the update indices, bit for bit the weights the run held).
    mistakes : how many of the updates were true mistakes (``y w·x ≤ 0`` before the update),
        when ``record=True``; the others were margin mistakes. :class:`PerceptronResult` has the
        same attribute, so code (the playground's ``pg.run().mistakes``) reads the count of
        mistakes whichever algorithm ran.
    """

    w: NDArray[np.float64]
    updates: int
    epochs: int
    converged: bool
    gamma: float
    max_epochs: int
    update_indices: NDArray[np.int64] | None = None
    target: float = 0.5
    _Z: NDArray | None = field(default=None, repr=False)

    @cached_property
    def weights(self) -> NDArray[np.float64] | None:
        if self.update_indices is None or self._Z is None:
            return None
        Z = self._Z
        return _frozen(np.cumsum(np.vstack([Z[0], Z[self.update_indices]]), axis=0))

    @cached_property
    def mistakes(self) -> int | None:
        W = self.weights
        if W is None:
            return None
        # Each update's score under the weights before it, summed as the run summed it.
        return int(np.count_nonzero(scores(self._Z[self.update_indices], W[:-1]) <= 0))


def margin_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    gamma: float,
    *,
    target: float = 0.5,
    max_epochs: int = 1000,
    record: bool = False,
) -> MarginPerceptronResult:
    """Balcan's Margin Perceptron(γ), cycled over a fixed data set, with any target τ ∈ (0, 1).

    Initialize ``w₁ = y₁x₁`` from the first example. Then sweep the data in order and update
    ``w ← w + y x`` on every *margin mistake*: a point with ``y w·x < τγ‖w‖`` (this includes
    every true mistake). Stop after a sweep with no update: then every point has normalized
    margin at least τγ, as floats compute it. Balcan's algorithm is τ = ½. If the data have
    margin γ with respect to some unit vector, the number of updates is at most
    ``2(R/γ)²/η² + 2(R/γ)/η`` with ``η = 1 − τ``
    (:func:`~perceptron_core.margin_perceptron_bound`), which is Balcan's ``8(R/γ)² + 4R/γ``
    at τ = ½.

    The test is the run contract's: ``s < aim·√nn`` with ``aim = τ·γ`` (one float product),
    ``s = Σⱼ zⱼwⱼ`` and ``nn = Σⱼ wⱼwⱼ`` each summed left to right, and every point is short of
    the aim while ``w = 0`` (``nn = 0``: no direction, no margin); the playground computes it
    the same way. A point within rounding of the aim is decided by those floats.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    gamma : the margin the run aims for (> 0); at most the data's margin for the bound to apply.
    target : the fraction τ of γ to reach, strictly between 0 and 1 (default ½, Balcan's).
    max_epochs : cap on the number of sweeps.
    record : keep the index of every update (and so the weights after it).

    Returns
    -------
    MarginPerceptronResult
    """
    X, y = check_X_y(X, y)
    gamma = check_positive(gamma, "gamma")
    target = check_probability(target, "target")  # no bound holds at target >= 1
    max_epochs = check_max_epochs(max_epochs)
    record = check_flag(record, "record")
    Z = np.ascontiguousarray(y[:, None] * X)  # exact: a product by ±1
    w = Z[0].copy()
    epochs, converged, updates, rounds = _run(
        _compiled.margin_epochs, (Z, w, target * gamma), w, len(Z), max_epochs, record)
    if not converged:
        warnings.warn(
            f"margin_perceptron stopped at max_epochs={max_epochs} with margin mistakes in the last epoch; "
            "gamma may exceed the data's margin, or raise max_epochs.",
            ConvergenceWarning,
            stacklevel=2,
        )
    indices = _frozen(rounds % len(Z)) if record else None
    return MarginPerceptronResult(_frozen(w), updates, epochs, converged, gamma, max_epochs, indices,
                                  target, Z)


# --------------------------------------------------------------------------------------------
# Reading a recorded run
# --------------------------------------------------------------------------------------------


def _recorded(run: object, who: str) -> History:
    if not isinstance(run, PerceptronResult):
        raise TypeError(f"{who} needs the result of perceptron(..., record=True), got {type(run).__name__}.")
    if run.history is None:
        raise ValueError(f"{who} needs the run's history; run perceptron(..., record=True).")
    return run.history


def find_cycle(run: PerceptronResult, n: int) -> tuple[int, int] | None:
    """The first repeat of a run's state: ``(start, period)`` in mistakes, or None.

    The state after mistake k is the weights ``θ_k = (w_k, b_k)`` together with the position of
    the next example in the sweep. A float run is deterministic, so once a state repeats, bit
    for bit, everything after it repeats with the same period: on data that no hyperplane
    separates, the run cycles for ever. The start (k = 0) is ``θ = 0`` at position 0. Weights
    are compared bit for bit (0.0 and -0.0 as equal); on integer data they are exact integers.

    Parameters
    ----------
    run : a run made with ``record=True``.
    n : the number of examples it swept.
    """
    h = _recorded(run, "find_cycle")
    n = check_count(n, "n", why=": the number of examples the run swept")
    if h.indices.size and int(h.indices.max()) >= n:
        raise ValueError(f"the run updated on example {int(h.indices.max())}, so it swept more than "
                         f"n = {n} examples; pass n = len(y) of the data it ran on.")
    seen = {(np.zeros(h.thetas.shape[1]).tobytes(), 0): 0}
    for k, (theta, i) in enumerate(zip(h.thetas + 0.0, h.indices)):  # + 0.0: -0.0 becomes 0.0
        key = (theta.tobytes(), (int(i) + 1) % n)
        if key in seen:
            return seen[key], k + 1 - seen[key]
        seen[key] = k + 1
    return None


def closest_call(X: ArrayLike, run: PerceptronResult) -> float:
    """How near to a tie the closest test of a recorded run came, relative to the sizes.

    At each test the run takes the sign of ``θ·x'`` (``θ = (w, b)`` and ``x' = (x, 1)`` with an
    offset, ``w`` and ``x`` without). This returns the smallest ``|θ·x'| / (‖θ‖ ‖x'‖)``, the sine
    of the angle between ``x'`` and the hyperplane ``θ·x' = 0``, over every test the run made with
    ``θ ≠ 0`` and ``x' ≠ 0`` (``inf`` if there was none). A float score is off by about
    ``d·10⁻¹⁶`` of ``‖θ‖‖x'‖``, and the weights' rounding errors add up over the updates (each
    at most about ``10⁻¹⁶`` of the weights' size): a closest call far above ``d·10⁻¹⁶`` times
    the number of mistakes says that exact arithmetic on the same numbers would have made the
    same run. It is a rough guide, not a certificate.

    Parameters
    ----------
    X : the data the run was made on, shape (n, d).
    run : the result of ``perceptron(X, y, ..., record=True)``.
    """
    h = _recorded(run, "closest_call")
    X = check_X(X)
    n, d = X.shape
    if d != run.w.shape[0] or (h.indices.size and int(h.indices.max()) >= n):
        raise ValueError(f"X has shape {X.shape}, but the run was on other data; pass the X it ran on.")
    A = np.hstack([X, np.ones((n, 1))]) if run.offset else X
    thetas = np.vstack([np.zeros((1, d + 1)), h.thetas])[:, :A.shape[1]]

    def unit(M: NDArray) -> NDArray:
        norms = np.linalg.norm(M, axis=1, keepdims=True)
        return np.divide(M, norms, out=np.zeros_like(M), where=norms > 0)

    thetas, A = unit(thetas), unit(A)
    rounds = (h.epochs - 1) * n + h.indices  # the test (from 0) at which each mistake was made
    closest, tests = np.inf, run.epochs * n
    chunk = max(n, 2**16 // A.shape[1])
    for first in range(0, tests, chunk):
        t = np.arange(first, min(first + chunk, tests))
        k, rows = np.searchsorted(rounds, t, side="left"), t % n  # mistakes made before test t
        tested = np.any(thetas[k], axis=1) & np.any(A[rows], axis=1)
        if tested.any():
            s = np.abs(np.einsum("ij,ij->i", thetas[k[tested]], A[rows[tested]]))
            closest = min(closest, float(s.min()))
    return float(closest)
