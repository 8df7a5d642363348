"""The data sets on which the playground's JavaScript must make the same run as perceptron_core.

:func:`cases` returns at least 200 labelled data sets in the plane, each built from a fixed seed
(the same list on every machine): random ones (uniform, Gaussian, planted margin) and adversarial
ones, built so that the JavaScript must decide signs exactly to agree with the core: exact ties
(integer data, points perpendicular to an update, points on the boundary the run holds when it
reaches them) and near-ties within an ulp of them, duplicates, collinear points, the origin,
magnitudes near the ends of the float range (1e-300, subnormals, 1e+150), mixed scales,
decimal fractions that are not dyadic (0.1 + 0.2 ≠ 0.3), the logic gates and XOR, the narrow
wedge and pairs of Iris species.

Every case names its category, so a failure says which kind of data broke the parity.
"""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from perceptron_core import ConvergenceWarning, augment, perceptron
from perceptron_core.data import iris_pair, logic_gate, narrow_wedge, planted, xor

#: Sweeps per run unless a case says otherwise: short enough that an inseparable set stops soon.
MAX_EPOCHS = 50
#: Categories whose magnitudes sit at the ends of the float range: there an "undecided" margin
#: is tolerated (counted and reported), elsewhere only where the core is undecided too.
PATHOLOGICAL = frozenset({"tiny", "subnormal", "huge", "mixed-scale"})


@dataclass(frozen=True)
class Case:
    """One data set: ``X`` (n × 2 floats), ``y`` (±1 floats), and how long to run on it."""

    name: str
    category: str
    X: np.ndarray
    y: np.ndarray
    max_epochs: int = MAX_EPOCHS

    @property
    def pathological(self) -> bool:
        return self.category in PATHOLOGICAL

    def __str__(self) -> str:
        return f"{self.category}:{self.name} (n={len(self.y)})"


def _case(name: str, category: str, X, y, max_epochs: int | None = None) -> Case:
    # C order: the core's compiled margin_perceptron loop accepts no other (iris_pair's columns
    # come out in Fortran order, and margin_perceptron then raises a TypeError).
    X = np.ascontiguousarray(np.array(X, dtype=float).reshape(-1, 2))
    y = np.array(y, dtype=float).ravel()
    assert X.shape[0] == y.shape[0] >= 1 and set(np.unique(y)) <= {-1.0, 1.0}, name
    if max_epochs is None:
        # Long inseparable runs on many points only lengthen the test, not its reach.
        max_epochs = MAX_EPOCHS if len(y) <= 100 else 20
    return Case(name, category, X, y, max_epochs)


def _labels(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.choice([-1.0, 1.0], size=n)


def _epoch_one_weights(X: np.ndarray, y: np.ndarray, tie: str = "mistake") -> np.ndarray:
    """The weights the core's run holds at the end of its first sweep over (X, y)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return np.array(perceptron(X, y, tie=tie, max_epochs=1).w)


# ------------------------------------------------------------------------------------------------
# Random data
# ------------------------------------------------------------------------------------------------

_SIZES = (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 120, 200)


def _uniform(out: list[Case]) -> None:
    for seed in range(24):
        rng = np.random.default_rng(1000 + seed)
        n = _SIZES[seed % len(_SIZES)]
        X = rng.uniform(-1.0, 1.0, size=(n, 2))
        kind = seed % 3
        if kind == 0:  # labels of a line through the origin: separable without an offset
            u = rng.standard_normal(2)
            y = np.where(X @ u >= 0, 1.0, -1.0)
        elif kind == 1:  # labels of a line off the origin: separable with the offset trick only
            u = rng.standard_normal(2)
            y = np.where(X @ u + 0.3 >= 0, 1.0, -1.0)
        else:  # random labels: inseparable once there are a few points
            y = _labels(rng, n)
        out.append(_case(f"uniform-{('origin', 'offset', 'random')[kind]}-seed{seed}", "uniform", X, y))


def _gaussian(out: list[Case]) -> None:
    for seed in range(16):
        rng = np.random.default_rng(2000 + seed)
        n = _SIZES[(seed * 5) % len(_SIZES)]
        gap = (0.5, 2.0, 4.0, 8.0)[seed % 4]
        y = _labels(rng, n)
        centre = np.array([gap / 2, (seed % 3 - 1) * 1.5])  # off the origin for two in three
        X = y[:, None] * np.array([gap / 2, 0.0]) + centre * (seed % 2) + rng.standard_normal((n, 2))
        out.append(_case(f"gaussian-gap{gap}-seed{seed}", "gaussian", X, y))


def _planted(out: list[Case]) -> None:
    for seed in range(16):
        n = _SIZES[(seed * 7 + 3) % len(_SIZES)]
        gamma = (0.5, 0.1, 0.01, 1e-4)[seed % 4]
        R = (1.0, 10.0, 0.25)[seed % 3]
        X, y, _ = planted(n, 2, gamma * R, R, seed=3000 + seed)
        out.append(_case(f"planted-gamma{gamma}-R{R}-seed{seed}", "planted", X, y))


# ------------------------------------------------------------------------------------------------
# Exact ties and near-ties
# ------------------------------------------------------------------------------------------------


def _integer(out: list[Case]) -> None:
    """Small integers: every score is an exact integer, and many are exactly 0."""
    for seed in range(16):
        rng = np.random.default_rng(4000 + seed)
        n = (4, 6, 9, 12, 20, 40, 80, 150)[seed % 8]
        span = (1, 2, 3)[seed % 3]
        X = rng.integers(-span, span + 1, size=(n, 2)).astype(float)
        y = _labels(rng, n) if seed % 2 else np.where(X @ [2.0, 1.0] >= 0, 1.0, -1.0)
        out.append(_case(f"integer-span{span}-seed{seed}", "integer-ties", X, y))
    # The orthonormal worst case in the plane: each point first met at w·x = 0.
    for labels in ([1, 1], [1, -1], [-1, 1], [-1, -1]):
        out.append(_case(f"axes{labels}", "integer-ties", [[labels[0], 0.0], [0.0, labels[1]]], labels))


def _perpendicular(out: list[Case]) -> None:
    """Points on the line through the origin perpendicular to the first update ``y₀x₀``.

    The first update sets w = y₀x₀; a point t·(−x₀₂, x₀₁) with t a power of two has w·x = 0
    exactly (the two products are the same float up to sign), so the run meets an exact tie.
    """
    for seed in range(10):
        rng = np.random.default_rng(5000 + seed)
        x0 = rng.standard_normal(2) * (10.0 ** rng.integers(-3, 4))
        perp = np.array([-x0[1], x0[0]])
        ts = np.array([1.0, -1.0, 2.0, 0.5, -4.0, 0.125])[: 2 + seed % 5]
        X = np.vstack([x0, ts[:, None] * perp, rng.standard_normal((seed % 4, 2))])
        y = _labels(rng, len(X))
        out.append(_case(f"perpendicular-seed{seed}", "perpendicular", X, y))


def _on_boundary(out: list[Case], *, near: bool) -> None:
    """Points put on (or within an ulp of) the boundary the run holds when it reaches them.

    Each new point goes at the end, so the run first meets it in its first sweep with the
    weights (a, b) it holds after sweeping the points before it: (b, −a) scores a·b − b·a = 0
    exactly; with ``near``, one coordinate is moved to the next float, a score of about
    1e-16·‖w‖² whose sign only exact arithmetic gets right.
    """
    for seed in range(12):
        rng = np.random.default_rng((6000 if near else 7000) + seed)
        X = rng.standard_normal((2 + seed % 3, 2))
        if seed % 4 == 3:
            X = np.round(X * 4)  # integer data: ties stay exact in later sweeps too
        y = _labels(rng, len(X))
        for _ in range(4 + seed % 4):
            a, b = _epoch_one_weights(X, y)
            if a == 0 and b == 0:
                p = rng.standard_normal(2)
            else:
                p = np.array([b, -a]) * (-1.0 if rng.random() < 0.5 else 1.0)
                if near:
                    j = int(rng.integers(2))
                    p[j] = math.nextafter(p[j], math.inf if rng.random() < 0.5 else -math.inf)
            X = np.vstack([X, p])
            y = np.r_[y, _labels(rng, 1)]
        kind = "near-boundary" if near else "on-boundary"
        out.append(_case(f"{kind}-seed{seed}", kind, X, y))


def _lifted_boundary(out: list[Case]) -> None:
    """Near-ties of the run with the offset trick (c = 1): a point (−e/a, 0) sits within
    rounding of the lifted boundary a·x₁ + b·x₂ + e = 0 that the run holds when it reaches it."""
    for seed in range(8):
        rng = np.random.default_rng(8000 + seed)
        X = rng.standard_normal((3, 2))
        y = _labels(rng, 3)
        for _ in range(5):
            a, b, e = _epoch_one_weights(augment(X, 1.0), y)
            if a != 0:
                p = [-e / a, 0.0]
            elif b != 0:
                p = [0.0, -e / b]
            else:
                p = list(rng.standard_normal(2))
            X = np.vstack([X, p])
            y = np.r_[y, _labels(rng, 1)]
        out.append(_case(f"lifted-boundary-seed{seed}", "lifted-boundary", X, y))


def _decimal(out: list[Case]) -> None:
    """Decimal fractions, which are not dyadic: 0.1 + 0.2 ≠ 0.3 in floats, so sums of updates
    land a rounding error away from the ties they would make in exact decimals."""
    values = np.array([0.1, 0.2, 0.3, 0.6, 0.7, -0.1, -0.2, -0.3, 0.0, 1.1, 2.2, 3.3])
    for seed in range(12):
        rng = np.random.default_rng(9000 + seed)
        n = (3, 5, 8, 12, 20, 40)[seed % 6]
        X = rng.choice(values, size=(n, 2))
        y = _labels(rng, n)
        out.append(_case(f"decimal-seed{seed}", "decimal", X, y))
    # By hand: after updates on (0.1, 0.2) and (0.2, 0.1), w = (0.30000000000000004, 0.30000000000000004)
    # to within rounding; the points (0.3, −0.3) and (−0.3, 0.3) then score about 1e-17.
    out.append(_case("decimal-0.1+0.2", "decimal",
                     [[0.1, 0.2], [0.2, 0.1], [0.3, -0.3], [-0.3, 0.3], [0.3, 0.3]], [1, 1, -1, 1, -1]))
    out.append(_case("decimal-0.1+0.2-negated", "decimal",
                     [[-0.1, -0.2], [0.2, 0.1], [0.3, -0.3], [0.1, 0.3], [-0.3, 0.3]], [-1, 1, 1, -1, 1]))


# ------------------------------------------------------------------------------------------------
# Degenerate configurations
# ------------------------------------------------------------------------------------------------


def _duplicates(out: list[Case]) -> None:
    for seed in range(6):
        rng = np.random.default_rng(10000 + seed)
        p = rng.standard_normal(2)
        k = (1, 2, 5, 10, 30, 200)[seed]
        out.append(_case(f"repeated-point-x{k}-seed{seed}", "duplicates", np.tile(p, (k, 1)),
                         np.full(k, 1.0 if seed % 2 else -1.0)))
    for seed in range(6):  # the same point with both labels: never separable
        rng = np.random.default_rng(10100 + seed)
        p = rng.standard_normal(2)
        X = np.vstack([p, p, rng.standard_normal((seed, 2)), p])
        y = np.r_[1.0, -1.0, _labels(rng, seed), 1.0]
        out.append(_case(f"both-labels-seed{seed}", "duplicates", X, y))
    for seed in range(4):  # many duplicates among random points
        rng = np.random.default_rng(10200 + seed)
        base = rng.standard_normal((5, 2))
        X = base[rng.integers(0, 5, size=30)]
        y = np.where(X @ rng.standard_normal(2) > 0, 1.0, -1.0)
        out.append(_case(f"resampled-seed{seed}", "duplicates", X, y))


def _collinear(out: list[Case]) -> None:
    for seed in range(8):  # on one line through the origin
        rng = np.random.default_rng(11000 + seed)
        u = rng.standard_normal(2)
        t = rng.uniform(-2, 2, size=3 + 4 * seed)
        y = np.where(t > 0, 1.0, -1.0) if seed % 2 else _labels(rng, len(t))
        out.append(_case(f"line-through-origin-seed{seed}", "collinear", t[:, None] * u, y))
    for seed in range(8):  # on one line missing the origin
        rng = np.random.default_rng(11100 + seed)
        u, v = rng.standard_normal(2), rng.standard_normal(2)
        t = rng.uniform(-2, 2, size=3 + 4 * seed)
        y = np.where(t > 0.2, 1.0, -1.0) if seed % 2 else _labels(rng, len(t))
        out.append(_case(f"line-off-origin-seed{seed}", "collinear", v + t[:, None] * u, y))
    # Axis-aligned lines: exact products, exact ties.
    out.append(_case("x-axis", "collinear", [[1, 0], [2, 0], [-1, 0], [3, 0]], [1, 1, -1, -1]))
    out.append(_case("y=1", "collinear", [[0, 1], [1, 1], [-1, 1], [2, 1]], [1, -1, 1, -1]))


def _origin(out: list[Case]) -> None:
    out.append(_case("origin-alone+", "origin", [[0, 0]], [1]))
    out.append(_case("origin-alone-", "origin", [[0, 0]], [-1]))
    out.append(_case("origin-twice", "origin", [[0, 0], [0, 0]], [1, -1]))
    for seed in range(5):
        rng = np.random.default_rng(12000 + seed)
        X = rng.standard_normal((4 + 3 * seed, 2))
        X[seed % len(X)] = 0.0
        y = np.where(X @ [1.0, -0.5] > 0, 1.0, -1.0)
        out.append(_case(f"origin-among-seed{seed}", "origin", X, y))
    out.append(_case("origin-first", "origin", [[0, 0], [1, 1], [-1, 2]], [1, 1, -1]))
    out.append(_case("negative-zero", "origin", [[-0.0, 1.0], [1.0, -0.0], [-0.0, -0.0]], [-1, -1, 1]))


# ------------------------------------------------------------------------------------------------
# Magnitudes at the ends of the float range
# ------------------------------------------------------------------------------------------------


def _magnitudes(out: list[Case]) -> None:
    for scale in (1e-150, 1e-200, 1e-300):
        for seed in range(4):
            rng = np.random.default_rng(13000 + seed)
            n = (4, 9, 20, 50)[seed]
            X = rng.standard_normal((n, 2))
            if seed % 2:
                X = np.round(X * 3)  # integer patterns at that scale: exact ties survive scaling
            y = np.where(X @ [1.0, 0.7] > 0, 1.0, -1.0) if seed < 2 else _labels(rng, n)
            out.append(_case(f"scale{scale:g}-seed{seed}", "tiny", X * scale, y))
    # Subnormals: integer multiples of 2⁻¹⁰⁷⁴ (5e-324). Every product underflows to 0 in floats.
    tiny = 2.0**-1074
    for seed in range(6):
        rng = np.random.default_rng(13100 + seed)
        n = (3, 5, 8, 12, 20, 30)[seed]
        X = rng.integers(-6, 7, size=(n, 2)).astype(float) * tiny
        y = np.where(X @ [1.0, 2.0] > 0, 1.0, -1.0) if seed % 2 else _labels(rng, n)
        out.append(_case(f"subnormal-seed{seed}", "subnormal", X, y))
    out.append(_case("subnormal-wedge", "subnormal", [[3 * tiny, 3 * tiny], [2 * tiny, 3 * tiny]], [1, -1]))
    out.append(_case("1e-310-mixed", "subnormal", [[1e-310, 2e-310], [-3e-310, 1e-309], [2e-320, -1e-310]], [1, -1, 1]))
    for seed in range(5):
        rng = np.random.default_rng(13200 + seed)
        n = (3, 6, 10, 15, 20)[seed]  # few points: the weights stay far below overflow
        X = rng.standard_normal((n, 2)) * 1e150
        y = np.where(X @ [0.3, -1.0] > 0, 1.0, -1.0) if seed % 2 else _labels(rng, n)
        out.append(_case(f"scale1e150-seed{seed}", "huge", X, y))
    for seed in range(6):
        rng = np.random.default_rng(13300 + seed)
        n = (3, 5, 8, 12, 20, 40)[seed]
        X = rng.standard_normal((n, 2)) * rng.choice([1e-8, 1e8], size=(n, 2))
        y = np.where(X @ [1.0, 1.0] > 0, 1.0, -1.0) if seed % 2 else _labels(rng, n)
        out.append(_case(f"mixed-1e-8-1e8-seed{seed}", "mixed-scale", X, y))
    out.append(_case("mixed-by-hand", "mixed-scale", [[1e8, 1e-8], [1e-8, -1e8], [-1e8, 1e-8], [1e-8, 1e8]], [1, 1, -1, -1]))


# ------------------------------------------------------------------------------------------------
# The course's own data sets
# ------------------------------------------------------------------------------------------------


def _course(out: list[Case]) -> None:
    for gate in ("and", "or", "nand", "nor"):
        X, y = logic_gate(gate)
        out.append(_case(gate, "logic-gates", X, y))
        out.append(_case(f"{gate}-pm1", "logic-gates", 2 * X - 1, y))  # the ±1 encoding
    X, y = xor()
    out.append(_case("xor", "xor", X, y))
    out.append(_case("xor-pm1", "xor", 2 * X - 1, y))
    out.append(_case("xor-shifted", "xor", X + 0.5, y))
    for k in (0, 1, 2, 3, 4, 5, 6, 10, 20, 52):
        X, y = narrow_wedge(k)
        # 2^(k+2) + 1 mistakes at two points a sweep: the small wedges run to convergence.
        out.append(_case(f"narrow_wedge({k})", "narrow-wedge", X, y, 2**(k + 1) + 10 if k <= 6 else MAX_EPOCHS))
    pairs = (("setosa", "versicolor"), ("versicolor", "virginica"), ("setosa", "virginica"))
    for pos, neg in pairs:
        for feats in ((0, 1), (2, 3), (0, 2), (1, 3)):
            X, y = iris_pair(pos, neg, feats)
            out.append(_case(f"{pos}-vs-{neg}{feats}", "iris", X, y, 20))


def _regressions(out: list[Case]) -> None:
    """Data sets that once broke the module, kept as they were found (tests/playground/*.json)."""
    found = json.loads((Path(__file__).parent / "wolfe_degenerate.json").read_text())
    for s in found["sets"]:
        out.append(_case(s["name"], "wolfe-degenerate", s["X"], s["y"]))


def cases() -> list[Case]:
    """Every data set of the parity test, in a fixed order."""
    out: list[Case] = []
    for build in (_uniform, _gaussian, _planted, _integer, _perpendicular, _decimal, _duplicates,
                  _collinear, _origin, _magnitudes, _course, _lifted_boundary, _regressions):
        build(out)
    _on_boundary(out, near=False)
    _on_boundary(out, near=True)
    names = [c.name for c in out]
    assert len(set(names)) == len(names), "case names must be unique"
    return out


@dataclass(frozen=True)
class AimCase:
    """A data set for the Margin Perceptron with its own γ and τ: a probe point within an ulp or
    two of the aim ``z·w = τγ‖w‖`` of the first weights ``w₁ = y₁x₁``."""

    case: Case
    gamma: float
    target: float


def aim_cases() -> list[AimCase]:
    """Probes at the Margin Perceptron's threshold, where only exact arithmetic decides.

    w₁ = (3, 4) has ‖w₁‖ = 5 exactly, so a probe z with z·w₁ within rounding of 5·τγ is tested
    at its threshold; τγ is the exact product of two floats (0.3·γ is not a float), which the
    JavaScript must use as the core does, not its rounding.
    """
    out = []
    for target in (0.5, 0.3, 0.9, 0.1):
        for gamma in (1.0, 0.7, 10 / 3, 1e-3, 3e-200):
            aim = target * gamma  # rounded: the probes sit around it, the exact aim among them
            x1 = 5 * aim / 3
            x2 = 5 * aim / 4
            probes = [(x1, 0.0), (math.nextafter(x1, math.inf), 0.0), (math.nextafter(x1, -math.inf), 0.0),
                      (0.0, x2), (0.0, math.nextafter(x2, -math.inf)), (aim, aim / 2)]
            for k, p in enumerate(probes):
                sign = -1.0 if k % 2 else 1.0  # labels of both kinds: z = y x
                X = np.array([[3.0, 4.0], [sign * p[0], sign * p[1]], [6.0, 8.0]])
                name = f"aim-target{target}-gamma{gamma:g}-probe{k}"
                out.append(AimCase(_case(name, "margin-aim", X, [1.0, sign, 1.0]), gamma, target))
    return out
