"""Figure of the chapter "The offset trick" (``book/offset.ipynb``).

The chapter moves planted data away from the origin, runs the perceptron on the augmented points
``(x, c)`` for every constant ``c`` of the slider, and passes the results here;
:func:`shift_and_constant` makes them a figure with sliders, and
:func:`draw_shift_and_constant` draws one frame: the data with the maximum-margin separator and
the run's, and the bound ``(R² + c²)(1 + b*²/c²)/γ²`` against c with the measured mistakes.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .plotting import new_figure, plot_points, plot_separator
from .sliders import Explorable

__all__ = ["frame_limits", "shift_and_constant", "draw_shift_and_constant", "BENCH_CASES"]


def _bound(R: float, gamma: float, b: float, c):
    # The theorem's bound on the points (x, c) (the chapter's offset_bound, elementwise in c).
    c = np.asarray(c, float)
    return (R**2 + c**2) * (1 + b**2 / c**2) / gamma**2


def frame_limits(frames: dict) -> tuple[tuple[float, float], tuple[float, float]]:
    """Limits shared by every frame: the data square over all shifts (left), and the bounds
    and mistakes over all shifts on log scales (right, y). With axes that stay put, the data
    are seen to move away from the origin as the slider moves, and the bound to grow."""
    lo, hi, ys = -1.2, 1.2, []
    for f in frames.values():
        cs = np.array(sorted(f["runs"]))
        lo, hi = min(lo, float(f["X"].min()) - 0.3), max(hi, float(f["X"].max()) + 0.3)
        ys += list(_bound(f["R"], f["gamma"], f["b"], np.geomspace(cs[0] / 2, cs[-1] * 2, 40)))
        ys += [m for m, _, _ in f["runs"].values()] + [((f["R"] + abs(f["b"])) / f["gamma"]) ** 2]
    y0, y1 = min(ys), max(ys)
    pad = (y1 / y0) ** 0.05  # matplotlib's 5 % margins, in decades
    return (lo, hi), (y0 / pad, y1 * pad)


def draw_shift_and_constant(frames: dict, limits, shift: float, c: float) -> Figure:
    """One frame: ``frames[shift]`` holds the data ``X, y``, their radius ``R``, maximum margin
    with an offset ``gamma``, its unit normal ``u`` and offset ``b``, and ``runs``: for each
    constant c of the slider, the run's ``(mistakes, w, b)`` on ``augment(X, c)`` in the original
    coordinates. ``limits`` is :func:`frame_limits` of all frames.

    Left: the data, the origin, the maximum-margin separator and the run's. Right: the bound as
    a function of c (log scales), its minimum at ``c = √(R|b*|)``, the current c, and the
    measured mistakes for each c.
    """
    f = frames[shift]
    R, g, b = f["R"], f["gamma"], f["b"]
    cs = np.array(sorted(f["runs"]))
    m, w_run, b_run = f["runs"][c]
    c_best = np.sqrt(R * abs(b))
    bound, bound_best = float(_bound(R, g, b, c)), ((R + abs(b)) / g) ** 2
    fig, (ax, ax2) = new_figure(2, width=8.4, height=4.1)
    # Room above the Axes for their two-line titles, which give the frame's numbers.
    fig.subplots_adjust(top=0.87, bottom=0.125, left=0.065, right=0.98, wspace=0.3)
    (lo, hi), bound_ylim = limits
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    plot_points(ax, f["X"], f["y"], size=18)
    # Named in the legend: a label beside the origin lands on the data while they surround it.
    ax.scatter([0.0], [0.0], marker="+", s=80, c="black", zorder=4, label="origin")
    plot_separator(ax, f["u"], b, margin=g, label="max margin", show_normal=False)
    plot_separator(ax, w_run, b_run, color="#ff7f0e", label="perceptron", show_normal=False)
    # A fixed corner: loc="best" tries every placement against every point, on every frame.
    ax.legend(loc="upper left", fontsize=9)
    ax.set_title(f"data moved by {shift:.1f}\nthe perceptron on (x, c) made {m} mistakes", fontsize=10)

    grid = np.geomspace(cs[0] / 2, cs[-1] * 2, 40)
    ax2.plot(grid, _bound(R, g, b, grid), color="#555555", label="bound $(R^2+c^2)(1+b^2/c^2)/\\gamma^2$")
    ax2.plot(cs, [f["runs"][cc][0] for cc in cs], "o-", color="#ff7f0e", ms=4, label="measured mistakes")
    ax2.axvline(c, color="black", lw=0.8, ls=":")
    ax2.scatter([c], [bound], color="black", zorder=4, s=20)
    if c_best > 0:
        ax2.scatter([c_best], [bound_best], marker="*", s=90, color="#2ca02c", zorder=4, label="best c")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    # No minor ticks: on two log axes they are ~90 Tick objects, half the cost of a redraw.
    ax2.minorticks_off()
    ax2.set_ylim(*bound_ylim)
    ax2.set_xlabel("c (the appended constant)")
    ax2.set_ylabel("mistakes")
    ax2.legend(loc="upper right", fontsize=9)
    gamma_aug = g / np.hypot(1.0, b / c)
    ax2.set_title(f"R' = {np.hypot(R, c):.2f}, γ' = {gamma_aug:.4f}\n"
                  f"bound at c = {c:g}: {bound:.0f}; at best c = {c_best:.2f}: {bound_best:.0f}",
                  fontsize=10)
    return fig


def shift_and_constant(frames: dict) -> Explorable:
    """The shift of the data and the constant c, on two sliders (chapter The offset trick).

    ``frames`` as :func:`draw_shift_and_constant` takes them, one per shift on an evenly
    spaced grid, each with the same constants c; the axes are :func:`frame_limits` of all.
    """
    limits, shifts = frame_limits(frames), sorted(frames)
    step = shifts[1] - shifts[0] if len(shifts) > 1 else 1.0
    cs = sorted(frames[shifts[0]]["runs"])

    def alt(shift: float, c: float) -> str:
        return (f"Left: planted data moved {shift:.1f} away from the origin, augmented with "
                f"c = {c:g}; the perceptron made {frames[shift]['runs'][c][0]} mistakes. "
                "Right: the bound against c on a log scale, with the measured mistakes for "
                "each c of the slider below it.")

    return Explorable(lambda shift, c: draw_shift_and_constant(frames, limits, shift, c),
                      dict(shift=(shifts[0], shifts[-1], step), c=cs), alt=alt)


def _bench_cases() -> list:
    # The chapter's frames, as its cells compute them.
    from .. import augment, max_margin, perceptron, planted, radius

    frames = {}
    for shift in np.arange(0.0, 4.01, 0.5).round(1).tolist():
        X, y, u = planted(40, 2, 0.1, 1.0, seed=3)
        X = X + shift * (2 * u + np.array([-u[1], u[0]])) / np.sqrt(5)
        mm = max_margin(X, y, offset=True)
        runs = {}
        for c in (0.25, 0.5, 1.0, 2.0, 4.0, 8.0):
            run = perceptron(augment(X, c), y, max_epochs=10**6)
            runs[c] = run.mistakes, run.w[:2], c * run.w[2]
        frames[shift] = dict(X=X, y=y, R=radius(X), gamma=mm.gamma, u=mm.w, b=mm.b, runs=runs)
    e = shift_and_constant(frames)
    return [("offset-shift-c", e.draw, e.params)]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() call as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when asked for.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
