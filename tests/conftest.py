"""Shared test settings and data strategies."""

from __future__ import annotations

import os

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import perceptron_core as pc

# Hundreds of random data sets per theorem, without a wall-clock deadline: the machine is shared
# and slow runs are not failures. CI uses a fixed derandomized profile so it cannot flake.
settings.register_profile(
    "default", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@st.composite
def planted_data(draw, max_n: int = 40, max_d: int = 6):
    """A separable data set with a planted unit vector u of margin exactly gamma, radius R."""
    n = draw(st.integers(2, max_n))
    d = draw(st.integers(1, max_d))
    R = draw(st.floats(0.5, 5.0))
    ratio = draw(st.floats(0.05, 1.0))
    seed = draw(st.integers(0, 2**31 - 1))
    X, y, u = pc.planted(n, d, ratio * R, R, seed=seed)
    return X, y, u, ratio * R, R


@st.composite
def small_labelled_data(draw, max_n: int = 12, max_d: int = 3):
    """Small integer-valued data with arbitrary labels: separable or not, with exact ties."""
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    X = np.array(draw(st.lists(st.lists(st.integers(-3, 3), min_size=d, max_size=d), min_size=n, max_size=n)), float)
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    return X, y
