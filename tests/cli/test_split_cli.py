"""``chouette split`` (house rule ``split-at``) through the commands: a new table from the
bottom of the line, taken back by undo at either table while nothing happened since."""

from __future__ import annotations

import pytest

from tests.dump import dump
from tests.ledger.test_undo import reports

pytestmark = pytest.mark.backends("sqlite", "postgres")


# ------------------------------------------------------------ splitting a table


def big_evening(chouette, *options: str) -> None:
    chouette("new", "fri", "ann", "bob", "cat", "dan", "eve", "fay", "--stake", "2",
             "--player-stake", "fay=0.50", "--split-at", "6", *options)  # fmt: skip
    chouette("end", "team")  # bob takes the box: bob | cat, dan, eve, fay, ann


def test_a_split_forms_a_new_table_from_the_bottom_of_the_line(chouette):
    big_evening(chouette)
    joined = chouette("join", "gus")
    assert joined.stdout == "gus joins. Line: bob | cat, dan, eve, fay, ann, gus\n"
    assert joined.stderr == (
        "Note: 7 play in the line, past the house's split-at 6: `chouette split NAME` moves the "
        "bottom 3 to a new table.\n"
    )
    before = chouette.json("standings")
    assert chouette("split", "fri-2").stdout == (
        "Split fri: fay, ann, gus form fri-2 (stake 2.00 a point; split-at 6).\n"
        "fri: bob | cat, dan, eve\n"
        "fri-2: fay | ann, gus\n"
        "Balances stay where they were earned; play the new table with --session fri-2.\n"
    )
    # fay's and ann's balances stay in fri; gus, who never played there, is listed no more
    moved = [p for p in before["players"] if p["name"] != "gus"]
    assert chouette.json("standings")["players"] == moved
    assert chouette.json("--session", "fri-2", "standings")["players"] == [
        {"name": n, "points": 0, "cents": 0, "table_cents": 0, "paid_cents": 0}
        for n in ("fay", "ann", "gus")
    ]
    chouette("--session", "fri-2", "end", "box")  # fay's box beats ann and gus at fay's 0.50
    assert chouette.json("--session", "fri-2", "standings")["players"] == [
        {"name": "fay", "points": 2, "cents": 100, "table_cents": 100, "paid_cents": 0},
        {"name": "ann", "points": -1, "cents": -50, "table_cents": -50, "paid_cents": 0},
        {"name": "gus", "points": -1, "cents": -50, "table_cents": -50, "paid_cents": 0},
    ]
    assert chouette.json("--session", "fri", "status")["line"] == ["bob", "cat", "dan", "eve"]
    assert chouette("check").stdout.startswith("The ledger is consistent")


def test_undo_takes_a_split_back_at_either_table_while_nothing_happened_since(chouette):
    big_evening(chouette)
    before = {"fri": reports(chouette), "sessions": chouette.json("sessions")}
    chouette("split", "fri-2")
    assert chouette("undo").stdout == (
        "Undone: took back the split of fri: eve, fay, ann to fri-2.\n"
    )
    assert {"fri": reports(chouette), "sessions": chouette.json("sessions")} == before
    chouette("split", "fri-2")
    assert chouette("--session", "fri-2", "undo").stdout == (
        "Undone: took back the split of fri: eve, fay, ann to fri-2.\n"
    )
    assert {"fri": reports(chouette), "sessions": chouette.json("sessions")} == before


def test_undo_of_a_split_is_refused_once_either_table_has_played(chouette, ledger_url):
    big_evening(chouette)
    chouette("split", "fri-2")
    chouette("--session", "fri-2", "end", "box")
    before = dump(ledger_url)
    assert chouette("--session", "fri", "undo", code=1).stderr == (
        "Error: the split cannot be taken back: something was done at fri-2 since (undo that "
        "first: chouette --session fri-2 undo)\n"
    )
    assert dump(ledger_url) == before
    chouette("--session", "fri-2", "undo")  # the game at the new table
    chouette("--session", "fri", "end", "box")
    assert chouette("--session", "fri-2", "undo", code=1).stderr == (
        "Error: the split cannot be taken back: something was done at fri since (undo that "
        "first: chouette --session fri undo)\n"
    )
    chouette("--session", "fri", "undo")
    chouette("--session", "fri-2", "undo")
    assert [s["name"] for s in chouette.json("sessions")["sessions"]] == ["fri"]


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ([("double", "cat")], "game 2 is in progress: change the line after it ends"),
        ([("leave", "fay")], "a split needs 6 players in the line (two tables of at least 3): "
                             "5 play now"),
        ([("new", "fri-2", "x", "y")], "there is already a session called fri-2"),
    ],
)  # fmt: skip
def test_a_split_that_cannot_be_made_is_refused_and_writes_nothing(
    chouette, ledger_url, setup, message
):
    big_evening(chouette)
    for command in setup:
        chouette(*command)
    before = dump(ledger_url)
    assert chouette("--session", "fri", "split", "fri-2", code=1).stderr == f"Error: {message}\n"
    assert dump(ledger_url) == before
