"""perceptron_core.figures.convergence: its four figures over the corners of their slider grids, the
numbers their titles show, and the hard data they draw (shell_data)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptron_core import novikoff_bound
from perceptron_core.figures import convergence as cf


def _ends(sliders: dict) -> dict:
    """The first and the last value of each slider of a grid."""
    return {name: [v[0], v[-1]] for name, v in cf.slider_values(sliders).items()}


# The slider grids of the chapter (book/convergence.ipynb passes cf.*_SLIDERS to explore());
# the tests draw their corners.
GRIDS = {
    cf.draw_invariants: _ends(cf.INVARIANTS_SLIDERS),
    cf.draw_survey: _ends(cf.SURVEY_SLIDERS),
    cf.draw_worst_case: _ends(cf.WORST_CASE_SLIDERS),
    cf.draw_wedge: _ends(cf.WEDGE_SLIDERS),
}


INVARIANTS_SETTINGS = list(itertools.product(*cf.slider_values(cf.INVARIANTS_SLIDERS).values()))


def _corners():
    for draw, grid in GRIDS.items():
        for values in itertools.product(*grid.values()):
            yield draw, dict(zip(grid, values))


@pytest.mark.parametrize(
    ("draw", "params"), list(_corners()), ids=lambda v: getattr(v, "__name__", str(v))
)
def test_draw_returns_figure_on_grid_corners(draw, params):
    fig = draw(**params)
    assert isinstance(fig, Figure)
    assert fig.axes


def test_alt_texts_state_what_the_figures_show():
    # The survey's alt text counts the data sets the figure really draws.
    assert f"on {2 * cf.SURVEY_TRIALS} random data sets" in cf.SURVEY_ALT
    assert len(cf.survey(0.25, 20, "planted")[0]) + len(cf.survey(0.25, 20, "shell")[0]) == (
        2 * cf.SURVEY_TRIALS
    )
    # No claim that the cosine rises at every mistake; the tie rule of the worst case is named.
    assert "rises towards 1" not in cf.INVARIANTS_ALT and "can fall" in cf.INVARIANTS_ALT
    assert "ties counted as mistakes" in cf.WORST_CASE_ALT
    for alt, params in ((cf.INVARIANTS_ALT, {"gamma": 0.1, "R": 1.0}),
                        (cf.SURVEY_ALT, {"gamma": 0.1, "n": 20}),
                        (cf.WORST_CASE_ALT, {"n": 6}), (cf.WEDGE_ALT, {"ell": 4})):
        assert "{" not in alt.format(**params)


@pytest.mark.parametrize(
    ("n", "d", "gamma", "R"), [(50, 2, 0.1, 1.0), (200, 10, 0.05, 2.0), (30, 5, 0.3, 0.5)]
)
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


@pytest.mark.parametrize(("gamma", "R"), INVARIANTS_SETTINGS)
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


@pytest.mark.parametrize("n", [2, 6, 14, 30])
def test_worst_case_meets_the_bound_and_both_lemmas_with_equality(n):
    res, g, r = cf.worst_case_run(n)
    assert np.isclose(g, 1 / np.sqrt(n)) and r == 1.0
    assert res.mistakes == n == round(novikoff_bound(r, g))
    k = np.arange(1, n + 1)
    assert np.allclose(res.history.progress, k * g)
    assert np.allclose(res.history.norms_sq, k * r**2)
    assert f"{n} mistakes = (R/γ*)² = {n}" in cf.draw_worst_case(n).axes[0].get_title()
