"""Run every benchmark in bench/ in turn (`make bench`)."""

import runpy
from pathlib import Path

here = Path(__file__).parent
for script in sorted(here.glob("bench_*.py")):
    print(f"\n=== {script.name} ===")
    runpy.run_path(str(script), run_name="__main__")
