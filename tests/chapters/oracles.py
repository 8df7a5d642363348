"""What the chapter tests share: a reference perceptron for the chapters' claims (the run
contract of tests/conftest.py's ``contract_perceptron``, also in exact fractions and in
scikit-learn's order of addition), and the chapters' pages. Imported as ``from oracles import ...`` (pytest puts this folder on sys.path)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from conftest import cell_source, notebook_cells
from conftest import markdown_text as prose  # a chapter's markdown cells, joined by blank lines


def sweep(X, y, *, offset=False, tie="mistake", max_epochs=1000, exact=False, b_last=False):
    """The cyclic perceptron in plain Python, one addition at a time: the runs' contract.

    Each score is ``b + x_1 w_1 + ... + x_d w_d`` added left to right (``b_last=True``: the
    terms first and ``b`` last, as scikit-learn adds), in Python floats, or in exact fractions
    of the floats with ``exact=True``. ``tie`` is the rule at a score of 0: "mistake",
    "positive" (predict +1) or "negative" (predict -1). Returns ``(w, b, indices, epochs)``:
    the final weights and offset (as floats), the example of each update, the sweeps made.
    """
    num = (lambda v: Fraction(float(v))) if exact else float
    rows = [[num(v) for v in row] for row in np.asarray(X, float)]
    labels = [int(v) for v in np.asarray(y)]
    w, b, indices = [num(0)] * len(rows[0]), num(0), []
    for epoch in range(1, max_epochs + 1):
        clean = True
        for i, (x, label) in enumerate(zip(rows, labels)):
            s = num(0) if b_last else b
            for xj, wj in zip(x, w):
                s += xj * wj
            if b_last:
                s += b
            wrong = label * s < 0 or (s == 0 and (tie == "mistake" or (tie == "positive") == (label < 0)))
            if wrong:
                clean = False
                indices.append(i)
                b = b + label if offset else b
                w = [wj + label * xj for xj, wj in zip(x, w)]
        if clean:
            break
    return np.array([float(v) for v in w]), float(b), indices, epoch


def cells(chapter: str, kind: str | None = None) -> list[str]:
    """The sources of a chapter's cells (of one kind: "code" or "markdown")."""
    return [cell_source(c) for c in notebook_cells(chapter) if kind in (None, c["cell_type"])]
