"""Bad input gets a ValueError that says what is wrong and how to fix it."""

from __future__ import annotations

import numpy as np
import pytest

import perceptron_core as pc

X_OK = np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -2.0]])
Y_OK = np.array([1.0, -1.0, 1.0])

# Every public function that takes a labelled data set, as (name, call).
LABELLED = [
    ("perceptron", lambda X, y: pc.perceptron(X, y)),
    ("perceptron offset", lambda X, y: pc.perceptron(X, y, offset=True)),
    ("margin_perceptron", lambda X, y: pc.margin_perceptron(X, y, 0.1)),
    ("Perceptron.fit", lambda X, y: pc.Perceptron().fit(X, y)),
    ("max_margin", lambda X, y: pc.max_margin(X, y)),
    ("separability", lambda X, y: pc.separability(X, y)),
    ("margins", lambda X, y: pc.margins(X, y, [1.0, 0.0])),
    ("dataset_margin", lambda X, y: pc.dataset_margin(X, y, [1.0, 0.0])),
    ("total_hinge_deviation", lambda X, y: pc.total_hinge_deviation(X, y, [1.0, 0.0], 0.1)),
]
IDS = [name for name, _ in LABELLED]
CALLS = [call for _, call in LABELLED]


@pytest.mark.parametrize("call", CALLS, ids=IDS)
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_or_inf_in_X(call, bad):
    X = X_OK.copy()
    X[1, 0] = bad
    with pytest.raises(ValueError, match=r"NaN or inf \(first at row 1, column 0\).*remove or impute"):
        call(X, Y_OK)


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_one_dimensional_X(call):
    with pytest.raises(ValueError, match=r"1-D.*reshape\(-1, 1\)"):
        call(np.array([1.0, 2.0, 3.0]), Y_OK)


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_length_mismatch(call):
    with pytest.raises(ValueError, match="X has 3 samples but y has 2 labels; pass exactly one label per row"):
        call(X_OK, Y_OK[:2])


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_empty_data(call):
    with pytest.raises(ValueError, match=r"empty.*at least one sample"):
        call(np.empty((0, 2)), np.empty(0))


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_zero_one_labels_suggest_conversion(call):
    with pytest.raises(ValueError, match=r"labels must be \+1 or -1, got \[0.0, 1.0\].*y = 2\*y - 1"):
        call(X_OK, np.array([1, 0, 1]))


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_other_labels(call):
    with pytest.raises(ValueError, match=r"labels must be \+1 or -1, got \[1.0, 2.0, 3.0\].*np.where"):
        call(X_OK, np.array([1, 2, 3]))
    with pytest.raises(ValueError, match=r"labels must be \+1 or -1.*np.where"):
        call(X_OK, np.array(["a", "b", "a"]))


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda g: pc.margin_perceptron(X_OK, Y_OK, g), "gamma"),
        (lambda g: pc.novikoff_bound(1.0, g), "gamma"),
        (lambda g: pc.hinge_loss_bound(1.0, g, 0.0), "gamma"),
        (lambda g: pc.margin_perceptron_bound(1.0, g), "gamma"),
        (lambda g: pc.total_hinge_deviation(X_OK, Y_OK, [1.0, 0.0], g), "gamma"),
        (lambda g: pc.planted(5, 2, g), "gamma"),
        (lambda g: pc.uml_bound(1.0, g), "B"),
        (lambda g: pc.unnormalized_bound(1.0, [1.0], g), "epsilon"),
        (lambda g: pc.online_to_pac(1.0, 0.5, g, 0.1), "epsilon"),
    ],
)
@pytest.mark.parametrize("value", [0.0, -0.5, np.nan, np.inf])
def test_nonpositive_margin(call, name, value):
    with pytest.raises(ValueError, match=rf"{name} must be finite and > 0, got"):
        call(value)


@pytest.mark.parametrize("max_epochs", [0, -3, 2.5, True, None])
def test_max_epochs_must_be_a_positive_int(max_epochs):
    with pytest.raises(ValueError, match="max_epochs must be a positive integer"):
        pc.perceptron(X_OK, Y_OK, max_epochs=max_epochs)


def test_bad_tie_rule_and_reference_vector():
    with pytest.raises(ValueError, match="tie must be 'mistake'"):
        pc.perceptron(X_OK, Y_OK, tie="zero")
    with pytest.raises(ValueError, match="u .*length 2.*got shape"):
        pc.perceptron(X_OK, Y_OK, u=[1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="u must be a non-zero vector"):
        pc.perceptron(X_OK, Y_OK, u=[0.0, 0.0])


def test_zero_separator_has_no_margin():
    with pytest.raises(ValueError, match="w is the zero vector"):
        pc.margins(X_OK, Y_OK, [0.0, 0.0])


def test_online_stream_errors_name_the_round():
    with pytest.raises(ValueError, match="round 2: x has 3 features but earlier examples had 2"):
        list(pc.online_perceptron([([1.0, 0.0], 1), ([1.0, 0.0, 2.0], -1)]))
    with pytest.raises(ValueError, match=r"labels must be \+1 or -1.*2\*y - 1"):
        list(pc.online_perceptron([([1.0, 0.0], 0)]))
    with pytest.raises(ValueError, match="round 1: each item of the stream must be a pair"):
        list(pc.online_perceptron([3.0]))
    with pytest.raises(ValueError, match="x at round 1 contains NaN or inf"):
        list(pc.online_perceptron([([np.nan, 0.0], 1)]))


def test_max_margin_refuses_what_it_cannot_measure():
    X, y = pc.xor()
    with pytest.raises(ValueError, match=r"not linearly separable.*separability\(X, y, offset=True\)"):
        pc.max_margin(X, y, offset=True)
    with pytest.raises(ValueError, match="both classes"):
        pc.max_margin(X_OK, np.ones(3), offset=True)


def test_data_generators_validate():
    with pytest.raises(ValueError, match="exceeds R"):
        pc.planted(5, 2, 2.0, 1.0)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        pc.planted(0, 2, 0.1)
    with pytest.raises(ValueError, match="unknown gate"):
        pc.logic_gate("implies")
    with pytest.raises(ValueError, match=r"rate .* must be in \[0, 1\]"):
        pc.flip_labels(Y_OK, 1.5)
    with pytest.raises(ValueError, match="unknown species"):
        pc.iris_pair("setosa", "rose")
    with pytest.raises(ValueError, match="finite non-zero constant"):
        pc.augment(X_OK, 0.0)


def test_unfitted_estimator():
    with pytest.raises(ValueError, match="not fitted yet; call fit"):
        pc.Perceptron().predict(X_OK)
