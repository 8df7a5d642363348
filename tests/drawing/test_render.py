"""perceptron_core.figures.render (the frames of explore) and perceptron_core.figures.plotting.

The reference is always a new figure drawn by plain matplotlib, ``FigureCanvasAgg(fig).draw()``:
a frame drawn over kept backgrounds must equal it pixel for pixel, for every figure of the book
along a reader's path through its sliders and for figures built to break each condition of the
layered drawing.
"""

from __future__ import annotations

import importlib
import io
import pkgutil
import random

import matplotlib

matplotlib.use("Agg")  # headless; must precede the pyplot import

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from PIL import Image

from perceptron_core.figures import sliders
from perceptron_core.figures.plotting import BookFigure, figure_png, new_figure
from perceptron_core.figures.render import LayeredRenderer
from perceptron_core.figures.sliders import slider_grid


@pytest.fixture(autouse=True)
def no_leftover_figures():
    plt.close("all")
    yield
    assert plt.get_fignums() == [], "a test left pyplot figures open"


def _fresh(draw_function, values: dict) -> np.ndarray:
    """The reference: a new figure drawn by plain matplotlib, nothing kept or skipped."""
    canvas = FigureCanvasAgg(draw_function(**values))
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy()


def _assert_same_picture(frame: np.ndarray, fresh: np.ndarray, what: object) -> None:
    """Pixel for pixel, within a tiny tolerance: at most 1 pixel in 10 000 may differ."""
    assert frame.shape == fresh.shape, what
    differ = np.any(frame != fresh, axis=2)
    assert differ.mean() <= 1e-4, f"{what}: {int(differ.sum())} pixels differ"


def _frames_equal_fresh(draw_function, path: list[dict], **renderer) -> LayeredRenderer:
    """Draw ``path`` frame after frame with one renderer, each checked against a fresh drawing."""
    layered = LayeredRenderer(**renderer)
    for values in path:
        fig = draw_function(**values)
        _assert_same_picture(layered.rgba(fig), _fresh(draw_function, values), values)
    return layered


# ----------------------------------------------------------------------------- the book's figures


def _book_cases() -> list:
    """Every figure the chapters pass to explore(), with the chapter's grid (BENCH_CASES)."""
    from perceptron_core import figures

    cases = []
    for info in sorted(pkgutil.iter_modules(figures.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{figures.__name__}.{info.name}")
        for name, draw_function, params in getattr(module, "BENCH_CASES", []):
            grid = {k: v if isinstance(v, (tuple, list)) else [v] for k, v in params.items()}
            cases.append(pytest.param(draw_function, grid, id=name))
    return cases


def _reader_path(params: dict, jumps: int = 1) -> list[dict]:
    """A reader's way through a grid: the first frame, a step along each slider in turn,
    ``jumps`` jumps anywhere (all sliders at once, where there are several), and back to the
    start."""
    expanded = sliders._expand_all(params, max_frames=10**6)
    first = {p.name: p.values[p.initial] for p in expanded}
    path = [first]
    for p in expanded:
        i = p.initial + 1 if p.initial + 1 < len(p.values) else p.initial - 1
        if 0 <= i < len(p.values):
            path.append({**path[-1], p.name: p.values[i]})
    if len(expanded) > 1:  # with one slider, a jump is one more step along it
        rng = random.Random(len(path))
        path += [{p.name: rng.choice(p.values) for p in expanded} for _ in range(jumps)]
    return path + [first]


@pytest.mark.parametrize("draw_function, params", _book_cases())
def test_every_book_figure_equals_a_fresh_drawing_and_keeps_its_axes(draw_function, params):
    """Along a reader's path, each frame (as the live and the static sliders draw it) equals a
    fresh drawing; every Axes of the figure has its background kept, and coming back to the
    first values draws no background at all (the fast path, on every matplotlib accepted)."""
    frames = sliders._Frames(draw_function)
    fresh = {}  # a fresh drawing per values: the path comes back to its first
    for values in _reader_path(params):
        frame = frames.rgba(values)
        layered, axes = frames.renderer.last_layers
        assert frames.renderer.last != "whole", f"{values}: the figure was drawn whole"
        assert layered == axes, f"{values}: {axes - layered} of {axes} Axes drawn whole"
        key = tuple(sorted(values.items()))
        if key not in fresh:
            fresh[key] = _fresh(draw_function, values)
        _assert_same_picture(frame, fresh[key], values)
    assert frames.renderer.last == "reused", "back at the first frame, its axes were drawn again"


# ----------------------------------------------------------------------------- what is kept


def _tiny(ncols: int = 1):
    return new_figure(ncols, width=2.4, height=1.8)


def test_data_moves_over_kept_axes_and_new_limits_draw_new_ones():
    def draw_k(k, top=3):
        fig, (ax,) = _tiny()
        ax.plot([0, 1], [0, 1], color="C0")
        ax.plot([0, 1], [k, 0], color="C1", lw=3)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, top)
        ax.set_title(f"k = {k}")
        ax.legend(["a", "b"], loc="upper right")
        return fig

    layered = LayeredRenderer()
    seen = []
    for values in ({"k": 1}, {"k": 2}, {"k": 3}, {"k": 1, "top": 4}, {"k": 2}):
        _assert_same_picture(layered.rgba(draw_k(**values)), _fresh(draw_k, values), values)
        seen.append(layered.last)
    assert seen == ["drawn", "reused", "reused", "drawn", "reused"]


@pytest.mark.parametrize("change", [
    "tick_params", "formatter", "xlabel", "ticks", "facecolor", "figure_facecolor", "scale",
    "position", "grid",
])
def test_every_change_to_the_axes_is_seen(change):
    """Frames that differ only in one thing the axes draw: each must show it (a key that
    missed it would paste the first frame's axes)."""

    def draw_k(k):
        fig, (ax,) = _tiny()
        ax.plot([1, 2], [1, 3], color="C0")
        ax.set_xlim(1, 2)
        ax.set_ylim(1, 3)
        if change == "tick_params":
            ax.tick_params(labelsize=6 + 3 * k, colors="C3" if k else "k")
        elif change == "formatter":
            ax.xaxis.set_major_formatter("{x:.1f}" if k else "{x:.3f}")
        elif change == "xlabel":
            ax.set_xlabel(f"x{k}")
        elif change == "ticks":
            ax.set_yticks([1, 2, 3] if k else [1, 3])
        elif change == "facecolor":
            ax.set_facecolor("0.9" if k else "white")
        elif change == "figure_facecolor":
            fig.set_facecolor("0.8" if k else "white")
        elif change == "scale":
            ax.set_yscale("log" if k else "linear")
        elif change == "position":
            ax.set_position([0.2, 0.2 + 0.1 * k, 0.6, 0.6])
        elif change == "grid":
            ax.grid(bool(k))
        return fig

    layered = _frames_equal_fresh(draw_k, [{"k": 0}, {"k": 1}, {"k": 0}])
    assert layered.last == "reused"


def test_a_change_of_rcparams_is_seen():
    def draw_k(k):
        fig, (ax,) = _tiny()
        ax.plot([0, 1], [0, k])
        return fig

    layered = LayeredRenderer()
    first = layered.rgba(draw_k(1))
    with matplotlib.rc_context({"xtick.major.size": 12, "xtick.major.width": 3}):
        bigger = layered.rgba(draw_k(1))
        _assert_same_picture(bigger, _fresh(draw_k, {"k": 1}), "rc changed")
    assert not np.array_equal(first, bigger)
    _assert_same_picture(layered.rgba(draw_k(1)), first, "rc back")


def test_lines_below_the_axes_are_kept_by_their_pixels():
    """A reference line at zorder 0 lies below the axes (0.5): it is part of the kept
    background, known by its pixels, so a line that moves gives a new background."""

    def draw_k(k):
        fig, (ax,) = _tiny()
        ax.axhline(k / 10, color="0.6", lw=2, zorder=0)
        ax.plot([0, 1], [1, 0], color="C0")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        return fig

    layered = _frames_equal_fresh(draw_k, [{"k": 1}, {"k": 5}, {"k": 1}, {"k": 9}])
    assert layered.last_layers == (1, 1) and layered.counts["whole"] == 0
    assert layered.rgba(draw_k(5)) is not None and layered.last == "reused"


def test_a_text_below_the_axes_draws_its_axes_whole():
    def draw_k(k):
        fig, (ax,) = _tiny()
        ax.text(0.5, 0.5, f"k = {k}", zorder=0.1, fontsize=20, ha="center")
        ax.plot([0, 1], [k, 0])
        ax.grid(True)
        return fig

    layered = _frames_equal_fresh(draw_k, [{"k": 1}, {"k": 2}])
    assert layered.last_layers == (0, 1)


def test_an_artist_drawn_with_the_axes_in_matplotlibs_default_order():
    """Without set_axisbelow(True), matplotlib puts the axes at zorder 1.5 and spines at 2.5:
    collections (zorder 1) come below them. Still the same picture."""

    def draw_k(k):
        fig = Figure(figsize=(2.4, 1.8), dpi=80)
        ax = fig.add_subplot()
        ax.scatter([0, 1, 2], [k, 1, 0], s=400)  # below the axes and grid
        ax.grid(True)
        return fig

    _frames_equal_fresh(draw_k, [{"k": 1}, {"k": 2}, {"k": 1}])


def test_overlapping_axes_are_drawn_as_matplotlib_draws_them():
    """The second Axes lies over the first: the first's data may not go on top of the second's
    background."""

    def draw_k(k):
        fig = Figure(figsize=(3, 2.4), dpi=80)
        ax = fig.add_axes((0.1, 0.1, 0.6, 0.6))
        ax.plot([0, 1], [0, k], lw=6)
        ax.text(0.9, 0.9, "over", fontsize=30, clip_on=False)
        inner = fig.add_axes((0.45, 0.45, 0.5, 0.5))
        inner.plot([0, 1], [1, 0])
        return fig

    layered = _frames_equal_fresh(draw_k, [{"k": 1}, {"k": 2}, {"k": 1}])
    assert layered.counts["whole"] == 3


def test_side_by_side_axes_with_a_legend_reaching_into_the_next():
    def draw_k(k, far):
        fig, (ax, ax2) = new_figure(2, width=5.0, height=2.0)
        ax.plot([0, 1], [0, k], label="a long label, over the next Axes" if far else "a")
        ax.legend(loc="upper left", bbox_to_anchor=(0.8 if far else 0.0, 1.0))
        ax2.plot([0, 1], [k, 0])
        return fig

    layered = _frames_equal_fresh(draw_k, [{"k": 1, "far": False}, {"k": 2, "far": True},
                                           {"k": 1, "far": False}])
    assert layered.counts["whole"] == 1


def test_inset_and_twin_axes():
    def draw_k(k):
        fig, (ax,) = _tiny()
        ax.plot([0, 1], [0, k])
        twin = ax.twinx()
        twin.plot([0, 1], [k, 0], color="C1")
        twin.set_ylim(0, 2 * k)
        inset = ax.inset_axes((0.6, 0.1, 0.3, 0.3))
        inset.plot([0, 1], [1, k])
        ax.set_title("twin")
        return fig

    _frames_equal_fresh(draw_k, [{"k": 1}, {"k": 2}, {"k": 1}])


def test_titles_that_make_way_for_an_offset_text():
    """A y offset text (x 1e6) pushes a title up; with the axes hidden matplotlib would not see
    it, so such an Axes is drawn whole."""

    def draw_k(k):
        fig, (ax,) = _tiny()
        ax.plot([0, 1], [1e6, 1e6 + k])
        ax.set_title("a title long enough to meet the offset text on the left side")
        return fig

    layered = _frames_equal_fresh(draw_k, [{"k": 1}, {"k": 2}])
    assert layered.last_layers == (0, 1)


def test_figure_artists_below_the_axes_and_layout_engines_draw_whole():
    def below(k):
        fig, (ax,) = _tiny()
        ax.plot([0, 1], [0, k])
        fig.add_artist(Rectangle((0, 0), 0.5, 1, color="0.8", zorder=-1,
                                 transform=fig.transFigure))
        return fig

    def constrained(k):
        fig = Figure(figsize=(2.4, 1.8), dpi=80, layout="constrained")
        fig.add_subplot().plot([0, 1], [0, k])
        return fig

    for draw_k in (below, constrained):
        layered = _frames_equal_fresh(draw_k, [{"k": 1}, {"k": 2}])
        assert layered.counts == {"whole": 2}


@pytest.mark.parametrize("figure_class", [BookFigure, Figure])
def test_aligned_axis_labels_follow_the_other_axes(figure_class):
    """align_xlabels puts both x labels below the lowest tick labels of the row: the left
    label moves when the right Axes' tick labels turn, though the left Axes is the same."""

    def draw_k(k):
        fig = figure_class(figsize=(6, 3), dpi=80)
        fig.subplots_adjust(bottom=0.45, wspace=0.5)
        ax, ax2 = fig.subplots(1, 2)
        ax.set_xlabel("left")
        ax2.set_xlabel("right")
        ax2.set_xticks([0, 1], ["zero", "one"])
        ax2.tick_params(labelrotation=90 if k else 0)
        fig.align_xlabels()
        return fig

    layered = _frames_equal_fresh(draw_k, [{"k": 0}, {"k": 1}, {"k": 0}])
    assert layered.last == "reused" and layered.last_layers == (2, 2)


def test_a_book_figure_knows_whether_its_labels_were_aligned():
    fig, _ = _tiny(2)
    assert fig.labels_aligned is False
    fig.align_labels()
    assert fig.labels_aligned is True
    fig, _ = _tiny(2)
    fig.align_ylabels()
    assert fig.labels_aligned is True


def test_figure_sizes_and_few_kept_layers():
    def draw_k(k, wide):
        fig = Figure(figsize=(3 if wide else 2, 2), dpi=70)
        fig.add_subplot().plot([0, 1], [0, k])
        return fig

    path = [{"k": 1, "wide": False}, {"k": 2, "wide": True}, {"k": 1, "wide": False},
            {"k": 2, "wide": True}]
    _frames_equal_fresh(draw_k, path, cache_size=1)


def test_pyplot_figures_lose_only_their_auto_redraw():
    def pyplot_draw(k):
        fig, ax = plt.subplots(figsize=(2.4, 1.8), dpi=60)
        ax.plot([0, 1], [0, k])
        return fig

    layered = LayeredRenderer()
    for k in (1, 2):
        fig = pyplot_draw(k)
        frame = layered.rgba(fig)
        assert fig.stale_callback is None
        plt.close(fig)
        reference = pyplot_draw(k)
        canvas = FigureCanvasAgg(reference)
        canvas.draw()
        _assert_same_picture(frame, np.asarray(canvas.buffer_rgba()), k)
        plt.close(reference)


def test_renderer_arguments_are_checked():
    with pytest.raises(ValueError, match="cache_size"):
        LayeredRenderer(cache_size=0)
    with pytest.raises(TypeError, match="Figure"):
        LayeredRenderer().rgba("not a figure")


# ----------------------------------------------------------------------------- plotting


@pytest.mark.parametrize("args, message", [
    ((0,), "ncols"), ((True,), "ncols"), ((1.5,), "ncols"),
    ((1,), "width"),
])
def test_new_figure_rejects_bad_sizes(args, message):
    kwargs = {"width": -1.0} if message == "width" else {}
    with pytest.raises(ValueError, match=message):
        new_figure(*args, **kwargs)


def test_new_figure_is_new_each_time_with_its_axes_below_the_data():
    (fig, axes), (again, _) = new_figure(2), new_figure(2)
    assert fig is not again and isinstance(fig, BookFigure) and len(axes) == 2
    assert all(ax.get_axisbelow() is True for ax in axes)


def test_a_book_figure_shows_itself_in_a_notebook_and_nothing_else_does():
    """IPython displays a BookFigure as the value of a cell (its own _repr_png_); nothing is
    registered for other figures: importing the drawing layer changes no IPython state."""
    from IPython.core.formatters import PNGFormatter

    fig, (ax,) = _tiny()
    ax.plot([0, 1], [0, 1])
    png = PNGFormatter()(fig)
    assert png == figure_png(fig) and Image.open(io.BytesIO(png)).format == "PNG"
    assert PNGFormatter()(Figure()) is None


def test_slider_grid_is_what_the_book_cases_expand_to():
    """The public grid function agrees with what explore expands (used by the chapters)."""
    for case in _book_cases():
        _, params = case.values
        expanded = sliders._expand_all(params, max_frames=10**6)
        assert slider_grid(**params) == {p.name: list(p.values) for p in expanded}
