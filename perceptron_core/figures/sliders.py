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

Fast on every matplotlib the package accepts, on its public API only. Each slider move calls
``draw`` for a new figure; its background (axes, ticks, tick labels, axis labels: most of the
drawing time) is kept from an earlier frame when it is the same, and only the rest is drawn over
it (:class:`~perceptron_core.figures.render.LayeredRenderer`). A move then costs tens of
milliseconds instead of a hundred or more, and the sliders follow the hand. Both modes draw their
frames this way, and the tests check, for every figure of the book, that each frame equals a
fresh drawing pixel for pixel.

The grid of a slider, as the controls offer it, is :func:`slider_values` (one parameter) and
:func:`slider_grid` (several).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
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
from collections.abc import Iterator
from typing import Any, Callable, Union

import numpy as np
from matplotlib.figure import Figure

from . import panels, theme
from .render import LayeredRenderer

__all__ = ["explore", "slider_values", "slider_grid", "LiveExplorer", "StaticExplorer",
           "STATIC_ENV_VAR"]

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


def slider_values(spec: ParamSpec, *, name: str = "value") -> list:
    """The values a slider offers for ``spec``, as :func:`explore` expands it.

    Parameters
    ----------
    spec : tuple or list
        ``(start, stop, step)`` or ``(start, stop, step, initial)`` for a numeric slider (stop
        included, floats rounded to the decimals of ``start`` and ``step``, all-int tuples give
        ints), or ``[a, b, ...]`` for a choice.
    name : str
        The parameter's name, used in error messages.

    Returns
    -------
    list
        The grid values in slider order.

    Raises
    ------
    ValueError
        A malformed spec (see :func:`explore`).

    Examples
    --------
    >>> slider_values((0.05, 0.2, 0.05))
    [0.05, 0.1, 0.15, 0.2]
    >>> slider_values([0, 1, 2])
    [0, 1, 2]
    """
    return list(_expand(name, spec).values)


def slider_grid(**specs: ParamSpec) -> dict[str, list]:
    """The values of every slider, ``{name: values}``, for the specs ``explore`` would get.

    Raises
    ------
    ValueError
        A malformed spec, no spec at all, or more than three (see :func:`explore`).

    Examples
    --------
    >>> slider_grid(gamma=(0.1, 0.3, 0.1), seed=[0, 1])
    {'gamma': [0.1, 0.2, 0.3], 'seed': [0, 1]}
    """
    return {p.name: list(p.values) for p in _expand_all(specs, max_frames=10**6)}


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
    channels = pixels.shape[2]
    rows = np.empty((height, 1 + width * channels), dtype=np.uint8)
    rows[:, 0] = 0  # filter type "None" on every row
    rows[:, 1:].reshape(height, width, channels)[...] = pixels  # one copy, no temporary

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


#: A dark panel is stored as a palette when its light twin's palette, recoloured, gives it
#: back with at most this share of pixels off by more than DARK_TOLERANCE (of 255) in a channel:
#: the anti-aliased edge pixels that palette compression already approximates in the light
#: picture. Otherwise it is stored as a picture of its own.
DARK_OFF_SHARE, DARK_TOLERANCE = 0.002, 24


def _chunk(png: bytes, kind: bytes) -> bytes:
    """The data of the first chunk of type ``kind`` in a PNG (b"" if none)."""
    at = 8
    while at + 8 <= len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        if png[at + 4:at + 8] == kind:
            return png[at + 8:at + 8 + length]
        at += 12 + length
    return b""


def _with_palette(png: bytes, palette: bytes) -> bytes:
    """``png`` with the data of its PLTE chunk replaced (same length) and its CRC redone: what
    the page's script does to show a dark picture."""
    at = 8
    while at + 8 <= len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        if png[at + 4:at + 8] == b"PLTE":
            if len(palette) != length:
                raise ValueError(f"palette of {len(palette)} bytes for a PLTE of {length}")
            crc = struct.pack(">I", zlib.crc32(b"PLTE" + palette) & 0xFFFFFFFF)
            return png[:at + 8] + palette + crc + png[at + 12 + length:]
        at += 12 + length
    raise ValueError("not a palette PNG: no PLTE chunk")


def _dark_palette(indices: np.ndarray, dark: np.ndarray, size: int) -> bytes | None:
    """The palette (``size`` bytes) that gives the dark picture from the light picture's palette
    ``indices``: for each light colour, the dark colour most of its pixels have. None when that
    misses more than :data:`DARK_OFF_SHARE` of the pixels (two parts of the figure that share a
    colour in the light theme and not in the dark one)."""
    rgb = dark[..., :3].reshape(-1, 3).astype(np.int64)
    flat = indices.reshape(-1).astype(np.int64)
    if dark.shape[:2] != indices.shape or not np.all(dark[..., 3] == 255):
        return None
    key = (flat << 24) | (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    values, counts = np.unique(key, return_counts=True)
    entries = values >> 24
    order = np.lexsort((counts, entries))  # by entry, the most frequent colour last
    last = np.r_[entries[order][1:] != entries[order][:-1], True]
    palette = np.zeros((size // 3, 3), dtype=np.int64)
    chosen = values[order][last]
    palette[chosen >> 24] = np.stack([(chosen >> 16) & 255, (chosen >> 8) & 255, chosen & 255], 1)
    off = np.abs(palette[flat] - rgb).max(axis=1) > DARK_TOLERANCE
    if off.mean() > DARK_OFF_SHARE:
        return None
    return palette.astype(np.uint8).tobytes()


@contextlib.contextmanager
def _garbage_collected_after() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a frame is drawn, then collect the youngest
    generation.

    A frame makes tens of thousands of objects in reference cycles (a figure, its axes, artists,
    transforms), all garbage once it is drawn. Collected as they come, many live long enough to
    reach the oldest generation, whose collection then walks every object of the session: 100 to
    200 ms, every dozen frames or so, which is the slowest slider move. Paused, they are still
    in the youngest generation when the frame ends, and collecting it frees them in about 2 ms.
    A collector the caller has turned off stays off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)


class _Frames:
    """The pictures of one ``draw`` function, drawn by one :class:`~.render.LayeredRenderer`.

    Used by both modes, so the live and the static pictures come from the same code: each frame
    is a new figure from ``draw``, drawn over the background (axes, ticks, labels) kept from an
    earlier frame when that is the same, then closed.
    """

    def __init__(self, draw: Callable[..., Figure], *, dark: bool = False):
        self._draw, self.dark = draw, dark
        self.renderer = LayeredRenderer()

    def rgba(self, values: dict[str, Any]) -> np.ndarray:
        """RGBA pixels of ``draw(**values)``."""
        with _garbage_collected_after():
            fig = _call_draw(self._draw, values)
            try:
                pixels = self.renderer.rgba(fig)
            finally:
                _close(fig)
                del fig  # garbage from here on: the collection on leaving the block frees it
        return pixels

    def measured(self, values: dict[str, Any]) -> tuple[np.ndarray, panels.Frame]:
        """RGBA pixels of ``draw(**values)`` and its panels, measured before it is closed."""
        with _garbage_collected_after():
            fig = _call_draw(self._draw, values)
            try:
                if self.dark:
                    theme.to_dark(fig)
                with theme.dark() if self.dark else contextlib.nullcontext():
                    pixels = self.renderer.rgba(fig)
                    frame = panels.measure(fig, self.renderer.renderer)
            finally:
                _close(fig)
                del fig
        return pixels, frame

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
            # Each move draws over the background kept from earlier frames (see _Frames).
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
            if self._source.renderer.last != "whole":
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

            The first frame also draws the background and fills matplotlib's caches, so its time
            overstates a move; a step along each slider gives a fair estimate (and leaves those
            frames in the cache, where the reader's first move is likely to find one). Returns
            the time of the last such drawing, or None if there is nothing to move.
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
    var imgs = root.querySelectorAll("img.pc-explore-img");  /* one per panel */
    var inputs = root.querySelectorAll("input.pc-explore-range");
    var outs = root.querySelectorAll("output.pc-explore-value");
    var status = root.querySelector(".pc-explore-status");
    var caption = root.querySelector(".pc-print-caption");
    var srcs = data.frames.map(function (b64) { return b64 && "data:image/png;base64," + b64; });
    /* null: a picture shown at load, whose data is in its <img src> only */
    data.shown.forEach(function (frame, p) { srcs[frame] = imgs[p].src; });
    var page = document.documentElement, printing = false;
    function dark() { return !printing && page.getAttribute("data-theme") === "dark"; }
    var crcTable = [];
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var b = 0; b < 8; b++) { c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1; }
      crcTable[n] = c >>> 0;
    }
    var recoloured = {};
    /* A dark picture stored as a palette: its light twin's PNG with that PLTE chunk (and CRC). */
    function darkSrc(entry) {
      if (entry >= 0) { return srcs[entry]; }
      var r = -1 - entry;
      if (!recoloured[r]) {
        var png = atob(srcs[data.recolour[r][0]].split(",")[1]), pal = atob(data.recolour[r][1]);
        var bytes = new Uint8Array(png.length), i;
        for (i = 0; i < png.length; i++) { bytes[i] = png.charCodeAt(i); }
        for (var at = 8; at + 8 <= bytes.length;) {
          var len = ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
          if (String.fromCharCode(bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]) === "PLTE") {
            var crc = 0xFFFFFFFF;
            for (i = 0; i < len; i++) { bytes[at + 8 + i] = pal.charCodeAt(i); }
            for (i = at + 4; i < at + 8 + len; i++) { crc = crcTable[(crc ^ bytes[i]) & 255] ^ (crc >>> 8); }
            crc = (crc ^ 0xFFFFFFFF) >>> 0;
            for (i = 0; i < 4; i++) { bytes[at + 8 + len + i] = (crc >>> (24 - 8 * i)) & 255; }
            break;
          }
          at += 12 + len;
        }
        var text = "";
        for (i = 0; i < bytes.length; i += 8192) {
          text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
        }
        recoloured[r] = "data:image/png;base64," + btoa(text);
      }
      return recoloured[r];
    }
    function update(announce) {
      var flat = 0;
      for (var k = 0; k < inputs.length; k++) {
        var i = parseInt(inputs[k].value, 10);
        flat = flat * data.labels[k].length + i;  /* row-major, as in Python */
        outs[k].textContent = data.labels[k][i];
        inputs[k].setAttribute("aria-valuetext", data.labels[k][i]);
      }
      /* the pictures drawn for the page's theme (light on paper) */
      var night = dark();
      (night ? data.dark : data.index)[flat].forEach(function (frame, p) {
        var src = night ? darkSrc(frame) : srcs[frame];
        if (imgs[p].src !== src) { imgs[p].src = src; }
      });
      var alt = data.alts[flat];
      imgs[0].alt = alt;  /* the first panel's alt text describes the whole figure */
      caption.textContent = alt;
      /* A screen reader does not read out a changed alt text by itself: say the new picture in
         the live region, once a reader has moved a slider (on load, the alt text says it). */
      if (announce === true && status.textContent !== alt) { status.textContent = alt; }
    }
    function moved() { update(true); }
    for (var k = 0; k < inputs.length; k++) {
      inputs[k].addEventListener("input", moved);
      inputs[k].addEventListener("change", moved);
    }
    new MutationObserver(update).observe(page, {attributes: true, attributeFilter: ["data-theme"]});
    window.addEventListener("beforeprint", function () { printing = true; update(); });
    window.addEventListener("afterprint", function () { printing = false; update(); });
    root.setAttribute("data-pc-ready", "1");
    update();  /* the browser may have restored slider positions on back/forward */
  });
})();"""

_STYLE = (".pc-explore{margin:1em 0}.pc-explore-control{display:flex;align-items:center;"
          "gap:.5em;margin:.2em 0}.pc-explore-control label{flex:none;font-family:monospace}"
          # Label, slider and value on one row down to a 360 px phone: the slider takes what the
          # label and the value leave. Thumb and track are drawn here, 24 px tall, the least
          # target size of WCAG 2.2 (2.5.8); the browser's own thumb is 16 px. Colours keep 3:1
          # against a light page; the book sets --pc-explore-* for its dark theme.
          ".pc-explore-range{flex:1 1 6rem;min-width:6rem;max-width:22rem;height:24px;margin:0;"
          "padding:0;background:transparent;-webkit-appearance:none;appearance:none;cursor:pointer}"
          ".pc-explore-range::-webkit-slider-runnable-track{height:6px;border-radius:3px;"
          "background:var(--pc-explore-track,#767676)}"
          ".pc-explore-range::-moz-range-track{height:6px;border-radius:3px;"
          "background:var(--pc-explore-track,#767676)}"
          ".pc-explore-range::-webkit-slider-thumb{-webkit-appearance:none;appearance:none;"
          "box-sizing:border-box;width:24px;height:24px;margin-top:-9px;border-radius:50%;"
          "border:2px solid var(--pc-explore-ring,#fff);background:var(--pc-explore-thumb,#0a58ca)}"
          ".pc-explore-range::-moz-range-thumb{box-sizing:border-box;width:24px;height:24px;"
          "border-radius:50%;border:2px solid var(--pc-explore-ring,#fff);"
          "background:var(--pc-explore-thumb,#0a58ca)}"
          ".pc-explore-range:focus-visible{outline:3px solid var(--pc-explore-thumb,#0a58ca);"
          "outline-offset:2px}"
          ".pc-explore-value{flex:none;font-family:monospace;min-width:3.5em}"
          ".pc-explore-panels{display:flex;flex-wrap:wrap;align-items:flex-start;column-gap:1rem}"
          ".pc-explore-img{display:block;min-width:0;height:auto}"
          # Read by screen readers, not shown: the picture itself is on the screen.
          ".pc-explore-status{position:absolute;width:1px;height:1px;margin:-1px;padding:0;"
          "overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}"
          # On paper the picture's description is its caption (a reader's own print too).
          ".pc-print-caption{display:none}@media print{.pc-print-caption{display:block}}")

_counter = itertools.count()


def _digest(rgba: np.ndarray) -> bytes:
    return hashlib.sha1(rgba.tobytes() + repr(rgba.shape).encode()).digest()


class StaticExplorer:
    """A self-contained HTML/JS slider control; what :func:`explore` returns in static mode.

    A figure of panels side by side is cut into one picture per panel
    (:mod:`~perceptron_core.figures.panels`): they sit side by side where the page is wide enough
    for each panel's smallest text to be at least 9 CSS px tall, and stack where it is not (a
    phone). The first picture carries the alt text, which describes the whole figure; the others
    are marked decorative, as for any group of images that makes one picture.

    Attributes
    ----------
    names : list of str
        Parameter names, in call order (the order of the sliders).
    labels : list of list of str
        Displayed value of each grid point, per parameter.
    grid : list of list
        Grid values per parameter.
    panels : list of Panel
        Where each panel is cut from the figure's picture, left to right, and its smallest font.
    frames : list of bytes
        The distinct PNG pictures of all panels (identical pictures are stored once).
    frame_index : dict
        Maps every grid combination (tuple of values, in ``names`` order) to a tuple of indices
        into ``frames``, one per panel.
    dark_index : dict
        The same for the pictures drawn for the book's dark theme
        (:mod:`~perceptron_core.figures.theme`), which the page shows while the theme is dark:
        an index into ``frames``, or ``-1 - r`` for ``recolours[r]`` (see :meth:`dark_png`).
    recolours : list of (int, bytes)
        Dark pictures stored as a light picture (an index into ``frames``) and the palette
        (PLTE chunk data) that makes it the dark one.
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
        self.alts: dict[tuple, str] = {}
        seen: dict[bytes, int] = {}  # pixel digest -> picture number
        pictures: list[np.ndarray] = []
        measures: list[panels.Frame] = []
        picture_of: dict[tuple, tuple[int, int]] = {}  # combination -> (light, dark) picture
        # The live mode's renderer: the same picture in both modes. One renderer per theme, so
        # that each keeps its own backgrounds from frame to frame.
        sources = (_Frames(draw), _Frames(draw, dark=True))
        for combo in itertools.product(*self.grid):
            kwargs = dict(zip(self.names, combo))
            text = _alt_text(alt, kwargs).strip()
            if not text:
                raise ValueError(f"alt text is empty for {kwargs}; the published book needs a "
                                 "description of every picture: pass alt='...' to explore().")
            numbers = []
            for source in sources:
                rgba, frame = source.measured(kwargs)
                # Dedupe on raw pixels, before cutting and the (slower) palette compression.
                key = _digest(rgba)
                if key not in seen:
                    seen[key] = len(pictures)
                    pictures.append(rgba)
                    measures.append(frame)
                numbers.append(seen[key])
            picture_of[combo] = tuple(numbers)
            self.alts[combo] = text
        if len({p.shape for p in pictures}) != 1:
            raise ValueError("draw() returned figures of different sizes "
                             f"{sorted({p.shape[1::-1] for p in pictures})} (width, height in "
                             "pixels); give every frame the same figsize and dpi, so that the "
                             "picture does not jump when a slider moves.")
        self.panels = panels.panels(measures, pictures)
        self.frames: list[bytes] = []
        self.recolours: list[tuple[int, bytes]] = []
        self._cut(pictures, picture_of)
        digest = hashlib.sha1(b"".join(self.frames) + repr(self.labels).encode()).hexdigest()
        # Counter keeps ids unique if the same control appears twice on a page; deterministic
        # for a given notebook run, unlike a random uuid.
        self.id = f"pc-explore-{digest[:10]}-{next(_counter)}"
        self.html = self._markup()
        if len(self.html) > MAX_CONTROL_BYTES:
            raise ValueError(f"This control weighs {len(self.html) / 1e6:.1f} MB, over the 3 MB "
                             "page budget; coarsen the grid or make the figure smaller.")

    def _cut(self, pictures: list[np.ndarray], picture_of: dict[tuple, tuple[int, int]]) -> None:
        """Cut every picture into its panels and store each distinct panel picture once.

        A dark panel is stored as the palette that turns its light twin into it, when one does
        (see :func:`_dark_palette`): the same figure drawn with other colours is, pixel for
        pixel, the light picture with each of its colours replaced. The page builds that PNG
        (its PLTE chunk replaced), so the dark theme costs a palette per picture, not a picture.
        """
        seen: dict[bytes, int] = {}
        indices: dict[int, np.ndarray] = {}  # light frame -> its palette indices

        def light(cut: np.ndarray) -> int:
            key = _digest(cut)
            if key not in seen:
                seen[key] = len(self.frames)
                png = _compress_png(np.ascontiguousarray(cut))
                self.frames.append(png)
                indices[seen[key]] = np.asarray(Image.open(io.BytesIO(png)))
            return seen[key]

        def dark(cut: np.ndarray, twin: int) -> int:
            key = _digest(cut) + twin.to_bytes(4, "big")
            if key not in seen:
                palette = _dark_palette(indices[twin], cut, len(_chunk(self.frames[twin], b"PLTE")))
                if palette is None:  # colours the light picture does not tell apart
                    seen[key] = len(self.frames)
                    self.frames.append(_compress_png(np.ascontiguousarray(cut)))
                else:
                    seen[key] = -1 - len(self.recolours)
                    self.recolours.append((twin, palette))
            return seen[key]

        from PIL import Image

        boxes = [(p.top, p.bottom, p.left, p.right) for p in self.panels]
        cuts: dict[int, tuple[int, ...]] = {}
        for i, _ in picture_of.values():
            if i not in cuts:
                cuts[i] = tuple(light(pictures[i][t:b, l:r]) for t, b, l, r in boxes)
        for i, d in picture_of.values():
            if d not in cuts:
                cuts[d] = tuple(dark(pictures[d][t:b, l:r], twin)
                                for (t, b, l, r), twin in zip(boxes, cuts[i]))
        self.frame_index = {combo: cuts[i] for combo, (i, _) in picture_of.items()}
        self.dark_index = {combo: cuts[d] for combo, (_, d) in picture_of.items()}

    def dark_png(self, number: int) -> bytes:
        """The PNG of an entry of :attr:`dark_index`, as the page builds it."""
        if number >= 0:
            return self.frames[number]
        twin, palette = self.recolours[-1 - number]
        return _with_palette(self.frames[twin], palette)

    def _markup(self) -> str:
        combos = list(itertools.product(*self.grid))
        shown = self.frame_index[self.initial]
        data = {
            "labels": self.labels,
            "index": [self.frame_index[c] for c in combos],
            "dark": [self.dark_index[c] for c in combos],
            "recolour": [[twin, base64.b64encode(palette).decode("ascii")]
                         for twin, palette in self.recolours],
            "alts": [self.alts[c] for c in combos],
            "shown": shown,
            # The first frame's pictures are already in <img src>; don't ship them twice.
            "frames": [None if i in shown else base64.b64encode(f).decode("ascii")
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
        alt = html.escape(self.alts[self.initial])
        images = []
        # Side by side, the panels of one figure are shown at one scale: each starts at its width
        # times the scale that keeps the smallest text of every panel readable, and grows in
        # proportion to its width, never past its own size. A panel wraps below the others when
        # the row has no room for that.
        scale = max(p.readable_width() / p.width for p in self.panels)
        for p, (panel, frame) in enumerate(zip(self.panels, shown)):
            src = "data:image/png;base64," + base64.b64encode(self.frames[frame]).decode("ascii")
            basis = max(panel.readable_width(), math.ceil(panel.width * scale))
            style = f"flex:{panel.width} 1 {basis}px;max-width:min(100%,{panel.width}px)"
            images.append(
                f'<img class="pc-explore-img" src="{src}" alt="{alt if p == 0 else ""}" '
                f'width="{panel.width}" height="{panel.bottom - panel.top}" style="{style}" '
                f'data-pc-text-px="{panel.text_px:.2f}">')
        return (f'<div class="pc-explore" id="{self.id}"><style>{_STYLE}</style>'
                f'{"".join(rows)}'
                f'<div class="pc-explore-panels">{"".join(images)}</div>'
                # Shown in print only; screen readers have the alt text already.
                f'<p class="pc-print-caption" aria-hidden="true">{alt}</p>'
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
        ``draw(**params) -> matplotlib.figure.Figure``, a new figure on every call (for instance
        from :func:`perceptron_core.figures.plotting.new_figure`, or ``Figure(...)``, or
        pyplot). A move redraws the axes and ticks only when they change (see
        :mod:`perceptron_core.figures.render`). ``explore`` renders and closes every figure it
        gets, so nothing stacks up.
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
