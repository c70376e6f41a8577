"""Vector family ``samplers``: the exact seeded samplers of dpspec.spec.samplers.

One file per sampler, ``samplers/NAME.json``, op ``sampler.NAME``. Arguments: ``seed`` (hex),
``tag`` (the tape tag), the sampler's parameters as rational/decimal strings, ``count``.
Outputs: ``samples`` (decimal strings; one list per sample for vector samplers), and the tape's
``bitsConsumed`` / ``bytesConsumed`` after the ``count`` samples.

Statistical mode: the harness may send the op without ``seed`` and ``tag``; the implementation
then uses its own randomness (the reference handler draws a fresh 32-byte seed from os.urandom and
uses the sampler's registry tag) and the harness compares the distribution of the samples with the
exact PMF.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from itertools import groupby
from typing import Any

from dpspec.conformance.jsonargs import COUNT, DEC, HEX, count_arg, hex_arg
from dpspec.conformance.vectors import (
    Family,
    Handler,
    TestNumberer,
    VectorFile,
    envelope,
    family_schema,
    test_entry,
    vector_seed,
)
from dpspec.spec.rational import GRAMMAR_ABNF, MAX_EXPONENT, MAX_TEXT_LENGTH, RationalError
from dpspec.spec.samplers import SAMPLERS, Sampler
from dpspec.spec.samplers.counts import (
    MAX_BINOMIAL_WORK,
    MAX_COMPOUND_MEAN,
    MAX_COMPOUND_WORK,
    MAX_MEAN,
    MAX_RR_TRIALS_BITS,
)
from dpspec.spec.samplers.params import MAX_SCALE_BITS
from dpspec.spec.tape import RandomTape

SCHEMA = "samplers-v1.json"
MAX_COUNT = 100_000

#: A parameter is a string matching the grammar; a JSON number appears only in invalid tests
#: (validation step 1 rejects it).
_PARAM: dict[str, Any] = {"type": ["string", "number"]}


def _handler(sampler: Sampler) -> Handler:
    def handle(args: dict[str, Any]) -> dict[str, Any]:
        has_seed, has_tag = "seed" in args, "tag" in args
        if has_seed != has_tag:
            raise ValueError("seed and tag must be given together (or both omitted)")
        if has_seed:
            seed = hex_arg(args, "seed")
            tag = args["tag"]
            if not isinstance(tag, str):
                raise ValueError("tag must be a string")
        else:
            seed, tag = os.urandom(32), sampler.tag
        count = count_arg(args, "count", MAX_COUNT)
        params = {}
        for p in sampler.params:
            if p.name not in args:
                raise ValueError(f"missing parameter {p.name}")
            value = args[p.name]
            if not isinstance(value, str):
                raise RationalError(f"{p.name} must be a rational string")
            params[p.name] = value
        known = {"seed", "tag", "count"} | {p.name for p in sampler.params}
        extra = sorted(set(args) - known)
        if extra:
            raise ValueError(f"unknown arguments {extra}")
        tape = RandomTape(seed, tag)
        samples: list[Any] = []
        for _ in range(count):
            value = sampler.draw(tape, params)
            samples.append([str(v) for v in value] if sampler.vector else str(value))
        if count == 0:
            sampler.draw(RandomTape(bytes(16), "validate"), params)  # still reject bad params
        return {"samples": samples, "bitsConsumed": tape.bits_consumed,
                "bytesConsumed": tape.bytes_consumed}

    return handle


# -- header text ----------------------------------------------------------------------------------

COMMON = [
    "dpspec exact samplers (module dpspec.spec.samplers), driven only by the dpspec random tape v1.",
    "TAPE: byte stream S = XofTurboShake128(seed, dst = b'dpspec/tape/v1/' || ASCII(tag),"
    " binder = b'') (VDAF draft-20 sec. 6.2.1); bit i*8+j of the bit stream is (S[i] >> j) & 1."
    " Every sampler below reads the bit stream one bit at a time (bit() = the next bit), in the"
    " order given, and nothing else (see vectors/tape/random_tape.json for the tape itself).",
    "Each test runs the sampler `count` times in sequence on ONE tape built from (seed, tag), and"
    " reports the samples and the tape position afterwards: bitsConsumed (bits handed out) and"
    " bytesConsumed = ceil(bitsConsumed / 8).",
    "Parameters are exact rationals written 'a', 'a/b' or decimal 'x.y'; nothing is ever"
    " rounded. n and dim are integers. Samples are decimal strings.",
    "GRAMMAR (ABNF, RFC 5234; DIGIT = %x30-39; \"e\" matches e and E): "
    + "; ".join(GRAMMAR_ABNF) + ". A rational parameter matches rational, an integer parameter"
    " (n, dim) matches integer ('4/2', '1e3', '3.0' are refused); the whole string must match:"
    " no blanks. The value of a decimal is mantissa * 10^exponent exactly.",
    "VALIDATION ORDER (the first failing step decides; steps 1-6 for each parameter in the"
    " order of the signature, then step 7): 1 the value is a JSON string (NotRational);"
    f" 2 at most {MAX_TEXT_LENGTH} characters (TooLong); 3 syntax (NotRational / NotInteger);"
    f" 4 |exponent| <= {MAX_EXPONENT} (ExponentTooLarge); 5 denominator not 0 (ZeroDenominator);"
    " 6 the sampler's range (OutOfRange); 7 the cost limit (MeanTooLarge / CostTooLarge).",
    "LAZY COMPARISON lc(x), for an exact real x in [0, 1]: let V = 0, i = 0. Loop: if"
    " (V + 1) / 2^i <= x return 1; if V / 2^i >= x return 0; otherwise V = 2V + bit(), i = i + 1."
    " (It compares a uniform U = 0.b1 b2 b3... with x; P[1] = x exactly. lc(0) and lc(1) read no"
    " bits; lc(1/2) reads one.) When x is rational the tests are integer comparisons. When x is"
    " irrational (powers of exp(-g), 1/(1 + exp(-eps)), ...) no test is ever an equality, and an"
    " implementation must evaluate x to enough binary digits to decide each test with certainty,"
    " e.g. with rigorous interval bounds that it refines until they decide (the reference brackets"
    " exp(-z), z <= 1/2, between consecutive partial sums of its Taylor series and squares the"
    " bounds with outward rounding, starting at 64 bits and doubling the precision when undecided).",
    "EXACT NUMBERS: when x is rational the two tests of lc are exact comparisons, equality"
    " included. A dyadic x = c/2^k is reached exactly: lc(3/8) reading the bits 0, 1, 1 has"
    " V = 3, i = 3, and V/2^i >= 3/8 returns 0 (geometric p = 2/5 compares 3/8; poisson lam = 1/2"
    " compares 1/4 and 1/2). For a rational a/b the tests are 2^i a >= b (V + 1) and 2^i a <= b V"
    " in integers. An implementation that evaluates a rational x through bounds must fall back"
    " to exact arithmetic when the bounds cannot decide: bounds never separate a dyadic x from"
    " an endpoint equal to it, so treating such an x as irrational never terminates.",
    "BERNOULLI_EXP be(g), g >= 0 rational (Algorithm 1 of CKS20, Canonne-Kamath-Steinke 2020):"
    " if g <= 1: K = 1; while lc(g / K) = 1: K = K + 1; return 1 if K is odd else 0."
    " If g > 1: repeat floor(g) times { if be(1) = 0 return 0 }; return be(g - floor(g)).",
]

GEOMETRIC_TEXT = [
    "HALVING GEOMETRIC hg(x, m), x in [0, 1) a ratio and m >= 0: samples P[K = k] = (1 - x) x^k."
    " Step 1: V = 0; while lc(x^(2^m)) = 1: V = V + 1. Step 2: for j = 0, 1, ..., m - 1:"
    " d_j = lc(x^(2^j) / (1 + x^(2^j))). Return sum_j d_j 2^j + 2^m V. (K div 2^m is geometric"
    " with ratio x^(2^m); the binary digits of K mod 2^m are independent with those"
    " probabilities.)",
]

TEXTS: dict[str, list[str]] = {
    "bernoulli": ["bernoulli(p), p in [0, 1]: return lc(p)."],
    "bernoulli_exp": ["bernoulli_exp(gamma), gamma >= 0: return be(gamma)."],
    "bernoulli_rr": [
        "bernoulli_rr(eps), eps >= 0 (P[1] = 1/(1 + exp(eps)); the two-coin Bernoulli factory):"
        " loop { if bit() = 1 return 0; if be(eps) = 1 return 1 }."],
    "geometric": [
        "geometric(p), p in (0, 1] (P[k] = (1-p)^k p, k >= 0): if p = 1 return 0 (no bits)."
        " Otherwise m = the largest integer >= 0 with 2^m p <= 1 and return hg(1 - p, m)."
        " The numbers compared are rational, but (1 - p)^(2^j) has a numerator and denominator"
        " of 2^j times the size of those of 1 - p (j up to 29 for p = 10^-9): evaluate it, like"
        " the irrational numbers, to the binary digits the comparison reads (e.g. by repeated"
        " squaring of interval bounds)."],
    "geometric_exp": [
        "geometric_exp(gamma), gamma > 0 (P[k] = (1 - exp(-gamma)) exp(-gamma k)): m = the"
        " largest integer >= 0 with 2^m gamma <= 1 (m = 0 if gamma > 1); return"
        " hg(exp(-gamma), m). The numbers compared, exp(-2^j gamma) and"
        " exp(-2^j gamma) / (1 + exp(-2^j gamma)), are irrational."],
    "discrete_laplace": [
        "discrete_laplace(t), t > 0 (P[x] proportional to exp(-|x|/t); the construction of CKS20"
        " Algorithm 2 with the magnitude drawn by geometric_exp): loop { Y = geometric_exp(1/t);"
        " B = bit(); if B = 1 and Y = 0: continue; return Y if B = 0 else -Y }."],
    "discrete_gaussian": [
        "discrete_gaussian(sigma2), sigma2 = n/d > 0 (P[x] proportional to"
        " exp(-x^2 / (2 sigma2)); CKS20 Algorithm 3): t = floor(sqrt(sigma2)) + 1 computed"
        " exactly as isqrt(n d) div d + 1. Loop { Y = discrete_laplace(t); if"
        " be((|Y| - sigma2/t)^2 / (2 sigma2)) = 1 return Y }."],
    "discrete_gaussian_vector": [
        "discrete_gaussian_vector(sigma2, dim), dim >= 1: dim discrete_gaussian(sigma2) samples"
        " drawn one after another from the same tape; one sample is the list of dim values."],
    "binomial": [
        "binomial(n, p), p in [0, 1], n >= 0 integer: p = 0 returns 0, p = 1 returns n (no bits);"
        " if p > 1/2 return n - binomial(n, 1 - p). Otherwise (0 < p <= 1/2): if n = 0 return 0;"
        " S = 0, P = 0; loop { P = P + geometric(p) + 1; if P > n return S; S = S + 1 }"
        " (jumps over runs of failures; cost O(1 + n p)). But if (after the reflection) n p > 256,"
        " or (steps version 2; no vector of version 1 has it) n p (m + 2)^2 > 2560000 with m the"
        " largest integer >= 0 with 2^m p <= 1: return env(rho, M, d, n) with"
        " rho(k) = (n - k) p / ((k + 1)(1 - p)),"
        " M = floor((n + 1) p), d = isqrt(floor(n p (1 - p))) + 1. Cost limit: n min(p, 1 - p)"
        " > 1000000 is refused (CostTooLarge)."],
    "binomial_textbook": [
        "binomial_textbook(n, p): the sum of n samples bernoulli(p), drawn in order. Cost limit:"
        " n > 1000000 is refused (CostTooLarge)."],
    "binomial_rr": [
        "binomial_rr(n, eps), eps >= 0 (success probability p = 1/(1 + exp(eps))): eps = 0 is"
        " binomial(n, 1/2). Otherwise p is irrational; let q = 1/(1 + exp(-eps)) = 1 - p and"
        " m = the largest integer >= 0 with 2^m <= 1 + exp(eps). gaps(n, G) denotes the loop of"
        " binomial for p <= 1/2 with the geometric variates G: if n = 0 return 0; S = 0, P = 0;"
        " loop { P = P + G + 1; if P > n return S; S = S + 1 }. Cost limit: n p > 1000000 is"
        " refused (CostTooLarge; eps = 0: n / 2 > 1000000). If n p <= 256 and eps <= 64: return"
        " gaps(n, hg(q, m)). If n p > 256 or eps > 64 (steps version 2, the DYADIC SPLIT; version"
        " 1 used the gaps for all parameters, and its vectors, all with n p <= 256 and eps <= 20,"
        " are unchanged): k = bitlen(n)"
        " + 1 (bitlen(n) = the number of binary digits of n), c = floor(2^k p) + 1, p0 = c / 2^k"
        " (rational, p < p0 <= 1/2); X = binomial(n, p0); s = 1 - p / p0 (irrational); m_s ="
        " the largest integer >= 0 with 2^m_s s <= 1; return X - gaps(X, hg(1 - s, m_s))."
        " (Each success of Binomial(n, p0) is kept with probability p / p0; fewer than 1/2 are"
        " removed on average.) n p > 256, n p > 1000000 and floor(2^k p) are decided with"
        " rigorous bounds on exp(-eps) (n p is irrational). The numbers compared by hg are"
        " irrational."],
    "poisson": [
        f"poisson(lam), 0 <= lam <= {MAX_MEAN} (larger means are refused): lam = 0 returns 0 (no"
        " bits). Otherwise k = ceil(2 lam), mu = lam / k (<= 1/2), m = the largest integer >= 0"
        " with 2^m (1 - mu) <= 1 (0 unless mu = 1/2, then 1). Sum of k pieces, drawn in order,"
        " each: loop { K = hg(mu, m) (that is geometric(1 - mu)); if lc(1 / K!) = 1: the piece is"
        " K, stop }. (Infinite divisibility; each piece is Poisson(mu) by rejection: P[K = k]"
        " proportional to mu^k, accepted with 1/k!.) If lam > 256 the pieces are not used: return"
        " env(rho, M, d, none) with rho(k) = lam/(k + 1), M = floor(lam), d = isqrt(M) + 1"
        " (cost O(sqrt(lam)))."],
    "negative_binomial": [
        "negative_binomial(r, p), r > 0, p in [0, 1) (P[k] = C(k + r - 1, k) (1-p)^r p^k; r may"
        " be fractional): p = 0 returns 0 (no bits). Otherwise N = poisson(r p / (1 - p))"
        f" (refused if r p / (1 - p) > {MAX_MEAN}); total = 0; N times {{ J = 1 + geometric(1 - p);"
        " if lc(1/J) = 1: total = total + J }; return total. (Compound Poisson: NB(r, p) ="
        " sum_j j Poisson(r p^j / j), obtained by thinning; exact.) But if r >= 1, lam = r p /"
        " (1 - p) > 256 and 256 r >= lam: return env(rho, M, d, none) with rho(k) = (k + r) p /"
        " (k + 1), M = floor((r - 1) p / (1 - p)), d = isqrt(floor(lam / (1 - p))) + 1."
        " Steps version 2 (cost sublinear in lam; version 1 refused these parameters, so its"
        " vectors are unchanged): if the envelope is not used and lam > 10000 or lam (m + 2)^2 >"
        " 2560000, m the largest integer >= 0 with 2^m (1 - p) <= 1, the compound steps are"
        " replaced by SIZE BLOCKS. Let y_i = p^(2^i) (rational). PBR(x), Poisson of a rational"
        " x in [0, 1]: k = floor(2 x) + 1 pieces of mean mu = x / k (< 1/2), each piece: loop {"
        " K = 0; while lc(mu) = 1: K = K + 1; if lc(1 / K!) = 1: the piece is K, stop }; the sum"
        " of the pieces (x = 0 reads no bits). B = the smallest integer >= 0 with tau = r y_B /"
        " (1 - p) <= 1; total = 0; for i = 0, 1, ..., B - 1: mu_i = r y_i (1 - y_i) / (2^i"
        " (1 - p)); N_i = poisson(floor(mu_i)) + PBR(mu_i - floor(mu_i)); N_i times { R ="
        " sum_{j = 0}^{i - 1} 2^j lc(y_j / (1 + y_j)) (j ascending); J = 2^i + R; if"
        " lc(2^i / J) = 1: total = total + J }. Then N = PBR(tau); N times { J = 2^B +"
        " geometric(1 - p); if lc(1/J) = 1: total = total + J }; return total. (The points of"
        " the compound steps with a size in [2^i, 2^(i+1)), thinned by 2^-i first; sizes >= 2^B"
        " by memorylessness.) Every number here is an exact rational and every comparison"
        " (tau <= 1, the floors, lc) is exact, equality included: y_i and mu_i can be dyadic"
        " (p = 1 - 2^-k), and y_i has 2^i times the digits of p, so evaluate them through"
        " bounds that become exact (floor and ceil of 2^P x) at a high enough precision P."],
    "negative_binomial_exp": [
        "negative_binomial_exp(r, gamma), r > 0, gamma > 0: NB(r, p) with the irrational"
        " p = exp(-gamma). The mean lambda = r / (exp(gamma) - 1) is irrational (refused if"
        f" > {MAX_MEAN}). Let y_j = exp(-2^j gamma) (so y_0 = p); every comparison of lambda,"
        " mu_i or tau below with a rational is decided with rigorous bounds (never an equality)."
        " PB(x), Poisson of an irrational x > 0: k = floor(2 x) + 1 pieces of mean mu = x / k"
        " < 1/2, each piece: loop { K = 0; while lc(mu) = 1: K = K + 1; if lc(1 / K!) = 1: the"
        " piece is K, stop }; the sum of the pieces. CASE 1, lambda <= 256 and lambda (m + 2)^2 <="
        " 2560000, m the largest integer >= 0 with 2^m gamma <= 1 (the steps of version"
        " 1): N = PB(lambda); total = 0; N times { J = 1 + geometric_exp(gamma); if lc(1/J) = 1:"
        " total = total + J }; return total. Steps version 2 (cost sublinear in lambda; version"
        " 1 used case 1 for every lambda, and its vectors, all with lambda <= 256, are"
        " unchanged): CASE 2, lambda > 256, r >= 1 and r^3 > lambda (DYADIC SPLIT): L ="
        " ceil(r) + floor(lambda) + 1, k = 2 bitlen(L) + 2, c = floor(2^k p) + 1, p0 = c / 2^k;"
        " X = env(rho, M, d, none) with rho(i) = (i + r) p0 / (i + 1), M = floor((r - 1) p0 /"
        " (1 - p0)), d = isqrt(floor(r p0 / (1 - p0)^2)) + 1; s = (p0 - p) / (p0 (1 - p))"
        " (irrational), m_s = the largest integer >= 0 with 2^m_s s <= 1; return X - gaps(X,"
        " hg(1 - s, m_s)) (gaps as in binomial_rr). (Thinning NB(r, p0) with keep probability"
        " 1 - s gives NB(r, p).) CASE 3, lambda > 256 and (r < 1 or r^3 < lambda), or (steps"
        " version 3; no earlier vector has it) lambda <= 256 and lambda (m + 2)^2 > 2560000"
        " (SIZE BLOCKS):"
        " B = the smallest integer >= 0 with tau = r y_B / (1 - p) < 1; total = 0; for i = 0, 1,"
        " ..., B - 1: mu_i = r y_i (1 - y_i) / (2^i (1 - p)); N_i = poisson(floor(mu_i)) +"
        " PB(mu_i - floor(mu_i)); N_i times { R = sum_{j = 0}^{i - 1} 2^j lc(y_j / (1 + y_j))"
        " (j ascending); J = 2^i + R; if lc(2^i / J) = 1: total = total + J }. Then N = PB(tau);"
        " N times { J = 2^B + geometric_exp(gamma); if lc(1/J) = 1: total = total + J }; return"
        " total. (The points of case 1 with a size in [2^i, 2^(i+1)), thinned by 2^-i first.)"],
}

ENVELOPE_TEXT = [
    "MODE ENVELOPE env(rho, M, d, top), for a log-concave PMF f on 0..top (top = none: unbounded)"
    " given by its rational ratio rho(k) = f(k+1)/f(k), decreasing in k, and its mode M"
    " (rho(M) <= 1 <= rho(M - 1)); rationals only, cost O(d) big-integer operations."
    " 1: a = max(0, M - d); b = M + d, or min(top, M + d); W = b - a + 1; r+ = rho(b), or 0 if"
    " b = top; r- = 1/rho(a - 1), or 0 if a = 0; A = r+/(1 - r+); B = r-/(1 - r-);"
    " c = W/(W + A + B); c' = A/(A + B), or 0 if A + B = 0. 2: if lc(c) = 1: k = a + uniform(W)"
    " (the tape's uniform, least significant bit first), h = 1; else if lc(c') = 1:"
    " G = geometric(1 - r+), k = b + 1 + G, h = r+^(G+1); else G = geometric(1 - r-),"
    " k = a - 1 - G, h = r-^(G+1), and if k < 0 repeat 2. If top exists and k > top repeat 2."
    " 3: R = f(k)/f(M) = product of rho(i) for M <= i < k, or of 1/rho(i) for k <= i < M;"
    " if lc(R/h) = 1 return k, else repeat from 2 (a, b, ..., c' are kept).",
]

RATIONAL_TEXT = [
    "RATIONAL-ONLY PROFILE (module dpspec.spec.samplers.rational_only): every lc below compares"
    " with an explicit rational a/b (integer arithmetic only; no exp, no floating point, no"
    " interval bounds). It samples exactly the distributions of the lazy profile's samplers of"
    " the same name, with other coins, so its tape tags and samples differ.",
    "RR COIN rr(g), g >= 0 rational, P[1] = exp(-g) / (1 + exp(-g)) (two-coin Bernoulli"
    " factory): loop { if bit() = 1 return 0; if be(g) = 1 return 1 }.",
    "RATIONAL HALVING GEOMETRIC rg(gamma), gamma > 0 rational, P[K = k] = (1 - exp(-gamma))"
    " exp(-gamma k): m = the largest integer >= 0 with 2^m gamma <= 1 (m = 0 if gamma > 1)."
    " Step 1: V = 0; while be(2^m gamma) = 1: V = V + 1. Step 2: for j = 0, 1, ..., m - 1:"
    " d_j = rr(2^j gamma). Return sum_j d_j 2^j + 2^m V.",
]

RATIONAL_TEXTS: dict[str, list[str]] = {
    "rational.bernoulli_exp": ["rational.bernoulli_exp(gamma), gamma >= 0: return be(gamma)."],
    "rational.bernoulli_rr": [
        "rational.bernoulli_rr(eps), eps >= 0 (P[1] = 1/(1 + exp(eps))): return rr(eps)."],
    "rational.geometric_exp": [
        "rational.geometric_exp(gamma), gamma > 0: return rg(gamma)."],
    "rational.discrete_laplace": [
        "rational.discrete_laplace(t), t > 0 (P[x] proportional to exp(-|x|/t)): loop { Y ="
        " rg(1/t); B = bit(); if B = 1 and Y = 0: continue; return Y if B = 0 else -Y }."],
    "rational.discrete_gaussian": [
        "rational.discrete_gaussian(sigma2), sigma2 = n/d > 0 in lowest terms (CKS20 Algorithm"
        " 3): t = isqrt(n d) div d + 1. Loop { Y = rational.discrete_laplace(t); if"
        " be((|Y| t d - n)^2 / (2 t^2 d n)) = 1 return Y }."],
    "rational.discrete_gaussian_vector": [
        "rational.discrete_gaussian_vector(sigma2, dim), dim >= 1: dim"
        " rational.discrete_gaussian(sigma2) samples drawn one after another from the same tape."],
}

#: The scale caps (issue 16, item 5: the halving geometric's cost grows like log2(scale)^2), in
#: the header of the op they bind (the samplers that call geometric internally state their own).
_SCALE = ("(the halving geometric draws about log2(scale) digits, each evaluated to about as"
          " many bits; step 7, CostTooLarge)")
_RATE = f"2^-{MAX_SCALE_BITS}"
_GEOMETRIC_EXP_CAP = f"Cost limit: gamma < {_RATE} is refused {_SCALE}."
_LAPLACE_CAP = f"Cost limit: t > 2^{MAX_SCALE_BITS} is refused {_SCALE}."
_GAUSSIAN_CAP = (f"Cost limit: sigma2 > 2^{2 * MAX_SCALE_BITS} is refused {_SCALE}; it is checked"
                 " after the range of every parameter.")
CAP_TEXTS: dict[str, str] = {
    "geometric": f"Cost limit: p < {_RATE} is refused {_SCALE}.",
    "geometric_exp": _GEOMETRIC_EXP_CAP,
    "rational.geometric_exp": _GEOMETRIC_EXP_CAP,
    "discrete_laplace": _LAPLACE_CAP,
    "rational.discrete_laplace": _LAPLACE_CAP,
    "discrete_gaussian": _GAUSSIAN_CAP,
    "rational.discrete_gaussian": _GAUSSIAN_CAP,
    "discrete_gaussian_vector": _GAUSSIAN_CAP,
    "rational.discrete_gaussian_vector": _GAUSSIAN_CAP,
    "binomial": f"Cost limits, checked in this order: 0 < min(p, 1 - p) < {_RATE} is refused"
                f" {_SCALE}; then n min(p, 1 - p) > {MAX_BINOMIAL_WORK}.",
    "binomial_rr": f"Cost limits, checked in this order: 0 < eps < {_RATE}, then n >="
                   f" 2^{MAX_RR_TRIALS_BITS} (the split's p0 >= 2^-k must stay >= {_RATE}), then"
                   " the limit on n p above, are refused (CostTooLarge).",
    "negative_binomial": f"Cost limits, checked in this order: 1 - p < {_RATE} is refused"
                         f" {_SCALE}; then lam > {MAX_MEAN} (MeanTooLarge). (Version 1 also"
                         f" refused, for the compound steps, lam > {MAX_COMPOUND_MEAN} and lam"
                         f" (m + 2)^2 > {MAX_COMPOUND_WORK} (CostTooLarge); steps version 2"
                         " samples them.)",
    "negative_binomial_exp": f"Cost limits, checked in this order: gamma < {_RATE} is refused"
                             f" {_SCALE}; then lambda > {MAX_MEAN} (MeanTooLarge).",
}

DEPENDS: dict[str, list[str]] = {
    "rational.discrete_laplace": ["rational.geometric_exp"],
    "rational.discrete_gaussian": ["rational.discrete_laplace"],
    "rational.discrete_gaussian_vector": ["rational.discrete_gaussian"],
    "bernoulli_rr": [],
    "geometric": ["HG"],
    "geometric_exp": ["HG"],
    "discrete_laplace": ["geometric_exp"],
    "discrete_gaussian": ["discrete_laplace"],
    "discrete_gaussian_vector": ["discrete_gaussian"],
    "binomial": ["geometric", "ENV"],
    "binomial_textbook": ["bernoulli"],
    "binomial_rr": ["binomial"],
    "poisson": ["geometric", "ENV"],
    "negative_binomial": ["poisson", "geometric"],
    "negative_binomial_exp": ["poisson", "geometric_exp"],
}


def header_for(name: str) -> list[str]:
    order: list[str] = []

    def visit(n: str) -> None:
        for dep in DEPENDS.get(n, []):
            visit(dep)
        if n not in order:
            order.append(n)

    visit(name)
    lines = list(COMMON)
    if name.startswith("rational."):
        lines += RATIONAL_TEXT
    if "HG" in order:
        lines += GEOMETRIC_TEXT
    if "ENV" in order:
        lines += ENVELOPE_TEXT
    for n in order:
        if n not in ("HG", "ENV"):
            lines += RATIONAL_TEXTS[n] if n.startswith("rational.") else TEXTS[n]
    if name in CAP_TEXTS:
        lines.append(CAP_TEXTS[name])
    return lines


# -- the vectors --------------------------------------------------------------------------------

Profile = tuple[str, dict[str, str], int]  # comment, params, count
Invalid = tuple[str, dict[str, str], str]  # comment, params, flag

VALID: dict[str, list[Profile]] = {
    "bernoulli": [
        ("p = 1/2: one bit per sample", {"p": "1/2"}, 64),
        ("p = 1/3", {"p": "1/3"}, 64),
        ("small p", {"p": "1/1000"}, 64),
        ("p close to 1", {"p": "999/1000"}, 64),
        ("decimal p", {"p": "0.7071067811"}, 64),
        ("large numerator and denominator", {"p": "123456789/1000000007"}, 32),
        ("edge p = 0: no bits", {"p": "0"}, 8),
        ("edge p = 1: no bits", {"p": "1"}, 8),
    ],
    "bernoulli_exp": [
        ("gamma = 0: always 1, no bits", {"gamma": "0"}, 8),
        ("small gamma", {"gamma": "1/10"}, 64),
        ("gamma = 1", {"gamma": "1"}, 64),
        ("gamma > 1 (integer and fractional parts)", {"gamma": "5/2"}, 64),
        ("large gamma", {"gamma": "30"}, 32),
        ("tiny gamma", {"gamma": "1/1000000"}, 32),
    ],
    "bernoulli_rr": [
        ("eps = 0: P = 1/2", {"eps": "0"}, 64),
        ("small eps", {"eps": "1/4"}, 64),
        ("eps = 1", {"eps": "1"}, 64),
        ("eps = 3", {"eps": "3"}, 64),
        ("large eps", {"eps": "20"}, 32),
        ("decimal eps", {"eps": "0.5"}, 32),
    ],
    "geometric": [
        ("edge p = 1: always 0, no bits", {"p": "1"}, 8),
        ("p = 1/2 (m = 1)", {"p": "1/2"}, 64),
        ("p = 1/3", {"p": "1/3"}, 64),
        ("large p (m = 0)", {"p": "9/10"}, 64),
        ("p = 0.37", {"p": "0.37"}, 32),
        ("small p = 1/1000 (m = 9)", {"p": "1/1000"}, 32),
        ("tiny p = 10^-9 (m = 29)", {"p": "1/1000000000"}, 8),
    ],
    "geometric_exp": [
        ("gamma = 1/10", {"gamma": "1/10"}, 32),
        ("gamma = 1/2", {"gamma": "1/2"}, 32),
        ("gamma = 1 (m = 0)", {"gamma": "1"}, 32),
        ("gamma > 1", {"gamma": "3"}, 32),
        ("small gamma", {"gamma": "1/100000"}, 16),
    ],
    "discrete_laplace": [
        ("t = 1", {"t": "1"}, 64),
        ("t = 10", {"t": "10"}, 64),
        ("t = 100", {"t": "100"}, 32),
        ("fractional t", {"t": "5/2"}, 32),
        ("edge: tiny t (almost always 0)", {"t": "1/1000"}, 16),
        ("t = 1/10", {"t": "1/10"}, 32),
        ("edge: huge t", {"t": "1000000"}, 16),
    ],
    "discrete_gaussian": [
        ("sigma^2 = 1", {"sigma2": "1"}, 64),
        ("sigma^2 = 100 (sigma = 10)", {"sigma2": "100"}, 64),
        ("sigma^2 = 10^4", {"sigma2": "10000"}, 32),
        ("sigma^2 = 1/2", {"sigma2": "1/2"}, 32),
        ("irrational sigma: sigma^2 = 7/3", {"sigma2": "7/3"}, 32),
        ("decimal sigma^2", {"sigma2": "2.25"}, 32),
        ("edge: tiny sigma^2 = 10^-6 (almost always 0)", {"sigma2": "1/1000000"}, 16),
        ("edge: huge sigma^2 = 10^12", {"sigma2": "1000000000000"}, 16),
        ("sigma^2 = 10^8 (sigma = 10^4)", {"sigma2": "100000000"}, 16),
    ],
    "discrete_gaussian_vector": [
        ("dim 1", {"sigma2": "1", "dim": "1"}, 8),
        ("dim 4, sigma^2 = 2", {"sigma2": "2", "dim": "4"}, 8),
        ("dim 16, sigma^2 = 100", {"sigma2": "100", "dim": "16"}, 4),
        ("dim 3, tiny sigma^2", {"sigma2": "1/1000", "dim": "3"}, 4),
    ],
    "binomial": [
        ("edge n = 0", {"n": "0", "p": "1/2"}, 8),
        ("edge p = 0: no bits", {"n": "10", "p": "0"}, 4),
        ("edge p = 1: no bits", {"n": "10", "p": "1"}, 4),
        ("n = 20, p = 1/2", {"n": "20", "p": "1/2"}, 32),
        ("n = 1000, p = 1/100", {"n": "1000", "p": "1/100"}, 16),
        ("p > 1/2 uses n - binomial(n, 1 - p)", {"n": "50", "p": "9/10"}, 16),
        ("large n, small p: cost O(n p)", {"n": "1000000", "p": "1/100000"}, 8),
        ("n = 10^9, p = 10^-9", {"n": "1000000000", "p": "1/1000000000"}, 8),
    ],
    "binomial_textbook": [
        ("edge n = 0", {"n": "0", "p": "1/2"}, 4),
        ("n = 20, p = 1/2", {"n": "20", "p": "1/2"}, 16),
        ("n = 40, p = 1/10", {"n": "40", "p": "1/10"}, 16),
        ("edge p = 1", {"n": "10", "p": "1"}, 4),
        ("n = 100, p = 1/3", {"n": "100", "p": "1/3"}, 8),
    ],
    "binomial_rr": [
        ("edge n = 0", {"n": "0", "eps": "1"}, 4),
        ("eps = 0 is binomial(n, 1/2)", {"n": "20", "eps": "0"}, 16),
        ("n = 100, eps = 1", {"n": "100", "eps": "1"}, 16),
        ("n = 1000, eps = 3", {"n": "1000", "eps": "3"}, 8),
        ("n = 10^6, eps = 10", {"n": "1000000", "eps": "10"}, 8),
        ("decimal eps", {"n": "50", "eps": "0.25"}, 8),
    ],
    "poisson": [
        ("edge lam = 0: no bits", {"lam": "0"}, 4),
        ("small share lam = 1/100", {"lam": "1/100"}, 64),
        ("lam = 1/2 (one piece, mu = 1/2)", {"lam": "1/2"}, 32),
        ("lam = 3", {"lam": "3"}, 32),
        ("lam = 25/2", {"lam": "25/2"}, 16),
        ("lam = 100", {"lam": "100"}, 8),
        ("decimal lam", {"lam": "0.3"}, 32),
    ],
    "negative_binomial": [
        ("edge p = 0: no bits", {"r": "1", "p": "0"}, 4),
        ("fractional r = 1/3, p = 1/2", {"r": "1/3", "p": "1/2"}, 32),
        ("share r/n = 1/100, p = 9/10", {"r": "1/100", "p": "9/10"}, 32),
        ("r = 1 (geometric), p = 1/2", {"r": "1", "p": "1/2"}, 32),
        ("r = 2, p = 1/4", {"r": "2", "p": "1/4"}, 32),
        ("r = 5/2, p = 3/4", {"r": "5/2", "p": "3/4"}, 16),
        ("r = 10, p = 0.5", {"r": "10", "p": "0.5"}, 8),
    ],
    "negative_binomial_exp": [
        ("NB(1, e^-1): one of the two shares whose difference is DLap", {"r": "1", "gamma": "1"},
         32),
        ("share r/n = 1/100, p = e^(-1/2)", {"r": "1/100", "gamma": "1/2"}, 32),
        ("fractional r = 1/3, p = e^(-1/10)", {"r": "1/3", "gamma": "1/10"}, 16),
        ("r = 5, p = e^(-1/5)", {"r": "5", "gamma": "1/5"}, 8),
        ("large gamma: p = e^-20, almost always 0", {"r": "2", "gamma": "20"}, 16),
    ],
}

VALID.update({
    "rational.bernoulli_exp": [
        ("edge gamma = 0: always 1, no bits", {"gamma": "0"}, 8),
        ("small gamma", {"gamma": "1/10"}, 64),
        ("gamma = 1", {"gamma": "1"}, 64),
        ("gamma > 1 (integer and fractional parts)", {"gamma": "5/2"}, 64),
        ("large gamma", {"gamma": "30"}, 32),
        ("tiny gamma", {"gamma": "1/1000000"}, 32),
    ],
    "rational.bernoulli_rr": [
        ("eps = 0: P = 1/2", {"eps": "0"}, 64),
        ("small eps", {"eps": "1/4"}, 64),
        ("eps = 1", {"eps": "1"}, 64),
        ("eps = 3", {"eps": "3"}, 64),
        ("large eps", {"eps": "20"}, 32),
    ],
    "rational.geometric_exp": [
        ("gamma = 1/10 (m = 3)", {"gamma": "1/10"}, 32),
        ("gamma = 1/2 (m = 1)", {"gamma": "1/2"}, 32),
        ("gamma = 1 (m = 0)", {"gamma": "1"}, 32),
        ("gamma > 1 (m = 0)", {"gamma": "3"}, 32),
        ("gamma = 2^-5 exactly: 2^m gamma = 1 (m = 5)", {"gamma": "1/32"}, 16),
        ("small gamma (m = 16)", {"gamma": "1/100000"}, 8),
    ],
    "rational.discrete_laplace": [
        ("t = 1", {"t": "1"}, 64),
        ("t = 10", {"t": "10"}, 64),
        ("t = 100", {"t": "100"}, 32),
        ("fractional t", {"t": "5/2"}, 32),
        ("edge: tiny t (almost always 0)", {"t": "1/1000"}, 16),
        ("edge: huge t", {"t": "1000000"}, 8),
    ],
    "rational.discrete_gaussian": [
        ("sigma^2 = 1", {"sigma2": "1"}, 64),
        ("sigma^2 = 100 (sigma = 10)", {"sigma2": "100"}, 64),
        ("sigma^2 = 10^4", {"sigma2": "10000"}, 32),
        ("sigma^2 = 1/2", {"sigma2": "1/2"}, 32),
        ("irrational sigma: sigma^2 = 7/3", {"sigma2": "7/3"}, 32),
        ("edge: tiny sigma^2 = 10^-6 (almost always 0)", {"sigma2": "1/1000000"}, 16),
        ("edge: huge sigma^2 = 10^12", {"sigma2": "1000000000000"}, 8),
    ],
    "rational.discrete_gaussian_vector": [
        ("dim 1", {"sigma2": "1", "dim": "1"}, 8),
        ("dim 4, sigma^2 = 2", {"sigma2": "2", "dim": "4"}, 8),
        ("dim 16, sigma^2 = 100", {"sigma2": "100", "dim": "16"}, 4),
    ],
})

INVALID: dict[str, list[Invalid]] = {
    "bernoulli": [("p < 0", {"p": "-1/2"}, "OutOfRange"), ("p > 1", {"p": "3/2"}, "OutOfRange"),
                  ("not a number", {"p": "abc"}, "NotRational")],
    "bernoulli_exp": [("gamma < 0", {"gamma": "-1"}, "OutOfRange")],
    "bernoulli_rr": [("eps < 0", {"eps": "-1/2"}, "OutOfRange")],
    "geometric": [("p = 0 (no success ever)", {"p": "0"}, "OutOfRange"),
                  ("p > 1", {"p": "3/2"}, "OutOfRange"), ("p < 0", {"p": "-1"}, "OutOfRange")],
    "geometric_exp": [("gamma = 0", {"gamma": "0"}, "OutOfRange"),
                      ("gamma < 0", {"gamma": "-1"}, "OutOfRange")],
    "discrete_laplace": [("t = 0", {"t": "0"}, "OutOfRange"), ("t < 0", {"t": "-3"}, "OutOfRange"),
                         ("zero denominator", {"t": "1/0"}, "NotRational")],
    "discrete_gaussian": [("sigma^2 = 0", {"sigma2": "0"}, "OutOfRange"),
                          ("sigma^2 < 0", {"sigma2": "-1/2"}, "OutOfRange")],
    "discrete_gaussian_vector": [
        ("dim = 0", {"sigma2": "1", "dim": "0"}, "OutOfRange"),
        ("fractional dim", {"sigma2": "1", "dim": "3/2"}, "NotInteger"),
        ("sigma^2 = 0", {"sigma2": "0", "dim": "2"}, "OutOfRange")],
    "binomial": [("n < 0", {"n": "-1", "p": "1/2"}, "OutOfRange"),
                 ("fractional n", {"n": "5/2", "p": "1/2"}, "NotInteger"),
                 ("p > 1", {"n": "5", "p": "2"}, "OutOfRange")],
    "binomial_textbook": [("p < 0", {"n": "5", "p": "-1/3"}, "OutOfRange"),
                          ("n < 0", {"n": "-2", "p": "1/3"}, "OutOfRange")],
    "binomial_rr": [("eps < 0", {"n": "5", "eps": "-1"}, "OutOfRange"),
                    ("n < 0", {"n": "-5", "eps": "1"}, "OutOfRange")],
    "poisson": [("lam < 0", {"lam": "-1"}, "OutOfRange"),
                ("lam above the cost limit", {"lam": str(MAX_MEAN + 1)}, "MeanTooLarge")],
    "negative_binomial": [("r = 0", {"r": "0", "p": "1/2"}, "OutOfRange"),
                          ("p = 1", {"r": "1", "p": "1"}, "OutOfRange"),
                          ("p < 0", {"r": "1", "p": "-1/2"}, "OutOfRange"),
                          ("mean above the cost limit", {"r": "2000000", "p": "1/2"},
                           "MeanTooLarge")],
    "negative_binomial_exp": [("r = 0", {"r": "0", "gamma": "1"}, "OutOfRange"),
                              ("gamma = 0 (p = 1)", {"r": "1", "gamma": "0"}, "OutOfRange"),
                              ("gamma < 0", {"r": "1", "gamma": "-1"}, "OutOfRange"),
                              ("mean above the cost limit", {"r": "1", "gamma": "1/10000000"},
                               "MeanTooLarge")],
}

INVALID.update({
    "rational.bernoulli_exp": [("gamma < 0", {"gamma": "-1"}, "OutOfRange"),
                               ("not a number", {"gamma": "e"}, "NotRational")],
    "rational.bernoulli_rr": [("eps < 0", {"eps": "-1/2"}, "OutOfRange")],
    "rational.geometric_exp": [("gamma = 0", {"gamma": "0"}, "OutOfRange"),
                               ("gamma < 0", {"gamma": "-1"}, "OutOfRange")],
    "rational.discrete_laplace": [("t = 0", {"t": "0"}, "OutOfRange"),
                                  ("zero denominator", {"t": "1/0"}, "ZeroDenominator")],
    "rational.discrete_gaussian": [("sigma^2 = 0", {"sigma2": "0"}, "OutOfRange"),
                                   ("sigma^2 < 0", {"sigma2": "-1/2"}, "OutOfRange")],
    "rational.discrete_gaussian_vector": [
        ("dim = 0", {"sigma2": "1", "dim": "0"}, "OutOfRange"),
        ("dim written as a fraction", {"sigma2": "1", "dim": "4/2"}, "NotInteger")],
})

NOTES = {
    "OutOfRange": "A parameter lies outside the sampler's domain; the call must be rejected.",
    "NotRational": "A parameter is not an exact rational number; it must be rejected.",
    "NotInteger": "An integer parameter (n, dim) is given a non-integral value.",
    "MeanTooLarge": f"The mean exceeds {MAX_MEAN}, the sampler's cost limit; the call must be"
                    " rejected.",
    "EdgeCase": "A degenerate parameter: the output is fixed and no bits are read.",
    "TooLong": "A parameter's text is longer than the grammar allows (1000 characters).",
    "ExponentTooLarge": "A decimal exponent beyond +-10000 (validation step 4 of the grammar).",
    "ZeroDenominator": "A fraction with denominator 0 (validation step 5 of the grammar).",
    "CostTooLarge": "The parameters ask for more work than the sampler's stated cost limit.",
    "DyadicComparison": "A number compared by lc is a dyadic rational that the bits can reach"
                        " exactly (the comparison must treat equality as the header says).",
}


def vector_path(name: str) -> str:
    """samplers/NAME.json; the rational-only profile's "rational.NAME" is samplers/rational/NAME.json."""
    return f"samplers/{name.replace('.', '/')}.json"


#: Grammar vectors (samplers/grammar.json): op -> (valid spellings, invalid spellings per rule).
GRAMMAR_VALID: list[tuple[str, str, dict[str, str]]] = [
    ("bernoulli", "sign and fraction", {"p": "+1/2"}),
    ("bernoulli", "mantissa without integer digits", {"p": ".5"}),
    ("bernoulli", "mantissa without fraction digits", {"p": "1."}),
    ("bernoulli", "upper-case exponent", {"p": "5E-1"}),
    ("bernoulli", "exponent with a plus sign", {"p": "0.05e+1"}),
    ("bernoulli", "leading zeros in a fraction", {"p": "007/010"}),
    ("bernoulli", "negative zero is 0", {"p": "-0"}),
    ("bernoulli", "fraction not in lowest terms", {"p": "6/8"}),
    ("bernoulli", "exponent at the limit, value in range", {"p": "1e-10000"}),
    ("binomial", "integer with a plus sign and leading zeros", {"n": "+0010", "p": "1/2"}),
]

GRAMMAR_INVALID: list[tuple[str, str, dict[str, Any], str]] = [
    ("bernoulli", "step 1: a JSON number, not a string", {"p": 0.5}, "NotRational"),
    ("bernoulli", "step 1: a JSON integer, not a string", {"p": 1}, "NotRational"),
    ("bernoulli", "step 2: 1001 characters", {"p": "0." + "0" * 999}, "TooLong"),
    ("bernoulli", "step 3: leading blank", {"p": " 1/2"}, "NotRational"),
    ("bernoulli", "step 3: trailing blank", {"p": "1/2 "}, "NotRational"),
    ("bernoulli", "step 3: blank around /", {"p": "1 / 2"}, "NotRational"),
    ("bernoulli", "step 3: empty string", {"p": ""}, "NotRational"),
    ("bernoulli", "step 3: sign after /", {"p": "1/-2"}, "NotRational"),
    ("bernoulli", "step 3: two signs", {"p": "+-1"}, "NotRational"),
    ("bernoulli", "step 3: exponent on a fraction", {"p": "1/2e0"}, "NotRational"),
    ("bernoulli", "step 3: decimal in a fraction", {"p": "0.5/1"}, "NotRational"),
    ("bernoulli", "step 3: lone point", {"p": "."}, "NotRational"),
    ("bernoulli", "step 3: exponent without mantissa", {"p": "e0"}, "NotRational"),
    ("bernoulli", "step 3: exponent without digits", {"p": "1e"}, "NotRational"),
    ("bernoulli", "step 3: hexadecimal", {"p": "0x1"}, "NotRational"),
    ("bernoulli", "step 3: digit separator", {"p": "0.2_5"}, "NotRational"),
    ("bernoulli", "step 3: non-ASCII digit", {"p": "\u0661/\u0662"}, "NotRational"),
    ("bernoulli", "step 3: nan", {"p": "nan"}, "NotRational"),
    ("bernoulli", "step 3: infinity", {"p": "inf"}, "NotRational"),
    ("bernoulli", "step 4 before 6: exponent 10001 (value also out of range)", {"p": "1e10001"},
     "ExponentTooLarge"),
    ("bernoulli", "step 4: exponent -10001", {"p": "1e-10001"}, "ExponentTooLarge"),
    ("bernoulli", "step 5 before 6: zero denominator", {"p": "2/0"}, "ZeroDenominator"),
    ("bernoulli", "step 5: 0/0", {"p": "0/0"}, "ZeroDenominator"),
    ("bernoulli", "step 6: out of range after parsing", {"p": "1.0000000001"}, "OutOfRange"),
    ("binomial", "step 3: integer written as a fraction", {"n": "4/2", "p": "1/2"}, "NotInteger"),
    ("binomial", "step 3: integer with an exponent", {"n": "1e3", "p": "1/2"}, "NotInteger"),
    ("binomial", "step 3: integer with a point", {"n": "3.0", "p": "1/2"}, "NotInteger"),
    ("binomial", "step 3: integer with a blank", {"n": "3 ", "p": "1/2"}, "NotInteger"),
    ("binomial", "step 1: integer as a JSON number", {"n": 3, "p": "1/2"}, "NotRational"),
    ("binomial", "order: n (first parameter) fails step 3 before p fails step 5",
     {"n": "x", "p": "1/0"}, "NotInteger"),
    ("binomial", "order: n passes, then p fails step 6", {"n": "3", "p": "-1"}, "OutOfRange"),
]

#: Exactness corners (samplers/exact_corners.json): op, comment, params, count, dyadic?
CORNERS: list[tuple[str, str, dict[str, str], int, bool]] = [
    ("geometric", "p = 2/5: m = 1, digit 0 compares q/(1+q) = 3/8", {"p": "2/5"}, 256, True),
    ("geometric", "p = 3/5: m = 0, compares q = 2/5", {"p": "3/5"}, 128, False),
    ("geometric", "p = 1/2: m = 1, compares q^2 = 1/4", {"p": "1/2"}, 128, True),
    ("geometric", "p = 1/4 = 2^-2: compares q^4 = 81/256", {"p": "1/4"}, 128, True),
    ("geometric", "p = 2^-10: q^(2^j) dyadic, q^(2^10) has a 10240-bit denominator",
     {"p": "1/1024"}, 32, True),
    ("geometric", "p = 2^-40: m = 40, q^(2^j) dyadic with k 2^j bits", {"p": "1/1099511627776"},
     4, True),
    ("geometric", "p = 1/3: digit 0 compares (2/3)/(5/3) = 2/5", {"p": "1/3"}, 64, False),
    ("geometric", "p = 3/4: m = 0, compares q = 1/4", {"p": "3/4"}, 128, True),
    ("bernoulli", "p = 3/8: reached exactly after three bits", {"p": "3/8"}, 256, True),
    ("bernoulli", "p = 2^-64 + 2^-1", {"p": "9223372036854775809/18446744073709551616"}, 64,
     True),
    ("poisson", "lam = 1/2: one piece mu = 1/2, compares 1/4 and 1/2! = 1/2", {"lam": "1/2"},
     128, True),
    ("poisson", "lam = 1: two pieces of mu = 1/2", {"lam": "1"}, 64, True),
    ("poisson", "lam = 3/2: three pieces of mu = 1/2", {"lam": "3/2"}, 64, True),
    ("binomial", "p = 2/5 (geometric 2/5 gaps)", {"n": "100", "p": "2/5"}, 32, True),
    ("binomial", "p = 1/2: geometric(1/2) gaps", {"n": "64", "p": "1/2"}, 32, True),
    ("negative_binomial", "p = 1/2: geometric(1/2) sizes, lc(1/J) with J = 2, 4",
     {"r": "1", "p": "1/2"}, 64, True),
    ("bernoulli_exp", "gamma = 1/2: lc(1/2 / K) = 1/4 at K = 2", {"gamma": "1/2"}, 128, True),
]


_TWO_256 = str(1 << 256)
_TWO_256_PLUS = str((1 << 256) + 1)
_INV_2_256 = f"1/{1 << 256}"
_INV_2_256_PLUS = f"1/{(1 << 256) + 1}"
_ONE_MINUS_2_256 = f"{(1 << 256) - 1}/{1 << 256}"
_TWO_512 = str(1 << 512)
_TWO_512_PLUS = str((1 << 512) + 1)

#: Cost-limit vectors (samplers/cost_caps.json): op, comment, params, count (None: invalid).
CAPS: list[tuple[str, str, dict[str, str], int | None]] = [
    ("poisson", "lam = 256: the last mean drawn by pieces", {"lam": "256"}, 2),
    ("poisson", "lam = 257: the first integer mean drawn by the mode envelope", {"lam": "257"}, 8),
    ("poisson", "lam = 10^6, the cap", {"lam": "1000000"}, 2),
    ("poisson", "just above the cap", {"lam": "1000001/1"}, None),
    ("binomial", "n p = 256 exactly: gaps", {"n": "512", "p": "1/2"}, 2),
    ("binomial", "n p = 257: mode envelope", {"n": "514", "p": "1/2"}, 8),
    ("binomial", "p > 1/2 reflected into the envelope", {"n": "1000", "p": "3/4"}, 8),
    ("binomial", "n min(p, 1-p) = 10^6, the cap", {"n": "2000000", "p": "1/2"}, 2),
    ("binomial", "n = 10^12, p = 10^-6 (n p = 10^6)", {"n": "1000000000000", "p": "1/1000000"},
     2),
    ("binomial", "just above the cap", {"n": "2000001", "p": "1/2"}, None),
    ("binomial", "above the cap with p near 1", {"n": "10000000", "p": "4/5"}, None),
    ("binomial_textbook", "just above the cap n = 10^6", {"n": "1000001", "p": "1/2"}, None),
    ("binomial_rr", "n / (1 + e) above the cap", {"n": "10000000", "eps": "1"}, None),
    ("binomial_rr", "eps = 0: n / 2 above the cap", {"n": "2000001", "eps": "0"}, None),
    ("negative_binomial", "r = 300, p = 1/2 (mean 300): mode envelope", {"r": "300", "p": "1/2"},
     8),
    ("negative_binomial", "r = 10^6, p = 1/2: the cap, mode envelope",
     {"r": "1000000", "p": "1/2"}, 2),
    ("negative_binomial", "r = 1/2, mean 1000: compound steps (linear cost)",
     {"r": "1/2", "p": "1999/2000"}, 2),
    # Added with steps version 2 of binomial_rr and negative_binomial_exp (appended, so that the
    # tcIds above keep their meaning): valid vectors at every cap and the first refused values.
    ("binomial_textbook", "n = 10^6, the cap (linear by definition: seconds)",
     {"n": "1000000", "p": "1/2"}, 1),
    ("binomial_rr", "n p = 255.76: the last gaps (version 1 steps)", {"n": "951", "eps": "1"}, 4),
    ("binomial_rr", "n p = 256.03: the first dyadic split", {"n": "952", "eps": "1"}, 8),
    ("binomial_rr", "eps = 0, n / 2 = 10^6: the cap", {"n": "2000000", "eps": "0"}, 2),
    ("binomial_rr", "eps = 1, n = 3718281: the largest n (n p = 999999.8)",
     {"n": "3718281", "eps": "1"}, 2),
    ("binomial_rr", "eps = 1, n = 3718282: just above the cap (n p = 1000000.07)",
     {"n": "3718282", "eps": "1"}, None),
    ("binomial_rr", "eps = 10, n = 22027465794: the largest n (p = 4.5e-5)",
     {"n": "22027465794", "eps": "10"}, 2),
    ("binomial_rr", "eps = 10, n = 22027465795: just above the cap",
     {"n": "22027465795", "eps": "10"}, None),
    ("negative_binomial", "r = 1/2, mean 10^4: the cap of the compound steps",
     {"r": "1/2", "p": "20000/20001"}, 1),
    ("negative_binomial", "r = 1/2, mean 10001: the first size blocks (steps version 2;"
     " refused by version 1)", {"r": "1/2", "p": "20002/20003"}, 1),
    ("negative_binomial", "r = 3000, mean 10^6 > 256 r: size blocks (steps version 2; refused"
     " by version 1)", {"r": "3000", "p": "1000000/1003000"}, 1),
    ("negative_binomial_exp", "r = 300, mean 268.6: the dyadic split (case 2)",
     {"r": "300", "gamma": "3/4"}, 8),
    ("negative_binomial_exp", "r = 2, mean 399.0: size blocks (case 3)",
     {"r": "2", "gamma": "1/200"}, 8),
    ("negative_binomial_exp", "r = 1/3, mean 333.2: size blocks (case 3)",
     {"r": "1/3", "gamma": "1/1000"}, 8),
    ("negative_binomial_exp", "r = 100, mean 999950: r^3 > mean, dyadic split at the cap",
     {"r": "100", "gamma": "1/10000"}, 1),
    ("negative_binomial_exp", "r = 99, mean 989950.5: r^3 < mean, size blocks near the cap",
     {"r": "99", "gamma": "1/10000"}, 1),
    ("negative_binomial_exp", "r = 1718281, gamma = 1: mean 999999.5, the largest r",
     {"r": "1718281", "gamma": "1"}, 2),
    ("negative_binomial_exp", "r = 1718282, gamma = 1: mean 1000000.08, just above the cap",
     {"r": "1718282", "gamma": "1"}, None),
    ("negative_binomial_exp", "r = 1, gamma = 10^-6: mean 999999.5 (size blocks)",
     {"r": "1", "gamma": "1/1000000"}, 2),
    ("negative_binomial_exp", "r = 1, gamma = 1/1000001: mean 1000000.5, just above the cap",
     {"r": "1", "gamma": "1/1000001"}, None),
    ("negative_binomial_exp", "share r = 1/100, gamma = 10^-8: mean 999999.995",
     {"r": "1/100", "gamma": "1/100000000"}, 2),
    ("binomial_rr", "eps = 64, n = 10^30: the gaps (n p = 160.38)",
     {"n": "1000000000000000000000000000000", "eps": "64"}, 2),
    ("binomial_rr", "eps = 65 > 64: the dyadic split although n p = 11.8",
     {"n": "200000000000000000000000000000", "eps": "65"}, 4),
    ("binomial_rr", "eps = 10^6, n = 10^9: p = e^-10^6, the split", {"n": "1000000000",
                                                                     "eps": "1000000"}, 4),
    # Added with the scale caps (rates >= 2^-256, t <= 2^256, sigma2 <= 2^512, binomial_rr's
    # n < 2^255, negative_binomial's compound work): each cap, the first refused value beyond
    # it, and the grammar's extremes that the caps leave allowed.
    *[entry for name, key in (("geometric", "p"), ("geometric_exp", "gamma"),
                              ("rational.geometric_exp", "gamma"))
      for entry in (
          (name, f"{key} = 2^-256: the scale cap (m = 256 digits)", {key: _INV_2_256}, 2),
          (name, f"{key} = 1/(2^256 + 1): just below the scale cap", {key: _INV_2_256_PLUS},
           None))],
    ("geometric_exp", "gamma = 10^10000: exp(-gamma) < 2^-64, decided without evaluating it",
     {"gamma": "1e10000"}, 8),
    ("rational.geometric_exp", "gamma = 10^10000: be(gamma) stops at its first be(1) = 0",
     {"gamma": "1e10000"}, 8),
    *[entry for name in ("discrete_laplace", "rational.discrete_laplace")
      for entry in (
          (name, "t = 2^256: the scale cap", {"t": _TWO_256}, 2),
          (name, "t = 2^256 + 1: just above the scale cap", {"t": _TWO_256_PLUS}, None),
          (name, "t = 10^-10000: exp(-1/t) far below every bound", {"t": "1e-10000"}, 8))],
    *[entry for name in ("discrete_gaussian", "rational.discrete_gaussian")
      for entry in (
          (name, "sigma2 = 2^512: the scale cap (t = 2^256 + 1)", {"sigma2": _TWO_512}, 2),
          (name, "sigma2 = 2^512 + 1: just above the scale cap", {"sigma2": _TWO_512_PLUS},
           None),
          (name, "sigma2 = 10^-10000: t = 1, almost always 0", {"sigma2": "1e-10000"}, 8))],
    *[entry for name in ("discrete_gaussian_vector", "rational.discrete_gaussian_vector")
      for entry in (
          (name, "sigma2 = 2^512: the scale cap", {"sigma2": _TWO_512, "dim": "2"}, 1),
          (name, "sigma2 = 2^512 + 1: just above the scale cap",
           {"sigma2": _TWO_512_PLUS, "dim": "2"}, None))],
    ("binomial", "p = 2^-256, n = 2^256: the scale cap, gaps (n p = 1)",
     {"n": _TWO_256, "p": _INV_2_256}, 2),
    ("binomial", "p = 1 - 2^-256, n = 2^256: the scale cap, reflected",
     {"n": _TWO_256, "p": _ONE_MINUS_2_256}, 2),
    ("binomial", "p = 2^-256, n p = 10^6: the scale cap and the work cap, envelope",
     {"n": str(10**6 << 256), "p": _INV_2_256}, 2),
    ("binomial", "p = 1/(2^256 + 1): just below the scale cap", {"n": "1", "p": _INV_2_256_PLUS},
     None),
    ("binomial", "p = 1 - 1/(2^256 + 1): 1 - p just below the scale cap",
     {"n": "1", "p": f"{(1 << 256)}/{(1 << 256) + 1}"}, None),
    ("binomial", "p with 990 digits, n min(p, 1 - p) near 10^6: envelope",
     {"n": "2000000", "p": "0.4" + "9" * 989}, 2),
    ("binomial_rr", "eps = 2^-256, n = 2 10^6: the scale cap (the split thins with s near"
     " 2^-257)", {"n": "2000000", "eps": _INV_2_256}, 2),
    ("binomial_rr", "eps = 1/(2^256 + 1): just below the scale cap",
     {"n": "2", "eps": _INV_2_256_PLUS}, None),
    ("binomial_rr", "n = 2^255 - 1, eps = 10^10000: the cap on n (k = 256)",
     {"n": str((1 << 255) - 1), "eps": "1e10000"}, 2),
    ("binomial_rr", "n = 2^255: just above the cap on n", {"n": str(1 << 255), "eps": "1e10000"},
     None),
    ("poisson", "lam = 10^6 - 10^-990 (990 digits): envelope", {"lam": "999999." + "9" * 990}, 2),
    ("poisson", "lam = 256 - 10^-990 (990 digits): 512 pieces", {"lam": "255." + "9" * 990}, 1),
    ("negative_binomial", "1 - p = 2^-256, lam = 38: the scale cap and the compound work cap"
     " (38 258^2 <= 2.56 10^6)", {"r": f"38/{(1 << 256) - 1}", "p": _ONE_MINUS_2_256}, 2),
    ("negative_binomial", "1 - p = 2^-256, lam = 39: above the compound work limit, size blocks"
     " (steps version 2; refused by version 1)",
     {"r": f"39/{(1 << 256) - 1}", "p": _ONE_MINUS_2_256}, 1),
    ("negative_binomial", "1 - p = 1/(2^256 + 1): just below the scale cap",
     {"r": "1", "p": f"{(1 << 256)}/{(1 << 256) + 1}"}, None),
    ("negative_binomial", "1 - p = 2^-16, lam = 7901: the compound work cap (7901 18^2)",
     {"r": "7901/65535", "p": "65535/65536"}, 1),
    ("negative_binomial", "1 - p = 2^-16, lam = 7902: above the compound work limit, size"
     " blocks (steps version 2; refused by version 1)",
     {"r": "7902/65535", "p": "65535/65536"}, 1),
    ("negative_binomial_exp", "gamma = 2^-256, mean 10^6 - 1: the scale cap (size blocks)",
     {"r": f"999999/{1 << 256}", "gamma": _INV_2_256}, 2),
    ("negative_binomial_exp", "gamma = 2^-256, mean about 16: the scale cap (case 1)",
     {"r": f"16/{1 << 256}", "gamma": _INV_2_256}, 2),
    ("negative_binomial_exp", "gamma = 1/(2^256 + 1): just below the scale cap",
     {"r": "1", "gamma": _INV_2_256_PLUS}, None),
    # Added with steps version 2 of binomial and version 3 of negative_binomial_exp: the gaps
    # and case 1 end where their work, mean (m + 2)^2, passes 2560000.
    ("binomial", "p = 2^-256, n p = 38: the last gaps (38 258^2 <= 2560000)",
     {"n": str(38 << 256), "p": _INV_2_256}, 2),
    ("binomial", "p = 2^-256, n p = 39: the envelope (steps version 2)",
     {"n": str(39 << 256), "p": _INV_2_256}, 2),
    ("negative_binomial_exp", "gamma = 2^-256, mean about 38: the last case 1",
     {"r": f"38/{1 << 256}", "gamma": _INV_2_256}, 2),
    ("negative_binomial_exp", "gamma = 2^-256, mean about 39: size blocks (steps version 3)",
     {"r": f"39/{1 << 256}", "gamma": _INV_2_256}, 2),
    # Added with steps version 2 of negative_binomial (size blocks with the rational p): its
    # compound steps' caps are gone; the mean cap 10^6 holds on every path.
    ("negative_binomial", "r = 1/3, mean 10000.33: size blocks at a small mean",
     {"r": "1/3", "p": "30001/30002"}, 8),
    ("negative_binomial", "dyadic p = 1 - 2^-20, r = 1/64, mean 16383.98: size blocks, every y_i"
     " dyadic", {"r": "1/64", "p": f"{(1 << 20) - 1}/{1 << 20}"}, 8),
    ("negative_binomial", "r = 1/2, mean 10^6: the cap, size blocks",
     {"r": "1/2", "p": "2000000/2000001"}, 2),
    ("negative_binomial", "r = 1, mean 10^6: the cap, size blocks",
     {"r": "1", "p": "1000000/1000001"}, 2),
    ("negative_binomial", "r = 3, mean 10^6: the cap, size blocks",
     {"r": "3", "p": "1000000/1000003"}, 2),
    ("negative_binomial", "r = 100, mean 10^6 > 256 r: the cap, size blocks",
     {"r": "100", "p": "10000/10001"}, 1),
    ("negative_binomial", "r = 3906, mean 10^6: the largest r of the size blocks at the cap",
     {"r": "3906", "p": "1000000/1003906"}, 1),
    ("negative_binomial", "1 - p = 2^-256, mean 999999: the scale cap and the mean cap, size"
     " blocks (B = 260)", {"r": f"999999/{(1 << 256) - 1}", "p": _ONE_MINUS_2_256}, 2),
    ("negative_binomial", "r = 1/2, mean 1000001: just above the mean cap",
     {"r": "1/2", "p": "2000002/2000003"}, None),
    ("negative_binomial", "1 - p = 2^-256, mean 1000001: just above the mean cap",
     {"r": f"1000001/{(1 << 256) - 1}", "p": _ONE_MINUS_2_256}, None),
]


_P158 = f"1/{1 << 158}"

#: Branch-boundary vectors (samplers/boundaries.json): op, comment, params, then the count of a
#: valid test or the flag of an invalid one. Each entry sits on one side of a decision of the
#: stated steps (a switch between steps, a range check, a cost limit), so that an implementation
#: that moves the decision by one (a strict for a non-strict comparison, an off-by-one constant)
#: changes a sample, the number of bits read, or the verdict.
BOUNDARIES: list[tuple[str, str, dict[str, str], int | str]] = [
    ("geometric", "p = 0 is outside (0, 1]", {"p": "0"}, "OutOfRange"),
    ("geometric", "p = 3/2 is outside (0, 1]", {"p": "3/2"}, "OutOfRange"),
    ("geometric", "p = -1/2 is outside (0, 1]", {"p": "-1/2"}, "OutOfRange"),
    ("discrete_laplace", "t = 0 is outside t > 0", {"t": "0"}, "OutOfRange"),
    ("discrete_laplace", "t = -1/2 is outside t > 0", {"t": "-1/2"}, "OutOfRange"),
    ("discrete_gaussian_vector", "sigma2 = 0 is outside sigma2 > 0",
     {"sigma2": "0", "dim": "2"}, "OutOfRange"),
    ("discrete_gaussian_vector", "sigma2 = -1/2 is outside sigma2 > 0",
     {"sigma2": "-1/2", "dim": "2"}, "OutOfRange"),
    ("rational.discrete_laplace", "t = -1/2 is outside t > 0", {"t": "-1/2"}, "OutOfRange"),
    ("negative_binomial", "r = 2, p = 200/201 (mean 400 <= 256 r): mode envelope with M - d < 0,"
     " so a = 0 and the left tail is empty", {"r": "2", "p": "200/201"}, 64),
    ("negative_binomial", "r = 3/2, p = 200/201 (mean 300 <= 256 r, r < 2): mode envelope",
     {"r": "3/2", "p": "200/201"}, 16),
    ("negative_binomial", "r = 2, p = 128/129: mean 256 exactly, compound steps (the envelope"
     " needs a mean above 256)", {"r": "2", "p": "128/129"}, 16),
    ("negative_binomial", "r = 2, p = 256/257: mean 512 = 256 r exactly, mode envelope",
     {"r": "2", "p": "256/257"}, 16),
    ("negative_binomial", "r = 5/2, p = 120/121 (mean 300): mode envelope with a fractional r",
     {"r": "5/2", "p": "120/121"}, 64),
    ("negative_binomial", "r = 27/10, p = 100/101 (mean 270): mode envelope with a small a = 4,"
     " whose left tail can go below 0", {"r": "27/10", "p": "100/101"}, 256),
    ("binomial", "p = 2^-158, n p = 100: n p (m + 2)^2 = 2560000 exactly, the gaps",
     {"n": str(100 << 158), "p": _P158}, 1),
    ("binomial", "p = 2^-158, n p = 101: n p (m + 2)^2 > 2560000, the mode envelope",
     {"n": str(101 << 158), "p": _P158}, 1),
    ("binomial", "p = 3/2^160 (m = 158: 2^158 p <= 1 < 2^159 p), n p just below 100: the gaps",
     {"n": str((100 << 160) // 3), "p": f"3/{1 << 160}"}, 1),
    ("negative_binomial", "r = 263/100, p = 227/228 (mean 597.01): mode envelope with a = 1",
     {"r": "263/100", "p": "227/228"}, 256),
    ("negative_binomial", "p = 1 is outside [0, 1)", {"r": "1", "p": "1"}, "OutOfRange"),
    ("negative_binomial", "p = 3/2 is outside [0, 1)", {"r": "1", "p": "3/2"}, "OutOfRange"),
    ("negative_binomial", "p = -1/2 is outside [0, 1)", {"r": "1", "p": "-1/2"}, "OutOfRange"),
    ("negative_binomial", "r = 0 is outside r > 0", {"r": "0", "p": "1/2"}, "OutOfRange"),
    ("negative_binomial", "1 - p = 2^-257 < 2^-256 with a tiny mean (r = 2^-300): the scale"
     " cap refuses it before the mean is looked at",
     {"r": f"1/{1 << 300}", "p": f"{(1 << 257) - 1}/{1 << 257}"}, "CostTooLarge"),
    ("binomial_rr", "eps = 64 exactly, n = 2: the gaps (the dyadic split needs eps > 64)",
     {"n": "2", "eps": "64"}, 4),
    ("binomial_rr", "eps = 1 (1 + e in [3, 4): m = 1), n = 100: the gaps",
     {"n": "100", "eps": "1"}, 16),
    ("negative_binomial_exp", "r = 63/10, gamma = 1/42 (mean about 261.5 > r^3 = 250.05):"
     " size blocks, whose tail points are kept now and then",
     {"r": "63/10", "gamma": "1/42"}, 256),
    ("negative_binomial", "r = 5, p = 54/55 (mean 270): mode envelope with a = 94, whose left"
     " geometric goes below 0 (step 2: k < 0 starts again) about once in 100 candidates",
     {"r": "5", "p": "54/55"}, 256),
    ("discrete_gaussian_vector", "dim = 2^20 + 1 is above the largest dimension 2^20",
     {"sigma2": "1", "dim": str((1 << 20) + 1)}, "OutOfRange"),
    ("rational.discrete_laplace", "t = 0 is outside t > 0", {"t": "0"}, "OutOfRange"),
    # Added for the later steps of negative_binomial_exp and the envelope's left end (appended,
    # so that the tcIds above keep their meaning). Case 2's k = 2 bitlen(L) + 2 changes where L =
    # ceil(r) + floor(lambda) + 1 crosses a power of two; case 1 ends where lambda (m + 2)^2
    # passes 2560000 (m = 256 here: 258^2 = 66564, while 257^2 and 259^2 would move the switch).
    ("negative_binomial_exp", "case 2 with a fractional r = 47/2 (rho(i) = (i + r) p0 / (i + 1)),"
     " lambda = 998.53: L = 24 + 998 + 1 = 1023 (10 bits), k = 22",
     {"r": "47/2", "gamma": "11631/500000"}, 4),
    ("negative_binomial_exp", "case 2, r = 24, lambda = 999.51: L = 24 + 999 + 1 = 1024 = 2^10"
     " (11 bits), k = 24", {"r": "24", "gamma": "1483/62500"}, 4),
    ("negative_binomial_exp", "gamma = 2^-256 (m = 256), lambda = 38.3: 38.3 * 258^2 = 2549401"
     " <= 2560000, case 1 (38.3 * 259^2 would exceed it)",
     {"r": f"383/{10 << 256}", "gamma": _INV_2_256}, 2),
    ("negative_binomial_exp", "gamma = 2^-256 (m = 256), lambda = 38.6: 38.6 * 258^2 = 2569370"
     " > 2560000, size blocks (38.6 * 257^2 would not exceed it)",
     {"r": f"386/{10 << 256}", "gamma": _INV_2_256}, 2),
    ("negative_binomial_exp", "case 2, r = 8, lambda = 492.01 (r^3 = 512): L = 501, k = 20,"
     " p0 = 128975/2^17; the thinning removes one success of X = 762 in the sixth sample",
     {"r": "8", "gamma": "16129/1000000"}, 6),
    ("negative_binomial_exp", "r = 7, lambda = 342.498 < r^3 = 343: case 2 (dyadic split)",
     {"r": "7", "gamma": "2529/125000"}, 4),
    ("negative_binomial_exp", "r = 7, lambda = 343.493 > r^3 = 343: case 3 (size blocks)",
     {"r": "7", "gamma": "10087/500000"}, 4),
    ("negative_binomial", "r = 263/100, p = 254/255 (mean 668.02, M = 414, d = 413): mode"
     " envelope with a = 1; the third sample's left geometric gives the candidate k = 0"
     " (g = 0), which goes on to step 3 (only k < 0 starts step 2 again)",
     {"r": "263/100", "p": "254/255"}, 3),
    ("negative_binomial_exp", "case 2 with a huge r = 10^30 (gamma = 63.373, lambda = 300.23):"
     " L has 100 bits, so k = 202 and p0 = c / 2^202; the thinning's s needs a working"
     " precision above k", {"r": "1" + "0" * 30, "gamma": "63373/1000"}, 4),
]


class SamplersFamily(Family):
    name = "samplers"
    summary = "exact seeded samplers: Bernoulli family, geometric, discrete Laplace/Gaussian, counts"

    def handlers(self) -> dict[str, Handler]:
        return {f"sampler.{name}": _handler(s) for name, s in SAMPLERS.items()}

    def schemas(self) -> dict[str, dict[str, Any]]:
        ops: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
        for name, s in SAMPLERS.items():
            props: dict[str, Any] = {"seed": HEX, "tag": {"type": "string"}, "count": COUNT}
            for p in s.params:
                props[p.name] = _PARAM
            item: dict[str, Any] = {"type": "array", "items": DEC} if s.vector else DEC
            outs = {"type": "object", "required": ["samples", "bitsConsumed", "bytesConsumed"],
                    "additionalProperties": False,
                    "properties": {"samples": {"type": "array", "items": item},
                                   "bitsConsumed": COUNT, "bytesConsumed": COUNT}}
            ops[f"sampler.{name}"] = ({"properties": props}, outs)
        return {SCHEMA: family_schema(SCHEMA, "exact sampler vectors", ops)}

    def files(self) -> list[VectorFile]:
        return [*(self._file(name) for name in SAMPLERS), self._grammar_file(),
                self._corners_file(), self._caps_file(), self._boundaries_file()]

    def _table_file(self, table: Sequence[tuple[Any, ...]], path: str, algorithm: str, note: str,
                    make_test: Callable[[TestNumberer, Any, Handler, int, tuple[Any, ...]],
                                        dict[str, Any]]) -> VectorFile:
        """A file of hand-listed cases ``(op, comment, params, outcome)``: one group per run of
        consecutive entries of one op, in the order of ``table``; each test made by
        ``make_test(tc, sampler, handler, index in table, entry)``; the header of every op, then
        ``note``."""
        tc = TestNumberer()
        groups = []
        for _, run in groupby(enumerate(table), key=lambda e: e[1][0]):
            entries = list(run)
            op = entries[0][1][0]
            sampler = SAMPLERS[op]
            handler = _handler(sampler)
            tests = [make_test(tc, sampler, handler, i, entry) for i, entry in entries]
            groups.append({"op": f"sampler.{op}", "params": {"tag": sampler.tag},
                           "tests": tests})
        header: list[str] = []
        for op in dict.fromkeys(op for op, *_ in table):
            for line in header_for(op):
                if line not in header:
                    header.append(line)
        header.append(note)
        doc = envelope(algorithm=algorithm, family=self.name, schema=SCHEMA, header=header,
                       notes=NOTES, groups=groups)
        return VectorFile(path, doc, SCHEMA)

    def _boundaries_file(self) -> VectorFile:
        def make_test(tc: TestNumberer, sampler: Any, handler: Handler, i: int,
                      entry: tuple[Any, ...]) -> dict[str, Any]:
            _name, comment, params, outcome = entry
            inputs: dict[str, Any] = {"seed": vector_seed(f"samplers/boundaries/{i}").hex(),
                                      **params, "count": outcome if isinstance(outcome, int) else 1}
            if not isinstance(outcome, str):
                return test_entry(tc(), comment, inputs, handler({**inputs, "tag": sampler.tag}))
            try:
                handler({**inputs, "tag": sampler.tag})
            except RationalError as exc:
                if exc.flag != outcome:
                    raise AssertionError(f"boundary case {comment!r}: {exc.flag}, not"
                                         f" {outcome}") from exc
            else:
                raise AssertionError(f"boundary case {comment!r} was accepted")
            return test_entry(tc(), comment, inputs, None, "invalid", [outcome])

        return self._table_file(
            BOUNDARIES, "samplers/boundaries.json", "dpspec sampler branch boundaries",
            "This file tests BRANCH BOUNDARIES: parameters on either side of each"
            " decision of the stated steps (a switch between steps at a mean or work"
            " limit, the mode envelope's ends a = 0 and a = 1 and its left tail below"
            " 0, the dyadic split at eps = 64, the digit count m at a power of two, the"
            " range and cost checks), so that moving a decision by one changes a"
            " sample, bitsConsumed or the verdict. An invalid test's flag is the"
            " validation step that must refuse it. Tests appear in the order they were"
            " added, so an op may have several groups.", make_test)

    def _caps_file(self) -> VectorFile:
        def make_test(tc: TestNumberer, sampler: Any, handler: Handler, i: int,
                      entry: tuple[Any, ...]) -> dict[str, Any]:
            _name, comment, params, count = entry
            inputs: dict[str, Any] = {"seed": vector_seed(f"samplers/caps/{i}").hex(),
                                      **params, "count": count or 1}
            if count is not None:
                return test_entry(tc(), comment, inputs, handler({**inputs, "tag": sampler.tag}))
            try:
                handler({**inputs, "tag": sampler.tag})
            except RationalError as exc:
                flag = exc.flag
            else:
                raise AssertionError(f"cap case {comment!r} was accepted")
            return test_entry(tc(), comment, inputs, None, "invalid",
                              ["MeanTooLarge" if flag == "OutOfRange" else flag])

        return self._table_file(
            CAPS, "samplers/cost_caps.json", "dpspec sampler cost limits",
            "This file tests the COST LIMITS: each sampler's largest allowed"
            " parameters (sampled in well under a second by the stated steps, except"
            " binomial_textbook, whose cost is linear: about a second) and the first"
            " refused ones, and the switches of steps at mean 256. Tests appear in the order they"
            " were"
            " added, so an op may have several groups.", make_test)

    def _grammar_file(self) -> VectorFile:
        tc = TestNumberer()
        groups = []
        for op in ("bernoulli", "binomial"):
            sampler = SAMPLERS[op]
            handler = _handler(sampler)
            tests = []
            for i, (name, comment, params) in enumerate(GRAMMAR_VALID):
                if name != op:
                    continue
                inputs: dict[str, Any] = {"seed": vector_seed(f"samplers/grammar/{i}").hex(),
                                          **params, "count": 16}
                out = handler({**inputs, "tag": sampler.tag})
                tests.append(test_entry(tc(), comment, inputs, out))
            for i, (name, comment, bad, flag) in enumerate(GRAMMAR_INVALID):
                if name != op:
                    continue
                inputs = {"seed": vector_seed(f"samplers/grammar/invalid/{i}").hex(), **bad,
                          "count": 4}
                try:
                    handler({**inputs, "tag": sampler.tag})
                except RationalError as exc:
                    if exc.flag != flag:
                        raise AssertionError(f"grammar case {comment!r}: {exc.flag}, not {flag}") from exc
                else:
                    raise AssertionError(f"grammar case {comment!r} was accepted")
                tests.append(test_entry(tc(), comment, inputs, None, "invalid", [flag]))
            groups.append({"op": f"sampler.{op}", "params": {"tag": sampler.tag}, "tests": tests})
        header = header_for("binomial") + TEXTS["bernoulli"] + [
            "This file tests the parameter GRAMMAR and the VALIDATION ORDER above: valid spellings"
            " (their samples equal those of the canonical spelling of the same value) and one"
            " invalid case or more per rule, each flagged with the step that must reject it."]
        doc = envelope(algorithm="dpspec sampler parameter grammar", family=self.name,
                       schema=SCHEMA, header=header, notes=NOTES, groups=groups)
        return VectorFile("samplers/grammar.json", doc, SCHEMA)

    def _corners_file(self) -> VectorFile:
        tc = TestNumberer()
        groups = []
        ops = list(dict.fromkeys(op for op, *_ in CORNERS))
        for op in ops:
            sampler = SAMPLERS[op]
            handler = _handler(sampler)
            tests = []
            for i, (name, comment, params, count, dyadic) in enumerate(CORNERS):
                if name != op:
                    continue
                inputs: dict[str, Any] = {"seed": vector_seed(f"samplers/corners/{i}").hex(),
                                          **params, "count": count}
                out = handler({**inputs, "tag": sampler.tag})
                tests.append(test_entry(tc(), comment, inputs, out,
                                        flags=["DyadicComparison"] if dyadic else []))
            groups.append({"op": f"sampler.{op}", "params": {"tag": sampler.tag}, "tests": tests})
        header: list[str] = []
        for op in ops:
            for line in header_for(op):
                if line not in header:
                    header.append(line)
        header.append("This file collects EXACTNESS CORNERS: parameters for which a number that"
                      " lc compares is a dyadic rational (flag DyadicComparison), so that the"
                      " tape's bits can land exactly on it; see EXACT NUMBERS above.")
        doc = envelope(algorithm="dpspec sampler exactness corners", family=self.name,
                       schema=SCHEMA, header=header, notes=NOTES, groups=groups)
        return VectorFile("samplers/exact_corners.json", doc, SCHEMA)

    def _file(self, name: str) -> VectorFile:
        sampler = SAMPLERS[name]
        handler = _handler(sampler)
        tc = TestNumberer()
        tests = []
        for i, (comment, params, count) in enumerate(VALID[name]):
            inputs: dict[str, Any] = {"seed": vector_seed(f"samplers/{name}/{i}").hex(),
                                      **params, "count": count}
            flags = ["EdgeCase"] if comment.startswith("edge") and "no bits" in comment else []
            out = handler({**inputs, "tag": sampler.tag})
            tests.append(test_entry(tc(), comment, inputs, out, flags=flags))
        for i, (comment, params, flag) in enumerate(INVALID[name]):
            inputs = {"seed": vector_seed(f"samplers/{name}/invalid/{i}").hex(), **params,
                      "count": 4}
            try:
                handler({**inputs, "tag": sampler.tag})
            except ValueError:
                pass
            else:
                raise AssertionError(f"{name}: invalid case {comment!r} was accepted")
            tests.append(test_entry(tc(), comment, inputs, None, "invalid", [flag]))
        groups = [{"op": f"sampler.{name}", "params": {"tag": sampler.tag}, "tests": tests}]
        doc = envelope(algorithm=f"dpspec sampler {name}", family=self.name, schema=SCHEMA,
                       header=header_for(name), notes=NOTES, groups=groups)
        return VectorFile(vector_path(name), doc, SCHEMA)


FAMILY = SamplersFamily()
