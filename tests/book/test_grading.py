"""Grading with otter (``book/_tools/grading.py``, ``make grade``), on the assignments
``make assignments`` builds in ``_build/assignments/<chapter>/``.

For every chapter built there, three submissions are graded in one pool (one ``otter run`` per
core, the time limits of grading.py): the solution notebook (full marks), the student notebook as
handed out (nothing), the solution with its first autograded answer made wrong (that question's
points lost, the others kept). For the first chapter, three more: the solution with
``raise RuntimeError("boom")`` early (graded: otter runs the cells after the error), the solution
with an endless loop early (stopped at the time limit), and a file that is not a notebook. Then the student notebook must hold none of the
solution's lines and none of the hidden tests' text, and the command line writes its CSV.

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

RUN = os.environ.get("PERCEPTRON_GRADING", "").lower() in {"1", "true", "yes", "on"}
ASSIGNMENTS = Path(os.environ.get("PERCEPTRON_ASSIGNMENTS", grading.ASSIGNMENTS)).resolve()
CHAPTERS = sorted(p.parent.name for p in ASSIGNMENTS.glob("*/autograder") if p.is_dir()) \
    if ASSIGNMENTS.is_dir() else []
TIMEOUT = 180.0  # for a submission that ends; far more than one takes (4-10 s)
LOOP_TIMEOUT = 6.0  # for the one that never ends: the kernel is up in 1-2 s


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


#: How grading copes with code that raises, a notebook that never ends and a file that is not a
#: notebook does not depend on the chapter: those hand-ins are graded for one chapter only (the
#: right, the empty and the wrong one for every chapter, whose own tests they try).
MECHANICS = ("raising", "looping", "not_a_notebook")


def one_chapter(test):
    """``on_the_build``, for the first chapter built."""
    return every_chapter(test, CHAPTERS[:1])


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


def write_submissions(chapter: str, folder: Path) -> dict[str, Path]:
    """The six submissions of a chapter, written into ``folder``."""
    built = ASSIGNMENTS / chapter
    solution = json.loads((built / "autograder" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    first = grading.Assignment.find(chapter, ASSIGNMENTS).autograded[0].name
    notebooks = {
        "solution": solution,
        "student": json.loads((built / "student" / f"{chapter}.ipynb").read_text(encoding="utf-8")),
        "wrong": make_wrong(solution, first),
        "raising": _early(solution, 'raise RuntimeError("boom")'),
        "looping": _early(solution, "while True:\n    pass"),
    }
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for kind, nb in notebooks.items():
        paths[kind] = folder / f"{kind}.ipynb"
        paths[kind].write_text(json.dumps(nb, indent=1), encoding="utf-8")
    paths["not_a_notebook"] = folder / "not_a_notebook.ipynb"
    paths["not_a_notebook"].write_text("My answers are in the attached PDF.\n", encoding="utf-8")
    return paths


@pytest.fixture(scope="session")
def graded(once_per_run) -> dict[str, dict[str, dict]]:
    """chapter -> kind -> gradebook row: every chapter's submissions (see MECHANICS), graded once per test
    run in one pool of one ``otter run`` per core (the first test process to ask grades them)."""

    def grade_everything(folder: Path) -> dict:
        work, keys = [], []
        for chapter in CHAPTERS:
            assignment = grading.Assignment.find(chapter, ASSIGNMENTS)
            for kind, path in write_submissions(chapter, folder / chapter).items():
                if kind in MECHANICS and chapter not in CHAPTERS[:1]:
                    continue
                work.append((path, assignment, LOOP_TIMEOUT if kind == "looping" else TIMEOUT))
                keys.append((chapter, kind))
        (folder / "runs").mkdir()
        start = time.monotonic()
        rows = grading.grade_all(work, echo=None, workdir=folder / "runs")
        print(f"graded {len(work)} submissions in {time.monotonic() - start:.0f} s")
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
    assert row["reason"] == ""
    assert assignment.autograded, f"{chapter}: no autograded question"
    for q in assignment.questions:
        assert row[q.name] == (None if q.manual else q.points), (chapter, q)
    assert row["total"] == row["max"] == assignment.max_points > 0


@every_chapter
def test_the_student_notebook_as_handed_out_gets_nothing(chapter, graded):
    row, assignment = graded[chapter]["student"], _assignment(chapter)
    assert row["reason"] == ""  # graded, not a crash
    assert {q.name: row[q.name] for q in assignment.autograded} == \
        {q.name: 0 for q in assignment.autograded}
    assert row["total"] == 0 and row["max"] == assignment.max_points


@every_chapter
def test_one_wrong_answer_costs_that_question_only(chapter, graded):
    row, assignment = graded[chapter]["wrong"], _assignment(chapter)
    first, *others = assignment.autograded
    assert row["reason"] == ""
    assert row[first.name] == 0
    assert [row[q.name] for q in others] == [q.points for q in others]
    assert row["total"] == assignment.max_points - first.points


@one_chapter
def test_code_that_raises_is_graded(chapter, graded):
    row, solution = graded[chapter]["raising"], graded[chapter]["solution"]
    # The error is in a cell of its own: otter runs the cells after it, so every answer is there.
    assert row["reason"] == ""
    assert row["total"] == solution["total"], row
    assert row["seconds"] < TIMEOUT


@one_chapter
def test_a_notebook_that_never_ends_is_stopped(chapter, graded):
    row = graded[chapter]["looping"]
    assert row["reason"] == f"did not finish within {LOOP_TIMEOUT:g} s"
    assert row["total"] == 0 and row["max"] == _assignment(chapter).max_points
    assert row["seconds"] < LOOP_TIMEOUT + 10  # killed at once, the kernel with it


@one_chapter
def test_a_file_that_is_not_a_notebook_gets_a_row(chapter, graded):
    row = graded[chapter]["not_a_notebook"]
    assert row["student"] == "not_a_notebook"
    assert row["reason"].startswith("not a notebook: not JSON")
    assert row["total"] == 0


def _running_in(folder: Path) -> list[str]:
    """The live processes that work in ``folder``: started there, or with their temporary files
    there (every ``otter run`` of grading.py and the kernel it starts have TMPDIR in its folder)."""
    import psutil

    found = []
    for proc in psutil.process_iter(["pid", "cmdline", "status"]):
        try:
            if proc.info["status"] == psutil.STATUS_ZOMBIE:
                continue
            places = [proc.cwd(), proc.environ().get("TMPDIR", ""), *(proc.info["cmdline"] or [])]
        except (psutil.Error, OSError):
            continue
        if any(str(folder) in place for place in places):
            found.append(f"{proc.info['pid']}: {' '.join(proc.info['cmdline'] or [])}")
    return found


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
            inside = {"# BEGIN SOLUTION": True, "# END SOLUTION": False}.get(text, inside)
        elif cell["cell_type"] == "markdown":
            (written if inside else public).update(_lines(text))
    for what, secret in (("solution", _lines(code.solution) | written), ("hidden test", _lines(code.hidden))):
        leaked = sorted((secret - public) & shown)
        assert not leaked, f"{chapter}: the student notebook holds {what} lines: {leaked[:5]}"
    assert f"seed=" in code.hidden and "seed=" not in json.dumps(student)


# --------------------------------------------------------------------------- the command line


@on_the_build
def test_the_command_line_writes_the_gradebook(tmp_path, capsys):
    if not CHAPTERS:
        pytest.fail(f"no assignments in {ASSIGNMENTS}: run `make assignments` first")
    chapter = CHAPTERS[0]
    folder = tmp_path / "hand-ins"
    folder.mkdir()
    solution = ASSIGNMENTS / chapter / "autograder" / f"{chapter}.ipynb"
    (folder / "ada.ipynb").write_bytes(solution.read_bytes())
    (folder / "bob.pdf").write_bytes(b"%PDF-1.4\n")
    (folder / ".DS_Store").write_bytes(b"")
    gradebook = tmp_path / "grades.csv"
    assert grading.main(["--chapter", chapter, "--submissions", str(folder), "--assignments",
                         str(ASSIGNMENTS), "--gradebook", str(gradebook), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert str(gradebook) in out and "ada: " in out and "bob.pdf: 0 / " in out
    assignment = _assignment(chapter)
    with open(gradebook, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["student", *(q.name for q in assignment.questions), "total", "max", "reason"]
    ada, bob = rows
    assert ada["student"] == "ada" and ada["reason"] == "" and float(ada["total"]) == assignment.max_points
    assert all(ada[q.name] == "" for q in assignment.questions if q.manual)
    assert bob["student"] == "bob.pdf" and bob["reason"].startswith("not a notebook")


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
    assert found.max_points == 2 and found.columns == ["student", "q1", "q2", "total", "max", "reason"]


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
args = sys.argv[1:]
out, submission = args[args.index("-o") + 1], args[-1]
behaviour = json.load(open(submission))["behaviour"]
if behaviour == "loops":
    # as jupyter_client starts a kernel: in a session of its own
    subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    threading.Event().wait()  # never set: waits until killed
if behaviour == "fails":
    sys.exit("Traceback (most recent call last):\\n  ...\\n"
             "otter.run.run_autograder.utils.OtterRuntimeError: Received submission for assignment 'x'")
json.dump({"tests": [{"name": "Public Tests"}, {"name": "q1", "score": 1.0, "max_score": 2.0},
                     {"name": "q3", "score": 1.5, "max_score": 1.5}]}, open(out + "/results.json", "w"))
"""


@pytest.fixture
def fake_otter(tmp_path, monkeypatch):
    """grading.py with a stand-in for `otter run`, and an assignment of three questions (q2 by
    hand); returns a function that grades a "submission" that behaves as told."""
    script = tmp_path / "otter.py"
    script.write_text(FAKE_OTTER)
    monkeypatch.setattr(grading, "_otter_command", lambda: [sys.executable, str(script)])
    monkeypatch.setattr(grading, "not_a_notebook", lambda path: None)
    assignment = grading.Assignment("demo", tmp_path / "demo-autograder_1.zip", (
        grading.Question("q1", 2.0), grading.Question("q2", 1, manual=True), grading.Question("q3", 1.5)))

    def grade(behaviour: str, timeout: float = 30.0) -> tuple[dict, Path]:
        path = tmp_path / f"{behaviour}.ipynb"
        path.write_text(json.dumps({"behaviour": behaviour}))
        work = tmp_path / "work"
        work.mkdir(exist_ok=True)
        return grading.grade(path, assignment, timeout, workdir=work), work

    grade.assignment = assignment
    return grade


def test_a_row_holds_the_scores_otter_wrote(fake_otter):
    row, _ = fake_otter("passes")
    assert {k: v for k, v in row.items() if k != "seconds"} == {
        "student": "passes", "q1": 1, "q2": None, "q3": 1.5, "total": 2.5, "max": 3.5, "reason": ""}


def test_when_otter_fails_the_reason_is_its_last_line(fake_otter):
    row, _ = fake_otter("fails")
    assert row["reason"] == ("otter failed: OtterRuntimeError: Received submission for assignment 'x'")
    assert (row["q1"], row["q3"], row["total"]) == (0, 0, 0)


def test_a_run_out_of_time_is_killed_with_the_processes_it_started(fake_otter):
    import psutil

    start = time.monotonic()
    row, work = fake_otter("loops", timeout=2)
    assert time.monotonic() - start < 10
    assert row["reason"] == "did not finish within 2 s" and row["total"] == 0
    assert not list(work.iterdir())  # its folder removed,
    # and the stand-in kernel with it, though in a session of its own (a zombie waiting for its
    # new parent to reap it does not count)
    assert _running_in(work) == []


def test_a_folder_a_student_as_systems_export_them(tmp_path, fake_otter):
    """Gradescope and other systems export one folder a student: the folder's name is the
    student, the one notebook in it (at any depth) is graded; none or several is a reason."""
    hand_ins, passes = tmp_path / "hand-ins", json.dumps({"behaviour": "passes"})
    for path in ("submission_12/work/demo.ipynb", "submission_12/.ipynb_checkpoints/demo-checkpoint.ipynb",
                 "submission_40/demo.ipynb", "submission_40/demo-copy.ipynb", "bob.ipynb", ".DS_Store"):
        (hand_ins / path).parent.mkdir(parents=True, exist_ok=True)
        (hand_ins / path).write_text(passes)
    (hand_ins / "submission_3").mkdir()
    files = grading.submissions_in(hand_ins)
    assert [p.name for p in files] == ["bob.ipynb", "submission_3", "submission_12", "submission_40"]
    (tmp_path / "work").mkdir()
    rows = {r["student"]: r for r in (grading.grade(p, fake_otter.assignment, 30, workdir=tmp_path / "work")
                                      for p in files)}
    assert rows["bob"]["total"] == rows["submission_12"]["total"] == 2.5 and rows["submission_12"]["reason"] == ""
    assert rows["submission_3"]["reason"] == "not a notebook: the folder submission_3 holds no .ipynb file"
    assert rows["submission_40"]["reason"] == ("several notebooks in the folder submission_40: "
                                               "demo-copy.ipynb, demo.ipynb; hand in one")
    assert rows["submission_3"]["total"] == rows["submission_40"]["total"] == 0
