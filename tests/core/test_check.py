"""perceptron_core.check: every check passes a correct solution and fails plausible wrong answers
at the case that exposes them; stubs, exceptions and wrong types get a verdict, not a traceback."""

from __future__ import annotations

import math

import numpy as np
import pytest

import perceptron_core as pc
from perceptron_core import check
from chapters import chapter_names  # book/_tools (tests/conftest.py puts it on sys.path)

# --- correct solutions, written independently of the references -------------------------------


def mistakes_ok(X, y, w):
    return sum(1 for xi, yi in zip(X, y) if yi * sum(a * b for a, b in zip(xi, w)) <= 0)


def update_ok(w, x, y):
    return w + y * x if y * np.dot(w, x) <= 0 else w.copy()


def separable_ok(X, y):
    # Gordan, by brute force over an LP written here: max t s.t. y_i w·x_i >= t, |w_j| <= 1.
    from scipy.optimize import linprog
    from fractions import Fraction

    n, d = X.shape
    Z = y[:, None] * X
    res = linprog(np.r_[np.zeros(d), -1.0], A_ub=np.c_[-Z, np.ones(n)], b_ub=np.zeros(n),
                  bounds=[(-1, 1)] * d + [(None, 1)], method="highs")
    w = res.x[:d]
    exact = all(sum(Fraction(float(z)) * Fraction(float(c)) for z, c in zip(row, w)) > 0 for row in Z)
    return bool(res.x[-1] > 1e-9 and exact)


def margin_ok(X, y, w, b):
    return min(yi * (np.dot(xi, w) + b) for xi, yi in zip(X, y)) / math.sqrt(np.dot(w, w))


def radius_ok(X):
    return max(math.sqrt(sum(v * v for v in row)) for row in X)


def bound_ok(R, gamma):
    return R**2 / gamma**2


def augment_ok(X, c):
    return np.concatenate([X, c * np.ones((X.shape[0], 1))], axis=1)


def margin_mistake_ok(w, x, y, gamma, target):
    n = np.linalg.norm(w)
    return bool(n == 0 or y * np.dot(w, x) / n < target * gamma)


def hinge_ok(X, y, w, gamma):
    u = w / np.linalg.norm(w)
    return float(sum(max(0.0, gamma - yi * np.dot(u, xi)) for xi, yi in zip(X, y)))


def window_ok(R, gamma, epsilon, delta):
    M = math.floor((R / gamma) ** 2)
    return math.ceil(math.log((M + 1) / delta) / epsilon)


def _perceptron_few_epochs(X, y):
    """A tempting answer: 'separable if the perceptron converges within 100 sweeps'."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bool(pc.perceptron(X, y, max_epochs=100).converged)


# --- plausible wrong answers, and the case each must fail first --------------------------------

WRONG = {
    "mistakes": [
        (lambda X, y, w: int(np.sum(y * (X @ w) < 0)), "a point on the line"),
        (lambda X, y, w: int(np.sum(X @ w <= 0)), "all correct"),
        (lambda X, y, w: int(np.any(y * (X @ w) <= 0)), "zero weights"),
    ],
    "update": [
        (lambda w, x, y: w + y * x if y * (w @ x) < 0 else w, "tie: zero score"),
        (lambda w, x, y: w + x if y * (w @ x) <= 0 else w, "mistake on a negative example"),
        (lambda w, x, y: w + y * x, "correct positive"),
        (lambda w, x, y: w + y * x if (w @ x) <= 0 else w, "mistake on a negative example"),
    ],
    "separable": [
        (lambda X, y: bool(len(set(y.tolist())) == 1 or X.shape[0] > 1), "XOR"),
        (lambda X, y: bool(pc.separability(X, y, offset=True).separable), "a point at the origin"),
        (_perceptron_few_epochs, "separable but slow for the perceptron"),
        (lambda X, y: bool(np.all(np.any(X != 0, axis=1))), "XOR"),
    ],
    "margin": [
        (lambda X, y, w, b: float(np.min(y * (X @ w + b))), "w not of unit length"),
        (lambda X, y, w, b: float(np.min(y * (X @ w)) / np.linalg.norm(w)), "with an offset"),
        (lambda X, y, w, b: float(np.min(np.abs(X @ w + b)) / np.linalg.norm(w)), "a misclassified point"),
        (lambda X, y, w, b: float(np.max(y * (X @ w + b)) / np.linalg.norm(w)), "unit w and no offset"),
    ],
    "radius": [
        (lambda X: float(np.max(np.abs(X))), "one point"),
        (lambda X: float(np.max(np.sum(X**2, axis=1))), "one point"),
        (lambda X: float(np.max(np.sum(X, axis=1))), "one point"),
        (lambda X: float(np.mean(np.linalg.norm(X, axis=1))), "negative coordinates"),
    ],
    "mistake_bound": [
        (lambda R, g: R / g, "R = 1 and gamma = 0.5"),
        (lambda R, g: R**2 / g, "R = 1 and gamma = 0.5"),
        (lambda R, g: (g / R) ** 2, "R = 1 and gamma = 0.5"),
    ],
    "augment": [
        (lambda X, c: np.hstack([np.full((len(X), 1), c), X]), "c = 1"),
        (lambda X, c: np.hstack([X, np.ones((len(X), 1))]), "another constant"),
        (lambda X, c: np.append(X, c), "c = 1"),
    ],
    "margin_mistake": [
        (lambda w, x, y, g, t: bool(y * (w @ x) / np.linalg.norm(w) <= t * g) if np.any(w) else True,
         "exactly at target"),
        (lambda w, x, y, g, t: bool(y * (w @ x) < t * g), "w not of unit length"),
        (lambda w, x, y, g, t: bool(np.any(w)) and bool(y * (w @ x) / np.linalg.norm(w) < t * g), "zero weights"),
        (lambda w, x, y, g, t: True if not np.any(w) else bool(y * (w @ x) / np.linalg.norm(w) < g),
         "target, not gamma"),
    ],
    "hinge_deviation": [
        (lambda X, y, w, g: float(np.sum(np.maximum(0, g - y * (X @ w)))), "w not of unit length"),
        (lambda X, y, w, g: float(np.sum(np.maximum(0, -y * (X @ w)) / np.linalg.norm(w))), "one point inside"),
        (lambda X, y, w, g: float(np.sum(np.maximum(0, g - (X @ w) / np.linalg.norm(w)))), "all beyond the margin"),
    ],
    "pac_window": [
        (lambda R, g, e, d: math.ceil(math.log(max(math.floor((R / g) ** 2), 1) / d) / e), "R = gamma"),
        (lambda R, g, e, d: math.ceil(math.log(1 / d) / e), "R = gamma"),
        (lambda R, g, e, d: math.log((math.floor((R / g) ** 2) + 1) / d) / e, "R = gamma"),
    ],
}


RIGHT = {
    "mistakes": mistakes_ok,
    "update": update_ok,
    "separable": separable_ok,
    "margin": margin_ok,
    "radius": radius_ok,
    "mistake_bound": bound_ok,
    "augment": augment_ok,
    "margin_mistake": margin_mistake_ok,
    "hinge_deviation": hinge_ok,
    "pac_window": window_ok,
}


def test_every_exercise_is_tested():
    assert set(RIGHT) == set(WRONG) == set(check.EXERCISES)
    assert all(len(v) >= 2 for v in WRONG.values())
    chapters = {chapter for chapter, _ in check.EXERCISES.values()}
    assert set(chapter_names()) <= chapters


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_correct_solution_passes(name, capsys):
    result = getattr(check, name)(RIGHT[name])
    out = capsys.readouterr().out
    assert result.passed and bool(result) and result.status == "passed"
    assert result.n_passed == result.n_cases >= 20
    assert f"check.{name}: all {result.n_cases} cases passed" in out
    assert "random" not in " ".join(c for c in result.passed_cases[:3])  # edge cases come first


@pytest.mark.parametrize("name,index", [(n, i) for n, ws in sorted(WRONG.items()) for i in range(len(ws))])
def test_wrong_answer_fails_at_the_right_case(name, index, capsys):
    func, first_case = WRONG[name][index]
    result = getattr(check, name)(func)
    out = capsys.readouterr().out
    assert not result and result.status == "failed"
    assert result.case == first_case, out
    assert f"case '{first_case}' failed" in out
    assert "expected:" in out and "received:" in out and "Hint:" in out
    assert "Traceback" not in out
    # The verdict shows the inputs of the failing case by name.
    for param in result.inputs:
        assert f"{param} = " in out


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_stub_says_not_implemented(name, capsys):
    def stub(*args):
        raise NotImplementedError

    result = getattr(check, name)(stub)
    out = capsys.readouterr().out
    assert result.status == "not implemented" and not result.passed
    assert "not implemented yet" in out and "Traceback" not in out and "expected" not in out


def test_exception_is_a_verdict(capsys):
    result = check.margin(lambda X, y, w, b: undefined_name + X @ w)  # noqa: F821
    out = capsys.readouterr().out
    assert result.status == "failed" and result.case == "unit w and no offset"
    assert "raised an exception" in out and "NameError" in out and "Traceback" not in out


@pytest.mark.parametrize("bad,why", [
    (lambda X: None, "NoneType where a number was expected"),
    (lambda X: "5.0", "str where a number was expected"),
    (lambda X: True, "bool where a number was expected"),
    (lambda X: np.linalg.norm(X, axis=1), "ndarray where a number was expected"),
])
def test_wrong_return_type(bad, why, capsys):
    result = check.radius(bad)
    out = capsys.readouterr().out
    assert result.status == "failed" and result.case == "one point" and why in out


def test_wrong_shape_and_bool_type(capsys):
    assert check.augment(lambda X, c: np.hstack([X, np.full((len(X), 1), c)]).T).case == "c = 1"
    assert "shape (3, 2)" in capsys.readouterr().out
    # 0/1 instead of False/True is a wrong type for a yes/no question.
    result = check.separable(lambda X, y: int(separable_ok(X, y)))
    assert result.case == "one point" and "int where True or False" in capsys.readouterr().out


def test_in_place_change_is_caught(capsys):
    def update_in_place(w, x, y):
        if y * (w @ x) <= 0:
            w += y * x
        return w

    result = check.update(update_in_place)
    assert result.case == "mistake on a positive example"
    assert "in place" in capsys.readouterr().out


def test_quiet_and_message():
    result = check.radius(radius_ok, quiet=True)
    assert result.passed and result.message.startswith("check.radius: all")
    with pytest.raises(TypeError, match="without calling it"):
        check.radius(radius_ok(np.ones((1, 2))))


def test_verdict_never_shows_the_reference(capsys):
    """Hints talk about the idea; no line of the references' code appears in any verdict."""
    import inspect

    source_lines = {line.strip() for line in inspect.getsource(check).splitlines()
                    if line.strip().startswith("return") and "(" in line}
    for name, wrongs in WRONG.items():
        for func, _ in wrongs:
            getattr(check, name)(func)
    out = capsys.readouterr().out
    assert not [line for line in source_lines if line in out]
    assert "np." not in out and "numpy" not in out


# --- the references agree with the package's algorithms ----------------------------------------


def test_update_reference_replays_online_perceptron():
    rng = np.random.default_rng(0)
    for _ in range(50):
        X = rng.integers(-2, 3, size=(8, 2)).astype(float)
        y = rng.choice([-1.0, 1.0], size=8)
        w = np.zeros(2)
        for step, (x, label) in zip(pc.online_perceptron(zip(X, y)), zip(X, y)):
            w = check._ref_update(w, x, label)
            assert np.array_equal(w, step.w)


def test_margin_mistake_reference_replays_margin_perceptron():
    for seed in range(20):
        X, y, _ = pc.planted(15, 3, gamma=0.2, R=1.0, seed=seed)
        run = pc.margin_perceptron(X, y, 0.2, target=0.6, record=True)
        w, updates = y[0] * X[0], []
        for _epoch in range(run.epochs):
            for i in range(len(y)):
                if check._ref_margin_mistake(w, X[i], y[i], 0.2, 0.6):
                    w = w + y[i] * X[i]
                    updates.append(i)
        assert updates == run.update_indices.tolist()
        assert np.allclose(w, run.w)


def test_mistakes_reference_agrees_with_a_converged_run():
    X, y, _ = pc.planted(30, 3, gamma=0.1, R=1.0, seed=1)
    run = pc.perceptron(X, y)
    assert run.converged and check._ref_mistakes(X, y, run.w) == 0
    assert check._ref_mistakes(X, y, np.zeros(3)) == 30


def test_separable_cases_are_decided():
    for case in check._separable_cases():
        assert pc.separability(*case.args).separable in (True, False)
    verdicts = [check._ref_separable(*c.args) for c in check._separable_cases()]
    assert 0 < sum(verdicts) < len(verdicts)  # both answers occur, so a constant answer fails
