"""Tests for perceptron_core.figures.perceptron and the claims of book/perceptron.ipynb."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from matplotlib.figure import Figure

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


def _texts(fig: Figure) -> str:
    """All text drawn in a figure: titles, figure text, annotations, legend entries."""
    parts = [t.get_text() for t in fig.texts]
    for ax in fig.axes:
        parts += [ax.get_title(), *(t.get_text() for t in ax.texts)]
        legend = ax.get_legend()
        if legend is not None:
            parts += [t.get_text() for t in legend.get_texts()]
    return "\n".join(parts)


# ---- the running example and its figure -------------------------------------------------------


def test_running_example_facts():
    X, y = figs.running_data()
    run = figs.running_run()
    assert X.shape == (figs.RUN_N, 2)
    assert run.converged and run.mistakes == 15 and run.epochs == 7
    # The slider k = 0..M must fit the frame budget of explore.
    assert run.mistakes + 1 <= 40
    assert radius(X) <= 1.0 + 1e-12
    assert run.mistakes <= novikoff_bound(radius(X), max_margin(X, y).gamma)


@pytest.mark.parametrize("k", [0, 1, 7, 15])
def test_draw_update_returns_figure_with_the_run_numbers(k):
    X, y = figs.running_data()
    run = figs.running_run()
    fig = figs.draw_update(k)
    assert isinstance(fig, Figure)
    text = _texts(fig)
    w_k = figs.weights_after(k)
    wrong = int(np.sum(y * (X @ w_k) <= 0))
    if wrong == 0:
        assert f"separates all {len(y)} points" in text
    else:
        assert f"still gets {wrong} of {len(y)} points wrong" in text
    assert f"({w_k[0]:.2f}, {w_k[1]:.2f})" in text
    if k > 0:
        i = int(run.history.indices[k - 1])
        assert f"point {i} " in text and f"epoch {int(run.history.epochs[k - 1])}" in text
        before, after = y[i] * (figs.weights_after(k - 1) @ X[i]), y[i] * (w_k @ X[i])
        assert f"{before:+.3f}" in text and f"{after:+.3f}" in text
        assert f"of {run.mistakes}" in text


def test_draw_update_last_frame_separates_and_first_frame_has_no_boundary():
    assert "separates all" in _texts(figs.draw_update(figs.running_run().mistakes))
    assert "no boundary yet" in _texts(figs.draw_update(0))


def test_weights_after_range():
    run = figs.running_run()
    np.testing.assert_array_equal(figs.weights_after(0), [0.0, 0.0])
    np.testing.assert_array_equal(figs.weights_after(run.mistakes), run.w)
    for bad in (-1, run.mistakes + 1):
        with pytest.raises(ValueError):
            figs.weights_after(bad)


def test_watching_a_run_claims():
    """'Only 5 points cause updates, 3 after epoch 1; the error count rises once; w turns to u*.'"""
    X, y = figs.running_data()
    run = figs.running_run()
    h = run.history
    assert len(set(h.indices.tolist())) == 5
    assert len(set(h.indices[h.epochs > 1].tolist())) == 3
    wrong = [int(np.sum(y * (X @ figs.weights_after(k)) <= 0)) for k in range(run.mistakes + 1)]
    assert int(np.sum(np.diff(wrong) > 0)) == 1
    u = max_margin(X, y).w
    cos = [figs.weights_after(k) @ u / np.linalg.norm(figs.weights_after(k)) for k in range(1, run.mistakes + 1)]
    assert cos[-1] > 0.99 > 0.2 > cos[0]
    assert not np.all(np.diff(cos) >= 0)  # "though not monotonically"


# ---- the update lemma ----------------------------------------------------------------------------


def test_update_raises_score_by_squared_norm_on_the_run():
    X, y = figs.running_data()
    run = figs.running_run()
    before, after, sq = figs.update_scores(run, X, y)
    assert np.all(before <= 0)  # every update is at a mistake
    np.testing.assert_allclose(after - before, sq, rtol=0, atol=1e-12)
    assert int(np.sum(after <= 0)) == 4  # updates that leave their point a mistake


def test_update_scores_needs_history():
    X, y = figs.running_data()
    with pytest.raises(ValueError):
        figs.update_scores(perceptron(X, y), X, y)


def test_update_lemma_random():
    rng = np.random.default_rng(1)
    for _ in range(100):
        w, x = rng.normal(size=5), rng.normal(size=5)
        yv = rng.choice([-1.0, 1.0])
        assert np.isclose(yv * (w + yv * x) @ x, yv * w @ x + x @ x)
        b = rng.normal()
        assert np.isclose(yv * ((w + yv * x) @ x + b + yv), yv * (w @ x + b) + x @ x + 1)


def test_batch_is_online_over_repeated_data():
    X, y = figs.running_data()
    run = figs.running_run()
    steps = list(itertools.islice(online_perceptron(itertools.cycle(zip(X, y))), run.epochs * len(y)))
    assert steps[-1].mistakes == run.mistakes
    np.testing.assert_array_equal(steps[-1].w, run.w)


# ---- the online stream ---------------------------------------------------------------------------


def test_margin_stream_has_radius_and_margin():
    u = np.array([np.cos(0.5), np.sin(0.5)])
    for x, label in itertools.islice(figs.margin_stream(0.1, seed=3), 2000):
        assert x @ x <= 1.0
        assert label * (u @ x) >= 0.1
    with pytest.raises(ValueError):
        next(figs.margin_stream(0.0))


def test_online_stream_numbers_and_bound():
    steps = list(itertools.islice(online_perceptron(figs.margin_stream(0.1, seed=0)), 5000))
    hits = [s.t for s in steps if s.mistake]
    assert hits == [1, 7, 3265, 3297]
    for seed in range(5):
        steps = list(itertools.islice(online_perceptron(figs.margin_stream(0.2, seed=seed)), 3000))
        assert steps[-1].mistakes <= novikoff_bound(1.0, 0.2)


# ---- ties ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["mistake", "positive"])
def test_draw_tie(rule):
    fig = figs.draw_tie(rule)
    assert isinstance(fig, Figure)
    run = figs.tie_run(rule)
    assert f"{run.mistakes} mistake" in _texts(fig)


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


# ---- scikit-learn -------------------------------------------------------------------------------


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
    assert not separability(X, yf, offset=True).separable


# ---- exercises ----------------------------------------------------------------------------------


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


@pytest.mark.parametrize("name, draw, params", figs.BENCH_CASES)
def test_bench_cases_draw(name, draw, params):
    assert isinstance(draw(**params), Figure)
