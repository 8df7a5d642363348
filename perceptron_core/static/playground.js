// The perceptron playground: drag points, watch the perceptron and its mistake bound.
//
// One ES module in anywidget's format (a default export with `render({ model, el })`), with no
// framework and no bundler. Jupyter loads it through anywidget (perceptron_core.playground); the
// static book mounts it with a small model object of its own (`staticModel`, below) and no kernel.
//
// Sections: (1) exact arithmetic, (2) the perceptron and the Margin Perceptron, (3) the certified
// margin, (4) the picture and its controls (render).

// ============================================================================================
// (1)-(3): the mathematics. Named exports, used by render() and by the parity tests.
// ============================================================================================

// CONTRACT (filled in by the math section):
//   perceptronRun(X, y, { tie = "mistake", c = null, maxEpochs = 1000 })
//     X: array of [x1, x2] numbers; y: array of +1/-1. With c (a non-zero number) the run is on the
//     lifted points (x1, x2, c) through the origin (the offset trick; b = c * w[2]).
//     -> { steps: [{ i, epoch, w: [...] }]  (w after each update), w, converged, epochs }
//   marginPerceptronRun(X, y, gamma, { target = 0.5, c = null, maxEpochs = 1000 }) -> same shape
//   certifiedMargin(X, y, { c = null })
//     -> { status: "separable" | "inseparable" | "undecided", low, high, w, b, reason, certificate }
//   radius(X, c = null) -> max norm of the (lifted) points
//   bound(R, gamma) -> (R / gamma)^2

// ============================================================================================
// (1) Exact arithmetic.
//
// Every finite float64 is a dyadic rational m·2^e, and BigInt holds m exactly, so sums of
// products of floats are computed here with no rounding at all. The runs use floats where
// their rounding cannot change an answer and these exact sums where it could: the same
// decisions as perceptron_core (perceptron_core/_signs.py), on every machine and in every
// browser.
// ============================================================================================

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);
const UNIT_ROUNDOFF = 2 ** -53;
const SUBNORMAL = 2 ** -1074;

/** A finite float as { m, e } with value m·2^e (m a BigInt). */
function dyadic(x) {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  if (x === 0) return { m: 0n, e: 0 };
  F64[0] = x;
  const bits = U64[0];
  const biased = Number((bits >> 52n) & 0x7ffn);
  let m = bits & 0xfffffffffffffn;
  let e = -1074; // subnormal
  if (biased !== 0) {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  return { m: bits >> 63n ? -m : m, e };
}

const ZERO = { m: 0n, e: 0 };
const mul = (a, b) => ({ m: a.m * b.m, e: a.e + b.e });
const neg = (a) => ({ m: -a.m, e: a.e });
function add(a, b) {
  if (a.m === 0n) return b;
  if (b.m === 0n) return a;
  const e = Math.min(a.e, b.e);
  return { m: (a.m << BigInt(a.e - e)) + (b.m << BigInt(b.e - e)), e };
}
const sign = (a) => (a.m > 0n ? 1 : a.m < 0n ? -1 : 0);
const compare = (a, b) => sign(add(a, neg(b)));

/** a·b of two float vectors, exactly. */
function exactDot(a, b) {
  let s = ZERO;
  for (let j = 0; j < a.length; j++) if (a[j] !== 0 && b[j] !== 0) s = add(s, mul(dyadic(a[j]), dyadic(b[j])));
  return s;
}

/** The sign (-1, 0 or +1) of a·b, decided exactly (the parity tests call it too). */
export function exactSign(a, b) {
  return sign(exactDot(a, b));
}

/** √(p/q) for dyadics p ≥ 0, q > 0, nearly (a first guess at any scale: the ratio is kept as a
 *  60-bit integer times a power of two, so nothing overflows or underflows on the way). */
function sqrtRatioGuess(p, q) {
  if (p.m === 0n) return 0;
  const np = p.m.toString(2).length;
  const nq = q.m.toString(2).length;
  const shift = np - nq - 60; // p.m / q.m = M · 2^shift, M of about 60 bits
  let M = shift > 0 ? p.m / (q.m << BigInt(shift)) : (p.m << BigInt(-shift)) / q.m;
  let e = shift + p.e - q.e;
  if (e % 2 !== 0) { M <<= 1n; e -= 1; }
  return scaleBy(Math.sqrt(Number(M)), e / 2);
}

/** A float L ≥ 0 with L²·q ≤ p (p, q dyadic, p ≥ 0, q > 0), the largest near √(p/q): a lower
 *  bound on √(p/q), certified exactly. */
function sqrtRatioDown(p, q) {
  return sqrtSearch(p, q, -1);
}

/** A float H with H²·q ≥ p, the smallest near √(p/q): an upper bound, certified exactly. */
function sqrtRatioUp(p, q) {
  return sqrtSearch(p, q, 1);
}

/** From the guess, step one float at a time (a correctly rounded guess is within a few) and
 *  then by growing factors, until the exact test holds. */
function sqrtSearch(p, q, direction) {
  let x = sqrtRatioGuess(p, q);
  const holds = (v) => { const d = dyadic(v); return direction * compare(mul(mul(d, d), q), p) >= 0; };
  for (let k = 0; k < 2000 && Number.isFinite(x) && x >= 0; k++) {
    if (holds(x)) return x;
    if (k < 8) x = direction > 0 ? nextUp(x) : nextDown(x);
    else x = direction > 0 ? x * (1 + 2 ** (k - 60)) + SUBNORMAL : Math.max(x * (1 - 2 ** Math.min(k - 60, -1)), 0);
  }
  return direction > 0 ? Infinity : 0;
}

function nextUp(x) {
  if (x === 0) return SUBNORMAL;
  F64[0] = x;
  U64[0] += x > 0 ? 1n : -1n;
  return F64[0];
}
const nextDown = (x) => -nextUp(-x);

// Exact rationals { n, d } (BigInt, d > 0), for the certificates' weights.
const bigAbs = (a) => (a < 0n ? -a : a);
function gcd(a, b) {
  a = bigAbs(a); b = bigAbs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}
function rat(n, d = 1n) {
  if (d < 0n) { n = -n; d = -d; }
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}
const fromDyadic = (a) => (a.e >= 0 ? rat(a.m << BigInt(a.e)) : rat(a.m, 1n << BigInt(-a.e)));
const rAdd = (a, b) => rat(a.n * b.d + b.n * a.d, a.d * b.d);
const rSub = (a, b) => rat(a.n * b.d - b.n * a.d, a.d * b.d);
const rMul = (a, b) => rat(a.n * b.n, a.d * b.d);
const rDiv = (a, b) => rat(a.n * b.d, a.d * b.n);
const R0 = rat(0n);
const R1 = rat(1n);

/** The unique solution of A λ = b in rationals (A: rows of rationals), or null when the system
 *  is inconsistent or has more than one solution. Gaussian elimination, exact. */
function solveExact(A, b) {
  const rows = A.map((r, i) => [...r, b[i]]);
  const k = A[0].length;
  let r = 0;
  const pivots = [];
  for (let col = 0; col < k; col++) {
    const p = rows.findIndex((row, i) => i >= r && row[col].n !== 0n);
    if (p < 0) return null; // a free variable: not unique
    [rows[r], rows[p]] = [rows[p], rows[r]];
    for (let i = 0; i < rows.length; i++) {
      if (i === r || rows[i][col].n === 0n) continue;
      const f = rDiv(rows[i][col], rows[r][col]);
      rows[i] = rows[i].map((v, j) => rSub(v, rMul(f, rows[r][j])));
    }
    pivots.push(col);
    r++;
  }
  for (let i = r; i < rows.length; i++) if (rows[i][k].n !== 0n) return null; // inconsistent
  return pivots.map((col, i) => rDiv(rows[i][k], rows[i][col]));
}

// ============================================================================================
// (2) The perceptron and the Margin Perceptron, exactly as perceptron_core runs them.
// ============================================================================================

const TIES = { mistake: 0, positive: 1, negative: -1 }; // the label predicted where w·x = 0

function checkData(X, y, c) {
  if (!Array.isArray(X) || !Array.isArray(y) || X.length !== y.length)
    throw new TypeError("X and y must be arrays of the same length");
  for (let i = 0; i < X.length; i++) {
    if (!(y[i] === 1 || y[i] === -1)) throw new RangeError(`label ${i + 1} is ${y[i]}: labels are +1 or -1`);
    if (!X[i].every(Number.isFinite)) throw new RangeError(`point ${i + 1} is not finite: ${X[i]}`);
  }
  if (c !== null && c !== undefined && !(Number.isFinite(c) && c !== 0))
    throw new RangeError(`c must be a finite non-zero number, got ${c}`);
}

/** The points, lifted to (x, c) by the offset trick when c is given. */
function lifted(X, c) {
  return X.map((x) => (c === null || c === undefined ? [...x] : [...x, c]));
}

/** The sign of y (w·a), exactly: floats when surely right, BigInt otherwise. */
function marginSign(a, label, w) {
  let score = 0;
  let size = 0;
  for (let j = 0; j < a.length; j++) {
    const t = a[j] * w[j];
    score += t;
    size += Math.abs(t);
  }
  // A sum of m products, in any order, is off by at most γ_m·Σ|products| plus 2^-1075 a
  // product for underflow; twice that is room (perceptron_core._signs.slack, the same bound).
  const slack = 2 * (a.length + 2) * (UNIT_ROUNDOFF * size + SUBNORMAL);
  const margin = label * score;
  if (margin > slack) return 1;
  if (margin < -slack) return -1;
  return label * exactSign(a, w); // near 0, inf or NaN: decided exactly
}

/**
 * The cyclic perceptron from w = 0: sweep the points in order, w ← w + y·x on every mistake,
 * until a sweep without one or maxEpochs sweeps. A mistake is y (w·x) < 0, or y (w·x) = 0
 * where the tie rule predicts the other label ("mistake": always; "positive": +1 there, as
 * CS229; "negative": -1 there, as Balcan). With c, the points are (x1, x2, c): the offset trick.
 */
export function perceptronRun(X, y, { tie = "mistake", c = null, maxEpochs = 1000 } = {}) {
  checkData(X, y, c);
  if (!(tie in TIES)) throw new RangeError(`tie must be "mistake", "positive" or "negative", got ${tie}`);
  const A = lifted(X, c);
  const w = new Float64Array(c === null || c === undefined ? 2 : 3);
  const atTie = TIES[tie];
  const steps = [];
  let epoch = 0;
  let clean = false;
  while (!clean && epoch < maxEpochs) {
    epoch += 1;
    clean = true;
    for (let i = 0; i < A.length; i++) {
      const s = marginSign(A[i], y[i], w);
      if (s < 0 || (s === 0 && atTie !== y[i])) {
        for (let j = 0; j < w.length; j++) w[j] = w[j] + y[i] * A[i][j];
        steps.push({ i, epoch, w: Array.from(w) });
        clean = false;
      }
    }
  }
  return { steps, w: Array.from(w), converged: clean, epochs: epoch };
}

/**
 * Balcan's Margin Perceptron, as perceptron_core.margin_perceptron: w starts at y₁x₁, and each
 * sweep adds zᵢ = yᵢxᵢ wherever zᵢ·w < τγ‖w‖ (τγ the exact product of the two floats), until a
 * sweep adds nothing. Each step says whether it was a true mistake (zᵢ·w ≤ 0).
 */
export function marginPerceptronRun(X, y, gamma, { target = 0.5, c = null, maxEpochs = 1000 } = {}) {
  checkData(X, y, c);
  if (!(gamma > 0 && Number.isFinite(gamma))) throw new RangeError(`gamma must be positive, got ${gamma}`);
  if (!(target > 0 && target < 1)) throw new RangeError(`target must be in (0, 1), got ${target}`);
  const Z = lifted(X, c).map((a, i) => a.map((v) => y[i] * v));
  const d = c === null || c === undefined ? 2 : 3;
  if (Z.length === 0) return { w0: new Array(d).fill(0), steps: [], w: new Array(d).fill(0), converged: true, epochs: 1 };
  const w = Float64Array.from(Z[0]);
  const w0 = Array.from(w);
  const aim = target * gamma;
  const aimD = mul(dyadic(target), dyadic(gamma));
  const aimSq = mul(aimD, aimD);
  // The room around the threshold that covers the rounding of the score and of aim·‖w‖ (the
  // bound perceptron_core.algorithms._ShortOfAim derives).
  let rowMax = 0;
  for (const z of Z) for (const v of z) rowMax = Math.max(rowMax, Math.abs(v));
  const rootD = Math.sqrt(d);
  const perNorm = 2 * (d + 6) * UNIT_ROUNDOFF * (aim + rowMax * rootD) + SUBNORMAL;
  const tiny = 2 * (d + rootD + 4) * SUBNORMAL;

  function short(z) {
    let normSq = 0;
    for (let j = 0; j < d; j++) normSq += w[j] * w[j];
    if (normSq >= 2 ** -580 && normSq <= 2 ** 580) {
      const norm = Math.sqrt(normSq);
      let score = 0;
      for (let j = 0; j < d; j++) score += z[j] * w[j];
      const threshold = aim * norm;
      const room = perNorm * norm + tiny;
      if (score > threshold + room) return false;
      if (score < threshold - room) return true;
    }
    // Exactly: with aim > 0, z·w < aim·‖w‖ when z·w ≤ 0 or (z·w)² < aim²·(w·w).
    const s = exactDot(z, w);
    return sign(s) <= 0 || compare(mul(s, s), mul(aimSq, exactDot(w, w))) < 0;
  }

  const steps = [];
  let epoch = 0;
  let clean = false;
  while (!clean && epoch < maxEpochs) {
    epoch += 1;
    clean = true;
    for (let i = 0; i < Z.length; i++) {
      if (!short(Z[i])) continue;
      const mistake = marginSign(Z[i], 1, w) <= 0;
      for (let j = 0; j < d; j++) w[j] = w[j] + Z[i][j];
      steps.push({ i, epoch, w: Array.from(w), mistake });
      clean = false;
    }
  }
  return { w0, steps, w: Array.from(w), converged: clean, epochs: epoch };
}

/** The largest norm of the points (lifted to (x, c) with c): the R of the bounds. */
export function radius(X, c = null) {
  let R = 0;
  for (const a of lifted(X, c)) R = Math.max(R, Math.hypot(...a));
  return R;
}

/** Novikoff's bound (R/γ)² on the perceptron's mistakes. */
export function perceptronBound(R, gamma) {
  return (R / gamma) ** 2;
}

/** The Margin Perceptron's bound 2(R/γ)²/η² + 2(R/γ)/η, η = 1 − τ (Balcan's 8(R/γ)² + 4R/γ at τ = ½). */
export function marginPerceptronBound(R, gamma, target = 0.5) {
  const eta = 1 - target;
  const r = R / gamma;
  return (2 * r * r) / (eta * eta) + (2 * r) / eta;
}

// ============================================================================================
// (3) The maximum margin through the origin, certified.
//
// γ* is the distance from the origin to the convex hull of the points zᵢ = yᵢx̃ᵢ. Wolfe's
// minimum-norm-point algorithm finds the nearest point in floats; then exact arithmetic checks
// what floats suggest: a unit normal w whose exact margin gives γ* ≥ low, and the norm of a hull
// point with exact weights gives γ* ≤ high. When the nearest point is the origin, a few of the
// zᵢ with exact nonnegative weights that sum to 0 prove that no separator exists. What exact
// arithmetic cannot confirm is reported as undecided, never as a verdict.
// ============================================================================================

const dot = (a, b) => a.reduce((s, v, j) => s + v * b[j], 0);
// The most time the exact fallback may take before the verdict is "undecided" (a picture must
// not freeze); it needs a few milliseconds on the point sets a reader makes.
const EXACT_BUDGET_MS = 150;

/** The nearest point to the origin on the affine hull of the corral V: weights α (Σα = 1). */
function affineMinimizer(V) {
  const k = V.length;
  if (k === 1) return [1];
  // x = v0 + Σ βⱼ (vⱼ − v0): least squares by modified Gram–Schmidt on the differences, not on
  // their Gram matrix (which squares the conditioning).
  const D = V.slice(1).map((v) => v.map((x, j) => x - V[0][j]));
  const Q = [];
  const Rm = Array.from({ length: k - 1 }, () => new Array(k - 1).fill(0));
  for (let c = 0; c < k - 1; c++) {
    let v = D[c].slice();
    for (let q = 0; q < Q.length; q++) {
      if (!Q[q]) continue;
      const r = dot(Q[q], v);
      Rm[q][c] = r;
      v = v.map((x, j) => x - r * Q[q][j]);
    }
    const norm = Math.hypot(...v);
    const scale = Math.hypot(...D[c]);
    Rm[c][c] = norm;
    Q.push(norm > 1e-13 * scale && norm > 0 ? v.map((x) => x / norm) : null); // dependent: β = 0
  }
  const rhs = Q.map((q) => (q ? -dot(q, V[0]) : 0));
  const beta = new Array(k - 1).fill(0);
  for (let c = k - 2; c >= 0; c--) {
    if (!Q[c]) continue;
    let s = rhs[c];
    for (let j = c + 1; j < k - 1; j++) s -= Rm[c][j] * beta[j];
    beta[c] = s / Rm[c][c];
  }
  return [1 - beta.reduce((s, b) => s + b, 0), ...beta];
}

/** Wolfe's (1976) algorithm on the rows of Z: the nearest point x and its corral's weights. */
function wolfe(Z) {
  const scale = Math.max(...Z.map((z) => Math.hypot(...z)));
  const tol = 1e-15 * scale * scale;
  let j0 = 0;
  Z.forEach((z, i) => { if (dot(z, z) < dot(Z[j0], Z[j0])) j0 = i; });
  let keys = [j0];
  let lam = [1];
  let x = Z[j0].slice();
  for (let iter = 0; iter < 10 * Z.length + 100; iter++) {
    let j = 0;
    let best = Infinity;
    Z.forEach((z, i) => { const s = dot(z, x); if (s < best) { best = s; j = i; } });
    if (best >= dot(x, x) - tol || keys.includes(j)) break; // no point lies further behind x
    keys.push(j);
    lam.push(0);
    for (;;) {
      const alpha = affineMinimizer(keys.map((k) => Z[k]));
      if (alpha.every((a) => a > 1e-14)) {
        const s = alpha.reduce((t, a) => t + a, 0);
        lam = alpha.map((a) => a / s);
        break;
      }
      // Step from λ toward α until the first weight reaches 0, and drop it from the corral.
      let theta = Infinity;
      alpha.forEach((a, i) => { if (a <= 1e-14) theta = Math.min(theta, lam[i] / (lam[i] - a)); });
      lam = lam.map((l, i) => (1 - theta) * l + theta * alpha[i]);
      let keep = lam.map((l) => l > 1e-14);
      if (keep.every(Boolean)) keep[lam.indexOf(Math.min(...lam))] = false;
      keys = keys.filter((_, i) => keep[i]);
      lam = lam.filter((_, i) => keep[i]);
      const s = lam.reduce((t, l) => t + l, 0);
      lam = lam.map((l) => l / s);
    }
    x = Z[0].map((_, d) => keys.reduce((s, k, i) => s + lam[i] * Z[k][d], 0));
  }
  return { x, keys, lam, scale };
}

/** A rational times 2^k as a float, nearly (for directions and guesses, never for a decision). */
function ratToFloat(q, k = 0) {
  if (q.n === 0n) return 0;
  const shift = bitLength(q.n) - bitLength(q.d) - 60;
  const m = shift > 0 ? q.n / (q.d << BigInt(shift)) : (q.n << BigInt(-shift)) / q.d;
  return scaleBy(Number(m), shift + k);
}

const bitLength = (n) => (n < 0n ? -n : n).toString(2).length;

const rDot = (a, b) => a.reduce((s, v, j) => rAdd(s, rMul(v, b[j])), R0);
const rCompare = (a, b) => { const s = a.n * b.d - b.n * a.d; return s > 0n ? 1 : s < 0n ? -1 : 0; };

/** The nearest point to the origin on the affine hull of the exact points V: exact weights α
 *  (Σα = 1) from [G 1; 1ᵀ 0][α; μ] = [0; 1], G the Gram matrix; null if the hull is degenerate. */
function exactAffineMinimizer(V) {
  const k = V.length;
  const A = V.map((v) => [...V.map((u) => rDot(v, u)), R1]);
  A.push([...V.map(() => R1), R0]);
  const sol = solveExact(A, [...V.map(() => R0), R1]);
  return sol && sol.slice(0, k);
}

/**
 * Wolfe's algorithm in exact rational arithmetic, started from the float run's corral: the
 * exact nearest point of the hull of the rows of Z to the origin, with its corral and exact
 * weights, or null (a degenerate corral, or out of time: then the caller says undecided).
 * Used only where floats cannot settle the answer: tiny margins, nearly collinear points.
 */
function exactWolfe(Z, corral, deadline) {
  const Q = Z.map((z) => z.map((v) => fromDyadic(dyadic(v))));
  let keys = corral.slice();
  let lam = exactAffineMinimizer(keys.map((k) => Q[k]));
  if (!lam || !lam.every((l) => l.n > 0n)) {
    const start = keys.reduce((b, k) => (rCompare(rDot(Q[k], Q[k]), rDot(Q[b], Q[b])) < 0 ? k : b), keys[0]);
    keys = [start];
    lam = [R1];
  }
  const point = () => Q[0].map((_, d) => keys.reduce((s, k, i) => rAdd(s, rMul(lam[i], Q[k][d])), R0));
  let x = point();
  for (let iter = 0; iter < 10 * Z.length + 100; iter++) {
    if (performance.now() > deadline) return null;
    const xx = rDot(x, x);
    let j = -1;
    let best = null;
    Q.forEach((q, i) => { const s = rDot(q, x); if (best === null || rCompare(s, best) < 0) { best = s; j = i; } });
    if (rCompare(best, xx) >= 0) return { point: x, keys, lam }; // optimal: no point lies behind x
    keys.push(j);
    lam.push(R0);
    for (;;) {
      const alpha = exactAffineMinimizer(keys.map((k) => Q[k]));
      if (!alpha) return null;
      if (alpha.every((a) => a.n > 0n)) { lam = alpha; break; }
      // Step from λ toward α until the first weight reaches 0, and drop the weights at 0.
      let theta = null;
      alpha.forEach((a, i) => {
        if (a.n > 0n) return;
        const t = rDiv(lam[i], rSub(lam[i], a));
        if (theta === null || rCompare(t, theta) < 0) theta = t;
      });
      lam = lam.map((l, i) => rAdd(rMul(rSub(R1, theta), l), rMul(theta, alpha[i])));
      keys = keys.filter((_, i) => lam[i].n !== 0n);
      lam = lam.filter((l) => l.n !== 0n);
    }
    x = point();
  }
  return null;
}

/** Points listed for a sentence: "3", "3 and 7", "3, 7 and 9" (1-based, as the picture numbers them). */
function listed(indices) {
  const names = indices.map((i) => String(i + 1));
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Exact nonnegative weights on a subset of the corral that make Σ λ z = 0, or null. */
function exactOriginCertificate(Z, keys) {
  // Carathéodory: if 0 is in the hull of the corral, it is in the hull of an affinely
  // independent part of it, where the weights are unique; try every part.
  const subsets = [];
  for (let mask = 1; mask < 1 << keys.length; mask++) subsets.push(keys.filter((_, i) => mask & (1 << i)));
  subsets.sort((a, b) => a.length - b.length);
  for (const S of subsets) {
    const dims = Z[0].length;
    const A = [];
    const b = [];
    for (let d = 0; d < dims; d++) {
      A.push(S.map((k) => fromDyadic(dyadic(Z[k][d]))));
      b.push(R0);
    }
    A.push(S.map(() => R1));
    b.push(R1);
    const lam = solveExact(A, b);
    if (lam && lam.every((l) => l.n >= 0n)) {
      const pairs = S.map((k, i) => [k, lam[i]]).filter(([, l]) => l.n !== 0n).sort((a, b) => a[0] - b[0]);
      return { points: pairs.map(([k]) => k), weights: pairs.map(([, l]) => `${l.n}/${l.d}`) };
    }
  }
  return null;
}

/**
 * The maximum margin γ* through the origin (of the lifted points (x, c) with c), certified:
 * { status, low, high, w, support, reason, certificate }. See the section's comment.
 */
export function certifiedMargin(X, y, { c = null } = {}) {
  checkData(X, y, c);
  const lift = !(c === null || c === undefined);
  const Z = lifted(X, c).map((a, i) => a.map((v) => y[i] * v));
  const none = { low: null, high: null, w: null, support: [], certificate: null };
  if (Z.length === 0) return { ...none, status: "empty", reason: "There are no points." };
  const atOrigin = Z.findIndex((z) => z.every((v) => v === 0));
  if (atOrigin >= 0) {
    return { ...none, status: "inseparable", certificate: { points: [atOrigin], weights: ["1/1"] },
      reason: `Point ${atOrigin + 1} is at the origin, and every line through the origin passes through it.` };
  }
  // Wolfe in floats on the points scaled by a power of two (exact), so that no square
  // underflows or overflows; the weights do not change, the nearest point scales.
  const top = Math.max(...Z.map((z) => Math.max(...z.map(Math.abs))));
  const shift = -Math.ceil(Math.log2(top)) ;
  const Zs = Z.map((z) => z.map((v) => scaleBy(v, shift)));
  const { x, keys, lam, scale } = wolfe(Zs);
  const nx = Math.hypot(...x);
  if (nx > 1e-12 * scale) {
    const w = x.map((v) => v / nx);
    const verdict = certifySeparable(Z, w, keys, lam);
    if (verdict) return verdict;
  }
  let certificate = exactOriginCertificate(Z, keys);
  let exact = null;
  if (!certificate) {
    // Floats could not settle it (a tiny margin, nearly collinear points): Wolfe's algorithm
    // again, in exact arithmetic, from where the float run ended.
    exact = exactWolfe(Z, keys, performance.now() + EXACT_BUDGET_MS);
    if (exact && exact.point.every((v) => v.n === 0n)) {
      const pairs = exact.keys.map((k, i) => [k, exact.lam[i]]).sort((a, b) => a[0] - b[0]);
      certificate = { points: pairs.map(([k]) => k), weights: pairs.map(([, l]) => `${l.n}/${l.d}`) };
    }
  }
  if (certificate) {
    const reason = lift
      ? `The +1 and −1 points meet: a mix of points ${listed(certificate.points)} with exact weights is the same point for both labels, so no line separates them, with or without an offset.`
      : `The origin is a mix of y·x for points ${listed(certificate.points)} (exact weights), so no line through the origin separates them.`;
    return { ...none, status: "inseparable", certificate, reason };
  }
  if (exact) return exactlySeparable(Z, exact);
  return { ...none, status: "undecided", reason:
    "Floating point could not settle whether these points are separable: a margin, if there is one, is below what floats resolve here. No verdict." };
}

/** The verdict from the exact nearest point x ≠ 0: every zᵢ·x ≥ x·x > 0 (checked by exactWolfe),
 *  so x separates the points and γ* = ‖x‖ exactly; `exact` carries x and its weights. */
function exactlySeparable(Z, { point, keys, lam }) {
  const sq = rDot(point, point);
  const p = { m: sq.n, e: 0 };
  const q = { m: sq.d, e: 0 };
  const low = sqrtRatioDown(p, q);
  const high = sqrtRatioUp(p, q);
  // x's direction in floats: scaled by a power of two first, so that no coordinate of a tiny
  // or huge x underflows or overflows.
  const top = Math.max(...point.map((v) => (v.n === 0n ? -Infinity : bitLength(v.n) - bitLength(v.d))));
  const x = point.map((v) => ratToFloat(v, -top));
  const norm = Math.hypot(...x);
  const w = x.map((v) => v / norm);
  const pairs = keys.map((k, i) => [k, lam[i]]).sort((a, b) => a[0] - b[0]);
  return { status: "separable", low, high, w, support: pairs.map(([k]) => k), certificate: null,
    exact: { point: point.map((v) => `${v.n}/${v.d}`), gammaSq: `${sq.n}/${sq.d}`,
             points: pairs.map(([k]) => k), weights: pairs.map(([, l]) => `${l.n}/${l.d}`) },
    reason: `Separable through the origin, by a margin too thin for floats: γ lies in [${low.toPrecision(4)}, ${high.toPrecision(4)}], found in exact arithmetic.` };
}

/** v·2^k, exactly when the result is a normal float (ldexp). */
function scaleBy(v, k) {
  let x = v;
  while (k > 0) { const s = Math.min(k, 1000); x *= 2 ** s; k -= s; }
  while (k < 0) { const s = Math.min(-k, 1000); x /= 2 ** s; k += s; }
  return x;
}

/** The certified interval for the float unit normal w, or null when its margin is not positive. */
function certifySeparable(Z, w, keys, lam) {
  // The exact margin of w: only rows whose float score may be the least need exact scores.
  const scores = Z.map((z) => dot(z, w));
  const floor = Math.min(...scores);
  // Each float score is within its slack of the exact one (the bound of marginSign): a row
  // whose score exceeds the least by more than twice the largest slack cannot be the least.
  let most = 0;
  Z.forEach((z) => { most = Math.max(most, 2 * (z.length + 2) * (UNIT_ROUNDOFF * z.reduce((s, v, j) => s + Math.abs(v * w[j]), 0) + SUBNORMAL)); });
  let least = null;
  const support = [];
  Z.forEach((z, i) => {
    if (scores[i] > floor + 2 * most && Number.isFinite(floor + 2 * most)) return;
    const s = exactDot(z, w);
    if (least === null || compare(s, least) < 0) least = s;
  });
  if (least === null || sign(least) <= 0) return null;
  const normSq = exactDot(w, w);
  const low = sqrtRatioDown(mul(least, least), normSq);
  if (!(low > 0)) return null;
  // The hull point Σλz/Σλ with the float weights taken as exact numbers: γ* ≤ its norm.
  const dims = Z[0].length;
  let total = ZERO;
  const point = new Array(dims).fill(ZERO);
  keys.forEach((k, i) => {
    const l = dyadic(lam[i]);
    total = add(total, l);
    for (let d = 0; d < dims; d++) point[d] = add(point[d], mul(l, dyadic(Z[k][d])));
  });
  const pointSq = point.reduce((s, p) => add(s, mul(p, p)), ZERO);
  const high = sqrtRatioUp(pointSq, mul(total, total));
  scores.forEach((s, i) => { if (s <= low + 1e-9 * high) support.push(i); });
  return { status: "separable", low, high, w, support, certificate: null,
    reason: `Separable through the origin: the margin γ lies in [${low.toPrecision(4)}, ${high.toPrecision(4)}].` };
}

// ============================================================================================
// (4) The picture and its controls.
// ============================================================================================

// @@UI@@
