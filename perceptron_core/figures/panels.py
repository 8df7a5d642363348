"""A figure's panels as pictures of their own, so that a narrow screen can stack them.

The book draws two panels side by side in one figure. Shown whole on a phone, 328 CSS px wide,
such a figure is scaled to a third of its size and its text to 4 or 5 px. Cut into one picture
per panel, each panel can take the whole width of a phone and sit beside the other on a wider
screen (:mod:`perceptron_core.figures.sliders` lays them out).

The cut follows what the figure's code knows: each panel's content is the union of its Axes'
tight boxes (ticks, labels, title, legend, annotations) over every frame of a slider, so that the
panels keep their size while the slider moves. The cut is checked on the pixels: everything
outside the panels must be the figure's bare background, or nothing is cut. A figure with its own
artists (``suptitle``, ``fig.text``, ``fig.legend``) stays whole, since they belong to no panel.

Each panel also records the smallest font its texts use, in pixels of the picture: shown at a
scale ``s``, the panel's smallest text is ``s`` times that tall, which the book's phone test
checks against 9 CSS px.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.text import Text

__all__ = ["Frame", "Panel", "measure", "panels", "READABLE_PX"]

#: Pixels of background kept around a panel's content.
PAD_PX = 8
#: The smallest text a reader should have to read, in CSS px (the book's phone test).
READABLE_PX = 9.0


@dataclass(frozen=True)
class Frame:
    """What one drawn figure shows, in pixels of its picture (origin top left).

    Attributes
    ----------
    columns : tuple of (float, float)
        Left and right edge of each panel's content, left to right.
    rows : tuple of (float, float)
        Top and bottom edge of each panel's content.
    text_px : tuple of float
        Smallest font size of each panel's texts, in pixels (``inf`` for a panel without text).
    background : tuple of int
        The figure's background colour as RGBA bytes, or ``None`` when the figure must stay
        whole (it has artists of its own).
    """

    columns: tuple[tuple[float, float], ...]
    rows: tuple[tuple[float, float], ...]
    text_px: tuple[float, ...]
    background: tuple[int, ...] | None


@dataclass(frozen=True)
class Panel:
    """One picture cut from each frame: the rows ``top:bottom`` and columns ``left:right``,
    and the smallest font size over every frame, in pixels."""

    top: int
    bottom: int
    left: int
    right: int
    text_px: float

    @property
    def width(self) -> int:
        return self.right - self.left

    def readable_width(self) -> int:
        """The narrowest the panel can be shown at with its smallest text at
        :data:`READABLE_PX` CSS px (its whole width for a panel without text)."""
        if not math.isfinite(self.text_px):
            return self.width
        return math.ceil(self.width * READABLE_PX / self.text_px)


def measure(fig: Figure, renderer) -> Frame:
    """Measure the panels of ``fig`` as drawn by ``renderer`` (its Agg renderer).

    Axes whose content overlaps from left to right form one panel.
    """
    height = renderer.height
    axes = [ax for ax in fig.axes if ax.get_visible()]
    own = [a for a in (*fig.texts, *fig.legends, *fig.lines, *fig.patches, *fig.images,
                       *fig.artists) if a.get_visible()]
    boxes = [(ax, ax.get_tightbbox(renderer)) for ax in axes]
    boxes = [(ax, b) for ax, b in boxes if b is not None and b.width > 0]
    boxes.sort(key=lambda item: item[1].x0)
    groups: list[list] = []  # [x0, x1, y0, y1, axes] with y from the bottom
    for ax, box in boxes:
        if groups and box.x0 <= groups[-1][1]:
            g = groups[-1]
            g[1], g[2], g[3] = max(g[1], box.x1), min(g[2], box.y0), max(g[3], box.y1)
            g[4].append(ax)
        else:
            groups.append([box.x0, box.x1, box.y0, box.y1, [ax]])
    if own or not groups:
        width = renderer.width
        sizes = [_smallest_text(fig, renderer)]
        return Frame(((0.0, float(width)),), ((0.0, float(height)),), tuple(sizes), None)
    return Frame(
        columns=tuple((g[0], g[1]) for g in groups),
        rows=tuple((height - g[3], height - g[2]) for g in groups),
        text_px=tuple(min(_smallest_text(ax, renderer) for ax in g[4]) for g in groups),
        background=tuple(int(round(255 * c)) for c in to_rgba(fig.get_facecolor())),
    )


def _smallest_text(artist, renderer) -> float:
    """Smallest font size, in pixels, of the texts under ``artist`` that show something."""
    sizes = [t.get_fontsize() * renderer.points_to_pixels(1.0)
             for t in artist.findobj(Text)
             if t.get_visible() and t.get_text().strip()]
    return min(sizes, default=math.inf)


def panels(frames: list[Frame], pictures: list[np.ndarray]) -> list[Panel]:
    """The panels to cut from every picture of one slider.

    Parameters
    ----------
    frames : list of Frame
        The measures of every distinct picture, as :func:`measure` gives them (the pictures of
        both themes: each is checked against its own background).
    pictures : list of ndarray
        The RGBA pixels of those pictures, all the same size.

    Returns
    -------
    list of Panel
        Left to right. One panel, the whole picture, when the frames do not agree on their
        panels, when the panels' content would overlap, or when a cut would lose a pixel that
        is not the figure's background.
    """
    height, width = pictures[0].shape[:2]
    whole = [Panel(0, height, 0, width, min(min(f.text_px) for f in frames))]
    counts = {len(f.columns) for f in frames}
    if len(counts) != 1 or any(f.background is None for f in frames):
        return whole
    n = counts.pop()
    left = [min(f.columns[i][0] for f in frames) for i in range(n)]
    right = [max(f.columns[i][1] for f in frames) for i in range(n)]
    top = min(f.rows[i][0] for f in frames for i in range(n))
    bottom = max(f.rows[i][1] for f in frames for i in range(n))
    cut = [Panel(max(0, math.floor(top - PAD_PX)), min(height, math.ceil(bottom + PAD_PX)),
                 max(0, math.floor(left[i] - PAD_PX)), min(width, math.ceil(right[i] + PAD_PX)),
                 min(f.text_px[i] for f in frames)) for i in range(n)]
    if any(a.right > b.left for a, b in zip(cut, cut[1:])):
        return whole
    kept = np.zeros((height, width), dtype=bool)
    for p in cut:
        kept[p.top:p.bottom, p.left:p.right] = True
    for frame, rgba in zip(frames, pictures):
        if not np.all(rgba[~kept] == np.array(frame.background, dtype=np.uint8)):
            return whole
    return cut
