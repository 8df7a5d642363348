"""The student edition, the launch buttons and the instructor guide.

The fast tests (no marker) check the pieces on the notebooks themselves. The tests marked
``browser`` need built books and run in ``make test`` after ``make book``: they build the student
edition once per session (a second full build, with a sample repository URL so the launch
buttons can be checked; it reuses the regular build's execution cache when there is one) and
compare it with the regular edition in ``_build/html`` (or ``BOOK_HTML_DIR``). The code
exercises' own tests are in tests/tools/test_assignments.py (the chapters' cells made from
perceptron_core/exercises/) and tests/core/test_check.py.
"""

from __future__ import annotations

import html as html_lib
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

import sphinx_extension as sphinxext
from chapters import chapter_names  # book/_tools (tests/conftest.py puts it on sys.path)
from reader_notebooks import INSTALL_TAG, WHEEL
from sphinx_extension import strip_solutions

REPO = Path(__file__).resolve().parents[2]
BOOK = REPO / "book"
HTML_DIR = Path(os.environ.get("BOOK_HTML_DIR", REPO / "_build" / "html"))
SAMPLE_URL = "https://github.com/example-org/perceptron-book"


def _nb(name: str) -> dict:
    return json.loads((BOOK / f"{name}.ipynb").read_text(encoding="utf-8"))


def _src(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def solution_parts(nb: dict) -> tuple[list[str], list[str]]:
    """Phrases of solution text (six plain words or more) and, for each solution code cell, its
    longest line no other code cell has, found independently of strip_solutions: by scanning
    for the directives' fences."""
    texts, gated_cells, public, gated, inside = [], [], [], False, None
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            hidden = {"remove-input", "remove-cell"} & set(cell.get("metadata", {}).get("tags", []))
            if not gated or not hidden:  # hidden inputs are not on the page to look for
                (gated_cells if gated else public).append(_src(cell))
            continue
        for line in _src(cell).splitlines():
            m = re.match(r"^(`{3,})\{solution(-start|-end)?\}", line) if inside is None else None
            if m:
                gated, inside = {"-start": True, "-end": False}.get(m.group(2), gated), m.group(1)
            elif inside is not None:
                inside = None if line.strip() == inside else inside
                texts += [line] if inside and not line.startswith(":") else []
            elif gated:
                texts.append(line)
    codes = []
    for source in gated_cells:
        own = [line.strip() for line in source.splitlines() if line.strip() and not any(line.strip() in p for p in public)]
        codes += [" ".join(max(own, key=len).split())] if own else []
    phrases = [m.group(0) for line in texts if (m := re.search(r"(?:[A-Za-z][a-z']+[,;]? ){5,}[A-Za-z][a-z']+", line))]
    return phrases, codes


# --------------------------------------------------------------------- stripping, on the sources


@pytest.mark.parametrize("name", chapter_names())
def test_strip_solutions_keeps_exercises_and_drops_solutions(name):
    # Imported in the tests that use it: its import takes a second, which the other tests
    # of the unit suite need not pay.
    import nbformat

    nb = _nb(name)
    student = strip_solutions(nb)
    text = json.dumps(student)
    phrases, codes = solution_parts(nb)
    assert phrases or codes, f"{name}: the chapter has no solutions to strip?"
    assert "{solution" not in text
    for phrase in phrases:
        assert phrase not in text, f"{name}: solution text left: {phrase!r}"
    student_code = [_src(c) for c in student["cells"] if c["cell_type"] == "code"]
    for line in codes:
        assert not any(line in c for c in student_code), f"{name}: solution code left: {line!r}"
    # Every exercise stays, and every cell outside solutions is kept unchanged and in order.
    assert text.count("{exercise}") == json.dumps(nb).count("{exercise}") > 0
    kept = [c for c in nb["cells"] if c["cell_type"] == "code" and _src(c) in student_code]
    assert [_src(c) for c in kept] == student_code
    assert student["metadata"] == nb["metadata"]
    nbformat.validate(nbformat.from_dict(student))


def test_strip_solutions_spans_cells_and_nested_fences():
    import nbformat

    md = nbformat.v4.new_markdown_cell
    code = nbformat.v4.new_code_cell
    nb = nbformat.v4.new_notebook(cells=[
        md("# T\n\n```{exercise}\n:label: a\n\nDo A.\n```\n\n```{solution} a\n:class: dropdown\n\n"
           "Secret answer A.\n```\n\nAfter A."),
        md("```{exercise}\n:label: b\n\nDo B.\n```\n\n````{solution-start} b\n:class: dropdown\n````\n\n"
           "Secret text B.\n\n```python\nsecret_b = 1\n```"),
        code("secret_code_b = 2"),
        md("More secret B.\n\n````{solution-end}\n````\n\nPublic after B."),
        code("public = 3"),
        md("````{solution} c\n```python\nnested_secret\n```\nSecret C.\n````"),
    ])
    out = json.dumps(strip_solutions(nb))
    for secret in ("Secret", "secret", "nested_secret", "{solution"):
        assert secret not in out
    for public in ("Do A.", "After A.", "Do B.", "Public after B.", "public = 3"):
        assert public in out
    assert len(strip_solutions(nb)["cells"]) == 4  # the all-solution cell is dropped
    broken = nbformat.v4.new_notebook(cells=[md("````{solution-start} b\n````\n\nno end")])
    with pytest.raises(ValueError, match="no \\{solution-end\\}"):
        strip_solutions(broken)
    with pytest.raises(ValueError, match="not closed"):
        strip_solutions(nbformat.v4.new_notebook(cells=[md("```{solution} a\nopen")]))


def test_the_student_zip_holds_the_chapters_handed_out_in_book_order(tmp_path, monkeypatch):
    """The zip is reproducible and holds the notebooks of the chapters CHAPTERS names, in the
    book's order; a misspelt name stops the build before it starts, naming the choices."""
    chapters = chapter_names()
    notebooks = {f"{n}.ipynb": strip_solutions(_nb(n)) for n in chapters}
    first, second = (sphinxext.write_zip(notebooks, tmp_path / d / sphinxext.STUDENT_ZIP).read_bytes() for d in "ab")
    assert first == second
    assert sphinxext.handed_out(chapters, "  ") == chapters
    assert sphinxext.handed_out(chapters, "offset,margin, offset") == ["margin", "offset"]
    readers = {n: {"chapter": n} for n in chapters}
    for requested, expected in (("offset margin", ["margin", "offset"]), ("", chapters)):
        with zipfile.ZipFile(sphinxext.student_zip(readers, requested, tmp_path / requested / "s.zip")) as zf:
            assert {Path(n).stem: json.loads(zf.read(n)) for n in zf.namelist()} == {n: readers[n] for n in expected}
    with pytest.raises(ValueError, match="CHAPTERS names margn, which the book does not have") as err:
        sphinxext.handed_out(chapters, "margn offset")
    assert " ".join(chapters) in str(err.value)  # the choices, to copy from
    from sphinx.errors import ConfigError

    monkeypatch.setenv(sphinxext.HIDE_SOLUTIONS_ENV_VAR, "1")
    monkeypatch.setenv(sphinxext.CHAPTERS_ENV_VAR, "margin ofset")
    with pytest.raises(ConfigError, match="ofset"):
        sphinxext._check_handed_out(None, None)


def test_make_exercises_passes_the_chapters_to_the_build():
    done = subprocess.run(["make", "-n", "exercises", "CHAPTERS=margin offset"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    build = [line for line in done.stdout.splitlines() if "jupyter-book build" in line
             or sphinxext.CHAPTERS_ENV_VAR in line]
    assert any(f'{sphinxext.CHAPTERS_ENV_VAR}="margin offset"' in line for line in build), done.stdout


@pytest.mark.parametrize("changed", ["perceptron_core/check.py", "book/glue_numbers.py"])
def test_a_changed_package_rebuilds_both_editions_from_scratch(changed):
    """jupyter-cache knows a run by the notebook's code alone: after a change to the package, the
    cached runs (numbers, pictures, sliders) would be the old package's. `make -n -W FILE` is
    make's own "what if FILE were new"."""
    for target in ("book", "exercises"):
        done = subprocess.run(["make", "-n", "-W", changed, target], cwd=REPO,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        removed = done.stdout.split("jupyter-book build")[0]
        for cache in ("_build/.jupyter_cache", "_build/.doctrees",
                      "_build/exercises/_build/.jupyter_cache"):
            assert cache in removed, (target, changed, done.stdout)


# --------------------------------------------------------------------- launch buttons (config)


def _config(url: str | None, theme: dict | None = None) -> SimpleNamespace:
    return SimpleNamespace(html_theme_options=dict(theme or {}, **({"repository_url": url} if url is not None else {})))


def test_launch_buttons_follow_the_one_url(monkeypatch):
    monkeypatch.delenv(sphinxext.REPOSITORY_ENV_VAR, raising=False)
    theme = {"launch_buttons": {"notebook_interface": "classic", "binderhub_url": "https://mybinder.org", "colab_url": "x"}}

    def options(url: str, **env: str) -> dict:
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        config = _config(url, theme)
        sphinxext._launch_buttons(None, config)
        return config.html_theme_options

    empty = options("")  # no URL: no buttons, no repository button, even if set before
    assert not empty["launch_buttons"]["binderhub_url"] and not empty["launch_buttons"]["colab_url"]
    assert "repository_url" not in empty
    assert empty["use_repository_button"] is False
    full = options(SAMPLE_URL + "/")
    assert full["repository_url"] == SAMPLE_URL and full["use_repository_button"] is True
    assert full["launch_buttons"] == {"notebook_interface": "classic", "binderhub_url": "https://mybinder.org",
                                      "colab_url": "https://colab.research.google.com"}
    # The buttons open the edition's reader notebooks on a branch of their own: never the MyST
    # sources, and from the student edition never a notebook with solutions.
    assert full["repository_branch"] == sphinxext.LAUNCH_BRANCHES["full"] == "notebooks" and full["path_to_docs"] == ""
    assert options("", **{sphinxext.REPOSITORY_ENV_VAR: SAMPLE_URL})["repository_url"] == SAMPLE_URL
    assert options(SAMPLE_URL, **{sphinxext.HIDE_SOLUTIONS_ENV_VAR: "1"})["repository_branch"] == "student-notebooks"


def test_binder_starts_the_python_the_package_needs():
    import tomllib

    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["requires-python"] == f">={sphinxext.BINDER_PYTHON}"


def test_config_has_one_repository_setting():
    """Set or empty, the repository URL is the one setting: the launch services and the install
    cell (written by the build) come from it."""
    import yaml

    config = yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))
    assert isinstance(config["repository"]["url"] or "", str)
    assert config["launch_buttons"]["binderhub_url"] == config["launch_buttons"]["colab_url"] == ""
    assert "print.css" in config["sphinx"]["config"]["html_css_files"]


# --------------------------------------------------------------------- the instructor guide


def test_instructor_guide_is_written_from_the_current_chapters():
    """The guide's part made from the chapters (their exercises counted independently here,
    with the kinds and difficulties their directives state); the built page has it in place of
    the marker, the source holds only the marker."""
    import instructor_guide as guide  # book/_tools

    text = guide.generated(guide.chapters())
    for i, name in enumerate(chapter_names(), 1):
        md = "\n".join(_src(c) for c in _nb(name)["cells"] if c["cell_type"] == "markdown")
        found = re.findall(r"```\{exercise\}[^\n]*\n:label: (\S+)\n:class: ((?:kind-\w+ )+)difficulty-(\d)", md)
        assert len(found) == md.count("```{exercise}") > 0, name
        row = next(line for line in text.splitlines() if line.startswith(f"| {i} |"))
        assert f"| {len(found)} (" in row, (name, row)
        for label, kinds, level in found:
            kinds = ", ".join(k[5:] for k in kinds.split())
            assert f"| {{numref}}`{label}` | {kinds} | {guide.STARS[int(level)]} " in text, label
    # Formulas count towards the reading time, a word a symbol: "R over gamma squared", "norm x
    # squared"; brackets and \left, \right count nothing.
    assert guide.math_words(r"\left(R/\gamma\right)^2", r"\|x\|^2") == 8
    svg = text.split("<svg", 1)[1].split("</svg>")[0]
    assert "<script" not in text and "http" not in svg.replace("http://www.w3.org/2000/svg", "")
    source = (BOOK / "instructor_guide.md").read_text(encoding="utf-8")
    assert source.count(guide.MARKER) == 1 and "## The chapters at a glance" not in source
    for section in ("One week", "Three weeks", "make exercises", "make serve", "pages.yml", "zip of `_build/html/`", "make pdf"):
        assert section in source


# --------------------------------------------------------------------- the built editions


def _text(html_path: Path) -> str:
    raw = html_path.read_text(encoding="utf-8")
    raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.S)
    # Tags go without a trace: highlighted code is one span per token.
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", raw)).split())


def _build(out: Path, **env_vars: str) -> Path:
    """A full book build into ``out`` with the given environment; returns its HTML folder."""
    import time

    cache = HTML_DIR.parent / ".jupyter_cache"  # _build/.jupyter_cache for _build/html
    if cache.is_dir():  # the regular build's executed notebooks: the same code, no re-run
        shutil.copytree(cache, out / "_build" / ".jupyter_cache")
    env = {k: v for k, v in os.environ.items()
           if k not in (sphinxext.HIDE_SOLUTIONS_ENV_VAR, sphinxext.REPOSITORY_ENV_VAR)}
    jb = Path(sys.executable).with_name("jupyter-book")
    toc = []
    if env_vars.get(sphinxext.HIDE_SOLUTIONS_ENV_VAR):  # the student edition's pages, as `make exercises`
        subprocess.run(["make", "-s", "_build/student_toc.yml"], cwd=REPO, check=True)
        toc = ["--toc", str(REPO / "_build" / "student_toc.yml")]
    start = time.perf_counter()
    proc = subprocess.run([str(jb), "build", str(REPO), "-n", "-W", "--keep-going", "--path-output", str(out), *toc],
                          env=dict(env, **env_vars), capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    print(f"built {env_vars} in {time.perf_counter() - start:.0f} s")
    return out / "_build" / "html"


@pytest.fixture(scope="session")
def student_build(once_per_run):
    """The student edition, built once (with a repository URL set, which it must ignore).

    ``STUDENT_HTML_DIR`` points at such a build instead."""
    if os.environ.get("STUDENT_HTML_DIR"):
        return Path(os.environ["STUDENT_HTML_DIR"])
    return once_per_run("student-build", lambda out: _build(
        out, **{sphinxext.HIDE_SOLUTIONS_ENV_VAR: "1", sphinxext.REPOSITORY_ENV_VAR: SAMPLE_URL}))


@pytest.fixture(scope="session")
def regular_build():
    if not (HTML_DIR / "index.html").exists():
        pytest.fail(f"No built book at {HTML_DIR}: run `make book` first (or set BOOK_HTML_DIR).")
    return HTML_DIR


@pytest.mark.browser
@pytest.mark.parametrize("name", chapter_names())
def test_student_pages_have_no_solutions_and_regular_pages_do(name, student_build, regular_build):
    phrases, codes = solution_parts(_nb(name))
    student = _text(student_build / "book" / f"{name}.html")
    regular = _text(regular_build / "book" / f"{name}.html")
    raw_student = (student_build / "book" / f"{name}.html").read_text(encoding="utf-8")
    assert 'class="solution' not in raw_student and "solution-start" not in raw_student
    found_regular = [p for p in phrases if p in regular]
    assert found_regular, f"{name}: no solution phrase found in the regular edition"
    for phrase in found_regular:
        assert phrase not in student, f"{name}: student page shows solution text {phrase!r}"
    for line in codes:
        assert line in regular, f"{name}: regular edition lacks solution code {line!r}"
        assert line not in student, f"{name}: student page shows solution code {line!r}"
    # Every exercise is still there, each under its number (a solution may name exercises too,
    # so counting the word in the regular edition says nothing).
    assert len(set(re.findall(r"Exercise \d+", student))) >= _exercises(name) > 0


def _exercises(name: str) -> int:
    return json.dumps(_nb(name)).count("{exercise}")


def _flat(nb: dict) -> str:
    """Every cell's source, whitespace collapsed: the form solution_parts gives its code lines in."""
    return " ".join(" ".join(_src(c).split()) for c in nb["cells"])


@pytest.mark.browser
def test_student_notebooks_are_solution_free_reader_notebooks(student_build):
    """The zip, the downloads and the launch branch's folder hold one and the same reader
    notebook per chapter: every exercise, no solution."""
    archive = student_build / sphinxext.STUDENT_ZIP
    assert archive.is_file()
    with zipfile.ZipFile(archive) as zf:
        zipped = {Path(n).name: json.loads(zf.read(n)) for n in zf.namelist() if n.endswith(".ipynb")}
        assert sorted(zf.namelist()) == sorted(f"student-notebooks/{n}" for n in [*zipped, WHEEL])
    print(f"student-notebooks.zip: {archive.stat().st_size / 1024:.1f} KB, {len(zipped)} notebooks")
    for name in chapter_names():
        download = json.loads((student_build / "_sources" / "book" / f"{name}.ipynb").read_text(encoding="utf-8"))
        launch = json.loads((student_build / sphinxext.READER_DIR / "book" / f"{name}.ipynb").read_text(encoding="utf-8"))
        assert download == launch == zipped[f"{name}.ipynb"]
        phrases, codes = solution_parts(_nb(name))
        text, flat = json.dumps(download), _flat(download)
        assert not [p for p in phrases if p in flat] and not [c for c in codes if c in flat]
        assert "Solution" not in text and "{exercise}" not in text
        assert text.count("### Exercise ") == _exercises(name)
        for extra in (student_build / "_downloads").glob(f"**/{name}.ipynb"):
            assert json.loads(extra.read_text(encoding="utf-8")) == download


@pytest.mark.browser
def test_regular_downloads_keep_the_solutions(regular_build):
    for name in chapter_names():
        download = json.loads((regular_build / "_sources" / "book" / f"{name}.ipynb").read_text(encoding="utf-8"))
        text = json.dumps(download)
        _, codes = solution_parts(_nb(name))
        assert codes and all(c in _flat(download) for c in codes), name
        assert text.count("### Exercise ") == _exercises(name)
        solutions = len(re.findall(r"\{solution(?:-start)?\}", json.dumps(_nb(name))))
        assert text.count("**Solution to Exercise ") == solutions > 0, name
    assert not (regular_build / sphinxext.STUDENT_ZIP).exists()


@pytest.mark.browser
def test_the_student_edition_leaves_out_the_instructor_guide(student_build, regular_build):
    # book/_tools/editions.py: no page, no link to it from any page, nothing in the search.
    assert not (student_build / "book" / "instructor_guide.html").exists()
    for page in student_build.glob("**/*.html"):
        assert "instructor_guide" not in page.read_text(encoding="utf-8"), page
    index = (student_build / "searchindex.js").read_text(encoding="utf-8")
    assert "instructor_guide" not in index and "Instructor guide" not in index
    # Nor does any page speak of what the edition lacks (book/intro.md's `{only} not student`
    # note for instructors); the regular intro does.
    lacks = re.compile(r"instructor|folded away in dropdowns|make exercises", re.I)
    for page in student_build.glob("**/*.html"):
        assert not lacks.search(_text(page)), (page, lacks.search(_text(page)).group(0))
    regular_intro = _text(regular_build / "book" / "intro.html")
    assert {m.lower() for m in lacks.findall(regular_intro)} == {
        "instructor", "folded away in dropdowns", "make exercises"}
    # The full edition has it, with its part written from the chapters, linked from the
    # navigation of every page and searchable.
    page = _text(regular_build / "book" / "instructor_guide.html")
    assert "The chapters at a glance" in page and "builds on" in page and "the chapters at a glance:" not in page
    # Every link to an exercise shows its number (a {ref} to a capitalised label once did not).
    raw = (regular_build / "book" / "instructor_guide.html").read_text(encoding="utf-8")
    links = [re.sub(r"<[^>]+>", "", a) for a in re.findall(r'href="[^"]*#\w+-ex-[\w-]+"[^>]*>(.*?)</a>', raw)]
    assert links and all(re.fullmatch(r"Exercise \d+", a) for a in links), links
    assert 'href="instructor_guide.html"' in (regular_build / "book" / "margin.html").read_text(
        encoding="utf-8")
    assert "instructor_guide" in (regular_build / "searchindex.js").read_text(encoding="utf-8")


@pytest.mark.browser
def test_student_notebooks_run_top_to_bottom(student_build, tmp_path):
    """Every student notebook runs; the only error a cell may raise is the stubs' NotImplementedError."""
    import nbformat
    from concurrent.futures import ThreadPoolExecutor

    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    def run(path: Path) -> str | None:
        """What went wrong in the notebook at ``path``, or None."""
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=False,
                                allow_error_names=["NotImplementedError"],
                                resources={"metadata": {"path": str(tmp_path)}})
        try:
            client.execute()
        except CellExecutionError as exc:
            return f"{path.name}: a cell failed in the student notebook:\n{str(exc)[-1500:]}"
        errors = {o.get("ename") for c in nb.cells if c.cell_type == "code" for o in c.outputs
                  if o.get("output_type") == "error"}
        return None if errors <= {"NotImplementedError"} else f"{path.name}: errors {errors}"

    with zipfile.ZipFile(student_build / sphinxext.STUDENT_ZIP) as zf:
        zf.extractall(tmp_path)
    paths = sorted((tmp_path / "student-notebooks").glob("*.ipynb"))
    assert len(paths) == len(chapter_names())
    # One kernel per core: each kernel computes on one core.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        failures = [f for f in pool.map(run, paths) if f]
    assert not failures, "\n".join(failures)


@pytest.mark.browser
def test_a_chapter_from_the_student_zip_installs_the_package_the_zip_carries(student_build, tmp_path):
    """Issue 35, done means: in a new venv with only ipykernel and nbclient, a chapter from the
    student zip, unpacked in an empty folder outside the repository, runs with no error (nbclient's
    jupyter-execute), its first cell installing the package from the wheel beside it. pip gets the
    rest from its index at requirements.txt's pins (PIP_CONSTRAINT, in the kernel's environment:
    what pip has cached already), without compiling their bytecode (PIP_NO_COMPILE: time only)."""
    import time

    start, chapter = time.perf_counter(), "margin"
    folder, venv = tmp_path / "class", tmp_path / "venv"
    with zipfile.ZipFile(student_build / sphinxext.STUDENT_ZIP) as zf:
        zf.extractall(folder)
    notebooks = folder / "student-notebooks"
    assert not notebooks.resolve().is_relative_to(REPO) and (notebooks / WHEEL).is_file()
    # Nothing of the repository, its venv or its Jupyter reaches the kernel.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUPYTER", "VIRTUAL_ENV"))}
    env.update(PIP_CONSTRAINT=str(REPO / "requirements.txt"), PIP_NO_COMPILE="1",
               JUPYTER_DATA_DIR=str(tmp_path / "jupyter"), JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter"))
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "ipykernel", "nbclient"],
                         env=env, capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stderr[-3000:]
    ready = time.perf_counter()
    run = subprocess.run([str(venv / "bin" / "jupyter-execute"), "--kernel_name=python3",
                          "--output={notebook_name}-run", f"{chapter}.ipynb"],
                         cwd=notebooks, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-5000:]
    ran = json.loads((notebooks / f"{chapter}-run.ipynb").read_text(encoding="utf-8"))
    code = [c for c in ran["cells"] if c["cell_type"] == "code"]
    assert INSTALL_TAG in code[0]["metadata"]["tags"]
    assert not [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
    # pip records where it installed a package from (PEP 610): the wheel the zip carries.
    origin = subprocess.run([str(venv / "bin" / "python"), "-c", "from importlib.metadata import "
                             "distribution; print(distribution('perceptron_core').read_text('direct_url.json'))"],
                            env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert json.loads(origin.stdout)["url"] == (notebooks / WHEEL).resolve().as_uri(), origin.stderr
    print(f"venv with ipykernel and nbclient {ready - start:.0f} s, {chapter} with its install "
          f"{time.perf_counter() - ready:.0f} s")


@pytest.mark.browser
@pytest.mark.parametrize("name", chapter_names())
def test_launch_links_with_a_repository_url(name, student_build):
    """The student edition, built with a repository URL: its buttons open the reader notebook on
    its own branch (no solutions there; the regular edition's branch is the unit test's), where
    the publish workflow puts the build's _notebooks folder, which installs from the URL."""
    page = html_lib.unescape((student_build / "book" / f"{name}.html").read_text(encoding="utf-8"))
    links, path = set(re.findall(r'href="([^"]+)"', page)), f"book/{name}.ipynb"
    assert f"https://colab.research.google.com/github/example-org/perceptron-book/blob/student-notebooks/{path}" in links
    binder = [u for u in links if u.startswith("https://mybinder.org/v2/gh/example-org/perceptron-book/student-notebooks")]
    assert binder and all(path in u for u in binder) and "/blob/notebooks/" not in page and SAMPLE_URL in links
    downloads = [u for u in links if u.endswith(f"_sources/{path}")]
    assert downloads and all((student_build / "book" / u).resolve().is_file() for u in downloads)
    reader = json.loads((student_build / sphinxext.READER_DIR / path).read_text(encoding="utf-8"))
    install = next(c for c in reader["cells"] if c["cell_type"] == "code")
    assert f"git+{SAMPLE_URL}" in install["source"] and "subprocess.run" in install["source"]
    assert (student_build / sphinxext.READER_DIR / "requirements.txt").read_text(encoding="utf-8").strip() == \
        f"perceptron_core[book] @ git+{SAMPLE_URL}"
    assert (student_build / sphinxext.READER_DIR / "runtime.txt").read_text(encoding="utf-8").strip() == \
        f"python-{sphinxext.BINDER_PYTHON}"
    assert "https://example-org.github.io/perceptron-book/book/" in json.dumps(reader)


@pytest.mark.browser
def test_launch_links_follow_the_books_own_setting(regular_build):
    """The regular build uses _config.yml's URL: no launch links while it is empty (no dead
    links), and links to the reader notebooks' branch once it is set."""
    import yaml

    url = (yaml.safe_load((REPO / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"] or "").strip()
    for page in regular_build.glob("**/*.html"):
        text = html_lib.unescape(page.read_text(encoding="utf-8"))
        if not url:
            assert "colab.research.google.com" not in text and "mybinder.org" not in text, page
        elif page.stem in chapter_names():
            assert "/blob/notebooks/book/" in text, page
    for name in chapter_names():
        page = (regular_build / "book" / f"{name}.html").read_text(encoding="utf-8")
        downloads = re.findall(r'href="([^"]*_sources/book/' + re.escape(name) + r'\.ipynb)"', page)
        assert downloads and all((regular_build / "book" / u).resolve().is_file() for u in downloads)
