"""The claims of the chapter "A first look" (book/first_look.ipynb), each checked by an independent
computation."""

from __future__ import annotations

import ast

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import perceptron_core as pc
from conftest import cell_source, notebook_cells
from oracles import prose, sweep


def test_the_slider_claim_and_the_opening_run():
    """'A smaller margin raises the bound steeply, but the mistake count moves much less', over
    the 30 settings; the opening run converges, the same in exact arithmetic, within its bound."""
    bounds, mistakes = [], []
    for g in np.round(np.arange(0.05, 0.501, 0.05), 2):
        for s in (0, 1, 2):
            X, y, _ = pc.planted(40, 2, gamma=g, R=1.0, seed=s)
            w, _, idx, _ = sweep(X, y)
            bounds.append(pc.novikoff_bound(pc.radius(X), pc.max_margin(X, y).gamma))
            mistakes.append(len(idx))
            assert len(idx) <= bounds[-1] and pc.perceptron(X, y).mistakes == len(idx)
    assert max(bounds) - min(bounds) > 10 * (max(mistakes) - min(mistakes))
    # The bound uses gamma*, not the planted gamma: planted 0.05 (data set 0) gives about 148.
    assert bounds[0] == pytest.approx(148.374, abs=1e-3) and pc.novikoff_bound(1.0, 0.05) == 400
    assert "{glue:text}`fl-slider-low-bound:.0f`" in prose("first_look")
    X, y, u = pc.planted(40, 2, gamma=0.1, R=1.0, seed=0)
    assert sweep(X, y, exact=True)[2] == sweep(X, y)[2]
    assert float(np.max(np.sum(X**2, axis=1))) - 1 < 1e-15  # within R, up to rounding


@given(st.floats(0.05, 0.5), st.integers(0, 10_000))
def test_exercise_scale_by_two_is_the_same_run(gamma, seed):
    """fl-ex-scale: doubling every point doubles w exactly, keeps the mistakes and the bound."""
    X, y, u = pc.planted(20, 3, gamma=gamma, R=1.0, seed=seed)
    run, run2 = pc.perceptron(X, y), pc.perceptron(2 * X, y)
    assert run2.mistakes == run.mistakes and run2.epochs == run.epochs
    np.testing.assert_array_equal(run2.w, 2 * run.w)
    b1 = pc.novikoff_bound(pc.radius(X), pc.max_margin(X, y).gamma)
    b2 = pc.novikoff_bound(pc.radius(2 * X), pc.max_margin(2 * X, y).gamma)
    assert b2 == pytest.approx(b1, rel=1e-6)


def test_exercise_dimension():
    """fl-ex-dimension: every run within its bound, every bound at most (1/0.1)² = 100; the
    solution says the planted margin 0.1 holds up to rounding (it does only that: in d = 2 the
    planted u's computed margin is 0.1 - 2.4e-16)."""
    bounds = []
    for d in (2, 10, 100):
        Xd, yd, ud = pc.planted(40, d, gamma=0.1, R=1.0, seed=0)
        assert abs(np.min(yd * (Xd @ ud)) - 0.1) < 1e-12  # margin 0.1, up to rounding
        run_d = pc.perceptron(Xd, yd)
        bound_d = pc.novikoff_bound(pc.radius(Xd), pc.max_margin(Xd, yd).gamma)
        assert run_d.converged and run_d.mistakes <= bound_d <= 100 * (1 + 1e-9)
        bounds.append(bound_d)
    assert "has margin $0.1$\n(up to rounding" in prose("first_look")
    # "the bounds need not even move in the same direction as d"
    assert not (bounds[0] <= bounds[1] <= bounds[2] or bounds[0] >= bounds[1] >= bounds[2])


def test_the_page_uses_nothing_but_numpy_and_the_course_library():
    """The promise "Python (with NumPy for the exercises) and a little linear algebra; nothing
    else": no code cell imports anything else (scikit-learn's pipelines, scalers and
    cross-validation belong to later chapters)."""
    modules = set()
    for cell in notebook_cells("first_look"):
        if cell["cell_type"] == "code":
            for node in ast.walk(ast.parse(cell_source(cell))):
                if isinstance(node, ast.Import):
                    modules |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom):
                    modules.add((node.module or "").split(".")[0])
    assert modules == {"numpy", "perceptron_core", "glue_numbers"}, modules
