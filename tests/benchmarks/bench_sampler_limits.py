"""The worst allowed case of every sampler (issue 16, item 5): seconds per sample at the caps.

For each sampler, the parameters that make it slowest within the stated limits: the cost caps
(means, n p, compound work), the scale caps (rates >= 2^-256, t <= 2^256, sigma2 <= 2^512) and
the grammar's own limits (exponents up to 10^4, 1000 characters). Each case runs in a fresh
Python process, so the first sample is cold (it pays for the per-parameter set-up: bounds,
plans, caches); then samples are drawn for ``--seconds`` and their mean and maximum printed.
A case that takes more than ``--timeout`` seconds is reported as such.

Usage: ``.venv/bin/python tests/benchmarks/bench_sampler_limits.py [--seconds S] [--timeout T]
[--only SUBSTRING]``. The figures are in docs/samplers.md ("Cost limits").
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from dpspec.spec.samplers.registry import SAMPLERS
from dpspec.spec.tape import RandomTape

TWO_256 = 1 << 256


def _ln3_up() -> str:
    """996 characters of ln 3, rounded up: binomial_rr at n = 2000 (k = 12) then has p just
    below p0 = 1/4 and thins with s = 1 - p/p0 near 2^-3300 (an adversarial near-dyadic eps;
    typical eps give s near 2^-k)."""
    import mpmath  # only for building the adversarial parameter, not for sampling

    with mpmath.workdps(1010):
        text = mpmath.nstr(mpmath.log(3), 995, strip_zeros=False)
    # one unit in the last place more, so that eps > ln 3 and p < 1/4
    digits = text.replace(".", "")
    bumped = str(int(digits) + 1)
    return bumped[0] + "." + bumped[1:]


def cases() -> list[tuple[str, str, dict[str, str]]]:
    """(label, sampler, parameters) for the worst allowed cases."""
    big = "9" * 998
    return [
        ("bernoulli p = 1/(10^998 - 1)", "bernoulli", {"p": f"1/{big}"}),
        ("bernoulli_exp gamma = 10^10000", "bernoulli_exp", {"gamma": "1e10000"}),
        ("bernoulli_exp gamma = 10^-10000", "bernoulli_exp", {"gamma": "1e-10000"}),
        ("bernoulli_rr eps = 10^10000", "bernoulli_rr", {"eps": "1e10000"}),
        ("geometric p = 2^-256 (cap)", "geometric", {"p": f"1/{TWO_256}"}),
        ("geometric p = 2^-256 + 10^-900", "geometric",
         {"p": "0." + "0" * 77 + "86361685550944446253863518628003995711160003644362813850237034"
          "70179" + "0" * 808 + "1"}),
        ("geometric_exp gamma = 2^-256 (cap)", "geometric_exp", {"gamma": f"1/{TWO_256}"}),
        ("geometric_exp gamma = 10^10000", "geometric_exp", {"gamma": "1e10000"}),
        ("rational.geometric_exp gamma = 2^-256", "rational.geometric_exp",
         {"gamma": f"1/{TWO_256}"}),
        ("discrete_laplace t = 2^256 (cap)", "discrete_laplace", {"t": str(TWO_256)}),
        ("discrete_laplace t = 10^-10000", "discrete_laplace", {"t": "1e-10000"}),
        ("rational.discrete_laplace t = 2^256", "rational.discrete_laplace",
         {"t": str(TWO_256)}),
        ("discrete_gaussian sigma2 = 2^512 (cap)", "discrete_gaussian",
         {"sigma2": str(1 << 512)}),
        ("discrete_gaussian sigma2 = 10^-10000", "discrete_gaussian", {"sigma2": "1e-10000"}),
        ("rational.discrete_gaussian sigma2 = 2^512", "rational.discrete_gaussian",
         {"sigma2": str(1 << 512)}),
        ("discrete_gaussian_vector 2^512, dim 100", "discrete_gaussian_vector",
         {"sigma2": str(1 << 512), "dim": "100"}),
        ("binomial n = 2*10^6, p = 1/2 (cap)", "binomial", {"n": "2000000", "p": "1/2"}),
        ("binomial n = 10^12, p = 10^-6 (cap)", "binomial",
         {"n": "1000000000000", "p": "1/1000000"}),
        ("binomial p = 2^-256, n p = 38 (last gaps)", "binomial",
         {"n": str(38 * TWO_256), "p": f"1/{TWO_256}"}),
        ("binomial p = 2^-256, n p = 39 (envelope, v2)", "binomial",
         {"n": str(39 * TWO_256), "p": f"1/{TWO_256}"}),
        ("binomial p = 2^-256, n p = 256 (envelope, v2)", "binomial",
         {"n": str(256 * TWO_256), "p": f"1/{TWO_256}"}),
        ("binomial p = 2^-98, n p = 256 (last gaps)", "binomial",
         {"n": str(256 << 98), "p": f"1/{1 << 98}"}),
        ("binomial p = 2^-256, n p = 10^6", "binomial",
         {"n": str(10**6 * TWO_256), "p": f"1/{TWO_256}"}),
        ("binomial n = 2*10^6, p = 1/2 - 10^-990", "binomial",
         {"n": "2000000", "p": "0.4" + "9" * 989}),
        ("binomial n = 256, p = 1/2 + 10^-990 (gaps)", "binomial",
         {"n": "256", "p": "0.5" + "0" * 988 + "1"}),
        ("binomial_textbook n = 10^6 (cap)", "binomial_textbook", {"n": "1000000", "p": "1/2"}),
        ("binomial_rr eps = 2^-256, n = 2*10^6", "binomial_rr",
         {"n": "2000000", "eps": f"1/{TWO_256}"}),
        ("binomial_rr eps = 10^10000, n = 2^255 - 1 (cap)", "binomial_rr",
         {"n": str((1 << 255) - 1), "eps": "1e10000"}),
        ("binomial_rr n = 3718281, eps = 1 (cap)", "binomial_rr", {"n": "3718281", "eps": "1"}),
        ("binomial_rr near-dyadic eps (996 digits)", "binomial_rr",
         {"n": "2000", "eps": _ln3_up()}),
        ("poisson lam = 10^6 (cap)", "poisson", {"lam": "1000000"}),
        ("poisson lam = 256 (512 pieces)", "poisson", {"lam": "256"}),
        ("poisson lam = 10^6 - 10^-990", "poisson", {"lam": "999999." + "9" * 990}),
        ("poisson lam = 256 - 10^-990 (pieces)", "poisson", {"lam": "255." + "9" * 990}),
        ("negative_binomial r = 10^6, p = 1/2 (cap)", "negative_binomial",
         {"r": "1000000", "p": "1/2"}),
        ("negative_binomial r = 10^6 - 10^-990, p = 1/2", "negative_binomial",
         {"r": "999999." + "9" * 990, "p": "1/2"}),
        ("negative_binomial r = 3906, p = 1/2 + 10^-990", "negative_binomial",
         {"r": "3906", "p": "0.5" + "0" * 988 + "1"}),
        ("negative_binomial compound mean 10^4 (last v1)", "negative_binomial",
         {"r": "1/2", "p": "20000/20001"}),
        ("negative_binomial 1 - p = 2^-256, last v1", "negative_binomial",
         {"r": f"38/{TWO_256 - 1}", "p": f"{TWO_256 - 1}/{TWO_256}"}),
        ("negative_binomial 1 - p = 2^-64, last v1", "negative_binomial",
         {"r": f"587/{2**64 - 1}", "p": f"{2**64 - 1}/{2**64}"}),
        ("negative_binomial 1 - p = 2^-16, last v1", "negative_binomial",
         {"r": f"7901/{2**16 - 1}", "p": f"{2**16 - 1}/{2**16}"}),
        # steps version 2 (size blocks): the mean cap 10^6 on the compound path
        ("negative_binomial blocks r = 1/2, mean 10^6", "negative_binomial",
         {"r": "1/2", "p": "2000000/2000001"}),
        ("negative_binomial blocks r = 1, mean 10^6", "negative_binomial",
         {"r": "1", "p": "1000000/1000001"}),
        ("negative_binomial blocks r = 3, mean 10^6", "negative_binomial",
         {"r": "3", "p": "1000000/1000003"}),
        ("negative_binomial blocks r = 100, mean 10^6", "negative_binomial",
         {"r": "100", "p": "10000/10001"}),
        ("negative_binomial blocks r = 3906, mean 10^6", "negative_binomial",
         {"r": "3906", "p": "1000000/1003906"}),
        ("negative_binomial blocks 1 - p = 2^-256, 10^6", "negative_binomial",
         {"r": f"999999/{TWO_256 - 1}", "p": f"{TWO_256 - 1}/{TWO_256}"}),
        ("negative_binomial blocks 1 - p = 2^-64, 10^6", "negative_binomial",
         {"r": f"1000000/{2**64 - 1}", "p": f"{2**64 - 1}/{2**64}"}),
        ("negative_binomial blocks p of 990 digits, r = 1/2", "negative_binomial",
         {"r": "1/2", "p": "0.9999995" + "0" * 980 + "1"}),
        ("nb_exp gamma = 2^-256, mean 38 (last case 1)", "negative_binomial_exp",
         {"r": f"38/{TWO_256}", "gamma": f"1/{TWO_256}"}),
        ("nb_exp gamma = 2^-256, mean 255 (blocks, v3)", "negative_binomial_exp",
         {"r": f"255/{TWO_256}", "gamma": f"1/{TWO_256}"}),
        ("nb_exp gamma = 2^-98, mean 255 (last case 1)", "negative_binomial_exp",
         {"r": f"255/{1 << 98}", "gamma": f"1/{1 << 98}"}),
        ("nb_exp gamma = 2^-256, mean 10^6 (blocks)", "negative_binomial_exp",
         {"r": f"999999/{TWO_256}", "gamma": f"1/{TWO_256}"}),
        ("nb_exp r = 1718281, gamma = 1 (cap)", "negative_binomial_exp",
         {"r": "1718281", "gamma": "1"}),
        ("nb_exp r = 1, gamma = 10^-6 (cap, blocks)", "negative_binomial_exp",
         {"r": "1", "gamma": "1/1000000"}),
        ("nb_exp r = 100, gamma = 10^-4 (split)", "negative_binomial_exp",
         {"r": "100", "gamma": "1/10000"}),
    ]


def run_one(sampler: str, params: dict[str, str], seconds: float) -> dict[str, float | int]:
    """Time one case in this process: the first sample, then the next ones for ``seconds``."""
    s = SAMPLERS[sampler]
    tape = RandomTape(bytes(range(32)), "bench/limits")
    start = time.perf_counter()
    s.draw(tape, params)
    first = time.perf_counter() - start
    n, worst, begin = 0, 0.0, time.perf_counter()
    while n == 0 or (time.perf_counter() - begin < seconds and n < 1000):
        one = time.perf_counter()
        s.draw(tape, params)
        worst = max(worst, time.perf_counter() - one)
        n += 1
    return {"first": first, "mean": (time.perf_counter() - begin) / n, "max": worst, "n": n}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="warm samples per case (s)")
    parser.add_argument("--timeout", type=float, default=60.0, help="per case (s)")
    parser.add_argument("--only", default="", help="run the cases whose label contains this")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sampler, params = json.loads(args.child)
        print(json.dumps(run_one(sampler, params, args.seconds)))
        return 0
    print(f"{'case':<46}{'first':>10}{'mean':>10}{'max':>10}{'n':>6}")
    for label, sampler, params in cases():
        if args.only not in label:
            continue
        cmd = [sys.executable, __file__, "--seconds", str(args.seconds),
               "--child", json.dumps([sampler, params])]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout,
                                  check=True)
        except subprocess.TimeoutExpired:
            print(f"{label:<46}{'> ' + str(args.timeout) + ' s':>10}", flush=True)
            continue
        except subprocess.CalledProcessError as exc:
            last = (exc.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{label:<46}  error: {last}", flush=True)
            continue
        r = json.loads(done.stdout)
        print(f"{label:<46}{r['first']:>9.3f}s{r['mean']:>9.4f}s{r['max']:>9.3f}s{r['n']:>6}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
