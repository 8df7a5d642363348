"""The two inner loops of the package, the perceptron's and the Margin Perceptron's, written
once as plain Python over scalars in the order of the run contract, and compiled by numba
where numba is installed.

Why numba at all: the Margin Perceptron chapter's longest runs sweep thousands of epochs, which
take minutes as Python and a fraction of a second compiled. Why it is optional: without numba
the very same function runs as Python and makes the same run, bit for bit.

Why the result is the same either way (and the same as the playground's JavaScript): every
score is summed left to right from its first term, a product and then a sum, as the loop is
written. numba is asked for nothing that may reorder or fuse floating-point operations: no
``fastmath``, and LLVM does not contract a separate multiply and add into an FMA unless told
to. ``tests/core/test_runs.py`` checks compiled against Python on random data.

numba is imported, and the loop compiled (or loaded from numba's on-disk cache), only when a
run is long, not at ``import perceptron_core``. That first call costs about a second where the
cache is warm and several where numba must compile (a fresh install: pip does not run numba),
more than most of the book's runs take as Python. So a run starts as Python, and passes to the
compiled loop once it has made :data:`RUN_STEPS` steps, or its loop :data:`PYTHON_STEPS` in the
process; the compiled loop continues it from the state it reached: the same run, since the loop
holds nothing between epochs but that state. Once numba is loaded, every run is compiled.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["perceptron_epochs", "margin_epochs", "RUN_STEPS", "PYTHON_STEPS"]

#: The steps (a row times a feature: n·d per epoch) a run makes as Python before it loads numba,
#: about 10 ms, and those each loop makes as Python in a process, about 50 ms: short runs never
#: load numba, and neither a long run nor many short ones pay Python's price for long. Whole
#: epochs only: an epoch longer than what is left goes to the compiled loop at once.
RUN_STEPS, PYTHON_STEPS = 100_000, 500_000


class _Loop:
    """``fn`` compiled by ``numba.njit(cache=True)`` once runs are long, or ``fn`` itself
    without numba. ``py_func`` is the plain function, ``python`` runs it over memoryviews of
    the arrays (their items are Python floats, the same IEEE doubles as NumPy's, read five
    times faster than NumPy's scalars); ``compiled`` loads numba if needed (the compiled
    function, or ``python`` without numba); ``uses_numba`` says which (the Makefile calls it
    once). ``fn(data, ..., max_epochs, rounds)`` returns ``(epochs, clean, updates)`` and
    keeps its whole state in its arguments, so a run can stop after some epochs and go on."""

    def __init__(self, fn: Callable) -> None:
        self.py_func, self.__doc__, self._run, self._steps = fn, fn.__doc__, None, 0
        self.python = lambda *a: fn(*(memoryview(v) if isinstance(v, np.ndarray) else v for v in a))

    def __call__(self, *args: Any) -> Any:
        if self._run is not None:
            return self._run(*args)
        n, d = args[0].shape
        head, max_epochs, rounds = args[:-2], args[-2], args[-1]
        first = min(max_epochs, min(RUN_STEPS, PYTHON_STEPS - self._steps) // max(1, n * d))
        if first <= 0:
            return self.compiled(*args)
        epochs, clean, updates = self.python(*head, first, rounds)
        self._steps += epochs * n * d
        if clean or epochs == max_epochs:
            return epochs, clean, updates
        rest = rounds[min(updates, len(rounds)):]  # a view: the compiled run records into it
        more, clean, extra = self.compiled(*head, max_epochs - epochs, rest)
        rest[:extra] += epochs * n  # its rounds counted from the start of the whole run
        return epochs + more, clean, updates + extra

    @property
    def compiled(self) -> Callable:
        if self._run is None:
            self._run = self._compile()
        return self._run

    @property
    def uses_numba(self) -> bool:
        return self.compiled is not self.python

    def _compile(self) -> Callable:
        try:
            import numba
        except ImportError:  # not installed: the same loop, run as Python
            return self.python
        try:
            return numba.njit(cache=True)(self.py_func)
        except RuntimeError:  # "cannot cache": no writable cache folder; compile in each process
            return numba.njit(self.py_func)


def _perceptron_epochs(X, y, theta, offset, at_tie, max_epochs, rounds):
    """Sweep the rows of ``X`` in order, updating ``theta = (w, b)`` (length d + 1, in place) on
    every mistake, until an epoch makes none or ``max_epochs`` epochs are done.

    Row i: ``score = b``, then ``score += X[i, j] * w[j]`` for j = 0 … d-1, and
    ``margin = y[i] * score``. A mistake when ``margin < 0``, or ``margin == 0`` and ``at_tie``
    (the label the tie rule predicts at 0: 0 for none, +1 or -1) is not ``y[i]``. On a mistake
    ``b += y[i]`` (with ``offset``), then ``w[j] += y[i] * X[i, j]`` in order. The round
    ``(epoch - 1)·n + i`` of mistake k goes to ``rounds[k]`` while there is room.

    Returns ``(epochs, clean, updates)``: the epochs swept, whether the last made no mistake,
    and the number of updates (more than ``len(rounds)`` means the record was cut short).
    """
    n, d = X.shape
    epoch, updates, clean = 0, 0, False
    while not clean and epoch < max_epochs:
        epoch += 1
        clean = True
        for i in range(n):
            score = theta[d]
            for j in range(d):
                score += X[i, j] * theta[j]
            margin = y[i] * score
            if margin < 0.0 or (margin == 0.0 and at_tie != y[i]):
                if offset:
                    theta[d] += y[i]
                for j in range(d):
                    theta[j] += y[i] * X[i, j]
                if updates < rounds.shape[0]:
                    rounds[updates] = (epoch - 1) * n + i
                updates += 1
                clean = False
    return epoch, clean, updates


def _margin_epochs(Z, w, aim, max_epochs, rounds):
    """The Margin Perceptron's sweeps over the rows ``z = y·x`` of ``Z``, with ``w`` (in place)
    starting at ``Z[0]``: add row i to ``w`` when ``s < aim * sqrt(nn)``, with
    ``s = Σⱼ Z[i, j]·w[j]`` and ``nn = Σⱼ w[j]·w[j]`` each summed left to right from 0.0, or
    when ``nn == 0`` (``w = 0`` has no direction, so no point has a margin yet), until a sweep
    adds nothing or ``max_epochs`` sweeps are done. Rounds and the result as in
    :func:`perceptron_epochs`."""
    n, d = Z.shape
    nn = 0.0
    for j in range(d):
        nn += w[j] * w[j]
    threshold = aim * math.sqrt(nn)
    epoch, updates, clean = 0, 0, False
    while not clean and epoch < max_epochs:
        epoch += 1
        clean = True
        for i in range(n):
            s = 0.0
            for j in range(d):
                s += Z[i, j] * w[j]
            if s < threshold or nn == 0.0:
                nn = 0.0
                for j in range(d):
                    w[j] += Z[i, j]
                    nn += w[j] * w[j]
                threshold = aim * math.sqrt(nn)
                if updates < rounds.shape[0]:
                    rounds[updates] = (epoch - 1) * n + i
                updates += 1
                clean = False
    return epoch, clean, updates


perceptron_epochs = _Loop(_perceptron_epochs)
margin_epochs = _Loop(_margin_epochs)
