"""Figures and helpers for the chapter "When the data cannot be separated".

* :func:`tie_example`: three points that no hyperplane through the origin separates, on which
  the perceptron under ``tie="positive"`` (and, labels flipped, ``tie="negative"``) stops after
  an epoch without a mistake; ties counted as mistakes, it errs in every epoch.
* :func:`xor_cycle` applies :func:`perceptron_core.find_cycle` (the first repeat of a run's
  state, found exactly) to XOR.
* :func:`iris_mm` and :func:`draw_never_settles`: the perceptron on XOR and on the inseparable
  Iris pair, measured in whole millimetres so that the run is exact.
* Balcan's bound ``M ≤ (R/γ)² + (2/γ)·TD_γ``: its mathematics is in
  :mod:`perceptron_core.bounds` (``deviations``, ``mistake_deviation``, ``solved_hinge_bound``,
  ``freund_schapire_bound``, ``square_deviation``, ``bound_at``, ``best_gamma``,
  ``best_bound``), imported here under the same names for the chapter's cells;
  :func:`check_hinge_proof` and :func:`random_hinge_checks` recompute every step of the proof
  on runs, and :data:`FS_EXAMPLE` holds many small deviations on which Freund and Schapire's
  form is the larger of the two.
* :func:`draw_noise`: cumulative mistakes against the bound, with a label-noise slider.
* :func:`ways_data`, :func:`ways_out`: test errors of the last iterate, the averaged and the
  voted perceptron.
* :func:`naive_dual_mistakes`: the dual perceptron with its scores added up in floating point,
  which can part ways with the perceptron (:data:`NAIVE_DUAL_EXAMPLE`); the package's
  ``kernel_perceptron`` does not.
* :data:`RBF_WIDTHS`: the widths of the Gaussian kernel in the chapter's exercise.

T is the number of passes (epochs) throughout, as in the book's notation.

Every expensive run is cached with :func:`functools.lru_cache`, so a redraw only re-plots.
"""

from __future__ import annotations

import math
import warnings
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike, NDArray

from .._validation import check_positive, check_vector, check_X_y
from ..algorithms import ConvergenceWarning, PerceptronResult, find_cycle, perceptron
# The mathematics of the chapter lives in the core; the chapter reaches it through this module too.
from ..bounds import (
    BestBound,
    BestGamma,
    best_bound,
    best_gamma,
    bound_at,
    deviations,
    freund_schapire_bound,
    hinge_loss_bound,
    mistake_deviation,
    solved_hinge_bound,
    square_deviation,
)
from ..data import flip_labels, iris_pair, planted, xor
from ..geometry import radius
from ..variants import averaged_perceptron, kernel_perceptron, voted_perceptron
from .plotting import NEGATIVE, POSITIVE, new_figure

__all__ = [
    "TIE_EPOCHS",
    "tie_example",
    "find_cycle",
    "xor_cycle",
    "iris_mm",
    "never_settles_run",
    "drift",
    "draw_never_settles",
    "deviations",
    "mistake_deviation",
    "solved_hinge_bound",
    "freund_schapire_bound",
    "FS_EXAMPLE",
    "square_deviation",
    "check_hinge_proof",
    "random_hinge_checks",
    "CHECK_TRIALS",
    "CHECK_MAX_PASSES",
    "CHECK_MAX_RATE",
    "BestGamma",
    "best_gamma",
    "bound_at",
    "BestBound",
    "best_bound",
    "noise_data",
    "noise_run",
    "draw_noise",
    "WAYS",
    "ways_data",
    "ways_out",
    "naive_dual_mistakes",
    "dual_comparison",
    "NAIVE_DUAL_EXAMPLE",
    "RBF_WIDTHS",
    "NEVER_SETTLES_ALT",
    "NOISE_ALT",
    "BENCH_CASES",
]

NOISE_N, NOISE_D, NOISE_GAMMA, PASSES = 200, 5, 0.1, 10
IRIS_EPOCHS = 1000
#: The cap on the epochs of the runs on :func:`tie_example`.
TIE_EPOCHS = 20
#: :func:`random_hinge_checks`: how many random noisy data sets, up to how many passes, and up
#: to what fraction of flipped labels.
CHECK_TRIALS, CHECK_MAX_PASSES, CHECK_MAX_RATE = 200, 4, 0.4
#: The "ways out" comparison: planted training and test points in dimension ``d`` with planted
#: margin ``margin``, a fraction ``rate`` of the training labels flipped, ``epochs`` epochs,
#: ``trials`` repetitions; the Iris splits take ``iris_train`` flowers of each species.
WAYS = {"n_train": 200, "n_test": 1000, "d": 10, "margin": 0.05, "rate": 0.1, "epochs": 10,
        "trials": 20, "iris_train": 25}
#: Freund and Schapire's bound against Balcan's on many small deviations: ``points`` examples,
#: each deviating by ``deviation`` at margin ``gamma``, radius ``R`` (R/γ = 10, deviations γ/10).
FS_EXAMPLE = {"R": 1.0, "gamma": 0.1, "points": 50, "deviation": 0.01}
#: Three points in one dimension, entries in tenths, on which a dual perceptron that adds its
#: scores in floating point parts ways with the perceptron: ``(X, y, epochs)``.
NAIVE_DUAL_EXAMPLE = ((0.1, 0.1, -0.2), (-1.0, 1.0, 1.0), 10)
#: The widths ``gamma`` of the Gaussian kernel tried in the exercise on Iris.
RBF_WIDTHS = (0.1, 1.0, 10.0)
NEVER_SETTLES_DATA = ("XOR", "Iris versicolor/virginica")
NEVER_SETTLES_ALT = (
    "The perceptron with an offset on {data} (Iris in whole millimetres): the weights after "
    "each mistake, and the mistakes made in each epoch, which never fall to zero."
)
NOISE_ALT = (
    f"Planted data, {NOISE_N} points in dimension {NOISE_D}, with a fraction {{rate}} of the "
    f"labels flipped (seed {{seed}}): the perceptron's cumulative mistakes over {PASSES} passes "
    "against Balcan's bound for the planted u, paid again on every pass; and the bound after "
    f"{PASSES} passes as a function of gamma, smallest at the marked gamma."
)
_BOUND_COLOR, _ORANGE = "#555555", "#ff7f0e"


def _quiet_perceptron(X: NDArray, y: NDArray, **kwargs: object) -> PerceptronResult:
    """:func:`perceptron` without the warning that is the point of this chapter."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return perceptron(X, y, **kwargs)


# --------------------------------------------------------------------------------------------
# The perceptron never settles
# --------------------------------------------------------------------------------------------


def tie_example() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Three points that no hyperplane through the origin separates, where a tie ends a run.

    ``(1, 0)`` and ``(−1, 0)`` are labelled +1 and ``(0, 1)`` is labelled −1. The two positive
    points are opposite, so every ``w`` gives one of them a score ``≤ 0``: no ``w`` has
    ``yᵢ w·xᵢ > 0`` for all i (the weights ½, ½, 0 are a certificate). Under
    ``tie="positive"`` and without an offset, the perceptron errs once, on ``(0, 1)``, which sets
    ``w = (0, −1)``; then both positive points score exactly 0, which that rule calls +1, and
    the next epoch passes without a mistake. With the labels flipped, ``tie="negative"`` does the
    same. Counting ties as mistakes (``tie="mistake"``), every epoch errs.
    """
    return np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]]), np.array([1.0, 1.0, -1.0])


@lru_cache(maxsize=4)
def xor_cycle(epochs: int = 6) -> dict[str, object]:
    """The perceptron with an offset on XOR for ``epochs`` epochs, and its cycle.

    Returns ``mistakes`` (all of them), ``start`` and ``period`` (in mistakes) of the first
    repeated state, ``thetas`` (the distinct weights ``(w₁, w₂, b)`` of one period, as tuples of
    ints) and ``per_epoch`` (mistakes in each epoch). The points are 0/1 and the weights small
    integers, so every product is exact.
    """
    X, y = xor()
    res = _quiet_perceptron(X, y, offset=True, max_epochs=epochs, record=True)
    start, period = find_cycle(res, len(y))
    h = res.history
    thetas = [tuple(int(v) for v in np.r_[h.weights[k], h.offsets[k]]) for k in range(start, start + period)]
    return {
        "mistakes": res.mistakes,
        "start": start,
        "period": period,
        "thetas": thetas,
        "per_epoch": np.bincount(h.epochs, minlength=epochs + 1)[1:],
    }


def iris_mm() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Iris versicolor against virginica, all four measurements in whole millimetres.

    The data set gives them in centimetres to one decimal, which binary floating point cannot
    hold exactly; ten times them, rounded, are integers, so every sum a perceptron run forms
    (below 2⁵³) is exact and a state repeats in the floating-point run exactly when it repeats
    in exact arithmetic.
    """
    X, y = iris_pair("versicolor", "virginica")
    return np.round(10.0 * X), y


@lru_cache(maxsize=4)
def never_settles_run(data: str) -> tuple[PerceptronResult, NDArray[np.int64], int]:
    """The recorded run with an offset on ``data`` (one of :data:`NEVER_SETTLES_DATA`), the
    mistakes made in each epoch, and the number of examples. XOR runs 6 epochs, the Iris pair
    (in whole millimetres, :func:`iris_mm`) :data:`IRIS_EPOCHS`."""
    if data == "XOR":
        X, y = xor()
        epochs = 6
    elif data == "Iris versicolor/virginica":
        X, y = iris_mm()
        epochs = IRIS_EPOCHS
    else:
        raise ValueError(f"data must be one of {NEVER_SETTLES_DATA}, got {data!r}.")
    res = _quiet_perceptron(X, y, offset=True, max_epochs=epochs, record=True)
    return res, np.bincount(res.history.epochs, minlength=epochs + 1)[1:], len(y)


def drift(res: PerceptronResult, epochs: tuple[int, ...]) -> list[dict[str, float]]:
    """Where a recorded run with an offset stands at the end of each of ``epochs``.

    Returns one dict per epoch e: ``epoch``, ``b`` (the offset) and ``norm_w`` (``‖w‖``) after
    the last mistake made in epochs 1 to e (0 and 0 if there was none).
    """
    h = res.history
    if h is None:
        raise ValueError("drift needs the run's history; run perceptron(..., record=True).")
    rows = []
    for e in epochs:
        k = int(np.searchsorted(h.epochs, e, side="right")) - 1  # last mistake by epoch e
        b = float(h.offsets[k]) if k >= 0 else 0.0
        norm = float(np.linalg.norm(h.weights[k])) if k >= 0 else 0.0
        rows.append({"epoch": int(e), "b": b, "norm_w": norm})
    return rows


@lru_cache(maxsize=4)
def _never_settles_cycle(data: str) -> tuple[int, int] | None:
    res, _, n = never_settles_run(data)
    return find_cycle(res, n)


def draw_never_settles(data: str) -> Figure:
    """Left: the weights (and offset) after each mistake. Right: mistakes in each epoch."""
    res, per_epoch, _ = never_settles_run(data)
    h = res.history
    fig, (ax, ax2) = new_figure(2, width=8.4, height=4.4)
    # Axes narrow enough that the left panel, its title wider than its Axes, fits a phone; room
    # below them for the legend, which would hide the XOR case's weights inside the Axes.
    fig.subplots_adjust(left=0.11, right=0.975, bottom=0.27, wspace=0.38)
    k = np.arange(1, res.mistakes + 1)
    shown = min(res.mistakes, 24 if data == "XOR" else 4000)
    colors = [POSITIVE, NEGATIVE, _ORANGE, "#2ca02c", "#9467bd"]
    for j in range(h.weights.shape[1]):
        ax.plot(k[:shown], h.weights[:shown, j], "-", lw=1, color=colors[j % 5],
                marker="o" if data == "XOR" else None, ms=3, label=f"$w_{j + 1}$")
    ax.plot(k[:shown], h.offsets[:shown], "--", lw=1, color="black",
            marker="s" if data == "XOR" else None, ms=3, label="$b$")
    ax.set_xlabel("mistakes $k$")
    ax.set_ylabel("weight after mistake $k$")
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=3)
    cyc = _never_settles_cycle(data)
    title = (f"{data}: state repeats every {cyc[1]} mistakes" if cyc is not None
             else f"{data}: first {shown} mistakes, no repeat")
    ax.set_title(title, fontsize=10)
    epochs = np.arange(1, len(per_epoch) + 1)
    ax2.plot(epochs, per_epoch, "o-" if data == "XOR" else "-", ms=4, lw=1, color=NEGATIVE)
    ax2.set_ylim(0, per_epoch.max() * 1.15 + 0.5)
    ax2.set_xlabel("epoch")
    ax2.set_ylabel("mistakes in the epoch")
    ax2.set_title(f"never 0: at least {per_epoch.min()} per epoch, {res.mistakes} in all",
                  fontsize=10)
    return fig


# --------------------------------------------------------------------------------------------
# Balcan's bound
# --------------------------------------------------------------------------------------------


def check_hinge_proof(X: ArrayLike, y: ArrayLike, u: ArrayLike, gamma: float,
                      run: PerceptronResult, passes: int) -> dict[str, object]:
    """Every step of the proof of Balcan's bound, recomputed on a recorded run of at most
    ``passes`` epochs, with plain numpy from the weights after each mistake.

    Returns a dict of booleans, one per claim: ``progress`` (``w_k·u ≥ γk − Σ`` of the
    deviations of the first k mistakes, at every k), ``growth`` (``‖w_k‖² ≤ kR²`` at every k),
    ``paid`` (that sum is at most ``T·TD_γ``), ``sharp``, ``solved``, ``balcan`` and
    ``freund_schapire`` (the run's mistakes are within each form of the bound), and the numbers
    ``mistakes``, ``sharp_bound`` (the solved form with the deviation paid by the mistakes),
    ``solved_bound``, ``balcan_bound`` and ``fs_bound`` for T passes. Comparisons allow a
    relative rounding slack of 1e-9.
    """
    X, y = check_X_y(X, y)
    if run.history is None:
        raise ValueError("check_hinge_proof needs the run's history; run perceptron(..., record=True).")
    u = check_vector(u, X.shape[1], "u")
    u = u / float(np.linalg.norm(u))
    gamma = check_positive(gamma, "gamma")
    R = float(np.max(np.linalg.norm(X, axis=1)))
    dev = np.maximum(0.0, gamma - y * (X @ u))
    td, D = float(dev.sum()), float(np.sqrt(np.sum(dev * dev)))
    h = run.history
    M = run.mistakes
    k = np.arange(1, M + 1)
    paid = np.cumsum(dev[h.indices]) if M else np.zeros(0)
    slack = 1e-9 * (1.0 + R * k)
    sharp = solved_hinge_bound(R, gamma, float(paid[-1]) if M else 0.0)
    solved = solved_hinge_bound(R, gamma, passes * td)
    balcan = hinge_loss_bound(R, gamma, passes * td)
    fs = freund_schapire_bound(R, gamma, math.sqrt(passes) * D)
    within = 1.0 + 1e-9
    return {
        "progress": bool(np.all(h.weights @ u >= gamma * k - paid - slack)),
        "growth": bool(np.all(np.einsum("ij,ij->i", h.weights, h.weights) <= k * R * R * within)),
        "paid": bool(M == 0 or paid[-1] <= passes * td * within + 1e-12),
        "sharp": M <= sharp * within,
        "solved": M <= solved * within,
        "balcan": M <= balcan * within,
        "freund_schapire": M <= fs * within,
        "mistakes": M,
        "sharp_bound": sharp,
        "solved_bound": solved,
        "balcan_bound": balcan,
        "fs_bound": fs,
    }


_CLAIMS = ("progress", "growth", "paid", "sharp", "solved", "balcan", "freund_schapire")


@lru_cache(maxsize=4)
def random_hinge_checks(trials: int = CHECK_TRIALS, seed: int = 0) -> dict[str, object]:
    """:func:`check_hinge_proof` on ``trials`` random noisy data sets.

    Each trial draws planted data (5 to 60 points in dimension 1 to 6, radius 0.5 to 3, planted
    margin 2 % to 100 % of the radius), flips a fraction of up to :data:`CHECK_MAX_RATE` of the
    labels, runs the perceptron for 1 to :data:`CHECK_MAX_PASSES` epochs and checks the proof
    for the planted ``u`` (in half the trials perturbed at random) at a γ anywhere from 0.05 to
    2 times the planted margin.

    Returns ``trials``, ``failures`` (for each claim, the number of trials where it failed),
    ``unfinished`` (trials whose run still made a mistake in its last epoch) and ``worst`` (the
    largest ratio of a run's mistakes to its sharp bound).
    """
    rng = np.random.default_rng(seed)
    failures = dict.fromkeys(_CLAIMS, 0)
    worst, unfinished = 0.0, 0
    for _ in range(trials):
        n, d = int(rng.integers(5, 61)), int(rng.integers(1, 7))
        R = float(rng.uniform(0.5, 3.0))
        margin = float(rng.uniform(0.02, 1.0)) * R
        data_seed = int(rng.integers(2**31 - 1))
        X, y, u = planted(n, d, margin, R, seed=data_seed)
        y = flip_labels(y, float(rng.uniform(0.0, CHECK_MAX_RATE)), seed=data_seed)
        if rng.random() < 0.5:
            u = u + 0.3 * rng.standard_normal(d)
            if np.linalg.norm(u) < 1e-3:
                u = np.ones(d)
        passes = int(rng.integers(1, CHECK_MAX_PASSES + 1))
        gamma = float(rng.uniform(0.05, 2.0)) * margin
        run = _quiet_perceptron(X, y, max_epochs=passes, record=True)
        unfinished += not run.converged
        c = check_hinge_proof(X, y, u, gamma, run, passes)
        for claim in _CLAIMS:
            failures[claim] += not c[claim]
        if c["sharp_bound"] > 0:
            worst = max(worst, c["mistakes"] / c["sharp_bound"])
    return {"trials": trials, "failures": failures, "unfinished": unfinished, "worst": worst}


# --------------------------------------------------------------------------------------------
# Figure: label noise against the bound
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def noise_data(rate: float, seed: int = 0) -> tuple[NDArray, NDArray, NDArray]:
    """Planted data (:data:`NOISE_N` points in dimension :data:`NOISE_D`, margin
    :data:`NOISE_GAMMA`, R = 1) with ``round(rate·n)`` labels flipped.

    Returns ``X``, the noisy labels and the planted unit vector ``u``.
    """
    X, y, u = planted(NOISE_N, NOISE_D, NOISE_GAMMA, 1.0, seed=seed)
    return X, flip_labels(y, rate, seed=seed), u


@lru_cache(maxsize=64)
def noise_run(rate: float, seed: int = 0) -> dict[str, object]:
    """The run of :data:`PASSES` epochs on :func:`noise_data` and the bound for the planted u.

    Keys: ``run`` (recorded), ``rounds`` (round of each mistake, from 1), ``R``, ``best`` (one
    :class:`BestGamma` per pass count p = 1..T), ``after_pass`` (cumulative mistakes at the end
    of each pass), ``margins`` (unit margins of the planted u).
    """
    X, y, u = noise_data(rate, seed)
    n = len(y)
    res = _quiet_perceptron(X, y, max_epochs=PASSES, record=True)
    h = res.history
    rounds = (h.epochs - 1) * n + h.indices + 1
    R = radius(X)
    best = [best_gamma(X, y, u, R=R, passes=p) for p in range(1, PASSES + 1)]
    after = np.searchsorted(rounds, np.arange(1, PASSES + 1) * n, side="right")
    return {"run": res, "rounds": rounds, "R": R, "best": best, "after_pass": after,
            "margins": y * (X @ u)}


def draw_noise(rate: float, seed: int) -> Figure:
    """Left: cumulative mistakes against rounds, with the bound for p passes at the end of pass
    p. Right: the bound for all passes as a function of γ, for the planted u."""
    r = noise_run(rate, seed)
    res, rounds, best = r["run"], r["rounds"], r["best"]
    n = NOISE_N
    fig, (ax, ax2) = new_figure(2, width=8.6, height=4.6)
    # Room below the Axes for their legends: inside, they hid bound markers and the bound's
    # minimum in some frames.
    fig.subplots_adjust(bottom=0.3, top=0.92)
    ax.step(np.r_[0, rounds, PASSES * n], np.r_[0, np.arange(1, res.mistakes + 1), res.mistakes],
            where="post", color=NEGATIVE, lw=1.5, label="mistakes so far")
    ends = np.arange(1, PASSES + 1) * n
    ax.plot(ends, [b.bound for b in best], "s--", ms=4, color=_BOUND_COLOR, lw=1,
            label="Balcan's bound for $p$ passes")
    ax.plot(ends, ends, ":", color=POSITIVE, lw=1, label="trivial bound: every round")
    top = max(res.mistakes, best[-1].bound) * 1.1 + 1
    ax.set_ylim(0, top)
    ax.set_xlim(0, PASSES * n)
    ax.set_xlabel("rounds (examples presented)")
    ax.set_ylabel("cumulative mistakes")
    ax.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.19))
    ax.set_title(f"noise {rate:.2f}: {res.mistakes} mistakes ≤ bound {best[-1].bound:.0f}",
                 fontsize=10)
    m, R = r["margins"], r["R"]
    gammas = np.geomspace(0.02, 1.5, 120)
    ax2.plot(gammas, [bound_at(m, R, g, PASSES) for g in gammas], color=_BOUND_COLOR, lw=1.2,
             label=f"bound for {PASSES} passes")
    ax2.axhline(res.mistakes, color=NEGATIVE, lw=1, label="mistakes of the run")
    ax2.plot([best[-1].gamma], [best[-1].bound], "o", ms=7, mfc="none", mec="black",
             label=f"best γ = {best[-1].gamma:.3f}")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    # The same decades for every frame, so the mistakes line moves and the axes do not.
    ax2.set_ylim(1, 1e4)
    ax2.set_xlabel(r"$\gamma$ (planted $u$)")
    ax2.legend(fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.19), ncol=2)
    ax2.set_title("choosing γ: one u, many bounds", fontsize=10)
    return fig


# --------------------------------------------------------------------------------------------
# Ways out: last iterate, averaged, voted
# --------------------------------------------------------------------------------------------


def _errors(X_tr, y_tr, X_te, y_te, epochs: int, offset: bool) -> tuple[float, float, float]:
    avg = averaged_perceptron(X_tr, y_tr, epochs=epochs, offset=offset)
    vote = voted_perceptron(X_tr, y_tr, epochs=epochs, offset=offset)
    last = _quiet_perceptron(X_tr, y_tr, offset=offset, max_epochs=epochs)
    return (float(np.mean(last.predict(X_te) != y_te)), float(np.mean(avg.predict(X_te) != y_te)),
            float(np.mean(vote.predict(X_te) != y_te)))


def ways_data(seed: int = 0, rate: float = WAYS["rate"]) -> tuple[NDArray, NDArray, NDArray, NDArray]:
    """The noisy planted training set and the clean test set of the "ways out" comparison.

    One draw of ``planted(n_train + n_test, d, margin)`` (sizes from :data:`WAYS`, seed
    ``seed``): the first ``n_train`` points with a fraction ``rate`` of their labels flipped for
    training, the other ``n_test`` with their true labels for testing. Returns
    ``X_tr, y_tr, X_te, y_te``.
    """
    n = WAYS["n_train"]
    X, y, _ = planted(n + WAYS["n_test"], WAYS["d"], WAYS["margin"], 1.0, seed=seed)
    return X[:n], flip_labels(y[:n], rate, seed=seed), X[n:], y[n:]


@lru_cache(maxsize=8)
def ways_out(data: str, epochs: int = WAYS["epochs"], trials: int = WAYS["trials"],
             rate: float = WAYS["rate"]) -> dict[str, NDArray]:
    """Test errors of the last iterate, the averaged and the voted perceptron over ``trials``.

    ``data="planted"``: :func:`ways_data` with seed s in trial s. ``data="iris"``: versicolor
    against virginica, all four features, with an offset; trial s splits the 100 flowers at
    random (seed s), ``WAYS["iris_train"]`` of each species for training and the rest for
    testing, shuffles the training order and centres both halves on the training mean.

    Returns arrays of length ``trials`` under ``last``, ``averaged``, ``voted``.
    """
    rows = []
    per_class = WAYS["iris_train"]
    for s in range(trials):
        if data == "planted":
            X_tr, y_tr, X_te, y_te = ways_data(s, rate)
            rows.append(_errors(X_tr, y_tr, X_te, y_te, epochs, False))
        elif data == "iris":
            X, y = iris_pair("versicolor", "virginica")
            rng = np.random.default_rng(s)
            # Shuffled: the file lists the species in blocks, and a cyclic run on sorted
            # data ends every epoch tuned to the last block.
            train = rng.permutation(np.r_[rng.permutation(np.flatnonzero(y > 0))[:per_class],
                                          rng.permutation(np.flatnonzero(y < 0))[:per_class]])
            test = np.setdiff1d(np.arange(len(y)), train)
            # Centred on the training mean: all measurements are positive and far from 0,
            # and an offset of the right size would take the run many epochs to build.
            mean = X[train].mean(axis=0)
            rows.append(_errors(X[train] - mean, y[train], X[test] - mean, y[test], epochs, True))
        else:
            raise ValueError(f"data must be 'planted' or 'iris', got {data!r}.")
    a = np.array(rows)
    return {"last": a[:, 0], "averaged": a[:, 1], "voted": a[:, 2]}


# --------------------------------------------------------------------------------------------
# The dual form in floating point
# --------------------------------------------------------------------------------------------


def _sum_in_order(terms) -> float:
    """Floats added one by one, left to right (IEEE arithmetic: the same result on every machine)."""
    total = 0.0
    for term in terms:
        total += term
    return total


def naive_dual_mistakes(X: ArrayLike, y: ArrayLike, epochs: int,
                        tie: str = "mistake") -> list[int]:
    """The examples of the mistakes of a dual perceptron written the obvious way, in order.

    It keeps the counts ``αⱼ`` and computes each score as the floating-point sum
    ``Σⱼ αⱼ yⱼ (xⱼ·xᵢ)`` of the Gram matrix's entries, then reads its sign by the tie rule
    (``"mistake"``, ``"positive"``: +1 at 0, ``"negative"``: −1 at 0). These are the
    perceptron's numbers added in another order, so a score within rounding of 0 can come out
    with the other sign; :func:`~perceptron_core.kernel_perceptron` decides such signs exactly
    and does not part ways with :func:`~perceptron_core.perceptron`. It stops after a sweep
    without a mistake, or after ``epochs`` sweeps.

    Every sum is a plain Python loop in index order, not numpy's: BLAS and numpy's SIMD paths
    add in orders that differ between machines, and the roundings of this naive form, which
    the book counts, must be the same everywhere.
    """
    X, y = check_X_y(X, y)
    if tie not in ("mistake", "positive", "negative"):
        raise ValueError(f"tie must be 'mistake', 'positive' or 'negative', got {tie!r}.")
    rows, labels = X.tolist(), y.tolist()
    G = [[_sum_in_order(p * q for p, q in zip(a, b)) for b in rows] for a in rows]
    alpha = [0.0] * len(labels)
    mistakes: list[int] = []
    for _ in range(epochs):
        clean = True
        for i in range(len(labels)):
            score = _sum_in_order(alpha[j] * labels[j] * G[j][i] for j in range(len(labels)))
            if score == 0.0:
                wrong = tie == "mistake" or (tie == "positive") == (y[i] < 0)
            else:
                wrong = y[i] * score < 0
            if wrong:
                alpha[i] += 1
                mistakes.append(i)
                clean = False
        if clean:
            break
    return mistakes


@lru_cache(maxsize=4)
def dual_comparison(trials: int = 300, seed: int = 0, epochs: int = 10) -> dict[str, int]:
    """The perceptron against two dual forms on ``trials`` random data sets in tenths.

    Each data set has 2 to 8 points in dimension 1 to 3 with entries in {−0.3, −0.2, …, 0.3}
    (which binary floating point does not hold exactly, and whose sums tie often) and random
    labels. Under each tie rule it runs :func:`~perceptron_core.perceptron` (no offset),
    :func:`~perceptron_core.kernel_perceptron` with ``kernel="linear"`` and
    :func:`naive_dual_mistakes`, for up to ``epochs`` epochs, and compares the examples of
    their mistakes, in order.

    Returns ``runs`` (trials × 3 tie rules), ``kernel_parted`` and ``naive_parted`` (the runs
    in which each dual form's mistakes differ from the perceptron's).
    """
    rng = np.random.default_rng(seed)
    runs = kernel_parted = naive_parted = 0
    for _ in range(trials):
        n, d = int(rng.integers(2, 9)), int(rng.integers(1, 4))
        X = rng.integers(-3, 4, size=(n, d)) / 10.0
        y = rng.choice([-1.0, 1.0], size=n)
        for tie in ("mistake", "positive", "negative"):
            primal = _quiet_perceptron(X, y, max_epochs=epochs, record=True, tie=tie)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                dual = kernel_perceptron(X, y, kernel="linear", max_epochs=epochs, tie=tie)
            indices = primal.history.indices.tolist()
            runs += 1
            kernel_parted += dual.mistake_indices.tolist() != indices
            naive_parted += naive_dual_mistakes(X, y, epochs, tie) != indices
    return {"runs": runs, "kernel_parted": kernel_parted, "naive_parted": naive_parted}


#: The chapter's explore() calls, as ``(name, draw, params)``: timed by bench/bench_redraw.py,
#: and each redrawn in place and compared with a fresh drawing by tests/drawing/test_render.py.
BENCH_CASES = [
    ("nonseparable-never-settles", draw_never_settles, {"data": list(NEVER_SETTLES_DATA)}),
    ("nonseparable-noise", draw_noise, {"rate": (0.0, 0.2, 0.02), "seed": [0, 1, 2]}),
]
