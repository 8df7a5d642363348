"""perceptron_core.figures.offset: its slider grid and its figure, whose title and alt text give the
numbers of the frame."""

from __future__ import annotations

import itertools

import pytest
from matplotlib.figure import Figure

from perceptron_core.figures import offset as of
from perceptron_core.figures.sliders import _expand_all


def test_slider_grid_is_within_the_static_budget_and_matches_shift_grid():
    expanded = _expand_all({"shift": of.SHIFTS, "c": of.CS}, 60)
    values = {p.name: p.values for p in expanded}
    assert values["shift"] == of.shift_grid()
    assert values["c"] == of.CS
    assert len(values["shift"]) * len(values["c"]) <= 60


@pytest.mark.parametrize("shift, c", list(itertools.product([0.0, 4.0], [of.CS[0], of.CS[-1]])))
def test_draw_returns_a_figure_whose_title_and_alt_give_the_numbers(shift, c):
    fig = of.draw(shift=shift, c=c)
    assert isinstance(fig, Figure)
    s = of.offset_state(shift, c)
    title = "\n".join(ax.get_title() for ax in fig.axes)  # the two panels' titles
    alt = of.alt_text(shift, c)
    for text in (title, alt):
        assert f"{s['R_aug']:.2f}" in text and f"{s['gamma_aug']:.4f}" in text
        assert f"{s['bound']:.0f}" in text and f"{s['bound_best']:.0f}" in text
        assert f"made {s['mistakes']} mistakes" in text
