"""The figures drawn for the book's dark theme (perceptron_core.figures.theme): the dark page
behind them, light ink, every mark and text standing out from the page (WCAG contrast computed
here from its definition), hues kept."""

from __future__ import annotations

import importlib

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.collections import Collection
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

from perceptron_core.figures import sliders, theme
from perceptron_core.figures.plotting import new_figure, plot_points, plot_separator

PAPER, INK = (0x12, 0x12, 0x12), (0xCE, 0xD6, 0xDD)  # the theme's page and text colours


def wcag_contrast(a, b) -> float:
    """WCAG 2.x contrast ratio, from its definition (sRGB relative luminance)."""
    def lum(c):
        out = 0.0
        for ch, weight in zip(to_rgba(c)[:3], (0.2126, 0.7152, 0.0722)):
            out += weight * (ch / 12.92 if ch <= 0.04045 else ((ch + 0.055) / 1.055) ** 2.4)
        return out
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_matches_wcag_examples():
    assert theme.contrast("white", "black") == pytest.approx(21.0)
    assert theme.contrast("#777777", "white") == pytest.approx(4.48, abs=0.01)  # WCAG's "#777"
    assert theme.contrast("#1f77b4", "#1f77b4") == pytest.approx(1.0)


def test_neutrals_swap_ends_and_keep_their_order():
    assert np.allclose(theme.dark_colour("white")[:3], np.array(PAPER) / 255)
    assert np.allclose(theme.dark_colour("black")[:3], np.array(INK) / 255)
    greys = [theme.dark_colour(str(v)) for v in np.linspace(0, 1, 11)]
    lum = [wcag_contrast(g, "black") for g in greys]
    assert all(a > b for a, b in zip(lum, lum[1:])), "a lighter grey must come out darker"
    assert theme.dark_colour((0.5, 0.5, 0.5, 0.3))[3] == 0.3  # alpha kept


def test_hues_stand_out_from_the_dark_page_and_keep_their_colour():
    rng = np.random.default_rng(0)
    for rgb in rng.uniform(0, 1, size=(400, 3)):
        if np.ptp(rgb) < 0.05:
            continue
        mark, text = theme.dark_colour(rgb), theme.dark_colour(rgb, text=True)
        assert wcag_contrast(mark, "#121212") >= 3.0 - 1e-9
        assert wcag_contrast(text, "#121212") >= 4.5 - 1e-9
        # The strongest channel stays the strongest: blue stays blue, red stays red.
        assert np.argmax(mark[:3]) == np.argmax(rgb) or np.ptp(mark[:3]) < 0.05
    # The book's class colours already stand out: left as they are.
    for colour in ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd"):
        assert np.allclose(theme.dark_colour(colour), to_rgba(colour))


def _figure():
    fig, (ax,) = new_figure(1, width=3.0, height=2.4)
    X = np.array([[1.0, 0.5], [0.2, 1.0], [-1.0, -0.4], [-0.3, -1.0]])
    y = np.array([1, 1, -1, -1])
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.5, 1.5)
    plot_points(ax, X, y, highlight=0)
    plot_separator(ax, [1.0, 1.0], margin=0.3)  # #333333 line and arrow, dotted band
    ax.axhline(0, color="0.85", lw=0.8, zorder=0)
    ax.annotate("note", (0, 0), xytext=(0.5, -1.0), arrowprops=dict(arrowstyle="->", color="black"))
    ax.text(-1.2, 1.2, "purple", color="tab:purple")
    ax.legend(loc="lower right", fontsize=9)
    ax.set_title("title")
    return fig


def _colours(fig):
    """(kind, colour) of everything drawn, for the contrast checks."""
    for artist in fig.findobj():
        if not artist.get_visible():
            continue
        if isinstance(artist, Text) and artist.get_text().strip():
            yield "text", artist.get_color()
        elif isinstance(artist, Line2D):
            yield "mark", artist.get_color()
        elif isinstance(artist, Collection):
            for c in artist.get_facecolor():
                yield "mark", c
        elif isinstance(artist, Patch) and artist is not fig.patch:
            yield "edge", artist.get_edgecolor()


def _check_dark(light, dark) -> list[str]:
    """Each mark and text of the dark figure stands out from the dark page (3:1, text 4.5:1),
    or at least as much as it does from the white page in the light figure (a faint guide line
    is faint in both). ``light`` and ``dark`` are the same figure, drawn for each theme."""
    problems = []
    pairs = list(zip(_colours(light), _colours(dark), strict=True))
    for (kind, was), (_, colour) in pairs:
        if to_rgba(colour)[3] < 0.5:
            continue  # a translucent band behind the marks
        least = min(4.5 if kind == "text" else 3.0, wcag_contrast(was, "white"))
        ratio = wcag_contrast(colour, "#121212")
        if ratio < least - 0.05:
            problems.append(f"{kind} {to_rgba(colour)} at {ratio:.2f}:1 (was {least:.2f}:1)")
    return problems


def _both(draw, **values):
    light = draw(**values)
    light.draw_without_rendering()  # ticks and labels are made as a figure is drawn
    dark = theme.to_dark(draw(**values))
    with theme.dark():
        dark.draw_without_rendering()
    return light, dark


def test_a_figure_drawn_dark_has_the_dark_page_and_readable_ink():
    fig = _figure()
    rgba = sliders._Painter(lambda: fig, dark=True)({})[0]
    assert tuple(rgba[2, 2, :3]) == PAPER  # the figure's background is the page's
    ax = fig.axes[0]
    assert np.allclose(to_rgba(ax.title.get_color())[:3], np.array(INK) / 255)
    # Tick labels made while the figure was drawn took the dark defaults: mapped once, not twice.
    for label in ax.get_xticklabels():
        assert np.allclose(to_rgba(label.get_color())[:3], np.array(INK) / 255)
    assert not _check_dark(*_both(_figure))
    # The figure as drawn for the light page would fail the same check: it tests something.
    light = _figure()
    light.draw_without_rendering()
    assert _check_dark(light, light)


def test_to_dark_refuses_what_is_not_a_figure():
    with pytest.raises(TypeError, match="Figure"):
        theme.to_dark("not a figure")


@pytest.mark.parametrize("module", ["first_look", "perceptron", "separability", "margin",
                                    "convergence", "offset", "margin_perceptron",
                                    "nonseparable", "guarantees"])
def test_every_book_figure_drawn_dark_stands_out_from_the_page(module):
    """The first frame of every slider of the book, as the dark page shows it."""
    mod = importlib.import_module(f"perceptron_core.figures.{module}")
    for name, draw, params in mod.BENCH_CASES:
        first = {k: sliders.slider_values(v, name=k)[0] for k, v in params.items()}
        problems = _check_dark(*_both(draw, **first))
        assert not problems, (name, problems[:5])
