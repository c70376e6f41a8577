"""Samplable Anonymous Aggregation (SA2): the ideal functionality and a protocol that realises it.

Sources: [SA2] K. Talwar et al., "Samplable Anonymous Aggregation for Private Federated Data
Analysis" (seed 000; the later version is seed 001), and [PFS] A. McMillan et al., "Private
Federated Statistics in an Interactive Setting" (seed 002) for recipes.

Modules:

* :mod:`dpspec.spec.sa2.ideal` -- sec. 3 of [SA2]: the aggregator A_B^Dec, the samplable anonymous
  aggregator SA_B^Dec (Poisson rate q, and the fixed-size variant), and App. A: the time-bounded
  aggregator A_{B,K}^Dec and the randomized donation-time rule.
* :mod:`dpspec.spec.sa2.privacy` -- privacy statements for a protocol (R, Dec, B, q) in the aggregator
  and the SA2 model (sec. 2.1 Theorem 3, sec. 3 Examples 3-6, App. A).
* :mod:`dpspec.spec.sa2.tokens` -- sec. 4.3: anonymous rate-limited tokens as RSA blind signatures
  (RFC 9474, RSABSSA-SHA384-PSS-Deterministic) issued by an attester/issuer pair.
* :mod:`dpspec.spec.sa2.hpke` -- the per-aggregator encryption of input shares (RFC 9180, the DAP suite).
* :mod:`dpspec.spec.sa2.randomizers` -- the local randomizers R and decodings Dec that recipes name.
* :mod:`dpspec.spec.sa2.protocol` -- sec. 4: recipes, client, anonymization, leader/helper, collector.
"""
