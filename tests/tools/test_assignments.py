"""The otter-grader assignments' master notebooks (book/_tools/assignments.py) and the code
exercises' one place (perceptron_core/exercises/<chapter>.md, read by book/_tools/exercises.py),
without otter.

Every chapter's master is built from its source notebook with made-up numbers for its labels and
glued values, and read as otter would: the config, one autograded question per checked function
and one written question per other exercise, in the chapter's order, the solution code and the
tests; each written question's set-up runs, and the book's solution code runs after it. The hidden tests are run here as otter runs them (each test function given the student's
function by name): the book's solution passes them, and a function that passes the public check
but is wrong elsewhere fails every one. The otter runs themselves are the grading tests'.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
import yaml

import assignments  # book/_tools (tests/conftest.py puts it on sys.path)
import exercises
from chapters import chapter_names
from conftest import made_up_book
from perceptron_core import check
from reader_notebooks import INSTALL_TAG, Book

REPO = Path(__file__).resolve().parents[2]
BOOK = REPO / "book"
# MyST that must not reach a student: a directive, a role, a target.
RAW_MYST = re.compile(r"^\s*(`{3,}|:{3,})\{|\{(glue|glue:text|ref|prf:ref|numref|doc|cite:[tp]|"
                      r"eq|math)\}`|^\([\w:.-]+\)=\s*$", re.M)


def _nb(name: str) -> dict:
    return json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))


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
    raws = [i for i, c in enumerate(cells) if c.cell_type == "raw"]
    begin = next(i for i in raws if cells[i].source == f"# BEGIN {name}")
    end = next(i for i in raws if cells[i].source == f"# END {name}")
    return cells[begin + 1:end]


def _student(source: str) -> str:
    """What otter leaves of a solution cell for students (otter.assign.solutions)."""
    kept, hiding = [], False
    for line in source.splitlines():
        if line.strip() == "# BEGIN SOLUTION NO PROMPT":
            hiding = True
        elif line.strip() == "# END SOLUTION":
            hiding = False
        elif not hiding and not line.rstrip().endswith(("# BEGIN PROMPT", "# END PROMPT")):
            kept.append(line)
    return "\n".join(kept)


def _run(source: str) -> tuple[dict, str]:
    namespace = {"np": np, "check": check}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(source, "<cell>", "exec"), namespace)
    return namespace, out.getvalue()


@pytest.fixture(scope="module")
def masters() -> dict:
    return {name: assignments.master_notebook(
                name, _nb(name), made_up_book(_nb(name), "Exercise"), page_url=f"https://b.io/book/{name}.html",
                requirements=["perceptron_core[book] @ file:///x.whl"], autograder_files=["x.whl"])
            for name in chapter_names()}


def test_the_chapters_cells_are_made_from_the_exercises_files():
    assert exercises.chapters() == [c for c in chapter_names() if (exercises.HERE / f"{c}.md").exists()]
    assert exercises.sync(check=True) == [], "run: python book/_tools/exercises.py"
    assert exercises.main(["--check"]) == 0
    assert [e.name for e in check.EXERCISES.values()] == [n for c in exercises.chapters()
                                                         for n in exercises.read(c).names]


@pytest.mark.parametrize("name", chapter_names())
def test_every_chapter_has_a_master_with_a_question_per_exercise(name, masters):
    master, code = masters[name], exercises.read(name)
    nbformat.validate(master)
    assert len({c.id for c in master.cells}) == len(master.cells)
    config = yaml.safe_load(master.cells[0].source.split("\n", 1)[1])
    assert master.cells[0].source.startswith("# ASSIGNMENT CONFIG\n") and config["name"] == name
    assert config["tests"] == {"ok_format": False} and config["run_tests"] and not config["export_cell"]
    assert config["requirements"] == ["perceptron_core[book] @ file:///x.whl"] and config["autograder_files"] == ["x.whl"]
    assert "https://b.io/book/" + name + ".html" in master.cells[1].source
    assert INSTALL_TAG in master.cells[2].metadata["tags"]  # reader_notebooks.install_cell's
    assert f'grader = otter.Notebook("{name}.ipynb")' in master.cells[3].source
    assert master.cells[4].source == "import numpy as np\nfrom perceptron_core import check"
    questions = _questions(master)
    assert [c["name"] for c, _ in questions] == [f"q{i}" for i in range(1, len(questions) + 1)]
    auto = [cells for c, cells in questions if not c.get("manual")]
    assert [c["points"] for c, _ in questions if not c.get("manual")] == [2, 2] == [2] * len(code.names)
    labels = re.findall(r"^:label: (\S+)", "\n".join("".join(c["source"]) for c in _nb(name)["cells"]
                                                     if c["cell_type"] == "markdown"), re.M)
    numbers = made_up_book(_nb(name), "Exercise").numbers
    shown = [re.match(r"### (Exercise \d+)", cells[0].source).group(1) for _, cells in questions]
    assert shown == [numbers[lab] for lab in labels if lab.split("-")[1] == "ex"
                     for _ in (code.names if lab == code.label else [None])]
    for function, cells in zip(code.names, auto):
        (answer,) = _block(cells, "SOLUTION")
        tests = [c.source for c in _block(cells, "TESTS")]
        assert "points: 1" in tests[0] and "hidden" not in tests[0] and f"check.{function}({function}, quiet=True)" in tests[0]
        assert len(tests) > 1 and all("hidden: true" in t.split("# END TEST CONFIG")[0] for t in tests[1:])
        # The students' cell: the stub and the check's call, which says "not implemented yet".
        namespace, out = _run(_student(answer.source))
        assert f"check.{function}: not implemented yet" in out and answer.source.endswith(f"check.{function}({function})")
        with pytest.raises(NotImplementedError):
            namespace[function](*([None] * namespace[function].__code__.co_argcount))
        assert f"check.{function}: all" in _run(answer.source)[1]


#: Names the written questions ask the student to make (``rng.permutation``).
MADE_BY_THE_STUDENT = {"rng"}


def _setup(cells: list) -> str:
    return "\n".join(c.source for c in cells if c.cell_type == "code" and c.source.startswith("# Set-up"))


@pytest.mark.parametrize("name", chapter_names())
def test_every_written_question_sets_up_what_it_names(name, masters, monkeypatch):
    """Every written question's set-up cell runs on its own, as the chapter's cells run (in
    book/), and defines every name the question's code spans read from the chapter
    (``assignments.question_names``: `` `max_margin` ``, `` `fig.peak` ``, `` `X, y` ``); the
    book's own solution code then runs after it. A question that asks for code has an empty
    code cell for it; a proof has none."""
    import builtins

    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(BOOK)
    written = [cells for config, cells in _questions(masters[name]) if config.get("manual")]
    assert written
    for cells in written:
        prompt, solution = cells[0].source, _block(cells, "SOLUTION")[0].source
        setup = _setup(cells)
        answers = [c for c in cells if c.cell_type == "code" and c.source == ""]
        namespace: dict = {}
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile("\n".join([assignments.SETUP, setup]), "<set-up>", "exec"), namespace)
            missing = (assignments.question_names(prompt) - set(namespace) - set(dir(builtins))
                       - MADE_BY_THE_STUDENT)
            assert not missing, (prompt.splitlines()[0], missing)
            code = "\n\n".join(re.findall(r"```python\n(.*?)\n```", solution, re.S))
            exec(compile(code, "<the book's solution>", "exec"), namespace)
        coded = bool(code) or re.search(r"^\(\w[^)]*\bcode\b", prompt.split("\n\n")[1], re.I | re.M)
        assert len(answers) == 1 if coded else not answers or setup, prompt.splitlines()[0]
        if prompt.split("\n\n")[1].startswith("(Proof.)"):
            assert not answers and not setup, prompt.splitlines()[0]


def test_a_set_up_gives_what_the_question_means(masters, monkeypatch):
    """The names a span assigns, passes as arguments or as keywords, and the package's own name,
    are the student's or prose, not the chapter's variables of that name; where the question's
    words name the data (the comparison's first split), the set-up the
    exercise's .md declares gives them, not the chapter's other data of that name."""
    from perceptron_core.figures.nonseparable import WAYS

    assert assignments.question_names(
        "`X_mm = np.round(10 * X)`, `augment(X_mm, c)` on `X, y`; `kernel_perceptron` with "
        "`kernel=\"rbf\"` and `gamma`; in `perceptron_core`; `fig.peak`, not `f(a) + b`"
    ) == {"augment", "X", "y", "kernel_perceptron", "fig", "f", "b"}
    monkeypatch.chdir(BOOK)

    def set_up(chapter, label):
        title = "### " + made_up_book(_nb(chapter), "Exercise").numbers[label]
        (cells,) = [c for _, c in _questions(masters[chapter])
                    if c[0].source.split("\n")[0].split(" (")[0] == title]
        namespace: dict = {}
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile("\n".join([assignments.SETUP, _setup(cells)]), "<set-up>", "exec"), namespace)
        return namespace

    split = set_up("nonseparable", "ns-ex-rbf")
    assert "gamma" not in split and "R" not in split  # not the hinge bound's cell
    species, per_class = split["yi"][split["train"]], WAYS["iris_train"]
    assert np.sum(species > 0) == np.sum(species < 0) == per_class
    assert sorted(np.r_[split["train"], split["test"]]) == list(range(len(split["yi"])))
    monkeypatch.setattr(assignments, "declared_setups", lambda chapter: {"ns-ex-nope": "x = 1"})
    with pytest.raises(ValueError, match="declares a set-up for ns-ex-nope, which is not a written"):
        assignments.master_notebook("nonseparable", _nb("nonseparable"),
                                    made_up_book(_nb("nonseparable"), "Exercise"))


def test_the_solution_notebook_shows_the_solution_alone(tmp_path):
    """otter leaves its markers and the stub, as a dead string, in the solution notebook's cells;
    what is left is the book's solution and the check."""
    code = exercises.read("margin")
    cell = exercises.solution_cell(code, "radius", preamble=False)
    path = tmp_path / "margin.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)]), path)
    assignments.solution_only(path)
    shown = nbformat.read(path, as_version=4).cells[0].source
    assert "PROMPT" not in shown and "SOLUTION" not in shown and "NotImplementedError" not in shown
    assert shown.endswith("check.radius(radius)") and "def radius(X):" in shown
    assert f"check.radius: all" in _run(shown)[1]


def _hidden_tests(name: str) -> list:
    chapter = check.EXERCISES[name].chapter
    namespace = {}
    exec(exercises.read(chapter).hidden, namespace)
    return [f for f in namespace.values() if callable(f) and getattr(f, "__code__", None)
            and f.__code__.co_varnames[:f.__code__.co_argcount] == (name,)]


@pytest.mark.parametrize("name", list(check.EXERCISES))
def test_the_hidden_tests_pass_the_solution_and_fail_a_function_fitted_to_the_public_cases(name):
    """A wrong answer that passes the public check: right on the public cases (it looks them
    up), an error elsewhere. Every hidden test must fail it, and pass the book's solution."""
    solution = _run(exercises.read(check.EXERCISES[name].chapter).solution)[0][name]
    public = check.cases(name)

    def key(args):  # a learner factory by what it makes
        return [(a.shape, a.tobytes()) if isinstance(a, np.ndarray) else repr(a) for a in args]

    def fitted(*args):
        if any(key(args) == key(c.args) for c in public):
            return solution(*args)
        raise ValueError("not a public case")

    assert check.run(name, fitted, quiet=True)
    tests = _hidden_tests(name)
    assert tests
    for test in tests:
        test(solution)
        with pytest.raises(AssertionError, match="not a public case"):
            test(fitted)


def test_an_exercise_file_without_a_hidden_test_fails_clearly(tmp_path, monkeypatch):
    code = exercises.read("margin")
    with pytest.raises(ValueError, match="no hidden test of radius"):
        exercises.test_cells(code.__class__(**{**code.__dict__, "hidden": "def test_x(margin):\n    pass"}), "radius")
    (tmp_path / "margin.md").write_text(":label: x\n\ntext\n", encoding="utf-8")
    monkeypatch.setattr(exercises, "HERE", tmp_path)
    with pytest.raises(ValueError, match="python stub, solution and hidden block"):
        exercises.read("margin")


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
    assert assignments.main(["--chapters", "margin", "--wheel", "nowhere.whl"]) == 2
    assert "--wheel must name the package's wheel" in capsys.readouterr().err


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


def test_the_init_cell_installs_otter_where_it_is_missing(monkeypatch, tmp_path):
    pytest.importorskip("otter")  # not in the lowest environment (tests/tools/lowest_versions.py)
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "margin.ipynb")
    cell = assignments.init_cell("margin")
    # Installed (here, and on the grading machine): nothing is installed, otter's grader is
    # made for the notebook of the assignment's name.
    namespace, pip = _run_init(cell, monkeypatch, tmp_path)
    assert pip == [] and type(namespace["grader"]).__name__ == "Notebook"
    # Colab or a fresh Jupyter: otter at the version requirements.txt pins (the tests' own).
    _, pip = _run_init(cell, monkeypatch, tmp_path, absent={"otter"})
    assert pip[0][1:4] == ["-m", "pip", "install"] and pip[0][5:] == [assignments.otter_requirement()]
    assert assignments.otter_requirement().startswith("otter-grader==")


def test_on_colab_the_init_cell_explains_instead_of_stopping(monkeypatch, tmp_path, capsys):
    otter = pytest.importorskip("otter")

    def colab(*args, **kwargs):  # what otter.Notebook raises on Colab without a tests/ folder
        raise ValueError("Tests directory ./tests does not exist")

    def renamed(*args, **kwargs):  # what it raises for a notebook saved under another name
        raise FileNotFoundError(2, "No such file or directory", "margin.ipynb")  # from nbformat.read

    for error in (colab, renamed):
        monkeypatch.setattr(otter, "Notebook", error)
        namespace, _ = _run_init(assignments.init_cell("margin"), monkeypatch, tmp_path)
        assert "grader" not in namespace
        out = capsys.readouterr().out
        assert "grader.check cannot run here" in out and "keep this notebook's name, margin.ipynb" in out


def test_the_guide_names_the_pinned_otter():
    guide = (assignments.REPO / "book" / "instructor_guide.md").read_text(encoding="utf-8")
    assert set(re.findall(r"otter-grader==[\w.]+", guide)) == {assignments.otter_requirement()}
