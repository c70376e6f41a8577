"""spec.sa2 computes at its own working precision: neither a verdict nor a value depends on the
caller's global ``mp.dps`` (set here to 5 and to 200 around the very same calls)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import mpmath
import pytest

from dpspec.spec.sa2 import experiments as ex
from dpspec.spec.sa2 import fl, privacy, protocol
from dpspec.spec.sa2.protocol import PrivacyBudget, RecipeRefused
from dpspec.spec.sa2.randomizers import Randomizer

F = Fraction
DEP = protocol.provision(bytes.fromhex("cd" * 32))


@pytest.fixture(autouse=True)
def _restore_precision() -> Iterator[None]:
    saved = mpmath.mp.dps
    yield
    mpmath.mp.dps = saved


def _recipe(r: Randomizer, B: int, q: Fraction, eps: Fraction, **over: Any) -> dict[str, Any]:
    return protocol.make_recipe(
        recipe_id="precision", task_id=bytes(32), randomizer=r, B=B, q=q, chunk_length=2,
        leader_pk=DEP.leader_hpke.public_key, helper_pk=DEP.helper_hpke.public_key,
        issuer_key=DEP.issuer_sk.public_key(), epsilon=eps, delta=F(1, 10**6), **over)


def _verdict(doc: dict[str, Any]) -> tuple[str, Any, Any]:
    try:
        _, stmt = protocol.check_recipe(doc, PrivacyBudget(F(10**6), 10))
    except RecipeRefused as exc:
        return exc.reason, str(exc), None
    return "accepted", stmt.epsilon, stmt.delta


RAP = Randomizer("rappor", 4, F(1, 22))
BIN = Randomizer("binary_randomized_response", 2, F(1, 2))
RR = Randomizer("randomized_response", 8, F(1, 2))
GV = fl.GaussianVector(4, F(1), 8, F(1, 10))


def _computations() -> list[tuple[str, Callable[[], Any]]]:
    """Each computation with inputs that are exact at any precision (rationals, dyadic mpfs)."""
    base = privacy.shuffle_statement("shuffle-closed-form", BIN.name, BIN.epsilon0(), 10000,
                                     F(1, 10**6))
    return [
        ("closed form inside its region", lambda: privacy.shuffle_statement(
            "shuffle-closed-form", BIN.name, BIN.epsilon0(), 10000, F(1, 10**6)).epsilon),
        ("fallback outside the region", lambda: privacy.shuffle_statement(
            "shuffle-closed-form", RAP.name, RAP.epsilon0(), 5000, F(1, 10**6)).epsilon),
        ("eps0 rounded up", lambda: privacy.eps0_up(RR.epsilon0())),
        ("Poisson amplification", lambda: tuple(privacy.sa2_model(base, F(1, 50)).as_strings(30)
                                                .values())),
        ("without replacement", lambda: privacy.fixed_size_model(base, 1000, 7919).epsilon),
        ("analytic Gaussian", lambda: privacy.gaussian_statement(F(51, 10), F(1), F(1, 10**8))
         .epsilon),
        ("Example 5, a few rounds", lambda: privacy.gaussian_steps(F(1, 50), F(51, 10), 3,
                                                                   F(1, 10**8))),
        ("donation time", lambda: privacy.donation_time(mpmath.mpf(0.375), mpmath.mpf(2) ** -27, 7)),
        ("binomial tail", lambda: privacy.binomial_sf(1000, F(1, 7), 170)),
        ("dummy count delta", lambda: privacy.dummy_count_delta(F(1, 2), F(1, 100), 3000)),
        ("dummy margin", lambda: privacy.dummy_margin(F(1, 100), 10**4, F(1, 10**7))),
        ("dummy rate", lambda: privacy.dummy_rate_for(F(1), F(1, 10**3), 2000, 10**4)),
        ("experiments: SampAgg epsilon", lambda: ex.sampagg_epsilon(F(1, 50), mpmath.mpf(3), 4,
                                                                     F(1, 10**8))),
        ("experiments: collision probability", lambda: ex.collision_probability("zipf", 500)),
        ("experiments: sigma rounded up", lambda: ex.round_up_mpf(mpmath.mpf(0.6666259765625))),
        ("federated learning: noise multiplier", lambda: fl.noise_multiplier(GV, 500)),
        ("federated learning: rounds", lambda: fl.statement(GV, 500, F(1, 20), 7, F(1, 10**6))
         .epsilon),
        ("recipe accepted", lambda: _verdict(_recipe(RR, 10000, F(1, 50), F(1, 50)))),
        ("recipe refused (closed form outside its region)",
         lambda: _verdict(_recipe(RAP, 5000, F(1), F(21, 10)))),
        ("recipe with dummies", lambda: _verdict(_recipe(
            BIN, 3000, F(1, 10), F(3, 10), dummy_rate=F(1, 1000), population=10**5))),
    ]


def _exact(value: Any) -> Any:
    """A value in a form that compares exactly (an mpf as its binary mantissa and exponent; its
    repr would depend on the current precision)."""
    if isinstance(value, mpmath.mpf):
        return ("mpf", int(value.man), int(value.exp))
    if isinstance(value, tuple | list):
        return tuple(_exact(v) for v in value)
    return value


def test_values_and_verdicts_do_not_depend_on_the_global_precision() -> None:
    results: dict[int, list[Any]] = {}
    for dps in (15, 5, 200):
        mpmath.mp.dps = dps
        results[dps] = [_exact(fn()) for _, fn in _computations()]
        assert mpmath.mp.dps == dps  # restored by every function
    names = [name for name, _ in _computations()]
    for dps in (5, 200):
        for name, a, b in zip(names, results[15], results[dps], strict=True):
            assert a == b, f"{name} at mp.dps = {dps}: {b!r} != {a!r}"


def test_the_caller_precision_is_restored_after_an_error() -> None:
    mpmath.mp.dps = 7
    with pytest.raises(ValueError):
        privacy.dummy_count_delta(F(1), F(3, 2), 10)  # q' is not a probability
    assert mpmath.mp.dps == 7
