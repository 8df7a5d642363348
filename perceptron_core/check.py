"""Self-checking code exercises: ``check.<exercise>(your_function)``.

A student writes a function, for example their own perceptron update, and passes it to the
check of the same name::

    from perceptron_core import check

    def update(w, x, y):
        ...

    check.update(update)

The check calls the function on fixed cases chosen to catch the usual slips (ties, zero
vectors, unnormalized weights, negative labels) and on random cases drawn with a fixed seed, and
compares every answer with the package's reference. It prints a short verdict: how many cases
passed, the first failing case with its inputs (written so that they can be pasted into Python),
the expected and the received answer, and a hint. It never prints the reference's code. A
function that still raises ``NotImplementedError`` (the exercise's stub) gets "not implemented
yet"; any other exception, a wrong type or a wrong shape is a failing case. Every check returns a
:class:`CheckResult`, truthy exactly when all cases passed.

Where the exercises live: one pair of files per chapter's exercise in
``perceptron_core/exercises/``: ``<chapter>.py`` holds the public checks of the functions the
exercise asks for (cases, reference, comparison), and ships in the wheel; ``<chapter>.md`` holds
the exercise's text, stub, solution and the autograder's hidden tests, and does not ship (see
``perceptron_core/exercises/__init__.py``). This module is the runner they share.

Three rules make the verdict about the student's own code, and make sure it comes:

**The package does not answer for the student.** Each exercise names the package functions that
answer it (``augment`` for ``check.augment``; ``separability``, ``max_margin`` and the perceptron
runners for ``check.separable``, ...). A function whose code names one of them (``pc.augment(X,
c)``, ``from perceptron_core import augment``; in its own code, in functions defined inside it,
and in the functions of the same notebook it calls) fails with a verdict that says so, before it
is run, and so does passing the package's function itself. The rule reads names, not calls: a
local variable may have any name, but an attribute or a global named like a forbidden function
(``result.margins``) is taken for it. This replaces switching the package functions off during
the call, which patched every module process-wide; a student who hides the call (``getattr(pc,
"aug" + "ment")``) is not caught, and the hidden tests are not meant to catch cheating on purpose.

**Floats are compared at a stated precision**, :data:`PRECISION` = 1e-6 relative to the size of
the numbers the answer is computed from (each exercise states which size: the answer itself
where no cancellation can occur, otherwise the largest its terms can be). An answer computed in
float32 (unit roundoff 6e-8) passes; a wrong formula is off by far more. Integer, index, True/
False answers and labels are compared exactly. A failing verdict states the difference allowed.

**One type rule**, :data:`TYPES`: an answer is of the type its exercise's text asks for (a
number, an integer, True/False, a NumPy array), NumPy's types and float32 included, or it fails
the case whatever its values (a list for an array, a one-element array for a number). Every
exercise's text states it, and a failing verdict names it. The hidden tests are this module's
checks on other random cases, so they judge types the same way.

**Nothing hangs, where a timer is possible.** Each case runs under a time limit,
:data:`TIME_LIMIT` (5 s, or ``PERCEPTRON_CHECK_TIME_LIMIT``), unless the check is given
``time_limit=`` (``None``: no limit). The limit is a ``SIGALRM`` timer (``signal.setitimer``)
whose handler raises in the student's code; Jupyter kernels and otter run cells in the main
thread, where it works. It stops Python loops, not one long call into compiled code, which ends
first. The previous handler and timer are put back. **Where no timer can be set** (another
thread, or Windows, which has no ``SIGALRM``) **the case runs with no limit**, and a function
that loops forever hangs the check as it would hang any cell: stopping a thread from outside
needs tricks (an asynchronous exception injected through ``ctypes``) that cannot stop compiled
code either and leave the thread running, so the check does not try.
"""

from __future__ import annotations

import math
import numbers
import os
import signal
import textwrap
import threading
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .exercises import Case, Exercise, exercises

SEED = 2026
N_RANDOM = 20
#: A float answer passes within this fraction of the size its exercise names.
PRECISION = 1e-6
_limit = os.environ.get("PERCEPTRON_CHECK_TIME_LIMIT", "").strip() or "5"
try:
    #: Seconds each case may run (the slowest reference case takes milliseconds); the
    #: environment variable ``PERCEPTRON_CHECK_TIME_LIMIT`` (``make grade CHECK_TIME_LIMIT=30``) sets it.
    TIME_LIMIT = float(_limit)
    assert 0 < TIME_LIMIT < math.inf
except (ValueError, AssertionError):
    raise ValueError(f"PERCEPTRON_CHECK_TIME_LIMIT must be a positive number of seconds, got {_limit!r}; "
                     "unset it for the default of 5 s.") from None
#: The one type rule of every check and hidden test, by the kind of answer (``Exercise.kind``),
#: stated in every code exercise's text (``book/_tools/exercises.py``) and in every failing
#: verdict: the type the text asks for, with NumPy's and float32 where a float is asked (the
#: values are compared at :data:`PRECISION`, which float32 arithmetic meets, so the dtype is not
#: graded). Anything else fails whatever its values: a list or tuple for an array (it has no
#: array arithmetic, ``[1, 2] * 2`` repeats it), a one-element array or list for a number (it is
#: not one: ``if margin(...) > 0`` and ``f"{margin(...):.3f}"`` break on it), 3.0 for a count.
TYPES = {
    "float": "a number (a Python or NumPy float or int, float32 too)",
    "int": "an integer (a Python or NumPy int)",
    "index": "an integer (a Python or NumPy int) or None",
    "bool": "True or False (a NumPy bool too)",
    "array": "a NumPy array of numbers (float32 too) of the shape asked for",
    "labels": "a NumPy array of the labels -1 and +1",
}
#: Every exercise by the name of its check, in the book's order.
EXERCISES: dict[str, Exercise] = {e.name: e for e in exercises()}


@dataclass
class CheckResult:
    """What a check found: truthy exactly when every case passed.

    ``status`` is ``"passed"``, ``"failed"`` or ``"not implemented"``; ``case``, ``inputs``,
    ``expected``, ``received`` and ``hint`` describe the first failing case; ``message`` is the
    verdict the check printed; ``uses`` the forbidden package function the code named;
    ``tolerance`` the difference a failing float answer was allowed.
    """

    exercise: str
    passed: bool
    status: str
    n_cases: int
    n_passed: int
    case: str | None = None
    inputs: dict[str, Any] | None = None
    expected: Any = None
    received: Any = None
    hint: str = ""
    message: str = ""
    timed_out: bool = False
    uses: str | None = None
    tolerance: float | None = None

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"CheckResult(exercise={self.exercise!r}, passed={self.passed}, status={self.status!r})"


def _mismatch(kind: str, expected: Any, got: Any, tolerance: float) -> tuple[str, float | None] | None:
    """How ``got`` differs from ``expected`` (and by how much, for floats), or None when it
    passes. ``kind`` is the exercise's (see ``Exercise``); its type is :data:`TYPES`'s rule."""
    what = type(got).__name__
    if isinstance(got, np.ndarray) and got.shape == () and kind in ("float", "int", "index", "bool"):
        got = got[()]  # a 0-d array is a NumPy number in all but name
    is_bool = isinstance(got, (bool, np.bool_))
    ok = {"float": isinstance(got, numbers.Real) and not is_bool,
          "int": isinstance(got, numbers.Integral) and not is_bool,
          "index": got is None or (isinstance(got, numbers.Integral) and not is_bool),
          "bool": is_bool,
          "array": isinstance(got, np.ndarray) and got.dtype.kind in "iuf",
          "labels": isinstance(got, np.ndarray) and got.dtype.kind in "iuf"}[kind]
    if not ok:
        return f"returned {what} where {TYPES[kind]} was expected", None
    if kind in ("int", "index", "bool"):
        if expected is None or got is None:
            return None if expected is got else (f"returned {what} where {'None' if expected is None else 'an int'} "
                                                 "was expected", None)
        return None if got == expected else ("returned a different " + ("truth value" if is_bool else "number"), None)
    if kind == "float":
        difference = abs(float(got) - expected)
        return None if difference <= tolerance else ("returned a different number", difference)  # nan fails
    if got.shape != expected.shape:
        return f"returned shape {got.shape} where shape {expected.shape} was expected", None
    if kind == "labels":
        differ = np.flatnonzero(got != expected)
        return (f"returned a different label in round {int(differ[0]) + 1}", None) if differ.size else None
    with np.errstate(invalid="ignore", over="ignore"):
        difference = float(np.max(np.abs(got.astype(float) - expected))) if got.size else 0.0
    return None if difference <= tolerance else ("returned different numbers", difference)


def _literal(value: Any) -> str:
    """``value`` as Python that recreates it (the shortest repr of each float round-trips)."""
    if isinstance(value, np.generic):
        return f"np.{value.dtype}({value!s})" if value.dtype.kind == "f" and value.dtype != np.float64 \
            else repr(value.item())
    if not isinstance(value, np.ndarray) or value.dtype.kind not in "biuf":
        return repr(value)
    dtype = "" if value.dtype in (np.float64, np.int64, np.bool_) else f", dtype=np.{value.dtype}"
    rows = [repr(row) for row in value.tolist()] if value.ndim == 2 and value.size else None
    return f"np.array([{(',' + chr(10) + ' ' * 10).join(rows)}]{dtype})" if rows else f"np.array({value.tolist()!r}{dtype})"


def _names(func: Callable[..., Any]) -> set[str]:
    """The global and attribute names ``func``'s code uses: its own code, the code of the
    functions defined inside it, and of the functions of its module (the notebook) it names."""
    found: set[str] = set()
    todo, seen = [getattr(func, "__func__", func)], set()
    while todo:
        f = todo.pop()
        codes = [f.__code__] if isinstance(f, types.FunctionType) else []
        while codes:
            code = codes.pop()
            if code not in seen:
                seen.add(code)
                found.update(code.co_names)
                codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
                todo += [g for g in map(f.__globals__.get, code.co_names)
                         if isinstance(g, types.FunctionType) and g.__globals__ is f.__globals__]
    return found


class _OutOfTime(BaseException):
    """Raised in the student's code when time is up: a BaseException, so that an ``except
    Exception`` in their loop cannot swallow it."""


def _call(func: Callable[..., Any], args: tuple[Any, ...], limit: float | None) -> Any:
    """``func(*args)`` under a ``SIGALRM`` timer of ``limit`` seconds where one can be set (the
    main thread, a system with ``SIGALRM``); with no limit elsewhere."""
    if limit is None or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return func(*args)
    armed = True

    def on_alarm(signum: int, frame: Any) -> None:
        if armed:  # a timer that fires as the call returns must not fail a finished call
            raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, on_alarm)
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return func(*args)
    finally:
        armed = False
        left = signal.setitimer(signal.ITIMER_REAL, 0)[0]
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
        if old_delay > 0:  # someone else's timer (pytest-timeout's): what it had left
            signal.setitimer(signal.ITIMER_REAL, max(old_delay - (limit - left), 1e-6), old_interval)


def cases(exercise: str, seed: int = SEED, n_random: int = N_RANDOM) -> list[Case]:
    """The cases of a check: its fixed cases, then ``n_random`` random ones drawn with ``seed``
    (an autograder's hidden tests draw others, with a seed of their own)."""
    spec = EXERCISES[exercise]
    rng = np.random.default_rng([seed, list(EXERCISES).index(exercise)])
    return spec.fixed() + [Case(f"random {k + 1}", args, spec.random_hint)
                           for k, args in enumerate(spec.random(rng, n_random))]


def case_inputs(exercise: str, case: str) -> dict[str, Any]:
    """The inputs of one case of a check by parameter name: ``f(**check.case_inputs("separable",
    "XOR"))`` reruns ``f`` on that case."""
    found = {c.name: c for c in cases(exercise)} if exercise in EXERCISES else {}
    if case not in found:
        raise KeyError(f"check.{exercise} has no case {case!r}; the checks are {', '.join(EXERCISES)}, "
                       f"and its cases {', '.join(found)}.")
    return dict(zip(EXERCISES[exercise].params, found[case].args))


_HINTS = {"ran": "Probably an endless loop, such as a loop waiting for the perceptron to make no "
                 "mistake on data it cannot separate; interrupt it on these inputs to see where. If "
                 "it is only slow, check.{}(f, time_limit=60). ",
          "rai": "Your function raised an error on these inputs: run it on them to see where. ",
          "cha": "Return a new array (start from a copy) instead of changing the one you were "
                 "given: the caller still needs it. "}


def run(exercise: str, func: Callable[..., Any], *, quiet: bool = False,
        time_limit: float | None = TIME_LIMIT, seed: int = SEED, n_random: int = N_RANDOM) -> CheckResult:
    """Check ``func`` on the cases of ``exercise`` (what ``check.<exercise>`` does)."""
    spec = EXERCISES[exercise]
    if not callable(func):
        raise TypeError(f"check.{exercise} needs your function itself, got {type(func).__name__}: "
                        f"write check.{exercise}(my_function).")
    if time_limit is not None and (isinstance(time_limit, bool) or not 0 < time_limit < math.inf):
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}.")
    todo, passed = cases(exercise, seed, n_random), []
    # The rule "write it yourself": the function is, or its code names, a package answer.
    itself = str(getattr(func, "__module__", "")).startswith("perceptron_core")
    uses = (f"perceptron_core.{func.__name__}" if itself
            else next((f"perceptron_core.{n}" for n in spec.forbidden if n in _names(func)), None))

    def done(result: CheckResult) -> CheckResult:
        print(result.message) if not quiet else None
        return result

    for case in todo:
        expected, tolerance = spec.reference(*case.args), PRECISION * (spec.scale(*case.args) if spec.scale else 0)
        copies = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in case.args)
        failure, received, difference = None, None, None
        if itself:  # imported by a cell of the chapter's code, where the student's is missing
            failure = (f"is {uses} itself, not yours (was the cell with your {func.__name__} "
                       "deleted, or not run?): define it in its cell and run that cell")
        elif uses:
            failure = f"uses {uses}, which this exercise asks you to write: write it yourself"
        else:
            try:
                received = _call(func, copies, time_limit)
            except _OutOfTime:
                failure = f"ran out of time: it did not return within {time_limit:g} s"
            except NotImplementedError:
                return done(CheckResult(exercise, False, "not implemented", len(todo), len(passed), message=(
                    f"check.{exercise}: not implemented yet. Replace the line `raise NotImplementedError` "
                    "with your code, then run this cell again.")))
            except Exception as error:  # noqa: BLE001 -- the student's error is the verdict
                failure, received = "raised an exception", f"{type(error).__name__}: {error}"
        failure, difference = (failure, None) if failure else _mismatch(spec.kind, expected, received, tolerance) or (None, None)
        if not failure and any(isinstance(a, np.ndarray) and not np.array_equal(a, c, equal_nan=True)
                               for a, c in zip(case.args, copies)):
            failure = "changed an argument in place"
        if not failure:
            passed.append(case.name)
            continue
        hint = (f"The check grades your own code: it reads the names your function uses, and finds {uses}. "
                "(numpy, scipy and the rest of the package are fine.)" if uses
                else f"The rule of every check and hidden test: {exercise} returns {TYPES[spec.kind]}, and any "
                "other type fails whatever its values; convert your answer (np.array(...), float(...), int(...))."
                if failure.endswith(f"{TYPES[spec.kind]} was expected")
                else _HINTS.get(failure[:3], "").format(exercise) + case.hint)
        lines = [f"check.{exercise}: {len(passed)} of {len(todo)} cases passed"
                 + (f" ({', '.join(passed[:6])}{', ...' if len(passed) > 6 else ''})" if passed else "")
                 + f"; case '{case.name}' failed: your function {failure}.", "    inputs:"]
        for name, value in zip(spec.params, case.args):
            text = (_literal(value) if not callable(value) else
                    f"{value!r}; get it with check.case_inputs({exercise!r}, {case.name!r})[{name!r}]")
            lines += [f"      {name} = " + text.replace("\n", "\n" + " " * (9 + len(name)))]
        if not uses:
            timed_out = failure.startswith("ran")
            lines += ["    expected: " + _literal(expected).replace("\n", "\n" + " " * 14),
                      "    received: " + ("nothing in time" if timed_out else _literal(received)).replace("\n", "\n" + " " * 14)]
        if difference is not None:
            lines.append(f"Compared to a relative {PRECISION:g} of {spec.scale_name} ({tolerance / PRECISION:.6g}): a "
                         f"difference up to {tolerance:.3g} passes; yours is {difference:.3g}.")
        lines += [f"Hint: {hint}"]
        lines[-2 if difference is not None else -1:] = [textwrap.fill(t, 96, initial_indent="    ", subsequent_indent="    ")
                                                        for t in lines[-2 if difference is not None else -1:]]
        return done(CheckResult(exercise, False, "failed", len(todo), len(passed), case.name,
                                dict(zip(spec.params, case.args)), expected, received, hint, "\n".join(lines),
                                failure.startswith("ran"), uses, tolerance if difference is not None else None))
    fixed = [c.name for c in todo if not c.name.startswith("random")]
    return done(CheckResult(exercise, True, "passed", len(todo), len(todo), message=textwrap.fill(
        f"check.{exercise}: all {len(todo)} cases passed: {len(fixed)} edge cases ({', '.join(fixed)}) and "
        f"{len(todo) - len(fixed)} random cases (seed {seed}).", 96, subsequent_indent="    ")))


def _check(exercise: Exercise) -> Callable[..., CheckResult]:
    def check(func: Callable[..., Any], *, quiet: bool = False, time_limit: float | None = TIME_LIMIT,
              seed: int = SEED, n_random: int = N_RANDOM) -> CheckResult:
        return run(exercise.name, func, quiet=quiet, time_limit=time_limit, seed=seed, n_random=n_random)

    check.__name__ = check.__qualname__ = exercise.name
    tolerance = f" Float answers pass within {PRECISION:g} times {exercise.scale_name}." if exercise.scale else ""
    check.__doc__ = f"""Check ``{exercise.signature}`` (the exercise of the chapter "{exercise.chapter}").

    {exercise.random_hint}{tolerance} Your function may not use these package functions, which
    answer the exercise: {", ".join(exercise.forbidden) or "none"}.

    Parameters
    ----------
    func : your function (``check.{exercise.name}(f)``, not ``check.{exercise.name}(f(...))``).
    quiet : do not print the verdict; it is in the result's ``message``.
    time_limit : seconds each case may run (default :data:`TIME_LIMIT`); ``None``: no limit.
    seed, n_random : the random cases' seed and number (the hidden tests draw their own).

    Returns
    -------
    CheckResult, truthy when every case passed.
    """
    return check


for _exercise in EXERCISES.values():
    globals()[_exercise.name] = _check(_exercise)

__all__ = ["CheckResult", "EXERCISES", "PRECISION", "TIME_LIMIT", "case_inputs", "cases", "run", *EXERCISES]
