"""Reader notebooks: each chapter as a notebook that reads like its page in any Jupyter.

The chapters are written in MyST: ```` ```{prf:theorem} ```` fences, ``{glue:text}`` roles for
the numbers, ``{prf:ref}`` and ``{cite:t}`` roles. Only the book build understands them; plain
Jupyter, VS Code and Colab show them as raw text, so a student who opens the source notebook
reads prose with no numbers in it. The build (``book/_tools/sphinx_extension.py``) therefore
writes, for each chapter, a *reader notebook* with:

* every directive turned into plain Markdown: a bold "**Theorem 4 (Block–Novikoff).**" with the
  number the page gives it, "*Proof.*" ... "∎", an "### Exercise 12" heading, and each solution
  under a bold "**Solution to Exercise 12.**", its code as a ```` ```python ```` block that Run
  All does not run (or no solutions at all, for the student edition);
* every glued number written into the prose, formatted as on the page;
* every cross-reference and citation turned into text with a link to the book's page;
* the math left as ``$…$`` and ``$$…$$``, which every Jupyter renders;
* the chapter's code cells, without outputs and without those tagged ``book-only``
  (:data:`BOOK_ONLY_TAG`), and first the install cell (:func:`install_cell`), which installs the
  package from the wheel the book carries.

:func:`reader_notebook` is a pure function of the source notebook and what the build knows
(:class:`Book`): the numbers, the titles' numbers, the labels and the citations. It raises
``ValueError`` on MyST it does not know, so that a new kind of directive or role fails the build
instead of reaching students as raw text.
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

__all__ = ["Book", "Target", "install_cell", "install_spec", "reader_notebook", "tight_math",
           "BOOK_ONLY_TAG", "INSTALL_TAG", "PROOF_TYPES", "VERSION", "WHEEL", "WHEEL_PATH"]

#: The kinds of sphinx-proof directives the chapters use, numbered on the page (``Theorem 4``).
PROOF_TYPES = ("theorem", "lemma", "definition", "corollary", "proposition", "remark",
               "algorithm", "example", "conjecture", "axiom", "observation", "property",
               "criterion", "assumption", "notation")
INSTALL_TAG = "install-perceptron-core"
#: Cells with this tag only feed the book's prose (numbers glued into the text, which the reader
#: notebook already carries): :func:`reader_notebook` leaves them out.
BOOK_ONLY_TAG = "book-only"
# The import names of pyproject.toml's `book` extra. The chapters import few of them directly,
# but perceptron_core.figures needs matplotlib, and find_spec("perceptron_core.figures") finds
# that module without importing it: so the chapters' install cell checks for these as well.
BOOK_EXTRA_MODULES = ("PIL", "anywidget", "ipywidgets", "matplotlib", "numba", "sklearn")
_PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
#: The package's version, and its wheel's file name, as `pip wheel` names it (the Makefile's
#: $(WHEEL)); the book's site serves the wheel at :data:`WHEEL_PATH`.
VERSION = tomllib.loads(_PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
WHEEL = f"perceptron_core-{VERSION}-py3-none-any.whl"
WHEEL_PATH = f"_static/{WHEEL}"


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


# The install cell after its settings. Plain Python (no %pip: VS Code's plain Python kernels
# have no magics), as short as a first cell should be.
_INSTALL_CODE = """

def found(module):
    try:  # find_spec("a.b") imports a, which can fail in any way
        spec = importlib.util.find_spec(module)
    except Exception:
        return False
    # What an uninstall leaves behind (numba's cache folder) is a folder with no origin.
    return spec is not None and spec.origin is not None


def ready():
    try:
        version = importlib.metadata.version("perceptron_core")
    except importlib.metadata.PackageNotFoundError:
        return False
    return version == VERSION and all(found(module) for module in NEEDED)


def install(source):
    pip = [sys.executable, "-m", "pip", "install", "--quiet",
           "--disable-pip-version-check", f"perceptron_core[book] @ {source}"]
    if subprocess.run(pip).returncode != 0:
        return False
    # Modules of the library imported while checking (another version) would hide it.
    for name in [m for m in sys.modules if m.split(".")[0] == "perceptron_core"]:
        del sys.modules[name]
    importlib.invalidate_caches()
    return ready()


if not ready():
    # The first that works: the book's wheel beside this notebook (the book's notebooks
    # come with it; in Colab, upload it), then SOURCES. [book] adds what the chapters
    # draw with (matplotlib, ...), from pip's index.
    here = pathlib.Path(WHEEL).resolve()
    if not any(install(s) for s in [here.as_uri()] * here.is_file() + SOURCES):
        if here.is_file():
            sys.exit(f"perceptron_core {VERSION} could not be installed from {WHEEL}: "
                     "pip's messages above say why (it needs its package index for the "
                     "libraries the chapters draw with).")
        sys.exit(f"perceptron_core {VERSION} could not be installed: put {WHEEL} "
                 f"({GET}) in {here.parent} and run this cell again.")
"""


def install_cell(*, repository_url: str, site_url: str, imports: Sequence[str]) -> dict[str, Any]:
    """A notebook's first code cell: install ``perceptron_core`` where it is needed.

    Where ``perceptron_core`` is installed at the book's :data:`VERSION` and every module of
    ``imports`` is found, it does nothing. Otherwise it pip-installs ``perceptron_core[book]``
    from the first source that works: the book's wheel, :data:`WHEEL`, beside the notebook
    (the student zip's, or one uploaded to Colab), the wheel on the book's site
    (``site_url`` + :data:`WHEEL_PATH`), the repository (``git+`` ``repository_url``). Where
    none works it stops with one sentence: put the wheel beside the notebook and run the cell
    again. Another version installed counts as missing: the chapters use the book's.

    Parameters
    ----------
    repository_url : str
        The book's repository ("" when it has none).
    site_url : str
        The published book's address ("" when unknown).
    imports : sequence of str
        The modules the notebook imports (``"perceptron_core.figures"``, ``"ipywidgets"``):
        each is looked for with ``find_spec``, not by a folder's existence.
    """
    site, spec = site_url.strip().rstrip("/"), install_spec(repository_url)
    # As code: the site's wheel named by WHEEL, so that its line fits the page.
    sources = [f'"{site}/{WHEEL_PATH.removesuffix(WHEEL)}" + WHEEL'] if site else []
    sources += [f'"{spec.split(" @ ")[1]}"'] if spec else []
    listed = (",\n" + " " * len("SOURCES = [")).join(sources)
    # Where a student gets the wheel: the site's copy where the book has an address.
    get = ('"from " + SOURCES[0]' if site else '"it comes with the book\'s student notebooks"')
    needed = textwrap.fill(", ".join(f'"{m}"' for m in sorted(set(imports))) + "]", width=88,
                           initial_indent="NEEDED = [", subsequent_indent=" " * 10,
                           break_long_words=False, break_on_hyphens=False)
    source = (
        "# Installs perceptron_core, the course's library, and what this notebook imports,\n"
        "# where any of it is missing or the library is not the book's version. Where all\n"
        "# is in place, it does nothing.\n"
        "import importlib.metadata\nimport importlib.util\nimport pathlib\n"
        "import subprocess\nimport sys\n\n"
        f'VERSION = "{VERSION}"\n'
        'WHEEL = f"perceptron_core-{VERSION}-py3-none-any.whl"\n'
        f"{needed}\n"
        + ("# After the wheel beside this notebook: the book's site, then its repository.\n"
           if sources else "# This book names no site or repository: only the wheel beside it.\n")
        + f"SOURCES = [{listed}]\n"
        + f"GET = {get}\n" + _INSTALL_CODE.rstrip("\n"))
    return {"cell_type": "code", "execution_count": None, "id": INSTALL_TAG,
            "metadata": {"tags": [INSTALL_TAG]}, "outputs": [], "source": source}


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
        if name == "admonition":  # a titled box (each chapter's "How the lecture notes say it")
            return ["", f"> **{arg}**", ">", *(f"> {line}".rstrip() for line in
                                              inner.split("\n")), ""]
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


def _bound(node: ast.AST) -> set[str]:
    """The names a node binds directly (an assignment's, a definition's, an import's)."""
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        return {node.id}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    return {node.arg} if isinstance(node, ast.arg) else set()


def _names(source: str) -> tuple[set[str], set[str], set[str], list[str]]:
    """What a code cell binds for the cells after it (outside functions and classes), binds
    anywhere (a function's arguments too) and reads, and the modules it imports at its top
    level (an import in a ``try`` or a function may fail without harm: the glue's)."""
    tree = ast.parse(source)
    anywhere = set().union(*map(_bound, ast.walk(tree)))
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    top, todo = set(), [tree]
    while todo:
        node = todo.pop()
        top |= _bound(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo += ast.iter_child_nodes(node)
    imports = [a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names]
    imports += [n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module
                and not n.level]
    imports = [m for m in imports if m.split(".")[0] not in sys.stdlib_module_names]
    return top, anywhere, read, imports


def _fenced(code: str) -> str:
    """``code`` as a Markdown ```` ```python ```` block (a longer fence if it holds one)."""
    fence = "`" * max([3] + [len(run) + 1 for run in re.findall(r"`+", code)])
    return f"{fence}python\n{code.strip()}\n{fence}"


def reader_notebook(nb: dict[str, Any], book: Book, *, repository_url: str, site_url: str = "",
                    solutions: bool = True) -> dict[str, Any]:
    """The reader notebook of one chapter (a notebook as JSON; the input is not changed).

    Parameters
    ----------
    nb : dict
        The chapter's source notebook; for the student edition, with its solutions already
        removed (``sphinx_extension.strip_solutions``).
    book : Book
        The chapter's glued values and the book's numbers, labels and citations.
    repository_url, site_url : str
        The book's repository and its published address, where the install cell gets the
        package (:func:`install_cell`; "" for none).
    solutions : bool
        Whether solutions may appear (the full edition); ``False`` makes any left an error.

    Returns
    -------
    dict
        A new notebook: plain-Markdown cells, the chapter's code cells without outputs
        (plumbing cells, tagged ``remove-input``/``hide-input``/``remove-cell``, collapsed in
        JupyterLab), and the install cell before the first code cell. Cells tagged
        :data:`BOOK_ONLY_TAG` are left out. A solution's code is a Markdown ```` ```python ````
        block under its "Solution to Exercise N": Run All runs the same code in both editions,
        and never prints the solution's "all cases passed" under the student's stub.

    Raises
    ------
    ValueError
        On MyST with no plain form here, or where a cell that runs reads a name that only
        cells left out (tagged book-only, or a solution's) define: Run All would fail there.
    """
    converter = _Converter(book, solutions)
    cells: list[dict[str, Any]] = []
    gated = [False]
    ran: set[str] = set()  # names the cells that run bind
    left_out: set[str] = set()  # names only cells left out bind
    imports: list[str] = []
    for cell in nb["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "markdown":
            text = tight_math(converter.roles(converter.cell(_text(cell["source"]), gated)))
            text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
            if text.strip():
                cells.append({"cell_type": "markdown", "id": cell.get("id", f"md-{len(cells)}"),
                              "metadata": {}, "source": text})
            continue
        if cell["cell_type"] != "code" or INSTALL_TAG in tags:
            continue  # the install cell is written afresh below, from the book's settings
        source = _text(cell["source"])
        top, anywhere, read, imported = _names(source)
        hidden = {"remove-input", "hide-input", "remove-cell"} & set(tags)
        if BOOK_ONLY_TAG in tags or gated[0]:
            left_out |= top - ran
            if gated[0] and not hidden:  # a hidden cell in a solution only glues its numbers
                cells.append({"cell_type": "markdown", "id": cell.get("id", f"sol-{len(cells)}"),
                              "metadata": {}, "source": _fenced(source)})
            continue
        missing = sorted((read - anywhere) & left_out - ran)
        if missing:
            raise ValueError(f"a code cell reads {', '.join(missing)}, which only cells the "
                             "reader notebook leaves out (tagged book-only, or a solution's "
                             f"code) define: define it in a cell that runs\n{source[:300]}")
        ran |= top
        imports += imported
        metadata: dict[str, Any] = {}
        if hidden:
            # Plumbing (the numbers glued into the prose): collapsed, but run, since later
            # cells may use what it computes.
            metadata["jupyter"] = {"source_hidden": True}
        cells.append({"cell_type": "code", "execution_count": None,
                      "id": cell.get("id", f"code-{len(cells)}"), "metadata": metadata,
                      "outputs": [], "source": source})
    first_code = next((i for i, c in enumerate(cells) if c["cell_type"] == "code"), len(cells))
    cells.insert(first_code, install_cell(repository_url=repository_url, site_url=site_url,
                                          imports=[*imports, *BOOK_EXTRA_MODULES]))
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
