"""Times as the reader's clock shows them, with the zone named: ``ledger``, ``log`` and
``sessions`` (JSON keeps the moment in UTC, with its offset)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from chouette.report import local_time
from tests.conftest import in_zone


@pytest.fixture
def copenhagen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from in_zone(monkeypatch, "Europe/Copenhagen")


def test_the_ledger_and_the_log_show_local_time_and_name_the_zone(chouette, copenhagen):
    chouette("new", "fri", "ann", "bob")  # the pinned clock: 2026-11-20 20:00 UTC
    chouette("end", "team")
    assert chouette("ledger").stdout.splitlines()[0].startswith("time (CET)")
    assert "2026-11-20 21:00" in chouette("ledger").stdout
    log = chouette("log").stdout.splitlines()
    assert log[0].startswith("time (CET)") and log[2].startswith("2026-11-20 21:00")
    assert chouette.json("log")["done"][0]["at"] == "2026-11-20T20:00:00+00:00"


def test_a_moment_in_another_zone_name_than_the_headings_says_its_own():
    from zoneinfo import ZoneInfo

    def local(moment: datetime) -> datetime:
        return moment.astimezone(ZoneInfo("Europe/Copenhagen"))

    winter = datetime(2026, 3, 28, 20, tzinfo=UTC)
    summer = datetime(2026, 3, 29, 20, tzinfo=UTC)
    assert local_time(winter, local, "CET") == "2026-03-28 21:00"
    assert local_time(summer, local, "CET") == "2026-03-29 22:00 CEST"


def test_a_correction_and_the_nights_list_show_local_time_and_name_the_zone(chouette, copenhagen):
    chouette("new", "fri", "ann", "bob")
    chouette("end", "team")
    chouette("amend", "1", "--result", "box", "--note", "misrecorded")
    trail = "amended 2026-11-20 21:00 CET: the board's end was team single, is box single"
    assert trail in chouette("sheet").stdout
    assert chouette.json("game", "1")["why"][-1].startswith(trail)
    nights = chouette("night", "--list").stdout.splitlines()
    assert nights[0].split() == ["night", "began", "(CET)", "sessions", "games"]
    assert nights[2].split()[1:3] == ["2026-11-20", "21:00"]


def test_the_pages_clock_names_its_zone(copenhagen):
    from web.app import clock_text

    assert clock_text(datetime(2026, 11, 20, 20, 41, tzinfo=UTC)) == "21:41 CET"
