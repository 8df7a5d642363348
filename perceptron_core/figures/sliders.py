"""Sliders that work everywhere: in a live kernel and in the published, static book.

Every chapter uses one call::

    from perceptron_core.figures.sliders import explore

    explore(draw, gamma=(0.05, 0.5, 0.05), seed=[0, 1, 2],
            alt="Perceptron run with margin {gamma} on data set {seed}")

``draw(**params)`` returns a :class:`matplotlib.figure.Figure`. What ``explore`` returns depends
on where the notebook runs:

* **live** (JupyterLab, Notebook 7, VS Code, Colab): ipywidgets sliders above an
  :class:`ipywidgets.HTML` holding one ``<img alt=...>``. A slider move re-runs ``draw`` and
  swaps the PNG and its alt text, so the picture updates in place and no figures pile up.
* **static** (``jupyter-book build``): every frame of the parameter grid is rendered at build time
  and shipped inside one self-contained HTML snippet (native ``<input type="range">`` controls,
  base64 ``data:`` images, a few lines of inline JavaScript). It needs no kernel, no server and no
  network, so it also works from ``file://`` or from a zip of ``_build/html``.

Static mode is chosen when the environment variable :data:`STATIC_ENV_VAR` is set to a true value
(``book/_tools/sphinx_extension.py`` sets it for the book build, and the kernels inherit it) or when
``mode="static"`` is passed.

Drawn once, then updated. A figure built with :func:`perceptron_core.figures.plotting.new_figure` is
not built again on every slider move: ``explore`` hands it back to ``draw``, whose plotting calls
keep the artists of the previous frame when their arguments did not change (see
:mod:`perceptron_core.figures.plotting`), and only the artists that changed, with whatever they overlap,
are drawn again over a cached picture of the rest (:class:`_Painter`). A move then costs tens of
milliseconds instead of a hundred or more, and the sliders follow the hand. The author's side
stays ``draw(**params) -> Figure``; a figure built any other way is simply drawn anew each
time. Both modes draw their frames this way, and the tests check, for every figure of the
book, that each frame equals a fresh drawing pixel for pixel.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import hashlib
import html
import io
import itertools
import json
import math
import numbers
import os
import struct
import sys
import time
import zlib
from decimal import Decimal
from typing import Any, Callable, Union

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

__all__ = ["explore", "LiveExplorer", "StaticExplorer", "STATIC_ENV_VAR"]

#: Environment variable that switches :func:`explore` to static output (set by the Sphinx extension).
STATIC_ENV_VAR = "PERCEPTRON_STATIC_WIDGETS"
#: A single static control may never exceed this (a whole page must stay under 3 MB).
MAX_CONTROL_BYTES = 3_000_000
#: Redraws faster than this follow the mouse while dragging; slower ones wait for the release,
#: so a slow figure never builds up a queue of stale redraws in the kernel.
CONTINUOUS_UPDATE_BELOW_S = 0.1
#: Live mode keeps this many rendered frames per control, so revisiting a value is instant.
LIVE_CACHE_FRAMES = 64
#: After a slider move, live mode draws what the reader is likely to ask for next: the next
#: value along that slider in the direction it moved, then one step along each other slider.
#: Each drawing waits until the kernel has been idle this long after a step (a key press), or
#: PREFETCH_AFTER_S after a jump (a drag, which rarely lands on the next value). A newer move
#: cancels the rest, so dragging never queues up drawings; a move waits at most for the one
#: drawing under way.
PREFETCH_AFTER_STEP_S = 0.005
PREFETCH_AFTER_S = 0.05
#: In a kernel, a slider move is drawn this long after it arrives, so that the moves that queued
#: up meanwhile (a drag, a held arrow key) are drawn once, at their last value, not one by one.
DRAW_AFTER_S = 0.01

ParamSpec = Union[tuple, list]
AltSpec = Union[str, Callable[..., str]]


# --------------------------------------------------------------------------------------------
# Parameter grids
# --------------------------------------------------------------------------------------------


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _is_int(x: Any) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _decimals(x: float) -> int:
    """Digits after the decimal point in the shortest repr of ``x`` (0.05 -> 2, 1e-7 -> 7)."""
    exponent = Decimal(repr(float(x))).normalize().as_tuple().exponent
    return max(0, -int(exponent)) if isinstance(exponent, int) else 0


class _Param:
    """One expanded parameter: its grid ``values``, their ``labels`` and the initial index."""

    def __init__(self, name: str, values: list, labels: list[str], initial: int, kind: str,
                 decimals: int = 0):
        self.name, self.values, self.labels = name, values, labels
        self.initial, self.kind, self.decimals = initial, kind, decimals

    def nearest(self, value: Any) -> Any:
        """Snap a value coming from a widget back onto the grid (FloatSlider values can drift)."""
        if self.kind == "choice":
            return value
        return min(self.values, key=lambda v: abs(v - value))


def _expand(name: str, spec: Any, max_frames: int = 10**6) -> _Param:
    """Turn one ``explore`` keyword argument into a :class:`_Param`, or explain what is wrong."""
    hint = (f"Pass {name}=(start, stop, step) or (start, stop, step, initial) for a numeric slider, "
            f"or {name}=[value, value, ...] for a choice.")
    if isinstance(spec, list):
        if not spec:
            raise ValueError(f"Parameter {name!r} is an empty list; give at least one value. {hint}")
        labels = [str(v) for v in spec]
        if len(set(labels)) != len(labels):
            raise ValueError(f"Parameter {name!r} has repeated values {labels}; list each choice once.")
        return _Param(name, list(spec), labels, 0, "choice")
    if not isinstance(spec, tuple):
        raise ValueError(f"Parameter {name!r} has unsupported form {spec!r} "
                         f"({type(spec).__name__}). {hint}")
    if len(spec) not in (3, 4) or not all(_is_number(v) for v in spec):
        raise ValueError(f"Parameter {name!r}={spec!r} is not a tuple of 3 or 4 numbers. {hint}")
    if not all(math.isfinite(v) for v in spec):
        raise ValueError(f"Parameter {name!r}={spec!r} contains NaN or inf; a slider needs finite "
                         f"start, stop and step. {hint}")
    start, stop, step = spec[:3]
    if not step > 0:
        raise ValueError(f"Parameter {name!r} has step {step!r}; the step must be positive, "
                         f"e.g. {name}=({start}, {stop}, 0.1).")
    if stop < start:
        raise ValueError(f"Parameter {name!r} has stop {stop!r} < start {start!r}; "
                         f"write {name}=({stop}, {start}, {step}) instead.")
    is_int = all(_is_int(v) for v in spec)
    if not math.isfinite((stop - start) / step):  # would overflow round() below
        raise ValueError(f"Parameter {name!r}={spec!r} has more values than a float can count, "
                         f"far over max_frames={max_frames}. Coarsen the grid (a bigger step).")
    n_steps = round((stop - start) / step)
    if n_steps + 1 > max_frames:  # before building a list of a billion values by mistake
        raise ValueError(f"Parameter {name!r}={spec!r} has {n_steps + 1} values, over the frame "
                         f"budget max_frames={max_frames}. Coarsen the grid (a bigger step) "
                         "or raise max_frames.")
    # A tolerance relative to the step absorbs float noise such as (0.05, 0.5, 0.05).
    if abs(start + n_steps * step - stop) > 1e-6 * step:
        raise ValueError(f"Parameter {name!r}: stop {stop!r} is not start {start!r} plus a whole "
                         f"number of steps {step!r}; pick a stop on the grid, e.g. "
                         f"{start + n_steps * step:g}.")
    if is_int:
        values = [int(start) + i * int(step) for i in range(n_steps + 1)]
        decimals, labels = 0, [str(v) for v in values]
    else:
        # Rounding to the inputs' decimals gives 0.15, not 0.15000000000000002.
        decimals = max(_decimals(start), _decimals(step))
        values = [round(float(start) + i * float(step), decimals) for i in range(n_steps + 1)]
        labels = [f"{v:.{decimals}f}" for v in values]
    initial = 0
    if len(spec) == 4:
        target = spec[3]
        matches = [i for i, v in enumerate(values) if abs(v - target) <= 1e-6 * step]
        if not matches:
            raise ValueError(f"Parameter {name!r}: initial value {target!r} is not on the grid "
                             f"{labels}; pick one of those.")
        initial = matches[0]
    return _Param(name, values, labels, initial, "int" if is_int else "float", decimals)


def _expand_all(params: dict[str, Any], max_frames: int) -> list[_Param]:
    if not params:
        raise ValueError("explore() needs at least one parameter, e.g. "
                         "explore(draw, gamma=(0.05, 0.5, 0.05), alt='...').")
    if len(params) > 3:
        raise ValueError(f"explore() got {len(params)} parameters {list(params)}; use at most 3 "
                         "(one or two read best).")
    expanded = [_expand(name, spec, max_frames) for name, spec in params.items()]
    n_frames = int(np.prod([len(p.values) for p in expanded]))
    if n_frames > max_frames:
        sizes = " x ".join(f"{len(p.values)} ({p.name})" for p in expanded)
        raise ValueError(f"The grid has {sizes} = {n_frames} combinations, over the frame budget "
                         f"max_frames={max_frames}. Coarsen the grid (bigger steps, fewer choices) "
                         f"or raise max_frames (pages must stay under 3 MB).")
    return expanded


def _alt_text(alt: AltSpec, values: dict[str, Any]) -> str:
    if callable(alt):
        return str(alt(**values))
    try:
        return alt.format(**values)
    except (KeyError, IndexError, ValueError) as err:
        raise ValueError(f"alt={alt!r} could not be filled with the parameters "
                         f"{sorted(values)}: {err!r}. Use fields such as {{{next(iter(values))}}}."
                         ) from err


# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------


def _close(fig: Figure) -> None:
    """Close ``fig`` so it neither stacks up in pyplot nor gets auto-displayed at cell end."""
    pyplot = sys.modules.get("matplotlib.pyplot")  # no pyplot imported -> no pyplot figures
    if pyplot is not None:
        pyplot.close(fig)


def _call_draw(draw: Callable[..., Figure], values: dict[str, Any]) -> Figure:
    fig = draw(**values)
    if not isinstance(fig, Figure):
        raise TypeError(f"draw(**{values!r}) returned {type(fig).__name__}, not a "
                        "matplotlib.figure.Figure; end your draw function with `return fig`.")
    return fig


_MATHTEXT_PARSER = None
#: Glyph images of texts already drawn, by text, font and exact place (see
#: _GlyphCachingRendererAgg); shared by all canvases, oldest dropped first.
_GLYPHS: collections.OrderedDict = collections.OrderedDict()
_GLYPHS_MAX = 2048  # a few MB at most: each text keeps ~5 KB of glyphs


class _GlyphRecorder:
    """Stands in for the C++ Agg renderer while a text is drawn, noting the glyph images."""

    def __init__(self, real):
        self.real, self.blits, self.other = real, [], False

    def draw_text_image(self, image, x, y, angle, gc):
        self.blits.append((np.array(image, copy=True), x, y, angle))
        self.real.draw_text_image(image, x, y, angle, gc)

    def __getattr__(self, name):
        self.other = True  # e.g. a mathtext fraction bar: not only glyphs, do not keep
        return getattr(self.real, name)


class _GlyphCachingRendererAgg(RendererAgg):
    """``RendererAgg`` that keeps the glyph images of each text it draws.

    matplotlib lays out and rasterizes every glyph of every text on every draw, a third of the
    time of a redraw; yet legends, titles and labels come back to the same place frame after
    frame. The glyph images of a text depend only on the text, its font, its exact position
    (FreeType places glyphs to 1/64 px), its angle, anti-aliasing, hinting and the canvas
    height and dpi, so for the same key the same images are blended in again, in the text's
    current colour and clip. Texts drawn with anything but glyphs (mathtext with bars, TeX)
    are drawn by matplotlib every time.
    """

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if ismath == "TeX":
            return super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        extra = ((mtext.get_fontfeatures(), mtext.get_language())
                 if mtext is not None and hasattr(mtext, "get_fontfeatures") else None)
        key = (s, bool(ismath), tuple(prop.get_family()), prop.get_slant(), prop.get_variant(),
               prop.get_weight(), prop.get_stretch(), prop.get_size(), prop.get_file(),
               prop.get_math_fontfamily(), float(x), float(y), float(angle),
               bool(gc.get_antialiased()), float(self.height), float(self.dpi),
               get_hinting_flag(), extra)
        blits = _GLYPHS.get(key, False)
        if blits is False:
            real, recorder = self._renderer, _GlyphRecorder(self._renderer)
            self._renderer = recorder
            try:
                super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
            finally:
                self._renderer = real
            _GLYPHS[key] = None if recorder.other else recorder.blits
            if len(_GLYPHS) > _GLYPHS_MAX:
                _GLYPHS.popitem(last=False)
        elif blits is None:
            super().draw_text(gc, x, y, s, prop, angle, ismath, mtext)
        else:
            _GLYPHS.move_to_end(key)
            for image, bx, by, bangle in blits:
                self._renderer.draw_text_image(image, bx, by, bangle, gc)


class _CanvasAgg(FigureCanvasAgg):
    """Agg canvas drawing with :class:`_GlyphCachingRendererAgg` and one shared mathtext parser.

    Every Agg renderer brings a new mathtext parser with an empty cache, so each frame would
    re-parse every $...$ label (several ms each). One parser for all frames keeps its cache.
    """

    def get_renderer(self):
        global _MATHTEXT_PARSER
        w, h = self.get_width_height(physical=True)
        key = (w, h, self.figure.dpi)
        if getattr(self, "_pc_renderer_key", None) != key:
            # The glyph cache relies on matplotlib 3.11's glyph-by-glyph text drawing.
            per_glyph = hasattr(RendererAgg, "_draw_text_glyphs_and_boxes")
            renderer = _GlyphCachingRendererAgg if per_glyph else RendererAgg
            self.renderer = renderer(w, h, self.figure.dpi)
            if _MATHTEXT_PARSER is None:
                _MATHTEXT_PARSER = self.renderer.mathtext_parser
            self.renderer.mathtext_parser = _MATHTEXT_PARSER
            self._pc_renderer_key = key
        return self.renderer


def _canvas(fig: Figure) -> _CanvasAgg:
    """An Agg canvas for ``fig`` (works for pyplot and plain Figure() objects alike)."""
    return _CanvasAgg(fig)


@contextlib.contextmanager
def _ticks_once(fig: Figure):
    """While drawing ``fig``, work out each axis' ticks and tick-label boxes once.

    matplotlib recomputes an axis' ticks (locator, formatter, tick positions) and the boxes of
    its tick labels up to a dozen times in one draw: for the axis, its label, each spine, the
    titles. Nothing moves during a draw, so the first answer stands for the rest of it. This
    is half the cost of drawing an Axes whose limits changed.
    """
    patched = []
    for ax in fig.axes:
        if ax.name != "rectilinear":  # plain 2-D axes only: polar and 3-D draw differently
            continue
        for axis in getattr(ax, "_axis_map", {}).values():
            if "_update_ticks" in vars(axis) or not hasattr(axis, "_get_ticklabel_bboxes"):
                continue  # already inside this figure's draw, or another matplotlib
            memo: dict = {}

            def ticks(update=axis._update_ticks, memo=memo):
                if "ticks" not in memo:
                    memo["ticks"] = update()
                return memo["ticks"]

            def boxes(drawn, renderer, compute=axis._get_ticklabel_bboxes, memo=memo):
                hit = memo.get(id(drawn), (None, None))
                if hit[0] is not drawn:  # (keeping ``drawn`` keeps its id unique)
                    hit = memo[id(drawn)] = (drawn, compute(drawn, renderer))
                return hit[1]

            axis._update_ticks, axis._get_ticklabel_bboxes = ticks, boxes
            patched.append(axis)
    try:
        yield
    finally:
        for axis in patched:
            del axis._update_ticks, axis._get_ticklabel_bboxes


def _render_rgba(fig: Figure) -> np.ndarray:
    """Raw RGBA pixels of ``fig`` drawn from scratch, closing the figure."""
    try:
        # No bbox_inches="tight": the picture must keep the same size from frame to frame.
        canvas = _canvas(fig)
        with _ticks_once(fig):
            canvas.draw()
        return np.asarray(canvas.buffer_rgba()).copy()
    finally:
        _close(fig)


def _png_fast(rgba: np.ndarray) -> bytes:
    """Full-colour PNG bytes of RGBA pixels (live mode), as fast as zlib goes.

    No row filters and zlib level 1: a plot is mostly flat colour, which compresses well
    unfiltered, and this takes ~5 ms where Pillow's adaptive filters take ~12 ms and
    ``savefig`` ~50 ms; that is the difference between a slider that follows the mouse and one
    that lags. Opaque pictures (all of the book's) are stored without the alpha channel.
    """
    height, width = rgba.shape[:2]
    opaque = bool(rgba[..., 3].min() == 255)
    pixels = rgba[..., :3] if opaque else rgba
    rows = np.empty((height, 1 + width * pixels.shape[2]), dtype=np.uint8)
    rows[:, 0] = 0  # filter type "None" on every row
    rows[:, 1:] = pixels.reshape(height, -1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2 if opaque else 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + chunk(b"IEND", b""))


def _compress_png(rgba: np.ndarray) -> bytes:
    """A small PNG: 256-colour palette without dithering (flat plot colours stay crisp)."""
    from PIL import Image

    img = Image.fromarray(rgba, "RGBA")
    if rgba[..., 3].min() == 255:
        img = img.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                          dither=Image.Dither.NONE)
    else:  # only the octree quantizer keeps transparency
        img = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


# --------------------------------------------------------------------------------------------
# Drawing only what changed
# --------------------------------------------------------------------------------------------
#
# A frame is drawn in matplotlib's order: the figure's children by zorder, each Axes' children
# by zorder within it. The painter keeps a *background*: the picture of every artist that did
# not change, drawn in that order with the others left out. A frame is the background plus the
# *tail* drawn on top in order: the artists that changed, and every unchanged one that comes
# after one of those in the order and overlaps it (drawing it earlier would put it underneath
# instead of on top). That is the same picture as drawing everything, since artists that do
# not overlap can be drawn in either order.
#
# An Axes whose ticks, limits or position changed (its "fingerprint") is drawn whole, in the
# tail. The background is drawn again only when an artist in it changed or went away, which
# after the first slider moves is rare: artists that changed once stay in the tail.

_PAD_PX = 3.0  # anti-aliasing and line caps reach a little past an artist's nominal box
_PATIENCE = 3  # frames an artist must stay unchanged before it may go back into the background


def _axes_units(ax) -> list:
    """What ``Axes.draw`` draws after the background patch, in its order."""
    artists = ax.get_children()
    artists.remove(ax.patch)
    if not (ax.axison and ax.get_frame_on()):
        for spine in ax.spines.values():
            artists.remove(spine)
    if not ax.axison:
        for axis in ax._axis_map.values():
            artists.remove(axis)
    return sorted(artists, key=lambda a: a.get_zorder())


def _draw_order(fig: Figure, whole: set) -> list:
    """Every artist a frame draws after the figure's patch, in order; Axes in ``whole`` as one."""
    units = []
    for artist in sorted((a for a in fig.get_children() if a is not fig.patch),
                         key=lambda a: a.get_zorder()):
        if artist in fig.axes and artist not in whole:
            units += _axes_units(artist)
        else:
            units.append(artist)
    return units


def _fingerprint(ax) -> tuple:
    """Everything the background's picture of an Axes' frame and ticks depends on."""
    parts: list = [tuple(ax.get_position().bounds), tuple(ax.viewLim.bounds), ax.axison,
                   ax.get_frame_on(), ax.patch.get_visible(), tuple(ax.patch.get_facecolor()),
                   tuple(ax.patch.get_edgecolor()), ax.get_zorder()]
    for axis in ax._axis_map.values():
        major = axis.get_majorticklocs()
        minor = axis.get_minorticklocs()
        label = axis.label
        parts += [axis.get_visible(), axis.get_zorder(), axis.get_scale(), tuple(major),
                  tuple(axis.major.formatter.format_ticks(major)), tuple(minor),
                  tuple(axis.minor.formatter.format_ticks(minor)),
                  axis.major.formatter.get_offset(), label.get_text(),
                  hash(label.get_fontproperties()), str(label.get_color()), label.get_visible(),
                  axis.labelpad, axis.get_label_position(), axis.get_ticks_position(),
                  repr(sorted(axis._major_tick_kw.items())),
                  repr(sorted(axis._minor_tick_kw.items()))]
    for spine in ax.spines.values():
        parts += [spine.get_visible(), tuple(spine.get_edgecolor()), spine.get_linewidth(),
                  repr(spine.get_linestyle()), repr(spine.get_position()), spine.get_zorder(),
                  repr(spine.get_bounds())]
    return tuple(parts)


def _footprint(artist, renderer) -> tuple[float, float, float, float] | None:
    """Display-space box outside which ``artist`` leaves every pixel alone (None: it draws
    nothing at all)."""
    from matplotlib.axis import Axis
    from matplotlib.collections import Collection
    from matplotlib.image import AxesImage
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.spines import Spine
    from matplotlib.text import Text

    try:
        if not artist.get_visible() or (type(artist) is Text and not artist.get_text()):
            return None  # e.g. the empty left and right titles of every Axes
        if isinstance(artist, Axis):
            # Clipped for its grid lines only: the tick labels lie outside the clip box.
            box = artist.get_tightbbox(renderer)
        elif isinstance(artist, Spine):
            # Spine.get_window_extent also lays out the ticks; the line itself is enough here.
            box = Patch.get_window_extent(artist, renderer)
        elif (isinstance(artist, (Line2D, Collection, Patch, AxesImage)) and artist.get_clip_on()
              and artist.get_clip_box() is not None):
            box = artist.get_clip_box()  # data: never drawn outside its Axes
        else:  # text, annotations (with their arrows), legends, ...
            box = artist.get_window_extent(renderer)
        x0, y0, x1, y1 = (float(v) for v in box.extents)
        width = getattr(artist, "get_linewidth", None)
        pad = _PAD_PX + (float(np.max(width(), initial=0.0)) if width is not None else 0.0)
        if all(math.isfinite(v) for v in (x0, y0, x1, y1)):
            return (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
    except Exception:  # an artist that cannot say: assume it covers everything
        pass
    return (-math.inf, -math.inf, math.inf, math.inf)


def _overlaps(box, boxes) -> bool:
    if box is None:
        return False
    x0, y0, x1, y1 = box
    return any(b is not None and x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1
               for b in boxes)


def _internals_ok(fig: Figure) -> bool:
    """Whether this matplotlib has the internals the painter uses (3.11 does); without them
    every frame is drawn from scratch, as before."""
    from matplotlib.legend import Legend

    axes_ok = all(all(hasattr(ax, name) for name in (
        "_axis_map", "_left_title", "_right_title", "_update_title_position", "_autotitlepos",
        "_twinned_axes")) and all(hasattr(axis, name) for axis in ax._axis_map.values()
                                  for name in ("_update_ticks", "_get_ticklabel_bboxes",
                                               "_major_tick_kw", "_minor_tick_kw"))
        for ax in fig.axes)
    return axes_ok and hasattr(fig, "_align_label_groups") and hasattr(Legend, "_loc")


class _Painter:
    """Draws successive frames of one figure, redrawing only what changed (see above)."""

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        self._fig = self._canvas = self._background = None
        self._static: set = set()          # the artists in the background
        self._prints: dict = {}            # fingerprint of each Axes when the background was made
        self._whole: set = set()           # Axes drawn whole in the tail
        self._forced: set = set()          # unchanged artists that must still be in the tail
        self._boxes: dict = {}             # footprints of background artists (they do not move)
        self._quiet: dict = {}             # tail artist -> frames in a row it did not change
        self._patience: dict = {}          # tail artist -> quiet frames before it may go back

    def paint(self, fig: Figure, changed: set | None) -> np.ndarray:
        """RGBA pixels of ``fig`` (a copy). ``changed``: its artists that are new or changed
        since the last call, or None to draw it all from scratch."""
        if changed is None or fig.get_layout_engine() is not None or not _internals_ok(fig):
            self.forget()
            return _render_rgba(fig)
        if fig is not self._fig or self._size != (fig.bbox.width, fig.bbox.height):
            return self._first(fig)
        return self._update(fig, changed)

    def _first(self, fig: Figure) -> np.ndarray:
        self.forget()
        self._fig, self._canvas = fig, _canvas(fig)
        self._size = (fig.bbox.width, fig.bbox.height)
        with _ticks_once(fig):
            self._canvas.draw()
        self._background = self._canvas.copy_from_bbox(fig.bbox)
        self._static = set(_draw_order(fig, set()))
        self._prints = {ax: _fingerprint(ax) for ax in fig.axes}
        self._prints[fig] = (tuple(fig.patch.get_facecolor()), fig.patch.get_visible(), fig.dpi)
        return np.asarray(self._canvas.buffer_rgba()).copy()

    def _update(self, fig: Figure, changed: set) -> np.ndarray:
        with _ticks_once(fig):
            return self._redraw(fig, changed)

    def _redraw(self, fig: Figure, changed: set) -> np.ndarray:
        canvas = self._canvas
        renderer = canvas.get_renderer()
        for ax in fig.axes:  # as Figure.draw does first: positions of equal-aspect axes
            locator = ax.get_axes_locator()
            ax.apply_aspect(locator(ax, renderer) if locator else None)
        prints = {ax: _fingerprint(ax) for ax in fig.axes}
        prints[fig] = (tuple(fig.patch.get_facecolor()), fig.patch.get_visible(), fig.dpi)
        if prints.keys() != self._prints.keys() or prints[fig] != self._prints[fig]:
            return self._first(fig)
        whole = self._whole | {ax for ax in fig.axes if prints[ax] != self._prints[ax]}
        order = _draw_order(fig, whole)
        present = set(order)
        for notes in (self._quiet, self._patience, self._boxes):  # forget artists now gone
            for unit in [u for u in notes if u not in present]:
                del notes[unit]
        self._forced &= present
        # An artist that changed once stays in the tail until it has been quiet for a few
        # frames; then it goes back into the background (which is drawn again for that). An
        # artist that changes again after that waits twice as long the next time, so that
        # nothing flips back and forth.
        back = set()
        for unit in order:
            if unit in changed:
                if unit in self._static:
                    self._patience[unit] = 2 * self._patience.get(unit, _PATIENCE)
                self._quiet[unit] = 0
            elif unit not in self._static and unit not in whole:
                self._quiet[unit] = self._quiet.get(unit, 0) + 1
                if self._quiet[unit] >= self._patience.get(unit, _PATIENCE):
                    back.add(unit)
        tail: set = set()
        boxes: list = []
        for unit in order:
            if unit in changed:
                self._boxes.pop(unit, None)
            if (unit in whole or unit in changed or unit in self._forced
                    or (unit not in self._static and unit not in back)):
                tail.add(unit)
                if unit not in whole:  # an Axes drawn whole is checked once drawn, below
                    boxes.append(self._box(unit, renderer))
            elif boxes and _overlaps(self._box(unit, renderer), boxes):
                tail.add(unit)
                boxes.append(self._box(unit, renderer))
        static = {unit for unit in order if unit not in tail}
        if static != self._static:
            self._rebuild(fig, tail)
            self._static, self._whole = static, whole
            self._prints = prints
            for unit in static:
                self._quiet.pop(unit, None)
        else:
            canvas.restore_region(self._background)
        for i, unit in enumerate(order):
            if unit not in tail:
                continue
            ax = getattr(unit, "axes", None)
            if (unit in changed and ax is not None and ax not in whole
                    and unit in (ax.title, ax._left_title, ax._right_title)):
                _place_titles(ax, renderer)  # Axes.draw would have; it did not run
            unit.draw(renderer)
            if unit in whole and any(u in static for u in order[i + 1:]):
                box = _footprint_of_axes(unit, renderer)
                late = [u for u in order[i + 1:] if u in static
                        and _overlaps(self._box(u, renderer), [box])]
                if late:  # rare: what this Axes drew reaches an artist drawn before it
                    self._forced.update(late)
                    return self._redraw(fig, changed)
        return np.asarray(canvas.buffer_rgba()).copy()

    def _box(self, unit, renderer) -> tuple[float, float, float, float] | None:
        """Footprint of an artist, kept while it does not change: with its Axes' fingerprint
        unchanged it stays where it is. Only a legend placed "best" moves with the data."""
        from matplotlib.legend import Legend

        if unit not in self._boxes or isinstance(unit, Legend) and unit._loc in (0, "best"):
            self._boxes[unit] = _footprint(unit, renderer)
        return self._boxes[unit]

    def _rebuild(self, fig: Figure, tail: set) -> None:
        """Draw the background: everything but the tail."""
        for unit in tail:
            unit.set_animated(True)  # Figure.draw and Axes.draw skip animated artists
        try:
            with _ticks_once(fig):
                self._canvas.draw()
        finally:
            for unit in tail:
                unit.set_animated(False)
        self._background = self._canvas.copy_from_bbox(fig.bbox)
        self._boxes = {}


def _place_titles(ax, renderer) -> None:
    """Place an Axes' titles as ``Axes.draw`` does, cheaply in the common case.

    ``Axes._update_title_position`` raises a title above x tick labels at the top; with the
    x axis at the bottom, no twin, child or aligned axes and no offset text on the y axis, it
    leaves every title at y = 1 unless one would dip below the top of the Axes, which only
    needs the title's own box. Anything else goes to matplotlib.
    """
    titles = (ax.title, ax._left_title, ax._right_title)
    try:
        simple = (ax._autotitlepos is not False and not ax.child_axes
                  and len(ax._twinned_axes.get_siblings(ax)) == 1
                  and len(ax.get_figure(root=False)._align_label_groups["title"]
                          .get_siblings(ax)) == 1
                  and ax.xaxis.get_ticks_position() not in ("top", "unknown")
                  and ax.xaxis.get_label_position() != "top" and "outline" not in ax.spines
                  and not (ax.yaxis.offsetText.get_visible() and ax.yaxis.offsetText.get_text()))
    except (AttributeError, KeyError):
        simple = False
    if not simple:  # (including titles the author placed: matplotlib then leaves them)
        ax._update_title_position(renderer)
        return
    top = ax.bbox.ymax
    for title in titles:
        x, _ = title.get_position()
        title.set_position((x, 1.0))
    if top >= 0 and any(t.get_text() and t.get_window_extent(renderer).ymin < top
                        for t in titles):
        ax._update_title_position(renderer)


def _footprint_of_axes(ax, renderer) -> tuple[float, float, float, float]:
    """Where an Axes just drawn whole put pixels: its box, tick labels, titles, texts, legend.

    ``Axes.get_tightbbox`` would say the same but lays out all the ticks again (~20 ms); the
    tick labels drawn a moment ago are still in place.
    """
    from matplotlib.legend import Legend
    from matplotlib.text import Text

    try:
        boxes = [ax.bbox]
        for axis in ax._axis_map.values():
            if not axis.get_visible():
                continue
            lo, hi = sorted(axis.get_view_interval())
            for tick in (*axis.majorTicks, *axis.minorTicks):
                if lo <= tick.get_loc() <= hi:
                    boxes += [t.get_window_extent(renderer) for t in (tick.label1, tick.label2)
                              if t.get_visible() and t.get_text()]
            boxes += [t.get_window_extent(renderer) for t in (axis.label, axis.offsetText)
                      if t.get_visible() and t.get_text()]
        boxes += [t.get_window_extent(renderer) for t in (ax.title, ax._left_title,
                                                          ax._right_title) if t.get_text()]
        # Whatever may reach outside the Axes: legends, and texts or arrows not clipped.
        boxes += [a.get_window_extent(renderer) for a in ax.get_children()
                  if a.get_visible() and (isinstance(a, Legend) or isinstance(a, Text)
                                          and not a.get_clip_on())]
        x0, y0, x1, y1 = Bbox.union(boxes).extents
        pad = _PAD_PX + 8.0  # and the tick marks, a few points long
        return (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
    except Exception:
        return (-math.inf, -math.inf, math.inf, math.inf)


class _Frames:
    """The pictures of one ``draw`` function: its figure drawn once, then updated.

    Each call redraws the figure for new parameter values through a
    :class:`~perceptron_core.figures.plotting.FigureRecycler` (figures made with
    :func:`~perceptron_core.figures.plotting.new_figure` come back and keep their unchanged artists)
    and a :class:`_Painter` (only what changed is drawn). Any other figure is drawn from
    scratch. Used by both modes, so the live and the static pictures come from the same code.
    """

    def __init__(self, draw: Callable[..., Figure]):
        from .plotting import FigureRecycler

        self._draw = draw
        self._recycler = FigureRecycler()
        self._painter = _Painter()
        #: Whether the last frame came from a recycled figure (updated, not drawn anew).
        self.recycled = False

    def rgba(self, values: dict[str, Any]) -> np.ndarray:
        """RGBA pixels of ``draw(**values)``."""
        try:
            with self._recycler.frame():
                fig = _call_draw(self._draw, values)
            changed = self._recycler.finish(fig)
            rgba = self._painter.paint(fig, changed)
            self._recycler.rendered(fig)
        except BaseException:
            # Half a frame is no base for the next one: start afresh.
            self._recycler.forget()
            self._painter.forget()
            raise
        self.recycled = changed is not None
        return rgba

    def png(self, values: dict[str, Any]) -> bytes:
        """Full-colour PNG bytes of ``draw(**values)`` (live mode)."""
        return _png_fast(self.rgba(values))


# --------------------------------------------------------------------------------------------
# Live mode: ipywidgets
# --------------------------------------------------------------------------------------------


def _roomier_step(p: _Param, i: int) -> int:
    """The index one step from ``i`` towards the side of ``p`` with more values left (up on a
    tie): where a reader at ``i`` can go further, so more likely goes."""
    up, down = len(p.values) - 1 - i, i
    return i + 1 if up >= down and up > 0 else i - 1


def _make_live_class():
    """Build the widget class lazily so that importing this module does not need ipywidgets."""
    import ipywidgets as widgets

    class _Live(widgets.VBox):
        """ipywidgets controls above an ``<img>`` in an HTML widget; see :func:`explore`."""

        def __init__(self, draw, alt, params: list[_Param]):
            self._draw, self._alt, self._params = draw, alt, params
            # The figure is drawn once; a slider move updates what changed (see _Frames).
            self._source = _Frames(draw)
            self._pending = None  # the scheduled drawing (see _on_change, _prefetch_later)
            self._wanted: dict[str, Any] | None = None  # values moved to, not drawn yet
            self._moved: _Param | None = None  # the slider that moved last
            # Rendered frames by grid point: moving back to a value costs nothing. Bounded, so
            # a long session of dragging keeps at most a few MB.
            self._frames: dict[tuple, bytes] = {}
            self.values = {p.name: p.values[p.initial] for p in params}
            start = time.perf_counter()
            png = self._frame(self.values)
            seconds = time.perf_counter() - start
            if self._source.recycled:
                seconds = self._learn() or seconds
            continuous = seconds < CONTINUOUS_UPDATE_BELOW_S
            # An HTML widget holding a plain <img alt=...>, not widgets.Image: the picture's
            # accessible name is then the alt text itself, in every front end, and does not
            # hinge on how an ipywidgets version handles Image.tooltip (8.1.x front ends crash
            # on a tooltip without a description: "Failed to create view for 'ImageView'").
            self.image = widgets.HTML()
            self.png, self.alt = png, ""
            self.controls = {p.name: self._control(p, continuous) for p in params}
            self._show(png)
            for name, control in self.controls.items():
                control.observe(lambda change, name=name: self._on_change(name, change["new"]),
                                names="value")
            # The style sits in a widget of its own, after the picture, sent once: inside the
            # picture's HTML it would come anew with every frame, and a new <style> element
            # makes the browser restyle the whole notebook page before it shows the frame.
            style = widgets.HTML(_LIVE_STYLE, layout=widgets.Layout(display="none"))
            super().__init__([*self.controls.values(), self.image, style])
            self.add_class("pc-explore-live")  # scopes _LIVE_STYLE

        def _learn(self) -> float | None:
            """Draw one neighbour of the first frame along each slider, before the reader moves.

            The first frame alone does not tell which artists a slider changes, so the first
            move would redraw the whole figure; one step along each slider finds them (and
            leaves those frames in the cache). Returns the time of the last such redraw, a
            fair estimate of a slider move, or None if there is nothing to move.
            """
            seconds = None
            for p in self._params:
                if len(p.values) < 2:
                    continue
                start = time.perf_counter()
                self._frame({**self.values, p.name: p.values[_roomier_step(p, p.initial)]})
                seconds = time.perf_counter() - start
            return seconds

        @staticmethod
        def _control(p: _Param, continuous: bool):
            common = dict(description=p.name, continuous_update=continuous,
                          style={"description_width": "initial"},
                          layout=widgets.Layout(width="min(100%, 32rem)"))
            if p.kind == "int":
                return widgets.IntSlider(value=p.values[p.initial], min=p.values[0],
                                         max=p.values[-1], step=p.values[1] - p.values[0]
                                         if len(p.values) > 1 else 1, **common)
            if p.kind == "float":
                step = round(p.values[1] - p.values[0], p.decimals) if len(p.values) > 1 else 1.0
                return widgets.FloatSlider(value=p.values[p.initial], min=p.values[0],
                                           max=p.values[-1], step=step,
                                           readout_format=f".{p.decimals}f", **common)
            options = list(zip(p.labels, p.values))
            # Words too get a slider, as in the static book. Not a Dropdown: in JupyterLab's
            # command mode ArrowUp/ArrowDown on a focused <select> move to another cell, so a
            # keyboard user could not change the choice.
            return widgets.SelectionSlider(options=options, value=p.values[p.initial], **common)

        def _frame(self, values: dict[str, Any]) -> bytes:
            key = tuple(values.values())
            if key not in self._frames:
                if len(self._frames) >= LIVE_CACHE_FRAMES:
                    self._frames.pop(next(iter(self._frames)))  # oldest first
                self._frames[key] = self._source.png(values)
            return self._frames[key]

        def _on_change(self, name: str, new: Any) -> None:
            param = next(p for p in self._params if p.name == name)
            self._wanted = {**(self._wanted or self.values), name: param.nearest(new)}
            self._moved = param
            if self._pending is not None:  # an older move not drawn yet, or a drawing ahead
                self._pending.cancel()
                self._pending = None
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # a plain script: draw now
                self._draw_wanted()
                return
            # In a kernel, the values a drag or a held key sends while a frame is drawn wait in
            # line; drawing a moment later draws only the last of them.
            self._pending = loop.call_later(DRAW_AFTER_S, self._draw_wanted)

        def _draw_wanted(self) -> None:
            self._pending = None
            wanted, self._wanted, param = self._wanted, None, self._moved
            old = param.values.index(self.values[param.name])
            self.values = wanted
            self._show(self._frame(wanted))
            self._prefetch_later(param, param.values.index(wanted[param.name]) - old)

        def _prefetch_later(self, param: _Param, moved: int) -> None:
            """Schedule drawing, one at a time, the frames the reader is likely to ask for next
            (see :data:`PREFETCH_AFTER_STEP_S`).

            Only in a running event loop (a kernel's); nothing happens in a plain script.
            """
            if self._pending is not None:
                self._pending.cancel()
                self._pending = None
            if moved == 0:
                return
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            queue = self._likely_next(param, moved)
            if queue:
                delay = PREFETCH_AFTER_STEP_S if abs(moved) == 1 else PREFETCH_AFTER_S
                self._pending = loop.call_later(delay, self._prefetch, loop, queue)

        def _likely_next(self, param: _Param, moved: int) -> list[dict[str, Any]]:
            """The next value along ``param`` in the direction it moved, then one step along
            each other slider in the order they sit (from ``param`` on), each towards its
            roomier side; frames already drawn are left out."""
            i = param.values.index(self.values[param.name])
            ahead = i + (1 if moved > 0 else -1)
            queue = [{**self.values, param.name: param.values[ahead]}] \
                if 0 <= ahead < len(param.values) else []
            k = self._params.index(param)
            for p in self._params[k + 1:] + self._params[:k]:
                if len(p.values) > 1:
                    j = p.values.index(self.values[p.name])
                    queue.append({**self.values, p.name: p.values[_roomier_step(p, j)]})
            return [v for v in queue if tuple(v.values()) not in self._frames]

        def _prefetch(self, loop, queue: list[dict[str, Any]]) -> None:
            self._pending = None
            try:
                self._frame(queue[0])
            except Exception:  # noqa: BLE001 - a guess that failed; the reader's own move to
                pass           # these values draws them again and shows the error then
            if queue[1:]:
                # A timer, not call_soon: a move that arrived meanwhile is handled first.
                self._pending = loop.call_later(PREFETCH_AFTER_STEP_S, self._prefetch, loop,
                                                queue[1:])

        def _show(self, png: bytes) -> None:
            """Swap picture and alt text in one message, so they never disagree."""
            text = _alt_text(self._alt, self.values).strip() if self._alt else ""
            if not text:
                # alt="" would tell screen readers the picture is decorative; say at least
                # which parameters it shows.
                text = "Figure for " + ", ".join(
                    f"{p.name} = {self.values[p.name]:.{p.decimals}f}" if p.kind == "float"
                    else f"{p.name} = {self.values[p.name]}" for p in self._params)
            self.png, self.alt = png, text
            self.image.value = _live_img_html(png, text)

        def __repr__(self) -> str:
            # Deterministic plain-text fallback (the default repr would dump the PNG bytes).
            return f"LiveExplorer({', '.join(f'{k}={v!r}' for k, v in self.values.items())})"

    _Live.__name__ = _Live.__qualname__ = "LiveExplorer"
    return _Live


# A choice's readout shows its whole label ("versicolor vs virginica"), not the first 9 letters.
_LIVE_STYLE = "<style>.pc-explore-live .widget-readout{max-width:none}</style>"


def _live_img_html(png: bytes, alt: str) -> str:
    """``<img>`` markup for one live frame: the PNG inline, the alt text escaped.

    ``width`` and ``height`` (from the PNG header) reserve the picture's box before it is
    decoded, so swapping frames never collapses the layout; ``decoding="sync"`` asks the browser
    to paint the new frame at once rather than a blank box first.
    """
    width, height = struct.unpack(">II", png[16:24])  # IHDR: the first chunk of every PNG
    src = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return (f'<img class="pc-explore-live-img" src="{src}" alt="{html.escape(alt)}" '
            f'width="{width}" height="{height}" decoding="sync" '
            'style="display:block;max-width:100%;height:auto">')


_LIVE_CLASS = None


def _live(draw, alt, params):
    global _LIVE_CLASS
    if _LIVE_CLASS is None:
        _LIVE_CLASS = _make_live_class()
    return _LIVE_CLASS(draw, alt, params)


def __getattr__(name: str):
    # ``LiveExplorer`` is importable (for isinstance checks) but ipywidgets loads only on use.
    if name == "LiveExplorer":
        global _LIVE_CLASS
        if _LIVE_CLASS is None:
            _LIVE_CLASS = _make_live_class()
        return _LIVE_CLASS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------------------------
# Static mode: self-contained HTML + JS
# --------------------------------------------------------------------------------------------

# One small script, identical in every control. Each copy wires up all controls on the page that
# are not yet marked ready, so including it many times is harmless and nothing leaks into globals.
_SCRIPT = """(function () {
  var roots = document.querySelectorAll("div.pc-explore:not([data-pc-ready])");
  Array.prototype.forEach.call(roots, function (root) {
    var data = JSON.parse(root.querySelector("script.pc-explore-data").textContent);
    var img = root.querySelector("img.pc-explore-img");
    var inputs = root.querySelectorAll("input.pc-explore-range");
    var outs = root.querySelectorAll("output.pc-explore-value");
    var status = root.querySelector(".pc-explore-status");
    var srcs = data.frames.map(function (b64) {
      return b64 ? "data:image/png;base64," + b64 : img.src;  /* null = the frame already shown */
    });
    function update(announce) {
      var flat = 0;
      for (var k = 0; k < inputs.length; k++) {
        var i = parseInt(inputs[k].value, 10);
        flat = flat * data.labels[k].length + i;  /* row-major, as in Python */
        outs[k].textContent = data.labels[k][i];
        inputs[k].setAttribute("aria-valuetext", data.labels[k][i]);
      }
      var src = srcs[data.index[flat]];
      if (img.src !== src) { img.src = src; }
      img.alt = data.alts[flat];
      /* A screen reader does not read out a changed alt text by itself: say the new picture in
         the live region, once a reader has moved a slider (on load, the alt text says it). */
      if (announce === true && status.textContent !== img.alt) { status.textContent = img.alt; }
    }
    function moved() { update(true); }
    for (var k = 0; k < inputs.length; k++) {
      inputs[k].addEventListener("input", moved);
      inputs[k].addEventListener("change", moved);
    }
    root.setAttribute("data-pc-ready", "1");
    update();  /* the browser may have restored slider positions on back/forward */
  });
})();"""

_STYLE = (".pc-explore{margin:1em 0}.pc-explore-control{display:flex;align-items:center;"
          "gap:.6em;margin:.2em 0;flex-wrap:wrap}.pc-explore-control label{min-width:5em;"
          "font-family:monospace}.pc-explore-range{width:min(22rem,60vw)}"
          ".pc-explore-value{font-family:monospace;min-width:4em}"
          ".pc-explore-img{display:block;max-width:100%;height:auto}"
          # Read by screen readers, not shown: the picture itself is on the screen.
          ".pc-explore-status{position:absolute;width:1px;height:1px;margin:-1px;padding:0;"
          "overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}")

_counter = itertools.count()


class StaticExplorer:
    """A self-contained HTML/JS slider control; what :func:`explore` returns in static mode.

    Attributes
    ----------
    names : list of str
        Parameter names, in call order (the order of the sliders).
    labels : list of list of str
        Displayed value of each grid point, per parameter.
    grid : list of list
        Grid values per parameter.
    frames : list of bytes
        The distinct PNG images (identical pictures are stored once).
    frame_index : dict
        Maps every grid combination (tuple of values, in ``names`` order) to an index into
        ``frames``.
    alts : dict
        Alt text for every grid combination.
    initial : tuple
        Grid combination shown first.
    """

    def __init__(self, draw: Callable[..., Figure], alt: AltSpec, params: list[_Param]):
        self.names = [p.name for p in params]
        self.labels = [p.labels for p in params]
        self.grid = [p.values for p in params]
        self.initial = tuple(p.values[p.initial] for p in params)
        self._initial_idx = [p.initial for p in params]
        self.frames: list[bytes] = []
        self.frame_index: dict[tuple, int] = {}
        self.alts: dict[tuple, str] = {}
        seen: dict[bytes, int] = {}  # pixel digest -> frame number
        source = _Frames(draw)  # the live mode's renderer: the same picture in both modes
        for combo in itertools.product(*self.grid):
            kwargs = dict(zip(self.names, combo))
            text = _alt_text(alt, kwargs).strip()
            if not text:
                raise ValueError(f"alt text is empty for {kwargs}; the published book needs a "
                                 "description of every picture: pass alt='...' to explore().")
            rgba = source.rgba(kwargs)
            # Dedupe on raw pixels, before the (slower) palette compression.
            key = hashlib.sha1(rgba.tobytes() + repr(rgba.shape).encode()).digest()
            if key not in seen:
                seen[key] = len(self.frames)
                self.frames.append(_compress_png(rgba))
            self.frame_index[combo] = seen[key]
            self.alts[combo] = text
        digest = hashlib.sha1(b"".join(self.frames) + repr(self.labels).encode()).hexdigest()
        # Counter keeps ids unique if the same control appears twice on a page; deterministic
        # for a given notebook run, unlike a random uuid.
        self.id = f"pc-explore-{digest[:10]}-{next(_counter)}"
        self.html = self._markup()
        if len(self.html) > MAX_CONTROL_BYTES:
            raise ValueError(f"This control weighs {len(self.html) / 1e6:.1f} MB, over the 3 MB "
                             "page budget; coarsen the grid or make the figure smaller.")

    def _markup(self) -> str:
        combos = list(itertools.product(*self.grid))
        first = self.frame_index[self.initial]
        data = {
            "labels": self.labels,
            "index": [self.frame_index[c] for c in combos],
            "alts": [self.alts[c] for c in combos],
            # The first frame is already in <img src>; don't ship it twice.
            "frames": [None if i == first else base64.b64encode(f).decode("ascii")
                       for i, f in enumerate(self.frames)],
        }
        # A "</script>" or "<!--" in an alt text would break out of the <script>; "\u003c" is
        # the same character to JSON.parse and harmless to the HTML parser.
        payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
        rows = []
        for k, (name, labels) in enumerate(zip(self.names, self.labels)):
            idx = self._initial_idx[k]
            input_id = f"{self.id}-{k}"
            rows.append(
                f'<div class="pc-explore-control">'
                f'<label for="{input_id}">{html.escape(name)}</label>'
                f'<input type="range" class="pc-explore-range" id="{input_id}" '
                f'data-param="{html.escape(name)}" min="0" max="{len(labels) - 1}" step="1" '
                f'value="{idx}" aria-valuetext="{html.escape(labels[idx])}">'
                f'<output class="pc-explore-value" for="{input_id}" aria-live="polite">'
                f"{html.escape(labels[idx])}</output></div>")
        src = "data:image/png;base64," + base64.b64encode(self.frames[first]).decode("ascii")
        return (f'<div class="pc-explore" id="{self.id}"><style>{_STYLE}</style>'
                f'{"".join(rows)}'
                f'<img class="pc-explore-img" src="{src}" alt="{html.escape(self.alts[self.initial])}">'
                # Announces the new picture's description when a slider moves (see _SCRIPT).
                '<div class="pc-explore-status" role="status" aria-live="polite" '
                'aria-atomic="true"></div>'
                f'<script type="application/json" class="pc-explore-data">{payload}</script>'
                f"<script>{_SCRIPT}</script></div>")

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        sizes = "x".join(str(len(v)) for v in self.grid)
        return (f"StaticExplorer({', '.join(self.names)}: {sizes} grid, "
                f"{len(self.frames)} distinct frames)")


# --------------------------------------------------------------------------------------------
# The public entry point
# --------------------------------------------------------------------------------------------


def static_mode_requested() -> bool:
    """True when the book build asked for static controls via :data:`STATIC_ENV_VAR`."""
    return os.environ.get(STATIC_ENV_VAR, "").strip().lower() in {"1", "true", "yes", "on"}


def explore(draw: Callable[..., Figure], *, alt: AltSpec = "", max_frames: int = 60,
            mode: str | None = None, **params: ParamSpec) -> Any:
    """Show ``draw(**params)`` with one slider (or choice) per parameter.

    Parameters
    ----------
    draw : callable
        ``draw(**params) -> matplotlib.figure.Figure``. Build the figure with
        :func:`perceptron_core.figures.plotting.new_figure` and draw the whole frame on every call:
        then each slider move updates the figure in place and redraws only what changed. Any
        other figure works too (``Figure(...)``, pyplot), drawn anew on every move. ``explore``
        renders and closes every figure it gets, so nothing stacks up.
    alt : str or callable
        Alt text of the picture: a :meth:`str.format` template filled with the current
        parameters (``"margin {gamma:.2f}"``) or ``alt(**params) -> str``. Required (non-empty)
        for the published book.
    max_frames : int
        Budget for the number of grid combinations (each one is a picture in the static book).
    mode : {None, "live", "static"}
        ``None`` picks ``"static"`` when the environment variable ``PERCEPTRON_STATIC_WIDGETS``
        is true (the book build sets it) and ``"live"`` otherwise.
    **params : tuple or list
        ``name=(start, stop, step)`` or ``(start, stop, step, initial)``: a numeric slider with
        ``stop`` included; all-int tuples give int values, float values are rounded to the
        decimals of ``start`` and ``step`` (no 0.15000000000000002). ``name=[a, b, ...]``: a
        choice. Initial value: ``initial`` or the first grid value / list item. Use one or two
        parameters (three at most).

    Returns
    -------
    LiveExplorer or StaticExplorer
        A displayable object: put ``explore(...)`` last in a cell. A trailing semicolon
        (``explore(...);``) hides it.
        Live: an :class:`ipywidgets.VBox` with ``.controls`` (name -> widget), ``.image`` (the
        HTML widget showing the picture), ``.png`` and ``.alt`` (the frame shown and its alt
        text) and ``.values``. Static: see :class:`StaticExplorer` (``.frames``, ``.frame_index``,
        ``._repr_html_()``).

    Raises
    ------
    ValueError
        Malformed parameters, a grid over ``max_frames`` or an empty alt text in static mode.
    TypeError
        ``draw`` is not callable or does not return a Figure.

    Examples
    --------
    >>> explore(draw, gamma=(0.05, 0.5, 0.05), seed=[0, 1, 2],
    ...         alt="Perceptron run with margin {gamma} on data set {seed}")  # doctest: +SKIP
    """
    if not callable(draw):
        raise TypeError(f"draw must be a function returning a Figure, got {type(draw).__name__}.")
    if not (isinstance(alt, str) or callable(alt)):
        raise ValueError(f"alt must be a str.format template or a function, got {alt!r}.")
    if mode is None:
        mode = "static" if static_mode_requested() else "live"
    if mode not in ("live", "static"):
        raise ValueError(f"mode must be None, 'live' or 'static', got {mode!r}.")
    if isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 1:
        raise ValueError(f"max_frames must be a positive int, got {max_frames!r}.")
    expanded = _expand_all(params, max_frames)
    if mode == "static":
        if isinstance(alt, str) and not alt.strip():
            raise ValueError("The published book needs alt text for the picture: pass "
                             "alt='What the figure shows, e.g. margin {gamma}' to explore().")
        return StaticExplorer(draw, alt, expanded)
    return _live(draw, alt, expanded)
