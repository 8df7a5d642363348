"""explore(): its slider grids, the live widget (ipywidgets) and the static control of the book,
the panels it cuts for a phone, and the pictures it shows, checked against fresh drawings."""

from __future__ import annotations

import base64
import gc
import io
import json
import re
import zlib
from html.parser import HTMLParser
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless; must precede the pyplot import

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from perceptron_core.figures import sliders, theme
from perceptron_core.figures.plotting import new_figure
from perceptron_core.figures.sliders import (STATIC_ENV_VAR, StaticExplorer, _expand, explore,
                                             slider_grid, slider_values)


def draw(gamma=0.1, seed=0):
    """A picture that depends on both parameters."""
    fig = Figure(figsize=(3.2, 2.0), dpi=50)
    ax = fig.add_subplot()
    ax.plot(np.random.default_rng(seed).normal(size=5) + gamma * 10)
    ax.set_title(f"{gamma} {seed}")
    return fig


def draw_ignoring_seed(gamma=0.1, seed=0):
    fig = Figure(figsize=(3.2, 2.0), dpi=50)
    fig.add_subplot().axhline(gamma)
    return fig


def two_panels(k=0, *, fig_text=False, stray=False):
    """Two panels side by side; ``k`` moves the data and widens the tick labels."""
    fig, (ax, ax2) = new_figure(2, width=6.0, height=2.6)
    ax.plot([0, 1, 2], [0, 1 + k, 0], label="up")
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title("left", fontsize=10)
    ax2.plot([0, 1], [0, 10 ** k])  # y tick labels up to 1, 10, 100: wider
    ax2.set_title("right", fontsize=10)
    if fig_text:
        fig.text(0.5, 0.01, "below both", ha="center", fontsize=10)
    if stray:  # drawn where no panel's tight box reaches
        ax.plot([1.05, 1.12], [0.5, 0.5], clip_on=False, transform=ax.transAxes)[0] \
            .set_in_layout(False)
    return fig


@pytest.fixture(autouse=True)
def no_leftover_figures(monkeypatch):
    monkeypatch.delenv(STATIC_ENV_VAR, raising=False)
    plt.close("all")
    yield
    assert plt.get_fignums() == [], "explore left pyplot figures open"


def fresh(draw_function, values, dark=False) -> np.ndarray:
    """The RGBA pixels of a fresh drawing, as plain matplotlib makes them."""
    fig = draw_function(**values)
    if dark:
        theme.to_dark(fig)
    with theme.dark() if dark else matplotlib.rc_context():
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        return np.asarray(canvas.buffer_rgba()).copy()


def rgb(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def _data(ctrl: StaticExplorer) -> dict:
    m = re.search(r'<script type="application/json" class="pc-explore-data">(.*?)</script>',
                  ctrl.html, re.S)
    return json.loads(m.group(1))


class _Imgs(HTMLParser):
    def __init__(self, markup):
        super().__init__()
        self.imgs = []
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.imgs.append(dict(attrs))


# ------------------------------------------------------------------------------------ grids


def test_grids_have_no_drift_an_inclusive_stop_ints_and_initial_values():
    p = _expand("gamma", (0.05, 0.5, 0.05, 0.25))
    assert p.values == [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
    assert p.labels[2] == "0.15" and p.values[p.initial] == 0.25
    assert _expand("x", (0.0, 0.3, 0.1)).values == [0.0, 0.1, 0.2, 0.3]
    assert all(isinstance(v, float) for v in _expand("x", (0, 1, 0.25)).values)
    n = _expand("n", (np.int64(1), 10, 3))
    assert n.values == [1, 4, 7, 10] and all(type(v) is int for v in n.values)
    assert _expand("g", (0.5, 0.5, 0.1)).values == [0.5]
    assert slider_values(["a", "b"]) == ["a", "b"]
    grid = slider_grid(gamma=(0.1, 0.3, 0.1), seed=[2, 1])
    assert grid == {"gamma": [0.1, 0.2, 0.3], "seed": [2, 1]} and list(grid) == ["gamma", "seed"]


@pytest.mark.parametrize("params, message", [
    ({}, "at least one parameter"),
    ({"g": (0.1, 0.5, 0)}, "step must be positive"),
    ({"g": (0.5, 0.1, 0.1)}, "stop 0.1 < start 0.5"),
    ({"g": (0, 1, 0.3)}, "not start 0 plus a whole number of steps"),
    ({"g": (0, 1)}, "not a tuple of 3 or 4 numbers"),
    ({"g": (0, 1, float("nan"))}, "NaN or inf"),
    ({"g": 0.5}, "unsupported form"),
    ({"g": np.array([1, 2])}, "unsupported form"),
    ({"g": []}, "empty list"),
    ({"g": [1, 1]}, "repeated values"),
    ({"g": (0, 1, 0.1, 0.55)}, "not on the grid"),
    ({"a": [1], "b": [1], "c": [1], "d": [1]}, "at most 3"),
    ({"g": (0, 100, 1)}, "Coarsen the grid"),
    ({"g": (0, 1, 1e-300)}, "raise max_frames"),
    ({"g": (0, 9, 1), "s": list(range(7))}, "raise max_frames"),
])
def test_bad_params_raise_helpful_value_errors(params, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        explore(draw, alt="x", mode="live", **params)


def test_bad_calls_are_explained():
    with pytest.raises(ValueError, match="pass alt="):
        explore(draw, gamma=[0.1], alt="   ", mode="static")
    with pytest.raises(ValueError, match="alt text is empty"):
        explore(draw, gamma=[0.1], alt=lambda gamma: "", mode="static")
    with pytest.raises(ValueError, match="could not be filled"):
        explore(draw, gamma=[0.1], alt="margin {margin}", mode="static")
    with pytest.raises(ValueError, match="mode must be"):
        explore(draw, gamma=[0.1], mode="html")
    with pytest.raises(ValueError, match="max_frames"):
        explore(draw, gamma=[0.1], max_frames=0)
    with pytest.raises(TypeError, match="draw must be a function"):
        explore("not a function", gamma=[0.1])
    with pytest.raises(TypeError, match="return fig"):
        explore(lambda gamma: None, gamma=[0.1], mode="live")
    with pytest.raises(ValueError, match="different sizes"):
        explore(lambda k: Figure(figsize=(2 + k, 2), dpi=20), k=[0, 1], alt="k", mode="static")
    assert explore(draw, gamma=(0, 69, 1), alt="x", max_frames=70, mode="live").values == \
        {"gamma": 0}


def test_env_var_selects_static(monkeypatch):
    assert not sliders.static_mode_requested()
    monkeypatch.setenv(STATIC_ENV_VAR, "1")
    assert isinstance(explore(draw, gamma=[0.1], alt="g {gamma}"), StaticExplorer)
    assert not isinstance(explore(draw, gamma=[0.1], mode="live"), StaticExplorer)  # mode wins
    monkeypatch.setenv(STATIC_ENV_VAR, "0")
    assert not sliders.static_mode_requested()


# ---------------------------------------------------------------------------------- live mode


def _shown(ctrl) -> tuple[bytes, str]:
    """What a browser gets from the live figure: the one <img>'s PNG bytes and its alt text."""
    (img,) = _Imgs(ctrl.image.value).imgs
    assert img["src"].startswith("data:image/png;base64,")
    png = base64.b64decode(img["src"].split(",", 1)[1])
    assert (int(img["width"]), int(img["height"])) == Image.open(io.BytesIO(png)).size
    return png, img["alt"]


def test_live_shows_the_drawing_of_the_sliders_values_in_place():
    import ipywidgets as widgets

    ctrl = explore(draw, gamma=(0.1, 0.5, 0.1), seed=[0, 1, 2], alt='g {gamma} "s" {seed}',
                   mode="live")
    assert isinstance(ctrl.controls["gamma"], widgets.FloatSlider)
    assert isinstance(ctrl.controls["seed"], widgets.SelectionSlider)  # arrow keys work on it
    assert not any(isinstance(w, widgets.Image) for w in ctrl.children)  # no tooltip crash
    n_children = len(ctrl.children)
    for name, value, values in [("gamma", 0.30000000000000004, {"gamma": 0.3, "seed": 0}),
                                ("seed", 2, {"gamma": 0.3, "seed": 2}),
                                ("gamma", 0.1, {"gamma": 0.1, "seed": 2})]:
        ctrl.controls[name].value = value  # a float from a front end drifts: snapped
        png, alt = _shown(ctrl)
        assert ctrl.values == values and png == ctrl.png
        assert alt == f'g {values["gamma"]} "s" {values["seed"]}' == ctrl.alt
        # The picture is the drawing of these values, pixel for pixel (a frame for the wrong
        # slider value fails here).
        assert np.array_equal(rgb(png), fresh(draw, values)[..., :3])
    assert '"s"' not in ctrl.image.value  # the quotes are escaped, not closing the attribute
    assert len(ctrl.children) == n_children
    assert repr(ctrl) == "LiveExplorer(gamma=0.1, seed=2)"


def test_live_names_a_picture_without_alt_and_closes_pyplot_figures():
    def pyplot_draw(n, s):
        fig, ax = plt.subplots(figsize=(2, 2), dpi=30)
        ax.plot(range(n))
        return fig

    ctrl = explore(pyplot_draw, n=(2, 6, 2), s=["a", "b"], mode="live")
    ctrl.controls["n"].value = 6
    assert _shown(ctrl)[1] == "Figure for n = 6, s = a"


def test_live_keeps_frames_bounded_and_a_failed_frame_does_not_spoil_the_next(monkeypatch):
    calls = []

    def counting_draw(n):
        calls.append(n)
        if n == 3:
            raise RuntimeError("no frame for n = 3")
        return draw(gamma=0.1 * n)

    monkeypatch.setattr(sliders, "LIVE_CACHE_FRAMES", 3)
    ctrl = explore(counting_draw, n=(1, 5, 1), alt="n={n}", mode="live")
    assert calls == [1, 2]  # the first frame and one step, which times a move
    first = ctrl.png
    ctrl.controls["n"].value = 1
    assert calls == [1, 2] and ctrl.png == first  # drawn already: not drawn again
    with pytest.raises(RuntimeError, match="n = 3"):
        ctrl.controls["n"].value = 3
    for n in (4, 5):
        ctrl.controls["n"].value = n
    assert len(ctrl._frames) == 3 and calls == [1, 2, 3, 4, 5]
    ctrl.controls["n"].value = 1  # the oldest, dropped: drawn again, the same
    assert calls[-1] == 1 and ctrl.png == first


def test_live_draws_a_step_along_each_slider_with_the_first_frame_and_no_more():
    """The first move of each slider finds its picture ready; nothing else is drawn ahead."""
    calls = []

    def counting_draw(a, b):
        calls.append((a, b))
        return draw(gamma=a, seed=b)

    explore(counting_draw, a=(0, 4, 1, 4), b=[0, 1, 2], alt="{a} {b}", mode="live")
    assert calls == [(4, 0), (3, 0), (4, 1)]  # at the end of a slider, the step is back


def test_frames_free_their_figures_at_once():
    """A frame's figure is freed when the frame is done, by a collection of the youngest
    generation: none is left for a full collection (100-200 ms in a notebook's session)."""
    gc.collect()
    paint = sliders._Painter(draw)
    for k in range(4):
        paint({"gamma": k})
    # type(), not isinstance(): a dead weakref.proxy among the objects raises ReferenceError
    # when isinstance() asks for its __class__.
    assert gc.isenabled() and not [o for o in gc.get_objects() if issubclass(type(o), Figure)]
    gc.disable()  # a collector the caller turned off stays off
    try:
        paint({"gamma": 5})
        assert not gc.isenabled()
    finally:
        gc.enable()


# -------------------------------------------------------------------------------- static mode


def test_static_pictures_are_the_drawings_of_their_values_in_both_themes():
    """Every grid point's pictures, light and dark, unpacked as the page's script unpacks them,
    are the fresh drawings of those values (up to the 256-colour palette): a frame for the
    wrong slider value, or the wrong theme, fails here."""
    ctrl = explore(two_panels, k=(0, 2, 1), alt="k = {k}", mode="static")
    (t, b, l0, r0, _), (_, _, l1, r1, _) = ctrl.panels
    for (k,) in ctrl.combos:
        for dark in (False, True):
            want = fresh(two_panels, {"k": k}, dark)[..., :3].astype(int)
            for got, (left, right) in zip(ctrl.picture((k,), dark), [(l0, r0), (l1, r1)]):
                assert got.shape == want[t:b, left:right].shape
                off = np.abs(got.astype(int) - want[t:b, left:right]).max(axis=2) > 24
                assert off.mean() < 0.003, (k, dark, off.mean())
    # The dark theme is the light pictures with another palette: no stream of its own.
    assert all(p["dark"][1] is p["light"][1] for p in ctrl.packs)


def test_static_data_and_markup():
    ctrl = explore(draw, gamma=(0.1, 0.3, 0.1), seed=[0, 1], alt="g {gamma} s {seed}<",
                   mode="static")
    assert set(ctrl.frame_index) == {(g, s) for g in (0.1, 0.2, 0.3) for s in (0, 1)}
    data = _data(ctrl)
    assert data["labels"] == [["0.1", "0.2", "0.3"], ["0", "1"]]
    assert data["alts"][3] == "g 0.2 s 1<"  # row-major, as the page's script reads it
    combos = [(g, s) for g in (0.1, 0.2, 0.3) for s in (0, 1)]  # every position, row-major
    assert data["index"] == data["dark"] == [list(ctrl.frame_index[c]) for c in combos]
    (panel,), ((top, bottom, left, right, _),) = data["panels"], ctrl.panels
    w, h = right - left, bottom - top
    assert (panel["w"], panel["h"], panel["n"], panel["first"]) == (w, h, 6, 0)
    # The page inflates the stream and reads picture k's row y at (y n + k) w.
    rows = np.frombuffer(zlib.decompress(base64.b64decode(panel["light"][1])), np.uint8)
    palette = np.frombuffer(base64.b64decode(panel["light"][0]), np.uint8).reshape(256, 3)
    k = data["index"][3][0]
    picture = palette[rows.reshape(h, 6, w)[:, k]]
    assert (picture == ctrl.picture((0.2, 1))[0]).all() and panel["dark"][1] is None
    html = ctrl.html
    assert html.count('type="range"') == html.count("<label for=") == 2
    assert 'aria-live="polite"' in html and 'alt="g 0.1 s 0&lt;"' in html
    assert "http://" not in html and "https://" not in html  # nothing to fetch
    (img,) = _Imgs(html).imgs  # the first frame, as a PNG, light and dark
    for src, dark in ((img["src"].split(",")[1], False), (panel["darkFirst"], True)):
        shown = rgb(base64.b64decode(src))
        assert np.abs(shown - ctrl.picture(ctrl.initial, dark)[0]).max() <= 8
    assert explore(draw, gamma=[0.1], alt="x", mode="static").id != \
        explore(draw, gamma=[0.1], alt="x", mode="static").id
    assert repr(ctrl) == "StaticExplorer(gamma, seed: 3x2 grid, 6 distinct frames)"


def test_static_stores_each_picture_once_and_packs_the_frames_small():
    ctrl = explore(draw_ignoring_seed, gamma=(1, 3, 1), seed=[0, 1, 2], alt="g {gamma}",
                   mode="static")
    assert ctrl.packs[0]["count"] == 3 and len(ctrl.frame_index) == 9
    assert ctrl.frame_index[(2, 0)] == ctrl.frame_index[(2, 2)]

    def book_sized(k):  # a slider's frames: the same points, one of them moved
        fig = Figure(figsize=(6.4, 4), dpi=96)
        points = np.random.default_rng(0).normal(size=(2, 80))
        points[:, 0] = k / 10
        ax = fig.add_subplot(xlim=(-3, 3), ylim=(-3, 3))
        ax.scatter(*points, c=np.arange(80) % 2)
        return fig

    one = explore(book_sized, k=[0], alt="{k}", mode="static").packs[0]["light"][1]
    many = explore(book_sized, k=(0, 19, 1), alt="{k}", mode="static").packs[0]["light"][1]
    assert len(one) < 40_000 and len(many) < 4 * len(one)  # 20 frames in the bytes of 4


def test_static_alt_text_cannot_break_out_of_the_script():
    ctrl = explore(draw_ignoring_seed, gamma=[1, 2], alt="a </script><!-- {gamma}", mode="static")
    assert ctrl.html.count("</script>") == 2  # the data block and the code, nothing from the alt
    assert _data(ctrl)["alts"] == ["a </script><!-- 1", "a </script><!-- 2"]


def test_a_dark_picture_that_takes_more_than_a_palette_is_stored_whole():
    def clash(k):  # white in the light theme; in the dark, the image stays white
        fig = Figure(figsize=(2, 2), dpi=40)
        fig.figimage(np.ones((40, 40 + 10 * k, 3)))  # images keep their colours
        return fig

    ctrl = explore(clash, k=[0, 1], alt="k", mode="static")
    assert ctrl.packs[0]["dark"][1] != ctrl.packs[0]["light"][1]
    assert np.abs(ctrl.picture((1,), dark=True)[0] - fresh(clash, {"k": 1}, dark=True)[..., :3]
                  ).max() <= 8


# ------------------------------------------------------------------------------- phone panels


def test_side_by_side_panels_are_cut_keep_one_size_and_lose_no_pixel():
    ctrl = explore(two_panels, k=(0, 2, 1), alt="k = {k}", mode="static")
    assert len(ctrl.panels) == 2
    (t, b, l0, r0, px0), (_, _, l1, r1, px1) = ctrl.panels
    assert r0 < l1  # side by side, not overlapping
    assert px0 == pytest.approx(7 * 100 / 72) and px1 == pytest.approx(10 * 100 / 72)
    for k in (0, 1, 2):  # outside the cuts, only the figure's background
        picture = fresh(two_panels, {"k": k})
        kept = np.zeros(picture.shape[:2], bool)
        kept[t:b, l0:r0] = kept[t:b, l1:r1] = True
        assert (picture[~kept] == 255).all()
    imgs = _Imgs(ctrl.html).imgs
    assert [img["alt"] for img in imgs] == ["k = 0", ""]  # the first describes the figure
    assert [float(img["data-pc-text-px"]) for img in imgs] == pytest.approx([px0, px1], abs=0.01)
    # Each shown no narrower than keeps its smallest text at 9 CSS px, never past its size.
    basis = [int(re.search(r"flex:\d+ 1 (\d+)px", img["style"]).group(1)) for img in imgs]
    assert basis[0] >= (r0 - l0) * 9 / px0 - 1 and basis[0] <= r0 - l0


@pytest.mark.parametrize("case", ["fig_text", "stray"])
def test_a_figure_that_cannot_be_cut_stays_whole(case):
    ctrl = explore(lambda k: two_panels(k, **{case: True}), k=[0, 1], alt="k", mode="static")
    assert [p[:4] for p in ctrl.panels] == [(0, 260, 0, 600)]


def test_slider_thumbs_are_targets_of_24_px():
    """WCAG 2.2's least target size, in the book's stylesheet. Chromium draws the thumb from
    ::-webkit-slider-thumb only when the input and the thumb both have appearance: none (else
    16 px, whatever the CSS); tests/book/test_phone.py measures the sliders on a phone."""
    css = (Path(__file__).parents[2] / "book" / "_static" / "book.css").read_text()
    rules = {k.strip(): re.sub(r"\s+", "", v) for k, v in re.findall(r"([^{}/]+)\{([^}]*)\}", css)}
    for thumb in (".pc-explore-range::-webkit-slider-thumb", ".pc-explore-range::-moz-range-thumb"):
        assert "width:24px" in rules[thumb] and "height:24px" in rules[thumb]
    assert "appearance:none" in rules[".pc-explore-range::-webkit-slider-thumb"]
    assert "appearance:none" in rules[".pc-explore-range"]
    assert "height:24px" in rules[".pc-explore-range"]


def test_an_explorable_brings_its_sliders_and_alt_text_and_the_call_overrides_them():
    from perceptron_core.figures import Explorable

    figure = Explorable(draw, dict(gamma=(0.1, 0.5, 0.1), seed=[0, 1]), alt="g {gamma} s {seed}")
    ctrl = explore(figure, mode="live")
    assert ctrl.values == {"gamma": 0.1, "seed": 0} and ctrl.alt == "g 0.1 s 0"
    ctrl = explore(figure, seed=[2, 3], alt="only {seed}", mode="live")
    assert set(ctrl.controls) == {"gamma", "seed"}
    assert ctrl.values == {"gamma": 0.1, "seed": 2} and ctrl.alt == "only 2"
    with pytest.raises(ValueError, match="alt text"):
        explore(Explorable(draw, dict(gamma=(0.1, 0.5, 0.1))), mode="static")
