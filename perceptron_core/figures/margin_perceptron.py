"""Figures and tables of the chapter "The margin perceptron": updates against the bound, and
the margin reached against the target.

The chapter runs Margin Perceptron(γ) with target τ on one planted data set,
:func:`chapter_data`, for γ a fraction of the data's maximum margin γ* and τ on a grid. Each run
is cached, so that the slider figure redraws without rerunning anything.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike, NDArray

from ..algorithms import margin_perceptron
from ..bounds import margin_perceptron_bound
from ..data import planted
from ..geometry import MaxMargin, dataset_margin, max_margin, radius
from . import sliders
from .plotting import new_figure

__all__ = [
    "DATA",
    "FRACTIONS",
    "TARGETS",
    "TABLE_TARGETS",
    "ALT",
    "chapter_data",
    "optimum",
    "Reached",
    "reach",
    "slider_values",
    "slider_summary",
    "timed_runs",
    "draw",
    "BENCH_CASES",
]

#: ``planted(n, d, gamma, R, seed)`` arguments of the chapter's data set.
DATA = (500, 10, 0.05, 1.0, 0)
#: Slider of γ as a fraction of γ*: (start, stop, step, initial), 5 values ending at γ = γ*,
#: the initial one.
FRACTIONS = (0.2, 1.0, 0.2, 1.0)
#: Slider of the target τ: (start, stop, step, initial), 7 values, which include Balcan's ½
#: (the initial one) and the other targets of the chapter's table, TABLE_TARGETS.
TARGETS = (0.05, 0.95, 0.15, 0.5)
#: The targets of the chapter's table, run with γ = γ*: Balcan's ½, then closer to 1.
TABLE_TARGETS = (0.5, 0.8, 0.95)

ALT = (
    f"Margin perceptron on {DATA[0]} planted points in {DATA[1]} dimensions, with gamma = "
    "{fraction} times the "
    "maximum margin and target {target}. Left: the number of updates of each run, far below "
    "the bound 2(R/gamma)^2/eta^2 + 2(R/gamma)/eta (eta = 1 - target) drawn as a curve over "
    "the target. Right: the "
    "margin each run reaches, always at or above the guaranteed target times gamma and never "
    "above the maximum margin."
)

# Grid values are rounded as ``explore`` rounds them, so a cached run is found again.
_DECIMALS = 6


def _readonly(a: ArrayLike) -> NDArray:
    a = np.array(a, dtype=float)
    a.setflags(write=False)
    return a


@lru_cache(maxsize=1)
def chapter_data() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The chapter's data: ``planted(*DATA)``, 500 points in the unit ball of ℝ¹⁰ (read-only)."""
    X, y, _ = planted(*DATA[:4], seed=DATA[4])
    return _readonly(X), _readonly(y)


@lru_cache(maxsize=1)
def optimum() -> MaxMargin:
    """``max_margin`` of :func:`chapter_data` through the origin (certified interval)."""
    return max_margin(*chapter_data())


@dataclass(frozen=True)
class Reached:
    """One run of the chapter's figure.

    Attributes
    ----------
    fraction, target : the slider values: γ = fraction·γ*, and τ.
    gamma : the γ given to the run.
    updates : updates after the initialization.
    true_mistakes : how many of those updates were true mistakes, ``y w·x ≤ 0`` for the ``w``
        in use.
    bound : ``margin_perceptron_bound(R, γ, τ)``.
    margin : the normalized margin the run's ``w`` reaches on the data.
    epochs : epochs (sweeps over the data), including the final clean one.
    """

    fraction: float
    target: float
    gamma: float
    updates: int
    true_mistakes: int
    bound: float
    margin: float
    epochs: int


@lru_cache(maxsize=256)
def _reach(fraction: float, target: float) -> Reached:
    X, y = chapter_data()
    # gamma_low is certified: the data have at least this margin, so the theorem applies.
    gamma = fraction * optimum().gamma_low
    bound = margin_perceptron_bound(radius(X), gamma, target)
    # Every sweep but the last updates, so floor(bound) + 2 sweeps always suffice.
    run = margin_perceptron(X, y, gamma, target=target, max_epochs=int(bound) + 2, record=True)
    scores = np.sum(run.weights[:-1] * (y[:, None] * X)[run.update_indices], axis=1)
    return Reached(fraction, target, gamma, run.updates, int(np.sum(scores <= 0)), bound,
                   dataset_margin(X, y, run.w), run.epochs)


def reach(fraction: float, target: float) -> Reached:
    """The run with γ = ``fraction``·γ* and target ``target`` on :func:`chapter_data` (cached)."""
    return _reach(round(float(fraction), _DECIMALS), round(float(target), _DECIMALS))


def slider_values() -> tuple[list[float], list[float]]:
    """The fractions and the targets the figure's sliders offer."""
    return sliders.slider_values(FRACTIONS), sliders.slider_values(TARGETS)


def slider_summary() -> dict[str, float | int | bool]:
    """What every frame of the figure shows, summed up for the prose.

    Returns
    -------
    dict with ``frames``; ``within_bound`` and ``reached_target`` (every run); the largest
    ratio ``worst_ratio`` of updates to bound; the most updates ``most_updates``; the smallest
    ``min_excess`` and the largest ``max_excess`` of ``margin/(τγ)`` (at least 1 by the
    theorem). At the smallest fraction of γ* (``small_fraction``), over its ``small_runs`` runs
    (one per target): ``small_above``, how many reach a margin above γ itself, and
    ``small_below`` how many stay below γ; ``small_true_share``, the share of true mistakes
    among all their updates; ``small_max_over_gamma`` and ``small_min_over_gamma``, the largest
    and the smallest margin reached, as multiples of the γ the run was given.
    """
    fractions, targets = slider_values()
    runs = [reach(f, t) for f in fractions for t in targets]
    small = [r for r in runs if r.fraction == fractions[0]]
    return {
        "frames": len(runs),
        "within_bound": all(r.updates <= r.bound for r in runs),
        "reached_target": all(r.margin >= r.target * r.gamma for r in runs),
        "worst_ratio": max(r.updates / r.bound for r in runs),
        "most_updates": max(r.updates for r in runs),
        "min_excess": min(r.margin / (r.target * r.gamma) for r in runs),
        "max_excess": max(r.margin / (r.target * r.gamma) for r in runs),
        "small_fraction": fractions[0],
        "small_runs": len(small),
        "small_above": sum(r.margin > r.gamma for r in small),
        "small_below": sum(r.margin < r.gamma for r in small),
        "small_max_over_gamma": max(r.margin / r.gamma for r in small),
        "small_min_over_gamma": min(r.margin / r.gamma for r in small),
        "small_true_share": sum(r.true_mistakes for r in small) / sum(r.updates for r in small),
    }


def timed_runs(X: ArrayLike, y: ArrayLike, gamma: float, targets: tuple[float, ...],
               repeats: int = 5) -> list[dict[str, float | int]]:
    """Run the margin perceptron at each target and time it (best of ``repeats``, seconds).

    Returns
    -------
    list of dicts with ``target``, ``updates``, ``epochs``, ``bound``, ``margin`` (normalized,
    reached on the data) and ``time`` (seconds on this machine: a measurement, not a result).
    """
    X, y = np.asarray(X, float), np.asarray(y, float)
    R = radius(X)
    rows = []
    for target in targets:
        bound = margin_perceptron_bound(R, gamma, target)
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            run = margin_perceptron(X, y, gamma, target=target, max_epochs=int(bound) + 2)
            best = min(best, time.perf_counter() - start)
        rows.append({"target": target, "updates": run.updates, "epochs": run.epochs,
                     "bound": bound, "margin": dataset_margin(X, y, run.w), "time": best})
    return rows


def _log_span(values) -> tuple[float, float]:
    """Limits of a log axis over ``values``, with matplotlib's 5 % margins (in decades)."""
    lo, hi = float(np.min(values)), float(np.max(values))
    pad = (hi / lo) ** 0.05
    return lo / pad, hi * pad


@lru_cache(maxsize=1)
def _updates_ylim() -> tuple[float, float]:
    """The left panel's y limits: all it shows over every slider position, so the axes stay
    put while the bound and the runs move as γ changes."""
    X, _ = chapter_data()
    fractions, targets = slider_values()
    fine = np.linspace(targets[0], targets[-1], 200)
    gammas = [reach(f, targets[0]).gamma for f in fractions]
    bounds = [margin_perceptron_bound(radius(X), g, t) for g in gammas for t in fine]
    updates = [max(reach(f, t).updates, 1) for f in fractions for t in targets]
    return _log_span(bounds + updates)


def draw(fraction: float = 1.0, target: float = 0.5) -> Figure:
    """Updates against the bound (left) and margin reached against the target (right).

    Both panels show every target of the slider for the chosen γ = ``fraction``·γ*, and mark
    the chosen target.
    """
    here = reach(fraction, target)
    _, targets = slider_values()
    runs = [reach(fraction, t) for t in targets]
    X, _ = chapter_data()
    R, gstar = radius(X), optimum().gamma
    fig, (ax, ax2) = new_figure(2, width=8.8, height=3.8)
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.14, top=0.88, wspace=0.33)

    fine = np.linspace(targets[0], targets[-1], 200)
    ax.semilogy(fine, [margin_perceptron_bound(R, here.gamma, t) for t in fine], color="0.35",
                lw=1.4, label="bound $2(R/\\gamma)^2/\\eta^2 + 2(R/\\gamma)/\\eta$, "
                "$\\eta = 1 - \\tau$")
    ax.semilogy(targets, [max(r.updates, 1) for r in runs], "o", color="tab:blue", ms=5,
                label="updates of the run")
    ax.semilogy([here.target], [max(here.updates, 1)], "o", ms=12, mfc="none", mec="black")
    ax.set_xlabel("target τ")
    ax.set_ylabel("updates (log scale)")
    ax.set_xlim(0, 1)
    ax.set_ylim(*_updates_ylim())
    ax.legend(loc="upper left", fontsize=9)
    ax.set_title(f"τ = {here.target:g}: {here.updates} updates ≤ bound {here.bound:,.0f}",
                 fontsize=10)

    ax2.plot([0, 1], [0, here.gamma], color="0.35", lw=1.4, label="guarantee τγ")
    ax2.axhline(gstar, color="tab:green", ls="--", lw=1.0, label=f"γ* = {gstar:.4f}")
    ax2.axhline(here.gamma, color="tab:orange", ls=":", lw=1.2, label=f"γ = {fraction:g}·γ*")
    ax2.plot(targets, [r.margin for r in runs], "o", color="tab:blue", ms=5,
             label="margin reached")
    ax2.plot([here.target], [here.margin], "o", ms=12, mfc="none", mec="black")
    ax2.set_xlim(0, 1)
    ax2.set_ylim(0, 1.08 * gstar)
    ax2.set_xlabel("target τ")
    ax2.set_ylabel("normalized margin reached")
    ax2.legend(loc="upper left", fontsize=9)
    ax2.set_title(f"reached {here.margin:.4f} ≥ τγ = {here.target * here.gamma:.4f}",
                  fontsize=10)
    return fig


#: The chapter's explore() call, as ``(name, draw, params)``: timed by bench/bench_redraw.py,
#: and redrawn in place and compared with a fresh drawing by tests/drawing/test_render.py.
BENCH_CASES = [("margin-perceptron", draw, {"fraction": FRACTIONS, "target": TARGETS})]
