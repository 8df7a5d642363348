"""Every chapter notebook executes, and every number it glues for the prose matches its reference.

The references are ``tests/notebook_numbers/<notebook>.json``; ``make outputs`` refreshes them.
Floats match to a relative tolerance of 1e-6 (absolute 1e-9 near 0), so that another BLAS kernel
or SIMD path, which moves last bits, still passes; integers, booleans and strings match exactly.
``make test`` checks the book build's runs with this file (numeric set-up 1, as the machine is);
under the second set-up of ``book/_tools/numeric_setups.py`` it runs every chapter with nbval,
and ``book/_tools/nbval_glue.py`` applies the same comparison to that run.

The tests that start a kernel, run nbval or read a build's cache are marked ``notebooks``: the
unit suite (``make test-unit``, ``-m "not browser and not notebooks"``) leaves them out, and
``make test-notebooks-native`` runs them (``-m notebooks``); the tests of the comparison itself are
unit tests. Executing the chapters takes a while, so that test also needs
``PERCEPTRON_NOTEBOOKS=1`` (``make test-notebooks`` sets it).
``PERCEPTRON_NOTEBOOK_DIR`` / ``PERCEPTRON_NOTEBOOK_REFERENCES`` point the test at other
notebooks and references, ``PERCEPTRON_NOTEBOOK_WORKERS`` sets how many run at once.
``PERCEPTRON_NOTEBOOKS_FROM_BUILD=_build/.jupyter_cache`` checks the runs the book build made
instead of executing the notebooks again (``make test`` does so for the machine as it is: the
numbers checked are then the very numbers on the published pages).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "_tools"))
import notebook_numbers as nn  # noqa: E402

BOOK = Path(os.environ.get("PERCEPTRON_NOTEBOOK_DIR", nn.BOOK)).resolve()
REFERENCES = Path(os.environ.get("PERCEPTRON_NOTEBOOK_REFERENCES", nn.REFERENCES)).resolve()
RUN_NOTEBOOKS = os.environ.get("PERCEPTRON_NOTEBOOKS", "").lower() in {"1", "true", "yes", "on"}
FROM_BUILD = os.environ.get("PERCEPTRON_NOTEBOOKS_FROM_BUILD", "")
NOTEBOOKS = nn.discover(BOOK)
needs_kernel = pytest.mark.skipif(
    not RUN_NOTEBOOKS, reason="executes notebooks: run `make test-notebooks` (PERCEPTRON_NOTEBOOKS=1)"
)
#: Starts a kernel (or nbval, or reads a build's cache): not a unit test (tests/conftest.py registers it).
notebooks = pytest.mark.notebooks


def _numeric_setup() -> str:
    names = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")
    parts = [f"{k}={os.environ[k]}" for k in names if k in os.environ]
    return " ".join(parts) or "as the machine is"


# --------------------------------------------------------------------------------------------
# The comparison itself
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ref", "new", "same"),
    [
        ("2.99999999", "3.00000001", True),  # the two sides of 3 that flipped a six-decimal check
        ("3.0", "3.1", False),
        ("3.0", "3.00001", False),  # 3.3e-6 relative: outside 1e-6
        ("16769026.000002", "16769026.000007", True),  # another OpenBLAS kernel, issue 9
        ("1.0", "1.000000", True),  # numbers, not text
        ("np.float64(0.1)", "0.1", True),  # numpy 2 repr against a Python float
        ("np.float64(0.1)", "np.float64(0.10000000000000003)", True),
        ("1e-17", "-3e-17", True),  # rounding noise around 0: the absolute floor
        ("1e-17", "1e-6", False),
        ("nan", "np.float64(nan)", True),
        ("nan", "1.0", False),
        ("inf", "1.7976931348623157e+308", False),
        ("3", "4", False),
        ("16769027", "16769026", False),  # 6e-8 relative, but a count: exact
        ("(16769027, 0.5)", "(16769026, 0.5)", False),  # integers inside a repr too
        ("3", "3", True),
        ("np.int64(34)", "34", True),
        ("34", "34.0", False),  # a count that became a float is a change
        ("True", "np.True_", True),
        ("True", "1", False),
        ("False", "np.False_", True),
        ("'1.0'", "'1.000000'", False),  # glued strings are exact: glue the number instead
        ("'perceptron'", "'perceptron'", True),
        ("array([1.        , 2.33333333])", "array([1.00000000001, 2.33333333])", True),
        ("array([1., 2.])", "array([1., 2., 3.])", False),
        ("Fraction(1, 3)", "Fraction(1, 3)", True),
        ("Fraction(1, 3)", "Fraction(2, 6)", False),  # integers inside a repr are exact
        ("(3, 0.5)", "(3, 0.5000000001)", True),
        ("(3, 0.5)", "(4, 0.5)", False),
        ("Result(mistakes=3, gamma=0.1)", "Result(mistakes=3, gamma=0.1)", True),
        ("Result(mistakes=3, gamma=0.1)", "Result(errors=3, gamma=0.1)", False),
        ("None", "None", True),
        ("None", "0", False),
    ],
)
def test_values_match(ref: str, new: str, same: bool) -> None:
    assert nn.values_match(ref, new) is same
    assert nn.values_match(new, ref) is same  # symmetric


def test_parse_plain_types() -> None:
    assert nn.parse_plain("np.float64(0.25)") == {"type": "float", "value": 0.25}
    assert nn.parse_plain("np.int64(-7)") == {"type": "int", "value": -7}
    assert nn.parse_plain("np.True_") == {"type": "bool", "value": True}
    assert nn.parse_plain("np.str_('a')") == {"type": "str", "value": "a"}
    assert nn.parse_plain("'a'") == {"type": "str", "value": "a"}
    assert nn.parse_plain("-inf") == {"type": "float", "value": float("-inf")}
    assert nn.parse_plain("[1, 2]") == {"type": "repr", "value": "[1, 2]"}


def test_rtol_is_relative_and_atol_is_a_floor() -> None:
    assert nn.floats_close(1e9, 1e9 + 900)  # 9e-7 relative
    assert not nn.floats_close(1e9, 1e9 + 1100)
    assert nn.floats_close(0.0, 5e-10)
    assert not nn.floats_close(0.0, 5e-9)
    assert nn.floats_close(3.0, 3.1, rtol=0.05)


def _glue_output(name: str, plain: str, hidden: bool = True, extra: dict | None = None) -> dict:
    prefix = "application/papermill.record/" if hidden else ""
    data = {prefix + "text/plain": plain}
    for mime, value in (extra or {}).items():
        data[prefix + mime] = value
    return {
        "output_type": "display_data",
        "data": data,
        "metadata": {"scrapbook": {"name": name, "mime_prefix": prefix}},
    }


def test_compare_reports_every_problem_at_once() -> None:
    nb = {
        "cells": [
            {"cell_type": "markdown", "source": "x"},
            {
                "cell_type": "code",
                "outputs": [
                    {"output_type": "stream", "name": "stdout", "text": "hello"},
                    _glue_output("count", "np.int64(4)"),
                    _glue_output("bound", "16769026.000007", hidden=False),
                    _glue_output("ratio", "np.float64(1.5)"),
                    _glue_output("fig", "<Figure size 640x480 with 1 Axes>", extra={"image/png": "iVBO"}),
                    _glue_output("new", "1"),
                    _glue_output("obj", "<Thing object at 0x7f00deadbeef>"),
                ],
            },
        ]
    }
    glued = nn.collect_glue(nb)
    assert list(glued.values) == ["count", "bound", "ratio", "fig", "new", "obj"]
    assert glued.values["fig"] == {"type": "display", "mime": ["image/png", "text/plain"]}
    assert glued.values["obj"]["type"] == "display"  # an address is not a value
    reference = {
        "count": {"type": "int", "value": 3},
        "bound": {"type": "float", "value": 16769026.000002},
        "ratio": {"type": "float", "value": 1.6},
        "fig": {"type": "display", "mime": ["image/png", "text/plain"]},
        "gone": {"type": "float", "value": 2.0},
        "obj": {"type": "display", "mime": ["text/plain"]},
    }
    problems = nn.compare(reference, glued)
    assert len(problems) == 4, problems
    text = "\n".join(problems)
    assert "count: expected int 3, got int 4" in text
    assert "ratio: expected float 1.6, got float 1.5" in text and "relative difference" in text
    assert "gone: in the reference" in text and "not glued by the run" in text
    assert "new: glued by the run" in text and "not in the reference" in text
    # A per-entry tolerance in the reference widens the check for that value only.
    reference["ratio"]["rtol"] = 0.1
    assert len(nn.compare(reference, glued)) == 3
    # A value marked presence-only (a wall-clock time) is not compared, but must keep its type.
    reference["count"]["check"] = "presence"
    assert len(nn.compare(reference, glued)) == 2
    reference["count"]["type"] = "float"
    assert len(nn.compare(reference, glued)) == 3


def test_duplicate_glue_is_reported() -> None:
    nb = {"cells": [{"cell_type": "code", "outputs": [_glue_output("a", "1"), _glue_output("a", "2")]}]}
    glued = nn.collect_glue(nb)
    assert any("glued more than once" in p for p in nn.compare({"a": {"type": "int", "value": 2}}, glued))


def test_reference_round_trip(tmp_path: Path) -> None:
    glued = nn.Glued(
        values={
            "x": {"type": "float", "value": 0.1 + 0.2},
            "n": {"type": "float", "value": float("nan")},
            "k": {"type": "int", "value": 3},
            "s": {"type": "str", "value": 'a "quoted" é'},
            "f": {"type": "display", "mime": ["image/png", "text/plain"]},
        }
    )
    path = tmp_path / "sub" / "ch.json"
    nn.write_reference(path, "book/ch.ipynb", glued)
    stored = nn.load_reference(path)
    assert stored["x"]["value"] == 0.1 + 0.2  # floats round-trip exactly
    assert nn.compare(stored, glued) == []
    # A hand-set tolerance survives a refresh.
    data = json.loads(path.read_text())
    data["values"]["x"]["rtol"] = 1e-3
    data["values"]["k"]["check"] = "presence"
    path.write_text(json.dumps(data))
    nn.write_reference(path, "book/ch.ipynb", glued)
    assert nn.load_reference(path)["x"]["rtol"] == 1e-3
    assert nn.load_reference(path)["k"]["check"] == "presence"


def _synthetic(path: Path, cells: list[str]) -> Path:
    # Imported here, as in every test that needs it: nbformat's import takes a second (its
    # validator builds a grammar), which the unit suite's processes need not pay.
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    nb = new_notebook(cells=[new_markdown_cell("# A synthetic chapter")] + [new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nbformat.write(nb, path)
    return path


@notebooks
def test_harness_on_a_synthetic_notebook(tmp_path: Path) -> None:
    """Refresh, check, drift, and a failing cell, end to end on a small notebook."""
    nb = _synthetic(
        tmp_path / "syn.ipynb",
        [
            "import numpy as np\nfrom myst_nb import glue\nv = np.arange(1.0, 4.0)",
            "glue('syn-dot', v @ v / 3, display=False)\nglue('syn-n', np.int64(v.size))\nv",
            "glue('syn-name', 'perceptron', display=False)\nglue('syn-flag', bool(v[0] > 0), display=False)",
        ],
    )
    refs = tmp_path / "refs"
    assert nn.main(["refresh", str(nb), "--references", str(refs)]) == 0
    stored = nn.load_reference(refs / "syn.json")
    assert stored == {
        "syn-dot": {"type": "float", "value": 14 / 3},
        "syn-n": {"type": "int", "value": 3},
        "syn-name": {"type": "str", "value": "perceptron"},
        "syn-flag": {"type": "bool", "value": True},
    }
    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    assert all(not c.get("outputs") for c in cells if c["cell_type"] == "code")
    # Drift in the last bits passes; a real change fails.
    glued = nn.Glued(values=json.loads(json.dumps(stored)))
    stored["syn-dot"]["value"] = 14 / 3 * (1 + 1e-12)
    assert nn.compare(stored, glued) == []
    stored["syn-dot"]["value"] = 14 / 3 * (1 + 1e-5)
    assert len(nn.compare(stored, glued)) == 1
    bad = _synthetic(tmp_path / "bad.ipynb", ["x = 1", "raise RuntimeError('broken chapter')"])
    run = nn.execute(bad)
    assert run.glued is None and "code cell 2" in run.error and "broken chapter" in run.error


@notebooks
def test_nbval_plugin_checks_the_glue_of_the_run_it_watched(tmp_path: Path) -> None:
    """``pytest --nbval-lax -p nbval_glue``: a ``glued numbers`` test after each chapter's cells
    passes when the run glues the reference's values, and fails, naming the value, when not."""
    import subprocess

    book, refs = tmp_path / "book", tmp_path / "refs"
    book.mkdir()
    nb = _synthetic(book / "syn.ipynb", ["from myst_nb import glue", "glue('syn-k', 6 * 7, display=False)"])
    nn.write_reference(refs / "syn.json", "book/syn.ipynb", nn.Glued(values={"syn-k": {"type": "int", "value": 42}}))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "book" / "_tools"),
           "PERCEPTRON_NOTEBOOK_DIR": str(book), "PERCEPTRON_NOTEBOOK_REFERENCES": str(refs)}

    def nbval() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-p", "nbval_glue",
             "-p", "no:cacheprovider", "-rA", str(nb)],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)

    done = nbval()
    assert done.returncode == 0 and "3 passed" in done.stdout, done.stdout + done.stderr
    assert "syn.ipynb::glued numbers" in done.stdout
    nn.write_reference(refs / "syn.json", "book/syn.ipynb", nn.Glued(values={"syn-k": {"type": "int", "value": 43}}))
    done = nbval()
    assert done.returncode == 1 and "1 failed, 2 passed" in done.stdout, done.stdout + done.stderr
    assert "syn-k" in done.stdout


@notebooks
def test_from_build_reads_the_run_of_exactly_this_code(tmp_path: Path) -> None:
    """The build's cached run is found by the notebook's code, and a changed cell finds none."""
    import nbformat
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn
    from nbclient import NotebookClient

    source = ["from myst_nb import glue\nglue('syn-k', 7, display=False)"]
    nb = _synthetic(tmp_path / "syn.ipynb", source)
    executed = nbformat.read(nb, 4)
    # As the build runs it: without timing metadata, which would change the cells' hash.
    NotebookClient(executed, kernel_name="python3", record_timing=False).execute()
    cache_dir = tmp_path / "jupyter_cache"
    get_cache(str(cache_dir)).cache_notebook_bundle(CacheBundleIn(executed, str(nb)), check_validity=False)
    run = nn.from_build(nb, cache_dir)
    assert run.error is None and run.glued.values == {"syn-k": {"type": "int", "value": 7}}
    changed = _synthetic(tmp_path / "changed.ipynb", ["from myst_nb import glue\nglue('syn-k', 8, display=False)"])
    run = nn.from_build(changed, cache_dir)
    assert run.glued is None and "make book" in run.error


# --------------------------------------------------------------------------------------------
# The chapters
# --------------------------------------------------------------------------------------------


def test_every_notebook_has_a_reference_and_every_reference_a_notebook() -> None:
    assert NOTEBOOKS, f"no notebooks found under {BOOK}"
    expected = {nn.reference_path(nb, BOOK, REFERENCES) for nb in NOTEBOOKS}
    stored = set(REFERENCES.rglob("*.json")) if REFERENCES.exists() else set()
    missing = sorted(nn.label(p) for p in expected - stored)
    stale = sorted(nn.label(p) for p in stored - expected)
    assert not missing, f"no reference for these notebooks: {missing}; run `{nn.REFRESH_COMMAND}`"
    assert not stale, f"references without a notebook (delete them): {stale}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_holds_no_outputs(notebook: Path) -> None:
    """The references hold the numbers; committed notebooks hold no outputs."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    dirty = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and (c.get("outputs") or c.get("execution_count"))]
    assert not dirty, (
        f"{nn.label(notebook)}: cells {dirty} hold outputs; run `{nn.REFRESH_COMMAND}` "
        f"or `python book/_tools/notebook_numbers.py strip`"
    )


@pytest.fixture(scope="session")
def runs(request: pytest.FixtureRequest) -> dict[Path, nn.Run]:
    """Execute the selected notebooks once, several at a time, for the tests below."""
    wanted = [
        item.callspec.params["notebook"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_notebook_glued_numbers" and hasattr(item, "callspec")
    ]
    wanted = list(dict.fromkeys(wanted))
    if FROM_BUILD:
        cache = Path(FROM_BUILD).resolve()
        results = {nb: nn.from_build(nb, cache) for nb in wanted}
        summary = (f"\nChecked the book build's runs of {len(results)} notebooks ({_numeric_setup()}, "
                   f"static controls; from {cache}): "
                   + ", ".join(f"{nb.stem} {r.seconds:.1f} s" for nb, r in results.items()))
    else:
        workers = int(os.environ.get("PERCEPTRON_NOTEBOOK_WORKERS", "0")) or nn.default_workers(len(wanted))
        start = time.perf_counter()
        results = nn.execute_all(wanted, workers)
        summary = (
            f"\nExecuted {len(results)} notebooks ({_numeric_setup()}), {workers} at a time, in "
            f"{time.perf_counter() - start:.1f} s: "
            + ", ".join(f"{nb.stem} {r.seconds:.1f} s" for nb, r in results.items())
        )
    # Past pytest's output capture (kernels' stderr stays captured), so that `make test` shows it.
    capman = request.config.pluginmanager.getplugin("capturemanager")
    if capman is not None:
        with capman.global_and_fixture_disabled():
            print(summary)
    return results


@notebooks
@needs_kernel
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_glued_numbers(notebook: Path, runs: dict[Path, nn.Run]) -> None:
    run = runs[notebook]
    if run.error is not None:
        pytest.fail(f"{nn.label(notebook)} does not execute: {run.error}", pytrace=False)
    assert run.glued is not None
    ref_path = nn.reference_path(notebook, BOOK, REFERENCES)
    if not ref_path.exists():
        pytest.fail(f"no reference {nn.label(ref_path)}: run `{nn.REFRESH_COMMAND}`", pytrace=False)
    problems = nn.compare(nn.load_reference(ref_path), run.glued)
    if problems:  # all of them at once, without pytest repeating the message
        pytest.fail(
            f"{nn.label(notebook)} ({_numeric_setup()}): {len(problems)} glued value(s) differ from "
            f"{nn.label(ref_path)}:\n  "
            + "\n  ".join(problems)
            + f"\nIf the change is intended, refresh the references with `{nn.REFRESH_COMMAND}` "
            "and review the diff.",
            pytrace=False,
        )
