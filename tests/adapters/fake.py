"""Deliberately broken (and one correct) adapters for the harness's own tests.

Run as ``python tests/adapters/fake.py MODE [MODE ...]``. Every mode starts from a correct
adapter: the reference tape/XOF handlers, and for statistical mode a sampler for every
statistical suite (inverse CDF of the harness's tables of the exact PMFs, driven by Python's
``random`` with a fixed seed so each test run is deterministic), and the reference mechanisms
(``mechanisms.*``), which, asked without a seed, get one from that same ``random``. A mode then
breaks one thing:

``sigma=R``        discrete Gaussian with sigma times R, discrete Laplace with t times R
``bernoulli=R``    Bernoulli with p times R
``rr=R``           randomized response (RAPPOR's flip) with flip probability 1/(1+exp(eps)) times R
``rappor-eps=R``   mechanisms.symmetric_rappor computed with eps0 times R (a wrong flip probability)
``rappor-pairs``   mechanisms.symmetric_rappor flipping coordinates 2i and 2i+1 together (each with
                   the right probability p0 = 1/(e^eps0 + 1), but not independently)
``kary-keep``      mechanisms.kary_rr keeping the input with e^eps/(e^eps + k), not e^eps/(e^eps + k - 1)
``tape-wrong``     tape.uniform answers one value off in every answer with more than 3 values
``accept-invalid`` xof.derive_seed accepts a 31-byte seed
``crash-after=N``  exits with status 3 on the N-th request after capabilities (every restart)
``hang-after=N``   stops answering (sleeps) from the N-th request after capabilities
``start-delay=S``  sleeps S seconds before reading its first request (every start): a slow start
``garbage``        prints a line that is not JSON instead of each answer
``wrong-id``       answers with the wrong id
``huge``           answers with a 3 MB line
``no-newline``     answers without the final newline, then waits
``not-object``     answers with a JSON array
``dead``           exits before answering anything
``unsupported``    answers unsupported to everything but capabilities
``seed=S``         seeds the random samplers with S (default 1)
"""

from __future__ import annotations

import bisect
import json
import math
import random
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))

from dpspec.conformance.adapters.protocol import respond  # noqa: E402
from dpspec.conformance.families.mechanisms import FAMILY as MECHANISMS  # noqa: E402
from dpspec.conformance.families.tape import FAMILY as TAPE  # noqa: E402
from dpspec.conformance.statistical import (  # noqa: E402
    DISTRIBUTIONS,
    Table,
    bernoulli_table,
    registry_distributions,
    rr_flip,
)


class TableSampler:
    """Inverse-CDF sampling from a Table (floats: fine for a test double, not for production)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cache: dict[Any, tuple[int, list[float]]] = {}

    def draw(self, key: Any, table: Callable[[], Table], count: int) -> list[str]:
        if key not in self.cache:
            t = table()
            cdf, acc = [], 0.0
            for p in t.probs:
                acc += p
                cdf.append(acc)
            self.cache[key] = (t.lo, cdf)
        lo, cdf = self.cache[key]
        top = cdf[-1]
        out = []
        for _ in range(count):
            i = bisect.bisect_right(cdf, self.rng.random() * top)
            out.append(str(lo + min(i, len(cdf) - 1)))
        return out


def main(modes: list[str]) -> int:
    opts: dict[str, str] = {}
    for m in modes:
        key, _, value = m.partition("=")
        opts[key] = value
    if "dead" in opts:
        return 4
    if "start-delay" in opts:
        time.sleep(float(opts["start-delay"]))
    rng = random.Random(int(opts.get("seed", "1")))
    sampler_ = TableSampler(rng)
    sigma_r = Fraction(opts.get("sigma", "1"))
    bern_r = Fraction(opts.get("bernoulli", "1"))
    rr_r = Fraction(opts.get("rr", "1"))

    handlers = dict(TAPE.handlers())

    every = {**DISTRIBUTIONS, **registry_distributions()}

    def sampler(key: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
        dist = every[key]

        def run(args: dict[str, Any]) -> dict[str, Any]:
            value = Fraction(args[dist.param])
            if key == "discrete_gaussian":
                value *= sigma_r * sigma_r
            elif key == "discrete_laplace":
                value *= sigma_r
            elif key == "bernoulli":
                value *= bern_r
            if key == "bernoulli_rr" and rr_r != 1:
                q = Fraction(rr_flip(value)) * rr_r
                return {"samples": sampler_.draw(("rr", q), lambda: bernoulli_table(q),
                                                  int(args["count"]))}
            return {"samples": sampler_.draw((key, value), lambda: dist.table(value),
                                              int(args["count"]))}
        return run

    handlers.update({d.op: sampler(k) for k, d in every.items()})

    def seeded(op: str, handler: Callable[[dict[str, Any]], dict[str, Any]]
               ) -> Callable[[dict[str, Any]], dict[str, Any]]:
        def run(args: dict[str, Any]) -> dict[str, Any]:
            if "seed" not in args:
                args = {**args, "seed": rng.randbytes(32).hex()}
            if op == "mechanisms.symmetric_rappor" and "rappor-eps" in opts:
                args = {**args, "eps0": str(Fraction(args["eps0"]) * Fraction(opts["rappor-eps"]))}
            return handler(args)
        return run

    handlers.update({op: seeded(op, h) for op, h in MECHANISMS.handlers().items()})
    if "kary-keep" in opts:
        def wrong_kary(args: dict[str, Any]) -> dict[str, Any]:
            k = int(args["k"])
            e = math.exp(float(Fraction(args["eps"])))
            keep = e / (e + k)  # the planted bug: k where k - 1 belongs
            out = []
            for x in args["measurements"]:
                if rng.random() < keep:
                    out.append(x)
                else:
                    y = rng.randrange(k - 1)
                    out.append(y + 1 if y >= x else y)
            return {"noisy": out}
        handlers["mechanisms.kary_rr"] = wrong_kary
    if "rappor-pairs" in opts:
        def paired_rappor(args: dict[str, Any]) -> dict[str, Any]:
            p0 = 1 / (math.exp(float(Fraction(args["eps0"]))) + 1)
            out = []
            for x in args["measurements"]:
                bits = [int(c) for c in x]
                for j in range(0, len(bits) - 1, 2):
                    if rng.random() < p0:  # the planted bug: one coin for two coordinates
                        bits[j] ^= 1
                        bits[j + 1] ^= 1
                out.append("".join(map(str, bits)))
            return {"noisy": out}
        handlers["mechanisms.symmetric_rappor"] = paired_rappor
    if "tape-wrong" in opts:
        good = handlers["tape.uniform"]

        def bad_uniform(args: dict[str, Any]) -> dict[str, Any]:
            out = good(args)
            if len(out["values"]) > 3:
                out["values"][2] = str(int(out["values"][2]) + 1)
            return out
        handlers["tape.uniform"] = bad_uniform
    if "accept-invalid" in opts:
        good_derive = handlers["xof.derive_seed"]

        def lax_derive(args: dict[str, Any]) -> dict[str, Any]:
            if len(args["seed"]) == 62:
                args = dict(args, seed=args["seed"] + "00")
            return good_derive(args)
        handlers["xof.derive_seed"] = lax_derive

    caps = {"implementation": "fake " + " ".join(modes), "version": "0", "protocol": 1,
            "ops": sorted(handlers), "modes": ["exact", "statistical"]}
    n = 0
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "capabilities":
            print(json.dumps(respond(request, handlers, caps)), flush=True)
            continue
        n += 1
        if "crash-after" in opts and n >= int(opts["crash-after"]):
            print("fake adapter: crashing on purpose", file=sys.stderr, flush=True)
            return 3
        if "hang-after" in opts and n >= int(opts["hang-after"]):
            time.sleep(3600)
        response = respond(request, handlers, caps)
        if "unsupported" in opts:
            response = {"id": request["id"], "ok": False, "unsupported": "fake: nothing here"}
        if "garbage" in opts:
            sys.stdout.write("this is not JSON {\n")
        elif "wrong-id" in opts:
            response["id"] = request["id"] + 1000
            sys.stdout.write(json.dumps(response) + "\n")
        elif "huge" in opts:
            sys.stdout.write(json.dumps({**response, "pad": "x" * 3_000_000}) + "\n")
        elif "no-newline" in opts:
            sys.stdout.write(json.dumps(response))
            sys.stdout.flush()
            time.sleep(3600)
        elif "not-object" in opts:
            sys.stdout.write("[1, 2, 3]\n")
        else:
            sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
