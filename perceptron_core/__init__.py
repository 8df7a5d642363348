"""perceptron_core: the small, tested library behind *The Perceptron, Interactively*.

One module per idea:

- :mod:`~perceptron_core.algorithms`: the perceptron (batch, T-epoch, online) and the Margin Perceptron;
- :mod:`~perceptron_core.geometry`: margins, the radius, the maximum margin and separability;
- :mod:`~perceptron_core.bounds`: the mistake bounds in each lecture note's form;
- :mod:`~perceptron_core.data`: data sets with known margins, logic gates, Iris, the offset trick;
- :mod:`~perceptron_core.guarantees`: the adversary game, online-to-PAC and the LP route;
- :mod:`~perceptron_core.figures.plotting`: figure primitives for 2-D data;
- :mod:`~perceptron_core.figures.sliders`: ``explore``, sliders that work live and in the static book;
- :mod:`~perceptron_core.variants`: the averaged, voted and kernel perceptrons, for data that cannot be separated.
"""

from .algorithms import (
    ConvergenceWarning,
    History,
    MarginPerceptronResult,
    OnlineStep,
    Perceptron,
    PerceptronResult,
    margin_perceptron,
    online_perceptron,
    perceptron,
)
from .bounds import (
    OnlineToPAC,
    hinge_loss_bound,
    margin_perceptron_bound,
    max_rounds,
    novikoff_bound,
    offset_bound,
    online_to_pac,
    total_hinge_deviation,
    uml_bound,
    unnormalized_bound,
)
from .data import (
    augment,
    flip_labels,
    gaussian_clouds,
    hypercube_small_margin,
    iris,
    iris_pair,
    logic_gate,
    narrow_wedge,
    orthonormal_worst_case,
    planted,
    xor,
)
from .geometry import (
    MaxMargin,
    Separability,
    dataset_margin,
    margins,
    max_margin,
    min_norm_point,
    radius,
    separability,
)

from .variants import (
    AveragedPerceptronResult,
    KernelPerceptronResult,
    VotedPerceptronResult,
    averaged_perceptron,
    kernel_perceptron,
    voted_perceptron,
)
from .guarantees import (
    AdversaryGame,
    BandDistribution,
    HalvingLearner,
    NearestNeighbourLearner,
    OnlineLearner,
    PerceptronLearner,
    adversary_game,
    convert_stream,
    lp_consistent_halfspace,
    simulate_conversion,
    vc_sample_size,
)

from . import check

__version__ = "0.1.0"
