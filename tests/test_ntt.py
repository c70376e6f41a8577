"""dpspec.spec.ntt: the transform on plain ints, below both the field and the FLP package."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dpspec.spec import ntt

# A toy NTT-friendly prime: 17 = 2**4 + 1, and 3 generates its multiplicative group (order 16).
P, GEN, ORDER = 17, 3, 16


def root(n: int) -> int:
    return pow(GEN, ORDER // n, P)


def dft(coeffs: list[int], n: int, s: int = 1) -> list[int]:
    w = root(n)
    return [sum(c * pow(s * pow(w, i, P), j, P) for j, c in enumerate(coeffs)) % P for i in range(n)]


@pytest.mark.parametrize("n", [1, 2, 4, 8, 16])
def test_ntt_is_the_dft_and_inv_ntt_inverts_it(n: int) -> None:
    coeffs = [(5 * j + 3) % P for j in range(n)]
    for s in (1, root(2 * n) if 2 * n <= ORDER else 1, 2):
        assert ntt.ntt(P, root(n), coeffs, n, s) == dft(coeffs, n, s)
    assert ntt.inv_ntt(P, root(n), dft(coeffs, n), n) == coeffs
    assert ntt.ntt(P, root(n), coeffs[: n // 2], n) == dft(coeffs[: n // 2], n)  # zero padding


def test_bad_sizes() -> None:
    for n in (0, 3, 6, -4):
        with pytest.raises(ValueError, match="power of two"):
            ntt.check_power_of_2(n)
    with pytest.raises(ValueError, match="do not fit"):
        ntt.ntt(P, root(2), [1, 2, 3], 2)
    with pytest.raises(ValueError, match="expected 4 values"):
        ntt.inv_ntt(P, root(4), [1, 2, 3], 4)


def test_bit_reversal() -> None:
    assert ntt.bit_reversal(1) == (0,)
    assert ntt.bit_reversal(8) == (0, 4, 2, 6, 1, 5, 3, 7)


def test_the_field_does_not_load_the_flp_package() -> None:
    """The layering this module exists for: field -> ntt, flp.poly -> (field, ntt), no cycle."""
    code = (
        "import sys; from dpspec.spec.field import Field64; Field64.ntt([Field64(1)], 2); "
        "Field64.inv_ntt([Field64(1), Field64(1)], 2); print('dpspec.spec.flp' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
