"""Self-checking code exercises: ``check.<exercise>(your_function)``.

A student writes a function, for example their own perceptron update, and passes it to the
check of the same name::

    from perceptron_core import check

    def update(w, x, y):
        ...

    check.update(update)

The check calls the function on fixed cases chosen to catch the usual slips (ties, zero
vectors, unnormalized weights, negative labels) and then on random cases drawn with a fixed
seed, and compares every answer with the package's reference, floats with a tolerance. It prints
a short verdict: how many cases passed, the first failing case with its inputs, the expected and
the received answer, and a hint. It never prints the reference's code. A function that still
raises ``NotImplementedError`` (the exercise stub) gets "not implemented yet" instead of a
traceback; any other exception, a wrong return type or a wrong shape is reported as a failing
case.

Every check also returns a :class:`CheckResult`, which is truthy exactly when all cases passed,
so tests and notebooks can use it.

Exercises and the chapter each belongs to (see :data:`EXERCISES`):

=====================  ==================================================  =====================
check                  the student writes                                  chapter
=====================  ==================================================  =====================
``mistakes``           ``mistakes(X, y, w)``: points with ``y w·x ≤ 0``      first_look
``update``             ``update(w, x, y)``: one perceptron step            perceptron
``separable``          ``separable(X, y)``: separable through the origin?  separability
``margin``             ``margin(X, y, w, b)``: the geometric margin        margin
``radius``             ``radius(X)``: the largest norm                     margin
``mistake_bound``      ``mistake_bound(R, gamma)``: ``(R/γ)²``             convergence
``augment``            ``augment(X, c)``: append the constant feature c    offset
``margin_mistake``     ``margin_mistake(w, x, y, gamma, target)``          margin_perceptron
``hinge_deviation``    ``hinge_deviation(X, y, w, gamma)``: TD_γ           nonseparable
``pac_window``         ``pac_window(R, gamma, epsilon, delta)``            guarantees
=====================  ==================================================  =====================
"""

from __future__ import annotations

import math
import numbers
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import bounds as _bounds
from . import data as _data
from . import geometry as _geometry

__all__ = [
    "CheckResult",
    "EXERCISES",
    "mistakes",
    "update",
    "separable",
    "margin",
    "radius",
    "mistake_bound",
    "augment",
    "margin_mistake",
    "hinge_deviation",
    "pac_window",
]

# Relative and absolute tolerances for float answers: a correct answer computed in another
# order of operations differs in the last bits, never by 1e-9 relative.
RTOL = 1e-9
ATOL = 1e-12
SEED = 2026
N_RANDOM = 20


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
    status : ``"passed"``, ``"failed"`` (a wrong answer, type or shape, or an exception) or
        ``"not implemented"`` (the function raised ``NotImplementedError``).
    n_cases : the number of cases the check has.
    n_passed : how many cases passed before the first failure (all of them when passed).
    passed_cases : their names.
    case : the first failing case's name, or None.
    inputs : its arguments by parameter name, or None.
    expected, received : the reference's and the function's answers on it (``received`` is the
        exception, as ``"TypeError: ..."``, when the function raised one).
    hint : a hint for the failing case ("" when passed).
    message : the verdict the check printed.
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

    def __init__(self, why: str, received: Any) -> None:
        super().__init__(why)
        self.why = why
        self.received = received


# --- formatting -------------------------------------------------------------------------------


def _show(value: Any) -> str:
    """A short, readable rendering of an input or an answer."""
    if isinstance(value, np.ndarray):
        text = np.array2string(value, precision=6, separator=", ", threshold=40, max_line_width=84)
        return text
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, np.bool_):
        return repr(bool(value))
    return repr(value)


# --- comparing answers ------------------------------------------------------------------------


def _as_float(value: Any) -> float:
    if isinstance(value, (bool, np.bool_)):
        raise _Mismatch("returned a bool where a number was expected", value)
    if isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.number):
        value = value.item()
    if not isinstance(value, numbers.Real):
        raise _Mismatch(f"returned {type(value).__name__} where a number was expected", value)
    return float(value)


def _same_float(expected: float, received: Any) -> None:
    got = _as_float(received)
    if math.isnan(got):
        raise _Mismatch("returned nan", received)
    if not math.isclose(got, expected, rel_tol=RTOL, abs_tol=ATOL):
        raise _Mismatch("returned a different number", received)


def _same_int(expected: int, received: Any) -> None:
    if isinstance(received, (bool, np.bool_)) or not isinstance(received, numbers.Integral):
        raise _Mismatch(f"returned {type(received).__name__} where an int was expected", received)
    if int(received) != expected:
        raise _Mismatch("returned a different number", received)


def _same_bool(expected: bool, received: Any) -> None:
    if not isinstance(received, (bool, np.bool_)):
        raise _Mismatch(f"returned {type(received).__name__} where True or False was expected", received)
    if bool(received) != expected:
        raise _Mismatch("returned the other truth value", received)


def _same_array(expected: np.ndarray, received: Any) -> None:
    if received is None or isinstance(received, (str, bytes, dict, set, numbers.Number)):
        raise _Mismatch(f"returned {type(received).__name__} where an array was expected", received)
    try:
        got = np.asarray(received, dtype=float)
    except (TypeError, ValueError):
        raise _Mismatch(f"returned {type(received).__name__}, which is not an array of numbers", received) from None
    if got.shape != expected.shape:
        raise _Mismatch(f"returned shape {got.shape} where shape {expected.shape} was expected", got)
    if not np.allclose(got, expected, rtol=RTOL, atol=ATOL, equal_nan=False):
        raise _Mismatch("returned different numbers", got)


# --- the runner -------------------------------------------------------------------------------


def _run(
    exercise: str,
    func: Callable[..., Any],
    params: Sequence[str],
    cases: Sequence[Case],
    reference: Callable[..., Any],
    compare: Callable[[Any, Any], None],
    *,
    quiet: bool = False,
) -> CheckResult:
    if not callable(func):
        raise TypeError(
            f"check.{exercise} needs your function itself, got {type(func).__name__}: "
            f"write check.{exercise}(my_function), without calling it."
        )
    passed: list[str] = []
    for case in cases:
        expected = reference(*case.args)
        # The student's function gets its own copies: it may not change the caller's arrays,
        # and a function that does must not change what the reference sees either.
        copies = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in case.args)
        inputs = dict(zip(params, case.args))
        failure: str | None = None
        received: Any = None
        try:
            received = func(*copies)
        except NotImplementedError:
            message = (f"check.{exercise}: not implemented yet. Replace the line "
                       "`raise NotImplementedError` with your code, then run this cell again.")
            return _finish(CheckResult(exercise, False, "not implemented", len(cases), len(passed),
                                       passed, message=message), quiet)
        except Exception as exc:  # noqa: BLE001 -- any error of the student's code is a verdict
            failure = "raised an exception"
            received = f"{type(exc).__name__}: {exc}"
        if failure is None:
            try:
                compare(expected, received)
            except _Mismatch as mismatch:
                failure, received = mismatch.why, mismatch.received
        if failure is None:
            changed = [p for p, a, c in zip(params, case.args, copies)
                       if isinstance(a, np.ndarray) and not np.array_equal(a, c, equal_nan=True)]
            if changed:
                failure = f"changed its argument {', '.join(changed)} in place"
        if failure is None:
            passed.append(case.name)
            continue
        hint = case.hint
        if failure == "raised an exception":
            hint = ("Your function raised an error on these inputs. Run it on them yourself to "
                    "see where. " + hint)
        elif "in place" in failure:
            hint = ("Return a new array (e.g. start from a copy) instead of modifying the one you "
                    "were given: the caller still needs it.")
        elif "where" in failure or "not an array" in failure:
            hint = f"Check what your function returns. {hint}"
        result = CheckResult(exercise, False, "failed", len(cases), len(passed), passed,
                             case.name, inputs, expected, received, hint)
        lines = [f"check.{exercise}: {len(passed)} of {len(cases)} cases passed"
                 + (f" ({', '.join(passed[:6])}{', ...' if len(passed) > 6 else ''})" if passed else "")
                 + f"; case '{case.name}' failed: your function {failure}."]
        lines.append("    inputs:")
        for k, v in inputs.items():
            first, *rest = _show(v).splitlines()
            lines.append(f"      {k} = {first}")
            lines += [" " * (10 + len(k)) + r.lstrip() for r in rest]
        lines.append(f"    expected: {_show(expected)}")
        lines.append(f"    received: {_show(received)}")
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


def mistakes(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(X, y, w)``: how many points have ``yᵢ w·xᵢ ≤ 0`` (an int)."""
    return _run("mistakes", func, ("X", "y", "w"), _mistakes_cases(), _ref_mistakes, _same_int, quiet=quiet)


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


def update(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(w, x, y)``: the weights after one perceptron step on the example (x, y).

    A mistake is a score ``y w·x ≤ 0`` (ties count); on a mistake the new weights are
    ``w + y x``, otherwise ``w``. Return a new array; do not change ``w`` in place.
    """
    return _run("update", func, ("w", "x", "y"), _update_cases(), _ref_update, _same_array, quiet=quiet)


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


def separable(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(X, y)``: True when some w has ``yᵢ w·xᵢ > 0`` for all i (no offset), else False.

    It must return a bool (``numpy.bool_`` is accepted).
    """
    return _run("separable", func, ("X", "y"), _separable_cases(), _ref_separable, _same_bool, quiet=quiet)


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


def margin(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(X, y, w, b)``: the geometric margin ``minᵢ yᵢ (w·xᵢ + b)/‖w‖`` (a float)."""
    return _run("margin", func, ("X", "y", "w", "b"), _margin_cases(), _ref_margin, _same_float, quiet=quiet)


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


def radius(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(X)``: the radius ``R = maxᵢ ‖xᵢ‖`` (a float)."""
    return _run("radius", func, ("X",), _radius_cases(), _geometry.radius, _same_float, quiet=quiet)


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


def mistake_bound(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(R, gamma)``: the Block–Novikoff bound ``(R/γ)²`` (a float)."""
    return _run("mistake_bound", func, ("R", "gamma"), _bound_cases(), _bounds.novikoff_bound,
                _same_float, quiet=quiet)


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


def augment(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(X, c)``: X with a last column equal to c, shape (n, d + 1)."""
    return _run("augment", func, ("X", "c"), _augment_cases(), _data.augment, _same_array, quiet=quiet)


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


def margin_mistake(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(w, x, y, gamma, target)``: does Margin Perceptron(γ) update on (x, y)?

    True when ``w = 0`` or ``y w·x / ‖w‖ < target·gamma``, else False (a bool).
    """
    return _run("margin_mistake", func, ("w", "x", "y", "gamma", "target"), _margin_mistake_cases(),
                _ref_margin_mistake, _same_bool, quiet=quiet)


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


def hinge_deviation(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(X, y, w, gamma)``: Balcan's total hinge deviation ``Σᵢ max(0, γ − yᵢ u·xᵢ)``."""
    return _run("hinge_deviation", func, ("X", "y", "w", "gamma"), _hinge_cases(),
                _bounds.total_hinge_deviation, _same_float, quiet=quiet)


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


def pac_window(func: Callable[..., Any], *, quiet: bool = False) -> CheckResult:
    """Check ``func(R, gamma, epsilon, delta)``: the window of the online-to-PAC conversion (an int).

    The smallest k with ``(1 − ε)ᵏ`` bounded via ``e^(−εk) ≤ δ/(M + 1)``, ``M = ⌊(R/γ)²⌋``:
    ``⌈(1/ε) ln((M + 1)/δ)⌉``.
    """
    return _run("pac_window", func, ("R", "gamma", "epsilon", "delta"), _window_cases(), _ref_window,
                _same_int, quiet=quiet)


#: Every check, with the chapter whose exercise uses it and the function signature it expects.
EXERCISES: dict[str, tuple[str, str]] = {
    "mistakes": ("first_look", "mistakes(X, y, w)"),
    "update": ("perceptron", "update(w, x, y)"),
    "separable": ("separability", "separable(X, y)"),
    "margin": ("margin", "margin(X, y, w, b)"),
    "radius": ("margin", "radius(X)"),
    "mistake_bound": ("convergence", "mistake_bound(R, gamma)"),
    "augment": ("offset", "augment(X, c)"),
    "margin_mistake": ("margin_perceptron", "margin_mistake(w, x, y, gamma, target)"),
    "hinge_deviation": ("nonseparable", "hinge_deviation(X, y, w, gamma)"),
    "pac_window": ("guarantees", "pac_window(R, gamma, epsilon, delta)"),
}
