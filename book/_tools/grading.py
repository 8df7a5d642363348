"""Grade a folder of submitted notebooks with otter-grader, and write a gradebook.

    make grade SUBMISSIONS=<folder> CHAPTER=<chapter> [JOBS=n] [TIMEOUT=s] [GRADEBOOK=<file.csv>]
               [CHECK_TIME_LIMIT=s]
    .venv/bin/python book/_tools/grading.py --chapter margin --submissions hand-ins/

Every file in the folder (not those whose name starts with a dot) is a submission, and so is
every subfolder, as in the exports of Gradescope and other systems (one folder a student): its
name is the student's, and the one ``.ipynb`` in it (at any depth, checkpoints left out) is the
notebook; a folder with none or several gets a row with the reason. Each notebook
is graded by otter's non-containerized runner, ``otter run -a <autograder zip> -o <dir>
<submission>``, with the autograder that ``make assignments CHAPTERS=<chapter>`` built in
``_build/assignments/<chapter>/autograder/``; ``--jobs`` of them run at once (default: one per
core). The gradebook (default ``_build/grades/<chapter>.csv``) has one row a student (the file's
name without ``.ipynb``) and the columns ``student``, one per question in the assignment's order
(the points scored; empty for a question graded by hand), ``total`` and ``max`` (autograded points
scored and possible) and ``reason``, empty when the submission was graded normally. A submission
that cannot be graded still gets its row, and the others go on:

* not a notebook (not ``.ipynb``, not JSON, not a valid nbformat notebook): 0 points, reason
  ``not a notebook: ...``;
* code that raises: otter runs every cell regardless (the cells after the error run, with what the
  error left undefined missing) and grades the tests, so the row has the scores otter gave;
* otter itself fails (a notebook of another assignment, say): 0 points, the reason is the last
  line of its error;
* never ends: each ``otter run`` has ``--timeout`` seconds (default 300, more with a longer
  ``--check-time-limit``: :func:`timeout_for`), after which its process
  group and the kernel it started (in a session of its own, as jupyter_client starts kernels) are
  killed: 0 points, reason ``did not finish within N s``.

Time limits: otter's runner has none of its own. ``otter grade --timeout`` (the Docker runner)
stops a container, and ``otter run`` executes the notebook with nbconvert's ExecutePreprocessor,
which it configures without a cell timeout; so the whole ``otter run`` is under the time limit
here. Inside it, the tests run the student's functions through the package's checks, whose time
limit per call (``perceptron_core.check.TIME_LIMIT``, set by ``--check-time-limit``) fails a
test whose call does not return in time, so an endless loop in a function costs that question
and not the submission.

The ``otter run`` processes get a directory of their own in front of ``PYTHONPATH`` holding one
module, ``rfc3987_syntax``, that raises ImportError: jsonschema imports that optional package when
present (for IRI formats, which no notebook schema uses) and it builds its grammar at import, about
3 s in every process that imports nbformat: otter itself and the kernel, which imports otter.
With the stub in place a submission grades in about half the time, with the same results.

Importable: :func:`grade_folder` grades a folder and returns the gradebook's rows (dicts, with the
seconds each took under ``"seconds"``, which the CSV leaves out); :func:`grade_all` grades
submissions of one or several assignments, each with its own time limit, in one pool.
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

__all__ = ["Assignment", "MissingAssignment", "Question", "grade", "grade_all", "grade_folder",
           "not_a_notebook", "timeout_for", "write_gradebook", "main"]


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
        return ["student", *(q.name for q in self.questions), "total", "max", "reason"]


# --------------------------------------------------------------------------- one submission


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


def _student(path: Path) -> str:
    return path.stem if path.suffix == ".ipynb" and not path.is_dir() else path.name


def notebook_in(folder: Path) -> tuple[Path | None, str]:
    """A student's folder's notebook, or None and why there is none to grade."""
    found = sorted((p for p in folder.rglob("*.ipynb") if p.is_file()
                    and not any(part.startswith(".") for part in p.relative_to(folder).parts)),
                   key=lambda p: _natural(str(p.relative_to(folder))))
    if len(found) == 1:
        return found[0], ""
    if not found:
        return None, f"not a notebook: the folder {folder.name} holds no .ipynb file"
    names = ", ".join(str(p.relative_to(folder)) for p in found)
    return None, f"several notebooks in the folder {folder.name}: {names}; hand in one"


def _number(x: float) -> float | int:
    x = round(float(x), 6)
    return int(x) if x.is_integer() else x


def _row(assignment: Assignment, student: str, scores: dict[str, float] | None, reason: str,
         seconds: float) -> dict:
    row: dict = {"student": student}
    for q in assignment.questions:
        row[q.name] = None if q.manual else _number((scores or {}).get(q.name, 0.0))
    row["total"] = _number(sum(row[q.name] for q in assignment.autograded))
    row["max"] = _number(assignment.max_points)
    row["reason"] = reason
    row["seconds"] = round(seconds, 2)
    return row


_STUB = "raise ImportError('left out while grading: see book/_tools/grading.py')\n"
_RUNNING: set[subprocess.Popen] = set()  # otter runs under way, killed if grading is stopped
_LOCK = threading.Lock()


def _otter_command() -> list[str]:
    script = Path(sys.executable).parent / "otter"
    return [str(script)] if script.exists() else [sys.executable, "-m", "otter"]


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


def _scores(results: dict) -> dict[str, float]:
    return {t["name"]: float(t["score"]) for t in results.get("tests", [])
            if t.get("score") is not None and t.get("max_score") is not None}


def grade(submission: Path | str, assignment: Assignment, timeout: float = DEFAULT_TIMEOUT,
          workdir: Path | str | None = None) -> dict:
    """One submission's gradebook row (with ``"seconds"``)."""
    submission = Path(submission)
    student, start = _student(submission), time.monotonic()
    reason = None
    if submission.is_dir():
        submission, reason = notebook_in(submission)
    reason = reason or not_a_notebook(submission)
    if reason:
        return _row(assignment, student, None, reason, time.monotonic() - start)
    with tempfile.TemporaryDirectory(prefix="grade-", dir=workdir) as tmp:
        tmp = Path(tmp)
        (tmp / "out").mkdir()
        (tmp / "tmp").mkdir()
        (tmp / "path").mkdir()
        (tmp / "path" / "rfc3987_syntax.py").write_text(_STUB)
        # Under the assignment's own file name: the notebook's first cell, otter.Notebook(
        # "<chapter>.ipynb"), reads it, and fails under another name (alice.ipynb), and with it
        # every grader.check cell; otter would then run each test once, at the end, on the
        # notebook's final state instead of at the question's check.
        (tmp / "submission").mkdir()
        copy = tmp / "submission" / assignment.notebook
        shutil.copyfile(submission, copy)
        env = dict(os.environ, TMPDIR=str(tmp / "tmp"))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(tmp / "path"), env.get("PYTHONPATH")) if p)
        command = [*_otter_command(), "run", "-a", str(assignment.autograder.resolve()),
                   "-o", str(tmp / "out"), "--no-logo", str(copy)]
        with open(tmp / "stdout", "wb") as out, open(tmp / "stderr", "wb") as err:
            proc = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                    cwd=tmp, env=env, start_new_session=True)
            with _LOCK:
                _RUNNING.add(proc)
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill_tree(proc)
                return _row(assignment, student, None, f"did not finish within {timeout:g} s",
                            time.monotonic() - start)
            finally:
                with _LOCK:
                    _RUNNING.discard(proc)
        seconds = time.monotonic() - start
        results = tmp / "out" / "results.json"
        if code != 0:
            error = _last_line((tmp / "stderr").read_text(errors="replace"))
            return _row(assignment, student, None,
                        f"otter failed: {error or f'exit status {code}'}", seconds)
        if not results.is_file():
            return _row(assignment, student, None, "otter failed: it wrote no results.json", seconds)
        return _row(assignment, student, _scores(json.loads(results.read_text())), "", seconds)


def _summary(row: dict) -> str:
    line = f"{row['student']}: {row['total']:g} / {row['max']:g}  ({row['seconds']:.1f} s)"
    return f"{line}  {row['reason']}" if row["reason"] else line


def grade_all(work: Iterable[tuple[Path | str, Assignment, float]], jobs: int | None = None,
              echo: Callable[[str], None] | None = print, workdir: Path | str | None = None
              ) -> list[dict]:
    """Grade ``(submission, assignment, timeout)`` triples, ``jobs`` at a time (default: one per
    core); the rows in the order given. ``echo`` gets each row's one-line summary as it ends.
    The runs work in a temporary folder inside ``workdir`` (default: the system's), removed
    at the end."""
    work = list(work)
    jobs = max(1, jobs or len(os.sched_getaffinity(0)))
    rows: list[dict | None] = [None] * len(work)
    with tempfile.TemporaryDirectory(prefix="grading-", dir=workdir) as root, \
            concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(grade, path, assignment, timeout, root): i
                   for i, (path, assignment, timeout) in enumerate(work)}
        try:
            for future in concurrent.futures.as_completed(futures):
                rows[futures[future]] = row = future.result()
                if echo:
                    echo(_summary(row))
        except BaseException:  # Ctrl-C: nothing left running behind us
            for future in futures:
                future.cancel()
            with _LOCK:
                running = list(_RUNNING)
            for proc in running:
                _kill_tree(proc)
            raise
    return rows  # type: ignore[return-value]


def write_gradebook(rows: list[dict], assignment: Assignment, path: Path | str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=assignment.columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if v is None else v) for k, v in row.items()})
    return path


def submissions_in(folder: Path | str) -> list[Path]:
    """The files and subfolders of ``folder`` (not those whose name starts with a dot), by name:
    one a student."""
    folder = Path(folder)
    if not folder.is_dir():
        raise NotADirectoryError(f"no folder of submissions at {folder}")
    return sorted((p for p in folder.iterdir() if (p.is_file() or p.is_dir())
                   and not p.name.startswith(".")), key=lambda p: _natural(p.name))


def grade_folder(submissions: Path | str, chapter: str, *, assignments: Path | str = ASSIGNMENTS,
                 gradebook: Path | str | None = None, jobs: int | None = None,
                 timeout: float = DEFAULT_TIMEOUT, echo: Callable[[str], None] | None = print
                 ) -> list[dict]:
    """Grade every file of ``submissions`` against the chapter's autograder, write the gradebook
    (default ``_build/grades/<chapter>.csv``) and return its rows, one a submission, by name."""
    assignment = Assignment.find(chapter, assignments)
    files = submissions_in(submissions)
    students = [_student(p) for p in files]
    twice = sorted({s for s in students if students.count(s) > 1})
    if twice:
        raise ValueError(f"two submissions of the same student: {', '.join(twice)}")
    rows = grade_all([(p, assignment, timeout) for p in files], jobs, echo)
    path = write_gradebook(rows, assignment, gradebook or GRADES / f"{chapter}.csv")
    if echo:
        manual = [q.name for q in assignment.questions if q.manual]
        note = f" ({', '.join(manual)} graded by hand: left empty)" if manual else ""
        echo(f"Gradebook of {len(rows)} submissions: {path}{note}")
    return rows


def timeout_for(check_time_limit: float | None) -> float:
    """The default time a submission may take: :data:`DEFAULT_TIMEOUT`, or, with a longer limit
    per call, enough for every call of a notebook whose every function loops to run out.

    A looping function runs out of time once in its own cell (a check stops at its first failing
    case), once in the public test and once in each hidden test (one a function in every
    exercise's ``.md``): 3 limits a question, 6 for a chapter's two; 12 limits and a minute for
    the rest of the notebook leave a margin for a second hidden test.
    """
    if check_time_limit is None:
        return DEFAULT_TIMEOUT
    return max(DEFAULT_TIMEOUT, 12 * check_time_limit + 60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chapter", required=True, help="the chapter, e.g. margin")
    parser.add_argument("--submissions", required=True, type=Path, help="a folder of notebooks")
    parser.add_argument("--gradebook", type=Path, help="the CSV to write "
                        "(default _build/grades/<chapter>.csv)")
    parser.add_argument("--jobs", type=int, default=None, help="submissions graded at once "
                        "(default: one per core)")
    parser.add_argument("--timeout", type=float, default=None,
                        help=f"seconds a submission may take (default {DEFAULT_TIMEOUT:g}, or more "
                             "for a longer --check-time-limit: see timeout_for)")
    parser.add_argument("--assignments", type=Path, default=ASSIGNMENTS,
                        help="where `make assignments` wrote them (default _build/assignments)")
    parser.add_argument("--check-time-limit", type=float, default=None,
                        help="seconds each call of a student's function may take in the tests "
                             "(default: the package's, 5 s); for a slow machine")
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
                     gradebook=args.gradebook, jobs=args.jobs, timeout=args.timeout)
    except (MissingAssignment, NotADirectoryError, ValueError) as exc:
        print(f"grading.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    # This process needs nbformat only to tell a notebook from another file: the same shortcut
    # as the otter runs get (see the module docstring).
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]
    sys.exit(main())
