"""Figures and small helpers for the chapter "The convergence theorem" (Block–Novikoff).

The chapter proves that the perceptron makes at most ``(R/γ)²`` mistakes and then looks at the
bound from four sides, one figure each:

* :func:`draw_invariants`: the two quantities of the proof, ``w_k·u`` and ``‖w_k‖``, traced
  mistake by mistake against their bounds ``kγ`` and ``√k R``;
* :func:`draw_survey`: total mistakes on many random data sets against ``(R/γ*)²``;
* :func:`draw_worst_case`: orthonormal points, where both lemmas hold with equality;
* :func:`draw_wedge`: two points whose margin halves with every extra bit, so the run doubles.

and computes two tables the prose quotes: the family in {0,1}ⁿ whose margin shrinks
exponentially in n (:func:`hypercube_table`), and the 1-D data on which ``(R/γ*_b)²`` fails to
bound the perceptron with an offset (:func:`offset_counterexample`). :func:`cosine_falls` counts
the mistakes of a run at which the cosine between ``w_k`` and ``u`` went down,
:func:`mistake_products` gives the products ``yᵢ w_{k−1}·xᵢ`` at a run's mistakes,
:func:`invariants_grid` says what the first figure shows at every setting of its sliders and
:func:`survey_summary` what the second shows over its settings.

The slider grids of the figures are named once here (``*_SLIDERS``); the chapter passes them
to :func:`perceptron_core.explore`, and the numbers its prose quotes about them are computed
from them.

Every expensive run is cached with :func:`functools.lru_cache` keyed on the slider values, so
a redraw only re-plots.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import NDArray

from ..algorithms import PerceptronResult, perceptron
from ..bounds import max_rounds, novikoff_bound, offset_bound, uml_bound, unnormalized_bound
from ..data import (
    fibonacci,
    hypercube_mu,
    hypercube_small_margin,
    narrow_wedge,
    orthonormal_worst_case,
    planted,
)
from ..geometry import dataset_margin, max_margin, radius
from .sliders import slider_grid
from .plotting import NEGATIVE, POSITIVE, new_figure, plot_points, plot_separator

__all__ = [
    "shell_data",
    "slider_values",
    "invariants_run",
    "invariants_grid",
    "same_ratio_settings",
    "draw_invariants",
    "three_forms",
    "survey",
    "draw_survey",
    "independence_table",
    "worst_case_run",
    "draw_worst_case",
    "wedge_table",
    "draw_wedge",
    "cosine_falls",
    "mistake_products",
    "survey_summary",
    "hypercube_mu",
    "hypercube_table",
    "offset_counterexample",
    "INVARIANTS_SLIDERS",
    "SURVEY_SLIDERS",
    "WORST_CASE_SLIDERS",
    "WEDGE_SLIDERS",
    "INVARIANTS_ALT",
    "SURVEY_ALT",
    "WORST_CASE_ALT",
    "WEDGE_ALT",
    "BENCH_CASES",
]

# A cap far above every run in the chapter: the theorem guarantees these runs stop long before.
_MAX_EPOCHS = 1_000_000
INVARIANTS_N, INVARIANTS_D = 200, 10
SURVEY_TRIALS, SURVEY_D, SURVEY_R = 40, 10, 1.0
WEDGE_ELL_MAX = 10
HYPERCUBE_N_MAX = 12
# The left panel of the first figure ends this factor past the run's last mistake.
_INVARIANTS_X_PAD = 1.15

# Slider grids of the chapter's four figures, in explore()'s format: (start, stop, step) or
# (start, stop, step, initial) for a range, a list for a choice.
INVARIANTS_SLIDERS = {"gamma": (0.05, 0.25, 0.05), "R": [1.0, 2.0]}
SURVEY_SLIDERS = {"gamma": (0.05, 0.25, 0.1), "n": [20, 100, 500]}
WORST_CASE_SLIDERS = {"n": (2, 30, 4, 14)}
WEDGE_SLIDERS = {"ell": (0, WEDGE_ELL_MAX, 2, 4)}

# Alt texts of the chapter's interactive figures; {name} is filled with the slider's value.
INVARIANTS_ALT = (
    "Perceptron run on shell data with margin {gamma} and radius {R}: w_k.u stays above "
    "k*gamma and the norm of w_k below sqrt(k) R. The cosine between w_k and u stays above "
    "its rising lower bound sqrt(k) gamma/R; the cosine itself ends near 1 but can fall "
    "at a mistake."
)
SURVEY_ALT = (
    f"Mistakes of the perceptron against the bound (R/gamma*)^2 on {2 * SURVEY_TRIALS} "
    "random data sets with margin {gamma} and {n} points: every data set lies below the "
    "diagonal."
)
WORST_CASE_ALT = (
    "Perceptron, ties counted as mistakes, on {n} orthonormal points: w_k.u equals "
    "k gamma* and the norm of w_k equals sqrt(k) at every mistake, and the run makes "
    "exactly {n} mistakes, the bound."
)
WEDGE_ALT = (
    "Narrow wedge with gap 2^-{ell}: a zoom on the two points and the separators, and on a "
    "log scale the bound (R/gamma*)^2, the mistakes and the epochs of the perceptron "
    "against the number of bits ell."
)
_BOUND_COLOR, _ORANGE = "#555555", "#ff7f0e"


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------


def shell_data(
    n: int, d: int, gamma: float, R: float = 1.0, *, seed: int = 0
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Hard separable data: every point on the sphere of radius R, just outside the margin γ.

    Labels and the unit vector ``u`` come from :func:`perceptron_core.planted` with the same
    seed. Each point then gets ``yᵢ u·xᵢ`` uniform in ``[γ, min(2γ, R)]`` (point 0 exactly
    γ) and a random part orthogonal to ``u`` that brings its norm up to exactly R. Planted
    data spread the margins over ``[γ, R]``, so most points are easy; here every update adds
    the most length the growth lemma allows and nearly the least progress, which is where the
    bound bites.

    Parameters
    ----------
    n, d : number of points and dimension (``d ≥ 2`` so there is an orthogonal part).
    gamma : margin with respect to ``u``, ``0 < γ ≤ R``.
    R : the common norm of the points.
    seed : random seed.

    Returns
    -------
    X : array (n, d); y : labels ±1; u : the unit vector with ``min yᵢ u·xᵢ = γ``.
    """
    if d < 2:
        raise ValueError(f"shell_data needs d >= 2 (an orthogonal part), got d={d}.")
    if not 0 < gamma <= R:
        raise ValueError(f"shell_data needs 0 < gamma <= R, got gamma={gamma}, R={R}.")
    _, y, u = planted(n, d, gamma, R, seed=seed)
    rng = np.random.default_rng([seed, 1])
    along = rng.uniform(gamma, min(2 * gamma, R), size=n)
    along[0] = gamma
    g = rng.standard_normal((n, d))
    g -= np.outer(g @ u, u)
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    X = (y * along)[:, None] * u + g * np.sqrt(R**2 - along**2)[:, None]
    return X, y, u


def slider_values(sliders: dict) -> dict[str, list]:
    """The values each slider of an explore() grid takes, e.g. ``{"gamma": [0.05, 0.15, 0.25]}``."""
    return slider_grid(**sliders)


# --------------------------------------------------------------------------------------------
# Figure 1: the two invariants of the proof
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def invariants_run(
    gamma: float, R: float, seed: int = 0
) -> tuple[PerceptronResult, float, float]:
    """Perceptron run on :func:`shell_data` (n=200, d=10) with the proof's ``u`` recorded.

    Returns
    -------
    result : the run, whose history holds ``progress`` (``w_k·u``) and ``norms_sq`` (``‖w_k‖²``).
    gamma_u : the margin of the data with respect to ``u`` (equals ``gamma``).
    R_data : ``max ‖xᵢ‖`` (equals ``R``).
    """
    X, y, u = shell_data(INVARIANTS_N, INVARIANTS_D, gamma, R, seed=seed)
    res = perceptron(X, y, u=u, max_epochs=_MAX_EPOCHS)
    return res, dataset_margin(X, y, u), radius(X)


def invariants_grid() -> dict[str, float]:
    """What the first figure shows, over every setting of :data:`INVARIANTS_SLIDERS`.

    The two dashed bounds of the left panel, ``kγ`` and ``√k R``, cross at ``k = (R/γ)²``; the
    panel ends at :data:`_INVARIANTS_X_PAD` times the run's mistakes. Returns

    * ``ratio_lo``, ``ratio_hi``: the smallest and largest ``mistakes / (R/γ)²`` of a run;
    * ``crossing_past_edge``: the smallest ``(R/γ)²`` over the right end of the panel (above
      1: the crossing is off the panel at every setting);
    * ``gap_last_lo``: the smallest ``(√k R − kγ)/(√k R)`` at the run's last mistake, how far
      apart the two dashed curves still are there, and ``gap_last_pct``, that fraction in
      percent rounded *down* to a whole number, so that "at least ``gap_last_pct`` %" is true;
    * ``cos_last_lo``, ``cos_last_hi``: the range of the cosine at the last mistake;
    * ``settings``: the number of settings.
    """
    values = slider_values(INVARIANTS_SLIDERS)
    ratios, past, gaps, cosines = [], [], [], []
    for gamma in values["gamma"]:
        for R in values["R"]:
            res, g, r = invariants_run(gamma, R)
            bound, m = novikoff_bound(r, g), res.mistakes
            ratios.append(m / bound)
            past.append(bound / (_INVARIANTS_X_PAD * max(m, 1)))
            gaps.append(1 - m * g / (np.sqrt(m) * r))
            cosines.append(res.history.progress[-1] / np.sqrt(res.history.norms_sq[-1]))
    return {"ratio_lo": float(min(ratios)), "ratio_hi": float(max(ratios)),
            "crossing_past_edge": float(min(past)), "gap_last_lo": float(min(gaps)),
            "gap_last_pct": int(np.floor(100 * min(gaps))),
            "cos_last_lo": float(min(cosines)), "cos_last_hi": float(max(cosines)),
            "settings": len(ratios)}


def same_ratio_settings() -> tuple[tuple[float, float], tuple[float, float]]:
    """Two settings ``(γ, R)`` of :data:`INVARIANTS_SLIDERS` with different R and the same R/γ.

    The first such pair in grid order; the figure draws the same run for both (up to scale).
    """
    values = slider_values(INVARIANTS_SLIDERS)
    settings = [(g, r) for r in values["R"] for g in values["gamma"]]
    for (g1, r1), (g2, r2) in itertools.combinations(settings, 2):
        if r1 != r2 and np.isclose(r1 / g1, r2 / g2, rtol=1e-12):
            return (g1, r1), (g2, r2)
    raise ValueError("no two settings of the grid share R/gamma")


def draw_invariants(gamma: float, R: float) -> Figure:
    """The squeeze of the proof: ``kγ ≤ w_k·u ≤ ‖w_k‖ ≤ √k R`` after each mistake k.

    Left: the four quantities against k, up to a little past the last mistake. The two bounds
    would cross at ``k = (R/γ)²``, past which no mistake can happen, but the runs stop long
    before, so the crossing is off the panel (:func:`invariants_grid`). Right: the cosine
    ``w_k·u/‖w_k‖`` against its lower bound ``√k γ/R``.
    """
    res, g, r = invariants_run(gamma, R)
    h = res.history
    k = np.arange(1, res.mistakes + 1)
    bound = novikoff_bound(r, g)
    norms = np.sqrt(h.norms_sq)
    fig, (ax, ax2) = new_figure(2, width=8.6, height=3.6)
    kk = np.linspace(0, max(res.mistakes, 1) * _INVARIANTS_X_PAD, 200)
    ax.plot(kk, np.sqrt(kk) * r, "--", color=NEGATIVE, lw=1.2,
            label=r"$\sqrt{k}\,R$ (growth lemma)")
    ax.plot(k, norms, "o", ms=3, color=NEGATIVE, label=r"$\|w_k\|$")
    ax.plot(k, h.progress, "o", ms=3, color=POSITIVE, label=r"$w_k\cdot u$")
    ax.plot(kk, kk * g, "--", color=POSITIVE, lw=1.2, label=r"$k\gamma$ (progress lemma)")
    ax.set_xlabel("mistakes $k$")
    ax.set_ylabel("length")
    ax.legend(fontsize=9, loc="upper left", handlelength=1.5, labelspacing=0.3,
              borderaxespad=0.3)
    ax.set_title(f"γ = {g:.2f}, R = {r:.1f}: {res.mistakes} mistakes ≤ (R/γ)² = {bound:.0f}",
                 fontsize=10)
    ax2.plot(k, h.progress / norms, "o", ms=3, color="black", label=r"$\cos\angle(w_k,u)$")
    ax2.plot(kk, np.minimum(np.sqrt(kk) * g / r, 1.2), "--", color=_BOUND_COLOR, lw=1.2,
             label=r"$\sqrt{k}\,\gamma/R$")
    ax2.axhline(1.0, color=_BOUND_COLOR, lw=0.8)
    ax2.set_ylim(0, 1.1)
    ax2.set_xlabel("mistakes $k$")
    ax2.set_title("cosine ≥ √k γ/R, and cosine ≤ 1", fontsize=10)
    ax2.legend(fontsize=9, loc="lower right")
    return fig


# --------------------------------------------------------------------------------------------
# The three forms of the bound
# --------------------------------------------------------------------------------------------


def three_forms(X: NDArray, y: NDArray, scale: float = 1.0) -> dict[str, float]:
    """The bound in its three notations, all for the maximum-margin separator of ``(X, y)``.

    * ``(R/γ*)²`` with γ* the maximum margin (CS229, Balcan, MIT);
    * ``(RB)²`` with UML's ``B = min{‖w‖ : yᵢ w·xᵢ ≥ 1}``, attained at ``w_B = u*/γ*``;
    * ``R²‖v‖²/ρ²`` with ``v = scale · w_B`` (a separator of any length) and its functional
      margin ``ρ = minᵢ yᵢ v·xᵢ``: the form the mistake-bound notes write ``U²‖w*‖²/ϵ²``.

    Returns the pieces as a dict: ``R, gamma, B, norm_wB, min_fm_wB, rho, norm_v`` and the
    bounds ``novikoff, uml, unnormalized``.
    """
    mm = max_margin(X, y)
    R = radius(X)
    v = scale * mm.w_B
    rho = float(np.min(y * (X @ v)))
    return {
        "R": R,
        "gamma": mm.gamma,
        "B": mm.B,
        "norm_wB": float(np.linalg.norm(mm.w_B)),
        "min_fm_wB": float(np.min(y * (X @ mm.w_B))),
        "rho": rho,
        "norm_v": float(np.linalg.norm(v)),
        "novikoff": novikoff_bound(R, mm.gamma),
        "uml": uml_bound(R, mm.B),
        "unnormalized": unnormalized_bound(R, v, rho),
    }


# --------------------------------------------------------------------------------------------
# Figure 2: many random data sets
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def survey(
    gamma: float, n: int, family: str, trials: int = SURVEY_TRIALS
) -> tuple[NDArray, NDArray]:
    """Mistakes and ``(R/γ*)²`` on ``trials`` data sets (seeds 0, 1, ...) of one family.

    ``family`` is ``"planted"`` (:func:`perceptron_core.planted`) or ``"shell"``
    (:func:`shell_data`); both in dimension :data:`SURVEY_D` with margin ``gamma`` with respect
    to their planted ``u`` and radius :data:`SURVEY_R`. The maximum margin γ* of each data set is at least ``gamma``,
    so ``(R/γ*)²`` is that data set's own, tighter, bound.

    Returns
    -------
    mistakes : int array (trials,); bounds : float array (trials,) of ``(R/γ*)²``.
    """
    make = {"planted": planted, "shell": shell_data}[family]
    mistakes, bounds = np.zeros(trials, dtype=int), np.zeros(trials)
    for s in range(trials):
        X, y, _ = make(n, SURVEY_D, gamma, SURVEY_R, seed=s)
        mistakes[s] = perceptron(X, y, max_epochs=_MAX_EPOCHS).mistakes
        bounds[s] = novikoff_bound(radius(X), max_margin(X, y).gamma)
    return mistakes, bounds


def draw_survey(gamma: float, n: int) -> Figure:
    """Each dot is one data set: its mistakes against its own bound ``(R/γ*)²`` (log–log).

    Everything lies below the diagonal ``mistakes = (R/γ*)²``, and left of the planted bound
    ``(R/γ)² = 1/γ²`` (dotted), because γ* ≥ γ.
    """
    fig, (ax,) = new_figure(1, width=4.4, height=3.8)
    # Narrow enough for a phone's width with 9 pt legend; room for a two-line title.
    fig.subplots_adjust(left=0.16, right=0.96, bottom=0.13, top=0.86)
    planted_bound = novikoff_bound(SURVEY_R, gamma)
    worst = 0.0
    for family, color, marker in (("planted", POSITIVE, "o"), ("shell", _ORANGE, "s")):
        m, b = survey(gamma, n, family)
        worst = max(worst, float(np.max(m / b)))
        ax.scatter(b, np.maximum(m, 0.8), s=14, c=color, marker=marker, alpha=0.75,
                   label=f"{family}: most {m.max()} mistakes")
    lo, hi = 1.0, 1.3 * planted_bound
    ax.plot([lo, hi], [lo, hi], "-", color=_BOUND_COLOR, lw=1.0,
            label=r"mistakes $=(R/\gamma^*)^2$")
    ax.axvline(planted_bound, ls=":", color=_BOUND_COLOR, lw=1.0,
               label=r"$(R/\gamma)^2$ for the planted $u$")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(0.7, hi)
    ax.set_xlabel(r"bound $(R/\gamma^*)^2$ of the data set")
    ax.set_ylabel("mistakes of the perceptron")
    ax.legend(fontsize=9, loc="upper left")
    ax.set_title(f"γ = {gamma:.2f}, n = {n}, d = {SURVEY_D}, {2 * SURVEY_TRIALS} data sets:\n"
                 f"mistakes ≤ {worst:.2f}·bound", fontsize=10)
    return fig


def survey_summary() -> dict[str, float]:
    """What the second figure shows, over every setting of :data:`SURVEY_SLIDERS`.

    For each setting ``(γ, n)`` and each family, the ratios mistakes / ``(R/γ*)²`` of its
    :data:`SURVEY_TRIALS` data sets. Returns

    * ``worst``: the largest ratio of any data set of either family;
    * ``planted_max``: the largest ratio of a planted data set;
    * ``planted_lo``, ``planted_hi`` and ``shell_lo``, ``shell_hi``: the smallest and largest
      median ratio of a family over the settings;
    * ``shell_higher``: at how many settings the shell median exceeds the planted median;
    * ``settings``: the number of settings; ``runs``: the number of data sets of the figure.
    """
    values = slider_values(SURVEY_SLIDERS)
    settings = [(g, n) for g in values["gamma"] for n in values["n"]]
    ratios = {fam: [np.divide(*survey(g, n, fam)) for g, n in settings]
              for fam in ("planted", "shell")}
    medians = {fam: [float(np.median(r)) for r in rs] for fam, rs in ratios.items()}
    return {
        "worst": float(max(np.max(r) for rs in ratios.values() for r in rs)),
        "planted_max": float(max(np.max(r) for r in ratios["planted"])),
        "planted_lo": min(medians["planted"]),
        "planted_hi": max(medians["planted"]),
        "shell_lo": min(medians["shell"]),
        "shell_hi": max(medians["shell"]),
        "shell_higher": int(sum(s > p for s, p in zip(medians["shell"], medians["planted"]))),
        "settings": len(settings),
        "runs": 2 * len(settings) * SURVEY_TRIALS,
    }


def independence_table(
    gamma: float, sizes: tuple[tuple[int, int], ...], seeds: int = 5
) -> list[tuple[int, int, int]]:
    """Most mistakes over ``seeds`` :func:`shell_data` sets for each ``(n, d)``, at margin γ, R = 1.

    Returns a list of ``(n, d, most_mistakes)``. The bound ``1/γ²`` is the same for every row.
    """
    rows = []
    for n, d in sizes:
        most = max(perceptron(*shell_data(n, d, gamma, seed=s)[:2], max_epochs=_MAX_EPOCHS).mistakes
                   for s in range(seeds))
        rows.append((n, d, int(most)))
    return rows


# --------------------------------------------------------------------------------------------
# Figure 3: the worst case, orthonormal points
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def worst_case_run(n: int) -> tuple[PerceptronResult, float, float]:
    """Perceptron on :func:`perceptron_core.orthonormal_worst_case`, ``u`` the max-margin direction.

    Returns the run (history recorded), γ* (which is ``1/√n``) and R (which is 1).
    """
    X, y = orthonormal_worst_case(n)
    mm = max_margin(X, y)
    return perceptron(X, y, u=mm.w), mm.gamma, radius(X)


def draw_worst_case(n: int) -> Figure:
    """Orthonormal points: ``w_k·u = kγ*`` and ``‖w_k‖ = √k R`` exactly, and n = (R/γ*)²
    mistakes (ties count as mistakes)."""
    res, g, r = worst_case_run(n)
    h = res.history
    k = np.arange(1, res.mistakes + 1)
    bound = novikoff_bound(r, g)
    fig, (ax,) = new_figure(1, width=4.4, height=3.6)
    # Narrow enough for a phone's width with 9 pt legend; room for a two-line title.
    fig.subplots_adjust(left=0.12, right=0.96, bottom=0.13, top=0.86)
    kk = np.linspace(0, bound, 200)
    ax.plot(kk, np.sqrt(kk) * r, "--", color=NEGATIVE, lw=1.2, label=r"$\sqrt{k}\,R$")
    ax.plot(kk, kk * g, "--", color=POSITIVE, lw=1.2, label=r"$k\gamma^*$")
    ax.plot(k, np.sqrt(h.norms_sq), "o", ms=4, color=NEGATIVE, label=r"$\|w_k\|$")
    ax.plot(k, h.progress, "o", ms=4, color=POSITIVE, label=r"$w_k\cdot u$")
    ax.axvline(bound, ls=":", color=_BOUND_COLOR, lw=1.0)
    ax.set_xlim(0, 30.5)
    ax.set_ylim(0, 5.8)
    ax.set_xlabel("mistakes $k$")
    ax.set_ylabel("length")
    ax.legend(fontsize=9, loc="upper left")
    ax.set_title(f"n = {n} orthonormal points, γ* = {g:.3f}:\n"
                 f"{res.mistakes} mistakes = (R/γ*)² = {bound:.0f}",
                 fontsize=10)
    return fig


# --------------------------------------------------------------------------------------------
# Figure 4: the narrow wedge, exponentially small margins
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def wedge_table(ell_max: int = WEDGE_ELL_MAX) -> dict[str, NDArray]:
    """For ``ℓ = 0..ell_max`` bits on :func:`narrow_wedge`: the perceptron's run against the bound.

    Keys: ``ell, gamma`` (γ*), ``R, mistakes, epochs, bound`` (``(R/γ*)²``), ``rounds``
    (:func:`perceptron_core.max_rounds`), ``w_max_margin`` and ``w_final`` (rows, one per ℓ).
    The chapter writes ℓ for the number of bits, as k counts the perceptron's updates.
    """
    keys = ("ell", "gamma", "R", "mistakes", "epochs", "bound", "rounds", "w_max_margin",
            "w_final")
    cols: dict[str, list] = {key: [] for key in keys}
    for ell in range(ell_max + 1):
        X, y = narrow_wedge(ell)
        mm = max_margin(X, y)
        g, r = mm.gamma, radius(X)
        res = perceptron(X, y, max_epochs=_MAX_EPOCHS)
        row = (ell, g, r, res.mistakes, res.epochs, novikoff_bound(r, g), max_rounds(r, g),
               mm.w, res.w)
        for key, v in zip(keys, row):
            cols[key].append(v)
    return {key: np.array(v) for key, v in cols.items()}


def draw_wedge(ell: int) -> Figure:
    """Left: a zoom on the two points of ``narrow_wedge(ell)``. Right: the run's length
    against the number of bits ℓ (log₂).

    The left panel shows a window a few gaps wide around ``(1, 1)``: at the scale of the whole
    plane the two points coincide. Both separators shown pass through the origin, far away.
    """
    t = wedge_table()
    i = int(np.flatnonzero(t["ell"] == ell)[0])
    X, y = narrow_wedge(ell)
    gap = 2.0**-ell
    fig, (ax, ax2) = new_figure(2, width=8.6, height=3.8)
    plot_points(ax, X, y, size=60)
    # A square window centred between the points, so the wedge fills the panel at every ℓ.
    ax.set_xlim(1 - 2.5 * gap, 1 + 1.5 * gap)
    ax.set_ylim(1 - 2 * gap, 1 + 2 * gap)
    ax.set_aspect("equal", adjustable="box")
    plot_separator(ax, t["w_max_margin"][i], margin=t["gamma"][i], label="max-margin separator",
                   show_normal=False)
    plot_separator(ax, t["w_final"][i], color=_ORANGE, label="perceptron's final $w$",
                   show_normal=False)
    ax.ticklabel_format(useOffset=False)
    ax.tick_params(labelsize=9)
    ax.legend(fontsize=9, loc="lower left")
    ax.set_title(f"ℓ = {ell}: zoom on (1, 1), gap 2^-{ell}, γ* = {t['gamma'][i]:.2e}",
                 fontsize=10)
    ells = t["ell"]
    ax2.semilogy(ells, t["bound"], "s--", ms=4, color=_BOUND_COLOR, base=2,
                 label=r"bound $(R/\gamma^*)^2$")
    ax2.semilogy(ells, t["mistakes"], "o-", ms=4, color=NEGATIVE, base=2, label="mistakes")
    ax2.semilogy(ells, t["epochs"], "^-", ms=4, color=POSITIVE, base=2, label="epochs (rounds)")
    ax2.semilogy(ells, 1 / t["gamma"], ":", color=_ORANGE, base=2, label=r"$1/\gamma^*$")
    ax2.plot([ell, ell], [t["epochs"][i], t["bound"][i]], color="black", lw=0.8)
    ax2.plot([ell], [t["mistakes"][i]], "o", ms=9, mfc="none", mec="black")
    ax2.set_xlabel(r"bits $\ell$ (the gap is $2^{-\ell}$)")
    ax2.legend(fontsize=9, loc="upper left")
    ax2.set_title(f"{t['mistakes'][i]} mistakes, {t['epochs'][i]} epochs "
                  f"≤ bound {t['bound'][i]:.0f}",
                  fontsize=10)
    return fig


# --------------------------------------------------------------------------------------------
# The cosine need not rise
# --------------------------------------------------------------------------------------------


def cosine_falls(res: PerceptronResult) -> int:
    """How many mistakes of a run (recorded with ``u``) made the cosine to ``u`` smaller."""
    h = res.history
    cos = h.progress / np.sqrt(h.norms_sq)
    return int(np.sum(np.diff(cos) < 0))


def mistake_products(X: NDArray, y: NDArray, res: PerceptronResult) -> NDArray:
    """``yᵢ w_{k−1}·xᵢ`` at each mistake k of a run without offset (recorded), ``w_0 = 0``.

    These are the cross terms of the growth lemma, halved: ``‖w_k‖² = ‖w_{k−1}‖² +
    2 yᵢ w_{k−1}·xᵢ + ‖xᵢ‖²``. The first is 0, at ``w_0 = 0``; a negative one makes ``‖w_k‖²``
    grow by less than ``‖xᵢ‖²``.
    """
    h = res.history
    before = np.vstack([np.zeros((1, X.shape[1])), h.weights[:-1]])
    idx = h.indices
    return y[idx] * np.sum(before * X[idx], axis=1)


# --------------------------------------------------------------------------------------------
# Exponentially small margins in {0,1}^n
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def hypercube_table(n_max: int = HYPERCUBE_N_MAX) -> dict[str, NDArray]:
    """For ``n = 1..n_max`` on :func:`perceptron_core.data.hypercube_small_margin`.

    Keys: ``n``, ``gamma`` (γ*, certified lower end), ``gamma_exact`` (the proposition's
    ``1/√(F_{n+1}F_{n+2} − 1)``), ``gamma_upper`` (``1/F_{n+1}``, its simpler upper bound),
    ``R``, ``bound`` (``(R/γ*)²``), ``mistakes`` and ``epochs`` of the perceptron (ties are
    mistakes), ``fib`` (``F_{n+1}``), ``fib_norm_sq`` (``F_{n+1}F_{n+2} − 1``, the squared
    length of the Fibonacci separator ``v = ((−1)ʲ F_{j+1})_j``, which is ``1/γ*²`` and, by the
    proposition, the exact number of mistakes), ``per_point`` (True when the run's updates on
    each point i number exactly ``μ_i`` of :func:`perceptron_core.data.hypercube_mu`) and
    ``final_fib`` (True when the run ends at the Fibonacci separator). The data are 0/1 and the
    weights integers, so every product is exact.
    """
    keys = ("n", "gamma", "gamma_exact", "gamma_upper", "R", "bound", "mistakes", "epochs",
            "fib", "fib_norm_sq", "per_point", "final_fib")
    cols: dict[str, list] = {key: [] for key in keys}
    for n in range(1, n_max + 1):
        X, y = hypercube_small_margin(n)
        g, r = max_margin(X, y).gamma, radius(X)
        res = perceptron(X, y, max_epochs=_MAX_EPOCHS, record=True)
        fib = fibonacci(n + 1)
        norm_sq = fib * fibonacci(n + 2) - 1
        counts = np.bincount(res.history.indices, minlength=n)
        v_bar = [(-1) ** j * fibonacci(j + 1) for j in range(1, n + 1)]
        row = (n, g, 1 / np.sqrt(norm_sq), 1 / fib, r, novikoff_bound(r, g), res.mistakes,
               res.epochs, fib, norm_sq, bool(list(counts) == hypercube_mu(n)),
               bool(np.array_equal(res.w, v_bar)))
        for key, v in zip(keys, row):
            cols[key].append(v)
    return {key: np.array(v) for key, v in cols.items()}


# --------------------------------------------------------------------------------------------
# The offset: a counterexample
# --------------------------------------------------------------------------------------------


def offset_counterexample() -> dict[str, float]:
    """On the line, x = 11 (+1) and x = 9 (−1): ``(R/γ*_b)²`` is not a bound with an offset.

    Returns the two points ``x_pos`` and ``x_neg``, the perceptron's ``mistakes`` with an
    offset, ``R`` (11), ``gamma_b`` (the maximum margin with an offset, 1, at ``u = 1,
    b = −10``), ``threshold`` (``−b/u = 10``, where the best separator cuts the line), the
    wrong bound ``naive`` ``= (R/γ*_b)²`` = 121, and the correct bound on the augmented points
    ``(x, 1)``, ``correct = (R² + 1)(1 + b²)/γ²`` with the unit ``u`` and its ``b`` (12322).
    All arithmetic is on small integers, so it is exact.
    """
    X, y = np.array([[11.0], [9.0]]), np.array([1.0, -1.0])
    mm = max_margin(X, y, offset=True)
    r, g = radius(X), mm.gamma
    u = float(mm.w[0]) / float(np.linalg.norm(mm.w))  # the unit normal, +1 or -1
    b = mm.b / float(np.linalg.norm(mm.w))  # the offset of the unit-normal separator
    return {
        "x_pos": float(X[y > 0][0, 0]),
        "x_neg": float(X[y < 0][0, 0]),
        "mistakes": perceptron(X, y, offset=True, max_epochs=_MAX_EPOCHS).mistakes,
        "R": r,
        "gamma_b": g,
        "u": u,
        "b": b,
        "threshold": -b / u,
        "naive": novikoff_bound(r, g),
        "correct": offset_bound(r, g, b),
    }


#: The chapter's explore() calls, as ``(name, draw, params)``: timed by bench/bench_redraw.py,
#: and each redrawn in place and compared with a fresh drawing by tests/drawing/test_render.py.
BENCH_CASES = [
    ("convergence-invariants", draw_invariants, INVARIANTS_SLIDERS),
    ("convergence-survey", draw_survey, SURVEY_SLIDERS),
    ("convergence-worst-case", draw_worst_case, WORST_CASE_SLIDERS),
    ("convergence-wedge", draw_wedge, WEDGE_SLIDERS),
]
