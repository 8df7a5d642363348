"""Self-checking code exercises: ``check.<exercise>(your_function)``.

A student writes a function, for example their own perceptron update, and passes it to the
check of the same name::

    from perceptron_core import check

    def update(w, x, y):
        ...

    check.update(update)

The check calls the function on fixed cases chosen to catch the usual slips (ties, zero
vectors, unnormalized weights, negative labels) and then on random cases drawn with a fixed
seed, and compares every answer with the package's reference. It prints a short verdict: how
many cases passed, the first failing case with its inputs (written so that they can be pasted
into Python to rerun the function on them), the expected and the received answer, and a hint.
It never prints the reference's code. A function that still raises ``NotImplementedError`` (the
exercise stub) gets "not implemented yet" instead of a traceback; any other exception, a wrong
return type or a wrong shape is reported as a failing case.

Every check also returns a :class:`CheckResult`, which is truthy exactly when all cases passed,
so tests and notebooks can use it (and an autograder, whose public tests these checks are).

Exercises and the chapter each belongs to (see :data:`EXERCISES`):

=====================  ==================================================  =====================
check                  the student writes                                  chapter
=====================  ==================================================  =====================
``mistakes``           ``mistakes(X, y, w)``: points with ``y w·x ≤ 0``      first_look
``first_mistake``      ``first_mistake(X, y, w)``: the first such point    first_look
``update``             ``update(w, x, y)``: one perceptron step            perceptron
``train``              ``train(X, y, epochs)``: the perceptron's epochs    perceptron
``separable``          ``separable(X, y)``: separable through the origin?  separability
``is_certificate``     ``is_certificate(X, y, lam)``: a certificate?       separability
``margin``             ``margin(X, y, w, b)``: the geometric margin        margin
``radius``             ``radius(X)``: the largest norm                     margin
``mistake_bound``      ``mistake_bound(R, gamma)``: ``(R/γ)²``             convergence
``proof_quantities``   ``proof_quantities(X, y, u)``: w_k·u and ‖w_k‖²     convergence
``augment``            ``augment(X, c)``: append the constant feature c    offset
``offset_bound``       ``offset_bound(R, gamma, b, c)``: with an offset    offset
``margin_mistake``     ``margin_mistake(w, x, y, gamma, target)``          margin_perceptron
``margin_run``         ``margin_run(X, y, gamma, target)``: the final w    margin_perceptron
``hinge_deviation``    ``hinge_deviation(X, y, w, gamma)``: TD_γ           nonseparable
``averaged``           ``averaged(X, y, epochs)``: the mean iterate        nonseparable
``pac_window``         ``pac_window(R, gamma, epsilon, delta)``            guarantees
``adversary``          ``adversary(new_learner, n, R)``: the labels        guarantees
=====================  ==================================================  =====================

Three rules make the verdict about the student's own code, and make sure it comes:

**The package does not answer for the student.** While a check runs the student's function, the
package functions that answer the exercise (:data:`ANSWERS`: ``augment`` for ``check.augment``,
``separability``, ``max_margin`` and the perceptron runners for ``check.separable``, ...) are
switched off: they raise an error, on ``perceptron_core`` and on every submodule that holds them,
and so does a copy of one among the student function's globals (``from perceptron_core import
augment``). A function that calls one fails with a verdict that says so, even if it catches the
error. They are restored when the call returns, whatever happens. numpy, scipy, scikit-learn and
the rest of the package stay available, and the check's references run with the originals. (The
switch is process-wide: another thread using those functions during the call fails too.)

**Floats are compared at a stated precision** (:data:`PRECISION`): a float answer passes when it
is within a relative 1e-6 of the size of the numbers it is computed from, so an answer computed
in float32 (unit roundoff 6e-8) passes and an answer off by more fails. "The size" is the
answer itself where no cancellation can occur, and otherwise the largest the answer's terms can
be, so that an answer near 0 is not held to an impossible absolute precision:

=====================  ================================================================
check                  a float answer passes within 1e-6 times
=====================  ================================================================
``update``             the largest ``|entry|`` of w and x (in every entry)
``train``              ``R √(epochs·n)``, the largest ``‖w‖`` of the run (in every entry)
``margin``             ``R + |b|/‖w‖`` with ``R = maxᵢ ‖xᵢ‖``, the largest a margin can be
``radius``             the answer, R
``mistake_bound``      the answer, ``(R/γ)²``
``proof_quantities``   ``max(M R², √M R)``, the largest an entry can be after M mistakes
``augment``            the largest ``|entry|`` of X and c (in every entry)
``offset_bound``       the answer, ``(R² + c²)(1 + b²/c²)/γ²``
``margin_run``         ``(M + 1) max|xᵢⱼ|`` for a run of M updates, the largest |entry| it
                       can reach (in every entry)
``hinge_deviation``    ``n (γ + R)``, the largest TD_γ can be
``averaged``           ``M max|xᵢⱼ|`` for a run of M mistakes, the largest |entry| an iterate
                       can reach (in every entry)
=====================  ================================================================

Integer, index and True/False answers (``mistakes``, ``first_mistake``, ``separable``,
``is_certificate``, ``margin_mistake``, ``pac_window``) and the adversary's labels (``adversary``,
each ±1) are compared exactly. A failing verdict states the precision and the difference it
allowed.

**Nothing hangs.** Every case runs under a time limit, :data:`TIME_LIMIT` (5 s, or what the
environment variable ``PERCEPTRON_CHECK_TIME_LIMIT`` says) unless the check is given
``time_limit=`` (``None``: no limit). A case that runs out fails with a verdict that
names it and prints its inputs: most often an endless loop, such as a perceptron run until it
makes no mistake on data it cannot separate. In the main thread (where Jupyter runs a cell) the
limit is a ``SIGALRM`` timer (``signal.setitimer``), whose handler raises an exception in the
student's code; it stops pure-Python loops, but not a single long call into compiled code (one
huge numpy operation), which ends first. The previous ``SIGALRM`` handler and timer are put back
afterwards. Elsewhere (another thread, or a system without ``SIGALRM`` such as Windows) the case
runs in a daemon thread, which the check stops waiting for after the limit: it asks the thread
to stop (an exception raised in it at its next Python instruction, which ends a pure-Python
loop) and otherwise abandons it, still running, until the interpreter exits. :func:`call` puts
one call of a function under the same limit outside a check, raising ``TimeoutError`` when it
runs out: an autograder's hidden tests call the student's function through it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import math
import numbers
import os
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from . import _signs
from . import bounds as _bounds
from . import data as _data
from . import geometry as _geometry
from . import guarantees as _guarantees

__all__ = [
    "CheckResult",
    "EXERCISES",
    "PRECISION",
    "ANSWERS",
    "TIME_LIMIT",
    "call",
    "case_inputs",
    "mistakes",
    "first_mistake",
    "update",
    "train",
    "separable",
    "is_certificate",
    "margin",
    "radius",
    "mistake_bound",
    "proof_quantities",
    "augment",
    "offset_bound",
    "margin_mistake",
    "margin_run",
    "hinge_deviation",
    "averaged",
    "pac_window",
    "adversary",
]

SEED = 2026
N_RANDOM = 20

def _time_limit_from_environment(default: float) -> float:
    """``PERCEPTRON_CHECK_TIME_LIMIT`` when it is set (a grader on a slow machine, ``make grade
    CHECK_TIME_LIMIT=30``), else ``default``."""
    text = os.environ.get("PERCEPTRON_CHECK_TIME_LIMIT", "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise ValueError(f"PERCEPTRON_CHECK_TIME_LIMIT must be a positive number of seconds, got "
                         f"{text!r}; unset it for the default of {default:g} s.")
    return value


#: Seconds each case may run before it fails as "ran out of time"; ``time_limit=`` overrides it,
#: and the environment variable ``PERCEPTRON_CHECK_TIME_LIMIT``, read on import, changes it. The
#: slowest reference case takes a few milliseconds, so 5 s is generous even on a slow machine.
TIME_LIMIT = _time_limit_from_environment(5.0)

#: A failing case's input with at most this many numbers is printed in full; a larger one by its
#: shape and how to get it (:func:`case_inputs`), as hundreds of numbers would bury the verdict.
PRINT_LIMIT = 200


@dataclass(frozen=True)
class Case:
    """One call of the student's function: its arguments, and a hint if it fails."""

    name: str
    args: tuple[Any, ...]
    hint: str


@dataclass
class CheckResult:
    """What a check found.

    Attributes
    ----------
    exercise : the check's name, e.g. ``"margin"``.
    passed : True when every case passed.
    status : ``"passed"``, ``"failed"`` (a wrong answer, type or shape, an exception, a call of a
        package function the exercise asks for, or a case out of time) or ``"not implemented"``
        (the function raised ``NotImplementedError``).
    n_cases : the number of cases the check has.
    n_passed : how many cases passed before the first failure (all of them when passed).
    passed_cases : their names.
    case : the first failing case's name, or None.
    inputs : its arguments by parameter name, or None.
    expected, received : the reference's and the function's answers on it (``received`` is the
        exception, as ``"TypeError: ..."``, when the function raised one, and None when it ran
        out of time).
    hint : a hint for the failing case ("" when passed).
    message : the verdict the check printed.
    timed_out : True when the failing case ran out of time.
    called : the package function the exercise asks for that the function called
        (``"perceptron_core.augment"``), or None.
    tolerance : the largest difference from the expected float answer that the failing case
        allowed (None for exact answers, or when no case failed).
    """

    exercise: str
    passed: bool
    status: str
    n_cases: int
    n_passed: int
    passed_cases: list[str] = field(default_factory=list)
    case: str | None = None
    inputs: dict[str, Any] | None = None
    expected: Any = None
    received: Any = None
    hint: str = ""
    message: str = ""
    timed_out: bool = False
    called: str | None = None
    tolerance: float | None = None
    _quiet: bool = field(default=False, repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"CheckResult(exercise={self.exercise!r}, passed={self.passed}, status={self.status!r})"

    def _ipython_display_(self) -> None:
        """Show nothing in Jupyter: the check has printed its verdict already (``quiet=False``),
        and a cell ending in ``check.x(f)`` should not print it twice."""
        if not self.message or self._quiet:
            print(self.message)


class _Mismatch(Exception):
    """The received answer is wrong; the text says how (type, shape or value)."""

    def __init__(self, why: str, received: Any, difference: float | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.received = received
        self.difference = difference  # how far a float answer is off, for the verdict


# --- formatting -------------------------------------------------------------------------------


def _scalar_literal(value: Any) -> str:
    """A number as Python reads it back exactly: the shortest repr that round-trips."""
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, np.floating) and value.dtype != np.float64:
        # np.float32(0.1): its own shortest digits (str gives them), and the type that has them
        # (numpy 1.x's repr drops the type)
        return f"np.{value.dtype.name}({value!s})"
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, np.integer):
        return repr(int(value))
    return repr(value)


def _array_literal(a: np.ndarray) -> str:
    """``np.array([...])`` that recreates ``a`` exactly, one row per line for a matrix."""
    if a.dtype.kind not in "biuf":
        return repr(a)
    dtype = "" if a.dtype in (np.float64, np.int64, np.bool_) else f", dtype=np.{a.dtype.name}"
    if a.size == 0:
        return f"np.zeros({a.shape}{dtype or ', dtype=np.' + a.dtype.name})"

    def entries(v: np.ndarray) -> str:
        # str of a numpy float is the shortest string that round-trips in its own precision
        # (float32 digits for a float32), repr of a Python float the same for float64.
        if a.dtype.kind == "f":
            return ", ".join(repr(float(e)) if a.dtype == np.float64 else str(e) for e in v)
        return ", ".join(_scalar_literal(e) for e in v)

    if a.ndim == 0:
        return f"np.array({entries(a.reshape(1))}{dtype})"
    if a.ndim == 1:
        return f"np.array([{entries(a)}]{dtype})"
    if a.ndim == 2:
        rows = [f"[{entries(row)}]" for row in a]
        pad = " " * len("np.array([")
        return "np.array([" + (",\n" + pad).join(rows) + f"]{dtype})"
    return f"np.array({a.tolist()!r}{dtype})"


def _literal(value: Any) -> str | None:
    """``value`` written as Python that recreates it, or None when it is too large to print."""
    if isinstance(value, np.ndarray):
        return _array_literal(value) if value.size <= PRINT_LIMIT else None
    return _scalar_literal(value)


def _has_literal(value: Any) -> bool:
    """Whether ``value`` can be written out as Python: an array or a number, not an object such
    as the learner factories of ``check.adversary``, whose repr only describes them."""
    return isinstance(value, (np.ndarray, numbers.Number, np.bool_, str, bytes, type(None)))


def _show_answer(value: Any) -> str:
    """An answer (expected or received): in full when small, abbreviated when large."""
    text = _literal(value)
    if text is not None:
        return text
    short = np.array2string(value, precision=6, separator=", ", threshold=40, max_line_width=84)
    return f"array of shape {value.shape}, abbreviated:\n{short}"


# --- comparing answers ------------------------------------------------------------------------
#
# Every comparison takes the expected answer, the received one and the largest difference the
# case allows (0 for the exact comparisons, which ignore it).


def _as_float(value: Any) -> float:
    if isinstance(value, (bool, np.bool_)):
        raise _Mismatch("returned a bool where a number was expected", value)
    if isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.number):
        value = value.item()
    if not isinstance(value, numbers.Real):
        raise _Mismatch(f"returned {type(value).__name__} where a number was expected", value)
    return float(value)


def _same_float(expected: float, received: Any, tolerance: float) -> None:
    got = _as_float(received)
    if math.isnan(got):
        raise _Mismatch("returned nan", received)
    difference = abs(got - expected)  # inf for an infinite answer, which then fails
    if not difference <= tolerance:
        raise _Mismatch("returned a different number", received, difference)


def _same_int(expected: int, received: Any, tolerance: float) -> None:
    if isinstance(received, (bool, np.bool_)) or not isinstance(received, numbers.Integral):
        raise _Mismatch(f"returned {type(received).__name__} where an int was expected", received)
    if int(received) != expected:
        raise _Mismatch("returned a different number", received)


def _same_index(expected: int | None, received: Any, tolerance: float) -> None:
    """An index (an int, not a bool) or None, compared exactly."""
    if expected is None:
        if received is not None:
            raise _Mismatch(f"returned {type(received).__name__} where None was expected", received)
        return
    if received is None:
        raise _Mismatch("returned None where an int was expected", received)
    _same_int(expected, received, tolerance)


def _same_bool(expected: bool, received: Any, tolerance: float) -> None:
    if not isinstance(received, (bool, np.bool_)):
        raise _Mismatch(f"returned {type(received).__name__} where True or False was expected", received)
    if bool(received) != expected:
        raise _Mismatch("returned the other truth value", received)


def _same_array(expected: np.ndarray, received: Any, tolerance: float) -> None:
    if received is None or isinstance(received, (str, bytes, dict, set, numbers.Number)):
        raise _Mismatch(f"returned {type(received).__name__} where an array was expected", received)
    try:
        got = np.asarray(received, dtype=float)
    except (TypeError, ValueError):
        raise _Mismatch(f"returned {type(received).__name__}, which is not an array of numbers", received) from None
    if got.shape != expected.shape:
        raise _Mismatch(f"returned shape {got.shape} where shape {expected.shape} was expected", received)
    if np.isnan(got).any():
        raise _Mismatch("returned nan", received)
    with np.errstate(invalid="ignore", over="ignore"):
        difference = float(np.max(np.abs(got - expected))) if got.size else 0.0
    if not difference <= tolerance:
        raise _Mismatch("returned different numbers", received, difference)


def _same_labels(expected: np.ndarray, received: Any, tolerance: float) -> None:
    """Labels ±1, exactly: an array (or a list) of the expected length with the same entries.
    The verdict names the first round whose label differs."""
    if received is None or isinstance(received, (str, bytes, dict, set, numbers.Number)):
        raise _Mismatch(f"returned {type(received).__name__} where an array of labels was expected", received)
    try:
        got = np.asarray(received, dtype=float)
    except (TypeError, ValueError):
        raise _Mismatch(f"returned {type(received).__name__}, which is not an array of labels", received) from None
    if got.shape != expected.shape:
        raise _Mismatch(f"returned shape {got.shape} where shape {expected.shape} was expected", received)
    differ = np.flatnonzero(got != expected)  # nan differs from every label
    if differ.size:
        raise _Mismatch(f"returned a different label in round {int(differ[0]) + 1}", received)


# --- switching off the package functions that answer the exercise -----------------------------


class _SwitchedOff(RuntimeError):
    """Raised by a package function that the running check's exercise asks the student to write."""


def _answer_functions(exercise: str) -> dict[int, tuple[str, Callable[..., Any]]]:
    """``ANSWERS[exercise]`` resolved: the original function objects by id, with their names."""
    found: dict[int, tuple[str, Callable[..., Any]]] = {}
    for name in ANSWERS[exercise]:
        module, _, attr = ("perceptron_core." + name).rpartition(".")
        original = getattr(importlib.import_module(module), attr)
        found[id(original)] = (name, original)
    return found


def _namespaces(func: Callable[..., Any]) -> list[dict[str, Any]]:
    """Where an answer function can be found by the student's code: the package's modules (all
    of them that are loaded, as each imports what it uses from the others) and the globals of
    the student's function (``from perceptron_core import augment`` in a notebook)."""
    spaces = [vars(module) for name, module in list(sys.modules.items())
              if module is not None and (name == "perceptron_core" or name.startswith("perceptron_core."))]
    owner = getattr(func, "__func__", func)  # a bound method's function
    spaces.append(getattr(owner, "__globals__", None))
    unique: dict[int, dict[str, Any]] = {}
    for space in spaces:
        if isinstance(space, dict):
            unique.setdefault(id(space), space)
    return list(unique.values())


def _switched_off(exercise: str, name: str, original: Callable[..., Any],
                  calls: list[tuple[str, str | None]]) -> Callable[..., Any]:
    """What stands in for ``original`` while the check runs: it notes the call and raises."""

    def switched_off(*args: Any, **kwargs: Any) -> Any:
        # Say whether the student called it or another package function did on their behalf.
        caller = inspect.currentframe().f_back
        module = str(caller.f_globals.get("__name__", ""))
        inside = module.startswith("perceptron_core") and module != __name__  # the check calls the student
        via = f"{module}.{caller.f_code.co_name}" if inside else None
        calls.append((f"perceptron_core.{name}", via))
        raise _SwitchedOff(f"perceptron_core.{name} is switched off while check.{exercise} runs: "
                           "this exercise asks you to write it yourself.")

    switched_off.__name__ = getattr(original, "__name__", name)
    switched_off.__qualname__ = getattr(original, "__qualname__", name)
    switched_off.__doc__ = f"Switched off while check.{exercise} runs: write it yourself."
    return switched_off


def _held(func: Callable[..., Any]) -> list[Any]:
    """``func`` and what it wraps: a partial's function, a method's, a decorator's ``__wrapped__``."""
    held, seen = [func], set()
    while held[-1] is not None and id(held[-1]) not in seen:
        seen.add(id(held[-1]))
        f = held[-1]
        held.append(getattr(f, "func", None) if isinstance(f, functools.partial)
                    else getattr(f, "__func__", None) or getattr(f, "__wrapped__", None))
    return held[:-1]


@contextlib.contextmanager
def _without_answers(exercise: str, func: Callable[..., Any]
                     ) -> Iterator[tuple[list[tuple[str, str | None]], Callable[..., Any]]]:
    """Switch off :data:`ANSWERS` ``[exercise]`` for the duration of the block.

    Yields the list of calls made to them, as ``(name, via)`` with ``via`` the package function
    that made the call, or None when the student's code made it, and the function to call in
    place of ``func``: ``func`` itself, or the stand-in when ``func`` is (or wraps) one of them
    (``check.augment(perceptron_core.augment)``). The list is what the verdict reads, so a
    student who catches the error is caught too.
    """
    calls: list[tuple[str, str | None]] = []
    originals = _answer_functions(exercise)
    if not originals:
        yield calls, func
        return
    stand_ins = {key: _switched_off(exercise, name, original, calls)
                 for key, (name, original) in originals.items()}
    restore = {id(s): (s, originals[key][1]) for key, s in stand_ins.items()}
    held = next((stand_ins[id(f)] for f in _held(func)
                 if id(f) in originals and f is originals[id(f)][1]), None)
    try:
        for space in _namespaces(func):
            for attr, value in list(space.items()):
                if id(value) in originals and value is originals[id(value)][1]:
                    space[attr] = stand_ins[id(value)]
        yield calls, func if held is None else held
    finally:
        # Scan again rather than undo a list: a module imported during the call (the estimator,
        # imported on first use) may have picked up a stand-in, and must not keep it.
        for space in _namespaces(func):
            for attr, value in list(space.items()):
                if id(value) in restore and value is restore[id(value)][0]:
                    space[attr] = restore[id(value)][1]


# --- the time limit ---------------------------------------------------------------------------


class _OutOfTime(BaseException):
    """Raised in the student's code when its case's time is up.

    A BaseException, like KeyboardInterrupt, so that an ``except Exception`` in the student's
    loop (one that retries, say) cannot swallow it.
    """


def _call_with_limit(func: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> Any:
    """``func(*args)``, raising :class:`_OutOfTime` if it has not returned after ``limit`` s."""
    if limit is None:
        return func(*args)
    if (hasattr(signal, "SIGALRM") and hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()):
        return _call_with_alarm(func, args, limit)
    return _call_in_thread(func, args, limit)


def _call_with_alarm(func: Callable[..., Any], args: tuple[Any, ...], limit: float) -> Any:
    armed = True

    def on_alarm(signum: int, frame: Any) -> None:
        # A timer that fires just as the call returns must not turn a finished call into a
        # failure, nor raise in the check's own code.
        if armed:
            raise _OutOfTime

    try:
        previous = signal.signal(signal.SIGALRM, on_alarm)
    except ValueError:  # signals need the main thread of the main interpreter
        return _call_in_thread(func, args, limit)
    start = time.monotonic()
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return func(*args)
    finally:
        armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        # None: the previous handler was not set from Python; the default is the closest.
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
        if old_delay > 0:
            # Someone else's timer (pytest-timeout's, say) was running: give it back what it
            # had left, or fire it at once if it fell due during the call.
            left = old_delay - (time.monotonic() - start)
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6), old_interval)


def _call_in_thread(func: Callable[..., Any], args: tuple[Any, ...], limit: float) -> Any:
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = func(*args)
        except _OutOfTime:
            pass  # asked to stop below: nobody waits for this call any more
        except BaseException as exc:  # noqa: BLE001 -- handed over to the waiting thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="perceptron_core.check case", daemon=True)
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        _ask_to_stop(worker)
        raise _OutOfTime
    if "error" in box:
        raise box["error"]
    return box.get("value")


def _ask_to_stop(worker: threading.Thread) -> None:
    """Raise :class:`_OutOfTime` in ``worker`` at its next Python instruction (CPython only).

    This ends a pure-Python endless loop; a thread inside one long call into compiled code
    runs on until that call returns. Either way the check has stopped waiting for it.
    """
    try:
        import ctypes

        set_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
    except (ImportError, AttributeError):  # not CPython: the thread is abandoned as it is
        return
    if worker.ident is not None and set_exc(ctypes.c_ulong(worker.ident), ctypes.py_object(_OutOfTime)) > 1:
        set_exc(ctypes.c_ulong(worker.ident), None)  # more than one thread hit: undo, as documented


def _check_time_limit(time_limit: Any) -> float | None:
    if time_limit is None:
        return None
    if (isinstance(time_limit, (bool, np.bool_)) or not isinstance(time_limit, numbers.Real)
            or not 0 < float(time_limit) < math.inf):
        raise ValueError(f"time_limit must be a positive number of seconds, or None for no limit; "
                         f"got {time_limit!r}.")
    return float(time_limit)


def call(func: Callable[..., Any], *args: Any, time_limit: float | None = TIME_LIMIT,
         exercise: str | None = None, **kwargs: Any) -> Any:
    """``func(*args, **kwargs)`` under a time limit, and, for an exercise, with the package
    functions that answer it switched off: its value, or an error.

    The time limit of the checks (see the module docstring: a ``SIGALRM`` timer in the main
    thread, a watched daemon thread elsewhere), for one call outside a check: an autograder's
    hidden tests call the student's function through it, so that an endless loop fails the
    test instead of hanging the grader. With ``exercise``, the functions :data:`ANSWERS` names
    for it are switched off during the call, as during its check, so that a hidden test grades
    the student's own code too. The arguments are passed as they are (not copied).

    Parameters
    ----------
    func : the function to call.
    *args, **kwargs : its arguments (``time_limit`` and ``exercise`` are this function's own
        keywords, never passed on).
    time_limit : seconds the call may run (default :data:`TIME_LIMIT`); ``None`` for no limit.
    exercise : the check whose answer functions to switch off (``"augment"``), or None.

    Returns
    -------
    What ``func`` returns. An exception it raises propagates unchanged.

    Raises
    ------
    TimeoutError
        When ``func`` has not returned after ``time_limit`` seconds. Its traceback ends where
        the call was stopped (in the main thread), to show where it looped.
    PermissionError
        When ``func`` called a function that ``exercise`` asks the student to write (even if
        it caught the error that function raised).
    ValueError
        When ``time_limit`` is not a positive number of seconds or None, or ``exercise`` is
        not a check.

    Examples
    --------
    >>> call(max, 3, 7)
    7
    >>> def forever(x):
    ...     while True:
    ...         pass
    >>> call(forever, 1, time_limit=0.1)
    Traceback (most recent call last):
    ...
    TimeoutError: forever(...) did not return within 0.1 s: an endless loop?
    >>> import perceptron_core as pc
    >>> call(lambda X, c: pc.augment(X, c), [[1.0]], 2.0, exercise="augment")
    Traceback (most recent call last):
    ...
    PermissionError: <lambda>(...) called perceptron_core.augment, which this exercise asks you to write: write it yourself.
    """
    if not callable(func):
        raise TypeError(f"call needs a function to call, got {type(func).__name__}.")
    limit = _check_time_limit(time_limit)
    if exercise is not None and exercise not in _SPECS:
        raise ValueError(f"there is no check.{exercise}; the checks are {', '.join(_SPECS)}.")
    name = getattr(func, "__name__", None) or type(func).__name__
    with contextlib.ExitStack() as stack:
        calls: list[tuple[str, str | None]] = []
        if exercise is not None:
            calls, func = stack.enter_context(_without_answers(exercise, func))
        target = functools.partial(func, **kwargs) if kwargs else func
        try:
            value = _call_with_limit(target, args, limit)
        except _OutOfTime as stopped:
            raise TimeoutError(f"{name}(...) did not return within {limit:g} s: an endless loop?"
                               ).with_traceback(stopped.__traceback__) from None
        except _SwitchedOff:
            if not calls:
                raise
            value = None
        if calls:
            answer, via = calls[0]
            raise PermissionError(f"{name}(...) called " + (answer if via is None else f"{via}, which uses {answer}")
                                  + ", which this exercise asks you to write: write it yourself.")
        return value


# --- the runner -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Exercise:
    """How a check runs: parameter names, cases, reference, comparison, and for a float answer
    the size its tolerance is relative to (a function of the case's arguments) and its name."""

    params: tuple[str, ...]
    cases: Callable[[], list[Case]]
    reference: Callable[..., Any]
    compare: Callable[[Any, Any, float], None]
    scale: Callable[..., float] | None = None
    scale_name: str = ""


def _format_inputs(exercise: str, case: Case, params: Sequence[str]) -> list[str]:
    lines = ["    inputs:"]
    for k, v in zip(params, case.args):
        prefix = f"      {k} = "
        text = _literal(v) if _has_literal(v) else None
        if text is None:
            # A large array, or an object with no literal (a learner factory): say what it is
            # and how to get it, to rerun the function on it.
            what = (f"an array of shape {v.shape}, too large to print here" if isinstance(v, np.ndarray)
                    else repr(v))
            text = f"{what}; get it with check.case_inputs({exercise!r}, {case.name!r})[{k!r}]"
        first, *rest = text.splitlines()
        lines.append(prefix + first)
        lines += [" " * len(prefix) + r for r in rest]
    return lines


def _labelled(label: str, text: str) -> list[str]:
    first, *rest = text.splitlines()
    prefix = f"    {label}: "
    return [prefix + first] + [" " * len(prefix) + r for r in rest]


def _run(exercise: str, func: Callable[..., Any], *, quiet: bool = False,
         time_limit: float | None = TIME_LIMIT) -> CheckResult:
    if not callable(func):
        raise TypeError(
            f"check.{exercise} needs your function itself, got {type(func).__name__}: "
            f"write check.{exercise}(my_function), without calling it."
        )
    limit = _check_time_limit(time_limit)
    spec = _SPECS[exercise]
    params, cases = spec.params, spec.cases()
    precision = PRECISION[exercise]
    passed: list[str] = []
    for case in cases:
        # The reference runs before the package's answer functions are switched off.
        expected = spec.reference(*case.args)
        tolerance = 0.0 if precision is None or spec.scale is None else precision * spec.scale(*case.args)
        # The student's function gets its own copies: it may not change the caller's arrays,
        # and a function that does must not change what the reference sees either.
        copies = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in case.args)
        inputs = dict(zip(params, case.args))
        failure: str | None = None
        received: Any = None
        error: Exception | None = None
        timed_out = False
        difference: float | None = None
        with _without_answers(exercise, func) as (calls, call):
            try:
                received = _call_with_limit(call, copies, limit)
            except _OutOfTime:
                timed_out = True
            except Exception as exc:  # noqa: BLE001 -- any error of the student's code is a verdict
                error = exc
        called = calls[0] if calls else None
        if timed_out:
            failure = f"ran out of time: it did not return within {limit:g} s"
            received = None
        elif called is not None:
            name, via = called
            failure = (f"called {name}" if via is None else f"called {via}, which uses {name}") + (
                ", which this exercise asks you to write: write it yourself")
        elif isinstance(error, NotImplementedError):
            message = (f"check.{exercise}: not implemented yet. Replace the line "
                       "`raise NotImplementedError` with your code, then run this cell again.")
            return _finish(CheckResult(exercise, False, "not implemented", len(cases), len(passed),
                                       passed, message=message), quiet)
        elif error is not None:
            failure = "raised an exception"
            received = f"{type(error).__name__}: {error}"
        if failure is None:
            try:
                spec.compare(expected, received, tolerance)
            except _Mismatch as mismatch:
                failure, received, difference = mismatch.why, mismatch.received, mismatch.difference
        if failure is None:
            changed = [p for p, a, c in zip(params, case.args, copies)
                       if isinstance(a, np.ndarray) and not np.array_equal(a, c, equal_nan=True)]
            if changed:
                failure = f"changed its argument {', '.join(changed)} in place"
        if failure is None:
            passed.append(case.name)
            continue
        hint = case.hint
        if timed_out:
            hint = (f"Your function is probably stuck in an endless loop, for example a loop that "
                    f"waits for the perceptron to make no mistake, which never happens on data it "
                    f"cannot separate. Run it on these inputs yourself and interrupt it (the stop "
                    f"button, or Ctrl-C) to see where it is. If it is only slow, "
                    f"check.{exercise}(your_function, time_limit=60) gives each case a minute. "
                    + hint)
        elif called is not None:
            # The case's hint is about the answer, not about this: leave it out.
            hint = (f"The check grades your own code, so {called[0]} is switched off while it "
                    f"runs (numpy, scipy and the rest of the package are not).")
        elif failure == "raised an exception":
            hint = ("Your function raised an error on these inputs. Run it on them yourself to "
                    "see where. " + hint)
        elif "in place" in failure:
            hint = ("Return a new array (e.g. start from a copy) instead of modifying the one you "
                    "were given: the caller still needs it.")
        elif "where" in failure or "not an array" in failure:
            hint = f"Check what your function returns. {hint}"
        float_compared = difference is not None
        result = CheckResult(exercise, False, "failed", len(cases), len(passed), passed,
                             case.name, inputs, expected, received, hint, timed_out=timed_out,
                             called=called[0] if called else None,
                             tolerance=tolerance if float_compared else None)
        lines = [f"check.{exercise}: {len(passed)} of {len(cases)} cases passed"
                 + (f" ({', '.join(passed[:6])}{', ...' if len(passed) > 6 else ''})" if passed else "")
                 + f"; case '{case.name}' failed: your function {failure}."]
        lines += _format_inputs(exercise, case, params)
        if called is None:
            lines += _labelled("expected", _show_answer(expected))
            got = f"nothing within {limit:g} s" if timed_out else _show_answer(received)
            lines += _labelled("received", got)
        if float_compared:
            lines.append(textwrap.fill(
                f"Compared to a relative {precision:g} of {spec.scale_name} "
                f"({spec.scale(*case.args):.6g}): a difference up to {tolerance:.3g} passes; "
                f"yours is {difference:.3g}.", 96, initial_indent="    ", subsequent_indent="    "))
        lines.append(textwrap.fill(f"Hint: {hint}", 96, initial_indent="    ", subsequent_indent="    "))
        result.message = "\n".join(lines)
        return _finish(result, quiet)
    n_fixed = sum(not c.name.startswith("random") for c in cases)
    edge = ", ".join(c.name for c in cases if not c.name.startswith("random"))
    message = textwrap.fill(f"check.{exercise}: all {len(cases)} cases passed: {n_fixed} edge cases "
                            f"({edge}) and {len(cases) - n_fixed} random cases (seed {SEED}).",
                            96, subsequent_indent="    ")
    return _finish(CheckResult(exercise, True, "passed", len(cases), len(passed), passed,
                               message=message), quiet)


def _finish(result: CheckResult, quiet: bool) -> CheckResult:
    result._quiet = quiet
    if not quiet:
        print(result.message)
    return result


def _documented(check: Callable[..., CheckResult]) -> Callable[..., CheckResult]:
    """Append the parameters every check shares to its docstring (one text, not ten copies)."""
    check.__doc__ = (check.__doc__ or "").rstrip() + """

    Parameters
    ----------
    func : your function (not its result: ``check.x(f)``, not ``check.x(f(...))``).
    quiet : do not print the verdict; it is in the result's ``message``.
    time_limit : seconds each case may run (default :data:`TIME_LIMIT`); ``None`` for no limit.

    Returns
    -------
    CheckResult, truthy when every case passed.
    """
    return check


def case_inputs(exercise: str, case: str) -> dict[str, Any]:
    """The inputs of one case of a check, by parameter name, to rerun your function on them.

    A failing verdict prints its case's inputs in full unless they are large; then it names
    this function. ``f(**check.case_inputs("separable", "XOR"))`` reruns ``f`` on that case.
    """
    if exercise not in _SPECS:
        raise KeyError(f"there is no check.{exercise}; the checks are {', '.join(_SPECS)}.")
    spec = _SPECS[exercise]
    cases = spec.cases()
    for c in cases:
        if c.name == case:
            return {p: a.copy() if isinstance(a, np.ndarray) else a for p, a in zip(spec.params, c.args)}
    names = ", ".join(c.name for c in cases)
    raise KeyError(f"check.{exercise} has no case {case!r}; its cases are: {names}.")


def _rng(salt: int) -> np.random.Generator:
    return np.random.default_rng([SEED, salt])


def _arr(rows: Any) -> np.ndarray:
    return np.array(rows, dtype=float)


# --- counting mistakes (chapter "first_look") ------------------------------------------------


def _ref_mistakes(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> int:
    # A point on the line (score 0) counts as a mistake, as in the perceptron's own test.
    return int(np.count_nonzero(y * (X @ w) <= 0))


def _mistakes_cases() -> list[Case]:
    cases = [
        Case("all correct", (_arr([[1, 2], [-2, -1]]), _arr([1, -1]), _arr([1, 1])),
             "A point is correct when y w·x > 0."),
        Case("one wrong", (_arr([[1, 2], [2, 1]]), _arr([1, -1]), _arr([1, 1])),
             "A point is a mistake when its label disagrees with the side of the line it is on: "
             "multiply the score by the label."),
        Case("a point on the line", (_arr([[1, -1], [2, 1]]), _arr([1, 1]), _arr([1, 1])),
             "A point on the line (score exactly 0) counts as a mistake."),
        Case("zero weights", (_arr([[1, 2], [3, 4], [5, 6]]), _arr([1, -1, 1]), _arr([0, 0])),
             "With w = 0 every score is 0, so every point is a mistake."),
        Case("a point at the origin", (_arr([[0, 0], [1, 0]]), _arr([-1, 1]), _arr([1, 0])),
             "The origin has score 0 under every w: a mistake."),
        Case("all wrong", (_arr([[1, 0], [2, 0]]), _arr([-1, -1]), _arr([1, 0])),
             "Count every point with y w·x ≤ 0, not only the first."),
    ]
    rng = _rng(10)
    for k in range(N_RANDOM):
        n, d = int(rng.integers(1, 12)), int(rng.integers(1, 4))
        cases.append(Case(f"random {k + 1}", (rng.normal(size=(n, d)), rng.choice([-1.0, 1.0], size=n),
                                               rng.normal(size=d)),
                          "Count the points with y w·x ≤ 0."))
    return cases


@_documented
def mistakes(func: Callable[..., Any], *, quiet: bool = False,
             time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y, w)``: how many points have ``yᵢ w·xᵢ ≤ 0`` (an int).

    ``margins`` is switched off while it runs.
    """
    return _run("mistakes", func, quiet=quiet, time_limit=time_limit)


# --- the first mistake (chapter "first_look") -------------------------------------------------


def _ref_first_mistake(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> int | None:
    # The test of `mistakes` (a score of 0 is a mistake), and the first row that fails it: the
    # point on which a sweep of the perceptron that starts from w makes its first update.
    wrong = np.flatnonzero(y * (X @ w) <= 0)
    return int(wrong[0]) if wrong.size else None


def _first_mistake_cases() -> list[Case]:
    cases = [
        Case("one wrong", (_arr([[2, 1], [1, 3], [-1, 2], [3, 0]]), _arr([1, 1, 1, 1]), _arr([1, 0])),
             "Return the index of the mistaken point, counting the rows from 0 as NumPy does, "
             "not how many points are wrong."),
        Case("all correct", (_arr([[1, 2], [2, -1], [3, 0]]), _arr([1, 1, 1]), _arr([1, 1])),
             "When the line gets every point right there is no first mistake: return None "
             "(not -1, 0 or the number of points)."),
        Case("several wrong", (_arr([[1, 1], [-1, 2], [2, -3], [-2, -1]]), _arr([1, 1, -1, -1]),
                               _arr([1, 0])),
             "Two points are wrong: return the first of them, in the order of the rows."),
        Case("a point on the line first", (_arr([[1, -1], [2, 1], [-1, -2]]), _arr([1, 1, 1]),
                                           _arr([1, 1])),
             "A point on the line (score exactly 0) is a mistake, and here it is the first row."),
        Case("a point on the line later", (_arr([[1, 0], [0, -1], [1, 2], [3, 1]]),
                                           _arr([1, 1, -1, 1]), _arr([2, -1])),
             "The only point the line does not get right lies on it: a score of exactly 0 "
             "counts as a mistake."),
        Case("zero weights", (_arr([[1, 2], [3, 4]]), _arr([1, -1]), _arr([0, 0])),
             "With w = 0 every score is 0, so the very first point is a mistake."),
        Case("negative labels", (_arr([[-1, 0], [3, 0], [-2, 1]]), _arr([-1, -1, -1]), _arr([1, 0])),
             "Multiply the score by the label: a point labelled -1 is right when w·x < 0."),
        Case("a point at the origin", (_arr([[1, 0], [0, 0], [2, 1]]), _arr([1, -1, 1]), _arr([1, 1])),
             "The origin has score 0 under every w, so it is a mistake, whatever its label."),
        Case("the last point", (_arr([[1, 1], [2, 3], [0, -1]]), _arr([1, 1, 1]), _arr([0, 1])),
             "Look at every row, the last one too."),
    ]
    n_fixed = len(cases)
    rng = _rng(11)
    while len(cases) < n_fixed + N_RANDOM:
        k = len(cases) - n_fixed
        n, d = int(rng.integers(1, 12)), int(rng.integers(1, 5))
        if k % 2 == 0:
            # Small integers: every score is exact, and some are exactly 0 (mistakes).
            X = rng.integers(-3, 4, size=(n, d)).astype(float)
            w = rng.integers(-2, 3, size=d).astype(float)
        else:
            X, w = rng.normal(size=(n, d)), rng.normal(size=d)
            if np.any(np.abs(X @ w) <= 1e-9 * (np.abs(X) @ np.abs(w))):
                continue  # a score within rounding of 0: a float computation could call it either way
        # Labels the line gets right (a score of 0 gets -1, still a mistake), then up to two
        # flipped, so that the first mistake falls anywhere, or nowhere.
        y = np.where(X @ w > 0, 1.0, -1.0)
        flipped = rng.choice(n, size=min(n, int(rng.integers(0, 3))), replace=False)
        y[flipped] *= -1
        cases.append(Case(f"random {k + 1}", (X, y, w),
                          "The first row i with y_i w·x_i ≤ 0, counting from 0, or None."))
    return cases


@_documented
def first_mistake(func: Callable[..., Any], *, quiet: bool = False,
                  time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y, w)``: the index of the first row with ``yᵢ w·xᵢ ≤ 0`` (an int), or None.

    It is the point on which a sweep of the perceptron that starts from ``w`` updates first.
    ``margins`` and the perceptron runners that report where they update are switched off while
    it runs (:data:`ANSWERS`).
    """
    return _run("first_mistake", func, quiet=quiet, time_limit=time_limit)


# --- the perceptron update (chapter "perceptron") ---------------------------------------------


def _ref_update(w: np.ndarray, x: np.ndarray, y: float) -> np.ndarray:
    # The book's rule (the CS229 notes'): a score y w·x ≤ 0, ties included, is a mistake.
    return w + y * x if y * float(w @ x) <= 0 else w.copy()


def _update_cases() -> list[Case]:
    cases = [
        Case("mistake on a positive example", (_arr([1, -2]), _arr([-1, 1]), 1.0),
             "On a mistake the new weights are w plus y times x."),
        Case("mistake on a negative example", (_arr([2, 1]), _arr([1, 1]), -1.0),
             "A mistake on a negative example (y = -1) moves w away from x: the label enters "
             "the update."),
        Case("correct positive", (_arr([1, 1]), _arr([2, 0.5]), 1.0),
             "When y w·x > 0 the example is classified correctly and w stays as it is."),
        Case("correct negative", (_arr([1, 1]), _arr([-2, -0.5]), -1.0),
             "A negative example with a negative score is correct: compare y w·x with 0, not "
             "w·x alone."),
        Case("tie: zero score", (_arr([1, -1]), _arr([2, 2]), 1.0),
             "A score of exactly 0 (the point lies on the boundary) counts as a mistake in "
             "this book, so it triggers an update."),
        Case("zero weights", (_arr([0, 0, 0]), _arr([1, 2, 3]), -1.0),
             "From w = 0 every score is 0, a tie, so the first example is always a mistake."),
    ]
    rng = _rng(1)
    for k in range(N_RANDOM):
        d = int(rng.integers(1, 6))
        cases.append(Case(f"random {k + 1}", (rng.normal(size=d), rng.normal(size=d),
                                               float(rng.choice([-1.0, 1.0]))),
                          "Compute the score y w·x; update only when it is at most 0."))
    return cases


@_documented
def update(func: Callable[..., Any], *, quiet: bool = False,
           time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(w, x, y)``: the weights after one perceptron step on the example (x, y).

    A mistake is a score ``y w·x ≤ 0`` (ties count); on a mistake the new weights are
    ``w + y x``, otherwise ``w``. Return a new array; do not change ``w`` in place. Every entry
    may be off by 1e-6 times the largest ``|entry|`` of w and x. ``perceptron_core`` has no
    function that answers it, so none is switched off.
    """
    return _run("update", func, quiet=quiet, time_limit=time_limit)


# --- the perceptron's epochs (chapter "perceptron") -------------------------------------------


def _ref_train(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
    # The chapter's T-epoch algorithm without its offset: from w = 0, `epochs` sweeps over the
    # rows in order, each example tested with the weights as they are when the sweep reaches
    # it. A tie is a mistake. (The package's runners decide every sign exactly; the check's
    # cases are small integers, on which a float loop is exact too.)
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        for x, label in zip(X, y):
            if label * float(w @ x) <= 0:
                w = w + label * x
    return w


def _train_scale(X: np.ndarray, y: np.ndarray, epochs: int) -> float:
    # Each update adds at most R² to ‖w‖² (it happens only when y w·x ≤ 0), and a run of T
    # epochs over n points makes at most Tn of them: every |entry| of w, at any time, is at most
    # ‖w‖ ≤ R √(Tn).
    return _geometry.radius(X) * math.sqrt(epochs * len(X))


def _train_cases() -> list[Case]:
    cases = [
        Case("one point", (_arr([[2, -1]]), _arr([-1]), 1),
             "Start from w = 0: the first example's score is then 0, a tie, which counts as a "
             "mistake, so it always causes an update, w + y x."),
        Case("negative labels", (_arr([[2, 1]]), _arr([-1]), 2),
             "The test multiplies the score by the label, y w·x ≤ 0: a point labelled -1 is "
             "right when w·x < 0, and then w stays as it is."),
        Case("the order of the rows", (_arr([[1, 2], [2, -1], [-1, 1]]), _arr([1, -1, 1]), 1),
             "Go through the rows in their order, first to last, and test each with the "
             "weights as they are when you reach it, after the updates of the rows before it."),
        Case("duplicate points", (_arr([[1, 1], [1, 1], [-1, 2]]), _arr([1, 1, -1]), 1),
             "Make one full pass over all the rows, testing each with the weights as they are "
             "when the pass reaches it: once the first copy has been learned, the second one "
             "is right and adds nothing."),
        Case("epochs = 0", (_arr([[1, 2], [3, -1]]), _arr([1, -1]), 0),
             "No pass, no update: return w = 0, an array of d zeros."),
        Case("stops after the given epochs", (_arr([[1, 0], [-1, 2], [2, -3]]), _arr([1, 1, 1]), 2),
             "Make exactly `epochs` passes, each continuing from the weights the one before "
             "ended with, even if the data are not separated yet (here that takes 18)."),
        Case("a point at the origin", (_arr([[0, 0], [1, 2], [0, 0]]), _arr([1, -1, -1]), 3),
             "The origin has score 0 under every w, so it is always a mistake, but its update "
             "adds y·0 = 0 and changes nothing."),
        Case("not separable", (_arr([[-1, 0], [1, 2], [2, -1], [-2, -1]]), _arr([1, 1, 1, -1]), 3),
             "No w separates these data, so every pass makes a mistake and w keeps changing: "
             "stop after `epochs` passes anyway and return the weights you have."),
    ]
    rng = _rng(12)
    for k in range(N_RANDOM):
        # Small integers: every score of a run is an integer far below 2²⁴, exact in float32 in
        # any order of summation, so every implementation makes the same decisions, ties
        # included. Four kinds in turn: labels of a hyperplane through the origin (separable,
        # most converge within a few passes), random labels, random labels with repeated points
        # and a point at the origin, and an XOR-like set with its corners repeated.
        n, d = int(rng.integers(2, 9)), int(rng.integers(1, 5))
        kind = k % 4
        if kind == 0:
            w_star = rng.integers(-2, 3, size=d)
            w_star[0] = w_star[0] or 1  # not all zero
            X = rng.integers(-3, 4, size=(n, d))
            X = X[X @ w_star != 0]
            if len(X) == 0:
                X = w_star[None, :].copy()
            y = np.sign(X @ w_star).astype(float)
        elif kind == 1 or kind == 2:
            X = rng.integers(-3, 4, size=(n, d))
            if kind == 2:
                X = np.vstack([X, X[rng.integers(0, n, size=2)], np.zeros((1, d), dtype=X.dtype)])
                X = X[rng.permutation(len(X))]
            y = rng.choice([-1.0, 1.0], size=len(X))
        else:
            corners = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1]]) * int(rng.integers(1, 3))
            X = corners[rng.integers(0, 4, size=n + 2)]
            if d > 2:  # the XOR in the first two coordinates, more coordinates beside it
                X = np.hstack([X, rng.integers(-1, 2, size=(len(X), d - 2))])
            y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)
        cases.append(Case(f"random {k + 1}", (X.astype(float), y, int(rng.integers(0, 7))),
                          "From w = 0, `epochs` passes in order, w ← w + y_i x_i whenever "
                          "y_i w·x_i ≤ 0."))
    return cases


@_documented
def train(func: Callable[..., Any], *, quiet: bool = False,
          time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y, epochs)``: the perceptron's weights after ``epochs`` passes (no offset).

    Starting from ``w = 0``, each pass goes through the rows in order and sets ``w ← w + yᵢ xᵢ``
    whenever ``yᵢ w·xᵢ ≤ 0`` (ties count); ``epochs = 0`` gives ``w = 0``. The answer is a new
    array of length d. Every entry may be off by 1e-6 times ``R √(epochs·n)``, the largest
    ``‖w‖`` such a run can reach. The package's perceptron runners (:data:`ANSWERS`) are
    switched off while it runs.
    """
    return _run("train", func, quiet=quiet, time_limit=time_limit)


# --- separability through the origin (chapter "separability") ---------------------------------


def _ref_separable(X: np.ndarray, y: np.ndarray) -> bool:
    verdict = _geometry.separability(X, y).separable
    if verdict is None:  # never for the check's own cases, which are chosen to be decidable
        raise RuntimeError("the reference could not decide this case")
    return bool(verdict)


def _separable_cases() -> list[Case]:
    cases = [
        Case("one point", (_arr([[1, 2]]), _arr([-1])),
             "A single non-zero point is separated by w = y x."),
        Case("XOR", (_arr([[1, 1], [-1, -1], [1, -1], [-1, 1]]), _arr([1, 1, -1, -1])),
             "XOR is the classic set that no line separates."),
        Case("a point at the origin", (_arr([[0, 0], [1, 0]]), _arr([1, 1])),
             "A point at the origin has score w·0 = 0 for every w, so no hyperplane through "
             "the origin puts it strictly on its side."),
        Case("same point with both labels", (_arr([[1, 2], [1, 2]]), _arr([1, -1])),
             "Two copies of one point with opposite labels cannot both be strictly correct."),
        Case("separable with an offset only", (_arr([[1, 1], [2, 2], [3, 3]]), _arr([1, -1, 1])),
             "Through the origin, points on one ray from the origin all get the same sign."),
        Case("offset needed in one dimension", (_arr([[1], [2]]), _arr([1, -1])),
             "On the line through the origin the sign of w x depends only on the sign of x. "
             "The question is separability through the origin, with no offset b."),
        Case("opposite rays", (_arr([[1, 0], [-2, 0]]), _arr([1, -1])),
             "x and -2x with opposite labels are separated by w = x."),
        Case("separable with a tiny margin", (_arr([[1, 1e-3], [1, -1e-3], [-1, 0]]), _arr([1, 1, -1])),
             "Separable data may have a very small margin."),
        # Balcan's example: margin about φ⁻⁸, and the perceptron needs 717 sweeps to separate it.
        Case("separable but slow for the perceptron", _data.hypercube_small_margin(8),
             "These data are separable, but the perceptron needs hundreds of sweeps to find a "
             "separator: a run that has not converged after a fixed number of sweeps proves "
             "nothing. Decide with a method that always terminates (the separability chapter)."),
    ]
    rng = _rng(2)
    for k in range(N_RANDOM):
        n, d = int(rng.integers(2, 9)), int(rng.integers(1, 4))
        X = rng.integers(-3, 4, size=(n, d)).astype(float)
        y = rng.choice([-1.0, 1.0], size=n)
        cases.append(Case(f"random {k + 1}", (X, y),
                          "Decide whether some w has y_i w·x_i > 0 for every i, strictly; the "
                          "separability chapter gives a way that always terminates."))
    return cases


@_documented
def separable(func: Callable[..., Any], *, quiet: bool = False,
              time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y)``: True when some w has ``yᵢ w·xᵢ > 0`` for all i (no offset), else False.

    It must return a bool (``numpy.bool_`` is accepted). Switched off while it runs:
    ``separability``, ``max_margin``, ``min_norm_point``, ``lp_consistent_halfspace`` and the
    perceptron runners (:data:`ANSWERS`).
    """
    return _run("separable", func, quiet=quiet, time_limit=time_limit)


# --- checking a certificate exactly (chapter "separability") ----------------------------------


def _ref_is_certificate(X: np.ndarray, y: np.ndarray, lam: np.ndarray) -> bool:
    # Separability.verify checks a certificate as the chapter states Gordan's alternative:
    # λ ≥ 0, Σλ = 1 and Σ λᵢyᵢxᵢ = 0, in fractions of the floats as given.
    return bool(_geometry.Separability(False, None, None, lam, False).verify(X, y))


def _planted_certificate(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Small integer data with a certificate built exactly: weights in eighths on 2 to 4 signed
    points zᵢ = yᵢxᵢ, the last of them -(Σ of the others' aᵢzᵢ)/4, a multiple of 1/4, so that
    every number is a float and Σ λᵢzᵢ = 0 holds exactly; the other points get weight 0.
    Returns X, y, λ and the support's indices."""
    d, k = int(rng.integers(1, 4)), int(rng.integers(2, 5))
    extra = int(rng.integers(0, 4))
    cuts = np.sort(rng.choice(np.arange(1, 4), size=k - 2, replace=False))
    a = np.diff(np.r_[0, cuts, 4])  # k - 1 positive parts of 4, then 4 for the last point
    Z = rng.integers(-3, 4, size=(k - 1, d)).astype(float)
    Z = np.r_[Z, [-(a @ Z) / 4], rng.integers(-3, 4, size=(extra, d)).astype(float)]
    lam = np.r_[a, 4, np.zeros(extra)] / 8
    y = rng.choice([-1.0, 1.0], size=len(Z))
    order = rng.permutation(len(Z))
    X, y, lam = (y[:, None] * Z)[order], y[order], lam[order]
    return X, y, lam, np.flatnonzero(lam)


def _is_certificate_cases() -> list[Case]:
    xor_X, xor_y = _arr([[1, 1], [-1, -1], [1, -1], [-1, 1]]), _arr([1, 1, -1, -1])
    and_X, and_y = _arr([[0, 0], [0, 1], [1, 0], [1, 1]]), _arr([-1, -1, -1, 1])
    ulp = 2.0**-54  # one unit in the last place of 0.25
    cases = [
        Case("XOR with weights 1/4", (xor_X, xor_y, _arr([0.25] * 4)),
             "With z_i = y_i x_i the four points of XOR add up to 0, so equal weights 1/4 are a "
             "certificate: all ≥ 0, sum 1, and Σ λ_i y_i x_i = 0."),
        Case("a point with both labels", (_arr([[1, 2], [1, 2]]), _arr([1, -1]), _arr([0.5, 0.5])),
             "The sum is Σ λ_i y_i x_i: multiply each point by its label. Here ½(1, 2) - ½(1, 2) = 0."),
        Case("a point at the origin", (_arr([[0, 0], [1, 0]]), _arr([1, 1]), _arr([1, 0])),
             "All the weight on the origin is a certificate: 1·y·0 = 0, as the chapter says of "
             "the input (0, 0). Weights equal to 0 are allowed."),
        Case("AND through the origin with q = 1/4", (and_X, and_y, _arr([0.25] * 4)),
             "The chapter's certificates for AND through the origin are (1 - 3q, q, q, q) with "
             "0 ≤ q ≤ 1/3; q = 1/4 gives a quarter each."),
        Case("separable data", (_arr([[1, 0], [0, 1]]), _arr([1, 1]), _arr([0.5, 0.5])),
             "Compute Σ λ_i y_i x_i: here it is (½, ½), not 0. (No weights could be a certificate: "
             "w = (1, 1) separates these points.)"),
        Case("the labels matter", (_arr([[1, 0], [-1, 0]]), _arr([1, -1]), _arr([0.5, 0.5])),
             "Σ λ_i x_i = 0 here, but the certificate's sum is Σ λ_i y_i x_i = (1, 0). "
             "(w = (1, 0) separates these two points.)"),
        Case("not normalized", (xor_X, xor_y, _arr([1, 1, 1, 1])),
             "In this chapter's statement of Gordan's alternative the weights sum to exactly 1."),
        Case("all weights zero", (xor_X, xor_y, _arr([0, 0, 0, 0])),
             "λ = 0 gives Σ λ_i y_i x_i = 0 for any data and proves nothing: the weights must "
             "sum to 1."),
        Case("a negative weight", (_arr([[1, 0], [2, 0]]), _arr([1, 1]), _arr([2, -1])),
             "Every weight must be ≥ 0. Here 2·(1, 0) - 1·(2, 0) = 0 and 2 - 1 = 1, yet "
             "w = (1, 0) separates the points: a negative weight can cancel anything."),
        Case("AND through the origin with q = 1/3 in floats", (and_X, and_y, _arr([0, 1 / 3, 1 / 3, 1 / 3])),
             "1/3 is not a float: three copies of the float nearest to 1/3 add up to exactly "
             "1 - 2^-54, not 1, although float addition rounds that sum to 1.0. Check in exact "
             "arithmetic: fractions.Fraction(v) is the exact value of the float v."),
        Case("decimal weights 0.1", (_arr([[1, 0]] * 5 + [[-1, 0]] * 5), _arr([1] * 10), _arr([0.1] * 10)),
             "The float 0.1 is not 1/10, and ten of them do not add up to 1. A comparison with a "
             "tolerance (isclose, allclose) would accept these weights; a certificate must "
             "satisfy its equations exactly."),
        Case("one weight off by one unit in the last place",
             (xor_X, xor_y, _arr([0.25, 0.25, 0.25, 0.25 + ulp])),
             "The last weight is 0.25 + 2^-54, the next float after 0.25: exactly, the weights sum "
             "to 1 + 2^-54 and Σ λ_i y_i x_i = (2^-54, -2^-54), though float arithmetic gives a "
             "sum of 1.0 and a vector a tolerance calls 0."),
        Case("weights summing to 1 and a sum off by 2^-53",
             (xor_X, xor_y, _arr([0.25 + ulp, 0.25 - ulp, 0.25, 0.25])),
             "These weights sum to exactly 1, but Σ λ_i y_i x_i = (2^-53, 2^-53), not 0. A "
             "tolerance accepts it; the exact check does not."),
        Case("large numbers that cancel", (_arr([[4e16, 1], [4, 2], [4e16, 1], [4, 2]]), _arr([1, 1, -1, -1]),
                                           _arr([0.25] * 4)),
             "A certificate: exactly, 1e16 + 1 - 1e16 - 1 = 0. In float64, 1e16 + 1 rounds to 1e16, "
             "so the sum taken in this order comes out as -1 (in another order, 0): sum in "
             "exact arithmetic."),
        Case("large numbers that do not cancel", (_arr([[4e16, 0], [1, 0], [4e16, 0]]), _arr([1, 1, -1]),
                                                  _arr([0.25, 0.5, 0.25])),
             "Not a certificate: exactly, Σ λ_i y_i x_i = (1e16 + 0.5 - 1e16, 0) = (0.5, 0). In "
             "float64, 1e16 + 0.5 rounds to 1e16 and the sum comes out as 0. (These data are not "
             "separable, but these weights do not prove it.)"),
    ]
    rng = _rng(13)
    for k in range(N_RANDOM):
        X, y, lam, support = _planted_certificate(rng)
        how = k % 6  # 0 and 1: as planted; 2-5: one change that a certificate does not survive
        if how == 2:  # move 1/8 of the weight from one support point to another point
            src = int(rng.choice(support))
            dst = int(rng.choice([i for i in range(len(lam)) if i != src]))
            lam[src] -= 0.125
            lam[dst] += 0.125
        elif how == 3:  # flip the label of a support point, its x unchanged
            i = int(rng.choice(support))
            y[i] = -y[i]
        elif how == 4:  # one support weight one unit in the last place larger
            i = int(rng.choice(support))
            lam[i] = np.nextafter(lam[i], 1.0)
        elif how == 5:  # a copy of a support point, with weight -1/8 that the point makes up for
            i = int(rng.choice(support))
            label = float(rng.choice([-1.0, 1.0]))
            X, y = np.r_[X, [label * y[i] * X[i]]], np.r_[y, label]
            lam = np.r_[lam, -0.125]
            lam[i] += 0.125
        cases.append(Case(f"random {k + 1}", (X, y, lam),
                          "A certificate: every λ_i ≥ 0, Σ λ_i = 1 and Σ λ_i y_i x_i = 0, each "
                          "exactly, for the floats as given."))
    return cases


@_documented
def is_certificate(func: Callable[..., Any], *, quiet: bool = False,
                   time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y, lam)``: is λ a certificate of Gordan's alternative through the origin?

    True when every ``λᵢ ≥ 0``, ``Σᵢ λᵢ = 1`` and ``Σᵢ λᵢ yᵢ xᵢ = 0``, all exactly for the floats
    as given (rational arithmetic: every float is a fraction), else False. It must return a bool
    (``numpy.bool_`` is accepted). Switched off while it runs: ``Separability`` (whose
    ``verify`` checks a certificate), ``separability`` and ``certificates.carries_certificate``
    (:data:`ANSWERS`).
    """
    return _run("is_certificate", func, quiet=quiet, time_limit=time_limit)


# --- margin and radius (chapter "margin") -----------------------------------------------------


def _ref_margin(X: np.ndarray, y: np.ndarray, w: np.ndarray, b: float) -> float:
    return _geometry.dataset_margin(X, y, w, b)


def _margin_cases() -> list[Case]:
    cases = [
        Case("unit w and no offset", (_arr([[2, 1], [-1, -3]]), _arr([1, -1]), _arr([1, 0]), 0.0),
             "The margin of a data set is the smallest of its points' margins."),
        Case("w not of unit length", (_arr([[2, 1], [-1, -3]]), _arr([1, -1]), _arr([3, 4]), 0.0),
             "The geometric margin divides by the length of w, so scaling w does not change it."),
        Case("with an offset", (_arr([[2, 1], [-1, -3]]), _arr([1, -1]), _arr([0, 2]), 1.0),
             "The offset b enters the score: y (w·x + b)."),
        Case("a misclassified point", (_arr([[2, 1], [1, 3]]), _arr([1, -1]), _arr([1, 1]), 0.0),
             "A point on the wrong side has a negative margin, and then so does the data set: "
             "keep the sign, do not take absolute values."),
        Case("a point on the boundary", (_arr([[1, -1], [3, 1]]), _arr([1, 1]), _arr([1, 1]), 0.0),
             "A point on the hyperplane has margin 0."),
        Case("a point at the origin", (_arr([[0, 0], [4, 0]]), _arr([-1, 1]), _arr([2, 0]), -1.0),
             "The origin has score b, so its margin is y b / ‖w‖."),
        Case("negative labels", (_arr([[-1, 0], [-2, 0], [5, 0]]), _arr([-1, -1, 1]), _arr([1, 0]), 0.0),
             "Multiply each score by the point's label before taking the minimum."),
    ]
    rng = _rng(3)
    for k in range(N_RANDOM):
        n, d = int(rng.integers(1, 9)), int(rng.integers(1, 5))
        cases.append(Case(f"random {k + 1}", (rng.normal(size=(n, d)), rng.choice([-1.0, 1.0], size=n),
                                               rng.normal(size=d) * 3, float(rng.normal())),
                          "margin = min over i of y_i (w·x_i + b) / ‖w‖."))
    return cases


@_documented
def margin(func: Callable[..., Any], *, quiet: bool = False,
           time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y, w, b)``: the geometric margin ``minᵢ yᵢ (w·xᵢ + b)/‖w‖`` (a float).

    Compared to within 1e-6 times ``R + |b|/‖w‖``; ``margins`` and ``dataset_margin`` are
    switched off while it runs.
    """
    return _run("margin", func, quiet=quiet, time_limit=time_limit)


def _radius_cases() -> list[Case]:
    cases = [
        Case("one point", (_arr([[3, 4]]),), "The radius of one point is its length."),
        Case("negative coordinates", (_arr([[-3, -4], [1, 1]]),),
             "Lengths are never negative: ‖(-3, -4)‖ = 5."),
        Case("largest entry is not largest norm", (_arr([[4, 0], [3, 3]]),),
             "R is the largest Euclidean length ‖x‖, not the largest coordinate."),
        Case("all points at the origin", (_arr([[0, 0], [0, 0]]),),
             "Points at the origin have length 0."),
        Case("one dimension", (_arr([[-2], [1]]),), "In one dimension ‖x‖ = |x|."),
        Case("many small points", (_arr([[1, 0]] * 5 + [[0, 2]]),),
             "R is the maximum, not a sum or an average."),
    ]
    rng = _rng(4)
    for k in range(N_RANDOM):
        n, d = int(rng.integers(1, 9)), int(rng.integers(1, 6))
        cases.append(Case(f"random {k + 1}", (rng.normal(size=(n, d)) * 2,),
                          "R = max over i of ‖x_i‖, the Euclidean length."))
    return cases


@_documented
def radius(func: Callable[..., Any], *, quiet: bool = False,
           time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X)``: the radius ``R = maxᵢ ‖xᵢ‖`` (a float).

    Compared to a relative 1e-6; ``radius`` is switched off while it runs.
    """
    return _run("radius", func, quiet=quiet, time_limit=time_limit)


# --- the mistake bound (chapter "convergence") ------------------------------------------------


def _bound_cases() -> list[Case]:
    cases = [
        Case("R = 1 and gamma = 0.5", (1.0, 0.5), "The bound is the square of R/γ."),
        Case("R = 3 and gamma = 0.5", (3.0, 0.5),
             "Both R and γ are squared: (R/γ)² = R²/γ²."),
        Case("gamma = R", (2.0, 2.0), "With γ = R the bound is 1."),
        Case("R = 0", (0.0, 0.25), "All points at the origin: R = 0, so the bound is 0."),
        Case("small margin", (1.0, 1e-3), "A small γ makes the bound large: γ is in the denominator."),
    ]
    rng = _rng(5)
    for k in range(N_RANDOM):
        R = float(rng.uniform(0.1, 10))
        cases.append(Case(f"random {k + 1}", (R, float(R * rng.uniform(0.01, 1))),
                          "The bound is (R/γ)²."))
    return cases


@_documented
def mistake_bound(func: Callable[..., Any], *, quiet: bool = False,
                  time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(R, gamma)``: the Block–Novikoff bound ``(R/γ)²`` (a float).

    Compared to a relative 1e-6; ``novikoff_bound`` and the bounds equal to it for some argument
    are switched off while it runs (:data:`ANSWERS`).
    """
    return _run("mistake_bound", func, quiet=quiet, time_limit=time_limit)


# --- the proof's two quantities (chapter "convergence") ---------------------------------------


def _ref_proof_quantities(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> np.ndarray:
    # The chapter's run: the cyclic perceptron from w₀ = 0, a tie y w·x = 0 a mistake, until a
    # clean pass. Every case has small-integer or dyadic data, so every score is exact and the
    # loop needs no exact-sign machinery; every case is separable through the origin, so it ends.
    unit = u / float(np.linalg.norm(u))
    w = np.zeros(X.shape[1])
    rows = []
    clean = False
    while not clean:
        clean = True
        for x, label in zip(X, y):
            if label * float(w @ x) <= 0:
                w = w + label * x
                rows.append((float(w @ unit), float(w @ w)))
                clean = False
    return np.array(rows, dtype=float).reshape(-1, 2)


def _proof_scale(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> float:
    # After k ≤ M mistakes ‖w_k‖² ≤ kR² (growth lemma) and |w_k·u| ≤ ‖w_k‖ ≤ √k R for a unit u
    # (Cauchy–Schwarz): the largest either entry can be.
    M, R = len(_ref_proof_quantities(X, y, u)), _geometry.radius(X)
    return max(M * R * R, math.sqrt(M) * R)


def _separable_integers(rng: np.random.Generator, n: int, d: int,
                        denominator: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points whose entries are multiples of 1/denominator in [-3, 3], labelled by the side of a
    random integer w*: separable through the origin, with every score of a run exact, in float32
    as in float64."""
    w_star = np.zeros(d)
    while not w_star.any():
        w_star = rng.integers(-3, 4, size=d).astype(float)
    X = np.zeros((0, d))
    while len(X) == 0:
        X = rng.integers(-3 * denominator, 3 * denominator + 1, size=(n, d)) / denominator
        X = X[X @ w_star != 0]  # a point on w*'s hyperplane would have no label
    return X, np.sign(X @ w_star), w_star


def _proof_cases() -> list[Case]:
    three = _arr([[1, 20], [1, -25], [1, 30]])  # the chapter's three points, times 10
    cases = [
        Case("one point", (_arr([[1, 0]]), _arr([1]), _arr([1, 0])),
             "From w₀ = 0 every score y w·x is 0, a tie, and a tie is a mistake: the first point "
             "is always a mistake. Record the two quantities after its update, so row 0 holds "
             "w₁·u and ‖w₁‖²."),
        Case("squared length", (_arr([[3, 4]]), _arr([1]), _arr([0, 1])),
             "The second quantity is the squared length ‖w_k‖² of the growth lemma, not ‖w_k‖."),
        Case("negative labels", (_arr([[-1, 0], [2, 1]]), _arr([-1, 1]), _arr([1, 0])),
             "A mistake on (x, y) adds y x, so a mistake on a negative example subtracts x: the "
             "label enters the update, and the test y w·x ≤ 0."),
        Case("u not of unit length", (_arr([[3, 4], [0, 1]]), _arr([1, 1]), _arr([0, 2])),
             "The chapter's u is a unit vector: use u/‖u‖, so that w_k·u is the component of "
             "w_k along the direction of u."),
        Case("several passes", (three, _arr([1, 1, 1]), _arr([1, 0])),
             "Sweep the rows in their order again and again, and stop only after a whole pass "
             "without a mistake: here the second pass still makes one. (The first column grows "
             "by 1 at every mistake while the second jumps about.)"),
        Case("a u that does not separate", (three, _arr([1, 1, 1]), _arr([0, 1])),
             "The quantities are defined for any non-zero u: w_k·u may fall and be negative when "
             "u does not separate the data. Keep its sign."),
        Case("ties after the start", (_arr([[1, 0, 0], [0, -1, 0], [0, 0, 1]]), _arr([1, -1, 1]),
                                      _arr([1, 1, 1])),
             "On the chapter's orthonormal points every point meets a tie, y w·x = 0, when it is "
             "first visited, also after the first update: each tie is a mistake. Both lemmas "
             "hold with equality here: w_k·u = k/√3 and ‖w_k‖² = k."),
        Case("ties in later passes", (_arr([[1, 1], [1, 0]]), _arr([1, -1]), _arr([-1, 2])),
             "Ties can come in any pass: the run makes five mistakes over four passes, four of "
             "them at a tie y w·x = 0."),
    ]
    rng = _rng(15)
    for k in range(N_RANDOM):
        M = 0
        while M < 3:  # runs of several mistakes, as a run of one shows little
            n, d = int(rng.integers(3, 13)), int(rng.integers(1, 5))
            X, y, w_star = _separable_integers(rng, n, d, 4 if k % 4 == 3 else 1)
            M = len(_ref_proof_quantities(X, y, w_star))
        if k % 3 == 0:
            u = w_star  # a separating u of integer length
        elif k % 3 == 1:
            u = rng.normal(size=d)  # any direction
        else:
            u = np.zeros(d)
            while not u.any():
                u = rng.integers(-3, 4, size=d).astype(float)
        cases.append(Case(f"random {k + 1}", (X, y, u),
                          "Run the perceptron from w₀ = 0 over the rows in order (y w·x ≤ 0 is a "
                          "mistake) until a pass without a mistake; after each update record "
                          "w_k·u with u normalized, and ‖w_k‖²."))
    return cases


@_documented
def proof_quantities(func: Callable[..., Any], *, quiet: bool = False,
                     time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y, u)``: the two quantities of the Block–Novikoff proof along a run.

    The run is the cyclic perceptron from ``w₀ = 0`` over the rows of X in their order, a score
    ``yᵢ w·xᵢ ≤ 0`` (ties included) a mistake, until a pass makes no mistake; every case is
    separable through the origin, so it ends. ``func`` returns a float array of shape (M, 2),
    M the number of mistakes, whose row ``k − 1`` holds ``w_k·u`` (u divided by its norm) and
    ``‖w_k‖²`` after mistake k. Every entry may be off by 1e-6 times ``max(M R², √M R)``, the
    largest either can be (R the radius). The package functions that give the weights after
    each mistake (the perceptron runners, ``PerceptronLearner``, ``convert_stream``) are switched
    off while it runs (:data:`ANSWERS`).
    """
    return _run("proof_quantities", func, quiet=quiet, time_limit=time_limit)


# --- the offset trick (chapter "offset") ------------------------------------------------------


def _augment_cases() -> list[Case]:
    cases = [
        Case("c = 1", (_arr([[1, 2], [3, 4]]), 1.0),
             "Append one coordinate, equal to c, at the end of every point."),
        Case("another constant", (_arr([[1, 2], [3, 4]]), 5.0),
             "The new coordinate is c, not always 1."),
        Case("one point", (_arr([[7, -1, 2]]), 1.0), "One point gains one coordinate."),
        Case("one dimension", (_arr([[2], [-3], [0]]), 2.0),
             "Keep one row per point: the result has shape (n, d + 1)."),
        Case("points at the origin", (_arr([[0, 0], [0, 0]]), 0.5),
             "The origin becomes (0, ..., 0, c)."),
        Case("negative constant", (_arr([[1, 1]]), -1.0), "Use c exactly as given, sign included."),
    ]
    rng = _rng(6)
    for k in range(N_RANDOM):
        n, d = int(rng.integers(1, 7)), int(rng.integers(1, 5))
        cases.append(Case(f"random {k + 1}", (rng.normal(size=(n, d)), float(rng.uniform(0.1, 4))),
                          "The result is X with a last column of c's."))
    return cases


@_documented
def augment(func: Callable[..., Any], *, quiet: bool = False,
            time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, c)``: X with a last column equal to c, shape (n, d + 1).

    Every entry may be off by 1e-6 times the largest ``|entry|`` of X and c; ``augment`` is
    switched off while it runs.
    """
    return _run("augment", func, quiet=quiet, time_limit=time_limit)


# --- the mistake bound with an offset (chapter "offset") --------------------------------------


def _offset_bound_cases() -> list[Case]:
    cases = [
        Case("c = 1", (3.0, 0.5, 1.0, 1.0),
             "The bound is Block–Novikoff's (R'/γ')² on the augmented points (xᵢ, c): they "
             "lie within radius R', with R'² = R² + c², and the separator tilted towards the constant "
             "axis has margin at least γ' = γ/√(1 + b²/c²)."),
        Case("no offset: b = 0", (2.0, 0.5, 0.0, 1.0),
             "Even with b = 0 the constant coordinate lengthens every point, R'² = R² + c², so "
             "the bound is (R² + c²)/γ², not (R/γ)²."),
        Case("negative offset", (3.0, 0.5, -1.0, 1.0),
             "Only b² enters the bound: an offset -b gives the same bound as b."),
        Case("another constant", (3.0, 0.5, 1.0, 2.0),
             "c enters twice: in the radius, R'² = R² + c², and in the tilt, 1 + b²/c², both "
             "squared."),
        Case("c = |b|", (3.0, 0.5, 2.0, 2.0), "At c = |b| the tilt factor 1 + b²/c² is 2."),
        Case("the best constant", (4.0, 0.5, 1.0, 2.0),
             "At c² = R|b| the bound is smallest over c, and equals ((R + |b|)/γ)²."),
        Case("large constant", (1.0, 0.25, 0.5, 100.0),
             "A large c makes every augmented point long: R'² = R² + c²."),
        Case("tiny constant", (1.0, 0.25, 0.5, 1e-3),
             "A small c tilts the separator towards the constant axis: b²/c² is large."),
    ]
    rng = _rng(16)
    for k in range(N_RANDOM):
        R = float(rng.uniform(0.1, 10))
        gamma = float(R * rng.uniform(0.01, 1))
        # |b*| ≤ R − γ for a separator with points on both sides (the chapter's lemma).
        b = float((R - gamma) * rng.uniform(-1, 1))
        c = float(R * 10.0 ** rng.uniform(-2, 1.5))
        cases.append(Case(f"random {k + 1}", (R, gamma, b, c),
                          "The bound is (R² + c²)(1 + b²/c²)/γ²."))
    return cases


@_documented
def offset_bound(func: Callable[..., Any], *, quiet: bool = False,
                 time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(R, gamma, b, c)``: the mistake bound ``(R² + c²)(1 + b²/c²)/γ²`` (a float).

    The perceptron through the origin on the points ``(xᵢ, c)``, c > 0, when ``‖xᵢ‖ ≤ R`` and a
    unit u with offset b has ``yᵢ(u·xᵢ + b) ≥ γ > 0``. Compared to a relative 1e-6;
    ``offset_bound`` and the bounds that equal it for some argument (``novikoff_bound`` of the
    augmented radius and margin, ...) are switched off while it runs (:data:`ANSWERS`).
    """
    return _run("offset_bound", func, quiet=quiet, time_limit=time_limit)


# --- the margin perceptron's update test (chapter "margin_perceptron") ------------------------


def _ref_margin_mistake(w: np.ndarray, x: np.ndarray, y: float, gamma: float, target: float) -> bool:
    norm = float(np.linalg.norm(w))
    # With w = 0 no point has a margin yet: Margin Perceptron updates on every point.
    return True if norm == 0 else bool(y * float(w @ x) < target * gamma * norm)


def _margin_mistake_cases() -> list[Case]:
    cases = [
        Case("a true mistake", (_arr([1, 0]), _arr([-1, 1]), 1.0, 0.5, 0.5),
             "A point on the wrong side is always a margin mistake."),
        Case("correct but too close", (_arr([1, 0]), _arr([0.1, 1]), 1.0, 0.5, 0.5),
             "A correct point whose margin is below τγ is still a margin mistake."),
        Case("far enough", (_arr([1, 0]), _arr([2, 1]), 1.0, 0.5, 0.5),
             "A point whose normalized margin reaches τγ is not a margin mistake."),
        Case("target, not gamma", (_arr([1, 0]), _arr([0.4, 0]), 1.0, 0.5, 0.5),
             "The run aims for τγ, a fraction of γ: 0.4 ≥ 0.5 · 0.5."),
        Case("exactly at target", (_arr([1, 0]), _arr([0.25, 3]), 1.0, 0.5, 0.5),
             "The test is strict: a margin equal to τγ is enough, so it is not a margin mistake."),
        Case("w not of unit length", (_arr([4, 0]), _arr([0.5, 0]), 1.0, 1.0, 0.75),
             "Normalize: the margin is y w·x / ‖w‖, and scaling w must not change the verdict."),
        Case("zero weights", (_arr([0, 0]), _arr([1, 1]), 1.0, 0.5, 0.5),
             "With w = 0 no point has a margin yet, so every point counts as a margin mistake "
             "(and there is no ‖w‖ to divide by)."),
        Case("negative example", (_arr([0, 1]), _arr([0, -1]), -1.0, 0.5, 0.9),
             "Multiply by the label: y w·x."),
    ]
    rng = _rng(7)
    for k in range(N_RANDOM):
        d = int(rng.integers(1, 5))
        cases.append(Case(f"random {k + 1}", (rng.normal(size=d), rng.normal(size=d),
                                               float(rng.choice([-1.0, 1.0])), float(rng.uniform(0.05, 1)),
                                               float(rng.uniform(0.1, 0.9))),
                          "Margin mistake: y w·x / ‖w‖ < τγ, or w = 0."))
    return cases


@_documented
def margin_mistake(func: Callable[..., Any], *, quiet: bool = False,
                   time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(w, x, y, gamma, target)``: does Margin Perceptron(γ) update on (x, y)?

    True when ``w = 0`` or ``y w·x / ‖w‖ < target·gamma``, else False (a bool).
    ``margin_perceptron`` is switched off while it runs.
    """
    return _run("margin_mistake", func, quiet=quiet, time_limit=time_limit)


# --- the Margin Perceptron's whole run (chapter "margin_perceptron") --------------------------


def _margin_replay(X: np.ndarray, y: np.ndarray, gamma: float, target: float) -> tuple[np.ndarray, int, float]:
    """The run of the chapter's algorithm box, every test decided exactly.

    ``w₁ = y₁x₁``; then sweeps over the rows in order, ``w ← w + yᵢxᵢ`` at every margin mistake,
    until a sweep makes none. ``w`` is the float running sum, as the package's is, and each test
    ``y w·x/‖w‖ < τγ`` is decided on it in rational arithmetic as ``y w·x < 0`` or
    ``(y w·x)² < (τγ)² ‖w‖²``, with no square root (τγ the exact product of the two floats).

    Returns the final w, the number M of updates after the initialization, and the closest
    call: the smallest ``|y w·x/‖w‖ − τγ| / (‖x‖ + τγ)`` over the tests (in floats), how near a
    test came to going the other way relative to the largest its two sides can be.
    """
    Z = y[:, None] * X
    sizes = np.linalg.norm(X, axis=1)
    aim = Fraction(target) * Fraction(gamma)
    aim_sq, aim_float = aim * aim, float(aim)
    # Under the chapter's hypotheses (γ at most the data's margin), which every case of the
    # check meets, the run stops within this many updates; past it something is wrong.
    cap = _bounds.margin_perceptron_bound(float(sizes.max()), gamma, target)
    w = Z[0].copy()
    norm_sq = _signs.exact_dot(w, w)
    updates, closest = 0, math.inf
    while True:
        clean = True
        for z, size in zip(Z, sizes):
            s = _signs.exact_dot(z, w)
            closest = min(closest, abs(float(s) / math.sqrt(norm_sq) - aim_float) / (size + aim_float))
            if s < 0 or s * s < aim_sq * norm_sq:
                w = w + z
                norm_sq = _signs.exact_dot(w, w)
                updates, clean = updates + 1, False
        if clean:
            return w, updates, closest
        if updates > cap:
            raise RuntimeError("the run does not stop: is gamma above the data's margin?")


def _ref_margin_run(X: np.ndarray, y: np.ndarray, gamma: float, target: float) -> np.ndarray:
    return _margin_replay(X, y, gamma, target)[0]


def _margin_run_cases() -> list[Case]:
    # Every case meets the hypotheses of the chapter's theorem: some unit u has yᵢ u·xᵢ ≥ γ
    # (the tests check it with max_margin), so every run stops. The hand-made ones are multiples
    # of 1/4, and at their ties w lies along an axis, so that every way of computing a margin
    # in floats (y w·x/‖w‖, y (w/‖w‖)·x, y w·x against τγ‖w‖) is exact there.
    cases = [
        Case("one point", (_arr([[3, 4]]), _arr([-1]), 4.0, 0.5),
             "The run starts from w₁ = y₁x₁: the update the first example makes from w = 0, where "
             "no point has a normalized margin (0/0)."),
        Case("correct but too close", (_arr([[1, 0], [0.25, 1]]), _arr([1, 1]), 0.5, 0.8),
             "A point on the correct side whose normalized margin is below τγ is a margin mistake "
             "too: the run updates on it, not only on true mistakes."),
        Case("target, not gamma", (_arr([[2, 0], [0.75, 3]]), _arr([1, 1]), 1.0, 0.5),
             "The run aims for τγ, a fraction of γ: here the second point's normalized margin, "
             "0.75, reaches τγ = 0.5, so it is no margin mistake."),
        Case("exactly at target", (_arr([[2, 0], [0.5, 3]]), _arr([1, 1]), 1.0, 0.5),
             "The test is strict: a normalized margin equal to τγ is not a margin mistake, so "
             "the run makes no update on it."),
        Case("at target after an update", (_arr([[2, 0.5], [2, -2]]), _arr([-1, 1]), 1.0, 0.5),
             "After the update to w = (0, -2.5) the first point's normalized margin is exactly "
             "τγ = 0.5: not a margin mistake, as the test is strict."),
        Case("w not of unit length", (_arr([[4, 0], [1, 3]]), _arr([1, 1]), 1.5, 0.9),
             "Normalize: the margin is y w·x/‖w‖. With w = (4, 0) the second point has y w·x = 4 "
             "but normalized margin 1, below τγ = 1.35."),
        Case("negative labels", (_arr([[-2, 1], [1, -3], [0.5, 2]]), _arr([-1, 1, -1]), 1.0, 0.6),
             "Multiply by the label, in the test and in the update w ← w + y x."),
        Case("several epochs", (_arr([[-0.5, -2], [-0.5, 0]]), _arr([1, 1]), 0.5, 0.75),
             "One update may not be enough: here the second point stays a margin mistake for "
             "four epochs. Sweep again until a whole epoch makes no update."),
    ]
    rng = _rng(17)
    fixed = len(cases)
    while len(cases) < fixed + N_RANDOM:
        n, d = int(rng.integers(2, 11)), int(rng.integers(2, 5))
        u = rng.normal(size=d)
        u /= np.linalg.norm(u)
        # Multiples of 1/8 (every sum of them is exact, in float32 too) labelled by their side
        # of u's hyperplane, at distances from it between 1/4 and 3/4 while their lengths reach
        # 4: runs with several margin mistakes.
        X = rng.integers(-16, 17, size=(20 * n, d)) / 8.0
        X = X[(np.abs(X @ u) >= 0.25) & (np.abs(X @ u) <= 0.75)][:n]
        if len(X) < 2:
            continue
        y = np.where(X @ u > 0, 1.0, -1.0)
        gamma = float(np.min(np.abs(X @ u))) * float(rng.uniform(0.6, 0.99))  # below u's margin
        target = float(rng.uniform(0.3, 0.9))
        _, updates, closest = _margin_replay(X, y, gamma, target)
        # No test within 1e-5 of going the other way (relative to its sides), so that float32
        # and any order of operations decide as the exact run does; short runs, some updates.
        if closest >= 1e-5 and 1 <= updates <= 40:
            cases.append(Case(f"random {len(cases) - fixed + 1}", (X, y, gamma, target),
                              "Start from w₁ = y₁x₁; sweep in order, add yᵢxᵢ whenever "
                              "yᵢ w·xᵢ/‖w‖ < τγ; stop after an epoch with no update."))
    return cases


@_documented
def margin_run(func: Callable[..., Any], *, quiet: bool = False,
               time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y, gamma, target)``: the weights at the end of a Margin Perceptron run.

    The run of the chapter's algorithm box: ``w₁ = y₁x₁``, sweeps over the rows in order with
    ``w ← w + yᵢxᵢ`` whenever ``yᵢ w·xᵢ/‖w‖ < target·gamma`` (strictly), until a sweep makes no
    update; the final w (an array of floats). Every case has γ at most the data's margin, so
    the run stops. Every entry may be off by 1e-6 times ``(M + 1) max|xᵢⱼ|``, M the run's
    updates; ``margin_perceptron`` is switched off while it runs.
    """
    return _run("margin_run", func, quiet=quiet, time_limit=time_limit)


# --- total hinge deviation (chapter "nonseparable") -------------------------------------------


def _hinge_cases() -> list[Case]:
    cases = [
        Case("all beyond the margin", (_arr([[2, 0], [-3, 1]]), _arr([1, -1]), _arr([1, 0]), 1.0),
             "Points with margin at least γ contribute 0."),
        Case("one point inside", (_arr([[0.5, 0], [-3, 1]]), _arr([1, -1]), _arr([1, 0]), 1.0),
             "A point with margin m < γ contributes γ - m."),
        Case("a misclassified point", (_arr([[-1, 0], [-3, 1]]), _arr([1, -1]), _arr([1, 0]), 1.0),
             "A point on the wrong side has negative margin m and contributes γ - m > γ."),
        Case("w not of unit length", (_arr([[0.5, 0]]), _arr([1]), _arr([4, 0]), 1.0),
             "Use the unit vector u = w/‖w‖: the deviation must not depend on the length of w."),
        Case("a point at the origin", (_arr([[0, 0]]), _arr([-1]), _arr([0, 1]), 0.25),
             "The origin has margin 0 under every u, so it contributes exactly γ."),
        Case("negative labels", (_arr([[-0.5, 0], [-2, 0]]), _arr([-1, -1]), _arr([1, 0]), 1.0),
             "Multiply by the label: the margin of a point is y u·x."),
    ]
    rng = _rng(8)
    for k in range(N_RANDOM):
        n, d = int(rng.integers(1, 9)), int(rng.integers(1, 4))
        cases.append(Case(f"random {k + 1}", (rng.normal(size=(n, d)), rng.choice([-1.0, 1.0], size=n),
                                               rng.normal(size=d), float(rng.uniform(0.05, 1))),
                          "TD_γ = sum over i of max(0, γ - y_i u·x_i), u = w/‖w‖."))
    return cases


@_documented
def hinge_deviation(func: Callable[..., Any], *, quiet: bool = False,
                    time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y, w, gamma)``: Balcan's total hinge deviation ``Σᵢ max(0, γ − yᵢ u·xᵢ)``.

    Compared to within 1e-6 times ``n (γ + R)``; ``total_hinge_deviation`` and the deviations it
    sums are switched off while it runs.
    """
    return _run("hinge_deviation", func, quiet=quiet, time_limit=time_limit)


# --- the averaged perceptron (chapter "nonseparable") -----------------------------------------


def _averaged_run(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[np.ndarray, int]:
    """The averaged perceptron of the chapter's algorithm box: the mean of the weights after
    each of the n·T rounds, and the run's number of mistakes."""
    n, d = X.shape
    w, total, mistakes = np.zeros(d), np.zeros(d), 0
    for _ in range(epochs):
        for x, label in zip(X, y):
            if label * _signs.exact_sign(w, x) <= 0:  # ties count as mistakes, w = 0 included
                w = w + label * x
                mistakes += 1
            total += w  # after every round, whether or not it changed w
    return total / (n * epochs), mistakes


def _ref_averaged(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
    return _averaged_run(X, y, epochs)[0]


def _averaged_cases() -> list[Case]:
    # Small integers: every score, weight and sum is exact in floats (float32 too), so ties
    # happen exactly and only the final division rounds.
    cases = [
        Case("one example, one epoch", (_arr([[2, -1]]), _arr([1]), 1),
             "Average the weights after each round: with one example and one epoch that is the "
             "weights after its update. The start w = 0 is not a term of the average."),
        Case("settles in the first epoch", (_arr([[2, 1], [1, -3], [1, 1]]), _arr([1, 1, 1]), 4),
             "All n·T rounds count, also those of the epochs after the run stopped changing w; "
             "the average is not the last weights, and it is divided by n·T."),
        Case("a point and its opposite", (_arr([[1, 0], [-1, 0]]), _arr([1, 1]), 3),
             "These two points cannot both be right: w goes back and forth between (1, 0) and 0, "
             "and the average lies between."),
        Case("XOR through the origin", (_arr([[1, 1], [-1, -1], [1, -1], [-1, 1]]), _arr([1, 1, -1, -1]), 3),
             "Multiply by the label, in the test y w·x ≤ 0 and in the update w ← w + y x."),
        Case("a tie after the start", (_arr([[1, 0], [0, 1]]), _arr([1, 1]), 2),
             "A score of exactly 0 is a mistake at every w, not only at w = 0: the second point "
             "scores 0 against w = (1, 0)."),
        Case("a point at the origin", (_arr([[0, 0], [1, 2]]), _arr([1, -1]), 2),
             "The origin scores 0 under every w, so it is a mistake, but its update adds 0: w does "
             "not change. It is still a round of the average."),
        Case("duplicate points", (_arr([[1, 1], [1, 1], [-1, 2]]), _arr([1, 1, -1]), 2),
             "A point given twice is presented twice in each epoch: two rounds."),
    ]
    rng = _rng(18)
    for k in range(N_RANDOM):
        n, d = int(rng.integers(1, 9)), int(rng.integers(1, 5))
        X = rng.integers(-3, 4, size=(n, d)).astype(float)
        if k % 2:  # labels of a random hyperplane (ties labelled +1): often separable
            y = np.where(X @ rng.integers(-3, 4, size=d) >= 0, 1.0, -1.0)
        else:
            y = rng.choice([-1.0, 1.0], size=n)
        cases.append(Case(f"random {k + 1}", (X, y, int(rng.integers(1, 6))),
                          "From w = 0, sweep in order T times, update when yᵢ w·xᵢ ≤ 0, add up "
                          "the weights after every round and divide by n·T."))
    return cases


@_documented
def averaged(func: Callable[..., Any], *, quiet: bool = False,
             time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(X, y, epochs)``: the averaged perceptron's weights (no offset).

    The perceptron from ``w = 0``, over the rows in order for ``epochs`` = T epochs, with
    ``w ← w + yᵢxᵢ`` whenever ``yᵢ w·xᵢ ≤ 0`` (ties count); the answer is the mean of the weights
    after each of the n·T rounds (an array of floats). Every entry may be off by 1e-6 times
    ``M max|xᵢⱼ|``, M the run's mistakes. Switched off while it runs: ``averaged_perceptron``,
    ``voted_perceptron``, ``perceptron`` and ``online_perceptron`` (:data:`ANSWERS`).
    """
    return _run("averaged", func, quiet=quiet, time_limit=time_limit)


# --- online to PAC (chapter "guarantees") -----------------------------------------------------


def _ref_window(R: float, gamma: float, epsilon: float, delta: float) -> int:
    return _bounds.online_to_pac(R, gamma, epsilon, delta).window


def _window_cases() -> list[Case]:
    cases = [
        Case("R = gamma", (1.0, 1.0, 0.1, 0.05),
             "With R = γ the perceptron makes at most M = 1 mistake, so it holds at most M + 1 = 2 "
             "hypotheses: the union bound is over both."),
        Case("M = 4", (2.0, 1.0, 0.1, 0.1),
             "M = ⌊(R/γ)²⌋ mistakes leave M + 1 hypotheses, and each must survive its window "
             "with probability of failure at most δ/(M + 1)."),
        Case("bound not an integer", (1.5, 1.0, 0.2, 0.05), "Round (R/γ)² down to get M."),
        Case("small epsilon", (3.0, 1.0, 0.01, 0.01), "The window grows like 1/ε."),
        Case("R = 0", (0.0, 1.0, 0.5, 0.5),
             "With R = 0 there are no mistakes, M = 0, and one hypothesis to test."),
    ]
    rng = _rng(9)
    for k in range(N_RANDOM):
        R = float(rng.uniform(0.1, 5))
        cases.append(Case(f"random {k + 1}", (R, float(R * rng.uniform(0.1, 1)), float(rng.uniform(0.01, 0.5)),
                                               float(rng.uniform(0.001, 0.5))),
                          "window = ⌈(1/ε) ln((M + 1)/δ)⌉ with M = ⌊(R/γ)²⌋."))
    return cases


@_documented
def pac_window(func: Callable[..., Any], *, quiet: bool = False,
               time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(R, gamma, epsilon, delta)``: the window of the online-to-PAC conversion (an int).

    The smallest k with ``(1 − ε)ᵏ`` bounded via ``e^(−εk) ≤ δ/(M + 1)``, ``M = ⌊(R/γ)²⌋``:
    ``⌈(1/ε) ln((M + 1)/δ)⌉``. ``online_to_pac`` and ``max_rounds`` are switched off while it
    runs.
    """
    return _run("pac_window", func, quiet=quiet, time_limit=time_limit)




# --- the adversary of the lower bound (chapter "guarantees") ----------------------------------
#
# The student's function gets a factory, new_learner(), rather than a learner: the reference and
# the student's function must each play against a learner in the same fresh state, and a case
# must give the same learner to every rerun (check.case_inputs). The learners are deterministic
# and answer +1, -1 or 0 ("no label"), as the package's OnlineLearner protocol says.


class _NewLearner:
    """A factory of fresh learners for ``check.adversary``: each call returns a new learner. Its
    repr says which learner, for the verdict."""

    def __init__(self, description: str, make: Callable[[], Any]) -> None:
        self.description = description
        self._make = make

    def __call__(self) -> Any:
        return self._make()

    def __repr__(self) -> str:
        return f"<a factory of fresh learners: {self.description}>"


class _Constant:
    """Always the same prediction (+1, -1, or 0 for no label); learns nothing."""

    def __init__(self, p: int) -> None:
        self.p = p

    def predict(self, x: Any) -> int:
        return self.p

    def update(self, x: Any, y: Any) -> None:
        pass


class _Majority:
    """The majority of the labels told so far, ``tie`` on an even count (before any, too)."""

    def __init__(self, tie: int) -> None:
        self.tie, self.total = tie, 0

    def predict(self, x: Any) -> int:
        return 1 if self.total > 0 else -1 if self.total < 0 else self.tie

    def update(self, x: Any, y: Any) -> None:
        self.total += 1 if y > 0 else -1


class _LastLabel:
    """The last label told, ``first`` before any: its predictions depend on the labels' order."""

    def __init__(self, first: int) -> None:
        self.last = first

    def predict(self, x: Any) -> int:
        return self.last

    def update(self, x: Any, y: Any) -> None:
        self.last = 1 if y > 0 else -1


class _Threshold:
    """+1 when the coordinates of x add up to more than c, -1 when less, no label (0) when
    equal; learns nothing, but sees how long the points are."""

    def __init__(self, c: float) -> None:
        self.c = c

    def predict(self, x: Any) -> int:
        s = float(np.sum(x))
        return 1 if s > self.c else -1 if s < self.c else 0

    def update(self, x: Any, y: Any) -> None:
        pass


def _perceptron(tie: str) -> _NewLearner:
    return _NewLearner(f'the perceptron, tie="{tie}" (PerceptronLearner)',
                       functools.partial(_guarantees.PerceptronLearner, tie))


def _nearest() -> _NewLearner:
    return _NewLearner("1-nearest neighbour, the first on a tie in distance, +1 before any example "
                       "(NearestNeighbourLearner)", _guarantees.NearestNeighbourLearner)


def _halving(n: int) -> _NewLearner:
    return _NewLearner(f"halving over the {2**n} sign vectors of R^{n} (HalvingLearner)",
                       functools.partial(_guarantees.HalvingLearner, _guarantees.sign_vectors(n)))


def _constant(p: int) -> _NewLearner:
    said = {1: "+1", -1: "-1", 0: "0 (no label)"}[p]
    return _NewLearner(f"always predicts {said}", functools.partial(_Constant, p))


def _majority(tie: int) -> _NewLearner:
    said = {1: "+1", -1: "-1", 0: "0 (no label)"}[tie]
    return _NewLearner(f"the majority of the labels told so far, {said} on a tie",
                       functools.partial(_Majority, tie))


def _last_label(first: int) -> _NewLearner:
    return _NewLearner(f"the last label told, {first:+d} before any", functools.partial(_LastLabel, first))


def _threshold(c: float) -> _NewLearner:
    return _NewLearner(f"+1 when the coordinates of x add up to more than {c:g}, -1 when less, "
                       "0 (no label) when equal; learns nothing", functools.partial(_Threshold, c))


def _ref_adversary(new_learner: Callable[[], Any], n: int, R: float) -> np.ndarray:
    return _guarantees.adversary_game(new_learner(), n, R=R).y


def _adversary_cases() -> list[Case]:
    cases = [
        Case("always +1", (_constant(1), 3, 1.0),
             "The adversary gives each point the label opposite to the prediction: a learner "
             "that always says +1 is told -1 every time."),
        Case("always no label", (_constant(0), 3, 1.0),
             "A prediction of 0 means no label: a mistake whatever the label, and the chapter's "
             "adversary then says +1 (a label is +1 or -1, never 0)."),
        Case('perceptron with tie="mistake"', (_perceptron("mistake"), 4, 1.0),
             "Each new point R e_i is orthogonal to the perceptron's weights, so every score is a "
             'tie; under tie="mistake" the perceptron gives no label (0), and the adversary '
             "says +1."),
        Case('perceptron with tie="positive"', (_perceptron("positive"), 4, 1.0),
             "Every score is a tie, which this rule predicts +1: the adversary says -1 each time."),
        Case('perceptron with tie="negative"', (_perceptron("negative"), 4, 1.0),
             "Every score is a tie, which this rule predicts -1: the adversary says +1 each time."),
        Case("majority of the labels so far", (_majority(-1), 6, 1.0),
             "This learner's prediction depends on the labels it has been told: give it each "
             "label with update(x_i, y_i) in its round, before the next prediction, and use one "
             "learner for the whole game."),
        Case("the last label again", (_last_label(1), 5, 1.0),
             "This learner repeats the last label it was told, so it must be told the labels one "
             "round at a time, in order: predict, then update with the adversary's label."),
        Case("1-nearest neighbour", (_nearest(), 5, 1.0),
             "1-nearest neighbour answers with the label of the closest point seen so far (the "
             "first on a tie, +1 before any): tell it every label, and show it every point."),
        Case("one round", (_perceptron("positive"), 1, 1.0),
             "With n = 1 the adversary shows the one point R e_1 in R^1 and returns one label."),
        Case("R = 3 and a learner that sees lengths", (_threshold(1.0), 4, 3.0),
             "The points are R e_i, of length R, not the unit vectors e_i: this learner says +1 "
             "when the coordinates of x add up to more than 1."),
        Case("halving over sign vectors", (_halving(5), 5, 2.0),
             "Halving predicts the majority vote of the sign vectors still consistent with every "
             "label it has been told: tell it every label."),
    ]
    rng = _rng(14)
    kinds = ("constant", "majority", "last", "threshold", "perceptron", "nearest", "halving")
    for k in range(N_RANDOM):
        kind = kinds[k % len(kinds)]
        n = int(rng.integers(1, 9 if kind == "halving" else 13))
        R = int(rng.integers(1, 33)) / 8  # multiples of 1/8: a sum of x equals R exactly
        if kind == "constant":
            learner = _constant(int(rng.choice([-1, 0, 1])))
        elif kind == "majority":
            learner = _majority(int(rng.choice([-1, 0, 1])))
        elif kind == "last":
            learner = _last_label(int(rng.choice([-1, 1])))
        elif kind == "threshold":  # sometimes exactly R: no label
            learner = _threshold(R if rng.random() < 0.3 else int(rng.integers(0, 33)) / 8)
        elif kind == "perceptron":
            learner = _perceptron(str(rng.choice(["mistake", "positive", "negative"])))
        elif kind == "nearest":
            learner = _nearest()
        else:
            learner = _halving(n)
        cases.append(Case(f"random {k + 1}", (learner, n, R),
                          "In round i show x = R e_i in R^n, ask for the prediction p, give the "
                          "label y = -p (+1 when p is 0), and tell the learner before the next "
                          "round."))
    return cases


@_documented
def adversary(func: Callable[..., Any], *, quiet: bool = False,
              time_limit: float | None = TIME_LIMIT) -> CheckResult:
    """Check ``func(new_learner, n, R)``: the labels of the adversary of the lower bound.

    ``new_learner()`` returns a fresh online learner with ``predict(x)`` (+1, -1, or 0 for no
    label) and ``update(x, y)``. The function plays n rounds against one such learner: in round
    i it shows ``x = R eᵢ`` in ℝⁿ, gives the label ``y = −p`` for the prediction p (+1 when p is
    0), and tells the learner ``update(x, y)``. It returns the n labels, an array of ±1 (a list
    is accepted), compared exactly. ``adversary_game`` is switched off while it runs.
    """
    return _run("adversary", func, quiet=quiet, time_limit=time_limit)


# --- the tables -------------------------------------------------------------------------------

#: Every check, with the chapter whose exercise uses it and the function signature it expects.
EXERCISES: dict[str, tuple[str, str]] = {
    "mistakes": ("first_look", "mistakes(X, y, w)"),
    "first_mistake": ("first_look", "first_mistake(X, y, w)"),
    "update": ("perceptron", "update(w, x, y)"),
    "train": ("perceptron", "train(X, y, epochs)"),
    "separable": ("separability", "separable(X, y)"),
    "is_certificate": ("separability", "is_certificate(X, y, lam)"),
    "margin": ("margin", "margin(X, y, w, b)"),
    "radius": ("margin", "radius(X)"),
    "mistake_bound": ("convergence", "mistake_bound(R, gamma)"),
    "proof_quantities": ("convergence", "proof_quantities(X, y, u)"),
    "augment": ("offset", "augment(X, c)"),
    "offset_bound": ("offset", "offset_bound(R, gamma, b, c)"),
    "margin_mistake": ("margin_perceptron", "margin_mistake(w, x, y, gamma, target)"),
    "margin_run": ("margin_perceptron", "margin_run(X, y, gamma, target)"),
    "hinge_deviation": ("nonseparable", "hinge_deviation(X, y, w, gamma)"),
    "averaged": ("nonseparable", "averaged(X, y, epochs)"),
    "pac_window": ("guarantees", "pac_window(R, gamma, epsilon, delta)"),
    "adversary": ("guarantees", "adversary(new_learner, n, R)"),
}

#: The precision of each check: a float answer passes within this fraction of the size of the
#: numbers it is computed from (the module docstring's table says which size); None: the answer
#: is an int or True/False, compared exactly. 1e-6 is 16 times float32's unit roundoff (6e-8):
#: an answer computed in float32 passes (the tests run one of each), and a formula that is
#: wrong is off by far more, even on cases where it is nearly right.
PRECISION: dict[str, float | None] = {
    "mistakes": None,
    "first_mistake": None,
    "update": 1e-6,
    "train": 1e-6,
    "separable": None,
    "is_certificate": None,
    "margin": 1e-6,
    "radius": 1e-6,
    "mistake_bound": 1e-6,
    "proof_quantities": 1e-6,
    "augment": 1e-6,
    "offset_bound": 1e-6,
    "margin_mistake": None,
    "margin_run": 1e-6,
    "hinge_deviation": 1e-6,
    "averaged": 1e-6,
    "pac_window": None,
    "adversary": None,
}

#: The package functions that answer each exercise, switched off while its check runs the
#: student's function (named as ``perceptron_core.<name>``; ``bounds.deviations`` is one not
#: exported at the top). A function is listed when calling it, alone or with a line around it,
#: gives the answer: the exercise's own function, and those that compute the same thing under
#: another name or as part of their result. The rest of the package stays available.
ANSWERS: dict[str, tuple[str, ...]] = {
    # y·(w·x + b)/‖w‖ per point, whose signs are the count (and raise at w = 0, which it is not).
    "mistakes": ("margins",),
    # Where a sweep from w updates first: the first margin ≤ 0 (margins raise at w = 0, where
    # the answer is 0), and the runners that report where they update, run on the data with the
    # row (w, +1) in front: from w = 0 that row is a tie, so the run then holds w (for w ≠ 0
    # margin_perceptron starts from it, and with a tiny γ its test is y w·x ≤ 0 on the check's
    # data). Their reports: perceptron's history, online_perceptron's steps, voted_perceptron's
    # survival counts, kernel_perceptron's mistake_indices, margin_perceptron's update_indices.
    "first_mistake": ("margins", "perceptron", "online_perceptron", "margin_perceptron",
                      "voted_perceptron", "kernel_perceptron"),
    # No package function takes one step from a given w: every runner starts from w = 0.
    "update": (),
    # Every runner that gives the weights after T sweeps in order from w = 0, ties as mistakes:
    # perceptron with max_epochs=T (it stops early only after a sweep without a mistake, after
    # which no sweep changes w), online_perceptron on the rows T times over, averaged_perceptron's
    # w_last, voted_perceptron's last iterate, kernel_perceptron's w (linear kernel),
    # margin_perceptron with a tiny γ (its start y₁x₁ is the perceptron's first update, and on
    # the check's integer data its test is y w·x ≤ 0), PerceptronLearner fed the rows, and
    # convert_stream's current hypothesis with a window longer than the stream. The estimator
    # Perceptron (its coef_) is not listed: it needs scikit-learn, which the package does not,
    # and its fit calls perceptron, switched off in its module too.
    "train": ("perceptron", "online_perceptron", "averaged_perceptron", "voted_perceptron",
              "kernel_perceptron", "margin_perceptron", "PerceptronLearner", "convert_stream"),
    # Everything that decides separability: the exact test, the maximum margin (positive exactly
    # when separable), the nearest point of the hull of the yᵢxᵢ (zero exactly when not), the
    # LP route, and the perceptron runners, whose `converged` proves separability.
    "separable": ("separability", "max_margin", "min_norm_point", "lp_consistent_halfspace",
                  "perceptron", "online_perceptron", "margin_perceptron", "averaged_perceptron",
                  "voted_perceptron", "kernel_perceptron"),
    # What checks a certificate exactly: Separability's verify (the chapter checks one with
    # Separability(False, None, None, lam, ...).verify(X, y)); carries_certificate, which decides
    # exactly whether the points λ uses carry a certificate; and separability, which decides the
    # data's side of Gordan's alternative whole (on separable data no λ is a certificate) and
    # builds its verdicts, certificates included, as Separability.
    "is_certificate": ("Separability", "separability", "certificates.carries_certificate"),
    "margin": ("dataset_margin", "margins"),
    "radius": ("radius",),
    # (R/γ)² itself, and the bounds that equal it for some argument: UML's (RB)² with B = 1/γ,
    # Balcan's and Freund–Schapire's at zero deviation, and online_to_pac's mistake_bound.
    "mistake_bound": ("novikoff_bound", "uml_bound", "hinge_loss_bound", "bounds.solved_hinge_bound",
                      "bounds.freund_schapire_bound", "online_to_pac"),
    # Every function that gives the weights after each mistake of a run, alone or with a line
    # around it: perceptron's recorded history (with u=, the two quantities themselves),
    # online_perceptron's steps, voted_perceptron's iterates, kernel_perceptron's mistake
    # indices (whose running sums are the iterates), PerceptronLearner's w after each update,
    # convert_stream's current hypothesis after max_examples examples, and margin_perceptron,
    # whose run from w₁ = y₁x₁ is the perceptron's when γ is tiny and the data are integers.
    "proof_quantities": ("perceptron", "online_perceptron", "voted_perceptron", "kernel_perceptron",
                         "margin_perceptron", "PerceptronLearner", "convert_stream"),
    "augment": ("augment",),
    # The bound itself, and those that equal it for some argument: Block–Novikoff's (R'/γ')²
    # with the augmented radius R' = √(R² + c²) and margin γ' = γ/√(1 + b²/c²) (novikoff_bound,
    # and online_to_pac's mistake_bound), UML's (R'B)² with B = 1/γ', U²‖w*‖²/ε² with U = R',
    # w* = (1, b/c) and ε = γ, Balcan's and Freund–Schapire's at zero deviation, Balcan's
    # bound_at on margins at least γ', and best_offset_bound at b = 0, which is (R/γ)².
    "offset_bound": ("offset_bound", "novikoff_bound", "uml_bound", "unnormalized_bound",
                     "hinge_loss_bound", "bounds.solved_hinge_bound", "bounds.freund_schapire_bound",
                     "bounds.bound_at", "bounds.best_offset_bound", "online_to_pac"),
    # The runner whose update test this is.
    "margin_mistake": ("margin_perceptron",),
    # The runner itself: no other package function makes margin updates (the plain runners'
    # test is the sign of y w·x, and the estimator has no margin option).
    "margin_run": ("margin_perceptron",),
    # TD_γ, and the per-point deviations it sums (mistake_deviation sums them over any indices).
    "hinge_deviation": ("total_hinge_deviation", "bounds.deviations", "bounds.mistake_deviation"),
    # The average itself; the voted perceptron, whose iterates and counts give it in one line
    # (counts @ weights / nT); and the runners whose record of the run gives it in a line or
    # two: perceptron's history (the chapter's dual form of the average) and online_perceptron's
    # weights after every round. The estimator has no averaging option (it only returns the
    # last weights, and it runs perceptron, so it is switched off with it).
    "averaged": ("averaged_perceptron", "voted_perceptron", "perceptron", "online_perceptron"),
    # The window itself, and M + 1, the count of hypotheses the exercise asks to get right.
    "pac_window": ("online_to_pac", "max_rounds"),
    # The game itself: it plays any learner and returns the labels (its record's y).
    "adversary": ("adversary_game",),
}


def _largest_entry(*arrays: Any) -> float:
    return max(float(np.max(np.abs(a))) if np.size(a) else 0.0 for a in arrays)


def _margin_scale(X: np.ndarray, y: np.ndarray, w: np.ndarray, b: float) -> float:
    # |y(w·x + b)|/‖w‖ ≤ ‖x‖ + |b|/‖w‖ (Cauchy–Schwarz): the size of every term of the answer.
    return _geometry.radius(X) + abs(b) / float(np.linalg.norm(w))


def _hinge_scale(X: np.ndarray, y: np.ndarray, w: np.ndarray, gamma: float) -> float:
    # Each of the n terms is at most γ + ‖xᵢ‖ ≤ γ + R.
    return len(X) * (gamma + _geometry.radius(X))


def _margin_run_scale(X: np.ndarray, y: np.ndarray, gamma: float, target: float) -> float:
    # The final w is a sum of M + 1 of the yᵢxᵢ (w₁ and M updates): no entry exceeds
    # (M + 1) max|xᵢⱼ|, and neither does any partial sum of the run, which a float w rounds.
    updates = _margin_replay(X, y, gamma, target)[1]
    return (updates + 1) * _largest_entry(X)


def _averaged_scale(X: np.ndarray, y: np.ndarray, epochs: int) -> float:
    # Every iterate is a sum of at most M of the yᵢxᵢ, M the run's mistakes, and the answer is
    # their mean: no entry of either exceeds M max|xᵢⱼ|.
    mistakes = _averaged_run(X, y, epochs)[1]
    return mistakes * _largest_entry(X)


_SPECS: dict[str, _Exercise] = {
    "mistakes": _Exercise(("X", "y", "w"), _mistakes_cases, _ref_mistakes, _same_int),
    "first_mistake": _Exercise(("X", "y", "w"), _first_mistake_cases, _ref_first_mistake, _same_index),
    "update": _Exercise(("w", "x", "y"), _update_cases, _ref_update, _same_array,
                        lambda w, x, y: _largest_entry(w, x), "the largest |entry| of w and x"),
    "train": _Exercise(("X", "y", "epochs"), _train_cases, _ref_train, _same_array, _train_scale,
                       "R √(epochs·n), the largest ‖w‖ of the run"),
    "separable": _Exercise(("X", "y"), _separable_cases, _ref_separable, _same_bool),
    "is_certificate": _Exercise(("X", "y", "lam"), _is_certificate_cases, _ref_is_certificate, _same_bool),
    "margin": _Exercise(("X", "y", "w", "b"), _margin_cases, _ref_margin, _same_float,
                        _margin_scale, "R + |b|/‖w‖, the largest a margin can be"),
    "radius": _Exercise(("X",), _radius_cases, _geometry.radius, _same_float,
                        lambda X: _geometry.radius(X), "the answer"),
    "mistake_bound": _Exercise(("R", "gamma"), _bound_cases, _bounds.novikoff_bound, _same_float,
                               lambda R, gamma: _bounds.novikoff_bound(R, gamma), "the answer"),
    "proof_quantities": _Exercise(("X", "y", "u"), _proof_cases, _ref_proof_quantities, _same_array,
                                  _proof_scale, "max(M R², √M R), the largest an entry can be after "
                                  "M mistakes"),
    "augment": _Exercise(("X", "c"), _augment_cases, _data.augment, _same_array,
                         lambda X, c: _largest_entry(X, c), "the largest |entry| of X and c"),
    "offset_bound": _Exercise(("R", "gamma", "b", "c"), _offset_bound_cases, _bounds.offset_bound,
                              _same_float, lambda R, gamma, b, c: _bounds.offset_bound(R, gamma, b, c),
                              "the answer"),
    "margin_mistake": _Exercise(("w", "x", "y", "gamma", "target"), _margin_mistake_cases,
                                _ref_margin_mistake, _same_bool),
    "margin_run": _Exercise(("X", "y", "gamma", "target"), _margin_run_cases, _ref_margin_run, _same_array,
                            _margin_run_scale,
                            "(M + 1) max|xᵢⱼ|, the largest |entry| a run of M updates can reach"),
    "hinge_deviation": _Exercise(("X", "y", "w", "gamma"), _hinge_cases, _bounds.total_hinge_deviation,
                                 _same_float, _hinge_scale, "n (γ + R), the largest TD_γ can be"),
    "averaged": _Exercise(("X", "y", "epochs"), _averaged_cases, _ref_averaged, _same_array,
                          _averaged_scale,
                          "M max|xᵢⱼ|, the largest |entry| an iterate of a run of M mistakes can reach"),
    "pac_window": _Exercise(("R", "gamma", "epsilon", "delta"), _window_cases, _ref_window, _same_int),
    "adversary": _Exercise(("new_learner", "n", "R"), _adversary_cases, _ref_adversary, _same_labels),
}
