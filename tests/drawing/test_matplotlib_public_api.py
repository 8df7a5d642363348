"""No private matplotlib name anywhere in the project: only matplotlib's public API is used.

matplotlib changes its private names between releases without notice; the drawing layer that
read them was fast on one release only. This scans the project's Python source and the chapters'
code cells for what matplotlib keeps private (a name with one leading underscore):

* imports from a private module or of a private name (``from matplotlib.axes._base import
  _AxesBase``, ``import matplotlib._api``);
* attribute access ``obj._name``, and ``getattr(obj, "_name")`` / ``obj.__dict__["_name"]``,
  for every ``_name`` that matplotlib's own source mentions (more than it defines: a stricter
  check, and a text search is ten times faster than parsing matplotlib) and the project does not
  define for itself.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Where the project's source lives: the package, the book's code (build tools, chapters'
#: cells), the benchmarks and the tests.
SCANNED = ("perceptron_core", "book", "bench", "tests")
SKIPPED_PARTS = {"_build", "__pycache__", ".ipynb_checkpoints", ".venv", ".venv-lowest"}
#: IPython's display protocol: names IPython defines, which matplotlib also implements.
PROTOCOL = {"_repr_html_", "_repr_png_", "_repr_svg_", "_repr_jpeg_", "_repr_latex_",
            "_repr_json_", "_repr_markdown_", "_repr_pretty_", "_repr_mimebundle_",
            "_ipython_display_", "_ipython_canary_method_should_not_exist_"}
#: Names matplotlib keeps private that the project also defines and uses as attributes of its
#: own objects. An access ``x.<name>`` to one of them cannot be checked, so each is here on
#: purpose; a new one fails :func:`test_the_project_shares_few_private_names_with_matplotlib`:
#: rename it, or add it.
SHARED_NAMES = {"_draw", "_frame", "_frames", "_params", "_run", "_show", "_steps", "_y"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _defined(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, variables, attributes set."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[-1])
    return {n for n in names if _private(n)}


#: A private identifier in Python source: one leading underscore (dunders are dropped below).
PRIVATE_WORD = re.compile(r"(?<!\w)_\w+")


@functools.lru_cache(maxsize=1)
def matplotlib_private_names() -> frozenset[str]:
    """Every private name matplotlib's Python source and type stubs mention, and its private
    modules (compiled ones too)."""
    import matplotlib

    package = Path(matplotlib.__file__).resolve().parent
    names: set[str] = set()
    for path in [*package.rglob("*.py"), *package.rglob("*.pyi")]:
        names.update(PRIVATE_WORD.findall(path.read_text(encoding="utf-8")))
    names |= {p.name.split(".")[0] for p in package.rglob("*")}
    return frozenset(n for n in names if _private(n)) - PROTOCOL


@pytest.fixture
def private() -> frozenset[str]:
    return matplotlib_private_names()


def _is_matplotlib(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in ("matplotlib", "mpl_toolkits", "mpl")


def violations(tree: ast.AST, private: frozenset[str], own: set[str]) -> list[tuple[int, str]]:
    """``(line, what)`` for every use of a private matplotlib name in ``tree``."""
    checked = private - own - PROTOCOL
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names
                      if _is_matplotlib(a.name) and any(map(_private, a.name.split(".")))]
        elif isinstance(node, ast.ImportFrom) and _is_matplotlib(node.module):
            if any(map(_private, node.module.split("."))):
                found.append((node.lineno, f"from {node.module} import ..."))
            found += [(node.lineno, f"from {node.module} import {a.name}") for a in node.names
                      if _private(a.name)]
        elif isinstance(node, ast.Attribute) and node.attr in checked:
            found.append((node.lineno, ast.unparse(node)))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr", "delattr")
              and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
              and node.args[1].value in checked):
            found.append((node.lineno, ast.unparse(node)))
        elif (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
              and node.slice.value in checked):
            found.append((node.lineno, ast.unparse(node)))
    return found


@functools.lru_cache(maxsize=1)
def _sources() -> dict[str, ast.AST]:
    """Every scanned file's syntax tree: .py files, and the code cells of the chapters."""
    trees = {}
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            if SKIPPED_PARTS & set(path.relative_to(ROOT).parts) or not path.is_file():
                continue
            if path.suffix == ".py":
                text = path.read_text(encoding="utf-8")
            elif path.suffix == ".ipynb":
                cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
                # IPython's magics and shell escapes are not Python: blank them out.
                text = "\n".join(
                    "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                              for line in "".join(cell["source"]).splitlines())
                    for cell in cells if cell["cell_type"] == "code")
            else:
                continue
            trees[str(path.relative_to(ROOT))] = ast.parse(text, filename=str(path))
    return trees


def test_no_private_matplotlib_name_in_the_project(private):
    trees = _sources()
    assert len(trees) > 50 and "perceptron_core/figures/sliders.py" in trees
    own = set().union(*map(_defined, trees.values()))
    found = [f"{name}:{line}: {what}" for name, tree in trees.items()
             for line, what in violations(tree, private, own)]
    assert not found, "private matplotlib names (use the public API):\n" + "\n".join(found)


def _accessed(tree: ast.AST) -> set[str]:
    """The private names a module reads or writes as attributes (``x._name``)."""
    return {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and _private(node.attr)}


def test_the_project_shares_few_private_names_with_matplotlib(private):
    trees = _sources().values()
    own = set().union(*map(_defined, trees))
    shared = set().union(*map(_accessed, trees)) & own & private
    assert shared <= SHARED_NAMES, (
        f"{sorted(shared - SHARED_NAMES)} are private matplotlib names the project now defines "
        "too: x.<name> can then no longer be checked on matplotlib objects. Rename them, or add "
        "them to SHARED_NAMES.")


@pytest.mark.parametrize("code", [
    "from matplotlib.axes._base import _AxesBase",
    "import matplotlib._api",
    "from matplotlib import _api",
    "from matplotlib.legend import _parse_legend_args",
    "ax._children.clear()",
    "titles = (ax.title, ax._left_title)",
    "getattr(ax, '_axis_map', {})",
    "axis.__dict__['_update_ticks']",
    "renderer._renderer.draw_text_image(image, x, y, angle, gc)",
])
def test_the_scan_finds_what_the_old_renderer_used(code, private):
    found = violations(ast.parse(code), private, own=set())
    assert found, code


@pytest.mark.parametrize("code", [
    "ax.get_title(loc='left')",
    "axis.get_tick_params(which='major')",
    "self._frames[key] = png",   # the project's own attribute (_frames: SHARED_NAMES)
    "fig._repr_png_()",          # IPython's protocol
    "from matplotlib.backends.backend_agg import FigureCanvasAgg",
])
def test_the_scan_lets_public_names_through(code, private):
    own = set().union(*map(_defined, _sources().values()))
    assert violations(ast.parse(code), private, own) == [], code
