"""The reader notebooks: every chapter as a notebook that reads like its page in any Jupyter.

The fast tests convert small notebooks and the real chapters with made-up numbers: every MyST
construct the chapters use has a plain-Markdown form, and what is unknown fails loudly. The
tests marked ``notebooks`` read the reader notebooks a book build wrote (``make test`` runs them
after ``make book``) and compare them with the built pages: no MyST left, and every number the
page shows appears in the notebook, in the page's order. That they run, outside the repository on
the installed wheel, is ``make test-lowest``'s part (tests/tools/run_chapters_outside.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from chapters import chapter_names  # book/_tools (tests/conftest.py puts it on sys.path)
from conftest import made_up_book
from reader_notebooks import (INSTALL_TAG, Book, Target, citations, glued_values, install_cell,
                              install_spec, page_numbers, reader_notebook)

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
    _md("````{solution-end}\n````\n\nAfter."),
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
                  "[Block \\[1962\\]](https://b.io/book/references.html)",
                  "[\\[Ng, n.d.; Balcan, 2015\\]](https://b.io/book/references.html)"):
        assert shown in text, shown
    assert book.used_glue == {"c-m", "c-r"}
    # The code: the install cell first (written anew), then the chapter's cells, no outputs.
    code = [c for c in out["cells"] if c["cell_type"] == "code"]
    assert [c["source"] for c in code[1:]] == ["x = 1", "glue_numbers('c', m=3)", "answer_b = 2"]
    assert INSTALL_TAG in code[0]["metadata"]["tags"] and "git+" + SAMPLE_URL in code[0]["source"]
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
    kept = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert [c["source"] for c in out["cells"] if c["cell_type"] == "code"][1:] == kept


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


def _run_cell(source: str, monkeypatch, *, missing: str | None) -> list:
    calls = []
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == missing else real(name, *a))
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append((a, k)))
    exec(compile(source, "<install cell>", "exec"), {})
    return calls


def test_install_cell_does_nothing_where_installed(monkeypatch):
    for url in (SAMPLE_URL, ""):
        assert _run_cell(install_cell(url)["source"], monkeypatch, missing=None) == []


@pytest.mark.parametrize("missing", ["perceptron_core", "matplotlib", "ipywidgets", "sklearn",
                                     "numba"])
def test_install_cell_installs_from_the_repository_when_missing(monkeypatch, missing):
    (args, kwargs), = _run_cell(install_cell(SAMPLE_URL + ".git")["source"], monkeypatch,
                                missing=missing)
    assert args[0][:4] == [sys.executable, "-m", "pip", "install"]
    assert args[0][-1] == f"perceptron_core[book] @ git+{SAMPLE_URL}" and kwargs["check"] is True


def test_without_a_url_the_install_cell_says_in_one_line_what_to_run(monkeypatch):
    source = install_cell("")["source"]
    with pytest.raises(SystemExit) as stop:
        _run_cell(source, monkeypatch, missing="perceptron_core")
    message = str(stop.value.code)
    assert "\n" not in message and "pip install -e '.[book]'" in message
    assert message.startswith("perceptron_core not installed")
    assert "subprocess.run" not in source
    assert max(len(line) for line in source.splitlines()) <= 88


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
    # The download is the reader notebook; its code cells are the chapter's, install cell first.
    download = HTML_DIR / "_sources" / "book" / f"{name}.ipynb"
    assert json.loads(download.read_text(encoding="utf-8")) == nb
    source = json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))
    code = [c["source"] for c in nb["cells"] if c["cell_type"] == "code"]
    assert code[1:] == ["".join(c["source"]) for c in source["cells"] if c["cell_type"] == "code"]
    assert INSTALL_TAG in nb["cells"][[c["cell_type"] for c in nb["cells"]].index("code")][
        "metadata"]["tags"]


@pytest.mark.notebooks
def test_the_built_reader_notebooks_are_valid_and_install_from_the_config():
    import nbformat
    import yaml

    url = (yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))["repository"]
           ["url"] or "")
    for name in chapter_names():
        nb, _ = _built(name)
        nbformat.validate(nbformat.from_dict(nb))
        assert nb["cells"][[c["cell_type"] for c in nb["cells"]].index("code")]["source"] == \
            install_cell(url)["source"]
    requirements = (HTML_DIR / "_notebooks" / "requirements.txt").read_text(encoding="utf-8")
    assert (install_spec(url) in requirements) if url else requirements.startswith("#")
