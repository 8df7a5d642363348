"""The book's code exercises, one place each: ``<chapter>.py`` and ``<chapter>.md`` side by side.

Every chapter has one code exercise, which asks for one or two functions. Its two files:

* ``<chapter>.py`` (ships in the wheel): the **public check** of each function, an
  :class:`Exercise`: its parameters, its fixed cases with their hints, how to draw random cases,
  the reference, how answers compare (and the size a float answer's tolerance is relative to),
  and the package functions that answer it, which the student's code may not name.
  ``perceptron_core.check`` runs them: ``check.<function>(f)``.
* ``<chapter>.md`` (not in the wheel: setuptools ships only the ``.py`` files and the package
  data ``pyproject.toml`` lists): the exercise's **text** (the ``{exercise}`` box's MyST), the
  **stub** students start from, the **solution** (its text and its code), and the otter
  **hidden tests**, exception-based test functions (``otter.test_files.test_case``) that take
  the student's function by its name. Its format is read by ``book/_tools/exercises.py``, which
  writes the chapter's exercise cells, the otter assignment's questions and the instructor
  guide's list of them from it. It may also hold ```` ```python setup <label> ```` blocks: the
  set-up code of a written exercise's assignment question, where the question's words name data
  that the chapter's own cells do not give as the question means them
  (``book/_tools/assignments.py``, ``declared_setups``).

The solution and the hidden tests stay out of the wheel (as before: the wheel is what students
install); the references are package functions or short re-statements of the chapter's
algorithm, which the package's own source shows anyway.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import numpy as np

#: The chapters with a code exercise, in the book's order.
CHAPTERS = ("first_look", "perceptron", "separability", "margin", "convergence", "offset",
            "margin_perceptron", "nonseparable", "guarantees")


class Case(NamedTuple):
    """One call of the student's function: a name, its arguments, and a hint if it fails."""

    name: str
    args: tuple[Any, ...]
    hint: str


@dataclass(frozen=True)
class Exercise:
    """The public check of one function.

    ``kind`` says how answers compare: ``"int"``, ``"index"`` (an int or None), ``"bool"``,
    ``"labels"`` (±1, exactly), ``"float"`` or ``"array"`` (within ``PRECISION`` times
    ``scale(*args)``, which ``scale_name`` names in the verdict). ``random(rng, n)`` returns the
    arguments of n random cases. ``forbidden`` lists the package functions that answer the
    exercise (see ``perceptron_core.check``).
    """

    signature: str
    fixed: Callable[[], list[Case]]
    random: Callable[[np.random.Generator, int], list[tuple[Any, ...]]]
    random_hint: str
    reference: Callable[..., Any]
    kind: str
    forbidden: tuple[str, ...] = ()
    scale: Callable[..., float] | None = None
    scale_name: str = ""
    chapter: str = ""

    @property
    def name(self) -> str:
        return self.signature.split("(", 1)[0]

    @property
    def params(self) -> tuple[str, ...]:
        return tuple(p.strip() for p in self.signature.split("(", 1)[1].rstrip(")").split(","))


def A(rows: Any) -> np.ndarray:
    """An array of floats, for the cases."""
    return np.array(rows, dtype=float)


def largest(*arrays: Any) -> float:
    """The largest ``|entry|`` of the arrays (0 for empty ones)."""
    return max(float(np.max(np.abs(a))) if np.size(a) else 0.0 for a in arrays)


def exercises() -> list[Exercise]:
    """Every exercise's public check, in the book's order."""
    found = []
    for chapter in CHAPTERS:
        module = importlib.import_module(f"{__name__}.{chapter}")
        found += [replace(e, chapter=chapter) for e in module.EXERCISES]
    return found
