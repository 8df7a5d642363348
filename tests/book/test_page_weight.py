"""What a chapter page weighs, with everything the browser loads on opening it (issue 37).

Counted from the browser's own responses, uncompressed (Python's server sends files as they
are): the HTML with its inline pictures, scripts, style sheets, fonts, MathJax and what it
loads on demand, images. Each chapter page stays under 2.5 MB. A page's static sliders pack
their frames (perceptron_core.figures.sliders.StaticExplorer), which is most of a chapter's
HTML.

Run with ``BOOK_HTML_DIR=/path/to/_build/html pytest tests/book/test_page_weight.py -m browser``.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from test_browser import Visit, _pages, _redirect, _rel
from test_browser import base_url, browser  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

MAX_PAGE_BYTES = 2_500_000


def test_every_chapter_page_weighs_at_most_2_5_mb(browser, base_url):
    """Every page but Sphinx's generated ones and jupyter-book's redirecting index.html,
    opened at 1280 px until MathJax and its fonts are done and the network is idle: the bytes
    of all responses, each URL once."""
    weights, lines = {}, []
    for path in [p for p in _pages(generated=False) if _redirect(p) is None]:
        rel, bodies = _rel(path), {}
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.on("response", lambda r, bodies=bodies: bodies.setdefault(r.url, r))
        try:
            page.goto(base_url + rel, wait_until="load")
            Visit.settle(SimpleNamespace(page=page))  # MathJax's fonts and TeX packages too
            # blob: and data: URLs are made in the page from what it already loaded (a
            # slider's pictures, unpacked ahead of a move): nothing more crosses the network.
            sizes = {url: len(r.body()) for url, r in bodies.items()
                     if r.status == 200 and not url.startswith(("blob:", "data:"))}
        finally:
            context.close()
        weights[rel] = sum(sizes.values())
        top = sorted(sizes.items(), key=lambda kv: -kv[1])[:5]
        lines.append(f"{rel:28} {weights[rel] / 1e6:5.2f} MB in {len(sizes):3} responses; "
                     + ", ".join(f"{url.rsplit('/', 1)[-1][:30]} {n / 1e6:.2f}" for url, n in top))
    print("\n== page weight (MB, uncompressed, all responses)\n" + "\n".join(lines))
    heavy = {rel: w for rel, w in weights.items() if w > MAX_PAGE_BYTES}
    assert not heavy, f"over {MAX_PAGE_BYTES / 1e6} MB: {heavy}"
