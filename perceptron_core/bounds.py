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

from ._validation import check_nonnegative, check_positive, check_vector, check_X_y

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
]


def novikoff_bound(R: float, gamma: float) -> float:
    """Block–Novikoff: at most ``(R/γ)²`` mistakes when ‖xᵢ‖ ≤ R and some unit u has margin γ."""
    R = check_nonnegative(R, "R")
    gamma = check_positive(gamma, "gamma")
    return (R / gamma) ** 2


def uml_bound(R: float, B: float) -> float:
    """UML Theorem 9.1: at most ``(RB)²`` iterations, with ``B = min{‖w‖ : yᵢ w·xᵢ ≥ 1}``."""
    R = check_nonnegative(R, "R")
    B = check_positive(B, "B")
    return (R * B) ** 2


def unnormalized_bound(U: float, w_star: ArrayLike, epsilon: float) -> float:
    """The bound ``U²‖w*‖²/ε²`` for a separator ``w*`` (any length) with ``y w*·x ≥ ε``."""
    U = check_nonnegative(U, "U")
    epsilon = check_positive(epsilon, "epsilon")
    w = np.asarray(w_star, dtype=float)
    w = check_vector(w, w.size, "w_star")
    return U**2 * float(w @ w) / epsilon**2


def total_hinge_deviation(X: ArrayLike, y: ArrayLike, w_star: ArrayLike, gamma: float) -> float:
    """Balcan's TD_γ: how far, in total, the points must move to have margin γ under ``w*``.

    ``TD_γ = Σᵢ max(0, γ − yᵢ u·xᵢ)`` with ``u = w*/‖w*‖``. It is γ times the total hinge loss
    of ``u/γ``. Zero exactly when ``u`` separates the data with margin γ.
    """
    X, y = check_X_y(X, y)
    gamma = check_positive(gamma, "gamma")
    w = check_vector(w_star, X.shape[1], "w_star")
    norm = np.linalg.norm(w)
    if norm == 0:
        raise ValueError("w_star is the zero vector; pass a non-zero reference separator.")
    return float(np.sum(np.maximum(0.0, gamma - y * (X @ w) / norm)))


def hinge_loss_bound(R: float, gamma: float, td: float) -> float:
    """Mistakes on any sequence are at most ``(R/γ)² + (2/γ)·TD_γ`` (Balcan), separable or not."""
    td = check_nonnegative(td, "td")
    return novikoff_bound(R, gamma) + 2.0 * td / check_positive(gamma, "gamma")


def margin_perceptron_bound(R: float, gamma: float) -> float:
    """Margin Perceptron(γ) makes at most ``8(R/γ)² + 4R/γ`` updates (Balcan, Theorem 2)."""
    ratio = check_nonnegative(R, "R") / check_positive(gamma, "gamma")
    return 8 * ratio**2 + 4 * ratio


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
    mistake_bound : M = (R/γ)².
    window : a hypothesis is output once it is right on this many fresh examples in a row,
        ``⌈(1/ε) ln(M/δ)⌉``.
    sample_size : examples that always suffice, ``⌈(M/ε) ln(M/δ)⌉``.
    """

    mistake_bound: float
    window: int
    sample_size: int


def online_to_pac(R: float, gamma: float, epsilon: float, delta: float) -> OnlineToPAC:
    """Sample sizes for error ≤ ε with probability ≥ 1 − δ from a perceptron with M mistakes.

    A hypothesis with error above ε survives ``(1/ε) ln(M/δ)`` fresh examples with probability
    at most δ/M; a union bound over the at most M hypotheses that get tested gives δ.
    """
    epsilon = check_positive(epsilon, "epsilon")
    delta = check_positive(delta, "delta")
    if epsilon >= 1 or delta >= 1:
        raise ValueError(f"epsilon and delta must lie in (0, 1), got epsilon={epsilon}, delta={delta}.")
    M = max(novikoff_bound(R, gamma), 1.0)
    log_term = math.log(M / delta)
    return OnlineToPAC(M, math.ceil(log_term / epsilon), math.ceil(M * log_term / epsilon))
