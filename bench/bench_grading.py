"""How long does `make grade` take for a class: 100 copies of one chapter's solution notebook,
graded by ``grade_folder`` (book/_tools/grading.py), one ``otter run`` per core.

Run from the repository root after ``make assignments``:
``python bench/bench_grading.py [chapter] [copies]``. Not a test: the numbers depend on the
machine and its load (printed before and after). Prints the wall time per submission, the median
time of one ``otter run`` as the pool ran it, and checks that every copy got full marks.
Target: 100 submissions in under 5 minutes on 2 cores.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_tools"))
import grading  # noqa: E402

TARGET = 300.0  # seconds for 100 submissions on 2 cores


def main(chapter: str = "margin", copies: int = 100) -> None:
    assignment = grading.Assignment.find(chapter)
    solution = grading.ASSIGNMENTS / chapter / "autograder" / f"{chapter}.ipynb"
    print(f"{copies} copies of {solution.name} on {os.cpu_count()} cores; load {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        for i in range(copies):
            shutil.copyfile(solution, Path(tmp) / f"student{i:03d}.ipynb")
        start = time.monotonic()
        rows = grading.grade_folder(tmp, chapter, gradebook=Path(tmp) / "grades.csv", echo=None)
        per = (time.monotonic() - start) / len(rows)
    full = sum(r["total"] == assignment.max_points and not r["reason"] for r in rows)
    print(f"{per:.2f} s per submission ({per * 100:.0f} s per 100; target {TARGET:.0f} s on 2 cores); "
          f"one otter run {statistics.median(r['seconds'] for r in rows):.1f} s (median); "
          f"full marks {full} of {len(rows)}; load {os.getloadavg()}")


if __name__ == "__main__":
    main(*(sys.argv[1:2] or ["margin"]), *(int(a) for a in sys.argv[2:3]))
