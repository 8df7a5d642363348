"""Check what the built wheel holds: the package and its data, and none of the book's build code.

The book's build code (the Sphinx extension, ``glue_numbers``, the notebook tools) lives under
``book/`` and needs myst-nb and Sphinx, which the package does not depend on. A wheel that
carried it, or any module that imports it, would fail for a student who installs the package
(issue 21: ``No module named 'myst_nb'`` in every chapter). The Makefile's ``$(WHEEL)`` rule runs
this on the wheel it builds, before the book ships it and ``make test-lowest`` installs it.

Usage::

    python tests/tools/check_wheel.py _build/dist/perceptron_core-*.whl

Prints what it checked and exits with status 1, naming every problem, when the wheel fails.
"""

from __future__ import annotations

import ast
import sys
import zipfile
from pathlib import Path, PurePosixPath

__all__ = ["BUILD_MODULES", "REQUIRED_FILES", "problems", "main"]

# Modules of the book's build, and what only the build has: none may be imported by the package.
BUILD_MODULES = frozenset({
    "myst_nb", "sphinx", "sphinx_extension", "sphinxext", "glue_numbers", "docutils",
    "jupyter_book", "nbval", "notebook_numbers", "reader_notebooks",
})
# Data the package reads at run time: a wheel without iris.csv fails at the first call of iris(),
# one without playground.js at the first playground (perceptron_core.playground), live or static.
REQUIRED_FILES = ("perceptron_core/datasets/iris.csv", "perceptron_core/static/playground.js")
PACKAGE = "perceptron_core"


def _imported(tree: ast.AST) -> set[str]:
    """Top-level names of every module the code imports: import statements, wherever they are
    (a lazy import inside a function counts), and ``importlib.import_module("x")`` or
    ``__import__("x")`` with a literal name."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in {"import_module", "__import__"} and isinstance(node.args[0].value, str):
                names.add(node.args[0].value.split(".")[0])
    return names


def problems(wheel: Path) -> list[str]:
    """Everything wrong with ``wheel``, as sentences that say what to change (empty: it passes)."""
    found = []
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        for required in REQUIRED_FILES:
            if required not in names:
                found.append(f"{required} is missing: list it in [tool.setuptools.package-data]")
        for name in names:
            path = PurePosixPath(name)
            top = path.parts[0]
            if top != PACKAGE and not top.endswith((".dist-info", ".data")):
                found.append(f"{name}: outside the package {PACKAGE}/ (build or test code?)")
            if path.suffix == ".py" and path.stem in BUILD_MODULES:
                found.append(f"{name}: build code in the wheel; it belongs under book/")
            if path.suffix != ".py":
                continue
            try:
                tree = ast.parse(archive.read(name).decode("utf-8"), filename=name)
            except SyntaxError as error:
                found.append(f"{name}: does not parse ({error})")
                continue
            for module in sorted(_imported(tree) & BUILD_MODULES):
                found.append(f"{name} imports {module}, which the package does not install "
                             "(build code belongs under book/)")
    return found


def main(argv: list[str] | None = None) -> int:
    wheels = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if len(wheels) != 1 or not wheels[0].is_file():
        print(f"usage: check_wheel.py WHEEL (got {[str(w) for w in wheels]})", file=sys.stderr)
        return 2
    wheel = wheels[0]
    with zipfile.ZipFile(wheel) as archive:
        count = sum(n.endswith(".py") for n in archive.namelist())
    found = problems(wheel)
    if found:
        print(f"FAILED {wheel.name}: {len(found)} problem(s)\n  " + "\n  ".join(found))
        return 1
    print(f"OK {wheel.name}: {count} modules, none imports build code "
          f"({', '.join(sorted(BUILD_MODULES))}); holds {', '.join(REQUIRED_FILES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
