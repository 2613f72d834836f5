"""How many examples a property test of the engine draws.

The exactness tests run once under the build the suite imports (compiled where it is
built) and once more under the pure-Python reference (``tests/unit/test_engine_build.py``).
The second run checks that the same source gives the same results interpreted; the golden
baselines and the fixed cases run in full there, and a quarter of the random examples is
enough to meet a difference of build, which shows on most positions, not on rare ones.
"""

from __future__ import annotations

import os

#: Set by the pure-Python re-run; 1 (every example) otherwise.
SHARE_VARIABLE = "WORDFALL_TEST_EXAMPLES_SHARE"


def examples(count: int) -> int:
    """``count`` examples, or the re-run's share of them (at least 20)."""
    share = float(os.environ.get(SHARE_VARIABLE, "1"))
    return count if share >= 1 else max(20, round(count * share))
