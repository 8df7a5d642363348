"""perceptron_core.playground, the Python side of the playground: no browser, no kernel.

- every argument is checked at the boundary, with a message that says what to change;
- the presets are the package's own data sets, and every claim of their notes holds;
- the live widget's traits are the model's keys: points and labels written as the module writes
  them come back as ``widget.X`` and ``widget.y``; a bad value changes nothing;
- ``run()``, ``margin()``, ``radius()`` and ``bound()`` are the package's, on the points the run sees;
- the static HTML holds one JSON state (which parses back to the state, whatever the strings in
  it), the module's whole text and the ``mountStatic()`` call, and nothing that ends the
  ``<script>`` elements early; importing the package never imports anywidget.
"""

from __future__ import annotations

import html.parser
import json
import subprocess
import sys
import warnings
from decimal import ROUND_FLOOR, Decimal

import numpy as np
import pytest

import perceptron_core as pc
from perceptron_core import playground as pgm
from perceptron_core.playground import MAX_POINTS, MODEL_KEYS, MODULE_PATH, StaticPlayground, playground

BUILTIN = ["planted", "and", "or", "xor", "wedge", "iris"]
FOUR = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
BAD_CALLS = [  # (keyword arguments of playground, exception, what the message must say)
    (dict(X=[[1.0, 2.0, 3.0]], y=[1]), ValueError, r"3 features.*the plane.*X\[:, :2\]"),
    (dict(X=np.zeros((0, 3)), y=[]), ValueError, r"3 features"),
    (dict(X=[[0.0, np.nan]], y=[1]), ValueError, r"NaN or inf"),
    (dict(X=[["a", "b"]], y=[1]), TypeError, r"text.*pass numbers"),
    (dict(X=[[1e152, 0.0]], y=[1]), ValueError, r"beyond 1e\+150.*rescale"),
    (dict(X=np.ones((MAX_POINTS + 1, 2)), y=np.ones(MAX_POINTS + 1)), ValueError, r"201 points.*at most 200"),
    (dict(X=FOUR, y=[0, 0, 0, 1]), ValueError, r"2\*y - 1"),
    (dict(X=FOUR, y=[1, -1, 1]), ValueError, r"4 samples but y has 3 labels"),
    (dict(X=FOUR, y=[]), ValueError, r"4 points but y has 0 labels"),
    (dict(X=FOUR), ValueError, r"pass both X and y.*got only X"),
    (dict(tie="maybe"), ValueError, r"tie must be one of \['mistake', 'positive', 'negative'\]"),
    (dict(c=0.0), ValueError, r"c must lie in \(0, 1e\+150\].*c=1"),
    (dict(c=float("nan")), ValueError, r"c must be a finite number"),
    (dict(c="1"), TypeError, r"c must be a real number"),
    (dict(target=1.0), ValueError, r"target must lie in \(0, 1\).*Balcan's is 0.5"),
    (dict(max_epochs=0), ValueError, r"from 1 to 10000 \(MAX_EPOCHS\)"),
    (dict(max_epochs=True), ValueError, r"whole number"),
    (dict(offset="yes"), TypeError, r"offset must be True or False"),
    (dict(title=" "), ValueError, r"title must be a non-empty string.*accessible name"),
    (dict(title=3), TypeError, r"title must be a string"),
    (dict(preset="nand"), ValueError, r"preset must be one of \['planted', 'and', 'or', 'xor', 'wedge', 'iris'\]"),
    (dict(presets=["and", "nope"]), ValueError, r"a preset name must be one of"),
    (dict(presets="and"), TypeError, r"presets must be a list"),
    (dict(presets=["and", "and"], preset="and"), ValueError, r"unique"),
    (dict(presets=[{"name": "mine", "points": [[1.0, 1.0]], "labels": [1]}], preset="mine"), ValueError, r"the keys"),
    (dict(presets=[{"name": "m", "title": "M", "note": "N.", "points": [[1.0, 1.0, 1.0]], "labels": [1]}], preset="m"),
     ValueError, r"the points of preset 'm'.*the plane"),
    (dict(mode="dynamic"), ValueError, r"mode must be None.*'live' or 'static'"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_CALLS)
def test_every_bad_argument_is_refused_with_what_to_do(kwargs, error, message):
    with pytest.raises(error, match=message):
        playground(**{"mode": "static", **kwargs})


def test_good_arguments_and_the_static_constructor():
    pg = playground(np.array([[1, 2], [-3, 4]]), np.array([1, -1]), tie="positive", offset=True, c=2, margin_target=True,
                    target=0.25, max_epochs=10_000, title="Mine", presets=["xor"], mode="static")
    st = pg.state
    assert list(st) == list(MODEL_KEYS) and st["points"] == [[1.0, 2.0], [-3.0, 4.0]] and st["labels"] == [1, -1]
    assert [st[k] for k in ("tie", "offset", "c", "margin_target", "target", "max_epochs", "title", "preset")] == \
        ["positive", True, 2.0, True, 0.25, 10_000, "Mine", ""]
    assert playground([], [], mode="static").X.shape == (0, 2)
    mine = {"name": "mine", "title": "Mine", "note": "Two.", "points": [[3.0, 1.0], [-1.0, -2.0]], "labels": [1, -1]}
    assert playground(preset="mine", presets=["and", mine], mode="static").X.tolist() == mine["points"]
    for bad, error in (({"colour": "red"}, ValueError), ({"points": [[1, 1]], "labels": []}, ValueError), ([("tie", 1)], TypeError)):
        with pytest.raises(error):
            StaticPlayground(bad)


def _data(name):
    p = next(p for p in pgm.presets() if p["name"] == name)
    return np.array(p["points"], float).reshape(-1, 2), np.array(p["labels"], float), p


def test_the_presets_are_the_package_data_and_their_notes_hold():
    expected = {"planted": pc.planted(20, 2, 0.25, seed=0)[:2], "and": pc.logic_gate("and"), "or": pc.logic_gate("or"),
                "xor": pc.xor(), "wedge": pc.narrow_wedge(3), "iris": pc.iris_pair("setosa", "versicolor", features=(2, 3))}
    for name in BUILTIN:
        X, y, p = _data(name)
        assert np.array_equal(X, expected[name][0]) and np.array_equal(y, expected[name][1])
        assert p["note"].endswith(".") and ". " not in p["note"] and p["title"].strip()
        xmin, xmax, ymin, ymax = p["view"]
        assert xmin < min(0, *X[:, 0]) and max(0, *X[:, 0]) < xmax and ymin < min(0, *X[:, 1]) and max(0, *X[:, 1]) < ymax
    X, y, p = _data("planted")
    assert pc.radius(X) <= 1 and pc.max_margin(X, y).gamma_low >= 0.25 and pc.perceptron(X, y).mistakes <= 16
    assert "the bound is at most (1/0.25)² = 16 (the readout's" in p["note"] and pc.novikoff_bound(pc.radius(X), pc.max_margin(X, y).gamma_low) < 16
    for name, offset in (("and", True), ("or", True), ("xor", False), ("iris", True)):
        X, y, p = _data(name)
        assert pc.separability(X, y).separable is False and pc.separability(X, y, offset=True).separable is offset
    X, y, p = _data("wedge")
    # The margin to the 4 digits the page shows.
    assert "about 0.0456" in p["note"] and abs(pc.max_margin(X, y).gamma_low - 0.0456) < 5e-5
    assert "33 mistakes" in p["note"] and pc.perceptron(X, y).mistakes == 33
    X4, y4 = pc.narrow_wedge(4)  # "each extra bit roughly halves the margin and doubles the mistakes"
    assert 0.45 < pc.max_margin(X4, y4).gamma_low / pc.max_margin(X, y).gamma_low < 0.55 and 1.9 < pc.perceptron(X4, y4).mistakes / 33 < 2.1
    X, y, p = _data("iris")
    assert f"after {pc.perceptron(pc.augment(X, 1.0), y).mistakes} mistakes" in p["note"]


@pytest.mark.parametrize("seed", range(8))
def test_a_view_fitted_to_any_points_shows_them_and_the_origin(seed):
    rng = np.random.default_rng(seed)
    X = (rng.standard_normal((int(rng.integers(1, 30)), 2)) + rng.standard_normal(2) * 5) * 10.0 ** rng.integers(-6, 7)
    xmin, xmax, ymin, ymax = playground(X, np.ones(len(X)), mode="static").state["view"]
    assert xmin < min(0, *X[:, 0]) and max(0, *X[:, 0]) < xmax and ymin < min(0, *X[:, 1]) and max(0, *X[:, 1]) < ymax


def _widget():
    pytest.importorskip("anywidget")
    return playground(preset="and", mode="live")


def test_the_widget_is_an_anywidget_and_its_traits_are_the_model():
    import anywidget

    widget = _widget()
    assert isinstance(widget, anywidget.AnyWidget) and widget._esm == MODULE_PATH.read_text(encoding="utf-8")
    assert set(MODEL_KEYS) <= set(widget.keys) and widget.state == playground(preset="and", mode="static").state
    # From the front end, as ipywidgets applies a message from the page: JSON numbers, then a pair
    # sent in two updates (between them, X says what to do).
    widget.set_state({"points": [[0, 0], [0.5, -1.25]], "labels": [1, -1], "preset": ""})
    assert widget.X.tolist() == [[0.0, 0.0], [0.5, -1.25]] and widget.y.tolist() == [1.0, -1.0]
    widget.set_state({"points": [[0, 0], [0.5, -1.25], [3, 4]]})
    with pytest.raises(ValueError, match=r"3 points but 2 labels.*set_data\(X, y\)"):
        widget.X
    X, y = pc.iris_pair("setosa", "versicolor", features=(0, 1))
    widget.set_data(X, y)
    assert np.array_equal(widget.X, X) and np.array_equal(widget.y, y) and widget.preset == ""
    assert type(widget)().X.shape == (0, 2) and [p["name"] for p in type(widget)().presets] == BUILTIN


@pytest.mark.parametrize(("key", "value", "error"), [
    ("points", [[1.0, 2.0, 3.0]], ValueError), ("labels", [1, 0], ValueError), ("tie", "sometimes", ValueError),
    ("c", "big", TypeError), ("max_epochs", 0, ValueError), ("view", [1.0, -1.0, 0.0, 1.0], ValueError),
    ("preset", "nand", ValueError), ("presets", ["xor"], ValueError)])
def test_a_bad_trait_value_is_refused_and_changes_nothing(key, value, error):
    from traitlets import TraitError

    widget = _widget()
    before = widget.state
    with pytest.raises(error) as info:
        setattr(widget, key, value)
    assert isinstance(info.value, TraitError)  # so that traitlets undoes the rest of an update
    with pytest.raises(error):
        widget.set_state({"offset": True, key: value})
    assert widget.state == before


@pytest.mark.parametrize("name", BUILTIN)
@pytest.mark.parametrize("offset", [False, True])
def test_run_margin_radius_and_bound_are_the_packages(name, offset):
    X, y, _ = _data(name)
    Z = pc.augment(X, 2.0) if offset else X
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        for tie in ("mistake", "positive", "negative"):
            got = playground(preset=name, tie=tie, offset=offset, c=2.0, max_epochs=30, mode="static").run()
            want = pc.perceptron(Z, y, tie=tie, max_epochs=30, record=True)
            assert np.array_equal(got.history.weights, want.history.weights) and np.array_equal(got.w, want.w)
        pg = playground(preset=name, offset=offset, c=2.0, margin_target=True, target=0.3, mode="static")
        if pc.separability(Z, y).separable:
            gamma = pc.max_margin(Z, y).gamma_low
            assert pg.margin().gamma_low == gamma and pg.radius() == pc.radius(Z)
            # The run aims at the certified γ rounded down to 4 digits, as the page does, and
            # the bound is that run's.
            d = Decimal(gamma)
            aimed = float(d.quantize(Decimal(1).scaleb(d.adjusted() - 3), rounding=ROUND_FLOOR))
            assert aimed <= gamma and pg.bound() == pc.margin_perceptron_bound(pc.radius(Z), aimed, 0.3)
            assert np.array_equal(pg.run().w, pc.margin_perceptron(Z, y, aimed, target=0.3, max_epochs=100).w)
            assert pg.run().updates <= pg.bound()
            assert pg.run().mistakes <= pg.run().updates  # the count the page labels Mistakes
        else:
            for call in (pg.run, pg.bound):
                with pytest.raises(ValueError, match="no positive margin.*Turn margin_target off"):
                    call()
    with pytest.raises(ValueError, match=r"no points, so there is no run: add some \(pass them: playground\(X, y\)\)\."):
        playground([], [], mode="static").run()


class _Scripts(html.parser.HTMLParser):
    """The elements and the text of <script> and <noscript> as a browser's parser splits them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.structure, self.text, self._open = [], {}, None

    def handle_starttag(self, tag, attrs):
        self.structure.append(tag)
        self._open = tag if tag in ("script", "noscript") else None

    def handle_endtag(self, tag):
        self.structure.append("/" + tag)

    def handle_data(self, data):
        if self._open:
            self.text.setdefault(len(self.structure), "")
            self.text[len(self.structure)] += data


HOSTILE = "</script><script>alert(1)</script> <!-- <SCRIPT> </ScRiPt"


def test_the_static_html_holds_the_state_once_the_module_and_the_mount_call():
    mine = {"name": "mine", "title": HOSTILE, "note": HOSTILE, "points": [[1.0, 2.0]], "labels": [1]}
    pg = playground(preset="and", title=HOSTILE, presets=BUILTIN + [mine], mode="static")
    parser = _Scripts()
    parser.feed(pg._repr_html_())
    assert parser.structure == ["div", "script", "/script", "noscript", "/noscript", "/div", "script", "/script"]
    data, noscript, module = (parser.text[k] for k in (2, 4, 7))
    assert json.loads(data) == pg.state and "<" not in data  # parses back, hostile strings and all
    assert module == MODULE_PATH.read_text(encoding="utf-8") + "\nmountStatic();\n"
    assert "needs JavaScript" in noscript and "4 points in the plane (1 labelled +1, 3 labelled −1)" in noscript
    assert "Through the origin they are not separable; with an offset they are separable." in noscript
    assert pg._repr_mimebundle_()["text/plain"].endswith("with an offset they are separable.")
    assert MODULE_PATH.stat().st_size <= pgm.MAX_MODULE_BYTES


def test_a_module_that_would_break_the_inline_script_is_refused(tmp_path, monkeypatch):
    for bad, what in [("'</script>';", "</script"), ("// <!--", "<!--"), ("x" * (pgm.MAX_MODULE_BYTES + 1), "MAX_MODULE_BYTES")]:
        (tmp_path / "playground.js").write_text(bad, encoding="utf-8")
        monkeypatch.setattr(pgm, "MODULE_PATH", tmp_path / "playground.js")
        with pytest.raises(RuntimeError, match=what):
            playground(preset="and", mode="static")._repr_html_()


def test_live_or_static_and_no_anywidget_on_import(monkeypatch):
    for value, static in (("1", True), (" Yes ", True), ("0", False), ("", False)):
        monkeypatch.setenv(pgm.STATIC_ENV_VAR, value)
        if static or pytest.importorskip("anywidget"):
            assert isinstance(playground(preset="xor"), StaticPlayground) is static
    code = ("import sys, perceptron_core.playground as p; p.playground(preset='and', mode='static')._repr_html_(); "
            "print([m for m in ('anywidget', 'ipywidgets', 'traitlets', 'matplotlib') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stderr
