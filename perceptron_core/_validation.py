"""Checks run at every public boundary, so that bad input fails early with a message that says
what is wrong and how to fix it, instead of deep inside an algorithm.

Wrong kinds of values (complex numbers, strings, booleans, arbitrary objects) raise
``TypeError``; right kinds with wrong shapes or values (NaN, a 3-D array, labels {0, 1},
magnitudes that would overflow) raise ``ValueError``. Nothing is cast silently.

Why an upper limit on entries and none below: an entry above :func:`safe_limit` makes a squared
norm overflow to inf, which no later step can repair; a tiny entry (1e-200) is a float like any
other, runs treat it as floats do, and the norms below rescale by a power of two (exact) so that
its square does not underflow to 0.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "safe_limit",
    "check_magnitude",
    "check_X",
    "check_y",
    "check_X_y",
    "check_real",
    "check_positive",
    "check_nonnegative",
    "check_probability",
    "check_finite_result",
    "check_vector",
    "check_flag",
    "check_max_epochs",
    "check_count",
    "pow2_shift",
    "vector_norm",
    "row_norms",
    "unit_vector",
    "scaled_margins",
]

_FLOAT_MAX = float(np.finfo(float).max)
# What a plain cast would do to each kind of array that is not numbers, and what to do instead.
_NOT_NUMBERS = {
    "c": "complex numbers; the perceptron works on real numbers. Pass np.real({0}) if the imaginary "
         "parts are zero, or split real and imaginary parts into separate features",
    "b": "booleans; pass numbers, e.g. {0}.astype(float) for 0/1 features",
    "U": "text; pass numbers, e.g. np.asarray({0}, float)",
    "S": "text; pass numbers, e.g. np.asarray({0}, float)",
    "m": "times; pass plain numbers",
    "M": "dates; pass plain numbers",
    "V": "a structured array; pass a plain numeric array",
}


def _as_real_array(value: Any, name: str, what: str) -> NDArray[np.float64]:
    """``value`` as a float array, refusing every input that a plain cast would mangle."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be {what}, got the string {value!r}; pass numbers, not text.")
    try:
        arr = np.asarray(value)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{name} must be {what}, but it is ragged (rows of different lengths): {exc}. "
                         "Give every row the same number of entries.") from None
    if arr.dtype.kind in _NOT_NUMBERS:
        raise TypeError(f"{name} holds {_NOT_NUMBERS[arr.dtype.kind].format(name)} (dtype {arr.dtype}).")
    if arr.dtype.kind == "O":
        for v in arr.flat:
            if isinstance(v, bool) or not isinstance(v, numbers.Real):
                raise TypeError(f"{name} contains {v!r} of type {type(v).__name__}; every entry must be a real number.")
    try:
        return np.asarray(arr, dtype=float)
    except (OverflowError, TypeError, ValueError) as exc:  # e.g. an int too large for a float
        raise ValueError(f"{name} must be {what}; converting it to float failed: {exc}.") from None


def safe_limit(n_entries: int) -> float:
    """Largest entry magnitude for which no sum of squares of ``n_entries`` entries overflows:
    with ``max|xᵢⱼ| ≤ sqrt(float max / (n·d))`` every ‖xᵢ‖², R² and dot product is finite."""
    return math.sqrt(_FLOAT_MAX / max(int(n_entries), 1))


def check_magnitude(arr: NDArray, name: str, n_entries: int | None = None) -> NDArray:
    """Raise unless every entry of ``arr`` is finite and below :func:`safe_limit`."""
    if arr.size == 0:
        return arr
    limit = safe_limit(arr.size if n_entries is None else n_entries)
    biggest = float(np.max(np.abs(arr)))  # NaN if any entry is NaN
    if not biggest <= limit:
        if not np.all(np.isfinite(arr)):
            bad = np.argwhere(~np.isfinite(arr))[0].tolist()
            raise ValueError(f"{name} contains NaN or inf (first at index {bad}); remove or impute those "
                             "entries before fitting.")
        raise ValueError(
            f"{name} has entries as large as {biggest:.3g}, above the safe limit {limit:.3g} "
            f"(sqrt of the float maximum over the {arr.size} entries): norms, R² and the perceptron's "
            f"weights would overflow to inf. Rescale {name}, e.g. {name} / np.abs({name}).max()."
        )
    return arr


def check_X(X: ArrayLike, *, name: str = "X") -> NDArray[np.float64]:
    """Return ``X`` as a finite, non-empty 2-D float array whose norms cannot overflow."""
    arr = _as_real_array(X, name, "a real 2-D array of shape (n_samples, n_features)")
    if arr.ndim != 2:
        hint = {0: "Wrap a single number as [[x]].",
                1: f"Use {name}.reshape(-1, 1) for a single feature or {name}.reshape(1, -1) for a single sample."}
        raise ValueError(f"{name} must be 2-D of shape (n_samples, n_features), got {arr.ndim}-D shape "
                         f"{arr.shape}. " + hint.get(arr.ndim, f"Reshape it, e.g. {name}.reshape(len({name}), -1)."))
    if arr.size == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}); pass at least one sample with at least one feature.")
    return check_magnitude(arr, name)


def check_y(y: ArrayLike, n_samples: int | None = None, *, name: str = "y") -> NDArray[np.float64]:
    """Return labels as a 1-D float array of ±1, with the length of ``X`` if given."""
    hint = " Map your classes to ±1, e.g. np.where(y == positive_class, 1, -1)."
    if isinstance(y, (str, bytes)):
        raise ValueError(f"{name} must be an array of labels +1 or -1, got the string {y!r}.")
    try:
        arr = np.asarray(y)
    except ValueError as exc:
        raise ValueError(f"{name} must be a flat array of labels +1 or -1, but it is ragged: {exc}.") from None
    arr = np.squeeze(arr) if arr.ndim != 1 else arr
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D of shape (n_samples,), got shape {np.shape(y)}; pass one label per "
                         f"sample, e.g. np.ravel({name}).")
    if arr.size == 0:
        raise ValueError(f"{name} is empty; pass one label (+1 or -1) per sample.")
    if n_samples is not None and arr.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} samples but {name} has {arr.shape[0]} labels; pass exactly one "
                         "label per row of X.")
    if arr.dtype.kind == "b":
        raise ValueError(f"labels must be +1 or -1, got booleans; convert them with y = np.where({name}, 1, -1).")
    if arr.dtype.kind not in "iuf":
        shown = sorted({str(v) for v in arr.tolist()})[:5]
        raise ValueError(f"labels must be +1 or -1, got values of type {arr.dtype}: {shown}.{hint}")
    arr = arr.astype(float)
    found = set(np.unique(arr).tolist())
    if not found <= {-1.0, 1.0}:
        if found <= {0.0, 1.0}:
            hint = " Your labels look like {0, 1}: convert them with y = 2*y - 1."
        raise ValueError(f"labels must be +1 or -1, got {sorted(found)[:5]}.{hint}")
    return arr


def check_X_y(X: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate a labelled data set: finite 2-D ``X`` and ±1 labels of matching length."""
    X_arr = check_X(X)
    return X_arr, check_y(y, X_arr.shape[0])


def _real_scalar(value: Any, name: str, what: str) -> float:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what}, got {value!r} of type {type(value).__name__}.")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be {what}, got {value!r}, too large for a float.") from None


def check_real(value: float, name: str) -> float:
    """Return ``value`` as a finite float; booleans, text and complex numbers are refused."""
    v = _real_scalar(value, name, "a real number")
    if not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {value!r}.")
    return v


def check_positive(value: float, name: str) -> float:
    """Return ``value`` as a float, or raise unless it is finite and strictly positive."""
    v = _real_scalar(value, name, "a positive number")
    if not (0 < v < math.inf):
        raise ValueError(
            f"{name} must be finite and > 0, got {value!r}. A margin or radius of zero makes the bound "
            "meaningless; for data that only touch the separator, there is no positive margin to use."
        )
    return v


def check_nonnegative(value: float, name: str) -> float:
    """Return ``value`` as a float, or raise unless it is finite and ≥ 0."""
    v = _real_scalar(value, name, "a non-negative number")
    if not (0 <= v < math.inf):
        raise ValueError(f"{name} must be finite and >= 0, got {value!r}.")
    return v


def check_probability(value: float, name: str) -> float:
    """Return ``value`` as a float, or raise unless it lies strictly between 0 and 1."""
    v = _real_scalar(value, name, "a number in (0, 1)")
    if not (0 < v < 1):
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}; e.g. {name}=0.05.")
    return v


def check_finite_result(value: float, what: str, fix: str) -> float:
    """Raise instead of returning inf or NaN from a formula whose inputs were finite."""
    if not math.isfinite(value):
        raise ValueError(f"{what} is {value} in floating point: it overflows the float range. {fix}")
    return value


def check_vector(v: ArrayLike, dim: int, name: str) -> NDArray[np.float64]:
    """Return ``v`` as a finite 1-D float array of length ``dim``."""
    arr = _as_real_array(v, name, f"a real vector of length {dim}")
    if arr.ndim != 1 or arr.shape[0] != dim:
        raise ValueError(f"{name} must be a 1-D vector of length {dim} (one entry per feature), got shape {arr.shape}.")
    return check_magnitude(arr, name)


def check_flag(value: Any, name: str) -> bool:
    """Return ``value`` as a bool; only True/False (or numpy booleans) are accepted."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r} of type {type(value).__name__}.")
    return bool(value)


def check_count(value: Any, name: str, minimum: int = 1, why: str = "") -> int:
    """Return ``value`` as an int of at least ``minimum``; booleans and floats are refused."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < minimum:
        kind = "a positive integer" if minimum == 1 else f"an integer of at least {minimum}"
        raise ValueError(f"{name} must be {kind}, got {value!r}{why or f'; e.g. {name}={max(minimum, 2)}'}.")
    return int(value)


def check_max_epochs(max_epochs: int) -> int:
    """Return ``max_epochs`` as a positive int; a cap is what stops non-separable runs."""
    return check_count(max_epochs, "max_epochs", why=". It is the cap that stops the run on data that cannot "
                       "be separated")


# ---------------------------------------------------------------------------------------------
# Scale. A float squared underflows to 0 below about 1e-154 and overflows above about 1e154, so
# a norm computed as √(Σ vⱼ²) is 0 or inf for vectors that are not. A vector whose largest entry
# lies outside [2⁻³⁰⁰, 2³⁰⁰] is first multiplied by the power of two that brings that entry into
# [½, 1): exact, and undone exactly on the result. Inside the band nothing is rescaled, so
# results there are bit for bit those of the plain formulas.
# ---------------------------------------------------------------------------------------------

_BAND_LOW, _BAND_HIGH = 2.0**-300, 2.0**300


def pow2_shift(top: float, *, up_only: bool = False) -> int:
    """The k for which ``top·2ᵏ`` lies in [½, 1), or 0 when ``top`` is 0 or already in the band
    [2⁻³⁰⁰, 2³⁰⁰] (or, with ``up_only``, whenever ``top`` is at least 2⁻³⁰⁰)."""
    top = abs(float(top))
    if top == 0.0 or not math.isfinite(top) or _BAND_LOW <= top <= _BAND_HIGH or (up_only and top > _BAND_HIGH):
        return 0
    return -math.frexp(top)[1]


def row_norms(A: ArrayLike) -> NDArray[np.float64]:
    """The norm of each row of a 2-D array, without underflow or overflow on the way."""
    A = np.asarray(A, dtype=float)
    top = np.max(np.abs(A), axis=-1)
    k = np.where((top > 0) & ((top < _BAND_LOW) | (top > _BAND_HIGH)), -np.frexp(top)[1], 0)
    return np.ldexp(np.linalg.norm(np.ldexp(A, k[..., None]), axis=-1), -k)


def vector_norm(v: ArrayLike) -> float:
    """‖v‖ without underflow or overflow on the way (inf only when ‖v‖ itself is beyond floats)."""
    v = np.asarray(v, dtype=float)
    return float(row_norms(v[None, :])[0]) if v.size else 0.0


def unit_vector(v: ArrayLike, name: str) -> NDArray[np.float64]:
    """``v/‖v‖`` for any finite non-zero ``v``, however small or large its entries."""
    v = np.asarray(v, dtype=float)
    if not np.any(v):
        raise ValueError(f"{name} is the zero vector, which has no direction; pass a non-zero vector.")
    v = np.ldexp(v, pow2_shift(float(np.max(np.abs(v)))))
    return v / np.linalg.norm(v)


def scaled_margins(X: NDArray, y: NDArray, w: NDArray, b: float = 0.0, name: str = "w") -> NDArray[np.float64]:
    """``yᵢ (w·xᵢ + b)/‖w‖`` for validated ``X``, ``y``, ``w`` and a finite ``b``; a zero ``w``
    (named ``name`` in the error) is refused.

    ``w`` and ``b`` are first scaled together by a power of two (exact, and the margins do not
    change), so that a ``w`` near 1e-305 still has the margins of ``w/‖w‖``. Raises a ValueError
    when a margin itself lies beyond the float range.
    """
    if not np.any(w):
        raise ValueError(f"{name} is the zero vector, which has no direction (no hyperplane); pass a non-zero "
                         "vector (its length does not matter).")
    k = pow2_shift(float(np.max(np.abs(w))))
    with np.errstate(over="ignore", invalid="ignore"):
        w, b = np.ldexp(w, k), np.ldexp(b, k)  # b may overflow: refused below
        out = y * (X @ w + b) / np.linalg.norm(w)
    if not np.all(np.isfinite(out)):
        raise ValueError("the margins (w·x + b)/‖w‖ exceed the float range: these distances are not floats. "
                         "Rescale X and b together (margins scale with them), or check that w is not far "
                         "smaller than b.")
    return out
