"""How many examples a Hypothesis law tries: as many as the test asks on CI (the ``ci``
profile, the default), a fifth of them in the quick loop (``HYPOTHESIS_PROFILE=dev``)."""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
if PROFILE not in ("ci", "dev"):
    raise RuntimeError(f"HYPOTHESIS_PROFILE is ci or dev, not {PROFILE!r}")


def examples(count: int) -> int:
    """``count`` examples on CI, a fifth of them (at least 10) in the dev profile."""
    return count if PROFILE == "ci" else max(10, count // 5)
