"""The claims of the chapter "When the data cannot be separated" (book/nonseparable.ipynb).

The exact cycle on XOR and the Iris run in millimetres are checked against a perceptron in Python
integers written here; Balcan's and Freund and Schapire's bounds against real runs on noisy data,
with u and γ from a source independent of the run; the obvious dual against exact arithmetic.
The bounds themselves are tested in tests/core/test_bounds.py."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perceptron_core as pc
from perceptron_core.figures import nonseparable as nf

from conftest import notebook_cells, reference_perceptron
from conftest import examples
from conftest import integer_run_states


# Runs that stop at their cap are what these tests read; the warning is tested in core/.
pytestmark = pytest.mark.usefixtures("no_convergence_warnings")


def _per_epoch(res):
    return np.bincount(res.history.epochs, minlength=res.epochs + 1)[1:]


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 7), st.integers(1, 3), st.integers(0, 10**6), st.integers(1, 12),
       st.sampled_from([("mistake", False), ("mistake", True), ("positive", True),
                        ("negative", True)]))
def test_on_inseparable_data_every_epoch_errs_where_the_chapter_says_so(n, d, seed, epochs, rule):
    # The chapter's claim: ties counted as mistakes (with or without an offset), or any tie
    # rule with an offset, an epoch without a mistake proves the data separable. Small integer
    # data, so every score is exact; separability decides with an exact certificate.
    tie, offset = rule
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, d)).astype(float)
    y = rng.choice([-1.0, 1.0], size=n)
    res = pc.perceptron(X, y, offset=offset, tie=tie, max_epochs=epochs, record=True)
    separable = pc.separability(X, y, offset=offset).separable
    if not separable:
        assert not res.converged
        assert res.epochs == epochs and _per_epoch(res).min() >= 1
    if res.converged:
        scores = X @ res.w + res.b
        if tie == "mistake":  # the final weights separate, strictly
            assert np.all(y * scores > 0)
        else:  # a ties-free shift of b by a half separates (negative scores are <= -1 here)
            shift = 0.5 if tie == "positive" else -0.5
            assert np.all(y * (scores + shift) > 0)
        assert separable


def test_a_tie_ends_a_run_on_data_no_hyperplane_through_the_origin_separates():
    X, y = nf.tie_example()
    # Not separable through the origin: weights 1/2, 1/2, 0 combine the y_i x_i to 0, so
    # Σ λ_i y_i w·x_i = 0 for every w and some y_i w·x_i is <= 0.
    lam = np.array([0.5, 0.5, 0.0])
    assert np.all(lam >= 0) and lam.sum() == 1 and np.all(lam @ (y[:, None] * X) == 0)
    assert pc.separability(X, y).separable is False
    for tie, labels in (("positive", y), ("negative", -y)):
        res = pc.perceptron(X, labels, tie=tie, max_epochs=nf.TIE_EPOCHS, record=True)
        assert res.converged and res.epochs == 2 and _per_epoch(res).tolist() == [1, 0]
        scores = X @ res.w
        assert np.count_nonzero(scores == 0) == 2  # two points on the boundary
        assert np.all(res.predict(X) == labels)  # right by the rule's own reading of a tie
    strict = pc.perceptron(X, y, tie="mistake", max_epochs=nf.TIE_EPOCHS, record=True)
    assert not strict.converged and strict.epochs == nf.TIE_EPOCHS
    assert _per_epoch(strict).min() >= 1
    # With an offset the same data are separable, so a stop there proves nothing wrong.
    assert pc.separability(X, y, offset=True).separable


def test_xor_weights_return_to_zero_every_sweep():
    cyc = nf.xor_cycle()
    states = integer_run_states(*pc.xor(), epochs=6)
    assert len(states) - 1 == cyc["mistakes"] == 24
    # The first repeat, found independently: the smallest l with states[l] equal to an earlier one.
    first = next((k, l - k) for l in range(len(states)) for k in range(l) if states[k] == states[l])
    assert first == (cyc["start"], cyc["period"]) == (0, 4)
    assert cyc["thetas"] == [s[0] for s in states[1:5]]
    assert cyc["per_epoch"].tolist() == [4] * 6


def test_iris_pair_never_has_a_clean_epoch():
    res, per_epoch, n = nf.never_settles_run("Iris versicolor/virginica")
    assert n == 100 and len(per_epoch) == nf.IRIS_EPOCHS
    assert per_epoch.min() >= 1 and not res.converged
    assert not pc.separability(*pc.iris_pair("versicolor", "virginica"), offset=True).separable


def test_the_iris_run_is_exact_in_millimetres_and_finds_no_repeat():
    # The chapter: in whole millimetres every weight is an integer, so the floating-point run is
    # the run of exact arithmetic, find_cycle compares exactly, and no state repeats; the
    # weights are still drifting at the end. Checked against a run in Python integers.
    X, y = pc.iris_pair("versicolor", "virginica")
    X_mm = np.round(10 * X)
    assert np.all(np.abs(X_mm - 10 * X) < 1e-9)  # one decimal in centimetres: whole millimetres
    np.testing.assert_array_equal(nf.iris_mm()[0], X_mm)
    res, _, n = nf.never_settles_run("Iris versicolor/virginica")
    states = integer_run_states(X_mm, y, nf.IRIS_EPOCHS)
    assert len(states) - 1 == res.mistakes
    h = res.history
    theta = np.column_stack([h.weights, h.offsets])
    assert np.array_equal(theta, np.array([s[0] for s in states[1:]], dtype=float))
    assert len(set(states)) == len(states)  # no state repeats, found without find_cycle
    assert nf.find_cycle(res, n) is None
    # Still drifting: the offset and the length of w grow from epoch 10 to 100 to 1000, and
    # agree with the integer run at the end of those epochs.
    rows = nf.drift(res, (10, 100, nf.IRIS_EPOCHS))
    assert rows[0]["b"] < rows[1]["b"] < rows[2]["b"] == res.b
    assert rows[0]["norm_w"] < rows[1]["norm_w"] < rows[2]["norm_w"]
    assert rows[2]["norm_w"] == pytest.approx(math.hypot(*states[-1][0][:-1]), rel=1e-12)


def test_neither_form_of_the_hinge_bound_is_always_the_smaller():
    R, gamma = 1.0, 0.1
    # Many points deviating a little: Freund and Schapire's form is smaller.
    d = np.full(1000, 0.01)
    assert nf.freund_schapire_bound(R, gamma, float(np.linalg.norm(d))) < pc.hinge_loss_bound(R, gamma, d.sum())
    # One point deviating a lot: Balcan's is smaller.
    d = np.array([2.0])
    assert pc.hinge_loss_bound(R, gamma, d.sum()) < nf.freund_schapire_bound(R, gamma, float(np.linalg.norm(d)))
    # And on the chapter's run, with a few flipped points far on the wrong side, Balcan's.
    X, y, u = nf.noise_data(0.1, 0)
    T, g = nf.PASSES, 0.4
    fs = nf.freund_schapire_bound(pc.radius(X), g, math.sqrt(T) * nf.square_deviation(X, y, u, g))
    assert pc.hinge_loss_bound(pc.radius(X), g, T * pc.total_hinge_deviation(X, y, u, g)) < fs


def test_check_hinge_proof_holds_on_runs_and_catches_a_false_claim():
    X, y, u = nf.noise_data(0.1, 0)
    run = pc.perceptron(X, y, max_epochs=3, record=True)
    c = nf.check_hinge_proof(X, y, u, 0.4, run, 3)
    assert all(c[k] for k in ("progress", "growth", "paid", "sharp", "solved", "balcan",
                              "freund_schapire"))
    assert c["mistakes"] == run.mistakes
    # Weights ten times as long break the growth claim, and the checker says so; weights
    # turned around break the progress claim.
    def tampered(weights):
        return dataclasses.replace(run, history=dataclasses.replace(run.history, weights=weights))

    assert not nf.check_hinge_proof(X, y, u, 0.4, tampered(10 * run.history.weights), 3)["growth"]
    assert not nf.check_hinge_proof(X, y, u, 0.4, tampered(-run.history.weights), 3)["progress"]
    # Claiming one pass for a run of three breaks the one-pass bound on the deviation paid.
    assert not nf.check_hinge_proof(X, y, u, 0.4, run, 1)["paid"]


def test_random_hinge_checks_find_no_failure():
    r = nf.random_hinge_checks(trials=60, seed=3)
    assert r["trials"] == 60 and sum(r["failures"].values()) == 0
    assert 0 < r["worst"] <= 1 + 1e-9 and r["unfinished"] > 0


def test_the_planted_u_misclassifies_exactly_the_flipped_points():
    X, y, u = nf.noise_data(0.1, 0)
    clean = pc.planted(nf.NOISE_N, nf.NOISE_D, nf.NOISE_GAMMA, seed=0)[1]
    np.testing.assert_array_equal(y * (X @ u) < 0, y != clean)
    assert np.sum(y != clean) == round(0.1 * nf.NOISE_N)


def test_one_pass_deviation_is_not_enough_for_many_passes():
    # Noisy planted data: the run keeps erring on every pass, so a bound that charged TD_γ only
    # once, even at its best γ, is broken after a few passes; the P-pass bound is not.
    X, y, u = nf.noise_data(0.1, 0)
    res = pc.perceptron(X, y, max_epochs=10)
    assert res.mistakes > nf.best_gamma(X, y, u, passes=1).bound
    assert res.mistakes <= nf.best_gamma(X, y, u, passes=10).bound


def test_many_small_deviations_are_not_enough():
    # The chapter's example: R/γ = 10, 50 points deviating by γ/10 each. Balcan's form is
    # (R/γ)² + 2·50·0.01/0.1 = 110, theirs ((1 + √50·0.01)/0.1)² ≈ 114.6.
    ex = nf.FS_EXAMPLE
    R, gamma, N, delta = ex["R"], ex["gamma"], ex["points"], ex["deviation"]
    assert R / gamma == pytest.approx(10) and delta == pytest.approx(gamma / 10)
    assert N < (R / gamma) ** 2
    balcan = pc.hinge_loss_bound(R, gamma, N * delta)
    fs = nf.freund_schapire_bound(R, gamma, math.sqrt(N) * delta)
    assert balcan == pytest.approx(110.0, rel=1e-12)
    assert fs == pytest.approx(((1 + math.sqrt(50) * 0.01) / 0.1) ** 2, rel=1e-12)
    assert fs == pytest.approx(114.64, abs=0.01) and fs > balcan
    # The same deviations on four times as many points: now theirs is the smaller.
    assert nf.freund_schapire_bound(R, gamma, math.sqrt(4 * N) * delta) < pc.hinge_loss_bound(
        R, gamma, 4 * N * delta)


def test_ways_out_averaging_beats_the_last_iterate_on_noisy_planted_data():
    w = nf.ways_out("planted")
    assert all(len(v) == 20 and np.all((0 <= v) & (v <= 1)) for v in w.values())
    assert w["averaged"].mean() < w["last"].mean()
    assert w["voted"].mean() < w["last"].mean()
    assert w["averaged"].std() < w["last"].std()


def test_ways_data_is_one_planted_draw_split_as_the_prose_says():
    X_tr, y_tr, X_te, y_te = nf.ways_data(0)
    n, m = nf.WAYS["n_train"], nf.WAYS["n_test"]
    X, y, _ = pc.planted(n + m, nf.WAYS["d"], nf.WAYS["margin"], 1.0, seed=0)
    np.testing.assert_array_equal(X_tr, X[:n])
    np.testing.assert_array_equal(X_te, X[n:])
    np.testing.assert_array_equal(y_te, y[n:])
    assert np.sum(y_tr != y[:n]) == round(nf.WAYS["rate"] * n)
    # The comparison's first planted trial is this very set.
    w = nf.ways_out("planted")
    last = pc.perceptron(X_tr, y_tr, max_epochs=nf.WAYS["epochs"])
    assert w["last"][0] == np.mean(last.predict(X_te) != y_te)


def test_ways_out_iris_split_is_stratified_and_disjoint():
    w = nf.ways_out("iris")
    assert all(len(v) == 20 for v in w.values())
    # A direct recomputation of trial 0 with the public functions.
    X, y = pc.iris_pair("versicolor", "virginica")
    rng = np.random.default_rng(0)
    train = rng.permutation(np.r_[rng.permutation(np.flatnonzero(y > 0))[:25],
                                  rng.permutation(np.flatnonzero(y < 0))[:25]])
    test = np.setdiff1d(np.arange(100), train)
    assert len(test) == 50 and np.sum(y[test] > 0) == 25
    mu = X[train].mean(axis=0)
    avg = pc.averaged_perceptron(X[train] - mu, y[train], epochs=10, offset=True)
    assert w["averaged"][0] == np.mean(avg.predict(X[test] - mu) != y[test])


def test_the_obvious_dual_parts_ways_on_the_chapters_example_and_the_package_does_not():
    X, y, epochs = nf.NAIVE_DUAL_EXAMPLE
    X, y = np.array(X)[:, None], np.array(y)
    primal = pc.perceptron(X, y, max_epochs=epochs, record=True).history.indices.tolist()
    dual = pc.kernel_perceptron(X, y, kernel="linear", max_epochs=epochs).mistake_indices.tolist()
    naive = nf.naive_dual_mistakes(X, y, epochs)
    assert dual == primal
    # On these three points the perceptron's run is also the run of exact arithmetic.
    assert primal == reference_perceptron(X, y, exact=True, max_epochs=epochs, must_converge=False).indices
    assert naive != primal
    # Replay the obvious dual round by round beside exact arithmetic: the first decision on
    # which they differ comes from a score that exact arithmetic puts at 0, or nearer to 0
    # than rounding can tell, and that the float sum gives the other sign.
    from fractions import Fraction

    G = X @ X.T
    alpha = np.zeros(len(y))
    exact_w = Fraction(0)
    found = False
    for _ in range(epochs):
        for i in range(len(y)):
            score = float(np.sum(alpha * y * G[:, i]))
            exact = exact_w * Fraction(float(X[i, 0]))
            wrong_float, wrong_exact = y[i] * score <= 0, y[i] * exact <= 0
            if wrong_float != wrong_exact:
                assert abs(score) < 1e-15 and abs(exact) < Fraction(1, 10**15)
                found = True
                break
            if wrong_exact:
                alpha[i] += 1
                exact_w += Fraction(int(y[i])) * Fraction(float(X[i, 0]))
        if found:
            break
    assert found


def test_naive_dual_mistakes_is_the_obvious_dual():
    # On integer data every sum is exact, so the obvious dual makes the perceptron's mistakes
    # under each tie rule (its only fault is rounding).
    rng = np.random.default_rng(7)
    for _ in range(40):
        n, d = int(rng.integers(2, 8)), int(rng.integers(1, 4))
        X = rng.integers(-3, 4, size=(n, d)).astype(float)
        y = rng.choice([-1.0, 1.0], size=n)
        for tie in ("mistake", "positive", "negative"):
            primal = pc.perceptron(X, y, max_epochs=6, record=True, tie=tie)
            assert nf.naive_dual_mistakes(X, y, 6, tie) == primal.history.indices.tolist()
    with pytest.raises(ValueError, match="tie"):
        nf.naive_dual_mistakes(X, y, 2, "zero")


def test_dual_comparison_counts_what_the_chapter_says():
    r = nf.dual_comparison()
    assert r["runs"] == 900 and r["kernel_parted"] == 0 and r["naive_parted"] > 0


def test_text_has_the_theorems_exercises_and_sources():
    cells = notebook_cells("nonseparable")
    text = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    for label in ("ns-thm-hinge", "ns-cor-solved", "ns-cor-passes", "ns-prop-linear",
                  "ns-alg-voted", "ns-alg-kernel", "ns-def-td", "ns-def-cycle"):
        assert f":label: {label}" in text, label
    assert text.count("```{exercise}") >= 3
    assert text.count(":class: dropdown") == text.count("```{exercise}")
    assert "Freund and Schapire" in text and "beyond the lecture notes" in text
    assert "NP-hard" in text
    for bad in ("seeds", "lecture note 2", "notes 004"):
        assert bad not in text, bad
    # The page is for readers: no test files, no test names, no "checked in the tests".
    for bad in ("tests/", "test_", "the tests", "a test checks", "\\epsilon"):
        assert bad not in text.lower(), bad
    # T counts the passes; P is not a symbol of this chapter.
    assert "$P$" not in text and "P\\,TD" not in text and "2P" not in text
    assert "{cite:t}`block1970`" in text and "Theorem 2" in text
    # The kernel section describes the package: exact decisions, not "can still part ways".
    assert "can still part ways" not in text and "holds exactly only when" not in text
    assert "exact integer arithmetic" not in "\n".join("".join(c["source"]) for c in cells)
    # The sharper form replaces T·TD_γ, not TD_γ; the solved form is the largest real M.
    assert "Sharper still, in either form $T\\,TD_\\gamma$ may be replaced" in text
    assert "the *largest* real $M \\ge 0$" in text
    # The condition for Freund and Schapire's form, not "many points deviate a little".
    assert "pays less when many points deviate a little" not in text
    assert "2R\\sqrt{\\textstyle\\sum_i d_i^2} + \\sum_i d_i^2 \\ <\\ 2\\gamma\\,TD_\\gamma" in text
    # The best gamma for a fixed u: no k (the update index) or t (the stream position) there.
    assert "2Tk" not in text and "t = 1/\\gamma" not in text and "$|I|$" in text
    # The Iris run: no parenthesis that explains nothing.
    assert "the offset\nafter the last mistake is" not in text and "still drifting" in text
    # Numbers of the exercises are glued, not typed.
    assert "seed 0: 25 flowers" not in text and "`gamma` 0.1, 1 and" not in text
    # A point of the plane has coordinates x_(1), x_(2); x_1, x_2 are examples.
    assert "x_1x_2" not in text and "\\sqrt2 x_1" not in text
