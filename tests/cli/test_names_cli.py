"""Player and session names are data: quotes, SQL, percent signs, backslashes, commas, very
long and non-ASCII names are stored and shown exactly as given; names that cannot be shown
on one line of a report are refused with a message, and nothing is written."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.dump import dump

pytestmark = pytest.mark.backends("sqlite", "postgres")

LITERAL = [
    "O'Brien",
    'Dan "the man"',
    "Robert'); DROP TABLE booking;--",
    "ann, bob",
    "50% off",
    "{name} %s",
    "back\\slash",
    "zoë",
    "李小龍",
    "🎲 dice",
    "مريم",
    "Ñandú",
    "x" * 80,
]
SESSION = 'Friday\'s "big" game; DROP TABLE session;--'


def test_names_are_stored_and_shown_literally_in_every_report(chouette, ledger_url, tmp_path):
    chouette("new", SESSION, *LITERAL)
    box, captain, *crew = LITERAL
    chouette("double", captain, crew[0])
    chouette("take", captain)
    chouette("drop", crew[0])
    booked = chouette.json("end", "team", "--gammon")
    assert set(booked["points"]) == set(LITERAL) and booked["session"] == SESSION
    assert sorted({row[2] for row in dump(ledger_url)["player"]}) == sorted(LITERAL)

    status = chouette.json("status")
    assert status["session"] == SESSION
    assert status["line"] == booked["next_line"] and sorted(status["line"]) == sorted(LITERAL)
    text = chouette("status").stdout
    assert all(name in text for name in LITERAL)

    standings = chouette.json("standings")
    assert sorted(p["name"] for p in standings["players"]) == sorted(LITERAL)
    rows = chouette("standings").stdout.splitlines()[2:]
    assert sorted(row.rsplit(maxsplit=2)[0] for row in rows) == sorted(LITERAL)
    table = list(csv.reader(io.StringIO(chouette("standings", "--format", "csv").stdout)))
    assert sorted(row[0] for row in table[1:]) == sorted(LITERAL)

    sheet = chouette.json("sheet")
    assert sheet["session"] == SESSION and sheet["players"] == LITERAL
    assert set(sheet["games"][0]["points"]) == set(LITERAL)
    header = next(csv.reader(io.StringIO(chouette("sheet", "--format", "csv").stdout)))
    assert header == ["game", "kind", "box", "captain", *LITERAL]
    assert chouette("sheet").stdout.startswith(f"Session {SESSION}: stake 1.00 a point")
    assert all(name in chouette("sheet").stdout for name in LITERAL)

    ledger = list(csv.reader(io.StringIO(chouette("ledger", "--format", "csv").stdout)))
    assert {row[1] for row in ledger[1:]} == {SESSION}
    assert sorted(row[3] for row in ledger[1:]) == sorted(LITERAL)
    assert [p["from"] for p in chouette.json("settle")["payments"]][:1] == [box]

    record = chouette.json("game", "1")
    assert record["line"] == LITERAL and record["session"] == SESSION
    chouette("new", "again", *LITERAL)
    del record["session"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert chouette.json("record", str(path))["points"] == booked["points"]


def test_names_are_normalised_and_trimmed_once_when_they_join(chouette):
    chouette("new", "friday", "  ann  ", "zoe\u0308", "cat")  # e + combining diaeresis
    assert chouette.json("status")["line"] == ["ann", "zoë", "cat"]
    chouette("end", "box")
    chouette("join", "\tdan ")
    assert chouette.json("status")["line"][-1] == "dan"


REFUSED = [
    ("", "a player's name cannot be empty"),
    ("   ", "a player's name cannot be empty"),
    ("tab\there", "cannot be a player's name: it has control characters"),
    ("two\nlines", "cannot be a player's name: it has control characters"),
    ("bell\x07", "cannot be a player's name: it has control characters"),
    ("zero\u200bwidth", "cannot be a player's name: it has control characters"),
    ("\u202eright-to-left override", "cannot be a player's name: it has control characters"),
    ("para\u2029graph", "cannot be a player's name: it has control characters"),
    ("y" * 81, "cannot be a player's name: longer than 80 characters"),
    ("Box", "cannot be a player's name: it is a word the scorer uses"),
    ("TEAM", "cannot be a player's name: it is a word the scorer uses"),
    ("all", "cannot be a player's name: it is a word the scorer uses"),
]


def test_names_that_a_report_cannot_show_are_refused_and_nothing_is_written(chouette, ledger_url):
    for name, message in REFUSED:
        result = chouette("new", "friday", "ann", name, "cat", code=1)
        assert result.stderr.startswith("Error: ") and message in result.stderr, name
    assert dump(ledger_url) == {}  # refused before the ledger was opened
    chouette("new", "friday", "ann", "bob")
    chouette("end", "box")
    before = dump(ledger_url)
    for name, message in REFUSED:
        assert message in chouette("join", name, code=1).stderr, name
        assert message in chouette("new", "saturday", name, "bob", code=1).stderr, name
        record = {"line": ["ann", name], "result": {"winner": "box"}}
        assert message in chouette("record", "-", input=json.dumps(record), code=1).stderr
    assert dump(ledger_url) == before


def test_a_name_that_is_not_valid_text_is_refused_with_a_message(chouette, ledger_url):
    result = chouette("new", "friday", "ann", "bad\udcff", code=1)
    assert "cannot be a player's name" in result.stderr


def test_a_player_named_as_typed_on_another_keyboard_is_found(chouette):
    chouette("new", "friday", "ann", "zoë", "cat")
    chouette("double", "zoe\u0308")
    chouette("take", " zoë ")


def test_the_club_commands_take_a_players_name_in_any_case(chouette):
    chouette("new", "fri", "Ann", "Bob", "Cat", "Dan", "--extras", "--proxies")
    assert chouette("proxy", "DAN", "--by", "ann").stdout.startswith(
        "Dan is away: Ann decides for Dan. "
    )
    assert chouette("extra", "bob", "CAT").stdout == (
        "Game 1: Cat gives Bob an extra on 2 (Cat pays Bob 1 for it).\n"
    )
    assert chouette("extra", "cat", "BOX", "--points", "1").stdout == (
        "Game 1: Ann gives Cat an extra on 1.\n"
    )
    # typed with spaces around it, as a name may be (" bob " is bob), box is still the box
    assert chouette("extra", " cat ", " box ", "--points", "1").stdout == (
        "Game 1: Ann gives Cat an extra on 1.\n"
    )
    assert chouette("extra", "bob", "zed", code=1).stderr == (
        "Error: zed is not playing this game\n"
    )


DASHED = ["--all", "-h", "--help", "--json", "--session", "--db=/tmp/x", "-", "--", "-2"]


@pytest.mark.parametrize("name", DASHED)
def test_a_name_that_starts_with_a_dash_is_refused_wherever_a_name_is_given(
    chouette, ledger_url, name
):
    """Issue 34: a player called ``--all`` turned the page's Drop button into ``drop --all``.
    Every command line reads a word that starts with ``-`` as an option, so a new player or
    session may not be called so (given after ``--``, it reaches the command as a name, and is
    refused, naming why), and nothing is written."""
    said = "cannot be a player's name: it starts with '-', which a command line reads as an option"
    session = "cannot be a session's name: it starts with '-'"
    assert said in chouette("new", "friday", "ann", "--", name, code=1).stderr
    assert said in chouette("new", "friday", "--roll", "--", "ann", name, code=1).stderr
    assert session in chouette("new", "--", name, "ann", "bob", code=1).stderr
    assert dump(ledger_url) == {}
    chouette("new", "friday", "ann", "bob", "cat", "dan", "eve", "fay")
    before = dump(ledger_url)
    assert f"Error: {name!r} {said}\n" == chouette("join", "--", name, code=1).stderr
    assert session in chouette("split", "--", name, code=1).stderr
    assert session in chouette("sessions", "--rename", "friday", name, code=1).stderr
    assert dump(ledger_url) == before


def test_a_ledger_that_holds_a_dashed_name_already_is_played_after_two_dashes(
    chouette, monkeypatch
):
    """A ledger of an earlier chouette may hold such a name: the commands take it after
    ``--``, as any command line does, and never as an option."""
    from chouette import line

    with monkeypatch.context() as earlier:  # the checks of an earlier chouette
        earlier.setattr(line, "check_new_name", line.check_name)
        chouette("new", "friday", "ann", "--", "--all", "-h", "cat")
    chouette("double", "--", "--all", "-h", "cat")
    assert chouette("drop", "--", "--all").stdout.startswith("Game 1: --all drops.")
    assert chouette("take", "--game", "1", "--", "-h").stdout.startswith("Game 1: -h takes.")
    cubes = chouette.json("status")["game"]["cubes"]
    assert (cubes["--all"]["out"], cubes["-h"]["out"], cubes["cat"]["out"]) == (True, False, False)
    assert chouette("accept", "--", "-h").stdout.startswith("-h accepts")
    assert [a["player"] for a in chouette.json("rules")["accepted"]] == ["-h"]
