"""perceptron_core.figures.separability: a figure states the verdict it is given, and draws its
evidence."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core import iris_pair, logic_gate, separability
from perceptron_core.figures import separability as figs

from conftest import figure_texts


@pytest.mark.parametrize("gate", ["and", "xor"])
def test_draw_gate_states_both_verdicts(gate):
    X, y = logic_gate(gate)
    verdicts = (separability(X, y), separability(X, y, offset=True))
    text = figure_texts(figs.draw_gate(X, y, verdicts, gate))
    assert "through the origin: NOT separable" in text
    assert ("with an offset: separable" in text) == (gate == "and")
    assert "λ = (" in text  # exact weights of a certificate


@pytest.mark.parametrize("pair", ["setosa/versicolor", "versicolor/virginica"])
def test_draw_iris_states_the_verdict_and_its_evidence(pair):
    X, y = iris_pair(*pair.split("/"), features=(2, 3))
    sep = separability(X, y, offset=True)
    fig = figs.draw_iris(X, y, sep, pair)
    text = figure_texts(fig).replace("\n", " ")
    assert figs.verdict_text(X, y, sep) in text
    assert ("check passes" in text) == (not sep.separable)
    rings = [c for c in fig.axes[0].collections if c.get_label().startswith("certificate")]
    assert len(rings) == (0 if sep.separable else 1)
    if rings:
        used = [i for i, v in enumerate(sep.certificate_exact) if v > 0]  # λᵢ > 0, exactly
        np.testing.assert_array_equal(rings[0].get_offsets(), X[used])


def test_an_undecided_verdict_draws_no_evidence():
    X, y = logic_gate("xor")
    undecided = separability(X, y, offset=True).__class__(None, None, None, None, True)
    fig = figs.draw_clouds(X, y, np.array([], int), undecided, 1.0)
    assert "UNDECIDED" in figure_texts(fig)
    assert not [a for a in fig.axes[0].lines if a.get_label().startswith("witness")]
