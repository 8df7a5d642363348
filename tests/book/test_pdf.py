"""`make pdf`: a PDF per chapter, and the whole book, printed by headless Chromium from the built
book (``_build/html``, or ``BOOK_HTML_DIR``): its title, its theorems' text, the sliders' captions,
and no solutions or navigation. Needs Chromium, and reads the PDFs with pypdf; runs with the
browser tests, after ``make book``."""

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
from chapters import chapter_paths  # book/_tools (tests/conftest.py puts it on sys.path)

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
def _pdf_text(path: Path) -> str:
    """The text of every page, in order (two tests read each chapter; pypdf takes ~0.1 s a page)."""
    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


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
    assert counts["book"] == sum(v for d, v in counts.items() if d != "book")
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
