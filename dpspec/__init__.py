"""dpspec: a formal specification and test-vector reference for differential privacy in DAP/VDAF
(Prio3) and in Samplable Anonymous Aggregation (SA2).

Two subpackages, one import namespace:

* :mod:`dpspec.spec` -- the normative algorithms (never imports ``dpspec.conformance``);
* :mod:`dpspec.conformance` -- vector format and generators, the harness, adapters and the CLI.
"""

__version__ = "0.1.0"
