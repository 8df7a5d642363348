"""Tests for the figures of the chapter "The convergence theorem" and the claims its prose makes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptron_core import (
    augment,
    iris_pair,
    max_margin,
    max_rounds,
    narrow_wedge,
    novikoff_bound,
    orthonormal_worst_case,
    perceptron,
    planted,
    radius,
)
from perceptron_core.figures import convergence as cf

# The slider grids of the chapter (book/convergence.ipynb); the tests draw their corners.
GRIDS = {
    cf.draw_invariants: {"gamma": [0.05, 0.25], "R": [1.0, 2.0]},
    cf.draw_survey: {"gamma": [0.05, 0.25], "n": [20, 500]},
    cf.draw_worst_case: {"n": [2, 30]},
    cf.draw_wedge: {"k": [0, 10]},
}


def _corners():
    for draw, grid in GRIDS.items():
        for values in itertools.product(*grid.values()):
            yield draw, dict(zip(grid, values))


@pytest.mark.parametrize(("draw", "params"), list(_corners()), ids=lambda v: getattr(v, "__name__", str(v)))
def test_draw_returns_figure_on_grid_corners(draw, params):
    fig = draw(**params)
    assert isinstance(fig, Figure)
    assert fig.axes


def test_bench_cases_are_the_chapter_figures():
    names = [name for name, _, _ in cf.BENCH_CASES]
    assert len(set(names)) == len(names) == 4
    for _, draw, params in cf.BENCH_CASES:
        assert isinstance(draw(**params), Figure)


# ---------------------------------------------------------------------------------------------
# shell_data: the chapter's hard data
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "d", "gamma", "R"), [(50, 2, 0.1, 1.0), (200, 10, 0.05, 2.0), (30, 5, 0.3, 0.5)])
def test_shell_data_has_the_stated_margin_and_radius(n, d, gamma, R):
    X, y, u = cf.shell_data(n, d, gamma, R, seed=3)
    assert np.allclose(np.linalg.norm(X, axis=1), R)
    s = y * (X @ u)
    assert np.isclose(s.min(), gamma) and s.max() <= min(2 * gamma, R) + 1e-12
    assert np.isclose(np.linalg.norm(u), 1.0)
    assert set(np.unique(y)) == {-1.0, 1.0}


def test_shell_data_is_deterministic_and_rejects_bad_input():
    a, b = cf.shell_data(20, 3, 0.1, seed=7), cf.shell_data(20, 3, 0.1, seed=7)
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    with pytest.raises(ValueError):
        cf.shell_data(10, 1, 0.1)
    with pytest.raises(ValueError):
        cf.shell_data(10, 3, 1.5, R=1.0)


# ---------------------------------------------------------------------------------------------
# The numbers the figures display agree with the package
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("gamma", [0.05, 0.1, 0.15, 0.2, 0.25])
@pytest.mark.parametrize("R", [1.0, 2.0])
def test_invariants_figure_run_obeys_both_lemmas(gamma, R):
    res, g, r = cf.invariants_run(gamma, R)
    assert np.isclose(g, gamma) and np.isclose(r, R)
    assert res.converged
    k = np.arange(1, res.mistakes + 1)
    assert np.all(res.history.progress >= k * g - 1e-9)
    assert np.all(res.history.norms_sq <= k * r**2 + 1e-9)
    assert res.mistakes <= novikoff_bound(r, g)
    title = cf.draw_invariants(gamma, R).axes[0].get_title()
    assert f"{res.mistakes} mistakes" in title and f"{novikoff_bound(r, g):.0f}" in title


def test_invariants_depend_only_on_gamma_over_R():
    # Scaling the data scales w_k and leaves the mistakes alone (exercise conv-ex-scale).
    a, _, _ = cf.invariants_run(0.05, 1.0)
    b, _, _ = cf.invariants_run(0.1, 2.0)
    assert a.mistakes == b.mistakes
    assert np.array_equal(a.history.indices, b.history.indices)


@pytest.mark.parametrize("gamma", [0.05, 0.15, 0.25])
@pytest.mark.parametrize("n", [20, 100, 500])
def test_survey_mistakes_below_each_data_sets_bound(gamma, n):
    for family in ("planted", "shell"):
        mistakes, bounds = cf.survey(gamma, n, family)
        assert len(mistakes) == cf.SURVEY_TRIALS
        assert np.all(mistakes <= bounds)
        # gamma* >= gamma, so each data set's bound is at most the planted one.
        assert np.all(bounds <= novikoff_bound(1.0, gamma) + 1e-6)


def test_survey_entry_matches_a_direct_run():
    mistakes, bounds = cf.survey(0.15, 100, "planted")
    X, y, _ = planted(100, cf.SURVEY_D, 0.15, seed=4)
    assert mistakes[4] == perceptron(X, y).mistakes
    assert np.isclose(bounds[4], novikoff_bound(radius(X), max_margin(X, y).gamma))


@pytest.mark.parametrize("n", [2, 6, 14, 30])
def test_worst_case_meets_the_bound_and_both_lemmas_with_equality(n):
    res, g, r = cf.worst_case_run(n)
    assert np.isclose(g, 1 / np.sqrt(n)) and r == 1.0
    assert res.mistakes == n == round(novikoff_bound(r, g))
    k = np.arange(1, n + 1)
    assert np.allclose(res.history.progress, k * g)
    assert np.allclose(res.history.norms_sq, k * r**2)
    assert f"{n} mistakes = (R/γ*)² = {n}" in cf.draw_worst_case(n).axes[0].get_title()


def test_wedge_table_numbers():
    t = cf.wedge_table()
    assert list(t["k"]) == list(range(cf.WEDGE_K_MAX + 1))
    # Mistakes double with every bit: exactly 2^(k+2) + 1 on this family.
    assert list(t["mistakes"]) == [2 ** (k + 2) + 1 for k in t["k"]]
    assert np.all(t["mistakes"] <= t["bound"])
    assert np.all(t["epochs"] <= t["rounds"])
    assert np.all(t["rounds"] == [max_rounds(r, g) for r, g in zip(t["R"], t["gamma"])])
    # The margin halves with every bit, so the bound grows about 4x per step.
    assert np.allclose(t["gamma"][2:] / t["gamma"][1:-1], 0.5, atol=0.03)
    assert np.allclose(t["bound"][-1] / t["bound"][-2], 4.0, atol=0.01)
    for i, w in enumerate(t["w_final"]):
        X, y = narrow_wedge(int(t["k"][i]))
        assert np.all(y * (X @ w) > 0)
    title = cf.draw_wedge(10).axes[1].get_title()
    assert f"{t['mistakes'][-1]} mistakes" in title and f"{t['bound'][-1]:.0f}" in title


# ---------------------------------------------------------------------------------------------
# Claims made in the prose
# ---------------------------------------------------------------------------------------------


def test_three_forms_are_equal():
    X, y, _ = planted(30, 2, 0.1, seed=3)
    f = cf.three_forms(X, y, scale=3.0)
    assert np.isclose(f["novikoff"], f["uml"]) and np.isclose(f["uml"], f["unnormalized"])
    assert np.isclose(f["B"], 1 / f["gamma"]) and np.isclose(f["norm_wB"], f["B"])
    assert np.isclose(f["min_fm_wB"], 1.0) and np.isclose(f["eps"], 3.0)
    assert f["gamma"] >= 0.1 and f["novikoff"] <= novikoff_bound(f["R"], 0.1)
    assert perceptron(X, y).mistakes <= f["novikoff"]


def test_demo_run_touches_both_bounds_at_the_first_mistake():
    X, y, u = cf.shell_data(200, 10, 0.1, seed=0)
    res = perceptron(X, y, u=u)
    k = np.arange(1, res.mistakes + 1)
    prog, grow = res.history.progress / (k * 0.1), res.history.norms_sq / k
    assert np.isclose(prog[0], 1.0) and np.isclose(grow[0], 1.0)
    assert prog.min() >= 1 - 1e-12 and grow.max() <= 1 + 1e-12
    assert prog[-1] > 1 and grow[-1] < 1


def test_tie_rule_changes_the_run_but_not_the_bound():
    X, y = orthonormal_worst_case(10)
    assert perceptron(X, y, tie="mistake").mistakes == 10
    assert perceptron(X, y, tie="positive").mistakes == int(np.sum(y < 0)) < 10
    # Balcan's rule (predict -1 at a tie) pays for the positive points instead.
    assert perceptron(X, y, tie="negative").mistakes == int(np.sum(y > 0)) < 10


def test_strict_rule_would_never_update():
    # At w = 0 every product y w.x is 0, never < 0: a strict rule stays at w = 0.
    X, y = orthonormal_worst_case(10)
    assert not np.any(y * (X @ np.zeros(10)) < 0)


def test_independence_table_stays_under_the_bound():
    rows = cf.independence_table(0.1, ((100, 10), (1000, 10), (200, 100)), seeds=3)
    assert all(m <= novikoff_bound(1.0, 0.1) for _, _, m in rows)


def test_offset_exercise_claims():
    X, y = iris_pair("setosa", "versicolor", features=(2, 3))
    Z1, Z2 = augment(X, 1.0), augment(X, 0.1)
    m1, m2 = perceptron(Z1, y).mistakes, perceptron(Z2, y).mistakes
    assert m1 == perceptron(X, y, offset=True).mistakes
    b1 = novikoff_bound(radius(Z1), max_margin(Z1, y).gamma)
    b2 = novikoff_bound(radius(Z2), max_margin(Z2, y).gamma)
    assert m1 <= b1 and m2 <= b2 and b2 > 10 * b1 and m2 > 10 * m1
