"""[GKMP20] Theorem 3 and Lemma 15 illustrated beside exact errors (dpspec.spec.shuffled.lower_bounds)."""

from __future__ import annotations

import mpmath

from dpspec.spec.shuffled.lower_bounds import lemma15_rows, theorem3_rows


def test_theorem3_single_message_error_grows_with_log_n() -> None:
    rows = theorem3_rows(mpmath.mpf(1), [1000, 100_000])
    assert rows[1].bounded_mse > rows[0].bounded_mse
    assert all(r.ratio > 5 for r in rows)  # MSE / ln n stays bounded below
    # the multi-message correlated mechanism does not grow with n, and is near central
    assert rows[0].correlated_mse == rows[1].correlated_mse
    assert rows[0].central_mse < rows[0].correlated_mse < rows[0].bounded_mse / 10


def test_lemma15_divisible_error_grows_with_log_one_over_delta() -> None:
    rows = lemma15_rows(mpmath.mpf(1), ["1e-3", "1e-9"], 10_000)
    assert rows[1].bounded_mse > 4 * rows[0].bounded_mse
    assert all(r.ratio > 1.5 for r in rows)
    assert rows[0].correlated_mse == rows[1].correlated_mse
    assert rows[1].as_json()["delta"] == "1e-9"
