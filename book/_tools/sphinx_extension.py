"""Sphinx extension for the book build: static sliders, launch buttons, reader notebooks, editions.

`jupyter-book build` loads this extension (see ``_config.yml``). What stock extensions and tools
do is left to them: Sphinx's own mathjax extension loads MathJax 4 (``mathjax_path`` and
``mathjax3_config`` in ``_config.yml``; npm installs it, :func:`_copy_mathjax` serves it from the
book), jupyter-cache's ``local-parallel`` executor runs the notebooks one per core
before the build (the Makefile's ``jcache`` lines; myst-nb then finds every run in the cache), and
``jupyter-book build --toc`` gives the student edition its page set (``make exercises`` builds from
``_toc.yml`` without the instructor guide). What is left here is the book's own:

* It sets :data:`perceptron_core.figures.sliders.STATIC_ENV_VAR` in the build process. Every kernel
  the build starts inherits it, so :func:`perceptron_core.explore` emits self-contained HTML/JS
  controls instead of ipywidgets (which would need a live kernel). The Makefile sets it for the
  ``jcache`` run too.
* From one setting, ``repository: url:`` in ``_config.yml`` (empty: no buttons, no dead links),
  every chapter gets Colab and Binder launch buttons (:func:`repository_url`), which open the
  edition's reader notebooks, and every reader notebook's install cell installs from it.
* After the build it writes each chapter's reader notebook (``book/_tools/reader_notebooks.py``:
  plain Markdown, the page's numbers, no MyST) as the page's ``.ipynb`` download and into
  :data:`READER_DIR` for the launch buttons (:func:`_write_reader_notebooks`), and puts the
  package's wheel (:data:`WHEEL_ENV_VAR`) where their install cell looks: in ``_static/``.
* With :data:`HIDE_SOLUTIONS_ENV_VAR` set (``make exercises``), it builds the student edition:
  the book without the exercises' solutions, whose reader notebooks have no solutions either
  (:func:`strip_solutions`), plus ``student-notebooks.zip`` of them, with the wheel beside
  them: every chapter's, or those :data:`CHAPTERS_ENV_VAR` names (``make exercises
  CHAPTERS="margin offset"``). References to the instructor guide, which that edition leaves
  out, become plain text (:func:`_unlink_the_guide`).
* It serves MathJax 4 from the book (:func:`_copy_mathjax`) and keeps each inline formula with
  the punctuation after it, so that a phone's line never starts with it
  (:func:`_keep_punctuation_with_math`).
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

from perceptron_core.figures.sliders import STATIC_ENV_VAR

HIDE_SOLUTIONS_ENV_VAR = "PERCEPTRON_HIDE_SOLUTIONS"
#: The chapters to hand out in the student zip, by name, separated by spaces or commas (all when
#: empty): the Makefile's ``CHAPTERS``.
CHAPTERS_ENV_VAR = "PERCEPTRON_CHAPTERS"


REPOSITORY_ENV_VAR = "PERCEPTRON_REPOSITORY_URL"
#: The package's wheel the site ships (``_static/``, where the install cell finds it on the
#: book's address) and the student zip carries: the Makefile's ``$(WHEEL)``, built before the
#: book.
WHEEL_ENV_VAR = "PERCEPTRON_WHEEL"
BINDERHUB_URL = "https://mybinder.org"
COLAB_URL = "https://colab.research.google.com"


def repository_url(config: Any) -> str:
    """The book's repository URL: ``repository: url:`` in ``_config.yml``, or the environment.

    :data:`REPOSITORY_ENV_VAR` overrides the file (the tests build with a sample URL that way).
    """
    env = os.environ.get(REPOSITORY_ENV_VAR)
    if env is not None:
        return env.strip()
    options = getattr(config, "html_theme_options", None) or {}
    return str(options.get("repository_url") or "").strip()


def _launch_buttons(app: Any, config: Any) -> None:
    """Colab and Binder buttons from the one repository URL, or none at all without it.

    The theme would otherwise need the URL and both launch services set separately, and with the
    services set but no URL it shows no buttons but still promises them in the configuration.
    The buttons open the edition's reader notebooks, which the publish workflow pushes to the
    edition's branch (:data:`LAUNCH_BRANCHES`), laid out as the repository: never the MyST
    sources, and from the student edition never a notebook with solutions. Binder installs that
    branch's ``requirements.txt``; in Colab the notebook's first cell installs the package.
    """
    options = dict(getattr(config, "html_theme_options", None) or {})
    url = repository_url(config).rstrip("/")
    launch = dict(options.get("launch_buttons") or {})
    if url:
        options["repository_url"] = url
        options["repository_branch"] = LAUNCH_BRANCHES[edition()]
        options["path_to_docs"] = ""
        launch.update(binderhub_url=BINDERHUB_URL, colab_url=COLAB_URL)
        options["use_repository_button"] = True
    else:
        options.pop("repository_url", None)
        launch.update(binderhub_url="", colab_url="")
        options["use_repository_button"] = False
    options["launch_buttons"] = launch
    config.html_theme_options = options


def wheel() -> Path:
    """The wheel to ship, from :data:`WHEEL_ENV_VAR`; a ``ConfigError`` that says how to get
    it when it is missing or is not this version's (a site without it would point its
    notebooks at a file that is not there)."""
    from reader_notebooks import WHEEL
    from sphinx.errors import ConfigError

    value = os.environ.get(WHEEL_ENV_VAR, "")
    path = Path(value).resolve()
    if not value or path.name != WHEEL or not path.is_file():
        raise ConfigError(f"the book ships the package's wheel, {WHEEL}, but {WHEEL_ENV_VAR} "
                          f"names {value or 'nothing'}: build with `make book` or `make "
                          "exercises`, which build the wheel and name it")
    return path


def _hiding_solutions() -> bool:
    return os.environ.get(HIDE_SOLUTIONS_ENV_VAR, "").lower() in {"1", "true", "yes", "on"}


def _drop_solutions(app: Any, doctree: Any) -> None:
    """Remove every solution, once sphinx-exercise has merged the gated ones into one node.

    sphinx-exercise's own ``hide_solutions`` drops only the directive: the code cells of a gated
    solution (between ``solution-start`` and ``solution-end``) would stay, and the leftover end
    marker crashes the HTML writer. Removing the merged nodes removes all of it.
    """
    from sphinx_exercise.nodes import solution_node

    if _hiding_solutions():
        for node in list(doctree.findall(solution_node)):
            node.parent.remove(node)


_FENCE = re.compile(r"^(`{3,}|~{3,})\{(solution|solution-start|solution-end)\}")
STUDENT_ZIP = "student-notebooks.zip"


def _closes(line: str, fence: str) -> bool:
    """Whether ``line`` closes a code fence opened with ``fence`` (CommonMark: same character,
    at least as many, nothing else on the line)."""
    text = line.strip()
    return len(text) >= len(fence) and set(text) == {fence[0]}


def strip_solutions(nb: dict[str, Any]) -> dict[str, Any]:
    """A copy of a notebook (as JSON) without its solutions, for the student edition.

    Removes every ``{solution}`` block from the markdown cells, and everything between a
    ``{solution-start}`` and its ``{solution-end}`` (text and code cells: gated solutions span
    cells). Markdown cells left empty are dropped. The exercises themselves stay.

    Raises
    ------
    ValueError
        When a ``{solution-start}`` has no ``{solution-end}``, or a fence is not closed: then
        the notebook's solutions cannot be told apart from the rest.
    """
    out = copy.deepcopy(nb)
    cells: list[dict[str, Any]] = []
    gated = False  # inside solution-start ... solution-end
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            if not gated:
                cells.append(copy.deepcopy(cell))
            continue
        source = cell["source"]
        lines = (source if isinstance(source, str) else "".join(source)).splitlines(keepends=True)
        kept: list[str] = []
        fence: str | None = None  # the fence of a solution directive being skipped
        for line in lines:
            if fence is not None:
                if _closes(line, fence):
                    fence = None
                continue
            match = _FENCE.match(line)
            if match:
                fence, kind = match.group(1), match.group(2)
                if kind == "solution-start":
                    gated = True
                elif kind == "solution-end":
                    if not gated:
                        raise ValueError("a {solution-end} without a {solution-start}")
                    gated = False
                continue
            if not gated:
                kept.append(line)
        if fence is not None:
            raise ValueError(f"a solution directive opened with {fence} is not closed in its cell")
        text = re.sub(r"\n{3,}", "\n\n", "".join(kept)).strip("\n")
        if text.strip():
            new = copy.deepcopy(cell)
            new["source"] = text
            cells.append(new)
    if gated:
        raise ValueError("a {solution-start} has no {solution-end}")
    out["cells"] = cells
    return out


def handed_out(chapters: list[str], requested: str) -> list[str]:
    """The chapters whose notebooks go into the student zip, in the book's order.

    ``chapters`` are the book's chapters, ``requested`` names some of them, separated by spaces
    or commas; all of them when it is empty. A name that is not a chapter is an error that lists
    the chapters, so that a typo does not hand out an empty or partial zip.
    """
    wanted = [w for w in re.split(r"[\s,]+", requested.strip()) if w]
    if not wanted:
        return list(chapters)
    unknown = [w for w in wanted if w not in chapters]
    if unknown:
        raise ValueError(f"CHAPTERS names {' '.join(unknown)}, which the book does not have; its "
                         f"chapters are: {' '.join(chapters)}")
    return [c for c in chapters if c in wanted]


def _check_handed_out(app: Any, config: Any) -> None:
    """Refuse a misspelt ``CHAPTERS`` before the build, not after it."""
    if _hiding_solutions():
        from chapters import chapter_names  # book/_tools, beside this file

        try:
            handed_out(chapter_names(), os.environ.get(CHAPTERS_ENV_VAR, ""))
        except ValueError as exc:
            from sphinx.errors import ConfigError

            raise ConfigError(str(exc)) from None


def write_zip(notebooks: dict[str, dict[str, Any]], archive: Path,
              wheel: Path | None = None) -> Path:
    """Zip ``{file name: notebook}`` as ``student-notebooks/<name>`` into ``archive``, and the
    package's ``wheel`` beside them, where their install cell looks first.

    Byte-for-byte reproducible (fixed timestamps, sorted names), so that a rebuild of the same
    book hands out the same file.
    """
    archive.parent.mkdir(parents=True, exist_ok=True)
    files = {name: _dumps(nb).encode("utf-8") for name, nb in notebooks.items()}
    if wheel is not None:
        files[wheel.name] = wheel.read_bytes()
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(f"student-notebooks/{name}", date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, files[name])
    return archive


def _dumps(nb: dict[str, Any]) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


#: The reader notebooks' folder in the built site, laid out as the repository (``book/<name>``):
#: the publish workflow pushes it to the edition's branch (:data:`LAUNCH_BRANCHES`), which the
#: launch buttons open.
READER_DIR = "_notebooks"
#: The branch each edition's launch buttons open: the reader notebooks of that edition only.
LAUNCH_BRANCHES = {"full": "notebooks", "student": "student-notebooks"}
#: The Python Binder starts for the launch branch (runtime.txt): the lowest pyproject.toml
#: accepts, the one the tests' lowest environment runs.
BINDER_PYTHON = "3.11"
#: The bibliography's page, which citations in the reader notebooks link to.
REFERENCES_PAGE = "book/references"


def edition() -> str:
    """``"student"`` in ``make exercises``, else ``"full"``."""
    return "student" if _hiding_solutions() else "full"


def site_url(config: Any) -> str:
    """The published book's address, ending in ``/`` ("" when unknown).

    ``html: baseurl:`` in ``_config.yml`` if set; else GitHub Pages' address for the
    repository (``https://ORG.github.io/REPO/``); else none, and the reader notebooks'
    cross-references are text without links.
    """
    base = str(getattr(config, "html_baseurl", "") or "").strip()
    if base:
        return base.rstrip("/") + "/"
    github = re.match(r"https?://github\.com/([^/]+)/([^/]+?)(?:\.git)?/?$", repository_url(config))
    return f"https://{github.group(1).lower()}.github.io/{github.group(2)}/" if github else ""


def _book_knowledge(app: Any) -> tuple[dict[str, str], dict[str, Any], Any]:
    """The numbers of every numbered box, every label's target, and the citation writer."""
    from reader_notebooks import Target, citations, page_numbers

    outdir, base = Path(app.outdir), site_url(app.config)

    def link(docname: str, anchor: str = "") -> str:
        return f"{base}{docname}.html" + (f"#{anchor}" if anchor else "") if base else ""

    numbers: dict[str, str] = {}
    targets: dict[str, Any] = {}
    std = app.env.get_domain("std")
    for label, (docname, labelid, section) in std.labels.items():
        targets[label] = Target(section or label, link(docname, labelid))
    for docname in sorted(app.env.found_docs):
        page = outdir / f"{docname}.html"
        if page.is_file():
            for label, number in page_numbers(page.read_text(encoding="utf-8")).items():
                numbers[label] = number
                targets[label] = Target(number, link(docname, label))
    bibfiles = [str(Path(app.srcdir) / f) for f in getattr(app.config, "bibtex_bibfiles", [])]
    refs = link(REFERENCES_PAGE) if REFERENCES_PAGE in app.env.found_docs else ""
    return numbers, targets, citations(bibfiles, refs)


def _executed(app: Any, source: Path) -> dict[str, Any]:
    """The chapter as the build ran it: myst-nb's execution cache holds its outputs."""
    import nbformat
    from jupyter_cache import get_cache

    cache = get_cache(app.env.mystnb_config.execution_cache_path)
    _, merged = cache.merge_match_into_notebook(nbformat.read(source, as_version=4))
    return json.loads(nbformat.writes(merged))


def _write_reader_notebooks(app: Any, exception: Exception | None) -> None:
    """Write every chapter's reader notebook (book/_tools/reader_notebooks.py) where a reader
    gets a notebook: the page's ``.ipynb`` download (``_sources/``, and any under
    ``_downloads/``), :data:`READER_DIR` for the launch buttons, and in the student edition
    ``student-notebooks.zip`` of the chapters handed out (:data:`CHAPTERS_ENV_VAR`), all
    without solutions.
    """
    if exception is not None or app.builder.format != "html":
        return
    from myst_nb.core.variables import format_plain_text
    from reader_notebooks import WHEEL_PATH, Book, glued_values, install_spec, reader_notebook

    outdir, student, package = Path(app.outdir), _hiding_solutions(), wheel()
    # At a fixed address on the site (_static/ is Sphinx's, copied whole; _downloads/ names
    # its files by a hash), where every reader notebook's install cell looks for it.
    shutil.copy2(package, outdir / WHEEL_PATH)
    numbers, targets, cite = _book_knowledge(app)
    url = repository_url(app.config)
    readers: dict[str, dict[str, Any]] = {}
    for docname in sorted(app.env.found_docs):
        source = Path(app.env.doc2path(docname))
        if source.suffix != ".ipynb":
            continue
        nb = json.loads(source.read_text(encoding="utf-8"))
        if student:
            nb = strip_solutions(nb)
        book = Book(glued=glued_values(_executed(app, source)), format_glued=format_plain_text,
                    numbers=numbers, targets=targets, cite=cite)
        reader = reader_notebook(nb, book, repository_url=url, site_url=site_url(app.config),
                                 solutions=not student)
        readers[docname] = reader
        for target in (outdir / READER_DIR / f"{docname}.ipynb",
                       outdir / "_sources" / f"{docname}.ipynb"):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_dumps(reader), encoding="utf-8")
    by_name = {Path(d).name + ".ipynb": r for d, r in readers.items()}
    for download in (outdir / "_downloads").glob("**/*.ipynb"):
        if download.name in by_name:
            download.write_text(_dumps(by_name[download.name]), encoding="utf-8")
    # Binder installs these before it opens a notebook of the launch branch: the Python the
    # package needs (pyproject.toml's requires-python), then the package.
    spec = install_spec(url)
    (outdir / READER_DIR / "requirements.txt").write_text(
        (spec + "\n") if spec else "# No repository URL: set repository: url: in _config.yml\n",
        encoding="utf-8")
    (outdir / READER_DIR / "runtime.txt").write_text(f"python-{BINDER_PYTHON}\n", encoding="utf-8")
    if student:
        student_zip({Path(d).name: r for d, r in readers.items()},
                    os.environ.get(CHAPTERS_ENV_VAR, ""), outdir / STUDENT_ZIP, package)


def student_zip(readers: dict[str, dict[str, Any]], requested: str, archive: Path,
                wheel: Path | None = None) -> Path:
    """Zip the reader notebooks (by chapter name, in book order) of the chapters ``requested``
    names (:func:`handed_out`: all when empty), and ``wheel``, into ``archive``."""
    chosen = handed_out(list(readers), requested)
    return write_zip({f"{name}.ipynb": readers[name] for name in chosen}, archive, wheel)


def _citation_list_roles(
    app: Any, pagename: str, templatename: str, context: dict, doctree: Any
) -> None:
    """Give the bibliography's entries the list-item role their list requires.

    Docutils writes the references as ``role="list"`` holding ``role="doc-biblioentry"``
    entries; ARIA 1.2 deprecated that role, so a list with no list items is what assistive
    technology (and axe-core, as a critical violation) sees.
    """
    body = context.get("body", "")
    if 'class="citation-list"' in body:
        context["body"] = body.replace('role="doc-biblioentry"', 'role="listitem"')


#: pydata-sphinx-theme's Font Awesome script (1.5 MB, the heaviest file of every page), which it
#: loads "so that users can add custom icons", as SVG. The book adds none, and the theme's own
#: icons are drawn from Font Awesome's web font, which its stylesheet already loads.
FONTAWESOME_SCRIPT = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js'
                                r'[^"]*"></script>')


def _drop_fontawesome_script(app: Any, exception: Exception | None) -> None:
    """Take :data:`FONTAWESOME_SCRIPT` out of every page the build wrote, and its file."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if "fontawesome.js" in text:
            page.write_text(FONTAWESOME_SCRIPT.sub("", text), encoding="utf-8")
    (outdir / "_static" / "scripts" / "fontawesome.js").unlink(missing_ok=True)


def _search_page_script(
    app: Any, pagename: str, templatename: str, context: dict, doctree: Any
) -> None:
    """Load ``book/_static/search.js`` on the search page, and there only.

    It changes Sphinx's search (plain-text excerpts, results for sections, titles only from
    ``file://``), so it must run after ``searchtools.js``, which the page's template puts after
    every registered script: hence ``defer``, which still runs it before the search starts.
    """
    if pagename == "search":
        app.add_js_file("search.js", loading_method="defer")


#: MathJax 4 as npm installs it (``make book``: ``npm ci`` in book/_tools/mathjax, from its
#: package-lock.json). The site gets only what its pages load (:func:`_copy_mathjax`).
MATHJAX_NODE_MODULES = Path(__file__).parent / "mathjax" / "node_modules"


def _copy_mathjax(app: Any, exception: Exception | None) -> None:
    """Serve MathJax from the book's ``_static/mathjax``: no request leaves the site, and pages
    work offline and from ``file://``.

    Copied: the loader (``startup.js``), ``core.js``, the components ``mathjax3_config`` has the
    loader load (``[tex]/ams`` is ``input/tex/extensions/ams.js``), and the CHTML half of the
    font, whose web fonts and glyph tables MathJax loads as a page needs them (the site's
    ``loader.paths.fonts`` is ``[mathjax]``, where the font goes): 3 MB, where the whole of
    MathJax with every font is 70 MB.
    """
    if exception is not None or app.builder.format != "html":
        return
    source, target = MATHJAX_NODE_MODULES, Path(app.outdir, "_static", "mathjax")
    if not (source / "mathjax" / "startup.js").is_file():
        from sphinx.errors import ExtensionError

        raise ExtensionError(f"MathJax is not installed in {source}: run `make book`, or "
                             f"`npm ci --prefix {source.parent}`, and build again.")
    shutil.rmtree(target, ignore_errors=True)
    components = app.config.mathjax3_config["loader"]["load"]
    for name in ["startup", "core", *components]:
        rel = name.replace("[tex]/", "input/tex/extensions/") + ".js"
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / "mathjax" / rel, target / rel)
    font = source / "@mathjax" / "mathjax-newcm-font"
    shutil.copytree(font / "chtml", target / "mathjax-newcm-font" / "chtml")
    shutil.copy2(font / "chtml.js", target / "mathjax-newcm-font" / "chtml.js")


#: Punctuation that closes a sentence or clause after a formula.
_TRAILING_PUNCTUATION = re.compile(r"[,.;:!?)]+")


def _keep_punctuation_with_math(app: Any, doctree: Any, docname: str) -> None:
    """Hold each inline formula and the punctuation right after it together
    (``<span class="pc-nobr">``, which book.css keeps on one line): a phone's line otherwise
    breaks between them, and the next line starts with a lone "," or ".". The formula itself
    still breaks inside (MathJax 4 breaks inline math at its operators)."""
    from docutils import nodes

    for math in list(doctree.findall(nodes.math)):
        parent = math.parent
        at = parent.index(math)
        after = parent[at + 1] if at + 1 < len(parent) else None
        found = isinstance(after, nodes.Text) and _TRAILING_PUNCTUATION.match(after.astext())
        if found:
            parent[at] = nodes.inline("", "", math, nodes.Text(found.group()), classes=["pc-nobr"])
            rest = after.astext()[found.end():]
            if rest:
                parent[at + 1] = nodes.Text(rest)
            else:
                parent.remove(after)


def _student_toc(app: Any, config: Any) -> None:
    """Refuse a student edition whose table of contents lists the instructor guide.

    ``make exercises`` builds from ``_toc.yml`` without the guide (``jupyter-book build --toc``);
    a student build from the full table would publish the guide, which says which exercises to
    assign and how to build the solutions.
    """
    from chapters import GUIDE  # book/_tools, beside this file

    toc = Path(app.srcdir, str(config.external_toc_path))
    if _hiding_solutions() and f"file: {GUIDE}" in toc.read_text(encoding="utf-8"):
        from sphinx.errors import ConfigError

        raise ConfigError(f"the student edition's table of contents ({toc}) lists {GUIDE}: "
                          "build it with `make exercises`")


def _unlink_the_guide(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """In the student edition, a reference to one of the guide's labels is its text alone.

    The page that names the guide (``intro.md``) stays as it is; without this, its references
    would be broken links, which ``-n -W`` fails on. Any other missing reference still fails.
    """
    from chapters import GUIDE, REPO

    if _hiding_solutions() and node.get("reftype") == "ref":
        guide = (REPO / f"{GUIDE}.md").read_text(encoding="utf-8")
        if node.get("reftarget", "") in re.findall(r"^\(([^()\s]+)\)=", guide, re.M):
            return contnode
    return None


def setup(app: Any) -> dict[str, Any]:
    os.environ[STATIC_ENV_VAR] = "1"
    if _hiding_solutions():  # the student edition: ```{only} not student``` leaves text out of it
        app.tags.add("student")
    app.connect("config-inited", _launch_buttons)
    app.connect("config-inited", _check_handed_out)
    app.connect("config-inited", lambda app, config: wheel())  # before the long build
    app.connect("config-inited", _student_toc)
    app.connect("doctree-read", _drop_solutions)
    app.connect("missing-reference", _unlink_the_guide)
    app.connect("html-page-context", _citation_list_roles)
    app.connect("html-page-context", _search_page_script)
    app.connect("build-finished", _write_reader_notebooks)
    app.connect("build-finished", _drop_fontawesome_script)
    app.connect("doctree-resolved", _keep_punctuation_with_math)
    app.connect("build-finished", _copy_mathjax)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
