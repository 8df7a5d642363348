"""The claims of the chapter "The perceptron" (book/perceptron.ipynb), each checked by an independent
computation: exact rational arithmetic, scikit-learn, or a loop written here."""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

from perceptron_core import (
    ConvergenceWarning,
    flip_labels,
    iris_pair,
    margins,
    max_margin,
    novikoff_bound,
    online_perceptron,
    perceptron,
    planted,
    radius,
)
from perceptron_core.figures import perceptron as figs

from conftest import display_edge_distance, markdown_text, reference_perceptron


def _exact_is_mistake(s: Fraction, label: int, tie: str) -> bool:
    # s = y (w·x) in exact arithmetic; at s = 0 the tie rule decides.
    if s != 0:
        return s < 0
    return tie == "mistake" or (tie == "positive" and label < 0) or (
        tie == "negative" and label > 0)


def _exact_online(stream, tie="mistake"):
    """The online perceptron in exact rational arithmetic: the rounds with a mistake."""
    w = None
    hits = []
    for t, (x, label) in enumerate(stream, start=1):
        x = [Fraction(float(v)) for v in x]
        label = int(label)
        w = [Fraction(0)] * len(x) if w is None else w
        if _exact_is_mistake(label * sum(a * b for a, b in zip(w, x)), label, tie):
            w = [a + label * b for a, b in zip(w, x)]
            hits.append(t)
    return hits


def test_running_example_facts():
    X, y = figs.running_data()
    run = figs.running_run()
    assert X.shape == (figs.RUN_N, 2)
    assert run.converged and run.mistakes == 15 and run.epochs == 7
    # The slider k = 0..M must fit the frame budget of explore.
    assert run.mistakes + 1 <= 40
    assert radius(X) <= 1.0 + 1e-12
    assert run.mistakes <= novikoff_bound(radius(X), max_margin(X, y).gamma)


def test_watching_a_run_claims():
    """The facts the chapter glues about the running example, recomputed independently."""
    X, y = figs.running_data()
    run = figs.running_run()
    h = run.history
    facts = figs.running_facts()
    assert all(type(v) in (int, float) for v in facts.values())  # plain values for glue
    assert facts["n"] == 16 and facts["M"] == 15 and facts["epochs"] == 7
    assert facts["n_updated"] == len(set(h.indices.tolist())) == 5
    assert facts["n_late"] == len(set(h.indices[h.epochs > 1].tolist())) == 3
    wrong = [int(np.sum(y * (X @ figs.weights_after(k)) <= 0)) for k in range(run.mistakes + 1)]
    step = np.diff(wrong)
    assert (facts["n_better"], facts["n_same"], facts["n_worse"]) == (7, 7, 1)
    assert facts["n_better"] == int(np.sum(step < 0)) and facts["n_worse"] == int(np.sum(step > 0))
    assert facts["n_better"] + facts["n_same"] + facts["n_worse"] == run.mistakes
    # An independent maximum-margin direction (scikit-learn's hard-margin SVM, no intercept):
    # "all late points are among the late_rank points nearest the max-margin line".
    from sklearn.svm import LinearSVC

    svm = LinearSVC(C=1e6, fit_intercept=False, loss="hinge", dual=True, max_iter=1_000_000,
                    tol=1e-12).fit(X, y)
    u = svm.coef_[0] / np.linalg.norm(svm.coef_[0])
    assert np.isclose(np.min(y * (X @ u)), facts["gamma_star"], rtol=1e-3)
    nearest = set(np.argsort(y * (X @ u))[: facts["late_rank"]].tolist())
    assert set(h.indices[h.epochs > 1].tolist()) <= nearest
    assert facts["late_rank"] == 4
    cos = [figs.weights_after(k) @ u / np.linalg.norm(figs.weights_after(k))
           for k in range(1, run.mistakes + 1)]
    assert np.isclose(cos[0], facts["cos_first"], atol=1e-3)
    assert np.isclose(cos[-1], facts["cos_last"], atol=1e-3)
    assert cos[-1] > 0.99 > 0.2 > cos[0]
    assert facts["n_cos_down"] == int(np.sum(np.diff(cos) < 0)) == 7  # "though it falls at 7"
    assert facts["bound"] == pytest.approx(novikoff_bound(1.0, facts["gamma_star"]))
    assert facts["R"] == pytest.approx(radius(X)) and facts["R"] <= 1.0 + 1e-12


def test_running_run_agrees_with_exact_arithmetic():
    """The mistake count and order cannot hinge on the rounding of one dot product."""
    X, y = figs.running_data()
    run = figs.running_run()
    ref = reference_perceptron(X, y, exact=True, max_epochs=1000)
    hits, w, epochs = ref.indices, ref.w, ref.epochs
    assert hits == run.history.indices.tolist() and epochs == run.epochs
    np.testing.assert_allclose([float(v) for v in w], run.w, rtol=1e-12)


@pytest.mark.parametrize("name, value, decimals", [
    ("gamma_star", "gamma_star", 4), ("bound", "bound", 1), ("cos_first", "cos_first", 3),
    ("cos_last", "cos_last", 4)])
def test_glued_floats_are_far_from_a_display_edge(name, value, decimals):
    # The prose shows these with a fixed number of decimals; a last-bit change must not flip one.
    assert display_edge_distance(figs.running_facts()[value], decimals) > 1e-6


def test_tie_numbers_are_far_from_a_display_edge():
    X, y = figs.tie_data()
    gamma = max_margin(X, y).gamma
    assert display_edge_distance(gamma, 4) > 1e-6
    assert display_edge_distance(novikoff_bound(radius(X), gamma), 0) > 1e-6


def test_update_raises_score_by_squared_norm_on_the_run():
    X, y = figs.running_data()
    run = figs.running_run()
    before, after, sq = figs.update_scores(run, X, y)
    assert np.all(before <= 0)  # every update is at a mistake
    np.testing.assert_allclose(after - before, sq, rtol=0, atol=1e-12)
    assert int(np.sum(after <= 0)) == 4  # updates that leave their point a mistake


def test_batch_is_online_over_repeated_data():
    X, y = figs.running_data()
    run = figs.running_run()
    steps = list(itertools.islice(online_perceptron(itertools.cycle(zip(X, y))), run.epochs * len(y)))
    assert steps[-1].mistakes == run.mistakes
    np.testing.assert_array_equal(steps[-1].w, run.w)


def test_online_stream_last_mistake_is_the_last_one_ever():
    """Prose: the final w is within arcsin(gamma) of u, so no point of the stream is a mistake.

    Checked three ways: the angle, the inequality y w.x/|w| >= sin(arcsin(gamma) - theta) on
    the stream's points, and no mistake on the next 100 000 fresh points.
    """
    gamma = 0.1
    stream = figs.margin_stream(gamma, seed=0)
    steps = list(itertools.islice(online_perceptron(stream), 5000))
    w = steps[-1].w
    u = figs.stream_normal()
    theta = math.acos(float(w @ u / np.linalg.norm(w)))
    assert theta < math.asin(gamma)
    floor = math.sin(math.asin(gamma) - theta)
    more = np.array([x for x, _ in itertools.islice(stream, 100_000)])
    labels = np.sign(more @ u)
    assert np.all(labels * (more @ u) >= gamma) and np.all(np.einsum("ij,ij->i", more, more) <= 1)
    scores = labels * (more @ w) / np.linalg.norm(w)
    assert np.all(scores >= floor * (1 - 1e-12)) and floor > 0


def test_sklearn_does_not_warn_with_tol_none_and_we_do():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import Perceptron as SkPerceptron

    X, y = figs.running_data()
    yf = flip_labels(y, 0.125, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SkPerceptron(shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=2).fit(X, yf)
    with pytest.warns(ConvergenceWarning):
        perceptron(X, yf, offset=True, max_epochs=2)


def test_online_stream_numbers_and_bound():
    steps = list(itertools.islice(online_perceptron(figs.margin_stream(0.1, seed=0)), 5000))
    hits = [s.t for s in steps if s.mistake]
    assert hits == [1, 7, 3265, 3297]
    # The same rounds in exact arithmetic: the count does not hinge on rounding.
    assert _exact_online(itertools.islice(figs.margin_stream(0.1, seed=0), 5000)) == hits
    for seed in range(5):
        steps = list(itertools.islice(online_perceptron(figs.margin_stream(0.2, seed=seed)), 3000))
        assert steps[-1].mistakes <= novikoff_bound(1.0, 0.2)


def test_tie_rule_changes_the_run():
    X, y = figs.tie_data()
    strict, lenient = figs.tie_run("mistake"), figs.tie_run("positive")
    assert strict.mistakes == 2 and strict.history.indices.tolist() == [0, 1]
    assert lenient.mistakes == 1 and lenient.history.indices.tolist() == [1]
    np.testing.assert_array_equal(strict.w, [1.0, -1.0])
    np.testing.assert_array_equal(lenient.w, [0.0, -1.0])
    # Counting ties: the output separates strictly. Predicting +1 at 0: x_1 sits on the boundary.
    assert np.all(margins(X, y, strict.w) > 0)
    assert margins(X, y, lenient.w)[0] == 0
    bound = novikoff_bound(radius(X), max_margin(X, y).gamma)
    assert np.isclose(bound, 2.0)
    assert strict.mistakes <= bound + 1e-9 and lenient.mistakes <= bound


def _balcan(X, y, max_epochs=1000):
    """Balcan's rule by hand: predict +1 iff w·x > 0, cycled until a clean epoch."""
    w = np.zeros(X.shape[1])
    mistakes = 0
    for _ in range(max_epochs):
        clean = True
        for x, label in zip(X, y):
            pred = 1.0 if w @ x > 0 else -1.0
            if pred != label:
                w = w + label * x
                mistakes += 1
                clean = False
        if clean:
            return w, mistakes
    raise AssertionError("no convergence")


@pytest.mark.parametrize("seed", range(6))
def test_both_tie_rules_and_balcan_obey_the_bound(seed):
    # Small integer-ish data make ties frequent.
    X, y, _ = planted(12, 3, 0.2, seed=seed)
    X = np.round(X * 4) / 4
    try:
        mm = max_margin(X, y)
    except ValueError:
        pytest.skip("rounding broke separability")
    bound = novikoff_bound(radius(X), mm.gamma)
    for rule in ("mistake", "positive"):
        assert perceptron(X, y, tie=rule).mistakes <= bound + 1e-9
    w_b, m_b = _balcan(X, y)
    assert m_b <= bound + 1e-9
    # Exercise per-ex-balcan: Balcan on (X, y) is CS229 on (X, -y), negated.
    cs = perceptron(X, -y, tie="positive")
    assert cs.mistakes == m_b
    np.testing.assert_array_equal(0 - cs.w, w_b)


def test_balcan_on_tie_example():
    X, y = figs.tie_data()
    w_b, m_b = _balcan(X, y)
    assert m_b == 1
    np.testing.assert_array_equal(w_b, [1.0, 0.0])
    assert margins(X, y, w_b)[1] == 0  # the boundary passes through x_2


def test_balcan_exercise_in_the_package():
    X, y = figs.tie_data()
    balcan = perceptron(X, y, tie="negative", record=True)
    w_b, m_b = _balcan(X, y)
    assert balcan.mistakes == m_b == 1 and balcan.history.indices.tolist() == [0]
    np.testing.assert_array_equal(balcan.w, w_b)
    np.testing.assert_array_equal(balcan.w, [1.0, 0.0])


def test_text_names_sources_and_states_the_fixed_claims():
    text = markdown_text("perceptron")
    for bad in ("3-case", "three-case", "seeds", "notes 004", "but not this rule",
                "Nothing is lost"):
        assert bad not in text, bad
    assert "## The mistake bound" in text  # the main theorem has its own section
    bound_section = text.split("## The mistake bound")[1].split("\n## ")[0]
    assert ":label: per-thm-bound" in bound_section
    ties = text.split("## What a tie is")[1].split("\n## ")[0]
    assert "prf:theorem" not in ties
    assert "On this stream that was the last one ever" in text  # see the test of the angle
    assert "(R^2 + 1)(1 + b^2)/\\gamma^2" in text  # the offset bound, stated correctly
    assert "1000 unless" not in text and "{glue:text}`per-max-epochs`" in text
    # notation: T is a number of epochs only, never the index of a loop
    assert "For $t = 1, \\dots, T$" not in text and "\\epsilon" not in text.replace(
        "U^2\\|w^*\\|^2/\\epsilon^2", "").replace("is at least $\\epsilon$", "")


@pytest.mark.parametrize("name", ["iris", "flipped", "running"])
@pytest.mark.parametrize("T", [1, 2, 5, 20])
def test_sklearn_same_weights_bit_for_bit(name, T):
    pytest.importorskip("sklearn")
    from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
    from sklearn.linear_model import Perceptron as SkPerceptron

    X, y = figs.running_data()
    data = {
        "iris": iris_pair("setosa", "versicolor", features=(2, 3)),
        "flipped": (X, flip_labels(y, 0.125, seed=0)),
        "running": (X, y),
    }
    Xd, yd = data[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = SkPerceptron(shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=T).fit(Xd, yd)
        ours = perceptron(Xd, yd, offset=True, max_epochs=T)
    np.testing.assert_array_equal(sk.coef_[0], ours.w)
    assert sk.intercept_[0] == ours.b


def test_flipped_data_is_not_separable():
    from perceptron_core import separability

    X, y = figs.running_data()
    yf = flip_labels(y, 0.125, seed=0)
    assert int(np.sum(yf != y)) == 2
    assert separability(X, yf, offset=True).separable is False
    # "Iris setosa against versicolor on the petal measurements (separable)"
    Xi, yi = iris_pair("setosa", "versicolor", features=(2, 3))
    assert separability(Xi, yi, offset=True).separable is True


def test_exercise_repeat_formula():
    steps = list(online_perceptron([([3.0, 0.0], 1)] + [([1.0, 0.0], -1)] * 6))
    assert [s.mistake for s in steps] == [True, True, True, True, True, False, False]
    rng = np.random.default_rng(2)
    for _ in range(50):
        w, x = rng.normal(size=3), rng.normal(size=3)
        label = rng.choice([-1.0, 1.0])
        s = label * (w @ x)
        if s > 0:
            continue
        count = 0
        while label * (w @ x) <= 0:
            w = w + label * x
            count += 1
        assert count == int(np.floor(-s / (x @ x))) + 1


def test_exercise_step_size_scales_weights():
    X, y = figs.running_data()
    for eta in (0.01, 3.0):
        w, mistakes = np.zeros(2), []
        for _ in range(figs.running_run().epochs):
            for i, (x, label) in enumerate(zip(X, y)):
                if label * (w @ x) <= 0:
                    w = w + eta * label * x
                    mistakes.append(i)
        assert mistakes == figs.running_run().history.indices.tolist()
        np.testing.assert_allclose(w, eta * figs.running_run().w, rtol=1e-12)
    # "for eta a power of two the runs agree exactly"
    w = np.zeros(2)
    for _ in range(figs.running_run().epochs):
        for x, label in zip(X, y):
            if label * (w @ x) <= 0:
                w = w + 0.5 * label * x
    np.testing.assert_array_equal(w, 0.5 * figs.running_run().w)


def test_exercise_order_runs_stay_within_bound():
    X, y = figs.running_data()
    bound = novikoff_bound(radius(X), max_margin(X, y).gamma)
    rng = np.random.default_rng(0)
    counts = set()
    for _ in range(5):
        p = rng.permutation(len(y))
        r = perceptron(X[p], y[p])
        assert r.converged and r.mistakes <= bound
        assert np.all(y[p] * (X[p] @ r.w) > 0)
        counts.add(r.mistakes)
    assert len(counts) > 1  # the order does change the run


def _exact_score(x, w, b) -> Fraction:
    return sum((Fraction(float(p)) * Fraction(float(q)) for p, q in zip(x, w)), Fraction(float(b)))


def test_sklearn_and_perceptron_part_on_a_near_tie():
    """The prose: the decisions differ (float sign vs exact sign), and on this example the runs
    part. Replays the sweep with exact scores, independently of the package."""
    pytest.importorskip("sklearn")
    from sklearn.linear_model import Perceptron as SkPerceptron

    X, y, T = figs.parting_data()
    sk = SkPerceptron(shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=T).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = perceptron(X, y, offset=True, max_epochs=T)
    assert not np.array_equal(sk.coef_[0], ours.w)
    np.testing.assert_allclose(sk.coef_[0], [1.1, -1.9, 0.3], atol=1e-12)
    np.testing.assert_allclose(ours.w, [1.0, -1.1, 0.2], atol=1e-12)
    assert ours.b == 1.0 and sk.intercept_[0] == 0.0
    # Independent replay: exact decisions (Fractions), float sums for the weights.
    w, b, seen = np.zeros(3), 0.0, None
    for epoch in range(1, T + 1):
        for i in range(len(y)):
            exact = _exact_score(X[i], w, b)
            floated = float(X[i] @ w + b)
            if seen is None and (y[i] * floated <= 0) != (y[i] * exact <= 0):
                seen = (epoch, i, floated, exact)
            if y[i] * exact <= 0:
                w, b = w + y[i] * X[i], b + y[i]
    np.testing.assert_array_equal(w, ours.w)
    assert b == ours.b
    epoch, i, floated, exact = seen
    assert (epoch, i) == (5, 2) and y[i] == -1
    assert floated == 0.0 and exact < 0 and abs(float(exact)) < 1e-15
    part = figs.first_parting(X, y, T)
    assert (part["epoch"], part["index"], part["label"]) == (epoch, i, -1)
    assert part["exact_score"] == exact and part["float_score"] == floated


def test_running_example_in_unit_disc_only_up_to_rounding():
    """The prose: all points lie in the unit disc up to rounding (the largest norm exceeds 1
    by a rounding error)."""
    X, _ = figs.running_data()
    excess = float(np.max(np.sum(X**2, axis=1)) - 1)
    assert 0 < excess < 1e-15
