"""The compiled loops of the perceptron and the Margin Perceptron: the same run compiled and as
plain Python, without numba at all, and (the perceptron's) bit for bit scikit-learn's.

``perceptron_core._compiled.perceptron_epochs`` and ``margin_epochs`` are Python functions that
numba compiles where it is installed. These tests run them both ways on data chosen to reach
every branch of the loops: exact ties on integer data, float margins too near 0 (or too near the
aim) for a float to decide, handed back to Python and decided in rational arithmetic, weights
whose w·w is no normal float, and runs long enough to outgrow the history buffers.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

import perceptron_core as pc
from perceptron_core import _compiled

from conftest import small_labelled_data
from conftest import examples

ROOT = Path(__file__).resolve().parents[2]
TIES = ("mistake", "positive", "negative")
LOOP = _compiled.perceptron_epochs
MARGIN_LOOP = _compiled.margin_epochs


@contextlib.contextmanager
def loop_replaced_by(fn, name="perceptron_epochs"):
    """Run :func:`perceptron_core.perceptron` (or, with ``name="margin_epochs"``,
    :func:`perceptron_core.margin_perceptron`) with ``fn`` as its loop."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_compiled, name, fn)
        yield


class Counting:
    """The loop, counting why it returned each time: the exact path and the buffers at work."""

    def __init__(self, fn):
        self.fn, self.returns = fn, []

    def __call__(self, *args):
        status = self.fn(*args)
        self.returns.append(int(status))
        return status

    def count(self, status):
        return self.returns.count(status)


def run(X, y, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        return pc.perceptron(X, y, **kwargs)


def run_as_python(X, y, **kwargs):
    with loop_replaced_by(LOOP.py_func):
        return run(X, y, **kwargs)


def bits(a) -> bytes:
    """Bit pattern of a float array (tells 0.0 from -0.0, unlike ==)."""
    return np.ascontiguousarray(a, dtype=np.float64).tobytes()


def assert_same_run(a: pc.algorithms.PerceptronResult, b: pc.algorithms.PerceptronResult) -> None:
    assert bits(a.w) == bits(b.w) and bits(a.b) == bits(b.b)
    assert (a.mistakes, a.epochs, a.converged) == (b.mistakes, b.epochs, b.converged)
    assert (a.history is None) == (b.history is None)
    if a.history is not None:
        for field in ("indices", "epochs"):
            assert np.array_equal(getattr(a.history, field), getattr(b.history, field)), field
        for field in ("weights", "offsets", "norms_sq"):
            assert bits(getattr(a.history, field)) == bits(getattr(b.history, field)), field


# ---------------------------------------------------------------- data that reach every branch


@st.composite
def hard_cases(draw):
    """A data set with its run's options, from families that stress the exact-sign rule."""
    family = draw(st.sampled_from(["integers", "tenths", "planted", "noisy", "hypercube", "wedge",
                                   "orthonormal", "cancellation"]))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    if family == "integers":  # exact ties, decided without rounding
        X, y = draw(small_labelled_data(max_n=15, max_d=4))
    elif family == "tenths":  # float data whose true margins are often exactly 0
        n, d = draw(st.integers(1, 25)), draw(st.integers(1, 4))
        X = rng.integers(-3, 4, size=(n, d)) / 10.0
        y = rng.choice([-1.0, 1.0], size=n)
    elif family in ("planted", "noisy"):
        n, d = draw(st.integers(2, 60)), draw(st.integers(1, 6))
        X, y, _ = pc.planted(n, d, draw(st.floats(1e-6, 0.5)), 1.0, seed=seed)
        if family == "noisy":
            y = pc.flip_labels(y, 0.2, seed=seed)
    elif family == "hypercube":  # margin about φ⁻ⁿ
        X, y = pc.hypercube_small_margin(draw(st.integers(1, 9)))
    elif family == "wedge":  # margin 2⁻ᵏ, entries 1 - 2⁻ᵏ
        X, y = pc.narrow_wedge(draw(st.integers(0, 8)))
    elif family == "orthonormal":  # every point first met on a tie
        X, y = pc.orthonormal_worst_case(draw(st.integers(1, 12)), seed=seed)
    else:  # sums that cancel in floats: the exact sign differs from the float one
        big = float(draw(st.sampled_from([1e16, 2.0**60, 3e20])))
        X = np.array([[1.0, 1.0, 1.0], [big, 1.0, -big], [-big, -1.0, big], [0.5, -big, big]])
        y = rng.choice([-1.0, 1.0], size=4)
    options = {
        "offset": draw(st.booleans()),
        "tie": draw(st.sampled_from(TIES)),
        "max_epochs": draw(st.integers(1, 40)),
    }
    return family, np.asarray(X, float), np.asarray(y, float), options


# ------------------------------------------------------------------ compiled and plain Python


def test_numba_compiles_the_loop():
    # Otherwise the comparisons below would compare plain Python with itself.
    pytest.importorskip("numba")
    assert LOOP.uses_numba


@settings(max_examples=examples(300))
@given(hard_cases(), st.booleans())
def test_compiled_and_python_loops_make_the_same_run(case, record):
    _, X, y, options = case
    compiled = run(X, y, record=record, **options)
    python = run_as_python(X, y, record=record, **options)
    assert_same_run(compiled, python)
    if record:  # keeping the history does not change the run
        plain = run(X, y, record=False, **options)
        assert bits(plain.w) == bits(compiled.w) and bits(plain.b) == bits(compiled.b)
        assert (plain.mistakes, plain.epochs) == (compiled.mistakes, compiled.epochs)


@pytest.mark.parametrize("as_python", [False, True], ids=["compiled", "python"])
@pytest.mark.parametrize("tie", ["mistake", "negative"])  # the rules that update on (1, 1, 1)
def test_float_cancellation_is_decided_exactly_by_the_caller(as_python, tie):
    # (1e16, 1, -1e16)·(1, 1, 1) = 1 exactly, but 0 in floats: the loop must hand that row back,
    # or it would count a mistake there.
    X = np.array([[1.0, 1.0, 1.0], [1e16, 1.0, -1e16]])
    loop = Counting(LOOP.py_func if as_python else LOOP)
    with loop_replaced_by(loop):
        res = pc.perceptron(X, [1.0, 1.0], tie=tie, record=True)
    assert loop.count(_compiled.SIGN_NEEDED) >= 1
    assert res.mistakes == 1
    assert res.converged and list(res.predict(X)) == [1, 1]


@pytest.mark.parametrize("as_python", [False, True], ids=["compiled", "python"])
def test_a_long_history_outgrows_its_buffers(as_python):
    # The narrow wedge of 2⁻¹⁰ costs 2¹² + 1 mistakes, more than the first buffer holds.
    X, y = pc.narrow_wedge(10)
    loop = Counting(LOOP.py_func if as_python else LOOP)
    with loop_replaced_by(loop):
        res = pc.perceptron(X, y, record=True, max_epochs=10**6)
    assert res.mistakes == 2**12 + 1 and loop.count(_compiled.RECORD_FULL) >= 2
    h = res.history
    assert len(h.indices) == res.mistakes and np.array_equal(h.weights[-1], res.w)
    # Row k of the history is the run after mistake k: recompute it by hand.
    steps = y[h.indices, None] * X[h.indices]
    assert np.array_equal(h.weights, np.cumsum(steps, axis=0))
    assert np.all(np.diff(h.epochs) >= 0) and h.epochs[-1] == res.epochs - 1


def test_integer_data_are_decided_without_the_caller():
    # Integer entries below 2⁵³: every margin is exact, ties included, so no row is handed back.
    X, y = pc.orthonormal_worst_case(30, seed=4)
    loop = Counting(LOOP)
    with loop_replaced_by(loop):
        res = pc.perceptron(X, y)
    assert res.mistakes == 30 and loop.returns == [_compiled.FINISHED]


def test_one_compiled_version_serves_every_memory_layout():
    X, y, _ = pc.planted(300, 4, 0.05, 1.0, seed=9)
    y = pc.flip_labels(y, 0.1, seed=9)
    reference = run(X, y, offset=True, max_epochs=15, record=True)
    read_only = X.copy()
    read_only.flags.writeable = False
    wide = np.zeros((300, 8))
    wide[:, ::2] = X
    for variant in (np.asfortranarray(X), read_only, wide[:, ::2]):
        assert_same_run(run(variant, y, offset=True, max_epochs=15, record=True), reference)
    if LOOP.uses_numba:
        assert len(LOOP._run.signatures) == 1


def test_an_epoch_cap_beyond_int64_is_no_error():
    X, y, _ = pc.planted(50, 3, 0.1, 1.0, seed=1)
    res = pc.perceptron(X, y, max_epochs=10**30)
    assert res.converged and res.max_epochs == 10**30


# ------------------------------------------------------------------ the Margin Perceptron's loop


def margin_run(X, y, gamma, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        return pc.margin_perceptron(X, y, gamma, **kwargs)


def assert_same_margin_run(a, b) -> None:
    assert bits(a.w) == bits(b.w)
    assert (a.updates, a.epochs, a.converged) == (b.updates, b.epochs, b.converged)
    if a.update_indices is not None or b.update_indices is not None:
        assert np.array_equal(a.update_indices, b.update_indices)
        assert bits(a.weights) == bits(b.weights)


@st.composite
def margin_cases(draw):
    """Data, γ and τ for the Margin Perceptron: planted data (γ at, below or above their margin,
    so that runs converge or run to their cap), noisy labels, and points placed within a few ulps
    of the aim; each scaled by 2ᵏ, so that w·w is also subnormal or beyond the float range."""
    family = draw(st.sampled_from(["planted", "noisy", "near-aim"]))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    target = draw(st.floats(0.05, 0.95))
    if family == "near-aim":
        w = rng.uniform(0.5, 2.0, 3)
        gamma = float(rng.uniform(0.2, 0.5))
        rows = [w]
        for _ in range(draw(st.integers(1, 8))):
            z = rng.uniform(-1.0, 1.0, 3)
            z[0] = (target * gamma * float(np.sqrt(w @ w)) - float(z[1:] @ w[1:])) / w[0]
            rows.append(z + np.r_[int(rng.integers(-3, 4)) * np.spacing(z[0]), 0.0, 0.0])
        y = rng.choice([-1.0, 1.0], size=len(rows))
        y[0] = 1.0
        X = np.array(rows) * y[:, None]
    else:
        n, d = draw(st.integers(2, 40)), draw(st.integers(1, 5))
        margin = draw(st.floats(0.01, 0.5))
        X, y, _ = pc.planted(n, d, margin, 1.0, seed=seed)
        if family == "noisy":
            y = pc.flip_labels(y, 0.2, seed=seed)
        gamma = margin * draw(st.sampled_from([0.5, 1.0, 2.0]))
    power = draw(st.sampled_from([0, 0, -700, -300, 300]))
    return np.ldexp(X, power), y, float(np.ldexp(gamma, power)), target, draw(st.integers(1, 40))


def test_numba_compiles_the_margin_loop():
    pytest.importorskip("numba")
    assert MARGIN_LOOP.uses_numba


@settings(max_examples=examples(300))
@given(margin_cases(), st.booleans())
def test_compiled_and_python_margin_loops_make_the_same_run(case, record):
    X, y, gamma, target, cap = case
    compiled = margin_run(X, y, gamma, target=target, max_epochs=cap, record=record)
    with loop_replaced_by(MARGIN_LOOP.py_func, "margin_epochs"):
        python = margin_run(X, y, gamma, target=target, max_epochs=cap, record=record)
    assert_same_margin_run(compiled, python)
    plain = margin_run(X, y, gamma, target=target, max_epochs=cap)
    assert bits(plain.w) == bits(compiled.w) and plain.updates == compiled.updates


@pytest.mark.parametrize("as_python", [False, True], ids=["compiled", "python"])
def test_the_margin_loop_hands_back_rows_near_the_aim_and_rescaled_weights(as_python):
    # z₃·w₁ is τγ‖w₁‖ within an ulp: no float test can tell; and at 2⁻⁷⁰⁰ every w·w underflows.
    w = np.array([1.0, 2.0, 2.0])  # ‖w‖ = 3 exactly
    target, gamma = 0.5, 0.25
    z = np.array([0.0, 0.125, 0.25])  # z·w = 0.75, τγ‖w‖ = 0.375: clear; then one near the aim
    near = np.array([-3.625 + np.spacing(3.625), 1.0, 1.0])  # z·w = 0.375 + 2⁻⁵¹, exactly
    X, y = np.array([w, z, near]), np.array([1.0, 1.0, 1.0])
    for power in (0, -700):
        loop = Counting(MARGIN_LOOP.py_func if as_python else MARGIN_LOOP)
        with loop_replaced_by(loop, "margin_epochs"):
            res = margin_run(np.ldexp(X, power), y, float(np.ldexp(gamma, power)), target=target)
        assert loop.count(_compiled.SIGN_NEEDED) >= 1
        assert res.converged and res.updates == 0  # the near row is, exactly, not short


@pytest.mark.parametrize("as_python", [False, True], ids=["compiled", "python"])
def test_a_long_margin_history_outgrows_its_buffers(as_python):
    # Noisy labels: no w has every margin at τγ, so every sweep updates, up to the cap.
    X, y, _ = pc.planted(20, 2, 0.1, 1.0, seed=2)
    y = pc.flip_labels(y, 0.3, seed=2)
    loop = Counting(MARGIN_LOOP.py_func if as_python else MARGIN_LOOP)
    with loop_replaced_by(loop, "margin_epochs"):
        res = margin_run(X, y, 0.1, max_epochs=600, record=True)
    assert res.updates >= 600 * 2 and loop.count(_compiled.RECORD_FULL) >= 1 and not res.converged
    Z = y[:, None] * X
    assert np.array_equal(res.weights, np.cumsum(np.vstack([Z[0], Z[res.update_indices]]), axis=0))
    assert np.array_equal(res.weights[-1], res.w)


# --------------------------------------------------------------------------- without numba

_CASES_SCRIPT = """
import json, sys, warnings
import numpy as np
import perceptron_core as pc
from perceptron_core import _compiled
X1, y1, _ = pc.planted(200, 5, 0.01, 1.0, seed=3)
cases = [
    (X1, pc.flip_labels(y1, 0.1, seed=3)),
    (np.array([[1.0, 1.0, 1.0], [1e16, 1.0, -1e16], [0.1, 0.2, -0.3]]), np.array([1.0, 1.0, -1.0])),
    pc.hypercube_small_margin(6),
    pc.narrow_wedge(6),
]
out = []
warnings.simplefilter("ignore", pc.ConvergenceWarning)
for X, y in cases:
    for tie in ("mistake", "positive", "negative"):
        for offset in (False, True):
            r = pc.perceptron(X, y, tie=tie, offset=offset, max_epochs=30, record=True)
            out.append([r.w.tolist(), r.b, r.mistakes, r.epochs, r.converged,
                        r.history.indices.tolist(), r.history.epochs.tolist()])
    Z = y[:, None] * X
    if np.all(Z[0] == 0):
        continue
    for target in (0.5, 0.9):
        for scale in (0, -300):
            m = pc.margin_perceptron(np.ldexp(X, scale), y, float(np.ldexp(0.05, scale)),
                                     target=target, max_epochs=30, record=True)
            out.append([m.w.tolist(), m.updates, m.epochs, m.converged, m.update_indices.tolist()])
print(json.dumps({"numba_used": _compiled.perceptron_epochs.uses_numba,
                  "margin_numba_used": _compiled.margin_epochs.uses_numba,
                  "numba_imported": sys.modules.get("numba") is not None, "runs": out}))
"""


def _runs_in_subprocess(prelude: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", prelude + _CASES_SCRIPT], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_without_numba_the_package_imports_and_makes_the_same_runs():
    blocked = _runs_in_subprocess("import sys; sys.modules['numba'] = None\n")
    assert not blocked["numba_used"] and not blocked["margin_numba_used"] and not blocked["numba_imported"]
    here = _runs_in_subprocess("")
    assert here["runs"] == blocked["runs"]  # JSON floats round-trip exactly
    assert here["numba_used"] == here["margin_numba_used"] == (importlib.util.find_spec("numba") is not None)


def test_importing_the_package_does_not_import_numba():
    # numba costs most of a second to import: only the first run pays it.
    code = "import sys, perceptron_core; print('numba' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


# ------------------------------------------------------------------------ against scikit-learn


@settings(max_examples=examples(150))
@given(
    st.integers(2, 300), st.integers(1, 12), st.floats(1e-4, 0.5), st.sampled_from([0.0, 0.05, 0.3]),
    st.integers(1, 25), st.booleans(), st.integers(0, 2**31 - 1),
)
def test_bit_for_bit_scikit_learn_on_random_float_data(n, d, gamma, noise, T, offset, seed):
    X, y, _ = pc.planted(n, d, gamma, 1.0, seed=seed)
    if noise:
        y = pc.flip_labels(y, noise, seed=seed)
    if len(set(y.tolist())) < 2:
        return  # scikit-learn refuses a single class
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        sk = SkPerceptron(shuffle=False, tol=None, eta0=1.0, penalty=None, max_iter=T,
                          fit_intercept=offset).fit(X, y)
    ours = run(X, y, offset=offset, max_epochs=T)
    assert bits(ours.w) == bits(sk.coef_[0]) and bits(ours.b) == bits(sk.intercept_[0])
