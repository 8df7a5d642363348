"""Tests wait for events, never for a fixed time.

``once_per_run`` (tests/conftest.py) makes the extra book builds and the PDFs once per test run,
however many pytest-xdist processes ask for them: the first process makes it under a lock, the
others block on the lock and reuse what it made. Checked here with real processes (forked, so
that they call the very fixture this test gets). And no test module waits with ``sleep``.
"""

from __future__ import annotations

import multiprocessing
import re
import uuid
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
FORK = multiprocessing.get_context("fork")  # the children call the fixture's own closure
WAIT_S = 60  # a bound on each wait below, which ends as soon as its event happens


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex}"


def test_made_once_while_the_other_processes_wait(once_per_run, tmp_path):
    """One process makes it; processes that ask meanwhile block, do not make it, and get it."""
    name, log = _unique("shared"), tmp_path / "made"
    making, release = FORK.Event(), FORK.Event()
    ready, results = FORK.Queue(), FORK.Queue()

    def make(folder: Path) -> dict:
        with log.open("a") as f:  # one line per call of make, in whichever process
            f.write("made\n")
        (folder / "page.html").write_text("built")
        making.set()
        assert release.wait(WAIT_S), "the test never let the maker finish"
        return {"folder": str(folder), "pages": 1}

    def ask(index: int) -> None:
        ready.put(index)
        try:
            results.put(once_per_run(name, make))
        except BaseException as exc:  # reported, so that the test fails at once, not on a timeout
            results.put(f"process {index}: {exc!r}")

    maker = FORK.Process(target=ask, args=(0,))
    maker.start()
    assert making.wait(WAIT_S), "the first process never started making it"
    # The maker now holds the lock; these processes ask while it is still making.
    waiters = [FORK.Process(target=ask, args=(i,)) for i in (1, 2, 3)]
    for w in waiters:
        w.start()
    assert sorted(ready.get(timeout=WAIT_S) for _ in range(4)) == [0, 1, 2, 3]
    release.set()
    got = [results.get(timeout=WAIT_S) for _ in range(4)]
    for p in (maker, *waiters):
        p.join(WAIT_S)
    assert log.read_text() == "made\n", f"made more than once: {got}"
    assert all(r == got[0] for r in got) and got[0]["pages"] == 1, got
    assert [p.exitcode for p in (maker, *waiters)] == [0, 0, 0, 0]
    assert (Path(got[0]["folder"]) / "page.html").read_text() == "built"
    # Later calls, in this process too, reuse it.
    assert once_per_run(name, make) == got[0] and log.read_text() == "made\n"


def test_a_process_that_dies_while_making_it_leaves_it_to_the_next(once_per_run):
    """No one waits on a dead process: the lock goes with it, and the next caller makes it
    anew, in an empty folder."""
    name = _unique("dies")

    def die(folder: Path) -> None:
        (folder / "half.html").write_text("half")
        import os

        os._exit(3)  # killed mid-build: no exception, no cleanup

    dying = FORK.Process(target=once_per_run, args=(name, die))
    dying.start()
    dying.join(WAIT_S)
    assert dying.exitcode == 3

    def make(folder: Path) -> list[str]:
        return sorted(p.name for p in folder.iterdir())

    assert once_per_run(name, make) == []  # the half-made folder was cleared first


def test_a_failure_is_reported_to_every_later_caller(once_per_run):
    name = _unique("fails")

    def broken(folder: Path) -> None:
        raise RuntimeError("jupyter-book exited with 1: broken chapter")

    with pytest.raises(RuntimeError, match="broken chapter"):
        once_per_run(name, broken)
    calls = []
    with pytest.raises(pytest.fail.Exception, match="failed in another test process: .*broken chapter"):
        once_per_run(name, calls.append)
    assert calls == []  # not made again


#: A fixed wait: time.sleep (however imported), or Playwright's page.wait_for_timeout.
_FIXED_WAIT = re.compile(r"\btime\.sleep\s*\(|\bfrom\s+time\s+import\b[^\n]*\bsleep\b|\.wait_for_timeout\s*\(")


def test_the_pattern_finds_fixed_waits():
    for line in ("time.sleep(0.5)", "    from time import monotonic, sleep", "page.wait_for_timeout(300)"):
        assert _FIXED_WAIT.search(line), line
    for line in ("await asyncio.sleep(40.0)  # the fake loop's clock", "deadline = time.monotonic()",
                 "page.wait_for_function(js, timeout=300)"):
        assert not _FIXED_WAIT.search(line), line


def test_no_test_waits_a_fixed_time():
    """A test waits for the event it needs (a lock, a line of output, a condition in the page),
    so it is as fast as the machine and not flaky on a slow one. (``asyncio.sleep`` in
    tests/drawing/test_sliders.py advances a fake event loop's clock and waits for nothing.)"""
    found = [
        f"{path.relative_to(TESTS.parent)}:{number}: {line.strip()}"
        for path in sorted(TESTS.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _FIXED_WAIT.search(line) and path.resolve() != Path(__file__).resolve()
    ]
    assert not found, "fixed waits in the tests; wait for the event instead:\n" + "\n".join(found)
