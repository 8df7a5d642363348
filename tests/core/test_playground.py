"""perceptron_core.playground, the Python side of the playground: no browser, no kernel.

- every argument is checked at the boundary, with a message that says what to change;
- the presets are the package's own data sets, and every claim of their notes holds (checked with
  ``perceptron_core.separability``, ``max_margin`` and ``perceptron``);
- the live widget's traits are the model's keys: points and labels written as the module writes
  them come back as ``widget.X`` and ``widget.y``; a bad value changes nothing;
- ``run()`` and ``margin()`` are exactly the package's runs on the same points;
- the static HTML holds one JSON state (which parses back to the state, whatever the strings in
  it), the module's whole text and the ``mountStatic()`` call, and nothing that ends the
  ``<script>`` elements early;
- the live widget's ``_esm`` is the module file, which stays under ``MAX_MODULE_BYTES``.

The widget tests need anywidget (the ``book`` extra) and skip without it; the rest does not.
"""

from __future__ import annotations

import html.parser
import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

import perceptron_core as pc
from perceptron_core import playground as pgm
from perceptron_core.playground import MAX_POINTS, MODEL_KEYS, MODULE_PATH, StaticPlayground, playground

BUILTIN = ["planted", "and", "or", "xor", "wedge", "iris"]


def _widget_class():
    pytest.importorskip("anywidget")
    return pgm.PlaygroundWidget


def _quiet_run(pg):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        return pg.run()


# --------------------------------------------------------------------------------------------
# Checks at the boundary
# --------------------------------------------------------------------------------------------

FOUR = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
BAD_CALLS = [
    # (keyword arguments of playground, exception, what the message must say)
    (dict(X=[[1.0, 2.0, 3.0]], y=[1]), ValueError, r"3 features.*the playground is the plane.*X\[:, :2\]"),
    (dict(X=[[1.0]], y=[1]), ValueError, r"1 feature .*needs exactly 2"),
    (dict(X=[1.0, 2.0], y=[1, -1]), ValueError, r"1-D.*reshape"),
    (dict(X=np.zeros((1, 2, 2)), y=[1]), ValueError, r"must be 2-D"),
    (dict(X=np.zeros((0, 3)), y=[]), ValueError, r"the playground is the plane"),
    (dict(X=[[0.0, np.nan]], y=[1]), ValueError, r"NaN or inf.*remove or impute"),
    (dict(X=[[0.0, np.inf]], y=[1]), ValueError, r"NaN or inf"),
    (dict(X=[["a", "b"]], y=[1]), TypeError, r"text.*pass numbers"),
    pytest.param(dict(X=[[1e300, 0.0]], y=[1]), ValueError, r"safe limit.*Rescale",
                 marks=pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")),
    (dict(X=np.ones((MAX_POINTS + 1, 2)), y=np.ones(MAX_POINTS + 1)), ValueError,
     r"201 points.*at most 200 \(MAX_POINTS\).*subset"),
    (dict(X=FOUR, y=[0, 0, 0, 1]), ValueError, r"\{0, 1\}.*2\*y - 1"),
    (dict(X=FOUR, y=[1, -1, 2, 1]), ValueError, r"labels must be \+1 or -1"),
    (dict(X=FOUR, y=[1, -1, 1]), ValueError, r"4 samples but y has 3 labels.*one label per"),
    (dict(X=FOUR, y=[]), ValueError, r"4 points but y is empty.*one label"),
    (dict(X=[], y=[1]), ValueError, r"no points but y has 1 labels"),
    (dict(X=FOUR), ValueError, r"pass both X and y.*got only X"),
    (dict(y=[1, -1]), ValueError, r"pass both X and y.*got only y"),
    (dict(tie="maybe"), ValueError, r"tie must be 'mistake'.*'positive'.*'negative'"),
    (dict(c=0.0), ValueError, r"c must be a positive number.*c=1"),
    (dict(c=-1), ValueError, r"c must be a positive number"),
    (dict(c=float("nan")), ValueError, r"c must be a finite number"),
    (dict(c=1e200), ValueError, r"at most .*c=1"),
    (dict(c=True), TypeError, r"c must be a real number"),
    (dict(c="1"), TypeError, r"c must be a real number"),
    (dict(target=0.0), ValueError, r"strictly between 0 and 1.*target=0.5"),
    (dict(target=1.0), ValueError, r"strictly between 0 and 1"),
    (dict(target=1.5), ValueError, r"strictly between 0 and 1"),
    (dict(max_epochs=0), ValueError, r"max_epochs must be a whole number from 1 to 10000"),
    (dict(max_epochs=10_001), ValueError, r"from 1 to 10000 \(MAX_EPOCHS\)"),
    (dict(max_epochs=2.5), ValueError, r"whole number.*max_epochs=100"),
    (dict(max_epochs=True), ValueError, r"whole number"),
    (dict(offset="yes"), TypeError, r"offset must be True or False"),
    (dict(margin_target=1), TypeError, r"margin_target must be True or False"),
    (dict(title=""), ValueError, r"title is empty.*screen reader"),
    (dict(title=3), TypeError, r"title must be a string"),
    (dict(preset="nand"), ValueError,
     r"unknown preset 'nand'; choose one of \['planted', 'and', 'or', 'xor', 'wedge', 'iris'\]"),
    (dict(preset=None), TypeError, r"preset must be a preset's name"),
    (dict(presets=["and", "nope"]), ValueError, r"unknown preset 'nope'; the built-in presets are"),
    (dict(presets=["and", "or"]), ValueError, r"unknown preset 'planted'; choose one of \['and', 'or'\]"),
    (dict(presets="and"), TypeError, r"presets must be a list.*presets=\['and', 'or', 'xor'\]"),
    (dict(presets=["and", "and"], preset="and"), ValueError, r"unique.*\['and'\]"),
    (dict(presets=[{"name": "mine", "points": [[1.0, 1.0]], "labels": [1]}], preset="mine"), ValueError,
     r"missing \['title', 'note'\]"),
    (dict(presets=[{"name": "mine", "title": "Mine", "note": "One point.", "points": [[1.0, 1.0, 1.0]],
                    "labels": [1]}], preset="mine"), ValueError, r"the points of preset 'mine'.*plane"),
    (dict(mode="dynamic"), ValueError, r"mode must be None.*'live' or 'static'"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_CALLS,
                         ids=[f"{i}-{'-'.join(getattr(case, 'values', case)[0])}" for i, case in enumerate(BAD_CALLS)])
def test_every_bad_argument_is_refused_with_what_to_do(kwargs, error, message):
    with pytest.raises(error, match=message):
        playground(**{"mode": "static", **kwargs})


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_CALLS[:3] + BAD_CALLS[17:20])
def test_the_live_widget_checks_before_it_is_made(kwargs, error, message):
    _widget_class()
    with pytest.raises(error, match=message):
        playground(**{"mode": "live", **kwargs})


def test_good_arguments_of_every_kind_are_accepted():
    pg = playground(np.array([[1, 2], [-3, 4]], dtype=np.int64), np.array([1, -1]), tie="positive",
                    offset=True, c=2, margin_target=True, target=0.25, max_epochs=10_000,
                    title="Mine", presets=["xor"], mode="static")
    state = pg.state
    assert state["points"] == [[1.0, 2.0], [-3.0, 4.0]] and state["labels"] == [1, -1]
    assert isinstance(state["points"][0][0], float) and isinstance(state["labels"][0], int)
    assert (state["tie"], state["offset"], state["c"], state["margin_target"], state["target"],
            state["max_epochs"], state["title"]) == ("positive", True, 2.0, True, 0.25, 10_000, "Mine")
    assert state["preset"] == "" and [p["name"] for p in state["presets"]] == ["xor"]
    assert list(state) == list(MODEL_KEYS)
    empty = playground([], [], mode="static")
    assert empty.X.shape == (0, 2) and empty.y.shape == (0,) and empty.state["view"] == [-1.0, 1.0, -1.0, 1.0]
    assert playground(np.zeros((0, 2)), np.zeros(0), mode="static").X.shape == (0, 2)


def test_a_preset_dict_of_ones_own_gets_a_view():
    mine = {"name": "mine", "title": "Mine", "note": "Two points.", "points": [[3.0, 1.0], [-1.0, -2.0]],
            "labels": [1, -1]}
    pg = playground(preset="mine", presets=["and", mine], mode="static")
    assert pg.state["preset"] == "mine" and pg.X.tolist() == mine["points"]
    xmin, xmax, ymin, ymax = pg.state["presets"][1]["view"]
    assert xmin < -1 and xmax > 3 and ymin < -2 and ymax > 1


def test_the_static_constructor_checks_its_state():
    with pytest.raises(ValueError, match=r"unknown playground keys \['colour'\]"):
        StaticPlayground({"colour": "red"})
    with pytest.raises(ValueError, match=r"2 points but 1 labels"):
        StaticPlayground({"points": [[1, 1], [2, 2]], "labels": [1]})
    with pytest.raises(TypeError, match="state must be a dict"):
        StaticPlayground([("tie", "mistake")])
    assert StaticPlayground().state["points"] == []


# --------------------------------------------------------------------------------------------
# Presets: the package's data, and notes that are true
# --------------------------------------------------------------------------------------------


def _data(name: str):
    preset = next(p for p in pgm.presets() if p["name"] == name)
    return np.array(preset["points"], dtype=float).reshape(-1, 2), np.array(preset["labels"], dtype=float), preset


def test_the_presets_are_the_chapters_data_sets_from_the_package():
    found = pgm.presets()
    assert [p["name"] for p in found] == BUILTIN
    expected = {
        "planted": pc.planted(20, 2, 0.25, seed=0)[:2],
        "and": pc.logic_gate("and"),
        "or": pc.logic_gate("or"),
        "xor": pc.xor(),
        "wedge": pc.narrow_wedge(3),
        "iris": pc.iris_pair("setosa", "versicolor", features=(2, 3)),
    }
    for preset in found:
        assert list(preset) == ["name", "title", "points", "labels", "view", "note"]
        X, y = expected[preset["name"]]
        assert np.array_equal(np.array(preset["points"]), X) and np.array_equal(preset["labels"], y)
        assert preset["title"].strip() and len(preset["points"]) <= MAX_POINTS
    assert pgm.presets() == found and pgm.presets() is not found  # the same data, a new copy


@pytest.mark.parametrize("name", BUILTIN)
def test_each_note_is_one_sentence_and_each_view_shows_the_origin_and_every_point(name):
    X, _, preset = _data(name)
    note = preset["note"]
    assert note.endswith(".") and ". " not in note and note[0].isupper(), note
    xmin, xmax, ymin, ymax = preset["view"]
    assert xmin < 0 < xmax and ymin < 0 < ymax
    assert np.all((xmin < X[:, 0]) & (X[:, 0] < xmax) & (ymin < X[:, 1]) & (X[:, 1] < ymax))
    assert (xmax - xmin) == pytest.approx(ymax - ymin)  # one scale on both axes


def test_planted_note():
    X, y, preset = _data("planted")
    assert len(X) == 20 and "Twenty points in the unit disc" in preset["note"]
    R, m = pc.radius(X), pc.max_margin(X, y)
    assert R <= 1.0 and m.gamma_low >= 0.25  # "separable through the origin with a margin of at least 0.25"
    assert (R / m.gamma_low) ** 2 <= 16  # "(R/γ)² ≤ 16"
    run = pc.perceptron(X, y)
    assert run.converged and run.mistakes <= 16


@pytest.mark.parametrize("name", ["and", "or"])
def test_and_or_notes(name):
    X, y, preset = _data(name)
    assert "offset trick" in preset["note"] and "(0, 0)" in preset["note"]
    assert [0.0, 0.0] in X.tolist()  # (0, 0) is a point, on every line through the origin
    assert pc.separability(X, y).separable is False
    assert pc.separability(pc.augment(X, 1.0), y).separable is True
    assert pc.separability(X, y, offset=True).separable is True
    assert pc.perceptron(pc.augment(X, 1.0), y).converged


def test_xor_note():
    X, y, preset = _data("xor")
    assert "with or without the offset trick" in preset["note"]
    assert pc.separability(X, y).separable is False
    assert pc.separability(X, y, offset=True).separable is False
    for Z in (X, pc.augment(X, 1.0)):
        with pytest.warns(pc.ConvergenceWarning):
            assert not pc.perceptron(Z, y, max_epochs=1000).converged  # "never stops of its own accord"


def test_wedge_note():
    X, y, preset = _data("wedge")
    note = preset["note"]
    assert X.tolist() == [[1.0, 1.0], [0.875, 1.0]] and y.tolist() == [1.0, -1.0]  # "1/8 apart"
    assert "hypercube worst case" in note and "about 0.046" in note and "33 mistakes" in note
    assert pc.separability(X, y).separable is True
    gamma = pc.max_margin(X, y).gamma_low
    assert round(gamma, 3) == 0.046
    assert pc.perceptron(X, y).mistakes == 33  # at the playground's default tie rule
    # "each extra bit of the input roughly halves the margin and doubles the mistakes"
    X4, y4 = pc.narrow_wedge(4)
    assert 0.45 < pc.max_margin(X4, y4).gamma_low / gamma < 0.55
    assert 1.9 < pc.perceptron(X4, y4).mistakes / 33 < 2.1


def test_iris_note():
    X, y, preset = _data("iris")
    assert "Petal length and width in cm" in preset["note"]
    assert (y > 0).sum() == 50 and (y < 0).sum() == 50
    iris, species = pc.iris()
    assert np.array_equal(X[y > 0], iris[species == "setosa"][:, [2, 3]])  # setosa is +1
    assert pc.separability(X, y).separable is False  # "no line through the origin"
    assert pc.separability(pc.augment(X, 1.0), y).separable is True
    run = pc.perceptron(pc.augment(X, 1.0), y, max_epochs=100)
    assert run.converged and f"after {run.mistakes} mistakes" in preset["note"]


@pytest.mark.parametrize("seed", range(12))
def test_a_view_fitted_to_any_points_shows_them_and_the_origin(seed):
    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.integers(-6, 7)
    X = (rng.standard_normal((int(rng.integers(1, 30)), 2)) + rng.standard_normal(2) * 5) * scale
    xmin, xmax, ymin, ymax = playground(X, np.ones(len(X)), mode="static").state["view"]
    assert xmin < 0 < xmax and ymin < 0 < ymax
    assert np.all((xmin < X[:, 0]) & (X[:, 0] < xmax) & (ymin < X[:, 1]) & (X[:, 1] < ymax))
    assert (xmax - xmin) == pytest.approx(ymax - ymin)


# --------------------------------------------------------------------------------------------
# The live widget: traits, round trips through them, and bad values
# --------------------------------------------------------------------------------------------


def test_the_widget_is_an_anywidget_whose_esm_is_the_module_file():
    import anywidget

    Widget = _widget_class()
    widget = playground(preset="and", mode="live")
    assert isinstance(widget, Widget) and isinstance(widget, anywidget.AnyWidget)
    assert widget._esm == MODULE_PATH.read_text(encoding="utf-8")
    assert MODULE_PATH.is_file() and MODULE_PATH.parent.name == "static"
    synced = set(widget.keys)
    assert set(MODEL_KEYS) <= synced
    assert {key: getattr(widget, key) for key in MODEL_KEYS} == widget.state
    assert widget.state == playground(preset="and", mode="static").state  # the same model in both modes
    assert "PlaygroundWidget('Perceptron playground': 4 points" in repr(widget)


def test_points_written_as_the_module_writes_them_come_back_as_X_and_y():
    Widget = _widget_class()
    widget = Widget()  # no kernel: the traits work all the same
    assert widget.X.shape == (0, 2) and widget.y.shape == (0,) and widget.preset == ""
    assert [p["name"] for p in widget.presets] == BUILTIN
    # One update from the front end, as ipywidgets applies a message from the page: JSON numbers.
    widget.set_state({"points": [[0, 0], [0.5, -1.25], [3, 4]], "labels": [1, -1, 1], "preset": ""})
    assert widget.X.dtype == np.float64 and widget.X.tolist() == [[0.0, 0.0], [0.5, -1.25], [3.0, 4.0]]
    assert widget.y.dtype == np.float64 and widget.y.tolist() == [1.0, -1.0, 1.0]
    # Two updates (points, then labels): between them the pair is refused with what to do.
    widget.set_state({"points": [[0, 0], [0.5, -1.25], [3, 4], [1, 1]]})
    with pytest.raises(ValueError, match=r"4 points but 3 labels.*set_data\(X, y\)"):
        widget.X
    widget.set_state({"labels": [1, -1, 1, -1]})
    assert widget.y.tolist() == [1.0, -1.0, 1.0, -1.0] and len(widget.X) == 4
    # The reader picks a preset in the page.
    widget.set_state({"points": [[0, 0], [0, 1], [1, 0], [1, 1]], "labels": [-1, 1, 1, 1], "preset": "or"})
    X, y = pc.logic_gate("or")
    assert np.array_equal(widget.X, X) and np.array_equal(widget.y, y) and widget.preset == "or"


def test_set_data_sets_both_at_once_and_a_bad_value_changes_nothing():
    _widget_class()
    widget = playground(preset="and", mode="live")
    before = widget.state
    with pytest.raises(ValueError, match="the playground is the plane"):
        widget.set_data(np.ones((3, 3)), [1, 1, 1])
    with pytest.raises(ValueError, match="one label per"):
        widget.set_data(np.ones((3, 2)), [1, 1])
    assert widget.state == before
    X, y = pc.iris_pair("setosa", "versicolor", features=(0, 1))
    widget.set_data(X, y)
    assert np.array_equal(widget.X, X) and np.array_equal(widget.y, y) and widget.preset == ""
    xmin, xmax, ymin, ymax = widget.view
    assert xmin < 0 < X[:, 0].max() < xmax and ymin < 0 < X[:, 1].max() < ymax
    assert widget.X is not widget.X and not np.shares_memory(widget.X, widget.X)  # copies


@pytest.mark.parametrize(("key", "value", "error", "message"), [
    ("points", [[1.0, 2.0, 3.0]], ValueError, "the playground is the plane"),
    ("points", [[0.0, 0.0]] * (MAX_POINTS + 1), ValueError, "at most 200"),
    ("labels", [1, 0], ValueError, r"labels must be \+1 or -1"),
    ("tie", "sometimes", ValueError, "tie must be"),
    ("c", -2.0, ValueError, "c must be a positive number"),
    ("c", "big", TypeError, "c must be a real number"),
    ("target", 1.0, ValueError, "strictly between 0 and 1"),
    ("max_epochs", 0, ValueError, "from 1 to 10000"),
    ("offset", "on", TypeError, "offset must be True or False"),
    ("title", "  ", ValueError, "title is empty"),
    ("view", [1.0, -1.0, 0.0, 1.0], ValueError, "empty or upside down"),
    ("preset", "nand", ValueError, r"unknown preset 'nand'; choose one of"),
    ("presets", ["xor"], ValueError, r"the preset loaded, 'and', is not among the new presets"),
])
def test_a_bad_trait_value_is_refused_and_changes_nothing(key, value, error, message):
    from traitlets import TraitError

    _widget_class()
    widget = playground(preset="and", mode="live")
    before = widget.state
    with pytest.raises(error, match=message) as info:
        setattr(widget, key, value)
    assert isinstance(info.value, TraitError)  # so that traitlets undoes the rest of an update
    # From the front end, in one update with a good value: neither is kept.
    with pytest.raises(error, match=message):
        widget.set_state({"offset": True, key: value})
    assert widget.state == before


# --------------------------------------------------------------------------------------------
# run() and margin() are the package's
# --------------------------------------------------------------------------------------------


def _same_run(a, b) -> None:
    assert type(a) is type(b)
    for field in ("w", "mistakes", "epochs", "converged", "updates", "update_indices", "weights", "gamma", "target"):
        if hasattr(a, field):
            assert np.array_equal(getattr(a, field), getattr(b, field)), field
    if getattr(a, "history", None) is not None:
        assert np.array_equal(a.history.indices, b.history.indices)
        assert np.array_equal(a.history.weights, b.history.weights)


@pytest.mark.parametrize("name", BUILTIN)
@pytest.mark.parametrize("tie", ["mistake", "positive", "negative"])
@pytest.mark.parametrize("offset", [False, True])
def test_run_is_the_packages_perceptron_on_the_same_points(name, tie, offset):
    pg = playground(preset=name, tie=tie, offset=offset, c=2.0, max_epochs=50, mode="static")
    X, y, _ = _data(name)
    Z = pc.augment(X, 2.0) if offset else X
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        expected = pc.perceptron(Z, y, tie=tie, max_epochs=50, record=True)
        got = pg.run()
    _same_run(got, expected)
    assert got.history is not None and got.tie == tie and not got.offset


@pytest.mark.parametrize(("name", "offset"), [("planted", False), ("wedge", False), ("and", True), ("iris", True)])
def test_run_with_a_margin_target_is_the_margin_perceptron_at_the_certified_gamma(name, offset):
    pg = playground(preset=name, offset=offset, margin_target=True, target=0.3, mode="static")
    X, y, _ = _data(name)
    Z = pc.augment(X, 1.0) if offset else X
    gamma = pc.max_margin(Z, y).gamma_low
    _same_run(_quiet_run(pg), pc.margin_perceptron(Z, y, gamma, target=0.3, max_epochs=100, record=True))
    assert pg.margin().gamma_low == gamma and pg.margin().gamma_high == pc.max_margin(Z, y).gamma_high


def test_run_and_margin_say_what_to_do_when_there_is_nothing_to_run():
    with pytest.raises(ValueError, match=r"no points, so there is no run.*add some"):
        playground([], [], mode="static").run()
    with pytest.raises(ValueError, match=r"no points, so there is no margin"):
        playground([], [], mode="static").margin()
    with pytest.raises(ValueError, match=r"no positive margin γ through the origin.*Turn margin_target off, "
                                         r"or turn the offset on"):
        playground(preset="and", margin_target=True, mode="static").run()
    with pytest.raises(ValueError, match=r"even lifted with the offset trick.*Turn margin_target off\.$"):
        playground(preset="xor", offset=True, margin_target=True, mode="static").run()
    with pytest.raises(ValueError, match="not linearly separable"):
        playground(preset="xor", mode="static").margin()


def test_the_widget_runs_what_it_shows():
    _widget_class()
    widget = playground(preset="planted", mode="live")
    widget.set_state({"points": [[1, 0.5], [-1, -0.2], [0.3, -1]], "labels": [1, -1, -1], "tie": "positive"})
    expected = pc.perceptron([[1, 0.5], [-1, -0.2], [0.3, -1]], [1, -1, -1], tie="positive", max_epochs=100,
                             record=True)
    _same_run(widget.run(), expected)


# --------------------------------------------------------------------------------------------
# The static HTML
# --------------------------------------------------------------------------------------------


class _Scripts(html.parser.HTMLParser):
    """The <script> and <noscript> elements as a browser's parser splits them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[tuple[dict, str]] = []
        self.noscript = ""
        self._open: str | None = None
        self._attrs: dict = {}
        self._chunks: list[str] = []
        self.structure: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.structure.append(tag)
        if tag in ("script", "noscript"):
            self._open, self._attrs, self._chunks = tag, dict(attrs), []

    def handle_endtag(self, tag):
        self.structure.append("/" + tag)
        if tag == self._open == "script":
            self.scripts.append((self._attrs, "".join(self._chunks)))
        elif tag == self._open == "noscript":
            self.noscript = "".join(self._chunks)
        self._open = None

    def handle_data(self, data):
        if self._open:
            self._chunks.append(data)


def _parsed(pg) -> _Scripts:
    parser = _Scripts()
    parser.feed(pg._repr_html_())
    parser.close()
    return parser


HOSTILE = "</script><script>alert(1)</script> <!-- <SCRIPT> </ScRiPt"


@pytest.mark.parametrize("title", ["Perceptron playground", HOSTILE])
def test_the_static_html_holds_the_state_once_the_module_and_the_mount_call(title):
    mine = {"name": "mine", "title": HOSTILE, "note": HOSTILE, "points": [[1.0, 2.0]], "labels": [1]}
    pg = playground(preset="iris", title=title, presets=BUILTIN + [mine], mode="static")
    text = pg._repr_html_()
    assert text.startswith('<div class="pc-playground"><script type="application/json">')
    parser = _parsed(pg)
    assert parser.structure == ["div", "script", "/script", "noscript", "/noscript", "/div", "script", "/script"]
    (data_attrs, data), (module_attrs, module) = parser.scripts
    assert data_attrs == {"type": "application/json"} and module_attrs == {"type": "module"}
    assert json.loads(data) == pg.state  # the JSON parses back to the state, hostile strings and all
    assert text.count('<script type="application/json">') == 1
    assert "</script" not in data.lower() and "<" not in data
    source = MODULE_PATH.read_text(encoding="utf-8")
    assert module == source + "\nmountStatic();\n"
    assert "</script" not in source.lower() and "<!--" not in source
    mime = pg._repr_mimebundle_()
    assert set(mime) == {"text/html", "text/plain"} and mime["text/html"] == text


def test_the_noscript_text_says_what_the_reader_would_see():
    text = _parsed(playground(preset="and", mode="static")).noscript
    assert "needs JavaScript" in text and "4 points in the plane (1 labelled +1, 3 labelled −1)" in text
    assert "(R/γ)²" in text and "add, drag and delete points" in text
    assert "Through the origin they are not separable; with an offset they are separable." in text
    xor = _parsed(playground(preset="xor", mode="static")).noscript
    assert "No line separates them, with or without an offset." in xor
    assert "separated by a line through the origin" in _parsed(playground(preset="wedge", mode="static")).noscript
    assert "an empty plane" in _parsed(playground([], [], mode="static")).noscript
    plain = playground(preset="xor", mode="static")._repr_mimebundle_()["text/plain"]
    assert plain.startswith("StaticPlayground('Perceptron playground': 4 points (2 labelled +1, 2 labelled -1), "
                            "preset 'xor'; perceptron, tie='mistake', offset off, max_epochs=100)")
    assert plain.endswith("No line separates them, with or without an offset.")


def test_a_module_that_would_break_the_inline_script_is_refused(tmp_path, monkeypatch):
    for bad, what in [("const s = '</script>';", "</script"), ("// <!-- a comment", "<!--"),
                      ("x".ljust(pgm.MAX_MODULE_BYTES + 1, "x"), "MAX_MODULE_BYTES")]:
        path = tmp_path / "playground.js"
        path.write_text("export function mountStatic() {}\n" + bad, encoding="utf-8")
        monkeypatch.setattr(pgm, "MODULE_PATH", path)
        with pytest.raises(RuntimeError, match=what):
            playground(preset="and", mode="static")._repr_html_()


def test_the_module_is_small_enough_to_inline():
    assert MODULE_PATH.stat().st_size <= pgm.MAX_MODULE_BYTES == 100_000


# --------------------------------------------------------------------------------------------
# Live or static, and what importing it loads
# --------------------------------------------------------------------------------------------


def test_the_switch_is_the_sliders_environment_variable(monkeypatch):
    sliders = pytest.importorskip("perceptron_core.figures.sliders")
    assert pgm.STATIC_ENV_VAR == sliders.STATIC_ENV_VAR
    for value in ("1", "true", " Yes ", "ON"):
        monkeypatch.setenv(pgm.STATIC_ENV_VAR, value)
        assert isinstance(playground(preset="xor"), StaticPlayground)
        assert isinstance(playground(preset="xor", mode="static"), StaticPlayground)
    Widget = _widget_class()
    monkeypatch.setenv(pgm.STATIC_ENV_VAR, "1")
    assert isinstance(playground(preset="xor", mode="live"), Widget)
    for value in ("", "0", "no"):
        monkeypatch.setenv(pgm.STATIC_ENV_VAR, value)
        assert isinstance(playground(preset="xor"), Widget)
    monkeypatch.delenv(pgm.STATIC_ENV_VAR)
    assert isinstance(playground(preset="xor"), Widget)


def test_the_static_playground_and_the_package_never_import_anywidget():
    code = (
        "import sys, perceptron_core, perceptron_core.playground as p\n"
        "loaded = [m for m in ('anywidget', 'ipywidgets', 'traitlets', 'IPython', 'matplotlib') if m in sys.modules]\n"
        "html = p.playground(preset='and', mode='static')._repr_html_()\n"
        "loaded += [m for m in ('anywidget', 'ipywidgets', 'traitlets', 'IPython', 'matplotlib') if m in sys.modules]\n"
        "print(sorted(set(loaded)), len(html) > 1000)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[] True"


@pytest.mark.parametrize(("name", "offset", "margin_target"),
                         [("planted", False, False), ("wedge", False, True), ("and", True, False),
                          ("iris", True, True)])
def test_radius_and_bound_are_those_of_the_points_the_run_sees(name, offset, margin_target):
    """With the offset trick the run sees the lifted points (x, c): R′ and the bound are theirs
    (the bound on the plane's R would be too small), and the Margin Perceptron has its own."""
    pg = playground(preset=name, offset=offset, c=3.0, margin_target=margin_target, target=0.25,
                    mode="static")
    X, y, _ = _data(name)
    Z = pc.augment(X, 3.0) if offset else X
    R, gamma = pc.radius(Z), pc.max_margin(Z, y).gamma_low
    assert pg.radius() == R and (R > pc.radius(X)) == offset
    expected = pc.margin_perceptron_bound(R, gamma, 0.25) if margin_target else pc.novikoff_bound(R, gamma)
    assert pg.bound() == expected
    run = _quiet_run(pg)
    assert (run.updates if margin_target else run.mistakes) <= pg.bound()
