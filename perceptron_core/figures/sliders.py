"""Sliders that work everywhere: in a live kernel and in the published, static book.

Every chapter uses one call::

    from perceptron_core.figures import explore

    explore(draw, gamma=(0.05, 0.5, 0.05), seed=[0, 1, 2],
            alt="Perceptron run with margin {gamma} on data set {seed}")

``draw(**params)`` returns a new :class:`matplotlib.figure.Figure`. What ``explore`` returns
depends on where the notebook runs:

* **live** (JupyterLab, Notebook 7, VS Code, Colab): ipywidgets sliders above an
  :class:`ipywidgets.HTML` holding one ``<img alt=...>``. A slider move calls ``draw`` again and
  swaps the PNG and its alt text, so the picture updates in place and no figures pile up.
* **static** (``jupyter-book build``): every frame of the grid is drawn at build time, for the
  light and for the dark theme, and shipped in one self-contained HTML snippet (native
  ``<input type="range">`` controls, the frames packed together, a few lines of JavaScript;
  see :class:`StaticExplorer`). It needs no kernel, no server and no network, so it also
  works from ``file://``.

Static mode is chosen when the environment variable :data:`STATIC_ENV_VAR` is true
(``book/_tools/sphinx_extension.py`` sets it for the book build; the kernels inherit it) or when
``mode="static"`` is passed.

**Phone panels.** A figure of panels side by side is cut into one picture per panel, so that a
narrow screen can stack them: shown whole on a 360 px phone, a two-panel figure would be scaled
to a third and its text to 4 or 5 CSS px. Each picture carries its smallest font size, and the
page lets the panels sit side by side only where that text stays at least :data:`READABLE_PX`
CSS px tall.

**Speed.** A live move costs what matplotlib's Agg draw of the figure costs, plus a few ms:
one Agg renderer is reused for every frame of a size (its caches of text extents and glyphs
carry over), the cyclic garbage collector waits until a frame is done (see
:func:`_drawing`), and Pillow writes the PNG at its fastest level. What remains is the
figure's own drawing: fewer ticks and texts make a faster slider.
"""

from __future__ import annotations

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
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable, Union

import numpy as np
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.text import Text

from . import theme

__all__ = ["explore", "Explorable", "slider_values", "slider_grid", "StaticExplorer", "STATIC_ENV_VAR"]

#: Environment variable that switches :func:`explore` to static output (set by the book build).
STATIC_ENV_VAR = "PERCEPTRON_STATIC_WIDGETS"
#: A single static control may never exceed this (a page must stay under 2.5 MB with all
#: it loads, tests/book/test_page_weight.py).
MAX_CONTROL_BYTES = 1_000_000
#: Live mode keeps this many rendered frames, so that going back to a value is instant.
LIVE_CACHE_FRAMES = 64
#: The smallest text a reader should have to read, in CSS px (the book's phone test).
READABLE_PX = 9.0
#: Pixels of background kept around a panel's content.
PAD_PX = 8

ParamSpec = Union[tuple, list]
AltSpec = Union[str, Callable[..., str]]


# ------------------------------------------------------------------------------ parameter grids


def _decimals(x: float) -> int:
    """Digits after the decimal point in the shortest repr of ``x`` (0.05 -> 2, 1e-7 -> 7)."""
    exponent = Decimal(repr(float(x))).normalize().as_tuple().exponent
    return max(0, -int(exponent)) if isinstance(exponent, int) else 0


class _Param:
    """One expanded parameter: its grid ``values``, their ``labels``, the ``initial`` index."""

    def __init__(self, name: str, values: list, labels: list[str], initial: int, kind: str,
                 decimals: int = 0):
        self.name, self.values, self.labels = name, values, labels
        self.initial, self.kind, self.decimals = initial, kind, decimals

    def nearest(self, value: Any) -> Any:
        """Snap a value coming from a widget back onto the grid (FloatSlider values drift)."""
        if self.kind == "choice":
            return value
        return min(self.values, key=lambda v: abs(v - value))


def _expand(name: str, spec: Any, max_frames: int = 10**6) -> _Param:
    """Turn one ``explore`` keyword argument into a :class:`_Param`, or explain what is wrong."""
    hint = (f"Pass {name}=(start, stop, step) or (start, stop, step, initial) for a numeric "
            f"slider, or {name}=[value, value, ...] for a choice.")
    if isinstance(spec, list):
        labels = [str(v) for v in spec]
        if not spec:
            raise ValueError(f"Parameter {name!r} is an empty list; give at least one value. {hint}")
        if len(set(labels)) != len(labels):
            raise ValueError(f"Parameter {name!r} has repeated values {labels}; list each "
                             "choice once.")
        return _Param(name, list(spec), labels, 0, "choice")
    if not isinstance(spec, tuple):
        raise ValueError(f"Parameter {name!r} has unsupported form {spec!r} "
                         f"({type(spec).__name__}). {hint}")
    if len(spec) not in (3, 4) or not all(isinstance(v, numbers.Real)
                                          and not isinstance(v, bool) for v in spec):
        raise ValueError(f"Parameter {name!r}={spec!r} is not a tuple of 3 or 4 numbers. {hint}")
    if not all(math.isfinite(v) for v in spec):
        raise ValueError(f"Parameter {name!r}={spec!r} contains NaN or inf; a slider needs "
                         f"finite start, stop and step. {hint}")
    start, stop, step = spec[:3]
    if not step > 0:
        raise ValueError(f"Parameter {name!r} has step {step!r}; the step must be positive, "
                         f"e.g. {name}=({start}, {stop}, 0.1).")
    if stop < start:
        raise ValueError(f"Parameter {name!r} has stop {stop!r} < start {start!r}; "
                         f"write {name}=({stop}, {start}, {step}) instead.")
    count = (stop - start) / step + 1
    if not count <= max_frames:  # before building a list of a billion values by mistake
        raise ValueError(f"Parameter {name!r}={spec!r} has {count:.0f} values, over the frame "
                         f"budget max_frames={max_frames}. Coarsen the grid (a bigger step) "
                         "or raise max_frames.")
    n_steps = round((stop - start) / step)
    # A tolerance relative to the step absorbs float noise such as (0.05, 0.5, 0.05).
    if abs(start + n_steps * step - stop) > 1e-6 * step:
        raise ValueError(f"Parameter {name!r}: stop {stop!r} is not start {start!r} plus a whole "
                         f"number of steps {step!r}; pick a stop on the grid, e.g. "
                         f"{start + n_steps * step:g}.")
    if all(isinstance(v, numbers.Integral) for v in spec):
        kind, decimals = "int", 0
        values = [int(start) + i * int(step) for i in range(n_steps + 1)]
        labels = [str(v) for v in values]
    else:  # rounded to the inputs' decimals: 0.15, not 0.15000000000000002
        kind, decimals = "float", max(_decimals(start), _decimals(step))
        values = [round(float(start) + i * float(step), decimals) for i in range(n_steps + 1)]
        labels = [f"{v:.{decimals}f}" for v in values]
    initial = 0
    if len(spec) == 4:
        matches = [i for i, v in enumerate(values) if abs(v - spec[3]) <= 1e-6 * step]
        if not matches:
            raise ValueError(f"Parameter {name!r}: initial value {spec[3]!r} is not on the grid "
                             f"{labels}; pick one of those.")
        initial = matches[0]
    return _Param(name, values, labels, initial, kind, decimals)


def _expand_all(params: dict[str, Any], max_frames: int) -> list[_Param]:
    if not params:
        raise ValueError("explore() needs at least one parameter, e.g. "
                         "explore(draw, gamma=(0.05, 0.5, 0.05), alt='...').")
    if len(params) > 3:
        raise ValueError(f"explore() got {len(params)} parameters {list(params)}; use at most 3 "
                         "(one or two read best).")
    expanded = [_expand(name, spec, max_frames) for name, spec in params.items()]
    n_frames = math.prod(len(p.values) for p in expanded)
    if n_frames > max_frames:
        sizes = " x ".join(f"{len(p.values)} ({p.name})" for p in expanded)
        raise ValueError(f"The grid has {sizes} = {n_frames} combinations, over the frame budget "
                         f"max_frames={max_frames}. Coarsen the grid (bigger steps, fewer "
                         "choices) or raise max_frames (a page must stay under 2.5 MB).")
    return expanded


def slider_values(spec: ParamSpec, *, name: str = "value") -> list:
    """The values a slider offers for ``spec``, as :func:`explore` expands it.

    ``(start, stop, step)`` or ``(start, stop, step, initial)``: stop included, floats rounded
    to the decimals of ``start`` and ``step``, all-int tuples give ints; ``[a, b, ...]``: a
    choice. Raises ValueError for a malformed spec (see :func:`explore`).

    >>> slider_values((0.05, 0.2, 0.05))
    [0.05, 0.1, 0.15, 0.2]
    """
    return list(_expand(name, spec).values)


def slider_grid(**specs: ParamSpec) -> dict[str, list]:
    """The values of every slider, ``{name: values}``, for the specs ``explore`` would get.

    >>> slider_grid(gamma=(0.1, 0.3, 0.1), seed=[0, 1])
    {'gamma': [0.1, 0.2, 0.3], 'seed': [0, 1]}
    """
    return {p.name: list(p.values) for p in _expand_all(specs, max_frames=10**6)}


def _alt_text(alt: AltSpec, values: dict[str, Any]) -> str:
    if callable(alt):
        return str(alt(**values)).strip()
    try:
        return alt.format(**values).strip()
    except (KeyError, IndexError, ValueError) as err:
        raise ValueError(f"alt={alt!r} could not be filled with the parameters "
                         f"{sorted(values)}: {err!r}. Use fields such as {{{next(iter(values))}}}."
                         ) from err


# ------------------------------------------------------------------------------------ drawing


@contextlib.contextmanager
def _drawing() -> Iterator[None]:
    """Pause the cyclic garbage collector while a frame is made and drawn, then collect the
    youngest generation.

    A frame makes tens of thousands of objects in reference cycles (a figure, its axes,
    artists, transforms), all garbage once it is drawn. Collected as they come, many reach the
    oldest generation, whose collection walks every object of the session: 100 to 200 ms every
    dozen frames, the slowest slider move. Paused, they are freed in ~2 ms at the end.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
            gc.collect(0)


class _Painter:
    """Draws ``draw``'s figures to pixels, in one theme, with one Agg renderer per size."""

    def __init__(self, draw: Callable[..., Figure], dark: bool = False):
        self.draw, self.dark, self.renderer, self.size = draw, dark, None, None

    def __call__(self, values: dict[str, Any], measure: bool = False) -> tuple[np.ndarray, Any]:
        """The RGBA pixels of ``draw(**values)`` as ``FigureCanvasAgg(fig).draw()`` draws them,
        and, if ``measure``, its panels (see :func:`_measure`)."""
        with _drawing():
            fig = self.draw(**values)
            if not isinstance(fig, Figure):
                raise TypeError(f"draw(**{values!r}) returned {type(fig).__name__}, not a "
                                "Figure; end your draw function with `return fig`.")
            pyplot = sys.modules.get("matplotlib.pyplot")
            if pyplot is not None:  # a pyplot figure would show again at the cell's end
                pyplot.close(fig)
            try:
                size = (*fig.bbox.size, fig.dpi)  # what canvas.get_renderer() keys on
                if size != self.size:
                    self.renderer, self.size = RendererAgg(*size), size
                if self.dark:
                    theme.to_dark(fig)
                with theme.dark() if self.dark else contextlib.nullcontext():
                    self.renderer.clear()
                    fig.draw(self.renderer)  # what canvas.draw() does, on a kept renderer
                    rgba = np.asarray(self.renderer.buffer_rgba()).copy()
                    return rgba, _measure(fig, self.renderer) if measure else None
            finally:
                del fig


def _png(image: Any, small: bool = False) -> bytes:
    """PNG bytes of an image (pixels or a PIL image), by Pillow: at zlib's fastest level for a
    live move (a few ms), or as small as Pillow makes it for the book (``small``)."""
    from PIL import Image

    if not isinstance(image, Image.Image):
        opaque = image.shape[-1] == 4 and image[..., 3].min() == 255
        image = Image.fromarray(np.ascontiguousarray(image[..., :3] if opaque else image))
    out = io.BytesIO()
    image.save(out, "png", **({"optimize": True} if small else {"compress_level": 1}))
    return out.getvalue()


def _palette_image(pixels: np.ndarray):
    """A 256-colour palette image of RGB(A) pixels, without dithering (flat colours stay crisp)."""
    from PIL import Image

    return Image.fromarray(np.ascontiguousarray(pixels[..., :3])).quantize(
        256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _pack(light: list[np.ndarray], dark: list[np.ndarray]) -> dict:
    """Pictures of one size, light and dark: ``{"light": (palette, stream), "dark": ...}``,
    with one 256-colour palette (768 RGB bytes) per theme and the zlib stream of the palette
    indices, rows interleaved (row 0 of every picture, row 1 of every picture, ...). The dark
    theme shares the light one's stream where a palette gives it (see
    :func:`_dark_palette`)."""
    def packed(pictures):
        quantized = _palette_image(np.concatenate(pictures))  # one palette for them all
        indices = np.asarray(quantized).reshape(len(pictures), *pictures[0].shape[:2])
        palette = np.zeros(768, np.uint8)
        used = quantized.getpalette()[:768]
        palette[:len(used)] = used
        return indices, palette.tobytes(), zlib.compress(indices.transpose(1, 0, 2).tobytes(), 9)

    indices, palette, stream = packed(light)
    recoloured = _dark_palette(indices, np.concatenate(dark))
    return {"light": (palette, stream),
            "dark": (recoloured, stream) if recoloured else packed(dark)[1:]}


def _dark_palette(indices: np.ndarray, dark: np.ndarray) -> bytes | None:
    """The palette that turns the light pictures' ``indices`` into the ``dark`` ones (each
    entry's dark colour is the one most of its pixels have: the mean would be pulled off by
    anti-aliased edges), or None where it takes more than a palette: over 0.2 % of the pixels
    more than 24 levels off (two parts of the figure share a colour in the light theme and not
    in the dark one)."""
    indices, rgb = indices.ravel(), dark.reshape(-1, 3)
    pairs, counts = np.unique(indices.astype(np.int64) << 24 | rgb.astype(np.int64) @ [
        1 << 16, 1 << 8, 1], return_counts=True)
    pairs = pairs[np.lexsort((counts, pairs >> 24))]  # by entry, the most frequent last
    pairs = pairs[np.r_[pairs[1:] >> 24 != pairs[:-1] >> 24, True]]
    palette = np.zeros((256, 3), np.uint8)
    palette[pairs >> 24] = np.stack([pairs >> 16 & 255, pairs >> 8 & 255, pairs & 255], 1)
    if (np.abs(palette[indices].astype(int) - rgb).max(axis=1) > 24).mean() > 0.002:
        return None
    return palette.tobytes()


# ------------------------------------------------------------------------------------ panels


def _smallest_text(artist, renderer) -> float:
    """Smallest font size, in pixels, of the texts under ``artist`` that show something."""
    return min((t.get_fontsize() * renderer.points_to_pixels(1.0) for t in artist.findobj(Text)
                if t.get_visible() and t.get_text().strip()), default=math.inf)


def _measure(fig: Figure, renderer) -> tuple:
    """What a figure shows, in pixels from the top left: ``(background, [(left, right, top,
    bottom, text_px), ...])``, one box per panel (Axes whose tight boxes overlap from left to
    right form one panel). ``background`` is None when the figure must stay whole: it has
    artists of its own (a ``suptitle``, ``fig.text``), which belong to no panel."""
    height = renderer.height
    boxes = sorted(((b.x0, b.x1, height - b.y1, height - b.y0, ax) for ax in fig.axes
                    if ax.get_visible() and (b := ax.get_tightbbox(renderer)) is not None
                    and b.width > 0), key=lambda box: box[0])
    groups: list[list] = []
    for x0, x1, top, bottom, ax in boxes:
        if groups and x0 <= groups[-1][1]:
            g = groups[-1]
            g[1:4] = max(g[1], x1), min(g[2], top), max(g[3], bottom)
            g[4] = min(g[4], _smallest_text(ax, renderer))
        else:
            groups.append([x0, x1, top, bottom, _smallest_text(ax, renderer)])
    own = [a for a in fig.get_children()[1:] if a.get_visible() and a not in fig.axes]
    if own or not groups:
        return None, [(0, renderer.width, 0, height, _smallest_text(fig, renderer))]
    return tuple(round(255 * c) for c in to_rgba(fig.get_facecolor())), groups


def _panels(measures: list[tuple], pictures: list[np.ndarray]) -> list[tuple]:
    """The boxes ``(top, bottom, left, right, text_px)`` to cut from every picture of a slider
    (light and dark): each panel's content over every frame, so that it keeps its size as the
    slider moves. The whole picture when the frames disagree on their panels, when panels
    would overlap, or when a cut would lose a pixel that is not the figure's background."""
    height, width = pictures[0].shape[:2]
    whole = [(0, height, 0, width, min(p[4] for _, boxes in measures for p in boxes))]
    counts = {len(boxes) for _, boxes in measures}
    if len(counts) != 1 or any(background is None for background, _ in measures):
        return whole
    top = min(box[2] for _, boxes in measures for box in boxes)
    bottom = max(box[3] for _, boxes in measures for box in boxes)
    cut = [(max(0, math.floor(top - PAD_PX)), min(height, math.ceil(bottom + PAD_PX)),
            max(0, math.floor(min(m[1][i][0] for m in measures) - PAD_PX)),
            min(width, math.ceil(max(m[1][i][1] for m in measures) + PAD_PX)),
            min(m[1][i][4] for m in measures)) for i in range(counts.pop())]
    if any(a[3] > b[2] for a, b in zip(cut, cut[1:])):
        return whole
    kept = np.zeros((height, width), dtype=bool)
    for t, b, l, r, _ in cut:
        kept[t:b, l:r] = True
    for (background, _), rgba in zip(measures, pictures):
        if not np.all(rgba[~kept] == np.array(background, dtype=np.uint8)):
            return whole
    return cut


# ------------------------------------------------------------------------------- live mode


def _live_class():
    """The widget class, made on first use so that importing this module needs no ipywidgets."""
    import ipywidgets as widgets

    class LiveExplorer(widgets.VBox):
        """ipywidgets controls above an ``<img>`` in an HTML widget; see :func:`explore`.

        ``.controls`` (name -> widget), ``.image`` (the HTML widget), ``.png`` and ``.alt``
        (the frame shown and its alt text), ``.values``.
        """

        def __init__(self, draw, alt, params: list[_Param]):
            self._alt, self._params, self._paint = alt, params, _Painter(draw)
            self._frames: dict[tuple, bytes] = {}  # rendered frames by grid point, bounded
            self.values = {p.name: p.values[p.initial] for p in params}
            self._frame(self.values)
            # A step along each slider: its first move is ready at once. No drawing ahead
            # after that: timer callbacks that draw in the kernel between moves kept some
            # moves from reaching the picture in JupyterLab (tests/book/test_jupyterlab.py).
            for p in params:
                j = p.initial + 1 if p.initial + 1 < len(p.values) else p.initial - 1
                if j >= 0:
                    self._frame({**self.values, p.name: p.values[j]})
            # A plain <img alt=...> in an HTML widget, not widgets.Image: its accessible name is
            # then the alt text in every front end (8.1.x front ends crash on an Image tooltip
            # without a description).
            self.image = widgets.HTML()
            self.controls = {p.name: self._control(p) for p in params}
            self._show()
            for name, control in self.controls.items():
                control.observe(lambda change, name=name: self._moved(name, change["new"]),
                                names="value")
            # A choice's readout shows its whole label, not the first 9 letters. In a widget of
            # its own, sent once: a <style> in each frame would restyle the whole page.
            style = widgets.HTML("<style>.pc-explore-live .widget-readout{max-width:none}"
                                 "</style>", layout=widgets.Layout(display="none"))
            super().__init__([*self.controls.values(), self.image, style])
            self.add_class("pc-explore-live")

        @staticmethod
        def _control(p: _Param):
            # continuous_update: the picture follows a drag. The kernel never builds a queue of
            # stale moves: ipywidgets' front end sends a value only when the kernel has
            # answered the last one (its message throttle), the latest that came meanwhile.
            common = dict(description=p.name, continuous_update=True,
                          style={"description_width": "initial"},
                          layout=widgets.Layout(width="min(100%, 32rem)"))
            step = p.values[1] - p.values[0] if len(p.values) > 1 and p.kind != "choice" else 1
            if p.kind == "int":
                return widgets.IntSlider(value=p.values[p.initial], min=p.values[0],
                                         max=p.values[-1], step=step, **common)
            if p.kind == "float":
                return widgets.FloatSlider(value=p.values[p.initial], min=p.values[0],
                                           max=p.values[-1], step=round(step, p.decimals),
                                           readout_format=f".{p.decimals}f", **common)
            # Words get a slider too, as in the static book; not a Dropdown, whose arrow keys
            # move to another cell in JupyterLab's command mode.
            return widgets.SelectionSlider(options=list(zip(p.labels, p.values)),
                                           value=p.values[p.initial], **common)

        def _frame(self, values: dict[str, Any]) -> bytes:
            key = tuple(values.values())
            if key not in self._frames:
                if len(self._frames) >= LIVE_CACHE_FRAMES:
                    self._frames.pop(next(iter(self._frames)))  # the oldest first
                self._frames[key] = _png(self._paint(values)[0])
            return self._frames[key]

        def _moved(self, name: str, new: Any) -> None:
            param = next(p for p in self._params if p.name == name)
            self.values = {**self.values, name: param.nearest(new)}
            # Drawn at once: the moves of a drag or a held key do not pile up in the kernel,
            # since ipywidgets' front end sends a value only once the kernel is idle again
            # (its message throttle), the last one of those that came meanwhile.
            self._show()

        def _show(self) -> None:
            """Swap picture and alt text in one message, so that they never disagree."""
            self.png = self._frame(self.values)
            # alt="" would tell screen readers the picture is decorative: say at least which
            # values it shows.
            self.alt = (_alt_text(self._alt, self.values) if self._alt else "") or (
                "Figure for " + ", ".join(
                    f"{p.name} = {p.labels[p.values.index(self.values[p.name])]}"
                    for p in self._params))
            src = base64.b64encode(self.png).decode("ascii")
            # width and height reserve the box before the picture decodes: no layout jump.
            w, h = int.from_bytes(self.png[16:20], "big"), int.from_bytes(self.png[20:24], "big")
            self.image.value = (f'<img class="pc-explore-live-img" alt="{html.escape(self.alt)}"'
                                f' src="data:image/png;base64,{src}" width="{w}" height="{h}" '
                                'decoding="sync" style="display:block;max-width:100%;height:auto">')

        def __repr__(self) -> str:
            return f"LiveExplorer({', '.join(f'{k}={v!r}' for k, v in self.values.items())})"

    return LiveExplorer


# ------------------------------------------------------------------------------ static mode

# One small script, the same in every control: it wires up every control of the page not yet
# marked ready, so including it many times is harmless and nothing leaks into globals. The
# controls' look (24 px thumbs, panels that wrap) is in the book's stylesheet, book/_static/
# book.css, once per page rather than once per control; without it they still work.
_SCRIPT = """(function () {
  /* Base64 to bytes, and a zlib stream inflated by the browser (a promise). */
  function bytes(b64) {
    var bin = atob(b64), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { out[i] = bin.charCodeAt(i); }
    return out;
  }
  function inflate(b64) {
    return new Response(new Blob([bytes(b64)]).stream().pipeThrough(
      new DecompressionStream("deflate"))).arrayBuffer().then(function (b) { return new Uint8Array(b); });
  }
  /* The headers and palette of an 8-bit BMP of w x h, rows top down (height -h). */
  function header(w, h, palette) {
    var stride = (w + 3) & ~3, v = new DataView(new ArrayBuffer(1078)), rgb = bytes(palette);
    v.setUint16(0, 0x4d42, true); v.setUint32(2, 1078 + stride * h, true); v.setUint32(10, 1078, true);
    v.setUint32(14, 40, true); v.setInt32(18, w, true); v.setInt32(22, -h, true);
    v.setUint16(26, 1, true); v.setUint16(28, 8, true); v.setUint32(34, stride * h, true);
    v.setUint32(46, 256, true);
    for (var c = 0; c < 256; c++) {
      v.setUint8(54 + 4 * c, rgb[3 * c + 2]); v.setUint8(55 + 4 * c, rgb[3 * c + 1]);
      v.setUint8(56 + 4 * c, rgb[3 * c]);
    }
    return v.buffer;
  }
  document.querySelectorAll("div.pc-explore:not([data-pc-ready])").forEach(function (root) {
    var data = JSON.parse(root.querySelector("script.pc-explore-data").textContent);
    var imgs = root.querySelectorAll("img.pc-explore-img");  /* one per panel */
    var inputs = root.querySelectorAll("input.pc-explore-range");
    var page = document.documentElement, printing = false;
    /* Texts change as text nodes (characterData): a change of children would wake every
       observer of the page's subtree (overflow.js measures all its formulas then). */
    function text(el) {
      if (!el.firstChild) { el.appendChild(document.createTextNode("")); }
      return el.firstChild;
    }
    var outs = [].map.call(root.querySelectorAll("output.pc-explore-value"), text);
    var status = text(root.querySelector(".pc-explore-status"));
    var caption = text(root.querySelector(".pc-print-caption"));
    /* Per panel and theme: its BMP header, its rows once inflated, the pictures built. */
    var themes = data.panels.map(function (p, k) {
      var light = {head: header(p.w, p.h, p.light[0]), stream: p.light[1], urls: {}};
      light.urls[data.shown[k]] = imgs[k].src;
      var dark = {head: header(p.w, p.h, p.dark[0]), stream: p.dark[1] || p.light[1], urls: {}};
      dark.urls[data.shown[k]] = "data:image/png;base64," + p.darkFirst;
      return [light, dark];
    });
    function src(p, frame, dark) {
      var t = themes[p][dark ? 1 : 0], info = data.panels[p];
      if (!t.urls[frame] && t.rows) {  /* row y of picture k is at (y n + k) w */
        var stride = (info.w + 3) & ~3, pixels = new Uint8Array(stride * info.h);
        var at = (frame - info.first) * info.w;
        for (var y = 0; y < info.h; y++, at += info.n * info.w) {
          pixels.set(t.rows.subarray(at, at + info.w), y * stride);
        }
        t.urls[frame] = URL.createObjectURL(new Blob([t.head, pixels], {type: "image/bmp"}));
      }
      return t.urls[frame];
    }
    /* The pictures one step away on each slider are built and decoded ahead, so that a step
       swaps in a picture ready to paint (a new blob: picture loads and decodes first). Only
       those are held: the browser may drop the others' decoded pixels. */
    var warmed = {};
    function warm(flat, dark) {
      var held = {}, stride = 1;
      for (var k = inputs.length - 1; k >= 0; k--) {
        var i = parseInt(inputs[k].value, 10), n = data.labels[k].length;
        [i - 1, i + 1].forEach(function (j) {
          if (j < 0 || j >= n) { return; }
          (dark ? data.dark : data.index)[flat + (j - i) * stride].forEach(function (frame, p) {
            var s = src(p, frame, dark);
            if (s && !held[s]) {
              held[s] = warmed[s] || new Image();
              if (!warmed[s]) { held[s].src = s; held[s].decode().catch(function () {}); }
            }
          });
        });
        stride *= n;
      }
      warmed = held;
    }
    function update(announce) {
      var flat = 0;
      inputs.forEach(function (input, k) {
        var i = parseInt(input.value, 10);
        flat = flat * data.labels[k].length + i;  /* row-major, as in Python */
        outs[k].data = data.labels[k][i];
        input.setAttribute("aria-valuetext", data.labels[k][i]);
      });
      var dark = !printing && page.getAttribute("data-theme") === "dark";
      (dark ? data.dark : data.index)[flat].forEach(function (frame, p) {
        var s = src(p, frame, dark);  /* undefined until the rows are inflated */
        if (s && imgs[p].src !== s) { imgs[p].src = s; }
      });
      warm(flat, dark);
      imgs[0].alt = caption.data = data.alts[flat];  /* it describes the whole figure */
      /* A changed alt text is not read out by itself: the live region says it, once a reader
         has moved a slider (on load, the alt text says it). */
      if (announce === true) { status.data = data.alts[flat]; }
    }
    inputs.forEach(function (input) {
      input.addEventListener("input", function () { update(true); });
    });
    new MutationObserver(update).observe(page, {attributes: true, attributeFilter: ["data-theme"]});
    window.addEventListener("beforeprint", function () { printing = true; update(); });
    window.addEventListener("afterprint", function () { printing = false; update(); });
    root.setAttribute("data-pc-ready", "1");
    update();  /* the browser may have restored slider positions on back/forward */
    /* Streams shared by both themes are inflated once. */
    var inflated = {};
    themes.forEach(function (pair) {
      pair.forEach(function (t) {
        inflated[t.stream] = inflated[t.stream] || inflate(t.stream);
        inflated[t.stream].then(function (rows) { t.rows = rows; update(); });
      });
    });
  });
})();"""

_counter = itertools.count()


class StaticExplorer:
    """A self-contained HTML/JS slider control; what :func:`explore` returns in static mode.

    Every frame is drawn for the light and the dark theme and cut into its panels. The frames
    of a slider differ in a few places only (a line turns, a title changes), so each panel's
    distinct pictures are packed together: one 256-colour palette for all of them (no
    dithering: flat plot colours stay crisp), and their palette indices in one zlib stream,
    row 0 of every picture, then row 1 of every picture, and so on, so that deflate finds each
    row in the picture before. That is 5 to 8 times smaller than a PNG a frame (``offset``'s
    54 frames: 1.2 MB of PNGs, 0.27 MB packed). The dark theme costs a palette (its colour for
    each light colour), or a stream of its own where two parts of the figure share a colour in
    the light theme and not in the dark one.

    The page's script inflates the streams once (the browser's own ``DecompressionStream``)
    and shows a picture as an uncompressed 8-bit BMP in a ``blob:`` URL, built on first use and
    kept, so that a slider move only swaps an ``<img src>`` to a picture with no compression
    to undo. The first frame is a PNG in the markup, light and dark, so that the page shows it
    at once, without script and in print.

    Attributes
    ----------
    names, labels, grid : list
        Parameter names (slider order), the displayed value and the value of each grid point.
    panels : list of (top, bottom, left, right, text_px)
        Where each panel is cut from the figure's picture, and its smallest font in pixels.
    packs : list of dict
        Per panel: ``width``, ``height``, ``count`` (distinct pictures), ``first`` (the number
        of its first picture), and for ``"light"`` and ``"dark"`` a ``(palette, stream)``:
        256 RGB colours and the zlib stream of indices (the same stream for both themes when
        the dark one is a palette).
    frame_index : dict
        Every grid combination (a tuple of values in ``names`` order) to one picture number
        per panel, the same for both themes (see :meth:`picture`).
    alts : dict
        Alt text of every grid combination.
    """

    def __init__(self, draw: Callable[..., Figure], alt: AltSpec, params: list[_Param]):
        self.names, self.labels = [p.name for p in params], [p.labels for p in params]
        self.grid = [p.values for p in params]
        self.initial = tuple(p.values[p.initial] for p in params)
        self._initial_idx = [p.initial for p in params]
        self.combos = list(itertools.product(*self.grid))
        self.alts = {c: _alt_text(alt, dict(zip(self.names, c))) for c in self.combos}
        empty = [c for c, text in self.alts.items() if not text]
        if empty:
            raise ValueError(f"alt text is empty for {dict(zip(self.names, empty[0]))}; the "
                             "published book needs a description of every picture: pass "
                             "alt='...' to explore().")
        painters = (_Painter(draw), _Painter(draw, dark=True))
        drawn = [[p(dict(zip(self.names, c)), measure=True) for p in painters]
                 for c in self.combos]
        pictures = [rgba for pair in drawn for rgba, _ in pair]
        if len({p.shape for p in pictures}) != 1:
            raise ValueError("draw() returned figures of different sizes "
                             f"{sorted({p.shape[1::-1] for p in pictures})} (width, height in "
                             "pixels); give every frame the same figsize and dpi, so that the "
                             "picture does not jump when a slider moves.")
        self.panels = _panels([m for pair in drawn for _, m in pair], pictures)
        self.packs, numbers, first = [], [], 0
        for t, b, l, r, _ in self.panels:
            seen: dict[bytes, int] = {}
            crops = [(light[t:b, l:r, :3], dark[t:b, l:r, :3]) for (light, _), (dark, _) in drawn]
            number = [seen.setdefault(hashlib.sha1(a.tobytes() + d.tobytes()).digest(), len(seen))
                      for a, d in crops]
            distinct = [crops[number.index(k)] for k in range(len(seen))]
            self.packs.append(dict(width=r - l, height=b - t, count=len(distinct), first=first,
                                   **_pack([a for a, _ in distinct], [d for _, d in distinct])))
            numbers.append([first + k for k in number])
            first += len(distinct)
        self.frame_index = {c: tuple(n[i] for n in numbers) for i, c in enumerate(self.combos)}
        digest = hashlib.sha1(b"".join(p["light"][1] + p["dark"][1] for p in self.packs)
                              + repr(self.labels).encode()).hexdigest()
        # The counter keeps ids unique if the same control appears twice on a page, and is
        # deterministic for a given notebook run, unlike a random uuid.
        self.id = f"pc-explore-{digest[:10]}-{next(_counter)}"
        self.html = self._markup()
        if len(self.html) > MAX_CONTROL_BYTES:
            raise ValueError(f"This control weighs {len(self.html) / 1e6:.1f} MB, over its "
                             f"{MAX_CONTROL_BYTES / 1e6:g} MB budget (a page must stay under "
                             "2.5 MB with all it loads); coarsen the grid or make the figure "
                             "smaller.")

    def picture(self, combo: tuple, dark: bool = False) -> list[np.ndarray]:
        """The RGB pixels of each panel of ``combo``, unpacked as the page's script does."""
        out = []
        for pack, number in zip(self.packs, self.frame_index[combo]):
            palette, stream = pack["dark" if dark else "light"]
            rows = np.frombuffer(zlib.decompress(stream), np.uint8).reshape(
                pack["height"], pack["count"], pack["width"])
            out.append(np.frombuffer(palette, np.uint8).reshape(-1, 3)[
                rows[:, number - pack["first"]]])
        return out

    def _markup(self) -> str:
        shown = self.frame_index[self.initial]
        b64 = lambda raw: base64.b64encode(raw).decode("ascii")  # noqa: E731
        first = [[_png(_palette_image(p), small=True) for p in self.picture(self.initial, dark)]
                 for dark in (False, True)]
        data = {
            "labels": self.labels,
            "index": [self.frame_index[c] for c in self.combos],
            "dark": [self.frame_index[c] for c in self.combos],  # the same numbers, by theme
            "alts": [self.alts[c] for c in self.combos],
            "shown": shown,
            # Every picture is built by the script from "panels"; null says it is not a PNG.
            "frames": [None] * sum(p["count"] for p in self.packs),
            "panels": [{"w": p["width"], "h": p["height"], "n": p["count"], "first": p["first"],
                        "light": [b64(p["light"][0]), b64(p["light"][1])],
                        "dark": [b64(p["dark"][0]),
                                 None if p["dark"][1] == p["light"][1] else b64(p["dark"][1])],
                        "darkFirst": b64(png)} for p, png in zip(self.packs, first[1])],
        }
        # "</script>" or "<!--" in an alt text would break out of the <script>; "\u003c" is the
        # same character to JSON.parse and harmless to the HTML parser.
        payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
        rows = []
        for k, (name, labels) in enumerate(zip(self.names, self.labels)):
            idx, input_id, label = self._initial_idx[k], f"{self.id}-{k}", html.escape(name)
            value = html.escape(labels[idx])
            rows.append(f'<div class="pc-explore-control"><label for="{input_id}">{label}</label>'
                        f'<input type="range" class="pc-explore-range" id="{input_id}" '
                        f'data-param="{label}" min="0" max="{len(labels) - 1}" step="1" '
                        f'value="{idx}" aria-valuetext="{value}"><output class="pc-explore-value" '
                        f'for="{input_id}" aria-live="polite">{value}</output></div>')
        alt = html.escape(self.alts[self.initial])
        # Side by side, the panels share one scale: each starts at its width times the scale
        # that keeps the smallest text of every panel readable, grows in proportion to its
        # width, never past its own size, and wraps below the others when the row has no room.
        readable = [max(1, math.ceil((r - l) * READABLE_PX / px)) if math.isfinite(px) else r - l
                    for _, _, l, r, px in self.panels]
        scale = max(w / (p[3] - p[2]) for w, p in zip(readable, self.panels))
        images = []
        for k, ((t, b, l, r, px), png) in enumerate(zip(self.panels, first[0])):
            basis = max(readable[k], math.ceil((r - l) * scale))
            images.append(f'<img class="pc-explore-img" src="data:image/png;base64,{b64(png)}" '
                          f'alt="{alt if k == 0 else ""}" width="{r - l}" height="{b - t}" '
                          f'style="flex:{r - l} 1 {basis}px;max-width:min(100%,{r - l}px)" '
                          f'data-pc-text-px="{px:.2f}">')
        return (f'<div class="pc-explore" id="{self.id}">{"".join(rows)}'
                f'<div class="pc-explore-panels">{"".join(images)}</div>'
                f'<p class="pc-print-caption" aria-hidden="true">{alt}</p>'
                '<div class="pc-explore-status" role="status" aria-live="polite" '
                'aria-atomic="true"></div>'
                f'<script type="application/json" class="pc-explore-data">{payload}</script>'
                f"<script>{_SCRIPT}</script></div>")

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return (f"StaticExplorer({', '.join(self.names)}: {'x'.join(map(str, map(len, self.grid)))}"
                f" grid, {sum(p['count'] for p in self.packs)} distinct frames)")


# --------------------------------------------------------------------------- the entry point


def static_mode_requested() -> bool:
    """True when the book build asked for static controls via :data:`STATIC_ENV_VAR`."""
    return os.environ.get(STATIC_ENV_VAR, "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Explorable:
    """A figure ready for :func:`explore`: how to draw it, its sliders and its alt text.

    The chapters' figure modules return these (``explore(fig.turning_separator(X, y, opt))``),
    so that a chapter's visible code says *what* it shows, while the grid of values and the
    description for screen readers, which only the published book needs, stay with the figure
    code. Keyword arguments of :func:`explore` override the stored ones.
    """

    draw: Callable[..., Figure]
    params: dict[str, ParamSpec] = field(default_factory=dict)
    alt: AltSpec = ""


def explore(draw: Callable[..., Figure] | Explorable, *, alt: AltSpec = "", max_frames: int = 60,
            mode: str | None = None, **params: ParamSpec) -> Any:
    """Show ``draw(**params)`` with one slider (or choice) per parameter.

    Parameters
    ----------
    draw : callable or Explorable
        ``draw(**params) -> matplotlib.figure.Figure``, a new figure on every call (for instance
        from :func:`perceptron_core.figures.plotting.new_figure`, ``Figure(...)`` or pyplot).
        ``explore`` draws and closes every figure it gets, so nothing stacks up. An
        :class:`Explorable` brings its own sliders and alt text; ``alt`` and ``params`` given
        here take their place, parameter by parameter.
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
        decimals of ``start`` and ``step``. ``name=[a, b, ...]``: a choice. Initial value:
        ``initial`` or the first. One or two parameters read best (three at most).

    Returns
    -------
    LiveExplorer or StaticExplorer
        A displayable object: put ``explore(...)`` last in a cell (``explore(...);`` hides it).

    Raises
    ------
    ValueError
        Malformed parameters, a grid over ``max_frames`` or an empty alt text in static mode.
    TypeError
        ``draw`` is not callable or does not return a Figure.
    """
    if isinstance(draw, Explorable):
        draw, alt, params = draw.draw, alt or draw.alt, {**draw.params, **params}
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
    if mode == "live":
        return _live_class()(draw, alt, expanded)
    if isinstance(alt, str) and not alt.strip():
        raise ValueError("The published book needs alt text for the picture: pass "
                         "alt='What the figure shows, e.g. margin {gamma}' to explore().")
    return StaticExplorer(draw, alt, expanded)
