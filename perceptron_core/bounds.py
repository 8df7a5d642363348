"""The mistake bounds of the course, in the forms the lecture notes state them.

The three forms of the Block–Novikoff bound are one statement in three notations:

* ``(R/γ)²`` with a unit vector u of margin γ (CS229, Balcan, MIT);
* ``(RB)²`` with ``B = min{‖w‖ : yᵢ w·xᵢ ≥ 1}`` (UML): the minimizer is ``u/γ*``, so ``B = 1/γ*``;
* ``U²‖w*‖²/ε²`` with an unnormalized ``w*`` of functional margin ε: ``w*/‖w*‖`` is a unit
  vector with margin ``ε/‖w*‖``, so this is ``(U/(ε/‖w*‖))²``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validation import (
    check_finite_result,
    check_nonnegative,
    check_positive,
    check_probability,
    check_vector,
    check_X_y,
    scaled_margins,
)

__all__ = [
    "novikoff_bound",
    "uml_bound",
    "unnormalized_bound",
    "total_hinge_deviation",
    "hinge_loss_bound",
    "margin_perceptron_bound",
    "max_rounds",
    "OnlineToPAC",
    "online_to_pac",
    "offset_bound",
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
    # ‖w‖ from the largest entry, so that no square of an entry can overflow on the way.
    scale = float(np.max(np.abs(w)))
    norm = scale * float(np.linalg.norm(w / scale))
    return _square(U * norm / epsilon, "U*‖w_star‖/epsilon")


def total_hinge_deviation(X: ArrayLike, y: ArrayLike, w_star: ArrayLike, gamma: float) -> float:
    """Balcan's TD_γ: how far, in total, the points must move to have margin γ under ``w*``.

    ``TD_γ = Σᵢ max(0, γ − yᵢ u·xᵢ)`` with ``u = w*/‖w*‖``. It is γ times the total hinge loss
    of ``u/γ``. Zero exactly when ``u`` separates the data with margin γ.
    """
    X, y = check_X_y(X, y)
    gamma = check_positive(gamma, "gamma")
    w = check_vector(w_star, X.shape[1], "w_star")
    if not np.any(w):
        raise ValueError("w_star is the zero vector; pass a non-zero reference separator.")
    # The margins of u = w*/‖w*‖ without underflow of ‖w*‖² (a w* near 1e-180 is not zero).
    with np.errstate(over="ignore"):
        total = float(np.sum(np.maximum(0.0, gamma - scaled_margins(X, y, w))))
    return check_finite_result(
        total, "TD_gamma", "gamma and X are so large that the sum of n deviations overflows; rescale both together."
    )


def hinge_loss_bound(R: float, gamma: float, td: float) -> float:
    """Mistakes on any sequence are at most ``(R/γ)² + (2/γ)·TD_γ`` (Balcan), separable or not."""
    td = check_nonnegative(td, "td")
    total = novikoff_bound(R, gamma) + 2.0 * td / check_positive(gamma, "gamma")
    return check_finite_result(total, "(R/gamma)² + (2/gamma)·td", "Rescale R, gamma and td together.")


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
    from ._validation import check_real  # the shared validators; imported here, next to its use

    R = check_nonnegative(R, "R")
    gamma = check_positive(gamma, "gamma")
    b = check_real(b, "b")
    c = check_positive(c, "c (the constant of the offset trick; its sign does not matter, pass |c|)")
    # R'/γ' = hypot(R, c)·hypot(1, b/c)/γ: hypot keeps the squares of large R, b or c from
    # overflowing on the way to a bound that itself fits in a float.
    ratio = math.hypot(R, c) * math.hypot(1.0, b / c) / gamma
    return _square(ratio, "R'/gamma' = sqrt(R² + c²)·sqrt(1 + b²/c²)/gamma")
