"""DP policies for VDAFs (sec. 5 and 6 of the DP draft) and their execution over Prio3.

``POLICIES`` maps the command-line name of each concrete policy to its class; each class lists its
parameters in ``PARAMS`` (name -> description) and is constructed with them as keyword arguments.
"""

from __future__ import annotations

from dpspec.spec.policies.base import (
    AggregatorNoisePolicy,
    DpPolicy,
    PolicyRandomness,
    PolicyTranscript,
    run_vdaf_with_dp_policy,
    to_signed,
)
from dpspec.spec.policies.histogram import (
    HistogramWithAggregatorRandomization,
    MultiHotHistogramWithClientRandomization,
    MultiHotHistogramWithClientRandomizationAndFill,
)
from dpspec.spec.policies.max_weight import honest_overweight, max_weight
from dpspec.spec.policies.sumvec import SumVecWithAggregatorRandomization

POLICIES: dict[str, type[DpPolicy]] = {
    cls.NAME: cls
    for cls in (
        MultiHotHistogramWithClientRandomization,
        HistogramWithAggregatorRandomization,
        MultiHotHistogramWithClientRandomizationAndFill,
        SumVecWithAggregatorRandomization,
    )
}

__all__ = [
    "POLICIES",
    "AggregatorNoisePolicy",
    "DpPolicy",
    "HistogramWithAggregatorRandomization",
    "MultiHotHistogramWithClientRandomization",
    "MultiHotHistogramWithClientRandomizationAndFill",
    "PolicyRandomness",
    "PolicyTranscript",
    "SumVecWithAggregatorRandomization",
    "honest_overweight",
    "max_weight",
    "run_vdaf_with_dp_policy",
    "to_signed",
]
