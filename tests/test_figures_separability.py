"""Tests of the figures of the chapter "Linear separability" and of the claims its prose makes.

Gordan's alternative itself (never both, always one) is property-tested in tests/test_theorems.py;
here we check that the figures show what the package says, and that every concrete statement the
page makes about its data (gates, Iris, clouds) holds.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptron_core import (
    Separability,
    augment,
    iris_pair,
    logic_gate,
    max_margin,
    min_norm_point,
    perceptron,
    radius,
    separability,
)
from perceptron_core.figures import separability as figs
from perceptron_core.interactive import _expand_all


def _initial(params: dict) -> dict:
    """The first frame of an explore() grid (BENCH_CASES hold the chapter's grids)."""
    return {p.name: p.values[p.initial] for p in _expand_all(params, max_frames=10**6)}


def _texts(fig: Figure) -> str:
    """All text a figure shows: titles, suptitle, legend entries."""
    return "\n".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))


def _corners(spec) -> list:
    """First and last value of a slider spec (start, stop, step[, initial]) or a choice list."""
    if isinstance(spec, tuple):
        return [spec[0], spec[1]]
    return [spec[0], spec[-1]]


# ------------------------------------------------------------------------------------------
# Every figure draws over the corners of its grid, and shows the package's verdict
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "distance, noise",
    list(itertools.product(_corners(figs.CLOUD_DISTANCES), _corners(figs.NOISE_RATES))),
)
def test_draw_clouds_corners(distance, noise):
    fig = figs.draw_clouds(distance=distance, noise=noise)
    assert isinstance(fig, Figure)
    X, y, _ = figs.cloud_data(distance, noise)
    sep = separability(X, y, offset=True)
    text = _texts(fig)
    assert ("NOT SEPARABLE" in text) == (not sep.separable)
    assert figs.verdict_text(X, y, sep) in text
    if sep.separable:
        assert f"γ* = {max_margin(X, y, offset=True).gamma:.2f}" in text


@pytest.mark.parametrize("gate", _corners(figs.GATES) + ["and"])
def test_draw_gate(gate):
    fig = figs.draw_gate(gate=gate)
    assert isinstance(fig, Figure)
    text = _texts(fig)
    X, y = logic_gate(gate)
    for offset in (False, True):
        sep = separability(X, y, offset=offset)
        where = "with an offset" if offset else "through the origin"
        verdict = "separable" if sep.separable else "NOT separable"
        assert f"{where}: {verdict}" in text


@pytest.mark.parametrize("pair", figs.IRIS_PAIRS)
def test_draw_iris(pair):
    fig = figs.draw_iris(pair=pair)
    assert isinstance(fig, Figure)
    X, y = figs.iris_data(pair)
    assert figs.verdict_text(X, y, separability(X, y, offset=True)) in _texts(fig)


def test_bench_cases_draw():
    for name, draw, params in figs.BENCH_CASES:
        assert name.startswith("separability-")
        assert isinstance(draw(**_initial(params)), Figure)


def test_grids_within_frame_budget():
    start, stop, step, initial = figs.CLOUD_DISTANCES
    grid = figs.cloud_grid()
    assert grid[0] == start and grid[-1] == stop and initial in grid
    assert len(grid) * len(figs.NOISE_RATES) <= 40
    assert len(figs.GATES) <= 40 and len(figs.IRIS_PAIRS) <= 40


def test_clouds_stay_inside_fixed_axes():
    # The clouds figure uses fixed limits so the picture does not jump; no point may fall outside.
    for d, noise in itertools.product(figs.cloud_grid(), figs.NOISE_RATES):
        X, _, _ = figs.cloud_data(d, noise)
        assert np.all(np.abs(X[:, 0]) < figs._CLOUD_XLIM[1])
        assert np.all(np.abs(X[:, 1]) < figs._CLOUD_YLIM[1])


def test_evidence_in_every_cloud_frame_verifies():
    for d, noise in itertools.product(figs.cloud_grid(), figs.NOISE_RATES):
        X, y, _ = figs.cloud_data(d, noise)
        assert figs.cloud_verdict(d, noise).verify(X, y)


def test_common_point_lies_in_both_hulls():
    # With an offset the star is 2·Σ_{+}λᵢxᵢ, which must equal 2·Σ_{−}λᵢxᵢ (a point of both hulls).
    for pair in figs.IRIS_PAIRS[1:]:
        X, y = figs.iris_data(pair)
        sep = figs.iris_verdict(pair)
        lam = sep.certificate
        assert lam[y > 0].sum() == pytest.approx(0.5) and lam[y < 0].sum() == pytest.approx(0.5)
        p = figs.common_point(X, y, sep)
        np.testing.assert_allclose(p, 2 * lam[y < 0] @ X[y < 0], atol=1e-9)


def test_common_point_and_witness_refuse_the_wrong_verdict():
    X, y = logic_gate("and")
    with pytest.raises(ValueError):
        figs.common_point(X, y, separability(X, y, offset=True))
    with pytest.raises(ValueError):
        figs.unit_witness(separability(X, y))


# ------------------------------------------------------------------------------------------
# Claims made in the prose
# ------------------------------------------------------------------------------------------


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


def _undecided(sep: Separability) -> Separability:
    """The same verdict turned into "undecided", whatever fields the dataclass has."""
    names = {f.name for f in dataclasses.fields(sep)}
    cleared = {k: None for k in ("w", "b", "certificate", "certificate_exact") if k in names}
    return dataclasses.replace(sep, separable=None, **cleared)


def test_figures_show_an_undecided_verdict_without_evidence():
    X, y = logic_gate("xor")
    sep = _undecided(separability(X, y, offset=True))
    text = figs.verdict_text(X, y, sep)
    assert text.startswith("UNDECIDED")
    fig = Figure()
    ax = fig.add_subplot()
    n_before = len(ax.get_children())
    figs.draw_evidence(ax, X, y, sep)
    assert len(ax.get_children()) == n_before
    assert len(figs.support(sep)) == 0
    with pytest.raises(ValueError, match="undecided"):
        figs.common_point(X, y, sep)
    with pytest.raises(ValueError, match="undecided"):
        figs.unit_witness(sep)


def test_exact_weights_are_preferred_when_the_package_gives_them():
    lam = [Fraction(0), Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]
    sep = SimpleNamespace(certificate=np.array([1e-13, 1 / 3, 1 / 3, 1 / 3]),
                          certificate_exact=lam)
    assert figs.exact_weights(sep) == lam
    assert figs.support(sep).tolist() == [1, 2, 3]
    assert figs.weights_text(sep) == "(0, 1/3, 1/3, 1/3)"
    plain = SimpleNamespace(certificate=np.array([0.5, 0.0, 0.5]))
    assert figs.exact_weights(plain) is None
    assert figs.support(plain).tolist() == [0, 2]
    assert figs.weights_text(plain) == "(0.50, 0.00, 0.50)"


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
