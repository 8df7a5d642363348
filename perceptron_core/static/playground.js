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

// @@MATH@@

// ============================================================================================
// (4) The picture and its controls.
// ============================================================================================

// @@UI@@
