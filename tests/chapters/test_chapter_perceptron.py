"""The claims of the chapter "The perceptron" (book/perceptron.ipynb), each checked by an
independent computation: the reference sweep of oracles.py (in floats and in exact fractions),
scikit-learn, a hard-margin SVM, or a loop written here."""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from oracles import prose, sweep
from scipy.sparse import csr_matrix
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.svm import SVC

from perceptron_core import (ConvergenceWarning, flip_labels, iris_pair, max_margin,
                             novikoff_bound, online_perceptron, perceptron, planted, radius,
                             separability)

X, Y, _ = planted(16, 2, 0.03, seed=6)  # the running example, as the chapter makes it
SK = dict(shuffle=False, tol=None, eta0=1.0, penalty=None)


def fresh_points(gamma, rng):
    u = np.array([np.cos(0.5), np.sin(0.5)])
    while True:
        x = rng.uniform(-1.0, 1.0, size=2)
        if x @ x <= 1.0 and abs(u @ x) >= gamma:
            yield x, np.sign(u @ x)


def test_the_online_runs_last_mistake_is_the_last_one_ever():
    """4 mistakes in 5000 rounds, the last in round 3297; the final w is within arcsin(γ) of u,
    so no point of the stream can be a mistake: checked on 100 000 more points."""
    stream = fresh_points(0.1, np.random.default_rng(0))
    steps = list(itertools.islice(online_perceptron(stream), 5000))
    assert [s.t for s in steps if s.mistake] == [1, 7, 3265, 3297]
    w, u = steps[-1].w, np.array([np.cos(0.5), np.sin(0.5)])
    theta = math.acos(w @ u / np.linalg.norm(w))
    assert theta < math.asin(0.1)
    # The prose's step: over a = y u.x in [γ, 1], a cos θ - sqrt(1 - a²) sin θ is least at a = γ.
    a = np.linspace(0.1, 1.0, 10_001)
    low = a * math.cos(theta) - np.sqrt(1 - a**2) * math.sin(theta)
    assert np.argmin(low) == 0 and low[0] > 0
    assert low[0] == pytest.approx(math.sin(math.asin(0.1) - theta))
    more = np.array([x for x, _ in itertools.islice(stream, 100_000)])
    assert np.all(np.sign(more @ u) * (more @ w) > 0)
    assert len(steps) == 5000 and novikoff_bound(1.0, 0.1) == pytest.approx(100)


def test_the_running_example_and_its_run():
    w, _, idx, epochs = sweep(X, Y)
    assert (len(idx), epochs) == (15, 7)  # glued as per-M, per-epochs
    run = perceptron(X, Y, record=True)
    assert run.history.indices.tolist() == idx and np.array_equal(run.w, w)
    # The same updates in exact arithmetic: the run does not hinge on a rounding.
    assert sweep(X, Y, exact=True)[2] == idx
    assert 0 < np.max(np.sum(X**2, axis=1)) - 1 < 1e-15  # "in the unit disc, up to rounding"
    # The update lemma on every update, and 4 updates that leave their point a mistake.
    W = np.cumsum(np.vstack([np.zeros(2), Y[idx, None] * X[idx]]), axis=0)
    assert np.array_equal(W[-1], w)
    before = np.array([Y[i] * (W[k] @ X[i]) for k, i in enumerate(idx)])
    after = np.array([Y[i] * (W[k + 1] @ X[i]) for k, i in enumerate(idx)])
    assert np.all(before <= 0) and np.max(np.abs(after - before - np.sum(X[idx]**2, 1))) < 1e-12
    assert np.sum(after <= 0) == 4
    # The batch run is the online run over the data repeated, bit for bit.
    last = list(itertools.islice(online_perceptron(itertools.cycle(zip(X, Y))), 7 * 16))[-1]
    assert last.mistakes == 15 and np.array_equal(last.w, w)


def test_watching_a_run_claims():
    """5 points cause updates, 3 after the first epoch, all among the 4 nearest the maximum-margin
    line (a hard-margin SVM, not the package, finds it); 7 updates lower the number of wrong
    points, 7 keep it, 1 raises it; the cosine with u* rises from below 0.2 to above 0.99 but
    falls at 7 updates."""
    _, _, idx, _ = sweep(X, Y)
    first_epoch = idx[: next(k for k in range(1, len(idx)) if idx[k] <= idx[k - 1])]
    late = set(idx[len(first_epoch):])
    assert (len(set(idx)), len(late)) == (5, 3)
    svm = SVC(kernel="linear", C=1e8, tol=1e-10).fit(np.vstack([X, -X]), np.r_[Y, -Y])
    u = svm.coef_[0] / np.linalg.norm(svm.coef_[0])  # symmetric data: no intercept
    assert np.min(Y * (X @ u)) == pytest.approx(max_margin(X, Y).gamma, rel=1e-4)
    assert late <= set(np.argsort(Y * (X @ u))[:4].tolist())
    assert not late <= set(np.argsort(Y * (X @ u))[:3].tolist())
    W = np.cumsum(np.vstack([np.zeros(2), Y[idx, None] * X[idx]]), axis=0)
    step = np.diff([np.sum(Y * (X @ w) <= 0) for w in W])
    assert (np.sum(step < 0), np.sum(step == 0), np.sum(step > 0)) == (7, 7, 1)
    cos = [w @ u / np.linalg.norm(w) for w in W[1:]]
    assert cos[0] < 0.2 and cos[-1] > 0.99 and np.sum(np.diff(cos) < 0) == 7


def test_the_tie_example():
    """Integer data: every score is exact in floats, and the exact sweep agrees. Counting a tie:
    2 mistakes, w = (1, -1), both margins positive; predicting +1: 1 mistake, w = (0, -1), x_1 on
    the boundary. Balcan's rule: 1 mistake at w = (1, 0), the CS229 run on -y negated. R = 1 and
    γ* = 1/√2, so the bound is 2, met by the first run."""
    Xt, yt = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    for rule, m, w_end in (("mistake", 2, [1, -1]), ("positive", 1, [0, -1]), ("negative", 1, [1, 0])):
        w, _, idx, _ = sweep(Xt, yt, tie=rule, exact=True)
        run = perceptron(Xt, yt, tie=rule, record=True)
        assert len(idx) == run.mistakes == m and np.array_equal(run.w, w_end) and np.array_equal(w, w_end)
    assert np.array_equal(perceptron(Xt, -yt, tie="positive").w, [-1, 0])
    assert max_margin(Xt, yt).gamma == pytest.approx(1 / math.sqrt(2))
    assert novikoff_bound(radius(Xt), max_margin(Xt, yt).gamma) == pytest.approx(2)


@pytest.mark.parametrize("seed", range(4))
def test_every_tie_rule_obeys_the_bound(seed):
    X, y, _ = planted(12, 3, 0.2, seed=seed)
    X = np.round(X * 4) / 4  # quarters: exact scores, frequent ties
    if not separability(X, y).separable:
        pytest.skip("rounding broke separability")
    bound = novikoff_bound(radius(X), max_margin(X, y).gamma)
    for rule in ("mistake", "positive", "negative"):
        assert len(sweep(X, y, tie=rule, exact=True)[2]) <= bound * (1 + 1e-9)


@pytest.mark.parametrize("T", [1, 2, 5, 20])
def test_scikit_learn_makes_the_same_runs_bit_for_bit(T):
    """The 8 comparisons of the chapter: Iris (separable) and the running example with 2 labels
    flipped (not separable, even with an offset)."""
    yf = flip_labels(Y, 0.125, seed=0)
    assert np.sum(yf != Y) == 2 and not separability(X, yf, offset=True).separable
    Xi, yi = iris_pair("setosa", "versicolor", features=(2, 3))
    assert separability(Xi, yi, offset=True).separable
    for Xd, yd in ((Xi, yi), (X, yf)):
        sk = SkPerceptron(max_iter=T, **SK).fit(Xd, yd)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            ours = perceptron(Xd, yd, offset=True, max_epochs=T)
        assert np.array_equal(sk.coef_[0], ours.w) and sk.intercept_[0] == ours.b


def test_on_sparse_input_scikit_learn_damps_the_offset():
    """Bit for bit holds for dense input only: on a csr_matrix scikit-learn multiplies each update
    of b by 0.01 (one update from 0 on the label +1 gives b = 0.01), and on Iris its offset after
    20 epochs is not ours."""
    one = SkPerceptron(max_iter=1, **SK).fit(csr_matrix([[1.0], [-1.0]]), [1, -1])
    assert one.intercept_[0] == pytest.approx(0.01, rel=1e-12)
    Xi, yi = iris_pair("setosa", "versicolor", features=(2, 3))
    dense = SkPerceptron(max_iter=20, **SK).fit(Xi, yi)
    sparse = SkPerceptron(max_iter=20, **SK).fit(csr_matrix(Xi), yi)
    assert dense.intercept_[0] == perceptron(Xi, yi, offset=True, max_epochs=20).b
    assert sparse.intercept_[0] != dense.intercept_[0]
    assert "`scipy.sparse` matrix" in prose("perceptron")


def test_the_five_points_where_the_order_of_addition_parts_the_runs():
    """Replayed here: scikit-learn is the sweep with b added last, perceptron_core with b first.
    They agree for 4 epochs and part in epoch 5 at point 2, where the score is exactly 0.0 with b
    last and about -9e-17 with b first; in the data's decimals the updates give w = (1, -1.1,
    0.2), b = 1 and that score is exactly 0, while in the floats' binary values it is exactly
    about -1.2e-16. The whole run in the decimals (a tie a mistake) ends at scikit-learn's
    weights."""
    Xp = np.array([[0.4, -0.6, 0.8], [0.2, -0.5, 0.8], [-0.1, 0.8, -0.1],
                   [0.7, 0.3, -0.4], [-0.4, 0.9, 0.2]])
    yp = np.array([-1, 1, -1, 1, -1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        for T in (4, 5):
            sk = SkPerceptron(max_iter=T, **SK).fit(Xp, yp)
            ours = perceptron(Xp, yp, offset=True, max_epochs=T, record=True)
            w_last, b_last, _, _ = sweep(Xp, yp, offset=True, max_epochs=T, b_last=True)
            w_first, b_first, idx, _ = sweep(Xp, yp, offset=True, max_epochs=T)
            assert np.array_equal(sk.coef_[0], w_last) and sk.intercept_[0] == b_last
            assert np.array_equal(ours.w, w_first) and ours.b == b_first
            assert np.array_equal(ours.w, sk.coef_[0]) == (T == 4)
    assert idx[-2:] == [0, 1]  # epoch 5: updates at points 0 and 1, none after
    s = ours.b
    for xj, wj in zip(Xp[2], ours.w):
        s += xj * wj
    assert -1e-16 < s < 0
    dec = [[Fraction(str(v)) for v in row] for row in Xp]
    w_dec = [sum(yp[i] * dec[i][j] for i in idx) for j in range(3)]
    assert w_dec == [1, Fraction("-1.1"), Fraction("0.2")] and sum(yp[idx]) == 1
    assert 1 + sum(a * b for a, b in zip(dec[2], w_dec)) == 0
    in_binary = Fraction(ours.b) + sum(Fraction(a) * Fraction(b) for a, b in zip(Xp[2], ours.w))
    assert -2e-16 < in_binary < -1e-16
    w_d, b_d = [Fraction(0)] * 3, Fraction(0)
    for _ in range(5):
        for x_d, y_d in zip(dec, yp.tolist()):
            if y_d * (b_d + sum(a * b for a, b in zip(x_d, w_d))) <= 0:
                w_d, b_d = [b + y_d * a for a, b in zip(x_d, w_d)], b_d + y_d
    assert w_d == [Fraction("1.1"), Fraction("-1.9"), Fraction("0.3")] and b_d == 0
    assert np.allclose(sk.coef_[0], [1.1, -1.9, 0.3], rtol=0, atol=1e-12) and sk.intercept_[0] == 0


def test_the_prose_says_what_the_runs_now_are():
    text = prose("perceptron")
    assert "exact sign" not in text and "fooled" not in text
    assert "adds $b$ last" in text and "true tie" in text
    assert "ends at scikit-learn's weights" in text
    assert "1000 unless" not in text and "{glue:text}`per-max-epochs`" in text


def test_the_chapter_previews_the_bound_and_ends_with_its_one_float_section():
    """The mistake bound is stated and proved in convergence: here no theorem and no proof but
    the update lemma's. The floating-point section is the last before the Summary, and UML's
    ERM frame is named."""
    text = prose("perceptron")
    assert "prf:theorem" not in text and text.count("```{prf:proof}") == 1
    start, end = text.index("(numbers-on-a-computer)="), text.index("## Summary")
    assert start < end and "\n## " not in text[start + 30:end]
    words = " ".join(text.split())
    assert "*empirical risk minimisation* (ERM)" in words and "*realizable*" in words


def test_exercise_rate_the_step_size_matters_from_a_nonzero_start():
    """per-ex-rate's counterexample: from w0 = (-3/2, 0), the example ((1, 0), +1) shown twice
    costs 2 mistakes with r = 1 and 1 with r = 2, under every tie rule (no score is 0)."""
    counts = {}
    for r in (1, 2):
        w, counts[r] = np.array([-1.5, 0.0]), 0
        for x, y in [(np.array([1.0, 0.0]), 1)] * 2:
            score = y * (w @ x)
            assert score != 0  # no tie, so every tie rule makes the same run
            if score < 0:
                w, counts[r] = w + r * y * x, counts[r] + 1
    assert counts == {1: 2, 2: 1}
    assert "$w_0 = (-3/2, 0)$" in prose("perceptron")
