"""Figure for the opening notebook: planted data, the planted separator and the learned one."""

from __future__ import annotations

from functools import lru_cache

from matplotlib.figure import Figure

from ..algorithms import PerceptronResult, perceptron
from ..bounds import novikoff_bound
from ..data import planted
from ..geometry import max_margin, radius
from ..plotting import frame_data, new_figure, plot_points, plot_separator

N_POINTS = 40


@lru_cache(maxsize=128)
def trained(gamma: float, seed: int) -> tuple:
    """Planted 2-D data with margin ``gamma`` (R = 1), the perceptron's run, and the bound (R/γ*)²."""
    X, y, u = planted(N_POINTS, 2, gamma, 1.0, seed=seed)
    res: PerceptronResult = perceptron(X, y)
    return X, y, u, res, novikoff_bound(radius(X), max_margin(X, y).gamma)


def draw_trained(gamma: float = 0.1, seed: int = 0) -> Figure:
    """The data, the planted separator (dashed) and the perceptron's separator, with its mistakes."""
    X, y, u, res, bound = trained(round(float(gamma), 6), int(seed))
    fig, (ax,) = new_figure(width=5.6, height=4.2)
    frame_data(ax, X)
    plot_points(ax, X, y)
    plot_separator(ax, u, color="#999999", label="planted $u$", show_normal=False)
    plot_separator(ax, res.w, label="perceptron's $w$")
    ax.set_title(f"planted margin γ = {gamma:.2f}: {res.mistakes} mistakes, bound (R/γ*)² = {bound:.1f}", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    return fig


BENCH_CASES = [("first_look.draw_trained", draw_trained, {"gamma": 0.1, "seed": 0})]
