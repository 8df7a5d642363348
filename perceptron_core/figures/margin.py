"""Figures of the chapter "Margin": a separator turned by an angle, and the hull picture of γ*.

Both figures use one small 2-D data set, :func:`margin_data`, chosen so that the maximum-margin
separator through the origin points at exactly :data:`THETA_STAR` degrees. That way the slider
grid (multiples of 15° or 30°) contains the optimal angle, and a reader who turns the slider
there sees the margin reach γ* exactly instead of only coming close.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Polygon
from matplotlib.ticker import MultipleLocator
from numpy.typing import NDArray
from scipy.spatial import ConvexHull

from .. import geometry
from ..geometry import MaxMargin, Peak, max_margin, min_norm_point
from ..data import planted
from .sliders import slider_values
from .plotting import (BOUNDARY, NEGATIVE, POSITIVE, frame_data, new_figure, plot_points,
                        plot_separator)

__all__ = [
    "THETA_STAR",
    "ANGLE_GRID",
    "HULL_ANGLE_GRID",
    "margin_data",
    "unit",
    "margin_at",
    "closest_points",
    "optimum",
    "verdict",
    "Peak",
    "peak",
    "separator_arc",
    "slider_angles",
    "hull_grid_cases",
    "draw_turning_separator",
    "draw_hull_bounds",
    "BENCH_CASES",
]

#: Angle (degrees) of the maximum-margin direction of :func:`margin_data`.
THETA_STAR = 60.0
#: Slider grid of the first figure, ``(start, stop, step, initial)`` in degrees: 24 frames. Every
#: frame is pre-rendered for the static book, so the grid is as coarse as still reads smoothly.
ANGLE_GRID = (0, 345, 15, 30)
#: Slider grid of the hull figure: 12 frames (its picture changes less from step to step).
HULL_ANGLE_GRID = (0, 330, 30, 30)

# A margin within this (relative) distance of γ* counts as "reaching" it: the grid angle 60° is
# the optimum up to rounding in the rotation, which is ~1e-16, far below this.
_REACH_TOL = 1e-9


def _readonly(a: NDArray) -> NDArray:
    a = np.array(a, dtype=float)
    a.setflags(write=False)
    return a


@lru_cache(maxsize=1)
def margin_data() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The chapter's data set: 14 points in the unit disc, separable through the origin.

    It is ``planted(14, 2, 0.15, seed=1)`` rotated about the origin so that its maximum-margin
    direction ``u*`` has angle :data:`THETA_STAR`. A rotation changes no margin, no norm and no
    γ*, so the data keep the planted radius R = 1.

    Returns
    -------
    X : array of shape (14, 2), read-only.
    y : array of shape (14,) with entries ±1, read-only.
    """
    X, y, _ = planted(14, 2, 0.15, 1.0, seed=1)
    w = max_margin(X, y).w
    turn = np.radians(THETA_STAR) - np.arctan2(w[1], w[0])
    c, s = np.cos(turn), np.sin(turn)
    rot = np.array([[c, -s], [s, c]])
    return _readonly(X @ rot.T), _readonly(y)


def unit(angle: float) -> NDArray[np.float64]:
    """The unit vector at ``angle`` degrees from the first axis."""
    a = np.radians(angle)
    return np.array([np.cos(a), np.sin(a)])


def margin_at(angle: float) -> float:
    """Margin ``minᵢ yᵢ u·xᵢ`` of :func:`margin_data` with respect to ``u = unit(angle)``, b = 0."""
    X, y = margin_data()
    return float(np.min(y * (X @ unit(angle))))


def closest_points(angle: float) -> NDArray[np.int64]:
    """Indices of the points that set the margin at ``angle`` (all of them when several tie).

    At the optimum several points may tie (on this chapter's data two do, see :func:`peak`);
    ringing only the one ``argmin`` happens to pick would hide that, so every point within a
    rounding tolerance of the minimum counts.
    """
    X, y = margin_data()
    s = y * (X @ unit(angle))
    return np.flatnonzero(s <= s.min() + 1e-9)


@lru_cache(maxsize=1)
def optimum() -> MaxMargin:
    """``max_margin`` of :func:`margin_data` without offset (cached: both figures need it)."""
    X, y = margin_data()
    return max_margin(X, y)


@lru_cache(maxsize=1)
def _curve() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The margin as a function of the angle on a fine grid, for the right-hand panel."""
    X, y = margin_data()
    angles = np.linspace(0.0, 360.0, 721)
    a = np.radians(angles)
    U = np.stack([np.cos(a), np.sin(a)])
    return _readonly(angles), _readonly(np.min((y[:, None] * X) @ U, axis=0))


@lru_cache(maxsize=1)
def _hull() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The points ``zᵢ = yᵢxᵢ``, the vertices of their convex hull (in order) and its nearest point."""
    X, y = margin_data()
    Z = y[:, None] * X
    return _readonly(Z[ConvexHull(Z).vertices]), _readonly(min_norm_point(Z)[0])


def peak(X: NDArray[np.float64], y: NDArray[np.float64], *, tol: float = 1e-9) -> Peak:
    """:func:`perceptron_core.geometry.peak` with θ_opt in degrees, the chapter's unit."""
    return geometry.peak(X, y, tol=tol, degrees=True)


def separator_arc(X: NDArray[np.float64], y: NDArray[np.float64]) -> tuple[float, float]:
    """:func:`perceptron_core.geometry.separator_arc` in degrees, the chapter's unit: the open arc
    of angles whose unit normal separates the data through the origin, ``start < stop``."""
    return geometry.separator_arc(X, y, degrees=True)


def slider_angles(spec: tuple) -> list[int]:
    """The angles of a slider grid ``(start, stop, step[, initial])``, in degrees."""
    return slider_values(spec)


def hull_grid_cases(spec: tuple = HULL_ANGLE_GRID) -> dict[str, list[int]]:
    """Sort the angles of the hull figure's slider by what its purple line does there.

    The line ``z·u = m(u)`` lies at signed distance ``m(u)`` from the origin, perpendicular to
    ``u``; the circle has radius γ*. Returns the angles where

    * ``"touch"``: ``m(u) = γ*`` (up to rounding): the line is tangent to the circle, at ``p*``;
    * ``"cut"``: ``0 < m(u) < γ*``: ``u`` separates, and the line crosses the circle;
    * ``"none"``: ``m(u) ≤ 0``: ``u`` separates nothing;
    * ``"far_touch"``: ``m(u) = −γ*``: tangent on the far side (none on the chapter's grid).
    """
    g = optimum().gamma
    cases: dict[str, list[int]] = {"touch": [], "cut": [], "none": [], "far_touch": []}
    for angle in slider_angles(spec):
        m = margin_at(angle)
        if abs(m - g) <= _REACH_TOL * g:
            cases["touch"].append(angle)
        elif m > 0:
            cases["cut"].append(angle)
        else:
            cases["none"].append(angle)
        if abs(m + g) <= _REACH_TOL * g:
            cases["far_touch"].append(angle)
    return cases


def verdict(angle: float) -> str:
    """What the figure says about the candidate at ``angle``: not a separator, below γ*, or γ*."""
    m, g = margin_at(angle), optimum().gamma
    if m <= 0:
        # A margin of exactly 0 puts a point on the line, which the book counts as a mistake.
        return f"margin {m:.3f} ≤ 0: not a separator"
    if abs(m - g) <= _REACH_TOL * g:
        return f"margin {m:.3f} = γ*: the maximum"
    return f"margin {m:.3f} < γ* = {g:.3f}"


def draw_turning_separator(angle: float) -> Figure:
    """Left: the data and the line through 0 with normal at ``angle``; right: margin vs angle.

    The band drawn around the line has half-width equal to the margin, so it touches the closest
    point (ringed). The right panel marks with a star the angle where the margin reaches γ*.

    Parameters
    ----------
    angle : direction of the normal ``w``, in degrees.

    Returns
    -------
    matplotlib.figure.Figure
    """
    X, y = margin_data()
    u, m, opt = unit(angle), margin_at(angle), optimum()
    fig, (ax, ax2) = new_figure(2, width=8.4, height=3.7)
    # Room between the panels for the longest left title, so that each panel can be cut out
    # and shown alone on a narrow screen.
    fig.subplots_adjust(wspace=0.4)

    plot_points(ax, X, y)
    ax.scatter(*X[closest_points(angle)].T, s=216, facecolors="none", edgecolors="black",
               linewidths=1.5, zorder=4)
    frame_data(ax, X, pad=0.12)
    # Only a separator has a margin band: for m ≤ 0 the "band" would be drawn inside out.
    plot_separator(ax, u, margin=m if m > 0 else None, label=None)
    ax.plot(0, 0, "k+", ms=8)
    ax.set_title(f"θ = {angle:g}°: {verdict(angle)}", fontsize=11)

    angles, curve = _curve()
    ax2.plot(angles, curve, color=BOUNDARY, lw=1.4, label="margin of $u_\\theta$")
    ax2.axhline(0.0, color="0.6", lw=0.8)
    ax2.axhline(opt.gamma, color="tab:green", ls="--", lw=1.0, label=f"γ* = {opt.gamma:.3f}")
    ax2.plot(THETA_STAR, opt.gamma, marker="*", ms=15, color="tab:green", ls="none", zorder=4,
             label=f"reaches $\\gamma^*$ at θ = {THETA_STAR:g}°")
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


def draw_hull_bounds(angle: float) -> Figure:
    """The points ``zᵢ = yᵢxᵢ``, their hull, and the two bounds on γ* for the unit ``u`` at ``angle``.

    The line ``z·u = m(u)`` (``m(u)`` the margin of ``u``) supports the hull: every ``zᵢ`` lies on
    or beyond it. Its distance from the origin is the lower bound ``m(u) ≤ γ*``; the nearest point
    ``p*`` of the hull gives the upper bound ``γ* ≤ ‖p*‖``. At θ_opt the line passes through
    ``p*`` perpendicular to it, so it is tangent there to the circle of radius γ*, and the two
    bounds meet; at the other separating angles it cuts the circle (:func:`hull_grid_cases`).

    Parameters
    ----------
    angle : direction of ``u``, in degrees.

    Returns
    -------
    matplotlib.figure.Figure
    """
    X, y = margin_data()
    Z = y[:, None] * X
    verts, p_star = _hull()
    u, m, g = unit(angle), margin_at(angle), optimum().gamma
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
    ax.scatter(*Z[closest_points(angle)].T, s=200, facecolors="none", edgecolors="black", linewidths=1.5, zorder=4)
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


#: The chapter's explore() calls, as ``(name, draw, params)``: timed by bench/bench_redraw.py,
#: and each redrawn in place and compared with a fresh drawing by tests/drawing/test_render.py.
BENCH_CASES = [
    ("margin-turning-separator", draw_turning_separator, {"angle": ANGLE_GRID}),
    ("margin-hull-bounds", draw_hull_bounds, {"angle": HULL_ANGLE_GRID}),
]
