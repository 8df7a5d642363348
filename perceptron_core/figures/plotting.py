"""Plotting primitives shared by the book's figures (2-D data only).

Figures are built with :class:`matplotlib.figure.Figure`, not pyplot, so that drawing one never
touches global state or shows up twice in a notebook: :func:`perceptron_core.figures.explore`
renders them. A figure made by :func:`new_figure` also shows itself as the value of a notebook
cell (it has IPython's ``_repr_png_``), which a pyplot-free figure otherwise does not: IPython
learns to display figures only when pyplot activates the inline backend.
"""

from __future__ import annotations

import io
import numbers
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .._validation import unit_vector, vector_norm

__all__ = ["POSITIVE", "NEGATIVE", "BOUNDARY", "BookFigure", "new_figure", "plot_points",
           "plot_separator", "frame_data", "figure_png"]

POSITIVE, NEGATIVE, BOUNDARY = "#1f77b4", "#d62728", "#333333"



class BookFigure(Figure):
    """A :class:`~matplotlib.figure.Figure` that a notebook shows as a PNG when it is the value
    of a cell (as :func:`figure_png` renders it: in Jupyter, Colab, VS Code and the book build)."""

    def _repr_png_(self) -> bytes:
        return figure_png(self)


def new_figure(ncols: int = 1, *, width: float = 6.4, height: float = 4.0) -> tuple[BookFigure, list[Axes]]:
    """A new pyplot-free figure with ``ncols`` axes side by side.

    Margins are fixed rather than computed by a layout engine: constrained layout costs about
    half a second per draw, which would make sliders sluggish, and fixed axes also keep the
    panels from jumping between frames. Ticks and grid lines lie below the data
    (``set_axisbelow(True)``).

    Parameters
    ----------
    ncols : int
        Number of axes, side by side.
    width, height : float
        Size in inches, each in (0, 100).

    Returns
    -------
    fig, axes : BookFigure, list of Axes

    Raises
    ------
    ValueError
        ``ncols`` is not a positive int, or a size is not a positive number below 100.
    """
    if isinstance(ncols, bool) or not isinstance(ncols, numbers.Integral) or ncols < 1:
        raise ValueError(f"ncols must be a positive int, got {ncols!r}.")
    for name, size in (("width", width), ("height", height)):
        if not isinstance(size, numbers.Real) or isinstance(size, bool) or not 0 < size < 100:
            raise ValueError(f"{name} must be a positive number of inches below 100, got {size!r}.")
    fig = BookFigure(figsize=(float(width), float(height)))
    fig.subplots_adjust(left=0.1, right=0.97, bottom=0.12, top=0.9, wspace=0.3)  # fixed
    axes = list(fig.subplots(1, int(ncols), squeeze=False)[0])
    for ax in axes:
        ax.set_axisbelow(True)
    return fig, axes


def plot_points(ax: Axes, X: ArrayLike, y: ArrayLike, *, size: float = 36, highlight: int | None = None) -> None:
    """Scatter 2-D points: +1 as blue dots, −1 as red crosses; ring the point ``highlight``."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    ax.scatter(*X[y > 0].T, s=size, c=POSITIVE, marker="o", label="$y=+1$", zorder=3)
    ax.scatter(*X[y < 0].T, s=size * 1.4, c=NEGATIVE, marker="x", label="$y=-1$", zorder=3)
    if highlight is not None:
        ax.scatter(*X[highlight], s=size * 6, facecolors="none", edgecolors="black", linewidths=1.5, zorder=4)


def plot_separator(
    ax: Axes,
    w: ArrayLike,
    b: float = 0.0,
    *,
    margin: float | None = None,
    color: str = BOUNDARY,
    label: str | None = "$w\\cdot x + b = 0$",
    show_normal: bool = True,
    linestyle: str = "-",
) -> None:
    """Draw the line ``w·x + b = 0`` across the current view, its normal, and a margin band.

    ``margin`` is a geometric margin: the band is drawn at that distance on both sides. Nothing
    is drawn for ``w = 0``, which defines no line. ``linestyle`` is the style of the line
    itself (the band is always dotted).
    """
    w = np.asarray(w, dtype=float)
    if not np.any(w):
        return
    # Scaled norms: a w with entries near 1e-200 still has a direction (its plain norm underflows).
    norm, unit = vector_norm(w), unit_vector(w, "w")
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    foot = -b / norm * unit
    direction = np.array([-unit[1], unit[0]])
    span = 2 * max(x1 - x0, y1 - y0, 1.0) + np.linalg.norm(foot)
    ts = np.array([-span, span])
    for shift, style in ([(0.0, linestyle)] + ([(margin, ":"), (-margin, ":")] if margin else [])):
        pts = foot + shift * unit + ts[:, None] * direction
        ax.plot(pts[:, 0], pts[:, 1], style, color=color, lw=1.6 if shift == 0 else 1.0,
                label=label if shift == 0 else None)
    if show_normal:
        ax.annotate("", xy=foot + unit * 0.25 * max(x1 - x0, y1 - y0), xytext=foot,
                    arrowprops=dict(arrowstyle="->", color=color, lw=1.4))
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)


def frame_data(ax: Axes, X: ArrayLike, *, pad: float = 0.15, include_origin: bool = True) -> None:
    """Set equal-aspect limits that show all points (and the origin) with some room."""
    X = np.asarray(X, dtype=float)
    pts = np.vstack([X, np.zeros((1, 2))]) if include_origin else X
    lo, hi = pts.min(0), pts.max(0)
    room = pad * max(float(np.max(hi - lo)), 1e-9)
    ax.set_xlim(lo[0] - room, hi[0] + room)
    ax.set_ylim(lo[1] - room, hi[1] + room)
    ax.set_aspect("equal", adjustable="box")


def figure_png(fig: Figure, *, dpi: float = 96) -> bytes:
    """Render a figure to PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()
