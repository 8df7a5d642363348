"""The drawing layer: the book's figures and the sliders that move them.

It depends on the core (:mod:`perceptron_core`) and never the reverse, and it needs the
``book`` extra (``pip install "perceptron_core[book]"``: matplotlib, ipywidgets, Pillow).

- :mod:`~perceptron_core.figures.sliders`: :func:`explore`, sliders that are live in Jupyter
  and static but working in the published book;
- :mod:`~perceptron_core.figures.plotting`: figure primitives for 2-D data;
- :mod:`~perceptron_core.figures.theme`: the colours of the dark theme's figures;
- one module per chapter, holding the ``draw(**params) -> Figure`` functions of its figures and
  the :class:`~perceptron_core.figures.sliders.Explorable` (drawing, sliders, alt text) its
  chapter passes to :func:`explore`, and a list ``BENCH_CASES`` of ``(name, draw, params)`` that
  ``bench/bench_redraw.py`` times.
"""

from .sliders import Explorable, explore

__all__ = ["explore", "Explorable"]
