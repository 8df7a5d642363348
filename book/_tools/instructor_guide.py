"""The per-chapter part of the instructor guide, written from the chapters when the book is built.

``book/instructor_guide.md`` holds hand-written advice and a marker comment (:data:`MARKER`); as
a Sphinx extension (``_config.yml`` lists it), this module puts in its place, each time the build
reads the guide, a part written from the chapters themselves, so that it cannot drift from them
and nothing generated is stored:

* each chapter's learning goals and prerequisites (the chapter's own paragraphs);
* a time estimate, computed: reading time at :data:`WORDS_PER_MINUTE`, formulas counted by
  :func:`math_words`, plus a fixed time per exercise of each difficulty (:data:`MINUTES`);
* its exercises, each with its kinds (proof, code, exploration) and difficulty, and a summary
  table. Kinds and difficulties are an editorial judgment, stated where each exercise is: the
  ``{exercise}`` directive's ``:class:`` (``kind-proof kind-code difficulty-2``), in the chapter
  or, for the code exercises, in ``perceptron_core/exercises/<chapter>.md``; an exercise without
  them is an error, so a new exercise must be classified;
* the chapters' dependency graph, drawn as an inline SVG (no script, no CDN), with an arrow from
  every chapter that the first sentence of a chapter's "Prerequisites" paragraph links to (the
  sentence that lists the prerequisites; the ones after it may mention chapters for other
  reasons).

Usage, to read the part without building the book::

    .venv/bin/python book/_tools/instructor_guide.py
"""

from __future__ import annotations

import html
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from chapters import chapter_names  # noqa: E402  (book/_tools, beside this file)

REPO = Path(__file__).resolve().parents[2]
GUIDE = "book/instructor_guide"  # the page's docname
MARKER = "<!-- the chapters at a glance: book/_tools/instructor_guide.py writes them here -->"

#: The chapters in reading order, from _toc.yml.
CHAPTERS = chapter_names()
WORDS_PER_MINUTE = 100  # prose with mathematics, read with the cells run along the way
MINUTES = {1: 10, 2: 20, 3: 40}  # per exercise, by difficulty
STARS = {1: "★", 2: "★★", 3: "★★★"}
DIFFICULTY = {1: "warm-up", 2: "standard", 3: "challenging"}
KINDS = ("proof", "code", "exploration")

_EXERCISE = re.compile(r"^(`{3,})\{exercise\}[^\n]*\n((?::[a-z-]+:[^\n]*\n)*)(.*?)^\1\s*$", re.M | re.S)
_LABEL = re.compile(r"^:label:\s*(\S+)", re.M)
_CHAPTER_REF = re.compile(r"\{ref\}`(?:[^`<]*<)?(chapter-[a-z-]+)>?`")
_TARGET = re.compile(r"^\((chapter-[a-z-]+)\)=", re.M)


@dataclass
class Exercise:
    label: str
    kinds: tuple[str, ...]
    difficulty: int
    gated: bool  # the exercise comes with a solution that runs code


@dataclass
class Chapter:
    name: str
    target: str
    title: str
    goals: list[str]
    prerequisites: str
    words: int
    exercises: list[Exercise] = field(default_factory=list)
    depends_on: list[str] = field(default_factory=list)

    @property
    def minutes(self) -> tuple[int, int]:
        reading = 5 * math.ceil(self.words / WORDS_PER_MINUTE / 5)
        return reading, sum(MINUTES[e.difficulty] for e in self.exercises)


def _markdown(nb: dict) -> str:
    return "\n\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def _paragraph_after(text: str, heads: tuple[str, ...]) -> tuple[str, str]:
    """The bold-headed paragraph starting with one of ``heads`` (its body), and what follows."""
    for head in heads:
        m = re.search(r"^\*\*" + re.escape(head) + r"\*\*(.*?)(?=\n\s*\n|\Z)", text, re.M | re.S)
        if m:
            return m.group(1).strip(), text[m.end():]
    return "", ""


_SYMBOL = re.compile(r"\\[a-zA-Z]+|\\\||[A-Za-z]+|\d+(?:\.\d+)?|[=<>+\-*/|]")
#: LaTeX commands that only set type or size: nothing to read.
_SILENT = {"left", "right", "big", "bigl", "bigr", "Big", "Bigl", "Bigr", "bigg", "Bigg", "biggl",
           "biggr", "Biggl", "Biggr", "mathbb", "mathrm", "mathbf", "mathcal", "text", "textrm",
           "operatorname", "quad", "qquad", "displaystyle", "tfrac", "dfrac", "begin", "end"}


def math_words(*formulas: str) -> int:
    """The words a formula counts for in the reading time: one per symbol, number, run of letters
    or operator (``\\gamma``, ``12``, ``x``, ``=``), brackets, sub- and superscript marks and
    typesetting commands not counted: about the words it takes to read it aloud, so
    ``(R/\\gamma)^2`` counts 4, "R over gamma squared". Dropping formulas, as the estimate once
    did, made the chapter richest in proofs the quickest to read."""
    return sum(len([t for t in _SYMBOL.findall(f) if t.lstrip("\\") not in _SILENT]) for f in formulas)


def read_chapter(name: str) -> Chapter:
    nb = json.loads((REPO / "book" / f"{name}.ipynb").read_text(encoding="utf-8"))
    text = _markdown(nb)
    target = _TARGET.search(text)
    title = re.search(r"^# (.+)$", text, re.M)
    if not (target and title):
        raise ValueError(f"book/{name}.ipynb: no (chapter-...)= target or # title in its first cell")
    goals_intro, rest = _paragraph_after(text, ("Learning goals.",))
    goals = []
    if goals_intro is not None and rest:
        block = re.match(r"\s*\n((?:- .*\n(?:  .*\n)*)+)", rest + "\n")
        if block:
            goals = [" ".join(g.split()) for g in re.split(r"^- ", block.group(1), flags=re.M) if g.strip()]
    prereq, _ = _paragraph_after(text, ("Prerequisites.", "What you need.", "You will need"))
    prereq = " ".join(prereq.split())
    # not the directives' option lines (:label:, :class:), which no one reads; formulas, inline
    # and displayed, by what it takes to read them (:func:`math_words`)
    math = r"\$\$([^$]*)\$\$|\$([^$]*)\$"
    prose = re.sub(math + r"|`[^`]*`|\{[a-z:-]+\}|^:[\w-]+:.*$", " ", text, flags=re.M)
    words = len(prose.split()) + sum(math_words(*m) for m in re.findall(math, text))
    chapter = Chapter(name, target.group(1), title.group(1).strip(), goals, prereq, words)
    for m in _EXERCISE.finditer(text):
        label = _LABEL.search(m.group(2))
        if not label:
            raise ValueError(f"book/{name}.ipynb: an exercise without a :label:")
        key = label.group(1)
        classes = (re.search(r"^:class:(.*)$", m.group(2), re.M) or re.match("()", "")).group(1).split()
        kinds = tuple(c[5:] for c in classes if c.startswith("kind-") and c[5:] in KINDS)
        difficulty = next((int(c[11:]) for c in classes if re.fullmatch(r"difficulty-[123]", c)), 0)
        if not kinds or not difficulty:
            raise KeyError(f"book/{name}.ipynb: exercise {key!r} has no kind and difficulty: give its "
                           "{exercise} directive a line such as `:class: kind-proof difficulty-2`.")
        gated = "{solution-start} " + key in text
        chapter.exercises.append(Exercise(key, kinds, difficulty, gated))
    # Only the paragraph's first sentence states prerequisites; later sentences mention chapters
    # for other reasons ("the first look helps but is not needed", "{ref}`chapter-offset` shows
    # how an offset is added"), and reading them drew arrows the chapter does not mean.
    stated = re.split(r"(?<=\.)\s+(?=[A-Z])", prereq, maxsplit=1)[0]
    chapter.depends_on = list(dict.fromkeys(t for t in _CHAPTER_REF.findall(stated) if t != chapter.target))
    return chapter


#: Dependencies a chapter states in words rather than with links (target -> targets).
STATED_IN_WORDS = {
    # "the perceptron and the notion of a linearly separable data set from the earlier chapters"
    "chapter-margin": ["chapter-perceptron", "chapter-separability"],
}


def in_toc() -> set[str]:
    """The chapter notebooks the table of contents lists (only those are built and linkable)."""
    import yaml

    toc = yaml.safe_load((REPO / "_toc.yml").read_text(encoding="utf-8"))
    return {Path(entry["file"]).name for part in toc.get("parts", []) for entry in part.get("chapters", [])}


def chapters() -> list[Chapter]:
    listed = in_toc()
    chs = [read_chapter(n) for n in CHAPTERS if n in listed and (REPO / "book" / f"{n}.ipynb").exists()]
    for c in chs:
        c.depends_on = list(dict.fromkeys(STATED_IN_WORDS.get(c.target, []) + c.depends_on))
    return chs


# --- the dependency graph ---------------------------------------------------------------------


def graph_svg(chs: list[Chapter]) -> str:
    """A layered drawing: a chapter sits one layer below the deepest chapter it needs."""
    by_target = {c.target: c for c in chs}
    layer: dict[str, int] = {}
    for c in chs:  # reading order lists prerequisites first
        deps = [d for d in c.depends_on if d in by_target and d in layer]
        layer[c.target] = 1 + max((layer[d] for d in deps), default=-1)
    rows: dict[int, list[Chapter]] = {}
    for c in chs:
        rows.setdefault(layer[c.target], []).append(c)
    box_w, box_h, gap_x, gap_y = 290, 34, 24, 46
    width = max(len(r) for r in rows.values()) * (box_w + gap_x) + gap_x
    height = len(rows) * (box_h + gap_y) + gap_y - 10
    pos: dict[str, tuple[float, float]] = {}
    for depth, row in rows.items():
        span = len(row) * box_w + (len(row) - 1) * gap_x
        x0 = (width - span) / 2
        for i, c in enumerate(row):
            pos[c.target] = (x0 + i * (box_w + gap_x), gap_y / 2 + depth * (box_h + gap_y))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height:.0f}" '
             f'width="100%" style="max-width:{width}px" role="img" '
             'aria-labelledby="chapter-graph-title chapter-graph-desc" class="chapter-graph">',
             '<title id="chapter-graph-title">Dependencies between the chapters</title>']
    # Only the arrows that no longer path implies (the transitive reduction), so the drawing
    # stays readable; the prerequisites listed under each chapter below are complete.
    needs = {c.target: {d for d in c.depends_on if d in pos} for c in chs}

    def reaches(a: str, b: str, skip_direct: bool) -> bool:
        stack = [d for d in needs[b] if not (skip_direct and d == a)]
        seen: set[str] = set()
        while stack:
            t = stack.pop()
            if t == a:
                return True
            if t not in seen:
                seen.add(t)
                stack += needs[t]
        return False

    edges = [(d, c.target) for c in chs for d in c.depends_on
             if d in pos and not reaches(d, c.target, skip_direct=True)]
    desc = "; ".join(f"{by_target[b].title} builds on {', '.join(by_target[a].title for a, bb in edges if bb == b)}"
                     for b in dict.fromkeys(b for _, b in edges))
    parts.append(f'<desc id="chapter-graph-desc">{html.escape(desc)}.</desc>')
    parts.append('<defs><marker id="chapter-graph-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
                 'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
                 '<path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>')
    parts.append('<g fill="none" stroke="currentColor" stroke-width="1.3" opacity="0.7">')
    for a, b in edges:
        (xa, ya), (xb, yb) = pos[a], pos[b]
        x1, y1, x2, y2 = xa + box_w / 2, ya + box_h, xb + box_w / 2, yb
        parts.append(f'<path d="M{x1:.0f},{y1:.0f} C{x1:.0f},{y1 + 22:.0f} {x2:.0f},{y2 - 22:.0f} '
                     f'{x2:.0f},{y2 - 2:.0f}" marker-end="url(#chapter-graph-arrow)"/>')
    parts.append("</g>")
    for i, c in enumerate(chs):
        x, y = pos[c.target]
        parts.append(f'<g><rect x="{x:.0f}" y="{y:.0f}" width="{box_w}" height="{box_h}" rx="6" '
                     'fill="none" stroke="currentColor" stroke-width="1.5"/>'
                     f'<text x="{x + box_w / 2:.0f}" y="{y + box_h / 2 + 5:.0f}" text-anchor="middle" '
                     f'font-size="14" fill="currentColor">{i + 1}. {html.escape(c.title)}</text></g>')
    parts.append("</svg>")
    return "\n".join(parts)


# --- the generated markdown -------------------------------------------------------------------


def generated(chs: list[Chapter]) -> str:
    out = ["## The chapters at a glance", "",
           "Written from the chapters by `book/_tools/instructor_guide.py` when the book is built. "
           "Times are estimates: reading at "
           f"{WORDS_PER_MINUTE} words a minute with the cells run along the way, a formula "
           "counting a word for each symbol, number or operator in it (about what it takes to "
           "read it aloud: $(R/\\gamma)^2$ counts 4, \"R over gamma squared\"), plus "
           + ", ".join(f"{MINUTES[d]} minutes per {DIFFICULTY[d]} ({STARS[d]}) exercise" for d in (1, 2, 3))
           + ". Kinds and difficulties are the authors' judgment.", "",
           "| | chapter | reading | exercises | proof | code | exploration | "
           + " | ".join(f"{STARS[d]}" for d in (1, 2, 3)) + " |",
           "|---:|---|---:|---:|---:|---:|---:|" + "---:|" * 3]
    total_read = total_ex = 0
    for i, c in enumerate(chs, 1):
        reading, work = c.minutes
        total_read, total_ex = total_read + reading, total_ex + work
        kinds = [sum(k in e.kinds for e in c.exercises) for k in KINDS]
        diffs = [sum(e.difficulty == d for e in c.exercises) for d in (1, 2, 3)]
        out.append(f"| {i} | {{ref}}`{c.title} <{c.target}>` | {reading} min | "
                   f"{len(c.exercises)} ({work} min) | " + " | ".join(map(str, kinds + diffs)) + " |")
    out += ["", f"In all: about {round(total_read / 60, 1)} hours of reading and "
            f"{round(total_ex / 60, 1)} hours of exercises, "
            f"{sum(len(c.exercises) for c in chs)} exercises. An exercise counts once under each "
            "kind it has.", "",
            "## How the chapters depend on each other", "",
            "An arrow points from a chapter to one whose Prerequisites paragraph lists it in "
            "its first sentence (the one that states what the chapter needs); an "
            "arrow that a path of other arrows already implies is left out.", "",
            graph_svg(chs), ""]
    for i, c in enumerate(chs, 1):
        reading, work = c.minutes
        out += [f"### {i}. {c.title}", "",
                f"{{ref}}`Read the chapter <{c.target}>`. About {reading} minutes of reading and "
                f"{work} minutes of exercises.", ""]
        if c.prerequisites:
            out += [f"**Prerequisites.** {c.prerequisites}", ""]
        if c.goals:
            out += ["**Learning goals.**", ""] + [f"- {g}" for g in c.goals] + [""]
        if c.exercises:
            out += ["| exercise | kind | difficulty | solution |", "|---|---|---|---|"]
            # {numref}, not {ref}: Sphinx lowercases a {ref} target, so sphinx-exercise no
            # longer finds a label with a capital (mgn-ex-B) in its registry and the link shows
            # "Exercise" without its number; {numref} finds it in the std domain and numbers it.
            for e in c.exercises:
                out.append(f"| {{numref}}`{e.label}` | {', '.join(e.kinds)} | "
                           f"{STARS[e.difficulty]} {DIFFICULTY[e.difficulty]} | "
                           f"{'text and code' if e.gated else 'text'} |")
            out.append("")
    return "\n".join(out)


def _fill(app: Any, docname: str, source: list[str]) -> None:
    if docname == GUIDE:
        if MARKER not in source[0]:
            raise ValueError(f"{GUIDE}.md lacks the marker {MARKER!r}")
        source[0] = source[0].replace(MARKER, generated(chapters()))


def setup(app: Any) -> dict[str, Any]:
    """The Sphinx extension: the guide's part written in when the page is read, and the page read
    again at every build (a chapter may have changed where the guide did not)."""
    app.connect("source-read", _fill)
    app.connect("env-get-outdated", lambda app, env, added, changed, removed: [GUIDE])
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}


def main() -> int:
    print(generated(chapters()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
