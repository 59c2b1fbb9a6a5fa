"""The engine sample corpus the tests read: real gnubg files with their ground truth
(``tests/engine-samples/manifest.json``), a copy of the project's shared corpus kept in the
repository so that a plain clone runs its own tests."""

from __future__ import annotations

from tests.paths import SAMPLES

__all__ = ["SAMPLES"]
