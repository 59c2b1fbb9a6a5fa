"""Fixtures of the serve tests, beside tests/conftest.py's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def windows_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """The browser windows a test opened, closed when it ends: a module's tests share one
    Chromium (its ``browser`` fixture), where a page left open, a TV or a phone, would run
    its script, reconnecting to its stopped server, until the module's last test."""
    yield
    browser = (request.node.funcargs or {}).get("browser")
    if browser is not None:
        for context in list(browser.contexts):
            context.close()
