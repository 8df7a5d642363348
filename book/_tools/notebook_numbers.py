"""The book's glued numbers: collect them from a run, compare them with a stored reference.

Every number the prose relies on is glued (``myst_nb.glue``, usually through
``book/glue_numbers.py``). ``tests/book/test_notebooks.py`` executes each notebook and
compares every glued value with ``tests/notebook_numbers/<notebook>.json``:

* floats within a relative tolerance of 1e-6 (with an absolute floor of 1e-9 for values near 0),
  so that a different BLAS kernel or SIMD path, which moves the last bits, still passes;
* integers, booleans, strings and ``None`` exactly;
* other plain-text reprs (arrays, tuples, ``Fraction(1, 3)``...) number by number, by the rules
  above, and the text between the numbers exactly (whitespace aside);
* figures, HTML and other rich glue for presence and MIME types only.

A reference entry may carry its own ``"rtol"`` / ``"atol"``, or ``"check": "presence"`` for a
value no run can reproduce (a wall-clock time): then only its presence and type are checked.
A refresh keeps these hand-set keys.

Usage (``make outputs`` runs the first)::

    python book/_tools/notebook_numbers.py refresh [NOTEBOOK ...]  # run, store references, strip
    python book/_tools/notebook_numbers.py strip [NOTEBOOK ...]    # strip outputs only

``refresh`` leaves the notebooks with no outputs at all: the references hold the numbers.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from chapters import chapter_paths  # noqa: E402  (book/_tools, beside this file)

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
REFERENCES = ROOT / "tests" / "notebook_numbers"
REFRESH_COMMAND = "make outputs"
RTOL = 1e-6
# Quantities that are 0 in exact arithmetic come out as rounding noise of either sign, of the
# order of 1e-16 times the magnitudes they were computed from; rtol cannot cover them.
ATOL = 1e-9
EXECUTION_TIMEOUT = 900  # seconds per cell
HAND_SET = ("rtol", "atol", "check")  # keys of a reference entry that a refresh keeps

_NUMPY_SCALAR = re.compile(r"^(?:np|numpy)\.(\w+)\((.*)\)$", re.S)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colours in tracebacks
_NUMPY_BOOL = {"np.True_": True, "np.False_": False, "numpy.True_": True, "numpy.False_": False}
# A number inside a repr: optional sign, digits with an optional point, optional exponent; or
# nan / inf. It must not continue a name (``x1``, ``float64``) or start one.
_NUMBER = re.compile(
    r"(?<![\w.])[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf)(?![\w.])"
)


# --------------------------------------------------------------------------------------------
# Parsing glued values
# --------------------------------------------------------------------------------------------


def _float_from_text(text: str) -> float:
    return float(text.strip())


def parse_plain(text: str) -> dict[str, Any]:
    """Type a ``text/plain`` repr: ``{"type": ..., "value": ...}``.

    Python and NumPy scalars become ``int``, ``float``, ``bool``, ``str`` or ``none``;
    anything else is kept as ``repr`` text, compared number by number.
    """
    text = text.strip()
    if text in _NUMPY_BOOL:
        return {"type": "bool", "value": _NUMPY_BOOL[text]}
    m = _NUMPY_SCALAR.match(text)
    if m:  # NumPy 2 reprs: np.float64(0.1), np.int64(3), np.bool(True), np.str_('a')
        kind, inner = m.group(1), m.group(2).strip()
        if kind.startswith(("float", "longdouble", "half", "single", "double")):
            try:
                return {"type": "float", "value": _float_from_text(inner)}
            except ValueError:
                pass
        elif kind.startswith(("int", "uint", "long", "short", "byte", "ubyte")):
            try:
                return {"type": "int", "value": int(inner)}
            except ValueError:
                pass
        elif kind.startswith("bool") and inner in ("True", "False"):
            return {"type": "bool", "value": inner == "True"}
        elif kind.startswith("str"):
            text = inner  # fall through to the literal parser
    if text in ("nan", "inf", "-inf"):
        return {"type": "float", "value": float(text)}
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = ...
    if isinstance(value, bool):
        return {"type": "bool", "value": value}
    if isinstance(value, int):
        return {"type": "int", "value": value}
    if isinstance(value, float):
        return {"type": "float", "value": value}
    if isinstance(value, str):
        return {"type": "str", "value": value}
    if value is None:
        return {"type": "none", "value": None}
    return {"type": "repr", "value": text}


def entry_from_output(output: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The glue name and typed reference entry of one glue ``display_data`` output."""
    meta = output["metadata"]["scrapbook"]
    prefix = meta.get("mime_prefix", "")
    bundle = {
        (k[len(prefix):] if k.startswith(prefix) else k): v for k, v in output.get("data", {}).items()
    }
    mimes = sorted(bundle)
    if mimes == ["text/plain"]:
        text = bundle["text/plain"]
        text = "".join(text) if isinstance(text, list) else text
        entry = parse_plain(text)
        # An object without a repr of its own prints its address, which changes every run.
        if entry["type"] == "repr" and re.search(r"\bat 0x[0-9a-fA-F]+", text):
            entry = {"type": "display", "mime": mimes}
        return meta["name"], entry
    return meta["name"], {"type": "display", "mime": mimes}


@dataclass
class Glued:
    """The glued values of one executed notebook, in the order the notebook glues them."""

    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)


def collect_glue(nb: Any) -> Glued:
    """Every glued value in an executed notebook (a dict or ``NotebookNode``)."""
    glued = Glued()
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for output in cell.get("outputs", []):
            if "scrapbook" not in output.get("metadata", {}):
                continue
            name, entry = entry_from_output(output)
            if name in glued.values:
                glued.duplicates.append(name)
            glued.values[name] = entry
    return glued


# --------------------------------------------------------------------------------------------
# Comparing
# --------------------------------------------------------------------------------------------


def floats_close(a: float, b: float, rtol: float = RTOL, atol: float = ATOL) -> bool:
    """``|a - b| <= max(atol, rtol * max(|a|, |b|))``; NaN matches NaN, inf matches itself only."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= max(atol, rtol * max(abs(a), abs(b)))


def _is_float_token(token: str) -> bool:
    return any(c in token for c in ".eEni")  # a point, an exponent, nan or inf


def reprs_match(a: str, b: str, rtol: float = RTOL, atol: float = ATOL) -> bool:
    """Compare two reprs: the numbers in them by :func:`floats_close` (integers exactly), the text
    between them exactly, whitespace aside (array reprs pad numbers to a common width)."""
    na, nb = _NUMBER.findall(a), _NUMBER.findall(b)
    ta = [re.sub(r"\s+", "", t) for t in _NUMBER.split(a)]
    tb = [re.sub(r"\s+", "", t) for t in _NUMBER.split(b)]
    if ta != tb or len(na) != len(nb):
        return False
    for x, y in zip(na, nb):
        if _is_float_token(x) or _is_float_token(y):
            if not floats_close(float(x), float(y), rtol, atol):
                return False
        elif int(x) != int(y):
            return False
    return True


def _stored_float(value: Any) -> float:
    return float(value)  # JSON holds non-finite floats as the strings "nan", "inf", "-inf"


def entries_match(ref: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether a fresh entry matches its reference entry (see the module docstring)."""
    rtol, atol = ref.get("rtol", RTOL), ref.get("atol", ATOL)
    if ref["type"] != new["type"]:
        return False
    if ref.get("check") == "presence":
        return True
    kind = ref["type"]
    if kind == "float":
        return floats_close(_stored_float(ref["value"]), _stored_float(new["value"]), rtol, atol)
    if kind == "repr":
        return reprs_match(ref["value"], new["value"], rtol, atol)
    if kind == "display":
        return sorted(ref["mime"]) == sorted(new["mime"])
    # int, bool, str, none: exactly (and 1 is not True: the types were compared above)
    return ref["value"] == new["value"]


def values_match(a: str, b: str, rtol: float = RTOL, atol: float = ATOL) -> bool:
    """Whether two ``text/plain`` reprs of glued values match, as the notebook test decides."""
    ref = parse_plain(a)
    ref.update(rtol=rtol, atol=atol)
    return entries_match(ref, parse_plain(b))


def _show(entry: dict[str, Any]) -> str:
    if entry["type"] == "display":
        return "rich output " + ", ".join(entry["mime"])
    return f"{entry['type']} {entry['value']!r}"


def compare(reference: dict[str, dict[str, Any]], glued: Glued) -> list[str]:
    """Every difference between a notebook's stored reference and a fresh run, as messages."""
    problems = [f"{name}: glued more than once in one run" for name in dict.fromkeys(glued.duplicates)]
    for name, ref in reference.items():
        if name not in glued.values:
            problems.append(f"{name}: in the reference ({_show(ref)}) but not glued by the run")
            continue
        new = glued.values[name]
        if not entries_match(ref, new):
            detail = f"expected {_show(ref)}, got {_show(new)}"
            if ref["type"] == new["type"] == "float":
                a, b = _stored_float(ref["value"]), _stored_float(new["value"])
                if math.isfinite(a) and math.isfinite(b):
                    rel = abs(a - b) / max(abs(a), abs(b))
                    detail += f" (relative difference {rel:.3g}, rtol {ref.get('rtol', RTOL):g})"
            problems.append(f"{name}: {detail}")
    for name, new in glued.values.items():
        if name not in reference:
            problems.append(f"{name}: glued by the run ({_show(new)}) but not in the reference")
    return problems


# --------------------------------------------------------------------------------------------
# Files: notebooks, references
# --------------------------------------------------------------------------------------------


def discover(book: Path = BOOK) -> list[Path]:
    """The chapters (from _toc.yml) for the book itself; every notebook under another folder
    ``book`` (not build output or checkpoints)."""
    if book.resolve() == BOOK.resolve():
        return chapter_paths()
    skip = {"_build", ".ipynb_checkpoints", "_tools"}
    return sorted(p for p in book.rglob("*.ipynb") if not skip & set(p.relative_to(book).parts))


def reference_path(notebook: Path, book: Path = BOOK, references: Path = REFERENCES) -> Path:
    """``references/<path of the notebook under book>.json`` (just its name if outside ``book``)."""
    try:
        rel = notebook.resolve().relative_to(book.resolve())
    except ValueError:
        rel = Path(notebook.name)
    return references / rel.with_suffix(".json")


def label(path: Path) -> str:
    """A path as the messages show it: relative to the repository when inside it."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def load_reference(path: Path) -> dict[str, dict[str, Any]]:
    return json.loads(path.read_text())["values"]


def write_reference(path: Path, notebook_label: str, glued: Glued) -> None:
    """One line per glued value, in notebook order, so that a diff shows what moved."""
    old = load_reference(path) if path.exists() else {}
    lines = []
    for name, entry in glued.values.items():
        entry = dict(entry)
        if entry["type"] == "float" and not math.isfinite(entry["value"]):
            entry["value"] = repr(entry["value"])  # JSON has no NaN or inf
        for key in HAND_SET:  # hand-set tolerances survive a refresh
            if key in old.get(name, {}):
                entry[key] = old[name][key]
        lines.append(f"  {json.dumps(name)}: {json.dumps(entry, allow_nan=False)}")
    about = (
        f"Glued values of {notebook_label}, checked by tests/book/test_notebooks.py "
        f"(floats to rtol {RTOL:g}, atol {ATOL:g}; the rest exactly). Refresh: {REFRESH_COMMAND}"
    )
    text = "{\n" + f" \"about\": {json.dumps(about)},\n \"values\": {{\n" + ",\n".join(
        " " + line for line in lines
    ) + "\n }\n}\n"
    json.loads(text)  # written by hand above: make sure it is JSON
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@dataclass
class Run:
    """The outcome of executing one notebook."""

    notebook: Path
    seconds: float
    glued: Glued | None = None
    error: str | None = None


def execute(notebook: Path, timeout: int = EXECUTION_TIMEOUT) -> Run:
    """Execute a notebook in a fresh kernel (in its own folder) and collect its glue.

    The kernel inherits this process's environment, so ``OPENBLAS_CORETYPE`` and
    ``NPY_DISABLE_CPU_FEATURES`` set for the test reach the notebook's numpy.
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    start = time.perf_counter()
    nb = nbformat.read(notebook, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as exc:
        # nbclient stops at the first failing cell; say which one (count code cells from 1).
        # The failing cell is the last one that got an execution count.
        code = [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]
        ran = [(k, i, c) for k, (i, c) in enumerate(code, 1) if c.get("execution_count") is not None]
        where = "the first code cell"
        if ran:
            k, i, c = ran[-1]
            first = c.source.strip().splitlines()[0] if c.source.strip() else ""
            where = f"code cell {k} (cell {i} of the notebook, starting {first[:60]!r})"
        message = _ANSI.sub("", str(exc))
        return Run(notebook, time.perf_counter() - start, error=f"{where} failed:\n{message}")
    return Run(notebook, time.perf_counter() - start, glued=collect_glue(nb))


def default_workers(count: int) -> int:
    """One notebook per core: a kernel mostly computes on one core, and starts up waiting on I/O.

    Measured on two cores (shared with other work): the six chapters took 70 s one at a time
    and 47 s two at a time.
    """
    return max(1, min(count, os.cpu_count() or 1))


def execute_all(notebooks: Iterable[Path], workers: int = 1) -> dict[Path, Run]:
    """Execute notebooks, ``workers`` at a time (each in its own process and kernel)."""
    notebooks = list(notebooks)
    if workers <= 1 or len(notebooks) <= 1:
        return {nb: execute(nb) for nb in notebooks}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return dict(zip(notebooks, pool.map(execute, notebooks)))


def from_build(notebook: Path, cache_dir: Path) -> Run:
    """The run the book build made of ``notebook``, from its jupyter-cache (``_build/.jupyter_cache``).

    The build executes every notebook as the machine is, with static controls, and keeps the
    executed copy under the hash of the notebook's code; so a match is the run of exactly this
    code, and its glue is what the published page shows.
    """
    import nbformat
    from jupyter_cache import get_cache

    cache = get_cache(str(cache_dir))
    try:
        record = cache.match_cache_notebook(nbformat.read(notebook, as_version=4))
    except KeyError:
        return Run(notebook, 0.0, error=(
            f"the book build in {cache_dir} has no run of this notebook's current code: run "
            "`make book` first (a notebook whose execution failed is not in the cache either)"))
    executed = cache.get_cache_bundle(record.pk).nb
    return Run(notebook, float(record.data.get("execution_seconds") or 0.0), glued=collect_glue(executed))


def strip_outputs(notebook: Path) -> bool:
    """Remove every output and execution count; return whether the file changed.

    Notebook metadata stays as it is, except ipywidgets' saved state (an output in disguise).
    """
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    before = nbformat.writes(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)
    if nbformat.writes(nb) == before:
        return False
    nbformat.write(nb, notebook)
    return True


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def _targets(args: list[str]) -> list[Path]:
    if not args:
        return discover()
    out: list[Path] = []
    for a in args:
        p = Path(a).resolve()
        out.extend(discover(p) if p.is_dir() else [p])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    refresh = sub.add_parser("refresh", help="run notebooks, store their glued values, strip outputs")
    refresh.add_argument("notebooks", nargs="*")
    refresh.add_argument("--workers", type=int, default=0, help="notebooks at once (0: one per core)")
    refresh.add_argument("--references", type=Path, default=REFERENCES, help="folder of references")
    strip = sub.add_parser("strip", help="remove stored outputs from notebooks")
    strip.add_argument("notebooks", nargs="*")
    args = parser.parse_args(argv)

    notebooks = _targets(args.notebooks)
    if args.command == "strip":
        for nb in notebooks:
            print(f"{'stripped' if strip_outputs(nb) else 'clean   '} {label(nb)}")
        return 0
    failed = False
    for nb, run in execute_all(notebooks, args.workers or default_workers(len(notebooks))).items():
        if run.error is not None:
            failed = True
            print(f"FAILED {label(nb)} ({run.seconds:.1f} s): {run.error}", file=sys.stderr)
            continue
        assert run.glued is not None
        if run.glued.duplicates:
            failed = True
            print(f"FAILED {label(nb)}: glued twice: {', '.join(run.glued.duplicates)}", file=sys.stderr)
            continue
        ref = reference_path(nb, references=args.references)
        write_reference(ref, label(nb), run.glued)
        strip_outputs(nb)
        print(f"refreshed {label(ref)} ({len(run.glued.values)} values, {run.seconds:.1f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
