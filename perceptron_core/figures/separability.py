"""Figures for the chapter "Linear separability".

Every figure shows the verdict of :func:`perceptron_core.separability` together with its
evidence, drawn in the data's own plane:

* a **witness**: the separating line ``w·x + b = 0`` the linear program found;
* a **certificate**: Gordan's weights λ. The points with λᵢ > 0 are ringed and joined to one
  *common point* that the certificate places on both sides of every candidate line at once
  (see :func:`perceptron_core.certificates.common_point`), which is why no line can exist;
* or, when the package could not certify either answer exactly (``separable is None``), the
  word UNDECIDED and nothing drawn: a figure never shows evidence the package did not certify.

Where the package provides exact certificate weights (``certificate_exact``, a list of
``fractions.Fraction``), figures print those and :func:`support` reads the support from them.

The static book cannot run code, so every number a reader needs (the verdict, the witness,
the size of the certificate, whether its check passed) is written into the figure itself.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import NDArray

from ..algorithms import perceptron
# The mathematics of the smallest certificates lives in the core; the chapter reaches it through
# this module too.
from ..certificates import (
    IRIS_DECIMALS,
    carries_certificate,
    common_point,
    exhaustive_small_certificates,
    float_values,
    near_certificates,
    recorded_values,
    rounding_margin_bound,
)
from ..data import flip_labels, gaussian_clouds, iris_pair, logic_gate
from ..geometry import Separability, dataset_margin, max_margin, radius, separability
from .sliders import slider_values
from .plotting import frame_data, new_figure, plot_points, plot_separator

__all__ = [
    "exhaustive_small_certificates",
    "CLOUD_N",
    "CLOUD_SEED",
    "NOISE_SEED",
    "CLOUD_DISTANCES",
    "NOISE_RATES",
    "GATES",
    "IRIS_PAIRS",
    "IRIS_FEATURES",
    "cloud_grid",
    "cloud_data",
    "cloud_verdict",
    "cloud_max_margin",
    "cloud_mistakes",
    "cloud_lifted_bound",
    "exact_weights",
    "IRIS_DECIMALS",
    "float_values",
    "recorded_values",
    "carries_certificate",
    "near_certificates",
    "rounding_margin_bound",
    "weights_text",
    "gate_verdict",
    "iris_data",
    "iris_verdict",
    "support",
    "common_point",
    "unit_witness",
    "verdict_text",
    "draw_evidence",
    "draw_clouds",
    "draw_gate",
    "draw_iris",
    "BENCH_CASES",
]

#: Points per cloud in the main figure: enough to look like a cloud, few enough to see each one.
CLOUD_N = 20
#: Seed of the clouds, and a different seed for which labels get flipped.
CLOUD_SEED, NOISE_SEED = 0, 1
#: The distance slider ``(start, stop, step, initial)`` and the noise choices (fractions of labels).
CLOUD_DISTANCES = (0.0, 6.0, 0.5, 6.0)
NOISE_RATES = [0.0, 0.025, 0.1]
#: Fixed axes for the clouds, so that the picture does not jump while the slider moves.
_CLOUD_XLIM, _CLOUD_YLIM = (-6.5, 6.5), (-3.6, 3.6)
#: The clouds figure's size and its axes' width in inches, and the axes' height per unit width.
_CLOUD_W, _CLOUD_H, _CLOUD_AX_W = 4.4, 4.15, 3.7
_CLOUD_ASPECT = (_CLOUD_YLIM[1] - _CLOUD_YLIM[0]) / (_CLOUD_XLIM[1] - _CLOUD_XLIM[0])

GATES = ["and", "or", "nand", "nor", "xor"]
IRIS_PAIRS = ["setosa/versicolor", "versicolor/virginica"]
#: Petal length and petal width: the two Iris columns in which the species differ most.
IRIS_FEATURES = (2, 3)

#: λᵢ below this counts as zero (the LP returns exact zeros up to rounding).
_LAMBDA_TOL = 1e-12
# Slightly see-through: the common point often sits on top of a data point.
_STAR = dict(marker="*", s=220, c="gold", alpha=0.85, edgecolors="black", linewidths=1.0, zorder=6)


# ------------------------------------------------------------------------------------------
# Data and verdicts (cached: the sliders revisit the same grid points)
# ------------------------------------------------------------------------------------------


def cloud_grid() -> list[float]:
    """The distances on the slider, rounded as :func:`perceptron_core.explore` rounds them."""
    return slider_values(CLOUD_DISTANCES)


@lru_cache(maxsize=None)
def cloud_data(distance: float, noise: float) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]]:
    """The two clouds of the main figure, with a fraction ``noise`` of labels flipped.

    Returns
    -------
    X : array (2·CLOUD_N, 2)
    y : labels ±1 after flipping
    flipped : indices of the flipped labels
    """
    X, clean = gaussian_clouds(CLOUD_N, float(distance), seed=CLOUD_SEED)
    # The noise seed is fixed and independent of the distance, so the *same* points change
    # label at every distance and the slider moves only the clouds.
    y = flip_labels(clean, float(noise), seed=NOISE_SEED)
    return X, y, np.flatnonzero(y != clean)


@lru_cache(maxsize=None)
def cloud_verdict(distance: float, noise: float) -> Separability:
    """``separability`` (with an offset) of :func:`cloud_data`."""
    X, y, _ = cloud_data(distance, noise)
    return separability(X, y, offset=True)


@lru_cache(maxsize=None)
def cloud_max_margin(distance: float, noise: float) -> float | None:
    """The maximum margin with an offset, γ*_b, of :func:`cloud_data`; None if not separable."""
    if cloud_verdict(distance, noise).separable is not True:
        return None
    X, y, _ = cloud_data(distance, noise)
    return max_margin(X, y, offset=True).gamma


@lru_cache(maxsize=None)
def cloud_mistakes(distance: float, noise: float) -> int | None:
    """Mistakes of the perceptron with an offset on :func:`cloud_data`; None if not separable.

    What the run actually does, next to what the bound permits (:func:`cloud_lifted_bound`).
    """
    if cloud_verdict(distance, noise).separable is not True:
        return None
    X, y, _ = cloud_data(distance, noise)
    run = perceptron(X, y, offset=True, max_epochs=100_000)
    if not run.converged:  # cannot happen on separable data within the bound; say so if it does
        raise RuntimeError(f"the perceptron did not converge on the clouds at {distance}.")
    return run.mistakes


@lru_cache(maxsize=None)
def cloud_lifted_bound(distance: float, noise: float) -> float | None:
    """The mistake bound ``(R² + 1)(1 + b*²)/γ*_b²`` of the perceptron with an offset.

    The run with an offset is the run through the origin on ``(x, 1)``, of radius √(R² + 1),
    where the maximum-margin ``(u*, b*)`` (unit ``u*``, margin γ*_b) gives the unit vector
    ``(u*, b*)/√(1 + b*²)`` of margin ``γ*_b/√(1 + b*²)``.
    """
    if cloud_verdict(distance, noise).separable is not True:
        return None
    X, y, _ = cloud_data(distance, noise)
    opt = max_margin(X, y, offset=True)
    return (radius(X) ** 2 + 1) * (1 + opt.b**2) / opt.gamma**2


@lru_cache(maxsize=None)
def gate_verdict(gate: str, offset: bool) -> Separability:
    """``separability`` of a logic gate on {0,1}², through the origin or with an offset."""
    X, y = logic_gate(gate)
    return separability(X, y, offset=offset)


@lru_cache(maxsize=None)
def iris_data(pair: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The petal measurements of one Iris pair, ``"positive/negative"`` (e.g. "setosa/versicolor")."""
    positive, negative = pair.split("/")
    return iris_pair(positive, negative, features=IRIS_FEATURES)


@lru_cache(maxsize=None)
def iris_verdict(pair: str) -> Separability:
    """``separability`` (with an offset) of :func:`iris_data`."""
    X, y = iris_data(pair)
    return separability(X, y, offset=True)


# ------------------------------------------------------------------------------------------
# Reading the evidence
# ------------------------------------------------------------------------------------------


def exact_weights(sep: Separability) -> list[Fraction] | None:
    """The certificate's exact weights (``sep.certificate_exact``) if the package gives them."""
    exact = getattr(sep, "certificate_exact", None)
    return None if exact is None else [Fraction(v) for v in exact]


def support(sep: Separability) -> NDArray[np.int64]:
    """Indices of the points the certificate uses (λᵢ > 0); empty for a witness.

    Read from the exact weights when there are some; otherwise λᵢ above a rounding tolerance.
    """
    exact = exact_weights(sep)
    if exact is not None:
        return np.array([i for i, v in enumerate(exact) if v > 0], dtype=np.int64)
    if sep.certificate is None:
        return np.array([], dtype=np.int64)
    return np.flatnonzero(np.asarray(sep.certificate) > _LAMBDA_TOL)


def weights_text(sep: Separability) -> str:
    """The certificate's weights for a title: exact fractions if available, else 2 decimals."""
    exact = exact_weights(sep)
    if exact is not None:
        return "(" + ", ".join(str(v) for v in exact) + ")"
    return _vec(np.asarray(sep.certificate, dtype=float))


def unit_witness(sep: Separability) -> tuple[NDArray[np.float64], float]:
    """The witness ``(w, b)`` rescaled to ``‖w‖ = 1`` (the LP's scale is an artefact of its box)."""
    if sep.w is None:
        raise ValueError("this verdict carries no witness (it is 'not separable' or undecided); "
                         "unit_witness needs a verdict with separable=True.")
    norm = float(np.linalg.norm(sep.w))
    return sep.w / norm, float(sep.b) / norm


def _vec(v: NDArray[np.float64]) -> str:
    # "+ 0.0" so that a rounded -0.00 never shows up in a figure.
    return "(" + ", ".join(f"{x + 0.0:.2f}" for x in v) + ")"


def _wrap(text: str, width: int = 56) -> str:
    """``text`` broken into lines of at most ``width`` characters where it allows: after a ": ",
    "; " or ", " outside parentheses, so that a vector stays on one line. Only spaces become
    line breaks, so the words are those of ``text``; a narrow figure keeps its title inside."""
    pieces, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in ":;," and text[i + 1:i + 2] == " ":
            pieces.append(text[start:i + 1])
            start = i + 2
    pieces.append(text[start:])
    lines = [pieces[0]]
    for piece in pieces[1:]:
        if len(lines[-1]) + 1 + len(piece) <= width:
            lines[-1] += " " + piece
        else:
            lines.append(piece)
    return "\n".join(lines)


def verdict_text(X: NDArray[np.float64], y: NDArray[np.float64], sep: Separability) -> str:
    """The one-line verdict and evidence a figure prints (the static page cannot compute it)."""
    if sep.separable is None:
        return "UNDECIDED: the package could not certify either answer exactly"
    if sep.separable:
        w, b = unit_witness(sep)
        return (f"SEPARABLE: witness w = {_vec(w)}, b = {b + 0.0:.2f}, "
                f"smallest margin {dataset_margin(X, y, w, b):.2f}")
    p = common_point(X, y, sep)
    where = "both class hulls" if sep.offset else "both classes' cones"
    ok = "passes" if sep.verify(X, y) else "FAILS"
    return (f"NOT SEPARABLE: certificate on {len(support(sep))} points; "
            f"{where} contain {_vec(p)}; check {ok}")


def draw_evidence(ax: Axes, X: NDArray[np.float64], y: NDArray[np.float64], sep: Separability) -> None:
    """Draw the witness line, or the certificate's support points joined to their common point.

    Call after the axes limits are set (:func:`plot_separator` spans the current view).
    An undecided verdict draws nothing.
    """
    if sep.separable is None:
        return
    if sep.separable:
        w, b = unit_witness(sep)
        plot_separator(ax, w, b, label="witness $w\\cdot x+b=0$")
        return
    idx, p = support(sep), common_point(X, y, sep)
    # Spokes from every point the certificate uses to the common point: the picture of
    # "this point is a weighted average of those" (of each class separately).
    for i in idx:
        ax.plot([X[i, 0], p[0]], [X[i, 1], p[1]], "-", color="0.45", lw=0.9, zorder=2)
    ax.scatter(*X[idx].T, s=170, facecolors="none", edgecolors="black", linewidths=1.3, zorder=4,
               label="certificate: $\\lambda_i>0$")
    ax.scatter(*p, **_STAR, label="common point")


# ------------------------------------------------------------------------------------------
# The figures
# ------------------------------------------------------------------------------------------


def _inches(fig_w: float, fig_h: float, *, left: float, bottom: float, width: float,
            height: float) -> list[float]:
    """An Axes position given in inches, as the fractions of the figure ``set_position`` takes."""
    return [left / fig_w, bottom / fig_h, width / fig_w, height / fig_h]


def _legend_below(ax: Axes, drop: float, handles=None, labels=None) -> None:
    """The Axes' legend, two columns centred under it, its top ``drop`` axes heights below the
    axes (clear of the tick labels and the x label). Under the axes it hides no data, and it
    belongs to the panel, which a phone shows on its own."""
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -drop), ncols=2,
              fontsize=9, framealpha=0.85)


def draw_clouds(distance: float, noise: float) -> Figure:
    """Main figure: two clouds ``distance`` apart, a fraction ``noise`` of labels flipped.

    The title gives the verdict of the test with an offset and its evidence; when the data are
    separable it also gives the maximum margin with an offset, γ*_b, which shrinks towards 0 as
    the clouds approach each other.
    """
    X, y, flipped = cloud_data(distance, noise)
    sep = cloud_verdict(distance, noise)
    # Narrow enough for a phone to show it with 9 pt text at 9 px or more; the legend sits
    # below the axes, where it hides no point.
    fig, (ax,) = new_figure(width=_CLOUD_W, height=_CLOUD_H)
    # One fixed frame for all 39 frames, so the clouds move and the axes do not: room above for
    # four lines of title, below for the tick labels, the axis label and three rows of legend.
    ax.set_position(_inches(_CLOUD_W, _CLOUD_H, left=0.55, bottom=1.25, width=_CLOUD_AX_W,
                            height=_CLOUD_AX_W * _CLOUD_ASPECT))
    plot_points(ax, X, y, size=30)
    ax.set_xlim(*_CLOUD_XLIM)
    ax.set_ylim(*_CLOUD_YLIM)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xticks(np.arange(-6, 7, 2))
    ax.set_yticks(np.arange(-3, 4, 1))
    if len(flipped):
        ax.scatter(*X[flipped].T, s=90, marker="s", facecolors="none", edgecolors="darkorange",
                   linewidths=1.5, zorder=5, label="flipped label")
    draw_evidence(ax, X, y, sep)
    n_flip = len(flipped)
    head = f"centres {distance:.1f} apart, {n_flip} label{'s' if n_flip != 1 else ''} flipped"
    if sep.separable:
        head += f", max margin γ*_b = {cloud_max_margin(distance, noise):.2f}"
    ax.set_title(_wrap(head) + "\n" + _wrap(verdict_text(X, y, sep)), fontsize=9)
    _legend_below(ax, 0.46 / (_CLOUD_AX_W * _CLOUD_ASPECT))
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    return fig


def _gate_panel(ax: Axes, gate: str, offset: bool) -> None:
    X, y = logic_gate(gate)
    sep = gate_verdict(gate, offset)
    plot_points(ax, X, y, size=60)
    ax.set_xlim(-0.45, 1.45)
    ax.set_ylim(-0.45, 1.45)
    ax.set_aspect("equal", adjustable="box")
    ax.axhline(0, color="0.85", lw=0.8, zorder=0)
    ax.axvline(0, color="0.85", lw=0.8, zorder=0)
    draw_evidence(ax, X, y, sep)
    where = "with an offset" if offset else "through the origin"
    if sep.separable is None:
        verdict, detail = "UNDECIDED", "no exact evidence either way"
    elif sep.separable:
        w, b = sep.w, sep.b
        verdict, detail = "separable", f"w = {_vec(w)}, b = {b + 0.0:.2f}"
    else:
        verdict, detail = "NOT separable", "λ = " + weights_text(sep)
    # The gate's name heads each panel's title: a phone shows the panels one below the other.
    ax.set_title(f"{gate.upper()}, {where}: {verdict}\n{detail}", fontsize=9)
    ax.set_xticks([0, 1])
    ax.set_yticks([0, 1])


def draw_gate(gate: str) -> Figure:
    """A logic gate on {0,1}²: left through the origin, right with an offset, each with its evidence."""
    width, height, side = 7.4, 4.45, 3.0
    fig, axes = new_figure(2, width=width, height=height)
    for ax, offset, left in zip(axes, (False, True), (0.45, 4.0)):
        # Square axes by hand: room above for the two-line title, below for the tick labels and
        # two rows of legend, and between the panels for the right one's tick labels.
        ax.set_position(_inches(width, height, left=left, bottom=0.95, width=side, height=side))
        _gate_panel(ax, gate, offset)
        # One legend per panel, with the markers that panel shows: the certificate's markers
        # may appear in only one of them, and a phone shows each panel on its own.
        _legend_below(ax, 0.32 / side)
    return fig


def draw_iris(pair: str) -> Figure:
    """One Iris pair in the petal plane, with the verdict (with an offset) and its evidence."""
    X, y = iris_data(pair)
    sep = iris_verdict(pair)
    positive, negative = pair.split("/")
    # Narrow enough for a phone to show it with 9 pt text at 9 px or more: room above the axes
    # for three lines of title, below for the tick labels, the axis label and the legend.
    width, height, ax_w, ax_h = 4.4, 3.85, 3.6, 2.05
    fig, (ax,) = new_figure(width=width, height=height)
    ax.set_position(_inches(width, height, left=0.65, bottom=1.1, width=ax_w, height=ax_h))
    # Several flowers share the same rounded measurements; the two classes have distinct
    # markers (dot, cross), so a point carrying both labels still shows both.
    plot_points(ax, X, y, size=28)
    # With an offset the origin plays no role, so it is left out of the view.
    frame_data(ax, X, include_origin=False)
    draw_evidence(ax, X, y, sep)
    ax.set_xlabel("petal length (cm)")
    ax.set_ylabel("petal width (cm)")
    handles, labels = ax.get_legend_handles_labels()
    labels = [f"{positive} ($y=+1$)" if lab == "$y=+1$" else f"{negative} ($y=-1$)" if lab == "$y=-1$" else lab
              for lab in labels]
    _legend_below(ax, 0.46 / ax_h, handles, labels)
    ax.set_title(f"{positive} vs {negative}, with an offset\n{_wrap(verdict_text(X, y, sep))}",
                 fontsize=9)
    return fig


#: The chapter's explore() calls, as ``(name, draw, params)``: timed by bench/bench_redraw.py,
#: and each redrawn in place and compared with a fresh drawing by tests/drawing/test_render.py.
BENCH_CASES = [
    ("separability-gate", draw_gate, {"gate": GATES}),
    ("separability-iris", draw_iris, {"pair": IRIS_PAIRS}),
    ("separability-clouds", draw_clouds, {"distance": CLOUD_DISTANCES, "noise": NOISE_RATES}),
]


