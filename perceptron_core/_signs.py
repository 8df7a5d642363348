"""The package's one exact sign decision: the sign of a dot product ``a·θ`` of two float vectors.

Every algorithm, every ``predict`` and the online-to-PAC conversion ask the same question, *on
which side of the hyperplane is this point?*, and they all answer it here, the same way:

1. compute the dot product in floating point, in any order (BLAS, numba's vectorized sum);
2. trust its sign when it lies farther from 0 than its rounding error can reach; that bound is
   :func:`slack` (twice the textbook bound, so that it also covers its own rounding);
3. decide the few products nearer to 0 in exact rational arithmetic (:func:`exact_sign`): a float
   is a rational number, and ``Fraction(p) * Fraction(q)`` is exactly the product.

A sum of products of integers is exact in floating point while every partial sum stays below
2⁵³; there the float score is the exact score, 0 included, and nothing needs deciding.

So a decision never hinges on the last bit of a dot product, which another CPU, another BLAS
or another block size may round differently: a run is the same on every machine, and a
``predict`` after a run sees every training point as the run saw it.

The perceptron's compiled loop (:mod:`perceptron_core._compiled`) cannot call Python in its
inner loop; it takes the two coefficients of the same bound from :func:`slack_coefficients`
and hands every score it cannot trust back to its caller, which decides it with
:func:`exact_sign`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "UNIT_ROUNDOFF",
    "SUBNORMAL",
    "EXACT_INTEGERS",
    "slack",
    "slack_coefficients",
    "exact_dot",
    "exact_sign",
    "decide",
    "signs",
    "paired_signs",
]

#: 2⁻⁵³, the relative rounding of one float operation.
UNIT_ROUNDOFF = 2.0**-53
#: The smallest positive float, 2⁻¹⁰⁷⁴: a product that underflows loses less than this.
SUBNORMAL = float(np.finfo(float).smallest_subnormal)
#: Integers below 2⁵³ are floats, and sums and products that stay below it are exact.
EXACT_INTEGERS = 2.0**53


def slack(terms: int, abs_sum: ArrayLike) -> NDArray[np.float64]:
    """How far a float dot product of ``terms`` products may lie from the exact one.

    A sum of m products ``aⱼθⱼ``, added in any order, with or without fused multiply-add, is off
    by at most ``γ_m Σ|aⱼθⱼ|`` (``γ_m ≈ m·2⁻⁵³``) plus 2⁻¹⁰⁷⁵ for each product that underflows.
    The slack is ``2(m + 2)·(2⁻⁵³·S + 2⁻¹⁰⁷⁴)`` for a computed ``S ≥ Σ|aⱼθⱼ|`` (or that sum as
    computed in floats, whose own rounding the factor 2 covers): twice the bound, with room.
    """
    rel, tiny = slack_coefficients(terms)
    return rel * np.asarray(abs_sum, dtype=float) + tiny


def slack_coefficients(terms: int, scale: float = 1.0) -> tuple[float, float]:
    """``(rel, tiny)`` with :func:`slack` ``= rel·S + tiny``, ``rel`` multiplied by ``scale``.

    The compiled loop bounds ``Σ|aⱼθⱼ|`` by ``max|aⱼ|·‖θ‖₁`` and passes ``scale = max|aⱼ|``, so
    that its slack is ``rel·‖θ‖₁ + tiny``, the same bound, kept up to date at each update.
    """
    factor = 2.0 * (int(terms) + 2)
    return factor * UNIT_ROUNDOFF * float(scale), factor * SUBNORMAL


def exact_dot(a: ArrayLike, b: ArrayLike) -> Fraction:
    """``a·b`` of two finite float vectors, in exact rational arithmetic."""
    return sum(
        (Fraction(float(p)) * Fraction(float(q)) for p, q in zip(np.ravel(a), np.ravel(b)) if p and q),
        Fraction(0),
    )


def exact_sign(a: ArrayLike, b: ArrayLike) -> int:
    """The sign (-1, 0 or +1) of ``a·b``, decided in exact rational arithmetic."""
    total = exact_dot(a, b)
    return (total > 0) - (total < 0)


def decide(
    scores: NDArray,
    slacks: NDArray | float,
    exact: Callable[..., int],
    *,
    exact_scores: NDArray | None = None,
) -> NDArray[np.int8]:
    """The exact signs of dot products, from their float values ``scores``.

    A score farther from 0 than its ``slacks`` entry keeps its float sign; any other (NaN
    included) is decided by ``exact(*index)``, in rational arithmetic. ``exact_scores`` (broadcast
    to the shape of ``scores``) marks scores known to be computed exactly, such as sums of
    integers below 2⁵³ or products with ``θ = 0``: their float sign is right, 0 included.
    """
    scores = np.asarray(scores, dtype=float)
    with np.errstate(invalid="ignore"):  # a NaN score casts to an arbitrary int: it is decided below
        out = np.sign(scores).astype(np.int8)
    doubt = ~(np.abs(scores) > slacks)
    if exact_scores is not None:
        doubt &= ~(np.broadcast_to(exact_scores, scores.shape) & np.isfinite(scores))
    for index in np.argwhere(doubt):
        out[tuple(index)] = exact(*(int(i) for i in index))
    return out


def _integral(a: NDArray) -> NDArray[np.bool_]:
    """Per row of ``a`` (last axis): whether every entry is an integer."""
    return np.all(a == np.round(a), axis=-1)


def _zero(a: NDArray) -> NDArray[np.bool_]:
    """Per row of ``a`` (last axis): whether it is the zero vector."""
    return ~np.any(a, axis=-1)


def signs(A: ArrayLike, theta: ArrayLike) -> NDArray[np.int8]:
    """The exact sign of ``A[i]·θ`` for every row of ``A``.

    Parameters
    ----------
    A : array of shape (n, d), finite.
    theta : array of shape (d,), or (K, d) for K vectors at once; finite.

    Returns
    -------
    int8 array of shape (n,), or (n, K) for a 2-D ``theta``: -1, 0 or +1.
    """
    A = np.asarray(A, dtype=float)
    theta = np.asarray(theta, dtype=float)
    one = theta.ndim == 1
    T = theta[None, :] if one else theta
    # Products beyond the float range give inf or NaN scores and bounds: never trusted, decided
    # exactly below, so numpy's warning would only be noise.
    with np.errstate(over="ignore", invalid="ignore"):
        scores = A @ T.T
        bound = np.abs(A) @ np.abs(T).T
    # Integers whose products add up below 2⁵³ are scored exactly; so is any product with a zero
    # vector. (A bound of 0 alone says nothing: products of entries near 1e-200 underflow to 0.)
    exact_scores = (_integral(A)[:, None] & _integral(T)[None, :] & (bound < EXACT_INTEGERS)) | (
        _zero(A)[:, None] | _zero(T)[None, :]
    )
    out = decide(scores, slack(A.shape[1], bound), lambda i, k: exact_sign(A[i], T[k]), exact_scores=exact_scores)
    return out[:, 0] if one else out


def paired_signs(A: ArrayLike, W: ArrayLike) -> NDArray[np.int8]:
    """The exact sign of ``A[r, j]·W[r]``: each stack ``A[r]`` of rows against its own ``W[r]``.

    Parameters
    ----------
    A : array of shape (R, J, d); W : array of shape (R, d).

    Returns
    -------
    int8 array of shape (R, J).
    """
    A = np.asarray(A, dtype=float)
    W = np.asarray(W, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):  # as in signs()
        scores = np.einsum("rjd,rd->rj", A, W)
        bound = np.einsum("rjd,rd->rj", np.abs(A), np.abs(W))
    exact_scores = (_integral(A) & _integral(W)[:, None] & (bound < EXACT_INTEGERS)) | (
        _zero(A) | _zero(W)[:, None]
    )
    return decide(scores, slack(A.shape[-1], bound), lambda r, j: exact_sign(A[r, j], W[r]),
                  exact_scores=exact_scores)
