"""The otter-grader assignments' master notebooks (book/_tools/assignments.py), without otter.

Every chapter's master is built from its source notebook with made-up numbers for its labels and
glued values (as the reader notebooks' fast tests do), and read as otter would: the config, one
autograded question per checked function and one written question per other exercise, in the
chapter's order, the solution code and the hidden tests, no MyST. The otter runs themselves
(the solution gets full marks, a stub none) are the grading tests'; `make assignments` runs
otter assign, which grades every solution notebook before it writes the autograder.
"""

from __future__ import annotations

import contextlib
import io

import json
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
import yaml

from perceptron_core import check
import assignments  # book/_tools (tests/conftest.py puts it on sys.path)
from add_check_exercises import EXERCISES
from assignment_oracles import HIDDEN
from chapters import chapter_names
from conftest import made_up_book
from reader_notebooks import Book

REPO = Path(__file__).resolve().parents[2]
BOOK = REPO / "book"
# MyST that must not reach a student: a directive, a role, a target.
RAW_MYST = re.compile(r"^\s*(`{3,}|:{3,})\{|\{(glue|glue:text|ref|prf:ref|numref|doc|cite:[tp]|"
                      r"eq|math)\}`|^\([\w:.-]+\)=\s*$", re.M)


def _nb(name: str) -> dict:
    return json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))


def _made_up_book(nb: dict) -> Book:
    """Numbers "Exercise 0", "Exercise 1", ... for the chapter's labels, "2" for its glued values."""
    return made_up_book(nb, "Exercise")


def _labels(nb: dict) -> list[str]:
    """The chapter's exercises in its order, read independently of assignments.py."""
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return re.findall(r"^`{3,}\{exercise\}[^\n]*\n(?::[\w-]+:[^\n]*\n)*?:label: (\S+)",
                      source, re.M)


def _questions(master) -> list[tuple[dict, list]]:
    """Each question's config and cells, in order."""
    found, current = [], None
    for cell in master.cells:
        if cell.cell_type == "raw" and cell.source.startswith("# BEGIN QUESTION"):
            current = (yaml.safe_load(cell.source.split("\n", 1)[1]), [])
        elif cell.cell_type == "raw" and cell.source.startswith("# END QUESTION"):
            found.append(current)
            current = None
        elif current is not None:
            current[1].append(cell)
    return found


def _block(cells: list, name: str) -> list:
    """The cells between ``# BEGIN <name>`` and ``# END <name>``."""
    raws = [i for i, c in enumerate(cells) if c.cell_type == "raw"]
    begin = next(i for i in raws if cells[i].source == f"# BEGIN {name}")
    end = next(i for i in raws if cells[i].source == f"# END {name}")
    return cells[begin + 1:end]


def _student(source: str) -> str:
    """What otter leaves of a solution cell for students: no solution block, no prompt markers
    (otter.assign.solutions.replace_solutions, for the forms the masters use)."""
    kept, hiding = [], False
    for line in source.splitlines():
        if line.strip() == "# BEGIN SOLUTION NO PROMPT":
            hiding = True
        elif line.strip() == "# END SOLUTION":
            hiding = False
        elif not hiding and not line.rstrip().endswith(("# BEGIN PROMPT", "# END PROMPT")):
            kept.append(line)
    return "\n".join(kept)


@pytest.fixture(scope="module")
def masters() -> dict:
    return {name: assignments.master_notebook(
                name, _nb(name), _made_up_book(_nb(name)),
                page_url=f"https://b.io/book/{name}.html",
                requirements=["perceptron_core[book] @ file:///x.whl"], autograder_files=["x.whl"])
            for name in chapter_names()}


@pytest.mark.parametrize("name", chapter_names())
def test_every_chapter_has_a_master_with_a_question_per_exercise(name, masters):
    master = masters[name]
    nbformat.validate(master)
    assert len({c.id for c in master.cells}) == len(master.cells)
    first = master.cells[0]
    assert first.cell_type == "raw" and first.source.startswith("# ASSIGNMENT CONFIG\n")
    config = yaml.safe_load(first.source.split("\n", 1)[1])
    assert config["name"] == name
    assert config["solutions_pdf"] is False and config["export_cell"] is False
    assert config["init_cell"] is False and config["check_all_cell"] and config["run_tests"]
    assert config["requirements"] == ["perceptron_core[book] @ file:///x.whl"]
    assert config["autograder_files"] == ["x.whl"]
    intro = master.cells[1].source
    assert master.cells[1].cell_type == "markdown" and intro.startswith("# ")
    assert "https://b.io/book/" + name + ".html" in intro and 'grader.check("q' in intro
    init = master.cells[2].source
    assert master.cells[2].cell_type == "code" and f'grader = otter.Notebook("{name}.ipynb")' in init
    assert master.cells[3].source == "import numpy as np\nfrom perceptron_core import check"

    label, _text, stub, _solution_text, _solution = EXERCISES[name]
    checked = assignments.check_names(stub)
    assert checked == [n for n, (chapter, _) in check.EXERCISES.items() if chapter == name]  # in check order
    assert len(checked) == 2  # every chapter's checked exercise asks for two functions
    # The first question's text is the whole exercise, which asks for both: it says where the
    # second function goes, the next question's cell, whose stub would replace a second
    # function written here.
    first_note = next(c.source for c in master.cells if c.cell_type == "markdown"
                      and f"Write `{checked[0]}` in the cell below" in c.source)
    auto_names = [config["name"] for config, _ in _questions(master) if not config.get("manual")]
    assert (f"Here the exercise is split into 2 questions, a function each: write `{checked[1]}` "
            f"in the cell of {auto_names[1]}, not here.") in first_note
    questions = _questions(master)
    names = [config["name"] for config, _ in questions]
    assert names == [f"q{i}" for i in range(1, len(questions) + 1)]  # unique, in order
    auto = [(c, cells) for c, cells in questions if not c.get("manual")]
    manual = [(c, cells) for c, cells in questions if c.get("manual")]
    assert [c["points"] for c, _ in auto] == [2] * len(checked)
    assert all(c["points"] == 1 for c, _ in manual)
    labels = _labels(_nb(name))
    assert label in labels and len(manual) == len(labels) - 1

    # The chapter's order: each question's prompt starts with its exercise's number.
    numbers = _made_up_book(_nb(name)).numbers
    expected = [numbers[lab] for lab in labels for _ in (checked if lab == label else [None])]
    shown = [re.match(r"### (Exercise \d+)", cells[0].source).group(1) for _, cells in questions]
    assert shown == expected
    for config, cells in questions:
        assert cells[0].cell_type == "markdown" and config["name"] in cells[0].source
        (answer,) = _block(cells, "SOLUTION")
        if config.get("manual"):
            assert answer.cell_type == "markdown"
            assert (answer.source.startswith("**Solution to Exercise")
                    or "no solution" in answer.source)
        else:
            assert answer.cell_type == "code"
            assert all(c.cell_type == "code" for c in _block(cells, "TESTS"))


@pytest.mark.parametrize("name", chapter_names())
def test_masters_hold_the_solution_code_and_the_hidden_tests(name, masters):
    master = masters[name]
    label, _text, stub, _solution_text, solution = EXERCISES[name]
    checked = assignments.check_names(stub)
    auto = [cells for c, cells in _questions(master) if not c.get("manual")]
    code = "\n".join(c.source for c in master.cells if c.cell_type == "code")
    for line in solution.splitlines():
        if line.strip() and not line.startswith("check."):
            assert line in code, (name, line)
    for function, cells in zip(checked, auto):
        (answer,) = _block(cells, "SOLUTION")
        tests = [c.source for c in _block(cells, "TESTS")]
        assert tests[0].endswith(f"result = check.{function}({function}, quiet=True)\n"
                                 "assert result, str(result)")
        assert "points: 1" in tests[0] and "hidden" not in tests[0]
        assert len(tests) == 1 + len(HIDDEN[function])
        for test, cell in zip(tests[1:], HIDDEN[function]):
            assert "hidden: true" in test.split("# END TEST CONFIG")[0]
            assert cell.strip("\n") in test

        # The students' version is the stub's function; the solution's passes the check.
        stub_fn = re.search(rf"^def {function}\(.*?raise NotImplementedError[^\n]*", stub,
                            re.M | re.S).group(0)
        # ... and the check call of the book's cell last, which running the cell runs.
        assert _student(answer.source).strip().endswith(f"{stub_fn}\n\n\ncheck.{function}({function})"), (
            _student(answer.source))
        from perceptron_core import check

        namespace = {"np": np, "check": check}
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(compile(_student(answer.source), "<student>", "exec"), namespace)
        assert f"check.{function}: not implemented yet" in out.getvalue()
        with pytest.raises(NotImplementedError):
            namespace[function](*([None] * namespace[function].__code__.co_argcount))
        namespace = {"np": np, "check": check}
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(compile(answer.source, "<solution>", "exec"), namespace)
        assert f"check.{function}: all" in out.getvalue()  # the cell's own check passed


@pytest.mark.parametrize("name", chapter_names())
def test_no_myst_reaches_the_texts(name, masters):
    text = "\n\n".join(c.source for c in masters[name].cells if c.cell_type == "markdown")
    assert not RAW_MYST.search(text), RAW_MYST.search(text)
    for raw in ("```{", "{prf:ref}", "{glue", "{cite", "{solution", "{exercise"):
        assert raw not in text, (name, raw)


def test_exercises_and_their_solutions_are_read_from_myst():
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source":
            "(sec)=\n# T\n\nProse.\n\n```{exercise} Hard\n:label: ex-a\n\nDo A with "
            "{glue:text}`g:.1f`.\n```\n\n```{solution} ex-a\n:class: dropdown\n\nAnswer A.\n```\n\n"
            "````{exercise}\n:label: ex-b\n\nDo B.\n````\n\n````{solution-start} ex-b\n"
            ":class: dropdown\n````\n\nText B."},
        {"cell_type": "code", "metadata": {}, "source": "b = 2", "outputs": []},
        {"cell_type": "code", "metadata": {"tags": ["remove-input"]}, "source": "glue_it()",
         "outputs": []},
        {"cell_type": "markdown", "metadata": {}, "source": "After B.\n\n````{solution-end}\n````"
                                                             "\n\nMore prose.\n\n```{exercise}\n"
                                                             ":label: ex-c\n\nDo C.\n```"},
    ]}
    exercises = assignments.chapter_exercises(nb)
    assert [e.label for e in exercises] == ["ex-a", "ex-b", "ex-c"]
    book = Book(glued={"g": "0.25"}, format_glued=lambda text, spec: format(float(text), spec),
                numbers={"ex-a": "Exercise 3", "ex-b": "Exercise 4", "ex-c": "Exercise 5"},
                targets={}, cite=lambda keys, textual: "")
    prompt, answer = assignments.converted(exercises[0], book)
    assert prompt == "### Exercise 3 (Hard)\n\nDo A with 0.2."  # Python's rounding of 0.25
    assert answer == "**Solution to Exercise 3.**\n\nAnswer A."
    prompt, answer = assignments.converted(exercises[1], book)
    assert prompt == "### Exercise 4\n\nDo B."
    # The code is shown, not run; the plumbing that glues numbers is left out.
    assert answer == "**Solution to Exercise 4.**\n\nText B.\n\n```python\nb = 2\n```\n\nAfter B."
    assert assignments.converted(exercises[2], book) == ("### Exercise 5\n\nDo C.", "")

    broken = {"cells": [{"cell_type": "markdown", "metadata": {},
                         "source": "```{solution} ex-z\n```"}]}
    with pytest.raises(ValueError, match="not an exercise above it"):
        assignments.chapter_exercises(broken)
    unended = {"cells": [dict(nb["cells"][0])]}
    with pytest.raises(ValueError, match="has no \\{solution-end\\}"):
        assignments.chapter_exercises(unended)


def test_an_unknown_chapter_stops_with_the_list_of_chapters(capsys):
    with pytest.raises(ValueError, match="nope.*its chapters are: " + " ".join(chapter_names())):
        assignments.chosen("margin nope")
    assert assignments.chosen("offset, margin") == ["margin", "offset"]  # the book's order
    assert assignments.chosen("") == chapter_names()
    assert assignments.main(["--chapters", "margin nope", "--validate"]) == 2
    err = capsys.readouterr().err
    assert "nope" in err and " ".join(chapter_names()) in err
    assert assignments.main(["--chapters", "margin", "--validate"]) == 0


def test_hidden_tests_missing_fail_clearly(monkeypatch):
    with pytest.raises(KeyError, match="no hidden tests for 'margin'"):
        assignments.hidden_tests("margin", {})
    monkeypatch.setitem(__import__("sys").modules, "assignment_oracles", None)
    with pytest.raises(RuntimeError, match="assignment_oracles.py is missing"):
        assignments.load_hidden()


def test_the_grader_installs_the_wheel_it_carries_at_the_book_s_pins():
    requirements = assignments.grader_requirements("perceptron_core-0.1.0-py3-none-any.whl")
    assert requirements[0] == ("perceptron_core[book] @ file:///autograder/source/files/"
                               "perceptron_core-0.1.0-py3-none-any.whl")
    pins = (REPO / "requirements.txt").read_text(encoding="utf-8")
    for name in ("numpy", "scipy", "matplotlib", "scikit-learn", "numba"):
        (pin,) = [r for r in requirements if r.startswith(name + "==")]
        assert re.search(rf"^{re.escape(pin)}\b", pins, re.M), pin
    assert not [r for r in requirements if r.startswith(("pytest", "jupyter-book", "otter"))]


# --- the student notebook's first cell ---------------------------------------------------------


_FIND_SPEC = __import__("importlib.util").util.find_spec


def _run_init(cell, monkeypatch, tmp_path, absent=(), chapter="margin"):
    """Run the init cell in tmp_path, with the modules in ``absent`` made to look missing and
    pip recorded instead of run."""
    import importlib.util
    import subprocess

    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in absent else _FIND_SPEC(name, *a))
    pip = []
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: pip.append(args))
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(cell, "<init cell>", "exec"), namespace)  # noqa: S102 -- the generated cell
    return namespace, pip


def test_the_init_cell_installs_what_is_missing(monkeypatch, tmp_path):
    pytest.importorskip("otter")  # not in the lowest environment (tests/tools/lowest_versions.py)
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "margin.ipynb")
    url = "https://github.com/someone/perceptron-book"
    cell = assignments.init_cell("margin", url)
    # Everything installed (here, and on the grading machine): nothing is installed, otter's
    # grader is made for the notebook of the assignment's name.
    namespace, pip = _run_init(cell, monkeypatch, tmp_path)
    assert pip == [] and type(namespace["grader"]).__name__ == "Notebook"
    # Colab or a fresh Jupyter: both are installed, the package from the repository and otter at
    # the version requirements.txt pins (the one the tests grade with).
    namespace, pip = _run_init(cell, monkeypatch, tmp_path, absent={"perceptron_core", "otter"})
    (args,) = pip
    assert args[1:4] == ["-m", "pip", "install"]
    assert set(args[5:]) == {f"perceptron_core[book] @ git+{url}", assignments.otter_requirement()}
    assert assignments.otter_requirement().startswith("otter-grader==")
    # Only otter missing: only otter.
    _, pip = _run_init(cell, monkeypatch, tmp_path, absent={"otter"})
    assert pip[0][5:] == [assignments.otter_requirement()]


def test_without_a_repository_the_init_cell_says_how_to_install(monkeypatch, tmp_path):
    cell = assignments.init_cell("margin", "")
    with pytest.raises(SystemExit, match=r"perceptron_core is not installed.*pip install -e"):
        _run_init(cell, monkeypatch, tmp_path, absent={"perceptron_core"})


def test_on_colab_the_init_cell_explains_instead_of_stopping(monkeypatch, tmp_path, capsys):
    otter = pytest.importorskip("otter")

    def colab(*args, **kwargs):  # what otter.Notebook raises on Colab without a tests/ folder
        raise ValueError("Tests directory ./tests does not exist")

    def renamed(*args, **kwargs):  # what it raises for a notebook saved under another name
        raise FileNotFoundError(2, "No such file or directory", "margin.ipynb")  # from nbformat.read

    for error in (colab, renamed):
        monkeypatch.setattr(otter, "Notebook", error)
        namespace, _ = _run_init(assignments.init_cell("margin", ""), monkeypatch, tmp_path)
        assert "grader" not in namespace
        out = capsys.readouterr().out
        assert "grader.check cannot run here" in out and "keep this notebook's name, margin.ipynb" in out


def test_the_guide_names_the_pinned_otter():
    guide = (assignments.REPO / "book" / "instructor_guide.md").read_text(encoding="utf-8")
    assert set(re.findall(r"otter-grader==[\w.]+", guide)) == {assignments.otter_requirement()}
