"""``chouette serve --room``: one scoreboard with every table of the night side by side (each
table's line, cubes and standings, and the night's totals across the tables), updating live,
and the scorekeeper's page for the table the keeper picks."""

from __future__ import annotations

import json
from datetime import datetime

from tests.dom import parse
from web.app import night_totals, templates
from web.hub import Pieces, changed, pieces
from web.table import Table

NOW = datetime.fromisoformat("2026-11-20T20:00:00+00:00")


def two_tables(chouette):
    chouette("new", "red", "ann", "bob", "cat", "--stake", "2")
    chouette("double", "bob")
    chouette("take", "bob")
    chouette("end", "team")
    chouette("new", "blue", "dan", "eve", "ann")
    chouette("end", "box")  # dan +2, eve -1, ann -1
    chouette("double", "eve")


def test_the_room_shows_every_table_of_the_night_and_the_nights_totals(chouette, ledger_url):
    two_tables(chouette)
    snapshot = Table(ledger_url, "blue", lambda: NOW, room=True).snapshot()
    assert [b.session for b in snapshot.room] == ["red", "blue"]
    page = parse(
        templates()
        .get_template("_room.html")
        .render(room=snapshot.room, night=night_totals(snapshot.room), private=False)
    )
    tables = page.all("section", "table")
    assert [t.attrs["data-session"] for t in tables] == ["red", "blue"]
    assert tables[1].one("p", "line").text() == "dan | ann, eve"
    assert [c.attrs["data-member"] for c in tables[1].all("li", "cube")] == ["ann", "eve"]
    red = {p["name"]: p["cents"] for p in chouette.json("--session", "red", "standings")["players"]}
    blue = {
        p["name"]: p["cents"] for p in chouette.json("--session", "blue", "standings")["players"]
    }
    night = {
        r.attrs["data-player"]: int(r.attrs["data-cents"]) for r in page.all("tr", "night-total")
    }
    assert night == {p: red.get(p, 0) + blue.get(p, 0) for p in {*red, *blue}}
    assert sum(night.values()) == 0


def test_the_room_under_private_shows_no_money(chouette, ledger_url):
    two_tables(chouette)
    snapshot = Table(ledger_url, None, lambda: NOW, room=True).snapshot()
    html = (
        templates()
        .get_template("_room.html")
        .render(room=snapshot.room, night=night_totals(snapshot.room), private=True)
    )
    assert "data-cents" not in html and "night-total" not in html


def test_a_table_of_another_night_is_not_in_the_room(chouette, ledger_url, monkeypatch):
    chouette("new", "red", "ann", "bob", "cat")
    monkeypatch.setenv("CHOUETTE_NOW", "2026-11-27T20:00:00+00:00")
    chouette("new", "green", "ann", "bob", "cat")
    table = Table(ledger_url, "green", lambda: NOW, room=True)
    assert table.tables() == ["green"]
    assert [b.session for b in table.snapshot().room] == ["green"]


def test_without_room_the_keeper_may_switch_to_any_session_the_latest_first(
    chouette, ledger_url, monkeypatch
):
    """Issue 21: the keeper's page switches the session it runs; without ``--room`` it lists
    every session, the most recent first (a cap, and the one served however old); under
    ``--room`` only the night's tables."""
    two_tables(chouette)
    monkeypatch.setenv("CHOUETTE_NOW", "2026-11-27T20:00:00+00:00")
    chouette("new", "green", "ann", "bob", "cat")
    assert Table(ledger_url, None, lambda: NOW).choices() == ["green", "blue", "red"]
    assert Table(ledger_url, None, lambda: NOW, room=True).choices() == ["green"]
    monkeypatch.setattr("web.table.PICK_MOST", 2)
    assert Table(ledger_url, "red", lambda: NOW).choices() == ["green", "blue", "red"]
    assert Table(ledger_url, "blue", lambda: NOW).choices() == ["green", "blue"]
    page = parse(
        templates()
        .get_template("keeper.html")
        .render(tables=["green", "blue"], served="blue", room=False, devices=[], codes=[])
    )
    picker = page.one("form", "pick-table")
    assert picker.attrs["action"] == "/keeper/act"  # the CLI's words: --session NAME
    assert picker.one("select").attrs["name"] == "--session"
    assert picker.one("label").text().startswith("Session")
    assert [o.text() for o in picker.all("option")] == ["green", "blue"]
    assert "selected" in picker.all("option")[1].attrs
    assert picker.one("button").text() == "Run this session"
    alone = templates().get_template("keeper.html").render(tables=["green"], room=False)
    assert "pick-table" not in alone  # one session: nothing to pick


def test_a_change_at_one_table_of_the_room_changes_that_table_and_the_nights_totals(
    chouette, ledger_url
):
    """Issue 39: the room's page is cut into parts (each table, the night's totals); a
    cube turned at one table changes that table's part alone, a game ended there the
    night's totals too."""
    two_tables(chouette)

    def cut() -> Pieces:
        snapshot = Table(ledger_url, "blue", lambda: NOW, room=True).snapshot()
        return pieces(
            templates()
            .get_template("_room.html")
            .render(room=snapshot.room, night=night_totals(snapshot.room), private=False)
        )

    before = cut()
    assert [name for name, _ in before[1]] == ["table red", "table blue", "night"]
    chouette("--session", "blue", "take", "eve")
    taken = cut()
    update = json.loads(changed(before, 7, taken) or "null")
    assert update["since"] == 7 and [name for name, _ in update["parts"]] == ["table blue"]
    chouette("--session", "blue", "end", "box")
    update = json.loads(changed(taken, 8, cut()) or "null")
    assert [name for name, _ in update["parts"]] == ["table blue", "night"]
