"""explore() and its slider grids, live (ipywidgets) and static (HTML for the book).

How the frames are drawn is tested in tests/drawing/test_render.py.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import re
import selectors
import time
from html.parser import HTMLParser

import matplotlib

matplotlib.use("Agg")  # headless; must precede the pyplot import

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from perceptron_core.figures import sliders
from perceptron_core.figures.plotting import new_figure
from perceptron_core.figures.sliders import (STATIC_ENV_VAR, StaticExplorer, _expand, explore,
                                             slider_grid, slider_values)

SIZE = (3.2, 2.0)  # small figures keep the tests fast


def draw(gamma=0.1, seed=0):
    """Picture depends on both parameters."""
    fig = Figure(figsize=SIZE, dpi=50)
    ax = fig.add_subplot()
    rng = np.random.default_rng(seed)
    ax.plot(rng.normal(size=5) + gamma * 10)
    ax.set_title(f"{gamma} {seed}")
    return fig


def draw_ignoring_seed(gamma=0.1, seed=0):
    fig = Figure(figsize=SIZE, dpi=50)
    fig.add_subplot().axhline(gamma)
    return fig


@pytest.fixture(autouse=True)
def no_leftover_figures(monkeypatch):
    monkeypatch.delenv(STATIC_ENV_VAR, raising=False)
    plt.close("all")
    yield
    assert plt.get_fignums() == [], "explore left pyplot figures open"


def _data(ctrl: StaticExplorer) -> dict:
    m = re.search(r'<script type="application/json" class="pc-explore-data">(.*?)</script>',
                  ctrl._repr_html_(), re.S)
    return json.loads(m.group(1))

# ----------------------------------------------------------------------------- grids


def test_float_grid_has_no_drift_and_inclusive_stop():
    p = _expand("gamma", (0.05, 0.5, 0.05))
    assert p.values == [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
    assert p.labels[2] == "0.15" and p.values[2] == 0.15
    assert _expand("x", (0, 1, 0.1)).values[-1] == 1.0
    assert _expand("x", (0.0, 0.3, 0.1)).values == [0.0, 0.1, 0.2, 0.3]
    assert all(isinstance(v, float) for v in _expand("x", (0, 1, 0.25)).values)


def test_int_grid_stays_int():
    p = _expand("n", (1, 10, 3))
    assert p.values == [1, 4, 7, 10] and all(type(v) is int for v in p.values)
    assert p.kind == "int"
    assert _expand("n", (np.int64(0), np.int64(4), np.int64(2))).values == [0, 2, 4]


def test_initial_values():
    assert _expand("g", (0.05, 0.5, 0.05)).initial == 0
    p = _expand("g", (0.05, 0.5, 0.05, 0.25))
    assert p.values[p.initial] == 0.25
    assert _expand("s", ["a", "b"]).initial == 0
    live = explore(draw, gamma=(0.05, 0.5, 0.05, 0.3), seed=[2, 1], mode="live")
    assert live.values == {"gamma": 0.3, "seed": 2}
    static = explore(draw, gamma=(0.1, 0.3, 0.1, 0.2), seed=[2, 1], alt="a", mode="static")
    assert static.initial == (0.2, 2)


def test_single_point_grid():
    assert _expand("g", (0.5, 0.5, 0.1)).values == [0.5]



def test_slider_values_are_the_grid_explore_offers():
    assert slider_values((0.05, 0.2, 0.05)) == [0.05, 0.1, 0.15, 0.2]
    assert slider_values((0.05, 0.2, 0.05, 0.1)) == [0.05, 0.1, 0.15, 0.2]  # initial: not a value
    assert slider_values((1, 7, 3)) == [1, 4, 7] and all(type(v) is int for v in slider_values((1, 7, 3)))
    assert slider_values(["a", "b"]) == ["a", "b"]
    # The same values the live sliders snap to.
    ctrl = explore(draw_ignoring_seed, gamma=(0.1, 0.3, 0.1), alt="x", mode="live")
    assert slider_values((0.1, 0.3, 0.1)) == list(ctrl._params[0].values)


def test_slider_grid_expands_every_slider_in_order():
    grid = slider_grid(gamma=(0.1, 0.3, 0.1), seed=[2, 1])
    assert grid == {"gamma": [0.1, 0.2, 0.3], "seed": [2, 1]} and list(grid) == ["gamma", "seed"]


@pytest.mark.parametrize("call, message", [
    (lambda: slider_values((0, 1, 0.3)), "not start 0 plus a whole number of steps"),
    (lambda: slider_values((0, 1, 0.3), name="gamma"), "Parameter 'gamma'"),
    (lambda: slider_values(0.5), "unsupported form"),
    (lambda: slider_grid(), "at least one parameter"),
    (lambda: slider_grid(a=[1], b=[1], c=[1], d=[1]), "at most 3"),
])
def test_slider_grid_functions_explain_bad_specs(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()

# ----------------------------------------------------------------------------- live mode


class _Imgs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.imgs: list[dict] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.imgs.append(dict(attrs))


def _shown(ctrl) -> tuple[bytes, str]:
    """What a browser gets from the live figure: the one <img>'s PNG bytes and its alt text."""
    parser = _Imgs()
    parser.feed(ctrl.image.value)
    assert len(parser.imgs) == 1, ctrl.image.value[:200]
    src = parser.imgs[0]["src"]
    assert src.startswith("data:image/png;base64,")
    return base64.b64decode(src.split(",", 1)[1]), parser.imgs[0]["alt"]


def _widget_tree(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _widget_tree(child)


def test_live_updates_image_in_place_without_new_figures():
    import ipywidgets as widgets

    ctrl = explore(draw, gamma=(0.1, 0.5, 0.1), seed=[0, 1, 2], alt="g {gamma} s {seed}",
                   mode="live")
    assert isinstance(ctrl, widgets.VBox)
    assert isinstance(ctrl.controls["gamma"], widgets.FloatSlider)
    assert isinstance(ctrl.controls["seed"], widgets.SelectionSlider)
    assert ctrl.image in ctrl.children
    first = ctrl.png
    assert first.startswith(b"\x89PNG")
    assert _shown(ctrl) == (first, "g 0.1 s 0")
    n_children = len(ctrl.children)

    ctrl.controls["gamma"].value = 0.30000000000000004  # float drift from a frontend
    assert ctrl.values["gamma"] == 0.3
    assert ctrl.png != first
    assert _shown(ctrl) == (ctrl.png, "g 0.3 s 0")
    ctrl.controls["seed"].value = 2
    assert ctrl.values == {"gamma": 0.3, "seed": 2}
    assert len(ctrl.children) == n_children
    assert plt.get_fignums() == []


def test_live_picture_is_named_by_its_alt_text():
    """The <img> carries the alt text itself (its accessible name), escaped, for every frame."""
    ctrl = explore(draw_ignoring_seed, gamma=(0.1, 0.3, 0.1), seed=["a", "b"],
                   alt='Run "{seed}" with margin {gamma} < 1', mode="live")
    png, alt = _shown(ctrl)
    assert alt == 'Run "a" with margin 0.1 < 1' and ctrl.alt == alt
    assert png == ctrl.png and Image.open(io.BytesIO(png)).format == "PNG"
    parser = _Imgs()
    parser.feed(ctrl.image.value)
    img = parser.imgs[0]
    # The reserved box is the picture's own size, so swapping frames does not move the page.
    assert (int(img["width"]), int(img["height"])) == Image.open(io.BytesIO(png)).size
    assert "title" not in img and "aria-hidden" not in img and img.get("role") is None
    ctrl.controls["seed"].value = "b"
    ctrl.controls["gamma"].value = 0.2
    png2, alt2 = _shown(ctrl)
    assert alt2 == 'Run "b" with margin 0.2 < 1' and png2 != png and png2 == ctrl.png
    assert '"b"' not in ctrl.image.value  # the quotes are escaped, not closing the attribute


def test_live_picture_without_alt_still_has_a_name():
    ctrl = explore(draw, gamma=(0.1, 0.3, 0.1), seed=[7, 8], mode="live")
    assert _shown(ctrl)[1] == "Figure for gamma = 0.1, seed = 7"
    ctrl.controls["gamma"].value = 0.3
    assert _shown(ctrl)[1] == "Figure for gamma = 0.3, seed = 7"


def test_live_figure_needs_no_tooltip_support():
    """ipywidgets 8.1 front ends crash ("Failed to create view") on a widget whose tooltip is set
    but which has no description, such as Image: no widget of the figure may rely on that."""
    import ipywidgets as widgets

    ctrl = explore(draw_ignoring_seed, gamma=(0.1, 0.3, 0.1), seed=["a", "b"],
                   alt="g {gamma} s {seed}", mode="live")
    ctrl.controls["gamma"].value = 0.2
    for w in _widget_tree(ctrl):
        if getattr(w, "tooltip", None):
            assert w.has_trait("description"), f"{type(w).__name__} has a tooltip"
        assert not isinstance(w, widgets.Image)
    # Every control moves with the arrow keys in JupyterLab: sliders only, no Dropdown.
    assert all(isinstance(c, (widgets.IntSlider, widgets.FloatSlider, widgets.SelectionSlider))
               for c in ctrl.controls.values())


def test_live_reuses_rendered_frames_and_bounds_the_cache(monkeypatch):
    calls = []

    def counting_draw(n):
        calls.append(n)
        return draw(gamma=0.1 * n, seed=0)

    monkeypatch.setattr(sliders, "LIVE_CACHE_FRAMES", 3)
    ctrl = explore(counting_draw, n=(1, 5, 1), alt="n={n}", mode="live")
    first = ctrl.png
    ctrl.controls["n"].value = 2
    ctrl.controls["n"].value = 1  # back to a frame already drawn: no new draw
    assert calls == [1, 2] and ctrl.png == first and _shown(ctrl)[0] == first
    for n in (3, 4, 5):
        ctrl.controls["n"].value = n
    assert len(ctrl._frames) == 3 and calls == [1, 2, 3, 4, 5]
    ctrl.controls["n"].value = 1  # evicted as the oldest: drawn again
    assert calls[-1] == 1 and ctrl.png == first


def test_live_handles_pyplot_figures():
    def pyplot_draw(n):
        fig, ax = plt.subplots(figsize=SIZE, dpi=50)
        ax.plot(range(n))
        return fig

    ctrl = explore(pyplot_draw, n=(2, 6, 2), mode="live")
    assert plt.get_fignums() == []
    ctrl.controls["n"].value = 6
    assert plt.get_fignums() == []
    assert ctrl.values == {"n": 6}


def test_live_widget_kinds_and_repr():
    import ipywidgets as widgets

    ctrl = explore(draw_ignoring_seed, gamma=(1, 3, 1), seed=["small", "large"], mode="live")
    assert isinstance(ctrl.controls["gamma"], widgets.IntSlider)
    # Words get a slider too: arrow keys on a Dropdown move JupyterLab's cell selection.
    assert isinstance(ctrl.controls["seed"], widgets.SelectionSlider)
    assert ctrl.controls["seed"].options == (("small", "small"), ("large", "large"))
    # Plain-text repr is short and deterministic (nbval compares it).
    assert repr(ctrl) == "LiveExplorer(gamma=1, seed='small')"
    assert ctrl._repr_mimebundle_()["text/plain"] == repr(ctrl)


# ----------------------------------------------------------------------------- static mode


def test_static_has_one_frame_per_picture_and_every_combination():
    ctrl = explore(draw, gamma=(0.1, 0.3, 0.1), seed=[0, 1], alt="g {gamma} s {seed}",
                   mode="static")
    assert set(ctrl.frame_index) == {(g, s) for g in (0.1, 0.2, 0.3) for s in (0, 1)}
    # Six pictures (one panel each), each drawn for the light and for the dark theme; the dark
    # ones are stored as palettes for the light ones.
    assert len(ctrl.frames) == 6
    assert sorted(set(ctrl.frame_index.values())) == [(i,) for i in range(6)]
    assert len(ctrl.recolours) == 6
    assert sorted(set(ctrl.dark_index.values())) == [(-1 - r,) for r in range(6)][::-1]
    for png in ctrl.frames:
        assert Image.open(io.BytesIO(png)).format == "PNG"
    data = _data(ctrl)
    assert data["labels"] == [["0.1", "0.2", "0.3"], ["0", "1"]]
    assert len(data["index"]) == len(data["alts"]) == 6
    assert data["alts"][3] == "g 0.2 s 1"  # row-major: (gamma index 1, seed index 1)
    # The frame in <img src> is not shipped a second time.
    assert data["frames"].count(None) == 1


def test_static_dedupes_identical_pictures():
    ctrl = explore(draw_ignoring_seed, gamma=(1, 3, 1), seed=[0, 1, 2], alt="g {gamma}",
                   mode="static")
    assert len(ctrl.frame_index) == 9
    assert len(ctrl.frames) == len(ctrl.recolours) == 3  # 3 pictures, and their dark palettes
    assert ctrl.frame_index[(2, 0)] == ctrl.frame_index[(2, 2)]
    assert ctrl.dark_index[(2, 0)] == ctrl.dark_index[(2, 2)] != ctrl.frame_index[(2, 0)]


def test_static_markup():
    ctrl = explore(draw_ignoring_seed, gamma=(0.1, 0.2, 0.1), seed=["a<b", "c"], alt="margin {gamma} on {seed}",
                   mode="static")
    html = ctrl._repr_html_()
    assert html.count('type="range"') == 2
    assert html.count("<label for=") == 2
    assert 'aria-live="polite"' in html
    assert 'alt="margin 0.1 on a&lt;b"' in html
    assert "data:image/png;base64," in html
    assert "http://" not in html and "https://" not in html  # nothing to fetch
    first = re.search(r'<img class="pc-explore-img" src="data:image/png;base64,([^"]+)"', html)
    assert base64.b64decode(first.group(1)) == ctrl.frames[ctrl.frame_index[ctrl.initial][0]]
    assert repr(ctrl).startswith("StaticExplorer(gamma, seed")


def test_static_ids_are_unique():
    a = explore(draw, gamma=(0.1, 0.2, 0.1), alt="x", mode="static")
    b = explore(draw, gamma=(0.1, 0.2, 0.1), alt="x", mode="static")
    assert a.id != b.id
    assert f'id="{a.id}-0"' in a.html


def test_static_callable_alt_and_pyplot_figures():
    def pyplot_draw(n):
        fig, ax = plt.subplots(figsize=SIZE, dpi=50)
        ax.plot(range(n))
        return fig

    ctrl = explore(pyplot_draw, n=[2, 3], alt=lambda n: f"{n} points", mode="static")
    assert ctrl.alts == {(2,): "2 points", (3,): "3 points"}
    assert plt.get_fignums() == []


def test_static_frames_are_small():
    def book_sized(k):
        fig = Figure(figsize=(6.4, 4), dpi=96, layout="constrained")
        ax = fig.add_subplot()
        rng = np.random.default_rng(k)
        ax.scatter(*rng.normal(size=(2, 80)), c=rng.integers(0, 2, 80), cmap="coolwarm")
        ax.set_title(f"k = {k}")
        return fig

    ctrl = explore(book_sized, k=[0, 1], alt="scatter {k}", mode="static")
    assert max(len(f) for f in ctrl.frames) < 40_000


def test_env_var_selects_static(monkeypatch):
    assert not sliders.static_mode_requested()
    monkeypatch.setenv(STATIC_ENV_VAR, "1")
    assert sliders.static_mode_requested()
    assert isinstance(explore(draw, gamma=[0.1], alt="g {gamma}"), StaticExplorer)
    # An explicit mode wins over the environment.
    assert not isinstance(explore(draw, gamma=[0.1], mode="live"), StaticExplorer)
    monkeypatch.setenv(STATIC_ENV_VAR, "0")
    assert not sliders.static_mode_requested()

# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize("params, message", [
    ({}, "at least one parameter"),
    ({"g": (0.1, 0.5, 0)}, "step must be positive"),
    ({"g": (0.1, 0.5, -0.1)}, "step must be positive"),
    ({"g": (0.5, 0.1, 0.1)}, "stop 0.1 < start 0.5"),
    ({"g": (0, 1, 0.3)}, "not start 0 plus a whole number of steps"),
    ({"g": (0, 1)}, "not a tuple of 3 or 4 numbers"),
    ({"g": (0, 1, "a")}, "not a tuple of 3 or 4 numbers"),
    ({"g": 0.5}, "unsupported form"),
    ({"g": {"a": 1}}, "unsupported form"),
    ({"g": np.array([1, 2])}, "unsupported form"),
    ({"g": []}, "empty list"),
    ({"g": [1, 1]}, "repeated values"),
    ({"g": (0, 1, 0.1, 0.55)}, "not on the grid"),
    ({"a": [1], "b": [1], "c": [1], "d": [1]}, "at most 3"),
    ({"g": (0, 100, 1)}, "Coarsen the grid"),
    ({"g": (0, 1, 1e-12)}, "raise max_frames"),
    ({"g": (0, 9, 1), "s": list(range(7))}, "raise max_frames"),
])
def test_bad_params_raise_helpful_value_errors(params, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        explore(draw, alt="x", mode="live", **params)


def test_frame_budget_can_be_raised():
    ctrl = explore(draw_ignoring_seed, gamma=(0, 69, 1), alt="x", max_frames=70, mode="live")
    assert ctrl.values == {"gamma": 0}


def test_static_needs_alt_text():
    with pytest.raises(ValueError, match="pass alt="):
        explore(draw, gamma=[0.1], mode="static")
    with pytest.raises(ValueError, match="pass alt="):
        explore(draw, gamma=[0.1], alt="   ", mode="static")
    with pytest.raises(ValueError, match="alt text is empty"):
        explore(draw, gamma=[0.1], alt=lambda gamma: "", mode="static")


def test_alt_template_with_unknown_field():
    with pytest.raises(ValueError, match="could not be filled"):
        explore(draw, gamma=[0.1], alt="margin {margin}", mode="static")


def test_bad_mode_and_max_frames():
    with pytest.raises(ValueError, match="mode must be"):
        explore(draw, gamma=[0.1], mode="html")
    with pytest.raises(ValueError, match="max_frames"):
        explore(draw, gamma=[0.1], max_frames=0)


def test_draw_must_be_callable_and_return_a_figure():
    with pytest.raises(TypeError, match="draw must be a function"):
        explore("not a function", gamma=[0.1])
    with pytest.raises(TypeError, match="return fig"):
        explore(lambda gamma: None, gamma=[0.1], mode="live")
    with pytest.raises(TypeError, match="return fig"):
        explore(lambda gamma: plt.gca(), gamma=[0.1], alt="x", mode="static")
    plt.close("all")


def test_static_alt_text_cannot_break_out_of_the_script():
    ctrl = explore(draw_ignoring_seed, gamma=[1, 2], alt="a </script><!-- {gamma}", mode="static")
    html = ctrl._repr_html_()
    assert html.count("</script>") == 2  # the data block and the code, nothing from the alt
    assert _data(ctrl)["alts"] == ["a </script><!-- 1", "a </script><!-- 2"]


# ----------------------------------------------------------------------------- rendering, as explore uses it


def _tiny(ncols=1):
    return new_figure(ncols, width=2.4, height=1.8)


def _fresh(draw_function, values) -> np.ndarray:
    canvas = FigureCanvasAgg(draw_function(**values))
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy()


def test_live_draws_the_first_frame_and_one_step_along_each_slider_at_once():
    """One step along each slider is drawn with the first frame: it times a move (for
    continuous_update) and leaves the reader's likely first move in the cache."""

    def draw_k(k):
        fig, (ax,) = _tiny()
        ax.plot([0, 1], [0, k], color="C0")
        ax.set_ylim(0, 5)
        return fig

    ctrl = explore(draw_k, k=(1, 4, 1), alt="k = {k}", mode="live")
    assert set(ctrl._frames) == {(1,), (2,)}
    assert ctrl._source.renderer.last == "reused"  # the step kept the first frame's axes
    ctrl.controls["k"].value = 4
    png, _ = _shown(ctrl)
    assert png == ctrl._frames[(4,)]
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(png)).convert("RGBA")),
                          _fresh(draw_k, {"k": 4}))


def test_a_failed_frame_does_not_spoil_the_next():
    def draw_k(k):
        fig, (ax,) = _tiny()
        ax.plot([0, 1], [0, k], color="C0")
        if k == 2:
            raise RuntimeError("no frame for k = 2")
        return fig

    frames = sliders._Frames(draw_k)
    first = frames.rgba({"k": 1})
    with pytest.raises(RuntimeError, match="k = 2"):
        frames.rgba({"k": 2})
    assert np.array_equal(frames.rgba({"k": 3}), _fresh(draw_k, {"k": 3}))
    assert np.array_equal(frames.rgba({"k": 1}), first)


def test_frames_free_their_figures_at_once():
    """A frame's figure is freed when the frame is done, by a collection of the youngest
    generation: none is left for a full collection (100-200 ms in a notebook's session)."""
    import gc

    def draw_k(k):
        fig, (ax,) = _tiny()
        ax.plot([0, 1], [0, k])
        return fig

    gc.collect()
    frames = sliders._Frames(draw_k)
    for k in range(4):
        frames.rgba({"k": k})
    assert gc.isenabled()
    assert not [o for o in gc.get_objects() if isinstance(o, Figure)]
    gc.disable()  # a collector the caller turned off stays off
    try:
        frames.rgba({"k": 5})
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("alpha", [255, 128])
def test_fast_png_is_lossless(alpha):
    rng = np.random.default_rng(0)
    rgba = rng.integers(0, 256, size=(7, 5, 4), dtype=np.uint8)
    rgba[..., 3] = np.where(rng.random((7, 5)) < 0.5, alpha, 255)
    png = sliders._png_fast(rgba)
    img = Image.open(io.BytesIO(png))
    assert img.mode == ("RGB" if alpha == 255 else "RGBA")
    assert np.array_equal(np.asarray(img.convert("RGBA")), rgba)



class _WaitlessSelector(selectors.DefaultSelector):
    """Asked to wait up to ``timeout`` seconds for I/O, it moves a clock on by that much and
    only polls: the event loop's waits take no time."""

    def __init__(self):
        super().__init__()
        self.now = 0.0

    def select(self, timeout=None):
        if timeout is None:
            raise RuntimeError("the event loop would wait forever: nothing is scheduled")
        self.now += max(timeout, 0.0)
        return super().select(0)


class _VirtualTimeLoop(asyncio.SelectorEventLoop):
    """A kernel's event loop on a clock of its own: when nothing is ready to run, the clock jumps
    to the next timer (``loop.call_later``, ``asyncio.sleep``), and a callback (drawing a frame)
    takes no time on it. ``await asyncio.sleep(t)`` then runs, in order, exactly what falls due
    in the next ``t`` seconds, whatever the load of the machine."""

    def __init__(self):
        self._clock = _WaitlessSelector()
        super().__init__(self._clock)

    def time(self):
        return self._clock.now


def _run_in_virtual_time(coro):
    """Run ``coro`` on a :class:`_VirtualTimeLoop`; an exception in a scheduled callback (which
    a kernel would only log) fails the test."""
    loop = _VirtualTimeLoop()
    errors = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        result = loop.run_until_complete(coro)
    finally:
        loop.close()
    if errors:
        raise AssertionError(f"a scheduled callback failed: {errors[0]}") from errors[0].get("exception")
    return result


def test_virtual_time_loop_runs_timers_in_order_without_waiting():
    fired = []

    async def main():
        loop = asyncio.get_running_loop()
        wall = time.perf_counter()
        loop.call_later(30.0, fired.append, "b")
        loop.call_later(10.0, fired.append, "a")
        loop.call_later(50.0, fired.append, "c")
        await asyncio.sleep(40.0)
        assert fired == ["a", "b"] and loop.time() == pytest.approx(40.0)
        return time.perf_counter() - wall

    assert _run_in_virtual_time(main()) < 5.0  # 40 s on the loop's clock


def test_live_draws_the_next_step_ahead_in_a_kernel_loop(monkeypatch):
    """In a running event loop (a kernel's), a move schedules the next value in the same
    direction; a newer move cancels it; outside a loop nothing is scheduled."""
    draw_after, step_after = sliders.DRAW_AFTER_S, sliders.PREFETCH_AFTER_STEP_S
    # A move is drawn draw_after after it arrives, the next value step_after after that. The
    # second move below comes halfway between, so the drawing ahead that it cancels falls due
    # before the move itself is drawn (which is what shows that it was cancelled):
    assert step_after / 2 < draw_after
    calls = []

    def counting_draw(n):
        calls.append(n)
        return draw(gamma=0.1 * n, seed=0)

    ctrl = explore(counting_draw, n=(1, 6, 1), alt="n={n}", mode="live")
    ctrl.controls["n"].value = 2
    assert calls == [1, 2] and ctrl._pending is None  # no loop: no drawing ahead

    async def steps():
        ctrl.controls["n"].value = 3
        await asyncio.sleep(draw_after + step_after / 2)  # 3 drawn, 4 not yet drawn ahead
        assert calls == [1, 2, 3] and _shown(ctrl)[0] == ctrl._frames[(3,)]
        ctrl.controls["n"].value = 4  # before 4 is drawn ahead: cancels that, draws 4 itself
        await asyncio.sleep((step_after / 2 + draw_after) / 2)  # past when 4 was due ahead
        assert calls == [1, 2, 3]
        await asyncio.sleep(sliders.PREFETCH_AFTER_S * 4)

    _run_in_virtual_time(steps())
    assert calls == [1, 2, 3, 4, 5]  # 5 drawn ahead, once
    ctrl.controls["n"].value = 5
    assert calls == [1, 2, 3, 4, 5] and _shown(ctrl)[0] == ctrl._frames[(5,)]


def test_live_draws_ahead_along_the_slider_then_one_step_along_each_other(monkeypatch):
    """After a step, the next value along the same slider comes first, then one step along each
    other slider (towards its roomier side), one drawing at a time; a move cancels the rest."""
    draw_after, step_after = sliders.DRAW_AFTER_S, sliders.PREFETCH_AFTER_STEP_S
    calls = []

    def counting_draw(a, b, c):
        calls.append((a, b, c))
        fig, (ax,) = _tiny()
        ax.plot([0, 1, 2], [a, b, c], color="C0")
        ax.set_ylim(0, 5)
        return fig

    ctrl = explore(counting_draw, a=(0, 4, 1), b=(0, 3, 1, 3), c=(0, 2, 1, 1), alt="x",
                   mode="live")
    # The first frame, then one step along each slider: b sits at its top, so it steps down;
    # c is in the middle of its range, and a tie goes up.
    assert calls == [(0, 3, 1), (1, 3, 1), (0, 2, 1), (0, 3, 2)]
    del calls[:]

    async def step_then_wait():
        ctrl.controls["b"].value = 2  # a step down along b
        await asyncio.sleep(sliders.PREFETCH_AFTER_S * 6)

    _run_in_virtual_time(step_then_wait())
    # Shown (0, 2, 1), already drawn; then ahead along b (down), then c (from b on, wrapping
    # round to a), each step towards the roomier side.
    assert calls == [(0, 1, 1), (0, 2, 2), (1, 2, 1)]
    del calls[:]

    async def a_move_in_the_middle_of_the_queue():
        ctrl.controls["a"].value = 1  # shown from the cache: (1, 2, 1) was drawn ahead
        # Its queue, step_after apart: (2, 2, 1) ahead along a, then (1, 1, 1), (1, 2, 2).
        await asyncio.sleep(draw_after + step_after * 1.5)  # the first of them drawn
        assert calls == [(2, 2, 1)]
        ctrl.controls["c"].value = 0  # cancels the rest of that queue
        await asyncio.sleep(sliders.PREFETCH_AFTER_S * 6)

    _run_in_virtual_time(a_move_in_the_middle_of_the_queue())
    # The reader's own move, then only the queue of the last move: c cannot go further down,
    # so a (up), then b (down).
    assert calls[1:] == [(1, 2, 0), (2, 2, 0), (1, 1, 0)]


def test_live_moves_that_queue_up_are_drawn_once_at_their_last_value():
    """In a kernel, values that arrive together (a drag, a held key) give one drawing: the last."""
    calls = []

    def counting_draw(n):
        calls.append(n)
        return draw(gamma=0.1 * n, seed=0)

    ctrl = explore(counting_draw, n=(1, 9, 1), alt="n={n}", mode="live")
    assert calls == [1, 2]  # the first frame and one step along the slider

    async def drag():
        for n in (3, 4, 5, 6):
            ctrl.controls["n"].value = n
        assert calls == [1, 2] and ctrl.values == {"n": 1}  # nothing drawn yet
        # Drawn draw_after later; a jump is drawn ahead only PREFETCH_AFTER_S after that.
        await asyncio.sleep(sliders.DRAW_AFTER_S + sliders.PREFETCH_AFTER_S / 2)

    _run_in_virtual_time(drag())
    assert calls == [1, 2, 6] and ctrl.values == {"n": 6}
    png, alt = _shown(ctrl)
    assert png == ctrl._frames[(6,)] and alt == "n=6"


def test_roomier_step():
    p = sliders._expand("k", (0, 4, 1))
    assert [sliders._roomier_step(p, i) for i in range(5)] == [1, 2, 3, 2, 3]
