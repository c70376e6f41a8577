"""Periodic sub-aggregation with raw shares discarded ([SA2] sec. 4.7 "Limited Logging and Periodic
Sub-Aggregation" of seed 000, sec. 4.8 of seed 001; the aggregation of sec. 4.4, 4.5).

The Leader and the Helper need not hold a whole batch of reports until collection: they process
the reports in *periods* (sub-batches, here a fixed number of reports in arrival order), and at
the end of each period they verify the period's reports, fold the accepted output shares into a
running aggregate share, and discard the period's raw material -- the sealed input shares and
everything opened from them. Between periods an Aggregator's state is only what
:class:`dpspec.spec.sa2.protocol.Aggregator` keeps (the running aggregate share, counters and the
spent-token set), so a later compromise of an Aggregator exposes no individual report of a closed
period ("this can reduce the privacy risk to the already sub-aggregated contributions", as the
paper puts it).

The release is the same as one-shot aggregation (:func:`dpspec.spec.sa2.protocol.aggregate_batch`
on the whole arrival sequence): the reports are processed in the same order by the same code, and
``agg_update`` is a sum, so the running share after the last period is the one-shot share; in
fixed-size mode "the first ``B`` accepted in arrival order" is the same set. The minimum batch
size ``B`` is enforced once, on the final release (a period may hold fewer than ``B`` reports;
a per-period aggregate share is never released).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpspec.spec.sa2.ideal import Sa2Error
from dpspec.spec.sa2.protocol import Aggregator, BatchOutcome, Report, aggregate_batch


@dataclass
class PeriodicAggregation:
    """The two Aggregators of one batch, fed report by report, closing a period every
    ``period`` reports (and at :meth:`finish`)."""

    leader: Aggregator
    helper: Aggregator
    period: int
    pending: list[Report] = field(default_factory=list)   # the open period's sealed reports
    pending_times: list[Fraction] = field(default_factory=list)
    verdicts: list[str] = field(default_factory=list)
    rejected: Counter[str] = field(default_factory=Counter)
    periods_closed: int = 0
    on_close: Callable[[PeriodicAggregation], None] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.period, bool) or not isinstance(self.period, int) or self.period < 1:
            raise Sa2Error("the period must be a positive number of reports")

    def receive(self, report: Report, time: Fraction | None = None) -> None:
        self.pending.append(report)
        if time is not None:
            self.pending_times.append(time)
        if len(self.pending) == self.period:
            self.close_period()

    def close_period(self) -> None:
        """Verify and aggregate the open period's reports, then discard them."""
        if not self.pending:
            return
        times = self.pending_times if self.pending_times else None
        out = aggregate_batch(self.leader, self.helper, self.pending, times=times)
        self.verdicts += out.verdicts
        self.rejected.update(out.rejected)
        self.pending.clear()  # the raw (sealed) input shares of the period are gone
        self.pending_times.clear()
        self.periods_closed += 1
        if self.on_close is not None:
            self.on_close(self)

    def finish(self) -> BatchOutcome:
        self.close_period()
        return BatchOutcome(self.leader.accepted, self.rejected, self.leader.release(),
                            self.helper.release(), self.verdicts, self.leader.count)


def aggregate_in_periods(leader: Aggregator, helper: Aggregator, reports: Sequence[Report],
                         period: int, progress: Callable[[int], None] | None = None,
                         times: Sequence[Fraction] | None = None,
                         on_close: Callable[[PeriodicAggregation], None] | None = None
                         ) -> BatchOutcome:
    """The reports in arrival order, a period every ``period`` reports (module docstring)."""
    if times is not None and len(times) != len(reports):
        raise Sa2Error("times must give one arrival time per report")
    agg = PeriodicAggregation(leader, helper, period, on_close=on_close)
    for idx, rep in enumerate(reports):
        if progress is not None:
            progress(idx)
        agg.receive(rep, None if times is None else times[idx])
    return agg.finish()


def state_bytes(obj: Any, seen: set[int] | None = None) -> list[bytes]:
    """Every ``bytes`` value reachable from ``obj``'s attributes, lists, dicts, sets and tuples
    (the tests' check that no raw share survives a period)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    if isinstance(obj, bytes | bytearray):
        return [bytes(obj)]
    out: list[bytes] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += state_bytes(k, seen) + state_bytes(v, seen)
    elif isinstance(obj, list | tuple | set | frozenset):
        for v in obj:
            out += state_bytes(v, seen)
    elif hasattr(obj, "__dict__") and not isinstance(obj, type):
        for v in vars(obj).values():
            out += state_bytes(v, seen)
    return out
