"""The book's two editions: the student edition leaves out the instructor guide.

``book/_tools/sphinx_extension.py`` loads this extension. The full edition (``make book``) is the
book as ``_toc.yml`` lists it. The student edition (``make exercises``, with
:data:`sphinx_extension.HIDE_SOLUTIONS_ENV_VAR` set) has no solutions, and no instructor guide
either: the guide says which exercises are worth assigning and how to build the solutions.

sphinx-external-toc reads the table of contents from ``external_toc_path`` at ``config-inited``
(priority 900). Before that, :func:`_leave_out_the_guide` writes a copy of ``_toc.yml`` without
the guide (:func:`student_toc`) into the build's doctree folder, which is never published, and
points ``external_toc_path`` at it; the guide's source is added to ``exclude_patterns``. So the
guide is not read at all: no page, no entry in the navigation, nothing in the search index.
References to the guide from other pages (``intro.md`` has two) become plain text
(:func:`_unlink_the_guide`) instead of broken links, which ``-n -W`` would fail on.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import yaml

from sphinx_extension import _hiding_solutions

#: The instructor guide's docname: the ``file:`` of its entry in ``_toc.yml``.
GUIDE = "book/instructor_guide"
#: The student edition's table of contents, written into the build's doctree folder.
STUDENT_TOC = "student_toc.yml"
# A MyST target line, ``(label)=``, as the guide defines its labels.
_LABEL = re.compile(r"^\(([^()\s]+)\)=\s*$", re.M)
_SUFFIX = re.compile(r"\.(md|ipynb|rst)$")


def _docname(entry: Any) -> str | None:
    """The docname of a ``file:`` entry (its suffix, if it has one, removed)."""
    if isinstance(entry, dict) and isinstance(entry.get("file"), str):
        return _SUFFIX.sub("", entry["file"])
    return None


def _is_document(entry: dict) -> bool:
    return any(key in entry for key in ("file", "url", "glob"))


def _without_guide(node: Any, removed: list[dict]) -> Any:
    """``node`` with every entry of the guide taken out (the entries taken out go to ``removed``).

    A part (an entry with no file of its own) left with no chapters is taken out too, since
    sphinx-external-toc refuses an empty one; so is an empty list of sections.
    """
    if isinstance(node, list):
        kept = []
        for item in node:
            if _docname(item) == GUIDE:
                removed.append(item)
                continue
            new = _without_guide(item, removed)
            if isinstance(new, dict) and not _is_document(new) and not any(
                isinstance(v, list) and v for v in new.values()
            ):
                continue  # a part whose only chapter was the guide
            kept.append(new)
        return kept
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            new = _without_guide(value, removed)
            if isinstance(value, list) and value and not new:
                continue  # `sections:` that held the guide only
            out[key] = new
        return out
    return node


def student_toc(toc: dict[str, Any]) -> dict[str, Any]:
    """A copy of the table of contents (``_toc.yml`` as loaded) without the instructor guide.

    Parameters
    ----------
    toc : dict
        The table of contents, as ``yaml.safe_load`` reads ``_toc.yml``.

    Returns
    -------
    dict
        The same table without the guide's entry (and without any part or list of sections
        that held nothing else). ``toc`` itself is left as it was.

    Raises
    ------
    ValueError
        When the table has no entry for :data:`GUIDE` (renamed or moved: the student edition
        would then publish it under its new name), or when the guide is the book's root.
    """
    if _SUFFIX.sub("", str(toc.get("root", ""))) == GUIDE:
        raise ValueError(f"the instructor guide ({GUIDE}) is the book's root page")
    removed: list[dict] = []
    filtered = _without_guide(copy.deepcopy(toc), removed)
    if not removed:
        raise ValueError(
            f"_toc.yml has no entry `file: {GUIDE}`, so the student edition cannot leave the "
            "instructor guide out: if the guide was renamed or moved, update GUIDE in "
            "book/_tools/editions.py"
        )
    return filtered


def guide_labels(source: Path) -> set[str]:
    """The MyST labels (``(label)=``) that the guide's source defines."""
    return {label.lower() for label in _LABEL.findall(source.read_text(encoding="utf-8"))}


def _guide_source(srcdir: Path) -> Path | None:
    found = sorted(srcdir.glob(f"{GUIDE}.*"))
    return found[0] if found else None


def _leave_out_the_guide(app: Any, config: Any) -> None:
    """In the student edition, build from a table of contents without the guide."""
    if not _hiding_solutions():
        return
    from sphinx.errors import ConfigError

    srcdir = Path(app.srcdir)
    source = srcdir / str(config.external_toc_path)  # an absolute path stays absolute
    try:
        toc = student_toc(yaml.safe_load(source.read_text(encoding="utf-8")))
    except ValueError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    target = Path(app.doctreedir) / STUDENT_TOC
    text = yaml.safe_dump(toc, sort_keys=False, allow_unicode=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Left as it is when unchanged, like any other output of an incremental build.
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")
    config.external_toc_path = str(target)
    # Excluded as well as unlisted: `only_build_toc_files: false` would otherwise build it as an
    # orphan page, still reachable from the search. A new list, not the default's in place.
    config.exclude_patterns = [*config.exclude_patterns, f"{GUIDE}.*"]


def _unlink_the_guide(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """In the student edition, a reference to the guide or one of its labels is its text only."""
    if not _hiding_solutions():
        return None
    from sphinx.util import docname_join

    kind, target = node.get("reftype"), node.get("reftarget", "")
    if kind in ("ref", "numref"):
        # Read here, not kept from config-inited: the event fires only for a missing reference.
        guide = _guide_source(Path(app.srcdir))
        if guide is not None and target.lower() in guide_labels(guide):
            return contnode
    if kind == "doc" and docname_join(node.get("refdoc", ""), target) == GUIDE:
        return contnode
    return None


def setup(app: Any) -> dict[str, Any]:
    # Before sphinx-external-toc's parse_toc_to_env (priority 900) reads external_toc_path.
    app.connect("config-inited", _leave_out_the_guide, priority=500)
    app.connect("missing-reference", _unlink_the_guide)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
