"""The cross-CPU check's comparison (book/_tools/notebook_numbers.py), and the chapters as committed.

``make test-numeric`` runs every chapter under numeric set-up 2 and compares each glued value
with the book build's own run: floats to a relative 1e-6 (absolute 1e-9 near 0), integers and
text exactly, wall-clock times (names ending in ``-ms``) for presence. The cases below are the
ones that matter: last-bit drift passes, a real change, a count off by one, a value one run
glues and the other does not, fail.
"""

from __future__ import annotations

import json

import pytest

import notebook_numbers as nn  # book/_tools (tests/conftest.py puts it on sys.path)
from chapters import chapter_paths


@pytest.mark.parametrize(("a", "b", "ok"), [
    ("2.99999999", "3.00000001", True),  # the two sides of 3 that flipped a six-decimal check
    ("16769026.000002", "16769026.000007", True),  # another OpenBLAS kernel (issue 9)
    ("3.0", "3.00001", False),  # 3.3e-6 relative: outside 1e-6
    ("1e-17", "-3e-17", True),  # rounding noise around an exact 0: the absolute floor
    ("1e-17", "1e-6", False),
    ("np.float64(0.1)", "0.10000000000000003", True),  # NumPy 2's repr against NumPy 1's
    ("np.True_", "True", True),
    ("nan", "np.float64(nan)", True),
    ("nan", "1.0", False),
    ("inf", "1.7976931348623157e+308", False),
    ("16769027", "16769026", False),  # 6e-8 relative, but a count: exact
    ("(16769027, 0.5)", "(16769026, 0.5)", False),  # integers inside a repr too
    ("array([1.        , 2.33333333])", "array([1.00000000001, 2.33333333])", True),
    ("array([1., 2.])", "array([1., 2., 3.])", False),
    ("Fraction(1, 3)", "Fraction(2, 6)", False),
    ("'perceptron'", "'perceptrons'", False),
    ("<Thing object at 0x7f00dead>", "<Thing object at 0x7f00beef>", True),  # an address
])
def test_values_match_within_the_tolerance_and_only_within_it(a, b, ok):
    assert nn.same(a, b)[0] is ok and nn.same(b, a)[0] is ok


def test_compare_reports_each_difference_and_counts_the_drift():
    build = {"k": "3", "x": "0.5", "gone": "1", "t-ms": "6.33"}
    other = {"k": "4", "x": "0.5000000000001", "new": "2", "t-ms": "10.6"}
    problems, moved = nn.compare(build, other)
    assert moved == 1  # x: last bits moved, within the tolerance
    assert [p.split(":")[0] for p in problems] == ["gone", "k", "new"]  # t-ms: a time, present


def test_the_second_set_up_changes_the_kernel_and_turns_simd_off():
    env = nn.alternate_env()
    assert env["OPENBLAS_CORETYPE"] in (nn.ALT_CORETYPE, nn.FALLBACK_CORETYPE)
    assert set(env) <= {"OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES"}


@pytest.mark.parametrize("notebook", chapter_paths(), ids=lambda p: p.stem)
def test_committed_chapters_hold_no_outputs(notebook):
    """The numbers come from each build's own run; `make outputs` strips a chapter."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    dirty = [i for i, c in enumerate(cells)
             if c["cell_type"] == "code" and (c.get("outputs") or c.get("execution_count"))]
    assert not dirty, f"{notebook.name}: cells {dirty} hold outputs; run `make outputs`"
    # nbformat 4.5 gives every cell an id (jupyter-cache and the reader notebooks key on it;
    # nbformat warns now and will refuse later).
    ids = [c.get("id") for c in cells]
    assert None not in ids and len(set(ids)) == len(ids), f"{notebook.name}: cell ids {ids}"
