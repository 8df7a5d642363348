"""Append each chapter's self-checking code exercise (``perceptron_core.check``) to its notebook.

Every chapter gets one exercise whose starter cell holds a stub raising ``NotImplementedError``
and a call to the matching check, which then says "not implemented yet"; once the student writes
the function, the same cell runs the check. The solution (a gated ``solution-start`` /
``solution-end`` dropdown with the code) runs the check on a correct function, so the book build
shows it passing, and the student edition drops it.

Usage::

    .venv/bin/python book/_tools/add_check_exercises.py [--check] [NOTEBOOK ...]

Without notebooks it updates every chapter in :data:`EXERCISES` that exists. The cells are found
by their ids (``<label>-...``), replaced in place when present and appended at the end of the
notebook otherwise, so running the script twice changes nothing the second time.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from perceptron_core.check import PRECISION

REPO = Path(__file__).resolve().parents[2]


def _precision(*checks: str) -> str:
    """The sentence that tells a float-valued exercise how closely its check compares, from
    ``perceptron_core.check.PRECISION``, so that the question and the check cannot disagree."""
    (p,) = {PRECISION[c] for c in checks}
    exponent = round(math.log10(p))
    amount = f"$10^{{{exponent}}}$" if p == 10.0**exponent else f"${p:g}$"
    return (f"\nThe check accepts numbers that differ from its own by up to {amount} times the size of\n"
            "the numbers involved, so float32 arithmetic is precise enough.")


def _exercise(label: str, title_text: str) -> str:
    return f"```{{exercise}}\n:label: {label}\n\n{title_text.strip()}\n```"


def _start(label: str) -> str:
    return f"````{{solution-start}} {label}\n:class: dropdown\n````\n\n"


END = "````{solution-end}\n````"

# chapter -> (label, exercise text, stub cell, solution text, solution cell)
EXERCISES: dict[str, tuple[str, str, str, str, str]] = {
    "first_look": (
        "fl-ex-check",
        """(Code, checked.) Write a function `mistakes(X, y, w)` that counts the points the line
$w\\cdot x = 0$ gets wrong: those with $y_i\\, w\\cdot x_i \\le 0$, so that a point on the line
counts as a mistake, as it does for the perceptron. Then write `first_mistake(X, y, w)`, which
returns the index $i$ of the first of these points in the order of the rows of `X`, counting from
$0$ as Python does, or `None` when the line gets every point right. It is the point on which the
perceptron, sweeping through the data in order from these weights, would make its first update.
Run the cell: `check.mistakes` and `check.first_mistake` try your functions on edge cases and on
random data and tell you the first case each gets wrong.""",
        '''from perceptron_core import check


def mistakes(X, y, w):
    """How many rows x_i of X have y_i * (w . x_i) <= 0."""
    raise NotImplementedError  # replace this line with your code


def first_mistake(X, y, w):
    """The index of the first row x_i of X with y_i * (w . x_i) <= 0, or None."""
    raise NotImplementedError  # replace this line with your code


check.mistakes(mistakes)
check.first_mistake(first_mistake)''',
        "Multiply each score by its label and count the results that are not positive. The first\n"
        "mistake is the position of the first of these results, if there is one.\n\n",
        '''def mistakes(X, y, w):
    return int(np.sum(y * (X @ w) <= 0))


def first_mistake(X, y, w):
    wrong = np.flatnonzero(y * (X @ w) <= 0)  # the indices of the mistakes, in order
    return int(wrong[0]) if wrong.size > 0 else None


check.mistakes(mistakes)
check.first_mistake(first_mistake)''',
    ),
    "perceptron": (
        "per-ex-check",
        """(Code, checked.) Write one step of the perceptron, `update(w, x, y)`: it returns the
weights after the example $(x, y)$, that is $w + y\\,x$ when $y\\, w\\cdot x \\le 0$ (ties count as
mistakes) and $w$ otherwise. Return a new array rather than changing `w`. Then write
`train(X, y, epochs)`, {prf:ref}`per-alg-epochs` without the offset $b$: start from $w = 0$,
make $T$ = `epochs` passes over the examples in the order of the rows of `X`, and in each pass
set $w \\leftarrow w + y_i\\, x_i$ whenever $y_i\\, w\\cdot x_i \\le 0$, testing each example with
the weights as they are when the pass reaches it. Return the final $w$ as a new array of length
$d$; with `epochs = 0` that is $w = 0$. A pass without a mistake leaves $w$ as it is, and so do
all the passes after it, so stopping after a pass without a mistake would return the same $w$;
on data that no hyperplane through the origin separates, every pass makes a mistake, and only
$T$ ends the run. Run the cell to check both functions with
`check.update` and `check.train`.""" + _precision("update", "train"),
        '''from perceptron_core import check


def update(w, x, y):
    """The perceptron's weights after seeing the example (x, y)."""
    raise NotImplementedError  # replace this line with your code


def train(X, y, epochs):
    """The weights after `epochs` passes of the perceptron (no offset) from w = 0."""
    raise NotImplementedError  # replace this line with your code


check.update(update)
check.train(train)''',
        "The test is on the sign of the score $y\\, w\\cdot x$, with $0$ counted as a mistake. In\n"
        "`train`, update $w$ as soon as an example is a mistake, before the next example is tested.\n\n",
        '''def update(w, x, y):
    if y * np.dot(w, x) <= 0:
        return w + y * x
    return w.copy()


def train(X, y, epochs):
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        for x_i, y_i in zip(X, y):
            if y_i * np.dot(w, x_i) <= 0:
                w = w + y_i * x_i
    return w


check.update(update)
check.train(train)''',
    ),
    "separability": (
        "sep-ex-check",
        """(Code, checked.) Write `separable(X, y)`, which returns `True` when some $w$ has
$y_i\\, w\\cdot x_i > 0$ for every $i$ (separable through the origin, no offset) and `False`
otherwise. Neither a perceptron run that has not stopped nor a solver's answer in floating point
proves anything, so answer like the package: `True` only with a $w$ whose strict inequalities
you have checked in exact arithmetic, `False` only with a certificate you have checked exactly,
and, in the rare case where you have neither, raise an error rather than guess (the package's
*undecided*). Use linear programs as in this chapter (`scipy.optimize.linprog`). Then write
`is_certificate(X, y, lam)`, which returns `True` when the weights `lam` are a certificate in the
sense of {prf:ref}`sep-thm-gordan` for the points $z_i = y_i x_i$, that is when $\\lambda_i \\ge 0$
for every $i$, $\\sum_i \\lambda_i = 1$ and $\\sum_i \\lambda_i y_i x_i = 0$, and `False`
otherwise. Check all three exactly, on the floats as given: a solver's weights satisfy these
equations only up to rounding, and a comparison with a tolerance would accept weights that are
not a certificate (`fractions.Fraction(v)` is the exact value of a float `v`). Run the cell to
check both.""",
        '''from perceptron_core import check


def separable(X, y):
    """True if some w has y_i * (w . x_i) > 0 for all i, else False."""
    raise NotImplementedError  # replace this line with your code


def is_certificate(X, y, lam):
    """True if lam >= 0, sum(lam) == 1 and sum_i lam_i y_i x_i == 0, all exactly."""
    raise NotImplementedError  # replace this line with your code


check.separable(separable)
check.is_certificate(is_certificate)''',
        """Two linear programs, one for each side of {prf:ref}`sep-thm-gordan`, and an exact check of
whatever they return. First maximize $s$ subject to $y_i\\, w\\cdot x_i \\ge s$ with $w$ in a box;
if the optimum is positive, check the returned $w$ on every point in fractions. Otherwise look
for a certificate: $\\lambda \\ge 0$ with $\\sum_i \\lambda_i = 1$ and $\\sum_i \\lambda_i y_i x_i = 0$.
The solver's $\\lambda$ satisfies these equations only up to rounding, so keep only the points it
uses and solve the equations on them again, exactly, by Gauss–Jordan elimination in fractions;
a solution with every weight $\\ge 0$ is a certificate. Before solving, each column and then each
row of the $y_i x_i$ is scaled to largest entry $1$: a positive scale of a row changes no sign,
and one of a column is undone by dividing $w$ by it, but the solver's tolerances then mean the
same for every number, which matters when the margin or the data are tiny.

For `is_certificate`, turn every number into a fraction and test the three conditions with no
tolerance. Float arithmetic rounds: it adds three copies of the float nearest $1/3$, whose exact
sum is $1 - 2^{-54}$, to $1.0$, and $10^{16} + 1$ to $10^{16}$.

""",
        '''from fractions import Fraction

from scipy.optimize import linprog


def solve_exact(A, b):
    """One solution of A x = b in fractions (free unknowns set to 0), or None."""
    rows = [[Fraction(v) for v in row] + [Fraction(r)] for row, r in zip(A, b)]
    pivots = []
    for c in range(len(rows[0]) - 1):
        r = len(pivots)
        p = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        rows[r] = [v / rows[r][c] for v in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0:
                rows[i] = [a - rows[i][c] * e for a, e in zip(rows[i], rows[r])]
        pivots.append(c)
    if any(row[-1] != 0 for row in rows[len(pivots):]):
        return None  # inconsistent
    x = [Fraction(0)] * (len(rows[0]) - 1)
    for r, c in enumerate(pivots):
        x[c] = rows[r][-1]
    return x


def separable(X, y):
    Z = y[:, None] * X
    n, d = Z.shape
    if np.any(np.all(Z == 0, axis=1)):
        return False  # a point at the origin: w . 0 = 0 for every w
    col = np.abs(Z).max(axis=0)
    col[col == 0] = 1.0
    U = Z / col
    U = U / np.abs(U).max(axis=1, keepdims=True)  # same signs, numbers of one size
    # Witness: maximize t subject to u_i . w >= t, -1 <= w_j <= 1, t <= 1.
    lp = linprog(np.r_[np.zeros(d), -1.0], A_ub=np.c_[-U, np.ones(n)],
                 b_ub=np.zeros(n), bounds=[(-1, 1)] * d + [(None, 1)])
    if lp.status == 0 and lp.x[-1] > 0:
        w = [Fraction(v) for v in lp.x[:d] / col]  # separates Z if it is exact
        if all(sum(Fraction(z) * v for z, v in zip(row, w)) > 0 for row in Z):
            return True
    # Certificate: lambda >= 0, sum lambda = 1, sum lambda_i u_i = 0.
    lp = linprog(np.zeros(n), A_eq=np.r_[U.T, np.ones((1, n))],
                 b_eq=np.r_[np.zeros(d), 1.0], bounds=[(0, None)] * n)
    if lp.status == 0:
        used = np.flatnonzero(lp.x > 1e-9 * lp.x.max())
        # The same equations on these points, for the z_i themselves, in fractions.
        A = [[Fraction(Z[i, j]) for i in used] for j in range(d)] + [[1] * len(used)]
        lam = solve_exact(A, [0] * d + [1])
        if lam is not None and all(v >= 0 for v in lam):
            return False
    raise ValueError("undecided: neither a witness nor a certificate checks exactly")


def is_certificate(X, y, lam):
    from fractions import Fraction  # every float is a fraction, exactly

    lam = [Fraction(v) for v in lam.tolist()]
    if any(v < 0 for v in lam) or sum(lam) != 1:
        return False
    rows = zip(X.tolist(), y.tolist())
    Z = [[Fraction(yi) * Fraction(v) for v in x] for x, yi in rows]
    return all(sum(l * z[j] for l, z in zip(lam, Z)) == 0 for j in range(X.shape[1]))


check.separable(separable)
check.is_certificate(is_certificate)''',
    ),
    "margin": (
        "mgn-ex-check",
        """(Code, checked.) Write `margin(X, y, w, b)`, the margin of the data set with respect
to the hyperplane $w\\cdot x + b = 0$: the smallest of the point margins
$y_i(w\\cdot x_i + b)/\\|w\\|$. It is negative when some point is on the wrong side. Then write
`radius(X)`, the radius $R = \\max_i \\|x_i\\|$. Run the cell to check both.""" + _precision("margin", "radius"),
        '''from perceptron_core import check


def margin(X, y, w, b):
    """min over i of y_i (w . x_i + b) / ||w||."""
    raise NotImplementedError  # replace this line with your code


def radius(X):
    """max over i of ||x_i||."""
    raise NotImplementedError  # replace this line with your code


check.margin(margin)
check.radius(radius)''',
        "Normalize by $\\|w\\|$ and keep the sign; the radius is a maximum of Euclidean norms.\n\n",
        '''def margin(X, y, w, b):
    return float(np.min(y * (X @ w + b)) / np.linalg.norm(w))


def radius(X):
    return float(np.max(np.linalg.norm(X, axis=1)))


check.margin(margin)
check.radius(radius)''',
    ),
    "convergence": (
        "conv-ex-check",
        """(Code, checked.) Write `mistake_bound(R, gamma)`, the Block–Novikoff bound on the
number of mistakes. Then write `proof_quantities(X, y, u)`, which records the two quantities
the proof watches along a run of the perceptron: from $w_0 = 0$, over the rows of `X` in their
order, again and again until a whole pass makes no mistake, where a mistake is
$y_i\\, w\\cdot x_i \\le 0$ (a tie counts) and triggers $w \\leftarrow w + y_i x_i$. It
returns a float array of shape $(M, 2)$, with $M$ the number of mistakes, whose row $k - 1$
holds $w_k\\cdot u$ and $\\|w_k\\|^2$ after mistake $k$. The chapter's $u$ is a unit vector, so
divide the given $u$ by its length first; it need not separate the data, and the quantities
are defined all the same. The data of every case of the check are separable through the
origin, so the run ends. Run the cell to check both.""" + _precision("mistake_bound", "proof_quantities"),
        '''from perceptron_core import check


def mistake_bound(R, gamma):
    """The perceptron's mistake bound for radius R and margin gamma."""
    raise NotImplementedError  # replace this line with your code


def proof_quantities(X, y, u):
    """Row k-1: w_k . u/||u|| and ||w_k||^2 after the k-th mistake of the run."""
    raise NotImplementedError  # replace this line with your code


check.mistake_bound(mistake_bound)
check.proof_quantities(proof_quantities)''',
        "The bound is $(R/\\gamma)^2$. For the quantities, append a row after every update: its\n"
        "entries are the ones {prf:ref}`conv-lem-progress` and {prf:ref}`conv-lem-growth` bound,\n"
        "$w_k\\cdot u \\ge k\\gamma$ (when $u$ separates the data with margin $\\gamma$) and\n"
        "$\\|w_k\\|^2 \\le kR^2$. From $w_0 = 0$ the first point is a tie, so there is at least one row.\n\n",
        '''def mistake_bound(R, gamma):
    return (R / gamma) ** 2


def proof_quantities(X, y, u):
    u = u / np.linalg.norm(u)          # the chapter's u has length 1
    w, rows = np.zeros(X.shape[1]), []
    clean = False
    while not clean:                   # until a pass without a mistake
        clean = True
        for x_i, y_i in zip(X, y):
            if y_i * (w @ x_i) <= 0:   # a tie is a mistake
                w = w + y_i * x_i
                rows.append((w @ u, w @ w))
                clean = False
    return np.array(rows, dtype=float)


check.mistake_bound(mistake_bound)
check.proof_quantities(proof_quantities)''',
    ),
    "offset": (
        "off-ex-check",
        """(Code, checked.) Write `augment(X, c)`, which appends the constant coordinate $c$ to
every point: row $x_i$ becomes $(x_i, c)$, so the result has one more column than `X`. Then
write `offset_bound(R, gamma, b, c)`, the chapter's mistake bound with an offset, as a float:
the bound it proves on the number of mistakes of the perceptron through the origin on the
points $(x_i, c)$, for a constant $c > 0$, when every $\\|x_i\\| \\le R$ and a unit vector $u$
with the offset $b$ (the chapter's $b^*$, of either sign) separates the data with margin
$\\gamma$: $y_i(u\\cdot x_i + b) \\ge \\gamma > 0$ for every $i$. Run the cell to check both.""" + _precision("augment", "offset_bound"),
        '''from perceptron_core import check


def augment(X, c):
    """X with a last column equal to c."""
    raise NotImplementedError  # replace this line with your code


def offset_bound(R, gamma, b, c):
    """The mistake bound on the points (x_i, c), for R, gamma and the offset b."""
    raise NotImplementedError  # replace this line with your code


check.augment(augment)
check.offset_bound(offset_bound)''',
        "Stack a column of $c$'s to the right of $X$. The bound is Block–Novikoff's $(R'/\\gamma')^2$\n"
        "on the points $(x_i, c)$, with the radius $R'$ of {prf:ref}`off-lem-radius` and the margin\n"
        "$\\gamma'$ of {prf:ref}`off-lem-margin`.\n\n",
        '''def augment(X, c):
    return np.hstack([X, np.full((X.shape[0], 1), c)])


def offset_bound(R, gamma, b, c):
    R_sq = R**2 + c**2                        # R'^2: the points (x_i, c) lie within R'
    gamma_sq = gamma**2 / (1 + b**2 / c**2)   # gamma'^2: the unit vector u'
    return R_sq / gamma_sq


check.augment(augment)
check.offset_bound(offset_bound)''',
    ),
    "margin_perceptron": (
        "mp-ex-check",
        """(Code, checked.) Write the Margin Perceptron's update test,
`margin_mistake(w, x, y, gamma, target)`: `True` when the algorithm updates on $(x, y)$, that is
when $w = 0$ or the normalized margin $y\\, w\\cdot x/\\|w\\|$ is below $\\tau\\gamma$ (with
$\\tau$ = `target`), and `False` otherwise. Then write the whole run,
`margin_run(X, y, gamma, target)`, on the rows $x_i$ of `X` with labels $y_i$, as
{prf:ref}`mp-alg` states it: start from $w_1 = y_1 x_1$, sweep the examples in order, epoch
after epoch, add $y_i x_i$ to $w$ at every margin mistake (a normalized margin equal to
$\\tau\\gamma$ is not one), and stop after an epoch with no update; return the final $w$, an
array of floats. Every case of the check meets the hypotheses of {prf:ref}`mp-thm-target`
($\\gamma$ at most the data's margin), so every run stops. `margin_run` may call your
`margin_mistake`, and may start from $w = 0$ instead: `margin_mistake` then makes the first
test an update to $y_1 x_1$, and under these hypotheses $w_1$ never counts the first example
as a margin mistake on its first visit, so after that first update the two runs make the same
updates and end with the same $w$. Run the cell to check both.""" + _precision("margin_run"),
        '''from perceptron_core import check


def margin_mistake(w, x, y, gamma, target):
    """Does Margin Perceptron(gamma) with this target update on (x, y)?"""
    raise NotImplementedError  # replace this line with your code


def margin_run(X, y, gamma, target):
    """The final weights of Margin Perceptron(gamma) with this target on (X, y)."""
    raise NotImplementedError  # replace this line with your code


check.margin_mistake(margin_mistake)
check.margin_run(margin_run)''',
        "With $w = 0$ there is no margin yet, so it is an update; otherwise compare the\n"
        "normalized margin with $\\tau\\gamma$, strictly. The run repeats sweeps until one makes\n"
        "no update: a flag, cleared at the start of each sweep and set at every update, says\n"
        "whether to sweep again. Under the chapter's hypotheses the run's $w$ is never $0$\n"
        "({prf:ref}`mp-lem-progress`), so its test can divide by $\\|w\\|$; the solution writes\n"
        "the test out again so that `margin_run` stands alone, and calling `margin_mistake` there\n"
        "works as well.\n\n",
        '''def margin_mistake(w, x, y, gamma, target):
    norm = np.linalg.norm(w)
    if norm == 0:
        return True
    return bool(y * np.dot(w, x) / norm < target * gamma)


def margin_run(X, y, gamma, target):
    w = y[0] * X[0]                     # w_1 = y_1 x_1
    updated = True
    while updated:                      # until an epoch makes no update
        updated = False
        for x_i, y_i in zip(X, y):
            if y_i * np.dot(w, x_i) / np.linalg.norm(w) < target * gamma:
                w = w + y_i * x_i
                updated = True
    return w


check.margin_mistake(margin_mistake)
check.margin_run(margin_run)''',
    ),
    "nonseparable": (
        "ns-ex-check",
        """(Code, checked.) Write `hinge_deviation(X, y, w, gamma)`, the total hinge deviation
$TD_\\gamma = \\sum_i \\max(0, \\gamma - y_i\\, u\\cdot x_i)$ of the data with respect to the unit
vector $u = w/\\|w\\|$. Then write `averaged(X, y, epochs)` (for `epochs` $\\ge 1$), the
averaged perceptron of {prf:ref}`ns-alg-voted` without an offset: run the perceptron from $w = 0$ over the rows $x_i$
of `X` in order for $T$ = `epochs` epochs, updating $w \\leftarrow w + y_i x_i$ whenever
$y_i\\, w\\cdot x_i \\le 0$ (a tie is a mistake), and return
$\\bar w = \\frac{1}{nT}\\sum_{t=1}^{nT} w^{(t)}$, the mean of the weights $w^{(t)}$ after each
of the $nT$ rounds, as an array of floats. Every example presented is a round, whether or not
it changes $w$, and all $T$ epochs count, also those after an epoch without a mistake; the
starting $w = 0$ is not a term of its own. Run the cell to check both.""" + _precision(
            "hinge_deviation", "averaged"),
        '''from perceptron_core import check


def hinge_deviation(X, y, w, gamma):
    """Sum over i of max(0, gamma - y_i u . x_i), with u = w / ||w||."""
    raise NotImplementedError  # replace this line with your code


def averaged(X, y, epochs):
    """The mean of the perceptron's weights after each round, over `epochs` epochs."""
    raise NotImplementedError  # replace this line with your code


check.hinge_deviation(hinge_deviation)
check.averaged(averaged)''',
        "Normalize $w$, compute each point's margin, and add up how far each falls short of\n"
        "$\\gamma$. For the average keep a running sum: after every example, updated or not, add\n"
        "the current $w$ to it; divide by $nT$ at the end.\n\n",
        '''def hinge_deviation(X, y, w, gamma):
    u = w / np.linalg.norm(w)
    return float(np.sum(np.maximum(0.0, gamma - y * (X @ u))))


def averaged(X, y, epochs):
    w = np.zeros(X.shape[1])
    total = np.zeros(X.shape[1])        # the sum of the weights after every round
    for _ in range(epochs):
        for x_i, y_i in zip(X, y):
            if y_i * np.dot(w, x_i) <= 0:
                w = w + y_i * x_i
            total += w
    return total / (len(y) * epochs)


check.hinge_deviation(hinge_deviation)
check.averaged(averaged)''',
    ),
    "guarantees": (
        "gua-ex-check",
        """(Code, checked.) Write `pac_window(R, gamma, epsilon, delta)`, the number of examples
in a row on which the conversion of this chapter must see a hypothesis right before it outputs
it, for radius $R$, margin $\\gamma$, error $\\varepsilon$ and confidence $\\delta$. Count the
hypotheses the perceptron can hold with care. Then play the adversary of
{prf:ref}`gua-thm-adversary`: write `adversary(new_learner, n, R)`, where `new_learner()` returns
a fresh deterministic online learner with the methods `predict(x)`, which returns $+1$, $-1$, or
$0$ for "no label", and `update(x, y)`. Take one learner, and in each round $i = 1, \\dots, n$ show
it $x_i = R e_i \\in \\mathbb{R}^n$ (an array of $n$ floats), ask for its prediction $p_i$, set
$y_i = -p_i$, or $y_i = +1$ when $p_i$ is "no label", and call `update(x_i, y_i)` before the next
round. Return the labels $y_1, \\dots, y_n$ as an array of $n$ numbers $\\pm 1$. Run the cell to
check both.""",
        '''from perceptron_core import check


def pac_window(R, gamma, epsilon, delta):
    """The window (an int) of the online-to-PAC conversion."""
    raise NotImplementedError  # replace this line with your code


def adversary(new_learner, n, R):
    """The adversary's n labels (+1 or -1) against a learner from new_learner()."""
    raise NotImplementedError  # replace this line with your code


check.pac_window(pac_window)
check.adversary(adversary)''',
        "With at most $\\bar M = \\lfloor (R/\\gamma)^2 \\rfloor$ mistakes the run holds at most $\\bar M + 1$\n"
        "hypotheses, and each must fail its window with probability at most $\\delta/(\\bar M+1)$.\n\n"
        "The adversary reads only the learner's predictions: in round $i$ it shows $R e_i$, contradicts\n"
        "the prediction ($+1$ after \"no label\"), and tells the learner the label before the next\n"
        "round, whose prediction may depend on it.\n\n",
        '''import math


def pac_window(R, gamma, epsilon, delta):
    M_bar = math.floor((R / gamma) ** 2)      # the mistake bound
    return math.ceil(math.log((M_bar + 1) / delta) / epsilon)


def adversary(new_learner, n, R):
    learner = new_learner()
    y = np.empty(n)
    for i in range(n):
        x = np.zeros(n)
        x[i] = R                              # x_i = R e_i
        p = learner.predict(x)
        y[i] = 1.0 if p == 0 else -p          # contradict it; +1 after "no label"
        learner.update(x, y[i])
    return y


check.pac_window(pac_window)
check.adversary(adversary)''',
    ),
}


def cells_for(chapter: str) -> list[Any]:
    import nbformat  # here, not at the top: the tests import EXERCISES, and nbformat costs ~2 s

    label, text, stub, solution_text, solution = EXERCISES[chapter]
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [md(_exercise(label, text)), code(stub),
             md(_start(label) + solution_text.rstrip("\n")), code(solution), md(END)]
    for cell, suffix in zip(cells, ("exercise", "stub", "solution", "solution-code", "solution-end")):
        cell.id = f"{label}-{suffix}"
    return cells


def with_check_exercise(nb: Any, chapter: str) -> Any:
    new = cells_for(chapter)
    ids = {c.id for c in new}
    present = [i for i, c in enumerate(nb.cells) if c.get("id") in ids]
    kept = [c for c in nb.cells if c.get("id") not in ids]
    at = present[0] if present else len(kept)
    nb.cells = kept[:at] + new + kept[at:]
    return nb


def update(path: Path, *, check: bool = False) -> bool:
    text = path.read_text(encoding="utf-8")
    import nbformat

    nb = nbformat.reads(text, as_version=4)
    new = nbformat.writes(with_check_exercise(nb, path.stem)) + "\n"
    if new.rstrip("\n") == text.rstrip("\n"):
        return False
    if not check:
        path.write_text(new, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    paths = args.notebooks or [REPO / "book" / f"{c}.ipynb" for c in EXERCISES
                               if (REPO / "book" / f"{c}.ipynb").exists()]
    changed = [p for p in paths if update(p, check=args.check)]
    for p in changed:
        print(("out of date: " if args.check else "updated: ") + str(p))
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
