"""A deliberately broken Prio3 (VDAF draft-20) for the harness's tests: the reference's vdaf.* ops,
except that vdaf.verify_init encodes the first field element of its verifier share big-endian.

Run as ``python tests/adapters/prio3_misencode.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dpspec.conformance import vdaf_ops  # noqa: E402
from dpspec.conformance.adapters.protocol import serve  # noqa: E402


def main() -> int:
    handlers = vdaf_ops.handlers()
    good = handlers["vdaf.verify_init"]

    def verify_init(args: dict[str, Any]) -> dict[str, Any]:
        out = good(args)
        size = 8 if args["vdaf"]["type"] in ("Prio3Count", "Prio3Sum", "Prio3HigherDegree") or \
            args["vdaf"].get("field") == "Field64" else 16
        share = bytes.fromhex(out["verifier_share"])
        out["verifier_share"] = (share[:size][::-1] + share[size:]).hex()
        return out

    handlers["vdaf.verify_init"] = verify_init
    return serve(handlers, implementation="prio3 misencoding", version="0", modes=["exact"])


if __name__ == "__main__":
    sys.exit(main())
