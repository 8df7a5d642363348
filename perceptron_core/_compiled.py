"""The inner loops of the perceptron and the Margin Perceptron, compiled by numba where numba
is installed.

Each loop is written once, as plain Python over scalars, in the order of the pseudocode. On its
first call numba compiles it (or loads the machine code it cached on disk, in ``__pycache__``
beside this file, or in a user-wide cache when that folder is read-only); without numba the
very same function runs as Python, slowly on big data but with the same result. numba is
imported at that first call, not at ``import perceptron_core``: importing it and loading the
loop take about half a second, which a reader who only draws figures never pays.

Every sign is exact. A float score farther from 0 than its rounding error can reach is trusted;
a nearer one is not decided here: the loop returns :data:`SIGN_NEEDED` with its whole state
saved, the caller decides that row in rational arithmetic, and calls the loop again to go on.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from . import _signs

__all__ = [
    "compiled",
    "perceptron_epochs",
    "margin_epochs",
    "FINISHED",
    "SIGN_NEEDED",
    "RECORD_FULL",
    "EPOCH",
    "ROW",
    "UPDATES",
    "CLEAN",
    "SIGN",
    "UNKNOWN",
    "EXACT_INTEGERS",
]

# What the loop returns: why it stopped.
FINISHED = 0  # a clean epoch, or max_epochs
SIGN_NEEDED = 1  # the margin of row state[ROW] is too near 0 for its float value to tell
RECORD_FULL = 2  # the buffers for the history are full: the caller gives larger ones

# The loop's state, an int64 array that it reads on entry and writes before it returns.
EPOCH, ROW, UPDATES, CLEAN, SIGN = range(5)
UNKNOWN = 2  # state[SIGN] when the caller has no exact sign to give for row state[ROW]

# The bound on the rounding of a score, and the limit below which integer sums are exact, are
# those of the package's one sign decision (perceptron_core._signs); the caller passes the bound's
# two coefficients, so that it is written in one place.
EXACT_INTEGERS = _signs.EXACT_INTEGERS


class compiled:
    """Decorator: ``fn`` compiled with ``numba.njit(signature, cache=True, **options)`` at its
    first call, or ``fn`` itself when numba cannot be imported.

    The signature fixes the argument types, so there is exactly one compiled version (made or
    loaded once), whatever the memory layout or write flag of the caller's arrays. Attributes:
    ``py_func`` is the plain Python function; ``uses_numba`` says whether the compiled version
    runs (and compiles it, if that has not happened yet).
    """

    def __init__(self, signature: str, **options: Any) -> None:
        self.signature, self.options = signature, options

    def __call__(self, fn: Callable) -> _LazilyCompiled:
        return _LazilyCompiled(fn, self.signature, self.options)


class _LazilyCompiled:
    def __init__(self, fn: Callable, signature: str, options: dict[str, Any]) -> None:
        functools.update_wrapper(self, fn)
        self.py_func = fn
        self.signature, self.options = signature, options
        self._run: Callable | None = None

    def __call__(self, *args: Any) -> Any:
        run = self._run
        if run is None:
            run = self._run = self._compile()
        return run(*args)

    @property
    def uses_numba(self) -> bool:
        if self._run is None:
            self._run = self._compile()
        return self._run is not self.py_func

    def _compile(self) -> Callable:
        try:
            import numba
        except ImportError:  # not installed, or blocked: the same function, run as Python
            return self.py_func
        try:
            return numba.njit(self.signature, cache=True, **self.options)(self.py_func)
        except RuntimeError:  # "cannot cache": neither this folder nor a user cache is writable
            return numba.njit(self.signature, **self.options)(self.py_func)  # compiled in each process


# fastmath="reassoc" only: the compiled loop may sum a score in any order (vectorized, several
# partial sums at once: 40% less time on 10⁵×100 here), since the rounding bound
# holds for every order. No other fast-math flag: NaN and inf keep their meaning, and a NaN
# score is handed back to the caller like any score too near 0.
@compiled(
    "int64(Array(float64, 2, 'C', readonly=True), Array(float64, 1, 'C', readonly=True), "
    "float64[::1], boolean, int64, float64, float64, float64, boolean, int64, boolean, int64[::1], int64[::1], "
    "int64[::1])",
    fastmath={"reassoc"},
)
def perceptron_epochs(X, y, theta, offset, at_tie, rel, tiny, row_max, integral, max_epochs, record, indices,
                      epochs, state):
    """Sweep the rows of ``X`` in order, updating on every mistake, until a clean epoch.

    ``theta`` is ``(w, b)``, of length d + 1 (``b`` stays 0 without ``offset``), and is updated
    in place. Row i is a mistake when the exact sign of ``yᵢ (w·xᵢ + b)`` is negative, or when it
    is 0 and ``at_tie``, the label the tie rule predicts there (0, +1 or -1), is not ``yᵢ``;
    then ``w += yᵢ xᵢ`` and, with ``offset``, ``b += yᵢ``. A float margin is trusted when it is
    farther from 0 than ``rel·‖θ‖₁ + tiny``, the slack of :func:`perceptron_core._signs.slack`
    (``rel, tiny = slack_coefficients(d + 1, row_max)``). ``row_max`` bounds every ``|xᵢⱼ|``
    (and 1, the offset's coefficient, with ``offset``); ``integral`` says that every entry of
    ``X`` is an integer, so that small enough margins are computed exactly.

    The run goes on from ``state`` (``EPOCH, ROW, UPDATES, CLEAN, SIGN``) and stops at the first
    clean epoch or after ``max_epochs`` (:data:`FINISHED`), or to ask the caller for the exact
    sign of ``yᵢ (w·xᵢ + b)`` at row ``i = state[ROW]`` (:data:`SIGN_NEEDED`: put it in
    ``state[SIGN]`` and call again), or, with ``record``, when ``indices`` and ``epochs`` (the row
    and the epoch of every update) are full (:data:`RECORD_FULL`). A new run starts from
    ``(0, n, 0, 0, UNKNOWN)``: the end of epoch 0, which was not clean.
    """
    n, d = X.shape
    epoch, i, updates = state[EPOCH], state[ROW], state[UPDATES]
    clean, sign = state[CLEAN] == 1, state[SIGN]
    # A margin sums d + 1 terms xᵢⱼwⱼ and b, with Σ|terms| <= row_max·‖θ‖₁: its slack is
    # rel·‖θ‖₁ + tiny.
    l1 = 0.0  # ‖θ‖₁, kept up to date at each update
    for j in range(d + 1):
        l1 += abs(theta[j])
    status = FINISHED
    while True:
        if i == n:  # an epoch ends
            if clean or epoch == max_epochs:
                break
            epoch, i, clean = epoch + 1, 0, True
        if record and updates == indices.shape[0]:
            status = RECORD_FULL
            break
        if sign == UNKNOWN:
            score = theta[d]
            for j in range(d):
                score += X[i, j] * theta[j]
            margin = y[i] * score  # yᵢ (w·xᵢ + b): the product by ±1 is exact
            # How far the float margin may lie from the exact one. Integers add and multiply
            # exactly while every partial sum stays below 2⁵³: then not at all.
            exact = integral and row_max * l1 < EXACT_INTEGERS
            slack = 0.0 if exact else rel * l1 + tiny
            if margin > slack:  # the common case first: a point on its side, surely
                sign = 1
            elif margin < -slack:
                sign = -1
            elif exact:
                sign = 0
            else:  # too near 0 to tell (or NaN): the caller decides it exactly
                status = SIGN_NEEDED
                break
        # A mistake: yᵢ (w·xᵢ + b) < 0, or = 0 where the tie rule predicts another label.
        mistake = sign < 0 or (sign == 0 and at_tie != y[i])
        sign = UNKNOWN
        if mistake:  # w += yᵢ xᵢ, b += yᵢ
            if offset:
                theta[d] += y[i]
            l1 = abs(theta[d])
            for j in range(d):
                theta[j] += y[i] * X[i, j]
                l1 += abs(theta[j])
            if record:
                indices[updates] = i
                epochs[updates] = epoch
            updates += 1
            clean = False
        i += 1
    state[EPOCH], state[ROW], state[UPDATES] = epoch, i, updates
    state[CLEAN], state[SIGN] = 1 if clean else 0, sign
    return status


# w·w is trusted between these powers of two: there neither it nor the score can underflow or
# overflow. Outside (w = 0 too) the caller tests the row on a rescaled w.
NORM_SQ_LOW, NORM_SQ_HIGH = 2.0**-580, 2.0**580


@compiled(
    "int64(Array(float64, 2, 'C', readonly=True), float64[::1], float64, float64, float64, int64, "
    "boolean, int64[::1], int64[::1], int64[::1])",
    fastmath={"reassoc"},
)
def margin_epochs(Z, w, aim, per_norm, tiny, max_epochs, record, indices, epochs, state):
    """The Margin Perceptron's sweeps: add row ``zᵢ = yᵢxᵢ`` of ``Z`` to ``w`` (in place) whenever
    ``zᵢ·w < aim·‖w‖``, in order, until a sweep adds nothing.

    The float test is trusted where the score is farther from the threshold ``aim·‖w‖`` than
    ``per_norm·‖w‖ + tiny``, the bound on their rounding that
    :class:`perceptron_core.algorithms._ShortOfAim` derives. A nearer row, a NaN, or a ``w`` with
    ``w·w`` outside [2⁻⁵⁸⁰, 2⁵⁸⁰] is handed back: :data:`SIGN_NEEDED`, and the caller puts -1
    (short of the aim: update) or 1 (not short) in ``state[SIGN]`` and calls again. State,
    statuses and buffers are those of :func:`perceptron_epochs`.
    """
    n, d = Z.shape
    epoch, i, updates = state[EPOCH], state[ROW], state[UPDATES]
    clean, sign = state[CLEAN] == 1, state[SIGN]
    norm_sq = 0.0  # w·w, recomputed at each update
    for j in range(d):
        norm_sq += w[j] * w[j]
    status = FINISHED
    while True:
        if i == n:  # a sweep ends
            if clean or epoch == max_epochs:
                break
            epoch, i, clean = epoch + 1, 0, True
        if record and updates == indices.shape[0]:
            status = RECORD_FULL
            break
        if sign == UNKNOWN:
            if not (NORM_SQ_LOW <= norm_sq <= NORM_SQ_HIGH):  # also w = 0, inf, NaN
                status = SIGN_NEEDED
                break
            norm = math.sqrt(norm_sq)  # correctly rounded, as the bound assumes
            score = 0.0
            for j in range(d):
                score += Z[i, j] * w[j]
            threshold, room = aim * norm, per_norm * norm + tiny
            if score > threshold + room:
                sign = 1
            elif score < threshold - room:
                sign = -1
            else:  # too near the threshold to tell (or NaN): the caller decides it exactly
                status = SIGN_NEEDED
                break
        short = sign < 0
        sign = UNKNOWN
        if short:  # w += zᵢ
            norm_sq = 0.0
            for j in range(d):
                w[j] += Z[i, j]
                norm_sq += w[j] * w[j]
            if record:
                indices[updates] = i
                epochs[updates] = epoch
            updates += 1
            clean = False
        i += 1
    state[EPOCH], state[ROW], state[UPDATES] = epoch, i, updates
    state[CLEAN], state[SIGN] = 1 if clean else 0, sign
    return status
