"""Shared test settings and data strategies."""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import perceptron_core as pc

# The book's build code and tools (book/_tools) are not in the package; the tests import them.
import sys  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_tools"))

# Hundreds of random data sets per theorem, without a wall-clock deadline: the machine is shared
# and slow runs are not failures. Three profiles:
# - "ci", which `make test` (and CI) runs: derandomized, so the examples of a test depend only on
#   the test, and a run gives the same verdict on every machine and every day. A failure there is
#   a failure of the change being tested, never a random find on someone else's change.
# - "deep", which `make test-deep` runs: random examples, and PERCEPTRON_DEEP_FACTOR (default 10)
#   times as many for every property test. What it finds is a bug report: hypothesis prints the
#   falsifying example, to be fixed and kept as an @example of the test.
# - "default" for a plain `pytest` run: random, the usual number of examples.
settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "deep", max_examples=200, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.load_profile("ci" if os.environ.get("CI") else "default")
DEEP_FACTOR = int(os.environ.get("PERCEPTRON_DEEP_FACTOR", "10"))


def pytest_collection_modifyitems(config, items):
    """Under the "deep" profile, multiply every property test's number of examples by
    DEEP_FACTOR, including the tests that set their own ``@settings(max_examples=...)``."""
    if settings.get_current_profile_name() != "deep":
        return
    done: set[int] = set()
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is None or id(test) in done:  # not a property test, or already scaled
            continue
        done.add(id(test))
        test._hypothesis_internal_use_settings = settings(own, max_examples=own.max_examples * DEEP_FACTOR)


def pytest_configure(config):
    """The markers the tests use beyond pyproject.toml's list."""
    config.addinivalue_line(
        "markers",
        "notebooks: starts a Jupyter kernel, runs nbval or reads a book build's cache; "
        "`make test-notebooks-native` runs these, the unit suite (`make test-unit`) leaves them out",
    )


@st.composite
def planted_data(draw, max_n: int = 40, max_d: int = 6):
    """A separable data set with a planted unit vector u of margin exactly gamma, radius R."""
    n = draw(st.integers(2, max_n))
    d = draw(st.integers(1, max_d))
    R = draw(st.floats(0.5, 5.0))
    ratio = draw(st.floats(0.05, 1.0))
    seed = draw(st.integers(0, 2**31 - 1))
    X, y, u = pc.planted(n, d, ratio * R, R, seed=seed)
    return X, y, u, ratio * R, R


@st.composite
def small_labelled_data(draw, max_n: int = 12, max_d: int = 3):
    """Small integer-valued data with arbitrary labels: separable or not, with exact ties."""
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    X = np.array(draw(st.lists(st.lists(st.integers(-3, 3), min_size=d, max_size=d), min_size=n, max_size=n)), float)
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    return X, y


@pytest.fixture(scope="session")
def once_per_run(tmp_path_factory):
    """``once_per_run(name, make)`` returns ``make(folder)``, made once per test run even when
    pytest-xdist spreads the tests over several processes: the first process to ask makes it in
    a folder they all see, holding an exclusive lock on ``<name>.lock`` while it does; the others
    block on that lock (no polling, no ``sleep``) and then read what it made. The kernel drops a
    lock when its process ends, however it ends, so no one waits on a process that died: the next
    one finds nothing made and makes it anew. (xdist's own ``xdist_group`` does not keep tests
    together under pytest 9.2: xdist 3.8 renames ``item._nodeid``, which pytest 9.2 no longer
    reads.)"""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # this run's folder, above each worker's own

    def run(name: str, make: Callable[[Path], Any]) -> Any:
        folder, done, failed = root / name, root / f"{name}.done", root / f"{name}.failed"
        with open(root / f"{name}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # returns when no other process holds it
            if done.exists():
                return pickle.loads(done.read_bytes())
            if failed.exists():
                pytest.fail(f"{name} failed in another test process: {failed.read_text()}")
            shutil.rmtree(folder, ignore_errors=True)  # what a process that died left half made
            folder.mkdir()
            try:
                result = make(folder)
            except BaseException as exc:
                failed.write_text(str(exc)[-3000:] or type(exc).__name__)
                raise
            partial = root / f"{name}.done.partial"
            partial.write_bytes(pickle.dumps(result))
            partial.rename(done)  # a process that dies while writing leaves no half-written result
            return result

    return run
