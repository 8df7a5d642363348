"""Figures of the chapter "The convergence theorem" (Block–Novikoff), ``book/convergence.ipynb``.

The chapter computes its data and runs with the core and passes them here; these functions only
draw the bound from four sides:

* :func:`draw_invariants`: the two quantities of the proof, ``w_k·u`` and ``‖w_k‖``, traced
  mistake by mistake against their bounds ``kγ`` and ``√k R``;
* :func:`draw_survey`: total mistakes on many random data sets against ``(R/γ*)²``;
* :func:`draw_worst_case`: orthonormal points, where both lemmas hold with equality;
* :func:`draw_wedge`: two points whose margin halves with every extra bit, so the run doubles.

Each has an :class:`~perceptron_core.figures.sliders.Explorable` factory of the same name without
``draw_`` (:func:`invariants`, :func:`survey`, :func:`worst_case`, :func:`wedge`), which holds the
chapter's slider grid and alt text, so that the page's visible call is ``explore(cf.wedge(t))``.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike, NDArray

from .plotting import NEGATIVE, POSITIVE, new_figure, plot_points, plot_separator
from .sliders import Explorable

__all__ = ["proof_quantities", "draw_invariants", "draw_survey", "draw_worst_case", "draw_wedge",
           "invariants", "survey", "worst_case", "wedge", "BENCH_CASES"]

#: The left panel of the invariants figure ends this factor past the run's last mistake.
X_PAD = 1.15
_BOUND_COLOR, _ORANGE = "#555555", "#ff7f0e"
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def proof_quantities(X: ArrayLike, y: ArrayLike, indices: ArrayLike, u: ArrayLike
                     ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``w_k·u`` and ``‖w_k‖`` after each mistake ``k`` of a run without offset, from the indices
    of its mistakes (``w_k`` is the running sum of the ``yᵢxᵢ``)."""
    X, y, idx = np.asarray(X, float), np.asarray(y, float), np.asarray(indices, int)
    W = np.cumsum(y[idx, None] * X[idx], axis=0)
    return W @ np.asarray(u, float), np.linalg.norm(W, axis=1)


def draw_invariants(X: ArrayLike, y: ArrayLike, u: ArrayLike, run, gamma: float, R: float) -> Figure:
    """The squeeze of the proof: ``kγ ≤ w_k·u ≤ ‖w_k‖ ≤ √k R`` after each mistake k of ``run``.

    Left: the four quantities against k, up to a little past the last mistake. The two bounds
    would cross at ``k = (R/γ)²``, past which no mistake can happen, but the chapter's runs
    stop long before, so the crossing is off the panel. Right: the cosine ``w_k·u/‖w_k‖``
    against its lower bound ``√k γ/R``. ``gamma`` and ``R`` are the data's margin with respect
    to the unit vector ``u`` and their radius.
    """
    progress, norms = proof_quantities(X, y, run.history.indices, u)
    M = run.mistakes
    k = np.arange(1, M + 1)
    fig, (ax, ax2) = new_figure(2, width=8.6, height=3.6)
    # Few points on the bound curves (a square root is smooth) keep a redraw cheap.
    kk = np.linspace(0, max(M, 1) * X_PAD, 40)
    ax.plot(kk, np.sqrt(kk) * R, "--", color=NEGATIVE, lw=1.2, label="√k R (growth lemma)")
    ax.plot(k, norms, "o", ms=3, color=NEGATIVE, label="‖wₖ‖")
    ax.plot(k, progress, "o", ms=3, color=POSITIVE, label="wₖ·u")
    ax.plot(kk, kk * gamma, "--", color=POSITIVE, lw=1.2, label="kγ (progress lemma)")
    ax.set_xlabel("mistakes k")
    ax.set_ylabel("length")
    ax.legend(fontsize=9, loc="upper left", handlelength=1.5, labelspacing=0.3, borderaxespad=0.3)
    ax.set_title(f"γ = {gamma:.2f}, R = {R:.1f}: {M} mistakes ≤ (R/γ)² = {(R / gamma) ** 2:.0f}",
                 fontsize=10)
    ax2.plot(k, progress / norms, "o", ms=3, color="black", label="cos ∠(wₖ, u)")
    ax2.plot(kk, np.minimum(np.sqrt(kk) * gamma / R, 1.2), "--", color=_BOUND_COLOR, lw=1.2,
             label="√k γ/R")
    ax2.axhline(1.0, color=_BOUND_COLOR, lw=0.8)
    ax2.set_ylim(0, 1.1)
    ax2.set_xlabel("mistakes k")
    ax2.set_title("cosine ≥ √k γ/R, and cosine ≤ 1", fontsize=10)
    ax2.legend(fontsize=9, loc="lower right")
    return fig


def draw_survey(planted: ArrayLike, shell: ArrayLike, gamma: float, n: int, d: int = 10) -> Figure:
    """Each dot is one data set: its mistakes against its own bound ``(R/γ*)²`` (log–log).

    ``planted`` and ``shell`` are arrays of rows ``(mistakes, (R/γ*)²)``, one row per data set
    of margin ``gamma`` (with respect to the planted ``u``), radius 1 and ``n`` points in
    dimension ``d``. Everything lies below the diagonal ``mistakes = (R/γ*)²``, and left of the
    planted bound ``1/γ²`` (dotted), because γ* ≥ γ.
    """
    fig, (ax,) = new_figure(1, width=4.4, height=3.8)
    # Narrow enough for a phone's width with 9 pt legend; room for a two-line title.
    fig.subplots_adjust(left=0.16, right=0.96, bottom=0.13, top=0.86)
    planted_bound = 1 / gamma**2
    worst, count = 0.0, 0
    for family, rows, color, marker in (("planted", planted, POSITIVE, "o"),
                                        ("shell", shell, _ORANGE, "s")):
        m, b = np.asarray(rows, float).T
        worst, count = max(worst, float(np.max(m / b))), count + len(m)
        ax.scatter(b, np.maximum(m, 0.8), s=14, c=color, marker=marker, alpha=0.75,
                   label=f"{family}: most {int(m.max())} mistakes")
    lo, hi = 1.0, 1.3 * planted_bound
    ax.plot([lo, hi], [lo, hi], "-", color=_BOUND_COLOR, lw=1.0, label=r"mistakes $=(R/\gamma^*)^2$")
    ax.axvline(planted_bound, ls=":", color=_BOUND_COLOR, lw=1.0,
               label=r"$(R/\gamma)^2$ for the planted $u$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    # No minor ticks: on two log axes they are ~70 Tick objects, half the cost of a redraw.
    ax.minorticks_off()
    ax.set_xlim(lo, hi)
    ax.set_ylim(0.7, hi)
    ax.set_xlabel(r"bound $(R/\gamma^*)^2$ of the data set")
    ax.set_ylabel("mistakes of the perceptron")
    ax.legend(fontsize=9, loc="upper left")
    ax.set_title(f"γ = {gamma:.2f}, n = {n}, d = {d}, {count} data sets:\n"
                 f"mistakes ≤ {worst:.2f}·bound", fontsize=10)
    return fig


def draw_worst_case(X: ArrayLike, y: ArrayLike, run, u: ArrayLike) -> Figure:
    """Orthonormal points (``X`` of ``orthonormal_worst_case(n)``, ``u`` its max-margin
    direction): ``w_k·u = kγ*`` and ``‖w_k‖ = √k R`` exactly, and ``n = (R/γ*)²`` mistakes
    (ties count as mistakes)."""
    n = len(y)
    progress, norms = proof_quantities(X, y, run.history.indices, u)
    g, bound = 1 / np.sqrt(n), float(n)  # γ* = 1/√n and R = 1 (the chapter proves both)
    k = np.arange(1, run.mistakes + 1)
    fig, (ax,) = new_figure(1, width=4.4, height=3.6)
    fig.subplots_adjust(left=0.12, right=0.96, bottom=0.13, top=0.86)
    kk = np.linspace(0, bound, 40)
    ax.plot(kk, np.sqrt(kk), "--", color=NEGATIVE, lw=1.2, label="√k R")
    ax.plot(kk, kk * g, "--", color=POSITIVE, lw=1.2, label="kγ*")
    ax.plot(k, norms, "o", ms=4, color=NEGATIVE, label="‖wₖ‖")
    ax.plot(k, progress, "o", ms=4, color=POSITIVE, label="wₖ·u")
    ax.axvline(bound, ls=":", color=_BOUND_COLOR, lw=1.0)
    ax.set_xlim(0, 30.5)
    ax.set_ylim(0, 5.8)
    ax.set_xlabel("mistakes k")
    ax.set_ylabel("length")
    ax.legend(fontsize=9, loc="upper left")
    ax.set_title(f"n = {n} orthonormal points, γ* = {g:.3f}:\n"
                 f"{run.mistakes} mistakes = (R/γ*)² = {bound:.0f}", fontsize=10)
    return fig


def draw_wedge(table: dict, ell: int) -> Figure:
    """Left: a zoom on the two points of ``narrow_wedge(ell)``. Right: the run's length against
    the number of bits ℓ (log₂).

    ``table`` holds one entry per ℓ, each a list: ``ell``, ``gamma`` (γ*), ``mistakes``,
    ``epochs``, ``bound`` (``(R/γ*)²``), ``w_max_margin`` and ``w_final`` (the perceptron's).
    The left panel shows a window a few gaps wide around ``(1, 1)``: at the scale of the whole
    plane the two points coincide. Both separators pass through the origin, far away.
    """
    t = {key: np.asarray(v) for key, v in table.items()}
    i = int(np.flatnonzero(t["ell"] == ell)[0])
    gap = 2.0**-ell
    X, y = np.array([[1.0, 1.0], [1.0 - gap, 1.0]]), np.array([1.0, -1.0])
    fig, (ax, ax2) = new_figure(2, width=8.6, height=3.8)
    plot_points(ax, X, y, size=60)
    # A square window centred between the points, so the wedge fills the panel at every ℓ.
    ax.set_xlim(1 - 2.5 * gap, 1 + 1.5 * gap)
    ax.set_ylim(1 - 2 * gap, 1 + 2 * gap)
    ax.set_aspect("equal", adjustable="box")
    plot_separator(ax, t["w_max_margin"][i], margin=t["gamma"][i], label="max-margin separator",
                   show_normal=False)
    plot_separator(ax, t["w_final"][i], color=_ORANGE, label="perceptron's final w",
                   show_normal=False)
    ax.ticklabel_format(useOffset=False)
    ax.tick_params(labelsize=9)
    ax.legend(fontsize=9, loc="lower left")
    ax.set_title(f"ℓ = {ell}: zoom on (1, 1), gap 2^-{ell}, γ* = {t['gamma'][i]:.2e}", fontsize=10)
    ells = t["ell"]
    ax2.semilogy(ells, t["bound"], "s--", ms=4, color=_BOUND_COLOR, base=2, label="bound (R/γ*)²")
    ax2.semilogy(ells, t["mistakes"], "o-", ms=4, color=NEGATIVE, base=2, label="mistakes")
    ax2.semilogy(ells, t["epochs"], "^-", ms=4, color=POSITIVE, base=2, label="epochs (rounds)")
    ax2.semilogy(ells, 1 / t["gamma"], ":", color=_ORANGE, base=2, label="1/γ*")
    ax2.minorticks_off()
    # A tick at every fourth power of 2, labelled in Unicode: matplotlib's own labels are one
    # mathtext string a power, and parsing them was most of this figure's redraw.
    powers = range(0, int(np.ceil(np.log2(max(t["bound"].max(), 2)))) + 1, 4)
    ax2.set_yticks([2.0**k for k in powers], [f"2{str(k).translate(_SUPERSCRIPT)}" for k in powers])
    ax2.plot([ell, ell], [t["epochs"][i], t["bound"][i]], color="black", lw=0.8)
    ax2.plot([ell], [t["mistakes"][i]], "o", ms=9, mfc="none", mec="black")
    ax2.set_xlabel("bits ℓ (the gap is 2^−ℓ)")
    ax2.legend(fontsize=9, loc="upper left")
    ax2.set_title(f"{t['mistakes'][i]} mistakes, {t['epochs'][i]} epochs ≤ bound {t['bound'][i]:.0f}",
                  fontsize=10)
    return fig


def invariants(runs: dict) -> Explorable:
    """:func:`draw_invariants` with sliders γ and R; ``runs[gamma, R]`` holds its arguments
    ``(X, y, u, run, gamma, R)`` for γ in 0.05, 0.1, …, 0.25 and R in 1, 2."""
    return Explorable(lambda gamma, R: draw_invariants(*runs[gamma, R]),
                      dict(gamma=(0.05, 0.25, 0.05), R=[1.0, 2.0]),
                      alt="Perceptron run on shell data with margin {gamma} and radius {R}: "
                          "w_k.u stays above k*gamma and the norm of w_k below sqrt(k) R. The "
                          "cosine between w_k and u stays above its rising lower bound "
                          "sqrt(k) gamma/R; the cosine itself ends near 1 but can fall at a "
                          "mistake.")


def survey(table: dict) -> Explorable:
    """:func:`draw_survey` with sliders γ and n; ``table[gamma, n, family]`` holds the rows
    ``(mistakes, (R/γ*)²)`` of the ``"planted"`` and the ``"shell"`` data sets."""
    return Explorable(lambda gamma, n: draw_survey(table[gamma, n, "planted"],
                                                   table[gamma, n, "shell"], gamma, n),
                      dict(gamma=(0.05, 0.25, 0.1), n=[20, 100, 500]),
                      alt="Mistakes of the perceptron against the bound (R/gamma*)^2 on 80 "
                          "random data sets with margin {gamma} and {n} points: every data set "
                          "lies below the diagonal.")


def worst_case(runs: dict) -> Explorable:
    """:func:`draw_worst_case` with a slider n; ``runs[n]`` holds its arguments
    ``(X, y, run, u)`` for n = 2, 6, …, 30."""
    return Explorable(lambda n: draw_worst_case(*runs[n]), dict(n=(2, 30, 4, 14)),
                      alt="Perceptron, ties counted as mistakes, on {n} orthonormal points: "
                          "w_k.u equals k gamma* and the norm of w_k equals sqrt(k) at every "
                          "mistake, and the run makes exactly {n} mistakes, the bound.")


def wedge(table: dict) -> Explorable:
    """:func:`draw_wedge` with a slider ℓ = 0, 2, …, 10 over ``table`` (its argument)."""
    return Explorable(lambda ell: draw_wedge(table, ell), dict(ell=(0, 10, 2, 4)),
                      alt="Narrow wedge with gap 2^-{ell}: a zoom on the two points and the "
                          "separators, and on a log scale the bound (R/gamma*)^2, the mistakes "
                          "and the epochs of the perceptron against the number of bits ell.")


def _bench_cases() -> list:
    # The chapter's data, as its cells compute them (the survey on fewer data sets: the bench
    # times drawing, and 40 or 4 dots cost alike).
    from .. import max_margin, narrow_wedge, novikoff_bound, orthonormal_worst_case, perceptron, planted, radius

    inv = {}
    for gamma in (0.05, 0.1, 0.15, 0.2, 0.25):
        for R in (1.0, 2.0):
            X, y, u = planted(200, 10, gamma, R, seed=0)
            inv[gamma, R] = X, y, u, perceptron(X, y, record=True, max_epochs=10**6), gamma, R
    table = {}
    for gamma in (0.05, 0.15, 0.25):
        for n in (20, 100, 500):
            rows = []
            for s in range(4):
                X, y, _ = planted(n, 10, gamma, seed=s)
                rows.append((perceptron(X, y, max_epochs=10**6).mistakes,
                             novikoff_bound(radius(X), max_margin(X, y).gamma)))
            table[gamma, n, "planted"] = table[gamma, n, "shell"] = rows
    worst = {}
    for n in range(2, 31, 4):
        X, y = orthonormal_worst_case(n)
        worst[n] = X, y, perceptron(X, y, record=True), np.ones(n) / np.sqrt(n)
    wedge_t: dict = {key: [] for key in ("ell", "gamma", "mistakes", "epochs", "bound", "w_max_margin", "w_final")}
    for ell in range(11):
        X, y = narrow_wedge(ell)
        mm, run = max_margin(X, y), perceptron(X, y, max_epochs=10**6)
        for key, v in zip(wedge_t, (ell, mm.gamma, run.mistakes, run.epochs,
                                    novikoff_bound(radius(X), mm.gamma), mm.w, run.w)):
            wedge_t[key].append(v)
    cases = (("convergence-invariants", invariants(inv)), ("convergence-survey", survey(table)),
             ("convergence-worst-case", worst_case(worst)), ("convergence-wedge", wedge(wedge_t)))
    return [(name, e.draw, e.params) for name, e in cases]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() calls as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when asked for.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
