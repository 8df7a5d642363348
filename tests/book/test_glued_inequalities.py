"""A glued number after "at most" or "at least" must stay true as the page shows it.

The page prints a glued value rounded to its format (``{glue:text}`key:.2f```). After "at most"
the number shown must be at least the value (1.97 shown for 1.97491 made "at most 1.97" false),
and after "at least" at most the value. Checked against the values the book build glued (its
execution cache, ``_build/.jupyter_cache``): ``make test-notebooks`` runs these after ``make book``.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from chapters import chapter_names  # book/_tools (tests/conftest.py puts it on sys.path)

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "_build" / ".jupyter_cache"
CHAPTERS = tuple(chapter_names())

# the phrase, then a glue role, with any whitespace (line breaks included) between them
_ROLE = re.compile(
    r"\b(at most|no more than|up to|at least|no less than)\s+"
    r"\{glue:text\}`(?P<key>[^`:]+)(?::(?P<fmt>[^`]*))?`",
    re.IGNORECASE,
)
_UPPER = ("at most", "no more than", "up to")


def _markdown(chapter: str) -> str:
    cells = json.loads((ROOT / "book" / f"{chapter}.ipynb").read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def _glued(chapter: str) -> dict:
    """The numbers the book build's run of the chapter glued, by name."""
    import notebook_numbers

    if not CACHE.is_dir():
        pytest.fail(f"no book build at {CACHE.parent}: run `make book` first")
    values = {}
    for key, text in notebook_numbers.run_of(ROOT / "book" / f"{chapter}.ipynb", CACHE).items():
        try:  # NumPy 2's np.float64(0.1) is the number 0.1
            value = ast.literal_eval(re.sub(r"^np\.\w+\((.*)\)$", r"\1", text.strip()))
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            values[key] = value
    return values


def shown(value: float, fmt: str | None) -> float:
    """The number a reader sees for ``value`` glued with format ``fmt``, read back as a float."""
    text = format(value, fmt) if fmt else repr(value)
    text = text.replace(",", "").strip()
    if text.endswith("%"):
        return float(text[:-1]) / 100
    return float(text)


def test_shown_reads_back_what_the_page_prints():
    assert shown(1.9749114, ".2f") == 1.97 and shown(1.9749114, ".3f") == 1.975
    assert shown(1.4988e-15, ".0e") == 1e-15 and shown(0.13977, ".0%") == 0.14
    assert shown(37161, ",d") == 37161 and shown(9, None) == 9


def bound_claims(chapter: str) -> list[tuple[str, str, float, float]]:
    """(phrase, key, value, shown) for every "at most"/"at least" followed by a glued number."""
    values = _glued(chapter)
    out = []
    for m in _ROLE.finditer(_markdown(chapter)):
        key = m.group("key")
        assert key in values, f"{chapter}: {key} is in the prose but the build glued no number"
        value = values[key]
        out.append((m.group(1).lower(), key, float(value), shown(value, m.group("fmt"))))
    return out


@pytest.mark.notebooks
def test_the_pattern_finds_the_claims():
    assert sum(len(bound_claims(c)) for c in CHAPTERS) >= 10, "no glued 'at most' found: is the pattern stale?"


@pytest.mark.notebooks
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_at_most_and_at_least_stay_true_as_shown(chapter):
    claims = bound_claims(chapter)
    for phrase, key, value, number in claims:
        slack = 1e-12 * max(1.0, abs(value))  # the float read back from the printed digits
        if phrase in _UPPER:
            assert number >= value - slack, f"{chapter}: '{phrase} {number}' but {key} = {value!r}"
        else:
            assert number <= value + slack, f"{chapter}: '{phrase} {number}' but {key} = {value!r}"
