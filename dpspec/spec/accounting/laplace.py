"""The continuous Laplace mechanism's privacy ([DR14] Theorem 3.6).

Laplace noise of scale ``b`` added to a query of L1 sensitivity ``S`` is ``S / b``-DP, and that is
exact: the privacy loss at outputs beyond both means is exactly ``S / b``. Analysis only (mpmath);
the sampling paths of this project never use continuous Laplace noise.
"""

from __future__ import annotations

import mpmath

from dpspec.spec.accounting.numeric import DPS, Real, mpf, positive


def laplace_epsilon(scale: Real | mpmath.mpf, sensitivity: Real | mpmath.mpf = 1) -> mpmath.mpf:
    """Pure epsilon ``S / b`` of Laplace noise of scale ``b`` for L1 sensitivity ``S``."""
    with mpmath.workdps(DPS):
        return positive(sensitivity, "sensitivity") / positive(scale, "scale")


def laplace_scale(eps: Real | mpmath.mpf, sensitivity: Real | mpmath.mpf = 1) -> mpmath.mpf:
    """The smallest scale ``b = S / eps`` making the Laplace mechanism eps-DP."""
    with mpmath.workdps(DPS):
        return positive(sensitivity, "sensitivity") / positive(eps, "eps")


__all__ = ["laplace_epsilon", "laplace_scale", "mpf"]
