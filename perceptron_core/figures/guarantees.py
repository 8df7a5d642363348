"""Figures and tables of the chapter "From mistakes to guarantees".

* :func:`adversary_table`: the adversary game against the perceptron under each tie rule and
  two learners that are not perceptrons;
* :func:`off_by_one_stream` and :func:`off_by_one`: a stream on which a sample of M windows
  (Balcan's notes) runs out one example before any hypothesis is accepted;
* :func:`band_error_check`: the closed-form error of the band distribution against sampling
  from an independent sampler;
* :func:`simulation`, :func:`draw`, :func:`slider_summary`: Balcan's conversion repeated many
  times on :class:`~perceptron_core.guarantees.BandDistribution`, for the slider figure (ε, δ),
  with :func:`perceptron_core.guarantees.failure_quantile` to judge a failure count and
  :func:`simulation_agreement` to compare the vectorized runs with the online perceptron's;
* :func:`comparison`: the perceptron route against the LP route, samples, time and guarantee,
  with :func:`perceptron_core.guarantees.worst_consistent_error` for the LP's samples.

Simulations are cached on the slider values, so a redraw only re-plots.
"""

from __future__ import annotations

import math
import time
from functools import lru_cache

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from numpy.typing import NDArray

from ..bounds import online_to_pac
from ..guarantees import (
    BandDistribution,
    ConversionRun,
    ConversionSimulation,
    HalvingLearner,
    NearestNeighbourLearner,
    PerceptronLearner,
    adversary_game,
    angle,
    convert_stream,
    failure_quantile,
    lp_route,
    sign_vectors,
    simulate_conversion,
    vc_sample_size,
    worst_consistent_error,
)
from . import sliders
from .plotting import new_figure

__all__ = [
    "GAMMA",
    "R",
    "REPEATS",
    "SEED",
    "EPSILONS",
    "DELTAS",
    "alt_text",
    "distribution",
    "learners",
    "adversary_table",
    "off_by_one_stream",
    "off_by_one",
    "band_error_check",
    "worst_consistent_error",
    "QUANTILE_LEVEL",
    "failure_quantile",
    "simulation_agreement",
    "VC_DIMS",
    "simulation",
    "slider_values",
    "slider_summary",
    "comparison",
    "draw",
    "BENCH_CASES",
]

#: The planted distribution of the simulations: margin γ = 0.1 on the unit circle, so the
#: mistake bound is M̄ = ⌊(1/0.1)²⌋ = 100 and the conversion tests at most 101 hypotheses.
GAMMA, R = 0.1, 1.0
#: Independent runs per slider frame, and the seed of the first frame's streams.
REPEATS, SEED = 2000, 0
#: Slider grids: 6 values of ε × 3 of δ = 18 frames (δ < ¼, where UML's theorem is stated).
EPSILONS = (0.05, 0.3, 0.05)
DELTAS = [0.05, 0.1, 0.2]
_DECIMALS = 6
#: A failure count is judged against the binomial quantile at 1 − QUANTILE_LEVEL: a procedure
#: whose failure probability is at most δ exceeds it with probability below QUANTILE_LEVEL.
QUANTILE_LEVEL = 1e-6
#: Dimensions at which the comparison quotes the VC sample size.
VC_DIMS = (10, 100)

def alt_text(epsilon: float, delta: float) -> str:
    """The figure's alt text at (ε, δ), with the numbers measured in that frame."""
    sim = simulation(epsilon, delta)
    rel = "at most" if sim.failure_rate <= sim.delta else "above"
    return (
        f"Balcan's conversion run {sim.repeats} times on a planted distribution with margin "
        f"{GAMMA:g}, with epsilon = {sim.epsilon:g} and delta = {sim.delta:g}. Left: the exact "
        f"true error of each run's output, sorted, against the line at epsilon; the runs above "
        f"the line are failures: {sim.failures} of {sim.repeats}, a rate of "
        f"{sim.failure_rate:.4f}, {rel} delta. Right: how many examples each run read (at most "
        f"{int(sim.examples.max())}), against the sample size that the proof allows, one window "
        f"for each of the at most {sim.plan.hypotheses} hypotheses: {sim.plan.sample_size}."
    )


def distribution() -> BandDistribution:
    """The chapter's planted distribution, ``BandDistribution(GAMMA, R)``."""
    return BandDistribution(GAMMA, R)


def learners(n: int) -> list:
    """Fresh learners for the adversary game with ``n`` rounds, in dimension ``n``: the perceptron
    under each tie rule, 1-nearest neighbour, and halving over the sign vectors of ℝⁿ."""
    return [PerceptronLearner("mistake"), PerceptronLearner("positive"),
            PerceptronLearner("negative"), NearestNeighbourLearner(), HalvingLearner(sign_vectors(n))]


def adversary_table(n: int = 9, R: float = 1.0) -> list[dict]:
    """The adversary game with ``n`` rounds (points ``R e₁, …, R eₙ``) against each of
    :func:`learners`.

    Returns
    -------
    list of dicts: ``learner`` (name), ``mistakes`` (forced), ``n``, ``margin`` (of u, measured
    on the game's data as ``min yᵢ u·xᵢ``, not taken from the theorem), ``radius`` (measured as
    ``max ‖xᵢ‖``), ``bound`` (the learner's own mistake bound on these data, or None: for the
    perceptron ``(radius/margin)²`` from the measured numbers, for halving ``log₂`` of the number
    of its hypotheses, none for 1-NN), ``labels`` (the labels as a string of + and −).
    """
    rows = []
    for learner in learners(n):
        hypotheses = learner.H.shape[0] if isinstance(learner, HalvingLearner) else None
        game = adversary_game(learner, n, R=R)
        margin = float(np.min(game.y * (game.X @ game.u)))
        radius = float(np.max(np.linalg.norm(game.X, axis=1)))
        if isinstance(learner, NearestNeighbourLearner):
            bound = None
        elif hypotheses is not None:
            bound = math.log2(hypotheses)
        else:
            bound = (radius / margin) ** 2
        rows.append({"learner": learner.name, "mistakes": game.mistakes, "n": n, "margin": margin,
                     "radius": radius, "bound": bound,
                     "labels": "".join("+" if v > 0 else "−" for v in game.y)})
    return rows


def off_by_one_stream(M: int, window: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A stream on which the perceptron (ties are mistakes) rejects M hypotheses as late as it can.

    ``M`` is the mistake bound (the chapter's M̄). The points are ``e₁, …, e_M`` of ℝᴹ, all
    labelled +1: radius 1, margin ``1/√M`` for ``u = Σ eᵢ/√M``, so ``(R/γ)² = M``. Point ``e_j`` first comes just after hypothesis ``h_j``
    has been right ``window − 1`` times in a row on repeats of earlier points (``h₁ = 0`` is
    wrong at once). Mistake j is then example ``1 + (j−1)·window``, and ``h_{M+1}`` needs
    ``window`` more examples: ``M·window + 1`` in all.
    """
    X = []
    for j in range(M):
        e = np.zeros(M)
        e[j] = 1.0
        X.append(e)
        if j < M - 1:
            # Repeats of earlier points, which the current hypothesis gets right.
            for t in range(window - 1):
                r = np.zeros(M)
                r[t % (j + 1)] = 1.0
                X.append(r)
    # Enough repeats for h_{M+1} to pass its window.
    for t in range(window):
        r = np.zeros(M)
        r[t % M] = 1.0
        X.append(r)
    X = np.array(X)
    return X, np.ones(len(X))


def off_by_one(M: int = 4, epsilon: float = 0.1, delta: float = 0.1) -> dict:
    """Balcan's sizes against the corrected ones on :func:`off_by_one_stream`; ``M`` is the
    mistake bound ``(R/γ)²`` of the stream (the chapter's M̄).

    Returns
    -------
    dict with Balcan's ``window_balcan = ⌈(1/ε) ln(M/δ)⌉`` and ``sample_balcan = M·window``, the
    stream built for that window (``stream_length``: ``M·window + 1`` examples), the runs on it
    with that sample (``run_balcan``, which outputs nothing) and with one more example
    (``run_plus_one``), the corrected plan ``plan = online_to_pac`` with its run on the same
    stream (``run_plan_here``: the stream ends before a window of the corrected length, so it
    outputs nothing), and its run on the stream built the same way for its own window
    (``run_plan``, which outputs ``h_{M+1}`` after ``M·plan.window + 1`` examples), with that
    stream's length ``plan_stream_length``.
    """
    window_b = math.ceil(math.log(M / delta) / epsilon)
    X, y = off_by_one_stream(M, window_b)
    run_b = convert_stream(zip(X, y), window_b, max_examples=M * window_b)
    run_more = convert_stream(zip(X, y), window_b, max_examples=M * window_b + 1)
    plan = online_to_pac(1.0, 1.0 / math.sqrt(M), epsilon, delta)
    run_here = convert_stream(zip(X, y), plan.window, max_examples=plan.sample_size)
    Xp, yp = off_by_one_stream(M, plan.window)
    run_p = convert_stream(zip(Xp, yp), plan.window, max_examples=plan.sample_size)
    return {"M": M, "window_balcan": window_b, "sample_balcan": M * window_b,
            "stream_length": len(y), "run_balcan": run_b, "run_plus_one": run_more,
            "plan": plan, "run_plan_here": run_here, "run_plan": run_p,
            "plan_stream_length": len(yp)}


def band_error_check(n: int = 200_000, seed: int = 0, angles: tuple[float, ...] = (
        0.0, 0.05, 0.1, 0.2, 0.5, 1.0, 1.5, 2.0, 2.5, math.pi)) -> list[dict]:
    """The band distribution's closed-form error against a Monte Carlo estimate.

    The sample comes from a sampler independent of :class:`BandDistribution`: ``n`` angles
    uniform on the whole circle, the points with ``|u·x| < γ`` rejected, the rest labelled by the
    sign of ``u·x`` (the uniform distribution on the circle conditioned on lying outside the
    band). For ``w`` at each angle θ from ``u`` it returns ``theta``, ``exact``
    (:meth:`BandDistribution.error`), ``estimate`` (the share of the sample ``w`` gets wrong),
    ``kept`` (the size of the sample) and ``z`` (the difference in standard errors of the
    estimate, with a floor of one example's share).
    """
    dist = distribution()
    rng = np.random.default_rng(seed)
    phi = rng.uniform(0.0, 2.0 * math.pi, size=n)
    X = dist.R * np.column_stack([np.cos(phi), np.sin(phi)])
    keep = np.abs(X[:, 0]) >= dist.gamma
    X = X[keep]
    y = np.sign(X[:, 0])
    rows = []
    for theta in angles:
        w = np.array([math.cos(theta), math.sin(theta)])
        estimate = float(np.mean(np.sign(X @ w) != y))
        exact = dist.error(w)
        se = max(math.sqrt(exact * (1 - exact) / len(y)), 1.0 / len(y))
        rows.append({"theta": theta, "exact": exact, "estimate": estimate, "kept": len(y),
                     "z": abs(estimate - exact) / se})
    return rows


def slider_values() -> tuple[list[float], list[float]]:
    """The values of ε and δ the figure's sliders offer."""
    return sliders.slider_values(EPSILONS), sliders.slider_values(DELTAS)


@lru_cache(maxsize=64)
def _simulation(epsilon: float, delta: float) -> ConversionSimulation:
    # One seed per frame, derived from the slider values, so frames are independent.
    seed = SEED + int(round(epsilon * 1000)) * 1000 + int(round(delta * 1000))
    return simulate_conversion(distribution(), epsilon, delta, repeats=REPEATS, seed=seed)


def simulation(epsilon: float, delta: float) -> ConversionSimulation:
    """The :data:`REPEATS` runs of the conversion at (ε, δ) on :func:`distribution` (cached)."""
    return _simulation(round(float(epsilon), _DECIMALS), round(float(delta), _DECIMALS))


def simulation_agreement(epsilon: float = 0.1, delta: float = 0.1, repeats: int = 100,
                         seed: int = 11) -> dict:
    """The vectorized simulation against :func:`convert_stream`, run by run, on the same streams.

    Draws ``repeats`` streams of ``(M+1)·window`` examples from :func:`distribution`, runs
    :func:`~perceptron_core.simulate_conversion` on all of them at once and the conversion with
    the package's online perceptron on each, and returns ``repeats`` and ``agree``: the runs in
    which the two read the same number of examples, make the same mistakes, both output a
    hypothesis, and give it the same true error.
    """
    dist = distribution()
    plan = online_to_pac(dist.R, dist.gamma, epsilon, delta)
    rng = np.random.default_rng(seed)
    phi, y = dist.sample_parts((repeats, plan.sample_size), rng)
    X = dist.points(phi, y)
    sim = simulate_conversion(dist, epsilon, delta, streams=(X, y))
    agree = 0
    for r in range(repeats):
        run = convert_stream(zip(X[r], y[r]), plan.window)
        agree += bool(run.output and run.mistakes == sim.mistakes[r]
                      and run.examples == sim.examples[r]
                      and math.isclose(dist.error(run.w), sim.errors[r], rel_tol=1e-9, abs_tol=1e-12))
    return {"repeats": repeats, "agree": agree}


def slider_summary() -> dict:
    """Every frame of the figure summed up for the prose.

    Returns
    -------
    dict with ``frames``, ``all_within`` (failure rate ≤ δ in every frame), ``below_quantile``
    (in every frame, the failures are at most :func:`failure_quantile` of the runs and δ),
    ``worst_ratio`` (the largest failure rate / δ), ``most_failures`` (the most failures in one
    frame), ``most_mistakes`` (over all runs), ``hypotheses`` (M + 1), ``always_output``.
    """
    eps, deltas = slider_values()
    sims = [simulation(e, d) for e in eps for d in deltas]
    return {
        "frames": len(sims),
        "all_within": all(s.failure_rate <= s.delta for s in sims),
        "below_quantile": all(s.failures <= failure_quantile(s.repeats, s.delta, QUANTILE_LEVEL)
                              for s in sims),
        "worst_ratio": max(s.failure_rate / s.delta for s in sims),
        "most_failures": max(s.failures for s in sims),
        "most_mistakes": int(max(s.mistakes.max() for s in sims)),
        "hypotheses": sims[0].plan.hypotheses,
        "always_output": all(bool(np.all(np.isfinite(s.errors))) for s in sims),
    }


def comparison(epsilon: float = 0.1, delta: float = 0.1, repeats: int = 200, seed: int = 1) -> dict:
    """The two routes to PAC on :func:`distribution`, ``repeats`` runs each.

    Returns
    -------
    dict with, for ``"perceptron"`` and ``"lp"``: ``samples`` (the sample size the guarantee
    asks for), ``used`` (mean examples read; the LP reads all of its sample), ``failures``
    (runs with true error > ε), ``mean_error``, ``max_error``, and ``seconds`` (mean wall-clock
    time of one run on this machine: a measurement, not a result). The perceptron's time is that
    of :func:`convert_stream` with the package's online perceptron, one run at a time. For the
    LP also ``worst_consistent`` (the largest, over the runs, of :func:`worst_consistent_error`
    on the run's sample: no separator consistent with any of the samples errs more) and
    ``max_angle`` (the largest angle between an LP output and u), and ``psi`` (= arcsin(γ/R),
    the angle within which a hypothesis has error 0).
    """
    dist = distribution()
    plan = online_to_pac(dist.R, dist.gamma, epsilon, delta)
    rng = np.random.default_rng(seed)
    p_err, p_used, p_time = [], [], []
    for _ in range(repeats):
        X, y = dist.sample(plan.sample_size, seed=rng)
        start = time.perf_counter()
        run: ConversionRun = convert_stream(zip(X, y), plan.window, max_examples=plan.sample_size)
        p_time.append(time.perf_counter() - start)
        p_err.append(dist.error(run.w))
        p_used.append(run.examples)
    l_err, l_time, l_worst, l_angle = [], [], [], []
    for r in range(repeats):
        lp_seed = int(rng.integers(2**31))
        lp = lp_route(dist, epsilon, delta, seed=lp_seed)
        l_err.append(lp.error)
        l_time.append(lp.seconds)
        X, y = dist.sample(lp.samples, seed=lp_seed)  # the sample the LP was given
        l_worst.append(worst_consistent_error(dist, X, y))
        l_angle.append(angle(lp.w, dist.u))
    m_vc = vc_sample_size(2, epsilon, delta)
    p_err, l_err = np.array(p_err), np.array(l_err)
    return {
        "perceptron": {"samples": plan.sample_size, "used": float(np.mean(p_used)),
                       "failures": int(np.sum(p_err > epsilon)), "mean_error": float(p_err.mean()),
                       "max_error": float(p_err.max()), "seconds": float(np.mean(p_time))},
        "lp": {"samples": m_vc, "used": float(m_vc), "failures": int(np.sum(l_err > epsilon)),
               "mean_error": float(l_err.mean()), "max_error": float(l_err.max()),
               "seconds": float(np.mean(l_time)), "worst_consistent": float(max(l_worst)),
               "max_angle": float(max(l_angle)), "psi": math.asin(dist.gamma / dist.R)},
        "repeats": repeats,
    }


def draw(epsilon: float = 0.1, delta: float = 0.1) -> Figure:
    """The conversion's outputs at (ε, δ): sorted true errors (left), examples read (right)."""
    sim = simulation(epsilon, delta)
    fig, (ax, ax2) = new_figure(2, width=8.8, height=3.6)
    fig.subplots_adjust(left=0.085, right=0.98, bottom=0.15, top=0.87, wspace=0.3)
    errs = np.sort(sim.errors)
    q = (np.arange(errs.size) + 0.5) / errs.size
    bad = errs > sim.epsilon
    ax.plot(q[~bad], errs[~bad], ".", ms=2, color="tab:blue", label="runs with error ≤ ε")
    ax.plot(q[bad], errs[bad], "o", ms=4, color="tab:red", label="failures: error > ε")
    ax.axhline(sim.epsilon, color="0.3", ls="--", lw=1.2, label=f"ε = {sim.epsilon:g}")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, max(0.35, 1.1 * float(errs.max())))
    ax.set_xlabel("runs, sorted by the error of their output")
    ax.set_ylabel("exact true error")
    ax.legend(loc="upper left", fontsize=9)
    rel = "≤" if sim.failure_rate <= sim.delta else ">"  # what was measured, not what is hoped
    ax.set_title(f"failures {sim.failures}/{sim.repeats} = {sim.failure_rate:.4f} {rel} δ = {sim.delta:g}",
                 fontsize=10)

    used = sim.examples
    bins = np.linspace(0, sim.plan.sample_size, 31)
    ax2.hist(used, bins=bins, color="tab:blue", alpha=0.8, label="examples read by a run")
    ax2.axvline(sim.plan.sample_size, color="0.3", ls="--", lw=1.2,
                label=rf"sample $(\bar M+1)\,L$ = {sim.plan.sample_size}")
    ax2.set_xlabel("examples read")
    # At most 6 steps: the default's 8 steps of 2000 run five-digit labels together.
    ax2.xaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
    ax2.set_ylabel("runs")
    ax2.legend(loc="upper right", fontsize=9)
    ax2.set_title(f"window {sim.window}; most read {int(used.max())}, mistakes ≤ {int(sim.mistakes.max())}",
                  fontsize=10)
    return fig


#: The chapter's explore() call, as ``(name, draw, params)``: timed by bench/bench_redraw.py,
#: and redrawn in place and compared with a fresh drawing by tests/drawing/test_render.py.
BENCH_CASES = [("guarantees-conversion", draw, {"epsilon": EPSILONS, "delta": DELTAS})]
