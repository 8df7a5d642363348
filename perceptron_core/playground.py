"""The perceptron playground: points in the plane the reader adds, drags and deletes, with the
perceptron (or the margin perceptron) run on them step by step, and R, γ and (R/γ)² beside it.

One call, in a chapter or a notebook::

    from perceptron_core.playground import playground

    playground(preset="and")          # the AND gate; or playground(X, y) for your own points

The picture and the algorithm run in the browser, in one ES module
(``perceptron_core/static/playground.js``, :data:`MODULE_PATH`), in anywidget's format (a default
export with ``render({ model, el })``). What :func:`playground` returns depends on where the
notebook runs, as for :func:`perceptron_core.figures.sliders.explore`:

* **live** (a Jupyter client; tested in JupyterLab): a ``PlaygroundWidget``, an
  ``anywidget.AnyWidget`` whose synced traits are the model's keys (:data:`MODEL_KEYS`). The
  module writes the reader's edits back, so ``widget.X`` and ``widget.y`` are the points on the
  screen, ready for ``perceptron_core``; ``widget.set_data(X, y)`` sends new ones.
* **static** (the published book: the environment variable :data:`STATIC_ENV_VAR` is true, or
  ``mode="static"``): a :class:`StaticPlayground`, whose HTML holds the state as JSON and the
  module's whole text in an inline ``<script type="module">`` that mounts it. Inline, because a
  module fetched from ``file://`` is blocked by the browser: the book must work from a folder or
  a zip with no server and no network.

What the page computes, and how far to trust it:

* its runs are plain float64 and follow the package's contract operation for operation, so
  ``run()`` here makes the same updates, bit for bit (the margin perceptron's, given the same γ:
  see :meth:`_Playground.run`);
* what it calls *certified* is checked in exact arithmetic in the page: the verdict "separable"
  (a separator whose every score is > 0 exactly), "not separable" (a certificate of at most 4
  points with exact weights), and R, the lower end of γ and the bound it shows; anything else
  is an estimate and says so, or "undecided".

anywidget (the ``book`` extra) is imported only when a live widget is made: importing this
module, and the static book, need nothing beyond numpy and scipy.
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import check_flag, check_real, check_X, check_y
from .algorithms import MarginPerceptronResult, PerceptronResult, margin_perceptron, perceptron
from .bounds import margin_perceptron_bound, novikoff_bound
from .data import augment, iris_pair, logic_gate, narrow_wedge, planted, xor
from .geometry import MaxMargin, max_margin, radius, separability

__all__ = ["playground", "presets", "PlaygroundWidget", "StaticPlayground", "MODEL_KEYS", "MODULE_PATH", "MAX_POINTS", "MAX_EPOCHS", "MAX_MODULE_BYTES", "STATIC_ENV_VAR"]

#: The ES module both modes run: the picture, the controls and the mathematics in JavaScript.
MODULE_PATH = Path(__file__).resolve().parent / "static" / "playground.js"
#: The most points the playground holds: the module redraws 200 within one animation frame.
MAX_POINTS = 200
#: The largest cap on the perceptron's sweeps: a run the reader scrubs through must stay small.
MAX_EPOCHS = 10_000
#: The module's size limit: the static book inlines it once per playground on a page.
MAX_MODULE_BYTES = 100_000
#: The switch to static output, the same variable as
#: :data:`perceptron_core.figures.sliders.STATIC_ENV_VAR` (the book build sets it). Repeated here,
#: not imported: the drawing layer imports matplotlib, which the playground does not need.
STATIC_ENV_VAR = "PERCEPTRON_STATIC_WIDGETS"
#: The model's keys, in the order of the contract between this module and the ES module: synced
#: traits of the live widget, the JSON state of the static one.
MODEL_KEYS = ("points", "labels", "presets", "preset", "view", "tie", "offset", "c", "margin_target", "target", "max_epochs", "title")

# Every entry (and c) stays below this, so that no square, norm or score of up to MAX_POINTS
# points lifted to (x1, x2, c), nor a run's weights, overflows in Python or in the module.
_LIMIT = 1e150
_PRESET_KEYS = ("name", "title", "points", "labels", "view", "note")
_DEFAULTS: dict[str, Any] = {"points": [], "labels": [], "tie": "mistake", "offset": False, "c": 1.0, "margin_target": False,
                             "target": 0.5, "max_epochs": 100, "title": "Perceptron playground"}


# --------------------------------------------------------------------------------------------
# Checks at the boundary: each returns the value in the model's JSON form, or says what to do
# --------------------------------------------------------------------------------------------


def _check_points(X: ArrayLike, name: str = "X") -> NDArray[np.float64]:
    """``X`` as an (n, 2) float array, 0 ≤ n ≤ MAX_POINTS, finite and at most _LIMIT."""
    if X is None:
        raise TypeError(f"{name} is None; pass the points as an (n, 2) array, e.g. [[1.0, 2.0], [0.5, -1.0]].")
    if np.size(X) == 0 and not isinstance(X, (str, bytes)) and (np.ndim(X) < 2 or np.shape(X)[-1] == 2):
        return np.zeros((0, 2))
    arr = check_X(X, name=name) if np.size(X) else np.zeros(np.shape(X))
    for bad, what in ((arr.shape[-1] != 2, f"has {arr.shape[-1]} features per point; the playground is the plane and needs exactly 2. "
                                            f"Pick two, e.g. {name}[:, :2]"),
                      (len(arr) > MAX_POINTS, f"has {len(arr)} points; the playground holds at most {MAX_POINTS} (MAX_POINTS). "
                                              f"Pass a subset, e.g. {name}[:{MAX_POINTS}] with its labels"),
                      (arr.size and np.abs(arr).max() > _LIMIT, f"has entries beyond {_LIMIT:g}, where the run's numbers would overflow; rescale it")):
        if bad:
            raise ValueError(f"{name} {what}.")
    return np.array(arr, dtype=np.float64)


def _check_labels(y: ArrayLike, n: int | None = None, name: str = "y") -> NDArray[np.float64]:
    """``y`` as ±1 floats, one label a point (``n`` of them when given)."""
    if y is None:
        raise TypeError(f"{name} is None; pass one label, +1 or -1, per point.")
    if ((np.size(y) == 0) != (n == 0) and n is not None) or (n is None and np.size(y) > MAX_POINTS):
        raise ValueError(f"X has {n} points but {name} has {np.size(y)} labels; pass one label (+1 or -1) per point, at most {MAX_POINTS}.")
    return np.zeros(0) if np.size(y) == 0 and not isinstance(y, (str, bytes)) else check_y(y, n, name=name)


def _check_number(value: Any, name: str, low: float, high: float, hint: str, *, closed: bool = False) -> float:
    """A real number in (low, high), or (low, high] when ``closed``."""
    v = check_real(value, name)
    if not (low < v <= high if closed else low < v < high):
        raise ValueError(f"{name} must lie in ({low:g}, {high:g}{']' if closed else ')'}, got {value!r}: {hint}")
    return v


def _check_max_epochs(value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 1 <= value <= MAX_EPOCHS:
        raise ValueError(f"max_epochs must be a whole number from 1 to {MAX_EPOCHS} (MAX_EPOCHS), got {value!r}; e.g. max_epochs=100.")
    return int(value)


def _check_str(value: Any, name: str, choices: Sequence[str] = (), hint: str = "") -> str:
    """A non-empty string (one of ``choices`` when given)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {value!r}. {hint}")
    if (choices and value not in choices) or not value.strip():
        raise ValueError(f"{name} must be {'one of ' + str(list(choices)) if choices else 'a non-empty string'}, got {value!r}. {hint}")
    return value


def _check_view(view: Any) -> list[float]:
    ok = not isinstance(view, (str, bytes)) and isinstance(view, (Sequence, np.ndarray)) and len(view) == 4
    values = [check_real(v, "each entry of view") for v in view] if ok else []
    if not (values and values[0] < values[1] and values[2] < values[3]):
        raise ValueError(f"view must be [xmin, xmax, ymin, ymax] with xmin < xmax and ymin < ymax, e.g. [-1, 1, -1, 1]; got {view!r}.")
    return values


def _view_of(X: NDArray[np.float64]) -> list[float]:
    """The plot's window: every point and the origin, with 10 % padding around the larger span,
    centred, its ends rounded outwards to a round step (1, 2 or 5 times a power of ten) so that
    the ticks fall on round numbers. (The page draws both axes at one scale whatever the window.)"""
    lo, hi = np.minimum(X.min(axis=0, initial=0.0), 0.0), np.maximum(X.max(axis=0, initial=0.0), 0.0)
    half, centre = 0.55 * float(np.max(hi - lo)), (lo + hi) / 2
    if not half / 5 >= 1e-300:  # no points, or all within 1e-300 of the origin: no round step to snap to
        return [-1.0, 1.0, -1.0, 1.0] if half == 0 else [float(centre[k] + s * half) for k in (0, 1) for s in (-1, 1)]
    power = 10.0 ** math.floor(math.log10(half / 5))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= half / 5)
    return [float(f"{rnd((centre[k] + s * half) / step + s * -1e-9) * step:.12g}")
            for k in (0, 1) for s, rnd in ((-1, math.floor), (1, math.ceil))]


def _json_points(X: NDArray[np.float64]) -> list[list[float]]:
    return [[float(a), float(b)] for a, b in X]


# --------------------------------------------------------------------------------------------
# Presets: the chapters' data sets, from the package itself
# --------------------------------------------------------------------------------------------


def _preset(name: str, title: str, points: ArrayLike, labels: ArrayLike, note: str, view: Any = None) -> dict[str, Any]:
    """One preset, checked: a dict of the keys _PRESET_KEYS (the view fitted to the points unless given)."""
    name, title, note = (_check_str(v, f"a preset's {k}") for k, v in (("name", name), ("title", title), ("note", note)))
    X = _check_points(points, f"the points of preset {name!r}")
    y = _check_labels(labels, len(X), f"the labels of preset {name!r}")
    return {"name": name, "title": title, "points": _json_points(X), "labels": [int(v) for v in y],
            "view": _view_of(X) if view is None else _check_view(view), "note": note}


def presets() -> list[dict[str, Any]]:
    """The data sets the playground offers, as the model's ``presets`` list (new each call).

    Each is a dict with ``name`` (what ``playground(preset=...)`` takes), ``title``, ``points``
    (a list of [x1, x2]), ``labels`` (+1/-1), ``view`` ([xmin, xmax, ymin, ymax], padded, with the
    origin and every point) and ``note`` (one sentence: what to notice). All come from
    :mod:`perceptron_core.data`, so they are the chapters' data sets, and the tests check every
    claim of the notes against the package:

    - ``planted``: 20 points with a planted margin of 0.25 (:func:`~perceptron_core.planted`);
    - ``and``, ``or``, ``xor``: the logic gates (:func:`~perceptron_core.logic_gate`);
    - ``wedge``: two points with a tiny margin (:func:`~perceptron_core.narrow_wedge`, k = 3);
    - ``iris``: Iris setosa against versicolor, petal length and width in cm
      (:func:`~perceptron_core.iris_pair`).
    """
    # The numbers in the notes are computed here, from the same data, not typed in.
    gamma = 0.25
    X_wedge, y_wedge = narrow_wedge(3)
    X_iris, y_iris = iris_pair("setosa", "versicolor", features=(2, 3))
    return [
        _preset("planted", "Planted margin", *planted(20, 2, gamma, seed=0)[:2], "Notice how far the mistakes stay below "
                f"the bound: twenty points in the unit disc with a margin of at least {gamma:g}, so the bound is at most "
                f"(1/{gamma:g})² = {1 / gamma ** 2:g} (the readout's, from the largest margin, is smaller)."),
        _preset("and", "AND gate", *logic_gate("and"), "Notice what the offset trick changes: through the origin no line "
                "separates AND, since (0, 0) lies on every such line, but with the trick on the perceptron finds one."),
        _preset("or", "OR gate", *logic_gate("or"), "Notice that OR, like AND, is separable only with the offset trick, since "
                "(0, 0) lies on every line through the origin."),
        _preset("xor", "XOR gate", *xor(), "Notice that the line never settles: no line separates XOR, with or without the "
                "offset trick; with it on, the readout names the points where the two classes' hulls meet."),
        _preset("wedge", "Narrow wedge (small margin)", X_wedge, y_wedge, "Notice what a small margin costs: (1, 1) and "
                f"(0.875, 1) are 1/8 apart, the margin is about {max_margin(X_wedge, y_wedge).gamma_low:.4g}, and the perceptron "
                f"makes {perceptron(X_wedge, y_wedge).mistakes} mistakes before it separates them."),
        _preset("iris", "Iris petals (cm): setosa vs versicolor", X_iris, y_iris, "Notice that far from the origin the data need "
                "an offset: no line through the origin separates setosa (+1) from versicolor (−1), but with the offset trick "
                f"(c = 1) the perceptron does, after {perceptron(augment(X_iris, 1.0), y_iris).mistakes} mistakes."),
    ]


_builtin_presets = presets  # playground()'s argument ``presets`` hides the function there


def _check_presets(value: Any) -> list[dict[str, Any]]:
    """A list of presets: each a built-in name, or a dict with name, title, points, labels and
    note (view optional: computed from the points); names unique."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise TypeError(f"presets must be a list of preset names or dicts, got {value!r}; e.g. presets=['and', 'xor'].")
    builtin = {p["name"]: p for p in presets()} if any(isinstance(e, str) for e in value) else {}
    try:
        out = [builtin[_check_str(e, "a preset name", sorted(builtin))] if isinstance(e, str) else _preset(**e) for e in value]
    except TypeError as exc:  # not a dict, or keys missing or unknown
        raise ValueError(f"each preset is a built-in name or a dict with the keys {list(_PRESET_KEYS)} (view optional): {exc}") from None
    names = [p["name"] for p in out]
    if len(set(names)) < len(names):
        raise ValueError(f"preset names must be unique; got {names}.")
    return out


def _check_preset_name(name: Any, offered: Sequence[Mapping[str, Any]], *, allow_none: bool = True) -> str:
    """``name`` of one of the ``offered`` presets, or "" (custom or edited data) if allowed."""
    if name == "" and allow_none:
        return name
    return _check_str(name, "preset", [p["name"] for p in offered],
                      "Or pass your own points as playground(X, y)." if allow_none else "")


# The check of each model key, given its value alone (the pairs are checked by _check_state).
_CHECKS = {
    "points": lambda v: _json_points(_check_points(v, "points")),
    "labels": lambda v: [int(x) for x in _check_labels(v, name="labels")],
    "presets": _check_presets,
    "view": _check_view,
    "tie": lambda v: _check_str(v, "tie", ("mistake", "positive", "negative"), "A tie (w·x = 0) is a mistake, or predicts +1 or -1."),
    "offset": lambda v: check_flag(v, "offset"),
    "c": lambda v: _check_number(v, "c", 0, _LIMIT, "the height of the lifted points (x1, x2, c); usually c=1.", closed=True),
    "margin_target": lambda v: check_flag(v, "margin_target"),
    "target": lambda v: _check_number(v, "target", 0, 1, "the margin perceptron aims at τγ with τ = target, below γ; Balcan's is 0.5."),
    "max_epochs": _check_max_epochs,
    "title": lambda v: _check_str(v, "title", (), "It is the playground's accessible name, e.g. title='AND gate'."),
}


def _check_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """A complete, checked model: every key of :data:`MODEL_KEYS`, in that order."""
    if set(state) - set(MODEL_KEYS):
        raise ValueError(f"unknown playground keys {sorted(set(state) - set(MODEL_KEYS))}; the keys are {list(MODEL_KEYS)}.")
    out = {k: _CHECKS[k](state.get(k, _DEFAULTS.get(k))) for k in MODEL_KEYS
           if k != "preset" and (k not in ("view", "presets") or state.get(k) is not None)}
    out.setdefault("presets", presets())
    out.setdefault("view", _view_of(np.asarray(out["points"], dtype=float).reshape(-1, 2)))
    if len(out["points"]) != len(out["labels"]):
        raise ValueError(f"{len(out['points'])} points but {len(out['labels'])} labels; pass one label per point.")
    out["preset"] = _check_preset_name(state.get("preset", ""), out["presets"])
    return {key: out[key] for key in MODEL_KEYS}


def _floor4(v: float) -> float:
    """``v`` rounded down to 4 significant digits, as the page rounds the γ it aims at."""
    r = float(f"{v:.4g}")
    return r if r <= v else float(f"{r - 10.0 ** (math.floor(math.log10(v)) - 3):.4g}")


# --------------------------------------------------------------------------------------------
# What both kinds of playground offer
# --------------------------------------------------------------------------------------------


class _Playground:
    """``X``, ``y``, ``state``, ``run()``, ``margin()``, ``radius()`` and ``bound()``, read from
    the model's keys by the subclass's ``_setting(key)``."""

    _setting: Any  # the subclass's: the value of a model key

    def _pair(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        points, labels = self._setting("points"), self._setting("labels")
        if len(points) != len(labels):
            raise ValueError(f"the playground holds {len(points)} points but {len(labels)} labels: set both at once with set_data(X, y).")
        return np.array(points, dtype=np.float64).reshape(-1, 2), np.array(labels, dtype=np.float64)

    @property
    def X(self) -> NDArray[np.float64]:
        """The points, an (n, 2) float array (a copy: changing it changes nothing shown)."""
        return self._pair()[0]

    @property
    def y(self) -> NDArray[np.float64]:
        """The labels, +1 or -1 as floats, one a point (a copy)."""
        return self._pair()[1]

    @property
    def state(self) -> dict[str, Any]:
        """The model, JSON-ready: one entry per key of :data:`MODEL_KEYS` (a deep copy)."""
        return json.loads(json.dumps({key: self._setting(key) for key in MODEL_KEYS}, allow_nan=False))

    def _lifted(self, what: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The points as the run sees them (lifted to (x1, x2, c) with the offset trick), and y."""
        X, y = self._pair()
        if len(X) == 0:
            how = "click or tap in the plot, or call set_data(X, y)" if hasattr(self, "set_data") else "pass them: playground(X, y)"
            raise ValueError(f"the playground has no points, so there is no {what}: add some ({how}).")
        return (augment(X, self._setting("c")) if self._setting("offset") else X), y

    def margin(self) -> MaxMargin:
        """``perceptron_core.max_margin`` of the points (lifted to (x1, x2, c) when ``offset`` is
        on): the maximum margin through the origin, certified by the package.

        Raises ``ValueError`` when the points are not separable that way, or when there are none.
        """
        return max_margin(*self._lifted("margin"))

    def radius(self) -> float:
        """R of the points the run sees: the largest norm, of ``augment(X, c)`` when ``offset``
        is on (the lifted radius R′)."""
        return radius(self._lifted("radius")[0])

    def bound(self) -> float:
        """The theorem's bound from the package's numbers, with R = :meth:`radius`:
        ``novikoff_bound(R, γ)`` = (R/γ)² with γ = ``margin().gamma_low``, or with
        ``margin_target`` on ``margin_perceptron_bound(R, γ, target)`` with the γ the run aims
        at (see :meth:`run`), so that it is the bound of that run. The page shows the same bound
        to 4 significant digits ("(R′/γ′)² ≈ 51" where this returns 51.000000000001265), from its
        float estimate of R (and of γ for the perceptron); whether the run stays within it, the
        page checks in exact arithmetic on a bound from R rounded up and γ rounded down.
        """
        if self._setting("margin_target"):
            return margin_perceptron_bound(self.radius(), self._aim(*self._lifted("bound")), self._setting("target"))
        return novikoff_bound(self.radius(), self.margin().gamma_low)

    @staticmethod
    def _aim(Z: NDArray[np.float64], y: NDArray[np.float64]) -> float:
        """The γ the margin perceptron aims at (times τ): the certified γ rounded down to 4 digits."""
        try:
            return _floor4(max_margin(Z, y).gamma_low)
        except ValueError as exc:
            raise ValueError(f"the margin perceptron aims at τγ (τ = target), and these points have no positive margin γ: {exc} "
                             "Turn margin_target off, or change the points.") from exc

    def run(self) -> PerceptronResult | MarginPerceptronResult:
        """The run the playground shows, computed by ``perceptron_core``.

        ``perceptron(Z, y, tie=tie, max_epochs=max_epochs, record=True)`` on the points ``Z``
        (``augment(X, c)`` when ``offset`` is on, else ``X``): the page makes the same updates,
        bit for bit. With ``margin_target`` on, ``margin_perceptron(Z, y, γ, target=target, ...)``
        with γ the package's certified ``max_margin(Z, y).gamma_low`` rounded down to 4 digits:
        the γ the page aims at, which it shows as "the run aims at τ × γ" beside its 4-digit
        estimate of γ (the two may differ in the last digit), unless the page's own certified
        γ and the package's fall on two sides of a 4-digit boundary.

        Either result's ``mistakes`` is the count the page labels "Mistakes" (the margin
        perceptron's ``updates`` also counts its margin mistakes).

        Raises ``ValueError`` with no points, or with ``margin_target`` on points with no margin.
        """
        (Z, y), max_epochs = self._lifted("run"), self._setting("max_epochs")
        if not self._setting("margin_target"):
            return perceptron(Z, y, tie=self._setting("tie"), max_epochs=max_epochs, record=True)
        return margin_perceptron(Z, y, self._aim(Z, y), target=self._setting("target"), max_epochs=max_epochs, record=True)

    def __repr__(self) -> str:
        m = {k: self._setting(k) for k in MODEL_KEYS}
        n, pos = len(m["labels"]), sum(1 for v in m["labels"] if v > 0)
        algo = f"margin perceptron aiming at τγ, τ = {m['target']:g}" if m["margin_target"] else f"perceptron, tie={m['tie']!r}"
        preset, offset = f", preset {m['preset']!r}" if m["preset"] else "", f"on, c={m['c']:g}" if m["offset"] else "off"
        return (f"{type(self).__name__}({m['title']!r}: {n} point{'s' * (n != 1)} ({pos} labelled +1, {n - pos} labelled "
                f"-1){preset}; {algo}, offset {offset}, max_epochs={m['max_epochs']})")


# --------------------------------------------------------------------------------------------
# The static playground: HTML with the state and the module inline
# --------------------------------------------------------------------------------------------


def _module_text() -> str:
    """The ES module's text, checked to be safe inside an inline ``<script>`` element."""
    text = MODULE_PATH.read_text(encoding="utf-8")
    if len(text.encode("utf-8")) > MAX_MODULE_BYTES:  # the static book inlines it in every page that shows a playground
        raise RuntimeError(f"{MODULE_PATH.name} is over MAX_MODULE_BYTES={MAX_MODULE_BYTES}: shrink it.")
    # "</script" would end the inline element early; "<!--" would switch the HTML parser into a
    # state where the real "</script>" no longer ends it. Neither is needed in JavaScript.
    if "</script" in text.lower() or "<!--" in text:
        raise RuntimeError(f"{MODULE_PATH.name} holds '</script' or '<!--', which would end its inline <script>: split the string.")
    return text


class StaticPlayground(_Playground):
    """The playground in the static book: HTML that runs with no kernel, server or network.

    Parameters
    ----------
    state : mapping
        The model's keys (:data:`MODEL_KEYS`). Missing keys take their defaults: no points,
        every preset, ``preset=""``, a view fitted to the points, ``tie="mistake"``, no offset,
        ``c=1``, no margin target, ``target=0.5``, ``max_epochs=100``,
        ``title="Perceptron playground"``. Every value is checked as :func:`playground` checks it.

    Its HTML (``_repr_html_``) is a ``<div class="pc-playground">`` holding the state as JSON
    (every "<" written \\u003c, so that no string in it can end the element) and a
    ``<noscript>`` description, then the module's text in an inline ``<script type="module">``
    that calls ``mountStatic()``.
    """

    def __init__(self, state: Mapping[str, Any] | None = None) -> None:
        if state is not None and not isinstance(state, Mapping):
            raise TypeError(f"state must be a dict of the playground's keys {list(MODEL_KEYS)}, got {state!r}.")
        self._model = _check_state(state or {})
        self._html: str | None = None

    def _setting(self, key: str) -> Any:
        return self._model[key]

    def _verdict(self) -> str:
        """Whether the points are separable, through the origin and with an offset, in words."""
        X, y = self._pair()
        if len(X) == 0:
            return "There are no points yet."
        word = {True: "separable", False: "not separable", None: "undecided"}
        through, lifted = (separability(X, y, offset=o).separable for o in (False, True))
        return f"Through the origin they are {word[through]}; with an offset they are {word[lifted]}."

    @property
    def html(self) -> str:
        """The self-contained HTML of the playground (computed once)."""
        if self._html is None:
            data = json.dumps(self._model, allow_nan=False, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
            n, pos = len(self._model["labels"]), sum(1 for v in self._model["labels"] if v > 0)
            shown = f"{n} point{'s' * (n != 1)} in the plane ({pos} labelled +1, {n - pos} labelled −1)" if n else "an empty plane"
            said = (f"{self._model['title']}: an interactive figure that needs JavaScript. It shows {shown}, the "
                    "perceptron's line after each of its mistakes, the radius R, the margin γ and the bound (R/γ)², "
                    f"and lets you add, drag and delete points. {self._verdict()}")
            self._html = (f'<div class="pc-playground"><script type="application/json">{data}'
                          f"</script><noscript>{escape(said, quote=False)}</noscript></div>"
                          f'<script type="module">{_module_text()}\nmountStatic();\n</script>')
        return self._html

    def _repr_html_(self) -> str:
        return self.html

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/html": self.html, "text/plain": f"{self!r}. {self._verdict()}"}


# --------------------------------------------------------------------------------------------
# The live playground: an anywidget widget, made the first time it is asked for
# --------------------------------------------------------------------------------------------

@functools.cache
def _widget_class() -> type:
    """``PlaygroundWidget``, defined at the first call: it needs anywidget (and so ipywidgets),
    which nothing else in the package imports."""
    try:
        import anywidget
        import traitlets
    except ImportError as exc:
        raise ImportError("The live playground needs anywidget: pip install \"perceptron_core[book]\" (or pip install "
                          "anywidget). For the static HTML instead, call playground(..., mode='static').") from exc

    # A bad value set on a trait raises the ValueError or TypeError the checks raise, and a
    # TraitError too, so that traitlets undoes the other changes of the same update.
    errors = {kind: type(f"Invalid{kind.__name__}", (kind, traitlets.TraitError), {}) for kind in (ValueError, TypeError)}

    def checked(check: Any, value: Any) -> Any:
        try:
            return check(value)
        except (ValueError, TypeError) as exc:
            raise errors[TypeError if isinstance(exc, TypeError) else ValueError](str(exc)) from None

    class PlaygroundWidget(_Playground, anywidget.AnyWidget):
        """The live playground: an anywidget widget running :data:`MODULE_PATH`.

        Its synced traits are the model's keys (:data:`MODEL_KEYS`), each checked when set (a
        ``ValueError`` or ``TypeError`` that says what to change). The module writes the reader's
        edits back to ``points``, ``labels`` and ``preset``, so :attr:`X` and :attr:`y` are what
        the reader sees. To replace the points from Python, call :meth:`set_data`.
        """

        _esm = MODULE_PATH
        # Any, not List or Float: the checks give every value its type and their messages. The
        # lists' defaults are made per widget (below), so that no two widgets share one.
        locals().update({k: traitlets.Any(_DEFAULTS.get(k, "")).tag(sync=True) for k in MODEL_KEYS})

        def __init__(self, **kwargs: Any) -> None:
            # Made with no arguments it holds no points, every preset and the default settings;
            # every widget gets lists of its own.
            state = {"points": [], "labels": [], **{key: kwargs.pop(key) for key in MODEL_KEYS if key in kwargs}}
            state["presets"] = presets() if state.get("presets") is None else state["presets"]
            state.setdefault("view", _view_of(checked(lambda v: _check_points(v, "points"), state["points"])))
            super().__init__(**state, **kwargs)

        # Each trait is checked alone: the module may send points and labels in one update or in
        # two, so their lengths are compared where they are read (X, y), not here.
        @traitlets.validate(*_CHECKS, "preset")
        def _check_trait(self, proposal: Any) -> Any:
            name, value = proposal["trait"].name, proposal["value"]
            if name == "preset":
                return checked(lambda v: _check_preset_name(v, self.presets), value)
            value = checked(_CHECKS[name], value)
            if name == "presets" and self.preset and self.preset not in [p["name"] for p in value]:
                raise errors[ValueError](f"the preset loaded, {self.preset!r}, is not among the new presets; set "
                                         "preset='' first, or keep it in the list.")
            return value

        def _setting(self, key: str) -> Any:
            return getattr(self, key)

        def set_data(self, X: ArrayLike, y: ArrayLike) -> None:
            """Show the points ``X`` (n × 2, n ≤ MAX_POINTS) with labels ``y`` (±1) instead: both
            checked before anything changes, sent in one update with a view fitted to them;
            ``preset`` becomes "" (data of your own)."""
            X, y = (X := _check_points(X)), _check_labels(y, len(X))
            with self.hold_sync():
                self.points, self.labels, self.view, self.preset = _json_points(X), [int(v) for v in y], _view_of(X), ""

    return PlaygroundWidget


def __getattr__(name: str) -> Any:
    # PlaygroundWidget subclasses anywidget.AnyWidget: defined (and anywidget imported) only
    # when it is asked for.
    if name == "PlaygroundWidget":
        return _widget_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")



# --------------------------------------------------------------------------------------------
# The entry point
# --------------------------------------------------------------------------------------------


def playground(X: ArrayLike | None = None, y: ArrayLike | None = None, *, preset: str = "planted",
               tie: str = "mistake", offset: bool = False, c: float = 1.0, margin_target: bool = False,
               target: float = 0.5, max_epochs: int = 100, title: str = "Perceptron playground",
               presets: Sequence[str | Mapping[str, Any]] | None = None, mode: str | None = None) -> Any:
    """The perceptron playground, on your points or on one of the chapters' data sets.

    Parameters
    ----------
    X : array of shape (n, 2), optional
        Points of your own (0 ≤ n ≤ :data:`MAX_POINTS`), with their labels ``y`` (+1 or -1).
        Give both or neither; without them the playground starts from ``preset``.
    y : array of shape (n,), optional
    preset : str
        The preset to start from when no ``X`` is given (see :func:`presets`): "planted",
        "and", "or", "xor", "wedge" or "iris". Ignored when ``X`` is given.
    tie : {"mistake", "positive", "negative"}
        What the perceptron does where ``w·x = 0``, as in :func:`perceptron_core.perceptron`.
    offset : bool
        Start with the offset trick on: the run is on the lifted points (x1, x2, c).
    c : float
        The height of the lifted points, > 0.
    margin_target : bool
        Start with the margin perceptron, aiming at τγ with τ = ``target``, instead of the perceptron.
    target : float
        The fraction τ of γ the margin perceptron aims at, strictly between 0 and 1.
    max_epochs : int
        The cap on sweeps, 1 to :data:`MAX_EPOCHS`.
    title : str
        The playground's accessible name (what a screen reader announces).
    presets : list, optional
        The data sets the playground's menu offers: built-in names (``["and", "or", "xor"]``)
        or dicts with ``name``, ``title``, ``points``, ``labels``, ``note`` (and, optionally,
        ``view``). Default: every built-in preset. ``preset`` must be one of them.
    mode : {None, "live", "static"}
        ``None``: "static" when the environment variable :data:`STATIC_ENV_VAR` is true (the
        book build sets it), "live" otherwise.

    Returns
    -------
    PlaygroundWidget or StaticPlayground
        Put it last in a cell to show it. Both have ``X``, ``y``, ``state``, ``run()``,
        ``margin()``, ``radius()`` and ``bound()``; the widget also ``set_data(X, y)``, and its
        ``X`` and ``y`` follow the reader's edits.

    Raises
    ------
    ValueError, TypeError
        A bad argument, with what to change: points not in the plane, more than
        :data:`MAX_POINTS`, labels other than ±1, an unknown preset or tie rule, c ≤ 0, a
        target outside (0, 1), max_epochs out of range, an unknown mode.
    ImportError
        In live mode without anywidget (``pip install "perceptron_core[book]"``).

    Examples
    --------
    >>> pg = playground(preset="xor", mode="static")
    >>> pg.X.shape, pg.y.tolist()
    ((4, 2), [-1.0, 1.0, 1.0, -1.0])
    """
    if mode not in (None, "live", "static"):
        raise ValueError(f"mode must be None (live, or static in the book build), 'live' or 'static', got {mode!r}.")
    static = mode == "static" or (mode is None and os.environ.get(STATIC_ENV_VAR, "").strip().lower() in {"1", "true", "yes", "on"})
    offered = _check_presets(_builtin_presets() if presets is None else presets)
    if (X is None) != (y is None):
        raise ValueError(f"pass both X and y (points and their labels), or neither for a preset; got only {'X' if y is None else 'y'}.")
    if X is None:
        chosen = next(p for p in offered if p["name"] == _check_preset_name(preset, offered, allow_none=False))
        name, points, labels, view = chosen["name"], chosen["points"], chosen["labels"], chosen["view"]
    else:
        Xa = _check_points(X)
        name, points, labels, view = "", _json_points(Xa), [int(v) for v in _check_labels(y, len(Xa))], _view_of(Xa)
    state = _check_state({"points": points, "labels": labels, "presets": offered, "preset": name, "view": view,
                          "tie": tie, "offset": offset, "c": c, "margin_target": margin_target, "target": target,
                          "max_epochs": max_epochs, "title": title})  # every message before anywidget is imported
    return StaticPlayground(state) if static else _widget_class()(**state)
