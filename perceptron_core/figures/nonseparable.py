"""Figures of the chapter "When the data cannot be separated" (``book/nonseparable.ipynb``).

The chapter computes its runs and bounds with the core and passes them here; these functions
only draw:

* :func:`draw_never_settles`: the weights of a run with an offset after each mistake, and its
  mistakes per epoch, which never fall to zero;
* :func:`draw_noise`: a run on noisy data against Balcan's hinge-loss bound, pass by pass and
  as a function of γ.

:func:`never_settles` and :func:`noise` are the chapter's sliders (:class:`Explorable`: the
drawing, its grid and its alt text). The module also keeps the constants ``WAYS`` and
``RBF_WIDTHS`` that the chapter's exercises use.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .plotting import NEGATIVE, POSITIVE, new_figure
from .sliders import Explorable

__all__ = ["WAYS", "RBF_WIDTHS", "never_settles", "draw_never_settles", "noise", "draw_noise",
           "BENCH_CASES"]

#: The "ways out" comparison: planted training and test points in dimension ``d`` with planted
#: margin ``margin``, a fraction ``rate`` of the training labels flipped, ``epochs`` epochs,
#: ``trials`` repetitions; the Iris splits take ``iris_train`` flowers of each species.
WAYS = {"n_train": 200, "n_test": 1000, "d": 10, "margin": 0.05, "rate": 0.1, "epochs": 10,
        "trials": 20, "iris_train": 25}
#: The widths ``gamma`` of the Gaussian kernel tried in the exercise on Iris.
RBF_WIDTHS = (0.1, 1.0, 10.0)
_BOUND_COLOR, _ORANGE = "#555555", "#ff7f0e"


def draw_never_settles(X: ArrayLike, y: ArrayLike, run, cycle: tuple[int, int] | None,
                       name: str) -> Figure:
    """Left: the weights and offset of a recorded run with an offset after each mistake (at most
    24 mistakes on 4 points, else 4000). Right: the mistakes in each epoch. ``cycle`` is
    ``find_cycle(run, len(y))``, for the title."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    idx, few = run.history.indices, len(y) <= 4
    shown = min(run.mistakes, 24 if few else 4000)
    # θ_k = (w_k, b_k): the running sum of the yᵢ(xᵢ, 1), in the run's order.
    theta = np.cumsum(y[idx[:shown], None] * np.c_[X[idx[:shown]], np.ones(shown)], axis=0)
    per_epoch = np.bincount(run.history.epochs, minlength=run.epochs + 1)[1:]
    fig, (ax, ax2) = new_figure(2, width=8.4, height=4.4)
    # Axes narrow enough that the left panel, its title wider than its Axes, fits a phone; room
    # below them for the legend, which would hide the XOR case's weights inside the Axes.
    fig.subplots_adjust(left=0.11, right=0.975, bottom=0.27, wspace=0.38)
    k = np.arange(1, shown + 1)
    colors = [POSITIVE, NEGATIVE, _ORANGE, "#2ca02c", "#9467bd"]
    # With few mistakes, each series wider and with larger marks than the next, drawn under
    # it: where they agree (XOR's w₁ and b, often) the one below shows round the one on top.
    d, wide = X.shape[1], (lambda j: d - j) if few else (lambda j: 0)
    for j in range(d):
        ax.plot(k, theta[:, j], "-", lw=1 + 1.2 * wide(j), color=colors[j % 5], zorder=2 + j,
                marker="o" if few else None, ms=3 + 2.5 * wide(j), label=f"$w_{j + 1}$")
    ax.plot(k, theta[:, -1], "--", lw=1, color="black", marker="s" if few else None, ms=3,
            zorder=2 + d, label="$b$")
    ax.set_xlabel("mistakes $k$")
    ax.set_ylabel("weight after mistake $k$")
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=3)
    ax.set_title(f"{name}: state repeats every {cycle[1]} mistakes" if cycle is not None
                 else f"{name}: first {shown} mistakes, no repeat", fontsize=10)
    epochs = np.arange(1, len(per_epoch) + 1)
    ax2.plot(epochs, per_epoch, "o-" if few else "-", ms=4, lw=1, color=NEGATIVE)
    ax2.set_ylim(0, per_epoch.max() * 1.15 + 0.5)
    ax2.set_xlabel("epoch")
    ax2.set_ylabel("mistakes in the epoch")
    ax2.set_title(f"never 0: at least {per_epoch.min()} per epoch, {run.mistakes} in all", fontsize=10)
    return fig


def never_settles(runs: dict) -> Explorable:
    """The runs of ``runs`` (name -> ``(X, y, run)``, recorded runs with an offset), one choice
    each: their weights after each mistake and their mistakes per epoch."""
    from .. import find_cycle

    cases = {name: (X, y, run, find_cycle(run, len(y)), name)
             for name, (X, y, run) in runs.items()}
    return Explorable(lambda data: draw_never_settles(*cases[data]), dict(data=list(cases)),
                      alt="The perceptron with an offset on {data}: the weights after each "
                          "mistake, and the mistakes made in each epoch, which never fall to "
                          "zero.")


def draw_noise(run, n: int, best: list, gammas: ArrayLike, curve: ArrayLike, rate: float) -> Figure:
    """Left: cumulative mistakes of a recorded run against rounds (``n`` examples a pass), with
    the bound for p passes (``best[p-1]``, a ``BestGamma``) at the end of pass p. Right: the
    bound for all passes, ``curve``, against ``gammas``, and its minimum."""
    passes = len(best)
    h = run.history
    rounds = (h.epochs - 1) * n + h.indices + 1
    fig, (ax, ax2) = new_figure(2, width=8.6, height=4.6)
    # Room below the Axes for their legends: inside, they hid bound markers and the bound's
    # minimum in some frames.
    fig.subplots_adjust(bottom=0.3, top=0.92)
    ax.step(np.r_[0, rounds, passes * n], np.r_[0, np.arange(1, run.mistakes + 1), run.mistakes],
            where="post", color=NEGATIVE, lw=1.5, label="mistakes so far")
    ends = np.arange(1, passes + 1) * n
    ax.plot(ends, [b.bound for b in best], "s--", ms=4, color=_BOUND_COLOR, lw=1,
            label="Balcan's bound for $p$ passes")
    ax.plot(ends, ends, ":", color=POSITIVE, lw=1, label="trivial bound: every round")
    ax.set_ylim(0, max(run.mistakes, best[-1].bound) * 1.1 + 1)
    ax.set_xlim(0, passes * n)
    ax.set_xlabel("rounds (examples presented)")
    ax.set_ylabel("cumulative mistakes")
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.19))
    ax.set_title(f"noise {rate:.2f}: {run.mistakes} mistakes ≤ bound {best[-1].bound:.0f}", fontsize=10)
    ax2.plot(gammas, curve, color=_BOUND_COLOR, lw=1.2, label=f"bound for {passes} passes")
    ax2.axhline(run.mistakes, color=NEGATIVE, lw=1, label="mistakes of the run")
    ax2.plot([best[-1].gamma], [best[-1].bound], "o", ms=7, mfc="none", mec="black",
             label=f"best γ = {best[-1].gamma:.3f}")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    # No minor ticks (~70 Tick objects on two log axes, half the cost of a redraw), and the same
    # decades in every frame, so that the mistakes line moves and the axes do not.
    ax2.minorticks_off()
    ax2.set_ylim(1, 1e4)
    ax2.set_xlabel(r"$\gamma$ (planted $u$)")
    ax2.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.19), ncol=2)
    ax2.set_title("choosing γ: one u, many bounds", fontsize=10)
    return fig


def noise(frames: dict) -> Explorable:
    """:func:`draw_noise` for each ``(rate, seed)`` of ``frames``, whose values are its
    arguments ``(run, n, best, gammas, curve, rate)``: rates 0 to 0.2 by 0.02, seeds 0, 1, 2."""
    return Explorable(lambda rate, seed: draw_noise(*frames[rate, seed]),
                      dict(rate=(0.0, 0.2, 0.02), seed=[0, 1, 2]),
                      alt="Planted data, 200 points in dimension 5, with a fraction {rate} of "
                          "the labels flipped (seed {seed}): the perceptron's cumulative "
                          "mistakes over 10 passes against Balcan's bound for the planted u, "
                          "paid again on every pass; and the bound after 10 passes as a "
                          "function of gamma, smallest at the marked gamma.")


def _bench_cases() -> list:
    # The chapter's data, as its cells compute them.
    import warnings

    from .. import ConvergenceWarning, flip_labels, iris_pair, perceptron, planted, radius, xor
    from ..bounds import best_gamma, bound_at

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        Xi, yi = iris_pair("versicolor", "virginica")
        runs = {}
        for name, (X, y), epochs in (("XOR", xor(), 6),
                                     ("Iris versicolor/virginica", (np.round(10 * Xi), yi), 1000)):
            runs[name] = X, y, perceptron(X, y, offset=True, max_epochs=epochs, record=True)
        gammas, frames = np.geomspace(0.02, 1.5, 60), {}
        for rate in np.round(np.arange(0.0, 0.201, 0.02), 2).tolist():
            for seed in (0, 1, 2):
                X, y, u = planted(200, 5, 0.1, 1.0, seed=seed)
                y = flip_labels(y, rate, seed=seed)
                run, R = perceptron(X, y, max_epochs=10, record=True), radius(X)
                best = [best_gamma(X, y, u, R=R, passes=p) for p in range(1, 11)]
                curve = [bound_at(y * (X @ u), R, g, 10) for g in gammas]
                frames[rate, seed] = run, 200, best, gammas, curve, rate
    return [(name, e.draw, e.params) for name, e in
            (("nonseparable-never-settles", never_settles(runs)),
             ("nonseparable-noise", noise(frames)))]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() calls as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when asked for.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
