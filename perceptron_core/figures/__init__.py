"""The book's interactive figures, one module per chapter.

Each module holds the ``draw(**params) -> Figure`` functions its chapter passes to
:func:`perceptron_core.explore`, and a list ``BENCH_CASES`` of ``(name, draw, params)`` that
``bench/bench_redraw.py`` times.
"""
