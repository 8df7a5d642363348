"""perceptron_core: the small, tested library behind *The Perceptron, Interactively*.

The mathematics of the book and nothing else: it needs numpy, and scipy where a linear program
is solved (imported then, not here). Importing it loads no plotting or notebook library and
changes nothing in the caller's session. One module per idea:

- :mod:`~perceptron_core.algorithms`: the perceptron (batch, T-epoch, online), the Margin
  Perceptron, and what a recorded run shows (its cycle, its closest call);
- :mod:`~perceptron_core.geometry`: margins, the radius, the maximum margin, separability, and
  the arc of separators of data in the plane;
- :mod:`~perceptron_core.certificates`: the smallest sets of points that prove a data set
  inseparable;
- :mod:`~perceptron_core.bounds`: the mistake bounds in each lecture note's form, and the
  bounds for data that cannot be separated;
- :mod:`~perceptron_core.data`: data sets with known margins, logic gates, Iris, the offset trick;
- :mod:`~perceptron_core.variants`: the averaged, voted and kernel perceptrons;
- :mod:`~perceptron_core.guarantees`: the adversary game, online-to-PAC and the LP route;
- :mod:`~perceptron_core.estimator`: :class:`Perceptron`, the scikit-learn classifier (needs
  scikit-learn; loaded the first time ``perceptron_core.Perceptron`` is asked for);
- :mod:`~perceptron_core.check`: the self-checking exercises;
- :mod:`~perceptron_core.playground`: the playground, points the reader drags with the perceptron
  run on them in the page (a widget through anywidget, of the ``book`` extra, in Jupyter; HTML in
  the static book). Not imported here: ``from perceptron_core.playground import playground``.

Runs (the perceptron and its variants, the Margin Perceptron, ``predict``, the conversions) are
plain float64 and deterministic: every score is summed in one fixed order, so a run is the same
on every machine and in the playground's JavaScript (:mod:`~perceptron_core.algorithms` says
how). What the package *certifies* (a separability verdict and its evidence, the interval of γ*,
the smallest certificates) is checked in exact rational arithmetic, with ``fractions.Fraction``.
The figures and sliders of the book are a separate layer, :mod:`perceptron_core.figures`,
which needs the ``book`` extra.
"""

from __future__ import annotations

from typing import Any

from . import check
from .algorithms import ConvergenceWarning, closest_call, find_cycle, margin_perceptron, online_perceptron, perceptron
from .bounds import (hinge_loss_bound, margin_perceptron_bound, max_rounds, novikoff_bound, offset_bound,
                     online_to_pac, total_hinge_deviation, uml_bound, unnormalized_bound)
from .data import (augment, flip_labels, gaussian_clouds, hypercube_small_margin, iris, iris_pair, logic_gate,
                   narrow_wedge, orthonormal_worst_case, planted, xor)
from .geometry import Separability, dataset_margin, margins, max_margin, min_norm_point, radius, separability
from .guarantees import (BandDistribution, PerceptronLearner, adversary_game, convert_stream,
                         lp_consistent_halfspace, simulate_conversion, vc_sample_size)
from .variants import averaged_perceptron, kernel_perceptron, voted_perceptron

__version__ = "0.1.0"

# What the book's readers call, by module.
__all__ = [
    "perceptron", "online_perceptron", "margin_perceptron", "find_cycle", "closest_call",
    "ConvergenceWarning", "Perceptron",
    "margins", "dataset_margin", "radius", "max_margin", "min_norm_point", "separability", "Separability",
    "novikoff_bound", "uml_bound", "unnormalized_bound", "max_rounds", "offset_bound",
    "total_hinge_deviation", "hinge_loss_bound", "margin_perceptron_bound", "online_to_pac",
    "planted", "logic_gate", "xor", "orthonormal_worst_case", "narrow_wedge", "hypercube_small_margin",
    "gaussian_clouds", "flip_labels", "iris", "iris_pair", "augment",
    "averaged_perceptron", "voted_perceptron", "kernel_perceptron",
    "adversary_game", "PerceptronLearner", "BandDistribution", "convert_stream", "simulate_conversion",
    "vc_sample_size", "lp_consistent_halfspace",
    "check",
]


def __getattr__(name: str) -> Any:
    # The scikit-learn classifier, imported (with scikit-learn) only when it is asked for.
    if name == "Perceptron":
        from .estimator import Perceptron

        return Perceptron
    raise AttributeError(f"module 'perceptron_core' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"Perceptron"})
