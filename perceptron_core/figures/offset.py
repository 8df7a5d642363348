"""Figures and tables for the chapter "The offset trick".

The chapter proves that the perceptron with an offset is the perceptron through the origin on
the points ``(x, c)``, and that it makes at most ``(R² + c²)(1 + b*²/c²)/γ²`` mistakes, for a
unit ``u`` and an offset ``b*`` with margin γ (:func:`perceptron_core.offset_bound`). This module
computes what the chapter shows:

* :func:`counterexample`: x = 11 (+1), x = 9 (−1) (:data:`CE_POINTS`), where ``(R/γ*_b)²`` is
  not a bound;
* :func:`translation_table`: planted data moved away from the origin, with and without
  centering, with the closest call of the centered runs (:func:`perceptron_core.closest_call`);
* :func:`offset_state` and :func:`draw`: the slider figure (shift of the data, constant c).

Every run of the figure is cached with :func:`functools.lru_cache` keyed on the slider values,
so a redraw only re-plots.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import NDArray

from ..algorithms import closest_call, perceptron
from ..bounds import best_c, best_offset_bound, novikoff_bound, offset_bound
from ..data import augment, planted
from ..geometry import max_margin, radius
from .sliders import slider_values
from .plotting import new_figure, plot_points, plot_separator

__all__ = [
    "counterexample",
    "shifted_data",
    "translation_table",
    "offset_state",
    "draw",
    "alt_text",
    "shift_grid",
    "frame_summary",
    "SHIFTS",
    "CS",
    "FIGURE_N",
    "FIGURE_R",
    "CE_POINTS",
    "TABLE_SHIFTS",
    "BENCH_CASES",
]

# A cap far above every run in the chapter: the bounds guarantee these runs stop long before.
_MAX_EPOCHS = 1_000_000

# The figure's data: planted points in the plane (margin FIGURE_GAMMA through the origin, radius
# FIGURE_R), moved by `shift` along e = (2u + u⊥)/√5, u the planted normal: mostly along u, so
# that the best separator needs a growing offset and, once moved, no line through the origin
# separates the data; a little across it, so that the move is not along an axis of the data.
FIGURE_N, FIGURE_GAMMA, FIGURE_SEED, FIGURE_R = 40, 0.1, 3, 1.0
# The counterexample: the positive point and the negative point on the line.
CE_POINTS = (11.0, 9.0)
# The shifts of the translation table: 0, then doublings.
TABLE_SHIFTS = (0.0, 1.0, 2.0, 4.0, 8.0)
# Slider grids: 9 shifts × 6 constants = 54 frames, within explore's budget of 60.
SHIFTS = (0.0, 4.0, 0.5)
CS = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0]


# --------------------------------------------------------------------------------------------
# The trick
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# What is not a bound
# --------------------------------------------------------------------------------------------


def counterexample() -> dict[str, float]:
    """On the line, x = 11 (+1) and x = 9 (−1): the run against ``(R/γ*_b)²`` and the true bound.

    Returns the two points ``x_pos`` and ``x_neg`` (:data:`CE_POINTS`), the perceptron's
    ``mistakes`` with an offset (c = 1), its final ``w`` and ``b`` (``b_run``), ``R`` (11),
    ``gamma_b`` (the maximum margin with an offset, 1), the offset ``b`` of the maximum-margin
    unit separator (−10), the wrong bound ``naive`` ``= (R/γ*_b)²``,
    :func:`perceptron_core.offset_bound` at c = 1 (``correct``) and at the best c
    (``best``, ``c_best``), and the mistakes on ``augment(X, c_best)`` (``mistakes_best``);
    for the prose's arithmetic also ``R2`` = R², ``b2`` = b*², ``Rb`` = R|b*| (= c_best²)
    and ``gamma_aug`` = γ*_b/√(1 + b*²), the margin of the good direction on the points (x, 1).
    All data and weights are small integers (or multiples of one float), so the counts are exact.
    """
    x_pos, x_neg = CE_POINTS
    X, y = np.array([[x_pos], [x_neg]]), np.array([1.0, -1.0])
    mm = max_margin(X, y, offset=True)
    r, g = radius(X), mm.gamma
    b = mm.b / float(np.linalg.norm(mm.w))  # the offset of the unit-normal separator
    run = perceptron(X, y, offset=True, max_epochs=_MAX_EPOCHS)
    c = best_c(r, b)
    return {
        "mistakes": run.mistakes,
        "w_run": float(run.w[0]),
        "b_run": run.b,
        "R": r,
        "gamma_b": g,
        "b": b,
        "naive": novikoff_bound(r, g),
        "correct": offset_bound(r, g, b),
        "c_best": c,
        "best": offset_bound(r, g, b, c),
        "mistakes_best": perceptron(augment(X, c), y, max_epochs=_MAX_EPOCHS).mistakes,
        "x_pos": x_pos,
        "x_neg": x_neg,
        "R2": r * r,
        "b2": b * b,
        "Rb": r * abs(b),
        "gamma_aug": g / math.sqrt(1.0 + b * b),
    }


# --------------------------------------------------------------------------------------------
# Data far from the origin
# --------------------------------------------------------------------------------------------


def shifted_data(
    shift: float, *, n: int = FIGURE_N, gamma: float = FIGURE_GAMMA, seed: int = FIGURE_SEED
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Planted points in the plane (radius FIGURE_R, margin γ through the origin) plus ``shift·e``.

    ``e = (2u + u⊥)/√5`` is a unit vector, with ``u`` the planted normal and ``u⊥`` it turned
    by 90°. Moving the data moves every separator with it: ``(w, b)`` becomes
    ``(w, b − shift·w·e)``, so the maximum margin with an offset does not change.
    """
    X, y, u = planted(n, 2, gamma, FIGURE_R, seed=seed)
    e = (2.0 * u + np.array([-u[1], u[0]])) / math.sqrt(5.0)
    return X + float(shift) * e, y


def translation_table(
    shifts: tuple[float, ...] = TABLE_SHIFTS, *, seeds: int = 5,
    n: int = 100, gamma: float = FIGURE_GAMMA,
) -> dict[str, Any]:
    """Mistakes of the perceptron with an offset on planted data moved by ``s·e``, raw and centered.

    For each shift s (a row) and each of ``seeds`` planted data sets (``n`` points in the plane),
    one run on the raw points and one on the centered points (minus the mean of the points,
    computed from these training data). Per row, the means over the data sets of: ``R``, the
    maximum margin with an offset ``gamma_b`` and its offset ``b`` (absolute value), the
    mistakes on the raw points (``raw``) and on the centered points (``centered``),
    :func:`perceptron_core.offset_bound` at c = 1 (``bound``) and at the best c
    (``bound_best``), and the radius of the centered points (``R_centered``); also, per row, the
    largest radius of the centered points over the data sets (``R_centered_max``). ``s`` holds
    the shifts.

    ``runs`` holds the same quantities run by run, as arrays of shape (rows, seeds). Scalars over
    the whole table:

    * ``gamma_b_spread``: the largest, over the data sets, of the difference between the largest
      and the smallest γ*_b of that data set over the rows (0 in exact arithmetic);
    * ``centered_same``: whether each data set makes the same number of mistakes after centering
      in every row;
    * ``centered_spread``: the largest difference, in any coordinate, between a data set's
      centered points in a row and in the first row (rounding of the subtraction);
    * ``closest_centered``: the smallest closest call (:func:`perceptron_core.closest_call`) of
      the runs on the centered points with an offset, that is on the points ``(x − mean, 1)``.
    """
    keys = ("R", "gamma_b", "b", "raw", "centered", "bound", "bound_best", "R_centered")
    per_run: dict[str, list[list[float]]] = {k: [] for k in keys}
    first_centered: dict[int, NDArray] = {}
    spread, closest = 0.0, math.inf
    for s in shifts:
        acc: dict[str, list[float]] = {k: [] for k in keys}
        for seed in range(seeds):
            X, y = shifted_data(s, n=n, gamma=gamma, seed=seed)
            mm = max_margin(X, y, offset=True)
            r, g, b = radius(X), mm.gamma, mm.b
            Xc = X - X.mean(axis=0)  # the preprocessing step: learned on the training data
            first_centered.setdefault(seed, Xc)
            spread = max(spread, float(np.max(np.abs(Xc - first_centered[seed]))))
            centered = perceptron(Xc, y, offset=True, max_epochs=_MAX_EPOCHS, record=True)
            closest = min(closest, closest_call(Xc, centered))
            acc["R"].append(r)
            acc["gamma_b"].append(g)
            acc["b"].append(abs(b))
            acc["raw"].append(perceptron(X, y, offset=True, max_epochs=_MAX_EPOCHS).mistakes)
            acc["centered"].append(centered.mistakes)
            acc["bound"].append(offset_bound(r, g, b))
            acc["bound_best"].append(best_offset_bound(r, g, b))
            acc["R_centered"].append(radius(Xc))
        for k in keys:
            per_run[k].append(acc[k])
    runs = {k: np.array(v, dtype=float) for k, v in per_run.items()}
    table: dict[str, Any] = {k: runs[k].mean(axis=1) for k in keys}
    table["R_centered_max"] = runs["R_centered"].max(axis=1)
    table["s"] = np.array(shifts, dtype=float)
    table["runs"] = runs
    table["gamma_b_spread"] = float(np.max(np.ptp(runs["gamma_b"], axis=0)))
    table["centered_same"] = bool(np.all(runs["centered"] == runs["centered"][0]))
    table["centered_spread"] = spread
    table["closest_centered"] = closest
    return table


# --------------------------------------------------------------------------------------------
# The slider figure
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _margin_at(shift: float) -> tuple[float, float, float, tuple[float, float]]:
    """R, γ*_b, b* and the unit normal u of the figure's data at this shift (cached per shift)."""
    X, y = shifted_data(shift)
    mm = max_margin(X, y, offset=True)
    return radius(X), mm.gamma, mm.b, (float(mm.w[0]), float(mm.w[1]))


@lru_cache(maxsize=512)
def _mistakes(shift: float, c: float) -> tuple[int, float, float, float]:
    """The perceptron through the origin on the figure's data augmented by c: mistakes and the
    final (w, b) in the original coordinates, where ``b = c·w'_{d+1}`` for its weights w'."""
    X, y = shifted_data(shift)
    run = perceptron(augment(X, c), y, max_epochs=_MAX_EPOCHS)
    return run.mistakes, float(run.w[0]), float(run.w[1]), float(c * run.w[2])


def offset_state(shift: float, c: float) -> dict[str, float]:
    """Everything the figure shows for one slider position.

    ``R`` and ``gamma`` (γ*_b) and ``b`` of the data; ``R_aug`` = √(R² + c²) and
    ``gamma_aug`` = γ/√(1 + b²/c²), the radius and the margin of the theorem's unit vector on
    ``(x, c)``; ``bound`` at this c; ``c_best`` and ``bound_best``; the measured ``mistakes``
    on ``augment(X, c)``.
    """
    shift, c = float(shift), float(c)
    R, g, b, _ = _margin_at(shift)
    m = _mistakes(shift, c)[0]
    # At shift 0 the best offset may be (nearly) 0: then no c attains the minimum, and 0 is shown.
    cb = best_c(R, b) if b else 0.0
    return {
        "shift": shift,
        "c": c,
        "R": R,
        "gamma": g,
        "b": b,
        "R_aug": math.hypot(R, c),
        "gamma_aug": g / math.hypot(1.0, b / c),
        "bound": offset_bound(R, g, b, c),
        "c_best": cb,
        "bound_best": best_offset_bound(R, g, b),
        "mistakes": m,
    }


def shift_grid() -> list[float]:
    """The shift slider's values, as :func:`perceptron_core.explore` builds them from SHIFTS."""
    return slider_values(SHIFTS)


def frame_summary() -> dict[str, Any]:
    """What the prose says about all frames of the figure.

    At each shift, ``c_run`` is the slider's c with the fewest measured mistakes (the smallest
    such c on a tie) and ``c_best`` = √(R|b*|) the bound's best c.

    * ``factor``: the largest, over the shifts, of ``c_run/c_best`` or ``c_best/c_run``
      (whichever is at least 1), reached at shift ``factor_shift`` with ``factor_c_run`` and
      ``factor_c_best``; ``factor_far``: whether there ``c_run`` is the farther (in ratio) of
      the two slider values next to ``c_best``, and ``factor_near`` the ratio (at least 1) of
      the nearer one to ``c_best``;
    * ``bracketed``: at every shift ``c_run`` is one of the two slider values next to
      ``c_best`` (the largest slider c at most c_best, or the smallest at least c_best);
    * ``c_step``: the largest ratio of neighbouring slider values of c (all equal for CS, so
      that ``bracketed`` places ``c_run`` within a factor ``c_step`` of ``c_best``);
    * ``shifts``: the number of shifts; ``same_best``: at how many of them ``c_run`` is also
      the slider's c with the smallest bound; ``others_next``: at every other shift ``c_run``
      is the next larger slider c than that one;
    * ``max_ratio``: the largest ratio of measured mistakes to the bound, over all frames;
    * at the largest shift, the mistakes at the smallest c (``worst``, at ``c_small``) and the
      fewest over the slider (``best_run``); at shift 0, the most mistakes over the slider
      (``origin_most``); at the first non-zero shift (``near_shift``), the mistakes at the
      largest c, ``c_large`` (``near_large``), and the fewest over the slider (``near_best``).
    """
    factor, where, bracketed, same_best, others_next, max_ratio = 1.0, None, True, 0, True, 0.0
    far, nearer = None, None
    for shift in shift_grid():
        runs = [_mistakes(shift, c)[0] for c in CS]
        bounds = [offset_state(shift, c)["bound"] for c in CS]
        max_ratio = max(max_ratio, max(m / bd for m, bd in zip(runs, bounds)))
        i_run, i_bound = int(np.argmin(runs)), int(np.argmin(bounds))
        c_run = CS[i_run]
        cb = offset_state(shift, c_run)["c_best"]
        below = [c for c in CS if c <= cb]
        above = [c for c in CS if c >= cb]
        neighbours = {below[-1] if below else None, above[0] if above else None}
        bracketed = bracketed and c_run in neighbours
        if i_run == i_bound:
            same_best += 1
        else:
            others_next = others_next and i_run == i_bound + 1
        ratio = max(c_run / cb, cb / c_run)
        if ratio > factor:
            factor, where = ratio, (shift, c_run, cb)
            gaps = {c: max(c / cb, cb / c) for c in neighbours if c is not None}
            far, nearer = c_run == max(gaps, key=gaps.get), min(gaps.values())
    last = [_mistakes(shift_grid()[-1], c)[0] for c in CS]
    origin = [_mistakes(shift_grid()[0], c)[0] for c in CS]
    near_shift = shift_grid()[1]
    near = [_mistakes(near_shift, c)[0] for c in CS]
    return {"factor": factor, "factor_shift": where[0], "factor_c_run": where[1],
            "factor_c_best": where[2], "factor_far": far, "factor_near": nearer,
            "bracketed": bracketed,
            "c_step": max(b / a for a, b in zip(CS, CS[1:])), "shifts": len(shift_grid()),
            "same_best": same_best, "others_next": others_next, "max_ratio": max_ratio,
            "worst": last[0], "c_small": CS[0], "best_run": min(last),
            "origin_most": max(origin), "near_shift": near_shift, "near_large": near[-1],
            "c_large": CS[-1], "near_best": min(near)}


@lru_cache(maxsize=1)
def _frame_limits() -> tuple[tuple[float, float], tuple[float, float]]:
    """Limits shared by every frame: the data square over all shifts (left), and the bounds
    and mistakes over all shifts on log scales (right, y). With axes that stay put, the data
    are seen to move away from the origin as the slider moves, and the bound to grow."""
    lo, hi, ys = -1.2, 1.2, []
    grid = np.geomspace(CS[0] / 2, CS[-1] * 2, 40)
    for shift in shift_grid():
        X, _ = shifted_data(shift)
        lo, hi = min(lo, float(X.min()) - 0.3), max(hi, float(X.max()) + 0.3)
        states = [offset_state(shift, c) for c in CS]
        R, g, b = states[0]["R"], states[0]["gamma"], states[0]["b"]
        ys += [offset_bound(R, g, b, cc) for cc in grid]
        ys += [s["mistakes"] for s in states] + [states[0]["bound_best"]]
    y0, y1 = min(ys), max(ys)
    pad = (y1 / y0) ** 0.05  # matplotlib's 5 % margins, in decades
    return (lo, hi), (y0 / pad, y1 * pad)


def alt_text(shift: float, c: float) -> str:
    """Alt text of the figure, with the numbers it shows."""
    s = offset_state(shift, c)
    return (
        f"Planted data moved {s['shift']:.1f} away from the origin, augmented with c = "
        f"{s['c']:g}: R' = {s['R_aug']:.2f}, gamma' = {s['gamma_aug']:.4f}, bound for this c "
        f"{s['bound']:.0f}, bound for the best c = {s['c_best']:.2f} {s['bound_best']:.0f}, "
        f"and the perceptron made {s['mistakes']} mistakes. Right: the bound against c on a log "
        "scale, with the measured mistakes for each c of the slider below it."
    )


def draw(shift: float = 0.0, c: float = 1.0) -> Figure:
    """Left: the data, the maximum-margin separator and the run's separator. Right: the bound
    ``offset_bound(R, γ*_b, b*, c)`` as a function of c (log scales), its minimum, the current
    c, and the measured mistakes of the perceptron on ``augment(X, c)`` for each c of the slider.
    """
    s = offset_state(shift, c)
    X, y = shifted_data(s["shift"])
    _, _, b_star, u_star = _margin_at(s["shift"])
    m, w0, w1, b_run = _mistakes(s["shift"], s["c"])

    fig, (ax, ax2) = new_figure(2, width=8.4, height=4.1)
    # Room above the Axes for their two-line titles, which give the frame's numbers.
    fig.subplots_adjust(top=0.87, bottom=0.125, left=0.065, right=0.98, wspace=0.3)
    (lo, hi), bound_ylim = _frame_limits()
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    plot_points(ax, X, y, size=18)
    ax.scatter([0.0], [0.0], marker="+", s=80, c="black", zorder=4)
    ax.annotate("origin", (0.0, 0.0), textcoords="offset points", xytext=(4, -12), fontsize=9)
    plot_separator(ax, np.array(u_star), b_star, margin=s["gamma"], label="max margin",
                   show_normal=False)
    plot_separator(ax, np.array([w0, w1]), b_run, color="#ff7f0e", label="perceptron",
                   show_normal=False)
    ax.legend(loc="best", fontsize=9)
    ax.set_title(f"data moved by {s['shift']:.1f}\n"
                 f"the perceptron on (x, c) made {m} mistakes", fontsize=10)

    grid = np.geomspace(CS[0] / 2, CS[-1] * 2, 40)
    R, g, b = s["R"], s["gamma"], s["b"]
    ax2.plot(grid, [offset_bound(R, g, b, cc) for cc in grid], color="#555555",
             label="bound $(R^2+c^2)(1+b^2/c^2)/\\gamma^2$")
    ax2.plot(CS, [_mistakes(s["shift"], cc)[0] for cc in CS], "o-", color="#ff7f0e", ms=4,
             label="measured mistakes")
    ax2.axvline(s["c"], color="black", lw=0.8, ls=":")
    ax2.scatter([s["c"]], [s["bound"]], color="black", zorder=4, s=20)
    if s["c_best"] > 0:
        ax2.scatter([s["c_best"]], [s["bound_best"]], marker="*", s=90, color="#2ca02c", zorder=4,
                    label="best c")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_ylim(*bound_ylim)
    ax2.set_xlabel("c (the appended constant)")
    ax2.set_ylabel("mistakes")
    ax2.legend(loc="upper right", fontsize=9)
    ax2.set_title(
        f"R' = {s['R_aug']:.2f}, γ' = {s['gamma_aug']:.4f}\n"
        f"bound at c = {s['c']:g}: {s['bound']:.0f}; at best c = {s['c_best']:.2f}: "
        f"{s['bound_best']:.0f}",
        fontsize=10,
    )
    return fig


#: The chapter's explore() call, as ``(name, draw, params)``: timed by bench/bench_redraw.py,
#: and redrawn in place and compared with a fresh drawing by tests/drawing/test_render.py.
BENCH_CASES = [("offset-shift-c", draw, {"shift": SHIFTS, "c": CS})]
