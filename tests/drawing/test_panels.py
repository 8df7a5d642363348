"""Cutting a figure into its panels (perceptron_core.figures.panels) and how a static control
shows them: nothing of the picture lost, sizes that do not jump, the smallest text known."""

from __future__ import annotations

import base64
import io
import json
import math
import re

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

from perceptron_core.figures import panels
from perceptron_core.figures.plotting import new_figure
from perceptron_core.figures.sliders import explore

DPI = 100  # new_figure's figures: matplotlib's default dpi


def two_panels(k=0, *, legend_pt=9.0, fig_text=False, long_title=False, stray=False):
    """Two panels side by side; ``k`` moves the data and widens the tick labels."""
    fig, (ax, ax2) = new_figure(2, width=6.0, height=2.6)
    ax.plot([0, 1, 2], [0, 1 + k, 0], label="up", zorder=2)
    ax.legend(fontsize=legend_pt, loc="upper left")
    ax.set_title("left" if not long_title else "a title far too long for one panel " * 3,
                 fontsize=10)
    ax2.plot([0, 1], [0, 10 ** k], zorder=2)  # y tick labels up to 1, 10, 100: wider
    ax2.set_title("right", fontsize=10)
    if fig_text:
        fig.text(0.5, 0.01, "below both", ha="center", fontsize=10)
    if stray:  # drawn where no panel's tight box reaches
        line = ax.plot([1.05, 1.12], [0.5, 0.5], clip_on=False, transform=ax.transAxes,
                       zorder=2)[0]
        line.set_in_layout(False)
    return fig


def _drawn(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy(), panels.measure(fig, canvas.get_renderer())


def _cut(*figs):
    drawn = [_drawn(f) for f in figs]
    return panels.panels([m for _, m in drawn], [p for p, _ in drawn]), [p for p, _ in drawn]


def test_side_by_side_axes_are_cut_into_panels_and_lose_no_pixel():
    cut, pictures = _cut(*(two_panels(k) for k in range(3)))
    assert len(cut) == 2
    assert cut[0].right <= cut[1].left
    for rgba in pictures:
        # Put the panels back on a blank picture of the background: the whole picture again.
        rebuilt = np.empty_like(rgba)
        rebuilt[...] = (255, 255, 255, 255)
        for p in cut:
            rebuilt[p.top:p.bottom, p.left:p.right] = rgba[p.top:p.bottom, p.left:p.right]
        assert np.array_equal(rebuilt, rgba)
        # The panels are trimmed: the figure's empty margins are left out.
        assert sum(p.width for p in cut) < rgba.shape[1]


def test_panels_keep_one_size_over_every_frame():
    """Each frame's content fits the same boxes, which hold the widest tick labels of all."""
    frames = [_drawn(two_panels(k)) for k in range(3)]
    cut = panels.panels([m for _, m in frames], [p for p, _ in frames])
    for _, m in frames:
        for p, (left, right) in zip(cut, m.columns):
            assert p.left <= left and right <= p.right
    alone = panels.panels([frames[0][1]], [frames[0][0]])
    assert cut[1].width > alone[1].width  # the 0..100 tick labels are wider than 0..1


def test_smallest_text_is_the_smallest_font_in_pixels():
    cut, _ = _cut(two_panels(legend_pt=7.0))
    assert cut[0].text_px == pytest.approx(7.0 * DPI / 72)
    assert cut[1].text_px == pytest.approx(10.0 * DPI / 72)  # its title and default ticks
    p = cut[0]
    assert p.readable_width() == math.ceil(p.width * 9 / (7.0 * DPI / 72))


@pytest.mark.parametrize("case", ["fig_text", "long_title", "stray"])
def test_a_figure_that_cannot_be_cut_stays_whole(case):
    """Figure-level text belongs to no panel; a title across both panels would be cut in two;
    an artist outside every tight box would be lost (the pixel check finds it)."""
    cut, (rgba,) = _cut(two_panels(**{case: True}))
    assert len(cut) == 1
    p = cut[0]
    outside = np.ones(rgba.shape[:2], dtype=bool)
    outside[p.top:p.bottom, p.left:p.right] = False
    assert np.all(rgba[outside] == 255)


def test_frames_that_disagree_on_their_panels_stay_whole():
    one, _ = new_figure(1, width=6.0, height=2.6)
    one.axes[0].plot([0, 1])
    cut, _ = _cut(two_panels(), one)
    assert len(cut) == 1


# ------------------------------------------------------------------ the static control


def _images(html: str) -> list[dict]:
    return [dict(re.findall(r'([\w-]+)="([^"]*)"', tag)) for tag in re.findall(r"<img class=[^>]*>", html)]


def test_static_control_shows_one_picture_per_panel_the_first_carrying_the_alt_text():
    ctrl = explore(two_panels, k=[0, 1, 2], alt="two panels at {k}", mode="static")
    assert len(ctrl.panels) == 2
    images = _images(ctrl.html)
    assert [img["class"] for img in images] == ["pc-explore-img"] * 2
    assert images[0]["alt"] == "two panels at 0" and images[1]["alt"] == ""
    data = json.loads(re.search(r'class="pc-explore-data">(.*?)</script>', ctrl.html).group(1))
    assert data["shown"] == list(ctrl.frame_index[(0,)])
    for img, panel, frame in zip(images, ctrl.panels, ctrl.frame_index[(0,)]):
        png = base64.b64decode(img["src"].split(",", 1)[1])
        assert png == ctrl.frames[frame]
        assert Image.open(io.BytesIO(png)).size == (panel.width, panel.bottom - panel.top)
        assert (int(img["width"]), int(img["height"])) == (panel.width, panel.bottom - panel.top)
        assert float(img["data-pc-text-px"]) == pytest.approx(panel.text_px, abs=0.01)
        # Side by side from the width that keeps its text readable; never wider than drawn.
        grow, shrink, basis = re.match(r"flex:(\d+) 1 (\d+)px", img["style"]).group(1, 0, 2)
        assert int(grow) == panel.width and int(basis) >= panel.readable_width()
        assert f"max-width:min(100%,{panel.width}px)" in img["style"]
    # ... at one scale, though their smallest texts differ (a 9 pt legend, 10 pt ticks): both
    # start at the same fraction of their width, and grow in proportion to it.
    assert ctrl.panels[0].text_px != ctrl.panels[1].text_px
    starts = [int(re.search(r" 1 (\d+)px", img["style"]).group(1)) / p.width
              for img, p in zip(images, ctrl.panels)]
    assert max(starts) - min(starts) < 0.01, starts


def test_static_control_stores_a_panel_that_does_not_change_once():
    def right_fixed(k):
        fig = two_panels(0)
        fig.axes[0].set_title(f"left {k}", fontsize=10)
        return fig

    ctrl = explore(right_fixed, k=[0, 1, 2], alt="left {k}", mode="static")
    assert len(ctrl.panels) == 2
    assert len({ctrl.frame_index[(k,)][0] for k in range(3)}) == 3
    assert len({ctrl.frame_index[(k,)][1] for k in range(3)}) == 1
    assert len({ctrl.dark_index[(k,)][1] for k in range(3)}) == 1
    assert len(ctrl.frames) == 4  # 3 left and 1 right panel
    assert len(ctrl.recolours) == 4  # ... and the same in the dark theme


def test_static_control_pictures_are_the_figure_cut():
    ctrl = explore(two_panels, k=[1], alt="k {k}", mode="static")
    rgba, _ = _drawn(two_panels(1))
    for panel, frame in zip(ctrl.panels, ctrl.frame_index[(1,)]):
        got = np.asarray(Image.open(io.BytesIO(ctrl.frames[frame])).convert("RGBA"))
        want = rgba[panel.top:panel.bottom, panel.left:panel.right]
        # The palette keeps flat plot colours exactly; anti-aliased edges may move a little.
        assert np.mean(np.all(got == want, axis=2)) > 0.97


def test_draw_of_changing_size_is_refused():
    def grows(k):
        fig, (ax,) = new_figure(1, width=3.0 + k, height=2.0)
        ax.plot([0, 1], zorder=2)
        return fig

    with pytest.raises(ValueError, match="same figsize"):
        explore(grows, k=[0, 1], alt="k {k}", mode="static")


def test_dark_pictures_stored_as_palettes_are_the_dark_drawing():
    """A dark panel is its light twin's PNG with another palette (built as the page builds it):
    decoded, it is the figure drawn for the dark theme, but for a few anti-aliased pixels."""
    from perceptron_core.figures import theme
    from perceptron_core.figures.render import LayeredRenderer

    ctrl = explore(two_panels, k=[0, 1, 2], alt="k {k}", mode="static")
    assert ctrl.recolours
    for k in range(3):
        fig = theme.to_dark(two_panels(k))
        with theme.dark():
            truth = LayeredRenderer().rgba(fig)
        for panel, entry in zip(ctrl.panels, ctrl.dark_index[(k,)]):
            got = np.asarray(Image.open(io.BytesIO(ctrl.dark_png(entry))).convert("RGBA"))
            want = truth[panel.top:panel.bottom, panel.left:panel.right]
            off = np.abs(got.astype(int) - want.astype(int)).max(axis=2) > 24
            assert off.mean() < 0.005, (k, off.mean())
            # The corner is the dark page, exactly.
            assert tuple(got[1, 1, :3]) == (0x12, 0x12, 0x12)


def test_a_dark_picture_the_light_palette_cannot_make_is_stored_whole():
    """Text and a line in the same light colour, but a different dark one (text needs 4.5:1,
    a line 3:1): no palette of the light picture gives both, so the dark one is a picture."""
    def same_colour(k):
        fig, (ax,) = new_figure(1, width=3.0, height=2.0)
        ax.plot([0, 1], [0, k], color="#7a3fa0", lw=8, zorder=2)
        ax.text(0.1, 0.5, "█" * 12, color="#7a3fa0", fontsize=20)
        return fig

    ctrl = explore(same_colour, k=[1], alt="k {k}", mode="static")
    (entry,) = ctrl.dark_index[(1,)]
    assert entry >= 0 and entry != ctrl.frame_index[(1,)][0]
    assert not ctrl.recolours
