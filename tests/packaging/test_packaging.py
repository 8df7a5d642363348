"""The package's promises about versions and contents, and the tools that test them.

- ``pyproject.toml``: the core depends on numpy and scipy only; the drawing layer's libraries are
  the ``book`` extra; matplotlib's floor admits Colab's 3.10.
- ``requirements.txt`` pins every package of the package's dependencies and extras, at versions
  ``pyproject.toml`` accepts (the Makefile installs the package with ``--no-deps``).
- ``tests/tools/lowest_versions.py`` turns floors into pins for the second environment; with
  ``PERCEPTRON_EXPECT_FLOORS=1`` (``make test-lowest``) the running environment must hold exactly
  those floors, and the package must be the installed wheel, not the source.
- ``tests/tools/check_wheel.py`` refuses a wheel with build code or without its data;
  ``tests/tools/run_chapters_outside.py`` reports a failing chapter and a run that is not isolated.

The test that starts Jupyter kernels is marked ``notebooks``: ``make test-notebooks`` runs it,
not ``make test-unit``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "tools"))
import check_wheel  # noqa: E402
import lowest_versions as lv  # noqa: E402
import run_chapters_outside as rco  # noqa: E402

EXPECT_FLOORS = os.environ.get("PERCEPTRON_EXPECT_FLOORS", "").lower() in {"1", "true", "yes", "on"}


def _project() -> dict:
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _pins(path: Path = ROOT / "requirements.txt") -> dict[str, Version]:
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            req = Requirement(line)
            (spec,) = req.specifier
            assert spec.operator == "==", f"requirements.txt pins with ==, not {line!r}"
            pins[lv.normalize(req.name)] = Version(spec.version)
    return pins


# --------------------------------------------------------------------------------------------
# pyproject.toml and requirements.txt
# --------------------------------------------------------------------------------------------


def test_the_core_depends_on_numpy_and_scipy_only() -> None:
    names = {lv.normalize(Requirement(r).name) for r in _project()["dependencies"]}
    assert names == {"numpy", "scipy"}


def test_the_book_extra_holds_the_drawing_layer_and_the_chapters_libraries() -> None:
    book = {lv.normalize(Requirement(r).name): Requirement(r) for r in _project()["optional-dependencies"]["book"]}
    # numba too: without it the chapters' loops run as Python, the Margin Perceptron's for minutes.
    # anywidget: the playground in Jupyter.
    assert {"matplotlib", "ipywidgets", "pillow", "scikit-learn", "numba", "anywidget"} <= set(book)
    # Colab ships matplotlib 3.10: the floor must admit it.
    assert Version("3.10.0") in book["matplotlib"].specifier
    assert Version("3.9.4") not in book["matplotlib"].specifier, "3.7-3.9 are not tested: floor 3.10"
    # The playground's module is `export default { render }`, which anywidget reads from 0.9.0 on.
    assert Version("0.9.0") in book["anywidget"].specifier
    assert Version("0.8.1") not in book["anywidget"].specifier, "before 0.9.0 anywidget wants `export function render`"


def test_requirements_pin_every_dependency_at_a_version_pyproject_accepts() -> None:
    """The pinned environment installs the package with --no-deps: its pins must cover the
    dependencies and the book, sklearn and fast extras, each inside pyproject's range."""
    pins = _pins()
    project = _project()
    entries = list(project["dependencies"])
    for extra, requirements in project["optional-dependencies"].items():
        if extra not in lv.EXCLUDED_EXTRAS:
            entries += requirements
    for entry in entries:
        req = Requirement(entry)
        name = lv.normalize(req.name)
        assert name in pins, f"{name} ({entry}) is not pinned in requirements.txt"
        assert pins[name] in req.specifier, f"requirements.txt pins {name}=={pins[name]}, outside {entry}"


# --------------------------------------------------------------------------------------------
# lowest_versions.py
# --------------------------------------------------------------------------------------------


def _pyproject(tmp_path: Path, dependencies: list[str], extras: dict[str, list[str]]) -> Path:
    lines = ["[project]", f"dependencies = {json.dumps(dependencies)}", "[project.optional-dependencies]"]
    lines += [f"{name} = {json.dumps(reqs)}" for name, reqs in extras.items()]
    path = tmp_path / "pyproject.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_floors_become_pins(tmp_path: Path) -> None:
    path = _pyproject(
        tmp_path,
        ["numpy>=1.24", "scipy >= 1.10, <2"],
        {"book": ["Pillow>=9.2; python_version >= '3.8'", "scikit_learn[alldeps]>=1.6"],
         "fast": ["numba~=0.60"], "test": ["pytest", "hypothesis"]},
    )
    assert lv.floors(path) == {"numpy": "1.24", "scipy": "1.10", "pillow": "9.2",
                               "scikit-learn": "1.6", "numba": "0.60"}


@pytest.mark.parametrize("entry", ["matplotlib", "matplotlib<4", "matplotlib!=3.8.0"])
def test_a_dependency_without_a_floor_is_refused(tmp_path: Path, entry: str) -> None:
    path = _pyproject(tmp_path, ["numpy>=1.24"], {"book": [entry]})
    with pytest.raises(ValueError, match="no floor"):
        lv.floors(path)
    assert lv.main(["--pyproject", str(path)]) == 1


def test_two_floors_for_one_package_are_refused(tmp_path: Path) -> None:
    path = _pyproject(tmp_path, ["numpy>=1.24"], {"sklearn": ["scikit-learn>=1.6"], "book": ["scikit_learn>=1.5"]})
    with pytest.raises(ValueError, match="two floors"):
        lv.floors(path)


def test_lowest_requirements_replaces_pins_and_keeps_the_rest() -> None:
    text = "# tools\njupyter-book==1.0.4\nPillow==13.0.0\nscikit_learn==1.9.1  # the estimator\npytest==9.2.0\n"
    out = lv.lowest_requirements(text, {"pillow": "9.2", "scikit-learn": "1.6", "numba": "0.60"})
    lines = out.splitlines()
    assert lines[0] == "# tools" and lines[1] == "jupyter-book==1.0.4" and lines[4] == "pytest==9.2.0"
    assert lines[2].startswith("pillow==9.2 ") and lines[3].startswith("scikit-learn==1.6 ")
    assert "numba==0.60" in lines[-1:]  # not pinned before: appended
    assert "Pillow==13" not in out.replace("pinned: Pillow==13.0.0", "")


# --------------------------------------------------------------------------------------------
# The lowest environment holds the floors and the wheel (make test-lowest)
# --------------------------------------------------------------------------------------------

needs_lowest = pytest.mark.skipif(not EXPECT_FLOORS, reason="checks the lowest environment: `make test-lowest`")


@needs_lowest
def test_this_environment_holds_the_floors_and_the_installed_wheel() -> None:
    import perceptron_core

    wrong = {name: metadata.version(name) for name, floor in lv.floors().items()
             if Version(metadata.version(name)) != Version(floor)}
    assert not wrong, f"not at the floors of pyproject.toml: {wrong}"
    assert Path(perceptron_core.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()), (
        f"perceptron_core is imported from {perceptron_core.__file__}, not the installed wheel")


# --------------------------------------------------------------------------------------------
# check_wheel.py
# --------------------------------------------------------------------------------------------

GOOD = {
    "perceptron_core/__init__.py": '"""The core. Build code (myst_nb, glue_numbers) lives under book/."""\nimport numpy\n',
    "perceptron_core/datasets/iris.csv": "5.1,3.5,1.4,0.2,setosa\n",
    "perceptron_core/static/playground.js": "export default { render() {} };\n",
    "perceptron_core/figures/__init__.py": "from .sliders import explore\n",
    "perceptron_core-0.1.0.dist-info/METADATA": "Name: perceptron_core\n",
}


def _wheel(tmp_path: Path, files: dict[str, str]) -> Path:
    path = tmp_path / "perceptron_core-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def test_a_wheel_of_the_package_and_its_data_passes(tmp_path: Path) -> None:
    assert check_wheel.problems(_wheel(tmp_path, GOOD)) == []  # a docstring naming myst_nb is no import
    assert check_wheel.main([str(_wheel(tmp_path, GOOD))]) == 0


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("perceptron_core/figures/__init__.py", "def f():\n    from myst_nb import glue\n", "imports myst_nb"),
        ("perceptron_core/figures/glue.py", "import glue_numbers\n", "imports glue_numbers"),
        ("perceptron_core/x.py", "import importlib\nimportlib.import_module('sphinx.util')\n", "imports sphinx"),
        ("perceptron_core/sphinx_extension.py", "X = 1\n", "build code in the wheel"),
        ("perceptron_core/figures/glue_numbers.py", "X = 1\n", "build code in the wheel"),
        ("book/chapters.py", "X = 1\n", "outside the package"),
        ("perceptron_core/datasets/iris.csv", None, "iris.csv is missing"),
        ("perceptron_core/static/playground.js", None, "playground.js is missing"),
    ],
)
def test_a_wheel_with_build_code_or_without_its_data_fails(tmp_path: Path, path: str, text, expected: str) -> None:
    files = {**GOOD, path: text}
    if text is None:
        del files[path]
    found = check_wheel.problems(_wheel(tmp_path, files))
    assert len(found) >= 1 and any(expected in p for p in found), found
    assert check_wheel.main([str(_wheel(tmp_path, files))]) == 1


# --------------------------------------------------------------------------------------------
# run_chapters_outside.py
# --------------------------------------------------------------------------------------------


def _probe_info(tmp_path: Path, **changes) -> dict:
    prefix = ROOT / "_build" / "lowest-venv"
    info = {
        "prefix": str(prefix),
        "package": str(prefix / "lib" / "python3.11" / "site-packages" / "perceptron_core" / "__init__.py"),
        "sys_path": ["", str(prefix / "lib" / "python3.11" / "site-packages"), "/usr/lib/python311.zip"],
        "cwd": str(tmp_path),
        "myst_nb": False,
        "glue_numbers": False,
        "missing": [],
    }
    return {**info, **changes}


def test_an_isolated_run_passes_the_probe(tmp_path: Path) -> None:
    assert rco.isolation_problems(_probe_info(tmp_path), tmp_path) == []


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"package": str(ROOT / "perceptron_core" / "__init__.py")}, "not from the environment under test"),
        ({"sys_path": ["", str(ROOT / "book")]}, "sys.path holds the repository"),
        ({"cwd": str(ROOT / "book")}, "the kernel runs in"),
        ({"myst_nb": True}, "myst_nb is importable"),
        ({"glue_numbers": True}, "glue_numbers is importable"),
        ({"missing": ["ipywidgets"]}, "the book extra is not installed: no ipywidgets"),
    ],
)
def test_a_run_that_sees_the_repository_fails_the_probe(tmp_path: Path, changes: dict, expected: str) -> None:
    found = rco.isolation_problems(_probe_info(tmp_path, **changes), tmp_path)
    assert len(found) == 1 and expected in found[0], found


@pytest.mark.notebooks
def test_run_chapters_outside_reports_each_notebook_and_fails_on_an_error(tmp_path: Path) -> None:
    """End to end with this environment's Python as the kernel: one notebook runs, one raises.
    This environment imports perceptron_core from the repository (an editable install), so the
    probe must refuse it unless told not to."""
    import nbformat

    def notebook(name: str, source: str) -> Path:
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
        nbformat.write(nb, tmp_path / f"{name}.ipynb")
        return tmp_path / f"{name}.ipynb"

    good = notebook("fine", "import os\nopen('written-here.txt', 'w').write(os.getcwd())")
    bad = notebook("broken", "raise RuntimeError('broken chapter')")
    script = [sys.executable, str(ROOT / "tests" / "tools" / "run_chapters_outside.py"), "--python", sys.executable]

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(script + list(args), capture_output=True, text=True, timeout=300, cwd=tmp_path)

    refused = run(str(good))
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "FAILED isolation" in refused.stdout and "not from the environment under test" in refused.stdout
    assert "OK " not in refused.stdout  # no chapter ran

    done = run("--skip-isolation-check", str(good), str(bad))
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("OK") and "fine" in line for line in lines), done.stdout
    assert any(line.startswith("FAILED") and "broken" in line for line in lines), done.stdout
    assert "RuntimeError: broken chapter" in done.stdout and "\x1b[" not in done.stdout
    assert "1 of 2 chapter(s) ran" in done.stdout
    # It ran in a copy in a temporary directory, not beside its source.
    assert not (tmp_path / "written-here.txt").exists()
