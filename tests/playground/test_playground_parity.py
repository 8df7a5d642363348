"""The playground's mathematics (perceptron_core/static/playground.js) in headless Chromium.

* Runs: ``pg.perceptronRun`` (three tie rules, through the origin and lifted with several c, 0.1
  among them, which is not dyadic) and ``pg.marginPerceptronRun`` (several γ and targets, and
  probes that sit exactly on the aim τγ‖w‖ or on a true tie) make, bit for bit, the run of the
  package's contract, written out in plain Python floats in tests/conftest.py
  (``contract_perceptron``, ``contract_margin``): every update's row, epoch and weights, the end,
  the epochs. The package's own ``perceptron`` is compared too, on every data set.
* What the page calls certified checks out here in exact rational arithmetic (Fraction): a
  separator has every yᵢ w·x̃ᵢ > 0 and the γ shown is below its margin; a certificate's weights are
  ≥ 0, sum to 1 and make Σλ y x̃ = 0; R shown is ≥ every norm; a bound shown is ≥ the formula on
  the R and γ shown. The verdicts never contradict ``perceptron_core.separability``, and
  "undecided" stays rare on ordinary data.

Floats cross between Python and the page as JSON, which writes the shortest decimal that reads
back to the same float (no weight here is -0.0, the one value JSON would change).
"""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conftest import contract_margin, contract_perceptron
from playground_page import chromium, pg_page, pg_url  # noqa: F401  (fixtures)

from perceptron_core import ConvergenceWarning, augment, perceptron, separability
from perceptron_core.data import iris_pair, logic_gate, narrow_wedge, planted, xor

pytestmark = pytest.mark.browser
TIES = {"mistake": 0, "positive": 1, "negative": -1}  # the label each rule predicts where w·x = 0
CS = (None, 1.0, 0.1, 3.0)


def _lift(X, c):
    return [list(map(float, x)) + ([c] if c is not None else []) for x in X]


def contract_run(X, y, tie, c, max_epochs):
    """The package's contract (tests/conftest.py) on the points, lifted to (x, c) when c is
    given, in the shape ``pg.perceptronRun`` returns (no offset of its own: c·w₃ is it)."""
    r = contract_perceptron(_lift(X, c), y, tie=tie, max_epochs=max_epochs)
    return {"steps": [{k: s[k] for k in ("i", "epoch", "w")} for s in r["steps"]], "w": r["w"],
            "converged": r["converged"], "epochs": r["epochs"]}


def _cases():
    """About 190 data sets, from fixed seeds: random, adversarial (ties, decimals, duplicates,
    collinear points, the origin, extreme magnitudes) and the course's own."""
    rng, out = np.random.default_rng(34), []

    def add(cat, X, y, max_epochs=30):
        out.append((cat, np.asarray(X, float).reshape(-1, 2), np.asarray(y, float).ravel(), max_epochs))

    for n in (1, 2, 3, 5, 8, 20, 50, 200):
        for k in range(5 if n < 100 else 2):
            add("uniform", rng.uniform(-3, 3, (n, 2)), rng.choice([-1.0, 1.0], n), 3 if n > 50 else 20)
            X = rng.normal(size=(n, 2))
            add("gaussian", X, np.where(X @ rng.normal(size=2) + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0))
            add("integer-ties", rng.integers(-3, 4, (n, 2)), rng.choice([-1.0, 1.0], n), 3 if n > 50 else 20)
            add("decimal", rng.integers(-30, 31, (n, 2)) / 10, np.where(rng.integers(-30, 31, n) >= 0, 1.0, -1.0), 10)
        X, y, _ = planted(n, 2, 0.2, seed=n)
        add("planted", X, y, 200)
    for n in (2, 6, 20):
        X = rng.integers(-2, 3, (n, 2)).astype(float)
        add("duplicates", np.vstack([X, X]), np.concatenate([np.ones(n), rng.choice([-1.0, 1.0], n)]))
        t = rng.integers(-4, 5, n)
        add("collinear", np.outer(t, [1.0, 2.0]), np.where(t > 0, 1.0, -1.0))
        add("collinear", np.outer(t, [1.0, 2.0]) + [0.5, 0.0], rng.choice([-1.0, 1.0], n))
        add("origin", np.vstack([[0.0, 0.0], [-0.0, 0.0], rng.uniform(-1, 1, (n, 2))]), rng.choice([-1.0, 1.0], n + 2))
        for scale in (1e-150, 1e-100, 1e100, 1e150):
            add("magnitude", rng.uniform(-1, 1, (n, 2)) * scale, rng.choice([-1.0, 1.0], n))
    for gate in ("and", "or", "nand", "nor"):
        add("course", *logic_gate(gate))
    add("course", *xor())
    for k, me in ((1, 2000), (3, 2000), (8, 2000), (30, 100)):
        add("course", *narrow_wedge(k), me)
    for pos, neg in (("setosa", "versicolor"), ("versicolor", "virginica")):
        add("course", *iris_pair(pos, neg, (2, 3)), 20)
    for s in json.loads((Path(__file__).parent / "wolfe_degenerate.json").read_text())["sets"]:
        add("wolfe-degenerate", s["X"], s["y"])
    return out


CASES = _cases()


def _js(page, script, jobs):
    """``script`` (a function of one job) run on every job in the page, 20 jobs per call."""
    out = []
    for k in range(0, len(jobs), 20):  # one JSON string back: much faster than Playwright's own transfer of objects
        out += json.loads(page.evaluate(f"jobs => JSON.stringify(jobs.map({script}))", jobs[k:k + 20]))
    assert not page.pg_errors
    return out


def _job(X, y, **kw):
    return {"X": X.tolist(), "y": [int(v) for v in y], **kw}


def test_perceptron_runs_match_the_contract(pg_page):
    jobs = [_job(X, y, o={"tie": tie, "c": c, "maxEpochs": me}) for _, X, y, me in CASES for c in CS for tie in TIES]
    got = _js(pg_page, "j => pg.perceptronRun(j.X, j.y, j.o)", jobs)
    ties = updates = 0
    for job, g in zip(jobs, got):
        o = job["o"]
        e = contract_run(job["X"], job["y"], o["tie"], o["c"], o["maxEpochs"])
        assert g == e, f"tie={o['tie']} c={o['c']}: X={job['X']} y={job['y']}"
        updates += len(e["steps"])
        ws = [[0.0] * len(e["w"])] + [s["w"] for s in e["steps"]]
        A = [x + ([o["c"]] if o["c"] is not None else []) for x in job["X"]]
        ties += sum(sum(a * b for a, b in zip(A[s["i"]], w)) == 0 for s, w in zip(e["steps"], ws))
    print(f"\nperceptronRun: {len(jobs)} runs, {updates} updates identical, {ties} of them on ties")
    assert len(jobs) >= 1500 and ties > 1000


@pytest.mark.parametrize("tie", TIES)
def test_perceptron_runs_match_the_core(pg_page, tie):
    """The package's perceptron makes the same runs, bit for bit, on every case: both follow
    one float contract (the same operations in the same order)."""
    jobs = [_job(X, y, c=c, me=me) for cat, X, y, me in CASES for c in (None, 1.0, 3.0)]
    got = _js(pg_page, f"j => pg.perceptronRun(j.X, j.y, {{ tie: '{tie}', c: j.c, maxEpochs: j.me }})", jobs)
    for job, g in zip(jobs, got):
        X = np.array(job["X"], float).reshape(-1, 2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            res = perceptron(X if job["c"] is None else augment(X, job["c"]), np.array(job["y"], float),
                             tie=tie, max_epochs=job["me"], record=True)
        assert [s["i"] for s in g["steps"]] == res.history.indices.tolist()
        assert [s["w"] for s in g["steps"]] == res.history.weights.tolist()
        assert (g["w"], g["converged"], g["epochs"]) == (res.w.tolist(), res.converged, res.epochs)


def _probes():
    """Margin Perceptron runs on the threshold: w starts at z₁ = (3, 4), ‖w‖ = 5, τγ = ½, and a
    point with z·w = 2.5 = τγ‖w‖ exactly (twice: not short), 0 (a true mistake), or just below."""
    return [_job(np.array([[3.0, 4.0], z]), [1, 1], g=1.0, o={"target": 0.5, "c": None, "maxEpochs": 5})
            for z in ([0.5, 0.25], [-0.5, 1.0], [4.0, -3.0], [0.5, 0.2499999999999999], [-4.0, 3.0])] + [
        _job(np.array([[0.0, 0.0], [1.0, 0.0]]), [1, 1], g=1.0, o={"target": 0.5, "c": None, "maxEpochs": 5})]


def test_margin_perceptron_runs_match_the_contract(pg_page):
    cert = _js(pg_page, "j => pg.certifiedMargin(j.X, j.y, { c: j.c }).gamma", [_job(X, y, c=c) for _, X, y, _ in CASES for c in CS])
    jobs = [_job(X, y, g=g, o={"target": t, "c": c, "maxEpochs": me}) for (_, X, y, me), (c, g) in
            zip([k for k in CASES for _ in CS], zip(CS * len(CASES), cert)) if g for t in (0.5, 0.3, 0.9)]
    jobs += _probes()
    got = _js(pg_page, "j => pg.marginPerceptronRun(j.X, j.y, j.g, j.o)", jobs)
    for job, g in zip(jobs, got):
        o = job["o"]
        assert g == contract_margin(_lift(job["X"], o["c"]), job["y"], job["g"], o["target"], o["maxEpochs"]), job
    assert [len(g["steps"]) for g in got[-6:-1]] == [0, 0, 1, 1, 1]  # the probes: on the aim is not short
    assert [g["steps"][0]["mistake"] for g in got[-4:-1]] == [True, False, True]  # z·w = 0 is a true mistake
    assert [s["i"] for s in got[-1]["steps"][:2]] == [0, 1]  # while w = 0 every point is short
    assert len(jobs) >= 300


def _exact(v):
    return Fraction(str(v)) if isinstance(v, str) else Fraction(v)


def _weight(text):
    """A certificate weight "m*2^e/M*2^E" as an exact Fraction."""
    (m, e), (M, E) = (part.split("*2^") for part in text.split("/"))
    return Fraction(int(m)) * Fraction(2) ** int(e) / (Fraction(int(M)) * Fraction(2) ** int(E))


def test_what_the_page_certifies_checks_out(pg_page):
    jobs = [_job(X, y, c=c, cat=cat) for cat, X, y, _ in CASES for c in CS]
    got = _js(pg_page, "j => ({ m: pg.certifiedMargin(j.X, j.y, { c: j.c }), R: pg.radius(j.X, j.c) })", jobs)
    counts = {"separable": 0, "inseparable": 0, "undecided": 0, "undecided at 1e±100 and beyond": 0}
    for job, g in zip(jobs, got):
        m, c = g["m"], job["c"]
        Z = [[_exact(lab) * _exact(v) for v in x + ([c] if c is not None else [])] for x, lab in zip(job["X"], job["y"])]
        counts[m["status"] + (" at 1e±100 and beyond" if m["status"] == "undecided" and job["cat"] == "magnitude" else "")] += 1
        assert g["R"]["up"] is not None and all(_exact(g["R"]["up"]) ** 2 >= sum(v * v for v in z) for z in Z)
        core = separability(np.array(job["X"], float).reshape(-1, 2), np.array(job["y"], float), offset=c is not None)
        if m["status"] == "separable":
            w = [_exact(v) for v in m["w"]]
            scores = [sum(a * b for a, b in zip(z, w)) for z in Z]
            assert min(scores) > 0, job
            assert m["low"] is None or _exact(str(m["low"])) ** 2 * sum(v * v for v in w) <= min(scores) ** 2, job
            assert core.separable is not False, job
        elif m["status"] == "inseparable":
            lam = [_weight(t) for t in m["certificate"]["weights"]]
            assert min(lam) >= 0 and sum(lam) == 1 and len(lam) <= len(Z[0]) + 1, job
            assert all(sum(lam[k] * Z[i][j] for k, i in enumerate(m["certificate"]["points"])) == 0 for j in range(len(Z[0])))
            assert core.separable is not True, job
    print(f"\ncertifiedMargin: {len(jobs)} (data set, c) pairs: {counts}")
    assert counts["undecided"] <= 0.02 * len(jobs) and counts["separable"] > 100 and counts["inseparable"] > 100


def test_the_bounds_shown_are_certified(pg_page):
    """(R/γ)² and 2(R/γ)²/η² + 2(R/γ)/η, shown as decimals, are never below the formula on the R
    and γ shown; on orthonormal pairs the run meets (R/γ)² = 2 exactly, and the page's check
    "k ≤ bound" must hold there too."""
    rng = np.random.default_rng(3)
    args = [[float(f"{r:.4g}"), float(f"{g:.4g}"), t] for r, g, t in
            zip(rng.uniform(0.1, 10, 300), rng.uniform(0.001, 1, 300), rng.choice([0.05, 0.3, 0.5, 0.95], 300))]
    got = _js(pg_page, "([R, g, t]) => [pg.perceptronBound(R, g), pg.marginPerceptronBound(R, g, t)]", args)
    for (R, g, t), (b, mb) in zip(args, got):
        R, g, eta = _exact(str(R)), _exact(str(g)), 1 - _exact(t)
        assert _exact(str(b)) >= (R / g) ** 2 and _exact(str(mb)) >= 2 * (R / g) ** 2 / eta**2 + 2 * (R / g) / eta
    angles = rng.uniform(0, 2 * math.pi, 100)
    pairs = [[[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]] for a in angles]
    got = _js(pg_page, """X => { const m = pg.certifiedMargin(X, [1, -1]), R = pg.radius(X).up;
        return [pg.perceptronRun(X, [1, -1]).steps.length, m.low && pg.perceptronBound(R, m.low)]; }""", pairs)
    assert all(b is not None and k <= b for k, b in got) and sum(k == 2 for k, _ in got) > 50
