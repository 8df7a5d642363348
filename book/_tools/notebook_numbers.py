"""The cross-CPU check: the chapters' glued numbers, run again under a second numeric set-up.

A reader's machine may run OpenBLAS with another kernel (an older CPU, another vendor) and numpy
with other SIMD code; both move the last bits of dot products, sums and transcendental functions.
A number the prose quotes must not hinge on them. So ``make test`` runs every chapter twice: once
in the book build (numeric set-up 1, the machine as it is), and once in the lowest environment
under numeric set-up 2 (:func:`alternate_env`: the oldest x86-64 OpenBLAS kernel, numpy's SIMD
paths off), both with jupyter-cache's ``local-parallel`` executor. Then :func:`compare` reads the
two runs from their execution caches and compares every glued value:

* floats within a relative 1e-6 (an absolute 1e-9 near 0, where exact zeros come out as
  rounding noise of either sign), integers, booleans, strings and the text around the numbers
  of a repr exactly (whitespace aside: array reprs pad numbers to a common width);
* a value whose name ends in ``-ms`` is a wall-clock time: it must be there, not equal.

Nothing is stored: the reference is the build's own run in the same ``make test``, so a chapter
edit needs no refresh step, and the numbers checked are those on the published pages.

Usage (the Makefile's ``test-lowest``)::

    python book/_tools/notebook_numbers.py env                  # VAR=value ... of set-up 2
    python book/_tools/notebook_numbers.py compare CACHE CACHE2  # two jupyter-cache folders
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

RTOL, ATOL = 1e-6, 1e-9
# Prescott is the oldest x86-64 kernel that dynamic OpenBLAS builds ship (SSE3, no FMA).
ALT_CORETYPE, FALLBACK_CORETYPE = "Prescott", "Nehalem"
# A number inside a repr: not the end or start of a name (``x1``, ``float64``).
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf)(?![\w.])")
# NumPy 2 writes np.float64(0.1) where NumPy 1 writes 0.1; an object's address changes each run.
_NOISE = [(re.compile(r"\bnp\.(?:float|int|uint|bool|str_)\w*\(([^()]*)\)"), r"\1"),
          (re.compile(r"\bnp\.(True|False)_"), r"\1"), (re.compile(r" at 0x[0-9a-fA-F]+"), "")]


def alternate_env() -> dict[str, str]:
    """Numeric set-up 2 for this machine and this Python's numpy.

    The SIMD targets are read from this numpy at run time: naming one that numpy does not know,
    or that the CPU lacks, is an error in some numpy versions.
    """
    import numpy

    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    from threadpoolctl import threadpool_info

    del numpy  # imported so that threadpoolctl sees its OpenBLAS
    kernels = [i.get("architecture", "") for i in threadpool_info() if i["internal_api"] == "openblas"]
    on_prescott = any(k.lower() in ("prescott", "katmai") for k in kernels)
    env = {"OPENBLAS_CORETYPE": FALLBACK_CORETYPE if on_prescott else ALT_CORETYPE}
    targets = [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]
    if targets:  # a CPU with the baseline only has nothing to turn off
        env["NPY_DISABLE_CPU_FEATURES"] = ",".join(targets)
    return env


def same(a: str, b: str) -> tuple[bool, bool]:
    """Whether two ``text/plain`` reprs of a glued value match (see the module's docstring), and
    whether they differ at all (last bits moved)."""
    for pattern, repl in _NOISE:
        a, b = pattern.sub(repl, a), pattern.sub(repl, b)
    na, nb = _NUMBER.findall(a), _NUMBER.findall(b)
    text_a, text_b = ("".join(_NUMBER.split(t)).replace(" ", "").replace("\n", "") for t in (a, b))
    if text_a != text_b or len(na) != len(nb):
        return False, True
    for x, y in zip(na, nb):
        if any(c in x + y for c in ".eEni"):  # a float: a point, an exponent, nan or inf
            fx, fy = float(x), float(y)
            if math.isnan(fx) or math.isnan(fy) or math.isinf(fx) or math.isinf(fy):
                if not (fx == fy or math.isnan(fx) and math.isnan(fy)):
                    return False, True
            elif abs(fx - fy) > max(ATOL, RTOL * max(abs(fx), abs(fy))):
                return False, True
        elif int(x) != int(y):
            return False, True
    return True, a != b


def run_of(notebook: Path, cache_dir: Path) -> dict[str, str]:
    """Each name glued by the cached run of exactly this notebook's code -> its text/plain."""
    import json

    import nbformat
    from jupyter_cache import get_cache
    from reader_notebooks import glued_values  # book/_tools, beside this file

    cache = get_cache(str(cache_dir))
    try:
        record = cache.match_cache_notebook(nbformat.read(notebook, as_version=4))
    except KeyError:
        raise LookupError(f"{cache_dir} has no run of {notebook.name} as it is now (its run "
                          "failed, or the notebook changed after it)") from None
    return glued_values(json.loads(nbformat.writes(cache.get_cache_bundle(record.pk).nb)))


def compare(reference: dict[str, str], other: dict[str, str]) -> tuple[list[str], int]:
    """Every difference between two runs' glued values, as messages; and how many values moved
    within the tolerance."""
    problems, moved = [], 0
    for name in sorted(reference.keys() | other.keys()):
        if name not in reference or name not in other:
            problems.append(f"{name}: glued by one run only")
        elif not name.endswith("-ms"):
            ok, differ = same(reference[name], other[name])
            moved += ok and differ
            if not ok:
                problems.append(f"{name}: {reference[name]} in one run, {other[name]} in the other")
    return problems, moved


def main(argv: list[str]) -> int:
    if argv == ["env"]:
        print(" ".join(f"{k}={v}" for k, v in alternate_env().items()))
        return 0
    if len(argv) != 3 or argv[0] != "compare":
        print(__doc__, file=sys.stderr)
        return 2
    from chapters import chapter_paths  # book/_tools, beside this file

    failed = 0
    for notebook in chapter_paths():
        try:
            problems, moved = compare(*(run_of(notebook, Path(d)) for d in argv[1:]))
        except LookupError as exc:
            problems, moved = [str(exc)], 0
        failed += bool(problems)
        print(f"{'FAILED' if problems else 'OK    '} {notebook.stem:<18} "
              f"{moved} value(s) moved within the tolerance" + "".join(f"\n  {p}" for p in problems))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main(sys.argv[1:]))
