"""Autograded assignments: every chapter's exercises as an otter-grader assignment.

``make assignments`` writes, for every chapter (or those ``CHAPTERS`` names), a *master notebook*
in otter-grader's format from the repository's own sources, and runs ``otter assign`` on it::

    _build/assignments/<chapter>/master/<chapter>.ipynb   the master (generated, never stored)
    _build/assignments/<chapter>/student/<chapter>.ipynb  to hand out: no solution, no hidden
                                                          test; the package's wheel beside it
    _build/assignments/<chapter>/autograder/              the solution notebook and the
                                                          autograder zip (Gradescope, otter run)

The master holds, in the chapter's order, one question per exercise (``q1``, ``q2``, ...):

* the chapter's code exercise (``perceptron_core/exercises/<chapter>.md``, read by
  ``exercises.py``) is autograded, one question per function it asks for, :data:`CHECKED_POINTS`
  points each: the stub, with the solution's body hidden between otter's solution markers and the
  stub's ``raise NotImplementedError`` as the students' prompt; a public test, the package's own
  check; the ``.md``'s hidden tests, in otter's exception-based format;
* every other exercise is a written question graded by hand (:data:`MANUAL_POINTS` point), with
  the book's solution (text, and its code shown as code) as the solution only the autograder's
  notebook keeps; before it, a set-up cell with the chapter's code that the question uses
  (:func:`setup_code`) and the set-up its exercise declares (:func:`declared_setups`), and
  where code is asked for, an empty code cell for it.

The notebook starts with the reader notebooks' install cell (``reader_notebooks.install_cell``),
which installs the package from the wheel beside it where it is missing, then otter's.

The texts are the reader notebooks' plain Markdown (``reader_notebooks.reader_notebook``): the
page's exercise numbers and glued numbers, no MyST. :func:`master_notebook` is a pure function of
the chapter's source notebook and what the book build knows (a ``reader_notebooks.Book``);
:func:`book_from_build` reads that from a built book (``make book``).

The autograder zip installs the package from the wheel it carries (:func:`grader_requirements`):
the package as it was when the assignment was made, whether or not the book's repository is
public, and whatever the repository holds later. A local ``otter run`` uses the current
environment and installs nothing. The same wheel (``--wheel``, which ``make assignments`` builds)
goes into every ``student/`` folder.

Usage::

    .venv/bin/python book/_tools/assignments.py --wheel WHEEL [--out DIR] [--chapters "margin offset"]
    .venv/bin/python book/_tools/assignments.py --chapters "margin offset" --validate
"""

from __future__ import annotations

import argparse
import ast
import builtins
import contextlib
import inspect
import json
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Sequence

import nbformat
import yaml

import exercises  # book/_tools, beside this file
from chapters import REPO, chapter_names
from reader_notebooks import INSTALL_TAG, Book, install_cell, reader_notebook

BOOK_DIR = REPO / "book"
OUT = REPO / "_build" / "assignments"
#: A question per function of the checked exercise: the public test's point and the hidden
#: tests' (``exercises.PUBLIC_POINTS``, ``exercises.HIDDEN_POINTS``).
CHECKED_POINTS = exercises.PUBLIC_POINTS + exercises.HIDDEN_POINTS
#: A written question, graded by hand.
MANUAL_POINTS = 1
#: The Python of otter's grading image (conda): the lowest the package supports, the one the
#: tests' environments run.
GRADER_PYTHON = "3.11"
#: Where Gradescope (and otter's Docker image) unpacks the autograder: the zip's ``files/`` are
#: in ``<this>/source/files/`` while the image is built.
GRADER_DIR = "/autograder"
#: The package's imports the exercises' code uses, in the notebook's first cell.
SETUP = "import numpy as np\nfrom perceptron_core import check"
#: The module otter-grader's notebooks import, and its distribution.
OTTER = ("otter", "otter-grader")
# ```{name} arg  or  :::{name} arg (colon fence): a MyST directive's first line.
_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>.*?)[ \t]*$")
_LABEL = re.compile(r"^:label:[ \t]*(\S+)[ \t]*$", re.M)
_PLUMBING = {"remove-input", "remove-cell", "hide-input"}


# ------------------------------------------------------------------------- the chapter's exercises


@dataclass
class Exercise:
    """One ``{exercise}`` of a chapter, as MyST: the directive and its solution's cells."""

    label: str
    directive: str
    #: The index of the chapter's cell that holds the directive.
    at: int
    #: The solution as notebook cells (MyST Markdown and code), directives included: a
    #: ``{solution}`` block, or everything from ``{solution-start}`` to ``{solution-end}``.
    solution: list[dict[str, Any]] = field(default_factory=list)


def _closes(line: str, fence: str) -> bool:
    text = line.strip()
    return len(text) >= len(fence) and set(text) == {fence[0]}


def _source(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def chapter_exercises(nb: dict[str, Any]) -> list[Exercise]:
    """The chapter's exercises in its order, each with its solution (the same reading of
    ``{solution}``, ``{solution-start}`` and ``{solution-end}`` as
    ``sphinx_extension.strip_solutions``, which removes exactly these solutions).

    Raises ``ValueError`` on an exercise without a label, a solution of no exercise above it, an
    unclosed directive or an unended gated solution.
    """
    exercises: dict[str, Exercise] = {}
    gated: Exercise | None = None  # inside solution-start ... solution-end
    for at, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            if gated is not None and cell["cell_type"] == "code":
                gated.solution.append(cell)
            continue
        lines = _source(cell).splitlines()
        kept: list[str] = []  # the gated solution's lines in this cell

        def owner(arg: str, name: str) -> Exercise:
            if arg.strip() not in exercises:
                raise ValueError(f"a {{{name}}} for {arg!r}, which is not an exercise above it")
            return exercises[arg.strip()]

        i = 0
        while i < len(lines):
            opened = _OPEN.match(lines[i])
            if not opened:
                if gated is not None:
                    kept.append(lines[i])
                i += 1
                continue
            fence, name, arg = opened.group("fence", "name", "arg")
            end = i + 1
            while end < len(lines) and not _closes(lines[end], fence):
                end += 1
            if end == len(lines):
                raise ValueError(f"the {{{name}}} directive opened with {fence} is not closed "
                                 "in its cell")
            block = lines[i:end + 1]
            i = end + 1
            if name == "exercise":
                label = _LABEL.search("\n".join(block))
                if not label:
                    raise ValueError("an {exercise} without a :label:")
                exercises[label.group(1)] = Exercise(label.group(1), "\n".join(block), at)
            elif name == "solution":
                owner(arg, name).solution.append(
                    {"cell_type": "markdown", "metadata": {}, "source": "\n".join(block)})
            elif name == "solution-start":
                if gated is not None:
                    raise ValueError(f"a {{solution-start}} inside the solution of {gated.label}")
                gated = owner(arg, name)
                kept += block
            elif name == "solution-end":
                if gated is None:
                    raise ValueError("a {solution-end} without a {solution-start}")
                gated.solution.append({"cell_type": "markdown", "metadata": {},
                                       "source": "\n".join(kept + block)})
                gated, kept = None, []
            elif gated is not None:
                kept += block  # a directive inside a solution (a proof, say)
        if gated is not None and kept:
            gated.solution.append({"cell_type": "markdown", "metadata": {},
                                   "source": "\n".join(kept)})
    if gated is not None:
        raise ValueError(f"the {{solution-start}} of {gated.label} has no {{solution-end}}")
    return list(exercises.values())


def converted(exercise: Exercise, book: Book) -> tuple[str, str]:
    """The exercise's prompt and its solution as plain Markdown (the reader notebooks'
    conversion): ``("### Exercise 17 (title)\\n\\n...", "**Solution to Exercise 17.**...")``.

    The solution's code cells are shown as code blocks, not run: they use the chapter's data. The
    plumbing cells that glue numbers into the text are left out. No solution gives ``""``.
    """
    cells = [{"cell_type": "markdown", "metadata": {}, "source": exercise.directive},
             *exercise.solution]
    out = reader_notebook({"cells": cells, "metadata": {}}, book, repository_url="")
    parts: list[str] = []
    for cell in out["cells"]:
        if cell["cell_type"] == "markdown":
            parts.append(cell["source"])
        elif (INSTALL_TAG not in cell["metadata"].get("tags", [])
              and "jupyter" not in cell["metadata"]):  # not the install cell, nor plumbing
            parts.append(f"```python\n{cell['source'].strip()}\n```")
    if not parts or not parts[0].startswith("### "):
        raise ValueError(f"exercise {exercise.label}: its conversion does not start with its title")
    return parts[0], "\n\n".join(parts[1:])


def _names(node: ast.AST, bound: bool) -> set[str]:
    """The names ``node`` reads, or (``bound``) assigns anywhere in it, arguments included."""
    ctx = ast.Store if bound else ast.Load
    found = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}
    return found | {a.arg for a in ast.walk(node) if bound and isinstance(a, ast.arg)}


def _bound(node: ast.AST) -> set[str]:
    """The names a statement binds in the notebook: not those of its functions, lambdas and
    comprehensions (``def f(X_tr)`` defines ``f``, not ``X_tr``)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return set()
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.Name):
        return {node.id} if isinstance(node.ctx, ast.Store) else set()
    return set().union(*map(_bound, ast.iter_child_nodes(node)))


def _flow(source: str) -> tuple[set[str], set[str]]:
    """What a cell's code defines, and the names it reads before defining them (builtins
    aside): statement by statement, ``X = X @ M`` reads ``X``, a loop's own variable is not read.
    A cell that is not plain Python (a magic) defines and reads nothing."""
    defined: set[str] = set()
    free: set[str] = set()
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return defined, free
    for stmt in body:
        simple = isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and stmt.value
        inner = stmt.value if simple else stmt
        free |= _names(inner, False) - _names(inner, True) - defined
        if isinstance(stmt, ast.AugAssign):
            free |= _names(stmt.target, True) - defined
        defined |= _bound(stmt)
    return defined, free - set(dir(builtins))


def _code(cells: list[dict[str, Any]]) -> str:
    """The code of ``cells`` that a student sees: not plumbing, which glues numbers into the text."""
    return "\n\n".join(_source(c).strip() for c in cells if c["cell_type"] == "code"
                        and not _PLUMBING & set(c["metadata"].get("tags", [])))


def question_names(prompt: str) -> set[str]:
    """The names a question's code spans read from the chapter: `` `max_margin` ``,
    `` `fig.peak` ``, `` `X, y` ``.

    Not a call's arguments (`` `augment(X_mm, c)` `` names its parameters), nor a span that is a
    statement (`` `X_mm = np.round(10 * X)` ``, `` `tie="negative"` ``: what it assigns is the
    student's, and the data its right side names the question defines in its words, "the Iris
    petals", which a set-up declares where a student needs it: :func:`declared_setups`). A span
    that is only a name is prose for the package (`` `perceptron_core` ``) or for a keyword-only
    parameter of a package function another span names (`` `gamma` `` of
    `` `kernel_perceptron` ``), not the chapter's variable of that name.
    """
    import perceptron_core

    wanted: set[str] = set()
    bare: set[str] = set()
    for span in re.findall(r"`([^`\n]+)`", prompt):
        try:
            (stmt,) = ast.parse(span).body
        except (SyntaxError, ValueError):  # prose, or more than one statement
            continue
        if not isinstance(stmt, ast.Expr):
            continue
        if isinstance(stmt.value, ast.Name):
            bare.add(stmt.value.id)
        arguments = {id(a) for n in ast.walk(stmt) if isinstance(n, ast.Call) for a in n.args}
        wanted |= {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and id(n) not in arguments}
    prose = {perceptron_core.__name__}
    for name in wanted & set(perceptron_core.__all__):
        with contextlib.suppress(TypeError, ValueError):  # no signature to read
            prose |= {p.name for p in inspect.signature(getattr(perceptron_core, name))
                      .parameters.values() if p.kind is p.KEYWORD_ONLY}
    return wanted - (bare & prose)


#: A set-up a written exercise declares in ``perceptron_core/exercises/<chapter>.md``, after the
#: code exercise's blocks (``exercises.read`` reads only those): a block ```` ```python setup
#: <label> ```` holding the code that gives what the question means where no chapter cell does,
#: or the one that does would mislead (the Iris split of the comparison, which the chapter's
#: loop leaves at its last seed).
_DECLARED = re.compile(r"^```python setup (\S+)\n(.*?)\n```$", re.M | re.S)


def declared_setups(chapter: str) -> dict[str, str]:
    """The set-ups the chapter's written exercises declare, by label (see :data:`_DECLARED`)."""
    path = exercises.HERE / f"{chapter}.md"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    return {m.group(1): m.group(2) for m in _DECLARED.finditer(text)}


def setup_code(nb: dict[str, Any], exercise: Exercise, prompt: str,
               skip: Sequence[dict[str, Any]] = (), declared: str = "") -> str:
    """The code a written question needs to be answered in a notebook of its own: the fewest of
    the chapter's cells above the exercise that define what it uses, in the chapter's order,
    after an import of the package's functions it names that no such cell imports, and before
    the set-up the exercise declares (``declared``, from :func:`declared_setups`).

    What it uses: the names its code spans read (:func:`question_names`), those the book's
    solution code reads and those the declared set-up reads, less what the declared set-up
    defines; then, cell by cell upwards, what the cells chosen read. The cells in ``skip`` (the
    solutions, the code exercise's stub) and the plumbing are never chosen. A name no cell
    defines and the package does not export (the ``rng`` a question asks the student to make)
    is left to the student. "" when nothing is needed.
    """
    import perceptron_core

    defined, free = _flow(declared)
    wanted = ((question_names(prompt) | _flow(_code(exercise.solution))[1]) - defined) | free
    skipped = {id(c) for c in skip}
    chosen: list[str] = []
    for cell in reversed(nb["cells"][:exercise.at]):
        if _code([cell]) and id(cell) not in skipped:
            defined, free = _flow(_source(cell))
            if defined & wanted:
                chosen.insert(0, _source(cell).strip())
                wanted = (wanted - defined) | free
    package = sorted(wanted & set(perceptron_core.__all__))
    imports = [line for name, line in (("pc", "import perceptron_core as pc"),
                                        ("perceptron_core", "import perceptron_core")) if name in wanted]
    if package:
        imports.append(f"from perceptron_core import {', '.join(package)}")
    return "\n\n".join(["\n".join(imports)] * bool(imports) + chosen
                        + [declared.strip()] * bool(declared.strip()))


# ------------------------------------------------------------------------------------ the master


def chapter_title(nb: dict[str, Any]) -> str:
    """The chapter's ``# Title`` (the first level-1 heading of its Markdown)."""
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            title = re.search(r"^# (.+?)\s*$", _source(cell), re.M)
            if title:
                return title.group(1)
    raise ValueError("the chapter has no # title")


def otter_requirement() -> str:
    """otter-grader at the version ``requirements.txt`` pins (the one the tests grade with)."""
    for line in (REPO / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.lower().startswith(OTTER[1] + "=="):
            return line
    raise RuntimeError(f"requirements.txt pins no {OTTER[1]}: the student notebook installs that pin")


def init_cell(chapter: str) -> str:
    """The student notebook's second code cell, otter's own ``grader = otter.Notebook(...)``
    with two things before and after it (the first cell installs the package).

    Before: where otter-grader is missing (Colab, a fresh Jupyter), it installs it at its pin;
    where it is installed, as on the grading machine, it does nothing. After: on Colab, where
    otter reads its tests only from a ``tests/`` folder that a single notebook cannot carry,
    ``otter.Notebook`` raises, and it also raises when the notebook was renamed; the cell then
    says why and to use the package's checks, the same public tests, instead of stopping the
    notebook there.
    """
    return (
        "# Installs otter-grader, which checks the answers, where it is missing (Colab, a fresh\n"
        "# Jupyter). Where it is there, it installs nothing.\n"
        "import importlib.util\n"
        "import subprocess\n"
        "import sys\n\n"
        "if importlib.util.find_spec(\"otter\") is None:\n"
        "    subprocess.run([sys.executable, \"-m\", \"pip\", \"install\", \"--quiet\", "
        f"{otter_requirement()!r}],\n"
        "                   check=True)\n"
        "    importlib.invalidate_caches()\n"
        "\n"
        "import otter\n\n"
        "try:\n"
        f"    grader = otter.Notebook(\"{chapter}.ipynb\")\n"
        "except (ValueError, FileNotFoundError) as error:  # Colab; or the notebook renamed\n"
        "    print(f\"grader.check cannot run here ({error}). On Colab otter needs a tests/ \"\n"
        f"          \"folder; elsewhere keep this notebook's name, {chapter}.ipynb. Each code \"\n"
        "          \"question's cell runs the package's check of your function, the same public \"\n"
        "          \"test: read its verdict.\")"
    )


def _imports(sources: Sequence[str]) -> list[str]:
    """The modules the code imports (``perceptron_core.figures``, ``numpy``), sorted."""
    found: set[str] = set()
    for source in sources:
        for n in ast.walk(ast.parse(source)):
            if isinstance(n, ast.Import):
                found |= {a.name for a in n.names}
            elif isinstance(n, ast.ImportFrom) and n.level == 0 and n.module:
                found.add(n.module)
    return sorted(found)


def _config(chapter: str, requirements: Sequence[str], autograder_files: Sequence[str]) -> str:
    config: dict[str, Any] = {
        "name": chapter,
        "solutions_pdf": False,
        # The notebook's first code cell is this module's (init_cell), not otter's.
        "init_cell": False,
        "check_all_cell": True,
        # Students hand in the .ipynb itself, not a zip that an export cell would write.
        "export_cell": False,
        # otter assign grades the solution notebook, which must get every point.
        "run_tests": True,
        "python_version": GRADER_PYTHON,
        "generate": True,
        # Tests are functions (otter.test_files.test_case), as the exercises' .md hold them.
        "tests": {"ok_format": False},
    }
    if requirements:
        config["requirements"] = list(requirements)
    if autograder_files:
        config["autograder_files"] = list(autograder_files)
    return "# ASSIGNMENT CONFIG\n" + yaml.safe_dump(config, sort_keys=False, width=1000)


def _intro(chapter: str, title: str, page_url: str, questions: list[tuple[str, bool]]) -> str:
    where = (f"[the chapter in the book]({page_url})" if page_url
             else f"the chapter \"{title}\" of the book (`book/{chapter}.ipynb`)")
    auto = [q for q, checked in questions if checked]
    written = [q for q, checked in questions if not checked]
    first = auto[0] if auto else "q1"
    return "\n".join([
        f"# {title}: exercises",
        "",
        f"The exercises of {where}, with their numbers there. Read the chapter first. A question "
        "that uses the chapter's data or functions has a set-up cell, the chapter's own code "
        "for them: run it before you answer.",
        "",
        f"- **Code, graded automatically** ({', '.join(auto)}): write the function in its cell, "
        "keeping its name and arguments, and run the cell: its last line, "
        "`check.<function>(<function>)`, tries your function and prints a detailed verdict. "
        f"Then run `grader.check(\"{first}\")` (with the question's name) in the cell below it, "
        "otter's run of the same public test; the autograder also runs hidden tests.",
        f"- **Written, graded by hand** ({', '.join(written) or 'none'}): answer in the text cell "
        "below the question, in words and $math$; a question that asks for code has an empty "
        "code cell for it above that text cell.",
        "",
        "It runs where the chapters' notebooks run (Jupyter, JupyterLab, VS Code), with "
        "otter-grader besides: its first two code cells install what is missing, "
        "`perceptron_core` (from the wheel beside this notebook, where there is one) and "
        f"`{otter_requirement()}`. On Colab `grader.check` cannot run, since otter reads its "
        "tests there from a `tests/` folder; each code question's cell runs the same public "
        "test, `check.<function>(<function>)`, and prints its verdict.",
        "",
        "To hand in: restart the kernel and run all cells (the autograder runs the notebook from "
        "the top, so every cell must run), save, and submit this `.ipynb` file as it is, under "
        "its name.",
    ])


def master_notebook(chapter: str, nb: dict[str, Any], book: Book, *,
                    page_url: str = "",
                    repository_url: str = "",
                    book_url: str = "",
                    requirements: Sequence[str] = (),
                    autograder_files: Sequence[str] = (),
                    checked: exercises.CodeExercise | None = None,
                    ) -> nbformat.NotebookNode:
    """The otter-grader master notebook of one chapter (format v1).

    Parameters
    ----------
    chapter : str
        The chapter's name (``"margin"``): the assignment's name.
    nb : dict
        The chapter's source notebook (MyST, with solutions); not changed.
    book : Book
        What the book build knows: exercise numbers, glued numbers, labels, citations.
    page_url : str
        The chapter's page in the published book ("" when the book has no address).
    repository_url, book_url : str
        The book's repository and its address ("": none), from which the first cell installs
        ``perceptron_core`` where it is missing and no wheel is beside the notebook.
    requirements, autograder_files : sequence of str
        What the grading image installs, and the files the autograder zip carries for it.
    checked : exercises.CodeExercise, optional
        The chapter's code exercise; by default ``exercises.read(chapter)``, from
        ``perceptron_core/exercises/<chapter>.md``.

    Returns
    -------
    nbformat.NotebookNode
        A valid notebook with deterministic cell ids: the assignment config, an introduction, a
        setup cell, then one question per exercise in the chapter's order.
    """
    checked = checked or exercises.read(chapter)
    label, names = checked.label, checked.names
    boxes = chapter_exercises(nb)
    if label not in {e.label for e in boxes}:
        raise ValueError(f"{chapter}: the checked exercise {label} is not in the chapter")

    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    raw = nbformat.v4.new_raw_cell
    questions: list[tuple[str, bool]] = []
    body: list[nbformat.NotebookNode] = []

    def question(config: str, cells: list[nbformat.NotebookNode]) -> None:
        body.extend([raw(f"# BEGIN QUESTION\n{config}"), *cells, raw("# END QUESTION")])

    # Never a setup's: the solutions, and the code exercise's stub.
    skip = [c for e in boxes for c in e.solution] + [c for c in nb["cells"]
                                                      if c.get("id", "").startswith(label)]
    declared = declared_setups(chapter)
    stray = (set(declared) - {e.label for e in boxes}) | ({label} & set(declared))
    if stray:
        raise ValueError(f"perceptron_core/exercises/{chapter}.md declares a set-up for "
                         f"{', '.join(sorted(stray))}, which is not a written exercise of the "
                         f"chapter: name the label of a written exercise of book/{chapter}.ipynb")
    for exercise in boxes:
        prompt, answer = converted(exercise, book)
        if exercise.label == label:
            number = book.numbers[label]
            for k, name in enumerate(names):
                q = f"q{len(questions) + 1}"
                questions.append((q, True))
                head = prompt if k == 0 else f"### {number}, continued: `{name}`"
                later = [f"`{other}` in the cell of q{len(questions) + j}"
                         for j, other in enumerate(names[k + 1:], start=1)]
                # The exercise's text asks for every function in one cell; here each has its own.
                split = (f" Here the exercise is split into {len(names)} questions, a function "
                         f"each: write {', '.join(later)}, not here.") if later else ""
                note = (f"*{q}, {CHECKED_POINTS} points, graded automatically.*{split} Write "
                        f"`{name}` in the cell below and run it: its last line, "
                        f"`check.{name}({name})`, prints the package's verdict. Then run "
                        f"`grader.check(\"{q}\")`.")
                question(f"name: {q}\npoints: {CHECKED_POINTS}", [
                    md(f"{head}\n\n{note}"),
                    raw("# BEGIN SOLUTION"),
                    # The check call stays in the students' cell, as in the book's: the
                    # exercise's text says it comes after their code.
                    code(exercises.solution_cell(checked, name, preamble=k == 0)),
                    raw("# END SOLUTION"),
                    raw("# BEGIN TESTS"),
                    *(code(t) for t in exercises.test_cells(checked, name)),
                    raw("# END TESTS"),
                ])
        else:
            q = f"q{len(questions) + 1}"
            questions.append((q, False))
            setup = setup_code(nb, exercise, prompt, skip, declared.get(exercise.label, ""))
            # Code is asked for where the question uses the chapter's code, the book's solution
            # has code, or the text says so.
            coded = bool(setup or _code(exercise.solution) or re.search(r"\bcode\b", prompt, re.I))
            note = (f"*{q}, {MANUAL_POINTS} point, graded by hand.* "
                    + ("The cell below sets up what the question uses, from the chapter's code. "
                       * bool(setup))
                    + ("Write your code in the empty code cell and your answer in the text cell "
                       "after it." if coded else "Answer in the cell below."))
            question(f"name: {q}\nmanual: true\npoints: {MANUAL_POINTS}", [
                md(f"{prompt}\n\n{note}"),
                *[code(f"# Set-up: the chapter's code this question uses.\n{setup}")] * bool(setup),
                # otter's answer cells: shown to students, editable (the question's own cells
                # are locked); without them otter adds the text cell alone, with this text.
                *([raw("# BEGIN PROMPT"), code(""), md("_Type your answer here, replacing this text._"), raw("# END PROMPT")]
                  * coded),
                raw("# BEGIN SOLUTION"),
                md(answer or f"*The book gives no solution to {book.numbers[exercise.label]}.*"),
                raw("# END SOLUTION"),
            ])

    # The title through the same conversion, in case it ever holds a role.
    title = reader_notebook({"cells": [{"cell_type": "markdown", "metadata": {},
                                        "source": chapter_title(nb)}], "metadata": {}},
                            book, repository_url="")["cells"][0]["source"]
    cells = [raw(_config(chapter, requirements, autograder_files)),
             md(_intro(chapter, title, page_url, questions)),
             # The reader notebooks' install cell: the student/ folder carries the wheel.
             nbformat.from_dict(install_cell(repository_url=repository_url, site_url=book_url,
                                             imports=_imports([SETUP] + [
                                                 c.source for c in body if c.cell_type == "code"]))),
             code(init_cell(chapter)), code(SETUP), *body]
    for i, cell in enumerate(cells):
        cell["id"] = f"{chapter}-{i:03d}"
    master = nbformat.v4.new_notebook(cells=cells)
    master.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                                      "name": "python3"},
                       "language_info": {"name": "python"}}
    nbformat.validate(master)
    return master


# ------------------------------------------------------------------------ what the build knows


def _config_yml() -> dict[str, Any]:
    return yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))


def site_url() -> str:
    """The published book's address (``sphinx_extension.site_url`` on ``_config.yml``)."""
    from sphinx_extension import site_url as from_config

    cfg = _config_yml()
    config = SimpleNamespace(
        html_baseurl=(cfg.get("html") or {}).get("baseurl", ""),
        html_theme_options={"repository_url": (cfg.get("repository") or {}).get("url", "")})
    return from_config(config)


def book_from_build(chapter: str, html_dir: Path = REPO / "_build" / "html",
                    cache_dir: Path = REPO / "_build" / ".jupyter_cache") -> Book:
    """What ``make book`` knows about a chapter, read from its output: the boxes' numbers from
    the pages, every label from ``objects.inv``, the glued numbers from the execution cache."""
    import posixpath

    from jupyter_cache import get_cache
    from myst_nb.core.variables import format_plain_text
    from reader_notebooks import Target, citations, glued_values, page_numbers
    from sphinx.util.inventory import InventoryFile

    inventory = html_dir / "objects.inv"
    if not inventory.is_file():
        raise RuntimeError(f"no built book in {html_dir}: run `make book` first")
    with inventory.open("rb") as f:
        inv = InventoryFile.load(f, "", posixpath.join)
    base = site_url()

    def link(uri: str) -> str:
        return f"{base}{uri}" if base else ""

    targets: dict[str, Target] = {}
    for label, item in inv.get("std:label", {}).items():
        uri, shown = item[2], item[3]
        targets[label] = Target(label if shown in ("", "-") else shown, link(uri))
    numbers: dict[str, str] = {}
    for docname in inv.get("std:doc", {}):
        page = html_dir / f"{docname}.html"
        if page.is_file():
            for label, number in page_numbers(page.read_text(encoding="utf-8")).items():
                numbers[label] = number
                targets[label] = Target(number, link(f"{docname}.html#{label}"))
    source = BOOK_DIR / f"{chapter}.ipynb"
    try:
        _, executed = get_cache(str(cache_dir)).merge_match_into_notebook(
            nbformat.read(source, as_version=4))
    except KeyError:
        raise RuntimeError(f"the book build has not run book/{chapter}.ipynb as it is now: run "
                           "`make book` first") from None
    refs = "book/references"
    cite = citations([str(REPO / f) for f in _config_yml().get("bibtex_bibfiles", [])],
                     link(f"{refs}.html") if refs in inv.get("std:doc", {}) else "")
    return Book(glued=glued_values(json.loads(nbformat.writes(executed))),
                format_glued=format_plain_text, numbers=numbers, targets=targets, cite=cite)


def _same_as_reader(chapter: str, nb: dict[str, Any], book: Book, html_dir: Path) -> None:
    """Every exercise's text as the book's own reader notebook has it: a stale build (or a Book
    read wrongly) would give other numbers or another text."""
    reader_path = html_dir / "_notebooks" / "book" / f"{chapter}.ipynb"
    if not reader_path.is_file():
        raise RuntimeError(f"{reader_path} is missing: run `make book` first")
    reader = json.loads(reader_path.read_text(encoding="utf-8"))
    text = "\n\n".join(_source(c) for c in reader["cells"] if c["cell_type"] == "markdown")
    for exercise in chapter_exercises(nb):
        prompt = converted(exercise, book)[0]
        if prompt not in text:
            raise RuntimeError(f"{chapter}: {prompt.splitlines()[0]} reads differently in the "
                               f"built book's notebook ({reader_path}): run `make book` again")


# --------------------------------------------------------------------------- otter and the zip


def grader_requirements(wheel: str) -> list[str]:
    """What otter's grading image installs: the package from the wheel in the zip, with its book
    extra, and the package's dependencies at the pins of ``requirements.txt`` (the versions the
    book and its tests run)."""
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    needed = pyproject["dependencies"] + pyproject["optional-dependencies"]["book"]

    def key(requirement: str) -> str:
        return re.split(r"[\s<>=!~\[;]", requirement, 1)[0].lower().replace("_", "-")

    wanted = {key(r) for r in needed}
    pins = []
    for line in (REPO / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line and key(line) in wanted:
            pins.append(line)
    return [f"perceptron_core[book] @ file://{GRADER_DIR}/source/files/{wheel}", *pins]


def run_otter(master: Path, result: Path) -> None:
    """``otter assign`` from this environment: ``result/student`` and ``result/autograder``."""
    done = subprocess.run([sys.executable, "-m", "otter", "assign", "--no-pdfs", str(master),
                           str(result)], capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise RuntimeError(f"otter assign failed on {master}")


# otter's markers in a solution cell: the students' stub as a string between the PROMPT lines
# (dead code after the solution's return), and the lines around the solution.
_MARKERS = re.compile(r'^[ \t]*""" # BEGIN PROMPT\n.*?""" # END PROMPT\n?'
                      r"|^[ \t]*# (BEGIN SOLUTION( NO PROMPT)?|END SOLUTION)\n", re.M | re.S)


def solution_only(path: Path) -> None:
    """The solution notebook at ``path`` with its solution cells as a reader wants them, the
    solution alone: otter keeps its markers there, and each stub as a dead string after the
    solution's ``return``. (The student notebook keeps the stub, not the solution; otter assign
    has graded this notebook by now.)"""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = _MARKERS.sub("", cell.source + "\n")[:-1]
    nbformat.write(nb, path)


def chosen(requested: str) -> list[str]:
    """The chapters ``requested`` names (spaces or commas; all when empty), in the book's order.

    A name that is not a chapter is a ``ValueError`` that lists the chapters (``make exercises``
    checks its ``CHAPTERS`` with the same function).
    """
    from sphinx_extension import handed_out

    return handed_out(chapter_names(), requested)


def make_assignment(chapter: str, out: Path, wheel: Path, *,
                    html_dir: Path = REPO / "_build" / "html") -> Path:
    """Write the chapter's master and run otter on it; returns ``out/<chapter>``."""
    result = out / chapter
    master_dir = result / "master"
    shutil.rmtree(master_dir, ignore_errors=True)
    master_dir.mkdir(parents=True)
    shutil.copy(wheel, master_dir / wheel.name)
    nb = json.loads((BOOK_DIR / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    base = site_url()
    book = book_from_build(chapter, html_dir)
    _same_as_reader(chapter, nb, book, html_dir)
    master = master_notebook(chapter, nb, book,
                             page_url=f"{base}book/{chapter}.html" if base else "",
                             repository_url=(_config_yml().get("repository") or {}).get("url", ""),
                             book_url=base,
                             requirements=grader_requirements(wheel.name),
                             autograder_files=[wheel.name])
    path = master_dir / f"{chapter}.ipynb"
    nbformat.write(master, path)
    run_otter(path, result)
    solution_only(result / "autograder" / f"{chapter}.ipynb")
    # Beside the notebook, for its first cell to install where there is no network address.
    shutil.copy(wheel, result / "student" / wheel.name)
    return result


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where to write (%(default)s)")
    parser.add_argument("--chapters", default="",
                        help="chapter names, separated by spaces or commas (default: all)")
    parser.add_argument("--validate", action="store_true",
                        help="only check the chapter names")
    parser.add_argument("--wheel", type=Path,
                        help="the package's wheel, for the student/ folders and the autograder")
    args = parser.parse_args(argv)
    try:
        chapters = chosen(args.chapters)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.validate:
        return 0
    if args.wheel is None or not args.wheel.is_file():
        print(f"--wheel must name the package's wheel (got {args.wheel}): build it with "
              "`pip wheel --no-deps -w <folder> .`; `make assignments` does.", file=sys.stderr)
        return 2
    out = args.out.resolve()
    for chapter in chapters:
        result = make_assignment(chapter, out, args.wheel.resolve())
        (zipped,) = (result / "autograder").glob(f"{chapter}-autograder_*.zip")
        print(f"{chapter}: hand out {_shown(result / 'student' / f'{chapter}.ipynb')}; "
              f"autograder {_shown(zipped)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
