"""How long does `make grade` take for a class: 100 copies of one chapter's solution notebook,
graded by ``grade_folder`` (book/_tools/grading.py), one ``otter run`` per core.

Run from the repository root after ``make assignments``:
``python bench/bench_grading.py [--chapter margin] [--copies 100] [--jobs N]``. Not a test: the
numbers depend on the machine and its load (printed before and after). Prints the wall time, the
time per submission (wall time / copies), the median time of one ``otter run`` as the pool ran
it, and the processor time per submission (otter and its kernel, user + system: what the runs
cost whatever else the machine does), and checks that every copy got full marks. Target: 100
submissions in under 5 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "book" / "_tools"))
import grading  # noqa: E402

TARGET = 300.0  # seconds for 100 submissions on 2 cores


def _load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chapter", default="margin")
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=None, help="default: one per core")
    parser.add_argument("--assignments", type=Path, default=grading.ASSIGNMENTS)
    args = parser.parse_args(argv)
    try:
        assignment = grading.Assignment.find(args.chapter, args.assignments)
    except grading.MissingAssignment as exc:
        print(f"skipped: {exc}")
        return
    cores = len(os.sched_getaffinity(0))
    jobs = args.jobs or cores
    solution = args.assignments / args.chapter / "autograder" / f"{args.chapter}.ipynb"
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        folder = Path(tmp) / "submissions"
        folder.mkdir()
        for i in range(args.copies):
            shutil.copyfile(solution, folder / f"student{i:03d}.ipynb")
        shown = solution.relative_to(REPO) if solution.is_relative_to(REPO) else solution
        print(f"{args.copies} copies of {shown}, "
              f"{jobs} at a time on {cores} cores; {_load()}")
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        rows = grading.grade_folder(folder, args.chapter, assignments=args.assignments,
                                    gradebook=Path(tmp) / "grades.csv", jobs=jobs, echo=None)
        wall = time.monotonic() - start
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    full = sum(r["total"] == assignment.max_points and not r["reason"] for r in rows)
    runs = [r["seconds"] for r in rows]
    print(f"wall time {wall:.1f} s for {len(rows)} submissions: {wall / len(rows):.2f} s per "
          f"submission; one otter run took {statistics.median(runs):.1f} s (median), "
          f"{min(runs):.1f}-{max(runs):.1f} s; {_load()}")
    print(f"processor time of the otter runs and their kernels: {cpu / len(rows):.2f} s per "
          f"submission, so about {cpu / 2:.0f} s for these {len(rows)} on 2 idle cores")
    print(f"full marks: {full} of {len(rows)}")
    if full != len(rows):
        print("  not full marks:", ", ".join(f"{r['student']} {r['total']}/{r['max']} {r['reason']}"
                                               for r in rows if r["total"] != assignment.max_points)[:2000])
    verdict = "met" if wall / len(rows) * 100 <= TARGET else "missed"
    print(f"target: 100 submissions in {TARGET:.0f} s on 2 cores; here {wall / len(rows) * 100:.0f} s "
          f"per 100 with {jobs} at a time on {cores} cores ({verdict} if this is 2 cores)")


if __name__ == "__main__":
    main()
