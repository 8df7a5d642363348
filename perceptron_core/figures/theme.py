"""The book's figures drawn for a dark page.

The published book has a dark theme. Its figures are drawn twice, once for each theme, and the
page shows the pair that matches the reader's (:mod:`perceptron_core.figures.sliders`). The dark
drawing is the same figure, built by the same ``draw`` function, with one colour scheme:

* **neutrals swap ends**: the paper (white) becomes the dark page, :data:`PAPER`; the ink (black
  text, axes, ticks) becomes the theme's light text, :data:`INK`; a grey in between keeps its
  place on that scale (a faint grid line stays faint, a dark reference line stays strong);
* **hues keep their meaning**: the blue of the +1 class stays blue, the red of −1 stays red,
  since the chapters name them. A hue too dark to see on the dark page is lightened towards the
  ink until it reaches 3:1 against the page (WCAG 1.4.11, graphics), 4.5:1 for text (1.4.3).
  A translucent fill (alpha under 0.5, a band behind the marks) keeps its colour.

Lines, markers, patches, collections and text are mapped; images (``imshow``) are not, and the
book's figures have none.

Every colour the figure's code gave its artists, or they took from the defaults, is mapped once
after ``draw`` made the figure (:func:`to_dark`); the defaults (rcParams) are mapped the same way
while it is drawn (:func:`dark`), for what matplotlib makes only then (tick labels). Neither is a
filter on the picture: the figure is drawn again with its colours.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import matplotlib
import numpy as np
from matplotlib.collections import Collection
from matplotlib.colors import to_hex, to_rgba, to_rgba_array
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

__all__ = ["PAPER", "INK", "dark", "dark_colour", "contrast", "to_dark"]

#: The dark page of the book's theme (sphinx-book-theme's dark background, over pydata-sphinx-theme's).
PAPER = "#121212"
#: The dark theme's text colour.
INK = "#ced6dd"
#: Least contrast against PAPER: graphics (lines, markers, fills) and text.
GRAPHICS_CONTRAST, TEXT_CONTRAST = 3.0, 4.5
#: A colour whose channels differ by less than this is a grey (a neutral).
_NEUTRAL = 0.02

_PAPER = np.array(to_rgba(PAPER)[:3])
_INK = np.array(to_rgba(INK)[:3])

# The rcParams that hold colours, as matplotlib names them; "auto", "inherit", "face" and
# "none" are kept as they are.
_RC_COLOURS = ("figure.facecolor", "figure.edgecolor", "axes.facecolor", "axes.edgecolor",
               "axes.labelcolor", "axes.titlecolor", "text.color", "xtick.color",
               "xtick.labelcolor", "ytick.color", "ytick.labelcolor", "grid.color",
               "legend.facecolor", "legend.edgecolor", "legend.labelcolor", "patch.edgecolor",
               "patch.facecolor", "savefig.facecolor", "savefig.edgecolor", "hatch.color",
               "lines.color", "boxplot.flierprops.color", "boxplot.boxprops.color",
               "boxplot.whiskerprops.color", "boxplot.capprops.color",
               "boxplot.medianprops.color", "scatter.edgecolors")


def _luminance(rgb: np.ndarray) -> float:
    """Relative luminance of an sRGB colour (WCAG 2)."""
    rgb = np.asarray(rgb, dtype=float)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def contrast(a: Any, b: Any) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = _luminance(to_rgba(a)[:3]), _luminance(to_rgba(b)[:3])
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def dark_colour(colour: Any, *, text: bool = False) -> tuple[float, float, float, float]:
    """The dark theme's counterpart of a colour of the light figure (alpha kept).

    A grey ``v`` (0 black, 1 white) becomes ``PAPER + (1 - v) (INK - PAPER)``; any other colour
    keeps its hue and is lightened towards ``INK`` only as far as it needs to stand out from
    the page: 3:1, or 4.5:1 for ``text=True``.
    """
    r, g, b, a = to_rgba(colour)
    rgb = np.array([r, g, b])
    if rgb.max() - rgb.min() < _NEUTRAL:
        v = float(rgb.mean())
        return (*(_PAPER + (1.0 - v) * (_INK - _PAPER)), a)
    if a < 0.5 and not text:
        return (r, g, b, a)  # a translucent area behind the marks (a band): keeps its hue
    least = TEXT_CONTRAST if text else GRAPHICS_CONTRAST
    for t in np.linspace(0.0, 1.0, 21):
        mixed = (1.0 - t) * rgb + t * _INK
        if contrast(mixed, PAPER) >= least:
            return (*mixed, a)
    return (*_INK, a)  # not reached: INK itself is far above either contrast


def _dark_array(colours: Any, *, text: bool = False) -> np.ndarray:
    rgba = to_rgba_array(colours)
    return np.array([dark_colour(c, text=text) for c in rgba]).reshape(rgba.shape)


@contextlib.contextmanager
def dark() -> Iterator[None]:
    """rcParams for drawing a figure in the dark theme: the defaults' colours mapped by
    :func:`dark_colour`. Use around the drawing of a figure that :func:`to_dark` mapped, not
    around ``draw(...)`` (its colours would be mapped twice): tick labels that matplotlib makes
    only while it draws take their colours from here."""
    params = matplotlib.rcParams
    changed = {}
    for name in _RC_COLOURS:
        value = params.get(name)
        if isinstance(value, str) and value in ("auto", "inherit", "face", "none"):
            continue
        try:
            changed[name] = to_hex(dark_colour(value, text="label" in name or name in (
                "text.color", "axes.titlecolor")), keep_alpha=True)
        except (ValueError, TypeError):
            continue
    with matplotlib.rc_context(changed):
        yield


def to_dark(fig: Figure) -> Figure:
    """Map every colour the figure's artists were given to the dark theme, in place.

    Call it once, on a figure made with the ordinary (light) defaults, then draw it inside
    :func:`dark`.
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"to_dark() needs a matplotlib.figure.Figure, got {type(fig).__name__}.")
    for artist in fig.findobj():
        if isinstance(artist, Text):
            artist.set_color(dark_colour(artist.get_color(), text=True))
            box = artist.get_bbox_patch()
            if box is not None:
                _patch(box)
            arrow = getattr(artist, "arrow_patch", None)  # an Annotation's arrow
            if arrow is not None:
                _patch(arrow)
        elif isinstance(artist, Line2D):
            artist.set_color(dark_colour(artist.get_color()))
            for get, put in (("get_markerfacecolor", "set_markerfacecolor"),
                             ("get_markeredgecolor", "set_markeredgecolor"),
                             ("get_markerfacecoloralt", "set_markerfacecoloralt")):
                value = getattr(artist, get)()
                if not (isinstance(value, str) and value == "none"):
                    getattr(artist, put)(dark_colour(value))
        elif isinstance(artist, Patch):
            _patch(artist)
        elif isinstance(artist, Collection):
            faces, edges = artist.get_facecolor(), artist.get_edgecolor()
            if len(faces):
                artist.set_facecolor(_dark_array(faces))
            if isinstance(edges, str) or not len(edges):
                continue  # "face" follows the faces; none drawn
            artist.set_edgecolor(_dark_array(edges))
    return fig


def _patch(patch: Patch) -> None:
    patch.set_edgecolor(dark_colour(patch.get_edgecolor()))
    if patch.get_fill():
        patch.set_facecolor(dark_colour(patch.get_facecolor()))
