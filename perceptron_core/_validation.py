"""Checks run at every public boundary, so that bad input fails early with a message that says
what is wrong and how to fix it, instead of deep inside an algorithm."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray


def check_X(X: ArrayLike, *, name: str = "X") -> NDArray[np.float64]:
    """Return ``X`` as a finite, non-empty 2-D float array."""
    try:
        arr = np.asarray(X, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric, array-like of shape (n_samples, n_features): {exc}") from None
    if arr.ndim == 1:
        raise ValueError(
            f"{name} is 1-D with shape {arr.shape}; it must be 2-D of shape (n_samples, n_features). "
            f"Use {name}.reshape(-1, 1) for a single feature or {name}.reshape(1, -1) for a single sample."
        )
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D of shape (n_samples, n_features), got {arr.ndim}-D shape {arr.shape}.")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}); pass at least one sample with at least one feature.")
    if not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(
            f"{name} contains NaN or inf (first at row {bad[0]}, column {bad[1]}); "
            "remove or impute those entries before fitting."
        )
    return arr


def check_y(y: ArrayLike, n_samples: int | None = None) -> NDArray[np.float64]:
    """Return labels as a 1-D float array of ±1, with the length of ``X`` if given."""
    arr = np.asarray(y)
    if arr.ndim != 1:
        arr = np.squeeze(arr)
        if arr.ndim != 1:
            raise ValueError(f"y must be 1-D of shape (n_samples,), got shape {np.shape(y)}.")
    if arr.size == 0:
        raise ValueError("y is empty; pass one label (+1 or -1) per sample.")
    if n_samples is not None and arr.shape[0] != n_samples:
        raise ValueError(
            f"X has {n_samples} samples but y has {arr.shape[0]} labels; pass exactly one label per row of X."
        )
    try:
        arr = arr.astype(float)
    except (TypeError, ValueError):
        raise ValueError(
            f"labels must be +1 or -1, got values of type {arr.dtype}; map your classes to ±1, "
            "e.g. np.where(y == positive_class, 1, -1)."
        ) from None
    if not np.all(np.isfinite(arr)):
        raise ValueError("y contains NaN or inf; every label must be +1 or -1.")
    labels = set(np.unique(arr).tolist())
    if not labels <= {-1.0, 1.0}:
        hint = (
            " Your labels look like {0, 1}: convert them with y = 2*y - 1."
            if labels <= {0.0, 1.0}
            else " Map your classes to ±1, e.g. np.where(y == positive_class, 1, -1)."
        )
        shown = sorted(labels)[:5]
        raise ValueError(f"labels must be +1 or -1, got {shown}.{hint}")
    return arr


def check_X_y(X: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate a labelled data set: finite 2-D ``X`` and ±1 labels of matching length."""
    X_arr = check_X(X)
    return X_arr, check_y(y, X_arr.shape[0])


def check_positive(value: float, name: str) -> float:
    """Return ``value`` as a float, or raise unless it is finite and strictly positive."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number, got {value!r}.") from None
    if not np.isfinite(v) or v <= 0:
        raise ValueError(
            f"{name} must be finite and > 0, got {value!r}. A margin or radius of zero makes the bound "
            "meaningless; for data that only touch the separator, there is no positive margin to use."
        )
    return v


def check_nonnegative(value: float, name: str) -> float:
    """Return ``value`` as a float, or raise unless it is finite and ≥ 0."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a non-negative number, got {value!r}.") from None
    if not np.isfinite(v) or v < 0:
        raise ValueError(f"{name} must be finite and >= 0, got {value!r}.")
    return v


def check_vector(v: ArrayLike, dim: int, name: str) -> NDArray[np.float64]:
    """Return ``v`` as a finite 1-D float array of length ``dim``."""
    arr = np.asarray(v, dtype=float)
    if arr.ndim != 1 or arr.shape[0] != dim:
        raise ValueError(f"{name} must be a 1-D vector of length {dim} (one entry per feature), got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or inf; pass a finite vector.")
    return arr


def check_max_epochs(max_epochs: int) -> int:
    """Return ``max_epochs`` as a positive int; a cap is what stops non-separable runs."""
    if isinstance(max_epochs, bool) or not isinstance(max_epochs, (int, np.integer)) or max_epochs < 1:
        raise ValueError(
            f"max_epochs must be a positive integer, got {max_epochs!r}. It is the cap that stops the run "
            "on data that cannot be separated."
        )
    return int(max_epochs)
