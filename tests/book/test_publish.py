"""Publishing the right edition: the Pages workflow.

Fast checks, with no build and no browser: ``.github/workflows/pages.yml`` read as YAML (its
shell steps run with bash against a throwaway git repository) and the Makefile read as text.
The built editions are checked in ``test_student_edition.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml

import sphinx_extension as sphinxext  # book/_tools (tests/conftest.py puts it on sys.path)

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "pages.yml"
EDITIONS = ("student", "full")


# --------------------------------------------------------------------- helpers


def _flow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _triggers(flow: dict) -> dict:
    # YAML 1.1 reads the bare key `on` as the boolean true.
    return flow.get("on", flow.get(True))


def _steps() -> list[dict]:
    return _flow()["jobs"]["build"]["steps"]


def _step(name: str) -> dict:
    return next(s for s in _steps() if s.get("name") == name)


def _expand(text: str, context: dict[str, str]) -> str:
    """``${{ name }}`` replaced by ``context[name]``; an unknown name is a test failure."""

    def value(match: re.Match) -> str:
        assert match.group(1) in context, f"the test does not know {match.group(1)}"
        return context[match.group(1)]

    return re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", value, text)


def _evaluate(expression: str, inputs: dict, variables: dict) -> str:
    """Evaluate ``${{ a || b || 'c' }}`` as GitHub does: the first term that is not empty."""
    match = re.fullmatch(r"\$\{\{(.*)\}\}", expression.strip())
    assert match, expression
    for term in (t.strip() for t in match.group(1).split("||")):
        if re.fullmatch(r"'[^']*'", term):
            value = term[1:-1]
        elif term.startswith("inputs."):
            value = inputs.get(term.removeprefix("inputs."), "")
        elif term.startswith("vars."):
            value = variables.get(term.removeprefix("vars."), "")
        else:
            raise AssertionError(f"the test cannot evaluate {term!r} in {expression!r}")
        if value:
            return value
    return ""


def _choose(edition: str, tmp_path: Path) -> tuple[int, dict[str, str]]:
    """Run the "Choose the edition" step with bash; its exit code and the outputs it set."""
    output = tmp_path / f"output-{edition}"
    output.write_text("")
    proc = subprocess.run(["bash", "-e", "-c", _step("Choose the edition")["run"]],
                          env=dict(os.environ, EDITION=edition, GITHUB_OUTPUT=str(output)),
                          capture_output=True, text=True)
    pairs = (line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    return proc.returncode, dict(pairs)


def _recipe(target: str) -> str:
    """The recipe of a Makefile target: its tab-indented lines, continuations joined."""
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    match = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", text, re.M)
    assert match, f"no `{target}` target in the Makefile"
    return match.group(1).replace("\\\n", " ")


def _build_recipe(target: str) -> str:
    """The recipe that builds ``make <target>``'s site (``make book`` asks for the file target
    ``$(BOOK_HTML)``, made only when a source is newer)."""
    return _recipe("$(BOOK_HTML)" if target == "book" else target)


def _site_of(target: str) -> str:
    """Where ``make <target>`` writes the site: jupyter-book's ``<path-output>/_build/html``."""
    found = re.search(r"jupyter-book build \. .*?(?:--path-output (\S+))?\s*$",
                      _build_recipe(target), re.M)
    assert found, f"`make {target}` runs no jupyter-book build of the book"
    return f"{found.group(1)}/_build/html" if found.group(1) else "_build/html"


# --------------------------------------------------------------------- the workflow


def test_the_one_input_is_the_edition_with_two_choices():
    dispatch = _triggers(_flow())["workflow_dispatch"]
    assert list(dispatch["inputs"]) == ["edition"]
    edition = dispatch["inputs"]["edition"]
    assert edition["type"] == "choice"
    assert edition["options"] == list(EDITIONS)
    assert edition["default"] == "student"


def test_pushes_to_main_publish_the_student_edition_unless_a_variable_says_otherwise():
    flow = _flow()
    assert _triggers(flow)["push"]["branches"] == ["main"]
    expression = flow["jobs"]["build"]["env"]["EDITION"]
    # A push has no inputs: the repository variable, if it is set, or the student edition.
    assert _evaluate(expression, inputs={}, variables={}) == "student"
    assert _evaluate(expression, inputs={}, variables={"BOOK_EDITION": "full"}) == "full"
    # Run by hand, the choice wins over the variable.
    assert _evaluate(expression, {"edition": "student"}, {"BOOK_EDITION": "full"}) == "student"
    assert _evaluate(expression, {"edition": "full"}, {}) == "full"


@pytest.mark.parametrize(("edition", "target"), [("student", "exercises"), ("full", "book")])
def test_each_edition_builds_with_its_make_target_and_uploads_what_it_builds(
    edition, target, tmp_path
):
    code, outputs = _choose(edition, tmp_path)
    assert code == 0 and outputs["target"] == target
    assert outputs["site"] == _site_of(target)
    context = {f"steps.edition.outputs.{k}": v for k, v in outputs.items()}
    assert _expand(_step("Build the book")["run"], context).strip() == f"make {target}"
    upload = next(s for s in _steps() if "upload-pages-artifact" in s.get("uses", ""))
    assert _expand(upload["with"]["path"], context) == _site_of(target)


def test_the_makefile_writes_the_editions_where_the_workflow_looks():
    # Read independently of the workflow: the student edition has a folder of its own.
    assert _site_of("book") == "_build/html"
    assert _site_of("exercises") == "_build/exercises/_build/html"
    assert f"{sphinxext.HIDE_SOLUTIONS_ENV_VAR}=1" in _build_recipe("exercises")
    assert sphinxext.HIDE_SOLUTIONS_ENV_VAR not in _build_recipe("book")


@pytest.mark.parametrize("edition", EDITIONS)
def test_each_edition_pushes_its_notebooks_to_the_branch_its_launch_buttons_open(
    edition, tmp_path
):
    code, outputs = _choose(edition, tmp_path)
    assert code == 0 and outputs["branch"] == sphinxext.LAUNCH_BRANCHES[edition]
    assert outputs["branch"] == {"full": "notebooks", "student": "student-notebooks"}[edition]


@pytest.mark.parametrize("edition", ["", "Full", "students"])
def test_an_unknown_edition_stops_the_workflow(edition, tmp_path):
    code, outputs = _choose(edition, tmp_path)
    assert code != 0 and not outputs


def test_the_deploy_job_deploys_the_uploaded_site():
    deploy = _flow()["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert any("deploy-pages" in s.get("uses", "") for s in deploy["steps"])
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}


def _git(*args: str, cwd: Path, env: dict | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture
def checkout(tmp_path) -> tuple[Path, Path]:
    """A clone of an empty remote with one commit on main, as actions/checkout leaves it."""
    remote, clone = tmp_path / "remote.git", tmp_path / "checkout"
    _git("init", "-q", "--bare", str(remote), cwd=tmp_path)
    _git("clone", "-q", str(remote), str(clone), cwd=tmp_path)
    who = ["-c", "user.name=t", "-c", "user.email=t@example.org"]
    _git(*who, "commit", "-q", "--allow-empty", "-m", "main", cwd=clone)
    _git("push", "-q", "origin", "HEAD:refs/heads/main", cwd=clone)
    return remote, clone


def _push_notebooks(clone: Path, site: str, tmp_path: Path) -> subprocess.CompletedProcess:
    step = _step("Push the reader notebooks to the edition's branch")
    context = {"github.workspace": str(clone), "steps.edition.outputs.site": site,
               "steps.edition.outputs.branch": "notebooks", "runner.temp": str(tmp_path)}
    env = {k: _expand(str(v), context) for k, v in step["env"].items()}
    env = dict(os.environ, **env, EDITION="student", GITHUB_SHA="0" * 40)
    return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=clone, env=env,
                          capture_output=True, text=True)


def test_the_notebooks_step_force_pushes_the_sites_notebooks_folder_to_an_orphan_branch(
    checkout, tmp_path
):
    remote, clone = checkout
    step = _step("Push the reader notebooks to the edition's branch")
    assert step["env"]["NOTEBOOKS"].endswith(f"/{sphinxext.READER_DIR}")
    assert sphinxext.READER_DIR == "_notebooks"
    assert _flow()["jobs"]["build"]["permissions"]["contents"] == "write"
    site = "_build/exercises/_build/html"
    notebooks = clone / site / "_notebooks"
    (notebooks / "book").mkdir(parents=True)
    (notebooks / "book" / "margin.ipynb").write_text("{}\n")
    (notebooks / "requirements.txt").write_text("numpy\n")
    for _ in range(2):  # the second run replaces the branch instead of adding to it
        proc = _push_notebooks(clone, site, tmp_path)
        assert proc.returncode == 0, proc.stderr
    files = _git("ls-tree", "-r", "--name-only", "notebooks", cwd=remote).split()
    assert files == ["book/margin.ipynb", "requirements.txt"]
    assert _git("rev-list", "--count", "notebooks", cwd=remote).strip() == "1"
    assert not _git("status", "--porcelain", "--untracked-files=no", cwd=clone).strip()


def test_the_notebooks_step_is_skipped_without_a_notebooks_folder(checkout, tmp_path):
    remote, clone = checkout
    proc = _push_notebooks(clone, "_build/html", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "notebooks" not in _git("branch", "--list", cwd=remote)
