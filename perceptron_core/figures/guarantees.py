"""Figure of the chapter "From mistakes to guarantees" (``book/guarantees.ipynb``).

The chapter runs Balcan's online-to-PAC conversion many times on a band distribution with the
core (:func:`perceptron_core.simulate_conversion`) for every (ε, δ) of the slider and passes
the simulations here; :func:`draw_conversion` only draws one, and :func:`conversion` is the
chapter's slider over them (its grid and alt text kept here, beside the drawing).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .plotting import new_figure
from .sliders import Explorable, slider_grid

__all__ = ["conversion", "draw_conversion", "BENCH_CASES"]

#: The slider's grid: the chapter simulates the conversion at every (ε, δ) of it.
GRID = dict(epsilon=(0.05, 0.3, 0.05), delta=[0.05, 0.1, 0.2])


def draw_conversion(sim) -> Figure:
    """The outputs of many runs of the conversion, ``sim`` (a ``ConversionSimulation`` of
    :func:`perceptron_core.simulate_conversion`): their exact true errors sorted (left), and
    the examples each run read (right)."""
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
    # One filled outline, not 30 bar patches: a cheaper redraw, the same picture.
    ax2.hist(used, bins=bins, histtype="stepfilled", color="tab:blue", alpha=0.8,
             label="examples read by a run")
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


def conversion(sims: dict) -> Explorable:
    """The conversion's runs with sliders for ε and δ (chapter From mistakes to guarantees).

    ``sims`` maps every ``(epsilon, delta)`` of :data:`GRID` to its ``ConversionSimulation``.
    """
    grid = slider_grid(**GRID)
    missing = [(e, d) for e in grid["epsilon"] for d in grid["delta"] if (e, d) not in sims]
    if missing:
        raise ValueError(f"sims has no simulation for (epsilon, delta) = {missing[0]}; the "
                         f"slider needs one for every pair of the grid {GRID}.")

    def alt(epsilon: float, delta: float) -> str:
        sim = sims[epsilon, delta]
        return (f"Balcan's conversion run {sim.repeats} times on a planted distribution, with "
                f"epsilon = {epsilon:g} and delta = {delta:g}. Left: the exact true error of "
                f"each run's output, sorted, against the line at epsilon: {sim.failures} runs "
                f"above it, the failures. Right: how many examples each run read, against "
                f"the sample size the proof allows, {sim.plan.sample_size}.")

    return Explorable(lambda epsilon, delta: draw_conversion(sims[epsilon, delta]),
                      dict(GRID), alt=alt)


def _bench_cases() -> list:
    # The chapter's simulations, as its cells compute them (fewer runs a frame: the bench times
    # drawing, and a histogram of 200 or 2000 runs costs alike).
    from .. import BandDistribution, simulate_conversion

    dist, sims = BandDistribution(0.1, 1.0), {}
    grid = slider_grid(**GRID)
    for e in grid["epsilon"]:
        for d in grid["delta"]:
            seed = int(round(e * 1000)) * 1000 + int(round(d * 1000))
            sims[e, d] = simulate_conversion(dist, e, d, repeats=200, seed=seed)
    e = conversion(sims)
    return [("guarantees-conversion", e.draw, e.params)]


def __getattr__(name: str):
    # BENCH_CASES, the chapter's explore() call as (name, draw, params), timed by
    # bench/bench_redraw.py and drawn dark by tests/drawing/test_theme.py: built when asked for.
    if name == "BENCH_CASES":
        return _bench_cases()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
