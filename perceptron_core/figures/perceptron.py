"""Figures of the chapter "The perceptron" (``book/perceptron.ipynb``).

The chapter computes its data and runs with the core (``planted``, ``perceptron``,
``max_margin``) and passes them here; these functions only draw.

* :func:`draw_update` steps through one recorded run of the batch perceptron on 2-D data: the
  point of the current mistake, the weights before and after, and the boundary they define.
* :func:`draw_tie` shows the two-point example on which the tie rule changes the run.

:func:`update` and :func:`tie` wrap them as :class:`~.sliders.Explorable`, with their sliders and
alt texts, for the chapter's ``explore(figs.update(...))`` and ``explore(figs.tie(...))``.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike, NDArray

from .plotting import BOUNDARY, NEGATIVE, POSITIVE, frame_data, new_figure, plot_points, plot_separator
from .sliders import Explorable

__all__ = ["weight_path", "draw_update", "update", "draw_tie", "tie", "BENCH_CASES"]

_PAST = "#bbbbbb"  # colour of the previous boundary and of the path of w so far


def weight_path(X: ArrayLike, y: ArrayLike, indices: ArrayLike) -> NDArray[np.float64]:
    """``w_0 = 0, w_1, …, w_M`` of a run without offset, from the indices of its mistakes.

    A running sum in the run's own order (``np.cumsum`` adds row after row, and ``yᵢxᵢ`` is exact
    for labels ±1), so each ``w_k`` has the bits the run held.
    """
    X, y, idx = np.asarray(X, float), np.asarray(y, float), np.asarray(indices, int)
    steps = np.vstack([np.zeros((1, X.shape[1])), y[idx, None] * X[idx]])
    return np.cumsum(steps, axis=0)


def draw_update(X: ArrayLike, y: ArrayLike, indices: ArrayLike, u_star: ArrayLike, k: int) -> Figure:
    """Mistake ``k`` of a recorded run, in data space (left) and weight space (right).

    Left: the data, the point of mistake ``k`` ringed, the boundary of ``w_k`` (solid, with its
    normal) and of ``w_{k-1}`` (grey, dashed). Right: the path ``w_0 = 0, w_1, …`` so far, the
    step ``yᵢxᵢ`` just taken, and the direction ``u_star`` (the max-margin separator) for
    reference. The title and text state what the update did, since the book's page cannot
    re-run code.

    Parameters
    ----------
    X, y : the 2-D data and labels of the run.
    indices : ``run.history.indices``, the point of each mistake.
    u_star : a reference direction (unit vector).
    k : update number, from 0 (``w_0 = 0``, before the first mistake) to the run's mistakes.
    """
    X, y, idx = np.asarray(X, float), np.asarray(y, float), np.asarray(indices, int)
    path = weight_path(X, y, idx)
    M = len(idx)
    if not 0 <= k <= M:
        raise ValueError(f"k must be between 0 and {M} (the run's mistakes), got {k}.")
    w_k = path[k]
    fig, (ax, aw) = new_figure(2, width=8.8, height=5.0)
    # Room below the panels for the legends, and below the left one for the two-line caption.
    ax.set_position((0.07, 0.28, 0.41, 0.645))
    aw.set_position((0.595, 0.28, 0.41, 0.645))

    # ---- data space: frame_data before the boundaries, which span the limits it sets --------
    plot_points(ax, X, y, highlight=None if k == 0 else int(idx[k - 1]))
    frame_data(ax, X)
    if k == 0:
        ax.set_title("k = 0: w₀ = 0, no boundary yet", fontsize=12)
        note = "every score yᵢ w₀·xᵢ is 0: a mistake"
    else:
        i = int(idx[k - 1])
        plot_separator(ax, path[k - 1], color=_PAST, label="wₖ₋₁·x = 0",
                       show_normal=False, linestyle="--")  # nothing is drawn for w_0 = 0
        plot_separator(ax, w_k, label="wₖ·x = 0")
        before, after = y[i] * (path[k - 1] @ X[i]), y[i] * (w_k @ X[i])
        sign = "+1" if y[i] > 0 else "−1"
        ax.set_title(f"update k = {k} of {M}: point {i} (y = {sign})", fontsize=12)
        note = f"y w·x on point {i}: {before:+.3f} → {after:+.3f}"
    wrong = int(np.sum(y * (X @ w_k) <= 0))
    status = (f"w_k separates all {len(y)} points: the run stops"
              if wrong == 0 else f"w_k still gets {wrong} of {len(y)} points wrong")
    # Text that changes every frame is plain Unicode, not $mathtext$ (parsing mathtext costs
    # ~10 ms a string), and sits below the panel, so that it never hides a point.
    ax.text(0.5, -0.28, f"{note}.\n{status}.", transform=ax.transAxes, ha="center", va="top",
            fontsize=11)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=9, frameon=False)
    ax.set_xlabel("$x_{(1)}$")
    ax.set_ylabel("$x_{(2)}$")

    # ---- weight space: fixed limits from the whole run, so that frames line up ----------------
    lo, hi = np.minimum(path.min(0), 0.0), np.maximum(path.max(0), 0.0)
    room = 0.15 * float(np.max(hi - lo))
    aw.set_xlim(lo[0] - room, hi[0] + room)
    aw.set_ylim(lo[1] - room, hi[1] + room)
    aw.set_aspect("equal", adjustable="box")
    ref = np.asarray(u_star, float) * 1.1 * float(np.max(np.linalg.norm(path, axis=1)))
    aw.plot([0, ref[0]], [0, ref[1]], ":", color="#2ca02c", lw=1.2, label="max-margin direction")
    aw.plot(path[: k + 1, 0], path[: k + 1, 1], "o-", color=_PAST, ms=3, lw=1, label="w₀, w₁, …")
    if k > 0:
        # One quiver for the three arrows (w_{k-1}, the step, w_k): one artist, not three
        # annotations, keeps a slider move fast.
        step_color = POSITIVE if y[idx[k - 1]] > 0 else NEGATIVE
        starts = np.array([[0, 0], path[k - 1], [0, 0]])
        ends = np.array([path[k - 1], w_k, w_k])
        aw.quiver(starts[:, 0], starts[:, 1], *(ends - starts).T, angles="xy", scale_units="xy",
                  scale=1, color=[_PAST, step_color, BOUNDARY], width=0.008, zorder=3)
        aw.plot([], [], color=step_color, lw=2, label="step yᵢxᵢ")
    aw.set_title(f"weight space: w_{k} = ({w_k[0]:.2f}, {w_k[1]:.2f})", fontsize=12)
    aw.set_xlabel("$w_{(1)}$")
    aw.set_ylabel("$w_{(2)}$")
    aw.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=9, frameon=False)
    return fig


def draw_tie(X: ArrayLike, y: ArrayLike, run, rule: str) -> Figure:
    """A recorded run on two points under one tie rule: each ``w_k``, the final boundary, the
    margin of each point.

    Parameters
    ----------
    X, y : the data; run : ``perceptron(X, y, record=True, tie=rule)``.
    rule : "mistake" (a score of 0 is a mistake: UML, MIT 6.036) or "positive" (predict +1 at 0:
        CS229), for the title.
    """
    X, y = np.asarray(X, float), np.asarray(y, float)
    path = weight_path(X, y, run.history.indices)
    fig, (ax,) = new_figure(1, width=4.4, height=4.4)
    ax.set_position((0.16, 0.11, 0.77, 0.77))  # square, with room above for the two-line title
    plot_points(ax, X, y, size=60)
    ax.set_xlim(-1.4, 1.6)
    ax.set_ylim(-1.4, 1.6)
    ax.set_aspect("equal", adjustable="box")
    plot_separator(ax, run.w, label="final boundary", show_normal=False)
    for k in range(1, len(path)):
        ax.annotate("", xy=path[k], xytext=(0, 0), arrowprops=dict(
            arrowstyle="-|>", color="#ff7f0e" if k == run.mistakes else _PAST, lw=2.0,
            shrinkA=0, shrinkB=0, mutation_scale=12))
        ax.annotate(f"$w_{k}$", path[k], xytext=(6, -12), textcoords="offset points", fontsize=10)
    scores = y * (X @ run.w)  # integers: exact
    for j, (pt, s) in enumerate(zip(X, scores)):
        where = "on the boundary" if s == 0 else f"margin {s / np.linalg.norm(run.w):.3f}"
        ax.annotate(f"$x_{j + 1}$: {where}", pt, xytext=(0, 9), textcoords="offset points",
                    ha="center", va="bottom", fontsize=9)
    # The rule, not who uses it: which notes use which rule is the chapter's sources box.
    label = {"mistake": "tie = mistake",
             "positive": "tie → predict +1"}.get(rule, f"tie = {rule}")
    word = "mistake" if run.mistakes == 1 else "mistakes"
    ax.set_title(f"{label}\n{run.mistakes} {word}, final w = ({run.w[0]:g}, {run.w[1]:g})", fontsize=12)
    ax.legend(loc="lower left", fontsize=9)
    ax.set_xlabel("$x_{(1)}$")
    ax.set_ylabel("$x_{(2)}$")
    return fig


def update(X: ArrayLike, y: ArrayLike, indices: ArrayLike, u_star: ArrayLike) -> Explorable:
    """:func:`draw_update` with a slider over the updates ``k = 0, …, M`` of the run."""
    M, n = len(indices), len(y)
    return Explorable(partial(draw_update, X, y, indices, u_star), dict(k=(0, M, 1)),
                      alt=f"Update {{k}} of {M} of the perceptron on {n} points: the data with "
                          "the boundary before and after the update, and the path of the "
                          "weights in weight space.")


def tie(X: ArrayLike, y: ArrayLike, runs: dict) -> Explorable:
    """:func:`draw_tie` with a choice among ``runs``, recorded runs keyed by their tie rule."""
    return Explorable(lambda rule: draw_tie(X, y, runs[rule], rule), dict(rule=list(runs)),
                      alt="The two-point tie example under the rule tie={rule}: the weight "
                          "vectors of the run, the final boundary and the margin of each point.")


def _bench_cases() -> list:
    # The chapter's own data and figures, computed as its cells compute them.
    from .. import max_margin, perceptron, planted

    X, y, _ = planted(16, 2, 0.03, seed=6)
    run = perceptron(X, y, record=True)
    Xt, yt = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    ties = {r: perceptron(Xt, yt, tie=r, record=True) for r in ("mistake", "positive")}
    cases = {"perceptron-update": update(X, y, run.history.indices, max_margin(X, y).w),
             "perceptron-tie": tie(Xt, yt, ties)}
    return [(name, e.draw, e.params) for name, e in cases.items()]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() calls as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when first asked
    # for, so that importing the chapter's figures runs nothing.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
