"""The claims of the chapter "The convergence theorem" (book/convergence.ipynb), each recomputed with
the reference perceptron (tests/conftest.py; exact rationals where the data allow), an
independent solver, or integer arithmetic, not with the package against itself."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize, nnls

from perceptron_core import (
    augment,
    iris_pair,
    max_margin,
    max_rounds,
    narrow_wedge,
    novikoff_bound,
    orthonormal_worst_case,
    perceptron,
    planted,
    radius,
)
from perceptron_core.data import hypercube_small_margin
from perceptron_core.figures import convergence as cf

from conftest import clear_of_rounding_edge, reference_perceptron
from conftest import examples


def _ends(sliders: dict) -> dict:
    """The first and the last value of each slider of a grid."""
    return {name: [v[0], v[-1]] for name, v in cf.slider_values(sliders).items()}


INVARIANTS_SETTINGS = list(itertools.product(*cf.slider_values(cf.INVARIANTS_SLIDERS).values()))


def _fib(m: int) -> int:
    a, b = 0, 1
    for _ in range(m):
        a, b = b, a + b
    return a


def _min_norm_separator(X, y):
    """min |w|^2 subject to y_i w.x_i >= 1, by SLSQP: an independent quadratic program.

    The answer is checked, not trusted: it must be feasible and satisfy the KKT conditions
    (w a non-negative combination of the rows y_i x_i whose constraints are tight), which
    for this convex problem prove it optimal.
    """
    A = y[:, None] * X
    w0 = np.linalg.lstsq(A, np.ones(len(y)), rcond=None)[0] * 2
    sol = minimize(
        lambda w: w @ w,
        w0,
        jac=lambda w: 2 * w,
        constraints=[{"type": "ineq", "fun": lambda w: A @ w - 1, "jac": lambda w: A}],
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 1000},
    )
    w = sol.x
    slack = A @ w - 1
    assert np.all(slack >= -1e-7), sol.message
    tight = slack <= 1e-6
    _, residual = nnls(A[tight].T, w)
    assert residual <= 1e-6 * np.linalg.norm(w), sol.message
    return w


def test_cosine_can_fall_counterexample_in_exact_arithmetic():
    # u = (1, 0), gamma = 0.1: the chapter's three points, all labelled +1.
    tenth = Fraction(1, 10)
    Z = [(tenth, Fraction(2)), (tenth, Fraction(-5, 2)), (tenth, Fraction(3))]
    w = (Fraction(0), Fraction(0))
    cos_sq, scores = [], []
    for z in Z:
        scores.append(w[0] * z[0] + w[1] * z[1])
        w = (w[0] + z[0], w[1] + z[1])
        cos_sq.append(w[0] ** 2 / (w[0] ** 2 + w[1] ** 2))  # w.u > 0 throughout
    assert scores[0] == 0 and scores[1] < 0 and scores[2] < 0  # every update is a mistake
    assert cos_sq[0] < cos_sq[1] and cos_sq[2] < cos_sq[1]  # up, then down
    R_sq = max(a * a + b * b for a, b in Z)
    for k, c in enumerate(cos_sq, start=1):
        assert c >= k * tenth**2 / R_sq  # the lower bound sqrt(k) gamma / R still holds
    shown = [0.050, 0.371, 0.119]
    assert np.allclose([math.sqrt(c) for c in cos_sq], shown, atol=5e-4)
    # The package's run on the same floats makes these three mistakes first, in this order.
    Zf = np.array([[0.1, 2.0], [0.1, -2.5], [0.1, 3.0]])
    res = perceptron(Zf, np.ones(3), u=[1.0, 0.0])
    h = res.history
    assert list(h.indices[:3]) == [0, 1, 2]
    cos = h.progress[:3] / np.sqrt(h.norms_sq[:3])
    assert np.allclose(cos**2, [float(c) for c in cos_sq], rtol=1e-12)
    assert all(clear_of_rounding_edge(v, 3) for v in cos)
    lower = np.sqrt([1, 2, 3]) * 0.1 / radius(Zf)
    assert all(clear_of_rounding_edge(v, 3) for v in lower)
    assert all(clear_of_rounding_edge(v, 2) for v in (-4.99, -1.48))


def test_invariants_depend_only_on_gamma_over_R():
    # Scaling the data scales w_k and leaves the mistakes alone (exercise conv-ex-scale). The
    # prose names two settings of the sliders with the same R/gamma and says they give the
    # same run, scaled.
    (g1, r1), (g2, r2) = cf.same_ratio_settings()
    assert (g1, r1) in INVARIANTS_SETTINGS and (g2, r2) in INVARIANTS_SETTINGS
    assert r1 != r2 and math.isclose(r1 / g1, r2 / g2)
    X1, y1, _ = cf.shell_data(cf.INVARIANTS_N, cf.INVARIANTS_D, g1, r1)
    X2, y2, _ = cf.shell_data(cf.INVARIANTS_N, cf.INVARIANTS_D, g2, r2)
    assert np.array_equal(y1, y2) and np.allclose(X2, (r2 / r1) * X1)
    w1, w2 = (np.array(reference_perceptron(X, y).weights) for X, y in ((X1, y1), (X2, y2)))
    assert w1.shape == w2.shape and np.allclose(w2, (r2 / r1) * w1)
    a, _, _ = cf.invariants_run(g1, r1)
    b, _, _ = cf.invariants_run(g2, r2)
    assert a.mistakes == b.mistakes == len(w1)
    assert np.array_equal(a.history.indices, b.history.indices)


def test_the_dashed_bounds_never_cross_inside_the_figure():
    # The prose: at no setting of the sliders do the two dashed curves cross on the panel; the
    # runs stop after ratio_lo to ratio_hi times (R/gamma)^2 mistakes (recomputed here with the
    # reference perceptron), and the cosine at the last mistake lies in the range quoted.
    summary = cf.invariants_grid()
    assert summary["settings"] == len(INVARIANTS_SETTINGS)
    ratios, last_cos, gaps = [], [], []
    for gamma, R in INVARIANTS_SETTINGS:
        X, y, u = cf.shell_data(cf.INVARIANTS_N, cf.INVARIANTS_D, gamma, R)
        W = np.array(reference_perceptron(X, y).weights)
        g = float(np.min(y * (X @ u)))
        r = float(np.max(np.linalg.norm(X, axis=1)))
        crossing = (r / g) ** 2  # where k g = sqrt(k) r
        ax = cf.draw_invariants(gamma, R).axes[0]
        right_edge = ax.get_xlim()[1]
        assert len(W) <= crossing and right_edge < crossing, (gamma, R)
        # The dashed curves drawn on the panel stay apart up to its right edge.
        k = right_edge
        assert math.sqrt(k) * r - k * g > 0.1 * math.sqrt(k) * r
        ratios.append(len(W) / crossing)
        last_cos.append(float(W[-1] @ u / np.linalg.norm(W[-1])))
        m = len(W)  # how far k gamma is below sqrt(k) R at the last mistake, k = m
        gaps.append((math.sqrt(m) * r - m * g) / (math.sqrt(m) * r))
    assert summary["ratio_lo"] == pytest.approx(min(ratios), rel=1e-9)
    assert summary["ratio_hi"] == pytest.approx(max(ratios), rel=1e-9)
    assert summary["cos_last_lo"] == pytest.approx(min(last_cos), rel=1e-9)
    assert summary["cos_last_hi"] == pytest.approx(max(last_cos), rel=1e-9)
    assert summary["crossing_past_edge"] > 1
    # The prose: at every setting k gamma is still at least gap_last_pct % below sqrt(k) R at
    # the last mistake. A percentage rounded down keeps "at least" true.
    pct = summary["gap_last_pct"]
    assert isinstance(pct, int) and 0 < pct <= 100 * min(gaps) < pct + 1
    assert summary["gap_last_lo"] == pytest.approx(min(gaps), rel=1e-9)
    for key in ("ratio_lo", "ratio_hi", "cos_last_lo", "cos_last_hi"):
        assert clear_of_rounding_edge(summary[key], 3), key


@pytest.mark.parametrize("gamma", [0.05, 0.15, 0.25])
@pytest.mark.parametrize("n", [20, 100, 500])
def test_survey_mistakes_below_each_data_sets_bound(gamma, n):
    for family in ("planted", "shell"):
        mistakes, bounds = cf.survey(gamma, n, family)
        assert len(mistakes) == cf.SURVEY_TRIALS
        assert np.all(mistakes <= bounds)
        # gamma* >= gamma, so each data set's bound is at most the planted one.
        assert np.all(bounds <= novikoff_bound(1.0, gamma) + 1e-6)


def test_survey_summary_numbers_are_clear_of_rounding_edges():
    # The prose quotes the largest ratio (3 decimals) and the range of the median ratios of
    # each family over the figure's grid (2 decimals), and says planted data do better.
    grid = list(itertools.product(*cf.slider_values(cf.SURVEY_SLIDERS).values()))
    assert len(grid) == 9
    ratios = {fam: [np.divide(*cf.survey(g, n, fam)) for g, n in grid]
              for fam in ("planted", "shell")}
    worst = max(float(np.max(r)) for rs in ratios.values() for r in rs)
    assert worst <= 1 and clear_of_rounding_edge(worst, 3)
    medians = {fam: [float(np.median(r)) for r in rs] for fam, rs in ratios.items()}
    for values in medians.values():
        assert clear_of_rounding_edge(min(values), 2)
        assert clear_of_rounding_edge(max(values), 2)
    assert max(medians["planted"]) < min(medians["shell"])
    # The prose: at each setting the shell median is the higher; the largest ratio of a single
    # planted data set (3 decimals) is well below 1.
    summary = cf.survey_summary()
    assert summary["settings"] == len(grid) and summary["runs"] == 2 * len(grid) * cf.SURVEY_TRIALS
    assert all(s > p for s, p in zip(medians["shell"], medians["planted"]))
    assert summary["shell_higher"] == summary["settings"]
    planted_max = max(float(np.max(r)) for r in ratios["planted"])
    assert summary["planted_max"] == planted_max < 0.5 and clear_of_rounding_edge(planted_max, 3)
    assert summary["worst"] == worst
    for fam in ("planted", "shell"):
        assert summary[f"{fam}_lo"] == min(medians[fam])
        assert summary[f"{fam}_hi"] == max(medians[fam])


def test_survey_entry_matches_a_direct_run():
    mistakes, bounds = cf.survey(0.15, 100, "planted")
    X, y, _ = planted(100, cf.SURVEY_D, 0.15, seed=4)
    assert mistakes[4] == len(reference_perceptron(X, y).weights)
    assert np.isclose(bounds[4], novikoff_bound(radius(X), max_margin(X, y).gamma))


def test_wedge_table_numbers():
    t = cf.wedge_table()
    assert list(t["ell"]) == list(range(cf.WEDGE_ELL_MAX + 1))
    # Mistakes double with every bit: exactly 2^(l+2) + 1 on this family, in exact arithmetic.
    assert list(t["mistakes"]) == [2 ** (ell + 2) + 1 for ell in t["ell"]]
    for k in (0, 3, 6):
        X, y = narrow_wedge(k)
        assert len(reference_perceptron(X, y, exact=True).weights) == 2 ** (k + 2) + 1
    assert np.all(t["mistakes"] <= t["bound"])
    assert np.all(t["epochs"] <= t["rounds"])
    assert np.all(t["rounds"] == [max_rounds(r, g) for r, g in zip(t["R"], t["gamma"])])
    # The margin halves with every bit, so the bound grows about 4x per step.
    assert np.allclose(t["gamma"][2:] / t["gamma"][1:-1], 0.5, atol=0.03)
    assert np.allclose(t["bound"][-1] / t["bound"][-2], 4.0, atol=0.01)
    for i, w in enumerate(t["w_final"]):
        X, y = narrow_wedge(int(t["ell"][i]))
        assert np.all(y * (X @ w) > 0)
    title = cf.draw_wedge(10).axes[1].get_title()
    assert f"{t['mistakes'][-1]} mistakes" in title and f"{t['bound'][-1]:.0f}" in title
    # The prose shows these with two decimals and the bound with none.
    assert clear_of_rounding_edge(t["mistakes"][-1] / t["mistakes"][-2], 2)
    assert clear_of_rounding_edge(t["bound"][-1] / t["bound"][-2], 2)
    assert clear_of_rounding_edge(t["bound"][-1], 0)
    assert clear_of_rounding_edge(t["gamma"][-1] * 1e4, 2)  # shown as 3.45e-04


@pytest.mark.parametrize("n", range(1, 13))
def test_fibonacci_separator_has_functional_margin_one_exactly(n):
    X, y = hypercube_small_margin(n)
    assert set(np.unique(X)) <= {0.0, 1.0}
    w = [Fraction((-1) ** k * _fib(k + 1)) for k in range(1, n + 1)]
    fm = [int(label) * sum(Fraction(float(v)) * c for v, c in zip(row, w))
          for row, label in zip(X, y)]
    assert fm == [1] * n
    assert sum(c * c for c in w) == _fib(n + 1) * _fib(n + 2) - 1
    assert radius(X) ** 2 == pytest.approx(1 + n // 2)
    # Point k has 1 + floor(k/2) ones (the proof's count), the most at k = n.
    assert list(X.sum(axis=1)) == [1 + k // 2 for k in range(1, n + 1)]


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_hypercube_margin_against_an_independent_solver(n):
    X, y = hypercube_small_margin(n)
    w = _min_norm_separator(X, y)
    gamma = 1 / np.linalg.norm(w)  # UML: gamma* = 1 / B
    assert gamma <= 1 / _fib(n + 1) + 1e-9
    assert gamma >= 1 / math.sqrt(_fib(n + 1) * _fib(n + 2) - 1) - 1e-9
    assert gamma <= ((1 + 5**0.5) / 2) ** -(n - 1) + 1e-12
    t = cf.hypercube_table()
    assert t["gamma"][n - 1] == pytest.approx(gamma, rel=1e-6)


def _solve_fractions(A, b):
    """Solve the square system A x = b exactly (Gauss-Jordan on fractions); None if singular."""
    n = len(A)
    M = [list(row) + [rhs] for row, rhs in zip(A, b)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if M[r][col] != 0), None)
        if pivot is None:
            return None
        M[col], M[pivot] = M[pivot], M[col]
        for r in range(n):
            if r != col and M[r][col] != 0:
                f = M[r][col] / M[col][col]
                M[r] = [a - f * c for a, c in zip(M[r], M[col])]
    return [M[r][n] / M[r][r] for r in range(n)]


def _exact_min_norm_sq(X, y):
    """min |v|^2 subject to y_i v.x_i >= 1, in exact rationals, by trying every active set.

    For a set S of constraints taken as equalities, the shortest v with y_i v.x_i = 1 on S is
    v = sum_{i in S} lam_i y_i x_i with (G lam = 1), G the Gram matrix of the y_i x_i on S. When
    that v is feasible and lam >= 0 it satisfies the KKT conditions of this convex problem, so
    it is optimal. Independent of the package and of the chapter's Fibonacci argument; 2^n sets,
    so small n only.
    """
    A = [[Fraction(int(label)) * Fraction(float(v)) for v in row] for row, label in zip(X, y)]
    n, d = len(A), len(A[0])
    dot = lambda a, b: sum(p * q for p, q in zip(a, b))
    best = None
    for size in range(1, n + 1):
        for S in itertools.combinations(range(n), size):
            lam = _solve_fractions([[dot(A[i], A[j]) for j in S] for i in S], [Fraction(1)] * size)
            if lam is None or min(lam) < 0:
                continue
            v = [sum(l * A[i][j] for l, i in zip(lam, S)) for j in range(d)]
            if all(dot(a, v) >= 1 for a in A):
                value = dot(v, v)
                assert best is None or best == value  # the optimum of a convex QP is unique
                best = value
    return best


@pytest.mark.parametrize("n", range(1, 8))
def test_hypercube_closed_form_of_gamma_star_in_exact_arithmetic(n):
    # The proposition: gamma* = 1 / sqrt(F_{n+1} F_{n+2} - 1), i.e. B^2 = 1/gamma*^2 is that
    # integer. Checked against an exact active-set solution of UML's B^2 = min |v|^2.
    X, y = hypercube_small_margin(n)
    B_sq = _exact_min_norm_sq(X, y)
    assert B_sq == _fib(n + 1) * _fib(n + 2) - 1
    # The table of the chapter shows the formula next to the margin max_margin certifies.
    t = cf.hypercube_table()
    assert t["fib_norm_sq"][n - 1] == B_sq
    assert t["gamma_exact"][n - 1] == pytest.approx(1 / math.sqrt(B_sq), rel=1e-14)
    assert t["gamma"][n - 1] == pytest.approx(1 / math.sqrt(B_sq), rel=1e-9)
    # The simpler bounds that follow from it.
    assert Fraction(1, B_sq) <= Fraction(1, _fib(n + 1) ** 2)
    assert 1 / math.sqrt(B_sq) <= ((1 + 5**0.5) / 2) ** -(n - 1) * (1 + 1e-12)


def _hypercube_exact(n):
    """The family in plain integers, built here from its definition: point i (1-based) has a 1
    in coordinate i and in coordinates i-1, i-3, ...; label (-1)^i. Rows are y_i x_i."""
    rows = []
    for i in range(1, n + 1):
        x = [1 if (j == i or (j < i and (i - j) % 2 == 1)) else 0 for j in range(1, n + 1)]
        rows.append([(-1) ** i * c for c in x])
    return rows


def _mu(n):
    """The proof's weights: mu_n = F_{n+1}, mu_i = F_{i+1} + mu_{i+1} + mu_{i+3} + ..."""
    mu = {}
    for i in range(n, 0, -1):
        mu[i] = _fib(i + 1) + sum(mu[j] for j in range(i + 1, n + 1, 2))
    return [mu[i] for i in range(1, n + 1)]


def _hypercube_run(rows, order, rng):
    """A plain perceptron (integers, ties are mistakes) on the rows y_i x_i, presented in the
    given kind of order until no point is misclassified. Checks the proof's invariant
    a_i <= F_{i+1} and the bound k <= F_{n+1} F_{n+2} - 1 after every update, and returns
    the final weights and the number of updates on each point."""
    n = len(rows)
    w, counts = [0] * n, [0] * n
    top = _fib(n + 1) * _fib(n + 2) - 1

    def mistake(i):
        return sum(a * b for a, b in zip(w, rows[i])) <= 0

    def update(i):
        nonlocal w
        w = [a + b for a, b in zip(w, rows[i])]
        counts[i] += 1
        assert all((-1) ** (j + 1) * w[j] <= _fib(j + 2) for j in range(n))  # a_j <= F_{j+1}
        assert sum(counts) <= top

    if order == "sweeps":  # a new random order in every sweep, until a clean sweep
        while True:
            perm = list(range(n))
            rng.shuffle(perm)
            clean = True
            for i in perm:
                if mistake(i):
                    update(i)
                    clean = False
            if clean:
                return w, counts
    while True:  # a stream: one point at a time
        wrong = [i for i in range(n) if mistake(i)]
        if not wrong:
            return w, counts
        if order == "stream":  # a random point, misclassified or not
            i = rng.randrange(n)
            if mistake(i):
                update(i)
        elif order == "lowest":  # always the first misclassified point
            update(wrong[0])
        elif order == "highest":  # always the last one
            update(wrong[-1])
        else:  # a random misclassified point
            update(rng.choice(wrong))


@pytest.mark.parametrize("n", range(1, 9))
def test_hypercube_exact_count_in_any_order(n):
    # Proposition conv-prop-hypercube: in any order of presentation, once no point is
    # misclassified the perceptron (ties are mistakes) holds the Fibonacci separator, has
    # updated exactly mu_i times on point i and made F_{n+1} F_{n+2} - 1 mistakes in all;
    # before that, a_i <= F_{i+1} and the count never exceeds F_{n+1} F_{n+2} - 1. Exact
    # integer arithmetic, a plain loop, many random orders.
    rows = _hypercube_exact(n)
    X, y = hypercube_small_margin(n)
    assert [[int(v) for v in row] for row in y[:, None] * X] == rows
    mu = _mu(n)
    assert cf.hypercube_mu(n) == mu
    assert sum(mu) == _fib(n + 1) * _fib(n + 2) - 1
    v_bar = [(-1) ** j * _fib(j + 1) for j in range(1, n + 1)]
    rng = random.Random(n)
    for order in ("sweeps", "stream", "misclassified", "lowest", "highest"):
        # 20 random orders of each kind (8 at n = 8, whose runs are the longest: 1869 updates)
        for _ in range((20 if n < 8 else 8) if order in ("sweeps", "stream", "misclassified") else 1):
            w, counts = _hypercube_run(rows, order, rng)
            assert w == v_bar, order
            assert counts == mu, order
            assert sum(counts) == _fib(n + 1) * _fib(n + 2) - 1
    # The package's cyclic run, order 1..n, too: the chapter's table.
    t = cf.hypercube_table()
    assert t["mistakes"][n - 1] == sum(mu) and t["per_point"][n - 1] and t["final_fib"][n - 1]
    res = perceptron(X, y, record=True, max_epochs=10**6)
    assert list(np.bincount(res.history.indices, minlength=n)) == mu


def test_hypercube_table_numbers():
    t = cf.hypercube_table()
    n = t["n"]
    assert list(n) == list(range(1, cf.HYPERCUBE_N_MAX + 1))
    assert list(t["fib"]) == [_fib(k + 1) for k in n]
    assert list(t["fib_norm_sq"]) == [_fib(k + 1) * _fib(k + 2) - 1 for k in n]
    assert np.all(t["gamma"] <= t["gamma_upper"] * (1 + 1e-9))
    assert np.allclose(t["gamma"], 1 / np.sqrt(t["fib_norm_sq"]), rtol=1e-9)
    # The prose quotes the largest relative gap between the two, with one digit.
    err = float(np.max(np.abs(t["gamma"] / t["gamma_exact"] - 1)))
    assert 0 < err < 1e-9 and clear_of_rounding_edge(err / 10 ** math.floor(math.log10(err)), 0)
    assert np.allclose(t["R"] ** 2, 1 + n // 2)
    # The proposition: the count is F(n+1) F(n+2) - 1 = 1/gamma*^2 on every row, mu_i on each
    # point, ending at the Fibonacci separator; so mistakes / bound = 1/R^2 = 1/(1 + n//2).
    assert np.all(t["mistakes"] <= t["bound"])
    assert np.array_equal(t["mistakes"], t["fib_norm_sq"])
    assert np.all(t["per_point"]) and np.all(t["final_fib"])
    assert t["per_point"].dtype == bool and t["final_fib"].dtype == bool
    share = t["mistakes"] / t["bound"]
    assert np.allclose(share, 1 / (1 + n // 2), rtol=1e-9)
    assert np.all(share[1:] < 1)  # n >= 2: below the bound; n = 1 is one orthonormal point
    share_err = float(np.max(np.abs(t["mistakes"] * t["R"] ** 2 / t["bound"] - 1)))
    assert 0 < share_err < 1e-8
    assert clear_of_rounding_edge(share_err / 10 ** math.floor(math.log10(share_err)), 0)
    assert clear_of_rounding_edge(share[-1], 4)
    for k in (4, 7, 9):
        X, y = hypercube_small_margin(k)
        assert len(reference_perceptron(X, y, exact=True).weights) == t["mistakes"][k - 1]
    # The prose's ratios, with three decimals.
    for v in (t["gamma"][-1] / t["gamma"][-2], t["mistakes"][-1] / t["mistakes"][-2],
              ((1 + 5**0.5) / 2) ** 2):
        assert clear_of_rounding_edge(v, 3)
    assert clear_of_rounding_edge(t["bound"][-1], 0)
    assert clear_of_rounding_edge(t["gamma"][-1] * 1e3, 2)  # shown as 3.37e-03


def test_three_forms_are_equal_and_B_is_minimal():
    X, y, _ = planted(30, 2, 0.1, seed=3)
    f = cf.three_forms(X, y, scale=3.0)
    assert np.isclose(f["novikoff"], f["uml"]) and np.isclose(f["uml"], f["unnormalized"])
    assert np.isclose(f["B"], 1 / f["gamma"]) and np.isclose(f["norm_wB"], f["B"])
    # UML's B is the shortest w with y w.x >= 1: check against an independent QP.
    assert f["B"] == pytest.approx(np.linalg.norm(_min_norm_separator(X, y)), rel=1e-6)
    assert np.isclose(f["min_fm_wB"], 1.0) and np.isclose(f["rho"], 3.0)
    # The third form, computed here from its definition: v = 3 w_B, rho its functional margin.
    v = 3.0 * f["B"] * max_margin(X, y).w / np.linalg.norm(max_margin(X, y).w)
    rho = float(np.min(y * (X @ v)))
    assert f["norm_v"] == pytest.approx(np.linalg.norm(v), rel=1e-9)
    assert f["unnormalized"] == pytest.approx(f["R"] ** 2 * (v @ v) / rho**2, rel=1e-9)
    assert f["gamma"] >= 0.1 and f["novikoff"] <= novikoff_bound(f["R"], 0.1)
    assert len(reference_perceptron(X, y, exact=True).weights) == perceptron(X, y).mistakes
    assert perceptron(X, y).mistakes <= f["novikoff"]
    # Shown with four decimals in the prose; rho is 3 only up to the solver's accuracy.
    for key in ("R", "gamma", "B", "norm_wB", "min_fm_wB", "rho", "novikoff", "uml",
                "unnormalized", "norm_v"):
        assert clear_of_rounding_edge(f[key], 4), key
    assert clear_of_rounding_edge(novikoff_bound(f["R"], 0.1), 2)


def test_demo_run_touches_both_bounds_at_the_first_mistake():
    X, y, u = cf.shell_data(200, 10, 0.1, seed=0)
    ref = reference_perceptron(X, y, closest=True)
    weights, epochs, closest = ref.weights, ref.epochs, ref.closest
    # No test of the run came near a tie, so the count cannot depend on rounding.
    assert closest > 1e-6
    res = perceptron(X, y, u=u)
    assert res.mistakes == len(weights) and res.epochs == epochs
    k = np.arange(1, res.mistakes + 1)
    prog, grow = res.history.progress / (k * 0.1), res.history.norms_sq / k
    assert np.isclose(prog[0], 1.0) and np.isclose(grow[0], 1.0)
    assert prog.min() >= 1 - 1e-12 and grow.max() <= 1 + 1e-12
    assert prog[-1] > 1 and grow[-1] < 1
    # The cosine falls at some mistakes of this run (the prose counts them).
    W = np.array(weights)
    cosine = (W @ u) / np.linalg.norm(W, axis=1)
    falls = int(np.sum(np.diff(cosine) < 0))
    assert falls >= 1 and cf.cosine_falls(res) == falls
    assert np.min(np.abs(np.diff(cosine))) > 1e-9  # no fall decided by a rounding
    shown = [(prog.min(), 4), (grow.max(), 4), (prog[-1], 3), (grow[-1], 3), (cosine[-1], 3)]
    assert all(clear_of_rounding_edge(v, dec) for v, dec in shown)
    # The prose: after the first mistake (a tie at w = 0) every mistake is at a point with
    # y w.x < 0, some only just; the closest to 0 is shown with three decimals. Recomputed
    # here along the reference run: w_{k-1} . (y_i x_i) = w_{k-1} . (w_k - w_{k-1}).
    before = np.vstack([np.zeros(X.shape[1]), W[:-1]])
    products = np.sum(before * (W - before), axis=1)
    assert products[0] == 0 and np.all(products[1:] < 0)
    assert np.allclose(cf.mistake_products(X, y, res), products, atol=1e-12)
    top = float(products[1:].max())
    assert -0.05 < top < 0 and clear_of_rounding_edge(top, 3)


@settings(max_examples=examples(50))
@given(st.integers(1, 25), st.integers(0, 10**6))
def test_tie_rules_on_orthonormal_points(n, seed):
    X, y = orthonormal_worst_case(n, seed=seed)
    negatives, positives = int(np.sum(y < 0)), int(np.sum(y > 0))
    expected = {"mistake": n, "positive": negatives, "negative": positives}
    for tie, count in expected.items():
        assert len(reference_perceptron(X, y, tie=tie, exact=True).weights) == count
        assert perceptron(X, y, tie=tie).mistakes == count
    # Exactly n = (R/gamma*)^2 only when a tie counts as a mistake.
    assert novikoff_bound(radius(X), max_margin(X, y).gamma) == pytest.approx(n)


def test_tie_rule_changes_the_run_but_not_the_bound():
    X, y = orthonormal_worst_case(10)
    assert perceptron(X, y, tie="mistake").mistakes == 10
    assert perceptron(X, y, tie="positive").mistakes == int(np.sum(y < 0)) < 10
    # Balcan's rule (predict -1 at a tie) pays for the positive points instead.
    assert perceptron(X, y, tie="negative").mistakes == int(np.sum(y > 0)) < 10


def test_strict_rule_stops_at_once_without_separating():
    # At w = 0 every product y w.x is 0, never < 0: a strict rule makes no update (within
    # any bound) and stops at w = 0, which classifies no point correctly.
    X, y = orthonormal_worst_case(10)
    w = np.zeros(10)
    assert not np.any(y * (X @ w) < 0)
    assert np.all(y * (X @ w) <= 0)


def _fixed_passes(rows, T):
    """The MIT notes' loop: exactly T passes in order, updating when y w.x <= 0 (rows are
    y_i x_i, integers). Returns the final w and, per pass, whether it made a mistake."""
    w = [0] * len(rows[0])
    dirty = []
    for _ in range(T):
        made = False
        for z in rows:
            if sum(a * b for a, b in zip(w, z)) <= 0:
                w = [a + b for a, b in zip(w, z)]
                made = True
        dirty.append(made)
    return w, dirty


@pytest.mark.parametrize("seed", range(12))
def test_a_fixed_number_of_passes_past_the_bound_returns_a_separator(seed):
    # The prose: at most floor((R/gamma)^2) passes contain a mistake and a clean pass changes
    # nothing, so T = floor((R/gamma)^2) + 1 fixed passes return a separator; the sweeping
    # perceptron stops within that many sweeps. gamma is the exact margin of a separator u.
    rng = np.random.default_rng(seed)
    d = 2 + seed % 3
    w_true = rng.integers(1, 5, size=d) * rng.choice([-1, 1], size=d)
    X = rng.integers(-6, 7, size=(40, d)).astype(float)
    X = X[X @ w_true != 0][:12]
    y = np.sign(X @ w_true)
    rows = [[int(label) * int(v) for v in row] for row, label in zip(X, y)]  # exact integers
    mm = max_margin(X, y)
    u = [Fraction(float(v)) for v in mm.w]  # any separator will do; this one has a good margin
    fm = min(sum(a * b for a, b in zip(u, z)) for z in rows)
    assert fm > 0
    bound = max(sum(v * v for v in z) for z in rows) * sum(a * a for a in u) / fm**2
    T = math.floor(bound) + 1
    w, dirty = _fixed_passes(rows, T)
    assert all(sum(a * b for a, b in zip(w, z)) > 0 for z in rows)
    assert sum(dirty) <= math.floor(bound) and dirty == sorted(dirty, reverse=True)
    assert reference_perceptron(X, y, exact=True).epochs <= T


@pytest.mark.parametrize("n", range(1, 6))
def test_orthonormal_bound_is_met_only_with_one_label_under_the_other_tie_rules(n):
    # The prose: under the CS229 rule (tie="positive") the run makes one mistake per negative
    # point, under Balcan's (tie="negative") one per positive point, so the bound n is met only
    # when every label is -1, respectively +1. Every labelling, exact reference runs.
    for labels in itertools.product([-1.0, 1.0], repeat=n):
        y = np.array(labels)
        X = np.diag(y)
        for tie, all_of in (("positive", -1.0), ("negative", 1.0)):
            m = len(reference_perceptron(X, y, tie=tie, exact=True).weights)
            assert m == int(np.sum(y == all_of))
            assert (m == n) == bool(np.all(y == all_of))
            assert perceptron(X, y, tie=tie).mistakes == m
        assert len(reference_perceptron(X, y, exact=True).weights) == n  # ties are mistakes: always n


def test_only_the_orthonormal_points_reach_the_bound():
    # The prose: "Some data do reach it: the orthonormal points". The wedge and the hypercube
    # (beyond its single point at n = 1, itself an orthonormal set) stay below their bounds.
    for n in (2, 7, 15):
        res, g, r = cf.worst_case_run(n)
        assert res.mistakes == n == round(novikoff_bound(r, g))
    t = cf.wedge_table()
    assert np.all(t["mistakes"] < 0.6 * t["bound"])
    h = cf.hypercube_table()
    assert np.all(h["mistakes"][1:] < h["bound"][1:]) and h["mistakes"][0] == 1
    assert cf.survey_summary()["worst"] < 1


def test_independence_table_stays_under_the_bound():
    rows = cf.independence_table(0.1, ((100, 10), (1000, 10), (200, 100)), seeds=3)
    assert all(m <= novikoff_bound(1.0, 0.1) for _, _, m in rows)
    X, y, _ = cf.shell_data(100, 10, 0.1, seed=1)
    assert len(reference_perceptron(X, y).weights) <= rows[0][2]


def test_offset_counterexample():
    ce = cf.offset_counterexample()
    # Reference run with an offset, in exact arithmetic.
    X, y = np.array([[11.0], [9.0]]), np.array([1.0, -1.0])
    assert len(reference_perceptron(X, y, offset=True, exact=True).weights) == ce["mistakes"] == 202
    # The largest margin with an offset is half the gap, 1, at the threshold 10.
    assert ce["R"] == 11 and ce["gamma_b"] == pytest.approx(1.0, abs=1e-9)
    assert ce["b"] == pytest.approx(-10.0, abs=1e-6) and ce["u"] == 1.0
    assert (ce["x_pos"], ce["x_neg"]) == (11.0, 9.0)
    assert ce["threshold"] == pytest.approx(10.0, abs=1e-6)  # (11 + 9) / 2
    assert clear_of_rounding_edge(ce["threshold"], 0) and clear_of_rounding_edge(ce["b"], 0)
    assert ce["naive"] == pytest.approx(121.0) and ce["mistakes"] > ce["naive"]
    assert ce["correct"] == pytest.approx((121 + 1) * (1 + 100)) and ce["mistakes"] <= 12322
    for key in ("R", "gamma_b", "naive", "correct"):
        assert clear_of_rounding_edge(ce[key], 0)


def test_offset_exercise_claims():
    X, y = iris_pair("setosa", "versicolor", features=(2, 3))
    X_mm = np.round(10 * X)
    assert np.allclose(X_mm, 10 * X, atol=1e-9)  # whole millimetres
    counts, bounds = {}, {}
    for c in (20, 10, 5, 2, 1):
        Z = augment(X_mm, c)
        counts[c] = perceptron(Z, y, max_epochs=10**6).mistakes
        bounds[c] = novikoff_bound(radius(Z), max_margin(Z, y).gamma)
        assert counts[c] <= bounds[c]
        assert clear_of_rounding_edge(bounds[c], 0)
    # Integer data and integer constants: the reference run is exact and agrees.
    for c in (10, 2):
        assert len(reference_perceptron(augment(X_mm, c), y, exact=True).weights) == counts[c]
    assert perceptron(X_mm, y, offset=True).mistakes == counts[1]
    # The prose: the bound grows as c shrinks, the run grows too but not steadily; R changes
    # little; the large constants gave the short runs.
    assert bounds[20] < bounds[10] < bounds[5] < bounds[2] < bounds[1]
    assert counts[10] < counts[20] and counts[1] > 100 * counts[20]
    assert max(counts[20], counts[10]) < min(counts[5], counts[2], counts[1])
    r20, r1 = radius(augment(X_mm, 20)), radius(augment(X_mm, 1))
    assert 1 < r20 / r1 < 1.1
    assert clear_of_rounding_edge(r20, 1) and clear_of_rounding_edge(r1, 1)
