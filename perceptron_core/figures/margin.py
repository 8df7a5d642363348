"""Figures of the chapter "Margins" (``book/margin.ipynb``).

The chapter makes its data and computes γ* with the core and passes them here; these
functions only draw:

* :func:`turning_separator` (drawn by :func:`draw_turning_separator`): a line through the
  origin turning with its normal's angle, its margin band, and the margin as a function of the
  angle;
* :func:`hull_bounds` (drawn by :func:`draw_hull_bounds`): the points ``zᵢ = yᵢxᵢ``, their convex
  hull, and the two bounds ``m(u) ≤ γ* ≤ ‖p*‖`` for the unit ``u`` at an angle.

The two factories return :class:`~perceptron_core.figures.sliders.Explorable` s: the chapter
calls ``explore(fig.turning_separator(X, y, opt))``, and the sliders' grids and alt texts live
here, with the drawing they describe.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Polygon
from matplotlib.ticker import MultipleLocator
from numpy.typing import NDArray
from scipy.spatial import ConvexHull

from ..geometry import peak as _peak
from .plotting import (BOUNDARY, NEGATIVE, POSITIVE, frame_data, new_figure, plot_points,
                       plot_separator)
from .sliders import Explorable

__all__ = ["peak", "turning_separator", "draw_turning_separator", "hull_bounds",
           "draw_hull_bounds", "BENCH_CASES"]

# A margin within this (relative) distance of γ* counts as "reaching" it: the grid angle of the
# optimum is the optimum up to rounding in the rotation, ~1e-16, far below this.
_REACH_TOL = 1e-9


def peak(X, y, *, tol: float = 1e-9):
    """:func:`perceptron_core.geometry.peak` with θ_opt in degrees (the chapter's exercise)."""
    return _peak(X, y, tol=tol, degrees=True)


def _unit(angle: float) -> NDArray[np.float64]:
    a = np.radians(angle)
    return np.array([np.cos(a), np.sin(a)])


def _margins(X, y, angle):
    # The margin of the unit normal at `angle`, and the points that set it (all that tie).
    s = y * (X @ _unit(angle))
    return float(s.min()), np.flatnonzero(s <= s.min() + 1e-9)


def _verdict(m: float, g: float) -> str:
    if m <= 0:
        # A margin of exactly 0 puts a point on the line, which the book counts as a mistake.
        return f"margin {m:.3f} ≤ 0: not a separator"
    if abs(m - g) <= _REACH_TOL * g:
        return f"margin {m:.3f} = γ*: the maximum"
    return f"margin {m:.3f} < γ* = {g:.3f}"


def draw_turning_separator(X: NDArray, y: NDArray, opt, angle: float) -> Figure:
    """Left: the data and the line through 0 with normal at ``angle``; right: margin vs angle.

    The band drawn around the line has half-width equal to the margin, so it touches the closest
    point (ringed). The right panel marks with a star the angle where the margin reaches γ*.

    Parameters
    ----------
    X, y : 2-D data separable through the origin; opt : their ``max_margin(X, y)``.
    angle : direction of the normal ``w``, in degrees.
    """
    u, (m, closest) = _unit(angle), _margins(X, y, angle)
    theta_star = float(np.degrees(np.arctan2(opt.w[1], opt.w[0])) % 360)
    fig, (ax, ax2) = new_figure(2, width=8.4, height=3.7)
    # Room between the panels for the longest left title, so that each panel can be cut out
    # and shown alone on a narrow screen.
    fig.subplots_adjust(wspace=0.4)

    plot_points(ax, X, y)
    ax.scatter(*X[closest].T, s=216, facecolors="none", edgecolors="black",
               linewidths=1.5, zorder=4)
    frame_data(ax, X, pad=0.12)
    # Only a separator has a margin band: for m ≤ 0 the "band" would be drawn inside out.
    plot_separator(ax, u, margin=m if m > 0 else None, label=None)
    ax.plot(0, 0, "k+", ms=8)
    ax.set_title(f"θ = {angle:g}°: {_verdict(m, opt.gamma)}", fontsize=11)

    angles = np.linspace(0.0, 360.0, 721)  # the margin curve, every half degree
    a = np.radians(angles)
    curve = np.min((y[:, None] * X) @ np.stack([np.cos(a), np.sin(a)]), axis=0)
    ax2.plot(angles, curve, color=BOUNDARY, lw=1.4, label="margin of $u_\\theta$")
    ax2.axhline(0.0, color="0.6", lw=0.8)
    ax2.axhline(opt.gamma, color="tab:green", ls="--", lw=1.0, label=f"γ* = {opt.gamma:.3f}")
    ax2.plot(theta_star, opt.gamma, marker="*", ms=15, color="tab:green", ls="none", zorder=4,
             label=f"reaches $\\gamma^*$ at θ = {theta_star:.0f}°")
    ax2.axvline(angle, color="0.4", lw=0.8, ls=":")
    ax2.plot(angle, m, "o", color=POSITIVE if m > 0 else NEGATIVE, ms=8, zorder=5)
    ax2.set_xlim(0, 360)
    ax2.set_xticks(range(0, 361, 60))
    ax2.set_xlabel("angle θ of the normal $w$ (degrees)")
    ax2.set_ylabel("margin $\\min_i\\, y_i\\, u_\\theta\\cdot x_i$")
    # Between the zero line and the valley of the curve, clear of both.
    ax2.legend(loc="upper right", bbox_to_anchor=(1.0, 0.8), fontsize=9)
    ax2.set_title("margin as the line turns", fontsize=11)
    return fig


def draw_hull_bounds(X: NDArray, y: NDArray, g: float, p_star: NDArray, angle: float) -> Figure:
    """The points ``zᵢ = yᵢxᵢ``, their hull, and the two bounds on γ* for the unit ``u`` at ``angle``.

    The line ``z·u = m(u)`` (``m(u)`` the margin of ``u``) supports the hull: every ``zᵢ`` lies on
    or beyond it. Its distance from the origin is the lower bound ``m(u) ≤ γ*``; the nearest point
    ``p*`` of the hull gives the upper bound ``γ* ≤ ‖p*‖``. At θ_opt the line passes through
    ``p*`` perpendicular to it, so it is tangent there to the circle of radius γ*, and the two
    bounds meet; at the other separating angles it cuts the circle.

    Parameters
    ----------
    X, y : 2-D data; g : their γ*; p_star : the point of the hull nearest the origin.
    angle : direction of ``u``, in degrees.
    """
    Z = y[:, None] * X
    verts = Z[ConvexHull(Z).vertices]
    u, (m, closest) = _unit(angle), _margins(X, y, angle)
    fig, (ax,) = new_figure(1, width=4.4, height=4.35)
    # The legend goes below the axes: inside them it would cover the hull at a phone's width.
    fig.subplots_adjust(left=0.11, right=0.96, bottom=0.235, top=0.93)

    frame_data(ax, np.vstack([Z, -0.35 * np.ones((1, 2))]), pad=0.12)
    ax.xaxis.set_major_locator(MultipleLocator(0.5))  # ticks every 0.25 would touch
    ax.add_patch(Polygon(verts, closed=True, facecolor="#e8e8e8", edgecolor="0.5", lw=1.0,
                         label="hull of $\\{y_i x_i\\}$"))
    ax.add_patch(Circle((0, 0), g, fill=False, ls="--", color="tab:green", lw=1.0,
                        label="circle of radius $\\gamma^*$"))
    # Colours say where each zᵢ came from: positives stay put, negatives are mirrored through 0.
    ax.scatter(*Z[y > 0].T, s=30, c=POSITIVE, marker="o", zorder=3, label="$x_i$, $y_i=+1$")
    ax.scatter(*Z[y < 0].T, s=40, c=NEGATIVE, marker="x", zorder=3, label="$-x_i$, $y_i=-1$")
    ax.plot(*p_star, marker="*", ms=14, color="tab:green", ls="none", zorder=5,
            label=f"nearest point p*, ‖p*‖ = {np.linalg.norm(p_star):.3f}")
    ax.scatter(*Z[closest].T, s=200, facecolors="none", edgecolors="black", linewidths=1.5, zorder=4)
    # The supporting line {z : z·u = m}: through m·u, perpendicular to u.
    plot_separator(ax, u, b=-m, label="$z\\cdot u = m(u)$", show_normal=False, color="tab:purple")
    ax.annotate("", xy=0.45 * u, xytext=(0, 0), arrowprops=dict(arrowstyle="->", color="tab:purple", lw=1.6))
    ax.text(*(0.5 * u), "$u$", color="tab:purple", fontsize=12)
    ax.plot(0, 0, "k+", ms=8)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2, fontsize=9,
              columnspacing=1.0, handletextpad=0.5)
    ax.set_title(f"θ = {angle:g}°:  m(u) = {m:.3f}  ≤  γ*  ≤  ‖p*‖ = {np.linalg.norm(p_star):.3f}",
                 fontsize=11)
    return fig


def turning_separator(X: NDArray, y: NDArray, opt) -> Explorable:
    """A separator through 0 that a slider turns, and its margin curve (chapter Margin)."""
    return Explorable(lambda angle: draw_turning_separator(X, y, opt, angle),
                      dict(angle=(0, 345, 15, 30)),
                      alt="Left: the data and the line through the origin whose normal points at "
                          "{angle} degrees. Right: the margin of that line against its angle; it "
                          "is positive on one arc of angles only and peaks at gamma*, marked by a "
                          "star.")


def hull_bounds(X: NDArray, y: NDArray, g: float, p_star: NDArray) -> Explorable:
    """The hull of the ``yᵢxᵢ`` and the two bounds on γ* of a unit ``u`` that a slider turns."""
    return Explorable(lambda angle: draw_hull_bounds(X, y, g, p_star, angle),
                      dict(angle=(0, 330, 30, 30)),
                      alt="The points y_i x_i, their convex hull, the circle of radius gamma* and "
                          "the nearest hull point p*, with the line z.u = m(u) for the unit u at "
                          "{angle} degrees; the title gives the lower bound m(u) and the upper "
                          "bound, the norm of p*.")


def _bench_cases() -> list:
    # The chapter's data, as its cells make them, and its two Explorables.
    from .. import max_margin, min_norm_point, planted

    X, y, _ = planted(14, 2, 0.15, 1.0, seed=1)
    w = max_margin(X, y).w
    turn = np.radians(60) - np.arctan2(w[1], w[0])
    X = X @ np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]])
    opt, p_star = max_margin(X, y), min_norm_point(y[:, None] * X)[0]
    figures = {"margin-turning-separator": turning_separator(X, y, opt),
               "margin-hull-bounds": hull_bounds(X, y, opt.gamma, p_star)}
    return [(name, e.draw, e.params) for name, e in figures.items()]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() calls as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when asked for.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
