"""The conformance harness: run the vectors against an implementation under test.

The implementation runs as a subprocess adapter speaking the JSON-lines protocol of
``dpspec/conformance/PROTOCOL.md`` (:mod:`dpspec.conformance.harness.process` is the harness side,
:mod:`dpspec.conformance.adapters.protocol` a helper for Python adapters). The harness holds the expected
answers; the adapter gets only inputs.

Modules: ``process`` (the subprocess client, robust to any misbehaviour), ``session``
(capabilities), ``suites`` (exact mode over every vector family), ``vdaf_official`` (the official
VDAF vectors), ``adapters`` (the bundled adapters), ``runner`` (running and progress), ``model``
(outcomes); :mod:`dpspec.conformance.statistical` (statistical mode) and :mod:`dpspec.conformance.report`.
"""

from dpspec.conformance.harness.adapters import AdapterSpec, bundled, resolve
from dpspec.conformance.harness.model import ImplResult, Outcome, RunReport, SuiteResult
from dpspec.conformance.harness.process import AdapterProcess, ProtocolFailure, Response
from dpspec.conformance.harness.runner import all_suites, run_all, run_impl, select_suites

__all__ = [
    "AdapterProcess", "AdapterSpec", "ImplResult", "Outcome", "ProtocolFailure", "Response",
    "RunReport", "SuiteResult", "all_suites", "bundled", "resolve", "run_all", "run_impl",
    "select_suites",
]
