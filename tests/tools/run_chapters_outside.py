"""Run every chapter as a student would: copied out of the repository, on the installed package.

A student installs ``perceptron_core[book]`` (the reader notebooks' install cell does it in
Colab) and opens a chapter's notebook somewhere else than this repository: the reader notebook
the book build writes for downloads and launch buttons (``--readers _build/html/_notebooks``,
as ``make test-lowest`` runs it), or the chapter's source. There is no ``book/`` beside it,
no myst-nb, no ``glue_numbers``: the chapter must still run, gluing nothing. ``make test-lowest``
installs the wheel (the Makefile's ``$(WHEEL)``) with its ``book`` extra into a clean venv,
and runs this script:

1. copies the chapters of ``_toc.yml`` (``book/_tools/chapters.py``), or their reader
   notebooks, into a new temporary directory outside the repository;
2. runs a probe notebook there with the venv's Python as the kernel, and checks that the kernel
   sees the package and its ``book`` extra installed in that venv, nothing of the repository on
   ``sys.path``, no myst-nb and no ``glue_numbers``, and the temporary directory as its working
   directory;
3. executes every chapter there with nbclient, one per core (each cell within ``--timeout``
   seconds), and prints ``OK`` or ``FAILED`` per chapter, with the failing cell's error. pip has no index in the
   kernels (``PIP_NO_INDEX``): a chapter whose install cell tried to install anything fails.

It exits with status 1 when a chapter fails or the probe finds the run not isolated. The script
itself runs in the repository's environment (it needs PyYAML for ``_toc.yml``, and nbclient);
only the kernels run in ``--python``'s environment, which needs nothing but the wheel, its extra
and ipykernel.

Usage::

    .venv/bin/python tests/tools/run_chapters_outside.py --python _build/lowest-venv/bin/python \
        [--readers _build/html/_notebooks]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_context
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "book" / "_tools"))
from chapters import chapter_paths  # noqa: E402

__all__ = ["Outcome", "PROBE", "execute", "isolation_problems", "main"]

KERNEL_NAME = "outside-the-repository"
# IPython colours its tracebacks; a log file reads better without the escape codes.
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# What the probe asks the kernel, printed as one JSON line.
PROBE = """\
import importlib.util, json, os, sys
import perceptron_core
print(json.dumps({
    "executable": sys.executable,
    "prefix": sys.prefix,
    "cwd": os.getcwd(),
    "package": perceptron_core.__file__,
    "sys_path": sys.path,
    "myst_nb": importlib.util.find_spec("myst_nb") is not None,
    "glue_numbers": importlib.util.find_spec("glue_numbers") is not None,
    "missing": [m for m in BOOK_EXTRA if importlib.util.find_spec(m) is None],
}))
"""
# What `perceptron_core[book]` installs, by import name: the chapters' install cell looks for
# them too, and would try to install the package where one is missing.
BOOK_EXTRA = ("matplotlib", "ipywidgets", "PIL", "sklearn", "anywidget")


@dataclass
class Outcome:
    """One notebook's run: ``error`` is None when every cell ran."""

    name: str
    seconds: float
    error: str | None
    outputs: list[dict]


def _kernel_spec_dir(root: Path, python: Path) -> Path:
    """A kernel spec that starts ipykernel with ``python``, whatever Jupyter finds elsewhere."""
    spec = root / KERNEL_NAME
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"Python ({python})",
        "language": "python",
    }), encoding="utf-8")
    return root


def execute(notebook: Path, workdir: Path, kernels: Path, timeout: int) -> Outcome:
    """Execute ``notebook`` with the kernel spec under ``kernels``, with ``workdir`` as its cwd."""
    # Imported here: the unit tests import this module for isolation_problems alone, and these
    # imports cost a second or more (nbformat's validator builds a grammar).
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    nb = nbformat.read(notebook, as_version=4)
    manager = KernelManager(kernel_name=KERNEL_NAME,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))
    client = NotebookClient(nb, km=manager, timeout=timeout, allow_errors=False,
                            resources={"metadata": {"path": str(workdir)}})
    start = time.perf_counter()
    error = None
    try:
        client.execute()
    except CellExecutionError as exc:  # the failing cell's source and traceback
        error = _ANSI.sub("", str(exc))
    except (CellTimeoutError, DeadKernelError, RuntimeError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    finally:
        # nbclient shuts down only the kernels it started itself; this one was handed to it.
        if manager.has_kernel:
            manager.shutdown_kernel(now=True)
    outputs = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.get("outputs", [])]
    return Outcome(notebook.stem, time.perf_counter() - start, error, outputs)


def _inside(path: str, root: Path) -> bool:
    try:
        return Path(path or ".").resolve().is_relative_to(root)
    except OSError:
        return False


def isolation_problems(info: dict, workdir: Path, repo: Path = REPO) -> list[str]:
    """What makes a probe's run not a student's run outside the repository (empty: none).

    The venv under test may itself lie in the repository (``_build/lowest-venv``): what is inside
    its prefix is the installed wheel, anything else inside the repository is the source.
    """
    found = []
    prefix = Path(info["prefix"]).resolve()

    def from_source(path: str) -> bool:
        return _inside(path, repo) and not _inside(path, prefix)

    if not _inside(info["package"], prefix):
        found.append(f"perceptron_core is imported from {info['package']}, not from the "
                     f"environment under test ({prefix})")
    inside = [p for p in info["sys_path"] if p and from_source(p)]
    if inside:
        found.append(f"the kernel's sys.path holds the repository: {inside}")
    if Path(info["cwd"]).resolve() != workdir.resolve():
        found.append(f"the kernel runs in {info['cwd']}, not in {workdir}")
    for module in ("myst_nb", "glue_numbers"):
        if info[module]:
            found.append(f"{module} is importable: the chapters' fallback for its absence is untested")
    if info.get("missing"):
        found.append(f"the book extra is not installed: no {', '.join(info['missing'])}")
    return found


def _probe(workdir: Path, kernels: Path, timeout: int) -> tuple[dict | None, str | None]:
    """Run :data:`PROBE` and return what it printed (or the error that stopped it)."""
    import nbformat

    probe_dir = workdir.parent / "probe"
    probe_dir.mkdir()
    path = probe_dir / "probe.ipynb"
    source = f"BOOK_EXTRA = {BOOK_EXTRA!r}\n" + PROBE
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]), path)
    # The probe runs in the chapters' working directory, though its file lies beside it.
    outcome = execute(path, workdir, kernels, timeout)
    if outcome.error:
        return None, outcome.error
    text = "".join(o.get("text", "") for o in outcome.outputs if o.get("output_type") == "stream")
    return json.loads(text.strip().splitlines()[-1]), None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", type=Path, required=True,
                        help="the interpreter of the environment to test (its kernels run the chapters)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per cell (as the book build)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--skip-isolation-check", action="store_true",
                        help="do not require the probe's run to be isolated from the repository "
                        "(for tests of this script with the repository's own environment)")
    parser.add_argument("--readers", type=Path, default=None,
                        help="a built book's reader notebooks (_build/html/_notebooks): run "
                        "each chapter's reader notebook instead of its source")
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks to run instead of the chapters of _toc.yml")
    args = parser.parse_args(argv)
    python = args.python if args.python.is_absolute() else Path.cwd() / args.python
    if not python.exists():
        print(f"no interpreter at {python}", file=sys.stderr)
        return 2
    if args.readers is not None:
        notebooks = [args.readers / "book" / p.name for p in chapter_paths()]
        missing = [str(p) for p in notebooks if not p.is_file()]
        if missing:
            print(f"no reader notebook at {', '.join(missing)}: build the book first",
                  file=sys.stderr)
            return 2
    else:
        notebooks = args.notebooks or chapter_paths()
    if not notebooks:
        print("no chapters found in _toc.yml", file=sys.stderr)
        return 2
    # Nothing of the repository reaches the kernels through the environment.
    for name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "JUPYTER_PATH"):
        os.environ.pop(name, None)
    # The chapters' install cell must find the package installed and install nothing: pip in a
    # kernel has no index to install from, so an attempt fails the chapter instead of passing
    # by installing something else than the wheel under test.
    os.environ["PIP_NO_INDEX"] = "1"

    root = Path(tempfile.mkdtemp(prefix="perceptron-chapters-"))
    try:
        if _inside(str(root), REPO):
            print(f"the temporary directory {root} lies inside the repository: set TMPDIR elsewhere")
            return 2
        workdir = root / "chapters"
        workdir.mkdir()
        kernels = _kernel_spec_dir(root / "kernels", python)
        for notebook in notebooks:
            shutil.copy2(notebook, workdir / notebook.name)
        print(f"== {len(notebooks)} chapter(s) copied to {workdir}; kernel: {python}", flush=True)

        info, error = _probe(workdir, kernels, args.timeout)
        if error is not None:
            print(f"FAILED probe: the kernel could not import perceptron_core:\n{error}")
            return 1
        print(f"   perceptron_core from {info['package']}", flush=True)
        problems = isolation_problems(info, workdir)
        if problems and not args.skip_isolation_check:
            print("FAILED isolation: " + "; ".join(problems))
            return 1

        failed = []
        # One chapter per core, as the book build runs them. Spawned, not forked: a fork of this
        # process, whose probe left ZeroMQ and asyncio state behind, hangs in its first kernel.
        with ProcessPoolExecutor(os.cpu_count(), mp_context=get_context("spawn")) as pool:
            run = partial(execute, workdir=workdir, kernels=kernels, timeout=args.timeout)
            outcomes = pool.map(run, [workdir / n.name for n in notebooks])
        for outcome in outcomes:
            if outcome.error is None:
                print(f"OK      {outcome.name:<20} {outcome.seconds:6.1f} s", flush=True)
            else:
                failed.append(outcome.name)
                print(f"FAILED  {outcome.name:<20} {outcome.seconds:6.1f} s\n{outcome.error}\n", flush=True)
        ran = len(notebooks)
        print(f"== {ran - len(failed)} of {ran} chapter(s) ran outside the repository without an error"
              + (f"; failed: {', '.join(failed)}" if failed else ""))
        return 1 if failed else 0
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
