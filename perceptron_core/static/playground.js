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
  if (!Array.isArray(X) || !Array.isArray(y) || X.length !== y.length) throw new TypeError("X and y must be arrays of the same length");
  const bad = X.findIndex((x, i) => !(y[i] === 1 || y[i] === -1) || !x.every(Number.isFinite));
  if (bad >= 0) throw new RangeError(`point ${bad + 1} is not finite or its label ${y[bad]} is not +1 or -1`);
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
  if (!Object.hasOwn(TIES, tie)) throw new RangeError(`tie must be "mistake", "positive" or "negative", got ${tie}`);
  const A = lifted(X, c), w = lifts(c) ? [0, 0, 0] : [0, 0], steps = [];
  let epoch = 0, clean = false;
  for (; !clean && epoch < maxEpochs; epoch++) {
    clean = true;
    for (let i = 0; i < A.length; i++) {
      let score = 0;
      for (let j = 0; j < w.length; j++) score += A[i][j] * w[j];
      const margin = y[i] * score;
      if (!(margin < 0 || (margin === 0 && TIES[tie] !== y[i]))) continue;
      for (let j = 0; j < w.length; j++) w[j] += y[i] * A[i][j];
      steps.push({ i, epoch: epoch + 1, w: w.slice() });
      clean = false;
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
  if (!Z.length) throw new RangeError("the margin perceptron needs at least one point");
  const w = Z[0].slice(), w0 = w.slice(), aim = target * gamma, steps = [];
  let epoch = 0, clean = false;
  for (; !clean && epoch < maxEpochs; epoch++) {
    clean = true;
    Z.forEach((z, i) => {
      let s = 0, nn = 0;
      for (let j = 0; j < w.length; j++) s += z[j] * w[j];
      for (let j = 0; j < w.length; j++) nn += w[j] * w[j];
      if (nn > 0 && !(s < aim * Math.sqrt(nn))) return;  // while w = 0 every point is short
      for (let j = 0; j < w.length; j++) w[j] += z[j];
      steps.push({ i, epoch: epoch + 1, w: w.slice(), mistake: s <= 0 });
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
  const e = Math.min(a.e, b.e);
  return a.m === 0n ? b : b.m === 0n ? a : { m: (a.m << BigInt(a.e - e)) + (b.m << BigInt(b.e - e)), e };
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
  F64[0] = x;
  return x === 0 ? 2 ** -1074 : ((U64[0] += x > 0 ? 1n : -1n), F64[0]);
}
const nextDown = (x) => -nextUp(-x);

/** A number with `digits` significant digits; dir = -1 rounds down, +1 up, 0 to nearest. */
export function num(v, digits = 4, dir = 0) {
  if (!Number.isFinite(v) || v === 0) return v === 0 ? "0" : v > 0 ? "\u221e" : v < 0 ? "\u2212\u221e" : "NaN";
  if (Math.abs(v) >= 10 ** digits && Math.abs(v) < 1e21) return String(dir > 0 ? Math.ceil(v) : dir < 0 ? Math.floor(v) : Math.round(v)).replace("-", "\u2212");
  let r = Number(v.toPrecision(digits)), unit = 10 ** (Math.floor(Math.log10(Math.abs(v))) - digits + 1);
  if (dir > 0 && r < v) r = Number((r + unit).toPrecision(digits));
  if (dir < 0 && r > v) r = Number((r - unit).toPrecision(digits));
  return String(r).replace("-", "\u2212");
}

const ascii = (s) => s.replaceAll("\u2212", "-"); // num writes a minus sign, Number reads "-"

/** The sign of the decimal s (as num writes it) minus the float d, exactly: both as integers. */
function decimalMinus(s, d) {
  const [mant, exp = "0"] = ascii(s).split("e"), [a, b = ""] = mant.split(".");
  const k = Number(exp) - b.length, { m, e } = dyadic(d), p = (x, n) => x ** BigInt(Math.max(n, 0));
  return sign({ m: BigInt(a + b) * p(10n, k) * p(2n, -e) - m * p(2n, e) * p(10n, -k), e: 0 }); // s = (a.b)·10^exp
}
// The largest float at most the decimal s, and the smallest at least s.
const below = (s) => (decimalMinus(s, Number(ascii(s))) >= 0 ? Number(ascii(s)) : nextDown(Number(ascii(s))));
const above = (s) => -below(ascii(s).startsWith("-") ? ascii(s).slice(1) : "-" + ascii(s));

/** v rounded outwards (dir = +1 up, -1 down) to a short decimal d for which holds(f) is true,
 *  f the float between d and v nearest d: what holds for f then holds for d, exactly. null if no
 *  such d is found with 4 or 3 digits. */
function certifiedDecimal(v, dir, holds) {
  for (const [digits, nudge] of [[4, 0], [4, 1e-9], [3, 1e-3]]) {  // a float a hair off a round number: the next one
    const s = num(v * (1 + dir * nudge), digits, dir);
    if (Number.isFinite(Number(ascii(s))) && holds(dir > 0 ? below(s) : above(s))) return Number(ascii(s));
  }
  return null;
}

/** An upper bound R on the norms of the points (lifted with c): R² ≥ ‖x‖² for each, exactly,
 *  as a short decimal; the float estimate √(max ‖x‖²) is `estimate`. */
export function radius(X, c = null) {
  const A = lifted(X, c), most = Math.sqrt(A.reduce((m, a) => Math.max(m, a.reduce((s, v) => s + v * v, 0)), 0));
  return { estimate: most, up: certifiedDecimal(most, 1, (r) => A.every((a) => atLeast(sq(r), exactDot(a, a)))) };
}

/** Novikoff's bound (R/γ)² from R and γ as shown (decimals), rounded up to a decimal B with
 *  B·γ² ≥ R² checked exactly (on the floats just beyond the decimals R, γ and B). */
export function perceptronBound(R, gamma) {
  const r = sq(above(String(R))), g = sq(below(String(gamma)));
  return certifiedDecimal((R / gamma) ** 2, 1, (B) => atLeast(mul(dyadic(B), g), r));
}

/** The Margin Perceptron's bound 2(R/γ)²/η² + 2(R/γ)/η with η = 1 − τ (Balcan's 8(R/γ)² +
 *  4R/γ at τ = ½), rounded up to a decimal B with B·γ²η² ≥ 2R² + 2Rγη checked exactly. */
export function marginPerceptronBound(R, gamma, target = 0.5) {
  const eta = 1 - target, ratio = R / gamma, r = dyadic(above(String(R)));
  const ge = mul(dyadic(below(String(gamma))), add(ONE, neg(dyadic(target)))); // γ(1 − τ), exactly
  const rhs = mul({ m: 2n, e: 0 }, add(mul(r, r), mul(r, ge)));
  return certifiedDecimal(2 * ratio * ratio / (eta * eta) + 2 * ratio / eta, 1, (B) => atLeast(mul(dyadic(B), mul(ge, ge)), rhs));
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
  const D = V.slice(1).map((v) => v.map((x, j) => x - V[0][j])), Q = [], Rm = D.map(() => new Array(k - 1).fill(0));
  for (let c = 0; c < k - 1; c++) {
    let v = D[c].slice();
    Q.forEach((q, i) => { if (q) { Rm[i][c] = dot(q, v); v = v.map((x, j) => x - Rm[i][c] * q[j]); } });
    const norm = (Rm[c][c] = Math.hypot(...v));
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
  const tol = 1e-15 * Math.max(...Z.map((z) => dot(z, z)));
  let keys = [Z.reduce((b, z, i) => (dot(z, z) < dot(Z[b], Z[b]) ? i : b), 0)], lam = [1], x = Z[keys[0]].slice();
  for (let iter = 0; iter < 10 * Z.length + 100; iter++) {
    let j = 0, best = Infinity;
    Z.forEach((z, i) => { const s = dot(z, x); if (s < best) { best = s; j = i; } });
    if (best >= dot(x, x) - tol || keys.includes(j)) break; // no point lies further behind x
    keys.push(j);
    lam.push(0);
    for (;;) {
      const alpha = affineMinimizer(keys.map((k) => Z[k]));
      if (alpha.every((a) => a > 1e-14)) { lam = alpha.map((a) => a / alpha.reduce((t, b) => t + b, 0)); break; }
      // Step from λ toward α until the first weight reaches 0, and drop it from the corral. A
      // weight that is 0 in both (a point just added, with no pull) sets no limit: not 0/0.
      let theta = 1;
      alpha.forEach((a, i) => { if (a <= 1e-14 && lam[i] - a > 0) theta = Math.min(theta, lam[i] / (lam[i] - a)); });
      lam = lam.map((l, i) => (1 - theta) * l + theta * alpha[i]);
      const keep = lam.map((l) => l > 1e-14);
      if (keep.every(Boolean)) keep[lam.indexOf(Math.min(...lam))] = false;
      if (!keep.some(Boolean)) keep[lam.indexOf(Math.max(...lam))] = true; // never an empty corral
      keys = keys.filter((_, i) => keep[i]);
      lam = lam.filter((_, i) => keep[i]).map((l, _, kept) => l / kept.reduce((t, m) => t + m, 0));
    }
    x = Z[0].map((_, d) => keys.reduce((s, k, i) => s + lam[i] * Z[k][d], 0));
  }
  return { x, keys };
}

/** Exact weights λ ≥ 0 (Σλ = 1) on at most d + 1 rows of the corral with Σλz = 0, or null. */
function originCertificate(Z, keys) {
  const d = Z[0].length, found = [...Array((1 << keys.length) - 1).keys()].map((m) => keys.filter((_, i) => (m + 1) & (1 << i)));
  for (const S of found.filter((S) => S.length <= d + 1).sort((a, b) => a.length - b.length)) {
    const D = S.map((k) => Z[k]), subsets = [...Array(1 << d).keys()].map((m) => [0, 1, 2].filter((j) => j < d && m & (1 << j)));
    for (const J of subsets.filter((J) => J.length === S.length - 1)) {
      // The cofactors of the rows J of [z_1 … z_k]: Σ C_k z_k vanishes on J by construction.
      const C = D.map((_, k) => { const t = det(J.map((j) => D.filter((_, r) => r !== k).map((z) => dyadic(z[j])))); return k % 2 ? neg(t) : t; });
      const signs = C.map(sign);  // all ≥ 0 or all ≤ 0, not all 0
      if (!signs.some(Boolean) || (signs.includes(1) && signs.includes(-1))) continue;
      if (!Z[0].every((_, j) => !sign(C.reduce((s, c, k) => add(s, mul(c, dyadic(D[k][j]))), ZERO)))) continue;
      // The weights λ = C/ΣC, each as "m·2^e / M·2^E" with integers: exact, for the tests to read.
      const total = C.reduce(add, ZERO), pairs = S.map((k, i) => [k, C[i]]).filter(([, c]) => c.m).sort((a, b) => a[0] - b[0]);
      return { points: pairs.map(([k]) => k), weights: pairs.map(([, c]) => `${c.m}*2^${c.e}/${total.m}*2^${total.e}`) };
    }
  }
  return null;
}

const MINUS = "\u2212";
const coord = (v) => String(Number(v.toFixed(3)) || 0).replace("-", MINUS);
const pointText = (p) => `(${coord(p[0])}, ${coord(p[1])})`;
const labelText = (l) => (l > 0 ? "+1" : MINUS + "1");
/** Names listed for a sentence: "a", "a and b", "a, b and c". */
const listed = (names) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);
/** Points named for a sentence by their number and place, as the Update row names them (the
 *  picture does not number them): "2 at (1, 1)", or with labels "2 (+1 at (1, 1))". */
const named = (ks, X, y, labels = false) => listed(ks.map((k) => `${k + 1} ${labels ? `(${labelText(y[k])} at ${pointText(X[k])})` : `at ${pointText(X[k])}`}`));

/** The certificate in words: the points, and why no line separates them. */
function certificateText({ points }, X, y, c) {
  if (!lifts(c)) {  // Σλ y x = 0; one point alone is at the origin
    return points.length === 1 ? `Point ${points[0] + 1} is at the origin, so no line through the origin separates the data.`
      : `With weights ≥ 0, checked exactly, y x of points ${named(points, X, y, true)} add up to the origin, so no line through the origin separates the data.`;
  }
  // Σλ y (x, c) = 0: the weights of each class add up to ½, so a mix of each class is one point.
  const [pos, neg] = [1, -1].map((l) => points.filter((k) => y[k] === l)), cls = (l) => labelText(l);
  if (pos.length === 1 && neg.length === 1) return `The ${cls(1)} point ${pos[0] + 1} and the ${cls(-1)} point ${neg[0] + 1} are both at ${pointText(X[pos[0]])}, so no line separates them.`;
  const side = (ks, l) => (ks.length === 1 ? `the ${cls(l)} point ${named(ks, X, y)}` : `a mix of the ${cls(l)} points ${named(ks, X, y)}`);
  return `${side(pos, 1).replace(/^./, (a) => a.toUpperCase())} equals ${side(neg, -1)} (weights checked exactly), so the two classes' hulls meet and no line separates them.`;
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
  const none = { gamma: null, low: null, w: null, certificate: null }, margin = (w) => Math.min(...Z.map((z) => dot(z, w))) / Math.hypot(...w);
  if (!Z.length) return { ...none, status: "empty", reason: "There are no points." };
  // Wolfe in floats on the points scaled to at most 1, so that no square underflows or
  // overflows (its answer is only a suggestion: the checks below use the points themselves).
  const top = Math.max(...Z.map((z) => Math.max(...z.map(Math.abs))));
  const { x, keys } = wolfe(Z.map((z) => z.map((v) => v / (top || 1))));
  const nx = Math.hypot(...x), where = lifts(c) ? "with an offset" : "through the origin";
  const u = nx > 0 ? x.map((v) => v / nx) : null, gamma = u && margin(u) > 0 ? margin(u) : null;
  for (const w of [u, ...candidates]) {
    if (!w || w.length !== Z[0].length || !w.some((v) => v !== 0)) continue;
    const scores = Z.map((z) => exactDot(z, w));
    if (!scores.every((s) => sign(s) > 0)) continue;
    // γ* ≥ min zᵢ·w/‖w‖ = least/‖w‖, so a decimal g with g²·(w·w) ≤ least² is below γ*.
    const least = scores.reduce((a, b) => (atLeast(b, a) ? a : b)), ww = exactDot(w, w);
    const low = certifiedDecimal(margin(w), -1, (g) => g > 0 && atLeast(mul(least, least), mul(sq(g), ww)));
    return { ...none, status: "separable", gamma: Math.max(gamma || 0, margin(w)), low, w,
      reason: `Separable ${where}: a separator has y w·x > 0 at every point, checked in exact arithmetic.` };
  }
  const certificate = originCertificate(Z, keys);
  if (certificate) {
    return { ...none, status: "inseparable", certificate, reason: certificateText(certificate, X, y, c) };
  }
  return { ...none, status: "undecided", gamma, reason: "Floating point could not settle whether these points are " +
    "separable: no separator and no certificate checked out in exact arithmetic. No verdict." };
}

// ============================================================================================
// (4) The picture and its controls.
//
// render() draws the model's `view` window as an SVG and puts native controls beside it. The
// model (Jupyter's synced traitlets, or staticModel's plain object) holds the state; render keeps
// a local copy to draw from, writes the reader's edits back, and follows the model's changes.
// The run and the margin are computed again only when the data or a setting changes; scrubbing
// and playing only pick another step of the stored run.
// ============================================================================================

const SVG_NS = "http://www.w3.org/2000/svg";
const MAX_POINTS = 200;
const PLOT_W = 480;              // viewBox width; the svg scales to its column
const HIT_PX = 14;               // how near (css px) a mouse must come to grab a point
const HIT_TOUCH_PX = 24;         // and a finger (WCAG 2.2's 24-px target)
const DRAG_PX = 4;               // a press that moves less than this is a click
const KEY_STEP = 1 / 40;         // an arrow press moves this fraction of the view (Shift: 1/8)
const KEY_STEP_BIG = 1 / 8;
const ANNOUNCE_MS = 350;         // the live text waits this long for the next change
const TIE_NAMES = [["mistake", "a tie (w·x = 0) is a mistake"], ["positive", "a tie predicts +1"], ["negative", "a tie predicts \u22121"]];
// Both classes keep 3:1 (in fact over 4:1) against a white page and against #121212, so one pair
// serves the light and the dark theme; the shapes (filled circle, open square) carry the label
// without colour.
const BLUE = "#2f7ad8", RED = "#d9412e", GREY = "#808080";
const CIRCLE_D = "M-6,0a6,6 0 1,0 12,0a6,6 0 1,0 -12,0Z";
const SQUARE_D = "M-5.5,-5.5h11v11h-11Z";
let instances = 0;

const full = (t) => (/[.!?]$/.test(t) ? t : t + ".");  // a sentence ends with one stop
const plural = (k, one, many) => `${k} ${k === 1 ? one : many}`;

// --- Geometry of the picture -----------------------------------------------------------------

// The window drawn: the model's view, widened to hold the origin and every point, and to an
// aspect between 1:2 and 5:4, so that one unit is as long across as up (the normal then looks
// normal to the line).
function fitView(view, points) {
  let [x0, x1, y0, y1] = Array.isArray(view) && view.length === 4 && view.every(Number.isFinite)
    && view[1] > view[0] && view[3] > view[2] ? view : [-3, 3, -3, 3];
  x0 = Math.min(x0, 0); x1 = Math.max(x1, 0); y0 = Math.min(y0, 0); y1 = Math.max(y1, 0);
  for (const [a, b] of points) {  // points outside the window (set from Python): widen it
    const padX = 0.05 * (x1 - x0), padY = 0.05 * (y1 - y0);
    if (a < x0) x0 = a - padX; if (a > x1) x1 = a + padX; if (b < y0) y0 = b - padY; if (b > y1) y1 = b + padY;
  }
  const aspect = (y1 - y0) / (x1 - x0), mx = (x0 + x1) / 2, my = (y0 + y1) / 2, wide = (x1 - x0) / 4, tall = (y1 - y0) / 2.5;
  if (aspect < 0.5) { y0 = my - wide; y1 = my + wide; }
  if (aspect > 1.25) { x0 = mx - tall; x1 = mx + tall; }
  return { x0, x1, y0, y1, W: PLOT_W, H: Math.round(PLOT_W * (y1 - y0) / (x1 - x0)) };
}

const sx = (v, x) => ((x - v.x0) / (v.x1 - v.x0)) * v.W;
const sy = (v, y) => ((v.y1 - y) / (v.y1 - v.y0)) * v.H;
const inView = (v, p) => p[0] >= v.x0 && p[0] <= v.x1 && p[1] >= v.y0 && p[1] <= v.y1;
const clampToView = (v, p) => [Math.min(v.x1, Math.max(v.x0, p[0])), Math.min(v.y1, Math.max(v.y0, p[1]))];
const f1 = (v) => (Math.round(v * 10) / 10).toString();
const screen = (v, ps) => ps.map((p) => `${f1(sx(v, p[0]))},${f1(sy(v, p[1]))}`).join(" ");

// The segment of the line a·x + b·y + c0 = 0 inside the window (Liang–Barsky), or null; its
// third point is the foot of the perpendicular from the origin.
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
  return lo < hi ? [[p[0] + lo * d[0], p[1] + lo * d[1]], [p[0] + hi * d[0], p[1] + hi * d[1]], p] : null;
}

// An arrow from (x0, y0) to (x1, y1) in viewBox units, as one path (no <marker>: its id would
// have to be unique on a page with two playgrounds, and it would not take the line's colour).
function arrowPath(x0, y0, x1, y1, head = 9) {
  const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy);
  if (!(len > 1)) return "";
  const ux = dx / len, uy = dy / len, h = Math.min(head, len / 2), wv = h * 0.5, bx = x1 - ux * h, by = y1 - uy * h;
  return `M${f1(x0)},${f1(y0)}L${f1(x1)},${f1(y1)}M${f1(bx - uy * wv)},${f1(by + ux * wv)}L${f1(x1)},${f1(y1)}L${f1(bx + uy * wv)},${f1(by - ux * wv)}`;
}

// --- DOM helpers -----------------------------------------------------------------------------

function h(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v; else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children);
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
const text = (e, v) => { if (e.textContent !== v) e.textContent = v; };
const show = (e, on) => { if (e.hidden === on) e.hidden = !on; };
const showSvg = (e, on) => attr(e, "display", on ? "inline" : "none"); // SVG has no `hidden`

const STYLE = `
.pcpg{margin:1em 0;color:inherit;font:inherit;max-width:100%;container-type:inline-size} .pcpg *{box-sizing:border-box} .pcpg-title{font-weight:600;margin:0 0 .4rem}
.pcpg-main{display:grid;grid-template-columns:minmax(0,1fr);gap:.5rem 1.2rem;align-items:start} .pcpg-figure,.pcpg-side{min-width:0}
@container (min-width:620px){.pcpg-main{grid-template-columns:minmax(0,1.3fr) minmax(16rem,1fr)}}
.pcpg-plot{display:block;width:100%;height:auto;background:transparent;color:inherit;touch-action:manipulation;cursor:crosshair;overflow:hidden;user-select:none;-webkit-user-select:none}
.pcpg-plot:focus{outline:none} .pcpg-plot:focus-visible,.pcpg-plot.pcpg-kbd:focus{outline:3px solid ${BLUE};outline-offset:2px} .pcpg-frame{fill:none;stroke:${GREY};stroke-width:1}
.pcpg-axis{stroke:currentColor;stroke-width:1;fill:none} .pcpg-tick{fill:currentColor;font-size:12px} .pcpg-pos{fill:${BLUE};stroke:${BLUE};stroke-width:1.5}
.pcpg-neg{fill:none;stroke:${RED};stroke-width:2.5} .pcpg-line{stroke:currentColor;stroke-width:2.5} .pcpg-normal,.pcpg-wnew{stroke:currentColor;stroke-width:2;fill:none}
.pcpg-wold{stroke:currentColor;stroke-width:1.5;stroke-dasharray:5 4;fill:none} .pcpg-upd{stroke-width:3;fill:none} .pcpg-upd.pcpg-upd-pos{stroke:${BLUE}}
.pcpg-upd.pcpg-upd-neg{stroke:${RED}} .pcpg-band{fill:none;stroke:currentColor;stroke-width:1.5;stroke-dasharray:4 3} .pcpg-culprit{fill:none;stroke:currentColor;stroke-width:2.5}
.pcpg-sel{fill:none;stroke:currentColor;stroke-width:1.5;stroke-dasharray:3 2} .pcpg-cursor{stroke:currentColor;stroke-width:1.5;fill:none;display:none}
.pcpg-plot.pcpg-kbd .pcpg-cursor{display:inline} .pcpg-vlabel{fill:currentColor;font-size:13px;font-style:italic}
.pcpg-help,.pcpg-note,.pcpg-legend{font-size:.875em;margin:.3rem 0} .pcpg-help p{margin:0 0 .2rem} .pcpg-legend{display:flex;flex-wrap:wrap;gap:.1rem 1rem;list-style:none;padding:0}
.pcpg-legend li{display:flex;align-items:center;gap:.3rem} .pcpg-legend li[hidden]{display:none} .pcpg-legend svg,.pcpg-label svg{width:16px;height:16px;overflow:visible;color:inherit}
.pcpg-edit{margin:.4rem 0} .pcpg-label{display:inline-flex;gap:0} .pcpg-label button{display:inline-flex;align-items:center;gap:.35rem;min-width:44px;min-height:40px}
.pcpg-label button:first-child{border-radius:4px 0 0 4px} .pcpg-label button:last-child{border-radius:0 4px 4px 0;margin-left:-1px}
.pcpg-label button[aria-pressed=true]{font-weight:700;border:2px solid currentColor;box-shadow:inset 0 -3px 0 currentColor}
.pcpg-message{margin:.3rem 0;padding:.35rem .6rem;border-left:4px solid ${RED}} .pcpg-message[hidden]{display:none}
.pcpg-controls{display:flex;flex-direction:column;gap:.35rem;margin:0 0 .5rem} .pcpg-row{display:flex;flex-wrap:wrap;align-items:center;gap:.35rem .5rem}
.pcpg button,.pcpg select{font:inherit;color:inherit;background:transparent;min-height:32px;min-width:32px;padding:.15rem .65rem;border:1px solid ${GREY};border-radius:4px;cursor:pointer}
.pcpg select{max-width:100%} .pcpg option{background-color:Canvas;color:CanvasText}
.pcpg button[aria-disabled=true],.pcpg select:disabled,.pcpg input:disabled{cursor:not-allowed;opacity:.6} .pcpg :focus-visible{outline:3px solid ${BLUE};outline-offset:2px}
.pcpg input[type=checkbox]{width:24px;height:24px;margin:0;accent-color:${BLUE}} .pcpg label{display:inline-flex;align-items:center;gap:.4rem}
.pcpg-range{flex:1 1 5rem;min-width:5rem;max-width:16rem;height:24px;margin:0;padding:0;background:transparent;-webkit-appearance:none;appearance:none;cursor:pointer}
.pcpg-range::-webkit-slider-runnable-track{height:6px;border-radius:3px;background:${GREY}} .pcpg-range::-moz-range-track{height:6px;border-radius:3px;background:${GREY}}
.pcpg-range::-webkit-slider-thumb{-webkit-appearance:none;appearance:none;box-sizing:border-box;width:24px;height:24px;margin-top:-9px;border-radius:50%;border:2px solid #fff;background:${BLUE}}
.pcpg-range::-moz-range-thumb{box-sizing:border-box;width:24px;height:24px;border-radius:50%;border:2px solid #fff;background:${BLUE}}
.pcpg output{font-variant-numeric:tabular-nums;min-width:3.2em}
.pcpg dl.pcpg-readout{margin:.3rem 0 .6rem;font-size:.9em;font-variant-numeric:tabular-nums} .pcpg-readout>div{margin:0 0 .2rem}
.pcpg dl.pcpg-readout dt{font-weight:600;display:inline;margin:0 .4em 0 0} .pcpg dl.pcpg-readout dd{margin:0;display:inline}
@media print{.pcpg-edit{display:none}}
.pcpg-status{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}`;

// The readout's rules name dl.pcpg-readout inside .pcpg: as specific as the book theme's rules for
// a dl with a class (a 3rem margin, dd indented 2rem), and later in the page, so they win.
// Once per document (or shadow root): a page with two playgrounds, or two copies of the module
// (the static book inlines it with each playground), needs the rules only once.
function injectStyle(el) {
  const root = el.getRootNode ? el.getRootNode() : document;
  const scope = root.nodeType === 11 ? root : document;  // a shadow root, or the page
  if (scope.querySelector("style[data-pcpg-style]")) return;
  const st = h("style", { "data-pcpg-style": "1", text: STYLE });
  (scope === document ? document.head || document.documentElement : scope).append(st);
}

// --- The state, the computation, and what is wrong with the data ------------------------------

const DATA_KEYS = ["points", "labels", "tie", "offset", "c", "margin_target", "target", "max_epochs"];
const ALL_KEYS = [...DATA_KEYS, "presets", "preset", "view", "title"];

function readState(model) {
  const g = (k, d) => { const v = model.get(k); return v === undefined || v === null ? d : v; };
  const c = Number(g("c", 1)), target = Number(g("target", 0.5)), me = Number(g("max_epochs", 1000)), tie = g("tie", "mistake");
  return {
    points: g("points", []).map((p) => [Number(p[0]), Number(p[1])]), labels: g("labels", []).map((l) => (Number(l) > 0 ? 1 : -1)),
    presets: Array.isArray(g("presets", [])) ? g("presets", []) : [], preset: String(g("preset", "")), view: g("view", null),
    tie: Object.hasOwn(TIES, tie) ? tie : "mistake", offset: Boolean(g("offset", false)), c: c > 0 && Number.isFinite(c) ? c : 1,
    margin: Boolean(g("margin_target", false)), target: target > 0 && target < 1 ? target : 0.5,
    maxEpochs: Number.isInteger(me) && me > 0 ? me : 1000, title: String(g("title", "") || "Perceptron playground"),
  };
}

// What the reader should know before reading any number: the states where the picture alone would
// be empty or misleading. Returns sentences (shown in .pcpg-message and said in the live text).
function diagnose(st, X, y) {
  const n = X.length, out = [];
  if (n === 0) return ["No points yet: tap or click the plot to add one (the +1 and \u22121 buttons under it choose the label), or choose a data set."];
  const atOrigin = X.map((p, i) => (p[0] === 0 && p[1] === 0 ? i : -1)).filter((i) => i >= 0);
  const nPos = y.filter((l) => l > 0).length, oneClass = nPos === 0 || nPos === n, cls = nPos ? "+1" : MINUS + "1";
  if (atOrigin.length === n && !st.offset) out.push("All points are at the origin: w·0 = 0 for every w, so every point is a tie (a mistake unless the tie rule predicts its label) and every update adds 0: no line through the origin separates them, and w never moves. Drag them apart, or add points elsewhere.");
  else if (atOrigin.length === n && !oneClass) out.push("All points are at the origin, +1 and \u22121 on the same spot: no line separates them, with or without an offset. Drag them apart.");
  else if (atOrigin.length && atOrigin.length < n && !st.offset) {
    const [noun, verb, it] = atOrigin.length > 1 ? ["Points", "are", "them"] : ["Point", "is", "it"];
    out.push(`${noun} ${listed(atOrigin.map((i) => String(i + 1)))} ${verb} at the origin: w·0 = 0 for every w, so no line through the origin has ${it} strictly on one side, and without the offset trick the data are not separable. Move ${it}, or turn on the offset trick (which lets the line miss the origin).`);
  }
  if (oneClass && st.offset) out.push(`Only ${cls} points: with the offset trick a line can move as far from them as you like, so their largest margin with an offset is unbounded; the perceptron runs on the lifted points (x, c), whose margin γ′ is finite (shown). Add a point of the other label (choose it under the plot).`);
  else if (oneClass) out.push(`Only ${cls} points: without an offset the line passes through the origin, and it separates them only if they all lie strictly on one side of some line through the origin (then w turns towards them). Add a point of the other label (choose it under the plot).`);
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
  if (m) try {
    const c = res.c, run = perceptronRun(X, y, { tie: st.tie, c, maxEpochs: st.maxEpochs });
    Object.assign(res, { cert: certifiedMargin(X, y, { c, candidates: run.converged ? [run.w] : [] }), R: radius(X, c), Rplain: radius(X, null) });
    const low = res.cert.low, R = res.R.up;
    if (st.margin && low) {
      const mp = marginPerceptronRun(X, y, low, { target: st.target, c, maxEpochs: st.maxEpochs });
      Object.assign(res, { kind: "margin", run: mp, bound: R && marginPerceptronBound(R, low, st.target), mistakes: mp.steps.filter((t) => t.mistake).length });
    } else {
      const g = c === null ? "γ" : "γ′";
      if (st.margin) res.notes.push(`The margin perceptron aims at τ${g} and needs a margin ${g} > 0 checked exactly: until the data have one, the plot shows the perceptron.`);
      Object.assign(res, { run, bound: low && R ? perceptronBound(R, low) : null, mistakes: run.steps.length });
    }
  } catch (err) { // a failure of the mathematics is a bug; the reader gets the message, not a blank plot
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

// --- The static model: what render needs from anywidget's model, without a kernel -------------

/**
 * A model object for render() outside Jupyter: get/set/on/off/save_changes/send over a copy of
 * `state` (the model keys of the contract). set() tells the "change:key" listeners at once, as
 * anywidget's model does; save_changes() and send() have no kernel to talk to.
 */
export function staticModel(state = {}) {
  const data = JSON.parse(JSON.stringify(state || {})), listeners = new Map();
  return {
    get: (k) => data[k],
    set(k, v) {
      const same = JSON.stringify(data[k]) === JSON.stringify((data[k] = v));
      if (!same) for (const cb of [...(listeners.get("change:" + k) || [])]) cb(v);
    },
    on(ev, cb) { if (!listeners.has(ev)) listeners.set(ev, new Set()); listeners.get(ev).add(cb); },
    off(ev, cb) { if (ev === undefined || ev === null) listeners.clear(); else if (cb) listeners.get(ev)?.delete(cb); else listeners.delete(ev); },
    save_changes() {}, send() {},
  };
}

/**
 * Mount every `.pc-playground` under `root` (an element or the document) not mounted yet; its
 * first child is a script element of type application/json holding the state. Returns the cleanups.
 */
export function mountStatic(root = document) {
  const found = [...(root.matches && root.matches(".pc-playground") ? [root] : []), ...root.querySelectorAll(".pc-playground")];
  const cleanups = [];
  for (const host of found.filter((e) => !e.dataset.pcpgMounted)) {
    host.dataset.pcpgMounted = "1";
    const script = host.firstElementChild;
    try {
      if (!script || script.tagName !== "SCRIPT" || script.type !== "application/json") throw new Error("its first child must be <script type=\"application/json\"> holding the state");
      cleanups.push(render({ model: staticModel(JSON.parse(script.textContent)), el: host }));
    } catch (err) {
      host.append(h("p", { class: "pcpg-message", role: "alert", text: `The playground could not start: ${err.message}.` }));
    }
  }
  return cleanups;
}

// --- The playground --------------------------------------------------------------------------

class Playground {
  constructor(model, el) {
    // pos: the scrub position (updates made); sel: the selected point or -1; cursor: the keyboard
    // cursor in data coordinates; dirty: the run must be computed again; lead: said before the
    // state at the next announcement; notice: a transient message (a refused point).
    const st = readState(model), id = `pcpg${++instances}-${Math.random().toString(36).slice(2, 7)}-`;
    // adds: the label a tap, a click or Enter adds (the buttons under the plot choose it).
    Object.assign(this, { model, el, st, id, res: null, pos: 0, sel: -1, cursor: null, playing: false, drag: null, dirty: true, adds: 1,
      frame: 0, abort: new AbortController(), timers: { play: 0, say: 0 }, lead: "", notice: "",
      restore: { points: st.points, labels: st.labels, preset: st.preset } });
    injectStyle(el);
    this.build();
    this.listen();
    this.update();           // the first picture at once, not a frame later
    this.sayNow();
  }

  build() {
    const id = (k) => this.id + k;
    this.svg = s("svg", { class: "pcpg-plot", tabindex: "0", role: "application", "aria-roledescription": "plot",
      "aria-describedby": id("help"), id: id("plot") });
    const g = s("g", { "aria-hidden": "true" }, this.svg);
    this.g = {};
    for (const [k, tag, cls, extra] of [["band", "path"], ["frame", "rect", "frame", { x: 0.5, y: 0.5 }], ["axes", "g", ""],
      ["line", "line"], ["normal", "path"], ["wLabel", "text", "vlabel pcpg-wlabel"], ["wold", "path"], ["wnew", "path"], ["upd", "path"],
      ["points", "g", ""], ["culprit", "circle", "culprit", { r: 11 }], ["sel", "circle", "sel", { r: 14 }], ["cursor", "path"]]) {
      this.g[k] = s(tag, { ...(cls === "" ? {} : { class: `pcpg-${cls || k}` }), ...extra }, g);
    }
    this.g.wLabel.textContent = "w";
    this.pointEls = [];
    // Three short lines, one per way in: the chapters name shift-click, alt-click and
    // double-click too, which still work, but a reader needs only these.
    const help = h("div", { class: "pcpg-help", id: id("help") }, [
      "Touch: tap to add a point with the label chosen above, drag a point to move it, tap a point and then Delete point to remove it; swipe on empty space to scroll.",
      "Mouse: click to add (Shift-click adds the other label), drag to move, double-click to delete.",
      "Keys, with the plot focused: arrows move the cursor, or the selected point (Shift: farther); Enter adds (Shift+Enter: the other label); n and p select a point, Escape deselects, Delete removes it; Space plays; comma and period step.",
    ].map((t) => h("p", { text: t })));
    const icon = (body) => { const e = s("svg", { viewBox: "-8 -8 16 16", "aria-hidden": "true" }); e.innerHTML = body; return e; };
    // The update arrow takes the colour of the point that made it: both are shown. The band's
    // entry shows only while the margin perceptron runs (drawText).
    const legend = h("ul", { class: "pcpg-legend", "aria-hidden": "true" }, [
      [`<path class="pcpg-pos" d="${CIRCLE_D}"/>`, "+1"], [`<path class="pcpg-neg" d="${SQUARE_D}"/>`, MINUS + "1"],
      ['<line class="pcpg-line" x1="-8" y1="6" x2="8" y2="-6"/>', "w·x + b = 0"],
      [`<path class="pcpg-wnew" d="${arrowPath(-8, 8, 2, -8, 6)}"/><path class="pcpg-wold" d="${arrowPath(-8, 8, 8, 2, 6)}"/>`,
        "w (dashed: before the update)"],
      [`<path class="pcpg-upd pcpg-upd-pos" d="${arrowPath(-8, 4, 2, -7, 6)}"/><path class="pcpg-upd pcpg-upd-neg" d="${arrowPath(-2, 8, 8, -3, 6)}"/>`,
        "update y x (the point's colour)"],
      ['<circle class="pcpg-culprit" r="6"/>', "the point of the update"],
      ['<path class="pcpg-band" d="M-8,1L8,-8M-8,8L8,-1"/>', "the band the margin perceptron aims beyond (τγ)"],
    ].map(([b, t]) => h("li", {}, [icon(b), t])));
    this.legendBand = legend.lastChild;
    this.message = h("p", { class: "pcpg-message", hidden: true });
    this.status = h("div", { class: "pcpg-status", role: "status", "aria-live": "polite" });

    const c = this.controls = {};
    const button = (k, label) => (c[k] = h("button", { type: "button", id: id(k), text: label }));
    const range = (k, attrs) => (c[k] = h("input", { type: "range", class: "pcpg-range", id: id(k), ...attrs }));
    const out = (k) => (c[k + "Out"] = h("output", { for: id(k) }));
    const lab = (k, t) => h("label", { for: id(k), text: t });
    const check = (k, t) => h("label", { for: id(k) }, [(c[k] = h("input", { type: "checkbox", id: id(k) })), t]);
    const row = (...kids) => h("div", { class: "pcpg-row" }, kids);
    c.preset = h("select", { id: id("preset") });
    c.tie = h("select", { id: id("tie"), "aria-describedby": id("tieWhy") }, TIE_NAMES.map(([v, t]) => h("option", { value: v, text: t })));
    c.tieWhy = h("span", { id: id("tieWhy"), text: "unused: the margin perceptron updates at every tie" });
    // Under the plot, where a thumb is: the label a tap adds, and the ways to delete.
    c.plus = h("button", { type: "button", "aria-pressed": "true" }, [icon(`<path class="pcpg-pos" d="${CIRCLE_D}"/>`), "+1"]);
    c.minus = h("button", { type: "button", "aria-pressed": "false" }, [icon(`<path class="pcpg-neg" d="${SQUARE_D}"/>`), MINUS + "1"]);
    // The message goes below them: above the plot it would move the plot under the finger.
    const edit = h("div", { class: "pcpg-row pcpg-edit" }, [h("span", { id: id("adds"), text: "Click or tap adds" }),
      h("div", { class: "pcpg-label", role: "group", "aria-labelledby": id("adds") }, [c.plus, c.minus]),
      button("del", "Delete point"), button("clear", "Clear points")]);
    const controls = h("div", { class: "pcpg-controls" }, [
      row(lab("preset", "Data set"), c.preset),
      row(button("play", "Play"), button("back", "Step back"), button("fwd", "Step forward"), button("reset", "Reset")),
      row(lab("scrub", "Update"), range("scrub", { min: 0, max: 0, step: 1, value: 0 }), out("scrub")),
    ]);
    // The settings come after the readout: beside the plot, the numbers are what must fit.
    const settings = h("div", { class: "pcpg-controls" }, [
      row(lab("tie", "Tie rule"), c.tie, c.tieWhy),
      row(check("offset", "Offset trick"), lab("c", "c"), range("c", { min: 0.1, max: 5, step: 0.1, value: this.st.c }), out("c")),
      row(check("margin", "Margin perceptron"), lab("target", "target τ"),
        range("target", { min: 0.05, max: 0.95, step: 0.05, value: this.st.target }), out("target")),
    ]);
    this.note = h("p", { class: "pcpg-note" });
    const r = this.readout = {}, dl = h("dl", { class: "pcpg-readout" });
    for (const [k, t] of [["points", "Points"], ["separable", "Separable"], ["sizes", "R and γ"], ["bound", "Bound"],
      ["update", "Update"], ["mistakes", "Mistakes"]]) {
      dl.append(h("div", {}, [h("dt", { text: t }), (r[k] = h("dd"))]));
    }
    this.sizesName = dl.children[2].firstChild;  // "R′ and γ′" with the offset trick
    this.titleEl = h("p", { class: "pcpg-title", id: id("title") });
    this.root = h("div", { class: "pcpg", role: "group", "aria-labelledby": id("title") }, [this.titleEl,
      h("div", { class: "pcpg-main" }, [h("div", { class: "pcpg-figure" }, [this.svg, edit, this.message, legend, help]),
        h("div", { class: "pcpg-side" }, [controls, this.note, dl, settings])]), this.status]);
    this.el.append(this.root);
    this.syncControls();
  }

  // The controls show the state (after a change from Python too).
  syncControls() {
    const st = this.st, c = this.controls;
    text(this.titleEl, st.title);
    attr(this.svg, "aria-label", `${st.title}: the points and the perceptron's line`);
    const opts = [...(st.preset ? [] : [["", "Your points"]]), ...st.presets.map((p) => [String(p.name), String(p.title || p.name)])];
    if (c.preset.__opts !== JSON.stringify(opts)) {
      c.preset.__opts = JSON.stringify(opts);
      c.preset.replaceChildren(...opts.map(([v, t]) => h("option", { value: v, text: t })));
    }
    c.preset.value = st.preset;
    const pre = st.presets.find((p) => String(p.name) === st.preset);
    text(this.note, pre && pre.note ? String(pre.note) : "");
    show(this.note, Boolean(pre && pre.note));
    Object.assign(c.tie, { value: st.tie });
    Object.assign(c.offset, { checked: st.offset }); Object.assign(c.margin, { checked: st.margin });
    Object.assign(c.c, { value: String(st.c), disabled: !st.offset }); Object.assign(c.target, { value: String(st.target), disabled: !st.margin });
    text(c.cOut, num(st.c, 3));
    text(c.targetOut, num(st.target, 3));
  }

  // --- events --------------------------------------------------------------------------------

  listen() {
    const c = this.controls, on = (e, t, f) => e.addEventListener(t, f, { signal: this.abort.signal });
    for (const [t, f] of [["pointerdown", this.onPointerDown], ["pointermove", this.onPointerMove], ["pointerup", this.onPointerUp],
      ["pointercancel", (e) => this.onPointerUp(e, true)], ["dblclick", this.onDoubleClick], ["keydown", this.onKey]]) on(this.svg, t, f.bind(this));
    // One finger scrolls the page, except on a point: the plot allows panning (touch-action),
    // and a touch that starts on a point cancels it here, so that the finger drags the point.
    this.svg.addEventListener("touchstart", (e) => {
      if (e.touches.length === 1 && this.hitTest(e.touches[0], HIT_TOUCH_PX) >= 0) e.preventDefault();
    }, { signal: this.abort.signal, passive: false });
    on(c.plus, "click", () => this.chooseLabel(1));
    on(c.minus, "click", () => this.chooseLabel(-1));
    on(c.del, "click", () => (this.sel >= 0 ? this.deletePoint(this.sel) : this.sayNow("No point selected: click or tap a point first.", true)));
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
    for (const [k, t, key, f] of [["tie", "change", "tie", (e) => e.value], ["offset", "change", "offset", (e) => e.checked],
      ["margin", "change", "margin_target", (e) => e.checked], ["c", "input", "c", (e) => Number(e.value)],
      ["target", "input", "target", (e) => Number(e.value)]]) on(c[k], t, () => this.setting({ [key]: f(c[k]) }));
    // Python's changes (or another view of the same model) redraw the playground too.
    this.modelHandlers = ALL_KEYS.map((k) => ["change:" + k, () => this.fromModel(k)]);
    for (const [ev, cb] of this.modelHandlers) this.model.on(ev, cb);
  }

  fromModel(key) {
    if (this.writing) return;  // our own set(): the local state has it already
    const st = readState(this.model);
    const same = JSON.stringify([st.points, st.labels]) === JSON.stringify([this.st.points, this.st.labels]);
    if (key === "points" || key === "labels") { if (same) return; this.sel = -1; }
    this.st = st;
    this.refresh(DATA_KEYS.includes(key));
  }

  // After a change of the state: the controls, the picture (with a new run if `data`), the live text.
  refresh(data, lead = "") {
    if (data) this.dirty = true;
    this.syncControls();
    this.request();
    this.say(lead);
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
    this.refresh(true);
  }

  // Every edit of the data goes through here: the local state, the model, a redraw, the live text.
  editData(points, labels, lead = "", commit = true) {
    Object.assign(this.st, { points, labels, preset: "" });
    this.notice = "";
    if (this.sel >= points.length) this.sel = -1;
    if (commit) this.commit();
    this.refresh(true, lead);
  }

  commit() {
    this.write({ points: this.st.points.map((p) => [p[0], p[1]]), labels: [...this.st.labels], preset: "" });
  }

  addPoint(p, label) {
    if (this.st.points.length >= MAX_POINTS) return (this.notice = `At most ${MAX_POINTS} points: delete one before adding another.`), this.refresh(false), -1;
    const q = clampToView(this.view, p);
    this.editData([...this.st.points, q], [...this.st.labels, label], `Added a ${labelText(label)} point at ${pointText(q)}.`);
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
    this.editData(pts, this.st.labels, `Point ${i + 1} moved to ${pointText(pts[i])}.`, commit);
  }

  chooseLabel(label) {
    this.adds = label;
    this.request();
    this.sayNow(`A click or tap now adds a ${labelText(label)} point.`, true);
  }

  select(i, announce = true) {
    this.sel = i;
    if (i >= 0) this.cursor = this.st.points[i].slice();
    this.request();
    if (announce) this.sayNow(i >= 0 ? `Selected point ${i + 1} of ${this.st.points.length}: ${labelText(this.st.labels[i])} at ${pointText(this.st.points[i])}.` : "No point selected.", true);
  }

  // Load a data set, or (reset) the one last loaded, rewound to the start.
  load(points, labels, preset, view, lead) {
    this.stop();
    Object.assign(this, { sel: -1, notice: "", cursor: view ? null : this.cursor, rewind: !view });
    Object.assign(this.st, { points, labels, preset, view: view || this.st.view });
    this.write({ points: points.map((p) => p.slice()), labels: [...labels], ...(view ? { view } : {}), preset });
    this.refresh(true, lead);
  }

  loadPreset(name) {
    const pre = this.st.presets.find((p) => String(p.name) === name);
    if (!pre) return;
    const r = (this.restore = { points: (pre.points || []).map((p) => [Number(p[0]), Number(p[1])]),
      labels: (pre.labels || []).map((l) => (Number(l) > 0 ? 1 : -1)), preset: String(pre.name) });
    this.load(r.points, r.labels, r.preset, pre.view || this.st.view, `Loaded the data set “${pre.title || pre.name}”.`);
  }

  reset() {
    const r = this.restore;
    this.load(r.points.map((p) => p.slice()), [...r.labels], r.preset, null, "Reset the points and rewound the run.");
  }

  // --- the pointer ---------------------------------------------------------------------------

  toData(e) {
    const r = this.svg.getBoundingClientRect(), v = this.view;
    return [v.x0 + ((e.clientX - r.left) / r.width) * (v.x1 - v.x0), v.y1 - ((e.clientY - r.top) / r.height) * (v.y1 - v.y0)];
  }

  // The point nearest the pointer, within HIT_PX css pixels; the last drawn wins a tie (it is on top).
  hitTest(e, px = HIT_PX) {
    const r = this.svg.getBoundingClientRect(), v = this.view, k = r.width / v.W;
    let best = -1, bestD = px * px;
    this.st.points.forEach((p, i) => {
      const d = (r.left + sx(v, p[0]) * k - e.clientX) ** 2 + (r.top + sy(v, p[1]) * k - e.clientY) ** 2;
      if (d <= bestD) { bestD = d; best = i; }
    });
    return best;
  }

  onPointerDown(e) {
    if (e.button !== 0 || this.drag) return;
    this.svg.classList.remove("pcpg-kbd");
    this.svg.focus({ preventScroll: true });
    const touch = e.pointerType !== "mouse", hit = this.hitTest(e, touch ? HIT_TOUCH_PX : HIT_PX);
    this.lastPointer = e.pointerType;
    if (!touch) e.preventDefault();  // a mouse press selects no text; a finger on empty space may scroll
    if (e.altKey) { if (hit >= 0) this.deletePoint(hit); return; }
    this.drag = { id: e.pointerId, hit, x: e.clientX, y: e.clientY, moved: false, shift: e.shiftKey };
    this.svg.setPointerCapture(e.pointerId);
    if (hit >= 0) this.select(hit, false);
  }

  onPointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id || (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < DRAG_PX)) return;
    d.moved = true;
    if (d.hit < 0) return;
    this.stop();
    this.movePoint(d.hit, this.toData(e), false);  // the model is written once, at the end
  }

  onPointerUp(e, cancelled = false) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    if (this.svg.hasPointerCapture(e.pointerId)) this.svg.releasePointerCapture(e.pointerId);
    if (d.hit >= 0 && d.moved) { this.commit(); this.say(`Point ${d.hit + 1} moved to ${pointText(this.st.points[d.hit])}.`); }
    else if (d.hit >= 0) this.select(d.hit);
    else if (!d.moved && !cancelled) this.justAdded = { i: this.addPoint(this.toData(e), d.shift ? -this.adds : this.adds), t: performance.now() };
  }

  // A double-click deletes the point under it, unless its first click just made that point. A
  // double tap does not: a finger deletes with the Delete point button, on purpose.
  onDoubleClick(e) {
    if (this.lastPointer !== "mouse") return;
    const hit = this.hitTest(e), j = this.justAdded;
    if (hit >= 0 && !(j && j.i === hit && performance.now() - j.t < 800)) this.deletePoint(hit);
  }

  // --- the keyboard --------------------------------------------------------------------------

  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;  // the browser's and the notebook's shortcuts
    const k = e.key, v = this.view, n = this.st.points.length;
    if (k.startsWith("Arrow")) {
      const f = e.shiftKey ? KEY_STEP_BIG : KEY_STEP, from = this.sel >= 0 ? this.st.points[this.sel] : this.cursorAt();
      const dx = { ArrowLeft: -1, ArrowRight: 1 }[k] || 0, dy = { ArrowDown: -1, ArrowUp: 1 }[k] || 0;
      const to = (this.cursor = clampToView(v, [from[0] + dx * f * (v.x1 - v.x0), from[1] + dy * f * (v.y1 - v.y0)]));
      if (this.sel >= 0) this.movePoint(this.sel, to, true);
      else this.say(`Cursor at ${pointText(to)}.`);
    } else if (k === "Enter") this.addPoint(this.cursorAt(), e.shiftKey ? -this.adds : this.adds);
    else if ("nNpP".includes(k) && k.length === 1) {
      const fwd = k.toLowerCase() === "n";
      if (!n) this.sayNow("There are no points to select.", true);
      else this.select(this.sel < 0 ? (fwd ? 0 : n - 1) : (this.sel + (fwd ? 1 : n - 1)) % n);
    } else if (k === "Delete" || k === "Backspace") {
      if (this.sel >= 0) this.deletePoint(this.sel);
      else this.sayNow("No point selected: press n to select one.", true);
    } else if (k === "Escape" && this.sel >= 0) this.select(-1);
    else if (k === " ") this.togglePlay();
    else if (k === "," || k === ".") this.step(k === "," ? -1 : 1);
    else return;
    e.preventDefault();
    e.stopPropagation();  // JupyterLab's command mode must not act on these keys too
    this.svg.classList.add("pcpg-kbd");
    this.request();
  }

  cursorAt() {
    const v = this.view;
    return (this.cursor = clampToView(v, this.cursor || [(v.x0 + v.x1) / 2, (v.y0 + v.y1) / 2]));
  }

  // --- the run: play, step, scrub ------------------------------------------------------------

  get total() { return this.res && this.res.run ? this.res.run.steps.length : 0; }

  step(d) {
    this.stop();
    this.pos = Math.max(0, Math.min(this.total, this.pos + d));
    this.request();
    this.say();
  }

  togglePlay() {
    if (this.playing) { this.stop(); this.say(`Paused at update ${this.pos}.`); return; }
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

  // data-busy is on the root while a picture or an announcement is due, so that a test (or a
  // benchmark) can wait for the playground to settle instead of waiting a fixed time.
  request() {
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.update(); this.idle(); });
    this.root.dataset.busy = "";
  }

  idle() { if (!this.frame && !this.saying) delete this.root.dataset.busy; }

  update() {
    const t0 = performance.now();
    let t1 = t0;
    if (this.dirty) {
      // After an edit the picture shows where the new run ends, or, when w ends with no line in
      // the window (XOR's run comes back to w = 0), the last update that drew one; a reset
      // starts it again.
      Object.assign(this, { dirty: false, res: compute(this.st) });
      const v = fitView(this.st.view, this.res.X), c = this.res.c === null ? 0 : this.res.c, drawn = (w) => clipLine(v, w[0], w[1], c * (w[2] || 0));
      let end = this.total;
      while (end > 0 && !drawn(stepAt(this.res, end).w)) end--;
      Object.assign(this, { pos: this.rewind ? 0 : end || this.total, rewind: false });
      t1 = performance.now();
    }
    this.pos = Math.max(0, Math.min(this.total, this.pos));
    this.view = fitView(this.st.view, this.res.X);
    for (const draw of [this.drawAxes, this.drawPoints, this.drawRun, this.drawMarks, this.drawText]) draw.call(this);
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
    const ax = this.g.axes, ox = sx(v, 0), oy = sy(v, 0), ticks = [];
    ax.replaceChildren();
    s("path", { class: "pcpg-axis", d: `M0,${f1(oy)}H${v.W}M${f1(ox)},0V${v.H}` }, ax);
    // Tick spacing: 1, 2 or 5 times a power of ten, about six ticks across the window.
    const raw = Math.max(v.x1 - v.x0, v.y1 - v.y0) / 6, p = 10 ** Math.floor(Math.log10(raw)), m = raw / p;
    const step = p * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10);
    const label = (x, y, t, anchor) => { s("text", { class: "pcpg-tick", x: f1(x), y: f1(y), "text-anchor": anchor }, ax).textContent = num(t, 3); };
    for (let t = Math.ceil(v.x0 / step) * step; t <= v.x1; t += step) {
      const x = sx(v, t);
      if (Math.abs(t) >= step / 2) ticks.push(`M${f1(x)},${f1(oy - 3)}v6`);
      if (Math.abs(t) >= step / 2 && x > 12 && x < v.W - 12) label(x, Math.min(v.H - 3, oy + 15), t, "middle");
    }
    for (let t = Math.ceil(v.y0 / step) * step; t <= v.y1; t += step) {
      const y = sy(v, t);
      if (Math.abs(t) >= step / 2) ticks.push(`M${f1(ox - 3)},${f1(y)}h6`);
      if (Math.abs(t) >= step / 2 && y > 10 && y < v.H - 6) label(Math.max(3, ox - 6), y + 4, t, ox - 6 < 20 ? "start" : "end");
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
    X.forEach((x, i) => {
      attr(els[i], "d", y[i] > 0 ? CIRCLE_D : SQUARE_D);
      attr(els[i], "class", y[i] > 0 ? "pcpg-pos" : "pcpg-neg");
      attr(els[i], "transform", `translate(${screen(v, [x])})`);
    });
  }

  // The line, its normal, the margin band and the update at the scrub position.
  drawRun() {
    const v = this.view, g = this.g, res = this.res, at = stepAt(res, this.pos), w = at && at.w;
    const b = w && res.c !== null ? res.c * w[2] : 0, seg = w ? clipLine(v, w[0], w[1], b) : null;
    if (seg) {
      attr(g.line, "x1", f1(sx(v, seg[0][0]))); attr(g.line, "y1", f1(sy(v, seg[0][1])));
      attr(g.line, "x2", f1(sx(v, seg[1][0]))); attr(g.line, "y2", f1(sy(v, seg[1][1])));
      // The normal starts mid-segment (at the foot of the perpendicular from the origin it would
      // lie on the update's arrows, which start there too), or at the foot if that leaves it more
      // room: it is at most 0.12 of the width long and ends, with its label, 16 px inside the frame.
      const nn = Math.hypot(w[0], w[1]), ux = w[0] / nn, uy = -w[1] / nn, PAD = 16;
      const room = ([x, y]) => Math.min(0.12 * v.W, ...[[x, ux, v.W], [y, uy, v.H]].map(([q, d, max]) =>
        (d > 0 ? (max - PAD - q) / d : d < 0 ? (PAD - q) / d : Infinity)));
      const starts = [[(seg[0][0] + seg[1][0]) / 2, (seg[0][1] + seg[1][1]) / 2], seg[2]].filter((q) => inView(v, q))
        .map((q) => [sx(v, q[0]), sy(v, q[1])]), [x0, y0] = starts.reduce((a, b) => (room(b) > room(a) + 1 ? b : a));
      const L = Math.max(0, room([x0, y0])), x1 = x0 + L * ux, y1 = y0 + L * uy;
      attr(g.normal, "d", arrowPath(x0, y0, x1, y1));
      attr(g.wLabel, "x", f1(Math.min(v.W - 12, Math.max(3, x1 + 8 * ux - 4))));
      attr(g.wLabel, "y", f1(Math.min(v.H - 4, Math.max(13, y1 + 8 * uy + 4))));
    }
    for (const e of [g.line, g.normal, g.wLabel]) showSvg(e, Boolean(seg));
    // The band |w·x + b| / ‖w‖ < τγ of the Margin Perceptron (‖w‖ of the lifted w with c): its
    // two edges, dashed.
    const m = seg && res.kind === "margin" ? this.st.target * res.cert.low * Math.hypot(...w) : 0;
    const band = m ? [b - m, b + m].map((o) => clipLine(v, w[0], w[1], o)).filter(Boolean).map((e) => `M${screen(v, e.slice(0, 2))}`).join("") : "";
    attr(g.band, "d", band.replaceAll(" ", "L"));
    showSvg(g.band, Boolean(band));
    // The update w ← w + y·x as a triangle from the origin (the plane's part of w, which with the
    // offset trick is w without its last entry), drawn smaller when it would leave the frame:
    // both ends stay 4 % of the window inside it.
    const st = at && at.step;
    if (st) {
      const prev = at.prev || [0, 0], i = st.i, padX = 0.04 * (v.x1 - v.x0), padY = 0.04 * (v.y1 - v.y0);
      const fit = (q, lo, hi) => (q > 0 ? Math.max(0, hi) / q : q < 0 ? Math.min(0, lo) / q : Infinity);
      const k = (this.vectorScale = Math.min(1, ...[prev, w].flatMap((q) => [fit(q[0], v.x0 + padX, v.x1 - padX), fit(q[1], v.y0 + padY, v.y1 - padY)])));
      const P = (q) => [sx(v, k * q[0]), sy(v, k * q[1])], O = P([0, 0]), A = P(prev), B = P(w);
      attr(g.wold, "d", arrowPath(...O, ...A, 7));
      attr(g.wnew, "d", arrowPath(...O, ...B, 8));
      attr(g.upd, "d", arrowPath(...A, ...B, 10));
      attr(g.upd, "class", `pcpg-upd ${res.y[i] > 0 ? "pcpg-upd-pos" : "pcpg-upd-neg"}`);
      attr(g.culprit, "cx", f1(sx(v, res.X[i][0])));  // the point whose mistake caused the update
      attr(g.culprit, "cy", f1(sy(v, res.X[i][1])));
    }
    for (const e of [g.wold, g.wnew, g.upd, g.culprit]) showSvg(e, Boolean(st));
  }

  drawMarks() {
    const v = this.view, g = this.g, sel = this.sel >= 0 && this.sel < this.res.X.length ? this.res.X[this.sel] : null;
    if (sel) { attr(g.sel, "cx", f1(sx(v, sel[0]))); attr(g.sel, "cy", f1(sy(v, sel[1]))); }
    showSvg(g.sel, Boolean(sel));
    const p = this.cursorAt(), x = sx(v, p[0]), y = sy(v, p[1]);
    attr(g.cursor, "d", `M${f1(x - 10)},${f1(y)}h7m6,0h7M${f1(x)},${f1(y - 10)}v7m0,6v7`);
  }

  // --- words: the readout, the message, the live text ----------------------------------------

  // The readout's rows, short; the live text reads the same words. Numbers have 4 significant
  // digits: R, γ and the perceptron's bound are the float estimates, so the bound agrees with the
  // cell under a playground (pg.bound(), e.g. 51.000000000001265 is "≈ 51"). The margin
  // perceptron aims at the γ checked exactly (`low`, rounded down), which may be one unit of the
  // 4th digit below the estimate shown: the row says so, and its bound is from that γ, as
  // pg.bound() computes it. Whether the run is within the bound is decided on the bound checked
  // in exact arithmetic (from R rounded up and γ down).
  words() {
    const res = this.res, st = this.st, n = res.n, c = res.c, l = c !== null ? "′" : "", R = `R${l}`, g = `γ${l}`, cert = res.cert;
    const out = { points: `${n} (${res.nPos} labelled +1, ${n - res.nPos} labelled ${MINUS}1)`, separable: "—", sizes: "—", bound: "—", update: "—", mistakes: "—" };
    const status = cert && cert.status, gamma = cert && cert.gamma, where = c !== null ? "with an offset" : "through the origin", marg = res.kind === "margin";
    if (status) out.separable = { separable: `Yes, ${where}, checked exactly.`, inseparable: `No, checked exactly. ${cert.reason}`,
      undecided: "Undecided: floating point could not settle it.", empty: "—" }[status];
    if (res.R) out.sizes = `${R} ≈ ${num(res.R.estimate)}` + (gamma && status !== "inseparable" ? `, ${g} ≈ ${num(gamma)}` : "") +
      (c !== null ? ` (the points lifted to (x, c), c = ${num(c, 3)})` : "") + (marg ? `; the run aims at τ × ${num(cert.low)}` : "");
    const run = res.run, k = this.pos, total = this.total;
    if (!run) return out;
    out.update = `${k} of ${total}: ${this.updateText()}`;
    const ratio = res.R.estimate / (marg ? cert.low : gamma), eta = 1 - st.target;
    out.bound = !res.bound ? `none: ${status === "inseparable" ? "the data are not separable" : `no margin ${g} > 0 is checked exactly`}`
      : marg ? `2(${R}/${g})²/η² + 2(${R}/${g})/η ≈ ${num(2 * ratio * ratio / (eta * eta) + 2 * ratio / eta)} with ${g} = ${num(cert.low)} and η = 1 − τ = ${num(eta)}`
        : `(${R}/${g})² ≈ ${num(ratio * ratio)}`;
    const made = marg ? run.steps.slice(0, k).filter((t) => t.mistake).length : k, short = total - res.mistakes;
    const epochs = plural(run.epochs, "epoch", "epochs"), count = marg ? total : res.mistakes;
    // A run on data that are not separable stops with a clean sweep only where ties count as correct.
    const end = !run.converged ? `stopped at the cap of ${plural(res.maxEpochs, "epoch", "epochs")} (max_epochs), still making ${marg ? "margin " : ""}mistakes`
      : !res.bound && status === "inseparable" ? `stopped after ${run.epochs === 1 ? "1 epoch with no mistake" : `${epochs}, the last with no mistake`}, ` +
        "only because this tie rule counts a tie (w·x = 0) as correct: its last w does not separate the data" : `converged after ${epochs}`;
    const check = !res.bound ? "" : count <= res.bound ? (marg ? `; ${plural(count, "update", "updates")} in all, within the bound` : ", within the bound")
      : "; over the bound, which the theorem rules out: please report this data set";
    out.mistakes = `${marg ? plural(made, "true mistake", "true mistakes") : made} so far, ${res.mistakes} in ${run.converged ? "the whole run" : epochs}` +
      (marg && short ? `, and ${plural(short, "margin mistake that was not a true mistake", "margin mistakes that were not true mistakes")} (short of τ${g})` : "") +
      `: ${end}${check}.`;
    return out;
  }

  // What happened at the scrub position, in words.
  updateText() {
    const res = this.res, at = stepAt(res, this.pos), st = at && at.step, w = at && at.w, lift = res.c !== null ? ", with x′ = (x, c)" : "";
    if (!st) return res.kind === "margin" ? `the start: ${lift ? "w′ = y x′" : "w = y x"} of point 1${lift}` : "the start: w = 0, no line yet";
    const i = st.i, why = res.kind === "margin" && !st.mistake ? "short of the target margin" : "a mistake";
    return `point ${i + 1} (${labelText(res.y[i])} at ${pointText(res.X[i])}) was ${why}, so ${lift ? "w′ ← w′ + y x′" : "w ← w + y x"}${lift}` +
      (this.vectorScale < 1 ? ` (the arrows from the origin drawn at ×${num(this.vectorScale, 2)})` : "") +
      (w[0] !== 0 || w[1] !== 0 ? "" : w.length === 3 && w[2] !== 0 ? "; w′ = (0, 0, b/c): no line, every point is on one side" : "; w = 0 again: no line");
  }

  // The message for bad states and notices (shown, and said first in the live text).
  messageText() {
    return [this.notice, ...this.res.notes, ...this.res.issues].filter(Boolean).join(" ");
  }

  drawText() {
    const w = this.words(), r = this.readout, c = this.controls, total = this.total;
    for (const k in r) text(r[k], w[k]);
    text(this.message, this.messageText());
    show(this.message, Boolean(this.messageText()));
    attr(c.scrub, "max", String(total));
    if (Number(c.scrub.value) !== this.pos) c.scrub.value = String(this.pos);
    attr(c.scrub, "aria-valuetext", `update ${this.pos} of ${total}`);
    text(c.scrubOut, `${this.pos} / ${total}`);
    text(c.play, this.playing ? "Pause" : "Play");
    attr(c.play, "aria-disabled", String(!total));
    attr(c.back, "aria-disabled", String(this.pos <= 0));
    attr(c.fwd, "aria-disabled", String(this.pos >= total));
    c.tie.disabled = this.res.kind === "margin";
    show(c.tieWhy, c.tie.disabled);
    show(this.legendBand, c.tie.disabled);
    text(this.sizesName, this.res.c !== null ? "R′ and γ′" : "R and γ");
    attr(c.plus, "aria-pressed", String(this.adds > 0));
    attr(c.minus, "aria-pressed", String(this.adds < 0));
    attr(c.del, "aria-disabled", String(this.sel < 0));
  }

  // The state in sentences, for screen readers.
  describe() {
    const res = this.res, w = this.words();
    const parts = [this.messageText(), `${plural(res.n, "point", "points")}: ${res.nPos} labelled +1, ${res.n - res.nPos} labelled ${MINUS}1.`];
    if (res.n && res.run) {
      parts.push(`Separable: ${full(w.separable)} ${full(w.sizes)} Bound: ${full(w.bound)}`, `Update ${full(w.update)}`,
        `Mistakes: ${full(w.mistakes)}`);
    }
    return parts.filter(Boolean).join(" ");
  }

  // Announce the state once things settle: not while a point is dragged or the run plays.
  say(lead = "") {
    if (lead) this.lead = lead;
    clearTimeout(this.timers.say);
    this.saying = !(this.drag && this.drag.moved) && !this.playing;
    if (!this.saying) return this.idle();
    this.root.dataset.busy = "";
    this.timers.say = setTimeout(() => this.sayNow(), ANNOUNCE_MS);
  }

  sayNow(lead = "", only = false) {
    clearTimeout(this.timers.say);
    if (this.frame || this.dirty) { cancelAnimationFrame(this.frame); this.frame = 0; this.update(); }
    const first = lead || this.lead;
    text(this.status, only ? first : [first, this.describe()].filter(Boolean).join(" "));
    Object.assign(this, { lead: "", saying: false });
    this.idle();
  }

  destroy() {
    this.abort.abort();
    for (const [ev, cb] of this.modelHandlers) this.model.off(ev, cb);
    cancelAnimationFrame(this.frame);
    Object.values(this.timers).forEach(clearTimeout);
    this.root.remove();
  }
}


/** anywidget's format: render({ model, el }) draws the playground of `model` into `el` and
 *  returns its cleanup. */
function render({ model, el }) {
  const pg = new Playground(model, el);
  return () => pg.destroy();
}
export default { render };
