"""Print the built book to PDF handouts with headless Chromium: one PDF per page, and the book.

Usage::

    .venv/bin/python book/_tools/print_pdf.py [HTML_DIR] [OUT_DIR]

``HTML_DIR`` defaults to ``_build/html`` (``make book``), ``OUT_DIR`` to ``_build/pdf``. Each page
of the table of contents (``_toc.yml``, in order) is opened from a local server, MathJax is
waited for (``MathJax.startup.promise``) so the math is typeset, a display equation wider than
the text column is set smaller to fit it (``book/_static/overflow.js``, as in a reader's own
print), every static slider prints its picture's alt text as a caption (in its own markup), and
Chromium prints the page with the print stylesheet
(``book/_static/print.css``: no navigation, no dropdown solutions, nothing for the screen only,
the playgrounds as they open, code and output wrapped at the margin, a code cell's box whole).

The handouts are for students: ``OUT_DIR`` holds a PDF per page but the instructor guide
(``chapters.GUIDE``, which says which exercises to assign and how to build the solutions), and
``OUT_DIR/book.pdf`` is those pages in order, joined with pypdf (a Python package: no
poppler-utils needed). The guide is printed on its own, to ``OUT_DIR/instructor/``; a student
edition's build (``make exercises``) has no guide, and then nothing is printed there.

Jupyter Book's own PDF route goes through LaTeX and would need TeX Live; this one needs only the
Chromium the browser tests already use (``CHROMIUM``, default ``/usr/bin/chromium``).
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
import time
from pathlib import Path

import yaml

from chapters import GUIDE  # book/_tools, this file's folder

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
BOOK_PDF = "book.pdf"
#: The folder of ``OUT_DIR`` that holds the instructor guide's PDF, away from the handouts.
INSTRUCTOR_DIR = "instructor"

# Typeset the math, then fit the display math to the printed column as a reader's own print
# does (book/_static/overflow.js, on "beforeprint", which printing to PDF here does not fire).
# Each slider's caption, its picture's alt text, is in the slider's own markup.
_PREPARE = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  if (!window.pcPrepareForPrint) {
    throw new Error('book/_static/overflow.js is not on the page: rebuild the book');
  }
  window.pcPrepareForPrint();
  await Promise.all([...document.images].map(i => i.complete ? null :
    new Promise(r => { i.onload = i.onerror = r; })));
  return {
    untypeset: [...document.querySelectorAll('.math')]
      .filter(m => !m.querySelector('mjx-container')).length,
    sliders: document.querySelectorAll('div.pc-explore').length,
  };
}"""


def toc_pages() -> list[str]:
    """The book's pages in reading order, as docnames (``book/intro``, ``book/first_look``, ...)."""
    toc = yaml.safe_load((REPO / "_toc.yml").read_text(encoding="utf-8"))
    pages = [toc["root"]]
    for part in toc.get("parts", []):
        pages += [entry["file"] for entry in part.get("chapters", [])]
    return [p.removesuffix(".md").removesuffix(".ipynb") for p in pages]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def print_book(html_dir: Path, out_dir: Path) -> dict[str, Path]:
    """Print every page of the table of contents, and the whole book.

    Parameters
    ----------
    html_dir : Path
        A built book (its ``index.html`` and ``book/<page>.html``).
    out_dir : Path
        Where the handouts go: ``<page>.pdf`` for each page but the instructor guide, and
        ``book.pdf``; the guide goes to ``out_dir/instructor/``.

    Returns
    -------
    dict of str to Path
        The PDFs by docname (``"book/margin"``), the guide's included when the build has it, and
        the whole book under ``"book"``.
    """
    from playwright.sync_api import sync_playwright

    if not (html_dir / "index.html").exists():
        raise SystemExit(f"No built book at {html_dir}: run `make book` first.")
    if not CHROMIUM.exists():
        raise SystemExit(f"Chromium not found at {CHROMIUM}: apt-get install chromium, or set CHROMIUM=.")
    out_dir.mkdir(parents=True, exist_ok=True)
    # A handout folder printed before the guide had its own folder would still hold it.
    (out_dir / (Path(GUIDE).name + ".pdf")).unlink(missing_ok=True)
    # Each page with the PDF it prints to, the guide apart (a student edition has no guide).
    targets: dict[str, Path] = {}
    for docname in toc_pages():
        if docname == GUIDE and not (html_dir / f"{GUIDE}.html").exists():
            continue
        folder = out_dir / INSTRUCTOR_DIR if docname == GUIDE else out_dir
        folder.mkdir(exist_ok=True)
        targets[docname] = folder / (Path(docname).name + ".pdf")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(html_dir)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    pdfs: dict[str, Path] = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page()
            # Nothing leaves the machine: the book is self-contained, MathJax included.
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base)
                       or route.request.url.startswith("data:") else route.abort())
            page.emulate_media(media="print")
            for docname, target in targets.items():
                start = time.perf_counter()
                page.goto(base + docname + ".html", wait_until="load")
                state = page.evaluate(_PREPARE)
                if state["untypeset"]:
                    raise SystemExit(f"{docname}: {state['untypeset']} equations were not typeset.")
                title = page.title().split("\u2014")[0].split(" - ")[0].strip()
                page.pdf(path=str(target), format="A4", print_background=False,
                         display_header_footer=True,
                         header_template="<span></span>",
                         footer_template=('<div style="font-size:8pt;width:100%;text-align:center">'
                                          f'{_escape(title)} \u00b7 <span class="pageNumber"></span>'
                                          "</div>"),
                         margin={"top": "14mm", "bottom": "16mm", "left": "14mm", "right": "14mm"})
                pdfs[docname] = target
                print(f"{target.relative_to(REPO) if target.is_relative_to(REPO) else target}: "
                      f"{pages_in(target)} pages, {state['sliders']} slider(s), "
                      f"{time.perf_counter() - start:.1f} s")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    book = out_dir / BOOK_PDF
    join_pdfs([path for docname, path in pdfs.items() if docname != GUIDE], book)
    pdfs["book"] = book
    print(f"{book}: {pages_in(book)} pages")
    return pdfs


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def join_pdfs(parts: list[Path], target: Path) -> None:
    """Write the pages of ``parts``, in order, to ``target`` as one PDF."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(part)
    with open(target, "wb") as out:
        writer.write(out)


def pages_in(pdf: Path) -> int:
    """The number of pages of ``pdf``."""
    from pypdf import PdfReader

    return len(PdfReader(pdf).pages)


def main(argv: list[str]) -> None:
    html_dir = Path(argv[1]) if len(argv) > 1 else REPO / "_build" / "html"
    out_dir = Path(argv[2]) if len(argv) > 2 else REPO / "_build" / "pdf"
    print_book(html_dir.resolve(), out_dir.resolve())


if __name__ == "__main__":
    main(sys.argv)
