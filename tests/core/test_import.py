"""``import perceptron_core``: what it loads, what it leaves alone, and what it offers.

The core is the mathematics of the book and nothing else. Importing it must not pull in the
drawing layer's libraries (matplotlib, ipywidgets, IPython, Pillow), the optional ones (scipy is
imported where a linear program is solved, numba at the first long run of a loop,
scikit-learn with the estimator), or the build's (myst-nb); and it must change nothing in the
session of the reader who imports it. Each check runs in a fresh interpreter, since this test
process has long imported all of them.

How long the import takes is measured, not asserted (a timed test is flaky on a shared machine):
``python -X importtime -c "import perceptron_core"``.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import perceptron_core as pc

PACKAGE = Path(pc.__file__).resolve().parent
HEAVY = ("matplotlib", "ipywidgets", "IPython", "PIL", "scipy", "numba", "sklearn", "myst_nb")
CORE_MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


def test_import_loads_none_of_the_heavy_or_optional_libraries():
    loaded = _run(
        "import perceptron_core, sys; "
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    assert loaded == "[]", loaded


def test_a_short_run_does_not_load_numba_and_a_long_one_does():
    """Loading numba costs a second or more (several where it compiles, on a fresh install):
    short runs go as Python (_compiled.RUN_STEPS)."""
    code = ("import perceptron_core as pc, sys, warnings; warnings.simplefilter('ignore'); "
            "pc.perceptron(*pc.xor(), offset=True, max_epochs=100); a = 'numba' in sys.modules; "
            "pc.perceptron(*pc.xor(), offset=True, max_epochs=10**5); print(a, 'numba' in sys.modules)")
    pytest.importorskip("numba")
    assert _run(code) == "False True"


def test_import_changes_nothing_in_the_callers_session():
    # Everything a library could change on import: display and exception hooks, warning filters,
    # numpy's error handling and printing, matplotlib's settings (imported first, as a reader's
    # notebook would have it), the logging set-up, the module search path, the environment.
    code = """
import json, logging, os, sys, warnings
import numpy as np
import matplotlib

def state():
    return {
        "displayhook": repr(sys.displayhook), "excepthook": repr(sys.excepthook),
        "filters": repr(warnings.filters), "showwarning": repr(warnings.showwarning),
        "errstate": repr(np.geterr()), "printoptions": repr(np.get_printoptions()),
        "rcParams": repr(sorted(matplotlib.rcParams.items())), "backend": matplotlib.get_backend(),
        "logging": repr((logging.root.level, logging.root.handlers)),
        "path": repr(sys.path), "environ": repr(sorted(os.environ.items())),
        "random": repr(np.random.get_state()[1][:4].tolist()),
    }

before = state()
import perceptron_core
after = state()
print(json.dumps(sorted(k for k in before if before[k] != after[k])))
"""
    assert json.loads(_run(code)) == []


def test_the_estimator_and_scipy_load_when_they_are_needed():
    code = """
import sys, json
import perceptron_core as pc
steps = [sorted(m for m in ("sklearn", "scipy") if m in sys.modules)]
P = pc.Perceptron
steps.append(sorted(m for m in ("sklearn",) if m in sys.modules))
pc.separability([[1.0], [2.0]], [1, 1])  # a linear program
steps.append(sorted(m for m in ("scipy",) if m in sys.modules))
print(json.dumps([steps, P.__module__]))
"""
    steps, module = json.loads(_run(code))
    assert steps == [[], ["sklearn"], ["scipy"]] and module == "perceptron_core.estimator"


def _imports(path: Path) -> set[str]:
    """The modules a source file imports, anywhere in it (also inside functions), resolved."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x, from .figures import y
                base = "perceptron_core" + ("." + base if base else "")
                names.update(f"{base}.{a.name}" for a in node.names)
            names.add(base)
    return names


@pytest.mark.parametrize("module", CORE_MODULES)
def test_the_core_never_imports_the_drawing_layer_or_the_build(module):
    forbidden = ("matplotlib", "ipywidgets", "IPython", "PIL", "myst_nb", "perceptron_core.figures",
                 "sphinx", "nbformat", "glue_numbers")
    bad = sorted(n for n in _imports(PACKAGE / f"{module}.py")
                 if any(n == f or n.startswith(f + ".") for f in forbidden))
    assert not bad, f"perceptron_core/{module}.py imports {bad}"


@pytest.mark.parametrize("module", CORE_MODULES)
def test_every_core_module_says_what_it_exports(module):
    mod = importlib.import_module(f"perceptron_core.{module}")
    assert isinstance(mod.__all__, list) and len(mod.__all__) == len(set(mod.__all__))
    for name in mod.__all__:
        obj = getattr(mod, name)  # every listed name exists
        # and is the module's own, or (for a type alias or constant) at least defined there
        own = getattr(obj, "__module__", mod.__name__)
        assert own == mod.__name__ or not callable(obj) or name.isupper() or name == "Tie", (name, own)


def test_the_top_level_is_what_the_books_readers_call():
    # Every name the chapters import from perceptron_core is there, and nothing the chapters
    # only get back (result types) or never call.
    book = PACKAGE.parent / "book"
    used: set[str] = set()
    for path in sorted(book.glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        src = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        src = "\n".join(line for line in src.splitlines() if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.ImportFrom) and node.module == "perceptron_core":
                used.update(a.name for a in node.names)
    exported = set(pc.__all__)
    assert used <= exported, sorted(used - exported)
    for name in pc.__all__:
        assert getattr(pc, name) is not None
    results = {"PerceptronResult", "History", "OnlineStep", "MarginPerceptronResult", "MaxMargin",
               "OnlineToPAC", "AveragedPerceptronResult", "VotedPerceptronResult",
               "KernelPerceptronResult", "AdversaryGame"}
    assert not results & exported and not results & set(dir(pc))
    assert len(pc.__all__) <= 50
