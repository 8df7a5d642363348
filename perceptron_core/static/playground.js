// The perceptron playground: drag points, watch the perceptron and its mistake bound.
//
// One ES module in anywidget's format (a default export with `render({ model, el })`), with no
// framework and no bundler. Jupyter loads it through anywidget (perceptron_core.playground); the
// static book mounts it with a small model object of its own (`staticModel`, below) and no kernel.
//
// The mathematics is exported by name, for render() and for the tests
// (tests/playground/test_playground_parity.py):
//   perceptronRun(X, y, { tie, c, maxEpochs })   the cyclic perceptron, as perceptron_core.perceptron
//   marginPerceptronRun(X, y, gamma, { target, c, maxEpochs })   as perceptron_core.margin_perceptron
//   certifiedMargin(X, y, { c, candidates })   the separability verdict and the margin
//   radius(X, c), perceptronBound(R, gamma), marginPerceptronBound(R, gamma, target)
// X is an array of [x1, x2]; y of +1/-1; a number c lifts every point to (x1, x2, c), the
// offset trick (the separator's offset is then b = c·w[2]).
//
// Two kinds of numbers, and the page says which is which:
// - The runs are plain float64 and follow the package's contract operation for operation (a
//   score is 0.0 plus each product in turn, a multiply and then an add: JavaScript never fuses
//   them), so they are the runs perceptron_core makes, bit for bit, on every machine.
// - What the page calls *certified* is checked in exact arithmetic: every float is a dyadic
//   rational m·2^e, BigInt holds m, and a few sums of products decide a sign with no rounding
//   at all. The search (Wolfe's algorithm) runs in floats; only its answer is checked exactly.

// ============================================================================================
// (1) The runs, in float64, as perceptron_core runs them.
// ============================================================================================

const TIES = { mistake: 0, positive: 1, negative: -1 }; // the label predicted where w·x = 0
const lifts = (c) => c !== null && c !== undefined;

function checkData(X, y, c) {
  if (!Array.isArray(X) || !Array.isArray(y) || X.length !== y.length)
    throw new TypeError("X and y must be arrays of the same length");
  for (let i = 0; i < X.length; i++) {
    if (!(y[i] === 1 || y[i] === -1)) throw new RangeError(`label ${i + 1} is ${y[i]}: labels are +1 or -1`);
    if (!X[i].every(Number.isFinite)) throw new RangeError(`point ${i + 1} is not finite: ${X[i]}`);
  }
  if (lifts(c) && !(Number.isFinite(c) && c !== 0)) throw new RangeError(`c must be a finite non-zero number, got ${c}`);
}

/** The points, lifted to (x1, x2, c) by the offset trick when c is given. */
const lifted = (X, c) => X.map((x) => (lifts(c) ? [x[0], x[1], c] : [x[0], x[1]]));

/**
 * The cyclic perceptron from w = 0: sweep the points in order, w ← w + y·x on every mistake,
 * until a sweep without one or maxEpochs sweeps. A mistake is y (w·x) < 0, or y (w·x) = 0
 * where the tie rule predicts the other label ("mistake": always; "positive": +1 there, as
 * CS229; "negative": -1 there, as Balcan). With c, the points are (x1, x2, c): the offset trick.
 */
export function perceptronRun(X, y, { tie = "mistake", c = null, maxEpochs = 1000 } = {}) {
  checkData(X, y, c);
  if (!(tie in TIES)) throw new RangeError(`tie must be "mistake", "positive" or "negative", got ${tie}`);
  const A = lifted(X, c), w = lifts(c) ? [0, 0, 0] : [0, 0], steps = [];
  let epoch = 0, clean = false;
  while (!clean && epoch < maxEpochs) {
    epoch += 1;
    clean = true;
    for (let i = 0; i < A.length; i++) {
      let score = 0;
      for (let j = 0; j < w.length; j++) score += A[i][j] * w[j];
      const margin = y[i] * score;
      if (margin < 0 || (margin === 0 && TIES[tie] !== y[i])) {
        for (let j = 0; j < w.length; j++) w[j] += y[i] * A[i][j];
        steps.push({ i, epoch, w: w.slice() });
        clean = false;
      }
    }
  }
  return { steps, w, converged: clean, epochs: epoch };
}

/**
 * Balcan's Margin Perceptron, as perceptron_core.margin_perceptron: with zᵢ = yᵢxᵢ, w starts at
 * z₁, and each sweep adds zᵢ wherever zᵢ·w < τγ‖w‖ (τγ one float product, ‖w‖ the correctly
 * rounded √(w·w)), until a sweep adds nothing. Each step says whether it was a true mistake
 * (zᵢ·w ≤ 0) or only short of the target.
 */
export function marginPerceptronRun(X, y, gamma, { target = 0.5, c = null, maxEpochs = 1000 } = {}) {
  checkData(X, y, c);
  if (!(gamma > 0 && Number.isFinite(gamma))) throw new RangeError(`gamma must be positive, got ${gamma}`);
  if (!(target > 0 && target < 1)) throw new RangeError(`target must be in (0, 1), got ${target}`);
  const Z = lifted(X, c).map((a, i) => a.map((v) => y[i] * v));
  if (!Z.length) throw new RangeError("the Margin Perceptron needs at least one point");
  const w = Z[0].slice(), w0 = w.slice(), aim = target * gamma, steps = [];
  let epoch = 0, clean = false;
  while (!clean && epoch < maxEpochs) {
    epoch += 1;
    clean = true;
    Z.forEach((z, i) => {
      let s = 0, nn = 0;
      for (let j = 0; j < w.length; j++) s += z[j] * w[j];
      for (let j = 0; j < w.length; j++) nn += w[j] * w[j];
      if (!(s < aim * Math.sqrt(nn))) return;
      for (let j = 0; j < w.length; j++) w[j] += z[j];
      steps.push({ i, epoch, w: w.slice(), mistake: s <= 0 });
      clean = false;
    });
  }
  return { w0, steps, w, converged: clean, epochs: epoch };
}

// ============================================================================================
// (2) Exact arithmetic, for what the page certifies.
// ============================================================================================

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/** A finite float as { m, e } with value m·2^e (m a BigInt), exactly. */
function dyadic(x) {
  if (x === 0) return ZERO;
  F64[0] = x;
  const bits = U64[0], biased = Number((bits >> 52n) & 0x7ffn);
  const m = (bits & 0xfffffffffffffn) | (biased ? 1n << 52n : 0n);
  return { m: bits >> 63n ? -m : m, e: Math.max(biased, 1) - 1075 };
}
const ZERO = { m: 0n, e: 0 }, ONE = { m: 1n, e: 0 };
const mul = (a, b) => ({ m: a.m * b.m, e: a.e + b.e });
const neg = (a) => ({ m: -a.m, e: a.e });
function add(a, b) {
  if (a.m === 0n) return b;
  if (b.m === 0n) return a;
  const e = Math.min(a.e, b.e);
  return { m: (a.m << BigInt(a.e - e)) + (b.m << BigInt(b.e - e)), e };
}
const sign = (a) => (a.m > 0n ? 1 : a.m < 0n ? -1 : 0);
const sq = (x) => mul(dyadic(x), dyadic(x));
const atLeast = (a, b) => sign(add(a, neg(b))) >= 0;
const exactDot = (a, b) => a.reduce((s, v, j) => add(s, mul(dyadic(v), dyadic(b[j]))), ZERO);
/** A determinant of dyadics (at most 3 × 3 here), by cofactors along the first row. */
const det = (M) => (M.length ? M[0].reduce((s, v, k) => {
  const t = mul(v, det(M.slice(1).map((r) => r.filter((_, j) => j !== k))));
  return add(s, k % 2 ? neg(t) : t);
}, ZERO) : ONE);

function nextUp(x) {
  if (x === 0) return 2 ** -1074;
  F64[0] = x;
  U64[0] += x > 0 ? 1n : -1n;
  return F64[0];
}
const nextDown = (x) => -nextUp(-x);

/** A number with `digits` significant digits; dir = -1 rounds down, +1 up, 0 to nearest. */
export function num(v, digits = 4, dir = 0) {
  if (!Number.isFinite(v)) return v > 0 ? "\u221e" : v < 0 ? "\u2212\u221e" : "NaN";
  if (v === 0) return "0";
  if (Math.abs(v) >= 10 ** digits) return String(dir > 0 ? Math.ceil(v) : dir < 0 ? Math.floor(v) : Math.round(v)).replace("-", "\u2212");
  let r = Number(v.toPrecision(digits));
  const unit = 10 ** (Math.floor(Math.log10(Math.abs(v))) - digits + 1);
  if (dir > 0 && r < v) r = Number((r + unit).toPrecision(digits));
  if (dir < 0 && r > v) r = Number((r - unit).toPrecision(digits));
  return String(r).replace("-", "\u2212");
}

/** v rounded outwards (dir = +1 up, -1 down) to a short decimal d for which holds(f) is true,
 *  f the float one step beyond d's own float: d then lies strictly inside what was checked
 *  exactly, whichever way the decimal rounds to a float. null if no such d is found. */
function certifiedDecimal(v, dir, holds) {
  for (const digits of [4, 3, 2]) {
    const d = Number(num(v, digits, dir).replace("\u2212", "-"));
    if (Number.isFinite(d) && holds(dir > 0 ? nextDown(d) : nextUp(d))) return d;
  }
  return null;
}

/** An upper bound R on the norms of the points (lifted with c): R² ≥ ‖x‖² for each, exactly,
 *  as a short decimal; the float estimate √(max ‖x‖²) is `estimate`. */
export function radius(X, c = null) {
  const A = lifted(X, c), most = A.reduce((m, a) => Math.max(m, a.reduce((s, v) => s + v * v, 0)), 0);
  const exact = A.map((a) => exactDot(a, a));
  const up = certifiedDecimal(Math.sqrt(most), 1, (r) => r > 0 && exact.every((q) => atLeast(sq(r), q)));
  return { estimate: Math.sqrt(most), up };
}

/** Novikoff's bound (R/γ)² from R and γ as shown (decimals), rounded up to a decimal B with
 *  B·γ² ≥ R² checked exactly (on the floats just beyond the decimals shown). */
export function perceptronBound(R, gamma) {
  const r = sq(nextUp(R)), g = sq(nextDown(gamma));
  return certifiedDecimal((R / gamma) ** 2, 1, (B) => atLeast(mul(dyadic(B), g), r));
}

/** The Margin Perceptron's bound 2(R/γ)²/η² + 2(R/γ)/η with η = 1 − τ (Balcan's 8(R/γ)² +
 *  4R/γ at τ = ½), rounded up to a decimal B with B·γ²η² ≥ 2R² + 2Rγη checked exactly. */
export function marginPerceptronBound(R, gamma, target = 0.5) {
  const eta = 1 - target, ratio = R / gamma;
  const r = dyadic(nextUp(R)), g = dyadic(nextDown(gamma));
  const e = add(ONE, neg(dyadic(target))); // 1 − τ, exactly
  const ge = mul(g, e), rhs = add(mul({ m: 2n, e: 0 }, mul(r, r)), mul({ m: 2n, e: 0 }, mul(r, ge)));
  return certifiedDecimal(2 * ratio * ratio / (eta * eta) + 2 * ratio / eta, 1,
    (B) => atLeast(mul(dyadic(B), mul(ge, ge)), rhs));
}

// ============================================================================================
// (3) Separable or not, and the margin.
//
// γ* is the distance from the origin to the convex hull of the points zᵢ = yᵢx̃ᵢ (x̃ = (x, c)
// with the offset trick). Wolfe's minimum-norm-point algorithm finds the nearest point x in
// floats: its direction u is the best separator, and min zᵢ·u/‖u‖ estimates γ*. Then exact
// arithmetic checks what floats suggest, in one of two cheap ways:
// - separable: some w (u, or a run's final w) has zᵢ·w > 0 for every i, exactly; then
//   γ* ≥ min zᵢ·w/‖w‖, and a short decimal below that is the certified lower bound `low`;
// - not separable: at most d + 1 points of Wolfe's last corral with exact weights λ ≥ 0,
//   Σλ = 1, Σλz = 0 (so no w has every zᵢ·w > 0). The weights come from Cramer's rule
//   (cofactors of |S| − 1 coordinates) and every coordinate of Σλz is then checked exactly.
// What neither check confirms is "undecided": floats alone decide nothing the page certifies.
// ============================================================================================

const dot = (a, b) => a.reduce((s, v, j) => s + v * b[j], 0);

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
    Rm[c][c] = norm;
    Q.push(norm > 1e-13 * Math.hypot(...D[c]) && norm > 0 ? v.map((x) => x / norm) : null); // dependent: β = 0
  }
  const beta = new Array(k - 1).fill(0);
  for (let c = k - 2; c >= 0; c--) {
    if (!Q[c]) continue;
    let s = -dot(Q[c], V[0]);
    for (let j = c + 1; j < k - 1; j++) s -= Rm[c][j] * beta[j];
    beta[c] = s / Rm[c][c];
  }
  return [1 - beta.reduce((s, b) => s + b, 0), ...beta];
}

/** Wolfe's (1976) algorithm on the rows of Z: the nearest point x and its corral (row indices). */
function wolfe(Z) {
  const scale = Math.max(...Z.map((z) => Math.hypot(...z)));
  const tol = 1e-15 * scale * scale;
  let keys = [Z.reduce((b, z, i) => (dot(z, z) < dot(Z[b], Z[b]) ? i : b), 0)];
  let lam = [1];
  let x = Z[keys[0]].slice();
  for (let iter = 0; iter < 10 * Z.length + 100; iter++) {
    let j = 0, best = Infinity;
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
      // Step from λ toward α until the first weight reaches 0, and drop it from the corral. A
      // weight that is 0 in both (a point just added, with no pull) sets no limit: not 0/0.
      let theta = 1;
      alpha.forEach((a, i) => { if (a <= 1e-14 && lam[i] - a > 0) theta = Math.min(theta, lam[i] / (lam[i] - a)); });
      lam = lam.map((l, i) => (1 - theta) * l + theta * alpha[i]);
      const keep = lam.map((l) => l > 1e-14);
      if (keep.every(Boolean)) keep[lam.indexOf(Math.min(...lam))] = false;
      if (!keep.some(Boolean)) keep[lam.indexOf(Math.max(...lam))] = true; // never an empty corral
      keys = keys.filter((_, i) => keep[i]);
      lam = lam.filter((_, i) => keep[i]);
      const s = lam.reduce((t, l) => t + l, 0);
      lam = lam.map((l) => l / s);
    }
    x = Z[0].map((_, d) => keys.reduce((s, k, i) => s + lam[i] * Z[k][d], 0));
  }
  return { x, keys };
}

/** v·2^k, exactly when the result is a normal float (ldexp). */
function scaleBy(v, k) {
  let x = v;
  while (k > 0) { const s = Math.min(k, 1000); x *= 2 ** s; k -= s; }
  while (k < 0) { const s = Math.min(-k, 1000); x /= 2 ** s; k += s; }
  return x;
}

/** Exact weights λ ≥ 0 (Σλ = 1) on at most d + 1 rows of the corral with Σλz = 0, or null. */
function originCertificate(Z, keys) {
  const d = Z[0].length, found = [];
  for (let mask = 1; mask < 1 << keys.length; mask++) found.push(keys.filter((_, i) => mask & (1 << i)));
  for (const S of found.filter((S) => S.length <= d + 1).sort((a, b) => a.length - b.length)) {
    const D = S.map((k) => Z[k]);
    for (let coords = 0; coords < 1 << d; coords++) {
      const J = [0, 1, 2].filter((j) => j < d && coords & (1 << j));
      if (J.length !== S.length - 1) continue;
      // The cofactors of the rows J of [z_1 … z_k]: Σ C_k z_k vanishes on J by construction.
      const C = D.map((_, k) => { const t = det(J.map((j) => D.filter((_, r) => r !== k).map((z) => dyadic(z[j])))); return k % 2 ? neg(t) : t; });
      const signs = C.map(sign);
      if (!signs.some(Boolean) || (signs.includes(1) && signs.includes(-1))) continue;
      if (!Z[0].every((_, j) => !sign(C.reduce((s, c, k) => add(s, mul(c, dyadic(D[k][j]))), ZERO)))) continue;
      const total = C.reduce(add, ZERO), frac = (a) => { // a/total as "n/d", exactly
        const sh = a.e - total.e, s = total.m < 0n ? -1n : 1n;
        return `${s * (sh > 0 ? a.m << BigInt(sh) : a.m)}/${s * (sh < 0 ? total.m << BigInt(-sh) : total.m)}`;
      };
      const pairs = S.map((k, i) => [k, C[i]]).filter(([, c]) => c.m !== 0n).sort((a, b) => a[0] - b[0]);
      return { points: pairs.map(([k]) => k), weights: pairs.map(([, c]) => frac(c)) };
    }
  }
  return null;
}

/** Points listed for a sentence: "3", "3 and 7", "3, 7 and 9" (1-based, as the picture numbers them). */
function listed(indices) {
  const names = indices.map((i) => String(i + 1));
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Whether the points (lifted with c) are separable through the origin, and their margin:
 * { status: "separable" | "inseparable" | "undecided" | "empty", gamma, low, w, certificate,
 * reason }. `gamma` is the float estimate of γ* (null if floats find no separator); `low`, a
 * short decimal with low < min zᵢ·w/‖w‖ ≤ γ* checked exactly, is set when the verdict is
 * separable; `certificate` ({ points, weights }) when it is inseparable. `candidates` are more
 * weight vectors to try as separators (the page passes the run's final w).
 */
export function certifiedMargin(X, y, { c = null, candidates = [] } = {}) {
  checkData(X, y, c);
  const Z = lifted(X, c).map((a, i) => a.map((v) => y[i] * v));
  const none = { gamma: null, low: null, w: null, certificate: null };
  if (!Z.length) return { ...none, status: "empty", reason: "There are no points." };
  // Wolfe in floats on the points scaled by a power of two (exact), so that no square
  // underflows or overflows; the nearest point's direction does not change.
  const top = Math.max(...Z.map((z) => Math.max(...z.map(Math.abs))));
  const { x, keys } = wolfe(Z.map((z) => z.map((v) => scaleBy(v, -Math.ceil(Math.log2(top))))));
  const nx = Math.hypot(...x), where = lifts(c) ? "with an offset" : "through the origin";
  const u = nx > 0 ? x.map((v) => v / nx) : null;
  const gamma = u && Math.min(...Z.map((z) => dot(z, u))) > 0 ? Math.min(...Z.map((z) => dot(z, u))) : null;
  for (const w of [u, ...candidates]) {
    if (!w || w.length !== Z[0].length || !w.some((v) => v !== 0)) continue;
    const scores = Z.map((z) => exactDot(z, w));
    if (!scores.every((s) => sign(s) > 0)) continue;
    const least = scores.reduce((a, b) => (atLeast(b, a) ? a : b)), ww = exactDot(w, w);
    const est = Math.max(gamma || 0, Math.min(...Z.map((z) => dot(z, w))) / Math.hypot(...w));
    const low = certifiedDecimal(est, -1, (g) => g > 0 && atLeast(mul(least, least), mul(sq(g), ww)));
    return { ...none, status: "separable", gamma: est, low, w,
      reason: `Separable ${where}: a separator has y·w·x > 0 at every point, checked in exact arithmetic.` };
  }
  const certificate = originCertificate(Z, keys);
  if (certificate) {
    return { ...none, status: "inseparable", certificate, reason: lifts(c)
      ? `The +1 and −1 points meet: a mix of points ${listed(certificate.points)} with exact weights is the same point for both labels, so no line separates them, with or without an offset.`
      : `The origin is a mix of y·x for points ${listed(certificate.points)} (exact weights), so no line through the origin separates them.` };
  }
  return { ...none, status: "undecided", gamma, reason: "Floating point could not settle whether these points are " +
    "separable: no separator and no certificate checked out in exact arithmetic. No verdict." };
}

// ============================================================================================
// (4) The picture and its controls.
// ============================================================================================

// render() draws the model's `view` window as an SVG and puts native controls beside it. The model
// (Jupyter's synced traitlets, or staticModel's plain object) holds the state; render keeps a
// local copy to draw from, writes the reader's edits back, and follows the model's changes.
// The run and the margin are computed again only when the data or a setting changes; scrubbing
// and playing only pick another step of the stored run.

// The section's names live in this function's scope, so that none can clash with the names of
// the mathematics above (one module, one scope); the exports at the end reach in.
const playgroundUI = (() => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const MAX_POINTS = 200;
  const PLOT_W = 480;              // viewBox width; the svg scales to its column
  const HIT_PX = 14;               // how near (css px) a pointer must come to grab a point
  const DRAG_PX = 4;               // a press that moves less than this is a click
  const KEY_STEP = 1 / 40;         // an arrow press moves this fraction of the view (Shift: 1/8)
  const KEY_STEP_BIG = 1 / 8;
  const ANNOUNCE_MS = 350;         // the live text waits this long for the next change
  const MINUS = "\u2212";
  const TIES = [["mistake", "a tie y·w·x = 0 is a mistake"], ["positive", "a tie predicts +1"],
    ["negative", "a tie predicts \u22121"]];
  // Both classes keep 3:1 (in fact over 4:1) against a white page and against #121212, so one pair
  // serves the light and the dark theme; the shapes (filled circle, open square) carry the label
  // without colour.
  const BLUE = "#2f7ad8", RED = "#d9412e", GREY = "#808080";
  const CIRCLE_D = "M-6,0a6,6 0 1,0 12,0a6,6 0 1,0 -12,0Z";
  const SQUARE_D = "M-5.5,-5.5h11v11h-11Z";

  let instances = 0;

  // ---------------------------------------------------------------------------------------------
  // Numbers in words
  // ---------------------------------------------------------------------------------------------

  const coord = (v) => String(Number(v.toFixed(3)) || 0).replace("-", MINUS);
  const pointText = (p) => `(${coord(p[0])}, ${coord(p[1])})`;
  const labelText = (l) => (l > 0 ? "+1" : MINUS + "1");
  const full = (t) => (/[.!?]$/.test(t) ? t : t + ".");  // a sentence ends with one stop
  const plural = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  const listText = (items) => (items.length < 2 ? items.join("")
    : items.slice(0, -1).join(", ") + " and " + items[items.length - 1]);

  // ---------------------------------------------------------------------------------------------
  // Geometry of the picture
  // ---------------------------------------------------------------------------------------------

  // The window drawn: the model's view, widened to hold the origin and every point, and to an
  // aspect between 1:2 and 5:4, so that one unit is as long across as up (the normal then looks
  // normal to the line).
  function fitView(view, points) {
    let [x0, x1, y0, y1] = Array.isArray(view) && view.length === 4 && view.every(Number.isFinite)
      && view[1] > view[0] && view[3] > view[2] ? view : [-3, 3, -3, 3];
    x0 = Math.min(x0, 0); x1 = Math.max(x1, 0); y0 = Math.min(y0, 0); y1 = Math.max(y1, 0);
    for (const [a, b] of points) {  // points outside the window (set from Python): widen it
      const padX = 0.05 * (x1 - x0), padY = 0.05 * (y1 - y0);
      if (a < x0) x0 = a - padX; if (a > x1) x1 = a + padX;
      if (b < y0) y0 = b - padY; if (b > y1) y1 = b + padY;
    }
    const aspect = (y1 - y0) / (x1 - x0);
    if (aspect < 0.5) { const h = 0.5 * (x1 - x0), m = (y0 + y1) / 2; y0 = m - h / 2; y1 = m + h / 2; }
    if (aspect > 1.25) { const w = (y1 - y0) / 1.25, m = (x0 + x1) / 2; x0 = m - w / 2; x1 = m + w / 2; }
    return { x0, x1, y0, y1, W: PLOT_W, H: Math.round(PLOT_W * (y1 - y0) / (x1 - x0)) };
  }

  const sx = (v, x) => ((x - v.x0) / (v.x1 - v.x0)) * v.W;
  const sy = (v, y) => ((v.y1 - y) / (v.y1 - v.y0)) * v.H;
  const inView = (v, p) => p[0] >= v.x0 && p[0] <= v.x1 && p[1] >= v.y0 && p[1] <= v.y1;
  const clampToView = (v, p) => [Math.min(v.x1, Math.max(v.x0, p[0])), Math.min(v.y1, Math.max(v.y0, p[1]))];

  // The segment of the line a·x + b·y + c0 = 0 inside the window (Liang–Barsky), or null.
  function clipLine(v, a, b, c0) {
    const nn = a * a + b * b;
    if (!(nn > 0)) return null;
    const p = [-c0 * a / nn, -c0 * b / nn], d = [-b, a];
    let lo = -Infinity, hi = Infinity;
    for (const [k, min, max] of [[0, v.x0, v.x1], [1, v.y0, v.y1]]) {
      if (d[k] === 0) { if (p[k] < min || p[k] > max) return null; continue; }
      let t0 = (min - p[k]) / d[k], t1 = (max - p[k]) / d[k];
      if (t0 > t1) [t0, t1] = [t1, t0];
      lo = Math.max(lo, t0); hi = Math.min(hi, t1);
    }
    if (!(lo < hi)) return null;
    return [[p[0] + lo * d[0], p[1] + lo * d[1]], [p[0] + hi * d[0], p[1] + hi * d[1]], p];
  }

  // The window cut to the strip |a·x + b·y + c0| <= m (Sutherland–Hodgman, two half-planes).
  function clipBand(v, a, b, c0, m) {
    let poly = [[v.x0, v.y0], [v.x1, v.y0], [v.x1, v.y1], [v.x0, v.y1]];
    for (const s of [1, -1]) {  // keep s·(a·x + b·y + c0) <= m
      const f = (p) => s * (a * p[0] + b * p[1] + c0) - m, out = [];
      poly.forEach((p, k) => {
        const q = poly[(k + 1) % poly.length], fp = f(p), fq = f(q);
        if (fp <= 0) out.push(p);
        if ((fp < 0 && fq > 0) || (fp > 0 && fq < 0)) {
          const t = fp / (fp - fq);
          out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
        }
      });
      poly = out;
    }
    return poly;
  }

  // An arrow from (x0, y0) to (x1, y1) in viewBox units, as one path (no <marker>: its id would
  // have to be unique on a page with two playgrounds, and it would not take the line's colour).
  function arrowPath(x0, y0, x1, y1, head = 9) {
    const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy);
    if (!(len > 1)) return "";
    const ux = dx / len, uy = dy / len, h = Math.min(head, len / 2), wv = h * 0.5;
    const bx = x1 - ux * h, by = y1 - uy * h;
    return `M${f1(x0)},${f1(y0)}L${f1(x1)},${f1(y1)}M${f1(bx - uy * wv)},${f1(by + ux * wv)}` +
      `L${f1(x1)},${f1(y1)}L${f1(bx + uy * wv)},${f1(by - ux * wv)}`;
  }
  const f1 = (v) => (Math.round(v * 10) / 10).toString();

  // Tick spacing: 1, 2 or 5 times a power of ten, about `count` ticks across `span`.
  function tickStep(span, count = 6) {
    const raw = span / count, p = 10 ** Math.floor(Math.log10(raw)), m = raw / p;
    return p * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
  }

  // ---------------------------------------------------------------------------------------------
  // DOM helpers
  // ---------------------------------------------------------------------------------------------

  function h(tag, attrs = {}, children = []) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") e.textContent = v;
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) e.append(c);
    return e;
  }

  function s(tag, attrs = {}, parent = null) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.append(e);
    return e;
  }

  // setAttribute only when the value changes: a redraw of 200 points then touches only what moved.
  function attr(e, k, v) {
    const cache = e.__pcpg || (e.__pcpg = {});
    if (cache[k] !== v) { cache[k] = v; e.setAttribute(k, v); }
  }
  function text(e, v) { if (e.textContent !== v) e.textContent = v; }
  function show(e, on) { if (e.hidden === on) e.hidden = !on; }
  // SVG elements have no `hidden` property: their display attribute does the same.
  function showSvg(e, on) { attr(e, "display", on ? "inline" : "none"); }

  const STYLE = `
  .pcpg{margin:1em 0;color:inherit;font:inherit;max-width:100%}
  .pcpg *{box-sizing:border-box}
  .pcpg-title{font-weight:600;margin:0 0 .4rem}
  .pcpg-main{display:flex;flex-wrap:wrap;gap:.5rem 1.2rem;align-items:flex-start}
  .pcpg-figure{flex:1 1 420px;max-width:560px;min-width:0}
  .pcpg-side{flex:1 1 260px;min-width:0}
  .pcpg-plot{display:block;width:100%;height:auto;background:transparent;color:inherit;touch-action:none;cursor:crosshair;overflow:hidden;user-select:none;-webkit-user-select:none}
  .pcpg-plot:focus{outline:none}
  .pcpg-plot:focus-visible,.pcpg-plot.pcpg-kbd:focus{outline:3px solid ${BLUE};outline-offset:2px}
  .pcpg-frame{fill:none;stroke:${GREY};stroke-width:1}
  .pcpg-axis{stroke:currentColor;stroke-width:1;fill:none}
  .pcpg-tick{fill:currentColor;font-size:12px}
  .pcpg-pos{fill:${BLUE};stroke:${BLUE};stroke-width:1.5}
  .pcpg-neg{fill:none;stroke:${RED};stroke-width:2.5}
  .pcpg-line{stroke:currentColor;stroke-width:2.5}
  .pcpg-normal,.pcpg-wnew{stroke:currentColor;stroke-width:2;fill:none}
  .pcpg-wold{stroke:currentColor;stroke-width:1.5;stroke-dasharray:5 4;fill:none}
  .pcpg-upd{stroke-width:3;fill:none}
  .pcpg-upd.pcpg-upd-pos{stroke:${BLUE}}.pcpg-upd.pcpg-upd-neg{stroke:${RED}}
  .pcpg-band{fill:${GREY};fill-opacity:.25;stroke:${GREY};stroke-dasharray:4 3}
  .pcpg-culprit{fill:none;stroke:currentColor;stroke-width:2.5}
  .pcpg-sel{fill:none;stroke:currentColor;stroke-width:1.5;stroke-dasharray:3 2}
  .pcpg-cursor{stroke:currentColor;stroke-width:1.5;fill:none;display:none}
  .pcpg-plot.pcpg-kbd .pcpg-cursor{display:inline}
  .pcpg-vlabel{fill:currentColor;font-size:13px;font-style:italic}
  .pcpg-help,.pcpg-note,.pcpg-legend{font-size:.875em;margin:.3rem 0}
  .pcpg-legend{display:flex;flex-wrap:wrap;gap:.1rem 1rem;list-style:none;padding:0}
  .pcpg-legend li{display:flex;align-items:center;gap:.3rem}
  .pcpg-legend svg{width:16px;height:16px;overflow:visible;color:inherit}
  .pcpg-message{margin:.3rem 0;padding:.35rem .6rem;border-left:4px solid ${RED}}
  .pcpg-message[hidden]{display:none}
  .pcpg-controls{display:flex;flex-direction:column;gap:.35rem;margin:0 0 .5rem}
  .pcpg-row{display:flex;flex-wrap:wrap;align-items:center;gap:.35rem .5rem}
  .pcpg button,.pcpg select{font:inherit;color:inherit;background:transparent;min-height:32px;min-width:32px;padding:.15rem .65rem;border:1px solid ${GREY};border-radius:4px;cursor:pointer}
  .pcpg select{max-width:100%}
  .pcpg option{background-color:Canvas;color:CanvasText}
  .pcpg button[aria-disabled=true],.pcpg select:disabled,.pcpg input:disabled{cursor:not-allowed;opacity:.6}
  .pcpg :focus-visible{outline:3px solid ${BLUE};outline-offset:2px}
  .pcpg input[type=checkbox]{width:24px;height:24px;margin:0;accent-color:${BLUE}}
  .pcpg label{display:inline-flex;align-items:center;gap:.4rem}
  .pcpg-range{flex:1 1 7rem;min-width:7rem;max-width:16rem;height:24px;margin:0;padding:0;background:transparent;-webkit-appearance:none;appearance:none;cursor:pointer}
  .pcpg-range::-webkit-slider-runnable-track{height:6px;border-radius:3px;background:${GREY}}
  .pcpg-range::-moz-range-track{height:6px;border-radius:3px;background:${GREY}}
  .pcpg-range::-webkit-slider-thumb{-webkit-appearance:none;appearance:none;box-sizing:border-box;width:24px;height:24px;margin-top:-9px;border-radius:50%;border:2px solid #fff;background:${BLUE}}
  .pcpg-range::-moz-range-thumb{box-sizing:border-box;width:24px;height:24px;border-radius:50%;border:2px solid #fff;background:${BLUE}}
  .pcpg output{font-variant-numeric:tabular-nums;min-width:3.2em}
  .pcpg-readout{display:grid;grid-template-columns:auto 1fr;gap:.15rem .7rem;margin:.3rem 0;font-variant-numeric:tabular-nums}
  .pcpg-readout>div{display:contents}
  .pcpg-readout dt{font-weight:600}
  .pcpg-readout dd{margin:0}
  .pcpg-status{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
  `;

  // Once per document (or shadow root): a page with two playgrounds, or two copies of the module
  // (the static book inlines it with each playground), needs the rules only once.
  function injectStyle(el) {
    const root = el.getRootNode ? el.getRootNode() : document;
    const scope = root.nodeType === 11 ? root : document;  // a shadow root, or the page
    if (scope.querySelector("style[data-pcpg-style]")) return;
    const st = document.createElement("style");
    st.setAttribute("data-pcpg-style", "1");
    st.textContent = STYLE;
    (scope === document ? document.head || document.documentElement : scope).append(st);
  }

  // ---------------------------------------------------------------------------------------------
  // The state: what the model holds, read into plain values
  // ---------------------------------------------------------------------------------------------

  const DATA_KEYS = ["points", "labels", "tie", "offset", "c", "margin_target", "target", "max_epochs"];
  const ALL_KEYS = [...DATA_KEYS, "presets", "preset", "view", "title"];

  function readState(model) {
    const g = (k, d) => { const v = model.get(k); return v === undefined || v === null ? d : v; };
    const pts = (g("points", []) || []).map((p) => [Number(p[0]), Number(p[1])]);
    const lab = (g("labels", []) || []).map((l) => (Number(l) > 0 ? 1 : -1));
    const c = Number(g("c", 1)), target = Number(g("target", 0.5)), me = Number(g("max_epochs", 1000));
    return {
      points: pts, labels: lab,
      presets: Array.isArray(g("presets", [])) ? g("presets", []) : [],
      preset: String(g("preset", "")), view: g("view", null),
      tie: TIES.some(([t]) => t === g("tie", "mistake")) ? g("tie", "mistake") : "mistake",
      offset: Boolean(g("offset", false)), c: c > 0 && Number.isFinite(c) ? c : 1,
      margin: Boolean(g("margin_target", false)),
      target: target > 0 && target < 1 ? target : 0.5,
      maxEpochs: Number.isInteger(me) && me > 0 ? me : 1000,
      title: String(g("title", "") || "Perceptron playground"),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // The computation: the run, the margin, the bound, and what is wrong with the data
  // ---------------------------------------------------------------------------------------------

  // What the reader should know before reading any number: the states where the picture alone would
  // be empty or misleading. Returns sentences (shown in .pcpg-message and said in the live text).
  function diagnose(st, X, y) {
    const n = X.length, out = [];
    if (n === 0) {
      return ["No points yet: click to add a point, shift-click for the other label, or choose a data set."];
    }
    const atOrigin = X.map((p, i) => (p[0] === 0 && p[1] === 0 ? i : -1)).filter((i) => i >= 0);
    const nPos = y.filter((l) => l > 0).length, oneClass = nPos === 0 || nPos === n;
    const cls = nPos ? "+1" : MINUS + "1";
    if (atOrigin.length === n) {
      if (!st.offset) {
        out.push("All points are at the origin: w·0 = 0 for every w, so every point is a tie (a " +
          "mistake unless the tie rule predicts its label) and every update adds 0: no line through " +
          "the origin separates them, and w never moves. Drag them apart, or add points elsewhere.");
      } else if (!oneClass) {
        out.push("All points are at the origin, +1 and \u22121 on the same spot: no line separates " +
          "them, with or without an offset. Drag them apart.");
      }
    } else if (atOrigin.length && !st.offset) {
      const which = listText(atOrigin.map((i) => String(i + 1)));
      out.push(`${atOrigin.length > 1 ? "Points " + which + " are" : "Point " + which + " is"} at the ` +
        "origin: no line through the origin separates it strictly (w·0 = 0), so without the offset " +
        "trick the data are not separable. Move it, or turn on the offset trick.");
    }
    if (oneClass) {
      out.push(st.offset
        ? `Only ${cls} points: with the offset trick a line can move as far from them as you like, so ` +
          "their margin in the plane is unbounded; the perceptron runs on the lifted points (x, c), " +
          "whose margin γ′ is finite (shown). Add a point of the other label (shift-click)."
        : `Only ${cls} points: without an offset the line passes through the origin, and it separates ` +
          "them only if they all lie strictly on one side of some line through the origin (then w " +
          "turns towards them). Add a point of the other label (shift-click).");
    }
    return out;
  }

  // The run and its numbers, computed again whenever the data or a setting changes.
  function compute(st) {
    const res = { notes: [], run: null, cert: null, kind: "perceptron", maxEpochs: st.maxEpochs };
    let X = st.points, y = st.labels;
    const m = Math.min(X.length, y.length, MAX_POINTS);
    if (X.length !== y.length) res.notes.push(`The model has ${X.length} points but ${y.length} labels: the first ${m} of each are used.`);
    else if (X.length > MAX_POINTS) res.notes.push(`The playground draws at most ${MAX_POINTS} points: the first ${MAX_POINTS} of ${X.length} are used.`);
    X = X.slice(0, m); y = y.slice(0, m);
    Object.assign(res, { X, y, n: m, nPos: y.filter((l) => l > 0).length, issues: diagnose(st, X, y), c: st.offset ? st.c : null });
    if (!m) return res;
    try {
      const c = res.c, run = perceptronRun(X, y, { tie: st.tie, c, maxEpochs: st.maxEpochs });
      res.cert = certifiedMargin(X, y, { c, candidates: run.converged ? [run.w] : [] });
      res.R = radius(X, c);
      if (c !== null) res.Rplain = radius(X, null);
      const low = res.cert.low, R = res.R.up;
      if (st.margin && low) {
        res.kind = "margin";
        res.run = marginPerceptronRun(X, y, low, { target: st.target, c, maxEpochs: st.maxEpochs });
        res.bound = R && marginPerceptronBound(R, low, st.target);
        res.mistakes = res.run.steps.filter((t) => t.mistake).length;
      } else {
        if (st.margin) res.notes.push("The Margin Perceptron aims at τ·γ and needs a certified margin γ > 0: until the data have one, the plot shows the perceptron.");
        res.run = run;
        res.bound = low && R ? perceptronBound(R, low) : null;
        res.mistakes = run.steps.length;
      }
    } catch (err) {
      // A failure of the mathematics is a bug; the reader gets the message, not a blank plot.
      res.run = null; res.cert = null;
      res.notes.push(`The computation failed (${err && err.message ? err.message : err}); please report this with the points you made.`);
    }
    return res;
  }

  // The weight vector at scrub position k (after k updates), the one before it, and the update.
  function stepAt(res, k) {
    const run = res.run;
    if (!run) return null;
    const start = res.kind === "margin" ? run.w0 : null;
    const wAt = (j) => (j === 0 ? start : run.steps[j - 1].w);
    const step = k > 0 ? run.steps[k - 1] : null;
    return { w: wAt(k), prev: k > 0 ? wAt(k - 1) : null, step };
  }

  // ---------------------------------------------------------------------------------------------
  // The static model: what render needs from anywidget's model, without a kernel
  // ---------------------------------------------------------------------------------------------

  // The static book's model (exported below): set() tells the "change:key" listeners at once, as
  // anywidget's model does; save_changes() and send() have no kernel to talk to.
  function staticModel(state = {}) {
    const data = JSON.parse(JSON.stringify(state || {}));
    const listeners = new Map();
    const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);
    return {
      get: (k) => data[k],
      set(k, v) {
        const old = data[k];
        data[k] = v;
        if (!same(old, v)) for (const cb of [...(listeners.get("change:" + k) || [])]) cb(v);
      },
      on(name, cb) {
        for (const ev of String(name).split(/\s+/)) {
          if (!listeners.has(ev)) listeners.set(ev, new Set());
          listeners.get(ev).add(cb);
        }
      },
      off(name, cb) {
        if (name === undefined || name === null) { listeners.clear(); return; }
        for (const ev of String(name).split(/\s+/)) {
          if (cb) listeners.get(ev)?.delete(cb); else listeners.delete(ev);
        }
      },
      save_changes() {},
      send() {},
    };
  }

  // The static book's entry point (exported below).
  function mountStatic(root = document) {
    const found = [...root.querySelectorAll(".pc-playground")];
    if (root.matches && root.matches(".pc-playground")) found.unshift(root);
    const cleanups = [];
    for (const host of found) {
      if (host.dataset.pcpgMounted) continue;
      host.dataset.pcpgMounted = "1";
      const script = host.firstElementChild;
      try {
        if (!script || script.tagName !== "SCRIPT" || script.type !== "application/json") {
          throw new Error("its first child must be <script type=\"application/json\"> holding the state");
        }
        const model = staticModel(JSON.parse(script.textContent));
        cleanups.push(render({ model, el: host }));
      } catch (err) {
        host.append(h("p", { class: "pcpg-message", role: "alert",
          text: `The playground could not start: ${err.message}.` }));
      }
    }
    return cleanups;
  }

  // ---------------------------------------------------------------------------------------------
  // The playground
  // ---------------------------------------------------------------------------------------------

  class Playground {
    constructor(model, el) {
      this.model = model;
      this.el = el;
      this.id = `pcpg${++instances}-${Math.random().toString(36).slice(2, 7)}-`;
      this.abort = new AbortController();
      this.st = readState(model);
      this.res = null;
      this.pos = 0;            // scrub position: the number of updates made
      this.sel = -1;           // the selected point, or -1
      this.cursor = null;      // the keyboard cursor, in data coordinates
      this.playing = false;
      this.drag = null;
      this.dirty = true;       // the run must be computed again
      this.frame = 0;
      this.timers = { play: 0, say: 0 };
      this.lead = "";          // said before the state at the next announcement
      this.notice = "";        // a transient message (a refused point)
      this.restore = { points: this.st.points, labels: this.st.labels, preset: this.st.preset };
      injectStyle(el);
      this.build();
      this.listen();
      this.update();           // the first picture at once, not a frame later
      this.sayNow();
    }

    // --- building ------------------------------------------------------------------------------

    build() {
      const id = (k) => this.id + k;
      this.svg = s("svg", { class: "pcpg-plot", tabindex: "0", role: "application",
        "aria-roledescription": "plot", "aria-describedby": id("help"), id: id("plot") });
      const g = s("g", { "aria-hidden": "true" }, this.svg);
      this.g = {
        band: s("polygon", { class: "pcpg-band" }, g),
        frame: s("rect", { class: "pcpg-frame", x: 0.5, y: 0.5 }, g),
        axes: s("g", {}, g),
        line: s("line", { class: "pcpg-line" }, g),
        normal: s("path", { class: "pcpg-normal" }, g),
        wLabel: s("text", { class: "pcpg-vlabel" }, g),
        wold: s("path", { class: "pcpg-wold" }, g),
        wnew: s("path", { class: "pcpg-wnew" }, g),
        upd: s("path", { class: "pcpg-upd" }, g),
        points: s("g", {}, g),
        culprit: s("circle", { class: "pcpg-culprit", r: 11 }, g),
        sel: s("circle", { class: "pcpg-sel", r: 14 }, g),
        cursor: s("path", { class: "pcpg-cursor" }, g),
      };
      this.g.wLabel.textContent = "w";
      this.pointEls = [];

      const help = h("p", { class: "pcpg-help", id: id("help"),
        text: "Click to add a +1 point, shift-click for \u22121; drag to move; alt-click or " +
          "double-click to delete. Keyboard: arrows move the cursor (or the selected point, Shift " +
          "for bigger steps), Enter adds +1, Shift+Enter \u22121, n / p select the next / previous " +
          "point, Delete removes it, Escape deselects, Space plays, comma and period step." });
      const legend = h("ul", { class: "pcpg-legend", "aria-hidden": "true" });
      const icon = (body) => { const e = s("svg", { viewBox: "-8 -8 16 16" }); e.innerHTML = body; return e; };
      legend.append(
        h("li", {}, [icon(`<path class="pcpg-pos" d="${CIRCLE_D}"/>`), "+1"]),
        h("li", {}, [icon(`<path class="pcpg-neg" d="${SQUARE_D}"/>`), MINUS + "1"]),
        h("li", {}, [icon('<line class="pcpg-line" x1="-8" y1="6" x2="8" y2="-6"/>'), "w·x + b = 0"]),
        h("li", {}, [icon(`<path class="pcpg-upd pcpg-upd-pos" d="${arrowPath(-7, 6, 7, -6, 7)}"/>`), "update y·x"]),
        h("li", {}, [icon('<circle class="pcpg-culprit" r="6"/>'), "the point of the update"]));

      this.message = h("p", { class: "pcpg-message", hidden: true });
      this.status = h("div", { class: "pcpg-status", role: "status", "aria-live": "polite" });

      const c = this.controls = {};
      const button = (k, label) => (c[k] = h("button", { type: "button", id: id(k), text: label }));
      const range = (k, attrs) => (c[k] = h("input", { type: "range", class: "pcpg-range", id: id(k), ...attrs }));
      c.preset = h("select", { id: id("preset") });
      c.tie = h("select", { id: id("tie") }, TIES.map(([v, t]) => h("option", { value: v, text: t })));
      c.offset = h("input", { type: "checkbox", id: id("offset") });
      c.margin = h("input", { type: "checkbox", id: id("margin") });
      range("scrub", { min: 0, max: 0, step: 1, value: 0 });
      range("c", { min: 0.1, max: 5, step: 0.1, value: this.st.c });
      range("target", { min: 0.05, max: 0.95, step: 0.05, value: this.st.target });
      c.scrubOut = h("output", { for: id("scrub") });
      c.cOut = h("output", { for: id("c") });
      c.targetOut = h("output", { for: id("target") });
      this.note = h("p", { class: "pcpg-note" });
      const lab = (k, t) => h("label", { for: id(k), text: t });
      const row = (...kids) => h("div", { class: "pcpg-row" }, kids);
      const controls = h("div", { class: "pcpg-controls" }, [
        row(lab("preset", "Data set"), c.preset),
        row(button("play", "Play"), button("back", "Step back"), button("fwd", "Step forward"),
          button("reset", "Reset"), button("clear", "Clear points")),
        row(lab("scrub", "Update"), c.scrub, c.scrubOut),
        row(lab("tie", "Tie rule"), c.tie),
        row(h("label", { for: id("offset") }, [c.offset, "Offset trick"]), lab("c", "c"), c.c, c.cOut),
        row(h("label", { for: id("margin") }, [c.margin, "Margin perceptron"]), lab("target", "target τ"),
          c.target, c.targetOut),
      ]);

      const r = this.readout = {};
      const dl = h("dl", { class: "pcpg-readout" });
      for (const [k, t] of [["points", "Points"], ["radius", "Radius"], ["margin", "Margin"],
        ["update", "Update"], ["mistakes", "Mistakes"], ["run", "Run"], ["bound", "Bound"], ["check", "Check"]]) {
        r[k] = h("dd");
        r[k + "Term"] = h("dt", { text: t });
        dl.append(h("div", {}, [r[k + "Term"], r[k]]));
      }

      this.titleEl = h("p", { class: "pcpg-title", id: id("title") });
      this.root = h("div", { class: "pcpg", role: "group", "aria-labelledby": id("title") }, [
        this.titleEl,
        h("div", { class: "pcpg-main" }, [
          h("div", { class: "pcpg-figure" }, [this.message, this.svg, legend, help]),
          h("div", { class: "pcpg-side" }, [controls, this.note, dl]),
        ]),
        this.status,
      ]);
      this.el.append(this.root);
      this.syncControls();
    }

    // The controls show the state (after a change from Python too).
    syncControls() {
      const st = this.st, c = this.controls;
      text(this.titleEl, st.title);
      attr(this.svg, "aria-label", `${st.title}: the points and the perceptron's line`);
      const opts = [...(st.preset ? [] : [["", "Your points"]]),
        ...st.presets.map((p) => [String(p.name), String(p.title || p.name)])];
      const key = JSON.stringify(opts);
      if (c.preset.__opts !== key) {
        c.preset.__opts = key;
        c.preset.replaceChildren(...opts.map(([v, t]) => h("option", { value: v, text: t })));
      }
      c.preset.value = st.preset;
      const pre = st.presets.find((p) => String(p.name) === st.preset);
      text(this.note, pre && pre.note ? String(pre.note) : "");
      show(this.note, Boolean(pre && pre.note));
      c.tie.value = st.tie;
      c.offset.checked = st.offset;
      c.margin.checked = st.margin;
      c.c.value = String(st.c);
      c.target.value = String(st.target);
      c.c.disabled = !st.offset;
      c.target.disabled = !st.margin;
      text(c.cOut, num(st.c, 3));
      text(c.targetOut, num(st.target, 3));
    }

    // --- events --------------------------------------------------------------------------------

    listen() {
      const opt = { signal: this.abort.signal }, c = this.controls, on = (e, t, f) => e.addEventListener(t, f, opt);
      on(this.svg, "pointerdown", (e) => this.onPointerDown(e));
      on(this.svg, "pointermove", (e) => this.onPointerMove(e));
      on(this.svg, "pointerup", (e) => this.onPointerUp(e, false));
      on(this.svg, "pointercancel", (e) => this.onPointerUp(e, true));
      on(this.svg, "dblclick", (e) => this.onDoubleClick(e));
      on(this.svg, "keydown", (e) => this.onKey(e));
      // The keyboard cursor shows while the keyboard is in use on the plot.
      on(this.svg, "focus", () => this.svg.matches(":focus-visible") && this.svg.classList.add("pcpg-kbd"));
      on(this.svg, "blur", () => this.svg.classList.remove("pcpg-kbd"));
      on(c.preset, "change", () => this.loadPreset(c.preset.value));
      on(c.play, "click", () => this.togglePlay());
      on(c.back, "click", () => this.step(-1));
      on(c.fwd, "click", () => this.step(1));
      on(c.reset, "click", () => this.reset());
      on(c.clear, "click", () => this.editData([], [], "Cleared all points."));
      on(c.scrub, "input", () => { this.stop(); this.pos = Number(c.scrub.value); this.request(); this.say(); });
      on(c.tie, "change", () => this.setting({ tie: c.tie.value }));
      on(c.offset, "change", () => this.setting({ offset: c.offset.checked }));
      on(c.margin, "change", () => this.setting({ margin_target: c.margin.checked }));
      on(c.c, "input", () => this.setting({ c: Number(c.c.value) }));
      on(c.target, "input", () => this.setting({ target: Number(c.target.value) }));
      // Python's changes (or another view of the same model) redraw the playground too.
      this.modelHandlers = ALL_KEYS.map((k) => {
        const cb = () => this.fromModel(k);
        this.model.on("change:" + k, cb);
        return ["change:" + k, cb];
      });
    }

    fromModel(key) {
      if (this.writing) return;  // our own set(): the local state has it already
      const st = readState(this.model);
      if (key === "points" || key === "labels") {
        if (JSON.stringify([st.points, st.labels]) === JSON.stringify([this.st.points, this.st.labels])) return;
        this.sel = -1;
      }
      this.st = st;
      if (DATA_KEYS.includes(key)) this.dirty = true;
      this.syncControls();
      this.request();
      this.say();
    }

    // Write to the model: one save_changes for all the keys of one edit.
    write(values) {
      this.writing = true;
      try { for (const [k, v] of Object.entries(values)) this.model.set(k, v); } finally { this.writing = false; }
      this.model.save_changes();
    }

    setting(values) {
      const map = { tie: "tie", offset: "offset", margin_target: "margin", c: "c", target: "target" };
      for (const [k, v] of Object.entries(values)) this.st[map[k]] = v;
      this.write(values);
      this.syncControls();
      this.dirty = true;
      this.request();
      this.say();
    }

    // Every edit of the data goes through here: the local state, the model, a redraw, the live text.
    editData(points, labels, lead = "", { commit = true } = {}) {
      this.st.points = points;
      this.st.labels = labels;
      this.st.preset = "";
      this.notice = "";
      if (this.sel >= points.length) this.sel = -1;
      if (commit) this.commit();
      this.dirty = true;
      this.syncControls();
      this.request();
      this.say(lead);
    }

    commit() {
      this.write({ points: this.st.points.map((p) => [p[0], p[1]]), labels: [...this.st.labels], preset: "" });
    }

    addPoint(p, label) {
      if (this.st.points.length >= MAX_POINTS) {
        this.notice = `At most ${MAX_POINTS} points: delete one before adding another.`;
        this.request();
        this.say();
        return -1;
      }
      const v = this.view, q = clampToView(v, p);
      this.editData([...this.st.points, q], [...this.st.labels, label],
        `Added a ${labelText(label)} point at ${pointText(q)}.`);
      return this.st.points.length - 1;
    }

    deletePoint(i) {
      if (i < 0 || i >= this.st.points.length) return;
      const p = this.st.points[i], l = this.st.labels[i];
      this.sel = -1;
      this.editData(this.st.points.filter((_, k) => k !== i), this.st.labels.filter((_, k) => k !== i),
        `Deleted point ${i + 1} (${labelText(l)} at ${pointText(p)}).`);
    }

    movePoint(i, p, commit) {
      const pts = this.st.points.slice();
      pts[i] = clampToView(this.view, p);
      this.editData(pts, this.st.labels, `Point ${i + 1} moved to ${pointText(pts[i])}.`, { commit });
    }

    select(i, announce = true) {
      this.sel = i;
      if (i >= 0) this.cursor = this.st.points[i].slice();
      this.request();
      if (announce) {
        this.sayNow(i >= 0 ? `Selected point ${i + 1} of ${this.st.points.length}: ` +
          `${labelText(this.st.labels[i])} at ${pointText(this.st.points[i])}.` : "No point selected.", true);
      }
    }

    loadPreset(name) {
      const pre = this.st.presets.find((p) => String(p.name) === name);
      if (!pre) return;
      const points = (pre.points || []).map((p) => [Number(p[0]), Number(p[1])]);
      const labels = (pre.labels || []).map((l) => (Number(l) > 0 ? 1 : -1));
      this.stop();
      this.sel = -1;
      this.notice = "";
      Object.assign(this.st, { points, labels, preset: String(pre.name), view: pre.view || this.st.view });
      this.restore = { points, labels, preset: this.st.preset };
      this.write({ points: points.map((p) => p.slice()), labels: [...labels], view: this.st.view, preset: this.st.preset });
      this.cursor = null;
      this.dirty = true;
      this.syncControls();
      this.request();
      this.say(`Loaded the data set “${pre.title || pre.name}”.`);
    }

    // Reset: the data set last loaded (or the one the playground started with), rewound to the start.
    reset() {
      const r = this.restore;
      this.stop();
      this.sel = -1;
      this.notice = "";
      Object.assign(this.st, { points: r.points.map((p) => p.slice()), labels: [...r.labels], preset: r.preset });
      this.write({ points: r.points.map((p) => p.slice()), labels: [...r.labels], preset: r.preset });
      this.dirty = true;
      this.rewind = true;
      this.syncControls();
      this.request();
      this.say("Reset the points and rewound the run.");
    }

    // --- the pointer ---------------------------------------------------------------------------

    toData(e) {
      const r = this.svg.getBoundingClientRect(), v = this.view;
      return [v.x0 + ((e.clientX - r.left) / r.width) * (v.x1 - v.x0),
        v.y1 - ((e.clientY - r.top) / r.height) * (v.y1 - v.y0)];
    }

    // The point nearest the pointer, within HIT_PX css pixels; the last drawn wins a tie (it is on top).
    hitTest(e) {
      const r = this.svg.getBoundingClientRect(), v = this.view, k = r.width / v.W;
      let best = -1, bestD = HIT_PX * HIT_PX;
      this.st.points.forEach((p, i) => {
        const dx = r.left + sx(v, p[0]) * k - e.clientX, dy = r.top + sy(v, p[1]) * k - e.clientY;
        const d = dx * dx + dy * dy;
        if (d <= bestD) { bestD = d; best = i; }
      });
      return best;
    }

    onPointerDown(e) {
      if (e.button !== 0 || this.drag) return;
      this.svg.classList.remove("pcpg-kbd");
      this.svg.focus({ preventScroll: true });
      const hit = this.hitTest(e);
      e.preventDefault();
      if (e.altKey) { if (hit >= 0) this.deletePoint(hit); return; }
      this.drag = { id: e.pointerId, hit, x: e.clientX, y: e.clientY, moved: false, shift: e.shiftKey };
      this.svg.setPointerCapture(e.pointerId);
      if (hit >= 0) this.select(hit, false);
    }

    onPointerMove(e) {
      const d = this.drag;
      if (!d || e.pointerId !== d.id) return;
      if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_PX) return;
      d.moved = true;
      if (d.hit < 0) return;
      if (this.playing) this.stop();
      this.movePoint(d.hit, this.toData(e), false);  // the model is written once, at the end
    }

    onPointerUp(e, cancelled) {
      const d = this.drag;
      if (!d || e.pointerId !== d.id) return;
      this.drag = null;
      if (this.svg.hasPointerCapture(e.pointerId)) this.svg.releasePointerCapture(e.pointerId);
      if (d.hit >= 0 && d.moved) {
        this.commit();
        this.say(`Point ${d.hit + 1} moved to ${pointText(this.st.points[d.hit])}.`);
      } else if (d.hit >= 0) {
        this.select(d.hit);
      } else if (!d.moved && !cancelled) {
        const i = this.addPoint(this.toData(e), d.shift ? -1 : 1);
        this.justAdded = { i, t: performance.now() };
      }
    }

    // A double-click deletes the point under it, unless its first click just made that point.
    onDoubleClick(e) {
      const hit = this.hitTest(e), j = this.justAdded;
      if (hit < 0 || (j && j.i === hit && performance.now() - j.t < 800)) return;
      this.deletePoint(hit);
    }

    // --- the keyboard --------------------------------------------------------------------------

    onKey(e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;  // the browser's and the notebook's shortcuts
      const k = e.key, v = this.view;
      let done = true;
      if (k.startsWith("Arrow")) {
        const f = e.shiftKey ? KEY_STEP_BIG : KEY_STEP;
        const dx = k === "ArrowLeft" ? -1 : k === "ArrowRight" ? 1 : 0;
        const dy = k === "ArrowDown" ? -1 : k === "ArrowUp" ? 1 : 0;
        const from = this.sel >= 0 ? this.st.points[this.sel] : this.cursorAt();
        const to = clampToView(v, [from[0] + dx * f * (v.x1 - v.x0), from[1] + dy * f * (v.y1 - v.y0)]);
        this.cursor = to;
        if (this.sel >= 0) this.movePoint(this.sel, to, true);
        else { this.request(); this.say(`Cursor at ${pointText(to)}.`); }
      } else if (k === "Enter") {
        this.addPoint(this.cursorAt(), e.shiftKey ? -1 : 1);
      } else if (k === "n" || k === "N" || k === "p" || k === "P") {
        const n = this.st.points.length;
        if (!n) this.sayNow("There are no points to select.", true);
        else {
          const fwd = k.toLowerCase() === "n";
          this.select(this.sel < 0 ? (fwd ? 0 : n - 1) : (this.sel + (fwd ? 1 : n - 1)) % n);
        }
      } else if (k === "Delete" || k === "Backspace") {
        if (this.sel >= 0) this.deletePoint(this.sel);
        else this.sayNow("No point selected: press n to select one.", true);
      } else if (k === "Escape" && this.sel >= 0) {
        this.select(-1);
      } else if (k === " ") {
        this.togglePlay();
      } else if (k === "," || k === ".") {
        this.step(k === "," ? -1 : 1);
      } else {
        done = false;
      }
      if (done) {
        e.preventDefault();
        e.stopPropagation();  // JupyterLab's command mode must not act on these keys too
        this.svg.classList.add("pcpg-kbd");
        this.request();
      }
    }

    cursorAt() {
      const v = this.view;
      if (!this.cursor) this.cursor = [(v.x0 + v.x1) / 2, (v.y0 + v.y1) / 2];
      return (this.cursor = clampToView(v, this.cursor));
    }

    // --- the run: play, step, scrub ------------------------------------------------------------

    get total() { return this.res && this.res.run ? this.res.run.steps.length : 0; }

    step(d) {
      this.stop();
      this.pos = Math.max(0, Math.min(this.total, this.pos + d));
      this.request();
      this.say();
    }

    togglePlay() { if (this.playing) { this.stop(); this.say(`Paused at update ${this.pos}.`); } else this.play(); }

    play() {
      if (!this.total) { this.sayNow("Nothing to play: the perceptron makes no update on these points.", true); return; }
      if (this.pos >= this.total) this.pos = 0;
      this.playing = true;
      // Reduced motion: fewer, slower frames. Long runs take bigger strides, so a run plays in
      // about ten seconds at most.
      const reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      const delay = reduce ? 800 : 180, stride = Math.max(1, Math.ceil(this.total / (reduce ? 12 : 55)));
      const tick = () => {
        this.pos = Math.min(this.total, this.pos + stride);
        this.request();
        if (this.pos >= this.total) { this.stop(); this.say("The run played to its end."); } else this.timers.play = setTimeout(tick, delay);
      };
      this.timers.play = setTimeout(tick, reduce ? delay : 60);
      this.request();
    }

    stop() {
      clearTimeout(this.timers.play);
      if (this.playing) { this.playing = false; this.request(); }
    }

    // --- drawing -------------------------------------------------------------------------------

    request() {
      if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.update(); this.idle(); });
      this.root.dataset.busy = "";
    }

    // data-busy is on the root while a picture or an announcement is due, so that a test (or a
    // benchmark) can wait for the playground to settle instead of waiting a fixed time.
    idle() {
      if (!this.frame && !this.saying) delete this.root.dataset.busy;
    }

    update() {
      const t0 = performance.now();
      let t1 = t0;
      if (this.dirty) {
        this.dirty = false;
        this.res = compute(this.st);
        // After an edit the picture shows where the new run ends; a reset starts it again.
        this.pos = this.rewind ? 0 : this.total;
        this.rewind = false;
        t1 = performance.now();
      }
      this.pos = Math.max(0, Math.min(this.total, this.pos));
      this.view = fitView(this.st.view, this.res.X);
      this.drawAxes();
      this.drawPoints();
      this.drawRun();
      this.drawMarks();
      this.drawText();
      // For benchmarks: the whole update, and the part of it spent computing the run (0 when
      // only the scrub position changed).
      this.root.dataset.updateMs = (performance.now() - t0).toFixed(2);
      this.root.dataset.computeMs = (t1 - t0).toFixed(2);
    }

    drawAxes() {
      const v = this.view, key = [v.x0, v.x1, v.y0, v.y1].join();
      if (this.axesKey === key) return;  // the view changes rarely: the axes are rebuilt then only
      this.axesKey = key;
      attr(this.svg, "viewBox", `0 0 ${v.W} ${v.H}`);
      attr(this.g.frame, "width", v.W - 1);
      attr(this.g.frame, "height", v.H - 1);
      const ax = this.g.axes, ox = sx(v, 0), oy = sy(v, 0);
      ax.replaceChildren();
      s("path", { class: "pcpg-axis", d: `M0,${f1(oy)}H${v.W}M${f1(ox)},0V${v.H}` }, ax);
      const step = tickStep(Math.max(v.x1 - v.x0, v.y1 - v.y0)), ticks = [];
      for (let t = Math.ceil(v.x0 / step) * step; t <= v.x1; t += step) {
        if (Math.abs(t) < step / 2) continue;
        const x = sx(v, t);
        ticks.push(`M${f1(x)},${f1(oy - 3)}v6`);
        if (x > 12 && x < v.W - 12) s("text", { class: "pcpg-tick", x: f1(x), y: f1(Math.min(v.H - 3, oy + 15)), "text-anchor": "middle" }, ax).textContent = num(t, 3);
      }
      for (let t = Math.ceil(v.y0 / step) * step; t <= v.y1; t += step) {
        if (Math.abs(t) < step / 2) continue;
        const y = sy(v, t);
        ticks.push(`M${f1(ox - 3)},${f1(y)}h6`);
        if (y > 10 && y < v.H - 6) s("text", { class: "pcpg-tick", x: f1(Math.max(3, ox - 6)), y: f1(y + 4), "text-anchor": ox - 6 < 20 ? "start" : "end" }, ax).textContent = num(t, 3);
      }
      s("path", { class: "pcpg-axis", d: ticks.join("") }, ax);
      s("text", { class: "pcpg-vlabel", x: v.W - 16, y: f1(Math.max(14, oy - 6)) }, ax).textContent = "x₁";
      s("text", { class: "pcpg-vlabel", x: f1(Math.min(v.W - 18, ox + 6)), y: 14 }, ax).textContent = "x₂";
    }

    // The points: one <path> each, reused; only what changed is written.
    drawPoints() {
      const v = this.view, X = this.res.X, y = this.res.y, els = this.pointEls;
      while (els.length < X.length) els.push(s("path", {}, this.g.points));
      while (els.length > X.length) els.pop().remove();
      for (let i = 0; i < X.length; i++) {
        const e = els[i], pos = y[i] > 0;
        attr(e, "d", pos ? CIRCLE_D : SQUARE_D);
        attr(e, "class", pos ? "pcpg-pos" : "pcpg-neg");
        attr(e, "transform", `translate(${f1(sx(v, X[i][0]))},${f1(sy(v, X[i][1]))})`);
      }
    }

    // The line, its normal, the margin band and the update at the scrub position.
    drawRun() {
      const v = this.view, g = this.g, res = this.res, at = stepAt(res, this.pos);
      const w = at && at.w, c = res.c;
      const b = w && c !== null ? c * w[2] : 0;
      const seg = w ? clipLine(v, w[0], w[1], b) : null;
      if (seg) {
        attr(g.line, "x1", f1(sx(v, seg[0][0]))); attr(g.line, "y1", f1(sy(v, seg[0][1])));
        attr(g.line, "x2", f1(sx(v, seg[1][0]))); attr(g.line, "y2", f1(sy(v, seg[1][1])));
        // The normal starts at the foot of the perpendicular from the origin, or mid-segment when
        // the foot is outside the window.
        const foot = inView(v, seg[2]) ? seg[2] : [(seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2];
        const nn = Math.hypot(w[0], w[1]), L = 0.12 * v.W;
        const x0 = sx(v, foot[0]), y0 = sy(v, foot[1]), x1 = x0 + L * w[0] / nn, y1 = y0 - L * w[1] / nn;
        attr(g.normal, "d", arrowPath(x0, y0, x1, y1));
        attr(g.wLabel, "x", f1(x1 + 6 * w[0] / nn - 4)); attr(g.wLabel, "y", f1(y1 - 6 * w[1] / nn + 4));
      }
      showSvg(g.line, Boolean(seg)); showSvg(g.normal, Boolean(seg)); showSvg(g.wLabel, Boolean(seg));

      // The band |w·x + b| / ‖w‖ < τγ of the Margin Perceptron (‖w‖ of the lifted w with c).
      let band = "";
      if (seg && res.kind === "margin") {
        const m = this.st.target * res.cert.low * Math.hypot(...w);
        band = clipBand(v, w[0], w[1], b, m).map((p) => `${f1(sx(v, p[0]))},${f1(sy(v, p[1]))}`).join(" ");
      }
      attr(g.band, "points", band);
      showSvg(g.band, Boolean(band));

      // The update w ← w + y·x as a triangle from the origin (the plane's part of w, which with the
      // offset trick is w without its last entry), drawn smaller when w has outgrown the window.
      const st = at && at.step;
      if (st) {
        const prev = at.prev || [0, 0], wn = at.w, i = st.i, yx = [res.y[i] * res.X[i][0], res.y[i] * res.X[i][1]];
        const big = Math.max(Math.hypot(prev[0], prev[1]), Math.hypot(wn[0], wn[1]), Math.hypot(...yx));
        const k = big > 0 ? Math.min(1, 0.45 * Math.min(v.x1 - v.x0, v.y1 - v.y0) / big) : 1;
        this.vectorScale = k;
        const P = (q) => [sx(v, k * q[0]), sy(v, k * q[1])], O = P([0, 0]), A = P(prev), B = P(wn);
        attr(g.wold, "d", arrowPath(...O, ...A, 7));
        attr(g.wnew, "d", arrowPath(...O, ...B, 8));
        attr(g.upd, "d", arrowPath(...A, ...B, 10));
        attr(g.upd, "class", `pcpg-upd ${res.y[i] > 0 ? "pcpg-upd-pos" : "pcpg-upd-neg"}`);
      }
      for (const e of [g.wold, g.wnew, g.upd]) showSvg(e, Boolean(st));
      // The point whose mistake caused the update.
      if (st) {
        attr(g.culprit, "cx", f1(sx(v, res.X[st.i][0])));
        attr(g.culprit, "cy", f1(sy(v, res.X[st.i][1])));
      }
      showSvg(g.culprit, Boolean(st));
    }

    drawMarks() {
      const v = this.view, g = this.g;
      const sel = this.sel >= 0 && this.sel < this.res.X.length ? this.res.X[this.sel] : null;
      if (sel) { attr(g.sel, "cx", f1(sx(v, sel[0]))); attr(g.sel, "cy", f1(sy(v, sel[1]))); }
      showSvg(g.sel, Boolean(sel));
      const p = this.cursorAt(), x = sx(v, p[0]), y = sy(v, p[1]);
      attr(g.cursor, "d", `M${f1(x - 10)},${f1(y)}h7m6,0h7M${f1(x)},${f1(y - 10)}v7m0,6v7`);
    }

    // --- words: the readout, the message, the live text ----------------------------------------

    // The readout's rows as plain sentences; the live text reads the same sentences.
    words() {
      const res = this.res, st = this.st, n = res.n, c = res.c, out = {}, l = c !== null ? "′" : "";
      const R = `R${l}`, g = `γ${l}`, cert = res.cert;
      out.points = `${n} (${res.nPos} of +1, ${n - res.nPos} of ${MINUS}1)`;
      out.radius = !n || !res.R ? "—" : `${R} ≈ ${num(res.R.estimate)}` +
        (c !== null ? ` (the lifted points (x, c) with c = ${num(c, 3)}; R ≈ ${num(res.Rplain.estimate)})` : "");
      const est = cert && cert.gamma ? `floats estimate ${g} ≈ ${num(cert.gamma)}` : "";
      if (!cert) out.margin = "—";
      else if (cert.status === "separable") out.margin = cert.low ? `${g} ≥ ${num(cert.low)}, certified (separable; ${est})` : `separable, certified${est ? `; ${est}, not certified` : ""}`;
      else if (cert.status === "inseparable") out.margin = `not separable. ${cert.reason}`;
      else out.margin = `undecided. ${cert.reason}${est ? ` (${est}, not certified)` : ""}`;
      const run = res.run, k = this.pos, total = this.total;
      if (!run) return Object.assign(out, { update: "—", mistakes: "—", run: "—", bound: "—", check: "—" });
      const marg = res.kind === "margin";
      out.update = this.updateText();
      const soFar = marg ? run.steps.slice(0, k).filter((t) => t.mistake).length : k;
      out.mistakes = `${soFar} so far (update ${k} of ${total}); ${res.mistakes} in the whole run` +
        (marg ? ` (it also updates on points short of the target margin τ·${g})` : "");
      out.run = (marg ? `Margin Perceptron aiming at τ·${g} = ${num(st.target * cert.low, 3)}: ` : "Perceptron: ") +
        (run.converged ? `converged after ${plural(run.epochs, "epoch", "epochs")}`
          : `stopped at max_epochs = ${res.maxEpochs}, still making ${marg ? "margin " : ""}mistakes`);
      if (!res.bound) {
        const status = cert && cert.status;
        out.bound = status === "inseparable" ? "none: the data are not separable, so no γ > 0 bounds the mistakes"
          : "none: no margin γ > 0 is certified";
        out.check = status !== "inseparable" ? "No bound applies without a certified margin."
          : run.converged
            ? "The run ended with a sweep without a mistake, though the data are not separable: under this tie rule a " +
              "point with w·x = 0 counts as correct (w = 0, or its line passes through a point), or floating point " +
              "rounded a score of 0 or less to above 0. Either way its w does not separate the points, and no bound applies."
            : "This run did not stop. In exact arithmetic, with ties counted as mistakes, the perceptron never stops on " +
              "data that are not separable: a sweep without a mistake would give a separator.";
      } else {
        const from = `from ${R} ≤ ${num(res.R.up)} and ${g} ≥ ${num(cert.low)}, all three certified`;
        out.bound = marg ? `2(${R}/${g})²/η² + 2(${R}/${g})/η ≤ ${num(res.bound)} with η = 1 − τ = ${num(1 - st.target, 4, -1)}, ${from}`
          : `(${R}/${g})² ≤ ${num(res.bound)}, ${from}`;
        const count = marg ? total : res.mistakes;
        const what = plural(count, marg ? "update" : "mistake", marg ? "updates" : "mistakes");
        out.check = count <= res.bound
          ? `${what}${run.converged ? "" : " so far"} ≤ ${num(res.bound)}: the bound holds.`
          : `${what} > ${num(res.bound)}: the bound fails, which the theorem rules out — please report this data set.`;
      }
      return out;
    }

    // What happened at the scrub position, in words.
    updateText() {
      const res = this.res, at = stepAt(res, this.pos), st = at && at.step, w = at && at.w;
      const noLine = !w || (w[0] === 0 && w[1] === 0);
      let t;
      if (!st) {
        t = res.kind === "margin" ? "the start: w = y·x of point 1" : "the start: w = 0, no line yet";
      } else {
        const i = st.i, why = res.kind === "margin" && !st.mistake ? "short of the target margin" : "a mistake";
        t = `point ${i + 1} (${labelText(res.y[i])} at ${pointText(res.X[i])}) was ${why}, so w ← w + y·x`;
        if (this.vectorScale < 1) t += ` (the arrows from the origin drawn at ×${num(this.vectorScale, 2)})`;
      }
      if (noLine && st) t += w && w.length === 3 && w[2] !== 0
        ? "; w is (0, 0, b/c): no line, every point is on one side" : "; w = 0 again: no line";
      return t;
    }

    // The message for bad states and notices (shown, and said first in the live text).
    messageText() {
      return [this.notice, ...this.res.notes, ...this.res.issues].filter(Boolean).join(" ");
    }

    drawText() {
      const w = this.words(), r = this.readout, c = this.controls, total = this.total;
      for (const k of ["points", "radius", "margin", "update", "mistakes", "run", "bound", "check"]) text(r[k], w[k]);
      const msg = this.messageText();
      text(this.message, msg);
      show(this.message, Boolean(msg));
      attr(c.scrub, "max", String(total));
      if (Number(c.scrub.value) !== this.pos) c.scrub.value = String(this.pos);
      attr(c.scrub, "aria-valuetext", `update ${this.pos} of ${total}`);
      text(c.scrubOut, `${this.pos} / ${total}`);
      text(c.play, this.playing ? "Pause" : "Play");
      attr(c.play, "aria-disabled", String(!total));
      attr(c.back, "aria-disabled", String(this.pos <= 0));
      attr(c.fwd, "aria-disabled", String(this.pos >= total));
      c.tie.disabled = this.res.kind === "margin";
    }

    // The state in sentences, for screen readers.
    describe() {
      const res = this.res, w = this.words(), parts = [];
      const msg = this.messageText();
      if (msg) parts.push(msg);
      parts.push(`${plural(res.n, "point", "points")}: ${res.nPos} labelled +1, ${res.n - res.nPos} labelled ${MINUS}1.`);
      if (!res.n || !res.run) return parts.join(" ");
      parts.push(`Margin: ${full(w.margin)} ${w.radius.split(" (")[0]}.`);
      parts.push(`Update ${this.pos} of ${this.total}: ${w.update}.`);
      parts.push(`Mistakes: ${full(w.mistakes)} ${full(w.run)} Bound: ${full(w.bound)} ${full(w.check)}`);
      return parts.join(" ");
    }

    // Announce the state once things settle: not while a point is dragged or the run plays.
    say(lead = "") {
      if (lead) this.lead = lead;
      clearTimeout(this.timers.say);
      this.saying = false;
      if (this.drag && this.drag.moved) return this.idle();
      if (this.playing) return this.idle();
      this.saying = true;
      this.root.dataset.busy = "";
      this.timers.say = setTimeout(() => this.sayNow(), ANNOUNCE_MS);
    }

    sayNow(lead = "", only = false) {
      clearTimeout(this.timers.say);
      if (this.frame || this.dirty) { cancelAnimationFrame(this.frame); this.frame = 0; this.update(); }
      const first = lead || this.lead;
      this.lead = "";
      text(this.status, only ? first : [first, this.describe()].filter(Boolean).join(" "));
      this.saying = false;
      this.idle();
    }

    destroy() {
      this.abort.abort();
      for (const [ev, cb] of this.modelHandlers) this.model.off(ev, cb);
      cancelAnimationFrame(this.frame);
      clearTimeout(this.timers.play);
      clearTimeout(this.timers.say);
      this.root.remove();
    }
  }

  /** anywidget's entry point: draw the playground of `model` into `el`; returns the cleanup. */
  function render({ model, el }) {
    const pg = new Playground(model, el);
    return () => pg.destroy();
  }

  return { render, staticModel, mountStatic };
})();

/**
 * A model object for render() outside Jupyter: get/set/on/off/save_changes/send over a copy of
 * `state` (the model keys of the contract). set() tells the "change:key" listeners at once, as
 * anywidget's model does; save_changes() and send() have no kernel to talk to.
 */
export function staticModel(state = {}) {
  return playgroundUI.staticModel(state);
}

/**
 * Mount every `.pc-playground` under `root` (an element or the document) not mounted yet; its
 * first child is a script element of type application/json holding the state. Returns the cleanups.
 */
export function mountStatic(root = document) {
  return playgroundUI.mountStatic(root);
}

/** anywidget's format: render({ model, el }) draws the playground and returns its cleanup. */
export default { render: (args) => playgroundUI.render(args) };
