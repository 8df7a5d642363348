"""Margins, the radius R, the maximum margin γ*, and the separability test.

Two facts organize this module. With ``zᵢ = yᵢxᵢ``:

* Through the origin, γ* = max over unit w of minᵢ zᵢ·w is the distance from the origin to the
  convex hull of the zᵢ (when the data are separable). So any point p of that hull gives an
  upper bound ‖p‖ ≥ γ*, and any unit w a lower bound minᵢ zᵢ·w ≤ γ*: at the nearest point the
  two meet. :func:`max_margin` returns both, a certified interval around γ*.
* Gordan's alternative: either some w has zᵢ·w > 0 for all i (separable), or some λ ≥ 0 with
  Σλᵢ = 1 has Σλᵢzᵢ = 0 (a certificate that no separator exists). Never both.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog

from ._validation import check_X, check_X_y, check_vector

__all__ = [
    "margins",
    "dataset_margin",
    "radius",
    "min_norm_point",
    "MaxMargin",
    "max_margin",
    "Separability",
    "separability",
]


def _check_w(w: ArrayLike, d: int) -> NDArray[np.float64]:
    w = check_vector(w, d, "w")
    if not np.any(w):
        raise ValueError("w is the zero vector, which defines no hyperplane; pass a non-zero w.")
    return w


def margins(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0) -> NDArray[np.float64]:
    """Signed geometric margins ``yᵢ (w·xᵢ + b) / ‖w‖`` of the points.

    Positive means on the correct side, and the value is the distance to the hyperplane
    ``w·x + b = 0``. It does not change when ``(w, b)`` is scaled by a positive number.
    """
    X, y = check_X_y(X, y)
    w = _check_w(w, X.shape[1])
    return y * (X @ w + float(b)) / np.linalg.norm(w)


def dataset_margin(X: ArrayLike, y: ArrayLike, w: ArrayLike, b: float = 0.0) -> float:
    """Margin of a data set with respect to a separator: the smallest point margin."""
    return float(np.min(margins(X, y, w, b)))


def radius(X: ArrayLike) -> float:
    """R = max ‖xᵢ‖, the radius of the smallest origin-centred ball holding the data."""
    X = check_X(X)
    return float(np.max(np.linalg.norm(X, axis=1)))


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
    """
    P = check_X(P, name="P")
    m = P.shape[0]
    scale = max(float(np.max(np.linalg.norm(P, axis=1))), np.finfo(float).tiny)
    j0 = int(np.argmin(np.einsum("ij,ij->i", P, P)))

    def lmo(x: NDArray) -> tuple[int, NDArray]:
        j = int(np.argmin(P @ x))
        return j, P[j]

    point, lam = _wolfe(lmo, (j0, P[j0]), scale=scale, max_iter=max_iter or 10 * m + 100)
    weights = np.zeros(m)
    for j, l in lam.items():
        weights[j] = l
    return point, weights


@dataclass(frozen=True)
class MaxMargin:
    """The maximum margin γ* of a data set, with a certified interval around it.

    Attributes
    ----------
    gamma : best estimate of γ* (the certified lower bound: the margin ``w, b`` achieve).
    gamma_low, gamma_high : ``gamma_low ≤ γ* ≤ gamma_high`` (up to rounding, which can make them
        swap by an ulp when they meet). The lower end is the margin of the
        returned separator; the upper end is the norm of a point of the convex hull of {yᵢxᵢ}
        (half the distance between the two class hulls with an offset).
    w : unit normal of the maximum-margin separator.
    b : its offset (0 without an offset).
    support : indices of the points whose margin is within 1e-9 relative of γ*.
    offset : whether an offset was allowed.
    """

    gamma: float
    gamma_low: float
    gamma_high: float
    w: NDArray[np.float64]
    b: float
    support: NDArray[np.int64]
    offset: bool

    @property
    def B(self) -> float:
        """UML's B = min{‖w‖ : yᵢ w·xᵢ ≥ 1 for all i}, which equals 1/γ*."""
        return 1.0 / self.gamma

    @property
    def w_B(self) -> NDArray[np.float64]:
        """The vector attaining B: ``w / γ*``, so that ``minᵢ yᵢ w_B·xᵢ = 1``."""
        return self.w / self.gamma


def max_margin(X: ArrayLike, y: ArrayLike, *, offset: bool = False, max_iter: int | None = None) -> MaxMargin:
    """The maximum geometric margin γ* over all separators, with a certified interval.

    Without an offset, γ* = max over unit w of minᵢ yᵢ w·xᵢ. With an offset, the maximum is also
    over b, and γ* is half the distance between the convex hulls of the two classes.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    offset : allow a separator ``w·x + b = 0`` that misses the origin.
    max_iter : cap on Wolfe's major cycles.

    Raises
    ------
    ValueError
        If the data are not linearly separable (in that sense), or if ``offset=True`` and only
        one class is present (the margin is then unbounded).
    """
    X, y = check_X_y(X, y)
    n = X.shape[0]
    scale = max(radius(X), np.finfo(float).tiny)
    cap = max_iter or 10 * n + 100
    if not offset:
        Z = y[:, None] * X
        p, _ = min_norm_point(Z, max_iter=cap)
        high = float(np.linalg.norm(p))
        if high <= 1e-12 * scale:
            raise ValueError(
                "the data are not linearly separable through the origin (the convex hull of y_i x_i contains 0); "
                "call perceptron_core.separability(X, y) for the certificate, or try offset=True."
            )
        w = p / high
        s = Z @ w
        low, b = float(np.min(s)), 0.0
    else:
        pos, neg = X[y > 0], X[y < 0]
        if len(pos) == 0 or len(neg) == 0:
            raise ValueError(
                "with offset=True both classes (+1 and -1) must be present; with one class the margin is unbounded."
            )

        # Vertices of conv(pos) - conv(neg) are differences p_i - n_j; the best one in a
        # direction x pairs the lowest positive with the highest negative, so none are listed.
        def lmo(x: NDArray) -> tuple[tuple[int, int], NDArray]:
            i, j = int(np.argmin(pos @ x)), int(np.argmax(neg @ x))
            return (i, j), pos[i] - neg[j]

        start = lmo(pos.mean(0) - neg.mean(0))
        p, _ = _wolfe(lmo, start, scale=2 * scale, max_iter=cap)
        dist = float(np.linalg.norm(p))
        if dist <= 1e-12 * scale:
            raise ValueError(
                "the data are not linearly separable even with an offset (the two class hulls meet); "
                "call perceptron_core.separability(X, y, offset=True) for the certificate."
            )
        w = p / dist
        top_neg, low_pos = float(np.max(neg @ w)), float(np.min(pos @ w))
        b = -(low_pos + top_neg) / 2
        high = dist / 2
        s = y * (X @ w + b)
        low = float(np.min(s))
    if low <= 0:
        raise ValueError("the data are not linearly separable; call perceptron_core.separability for the certificate.")
    support = np.flatnonzero(s <= low + 1e-9 * high)
    return MaxMargin(low, low, high, w, b, support, offset)


@dataclass(frozen=True)
class Separability:
    """The verdict of :func:`separability`, with the evidence for it.

    Attributes
    ----------
    separable : whether a separator exists.
    w, b : a separating hyperplane (``yᵢ (w·xᵢ + b) > 0`` for all i) when separable, else None.
    certificate : when not separable, weights λ ≥ 0 with Σλ = 1 and Σ λᵢyᵢxᵢ = 0 (and, with an
        offset, Σ λᵢyᵢ = 0): Gordan's alternative, which rules out every separator. Else None.
    offset : whether an offset was allowed.
    residual : for a certificate, max |Σ λᵢ yᵢ (xᵢ, 1)|; for a witness, 0.
    """

    separable: bool
    w: NDArray[np.float64] | None
    b: float | None
    certificate: NDArray[np.float64] | None
    offset: bool
    residual: float = field(default=0.0)

    def verify(self, X: ArrayLike, y: ArrayLike, *, tol: float = 1e-9) -> bool:
        """Check the evidence numerically against the data it came from."""
        X, y = check_X_y(X, y)
        if self.separable:
            return bool(np.all(y * (X @ self.w + self.b) > 0))
        lam = self.certificate
        Zt = y[:, None] * (np.hstack([X, np.ones((len(y), 1))]) if self.offset else X)
        scale = max(radius(X), 1.0)
        return bool(
            lam.shape == y.shape
            and np.all(lam >= -tol)
            and abs(lam.sum() - 1) <= tol
            and np.max(np.abs(lam @ Zt)) <= tol * scale
        )


def separability(X: ArrayLike, y: ArrayLike, *, offset: bool = False) -> Separability:
    """Decide whether the data are linearly separable, by linear programming (HiGHS).

    First it maximizes t subject to ``yᵢ (w·xᵢ + b) ≥ t`` with ``w`` in a box: t > 0 means a
    separator exists, and the optimal ``(w, b)`` is returned as the witness. Otherwise a second
    LP finds Gordan's certificate: λ ≥ 0, Σλ = 1, Σ λᵢyᵢxᵢ = 0 (and Σ λᵢyᵢ = 0 with an offset).

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,) with entries ±1
    offset : allow an offset ``b`` (then the certificate says the class hulls intersect).

    Returns
    -------
    Separability
    """
    X, y = check_X_y(X, y)
    n, d = X.shape
    Z = y[:, None] * (np.hstack([X, np.ones((n, 1))]) if offset else X)
    k = Z.shape[1]
    scale = max(radius(X), 1.0)
    # Variables (theta, t): minimize -t subject to t - z_i·theta <= 0, theta in a box, t <= 1.
    # A separator with |w_j| <= 1 never needs |b| > ‖w‖R <= sqrt(d) R, so this box loses nothing.
    b_max = (np.sqrt(d) + 1.0) * scale
    box = [(-1.0, 1.0)] * d + ([(-b_max, b_max)] if offset else [])
    lp = linprog(
        c=np.r_[np.zeros(k), -1.0],
        A_ub=np.hstack([-Z, np.ones((n, 1))]),
        b_ub=np.zeros(n),
        bounds=box + [(None, 1.0)],
        method="highs",
    )
    if lp.status == 0 and -lp.fun > 1e-10 * scale:
        theta = lp.x[:k]
        if np.all(Z @ theta > 0):
            return Separability(True, theta[:d].copy(), float(theta[d]) if offset else 0.0, None, offset)
    cert = linprog(
        c=np.zeros(n),
        A_eq=np.vstack([Z.T, np.ones((1, n))]),
        b_eq=np.r_[np.zeros(k), 1.0],
        bounds=[(0, None)] * n,
        method="highs",
    )
    if cert.status != 0:  # pragma: no cover - one of the two LPs must succeed (Gordan)
        raise RuntimeError(f"neither LP succeeded ({lp.message}; {cert.message}); the data may be badly scaled.")
    lam = np.clip(cert.x, 0.0, None)
    lam = lam / lam.sum()
    return Separability(False, None, None, lam, offset, float(np.max(np.abs(lam @ Z))))
