"""Grade a folder of hand-ins with otter-grader, and write a gradebook that says why.

    make grade SUBMISSIONS=<folder> CHAPTER=<chapter> [JOBS=n] [TIMEOUT=s] [GRADEBOOK=<file.csv>]
               [CHECK_TIME_LIMIT=s]
    .venv/bin/python book/_tools/grading.py --chapter margin --submissions hand-ins/

**The hand-ins.** Each entry of the folder (not those whose name starts with a dot) is one
student's hand-in: a notebook (``ada.ipynb``: the row ``ada``), or a folder (its name the row),
as systems export them. Two exports are read as they come:

* Gradescope's "Export Submissions": ``submission_metadata.yml`` maps each ``submission_<ID>``
  folder to its submitters (``:submitters:``, each with ``:name:``, ``:email:``, ``:sid:``); a
  folder it names gets one row per submitter, named after them, with the e-mail (or else the SID)
  as ``id``. The metadata file is no hand-in.
* Canvas's "Download Submissions": files named ``<lastfirst>[_LATE]_<user id>_<attachment
  id>_<the student's file name>`` (``lovelaceada_LATE_12345_67890_Copy_of_margin-1.ipynb``); the
  row is ``lovelaceada`` with ``id`` 12345, and a student's several files are one hand-in.

Where a hand-in holds several files (a folder, at any depth, checkpoints left out; a Canvas
student's files) its one ``.ipynb`` is graded; among several, the chapter's: the one named
``margin.ipynb`` once the names systems add are taken off (Colab's "Copy of ", Canvas's ``-1``,
a download's `` (1)``). When that leaves none or several, the hand-in is not graded, and its row
says why. A notebook is graded under the assignment's name whatever it was called: its first cell,
``otter.Notebook("<chapter>.ipynb")``, reads the notebook by that name, and with another name
every ``grader.check`` cell would fail and otter would grade each question on the notebook's final
state instead of at its check.

**Grading** is otter's non-containerized runner, the function ``otter run`` calls
(``otter.run.main``) with the autograder that ``make assignments CHAPTERS=<chapter>`` built in
``_build/assignments/<chapter>/autograder/``, in a process of its own (``--jobs`` at once,
default one per core). Its output is kept for regrades beside the gradebook, in a folder of the
gradebook's name, one a student (``_build/grades/margin/ada/``; the id in parentheses after the
name where there is one): otter's ``results.json`` (every test's score and output), the executed
notebook ``executed.ipynb``, otter's log ``otter.log`` and, where a cell raised, the grader's note
of those cells, ``cells.jsonl``.

**The gradebook** (default ``_build/grades/<chapter>.csv``) has one row a student, the columns
``student``, ``id`` (from the export; empty for a plain file), one per question in the
assignment's order (the points scored; empty for a question graded by hand), ``total`` and
``max`` (autograded points scored and possible), ``status`` and ``reason``:

* ``status`` is ``graded``, or why the hand-in could not be graded: not a notebook (not
  ``.ipynb``, not JSON, not a valid nbformat notebook), no or several notebooks to choose from, not
  finished within ``--timeout`` seconds, otter failing (a notebook of another assignment, say: the
  last line of its error). Such a row's question and ``total`` cells are EMPTY, not 0: uploaded to
  a gradebook, an empty cell records no grade, where a 0 would be taken for one.
* ``reason`` says, for every autograded question that lost points, why: ``q6: <the first line of
  its first failing test>`` (the package's check says "not implemented yet", "returned list where a
  number was expected", "uses perceptron_core.dataset_margin", "ran out of time" ...; a function
  no cell defines is "margin is not defined", with the error of the cell that should have defined
  it, or "no cell defines it (was its cell deleted?)"), and every cell the grader stopped.
  The questions are separated by `` | ``, since the check's own messages hold semicolons. One
  column, not one a question: a spreadsheet shows a student's reasons in one cell, and an upload
  to an LMS has one column to leave out (Canvas makes an assignment of every column it does not
  know).

**Time limits.** Three, from the inside out. (1) The tests call the student's functions through
the package's checks, which stop a call after ``perceptron_core.check.TIME_LIMIT`` (5 s, or
``--check-time-limit``): a function that loops fails its cases and costs its question only.
(2) otter executes the notebook with nbconvert's ExecutePreprocessor configured without a
cell timeout, and ``otter run`` has no option for one; so every notebook is graded with one code
cell put first (:func:`guard_cell`) that registers IPython ``pre_run_cell``/``post_run_cell``
hooks: each cell of the student's runs under a ``SIGALRM`` timer of :func:`cell_time_limit`
seconds (30, or 6 calls' limits), which raises in it, so that an endless loop at the top level
of a cell is stopped, the cells after it run, and the functions are graded; and every cell that
raised is noted (for the reasons above). The check cells (``grader.check``, otter's own) run
without it, under the checks' own limit; a check's timer nests with the cell's (it puts the
previous one back). (3) The whole run has ``--timeout`` seconds (default 300, more with a longer
``--check-time-limit``: :func:`timeout_for`), after which its process group and the kernel it
started (in a session of its own, as jupyter_client starts kernels) are killed.

The otter processes get a directory of their own in front of ``PYTHONPATH`` holding one module,
``rfc3987_syntax``, that raises ImportError: jsonschema imports that optional package when present
(for IRI formats, which no notebook schema uses) and it builds its grammar at import, about 3 s in
every process that imports nbformat: otter itself and the kernel, which imports otter. With the
stub in place a hand-in grades in about half the time, with the same results.

Importable: :func:`grade_folder` grades a folder and returns the gradebook's rows (dicts, with the
seconds each took under ``"seconds"``, which the CSV leaves out); :func:`grade_all` grades
hand-ins of one or several assignments, each with its own time limit, in one pool.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENTS = REPO / "_build" / "assignments"
GRADES = REPO / "_build" / "grades"
DEFAULT_TIMEOUT = 300.0
#: Seconds a top-level cell may run: 6 calls' limits (the package's 5 s), where a student's cell
#: runs two checks at most, each stopped at its first call that runs out of time.
CELL_CALLS = 6

__all__ = ["Assignment", "HandIn", "MissingAssignment", "Question", "cell_time_limit", "grade",
           "grade_all", "grade_folder", "guard_cell", "hand_ins", "not_a_notebook", "timeout_for",
           "write_gradebook", "main"]


class MissingAssignment(FileNotFoundError):
    """No autograder built for the chapter."""


# --------------------------------------------------------------------------- the assignment


@dataclass(frozen=True)
class Question:
    name: str
    points: float | None  # autograded: points possible; graded by hand: as the master says
    manual: bool = False


def _natural(name: str) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _master_questions(master: Path) -> list[Question]:
    """The questions of an otter master notebook, in order (``# BEGIN QUESTION`` raw cells)."""
    import yaml

    questions = []
    for cell in json.loads(master.read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "raw" and source.strip().startswith("# BEGIN QUESTION"):
            config = yaml.safe_load(source.strip()[len("# BEGIN QUESTION"):]) or {}
            points = config.get("points")
            points = sum(points) if isinstance(points, list) else points
            questions.append(Question(str(config["name"]), points, bool(config.get("manual"))))
    return questions


@dataclass(frozen=True)
class Assignment:
    """A chapter's assignment as ``make assignments`` built it."""

    chapter: str
    autograder: Path  # the autograder zip
    questions: tuple[Question, ...]

    @classmethod
    def find(cls, chapter: str, assignments: Path | str = ASSIGNMENTS) -> "Assignment":
        """The chapter's newest autograder zip in ``<assignments>/<chapter>/autograder/``, and its
        questions, in order, with their points: those of the master notebook that otter made it
        from (``<chapter>/master/<chapter>.ipynb``, which ``make assignments`` keeps)."""
        folder = Path(assignments) / chapter
        zips = sorted((folder / "autograder").glob(f"{chapter}-autograder_*.zip"))
        master = folder / "master" / f"{chapter}.ipynb"
        if not zips or not master.is_file():
            raise MissingAssignment(
                f"no autograder for chapter {chapter!r} in {folder / 'autograder'}: "
                f"run `make assignments CHAPTERS={chapter}` first")
        autograder = zips[-1]  # otter stamps the zip's name with the time it was made
        questions = _master_questions(master)
        return cls(chapter, autograder, tuple(questions))

    @property
    def notebook(self) -> str:
        """The notebook's file name, as handed out (``student/<chapter>.ipynb``)."""
        return f"{self.chapter}.ipynb"

    @property
    def autograded(self) -> list[Question]:
        return [q for q in self.questions if not q.manual]

    @property
    def max_points(self) -> float:
        return sum(q.points for q in self.autograded)

    @property
    def columns(self) -> list[str]:
        return ["student", "id", *(q.name for q in self.questions), "total", "max", "status", "reason"]


# --------------------------------------------------------------------------- the hand-ins

#: Canvas's download names: <lastfirst>[_LATE]_<user id>_<attachment id>_<the student's file name>
CANVAS = re.compile(r"^(?P<name>[^_]+)(?:_LATE)?_(?P<id>\d+)_\d+_(?P<file>.+)$")
GRADESCOPE = "submission_metadata.yml"


@dataclass(frozen=True)
class HandIn:
    """One hand-in: ``files`` (a notebook, a folder's files, a Canvas student's files), for the
    ``students`` (name, id) it is graded for (several for a group's hand-in); ``where`` names it
    in messages."""

    students: tuple[tuple[str, str], ...]
    files: tuple[Path, ...]
    where: str

    @classmethod
    def of(cls, path: Path | str, students: tuple[tuple[str, str], ...] = ()) -> "HandIn":
        """A file, or a folder (its files at any depth, not those under a name with a dot),
        named after itself unless ``students`` are given."""
        path = Path(path)
        if path.is_dir():
            files = sorted((p for p in path.rglob("*") if p.is_file() and not any(
                part.startswith(".") for part in p.relative_to(path).parts)),
                key=lambda p: _natural(str(p.relative_to(path))))
            return cls(students or ((path.name, ""),), tuple(files), f"the folder {path.name}")
        name = path.stem if path.suffix == ".ipynb" else path.name
        return cls(students or ((name, ""),), (path,), path.name)


def _gradescope(folder: Path) -> dict[str, tuple[tuple[str, str], ...]]:
    """Gradescope's ``submission_metadata.yml`` in ``folder``: submission folder -> (name, id) of
    each submitter (id: the e-mail, or else the SID). Empty when there is none."""
    path = folder / GRADESCOPE
    if not path.is_file():
        return {}
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        return {str(sub): tuple((str(s.get(":name") or sub), str(s.get(":email") or s.get(":sid") or ""))
                                for s in entry[":submitters"]) for sub, entry in data.items()}
    except Exception as exc:  # not YAML, or not Gradescope's layout
        raise ValueError(f"{path} is not Gradescope's submission metadata ({type(exc).__name__}: "
                         f"{exc}): it maps each submission_<ID> folder to its :submitters:, each "
                         "with a :name:; remove or fix it") from None


def submissions_in(folder: Path | str) -> list[Path]:
    """The files and subfolders of ``folder`` (not those whose name starts with a dot), by name."""
    folder = Path(folder)
    if not folder.is_dir():
        raise NotADirectoryError(f"no folder of hand-ins at {folder}")
    return sorted((p for p in folder.iterdir() if (p.is_file() or p.is_dir())
                   and not p.name.startswith(".")), key=lambda p: _natural(p.name))


def hand_ins(folder: Path | str) -> list[HandIn]:
    """The hand-ins in ``folder``, as the module's docstring says: a file or folder each, the
    folders of a Gradescope export named by its metadata, a Canvas student's files together."""
    folder = Path(folder)
    entries, metadata = submissions_in(folder), _gradescope(folder)
    found: list[HandIn] = []
    canvas: dict[str, tuple[str, list[Path]]] = {}
    for path in entries:
        named = CANVAS.match(path.name) if path.is_file() else None
        if path.name == GRADESCOPE:
            continue
        if named:
            canvas.setdefault(named["id"], (named["name"], []))[1].append(path)
        else:
            found.append(HandIn.of(path, metadata.get(path.name, ())))
    for user, (name, files) in canvas.items():
        found.append(HandIn(((name, user),), tuple(files), files[0].name if len(files) == 1
                            else f"the files of {name} ({user})"))
    return sorted(found, key=lambda h: _natural(h.students[0][0].lower()))


def _plain_name(path: Path) -> str:
    """A notebook's name without what systems add: Canvas's prefix and ``-1``, Colab's "Copy of ",
    a download's `` (1)``."""
    named = CANVAS.match(path.name)
    stem = Path(named["file"]).stem if named else path.stem
    stem = re.sub(r"^copy[ _]of[ _]", "", stem, flags=re.I)
    return re.sub(r"(-\d+| \(\d+\))$", "", stem).lower()


def notebook_of(hand_in: HandIn, chapter: str) -> tuple[Path | None, str]:
    """The notebook to grade, or None and why there is none: a single file is graded (whatever
    it is: :func:`not_a_notebook` judges it); among several, the one ``.ipynb``, or else the
    chapter's."""
    if len(hand_in.files) == 1:
        return hand_in.files[0], ""
    notebooks = [p for p in hand_in.files if p.suffix == ".ipynb"]
    chapters = [p for p in notebooks if _plain_name(p) == chapter.lower()]
    if len(notebooks) == 1 or len(chapters) == 1:
        return (chapters or notebooks)[0], ""
    if not notebooks:
        return None, f"not a notebook: {hand_in.where} holds no .ipynb file"
    names = ", ".join(p.name for p in notebooks)
    return None, (f"{hand_in.where} holds several notebooks ({names}), and "
                  f"{'more than one' if chapters else 'none'} of them is {chapter}.ipynb: hand in one")


def not_a_notebook(path: Path) -> str | None:
    """Why ``path`` is not a notebook (``"not a notebook: ..."``), or None when it is one."""
    path = Path(path)
    if path.suffix != ".ipynb":
        return f"not a notebook: {path.name} is not an .ipynb file"
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return "not a notebook: not UTF-8 text"
    except OSError as exc:
        return f"not a notebook: cannot read it ({exc.strerror or exc})"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"not a notebook: not JSON ({exc.msg}, line {exc.lineno} column {exc.colno})"
    if not isinstance(data, dict) or "cells" not in data or "nbformat" not in data:
        return "not a notebook: JSON without a notebook's cells and nbformat"
    import nbformat

    try:
        with warnings.catch_warnings():  # e.g. cells without ids, from an older Jupyter: fine
            warnings.simplefilter("ignore")
            nb = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
            nbformat.validate(nb)
    except Exception as exc:  # nbformat's ValidationError, or a reader's error
        message = " ".join(str(getattr(exc, "message", None) or exc or type(exc).__name__).split())
        if len(message) > 120:  # jsonschema's messages start with the whole offending value
            tail = re.search(r"[}\]'\"]\s+((?:is|does|has|should|was) .*)$", message)
            message = f"the value {tail.group(1)}" if tail else message[:100] + " ..."
        where = "/".join(str(p) for p in getattr(exc, "path", None) or [])
        return f"not a notebook: not a valid nbformat notebook ({where + ': ' if where else ''}{message})"
    return None


# --------------------------------------------------------------------------- one notebook

_GUARD = '''\
# Put here by the grader (book/_tools/grading.py); not part of the hand-in. Each cell after this
# one runs under a time limit of {limit:g} s (the grader's checks under their own), and each cell
# that raises is noted in {record}.
def _grading_guard(limit={limit!r}, record={record!r}):
    import json, re, signal

    class CellTimeLimit(BaseException):  # so that `except Exception:` in the cell lets it by
        """A cell ran over the grader's time limit."""

    def alarm(signum, frame):
        raise CellTimeLimit(f"this cell ran over {{limit:g}} s and was stopped by the grader")

    def before(info):
        if not re.search(r"\\.check\\(|check_if_not_already_checked", info.raw_cell or ""):
            signal.signal(signal.SIGALRM, alarm)
            signal.setitimer(signal.ITIMER_REAL, limit)

    def after(result):
        signal.setitimer(signal.ITIMER_REAL, 0)
        error = result and (result.error_before_exec or result.error_in_exec)
        if error is not None:
            where = f" (line {{error.lineno}})" if isinstance(error, SyntaxError) else ""
            text = f"{{type(error).__name__}}: {{getattr(error, 'msg', None) or error}}{{where}}"
            with open(record, "a", encoding="utf-8") as f:
                f.write(json.dumps({{"cell": result.info.raw_cell, "error": text.splitlines()[0],
                                    "stopped": isinstance(error, CellTimeLimit)}}) + "\\n")

    get_ipython().events.register("pre_run_cell", before)
    get_ipython().events.register("post_run_cell", after)


_grading_guard()
del _grading_guard
'''


def guard_cell(limit: float, record: Path | str) -> str:
    """The code cell put first in every notebook graded: a ``SIGALRM`` timer of ``limit`` seconds
    on each later cell but the checks, and a line of JSON in ``record`` for each cell that raised
    (its source, its error's first line, whether the time limit stopped it)."""
    return _GUARD.format(limit=float(limit), record=str(record))


# otter's own runner, the function `otter run` calls, in a process of its own; the executed
# notebook, which `otter run` does not write, is kept for regrades.
_RUN = """\
import sys
import nbformat
from otter.run import main

results = main(sys.argv[1], autograder=sys.argv[2], output_dir=sys.argv[3], no_logo=True)
if results.notebook is not None:
    nbformat.write(results.notebook, sys.argv[3] + "/executed.ipynb")
"""
_STUB = "raise ImportError('left out while grading: see book/_tools/grading.py')\n"
_RUNNING: set[subprocess.Popen] = set()  # otter runs under way, killed if grading is stopped
_LOCK = threading.Lock()


def _otter_command() -> list[str]:
    """The command, before its arguments: the notebook, the autograder zip, the output folder."""
    return [sys.executable, "-c", _RUN]


def _kill_tree(proc: subprocess.Popen) -> None:
    """Kill ``proc``'s process group and every process it started, with their groups: the kernel
    runs in a session of its own (jupyter_client starts it so)."""
    try:
        import psutil

        descendants = psutil.Process(proc.pid).children(recursive=True)
    except Exception:  # psutil missing, or proc gone
        descendants = []
    own = os.getpgrp()
    groups = {proc.pid}
    for child in descendants:
        try:
            groups.add(os.getpgid(child.pid))
        except OSError:
            pass
    groups.discard(own)
    for group in groups:
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    for child in descendants:  # anything left in our own group
        try:
            child.kill()
        except Exception:
            pass
    proc.wait()


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    # "otter.run.run_autograder.utils.OtterRuntimeError: ..." -> "OtterRuntimeError: ..."
    return re.sub(r"^(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_]\w*(?:Error|Exception|Exit)\b)", "", lines[-1])[:300]


def _first_failure(output: str) -> str:
    """The error line of the first failing test case in otter's output for a question: after
    "Error at line N in test q6:" and the one line of the test it quotes."""
    found = re.search(r"Error at line \d+ in test [^\n]*\n[^\n]*\n\s*([^\n]+)", output)
    return found.group(1).strip() if found else _last_line(output)


def _why(output: str, cells: list[dict], sources: list[str]) -> str:
    """Why a question lost points, in a line: its first failing test's error; a function no cell
    defined (the check's "got NoneType") with the error of its cell, or the guess that it was
    deleted."""
    why = _first_failure(output)
    missing = re.search(r"check\.(\w+) needs your function itself, got NoneType", why)
    if missing:
        name = missing.group(1)
        defines = re.compile(rf"^\s*def\s+{name}\s*\(", re.M)
        raised = next((c["error"] for c in cells if defines.search(c["cell"])), None)
        why = f"{name} is not defined: " + (
            f"its cell raised {raised}" if raised else "it was not defined when the tests ran"
            if any(map(defines.search, sources)) else "no cell defines it (was its cell deleted?)")
    why = re.sub(r"^AssertionError: ", "", why)  # the check's own verdict speaks for itself
    why = re.split(r"(?<=[.!?])\s+(?=[A-Z])", why)[0]  # its first sentence (not what to do next)
    return why if len(why) <= 300 else why[:297] + "..."


def _reason(assignment: Assignment, results: dict, cells: list[dict], sources: list[str],
            limit: float) -> str:
    """The ``reason`` cell: every cell the grader stopped, then every question that lost points."""
    parts = [f"a cell ran over {limit:g} s and was stopped (an endless loop?): "
             f"{next((l.strip() for l in c['cell'].splitlines() if l.strip()), '')[:80]}"
             for c in cells if c["stopped"]]
    tests = {t.get("name"): t for t in results.get("tests", [])}
    for q in assignment.autograded:
        test = tests.get(q.name, {})
        if test.get("score") is None or test["score"] < test.get("max_score", 0):
            parts.append(f"{q.name}: {_why(test.get('output') or 'no result from otter', cells, sources)}")
    return " | ".join(parts)


@dataclass
class Outcome:
    """A hand-in's grading: the points a question (None: not graded), status, reason, seconds."""

    scores: dict[str, float] | None
    status: str
    reason: str = ""
    seconds: float = 0.0


def grade(notebook: Path | str, assignment: Assignment, timeout: float = DEFAULT_TIMEOUT,
          workdir: Path | str | None = None, *, cell_limit: float | None = None,
          keep: Path | str | None = None) -> Outcome:
    """Grade one notebook. ``cell_limit``: seconds a cell may run (default
    :func:`cell_time_limit`); ``keep``: a folder to copy otter's output into, for regrades."""
    notebook, start = Path(notebook), time.monotonic()
    cell_limit = cell_limit or cell_time_limit()
    why = not_a_notebook(notebook)
    if why:
        return Outcome(None, why, seconds=time.monotonic() - start)
    with tempfile.TemporaryDirectory(prefix="grade-", dir=workdir) as tmp:
        tmp = Path(tmp)
        for sub in ("out", "tmp", "path", "submission"):
            (tmp / sub).mkdir()
        (tmp / "path" / "rfc3987_syntax.py").write_text(_STUB)
        record = tmp / "out" / "cells.jsonl"
        nb = json.loads(notebook.read_text(encoding="utf-8"))
        sources = ["".join(c.get("source", "")) for c in nb["cells"] if c.get("cell_type") == "code"]
        guard = {"cell_type": "code", "metadata": {}, "source": guard_cell(cell_limit, record),
                 "outputs": [], "execution_count": None}
        if (nb.get("nbformat", 4), nb.get("nbformat_minor", 0)) >= (4, 5):
            guard["id"] = "grading-guard"  # ids came with nbformat 4.5, and are not allowed before
        nb["cells"].insert(0, guard)
        # Under the assignment's own file name (see the module's docstring).
        copy = tmp / "submission" / assignment.notebook
        copy.write_text(json.dumps(nb), encoding="utf-8")
        env = dict(os.environ, TMPDIR=str(tmp / "tmp"))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tmp / "path"), env.get("PYTHONPATH")) if p)
        command = [*_otter_command(), str(copy), str(assignment.autograder.resolve()), str(tmp / "out")]
        with open(tmp / "otter.log", "wb") as log:
            proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, cwd=tmp, env=env, start_new_session=True)
            with _LOCK:
                _RUNNING.add(proc)
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_tree(proc)
                code = None
            finally:
                with _LOCK:
                    _RUNNING.discard(proc)
        seconds = time.monotonic() - start
        if keep:
            keep = Path(keep)
            shutil.rmtree(keep, ignore_errors=True)
            keep.mkdir(parents=True)
            for kept in (tmp / "otter.log", *(tmp / "out").iterdir()):
                shutil.copyfile(kept, keep / kept.name)
        if code is None:
            return Outcome(None, f"did not finish within {timeout:g} s", seconds=seconds)
        if code != 0:
            error = _last_line((tmp / "otter.log").read_text(errors="replace"))
            return Outcome(None, f"otter failed: {error or f'exit status {code}'}", seconds=seconds)
        path = tmp / "out" / "results.json"
        results = json.loads(path.read_text()) if path.is_file() else {"tests": []}
        scores = {t["name"]: float(t["score"]) for t in results["tests"]
                  if t.get("score") is not None and t.get("max_score") is not None}
        if not scores:  # otter's "Autograder Failed": it found no results to read
            error = next((t.get("output", "") for t in results["tests"]), "it wrote no results.json")
            return Outcome(None, f"otter failed: {_last_line(error)}", seconds=seconds)
        cells = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()] \
            if record.is_file() else []
        return Outcome(scores, "graded", _reason(assignment, results, cells, sources, cell_limit), seconds)


# --------------------------------------------------------------------------- a class


def _number(x: float) -> float | int:
    x = round(float(x), 6)
    return int(x) if x.is_integer() else x


def _row(assignment: Assignment, student: tuple[str, str], outcome: Outcome) -> dict:
    row: dict = {"student": student[0], "id": student[1]}
    graded = outcome.scores is not None
    for q in assignment.questions:
        row[q.name] = _number(outcome.scores.get(q.name, 0.0)) if graded and not q.manual else None
    row["total"] = _number(sum(row[q.name] for q in assignment.autograded)) if graded else None
    row["max"] = _number(assignment.max_points)
    row.update(status=outcome.status, reason=outcome.reason, seconds=round(outcome.seconds, 2))
    return row


def _folder_name(student: tuple[str, str]) -> str:
    name = f"{student[0]} ({student[1]})" if student[1] else student[0]
    return re.sub(r"[^\w .@()+-]", "_", name).strip(". ") or "unnamed"


def _summary(row: dict) -> str:
    line = (f"{row['student']}: {row['total']:g} / {row['max']:g}" if row["status"] == "graded"
            else f"{row['student']}: not graded")
    return f"{line}  ({row['seconds']:.1f} s)  {row['status'] if row['status'] != 'graded' else row['reason']}".rstrip()


def grade_all(work: Iterable[tuple[HandIn | Path | str, Assignment, float]], jobs: int | None = None,
              echo: Callable[[str], None] | None = print, workdir: Path | str | None = None, *,
              cell_limit: float | None = None, keep: Path | str | None = None) -> list[dict]:
    """Grade ``(hand-in, assignment, timeout)`` triples (a hand-in: a :class:`HandIn`, or a
    file or folder), ``jobs`` at a time (default: one per core); the rows in the order given, one
    per student of each hand-in. ``echo`` gets each row's one-line summary as it ends. ``keep``:
    the folder for otter's output of each student (``keep/<student>/``). The runs work in a
    temporary folder inside ``workdir`` (default: the system's), removed at the end."""
    work = [(h if isinstance(h, HandIn) else HandIn.of(h), a, t) for h, a, t in work]
    jobs = max(1, jobs or len(os.sched_getaffinity(0)))
    rows: list[list[dict] | None] = [None] * len(work)

    def one(hand_in: HandIn, assignment: Assignment, timeout: float, root: str) -> list[dict]:
        notebook, why = notebook_of(hand_in, assignment.chapter)
        folders = [Path(keep) / _folder_name(s) for s in hand_in.students] if keep else []
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)  # a former run's
        outcome = grade(notebook, assignment, timeout, root, cell_limit=cell_limit,
                        keep=folders[0] if folders else None) if notebook else Outcome(None, why)
        for folder in folders[1:]:
            if folders[0].is_dir():
                shutil.copytree(folders[0], folder)
        return [_row(assignment, s, outcome) for s in hand_in.students]

    with tempfile.TemporaryDirectory(prefix="grading-", dir=workdir) as root, \
            concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(one, *item, root): i for i, item in enumerate(work)}
        try:
            for future in concurrent.futures.as_completed(futures):
                rows[futures[future]] = done = future.result()
                for row in done if echo else ():
                    echo(_summary(row))
        except BaseException:  # Ctrl-C: nothing left running behind us
            for future in futures:
                future.cancel()
            with _LOCK:
                running = list(_RUNNING)
            for proc in running:
                _kill_tree(proc)
            raise
    return [row for done in rows for row in done]  # type: ignore[union-attr]


def write_gradebook(rows: list[dict], assignment: Assignment, path: Path | str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=assignment.columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    return path


def grade_folder(submissions: Path | str, chapter: str, *, assignments: Path | str = ASSIGNMENTS,
                 gradebook: Path | str | None = None, jobs: int | None = None,
                 timeout: float = DEFAULT_TIMEOUT, cell_limit: float | None = None,
                 echo: Callable[[str], None] | None = print) -> list[dict]:
    """Grade every hand-in in ``submissions`` against the chapter's autograder, write the
    gradebook (default ``_build/grades/<chapter>.csv``) and otter's output beside it (in the
    folder of the gradebook's name, one folder a student), and return its rows, by name."""
    assignment = Assignment.find(chapter, assignments)
    found = hand_ins(submissions)
    students = [s for h in found for s in h.students]
    twice = sorted({f"{name} {id}".strip() for name, id in students if students.count((name, id)) > 1})
    if twice:
        raise ValueError(f"two hand-ins of the same student: {', '.join(twice)}")
    path = Path(gradebook or GRADES / f"{chapter}.csv")
    rows = grade_all([(h, assignment, timeout) for h in found], jobs, echo,
                     cell_limit=cell_limit, keep=path.with_suffix(""))
    write_gradebook(rows, assignment, path)
    if echo:
        manual = [q.name for q in assignment.questions if q.manual]
        note = f" ({', '.join(manual)} graded by hand: left empty)" if manual else ""
        left = sum(r["status"] != "graded" for r in rows)
        echo(f"Gradebook of {len(rows)} student{'s' * (len(rows) != 1)}: {path}{note}; otter's output for regrades in "
             f"{path.with_suffix('')}/" + (f"; {left} not graded (see their status)" if left else ""))
    return rows


def timeout_for(check_time_limit: float | None) -> float:
    """The default time a hand-in may take: :data:`DEFAULT_TIMEOUT`, or, with a longer limit
    per call, enough for every call of a notebook whose every function loops to run out.

    A looping function runs out of time once in its own cell (a check stops at its first failing
    case), once in the public test and once in each hidden test (one a function in every
    exercise's ``.md``): 3 limits a question, 6 for a chapter's two; 12 limits and a minute for
    the rest of the notebook leave a margin for a second hidden test.
    """
    if check_time_limit is None:
        return DEFAULT_TIMEOUT
    return max(DEFAULT_TIMEOUT, 12 * check_time_limit + 60)


def cell_time_limit(check_time_limit: float | None = None) -> float:
    """Seconds a top-level cell may run: :data:`CELL_CALLS` limits of a call (the package's 5 s
    unless ``check_time_limit``), 30 s by default."""
    return CELL_CALLS * (check_time_limit or 5.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chapter", required=True, help="the chapter, e.g. margin")
    parser.add_argument("--submissions", required=True, type=Path, help="a folder of hand-ins")
    parser.add_argument("--gradebook", type=Path, help="the CSV to write "
                        "(default _build/grades/<chapter>.csv)")
    parser.add_argument("--jobs", type=int, default=None, help="hand-ins graded at once "
                        "(default: one per core)")
    parser.add_argument("--timeout", type=float, default=None,
                        help=f"seconds a hand-in may take (default {DEFAULT_TIMEOUT:g}, or more "
                             "for a longer --check-time-limit: see timeout_for)")
    parser.add_argument("--assignments", type=Path, default=ASSIGNMENTS,
                        help="where `make assignments` wrote them (default _build/assignments)")
    parser.add_argument("--check-time-limit", type=float, default=None,
                        help="seconds each call of a student's function may take in the tests "
                             "(default: the package's, 5 s); a cell may take 6 times as long")
    args = parser.parse_args(argv)
    if args.timeout is None:
        args.timeout = timeout_for(args.check_time_limit)
    if args.timeout <= 0 or (args.jobs is not None and args.jobs < 1):
        parser.error("--timeout and --jobs must be positive")
    if args.check_time_limit is not None:
        if not 0 < args.check_time_limit < float("inf"):
            parser.error("--check-time-limit must be a positive number of seconds")
        # Read by perceptron_core.check when the notebook's kernel imports it (the kernels
        # inherit this process's environment).
        os.environ["PERCEPTRON_CHECK_TIME_LIMIT"] = repr(args.check_time_limit)
    try:
        grade_folder(args.submissions, args.chapter, assignments=args.assignments,
                     gradebook=args.gradebook, jobs=args.jobs, timeout=args.timeout,
                     cell_limit=cell_time_limit(args.check_time_limit))
    except (MissingAssignment, NotADirectoryError, ValueError) as exc:
        print(f"grading.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    # This process needs nbformat only to tell a notebook from another file: the same shortcut
    # as the otter runs get (see the module docstring).
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]
    sys.exit(main())
