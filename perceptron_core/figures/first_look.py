"""Figure of the opening notebook (``book/first_look.ipynb``): planted data, the planted separator
and the one the perceptron learned. The chapter makes the data and runs the perceptron with the
core; :func:`draw_trained` only draws them, and :func:`trained` puts them on sliders."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .plotting import frame_data, new_figure, plot_points, plot_separator
from .sliders import Explorable

__all__ = ["draw_trained", "trained", "BENCH_CASES"]


def draw_trained(X, y, u, run, bound: float, gamma: float) -> Figure:
    """The data, the planted separator ``u`` (grey), the perceptron's ``run.w``, its mistakes and
    the bound ``(R/γ*)²``; ``gamma`` is the planted margin, for the title."""
    fig, (ax,) = new_figure(width=4.4, height=4.8)
    # Room above for the two-line title, below for the legend (inside, it hid points).
    ax.set_position((0.1, 0.2, 0.87, 0.69))
    frame_data(ax, X)
    plot_points(ax, X, y)
    plot_separator(ax, u, color="#999999", label="planted $u$", show_normal=False)
    plot_separator(ax, run.w, label="perceptron's $w$")
    # Two lines, so that the title fits a figure narrow enough for a phone.
    ax.set_title(f"planted margin γ = {gamma:.2f}: {run.mistakes} mistakes,\n"
                 f"bound (R/γ*)² = {bound:.1f}", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncols=2, fontsize=9, frameon=False)
    return fig


def trained(runs: dict) -> Explorable:
    """The slider of the chapter: ``runs[gamma, seed]`` is ``(X, y, u, run, bound)`` for the
    planted margin ``gamma`` (0.05 to 0.5 in steps of 0.05) and data set ``seed`` (0, 1, 2), as
    the chapter computes them; each frame is :func:`draw_trained` of one of them."""
    return Explorable(lambda gamma, seed: draw_trained(*runs[gamma, seed], gamma),
                      dict(gamma=(0.05, 0.5, 0.05), seed=[0, 1, 2]),
                      alt="Planted data with margin {gamma} (data set {seed}), "
                          "the planted line and the perceptron's line")


def _bench_cases() -> list:
    # The chapter's data and runs, as its cells compute them.
    from .. import max_margin, novikoff_bound, perceptron, planted, radius

    runs = {}
    for g in [round(0.05 * k, 2) for k in range(1, 11)]:
        for s in (0, 1, 2):
            X, y, u = planted(40, 2, g, 1.0, seed=s)
            runs[g, s] = X, y, u, perceptron(X, y), novikoff_bound(radius(X), max_margin(X, y).gamma)
    e = trained(runs)
    return [("first-look-trained", e.draw, e.params)]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() call as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when asked for.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
