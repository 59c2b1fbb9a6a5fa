"""Club nights at the doors: a session's night (`new --night`, `split`, `sessions`, export),
`night`, `settle --night`, `settle --message` and `owed`; and the keeper's page runs them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import in_zone


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The reader's clock in UTC: a night's local date is the pinned clock's date."""
    yield from in_zone(monkeypatch, "UTC")


def at(monkeypatch: pytest.MonkeyPatch, moment: str) -> None:
    """The clock at ``moment`` (``2026-11-27 20:00``, UTC)."""
    monkeypatch.setenv("CHOUETTE_NOW", moment.replace(" ", "T") + ":00+00:00")


SIX = ["ann", "bob", "cat", "dan", "eve", "fay"]


# ---------------------------------------------------------------- a session's night


def test_a_session_belongs_to_its_local_date_or_the_night_named(chouette, monkeypatch):
    chouette("new", "fri", "ann", "bob")
    assert chouette("new", "sat", "cat", "dan", "--night", " club 3 ").stdout.splitlines()[1] == (
        "Night: club 3."
    )
    at(monkeypatch, "2026-11-20 23:59")
    chouette("new", "late", "eve", "fay")
    nights = {s["name"]: s["night"] for s in chouette.json("sessions")["sessions"]}
    assert nights == {"fri": "2026-11-20", "sat": "club 3", "late": "2026-11-20"}
    header, _, first = chouette("sessions").stdout.splitlines()[:3]
    assert header.split()[:4] == ["session", "started", "night", "stake"]
    assert first.split()[:4] == ["fri", "2026-11-20", "2026-11-20", "1.00"]


def test_a_bad_night_name_is_refused_and_nothing_is_written(chouette, ledger_url):
    chouette("new", "fri", "ann", "bob")
    said = chouette("new", "sat", "cat", "dan", "--night", "  ", code=1).stderr
    assert said == "Error: a night's name cannot be empty\n"
    assert [s["name"] for s in chouette.json("sessions")["sessions"]] == ["fri"]


def test_a_table_split_off_is_a_table_of_the_same_night(chouette):
    chouette("new", "fri", *SIX, "--night", "club night")
    chouette("split", "fri-2")
    nights = {s["name"]: s["night"] for s in chouette.json("sessions")["sessions"]}
    assert nights == {"fri": "club night", "fri-2": "club night"}


def test_an_export_carries_the_night_and_an_older_one_restores_its_local_date(
    chouette, monkeypatch, tmp_path: Path
):
    chouette("new", "fri", "ann", "bob", "--night", "club 3")
    chouette("new", "sat", "cat", "dan")
    chouette("end", "box")
    fingerprint = chouette.json("settle")["fingerprint"]
    export = tmp_path / "club.jsonl"
    chouette("export", str(export))
    lines = [json.loads(line) for line in export.read_text().splitlines()]
    assert [i["night"] for i in lines if i["kind"] == "session"] == ["club 3", "2026-11-20"]
    older = tmp_path / "older.jsonl"  # as an export before nights: no night, a later time
    for item in lines:
        if item["kind"] == "session":
            del item["night"]
            if item["name"] == "fri":
                item["created_at"] = "2026-11-13T21:00:00+00:00"
    lines = [i for i in lines if (i["kind"], i.get("session")) != ("chain", "fri")]
    older.write_text("".join(json.dumps(item) + "\n" for item in lines))
    for path, fri in ((export, "club 3"), (older, "2026-11-13")):
        monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / f"{path.stem}.db"))
        chouette("import", str(path))
        nights = {s["name"]: s["night"] for s in chouette.json("sessions")["sessions"]}
        assert nights == {"fri": fri, "sat": "2026-11-20"}
        assert chouette.json("--session", "sat", "settle")["fingerprint"] == fingerprint
        chouette("check")
