"""Margins, the radius R, the maximum margin γ*, and the separability test.

Two facts organize this module. With ``zᵢ = yᵢxᵢ``:

* Through the origin, γ* = max over unit w of minᵢ zᵢ·w is the distance from the origin to the
  convex hull of the zᵢ (when the data are separable). So any point p of that hull gives an
  upper bound ‖p‖ ≥ γ*, and any unit w a lower bound minᵢ zᵢ·w ≤ γ*: at the nearest point the
  two meet. :func:`max_margin` returns both, a certified interval around γ*.
* Gordan's alternative: either some w has zᵢ·w > 0 for all i (separable), or some λ ≥ 0 with
  Σλᵢ = 1 has Σλᵢzᵢ = 0 (a certificate that no separator exists). Never both.

Verdicts are certified in exact arithmetic: every float is a rational number, and
``fractions.Fraction(x)`` is exactly it. Floats find the evidence; fractions check it. When
floats cannot find evidence that checks out (margins far below the rounding of the data), the
search is finished in rational arithmetic, and when even that fails the verdict says
"undecided" rather than guess.

Every scale the validators accept gets the same care. A norm is never the square root of a sum
of squares that could underflow (1e-180² is 0.0): vectors are first multiplied by a power of
two, which is exact. Data whose entries all lie below 2⁻³⁰⁰ are rescaled that way before
:func:`max_margin`, :func:`separability` and :func:`min_norm_point` run, and the results are
scaled back exactly (γ* and the point scale with the data; verdicts and weights do not).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import (
    check_finite_result,
    check_flag,
    check_positive,
    check_real,
    check_vector,
    check_X,
    check_X_y,
    pow2_shift,
    row_norms,
    scaled_margins,
)

__all__ = [
    "margins",
    "dataset_margin",
    "radius",
    "min_norm_point",
    "MaxMargin",
    "max_margin",
    "Separability",
    "separability",
    "separator_arc",
    "Peak",
    "peak",
]


def margins(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0) -> NDArray[np.float64]:
    """Signed geometric margins ``yᵢ (w·xᵢ + b) / ‖w‖`` of the points.

    Positive means on the correct side, and the value is the distance to the hyperplane
    ``w·x + b = 0``. It does not change when ``(w, b)`` is scaled by a positive number.
    Computed without underflow or overflow on the way, so a ``w`` as small as 1e-305 has the
    margins of ``w/‖w‖`` (a ValueError says so when a margin itself exceeds the float range).
    """
    X, y = check_X_y(X, y)
    return scaled_margins(X, y, check_vector(w, X.shape[1], "w"), check_real(b, "b"))


def dataset_margin(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0) -> float:
    """Margin of a data set with respect to a separator: the smallest point margin."""
    return float(np.min(margins(X, y, w, b)))


def radius(X: ArrayLike) -> float:
    """R = max ‖xᵢ‖, the radius of the smallest origin-centred ball holding the data."""
    X = check_X(X)
    return float(np.max(row_norms(X)))  # no underflow of ‖x‖² for entries near 1e-180


def _wolfe(
    lmo: Callable[[NDArray], tuple[Hashable, NDArray]],
    start: tuple[Hashable, NDArray],
    *,
    scale: float,
    max_iter: int,
) -> tuple[NDArray, dict[Hashable, float]]:
    """Wolfe's (1976) minimum-norm-point algorithm over the convex hull of some vertices.

    ``lmo(x)`` returns a vertex minimizing ``x·v`` (with a key naming it). The iterate is kept as
    a convex combination of a small "corral" of vertices; each minor cycle projects the origin on
    their affine hull and steps back into the hull when that projection falls outside. The
    algorithm is finite and exact up to rounding, which is what a 1e-9 certificate needs.
    """
    keys: list[Hashable] = [start[0]]
    V = start[1][None, :].copy()
    lam = np.array([1.0])
    x = V[0].copy()
    tol = 1e-15 * scale * scale
    for _ in range(max_iter):
        key, v = lmo(x)
        # x is optimal when no vertex lies further "behind" it: min_v x·v >= x·x.
        if x @ v >= x @ x - tol or key in keys:
            break
        keys.append(key)
        V = np.vstack([V, v])
        lam = np.append(lam, 0.0)
        while True:
            # Nearest point to the origin on the affine hull of the corral: x = v0 + D β with the
            # columns of D the differences v_k - v0. Least squares on D itself (not on the Gram
            # matrix, which squares the conditioning) keeps nearly equal vertices accurate.
            beta = np.linalg.lstsq((V[1:] - V[0]).T, -V[0], rcond=None)[0]
            alpha = np.r_[1.0 - beta.sum(), beta]
            if np.all(alpha > 1e-14):
                lam = alpha / alpha.sum()
                break
            # Move from lam toward alpha until the first coefficient reaches zero, then drop it.
            neg = alpha <= 1e-14
            theta = np.min(lam[neg] / (lam[neg] - alpha[neg]))
            lam = (1 - theta) * lam + theta * alpha
            keep = lam > 1e-14
            if keep.all():
                keep[np.argmin(lam)] = False
            keys = [kk for kk, kp in zip(keys, keep) if kp]
            V, lam = V[keep], lam[keep] / lam[keep].sum()
        x = lam @ V
    return x, dict(zip(keys, lam.tolist()))


def min_norm_point(P: ArrayLike, *, max_iter: int | None = None) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The point of the convex hull of the rows of ``P`` nearest to the origin.

    Parameters
    ----------
    P : array of shape (m, d), the vertices.
    max_iter : cap on Wolfe's major cycles (default ``10 m + 100``).

    Returns
    -------
    point : array of shape (d,)
    weights : array of shape (m,), convex weights λ with ``point = λ @ P``.

    Floating point: the point is accurate to about 1e-15 times the largest ‖Pᵢ‖, at every
    scale (P whose largest entry is below 2⁻³⁰⁰ or above 2³⁰⁰ is multiplied by a power of two
    first, which changes neither the weights nor, but for that factor, the point).
    """
    P = check_X(P, name="P")
    m = P.shape[0]
    shift = pow2_shift(float(np.max(np.abs(P))))
    if shift:
        point, weights = min_norm_point(np.ldexp(P, shift), max_iter=max_iter)
        return np.ldexp(point, -shift), weights
    scale = max(float(np.max(row_norms(P))), np.finfo(float).tiny)
    j0 = int(np.argmin(np.einsum("ij,ij->i", P, P)))

    def lmo(x: NDArray) -> tuple[int, NDArray]:
        j = int(np.argmin(P @ x))
        return j, P[j]

    point, lam = _wolfe(lmo, (j0, P[j0]), scale=scale, max_iter=max_iter or 10 * m + 100)
    weights = np.zeros(m)
    for j, l in lam.items():
        weights[j] = l
    return point, weights




# ------------------------------------------------------------------------------------------
# Exact arithmetic. A float is a rational number, and fractions.Fraction(x) is exactly it, so
# every verdict below is checked with rationals: no rounding can make it wrong.
# ------------------------------------------------------------------------------------------

_EPS = float(np.finfo(float).eps)
_TINY = float(np.finfo(float).tiny)

Exact = tuple  # a vector of fractions.Fraction (type alias, for readability)


def _dot(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    return sum((p * q for p, q in zip(a, b) if p and q), Fraction(0))


def _exact_row(row: NDArray[np.float64]) -> Exact:
    return tuple(Fraction(float(v)) for v in row)


def _to_float_direction(x: Sequence[Fraction]) -> NDArray[np.float64]:
    """``x`` times a power of two (exact, so the direction is unchanged) as floats in [-1, 1]."""
    top = max((abs(v) for v in x), default=Fraction(0))
    if top == 0:
        return np.zeros(len(x))
    shift = top.denominator.bit_length() - top.numerator.bit_length()
    scale = Fraction(2) ** shift
    return np.array([float(v * scale) for v in x])


def _exact_argmin(Z: NDArray[np.float64], x: Sequence[Fraction]) -> tuple[int, Fraction]:
    """The row i minimizing ``Z[i]·x``, and that value, both exact.

    Floats pick the candidates: a float dot product of d terms is within ``(d+1)·eps·Σ|zⱼxⱼ|`` of
    the exact one (plus underflow), so only rows whose float value is that close to the smallest
    can be the minimum; those few are evaluated with fractions.
    """
    xs = _to_float_direction(x)
    s = Z @ xs
    a = np.abs(Z) @ np.abs(xs)
    # Rounding of the products and sums, of x to floats, and underflow of tiny entries.
    err = 2.0 * (Z.shape[1] + 4) * _EPS * a + (np.abs(Z).sum(axis=1) + Z.shape[1]) * 4 * _TINY
    cand = np.flatnonzero(s - err <= np.min(s + err))
    best = min(((_dot(_exact_row(Z[i]), x), int(i)) for i in cand))
    return best[1], best[0]


def _rref(M: list[list[Fraction]], columns: int) -> tuple[list[list[Fraction]], list[int]]:
    """Gauss–Jordan elimination over the rationals of the first ``columns`` columns of ``M``:
    the reduced rows and the pivot columns (one per non-zero row, in order)."""
    M, pivots = [list(row) for row in M], []
    for c in range(columns):
        r = len(pivots)
        p = next((i for i in range(r, len(M)) if M[i][c] != 0), None)
        if p is None:
            continue
        M[r], M[p] = M[p], M[r]
        M[r] = [v / M[r][c] for v in M[r]]
        M = [row if i == r or row[c] == 0 else [a - row[c] * e for a, e in zip(row, M[r])] for i, row in enumerate(M)]
        pivots.append(c)
    return M, pivots


def _solve_exact(A: list[list[Fraction]], rhs: list[Fraction], free: Sequence[Fraction] | None = None):
    """Solve ``A u = rhs`` over the rationals; None when the system is inconsistent. Unknowns left
    free (a singular system) take the values ``free`` (default 0), so that a caller can keep
    them near a float estimate."""
    n = len(A[0]) if A else 0
    M, pivots = _rref([list(row) + [r] for row, r in zip(A, rhs)], n)
    if any(M[i][n] != 0 for i in range(len(pivots), len(M))):
        return None
    u = [Fraction(0)] * n if free is None else [Fraction(v) for v in free]
    for i, c in enumerate(pivots):
        u[c] = M[i][n] - sum((M[i][j] * u[j] for j in range(n) if j not in pivots and M[i][j]), Fraction(0))
    return u


def _affine_minimizer(V: list[Exact]) -> list[Fraction] | None:
    """Weights α, Σα = 1, of the point of the affine hull of the vertices ``V`` nearest 0."""
    m = len(V)
    A = [[_dot(V[i], V[j]) for j in range(m)] + [Fraction(1)] for i in range(m)]
    A.append([Fraction(1)] * m + [Fraction(0)])
    sol = _solve_exact(A, [Fraction(0)] * m + [Fraction(1)])
    return None if sol is None else sol[:m]


def _exact_wolfe(
    lmo: Callable[[Sequence[Fraction]], tuple[Hashable, Fraction]],
    vertex: Callable[[Hashable], Exact],
    start: dict[Hashable, float],
    *,
    max_iter: int,
) -> tuple[Exact, dict[Hashable, Fraction]] | None:
    """Wolfe's algorithm in rational arithmetic, warm-started from a float run's corral.

    ``lmo(x)`` returns the key of a vertex minimizing ``v·x`` and that value, exactly. The loop
    stops at a point x of the hull with ``minᵥ v·x ≥ x·x``, which is the exact optimality
    condition: then x is *the* nearest point (x = 0 means the origin is in the hull). Returns
    ``(x, its convex weights)``, or None if ``max_iter`` major cycles do not reach it.
    """
    lam = {k: Fraction(float(v)) for k, v in start.items() if v > 0}
    if not lam:
        return None
    total = sum(lam.values())
    lam = {k: v / total for k, v in lam.items()}
    verts = {k: vertex(k) for k in lam}
    d = len(next(iter(verts.values())))
    for _ in range(max_iter):
        while True:  # minor cycle: the affine minimizer of the corral, pulled back into its hull
            keys = list(lam)
            alpha = _affine_minimizer([verts[k] for k in keys])
            if alpha is None:  # pragma: no cover - the KKT system of a projection is consistent
                return None
            if all(a > 0 for a in alpha):
                lam = dict(zip(keys, alpha))
                break
            steps = [lam[k] / (lam[k] - a) for k, a in zip(keys, alpha) if a <= 0 and lam[k] - a > 0]
            theta = min(steps, default=Fraction(0))
            moved = {k: (1 - theta) * lam[k] + theta * a for k, a in zip(keys, alpha)}
            lam = {k: v for k, v in moved.items() if v > 0}
        x = tuple(sum((lam[k] * verts[k][j] for k in lam), Fraction(0)) for j in range(d))
        xx = _dot(x, x)
        if xx == 0:
            return x, lam
        key, value = lmo(x)
        if value >= xx:
            return x, lam
        if key in lam:  # pragma: no cover - impossible in exact arithmetic
            return None
        verts[key] = vertex(key)
        lam[key] = Fraction(0)
    return None


def _sqrt_up(q: Fraction) -> float:
    """The smallest float s found with s² ≥ q: an upper bound on √q, certified exactly.

    The square root is taken of ``q/4ʲ`` (near 1) and multiplied by ``2ʲ``, so that a q below
    the float range (γ*² of data near 1e-180) neither becomes 0 nor takes a step per float.
    """
    if q <= 0:
        return 0.0
    j = (q.numerator.bit_length() - q.denominator.bit_length()) // 2
    s = math.ldexp(math.sqrt(float(q / Fraction(4) ** j)), j)  # = √fl(q) wherever fl(q) is normal
    while math.isfinite(s) and Fraction(s) ** 2 < q:
        s = math.nextafter(s, math.inf)
    return s


def _float_down(q: Fraction) -> float:
    """A float ≤ q (the nearest one below or at q)."""
    f = float(q)
    if Fraction(f) > q:
        f = math.nextafter(f, -math.inf)
    return f


@dataclass(frozen=True)
class MaxMargin:
    """The maximum margin γ* of a data set, with a certified interval around it.

    Attributes
    ----------
    gamma : best estimate of γ*: the certified lower bound ``gamma_low``.
    gamma_low, gamma_high : ``gamma_low ≤ γ* ≤ gamma_high``, certified in exact arithmetic.
        ``gamma_low`` is a lower bound on the margin ``minᵢ yᵢ(w·xᵢ + b)/‖w‖`` of the returned
        float ``(w, b)``: the functional margins are computed with fractions and divided by an
        upper bound on ‖w‖. ``gamma_high`` is an upper bound on the norm of a point of the
        convex hull of {yᵢxᵢ} whose weights are known exactly (half the distance between two
        points of the class hulls, with an offset), so γ* cannot exceed it.
    w : unit normal of the maximum-margin separator (floats).
    b : its offset (0 without an offset).
    support : indices of the points whose margin is within 1e-9 relative of γ*.
    offset : whether an offset was allowed.
    gamma_sq_exact : γ*² as a fraction, when the nearest point was found in exact arithmetic
        (on data whose margin floats cannot pin down); else None.
    """

    gamma: float
    gamma_low: float
    gamma_high: float
    w: NDArray[np.float64]
    b: float
    support: NDArray[np.int64]
    offset: bool
    gamma_sq_exact: Fraction | None = None

    @property
    def B(self) -> float:
        """UML's B = min{‖w‖ : yᵢ w·xᵢ ≥ 1 for all i}, which equals 1/γ* (here 1/gamma_low)."""
        return check_finite_result(1.0 / self.gamma, f"B = 1/gamma = 1/{self.gamma:.3g}", _TOO_SMALL)

    @property
    def w_B(self) -> NDArray[np.float64]:
        """``w / gamma_low``: its functional margins are all at least 1 (up to rounding)."""
        with np.errstate(over="ignore"):
            w_B = self.w / self.gamma
        check_finite_result(float(np.max(np.abs(w_B))), f"w/gamma with gamma = {self.gamma:.3g}", _TOO_SMALL)
        return w_B


_TOO_SMALL = "The margin is too small for its reciprocal to be a float; rescale X (γ* scales with X)."


def _certified_margin(Z: NDArray[np.float64], theta: NDArray[np.float64], d: int) -> Fraction:
    """A rational lower bound on ``minᵢ zᵢ·θ / ‖θ[:d]‖`` (exact numerator, norm rounded up)."""
    exact = _exact_row(theta)
    _, low = _exact_argmin(Z, exact)
    norm_sq = _dot(exact[:d], exact[:d])
    if norm_sq == 0:
        return Fraction(-1)
    return low / Fraction(_sqrt_up(norm_sq)) if low > 0 else low


def max_margin(X: ArrayLike, y: ArrayLike, *, offset: bool = False, max_iter: int | None = None) -> MaxMargin:
    """The maximum geometric margin γ* over all separators, with a certified interval.

    Without an offset, γ* = max over unit w of minᵢ yᵢ w·xᵢ: the distance from the origin to the
    convex hull of the yᵢxᵢ. With an offset, the maximum is also over b, and γ* is half the
    distance between the convex hulls of the two classes.

    What is certified: ``gamma_low ≤ γ* ≤ gamma_high`` holds exactly, not up to rounding. The
    lower end is checked in rational arithmetic as a margin of the returned float ``(w, b)``
    (so that separator is a proof that γ* ≥ gamma_low), the upper end as the norm of a point of
    the hull whose convex weights are exact rationals. Wolfe's algorithm in floats finds the
    nearest point; when its interval is wider than 1e-9 relative (tiny margins, where floats
    cannot resolve the nearest point), the run is finished in exact arithmetic, and
    ``gamma_sq_exact`` then holds γ*² exactly.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    offset : allow a separator ``w·x + b = 0`` that misses the origin.
    max_iter : cap on Wolfe's major cycles (in floats, and again in exact arithmetic).

    Raises
    ------
    ValueError
        If the data are not linearly separable in that sense (proved exactly: the origin is in
        the hull); if ``offset=True`` and only one class is present (the margin is then
        unbounded); or if no float separator can be certified (a margin below what floats
        resolve, or an exact run cut off by ``max_iter``): then the message says that the
        question is undecided here, not that the data are inseparable. Also if γ* is below the
        smallest positive float (5e-324), which only data of that size can have.

    Data whose entries are all below 2⁻³⁰⁰ (about 5e-91) are multiplied by a power of two
    ``2ᵏ`` first, exactly, so that no square underflows: γ* scales with the data, and the
    interval found for ``2ᵏX`` is divided by ``2ᵏ`` in exact arithmetic, rounded outwards.
    """
    X, y = check_X_y(X, y)
    n, d = X.shape
    X_given, shift = X, pow2_shift(float(np.max(np.abs(X))), up_only=True)
    if shift:
        X = np.ldexp(X, shift)  # exact: γ*(2ᵏX) = 2ᵏγ*(X), undone below
    back = Fraction(2) ** -shift
    scale = max(radius(X), np.finfo(float).tiny)
    cap = 10 * n + 100 if max_iter is None else max_iter
    if not offset:
        Z = y[:, None] * X
        p, lam_f = min_norm_point(Z, max_iter=cap)
        corral = {int(i): float(v) for i, v in enumerate(lam_f) if v > 0}

        def vertex(key: Hashable) -> Exact:
            return _exact_row(Z[key])

        def lmo(x: Sequence[Fraction]) -> tuple[Hashable, Fraction]:
            return _exact_argmin(Z, x)

        half = Fraction(1)
    else:
        pos, neg = X[y > 0], X[y < 0]
        if len(pos) == 0 or len(neg) == 0:
            raise ValueError(
                "with offset=True both classes (+1 and -1) must be present; with one class the margin is unbounded."
            )

        # Vertices of conv(pos) - conv(neg) are differences p_i - n_j; the best one in a
        # direction x pairs the lowest positive with the highest negative, so none are listed.
        def lmo_f(x: NDArray) -> tuple[tuple[int, int], NDArray]:
            i, j = int(np.argmin(pos @ x)), int(np.argmax(neg @ x))
            return (i, j), pos[i] - neg[j]

        start = lmo_f(pos.mean(0) - neg.mean(0))
        p, corral = _wolfe(lmo_f, start, scale=2 * scale, max_iter=cap)

        def vertex(key: Hashable) -> Exact:
            i, j = key  # type: ignore[misc]
            return tuple(a - b for a, b in zip(_exact_row(pos[i]), _exact_row(neg[j])))

        def lmo(x: Sequence[Fraction]) -> tuple[Hashable, Fraction]:
            i, lo = _exact_argmin(pos, x)
            j, hi = _exact_argmin(-neg, x)
            return (i, j), lo + hi

        half = Fraction(1, 2)
    Zt = y[:, None] * (np.hstack([X, np.ones((n, 1))]) if offset else X)

    def finish(w: NDArray[np.float64]) -> tuple[NDArray[np.float64], float, Fraction]:
        """Unit w, the offset centred between the classes, and the certified margin."""
        w = np.ldexp(w, pow2_shift(float(np.max(np.abs(w)))))  # no underflow of ‖w‖²
        w = w / np.linalg.norm(w)
        b = 0.0
        if offset:
            b = -(float(np.min(pos @ w)) + float(np.max(neg @ w))) / 2
        return w, b, _certified_margin(Zt, np.r_[w, b] if offset else w, d)

    # The float run: its point's exact weights give the upper end, its direction the lower end.
    exact_sq, low = None, Fraction(-1)
    q = _combination({k: Fraction(v) for k, v in corral.items() if v > 0}, vertex)
    high_sq = _dot(q, q) * half * half
    w = b = None
    if np.all(np.isfinite(p)) and np.any(p):
        w, b, low = finish(p)
    if low <= 0 or high_sq > 0 and _sqrt_up(high_sq) - float(low) > 1e-9 * _sqrt_up(high_sq):
        # Floats could not pin γ* down: finish Wolfe's algorithm in rational arithmetic.
        nearest = _exact_wolfe(lmo, vertex, corral, max_iter=cap)
        if nearest is not None:
            exact_sq = _dot(nearest[0], nearest[0]) * half * half
            if exact_sq == 0:
                raise ValueError(
                    "the data are not linearly separable "
                    + ("even with an offset (the two class hulls meet, proved exactly); "
                       "call perceptron_core.separability(X, y, offset=True) for the certificate."
                       if offset else
                       "through the origin (the convex hull of y_i x_i contains 0, proved exactly); "
                       "call perceptron_core.separability(X, y) for the certificate, or try offset=True.")
                )
            high_sq = exact_sq
            w2, b2, low2 = finish(_to_float_direction(nearest[0]))
            if low2 > low:
                w, b, low = w2, b2, low2
    if low <= 0 or w is None:
        bound = f"γ* ≤ {_sqrt_up(high_sq * back * back):.3g}" if high_sq > 0 else "no bound on γ*"
        raise ValueError(
            f"cannot certify a separator in floating point ({bound}): undecided here, which does not "
            "mean inseparable. The margin may be below what floats resolve for these data; "
            f"call perceptron_core.separability(X, y{', offset=True' if offset else ''}) for an exact verdict."
        )
    s = Zt @ (np.r_[w, b] if offset else w)
    support = np.flatnonzero(s <= float(np.min(s)) + 1e-9 * _sqrt_up(high_sq))
    if shift:  # back to the data as given: every bound is scaled exactly, then rounded outwards
        b_given = math.ldexp(float(b), -shift)
        if Fraction(b_given) == Fraction(float(b)) * back:
            low = low * back
        else:  # b rounded (it is below 2⁻¹⁰²²): certify (w, b) on the data as given instead
            Zt_given = y[:, None] * (np.hstack([X_given, np.ones((n, 1))]) if offset else X_given)
            low = _certified_margin(Zt_given, np.r_[w, b_given] if offset else w, d)
        b, high_sq = b_given, high_sq * back * back
        exact_sq = None if exact_sq is None else exact_sq * back * back
    low_f = _float_down(low)
    if not low_f > 0:
        raise ValueError(
            f"the maximum margin of these data is below the smallest positive float (γ* ≤ "
            f"{_sqrt_up(high_sq):.3g}): it cannot be returned as a float. Rescale X, e.g. "
            "X * 2.0**100 (γ* scales with X)."
        )
    return MaxMargin(low_f, low_f, _sqrt_up(high_sq), w, float(b), support, offset, exact_sq)


def _combination(lam: dict[Hashable, Fraction], vertex: Callable[[Hashable], Exact]) -> Exact:
    """The exact point Σ λₖ vₖ / Σ λₖ."""
    total = sum(lam.values(), Fraction(0))
    pts = [(v / total, vertex(k)) for k, v in lam.items()]
    dim = len(pts[0][1])
    return tuple(sum((c * p[j] for c, p in pts), Fraction(0)) for j in range(dim))


@dataclass(frozen=True)
class Separability:
    """The verdict of :func:`separability`, with the evidence for it.

    Attributes
    ----------
    separable : True (a witness was checked exactly), False (a certificate was checked
        exactly), or None: undecided, see ``reason``. Never a guess.
    w, b : a separating hyperplane (``yᵢ (w·xᵢ + b) > 0`` for all i) when separable, else None.
        These are floats; they satisfy the strict inequalities exactly unless the margin is
        below what floats resolve, and then ``w_exact`` still does.
    certificate : when not separable, weights λ ≥ 0 with Σλ = 1 and Σ λᵢyᵢxᵢ = 0 (and, with an
        offset, Σ λᵢyᵢ = 0): Gordan's alternative, which rules out every separator. As floats,
        the nearest ones to ``certificate_exact``. Else None.
    offset : whether an offset was allowed.
    residual : for a certificate, max |Σ λᵢ yᵢ (xᵢ, 1)| of the float λ; for a witness, 0.
    w_exact, b_exact : the witness as fractions (``fractions.Fraction``); the strict
        inequalities hold for them in exact arithmetic.
    certificate_exact : the certificate as fractions; λ ≥ 0, Σλ = 1 and Σ λᵢyᵢxᵢ = 0 (and
        Σ λᵢyᵢ = 0 with an offset) hold exactly.
    reason : why the verdict is None (empty otherwise).
    """

    separable: bool | None
    w: NDArray[np.float64] | None
    b: float | None
    certificate: NDArray[np.float64] | None
    offset: bool
    residual: float = field(default=0.0)
    w_exact: tuple[Fraction, ...] | None = None
    b_exact: Fraction | None = None
    certificate_exact: tuple[Fraction, ...] | None = None
    reason: str = ""

    def verify(self, X: ArrayLike, y: ArrayLike) -> bool:
        """Check the evidence against the data in exact rational arithmetic.

        A witness passes if ``yᵢ (w·xᵢ + b) > 0`` for every i, a certificate if λ ≥ 0, Σλ = 1
        and Σ λᵢ yᵢ xᵢ = 0 (and Σ λᵢ yᵢ = 0 with an offset), all exactly. The exact fields are
        used when present, else the floats themselves (every float is a rational), so a
        certificate built by hand, like λ = (½, ½), can be checked too. An undecided verdict
        has nothing to verify and returns False.
        """
        X, y = check_X_y(X, y)
        n, d = X.shape
        Zt = y[:, None] * (np.hstack([X, np.ones((n, 1))]) if self.offset else X)
        if self.separable:
            if self.w_exact is not None:
                theta = tuple(self.w_exact) + ((Fraction(self.b_exact or 0),) if self.offset else ())
            elif self.w is not None:
                w = np.asarray(self.w, dtype=float).ravel()
                theta = _exact_row(np.r_[w, float(self.b or 0.0)] if self.offset else w)
            else:
                return False
            if len(theta) != Zt.shape[1]:
                return False
            if not self.offset and self.b:
                return False  # a verdict without an offset must not carry one
            return _exact_argmin(Zt, theta)[1] > 0
        if self.separable is None:
            return False
        if self.certificate_exact is not None:
            lam = [Fraction(v) for v in self.certificate_exact]
        elif self.certificate is not None:
            lam = [Fraction(float(v)) for v in np.asarray(self.certificate, dtype=float).ravel()]
        else:
            return False
        if len(lam) != n or any(v < 0 for v in lam) or sum(lam, Fraction(0)) != 1:
            return False
        used = [i for i, v in enumerate(lam) if v]
        rows = {i: _exact_row(Zt[i]) for i in used}
        return all(sum((lam[i] * rows[i][j] for i in used), Fraction(0)) == 0 for j in range(Zt.shape[1]))


def _scaled(Z: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Z with columns scaled to max 1, then rows to norm 1; and the column scales.

    Positive scalings change neither which θ separate (up to the column scales) nor the support
    of a certificate, but they bring the LP's numbers to one size, so its tolerances mean the
    same in every direction.
    """
    col = np.max(np.abs(Z), axis=0)
    col[col == 0] = 1.0
    Zc = Z / col
    rows = row_norms(Zc)
    rows[rows == 0] = 1.0
    return Zc / rows[:, None], col


def _witness_lp(Z: NDArray[np.float64], box: list[tuple[float, float]]) -> NDArray[np.float64] | None:
    from scipy.optimize import linprog  # here: scipy takes a third of a second to import

    n, k = Z.shape
    lp = linprog(
        c=np.r_[np.zeros(k), -1.0],
        A_ub=np.hstack([-Z, np.ones((n, 1))]),
        b_ub=np.zeros(n),
        bounds=box + [(None, 1.0)],
        method="highs",
    )
    if lp.status != 0 or not -lp.fun > 0:
        return None
    return lp.x[:k]


def _certificate_lp(Z: NDArray[np.float64]) -> NDArray[np.float64] | None:
    from scipy.optimize import linprog  # here: scipy takes a third of a second to import

    n, k = Z.shape
    cert = linprog(
        c=np.zeros(n),
        A_eq=np.vstack([Z.T, np.ones((1, n))]),
        b_eq=np.r_[np.zeros(k), 1.0],
        bounds=[(0, None)] * n,
        method="highs",
    )
    return np.clip(cert.x, 0.0, None) if cert.status == 0 else None


def _exact_certificate(Z: NDArray[np.float64], lam: NDArray[np.float64]) -> tuple[Fraction, ...] | None:
    """An exact certificate on the support of an approximate one, or None.

    On the support S, solve Σ_{i∈S} μᵢ zᵢ = 0, Σ μᵢ = 1 in rationals (free unknowns keep their
    float values) and accept μ if it is ≥ 0.
    """
    if lam is None or not np.any(lam > 0):
        return None
    for cut in (1e-12, 1e-9, 1e-6):
        S = np.flatnonzero(lam > cut * np.max(lam))
        rows = [_exact_row(Z[i]) for i in S]
        A = [[rows[s][j] for s in range(len(S))] for j in range(Z.shape[1])] + [[Fraction(1)] * len(S)]
        mu = _solve_exact(A, [Fraction(0)] * Z.shape[1] + [Fraction(1)], free=[Fraction(float(lam[i])) for i in S])
        if mu is not None and all(v >= 0 for v in mu):
            full = [Fraction(0)] * Z.shape[0]
            for i, v in zip(S, mu):
                full[i] = v
            return tuple(full)
    return None


def separability(X: ArrayLike, y: ArrayLike, *, offset: bool = False, max_iter: int | None = None) -> Separability:
    """Decide whether the data are linearly separable, with evidence checked exactly.

    Write zᵢ = yᵢxᵢ (or yᵢ(xᵢ, 1) with an offset). Gordan's alternative: either some θ has
    zᵢ·θ > 0 for all i, or some λ ≥ 0 with Σλ = 1 has Σλᵢzᵢ = 0. The steps, each of whose
    results is checked in rational arithmetic before it is believed:

    1. A linear program (HiGHS) maximizes t subject to ``zᵢ·θ ≥ t`` with θ in a box. If the
       optimal θ satisfies ``zᵢ·θ > 0`` exactly, it is the witness.
    2. Otherwise a second LP finds an approximate certificate λ; on its support the equations
       Σ λᵢzᵢ = 0, Σλᵢ = 1 are solved in rationals, and a solution with λ ≥ 0 is the certificate.
    3. Steps 1–2 again on rescaled data (unit rows), which helps the LP's tolerances.
    4. Wolfe's nearest-point algorithm, finished in exact arithmetic: its exact nearest point
       p of conv{zᵢ} is either 0 (its weights are a certificate) or a witness (zᵢ·p ≥ ‖p‖² > 0).

    If none of them produces exact evidence, the verdict is ``separable=None`` with a reason.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    offset : allow an offset ``b`` (then the certificate says the class hulls intersect).
    max_iter : cap on the major cycles of step 4 (default ``10 n + 100``).

    Returns
    -------
    Separability
    """
    X, y = check_X_y(X, y)
    n, d = X.shape
    Z = y[:, None] * (np.hstack([X, np.ones((n, 1))]) if offset else X)
    shift = pow2_shift(float(np.max(np.abs(X))), up_only=True)
    if shift:
        # Data below 2⁻³⁰⁰ (about 5e-91): decide for 2ᵏX, an exact scaling with the same verdict.
        # (w, b) separates 2ᵏX exactly when (w, 2⁻ᵏb) separates X; a certificate is the same.
        v = separability(np.ldexp(X, shift), y, offset=offset, max_iter=max_iter)
        if v.separable and offset:
            v = replace(v, b=math.ldexp(float(v.b), -shift), b_exact=v.b_exact * Fraction(2) ** -shift)
        elif v.separable is False:
            v = replace(v, residual=float(np.max(np.abs(v.certificate @ Z))))
        return v
    k = Z.shape[1]
    scale = max(radius(X), 1.0)

    def witness(theta: NDArray[np.float64] | None) -> Separability | None:
        if theta is None or not np.all(np.isfinite(theta)) or _exact_argmin(Z, _exact_row(theta))[1] <= 0:
            return None
        ex = _exact_row(theta)
        return Separability(True, theta[:d].copy(), float(theta[d]) if offset else 0.0, None, offset,
                            w_exact=ex[:d], b_exact=ex[d] if offset else Fraction(0))

    def certificate(lam_exact: tuple[Fraction, ...] | None) -> Separability | None:
        if lam_exact is None:
            return None
        lam = np.array([float(v) for v in lam_exact])
        return Separability(False, None, None, lam, offset, float(np.max(np.abs(lam @ Z))),
                            certificate_exact=lam_exact)

    # 1–2: the LPs on the data as given. A separator with |w_j| <= 1 never needs
    # |b| > ‖w‖R <= sqrt(d) R, so this box loses nothing.
    b_max = (np.sqrt(d) + 1.0) * scale
    box = [(-1.0, 1.0)] * d + ([(-b_max, b_max)] if offset else [])
    found = witness(_witness_lp(Z, box)) or certificate(_exact_certificate(Z, _certificate_lp(Z)))
    if found:
        return found
    # 3: rescaled data. θ' separates Z D exactly when θ = D θ' separates Z.
    Zs, col = _scaled(Z)
    theta = _witness_lp(Zs, [(-1.0, 1.0)] * k)
    with np.errstate(over="ignore"):  # tiny columns can make θ overflow: witness() rejects it
        theta = None if theta is None else theta / col
    found = witness(theta) or certificate(_exact_certificate(Z, _certificate_lp(Zs)))
    if found:
        return found
    # 4: the nearest point of conv{z_i} to the origin, found exactly.
    _, lam_f = min_norm_point(Zs)
    nearest = _exact_wolfe(
        lambda x: _exact_argmin(Z, x),
        lambda i: _exact_row(Z[i]),
        {int(i): float(v) for i, v in enumerate(lam_f) if v > 0},
        max_iter=10 * n + 100 if max_iter is None else max_iter,
    )
    if nearest is not None:
        p, weights = nearest
        if all(v == 0 for v in p):
            lam_exact = tuple(weights.get(i, Fraction(0)) for i in range(n))
            return certificate(lam_exact)  # type: ignore[return-value]
        theta = _to_float_direction(p)
        found = witness(theta)
        if found:
            return found
        # The margin is below float resolution: the float θ is only approximate, the rational
        # p is the exact witness (z_i·p >= ‖p‖² > 0 by Wolfe's stopping rule, checked exactly).
        return Separability(True, theta[:d], float(theta[d]) if offset else 0.0, None, offset,
                            w_exact=tuple(p[:d]), b_exact=p[d] if offset else Fraction(0))
    return Separability(
        None, None, None, None, offset,
        reason=("undecided: neither the linear programs nor the exact nearest-point search "
                f"(capped at {10 * n + 100 if max_iter is None else max_iter} cycles) produced "
                "evidence that checks out in exact arithmetic; raise max_iter or rescale the data."),
    )


# ------------------------------------------------------------------------------------------
# Data in the plane: the arc of separators through the origin, and the peak of the margin
# ------------------------------------------------------------------------------------------


def _check_plane(X: ArrayLike, y: ArrayLike, who: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    X, y = check_X_y(X, y)
    if X.shape[1] != 2:
        raise ValueError(
            f"{who} needs points in the plane, X of shape (n, 2); got {X.shape}. In more dimensions the "
            "separators through the origin form a cone, not an arc: use separability or max_margin."
        )
    return X, y


def separator_arc(X: ArrayLike, y: ArrayLike, *, degrees: bool = False) -> tuple[float, float]:
    """The open arc of directions θ whose unit normal ``u_θ = (cos θ, sin θ)`` separates data in
    the plane through the origin: ``yᵢ u_θ·xᵢ > 0`` for every i exactly when ``lo < θ < hi``.

    ``u_θ·zᵢ > 0`` (``zᵢ = yᵢxᵢ``) says that θ lies within a quarter turn of the angle φᵢ of
    ``zᵢ``. When the φᵢ lie in an arc ``[a, b]`` shorter than a half turn, every θ within a quarter
    turn of all of them is ``b − π/2 < θ < a + π/2``; when they do not, no θ is (and the data are
    not separable through the origin). The arc ``[a, b]`` is the complement of the widest gap
    between consecutive angles around the circle.

    Parameters
    ----------
    X : array of shape (n, 2); y : labels ±1 of shape (n,).
    degrees : return the ends in degrees instead of radians.

    Returns
    -------
    (lo, hi) : the ends of the arc, ``lo < hi``, with ``hi − lo < π`` (180°) and the midpoint in
        ``(−π, π]`` (``(−180°, 180°]``): not reduced modulo a turn.

    Raises
    ------
    ValueError
        If the angles of the ``yᵢxᵢ`` span a half turn or more, or a point is the origin: then no
        line through the origin separates the data strictly.
    """
    X, y = _check_plane(X, y, "separator_arc")
    degrees = check_flag(degrees, "degrees")
    Z = y[:, None] * X
    if not np.all(np.any(Z != 0, axis=1)):
        raise ValueError(
            "a point of X is the origin: every line through the origin passes through it, so none "
            "separates the data strictly. Remove it, or allow an offset (max_margin(..., offset=True))."
        )
    phi = np.sort(np.arctan2(Z[:, 1], Z[:, 0]))
    gaps = np.diff(np.r_[phi, phi[0] + 2.0 * math.pi])
    j = int(np.argmax(gaps))  # the widest empty arc runs from phi[j] to the next angle
    if j == len(phi) - 1:
        a, b = float(phi[0]), float(phi[-1])  # the widest gap wraps around: the angles as they are
    else:
        a, b = float(phi[j + 1]), float(phi[j]) + 2.0 * math.pi
    if not b - a < math.pi:
        raise ValueError(
            "the angles of the y_i x_i span a half turn or more: no line through the origin separates "
            "the data strictly (check with separability(X, y)), so there is no arc of separators."
        )
    lo, hi = b - math.pi / 2, a + math.pi / 2
    if (lo + hi) / 2 > math.pi:  # the midpoint in (−π, π]
        lo, hi = lo - 2.0 * math.pi, hi - 2.0 * math.pi
    return (math.degrees(lo), math.degrees(hi)) if degrees else (lo, hi)


@dataclass(frozen=True)
class Peak:
    """The shape of the margin curve ``θ ↦ minᵢ zᵢ·u_θ`` at its maximum θ_opt (:func:`peak`).

    Attributes
    ----------
    theta : θ_opt, in [0, 2π) (or [0°, 360°) when :func:`peak` was asked for degrees).
    gamma : γ*, the height of the peak.
    active : indices of the points closest at θ_opt (margin within ``tol`` of γ*).
    left_slope, right_slope : one-sided derivatives of the curve at θ_opt, per radian. The curve is
        the minimum of the functions ``θ ↦ zᵢ·u_θ``, so its right derivative is the smallest, and
        its left derivative the largest, slope ``zᵢ·u*⊥`` among the active points.
    kind : ``"corner"`` when the slopes have opposite signs (closest points on both sides of
        ``u*``), ``"smooth"`` when both are zero (one closest point, and ``u*`` points at it),
        ``"half-corner"`` in the degenerate case in between.
    """

    theta: float
    gamma: float
    active: NDArray[np.int64]
    left_slope: float
    right_slope: float
    kind: str


def peak(X: ArrayLike, y: ArrayLike, *, tol: float = 1e-9, degrees: bool = False) -> Peak:
    """Classify the peak of the margin curve of data in the plane, separable through the origin.

    The margin of the unit normal ``u_θ`` is ``m(θ) = minᵢ zᵢ·u_θ``, ``zᵢ = yᵢxᵢ``: the lower
    envelope of the cosines ``‖zᵢ‖ cos(θ − φᵢ)``. With one closest point ``zₖ`` the optimum is
    ``u* = zₖ/‖zₖ‖`` and the curve near θ_opt is ``‖zₖ‖ cos(θ − θ_opt)``: a smooth maximum. With
    closest points on both sides of ``u*`` two cosines cross at θ_opt, one rising and one
    falling: a corner.

    Parameters
    ----------
    X, y : data in the plane, shape (n, 2), separable through the origin.
    tol : relative tolerance (> 0) for "closest" and for a slope counting as zero.
    degrees : give θ_opt in degrees (the slopes stay per radian).

    Returns
    -------
    Peak

    Raises
    ------
    ValueError
        If the data are not two-dimensional, or not separable through the origin
        (:func:`max_margin` says which).
    """
    X, y = _check_plane(X, y, "peak")
    tol = check_positive(tol, "tol")
    degrees = check_flag(degrees, "degrees")
    opt = max_margin(X, y)
    Z = y[:, None] * X
    u = opt.w / np.linalg.norm(opt.w)
    perp = np.array([-u[1], u[0]])
    scale = float(np.max(row_norms(Z)))
    active = np.flatnonzero(Z @ u <= opt.gamma + tol * scale)
    slopes = Z[active] @ perp
    left, right = float(slopes.max()), float(slopes.min())
    flat = tol * scale
    if left > flat and right < -flat:
        kind = "corner"
    elif abs(left) <= flat and abs(right) <= flat:
        kind = "smooth"
    else:
        kind = "half-corner"
    theta = float(np.degrees(np.arctan2(u[1], u[0])) % 360.0) if degrees else float(
        np.arctan2(u[1], u[0]) % (2.0 * math.pi))
    return Peak(theta, float(opt.gamma), active, left, right, kind)
