"""Drawing a slider's figures fast, on matplotlib's public API only.

A slider move calls ``draw(**params)``, which builds a new :class:`~matplotlib.figure.Figure`,
and its picture must equal ``FigureCanvasAgg(fig).draw()`` pixel for pixel. Most of the drawing
time goes into each Axes' ticks, tick labels and axis labels: text, made, laid out and rasterized
anew on every draw, and the same from one frame to the next as long as the axes' limits, ticks
and place stay. :class:`LayeredRenderer` draws a figure in two layers:

* the **background**: the figure's patch, then for each Axes its patch and its x and y axis
  (ticks, tick labels, grid lines, axis labels, offset text). Each Axes' part is kept as a
  *layer*: the pixels it changed over the figure's patch, keyed by the public state they depend
  on (the Axes' place after ``apply_aspect``, limits and scales as tick places in pixels, tick
  locations and formatted labels, ``get_tick_params``, axis labels, colours, the figure's patch
  and size, the rcParams). A frame pastes the layers it finds and draws only the missing ones;
* the **rest**, drawn over it by ``Figure.draw`` with the background's artists hidden (a hidden
  Axes patch still clips the data). ``Figure.draw`` does not clear the buffer;
  ``canvas.draw()`` would.

That is the picture ``canvas.draw()`` draws when the background's artists come first in
matplotlib's drawing order, which the renderer checks on every frame:

(a) within an Axes, the other artists are drawn after the axes (``Axes.draw`` sorts its
    children stably by zorder; ``set_axisbelow(True)`` puts the axes at 0.5, below lines at 2 and
    patches and collections at 1), except lines, patches, collections and images below them (a
    reference line at zorder 0), which join the layer, keyed by their own pixels;
(b) no artist of an Axes, and no other Axes' layer, lies on a layer of an Axes drawn after it
    (side-by-side panels do not overlap);
(c) the figure's own artists (``fig.text``, ``fig.legend``, ``suptitle``) are drawn after every
    Axes.

An Axes that breaks (a), or whose title placement would read its hidden axes (an x axis with
ticks or label at the top, or an offset text on a y axis, while a title is shown), or that is
not a plain 2-D Axes, is drawn whole with the rest. A figure that breaks (b) or (c), or has a
layout engine or subfigures, is drawn whole, as ``canvas.draw()`` does: correct, only slower.

An axis label's place may depend on the tick labels of other Axes in its row or column, once
``Figure.align_labels`` has joined them; matplotlib offers no public way to ask, so a layer
with an axis label is keyed by the other Axes' ticks too, unless the figure says
``labels_aligned = False`` (:class:`~perceptron_core.figures.plotting.BookFigure` keeps that
attribute true to its calls).

Two more things make every frame cheaper. One renderer draws all frames of one size, so
matplotlib's caches of text extents and parsed mathtext, kept per renderer, carry over; and it
keeps what each text it drew did to the pixels under it, pasting that back when the same text
comes again at the same place, in the same colour, over the same pixels
(:class:`_TextKeepingRenderer`): legends, titles and the tick labels of a new background are
mostly such texts. pyplot's auto-redraw is detached from the figures drawn here.

What the keys do not see: tick labels or tick lines restyled one by one on the tick objects
(``for t in ax.get_xticklabels(): t.set_color(...)``) rather than with ``tick_params``, locators
and formatters. A draw function that restyles individual ticks differently from frame to frame,
with all else equal, gets the ticks of the first such frame.
"""

from __future__ import annotations

import collections
import hashlib
import math
from operator import methodcaller
from typing import Any

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.collections import Collection
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.spines import Spine
from matplotlib.text import Text

__all__ = ["LayeredRenderer"]

#: rcParams that cannot change a picture drawn on an Agg canvas (and "backend", whose lookup
#: may import pyplot).
_RC_IGNORED = ("backend", "animation.", "interactive", "keymap.", "macosx.", "pdf.", "pgf.",
               "ps.", "savefig.", "svg.", "tk.", "toolbar", "webagg.", "figure.raise_window",
               "figure.max_open_warning")
#: Anti-aliasing, joins and caps reach a little past an artist's nominal box, in pixels.
_PAD_PX = 3.0

_zorder = methodcaller("get_zorder")
#: What may lie below an Axes' axes and still be kept with them, keyed by its pixels: artists
#: that Axes.draw draws with nothing but their own draw() (unlike titles and legends, which it
#: places first).
_BELOW_AXES = (Line2D, Patch, Collection, AxesImage)


class LayeredRenderer:
    """Draws successive figures of one slider, keeping each Axes' background between frames.

    Parameters
    ----------
    cache_size : int
        How many Axes backgrounds (layers) to keep; the least recently used goes first. A layer
        holds the pixels around its Axes: about 0.5 MB for half of a 9 x 4 inch figure at
        100 dpi.

    Attributes
    ----------
    last : {"reused", "drawn", "whole"} or None
        How the last frame was drawn: over kept layers only, with some layers drawn for it, or
        whole, as ``canvas.draw()`` draws (a figure that breaks a condition of the module
        docstring).
    counts : collections.Counter
        How many frames were drawn each way.
    last_layers : tuple of int
        ``(layered, axes)`` of the last frame: how many of its visible Axes had their
        background in a layer (the others were drawn whole), out of how many.

    Examples
    --------
    >>> renderer = LayeredRenderer()
    >>> pixels = renderer.rgba(draw(k=1))   # doctest: +SKIP
    >>> pixels = renderer.rgba(draw(k=2))   # doctest: +SKIP
    >>> renderer.last                       # doctest: +SKIP
    'reused'
    """

    def __init__(self, cache_size: int = 16):
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 1:
            raise ValueError(f"cache_size must be a positive int, got {cache_size!r}.")
        self.cache_size = cache_size
        self._agg: _TextKeepingRenderer | None = None
        self._agg_key: tuple | None = None
        self._layers: collections.OrderedDict[tuple, _Layer] = collections.OrderedDict()
        self._patch_pixels: tuple | None = None  # (figure patch key, its pixels)
        self._rc: tuple | None = None
        self.last: str | None = None
        self.last_layers: tuple[int, int] = (0, 0)
        self.counts: collections.Counter = collections.Counter()

    @property
    def renderer(self) -> RendererAgg | None:
        """The Agg renderer that drew the last frame (its caches of text extents make measuring
        that frame's artists cheap), or None before the first."""
        return self._agg

    def forget(self) -> None:
        """Drop every kept layer and text."""
        self._layers.clear()
        self._patch_pixels = None
        if self._agg is not None:
            self._agg.texts.clear()

    def rgba(self, fig: Figure) -> np.ndarray:
        """The RGBA pixels of ``fig``, as ``FigureCanvasAgg(fig).draw()`` draws them (a copy).

        The figure gets an Agg canvas, and pyplot's auto-redraw callback is taken off it;
        nothing else of it changes.

        Raises
        ------
        TypeError
            ``fig`` is not a :class:`matplotlib.figure.Figure`.
        """
        if not isinstance(fig, Figure):
            raise TypeError(f"rgba() needs a matplotlib.figure.Figure, got {type(fig).__name__}.")
        # pyplot's auto-redraw (interactive mode) would draw the whole figure again each time an
        # artist is hidden or shown below. The figure is drawn here, so nothing is lost.
        fig.stale_callback = None
        renderer = self._renderer_for(FigureCanvasAgg(fig))
        self._check_rc()
        plan = _Plan.make(fig, renderer)
        self.last_layers = (0, len(fig.axes))
        if plan is None or not self._draw_background(plan):
            renderer.clear()
            fig.draw(renderer)
            self.last = "whole"
        else:
            plan.draw_rest()
        self.counts[self.last] += 1
        return np.asarray(renderer.buffer_rgba()).copy()

    # ------------------------------------------------------------------------------------------

    def _draw_background(self, plan: _Plan) -> bool:
        """Put the background of ``plan``'s figure in the buffer; False if it breaks (b)."""
        renderer = self._agg
        buffer = np.asarray(renderer.buffer_rgba())
        patch = _patch_key(plan.fig.patch, renderer)
        if self._patch_pixels is None or self._patch_pixels[0] != patch:
            renderer.clear()
            plan.fig.patch.draw(renderer)
            self._patch_pixels = (patch, buffer.copy())
        base = self._patch_pixels[1]
        layers, drawn = {}, False
        for j, ax in enumerate(plan.axes):
            if ax not in plan.layers:
                continue
            artists = plan.layers[ax]
            key = (patch, *plan.key(ax))
            below = [a for a in artists if a is not ax.xaxis and a is not ax.yaxis]
            drawn_below = any(a is not ax.patch for a in below)
            if drawn_below:
                # Lines or patches below the axes: they are known by their pixels, drawn
                # (alone, with the Axes' patch) over the figure's patch.
                buffer[...] = base
                for artist in below:
                    artist.draw(renderer)
                key += (hashlib.sha1(buffer).digest(),)
            layer = self._layers.get(key)
            if layer is None:  # drawn alone over the figure's patch, then kept
                if not drawn_below:
                    buffer[...] = base
                for artist in artists[len(below):] if drawn_below else artists:
                    artist.draw(renderer)
                layer = _Layer(base, buffer, _rows_cols(ax.bbox, buffer.shape[0]))
                self._layers[key] = layer
                while len(self._layers) > self.cache_size:
                    self._layers.popitem(last=False)
                drawn = True
            else:
                self._layers.move_to_end(key)
            layers[j] = layer
        if not plan.fits(layers):
            return False
        buffer[...] = base
        for layer in layers.values():
            layer.paste(buffer, alone=not any(layer.crosses(other) for other in layers.values()
                                              if other is not layer))
        self.last = "drawn" if drawn else "reused"
        self.last_layers = (len(layers), len(plan.axes))
        return True

    def _renderer_for(self, canvas: FigureCanvasAgg) -> RendererAgg:
        """One renderer for every frame of a size: its caches of text extents carry over."""
        # The size canvas.draw() would draw at (rounded differently by matplotlib releases).
        probe = canvas.get_renderer()
        key = (probe.width, probe.height, probe.dpi)
        if key != self._agg_key:
            self._agg, self._agg_key = _TextKeepingRenderer(*key), key
            self.forget()
        return self._agg

    def _check_rc(self) -> None:
        """Forget every layer when an rcParam that may change one has changed."""
        params = matplotlib.rcParams
        state = tuple((name, params[name]) for name in sorted(params)
                      if not name.startswith(_RC_IGNORED))
        if state != self._rc:
            self._rc = state
            self.forget()


class _TextKeepingRenderer(RendererAgg):
    """A ``RendererAgg`` that keeps what each text it draws did to the pixels under it.

    A text costs up to a millisecond or two to lay out and rasterize (matplotlib 3.11 shapes
    every string anew), and a frame draws dozens: tick labels, legend entries, titles, most of
    them the same text at the same place over the same pixels as in an earlier frame. What a
    text draws depends only on the string, its font, place and angle, its graphics context and
    the pixels under it; so when all of these are the same, the pixels it drew are pasted back.
    Texts clipped to a path, or drawn without their Text artist, are always drawn.
    """

    #: Texts kept per renderer (each a few KB), the least recently drawn dropped first.
    max_texts = 1024

    def __init__(self, width: float, height: float, dpi: float):
        super().__init__(width, height, dpi)
        self.texts: collections.OrderedDict[tuple, tuple] = collections.OrderedDict()

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        key = _text_draw_key(gc, x, y, s, prop, angle, ismath, mtext)
        if key is None:
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        buffer = np.asarray(self.buffer_rgba())
        kept = self.texts.get(key)
        if kept is not None:
            top, left, under, drawn = kept
            view = buffer[top:top + under.shape[0], left:left + under.shape[1]]
            if np.array_equal(view, under):
                view[...] = drawn
                self.texts.move_to_end(key)
                return None
        # Watch the text's box and an em around it (glyphs overhang their box a little), then
        # keep the part that changed, with the box itself.
        height, width = buffer.shape[:2]
        em = prop.get_size_in_points() * self.dpi / 72
        box = mtext.get_window_extent(self)
        top, bottom, left, right = _rows_cols(box, height, pad=em + _PAD_PX)
        bottom, right = min(bottom, height), min(right, width)
        before = buffer[top:bottom, left:right].copy()
        result = super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        if top >= bottom or left >= right:
            return result
        changed = _changed(before, buffer[top:bottom, left:right])
        edges = (changed[0].any() and top > 0, changed[-1].any() and bottom < height,
                 changed[:, 0].any() and left > 0, changed[:, -1].any() and right < width)
        if any(edges):  # it drew past what was watched: do not keep it
            return result
        t, b, lft, r = _rows_cols(box, height, pad=_PAD_PX)
        changed[max(t - top, 0):max(b - top, 0), max(lft - left, 0):max(r - left, 0)] = True
        rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
        if rows.size:
            crop = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
            self.texts[key] = (top + int(rows[0]), left + int(cols[0]), before[crop],
                               buffer[top:bottom, left:right][crop].copy())
            while len(self.texts) > self.max_texts:
                self.texts.popitem(last=False)
        return result


def _changed(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Which pixels of two RGBA images differ (compared as 32-bit words: one per pixel)."""
    return before.view(np.uint32)[..., 0] != after.view(np.uint32)[..., 0]


def _text_draw_key(gc, x, y, s, prop, angle, ismath, mtext) -> tuple | None:
    """Everything but the pixels under it that a text's drawing depends on; None: not kept."""
    if mtext is None or gc.get_clip_path()[0] is not None:
        return None
    clip = gc.get_clip_rectangle()
    return (s, str(ismath), hash(prop), float(x), float(y), float(angle), tuple(gc.get_rgb()),
            gc.get_alpha(), gc.get_forced_alpha(), gc.get_antialiased(),
            None if clip is None else tuple(clip.bounds), _optional(mtext, "get_antialiased"),
            repr(_optional(mtext, "get_fontfeatures")), _optional(mtext, "get_language"))


class _Layer:
    """The pixels an Axes' background changed over the figure's patch, in a crop of the buffer.

    The Axes' box counts as changed even where its patch has the figure's colour: in the full
    drawing order it covers whatever lies there.
    """

    __slots__ = ("top", "left", "mask", "pixels")

    def __init__(self, before: np.ndarray, after: np.ndarray, box: tuple[int, int, int, int]):
        changed = _changed(before, after)
        top, bottom, left, right = box
        changed[top:bottom, left:right] = True
        rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
        if rows.size == 0:
            self.top = self.left = 0
            self.mask = np.zeros((0, 0), dtype=bool)
            self.pixels = np.zeros((0, 0, 4), dtype=after.dtype)
            return
        self.top, self.left = int(rows[0]), int(cols[0])
        crop = (slice(self.top, int(rows[-1]) + 1), slice(self.left, int(cols[-1]) + 1))
        self.mask = changed[crop]
        self.pixels = after[crop].copy()

    def paste(self, buffer: np.ndarray, alone: bool) -> None:
        """Put the layer's pixels in ``buffer``, which holds the figure's patch and other layers.
        ``alone``: no other layer's crop meets this one's, so the whole crop can be copied (its
        unchanged pixels are the figure's patch, as in ``buffer``)."""
        height, width = self.mask.shape
        view = buffer[self.top:self.top + height, self.left:self.left + width]
        if alone:
            view[...] = self.pixels
        else:  # one pixel is one 32-bit word: a 2-D mask, much faster than 4 channels
            np.copyto(view.view(np.uint32)[..., 0], self.pixels.view(np.uint32)[..., 0],
                      where=self.mask)

    def crosses(self, other: _Layer) -> bool:
        """Whether the crops of the two layers meet (not necessarily their pixels)."""
        (h, w), (oh, ow) = self.mask.shape, other.mask.shape
        return (self.top < other.top + oh and other.top < self.top + h
                and self.left < other.left + ow and other.left < self.left + w)

    def touches(self, box: tuple[int, int, int, int]) -> bool:
        """Whether a pixel of this layer lies in ``box`` (top, bottom, left, right)."""
        height, width = self.mask.shape
        top, bottom = max(box[0] - self.top, 0), min(box[1] - self.top, height)
        left, right = max(box[2] - self.left, 0), min(box[3] - self.left, width)
        return top < bottom and left < right and bool(self.mask[top:bottom, left:right].any())

    def meets(self, other: _Layer) -> bool:
        """Whether a pixel of this layer is also a pixel of ``other``."""
        height, width = other.mask.shape
        if not (height and width):
            return False
        top, left = other.top, other.left
        mine = self.mask
        # The other's mask, moved into this layer's crop.
        t, b = max(top - self.top, 0), min(top + height - self.top, mine.shape[0])
        lft, r = max(left - self.left, 0), min(left + width - self.left, mine.shape[1])
        if t >= b or lft >= r:
            return False
        theirs = other.mask[t + self.top - top:b + self.top - top,
                            lft + self.left - left:r + self.left - left]
        return bool((mine[t:b, lft:r] & theirs).any())


def _rows_cols(box: Any, height: int, pad: float = _PAD_PX) -> tuple[int, int, int, int]:
    """A display box (origin bottom left), padded, as buffer rows and columns (origin top left):
    (top, bottom, left, right), clipped to the buffer only from above (numpy clips the rest)."""
    x0, y0, x1, y1 = (float(v) for v in box.extents)
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
        return (0, 1 << 30, 0, 1 << 30)
    return (max(int(math.floor(height - y1 - pad)), 0), max(int(math.ceil(height - y0 + pad)), 0),
            max(int(math.floor(x0 - pad)), 0), max(int(math.ceil(x1 + pad)), 0))


class _Plan:
    """How one figure splits into background and rest (None from :meth:`make`: draw it whole)."""

    def __init__(self, fig: Figure, renderer: RendererAgg, axes: list[Axes],
                 layers: dict[Axes, list]):
        self.fig, self.renderer = fig, renderer
        self.axes = axes          # visible Axes, in the figure's drawing order
        self.layers = layers      # layered Axes -> its background artists, in drawing order
        self.ticks = {ax: _ticks_key(ax) for ax in fig.axes if ax.name == "rectilinear"}
        # A BookFigure knows whether its labels were aligned; any other figure may have been.
        self.independent = getattr(fig, "labels_aligned", True) is False

    @classmethod
    def make(cls, fig: Figure, renderer: RendererAgg) -> _Plan | None:
        if fig.get_layout_engine() is not None or fig.subfigs or not fig.get_visible():
            return None
        # As Figure.draw does first: equal-aspect Axes take their final place.
        for ax in fig.axes:
            locator = ax.get_axes_locator()
            ax.apply_aspect(locator(ax, renderer) if locator else None)
        order = sorted((a for a in fig.get_children()
                        if a is not fig.patch and not a.get_animated() and a.get_visible()),
                       key=_zorder)
        axes = [a for a in order if isinstance(a, Axes)]
        if order[:len(axes)] != axes:  # (c): a figure artist below an Axes
            return None
        layers = {ax: layer for ax in axes if (layer := _background_of(ax)) is not None}
        plan = cls(fig, renderer, axes, layers)
        plan._drop_axes_whose_titles_read_their_axes()
        return plan

    def _drop_axes_whose_titles_read_their_axes(self) -> None:
        """``Axes.draw`` places the titles above an x axis at the top and above a y axis' offset
        text, of the Axes and of its twins; with those axes hidden it would place them
        elsewhere, so such Axes are drawn whole."""
        if not any(ax.get_title(loc) for ax in self.axes for loc in ("center", "left", "right")):
            return
        for ax in list(self.layers):
            x_top = (ax.xaxis.get_ticks_position() in ("top", "unknown")
                     or ax.xaxis.get_label_position() == "top")
            if x_top or self.ticks[ax][2]:
                del self.layers[ax]

    def key(self, ax: Axes) -> tuple:
        """Everything the layer of ``ax`` depends on, besides the figure's patch, its size and
        the rcParams."""
        x_key, y_key, _ = self.ticks[ax]
        parts = [tuple(ax.bbox.bounds), _patch_key(ax.patch, self.renderer),
                 tuple(type(a).__name__ for a in self.layers[ax]), x_key, y_key]
        if not self.independent:  # the other Axes' tick labels may place the axis labels
            for column, label in ((0, ax.xaxis.label), (1, ax.yaxis.label)):
                if label.get_text():
                    parts.append(tuple(t[column] for other, t in self.ticks.items()
                                       if other is not ax))
        return tuple(parts)

    def fits(self, layers: dict[int, _Layer]) -> bool:
        """Condition (b): nothing drawn before an Axes' layer in matplotlib's order lies on it
        (the layers of the Axes before it, and the rest of those Axes)."""
        height = np.asarray(self.renderer.buffer_rgba()).shape[0]
        rests: dict[int, list] = {}
        for j, layer in layers.items():
            for i, ax in enumerate(self.axes[:j]):
                if i in layers and layers[i].meets(layer):
                    return False
                if i not in rests:
                    rests[i] = [_rows_cols(box, height) if box is not None else None
                                for box in _rest_footprint(ax, self.layers.get(ax), self.renderer)]
                if any(box is None or layer.touches(box) for box in rests[i]):
                    return False
        return True

    def draw_rest(self) -> None:
        """Draw everything but the background over it, with ``Figure.draw``."""
        hidden = [self.fig.patch] + [a for layer in self.layers.values() for a in layer]
        shown = [a.get_visible() for a in hidden]
        try:
            for artist in hidden:
                artist.set_visible(False)  # a hidden Axes patch still clips the data
            self.fig.draw(self.renderer)
        finally:
            for artist, visible in zip(hidden, shown):
                artist.set_visible(visible)


def _background_of(ax: Axes) -> list | None:
    """The artists of ``ax`` drawn up to its axes, in order: its patch, then any lines, patches,
    collections or images below the axes (a reference line at zorder 0), then the axes. None if
    something else comes before an axis (condition (a)) or the Axes is not a plain 2-D one."""
    if ax.name != "rectilinear":
        return None
    frame = ax.axison and ax.get_frame_on()
    skipped = {id(ax.patch)}
    if not frame:
        skipped.update(id(s) for s in ax.spines.values())
    if not ax.axison:
        skipped.update((id(ax.xaxis), id(ax.yaxis)))
    # Axes.draw's order: children by zorder, stably; the invisible ones draw nothing.
    order = sorted((a for a in ax.get_children()
                    if id(a) not in skipped and not a.get_animated() and a.get_visible()),
                   key=_zorder)
    axes = [i for i, a in enumerate(order) if a is ax.xaxis or a is ax.yaxis]
    prefix = order[:axes[-1] + 1] if axes else []
    low = prefix[:len(prefix) - len(axes)]
    if any(a is ax.xaxis or a is ax.yaxis for a in low) or not all(
            isinstance(a, _BELOW_AXES) and not isinstance(a, Spine) for a in low):
        return None
    return ([ax.patch] if frame and ax.patch.get_visible() else []) + prefix


def _ticks_key(ax: Axes) -> tuple[tuple | None, tuple | None, str]:
    """What the x and y axis of ``ax`` draw (tick places and labels, styles, axis labels),
    and the y axis' offset text (``"1e3"``), which ``Axes.draw`` reads to place the titles."""
    x_key, _ = _axis_key(ax.xaxis, ax.get_xaxis_transform(), 0)
    y_key, y_offset = _axis_key(ax.yaxis, ax.get_yaxis_transform(), 1)
    return x_key, y_key, y_offset


def _axis_key(axis: Any, transform: Any, column: int) -> tuple[tuple | None, str]:
    if not axis.get_visible():
        return None, ""
    major, minor = axis.get_majorticklocs(), axis.get_minorticklocs()
    # Formatted as Axis.draw formats them: all major locations, then the minor ones; the offset
    # text is read after both.
    major_labels = tuple(axis.get_major_formatter().format_ticks(major))
    minor_labels = tuple(axis.get_minor_formatter().format_ticks(minor))
    offset = axis.get_major_formatter().get_offset()

    def places(locs: Any) -> bytes:  # in pixels: limits, scale and the Axes' place in one
        points = np.zeros((len(locs), 2))
        points[:, column] = locs
        return np.asarray(transform.transform(points), dtype=float)[:, column].tobytes()

    label = axis.label
    return (np.asarray(major, dtype=float).tobytes(), places(major), major_labels,
            np.asarray(minor, dtype=float).tobytes(), places(minor), minor_labels, offset,
            repr(sorted(axis.get_tick_params(which="major").items())),
            repr(sorted(axis.get_tick_params(which="minor").items())),
            axis.get_scale(), tuple(map(float, axis.get_view_interval())),
            axis.get_ticks_position(), axis.get_label_position(), axis.labelpad,
            _text_key(label), tuple(label.get_transform().transform(label.get_position())),
            _text_key(axis.get_offset_text())), offset


def _text_key(text: Any) -> tuple:
    """How a text looks (not where: the caller adds that)."""
    box = text.get_bbox_patch()
    return (text.get_text(), hash(text.get_fontproperties()), repr(text.get_color()),
            text.get_rotation(), text.get_horizontalalignment(), text.get_verticalalignment(),
            text.get_visible(), text.get_alpha(), text.get_rotation_mode(),
            _optional(text, "get_linespacing"), text.get_usetex(), text.get_wrap(),
            repr(_optional(text, "get_antialiased")),
            # A box or path effects are objects without a value to compare: a new one is a
            # new key, so such a text is drawn again each frame (correct, slower).
            None if box is None else id(box), tuple(map(id, text.get_path_effects())))


def _optional(artist: Any, getter: str) -> Any:
    """``artist.getter()``, or None on a matplotlib without that getter (3.10 has no
    ``Text.get_linespacing``)."""
    method = getattr(artist, getter, None)
    return None if method is None else method()


def _patch_key(patch: Any, renderer: RendererAgg) -> tuple:
    """How and where a background patch (the figure's, an Axes') is drawn."""
    return (patch.get_visible(), tuple(patch.get_facecolor()), tuple(patch.get_edgecolor()),
            patch.get_linewidth(), repr(patch.get_linestyle()), patch.get_hatch(),
            patch.get_fill(), patch.get_alpha(), patch.get_antialiased(),
            tuple(patch.get_window_extent(renderer).bounds),
            tuple(map(id, patch.get_path_effects())), repr(patch.get_sketch_params()))


def _rest_footprint(ax: Axes, layer: list | None, renderer: RendererAgg) -> list:
    """Display boxes outside which the rest of ``ax`` (all of it, if ``layer`` is None) leaves
    every pixel alone; a None box: anywhere."""
    try:
        if layer is None:
            return [ax.get_tightbbox(renderer)]
        boxes = [ax.bbox]  # the spines (in their default place) and the clipped artists
        for artist in ax.get_children():
            if (any(artist is a for a in layer) or artist is ax.patch or not artist.get_visible()
                    or artist.get_animated()):
                continue
            if isinstance(artist, Spine):
                if artist.get_position() != ("outward", 0.0):
                    return [None]
                continue
            if isinstance(artist, Text) and not artist.get_text():
                continue  # e.g. the empty left and right titles of every Axes
            if isinstance(artist, Axes):
                box = artist.get_tightbbox(renderer)
            elif artist.get_clip_on() and artist.get_clip_box() is not None:
                box = artist.get_clip_box()
            else:  # texts, titles, annotations, legends
                box = artist.get_window_extent(renderer)
            if box is None or box.width > 0 or box.height > 0:  # not an empty text's point
                boxes.append(box)
        return boxes
    except Exception:  # noqa: BLE001 - an artist that cannot say where it draws: anywhere
        return [None]
