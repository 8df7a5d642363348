"""Hidden autograder tests for the checked code exercises, each against an independent oracle.

In the otter assignments ``check.<name>(<name>)`` is the public test of each checked code exercise
(:data:`perceptron_core.check.EXERCISES`); :data:`HIDDEN` holds, for every exercise, two or three
hidden test cells that the autograder runs besides and the student never sees. Each one tries the
student's function on inputs the public check does not use (other seeds, other sizes, other edge
cases) and compares every answer with an *oracle*: a brute force, exact rational arithmetic
(``fractions.Fraction`` of the floats, ``decimal`` at 60 digits) or a closed form written out in
the cell, from the exercise's definition in its chapter.

Why independent: the package's own implementation of an answer is the solution (a test that
compares with it proves only that two copies of one formula agree, slips included), and so are
the references inside ``check.py``. No cell imports anything of ``perceptron_core`` but
``perceptron_core.check``'s :func:`~perceptron_core.check.call` (which calls the student's
function under a time limit, so that an endless loop fails the test with a ``TimeoutError``
instead of hanging the grader, and with ``exercise=`` switches off the package functions that
answer the exercise, as its public check does, so that calling one fails the test with a
``PermissionError``), ``PRECISION`` (the precision the exercise text states) and
``TIME_LIMIT`` (that limit). Exact arithmetic on the very floats the function receives also
settles what a float computation cannot: a point exactly on the line, a margin exactly at the
target. Where an exact answer and a correct float computation could still differ (a score within
rounding of 0, a bound within rounding of an integer), the random cases are drawn away from that
boundary, and the boundary itself is tested on numbers whose float arithmetic is exact in any
order of operations (small integers, multiples of 1/8, weight vectors along an axis, powers of
2). Hand-made cases with a known answer check the oracle against it, and a known verdict on
separability carries a proof the cell checks exactly (a separating ``w``, or a Gordan
certificate), so that a wrong expectation fails loudly instead of grading students against it.

Conventions match the public check: ties are mistakes (``y w·x ≤ 0``) for ``mistakes``,
``first_mistake`` (which returns None when there is no mistake), ``update``, ``train`` (passes in
the order of the rows from ``w = 0``, no offset), ``proof_quantities`` (a cyclic run from
``w = 0`` until a clean pass, recording ``w_k·u/‖u‖`` and ``‖w_k‖²`` after each mistake) and
``averaged`` (the mean of the weights after each of the ``nT`` rounds, from ``w = 0``), the
margin-mistake test is strict (``< τγ``, and ``w = 0`` is always one), ``margin_run`` starts at
``w₁ = y₁x₁`` and stops after a sweep without a margin mistake, ``separable`` is strict
separation through the origin, ``offset_bound`` is ``(R² + c²)(1 + b²/c²)/γ²``, and
``pac_window`` is ``⌈(1/ε) ln((M + 1)/δ)⌉`` with ``M = ⌊(R/γ)²⌋``. Floats pass within
``PRECISION[name]`` times the size the module docstring of ``perceptron_core.check`` names (the
answer, or the largest its terms can be); ints, indices and True/False are compared exactly, and
must be of that type.

The form of a cell, which both of otter's test formats accept (an OK-format doctest after
``ast.unparse``, or an exception-based test: at most a function definition and a call of it)::

    def test_<name>_<what>(<name>):
        import numpy as np                          # its own imports, inside the function
        from perceptron_core.check import TIME_LIMIT, call
        ...
        got = call(<name>, X, y, w, time_limit=TIME_LIMIT, exercise="<name>")
        assert got == want, f"<name>(X, y, w) on X = ...: expected {want}, got {got!r}"
    test_<name>_<what>(<name>)

The function's parameter is the student's function, looked up by the exercise's name (otter's
exception-based tests pass globals by parameter name; the final call does it for a doctest). A
failing assertion's message shows the inputs and the expected answer. The cells print nothing
(an OK-format test compares printed output with none).

**The time limit** of every call is ``perceptron_core.check.TIME_LIMIT`` (5 s), read when the
cell runs: a grader on a slow machine sets ``perceptron_core.check.TIME_LIMIT = 30`` before the
tests, and the tests of this module set it to a fraction of a second to see an endless loop fail
quickly. (The public checks take their default when ``check.py`` is imported, so they are not
affected.)
"""

from __future__ import annotations

import ast
import textwrap

__all__ = ["HIDDEN", "names", "function_name"]


def _cell(source: str) -> str:
    return textwrap.dedent(source).strip("\n") + "\n"


# --- mistakes (chapter "first_look"): count the points with y w·x ≤ 0 -------------------------

_MISTAKES = [
    _cell(r'''
    def test_mistakes_exact_ties(mistakes):
        # Small integers: many points lie exactly on the line w.x = 0 (some at the origin) and
        # count as mistakes. Oracle: the count in exact rational arithmetic.
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def exact_count(X, y, w):
            return sum(1 for xi, yi in zip(X.tolist(), y.tolist())
                       if Fraction(yi) * sum(Fraction(a) * Fraction(b) for a, b in zip(xi, w.tolist())) <= 0)
        rng = np.random.default_rng(90210)
        ties = 0
        for case in range(40):
            n, d = int(rng.integers(1, 16)), int(rng.integers(1, 5))
            X = rng.integers(-2, 3, size=(n, d)).astype(float)
            y = rng.choice([-1.0, 1.0], size=n)
            w = rng.integers(-2, 3, size=d).astype(float)
            want = exact_count(X, y, w)
            ties += sum(1 for xi in X.tolist() if sum(a * b for a, b in zip(xi, w.tolist())) == 0)
            got = call(mistakes, X.copy(), y.copy(), w.copy(), time_limit=TIME_LIMIT, exercise="mistakes")
            assert isinstance(got, numbers.Integral) and not isinstance(got, (bool, np.bool_)), (
                f"mistakes(X, y, w) must return an int; on X = {X.tolist()}, y = {y.tolist()}, "
                f"w = {w.tolist()} it returned {type(got).__name__} {got!r} (expected {want})")
            assert got == want, (f"mistakes(X, y, w) on X = {X.tolist()}, y = {y.tolist()}, "
                                 f"w = {w.tolist()}: expected {want}, got {got!r}")
        assert ties > 0, "the cases were meant to put points exactly on the line"
    test_mistakes_exact_ties(mistakes)
    '''),
    _cell(r'''
    def test_mistakes_dyadic_and_random(mistakes):
        # Multiples of 1/8 (exact in floats, ties included) and Gaussian data of several sizes
        # and scales, drawn away from ties. Oracle: the count in exact rational arithmetic.
        import math
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def scores(X, y, w):
            return [Fraction(yi) * sum(Fraction(a) * Fraction(b) for a, b in zip(xi, w.tolist()))
                    for xi, yi in zip(X.tolist(), y.tolist())]
        rng = np.random.default_rng(31337)
        cases = []
        for k in range(15):
            n, d = int(rng.integers(2, 25)), int(rng.integers(1, 6))
            cases.append((rng.integers(-8, 9, size=(n, d)) / 8.0, rng.choice([-1.0, 1.0], size=n),
                          rng.integers(-4, 5, size=d) / 4.0))
        while len(cases) < 35:
            n, d = int(rng.integers(1, 80)), int(rng.integers(1, 9))
            scale = 10.0 ** int(rng.integers(-3, 4))
            X, w = rng.normal(size=(n, d)) * scale, rng.normal(size=d)
            y = rng.choice([-1.0, 1.0], size=n)
            size = scale * math.sqrt(d) * float(np.max(np.abs(w))) * 10
            if all(abs(float(s)) > 1e-9 * size for s in scores(X, y, w)):  # no near-tie
                cases.append((X, y, w))
        for X, y, w in cases:
            want = sum(1 for s in scores(X, y, w) if s <= 0)
            got = call(mistakes, X.copy(), y.copy(), w.copy(), time_limit=TIME_LIMIT, exercise="mistakes")
            assert isinstance(got, numbers.Integral) and not isinstance(got, (bool, np.bool_)) and got == want, (
                f"mistakes(X, y, w) on X = {X.tolist()}, y = {y.tolist()}, w = {w.tolist()}: "
                f"expected {want}, got {got!r}")
    test_mistakes_dyadic_and_random(mistakes)
    '''),
    _cell(r'''
    def test_mistakes_edge_cases(mistakes):
        # Hand-made cases whose count is known; the exact count agrees with each.
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def exact_count(X, y, w):
            return sum(1 for xi, yi in zip(X.tolist(), y.tolist())
                       if Fraction(yi) * sum(Fraction(a) * Fraction(b) for a, b in zip(xi, w.tolist())) <= 0)
        grid = np.array([[a, b] for a in range(-20, 21) for b in range(-20, 21) if a != b], dtype=float)
        labels = np.where(grid[:, 0] > grid[:, 1], 1.0, -1.0)
        labels[::37] *= -1  # every 37th label flipped: exactly those points are mistakes
        cases = [
            ("w = 0: every point", np.array([[1.0, 2.0], [-3.0, 0.5], [0.0, 0.0]]),
             np.array([1.0, -1.0, 1.0]), np.zeros(2), 3),
            ("every point at the origin", np.zeros((4, 3)), np.array([1.0, -1.0, -1.0, 1.0]),
             np.array([1.0, 2.0, 3.0]), 4),
            ("negative labels, all correct", np.array([[-1.0, 0.0], [-2.0, 5.0]]),
             np.array([-1.0, -1.0]), np.array([1.0, 0.0]), 0),
            ("two points on the line, with either label", np.array([[1.0, -1.0], [-2.0, 2.0], [3.0, 1.0]]),
             np.array([1.0, -1.0, 1.0]), np.array([1.0, 1.0]), 2),
            ("one dimension", np.array([[-2.0], [-1.0], [0.0], [1.0], [2.0]]),
             np.array([-1.0, -1.0, 1.0, 1.0, -1.0]), np.array([0.5]), 2),
            ("one point, correct", np.array([[0.25, -0.75]]), np.array([-1.0]), np.array([-1.0, 1.0]), 0),
            ("1640 points, every 37th label flipped", grid, labels, np.array([1.0, -1.0]),
             len(range(0, len(grid), 37))),
        ]
        for name, X, y, w, known in cases:
            want = exact_count(X, y, w)
            assert want == known, f"the oracle disagrees with the known count on {name!r}"
            got = call(mistakes, X.copy(), y.copy(), w.copy(), time_limit=TIME_LIMIT, exercise="mistakes")
            assert isinstance(got, numbers.Integral) and not isinstance(got, (bool, np.bool_)) and got == want, (
                f"mistakes(X, y, w), {name}: X = {X.tolist() if X.size <= 60 else 'a grid of shape ' + str(X.shape)}, "
                f"y = {y.tolist() if y.size <= 60 else '...'}, w = {w.tolist()}: expected {want}, got {got!r}")
    test_mistakes_edge_cases(mistakes)
    '''),
]


# --- first_mistake (chapter "first_look"): the first i with y_i w·x_i ≤ 0, or None -------------

_FIRST_MISTAKE = [
    _cell(r'''
    def test_first_mistake_exact_ties_and_random(first_mistake):
        # Small integers and multiples of 1/8: many points lie exactly on the line w.x = 0 (a
        # mistake), and every score is exact in floats. Then Gaussian data of up to 60 points in
        # up to 8 dimensions, at scales from 1e-3 to 1e3, drawn away from ties. The labels
        # are mostly those the line gives, so that the first mistake falls anywhere, or nowhere.
        # Oracle: the scores in exact rational arithmetic, and the first that is not positive.
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def exact_scores(X, y, w):
            W = [Fraction(v) for v in w.tolist()]
            return [Fraction(yi) * sum(Fraction(a) * b for a, b in zip(xi, W))
                    for xi, yi in zip(X.tolist(), y.tolist())]
        rng = np.random.default_rng(1729)
        cases = []
        for case in range(48):
            n, d = int(rng.integers(1, 20)), int(rng.integers(1, 5))
            if case % 2:
                X, w = rng.integers(-2, 3, size=(n, d)) / 8.0, rng.integers(-4, 5, size=d) / 4.0
            else:
                X = rng.integers(-3, 4, size=(n, d)).astype(float)
                w = rng.integers(-2, 3, size=d).astype(float)
            y = np.where(X @ w > 0, 1.0, -1.0)  # the line's labels (exact here); a score of 0 stays a mistake
            if case % 3:
                y[rng.integers(0, n, size=int(rng.integers(1, 3)))] *= -1
            cases.append((X, y, w))
        while len(cases) < 64:
            n, d = int(rng.integers(1, 61)), int(rng.integers(1, 9))
            X = rng.normal(size=(n, d)) * 10.0 ** int(rng.integers(-3, 4))
            w = rng.normal(size=d) * 10.0 ** int(rng.integers(-3, 4))
            scores = exact_scores(X, np.ones(n), w)
            sizes = (np.abs(X) @ np.abs(w)).tolist()
            if any(abs(float(s)) <= 1e-9 * size for s, size in zip(scores, sizes)):
                continue  # a score within rounding of 0: a float computation could call it either way
            y = np.array([1.0 if s > 0 else -1.0 for s in scores])
            y[rng.integers(0, n, size=int(rng.integers(0, 4)))] *= -1
            cases.append((X, y, w))
        seen = {"none": 0, "at a tie": 0, "not the first row": 0}
        for X, y, w in cases:
            scores = exact_scores(X, y, w)
            want = next((i for i, s in enumerate(scores) if s <= 0), None)
            seen["none"] += want is None
            seen["at a tie"] += want is not None and scores[want] == 0
            seen["not the first row"] += want is not None and want > 0
            got = call(first_mistake, X.copy(), y.copy(), w.copy(), time_limit=TIME_LIMIT, exercise="first_mistake")
            right = got is None if want is None else (
                isinstance(got, numbers.Integral) and not isinstance(got, (bool, np.bool_)) and got == want)
            shown = f"X = {X.tolist()}, y = {y.tolist()}" if len(y) <= 20 else (
                f"X of shape {X.shape} (Gaussian, seed 1729), y = ... with {int(np.sum(y > 0))} labels +1")
            assert right, f"first_mistake(X, y, w) on {shown}, w = {w.tolist()}: expected {want!r}, got {got!r}"
        assert all(seen.values()), f"the cases were meant to cover every kind of answer: {seen}"
    test_first_mistake_exact_ties_and_random(first_mistake)
    '''),
    _cell(r'''
    def test_first_mistake_along_a_run(first_mistake):
        # The point the perceptron updates on next: a cyclic perceptron run from w = 0, in
        # exact integer arithmetic, on integer data (separable or not). Wherever the run stands
        # (at row p of a pass, with weights w), its next update in this pass is at row p + i,
        # with i = first_mistake(X[p:], y[p:], w), or it makes none in the rest of the pass
        # (None). Oracle: the run itself. Then hand-made cases whose answer is known, which the
        # scores in exact rational arithmetic confirm.
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def same(got, want):
            return got is None if want is None else (
                isinstance(got, numbers.Integral) and not isinstance(got, (bool, np.bool_)) and got == want)
        rng = np.random.default_rng(6174)
        calls = 0
        for case in range(6):
            n, d = int(rng.integers(4, 12)), int(rng.integers(2, 5))
            X = rng.integers(-3, 4, size=(n, d))
            y = rng.choice([-1, 1], size=n) if case % 2 else np.where(X @ rng.integers(-2, 3, size=d) > 0, 1, -1)
            w = [0] * d
            for sweep in range(4):
                p = 0
                while p < n:
                    rest = [i for i in range(p, n) if y[i] * sum(a * int(b) for a, b in zip(w, X[i])) <= 0]
                    want = rest[0] - p if rest else None
                    got = call(first_mistake, X[p:].astype(float), y[p:].astype(float), np.array(w, dtype=float),
                               time_limit=TIME_LIMIT, exercise="first_mistake")
                    calls += 1
                    assert same(got, want), (
                        f"first_mistake(X, y, w) at pass {sweep + 1}, row {p} of a perceptron run, on "
                        f"X = {X[p:].tolist()}, y = {y[p:].tolist()}, w = {w}: expected {want!r}, got {got!r}")
                    if want is None:
                        break
                    i = p + want
                    w = [a + int(y[i]) * int(b) for a, b in zip(w, X[i])]
                    p = i + 1
        assert calls > 50, "the runs were meant to make many updates"
        big = np.array([[1.0, float(k % 7)] for k in range(1000)])
        labels = np.ones(1000)
        labels[997] = -1.0
        known = [
            ("w = 0: the first point", np.array([[3.0, -1.0], [1.0, 1.0]]), np.array([-1.0, 1.0]), np.zeros(2), 0),
            ("every point right", np.array([[1.0, 0.5], [-2.0, -1.0], [0.25, 4.0]]), np.array([1.0, -1.0, 1.0]),
             np.array([2.0, 1.0]), None),
            ("only the last point, at the origin", np.array([[1.0, 1.0], [2.0, 0.0], [0.0, 0.0]]),
             np.array([1.0, 1.0, -1.0]), np.array([1.0, 0.0]), 2),
            ("one dimension, a negative label", np.array([[2.0], [-1.0], [1.0]]), np.array([1.0, -1.0, -1.0]),
             np.array([0.5]), 2),
            ("a point on the line before a wrong one", np.array([[2.0, -3.0], [-1.0, 0.0], [3.0, 2.0]]),
             np.array([1.0, 1.0, 1.0]), np.array([3.0, 2.0]), 0),
            ("1000 points, the 998th wrong", big, labels, np.array([1.0, 0.0]), 997),
        ]
        for name, X, y, w, want in known:
            exact = next((i for i, (xi, yi) in enumerate(zip(X.tolist(), y.tolist()))
                          if Fraction(yi) * sum(Fraction(a) * Fraction(b) for a, b in zip(xi, w.tolist())) <= 0),
                         None)
            assert exact == want, f"the oracle disagrees with the known answer on {name!r}"
            got = call(first_mistake, X.copy(), y.copy(), w.copy(), time_limit=TIME_LIMIT, exercise="first_mistake")
            assert same(got, want), (
                f"first_mistake(X, y, w), {name}: X = {X.tolist() if len(X) <= 20 else 'of shape ' + str(X.shape)}, "
                f"y = {y.tolist() if len(y) <= 20 else '...'}, w = {w.tolist()}: expected {want!r}, got {got!r}")
    test_first_mistake_along_a_run(first_mistake)
    '''),
]


# --- update (chapter "perceptron"): w + y x when y w·x ≤ 0, else w -----------------------------

_UPDATE = [
    _cell(r'''
    def test_update_exact_ties(update):
        # Small integers, so that y w.x = 0 (a tie, which is a mistake) happens often, and w = 0.
        # Oracle: the step in exact rational arithmetic.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def exact_step(w, x, y):
            W, Xf, Y = [Fraction(v) for v in w.tolist()], [Fraction(v) for v in x.tolist()], Fraction(y)
            if Y * sum(a * b for a, b in zip(W, Xf)) <= 0:
                return [a + Y * b for a, b in zip(W, Xf)]
            return W
        rng = np.random.default_rng(4242)
        ties = 0
        for case in range(50):
            d = int(rng.integers(1, 7))
            w = rng.integers(-2, 3, size=d).astype(float) if case % 10 else np.zeros(d)
            x = rng.integers(-2, 3, size=d).astype(float)
            y = float(rng.choice([-1.0, 1.0]))
            ties += float(w @ x) == 0
            want = exact_step(w, x, y)
            w_in, x_in = w.copy(), x.copy()
            got = call(update, w_in, x_in, y, time_limit=TIME_LIMIT, exercise="update")
            shown = f"update(w, x, y) on w = {w.tolist()}, x = {x.tolist()}, y = {y}"
            assert np.array_equal(w_in, w) and np.array_equal(x_in, x), f"{shown} changed w or x in place"
            got_array = np.asarray(got, dtype=float)
            assert got_array.shape == (d,), f"{shown}: expected shape {(d,)}, got {got!r}"
            tol = PRECISION["update"] * max(float(np.max(np.abs(w))), float(np.max(np.abs(x))))
            assert all(abs(g - float(e)) <= tol for g, e in zip(got_array.tolist(), want)), (
                f"{shown}: expected {[float(e) for e in want]}, got {got!r}")
        assert ties > 0, "the cases were meant to include ties"
    test_update_exact_ties(update)
    '''),
    _cell(r'''
    def test_update_random(update):
        # Gaussian w and x of up to 40 coordinates and scales from 1e-3 to 1e3, drawn away from
        # a tie, and multiples of 1/8 with ties. Oracle: the step in exact rational arithmetic.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        rng = np.random.default_rng(8675309)
        cases = []
        while len(cases) < 40:
            if len(cases) % 4 == 0:
                d = int(rng.integers(1, 4))
                w, x = rng.integers(-4, 5, size=d) / 8.0, rng.integers(-4, 5, size=d) / 8.0
            else:
                d = int(rng.integers(1, 41))
                w = rng.normal(size=d) * 10.0 ** int(rng.integers(-3, 4))
                x = rng.normal(size=d) * 10.0 ** int(rng.integers(-3, 4))
            y = float(rng.choice([-1.0, 1.0]))
            s = Fraction(y) * sum(Fraction(a) * Fraction(b) for a, b in zip(w.tolist(), x.tolist()))
            size = float(np.abs(w) @ np.abs(x))
            if s == 0 or abs(float(s)) > 1e-9 * size:  # an exact tie, or clearly not one
                cases.append((w, x, y, s))
        assert any(s == 0 for w, x, y, s in cases), "the cases were meant to include ties"
        for w, x, y, s in cases:
            W, Xf = [Fraction(v) for v in w.tolist()], [Fraction(v) for v in x.tolist()]
            want = [a + Fraction(y) * b for a, b in zip(W, Xf)] if s <= 0 else W
            w_in, x_in = w.copy(), x.copy()
            got = call(update, w_in, x_in, y, time_limit=TIME_LIMIT, exercise="update")
            shown = f"update(w, x, y) on w = {w.tolist()}, x = {x.tolist()}, y = {y}"
            assert np.array_equal(w_in, w) and np.array_equal(x_in, x), f"{shown} changed w or x in place"
            got_array = np.asarray(got, dtype=float)
            assert got_array.shape == w.shape, f"{shown}: expected shape {w.shape}, got {got!r}"
            tol = PRECISION["update"] * max(float(np.max(np.abs(w))), float(np.max(np.abs(x))))
            assert all(abs(g - float(e)) <= tol for g, e in zip(got_array.tolist(), want)), (
                f"{shown}: expected {[float(e) for e in want]}, got {got!r}")
    test_update_random(update)
    '''),
    _cell(r'''
    def test_update_along_a_run(update):
        # The steps of a perceptron run from w = 0, three passes over nine integer points (each
        # step given the exact weights so far). Oracle: the run in exact rational arithmetic.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        X = np.array([[2, 1, 0], [0, 1, 1], [-1, 0, 2], [1, -2, 1], [0, 0, 1],
                      [-2, -1, 0], [3, 0, -1], [1, 1, 1], [0, -1, 0]], dtype=float)
        y = np.array([1, 1, -1, 1, -1, -1, 1, 1, -1], dtype=float)
        W = [Fraction(0)] * 3
        updates = 0
        for sweep in range(3):
            for i, (x, yi) in enumerate(zip(X, y)):
                w = np.array([float(v) for v in W])
                Xf = [Fraction(v) for v in x.tolist()]
                if Fraction(yi) * sum(a * b for a, b in zip(W, Xf)) <= 0:
                    W, updates = [a + Fraction(yi) * b for a, b in zip(W, Xf)], updates + 1
                got = call(update, w.copy(), x.copy(), float(yi), time_limit=TIME_LIMIT, exercise="update")
                got_array = np.asarray(got, dtype=float)
                tol = PRECISION["update"] * max(float(np.max(np.abs(w))), float(np.max(np.abs(x))))
                assert got_array.shape == (3,) and all(
                    abs(g - float(e)) <= tol for g, e in zip(got_array.tolist(), W)), (
                    f"update(w, x, y) at pass {sweep + 1}, example {i} of a perceptron run, on "
                    f"w = {w.tolist()}, x = {x.tolist()}, y = {float(yi)}: "
                    f"expected {[float(e) for e in W]}, got {got!r}")
        assert updates >= 3, "the run was meant to make several updates"
    test_update_along_a_run(update)
    '''),
]


# --- train (chapter "perceptron"): T passes in order from w = 0, w + y x when y w·x ≤ 0 ---------

_TRAIN = [
    _cell(r'''
    def test_train_exact_runs(train):
        # Runs worked out by hand (the XOR of +-1 points, where w is back at 0 after every pass;
        # data that keep w moving; a point at the origin; one dimension; 0 passes). Then small
        # integers and multiples of 1/8 with many ties (a tie is a mistake): random labels,
        # labels of a hyperplane through the origin, repeated points and points at the origin,
        # 0 to 8 passes; and 600 points. Oracle: the run in exact rational arithmetic (which
        # agrees with the runs worked out by hand).
        import math
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def exact_run(X, y, epochs):
            rows = [[Fraction(v) for v in xi] for xi in X.tolist()]
            w = [Fraction(0)] * X.shape[1]
            for _ in range(epochs):
                for xi, yi in zip(rows, y.tolist()):
                    if yi * sum(a * b for a, b in zip(w, xi)) <= 0:
                        w = [a + yi * b for a, b in zip(w, xi)]
            return w
        def check_run(X, y, epochs, shown, want):
            R = math.sqrt(float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist())))
            tol = PRECISION["train"] * R * math.sqrt(epochs * len(X))
            X_in, y_in = X.copy(), y.copy()
            got = call(train, X_in, y_in, epochs, time_limit=TIME_LIMIT, exercise="train")
            assert np.array_equal(X_in, X) and np.array_equal(y_in, y), f"{shown} changed X or y in place"
            got_array = np.asarray(got, dtype=float)
            assert got_array.shape == (X.shape[1],) and all(
                abs(g - float(e)) <= tol for g, e in zip(got_array.tolist(), want)), (
                f"{shown}: expected {[float(e) for e in want]}, got {got!r}")
        xor = (np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]), np.array([1.0, 1.0, -1.0, -1.0]))
        moving = (np.array([[-2.0, 0.0], [-1.0, 0.0], [2.0, -1.0], [0.0, -1.0]]), np.array([-1.0, 1.0, -1.0, -1.0]))
        known = [
            # (1,1) tie: w = (1,1); (-1,-1): -2, w = 0; (1,-1) tie: w = (-1,1); (-1,1): -2, w = 0.
            ("XOR, 5 passes", *xor, 5, [0, 0]),
            # pass 1: (-2,0) tie -> (2,0); (-1,0): -2 -> (1,0); (2,-1): -2 -> (-1,1); (0,-1): 1, right
            ("inseparable data, 1 pass", *moving, 1, [-1, 1]),
            # pass 2: (-2,0): -2 -> (1,1); (-1,0): -1 -> (0,1); (2,-1): 1 and (0,-1): 1, right
            ("inseparable data, 2 passes", *moving, 2, [0, 1]),
            ("inseparable data, 3 passes", *moving, 3, [-1, 2]),
            ("inseparable data, 5 passes", *moving, 5, [-1, 3]),
            ("0 passes", *moving, 0, [0, 0]),
            # (0,0) is always a mistake and adds nothing; (3,4) tie: w = (3,4); then 25 > 0.
            ("the origin first and last", np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 0.0]]), np.array([-1.0, 1.0, 1.0]),
             4, [3, 4]),
            # 2 tie -> 2; -1 (label +1): -2 -> 1; 0.5 (label -1): -0.5 -> 0.5
            ("one dimension", np.array([[2.0], [-1.0], [0.5]]), np.array([1.0, 1.0, -1.0]), 1, [0.5]),
            # the same point 4 times with label -1: one update, then right
            ("one point repeated", np.array([[1.0, -2.0]] * 4), -np.ones(4), 3, [-1, 2]),
        ]
        for name, X, y, epochs, by_hand in known:
            want = exact_run(X, y, epochs)
            assert want == [Fraction(v) for v in by_hand], f"the oracle ({want}) disagrees with the run {name!r}"
            check_run(X, y, epochs, f"train(X, y, epochs), {name}: X = {X.tolist()}, y = {y.tolist()}, "
                                    f"epochs = {epochs}", want)
        rng = np.random.default_rng(2357)
        for case in range(40):
            n, d = int(rng.integers(1, 13)), int(rng.integers(1, 5))
            X = rng.integers(-3, 4, size=(n, d)).astype(float)
            if case % 4 == 1:
                X = X / 8.0
            if case % 4 == 2:  # repeated rows and a point at the origin, in random places
                X = np.vstack([X, X[rng.integers(0, n, size=3)], np.zeros((1, d))])[rng.permutation(n + 4)]
            if case % 4 == 3:  # the labels of a hyperplane through the origin (a point on it gets -1)
                y = np.where(X @ rng.integers(-2, 3, size=d) > 0, 1.0, -1.0)
            else:
                y = rng.choice([-1.0, 1.0], size=len(X))
            epochs = int(rng.integers(0, 9))
            check_run(X, y, epochs, f"train(X, y, epochs) on X = {X.tolist()}, y = {y.tolist()}, epochs = {epochs}",
                      exact_run(X, y, epochs))
        X = rng.integers(-2, 3, size=(600, 3)).astype(float)
        y = np.where(X @ np.array([1, -2, 1]) >= 0, 1.0, -1.0)
        y[::97] *= -1
        check_run(X, y, 3, "train(X, y, 3) on 600 points (X = rng.integers(-2, 3, size=(600, 3)) after the "
                           "cases above, rng = np.random.default_rng(2357); labels sign(x1 - 2 x2 + x3), 0 "
                           "counted +1, every 97th flipped)", exact_run(X, y, 3))
    test_train_exact_runs(train)
    '''),
    _cell(r'''
    def test_train_separable_data_converge(train):
        # Integer data labelled by a hyperplane through the origin, in 2 to 6 dimensions. An exact
        # replay (integer arithmetic) finds P, the first pass without a mistake. After P - 1
        # passes or more the answer must be the same w: it separates the data strictly, checked
        # exactly on the returned numbers, and it is the sum of y_i x_i over the replay's mistakes.
        import math
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        rng = np.random.default_rng(4096)
        done = 0
        while done < 12:
            d = int(rng.integers(2, 7))
            w_star = rng.integers(-3, 4, size=d)
            X = rng.integers(-4, 5, size=(int(rng.integers(3, 25)), d))
            X = X[X @ w_star != 0]
            if len(X) < 2:
                continue
            y = np.sign(X @ w_star)
            w, mistakes, P = [0] * d, [], None
            for sweep in range(1, 301):
                clean = True
                for i, (xi, yi) in enumerate(zip(X.tolist(), y.tolist())):
                    if yi * sum(a * b for a, b in zip(w, xi)) <= 0:
                        w = [a + yi * b for a, b in zip(w, xi)]
                        mistakes.append(i)
                        clean = False
                if clean:
                    P = sweep
                    break
            if P is None:
                continue  # a margin too small for 300 passes: draw again
            done += 1
            total = [sum(int(y[i]) * int(X[i, j]) for i in mistakes) for j in range(d)]
            assert total == w, "the replay's weights are the sum of its updates"
            R = math.sqrt(float(max(sum(a * a for a in xi) for xi in X.tolist())))
            for epochs in (P - 1, P, P + int(rng.integers(1, 20))):
                Xf, yf = X.astype(float), y.astype(float)
                got = call(train, Xf.copy(), yf.copy(), epochs, time_limit=TIME_LIMIT, exercise="train")
                got_array = np.asarray(got, dtype=float)
                shown = (f"train(X, y, epochs) on X = {Xf.tolist()}, y = {yf.tolist()}, epochs = {epochs} "
                         f"(the data are separated after {P - 1} passes)")
                assert got_array.shape == (d,), f"{shown}: expected {w}, got {got!r}"
                G = [Fraction(g) for g in got_array.tolist()]
                assert all(yi * sum(a * g for a, g in zip(xi, G)) > 0 for xi, yi in zip(X.tolist(), y.tolist())), (
                    f"{shown}: the answer does not separate the data; expected {[float(v) for v in w]}, got {got!r}")
                tol = PRECISION["train"] * R * math.sqrt(epochs * len(X))
                assert all(abs(g - v) <= tol for g, v in zip(got_array.tolist(), w)), (
                    f"{shown}: expected {[float(v) for v in w]}, got {got!r}")
    test_train_separable_data_converge(train)
    '''),
]


# --- separable (chapter "separability"): some w with y_i w·x_i > 0 for all i, no offset ----------

_SEPARABLE = [
    _cell(r'''
    def test_separable_known_answers(separable):
        # Logic gates, cones and a margin of 1e-6, each with a proof checked here in exact
        # arithmetic: a w with y_i w.x_i > 0 for every i (separable), or a Gordan certificate,
        # weights l_i >= 0, not all 0, with sum_i l_i y_i x_i = 0 (not separable: any w would give
        # w . sum = sum_i l_i y_i w.x_i > 0).
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def proved(X, y, kind, proof):
            Z = [[Fraction(yi) * Fraction(v) for v in xi] for xi, yi in zip(X.tolist(), y.tolist())]
            P = [Fraction(p) for p in proof]
            if kind == "witness":
                return all(sum(z * p for z, p in zip(row, P)) > 0 for row in Z)
            return (all(p >= 0 for p in P) and sum(P) > 0
                    and all(sum(p * row[j] for p, row in zip(P, Z)) == 0 for j in range(len(Z[0]))))
        bits = [(0, 0), (0, 1), (1, 0), (1, 1)]
        signs = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        def gate(points, rule, bias):
            X = np.array([[a, b, 1.0] if bias else [a, b] for a, b in points], dtype=float)
            return X, np.array([1.0 if rule(a, b) else -1.0 for a, b in points])
        cases = []
        for name, rule, kind, proof in [
                ("AND", lambda a, b: a and b, "witness", [2, 2, -3]),
                ("OR", lambda a, b: a or b, "witness", [2, 2, -1]),
                ("NAND", lambda a, b: not (a and b), "witness", [-2, -2, 3]),
                ("NOR", lambda a, b: not (a or b), "witness", [-2, -2, 1]),
                ("x1 and not x2", lambda a, b: a and not b, "witness", [2, -2, -1]),
                ("always true", lambda a, b: True, "witness", [0, 0, 1]),
                ("XOR", lambda a, b: a != b, "certificate", [1, 1, 1, 1]),
                ("XNOR", lambda a, b: a == b, "certificate", [1, 1, 1, 1])]:
            cases.append((f"{name} on {{0,1}}^2 with a constant feature 1", *gate(bits, rule, True), kind, proof))
        for name, rule, kind, proof in [
                ("x1", lambda a, b: a > 0, "witness", [1, 0]),
                ("not x2", lambda a, b: b < 0, "witness", [0, -1]),
                ("AND", lambda a, b: a > 0 and b > 0, "certificate", [0, 1, 1, 0]),
                ("OR", lambda a, b: a > 0 or b > 0, "certificate", [0, 1, 1, 0]),
                ("XOR", lambda a, b: a != b, "certificate", [1, 0, 0, 1])]:
            cases.append((f"{name} on {{-1,1}}^2 through the origin", *gate(signs, rule, False), kind, proof))
        cases.append(("AND on {0,1}^2 through the origin (a point at the origin)",
                      *gate(bits, lambda a, b: a and b, False), "certificate", [1, 0, 0, 0]))
        cases += [
            ("the unit vectors of R^3", np.eye(3), np.ones(3), "witness", [1, 1, 1]),
            ("the unit vectors of R^3 and minus their sum", np.r_[np.eye(3), -np.ones((1, 3))],
             np.ones(4), "certificate", [1, 1, 1, 1]),
            ("the unit vectors of R^5 with labels, and their signed sum with label -1",
             np.r_[np.diag([1.0, -1, 1, 1, -1]), np.ones((1, 5))], np.array([1.0, -1, 1, 1, -1, -1]),
             "certificate", [1, 1, 1, 1, 1, 1]),
            ("one point", np.array([[0.0, -3.0, 2.0]]), np.array([-1.0]), "witness", [0, 1, -1]),
            ("one point at the origin", np.zeros((1, 2)), np.array([1.0]), "certificate", [1]),
            ("a point and its copy, same label", np.array([[1.0, 2.0], [1.0, 2.0]]), np.array([1.0, 1.0]),
             "witness", [1, 0]),
            ("a point and its negative, same label", np.array([[1.0, 2.0], [-1.0, -2.0]]),
             np.array([1.0, 1.0]), "certificate", [1, 1]),
            ("three directions spanning a closed half-plane", np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]),
             np.ones(3), "certificate", [1, 0, 1]),
            ("three directions inside an open half-plane", np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 1.0]]),
             np.ones(3), "witness", [1, 3]),
            ("margin about 1e-6: the perceptron would need about 1e12 passes",
             np.array([[1.0, 0.0], [1.0, -1e-6]]), np.array([1.0, -1.0]), "witness", [1, 2e6]),
            ("margin about 1e-6 and a point closing it", np.array([[1.0, 0.0], [1.0, -1e-6], [0.0, 1.0]]),
             np.array([1.0, -1.0, -1.0]), "certificate", [1, 1, Fraction(1e-6)]),
        ]
        for name, X, y, kind, proof in cases:
            assert proved(X, y, kind, proof), f"the proof of the known answer for {name!r} does not check"
            want = kind == "witness"
            got = call(separable, X.copy(), y.copy(), time_limit=TIME_LIMIT, exercise="separable")
            assert isinstance(got, (bool, np.bool_)) and bool(got) == want, (
                f"separable(X, y), {name}: X = {X.tolist()}, y = {y.tolist()}: expected {want}, got {got!r}")
    test_separable_known_answers(separable)
    '''),
    _cell(r'''
    def test_separable_brute_force_plane(separable):
        # Random small-integer sets in 1 and 2 dimensions. Oracle, exact: in 1 dimension, separable
        # through the origin exactly when every y_i x_i is non-zero and of one sign; in the plane,
        # the separators w form an open cone, empty or else containing some z_i = y_i x_i (when
        # all z_i point one way) or the sum of its two edges, each a rotation of some z_j by 90
        # degrees: so it is non-empty exactly when one of these candidates separates exactly.
        import itertools
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def brute_force(X, y):
            Z = [[Fraction(yi) * Fraction(v) for v in xi] for xi, yi in zip(X.tolist(), y.tolist())]
            if len(Z[0]) == 1:
                return all(z[0] > 0 for z in Z) or all(z[0] < 0 for z in Z)
            turned = [(-z[1], z[0]) for z in Z]
            candidates = [tuple(z) for z in Z] + [
                (s * p[0] + t * q[0], s * p[1] + t * q[1])
                for p, q in itertools.combinations_with_replacement(turned, 2) for s in (1, -1) for t in (1, -1)]
            return any(all(w[0] * z[0] + w[1] * z[1] > 0 for z in Z) for w in candidates)
        rng = np.random.default_rng(2718)
        seen = set()
        for case in range(60):
            n, d = int(rng.integers(1, 8)), 1 if case % 5 == 0 else 2
            X = rng.integers(-3, 4, size=(n, d)).astype(float)
            if case % 3 == 0:  # labels from a random line through the origin, often separable
                u = rng.integers(-3, 4, size=d)
                y = np.where(X @ u >= 0, 1.0, -1.0)
            else:
                y = rng.choice([-1.0, 1.0], size=n)
            want = brute_force(X, y)
            seen.add(want)
            got = call(separable, X.copy(), y.copy(), time_limit=TIME_LIMIT, exercise="separable")
            assert isinstance(got, (bool, np.bool_)) and bool(got) == want, (
                f"separable(X, y) on X = {X.tolist()}, y = {y.tolist()}: expected {want}, got {got!r}")
        assert seen == {True, False}, "the cases were meant to include both answers"
    test_separable_brute_force_plane(separable)
    '''),
    _cell(r'''
    def test_separable_planted(separable):
        # Random integer sets in 3 to 6 dimensions with the answer planted and its proof checked
        # exactly: labels y_i = sign(w*.x_i) of a random integer w* (separable: w* separates),
        # or points z_1..z_k with a last point -(z_1 + ... + z_k), each given a random label and
        # x_i = y_i z_i (not separable: l_i = 1 is a Gordan certificate, sum_i l_i y_i x_i = 0).
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        rng = np.random.default_rng(1618)
        for case in range(30):
            d = int(rng.integers(3, 7))
            if case % 2 == 0:
                w_star = rng.integers(-3, 4, size=d)
                while not w_star.any():
                    w_star = rng.integers(-3, 4, size=d)
                X = rng.integers(-4, 5, size=(int(rng.integers(3, 13)), d))
                X = X[X @ w_star != 0].astype(float)
                if len(X) == 0:
                    continue
                y = np.sign(X @ w_star).astype(float)
                want = True
                assert all(Fraction(yi) * sum(Fraction(a) * int(b) for a, b in zip(xi, w_star)) > 0
                           for xi, yi in zip(X.tolist(), y.tolist())), "the planted w* does not separate"
            else:
                Z = rng.integers(-4, 5, size=(int(rng.integers(2, 11)), d))
                Z = np.r_[Z, -Z.sum(axis=0, keepdims=True)]
                y = rng.choice([-1.0, 1.0], size=len(Z))
                X = (y[:, None] * Z).astype(float)
                order = rng.permutation(len(X))
                X, y = X[order], y[order]
                want = False
                assert all(sum(Fraction(yi) * Fraction(xi[j]) for xi, yi in zip(X.tolist(), y.tolist())) == 0
                           for j in range(d)), "the planted certificate does not check"
            got = call(separable, X.copy(), y.copy(), time_limit=TIME_LIMIT, exercise="separable")
            assert isinstance(got, (bool, np.bool_)) and bool(got) == want, (
                f"separable(X, y) on X = {X.tolist()}, y = {y.tolist()}: expected {want}, got {got!r}")
    test_separable_planted(separable)
    '''),
]


# --- is_certificate (chapter "separability"): λ ≥ 0, Σλ = 1, Σ λ_i y_i x_i = 0, all exactly ----

_IS_CERTIFICATE = [
    _cell(r'''
    def test_is_certificate_planted(is_certificate):
        # Random integer data in 1 to 5 dimensions with a certificate planted exactly: weights
        # a_i / 2^m on 1 to 6 points z_i = y_i x_i, the last of them chosen so that
        # sum_i l_i z_i = 0 (its weight a power of 2, so every number is a dyadic float). Each
        # is tried as planted (a certificate), then changed once in a way that no certificate
        # survives: a flipped label, halved weights, a negative weight made up for elsewhere, a
        # coordinate one float further; or weight moved between points. Oracle: the three
        # conditions in fractions of the floats.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def oracle(X, y, lam):
            L = [Fraction(v) for v in lam.tolist()]
            if any(v < 0 for v in L) or sum(L) != 1:
                return False
            rows = [[Fraction(yi) * Fraction(v) for v in xi] for xi, yi in zip(X.tolist(), y.tolist())]
            return all(sum(l * r[j] for l, r in zip(L, rows)) == 0 for j in range(X.shape[1]))
        rng = np.random.default_rng(5151)
        seen = {True: 0, False: 0}
        for case in range(40):
            d, m = int(rng.integers(1, 6)), int(rng.integers(2, 6))
            last = 2 ** int(rng.integers(0, m))
            k = min(int(rng.integers(1, 7)), 2 ** m - last + 1)
            if k == 1:  # all the weight on one point, which must be the origin
                Z, a = np.zeros((1, d)), np.array([2 ** m])
            else:
                cuts = np.sort(rng.choice(np.arange(1, 2 ** m - last), size=k - 2, replace=False))
                a_rest = np.diff(np.r_[0, cuts, 2 ** m - last])
                Z = rng.integers(-4, 5, size=(k - 1, d)).astype(float)
                Z, a = np.r_[Z, [-(a_rest @ Z) / last]], np.r_[a_rest, last]
            extra = int(rng.integers(0, 4))
            Z = np.r_[Z, rng.integers(-4, 5, size=(extra, d)).astype(float)]
            lam = np.r_[a, np.zeros(extra)] / 2.0 ** m
            y = rng.choice([-1.0, 1.0], size=len(Z))
            order = rng.permutation(len(Z))
            X, y, lam = (y[:, None] * Z)[order], y[order], lam[order]
            support = [int(i) for i in np.flatnonzero(lam)]
            assert oracle(X, y, lam), "the planted certificate does not check"
            variants = [(X, y, lam, True)]
            X2, y2, lam2 = X.copy(), y.copy(), lam.copy()
            change = case % 5
            i = int(rng.choice(support))
            if change == 0 and np.any(X[i] != 0):  # a flipped label: z_i changes sign
                y2[i] = -y2[i]
                known = False
            elif change == 1:  # halved weights
                lam2 = lam2 / 2
                known = False
            elif change == 2:  # a copy of z_i with weight -1/2^m, made up for by z_i itself
                sign = float(rng.choice([-1.0, 1.0]))
                X2, y2 = np.r_[X2, [sign * y[i] * X[i]]], np.r_[y2, sign]
                lam2 = np.r_[lam2, -(2.0 ** -m)]
                lam2[i] += 2.0 ** -m
                known = False
            elif change == 3:  # one coordinate of a weighted point one float further
                j = int(rng.integers(0, d))
                X2[i, j] = np.nextafter(X2[i, j], np.inf)
                known = False
            else:  # 1/2^m of weight moved from point i to another point: a certificate only if z equal
                others = [t for t in range(len(lam2)) if t != i]
                if not others:
                    continue
                t = int(rng.choice(others))
                lam2[i] -= 2.0 ** -m
                lam2[t] += 2.0 ** -m
                known = bool(np.array_equal(y[i] * X[i], y[t] * X[t]))
            assert oracle(X2, y2, lam2) == known, "the changed weights were meant to be decided"
            variants.append((X2, y2, lam2, known))
            for Xv, yv, lv, want in variants:
                seen[want] += 1
                got = call(is_certificate, Xv.copy(), yv.copy(), lv.copy(), time_limit=TIME_LIMIT, exercise="is_certificate")
                assert isinstance(got, (bool, np.bool_)) and bool(got) == want, (
                    f"is_certificate(X, y, lam) on X = {Xv.tolist()}, y = {yv.tolist()}, "
                    f"lam = {lv.tolist()}: expected {want}, got {got!r}")
        assert min(seen.values()) > 10, "the cases were meant to include both answers"
    test_is_certificate_planted(is_certificate)
    '''),
    _cell(r'''
    def test_is_certificate_rounding(is_certificate):
        # Weights and points on which float arithmetic misleads: weights that are not dyadic
        # (1/3, 1/5, 0.1, 0.6 and 0.4: not the fractions they are written as), numbers of very
        # different sizes that cancel (1e16 and 1, 2^60 and 1), a product below the smallest
        # float, weights a float away. Each answer is known; the oracle, the three conditions in
        # fractions of the floats as given, agrees with each.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def oracle(X, y, lam):
            L = [Fraction(v) for v in lam.tolist()]
            if any(v < 0 for v in L) or sum(L) != 1:
                return False
            rows = [[Fraction(yi) * Fraction(v) for v in xi] for xi, yi in zip(X.tolist(), y.tolist())]
            return all(sum(l * r[j] for l, r in zip(L, rows)) == 0 for j in range(X.shape[1]))
        A = np.array
        cases = [
            # three points adding up to 0, weights 1/3: the floats add up to 1 - 2^-54, not 1
            ("weights 1/3", A([[2.0, -1.0], [-1.0, 2.0], [-1.0, -1.0]]), A([1.0, 1.0, 1.0]), A([1 / 3] * 3), False),
            # five points adding up to 0, weights 0.2: the floats add up to more than 1
            ("weights 0.2", A([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], [0.0, 0.0]]), A([1.0] * 5),
             A([0.2] * 5), False),
            ("weights 0.1", A([[3.0], [-3.0]] * 5), A([1.0] * 10), A([0.1] * 10), False),
            # 0.6 + 0.4 is exactly 1 in floats, but 0.6 * 2 - 0.4 * 3 is -2^-53, not 0
            ("weights 0.6 and 0.4", A([[2.0], [3.0]]), A([1.0, -1.0]), A([0.6, 0.4]), False),
            ("weights 0.75 and 0.25", A([[1.0, -2.0], [3.0, -6.0]]), A([1.0, -1.0]), A([0.75, 0.25]), True),
            ("dyadic weights", A([[1.0, 0.0], [-1.0, 1.0], [1.0, 2.0], [-1.0, 0.0]]), A([1.0, 1.0, -1.0, 1.0]),
             A([0.5, 0.25, 0.125, 0.125]), True),
            # weights 1 - 2^-53, 2^-54 and 2^-54: exactly 1
            ("extreme dyadic weights", A([[1.0], [-(2.0 ** 53 - 1)], [-(2.0 ** 53 - 1)]]), A([1.0, 1.0, 1.0]),
             A([1 - 2.0 ** -53, 2.0 ** -54, 2.0 ** -54]), True),
            ("a weight one float above 1/4", A([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]),
             A([1.0, 1.0, -1.0, -1.0]), A([0.25, np.nextafter(0.25, 1.0), 0.25, 0.25]), False),
            ("weights summing to 1, a point sum of 2^-53", A([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]),
             A([1.0, 1.0, -1.0, -1.0]), A([0.25 + 2.0 ** -54, 0.25 - 2.0 ** -54, 0.25, 0.25]), False),
            # half of the smallest float is 2^-1075, which no float holds
            ("a product below the smallest float", A([[5e-324], [0.0]]), A([1.0, 1.0]), A([0.5, 0.5]), False),
            ("the smallest floats cancelling", A([[5e-324], [5e-324]]), A([1.0, -1.0]), A([0.5, 0.5]), True),
        ]
        for big in (2.0 ** 53, 1e16, 2.0 ** 60, 1e20, 2.0 ** 100):
            # 4*big + 4 - 4*big - 4 (times 1/4): the float sum in this order is -1, exactly it is 0
            cases.append((f"{big:g} and 1 cancelling", A([[4 * big, 1.0], [4.0, 2.0], [4 * big, 1.0], [4.0, 2.0]]),
                          A([1.0, 1.0, -1.0, -1.0]), A([0.25] * 4), True))
            # big + 0.5 - big: exactly 0.5, but the float sum in this order is 0
            cases.append((f"{big:g} and 1/2 not cancelling", A([[4 * big, 0.0], [1.0, 0.0], [4 * big, 0.0]]),
                          A([1.0, 1.0, -1.0]), A([0.25, 0.5, 0.25]), False))
        for name, X, y, lam, known in cases:
            want = oracle(X, y, lam)
            assert want == known, f"the oracle disagrees with the known answer on {name!r}"
            got = call(is_certificate, X.copy(), y.copy(), lam.copy(), time_limit=TIME_LIMIT, exercise="is_certificate")
            assert isinstance(got, (bool, np.bool_)) and bool(got) == want, (
                f"is_certificate(X, y, lam), {name}: X = {X.tolist()}, y = {y.tolist()}, "
                f"lam = {lam.tolist()}: expected {want}, got {got!r}")
    test_is_certificate_rounding(is_certificate)
    '''),
    _cell(r'''
    def test_is_certificate_edge_cases(is_certificate):
        # Hand-made cases with a known answer: the chapter's certificate for XOR with a constant
        # feature (a quarter each), AND with that feature (separable), a flower with both labels,
        # a single point, a weight -0.0 (which is >= 0), a negative weight, a certificate on two
        # of 60 points, 32 weights 1/32. The oracle, the three conditions in fractions, agrees
        # with each.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def oracle(X, y, lam):
            L = [Fraction(v) for v in lam.tolist()]
            if any(v < 0 for v in L) or sum(L) != 1:
                return False
            rows = [[Fraction(yi) * Fraction(v) for v in xi] for xi, yi in zip(X.tolist(), y.tolist())]
            return all(sum(l * r[j] for l, r in zip(L, rows)) == 0 for j in range(X.shape[1]))
        A = np.array
        gates = A([[0.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
        rng = np.random.default_rng(3030)
        many = rng.integers(-5, 6, size=(60, 3)).astype(float)
        many[17], many[41] = [2.0, -1.0, 3.0], [6.0, -3.0, 9.0]
        labels = rng.choice([-1.0, 1.0], size=60)
        labels[17], labels[41] = 1.0, -1.0  # z_41 = -3 z_17
        def on_two(a, b):
            lam = np.zeros(60)
            lam[17], lam[41] = a, b
            return lam
        square = np.r_[np.eye(16), -np.eye(16)]
        cases = [
            ("XOR with a constant feature, a quarter each", gates, A([-1.0, 1.0, 1.0, -1.0]), A([0.25] * 4), True),
            ("AND with a constant feature (separable)", gates, A([-1.0, -1.0, -1.0, 1.0]), A([0.25] * 4), False),
            ("XOR with a constant feature, weights on one diagonal", gates, A([-1.0, 1.0, 1.0, -1.0]),
             A([0.5, 0.0, 0.0, 0.5]), False),
            ("a flower with both labels", A([[4.5, 1.5], [5.1, 1.8], [4.5, 1.5]]), A([1.0, 1.0, -1.0]),
             A([0.5, 0.0, 0.5]), True),
            ("one point at the origin", A([[0.0, 0.0, 0.0]]), A([-1.0]), A([1.0]), True),
            ("one point at the origin, weight 1/2", A([[0.0, 0.0]]), A([1.0]), A([0.5]), False),
            ("one point off the origin", A([[0.0, 1e-300]]), A([1.0]), A([1.0]), False),
            ("one point, weight -1", A([[0.0]]), A([1.0]), A([-1.0]), False),
            ("a weight -0.0", A([[0.0, 0.0], [3.0, 1.0]]), A([1.0, 1.0]), A([1.0, -0.0]), True),
            ("every weight zero", A([[1.0], [-1.0]]), A([1.0, 1.0]), A([0.0, 0.0]), False),
            ("a point and its double, weights 2 and -1", A([[1.0, 1.0], [2.0, 2.0]]), A([1.0, 1.0]),
             A([2.0, -1.0]), False),
            ("two of 60 points, weights 3/4 and 1/4", many, labels, on_two(0.75, 0.25), True),
            ("two of 60 points, weights 1/2 each", many, labels, on_two(0.5, 0.5), False),
            ("two of 60 points, weights 3/2 and 1/2", many, labels, on_two(1.5, 0.5), False),
            ("32 points, the unit vectors of R^16 and their negatives, weights 1/32", square, np.ones(32),
             np.full(32, 1 / 32), True),
            ("32 points, the same with labels", square * np.r_[np.ones(16), -np.ones(16)][:, None],
             np.r_[np.ones(16), -np.ones(16)], np.full(32, 1 / 32), True),
            ("32 points, weights 1/32 but one point moved", np.r_[square[:-1], [[0.0] * 15 + [-2.0]]],
             np.ones(32), np.full(32, 1 / 32), False),
        ]
        for name, X, y, lam, known in cases:
            want = oracle(X, y, lam)
            assert want == known, f"the oracle disagrees with the known answer on {name!r}"
            got = call(is_certificate, X.copy(), y.copy(), lam.copy(), time_limit=TIME_LIMIT, exercise="is_certificate")
            shown = (f"X = {X.tolist()}, y = {y.tolist()}, lam = {lam.tolist()}" if X.shape[0] <= 8
                     else f"X, y and lam of {X.shape[0]} points")
            assert isinstance(got, (bool, np.bool_)) and bool(got) == want, (
                f"is_certificate(X, y, lam), {name}: {shown}: expected {want}, got {got!r}")
    test_is_certificate_edge_cases(is_certificate)
    '''),
]


# --- margin and radius (chapter "margin") ------------------------------------------------------

_MARGIN = [
    _cell(r'''
    def test_margin_exact_boundaries(margin):
        # Small integers with offsets: points on the hyperplane (margin exactly 0), on the wrong
        # side, and w of every length. Oracle: min_i y_i (w.x_i + b) in exact rational arithmetic,
        # divided by ||w|| = sqrt of the exact sum of squares.
        import math
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def oracle(X, y, w, b):
            m = min(Fraction(yi) * (sum(Fraction(a) * Fraction(c) for a, c in zip(xi, w.tolist())) + Fraction(b))
                    for xi, yi in zip(X.tolist(), y.tolist()))
            norm2 = sum(Fraction(c) ** 2 for c in w.tolist())
            R = math.sqrt(float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist())))
            return math.copysign(math.sqrt(float(m * m / norm2)), m), R + abs(b) / math.sqrt(float(norm2))
        rng = np.random.default_rng(6021)
        zeros = 0
        for case in range(40):
            n, d = int(rng.integers(1, 10)), int(rng.integers(1, 5))
            X = rng.integers(-3, 4, size=(n, d)).astype(float)
            w = rng.integers(-3, 4, size=d).astype(float)
            if not w.any():
                w[0] = 2.0
            b = float(rng.integers(-2, 3))
            if case % 2:  # random labels: often a negative margin
                y = rng.choice([-1.0, 1.0], size=n)
            else:  # labels from the hyperplane itself: margin 0 when a point is on it
                y = np.where(X @ w + b >= 0, 1.0, -1.0)
            want, scale = oracle(X, y, w, b)
            zeros += want == 0
            got = call(margin, X.copy(), y.copy(), w.copy(), b, time_limit=TIME_LIMIT, exercise="margin")
            shown = f"margin(X, y, w, b) on X = {X.tolist()}, y = {y.tolist()}, w = {w.tolist()}, b = {b}"
            assert isinstance(got, numbers.Real) or np.ndim(got) == 0, f"{shown}: expected a number, got {got!r}"
            assert not isinstance(got, (bool, np.bool_)), f"{shown}: expected a number, got {got!r}"
            assert abs(float(got) - want) <= PRECISION["margin"] * scale, f"{shown}: expected {want!r}, got {got!r}"
        assert zeros > 0, "the cases were meant to include a point on the hyperplane"
    test_margin_exact_boundaries(margin)
    '''),
    _cell(r'''
    def test_margin_random(margin):
        # Gaussian data of up to 50 points in up to 8 dimensions, w of lengths 1e-3 to 1e3 (the
        # margin does not depend on it) and offsets. Oracle: as for the integer cases, exact.
        import math
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def oracle(X, y, w, b):
            m = min(Fraction(yi) * (sum(Fraction(a) * Fraction(c) for a, c in zip(xi, w.tolist())) + Fraction(b))
                    for xi, yi in zip(X.tolist(), y.tolist()))
            norm2 = sum(Fraction(c) ** 2 for c in w.tolist())
            R = math.sqrt(float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist())))
            return math.copysign(math.sqrt(float(m * m / norm2)), m), R + abs(b) / math.sqrt(float(norm2))
        rng = np.random.default_rng(1123)
        for case in range(30):
            n, d = int(rng.integers(1, 51)), int(rng.integers(1, 9))
            X = rng.normal(size=(n, d)) * 2
            y = rng.choice([-1.0, 1.0], size=n)
            direction = rng.normal(size=d)
            b = float(rng.normal()) * 2
            for length in (1e-3, 1.0, 1e3):
                w = direction * length
                want, scale = oracle(X, y, w, b * length)
                got = call(margin, X.copy(), y.copy(), w.copy(), b * length, time_limit=TIME_LIMIT, exercise="margin")
                ok = not isinstance(got, (bool, np.bool_)) and abs(float(got) - want) <= PRECISION["margin"] * scale
                assert ok, (
                    f"margin(X, y, w, b) on X = {X.tolist()}, y = {y.tolist()}, w = {w.tolist()}, "
                    f"b = {b * length!r}: expected {want!r}, got {got!r}")
    test_margin_random(margin)
    '''),
    _cell(r'''
    def test_margin_edge_cases(margin):
        # Hand-made cases whose margin is known in closed form; the exact oracle agrees with each.
        import math
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def oracle(X, y, w, b):
            m = min(Fraction(yi) * (sum(Fraction(a) * Fraction(c) for a, c in zip(xi, w.tolist())) + Fraction(b))
                    for xi, yi in zip(X.tolist(), y.tolist()))
            norm2 = sum(Fraction(c) ** 2 for c in w.tolist())
            R = math.sqrt(float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist())))
            return math.copysign(math.sqrt(float(m * m / norm2)), m), R + abs(b) / math.sqrt(float(norm2))
        cases = [
            ("one point", np.array([[3.0, 4.0]]), np.array([1.0]), np.array([3.0, 4.0]), 0.0, 5.0),
            ("every point on the wrong side", np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([-1.0, -1.0]),
             np.array([4.0, 0.0]), 0.0, -2.0),
            ("only the origin, with an offset", np.zeros((1, 2)), np.array([-1.0]), np.array([0.0, -5.0]),
             2.5, -0.5),
            ("one dimension, negative w", np.array([[-3.0], [1.0], [-0.5]]), np.array([1.0, -1.0, 1.0]),
             np.array([-2.0]), 0.0, 0.5),
            ("Pythagorean w and an offset", np.array([[1.0, 1.0], [-1.0, 2.0]]), np.array([1.0, -1.0]),
             np.array([6.0, 8.0]), -4.0, -0.6),
            ("large offset", np.array([[0.0, 1.0], [0.0, -1.0]]), np.array([1.0, 1.0]), np.array([0.0, 1e-3]),
             1.0, 999.0),
        ]
        for name, X, y, w, b, known in cases:
            want, scale = oracle(X, y, w, b)
            assert abs(want - known) <= 1e-12 * scale, f"the oracle disagrees with the known margin on {name!r}"
            got = call(margin, X.copy(), y.copy(), w.copy(), b, time_limit=TIME_LIMIT, exercise="margin")
            assert not isinstance(got, (bool, np.bool_)) and abs(float(got) - want) <= PRECISION["margin"] * scale, (
                f"margin(X, y, w, b), {name}: X = {X.tolist()}, y = {y.tolist()}, w = {w.tolist()}, b = {b}: "
                f"expected {want!r}, got {got!r}")
    test_margin_edge_cases(margin)
    '''),
]

_RADIUS = [
    _cell(r'''
    def test_radius_known_values(radius):
        # Pythagorean rows, whose radius is an integer, and other hand-made cases. Oracle: the
        # square root of the largest squared norm, summed exactly in fractions.
        import math
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def oracle(X):
            return math.sqrt(float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist())))
        cases = [
            ("a 5-12-13 triangle among shorter rows", np.array([[3.0, 4.0], [-5.0, 12.0], [12.0, 0.0]]), 13.0),
            ("a 1-2-2 row in three dimensions", np.array([[1.0, -2.0, 2.0], [0.0, 0.0, 2.5]]), 3.0),
            ("largest entry in a shorter row", np.array([[10.0, 0.0, 0.0], [8.0, 8.0, 1.0]]), math.sqrt(129.0)),
            ("the longest row last", np.array([[1.0, 1.0]] * 9 + [[-8.0, -15.0]]), 17.0),
            ("only the origin", np.zeros((3, 4)), 0.0),
            ("one dimension", np.array([[-7.5], [7.0], [0.0]]), 7.5),
            ("tiny numbers", np.array([[3e-4, 4e-4], [1e-4, 1e-4]]), 5e-4),
            ("large numbers", np.array([[6e5, 8e5], [-9e5, 1e5]]), 1e6),
        ]
        for name, X, known in cases:
            want = oracle(X)
            assert abs(want - known) <= 1e-12 * known, f"the oracle disagrees with the known radius on {name!r}"
            got = call(radius, X.copy(), time_limit=TIME_LIMIT, exercise="radius")
            shown = f"radius(X), {name}: X = {X.tolist()}"
            assert (isinstance(got, numbers.Real) or np.ndim(got) == 0) and not isinstance(got, (bool, np.bool_)), (
                f"{shown}: expected a number, got {got!r}")
            assert abs(float(got) - want) <= PRECISION["radius"] * want, f"{shown}: expected {want!r}, got {got!r}"
    test_radius_known_values(radius)
    '''),
    _cell(r'''
    def test_radius_random(radius):
        # Gaussian data of 1 to 200 points in 1 to 12 dimensions, at scales 1e-3 to 1e3. Oracle:
        # the square root of the largest squared norm, summed exactly in fractions.
        import math
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        rng = np.random.default_rng(577)
        for case in range(30):
            n, d = int(rng.integers(1, 201)), int(rng.integers(1, 13))
            X = rng.normal(size=(n, d)) * 10.0 ** int(rng.integers(-3, 4))
            want = math.sqrt(float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist())))
            got = call(radius, X.copy(), time_limit=TIME_LIMIT, exercise="radius")
            assert not isinstance(got, (bool, np.bool_)) and abs(float(got) - want) <= PRECISION["radius"] * want, (
                f"radius(X) on X = {X.tolist()}: expected {want!r}, got {got!r}")
    test_radius_random(radius)
    '''),
]


# --- mistake_bound (chapter "convergence"): (R/γ)² ---------------------------------------------

_MISTAKE_BOUND = [
    _cell(r'''
    def test_mistake_bound_closed_form(mistake_bound):
        # (R/gamma)^2 at hand-picked points, computed exactly in fractions of the given floats.
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        cases = [(3.0, 1.0, 9.0), (1.0, 0.1, 100.0), (0.0, 0.3, 0.0), (2.5, 2.5, 1.0), (0.5, 2.0, 0.0625),
                 (7.0, 0.25, 784.0), (1e3, 1e-3, 1e12), (1e-3, 1e-3, 1.0), (10.0, 3.0, 100 / 9)]
        for R, gamma, known in cases:
            want = float(Fraction(R) ** 2 / Fraction(gamma) ** 2)
            assert abs(want - known) <= 1e-12 * max(known, 1e-300), f"the oracle disagrees at R = {R}, gamma = {gamma}"
            got = call(mistake_bound, R, gamma, time_limit=TIME_LIMIT, exercise="mistake_bound")
            shown = f"mistake_bound(R, gamma) on R = {R!r}, gamma = {gamma!r}"
            assert (isinstance(got, numbers.Real) or np.ndim(got) == 0) and not isinstance(got, (bool, np.bool_)), (
                f"{shown}: expected a number, got {got!r}")
            assert abs(float(got) - want) <= PRECISION["mistake_bound"] * want, (
                f"{shown}: expected {want!r}, got {got!r}")
    test_mistake_bound_closed_form(mistake_bound)
    '''),
    _cell(r'''
    def test_mistake_bound_random(mistake_bound):
        # R from 1e-3 to 1e3 and gamma from 1e-4 R to R, and gamma above R. Oracle: (R/gamma)^2
        # exactly in fractions of the given floats.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        rng = np.random.default_rng(1729)
        for case in range(40):
            R = float(10.0 ** rng.uniform(-3, 3))
            gamma = float(R * 10.0 ** rng.uniform(-4, 0 if case % 4 else 1))
            want = float(Fraction(R) ** 2 / Fraction(gamma) ** 2)
            got = call(mistake_bound, R, gamma, time_limit=TIME_LIMIT, exercise="mistake_bound")
            ok = not isinstance(got, (bool, np.bool_)) and abs(float(got) - want) <= PRECISION["mistake_bound"] * want
            assert ok, (
                f"mistake_bound(R, gamma) on R = {R!r}, gamma = {gamma!r}: expected {want!r}, got {got!r}")
    test_mistake_bound_random(mistake_bound)
    '''),
]


# --- proof_quantities (chapter "convergence"): w_k·u/‖u‖ and ‖w_k‖² after each mistake --------

_PROOF_QUANTITIES = [
    _cell(r'''
    def test_proof_quantities_exact_replay(proof_quantities):
        # Random small-integer and dyadic data (multiples of 1/2 and 1/4) in 1 to 5 dimensions,
        # labelled by a planted integer w* so that they are separable through the origin, with
        # ties y w.x = 0 in the middle of the runs; u the planted w*, a Gaussian direction that
        # need not separate, or an integer vector, none of unit length. Then runs the chapter
        # works out: orthonormal points x_i = c y_i e_(p(i)), in any order and of any length c,
        # with u = (1, ..., 1), where every point is a tie when first visited and both lemmas
        # hold with equality, w_k.u = k c/sqrt(n) and ||w_k||^2 = k c^2; the chapter's three
        # points on which the cosine falls; and Balcan's points of {0,1}^n, on which the run
        # makes F(n+1)F(n+2) - 1 mistakes and ends at the Fibonacci separator v, so that with
        # u = v its last row is (sqrt(M), M). Oracle: the run replayed in exact rational
        # arithmetic (||w_k||^2 exactly, w_k.u exactly and then divided by ||u||), which agrees
        # with the chapter's closed forms.
        import math
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def replay(X, y, u):
            points = [[Fraction(v) for v in xi] for xi in X.tolist()]
            labels = [Fraction(v) for v in y.tolist()]
            U = [Fraction(v) for v in u.tolist()]
            norm_u = math.sqrt(float(sum(v * v for v in U)))
            w, rows, ties, clean = [Fraction(0)] * len(U), [], 0, False
            while not clean:
                clean = True
                for xi, yi in zip(points, labels):
                    score = yi * sum(a * b for a, b in zip(w, xi))
                    if score <= 0:
                        ties += score == 0 and any(w)
                        w = [a + yi * b for a, b in zip(w, xi)]
                        rows.append((float(sum(a * b for a, b in zip(w, U))) / norm_u,
                                     float(sum(a * a for a in w))))
                        clean = False
            return rows, ties
        cases = []
        rng = np.random.default_rng(5150)
        for case in range(24):
            d, n = int(rng.integers(1, 6)), int(rng.integers(1, 16))
            denominator = [1, 1, 2, 4][case % 4]
            w_star = np.zeros(d)
            while not w_star.any():
                w_star = rng.integers(-3, 4, size=d).astype(float)
            X = np.zeros((0, d))
            while len(X) == 0:
                X = rng.integers(-3 * denominator, 3 * denominator + 1, size=(n, d)) / denominator
                X = X[X @ w_star != 0]
            u = [w_star, rng.normal(size=d), rng.integers(1, 4, size=d) * rng.choice([-1.0, 1.0], size=d)][case % 3]
            cases.append(("", X, np.sign(X @ w_star), u, None))
        for n, c in [(1, 1.0), (2, 0.5), (4, 3.0), (7, 1.0)]:
            y = rng.choice([-1.0, 1.0], size=n)
            X = np.zeros((n, n))
            X[np.arange(n), rng.permutation(n)] = c * y
            known = [(k * c / math.sqrt(n), k * c * c) for k in range(1, n + 1)]
            cases.append((f"{n} orthonormal points of length {c}: ", X, y, np.ones(n), known))
        cases.append(("the chapter's three points: ", np.array([[0.1, 2.0], [0.1, -2.5], [0.1, 3.0]]), np.ones(3),
                      np.array([2.0, 0.0]), [(0.1, 4.01), (0.2, 0.29), (0.3, 6.34), (0.4, 0.16)]))
        fib = [0, 1, 1, 2, 3, 5, 8, 13, 21]
        for n in (4, 5, 6):
            X = np.zeros((n, n))
            for i in range(1, n + 1):
                X[i - 1, [i - 1] + [j - 1 for j in range(i - 1, 0, -2)]] = 1.0  # e_i + e_(i-1) + e_(i-3) + ...
            y = np.array([(-1.0) ** i for i in range(1, n + 1)])
            v = np.array([(-1.0) ** j * fib[j + 1] for j in range(1, n + 1)])
            M = fib[n + 1] * fib[n + 2] - 1
            cases.append((f"Balcan's {n} points of {{0,1}}^{n}: ", X, y, v, [None] * (M - 1) + [(math.sqrt(M), M)]))
        ties_seen = 0
        for name, X, y, u, known in cases:
            want, ties = replay(X, y, u)
            ties_seen += ties
            M = len(want)
            assert known is None or (M == len(known) and all(
                abs(a - b) <= 1e-12 * max(1.0, abs(b)) for row, k in zip(want, known) if k for a, b in zip(row, k))), (
                f"the oracle disagrees with the chapter on {name!r}")
            R = math.sqrt(float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist())))
            tol = PRECISION["proof_quantities"] * max(M * R * R, math.sqrt(M) * R)
            got = call(proof_quantities, X.copy(), y.copy(), u.copy(), time_limit=TIME_LIMIT, exercise="proof_quantities")
            shown = f"proof_quantities(X, y, u), {name}X = {X.tolist()}, y = {y.tolist()}, u = {u.tolist()}"
            try:
                A = np.asarray(got, dtype=float)
            except (TypeError, ValueError):
                A = None
            assert A is not None and A.shape == (M, 2), (
                f"{shown}: expected an array of shape {(M, 2)}, {want if M <= 30 else '...'}, got {got!r}")
            bad = [k for k in range(M) if not (abs(A[k, 0] - want[k][0]) <= tol and abs(A[k, 1] - want[k][1]) <= tol)]
            assert not bad, (f"{shown}: expected row {bad[0]} (after mistake {bad[0] + 1}) to be "
                             f"{list(want[bad[0]])}, got {A[bad[0]].tolist()}")
        assert ties_seen > 0, "the cases were meant to include ties after the first update"
    test_proof_quantities_exact_replay(proof_quantities)
    '''),
    _cell(r'''
    def test_proof_quantities_lemmas(proof_quantities):
        # Gaussian data in 2 to 6 dimensions, labelled by a planted unit vector and kept at margin
        # at least gamma from it, u that vector times a random length; runs with a score within
        # 1e-5 ||w|| ||x|| of a tie are skipped, so that any float computation makes the same
        # decisions. Checked on the function's own numbers, up to the stated precision: the
        # progress lemma (the first entry grows by at least gamma_u, the margin of u, at every
        # mistake), the growth lemma (the second grows by at most R^2), Cauchy-Schwarz
        # (w_k.u <= ||w_k|| for a unit u) and the theorem (M <= (R/gamma_u)^2); and every entry
        # against the run replayed in exact rational arithmetic.
        import math
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def replay(X, y, u):
            points = [[Fraction(v) for v in xi] for xi in X.tolist()]
            labels = [Fraction(v) for v in y.tolist()]
            U = [Fraction(v) for v in u.tolist()]
            norm_u = math.sqrt(float(sum(v * v for v in U)))
            w, rows, clean = [Fraction(0)] * len(U), [], False
            while not clean:
                clean = True
                for xi, yi in zip(points, labels):
                    score = yi * sum(a * b for a, b in zip(w, xi))
                    size = math.sqrt(float(sum(a * a for a in w)) * float(sum(b * b for b in xi)))
                    if score != 0 and abs(float(score)) < 1e-5 * size:
                        return None  # a near tie
                    if score <= 0:
                        w = [a + yi * b for a, b in zip(w, xi)]
                        rows.append((float(sum(a * b for a, b in zip(w, U))) / norm_u,
                                     float(sum(a * a for a in w))))
                        clean = False
            return rows
        rng = np.random.default_rng(6174)
        done = 0
        while done < 20:
            d, n = int(rng.integers(2, 7)), int(rng.integers(5, 31))
            direction = rng.normal(size=d)
            direction /= np.linalg.norm(direction)
            X = rng.normal(size=(n, d)) * float(rng.uniform(0.5, 3))
            scores = X @ direction
            gamma0 = float(rng.uniform(0.05, 0.3)) * float(np.max(np.abs(scores)))
            X = X[np.abs(scores) >= gamma0]
            if len(X) == 0:
                continue
            y = np.sign(X @ direction)
            u = direction * 10.0 ** float(rng.uniform(-2, 2))
            want = replay(X, y, u)
            if want is None:
                continue
            done += 1
            M = len(want)
            U = [Fraction(v) for v in u.tolist()]
            norm_u = math.sqrt(float(sum(v * v for v in U)))
            gamma_u = float(min(Fraction(yi) * sum(Fraction(a) * b for a, b in zip(xi, U))
                                for xi, yi in zip(X.tolist(), y.tolist()))) / norm_u
            R2 = float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist()))
            R = math.sqrt(R2)
            assert gamma_u > 0 and M <= R2 / gamma_u ** 2 * (1 + 1e-9), "the oracle's run breaks the theorem"
            tol = PRECISION["proof_quantities"] * max(M * R2, math.sqrt(M) * R)
            got = call(proof_quantities, X.copy(), y.copy(), u.copy(), time_limit=TIME_LIMIT, exercise="proof_quantities")
            shown = (f"proof_quantities(X, y, u) on X = {X.tolist()}, y = {y.tolist()}, u = {u.tolist()} "
                     f"(gamma_u = {gamma_u!r}, R = {R!r})")
            try:
                A = np.asarray(got, dtype=float)
            except (TypeError, ValueError):
                A = None
            assert A is not None and A.shape == (M, 2), (
                f"{shown}: expected an array of shape {(M, 2)} (M = {M} mistakes), {want}, got {got!r}")
            previous = (0.0, 0.0)
            for k in range(M):
                step = (A[k, 0] - previous[0], A[k, 1] - previous[1])
                assert step[0] >= gamma_u - 2 * tol, (
                    f"{shown}: at mistake {k + 1} w_k.u grew by {step[0]!r}, less than gamma_u, which the "
                    f"progress lemma forbids; expected row {k} to be {list(want[k])}, got {A[k].tolist()}")
                assert step[1] <= R2 + 2 * tol, (
                    f"{shown}: at mistake {k + 1} ||w_k||^2 grew by {step[1]!r}, more than R^2 = {R2!r}, which "
                    f"the growth lemma forbids; expected row {k} to be {list(want[k])}, got {A[k].tolist()}")
                assert A[k, 0] <= math.sqrt(max(A[k, 1], 0.0)) + tol, (
                    f"{shown}: row {k} has w_k.u = {A[k, 0]!r} > ||w_k||, impossible for a unit u; "
                    f"expected {list(want[k])}")
                assert abs(A[k, 0] - want[k][0]) <= tol and abs(A[k, 1] - want[k][1]) <= tol, (
                    f"{shown}: expected row {k} to be {list(want[k])}, got {A[k].tolist()}")
                previous = (A[k, 0], A[k, 1])
    test_proof_quantities_lemmas(proof_quantities)
    '''),
]


# --- augment (chapter "offset"): X with a last column of c's -----------------------------------

_AUGMENT = [
    _cell(r'''
    def test_augment_random(augment):
        # Random shapes up to 300 x 10 and constants of either sign, 0 included. Oracle: every
        # row with c appended, written out entry by entry.
        import numpy as np
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        rng = np.random.default_rng(3141)
        for case in range(30):
            n, d = int(rng.integers(1, 301)), int(rng.integers(1, 11))
            X = rng.normal(size=(n, d)) * 10.0 ** int(rng.integers(-2, 3))
            c = [0.0, -1.0, 1.0, float(rng.uniform(-5, 5))][case % 4]
            want = [list(row) + [c] for row in X.tolist()]
            X_in = X.copy()
            got = call(augment, X_in, c, time_limit=TIME_LIMIT, exercise="augment")
            shown = f"augment(X, c) on X of shape {X.shape} = {X.tolist() if X.size <= 40 else '...'}, c = {c!r}"
            assert np.array_equal(X_in, X), f"{shown} changed X in place"
            got_array = np.asarray(got, dtype=float)
            assert got_array.shape == (n, d + 1), f"{shown}: expected shape {(n, d + 1)}, got shape {got_array.shape}"
            tol = PRECISION["augment"] * max(float(np.max(np.abs(X))), abs(c))
            bad = [(i, j) for i in range(n) for j in range(d + 1) if not abs(got_array[i, j] - want[i][j]) <= tol]
            assert not bad, (f"{shown}: expected row {bad[0][0]} to be {want[bad[0][0]]}, got "
                             f"{got_array[bad[0][0]].tolist()}")
    test_augment_random(augment)
    '''),
    _cell(r'''
    def test_augment_edge_cases(augment):
        # One row, one column, integer-valued entries, c = 0 and c far from 1. Oracle: every row
        # with c appended, written out entry by entry.
        import numpy as np
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        cases = [
            (np.array([[2.0, -3.0, 0.5]]), 1.0),
            (np.array([[4.0], [-1.0], [0.0], [2.5]]), -2.0),
            (np.array([[1.0, 2.0], [3.0, 4.0]]), 0.0),
            (np.array([[0.0, 0.0]]), 1e3),
            (np.arange(12.0).reshape(4, 3), 0.25),
            (np.eye(5), 5.0),
        ]
        for X, c in cases:
            n, d = X.shape
            want = [list(row) + [c] for row in X.tolist()]
            got = call(augment, X.copy(), c, time_limit=TIME_LIMIT, exercise="augment")
            shown = f"augment(X, c) on X = {X.tolist()}, c = {c!r}"
            got_array = np.asarray(got, dtype=float)
            assert got_array.shape == (n, d + 1), f"{shown}: expected {want}, got {got!r}"
            tol = PRECISION["augment"] * max(float(np.max(np.abs(X))), abs(c))
            assert all(abs(g - e) <= tol for grow, erow in zip(got_array.tolist(), want) for g, e in zip(grow, erow)), (
                f"{shown}: expected {want}, got {got!r}")
    test_augment_edge_cases(augment)
    '''),
]


# --- offset_bound (chapter "offset"): (R² + c²)(1 + b²/c²)/γ² ---------------------------------

_OFFSET_BOUND = [
    _cell(r'''
    def test_offset_bound_closed_form(offset_bound):
        # Values the chapter works out or that follow from its statements: its two points on the
        # line (11 and 9, u = 1, b = -10, gamma = 1) at c = 1 and at the best c = sqrt(R|b|), where
        # the bound is ((R + |b|)/gamma)^2; b = 0, where it is (R^2 + c^2)/gamma^2; c = R, where it
        # is 2(R^2 + b^2)/gamma^2; R = 0; one label with |b| > R. Then random values: R from 1e-3
        # to 1e3, gamma from 1e-3 R to 2 R, offsets of either sign up to 1.5 R, constants from
        # 1e-3 R to 1e3 R. Oracle: the closed form (R^2 + c^2)(c^2 + b^2)/(c^2 gamma^2), exactly in
        # fractions of the given floats, which agrees with the values worked out.
        import math
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def exact(R, gamma, b, c):
            R, gamma, b, c = (Fraction(v) for v in (R, gamma, b, c))
            return float((R * R + c * c) * (c * c + b * b) / (c * c * gamma * gamma))
        cases = [
            (11.0, 1.0, -10.0, 1.0, 12322.0),            # (121 + 1)(1 + 100)
            (11.0, 1.0, -10.0, math.sqrt(110.0), 441.0),  # the best c: (11 + 10)^2
            (11.0, 1.0, 10.0, math.sqrt(110.0), 441.0),   # the sign of b does not matter
            (1.0, 0.5, 0.0, 1.0, 8.0),                    # b = 0: (1 + 1)/0.25, not (R/gamma)^2 = 4
            (1.0, 0.5, 0.0, 1e-4, 4.00000004),            # b = 0, c -> 0: down towards (R/gamma)^2
            (5.0, 0.5, -3.0, 5.0, 272.0),                 # c = R: 2 (25 + 9)/0.25
            (2.0, 1.0, 1.0, 2.0, 10.0),                   # (4 + 4)(1 + 1/4)
            (2.0, 0.25, 1.5, 1.5, 200.0),                 # c = |b|: (4 + 2.25) * 2 * 16
            (0.0, 1.0, 2.0, 1.0, 5.0),                    # R = 0: c^2 + b^2 over gamma^2
            (1.0, 6.0, 5.0, 1.0, 52.0 / 36.0),            # one label, x = 1, u = 1, b = 5: margin 6
            (1e3, 1.0, 5e2, 1e3, 2.5e6),                  # c = R = 2|b|: 2e6 * 1.25
            (3e-3, 1e-3, 1e-3, 1e-3, 20.0),               # (9 + 1)e-6 * 2 / 1e-6
        ]
        for R, gamma, b, c, known in cases:
            assert abs(exact(R, gamma, b, c) - known) <= 1e-12 * known, f"the oracle disagrees at {(R, gamma, b, c)}"
        rng = np.random.default_rng(2357)
        for case in range(30):
            R = float(10.0 ** rng.uniform(-3, 3))
            c = float(R * 10.0 ** rng.uniform(-3, 3))
            gamma = float(R * 10.0 ** rng.uniform(-3, 0.3))
            cases.append((R, gamma, float(R * rng.uniform(-1.5, 1.5)) if case % 5 else 0.0, c, None))
        for R, gamma, b, c, _ in cases:
            want = exact(R, gamma, b, c)
            got = call(offset_bound, R, gamma, b, c, time_limit=TIME_LIMIT, exercise="offset_bound")
            shown = f"offset_bound(R, gamma, b, c) on R = {R!r}, gamma = {gamma!r}, b = {b!r}, c = {c!r}"
            assert (isinstance(got, numbers.Real) or np.ndim(got) == 0) and not isinstance(got, (bool, np.bool_)), (
                f"{shown}: expected a number, {want!r}, got {got!r}")
            assert abs(float(got) - want) <= PRECISION["offset_bound"] * want, (
                f"{shown}: expected {want!r}, got {got!r}")
    test_offset_bound_closed_form(offset_bound)
    '''),
    _cell(r'''
    def test_offset_bound_lifted_and_best_c(offset_bound):
        # Properties the chapter proves, on the function's own values. (1) It is Block-Novikoff's
        # (R'/gamma')^2 on the augmented points: for data in the plane with radius R, built so that
        # a unit u with offset b has margin exactly gamma (one point of each label at margin
        # gamma, one of them at norm R), R' and gamma' are measured on the points (x_i, c) and the
        # unit vector u' = (u, b/c)/||(u, b/c)|| of the margin lemma, by numpy. (2) For b != 0 it
        # is smallest over c at c = sqrt(R|b|), where it is ((R + |b|)/gamma)^2: compared on a
        # grid of c. (3) For b = 0 it falls as c shrinks, towards (R/gamma)^2 and never below.
        import math
        import numpy as np
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def value(R, gamma, b, c):
            got = call(offset_bound, R, gamma, b, c, time_limit=TIME_LIMIT, exercise="offset_bound")
            assert not isinstance(got, (bool, np.bool_)) and np.ndim(got) == 0, (
                f"offset_bound(R, gamma, b, c) on R = {R!r}, gamma = {gamma!r}, b = {b!r}, c = {c!r}: "
                f"expected a number, got {got!r}")
            return float(got)
        rng = np.random.default_rng(8128)
        for case in range(12):
            R = float(10.0 ** rng.uniform(-1, 1))
            gamma = float(R * rng.uniform(0.05, 0.6))
            b = float((R - gamma) * rng.uniform(0.2, 1.0) * rng.choice([-1.0, 1.0]))
            theta = float(rng.uniform(0, 2 * math.pi))
            u, across = np.array([math.cos(theta), math.sin(theta)]), np.array([-math.sin(theta), math.cos(theta)])
            a = gamma - b                    # u.x + b = gamma on a positive point at norm R
            p = a * u + math.sqrt(R * R - a * a) * across
            q = (-gamma - b) * u + 0.5 * math.sqrt(R * R - (gamma + b) ** 2) * across
            extra = [s * u + t * across for s, t in rng.uniform(-1, 1, size=(6, 2)) * R / 2]
            X = np.array([p, q] + extra)
            y = np.r_[1.0, -1.0, np.sign(X[2:] @ u + b)]
            keep = (y * (X @ u + b) >= gamma * (1 - 1e-12)) & (np.linalg.norm(X, axis=1) <= R * (1 + 1e-12))
            X, y = X[keep], y[keep]
            for c in (1.0, R, float(R * 10.0 ** rng.uniform(-2, 2))):
                lifted = np.hstack([X, np.full((len(X), 1), c)])
                u_lift = np.r_[u, b / c] / np.linalg.norm(np.r_[u, b / c])
                R_lift = float(np.max(np.linalg.norm(lifted, axis=1)))
                gamma_lift = float(np.min(y * (lifted @ u_lift)))
                want = (R_lift / gamma_lift) ** 2
                got = value(R, gamma, b, c)
                assert abs(got - want) <= (PRECISION["offset_bound"] + 1e-9) * want, (
                    f"offset_bound(R, gamma, b, c) on R = {R!r}, gamma = {gamma!r}, b = {b!r}, c = {c!r}: "
                    f"expected (R'/gamma')^2 = {want!r} with R' = {R_lift!r} and gamma' = {gamma_lift!r} "
                    f"measured on the augmented points, got {got!r}")
            best_c = math.sqrt(R * abs(b))
            best = value(R, gamma, b, best_c)
            want = ((R + abs(b)) / gamma) ** 2
            assert abs(best - want) <= (PRECISION["offset_bound"] + 1e-12) * want, (
                f"offset_bound(R, gamma, b, c) on R = {R!r}, gamma = {gamma!r}, b = {b!r} at the best "
                f"c = sqrt(R|b|) = {best_c!r}: expected ((R + |b|)/gamma)^2 = {want!r}, got {best!r}")
            for k in range(-8, 9):
                c = best_c * 2.0 ** (k / 4)
                other = value(R, gamma, b, c)
                assert other >= best * (1 - 2 * PRECISION["offset_bound"]), (
                    f"offset_bound(R, gamma, b, c) on R = {R!r}, gamma = {gamma!r}, b = {b!r}: at c = {c!r} "
                    f"got {other!r}, below its value {best!r} at the best c = sqrt(R|b|) = {best_c!r}; "
                    f"expected {((R * R + c * c) * (1 + b * b / (c * c)) / gamma ** 2)!r}")
            far = value(R, gamma, b, best_c * 4.0)
            assert far > best * (1 + 1e-3), (
                f"offset_bound(R, gamma, b, c) on R = {R!r}, gamma = {gamma!r}, b = {b!r}: expected more at "
                f"c = {best_c * 4.0!r} than at the best c, {best!r}, got {far!r}")
            values = [value(R, gamma, 0.0, R * 2.0 ** -k) for k in range(0, 30, 3)]
            floor = (R / gamma) ** 2
            assert all(later <= earlier * (1 + 2 * PRECISION["offset_bound"]) for earlier, later in zip(values, values[1:])), (
                f"offset_bound(R, gamma, 0.0, c) on R = {R!r}, gamma = {gamma!r}: expected it to fall as c "
                f"halves from R, got {values}")
            assert all(v >= floor * (1 - PRECISION["offset_bound"]) for v in values) and values[-1] <= floor * (1 + 1e-6), (
                f"offset_bound(R, gamma, 0.0, c) on R = {R!r}, gamma = {gamma!r}: expected values down to "
                f"(R/gamma)^2 = {floor!r} and not below, got {values}")
    test_offset_bound_lifted_and_best_c(offset_bound)
    '''),
]


# --- margin_mistake (chapter "margin_perceptron"): w = 0, or y w·x/‖w‖ < τγ ----------------------

_MARGIN_MISTAKE = [
    _cell(r'''
    def test_margin_mistake_exactly_at_target(margin_mistake):
        # Points exactly at the target t = target * gamma (no update: the test is strict), just
        # below it (update) or above, with w along an axis, so that every way of computing the
        # margin in floats is exact (w.x/||w||, or (w/||w||).x); Pythagorean w (length 5 or 13)
        # for points clearly off the target; and w scaled by powers of 2, which changes nothing.
        # Oracle: exact, with s = y w.x in fractions, the verdict "s < t ||w||", that is
        # s < 0 or s^2 < t^2 ||w||^2.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def oracle(w, x, y, gamma, target):
            W = [Fraction(v) for v in w.tolist()]
            norm2 = sum(v * v for v in W)
            if norm2 == 0:
                return True
            s = Fraction(y) * sum(a * Fraction(b) for a, b in zip(W, x.tolist()))
            t = Fraction(target) * Fraction(gamma)
            return s < 0 or s * s < t * t * norm2
        base = [  # w, x, y, gamma, target, expected
            ([-2.0, 0.0], [-0.5, 7.0], 1.0, 1.0, 0.5, False),       # margin 1/2 = 0.5 = t
            ([-2.0, 0.0], [-0.25, 7.0], 1.0, 1.0, 0.5, True),       # margin 0.25 < t
            ([0.0, -8.0], [3.0, -0.75], 1.0, 1.0, 0.75, False),     # margin 6/8 = 0.75 = t
            ([0.0, -8.0], [3.0, -0.6875], 1.0, 1.0, 0.75, True),    # margin 5.5/8 < t
            ([3.0, 4.0], [0.75, -0.375], 1.0, 0.5, 0.5, True),      # margin 0.75/5 = 0.15 < 0.25
            ([3.0, 4.0], [1.0, 0.0], 1.0, 0.5, 0.5, False),         # margin 0.6 > 0.25
            ([-5.0, 12.0], [-1.0, 0.0], -1.0, 0.5, 0.75, True),     # margin -5/13 < 0
            ([-5.0, 12.0], [0.0, -0.8125], -1.0, 1.0, 0.5, False),  # margin 9.75/13 = 0.75 > 0.5
            ([-5.0, 12.0], [0.0, -0.75], -1.0, 1.0, 0.75, True),    # margin 9/13 < 0.75
            ([0.0, 0.0, 2.0], [5.0, 5.0, 0.25], 1.0, 0.5, 0.25, False),  # margin 0.25 > 0.125
            ([0.0, 0.0, 2.0], [5.0, 5.0, 0.125], 1.0, 0.5, 0.25, False), # margin 0.125 = t
            ([0.0, 0.0, 2.0], [5.0, 5.0, 0.0625], 1.0, 0.5, 0.25, True), # margin 0.0625 < t
            ([1.0], [0.0], 1.0, 0.5, 0.5, True),                    # x = 0: margin 0 < t
        ]
        for w, x, y, gamma, target, known in base:
            for scale in (1.0, 2.0 ** -20, 2.0 ** 20, 1024.0):
                w_s, x_a = np.array(w) * scale, np.array(x)
                want = oracle(w_s, x_a, y, gamma, target)
                assert want == known, f"the oracle disagrees with the known verdict at w = {w_s.tolist()}, x = {x}"
                got = call(margin_mistake, w_s.copy(), x_a.copy(), y, gamma, target, time_limit=TIME_LIMIT, exercise="margin_mistake")
                assert isinstance(got, (bool, np.bool_)) and bool(got) == want, (
                    f"margin_mistake(w, x, y, gamma, target) on w = {w_s.tolist()}, x = {x}, y = {y}, "
                    f"gamma = {gamma}, target = {target}: expected {want}, got {got!r}")
    test_margin_mistake_exactly_at_target(margin_mistake)
    '''),
    _cell(r'''
    def test_margin_mistake_random(margin_mistake):
        # Gaussian w and x in up to 10 dimensions, w of lengths 1e-3 to 1e3, drawn away from the
        # boundary. Oracle: exact, s = y w.x in fractions, "s < 0 or s^2 < (target gamma)^2 ||w||^2".
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        rng = np.random.default_rng(7919)
        checked = {True: 0, False: 0}
        while sum(checked.values()) < 60:
            d = int(rng.integers(1, 11))
            w = rng.normal(size=d) * 10.0 ** int(rng.integers(-3, 4))
            x = rng.normal(size=d)
            y = float(rng.choice([-1.0, 1.0]))
            gamma, target = float(rng.uniform(0.01, 1)), float(rng.uniform(0.05, 0.95))
            W = [Fraction(v) for v in w.tolist()]
            s = Fraction(y) * sum(a * Fraction(b) for a, b in zip(W, x.tolist()))
            t, norm2 = Fraction(target) * Fraction(gamma), sum(v * v for v in W)
            gap = float(s * s - t * t * norm2) if s >= 0 else -1.0
            if abs(gap) < 1e-9 * float(t * t * norm2 + s * s):
                continue  # too close to the boundary for a float computation to be sure
            want = s < 0 or s * s < t * t * norm2
            checked[want] += 1
            got = call(margin_mistake, w.copy(), x.copy(), y, gamma, target, time_limit=TIME_LIMIT, exercise="margin_mistake")
            assert isinstance(got, (bool, np.bool_)) and bool(got) == want, (
                f"margin_mistake(w, x, y, gamma, target) on w = {w.tolist()}, x = {x.tolist()}, y = {y}, "
                f"gamma = {gamma!r}, target = {target!r}: expected {want}, got {got!r}")
        assert min(checked.values()) > 0, "the cases were meant to include both verdicts"
    test_margin_mistake_random(margin_mistake)
    '''),
    _cell(r'''
    def test_margin_mistake_zero_weights(margin_mistake):
        # w = 0 (of any dimension, also -0.0): no margin yet, so always an update, whatever the
        # point; a tiny non-zero w is not zero. Oracle: the definition, exactly.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        cases = [
            (np.zeros(1), np.array([5.0]), 1.0, 0.5, 0.5, True),
            (np.zeros(4), np.array([1.0, 2.0, 3.0, 4.0]), -1.0, 0.1, 0.9, True),
            (np.array([-0.0, 0.0]), np.array([0.0, 0.0]), 1.0, 1.0, 0.5, True),
            (np.zeros(3), np.array([-2.0, 0.0, 1.0]), -1.0, 2.0, 0.25, True),
            (np.array([2.0 ** -400, 0.0]), np.array([1.0, 0.0]), 1.0, 0.5, 0.5, False),  # margin 1
            (np.array([0.0, -(2.0 ** -400)]), np.array([0.0, 1.0]), 1.0, 0.5, 0.5, True),  # margin -1
        ]
        for w, x, y, gamma, target, known in cases:
            W = [Fraction(v) for v in w.tolist()]
            norm2 = sum(v * v for v in W)
            s = Fraction(y) * sum(a * Fraction(b) for a, b in zip(W, x.tolist()))
            t = Fraction(target) * Fraction(gamma)
            want = norm2 == 0 or s < 0 or s * s < t * t * norm2
            assert want == known, f"the oracle disagrees with the known verdict at w = {w.tolist()}"
            got = call(margin_mistake, w.copy(), x.copy(), y, gamma, target, time_limit=TIME_LIMIT, exercise="margin_mistake")
            assert isinstance(got, (bool, np.bool_)) and bool(got) == want, (
                f"margin_mistake(w, x, y, gamma, target) on w = {w.tolist()}, x = {x.tolist()}, y = {y}, "
                f"gamma = {gamma}, target = {target}: expected {want}, got {got!r}")
    test_margin_mistake_zero_weights(margin_mistake)
    '''),
]


# --- margin_run (chapter "margin_perceptron"): w₁ = y₁x₁, then sweeps with margin updates ---------

_MARGIN_RUN = [
    _cell(r'''
    def test_margin_run_exact_replay(margin_run):
        # Oracle: the run replayed in exact arithmetic, w a sum of fractions and each test
        # "y w.x < 0 or (y w.x)^2 < t^2 ||w||^2", t = target * gamma (no square root). First,
        # runs on multiples of 1/4 in which, after updates, a point's normalized margin is exactly
        # t = 1/4 (no update there: the test is strict), each time at a w along an axis, so that
        # every float computation of that margin is exact; with the same runs scaled by powers
        # of 2 (X and gamma together, which changes no decision), and the final w written out.
        # Each carries a vector u whose direction has margin at least gamma, checked exactly (the
        # chapter's hypotheses, so the run stops). Then Gaussian data of 2 to 25 points in 2 to 6
        # dimensions at scales 1e-2 to 1e2, labelled by the side of a random unit vector u,
        # points nearer than 0.2 * scale to its hyperplane left out, gamma below u's margin and
        # targets from 0.2 to 0.9; a case in which a test comes within 1e-6 of going the other
        # way (relative to the largest its sides can be) is drawn again.
        import math
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def replay(X, y, gamma, target):
            Z = [[Fraction(yi) * Fraction(v) for v in xi] for xi, yi in zip(X.tolist(), y.tolist())]
            t = Fraction(target) * Fraction(gamma)
            w, updates, ties, closest = list(Z[0]), 0, 0, math.inf
            while updates <= 60:
                clean = True
                for z in Z:
                    s, n2 = sum(a * b for a, b in zip(z, w)), sum(a * a for a in w)
                    ties += s > 0 and s * s == t * t * n2
                    size = math.sqrt(float(sum(a * a for a in z))) + float(t)
                    closest = min(closest, abs(float(s) / math.sqrt(float(n2)) - float(t)) / size)
                    if s < 0 or s * s < t * t * n2:
                        w, updates, clean = [a + b for a, b in zip(w, z)], updates + 1, False
                if clean:
                    return w, updates, ties, closest
            return None, updates, ties, closest  # a long run: drawn again, to keep the test fast
        def compare(X, y, gamma, target, want, updates):
            got = call(margin_run, X.copy(), y.copy(), gamma, target, time_limit=TIME_LIMIT, exercise="margin_run")
            got_array = np.asarray(got, dtype=float)
            tol = PRECISION["margin_run"] * (updates + 1) * float(np.max(np.abs(X)))
            assert got_array.shape == (X.shape[1],) and all(
                abs(g - float(e)) <= tol for g, e in zip(got_array.tolist(), want)), (
                f"margin_run(X, y, gamma, target) on X = {X.tolist()}, y = {y.tolist()}, gamma = {gamma!r}, "
                f"target = {target!r}: expected {[float(e) for e in want]} ({updates} updates), got {got!r}")
        ties_cases = [  # X, y, u, the final w; gamma = 1/2, target = 1/2
            ([[-2.0, -1.0, -0.25], [-0.75, 1.25, 0.75], [1.75, 1.5, -1.5], [1.75, 1.25, -1.0]],
             [-1.0, 1.0, -1.0, -1.0], [0, 1, 3], [0.0, 0.0, 5.5]),
            ([[-0.5, -0.25], [1.5, -2.0]], [-1.0, -1.0], [3, 4], [0.0, 2.75]),
            ([[-1.0, 0.5], [-1.25, 0.25], [0.5, -0.75], [2.0, 1.0]], [1.0, 1.0, -1.0, 1.0], [-2, 9], [0.0, 2.0]),
            ([[2.0, -1.0, 0.5], [1.75, 0.25, -0.5], [1.5, -0.75, -1.5], [0.0, 0.25, 1.75]],
             [-1.0, 1.0, -1.0, 1.0], [5, 25, 4], [0.0, 2.25, 0.0]),
            ([[-1.25, -2.0, -0.75], [2.0, -0.25, 1.75], [0.75, 0.75, 1.0]], [1.0, 1.0, -1.0], [1, -4, 0],
             [0.0, -3.0, 0.0]),
        ]
        for X, y, u, known in ties_cases:
            margins = [Fraction(yi) * sum(Fraction(a) * b for a, b in zip(xi, u)) for xi, yi in zip(X, y)]
            assert all(m > 0 and 4 * m * m >= sum(b * b for b in u) for m in margins), (
                f"u = {u} does not prove margin 1/2 for X = {X}")
            for k in (0, -12, 9):
                X_k, y_k, gamma = np.ldexp(np.array(X), k), np.array(y), float(np.ldexp(0.5, k))
                want, updates, ties, _ = replay(X_k, y_k, gamma, 0.5)
                assert ties > 0 and updates >= 2, f"the run on X = {X} was meant to meet a tie after updates"
                assert want == [Fraction(v) * Fraction(2) ** k for v in known], (
                    f"the oracle disagrees with the known final w for X = {X}")
                compare(X_k, y_k, gamma, 0.5, want, updates)
        rng = np.random.default_rng(2357)
        done = 0
        while done < 12:
            n, d = int(rng.integers(2, 26)), int(rng.integers(2, 7))
            scale = float(10.0 ** rng.uniform(-2, 2))
            u = rng.normal(size=d)
            u /= np.linalg.norm(u)
            X = rng.normal(size=(3 * n, d)) * scale
            X = X[np.abs(X @ u) >= 0.2 * scale][:n]
            if len(X) < 2:
                continue
            y = np.where(X @ u > 0, 1.0, -1.0)
            gamma = float(np.min(np.abs(X @ u))) * float(rng.uniform(0.5, 0.95))
            target = float(rng.uniform(0.2, 0.9))
            want, updates, _, closest = replay(X, y, gamma, target)
            if want is not None and closest >= 1e-6:
                done += 1
                compare(X, y, gamma, target, want, updates)
    test_margin_run_exact_replay(margin_run)
    '''),
    _cell(r'''
    def test_margin_run_reaches_the_target(margin_run):
        # Integer data labelled by an integer vector v, the points with |v.x| < ||v|| left out
        # (so v/||v|| has margin at least 1), and gamma from 0.3 to 1: every sum is an exact
        # integer, in float32 too. Two properties, checked exactly in fractions of the returned
        # floats: (1) the run ends only when every point has normalized margin at least
        # t = target * gamma: y w.x >= 0 and (y w.x)^2 >= t^2 ||w||^2 for every point; (2) w is
        # y_1 x_1 plus y_i x_i once for each update the exactly replayed run makes on example i.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        rng = np.random.default_rng(4099)
        done = 0
        while done < 25:
            n, d = int(rng.integers(2, 16)), int(rng.integers(2, 5))
            v = rng.integers(-3, 4, size=d)
            if not v.any():
                continue
            X = rng.integers(-5, 6, size=(4 * n, d))
            X = X[np.abs(X @ v) ** 2 >= v @ v][:n].astype(float)
            if len(X) < 2:
                continue
            y = np.where(X @ v > 0, 1.0, -1.0)
            gamma, target = float(rng.uniform(0.3, 1.0)), float(rng.uniform(0.3, 0.9))
            Z = [[int(yi) * int(a) for a in xi] for xi, yi in zip(X.tolist(), y.tolist())]
            t2 = (Fraction(target) * Fraction(gamma)) ** 2
            w, counts, near = list(Z[0]), [0] * len(Z), False
            while sum(counts) <= 60:
                clean = True
                for i, z in enumerate(Z):
                    s, n2 = sum(a * b for a, b in zip(z, w)), sum(a * a for a in w)
                    near = near or abs(s * s - t2 * n2) <= Fraction(1, 10**6) * (s * s + t2 * n2)
                    if s < 0 or s * s < t2 * n2:
                        w, clean = [a + b for a, b in zip(w, z)], False
                        counts[i] += 1
                if clean:
                    break
            if not clean or near:
                continue  # a long run, or a test near a tie: drawn again
            done += 1
            got = call(margin_run, X.copy(), y.copy(), gamma, target, time_limit=TIME_LIMIT, exercise="margin_run")
            shown = (f"margin_run(X, y, gamma, target) on X = {X.tolist()}, y = {y.tolist()}, gamma = {gamma!r}, "
                     f"target = {target!r}")
            got_array = np.asarray(got, dtype=float)
            assert got_array.shape == (d,) and np.all(np.isfinite(got_array)), f"{shown}: expected {w}, got {got!r}"
            W = [Fraction(g) for g in got_array.tolist()]
            short = [i for i, z in enumerate(Z) if sum(a * b for a, b in zip(z, W)) < 0
                     or sum(a * b for a, b in zip(z, W)) ** 2 < t2 * sum(a * a for a in W)]
            assert not short, (f"{shown}: the returned w = {got!r} leaves point {short[0]} with a normalized "
                               f"margin below target * gamma; expected {w}")
            tol = PRECISION["margin_run"] * (sum(counts) + 1) * float(np.max(np.abs(X)))
            assert all(abs(g - e) <= tol for g, e in zip(got_array.tolist(), w)), (
                f"{shown}: expected y_1 x_1 plus {counts} times y_i x_i, that is {w}; got {got!r}")
    test_margin_run_reaches_the_target(margin_run)
    '''),
]


# --- hinge_deviation (chapter "nonseparable"): TD_γ = Σ max(0, γ − y_i u·x_i), u = w/‖w‖ ------

_HINGE = [
    _cell(r'''
    def test_hinge_deviation_known_sums(hinge_deviation):
        # Pythagorean w (||w|| = 5), so every margin is exact: points at margin exactly gamma
        # (deviation 0), beyond it (0), inside it, on the hyperplane (gamma) and on the wrong side
        # (more than gamma). Oracle: the sum worked out by hand, and the same sum from exact
        # y_i w.x_i in fractions.
        import math
        import numbers
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def oracle(X, y, w, gamma):
            norm2 = sum(Fraction(c) ** 2 for c in w.tolist())
            total = []
            for xi, yi in zip(X.tolist(), y.tolist()):
                s = Fraction(yi) * sum(Fraction(a) * Fraction(c) for a, c in zip(xi, w.tolist()))
                m = math.copysign(math.sqrt(float(s * s / norm2)), s)
                total.append(max(0.0, gamma - m))
            R = math.sqrt(float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist())))
            return math.fsum(total), len(X) * (gamma + R)
        w = np.array([3.0, 4.0])
        X = np.array([[3.0, 4.0], [6.0, 8.0], [1.0, 0.5], [4.0, -3.0], [-3.0, -4.0], [0.0, 0.0], [1.5, 2.0]])
        cases = [
            # margins 5, 10, 1, 0, -5, 0, 2.5 (all y = +1), gamma = 1: 0 + 0 + 0 + 1 + 6 + 1 + 0 = 8
            ("margins 5, 10, 1, 0, -5, 0 and 2.5, gamma 1", X, np.ones(7), w, 1.0, 8.0),
            # the same with gamma 2.5: 0 + 0 + 1.5 + 2.5 + 7.5 + 2.5 + 0 = 14
            ("the same, gamma 2.5", X, np.ones(7), w, 2.5, 14.0),
            # labels -1 flip every margin: -5, -10, -1, 0, 5, 0, -2.5; gamma 1: 6 + 11 + 2 + 1 + 0 + 1 + 3.5
            ("labels -1, gamma 1", X, -np.ones(7), w, 1.0, 24.5),
            ("w a thousand times longer", X, np.ones(7), w * 1000, 1.0, 8.0),
            ("one point beyond the margin", X[:1], np.ones(1), w, 1.0, 0.0),
            ("one dimension", np.array([[2.0], [-1.0], [0.5]]), np.array([1.0, 1.0, -1.0]), np.array([-0.5]), 0.75,
             (0.75 + 2) + 0 + 0.75 - 0.5),
        ]
        for name, X, y, w_, gamma, known in cases:
            want, size = oracle(X, y, w_, gamma)
            assert abs(want - known) <= 1e-12 * size, f"the oracle disagrees with the known sum on {name!r}"
            got = call(hinge_deviation, X.copy(), y.copy(), w_.copy(), gamma, time_limit=TIME_LIMIT, exercise="hinge_deviation")
            shown = (f"hinge_deviation(X, y, w, gamma), {name}: X = {X.tolist()}, y = {y.tolist()}, "
                     f"w = {w_.tolist()}, gamma = {gamma}")
            assert (isinstance(got, numbers.Real) or np.ndim(got) == 0) and not isinstance(got, (bool, np.bool_)), (
                f"{shown}: expected a number, got {got!r}")
            assert abs(float(got) - want) <= PRECISION["hinge_deviation"] * size, (
                f"{shown}: expected {want!r}, got {got!r}")
    test_hinge_deviation_known_sums(hinge_deviation)
    '''),
    _cell(r'''
    def test_hinge_deviation_random(hinge_deviation):
        # Gaussian data of up to 60 points in up to 6 dimensions, w of lengths 1e-3 to 1e3 and
        # gamma from 0.01 to 3. Oracle: each margin from the exact y_i w.x_i and ||w||^2 in
        # fractions, the deviations max(0, gamma - margin) summed with math.fsum.
        import math
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        rng = np.random.default_rng(1414)
        for case in range(30):
            n, d = int(rng.integers(1, 61)), int(rng.integers(1, 7))
            X = rng.normal(size=(n, d)) * float(rng.uniform(0.2, 3))
            y = rng.choice([-1.0, 1.0], size=n)
            w = rng.normal(size=d) * 10.0 ** int(rng.integers(-3, 4))
            gamma = float(rng.uniform(0.01, 3))
            norm2 = sum(Fraction(c) ** 2 for c in w.tolist())
            terms = []
            for xi, yi in zip(X.tolist(), y.tolist()):
                s = Fraction(yi) * sum(Fraction(a) * Fraction(c) for a, c in zip(xi, w.tolist()))
                terms.append(max(0.0, gamma - math.copysign(math.sqrt(float(s * s / norm2)), s)))
            want = math.fsum(terms)
            size = n * (gamma + math.sqrt(float(max(sum(Fraction(a) ** 2 for a in xi) for xi in X.tolist()))))
            got = call(hinge_deviation, X.copy(), y.copy(), w.copy(), gamma, time_limit=TIME_LIMIT, exercise="hinge_deviation")
            ok = not isinstance(got, (bool, np.bool_)) and abs(float(got) - want) <= PRECISION["hinge_deviation"] * size
            assert ok, (
                f"hinge_deviation(X, y, w, gamma) on X = {X.tolist()}, y = {y.tolist()}, w = {w.tolist()}, "
                f"gamma = {gamma!r}: expected {want!r}, got {got!r}")
    test_hinge_deviation_random(hinge_deviation)
    '''),
]


# --- averaged (chapter "nonseparable"): the mean of the perceptron's weights after every round --

_AVERAGED = [
    _cell(r'''
    def test_averaged_exact_replay(averaged):
        # Integers and multiples of 1/4, up to 30 points in up to 6 dimensions and 8 epochs, with
        # labels at random (rarely separable) or from a random integer vector (separable unless
        # a point lies on its hyperplane), often with ties; then sets of points with their
        # negatives (never separable), with repeated points and the origin, up to 20 epochs.
        # Oracle: the run replayed in exact arithmetic, a tie a mistake, and the mean of the
        # weights after each of the n T rounds.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        rng = np.random.default_rng(65537)
        for case in range(30):
            n, d, T = int(rng.integers(1, 31)), int(rng.integers(1, 7)), int(rng.integers(1, 9))
            X = rng.integers(-4, 5, size=(n, d)) / (4.0 if case % 3 == 2 else 1.0)
            if case % 2:
                y = rng.choice([-1.0, 1.0], size=n)
            else:
                y = np.where(X @ rng.integers(-3, 4, size=d) >= 0, 1.0, -1.0)
            if case >= 22:
                base = rng.integers(-3, 4, size=(int(rng.integers(1, 5)), d)).astype(float)
                X = np.r_[base, -base] if case % 2 else np.r_[base, base[:1], np.zeros((1, d)), base[::-1]]
                X = X[rng.permutation(len(X))]
                n, T = len(X), int(rng.integers(1, 21))
                y = rng.choice([-1.0, 1.0], size=n)
            w, total, mistakes = [Fraction(0)] * d, [Fraction(0)] * d, 0
            for epoch in range(T):
                for xi, yi in zip(X.tolist(), y.astype(int).tolist()):
                    xf = [Fraction(a) for a in xi]
                    if yi * sum(a * b for a, b in zip(w, xf)) <= 0:
                        w, mistakes = [a + yi * b for a, b in zip(w, xf)], mistakes + 1
                    total = [a + b for a, b in zip(total, w)]
            want = [a / (n * T) for a in total]
            got = call(averaged, X.copy(), y.copy(), T, time_limit=TIME_LIMIT, exercise="averaged")
            got_array = np.asarray(got, dtype=float)
            tol = PRECISION["averaged"] * mistakes * float(np.max(np.abs(X)))
            assert got_array.shape == (d,) and all(abs(g - float(e)) <= tol for g, e in zip(got_array.tolist(), want)), (
                f"averaged(X, y, epochs) on X = {X.tolist()}, y = {y.tolist()}, epochs = {T}: "
                f"expected {[float(e) for e in want]}, got {got!r}")
    test_averaged_exact_replay(averaged)
    '''),
    _cell(r'''
    def test_averaged_closed_forms(averaged):
        # Runs whose average has a closed form. One example x, any T: a tie at w = 0, then y x
        # for ever, so y x (and 0 for x = 0: its update adds nothing). A point and its negative
        # with the same label y: w alternates y x, 0, so y x / 2. Points c_j e_j on the axes,
        # labels y_j, in that order, perhaps after the origin: the point at position p (from 1)
        # is a mistake once, at round p (a tie), and w is fixed after the first epoch, so the
        # average's coordinate j is y_j c_j (nT - p + 1)/(nT). And the chapter's dual form on
        # the corners of boxes with XOR labels: if the k-th mistake happens in round r_k on
        # example i_k, the average is the sum over k of (nT - r_k + 1) y_{i_k} x_{i_k}, over nT,
        # the mistakes found by the run on integers (exact). Each closed form is checked against
        # the run replayed in exact arithmetic, the mean of the weights after every round.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import PRECISION, TIME_LIMIT, call
        def replay(X, y, T):
            n, d = X.shape
            w, total, mistakes = [Fraction(0)] * d, [Fraction(0)] * d, 0
            for epoch in range(T):
                for xi, yi in zip(X.tolist(), y.astype(int).tolist()):
                    xf = [Fraction(a) for a in xi]
                    if yi * sum(a * b for a, b in zip(w, xf)) <= 0:
                        w, mistakes = [a + yi * b for a, b in zip(w, xf)], mistakes + 1
                    total = [a + b for a, b in zip(total, w)]
            return [a / (n * T) for a in total], mistakes
        def dual_form(X, y, T):
            n, d = X.shape
            w, r, mistakes = [0] * d, 0, []
            for epoch in range(T):
                for i, (xi, yi) in enumerate(zip(X.astype(int).tolist(), y.astype(int).tolist())):
                    r += 1
                    if yi * sum(a * b for a, b in zip(w, xi)) <= 0:
                        w = [a + yi * b for a, b in zip(w, xi)]
                        mistakes.append((r, i))
            return [sum(Fraction((n * T - r + 1) * int(y[i]) * int(X[i, j]), n * T) for r, i in mistakes)
                    for j in range(d)]
        cases = []
        for T in (1, 2, 7):
            cases.append((f"one example, {T} epochs", np.array([[3.0, -0.5, 2.0]]), np.array([-1.0]), T,
                          [Fraction(-3), Fraction(1, 2), Fraction(-2)]))
            cases.append((f"one example at the origin, {T} epochs", np.zeros((1, 2)), np.array([1.0]), T,
                          [Fraction(0), Fraction(0)]))
            cases.append((f"x and -x, label -1, {T} epochs", np.array([[1.5, -2.0], [-1.5, 2.0]]),
                          np.array([-1.0, -1.0]), T, [Fraction(-3, 4), Fraction(1)]))
            for origin in (False, True):
                c, labels = [2.0, 0.5, 3.0, 1.0], [1.0, -1.0, -1.0, 1.0]
                X = np.diag(c)
                if origin:
                    X, labels = np.r_[np.zeros((1, 4)), X], [1.0] + labels
                n = len(X)
                known = [Fraction(labels[p]) * Fraction(X[p].sum()) * (n * T - p) / (n * T)
                         for p in range(int(origin), n)]
                cases.append((f"points on the axes{', after the origin' if origin else ''}, {T} epochs", X,
                              np.array(labels), T, known))
        rng = np.random.default_rng(104729)
        for case in range(12):
            X = np.array([[a, b] for a in (-1, 2) for b in (-2, 1)], dtype=float) * int(rng.integers(1, 4))
            X = X[rng.permutation(4)]
            y, T = np.sign(X[:, 0] * X[:, 1]), int(rng.integers(1, 21))
            cases.append((f"the corners of a box with XOR labels, {T} epochs", X, y, T, dual_form(X, y, T)))
        for name, X, y, T, known in cases:
            want, mistakes = replay(X, y, T)
            assert want == known, f"the oracle disagrees with the closed form on {name!r}"
            got = call(averaged, X.copy(), y.copy(), T, time_limit=TIME_LIMIT, exercise="averaged")
            got_array = np.asarray(got, dtype=float)
            tol = PRECISION["averaged"] * mistakes * float(np.max(np.abs(X)))
            assert got_array.shape == (X.shape[1],) and all(
                abs(g - float(e)) <= tol for g, e in zip(got_array.tolist(), want)), (
                f"averaged(X, y, epochs), {name}: X = {X.tolist()}, y = {y.tolist()}, epochs = {T}: "
                f"expected {[float(e) for e in want]}, got {got!r}")
    test_averaged_closed_forms(averaged)
    '''),
]


# --- pac_window (chapter "guarantees"): ⌈(1/ε) ln((M + 1)/δ)⌉, M = ⌊(R/γ)²⌋ -------------------

_PAC_WINDOW = [
    _cell(r'''
    def test_pac_window_known_values(pac_window):
        # M = floor((R/gamma)^2) mistakes leave M + 1 hypotheses, each tested on a window of
        # ceil((1/epsilon) ln((M + 1)/delta)) examples. Oracle: M exactly in fractions, the
        # window with decimal logarithms to 60 digits; and values worked out by hand.
        import math
        import numbers
        import numpy as np
        from decimal import ROUND_CEILING, Decimal, localcontext
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def oracle(R, gamma, epsilon, delta):
            M = math.floor(Fraction(R) ** 2 / Fraction(gamma) ** 2)
            with localcontext() as ctx:
                ctx.prec = 60
                value = (Decimal(M + 1) / Decimal(delta)).ln() / Decimal(epsilon)
                return int(value.to_integral_value(rounding=ROUND_CEILING))
        cases = [
            (1.0, 0.5, 0.1, 0.05, 47),      # M = 4: ceil(10 ln 100) = ceil(46.05)
            (1.0, 1.0, 0.1, 0.05, 37),      # R = gamma: M = 1, two hypotheses: ceil(10 ln 40) = ceil(36.89)
            (0.0, 1.0, 0.5, 0.5, 2),        # R = 0: M = 0, one hypothesis: ceil(2 ln 2) = ceil(1.39)
            (0.5, 1.0, 0.25, 0.1, 10),      # R < gamma: M = 0: ceil(4 ln 10) = ceil(9.21)
            (3.0, 1.0, 0.01, 0.01, 691),    # M = 9: ceil(100 ln 1000) = ceil(690.78)
            (1.5, 0.5, 0.2, 0.2, 20),       # M = 9 exactly: ceil(5 ln 50) = ceil(19.56)
            (2.0, 1.5, 0.1, 0.05, 37),      # (4/3)^2 = 1.78: M = 1, as for R = gamma
            (12.5, 0.125, 0.001, 1e-6, 23026),  # M = 10000: ceil(1000 ln(10001/1e-6)) = ceil(23025.95)
            (1.25, 0.5, 0.5, 0.9, 5),       # 2.5^2 = 6.25: M = 6: ceil(2 ln(7/0.9)) = ceil(4.10)
        ]
        for R, gamma, epsilon, delta, known in cases:
            want = oracle(R, gamma, epsilon, delta)
            assert want == known, (
                f"the oracle ({want}) disagrees with the known window ({known}) at {(R, gamma, epsilon, delta)}")
            got = call(pac_window, R, gamma, epsilon, delta, time_limit=TIME_LIMIT, exercise="pac_window")
            shown = (f"pac_window(R, gamma, epsilon, delta) on R = {R}, gamma = {gamma}, "
                     f"epsilon = {epsilon}, delta = {delta}")
            assert isinstance(got, numbers.Integral) and not isinstance(got, (bool, np.bool_)), (
                f"{shown}: expected the int {want}, got {type(got).__name__} {got!r}")
            assert got == want, f"{shown}: expected {want}, got {got!r}"
    test_pac_window_known_values(pac_window)
    '''),
    _cell(r'''
    def test_pac_window_random(pac_window):
        # R/gamma from 1 to 100, epsilon from 0.001 to 0.5 and delta from 1e-9 to 0.5, drawn
        # away from the points where a float computation could round M or the window the other
        # way. Oracle: M = floor((R/gamma)^2) exactly in fractions, the window with decimal
        # logarithms to 60 digits, rounded up.
        import math
        import numbers
        import numpy as np
        from decimal import ROUND_CEILING, Decimal, localcontext
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        rng = np.random.default_rng(6174)
        done = 0
        while done < 40:
            R = float(10.0 ** rng.uniform(-2, 2))
            gamma = float(R / 10.0 ** rng.uniform(0, 2))
            epsilon = float(10.0 ** rng.uniform(-3, math.log10(0.5)))
            delta = float(10.0 ** rng.uniform(-9, math.log10(0.5)))
            B = Fraction(R) ** 2 / Fraction(gamma) ** 2
            M = math.floor(B)
            if B != M and min(B - M, M + 1 - B) < 1e-9 * B:
                continue
            with localcontext() as ctx:
                ctx.prec = 60
                value = (Decimal(M + 1) / Decimal(delta)).ln() / Decimal(epsilon)
                if abs(value - value.to_integral_value()) < Decimal("1e-9") * value:
                    continue
                want = int(value.to_integral_value(rounding=ROUND_CEILING))
            done += 1
            got = call(pac_window, R, gamma, epsilon, delta, time_limit=TIME_LIMIT, exercise="pac_window")
            assert isinstance(got, numbers.Integral) and not isinstance(got, (bool, np.bool_)) and got == want, (
                f"pac_window(R, gamma, epsilon, delta) on R = {R!r}, gamma = {gamma!r}, epsilon = {epsilon!r}, "
                f"delta = {delta!r} (M = {M}): expected {want}, got {got!r}")
    test_pac_window_random(pac_window)
    '''),
]


# --- adversary (chapter "guarantees"): the labels of the lower bound's adversary -------------
#
# The oracle is the theorem's defining property, checked on a fresh learner of the same kind
# (the learners are written in the cells, the perceptron in fractions): replayed on the returned
# labels, the learner errs in every round (a prediction of 0, "no label", is an error), the
# label is +1 where it gives no label, as the chapter's proof says, and u = sum_i y_i e_i/sqrt(n)
# separates the points R e_i with margin R/sqrt(n) (checked exactly, on squares).

_ADVERSARY = [
    _cell(r'''
    def test_adversary_perceptrons(adversary):
        # The perceptron under each tie rule, in exact arithmetic, started at w = 0 (the
        # chapter's game: every score is a tie) and at small integer weights w0 (then round i
        # scores R w0_i, and the labels depend on which point comes when), for n from 1 to 11
        # and R from 1e-3 to 1e3. Oracle: the defining property, replayed on a fresh learner.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        class Perceptron:
            def __init__(self, tie, w0):
                self.tie, self.w = tie, [Fraction(v) for v in w0]
            def predict(self, x):
                s = sum(a * Fraction(b) for a, b in zip(self.w, np.asarray(x, dtype=float).tolist()))
                if s != 0:
                    return 1 if s > 0 else -1
                return {"mistake": 0, "positive": 1, "negative": -1}[self.tie]
            def update(self, x, y):
                if self.predict(x) != y:
                    self.w = [a + Fraction(y) * Fraction(b) for a, b in zip(self.w, np.asarray(x, dtype=float).tolist())]
        rng = np.random.default_rng(2357)
        for case in range(30):
            tie = ("mistake", "positive", "negative")[case % 3]
            n = 1 + case % 11
            R = float(rng.choice([1.0, 0.3, 2.5, 1e-3, 1e3, 7.0]))
            w0 = [0] * n if case % 2 == 0 else rng.integers(-2, 3, size=n).tolist()
            name = f"the perceptron in fractions, tie={tie!r}, starting at w = {w0}"
            def new_learner():
                return Perceptron(tie, w0)
            got = call(adversary, new_learner, n, R, time_limit=TIME_LIMIT, exercise="adversary")
            shown = f"adversary(new_learner, n, R) with new_learner() giving {name}, n = {n}, R = {R!r}"
            try:
                labels = np.asarray(got, dtype=float).tolist()
            except (TypeError, ValueError):
                labels = None
            assert isinstance(labels, list) and len(labels) == n and all(v in (1.0, -1.0) for v in labels), (
                f"{shown}: expected an array of {n} labels, each +1 or -1; got {got!r}")
            learner, Rq = new_learner(), Fraction(R)
            for i, yi in enumerate(labels):
                x = np.zeros(n)
                x[i] = R
                p = learner.predict(x.copy())
                want = 1.0 if p == 0 else -float(p)
                assert p != yi and yi == want, (
                    f"{shown}: expected the label {want:+.0f} in round {i + 1}, where the learner predicts "
                    f"{p} after the labels {labels[:i]} (it must err, and no label gets +1); got the labels {labels}")
                learner.update(x.copy(), yi)
                s = Fraction(yi) * Fraction(yi) * Rq  # sqrt(n) times the margin of u on (R e_i, y_i)
                assert s > 0 and s * s == Rq * Rq, f"{shown}: u does not have margin R/sqrt(n) on round {i + 1}"
    test_adversary_perceptrons(adversary)
    '''),
    _cell(r'''
    def test_adversary_learners_with_memory(adversary):
        # Learners whose predictions depend on the labels they were told, on their order, and on
        # the points themselves: the majority of the labels (ties +1, -1 or no label), the label
        # of two rounds before, 1-nearest neighbour in fractions (the first of equally near points,
        # +1 before any), a fixed threshold on the sum of the coordinates (which sees R), a
        # constant. n from 1 to 12, R from 0.1 to 12. Oracle: the defining property, replayed.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        def point(x):
            return [Fraction(v) for v in np.asarray(x, dtype=float).tolist()]
        class Majority:
            def __init__(self, tie):
                self.tie, self.total = tie, 0
            def predict(self, x):
                return 1 if self.total > 0 else -1 if self.total < 0 else self.tie
            def update(self, x, y):
                self.total += 1 if y > 0 else -1
        class TwoBack:
            def __init__(self):
                self.told = []
            def predict(self, x):
                return self.told[-2] if len(self.told) >= 2 else 1
            def update(self, x, y):
                self.told.append(1 if y > 0 else -1)
        class Nearest:
            def __init__(self):
                self.seen = []
            def predict(self, x):
                if not self.seen:
                    return 1
                q = point(x)
                dist = [sum((a - b) ** 2 for a, b in zip(q, p)) for p, _ in self.seen]
                return self.seen[dist.index(min(dist))][1]
            def update(self, x, y):
                self.seen.append((point(x), 1 if y > 0 else -1))
        class Threshold:
            def __init__(self, c):
                self.c = Fraction(c)
            def predict(self, x):
                s = sum(point(x))
                return 1 if s > self.c else -1 if s < self.c else 0
            def update(self, x, y):
                pass
        class Constant:
            def __init__(self, p):
                self.p = p
            def predict(self, x):
                return self.p
            def update(self, x, y):
                pass
        kinds = [("the majority of the labels, +1 on a tie", lambda: Majority(1)),
                 ("the majority of the labels, -1 on a tie", lambda: Majority(-1)),
                 ("the majority of the labels, no label on a tie", lambda: Majority(0)),
                 ("the label told two rounds before, +1 before", TwoBack),
                 ("1-nearest neighbour", Nearest),
                 ("+1 when the coordinates add up to more than 1, no label at exactly 1", lambda: Threshold(1)),
                 ("always -1", lambda: Constant(-1)),
                 ("always no label", lambda: Constant(0))]
        rng = np.random.default_rng(1729)
        for case in range(40):
            name, new_learner = kinds[case % len(kinds)]
            n = int(rng.integers(1, 13))
            R = float(rng.choice([0.1, 0.5, 1.0, 3.0, 12.0]))
            got = call(adversary, new_learner, n, R, time_limit=TIME_LIMIT, exercise="adversary")
            shown = f"adversary(new_learner, n, R) with new_learner() giving {name}, n = {n}, R = {R!r}"
            try:
                labels = np.asarray(got, dtype=float).tolist()
            except (TypeError, ValueError):
                labels = None
            assert isinstance(labels, list) and len(labels) == n and all(v in (1.0, -1.0) for v in labels), (
                f"{shown}: expected an array of {n} labels, each +1 or -1; got {got!r}")
            learner, Rq = new_learner(), Fraction(R)
            for i, yi in enumerate(labels):
                x = np.zeros(n)
                x[i] = R
                p = learner.predict(x.copy())
                want = 1.0 if p == 0 else -float(p)
                assert p != yi and yi == want, (
                    f"{shown}: expected the label {want:+.0f} in round {i + 1}, where the learner predicts "
                    f"{p} after the labels {labels[:i]} (it must err, and no label gets +1); got the labels {labels}")
                learner.update(x.copy(), yi)
                s = Fraction(yi) * Fraction(yi) * Rq  # sqrt(n) times the margin of u on (R e_i, y_i)
                assert s > 0 and s * s == Rq * Rq, f"{shown}: u does not have margin R/sqrt(n) on round {i + 1}"
    test_adversary_learners_with_memory(adversary)
    '''),
    _cell(r'''
    def test_adversary_plays_by_the_rules(adversary):
        # A learner that writes down every call: the game is played against one learner, which
        # is told (x_i, y_i) for i = 1..n in this order, with x_i = R e_i in R^n exactly and y_i
        # the returned label, and asked to predict x_i before it is told y_i. Its predictions
        # are the majority of the labels told so far (no label on a tie). Oracle: the record,
        # compared with the rules of the game; and the defining property, replayed.
        import numpy as np
        from fractions import Fraction
        from perceptron_core.check import TIME_LIMIT, call
        for n, R in [(1, 1.0), (2, 0.1), (3, 2.0), (5, 1.0), (6, 0.75), (8, 3.5), (9, 1e-3), (12, 40.0)]:
            record, made = [], []
            class Recorder:
                def __init__(self):
                    self.total = 0
                    made.append(self)
                def predict(self, x):
                    record.append((id(self), "predict", np.asarray(x, dtype=float).tolist(), None))
                    return 1 if self.total > 0 else -1 if self.total < 0 else 0
                def update(self, x, y):
                    record.append((id(self), "update", np.asarray(x, dtype=float).tolist(), y))
                    self.total += 1 if y > 0 else -1
            got = call(adversary, Recorder, n, R, time_limit=TIME_LIMIT, exercise="adversary")
            shown = (f"adversary(new_learner, n, R) with n = {n}, R = {R!r} and new_learner() giving a learner "
                     f"that predicts the majority of the labels told so far (no label on a tie)")
            try:
                labels = np.asarray(got, dtype=float).tolist()
            except (TypeError, ValueError):
                labels = None
            assert isinstance(labels, list) and len(labels) == n and all(v in (1.0, -1.0) for v in labels), (
                f"{shown}: expected an array of {n} labels, each +1 or -1; got {got!r}")
            points = [[R if j == i else 0.0 for j in range(n)] for i in range(n)]
            used = {who for who, *_ in record}
            assert len(used) == 1, f"{shown}: expected one learner to play the whole game, but {len(used)} were used"
            updates = [(x, y) for _, kind, x, y in record if kind == "update"]
            told = [(x, float(y)) for x, y in updates]
            assert told == list(zip(points, labels)), (
                f"{shown}: expected the learner to be told (R e_i, y_i) for i = 1..{n} in order, with "
                f"R e_i = {points} and the returned labels {labels}; it was told {told}")
            since_update = []
            for _, kind, x, _ in record:
                if kind == "predict":
                    since_update.append(x)
                else:
                    assert x in since_update, (
                        f"{shown}: expected the learner to predict {x} before it is told that point's label; "
                        f"it was asked about {since_update} since the previous label (record: {record})")
                    since_update = []
            learner, Rq = Recorder(), Fraction(R)  # a fresh one, after the record was read
            for i, yi in enumerate(labels):
                p = learner.predict(np.array(points[i]))
                want = 1.0 if p == 0 else -float(p)
                assert p != yi and yi == want, (
                    f"{shown}: expected the label {want:+.0f} in round {i + 1}, where the learner predicts "
                    f"{p} after the labels {labels[:i]}; got the labels {labels}")
                learner.update(np.array(points[i]), yi)
                s = Fraction(yi) * Fraction(yi) * Rq
                assert s > 0 and s * s == Rq * Rq, f"{shown}: u does not have margin R/sqrt(n) on round {i + 1}"
    test_adversary_plays_by_the_rules(adversary)
    '''),
]


#: Hidden test cells by exercise name (the names of :data:`perceptron_core.check.EXERCISES`).
HIDDEN: dict[str, list[str]] = {
    "mistakes": _MISTAKES,
    "first_mistake": _FIRST_MISTAKE,
    "update": _UPDATE,
    "train": _TRAIN,
    "separable": _SEPARABLE,
    "is_certificate": _IS_CERTIFICATE,
    "margin": _MARGIN,
    "radius": _RADIUS,
    "mistake_bound": _MISTAKE_BOUND,
    "proof_quantities": _PROOF_QUANTITIES,
    "augment": _AUGMENT,
    "offset_bound": _OFFSET_BOUND,
    "margin_mistake": _MARGIN_MISTAKE,
    "margin_run": _MARGIN_RUN,
    "hinge_deviation": _HINGE,
    "averaged": _AVERAGED,
    "pac_window": _PAC_WINDOW,
    "adversary": _ADVERSARY,
}


def names() -> list[str]:
    """The exercises that have hidden tests, in the order of :data:`HIDDEN` (the check order)."""
    return list(HIDDEN)


def function_name(cell: str) -> str:
    """The name of the test function a hidden cell defines (``test_mistakes_exact_ties``)."""
    first = ast.parse(cell).body[0]
    if not isinstance(first, ast.FunctionDef):
        raise ValueError("a hidden test cell starts with the definition of its test function")
    return first.name
