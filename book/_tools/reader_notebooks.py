"""Reader notebooks: each chapter as a notebook that reads like its page in any Jupyter.

The chapters are written in MyST: ```` ```{prf:theorem} ```` fences, ``{glue:text}`` roles for
the numbers, ``{prf:ref}`` and ``{cite:t}`` roles. Only the book build understands them; plain
Jupyter, VS Code and Colab show them as raw text, so a student who opens the source notebook
reads prose with no numbers in it. The build (``book/_tools/sphinx_extension.py``) therefore
writes, for each chapter, a *reader notebook* with:

* every directive turned into plain Markdown: a bold "**Theorem 4 (Block–Novikoff).**" with the
  number the page gives it, "*Proof.*" ... "∎", an "### Exercise 12" heading, and each solution
  under a bold "**Solution to Exercise 12.**" (or no solutions at all, for the student edition);
* every glued number written into the prose, formatted as on the page;
* every cross-reference and citation turned into text with a link to the book's page;
* the math left as ``$…$`` and ``$$…$$``, which every Jupyter renders;
* the chapter's code cells, without outputs, and first the install cell (:func:`install_cell`),
  written from the one setting for where the package comes from.

:func:`reader_notebook` is a pure function of the source notebook and what the build knows
(:class:`Book`): the numbers, the titles' numbers, the labels and the citations. It raises
``ValueError`` on MyST it does not know, so that a new kind of directive or role fails the build
instead of reaching students as raw text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["Book", "Target", "install_cell", "install_spec", "reader_notebook", "tight_math",
           "INSTALL_TAG", "PROOF_TYPES"]

#: The kinds of sphinx-proof directives the chapters use, numbered on the page (``Theorem 4``).
PROOF_TYPES = ("theorem", "lemma", "definition", "corollary", "proposition", "remark",
               "algorithm", "example", "conjecture", "axiom", "observation", "property",
               "criterion", "assumption", "notation")
INSTALL_TAG = "install-perceptron-core"
# The library and the parts of its `book` extra that the chapters import (Pillow comes with
# matplotlib; anywidget runs the playground); numba makes the Margin Perceptron's exercises fast
# and is checked too.
_NEEDED = ("perceptron_core", "matplotlib", "ipywidgets", "sklearn", "numba", "anywidget")


def _needed_tuple(width: int = 88) -> str:
    """``_NEEDED`` as a tuple literal after ``needed = ``, wrapped to the page's column."""
    lead = " " * len("needed = (")
    items = [repr(name) for name in _NEEDED]
    lines, line = [], ""
    for k, item in enumerate(items):
        piece = item + ("," if k < len(items) - 1 else ")")
        if line and len(lead) + len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return "(" + ("\n" + lead).join(lines)


@dataclass(frozen=True)
class Target:
    """Where a label points: its text on the page and the page's address (``""``: no link)."""

    text: str
    url: str = ""


@dataclass
class Book:
    """What the build knows that a notebook's source does not.

    Attributes
    ----------
    glued : dict
        Each glued name's ``text/plain`` value, from the chapter's executed notebook.
    format_glued : callable
        ``(text, format_spec) -> str``, the formatting the page applies (myst-nb's own).
    numbers : dict
        Each numbered directive's label -> its number as the page prints it ("Theorem 4").
    targets : dict
        Every label a role may name -> :class:`Target` (the numbered directives' included).
    cite : callable
        ``(keys, textual) -> str``: the Markdown for a citation of ``keys`` (``{cite:t}`` when
        ``textual``, else ``{cite:p}``).
    """

    glued: dict[str, str]
    format_glued: Callable[[str, str], str]
    numbers: dict[str, str]
    targets: dict[str, Target]
    cite: Callable[[list[str], bool], str]
    used_glue: set[str] = field(default_factory=set)


def install_spec(repository_url: str) -> str:
    """The pip requirement for ``perceptron_core[book]`` from the book's repository ("": none)."""
    url = repository_url.strip().rstrip("/")
    if url.endswith(".git"):
        url = url[:-4]
    return f"perceptron_core[book] @ git+{url}" if url else ""


def install_cell(repository_url: str) -> dict[str, Any]:
    """The reader notebook's first code cell: install ``perceptron_core`` where it is missing.

    Where the package and its ``book`` extra are installed (locally, in the tests) it does
    nothing. Elsewhere (Colab, Binder, a fresh Jupyter) it installs them from the repository,
    or, when the book has no repository URL yet, stops with one line saying what to run.
    """
    head = ("# Installs the course's library, perceptron_core, where it is missing (Colab, a\n"
            "# fresh Jupyter). Where it is installed already, this cell does nothing.\n"
            "import importlib.util\n"
            "import subprocess\n"
            "import sys\n\n"
            f"needed = {_needed_tuple()}\n"
            "if any(importlib.util.find_spec(name) is None for name in needed):\n")
    spec = install_spec(repository_url)
    if spec:
        body = (f"    package = {spec!r}\n"
                "    subprocess.run([sys.executable, \"-m\", \"pip\", \"install\", \"--quiet\","
                " package],\n"
                "                   check=True)\n"
                "    importlib.invalidate_caches()")
    else:
        body = ("    missing = [name for name in needed if importlib.util.find_spec(name) is None]\n"
                "    sys.exit(f\"{', '.join(missing)} not installed: in a copy of the book's \"\n"
                "             \"repository run `pip install -e '.[book]'`, then restart the kernel.\")")
    return {"cell_type": "code", "execution_count": None, "id": INSTALL_TAG,
            "metadata": {"tags": [INSTALL_TAG]}, "outputs": [], "source": head + body}


# ```{name} argument   or   :::{name} argument   (colon_fence), with 3 or more fence characters.
_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>.*?)[ \t]*$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*?)[ \t]*$")
_TARGET = re.compile(r"^\([\w:.-]+\)=[ \t]*$")
_ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<body>[^`]*)`")
_EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<label>[^<>]+)>$", re.S)


def _closes(line: str, fence: str) -> bool:
    text = line.strip()
    return len(text) >= len(fence) and set(text) == {fence[0]}


def _title(number: str, title: str) -> str:
    return f"{number} ({title})" if title else number


class _Converter:
    """Turns one chapter's Markdown cells into plain Markdown; keeps the exercises' numbers."""

    def __init__(self, book: Book, solutions: bool):
        self.book = book
        self.solutions = solutions
        self.exercise_of: dict[str, str] = {}  # exercise label -> "Exercise 12"

    def number(self, label: str, kind: str) -> str:
        try:
            return self.book.numbers[label]
        except KeyError:
            raise ValueError(f"the {kind} labelled {label!r} has no number on the page") from None

    def roles(self, text: str) -> str:
        def replace(match: re.Match) -> str:
            role, body = match.group("role"), match.group("body")
            if role in ("glue:text", "glue"):
                key, _, spec = body.partition(":") if role == "glue:text" else (body, "", "")
                if key not in self.book.glued:
                    raise ValueError(f"{{{role}}}`{body}`: nothing is glued as {key!r}")
                self.book.used_glue.add(key)
                return self.book.format_glued(self.book.glued[key], spec)
            if role in ("ref", "prf:ref", "numref", "doc"):
                explicit = _EXPLICIT.match(body)
                label = explicit.group("label") if explicit else body
                target = self.book.targets.get(label)
                if target is None:
                    raise ValueError(f"{{{role}}}`{body}`: the book has no label {label!r}")
                if target.url:
                    return f"[{explicit.group('text') if explicit else target.text}]({target.url})"
                # No link to follow: "an exercise" becomes the exercise ("Exercise 17"), and
                # other text of one's own names its target after it.
                if not explicit:
                    return target.text
                text = explicit.group("text")
                return target.text if re.match(r"(?i)an? \w", text) else f"{text} ({target.text})"
            if role in ("cite:t", "cite:p"):
                keys = [k.strip() for k in body.split(",") if k.strip()]
                return self.book.cite(keys, role == "cite:t")
            raise ValueError(f"the role {{{role}}} has no plain-Markdown form here; "
                             "add it to book/_tools/reader_notebooks.py")

        return _ROLE.sub(replace, text)

    def cell(self, source: str, gated: list[bool]) -> str:
        """The plain Markdown of one Markdown cell; ``gated[0]``: inside a gated solution."""
        lines = source.splitlines()
        out: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            opened = _OPEN.match(line)
            if _TARGET.match(line):
                i += 1
                continue
            if not opened:
                out.append(line)
                i += 1
                continue
            fence, name, arg = opened.group("fence"), opened.group("name"), opened.group("arg")
            # The directive's options, then its body, up to the closing fence.
            i += 1
            options: dict[str, str] = {}
            while i < len(lines) and _OPTION.match(lines[i]):
                option = _OPTION.match(lines[i])
                options[option.group("key")] = option.group("value")
                i += 1
            body: list[str] = []
            while i < len(lines) and not _closes(lines[i], fence):
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise ValueError(f"the {{{name}}} directive opened with {fence} is not closed "
                                 "in its cell")
            i += 1
            out += self.directive(name, arg, options, body, gated)
        return "\n".join(out)

    def directive(self, name: str, arg: str, options: dict[str, str], body: list[str],
                  gated: list[bool]) -> list[str]:
        inner = self.cell("\n".join(body), gated).strip("\n")
        label = options.get("label", "")
        if name.startswith("prf:") and name[4:] in PROOF_TYPES:
            if not label:
                raise ValueError(f"a {{{name}}} without a :label: has no number to show")
            head = _title(self.number(label, name), arg)
            return ["", f"**{head}.**", "", inner, ""]
        if name == "prf:proof":
            return ["", "*Proof.*" + (f" ({arg})" if arg else ""), "", inner, "",
                    "∎", ""]
        if name == "exercise":
            if not label:
                raise ValueError("an {exercise} without a :label: has no number to show")
            number = self.number(label, "exercise")
            self.exercise_of[label] = number
            return ["", f"### {_title(number, arg)}", "", inner, ""]
        if name in ("solution", "solution-start"):
            if not self.solutions:
                raise ValueError("solutions must be stripped before the student edition "
                                 "is converted")
            exercise = self.exercise_of.get(arg.strip())
            if exercise is None:
                raise ValueError(f"a {{{name}}} for {arg!r}, which is not an exercise above it")
            if name == "solution-start":
                gated[0] = True
            return ["", f"**Solution to {exercise}.**", "", inner, ""]
        if name == "solution-end":
            gated[0] = False
            return [inner] if inner.strip() else []
        raise ValueError(f"the directive {{{name}}} has no plain-Markdown form here; add it to "
                         "book/_tools/reader_notebooks.py")


def _text(source: Any) -> str:
    return source if isinstance(source, str) else "".join(source)


_INLINE_MATH = re.compile(r"\$([^$]+?)\$")


def _tight(inner: str) -> str:
    core = inner.strip()
    # A TeX control space (backslash, space) at the end keeps its space: "\$" would escape.
    return core + " " if core.endswith("\\") else core


def tight_math(text: str) -> str:
    """Inline math without spaces just inside its dollars: ``$\\gamma = $`` -> ``$\\gamma =$``.

    The book's math renderer ignores them, but VS Code's (KaTeX for markdown-it) does not read
    ``$...$`` with a space before the closing dollar as math at all, and shows the TeX. Display
    math (``$$...$$``) is left as it is.
    """
    parts = text.split("$$")
    # Between the $$ pairs (odd parts) is display math; inline math is in the even parts.
    for i in range(0, len(parts), 2):
        if parts[i].count("$") % 2:
            raise ValueError(f"an odd number of $ in {parts[i][:80]!r}...: unpaired inline math")
        parts[i] = _INLINE_MATH.sub(lambda m: f"${_tight(m.group(1))}$", parts[i])
    return "$$".join(parts)


def reader_notebook(nb: dict[str, Any], book: Book, *, repository_url: str,
                    solutions: bool = True) -> dict[str, Any]:
    """The reader notebook of one chapter (a notebook as JSON; the input is not changed).

    Parameters
    ----------
    nb : dict
        The chapter's source notebook; for the student edition, with its solutions already
        removed (``sphinx_extension.strip_solutions``).
    book : Book
        The chapter's glued values and the book's numbers, labels and citations.
    repository_url : str
        Where the install cell gets the package from ("" when the book has no repository).
    solutions : bool
        Whether solutions may appear (the full edition); ``False`` makes any left an error.

    Returns
    -------
    dict
        A new notebook: plain-Markdown cells, the chapter's code cells without outputs
        (plumbing cells, tagged ``remove-input``/``hide-input``/``remove-cell``, collapsed in
        JupyterLab), and the install cell before the first code cell.
    """
    converter = _Converter(book, solutions)
    cells: list[dict[str, Any]] = []
    gated = [False]
    for cell in nb["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "markdown":
            text = tight_math(converter.roles(converter.cell(_text(cell["source"]), gated)))
            text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
            if text.strip():
                cells.append({"cell_type": "markdown", "id": cell.get("id", f"md-{len(cells)}"),
                              "metadata": {}, "source": text})
        elif cell["cell_type"] == "code":
            if INSTALL_TAG in tags:
                continue  # written afresh below, from the book's setting
            metadata: dict[str, Any] = {}
            if {"remove-input", "hide-input", "remove-cell"} & set(tags):
                # Plumbing (the numbers glued into the prose): collapsed, but run, since later
                # cells may use what it computes.
                metadata["jupyter"] = {"source_hidden": True}
            cells.append({"cell_type": "code", "execution_count": None,
                          "id": cell.get("id", f"code-{len(cells)}"), "metadata": metadata,
                          "outputs": [], "source": _text(cell["source"])})
    first_code = next((i for i, c in enumerate(cells) if c["cell_type"] == "code"), len(cells))
    cells.insert(first_code, install_cell(repository_url))
    # Kernel: plain Python 3, which Colab and every Jupyter has.
    return {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                        "name": "python3"},
                         "language_info": {"name": "python"}}}


def _authors(entry: Any) -> str:
    """The citation's names as the page's author–year style gives them."""
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    names = [" ".join(p.last_names).replace("{", "").replace("}", "") for p in people]
    if not names:
        return entry.key
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]} et al."


def citations(bibfiles: list[str], url: str) -> Callable[[list[str], bool], str]:
    """``cite(keys, textual)`` for :class:`Book`: "Block [1962]" or "[Block, 1962]" as on the
    page (sphinxcontrib-bibtex's author–year style), linked to the book's references page at
    ``url`` ("" for no link)."""
    from pybtex.database import parse_file

    entries: dict[str, Any] = {}
    for path in bibfiles:
        entries.update(parse_file(path).entries)

    def year(key: str) -> str:
        return entries[key].fields.get("year", "n.d.")

    def cite(keys: list[str], textual: bool) -> str:
        unknown = [k for k in keys if k not in entries]
        if unknown:
            raise ValueError(f"a citation of {', '.join(unknown)}, which the bibliography lacks")
        if textual:
            text = "; ".join(f"{_authors(entries[k])} [{year(k)}]" for k in keys)
        else:
            text = "[" + "; ".join(f"{_authors(entries[k])}, {year(k)}" for k in keys) + "]"
        # Brackets inside a link's text are escaped, so that Markdown does not read a link there.
        shown = text.replace("[", "\\[").replace("]", "\\]")
        return f"[{shown}]({url})" if url else text

    return cite


def glued_values(executed: dict[str, Any]) -> dict[str, str]:
    """Each name glued in an executed notebook -> its ``text/plain`` value (as myst-nb reads
    it: the output's ``scrapbook`` metadata names it; hidden values carry a mime prefix)."""
    values: dict[str, str] = {}
    for cell in executed["cells"]:
        for output in cell.get("outputs", []):
            meta = (output.get("metadata") or {}).get("scrapbook")
            if not meta:
                continue
            prefix = meta.get("mime_prefix", "")
            data = {k[len(prefix):]: v for k, v in (output.get("data") or {}).items()}
            if "text/plain" in data:
                values[meta["name"]] = _text(data["text/plain"])
    return values


def page_numbers(html: str) -> dict[str, str]:
    """Each numbered box of a built page (theorem, exercise, ...) -> its number as printed
    ("Theorem 4"), keyed by its label, which is the box's HTML id."""
    from bs4 import BeautifulSoup

    numbers: dict[str, str] = {}
    for box in BeautifulSoup(html, "html.parser").select("div.admonition[id]"):
        number = box.select_one("p.admonition-title span.caption-number")
        if number is not None:
            numbers[box["id"]] = " ".join(number.get_text().split())
    return numbers
