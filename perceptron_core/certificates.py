"""The smallest certificates that a data set cannot be separated, found and checked exactly.

:func:`perceptron_core.separability` returns a certificate of inseparability: weights λ ≥ 0,
``Σλ = 1``, with ``Σ λᵢyᵢxᵢ = 0`` (and ``Σ λᵢyᵢ = 0`` with an offset), Gordan's alternative. This
module asks which points such a certificate needs, and answers in exact arithmetic:

* :func:`common_point`: the point a certificate puts in both classes' hulls (or cones);
* :func:`float_values` and :func:`recorded_values`: the data as exact fractions, either the
  binary floats the computer holds or the decimals that were written down (5.1 is not 51/10);
* :func:`carries_certificate`: whether a given set of points carries a certificate, exactly;
* :func:`near_certificates`: a search in floats for the smallest sets, up to a tolerance,
  each of which :func:`carries_certificate` can then check;
* :func:`exhaustive_small_certificates`: every smallest set of at most d + 1 points, by an
  exhaustive and exact screen (determinants modulo two primes, then fractions);
* :func:`rounding_margin_bound`: the margin left to the floats when their decimals carry a
  certificate, at most the largest rounding error of a point.

scipy is imported by the function that solves a linear program, when it runs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import check_count, check_flag, check_X, check_X_y, check_y
from .geometry import Separability, _rref

__all__ = [
    "common_point",
    "IRIS_DECIMALS",
    "float_values",
    "recorded_values",
    "carries_certificate",
    "near_certificates",
    "rounding_margin_bound",
    "exhaustive_small_certificates",
]


def _check_values(values: object, name: str = "values") -> list[list[Fraction]]:
    """``values`` as a non-empty list of equally long rows of Fractions."""
    try:
        rows = [[v if isinstance(v, Fraction) else None for v in row] for row in values]  # type: ignore[union-attr]
    except TypeError:
        rows = None
    if not rows or any(v is None for row in rows for v in row) or len({len(r) for r in rows}) != 1 or not rows[0]:
        raise TypeError(
            f"{name} must be the data as rows of fractions.Fraction, all of one length; build them with "
            "float_values(X) (the floats, exactly) or recorded_values(X) (the decimals written down)."
        )
    return rows  # type: ignore[return-value]


def _check_points(points: Iterable[int], n: int) -> list[int]:
    pts = list(points)
    if (any(isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) for i in pts)
            or any(not 0 <= i < n for i in pts) or len(set(pts)) != len(pts)):
        raise ValueError(f"points must be distinct indices of data points, in 0..{n - 1}; got {pts!r}.")
    return [int(i) for i in pts]


def common_point(X: ArrayLike, y: ArrayLike, sep: Separability) -> NDArray[np.float64]:
    """The point a certificate puts on both sides of every candidate separator.

    Split ``Σ λᵢ yᵢ xᵢ = 0`` by label: ``a = Σ_{yᵢ=+1} λᵢ xᵢ = Σ_{yᵢ=−1} λᵢ xᵢ``.

    * With an offset, Σ λᵢ yᵢ = 0 as well, so each class carries weight 1/2 and ``2a`` is a
      convex combination of each class: a point of both convex hulls. It is returned.
    * Through the origin, ``a`` is a non-negative combination of each class: a line through the
      origin would need ``w·a > 0`` and ``w·a < 0`` (or, when one side's weights are all zero
      and ``a = 0``, ``0 = Σ λᵢ w·xᵢ`` with every term of one sign). ``a`` is returned.

    Raises
    ------
    ValueError
        If ``sep`` is a witness, not a certificate.
    """
    if not isinstance(sep, Separability):
        raise TypeError(f"sep must be the verdict of separability(X, y), got {type(sep).__name__}.")
    if sep.certificate is None:
        raise ValueError("this verdict carries no certificate (it is 'separable' or undecided); "
                         "common_point needs a verdict with separable=False.")
    X, y = check_X_y(X, y)
    lam = np.asarray(sep.certificate, dtype=float)
    if lam.shape != y.shape:
        raise ValueError(f"the certificate has {lam.size} weights but the data {y.size} points; pass the "
                         "X and y the verdict was made on.")
    a = (lam * (y > 0)) @ X
    return 2 * a if sep.offset else a


#: Fisher's Iris measurements are recorded in centimetres with one decimal (to the millimetre).
IRIS_DECIMALS = 1


def float_values(X: ArrayLike) -> list[list[Fraction]]:
    """The numbers the computer holds, exactly: every float is a fraction (5.1 is not 51/10)."""
    return [[Fraction(float(v)) for v in row] for row in check_X(X)]


def recorded_values(X: ArrayLike, decimals: int = IRIS_DECIMALS) -> list[list[Fraction]]:
    """The measurements as written down: each float read back as the decimal it was parsed from.

    ``5.1`` is held as the binary float nearest to 51/10; this returns ``Fraction(51, 10)``.

    Raises
    ------
    ValueError
        If some entry is not the float nearest to a decimal with ``decimals`` places.
    """
    if isinstance(decimals, (bool, np.bool_)) or not isinstance(decimals, (int, np.integer)) or not 0 <= decimals <= 17:
        raise ValueError(f"decimals must be a whole number of decimal places from 0 to 17, got {decimals!r}.")
    scale = 10 ** int(decimals)
    out = []
    for row in check_X(X):
        exact = [Fraction(round(float(v) * scale), scale) for v in row]
        if any(float(q) != float(v) for q, v in zip(exact, row)):
            raise ValueError(f"{row.tolist()} are not all decimals with {decimals} places.")
        out.append(exact)
    return out


def _null_line(columns: Sequence[Sequence[Fraction]]) -> list[Fraction] | None:
    """A vector spanning the null space of the matrix with these columns, if that space is a
    line (exact elimination); None when it is {0} or larger."""
    m = len(columns)
    rows, pivots = _rref([[columns[j][i] for j in range(m)] for i in range(len(columns[0]))], m)
    free = [c for c in range(m) if c not in pivots]
    if len(free) != 1:
        return None
    v = [Fraction(0)] * m
    v[free[0]] = Fraction(1)
    for r, c in enumerate(pivots):
        v[c] = -rows[r][free[0]]
    return v


def carries_certificate(values: Sequence[Sequence[Fraction]], y: ArrayLike,
                        points: Iterable[int], *, offset: bool = True) -> bool:
    """Whether a certificate exists that uses only ``points``, decided in exact arithmetic.

    ``values`` are the data as fractions (:func:`float_values` or :func:`recorded_values`).
    With zᵢ = yᵢxᵢ (or yᵢ(xᵢ, 1) with an offset), a certificate on the points is λ ≥ 0 with
    Σλ = 1 and Σ λᵢzᵢ = 0. One whose set of points is as small as possible has a null space
    {λ : Σ λᵢzᵢ = 0} that is a line (else moving along a second direction would zero a
    weight) spanned by a positive vector; conversely such a line gives a certificate. So each
    subset of ``points`` is tried: there are 2^len(points) of them, meant for a handful.
    """
    values = _check_values(values)
    y = check_y(y, len(values))
    points = _check_points(points, len(values))
    return _carries_certificate(values, y, points, check_flag(offset, "offset"))


def _carries_certificate(values: Sequence[Sequence[Fraction]], y: NDArray, points: Sequence[int],
                         offset: bool = True) -> bool:
    """:func:`carries_certificate` on checked arguments."""
    z = {i: [int(y[i]) * v for v in values[i]] + ([Fraction(int(y[i]))] if offset else [])
         for i in points}
    for size in range(1, len(points) + 1):
        for subset in itertools.combinations(points, size):
            v = _null_line([z[i] for i in subset])
            if v is not None and (all(c > 0 for c in v) or all(c < 0 for c in v)):
                return True
    return False


#: A set of unit rows whose smallest singular value is at most this counts as dependent.
NEAR_TOL = 1e-9


def near_certificates(X: ArrayLike, y: ArrayLike, *, max_size: int,
                      offset: bool = True) -> list[tuple[int, ...]]:
    """The smallest sets of points that carry a certificate up to rounding, found in floats.

    Every set of at most ``max_size`` points whose signed points zᵢ (``yᵢxᵢ``, or
    ``yᵢ(xᵢ, 1)`` with an offset) are dependent up to a tolerance with weights λ > 0, and that
    contains no smaller such set. Such a set is a *circuit*: its points are dependent, every
    smaller subset is not. So the search takes each independent *base* of all but the two
    largest indices of a set, projects the other points onto the complement of the base's span,
    and looks there for two opposite directions (a pair that, with the base, is dependent with
    weights of one sign on the pair); a singular value decomposition of each such set then gives
    its weights, and the set counts when its smallest singular value, of its rows scaled to
    length 1 (positive weights rescale), is at most :data:`NEAR_TOL` and all weights have one
    sign. The work grows like C(n, s), the sets of s points: for the 100 versicolor and virginica
    flowers and sets of 5 (C(100, 5) = 75,287,520), about a second.

    Raises
    ------
    ValueError
        If some size to search has more than 200,000,000 sets of points.

    This is a search in floating point, not a proof: a set dependent up to the tolerance need
    not carry an *exact* certificate (:func:`carries_certificate` checks each listed set), and
    rounding could in principle hide one that does. That none was missed is what
    :func:`exhaustive_small_certificates` settles, exactly.

    Returns
    -------
    Sorted tuples of point indices, by size and then lexicographically.
    """
    X, y = check_X_y(X, y)
    check_count(max_size, "max_size", why=" (the largest set to look for)")
    offset = check_flag(offset, "offset")
    n = len(y)
    Z = y[:, None] * (np.hstack([X, np.ones((n, 1))]) if offset else X)
    length = np.linalg.norm(Z, axis=1)
    found = [(int(i),) for i in np.flatnonzero(length == 0)]  # zᵢ = 0: a certificate alone
    keep = np.flatnonzero(length > 0)
    U = Z[keep] / length[keep, None]
    m, k = U.shape
    top = min(max_size, k + 1)  # more points always hold a smaller certificate (Carathéodory)
    if math.comb(m, top) > 2 * 10**8:  # the search's time (and memory) grow with it
        raise ValueError(f"a search for sets of {top} of {m} points goes through C({m}, {top}) = "
                         f"{math.comb(m, top):,} sets, too many to search here (at most "
                         "200,000,000); lower max_size or pass fewer points.")
    for size in range(2, top + 1):
        b, sets = size - 2, []
        for t in range(b - 1, m - 2) if b else [-1]:  # t: the base's largest index
            bases = [c + (t,) for c in itertools.combinations(range(t), b - 1)] if b else [()]
            heads = np.array(bases, dtype=np.int64).reshape(len(bases), b)
            J = np.arange(t + 1, m)
            P = U[J][None]
            if b:  # the complement of each base's span, from a complete QR of its rows
                P = P @ np.linalg.qr(np.swapaxes(U[heads], 1, 2), mode="complete")[0][:, :, b:]
            P /= np.maximum(np.linalg.norm(P, axis=2, keepdims=True), 1e-300)
            h, i, j = np.nonzero(P @ np.swapaxes(P, 1, 2) < 1e-12 - 1)  # cosine near -1
            sets.append(np.c_[heads[h[i < j]], J[i[i < j]], J[j[i < j]]])
        sets = np.concatenate(sets) if sets else np.zeros((0, size), np.int64)
        if not len(sets):
            continue
        left, sigma, _ = np.linalg.svd(U[sets])  # the weights: the last left singular vector
        lam = left[:, :, -1] * np.sign(left[:, :1, -1])
        near = np.all(lam > NEAR_TOL, axis=1) & (sigma[:, -1] <= NEAR_TOL if size <= k else True)
        for S in sets[near]:
            S = tuple(int(keep[v]) for v in S)
            if not any(set(T) <= set(S) for T in found):
                found.append(S)
    return sorted(found, key=lambda S: (len(S), S))


def rounding_margin_bound(X: ArrayLike, points: Iterable[int], decimals: int = IRIS_DECIMALS) -> float:
    """An upper bound on the margin with an offset of the floats ``X[points]``, given that the
    recorded decimals of those points carry a certificate λ.

    For unit u and any b, min_i yᵢ(u·fᵢ + b) ≤ Σ λᵢyᵢ(u·fᵢ + b) = Σ λᵢyᵢ u·(fᵢ − dᵢ), since the
    decimals dᵢ have Σ λᵢyᵢ(u·dᵢ + b) = 0; and that is at most maxᵢ ‖fᵢ − dᵢ‖, the largest
    rounding error of a point. Returned rounded up to the next float.
    """
    floats, decimal = float_values(X), recorded_values(X, decimals)
    points = _check_points(points, len(floats))
    if not points:
        raise ValueError("points must name at least one data point (the points of the certificate).")
    worst = max(sum((f - q) ** 2 for f, q in zip(floats[i], decimal[i])) for i in points)
    root = float(worst) ** 0.5
    return float(np.nextafter(np.nextafter(root, np.inf), np.inf))


_PRIMES = (2147483647, 2147483629)  # below 2³¹, so products of residues fit in int64


def _singular_mod(A: NDArray[np.int64], p: int) -> NDArray[np.bool_]:
    """For a stack of square integer matrices mod ``p``: where the determinant is 0 mod ``p``."""
    A = A.copy()
    N, m, _ = A.shape
    singular = np.zeros(N, dtype=bool)
    rows = np.arange(N)
    for c in range(m):
        nonzero = A[:, c:, c] != 0
        singular |= ~nonzero.any(axis=1)
        pivot = c + np.argmax(nonzero, axis=1)
        top, piv = A[rows, c].copy(), A[rows, pivot].copy()
        A[rows, c], A[rows, pivot] = piv, top
        pv = A[:, c, c][:, None]
        for r in range(c + 1, m):
            A[:, r, :] = (pv * A[:, r, :] - A[:, r, c][:, None] * A[:, c, :]) % p
    return singular


def _exact_witness(values: Sequence[Sequence[Fraction]], y: NDArray, points: Sequence[int]) -> bool:
    """Whether a linear program finds an (w, b) that separates ``points`` in exact arithmetic."""
    from scipy.optimize import linprog  # here: scipy is slow to import

    pts = list(points)
    if len({int(y[i]) for i in pts}) < 2:
        return True
    Xs = np.array([[float(v) for v in values[i]] for i in pts])
    ys = y[pts]
    n, d = Xs.shape
    A = np.c_[-ys[:, None] * Xs, -ys, np.ones(n)]
    res = linprog(np.r_[np.zeros(d + 1), -1.0], A_ub=A, b_ub=np.zeros(n),
                  bounds=[(-1, 1)] * d + [(-100, 100), (None, 1)])
    if res.status != 0 or res.x[-1] <= 0:
        return False
    w, b = [Fraction(float(v)) for v in res.x[:d]], Fraction(float(res.x[d]))
    return all(int(y[i]) * (sum(a * c for a, c in zip(values[i], w)) + b) > 0 for i in pts)


def exhaustive_small_certificates(values: Sequence[Sequence[Fraction]], y: ArrayLike
                                  ) -> list[tuple[int, ...]]:
    """Every smallest set of at most d + 1 points that carries a certificate with an offset.

    Exhaustive and exact, independent of the search in floats of :func:`near_certificates`. ``values`` are the data as fractions (:func:`float_values` or
    :func:`recorded_values`), d measurements per point. A certificate with an offset on a set S
    makes the rows (xᵢ, 1), i ∈ S, linearly dependent, so for |S| = d + 1 their square
    determinant is 0, and every set of at most d + 1 points lies inside such a set. Each
    determinant is computed modulo two primes (a determinant not 0 modulo a prime is not 0),
    after scaling all rows to integers. The few sets that pass both screens are settled
    exactly: a linear program's witness checked in fractions rules a set out, otherwise
    :func:`carries_certificate` finds its smallest certificates. Sets that contain a
    certificate already found are skipped.

    Run time: for the 100 versicolor and virginica flowers with all four measurements, all
    C(100, 5) = 75,287,520 sets, about 5½ minutes on one core for the floats (measured: 325 s;
    182,929 sets pass the screen). The recorded decimals take longer, since about twice as
    many sets pass the screen (353,370) and more of them reach the exact stage.
    """
    from math import lcm

    values = _check_values(values)
    y = check_y(y, len(values))
    n, d = len(values), len(values[0])
    size = d + 1
    scale = lcm(*(v.denominator for row in values for v in row))
    ints = [[int(v * scale) for v in row] + [scale] for row in values]
    mats = [np.array([[a % p for a in row] for row in ints], dtype=np.int64) for p in _PRIMES]
    tail = np.array(list(itertools.combinations(range(n), size - 2)), dtype=np.int64)
    flagged: list[tuple[int, ...]] = []
    for i in range(n):
        for j in range(i + 1, n):
            rest = tail[tail[:, 0] > j]
            if not len(rest):
                continue
            idx = np.c_[np.full(len(rest), i), np.full(len(rest), j), rest]
            for M, p in zip(mats, _PRIMES):
                idx = idx[_singular_mod(M[idx], p)]
                if not len(idx):
                    break
            flagged.extend(tuple(int(v) for v in S) for S in idx)
    found: list[tuple[int, ...]] = []
    for S in flagged:
        if any(set(T) <= set(S) for T in found) or _exact_witness(values, y, S):
            continue
        for size_t in range(1, size + 1):
            mins = [T for T in itertools.combinations(S, size_t)
                    if not any(set(U) <= set(T) for U in found)
                    and _carries_certificate(values, y, T)]
            found.extend(mins)
    return sorted(set(found), key=lambda T: (len(T), T))
