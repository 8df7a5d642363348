"""The perceptron playground: points in the plane the reader adds, drags and deletes, with the
perceptron (or the Margin Perceptron) run on them step by step, and R, γ and (R/γ)² beside it.

One call, in a chapter or a notebook::

    from perceptron_core.playground import playground

    playground(preset="and")          # the AND gate; or playground(X, y) for your own points

The picture and the algorithm run in the browser, in one ES module
(``perceptron_core/static/playground.js``, :data:`MODULE_PATH`), in anywidget's format (a default
export with ``render({ model, el })``). What :func:`playground` returns depends on where the
notebook runs, as for :func:`perceptron_core.figures.sliders.explore`:

* **live** (a Jupyter client; tested in JupyterLab): a :class:`PlaygroundWidget`, an
  ``anywidget.AnyWidget`` whose synced traits are the model's keys (:data:`MODEL_KEYS`). The
  module writes the reader's edits back, so ``widget.X`` and ``widget.y`` are the points on the
  screen, ready for ``perceptron_core``; ``widget.set_data(X, y)`` sends new ones.
* **static** (the published book: the environment variable :data:`STATIC_ENV_VAR` is true, or
  ``mode="static"``): a :class:`StaticPlayground`, whose HTML holds the state as JSON and the
  module's whole text in an inline ``<script type="module">`` that mounts it. Inline, because a
  module fetched from ``file://`` is blocked by the browser: the book must work from a folder or
  a zip with no server and no network.

Both have ``X`` (n × 2 floats), ``y`` (±1 floats), ``state`` (the model as JSON-ready data),
``run()`` (the run the playground shows, from ``perceptron_core``) and ``margin()`` (the maximum
margin of the same points). The data sets offered in the playground's menu are :func:`presets`,
built from the package's own data.

anywidget (the ``book`` extra) is imported only when a live widget is made: importing this
module, and the static book, need nothing beyond numpy and scipy.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import check_flag, check_magnitude, check_real, check_X, check_y, safe_limit
from .algorithms import MarginPerceptronResult, PerceptronResult, _check_tie, margin_perceptron, perceptron
from .data import augment, iris_pair, logic_gate, narrow_wedge, planted, xor
from .bounds import margin_perceptron_bound, novikoff_bound
from .geometry import MaxMargin, max_margin, radius, separability

__all__ = [
    "playground",
    "presets",
    "PlaygroundWidget",
    "StaticPlayground",
    "MODEL_KEYS",
    "MODULE_PATH",
    "MAX_POINTS",
    "MAX_EPOCHS",
    "MAX_MODULE_BYTES",
    "STATIC_ENV_VAR",
]

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
MODEL_KEYS = ("points", "labels", "presets", "preset", "view", "tie", "offset", "c",
              "margin_target", "target", "max_epochs", "title")

_TRUE = {"1", "true", "yes", "on"}
_MODES = (None, "live", "static")
_PRESET_KEYS = ("name", "title", "points", "labels", "view", "note")
# Every point's entries stay below this, so that no square, norm or dot product of up to
# MAX_POINTS points lifted to (x1, x2, c) overflows, in Python or in the module's float64.
_LIMIT = safe_limit(3 * MAX_POINTS)


# --------------------------------------------------------------------------------------------
# Checks at the boundary: each returns the value in the model's JSON form, or says what to do
# --------------------------------------------------------------------------------------------


def _is_empty(value: Any) -> bool:
    """True for an empty list or tuple and for an array with no entries (no points)."""
    if isinstance(value, (list, tuple)):
        return len(value) == 0
    return isinstance(value, np.ndarray) and value.size == 0


def _check_points(X: ArrayLike, name: str = "X") -> NDArray[np.float64]:
    """``X`` as an (n, 2) float array, 0 ≤ n ≤ MAX_POINTS, finite and small enough to square."""
    if X is None:
        raise TypeError(f"{name} is None; pass the points as an (n, 2) array, e.g. [[1.0, 2.0], [0.5, -1.0]].")
    if _is_empty(X):
        shape = np.shape(X)
        if len(shape) > 1 and shape[-1] != 2:
            raise ValueError(f"{name} has shape {shape}; the playground is the plane: an empty {name} "
                             f"has shape (0, 2), or pass [] for no points.")
        return np.zeros((0, 2))
    arr = check_X(X, name=name)
    n, d = arr.shape
    if d != 2:
        raise ValueError(
            f"{name} has {d} feature{'s' if d != 1 else ''} per point (shape {arr.shape}); the playground "
            f"is the plane and needs exactly 2. Pick two, e.g. {name}[:, :2], or project the data to 2-D."
        )
    if n > MAX_POINTS:
        raise ValueError(
            f"{name} has {n} points; the playground holds at most {MAX_POINTS} (MAX_POINTS). Pass a "
            f"subset, e.g. {name}[:{MAX_POINTS}] with its labels."
        )
    check_magnitude(arr, name, n_entries=3 * MAX_POINTS)
    return np.array(arr, dtype=np.float64)


def _check_labels(y: ArrayLike, n: int | None = None, name: str = "y") -> NDArray[np.float64]:
    """``y`` as ±1 floats, one label a point (``n`` of them when given)."""
    if y is None:
        raise TypeError(f"{name} is None; pass one label, +1 or -1, per point.")
    if _is_empty(y):
        if n:
            raise ValueError(f"X has {n} points but {name} is empty; pass one label (+1 or -1) per point.")
        return np.zeros(0)
    if n == 0:
        raise ValueError(f"X has no points but {name} has {np.size(y)} labels; pass one label per point.")
    arr = check_y(y, n, name=name)
    if len(arr) > MAX_POINTS:
        raise ValueError(f"{name} has {len(arr)} labels; the playground holds at most {MAX_POINTS} points.")
    return arr


def _check_c(c: float) -> float:
    value = check_real(c, "c")
    if not 0 < value <= _LIMIT:
        raise ValueError(
            f"c must be a positive number (the height of the lifted points (x1, x2, c) in the offset "
            f"trick), at most {_LIMIT:.3g}, got {c!r}; the usual choice is c=1."
        )
    return value


def _check_target(target: float) -> float:
    value = check_real(target, "target")
    if not 0 < value < 1:
        raise ValueError(
            f"target must lie strictly between 0 and 1, got {target!r}: the Margin Perceptron aims at "
            "target·γ, and its bound holds only below γ. Balcan's choice is target=0.5."
        )
    return value


def _check_max_epochs(max_epochs: int) -> int:
    if (isinstance(max_epochs, (bool, np.bool_)) or not isinstance(max_epochs, (int, np.integer))
            or not 1 <= max_epochs <= MAX_EPOCHS):
        raise ValueError(
            f"max_epochs must be a whole number from 1 to {MAX_EPOCHS} (MAX_EPOCHS), got {max_epochs!r}; "
            "it caps the sweeps of a run that does not stop, e.g. max_epochs=100."
        )
    return int(max_epochs)


def _check_title(title: str) -> str:
    if not isinstance(title, str):
        raise TypeError(f"title must be a string (the playground's accessible name), got {title!r}.")
    if not title.strip():
        raise ValueError("title is empty; give the playground a name a screen reader can announce, "
                         "e.g. title='Perceptron on the AND gate'.")
    return title


def _check_view(view: Sequence[float]) -> list[float]:
    hint = "pass [xmin, xmax, ymin, ymax] with xmin < xmax and ymin < ymax, e.g. [-1, 1, -1, 1]."
    if isinstance(view, (str, bytes)) or not isinstance(view, (Sequence, np.ndarray)) or len(view) != 4:
        raise ValueError(f"view must be 4 numbers, got {view!r}; {hint}")
    values = [check_real(v, "each entry of view") for v in view]
    if not (values[0] < values[1] and values[2] < values[3]):
        raise ValueError(f"view {values} is empty or upside down; {hint}")
    return values


def _check_mode(mode: str | None) -> str:
    if mode not in _MODES:
        raise ValueError(f"mode must be None (live, or static in the book build), 'live' or 'static', got {mode!r}.")
    if mode is None:
        return "static" if os.environ.get(STATIC_ENV_VAR, "").strip().lower() in _TRUE else "live"
    return mode


def _nice_floor(value: float, step: float) -> float:
    return float(f"{math.floor(value / step + 1e-9) * step:.12g}")


def _nice_ceil(value: float, step: float) -> float:
    return float(f"{math.ceil(value / step - 1e-9) * step:.12g}")


def _view_of(X: NDArray[np.float64]) -> list[float]:
    """The plot's window: every point and the origin, padded, equally long on both axes.

    Equal spans, because the picture is about geometry: the angle of w and the margins are
    distances and angles only when both axes have one scale. The ends are rounded outwards to a
    round step (1, 2 or 5 times a power of ten), so the ticks fall on round numbers.
    """
    if len(X) == 0 or not np.any(X):
        return [-1.0, 1.0, -1.0, 1.0]
    lo = np.minimum(X.min(axis=0), 0.0)
    hi = np.maximum(X.max(axis=0), 0.0)
    half = 0.55 * float(np.max(hi - lo))  # 10 % padding, 5 % on each side
    centre = (lo + hi) / 2
    raw = half / 5
    if not raw >= 1e-300:  # points within 1e-300 of the origin: no round step to snap to
        return [float(centre[0] - half), float(centre[0] + half), float(centre[1] - half), float(centre[1] + half)]
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    ends = [(_nice_floor(centre[k] - half, step), _nice_ceil(centre[k] + half, step)) for k in (0, 1)]
    # Rounding may leave one axis a few steps shorter: widen it by whole steps, half on each side.
    steps = [round((high - low) / step) for low, high in ends]
    view = []
    for (low, high), own in zip(ends, steps):
        extra = max(steps) - own
        view += [_nice_floor(low - (extra // 2) * step, step), _nice_ceil(high + (extra - extra // 2) * step, step)]
    return view


def _points_json(X: NDArray[np.float64]) -> list[list[float]]:
    return [[float(a), float(b)] for a, b in X]


def _labels_json(y: NDArray[np.float64]) -> list[int]:
    return [int(v) for v in y]


# --------------------------------------------------------------------------------------------
# Presets: the chapters' data sets, from the package itself
# --------------------------------------------------------------------------------------------


def _preset(name: str, title: str, X: ArrayLike, y: ArrayLike, note: str) -> dict[str, Any]:
    X = _check_points(X)
    y = _check_labels(y, len(X))
    return {"name": name, "title": title, "points": _points_json(X), "labels": _labels_json(y),
            "view": _view_of(X), "note": note}


def presets() -> list[dict[str, Any]]:
    """The data sets the playground offers, as the model's ``presets`` list (new each call).

    Each is a dict with ``name`` (what ``playground(preset=...)`` takes), ``title``, ``points``
    (a list of [x1, x2]), ``labels`` (+1/-1), ``view`` ([xmin, xmax, ymin, ymax], padded, with the
    origin and every point) and ``note`` (one sentence for the reader). All come from
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
    X_planted, y_planted, _ = planted(20, 2, gamma, seed=0)
    X_wedge, y_wedge = narrow_wedge(3)
    wedge_gamma = max_margin(X_wedge, y_wedge).gamma_low
    wedge_mistakes = perceptron(X_wedge, y_wedge).mistakes
    X_iris, y_iris = iris_pair("setosa", "versicolor", features=(2, 3))
    iris_mistakes = perceptron(augment(X_iris, 1.0), y_iris).mistakes
    return [
        _preset("planted", "Planted margin", X_planted, y_planted,
                f"Twenty points in the unit disc, separable through the origin with a margin of at "
                f"least {gamma:g}, so the perceptron stops after at most (R/γ)² ≤ {1 / gamma ** 2:g} "
                f"mistakes."),
        _preset("and", "AND gate", *logic_gate("and"),
                "AND on the corners of the unit square: no line through the origin separates it, "
                "since (0, 0) lies on every such line, but the offset trick does."),
        _preset("or", "OR gate", *logic_gate("or"),
                "OR on the corners of the unit square: like AND, it needs the offset trick, since "
                "(0, 0) lies on every line through the origin."),
        _preset("xor", "XOR gate", *xor(),
                "XOR on the corners of the unit square: no line separates it, with or without the "
                "offset trick, so the perceptron never stops of its own accord."),
        _preset("wedge", "Narrow wedge (small margin)", X_wedge, y_wedge,
                f"Two points 1/8 apart, (1, 1) labelled +1 and (0.875, 1) labelled −1, are separated "
                f"through the origin only by lines squeezed between them, so the margin is about "
                f"{wedge_gamma:.3f} and the perceptron makes {wedge_mistakes} mistakes: the plane's "
                f"analogue of the hypercube worst case (for the wedge itself, each extra bit of the "
                f"input roughly halves the margin and doubles the mistakes)."),
        _preset("iris", "Iris petals (cm): setosa vs versicolor", X_iris, y_iris,
                f"Petal length and width in cm of 50 setosa (+1) and 50 versicolor (−1) irises: no "
                f"line through the origin separates them, but with the offset trick (c = 1) the "
                f"perceptron does, after {iris_mistakes} mistakes."),
    ]


# playground()'s argument ``presets`` hides the function there.
_builtin_presets = presets


def _check_presets(value: Any) -> list[dict[str, Any]]:
    """A list of presets: each a built-in name, or a dict with name, title, points, labels and
    note (view optional: computed from the points)."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise TypeError(f"presets must be a list of preset names or dicts, got {value!r}; "
                        f"e.g. presets=['and', 'or', 'xor'].")
    builtin = None
    out: list[dict[str, Any]] = []
    for entry in value:
        if isinstance(entry, str):
            builtin = builtin or {p["name"]: p for p in presets()}
            if entry not in builtin:
                raise ValueError(f"unknown preset {entry!r}; the built-in presets are {sorted(builtin)}.")
            out.append(builtin[entry])
            continue
        if not isinstance(entry, Mapping):
            raise TypeError(f"each preset is a name or a dict with keys {list(_PRESET_KEYS)}, got {entry!r}.")
        missing = [k for k in _PRESET_KEYS if k not in entry and k != "view"]
        extra = [k for k in entry if k not in _PRESET_KEYS]
        if missing or extra:
            raise ValueError(f"a preset dict has the keys {list(_PRESET_KEYS)} (view optional); "
                             f"{'missing ' + str(missing) if missing else ''}"
                             f"{' unknown ' + str(extra) if extra else ''} in {dict(entry).get('name')!r}.")
        for key in ("name", "title", "note"):
            if not isinstance(entry[key], str) or not entry[key].strip():
                raise ValueError(f"a preset's {key} must be a non-empty string, got {entry[key]!r}.")
        X = _check_points(entry["points"], name=f"the points of preset {entry['name']!r}")
        y = _check_labels(entry["labels"], len(X), name=f"the labels of preset {entry['name']!r}")
        view = _view_of(X) if entry.get("view") is None else _check_view(entry["view"])
        out.append({"name": entry["name"], "title": entry["title"], "points": _points_json(X),
                    "labels": _labels_json(y), "view": view, "note": entry["note"]})
    names = [p["name"] for p in out]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"preset names must be unique; {repeated} appear more than once.")
    return out


def _check_preset_name(name: str, offered: Sequence[Mapping[str, Any]], *, allow_none: bool = True) -> str:
    """``name`` of one of the ``offered`` presets, or "" (custom or edited data) if allowed."""
    names = [p["name"] for p in offered]
    if not isinstance(name, str):
        raise TypeError(f"preset must be a preset's name, one of {names}, got {name!r}.")
    if name == "" and allow_none:
        return name
    if name not in names:
        raise ValueError(f"unknown preset {name!r}; choose one of {names}"
                         + (", or pass your own points as playground(X, y)." if allow_none else "."))
    return name


# The check of each model key, given its value alone (the pairs are checked by _check_state).
_CHECKS = {
    "points": lambda v: _points_json(_check_points(v, "points")),
    "labels": lambda v: _labels_json(_check_labels(v, name="labels")),
    "presets": _check_presets,
    "view": _check_view,
    "tie": _check_tie,
    "offset": lambda v: check_flag(v, "offset"),
    "c": _check_c,
    "margin_target": lambda v: check_flag(v, "margin_target"),
    "target": _check_target,
    "max_epochs": _check_max_epochs,
    "title": _check_title,
}


# The defaults of a model made without them (presets: every preset; view: fitted to the points).
_DEFAULTS: dict[str, Any] = {"points": [], "labels": [], "tie": "mistake", "offset": False, "c": 1.0,
                             "margin_target": False, "target": 0.5, "max_epochs": 100,
                             "title": "Perceptron playground"}


def _check_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """A complete, checked model: every key of :data:`MODEL_KEYS`, in that order."""
    unknown = sorted(set(state) - set(MODEL_KEYS))
    if unknown:
        raise ValueError(f"unknown playground keys {unknown}; the keys are {list(MODEL_KEYS)}.")
    out: dict[str, Any] = {}
    for key in MODEL_KEYS:
        if key == "preset":
            continue
        if key == "presets" and state.get(key) is None:
            out[key] = presets()
        elif key == "view" and state.get(key) is None:
            out[key] = _view_of(np.asarray(out["points"], dtype=float).reshape(-1, 2))
        elif key in state:
            out[key] = _CHECKS[key](state[key])
        else:
            out[key] = _CHECKS[key](_DEFAULTS[key])
    if len(out["points"]) != len(out["labels"]):
        raise ValueError(f"{len(out['points'])} points but {len(out['labels'])} labels; pass one label per point.")
    preset = _check_preset_name(state.get("preset", ""), out["presets"])
    return {key: (preset if key == "preset" else out[key]) for key in MODEL_KEYS}


# --------------------------------------------------------------------------------------------
# What both kinds of playground offer
# --------------------------------------------------------------------------------------------


class _Playground:
    """``X``, ``y``, ``state``, ``run()`` and ``margin()``, read from the model's keys by the
    subclass's ``_setting(key)``."""

    def _pair(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        points, labels = self._setting("points"), self._setting("labels")
        if len(points) != len(labels):
            raise ValueError(
                f"the playground holds {len(points)} points but {len(labels)} labels: they were set one "
                "at a time. Set both at once with set_data(X, y)."
            )
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
            raise ValueError(f"the playground has no points, so there is no {what}: add some "
                             "(click in the plot, or set_data(X, y)).")
        return (augment(X, self._setting("c")) if self._setting("offset") else X), y

    def margin(self) -> MaxMargin:
        """The maximum margin through the origin of the points (lifted to (x1, x2, c) when
        ``offset`` is on): ``perceptron_core.max_margin``, the γ the playground shows.

        Raises ``ValueError`` when the points are not separable that way (the message says how
        to get the certificate), or when there are no points.
        """
        Z, y = self._lifted("margin")
        return max_margin(Z, y)

    def radius(self) -> float:
        """R of the points the run sees: the largest norm, of ``augment(X, c)`` when ``offset``
        is on (the lifted radius R′)."""
        Z, _ = self._lifted("radius")
        return radius(Z)

    def bound(self) -> float:
        """The bound the playground checks its run against, from the certified margin
        ``γ = margin().gamma_low``: ``novikoff_bound(R, γ)`` = (R/γ)², or with ``margin_target``
        on, ``margin_perceptron_bound(R, γ, target)``, with R = :meth:`radius`.

        Raises ``ValueError`` when the points have no margin (see :meth:`margin`).
        """
        R, gamma = self.radius(), self.margin().gamma_low
        if self._setting("margin_target"):
            return margin_perceptron_bound(R, gamma, self._setting("target"))
        return novikoff_bound(R, gamma)

    def run(self) -> PerceptronResult | MarginPerceptronResult:
        """The run the playground shows, computed by ``perceptron_core``.

        ``perceptron(Z, y, tie=tie, max_epochs=max_epochs, record=True)`` on the points ``Z``
        (``augment(X, c)`` when ``offset`` is on, else ``X``); with ``margin_target`` on,
        ``margin_perceptron(Z, y, γ, target=target, ...)`` instead, with γ the certified lower
        end of the maximum margin (``max_margin(Z, y).gamma_low``).

        Returns
        -------
        PerceptronResult or MarginPerceptronResult

        Raises
        ------
        ValueError
            No points; or ``margin_target`` on points with no margin to aim at.
        """
        Z, y = self._lifted("run")
        max_epochs = self._setting("max_epochs")
        if self._setting("margin_target"):
            try:
                gamma = max_margin(Z, y).gamma_low
            except ValueError as exc:
                raise ValueError(
                    "the Margin Perceptron aims at target·γ, and these points have no positive margin "
                    f"γ{' (even lifted with the offset trick)' if self._setting('offset') else ' through the origin'}"
                    f": {exc} Turn margin_target off{'' if self._setting('offset') else ', or turn the offset on'}."
                ) from exc
            return margin_perceptron(Z, y, gamma, target=self._setting("target"), max_epochs=max_epochs,
                                     record=True)
        return perceptron(Z, y, tie=self._setting("tie"), max_epochs=max_epochs, record=True)

    def _summary(self) -> str:
        """One line: the title, the points and the settings (cheap: no linear program)."""
        labels = self._setting("labels")
        n, pos = len(labels), sum(1 for v in labels if v > 0)
        preset = self._setting("preset")
        algo = (f"Margin Perceptron aiming at {self._setting('target'):g}·γ" if self._setting("margin_target")
                else f"perceptron, tie={self._setting('tie')!r}")
        return (f"{type(self).__name__}({self._setting('title')!r}: {n} point{'s' * (n != 1)} "
                f"({pos} labelled +1, {n - pos} labelled -1)"
                f"{f', preset {preset!r}' if preset else ''}; {algo}, "
                f"offset {'on, c=' + format(self._setting('c'), 'g') if self._setting('offset') else 'off'}, "
                f"max_epochs={self._setting('max_epochs')})")

    def __repr__(self) -> str:
        return self._summary()


# --------------------------------------------------------------------------------------------
# The static playground: HTML with the state and the module inline
# --------------------------------------------------------------------------------------------


def _module_text() -> str:
    """The ES module's text, checked to be safe inside an inline ``<script>`` element."""
    text = MODULE_PATH.read_text(encoding="utf-8")
    size = len(text.encode("utf-8"))
    if size > MAX_MODULE_BYTES:
        raise RuntimeError(f"{MODULE_PATH.name} is {size} bytes, over MAX_MODULE_BYTES={MAX_MODULE_BYTES}: "
                           "the static book inlines it in every page that shows a playground. Shrink it.")
    # "</script" would end the inline element early; "<!--" would switch the HTML parser into a
    # state where the real "</script>" no longer ends it. Neither is needed in JavaScript.
    found = re.search(r"</script|<!--", text, re.IGNORECASE)
    if found:
        line = text.count("\n", 0, found.start()) + 1
        raise RuntimeError(f"{MODULE_PATH.name} line {line} holds {found.group()!r}, which would break the "
                           "inline <script> of the static book; write it as '<\\/script' or split the string.")
    return text


def _json_for_script(data: Any) -> str:
    """JSON that cannot end the ``<script>`` element holding it: every "<" is written \\u003c,
    which JSON.parse reads back as "<"."""
    return json.dumps(data, allow_nan=False, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


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
    and a ``<noscript>`` description, then the module's text in an inline
    ``<script type="module">`` that calls ``mountStatic()``.
    """

    def __init__(self, state: Mapping[str, Any] | None = None) -> None:
        if state is not None and not isinstance(state, Mapping):
            raise TypeError(f"state must be a dict of the playground's keys {list(MODEL_KEYS)}, got {state!r}.")
        self._model = _check_state(state or {})
        self._html: str | None = None
        self._said: str | None = None

    def _setting(self, key: str) -> Any:
        return self._model[key]

    def _verdict(self) -> str:
        """Whether the points are separable, through the origin and with an offset, in words
        (computed once: the state of a static playground does not change)."""
        if self._said is None:
            self._said = self._separable_in_words()
        return self._said

    def _separable_in_words(self) -> str:
        X, y = self._pair()
        if len(X) == 0:
            return "There are no points yet."

        def word(result: bool | None) -> str:
            return {True: "separable", False: "not separable", None: "undecided"}[result]

        through = separability(X, y).separable
        lifted = separability(X, y, offset=True).separable
        if through == lifted:
            both = {True: "They can be separated by a line through the origin.",
                    False: "No line separates them, with or without an offset.",
                    None: "Whether a line separates them could not be decided."}
            return both[through]
        return f"Through the origin they are {word(through)}; with an offset they are {word(lifted)}."

    def _noscript(self) -> str:
        labels = self._setting("labels")
        n, pos = len(labels), sum(1 for v in labels if v > 0)
        shown = (f"{n} point{'s' * (n != 1)} in the plane ({pos} labelled +1, {n - pos} labelled −1)"
                 if n else "an empty plane")
        return (f"{self._setting('title')}: an interactive figure that needs JavaScript. It shows {shown}, the "
                "perceptron's line after each of its mistakes, the radius R, the margin γ and the bound "
                f"(R/γ)², and lets you add, drag and delete points. {self._verdict()}")

    @property
    def html(self) -> str:
        """The self-contained HTML of the playground (computed once)."""
        if self._html is None:
            self._html = (
                '<div class="pc-playground">'
                f'<script type="application/json">{_json_for_script(self._model)}</script>'
                f"<noscript>{escape(self._noscript(), quote=False)}</noscript></div>"
                f'<script type="module">{_module_text()}\nmountStatic();\n</script>'
            )
        return self._html

    def _repr_html_(self) -> str:
        return self.html

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/html": self.html, "text/plain": f"{self._summary()}. {self._verdict()}"}


# --------------------------------------------------------------------------------------------
# The live playground: an anywidget widget, made the first time it is asked for
# --------------------------------------------------------------------------------------------

_WIDGET_CLASS: type | None = None


def _widget_class() -> type:
    """:class:`PlaygroundWidget`, defined at the first call: it needs anywidget (and so
    ipywidgets), which nothing else in the package imports."""
    global _WIDGET_CLASS
    if _WIDGET_CLASS is not None:
        return _WIDGET_CLASS
    try:
        import anywidget
        import traitlets
    except ImportError as exc:
        raise ImportError(
            "The live playground needs anywidget: pip install \"perceptron_core[book]\" (or pip install "
            "anywidget). For the static HTML instead, call playground(..., mode='static')."
        ) from exc

    # A bad value set on a trait raises these: the ValueError or TypeError the checks raise, and
    # a TraitError too, so that traitlets undoes the other changes of the same update.
    class InvalidValue(ValueError, traitlets.TraitError):
        pass

    class InvalidType(TypeError, traitlets.TraitError):
        pass

    def checked(check, value):
        try:
            return check(value)
        except TypeError as exc:
            raise InvalidType(str(exc)) from None
        except ValueError as exc:
            raise InvalidValue(str(exc)) from None

    def trait(default: Any = None) -> traitlets.Any:
        # Any, not List or Float: the checks below give every value its type and their messages.
        # The lists' defaults are made per widget (below), so that no two widgets share one.
        return traitlets.Any(default).tag(sync=True)

    class PlaygroundWidget(_Playground, anywidget.AnyWidget):
        """The live playground: an anywidget widget running :data:`MODULE_PATH`.

        Its synced traits are the model's keys (:data:`MODEL_KEYS`): ``points``, ``labels``,
        ``presets``, ``preset``, ``view``, ``tie``, ``offset``, ``c``, ``margin_target``,
        ``target``, ``max_epochs`` and ``title``, each checked when set (a ``ValueError`` or
        ``TypeError`` that says what to change). The module writes the reader's edits back to
        ``points``, ``labels`` and ``preset``, so :attr:`X` and :attr:`y` are what the reader
        sees. To replace the points from Python, call :meth:`set_data`, which sets both at once.

        Made with no arguments it holds no points, every preset and the default settings; use
        :func:`playground` to start from a preset or from your own data.
        """

        _esm = MODULE_PATH
        points = trait()
        labels = trait()
        presets = trait()
        preset = trait("")
        view = trait()
        tie = trait(_DEFAULTS["tie"])
        offset = trait(_DEFAULTS["offset"])
        c = trait(_DEFAULTS["c"])
        margin_target = trait(_DEFAULTS["margin_target"])
        target = trait(_DEFAULTS["target"])
        max_epochs = trait(_DEFAULTS["max_epochs"])
        title = trait(_DEFAULTS["title"])

        def __init__(self, **kwargs: Any) -> None:
            state = {key: kwargs.pop(key) for key in MODEL_KEYS if key in kwargs}
            if "view" not in state and "points" in state:
                state["view"] = _view_of(checked(lambda v: _check_points(v, "points"), state["points"]))
            super().__init__(**state, **kwargs)

        @traitlets.default("points")
        def _default_points(self) -> list:
            return []

        @traitlets.default("labels")
        def _default_labels(self) -> list:
            return []

        @traitlets.default("presets")
        def _default_presets(self) -> list:
            return presets()

        @traitlets.default("view")
        def _default_view(self) -> list:
            return [-1.0, 1.0, -1.0, 1.0]

        # Each trait is checked alone: the module may send points and labels in one update or in
        # two, so their lengths are compared where they are read (X, y), not here.
        @traitlets.validate(*_CHECKS)
        def _check_trait(self, proposal: Any) -> Any:
            name = proposal["trait"].name
            value = checked(_CHECKS[name], proposal["value"])
            if name == "presets":
                current = self.preset
                if current and current not in [p["name"] for p in value]:
                    raise InvalidValue(f"the preset loaded, {current!r}, is not among the new presets; "
                                       "set preset='' first, or keep it in the list.")
            return value

        @traitlets.validate("preset")
        def _check_preset(self, proposal: Any) -> str:
            return checked(lambda v: _check_preset_name(v, self.presets), proposal["value"])

        def _setting(self, key: str) -> Any:
            return getattr(self, key)

        def set_data(self, X: ArrayLike, y: ArrayLike) -> None:
            """Show the points ``X`` (n × 2, n ≤ MAX_POINTS) with labels ``y`` (±1) instead.

            Both are checked before anything changes, and sent to the page in one update, with a
            view fitted to them; ``preset`` becomes "" (data of your own).
            """
            X = _check_points(X)
            y = _check_labels(y, len(X))
            with self.hold_sync():
                self.points = _points_json(X)
                self.labels = _labels_json(y)
                self.view = _view_of(X)
                self.preset = ""

    PlaygroundWidget.__qualname__ = "PlaygroundWidget"
    _WIDGET_CLASS = PlaygroundWidget
    return PlaygroundWidget


def __getattr__(name: str) -> Any:
    # PlaygroundWidget subclasses anywidget.AnyWidget: defined (and anywidget imported) only
    # when it is asked for.
    if name == "PlaygroundWidget":
        return _widget_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"PlaygroundWidget"})


# --------------------------------------------------------------------------------------------
# The entry point
# --------------------------------------------------------------------------------------------


def playground(
    X: ArrayLike | None = None,
    y: ArrayLike | None = None,
    *,
    preset: str = "planted",
    tie: str = "mistake",
    offset: bool = False,
    c: float = 1.0,
    margin_target: bool = False,
    target: float = 0.5,
    max_epochs: int = 100,
    title: str = "Perceptron playground",
    presets: Sequence[str | Mapping[str, Any]] | None = None,
    mode: str | None = None,
) -> Any:
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
        Start with the Margin Perceptron, aiming at ``target·γ``, instead of the perceptron.
    target : float
        The fraction of γ the Margin Perceptron aims at, strictly between 0 and 1.
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
        Put it last in a cell to show it. Both have ``X``, ``y``, ``state``, ``run()`` and
        ``margin()``; the widget also ``set_data(X, y)``, and its ``X`` and ``y`` follow the
        reader's edits.

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
    mode = _check_mode(mode)
    offered = _check_presets(_builtin_presets() if presets is None else presets)
    if X is None and y is None:
        name = _check_preset_name(preset, offered, allow_none=False)
        chosen = next(p for p in offered if p["name"] == name)
        points, labels, view = chosen["points"], chosen["labels"], chosen["view"]
    elif X is None or y is None:
        raise ValueError(f"pass both X and y (points and their labels), or neither to start from a preset; "
                         f"got only {'X' if y is None else 'y'}.")
    else:
        Xa = _check_points(X)
        ya = _check_labels(y, len(Xa))
        name, points, labels, view = "", _points_json(Xa), _labels_json(ya), _view_of(Xa)
    state = {"points": points, "labels": labels, "presets": offered, "preset": name, "view": view,
             "tie": tie, "offset": offset, "c": c, "margin_target": margin_target, "target": target,
             "max_epochs": max_epochs, "title": title}
    if mode == "static":
        return StaticPlayground(state)
    checked = _check_state(state)  # every message before anywidget is imported
    return _widget_class()(**checked)
