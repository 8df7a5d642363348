"""perceptron_core.figures.margin_perceptron: its slider grid, its figure's titles and alt text."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from perceptron_core.figures import margin_perceptron as mpf

from conftest import axes_titles


def test_slider_grid_fits_the_budget_and_has_the_chapters_targets():
    fractions, targets = mpf.slider_values()
    assert len(fractions) * len(targets) <= 60
    assert fractions[-1] == 1.0 and fractions[0] == 0.2
    assert mpf.TABLE_TARGETS == (0.5, 0.8, 0.95)
    for t in mpf.TABLE_TARGETS:
        assert any(abs(t - v) < 1e-12 for v in targets)
    assert all(0 < t < 1 for t in targets)


def test_figure_sliders_use_the_named_grids():
    """The figure's grids (the page's explore() call passes them: tests/chapters/test_chapters.py)
    are slider_values(), as slider_summary reads them, and start at γ = γ* and τ = 1/2."""
    from perceptron_core.figures.sliders import _expand_all

    fraction, target = _expand_all({"fraction": mpf.FRACTIONS, "target": mpf.TARGETS}, 60)
    assert fraction.values == mpf.slider_values()[0] and target.values == mpf.slider_values()[1]
    assert fraction.values[fraction.initial] == 1.0 and target.values[target.initial] == 0.5
    assert mpf.BENCH_CASES[0][2] == {"fraction": mpf.FRACTIONS, "target": mpf.TARGETS}


@pytest.mark.parametrize("fraction, target", [(0.2, 0.05), (1.0, 0.95), (0.6, 0.5)])
def test_draw_titles_state_the_run(fraction, target):
    f = mpf.draw(fraction, target)
    assert isinstance(f, Figure) and len(f.axes) == 2
    r = mpf.reach(fraction, target)
    title = axes_titles(f)
    assert f"{r.updates} updates ≤ bound {r.bound:,.0f}" in title
    assert f"reached {r.margin:.4f} ≥ τγ = {target * r.gamma:.4f}" in title


def test_alt_text_fills_in_and_names_what_is_shown():
    alt = mpf.ALT.format(fraction=0.6, target=0.8)
    assert "0.6" in alt and "0.8" in alt and "bound" in alt and "target" in alt
