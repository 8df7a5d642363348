"""Every chapter, one parametrized test per rule: what each page owes its reader.

The chapters are the notebooks ``_toc.yml`` lists (book/_tools/chapters.py reads it), so a new
chapter is checked here the moment it is added there. A chapter's own claims, the sentences of
its prose checked by an independent computation, are in ``test_chapter_<name>.py`` beside this
file. That the committed notebooks hold no outputs is tests/book/test_notebooks.py's; that every
figure of ``BENCH_CASES`` draws, light and dark, is tests/drawing/test_theme.py's.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import math
import re

import pytest
from chapters import chapter_names

from conftest import cell_source, is_hidden, markdown_text, notebook_cells

CHAPTERS = chapter_names()

# The widest code line a reader is shown: PEP 8's 79 characters, which the book's column shows
# without sideways scrolling at 1280 px. Hidden cells, shown only in a downloaded notebook, may
# use the project's 88.
VISIBLE_COLUMN, COLUMN = 79, 88


def _code_cells(chapter: str) -> list[dict]:
    return [c for c in notebook_cells(chapter) if c["cell_type"] == "code"]


def _python(cell: dict) -> str:
    """A code cell's source as Python: IPython's magics and shell escapes blanked out."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line
                     for line in cell_source(cell).split("\n"))


def _figure_module(chapter: str):
    return importlib.import_module(f"perceptron_core.figures.{chapter}")


def test_the_chapters_are_the_table_of_contents():
    assert len(CHAPTERS) == len(set(CHAPTERS)) >= 9
    assert CHAPTERS[0] == "first_look"


# --------------------------------------------------------------------------------- the page


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_page_opens_with_the_chapter_label_and_a_title(chapter):
    first = cell_source(notebook_cells(chapter)[0])
    assert first.startswith(f"(chapter-{chapter.replace('_', '-')})=\n# "), first[:80]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_exercises_have_dropdown_solutions_and_one_runs_code(chapter):
    """Every exercise has a solution (a ``{solution}`` block, or a solution-start/end pair around
    cells), folded away in a dropdown, under "## Exercises"; at least one solution runs code."""
    text = markdown_text(chapter)
    exercises = text.count("```{exercise}")
    starts, ends, plain = (text.count("{solution-start}"), text.count("{solution-end}"),
                           text.count("```{solution}"))
    assert exercises >= 2 and "## Exercises" in text
    assert starts + plain == exercises and starts == ends
    assert text.count(":class: dropdown") >= exercises
    inside, code_in_solution = False, 0
    for cell in notebook_cells(chapter):
        src = cell_source(cell)
        if cell["cell_type"] == "markdown":
            inside = (inside or "{solution-start}" in src) and "{solution-end}" not in src.split(
                "{solution-start}")[-1]
        elif inside:
            code_in_solution += 1
    assert code_in_solution >= 1


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_prose_names_no_test_files(chapter):
    """The page is for readers: no test file, test name, or "checked by the tests"."""
    text = markdown_text(chapter)
    assert not re.search(r"\btests/|test_\w+\.py|\b(in|by) the tests\b|the tests check", text)


# --------------------------------------------------------------------------------- the code


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_glue_only_in_cells_the_reader_does_not_see(chapter):
    """Numbers reach the prose through glue in hidden cells; a visible cell shows no plumbing."""
    for cell in _code_cells(chapter):
        src = cell_source(cell)
        assert "NBVAL_CHECK_OUTPUT" not in src
        if not is_hidden(cell):
            assert "glue" not in src, src


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_code_fits_the_column(chapter):
    """Every code cell fits the page's column, hidden ones too (a downloaded notebook shows
    them), except the cells that glue numbers for the prose."""
    for cell in _code_cells(chapter):
        src = cell_source(cell)
        width = COLUMN if is_hidden(cell) else VISIBLE_COLUMN
        if "glue(" not in src and "glue_numbers(" not in src:
            assert max(map(len, src.split("\n"))) <= width, src


def _names(src: str) -> tuple[set[str], set[str]]:
    """Names a cell binds, and names it reads without binding them anywhere in the cell."""
    bound, read = set(), set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, (ast.FunctionDef, ast.Lambda)):
            bound.update([node.name] if isinstance(node, ast.FunctionDef) else [])
            bound.update(a.arg for a in node.args.args + node.args.kwonlyargs)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return bound, read - bound - set(dir(builtins))


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_visible_code_uses_no_name_defined_only_in_hidden_cells(chapter):
    """A reader must not meet a name whose definition the page hides (the data's parameters were
    once unpacked in a remove-input cell)."""
    shown: set[str] = set()
    for i, cell in enumerate(notebook_cells(chapter)):
        if cell["cell_type"] != "code" or is_hidden(cell):
            continue
        bound, read = _names(_python(cell))
        missing = read - shown
        assert not missing, f"cell {i} uses {sorted(missing)}, defined only in hidden cells"
        shown |= bound


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_chapter_imports_the_package_and_its_figure_module(chapter):
    """A chapter's code is the package's: its mathematics from perceptron_core, its figures from
    perceptron_core.figures.<chapter>, and explore from perceptron_core.figures."""
    imported = set()
    for cell in _code_cells(chapter):
        for node in ast.walk(ast.parse(_python(cell))):
            if isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
                imported.update(f"{node.module}.{a.name}" for a in node.names)
    assert {"perceptron_core", "perceptron_core.figures.explore",
            f"perceptron_core.figures.{chapter}"} <= imported


# ------------------------------------------------------------------------ the live figures


def _draw_names(draw) -> set[str]:
    """The figure module's draw functions a BENCH_CASE or an explore() call draws with: the
    function itself, the one a ``functools.partial`` wraps, or those a lambda calls."""
    draw = getattr(draw, "func", draw)
    if draw.__name__ == "<lambda>":
        return {n for n in draw.__code__.co_names if n.startswith("draw")}
    return {draw.__name__}


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_figure_module_lists_its_figures_in_bench_cases(chapter):
    """BENCH_CASES (name, draw, grid): what bench/bench_redraw.py times and
    tests/drawing/test_theme.py draws. Names carry the chapter's; each grid fits explore's
    budget of frames."""
    from perceptron_core.figures.sliders import slider_grid

    cases = _figure_module(chapter).BENCH_CASES
    assert cases
    for name, draw, params in cases:
        assert name.startswith(chapter.replace("_", "-")), name
        assert _draw_names(draw) and callable(draw)
        grid = slider_grid(**params)
        assert math.prod(len(v) for v in grid.values()) <= 60, name


def test_bench_case_names_are_unique_across_the_book():
    names = [name for chapter in CHAPTERS for name, _, _ in _figure_module(chapter).BENCH_CASES]
    assert len(names) == len(set(names))


def _explored_figures(chapter: str) -> set[frozenset]:
    """The draw functions of every explore() of the chapter. ``explore(fig.name(...))`` shows
    the module's Explorable ``name``, which draws with ``draw_name`` (the figure modules'
    convention); ``explore(lambda ...: fig.draw_x(...), ...)`` names its draw functions itself."""
    figures = set()
    for cell in _code_cells(chapter):
        for node in ast.walk(ast.parse(_python(cell))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "explore":
                first = node.args[0]
                if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute):
                    figures.add(frozenset({f"draw_{first.func.attr}"}))
                    continue
                draws = {n.attr for n in ast.walk(first)
                         if isinstance(n, ast.Attribute) and n.attr.startswith("draw")}
                draws |= {n.id for n in ast.walk(first)
                          if isinstance(n, ast.Name) and n.id.startswith("draw")}
                figures.add(frozenset(draws))
    return figures


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_explore_call_of_the_page_is_a_bench_case(chapter):
    """The sliders a reader moves are the figures the benchmark times: every explore() of the
    page draws with a figure of BENCH_CASES, and every case is on the page. (The grids are the
    Explorables', which the page and BENCH_CASES share.)"""
    module = _figure_module(chapter)
    for name in [min(d) for d in _explored_figures(chapter) if len(d) == 1]:
        assert callable(getattr(module, name, None)), f"{name} is not in {module.__name__}"
    cases = {frozenset(_draw_names(draw)) for _, draw, _ in module.BENCH_CASES}
    assert _explored_figures(chapter) == cases


# ------------------------------------------------------------------------------ the exercises

# An exercise's statement types a value that its solution's code runs (the student edition
# has no solution cells to glue it from): (chapter, label, the value in the statement, in the
# code). Each pattern's groups are the numbers, in the same order.
TYPED_IN_STATEMENTS = [
    ("margin_perceptron", "mp-ex-search", r"target \$\\tau = ([0-9.]+)\$",
     r"tau_search, short_cap = ([0-9.]+), "),
    ("offset", "off-ex-measured-c", r"from \$([0-9.]+)\$ to \$([0-9.]+)\$",
     r"np\.geomspace\(([0-9.]+), ([0-9.]+),"),
]


@pytest.mark.parametrize(("chapter", "label", "statement", "code"), TYPED_IN_STATEMENTS,
                         ids=[row[1] for row in TYPED_IN_STATEMENTS])
def test_exercise_statements_type_the_values_their_solutions_run(chapter, label, statement, code):
    text = markdown_text(chapter, "\n")
    start = text.index(f":label: {label}")
    end = text.find(f"{{solution-start}} {label}", start)
    typed = re.search(statement, text[start:end if end > 0 else None]).groups()
    matches = [re.search(code, cell_source(c)) for c in _code_cells(chapter)]
    run = [m.groups() for m in matches if m]
    assert len(run) == 1, f"{len(run)} code cells match {code!r}"
    assert tuple(map(float, typed)) == tuple(map(float, run[0]))
