"""perceptron_core.check: every check passes a correct solution and fails plausible wrong answers
at the case that exposes them; stubs, exceptions and wrong types get a verdict, not a traceback."""

from __future__ import annotations

import math

import numpy as np
import pytest

import perceptron_core as pc
from perceptron_core import check
from chapters import chapter_names  # book/_tools (tests/conftest.py puts it on sys.path)
from conftest import first_index, train_batch, train_f32, train_with

# --- correct solutions, written independently of the references -------------------------------


def mistakes_ok(X, y, w):
    return sum(1 for xi, yi in zip(X, y) if yi * sum(a * b for a, b in zip(xi, w)) <= 0)


def first_mistake_ok(X, y, w):
    for i, (xi, yi) in enumerate(zip(X, y)):
        if yi * sum(a * b for a, b in zip(xi, w)) <= 0:
            return i
    return None


def update_ok(w, x, y):
    return w + y * x if y * np.dot(w, x) <= 0 else w.copy()


def train_ok(X, y, epochs):
    w = [0.0] * X.shape[1]
    for _pass in range(epochs):
        for xi, yi in zip(X.tolist(), y.tolist()):
            if yi * sum(a * b for a, b in zip(w, xi)) <= 0:
                w = [a + yi * b for a, b in zip(w, xi)]
    return np.array(w)


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


def is_certificate_ok(X, y, lam):
    # Integers: every float is m * 2^e, so over a common power of two all the sums are exact.
    ratios = [float(v).as_integer_ratio() for v in lam]
    if any(num < 0 for num, _ in ratios):
        return False
    den = max(d for _, d in ratios)  # powers of two: the largest is a multiple of the others
    if sum(num * (den // d) for num, d in ratios) != den:
        return False
    for j in range(X.shape[1]):
        terms = [(num, d, *float(yi * xi[j]).as_integer_ratio()) for (num, d), xi, yi in zip(ratios, X, y)]
        common = max((d * e for _, d, _, e in terms), default=1)
        if sum(num * m * (common // (d * e)) for num, d, m, e in terms) != 0:
            return False
    return True


def margin_ok(X, y, w, b):
    return min(yi * (np.dot(xi, w) + b) for xi, yi in zip(X, y)) / math.sqrt(np.dot(w, w))


def radius_ok(X):
    return max(math.sqrt(sum(v * v for v in row)) for row in X)


def bound_ok(R, gamma):
    return R**2 / gamma**2


def proof_quantities_ok(X, y, u):
    norm = math.sqrt(sum(v * v for v in u.tolist()))
    w, rows = [0.0] * len(u), []
    while True:
        mistakes = 0
        for xi, yi in zip(X.tolist(), y.tolist()):
            if yi * sum(a * b for a, b in zip(w, xi)) <= 0:
                w = [a + yi * b for a, b in zip(w, xi)]
                rows.append([sum(a * b for a, b in zip(w, u.tolist())) / norm, sum(a * a for a in w)])
                mistakes += 1
        if not mistakes:
            return np.array(rows)


def augment_ok(X, c):
    return np.concatenate([X, c * np.ones((X.shape[0], 1))], axis=1)


def offset_bound_ok(R, gamma, b, c):
    return (R**2 + c**2) * (1 + (b / c) ** 2) / gamma**2


def margin_mistake_ok(w, x, y, gamma, target):
    n = np.linalg.norm(w)
    return bool(n == 0 or y * np.dot(w, x) / n < target * gamma)


def margin_run_ok(X, y, gamma, target):
    # Pure Python: start at y_1 x_1, sweep until a sweep makes no update.
    w = [y[0] * v for v in X[0]]
    while True:
        changed = False
        for x, label in zip(X.tolist(), y.tolist()):
            s = label * sum(a * b for a, b in zip(w, x))
            if s < target * gamma * math.sqrt(sum(a * a for a in w)):
                w, changed = [a + label * b for a, b in zip(w, x)], True
        if not changed:
            return np.array(w)


def hinge_ok(X, y, w, gamma):
    u = w / np.linalg.norm(w)
    return float(sum(max(0.0, gamma - yi * np.dot(u, xi)) for xi, yi in zip(X, y)))


def averaged_ok(X, y, epochs):
    # Pure Python: add the weights after every round, divide by the number of rounds.
    n, d = X.shape
    w, total = [0.0] * d, [0.0] * d
    for _ in range(epochs):
        for x, label in zip(X.tolist(), y.tolist()):
            if label * sum(a * b for a, b in zip(w, x)) <= 0:
                w = [a + label * b for a, b in zip(w, x)]
            total = [a + b for a, b in zip(total, w)]
    return np.array(total) / (n * epochs)


def window_ok(R, gamma, epsilon, delta):
    M = math.floor((R / gamma) ** 2)
    return math.ceil(math.log((M + 1) / delta) / epsilon)


def adversary_ok(new_learner, n, R):
    learner, labels = new_learner(), []
    for i in range(n):
        x = [0.0] * n
        x[i] = R
        p = learner.predict(np.array(x))
        labels.append(-1 if p == 1 else 1)  # -1 after +1; +1 after -1 and after no label (0)
        learner.update(np.array(x), labels[-1])
    return labels


def _certificate_close(X, y, lam):
    """The slip the exercise warns of: the conditions in floats, up to a tolerance."""
    return bool(np.all(lam >= 0) and np.isclose(lam.sum(), 1) and np.allclose(lam @ (y[:, None] * X), 0))


def _certificate_any_sign(X, y, lam):
    """The equations exactly, but λ ≥ 0 left out."""
    from fractions import Fraction

    L = [Fraction(float(v)) for v in lam]
    return sum(L) == 1 and all(sum(l * Fraction(float(yi * xi[j])) for l, xi, yi in zip(L, X, y)) == 0
                               for j in range(X.shape[1]))


def _adversary_playing(label_of, *, unit=False, tell=True):
    """The adversary with a slip: the label from the prediction by ``label_of``, the points
    e_i instead of R e_i (``unit``), or the learner never told the labels (``tell=False``)."""
    def adversary(new_learner, n, R):
        learner, labels = new_learner(), []
        for i in range(n):
            x = np.zeros(n)
            x[i] = 1.0 if unit else R
            labels.append(label_of(learner.predict(x)))
            if tell:
                learner.update(x, labels[-1] if labels[-1] else 1)
        return np.array(labels, dtype=float)
    return adversary


def _perceptron_few_epochs(X, y):
    """A tempting answer: 'separable if the perceptron converges within 100 sweeps'."""
    w = np.zeros(X.shape[1])
    for _epoch in range(100):
        mistakes = 0
        for xi, yi in zip(X, y):
            if yi * (w @ xi) <= 0:
                w, mistakes = w + yi * xi, mistakes + 1
        if not mistakes:
            return True
    return False


def _proof_slip(*, tie=True, square=True, normalize=True, one_pass=False, labels=True, before=False):
    """The proof's two quantities along the run, with one slip switched on."""
    def slipped(X, y, u):
        unit = u / np.linalg.norm(u) if normalize else u
        w, rows = np.zeros(X.shape[1]), []
        while True:
            clean = True
            for x, label in zip(X, y):
                score = label * (w @ x)
                if score < 0 or (tie and score == 0):
                    old = w
                    w = w + (label if labels else 1.0) * x
                    shown = old if before else w
                    rows.append([shown @ unit, shown @ shown if square else np.linalg.norm(shown)])
                    clean = False
            if clean or one_pass:
                return np.array(rows).reshape(-1, 2)
    return slipped


def _separable_with_offset(X, y):
    """The slip of deciding separability with an offset b (an extra constant feature)."""
    return separable_ok(np.c_[X, np.ones(len(X))], y)


def _train_reset(X, y, epochs):
    """The slip of starting every pass from w = 0 again."""
    w = np.zeros(X.shape[1])
    for _pass in range(epochs):
        w = train_with(X, y, 1)
    return w


def _margin_run_with(test, *, start=lambda X, y: y[0] * X[0], step=lambda w, x, y: w + y * x, epochs=None):
    """A Margin Perceptron run with one part changed: test(w, x, y, τγ, γ), start, step or a cap
    on the epochs."""
    def run(X, y, gamma, target):
        w, epoch = start(X, y).astype(float), 0
        while True:
            epoch, changed = epoch + 1, False
            for x, label in zip(X, y):
                with np.errstate(invalid="ignore", divide="ignore"):
                    if test(w, x, label, target * gamma, gamma):
                        w, changed = step(w, x, label), True
            if not changed or epoch == epochs:
                return w
    return run


def _averaged_with(*, test=lambda w, x, y: y * (w @ x) <= 0, step=lambda w, x, y: w + y * x,
                   before=False, rounds=lambda n, T: n * T, until_clean=False, skip_origin=False):
    """The averaged perceptron with one part changed: the test, the step, the weights taken
    before the round instead of after it, what it divides by, stopping at a clean epoch, or
    points at the origin skipped."""
    def run(X, y, epochs):
        n, d = X.shape
        w, total, done = np.zeros(d), np.zeros(d), 0
        for _ in range(epochs):
            changed = False
            for x, label in zip(X, y):
                if skip_origin and not np.any(x):
                    continue
                total = total + w if before else total
                if test(w, x, label):
                    w, changed = step(w, x, label), True
                total = total if before else total + w
                done += 1
            if until_clean and not changed:
                break
        return total / (done if until_clean or skip_origin else rounds(n, epochs))
    return run


def _last_iterate(X, y, epochs):
    """The weights after the last round instead of their average."""
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        for x, label in zip(X, y):
            if label * (w @ x) <= 0:
                w = w + label * x
    return w


_norm = np.linalg.norm

# --- plausible wrong answers, and the case each must fail first --------------------------------

WRONG = {
    "mistakes": [
        (lambda X, y, w: int(np.sum(y * (X @ w) < 0)), "a point on the line"),
        (lambda X, y, w: int(np.sum(X @ w <= 0)), "all correct"),
        (lambda X, y, w: int(np.any(y * (X @ w) <= 0)), "zero weights"),
    ],
    "first_mistake": [
        (lambda X, y, w: first_index(y * (X @ w) < 0), "a point on the line first"),
        (lambda X, y, w: (lambda i: None if i is None else len(y) - 1 - i)(first_index((y * (X @ w) <= 0)[::-1])),
         "several wrong"),
        (lambda X, y, w: int(np.sum(y * (X @ w) <= 0)), "one wrong"),
        (lambda X, y, w: (lambda i: -1 if i is None else i)(first_index(y * (X @ w) <= 0)), "all correct"),
        (lambda X, y, w: first_index(X @ w <= 0), "negative labels"),
        (lambda X, y, w: first_index(y[:-1] * (X[:-1] @ w) <= 0), "the last point"),
    ],
    "update": [
        (lambda w, x, y: w + y * x if y * (w @ x) < 0 else w, "tie: zero score"),
        (lambda w, x, y: w + x if y * (w @ x) <= 0 else w, "mistake on a negative example"),
        (lambda w, x, y: w + y * x, "correct positive"),
        (lambda w, x, y: w + y * x if (w @ x) <= 0 else w, "mistake on a negative example"),
    ],
    "train": [
        (lambda X, y, e: train_with(X, y, e, test=lambda w, x, y: y * (w @ x) < 0), "one point"),
        (lambda X, y, e: train_with(X, y, e, step=lambda w, x, y: w + x), "one point"),
        (lambda X, y, e: train_with(X, y, e, test=lambda w, x, y: w @ x <= 0), "negative labels"),
        (train_batch, "the order of the rows"),
        (lambda X, y, e: train_with(X[::-1], y[::-1], e), "the order of the rows"),
        (lambda X, y, e: train_with(X, y, e + 1), "epochs = 0"),
        (_train_reset, "stops after the given epochs"),
    ],
    "is_certificate": [
        (_certificate_close, "AND through the origin with q = 1/3 in floats"),
        (lambda X, y, lam: is_certificate_ok(X, np.ones_like(y), lam), "a point with both labels"),
        (lambda X, y, lam: bool(np.all(lam > 0)) and is_certificate_ok(X, y, lam), "a point at the origin"),
        (lambda X, y, lam: bool(np.all(lam >= 0) and lam.sum() > 0) and is_certificate_ok(X, y, lam / lam.sum()),
         "not normalized"),
        (_certificate_any_sign, "a negative weight"),
        (lambda X, y, lam: bool(np.all(lam >= 0) and lam.sum() == 1 and not np.any(lam @ (y[:, None] * X))),
         "AND through the origin with q = 1/3 in floats"),
    ],
    "adversary": [
        (_adversary_playing(lambda p: p if p else 1), "always +1"),
        (_adversary_playing(lambda p: -p), "always no label"),
        (_adversary_playing(lambda p: 1 if p < 0 else -1), "always no label"),
        (_adversary_playing(lambda p: 1 if p == 0 else -p, tell=False), "majority of the labels so far"),
        (_adversary_playing(lambda p: 1 if p == 0 else -p, unit=True), "R = 3 and a learner that sees lengths"),
    ],
    "separable": [
        (lambda X, y: bool(len(set(y.tolist())) == 1 or X.shape[0] > 1), "XOR"),
        (_separable_with_offset, "a point at the origin"),
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
    "proof_quantities": [
        (_proof_slip(tie=False), "one point"),
        (_proof_slip(before=True), "one point"),
        (_proof_slip(square=False), "squared length"),
        (_proof_slip(labels=False), "negative labels"),
        (_proof_slip(normalize=False), "u not of unit length"),
        (_proof_slip(one_pass=True), "several passes"),
    ],
    "offset_bound": [
        (lambda R, g, b, c: (R**2 + c**2) / g**2, "c = 1"),
        (lambda R, g, b, c: (R / g) ** 2 if b == 0 else (R**2 + c**2) * (1 + b**2 / c**2) / g**2,
         "no offset: b = 0"),
        (lambda R, g, b, c: (R**2 + c**2) * (1 + b / c**2) / g**2, "negative offset"),
        (lambda R, g, b, c: (R**2 + 1) * (1 + b**2) / g**2, "another constant"),
        (lambda R, g, b, c: R**2 * (1 + b**2 / c**2) / g**2, "c = 1"),
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
    "margin_run": [
        (_margin_run_with(lambda w, x, y, t, g: y * (w @ x) <= 0), "correct but too close"),
        (_margin_run_with(lambda w, x, y, t, g: y * (w @ x) / _norm(w) < g), "target, not gamma"),
        (_margin_run_with(lambda w, x, y, t, g: y * (w @ x) / _norm(w) <= t), "exactly at target"),
        (_margin_run_with(lambda w, x, y, t, g: y * (w @ x) < t), "w not of unit length"),
        (_margin_run_with(lambda w, x, y, t, g: y * (w @ x) / _norm(w) < t, epochs=1), "several epochs"),
        # From w = 0 with the normalized test: 0/0 is nan, never below τγ, so no update ever.
        (_margin_run_with(lambda w, x, y, t, g: y * (w @ x) / _norm(w) < t,
                          start=lambda X, y: np.zeros(X.shape[1])), "one point"),
        (_margin_run_with(lambda w, x, y, t, g: y * (w @ x) / _norm(w) < t, start=lambda X, y: X[0]),
         "one point"),
        # (Leaving the label out of the update, w + x, fails at "negative labels" too, but by
        # running out of time: it moves w away from the point, which stays a margin mistake.)
    ],
    "hinge_deviation": [
        (lambda X, y, w, g: float(np.sum(np.maximum(0, g - y * (X @ w)))), "w not of unit length"),
        (lambda X, y, w, g: float(np.sum(np.maximum(0, -y * (X @ w)) / np.linalg.norm(w))), "one point inside"),
        (lambda X, y, w, g: float(np.sum(np.maximum(0, g - (X @ w) / np.linalg.norm(w)))), "all beyond the margin"),
    ],
    "averaged": [
        (_averaged_with(rounds=lambda n, T: n * T + 1), "one example, one epoch"),  # w_0 = 0 counted too
        (_averaged_with(before=True), "one example, one epoch"),
        (_averaged_with(test=lambda w, x, y: y * (w @ x) < 0), "one example, one epoch"),
        (_last_iterate, "settles in the first epoch"),
        (_averaged_with(rounds=lambda n, T: T), "settles in the first epoch"),
        (_averaged_with(until_clean=True), "settles in the first epoch"),
        (_averaged_with(test=lambda w, x, y: (w @ x) <= 0), "XOR through the origin"),
        (_averaged_with(step=lambda w, x, y: w + x), "XOR through the origin"),
        (_averaged_with(test=lambda w, x, y: y * (w @ x) < 0 or not np.any(w)), "a tie after the start"),
        (_averaged_with(skip_origin=True), "a point at the origin"),
    ],
    "pac_window": [
        (lambda R, g, e, d: math.ceil(math.log(max(math.floor((R / g) ** 2), 1) / d) / e), "R = gamma"),
        (lambda R, g, e, d: math.ceil(math.log(1 / d) / e), "R = gamma"),
        (lambda R, g, e, d: math.log((math.floor((R / g) ** 2) + 1) / d) / e, "R = gamma"),
    ],
}


RIGHT = {
    "mistakes": mistakes_ok,
    "first_mistake": first_mistake_ok,
    "update": update_ok,
    "train": train_ok,
    "separable": separable_ok,
    "is_certificate": is_certificate_ok,
    "margin": margin_ok,
    "radius": radius_ok,
    "mistake_bound": bound_ok,
    "proof_quantities": proof_quantities_ok,
    "augment": augment_ok,
    "offset_bound": offset_bound_ok,
    "margin_mistake": margin_mistake_ok,
    "margin_run": margin_run_ok,
    "hinge_deviation": hinge_ok,
    "averaged": averaged_ok,
    "pac_window": window_ok,
    "adversary": adversary_ok,
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
    # The inputs are printed as np.array(...) to paste (an empty answer, as a slip of
    # check.proof_quantities returns, as np.zeros(shape, dtype=...)); no other numpy appears.
    import re

    pasted = re.sub(r"np\.zeros\(\([\d, ]*\), dtype=np\.\w+\)", "", out).replace("np.array(", "")
    assert "np.zeros(" in out and "np." not in pasted and "numpy" not in out


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


def test_proof_quantities_reference_replays_the_recorded_run():
    """The reference's loop is the package's perceptron: the same mistakes, and the history's
    progress w_k·u and norms_sq ‖w_k‖², on the check's cases and on planted float data."""
    data = [case.args for case in check._proof_cases()]
    for seed in range(30):
        X, y, u = pc.planted(12, 3, gamma=0.15, R=1.0, seed=seed)
        data.append((X, y, u * 2.5))  # a u of another length: both normalize it
    for X, y, u in data:
        run = pc.perceptron(X, y, u=u)
        expected = check._ref_proof_quantities(X, y, u)
        assert run.converged and expected.shape == (run.mistakes, 2)
        assert np.allclose(expected[:, 0], run.history.progress, rtol=1e-12, atol=1e-12)
        assert np.allclose(expected[:, 1], run.history.norms_sq, rtol=1e-12, atol=0)
    # Each case's data are separable through the origin (so a loop until a clean pass ends) and
    # its scores are exact: integers or multiples of 1/4, as the exercise and the float32 run need.
    for case in check._proof_cases():
        X, y, _ = case.args
        assert pc.separability(X, y).separable
        assert np.array_equal(X * 4, np.round(X * 4)) and np.abs(X).max() <= 30


def test_offset_bound_cases_are_the_chapters():
    """The edge cases hit the chapter's special constants: c = |b|, c² = R|b| (where the bound is
    ((R + |b|)/γ)²), b = 0 (where it is (R² + c²)/γ², not (R/γ)²); random b obey |b| ≤ R - γ."""
    cases = {c.name: c.args for c in check._offset_bound_cases()}
    R, g, b, c = cases["the best constant"]
    assert c * c == R * abs(b) and pc.offset_bound(R, g, b, c) == pytest.approx(((R + abs(b)) / g) ** 2)
    R, g, b, c = cases["c = |b|"]
    assert c == abs(b)
    R, g, b, c = cases["no offset: b = 0"]
    assert b == 0 and pc.offset_bound(R, g, b, c) == pytest.approx((R**2 + c**2) / g**2) != (R / g) ** 2
    assert cases["negative offset"][2] < 0
    for name, (R, g, b, c) in cases.items():
        assert c > 0 and g > 0
        if name.startswith("random"):
            assert abs(b) <= R - g


def _separable_with_margin(rng, n, d):
    """Gaussian data labelled by a random unit u, only the points at distances 0.1 to 0.5 from
    its hyperplane kept (so that runs make margin mistakes), and gamma below u's margin: the
    margin perceptron's hypotheses hold."""
    u = rng.normal(size=d)
    u /= np.linalg.norm(u)
    X = rng.normal(size=(8 * n, d)) * float(rng.uniform(0.5, 3))
    X = X[(np.abs(X @ u) >= 0.1) & (np.abs(X @ u) <= 0.5)][:n]
    y = np.where(X @ u > 0, 1.0, -1.0)
    return X, y, float(np.min(np.abs(X @ u))) * float(rng.uniform(0.5, 0.99))


def test_margin_run_reference_agrees_with_margin_perceptron():
    """The check's reference (the run of the chapter's box, decided exactly) against the
    package's runner and against the independent loop, on random separable data."""
    rng = np.random.default_rng(17)
    updates_seen = []
    for _ in range(40):
        X, y, gamma = _separable_with_margin(rng, int(rng.integers(2, 12)), int(rng.integers(1, 5)))
        target = float(rng.uniform(0.1, 0.9))
        w, updates, closest = check._margin_replay(X, y, gamma, target)
        run = pc.margin_perceptron(X, y, gamma, target=target, max_epochs=10**6)
        assert run.converged and updates == run.updates
        assert np.array_equal(w, run.w)  # the same float sums in the same order
        updates_seen.append(updates)
        if closest > 1e-9:  # no test near a tie: a float loop decides the same way
            assert np.array_equal(margin_run_ok(X, y, gamma, target), w)
    assert sum(u >= 3 for u in updates_seen) >= 10  # runs with several margin mistakes
    for case in check._margin_run_cases():  # the check's own cases, ties included
        run = pc.margin_perceptron(*case.args[:3], target=case.args[3])
        assert run.converged and np.array_equal(check._ref_margin_run(*case.args), run.w), case.name
        assert np.array_equal(margin_run_ok(*case.args), run.w), case.name


def test_margin_run_cases_meet_the_hypotheses():
    """Every case has gamma at most the data's margin (so every run stops, within the bound),
    the hand-made ties are exact, and the random cases stay away from ties."""
    for case in check._margin_run_cases():
        X, y, gamma, target = case.args
        assert pc.max_margin(X, y).gamma_low >= gamma, case.name
        w, updates, closest = check._margin_replay(X, y, gamma, target)
        assert updates <= pc.margin_perceptron_bound(pc.radius(X), gamma, target)
        if case.name.startswith("random"):
            assert closest >= 1e-5 and updates >= 1
        elif "target" in case.name and "not" not in case.name:
            assert closest == 0.0, case.name  # a normalized margin exactly tau * gamma


def test_averaged_reference_agrees_with_averaged_perceptron():
    """The check's reference (the mean of the weights after every round) against the package's
    averaged_perceptron, its voted_perceptron's weighted mean, and the independent loop."""
    rng = np.random.default_rng(18)
    for k in range(80):
        n, d, T = int(rng.integers(1, 10)), int(rng.integers(1, 5)), int(rng.integers(1, 7))
        X = rng.integers(-3, 4, size=(n, d)).astype(float)
        y = rng.choice([-1.0, 1.0], size=n) if k % 2 else np.where(X @ rng.integers(-3, 4, size=d) >= 0, 1.0, -1.0)
        ref = check._ref_averaged(X, y, T)
        assert np.array_equal(ref, pc.averaged_perceptron(X, y, epochs=T).w)
        voted = pc.voted_perceptron(X, y, epochs=T)
        assert np.allclose(voted.counts @ voted.weights / (n * T), ref, rtol=0, atol=1e-12)
        assert np.array_equal(averaged_ok(X, y, T), ref)
    for case in check._averaged_cases():
        X, y, T = case.args
        assert np.array_equal(check._ref_averaged(X, y, T), pc.averaged_perceptron(X, y, epochs=T).w)


def test_mistakes_reference_agrees_with_a_converged_run():
    X, y, _ = pc.planted(30, 3, gamma=0.1, R=1.0, seed=1)
    run = pc.perceptron(X, y)
    assert run.converged and check._ref_mistakes(X, y, run.w) == 0
    assert check._ref_mistakes(X, y, np.zeros(3)) == 30


def _exact_first_mistake(X, y, w):
    from fractions import Fraction

    return next((i for i, (xi, yi) in enumerate(zip(X.tolist(), y.tolist()))
                 if Fraction(yi) * sum(Fraction(a) * Fraction(b) for a, b in zip(xi, w.tolist())) <= 0), None)


def _exact_train(X, y, epochs):
    from fractions import Fraction

    w = [Fraction(0)] * X.shape[1]
    for _pass in range(epochs):
        for xi, yi in zip(X.tolist(), y.tolist()):
            xi = [Fraction(v) for v in xi]
            if yi * sum(a * b for a, b in zip(w, xi)) <= 0:
                w = [a + yi * b for a, b in zip(w, xi)]
    return np.array([float(v) for v in w])


def test_first_mistake_reference_is_exact_and_where_the_perceptron_updates():
    """On every case the reference is the first mistake in exact arithmetic, and the row on which
    the package's perceptron, sweeping from w, updates first (fed the row (w, +1) before the data:
    from w = 0 that row is a tie, so the run then holds w)."""
    import warnings

    answers = set()
    for case in check._first_mistake_cases():
        X, y, w = case.args
        want = check._ref_first_mistake(X, y, w)
        assert want == _exact_first_mistake(X, y, w), case.name
        with warnings.catch_warnings():  # a sweep with a mistake: the run did not converge
            warnings.simplefilter("ignore", pc.ConvergenceWarning)
            updates = pc.perceptron(np.r_[[w], X], np.r_[1.0, y], max_epochs=1, record=True).history.indices
        assert updates[0] == 0 and want == (int(updates[1]) - 1 if len(updates) > 1 else None), case.name
        answers.add("none" if want is None else "first row" if want == 0 else "later")
    assert answers == {"none", "first row", "later"}


def test_train_reference_agrees_with_the_package_and_an_exact_loop():
    """The reference is the run in exact arithmetic, and perceptron(X, y, max_epochs=T)'s weights
    for T >= 1 (which stops early only after a pass without a mistake, when later passes would
    change nothing), on the check's cases and on more small-integer and 1/8 data."""
    import warnings

    rng = np.random.default_rng(12)
    more = []
    for k in range(150):
        n, d = int(rng.integers(1, 10)), int(rng.integers(1, 4))
        X = rng.integers(-3, 4, size=(n, d)) / (8.0 if k % 2 else 1.0)
        more.append((X, rng.choice([-1.0, 1.0], size=n), int(rng.integers(0, 8))))
    converged = 0
    for X, y, epochs in [c.args for c in check._train_cases()] + more:
        want = check._ref_train(X, y, epochs)
        assert np.array_equal(want, _exact_train(X, y, epochs)), (X, y, epochs)
        if epochs:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", pc.ConvergenceWarning)
                run = pc.perceptron(X, y, max_epochs=epochs)
            assert np.array_equal(want, run.w), (X, y, epochs)
            converged += run.converged and run.epochs < epochs
    assert converged > 10  # runs that stopped early, and agree all the same


def _via_run(X, y, w):
    """The data with the row (w, +1) first: a run from w = 0 updates on it (a tie) to hold w."""
    return np.r_[[w], X], np.r_[1.0, y]


def _train_by_learner(X, y, epochs):
    learner = pc.PerceptronLearner()
    for _pass in range(epochs):
        for xi, yi in zip(X, y):
            learner.update(xi, int(yi))
    return learner.w if epochs else np.zeros(X.shape[1])


def _cycle(X, y, epochs):
    import itertools

    return itertools.islice(itertools.cycle(zip(X, y)), len(y) * epochs)


# What each package function listed in ANSWERS gives with a line around it.
VIA = {
    "first_mistake": {
        "margins": lambda X, y, w: 0 if not w.any() else first_index(pc.margins(X, y, w) <= 0),
        "perceptron": lambda X, y, w: (lambda u: int(u[1]) - 1 if len(u) > 1 else None)(
            pc.perceptron(*_via_run(X, y, w), max_epochs=1, record=True).history.indices),
        "online_perceptron": lambda X, y, w: next(
            (s.t - 2 for s in pc.online_perceptron(zip(*_via_run(X, y, w))) if s.mistake and s.t > 1), None),
        "margin_perceptron": lambda X, y, w: 0 if not w.any() else (lambda u: int(u[0]) - 1 if len(u) else None)(
            pc.margin_perceptron(*_via_run(X, y, w), 1e-300, max_epochs=1, record=True).update_indices),
        "voted_perceptron": lambda X, y, w: (lambda c: int(c[1]) - 1 if len(c) > 2 else None)(
            pc.voted_perceptron(*_via_run(X, y, w), epochs=1).counts),
        "kernel_perceptron": lambda X, y, w: (lambda m: int(m[1]) - 1 if len(m) > 1 else None)(
            pc.kernel_perceptron(*_via_run(X, y, w), max_epochs=1).mistake_indices),
    },
    "train": {
        "perceptron": lambda X, y, e: pc.perceptron(X, y, max_epochs=e).w if e else np.zeros(X.shape[1]),
        "online_perceptron": lambda X, y, e: (
            list(pc.online_perceptron(_cycle(X, y, e)))[-1].w if e else np.zeros(X.shape[1])),
        "averaged_perceptron": lambda X, y, e: (
            pc.averaged_perceptron(X, y, epochs=e).w_last if e else np.zeros(X.shape[1])),
        "voted_perceptron": lambda X, y, e: (
            pc.voted_perceptron(X, y, epochs=e).weights[-1] if e else np.zeros(X.shape[1])),
        "kernel_perceptron": lambda X, y, e: (
            pc.kernel_perceptron(X, y, max_epochs=e).w if e else np.zeros(X.shape[1])),
        "margin_perceptron": lambda X, y, e: (
            pc.margin_perceptron(X, y, 1e-300, max_epochs=e).w if e else np.zeros(X.shape[1])),
        "PerceptronLearner": _train_by_learner,
        "convert_stream": lambda X, y, e: (
            pc.convert_stream(_cycle(X, y, e), window=len(y) * e + 1).current if e else np.zeros(X.shape[1])),
    },
}


@pytest.mark.parametrize("exercise", sorted(VIA))
def test_the_switched_off_functions_really_answer(exercise):
    """Every function ANSWERS lists for these exercises gives the reference's answer on every
    case of the check, with a line around it (so each is listed for a reason)."""
    import warnings

    assert set(VIA[exercise]) == set(check.ANSWERS[exercise])
    spec = check._SPECS[exercise]
    cases = spec.cases()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        for name, via in VIA[exercise].items():
            for case in cases:
                want, got = spec.reference(*case.args), via(*case.args)
                assert (np.array_equal(got, want) if exercise == "train" else got == want), (name, case.name)


def test_the_estimator_is_switched_off_with_perceptron():
    """The scikit-learn estimator is not listed for train (scikit-learn is optional), but its fit
    runs perceptron, which is switched off in the estimator's module too."""
    pytest.importorskip("sklearn")
    from perceptron_core.estimator import Perceptron

    def student(X, y, epochs):
        return Perceptron(offset=False, max_epochs=epochs).fit(X, y).coef_[0]

    X, y = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, 1.0]]), np.array([1.0, -1.0, 1.0])
    assert np.array_equal(student(X, y, 3), check._ref_train(X, y, 3))  # it would answer
    with check._without_answers("train", student) as (calls, func):
        with pytest.raises(check._SwitchedOff):
            func(X, y, 3)
    assert calls == [("perceptron_core.perceptron", "perceptron_core.estimator.fit")]
    assert np.array_equal(student(X, y, 3), check._ref_train(X, y, 3))  # and back on after


def test_first_mistake_answer_types(capsys):
    def as_numpy(X, y, w):
        i = first_mistake_ok(X, y, w)
        return None if i is None else np.int64(i)

    assert check.first_mistake(as_numpy).passed
    result = check.first_mistake(lambda X, y, w: first_mistake_ok(X, y, w) or False)
    assert result.case == "all correct" and "returned bool where None was expected" in result.message
    result = check.first_mistake(lambda X, y, w: None)
    assert result.case == "one wrong" and "returned None where an int was expected" in result.message
    result = check.first_mistake(lambda X, y, w: float(first_mistake_ok(X, y, w) or 0))
    assert result.case == "one wrong" and "returned float where an int was expected" in result.message
    capsys.readouterr()


def test_separable_cases_are_decided():
    for case in check._separable_cases():
        assert pc.separability(*case.args).separable in (True, False)
    verdicts = [check._ref_separable(*c.args) for c in check._separable_cases()]
    assert 0 < sum(verdicts) < len(verdicts)  # both answers occur, so a constant answer fails


def test_is_certificate_reference_agrees_with_integer_arithmetic():
    """The reference (Separability.verify) against is_certificate_ok, which works in integers, on
    planted certificates, the same changed, and random weights; and both answers occur among
    the check's cases."""
    rng = np.random.default_rng(7)
    verdicts = []
    for k in range(300):
        X, y, lam, support = check._planted_certificate(rng)
        if k % 4 == 1:
            lam = np.where(lam > 0, lam, 0) * rng.choice([0.5, 1.0, 2.0])
        elif k % 4 == 2:
            i = int(rng.choice(support))
            X[i, int(rng.integers(X.shape[1]))] += float(rng.choice([-1, 1])) * 2.0 ** -int(rng.integers(1, 60))
        elif k % 4 == 3:
            lam = rng.dirichlet(np.ones(len(lam))) if k % 8 == 3 else rng.integers(-1, 3, size=len(lam)) / 4
        verdict = check._ref_is_certificate(X, y, lam)
        assert verdict == is_certificate_ok(X, y, lam), (X, y, lam)
        verdicts.append(verdict)
    assert 50 < sum(verdicts) < 250
    cases = check._is_certificate_cases()
    answers = [check._ref_is_certificate(*c.args) for c in cases]
    assert answers == [is_certificate_ok(*c.args) for c in cases]
    assert 5 < sum(answers[15:]) < 15 and 3 < sum(answers[:15]) < 12  # both, in edge and random cases


def _replay_errs(new_learner, n, R, labels):
    """The defining property: on a fresh learner, every round is a mistake, +1 after no label."""
    learner = new_learner()
    for i, label in enumerate(labels):
        x = np.zeros(n)
        x[i] = R
        p = learner.predict(x)
        if p == label or (p == 0 and label != 1) or label not in (1, -1):
            return False
        learner.update(x, label)
    return True


def test_adversary_reference_agrees_with_a_loop_and_makes_every_round_a_mistake():
    cases = check._adversary_cases()
    for c in cases:
        expected = check._ref_adversary(*c.args)
        assert np.array_equal(expected, adversary_ok(*c.args)), c.name
        assert expected.shape == (c.args[1],) and _replay_errs(*c.args, expected.tolist()), c.name
    # Every kind of learner, n = 1, R other than 1, and both labels occur.
    assert {c.args[1] for c in cases} >= {1, 12} and {c.args[2] for c in cases} - {1.0}
    labels = np.concatenate([check._ref_adversary(*c.args) for c in cases])
    assert set(labels.tolist()) == {1.0, -1.0}
    for tie in ("mistake", "positive", "negative"):  # the chapter's table: every score is a tie
        game = pc.adversary_game(pc.PerceptronLearner(tie), 9)
        assert np.array_equal(game.y, adversary_ok(lambda: pc.PerceptronLearner(tie), 9, 1.0))


def test_adversary_verdict_describes_the_learner(capsys, monkeypatch):
    """A learner factory has no Python literal: the verdict says which learner it makes and how
    to get it, and it reruns the case; so does a tiny print limit."""
    def never_told(new_learner, n, R):
        learner = new_learner()
        return [1 if learner.predict(x) != 1 else -1 for x in R * np.eye(n)]

    for limit in (check.PRINT_LIMIT, 1):
        monkeypatch.setattr(check, "PRINT_LIMIT", limit)
        result = check.adversary(never_told)
        out = capsys.readouterr().out
        assert result.case == "majority of the labels so far"
        assert ("new_learner = <a factory of fresh learners: the majority of the labels told so far, "
                "-1 on a tie>; get it with check.case_inputs('adversary', 'majority of the labels so "
                "far')['new_learner']") in out
        assert "n = 6" in out and "R = 1.0" in out and "different label in round 2" in out
    inputs = check.case_inputs("adversary", "majority of the labels so far")
    assert never_told(**inputs) == result.received
    assert inputs["new_learner"]() is not inputs["new_learner"]()  # fresh each time


def test_adversary_labels_are_compared_exactly(capsys):
    def f32(new_learner, n, R):
        return np.asarray(adversary_ok(new_learner, n, R), dtype=np.float32)

    assert check.adversary(f32).passed  # (adversary_ok itself returns a list)
    bad = {
        "zero-one labels": (lambda *a: [max(v, 0) for v in adversary_ok(*a)], "always +1",
                            "a different label in round 1"),
        "booleans": (lambda *a: np.array(adversary_ok(*a)) > 0, "always +1", "a different label in round 1"),
        "a column": (lambda *a: np.array(adversary_ok(*a))[:, None], "always +1", "shape (3, 1) where shape (3,)"),
        "one label": (lambda *a: adversary_ok(*a)[0], "always +1", "int where an array of labels"),
        "nothing": (lambda *a: None, "always +1", "NoneType where an array of labels"),
    }
    for name, (func, case, why) in bad.items():
        result = check.adversary(func)
        out = capsys.readouterr().out
        assert result.case == case and why in out and "Compared to" not in out, name
    capsys.readouterr()


# --- the package does not answer for the student ---------------------------------------------


def _package_namespaces():
    import sys

    return {name: vars(module) for name, module in sys.modules.items()
            if module is not None and (name == "perceptron_core" or name.startswith("perceptron_core."))}


def _snapshot():
    return {name: dict(space) for name, space in _package_namespaces().items()}


def _unchanged(before):
    after = _package_namespaces()
    return all(after[name][k] is v for name, space in before.items() for k, v in space.items())


def test_answer_table_names_package_functions():
    import importlib

    assert set(check.ANSWERS) == set(check.EXERCISES) == set(check.PRECISION)
    for exercise, names in check.ANSWERS.items():
        for name in names:
            module, _, attr = ("perceptron_core." + name).rpartition(".")
            assert callable(getattr(importlib.import_module(module), attr)), (exercise, name)


@pytest.mark.parametrize("exercise,name", [(e, n) for e, ns in sorted(check.ANSWERS.items()) for n in ns])
def test_calling_an_answer_function_fails(exercise, name, capsys):
    """Every function of ANSWERS, called from the student's function, fails the first case with a
    verdict that names it; the answer it would give does not matter."""
    import importlib

    module, _, attr = ("perceptron_core." + name).rpartition(".")
    holder = importlib.import_module(module)
    before = _snapshot()

    def student(*args):
        return getattr(holder, attr)(*args)  # looked up at call time, as pc.<name>(...) is

    result = getattr(check, exercise)(student)
    out = capsys.readouterr().out
    assert result.status == "failed" and result.case == check._SPECS[exercise].cases()[0].name
    assert result.called == f"perceptron_core.{name}"
    assert f"called perceptron_core.{name}, which this exercise asks you to write: write it yourself" in out
    assert "Traceback" not in out
    assert _unchanged(before)  # every module has its functions back


def test_the_issues_examples_fail_and_the_package_is_restored(capsys):
    before = _snapshot()
    assert not check.augment(pc.augment)
    out = capsys.readouterr().out
    assert "your function called perceptron_core.augment, which this exercise asks you to write" in out
    assert not check.separable(lambda X, y: pc.separability(X, y).separable)
    assert "called perceptron_core.separability" in capsys.readouterr().out
    import functools

    for given in (pc.radius, pc.geometry.radius, functools.partial(pc.radius)):
        result = check.radius(given, quiet=True)
        assert result.called == "perceptron_core.radius", given
    assert not check.separable(lambda X, y: pc.data.augment(X, 1.0) is None)  # augment is allowed here
    assert "called" not in capsys.readouterr().out.splitlines()[0]
    assert _unchanged(before)
    assert pc.augment is pc.data.augment and pc.augment(np.ones((1, 1)), 2.0).tolist() == [[1.0, 2.0]]


def test_every_module_holding_an_answer_function_is_switched_off():
    """pc.radius and pc.geometry.radius (and any other module's copy) are switched off together,
    with the student's own globals (`from perceptron_core import radius`), and put back after."""
    import sys
    import types

    namespace = {"lib_radius": pc.radius}
    exec("def student(X):\n    return lib_radius(X)\n", namespace)
    before = _snapshot()
    with check._without_answers("radius", namespace["student"]) as (calls, call):
        assert call is namespace["student"]
        holders = [(n, k) for n, space in _package_namespaces().items() for k, v in space.items()
                   if v is before["perceptron_core.geometry"]["radius"]]
        assert not holders
        assert namespace["lib_radius"] is pc.radius is pc.geometry.radius  # all the stand-in
        # A module imported during the call picks up the stand-in; it must not keep it.
        fake = types.ModuleType("perceptron_core._imported_during_check")
        fake.radius = pc.radius
        sys.modules[fake.__name__] = fake
        with pytest.raises(RuntimeError, match="switched off while check.radius runs"):
            pc.radius(np.ones((1, 2)))
        assert calls == [("perceptron_core.radius", None)]
    try:
        assert fake.radius is before["perceptron_core.geometry"]["radius"]
        assert namespace["lib_radius"] is pc.radius is before["perceptron_core"]["radius"]
        assert _unchanged(before)
    finally:
        del sys.modules[fake.__name__]


def test_a_caught_switched_off_error_still_fails(capsys):
    def sneaky(X, c):
        try:
            return pc.augment(X, c)
        except Exception:
            return augment_ok(X, c)

    result = check.augment(sneaky)
    assert result.status == "failed" and result.called == "perceptron_core.augment"
    capsys.readouterr()


def test_restored_when_the_check_is_interrupted():
    before = _snapshot()

    def interrupted(X, c):
        raise KeyboardInterrupt  # the student stops the cell: not a verdict, but nothing may stay patched

    with pytest.raises(KeyboardInterrupt):
        check.augment(interrupted)
    assert _unchanged(before)


def test_indirect_use_is_named():
    result = check.pac_window(lambda R, g, e, d: math.ceil(math.log(pc.max_rounds(R, g) / d) / e), quiet=True)
    assert result.called == "perceptron_core.max_rounds" and "write it yourself" in result.message
    result = check.mistake_bound(lambda R, g: pc.max_rounds(R, g) - 1.0, quiet=True)
    assert ("called perceptron_core.bounds.max_rounds, which uses perceptron_core.novikoff_bound"
            in result.message)


# --- precision ----------------------------------------------------------------------------------

F32 = np.float32


def update_f32(w, x, y):
    w, x, y = w.astype(F32), x.astype(F32), F32(y)
    return w + y * x if y * np.dot(w, x) <= 0 else w


def margin_f32(X, y, w, b):
    X, y, w, b = X.astype(F32), y.astype(F32), w.astype(F32), F32(b)
    return np.min(y * (X @ w + b)) / np.linalg.norm(w)


def radius_f32(X):
    return np.max(np.sqrt(np.sum(X.astype(F32) ** 2, axis=1)))


def bound_f32(R, gamma):
    q = F32(R) / F32(gamma)
    return q * q  # numpy 1.x computes float32 ** 2 in float64


def proof_quantities_f32(X, y, u):
    X, y, u = X.astype(F32), y.astype(F32), u.astype(F32)
    u = u / np.linalg.norm(u)
    w, rows, clean = np.zeros(X.shape[1], dtype=F32), [], False
    while not clean:
        clean = True
        for x, label in zip(X, y):
            if label * np.dot(w, x) <= 0:
                w = w + label * x
                rows.append([np.dot(w, u), np.dot(w, w)])
                clean = False
    return np.array(rows, dtype=F32)


def offset_bound_f32(R, gamma, b, c):
    R, gamma, b, c = F32(R), F32(gamma), F32(b), F32(c)
    return (R * R + c * c) * (F32(1) + (b / c) * (b / c)) / (gamma * gamma)


def augment_f32(X, c):
    return np.hstack([X.astype(F32), np.full((X.shape[0], 1), c, dtype=F32)])


def hinge_f32(X, y, w, gamma):
    X, y, w, gamma = X.astype(F32), y.astype(F32), w.astype(F32), F32(gamma)
    u = w / np.linalg.norm(w)
    return np.sum(np.maximum(F32(0), gamma - y * (X @ u)))


def margin_run_f32(X, y, gamma, target):
    X, y, aim = X.astype(F32), y.astype(F32), F32(target) * F32(gamma)
    w = y[0] * X[0]
    while True:
        changed = False
        for x, label in zip(X, y):
            if label * np.dot(w, x) / np.linalg.norm(w) < aim:
                w, changed = w + label * x, True
        if not changed:
            return w


def averaged_f32(X, y, epochs):
    X, y = X.astype(F32), y.astype(F32)
    w, total = np.zeros(X.shape[1], F32), np.zeros(X.shape[1], F32)
    for _ in range(epochs):
        for x, label in zip(X, y):
            if label * np.dot(w, x) <= 0:
                w = w + label * x
            total += w
    return total / F32(len(y) * epochs)


FLOAT32 = {"update": update_f32, "train": train_f32, "margin": margin_f32, "radius": radius_f32,
           "mistake_bound": bound_f32, "proof_quantities": proof_quantities_f32,
           "augment": augment_f32, "offset_bound": offset_bound_f32, "margin_run": margin_run_f32,
           "hinge_deviation": hinge_f32, "averaged": averaged_f32}


def test_precision_table():
    floats = {name for name, p in check.PRECISION.items() if p is not None}
    assert floats == set(FLOAT32)
    assert all(check.PRECISION[name] == 1e-6 for name in floats)
    assert all(check._SPECS[name].scale is not None for name in floats)


@pytest.mark.parametrize("name", sorted(FLOAT32))
def test_float32_implementation_passes(name, capsys):
    assert getattr(check, name)(FLOAT32[name]).passed, capsys.readouterr().out
    spec = check._SPECS[name]
    for case in spec.cases():  # and it is really computed in float32, well within the precision
        got = np.asarray(FLOAT32[name](*case.args))
        assert got.dtype == np.float32
        assert np.max(np.abs(got - spec.reference(*case.args))) <= 0.5e-6 * spec.scale(*case.args)


@pytest.mark.parametrize("name", sorted(FLOAT32))
@pytest.mark.parametrize("off", [0.5, 2.0])
def test_off_by_more_than_the_precision_fails(name, off, capsys):
    """The reference's answer moved by `off` times the case's tolerance: within it passes,
    beyond it fails at the first case, with a verdict that states the precision."""
    spec = check._SPECS[name]
    # Answers worked out now: the references use functions that the check switches off.
    table = [(c.args, spec.reference(*c.args) + off * 1e-6 * spec.scale(*c.args)) for c in spec.cases()]

    def shifted(*args):
        return next(answer for known, answer in table
                    if all(np.array_equal(a, b) for a, b in zip(known, args)))

    result = getattr(check, name)(shifted)
    out = capsys.readouterr().out
    if off < 1:
        assert result.passed, out
    else:
        assert result.case == spec.cases()[0].name
        assert "Compared to a relative 1e-06 of" in out and "passes; yours is" in out
        assert result.tolerance == pytest.approx(1e-6 * spec.scale(*spec.cases()[0].args))


def test_exact_answers_stay_exact(capsys):
    assert check.pac_window(lambda R, g, e, d: window_ok(R, g, e, d) + 1).case == "R = gamma"
    assert "Compared to" not in capsys.readouterr().out
    assert check.separable(lambda X, y: np.float64(separable_ok(X, y))).status == "failed"
    capsys.readouterr()


# --- time limits --------------------------------------------------------------------------------


def _abandoned_calls_stop(seconds=5.0):
    """Whether the threads of calls that ran out of time end (they are asked to) within seconds."""
    import threading
    import time

    deadline = time.monotonic() + seconds
    calls = [t for t in threading.enumerate() if t.name == "perceptron_core.check case"]
    for t in calls:  # joined, not polled: returns as soon as they end
        t.join(max(0.0, deadline - time.monotonic()))
    return not any(t.is_alive() for t in calls)


def _forever(*args):
    while True:
        pass


def test_endless_loop_runs_out_of_time_in_the_main_thread(capsys):
    import signal
    import threading
    import time

    assert threading.current_thread() is threading.main_thread()
    fired = []

    def previous_handler(signum, frame):
        fired.append(signum)

    old = signal.signal(signal.SIGALRM, previous_handler)
    signal.setitimer(signal.ITIMER_REAL, 100.0)
    try:
        start = time.monotonic()
        result = check.separable(_forever, time_limit=0.5)
        elapsed = time.monotonic() - start
        out = capsys.readouterr().out
        assert result.status == "failed" and result.timed_out and result.case == "one point"
        assert 0.5 <= elapsed < 10  # stopped (a generous bound: a loaded machine is slow)
        assert "case 'one point' failed: your function ran out of time: it did not return within 0.5 s" in out
        assert "X = np.array([[1.0, 2.0]])" in out and "endless loop" in out
        # Someone else's handler and timer are back, the timer less the time the check took.
        assert signal.getsignal(signal.SIGALRM) is previous_handler
        assert 97.0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100.0 - 0.5
        assert not fired
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_an_except_exception_loop_cannot_swallow_the_limit(capsys):
    def stubborn(X):
        while True:
            try:
                sum(range(1000))
            except Exception:
                pass

    assert check.radius(stubborn, time_limit=0.3).timed_out
    capsys.readouterr()


def test_endless_loop_runs_out_of_time_in_a_worker_thread():
    import threading
    import time

    results = {}

    def worker():
        start = time.monotonic()
        results["forever"] = check.separable(_forever, time_limit=0.5, quiet=True)
        results["elapsed"] = time.monotonic() - start
        results["right"] = check.radius(radius_ok, quiet=True)
        results["stub"] = check.augment(lambda X, c: (_ for _ in ()).throw(NotImplementedError), quiet=True)
        results["error"] = check.margin(lambda X, y, w, b: 1 / 0, quiet=True)

    thread = threading.Thread(target=worker, daemon=True)  # a daemon: a hang fails, not blocks
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    result = results["forever"]
    assert result.timed_out and result.case == "one point" and "ran out of time" in result.message
    assert 0.5 <= results["elapsed"] < 10
    assert results["right"].passed and results["stub"].status == "not implemented"
    assert "ZeroDivisionError" in results["error"].message
    # The abandoned call was asked to stop, and a pure-Python loop does.
    assert _abandoned_calls_stop()


def test_without_sigalrm_the_case_runs_in_a_thread(monkeypatch, capsys):
    """Windows has no SIGALRM: even in the main thread the case then runs in a daemon thread."""
    import threading
    import time
    import types

    monkeypatch.setattr(check, "signal", types.SimpleNamespace())
    start = time.monotonic()
    result = check.margin_mistake(_forever, time_limit=0.3)
    assert result.timed_out and time.monotonic() - start < 10
    assert check.margin_mistake(margin_mistake_ok, time_limit=0.3).passed
    capsys.readouterr()
    assert _abandoned_calls_stop()


def test_time_limit_argument(capsys):
    assert check.radius(radius_ok, time_limit=None).passed
    assert check.radius(radius_ok, time_limit=2).passed
    capsys.readouterr()
    for bad in (0, -1, float("inf"), float("nan"), True, "5"):
        with pytest.raises(ValueError, match="time_limit must be a positive number"):
            check.radius(radius_ok, time_limit=bad)
    assert check.TIME_LIMIT == 5.0


# --- call: one call under the time limit (the autograder's hidden tests) ----------------------


def test_call_returns_the_value_and_passes_the_arguments():
    def f(a, b, *rest, scale=1, **more):
        return (a, b, rest, scale, more)

    assert "call" in check.__all__
    assert check.call(f, 1, 2) == (1, 2, (), 1, {})
    assert check.call(f, 1, b=2) == (1, 2, (), 1, {})
    assert check.call(f, 1, 2, 3, 4, scale=5, extra=6) == (1, 2, (3, 4), 5, {"extra": 6})
    assert check.call(f, 1, 2, time_limit=None) == (1, 2, (), 1, {})
    X = np.arange(6.0).reshape(3, 2)
    assert check.call(radius_ok, X) == radius_ok(X)
    assert check.call(np.linalg.norm, X, axis=1, time_limit=2).shape == (3,)
    out = check.call(lambda A: A, X)
    assert out is X  # passed as it is, not copied


def test_call_lets_the_function_s_exception_through():
    with pytest.raises(ZeroDivisionError):
        check.call(lambda: 1 / 0)
    with pytest.raises(NotImplementedError):
        check.call(lambda X: (_ for _ in ()).throw(NotImplementedError), np.zeros(2))


def test_call_turns_an_endless_loop_into_a_timeout_error():
    import signal
    import time
    import traceback

    def mistakes(X, y, w):
        while True:
            pass

    start = time.monotonic()
    with pytest.raises(TimeoutError) as info:
        check.call(mistakes, np.zeros((2, 2)), np.ones(2), np.ones(2), time_limit=0.3)
    elapsed = time.monotonic() - start
    assert 0.3 <= elapsed < 10  # a generous bound: a loaded machine is slow
    assert str(info.value) == "mistakes(...) did not return within 0.3 s: an endless loop?"
    assert info.value.__cause__ is None and info.value.__suppress_context__
    # The traceback reaches the loop, to show where it was stopped.
    assert "while True" in "".join(traceback.format_tb(info.value.__traceback__))
    # An except-Exception loop cannot swallow it, and no timer is left behind.
    def stubborn():
        while True:
            try:
                sum(range(1000))
            except Exception:
                pass

    timer_before = signal.getitimer(signal.ITIMER_REAL)
    with pytest.raises(TimeoutError, match=r"stubborn\(\.\.\.\) did not return within 0\.2 s"):
        check.call(stubborn, time_limit=0.2)
    if timer_before == (0.0, 0.0):  # (a plugin's own timer, if one runs, is given back instead)
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    with pytest.raises(TimeoutError, match=r"^<lambda>\(\.\.\.\)"):
        check.call(lambda: _forever(), time_limit=0.1)


def test_call_times_out_in_a_worker_thread_too():
    import threading

    results = {}

    def worker():
        try:
            check.call(_forever, 1, time_limit=0.3)
        except TimeoutError as exc:
            results["error"] = str(exc)
        results["value"] = check.call(radius_ok, np.array([[3.0, 4.0]]), time_limit=2)

    thread = threading.Thread(target=worker, daemon=True)
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    assert results == {"error": "_forever(...) did not return within 0.3 s: an endless loop?", "value": 5.0}
    assert _abandoned_calls_stop()


def test_call_checks_its_arguments():
    for bad in (0, -1, float("inf"), True, "5"):
        with pytest.raises(ValueError, match="time_limit must be a positive number"):
            check.call(radius_ok, np.ones((1, 2)), time_limit=bad)
    with pytest.raises(TypeError, match="call needs a function"):
        check.call(3.0)
    with pytest.raises(ValueError, match="there is no check.augmnet"):
        check.call(radius_ok, np.ones((1, 2)), exercise="augmnet")


def test_the_environment_sets_the_time_limit():
    """A grader on a slow machine sets PERCEPTRON_CHECK_TIME_LIMIT (make grade CHECK_TIME_LIMIT=)."""
    import os
    import subprocess
    import sys

    def limit(value):
        env = {k: v for k, v in os.environ.items() if k != "PERCEPTRON_CHECK_TIME_LIMIT"}
        if value is not None:
            env["PERCEPTRON_CHECK_TIME_LIMIT"] = value
        return subprocess.run([sys.executable, "-c", "from perceptron_core import check; "
                               "import inspect; print(check.TIME_LIMIT, inspect.signature(check.radius)"
                               ".parameters['time_limit'].default)"],
                              env=env, capture_output=True, text=True)

    assert limit(None).stdout.split() == ["5.0", "5.0"]
    assert limit("30").stdout.split() == ["30.0", "30.0"]
    for bad in ("0", "five"):  # (which values are refused: the same test as time_limit's)
        done = limit(bad)
        assert done.returncode != 0
        assert "PERCEPTRON_CHECK_TIME_LIMIT must be a positive number of seconds" in done.stderr


def test_call_with_an_exercise_switches_its_answers_off():
    """A hidden test's call grades the student's own code, as the public check does: calling an
    answer function (directly, through a lambda, caught or not) is a PermissionError naming it,
    the package is whole again afterwards, and an honest function gets its value."""
    X = np.array([[1.0, 2.0]])
    for func in (pc.augment, lambda X, c: pc.augment(X, c), _augment_caught):
        with pytest.raises(PermissionError, match=r"called perceptron_core\.augment, which this "
                                                  r"exercise asks you to write"):
            check.call(func, X, 3.0, exercise="augment")
    assert pc.augment(X, 3.0).tolist() == [[1.0, 2.0, 3.0]]
    assert check.call(augment_ok, X, 3.0, exercise="augment").tolist() == [[1.0, 2.0, 3.0]]
    # Other exercises' answers stay on, and without an exercise nothing is switched off.
    assert check.call(lambda X, c: pc.augment(X, c), X, 3.0, exercise="radius").shape == (1, 3)
    assert check.call(pc.augment, X, 3.0).shape == (1, 3)
    # A package function that uses an answer is named with it.
    with pytest.raises(PermissionError, match=r"called perceptron_core\.bounds\.max_rounds, which "
                                              r"uses perceptron_core\.novikoff_bound"):
        check.call(lambda R, g: pc.max_rounds(R, g) - 1.0, 2.0, 1.0, exercise="mistake_bound")


def _augment_caught(X, c):
    try:
        return pc.augment(X, c)
    except Exception:  # noqa: BLE001 -- what a student trying to get past the switch does
        return np.hstack([X, np.full((len(X), 1), c)])


# --- a failing case is printed in full ---------------------------------------------------------


def test_failing_case_is_printed_to_paste(capsys):
    """Inputs are written as Python that recreates them exactly: no '...', no rounded digits."""
    def integers_only(X):
        return radius_ok(X) if np.all(X == np.round(X)) else 0.0

    result = check.radius(integers_only)
    out = capsys.readouterr().out
    assert result.case == "random 1" and "..." not in out
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("      X = "))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("          "))
    text = "\n".join(lines[start:end]).split("=", 1)[1]
    X = eval(text, {"np": np})  # noqa: S307 -- the verdict's own text
    assert np.array_equal(X, check.case_inputs("radius", "random 1")["X"])
    assert X.dtype == np.float64 and len(np.unique(X)) == X.size  # real random numbers, all of them
    expected = float(out.split("expected: ")[1].splitlines()[0])
    assert expected == result.expected  # the answer too, to the last bit


def test_large_inputs_say_how_to_get_them(capsys, monkeypatch):
    monkeypatch.setattr(check, "PRINT_LIMIT", 1)
    result = check.radius(lambda X: 0.0)
    out = capsys.readouterr().out
    assert "X = an array of shape (1, 2), too large to print here" in out
    assert "check.case_inputs('radius', 'one point')['X']" in out
    assert np.array_equal(check.case_inputs("radius", "one point")["X"], result.inputs["X"])
    with pytest.raises(KeyError, match="no case"):
        check.case_inputs("radius", "nope")
    with pytest.raises(KeyError, match="there is no check.nope"):
        check.case_inputs("nope", "one point")


def test_literals_round_trip():
    values = [np.array([0.1, 1 / 3, -2e-300]), np.array([[1.5, 2.0], [3.0, 4.0]]),
              np.array([0.1, 0.7], dtype=np.float32), np.array([1, -2]), np.array([True, False]),
              np.zeros((0, 3)), np.array(2.5), 0.1, 1 / 3, np.float32(0.1), 7, True]
    for v in values:
        back = eval(check._literal(v), {"np": np})  # noqa: S307
        if isinstance(v, np.ndarray):
            assert back.dtype == v.dtype and back.shape == v.shape and np.array_equal(back, v)
        else:
            assert back == v and type(back) is type(v)
