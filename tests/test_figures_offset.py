"""Tests for the figures of the chapter "The offset trick" and the claims its prose makes.

Where a claim is about the perceptron, the tests recount it with a reference perceptron written
here (exact rationals where the data are integers), and margins are recomputed here or taken
from scikit-learn's SVC, not from the package against itself.
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from matplotlib.figure import Figure
from sklearn.linear_model import Perceptron as SkPerceptron
from sklearn.svm import SVC

from perceptron_core import augment, iris_pair, max_margin, offset_bound, perceptron, radius
from perceptron_core.figures import offset as of
from perceptron_core.interactive import _expand_all




# ---------------------------------------------------------------------------------------------
# A reference perceptron
# ---------------------------------------------------------------------------------------------


def _reference(Z, y, *, exact=False, max_epochs=10**6):
    """Cyclic perceptron through the origin on the rows of Z, in plain Python.

    Returns the update indices, the final weights and the smallest |y w.z| / (|w| |z|) met at
    a test with w != 0: a run whose closest call is far above rounding (1e-9) cannot change
    if the last bits of the data or of a dot product do.
    """
    conv = (lambda v: Fraction(float(v))) if exact else float
    rows = [[conv(v) for v in row] for row in np.asarray(Z)]
    labels = [int(v) for v in y]
    w = [conv(0.0)] * len(rows[0])
    steps, closest = [], math.inf
    norms = [math.sqrt(float(sum(a * a for a in r))) for r in rows]
    for _ in range(max_epochs):
        clean = True
        for i, (z, label) in enumerate(zip(rows, labels)):
            s = sum(a * b for a, b in zip(w, z))
            if any(w):
                size = math.sqrt(float(sum(a * a for a in w))) * norms[i]
                closest = min(closest, abs(float(s)) / size)
            if label * s <= 0:
                w = [a + label * b for a, b in zip(w, z)]
                steps.append(i)
                clean = False
        if clean:
            return steps, w, closest
    raise AssertionError("the reference run did not converge")


def _iris_mm():
    Xi, yi = iris_pair("setosa", "versicolor", features=(2, 3))
    return np.round(10 * Xi), yi


def _svc_unit(X, y):
    svm = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    norm = float(np.linalg.norm(svm.coef_[0]))
    w, b = svm.coef_[0] / norm, float(svm.intercept_[0]) / norm
    return w, b, float(np.min(y * (X @ w + b)))


# ---------------------------------------------------------------------------------------------
# The figure
# ---------------------------------------------------------------------------------------------


def test_slider_grid_is_within_the_static_budget_and_matches_shift_grid():
    expanded = _expand_all({"shift": of.SHIFTS, "c": of.CS}, 60)
    values = {p.name: p.values for p in expanded}
    assert values["shift"] == of.shift_grid()
    assert values["c"] == of.CS
    assert len(values["shift"]) * len(values["c"]) <= 60


@pytest.mark.parametrize("shift, c", list(itertools.product([0.0, 4.0], [of.CS[0], of.CS[-1]])))
def test_draw_returns_a_figure_whose_title_and_alt_give_the_numbers(shift, c):
    fig = of.draw(shift=shift, c=c)
    assert isinstance(fig, Figure)
    s = of.offset_state(shift, c)
    title = fig._suptitle.get_text()
    alt = of.alt_text(shift, c)
    for text in (title, alt):
        assert f"{s['R_aug']:.2f}" in text and f"{s['gamma_aug']:.4f}" in text
        assert f"{s['bound']:.0f}" in text and f"{s['bound_best']:.0f}" in text
        assert f"made {s['mistakes']} mistakes" in text



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
    assert f["factor"] <= 2.0  # "within a factor 1.97 of the bound's best c"
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


# ---------------------------------------------------------------------------------------------
# Claims in the prose
# ---------------------------------------------------------------------------------------------


def test_theta0_loop_is_the_mit_algorithm_and_the_trick_holds_on_the_irises():
    X, y = _iris_mm()
    theta, theta0, steps = of.theta0_perceptron(X, y, 1000)
    ref_steps, ref_w, _ = _reference(augment(X, 1.0), y, exact=True)
    assert steps == ref_steps and len(steps) == 1230
    assert [Fraction(v) for v in theta] + [Fraction(theta0)] == ref_w
    assert theta0 == 618.0 and list(theta) == [23.0, -164.0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sk = SkPerceptron(shuffle=False, tol=None, eta0=1, penalty=None, max_iter=1000,
                          fit_intercept=True).fit(X, y)
    assert np.array_equal(sk.coef_[0], theta) and sk.intercept_[0] == theta0


def test_theta0_perceptron_validates_its_input():
    with pytest.raises(ValueError):
        of.theta0_perceptron([[1.0]], [2.0], 3)
    with pytest.raises((ValueError, TypeError)):
        of.theta0_perceptron([[1.0]], [1.0], 0)


def test_best_c_refuses_zero_offset():
    assert of.best_c(11.0, -10.0) == pytest.approx(math.sqrt(110.0))
    with pytest.raises(ValueError):
        of.best_c(1.0, 0.0)


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
        assert counts[c] <= offset_bound(R, g, b, c)
    assert counts[1.0] == 1230 and counts[R] < 20 and counts[c_best] < 20
    assert offset_bound(R, g, b, c_best) <= 4 * (R / g) ** 2


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


def test_translation_table_claims():
    shifts = (0.0, 1.0, 2.0, 4.0, 8.0)
    tab = of.translation_table(shifts, seeds=5, n=100)
    assert np.ptp(tab["gamma_b"]) < 1e-9  # the margin with an offset stays put
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
    for t in shifts:
        raw_counts, centered_counts = [], []
        for seed in range(5):
            X, y = of.shifted_data(t, n=100, seed=seed)
            steps, _, closest = _reference(augment(X, 1.0), y)
            assert closest > 1e-9
            assert len(steps) == perceptron(X, y, offset=True, max_epochs=10**6).mistakes
            raw_counts.append(len(steps))
            Xc = X - X.mean(axis=0)
            steps_c, _, closest_c = _reference(augment(Xc, 1.0), y)
            assert closest_c > 1e-9
            centered_counts.append(len(steps_c))
        i = shifts.index(t)
        assert np.mean(raw_counts) == pytest.approx(tab["raw"][i], rel=1e-12)
        assert np.mean(centered_counts) == pytest.approx(tab["centered"][i], rel=1e-12)


def test_shifting_keeps_the_planted_separator_margin():
    X0, y = of.shifted_data(0.0)
    for t in of.shift_grid():
        X, _ = of.shifted_data(t)
        v = (X - X0)[0] / t if t else None
        if v is not None:
            assert np.allclose(X - X0, t * v) and np.linalg.norm(v) == pytest.approx(1.0)
        _, _, g = _svc_unit(X, y)
        assert g == pytest.approx(of.offset_state(0.0, 1.0)["gamma"], rel=1e-4)
