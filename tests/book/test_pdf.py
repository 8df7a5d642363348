"""`make pdf`: a PDF per chapter, and the whole book, printed by headless Chromium from the built
book (``_build/html``, or ``BOOK_HTML_DIR``): its title, its theorems' text, the sliders' captions,
every line of its code and output whole, and no solutions or navigation; the handouts without
the instructor guide, which is printed apart. Needs Chromium, and reads the PDFs with pypdf; runs
with the browser tests, after ``make book``."""

from __future__ import annotations

import functools
import html as html_lib
import importlib.util
import json
import os
import re
import sys
import time
from pathlib import Path

import pytest
from chapters import GUIDE, chapter_paths  # book/_tools (tests/conftest.py puts it on sys.path)
from conftest import is_hidden

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
BOOK = REPO / "book"
HTML_DIR = Path(os.environ.get("BOOK_HTML_DIR", REPO / "_build" / "html"))
THEOREM_KINDS = ("theorem", "lemma", "proposition", "corollary")
LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}


def _print_pdf():
    spec = importlib.util.spec_from_file_location("print_pdf", BOOK / "_tools" / "print_pdf.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["print_pdf"] = module
    spec.loader.exec_module(module)
    return module


def _words(text: str) -> str:
    """Text for comparison: hyphenation at line ends undone, whitespace collapsed, quotes and
    ligatures (pypdf keeps the font's ff, fi, fl, ffi, ffl glyphs) unified."""
    text = re.sub(r"-\n(?=[a-z])", "", text)
    text = text.replace("\u2019", "'")
    for ligature, letters in LIGATURES.items():
        text = text.replace(ligature, letters)
    return " ".join(text.split())


@pytest.fixture(scope="session")
def pdfs(once_per_run):
    """Every page and the whole book printed once (shared by the test processes)."""
    if not (HTML_DIR / "index.html").exists():
        pytest.fail(f"No built book at {HTML_DIR}: run `make book` first (or set BOOK_HTML_DIR).")

    def print_all(out: Path) -> dict[str, Path]:
        start = time.perf_counter()
        printed = _print_pdf().print_book(HTML_DIR, out)
        print(f"printed {len(printed)} PDFs in {time.perf_counter() - start:.0f} s")
        return printed

    return once_per_run("pdf", print_all)


@functools.lru_cache(maxsize=None)
def _pdf_pages(path: Path) -> tuple[str, ...]:
    """The text of each page, in order (three tests read each chapter; pypdf takes ~0.1 s a
    page)."""
    from pypdf import PdfReader

    return tuple(page.extract_text() for page in PdfReader(path).pages)


def _pdf_text(path: Path) -> str:
    """The text of every page, in order."""
    return "\n".join(_pdf_pages(path))


def _chapters() -> list[str]:
    """The chapters' docnames (``book/first_look``), from the one list of chapters."""
    return [p.relative_to(REPO).with_suffix("").as_posix() for p in chapter_paths()]


def _theorems(name: str) -> list[tuple[str, str]]:
    """(title, a run of plain words from the statement) for each theorem-like block."""
    nb = json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))
    md = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    found = []
    pattern = r"^(`{3,})\{prf:(" + "|".join(THEOREM_KINDS) + r")\}([^\n]*)\n(.*?)^\1"
    for m in re.finditer(pattern, md, re.M | re.S):
        title = m.group(3).strip()
        body = "\n".join(line for line in m.group(4).splitlines() if not line.startswith(":"))
        body = re.sub(r"\$\$.*?\$\$|\$[^$]*\$|\{[a-z:]+\}`[^`]*`|`[^`]*`|\*", " @ ", body, flags=re.S)
        runs = re.findall(r"(?:[A-Za-z][a-z']*,? ){4,}[A-Za-z][a-z']*", " ".join(body.split()))
        plain = max(runs, key=len) if runs else ""
        if "$" in title or "`" in title:
            title = ""
        found.append((title, plain))
    return found


def test_a_pdf_per_page_and_the_book(pdfs):
    pp = _print_pdf()
    for docname in pp.toc_pages():
        assert pdfs[docname].is_file() and pdfs[docname].stat().st_size > 10_000, docname
    counts = {d: pp.pages_in(p) for d, p in pdfs.items()}
    print("pages:", counts)
    # The book is the students': every page but the instructor guide.
    assert counts["book"] == sum(v for d, v in counts.items() if d not in ("book", GUIDE))
    assert all(v >= 1 for v in counts.values())


@pytest.mark.parametrize("docname", _chapters())
def test_chapter_pdf_has_its_title_and_theorems(docname, pdfs):
    text = _words(_pdf_text(pdfs[docname]))
    nb = json.loads((REPO / f"{docname}.ipynb").read_text(encoding="utf-8"))
    title = re.search(r"^# (.+)$", "".join(nb["cells"][0]["source"]), re.M).group(1).strip()
    assert title in text
    for theorem_title, plain in _theorems(Path(docname).name):
        if theorem_title:
            assert _words(theorem_title) in text, (docname, theorem_title)
        if plain:
            assert plain in text, (docname, plain)
    # Typeset: no TeX source left; navigation hidden: the sidebar's other entries are not printed.
    assert "\\frac" not in text and "\\gamma" not in text and "\\(" not in text
    assert "Instructor guide" not in text


@pytest.mark.parametrize("docname", _chapters())
def test_sliders_print_with_captions_and_solutions_do_not(docname, pdfs):
    text = _words(_pdf_text(pdfs[docname]))
    page = (HTML_DIR / f"{docname}.html").read_text(encoding="utf-8")
    alts = [html_lib.unescape(a) for a in re.findall(r'<img class="pc-explore-img" src="[^"]*" alt="([^"]*)"', page)]
    for alt in alts:
        assert _words(alt) in text, (docname, alt)
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/book, beside this file
    try:
        from test_student_edition import solution_parts
    finally:
        sys.path.pop(0)
    phrases, codes = solution_parts(json.loads((REPO / f"{docname}.ipynb").read_text(encoding="utf-8")))
    page_text = " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    shown = [p for p in phrases if p in page_text]  # in the page, inside a dropdown
    assert shown, docname
    for phrase in shown:
        assert phrase not in text, (docname, phrase)
    for line in codes:
        assert line not in text, (docname, line)


# ------------------------------------------------------------------ code and output, uncut


def _squashed(text: str) -> str:
    """Text with every space and line break taken out, and ligatures spelt out: printing wraps a
    long line where it likes, and pypdf's spacing within a line varies."""
    for ligature, letters in LIGATURES.items():
        text = text.replace(ligature, letters)
    return "".join(text.split())


def _printed_code_lines(nb: dict) -> list[str]:
    """The non-blank lines of the code cells a printed page shows: not those whose input is
    removed or folded away (remove-cell, remove-input, hide-input), nor those between a
    ``{solution-start}`` and its ``{solution-end}``, which are in a dropdown that print.css leaves
    out (test_sliders_print_with_captions_and_solutions_do_not checks they are not printed)."""
    lines, in_solution = [], False
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code":
            if not in_solution and not is_hidden(cell):
                lines += [line for line in source.splitlines() if line.strip()]
            continue
        for m in re.finditer(r"^(?:`{3,}|:{3,})\{solution-(start|end)\}", source, re.M):
            in_solution = m.group(1) == "start"
    return lines


def _printed_output_lines(docname: str) -> list[str]:
    """The lines of each ``pre`` in a ``div.cell_output`` of the built page, but those in a
    solution's dropdown: the outputs as printed (the notebooks in the repository hold none)."""
    from bs4 import BeautifulSoup

    page = BeautifulSoup((HTML_DIR / f"{docname}.html").read_text(encoding="utf-8"), "html.parser")
    return [line for pre in page.select("div.cell_output pre")
            if not pre.find_parent(class_="solution")
            for line in pre.get_text().splitlines() if line.strip()]


@pytest.mark.parametrize("docname", _chapters())
def test_code_and_output_lines_are_printed_whole(docname, pdfs):
    # No line is left out of the check. Each page's last line, its footer ("Margin · 3"), is taken
    # out: an output line that wraps across a page break is printed whole, around it.
    pages = [re.sub(r"\n[^\n]* \u00b7 \d+\s*$", "", page) for page in _pdf_pages(pdfs[docname])]
    printed = _squashed("\n".join(pages))
    nb = json.loads((REPO / f"{docname}.ipynb").read_text(encoding="utf-8"))
    code, output = _printed_code_lines(nb), _printed_output_lines(docname)
    print(f"{docname}: {len(code)} code lines, {len(output)} output lines")
    assert code, f"{docname}: no code shown on the page?"
    for kind, lines in (("code", code), ("output", output)):
        cut = [line for line in lines if _squashed(line) not in printed]
        assert not cut, (f"{docname}.pdf: {len(cut)} {kind} line(s) not printed whole (cut at "
                         f"the margin?), the first: {cut[0]!r}")


# ------------------------------------------------------------------------- the instructor guide


def test_handouts_leave_out_the_instructor_guide(pdfs):
    pp = _print_pdf()
    handout_dir = pdfs["book"].parent
    guide = pdfs[GUIDE]
    assert guide == handout_dir / pp.INSTRUCTOR_DIR / f"{Path(GUIDE).name}.pdf" and guide.is_file()
    expected = {f"{Path(d).name}.pdf" for d in pp.toc_pages() if d != GUIDE} | {pp.BOOK_PDF}
    assert {p.name for p in handout_dir.glob("*.pdf")} == expected
    # The guide's footer (its title, then the page number) and its opening sentence: in its own
    # PDF, in no handout.
    source = (REPO / f"{GUIDE}.md").read_text(encoding="utf-8")
    title = re.search(r"^# (.+)$", source, re.M).group(1).strip()
    opening = _words(re.search(r"^[A-Z][^#\n].*?\.(?=\s)", source, re.M | re.S).group(0))
    guide_text = _words(_pdf_text(guide))
    assert f"{title} \u00b7 1" in guide_text and opening in guide_text
    book = _words(_pdf_text(pdfs["book"]))
    assert f"{title} \u00b7" not in book and opening not in book
    # Nor does the book speak of what a handout lacks (the intro's note for instructors is for
    # the screen, and its contents leave the guide out), or ask for a slider it prints as one
    # picture; the playground says where it runs.
    lacks = re.compile(r"instructor|dropdown|make exercises|(?:move|drag) the slider", re.I)
    assert not lacks.search(book), lacks.search(book).group(0)
    playgrounds = sum((HTML_DIR / f"{d}.html").read_text(encoding="utf-8").count('class="pc-playground"')
                      for d in _chapters())
    assert book.count("as it opens (it runs in the book's web pages and in Jupyter)") == playgrounds > 0
