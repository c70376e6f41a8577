"""Counting and histograms in the shuffled model with near-central accuracy [GKMP20].

[GKMP20] B. Ghazi, R. Kumar, P. Manurangsi, R. Pagh, "Private Counting from Anonymous Messages:
Near-Optimal Accuracy with Vanishing Communication Overhead", ICML 2020 (seed 004).

In the shuffled model each user sends a few messages; a shuffler (in SA2, the aggregation servers
summing +1/-1 messages) hides which user sent which, and the analyzer sees only the multiset. The
mechanisms here are:

* :mod:`dpspec.spec.shuffled.divisible` -- infinitely divisible noise on the non-negative integers (Poisson,
  negative binomial) and the per-user shares ``D/n`` (Definition 7), sampled exactly from a tape;
* :mod:`dpspec.spec.shuffled.counting` -- the D-distributed randomizer and analyzer (Algorithms 1, 2) and the
  (D1, D2, D3)-correlated distributed randomizer and analyzer (Algorithms 3, 4);
* :mod:`dpspec.spec.shuffled.histogram` -- the B-bucket extension (Corollary 2): one correlated counter per
  bucket, messages tagged with their bucket;
* :mod:`dpspec.spec.shuffled.accuracy` -- exact errors (Observations 9, 16) and expected messages per user
  (Observations 10, 17), and the closed-form errors of the baselines (randomized response, B-ary
  randomized response, RAPPOR);
* :mod:`dpspec.spec.shuffled.baselines` -- the baselines' randomizers and analyzers;
* :mod:`dpspec.spec.shuffled.fragmented` -- Fragmented RAPPOR (sec. 5.2's fourth protocol, from
  Erlingsson et al. 2020): one message per set bit, its calibration and exact l-infinity error;
* :mod:`dpspec.spec.shuffled.exact` -- the exact privacy curve of the correlated mechanism with geometric
  D1 = D2 (derived in its docstring; Theorem 18 is only a sufficient condition);
* :mod:`dpspec.spec.shuffled.params`, :mod:`dpspec.spec.shuffled.privacy` -- from (eps, delta, n) to the
  distributions' rational parameters, by the theorems (Theorems 11, 13, 18, computed by
  :mod:`dpspec.spec.accounting.ghazi`) and by exact computation;
* :mod:`dpspec.spec.shuffled.compare` -- the comparisons of sec. 5 (``dpspec experiment ghazi``).

Every randomized function takes a :class:`dpspec.spec.tape.RandomTape` and documents the order in which it
draws from it. Parameters on a sampling path are exact rationals.
"""
