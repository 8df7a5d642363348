"""The perceptron in the three forms the course uses, and Balcan's Margin Perceptron.

* :func:`perceptron` sweeps a fixed data set in order until one whole epoch makes no mistake,
  or until ``max_epochs``. With ``offset=False`` it is the batch perceptron of *Understanding
  Machine Learning*; with ``offset=True`` it is the T-epoch algorithm with θ₀ of the MIT notes.
* :func:`online_perceptron` is the online model (CS229, Balcan): predict, see the label, update.
* :func:`margin_perceptron` also updates on points it classifies correctly by too little.
* :func:`find_cycle` and :func:`closest_call` read a recorded run: where its state first
  repeats, and how near to a tie its closest test came.

The scikit-learn classifier is :class:`perceptron_core.estimator.Perceptron`, a thin layer over
:func:`perceptron`.

Labels are ±1. A mistake is ``y (w·x + b) ≤ 0``: a tie counts as a mistake (``tie="mistake"``,
as in UML, the MIT notes and scikit-learn). CS229 instead predicts +1 when ``w·x + b = 0``
(``tie="positive"``), so there a tie is a mistake only on a negative example; Balcan predicts
positive only when ``w·x > 0`` (``tie="negative"``), so a tie is a mistake only on a positive
example. The mistake bound holds for all three, since each updates only when ``y (w·x + b) ≤ 0``.

Every sign is decided exactly, by the package's one sign decision (:mod:`perceptron_core._signs`):
a score is trusted when it is farther from 0 than its rounding error can reach, and decided in
rational arithmetic otherwise. So a run is the same on every
machine, whatever order BLAS sums in, and ``predict`` (which follows the run's tie rule)
returns the training labels after a converged run. The margin perceptron's test
``y w·x < τγ‖w‖`` is decided exactly in the same way, so a run reported converged has every
normalized margin at least τγ in exact arithmetic.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _compiled, _signs
from ._validation import (
    check_flag,
    check_max_epochs,
    check_positive,
    check_vector,
    check_X,
    check_X_y,
    check_y,
    row_norms,
    unit_scale_rows,
    unit_vector,
)

__all__ = [
    "Tie",
    "ConvergenceWarning",
    "History",
    "PerceptronResult",
    "perceptron",
    "OnlineStep",
    "online_perceptron",
    "MarginPerceptronResult",
    "margin_perceptron",
    "labels_from_signs",
    "find_cycle",
    "closest_call",
]

Tie = Literal["mistake", "positive", "negative"]
_TIES = ("mistake", "positive", "negative")
# The label each rule predicts where w·x + b = 0 (0: no answer, which is always a mistake).
_AT_TIE = {"mistake": 0, "positive": 1, "negative": -1}


class ConvergenceWarning(UserWarning):
    """The run stopped at ``max_epochs`` while an epoch still made a mistake."""


def _frozen(a: NDArray) -> NDArray:
    a.flags.writeable = False
    return a


def _check_tie(tie: str) -> Tie:
    if not isinstance(tie, str) or tie not in _TIES:
        raise ValueError(
            "tie must be 'mistake' (y(w·x+b) <= 0 is a mistake), 'positive' (predict +1 at 0, CS229) "
            f"or 'negative' (predict -1 at 0, Balcan), got {tie!r}."
        )
    return tie  # type: ignore[return-value]


def labels_from_signs(signs: NDArray, tie: Tie) -> NDArray[np.int64]:
    """Labels from the exact signs of ``w·x + b``: the sign itself off the boundary, and on it
    (sign 0) the label the tie rule predicts: +1, -1, or 0 (no answer) under ``"mistake"``."""
    return np.where(signs > 0, 1, np.where(signs < 0, -1, _AT_TIE[tie])).astype(np.int64)


def _overflow_error(what: str) -> ValueError:
    return ValueError(
        f"{what} overflowed the float range (inf or NaN): X is too large in magnitude. "
        "Rescale X, e.g. X / np.abs(X).max(); the perceptron without an offset makes the same "
        "run on rescaled data."
    )


def _run_to_the_end(
    loop: Callable[..., int], weights: NDArray, n: int, max_epochs: int, record: bool,
    decide: Callable[[int], int],
) -> tuple[int, bool, int, NDArray[np.int64], NDArray[np.int64]]:
    """Run a compiled loop of :mod:`perceptron_core._compiled` over ``n`` rows to its end.

    ``loop(cap, record, indices, epochs, state)`` sweeps the rows, updating ``weights`` in place,
    and returns when it finishes, when it needs an answer it cannot trust a float for (then
    ``decide(i)`` gives the exact one for row i), or when the history buffers are full (then
    they are doubled). Returns the number of epochs, whether the last was clean, the number of
    updates, and the row and the epoch of every update (empty unless ``record``: then memory
    does not grow with the length of the run).
    """
    state = np.array([0, n, 0, 0, _compiled.UNKNOWN], dtype=np.int64)  # the end of epoch 0
    capacity = 1024 if record else 0
    indices, epochs = np.empty(capacity, np.int64), np.empty(capacity, np.int64)
    # An epoch count beyond int64 is never reached, and the compiled loops count in int64.
    cap = min(max_epochs, int(np.iinfo(np.int64).max))
    while True:
        # Overflow is reported below; run as Python (no numba), a loop would also warn of it.
        with np.errstate(over="ignore", invalid="ignore"):
            status = loop(cap, record, indices, epochs, state)
        if status == _compiled.SIGN_NEEDED:
            if not np.all(np.isfinite(weights)):
                break  # overflow: reported below
            state[_compiled.SIGN] = decide(int(state[_compiled.ROW]))
        elif status == _compiled.RECORD_FULL:
            indices = np.concatenate([indices, np.empty_like(indices)])
            epochs = np.concatenate([epochs, np.empty_like(epochs)])
        else:
            break
    updates = int(state[_compiled.UPDATES])
    # Entries below the safe limit of check_X keep the weights finite for any feasible number of
    # updates (|θⱼ| <= updates · 1.3e154); this guards the promise.
    if not np.all(np.isfinite(weights)):
        raise _overflow_error(f"the weights after {updates} updates")
    return (int(state[_compiled.EPOCH]), bool(state[_compiled.CLEAN]), updates,
            indices[:updates].copy(), epochs[:updates].copy())


def _perceptron_run(
    X: NDArray, y: NDArray, offset: bool, tie: Tie, max_epochs: int, record: bool
) -> tuple[NDArray, int, bool, int, NDArray[np.int64], NDArray[np.int64]]:
    """Run the perceptron's loop (:func:`perceptron_core._compiled.perceptron_epochs`) to its
    end, deciding exactly, in rational arithmetic, every sign the loop cannot trust a float for.

    Returns θ = (w, b) (length d + 1; ``b = 0`` without an offset), then what
    :func:`_run_to_the_end` returns.
    """
    n, d = X.shape
    X = np.ascontiguousarray(X)  # the loop reads rows: a copy only if they are not contiguous
    theta = np.zeros(d + 1)
    # The largest coefficient of a margin (1 for the offset) scales its rounding error. Integer
    # data are scored exactly while the sums stay below 2⁵³; the first row settles that for
    # most float data without a pass over all of X.
    row_max = max(float(X.max()), -float(X.min()), 1.0 if offset else 0.0)
    integral = all(bool(np.all(B == np.round(B))) for B in (X[:1], X))
    # A margin sums d + 1 terms (the offset's always, 0 without one): its slack, as a function of
    # ‖θ‖₁, is that of the package's one sign decision.
    rel, tiny = _signs.slack_coefficients(d + 1, row_max)

    def loop(cap: int, record: bool, indices: NDArray, epochs: NDArray, state: NDArray) -> int:
        return _compiled.perceptron_epochs(X, y, theta, offset, _AT_TIE[tie], rel, tiny, row_max,
                                           integral, cap, record, indices, epochs, state)

    def sign(i: int) -> int:  # the sign of yᵢ (w·xᵢ + b), exactly
        return _signs.exact_sign(y[i] * np.r_[X[i], 1.0], theta)

    return (theta, *_run_to_the_end(loop, theta, n, max_epochs, record, sign))


def _running_sums(start: NDArray, steps: NDArray) -> NDArray:
    """``start`` followed by the running sums ``start + steps[0] + ... + steps[k]``.

    ``np.cumsum`` adds in the same order as the loop did, so the rows are bit for bit the
    weights the run held; nothing needs to be copied while it runs.
    """
    return np.cumsum(np.vstack([start, steps]), axis=0)


def _predict(X: ArrayLike, w: NDArray, b: float, tie: Tie, context: str) -> NDArray[np.int64]:
    X = check_X(X)
    if X.shape[1] != w.shape[0]:
        raise ValueError(
            f"X has {X.shape[1]} features, but {context} {w.shape[0]}; pass X with {w.shape[0]} columns."
        )
    # The same augmented product and exact signs as the run, so a training point the run left
    # alone is predicted exactly as the run saw it.
    A = np.hstack([X, np.ones((X.shape[0], 1))])
    theta = np.r_[w, b]
    return labels_from_signs(_signs.signs(A, theta), tie)


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
    tie : the tie rule of the run; :meth:`predict` follows it.
    offset : whether the run learned an offset (then it tested the points ``(x, 1)`` against
        ``θ = (w, b)``).
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
        """Predict labels with the run's tie rule, deciding the sign of ``w·x + b`` exactly.

        Off the boundary the label is the sign of ``w·x + b``. On it, ``tie="positive"`` gives
        +1, ``tie="negative"`` gives -1 and ``tie="mistake"`` gives 0: no answer, which counts
        as an error, as it did during the run. So after a converged run ``predict`` returns
        the training labels, whatever the tie rule.
        """
        return _predict(X, self.w, self.b, self.tie, "the run was on")

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
    record : keep the :class:`History` of every mistake. Without it nothing is kept per
        mistake, so memory does not grow with the length of the run.
    u : reference unit vector for the proof's ``θ_k·u``; length d, or d+1 with an offset (the
        last entry multiplies ``b``). Implies ``record=True``. Need not be normalized by you:
        it is divided by its norm.
    tie : ``"mistake"`` (default) counts ``y (w·x + b) = 0`` as a mistake; ``"positive"``
        predicts +1 there, as CS229 does; ``"negative"`` predicts -1 there, as Balcan does.

    Returns
    -------
    PerceptronResult

    Notes
    -----
    The loop runs compiled by numba where numba is installed (``pip install numba``, or the
    ``fast`` extra). The first call in a process imports numba and loads the compiled loop from
    numba's on-disk cache (most of a second; a second or two more the first time, to compile it).
    Without numba the same loop runs as Python, with the same result, slowly on large data.

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
    m = X.shape[1] + 1 if offset else X.shape[1]  # θ = (w, b) with an offset, w without
    if u is not None:
        u = check_vector(u, m, "u (length d, or d+1 with offset=True)")
        if not np.any(u):
            raise ValueError("u must be a non-zero vector (it is normalized to unit length).")
        u = unit_vector(u, "u")  # no underflow of ‖u‖² for a u near 1e-180
        record = True
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


def _perceptron(
    X: NDArray, y: NDArray, *, offset: bool, max_epochs: int, record: bool, u: NDArray | None, tie: Tie
) -> PerceptronResult:
    """:func:`perceptron` on arguments already validated (so that a caller that has checked
    ``X`` and ``y`` does not check them again), without the warning."""
    n, d = X.shape
    m = d + 1 if offset else d
    theta, epochs, converged, mistakes, indices, update_epochs = _perceptron_run(
        X, y, offset, tie, max_epochs, record
    )

    history = None
    if record:
        # The update yᵢ(xᵢ, 1) of each mistake, added in the run's order: θ after each mistake.
        steps = np.empty((mistakes, m))
        np.multiply(y[indices, None], X[indices], out=steps[:, :d])
        if offset:
            steps[:, d] = y[indices]
        thetas = _running_sums(np.zeros(m), steps)[1:]
        history = History(
            indices=_frozen(indices),
            epochs=_frozen(update_epochs),
            weights=_frozen(thetas[:, :d].copy()),
            offsets=_frozen(thetas[:, d].copy() if offset else np.zeros(mistakes)),
            progress=None if u is None else _frozen(thetas @ u),
            norms_sq=_frozen(np.einsum("ij,ij->i", thetas, thetas)),
        )
        if not (np.all(np.isfinite(history.norms_sq)) and (u is None or np.all(np.isfinite(history.progress)))):
            raise _overflow_error("the recorded squared norms ‖θ_k‖²")
    return PerceptronResult(
        w=_frozen(theta[:d].copy()),
        b=float(theta[d]) if offset else 0.0,
        mistakes=mistakes,
        epochs=epochs,
        converged=converged,
        max_epochs=max_epochs,
        history=history,
        tie=tie,
        offset=offset,
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
    # Checked here, not at the first round: a generator's body runs only when iterated.
    tie = _check_tie(tie)
    offset = check_flag(offset, "offset")
    if isinstance(stream, (str, bytes)) or not isinstance(stream, Iterable):
        raise TypeError(
            f"stream must be an iterable of (x, y) pairs, got {type(stream).__name__}; "
            "e.g. zip(X, y) for a fixed data set."
        )
    return _online_rounds(stream, offset, tie)


def _stream_x(x_raw: object, t: int) -> NDArray[np.float64]:
    """One example of the stream as a finite 1-D float vector (a number counts as one feature)."""
    name = f"x at round {t}"
    if isinstance(x_raw, (numbers.Real, np.number)) and not isinstance(x_raw, (bool, np.bool_)):
        return check_X([[x_raw]], name=name)[0]
    try:
        ndim = np.ndim(x_raw)
    except ValueError:  # ragged: check_X explains
        ndim = 1
    if ndim != 1:
        raise ValueError(
            f"round {t}: x must be one 1-D feature vector, got shape {np.shape(x_raw)}; "
            "pass the rows of X one at a time, e.g. zip(X, y)."
        )
    return check_X([x_raw], name=name)[0]


def _online_rounds(stream: Iterable, offset: bool, tie: Tie) -> Iterator[OnlineStep]:
    w: NDArray | None = None
    b = 0.0
    mistakes = 0
    for t, item in enumerate(stream, start=1):
        if isinstance(item, (str, bytes, dict)) or isinstance(item, np.ndarray) and item.dtype.kind != "O":
            pair = None  # an array row or a string unpacks into two, but it is not an (x, y) pair
        else:
            try:
                pair = tuple(item)
            except TypeError:
                pair = None
        if pair is None or len(pair) != 2:
            raise ValueError(
                f"round {t}: each item of the stream must be a pair (x, y), got {item!r}; "
                "build the stream as zip(X, y)."
            )
        x_raw, label_raw = pair
        x = _stream_x(x_raw, t)
        if isinstance(label_raw, (str, bytes)) or np.ndim(label_raw) != 0:
            raise ValueError(f"round {t}: the label must be a single +1 or -1, got {label_raw!r}.")
        label = int(check_y(np.atleast_1d(label_raw), name=f"the label at round {t}")[0])
        if w is None:
            w = np.zeros_like(x)
        elif x.shape != w.shape:
            raise ValueError(
                f"round {t}: x has {x.shape[0]} features but earlier examples had {w.shape[0]}; "
                "every example must have the same length."
            )
        # The exact sign of w·x + b, as in perceptron(), so the two forms make the same run.
        sign = int(_signs.signs(np.r_[x, 1.0][None, :], np.r_[w, b])[0])
        prediction = sign if sign != 0 else _AT_TIE[tie]
        mistake = prediction != label
        if mistake:
            w = w + label * x
            b = b + label if offset else b
            if not (np.all(np.isfinite(w)) and np.isfinite(b)):
                raise ValueError(
                    f"round {t}: the weights overflowed the float range (inf); the stream's x are too "
                    "large in magnitude. Rescale them, e.g. divide every x by a common bound on |x|."
                )
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
    converged : True when a whole sweep found every point at normalized margin ≥ τγ (decided
        exactly, not in floating point).
    gamma : the γ the run was given.
    max_epochs : the cap the run was given.
    update_indices : index of the example of each update, when ``record=True``.
    weights : ``w`` after each update, when ``record=True`` (row 0 is the initialization).
    target : the fraction τ of γ the run aimed for; a converged run has every normalized
        margin ``yᵢ w·xᵢ/‖w‖ ≥ τγ``.
    """

    w: NDArray[np.float64]
    updates: int
    epochs: int
    converged: bool
    gamma: float
    max_epochs: int
    update_indices: NDArray[np.int64] | None = None
    weights: NDArray[np.float64] | None = None
    target: float = 0.5


class _ShortOfAim:
    """The margin perceptron's test, decided exactly: which rows ``z = y x`` of ``Z`` have
    ``z·w < aim·‖w‖``, with ``aim = τγ`` the exact product of the two floats given.

    A float test is trusted where it is farther from its threshold than rounding can reach.
    The score ``z·w`` is off by at most ``2(d+2)·2⁻⁵³·Σ|zⱼwⱼ|`` plus ``2(d+2)·2⁻¹⁰⁷⁴`` for
    underflow (the bound of the package's exact signs, :func:`perceptron_core._signs.slack`), and
    ``Σ|zⱼwⱼ| ≤ max|zⱼ|·‖w‖₁ ≤ max|zⱼ|·√d·‖w‖``; the threshold ``fl(fl(τγ)·√fl(w·w))`` is off
    by at most a relative ``2(d+6)·2⁻⁵³`` plus ``2⁻¹⁰⁷⁴(‖w‖ + 2)`` for underflow. So that ``w·w``
    neither underflows nor overflows, a ``w`` with ``w·w`` outside [2⁻⁵⁸⁰, 2⁵⁸⁰] is tested as
    ``2ᵏw`` with its largest entry in [½, 1): a positive factor does not change the test, and
    scaling by 2ᵏ is exact but for bits that fall below 2⁻¹⁰⁷⁴ when scaling down, which the
    bound also covers. The compiled loop (:func:`perceptron_core._compiled.margin_epochs`) makes
    the same float test row by row and hands the rows it cannot trust, and every rescaled ``w``, to
    this class.

    The rows nearer their threshold are decided in rational arithmetic: as ``aim > 0`` and
    ``‖w‖ = √(w·w) > 0``, ``z·w < aim·‖w‖`` exactly when ``z·w ≤ 0`` or ``(z·w)² < aim²(w·w)``.
    With ``w = 0`` no point has a margin yet, so every row is short.
    """

    def __init__(self, Z: NDArray, target: float, gamma: float) -> None:
        self.Z = Z
        d = Z.shape[1]
        row_max = float(np.max(np.abs(Z)))
        root_d = float(np.sqrt(d))
        self.aim = target * gamma
        self.aim_sq = (Fraction(target) * Fraction(gamma)) ** 2
        # room = per_norm·‖w‖ + tiny: the score's error and the threshold's, with room to spare
        # (the last term: fl(τγ) may be subnormal, off by up to 2⁻¹⁰⁷⁵).
        self.per_norm = 2.0 * (d + 6) * _signs.UNIT_ROUNDOFF * (self.aim + row_max * root_d) + _signs.SUBNORMAL
        self.tiny = 2.0 * (d + root_d + 4) * _signs.SUBNORMAL
        # A w scaled down by 2ᵏ may lose bits below 2⁻¹⁰⁷⁴: each moves z·w by at most
        # max|zⱼ|·2⁻¹⁰⁷⁵ and aim·‖w‖ by at most aim·2⁻¹⁰⁷⁵.
        self.lost = (row_max * d + self.aim * root_d) * _signs.SUBNORMAL

    def exact(self, i: int, w: NDArray) -> bool:
        """``Z[i]·w < aim·‖w‖`` in rational arithmetic (``w ≠ 0``)."""
        s = _signs.exact_dot(self.Z[i], w)
        return s <= 0 or s * s < self.aim_sq * _signs.exact_dot(w, w)

    def __call__(self, start: int, stop: int, w: NDArray) -> NDArray[np.bool_]:
        """Flags of the rows ``start:stop``, exact up to the first flagged row, which is all
        the sweep reads (a row after it is flagged unless its float test surely clears it)."""
        wf, extra = w, 0.0
        norm_sq = float(w @ w)
        if not 2.0**-580 <= norm_sq <= 2.0**580:  # w = 0, or w·w near underflow or overflow
            top = float(np.max(np.abs(w)))
            if top == 0.0:
                return np.ones(stop - start, bool)
            if not top < np.inf:  # inf or NaN
                raise _overflow_error("the weights")
            shift = -int(np.frexp(top)[1])
            wf, extra = np.ldexp(w, shift), (self.lost if shift < 0 else 0.0)
            norm_sq = float(wf @ wf)
        norm = float(np.sqrt(norm_sq))
        threshold = self.aim * norm
        room = self.per_norm * norm + self.tiny + extra
        scores = self.Z[start:stop] @ wf
        flags = ~(scores > threshold + room)  # not surely clear of the threshold
        while True:
            k = int(np.argmax(flags))
            if not flags[k] or scores[k] < threshold - room:
                return flags  # no row, or row k surely short
            if self.exact(start + k, w):  # too near its threshold (or NaN): decide it exactly
                return flags
            flags[k] = False


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
    ``w ← w + y x`` on every *margin mistake*: a point with ``y (w·x)/‖w‖ < τγ`` (this includes
    every true mistake). Stop after a sweep with no update: then every point has normalized
    margin at least τγ. The test is decided exactly (in floats where their rounding cannot
    matter, in rational arithmetic otherwise; τγ is the exact product of the two floats given),
    so this holds also for a point within an ulp of the aim. Balcan's algorithm is τ = ½. If
    the data have margin γ with respect to some unit vector, the number of updates is at most
    ``2(R/γ)²/η² + 2(R/γ)/η`` with
    ``η = 1 − τ`` (:func:`~perceptron_core.margin_perceptron_bound`), which is Balcan's
    ``8(R/γ)² + 4R/γ`` at τ = ½.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    gamma : the margin the run aims for (> 0); at most the data's margin for the bound to apply.
    target : the fraction τ of γ to reach, strictly between 0 and 1 (default ½, Balcan's).
    max_epochs : cap on the number of sweeps.
    record : keep the index of every update and the weights after it.

    Returns
    -------
    MarginPerceptronResult
    """
    X, y = check_X_y(X, y)
    gamma = check_positive(gamma, "gamma")
    # Imported here so that this function's edit leaves the module's shared import block alone.
    from ._validation import check_probability

    # The run aims for normalized margin target·gamma; no bound holds at target >= 1.
    target = check_probability(target, "target")
    max_epochs = check_max_epochs(max_epochs)
    record = check_flag(record, "record")
    # The compiled loop reads rows: C order, whatever the layout of X (iris_pair's is Fortran).
    Z = np.ascontiguousarray(y[:, None] * X)
    w = Z[0].copy()
    # y w·x < τγ‖w‖ decided exactly (floats where they surely decide, fractions otherwise).
    short = _ShortOfAim(Z, target, gamma)

    def loop(cap: int, record: bool, indices: NDArray, epochs: NDArray, state: NDArray) -> int:
        return _compiled.margin_epochs(Z, w, short.aim, short.per_norm, short.tiny, cap, record,
                                       indices, epochs, state)

    def below_aim(i: int) -> int:  # -1 where zᵢ·w < τγ‖w‖, exactly; else 1
        with np.errstate(over="ignore"):  # a w·w that overflows is rescaled by _ShortOfAim
            return -1 if short(i, i + 1, w)[0] else 1

    epochs, converged, updates, indices, _ = _run_to_the_end(loop, w, len(Z), max_epochs, record, below_aim)
    if not converged:
        warnings.warn(
            f"margin_perceptron stopped at max_epochs={max_epochs} with margin mistakes in the last epoch; "
            "gamma may exceed the data's margin, or raise max_epochs.",
            ConvergenceWarning,
            stacklevel=2,
        )
    return MarginPerceptronResult(
        w=_frozen(w),
        updates=updates,
        epochs=epochs,
        converged=converged,
        gamma=gamma,
        max_epochs=max_epochs,
        update_indices=_frozen(np.array(indices, dtype=np.int64)) if record else None,
        weights=_frozen(_running_sums(Z[0], Z[indices])) if record else None,
        target=target,
    )


# --------------------------------------------------------------------------------------------
# Reading a recorded run
# --------------------------------------------------------------------------------------------


def _recorded(run: object, who: str) -> History:
    if not isinstance(run, PerceptronResult):
        raise TypeError(
            f"{who} needs the result of perceptron(..., record=True), got {type(run).__name__}."
        )
    if run.history is None:
        raise ValueError(f"{who} needs the run's history; run perceptron(..., record=True).")
    return run.history


def find_cycle(run: PerceptronResult, n: int) -> tuple[int, int] | None:
    """The first repeat of a run's state, found exactly: ``(start, period)`` in mistakes, or None.

    The state after mistake k is the weights ``θ_k = (w_k, b_k)`` together with the position of
    the next example in the sweep. The cyclic perceptron is deterministic, so once a state
    repeats, everything after it repeats with the same period: on data that no hyperplane
    separates, the run cycles for ever. The start (k = 0) is ``θ = 0`` at position 0. Weights are
    compared bit for bit (0.0 and -0.0 as equal); on integer data they are exact integers.

    Parameters
    ----------
    run : a run made with ``record=True``.
    n : the number of examples it swept.

    Returns
    -------
    ``(start, period)``: the state after mistake ``start`` recurs after mistake
    ``start + period``; None when no state repeats within the run.
    """
    h = _recorded(run, "find_cycle")
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be the number of examples the run swept (a positive int), got {n!r}.")
    if h.indices.size and int(h.indices.max()) >= n:
        raise ValueError(
            f"the run updated on example {int(h.indices.max())}, so it swept more than n = {n} examples; "
            "pass n = len(y) of the data it ran on."
        )
    d = h.weights.shape[1]
    seen = {(np.zeros(d + 1).tobytes(), 0): 0}
    for k in range(run.mistakes):
        theta = np.r_[h.weights[k], h.offsets[k]] + 0.0  # + 0.0 turns -0.0 into 0.0
        key = (theta.tobytes(), (int(h.indices[k]) + 1) % n)
        if key in seen:
            return seen[key], k + 1 - seen[key]
        seen[key] = k + 1
    return None


def closest_call(X: ArrayLike, run: PerceptronResult) -> float:
    """How near to a tie the closest test of a recorded run came, relative to the sizes.

    At each test the run decides the sign of ``θ·x'`` (``θ = (w, b)`` and ``x' = (x, 1)`` with an
    offset, ``w`` and ``x`` without). This returns the smallest ``|θ·x'| / (‖θ‖ ‖x'‖)``, the sine
    of the angle between ``x'`` and the hyperplane ``θ·x' = 0``, over every test the run made with
    ``θ ≠ 0`` and ``x' ≠ 0`` (``inf`` if there was none).
    The run decided every sign exactly; a closest call far above the relative rounding of a dot
    product (about 1e-16 per term) says that floating point alone would have decided every test
    the same way, and that changes of the data of that relative size would not change the run.

    Parameters
    ----------
    X : the data the run was made on, shape (n, d).
    run : the result of ``perceptron(X, y, ..., record=True)``.

    Returns
    -------
    float
    """
    h = _recorded(run, "closest_call")
    X = check_X(X)
    d = run.w.shape[0]
    if X.shape[1] != d:
        raise ValueError(f"X has {X.shape[1]} features, but the run was on {d}; pass the X it ran on.")
    n = X.shape[0]
    if h.indices.size and int(h.indices.max()) >= n:
        raise ValueError(f"the run updated on example {int(h.indices.max())}, but X has {n} rows; "
                         "pass the X it ran on.")
    A = np.hstack([X, np.ones((n, 1))]) if run.offset else X
    thetas = np.vstack([np.zeros((1, A.shape[1])),
                        np.hstack([h.weights, h.offsets[:, None]]) if run.offset else h.weights])
    # Unit vectors (zero rows stay zero): the ratio is |θ̂·x̂|, which neither underflows nor
    # overflows where ‖θ‖‖x'‖ would (data near 1e-200).
    thetas, A = _unit_rows(thetas), _unit_rows(A)
    rounds = (h.epochs - 1) * n + h.indices  # the test (from 0) at which each mistake was made
    closest = np.inf
    tests = run.epochs * n
    chunk = max(n, 2**16 // A.shape[1])
    for first in range(0, tests, chunk):
        t = np.arange(first, min(first + chunk, tests))
        k = np.searchsorted(rounds, t, side="left")  # the mistakes made before test t
        rows = t % n
        tested = np.any(thetas[k], axis=1) & np.any(A[rows], axis=1)
        if tested.any():
            s = np.einsum("ij,ij->i", thetas[k[tested]], A[rows[tested]])
            closest = min(closest, float(np.min(np.abs(s))))
    return float(closest)


def _unit_rows(A: NDArray) -> NDArray[np.float64]:
    """Each non-zero row of ``A`` divided by its norm, without underflow; zero rows stay 0."""
    norms = row_norms(A)
    out = np.zeros_like(A, dtype=float)
    nonzero = norms > 0
    scaled = unit_scale_rows(A[nonzero])  # exact powers of two: the directions are unchanged
    out[nonzero] = scaled / np.linalg.norm(scaled, axis=1, keepdims=True)
    return out
