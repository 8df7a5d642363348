"""The data generators deliver what their docstrings promise."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import perceptron_core as pc


@given(st.integers(1, 60), st.integers(1, 8), st.floats(0.01, 1.0), st.floats(0.1, 10.0), st.integers(0, 10**6))
def test_planted_margin_and_radius_are_exact(n, d, ratio, R, seed):
    if d == 1 and n == 1:
        ratio = 1.0
    X, y, u = pc.planted(n, d, ratio * R, R, seed=seed)
    assert X.shape == (n, d) and set(np.unique(y)) <= {-1.0, 1.0}
    assert np.isclose(np.linalg.norm(u), 1.0)
    assert np.isclose(pc.dataset_margin(X, y, u), ratio * R, rtol=1e-12)
    assert np.isclose(pc.radius(X), R, rtol=1e-12)
    if n >= 2:
        assert set(y.tolist()) == {-1.0, 1.0}


def test_planted_is_deterministic_per_seed():
    a, b = pc.planted(10, 3, 0.1, seed=4), pc.planted(10, 3, 0.1, seed=4)
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    assert not np.array_equal(a[0], pc.planted(10, 3, 0.1, seed=5)[0])


@pytest.mark.parametrize("gate, separable", [("and", True), ("or", True), ("nand", True), ("nor", True), ("xor", False)])
def test_logic_gates(gate, separable):
    X, y = pc.logic_gate(gate)
    assert pc.separability(X, y, offset=True).separable is separable
    assert not pc.separability(X, y).separable  # (0, 0) lies on every hyperplane through 0


def test_iris_is_fishers_data():
    X, species = pc.iris()
    assert X.shape == (150, 4)
    assert {s: int(np.sum(species == s)) for s in pc.data.IRIS_SPECIES} == {"setosa": 50, "versicolor": 50, "virginica": 50}
    assert np.allclose(X[0], [5.1, 3.5, 1.4, 0.2]) and np.allclose(X.mean(0), [5.8433, 3.0573, 3.758, 1.1993], atol=1e-3)


def test_iris_pairs_separability():
    for offset in (False, True):
        X, y = pc.iris_pair("setosa", "versicolor")
        assert pc.separability(X, y, offset=offset).separable
    X, y = pc.iris_pair("versicolor", "virginica")
    verdict = pc.separability(X, y, offset=True)
    assert not verdict.separable and verdict.verify(X, y)


def test_augment_turns_an_offset_separator_into_one_through_the_origin():
    X, y = pc.logic_gate("and")
    verdict = pc.separability(X, y, offset=True)
    for c in (1.0, 0.5, 3.0):
        Xa = pc.augment(X, c)
        assert np.array_equal(Xa[:, :2], X) and np.all(Xa[:, 2] == c)
        assert np.all(y * (Xa @ np.r_[verdict.w, verdict.b / c]) > 0)


def test_flip_labels_flips_the_stated_fraction():
    y = np.ones(40)
    flipped = pc.flip_labels(y, 0.25, seed=3)
    assert np.sum(flipped != y) == 10
    assert np.array_equal(pc.flip_labels(y, 0.0), y)


def test_gaussian_clouds_layout():
    X, y = pc.gaussian_clouds(200, 6.0, spread=0.5, seed=1)
    assert X.shape == (400, 2) and np.sum(y > 0) == 200
    assert np.allclose(X[y > 0].mean(0), [3.0, 0.0], atol=0.15)
    assert pc.separability(X, y).separable
    Xo, yo = pc.gaussian_clouds(200, 0.0, seed=1)
    assert not pc.separability(Xo, yo, offset=True).separable


def test_orthonormal_worst_case_geometry():
    X, y = pc.orthonormal_worst_case(6, seed=2)
    assert np.allclose(np.abs(X), np.eye(6)) and np.allclose(np.diag(X), y)


def test_narrow_wedge_margin_halves_with_k():
    gammas = [pc.max_margin(*pc.narrow_wedge(k)).gamma for k in range(2, 8)]
    assert np.allclose(np.array(gammas[:-1]) / np.array(gammas[1:]), 2.0, rtol=0.05)
