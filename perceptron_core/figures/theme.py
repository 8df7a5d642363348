"""The book's figures drawn for a dark page.

The published book has a dark theme, and every slider's figure is drawn twice, once for each
theme, by the same ``draw`` function (:mod:`perceptron_core.figures.sliders`). The dark drawing
maps each colour once:

* **neutrals swap ends**: the paper (white) becomes the dark page, :data:`PAPER`; the ink (black
  text, axes, ticks) becomes the theme's light text, :data:`INK`; a grey in between keeps its
  place on that scale (a faint grid line stays faint, a dark reference line stays strong);
* **hues keep their meaning**: the blue of the +1 class stays blue and the red of −1 red, since
  the chapters name them. A hue too dark on the dark page is lightened towards the ink until it
  reaches 3:1 against the page (WCAG 1.4.11, graphics), 4.5:1 for text (1.4.3). A translucent
  fill (alpha under 0.5, a band behind the marks) keeps its colour.

Why a colour map and not a dark matplotlib style: the chapters' figures name their colours
(``POSITIVE``, ``"black"``), which a style would not change. Lines, markers, patches,
collections and texts are mapped; images (``imshow``) are not, and the book has none.
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

#: The dark page of the book's theme (pydata-sphinx-theme's dark background).
PAPER = "#121212"
#: The dark theme's text colour.
INK = "#ced6dd"
#: Least contrast against PAPER: graphics (lines, markers, fills) and text.
GRAPHICS_CONTRAST, TEXT_CONTRAST = 3.0, 4.5

_PAPER, _INK = np.array(to_rgba(PAPER)[:3]), np.array(to_rgba(INK)[:3])
#: rcParams holding the colours of what matplotlib makes only while it draws (tick labels).
_RC_COLOURS = ("figure.facecolor figure.edgecolor axes.facecolor axes.edgecolor axes.labelcolor "
               "axes.titlecolor text.color xtick.color xtick.labelcolor ytick.color grid.color "
               "ytick.labelcolor legend.facecolor legend.edgecolor legend.labelcolor "
               "patch.edgecolor patch.facecolor lines.color").split()


def _luminance(rgb: Any) -> float:
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
    if rgb.max() - rgb.min() < 0.02:  # a grey
        return (*(_PAPER + (1.0 - rgb.mean()) * (_INK - _PAPER)), a)
    if a < 0.5 and not text:
        return (r, g, b, a)  # a translucent area behind the marks (a band): keeps its hue
    least = TEXT_CONTRAST if text else GRAPHICS_CONTRAST
    for t in np.linspace(0.0, 1.0, 21):  # INK itself (t = 1) is far above either contrast
        mixed = (1.0 - t) * rgb + t * _INK
        if contrast(mixed, PAPER) >= least:
            break
    return (*mixed, a)


@contextlib.contextmanager
def dark() -> Iterator[None]:
    """rcParams for drawing a figure that :func:`to_dark` mapped: tick labels, made only while
    matplotlib draws, take their colours from here."""
    params = matplotlib.rcParams
    changed = {name: to_hex(dark_colour(params[name], text="label" in name or name in (
        "text.color", "axes.titlecolor")), keep_alpha=True) for name in _RC_COLOURS
        if params[name] not in ("auto", "inherit", "face", "none")}
    with matplotlib.rc_context(changed):
        yield


def to_dark(fig: Figure) -> Figure:
    """Map every colour the figure's artists were given to the dark theme, in place.

    Call it once, on a figure made with the ordinary (light) defaults, then draw it inside
    :func:`dark`.
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"to_dark() needs a matplotlib.figure.Figure, got {type(fig).__name__}.")

    def patch(p: Patch) -> None:
        p.set_edgecolor(dark_colour(p.get_edgecolor()))
        if p.get_fill():
            p.set_facecolor(dark_colour(p.get_facecolor()))

    for artist in fig.findobj():
        if isinstance(artist, Text):
            artist.set_color(dark_colour(artist.get_color(), text=True))
            for box in (artist.get_bbox_patch(), getattr(artist, "arrow_patch", None)):
                if box is not None:  # a text's box, an annotation's arrow
                    patch(box)
        elif isinstance(artist, Line2D):
            artist.set_color(dark_colour(artist.get_color()))
            for part in ("markerfacecolor", "markeredgecolor", "markerfacecoloralt"):
                value = getattr(artist, f"get_{part}")()
                if not (isinstance(value, str) and value == "none"):
                    artist.set(**{part: dark_colour(value)})
        elif isinstance(artist, Patch):
            patch(artist)
        elif isinstance(artist, Collection):
            faces, edges = artist.get_facecolor(), artist.get_edgecolor()
            if len(faces):
                artist.set_facecolor([dark_colour(c) for c in to_rgba_array(faces)])
            if not isinstance(edges, str) and len(edges):  # "face" follows the faces
                artist.set_edgecolor([dark_colour(c) for c in to_rgba_array(edges)])
    return fig
