"""The claims of the chapter "The offset trick" (book/offset.ipynb) and the numbers of its figure.

Where a claim is about the perceptron, it is recounted with the reference perceptron of
tests/conftest.py (exact rationals where the data are integers), and margins are recomputed
here or taken from scikit-learn's SVC, not from the package against itself."""

from __future__ import annotations

import math
import re
import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.svm import SVC

from perceptron_core import (augment, closest_call, iris_pair, max_margin, offset_bound,
                             perceptron, radius)
from perceptron_core.bounds import best_c
from perceptron_core.figures import offset as of

from conftest import markdown_text, reference_perceptron, stored_number


def _stored(key):
    """A number the page shows, as stored from the chapter's last run."""
    return stored_number("offset", key)


def _reference(Z, y, *, exact=False):
    """The reference perceptron (tests/conftest.py) through the origin on the rows of Z: the
    indices of its updates, its final weights, and its closest call (measured in floats only)."""
    run = reference_perceptron(Z, y, exact=exact, closest=not exact)
    return run.indices, run.w, run.closest


def _iris_mm():
    Xi, yi = iris_pair("setosa", "versicolor", features=(2, 3))
    return np.round(10 * Xi), yi


def _svc_unit(X, y):
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    norm = float(np.linalg.norm(svm.coef_[0]))
    w, b = svm.coef_[0] / norm, float(svm.intercept_[0]) / norm
    return w, b, float(np.min(y * (X @ w + b)))


def _svc_origin_margin(X, y):
    """The maximum margin through the origin, by an SVC on the data and their mirror images."""
    X2, y2 = np.vstack([X, -X]), np.r_[y, -y]
    w = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X2, y2).coef_[0]
    return float(np.min(y * (X @ w)) / np.linalg.norm(w))


def _strictly_separable_through_origin(X, y):
    """Is there a w with y_i w.x_i >= 1 for all i? A feasibility LP (scipy), not the package."""
    from scipy.optimize import linprog

    Z = y[:, None] * X
    res = linprog(np.zeros(X.shape[1]), A_ub=-Z, b_ub=-np.ones(len(y)),
                  bounds=[(None, None)] * X.shape[1], method="highs")
    return res.status == 0


def test_every_frame_shows_correct_numbers_and_runs_within_the_bound():
    for shift in of.shift_grid():
        X, y = of.shifted_data(shift)
        R = float(np.max(np.linalg.norm(X, axis=1)))
        w, b, g = _svc_unit(X, y)  # an independent maximum-margin separator
        for c in of.CS:
            s = of.offset_state(shift, c)
            assert s["R"] == pytest.approx(R, rel=1e-12)
            # The SVC's solver stops within about 1e-5 relative of the optimum.
            assert s["gamma"] == pytest.approx(g, rel=1e-4)
            assert s["b"] == pytest.approx(b, rel=1e-4, abs=1e-4)
            # gamma' is the margin of u' = (w*, b*/c)/sqrt(1 + b*²/c²) on (x, c), recomputed.
            u = np.r_[w, b / c] / math.sqrt(1 + (b / c) ** 2)
            assert s["gamma_aug"] == pytest.approx(np.min(y * (augment(X, c) @ u)), rel=1e-4)
            assert s["R_aug"] == pytest.approx(np.max(np.linalg.norm(augment(X, c), axis=1)))
            assert s["bound"] == pytest.approx((s["R_aug"] / s["gamma_aug"]) ** 2, rel=1e-9)
            assert s["bound_best"] == pytest.approx(((R + abs(b)) / g) ** 2, rel=1e-4)
            steps, _, closest = _reference(augment(X, c), y)
            assert s["mistakes"] == len(steps) <= s["bound"]
            assert closest > 1e-9  # no count hinges on rounding


def test_frame_summary_claims():
    f = of.frame_summary()
    # Recomputed here: per shift, the slider's c with the fewest (reference-checked) mistakes,
    # the bound's best c √(R|b*|) from an SVC, and the bounds at the slider's c.
    factor, where, same_best, max_ratio = 1.0, None, 0, 0.0
    for shift in of.shift_grid():
        X, y = of.shifted_data(shift)
        R = float(np.max(np.linalg.norm(X, axis=1)))
        _, b, g = _svc_unit(X, y)
        cb = math.sqrt(R * abs(b))
        runs = [of.offset_state(shift, c)["mistakes"] for c in of.CS]
        bounds = [(R**2 + c**2) * (1 + b**2 / c**2) / g**2 for c in of.CS]
        i_run, i_bound = int(np.argmin(runs)), int(np.argmin(bounds))
        c_run = of.CS[i_run]
        # "at every shift the fewest mistakes come at one of the two slider values on either
        # side of √(R|b*|)"
        assert max(c for c in of.CS if c <= cb) == c_run or min(c for c in of.CS if c >= cb) == c_run
        # "at the others it is the next larger c of the slider"
        assert i_run == i_bound or i_run == i_bound + 1
        same_best += i_run == i_bound
        max_ratio = max(max_ratio, max(m / bd for m, bd in zip(runs, bounds)))
        if max(c_run / cb, cb / c_run) > factor:
            factor, where = max(c_run / cb, cb / c_run), (shift, c_run, cb)
    assert f["bracketed"] is True and f["others_next"] is True
    assert f["same_best"] == same_best and f["shifts"] == len(of.shift_grid())
    assert f["max_ratio"] == pytest.approx(max_ratio, rel=1e-3) and f["max_ratio"] < 1
    # the factor is the largest ratio, larger over smaller, between those two constants
    assert f["factor"] == pytest.approx(factor, rel=1e-3) and factor < 2
    assert (f["factor_shift"], f["factor_c_run"]) == where[:2]
    assert f["factor_c_best"] == pytest.approx(where[2], rel=1e-3)
    # "Since neighbouring values of the slider differ by a factor <c_step>, that alone places
    # the measured best within a factor <c_step>": every neighbouring ratio is that factor
    ratios = [b / a for a, b in zip(of.CS, of.CS[1:])]
    assert all(r == pytest.approx(f["c_step"], rel=1e-12) for r in ratios)
    assert factor <= f["c_step"]
    # "so at that shift the measured best is the farther of the two neighbours (the nearer is
    # within a factor <near>)"
    shift, c_run, cb = where
    below, above = max(c for c in of.CS if c <= cb), min(c for c in of.CS if c >= cb)
    gaps = {c: max(c / cb, cb / c) for c in (below, above)}
    assert f["factor_far"] is True and gaps[c_run] == max(gaps.values())
    assert f["factor_near"] == pytest.approx(min(gaps.values()), rel=1e-3)
    assert f["worst"] > 10 * f["best_run"]
    last = [of.offset_state(of.shift_grid()[-1], c)["mistakes"] for c in of.CS]
    assert f["worst"] == max(last) == last[0] and f["best_run"] == min(last)
    X, y = of.shifted_data(of.shift_grid()[-1])
    assert len(_reference(augment(X, of.CS[0]), y)[0]) == f["worst"]
    # "At shift 0 every c of the slider does well"; "near the origin the largest c does badly"
    origin = [of.offset_state(0.0, c)["mistakes"] for c in of.CS]
    assert f["origin_most"] == max(origin) <= 10
    near = [of.offset_state(f["near_shift"], c)["mistakes"] for c in of.CS]
    assert f["near_shift"] == of.shift_grid()[1] > 0 and f["c_large"] == of.CS[-1]
    assert f["near_large"] == near[-1] > 10 * f["near_best"] and f["near_best"] == min(near)


def test_the_mit_algorithm_and_the_trick_hold_on_the_irises():
    # The chapter's first cell: the package's perceptron with an offset (the MIT notes' θ₀) and
    # through the origin on (x, 1), against a reference loop in exact rationals.
    X, y = _iris_mm()
    mit = perceptron(X, y, offset=True, max_epochs=1000, record=True)
    theta, theta0, steps = mit.w, mit.b, list(mit.history.indices)
    ref = reference_perceptron(augment(X, 1.0), y, exact=True)
    ref_steps, ref_w = ref.indices, ref.w
    assert steps == ref_steps and len(steps) == 1230 == _stored("off-trick-mistakes")
    # "Epoch 308 of the T = 1000 was the first without a mistake": the reference's count of
    # epochs, the clean one included; the last mistake falls in the epoch before it.
    epochs = ref.epochs
    run = perceptron(augment(X, 1.0), y, max_epochs=1000, record=True)
    assert run.epochs == mit.epochs == epochs == _stored("off-trick-epochs") == 308
    assert run.history.epochs[-1] == epochs - 1
    assert _stored("off-trick-T") == 1000
    assert [Fraction(v) for v in theta] + [Fraction(theta0)] == ref_w
    assert theta0 == 618.0 and list(theta) == [23.0, -164.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = SkPerceptron(shuffle=False, tol=None, eta0=1, penalty=None, max_iter=1000,
                          fit_intercept=True).fit(X, y)
    assert np.array_equal(sk.coef_[0], theta) and sk.intercept_[0] == theta0


def test_iris_bounds_and_runs_at_three_constants():
    X, y = _iris_mm()
    R = radius(X)
    w, b, g = _svc_unit(X, y)
    mm = max_margin(X, y, offset=True)
    assert mm.gamma == pytest.approx(g, rel=1e-4) and mm.b == pytest.approx(b, rel=1e-4)
    c_best = math.sqrt(R * abs(b))
    counts = {}
    for c in (1.0, R, c_best):
        # c = 1 keeps everything integer (exact, ties included); other c must be far from ties.
        steps, _, closest = _reference(augment(X, c), y, exact=c == 1.0)
        assert c == 1.0 or closest > 1e-9
        counts[c] = len(steps)
        assert counts[c] == perceptron(augment(X, c), y, max_epochs=10**6).mistakes
        assert counts[c] <= offset_bound(R, g, b, c)
    assert counts[1.0] == 1230 and counts[R] < 20 and counts[c_best] < 20
    assert offset_bound(R, g, b, c_best) <= 4 * (R / g) ** 2
    # "the irises are not separable by a line through the origin at all": no w has
    # y_i w.x_i >= 1 for all i (scipy's LP), so there is no bound without an offset
    assert not _strictly_separable_through_origin(X, y)
    assert _stored("off-iris-through-origin") is False
    # the closest call the prose quotes for the runs at c = R and the best c
    closest = min(_reference(augment(X, c), y)[2] for c in (R, c_best))
    assert _stored("off-iris-closest") == pytest.approx(closest, rel=1e-6) and closest > 1e-3


@pytest.mark.parametrize("seed", range(4))
def test_corollary_is_four_times_the_naive_formula_and_the_bound_without_offset(seed):
    """off-cor-four: its γ is the margin *with* the offset. Checked with SVC margins on data
    separable both ways: the run on (x, √(R|b*|)) ≤ ((R + |b*|)/γ*_b)² ≤ 4(R/γ*_b)²
    ≤ 4(R/γ*)², the last because γ* (through the origin) ≤ γ*_b."""
    X, y = of.shifted_data(0.05, n=60, seed=seed)  # a small move: still separable through 0
    assert _strictly_separable_through_origin(X, y)
    R = float(np.max(np.linalg.norm(X, axis=1)))
    _, b, g_b = _svc_unit(X, y)
    g0 = _svc_origin_margin(X, y)
    assert 0 < g0 <= g_b * (1 + 1e-4)
    assert abs(b) <= R - g_b * (1 - 1e-4)  # off-lem-b-le-R
    best = ((R + abs(b)) / g_b) ** 2
    assert best <= 4 * (R / g_b) ** 2 <= 4 * (R / g0) ** 2 * (1 + 1e-3)
    steps, _, closest = _reference(augment(X, math.sqrt(R * abs(b))), y)
    assert len(steps) <= best and closest > 1e-9


def test_corollary_needs_both_labels_and_a_nonzero_offset():
    """off-cor-four and the Summary state "b* ≠ 0" and "when both labels occur": without both
    labels ((R + |b*|)/γ)² ≤ 4(R/γ)² fails (the example of off-ex-one-side), and for b* = 0 the
    constant √(R|b*|) is 0, which is no augmented point."""
    R, b, g = 1.0, 5.0, 6.0  # one point x = 1 labelled +1; u = 1, b* = 5: margin 6
    assert 1.0 * (1.0 * 1 + b) == g
    assert ((R + abs(b)) / g) ** 2 > 4 * (R / g) ** 2
    with pytest.raises(ValueError):
        best_c(R, 0.0)
    text = markdown_text("offset", "\n")
    corollary = text[text.index(":label: off-cor-four"):]
    corollary = corollary[:corollary.index("```")]
    assert "both labels" in corollary and "b^* \\neq 0" in corollary
    summary = text[text.index("## Summary"):text.index("## Exercises")]
    bullet = next(p for p in summary.split("\n- ") if "c^2 = R|b^*|" in p)
    assert "b^* \\neq 0" in bullet and "when both labels occur" in bullet


def test_the_package_decides_each_sign_exactly():
    """The page says the package decides each sign exactly (not in floats). Here floats would
    err: after the first update w = (1e16, 1, -1e16), and w·(1, 1, 1) = 1 exactly, while the
    float sum 1e16 + 1 - 1e16 gives 0, a mistake."""
    X, y = np.array([[1e16, 1.0, -1e16], [1.0, 1.0, 1.0]]), np.array([1.0, 1.0])
    steps, w, _ = _reference(X, y, exact=True)
    assert len(steps) == 1
    assert (1e16 + 1.0) - 1e16 == 0.0  # what plain floats make of the second test
    assert perceptron(X, y, max_epochs=100).mistakes == len(steps)
    text = markdown_text("offset", "\n")
    assert "decided in floating" not in text and "decides each sign exactly" in text


def test_counterexample_numbers():
    ce = of.counterexample()
    X, y = np.array([[11.0], [9.0]]), np.array([1.0, -1.0])
    steps, w, _ = _reference(augment(X, 1.0), y, exact=True)
    assert ce["mistakes"] == len(steps) == 202 and w == [2, -20]
    assert steps.count(0) == 91 and steps.count(1) == 111
    assert ce["naive"] == 121.0 and ce["correct"] == 12322.0
    assert ce["best"] == pytest.approx(441.0) and ce["c_best"] == pytest.approx(math.sqrt(110))
    assert ce["gamma_b"] == pytest.approx(1.0) and ce["b"] == pytest.approx(-10.0)
    steps_best, _, closest = _reference(augment(X, ce["c_best"]), y)
    assert ce["mistakes_best"] == len(steps_best) <= 441 and closest > 1e-9
    assert (ce["x_pos"], ce["x_neg"]) == of.CE_POINTS == (11.0, 9.0)
    assert ce["R2"] == 121.0 and ce["b2"] == pytest.approx(100.0) and ce["Rb"] == pytest.approx(110.0)
    assert (ce["R2"] + 1) * (1 + ce["b2"]) == pytest.approx(ce["correct"])
    assert ce["gamma_aug"] == pytest.approx(1 / math.sqrt(101))
    # the good direction (1, b*)/√(1 + b*²) on the points (x, 1) has exactly that margin
    u = np.array([1.0, -10.0]) / math.sqrt(101)
    assert np.min(y * (augment(X, 1.0) @ u)) == pytest.approx(ce["gamma_aug"])
    # there is no separator through the origin: w·11 > 0 and w·9 < 0 contradict each other
    assert not _strictly_separable_through_origin(X, y)


def test_closest_call_of_the_package_matches_the_reference():
    X, y = _iris_mm()
    for c in (3.0, 40.0):
        steps, _, closest = _reference(augment(X, c), y)
        run = perceptron(augment(X, c), y, max_epochs=10**6, record=True)
        assert run.mistakes == len(steps)
        assert closest_call(augment(X, c), run) == pytest.approx(closest, rel=1e-9)


def test_translation_table_claims():
    shifts = of.TABLE_SHIFTS
    assert shifts == (0.0, 1.0, 2.0, 4.0, 8.0)  # the prose calls them 0 and doublings
    tab = of.translation_table(shifts, seeds=5, n=100)
    np.testing.assert_array_equal(tab["s"], shifts)
    assert np.ptp(tab["gamma_b"]) < 1e-9  # the margin with an offset stays put
    assert 0 <= tab["gamma_b_spread"] < 1e-12
    assert np.all(np.diff(tab["R"]) > 0) and np.all(np.diff(tab["raw"]) > 0)
    assert np.ptp(tab["centered"]) == 0 and tab["centered"][0] < tab["raw"][-1] / 100
    raw = tab["raw"][2:] / tab["raw"][1:-1]  # at the doublings 1→2, 2→4, 4→8
    bound = tab["bound"][2:] / tab["bound"][1:-1]
    best = tab["bound_best"][-1] / tab["bound_best"][-2]
    # "Near the origin the runs grew more slowly than that bound, further out at about its
    # pace, and on the last doubling far faster than the best bound"
    assert raw[0] < bound[0] / 1.5
    assert 0.67 < raw[1] / bound[1] < 1.5 and 0.67 < raw[2] / bound[2] < 1.5
    assert raw[2] > 2 * best
    assert np.all(tab["raw"] <= tab["bound"])
    # Recount every run with the reference perceptron, raw and centered, and check that no
    # test comes near a tie: "rounding changes none of them".
    centered_by_seed, radii, closest_all, spread, first = {}, [], math.inf, 0.0, {}
    for s in shifts:
        raw_counts, centered_counts = [], []
        for seed in range(5):
            X, y = of.shifted_data(s, n=100, seed=seed)
            steps, _, closest = _reference(augment(X, 1.0), y)
            assert closest > 1e-9
            assert len(steps) == perceptron(X, y, offset=True, max_epochs=10**6).mistakes
            raw_counts.append(len(steps))
            Xc = X - X.mean(axis=0)
            steps_c, _, closest_c = _reference(augment(Xc, 1.0), y)
            assert closest_c > 1e-9
            closest_all = min(closest_all, closest_c)
            centered_counts.append(len(steps_c))
            centered_by_seed.setdefault(seed, set()).add(len(steps_c))
            radii.append(float(np.max(np.linalg.norm(Xc, axis=1))))
            first.setdefault(seed, Xc)
            spread = max(spread, float(np.max(np.abs(Xc - first[seed]))))
        i = shifts.index(s)
        assert np.mean(raw_counts) == pytest.approx(tab["raw"][i], rel=1e-12)
        assert np.mean(centered_counts) == pytest.approx(tab["centered"][i], rel=1e-12)
    # "each data set makes the same number of mistakes in every row"
    assert all(len(v) == 1 for v in centered_by_seed.values()) and tab["centered_same"] is True
    # "differ ... by at most <spread> in any coordinate" and "at least <closest> times"
    assert tab["centered_spread"] == pytest.approx(spread, abs=1e-18) and spread < 1e-13
    assert tab["closest_centered"] == pytest.approx(closest_all, rel=1e-9)
    assert closest_all > 1e6 * spread
    # "The largest radius of the centered data, over all the data sets and rows": the maximum
    # over the runs, not over the rows' averages (a glued mean of radii once said 1.04 where the
    # largest radius is 1.09). Checked against the number the page shows.
    assert max(tab["R_centered_max"]) == pytest.approx(max(radii), rel=1e-12)
    assert _stored("off-move-R-centered") == pytest.approx(max(radii), rel=1e-9)
    assert max(radii) > max(tab["R_centered"]) + 0.01  # the mean would have been wrong


def test_shifting_keeps_the_planted_separator_margin():
    X0, y = of.shifted_data(0.0)
    for t in of.shift_grid():
        X, _ = of.shifted_data(t)
        v = (X - X0)[0] / t if t else None
        if v is not None:
            assert np.allclose(X - X0, t * v) and np.linalg.norm(v) == pytest.approx(1.0)
        _, _, g = _svc_unit(X, y)
        assert g == pytest.approx(of.offset_state(0.0, 1.0)["gamma"], rel=1e-4)


def test_prose_calls_no_bound_the_worst_case():
    text = markdown_text("offset", "\n")
    assert "worst case" not in text  # a bound is an upper bound, not the worst case of a run


def test_notation_of_the_chapter():
    """u (not w*) for the unit separator; T only for epochs; no ϵ; w' (not θ') for the weights
    on the augmented points x'."""
    text = markdown_text("offset", "\n")
    assert "w^*" not in text and "\\epsilon" not in text
    assert "\\theta'" not in text and "w' = (\\theta, \\theta_0)" in text
    assert "w'_{(d+1)}" in text
    assert "w*" not in offset_bound.__doc__ and "unit ``u``" in offset_bound.__doc__


def test_the_mit_notes_are_paraphrased_not_copied():
    """The MIT 6.036 notes' sentence is "Some playing with dimensions later on will show that
    what applies to perceptron-through-origin applies to perceptron with an offset"."""
    text = markdown_text("offset", "\n")
    assert "playing with dimensions" not in text
    assert "The MIT 6.036 notes promise" in text


def test_T_is_a_number_of_epochs_wherever_the_page_writes_it():
    text = markdown_text("offset", "\n")
    for m in re.finditer(r"\$T\b|\bT\$|\$T = ", text):
        line = text[max(0, m.start() - 80): m.end() + 80]
        assert "epoch" in line or "T =" in line, line
