"""Hostile input across the public API: every case is one call with bad input, which must raise
a ValueError or TypeError from perceptron_core itself (not from deep inside numpy), whose message
names what is wrong and the fix; and nothing may hang."""

from __future__ import annotations

import os
import traceback
import warnings

import numpy as np
import pytest

import perceptron_core as pc
from perceptron_core import bounds as hb
from perceptron_core import certificates as cert

X_OK = np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, -2.0]])
Y_OK = np.array([1.0, -1.0, 1.0])
PKG = os.path.dirname(pc.__file__)

LABELLED = {
    "perceptron": lambda X, y: pc.perceptron(X, y, offset=True),
    "margin_perceptron": lambda X, y: pc.margin_perceptron(X, y, 0.1),
    "averaged_perceptron": lambda X, y: pc.averaged_perceptron(X, y),
    "kernel_perceptron": lambda X, y: pc.kernel_perceptron(X, y, kernel="quadratic"),
    "max_margin": lambda X, y: pc.max_margin(X, y),
    "separability": lambda X, y: pc.separability(X, y),
    "margins": lambda X, y: pc.margins(X, y, [1.0, 0.0]),
    "total_hinge_deviation": lambda X, y: pc.total_hinge_deviation(X, y, [1.0, 0.0], 0.1),
    "estimator": lambda X, y: pc.Perceptron().fit(X, y),
}
BAD_DATA = {
    "nan in X": ([[1.0, np.nan], [0.0, 1.0], [1.0, 1.0]], Y_OK, ValueError, r"NaN|infinity"),
    "inf in X": ([[1.0, 2.0], [-np.inf, 1.0], [1.0, 1.0]], Y_OK, ValueError, r"NaN|infinity"),
    "ragged X": ([[1.0, 2.0], [1.0], [0.0, 1.0]], Y_OK, ValueError, r"ragged|inhomogeneous"),
    "1-d X": (np.array([1.0, 2.0, 3.0]), Y_OK, ValueError, r"2-D|2D"),
    "complex X": (X_OK + 1j, Y_OK, (TypeError, ValueError), r"[Cc]omplex"),
    "text X": (X_OK.astype(str), Y_OK, (TypeError, ValueError), r"text|string|convert"),
    "huge X": (X_OK * 1e200, Y_OK, ValueError, r"as large as .*Rescale X|too large"),
    "labels {0,1}": (X_OK, [1, 0, 1], ValueError, r"y = 2\*y - 1|two classes|Unknown label"),
    "labels {1,2,3}": (X_OK, [1, 2, 3], ValueError, r"\+1 or -1|binary"),
    "text labels": (X_OK, ["a", "b", "a"], ValueError, r"\+1 or -1|two classes"),
    "empty data": (np.empty((0, 2)), np.empty(0), ValueError, r"empty|0 sample"),
    "length mismatch": (X_OK, Y_OK[:2], ValueError, r"3 samples.*2|inconsistent"),
}
CASES = {f"{f}: {b}": (lambda call=call, X=X, y=y: call(X, y), exc, pat)
         for f, call in LABELLED.items() for b, (X, y, exc, pat) in BAD_DATA.items()
         if not (f == "estimator" and b.startswith(("labels", "text")))}  # scikit-learn reads those

run = pc.perceptron(X_OK, Y_OK, record=True)
OTHER = {
    "perceptron: max_epochs 0": (lambda: pc.perceptron(X_OK, Y_OK, max_epochs=0), ValueError, "max_epochs must be a positive integer"),
    "perceptron: max_epochs 2.5": (lambda: pc.perceptron(X_OK, Y_OK, max_epochs=2.5), ValueError, "positive integer"),
    "perceptron: tie 'maybe'": (lambda: pc.perceptron(X_OK, Y_OK, tie="maybe"), ValueError, "tie must be 'mistake'"),
    "perceptron: offset 'yes'": (lambda: pc.perceptron(X_OK, Y_OK, offset="yes"), TypeError, "offset must be True or False"),
    "perceptron: u zero": (lambda: pc.perceptron(X_OK, Y_OK, u=[0.0, 0.0]), ValueError, "zero vector"),
    "perceptron: u of length 3": (lambda: pc.perceptron(X_OK, Y_OK, u=[1.0, 0.0, 0.0]), ValueError, "length 2"),
    "predict: wrong width": (lambda: run.predict([[1.0, 2.0, 3.0]]), ValueError, "3 features.*run was on 2"),
    "margin_perceptron: gamma 0": (lambda: pc.margin_perceptron(X_OK, Y_OK, 0.0), ValueError, "gamma must be finite and > 0"),
    "margin_perceptron: gamma nan": (lambda: pc.margin_perceptron(X_OK, Y_OK, np.nan), ValueError, "gamma must be finite"),
    "margin_perceptron: target 1": (lambda: pc.margin_perceptron(X_OK, Y_OK, 0.1, target=1.0), ValueError, "strictly between 0 and 1"),
    "margin_perceptron: gamma 'a'": (lambda: pc.margin_perceptron(X_OK, Y_OK, "a"), TypeError, "gamma must be a positive number"),
    "online: not a stream": (lambda: next(pc.online_perceptron(3)), TypeError, "iterable of \\(x, y\\) pairs"),
    "online: not pairs": (lambda: next(pc.online_perceptron([1, 2])), ValueError, "pair \\(x, y\\)"),
    "online: 2-d x": (lambda: next(pc.online_perceptron([(X_OK, 1)])), ValueError, "1-D feature vector"),
    "online: text x": (lambda: next(pc.online_perceptron([("ab", 1)])), ValueError, "1-D feature vector"),
    "online: changing length": (lambda: list(pc.online_perceptron([([1.0], 1), ([1.0, 2.0], 1)])), ValueError, "same length"),
    "online: label 0": (lambda: next(pc.online_perceptron([([1.0], 0)])), ValueError, "\\+1 or -1"),
    "find_cycle: no history": (lambda: pc.find_cycle(pc.perceptron(X_OK, Y_OK), 3), ValueError, "record=True"),
    "find_cycle: n too small": (lambda: pc.find_cycle(run, 1), ValueError, "pass n = len\\(y\\)"),
    "closest_call: wrong X": (lambda: pc.closest_call(X_OK[:, :1], run), ValueError, "pass the X it ran on"),
    "closest_call: not a run": (lambda: pc.closest_call(X_OK, "run"), TypeError, "record=True"),
    "kernel: unknown": (lambda: pc.kernel_perceptron(X_OK, Y_OK, kernel="cubic"), ValueError, "unknown kernel"),
    "kernel: degree 0": (lambda: pc.kernel_perceptron(X_OK, Y_OK, kernel="poly", degree=0), ValueError, "degree must be"),
    "kernel: rbf gamma -1": (lambda: pc.kernel_perceptron(X_OK, Y_OK, kernel="rbf", gamma=-1.0), ValueError, "gamma .* must be finite and > 0"),
    "kernel: failing callable": (lambda: pc.kernel_perceptron(X_OK, Y_OK, kernel=lambda A, B: 1 / 0), ValueError, "failed"),
    "kernel: wrong shape": (lambda: pc.kernel_perceptron(X_OK, Y_OK, kernel=lambda A, B: A), ValueError, "Gram matrix of shape"),
    "kernel: overflow": (lambda: pc.kernel_perceptron(X_OK * 1e100, Y_OK, kernel="poly", degree=4), ValueError, "overflowed"),
    "averaged: epochs 0": (lambda: pc.averaged_perceptron(X_OK, Y_OK, epochs=0), ValueError, "epochs must be a positive"),
    "novikoff_bound: gamma 0": (lambda: pc.novikoff_bound(1.0, 0.0), ValueError, "gamma must be finite and > 0"),
    "novikoff_bound: R -1": (lambda: pc.novikoff_bound(-1.0, 0.5), ValueError, "R must be finite and >= 0"),
    "novikoff_bound: overflow": (lambda: pc.novikoff_bound(1e200, 1e-200), ValueError, "overflow"),
    "novikoff_bound: complex": (lambda: pc.novikoff_bound(1j, 0.5), TypeError, "R must be"),
    "offset_bound: c 0": (lambda: pc.offset_bound(1.0, 0.5, 0.1, 0.0), ValueError, "c .*must be finite and > 0"),
    "best_c: b 0": (lambda: hb.best_c(1.0, 0.0), ValueError, "no positive c"),
    "online_to_pac: delta 1": (lambda: pc.online_to_pac(1.0, 0.5, 0.1, 1.0), ValueError, "delta must lie strictly"),
    "vc_sample_size: delta 0.3": (lambda: pc.vc_sample_size(2, 0.1, 0.3), ValueError, "delta < 1/4"),
    "unnormalized_bound: w zero": (lambda: pc.unnormalized_bound(1.0, [0.0, 0.0], 1.0), ValueError, "zero vector"),
    "margins: w zero": (lambda: pc.margins(X_OK, Y_OK, [0.0, 0.0]), ValueError, "zero vector"),
    "margins: b beyond floats": (lambda: pc.margins(X_OK, Y_OK, [1e-300, 0.0], 1e300), ValueError, "float range"),
    "max_margin: inseparable": (lambda: pc.max_margin(*pc.xor(), offset=True), ValueError, "not linearly separable"),
    "max_margin: one class with offset": (lambda: pc.max_margin(X_OK, np.ones(3), offset=True), ValueError, "both classes"),
    "planted: gamma > R": (lambda: pc.planted(5, 2, 2.0, 1.0), ValueError, "exceeds R"),
    "planted: n 0": (lambda: pc.planted(0, 2, 0.1), ValueError, "n must be a positive integer"),
    "planted: seed 'a'": (lambda: pc.planted(5, 2, 0.1, seed="a"), TypeError, "seed must be an int"),
    "logic_gate: 'xand'": (lambda: pc.logic_gate("xand"), ValueError, "unknown gate"),
    "narrow_wedge: 60": (lambda: pc.narrow_wedge(60), ValueError, "at most 52"),
    "iris_pair: same species": (lambda: pc.iris_pair("setosa", "setosa"), ValueError, "two different species"),
    "augment: c 0": (lambda: pc.augment(X_OK, 0.0), ValueError, "non-zero"),
    "flip_labels: rate 2": (lambda: pc.flip_labels(Y_OK, 2.0), ValueError, "in \\[0, 1\\]"),
    "adversary_game: no learner": (lambda: pc.adversary_game(object(), 3), TypeError, "predict\\(x\\) and update"),
    "adversary_game: d < k": (lambda: pc.adversary_game(pc.PerceptronLearner(), 3, d=2), ValueError, "d >= k"),
    "BandDistribution: gamma > R": (lambda: pc.BandDistribution(2.0, 1.0), ValueError, "gamma must be below R"),
    "simulate_conversion: not a distribution": (lambda: pc.simulate_conversion("band", 0.1, 0.1), TypeError, "BandDistribution"),
    "convert_stream: window 0": (lambda: pc.convert_stream([], 0), ValueError, "window must be a positive integer"),
    "carries_certificate: floats": (lambda: cert.carries_certificate(X_OK, Y_OK, [0, 1]), TypeError, "fractions.Fraction"),
    "carries_certificate: bad points": (lambda: cert.carries_certificate(cert.float_values(X_OK), Y_OK, [0, 7]), ValueError, "distinct indices"),
    "recorded_values: not decimals": (lambda: cert.recorded_values([[0.123]]), ValueError, "not all decimals"),
    "near_certificates: max_size 0": (lambda: cert.near_certificates(X_OK, Y_OK, max_size=0), ValueError, "max_size must be"),
    "common_point: a witness": (lambda: cert.common_point(X_OK, Y_OK, pc.separability(X_OK, Y_OK)), ValueError, "no certificate"),
}
CASES.update(OTHER)


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_gets_a_clear_error_from_the_package(name):
    call, exc, pattern = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.ConvergenceWarning)
        with pytest.raises(exc, match=pattern) as info:
            call()
    if not name.startswith("estimator"):  # scikit-learn's own validation raises from sklearn
        frames = traceback.extract_tb(info.tb)
        assert any(f.filename.startswith(PKG) for f in frames[-2:]), f"raised outside the package: {frames[-1]}"


def test_awkward_but_valid_input_gives_finite_results():
    """Certified functions at any scale; runs where their float products do not underflow (a run
    on data near 1e-181 sees every score underflow to a tie: floats, not an error)."""
    tiny, subnormal = np.ldexp(X_OK, -600), np.ldexp(X_OK, -1070)  # squares underflow
    for X in (tiny, subnormal, X_OK * 1e-100, X_OK * 1e150, X_OK.astype(np.float32), X_OK.astype(int),
              np.asfortranarray(X_OK)):
        if np.max(np.abs(X)) > 1e-150:
            run = pc.perceptron(X, Y_OK, max_epochs=100)
            assert run.converged and np.all(np.isfinite(run.w)) and run.predict(X).tolist() == Y_OK.tolist()
        assert pc.separability(X, Y_OK, offset=True).verify(X, Y_OK)
        assert np.isfinite(pc.radius(X)) and pc.radius(X) > 0
        assert np.all(np.isfinite(pc.margins(X, Y_OK, [1.0, -1.0])))
        assert pc.max_margin(X, Y_OK, offset=True).gamma > 0
    assert pc.perceptron([[1]], [1]).converged and pc.perceptron(np.ones((10**6, 1)), np.ones(10**6)).mistakes == 1
