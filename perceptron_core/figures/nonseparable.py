"""Figures of the chapter "When the data cannot be separated" (``book/nonseparable.ipynb``).

The chapter computes its runs and bounds with the core and passes them here; these functions
only draw:

* :func:`draw_never_settles`: the weights of a run with an offset after each mistake, and its
  mistakes per epoch, which never fall to zero;
* :func:`draw_noise`: a run on noisy data against Balcan's hinge-loss bound, pass by pass and
  as a function of γ.

It also keeps two things the chapter's exercises use: the constants ``WAYS`` and
``RBF_WIDTHS``, and :func:`naive_dual_mistakes`, a dual perceptron written the obvious way.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from .plotting import NEGATIVE, POSITIVE, new_figure

__all__ = ["WAYS", "RBF_WIDTHS", "NAIVE_DUAL_EXAMPLE", "naive_dual_mistakes", "draw_never_settles",
           "draw_noise", "BENCH_CASES"]

#: The "ways out" comparison: planted training and test points in dimension ``d`` with planted
#: margin ``margin``, a fraction ``rate`` of the training labels flipped, ``epochs`` epochs,
#: ``trials`` repetitions; the Iris splits take ``iris_train`` flowers of each species.
WAYS = {"n_train": 200, "n_test": 1000, "d": 10, "margin": 0.05, "rate": 0.1, "epochs": 10,
        "trials": 20, "iris_train": 25}
#: Three points of the line, entries in tenths, on which a dual perceptron that adds its scores
#: in floating point parts ways with the perceptron: ``(X, y, epochs)``.
NAIVE_DUAL_EXAMPLE = ((0.1, 0.1, -0.2), (-1.0, 1.0, 1.0), 10)
#: The widths ``gamma`` of the Gaussian kernel tried in the exercise on Iris.
RBF_WIDTHS = (0.1, 1.0, 10.0)
_BOUND_COLOR, _ORANGE = "#555555", "#ff7f0e"


def naive_dual_mistakes(X: ArrayLike, y: ArrayLike, epochs: int, tie: str = "mistake") -> list[int]:
    """The examples of the mistakes of a dual perceptron written the obvious way, in order.

    It keeps the counts ``αⱼ`` and computes each score as the floating-point sum
    ``Σⱼ αⱼ yⱼ (xⱼ·xᵢ)``, added left to right in plain Python (the same roundings on every
    machine), then reads its sign by the tie rule. These are the perceptron's numbers added in
    another order, so a score within rounding of 0 can come out with the other sign. It stops
    after a sweep without a mistake, or after ``epochs`` sweeps.
    """
    rows, labels = np.asarray(X, float).tolist(), np.asarray(y, float).tolist()
    if tie not in ("mistake", "positive", "negative"):
        raise ValueError(f"tie must be 'mistake', 'positive' or 'negative', got {tie!r}.")

    def total(terms) -> float:
        s = 0.0
        for term in terms:
            s += term
        return s

    G = [[total(p * q for p, q in zip(a, b)) for b in rows] for a in rows]
    alpha, mistakes = [0.0] * len(labels), []
    for _ in range(epochs):
        clean = True
        for i, label in enumerate(labels):
            score = total(alpha[j] * labels[j] * G[j][i] for j in range(len(labels)))
            if score == 0.0:
                wrong = tie == "mistake" or (tie == "positive") == (label < 0)
            else:
                wrong = label * score < 0
            if wrong:
                alpha[i] += 1
                mistakes.append(i)
                clean = False
        if clean:
            break
    return mistakes


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


def _bench_cases() -> list:
    # The chapter's data, as its cells compute them.
    import warnings

    from .. import ConvergenceWarning, find_cycle, flip_labels, iris_pair, perceptron, planted, radius, xor
    from ..bounds import best_gamma, bound_at

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        Xi, yi = iris_pair("versicolor", "virginica")
        settles = {}
        for name, (X, y), epochs in (("XOR", xor(), 6),
                                     ("Iris versicolor/virginica", (np.round(10 * Xi), yi), 1000)):
            run = perceptron(X, y, offset=True, max_epochs=epochs, record=True)
            settles[name] = X, y, run, find_cycle(run, len(y)), name
        gammas, noise = np.geomspace(0.02, 1.5, 60), {}
        for rate in np.round(np.arange(0.0, 0.201, 0.02), 2).tolist():
            for seed in (0, 1, 2):
                X, y, u = planted(200, 5, 0.1, 1.0, seed=seed)
                y = flip_labels(y, rate, seed=seed)
                run, R = perceptron(X, y, max_epochs=10, record=True), radius(X)
                best = [best_gamma(X, y, u, R=R, passes=p) for p in range(1, 11)]
                curve = [bound_at(y * (X @ u), R, g, 10) for g in gammas]
                noise[rate, seed] = run, 200, best, gammas, curve, rate
    return [
        ("nonseparable-never-settles", lambda data: draw_never_settles(*settles[data]),
         {"data": list(settles)}),
        ("nonseparable-noise", lambda rate, seed: draw_noise(*noise[rate, seed]),
         {"rate": (0.0, 0.2, 0.02), "seed": [0, 1, 2]}),
    ]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() calls as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when asked for.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
