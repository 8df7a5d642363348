"""The chapters' code exercises, read from their one place, ``perceptron_core/exercises/``.

Each chapter's code exercise is a pair of files there (see that package's docstring):
``<chapter>.py``, the public checks ``check.<function>`` runs, and ``<chapter>.md``, read here::

    <!-- a comment -->
    :label: <the exercise's label>
    :class: kind-code difficulty-2     (its kind and difficulty, for the instructor guide)

    <the text of the {exercise} box, MyST>

    ```python stub
    <the cell students start from: a stub per function, then check.<function>(<function>)>
    ```

    <the solution's text, MyST>

    ```python solution
    <the solution's cell: the functions, then the same check calls>
    ```

    ```python hidden
    <otter's hidden tests: one exception-based test function per test, taking the student's
     function by its name (def test_x(margin): ...)>
    ```

What is made from it:

* the chapter's exercise cells (:func:`cells`, written into ``book/<chapter>.ipynb`` by
  ``python book/_tools/exercises.py``; ``--check`` fails when a chapter differs): the
  ``{exercise}`` box (the ``.md``'s text, then :func:`closing`, the paragraph every code
  exercise ends with: its checks, the type rule and the precision), the stub cell, and the solution between ``{solution-start}`` and
  ``{solution-end}``, which the student edition strips (``sphinx_extension.strip_solutions``);
* the self-check, ``check.<function>(f)``, from the ``.py`` file;
* the otter assignment's autograded questions (``assignments.py`` calls :func:`question_cells`):
  one question per function, its solution hidden in otter's markers, a public test (the check)
  and the hidden tests, in otter's exception-based test format;
* the instructor guide's list of the code exercises (``instructor_guide.py``).

Usage::

    .venv/bin/python book/_tools/exercises.py [--check]
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "perceptron_core" / "exercises"
BLOCK = re.compile(r"^```python (stub|solution|hidden)\n(.*?)\n```$", re.M | re.S)
#: Points of an autograded question: the public test's, and the hidden tests' together.
PUBLIC_POINTS, HIDDEN_POINTS = 1, 1
_CONFIG = '""" # BEGIN TEST CONFIG\n{}\n""" # END TEST CONFIG\n'


@dataclass(frozen=True)
class CodeExercise:
    chapter: str
    label: str
    options: str  # the {exercise} directive's option lines, :label: first
    text: str
    stub: str
    solution_text: str
    solution: str
    hidden: str

    @property
    def names(self) -> list[str]:
        """The functions it asks for, in the stub's order of ``check.<name>(<name>)`` calls."""
        return [node.value.func.attr for node in ast.parse(self.stub).body if _is_check(node)]


def _is_check(node: ast.stmt) -> bool:
    call = node.value if isinstance(node, ast.Expr) else None
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name) and call.func.value.id == "check")


def chapters() -> list[str]:
    """The chapters with a code exercise, in the book's order."""
    sys.path.insert(0, str(REPO))
    from perceptron_core.exercises import CHAPTERS

    return list(CHAPTERS)


def read(chapter: str) -> CodeExercise:
    """The code exercise of ``chapter`` from ``perceptron_core/exercises/<chapter>.md``."""
    path = HERE / f"{chapter}.md"
    source = path.read_text(encoding="utf-8")
    label = re.search(r"^:label: (\S+)\n(?::[\w-]+:.*\n)*", source, re.M)
    blocks = {m.group(1): m for m in BLOCK.finditer(source)}
    if not label or set(blocks) != {"stub", "solution", "hidden"}:
        raise ValueError(f"{path}: needs a :label: line and one python stub, solution and hidden block")
    return CodeExercise(chapter, label.group(1), label.group(0).strip(),
                        source[label.end():blocks["stub"].start()].strip(),
                        blocks["stub"].group(2),
                        source[blocks["stub"].end():blocks["solution"].start()].strip(),
                        blocks["solution"].group(2), blocks["hidden"].group(2))


# --------------------------------------------------------------------------- the chapter's cells


def closing(exercise: CodeExercise) -> str:
    """The text's last paragraph, the same in every exercise: what checks the functions, and the
    type rule (``check.TYPES``) and precision (``check.PRECISION``) every check and hidden test
    applies. It names no cell, so it reads right both in the book, where one cell holds every
    function, and in the assignment, where each function has a cell of its own."""
    from perceptron_core import check

    calls = " and ".join(f"`check.{n}({n})`" for n in exercise.names)
    kinds: dict[str, list[str]] = {}
    for name in exercise.names:
        kinds.setdefault(check.EXERCISES[name].kind, []).append(f"`{name}`")
    types = "; ".join(f"{' and '.join(names)} return{'s' * (len(names) == 1)} {check.TYPES[kind]}"
                      for kind, names in kinds.items())
    text = (f"{calls}, the lines after your code, try your functions on edge cases and on random "
            f"data and report the first case each gets wrong. {types[0].upper()}{types[1:]}; any "
            "other type (a list, or a one-element array for a number) fails the case whatever "
            "its values.")
    if {"float", "array"} & set(kinds):
        text += (f" Numbers pass within $10^{{{math.log10(check.PRECISION):.0f}}}$ times the size "
                 "of the numbers involved, so float32 arithmetic is precise enough.")
    return textwrap.fill(text, 96, break_long_words=False, break_on_hyphens=False)


def cells(exercise: CodeExercise) -> list[dict]:
    """The chapter's five exercise cells, with ids ``<label>-exercise``, ``-stub``,
    ``-solution``, ``-solution-code``, ``-solution-end``."""
    label = exercise.label
    sources = [("markdown", f"```{{exercise}}\n{exercise.options}\n\n{exercise.text}\n\n"
                             f"{closing(exercise)}\n```"),
               ("code", exercise.stub),
               ("markdown", f"````{{solution-start}} {label}\n:class: dropdown\n````\n\n"
                            f"{exercise.solution_text}"),
               ("code", exercise.solution), ("markdown", "````{solution-end}\n````")]
    out = []
    for (kind, source), suffix in zip(sources, ("exercise", "stub", "solution", "solution-code",
                                                "solution-end")):
        cell = {"cell_type": kind, "id": f"{label}-{suffix}", "metadata": {},
                "source": source.splitlines(keepends=True)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        out.append(dict(sorted(cell.items())))  # nbformat's order of keys
    return out


def with_cells(nb: dict, exercise: CodeExercise) -> dict:
    """``nb`` with the exercise's cells in place of those with their ids (at the end when
    none is there); the other cells as they are."""
    new = cells(exercise)
    ids = {c["id"] for c in new}
    at = next((i for i, c in enumerate(nb["cells"]) if c.get("id") in ids), None)
    kept = [c for c in nb["cells"] if c.get("id") not in ids]
    at = len(kept) if at is None else at
    return {**nb, "cells": kept[:at] + new + kept[at:]}


def sync(check: bool = False) -> list[Path]:
    """Write every chapter's exercise cells (or, with ``check``, only list those that differ)."""
    changed = []
    for chapter in chapters():
        path = REPO / "book" / f"{chapter}.ipynb"
        text = path.read_text(encoding="utf-8")
        new = json.dumps(with_cells(json.loads(text), read(chapter)), indent=1, ensure_ascii=False) + "\n"
        if new != text:
            changed.append(path)
            if not check:
                path.write_text(new, encoding="utf-8")
    return changed


# ------------------------------------------------------------------------ the otter questions


def _lines(code: str, node: ast.AST) -> list[str]:
    return code.splitlines()[node.lineno - 1:node.end_lineno]


def solution_cell(exercise: CodeExercise, name: str, *, preamble: bool) -> str:
    """The question's code cell in otter's format: the stub's ``def`` line and docstring, the
    solution's body hidden between otter's solution markers, the stub's body as the prompt
    students see; then the check's call. With ``preamble``, the solution's other top-level code
    (imports, helpers) comes first, hidden with no prompt."""
    stub = next(n for n in ast.parse(exercise.stub).body if getattr(n, "name", "") == name)
    tree = ast.parse(exercise.solution)
    solved = next(n for n in tree.body if getattr(n, "name", "") == name)
    has_doc = ast.get_docstring(stub) is not None
    first = stub.body[1] if has_doc else stub.body[0]
    head = exercise.stub.splitlines()[stub.lineno - 1:first.lineno - 1]
    prompt = exercise.stub.splitlines()[first.lineno - 1:stub.end_lineno]
    body = solved.body[1:] if ast.get_docstring(solved) is not None and len(solved.body) > 1 else solved.body
    answer = exercise.solution.splitlines()[body[0].lineno - 1:solved.end_lineno]
    indent = re.match(r"\s*", answer[0]).group(0)
    out = []
    rest = [n for n in tree.body if not _is_check(n)
            and not (isinstance(n, ast.FunctionDef) and n.name in exercise.names)]
    if preamble and rest:
        out = ["# BEGIN SOLUTION NO PROMPT"] + [line for n in rest for line in _lines(exercise.solution, n) + [""]]
        out[-1:] = ["# END SOLUTION", "", ""]
    out += head + [f"{indent}# BEGIN SOLUTION NO PROMPT", *answer, f"{indent}# END SOLUTION",
                   f'{indent}""" # BEGIN PROMPT', *prompt, f'{indent}""" # END PROMPT']
    return "\n".join(out) + f"\n\n\ncheck.{name}({name})"


def test_cells(exercise: CodeExercise, name: str) -> list[str]:
    """The question's test cells in otter's exception-based format: the public test (the
    package's check, quiet: its verdict is the failure's message), then every hidden test of
    the ``.md`` that takes ``name``. Raises ``ValueError`` when there is none."""
    public = (_CONFIG.format(f"points: {PUBLIC_POINTS}")
              + f"def test_{name}_public({name}):\n    from perceptron_core import check\n\n"
              f"    result = check.{name}({name}, quiet=True)\n    assert result, result.message")
    hidden = [n for n in ast.parse(exercise.hidden).body if isinstance(n, ast.FunctionDef)
              and [a.arg for a in n.args.args] == [name]]
    if not hidden:
        raise ValueError(f"{exercise.chapter}.md has no hidden test of {name}: every function "
                         "needs one (def test_...({name}): ...)")
    share = HIDDEN_POINTS / len(hidden)
    return [public] + [_CONFIG.format(f"hidden: true\npoints: {share:g}")
                       + "\n".join(_lines(exercise.hidden, n)) for n in hidden]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report chapters that differ")
    args = parser.parse_args(argv)
    changed = sync(args.check)
    for path in changed:
        print(("out of date: " if args.check else "updated: ") + str(path.relative_to(REPO)))
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
