"""Figure of the chapter "The Margin Perceptron" (``book/margin_perceptron.ipynb``).

The chapter runs Balcan's Margin Perceptron with the core for every γ (a fraction of γ*) and
target τ of the sliders and passes the runs here; :func:`draw_target_runs` only draws one
frame: the updates against the bound, and the margin reached against the target.
:func:`target_runs` puts the frames on the chapter's two sliders.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .plotting import new_figure
from .sliders import Explorable

__all__ = ["draw_target_runs", "target_runs", "BENCH_CASES"]


def _bound(R: float, gamma: float, target):
    # The theorem's bound 2(R/γ)²/η² + 2(R/γ)/η, η = 1 − τ (margin_perceptron_bound), over τ.
    eta = 1 - np.asarray(target, float)
    return 2 * (R / gamma) ** 2 / eta**2 + 2 * (R / gamma) / eta


def draw_target_runs(frames: dict, R: float, gstar: float, fraction: float,
                     target: float) -> Figure:
    """Updates against the bound (left) and margin reached against the target (right).

    ``frames[fraction, target]`` holds the run with γ = fraction·γ* and that target: ``gamma``,
    ``updates``, ``bound`` and ``margin`` (the normalized margin it reaches); ``R`` and
    ``gstar`` (γ*) are the data's. Both panels show every target for the chosen fraction, and
    mark the chosen target; the left panel's limits cover every frame, so the axes stay put.
    """
    here = frames[fraction, target]
    targets = sorted(t for f, t in frames if f == fraction)
    runs = [frames[fraction, t] for t in targets]
    fig, (ax, ax2) = new_figure(2, width=8.8, height=3.8)
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.14, top=0.88, wspace=0.33)

    fine = np.linspace(targets[0], targets[-1], 200)
    ax.semilogy(fine, _bound(R, here["gamma"], fine), color="0.35",
                lw=1.4, label="bound $2(R/\\gamma)^2/\\eta^2 + 2(R/\\gamma)/\\eta$, "
                "$\\eta = 1 - \\tau$")
    ax.semilogy(targets, [max(r["updates"], 1) for r in runs], "o", color="tab:blue", ms=5,
                label="updates of the run")
    ax.semilogy([target], [max(here["updates"], 1)], "o", ms=12, mfc="none", mec="black")
    ax.set_xlabel("target τ")
    ax.set_ylabel("updates (log scale)")
    ax.set_xlim(0, 1)
    # No minor ticks: ~30 Tick objects on a log axis, a large share of a redraw.
    ax.minorticks_off()
    every = [max(f["updates"], 1) for f in frames.values()] + [
        b for f in frames.values() for b in _bound(R, f["gamma"], fine)]
    lo, hi = min(every), max(every)
    pad = (hi / lo) ** 0.05  # matplotlib's 5 % margins, in decades
    ax.set_ylim(lo / pad, hi * pad)
    ax.legend(loc="upper left", fontsize=9)
    ax.set_title(f"τ = {target:g}: {here['updates']} updates ≤ bound {here['bound']:,.0f}",
                 fontsize=10)

    ax2.plot([0, 1], [0, here["gamma"]], color="0.35", lw=1.4, label="guarantee τγ")
    ax2.axhline(gstar, color="tab:green", ls="--", lw=1.0, label=f"γ* = {gstar:.4f}")
    ax2.axhline(here["gamma"], color="tab:orange", ls=":", lw=1.2, label=f"γ = {fraction:g}·γ*")
    ax2.plot(targets, [r["margin"] for r in runs], "o", color="tab:blue", ms=5,
             label="margin reached")
    ax2.plot([target], [here["margin"]], "o", ms=12, mfc="none", mec="black")
    ax2.set_xlim(0, 1)
    ax2.set_ylim(0, 1.4 * gstar)
    ax2.set_xlabel("target τ")
    ax2.set_ylabel("normalized margin reached")
    # Two rows in room of their own above γ* (the limit leaves it): over the data it hid the γ*
    # and γ lines, or the marks.
    ax2.legend(loc="upper center", ncol=2, fontsize=9, columnspacing=1.0, handlelength=1.5)
    ax2.set_title(f"reached {here['margin']:.4f} ≥ τγ = {target * here['gamma']:.4f}",
                  fontsize=10)
    return fig


def target_runs(frames: dict, R: float, gstar: float) -> Explorable:
    """The chapter's sliders over ``frames[fraction, target]`` (see :func:`draw_target_runs`):
    γ from 0.2 to 1 times γ*, the target τ from 0.05 to 0.95, starting at γ = γ*, τ = ½."""
    return Explorable(
        lambda fraction, target: draw_target_runs(frames, R, gstar, fraction, target),
        dict(fraction=(0.2, 1.0, 0.2, 1.0), target=(0.05, 0.95, 0.15, 0.5)),
        alt="Margin perceptron runs with gamma = {fraction} times the maximum margin and "
            "target {target}. Left: the number of updates of each run, far below the bound "
            "2(R/gamma)^2/eta^2 + 2(R/gamma)/eta (eta = 1 - target) drawn as a curve over "
            "the target. Right: the margin each run reaches, always at or above the "
            "guaranteed target times gamma and never above the maximum margin.")


def _bench_cases() -> list:
    # The chapter's runs, as its cells compute them.
    from .. import dataset_margin, margin_perceptron, margin_perceptron_bound, max_margin, planted, radius

    X, y, _ = planted(500, 10, 0.05, 1.0, seed=0)
    opt, R, frames = max_margin(X, y), radius(X), {}
    for f in (0.2, 0.4, 0.6, 0.8, 1.0):
        for t in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95):
            g = f * opt.gamma_low
            b = margin_perceptron_bound(R, g, t)
            r = margin_perceptron(X, y, g, target=t, max_epochs=int(b) + 2)
            frames[f, t] = dict(gamma=g, updates=r.updates, bound=b, margin=dataset_margin(X, y, r.w))
    e = target_runs(frames, R, opt.gamma)
    return [("margin-perceptron", e.draw, e.params)]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() call as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when asked for.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
