"""A second numeric set-up for the notebook checks: another BLAS kernel, numpy's SIMD paths off.

A user's machine may run OpenBLAS with another kernel (older CPU, other vendor) and numpy with
other SIMD code; both move the last bits of dot products, sums and transcendental functions.
``make test`` runs the notebook checks once as they are and once under this set-up, so that a
result that hinges on a last bit fails here first.

    python book/_tools/numeric_setups.py env    # prints VAR=value ... for `env $(...) command`
    python book/_tools/numeric_setups.py demo   # shows that the set-up changes last bits here

The list of SIMD targets is read from this machine's numpy at run time: naming a target that
numpy does not know, or that the CPU lacks, is an error in some numpy versions.
"""

from __future__ import annotations

import os
import subprocess
import sys

# Prescott is the oldest x86-64 kernel that dynamic OpenBLAS builds ship (SSE3, no FMA).
ALT_CORETYPE = "Prescott"
FALLBACK_CORETYPE = "Nehalem"  # if this machine already runs the Prescott kernel
NUMERIC_VARS = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")


def _openblas_architecture() -> str | None:
    """The OpenBLAS kernel numpy uses in this process, if threadpoolctl can tell."""
    import numpy  # noqa: F401  (threadpoolctl only sees libraries already loaded)

    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    for info in threadpool_info():
        if info.get("internal_api") == "openblas":
            return info.get("architecture")
    return None


def _simd_dispatch_targets() -> list[str]:
    """numpy's dispatched SIMD targets that this CPU has (``found`` in ``numpy.show_runtime``)."""
    try:
        from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    except ImportError:  # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    return [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]


def alternate_env() -> dict[str, str]:
    """The environment variables of the second set-up, for this machine."""
    arch = (_openblas_architecture() or "").lower()
    env = {"OPENBLAS_CORETYPE": FALLBACK_CORETYPE if arch in ("prescott", "katmai") else ALT_CORETYPE}
    targets = _simd_dispatch_targets()
    if targets:  # a CPU with the baseline only has nothing to turn off
        env["NPY_DISABLE_CPU_FEATURES"] = ",".join(targets)
    return env


_PROBE = r"""
import json, numpy as np
try:
    from threadpoolctl import threadpool_info
except ImportError:
    threadpool_info = list
rng = np.random.default_rng(0)
dots = []
for n in (3, 10, 33, 100, 1000):
    A = rng.standard_normal((50, n)); v = rng.standard_normal(n)
    dots += list(A @ v) + list((A @ A.T)[:5].ravel())
x = rng.uniform(0.1, 10.0, 20000)
funcs = {f: getattr(np, f)(x) for f in ("exp", "log", "tanh", "expm1", "log1p", "cbrt")}
arch = [i.get("architecture") for i in threadpool_info() if i.get("internal_api") == "openblas"]
try:
    from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f
except ImportError:
    from numpy.core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f
print(json.dumps({"arch": arch, "simd": [k for k in d if f.get(k)],
                  "dots": [float(v).hex() for v in dots],
                  "funcs": {k: [float(v).hex() for v in a] for k, a in funcs.items()}}))
"""


def _probe(extra: dict[str, str]) -> dict:
    import json

    env = {k: v for k, v in os.environ.items() if k not in NUMERIC_VARS}
    env.update(extra)
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def demo() -> None:
    """Print how many dot products and ufunc values change their last bits under the set-up."""
    alt = alternate_env()
    a, b = _probe({}), _probe(alt)

    def diff(x: list[str], y: list[str]) -> str:
        pairs = [(float.fromhex(p), float.fromhex(q)) for p, q in zip(x, y)]
        moved = [(p, q) for p, q in pairs if p != q]
        worst = max((abs(p - q) / abs(p) for p, q in moved), default=0.0)
        return f"{len(moved)} of {len(pairs)} differ (largest relative change {worst:.2g})"

    print("Numeric set-up 2: " + " ".join(f"{k}={v}" for k, v in alt.items()))
    print(f"  OpenBLAS kernel {a['arch']} -> {b['arch']}; numpy SIMD targets {a['simd']} -> {b['simd']}")
    print(f"  dot/matmul results: {diff(a['dots'], b['dots'])}")
    for name in a["funcs"]:
        print(f"  np.{name} on 20000 values: {diff(a['funcs'][name], b['funcs'][name])}")


def main(argv: list[str]) -> int:
    if argv == ["env"]:
        print(" ".join(f"{k}={v}" for k, v in alternate_env().items()))
    elif argv == ["demo"]:
        demo()
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
