"""Tests wait for events, never for a fixed time: no test module waits with ``sleep``.

(``once_per_run`` in tests/conftest.py, which makes the extra book builds and the PDFs once per
run however many pytest-xdist processes ask, waits on a lock the kernel drops when its holder
ends; every browser run of test_pdf.py and test_student_edition.py goes through it.)
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


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
