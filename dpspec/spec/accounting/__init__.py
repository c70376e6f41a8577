"""Privacy accounting and calibration: definitions, calibration, amplification, composition,
shuffled-model counting and the on-device budget accountant.

Modules (each cites its sources):

* :mod:`~dpspec.spec.accounting.numeric` -- parameter parsing, working precision, conservative rounding;
* :mod:`~dpspec.spec.accounting.definitions` -- hockey-stick / Renyi divergences, pure -> RDP/zCDP,
  RDP -> (eps, delta) (SA2 Theorem 1), zCDP -> (eps, delta);
* :mod:`~dpspec.spec.accounting.gaussian` -- analytic Gaussian mechanism [BW18]: delta(eps), sigma;
* :mod:`~dpspec.spec.accounting.discrete` -- discrete Gaussian (exact, multivariate) and discrete Laplace;
* :mod:`~dpspec.spec.accounting.subsampling` -- Poisson / without-replacement amplification, moments
  accountant of the subsampled Gaussian;
* :mod:`~dpspec.spec.accounting.pld` -- certified PLD bounds (lower and upper, exact rationals) on the
  optimal delta(eps) / eps(delta) of T Poisson-subsampled Gaussian steps;
* :mod:`~dpspec.spec.accounting.composition` -- basic, advanced, KOV, optimal, RDP, zCDP composition and
  the randomized-donation-time bound (SA2 App. A);
* :mod:`~dpspec.spec.accounting.shuffle` -- MJTB+22 Theorem 3.1, [FMT20]/[FMT22] numerical bounds, exact
  curves of summed binary randomized response and of the symmetric-RAPPOR histogram;
* :mod:`~dpspec.spec.accounting.ghazi` -- [GKMP20] Theorems 11, 13, 18 and exact minimal parameters;
* :mod:`~dpspec.spec.accounting.budget` -- the on-device budget accountant of MJTB+22 sec. 4.3;
* :mod:`~dpspec.spec.accounting.seed_tables` -- the seeds' printed numbers, recomputed.
"""
