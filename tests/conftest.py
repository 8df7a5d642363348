"""What the tests share: hypothesis profiles and data strategies, the chapters' pages, an
independent reference perceptron, and helpers for what a figure shows.

The tests are filed by what they test: ``core/`` (perceptron_core's modules), ``drawing/`` (the
figure modules and explore), ``chapters/`` (one parametrized test of every chapter, and each
chapter's own claims), ``book/`` (the build and its outputs). Helpers here are plain functions,
imported as ``from conftest import ...`` (this folder is on sys.path, as pytest puts it there).
"""

from __future__ import annotations

import fcntl
import functools
import json
import math
import os
import pickle
import re
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import perceptron_core as pc

# The book's build code and tools (book/_tools) are not in the package; the tests import them.
import sys  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "book" / "_tools"))

# Random data sets for every theorem, without a wall-clock deadline: the machine is shared and
# slow runs are not failures. Three profiles:
# - "ci", which `make test` (and CI) runs: derandomized, so the examples of a test depend only on
#   the test, and a run gives the same verdict on every machine and every day. A failure there is
#   a failure of the change being tested, never a random find on someone else's change. It tries
#   30% of the examples a test names: the same ones on every run, so more of them would find
#   nothing new from one run to the next, and the suite stays under a minute on two cores.
# - "deep", which `make test-deep` runs: random examples, and PERCEPTRON_DEEP_FACTOR (default 10)
#   times as many as a test names. What it finds is a bug report: hypothesis prints the
#   falsifying example, to be fixed and kept as an @example of the test.
# - "default" for a plain `pytest` run: random, as many examples as a test names.
# A test names its number as ``@settings(max_examples=examples(N))``; one that names none gets
# examples(200). The profile is chosen (``--hypothesis-profile``) before the test modules are
# imported, so examples() reads the one in force.
DEEP_FACTOR = int(os.environ.get("PERCEPTRON_DEEP_FACTOR", "10"))
EXAMPLE_FACTORS = {"ci": 0.3, "deep": DEEP_FACTOR, "default": 1}
UNNAMED = 200
_common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("default", max_examples=UNNAMED, **_common)
settings.register_profile("ci", max_examples=round(UNNAMED * EXAMPLE_FACTORS["ci"]), derandomize=True, **_common)
settings.register_profile(
    "deep", max_examples=UNNAMED * DEEP_FACTOR, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def examples(n: int) -> int:
    """The number of examples a property test that names ``n`` tries under the profile in force."""
    return max(1, round(n * EXAMPLE_FACTORS.get(settings.get_current_profile_name(), 1)))


def pytest_configure(config):
    """The markers the tests use beyond pyproject.toml's list."""
    config.addinivalue_line(
        "markers",
        "notebooks: starts a Jupyter kernel or reads what the book build made; "
        "`make test-notebooks` runs these, the unit suite (`make test-unit`) leaves them out",
    )


@st.composite
def planted_data(draw, max_n: int = 40, max_d: int = 6):
    """A separable data set with a planted unit vector u of margin exactly gamma, radius R."""
    n = draw(st.integers(2, max_n))
    d = draw(st.integers(1, max_d))
    R = draw(st.floats(0.5, 5.0))
    ratio = draw(st.floats(0.05, 1.0))
    seed = draw(st.integers(0, 2**31 - 1))
    X, y, u = pc.planted(n, d, ratio * R, R, seed=seed)
    return X, y, u, ratio * R, R


@st.composite
def small_labelled_data(draw, max_n: int = 12, max_d: int = 3, top: int = 3):
    """Small integer-valued data (entries -top..top, as floats) with arbitrary labels: separable
    or not, with exact ties."""
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    entries = st.integers(-top, top)
    X = np.array(draw(st.lists(st.lists(entries, min_size=d, max_size=d), min_size=n, max_size=n)), float)
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    return X, y


#: The label each tie rule predicts where the score is 0 (0: none, so a tie is a mistake).
AT_TIE = {"mistake": 0, "positive": 1, "negative": -1}


def contract_perceptron(X, y, *, offset=False, tie="mistake", max_epochs=1000) -> dict:
    """The run contract of ``perceptron_core`` in plain Python floats, written here once for the
    core's tests and the playground's: ``score = b``, then ``+= x_j w_j`` left to right; a
    mistake when ``y·score < 0``, or ``= 0`` where the tie rule predicts another label; then
    ``b += y`` (with ``offset``) and ``w_j += y x_j``. Returns every update (``i``, ``epoch``
    from 1, ``w`` and ``b`` after it) and the end (``w``, ``b``, ``converged``, ``epochs``)."""
    rows, labels = [[float(v) for v in r] for r in X], [float(v) for v in y]
    w, b, steps, clean, epoch = [0.0] * len(rows[0]), 0.0, [], False, 0
    while not clean and epoch < max_epochs:
        epoch, clean = epoch + 1, True
        for i, (x, label) in enumerate(zip(rows, labels)):
            score = b
            for xj, wj in zip(x, w):
                score += xj * wj
            if label * score < 0 or (label * score == 0 and AT_TIE[tie] != label):
                b = b + label if offset else b
                w = [wj + label * xj for xj, wj in zip(x, w)]
                steps.append({"i": i, "epoch": epoch, "w": w, "b": b})
                clean = False
    return {"steps": steps, "w": w, "b": b, "converged": clean, "epochs": epoch}


def contract_margin(X, y, gamma, target, max_epochs) -> dict:
    """The Margin Perceptron's contract in plain Python floats: ``z = y x``, ``w = z_1``, and a
    margin mistake when ``w = 0`` or ``z·w < τγ·√(w·w)`` (both sums left to right); then
    ``w += z``. Returns ``w0``, every update (``i``, ``epoch``, ``w`` after it, and ``mistake``:
    ``z·w ≤ 0``) and the end (``w``, ``converged``, ``epochs``)."""
    Z = [[float(label) * float(v) for v in row] for row, label in zip(X, y)]
    w, aim, steps, clean, epoch = list(Z[0]), target * gamma, [], False, 0
    w0 = list(w)
    while not clean and epoch < max_epochs:
        epoch, clean = epoch + 1, True
        for i, z in enumerate(Z):
            s = nn = 0.0
            for zj, wj in zip(z, w):
                s += zj * wj
            for wj in w:
                nn += wj * wj
            if nn == 0.0 or s < aim * math.sqrt(nn):
                w = [wj + zj for zj, wj in zip(z, w)]
                steps.append({"i": i, "epoch": epoch, "w": w, "mistake": s <= 0})
                clean = False
    return {"w0": w0, "steps": steps, "w": w, "converged": clean, "epochs": epoch}


@pytest.fixture
def no_convergence_warnings():
    """Runs that stop at their epoch cap without a warning: for modules whose subject they are
    (``pytestmark = pytest.mark.usefixtures("no_convergence_warnings")``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        yield


@pytest.fixture(scope="session")
def once_per_run(tmp_path_factory):
    """``once_per_run(name, make)`` returns ``make(folder)``, made once per test run even when
    pytest-xdist spreads the tests over several processes: the first process to ask makes it in
    a folder they all see, holding an exclusive lock on ``<name>.lock`` while it does; the others
    block on that lock (no polling, no ``sleep``) and then read what it made. The kernel drops a
    lock when its process ends, however it ends, so no one waits on a process that died: the next
    one finds nothing made and makes it anew. (xdist's own ``xdist_group`` does not keep tests
    together under pytest 9.2: xdist 3.8 renames ``item._nodeid``, which pytest 9.2 no longer
    reads.)"""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # this run's folder, above each worker's own

    def run(name: str, make: Callable[[Path], Any]) -> Any:
        folder, done, failed = root / name, root / f"{name}.done", root / f"{name}.failed"
        with open(root / f"{name}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # returns when no other process holds it
            if done.exists():
                return pickle.loads(done.read_bytes())
            if failed.exists():
                pytest.fail(f"{name} failed in another test process: {failed.read_text()}")
            shutil.rmtree(folder, ignore_errors=True)  # what a process that died left half made
            folder.mkdir()
            try:
                result = make(folder)
            except BaseException as exc:
                failed.write_text(str(exc)[-3000:] or type(exc).__name__)
                raise
            partial = root / f"{name}.done.partial"
            partial.write_bytes(pickle.dumps(result))
            partial.rename(done)  # a process that dies while writing leaves no half-written result
            return result

    return run


# --------------------------------------------------------------------------- the chapters' pages


@functools.lru_cache(maxsize=None)
def _notebook(chapter: str) -> str:
    return (REPO / "book" / f"{chapter}.ipynb").read_text(encoding="utf-8")


def notebook_cells(chapter: str) -> list[dict]:
    """The cells of ``book/<chapter>.ipynb`` (a fresh copy: a test may not change another's)."""
    return json.loads(_notebook(chapter))["cells"]


def cell_source(cell: dict) -> str:
    return "".join(cell["source"])


def markdown_text(chapter: str, sep: str = "\n\n") -> str:
    """The prose of a chapter: its markdown cells joined by ``sep``."""
    return sep.join(cell_source(c) for c in notebook_cells(chapter) if c["cell_type"] == "markdown")


def is_hidden(cell: dict) -> bool:
    """A cell whose code the reader does not see on the page."""
    tags = cell.get("metadata", {}).get("tags", [])
    return any(t in tags for t in ("remove-input", "remove-cell", "hide-input"))


def made_up_book(nb: dict, word: str = "Box"):
    """What a built book would know about the notebook ``nb``, made up: a number for every label
    it uses ("Box 0", "Box 1", ... in the order of the labels' names, so not the chapter's
    order), a link for each, and "2" for every glued value (an int takes every format spec the
    chapters use: d, f, e, %). For the converters of book/_tools (reader_notebooks, assignments)
    without a build."""
    from reader_notebooks import Book, Target, citations

    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    labels = set(re.findall(r"^:label:\s*(\S+)", source, re.M))
    labels |= set(re.findall(r"^\(([\w:.-]+)\)=", source, re.M))
    labels |= {m.split("<")[-1].rstrip(">") for m in re.findall(r"\{(?:prf:)?ref\}`([^`]+)`", source)}
    glued = {m.split(":")[0]: "2" for m in re.findall(r"\{glue:text\}`([^`]+)`", source)}
    ordered = sorted(labels)
    return Book(glued=glued, format_glued=lambda text, spec: format(int(text), spec),
                numbers={lab: f"{word} {i}" for i, lab in enumerate(ordered)},
                targets={lab: Target(f"{word} {i}", f"https://b.io/{lab}") for i, lab in enumerate(ordered)},
                cite=citations([str(REPO / "book" / "references.bib")], ""))


# ----------------------------------------------------------------------- what a figure shows


def figure_texts(fig) -> str:
    """Every text a figure shows: suptitle, figure texts, titles, annotations, legend entries."""
    return "\n".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))


# ------------------------------------------------------- a run in exact integers (a reference)


def integer_run_states(X, y, epochs, offset=True):
    """Cyclic perceptron in Python integers (ties are mistakes): the states after each mistake,
    as (weights, next position)."""
    rows = [[int(v) for v in row] + ([1] if offset else []) for row in X]
    w = [0] * len(rows[0])
    states = [(tuple(w), 0)]
    for _ in range(epochs):
        for i, (x, label) in enumerate(zip(rows, y)):
            if int(label) * sum(a * b for a, b in zip(w, x)) <= 0:
                w = [a + int(label) * b for a, b in zip(w, x)]
                states.append((tuple(w), (i + 1) % len(rows)))
    return states
