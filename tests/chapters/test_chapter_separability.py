"""The claims of the chapter "Linear separability" (book/separability.ipynb): every concrete statement
the page makes about its data (gates, Iris, clouds), checked in exact arithmetic or by search.

Gordan's alternative itself (never both, always one) is property-tested in tests/core/test_theorems.py."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest

from perceptron_core import (
    Separability,
    augment,
    dataset_margin,
    iris_pair,
    logic_gate,
    max_margin,
    min_norm_point,
    perceptron,
    radius,
    separability,
)
from perceptron_core.figures import separability as figs

from conftest import is_hidden, markdown_text, notebook_cells


def test_gates_table():
    # "none through the origin; AND, OR, NAND, NOR with an offset; augmenting = offset"
    for gate in figs.GATES:
        X, y = logic_gate(gate)
        assert not separability(X, y).separable
        with_offset = separability(X, y, offset=True).separable
        assert with_offset == (gate != "xor")
        assert separability(augment(X), y).separable == with_offset


def test_origin_point_defeats_every_hyperplane_through_origin():
    # "(0,0) lies on every hyperplane through the origin": a certificate on that point alone.
    for gate in figs.GATES:
        X, y = logic_gate(gate)
        lam = np.array([1.0, 0, 0, 0])
        assert Separability(False, None, None, lam, False).verify(X, y)


def _exact_combination(X, y, lam) -> list[Fraction]:
    """Σ λᵢ yᵢ xᵢ in exact rational arithmetic (independent of the package)."""
    return [sum(Fraction(l) * int(yi) * Fraction(float(x[k])) for l, yi, x in zip(lam, y, X))
            for k in range(X.shape[1])]


def test_and_certificates_are_the_segment_one_minus_3t_t_t_t():
    # prose: every certificate for AND through the origin is (1 - 3t, t, t, t), 0 <= t <= 1/3;
    # both ends are certificates (checked exactly), and the package returns one of them.
    X, y = logic_gate("and")
    np.testing.assert_array_equal(X, [[0, 0], [0, 1], [1, 0], [1, 1]])
    for t in (Fraction(0), Fraction(1, 5), Fraction(1, 3)):
        lam = [1 - 3 * t, t, t, t]
        assert sum(lam) == 1 and min(lam) >= 0
        assert _exact_combination(X, y, lam) == [0, 0]
    # a weight vector off the segment is not a certificate
    assert _exact_combination(X, y, [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4), 0]) != [0, 0]
    s = separability(X, y)
    assert s.separable is False and s.verify(X, y)
    lam = np.asarray(s.certificate, dtype=float)
    t = lam[3]
    np.testing.assert_allclose(lam, [1 - 3 * t, t, t, t], atol=1e-9)
    assert -1e-12 <= t <= 1 / 3 + 1e-12
    # and AND without the input (0, 0) is still not separable through the origin
    assert separability(X[1:], y[1:]).separable is False


def test_and_line_x1_plus_x2_three_halves():
    X, y = logic_gate("and")
    assert np.all(y * (X @ np.array([1.0, 1.0]) - 1.5) > 0)


def test_xor_quarter_certificate_and_lifted_xor():
    X, y = logic_gate("xor")
    assert Separability(False, None, None, np.full(4, 0.25), True).verify(X, y)
    X3 = np.column_stack([X, X[:, 0] * X[:, 1]])
    s = separability(X3, y, offset=True)
    assert s.separable and s.verify(X3, y)


def test_iris_setosa_versicolor_petal_witness():
    X, y = iris_pair("setosa", "versicolor", features=(2, 3))
    s = separability(X, y, offset=True)
    assert s.separable is True and s.verify(X, y)
    # prose: "setosa exactly when w1·length + w2·width + b > 0": checked in exact arithmetic
    w = [Fraction(float(v)) for v in s.w]
    b = Fraction(float(s.b))
    for x, yi in zip(X, y):
        value = w[0] * Fraction(float(x[0])) + w[1] * Fraction(float(x[1])) + b
        assert (value > 0) == (yi > 0) and value != 0


def test_iris_versicolor_virginica_certificate():
    X, y = iris_pair("versicolor", "virginica", features=(2, 3))
    s = separability(X, y, offset=True)
    assert not s.separable and s.verify(X, y)
    assert not separability(*iris_pair("versicolor", "virginica"), offset=True).separable
    lam = s.certificate
    assert lam @ y == pytest.approx(0, abs=1e-9)
    np.testing.assert_allclose(lam @ (y[:, None] * X), 0, atol=1e-9)


def test_iris_setosa_versicolor_petal_not_separable_through_origin():
    # exercise sep-ex-origin: the certificate uses flowers of both species (counts are glued),
    # and a = Σ₊ λᵢxᵢ = Σ₋ λᵢxᵢ is a non-zero point (all measurements are positive)
    X, y = iris_pair("setosa", "versicolor", features=(2, 3))
    assert np.all(X > 0)
    s = separability(X, y)
    assert s.separable is False and s.verify(X, y)
    used = figs.support(s)
    assert np.any(y[used] > 0) and np.any(y[used] < 0)
    a = figs.common_point(X, y, s)
    b = s.certificate[y < 0] @ X[y < 0]
    np.testing.assert_allclose(a, b, atol=1e-9)
    assert np.all(a > 0)


def test_iris_duplicate_flower_two_point_certificate():
    # exercise sep-ex-duplicate: a flower with both labels exists in the petal data
    X, y = iris_pair("versicolor", "virginica", features=(2, 3))
    pairs = [(i, j) for i in np.flatnonzero(y > 0) for j in np.flatnonzero(y < 0)
             if np.array_equal(X[i], X[j])]
    assert pairs
    lam = np.zeros(len(y))
    lam[list(pairs[0])] = 0.5
    assert Separability(False, None, None, lam, True).verify(X, y)


def test_nearest_point_witness_setosa_versicolor():
    # Gordan's proof: p = nearest point of conv{z_i} has z_i·p >= |p|^2, and |p| = γ*.
    X, y = iris_pair("setosa", "versicolor")
    Z = y[:, None] * X
    p, _ = min_norm_point(Z)
    assert np.min(Z @ p) >= (p @ p) * (1 - 1e-9)
    assert np.linalg.norm(p) == pytest.approx(max_margin(X, y).gamma, rel=1e-9)


def test_clouds_claims():
    grid = figs.cloud_grid()
    clean = [figs.cloud_verdict(d, 0.0).separable for d in grid]
    first = grid[clean.index(True)]
    # "separable from the largest distance down to `first`, not one step below"
    assert all(clean[grid.index(first):]) and not any(clean[: grid.index(first)])
    assert first > grid[0]
    # "the maximum margin shrinks on the way"
    gammas = [figs.cloud_max_margin(d, 0.0) for d in grid[grid.index(first):]]
    assert all(a < b for a, b in zip(gammas, gammas[1:]))
    # "with one flipped label inseparable at every distance, and so with more"
    low, high = figs.NOISE_RATES[1:]
    assert len(figs.cloud_data(0.0, low)[2]) == 1
    assert len(figs.cloud_data(0.0, high)[2]) > 1
    for noise in (low, high):
        assert not any(figs.cloud_verdict(d, noise).separable for d in grid)
    # the same points are flipped at every distance
    for noise in figs.NOISE_RATES:
        flips = {tuple(figs.cloud_data(d, noise)[2]) for d in grid}
        assert len(flips) == 1


def test_certificate_blames_a_flipped_label_where_clean_data_separate():
    # prose: "where the clean clouds are separable, every certificate uses a flipped point"
    grid = figs.cloud_grid()
    for d in grid:
        if not figs.cloud_verdict(d, 0.0).separable:
            continue
        for noise in figs.NOISE_RATES[1:]:
            _, _, flipped = figs.cloud_data(d, noise)
            assert set(flipped) & set(figs.support(figs.cloud_verdict(d, noise)))


def test_certificate_need_not_use_flipped_points_when_clouds_overlap():
    # prose: "where the clean clouds already overlap, a certificate need not use any flipped
    # point: the unflipped points are inseparable by themselves, and their certificate (weight 0
    # on the flipped points) is a certificate for the noisy data too"
    d = figs.cloud_grid()[0]
    for noise in figs.NOISE_RATES[1:]:
        X, y, flipped = figs.cloud_data(d, noise)
        keep = np.setdiff1d(np.arange(len(y)), flipped)
        own = separability(X[keep], y[keep], offset=True)
        assert own.separable is False and own.verify(X[keep], y[keep])
        lam = np.zeros(len(y))
        lam[keep] = own.certificate
        padded = dataclasses.replace(own, certificate=lam)
        if hasattr(own, "certificate_exact") and own.certificate_exact is not None:
            exact = [Fraction(0)] * len(y)
            for i, v in zip(keep, own.certificate_exact):
                exact[i] = Fraction(v)
            padded = dataclasses.replace(padded, certificate_exact=exact)
        assert padded.verify(X, y)
        assert not set(flipped) & set(figs.support(padded))


def test_perceptron_on_the_clouds_stays_far_below_its_bound():
    # prose: measured mistakes of the perceptron with an offset, far below the lifted bound
    grid = figs.cloud_grid()
    rng = np.random.default_rng(0)
    for d in grid:
        m, bound = figs.cloud_mistakes(d, 0.0), figs.cloud_lifted_bound(d, 0.0)
        if figs.cloud_verdict(d, 0.0).separable is not True:
            assert m is None and bound is None
            continue
        X, y, _ = figs.cloud_data(d, 0.0)
        assert m == perceptron(X, y, offset=True, max_epochs=100_000).mistakes
        opt = max_margin(X, y, offset=True)
        assert bound == pytest.approx((radius(X) ** 2 + 1) * (1 + opt.b**2) / opt.gamma**2)
        assert 10 * m < bound
        # the glued count does not hinge on the last bit of a dot product
        for _ in range(5):
            noisy = X + 1e-10 * rng.standard_normal(X.shape)
            assert perceptron(noisy, y, offset=True, max_epochs=100_000).mistakes == m


def test_versicolor_virginica_certificate_checks_exactly_when_exact():
    X, y = iris_pair("versicolor", "virginica", features=(2, 3))
    s = separability(X, y, offset=True)
    exact = figs.exact_weights(s)
    if exact is None:
        lam = np.asarray(s.certificate, dtype=float)
        assert lam.sum() == pytest.approx(1.0) and lam @ y == pytest.approx(0, abs=1e-9)
        return
    assert min(exact) >= 0 and sum(exact) == 1
    assert sum(l * int(yi) for l, yi in zip(exact, y)) == 0
    assert _exact_combination(X, y, exact) == [0, 0]


@pytest.mark.parametrize("seed", range(20))
def test_moving_the_hyperplane_away_from_its_points_separates_them(seed):
    """Prose: under the CS229 rule (a positive point may lie on the hyperplane) raising b by less
    than the smallest |score| of a negative point separates strictly; lowering it does not."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(12, 2)).astype(float)
    w, b = np.array([1.0, -2.0]), 1.0
    score = X @ w + b
    y = np.where(score >= 0, 1.0, -1.0)  # correct for CS229: a score of 0 predicts +1
    if not np.any(score == 0) or not np.any(y < 0):
        X[0] = [1.0, 1.0]  # put a positive point on the hyperplane: 1 - 2 + 1 = 0
        score, y = X @ w + b, np.where(X @ w + b >= 0, 1.0, -1.0)
    assert np.any(score == 0)
    delta = Fraction(1, 2) * min(Fraction(-s) for s in score[y < 0])
    exact = [int(yi) * (Fraction(float(s)) + delta) for yi, s in zip(y, score)]
    assert all(v > 0 for v in exact)  # away from the points on it: strictly separated
    lowered = [int(yi) * (Fraction(float(s)) - delta) for yi, s in zip(y, score)]
    assert not all(v > 0 for v in lowered)  # towards them: those points are now wrong


def _det3(a):
    """Determinants of a stack (N, 3, 3) of integer-valued float arrays, exactly (values < 2**53)."""
    return (a[:, 0, 0] * (a[:, 1, 1] * a[:, 2, 2] - a[:, 1, 2] * a[:, 2, 1])
            - a[:, 0, 1] * (a[:, 1, 0] * a[:, 2, 2] - a[:, 1, 2] * a[:, 2, 0])
            + a[:, 0, 2] * (a[:, 1, 0] * a[:, 2, 1] - a[:, 1, 1] * a[:, 2, 0]))


def _det4(M):
    """Determinants of a stack (N, 4, 4) of integer-valued float arrays, exactly (values < 2**53)."""
    a = M
    s0 = a[:, 0, 0] * a[:, 1, 1] - a[:, 1, 0] * a[:, 0, 1]
    s1 = a[:, 0, 0] * a[:, 1, 2] - a[:, 1, 0] * a[:, 0, 2]
    s2 = a[:, 0, 0] * a[:, 1, 3] - a[:, 1, 0] * a[:, 0, 3]
    s3 = a[:, 0, 1] * a[:, 1, 2] - a[:, 1, 1] * a[:, 0, 2]
    s4 = a[:, 0, 1] * a[:, 1, 3] - a[:, 1, 1] * a[:, 0, 3]
    s5 = a[:, 0, 2] * a[:, 1, 3] - a[:, 1, 2] * a[:, 0, 3]
    c5 = a[:, 2, 2] * a[:, 3, 3] - a[:, 3, 2] * a[:, 2, 3]
    c4 = a[:, 2, 1] * a[:, 3, 3] - a[:, 3, 1] * a[:, 2, 3]
    c3 = a[:, 2, 1] * a[:, 3, 2] - a[:, 3, 1] * a[:, 2, 2]
    c2 = a[:, 2, 0] * a[:, 3, 3] - a[:, 3, 0] * a[:, 2, 3]
    c1 = a[:, 2, 0] * a[:, 3, 2] - a[:, 3, 0] * a[:, 2, 2]
    c0 = a[:, 2, 0] * a[:, 3, 1] - a[:, 3, 0] * a[:, 2, 1]
    return s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0


def _fraction_certificate(vectors):
    """Exact: do non-negative weights, not all 0, combine these vectors to 0? Brute force over
    subsets: a smallest such combination has a one-dimensional space of combinations, spanned by
    a vector of one sign."""
    m = len(vectors)
    for size in range(1, m + 1):
        for sub in itertools.combinations(range(m), size):
            rows = [[Fraction(vectors[j][i]) for j in sub] for i in range(len(vectors[0]))]
            piv = []
            for c in range(size):
                r = len(piv)
                p = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
                if p is None:
                    continue
                rows[r], rows[p] = rows[p], rows[r]
                rows[r] = [v / rows[r][c] for v in rows[r]]
                for i in range(len(rows)):
                    if i != r and rows[i][c]:
                        rows[i] = [a - rows[i][c] * b for a, b in zip(rows[i], rows[r])]
                piv.append(c)
            free = [c for c in range(size) if c not in piv]
            if len(free) == 1:
                v = [Fraction(0)] * size
                v[free[0]] = Fraction(1)
                for r, c in enumerate(piv):
                    v[c] = -rows[r][free[0]]
                if all(x > 0 for x in v) or all(x < 0 for x in v):
                    return True
    return False


def brute_force_smallest_recorded_certificates():
    """All smallest certificates on at most five versicolor/virginica flowers, in the four
    measurements as recorded (tenths of a centimetre), by exhaustive search in integers.

    A certificate with an offset on a set S is a combination with weights >= 0, not all 0,
    of the lifted signed points y_i (10 x_i, 1) that is 0. Its points are affinely dependent,
    so a certificate on at most five flowers lies in a five-point set whose lifted 5x5
    determinant vanishes, or (four or fewer) in an affinely dependent quadruple. Both are
    enumerated exactly: for every quadruple, the normal of its affine hull (3x3 minors) and
    the dot product with every later flower, all integers far below 2**53.
    """
    X, y = iris_pair("versicolor", "virginica")
    n = len(y)
    Xi = np.round(X * 10)
    assert np.array_equal(Xi / 10, X)
    L = y[:, None] * np.c_[Xi, np.ones(n)]  # lifted signed points, integers
    quads_dep, fives = [], []
    triples = np.array(list(itertools.combinations(range(n), 3)), dtype=np.int64)
    for a in range(n):
        rest = triples[triples[:, 0] > a]
        if len(rest) == 0:
            continue
        U, V, W = (Xi[rest[:, j]] - Xi[a] for j in range(3))

        def m3(i, j, k):
            return (U[:, i] * (V[:, j] * W[:, k] - V[:, k] * W[:, j])
                    - U[:, j] * (V[:, i] * W[:, k] - V[:, k] * W[:, i])
                    + U[:, k] * (V[:, i] * W[:, j] - V[:, j] * W[:, i]))

        N = np.stack([m3(1, 2, 3), -m3(0, 2, 3), m3(0, 1, 3), -m3(0, 1, 2)], axis=1)
        flat = np.all(N == 0, axis=1)
        quads_dep.append(np.c_[np.full(flat.sum(), a), rest[flat]])
        # N·(x_e − x_a) is zero when flower e is on the hyperplane: for every later flower e,
        # so the quadruples are taken by their last flower c and met with the flowers after it.
        live = rest[~flat], N[~flat]
        order = np.argsort(live[0][:, 2], kind="stable")
        later_than, normals = live[0][order], live[1][order]
        last, first = np.unique(later_than[:, 2], return_index=True)
        for c, lo, hi in zip(last, first, [*first[1:], len(later_than)]):
            r, e = np.nonzero(normals[lo:hi] @ (Xi[c + 1:] - Xi[a]).T == 0)
            fives.append(np.c_[np.full(len(r), a), later_than[lo:hi][r], e + c + 1])
    # Five points with affinely independent first four: the combinations of the lifted points
    # that vanish form a line (the 5x5 matrix has rank 4). A certificate on exactly these five
    # is a vector of one sign on it; one with a weight 0 lives on four or fewer (below).
    F = np.concatenate(fives)
    F = F[np.abs(y[F].sum(axis=1)) < 5]  # a certificate with an offset needs both species
    M = L[F]
    # Any column of cofactors that is not all 0 spans it (the adjugate's rows solve v M = 0).
    cof = np.zeros((len(F), 5))
    for k in range(5):
        todo = ~np.any(cof != 0, axis=1)
        sub = np.delete(M[todo], k, axis=2)
        cof[todo] = np.stack([(-1) ** (j + k) * _det4(np.delete(sub, j, axis=1))
                              for j in range(5)], axis=1)
    assert np.all(np.any(cof != 0, axis=1))  # rank 4: the first four are independent
    one_sign = np.all(cof > 0, axis=1) | np.all(cof < 0, axis=1)
    size5 = sorted(tuple(int(v) for v in s) for s in F[one_sign])
    # Four or fewer: only inside an affinely dependent quadruple. If its four lifted points
    # span three dimensions, the vanishing combinations form a line, spanned by the 3x3
    # cofactors of some three columns; a certificate (possibly on fewer of the four) exists
    # exactly when that line has a vector of one sign. Lower rank: decided in fractions.
    Q = np.concatenate(quads_dep)
    Q = Q[np.abs(y[Q].sum(axis=1)) < 4]
    P = L[Q]
    line = np.zeros((len(Q), 4))
    for cols in itertools.combinations(range(5), 3):
        todo = ~np.any(line != 0, axis=1)
        sub = P[todo][:, :, cols]
        line[todo] = np.stack([(-1) ** j * _det3(np.delete(sub, j, axis=1))
                               for j in range(4)], axis=1)
    small = [tuple(map(int, q)) for q, v in zip(Q, line)
             if np.any(v) and (np.all(v >= 0) or np.all(v <= 0))]
    small += [tuple(map(int, q)) for q, v in zip(Q, line)
              if not np.any(v) and _fraction_certificate([L[i] for i in q])]
    return small, size5


def _exact_det(rows) -> int:
    """Determinant of a square integer matrix, exactly (Bareiss' fraction-free elimination)."""
    M = [list(r) for r in rows]
    n, sign, prev = len(M), 1, 1
    for k in range(n - 1):
        if M[k][k] == 0:
            swap = next((i for i in range(k + 1, n) if M[i][k] != 0), None)
            if swap is None:
                return 0
            M[k], M[swap], sign = M[swap], M[k], -sign
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                M[i][j] = (M[i][j] * M[k][k] - M[i][k] * M[k][j]) // prev
        prev = M[k][k]
    return sign * M[-1][-1]


def test_smallest_certificate_of_the_four_measurements():
    """The section "How few flowers a certificate needs": checked by exhaustive search.

    For the recorded decimals, a search over every set of at most five flowers, in exact
    integer arithmetic, finds the smallest certificates; the chapter's search must list the
    same sets. For the floats, each of them is affinely independent (an exact determinant), so
    none of its subsets carries a certificate there, and the package separates it.
    """
    X, y = iris_pair("versicolor", "virginica")
    s4 = separability(X, y, offset=True)
    assert s4.separable is False and s4.verify(X, y)
    assert len(figs.support(s4)) == X.shape[1] + 2  # Carathéodory's bound, attained
    small, size5 = brute_force_smallest_recorded_certificates()
    assert small == [] and len(size5) == 3  # none on four or fewer flowers; three on five
    near = figs.near_certificates(X, y, max_size=X.shape[1] + 1)
    assert near == size5
    for S in size5:
        assert figs.carries_certificate(figs.recorded_values(X), y, S)
        assert not figs.carries_certificate(figs.float_values(X), y, S)
        lifted = [[int(Fraction(float(v)) * 2**52) for v in X[i]] + [2**52] for i in S]
        assert _exact_det(lifted) != 0  # the floats of these five flowers are independent
        sub = separability(X[list(S)], y[list(S)], offset=True)
        assert sub.separable is True and sub.verify(X[list(S)], y[list(S)])
        # and only just: below the largest rounding error of a point, itself below 1e-15 cm
        bound = figs.rounding_margin_bound(X, S)
        assert bound < 1e-15
        worst = max(np.linalg.norm([float(Fraction(float(v)) - Fraction(round(v * 10), 10))
                                    for v in X[i]]) for i in S)
        assert worst <= bound <= 2 * worst
        w, b = figs.unit_witness(sub)
        assert dataset_margin(X[list(S)], y[list(S)], w, b) <= bound


def _solution_namespace() -> dict:
    from perceptron_core import check

    cell = next(c for c in notebook_cells("separability") if c.get("id") == "sep-ex-check-solution-code")
    namespace = {"np": np, "check": check}
    exec(compile("".join(cell["source"]), "<solution>", "exec"), namespace)
    return namespace


def test_exercise_check_solution_passes_and_is_never_wrong(capsys):
    separable = _solution_namespace()["separable"]
    assert "all 29 cases passed" in capsys.readouterr().out
    from perceptron_core import hypercube_small_margin

    cases = [(np.array([[1, e], [-1, e], [0.5, e]]), np.ones(3)) for e in (1e-6, 1e-9, 1e-15)]
    cases += [(np.array([[1.0, 2.0], [3.0, -1.0]]) * s, np.array([1.0, -1.0]))
              for s in (1e-300, 1e-200, 1e100)]
    cases += [hypercube_small_margin(m) for m in (10, 20, 30)]
    cases += [iris_pair("setosa", "versicolor"), iris_pair("versicolor", "virginica")]
    rng = np.random.default_rng(1)
    for _ in range(150):
        n, d = int(rng.integers(2, 12)), int(rng.integers(1, 5))
        cases.append((rng.integers(-3, 4, size=(n, d)) * 10.0 ** int(rng.integers(-50, 50)),
                      rng.choice([-1.0, 1.0], size=n)))
    answered = 0
    for X, y in cases:
        try:
            got = separable(X, y)
        except ValueError as exc:
            assert "undecided" in str(exc)
            continue
        answered += 1
        assert got == separability(X, y).separable, (X, y)
    assert answered >= 0.95 * len(cases)
    # the tiny-margin cases, which the first solution got wrong, are answered and right
    assert all(separable(X, y) for X, y in cases[:3])


def test_visible_code_has_no_fallback_for_exact_weights():
    """The reader's code reads the exact certificate the package gives; no fallback in sight."""
    for cell in notebook_cells("separability"):
        if cell["cell_type"] == "code" and not is_hidden(cell):
            src = "".join(cell["source"])
            assert "exact_weights" not in src and "if exact is not None" not in src, src


def test_text_keeps_the_fixed_sentences():
    text = markdown_text("separability")
    assert "shift $b$ a little towards" not in text
    assert "away* from the points on it" in text
    assert "certificate needs {glue:text}`sep-vv4-support`" not in text
    assert "no line in the petal plane can separate" in text
    assert "the perceptron never stops\nmaking mistakes" not in text
    assert "So for separable data $\\|p^*\\|$ is the" in text
    assert "Here is the certificate for the petal plane" in text
    assert "errs towards accepting" not in text and "lists every set" not in text
    assert "strict on both sides, like ours" in text


def test_certificate_checked_by_hand_is_the_petal_plane_one():
    """The prose: the certificate checked in fractions is the petal-plane one (two measurements),
    and its sums come out exactly 1, 0 and (0, 0)."""
    X, y = iris_pair("versicolor", "virginica", features=(2, 3))
    assert X.shape[1] == 2
    s = separability(X, y, offset=True)
    lam = s.certificate_exact
    assert all(v >= 0 for v in lam) and sum(lam) == 1
    assert sum(l * int(t) for l, t in zip(lam, y)) == 0
    for k in range(2):
        assert sum(l * int(t) * Fraction(float(row[k])) for l, t, row in zip(lam, y, X)) == 0
