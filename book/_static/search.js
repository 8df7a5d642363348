/* The book's search page: Sphinx's own search (searchtools.js, searchindex.js), with
 *
 * - excerpts in plain text: Sphinx takes the text of the page's whole main element, so an
 *   excerpt read "....pdf Margin Contents", showed equations as TeX source and code cells as
 *   code. Here it is the text of the article (or of the section a result links to) without
 *   code, headings, sliders or buttons, and equations in plain characters ("(R/γ)²").
 * - results for sections: Sphinx's index already lists every section title with its anchor
 *   ("alltitles"), but Sphinx shows a section only when the query is half its title or more.
 *   Here every section whose title holds all the query's words (stemmed as Sphinx stems them)
 *   is a result too, linked to its anchor. Pages whose title holds the words come first, then
 *   such sections, then the pages whose text holds them; shorter titles first in each group.
 * - from file://: a browser lets a page read no other file, so Sphinx's fetch of each result
 *   (for its excerpt) failed with an error in the console. There the results are titles only,
 *   and one sentence says so.
 *
 * Loaded on search.html only, deferred, so that it runs after searchtools.js has defined
 * `Search` and before the search runs (book/_tools/sphinx_extension.py, _search_page_script).
 */
(function () {
  "use strict";
  if (typeof Search === "undefined") { return; }

  // TeX commands as characters; commands not listed write nothing (\left, \text, \mathcal...),
  // the names of functions write their name.
  var SYMBOLS = {
    alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε", varepsilon: "ε", eta: "η",
    theta: "θ", lambda: "λ", Lambda: "Λ", mu: "μ", pi: "π", rho: "ρ", sigma: "σ", tau: "τ",
    phi: "φ", varphi: "φ", psi: "ψ", ell: "ℓ", dots: "…", ldots: "…", cdots: "⋯", sum: "Σ",
    bigcup: "⋃", infty: "∞", angle: "∠", triangle: "△", star: "⋆", top: "⊤", langle: "⟨",
    rangle: "⟩", lfloor: "⌊", rfloor: "⌋", lceil: "⌈", rceil: "⌉", "|": "‖", lVert: "‖",
    rVert: "‖", lvert: "|", rvert: "|", ",": " ", ";": " ", " ": " ", quad: " ", qquad: " ",
    // Escaped braces are kept apart from TeX's groups until the groups are gone; \frac and
    // \sqrt until their groups are read.
    "{": "\u0001", "}": "\u0002", frac: "\\frac", tfrac: "\\frac", sqrt: "\\sqrt"
  };
  // Operators, with a space either side (TeX sets the spacing itself, so the source has none).
  "cdot · le ≤ leq ≤ ge ≥ geq ≥ ne ≠ neq ≠ approx ≈ sim ∼ gg ≫ in ∈ notin ∉ cup ∪ pm ± times × "
    .concat("perp ⊥ to → mapsto ↦ leftarrow ←").split(" ").forEach(function (word, i, all) {
      if (i % 2 === 0) { SYMBOLS[word] = " " + all[i + 1] + " "; }
    });
  var NAMES = ["max", "min", "ln", "log", "cos", "sin", "arcsin", "Pr"];
  var SUPERSCRIPTS = { 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸",
                       9: "⁹", "+": "⁺", "-": "⁻", "*": "*" };

  /** Plain text for a formula's TeX, e.g. "\\((R/\\gamma)^2\\)" -> "(R/γ)²". */
  function texToText(tex) {
    var text = tex.trim().replace(/^\\[([]|\\[)\]]$/g, "")
      .replace(/\\(?:begin|end|tag)\s*\{[^{}]*\}|&/g, " ")
      .replace(/\\mathbb\s*\{?R\}?/g, "ℝ")
      .replace(/\\bar\s*\{?(\w)\}?/g, "$1\u0304")
      .replace(/\\([A-Za-z]+|.)/g, function (all, name) {
        return SYMBOLS.hasOwnProperty(name) ? SYMBOLS[name] : NAMES.indexOf(name) >= 0 ? name : "";
      });
    // Innermost groups first: a fraction's parts, a root's, a superscript or subscript of
    // more than one character (in parentheses where they hold more than one term), then any
    // other group's braces. A fraction or root of single characters has no braces (\tfrac12).
    var part = function (s) {
      return /[\s+\-/·=,<>]/.test(s.trim()) ? "(" + s.trim() + ")" : s.trim();
    };
    for (var before = ""; before !== text;) {
      before = text;
      text = text.replace(/\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, function (all, a, b) {
        return part(a) + "/" + part(b);
      }).replace(/\\sqrt\s*\{([^{}]*)\}/g, function (all, a) { return "√" + part(a); })
        .replace(/\\frac\s*([^\s{}\\])\s*([^\s{}\\])/g, "$1/$2")
        .replace(/\\sqrt\s*([^\s{}\\])/g, "√$1")
        .replace(/([_^])\{([^{}]*)\}/g, function (all, sign, a) {
          return /^[0-9]$/.test(a) || (sign === "^" && /^[-+*0-9]+$/.test(a)) ? sign + a
            : sign + part(a);
        }).replace(/(?<!\\frac\s*|\\sqrt\s*|[_^}])\{([^{}]*)\}/g, "$1");
    }
    return text.replace(/[{}]|\\frac|\\sqrt/g, "").replace(/\u0001/g, "{").replace(/\u0002/g, "}")
      .replace(/\^([-+*0-9]+)/g, function (all, a) {
        return a.replace(/./g, function (c) { return SUPERSCRIPTS[c]; });
      }).replace(/\s+/g, " ").replace(/([(]) | ([),])/g, "$1$2").trim();
  }

  /** A title as plain text; a box's title is indexed as " (Its title)" (its number is on the
   *  page only). */
  function plainTitle(title) {
    return texToText(title).replace(/^\((.*)\)$/, "$1");
  }

  // What an excerpt leaves out: code cells and code blocks, headings (the result's title names
  // its page or section), the static sliders, buttons, and what Sphinx itself leaves out.
  var LEAVE_OUT = "div.cell, div.highlight, pre, h1, h2, h3, h4, h5, h6, .pc-explore, button, " +
                  ".headerlink, script, style";

  // Each page parsed once: a page is fetched again for every section of it that is a result.
  var parsed = new Map();

  Search.htmlToText = function (html, anchor) {
    if (!parsed.has(html)) { parsed.set(html, new DOMParser().parseFromString(html, "text/html")); }
    var doc = parsed.get(html);
    var article = doc.querySelector("article") || doc.querySelector('[role="main"]');
    // An anchor is looked up by id, not as a CSS selector: some ids (a solution's,
    // "book/margin-solution-11") are not valid selectors.
    var part = (anchor && doc.getElementById(decodeURIComponent(anchor.slice(1)))) || article;
    if (!part) { return ""; }
    part = part.cloneNode(true);
    part.querySelectorAll(LEAVE_OUT).forEach(function (el) { el.remove(); });
    part.querySelectorAll(".math").forEach(function (el) {
      el.replaceWith(texToText(el.textContent));
    });
    return part.textContent.replace(/\s+/g, " ").trim();
  };

  // An excerpt starts and ends with whole words.
  var sphinxSummary = Search.makeSearchSummary;
  Search.makeSearchSummary = function () {
    var summary = sphinxSummary.apply(Search, arguments);
    if (summary) {
      summary.textContent = summary.textContent.replace(/^\.\.\.\S*\s+/, "…")
        .replace(/\s+\S*\.\.\.$/, "…");
    }
    return summary;
  };

  var sphinxSearch = Search._performSearch;
  Search._performSearch = function (query, searchTerms) {
    var results = sphinxSearch.apply(Search, arguments);
    if (!searchTerms.size) { return results; }
    var index = Search._index, stemmer = new Stemmer();
    var holdsTheQuery = function (title) {
      var words = splitQuery(title.toLowerCase()).map(function (w) { return stemmer.stemWord(w); });
      return Array.from(searchTerms).every(function (t) { return words.indexOf(t) >= 0; });
    };
    var listed = new Set(results.map(function (r) { return r[0] + r[2]; }));
    Object.entries(index.alltitles).forEach(function (entry) {
      var own = plainTitle(entry[0]);
      if (!own || !holdsTheQuery(own)) { return; }
      entry[1].forEach(function (place) {
        var file = place[0], anchor = place[1] === null ? "" : "#" + place[1];
        if (anchor && !listed.has(index.docnames[file] + anchor)) {
          listed.add(index.docnames[file] + anchor);
          results.push([index.docnames[file], index.titles[file] + " > " + own, anchor, null, 0,
                        index.filenames[file]]);
        }
      });
    });
    results.forEach(function (r) {
      r[1] = r[1].split(" > ").map(plainTitle).join(" > ");
      var own = r[1].split(" > ").pop();
      var tier = holdsTheQuery(own) ? (r[2] ? 1 : 2) : 0;
      if (tier) { r[4] = 100 * tier + Math.round(50 * query.trim().length / own.length); }
    });
    // Sphinx shows the results from the end of the list.
    return results.sort(function (a, b) { return a[4] - b[4] || (a[1] < b[1]) - (a[1] > b[1]); });
  };

  // The count is of pages and sections now: the status line through Sphinx's own catalogue
  // of messages (searchtools.js writes it with `_`, Documentation.gettext).
  var FINISHED = "Search finished, found ${resultCount} page(s) matching the search query.";
  Documentation.TRANSLATIONS[FINISHED] = "Found ${resultCount} pages and sections that match.";

  if (window.location.protocol === "file:") {
    DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
    var note = document.createElement("p");
    note.innerHTML = "This book is open from a file, so search shows the titles of the " +
      "pages and sections that match, without excerpts: a browser lets a page read no other " +
      "file. Served over http (for example by <code>python -m http.server</code> in the " +
      "book’s folder), search shows an excerpt of each.";
    document.getElementById("search-results").before(note);
  }
})();
