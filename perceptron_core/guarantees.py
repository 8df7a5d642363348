"""From mistakes to guarantees: the adversary that makes the mistake bound optimal, and two
routes from a mistake bound (or a consistent halfspace) to a PAC guarantee.

* **The adversary game.** Any deterministic online learner can be forced to err on each of
  ``R e₁, …, R e_k``: the adversary asks for the prediction and gives the other label. The
  labels are consistent with ``u = Σ yᵢ eᵢ/√k`` at margin ``R/√k``, so with ``k = ⌊(R/γ)²⌋`` the
  data have radius R and margin at least γ, and the learner made ``k`` mistakes.
  :func:`adversary_game` plays it against any object with ``predict(x)`` and ``update(x, y)``
  (:class:`OnlineLearner`); :class:`PerceptronLearner`, :class:`NearestNeighbourLearner` and
  :class:`HalvingLearner` are three such learners.
* **Online to PAC** (Balcan's conversion). Run the perceptron on fresh examples and output the
  first hypothesis that is right on a whole window of examples in a row.
  :class:`BandDistribution` is a planted distribution with margin γ whose true error is known in
  closed form, :func:`convert_stream` runs the conversion on one stream with the package's online
  perceptron, and :func:`simulate_conversion` repeats it many times at once.
* **The LP route.** A linear program finds a halfspace consistent with a sample
  (:func:`lp_consistent_halfspace`), and VC theory sizes the sample (:func:`vc_sample_size`).
"""

from __future__ import annotations

import itertools
from collections import deque
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import (
    check_count,
    check_X,
    check_X_y,
    check_positive,
    check_probability,
    check_vector,
    row_norms,
    unit_vector,
)
from .algorithms import PerceptronResult, Tie, _check_tie, labels, online_perceptron, scores
from .bounds import OnlineToPAC, max_rounds, online_to_pac
from .geometry import separability, separator_arc

__all__ = [
    "OnlineLearner",
    "PerceptronLearner",
    "NearestNeighbourLearner",
    "HalvingLearner",
    "sign_vectors",
    "AdversaryGame",
    "adversary_game",
    "angle",
    "BandDistribution",
    "ConversionRun",
    "convert_stream",
    "ConversionSimulation",
    "simulate_conversion",
    "failure_quantile",
    "worst_consistent_error",
    "vc_sample_size",
    "lp_consistent_halfspace",
    "LPRun",
    "lp_route",
]


# --------------------------------------------------------------------------------------------
# Online learners
# --------------------------------------------------------------------------------------------


@runtime_checkable
class OnlineLearner(Protocol):
    """The online model, one round at a time: predict a label for ``x``, then learn its label.

    ``predict`` returns +1, -1, or 0 for "no answer" (a mistake whatever the label). It must not
    change the learner: only ``update`` does. A learner is *deterministic* when its prediction
    is a function of the examples and labels it has been given.
    """

    def predict(self, x: NDArray[np.float64]) -> int: ...

    def update(self, x: NDArray[np.float64], y: int) -> None: ...


class PerceptronLearner:
    """The package's online perceptron (:func:`~perceptron_core.online_perceptron`) as an
    :class:`OnlineLearner`, with any of the three tie rules.

    ``predict`` asks the current hypothesis, with the run's tie rule
    (:meth:`PerceptronResult.predict`); ``update`` feeds the pair to the online perceptron, which
    makes its own prediction and updates on a mistake. The two predictions are compared, so the
    adapter cannot drift from the package's algorithm. (The online perceptron reads its stream
    one pair per round, so a queue that ``update`` fills drives it round by round.)

    Parameters
    ----------
    tie : ``"mistake"``, ``"positive"`` (CS229) or ``"negative"`` (Balcan).
    """

    def __init__(self, tie: Tie = "mistake") -> None:
        self.tie: Tie = _check_tie(tie)
        self._queue: deque[tuple] = deque()
        self._steps = online_perceptron(iter(self._queue.popleft, None), tie=self.tie)
        self.w: NDArray[np.float64] | None = None
        self.mistakes = 0

    @property
    def name(self) -> str:
        return f'perceptron, tie="{self.tie}"'

    def predict(self, x: ArrayLike) -> int:
        x = check_vector(x, np.size(x), "x")
        w = np.zeros_like(x) if self.w is None else self.w
        if w.shape != x.shape:
            raise ValueError(
                f"x has {x.shape[0]} features but the learner has seen {w.shape[0]}; "
                "pass examples of one length, or use a new learner."
            )
        run = PerceptronResult(w, 0.0, self.mistakes, 0, False, 1, tie=self.tie)
        return int(run.predict(x[None, :])[0])

    def update(self, x: ArrayLike, y: int) -> None:
        expected = self.predict(x)
        self._queue.append((np.asarray(x, dtype=float), y))
        step = next(self._steps)
        if step.prediction != expected:  # pragma: no cover - a bug guard, not an input error
            raise RuntimeError("the adapter's prediction differs from the online perceptron's")
        self.w = step.w
        self.mistakes = step.mistakes


class NearestNeighbourLearner:
    """Predict the label of the nearest example seen so far (the first one on a tie in distance);
    +1 before any example. A deterministic learner that is not linear at all."""

    name = "1-nearest neighbour"

    def __init__(self) -> None:
        self._X: list[NDArray[np.float64]] = []
        self._y: list[int] = []

    def predict(self, x: ArrayLike) -> int:
        x = check_vector(x, np.size(x), "x")
        if not self._X:
            return 1
        dist = row_norms(np.asarray(self._X) - x)  # no underflow of squares near 1e-180
        return self._y[int(np.argmin(dist))]  # argmin takes the first of equal distances

    def update(self, x: ArrayLike, y: int) -> None:
        self._X.append(check_vector(x, np.size(x), "x"))
        self._y.append(int(y))


def sign_vectors(d: int) -> NDArray[np.float64]:
    """All ``2^d`` unit vectors ``s/√d`` with ``s ∈ {−1, +1}^d``, one per row (``d ≤ 20``).

    On the adversary's points they contain the consistent ``u`` whatever the labels, so they are
    a finite class on which the halving algorithm makes at most ``log₂ 2^d = d`` mistakes.
    """
    d = check_count(d, "d")
    if d > 20:
        raise ValueError(f"d = {d} would give 2^{d} hypotheses; use d <= 20.")
    return np.array(list(itertools.product((-1.0, 1.0), repeat=d))) / math.sqrt(d)


class HalvingLearner:
    """The halving algorithm over a finite class of homogeneous halfspaces (rows of ``H``).

    Each hypothesis ``h`` predicts +1 when ``h·x > 0`` and -1 otherwise. The learner predicts the
    majority vote of the hypotheses consistent with every label so far (+1 on an even split) and
    then drops the ones that got the label wrong. When the target is in the class, every mistake
    at least halves the consistent set, so there are at most ``log₂ |H|`` mistakes.

    Parameters
    ----------
    H : array of shape (m, d), the class; e.g. :func:`sign_vectors`.
    """

    name = "halving over sign vectors"

    def __init__(self, H: ArrayLike) -> None:
        self.H = check_X(H, name="H")
        self._alive = np.ones(self.H.shape[0], dtype=bool)

    @property
    def consistent(self) -> int:
        """How many hypotheses are still consistent with every label given."""
        return int(self._alive.sum())

    def _votes(self, x: ArrayLike) -> NDArray[np.int64]:
        x = check_vector(x, self.H.shape[1], "x")
        # h·x summed in the run contract's order, as every score of the package.
        return np.where(scores(self.H, x) > 0, 1, -1)

    def predict(self, x: ArrayLike) -> int:
        votes = self._votes(x)[self._alive]
        return 1 if int(np.sum(votes > 0)) >= int(np.sum(votes < 0)) else -1

    def update(self, x: ArrayLike, y: int) -> None:
        self._alive &= self._votes(x) == y


# --------------------------------------------------------------------------------------------
# The adversary game
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AdversaryGame:
    """The record of :func:`adversary_game`.

    Attributes
    ----------
    X : the points ``R e₁, …, R e_k`` as rows, shape (k, d).
    y : the labels the adversary gave, each the opposite of the learner's prediction.
    predictions : what the learner predicted (0 means no answer).
    mistakes : rounds where the prediction was not the label; ``k`` by construction.
    u : the unit vector ``Σ yᵢ eᵢ/√k``, consistent with every label.
    margin : ``R/√k``, the margin of u on every point.
    R : the radius, ``‖xᵢ‖ = R``.
    """

    X: NDArray[np.float64]
    y: NDArray[np.float64]
    predictions: NDArray[np.int64]
    mistakes: int
    u: NDArray[np.float64]
    margin: float
    R: float

    @property
    def k(self) -> int:
        return int(self.X.shape[0])


def adversary_game(learner: OnlineLearner, k: int, *, d: int | None = None, R: float = 1.0) -> AdversaryGame:
    """Force ``k`` mistakes on an online learner with the points ``R e₁, …, R e_k``.

    In round i the adversary shows ``x = R eᵢ``, asks for the prediction p, and reveals the label
    ``y = −p`` (``+1`` when the learner gives no answer, p = 0, which is a mistake either way).
    Against a deterministic learner the adversary can compute p in advance, so the data are fixed
    before the game: a sequence of k points of radius R on which the learner errs every time.

    Parameters
    ----------
    learner : an :class:`OnlineLearner`, fresh (the game starts from its current state).
    k : number of rounds, ≥ 1.
    d : dimension, ≥ k (default k).
    R : the length of every point, > 0.

    Returns
    -------
    AdversaryGame
    """
    if not isinstance(learner, OnlineLearner):
        raise TypeError(
            f"learner must have predict(x) and update(x, y) methods, got {type(learner).__name__}; "
            "wrap it in a class with those two methods (see PerceptronLearner)."
        )
    k = check_count(k, "k")
    d = k if d is None else check_count(d, "d")
    if d < k:
        raise ValueError(f"the game needs d >= k orthogonal directions, got d = {d} < k = {k}; pass d >= {k}.")
    R = check_positive(R, "R")
    X = np.zeros((k, d))
    X[np.arange(k), np.arange(k)] = R
    y = np.empty(k)
    predictions = np.empty(k, dtype=np.int64)
    for i in range(k):
        p = learner.predict(X[i].copy())
        if p not in (-1, 0, 1) or isinstance(p, bool):
            raise ValueError(f"round {i + 1}: predict must return +1, -1 or 0 (no answer), got {p!r}.")
        predictions[i] = int(p)
        y[i] = -p if p != 0 else 1.0
        learner.update(X[i].copy(), int(y[i]))
    u = np.zeros(d)
    u[:k] = y / math.sqrt(k)
    X.setflags(write=False)
    return AdversaryGame(X, y, predictions, int(np.sum(predictions != y)), u, R / math.sqrt(k), R)


# --------------------------------------------------------------------------------------------
# A planted distribution with a margin and a closed-form error
# --------------------------------------------------------------------------------------------


def angle(w: ArrayLike, u: ArrayLike) -> float:
    """The angle between two non-zero vectors, in [0, π], accurate also near 0 and π."""
    # Unit vectors without underflow of ‖w‖² near 1e-180; a zero vector has no angle: refused there.
    a, b = unit_vector(w, "w"), unit_vector(u, "u")
    # 2·atan2(‖a − b‖, ‖a + b‖) keeps full precision where arccos(a·b) loses it.
    return float(2.0 * math.atan2(np.linalg.norm(a - b), np.linalg.norm(a + b)))


@dataclass(frozen=True)
class BandDistribution:
    """Points of the circle of radius R, uniform outside a band of half-width γ around the
    separator of ``u = (1, 0)``, labelled by u.

    Write α = arcsin(γ/R). Draw ``φ`` uniform in ``[−(π/2 − α), π/2 − α]`` and a label ±1 with
    equal chances, and put ``x = y R (cos φ, sin φ)``. Then ``‖x‖ = R`` and ``y u·x = R cos φ ≥ γ``:
    the margin of u is γ on the whole distribution. Rotating a hypothesis about the origin only
    slides its error region along the circle, and the error of any ``w ≠ 0`` is, exactly,

    ``err(w) = clip(θ − α, 0, π − 2α) / (π − 2α)``,  θ = angle(w, u).

    With γ = 0 this is the familiar ``θ/π`` of the rotation-invariant (uniform) distribution;
    the band of width γ is what gives the perceptron a margin.

    Parameters
    ----------
    gamma : the margin, ``0 < γ < R``.
    R : the radius (default 1).
    """

    gamma: float
    R: float = 1.0

    def __post_init__(self) -> None:
        R = check_positive(self.R, "R")
        g = check_positive(self.gamma, "gamma")
        if not g < R:
            raise ValueError(
                f"gamma must be below R (a band of half-width gamma inside radius R), got gamma={g}, R={R}; "
                "pass gamma < R."
            )
        object.__setattr__(self, "R", R)
        object.__setattr__(self, "gamma", g)

    @property
    def alpha(self) -> float:
        """α = arcsin(γ/R), the angular half-width of the empty band."""
        return math.asin(self.gamma / self.R)

    @property
    def u(self) -> NDArray[np.float64]:
        return np.array([1.0, 0.0])

    def sample_parts(self, shape: int | tuple[int, ...], rng: np.random.Generator) -> tuple[NDArray, NDArray]:
        """Angles φ and labels y of ``shape`` independent examples (``x = y R (cos φ, sin φ)``)."""
        half = math.pi / 2 - self.alpha
        phi = rng.uniform(-half, half, size=shape)
        y = np.where(rng.random(size=shape) < 0.5, -1.0, 1.0)
        return phi, y

    def points(self, phi: NDArray, y: NDArray) -> NDArray[np.float64]:
        return (y * self.R)[..., None] * np.stack([np.cos(phi), np.sin(phi)], axis=-1)

    def sample(self, n: int, *, seed: int | np.random.Generator = 0) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``n`` examples ``(X, y)`` drawn independently."""
        n = check_count(n, "n")
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        phi, y = self.sample_parts(n, rng)
        return self.points(phi, y), y

    def error(self, w: ArrayLike, tie: Tie = "mistake") -> float:
        """The exact probability that ``w`` predicts the wrong label on a fresh example.

        For ``w ≠ 0`` the formula in the class docstring (a score of exactly 0 has probability 0).
        For ``w = 0`` every score is a tie: the error is 1 under ``tie="mistake"`` (no answer) and
        ½ under the other rules, which predict one label for every point.
        """
        return float(self.errors(check_vector(w, 2, "w")[None, :], tie)[0])

    def errors(self, W: ArrayLike, tie: Tie = "mistake") -> NDArray[np.float64]:
        """:meth:`error` of each row of ``W`` (shape (m, 2)), computed for all rows at once."""
        tie = _check_tie(tie)
        W = check_X(W, name="W")
        if W.shape[1] != 2:
            raise ValueError(f"W must have 2 columns (hypotheses in the plane), got shape {W.shape}.")
        norms = row_norms(W)
        zero = norms == 0
        A = W[~zero] / norms[~zero, None]
        theta = 2.0 * np.arctan2(np.linalg.norm(A - self.u, axis=1), np.linalg.norm(A + self.u, axis=1))
        a = self.alpha
        out = np.full(W.shape[0], 1.0 if tie == "mistake" else 0.5)
        out[~zero] = np.clip(theta - a, 0.0, math.pi - 2 * a) / (math.pi - 2 * a)
        return out


# --------------------------------------------------------------------------------------------
# Balcan's conversion
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConversionRun:
    """One run of the conversion (:func:`convert_stream`).

    Attributes
    ----------
    w : the output hypothesis, or None when the examples ran out first.
    mistakes : the perceptron's mistakes, so ``mistakes + 1`` hypotheses were tested.
    examples : examples read.
    current : the hypothesis in use when the examples ran out (None when there was an output, or
        no example at all); with a sample of ``M`` windows this is ``h_{M+1}``.
    """

    w: NDArray[np.float64] | None
    mistakes: int
    examples: int
    current: NDArray[np.float64] | None = None

    @property
    def output(self) -> bool:
        return self.w is not None

    @property
    def hypotheses(self) -> int:
        return self.mistakes + 1


def convert_stream(stream: Iterable[tuple[ArrayLike, float]], window: int, *, tie: Tie = "mistake",
                   max_examples: int | None = None) -> ConversionRun:
    """Balcan's conversion on one stream: run the online perceptron and output the first
    hypothesis that is right on ``window`` examples in a row.

    The hypotheses are ``h₁ = 0`` and the weights after each mistake. A hypothesis is tested on
    the examples that follow it; a mistake rejects it (and the perceptron updates to the next),
    ``window`` correct predictions in a row accept it.

    Parameters
    ----------
    stream : iterable of ``(x, y)``, fresh examples in the order they are drawn.
    window : the number of correct predictions in a row that accepts a hypothesis, ≥ 1.
    tie : the perceptron's tie rule.
    max_examples : read at most this many examples (the sample size); default unlimited.

    Returns
    -------
    ConversionRun
    """
    window = check_count(window, "window")
    limit = None if max_examples is None else check_count(max_examples, "max_examples", 0)
    if limit is not None:
        stream = itertools.islice(stream, limit)
    run_length, current, mistakes, examples = 0, None, 0, 0
    for step in online_perceptron(stream, tie=tie):
        examples, current = step.t, step.w
        if step.mistake:
            mistakes, run_length = step.mistakes, 0
        else:
            run_length += 1
            if run_length == window:
                return ConversionRun(step.w, mistakes, examples)
    return ConversionRun(None, mistakes, examples, current)


@dataclass(frozen=True)
class ConversionSimulation:
    """Many independent runs of the conversion on a :class:`BandDistribution`.

    Attributes
    ----------
    plan : ``online_to_pac(R, γ, ε, δ)``: M + 1 hypotheses, the window, the sample size.
    window : the window used (``plan.window`` unless overridden).
    epsilon, delta : the targets.
    errors : the exact true error of each run's output (NaN when a run output nothing).
    mistakes, examples : per run.
    """

    plan: OnlineToPAC
    window: int
    epsilon: float
    delta: float
    errors: NDArray[np.float64]
    mistakes: NDArray[np.int64]
    examples: NDArray[np.int64]

    @property
    def repeats(self) -> int:
        return int(self.errors.size)

    @property
    def failures(self) -> int:
        """Runs whose output has true error above ε (or that output nothing)."""
        return int(np.sum(~(self.errors <= self.epsilon)))

    @property
    def failure_rate(self) -> float:
        return self.failures / self.repeats


def _wrong(W: NDArray, X: NDArray, y: NDArray, tie: Tie) -> NDArray[np.bool_]:
    """``wrong[r, j]``: the prediction of ``W[r]`` on ``X[r, j]`` is not ``y[r, j]``.

    The score ``W[r]·X[r, j]`` is summed as :func:`online_perceptron` sums it, so the
    simulation and :func:`convert_stream` make the same decisions; the tie rule gives the
    label at 0.
    """
    return labels(scores(X, W[:, None, :]), tie) != y


def simulate_conversion(dist: BandDistribution, epsilon: float, delta: float, *, repeats: int = 1000,
                        seed: int = 0, tie: Tie = "mistake", window: int | None = None,
                        streams: tuple[NDArray, NDArray] | None = None) -> ConversionSimulation:
    """Run the conversion ``repeats`` times on independent streams from ``dist``, all at once.

    Each run has a stream of ``(M+1)·window`` examples, drawn up front, which the proof shows
    is always enough (each of h₁ … h_M reads at most one window before its mistake). The runs are
    those of :func:`convert_stream` on the same streams: every score ``w·x`` is summed as the
    online perceptron sums it, so the two make the same decisions.

    Parameters
    ----------
    dist : the distribution.
    epsilon, delta : target error and failure probability, in (0, 1).
    repeats : number of independent runs.
    seed : seeds the streams.
    tie : the perceptron's tie rule.
    window : override the window (to show what too short a window does); default the plan's.
    streams : ``(X, y)`` of shapes (repeats, T, 2) and (repeats, T), to run on given streams
        instead of drawing them (then ``repeats`` and ``seed`` are ignored).

    Returns
    -------
    ConversionSimulation
    """
    if not isinstance(dist, BandDistribution):
        raise TypeError(
            f"dist must be a BandDistribution, got {type(dist).__name__}; pass e.g. BandDistribution(0.1, 1.0)."
        )
    epsilon = check_probability(epsilon, "epsilon")
    delta = check_probability(delta, "delta")
    tie = _check_tie(tie)
    plan = online_to_pac(dist.R, dist.gamma, epsilon, delta)
    k = plan.window if window is None else check_count(window, "window")
    if streams is None:
        # Fresh examples are drawn a window at a time. Those after a mistake in a window are
        # never looked at and are discarded, so each run sees an i.i.d. stream, as on paper; a
        # run reads at most (M+1) windows, so it is never cut short.
        repeats = check_count(repeats, "repeats")
        rng = np.random.default_rng(seed)
        total = plan.hypotheses * k
        X = y = None
    else:
        X, y = (np.asarray(a, dtype=float) for a in streams)
        repeats, total = y.shape
    W = np.zeros((repeats, 2))
    pos = np.zeros(repeats, dtype=np.int64)  # examples read so far
    mistakes = np.zeros(repeats, dtype=np.int64)
    examples = np.zeros(repeats, dtype=np.int64)
    active = np.ones(repeats, dtype=bool)
    output = np.zeros(repeats, dtype=bool)
    steps = np.arange(k)
    while active.any():
        rows = np.flatnonzero(active)
        idx = pos[rows, None] + steps
        valid = idx < total  # a window near the end of the stream reads only what is there
        if X is None:
            phi, yw = dist.sample_parts((rows.size, k), rng)
            Xw = dist.points(phi, yw)
        else:
            idx = np.minimum(idx, total - 1)
            Xw, yw = X[rows[:, None], idx], y[rows[:, None], idx]
        wrong = _wrong(W[rows], Xw, yw, tie) & valid
        has_err = wrong.any(axis=1)
        # Accepted: right on a whole window. Ran out: right on what was left, but not a window.
        accepted = rows[~has_err & valid.all(axis=1)]
        ran_out = rows[~has_err & ~valid.all(axis=1)]
        output[accepted], examples[accepted] = True, pos[accepted] + k
        examples[ran_out] = total
        active[accepted] = active[ran_out] = False
        # Rejected: the perceptron updates on the first mistake and tests the next hypothesis.
        err = rows[has_err]
        first = wrong[has_err].argmax(axis=1)
        at = np.flatnonzero(has_err)
        W[err] += yw[at, first][:, None] * Xw[at, first]
        mistakes[err] += 1
        pos[err] += first + 1
        empty = err[pos[err] >= total]
        examples[empty] = total
        active[empty] = False
    errors = np.full(repeats, np.nan)
    if output.any():
        errors[output] = dist.errors(W[output], tie)
    return ConversionSimulation(plan, k, epsilon, delta, errors, mistakes, examples)


def failure_quantile(repeats: int, delta: float, level: float = 1e-6) -> int:
    """How many of ``repeats`` independent runs may fail, each with probability at most δ, before
    that is evidence against δ: the ``1 − level`` quantile of the binomial distribution.

    A procedure whose runs fail independently with probability at most δ has more failures than
    this with probability below ``level``; the count of a simulation above it says that the
    failure probability exceeds δ (at the level ``level``), one at or below it says nothing
    against the guarantee.

    Parameters
    ----------
    repeats : the number of runs, ≥ 1.
    delta : the failure probability of one run, in (0, 1).
    level : the chance, in (0, 1), of a count above the quantile when the guarantee holds.

    Returns
    -------
    int
    """
    repeats = check_count(repeats, "repeats")
    delta = check_probability(delta, "delta")
    level = check_probability(level, "level")
    from scipy.stats import binom  # here: scipy takes a third of a second to import

    return int(binom.ppf(1.0 - level, repeats, delta))


# --------------------------------------------------------------------------------------------
# The LP route
# --------------------------------------------------------------------------------------------


def vc_sample_size(vc_dim: int, epsilon: float, delta: float) -> int:
    """Examples that suffice for any consistent learner, from UML's Theorem 28.3 (ε-nets):

    ``m ≥ (8/ε)·(2d·ln(16e/ε) + ln(2/δ))``, stated there for ε ∈ (0, 1) and δ ∈ (0, ¼), with
    natural logarithms as everywhere in UML. With probability at least 1 − δ the sample is an
    ε-net for the error regions, so every hypothesis of the class that is consistent with the
    sample has error at most ε. Homogeneous halfspaces in ℝᵈ have VC dimension d (UML §9.1.3).

    Returns
    -------
    int, the smallest such m.
    """
    d = check_count(vc_dim, "vc_dim")
    epsilon = check_probability(epsilon, "epsilon")
    delta = check_probability(delta, "delta")
    if not delta < 0.25:
        raise ValueError(
            f"UML's Theorem 28.3 is stated for delta < 1/4, got delta={delta}; pass a delta below 0.25 "
            "(a smaller delta only asks for more examples)."
        )
    return math.ceil(8.0 / epsilon * (2 * d * math.log(16 * math.e / epsilon) + math.log(2.0 / delta)))


def lp_consistent_halfspace(X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
    """A ``w`` with ``yᵢ w·xᵢ > 0`` for every example, found by linear programming and checked in
    exact arithmetic (:func:`~perceptron_core.separability`).

    Raises
    ------
    ValueError
        when the sample is not separable through the origin, or the check is undecided.
    """
    X, y = check_X_y(X, y)
    sep = separability(X, y)
    if sep.separable is not True or sep.w is None:
        why = "it is not separable through the origin" if sep.separable is False else sep.reason
        raise ValueError(
            f"no consistent homogeneous halfspace: {why}. Check the labels, or add a constant feature "
            "(augment(X)) for a halfspace with an offset."
        )
    if not sep.verify(X, y):  # pragma: no cover - separability already checked it exactly
        raise RuntimeError("the LP's halfspace failed the exact check")
    return np.array(sep.w, dtype=float)


def worst_consistent_error(dist: BandDistribution, X: ArrayLike, y: ArrayLike) -> float:
    """The largest true error of a halfspace consistent with a sample of ``dist``, a supremum.

    The homogeneous separators of the sample ``(X, y)`` are the directions of an open arc
    (:func:`perceptron_core.geometry.separator_arc`), and the error of ``dist`` grows with the
    angle from u: so the supremum over every consistent ``w`` is the error at the farther end of
    the arc. The ends themselves are not consistent, so no separator reaches it. This is what a
    consistent learner (the LP route) can be sure of on that sample, whatever it outputs.

    Parameters
    ----------
    dist : the :class:`BandDistribution` the sample was drawn from.
    X, y : the sample, in the plane, separable through the origin.
    """
    if not isinstance(dist, BandDistribution):
        raise TypeError(
            f"dist must be a BandDistribution, got {type(dist).__name__}; pass e.g. BandDistribution(0.1, 1.0)."
        )
    lo, hi = separator_arc(X, y)
    return max(dist.error(np.array([math.cos(t), math.sin(t)])) for t in (lo, hi))


@dataclass(frozen=True)
class LPRun:
    """One run of the LP route: ``samples`` examples, the consistent ``w``, its exact error, and
    the wall-clock ``seconds`` of the LP (a measurement on this machine)."""

    samples: int
    w: NDArray[np.float64]
    error: float
    seconds: float


def lp_route(dist: BandDistribution, epsilon: float, delta: float, *, seed: int = 0) -> LPRun:
    """Draw ``vc_sample_size(2, ε, δ)`` examples from ``dist``, find a consistent halfspace by LP,
    and return it with its exact true error."""
    if not isinstance(dist, BandDistribution):
        raise TypeError(
            f"dist must be a BandDistribution, got {type(dist).__name__}; pass e.g. BandDistribution(0.1, 1.0)."
        )
    m = vc_sample_size(2, epsilon, delta)
    X, y = dist.sample(m, seed=seed)
    start = time.perf_counter()
    w = lp_consistent_halfspace(X, y)
    seconds = time.perf_counter() - start
    return LPRun(m, w, dist.error(w), seconds)
