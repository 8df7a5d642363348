"""Data sets for the course: planted margins, logic gates, the worst case, noise and Iris.

Every generator takes a ``seed`` and is deterministic for it, so a page's numbers never drift.
"""

from __future__ import annotations

import csv
import math
from importlib import resources

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import (
    check_count,
    check_nonnegative,
    check_positive,
    check_real,
    check_X,
    check_y,
    pow2_shift,
    safe_limit,
)

__all__ = [
    "planted",
    "logic_gate",
    "xor",
    "orthonormal_worst_case",
    "narrow_wedge",
    "gaussian_clouds",
    "flip_labels",
    "iris",
    "iris_pair",
    "augment",
    "hypercube_small_margin",
    "fibonacci",
    "hypercube_mu",
]

IRIS_SPECIES = ("setosa", "versicolor", "virginica")
IRIS_FEATURES = ("sepal length (cm)", "sepal width (cm)", "petal length (cm)", "petal width (cm)")


# A generator refuses to build more entries than this (800 MB of floats) instead of failing
# inside numpy with a MemoryError.
_MAX_ENTRIES = 10**8


def _check_entries(count: int, what: str) -> None:
    if count > _MAX_ENTRIES:
        raise ValueError(
            f"{what} would hold {count:.3g} numbers, over the limit of {_MAX_ENTRIES:.0e} "
            "(800 MB); ask for fewer points or dimensions."
        )


def _check_seed(seed: object) -> object:
    if isinstance(seed, (bool, np.bool_)) or not (
        seed is None or isinstance(seed, (int, np.integer, np.random.Generator, np.random.SeedSequence))
    ):
        raise TypeError(f"seed must be an int (or None, or a numpy Generator), got {seed!r}.")
    if isinstance(seed, (int, np.integer)) and seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}.")
    return seed


def planted(
    n: int, d: int, gamma: float, R: float = 1.0, *, seed: int = 0
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Separable data whose margin with respect to a planted unit vector u is γ (up to rounding).

    Each point has ``yᵢ u·xᵢ`` drawn uniformly from [γ, R] and a random part orthogonal to u,
    with ``‖xᵢ‖ ≤ R``. Point 0 sits at margin γ and the last point at norm R, so γ and R are
    attained, not just bounds: exactly in real arithmetic, and in floats up to the rounding of
    the operations that build the points (a few units in the last place of R). (The *maximum* margin
    γ* can be larger than γ.)

    Parameters
    ----------
    n : number of points.
    d : dimension.
    gamma : the planted margin, ``0 < γ ≤ R``.
    R : the radius.
    seed : random seed.

    Returns
    -------
    X : array (n, d); y : labels ±1, both classes once n ≥ 2; u : the planted unit vector.
    """
    n, d = check_count(n, "n"), check_count(d, "d")
    _check_entries(n * d, f"planted({n}, {d}, ...)")
    gamma, R = check_positive(gamma, "gamma"), check_positive(R, "R")
    seed = _check_seed(seed)
    if R > safe_limit(n * d):
        raise ValueError(
            f"R={R!r} is so large that squared norms of the {n}x{d} data would overflow; use R <= "
            f"{safe_limit(n * d):.3g} (rescaling R and gamma together gives the same geometry)."
        )
    if gamma > R:
        raise ValueError(f"gamma={gamma} exceeds R={R}: no point of norm <= R can have margin > R. Use gamma <= R.")
    if d == 1 and n == 1 and gamma != R:
        raise ValueError("with d=1 and n=1 the single point has margin = norm, so gamma must equal R.")
    shift = pow2_shift(R, up_only=True)
    if shift:
        # R² would underflow (R near 1e-180): draw the data for 2ᵏR and 2ᵏγ, an exact scaling
        # of the same draws, and scale back (exactly, unless the entries are subnormal).
        X, y, u = planted(n, d, math.ldexp(gamma, shift), math.ldexp(R, shift), seed=seed)
        return np.ldexp(X, -shift), y, u
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    y = rng.choice([-1.0, 1.0], size=n)
    if n >= 2:
        y[0], y[1] = 1.0, -1.0
    along = rng.uniform(gamma, R, size=n)
    along[0] = gamma
    if d == 1:
        along[-1] = R if n > 1 else along[-1]
        ortho = np.zeros((n, 1))
    else:
        # A random direction orthogonal to u, scaled to keep the point inside the ball.
        g = rng.standard_normal((n, d))
        g -= np.outer(g @ u, u)
        g /= np.linalg.norm(g, axis=1, keepdims=True)
        room = np.sqrt(np.maximum(R**2 - along**2, 0.0))
        length = rng.uniform(0.0, 1.0, size=n) * room
        length[-1] = room[-1]
        ortho = g * length[:, None]
    X = (y * along)[:, None] * u + ortho
    return X, y, u


_GATES = {
    "and": [-1, -1, -1, 1],
    "or": [-1, 1, 1, 1],
    "nand": [1, 1, 1, -1],
    "nor": [1, -1, -1, -1],
    "xor": [-1, 1, 1, -1],
}


def logic_gate(name: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The four inputs {0,1}² with a Boolean function's output as ±1 labels.

    ``name`` is one of "and", "or", "nand", "nor", "xor". Rows are (0,0), (0,1), (1,0), (1,1).
    All but XOR are separable with an offset; none is separable through the origin, since
    the point (0, 0) lies on every hyperplane through it.
    """
    key = str(name).lower()
    if key not in _GATES:
        raise ValueError(f"unknown gate {name!r}; choose one of {sorted(_GATES)}.")
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    return X, np.array(_GATES[key], dtype=float)


def xor() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """XOR on {0,1}²: not linearly separable, even with an offset."""
    return logic_gate("xor")


def orthonormal_worst_case(n: int, *, seed: int = 0) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """n points ``yᵢ eᵢ`` with random labels: R = 1 and γ* = 1/√n, so (R/γ*)² = n.

    Every point is orthogonal to all the others, so an update on one never changes the score of
    another, and each point is first met with w·x = 0, a tie. When a tie counts as a mistake
    (``tie="mistake"``, the default) every point costs exactly one mistake and the bound n is met
    with equality; under ``tie="positive"`` only the negative points cost one, under
    ``tie="negative"`` only the positive ones.
    """
    n = check_count(n, "n")
    _check_entries(n * n, f"orthonormal_worst_case({n}), an n x n matrix,")
    y = np.random.default_rng(_check_seed(seed)).choice([-1.0, 1.0], size=n)
    return np.diag(y), y


def narrow_wedge(k: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Two points, ``(1, 1)`` labelled +1 and ``(1 − 2⁻ᵏ, 1)`` labelled −1, through the origin.

    They are separable, but only by directions squeezed between them, so the margin shrinks like
    2⁻ᵏ, exponentially small in the number k of bits of the input; the perceptron's measured
    mistakes double with each extra bit (2^(k+2) + 1 of them).
    """
    k = check_count(k, "k", minimum=0)
    if k > 52:
        # 1 − 2⁻ᵏ rounds to 1 beyond the 52 bits of a float's mantissa: the two points coincide.
        raise ValueError(f"k must be at most 52, got {k}: beyond that 1 - 2**-k rounds to 1 in floating point.")
    return np.array([[1.0, 1.0], [1.0 - 2.0**-k, 1.0]]), np.array([1.0, -1.0])


def gaussian_clouds(
    n: int, distance: float, *, spread: float = 1.0, d: int = 2, seed: int = 0
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Two round Gaussian clouds of n points each, centres ``distance`` apart along the first axis.

    The centres are at ±distance/2 on the first axis, so the clouds overlap when ``distance`` is
    small compared to ``spread``. Labels are +1 for the right-hand cloud. The clouds sit
    symmetrically about the origin, so a separator through the origin is the natural one.
    """
    n, d = check_count(n, "n"), check_count(d, "d")
    _check_entries(2 * n * d, f"gaussian_clouds({n}, ..., d={d})")
    distance, spread = check_nonnegative(distance, "distance"), check_nonnegative(spread, "spread")
    # Points lie within distance/2 + 40·spread of the origin (a normal draw beyond 40 sd has
    # probability below 1e-300), so this keeps every squared norm finite.
    if distance / 2 + 40 * spread > safe_limit(2 * n * d):
        raise ValueError(
            f"distance={distance!r} and spread={spread!r} are so large that squared norms would overflow; "
            f"keep distance/2 + 40*spread below {safe_limit(2 * n * d):.3g} (rescale both together)."
        )
    rng = np.random.default_rng(_check_seed(seed))
    centre = np.zeros(d)
    centre[0] = distance / 2
    X = np.vstack([centre + spread * rng.standard_normal((n, d)), -centre + spread * rng.standard_normal((n, d))])
    y = np.r_[np.ones(n), -np.ones(n)]
    return X, y


def flip_labels(y: ArrayLike, rate: float, *, seed: int = 0) -> NDArray[np.float64]:
    """Label noise: a copy of ``y`` with ``round(rate·n)`` labels, chosen at random, flipped."""
    y = check_y(y)
    rate = check_nonnegative(rate, "rate")
    if rate > 1:
        raise ValueError(f"rate is a fraction of labels and must be in [0, 1], got {rate}.")
    flipped = y.copy()
    idx = np.random.default_rng(_check_seed(seed)).choice(len(y), size=int(round(rate * len(y))), replace=False)
    flipped[idx] *= -1
    return flipped


def iris() -> tuple[NDArray[np.float64], NDArray[np.str_]]:
    """Fisher's Iris data, shipped with the package: 150 rows of 4 measurements, and the species.

    Columns are :data:`IRIS_FEATURES`; species are :data:`IRIS_SPECIES`. See
    ``perceptron_core/datasets/README.md`` for the source.
    """
    with resources.files("perceptron_core").joinpath("datasets/iris.csv").open(newline="") as f:
        rows = list(csv.reader(f))[1:]
    X = np.array([[float(v) for v in r[:4]] for r in rows])
    return X, np.array([r[4] for r in rows])


def iris_pair(
    positive: str, negative: str, features: tuple[int, ...] | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Two Iris species as a ±1 problem: ``positive`` is +1, ``negative`` is −1.

    ``features`` picks columns (e.g. ``(2, 3)`` for the petal measurements); default all four.
    setosa/versicolor is separable; versicolor/virginica is not, even with an offset.
    """
    for s in (positive, negative):
        if not isinstance(s, str) or s not in IRIS_SPECIES:
            raise ValueError(f"unknown species {s!r}; choose from {IRIS_SPECIES}.")
    if positive == negative:
        raise ValueError("positive and negative must be two different species.")
    X, species = iris()
    keep = (species == positive) | (species == negative)
    if isinstance(features, (str, bytes)) or not (features is None or np.iterable(features)):
        raise ValueError(f"features must be a tuple of column indices in 0..3, e.g. (2, 3), got {features!r}.")
    cols = list(range(4)) if features is None else list(features)
    if not cols or any(isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)) or c not in range(4) for c in cols):
        raise ValueError(f"features must be column indices in 0..3, got {features!r}.")
    return X[keep][:, cols], np.where(species[keep] == positive, 1.0, -1.0)


def augment(X: ArrayLike, c: float = 1.0) -> NDArray[np.float64]:
    """The offset trick: append a constant feature ``c`` to every point.

    A separator ``w·x + b`` on ``X`` is the separator ``(w, b/c)`` through the origin on the
    augmented data, so an algorithm without an offset learns one.
    """
    X = check_X(X)
    c = check_real(c, "c")
    if c == 0:
        raise ValueError(f"c must be a finite non-zero constant, got {c!r}; the usual choice is c = 1.")
    if abs(c) > safe_limit(X.size + X.shape[0]):
        raise ValueError(f"c={c!r} is so large that squared norms would overflow; pick c of the size of X, e.g. c = 1.")
    return np.hstack([X, np.full((X.shape[0], 1), c)])


def hypercube_small_margin(n: int) -> tuple[np.ndarray, np.ndarray]:
    r"""n points of {0,1}ⁿ, separable through the origin, with maximum margin about φ⁻ⁿ.

    Point k (k = 1, …, n; row k − 1) is ``x_k = e_k + e_{k−1} + e_{k−3} + e_{k−5} + …``: a 1 in
    coordinate k and in every earlier coordinate of the other parity. Its label is ``(−1)ᵏ``.
    The entries are the floats 0.0 and 1.0, and no offset is needed: ``w*_k = (−1)ᵏ F_{k+1}``
    (Fibonacci numbers, F₁ = F₂ = 1) gives every point the functional margin exactly 1. With
    φ = (1 + √5)/2, the maximum margin through the origin and the radius are

    .. math:: \gamma^* = \frac{1}{\|w^*\|} = \frac{1}{\sqrt{F_{n+1}F_{n+2} - 1}}
              \le \frac{1}{F_{n+1}} \le \varphi^{-(n-1)} = 2^{-0.694\ldots(n-1)},
              \qquad R = \sqrt{1 + \lfloor n/2 \rfloor}.

    This is Balcan's remark that γ can be exponentially small in the dimension n of data in
    {0,1}ⁿ, with only n points.

    Proof. *Upper bound.* Let w satisfy ``y_k w·x_k ≥ 1`` for all k and put ``a_k = (−1)ᵏ w_k``.
    For j of the other parity than k, ``(−1)ᵏ w_j = −a_j``, so constraint k reads
    ``a_k ≥ 1 + a_{k−1} + a_{k−3} + …``. By induction ``a_k ≥ F_{k+1}``, since
    ``F_k + F_{k−2} + … = F_{k+1} − 1`` (every other Fibonacci number, down to F₂ or F₃). So
    ``‖w‖ ≥ |w_n| ≥ F_{n+1}`` and γ* = 1/min‖w‖ ≤ 1/F_{n+1}.
    *Exact value.* ``w* = Σ μ_k y_k x_k`` with the positive weights ``μ_{n−m} = F_{m+1}F_{n+1}``
    (m even) and ``F_m F_{n+2}`` (m odd), by d'Ocagne's identity
    ``F_{n+1}F_{m+1} − F_{n+2}F_m = (−1)ᵐ F_{n+1−m}``. For any w with all ``y_k w·x_k ≥ 1``:
    ``‖w*‖² = Σ μ_k y_k w*·x_k = Σ μ_k ≤ Σ μ_k y_k w·x_k = w*·w ≤ ‖w*‖‖w‖``, so w* has the least
    norm, and ``‖w*‖² = Σ F_{k+1}² = F_{n+1}F_{n+2} − 1``.

    The first argument also bounds the perceptron from below, not only from above: started at
    w = 0 with ties counted as mistakes, its weights stay integer, so when it stops every
    ``y_k w·x_k ≥ 1`` and ``|w_n| ≥ F_{n+1}``. Only point n has a 1 in coordinate n, so it alone
    is misclassified at least F_{n+1} times.

    Parameters
    ----------
    n : the dimension and the number of points, n ≥ 1.

    Returns
    -------
    X : array (n, n) with entries 0.0 and 1.0; y : labels ±1, ``y_k = (−1)ᵏ``.
    """
    n = check_count(n, "n")
    _check_entries(n * n, f"hypercube_small_margin({n}), an n x n matrix,")
    X = np.zeros((n, n))
    for k in range(1, n + 1):
        # Coordinates k, k-1, k-3, ... (1-based): the point's own and the earlier ones of the
        # other parity, whose weights have the other sign and so all push the same way.
        X[k - 1, k - 1] = 1.0
        if k >= 2:
            X[k - 1, k - 2 :: -2] = 1.0
    y = np.array([(-1.0) ** k for k in range(1, n + 1)])
    return X, y


def fibonacci(m: int) -> int:
    """The Fibonacci number ``F_m`` (``F_0 = 0``, ``F_1 = F_2 = 1``), as an exact Python int."""
    m = check_count(m, "m", minimum=0)
    a, b = 0, 1
    for _ in range(m):
        a, b = b, a + b
    return a


def hypercube_mu(n: int) -> list[int]:
    """How often the perceptron updates on each point of :func:`hypercube_small_margin` ``(n)``.

    ``μ_n = F_{n+1}`` and ``μ_i = F_{i+1} + μ_{i+1} + μ_{i+3} + ⋯`` (the later points of the
    other parity). They are the coefficients of the Fibonacci separator
    ``w* = ((−1)ʲ F_{j+1})_j`` in the basis ``yᵢxᵢ``, ``w* = Σ μᵢ yᵢxᵢ``, and the perceptron
    started at 0, with ties counted as mistakes, updates exactly ``μᵢ`` times on point i, in any
    order of presentation (the convergence chapter's proposition); in all
    ``Σ μᵢ = F_{n+1}F_{n+2} − 1`` mistakes, which is ``(1/γ*)²``.

    Parameters
    ----------
    n : the dimension, ≥ 1.

    Returns
    -------
    list of n exact ints; entry ``i − 1`` is ``μᵢ``.
    """
    n = check_count(n, "n")
    mu = [0] * (n + 1)  # 1-based
    for i in range(n, 0, -1):
        mu[i] = fibonacci(i + 1) + sum(mu[j] for j in range(i + 1, n + 1, 2))
    return mu[1:]
