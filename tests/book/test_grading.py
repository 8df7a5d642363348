"""Grading with otter (``book/_tools/grading.py``, ``make grade``), on the assignments
``make assignments`` builds in ``_build/assignments/<chapter>/``.

For every chapter built there, three hand-ins are graded in one pool (one otter run per core, the
time limits of grading.py): the solution notebook (full marks), the student notebook as handed
out (nothing, each question "not implemented yet"), the solution with its first autograded answer
made wrong (that question's points lost, with its reason; the others kept). Then a class of
hand-ins of every kind an instructor meets (``CLASS``) is graded by the command line that
``make grade`` runs, and every row's scores, status and reason are checked. Then the student
notebook must hold none of the solution's lines and none of the hidden tests' text.

``make test-assignments`` runs these after ``make assignments``. They grade with otter and read a
build, hence the ``notebooks`` marker, and run only with ``PERCEPTRON_GRADING=1`` (which that
target sets): ``make test-notebooks`` selects ``-m notebooks`` too, and builds no
assignments. ``PERCEPTRON_ASSIGNMENTS`` points them at another folder of assignments.
"""

from __future__ import annotations

import ast
import copy
import csv
import json
import os
import re
import sys
import time
import uuid
from pathlib import Path

import pytest

import exercises  # book/_tools, on sys.path (tests/conftest.py)
import grading

CLASS_CHAPTER = "margin"
RUN = os.environ.get("PERCEPTRON_GRADING", "").lower() in {"1", "true", "yes", "on"}
ASSIGNMENTS = Path(os.environ.get("PERCEPTRON_ASSIGNMENTS", grading.ASSIGNMENTS)).resolve()
CHAPTERS = sorted(p.parent.name for p in ASSIGNMENTS.glob("*/autograder") if p.is_dir()) \
    if ASSIGNMENTS.is_dir() else []
TIMEOUT = 180.0  # for a hand-in that ends; far more than one takes (3-10 s)


def on_the_build(test):
    """A test that grades the built assignments with otter: marked ``notebooks``, and run with
    PERCEPTRON_GRADING=1 only."""
    test = pytest.mark.skipif(not RUN, reason="grades with otter: run `make test-assignments` "
                              "(PERCEPTRON_GRADING=1)")(test)
    return pytest.mark.notebooks(test)


def every_chapter(test, chapters=CHAPTERS):
    """``on_the_build``, once for every chapter built."""
    chapters = chapters or [pytest.param(None, marks=pytest.mark.skip(reason="no assignments built"))]
    return on_the_build(pytest.mark.parametrize("chapter", chapters)(test))


def one_chapter(test):
    """``on_the_build``, for the chapter the class hands in (``CLASS_CHAPTER``): how grading
    copes with a hand-in does not depend on the chapter."""
    return every_chapter(test, [c for c in CHAPTERS if c == CLASS_CHAPTER] or [pytest.param(
        CLASS_CHAPTER, marks=pytest.mark.skip(reason=f"{CLASS_CHAPTER} not built"))])


@on_the_build
def test_the_assignments_are_built():
    assert CHAPTERS, f"no assignments in {ASSIGNMENTS}: run `make assignments` first"


# --------------------------------------------------------------------------- the submissions


def _text(source) -> str:
    return "".join(source) if isinstance(source, list) else source


def _code_cell(source: str) -> dict:
    return {"cell_type": "code", "id": uuid.uuid4().hex[:8], "metadata": {}, "source": source,
            "outputs": [], "execution_count": None}


def _check_cell(cells: list[dict], question: str) -> int:
    call = re.compile(r"""grader\.check\(\s*["']%s["']\s*\)""" % re.escape(question))
    return next(i for i, c in enumerate(cells)
                if c["cell_type"] == "code" and call.search(_text(c["source"])))


def make_wrong(nb: dict, question: str) -> dict:
    """``nb`` with the answer to ``question`` wrong: every function its solution cell (the last
    solution cell before the question's check) defines returns None, and is put back after the
    check, so that a later question is graded on its own (otter scores a question at its check)."""
    nb = copy.deepcopy(nb)
    cells = nb["cells"]
    at = _check_cell(cells, question)
    solution = next(i for i in range(at - 1, -1, -1) if cells[i]["cell_type"] == "code" and
                    "otter_assign_solution_cell" in cells[i].get("metadata", {}).get("tags", []))
    names = [n.name for n in ast.parse(_text(cells[solution]["source"])).body if isinstance(n, ast.FunctionDef)]
    assert names, f"the solution cell of {question} defines no function"
    cells.insert(at + 1, _code_cell("".join(f"{n} = _right_{n}\n" for n in names)))
    cells.insert(solution + 1, _code_cell("".join(f"_right_{n} = {n}\n{n} = lambda *a, **k: None\n" for n in names)))
    return nb


def _early(nb: dict, source: str) -> dict:
    """``nb`` with a code cell of ``source`` after its first code cell (otter's set-up)."""
    nb = copy.deepcopy(nb)
    first = next(i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code")
    nb["cells"].insert(first + 1, _code_cell(source))
    return nb


def _notebook(chapter: str, edition: str) -> dict:
    folder = "autograder" if edition == "solution" else "student"
    return json.loads((ASSIGNMENTS / chapter / folder / f"{chapter}.ipynb").read_text(encoding="utf-8"))


def write_submissions(chapter: str, folder: Path) -> dict[str, Path]:
    """The three hand-ins of every chapter, written into ``folder``."""
    solution = _notebook(chapter, "solution")
    first = grading.Assignment.find(chapter, ASSIGNMENTS).autograded[0].name
    notebooks = {"solution": solution, "student": _notebook(chapter, "student"),
                 "wrong": make_wrong(solution, first)}
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for kind, nb in notebooks.items():
        paths[kind] = folder / f"{kind}.ipynb"
        paths[kind].write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return paths


@pytest.fixture(scope="session")
def graded(once_per_run) -> dict[str, dict[str, dict]]:
    """chapter -> kind -> gradebook row: every chapter's hand-ins, graded once per test run in
    one pool of one otter run per core (the first test process to ask grades them)."""

    def grade_everything(folder: Path) -> dict:
        work, keys = [], []
        for chapter in CHAPTERS:
            assignment = grading.Assignment.find(chapter, ASSIGNMENTS)
            for kind, path in write_submissions(chapter, folder / chapter).items():
                work.append((path, assignment, TIMEOUT))
                keys.append((chapter, kind))
        (folder / "runs").mkdir()
        start = time.monotonic()
        rows = grading.grade_all(work, echo=None, workdir=folder / "runs")
        print(f"graded {len(work)} hand-ins in {time.monotonic() - start:.0f} s")
        result: dict = {"left running": _running_in(folder / "runs")}
        for (chapter, kind), row in zip(keys, rows):
            result.setdefault(chapter, {})[kind] = row
        return result

    return once_per_run("grading", grade_everything)


def _assignment(chapter: str) -> grading.Assignment:
    return grading.Assignment.find(chapter, ASSIGNMENTS)


# --------------------------------------------------------------------------- grading


@every_chapter
def test_the_solution_gets_full_marks(chapter, graded):
    row, assignment = graded[chapter]["solution"], _assignment(chapter)
    assert (row["status"], row["reason"]) == ("graded", "")
    assert assignment.autograded, f"{chapter}: no autograded question"
    for q in assignment.questions:
        assert row[q.name] == (None if q.manual else q.points), (chapter, q)
    assert row["total"] == row["max"] == assignment.max_points > 0


@every_chapter
def test_the_student_notebook_as_handed_out_gets_nothing(chapter, graded):
    row, assignment = graded[chapter]["student"], _assignment(chapter)
    assert row["status"] == "graded"  # graded, not a crash
    assert {q.name: row[q.name] for q in assignment.autograded} == \
        {q.name: 0 for q in assignment.autograded}
    assert row["total"] == 0 and row["max"] == assignment.max_points
    # every question's reason: its stub raises NotImplementedError
    assert re.fullmatch(r" \| ".join(rf"{q.name}: check\.\w+: not implemented yet\."
                                     for q in assignment.autograded), row["reason"]), row["reason"]


@every_chapter
def test_one_wrong_answer_costs_that_question_only(chapter, graded):
    row, assignment = graded[chapter]["wrong"], _assignment(chapter)
    first, *others = assignment.autograded
    assert row["status"] == "graded"
    assert row[first.name] == 0
    assert [row[q.name] for q in others] == [q.points for q in others]
    assert row["total"] == assignment.max_points - first.points
    # the check's verdict on the first failing case, and no other question
    assert re.fullmatch(rf"{first.name}: check\.\w+: 0 of \d+ cases passed; case '.+' failed: "
                        r"your function returned [^|]*None[^|]*", row["reason"]), row["reason"]


# --------------------------------------------------------------------------- a class

#: The class: file or folder -> (points of the first and second autograded questions, status,
#: reason, as a regular expression: f-string fields {a} and {b} are the two questions' names).
#: Built from the margin assignment's notebooks; the question of each function (margin, radius)
#: is that function's own. The time limits: --check-time-limit 2.5, so a cell may run 15 s.
LIMIT, CELL = 2.5, 6 * 2.5
CLASS = {
    "right.ipynb": (2, 2, "graded", ""),
    # computed in float32 (inputs cast, a np.float32 returned): the type rule accepts it
    "float32.ipynb": (2, 2, "graded", ""),
    # margin returns [m], a list where a number is asked: the type rule refuses it
    "list.ipynb": (0, 2, "graded", r"{a}: check\.margin: 0 of \d+ cases passed; case '[^']+' failed: "
                                   r"your function returned list where a number \(a Python or NumPy "
                                   r"float or int, float32 too\) was expected\."),
    "partial.ipynb": (2, 0, "graded", r"{b}: check\.radius: not implemented yet\."),
    "calls_package.ipynb": (0, 2, "graded", r"{a}: check\.margin: 0 of \d+ cases passed; case '[^']+' "
                                            r"failed: your function uses perceptron_core\.dataset_margin, "
                                            r"which this exercise asks you to write: write it yourself\."),
    "loop_in_function.ipynb": (2, 0, "graded", r"{b}: check\.radius: 0 of \d+ cases passed; case '[^']+' "
                                               rf"failed: your function ran out of time: it did not return "
                                               rf"within {LIMIT:g} s\."),
    "loop_at_top_level.ipynb": (2, 2, "graded", rf"a cell ran over {CELL:g} s and was stopped \(an endless "
                                                r"loop\?\): while True:"),
    "syntax_error.ipynb": (0, 2, "graded", r"{a}: margin is not defined: its cell raised SyntaxError: "
                                           r"expected ':' \(line \d+\)"),
    # the package's radius, which the set-up cells of the written questions import, stands in
    "deleted_cell.ipynb": (2, 0, "graded", r"{b}: check\.radius: 0 of \d+ cases passed; case '[^']+' "
                                           r"failed: your function is perceptron_core\.radius itself, "
                                           r"not yours \(was the cell with your radius deleted, or not "
                                           r"run\?\): define it in its cell and run that cell\."),
    "empty.ipynb": (0, 0, "graded", r"{a}: check\.margin: not implemented yet\. \| "
                                    r"{b}: check\.radius: not implemented yet\."),
    "unreadable.ipynb": (None, None, r"not a notebook: not JSON \(Expecting value, line 1 column 1\)", ""),
    # the notebook of another assignment: otter refuses it
    "another_assignment.ipynb": (None, None, r"otter failed: OtterRuntimeError: Received submission for "
                                             r"assignment 'offset' \(this is assignment 'margin'\)", ""),
    # Canvas's name for a Colab download handed in late
    "lovelaceada_LATE_12345_67890_Copy_of_margin-1.ipynb": (2, 2, "graded", ""),
    # A Gradescope export: submission_metadata.yml names the submission_<ID> folders' students.
    "submission_101/margin.ipynb": (2, 2, "graded", ""),
    # a group's: one row a student; the chapter's notebook picked beside another
    "submission_102/work/Copy of margin.ipynb": (2, 0, "graded", r"{b}: check\.radius: not implemented yet\."),
    "submission_102/scratch.ipynb": None,
    # two notebooks, neither the chapter's: not graded
    "submission_103/first try.ipynb": (None, None, r"the folder submission_103 holds several notebooks "
                                       r"\(first try\.ipynb, second try\.ipynb\), and none of them is "
                                       r"margin\.ipynb: hand in one", ""),
    "submission_103/second try.ipynb": None,
}
GRADESCOPE = """\
submission_101:
  :submitters:
  - :name: Grace Hopper
    :sid: '101'
    :email: grace@example.edu
  :created_at: 2026-12-01 10:00:00.000000000 -08:00
  :score: 4.0
submission_102:
  :submitters:
  - :name: Alan Turing
    :sid: '102'
    :email: alan@example.edu
  - :name: Kurt Gödel
    :sid: '103'
    :email: kurt@example.edu
  :created_at: 2026-12-01 11:00:00.000000000 -08:00
  :score: 2.0
submission_103:
  :submitters:
  - :name: Emmy Noether
    :sid: '104'
  :created_at: 2026-12-01 12:00:00.000000000 -08:00
  :score: 0.0
"""
#: file or folder -> its rows' (student, id)
STUDENTS = {"lovelaceada_LATE_12345_67890_Copy_of_margin-1.ipynb": [("lovelaceada", "12345")],
            "submission_101": [("Grace Hopper", "grace@example.edu")],
            "submission_102": [("Alan Turing", "alan@example.edu"), ("Kurt Gödel", "kurt@example.edu")],
            "submission_103": [("Emmy Noether", "104")]}


def _answer_cell(nb: dict, question: str) -> tuple[int, str]:
    """The index of the question's answer cell (the last solution cell before its check) and
    the function it asks for (the one the cell passes to the package's check)."""
    cells = nb["cells"]
    at = next(i for i in range(_check_cell(cells, question) - 1, -1, -1) if cells[i]["cell_type"] == "code"
              and "otter_assign_solution_cell" in cells[i].get("metadata", {}).get("tags", []))
    (name,) = re.findall(r"^check\.(\w+)\(\1\)", _text(cells[at]["source"]), re.M)
    return at, name


def class_notebooks(chapter: str) -> dict[str, dict | str]:
    """CLASS's hand-ins, from the chapter's solution and student notebooks: each changes the
    solution where the student would have (a cell after an answer redefines its function)."""
    from perceptron_core.check import EXERCISES

    solution = _notebook(chapter, "solution")
    first, second = (q.name for q in _assignment(chapter).autograded[:2])
    (i, f), (j, g) = _answer_cell(solution, first), _answer_cell(solution, second)

    def after(at: int, source: str) -> dict:
        nb = copy.deepcopy(solution)
        nb["cells"].insert(at + 1, _code_cell(source))
        return nb

    syntax_error, deleted, another = copy.deepcopy(solution), copy.deepcopy(solution), _notebook(chapter, "student")
    another["metadata"]["otter"]["assignment_name"] = "offset"
    broken = re.sub(rf"^(def {f}\(.*\)):", r"\1", _text(solution["cells"][i]["source"]), count=1, flags=re.M)
    syntax_error["cells"][i]["source"] = broken
    del deleted["cells"][j]
    partial = after(j, f"def {g}(*args):\n    raise NotImplementedError")
    return {
        "right.ipynb": solution,
        "float32.ipynb": after(i, f"import numpy as np\n_{f} = {f}\n\n\ndef {f}(*args):\n"
                                  f"    args = [np.asarray(a, np.float32) if isinstance(a, np.ndarray) else a for a in args]\n"
                                  f"    return np.float32(_{f}(*args))"),
        "list.ipynb": after(i, f"_{f} = {f}\n\n\ndef {f}(*args):\n    return [_{f}(*args)]"),
        "partial.ipynb": partial,
        "calls_package.ipynb": after(i, f"import perceptron_core\n\n\ndef {f}(*args):\n"
                                        f"    return perceptron_core.{EXERCISES[f].forbidden[0]}(*args)"),
        "loop_in_function.ipynb": after(j, f"def {g}(*args):\n    while True:\n        pass"),
        "loop_at_top_level.ipynb": _early(solution, "while True:\n    pass"),
        "syntax_error.ipynb": syntax_error,
        "deleted_cell.ipynb": deleted,
        "empty.ipynb": _notebook(chapter, "student"),
        "unreadable.ipynb": "My answers are in the attached PDF.\n",
        "another_assignment.ipynb": another,
        "lovelaceada_LATE_12345_67890_Copy_of_margin-1.ipynb": solution,
        "submission_101/margin.ipynb": solution,
        "submission_102/work/Copy of margin.ipynb": partial,
        "submission_102/scratch.ipynb": _notebook(chapter, "student"),
        "submission_103/first try.ipynb": solution,
        "submission_103/second try.ipynb": solution,
    }


@one_chapter
def test_a_class_is_graded_with_a_reason_for_every_lost_point(chapter, tmp_path, monkeypatch, capsys):
    """``make grade``'s command line on a class of every kind of hand-in: every row's scores,
    status and reason; the rows of hand-ins that could not be graded have no scores; otter's
    output is kept for each student; a loop at the top level costs one cell's time limit."""
    folder, gradebook = tmp_path / "hand-ins", tmp_path / "grades" / f"{chapter}.csv"
    for name, nb in class_notebooks(chapter).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(nb if isinstance(nb, str) else json.dumps(nb, indent=1), encoding="utf-8")
    (folder / "submission_metadata.yml").write_text(GRADESCOPE, encoding="utf-8")
    monkeypatch.setenv("PERCEPTRON_CHECK_TIME_LIMIT", "5")  # main() sets it: put back afterwards
    start = time.monotonic()
    assert grading.main(["--chapter", chapter, "--submissions", str(folder), "--assignments", str(ASSIGNMENTS),
                         "--gradebook", str(gradebook), "--jobs", "2", "--check-time-limit", str(LIMIT)]) == 0
    seconds, out = time.monotonic() - start, capsys.readouterr().out
    print(f"graded the class in {seconds:.0f} s")
    with open(gradebook, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assignment = _assignment(chapter)
    a, b = assignment.autograded[:2]
    assert list(rows[0]) == ["student", "id", *(q.name for q in assignment.questions), "total", "max",
                             "status", "reason"]
    expected = {}
    for name, what in CLASS.items():
        if what is not None:
            top = name.split("/")[0]
            for student in STUDENTS.get(top, [(Path(top).stem, "")]):
                expected[student] = what
    assert sorted((r["student"], r["id"]) for r in rows) == sorted(expected)
    for row in rows:
        first, second, status, reason = expected[row["student"], row["id"]]
        graded = status == "graded"
        assert re.fullmatch(status, row["status"]), row
        assert re.fullmatch(reason.format(a=a.name, b=b.name), row["reason"]), row
        # not graded: no points at all, not zeros
        assert [row[a.name], row[b.name], row["total"]] == (
            [str(first), str(second), str(first + second)] if graded else ["", "", ""]), row
        assert float(row["max"]) == assignment.max_points
        assert all(row[q.name] == "" for q in assignment.questions if q.manual)
        kept = gradebook.with_suffix("") / grading._folder_name((row["student"], row["id"]))
        assert graded == (kept / "results.json").is_file() == (kept / "executed.ipynb").is_file(), row
    loop = re.search(r"^loop_at_top_level: .*\(([\d.]+) s\)", out, re.M)
    assert loop and float(loop.group(1)) < CELL + 30, out  # the cell's limit, not the whole run's
    assert f"Gradebook of {len(rows)} students: {gradebook}" in out and "3 not graded" in out


def _running_in(folder: Path, wait: float = 0) -> list[str]:
    """The live processes that work in ``folder``: started there, or with their temporary files
    there (every ``otter run`` of grading.py and the kernel it starts have TMPDIR in its folder);
    with ``wait``, those still alive after waiting up to ``wait`` seconds for them to end."""
    import psutil

    found, procs = [], []
    for proc in psutil.process_iter(["pid", "cmdline", "status"]):
        try:
            if proc.info["status"] == psutil.STATUS_ZOMBIE:
                continue
            places = [proc.cwd(), proc.environ().get("TMPDIR", ""), *(proc.info["cmdline"] or [])]
        except (psutil.Error, OSError):
            continue
        if any(str(folder) in place for place in places):
            procs.append(proc)
            found.append(f"{proc.info['pid']}: {' '.join(proc.info['cmdline'] or [])}")
    if wait and procs:
        _, alive = psutil.wait_procs(procs, timeout=wait)
        dead = {p.pid for p in procs} - {p.pid for p in alive if _alive(p)}
        found = [f for f, p in zip(found, procs) if p.pid not in dead]
    return found


def _alive(proc) -> bool:
    try:
        import psutil

        return proc.status() != psutil.STATUS_ZOMBIE
    except Exception:  # gone
        return False


@on_the_build
def test_no_process_is_left_running(graded):
    """The endless loops were killed with their kernels (which run in sessions of their own)."""
    assert graded["left running"] == []


# --------------------------------------------------------------------------- what students get


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if re.search(r"\w", line)} - {"pass", "else:", "try:", "return"}


@every_chapter
def test_the_student_notebook_holds_no_solution_and_no_hidden_test(chapter):
    """No line of the code exercise's solution or hidden tests (its .md), and no line of a
    written exercise's solution (the master's solution blocks), that is not also public."""
    built, code = ASSIGNMENTS / chapter, exercises.read(chapter)
    master = json.loads((built / "master" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    student = json.loads((built / "student" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    shown = set().union(*(_lines(_text(c["source"])) for c in student["cells"]))
    written, public, inside = set(), _lines(code.stub), False
    for cell in master["cells"]:
        text = _text(cell["source"]).strip()
        if cell["cell_type"] == "raw":
            inside = {"# BEGIN SOLUTION": True, "# END SOLUTION": False,
                      "# BEGIN TESTS": True, "# END TESTS": False}.get(text, inside)
        else:  # the question's text and set-up cells are public
            (written if inside else public).update(_lines(text))
    for what, secret in (("solution", _lines(code.solution) | written), ("hidden test", _lines(code.hidden))):
        leaked = sorted((secret - public) & shown)
        assert not leaked, f"{chapter}: the student notebook holds {what} lines: {leaked[:5]}"
    seeds = re.findall(r"seed=\d+", code.hidden)  # the hidden tests' own; the chapter's code has others
    assert seeds and not [s for s in seeds if re.search(rf"\b{s}\b", json.dumps(student))]


# --------------------------------------------------------------------------- the command line


def test_the_check_time_limit_reaches_the_kernels(tmp_path, monkeypatch, capsys):
    """--check-time-limit (make grade CHECK_TIME_LIMIT=) is put in the environment that the otter
    runs, and their kernels, inherit; perceptron_core.check reads it on import."""
    monkeypatch.setenv("PERCEPTRON_CHECK_TIME_LIMIT", "5")  # restored after the test
    seen = []
    monkeypatch.setattr(grading, "grade_folder", lambda *a, **k: seen.append(
        (os.environ["PERCEPTRON_CHECK_TIME_LIMIT"], k["timeout"])))
    folder = ["--chapter", "margin", "--submissions", str(tmp_path)]
    # A longer limit per call lengthens the default time of a submission: a notebook whose every
    # function loops runs out of time 6 times (2 functions, each in its cell, its public test
    # and its hidden test), and must still be graded.
    assert grading.main(folder + ["--check-time-limit", "30"]) == 0 and seen == [("30.0", 420.0)]
    assert grading.main(folder + ["--check-time-limit", "30", "--timeout", "1000"]) == 0
    assert seen[-1] == ("30.0", 1000.0)
    assert grading.timeout_for(None) == grading.timeout_for(5) == grading.DEFAULT_TIMEOUT == 300
    with pytest.raises(SystemExit):
        grading.main(folder + ["--check-time-limit", "0"])
    assert "--check-time-limit must be a positive number" in capsys.readouterr().err


def test_the_questions_and_their_points_come_from_the_master(tmp_path):
    folder = tmp_path / "margin"
    (folder / "autograder").mkdir(parents=True)
    (folder / "autograder" / "margin-autograder_1.zip").write_bytes(b"")
    (folder / "master").mkdir()
    raw = [{"cell_type": "raw", "metadata": {}, "source": s} for s in (
        "# BEGIN QUESTION\nname: q1\nmanual: true\npoints: 1", "# END QUESTION",
        "# BEGIN QUESTION\nname: q2\npoints: 2", "# END QUESTION")]
    (folder / "master" / "margin.ipynb").write_text(json.dumps({"cells": raw}))
    found = grading.Assignment.find("margin", tmp_path)
    assert found.questions == (grading.Question("q1", 1, True), grading.Question("q2", 2))
    assert found.max_points == 2 and found.columns == ["student", "id", "q1", "q2", "total", "max", "status",
                                                         "reason"]


def test_a_chapter_without_an_autograder_says_what_to_run(tmp_path, capsys):
    (tmp_path / "hand-ins").mkdir()
    assert grading.main(["--chapter", "nowhere", "--submissions", str(tmp_path / "hand-ins"),
                         "--assignments", str(tmp_path)]) == 2
    assert "make assignments CHAPTERS=nowhere" in capsys.readouterr().err


# --------------------------------------------------------------------------- without otter
# Unit tests (no marker: `make test-unit` runs them): the parts of grading.py that need neither
# otter nor a build, with a stand-in for `otter run`.


def test_files_that_are_not_notebooks(tmp_path):
    cases = {"answers.pdf": b"%PDF-1.4", "a.ipynb": b"My answers are in the PDF.",
             "b.ipynb": bytes(range(256)), "c.ipynb": b'{"answer": 42}', "d.ipynb": b"[]"}
    reasons = {}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        reasons[name] = grading.not_a_notebook(tmp_path / name)
    assert reasons == {
        "answers.pdf": "not a notebook: answers.pdf is not an .ipynb file",
        "a.ipynb": "not a notebook: not JSON (Expecting value, line 1 column 1)",
        "b.ipynb": "not a notebook: not UTF-8 text",
        "c.ipynb": "not a notebook: JSON without a notebook's cells and nbformat",
        "d.ipynb": "not a notebook: JSON without a notebook's cells and nbformat",
    }


FAKE_OTTER = """
import json, subprocess, sys, threading
submission, autograder, out = sys.argv[1:4]
behaviour = json.load(open(submission))["cells"][1]["source"]  # after the grader's guard cell
if behaviour == "loops":
    # as jupyter_client starts a kernel: in a session of its own
    subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    threading.Event().wait()  # never set: waits until killed
if behaviour == "fails":
    sys.exit("Traceback (most recent call last):\\n  ...\\n"
             "otter.run.run_autograder.utils.OtterRuntimeError: Received submission for assignment 'x'")
failed = "q1 results:\\n    q1 - 1 result:\\n        Error at line 3 in test q1:\\n              f(1)\\n" \\
         "        AssertionError: check.f: 1 of 2 cases passed; case 'two' failed. Hint: think.\\n"
json.dump({"tests": [{"name": "Public Tests"}, {"name": "q1", "score": 1.0, "max_score": 2.0, "output": failed},
                     {"name": "q3", "score": 1.5, "max_score": 1.5}]}, open(out + "/results.json", "w"))
"""


@pytest.fixture
def fake_otter(tmp_path, monkeypatch):
    """grading.py with a stand-in for otter, and an assignment of three questions (q2 by hand);
    returns a function that grades a notebook whose one cell says how the stand-in behaves."""
    script = tmp_path / "otter.py"
    script.write_text(FAKE_OTTER)
    monkeypatch.setattr(grading, "_otter_command", lambda: [sys.executable, str(script)])
    monkeypatch.setattr(grading, "not_a_notebook", lambda path: None)
    assignment = grading.Assignment("demo", tmp_path / "demo-autograder_1.zip", (
        grading.Question("q1", 2.0), grading.Question("q2", 1, manual=True), grading.Question("q3", 1.5)))

    def grade(behaviour: str, timeout: float = 30.0) -> tuple[dict, Path]:
        path = tmp_path / f"{behaviour}.ipynb"
        path.write_text(json.dumps({"cells": [_code_cell(behaviour)]}))
        work = tmp_path / "work"
        work.mkdir(exist_ok=True)
        (row,) = grading.grade_all([(path, assignment, timeout)], echo=None, workdir=work,
                                   keep=tmp_path / "kept")
        return row, work

    return grade


def test_a_row_holds_the_scores_and_reasons_otter_wrote(fake_otter, tmp_path):
    row, _ = fake_otter("passes")
    assert {k: v for k, v in row.items() if k != "seconds"} == {
        "student": "passes", "id": "", "q1": 1, "q2": None, "q3": 1.5, "total": 2.5, "max": 3.5,
        "status": "graded", "reason": "q1: check.f: 1 of 2 cases passed; case 'two' failed."}
    assert (tmp_path / "kept" / "passes" / "results.json").is_file()  # for regrades


def test_when_otter_fails_the_status_is_its_last_line(fake_otter):
    row, _ = fake_otter("fails")
    assert row["status"] == ("otter failed: OtterRuntimeError: Received submission for assignment 'x'")
    assert (row["q1"], row["q3"], row["total"]) == (None, None, None)  # no grade, not 0


def test_a_run_out_of_time_is_killed_with_the_processes_it_started(fake_otter):
    start = time.monotonic()
    row, work = fake_otter("loops", timeout=2)
    assert time.monotonic() - start < 10
    assert row["status"] == "did not finish within 2 s" and row["total"] is None
    assert not list(work.iterdir())  # its folder removed,
    # and the stand-in kernel with it, though in a session of its own (a zombie waiting for its
    # new parent to reap it does not count); a SIGKILLed process may take a moment to die
    assert _running_in(work, wait=5) == []


def test_the_hand_ins_of_a_folder_as_systems_export_them(tmp_path):
    """Files and folders (the chapter's notebook picked among several), Gradescope's export
    (its metadata names the folders' students, and is not a hand-in), Canvas's names (a
    student's files together): who each hand-in is for, and what is graded, or why nothing is."""
    files = ["ada.ipynb", "bob.pdf", ".DS_Store", "Copy of margin.ipynb",
             "submission_7/margin (1).ipynb", "submission_7/.ipynb_checkpoints/margin-checkpoint.ipynb",
             "submission_7/scratch.ipynb", "submission_8/a.ipynb", "submission_8/b.ipynb", "submission_9/notes.txt",
             "carol/deep/anything.ipynb", "dan/margin.ipynb", "dan/Copy of margin.ipynb",
             "turingalan_LATE_12_345_Copy_of_margin-1.ipynb", "turingalan_12_346_notes.pdf",
             "hopper_7_8_answers.pdf"]
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    (tmp_path / "submission_metadata.yml").write_text(
        "submission_7:\n  :submitters:\n  - :name: Ada Byron\n    :email: ada@example.edu\n"
        "  - :name: Mary Somerville\n    :sid: '2'\nsubmission_8:\n  :submitters:\n  - :name: Bea\n")
    found = {h.students: grading.notebook_of(h, "margin") for h in grading.hand_ins(tmp_path)}
    shown = {students: (p.relative_to(tmp_path).as_posix() if p else why) for students, (p, why) in found.items()}
    assert shown == {
        (("ada", ""),): "ada.ipynb",
        (("bob.pdf", ""),): "bob.pdf",  # graded, and found not a notebook
        (("Copy of margin", ""),): "Copy of margin.ipynb",
        (("Ada Byron", "ada@example.edu"), ("Mary Somerville", "2")): "submission_7/margin (1).ipynb",
        (("Bea", ""),): "the folder submission_8 holds several notebooks (a.ipynb, b.ipynb), and none "
                        "of them is margin.ipynb: hand in one",
        (("submission_9", ""),): "submission_9/notes.txt",
        (("carol", ""),): "carol/deep/anything.ipynb",
        (("dan", ""),): "the folder dan holds several notebooks (Copy of margin.ipynb, margin.ipynb), "
                        "and more than one of them is margin.ipynb: hand in one",
        (("turingalan", "12"),): "turingalan_LATE_12_345_Copy_of_margin-1.ipynb",
        (("hopper", "7"),): "hopper_7_8_answers.pdf",
    }
    (tmp_path / "submission_metadata.yml").write_text("- not: Gradescope's\n")
    with pytest.raises(ValueError, match="is not Gradescope's submission metadata"):
        grading.hand_ins(tmp_path)
