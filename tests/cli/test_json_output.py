"""``--json`` on every command that reports something: the events, undo, pay, check and
import print one JSON document on stdout (notes stay on stderr)."""

from __future__ import annotations

import json

from tests import paths

SAMPLES = paths.SAMPLES / "gnubg" / "mat"


def test_an_event_says_what_it_did_and_how_every_cube_stands(chouette):
    chouette("new", "fri", "ann", "bob", "cat")
    assert chouette.json("double", "bob", "cat") == {
        "session": "fri",
        "game": 1,
        "over": False,
        "said": [
            "Game 1: the box, ann, doubles bob, cat.",
            "  bob: cube 1, double to 2 pending: bob to answer",
            "  cat: cube 1, double to 2 pending: cat to answer",
        ],
        "cubes": {
            "bob": {"value": 1, "owner": "centre", "pending": "bob", "out": False},
            "cat": {"value": 1, "owner": "centre", "pending": "cat", "out": False},
        },
        "why": [],
    }
    chouette("drop", "cat")
    ended = chouette.json("take", "bob")  # the game goes on: bob's cube is live
    assert ended["over"] is False and ended["cubes"]["bob"]["owner"] == "bob"
    ended = chouette.json("end", "box")
    assert ended["over"] is True and ended["points"] == {"ann": 3, "bob": -2, "cat": -1}


def test_every_command_that_reports_something_takes_json():
    from typer.main import get_command

    from cli import app

    #: They write a file (or the export itself), hold the prompt, or print help.
    without = {"report", "export", "table", "serve", "demo", "help"}
    commands: dict[str, object] = {}
    for name, command in get_command(app).commands.items():  # type: ignore[attr-defined]
        inner = getattr(command, "commands", None)  # a group's (event new …) in its place
        commands.update(
            {name: command} if inner is None else {f"{name} {s}": c for s, c in inner.items()}
        )
    missing = [
        name
        for name, command in commands.items()
        if name not in without and not any("--json" in p.opts for p in command.params)  # type: ignore[attr-defined]
    ]
    assert missing == []


def test_a_change_of_the_line_says_what_it_did_and_the_line_it_leaves(chouette):
    started = chouette.json("new", "fri", "ann", "bob", "cat", "dan", "--player-stake", "dan=2")
    assert started == {
        "session": "fri",
        "said": [
            "Session fri: stake 1.00 a point; standard rules.",
            "dan plays at 2.00 a point.",
            "Line: ann | bob, cat, dan",
        ],
        "line": ["ann", "bob", "cat", "dan"],
        "box": "ann",
        "captain": "bob",
        "crew": ["cat", "dan"],
        "partner": None,
        "sitting_out": [],
        "away": {},
        "stake_cents": 100,
        "player_stakes": {"dan": 200},
        "night": started["night"],
        "rules": chouette.json("sessions")["sessions"][0]["rules"],
    }
    line = ["ann", "bob", "cat", "dan", "eve", "fay"]
    joined = chouette.json("join", "eve")
    assert joined["said"] == ["eve joins. Line: ann | bob, cat, dan, eve"]
    assert chouette.json("sit-out", "cat")["sitting_out"] == ["cat"]
    assert chouette.json("sit-in", "cat")["sitting_out"] == []
    credit = chouette.json("credit", "bob", "5")["said"]
    assert credit == ["bob's credit is 5.00. Line: ann | bob, cat, dan, eve"]
    assert chouette.json("join", "fay")["line"] == line
    split = chouette.json("split", "late")
    assert (split["line"], split["new_table"]["session"], split["new_table"]["line"]) == (
        line[:3],
        "late",
        line[3:],
    )
    assert chouette.json("--session", "late", "leave", "fay")["line"] == ["dan", "eve"]
    from db.migrations import LATEST

    assert chouette.json("migrate") == {"schema": LATEST}


def test_undo_pay_and_check_report_in_json(chouette):
    chouette("new", "fri", "ann", "bob")
    chouette("end", "team")
    assert chouette.json("pay", "ann", "bob", "1", "--advance") == {
        "session": "fri",
        "payer": "ann",
        "payee": "bob",
        "cents": 100,
        "note": "",
        "advance_cents": 0,
    }
    assert chouette.json("undo") == {
        "session": "fri",
        "undone": "payment",
        "text": "took back the payment: ann paid bob 1.00",
    }
    assert chouette.json("check") == {
        "ok": True,
        "problems": [],
        "notes": [],
        "sessions": 1,
        "games": 1,
        "bookings": 2,
    }


def test_a_damaged_ledgers_check_in_json_lists_the_problems_and_exits_1(chouette, ledger_file):
    import sqlite3

    chouette("new", "fri", "ann", "bob")
    chouette("end", "team")
    with sqlite3.connect(ledger_file) as db:
        db.execute("UPDATE booking SET cents = cents + 1 WHERE player = 'ann'")
    found = json.loads(chouette("check", "--json", code=1).stdout)
    assert found["ok"] is False and found["problems"]


def test_an_import_in_json_says_what_it_booked(chouette):
    chouette("new", "money", "gnubgA", "gnubgB")
    path = SAMPLES / "s05_money_nocube.mat"
    first = chouette.json("import", str(path))
    assert [(f["file"], f["booked"], f["already_in_ledger"]) for f in first] == [
        (path.name, first[0]["booked"], 0)
    ]
    assert first[0]["booked"] > 0 and sum(first[0]["cents"].values()) == 0
    again = chouette.json("import", str(path))
    assert again[0]["booked"] == 0
    assert again[0]["imported_before"]["file"] == path.name


def test_notes_are_on_stderr_and_data_on_stdout(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "eve", "fay", "--split-at", "5")
    joined = chouette("join", "gus")
    assert joined.stdout == "gus joins. Line: ann | bob, cat, dan, eve, fay, gus\n"
    assert joined.stderr.startswith("Note: 7 play in the line, past the house's split-at 5")
