"""The book's search page (Sphinx's search with book/_static/search.js) in headless Chromium.

Run with ``make test-browser`` or, against another build,
``BOOK_HTML_DIR=/path/to/_build/html pytest tests/book/test_search.py -m browser``.

Over http, a search lists sections as well as pages, each section linked to its anchor, and
every excerpt is the plain text a reader reads: no TeX source, no code, nothing from the page's
header or download menu. From file://, where a page may read no other file, the results are
titles only and one sentence says why, with no failed request and no console error. The
results page, in the light and the dark theme, has no serious axe-core violation.
"""

from __future__ import annotations

import re

import pytest

# The same browser, local server and page recorder as the desktop tests.
from test_browser import AXE_OPTIONS, HTML_DIR, Visit
from test_browser import base_url, browser, visit  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

# What an excerpt must not show: TeX source (a delimiter or any command), code, the download
# menu (".ipynb", ".pdf") and the page's table of contents ("Contents").
NOT_PLAIN = re.compile(r"\\[A-Za-z(\[]|\bimport |\.pdf|\.ipynb|Contents")
NOTE = "open from a file"

_RESULTS = """() => [...document.querySelectorAll('#search-results ul.search > li')].map(li => ({
  title: li.querySelector('a').textContent, href: li.querySelector('a').getAttribute('href'),
  excerpt: (li.querySelector('p.context') || {textContent: null}).textContent}))"""


def _search(v: Visit, with_excerpts: bool) -> list[dict]:
    """The results once the search has finished (and, over http, every excerpt is in)."""
    v.page.wait_for_selector("#search-results p.search-summary:not(:empty)", timeout=30_000)
    if with_excerpts:
        v.page.wait_for_function("""() => { const n = document.querySelectorAll(
                                     '#search-results ul.search > li');
                                   return [...n].every(li => li.querySelector('p.context')); }""",
                                 timeout=30_000)
    v.page.wait_for_load_state("networkidle")
    return v.page.evaluate(_RESULTS)


@pytest.mark.parametrize(("query", "mode"), [("margin", "light"), ("perceptron", "dark")])
def test_search_lists_sections_with_plain_text_excerpts(visit, base_url, query, mode):
    from axe_playwright_python.sync_playwright import Axe

    v = visit(f"{base_url}search.html?q={query}", mode)
    results = _search(v, with_excerpts=True)
    assert not v.problems(), v.problems()
    # The results as a reader sees them, the searched words marked, pass axe-core (the page
    # tests see the search page without results).
    axe = Axe().run(v.page, options=AXE_OPTIONS).response["violations"]
    assert not [(r["id"], r["nodes"][0]["target"]) for r in axe
                if r["impact"] in ("serious", "critical")], axe
    print(f"\n{query!r}: {len(results)} results; the first three:")
    for r in results[:3]:
        print(f"  {r['title']} [{r['href']}]\n    {r['excerpt'][:160]}")
    # The chapter named by the query comes first.
    assert results[0]["href"] == f"book/{query}.html", results[0]
    sections = [r for r in results if "#" in r["href"]]
    assert len(sections) >= 5, f"only {len(sections)} results are sections: {results}"
    for r in sections:
        page, anchor = r["href"].split("#")
        assert r["title"].count(" > ") == 1, r["title"]
        assert f'id="{anchor}"' in (HTML_DIR / page).read_text(encoding="utf-8"), r["href"]
    for r in results:
        # A page's excerpt is where the page first says the word; a section's is its start.
        assert query in r["excerpt"].lower() if "#" not in r["href"] else r["excerpt"], r
        assert not NOT_PLAIN.search(r["excerpt"] + r["title"]), (NOT_PLAIN.search(
            r["excerpt"] + r["title"]), r)


def test_search_from_a_file_lists_titles_and_says_why(visit):
    v = visit((HTML_DIR / "search.html").as_uri() + "?q=margin")
    results = _search(v, with_excerpts=False)
    assert not v.problems(), v.problems()
    assert results and not [r for r in results if r["excerpt"] is not None], results
    text = v.page.inner_text("main")
    assert text.count(NOTE) == 1, f"the note is shown {text.count(NOTE)} times"
    assert "python -m http.server" in text
