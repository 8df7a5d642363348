"""The lowest versions ``pyproject.toml`` accepts, as pins: the second test environment.

``make test-lowest`` installs the built wheel with the package's dependencies at their floors,
so that it tests what ``pyproject.toml`` promises rather than only what ``requirements.txt``
pins. Each floor (``numpy>=1.24``) becomes a pin (``numpy==1.24``), for the core's
``dependencies`` and every optional extra except ``test`` (whose tools are pinned by
``requirements.txt``, like the book's build tools).

Usage::

    python tests/tools/lowest_versions.py                      # the floors as pins, one a line
    python tests/tools/lowest_versions.py --requirements requirements.txt

The second form prints ``requirements.txt`` with each floored package's pin replaced by its
floor (and floored packages that ``requirements.txt`` lacks appended): the constraints file of
``make test-lowest``, without a conflict between two pins of the same package. Everything else
stays at its pin.

Only the standard library is used (``tomllib``, Python 3.11), so any Python can run it before
the environment it describes exists. A requirement without a floor is an error: a floor that is
not stated cannot be tested.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

__all__ = ["EXCLUDED_EXTRAS", "floors", "lowest_requirements", "normalize", "main"]

REPO = Path(__file__).resolve().parents[2]
# Extras whose entries are tools pinned by requirements.txt, not the package's promises.
EXCLUDED_EXTRAS = frozenset({"test"})

# A PEP 508 requirement, as far as pyproject's entries use it: name, optional [extras],
# version specifiers, optional "; marker".
_REQUIREMENT = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?P<specs>[^;]*?)\s*(?:;.*)?$"
)
_SPEC = re.compile(r"^\s*(?P<op>~=|==|>=|<=|!=|<|>|===)\s*(?P<version>[^\s,]+)\s*$")
# A requirements.txt line that names a package: its name, up to the first specifier or marker.
_REQ_LINE = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:[=<>!~;#]|$)")


def normalize(name: str) -> str:
    """The PEP 503 form of a project name: ``Pillow`` and ``pillow``, ``scikit_learn`` and
    ``scikit-learn`` are the same project."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _floor(requirement: str) -> tuple[str, str]:
    """``(normalized name, lowest version)`` of one requirement string."""
    match = _REQUIREMENT.match(requirement)
    if match is None:
        raise ValueError(f"cannot read the requirement {requirement!r}")
    name, specs = match["name"], match["specs"].strip()
    lowest = None
    for spec in filter(None, (s.strip() for s in specs.split(","))):
        parsed = _SPEC.match(spec)
        if parsed is None:
            raise ValueError(f"cannot read the version specifier {spec!r} of {requirement!r}")
        # ~=X and ==X admit X itself; >=X has X as its lowest release.
        if parsed["op"] in {">=", "~=", "==", "==="}:
            if lowest is not None:
                raise ValueError(f"{requirement!r} states its floor twice; state it once")
            lowest = parsed["version"]
    if lowest is None:
        raise ValueError(
            f"{requirement!r} has no floor (>=X): the lowest environment cannot pin it. "
            "Add the lowest version that works to pyproject.toml."
        )
    return normalize(name), lowest


def floors(pyproject: Path = REPO / "pyproject.toml") -> dict[str, str]:
    """Every floored dependency of the package, name -> lowest version, in pyproject's order.

    Reads ``[project] dependencies`` and every ``[project.optional-dependencies]`` extra but those
    in :data:`EXCLUDED_EXTRAS`. Raises ``ValueError`` when a requirement has no floor, or when two
    entries give the same package different floors (one environment cannot hold both).
    """
    project = tomllib.loads(Path(pyproject).read_text(encoding="utf-8")).get("project", {})
    entries = list(project.get("dependencies", []))
    for extra, requirements in project.get("optional-dependencies", {}).items():
        if extra not in EXCLUDED_EXTRAS:
            entries += requirements
    found: dict[str, str] = {}
    for entry in entries:
        name, lowest = _floor(entry)
        if found.setdefault(name, lowest) != lowest:
            raise ValueError(f"{name} has two floors in {pyproject}: {found[name]} and {lowest}")
    return found


def lowest_requirements(requirements: str, pins: dict[str, str]) -> str:
    """The text of a requirements file with each package of ``pins`` pinned at its floor.

    Lines naming a floored package are replaced by ``name==floor`` (with a note of the pin they
    replace); every other line, comments included, is kept; floored packages the file does not
    name are appended.
    """
    out, seen = [], set()
    for line in requirements.splitlines():
        match = _REQ_LINE.match(line)
        name = normalize(match["name"]) if match else None
        if name in pins:
            seen.add(name)
            out.append(f"{name}=={pins[name]}  # lowest accepted by pyproject.toml; pinned: {line.strip()}")
        else:
            out.append(line)
    missing = [name for name in pins if name not in seen]
    if missing:
        out.append("# Floors of pyproject.toml that requirements.txt does not pin")
        out += [f"{name}=={pins[name]}" for name in missing]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyproject", type=Path, default=REPO / "pyproject.toml")
    parser.add_argument("--requirements", type=Path, default=None,
                        help="print this requirements file with the floors in place of its pins")
    args = parser.parse_args(argv)
    try:
        pins = floors(args.pyproject)
    except ValueError as error:
        print(f"lowest_versions: {error}", file=sys.stderr)
        return 1
    if args.requirements is None:
        sys.stdout.write("".join(f"{name}=={version}\n" for name, version in pins.items()))
    else:
        sys.stdout.write(lowest_requirements(args.requirements.read_text(encoding="utf-8"), pins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
