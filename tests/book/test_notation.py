"""The page book/notation.md is the book's one reference for its symbols.

Every symbol that a chapter introduces in a ``prf:definition`` must be a row of the page's first
table, "This book's symbols", and that table must give each symbol one meaning.

Which symbols does a definition introduce? The extractor below reads them from the definition's
text, by the conventions the chapters follow (the lead's brief lists them for chapter authors):

1. math in the definition's **title**, e.g. ``{prf:definition} The radius $R$``;
2. math **right after an emphasized term** (``*maximum margin* $\\gamma^*$``,
   ``*target* $\\tau \\in (0, 1)$``), or right before "is a/an/the *term*"
   (``$u^*$ is a **maximum-margin separator**``);
3. math **inside an emphasized term** (``*$(\\varepsilon, \\delta)$-correct*`` introduces
   ``\\varepsilon`` and ``\\delta``);
4. an **equation with the symbol alone on its left**, inline or displayed
   (``$R = \\max_i \\|x_i\\|$``, ``$TD_\\gamma = \\sum_i d_i$``, ``$\\gamma(w, b) = \\min_i \\dots$``),
   unless its right side is a bare number (``$w_0 = 0$``, ``$\\tau = \\tfrac12$`` set values, they
   define nothing);
5. an explicit MyST comment line in the definition's body, which the page does not show:
   ``% notation: $D$, $\\operatorname{err}(h)$``.

In rules 1, 2, 3 and 5 the symbol is the part of the math before its first relation (``=``,
``\\in``, ``>``, ...), and a tuple ``(a, b)`` there stands for its entries. Only "symbol-like"
math counts: a letter, a Greek letter, a short capital name such as ``TD``, or an accented or
``\\operatorname``/``\\mathcal`` letter, with primes, sub- and superscripts and an argument list
of such symbols. Symbols are compared after a light normalization of the LaTeX (spaces, spacing
commands and braces removed, sub- and superscripts in a fixed order, ``\\ast`` as ``*``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from chapters import chapter_paths  # book/_tools (tests/conftest.py puts it on sys.path)

BOOK = Path(__file__).resolve().parents[2] / "book"
NOTATION = BOOK / "notation.md"
CHAPTERS = chapter_paths()
TABLE_HEADING = "## This book's symbols"

# --------------------------------------------------------------------------------------------
# Reading the chapters


def markdown_cells(path: Path) -> list[str]:
    """The markdown cells of a notebook, as text."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


@dataclass
class Definition:
    title: str
    body: str
    label: str = ""
    symbols: list[str] = field(default_factory=list)


_OPEN = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,})\{prf:definition\}[ \t]*(?P<title>.*)$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):\s*(?P<value>.*)$")


def definitions(text: str) -> list[Definition]:
    """The ``prf:definition`` blocks of a markdown text, fenced by 3 or more backticks or colons.

    A block ends at the first line holding only a fence of the same character, at least as long
    as the opening one, so a 4-backtick definition may contain 3-backtick code.
    """
    found: list[Definition] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        fence = m["fence"]
        close = re.compile(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
        body: list[str] = []
        i += 1
        while i < len(lines) and not close.match(lines[i]):
            body.append(lines[i])
            i += 1
        i += 1  # past the closing fence
        label = ""
        while body and _OPTION.match(body[0].strip()):  # the directive's options come first
            opt = _OPTION.match(body.pop(0).strip())
            if opt["key"] == "label":
                label = opt["value"].strip()
        d = Definition(m["title"].strip(), "\n".join(body), label)
        d.symbols = defined_symbols(d.title, d.body)
        found.append(d)
    return found


# --------------------------------------------------------------------------------------------
# LaTeX: tokens, symbols and their normal form

_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[^\s]|\s+")
_SPACING = {r"\,", r"\;", r"\:", r"\!", r"\ ", r"\quad", r"\qquad", r"\left", r"\right",
            r"\big", r"\Big", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr", r"\displaystyle",
            r"\textstyle"}
_GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
    "vartheta", "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "varpi", "rho", "varrho",
    "sigma", "varsigma", "tau", "upsilon", "phi", "varphi", "chi", "psi", "omega", "Gamma",
    "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega", "ell",
}
# Commands that make one symbol of the group (or token) that follows.
_WRAPPERS = {"bar", "tilde", "hat", "vec", "dot", "mathcal", "mathbb", "mathbf", "mathrm",
             "mathsf", "boldsymbol", "bm", "operatorname", "overline", "widehat", "widetilde"}
_RELATIONS = {"=", "<", ">", r"\in", r"\notin", r"\ge", r"\geq", r"\le", r"\leq", r"\ne",
              r"\neq", r"\sim", r"\subset", r"\subseteq", r"\to", r"\coloneqq", r"\equiv",
              r"\approx", r"\mapsto", ":", r"\colon"}
_ALIASES = {r"\ast": "*", r"\star": "*", r"\prime": "'", r"\geq": r"\ge", r"\leq": r"\le",
            r"\neq": r"\ne"}


def tokens(latex: str) -> list[str]:
    """LaTeX tokens without whitespace and spacing commands; ``^{\\prime}`` style aliases mapped."""
    out = []
    for t in _TOKEN.findall(latex):
        if t.isspace() or t in _SPACING:
            continue
        out.append(_ALIASES.get(t, t))
    return out


def _group(toks: list[str], i: int) -> tuple[list[str], int]:
    """The tokens of the group starting at ``toks[i]`` (a braced group, or one token)."""
    if i >= len(toks):
        raise ValueError("missing group")
    if toks[i] != "{":
        return [toks[i]], i + 1
    depth, j = 0, i
    while j < len(toks):
        depth += {"{": 1, "}": -1}.get(toks[j], 0)
        if depth == 0:
            return toks[i + 1:j], j + 1
        j += 1
    raise ValueError("unbalanced braces")


def _flat(toks: list[str]) -> str:
    """A group's contents without braces (the light normalization)."""
    return "".join(t for t in toks if t not in "{}")


def _symbol(toks: list[str], i: int) -> tuple[str, int] | None:
    """Parse one symbol at ``toks[i]``; its normal form and the index after it, or None."""
    if i >= len(toks):
        return None
    t = toks[i]
    if t.startswith("\\") and t[1:] in _WRAPPERS:
        try:
            g, j = _group(toks, i + 1)
        except ValueError:
            return None
        base = t + "{" + _flat(g) + "}"
    elif t.startswith("\\") and t[1:] in _GREEK:
        base, j = t, i + 1
    elif re.fullmatch(r"[A-Za-z]", t):
        base, j = t, i + 1
        while j < len(toks) and re.fullmatch(r"[A-Z]", toks[j]) and re.fullmatch(r"[A-Z]", t):
            base, j = base + toks[j], j + 1  # a short capital name such as TD
        if len(base) > 3:
            return None
    else:
        return None
    primes = ""
    while j < len(toks) and toks[j] == "'":
        primes, j = primes + "'", j + 1
    sub = sup = None
    while j < len(toks) and toks[j] in ("_", "^"):
        try:
            g, k = _group(toks, j + 1)
        except ValueError:
            return None
        if toks[j] == "_" and sub is None:
            sub = _flat(g)
        elif toks[j] == "^" and sup is None:
            sup = _flat(g)
        else:
            return None  # a double subscript: not a symbol
        j = k
    norm = base + primes
    if sub is not None:
        norm += "_{" + sub + "}"
    if sup is not None:
        norm += "^{" + sup + "}"
    if j < len(toks) and toks[j] == "(":  # an argument list of symbols: gamma(w, b)
        args, k = [], j + 1
        while True:
            s = _symbol(toks, k)
            if s is None:
                break
            args.append(s[0])
            k = s[1]
            if k < len(toks) and toks[k] == ",":
                k += 1
                continue
            if k < len(toks) and toks[k] == ")" and args:
                norm += "(" + ",".join(args) + ")"
                j = k + 1
            break
    return norm, j


def symbol(latex: str) -> str | None:
    """The normal form of ``latex`` if all of it is one symbol, else None."""
    toks = tokens(latex)
    s = _symbol(toks, 0)
    return s[0] if s is not None and s[1] == len(toks) else None


def _top_level_split(toks: list[str], seps: set[str]) -> list[list[str]]:
    parts, depth, cur = [], 0, []
    for t in toks:
        if t in ("{", "(", "[", r"\{", r"\langle"):
            depth += 1
        elif t in ("}", ")", "]", r"\}", r"\rangle"):
            depth -= 1
        if depth == 0 and t in seps:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def _symbols_of(toks: list[str]) -> list[str]:
    """Symbols of a token list that is a symbol or a tuple ``(a, b, ...)`` of symbols."""
    s = _symbol(toks, 0)
    if s is not None and s[1] == len(toks):
        return [s[0]]
    if len(toks) >= 2 and toks[0] == "(" and toks[-1] == ")":
        items = _top_level_split(toks[1:-1], {","})
        syms = [_symbol(it, 0) for it in items]
        if all(x is not None and x[1] == len(it) for x, it in zip(syms, items)):
            return [x[0] for x in syms]  # type: ignore[index]
    return []


def head_symbols(latex: str) -> list[str]:
    """The symbols that math names before its first relation: ``\\tau \\in (0,1)`` -> tau."""
    return _symbols_of(_top_level_split(tokens(latex), _RELATIONS)[0])


_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\\[dt]?frac\d\d|\\[dt]?frac\{\d+\}\{\d+\}|\d+/\d+|\\infty)[.,]?")


def equation_symbol(latex: str) -> str | None:
    """The symbol an equation ``symbol = expression`` defines; None for ``w_0 = 0`` and others."""
    parts = _top_level_split(tokens(latex), {"=", r"\coloneqq", r"\equiv"})
    if len(parts) < 2 or not parts[0] or not parts[1]:
        return None
    s = _symbol(parts[0], 0)
    if s is None or s[1] != len(parts[0]):
        return None
    rhs = "".join(parts[1]).rstrip(".,")
    if _NUMBER.fullmatch(rhs) or rhs in ("", "0"):
        return None
    return s[0]


# --------------------------------------------------------------------------------------------
# Markdown: math spans, emphasis and the rules

_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)(.+?)(?<![\\$])\$(?!\$)", re.S)
_PLACE = "\x00{}\x00"
_PLACEHOLDER = re.compile(r"\x00(\d+)\x00")
_EMPH = re.compile(r"(?<![\w*])(\*\*|\*|__|_)(?=\S)(.+?)(?<=\S)\1(?![\w*])", re.S)
_COMMENT = re.compile(r"^\s*%\s*notation\s*:(.*)$", re.M | re.I)


def _mask_math(text: str) -> tuple[str, list[tuple[str, bool]]]:
    """Replace math by placeholders; return the text and the spans (latex, is_display)."""
    spans: list[tuple[str, bool]] = []

    def keep(display: bool):
        def f(m: re.Match) -> str:
            spans.append((m.group(1), display))
            return _PLACE.format(len(spans) - 1)
        return f

    text = _CODE.sub(" ", text)
    text = _DISPLAY.sub(keep(True), text)
    text = _INLINE.sub(keep(False), text)
    return text, spans


def defined_symbols(title: str, body: str) -> list[str]:
    """The symbols a definition with this title and body introduces, by the rules above."""
    found: list[str] = []

    def add(syms):
        for s in syms:
            if s and s not in found:
                found.append(s)

    # 5. explicit comment lines (taken out first: they are not prose)
    for m in _COMMENT.finditer(body):
        spans = _INLINE.findall(m.group(1))
        for latex in spans:
            syms = head_symbols(latex)
            if not syms:
                raise ValueError(f"`% notation:` names {latex!r}, which is not a symbol")
            add(syms)
    body = _COMMENT.sub("", body)
    # 1. the title
    t_text, t_spans = _mask_math(title)
    for latex, _ in t_spans:
        add(head_symbols(latex))
    text, spans = _mask_math(body)
    # 3. math inside an emphasized term; 2. math right after one, or before "is a *term*"
    for m in _EMPH.finditer(text):
        for k in _PLACEHOLDER.findall(m.group(2)):
            add(head_symbols(spans[int(k)][0]))
        after = re.match(r"\s*" + _PLACEHOLDER.pattern, text[m.end():])
        if after:
            add(head_symbols(spans[int(after.group(1))][0]))
        before = re.search(_PLACEHOLDER.pattern + r"\s+(?:is|are)\s+(?:called\s+)?(?:a|an|the)\s+$",
                           text[:m.start()])
        if before:
            add(head_symbols(spans[int(before.group(1))][0]))
    # 4. equations with the symbol alone on the left
    for latex, _ in spans:
        add([equation_symbol(latex)])
    return found


# --------------------------------------------------------------------------------------------
# The notation page


def table_rows(page: str, heading: str = TABLE_HEADING) -> list[list[str]]:
    """The body rows of the first table after ``heading``, as lists of cells."""
    lines = page.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == heading)
    rows, in_table = [], False
    for line in lines[start + 1:]:
        if line.startswith("|"):
            in_table = True
            rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
        elif in_table:
            break
    return [r for r in rows[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]


def table_symbols(page: str) -> list[str]:
    """The symbols of the page's first table (first column), in order, with repeats."""
    out = []
    for row in table_rows(page):
        for latex in _INLINE.findall(row[0]):
            s = symbol(latex)
            out.append(s if s is not None else "".join(tokens(latex)))
    return out


def missing_symbols(chapter_texts: dict[str, list[str]], page: str) -> list[tuple[str, str, str]]:
    """(chapter, definition label or title, symbol) for each defined symbol not in the table."""
    listed = set(table_symbols(page))
    missing = []
    for chapter, cells in chapter_texts.items():
        for cell in cells:
            for d in definitions(cell):
                for s in d.symbols:
                    if s not in listed:
                        missing.append((chapter, d.label or d.title, s))
    return missing


def labels_in_book() -> set[str]:
    """Every ``(label)=`` target and ``:label:`` of the chapters and the markdown pages."""
    texts = [c for nb in CHAPTERS for c in markdown_cells(nb)]
    texts += [p.read_text(encoding="utf-8") for p in BOOK.glob("*.md")]
    labels = set()
    for t in texts:
        labels |= set(re.findall(r"^\(([\w-]+)\)=\s*$", t, re.M))
        labels |= set(re.findall(r"^:label:\s*([\w-]+)\s*$", t, re.M))
    return labels


def ref_targets(text: str) -> set[str]:
    """Targets of ``{ref}`` and ``{prf:ref}`` roles, with or without link text."""
    out = set()
    for m in re.finditer(r"\{(?:ref|prf:ref)\}`([^`]*)`", text):
        inner = m.group(1)
        angle = re.search(r"<([^>]+)>\s*$", inner)
        out.add((angle.group(1) if angle else inner).strip())
    return out


# ============================================================================================
# Tests of the extractor, on synthetic text

SYNTHETIC = r"""
Some prose with $\zeta = 1$ outside any definition.

```{prf:definition} The spread $\sigma$
:label: syn-def-spread

The *spread* of the data is $\sigma = \max_i \|x_i - x_1\|$; the *shift* $\xi_k \in \mathbb{R}^d$
is added at step $k$. A minimizer $v^\dagger$ is a **central point**; we start from $w_0 = 0$.

$$
\Omega_{a,b}(x, y) \;=\; \frac{y\,(a \cdot x + b)}{\|a\|}
$$

Also *$(\kappa, \mu)$-stable* data, and $\tau = \tfrac12$ by default.
% notation: $\mathcal{Q}$
```

````{prf:definition} Nested
:label: syn-def-nested

A definition with code inside, and *gap* $\beta^*_b > 0$:

```python
x = "$notmath = 2$"
```
````
"""


def test_extractor_finds_symbols_by_each_rule():
    defs = definitions(SYNTHETIC)
    assert [d.label for d in defs] == ["syn-def-spread", "syn-def-nested"]
    spread, nested = defs
    assert spread.title == r"The spread $\sigma$"
    # title, equation, emphasis-adjacent (with \in), displayed equation with arguments,
    # math inside emphasis (a tuple), "$v$ is a **term**", explicit comment
    assert set(spread.symbols) == {r"\sigma", r"\xi_{k}", r"\Omega_{a,b}(x,y)", r"\kappa",
                                   r"\mu", r"v^{\dagger}", r"\mathcal{Q}"}
    # a 4-backtick definition holding 3-backtick code; sub/superscript order normalized
    assert nested.symbols == [r"\beta_{b}^{*}"]


def test_extractor_ignores_values_and_math_outside_definitions():
    spread = definitions(SYNTHETIC)[0]
    assert r"\zeta" not in spread.symbols        # outside any definition
    assert "w_{0}" not in spread.symbols         # w_0 = 0 sets a value
    assert r"\tau" not in spread.symbols         # tau = 1/2 sets a value
    assert not any(s.startswith("x") for s in spread.symbols)  # x_i is used, not defined


def test_before_is_a_term_rule():
    d = definitions("```{prf:definition} X\n:label: x\n\nA maximizer $u^*$ is a **maximum-margin"
                    " separator**.\n```\n")[0]
    assert d.symbols == ["u^{*}"]


def test_normalization_is_light_and_strict():
    assert symbol(r"\gamma^*_b") == symbol(r"\gamma_{b}^{\ast}") == symbol(r"\gamma _ b ^ {*}")
    assert symbol(r"TD_\gamma") == symbol(r"TD_{\gamma}")
    assert symbol(r"\gamma(w,\, b)") == symbol(r"\gamma(w, b)")
    assert symbol(r"\varepsilon") != symbol(r"\epsilon")  # the book writes \varepsilon only
    assert symbol(r"x_i") != symbol(r"x")
    assert symbol(r"w \cdot x") is None and symbol(r"\|u\|") is None
    assert head_symbols(r"(\varepsilon, \delta)") == [r"\varepsilon", r"\delta"]
    assert equation_symbol(r"\|u\| = 1") is None


def test_check_fails_when_a_chapter_defines_a_symbol_missing_from_the_page():
    page = (f"{TABLE_HEADING}\n\n| symbol | meaning | chapter |\n|---|---|---|\n"
            "| $\\sigma$ | the spread | here |\n| $\\xi_k$ | the shift | here |\n\n## Next\n")
    missing = missing_symbols({"synthetic": [SYNTHETIC]}, page)
    assert ("synthetic", "syn-def-spread", r"\mathcal{Q}") in missing
    assert ("synthetic", "syn-def-nested", r"\beta_{b}^{*}") in missing
    assert not any(s in (r"\sigma", r"\xi_{k}") for _, _, s in missing)
    # listing the symbol (written with other spacing and braces) makes the check pass
    full = page.replace("| here |\n\n## Next", "| here |\n| $\\mathcal Q$ | q | here |\n\n## Next")
    chapter = "```{prf:definition} Q\n% notation: $\\mathcal{Q}$\n```\n"
    assert missing_symbols({"synthetic": [chapter]}, page) == [("synthetic", "Q", r"\mathcal{Q}")]
    assert missing_symbols({"synthetic": [chapter]}, full) == []


def test_comment_must_name_symbols():
    with pytest.raises(ValueError, match="not a symbol"):
        definitions("```{prf:definition} X\n% notation: $w \\cdot x$\n```\n")


# ============================================================================================
# The real check: every chapter against the page


def test_the_chapters_have_definitions_to_check():
    defs = [d for nb in CHAPTERS for cell in markdown_cells(nb) for d in definitions(cell)]
    assert len(defs) >= 5, "the parser no longer finds the chapters' definitions"
    assert sum(len(d.symbols) for d in defs) >= 5, "the extractor finds (almost) no symbols"
    assert all(d.label for d in defs), "every definition has a :label:"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_defined_symbol_is_on_the_notation_page(chapter):
    missing = missing_symbols({chapter.stem: markdown_cells(chapter)},
                              NOTATION.read_text(encoding="utf-8"))
    assert not missing, (
        "symbols defined in a prf:definition but missing from the table "
        f"'{TABLE_HEADING[3:]}' of book/notation.md: "
        + "; ".join(f"{label}: ${s}$" for _, label, s in missing))


def test_the_table_lists_each_symbol_once():
    syms = table_symbols(NOTATION.read_text(encoding="utf-8"))
    assert len(syms) >= 25
    repeated = sorted({s for s in syms if syms.count(s) > 1})
    assert not repeated, f"symbols listed twice (two meanings?): {repeated}"


def test_the_table_rows_are_well_formed():
    page = NOTATION.read_text(encoding="utf-8")
    labels = labels_in_book()
    for row in table_rows(page):
        assert len(row) == 3, row
        assert _INLINE.findall(row[0]), f"a row without a symbol: {row}"
        refs = ref_targets(row[2])
        assert refs and refs <= labels, f"chapter column must link a chapter label: {row}"
        assert r"\|" not in "".join(row), f"\\| breaks a markdown table; use \\lVert: {row}"


def test_pages_link_only_to_labels_that_exist():
    labels = labels_in_book()
    for page in ("notation.md", "intro.md"):
        text = (BOOK / page).read_text(encoding="utf-8")
        assert ref_targets(text) <= labels, (page, sorted(ref_targets(text) - labels))


def test_epsilon_only_in_quotations_of_the_mistake_bound_notes():
    """The book writes \\varepsilon; \\epsilon appears only where the page quotes those notes."""
    page = NOTATION.read_text(encoding="utf-8")
    for paragraph in re.split(r"\n\s*\n", page):
        parts = paragraph.splitlines() if paragraph.lstrip().startswith("|") else [paragraph]
        for part in parts:
            if r"\epsilon" in part:
                assert "mistake-bound notes" in part, part


# ============================================================================================
# The chapters follow the page's conventions (cheap checks of what the page promises)

_FENCE_LINE = re.compile(r"(?m)^[ \t]*(`{3,}|:{3,}).*$")


def _math_spans(text: str) -> list[str]:
    """The math of a markdown text (directive fences dropped first, code left out), with the
    words of ``\\text{...}`` taken out."""
    return [re.sub(r"\\text\{[^{}]*\}", " ", latex)
            for latex, _ in _mask_math(_FENCE_LINE.sub("", text))[1]]


def symbols_used(text: str) -> set[str]:
    """Every symbol that the math of ``text`` writes, in normal form, with and without its
    argument list (``K(x_j, x)`` gives ``K(x_{j},x)`` and ``K``)."""
    found = set()
    for latex in _math_spans(text):
        toks = tokens(latex)
        for j in range(len(toks)):
            s = _symbol(toks, j)
            if s is not None:
                found |= {s[0], s[0].split("(")[0]}
    return found


def epsilon_outside_quotations(text: str) -> list[str]:
    """Paragraphs (table rows one by one) that write \\epsilon without naming the
    mistake-bound notes, whose letter it is."""
    bad = []
    for paragraph in re.split(r"\n\s*\n", text):
        parts = paragraph.splitlines() if paragraph.lstrip().startswith("|") else [paragraph]
        bad += [p for p in parts if r"\epsilon" in p and "mistake-bound notes" not in p]
    return bad


def _chapter_of_label() -> dict[str, Path]:
    out = {}
    for nb in CHAPTERS:
        for cell in markdown_cells(nb):
            for label in re.findall(r"^\((chapter-[\w-]+)\)=\s*$", cell, re.M):
                out[label] = nb
    return out


def test_symbols_used_reads_math_only():
    text = ("The kernel $K(x_j, x)$ and $\\gamma^*_b$.\n\n```{prf:definition} D\n:label: d\n\n"
            "Here $\\beta_i \\le C$, $\\text{Zed } q$ and `$N$`.\n```\n")
    used = symbols_used(text)
    assert {"K", "K(x_{j},x)", r"\gamma_{b}^{*}", r"\beta_{i}", "C", "q"} <= used
    assert not {"Z", "N"} & used  # words in \text and code are not math


def test_epsilon_check_flags_an_unquoted_epsilon():
    assert epsilon_outside_quotations("a margin $\\epsilon$ here") == ["a margin $\\epsilon$ here"]
    assert epsilon_outside_quotations("the mistake-bound notes write $\\epsilon$") == []
    assert epsilon_outside_quotations("$\\varepsilon$ only") == []


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_chapters_write_epsilon_only_quoting_the_mistake_bound_notes(chapter):
    """The book's letter is \\varepsilon; \\epsilon belongs to the mistake-bound notes."""
    bad = [p for cell in markdown_cells(chapter) for p in epsilon_outside_quotations(cell)]
    assert not bad, bad


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_chapters_write_the_augmented_point_as_on_the_page(chapter):
    """The page writes x' = (x, c) for the augmented point, not a tilde."""
    bad = sorted({m.group(0) for cell in markdown_cells(chapter)
                  for latex in _math_spans(cell)
                  for m in re.finditer(r"\\(?:tilde|widetilde)\s*\{?\s*[xw]\b", latex)})
    assert not bad, f"write x' (and (w, b) or w') for the augmented point, not {bad}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_T_is_never_set_to_anything_but_a_number_of_epochs(chapter):
    """T is the number of epochs; a threshold or a length is another letter (e.g. Lambda).
    A math span that sets T equal to an expression (not a bare number) gives T a new meaning."""
    bad = [latex for cell in markdown_cells(chapter) for latex in _math_spans(cell)
           if any(equation_symbol(part) == "T" for part in re.split(r",|;|\\quad", latex))]
    assert not bad, bad


def test_T_check_catches_a_threshold():
    cell = "Put $T = 2R^2/\\gamma \\ge 2R > R$, the threshold."
    assert [latex for latex in _math_spans(cell) if equation_symbol(latex) == "T"]
    assert equation_symbol("T = 50") is None


def test_each_row_names_a_chapter_that_uses_its_symbols():
    """The 'first in' column names a chapter whose text writes the symbol."""
    chapters = _chapter_of_label()
    used = {nb: set().union(*map(symbols_used, markdown_cells(nb))) for nb in CHAPTERS}
    wrong = []
    for row in table_rows(NOTATION.read_text(encoding="utf-8")):
        label = next(t for t in ref_targets(row[2]) if t.startswith("chapter-"))
        nb = chapters[label]
        for latex in _INLINE.findall(row[0]):
            if symbol(latex) not in used[nb]:
                wrong.append(f"${latex}$ is not written in {nb.stem}")
    assert not wrong, wrong


def test_the_worked_example_of_the_mistake_bound_notes():
    """Norms at most 2, a separator of length 3 with functional margin 1/2: the notes' form and
    (R/gamma)^2 with gamma = (1/2)/3 give the same bound, the 144 the page states."""
    from perceptron_core import novikoff_bound, unnormalized_bound

    page = NOTATION.read_text(encoding="utf-8")
    notes = unnormalized_bound(2.0, [3.0, 0.0], 0.5)
    unit = novikoff_bound(2.0, 0.5 / 3.0)
    assert notes == pytest.approx(144.0, rel=1e-12)
    assert unit == pytest.approx(144.0, rel=1e-12)
    assert "= 144$: at most $144$ mistakes" in page
