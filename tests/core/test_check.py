"""perceptron_core.check: the book's solutions pass every check, plausible wrong answers fail at
the case that exposes them, and every verdict (stub, exception, wrong type, time out, a package
function named) is a verdict, not a traceback.

The references are held to independent answers twice over: the book's own solutions (written
differently, in ``perceptron_core/exercises/<chapter>.md``) must pass every case, and the
package's runners (``perceptron``, ``margin_perceptron``, ``averaged_perceptron``) must agree
with the references of the runs. A reference with a tie counted as correct, a wrong sign or a
bound off by one fails both.
"""

from __future__ import annotations

import math
import signal
import threading
import time

import numpy as np
import pytest

import exercises  # book/_tools (tests/conftest.py puts it on sys.path)
import perceptron_core as pc
from perceptron_core import check


def _solutions(chapter: str) -> dict:
    """The book's solution cell of the chapter, run: its functions by name."""
    namespace = {"np": np, "check": check}
    exec(exercises.read(chapter).solution, namespace)
    return namespace


SOLUTIONS = {name: fn for chapter in exercises.chapters() for name, fn in _solutions(chapter).items()
             if name in check.EXERCISES}


def _first_index(mask):
    idx = np.flatnonzero(mask)
    return int(idx[0]) if idx.size else None


def _train(X, y, epochs, *, tie=True, sign=1.0, reset=False):
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        w = np.zeros(X.shape[1]) if reset else w
        for x, label in zip(X, y):
            s = label * (w @ x)
            w = w + sign * label * x if s < 0 or (tie and s == 0) else w
    return w


def _adversary(label_of, *, unit=False, tell=True):
    def adversary(new_learner, n, R):
        learner, labels = new_learner(), []
        for i in range(n):
            x = np.zeros(n)
            x[i] = 1.0 if unit else R
            labels.append(label_of(learner.predict(x)))
            learner.update(x, labels[-1]) if tell else None
        return np.array(labels)
    return adversary


def _window(R, g, e, d, extra=1):
    return math.ceil(math.log((math.floor((R / g) ** 2) + extra) / d) / e)


def _close(X, y, lam):  # the slip the exercise warns of: a tolerance instead of exact arithmetic
    return bool(np.all(lam >= 0) and np.isclose(lam.sum(), 1) and np.allclose(lam @ (y[:, None] * X), 0))


#: Plausible wrong answers, and the case each must fail first: among them a tie counted as
#: correct, a wrong sign in an update, and bounds off by one.
WRONG = {
    "mistakes": [(lambda X, y, w: int(np.sum(y * (X @ w) < 0)), "a point on the line"),
                 (lambda X, y, w: int(np.sum(X @ w <= 0)), "all correct")],
    "first_mistake": [(lambda X, y, w: _first_index(y * (X @ w) < 0), "a point on the line first"),
                      (lambda X, y, w: int(np.sum(y * (X @ w) <= 0)), "one wrong"),
                      (lambda X, y, w: _first_index(y[:-1] * (X[:-1] @ w) <= 0), "the last point")],
    "update": [(lambda w, x, y: w + y * x if y * (w @ x) < 0 else w.copy(), "tie: zero score"),
               (lambda w, x, y: w - y * x if y * (w @ x) <= 0 else w.copy(), "mistake on a positive example")],
    "train": [(lambda X, y, e: _train(X, y, e, tie=False), "one point"),
              (lambda X, y, e: _train(X, y, e, sign=-1.0), "one point"),
              (lambda X, y, e: _train(X, y, e + 1), "epochs = 0"),
              (lambda X, y, e: _train(X, y, e, reset=True), "stops after the given epochs")],
    "separable": [(lambda X, y: SOLUTIONS["separable"](np.c_[X, np.ones(len(X))], y),
                   "a point at the origin")],
    "is_certificate": [(_close, "AND through the origin with q = 1/3 in floats")],
    "margin": [(lambda X, y, w, b: float(np.min(y * (X @ w + b))), "w not of unit length"),
               (lambda X, y, w, b: float(np.min(np.abs(X @ w + b)) / np.linalg.norm(w)), "a misclassified point")],
    "radius": [(lambda X: float(np.max(np.abs(X))), "one point")],
    "mistake_bound": [(lambda R, g: R / g, "R = 1 and gamma = 0.5"), (lambda R, g: (R / g) ** 2 + 1, "R = 1 and gamma = 0.5")],
    "proof_quantities": [(lambda X, y, u: SOLUTIONS["proof_quantities"](X, y, u)[:, [0, 0]], "squared length")],
    "augment": [(lambda X, c: np.hstack([np.full((len(X), 1), c), X]), "c = 1")],
    "offset_bound": [(lambda R, g, b, c: (R**2 + c**2) / g**2, "c = 1"),
                     (lambda R, g, b, c: R**2 * (1 + b**2 / c**2) / g**2, "c = 1")],
    "margin_mistake": [(lambda w, x, y, g, t: not np.any(w) or bool(y * (w @ x) / np.linalg.norm(w) <= t * g),
                        "exactly at target")],
    "margin_run": [(lambda X, y, g, t: SOLUTIONS["margin_run"](X, y, g, 1.0), "target, not gamma")],
    "hinge_deviation": [(lambda X, y, w, g: float(np.sum(np.maximum(0, g - y * (X @ w)))), "w not of unit length")],
    # the start w = 0 counted as a round: divided by nT + 1
    "averaged": [(lambda X, y, T: SOLUTIONS["averaged"](X, y, T) * len(X) * T / (len(X) * T + 1),
                  "one example, one epoch"), (lambda X, y, T: _train(X, y, T), "settles in the first epoch")],
    "pac_window": [(lambda R, g, e, d: _window(R, g, e, d, extra=0), "R = gamma"),
                   (lambda R, g, e, d: _window(R, g, e, d) + 1, "R = gamma")],
    "adversary": [(_adversary(lambda p: -p), "always no label"),
                  (_adversary(lambda p: 1 if p <= 0 else -1, tell=False), "majority of the labels so far"),
                  (_adversary(lambda p: 1 if p <= 0 else -1, unit=True), "R = 3 and a learner that sees lengths")],
}


def test_every_exercise_has_a_solution_and_wrong_answers():
    assert list(SOLUTIONS) == list(check.EXERCISES) == list(WRONG)


@pytest.mark.parametrize("name", list(check.EXERCISES))
def test_the_book_s_solution_passes(name, capsys):
    result = getattr(check, name)(SOLUTIONS[name])
    assert result and result.status == "passed", result.message
    assert result.n_cases >= 25 and f"all {result.n_cases} cases passed" in capsys.readouterr().out


@pytest.mark.parametrize("name,k", [(n, k) for n, wrong in WRONG.items() for k in range(len(wrong))])
def test_a_wrong_answer_fails_at_the_case_that_exposes_it(name, k, capsys):
    func, case = WRONG[name][k]
    result = getattr(check, name)(func)
    assert not result and result.status == "failed" and result.case == case, result.message
    out = capsys.readouterr().out
    assert f"case '{case}' failed" in out and "Hint: " in out and "Traceback" not in out


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_run_references_agree_with_the_package_s_runners():
    """The references of the runs against the package's own runners, on the checks' cases."""
    ex = check.EXERCISES
    for case in check.cases("train"):
        X, y, epochs = case.args
        if epochs:
            w = pc.perceptron(X, y, max_epochs=epochs, offset=False).w
            assert np.array_equal(ex["train"].reference(*case.args), w), case.name
    for case in check.cases("margin_run"):
        X, y, gamma, target = case.args
        w = pc.margin_perceptron(X, y, gamma, target=target).w
        assert np.allclose(ex["margin_run"].reference(*case.args), w, atol=1e-12), case.name
    for case in check.cases("averaged"):
        X, y, epochs = case.args
        w = pc.averaged_perceptron(X, y, epochs=epochs).w
        assert np.allclose(ex["averaged"].reference(*case.args), w, atol=1e-12), case.name


@pytest.mark.parametrize("name", ["margin", "train", "averaged", "hinge_deviation", "proof_quantities"])
def test_an_answer_in_float32_passes_and_one_off_by_more_than_the_precision_fails(name):
    solution, ex = SOLUTIONS[name], check.EXERCISES[name]

    def in_float32(*args):
        return np.asarray(solution(*(a.astype(np.float32) if isinstance(a, np.ndarray) else a for a in args)))

    assert check.run(name, in_float32, quiet=True)

    def off(*args):  # the reference moved by twice the case's tolerance
        return ex.reference(*args) + 2 * check.PRECISION * ex.scale(*args)

    result = check.run(name, off, quiet=True)
    assert not result and result.tolerance is not None and "Compared to a relative 1e-06" in result.message


def test_the_stub_says_not_implemented(capsys):
    namespace = {}
    exec(exercises.read("margin").stub, namespace)
    out = capsys.readouterr().out
    assert out.count("not implemented yet") == 2 and "Traceback" not in out
    assert check.margin(namespace["margin"], quiet=True).status == "not implemented"


@pytest.mark.parametrize("func,why", [
    (lambda X, y, w, b: 1 / 0, "raised an exception"),
    (lambda X, y, w, b: "2.0", "returned str where a number ("),
    (lambda X, y, w, b: True, "returned bool where a number ("),
    (lambda X, y, w, b: np.array([2.0, 1.0]), "returned ndarray where a number ("),
])
def test_exceptions_and_wrong_types_are_failing_cases(func, why):
    result = check.margin(func, quiet=True)
    assert not result and why in result.message and result.case == "unit w and no offset"


def _hidden_verdict(name: str, func) -> bool:
    """Whether ``func`` passes every hidden test of the assignment (the ``.md``'s, run as otter
    runs them: the student's function given by its name)."""
    namespace: dict = {}
    exec(exercises.read(check.EXERCISES[name].chapter).hidden, namespace)
    tests = [f for f in namespace.values() if callable(f) and getattr(f, "__code__", None)
             and f.__code__.co_varnames[:f.__code__.co_argcount] == (name,)]
    assert tests, name
    try:
        for test in tests:
            test(func)
    except AssertionError:
        return False
    return True


@pytest.mark.parametrize("name", list(check.EXERCISES))
def test_one_type_rule_in_the_check_the_hidden_tests_and_the_text(name):
    """The book's answer handed in as a list, as float32 and as a string: the public check and
    the hidden tests give the same verdict, the one ``check.TYPES`` states (float32 passes where
    a float or an array is asked, a list never), the failing verdict names the rule, and the
    exercise's text states it."""
    solution, kind = SOLUTIONS[name], check.EXERCISES[name].kind

    def float32(*args):
        answer = np.asarray(solution(*args), dtype=np.float32)
        return answer[()] if answer.ndim == 0 else answer

    for func, passes in ((lambda *a: np.atleast_1d(solution(*a)).tolist(), False),
                         (float32, kind in ("float", "array", "labels")),
                         (lambda *a: str(solution(*a)), False)):
        public = check.run(name, func, quiet=True)
        assert bool(public) == _hidden_verdict(name, func) == passes, (name, public.message)
        if not passes and kind != "index":  # float32 nan for None is a wrong value, not type
            assert check.TYPES[kind] + " was expected" in public.message, public.message
    text = exercises.cells(exercises.read(check.EXERCISES[name].chapter))[0]["source"]
    assert check.TYPES[kind] in "".join(text).replace("\n", " ")


def test_shapes_bools_and_ints_are_compared_exactly():
    assert "returned shape (2,) where shape (2, 3) was expected" in check.augment(lambda X, c: X[0], quiet=True).message
    assert "where True or False (a NumPy bool too) was expected" in check.separable(lambda X, y: 1, quiet=True).message
    assert "where an integer (a Python or NumPy int) was expected" in check.mistakes(lambda X, y, w: 1.0, quiet=True).message
    result = check.first_mistake(lambda X, y, w: _first_index(y * (X @ w) <= 0) or 0, quiet=True)
    assert "returned int where None was expected" in result.message and result.case == "all correct"


def test_a_function_that_changes_its_argument_fails():
    def update(w, x, y):
        w += y * x
        return w

    assert "changed an argument in place" in check.update(update, quiet=True).message


def test_the_verdict_is_pasteable_and_never_shows_the_reference():
    result = check.first_mistake(lambda X, y, w: 0, quiet=True)
    block = result.message.split("inputs:\n")[1].split("\n    expected")[0]
    namespace = {"np": np}
    exec("\n".join(line.strip() for line in block.replace("\n       ", " ").splitlines()), namespace)
    assert all(np.array_equal(namespace[k], v) for k, v in result.inputs.items())
    assert "expected: 2" in result.message and "received: 0" in result.message
    assert "def " not in result.message and "flatnonzero" not in result.message


def test_a_learner_factory_says_how_to_get_it():
    result = check.adversary(lambda new_learner, n, R: [1] * n, quiet=True)
    assert "always predicts +1" in result.message and "check.case_inputs('adversary', 'always +1')" in result.message
    assert check.case_inputs("adversary", "always +1")["new_learner"]().predict(np.ones(3)) == 1
    with pytest.raises(KeyError, match="no case"):
        check.case_inputs("adversary", "nope")


def _helper(X, c):
    return pc.augment(X, c)


def test_a_function_that_names_the_package_s_answer_fails():
    """The rule reads the names the function's code uses: directly, in a function defined inside
    it, in a helper of its module; the package's function itself fails too. A local variable
    with a forbidden name is not a use."""
    for func in (lambda X, c: pc.augment(X, c), lambda X, c: (lambda: pc.data.augment(X, c))(),
                 lambda X, c: _helper(X, c), pc.augment):
        result = check.augment(func, quiet=True)
        assert not result and result.uses == "perceptron_core.augment", result.message
        assert "expected" not in result.message
        assert ("itself, not yours (was the cell with your augment deleted, or not run?)" if func is pc.augment
                else "which this exercise asks you to write") in result.message, result.message
    assert check.train(lambda X, y, e: pc.perceptron(X, y, max_epochs=e).w, quiet=True).uses == "perceptron_core.perceptron"

    def margin(X, y, w, b):
        margins = y * (X @ w + b) / np.linalg.norm(w)
        return float(margins.min())

    assert check.margin(margin, quiet=True)


def _forever(X, y, epochs):
    while True:
        try:
            pass
        except Exception:  # an endless loop that retries cannot swallow the limit
            pass


def test_an_endless_loop_runs_out_of_time_and_the_timer_is_put_back():
    def mine(*args):
        pass

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        start = time.monotonic()
        result = check.train(_forever, quiet=True, time_limit=0.2)
        assert time.monotonic() - start < 3 and result.timed_out and result.case == "one point"
        assert "did not return within 0.2 s" in result.message and "received: nothing in time" in result.message
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_outside_the_main_thread_a_check_runs_without_a_limit():
    """Documented: no timer can be set there, so the case runs with no limit (a function that
    returns gets its verdict; an endless loop would hang, as any cell would)."""
    found = {}
    worker = threading.Thread(target=lambda: found.update(r=check.radius(SOLUTIONS["radius"], quiet=True,
                                                                       time_limit=0.01)))
    worker.start()
    worker.join(30)
    assert found["r"]


def test_time_limit_arguments_and_the_environment(monkeypatch):
    for bad in (0, -1, math.inf, True):
        with pytest.raises(ValueError, match="time_limit"):
            check.radius(SOLUTIONS["radius"], time_limit=bad)
    with pytest.raises(TypeError, match="without calling it|your function itself"):
        check.radius(3.0)
    import importlib

    monkeypatch.setenv("PERCEPTRON_CHECK_TIME_LIMIT", "30")
    assert importlib.reload(check).TIME_LIMIT == 30.0
    monkeypatch.setenv("PERCEPTRON_CHECK_TIME_LIMIT", "soon")
    with pytest.raises(ValueError, match="PERCEPTRON_CHECK_TIME_LIMIT"):
        importlib.reload(check)
    monkeypatch.delenv("PERCEPTRON_CHECK_TIME_LIMIT")
    assert importlib.reload(check).TIME_LIMIT == 5.0


def test_another_seed_draws_other_cases_of_the_same_kinds():
    public, hidden = check.cases("train"), check.cases("train", seed=7, n_random=50)
    assert [c.name for c in public[:8]] == [c.name for c in hidden[:8]] and len(hidden) == 58
    assert not any(np.array_equal(a.args[0], b.args[0]) for a, b in zip(public[8:], hidden[8:]))
