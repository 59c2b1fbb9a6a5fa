"""Where the shared material lives: ``../shared`` beside the checkout (as in CI), or
``$CHOUETTE_SHARED``. Tests that need it fail with this message if it is not there."""

from __future__ import annotations

import os
from pathlib import Path

SHARED = Path(os.environ.get("CHOUETTE_SHARED") or Path(__file__).resolve().parents[2] / "shared")
SAMPLES = SHARED / "engine-samples"
if not (SAMPLES / "manifest.json").is_file():
    raise RuntimeError(
        f"the shared engine samples are not at {SAMPLES}: check out beside ../shared "
        "or set CHOUETTE_SHARED"
    )
