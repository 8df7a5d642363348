"""Figures and small helpers for the chapter "The perceptron" (``book/perceptron.ipynb``).

* :func:`draw_update` steps through one run of the batch perceptron on 2-D data: the point of
  the current mistake, the weights before and after, and the boundary they define.
* :func:`draw_tie` shows the two-point example on which the tie rule changes the run.
* :func:`margin_stream` is an endless stream of fresh examples with a known margin, for the
  online model, and :func:`update_scores` checks the identity behind the update on a run.

The chapter's numbers come from the same cached runs the figures draw, so the picture and the
prose cannot disagree.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import NDArray

from .._signs import exact_dot
from .._validation import check_X_y
from ..algorithms import ConvergenceWarning, PerceptronResult, perceptron
from ..data import planted
from ..geometry import margins, max_margin
from .plotting import BOUNDARY, NEGATIVE, POSITIVE, frame_data, new_figure, plot_points, plot_separator

__all__ = [
    "RUN_N",
    "RUN_GAMMA",
    "RUN_SEED",
    "running_data",
    "running_run",
    "weights_after",
    "update_scores",
    "draw_update",
    "tie_data",
    "tie_run",
    "draw_tie",
    "STREAM_ANGLE",
    "margin_stream",
    "stream_normal",
    "running_facts",
    "BENCH_CASES",
    "PART_EPOCHS",
    "parting_data",
    "first_parting",
]

# The running example: 16 planted points in the plane, separable through the origin with a thin
# margin, so the run is long enough to watch (15 mistakes over 7 epochs) but fits one slider.
RUN_N, RUN_GAMMA, RUN_SEED = 16, 0.03, 6

_PAST = "#bbbbbb"  # colour of the previous boundary and of the path of w so far


@lru_cache(maxsize=None)
def running_data() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The chapter's running data set: ``planted(16, 2, 0.03, seed=6)`` without its u.

    Returns
    -------
    X : array (16, 2), every ‖xᵢ‖ ≤ 1; y : labels ±1.
    """
    X, y, _ = planted(RUN_N, 2, RUN_GAMMA, seed=RUN_SEED)
    return X, y


@lru_cache(maxsize=None)
def running_run() -> PerceptronResult:
    """The batch perceptron (no offset, ties are mistakes) on :func:`running_data`, recorded."""
    X, y = running_data()
    return perceptron(X, y, record=True)


@lru_cache(maxsize=None)
def _max_margin_direction() -> NDArray[np.float64]:
    # Only used to draw a reference direction; computing it once keeps every frame fast.
    X, y = running_data()
    return max_margin(X, y).w


def weights_after(k: int) -> NDArray[np.float64]:
    """``w_k``, the weights after ``k`` mistakes of :func:`running_run` (``w_0 = 0``).

    Raises
    ------
    ValueError
        If ``k`` is not between 0 and the run's number of mistakes.
    """
    run = running_run()
    if not 0 <= k <= run.mistakes:
        raise ValueError(f"k must be between 0 and {run.mistakes} (the run's mistakes), got {k}.")
    if k == 0:
        return np.zeros(run.w.shape[0])
    assert run.history is not None
    return run.history.weights[k - 1]


def update_scores(result: PerceptronResult, X: NDArray, y: NDArray) -> tuple[NDArray, NDArray, NDArray]:
    """For each mistake of a recorded run without offset: the signed score before and after it.

    Mistake ``k`` on ``(xᵢ, yᵢ)`` turns ``yᵢ w_{k-1}·xᵢ`` into ``yᵢ w_k·xᵢ``; the update lemma says
    the difference is exactly ``‖xᵢ‖²``.

    Returns
    -------
    before, after, sq_norms : arrays of length ``result.mistakes``.
    """
    if result.history is None:
        raise ValueError("the run has no history; run perceptron(..., record=True).")
    h = result.history
    X, y = np.asarray(X, float), np.asarray(y, float)
    w_prev = np.vstack([np.zeros((1, X.shape[1])), h.weights[:-1]])
    xs, ys = X[h.indices], y[h.indices]
    before = ys * np.einsum("ij,ij->i", w_prev, xs)
    after = ys * np.einsum("ij,ij->i", h.weights, xs)
    return before, after, np.einsum("ij,ij->i", xs, xs)


def _arrow(ax, start, end, color, *, lw=1.6, ls="-", alpha=1.0) -> None:
    ax.annotate("", xy=end, xytext=start,
                arrowprops=dict(arrowstyle="-|>", color=color, lw=lw, ls=ls, alpha=alpha,
                                shrinkA=0, shrinkB=0, mutation_scale=12))


def draw_update(k: int) -> Figure:
    """Mistake ``k`` of the running example, in data space (left) and weight space (right).

    Left: the data, the point of mistake ``k`` ringed, the boundary of ``w_k`` (solid, with its
    normal) and of ``w_{k-1}`` (grey, dashed). Right: the path ``w_0 = 0, w_1, …`` so far, the
    step ``yᵢxᵢ`` just taken, and the direction of the max-margin separator for reference.
    The title and text state what the update did, since the book's page cannot re-run code.

    Parameters
    ----------
    k : update number, from 0 (``w_0 = 0``, before the first mistake) to the run's mistakes.
    """
    X, y = running_data()
    run = running_run()
    h = run.history
    assert h is not None
    M = run.mistakes
    w_k = weights_after(k)
    fig, (ax, aw) = new_figure(2, width=8.8, height=5.0)
    # Room below the panels for the legends, and below the left one for the two-line caption.
    ax.set_position((0.07, 0.28, 0.41, 0.645))
    aw.set_position((0.595, 0.28, 0.41, 0.645))

    # ---- data space ------------------------------------------------------------------------
    # frame_data before the boundaries: plot_separator spans the limits it sets.
    plot_points(ax, X, y, highlight=None if k == 0 else int(h.indices[k - 1]))
    frame_data(ax, X)
    if k == 0:
        ax.set_title("$k = 0$: $w_0 = 0$, no boundary yet", fontsize=12)
        note = "every score $y_i\\,w_0\\cdot x_i$ is 0: a mistake"
    else:
        i = int(h.indices[k - 1])
        w_prev = weights_after(k - 1)
        plot_separator(ax, w_prev, color=_PAST, label="$w_{k-1}\\cdot x = 0$", show_normal=False,
                       linestyle="--")  # nothing is drawn for w_0 = 0
        plot_separator(ax, w_k, label="$w_k\\cdot x = 0$")
        before, after = y[i] * (w_prev @ X[i]), y[i] * (w_k @ X[i])
        sign = "+1" if y[i] > 0 else "−1"
        ax.set_title(f"update k = {k} of {M}: point {i} (y = {sign}), epoch {int(h.epochs[k - 1])}",
                     fontsize=12)
        note = f"y w·x on point {i}: {before:+.3f} → {after:+.3f}"
    wrong = int(np.sum(y * (X @ w_k) <= 0))
    status = (f"w_k separates all {len(y)} points: the run stops"
              if wrong == 0 else f"w_k still gets {wrong} of {len(y)} points wrong")
    # Text that changes every frame is plain Unicode, not $mathtext$: parsing mathtext costs
    # ~10 ms a string and is only cached for strings seen before.
    # Below the data panel (under its legend) rather than on it, so that the text never hides a
    # point; in that panel's Axes, so that a narrow page can show each panel on its own.
    ax.text(0.5, -0.28, f"{note}.\n{status}.", transform=ax.transAxes, ha="center", va="top",
            fontsize=11)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=9, frameon=False)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")

    # ---- weight space ----------------------------------------------------------------------
    path = np.vstack([np.zeros((1, 2)), h.weights])
    # Fixed limits from the whole run, so that frames line up as the slider moves.
    lo = np.minimum(path.min(0), 0.0)
    hi = np.maximum(path.max(0), 0.0)
    room = 0.15 * float(np.max(hi - lo))
    aw.set_xlim(lo[0] - room, hi[0] + room)
    aw.set_ylim(lo[1] - room, hi[1] + room)
    aw.set_aspect("equal", adjustable="box")
    aw.axhline(0, color="#eeeeee", lw=0.8, zorder=0)
    aw.axvline(0, color="#eeeeee", lw=0.8, zorder=0)
    ref = _max_margin_direction() * 1.1 * float(np.max(np.linalg.norm(path, axis=1)))
    aw.plot([0, ref[0]], [0, ref[1]], ":", color="#2ca02c", lw=1.2, label="max-margin direction")
    aw.plot(path[: k + 1, 0], path[: k + 1, 1], "o-", color=_PAST, ms=3, lw=1, label="$w_0, w_1, \\dots$")
    if k > 0:
        w_prev = path[k - 1]
        _arrow(aw, (0, 0), w_prev, _PAST, ls="--")
        step_color = POSITIVE if y[h.indices[k - 1]] > 0 else NEGATIVE
        _arrow(aw, w_prev, w_k, step_color, lw=2.0)
        _arrow(aw, (0, 0), w_k, BOUNDARY, lw=2.0)
        aw.plot([], [], color=step_color, lw=2, label="step $y_i x_i$")
    aw.plot(0, 0, "ko", ms=4)
    aw.set_title(f"weight space: w_{k} = ({w_k[0]:.2f}, {w_k[1]:.2f})", fontsize=12)
    aw.set_xlabel("$w_1$")
    aw.set_ylabel("$w_2$")
    aw.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize=9, frameon=False)
    return fig


def running_facts() -> dict[str, int | float]:
    """The numbers the chapter states about :func:`running_run`, as plain ``int``/``float``.

    Keys: ``n`` points, ``M`` mistakes, ``epochs``; ``gamma_planted``, ``gamma_star``, ``R`` and
    ``bound`` = (R/γ*)²; ``n_updated`` points that ever cause an update, ``n_late`` of them after
    the first epoch, and ``late_rank``: all the late ones are among the ``late_rank`` points
    nearest the maximum-margin line. ``n_better``, ``n_same``, ``n_worse``: updates after which
    the number of points ``w_k`` gets wrong falls, stays, rises. ``cos_first``, ``cos_last``:
    the cosine of ``w_k`` with the max-margin direction ``u*`` for ``k = 1`` and ``k = M``, and
    ``n_cos_down`` updates at which that cosine falls.
    """
    X, y = running_data()
    run = running_run()
    h = run.history
    assert h is not None
    mm = max_margin(X, y)
    R = float(np.max(np.linalg.norm(X, axis=1)))
    W = [weights_after(k) for k in range(run.mistakes + 1)]
    wrong = np.array([int(np.sum(y * (X @ w) <= 0)) for w in W])
    cos = np.array([w @ mm.w / np.linalg.norm(w) for w in W[1:]])
    late = sorted(set(h.indices[h.epochs > 1].tolist()))
    # Rank of each point by its margin with respect to u* (0 = nearest the line).
    rank = np.argsort(np.argsort(margins(X, y, mm.w)))
    step = np.diff(wrong)
    return {
        "n": len(y),
        "M": run.mistakes,
        "epochs": run.epochs,
        "gamma_planted": RUN_GAMMA,
        "gamma_star": float(mm.gamma),
        "R": R,
        "bound": float((R / mm.gamma) ** 2),
        "n_updated": len(set(h.indices.tolist())),
        "n_late": len(late),
        "late_rank": int(max(rank[late])) + 1,
        "n_better": int(np.sum(step < 0)),
        "n_same": int(np.sum(step == 0)),
        "n_worse": int(np.sum(step > 0)),
        "cos_first": float(cos[0]),
        "cos_last": float(cos[-1]),
        "n_cos_down": int(np.sum(np.diff(cos) < 0)),
    }


# ---- the tie example ---------------------------------------------------------------------------


def tie_data() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Two points on which the tie rule changes the run: ``(1, 0)`` labelled +1, ``(0, 1)`` labelled −1.

    Starting from ``w = 0`` both scores are 0. Counting a tie as a mistake updates on both points;
    predicting +1 at a tie (CS229) gets the positive point "right" and updates only once.
    """
    return np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])


@lru_cache(maxsize=None)
def tie_run(rule: str) -> PerceptronResult:
    """The batch perceptron on :func:`tie_data` with ``tie=rule`` ("mistake" or "positive"), recorded."""
    X, y = tie_data()
    return perceptron(X, y, record=True, tie=rule)  # type: ignore[arg-type]


def draw_tie(rule: str) -> Figure:
    """The run on :func:`tie_data` under one tie rule: each ``w_k``, the final boundary, the margins.

    Parameters
    ----------
    rule : "mistake" (a score of 0 is a mistake: UML, MIT 6.036) or "positive" (predict +1 at 0: CS229).
    """
    X, y = tie_data()
    run = tie_run(rule)
    h = run.history
    assert h is not None
    fig, (ax,) = new_figure(1, width=4.4, height=4.4)
    # A square plot, with room above it for the two-line title.
    ax.set_position((0.16, 0.11, 0.77, 0.77))
    plot_points(ax, X, y, size=60)
    ax.set_xlim(-1.4, 1.6)
    ax.set_ylim(-1.4, 1.6)
    ax.set_aspect("equal", adjustable="box")
    plot_separator(ax, run.w, label="final boundary", show_normal=False)
    path = np.vstack([np.zeros((1, 2)), h.weights])
    for k in range(1, len(path)):
        _arrow(ax, (0, 0), path[k], "#ff7f0e" if k == run.mistakes else _PAST, lw=2.0)
        ax.annotate(f"$w_{k}$", path[k], xytext=(6, -12), textcoords="offset points", fontsize=10)
    m = margins(X, y, run.w)
    for j, (pt, mj) in enumerate(zip(X, m)):
        where = "on the boundary" if mj == 0 else f"margin {mj:.3f}"
        # Centred above the point, so that the text stays inside the plot.
        ax.annotate(f"$x_{j + 1}$: {where}", pt, xytext=(0, 9), textcoords="offset points",
                    ha="center", va="bottom", fontsize=9)
    label = {"mistake": "tie = mistake (UML, MIT 6.036)",
             "positive": "tie → predict +1 (CS229)"}[rule]
    word = "mistake" if run.mistakes == 1 else "mistakes"
    ax.set_title(f"{label}\n{run.mistakes} {word}, final w = ({run.w[0]:g}, {run.w[1]:g})", fontsize=12)
    ax.legend(loc="lower left", fontsize=9)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    return fig


# ---- the online model --------------------------------------------------------------------------


#: The direction (an angle in radians) of the unit normal u of the online stream's line.
STREAM_ANGLE = 0.5


def stream_normal(angle: float = STREAM_ANGLE) -> NDArray[np.float64]:
    """The unit normal ``u = (cos angle, sin angle)`` of the line of :func:`margin_stream`."""
    return np.array([np.cos(angle), np.sin(angle)])


def margin_stream(gamma: float, *, angle: float = STREAM_ANGLE,
                  seed: int = 0) -> Iterator[tuple[NDArray[np.float64], float]]:
    """An endless stream of fresh examples in the unit disc with margin at least γ.

    Points are drawn uniformly from the unit disc, those within γ of the line ``u·x = 0`` are
    thrown away, and the label is the side of that line, with ``u = (cos angle, sin angle)``.
    So every example has ``‖x‖ ≤ 1`` and ``y u·x ≥ γ``: the mistake bound ``(1/γ)²`` applies to
    the whole infinite stream.
    """
    if not 0 < gamma < 1:
        raise ValueError(f"gamma must be in (0, 1), got {gamma}.")
    u = stream_normal(angle)
    rng = np.random.default_rng(seed)
    while True:
        x = rng.uniform(-1.0, 1.0, size=2)
        s = float(u @ x)
        if x @ x <= 1.0 and abs(s) >= gamma:
            yield x, (1.0 if s > 0 else -1.0)


#: The chapter's explore() calls, as ``(name, draw, params)``: timed by bench/bench_redraw.py,
#: and each redrawn in place and compared with a fresh drawing by tests/drawing/test_render.py.
#: The update slider runs over the 15 mistakes of running_run() (a test checks the number).
BENCH_CASES = [
    ("perceptron-update", draw_update, {"k": (0, 15, 1)}),
    ("perceptron-tie", draw_tie, {"rule": ["mistake", "positive"]}),
]


# Five points and five epochs on which scikit-learn's Perceptron and `perceptron` part: a score
# within rounding of 0 that is negative in exact arithmetic computes as exactly 0.0 in floats.
PART_X = ((0.4, -0.6, 0.8), (0.2, -0.5, 0.8), (-0.1, 0.8, -0.1), (0.7, 0.3, -0.4), (-0.4, 0.9, 0.2))
PART_Y = (-1, 1, -1, 1, -1)
PART_EPOCHS = 5


def parting_data() -> tuple[NDArray[np.float64], NDArray[np.float64], int]:
    """Data and number of epochs on which the float and the exact sign of a score differ."""
    return np.array(PART_X, dtype=float), np.array(PART_Y, dtype=float), PART_EPOCHS


def first_parting(X: NDArray, y: NDArray, epochs: int) -> dict[str, object] | None:
    """The first step at which the float sign and the exact sign of a score part.

    Runs the package's perceptron with offset (ties count as mistakes) for ``epochs`` epochs,
    which decides every sign exactly, and reads the run back step by step: at each step the
    score ``w·x + b`` of the weights held then, computed in floating point as a float library
    computes it, against its exact value. Returns the epoch (from 1), the index of the point,
    its label, the weights and offset before the step, the float score and the exact score (a
    ``Fraction``), or ``None`` if the two decisions agree at every step.
    """
    X, y = check_X_y(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # a capped run is what is read here
        run = perceptron(X, y, offset=True, max_epochs=epochs, record=True)
    h = run.history
    w, b, k = np.zeros(X.shape[1]), 0.0, 0
    for epoch in range(1, run.epochs + 1):
        for i in range(len(y)):
            computed = float(X[i] @ w + b)
            exact = exact_dot(X[i], w) + Fraction(b)
            if (y[i] * computed <= 0) != (y[i] * exact <= 0):
                return {"epoch": epoch, "index": i, "label": int(y[i]), "w": w.copy(), "b": b,
                        "float_score": computed, "exact_score": exact}
            if k < run.mistakes and h.epochs[k] == epoch and h.indices[k] == i:  # the update
                w, b, k = h.weights[k], float(h.offsets[k]), k + 1
    return None
