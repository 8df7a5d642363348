"""perceptron_core.figures.separability: its figures show the package's verdicts and evidence, over
the corners of their slider grids, and the helpers they draw with."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from matplotlib.figure import Figure

from perceptron_core import Separability, logic_gate, max_margin, separability
from perceptron_core.figures import separability as figs

from conftest import figure_texts


def _corners(spec) -> list:
    """First and last value of a slider spec (start, stop, step[, initial]) or a choice list."""
    if isinstance(spec, tuple):
        return [spec[0], spec[1]]
    return [spec[0], spec[-1]]


@pytest.mark.parametrize(
    "distance, noise",
    list(itertools.product(_corners(figs.CLOUD_DISTANCES), _corners(figs.NOISE_RATES))),
)
def test_draw_clouds_corners(distance, noise):
    fig = figs.draw_clouds(distance=distance, noise=noise)
    assert isinstance(fig, Figure)
    X, y, _ = figs.cloud_data(distance, noise)
    sep = separability(X, y, offset=True)
    # The narrow figure breaks its title into lines at spaces: read the breaks as spaces.
    text = figure_texts(fig).replace("\n", " ")
    assert ("NOT SEPARABLE" in text) == (not sep.separable)
    assert figs.verdict_text(X, y, sep) in text
    if sep.separable:
        assert f"γ*_b = {max_margin(X, y, offset=True).gamma:.2f}" in text


@pytest.mark.parametrize("gate", _corners(figs.GATES) + ["and"])
def test_draw_gate(gate):
    fig = figs.draw_gate(gate=gate)
    assert isinstance(fig, Figure)
    text = figure_texts(fig)
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
    text = figure_texts(fig).replace("\n", " ")  # the title's line breaks, read as spaces
    assert figs.verdict_text(X, y, separability(X, y, offset=True)) in text


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
