"""book/_tools/sphinx_extension.py: the static sliders' switch and the student edition."""

from __future__ import annotations

from perceptron_core.figures import sliders
from perceptron_core.figures.sliders import STATIC_ENV_VAR


class _FakeSphinx:
    def __init__(self):
        self.handlers = {}

    def connect(self, event, handler, priority=500):  # Sphinx's signature
        self.handlers[event] = handler


def test_sphinx_extension_sets_the_same_variable(monkeypatch):
    import sphinx_extension as sphinxext

    monkeypatch.delenv(STATIC_ENV_VAR, raising=False)
    assert sphinxext.STATIC_ENV_VAR == STATIC_ENV_VAR
    app = _FakeSphinx()
    sphinxext.setup(app)
    assert sliders.static_mode_requested()
    assert {"config-inited", "build-finished", "missing-reference"} <= set(app.handlers)


def test_the_student_edition_refuses_a_table_with_the_guide_and_unlinks_its_labels(
        tmp_path, monkeypatch):
    """`make exercises` builds from _toc.yml without the instructor guide (jupyter-book's
    --toc); a student build from the full table stops, and intro.md's references to the guide
    become text, while any other missing reference still fails the build."""
    from types import SimpleNamespace

    import pytest
    from sphinx.errors import ConfigError

    import sphinx_extension as sphinxext
    from chapters import REPO

    app = SimpleNamespace(srcdir=str(REPO))
    full = SimpleNamespace(external_toc_path="_toc.yml")
    (tmp_path / "toc.yml").write_text("root: book/intro\n")
    student = SimpleNamespace(external_toc_path=str(tmp_path / "toc.yml"))
    node = {"reftype": "ref", "reftarget": "instructor-guide"}
    monkeypatch.delenv(sphinxext.HIDE_SOLUTIONS_ENV_VAR, raising=False)
    sphinxext._student_toc(app, full)
    assert sphinxext._unlink_the_guide(app, None, node, "text") is None
    monkeypatch.setenv(sphinxext.HIDE_SOLUTIONS_ENV_VAR, "1")
    with pytest.raises(ConfigError, match="make exercises"):
        sphinxext._student_toc(app, full)
    sphinxext._student_toc(app, student)
    assert sphinxext._unlink_the_guide(app, None, node, "text") == "text"
    other = {"reftype": "ref", "reftarget": "notation"}
    assert sphinxext._unlink_the_guide(app, None, other, "text") is None


def test_exercises_build_drops_every_solution(monkeypatch):
    from docutils import nodes
    from docutils.utils import new_document
    from sphinx_exercise.nodes import solution_node

    import sphinx_extension as sphinxext

    def page():
        doc = new_document("page")
        section = nodes.section()
        section += nodes.paragraph(text="exercise")
        section += solution_node()  # a plain solution, or a gated one after sphinx-exercise merged it
        doc += section
        doc += solution_node()
        return doc

    monkeypatch.delenv(sphinxext.HIDE_SOLUTIONS_ENV_VAR, raising=False)
    kept = page()
    sphinxext._drop_solutions(None, kept)
    assert len(list(kept.findall(solution_node))) == 2

    monkeypatch.setenv(sphinxext.HIDE_SOLUTIONS_ENV_VAR, "1")
    dropped = page()
    sphinxext._drop_solutions(None, dropped)
    assert not list(dropped.findall(solution_node))
    assert [p.astext() for p in dropped.findall(nodes.paragraph)] == ["exercise"]

