"""book/_tools/assignment_oracles.py: the hidden autograder tests of the checked code exercises.

For every exercise: (a) every hidden test passes with the chapter's own solution (the solution
cell of ``add_check_exercises.EXERCISES``, run as the book runs it), and with other correct
functions computed another way (loops, another order of operations, float32); (b) every deliberately wrong
function (a tie counted the other way, a missing normalization, an answer off by one, the
negative, ...) fails at least one hidden test with an AssertionError, and every hidden test fails
at least one of them, so none is dead weight; (c) a function that loops forever fails every
hidden test with a TimeoutError, quickly, under a lowered ``perceptron_core.check.TIME_LIMIT``
(the knob the cells read when they run); (d) the cells import nothing of ``perceptron_core`` but
``perceptron_core.check``'s ``call``, ``PRECISION`` and ``TIME_LIMIT``, call the student's
function only through ``call`` with the exercise's answers switched off (a function that lets
the package answer fails), and have the form both of otter's test formats accept, which
(e) otter itself then runs (one cell of each exercise: they all have that form), where it is installed.

A cell runs by ``exec`` in a fresh namespace that holds only the function under test, by its
exercise name: the cells do their own imports.
"""

from __future__ import annotations

import ast
import functools
import linecache
import math
import re
import time

import numpy as np
import pytest

from perceptron_core import check
from add_check_exercises import EXERCISES as CHAPTER_EXERCISES  # book/_tools (tests/conftest.py puts it on sys.path)
from assignment_oracles import HIDDEN, function_name, names
from conftest import first_index, train_batch, train_f32, train_with

SHORT_LIMIT = 0.05  # seconds per call in (c) and (e): an endless loop always runs out
ALLOWED_FROM_CHECK = {"call", "PRECISION", "TIME_LIMIT"}
ALLOWED_MODULES = {"numpy", "fractions", "itertools", "math", "numbers", "decimal", "perceptron_core.check"}

CELLS = [(name, i) for name in HIDDEN for i in range(len(HIDDEN[name]))]


def _cell_id(item):
    name, i = item
    return function_name(HIDDEN[name][i])


def solution(name):
    """The chapter's solution function for ``name``: its solution cell, without the check call."""
    chapter = check.EXERCISES[name][0]
    source = CHAPTER_EXERCISES[chapter][4]
    code = "\n".join(line for line in source.splitlines() if not line.startswith("check."))
    namespace = {"np": np}
    exec(compile(code, f"<solution of {chapter}>", "exec"), namespace)  # noqa: S102 -- the book's own cell
    return namespace[name]


def run_cell(name, i, func):
    """Run hidden cell i of ``name`` with ``func`` as the student's function, in a fresh namespace."""
    cell = HIDDEN[name][i]
    filename = f"<hidden test {function_name(cell)}>"
    linecache.cache[filename] = (len(cell), None, cell.splitlines(True), filename)  # tracebacks show it
    exec(compile(cell, filename, "exec"), {name: func})  # noqa: S102


# --- wrong functions, each a slip a student could make ----------------------------------------


def _separable_perceptron(X, y, epochs=1000):
    """'Separable if the perceptron converges within 1000 passes': wrong for tiny margins."""
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        clean = True
        for x, yi in zip(X, y):
            if yi * (w @ x) <= 0:
                w, clean = w + yi * x, False
        if clean:
            return True
    return False


def _separable_with_offset(X, y):
    return solution("separable")(np.c_[X, np.ones(len(X))], y)


def _separable_negated(X, y):
    return not solution("separable")(X, y)


def _certificate_close(X, y, lam):
    """The conditions in floats, up to numpy's tolerances: the slip the exercise warns of."""
    return bool(np.all(lam >= 0) and np.isclose(lam.sum(), 1) and np.allclose(lam @ (y[:, None] * X), 0))


def _certificate_float_equal(X, y, lam):
    """The conditions in floats, compared with == (rounding errors included)."""
    return bool(np.all(lam >= 0) and lam.sum() == 1 and np.all(lam @ (y[:, None] * X) == 0))


def _certificate_exact(X, y, lam, *, labels=True, signs=True, normalized=True):
    """The exact test with one condition left out (as asked): the labels, λ ≥ 0 or Σλ = 1."""
    from fractions import Fraction

    L = [Fraction(v) for v in lam.tolist()]
    if (signs and any(v < 0 for v in L)) or (normalized and sum(L) != 1) or not any(L):
        return False
    y = y if labels else np.ones_like(y)
    return all(sum(l * Fraction(yi) * Fraction(xi[j]) for l, yi, xi in zip(L, y.tolist(), X.tolist())) == 0
               for j in range(X.shape[1]))


def _adversary(label_of=lambda p: 1 if p == 0 else -p, *, point=lambda i, n, R: R * np.eye(n)[i],
               tell=True, fresh=False, order=lambda n: range(n)):
    """The adversary, or a slip in one of its parts: the label given to a prediction, the point
    shown in round i, whether the learner is told the labels, one learner or a fresh one each
    round, the order of the rounds."""
    def adversary(new_learner, n, R):
        learner, labels = new_learner(), np.zeros(n)
        for i in order(n):
            learner = new_learner() if fresh else learner
            x = point(i, n, R)
            labels[i] = label_of(learner.predict(x))
            if tell:
                learner.update(x, labels[i])
        return labels
    return adversary


def _pac_window_unfloored(R, gamma, epsilon, delta):
    return math.ceil(math.log(((R / gamma) ** 2 + 1) / delta) / epsilon)


def _pac_window_m_hypotheses(R, gamma, epsilon, delta):
    M = math.floor((R / gamma) ** 2)
    return math.ceil(math.log(max(M, 1) / delta) / epsilon)


def _proof_run(X, y, u, *, tie=True, square=True, normalize=True, one_pass=False, start_at_first=False,
               before=False, dtype=float):
    """The two quantities of the proof along the perceptron's run, with slips to switch on."""
    X, y, u = X.astype(dtype), y.astype(dtype), u.astype(dtype)
    unit = u / np.linalg.norm(u) if normalize else u
    # The slip of starting from w = y_1 x_1 (as the Margin Perceptron does) drops the first mistake.
    w, rows = (y[0] * X[0] if start_at_first else np.zeros(X.shape[1], dtype=dtype)), []
    while True:
        clean = True
        for x, label in zip(X, y):
            score = label * (w @ x)
            if score < 0 or (tie and score == 0):
                old, w = w, w + label * x
                shown = old if before else w
                rows.append([shown @ unit, shown @ shown if square else np.sqrt(shown @ shown)])
                clean = False
        if clean or one_pass:
            return np.array(rows, dtype=dtype).reshape(-1, 2)


def _proof_loops(X, y, u):
    """Another correct way: Python lists and loops, rows stored after a whole pass."""
    norm = math.sqrt(sum(v * v for v in u.tolist()))
    w, rows = [0.0] * X.shape[1], []
    while True:
        pass_rows = []
        for xi, yi in zip(X.tolist(), y.tolist()):
            if yi * sum(a * b for a, b in zip(w, xi)) <= 0:
                w = [a + yi * b for a, b in zip(w, xi)]
                pass_rows.append((sum(a * b for a, b in zip(w, u.tolist())) / norm, sum(a * a for a in w)))
        rows += pass_rows
        if not pass_rows:
            return rows


def _train_until_clean(X, y, epochs):
    """epochs ignored: passes until one without a mistake, at most 1000."""
    w = np.zeros(X.shape[1])
    for _ in range(1000):
        clean = True
        for x, yi in zip(X, y):
            if yi * (w @ x) <= 0:
                w, clean = w + yi * x, False
        if clean:
            break
    return w


def _train_reset(X, y, epochs):
    """Every pass starts again from w = 0."""
    return train_with(X, y, min(epochs, 1))


def _margin_run_with(test, *, start=lambda X, y: y[0] * X[0], epochs=None):
    """A Margin Perceptron run with one part changed: the test(w, x, y, target * gamma, gamma),
    the start, or a cap on the epochs."""
    def run(X, y, gamma, target):
        w, epoch = start(X, y).astype(float), 0
        while True:
            epoch, changed = epoch + 1, False
            for x, label in zip(X, y):
                with np.errstate(invalid="ignore", divide="ignore"):
                    if test(w, x, label, target * gamma, gamma):
                        w, changed = w + label * x, True
            if not changed or epoch == epochs:
                return w
    return run


def _averaged_with(*, test=lambda w, x, y: y * (w @ x) <= 0, step=lambda w, x, y: w + y * x,
                   before=False, rounds=lambda n, T: n * T, last=False):
    """The averaged perceptron with one part changed: the test, the step, the weights taken
    before each round, what the sum is divided by, or the last weights instead of the mean."""
    def run(X, y, epochs):
        n, d = X.shape
        w, total = np.zeros(d), np.zeros(d)
        for _ in range(epochs):
            for x, label in zip(X, y):
                total = total + w if before else total
                if test(w, x, label):
                    w = step(w, x, label)
                total = total if before else total + w
        return w if last else total / rounds(n, epochs)
    return run


_norm = np.linalg.norm

WRONG = {
    "mistakes": [
        ("ties not counted (< instead of <=)", lambda X, y, w: int(np.sum(y * (X @ w) < 0))),
        ("counts the correct points", lambda X, y, w: int(np.sum(y * (X @ w) > 0))),
        ("labels ignored", lambda X, y, w: int(np.sum(X @ w <= 0))),
        ("off by one", lambda X, y, w: int(np.sum(y * (X @ w) <= 0)) + 1),
        ("returns a float", lambda X, y, w: float(np.sum(y * (X @ w) <= 0))),
    ],
    "first_mistake": [
        ("ties not mistakes (< instead of <=)", lambda X, y, w: first_index(y * (X @ w) < 0)),
        ("the last mistake", lambda X, y, w: (lambda i: None if i is None else len(y) - 1 - i)(
            first_index((y * (X @ w) <= 0)[::-1]))),
        ("the number of mistakes", lambda X, y, w: int(np.sum(y * (X @ w) <= 0))),
        ("counts from 1", lambda X, y, w: (lambda i: None if i is None else i + 1)(first_index(y * (X @ w) <= 0))),
        ("-1 for no mistake", lambda X, y, w: (lambda i: -1 if i is None else i)(first_index(y * (X @ w) <= 0))),
        ("labels ignored", lambda X, y, w: first_index(X @ w <= 0)),
        ("returns a float", lambda X, y, w: (lambda i: None if i is None else float(i))(first_index(y * (X @ w) <= 0))),
        ("the last row never tested", lambda X, y, w: first_index(y[:-1] * (X[:-1] @ w) <= 0)),
    ],
    "update": [
        ("ties not updated (< instead of <=)", lambda w, x, y: w + y * x if y * (w @ x) < 0 else w.copy()),
        ("the negative step", lambda w, x, y: w - y * x if y * (w @ x) <= 0 else w.copy()),
        ("always updates", lambda w, x, y: w + y * x),
        ("label left out of the test", lambda w, x, y: w + y * x if (w @ x) <= 0 else w.copy()),
        ("changes w in place", lambda w, x, y: (w.__iadd__(y * x) if y * (w @ x) <= 0 else w)),
    ],
    "train": [
        ("ties not mistakes (< instead of <=)", lambda X, y, e: train_with(
            X, y, e, test=lambda w, x, yi: yi * (w @ x) < 0)),
        ("label left out of the update", lambda X, y, e: train_with(X, y, e, step=lambda w, x, yi: w + x)),
        ("label left out of the test", lambda X, y, e: train_with(X, y, e, test=lambda w, x, yi: w @ x <= 0)),
        ("a pass tested with its first weights", train_batch),
        ("the rows in reverse order", lambda X, y, e: train_with(X[::-1], y[::-1], e)),
        ("one pass too many", lambda X, y, e: train_with(X, y, e + 1)),
        ("one pass too few", lambda X, y, e: train_with(X, y, max(e - 1, 0))),
        ("every pass from w = 0", _train_reset),
        ("epochs ignored: until a clean pass", _train_until_clean),
    ],
    "separable": [
        ("the perceptron for 1000 passes", _separable_perceptron),
        ("separable with an offset", _separable_with_offset),
        ("the negative answer", _separable_negated),
        ("always True", lambda X, y: True),
        ("no point at the origin", lambda X, y: bool(np.all(np.any(X != 0, axis=1)))),
    ],
    "is_certificate": [
        ("a tolerance (isclose, allclose)", _certificate_close),
        ("floats compared with ==", _certificate_float_equal),
        ("labels left out", lambda X, y, lam: _certificate_exact(X, y, lam, labels=False)),
        ("negative weights let through", lambda X, y, lam: _certificate_exact(X, y, lam, signs=False)),
        ("not normalized (any positive sum)", lambda X, y, lam: _certificate_exact(X, y, lam, normalized=False)),
        ("the negative answer", lambda X, y, lam: not _certificate_exact(X, y, lam)),
    ],
    "margin": [
        ("not normalized", lambda X, y, w, b: float(np.min(y * (X @ w + b)))),
        ("offset left out", lambda X, y, w, b: float(np.min(y * (X @ w)) / np.linalg.norm(w))),
        ("absolute values", lambda X, y, w, b: float(np.min(np.abs(X @ w + b)) / np.linalg.norm(w))),
        ("max instead of min", lambda X, y, w, b: float(np.max(y * (X @ w + b)) / np.linalg.norm(w))),
        ("the negative", lambda X, y, w, b: -float(np.min(y * (X @ w + b)) / np.linalg.norm(w))),
    ],
    "radius": [
        ("largest entry", lambda X: float(np.max(np.abs(X)))),
        ("squared norm", lambda X: float(np.max(np.sum(X**2, axis=1)))),
        ("mean of the norms", lambda X: float(np.mean(np.linalg.norm(X, axis=1)))),
        ("norm of the whole matrix", lambda X: float(np.linalg.norm(X))),
    ],
    "mistake_bound": [
        ("not squared", lambda R, gamma: R / gamma),
        ("only R squared", lambda R, gamma: R**2 / gamma),
        ("off by one", lambda R, gamma: (R / gamma) ** 2 + 1),
        ("rounded to an int", lambda R, gamma: math.ceil((R / gamma) ** 2)),
    ],
    "proof_quantities": [
        ("ties not mistakes (< instead of <=)", lambda X, y, u: _proof_run(X, y, u, tie=False)),
        ("the quantities before the update", lambda X, y, u: _proof_run(X, y, u, before=True)),
        ("||w_k|| instead of ||w_k||^2", lambda X, y, u: _proof_run(X, y, u, square=False)),
        ("u not normalized", lambda X, y, u: _proof_run(X, y, u, normalize=False)),
        ("one pass only", lambda X, y, u: _proof_run(X, y, u, one_pass=True)),
        ("started from w = y_1 x_1", lambda X, y, u: _proof_run(X, y, u, start_at_first=True)),
        ("the columns swapped", lambda X, y, u: _proof_run(X, y, u)[:, ::-1]),
    ],
    "augment": [
        ("column in front", lambda X, c: np.hstack([np.full((X.shape[0], 1), c), X])),
        ("always a column of ones", lambda X, c: np.hstack([X, np.ones((X.shape[0], 1))])),
        ("a row instead of a column", lambda X, c: np.vstack([X, np.full((1, X.shape[1]), c)])),
        ("c added to every entry", lambda X, c: np.hstack([X + c, np.full((X.shape[0], 1), c)])),
    ],
    "offset_bound": [
        ("the offset left out", lambda R, gamma, b, c: (R**2 + c**2) / gamma**2),
        ("(R/gamma)^2 when b = 0", lambda R, gamma, b, c: (R / gamma) ** 2 if b == 0
         else (R**2 + c**2) * (1 + b**2 / c**2) / gamma**2),
        ("b not squared", lambda R, gamma, b, c: (R**2 + c**2) * (1 + b / c**2) / gamma**2),
        ("c taken as 1", lambda R, gamma, b, c: (R**2 + 1) * (1 + b**2) / gamma**2),
        ("the radius not lifted", lambda R, gamma, b, c: R**2 * (1 + b**2 / c**2) / gamma**2),
        ("gamma not squared", lambda R, gamma, b, c: (R**2 + c**2) * (1 + b**2 / c**2) / gamma),
        ("always the best bound", lambda R, gamma, b, c: ((R + abs(b)) / gamma) ** 2),
        ("c not squared in the tilt", lambda R, gamma, b, c: (R**2 + c**2) * (1 + b**2 / c) / gamma**2),
    ],
    "margin_mistake": [
        ("<= instead of <", lambda w, x, y, gamma, target: bool(
            np.linalg.norm(w) == 0 or y * (w @ x) / np.linalg.norm(w) <= target * gamma)),
        ("not normalized", lambda w, x, y, gamma, target: bool(
            np.linalg.norm(w) == 0 or y * (w @ x) < target * gamma)),
        ("w = 0 not an update", lambda w, x, y, gamma, target: bool(
            np.linalg.norm(w) > 0 and y * (w @ x) / np.linalg.norm(w) < target * gamma)),
        ("gamma instead of target * gamma", lambda w, x, y, gamma, target: bool(
            np.linalg.norm(w) == 0 or y * (w @ x) / np.linalg.norm(w) < gamma)),
        ("the negative", lambda w, x, y, gamma, target: not bool(
            np.linalg.norm(w) == 0 or y * (w @ x) / np.linalg.norm(w) < target * gamma)),
    ],
    "margin_run": [
        ("<= instead of <", _margin_run_with(lambda w, x, y, t, g: y * (w @ x) / _norm(w) <= t)),
        ("not normalized", _margin_run_with(lambda w, x, y, t, g: y * (w @ x) < t)),
        ("the plain perceptron's test", _margin_run_with(lambda w, x, y, t, g: y * (w @ x) <= 0)),
        ("one epoch only", _margin_run_with(lambda w, x, y, t, g: y * (w @ x) / _norm(w) < t, epochs=1)),
        ("from w = 0 with no update there", _margin_run_with(
            lambda w, x, y, t, g: y * (w @ x) / _norm(w) < t, start=lambda X, y: np.zeros(X.shape[1]))),
        ("from x_1, the label left out", _margin_run_with(
            lambda w, x, y, t, g: y * (w @ x) / _norm(w) < t, start=lambda X, y: X[0])),
    ],
    "hinge_deviation": [
        ("not normalized", lambda X, y, w, gamma: float(np.sum(np.maximum(0, gamma - y * (X @ w))))),
        ("no max(0, .)", lambda X, y, w, gamma: float(np.sum(gamma - y * (X @ (w / np.linalg.norm(w)))))),
        ("mean instead of sum", lambda X, y, w, gamma: float(
            np.mean(np.maximum(0, gamma - y * (X @ (w / np.linalg.norm(w))))))),
        ("labels left out", lambda X, y, w, gamma: float(np.sum(np.maximum(0, gamma - X @ (w / np.linalg.norm(w)))))),
    ],
    "averaged": [
        ("w_0 = 0 averaged in too", _averaged_with(rounds=lambda n, T: n * T + 1)),
        ("the weights before each round", _averaged_with(before=True)),
        ("ties not mistakes", _averaged_with(test=lambda w, x, y: y * (w @ x) < 0)),
        ("the last weights", _averaged_with(last=True)),
        ("divided by T", _averaged_with(rounds=lambda n, T: T)),
        ("label left out of the test", _averaged_with(test=lambda w, x, y: (w @ x) <= 0)),
        ("a tie a mistake only at w = 0", _averaged_with(test=lambda w, x, y: y * (w @ x) < 0 or not np.any(w))),
    ],
    "pac_window": [
        ("M hypotheses instead of M + 1", _pac_window_m_hypotheses),
        ("(R/gamma)^2 not rounded down", _pac_window_unfloored),
        ("rounded down", lambda R, gamma, eps, delta: math.floor(
            math.log((math.floor((R / gamma) ** 2) + 1) / delta) / eps)),
        ("a float", lambda R, gamma, eps, delta: float(math.ceil(
            math.log((math.floor((R / gamma) ** 2) + 1) / delta) / eps))),
        ("ln(1/delta) only", lambda R, gamma, eps, delta: math.ceil(math.log(1 / delta) / eps)),
    ],
    "adversary": [
        ("agrees with the prediction", _adversary(lambda p: p if p else 1)),
        ("label 0 after no label", _adversary(lambda p: -p)),
        ("-1 after no label", _adversary(lambda p: 1 if p < 0 else -1)),
        ("never tells the learner", _adversary(tell=False)),
        ("a fresh learner each round", _adversary(fresh=True)),
        ("the unit vectors e_i", _adversary(point=lambda i, n, R: np.eye(n)[i])),
        ("the rounds in reverse order", _adversary(order=lambda n: reversed(range(n)))),
    ],
}


def _forever(*args):
    while True:
        pass


def _separable_until_clean(X, y):
    """The perceptron until a pass without mistakes: an endless loop on inseparable data."""
    w = np.zeros(X.shape[1])
    while True:
        clean = True
        for x, yi in zip(X, y):
            if yi * (w @ x) <= 0:
                w, clean = w + yi * x, False
        if clean:
            return True


# --- the table ---------------------------------------------------------------------------------


def test_every_exercise_has_two_or_three_hidden_tests():
    assert names() == list(check.EXERCISES) == list(HIDDEN)
    assert set(WRONG) == set(HIDDEN)
    for name, cells in HIDDEN.items():
        assert 2 <= len(cells) <= 3, name
        assert all(isinstance(c, str) and c.endswith("\n") for c in cells)
    every = [function_name(c) for cells in HIDDEN.values() for c in cells]
    assert len(set(every)) == len(every), "test function names repeat"
    with pytest.raises(ValueError):
        function_name("x = 1\n")


# --- (a) the chapter's solution passes --------------------------------------------------------


@pytest.mark.parametrize("item", CELLS, ids=_cell_id)
def test_the_chapter_solution_passes(item):
    name, i = item
    run_cell(name, i, solution(name))


def test_the_solutions_are_the_chapters():
    """The solutions used in (a) pass the public check too (they are the book's, not ours)."""
    for name in HIDDEN:
        assert check._run(name, solution(name), quiet=True).passed, name


# Other correct ways to answer, computed differently from the chapter's solution (Python loops,
# another order of operations, float32 where the answer is a float): the oracles must not
# encode one way of computing, nor hold a float32 answer to more than the stated precision.
f32 = np.float32


def _separable_lp_witness(X, y):
    """The LP witness alone, checked exactly (tests/core/test_check.py's separable_ok)."""
    from fractions import Fraction

    from scipy.optimize import linprog

    n, d = X.shape
    Z = y[:, None] * X
    res = linprog(np.r_[np.zeros(d), -1.0], A_ub=np.c_[-Z, np.ones(n)], b_ub=np.zeros(n),
                  bounds=[(-1, 1)] * d + [(None, 1)], method="highs")
    w = res.x[:d]
    exact = all(sum(Fraction(float(z)) * Fraction(float(c)) for z, c in zip(row, w)) > 0 for row in Z)
    return bool(res.x[-1] > 1e-9 and exact)


def _train_lists(X, y, epochs):
    w = [0.0] * X.shape[1]
    for _ in range(epochs):
        for x, yi in zip(X.tolist(), y.tolist()):
            if yi * sum(a * b for a, b in zip(w, x)) <= 0:
                w = [a + yi * b for a, b in zip(w, x)]
    return w


def _train_until_clean_or_epochs(X, y, epochs):
    """Stops after a pass without a mistake: the later passes would change nothing."""
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        clean = True
        for x, yi in zip(X, y):
            if yi * (x @ w) <= 0:
                w, clean = w + yi * x, False
        if clean:
            break
    return w


def _certificate_integers(X, y, lam):
    """The three conditions in integers: over a common power of two every float is an integer."""
    ratios = [v.as_integer_ratio() for v in lam.tolist()]
    if any(num < 0 for num, _ in ratios):
        return False
    den = max(d for _, d in ratios)  # powers of two: a multiple of every other
    if sum(num * (den // d) for num, d in ratios) != den:
        return False
    for j in range(X.shape[1]):
        terms = [(num, d, *(yi * xi[j]).as_integer_ratio()) for (num, d), xi, yi in zip(ratios, X.tolist(), y.tolist())]
        common = max(d * e for _, d, _, e in terms)
        if sum(num * m * (common // (d * e)) for num, d, m, e in terms) != 0:
            return False
    return True


def _certificate_decimal(X, y, lam):
    """The three conditions in decimal arithmetic with enough digits to hold every product of
    two floats exactly (a float has at most 767 significant decimal digits)."""
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 2000
        L = [Decimal(v) for v in lam.tolist()]
        if min(L) < 0 or sum(L) != 1:
            return False
        Z = [[Decimal(yi) * Decimal(v) for v in xi] for xi, yi in zip(X.tolist(), y.tolist())]
        return all(sum((l * z[j] for l, z in zip(L, Z)), Decimal(0)) == 0 for j in range(X.shape[1]))


def _adversary_rows(new_learner, n, R):
    """The game as a list of ints, the points the rows of R times the identity, labels told as ints."""
    learner, labels = new_learner(), []
    for x in R * np.eye(n):
        p = learner.predict(x)
        labels.append(-1 if p > 0 else 1)
        learner.update(x, labels[-1])
    return labels


def _margin_run_loops(X, y, gamma, target):
    """Python floats and loops; the test as y w.x against target * gamma * ||w||."""
    w = [y[0] * v for v in X[0].tolist()]
    while True:
        changed = False
        for x, label in zip(X.tolist(), y.tolist()):
            if label * sum(a * b for a, b in zip(w, x)) < target * gamma * math.sqrt(sum(a * a for a in w)):
                w, changed = [a + label * b for a, b in zip(w, x)], True
        if not changed:
            return w  # a list: "an array of floats" in any form numpy reads


def _margin_run_f32(X, y, gamma, target):
    """float32 throughout, the margin as (w / ||w||) . x."""
    X, y, aim = X.astype(f32), y.astype(f32), f32(target) * f32(gamma)
    w = y[0] * X[0]
    while True:
        changed = False
        for x, label in zip(X, y):
            if label * ((w / np.linalg.norm(w)) @ x) < aim:
                w, changed = w + label * x, True
        if not changed:
            return w


@functools.lru_cache(maxsize=None)
def _chapter_margin_mistake():
    return solution("margin_mistake")


def _margin_run_from_zero(X, y, gamma, target):
    """From w = 0 with the chapter's margin_mistake (w = 0 an update), as the exercise allows."""
    margin_mistake = _chapter_margin_mistake()
    w = np.zeros(X.shape[1])
    while True:
        changed = False
        for x, label in zip(X, y):
            if margin_mistake(w, x, label, gamma, target):
                w, changed = w + label * x, True
        if not changed:
            return w


def _averaged_f32(X, y, epochs):
    """float32 throughout, a running mean updated after every round."""
    X, y = X.astype(f32), y.astype(f32)
    w, mean = np.zeros(X.shape[1], f32), np.zeros(X.shape[1], f32)
    t = 0
    for _ in range(epochs):
        for x, label in zip(X, y):
            if label * (w @ x) <= 0:
                w = w + label * x
            t += 1
            mean += (w - mean) / f32(t)
    return mean


def _averaged_dual(X, y, epochs):
    """The chapter's dual form: each mistake's y x weighted by the rounds it survives."""
    n = len(y)
    w, out, t = np.zeros(X.shape[1]), np.zeros(X.shape[1]), 0
    for _ in range(epochs):
        for x, label in zip(X, y):
            t += 1
            if label * (w @ x) <= 0:
                w = w + label * x
                out += (n * epochs - t + 1) * label * x
    return out / (n * epochs)


ALTERNATIVES = {
    "mistakes": [
        lambda X, y, w: sum(1 for xi, yi in zip(X, y) if yi * sum(a * b for a, b in zip(xi, w)) <= 0),
        lambda X, y, w: int(np.count_nonzero(np.einsum("ij,j->i", X, w) * y <= 0)),
    ],
    "first_mistake": [
        lambda X, y, w: next((i for i, (xi, yi) in enumerate(zip(X.tolist(), y.tolist()))
                              if yi * sum(a * b for a, b in zip(xi, w.tolist())) <= 0), None),
        lambda X, y, w: (lambda s: int(np.argmax(s <= 0)) if np.any(s <= 0) else None)(
            y.astype(f32) * (X.astype(f32) @ w.astype(f32))),
    ],
    "update": [
        lambda w, x, y: (w.astype(f32) + f32(y) * x.astype(f32)) if f32(y) * (w.astype(f32) @ x.astype(f32)) <= 0
        else w.astype(f32),
        lambda w, x, y: np.array([a + y * b for a, b in zip(w, x)]) if y * sum(a * b for a, b in zip(w, x)) <= 0
        else np.array(w),
    ],
    "train": [train_f32, _train_lists, _train_until_clean_or_epochs],
    "separable": [_separable_lp_witness],
    "is_certificate": [_certificate_integers, _certificate_decimal],
    "margin": [
        lambda X, y, w, b: float(np.min(y * (X @ (w / np.linalg.norm(w)) + b / np.linalg.norm(w)))),
        lambda X, y, w, b: f32(np.min(y * (X.astype(f32) @ w.astype(f32) + f32(b))) / np.linalg.norm(w.astype(f32))),
    ],
    "radius": [
        lambda X: max(math.hypot(*row) for row in X.tolist()),
        lambda X: np.max(np.linalg.norm(X.astype(f32), axis=1)),
        lambda X: float(np.sqrt(np.max(np.einsum("ij,ij->i", X, X)))),
    ],
    "mistake_bound": [lambda R, gamma: R**2 / gamma**2, lambda R, gamma: f32(R) ** 2 / f32(gamma) ** 2],
    "proof_quantities": [lambda X, y, u: _proof_run(X, y, u, dtype=f32), _proof_loops],
    "augment": [
        lambda X, c: np.c_[X, np.full(len(X), c)],
        lambda X, c: np.column_stack([X, c * np.ones(len(X))]).astype(f32),
        lambda X, c: [list(row) + [c] for row in X.tolist()],
    ],
    "offset_bound": [
        lambda R, gamma, b, c: (math.hypot(R, c) * math.hypot(1.0, b / c) / gamma) ** 2,
        lambda R, gamma, b, c: (f32(R) ** 2 + f32(c) ** 2) * (f32(1) + (f32(b) / f32(c)) ** 2) / f32(gamma) ** 2,
        lambda R, gamma, b, c: (R * R * c * c + R * R * b * b + c**4 + b * b * c * c) / (c * c * gamma * gamma),
    ],
    "margin_mistake": [
        lambda w, x, y, gamma, target: (not np.any(w)) or bool(y * np.dot(w / np.linalg.norm(w), x) < target * gamma),
        lambda w, x, y, gamma, target: (not np.any(w)) or bool(y * np.dot(w, x) < gamma * target * np.linalg.norm(w)),
        lambda w, x, y, gamma, target: bool(
            np.linalg.norm(w) == 0 or y * np.dot(w, x) / np.linalg.norm(w) / gamma < target),
    ],
    "margin_run": [_margin_run_loops, _margin_run_f32, _margin_run_from_zero],
    "hinge_deviation": [
        lambda X, y, w, gamma: np.sum(np.maximum(f32(0), f32(gamma) - y.astype(f32) * (
            X.astype(f32) @ (w / np.linalg.norm(w)).astype(f32)))),
        lambda X, y, w, gamma: sum(max(0.0, gamma - yi * float(np.dot(w, xi)) / float(np.linalg.norm(w)))
                                   for xi, yi in zip(X, y)),
    ],
    "averaged": [_averaged_f32, _averaged_dual],
    "pac_window": [
        lambda R, gamma, eps, delta: math.ceil((math.log(int((R / gamma) ** 2) + 1) - math.log(delta)) / eps),
        lambda R, gamma, eps, delta: int(np.ceil(np.log((np.floor(R**2 / gamma**2) + 1) / delta) / eps)),
    ],
    "adversary": [
        lambda new_learner, n, R: _adversary()(new_learner, n, R).astype(f32),
        _adversary_rows,
    ],
}


@pytest.mark.parametrize("name", list(HIDDEN))
def test_other_correct_functions_pass(name):
    assert set(ALTERNATIVES) == set(HIDDEN)
    for func in ALTERNATIVES[name]:
        for i in range(len(HIDDEN[name])):
            run_cell(name, i, func)


# --- (b) wrong functions fail -----------------------------------------------------------------


def _outcome(name, i, func):
    try:
        run_cell(name, i, func)
    except AssertionError as exc:
        return "assertion", str(exc)
    except Exception as exc:  # noqa: BLE001 -- a wrong function may also raise
        return "error", f"{type(exc).__name__}: {exc}"
    return "passed", ""


@pytest.mark.parametrize("name", list(HIDDEN))
def test_every_wrong_function_fails_a_hidden_test_and_every_test_catches_one(name):
    """Each wrong function against each hidden cell, once: every wrong function fails some cell
    with an AssertionError whose message names the function, shows the inputs and what was
    expected; and every cell fails some wrong function, so none is dead weight."""
    outcomes = {label: [_outcome(name, i, func) for i in range(len(HIDDEN[name]))]
                for label, func in WRONG[name]}
    for label, row in outcomes.items():
        assert any(kind == "assertion" for kind, _ in row), f"{name}: {label!r} passes every hidden test"
        message = next(text for kind, text in row if kind == "assertion")
        assert (f"{name}(" in message and ("expected" in message or "in place" in message)), message
    for i in range(len(HIDDEN[name])):
        assert any(row[i][0] == "assertion" for row in outcomes.values()), (
            f"{function_name(HIDDEN[name][i])} catches none of the wrong functions")


def test_a_broken_oracle_fails_the_solution():
    """A sanity check of the harness: break one oracle (ties no longer counted) and (a) fails."""
    cell = HIDDEN["mistakes"][0]
    broken = cell.replace("for a, b in zip(xi, w.tolist())) <= 0)", "for a, b in zip(xi, w.tolist())) < 0)")
    assert broken != cell
    with pytest.raises(AssertionError, match=r"expected \d+, got"):
        exec(compile(broken, "<broken>", "exec"), {"mistakes": solution("mistakes")})  # noqa: S102


@pytest.mark.parametrize("name, via_package", [
    ("augment", lambda X, c: __import__("perceptron_core").augment(X, c)),
    ("separable", lambda X, y: bool(__import__("perceptron_core").separability(X, y).separable)),
    ("train", lambda X, y, epochs: __import__("perceptron_core").perceptron(X, y, max_epochs=epochs).w
                                     if epochs else np.zeros(X.shape[1])),
])
def test_a_function_that_lets_the_package_answer_fails_every_hidden_test(name, via_package):
    """The hidden tests grade the student's own code, as the public check does: the package's
    answer, right as it is, fails each of them with a PermissionError that names it."""
    for i in range(len(HIDDEN[name])):
        with pytest.raises(PermissionError, match=r"called perceptron_core\.\w+, which this exercise asks you to write"):
            run_cell(name, i, via_package)


# --- (c) an endless loop fails quickly --------------------------------------------------------


@pytest.mark.parametrize("item", CELLS, ids=_cell_id)
def test_an_endless_loop_fails_with_a_timeout(item, monkeypatch):
    name, i = item
    monkeypatch.setattr(check, "TIME_LIMIT", SHORT_LIMIT)
    start = time.monotonic()
    with pytest.raises(TimeoutError, match=rf"did not return within {SHORT_LIMIT:g} s: an endless loop\?"):
        run_cell(name, i, _forever)
    assert time.monotonic() - start < 10  # a generous bound: a loaded machine is slow


def test_a_perceptron_that_never_stops_fails_separable(monkeypatch):
    monkeypatch.setattr(check, "TIME_LIMIT", SHORT_LIMIT)
    for i in range(len(HIDDEN["separable"])):
        start = time.monotonic()
        with pytest.raises(TimeoutError, match=r"_separable_until_clean\(\.\.\.\) did not return"):
            run_cell("separable", i, _separable_until_clean)
        assert time.monotonic() - start < 10


# --- (d) what the cells may use, and their form -----------------------------------------------


def _parents(tree):
    parent = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parent[child] = node
    return parent


@pytest.mark.parametrize("item", CELLS, ids=_cell_id)
def test_a_cell_imports_only_call_from_the_package(item):
    name, i = item
    cell = HIDDEN[name][i]
    tree = ast.parse(cell)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert not alias.name.startswith("perceptron_core"), ast.unparse(node)
                assert alias.name in ALLOWED_MODULES, ast.unparse(node)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module in ALLOWED_MODULES, ast.unparse(node)
            if node.module.startswith("perceptron_core"):
                assert node.module == "perceptron_core.check", ast.unparse(node)
                assert {a.name for a in node.names} <= ALLOWED_FROM_CHECK, ast.unparse(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"__import__", "eval", "exec"}, ast.unparse(node)
    # The package is named in those import lines only.
    lines = [line.strip() for line in cell.splitlines() if "perceptron_core" in line]
    assert lines and all(re.fullmatch(r"from perceptron_core\.check import [\w, ]+", line) for line in lines), lines


@pytest.mark.parametrize("item", CELLS, ids=_cell_id)
def test_a_cell_has_the_form_otter_accepts_and_calls_only_through_call(item):
    name, i = item
    cell = HIDDEN[name][i]
    tree = ast.parse(cell)
    # A function definition of one parameter, the exercise's name, and a call of it on that name.
    assert len(tree.body) == 2, "a cell is a test function and one call of it"
    define, invoke = tree.body
    assert isinstance(define, ast.FunctionDef) and define.name.startswith(f"test_{name}_")
    assert [a.arg for a in define.args.args] == [name] and not define.decorator_list
    assert ast.unparse(invoke) == f"{define.name}({name})"
    # Inside, the student's function appears only as the first argument of call(...), and
    # every call(...) passes the time limit the cell read.
    parent = _parents(define)
    uses = [n for n in ast.walk(define) if isinstance(n, ast.Name) and n.id == name]
    assert uses, f"the cell never calls {name}"
    for use in uses:
        holder = parent[use]
        assert (isinstance(holder, ast.Call) and isinstance(holder.func, ast.Name) and holder.func.id == "call"
                and holder.args and holder.args[0] is use), f"{name} used outside call(...): {ast.unparse(holder)}"
    for node in ast.walk(define):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "call":
            assert [ast.unparse(k) for k in node.keywords if k.arg == "time_limit"] == ["time_limit=TIME_LIMIT"]
            # and switches off the package's answers to this exercise, as its public check does
            assert [k.value.value for k in node.keywords if k.arg == "exercise"] == [name], ast.unparse(node)
    # No other top-level name is left in the grader's namespace but the test function's, and
    # nothing is printed (an OK-format test compares the output with none).
    assert not any(isinstance(n, ast.Call) and getattr(n.func, "id", "") == "print" for n in ast.walk(tree))


# --- (e) otter runs them ----------------------------------------------------------------------


# One cell of each exercise: every cell has the same form (a test function of the exercise's
# name and one call of it, (d) above), which is what otter's conversions depend on.
FIRST_CELLS = [(name, 0) for name in HIDDEN]


@pytest.mark.parametrize("item", FIRST_CELLS, ids=_cell_id)
def test_otter_runs_the_cell_in_both_formats(item, monkeypatch):
    """As otter assign turns a test cell into an OK-format doctest (``ast.unparse``, then
    ``str_to_doctest``) or an exception-based test file, and as otter grade runs them: the
    solution passes the doctest, and an endless loop and a wrong function fail, in both."""
    pytest.importorskip("otter")
    from otter.assign.utils import str_to_doctest
    from otter.test_files.exception_test import ExceptionTestFile
    from otter.test_files.ok_test import run_doctest

    name, i = item
    cell = HIDDEN[name][i]
    tree = ast.parse(cell)
    doctest_body = "\n".join(str_to_doctest(ast.unparse(tree).split("\n"), []))
    test_file = ("from otter.test_files import test_case\n\nOK_FORMAT = False\nname = 'q'\npoints = 1\n\n"
                 "@test_case(points=None, hidden=True)\n" + ast.unparse(tree.body[0]) + "\n")
    assert run_doctest("q", doctest_body, {name: solution(name)}) == (True, "")
    # A function that loops forever fails, in both, without hanging the grader.
    monkeypatch.setattr(check, "TIME_LIMIT", SHORT_LIMIT)
    passed, report = run_doctest("q", doctest_body, {name: _forever})
    assert not passed and "TimeoutError" in report
    exception_test = ExceptionTestFile.from_string(test_file)
    exception_test.run({name: _forever})
    assert not exception_test.passed_all and "TimeoutError" in exception_test.summary()
    monkeypatch.undo()
    # And a wrong one that this cell catches fails with the cell's message, in both.
    label, func = next((label, func) for label, func in WRONG[name] if _outcome(name, i, func)[0] == "assertion")
    passed, report = run_doctest("q", doctest_body, {name: func})
    assert not passed and "AssertionError" in report and "expected" in report, label
    exception_test = ExceptionTestFile.from_string(test_file)
    exception_test.run({name: func})
    assert not exception_test.passed_all and "AssertionError" in exception_test.summary(), label
