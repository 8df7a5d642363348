"""Figure for the opening notebook: planted data, the planted separator and the learned one."""

from __future__ import annotations

from functools import lru_cache

from matplotlib.figure import Figure

from ..algorithms import PerceptronResult, perceptron
from ..bounds import novikoff_bound
from ..data import planted
from ..geometry import max_margin, radius
from .sliders import slider_values
from .plotting import frame_data, new_figure, plot_points, plot_separator

N_POINTS = 40
# The slider settings of the chapter's figure: explore(draw_trained, gamma=GAMMAS, seed=SEEDS).
GAMMAS = (0.05, 0.5, 0.05)
SEEDS = [0, 1, 2]


@lru_cache(maxsize=128)
def trained(gamma: float, seed: int) -> tuple:
    """Planted 2-D data with margin ``gamma`` (R = 1), the perceptron's run, the bound (R/γ*)².

    Returns
    -------
    X, y, u, result, bound : the data, the planted unit vector, the run, and (R/γ*)².
    """
    X, y, u = planted(N_POINTS, 2, gamma, 1.0, seed=seed)
    res: PerceptronResult = perceptron(X, y)
    return X, y, u, res, novikoff_bound(radius(X), max_margin(X, y).gamma)


def slider_gammas() -> list[float]:
    """The margins the slider offers, rounded as :func:`draw_trained` rounds them."""
    return slider_values(GAMMAS)


def slider_summary() -> dict[str, int | float]:
    """What the slider shows over all its settings: the range of the bound and of the mistakes.

    The chapter states these numbers so that the reader sees that a small margin raises the
    bound far more than it raises the run's actual mistake count.

    Returns
    -------
    dict with ``cases`` (number of settings), ``bound_min``, ``bound_max``, ``mistakes_min``,
    ``mistakes_max``, and ``gamma_min``, ``gamma_max`` (the slider's ends).
    """
    runs = [trained(g, s) for g in slider_gammas() for s in SEEDS]
    bounds = [float(r[4]) for r in runs]
    mistakes = [int(r[3].mistakes) for r in runs]
    return {
        "cases": len(runs),
        "bound_min": min(bounds),
        "bound_max": max(bounds),
        "mistakes_min": min(mistakes),
        "mistakes_max": max(mistakes),
        "gamma_min": min(slider_gammas()),
        "gamma_max": max(slider_gammas()),
    }


def draw_trained(gamma: float = 0.1, seed: int = 0) -> Figure:
    """The data, the planted separator (grey), the perceptron's separator, its mistakes."""
    X, y, u, res, bound = trained(round(float(gamma), 6), int(seed))
    fig, (ax,) = new_figure(width=4.4, height=4.8)
    # Room above for the two-line title, below for the legend (inside, it hid points).
    ax.set_position((0.1, 0.2, 0.87, 0.69))
    frame_data(ax, X)
    plot_points(ax, X, y)
    plot_separator(ax, u, color="#999999", label="planted $u$", show_normal=False)
    plot_separator(ax, res.w, label="perceptron's $w$")
    # Two lines, so that the title fits a figure narrow enough for a phone.
    title = (f"planted margin γ = {gamma:.2f}: {res.mistakes} mistakes,\n"
             f"bound (R/γ*)² = {bound:.1f}")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncols=2, fontsize=9,
              frameon=False)
    return fig


#: The chapter's explore() call, as ``(name, draw, params)``: timed by bench/bench_redraw.py,
#: and redrawn in place and compared with a fresh drawing by tests/drawing/test_render.py.
BENCH_CASES = [("first-look-trained", draw_trained, {"gamma": GAMMAS, "seed": SEEDS})]
