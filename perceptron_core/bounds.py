"""The mistake bounds of the course, in the forms the lecture notes state them.

The three forms of the Block–Novikoff bound are one statement in three notations:

* ``(R/γ)²`` with a unit vector u of margin γ (CS229, Balcan, MIT);
* ``(RB)²`` with ``B = min{‖w‖ : yᵢ w·xᵢ ≥ 1}`` (UML): the minimizer is ``u/γ*``, so ``B = 1/γ*``;
* ``U²‖w*‖²/ε²`` with an unnormalized ``w*`` of functional margin ε: ``w*/‖w*‖`` is a unit
  vector with margin ``ε/‖w*‖``, so this is ``(U/(ε/‖w*‖))²``.

With an offset (:func:`offset_bound`, :func:`best_c`, :func:`best_offset_bound`) the bound is
that of the points ``(x, c)``. For data that cannot be separated, Balcan's bound
``(R/γ)² + (2/γ)·TD_γ`` (:func:`hinge_loss_bound`) pays the deviations of the points from margin
γ (:func:`deviations`, :func:`total_hinge_deviation`); :func:`solved_hinge_bound` is the same
inequality solved exactly, :func:`freund_schapire_bound` Freund and Schapire's form with the
Euclidean norm of the deviations, and :func:`best_gamma` and :func:`best_bound` make the bound
as small as it gets, over γ for one direction and over every direction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import (
    check_count,
    _as_real_array,
    check_finite_result,
    check_nonnegative,
    check_positive,
    check_probability,
    check_real,
    check_vector,
    check_X_y,
    row_norms,
    scaled_margins,
    vector_norm,
)

__all__ = [
    "novikoff_bound",
    "uml_bound",
    "unnormalized_bound",
    "max_rounds",
    "OnlineToPAC",
    "online_to_pac",
    "offset_bound",
    "best_c",
    "best_offset_bound",
    "margin_perceptron_bound",
    "deviations",
    "total_hinge_deviation",
    "mistake_deviation",
    "square_deviation",
    "hinge_loss_bound",
    "solved_hinge_bound",
    "freund_schapire_bound",
    "bound_at",
    "BestGamma",
    "best_gamma",
    "BestBound",
    "best_bound",
]


_RESCALE = "R and gamma (or B) are too far apart for a float; rescale them, or work with log(R/gamma)."


def _square(ratio: float, what: str) -> float:
    """``ratio²``, or a ValueError where Python's ``**`` would raise OverflowError or give inf."""
    check_finite_result(ratio, what, _RESCALE)
    if ratio > math.sqrt(np.finfo(float).max):
        raise ValueError(f"{what} squared overflows the float range ({ratio:.3g}² > 1.8e308). {_RESCALE}")
    return ratio * ratio


def novikoff_bound(R: float, gamma: float) -> float:
    """Block–Novikoff: at most ``(R/γ)²`` mistakes when ‖xᵢ‖ ≤ R and some unit u has margin γ."""
    R = check_nonnegative(R, "R")
    gamma = check_positive(gamma, "gamma")
    return _square(R / gamma, "R/gamma")


def uml_bound(R: float, B: float) -> float:
    """UML Theorem 9.1: at most ``(RB)²`` iterations, with ``B = min{‖w‖ : yᵢ w·xᵢ ≥ 1}``."""
    R = check_nonnegative(R, "R")
    B = check_positive(B, "B")
    return _square(R * B, "R*B")


def unnormalized_bound(U: float, w_star: ArrayLike, epsilon: float) -> float:
    """The bound ``U²‖w*‖²/ε²`` for a separator ``w*`` (any length) with ``y w*·x ≥ ε``."""
    U = check_nonnegative(U, "U")
    epsilon = check_positive(epsilon, "epsilon")
    size = np.size(w_star) if not isinstance(w_star, (str, bytes)) else 1
    w = check_vector(w_star, size, "w_star")
    if not np.any(w):
        raise ValueError("w_star is the zero vector, which has no margin; pass a non-zero separator.")
    norm = vector_norm(w)  # no square of an entry overflows on the way
    return _square(U * norm / epsilon, "U*‖w_star‖/epsilon")


def _deviations(X: ArrayLike, y: ArrayLike, u: ArrayLike, gamma: float, name: str) -> NDArray[np.float64]:
    X, y = check_X_y(X, y)
    gamma = check_positive(gamma, "gamma")
    w = check_vector(u, X.shape[1], name)
    # The margins of u/‖u‖ without underflow of ‖u‖² (a u near 1e-180 is not zero).
    with np.errstate(over="ignore"):
        return np.maximum(0.0, gamma - scaled_margins(X, y, w, name=name))


def deviations(X: ArrayLike, y: ArrayLike, u: ArrayLike, gamma: float) -> NDArray[np.float64]:
    """How far each point must move to have margin γ under the unit vector ``u/‖u‖``.

    ``dᵢ = max(0, γ − yᵢ u·xᵢ/‖u‖)``: 0 for a point at margin γ or more, γ for a point on the
    hyperplane, more than γ for a point on the wrong side. Their sum is Balcan's ``TD_γ``
    (:func:`total_hinge_deviation`), their Euclidean norm Freund and Schapire's ``D``
    (:func:`square_deviation`).

    Parameters
    ----------
    X : array of shape (n, d); y : labels ±1 of shape (n,).
    u : the reference direction, any non-zero length.
    gamma : the margin the points should have, > 0.

    Returns
    -------
    array of shape (n,), ≥ 0.
    """
    return _deviations(X, y, u, gamma, "u")


def total_hinge_deviation(X: ArrayLike, y: ArrayLike, w_star: ArrayLike, gamma: float) -> float:
    """Balcan's TD_γ: how far, in total, the points must move to have margin γ under ``w*``.

    ``TD_γ = Σᵢ max(0, γ − yᵢ u·xᵢ)`` with ``u = w*/‖w*‖`` (the sum of :func:`deviations`). It
    is γ times the total hinge loss of ``u/γ``. Zero exactly when ``u`` separates the data with
    margin γ.
    """
    with np.errstate(over="ignore"):
        total = float(np.sum(_deviations(X, y, w_star, gamma, "w_star")))
    return check_finite_result(
        total, "TD_gamma", "gamma and X are so large that the sum of n deviations overflows; rescale both together."
    )


def mistake_deviation(X: ArrayLike, y: ArrayLike, u: ArrayLike, gamma: float, indices: ArrayLike) -> float:
    """The deviation the proof of Balcan's bound pays: one term per mistake.

    ``Σ_k max(0, γ − y_{i_k} u·x_{i_k}/‖u‖)`` over the mistakes k, made on the examples
    ``indices`` (``run.history.indices``). Each example is met at most once per pass, so over T
    passes this is at most ``T·TD_γ``; solved for M (:func:`solved_hinge_bound`) it gives the
    run's own bound.

    Parameters
    ----------
    X, y, u, gamma : as in :func:`deviations`.
    indices : the example of each mistake, integers in ``0 … n−1``.
    """
    dev = deviations(X, y, u, gamma)
    idx = np.asarray(indices)
    if idx.ndim != 1 or idx.size and (idx.dtype.kind not in "iu" or idx.min() < 0 or idx.max() >= dev.size):
        raise ValueError(f"indices must be a 1-D array of example indices in 0..{dev.size - 1} (one per row "
                         f"of X, e.g. run.history.indices), got {indices!r}.")
    total = float(np.sum(dev[idx.astype(np.int64)]))
    return check_finite_result(total, "the deviation paid", "rescale gamma and X together.")


def square_deviation(X: ArrayLike, y: ArrayLike, u: ArrayLike, gamma: float) -> float:
    """Freund and Schapire's ``D = √(Σᵢ dᵢ²)``, the Euclidean norm of the :func:`deviations`."""
    with np.errstate(over="ignore"):
        total = vector_norm(deviations(X, y, u, gamma))
    return check_finite_result(total, "D", "rescale gamma and X together.")


def hinge_loss_bound(R: float, gamma: float, td: float) -> float:
    """Mistakes on any sequence are at most ``(R/γ)² + (2/γ)·TD_γ`` (Balcan), separable or not."""
    td = check_nonnegative(td, "td")
    total = novikoff_bound(R, gamma) + 2.0 * td / check_positive(gamma, "gamma")
    return check_finite_result(total, "(R/gamma)² + (2/gamma)·td", "Rescale R, gamma and td together.")


def solved_hinge_bound(R: float, gamma: float, td: float) -> float:
    """The bound from solving ``R√M ≥ γM − TD`` for M: ``((R + √(R² + 4γ·TD))/(2γ))²``.

    Balcan's proof shows ``γM − TD ≤ w·u ≤ ‖w‖ ≤ R√M`` after M mistakes, with TD the deviation
    paid (over T passes at most ``T·TD_γ``). With ``s = √M ≥ 0`` the inequality is
    ``γs² − Rs − TD ≤ 0``, that is ``(s − R/(2γ))² ≤ (R² + 4γ·TD)/(4γ²)``, so
    ``|s − R/(2γ)| ≤ √(R² + 4γ·TD)/(2γ)``: the upper half of that gives the bound (the lower
    half says nothing, as ``R − √(R² + 4γ·TD) ≤ 0``). It is never larger than Balcan's
    ``(R/γ)² + (2/γ)·TD`` (:func:`hinge_loss_bound`) and equals it at ``TD = 0``.

    Parameters
    ----------
    R : radius (≥ 0); gamma : margin (> 0); td : the deviation paid (≥ 0).
    """
    R = check_nonnegative(R, "R")
    gamma = check_positive(gamma, "gamma")
    td = check_nonnegative(td, "td")
    with np.errstate(over="ignore"):
        root = (R + math.sqrt(R * R + 4.0 * gamma * td)) / (2.0 * gamma)
    return check_finite_result(root * root, "((R + sqrt(R² + 4·gamma·td))/(2·gamma))²",
                               "Rescale R, gamma and td together.")


def freund_schapire_bound(R: float, gamma: float, D: float) -> float:
    """Freund and Schapire's (1999, Theorem 2) mistake bound ``((R + D)/γ)²``.

    ``D = √(Σ dᵢ²)`` is the Euclidean norm of the deviations ``dᵢ = max(0, γ − yᵢ u·xᵢ)`` of the
    sequence (:func:`square_deviation`), whose sum is Balcan's ``TD_γ``. Over T passes of a data
    set the sequence repeats each deviation T times, so its ``D`` is ``√T`` times the data
    set's. Neither this nor :func:`hinge_loss_bound` is always the smaller: many small
    deviations favour this one, a few large ones Balcan's.

    Parameters
    ----------
    R : radius (≥ 0); gamma : margin (> 0); D : norm of the deviations (≥ 0).
    """
    R = check_nonnegative(R, "R")
    gamma = check_positive(gamma, "gamma")
    D = check_nonnegative(D, "D")
    return _square((R + D) / gamma, "(R + D)/gamma")


def _check_passes(passes: object) -> int:
    return check_count(passes, "passes", why=": the number T of passes over the data the bound covers "
                       "(TD_gamma is paid once per pass)")


def bound_at(margins: ArrayLike, R: float, gamma: float, passes: int = 1) -> float:
    """Balcan's T-pass bound ``(R/γ)² + (2T/γ)·TD_γ`` from the unit margins ``mᵢ = yᵢ u·xᵢ``.

    ``TD_γ = Σᵢ max(0, γ − mᵢ)``. For curves of the bound against γ, where the margins of one
    ``u`` are computed once.

    Parameters
    ----------
    margins : 1-D array of the unit margins of the points (any signs).
    R : radius (≥ 0); gamma : margin (> 0); passes : T, a positive int.
    """
    m = _as_real_array(margins, "margins", "a 1-D array of margins")
    if m.ndim != 1 or not np.all(np.isfinite(m)):
        raise ValueError(f"margins must be a finite 1-D array (y * (X @ u) for a unit u), got shape {m.shape}.")
    gamma = check_positive(gamma, "gamma")
    td = float(np.sum(np.maximum(0.0, gamma - m)))
    return hinge_loss_bound(R, gamma, _check_passes(passes) * td)


@dataclass(frozen=True)
class BestGamma:
    """The γ that makes ``(R/γ)² + (2T/γ)·TD_γ`` smallest for one ``u`` (:func:`best_gamma`).

    Attributes
    ----------
    gamma : the minimizer (``inf`` when no finite γ does better than the limit γ → ∞).
    bound : the bound there.
    td : ``TD_γ`` there (one pass).
    passes : T, the number of passes.
    R : the radius used.
    """

    gamma: float
    bound: float
    td: float
    passes: int
    R: float


def best_gamma(
    X: ArrayLike, y: ArrayLike, u: ArrayLike, *, R: float | None = None, passes: int = 1
) -> BestGamma:
    """Minimize Balcan's T-pass bound over γ > 0 for a fixed ``u``, exactly.

    With margins ``mᵢ = yᵢ u·xᵢ/‖u‖``, on each interval of γ between two consecutive positive
    margins the set I of points with ``mᵢ < γ`` is fixed, with ``|I|`` points whose margins add
    up to S, and ``TD_γ/γ = |I| − S/γ``. The bound is then the quadratic
    ``R²/γ² − 2TS/γ + 2T|I|`` in ``s = 1/γ``, smallest at ``s = TS/R²``, clipped to the
    interval. The least of these piecewise minima is the global one.

    As γ → ∞ the bound tends to ``2T·n``. When no finite γ does better (for instance when
    no margin of ``u`` is positive), the result has ``gamma = inf``, ``td = inf`` and that limit
    as ``bound``; it is never better than the trivial ``T·n``.

    Parameters
    ----------
    X, y : the data.
    u : the reference direction (any non-zero length; it is normalized).
    R : the radius; default ``max ‖xᵢ‖``.
    passes : T, the number of passes the bound should cover (``TD_γ`` is paid on each).

    Returns
    -------
    BestGamma
    """
    X, y = check_X_y(X, y)
    w = check_vector(u, X.shape[1], "u")
    m = scaled_margins(X, y, w, name="u")
    R = float(np.max(row_norms(X))) if R is None else check_positive(R, "R")
    T = _check_passes(passes)
    m_sorted = np.sort(m)
    edges = np.r_[0.0, np.unique(m_sorted[m_sorted > 0]), np.inf]
    below = np.searchsorted(m_sorted, edges, side="right")  # points with margin <= edge
    prefix = np.r_[0.0, np.cumsum(m_sorted)]
    best = (math.inf, math.nan)
    for j in range(len(edges) - 1):
        lo, hi = edges[j], edges[j + 1]  # γ in (lo, hi]: points with m <= lo have m < γ
        k = int(below[j])
        S = float(prefix[k])
        # 1/γ of the interval's ends; a subnormal margin has no finite reciprocal.
        with np.errstate(over="ignore", divide="ignore"):
            t_lo = 0.0 if math.isinf(hi) else float(np.divide(1.0, hi))
            t_hi = float(np.divide(1.0, lo))
        t = min(max(T * S / (R * R), t_lo), t_hi)
        if not (0 < t < math.inf):
            continue  # the infimum sits at γ → ∞ or γ → 0, where the bound is not attained
        value = R * R * t * t - 2.0 * T * S * t + 2.0 * T * k
        if value < best[0]:
            best = (value, 1.0 / t)
    limit = 2.0 * T * len(m)  # the bound as γ → ∞, where every point has deviation ≈ γ
    if not best[0] < limit:
        # The bound only falls towards 2T·n as γ grows and is never attained: no γ helps, and
        # 2T·n is twice the trivial bound (a mistake at every round of T passes).
        return BestGamma(gamma=math.inf, bound=limit, td=math.inf, passes=T, R=R)
    gamma = best[1]
    td = float(np.sum(np.maximum(0.0, gamma - m)))
    return BestGamma(gamma=gamma, bound=hinge_loss_bound(R, gamma, T * td), td=td, passes=T, R=R)


@dataclass(frozen=True)
class BestBound:
    """Balcan's T-pass bound minimized over unit ``u`` and γ > 0 together (:func:`best_bound`).

    Attributes
    ----------
    u : the unit direction found (``None`` if the best is the limit γ → ∞).
    gamma : the best γ for that ``u`` (:func:`best_gamma`); ``inf`` for the limit.
    bound : the bound at ``(u, gamma)``; a valid bound whatever the solver's accuracy.
    lower : a lower bound on the bound for *every* ``u`` with ``‖u‖ ≤ 1`` and every γ > 0,
        from the dual of the SVM (weak duality), up to floating-point rounding.
    passes : T, the number of passes.
    R : the radius used.
    """

    u: NDArray | None
    gamma: float
    bound: float
    lower: float
    passes: int
    R: float


def best_bound(
    X: ArrayLike,
    y: ArrayLike,
    *,
    R: float | None = None,
    passes: int = 1,
    tol: float = 1e-6,
    max_sweeps: int = 20_000,
    seed: int = 0,
) -> BestBound:
    """Minimize ``(R/γ)² + (2T/γ)·TD_γ`` over unit ``u`` and γ > 0: a soft-margin SVM.

    With ``v = u/γ`` the bound is ``R²‖v‖² + 2T·Σᵢ max(0, 1 − yᵢ v·xᵢ)``, which is
    ``2R²`` times the objective ``½‖v‖² + C·Σ hinge`` of a soft-margin linear SVM without
    offset and with ``C = T/R²``. That problem is convex; it is solved here in its dual,
    ``max Σβᵢ − ½‖Σ βᵢyᵢxᵢ‖²`` over ``0 ≤ βᵢ ≤ C``, by coordinate ascent (Hsieh et al.,
    2008), until the duality gap is below ``tol`` relative to the objective. The dual value
    times ``2R²`` is then a lower bound on the bound for any ``‖u‖ ≤ 1`` and γ, and the
    direction ``u = v/‖v‖`` gets its exact best γ from :func:`best_gamma`.

    Parameters
    ----------
    X, y : the data.
    R : the radius; default ``max ‖xᵢ‖``.
    passes : T, the number of passes the bound should cover.
    tol : relative duality gap at which to stop (> 0).
    max_sweeps : cap on the coordinate sweeps, a positive int; the result stays valid if it is
        reached (``bound`` and ``lower`` are then just further apart).
    seed : seed of the order of the coordinates.

    Returns
    -------
    BestBound
    """
    X, y = check_X_y(X, y)
    R = float(np.max(row_norms(X))) if R is None else check_positive(R, "R")
    if not R > 0:
        raise ValueError("every point of X is 0, so R = 0: there is no direction to choose; pass data.")
    T = _check_passes(passes)
    tol = check_positive(tol, "tol")
    check_count(max_sweeps, "max_sweeps")
    n = len(y)
    C = T / (R * R)
    Z = y[:, None] * X  # rows yᵢxᵢ
    q = np.einsum("ij,ij->i", Z, Z)
    beta = np.zeros(n)
    v = np.zeros(X.shape[1])
    rng = np.random.default_rng(seed)
    active = np.flatnonzero(q > 0)  # a zero point has hinge 1 whatever v is

    def primal(v: NDArray) -> float:
        return 0.5 * float(v @ v) + C * float(np.sum(np.maximum(0.0, 1.0 - Z @ v)))

    def dual(beta: NDArray, v: NDArray) -> float:
        # Points with xᵢ = 0 enter the dual only through βᵢ ≤ C; their best βᵢ is C.
        return float(np.sum(beta)) + C * float(np.sum(q <= 0)) - 0.5 * float(v @ v)

    for _ in range(int(max_sweeps)):
        for i in rng.permutation(active):
            g = Z[i] @ v - 1.0
            new = min(max(beta[i] - g / q[i], 0.0), C)
            if new != beta[i]:
                v += (new - beta[i]) * Z[i]
                beta[i] = new
        v = Z.T @ beta  # keep v the exact image of beta despite drift
        p, d = primal(v), dual(beta, v)
        if p - d <= tol * max(1.0, abs(p)):
            break
    lower = 2.0 * R * R * max(0.0, dual(beta, v))
    limit = 2.0 * T * n
    if not np.any(v):
        return BestBound(u=None, gamma=math.inf, bound=limit, lower=min(lower, limit), passes=T, R=R)
    u = v / float(np.linalg.norm(v))
    bg = best_gamma(X, y, u, R=R, passes=T)
    return BestBound(u=u, gamma=bg.gamma, bound=bg.bound, lower=min(lower, bg.bound), passes=T, R=R)


def margin_perceptron_bound(R: float, gamma: float, target: float = 0.5) -> float:
    """Updates of Margin Perceptron(γ) with target τ: at most ``2(R/γ)²/η² + 2(R/γ)/η``, η = 1 − τ.

    At the default τ = ½ this is Balcan's ``8(R/γ)² + 4R/γ`` (Theorem 2 of Balcan's notes); the
    constants for other targets are the course book's derivation (chapter "The margin
    perceptron"), since the notes only say the bound is polynomial in R/(ηγ) (they write ε for
    the shortfall η).

    Parameters
    ----------
    R : radius, ``‖x‖ ≤ R`` for every example (≥ 0).
    gamma : a margin some unit vector achieves on the data (> 0).
    target : the fraction τ of γ the run aims for, strictly between 0 and 1.

    Returns
    -------
    float
    """
    ratio = check_nonnegative(R, "R") / check_positive(gamma, "gamma")
    target = check_probability(target, "target")
    eps = 1.0 - target
    # ratio/eps, squared: at eps = ½ every step is exact scaling by 2, so the value is bit for
    # bit Balcan's 8(R/γ)² + 4R/γ.
    scaled = ratio / eps
    total = 2 * _square(scaled, "R/(gamma·(1 - target))") + 2 * scaled
    return check_finite_result(total, "2(R/gamma)²/eps² + 2(R/gamma)/eps", _RESCALE)


def max_rounds(R: float, gamma: float) -> int:
    """Sweeps the cyclic perceptron needs at most: ``⌊(R/γ)²⌋ + 1``.

    Every sweep but the last makes a mistake, and there are at most ``(R/γ)²`` mistakes.
    """
    # A bound that is an integer in exact arithmetic (R = γ gives 1) may come out a hair below
    # it in floating point; flooring that would lose a whole round.
    return math.floor(novikoff_bound(R, gamma) * (1 + 1e-12)) + 1


@dataclass(frozen=True)
class OnlineToPAC:
    """Sizes for Balcan's conversion of the mistake bound into a PAC guarantee.

    Attributes
    ----------
    mistake_bound : ``(R/γ)²``; a run makes at most ``M = ⌊(R/γ)²⌋`` mistakes.
    window : a hypothesis is output once it is right on this many fresh examples in a row,
        ``⌈(1/ε) ln((M+1)/δ)⌉``.
    sample_size : examples that always suffice, ``(M+1)`` windows.
    hypotheses : ``M + 1``, the most hypotheses ``h₁ … h_{M+1}`` the procedure can test.
    """

    mistake_bound: float
    window: int
    sample_size: int
    hypotheses: int


def online_to_pac(R: float, gamma: float, epsilon: float, delta: float) -> OnlineToPAC:
    """Sample sizes for error ≤ ε with probability ≥ 1 − δ, from the perceptron's mistake bound.

    Run the perceptron on fresh examples and output the current hypothesis as soon as it is
    right on ``window`` examples in a row. With at most ``M = ⌊(R/γ)²⌋`` mistakes, the run holds
    at most ``M + 1`` hypotheses: ``h₁`` (the start, ``w = 0``) and one after each mistake. A
    hypothesis with error above ε survives ``k`` fresh examples with probability at most
    ``(1 − ε)ᵏ ≤ e^(−εk)``, which is at most ``δ/(M+1)`` once ``k ≥ (1/ε) ln((M+1)/δ)``; a union
    bound over the ``M + 1`` hypotheses gives δ. Each of ``h₁ … h_M`` uses at most one window
    before its mistake and ``h_{M+1}`` a full one, so ``(M+1)`` windows of examples suffice.

    Balcan's notes take a window of ``(1/ε) ln(M/δ)`` and a sample of ``M`` windows. Their
    sample is one window short: a run whose M mistakes come late in their windows can read all
    M windows while ``h_{M+1}`` is still being tested, and so output nothing. (Outputting the
    hypothesis in use when the sample ends would also repair it, as that one is ``h_{M+1}``.) Their union bound over M hypotheses
    can be rescued when the margin holds on the whole distribution (then ``h_{M+1}``, which no
    example can make err, has error 0), but counting ``M + 1`` hypotheses needs no such
    argument, so this function does.

    Parameters
    ----------
    R, gamma : radius and margin, as in :func:`novikoff_bound`.
    epsilon, delta : target error and failure probability, each in (0, 1).

    Returns
    -------
    OnlineToPAC

    Examples
    --------
    >>> online_to_pac(1.0, 0.5, 0.1, 0.05)  # M = 4: 5 hypotheses, window ⌈10 ln 100⌉ = 47
    OnlineToPAC(mistake_bound=4.0, window=47, sample_size=235, hypotheses=5)
    """
    epsilon = check_probability(epsilon, "epsilon")
    delta = check_probability(delta, "delta")
    hypotheses = max_rounds(R, gamma)  # ⌊(R/γ)²⌋ + 1, one per mistake plus the start
    window_real = check_finite_result(
        math.log(hypotheses / delta) / epsilon,
        "the window (1/epsilon)·ln((M+1)/delta)",
        "epsilon is too small for a float; use a larger epsilon.",
    )
    window = math.ceil(window_real)
    return OnlineToPAC(novikoff_bound(R, gamma), window, hypotheses * window, hypotheses)


def offset_bound(R: float, gamma: float, b: float, c: float = 1.0) -> float:
    """Mistakes of the perceptron on the augmented points ``(x, c)``: ``(R² + c²)(1 + b²/c²)/γ²``.

    The hypotheses are about the original points: ``‖xᵢ‖ ≤ R`` and a unit ``u`` with offset
    ``b*`` such that ``yᵢ(u·xᵢ + b*) ≥ γ``. On the points ``x' = (x, c)`` the radius is
    ``R' = √(R² + c²)``, and the unit vector ``u' = (u, b*/c)/√(1 + b*²/c²)`` separates them
    through the origin with margin ``γ' = γ/√(1 + b*²/c²)``, so Block–Novikoff gives ``(R'/γ')²``.
    With ``c = 1`` this bounds the perceptron with an offset (θ₀ of the MIT 6.036 notes), the
    perceptron through the origin on ``(x, 1)``; other ``c`` bound it on ``augment(X, c)``.

    For ``b* ≠ 0`` the bound is smallest at ``c² = R|b*|``, where it equals ``((R + |b*|)/γ)²``; a
    separator with points on both sides has ``|b*| ≤ R``, so that is at most ``4(R/γ)²``. Note
    that ``(R/γ)²`` alone, with the margin γ of a separator *with* an offset, is not a bound.

    Parameters
    ----------
    R : radius of the original points, ``max ‖xᵢ‖`` (≥ 0).
    gamma : margin ``min yᵢ(u·xᵢ + b*)`` of the unit ``u`` with offset ``b*`` (> 0).
    b : the offset ``b*`` of that separator (any real number; only ``|b|`` matters).
    c : the constant appended to every point (> 0; ``-c`` gives the same bound).

    Returns
    -------
    float

    Examples
    --------
    >>> offset_bound(11.0, 1.0, -10.0)  # x = 11 (+1), x = 9 (-1): (121 + 1)(1 + 100)
    12322.0
    >>> round(offset_bound(11.0, 1.0, -10.0, c=math.sqrt(110.0)), 9)  # the best c: (11 + 10)²
    441.0
    """
    R = check_nonnegative(R, "R")
    gamma = check_positive(gamma, "gamma")
    b = check_real(b, "b")
    c = check_positive(c, "c (the constant of the offset trick; its sign does not matter, pass |c|)")
    # R'/γ' = hypot(R, c)·hypot(1, b/c)/γ: hypot keeps the squares of large R, b or c from
    # overflowing on the way to a bound that itself fits in a float.
    ratio = math.hypot(R, c) * math.hypot(1.0, b / c) / gamma
    return _square(ratio, "R'/gamma' = sqrt(R² + c²)·sqrt(1 + b²/c²)/gamma")


def best_c(R: float, b: float) -> float:
    """The constant of the offset trick that minimizes :func:`offset_bound`: ``c = √(R|b|)``.

    ``(R² + c²)(1 + b²/c²) = R² + b² + c² + R²b²/c²``, and ``c² + R²b²/c²`` is smallest at
    ``c² = R|b|`` (the arithmetic–geometric mean inequality), where the bound is
    ``((R + |b|)/γ)²`` (:func:`best_offset_bound`).

    Parameters
    ----------
    R : radius of the original points (≥ 0); b : the offset ``b*`` of the separator.

    Raises
    ------
    ValueError
        For ``R = 0`` or ``b = 0``: the bound ``(R² + c²)(1 + b²/c²)/γ²`` then decreases all the way
        to ``c → 0`` and no positive c attains the minimum, and a constant 0 is not the trick.
    """
    R = check_nonnegative(R, "R")
    b = check_real(b, "b")
    product = R * abs(b)
    # √R·√|b| where R|b| itself would overflow or underflow.
    c = math.sqrt(product) if 0.0 < product < math.inf else math.sqrt(R) * math.sqrt(abs(b))
    if c == 0:
        raise ValueError(
            "with R = 0 or b = 0 no positive c minimizes the offset bound: it falls as c -> 0. "
            "Without an offset (b = 0) there is nothing to trade off; use novikoff_bound."
        )
    return c


def best_offset_bound(R: float, gamma: float, b: float) -> float:
    """The smallest :func:`offset_bound` over every constant ``c > 0``: ``((R + |b|)/γ)²``.

    Attained at :func:`best_c` for ``R, b ≠ 0``, and the infimum as ``c → 0`` otherwise. A
    separator with points on both sides has ``|b| ≤ R``, so this is at most ``4(R/γ)²``.
    """
    R = check_nonnegative(R, "R")
    gamma = check_positive(gamma, "gamma")
    b = check_real(b, "b")
    return _square((R + abs(b)) / gamma, "(R + |b|)/gamma")
