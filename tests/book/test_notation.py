"""The page book/notation.md is the book's one reference for its symbols.

Every symbol that a chapter introduces in a ``prf:definition`` must be a row of the page's first
table, "This book's symbols", and that table must give each symbol one meaning (one row).

Which symbols does a definition introduce? Those its text names by the conventions the chapters
follow (a new way of naming a symbol in a definition needs a rule here):

1. math in the definition's **title**, e.g. ``{prf:definition} The radius $R$``;
2. math **inside, right after or right before an emphasized term**: ``*maximum margin*
   $\\gamma^*$``, ``*target* $\\tau \\in (0, 1)$``, ``*$(\\varepsilon, \\delta)$-correct*``,
   ``$u^*$ is a **maximum-margin separator**``;
3. an **equation with the symbol alone on its left**, inline or displayed
   (``$R = \\max_i \\|x_i\\|$``, ``$TD_\\gamma = \\sum_i d_i$``), unless its right side is a bare
   number (``$w_0 = 0$`` and ``$\\tau = \\tfrac12$`` set values, they define nothing).

In rules 1 and 2 the symbol is the part of the math before its first relation (``=``, ``\\in``,
``>``, ...), and a tuple ``(a, b)`` there stands for its entries. Only "symbol-like" math counts
(:data:`_SYMBOL`). (MyST ``%`` comment lines would be a fourth way to list symbols, but the reader
notebooks, book/_tools/reader_notebooks.py, would show them to students as text.)
Symbols are compared after a light normalization of the LaTeX: spaces, spacing commands and
braces dropped, a subscript written before a superscript moved after it, ``\\ast`` as ``*``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from chapters import chapter_paths  # book/_tools (tests/conftest.py puts it on sys.path)

BOOK = Path(__file__).resolve().parents[2] / "book"
NOTATION = BOOK / "notation.md"
CHAPTERS = chapter_paths()
TABLE_HEADING = "## This book's symbols"

_DEFINITION = re.compile(r"^(`{3,}|:{3,})\{prf:definition\}[ \t]*([^\n]*)\n(.*?)^\1[ \t]*$", re.M | re.S)
_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$", re.S)
_GROUP = r"(\{[^{}]*\}|\\[A-Za-z]+|[^\\{])"
# A letter, Greek letter, accented or \mathcal/\operatorname letter, or a short capital name
# (TD), with primes, a superscript, a subscript and an argument list of such letters.
_SYMBOL = re.compile(r"(\\[A-Za-z]+|[A-Za-z]|[A-Z]{2,3})'*(\^(\*|'+|\\[A-Za-z]+|[A-Za-z0-9]))?"
                     r"(_\\?[A-Za-z0-9]+(,\\?[A-Za-z0-9]+)*)?(\((\\?[A-Za-z]'*,?)+\))?")
_NUMBER = re.compile(r"[-+]?(\d+(\.\d+)?|\\[dt]?frac\d+|\\infty)[.,]?")


def markdown_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def math_spans(text: str) -> list[str]:
    """The math of a markdown text, without directive fences and code spans."""
    text = re.sub(r"`[^`]*`", " ", re.sub(r"(?m)^[ \t]*(`{3,}|:{3,}).*$", "", text))
    return [a or b for a, b in _MATH.findall(text)]


def norm(latex: str) -> str:
    """The light normal form: ``\\gamma_{b}^{\\ast}`` and ``\\gamma^*_b`` give ``\\gamma^*_b``."""
    s = re.sub(r"\\[,;:! ]|\\quad|\\qquad|\\left|\\right|\s+", "", latex).replace(r"\ast", "*")
    s = re.sub(r"_" + _GROUP + r"\^" + _GROUP, r"^\2_\1", s)
    return s.replace("{", "").replace("}", "")


def heads(latex: str) -> list[str]:
    """The symbols math names before its first relation; a tuple ``(a, b)`` names its entries."""
    head = re.split(r"=|<|>|\\in(?![A-Za-z])|\\[lg]eq?(?![A-Za-z])", norm(latex))[0]
    items = head[1:-1].split(",") if head[:1] + head[-1:] == "()" else [head]
    return items if all(_SYMBOL.fullmatch(s) for s in items) else []


def defined_symbols(title: str, body: str) -> list[str]:
    """The symbols a definition with this title and body introduces, by the rules above."""
    found = [s for m in math_spans(title) for s in heads(m)]
    text = re.sub(r"`[^`]*`", " ", body)  # (a definition holds no fenced code)
    for term, after in re.findall(r"(?<![\w*])\*{1,2}(\S[^*]*?)\*{1,2}(?![\w*])[ \t\n]*"
                                  r"(\$[^$]+\$)?", text):
        found += [s for m in math_spans(term + (after or "")) for s in heads(m)]
    for before in re.findall(r"(\$[^$]+\$)\s+(?:is|are)\s+(?:called\s+)?(?:a|an|the)\s+\*", text):
        found += heads(before[1:-1])
    found += [s for s in map(equation_symbol, math_spans(text)) if s]
    return list(dict.fromkeys(found))


def equation_symbol(latex: str) -> str | None:
    """The symbol an equation ``symbol = expression`` defines; None for ``w_0 = 0`` and others."""
    left, eq, right = norm(latex).partition("=")
    return left if right and _SYMBOL.fullmatch(left) and not _NUMBER.fullmatch(right) else None


def definitions(text: str) -> list[tuple[str, list[str]]]:
    """(label, symbols) of each ``prf:definition`` of a markdown text."""
    return [(re.search(r"^:label:\s*(\S+)", body, re.M)[1], defined_symbols(title, body))
            for _, title, body in _DEFINITION.findall(text)]


def table_rows(page: str) -> list[list[str]]:
    """The body rows of the first table after the heading, as lists of cells."""
    after = page.split("\n" + TABLE_HEADING + "\n", 1)[1]
    table = re.search(r"(?m)(^\|.*\n)+", after)[0].splitlines()[2:]
    return [[c.strip() for c in re.split(r"(?<!\\)\|", row.strip())[1:-1]] for row in table]


def table_symbols(page: str) -> list[str]:
    return [norm(m) for row in table_rows(page) for m in math_spans(row[0])]


def missing_symbols(texts: list[str], page: str) -> list[str]:
    listed = set(table_symbols(page))
    return [f"{label}: ${s}$" for text in texts for label, syms in definitions(text)
            for s in syms if s not in listed]


# The page and the chapters, checked

PAGE = NOTATION.read_text(encoding="utf-8")
SYNTHETIC = r"""
```{prf:definition} The spread $\sigma \in \mathbb{R}$
:label: syn-def-spread

The *spread* is $\sigma = \max_i \|x_i - x_1\|$, the *shift* $\xi_k > 0$ and $v^\dagger$ is a
**centre**, in *$(\kappa, \mu)$-stable* data. Not $\zeta$, $w_0 = 0$, $\|u\| = 1$,
$\tau = \tfrac12$, *term* of $x$, `$N = x$` (code).

$$
\Omega_{a,b}(x, y) \;=\; \frac{y\,(a \cdot x + b)}{\|a\|}
$$
```
"""


def test_the_extractor_finds_each_rule_and_no_more():
    assert definitions(SYNTHETIC) == [("syn-def-spread", [
        r"\sigma", r"\xi_k", r"\kappa", r"\mu", r"v^\dagger", r"\Omega_a,b(x,y)"])]
    assert norm(r"\gamma_{b}^{\ast}") == norm(r"\gamma^* _b") == r"\gamma^*_b"
    assert equation_symbol(r"T = 2R^2/\gamma") == "T" and equation_symbol("T = 50") is None


def test_the_check_fails_on_a_symbol_missing_from_the_table():
    chapter = markdown_cells(BOOK / "margin.ipynb")
    assert not missing_symbols(chapter, PAGE)
    extra = "```{prf:definition} Width\n:label: mgn-def-width\n\n$W_b = 2\\gamma^*_b$.\n```\n"
    assert missing_symbols(chapter + [extra], PAGE) == ["mgn-def-width: $W_b$"]
    listed = PAGE.replace("| $\\Lambda$ |", "| $W_{b}$ | the width |\n| $\\Lambda$ |")
    assert not missing_symbols(chapter + [extra], listed)
    twice = PAGE.replace("| $\\Lambda$ |", "| $\\gamma^*_{b}$ | twice |\n| $\\Lambda$ |")
    assert len(table_symbols(twice)) == len(set(table_symbols(twice))) + 1


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_defined_symbol_is_in_the_table(chapter):
    assert not missing_symbols(markdown_cells(chapter), PAGE), f"add a row to {TABLE_HEADING}"


def test_the_chapters_define_symbols_and_the_table_lists_each_once():
    defs = [d for nb in CHAPTERS for cell in markdown_cells(nb) for d in definitions(cell)]
    assert len(defs) >= 10 and sum(len(syms) for _, syms in defs) >= 12
    syms = table_symbols(PAGE)
    assert len(syms) >= 40 and all(_SYMBOL.fullmatch(s) for s in syms), syms
    assert not {s for s in syms if syms.count(s) > 1}, "a symbol with two rows (two meanings)"


def test_the_table_rows_are_well_formed_and_first_in_a_chapter_that_writes_them():
    chapter = {label: nb for nb in CHAPTERS for cell in markdown_cells(nb)
               for label in re.findall(r"^\((chapter-[\w-]+)\)=\s*$", cell, re.M)}
    for row in table_rows(PAGE):
        assert len(row) == 3 and r"\|" not in "".join(row), f"3 cells, no \\| (use \\lVert): {row}"
        nb = chapter[re.search(r"\{ref\}`(chapter-[\w-]+)`", row[2])[1]]
        math = " ".join(norm(m) for cell in markdown_cells(nb) for m in math_spans(cell))
        for s in map(norm, math_spans(row[0])):
            assert re.search(r"(?<![A-Za-z\\])" + re.escape(s) + "(?![A-Za-z])", math), (s, nb.stem)


@pytest.mark.parametrize("path", [NOTATION, *CHAPTERS], ids=lambda p: p.stem)
def test_the_chapters_follow_the_pages_conventions(path):
    """\\epsilon only quoting the mistake-bound notes (the book's letter is \\varepsilon); x'
    for the augmented point, not a tilde; T only the number of epochs, never set equal to an
    expression (a threshold or a length is another letter)."""
    cells = [PAGE] if path == NOTATION else markdown_cells(path)
    parts = [p for c in cells for par in re.split(r"\n\s*\n", c)
             for p in (par.splitlines() if par.lstrip().startswith("|") else [par])]
    assert not [p for p in parts if r"\epsilon" in p and "mistake-bound notes" not in p]
    spans = [re.sub(r"\\text\{[^{}]*\}", " ", m) for c in cells for m in math_spans(c)]
    assert not [m for m in spans if re.search(r"\\(?:wide)?tilde\s*\{?\s*[xw]\b", m)]
    setting_t = [m for m in spans if "T" in map(equation_symbol, re.split(r",|;|\\quad", m))]
    assert not setting_t, setting_t


def test_the_worked_example_of_the_mistake_bound_notes():
    """Norms at most 2, a separator of length 3 with functional margin 1/2: the notes' form and
    (R/gamma)^2 with gamma = (1/2)/3 give the same bound, the 144 the page states."""
    from perceptron_core import novikoff_bound, unnormalized_bound

    assert unnormalized_bound(2.0, [3.0, 0.0], 0.5) == pytest.approx(144.0, rel=1e-12)
    assert novikoff_bound(2.0, 0.5 / 3.0) == pytest.approx(144.0, rel=1e-12)
    assert "= 144$: at most $144$ mistakes" in PAGE
