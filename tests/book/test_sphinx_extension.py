"""book/_tools/sphinx_extension.py: the static sliders' switch, local MathJax, the student edition."""

from __future__ import annotations

import fnmatch

from perceptron_core.figures import sliders
from perceptron_core.figures.sliders import STATIC_ENV_VAR


class _FakeSphinx:
    def __init__(self):
        self.handlers = {}

    def connect(self, event, handler, priority=500):  # Sphinx's signature
        self.handlers[event] = handler

    def setup_extension(self, name):  # the book's extension loads its `editions` part
        self.extensions = [*getattr(self, "extensions", []), name]


def test_sphinx_extension_sets_the_same_variable(monkeypatch):
    import sphinx_extension as sphinxext

    monkeypatch.delenv(STATIC_ENV_VAR, raising=False)
    assert sphinxext.STATIC_ENV_VAR == STATIC_ENV_VAR
    app = _FakeSphinx()
    sphinxext.setup(app)
    assert sliders.static_mode_requested()
    assert {"config-inited", "build-finished"} <= set(app.handlers)


def test_sphinx_extension_serves_mathjax3_from_the_book(tmp_path):
    """book/_tools/sphinx_extension.py points Sphinx at the local MathJax 3 and copies what it loads."""
    from types import SimpleNamespace

    import sphinx_extension as sphinxext

    assert sphinxext._bundled_mathjax() is not None, "sphinx-mathjax-offline is in requirements.txt"
    config = SimpleNamespace(mathjax_path="https://cdn.example/mathjax.js", mathjax3_config=None)
    sphinxext._use_local_mathjax(None, config)
    assert config.mathjax_path == "mathjax/tex-chtml.js"
    assert config.mathjax3_config["options"]["menuOptions"]["settings"]["assistiveMml"] is True
    # The book's own settings win, and the module's defaults are not shared (myst-parser
    # writes into this dict).
    config = SimpleNamespace(mathjax_path="", mathjax3_config={"tex": {"tags": "ams"}})
    sphinxext._use_local_mathjax(None, config)
    assert config.mathjax3_config["tex"] == {"tags": "ams"} and "options" in config.mathjax3_config
    config.mathjax3_config["options"]["processHtmlClass"] = "math"
    assert "processHtmlClass" not in sphinxext.MATHJAX3_CONFIG["options"]
    app = SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(format="html"))
    sphinxext._copy_mathjax(app, None)
    copied = tmp_path / "_static" / "mathjax"
    assert (copied / "tex-chtml.js").is_file()
    assert (copied / "output" / "chtml" / "fonts" / "woff-v2").is_dir()
    assert (copied / "sre" / "mathmaps" / "en.json").is_file()
    top = {p.name for p in copied.iterdir()}
    assert not fnmatch.filter(top - {"tex-chtml.js"}, "*.js"), top
    assert "adaptors" not in top



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

