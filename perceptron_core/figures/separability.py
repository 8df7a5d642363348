"""Figures of the chapter "Linear separability" (``book/separability.ipynb``).

The chapter decides separability with the core (:func:`perceptron_core.separability`) and passes
the data and each verdict here; these functions only draw the verdict with its evidence, in the
data's own plane:

* a **witness**: the separating line ``w·x + b = 0`` the linear program found;
* a **certificate**: Gordan's weights λ. The points with λᵢ > 0 are ringed and joined to one
  *common point* that the certificate places on both sides of every candidate line at once
  (see :func:`perceptron_core.certificates.common_point`), which is why no line can exist;
* or, when the package could not certify either answer exactly (``separable is None``), the
  word UNDECIDED and nothing drawn: a figure never shows evidence the package did not certify.

The static book cannot run code, so every number a reader needs (the verdict, the witness,
the size of the certificate, whether its check passed) is written into the figure itself.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import NDArray

from ..certificates import common_point
from ..data import logic_gate
from ..geometry import Separability, dataset_margin
from .plotting import frame_data, new_figure, plot_points, plot_separator
from .sliders import Explorable

__all__ = ["support", "verdict_text", "draw_evidence", "draw_clouds", "draw_gate", "draw_iris",
           "gate", "iris", "clouds", "BENCH_CASES"]

#: Fixed axes for the clouds, so that the picture does not jump while the slider moves.
_CLOUD_XLIM, _CLOUD_YLIM = (-6.5, 6.5), (-3.6, 3.6)
#: The clouds figure's size and its axes' width in inches, and the axes' height per unit width.
_CLOUD_W, _CLOUD_H, _CLOUD_AX_W = 4.4, 4.15, 3.7
_CLOUD_ASPECT = (_CLOUD_YLIM[1] - _CLOUD_YLIM[0]) / (_CLOUD_XLIM[1] - _CLOUD_XLIM[0])
# Slightly see-through: the common point often sits on top of a data point.
_STAR = dict(marker="*", s=220, c="gold", alpha=0.85, edgecolors="black", linewidths=1.0, zorder=6)


def support(sep: Separability) -> NDArray[np.int64]:
    """Indices of the points a certificate uses (exact weights λᵢ > 0); empty for a witness."""
    if sep.certificate_exact is None:
        return np.array([], dtype=np.int64)
    return np.array([i for i, v in enumerate(sep.certificate_exact) if v > 0], dtype=np.int64)


def _unit_witness(sep: Separability) -> tuple[NDArray[np.float64], float]:
    # The witness rescaled to ‖w‖ = 1 (the LP's scale is an artefact of its box).
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
        w, b = _unit_witness(sep)
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
        w, b = _unit_witness(sep)
        plot_separator(ax, w, b, label="witness w·x + b = 0")
        return
    idx, p = support(sep), common_point(X, y, sep)
    # Spokes from every point the certificate uses to the common point: the picture of
    # "this point is a weighted average of those" (of each class separately).
    # One Line2D for all spokes (NaN breaks the line between them): fewer artists to draw.
    spokes = np.full((3 * len(idx), 2), np.nan)
    spokes[0::3], spokes[1::3] = X[idx], p
    ax.plot(*spokes.T, "-", color="0.45", lw=0.9, zorder=2)
    ax.scatter(*X[idx].T, s=170, facecolors="none", edgecolors="black", linewidths=1.3, zorder=4,
               label="certificate: λᵢ > 0")
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


def draw_clouds(X: NDArray, y: NDArray, flipped: NDArray, sep: Separability,
                distance: float) -> Figure:
    """Two clouds whose centres are ``distance`` apart, the points ``flipped`` marked.

    The title gives the verdict ``sep`` of the test with an offset and its evidence (for a
    witness, its smallest margin, which shrinks towards 0 as the clouds approach each other).
    """
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
    ax.set_title(_wrap(head) + "\n" + _wrap(verdict_text(X, y, sep)), fontsize=9)
    _legend_below(ax, 0.46 / (_CLOUD_AX_W * _CLOUD_ASPECT))
    ax.set_xlabel("x₍₁₎")  # coordinates, not points: the notation page's x₍ⱼ₎
    ax.set_ylabel("x₍₂₎")
    return fig


def _gate_panel(ax: Axes, X: NDArray, y: NDArray, sep: Separability, gate: str) -> None:
    offset = sep.offset
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
        verdict, detail = "NOT separable", "λ = (" + ", ".join(map(str, sep.certificate_exact)) + ")"
    # The gate's name heads each panel's title: a phone shows the panels one below the other.
    ax.set_title(f"{gate.upper()}, {where}: {verdict}\n{detail}", fontsize=9)
    ax.set_xticks([0, 1])
    ax.set_yticks([0, 1])


def draw_gate(X: NDArray, y: NDArray, verdicts: tuple[Separability, Separability], gate: str) -> Figure:
    """A logic gate on {0,1}² with its two verdicts (through the origin, with an offset), each
    drawn with its evidence, in panels side by side."""
    width, height, side = 7.4, 4.45, 3.0
    fig, axes = new_figure(2, width=width, height=height)
    for ax, sep, left in zip(axes, verdicts, (0.45, 4.0)):
        # Square axes by hand: room above for the two-line title, below for the tick labels and
        # two rows of legend, and between the panels for the right one's tick labels.
        ax.set_position(_inches(width, height, left=left, bottom=0.95, width=side, height=side))
        _gate_panel(ax, X, y, sep, gate)
        # One legend per panel, with the markers that panel shows: the certificate's markers
        # may appear in only one of them, and a phone shows each panel on its own.
        _legend_below(ax, 0.32 / side)
    return fig


def draw_iris(X: NDArray, y: NDArray, sep: Separability, pair: str) -> Figure:
    """One Iris pair ``"positive/negative"`` in the petal plane, with its verdict ``sep`` (with
    an offset) and its evidence."""
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
    # The classes' entries (plot_points labels them y = ±1, in whatever spelling) get names.
    labels = [f"{positive} (y = +1)" if "+1" in lab else f"{negative} (y = −1)"
              if "-1" in lab or "−1" in lab else lab for lab in labels]
    _legend_below(ax, 0.46 / ax_h, handles, labels)
    ax.set_title(f"{positive} vs {negative}, with an offset\n{_wrap(verdict_text(X, y, sep))}",
                 fontsize=9)
    return fig


# ------------------------------------------------------------------------------------------
# The chapter's sliders: drawing, grid and alt text together (explore(figs.gate(verdicts)))
# ------------------------------------------------------------------------------------------


def gate(verdicts: dict[str, tuple[Separability, ...]]) -> Explorable:
    """The logic gates, one at a time, each with its verdicts through the origin and with an
    offset (the first two of ``verdicts[gate]``) and their evidence."""
    return Explorable(lambda gate: draw_gate(*logic_gate(gate), verdicts[gate][:2], gate),
                      dict(gate=list(verdicts)),
                      alt="The logic gate {gate} on the four corners of the unit square. Left: "
                          "through the origin; right: with an offset. Each panel states its "
                          "verdict and draws the witness line or certificate.")


def iris(pairs: dict[str, tuple[NDArray, NDArray, Separability]]) -> Explorable:
    """The Iris pairs ``"positive/negative"`` in the petal plane, each ``(X, y, verdict)``."""
    return Explorable(lambda pair: draw_iris(*pairs[pair], pair), dict(pair=list(pairs)),
                      alt="Iris petal length against petal width for {pair}. The title states "
                          "the verdict of the test with an offset; the witness line or the "
                          "certificate is drawn.")


def clouds(runs: dict[tuple[float, float], tuple]) -> Explorable:
    """The two clouds at each (distance, noise) of ``runs``, whose values are
    ``(X, y, flipped, verdict)``: a slider for the distance (opening at the largest),
    a choice of the noise."""
    distances = sorted({d for d, _ in runs})
    step = round(distances[1] - distances[0], 10) if len(distances) > 1 else 1.0
    return Explorable(lambda distance, noise: draw_clouds(*runs[distance, noise], distance),
                      dict(distance=(distances[0], distances[-1], step, distances[-1]),
                           noise=sorted({q for _, q in runs})),
                      alt="Two Gaussian clouds with centres {distance} apart and a fraction "
                          "{noise} of labels flipped. The title states the separability verdict; "
                          "the witness line or the certificate is drawn.")


def _bench_cases() -> list:
    # The chapter's data and verdicts, computed as its cells compute them.
    from .. import flip_labels, gaussian_clouds, iris_pair, separability

    gates = {g: logic_gate(g) for g in ["and", "or", "nand", "nor", "xor"]}
    gate_verdicts = {g: (separability(*d), separability(*d, offset=True)) for g, d in gates.items()}
    pairs = {}
    for pair in ("setosa/versicolor", "versicolor/virginica"):
        X, y = iris_pair(*pair.split("/"), features=(2, 3))
        pairs[pair] = X, y, separability(X, y, offset=True)
    runs = {}
    for d in np.arange(0.0, 6.01, 0.5).round(1).tolist():
        for q in (0.0, 0.025, 0.1):
            X, clean = gaussian_clouds(20, d, seed=0)
            y = flip_labels(clean, q, seed=1)
            runs[d, q] = X, y, np.flatnonzero(y != clean), separability(X, y, offset=True)
    cases = [("separability-gate", gate(gate_verdicts)), ("separability-iris", iris(pairs)),
             ("separability-clouds", clouds(runs))]
    return [(name, e.draw, e.params) for name, e in cases]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() calls as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when asked for.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
