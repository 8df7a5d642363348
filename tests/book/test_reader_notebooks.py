"""The reader notebooks: every chapter as a notebook that reads like its page in any Jupyter.

The fast tests convert small notebooks and the real chapters with made-up numbers: every MyST
construct the chapters use has a plain-Markdown form, and what is unknown fails loudly. The
tests marked ``notebooks`` read the reader notebooks a book build wrote (``make test`` runs them
after ``make book``) and compare them with the built pages: no MyST left, and every number the
page shows appears in the notebook, in the page's order. That they run, outside the repository on
the installed wheel, is ``make test-lowest``'s part (tests/tools/run_chapters_outside.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from chapters import chapter_names  # book/_tools (tests/conftest.py puts it on sys.path)
from conftest import made_up_book
from reader_notebooks import (BOOK_ONLY_TAG, INSTALL_TAG, VERSION, WHEEL, WHEEL_PATH, Book, Target,
                              citations, glued_values, install_cell, install_spec, page_numbers,
                              reader_notebook)
from sphinx_extension import site_url, strip_solutions

REPO = Path(__file__).resolve().parents[2]
BOOK = REPO / "book"
SAMPLE_URL = "https://github.com/example-org/perceptron-book"
# The build whose reader notebooks the `notebooks` tests read.
HTML_DIR = Path(os.environ.get("BOOK_HTML_DIR", REPO / "_build" / "html"))
# Left in Markdown, each of these is raw MyST to a reader of plain Jupyter or Colab.
RAW_MYST = re.compile(r"^\s*(`{3,}|:{3,})\{|\{(glue|glue:text|ref|prf:ref|numref|doc|cite:[tp]|"
                      r"eq|math)\}`|^\([\w:.-]+\)=\s*$", re.M)


def _md(source: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": source}


def _code(source: str, *tags: str) -> dict:
    return {"cell_type": "code", "metadata": {"tags": list(tags)}, "outputs": [{"x": 1}],
            "execution_count": 3, "source": source}


def _book(**glued: str) -> Book:
    return Book(glued=glued, format_glued=lambda text, spec: format(float(text), spec) if spec
                else text,
                numbers={"t-main": "Theorem 4", "ex-a": "Exercise 12", "ex-b": "Exercise 13"},
                targets={"t-main": Target("Theorem 4", "https://b.io/book/c.html#t-main"),
                         "sec": Target("The statement", "https://b.io/book/c.html#sec"),
                         "ex-a": Target("Exercise 12", "")},
                cite=citations([str(BOOK / "references.bib")], "https://b.io/book/references.html"))


NOTEBOOK = {"metadata": {"kernelspec": {"name": "other"}}, "nbformat": 4, "nbformat_minor": 5,
            "cells": [
    _md("(sec)=\n# T\n\nDue to {cite:t}`block1962`, see {cite:p}`ngcs229,balcan2015`.\n\n"
        "```{prf:theorem} Block–Novikoff\n:label: t-main\n\nAt most $(R/\\gamma)^2$.\n```\n\n"
        "```{prf:proof}\nSqueeze.\n```"),
    _code("# old install cell", "remove-cell", INSTALL_TAG),
    _code("x = 1"),
    _code("glue_numbers('c', m=3)", "remove-input"),
    _md("It made {glue:text}`c-m` mistakes, ratio {glue:text}`c-r:.3f`; by {prf:ref}`t-main` "
        "and {ref}`the first section <sec>`, {ref}`sec`."),
    _md("```{exercise}\n:label: ex-a\n\nDo A with {glue:text}`c-m`.\n```\n\n"
        "```{solution} ex-a\n:class: dropdown\n\nAnswer A, see {prf:ref}`ex-a`, or "
        "{ref}`the one above <ex-a>` or {ref}`an exercise <ex-a>`.\n```"),
    _md("````{exercise} Hard\n:label: ex-b\n\nDo B.\n````\n\n````{solution-start} ex-b\n"
        ":class: dropdown\n````\n\nText B."),
    _code("answer_b = 2"),
    _md("````{solution-end}\n````\n\nAfter.\n\n```{admonition} How the notes say it\n"
        ":class: pc-sources\n\n- **UML** writes $w$.\n- Balcan too.\n```"),
]}


def _markdown(nb: dict) -> str:
    return "\n\n".join(c["source"] for c in nb["cells"] if c["cell_type"] == "markdown")


def test_directives_roles_and_numbers_become_plain_markdown():
    book = _book(**{"c-m": "3", "c-r": "0.12345"})
    out = reader_notebook(NOTEBOOK, book, repository_url=SAMPLE_URL)
    text = _markdown(out)
    assert not RAW_MYST.search(text), RAW_MYST.search(text)
    for shown in ("**Theorem 4 (Block–Novikoff).**", "*Proof.*", "∎", "### Exercise 12",
                  "### Exercise 13 (Hard)", "**Solution to Exercise 12.**",
                  "**Solution to Exercise 13.**", "It made 3 mistakes, ratio 0.123;",
                  "by [Theorem 4](https://b.io/book/c.html#t-main)",
                  "[the first section](https://b.io/book/c.html#sec), "
                  "[The statement](https://b.io/book/c.html#sec).", "Do A with 3.",
                  "Answer A, see Exercise 12, or the one above (Exercise 12) or Exercise 12.",
                  "$(R/\\gamma)^2$", "Text B.", "After.",
                  "> **How the notes say it**\n>\n> - **UML** writes $w$.\n> - Balcan too.",
                  "[Block \\[1962\\]](https://b.io/book/references.html)",
                  "[\\[Ng, n.d.; Balcan, 2015\\]](https://b.io/book/references.html)"):
        assert shown in text, shown
    assert book.used_glue == {"c-m", "c-r"}
    # The code: the install cell first (written anew), then the chapter's cells, no outputs;
    # the solution's code is shown under its title, as Markdown: Run All does not run it.
    code = [c for c in out["cells"] if c["cell_type"] == "code"]
    assert [c["source"] for c in code[1:]] == ["x = 1", "glue_numbers('c', m=3)"]
    assert INSTALL_TAG in code[0]["metadata"]["tags"] and "git+" + SAMPLE_URL in code[0]["source"]
    sources = [c["source"] for c in out["cells"]]
    solution = next(i for i, t in enumerate(sources) if "**Solution to Exercise 13.**" in t)
    assert sources[solution + 1] == "```python\nanswer_b = 2\n```"
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    assert code[2]["metadata"] == {"jupyter": {"source_hidden": True}}  # plumbing, collapsed
    assert out["metadata"]["kernelspec"]["name"] == "python3"
    assert NOTEBOOK["cells"][1]["source"] == "# old install cell"  # the input is not changed


def test_inline_math_loses_the_spaces_inside_its_dollars():
    """VS Code's renderer shows `$x = $` as TeX; display math and control spaces stay."""
    from reader_notebooks import tight_math

    assert tight_math("$\\gamma = $ 0.1, $ a $") == "$\\gamma =$ 0.1, $a$"
    assert tight_math("$a\\ $ and $b$") == "$a\\ $ and $b$"
    assert tight_math("$$\n x = \n$$ then $x\n y $") == "$$\n x = \n$$ then $x\n y$"
    with pytest.raises(ValueError, match="unpaired"):
        tight_math("costs $5 and $x$")


def test_the_student_version_must_come_stripped():
    from sphinx_extension import strip_solutions

    book = _book(**{"c-m": "3", "c-r": "0.5"})
    out = reader_notebook(strip_solutions(NOTEBOOK), book, repository_url="", solutions=False)
    text = json.dumps(out)
    assert "Solution" not in text and "Answer A" not in text and "answer_b" not in text
    assert "### Exercise 13 (Hard)" in _markdown(out)
    with pytest.raises(ValueError, match="stripped"):
        reader_notebook(NOTEBOOK, book, repository_url="", solutions=False)


@pytest.mark.parametrize("source, error", [
    ("```{figure} x.png\n```", "directive \\{figure\\} has no plain-Markdown form"),
    ("{term}`perceptron`", "role \\{term\\} has no plain-Markdown form"),
    ("{glue:text}`nope`", "nothing is glued as 'nope'"),
    ("{prf:ref}`nope`", "no label 'nope'"),
    ("{cite:p}`nope2000`", "bibliography lacks"),
    ("```{prf:lemma} L\nno label\n```", "without a :label:"),
    ("```{prf:lemma} L\n:label: unnumbered\n```", "no number on the page"),
    ("```{exercise}\n:label: ex-a\nnot closed", "not closed"),
    ("```{solution} ex-z\n```", "not an exercise above it"),
])
def test_unknown_or_broken_myst_fails_loudly(source, error):
    nb = {"metadata": {}, "cells": [_md(source)]}
    with pytest.raises(ValueError, match=error):
        reader_notebook(nb, _book(), repository_url="")


@pytest.mark.parametrize("name", chapter_names())
def test_every_chapter_converts_with_every_construct_known(name):
    """Made-up numbers and targets for every label and glued name the chapter uses: what fails
    here is MyST the converter does not know."""
    nb = json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    glued = set(re.findall(r"\{glue:text\}`([^`:]+)", source))
    book = made_up_book(nb)  # myst-nb's own formatting is what the built notebooks are checked with, below
    out = reader_notebook(nb, book, repository_url="")
    text = _markdown(out)
    assert not RAW_MYST.search(text), (name, RAW_MYST.search(text))
    assert text.count("### Box ") == source.count("{exercise}")
    assert book.used_glue == glued
    # Run All runs the same code in both editions: the student edition's, without solutions.
    kept = ["".join(c["source"]) for c in strip_solutions(nb)["cells"] if c["cell_type"] == "code"
            and BOOK_ONLY_TAG not in c["metadata"].get("tags", [])]
    assert [c["source"] for c in out["cells"] if c["cell_type"] == "code"][1:] == kept
    # A cell that only glues numbers for the prose is the book's plumbing, not the student's:
    # tagged book-only, it is left out of the notebook.
    assert not [c for c in kept if re.search(r"\bglue(_numbers)?\(", c)], name


def test_glued_values_read_hidden_and_shown_outputs():
    executed = {"cells": [{"cell_type": "code", "outputs": [
        {"output_type": "display_data", "metadata": {"scrapbook": {
            "name": "a", "mime_prefix": "application/papermill.record/"}},
         "data": {"application/papermill.record/text/plain": "0.25"}},
        {"output_type": "display_data", "metadata": {"scrapbook": {"name": "b"}},
         "data": {"text/plain": ["'x'"]}},
        {"output_type": "stream", "text": "not glued"}]}]}
    assert glued_values(executed) == {"a": "0.25", "b": "'x'"}


def test_page_numbers_are_read_from_the_boxes_titles():
    page = ('<div class="proof theorem admonition" id="t1"><p class="admonition-title">'
            '<span class="caption-number">Theorem 4 </span> (B)</p></div>'
            '<div class="exercise admonition" id="e1"><p class="admonition-title">'
            '<span class="caption-number">Exercise\n12 </span></p></div>'
            '<div class="admonition note" id="n"><p class="admonition-title">Note</p></div>')
    assert page_numbers(page) == {"t1": "Theorem 4", "e1": "Exercise 12"}


# --------------------------------------------------------------------- the install cell


def test_install_spec_comes_from_the_one_url():
    assert install_spec("") == install_spec("  ") == ""
    expected = f"perceptron_core[book] @ git+{SAMPLE_URL}"
    assert install_spec(SAMPLE_URL) == install_spec(SAMPLE_URL + ".git/") == expected


def test_book_only_cells_are_left_out_and_nothing_later_may_need_them():
    nb = {"metadata": {}, "cells": [
        _code("import math\ntry:\n    from glue_numbers import glue_numbers\nexcept ImportError:\n"
              "    pass\nfrom perceptron_core.figures import explore\nimport sklearn.svm as svm"),
        _code("slow = 34", BOOK_ONLY_TAG), _code("def f(slow):\n    return slow\nprint(f(2))")]}
    out = reader_notebook(nb, _book(), repository_url="")
    code = [c["source"] for c in out["cells"] if c["cell_type"] == "code"]
    assert code[1:] == [nb["cells"][0]["source"], nb["cells"][2]["source"]]
    # What the cells import at their top level, and the book extra: not the stdlib, nor an
    # import that may fail (the glue's, in a try).
    needed = re.search(r"^NEEDED = \[(.*?)\]", code[0], re.M | re.S).group(1)
    assert re.findall(r'"([\w.]+)"', needed) == ["PIL", "anywidget", "ipywidgets", "matplotlib",
                                                 "numba", "perceptron_core.figures", "sklearn",
                                                 "sklearn.svm"]
    nb["cells"].append(_code("print(slow + 1)"))
    with pytest.raises(ValueError, match="reads slow, which only cells the reader notebook leaves"):
        reader_notebook(nb, _book(), repository_url="")
    nb["cells"].insert(3, _code("slow = 1"))  # defined again where it runs: fine
    reader_notebook(nb, _book(), repository_url="")


# The install cell runs in a subprocess, in a folder of its own, with pip replaced by a fake
# that records what it was asked to install and answers with the next return code of CODES
# (on 0 it installs the book's version into SITE, as pip would; -1: returns 0 but installs
# nothing, as an install of another version would); SITE, a folder of fake installed packages,
# is on sys.path, and no site-packages (python -S) is. Nothing reaches a network.
_HARNESS = """
import json, pathlib, shutil, subprocess, sys
calls, codes = [], iter(CODES)
def fake_run(args, **kwargs):
    calls.append(args)
    code = next(codes)
    if code == 0:
        site = pathlib.Path(SITE)
        for old in site.glob("perceptron_core*"):
            shutil.rmtree(old)
        (site / "perceptron_core" / "figures").mkdir(parents=True)
        (site / "perceptron_core" / "__init__.py").write_text("NEW = True")
        (site / "perceptron_core" / "figures" / "__init__.py").write_text("")
        info = site / f"perceptron_core-{VERSION}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\\nName: perceptron_core\\n"
                                       f"Version: {VERSION}\\n")
    return subprocess.CompletedProcess(args, max(code, 0))
subprocess.run = fake_run
sys.path.insert(0, SITE)
try:
    exec(compile(CELL, "<install cell>", "exec"), {"__name__": "__main__"})
finally:
    old = "perceptron_core" in sys.modules and not getattr(sys.modules["perceptron_core"], "NEW", 0)
    print(json.dumps({"calls": calls, "imported": old}))
"""


def _installed(site: Path, version: str | None, init: str | None, figures: bool = True) -> None:
    """A fake perceptron_core in ``site``: its metadata at ``version`` (None: none), its
    ``__init__.py`` (None: a namespace package, as an uninstall leaves numba's cache behind)."""
    package = site / "perceptron_core"
    (package / "__pycache__").mkdir(parents=True)
    (package / "__pycache__" / "_compiled.perceptron_epochs-1.py311.nbi").write_bytes(b"numba")
    if init is not None:
        (package / "__init__.py").write_text(init)
    if figures and init is not None:
        (package / "figures").mkdir()
        (package / "figures" / "__init__.py").write_text("")
    if version is not None:
        info = site / f"perceptron_core-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: perceptron_core\n"
                                       f"Version: {version}\n")


def _run_install_cell(tmp_path: Path, codes: list[int], wheels: tuple[str, ...] = (),
                      site_url: str = "https://b.io/book/", repository_url: str = SAMPLE_URL,
                      imports: tuple[str, ...] = ("perceptron_core.figures", "json")):
    """Run the install cell as a notebook in ``tmp_path/nb`` would; its exit code, stderr,
    the pip commands it ran and whether a perceptron_core other than the one installed was left
    imported."""
    folder = tmp_path / "nb"
    folder.mkdir()
    for name in wheels:
        (folder / name).write_bytes(b"a wheel")
    cell = install_cell(repository_url=repository_url, site_url=site_url, imports=imports)
    assert max(len(line) for line in cell["source"].splitlines()) <= 88
    code = (f"CELL = {cell['source']!r}\nCODES = {codes!r}\nSITE = {str(tmp_path / 'site')!r}\n"
            f"VERSION = {VERSION!r}\n" + _HARNESS)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], cwd=folder, capture_output=True,
                          text=True, timeout=60)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    for args in report["calls"]:
        assert args[:4] == [sys.executable, "-m", "pip", "install"], args
    return (done.returncode, done.stderr, [a[-1] for a in report["calls"]], report["imported"])


def test_install_cell_does_nothing_where_the_books_version_and_every_import_are_found(tmp_path):
    _installed(tmp_path / "site", VERSION, "")
    code, err, calls, _ = _run_install_cell(tmp_path, codes=[], wheels=(WHEEL,))
    assert (code, calls) == (0, []), err


@pytest.mark.parametrize("version, init, imports", [
    (None, None, ("perceptron_core.figures",)),  # uninstalled: numba's cache folder is left
    # The metadata says installed, but the package is that folder: a namespace package, found
    (VERSION, None, ("perceptron_core",)),
    (VERSION, "raise RuntimeError('broken')", ("perceptron_core.figures",)),  # fails to import
    ("0.0.1", "", ("perceptron_core.figures",)),  # another version
])
def test_install_cell_installs_from_a_wheel_beside_it_first(tmp_path, version, init, imports):
    """Where the package is missing, broken or not the book's version, the book's wheel beside
    the notebook comes first (another version's there is not tried); the first install that
    leaves the book's version in place ends the search, and no module of the old package stays
    imported."""
    _installed(tmp_path / "site", version, init)
    wheels = ("perceptron_core-0.0.9-py3-none-any.whl", WHEEL)
    code, err, calls, imported = _run_install_cell(tmp_path, codes=[0], wheels=wheels,
                                                   imports=imports)
    folder = (tmp_path / "nb").resolve()
    assert code == 0, err
    assert calls == [f"perceptron_core[book] @ {(folder / WHEEL).as_uri()}"]
    assert not imported


def test_install_cell_goes_on_where_an_install_leaves_another_version(tmp_path):
    """pip may succeed and still leave the book's version missing: the next source is tried,
    and where none works the cell says pip's messages explain why."""
    _installed(tmp_path / "site", None, None)
    code, err, calls, _ = _run_install_cell(tmp_path, codes=[-1, -1, 0], wheels=(WHEEL,))
    assert code == 0 and len(calls) == 3, err
    for folder in ("nb", "site"):
        shutil.rmtree(tmp_path / folder)
    _installed(tmp_path / "site", None, None)
    code, err, calls, _ = _run_install_cell(tmp_path, codes=[1, 1, 1], wheels=(WHEEL,))
    assert code == 1 and len(calls) == 3
    assert err.strip().splitlines()[-1] == (
        f"perceptron_core {VERSION} could not be installed from {WHEEL}: pip's messages above say "
        "why (it needs its package index for the libraries the chapters draw with).")


def test_install_cell_tries_the_site_then_the_repository_then_names_what_to_do(tmp_path):
    _installed(tmp_path / "site", None, None)
    code, err, calls, _ = _run_install_cell(tmp_path, codes=[1, 0])
    assert code == 0 and calls == [f"perceptron_core[book] @ https://b.io/book/{WHEEL_PATH}",
                                   f"perceptron_core[book] @ git+{SAMPLE_URL}"]
    for folder in ("nb", "site"):
        shutil.rmtree(tmp_path / folder)
    _installed(tmp_path / "site", None, None)
    code, err, calls, _ = _run_install_cell(tmp_path, codes=[1, 1])
    message = err.strip().splitlines()[-1]
    assert code == 1 and len(calls) == 2
    assert message == (f"perceptron_core {VERSION} could not be installed: put {WHEEL} (from "
                       f"https://b.io/book/{WHEEL_PATH}) in {(tmp_path / 'nb').resolve()} and run "
                       "this cell again.")
    shutil.rmtree(tmp_path / "nb")
    code, err, calls, _ = _run_install_cell(tmp_path, codes=[], site_url="", repository_url="")
    assert code == 1 and calls == [] and err.strip().splitlines()[-1] == message.replace(
        f"from https://b.io/book/{WHEEL_PATH}", "it comes with the book's student notebooks")


def test_a_build_without_the_wheel_stops_and_says_how_to_get_it(tmp_path, monkeypatch):
    """The site and the zip ship the wheel the install cell names: a build without it (a plain
    `jupyter-book build`), or with another version's, stops before it starts."""
    from sphinx.errors import ConfigError

    import sphinx_extension

    (tmp_path / WHEEL).write_bytes(b"wheel")
    (tmp_path / "perceptron_core-0.0.1-py3-none-any.whl").write_bytes(b"wheel")
    for value in (None, "", str(tmp_path / "perceptron_core-0.0.1-py3-none-any.whl"),
                  str(tmp_path / "missing" / WHEEL)):
        if value is None:
            monkeypatch.delenv(sphinx_extension.WHEEL_ENV_VAR, raising=False)
        else:
            monkeypatch.setenv(sphinx_extension.WHEEL_ENV_VAR, value)
        with pytest.raises(ConfigError, match=f"ships the package's wheel, {re.escape(WHEEL)}.*"
                                              "build with `make book` or `make exercises`"):
            sphinx_extension.wheel()
    monkeypatch.setenv(sphinx_extension.WHEEL_ENV_VAR, str(tmp_path / WHEEL))
    assert sphinx_extension.wheel() == tmp_path / WHEEL


# --------------------------------------------------------------------- what a build wrote


def _built(name: str) -> tuple[dict, str]:
    reader = HTML_DIR / "_notebooks" / "book" / f"{name}.ipynb"
    page = HTML_DIR / "book" / f"{name}.html"
    if not reader.is_file() or not page.is_file():
        pytest.fail(f"no built book with reader notebooks at {HTML_DIR}: run `make book` first")
    return json.loads(reader.read_text(encoding="utf-8")), page.read_text(encoding="utf-8")


@pytest.mark.notebooks
@pytest.mark.parametrize("name", chapter_names())
def test_a_built_reader_notebook_reads_like_its_page(name):
    from bs4 import BeautifulSoup

    nb, page = _built(name)
    text = _markdown(nb)
    raw = RAW_MYST.search(text)
    assert raw is None, f"{name}: raw MyST left in the reader notebook: {raw.group(0)!r}"
    # Every number the page shows, in the page's order: each found after the one before.
    soup = BeautifulSoup(page, "html.parser")
    shown = [" ".join(s.get_text().split()) for s in soup.select("span.pasted-text")]
    assert shown, f"{name}: the page shows no glued number?"
    flat, at = " ".join(text.split()), 0
    for i, number in enumerate(shown):
        found = flat.find(number, at)
        assert found >= 0, (f"{name}: the page's glued number #{i} {number!r} is not in the "
                            f"reader notebook after {flat[max(0, at - 80):at]!r}")
        at = found + len(number)
    # Every numbered box of the page is titled with the page's number.
    titles = [" ".join(t.get_text().split()) for t in
              soup.select("div.admonition:not(.solution) > p.admonition-title span.caption-number")]
    for title in titles:
        assert (f"**{title}" in text) or (f"### {title}" in text), f"{name}: no {title!r}"
    # The download is the reader notebook; its code cells are the chapter's that the student
    # edition keeps (no solution, nothing book-only), install cell first.
    download = HTML_DIR / "_sources" / "book" / f"{name}.ipynb"
    assert json.loads(download.read_text(encoding="utf-8")) == nb
    source = strip_solutions(json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8")))
    code = [c["source"] for c in nb["cells"] if c["cell_type"] == "code"]
    assert code[1:] == ["".join(c["source"]) for c in source["cells"] if c["cell_type"] == "code"
                        and BOOK_ONLY_TAG not in c["metadata"].get("tags", [])]
    assert INSTALL_TAG in nb["cells"][[c["cell_type"] for c in nb["cells"]].index("code")][
        "metadata"]["tags"]


@pytest.mark.notebooks
def test_the_built_reader_notebooks_are_valid_and_install_from_the_config():
    """Each install cell is the one the config makes, and the site serves the wheel it names."""
    import nbformat
    import yaml

    config = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))
    url = config["repository"]["url"] or ""
    site = site_url(SimpleNamespace(html_baseurl=config["html"].get("baseurl", ""),
                                    html_theme_options={"repository_url": url}))
    for name in chapter_names():
        nb, _ = _built(name)
        nbformat.validate(nbformat.from_dict(nb))
        source = json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))
        expected = reader_notebook(source, made_up_book(source), repository_url=url, site_url=site)
        assert nb["cells"][[c["cell_type"] for c in nb["cells"]].index("code")] == \
            next(c for c in expected["cells"] if c["cell_type"] == "code")
    requirements = (HTML_DIR / "_notebooks" / "requirements.txt").read_text(encoding="utf-8")
    assert (install_spec(url) in requirements) if url else requirements.startswith("#")
    with zipfile.ZipFile(HTML_DIR / WHEEL_PATH) as wheel:
        assert "perceptron_core/figures/__init__.py" in wheel.namelist()
