"""Club nights at the doors: a session's night (`new --night`, `split`, `sessions`, export),
`night`, `settle --night`, `settle --message` and `owed`; and the keeper's page runs them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli import run_words
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
        if item["kind"] == "chouette-ledger":
            item["schema"] = 13  # (fri, with nothing booked, may lack a chain there)
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


# ---------------------------------------------------------------- a night of three tables


def club_night(chouette) -> dict[str, str]:
    """Two tables (fri split in two) and a money game, ann at all three, a fee at fri and a
    shared cost at fri-2: each session's fingerprint."""
    chouette("new", "fri", *SIX)
    for words in (["double", "bob"], ["take", "bob"], ["end", "team"]):
        chouette(*words)
    chouette("split", "fri-2")
    chouette("--session", "fri-2", "end", "box")
    chouette("new", "hh", "ann", "dan", "--stake", "5")
    chouette("end", "box")
    chouette("--session", "fri", "fee", "2", "--to", "ann", "--note", "table")
    chouette("--session", "fri-2", "expense", "eve", "3.01", "--note", "pizza")
    return {
        s: chouette.json("--session", s, "settle")["fingerprint"] for s in ("fri", "fri-2", "hh")
    }


def test_a_club_night_shows_every_table_and_its_totals_in_money(chouette):
    prints = club_night(chouette)
    assert chouette("night").stdout == (
        "Night 2026-11-20: 3 tables, 3 games.\n"
        "\n"
        "fri: 1 game; line bob | cat, dan\n"
        "player      points    at the table    fees and costs    balance\n"
        "--------  --------  --------------  ----------------  ---------\n"
        "bob             +2           +2.00             -2.00       0.00\n"
        "cat             +1           +1.00             -2.00      -1.00\n"
        "dan             +1           +1.00             -2.00      -1.00\n"
        "eve             +1           +1.00             -2.00      -1.00\n"
        "fay             +1           +1.00             -2.00      -1.00\n"
        "ann             -6           -6.00            +10.00      +4.00\n"
        "\n"
        "fri-2: 1 game; line eve | ann, fay\n"
        "player      points    at the table    fees and costs    balance\n"
        "--------  --------  --------------  ----------------  ---------\n"
        "eve             +2           +2.00             +2.00      +4.00\n"
        "fay             -1           -1.00             -1.00      -2.00\n"
        "ann             -1           -1.00             -1.00      -2.00\n"
        "\n"
        "hh: 1 game; line ann | dan\n"
        "player      points    money\n"
        "--------  --------  -------\n"
        "ann             +1    +5.00\n"
        "dan             -1    -5.00\n"
        "\n"
        "The night's totals, in money (points at different stakes do not add up):\n"
        "player      at the table    fees and costs    balance\n"
        "--------  --------------  ----------------  ---------\n"
        "eve                +3.00              0.00      +3.00\n"
        "bob                +2.00             -2.00       0.00\n"
        "cat                +1.00             -2.00      -1.00\n"
        "fay                 0.00             -3.00      -3.00\n"
        "ann                -2.00             +9.00      +7.00\n"
        "dan                -4.00             -2.00      -6.00\n"
        f"Fingerprints: fri {prints['fri']}, fri-2 {prints['fri-2']}, hh {prints['hh']}\n"
    )
    found = chouette.json("night", "2026-11-20")
    assert [(t["session"], t["games"], t["fingerprint"]) for t in found["sessions"]] == [
        ("fri", 1, prints["fri"]),
        ("fri-2", 1, prints["fri-2"]),
        ("hh", 1, prints["hh"]),
    ]
    assert sum(p["cents"] for t in found["sessions"] for p in t["players"]) == 0
    assert {p["name"]: p["cents"] for p in found["totals"]} == {
        "eve": 300, "bob": 0, "cat": -100, "fay": -300, "ann": 700, "dan": -600
    }  # fmt: skip


def test_the_night_settles_in_the_fewest_payments_a_player_at_two_tables_paying_once(chouette):
    prints = club_night(chouette)
    each = sum(len(chouette.json("--session", s, "settle")["payments"]) for s in prints)
    found = chouette.json("settle", "--night")
    assert found["payments"] == [
        {"from": "cat", "to": "ann", "cents": 100},
        {"from": "dan", "to": "ann", "cents": 600},
        {"from": "fay", "to": "eve", "cents": 300},
    ]
    assert (each, found["night"], found["fingerprints"], found["carried"]) == (
        7, "2026-11-20", prints, []
    )  # fmt: skip
    assert chouette("settle", "--night=", "--message").stdout == (
        "Night 2026-11-20 (fri, fri-2, hh): who pays whom\n"
        "cat pays ann 1.00\n"
        "dan pays ann 6.00\n"
        "fay pays eve 3.00\n"
        f"Fingerprints: fri {prints['fri']}, fri-2 {prints['fri-2']}, hh {prints['hh']}\n"
    )
    said = chouette("--session", "hh", "settle", "--message").stdout
    assert said.splitlines() == [
        "hh (night 2026-11-20): who pays whom",
        "dan pays ann 5.00",
        f"Fingerprint: hh {prints['hh']}",
    ]


def test_the_nights_are_listed_oldest_first(chouette, monkeypatch):
    at(monkeypatch, "2026-11-27 19:30")
    chouette("new", "next", "ann", "bob")
    chouette("end", "box")
    at(monkeypatch, "2026-11-20 20:00")
    chouette("new", "fri", "ann", "bob", "--night", "club 3")
    chouette("new", "fri-b", "cat", "dan", "--night", "club 3")
    assert chouette("night", "--list").stdout == (
        "night       began (UTC)       sessions      games\n"
        "----------  ----------------  ----------  -------\n"
        "club 3      2026-11-20 20:00  fri, fri-b        0\n"
        "2026-11-27  2026-11-27 19:30  next              1\n"
    )
    assert chouette.json("night", "--list")["nights"][1] == {
        "night": "2026-11-27",
        "began": "2026-11-27T19:30:00+00:00",
        "sessions": ["next"],
        "games": 1,
    }
    assert chouette.json("night")["night"] == "club 3"  # the current session's
    assert chouette.json("--session", "next", "night")["night"] == "2026-11-27"
    assert chouette.json("--session", "next", "settle", "--night")["night"] == "2026-11-27"


@pytest.mark.parametrize(
    ("words", "code", "said"),
    [
        (["night", "nope"], 1, "there is no night called nope (nights: 2026-11-20)"),
        (["settle", "--night", "nope"], 1, "there is no night called nope (nights: 2026-11-20)"),
        (["owed", "zed"], 1, "zed has played in no session"),
        (["night", "2026-11-20", "--list"], 2, "NAME or --list, not both"),
        (["settle", "--night", "--all"], 2, "--night or --all, not both"),
        (["settle", "--message", "--format", "csv"], 2, "--message is a text: not with"),
    ],
)
def test_a_wrong_night_or_player_is_refused_naming_it(chouette, words, code, said):
    chouette("new", "fri", "ann", "bob")
    assert said in chouette(*words, code=code).stderr


# ---------------------------------------------------------------- debts that last


@pytest.mark.backends("sqlite", "postgres")
def test_debts_are_carried_over_two_nights_until_paid(chouette, monkeypatch):
    chouette("new", "fri", "ann", "bob", "cat")
    chouette("double", "bob", "cat")
    chouette("take", "--all")
    chouette("end", "box")  # ann +4, bob -2, cat -2
    at(monkeypatch, "2026-11-27 20:00")
    chouette("new", "next", "bob", "ann", "dan")
    chouette("end", "box")  # bob +2, ann -1, dan -1
    assert chouette("owed").stdout == (
        "from    to      amount  night       age\n"
        "------  ----  --------  ----------  ------\n"
        "cat     ann       2.00  2026-11-20  7 days\n"
        "dan     ann       1.00  2026-11-27  0 days\n"
    )  # bob's win paid off his debt of the 20th; ann's loss came off what she is owed
    assert chouette.json("owed", "CAT") == {
        "player": "cat",
        "debts": [{"from": "cat", "to": "ann", "cents": 200, "night": "2026-11-20", "age_days": 7}],
    }
    assert chouette("settle", "--night").stdout.splitlines()[-5:] == [
        "Still open from earlier nights (chouette owed):",
        "from    to      amount  night       age",
        "------  ----  --------  ----------  ------",
        "cat     ann       2.00  2026-11-20  7 days",
        f"Fingerprint of next: {chouette.json('settle')['fingerprint']}",
    ]
    assert chouette.json("settle", "--night", "--message")["message"].splitlines()[-3:-1] == [
        "Still open from earlier nights:",
        "cat pays ann 2.00 (2026-11-20)",
    ]
    chouette("--session", "fri", "pay", "cat", "ann", "2")  # paid where it arose
    assert chouette("owed", "cat").stdout == "cat is square: nothing is owed.\n"
    assert chouette.json("settle", "--night")["carried"] == []


@pytest.mark.slow  # the CLI's own process for each line, as the page runs it
def test_the_keepers_page_runs_night_owed_and_settle_of_a_night(chouette, ledger_url):
    from datetime import UTC, datetime

    from web.table import Table

    club_night(chouette)
    table = Table(
        ledger_url, None, lambda: datetime(2026, 11, 20, 20, tzinfo=UTC), commands=run_words
    )
    ok, said = table.run_line("night", "hh")
    assert ok and said[0] == "Night 2026-11-20: 3 tables, 3 games.", said
    ok, said = table.run_line("settle --night --message", "fri")
    assert ok and said[:2] == [
        "Night 2026-11-20 (fri, fri-2, hh): who pays whom",
        "cat pays ann 1.00",
    ]
    ok, said = table.run_line("owed ann", None)
    assert ok and said[2:4] == ["cat     ann       1.00  2026-11-20  0 days",
                                "dan     ann       6.00  2026-11-20  0 days"], said  # fmt: skip
