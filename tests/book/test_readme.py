"""The README's set-up promises hold: what it says a machine needs is what the Makefile handles.

A new user follows only the README: two commands, `make book` and `make test`. These tests read
the README, the Makefile, `.ci/run` and `pyproject.toml` as text and fail when they disagree.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
MAKEFILE = (ROOT / "Makefile").read_text()
CI_RUN = (ROOT / ".ci" / "run").read_text()
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _section(markdown: str, title: str) -> str:
    """The text of the ``## title`` section, up to the next ``## `` heading."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", markdown, re.S | re.M)
    assert match, f"README.md has no section '## {title}'"
    return match.group(1)


def apt_packages(text: str) -> set[str]:
    """Every package named by an ``apt-get install`` in ``text`` (options and variables left out)."""
    names: set[str] = set()
    for args in re.findall(r"apt-get install ([^\n;&|`)'\">]*)", text):
        names |= {a for a in args.split() if not a.startswith(("-", "$"))}
    return names


def test_apt_packages_are_read_from_commands() -> None:
    assert apt_packages("run `sudo apt-get install -y chromium` first") == {"chromium"}
    assert apt_packages("\t$(SUDO) apt-get install -y --no-install-recommends a b && c") == {"a", "b"}
    assert apt_packages("no install here") == set()
    assert apt_packages('echo "Run: sudo apt-get install -y chromium" >&2') == {"chromium"}


def test_the_readme_and_the_makefile_name_the_same_system_packages() -> None:
    """A system package the README asks for is one the Makefile installs, and the reverse."""
    readme = apt_packages(_section(README, "Two commands"))
    makefile = apt_packages(MAKEFILE)
    assert readme, "the README's set-up section names no system package: say that Chromium is needed"
    assert readme == makefile, (
        f"the README's set-up section names {sorted(readme)}, the Makefile installs {sorted(makefile)}: "
        "make them agree"
    )


def test_ci_runs_the_readme_test_command_and_nothing_else() -> None:
    """Whatever a fresh machine needs, `make test` installs it, so CI can only call it."""
    commands = [
        line.strip() for line in CI_RUN.splitlines()
        if line.strip() and not line.strip().startswith("#") and not line.startswith("#!")
    ]
    assert commands[-1] == "make test"
    extra = [c for c in commands[:-1] if not re.fullmatch(r"set -[a-z]+( \w+)*|cd .*", c)]
    assert not extra, f".ci/run does more than `make test`: {extra}; move it into the Makefile"
    assert "make book" in README and "make test" in README


def test_every_build_path_the_readme_names_is_one_the_makefile_makes() -> None:
    paths = set(re.findall(r"`(_build/[^`\s]*)`", README))
    assert paths, "the README names no output path"
    missing = sorted(p for p in paths if p.rstrip("/") not in MAKEFILE)
    assert not missing, f"the README names {missing}, which the Makefile never writes or prints"


def test_the_python_the_readme_names_is_the_one_pyproject_accepts_and_this_run_uses() -> None:
    floor = re.fullmatch(r">=\s*(\d+)\.(\d+)", PYPROJECT["project"]["requires-python"])
    assert floor, "requires-python should be a plain floor, >=3.X"
    version = f"{floor.group(1)}.{floor.group(2)}"
    assert f"Python {version}" in _section(README, "Two commands"), (
        f"pyproject.toml requires Python >= {version}; the README's set-up section should say Python {version}"
    )
    assert sys.version_info[:2] >= (int(floor.group(1)), int(floor.group(2)))
