"""Plotting primitives shared by the book's figures (2-D data only), and the figure recycling
that lets a slider redraw only what changed.

Figures are built with :class:`matplotlib.figure.Figure`, not pyplot, so that drawing one never
touches global state or shows up twice in a notebook: :func:`perceptron_core.explore` renders
them, and reuses those made by :func:`new_figure` (below).

Drawn once, then updated
------------------------
A figure made by :func:`new_figure` can be handed back to the draw function that made it.
Inside :meth:`FigureRecycler.frame` (which :func:`perceptron_core.explore` opens around each
slider move) :func:`new_figure` returns the figure of the previous frame instead of a new one,
emptied but with its axes, ticks and fonts kept, and every plotting call on it (``ax.plot``,
``ax.scatter``, ``ax.legend``, ``fig.text``, ...) that repeats a call of the previous frame
with equal arguments keeps the artist it made then. Only the calls whose arguments changed make
new artists, and only those need drawing again. The draw function itself is an ordinary
``draw(**params) -> Figure``: outside a frame nothing is recycled.

For this to give the same picture as a fresh figure, a draw function must draw the *whole*
frame every time: make the same axes-level settings (limits, scales, aspect, ticks, labels,
positions) on every call rather than relying on what an earlier call left behind. Titles,
axis labels, legends, data and view limits, the aspect, the axes' positions and the colour
cycle are reset at the start of each frame, as on a new figure. A call that takes its colour
from the colour cycle, and an artist changed after it was made, are simply made again on the
next frame. ``tests/test_interactive.py`` checks, for every figure of the book,
that frames drawn this way along a reader's path through the sliders equal fresh drawings
pixel for pixel.
"""

from __future__ import annotations

import functools
import io
import numbers
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable

import matplotlib.artist as martist
import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import Collection
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.transforms import Bbox
from numpy.typing import ArrayLike

from .._validation import unit_vector, vector_norm

__all__ = ["POSITIVE", "NEGATIVE", "BOUNDARY", "new_figure", "plot_points", "plot_separator",
           "frame_data", "figure_png", "FigureRecycler"]

POSITIVE, NEGATIVE, BOUNDARY = "#1f77b4", "#d62728", "#333333"

#: Fixed margins of every :func:`new_figure` (re-applied when a figure is reused).
_MARGINS = dict(left=0.1, right=0.97, bottom=0.12, top=0.9, wspace=0.3)


def new_figure(ncols: int = 1, *, width: float = 6.4, height: float = 4.0) -> tuple[Figure, list[Axes]]:
    """A pyplot-free figure with ``ncols`` axes side by side.

    Margins are fixed rather than computed by a layout engine: constrained layout costs about
    half a second per draw, which would make sliders sluggish, and fixed axes also keep the
    panels from jumping between frames. Ticks and tick labels lie below the data
    (``set_axisbelow(True)``), so that a redraw of the data never has to redraw the ticks.

    Inside :meth:`FigureRecycler.frame` the figure of the previous frame with the same
    arguments comes back, emptied, instead of a new one (see the module docstring).
    """
    if isinstance(ncols, bool) or not isinstance(ncols, numbers.Integral) or ncols < 1:
        raise ValueError(f"ncols must be a positive int, got {ncols!r}.")
    for name, size in (("width", width), ("height", height)):
        if not isinstance(size, numbers.Real) or isinstance(size, bool) or not 0 < size < 100:
            raise ValueError(f"{name} must be a positive number of inches below 100, got {size!r}.")
    recycler = _RECYCLER.get()
    key = (int(ncols), float(width), float(height))
    if recycler is not None:
        reused = recycler._claim(key)
        if reused is not None:
            return reused
    fig = _RecyclingFigure(figsize=(width, height))
    fig.subplots_adjust(**_MARGINS)
    axes = list(fig.subplots(1, ncols, squeeze=False,
                             subplot_kw={"axes_class": _RecyclingAxes})[0])
    for ax in axes:
        ax.set_axisbelow(True)
    if recycler is not None:
        recycler._adopt(key, fig, axes)
    return fig, axes


def plot_points(ax: Axes, X: ArrayLike, y: ArrayLike, *, size: float = 36, highlight: int | None = None) -> None:
    """Scatter 2-D points: +1 as blue dots, −1 as red crosses; ring the point ``highlight``."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    ax.scatter(*X[y > 0].T, s=size, c=POSITIVE, marker="o", label="$y=+1$", zorder=3)
    ax.scatter(*X[y < 0].T, s=size * 1.4, c=NEGATIVE, marker="x", label="$y=-1$", zorder=3)
    if highlight is not None:
        ax.scatter(*X[highlight], s=size * 6, facecolors="none", edgecolors="black", linewidths=1.5, zorder=4)


def plot_separator(
    ax: Axes,
    w: ArrayLike,
    b: float = 0.0,
    *,
    margin: float | None = None,
    color: str = BOUNDARY,
    label: str | None = "$w\\cdot x + b = 0$",
    show_normal: bool = True,
    linestyle: str = "-",
) -> None:
    """Draw the line ``w·x + b = 0`` across the current view, its normal, and a margin band.

    ``margin`` is a geometric margin: the band is drawn at that distance on both sides. Nothing
    is drawn for ``w = 0``, which defines no line. ``linestyle`` is the style of the line
    itself (the band is always dotted).
    """
    w = np.asarray(w, dtype=float)
    if not np.any(w):
        return
    # Scaled norms: a w with entries near 1e-200 still has a direction (its plain norm underflows).
    norm, unit = vector_norm(w), unit_vector(w, "w")
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    foot = -b / norm * unit
    direction = np.array([-unit[1], unit[0]])
    span = 2 * max(x1 - x0, y1 - y0, 1.0) + np.linalg.norm(foot)
    ts = np.array([-span, span])
    for shift, style in ([(0.0, linestyle)] + ([(margin, ":"), (-margin, ":")] if margin else [])):
        pts = foot + shift * unit + ts[:, None] * direction
        ax.plot(pts[:, 0], pts[:, 1], style, color=color, lw=1.6 if shift == 0 else 1.0,
                label=label if shift == 0 else None)
    if show_normal:
        ax.annotate("", xy=foot + unit * 0.25 * max(x1 - x0, y1 - y0), xytext=foot,
                    arrowprops=dict(arrowstyle="->", color=color, lw=1.4))
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)


def frame_data(ax: Axes, X: ArrayLike, *, pad: float = 0.15, include_origin: bool = True) -> None:
    """Set equal-aspect limits that show all points (and the origin) with some room."""
    X = np.asarray(X, dtype=float)
    pts = np.vstack([X, np.zeros((1, 2))]) if include_origin else X
    lo, hi = pts.min(0), pts.max(0)
    room = pad * max(float(np.max(hi - lo)), 1e-9)
    ax.set_xlim(lo[0] - room, hi[0] + room)
    ax.set_ylim(lo[1] - room, hi[1] + room)
    ax.set_aspect("equal", adjustable="box")


def figure_png(fig: Figure, *, dpi: float = 96) -> bytes:
    """Render a figure to PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


# --------------------------------------------------------------------------------------------
# Recycling: the same figure, frame after frame
# --------------------------------------------------------------------------------------------

_RECYCLER: ContextVar[FigureRecycler | None] = ContextVar("perceptron_core_recycler", default=None)

# The plotting calls whose artists can be kept from one frame to the next. Any other call still
# works: its artists are simply made again on every frame.
_AXES_CALLS = ("plot", "scatter", "annotate", "text", "axhline", "axvline", "axline",
               "axhspan", "axvspan", "fill", "fill_between", "fill_betweenx", "step", "hist",
               "bar", "barh", "errorbar", "semilogx", "semilogy", "loglog", "hlines", "vlines",
               "imshow", "add_patch", "add_artist", "add_line", "add_collection", "legend")
_FIGURE_CALLS = ("text", "suptitle", "supxlabel", "supylabel", "legend")
# Where an Axes / a Figure keeps what those calls make: lists, and single attributes.
_AXES_LISTS, _AXES_ATTRS = ("_children", "containers"), ("legend_",)
_FIGURE_LISTS = ("artists", "lines", "patches", "texts", "images", "legends")
_FIGURE_ATTRS = ("_suptitle", "_supxlabel", "_supylabel")


def _supported(ax: Axes) -> bool:
    """Whether this matplotlib has the internals recycling relies on (3.11 does); without
    them figures are simply drawn afresh on every frame."""
    try:
        ax._get_lines._prop_cycle._idx  # noqa: B018 - probing for the attribute
        ax._get_patches_for_fill._prop_cycle._idx  # noqa: B018
    except AttributeError:
        return False
    return all(hasattr(ax, name) for name in (
        "_children", "_stale_viewlims", "_viewLim", "_update_line_limits", "_update_patch_limits",
        "_update_collection_limits", "_update_image_limits", "_request_autoscale_view",
        "_left_title", "_right_title")) and hasattr(martist.Artist, "_get_in_autoscale")


class _Ident:
    """A call argument that is the same only as itself (an artist, a transform, a norm...)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any):
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Ident) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


def _freeze(value: Any, artist: Callable[[Any], Any] = _Ident) -> Any:
    """A hashable snapshot of a call argument, equal for equal arguments.

    Arrays are copied (as bytes), so that changing an array after the call cannot make two
    different frames look equal. Artists are compared with ``artist(a)``: by identity, or by
    their look for a legend's handles.
    """
    if isinstance(value, martist.Artist) and (value.axes is not None
                                              or value.figure is not None):
        return artist(value)
    if value is None or isinstance(value, (bool, str, bytes)):
        return value
    if isinstance(value, numbers.Integral):
        return ("int", int(value))
    if isinstance(value, numbers.Real):
        x = float(value)
        return ("float", "nan" if x != x else x)
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            return ("objects", value.shape, tuple(_freeze(v) for v in value.ravel()))
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_freeze(v, artist) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((repr(k), _freeze(v, artist)) for k, v in value.items()),
                                     key=lambda kv: kv[0])))
    if isinstance(value, Patch) and value.axes is None and value.figure is None:
        return _describe_patch(value)
    return _Ident(value)


def _describe_patch(p: Patch) -> tuple:
    """What a not-yet-added patch (``ax.add_patch(Circle(...))``) will look like."""
    path = p.get_patch_transform().transform_path(p.get_path())
    transform = martist.Artist.get_transform(p) if p.is_transform_set() else None
    return ("patch", type(p).__name__, _freeze(np.asarray(path.vertices)),
            _freeze(None if path.codes is None else np.asarray(path.codes)),
            _freeze(tuple(p.get_facecolor())), _freeze(tuple(p.get_edgecolor())),
            _freeze(p.get_linewidth()), _freeze(p.get_linestyle()), p.get_fill(),
            _freeze(p.get_alpha()), _freeze(p.get_zorder()), p.get_label(), p.get_hatch(),
            p.get_visible(), p.get_clip_on(), p.get_antialiased(), p.get_capstyle(),
            p.get_joinstyle(), repr(p.get_path_effects()), _freeze(p.get_sketch_params()),
            _Ident(transform) if transform is not None else None)


def _look(handle: Any) -> Any:
    """What a legend copies from a handle (lines, scatters, patches); else the handle itself."""
    common = (type(handle).__name__, handle.get_visible(), _freeze(handle.get_alpha()),
              repr(handle.get_path_effects()), _freeze(handle.get_sketch_params()))
    if isinstance(handle, Line2D):
        return ("line", common, str(handle.get_color()), repr(handle.get_linestyle()),
                _freeze(handle.get_linewidth()), str(handle.get_marker()),
                _freeze(handle.get_markersize()), str(handle.get_markerfacecolor()),
                str(handle.get_markerfacecoloralt()), str(handle.get_markeredgecolor()),
                _freeze(handle.get_markeredgewidth()), handle.get_fillstyle(),
                handle.get_drawstyle(), repr(handle._dash_pattern),
                str(handle.get_gapcolor()), handle.get_dash_capstyle(),
                handle.get_solid_capstyle(), handle.get_dash_joinstyle(),
                handle.get_solid_joinstyle(), handle.get_antialiased())
    if isinstance(handle, Collection):
        paths = handle.get_paths()
        first = paths[0] if len(paths) else None
        cmap, norm = handle.get_cmap(), handle.norm
        return ("collection", common, _freeze(np.asarray(handle.get_facecolor())),
                _freeze(np.asarray(handle.get_edgecolor())),
                _freeze(np.asarray(handle.get_linewidth())), repr(handle.get_linestyle()),
                _freeze(np.asarray(getattr(handle, "get_sizes", lambda: ())())),
                None if first is None else _freeze(np.asarray(first.vertices)),
                None if first is None or first.codes is None else _freeze(first.codes),
                _freeze(handle.get_array()), getattr(cmap, "name", None),
                None if norm is None else (type(norm).__name__, _freeze(norm.vmin),
                                           _freeze(norm.vmax)),
                handle.get_hatch())
    if isinstance(handle, Patch):
        return ("patch", common, _freeze(tuple(handle.get_facecolor())),
                _freeze(tuple(handle.get_edgecolor())), _freeze(handle.get_linewidth()),
                repr(handle.get_linestyle()), handle.get_hatch(), handle.get_fill())
    return _Ident(handle)


def _cycles(owner: Any) -> tuple | None:
    """Position of the colour cycles of an Axes (None for a Figure, which has none)."""
    if not isinstance(owner, Axes):
        return ()
    try:
        return (owner._get_lines._prop_cycle._idx, owner._get_patches_for_fill._prop_cycle._idx)
    except AttributeError:
        return None


class _Call:
    """One plotting call of a frame and what it made."""

    __slots__ = ("signature", "result", "added", "attrs", "artists", "requests", "reusable",
                 "fresh")

    def __init__(self, signature: tuple):
        self.signature = signature
        self.result: Any = None
        self.added: dict[str, list] = {}   # list attribute of the owner -> items appended
        self.attrs: dict[str, Any] = {}    # single attribute of the owner -> value set
        self.artists: list[martist.Artist] = []
        self.requests: list[tuple] = []    # autoscale requests, replayed when kept
        self.reusable = True
        self.fresh = True                  # made in this frame (not kept from the last)


class _Book:
    """The calls made on one Axes or Figure in the current and in the previous frame."""

    def __init__(self, owner: Any):
        self.owner = owner
        self.is_axes = isinstance(owner, Axes)
        self.lists = _AXES_LISTS if self.is_axes else _FIGURE_LISTS
        self.attrs = _AXES_ATTRS if self.is_axes else _FIGURE_ATTRS
        self.now: list[_Call] = []
        self.previous: dict[tuple, list[_Call]] = {}
        self.depth = 0                      # > 0 inside a recorded call: nested calls pass
        self.recording: _Call | None = None
        self.titles: tuple | None = None    # state of the titles at the end of the last frame

    # -- a frame --------------------------------------------------------------------------

    def begin(self) -> None:
        """Detach everything the last frame made, keeping it for reuse by equal calls."""
        self.previous = {}
        for call in self.now:
            self.previous.setdefault(call.signature, []).append(call)
        self.now = []
        owner = self.owner
        for name in self.lists:
            getattr(owner, name).clear()  # in place: artists' remove methods hold the list
        for name in self.attrs:
            setattr(owner, name, None)
        if self.is_axes:
            _reset_axes(owner)

    def call(self, base: Callable, args: tuple, kwargs: dict) -> Any:
        owner = self.owner
        extra: tuple = ()
        freeze = _freeze
        if base.__name__ == "legend":
            # A legend copies the look of its handles, so it is the same legend for handles
            # that look the same, even if they were made again for this frame. Which handles
            # and labels it shows (found as matplotlib finds them) is part of the call.
            freeze = functools.partial(_freeze, artist=_look)
            try:
                from matplotlib.legend import _parse_legend_args

                axes = [owner] if self.is_axes else owner.axes
                handles, labels, _ = _parse_legend_args(axes, *args, **kwargs)
                extra = (tuple(_look(h) for h in handles), tuple(map(str, labels)))
            except Exception:  # whatever went wrong, the call itself will say; never reuse
                extra = (_Ident(object()),)
        signature = (base.__name__, freeze(args), freeze(kwargs), extra)
        kept = self._claim(signature)
        if kept is not None:
            self._restore(kept)
            return kept.result
        call = _Call(signature)
        before = {name: len(getattr(owner, name)) for name in self.lists}
        attrs = {name: getattr(owner, name) for name in self.attrs}
        cycles = _cycles(owner)
        self.depth += 1
        self.recording = call
        try:
            call.result = base(owner, *args, **kwargs)
        finally:
            self.depth -= 1
            self.recording = None
        for name in self.lists:
            items = getattr(owner, name)[before[name]:]
            if items:
                call.added[name] = list(items)
                call.artists += [a for a in items if isinstance(a, martist.Artist)]
        for name in self.attrs:
            value = getattr(owner, name)
            if value is not attrs[name]:
                call.attrs[name] = value
                if isinstance(value, martist.Artist) and value not in call.artists:
                    call.artists.append(value)
        # A call that took a colour from the cycle must be made again on every frame, or the
        # calls after it would get other colours than on a fresh figure.
        after = _cycles(owner)
        call.reusable = cycles is not None and after == cycles
        for artist in call.artists:
            artist.stale = False  # from here on, stale means "changed after it was made"
        self.now.append(call)
        return call.result

    def _claim(self, signature: tuple) -> _Call | None:
        candidates = self.previous.get(signature)
        if not candidates:
            return None
        for i, call in enumerate(candidates):
            changed = any(a.stale for a in call.artists) or any(
                isinstance(x, _Ident) and isinstance(x.obj, martist.Artist) and x.obj.stale
                for x in _idents(signature))
            if call.reusable and not changed:
                del candidates[i]
                return call
        return None

    def _restore(self, call: _Call) -> None:
        """Put a kept call's artists back, with their share of the data limits."""
        owner = self.owner
        for name, items in call.added.items():
            getattr(owner, name).extend(items)
        for name, value in call.attrs.items():
            setattr(owner, name, value)
        if self.is_axes:
            for artist in call.added.get("_children", ()):
                _update_limits(owner, artist)
            for axis, tight in call.requests:
                owner._request_autoscale_view(axis, tight)
        call.fresh = False
        self.now.append(call)

    def finish(self) -> set:
        """The artists of this frame that are new or changed since the last one."""
        changed: set = set()
        tracked: set = set()
        for call in self.now:
            tracked.update(call.artists)
            if call.fresh:
                changed.update(call.artists)
            mutated = [a for a in call.artists if a.stale]
            if mutated:
                changed.update(mutated)
                call.reusable = False
            call.fresh = True  # until kept by the next frame
        changed.update(a for a in self.attached() if a not in tracked)
        if self.is_axes:
            ax = self.owner
            titles = tuple(_text_state(t) for t in (ax.title, ax._left_title, ax._right_title))
            old = self.titles or (None,) * 3
            changed.update(t for t, s, o in zip((ax.title, ax._left_title, ax._right_title),
                                                titles, old) if s != o)
            self.titles = titles
        return changed

    def attached(self) -> list:
        owner = self.owner
        items = [a for name in self.lists for a in getattr(owner, name)
                 if isinstance(a, martist.Artist)]
        return items + [getattr(owner, name) for name in self.attrs
                        if getattr(owner, name) is not None]


def _idents(value: Any) -> Iterator[_Ident]:
    if isinstance(value, _Ident):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _idents(v)


def _text_state(t: Any) -> tuple:
    # hash() of the font properties: the object itself is changed in place by set_fontsize.
    return (t.get_text(), hash(t.get_fontproperties()), str(t.get_color()), t.get_ha(), t.get_va(),
            t.get_position()[0], t.get_visible(), t.get_rotation(), t.get_alpha())


def _update_limits(ax: Axes, artist: martist.Artist) -> None:
    """Add a kept artist to the data limits, as adding it did (and as ``Axes.relim`` does)."""
    if not artist._get_in_autoscale():
        return
    if isinstance(artist, Line2D):
        ax._update_line_limits(artist)
    elif isinstance(artist, Patch):
        ax._update_patch_limits(artist)
    elif isinstance(artist, AxesImage):
        ax._update_image_limits(artist)
    elif isinstance(artist, Collection):
        ax._update_collection_limits(artist)


def _reset_axes(ax: Axes) -> None:
    """Give a reused Axes the state a new one starts a frame with (what a frame may rely on)."""
    for title in (ax.title, ax._left_title, ax._right_title):
        title.set_text("")
    ax.xaxis.label.set_text("")
    ax.yaxis.label.set_text("")
    ax.set_prop_cycle(None)
    ax.set_aspect("auto", adjustable="box")
    # Empty data limits, the unit view, autoscaling on: nothing of the last frame's data.
    ax._stale_viewlims = dict.fromkeys(ax._stale_viewlims, False)
    if ax.get_xscale() == "linear" and ax.get_yscale() == "linear":
        ax._viewLim.set_points(Bbox.unit().get_points())
    ax.set_autoscalex_on(True)
    ax.set_autoscaley_on(True)
    ax.dataLim = Bbox.null()
    ax.ignore_existing_data_limits = True


def _recorded(base: Callable) -> Callable:
    @functools.wraps(base)
    def method(self, *args, **kwargs):
        book = self.__dict__.get("_pc_book")
        if book is None or book.depth:
            return base(self, *args, **kwargs)
        return book.call(base, args, kwargs)

    return method


class _RecyclingAxes(Axes):
    """An Axes whose plotting calls can keep their artists from one frame to the next.

    Outside :meth:`FigureRecycler.frame` it is a plain :class:`~matplotlib.axes.Axes`.
    """

    def _request_autoscale_view(self, axis="all", tight=None):
        book = self.__dict__.get("_pc_book")
        if book is not None and book.recording is not None:
            book.recording.requests.append((axis, tight))
        super()._request_autoscale_view(axis, tight)


class _RecyclingFigure(Figure):
    """A Figure whose ``text``, ``suptitle`` and ``legend`` calls can keep their artists."""


for _name in _AXES_CALLS:
    if hasattr(Axes, _name):
        setattr(_RecyclingAxes, _name, _recorded(getattr(Axes, _name)))
for _name in _FIGURE_CALLS:
    if hasattr(Figure, _name):
        setattr(_RecyclingFigure, _name, _recorded(getattr(Figure, _name)))


class _Figure:
    """One recycled figure: its axes and the books of their calls."""

    def __init__(self, fig: Figure, axes: list[Axes]):
        self.fig, self.axes = fig, axes
        self.books = [_Book(fig)] + [_Book(ax) for ax in axes]
        for book in self.books:
            book.owner._pc_book = book

    def begin(self) -> tuple[Figure, list[Axes]]:
        self.fig.subplots_adjust(**_MARGINS)  # also puts every axes back in its grid cell
        for book in self.books:
            book.begin()
        return self.fig, list(self.axes)

    def finish(self) -> set:
        changed: set = set()
        for book in self.books:
            changed |= book.finish()
        return changed

    def rendered(self) -> None:
        # Drawing leaves some artists stale (an empty text, an annotation's arrow); from now on
        # stale must mean "changed by the next frame".
        for book in self.books:
            for artist in book.attached():
                artist.stale = False


class FigureRecycler:
    """Hands the figures of one slider control back to its draw function, frame after frame.

    Examples
    --------
    >>> recycler = FigureRecycler()
    >>> with recycler.frame():
    ...     fig = draw(k=1)                     # doctest: +SKIP
    >>> changed = recycler.finish(fig)          # doctest: +SKIP
    >>> # ... render fig, drawing the artists in ``changed`` ...
    >>> recycler.rendered(fig)                  # doctest: +SKIP
    """

    def __init__(self) -> None:
        self._figures: dict[tuple, list[_Figure]] = {}
        self._claimed: dict[tuple, int] = {}

    @contextmanager
    def frame(self) -> Iterator[FigureRecycler]:
        """Within this block, :func:`new_figure` returns the figures of the previous frame.

        If the block raises, every figure is forgotten: the next frame starts afresh.
        """
        if _RECYCLER.get() is not None:
            raise RuntimeError("FigureRecycler.frame() blocks cannot be nested.")
        self._claimed = {}
        token = _RECYCLER.set(self)
        try:
            yield self
        except BaseException:
            self.forget()
            raise
        finally:
            _RECYCLER.reset(token)

    def finish(self, fig: Figure) -> set | None:
        """End the frame of ``fig``: the artists that are new or changed since the last frame.

        ``None`` if ``fig`` is not one of this recycler's figures (made without
        :func:`new_figure`, or on a matplotlib without the internals recycling needs): draw
        all of it.
        """
        state = self._state(fig)
        return None if state is None else state.finish()

    def rendered(self, fig: Figure) -> None:
        """Tell the recycler that ``fig`` has been drawn as it is now."""
        state = self._state(fig)
        if state is not None:
            state.rendered()

    def forget(self) -> None:
        """Drop every figure: the next frame builds new ones."""
        self._figures.clear()

    def _state(self, fig: Figure) -> _Figure | None:
        for states in self._figures.values():
            for state in states:
                if state.fig is fig:
                    return state
        return None

    def _claim(self, key: tuple) -> tuple[Figure, list[Axes]] | None:
        n = self._claimed.get(key, 0)
        self._claimed[key] = n + 1
        states = self._figures.get(key, [])
        return states[n].begin() if n < len(states) else None

    def _adopt(self, key: tuple, fig: Figure, axes: list[Axes]) -> None:
        if all(_supported(ax) for ax in axes):
            self._figures.setdefault(key, []).append(_Figure(fig, axes))


def _display_figures_in_ipython() -> None:
    """Let a pyplot-free Figure show itself as the value of a notebook cell.

    IPython only learns to display figures when pyplot activates the inline backend, which the
    book's figures never do. Registering the formatter here makes ``draw(...)`` as a cell's last
    line show the picture in Jupyter, Colab, VS Code and the book build alike.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is optional for the library
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "display_formatter"):
        shell.display_formatter.formatters["image/png"].for_type(Figure, figure_png)


_display_figures_in_ipython()
