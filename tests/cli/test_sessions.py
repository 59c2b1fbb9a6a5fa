"""The sessions of a ledger: listing, renaming (undone by undo) and deleting one in which
nothing is booked."""

from __future__ import annotations

import pytest

from tests.dump import dump

pytestmark = pytest.mark.backends("sqlite", "postgres")


def test_a_rename_keeps_everything_and_undo_renames_back(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--stake", "2")
    chouette("end", "team")
    before = chouette.json("standings")
    said = chouette("sessions", "--rename", "fri", "friday 21")
    assert said.stdout == "Session fri is now called friday 21.\n"
    assert [s["name"] for s in chouette.json("sessions")["sessions"]] == ["friday 21"]
    assert chouette.json("standings") == {**before, "session": "friday 21"}
    assert chouette.json("log")["done"][0]["text"] == "the rename of fri to friday 21"
    assert chouette("undo").stdout == "Undone: took back the rename of fri to friday 21.\n"
    assert chouette.json("standings") == before


def test_a_rename_to_a_name_in_use_is_refused_and_writes_nothing(chouette, ledger_url):
    chouette("new", "a", "ann", "bob")
    chouette("new", "b", "cat", "dan")
    before = dump(ledger_url)
    result = chouette("sessions", "--rename", "a", "b", code=1)
    assert result.stderr == "Error: there is already a session called b\n"
    assert dump(ledger_url) == before


def test_a_split_table_renamed_can_still_be_taken_back_at_either_table(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "eve", "fay")
    chouette("split", "late")
    chouette("sessions", "--rename", "fri", "early")
    chouette("--session", "late", "sessions", "--rename", "late", "later")
    chouette("--session", "later", "undo")  # the rename
    chouette("--session", "early", "undo")  # the rename
    chouette("--session", "late", "undo")  # the split, from the new table
    assert [s["name"] for s in chouette.json("sessions")["sessions"]] == ["fri"]


def test_a_split_off_table_deleted_gives_its_players_back_when_the_split_is_undone(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "eve", "fay")
    chouette("split", "late")
    chouette("sessions", "--delete", "late")
    assert chouette("--session", "fri", "undo").stdout == (
        "Undone: took back the split of fri: dan, eve, fay to late.\n"
    )
    assert chouette.json("status")["line"] == ["ann", "bob", "cat", "dan", "eve", "fay"]
    chouette("split", "late")
    chouette("--session", "fri", "sessions", "--delete", "fri")  # the first table, this time
    refused = chouette("--session", "late", "undo", code=1).stderr
    assert refused == (
        "Error: the split cannot be taken back: fri, the table late was split from, is deleted\n"
    )


def test_a_session_with_nothing_booked_can_be_deleted(chouette):
    chouette("new", "a", "ann", "bob")
    chouette("new", "typo", "cat", "dan")
    assert chouette("sessions", "--delete", "typo").stdout == "Session typo is deleted.\n"
    assert chouette.json("sessions")["sessions"] == [
        s for s in chouette.json("sessions")["sessions"] if s["name"] == "a"
    ]
    assert chouette.json("status")["session"] == "a"  # the newest other is current now


def test_a_session_with_a_game_or_a_payment_is_not_deleted(chouette, ledger_url):
    chouette("new", "a", "ann", "bob")
    chouette("double", "bob")  # a game in progress is booked too
    before = dump(ledger_url)
    result = chouette("sessions", "--delete", "a", code=1)
    assert result.stderr == (
        "Error: a has a game booked, and bookings are the ledger's record: undo them first "
        "(chouette --session a undo) to delete it\n"
    )
    assert dump(ledger_url) == before


def test_the_last_session_deleted_leaves_an_empty_ledger(chouette):
    chouette("new", "a", "ann", "bob")
    chouette("sessions", "--delete", "a")
    assert chouette("sessions").stdout.startswith("No sessions yet")
    assert chouette("status", code=1).stderr.startswith("Error: no session yet")


def test_a_session_of_one_player_needs_waiting(chouette):
    result = chouette("new", "a", "ann", code=2)
    assert result.stderr == (
        "Error: a game needs a box and a captain, and only ann is named: name the others, "
        "or give --waiting if they will join later\n"
    )
    refused = chouette("sessions", code=1).stderr  # not even a ledger was made
    assert "no ledger" in refused or "is empty" in refused
    chouette("new", "a", "ann", "--waiting")
    chouette("join", "bob")
    assert chouette.json("status")["captain"] == "bob"
