"""Tests of `chouette serve` (web/): its pure parts first, then a real server on 127.0.0.1,
then real browsers (Chromium through Playwright, axe-core)."""
