"""Table stakes through the commands (``new --table-stakes``, ``chouette bank``, the preset
``florida-challenge``): the banks on the line and in ``status --json``, a capped game booked
and explained, ``bank`` undone and made again by a correction, refusals that write nothing."""

from __future__ import annotations

import json

import pytest

from tests.ledger.test_undo import reports


def all_in_evening(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--table-stakes", "3")
    chouette("double", "bob", "cat", "dan")
    chouette("take", "--all")
    return chouette("end", "team", "--gammon").stdout


def test_a_box_all_in_is_booked_at_its_bank_and_sits_out(chouette):
    said = all_in_evening(chouette)
    assert "ann, the box, owes 12 but has 3 left in the bank and took 0: all in" in said
    assert "Next line: bob | cat, dan  (sitting out: ann)  (banks: bob 4, cat 4, dan 4, ann 0)" in (
        said
    )
    status = chouette.json("status")
    assert status["banks"] == {"ann": 0, "bob": 4, "cat": 4, "dan": 4}
    assert status["sitting_out"] == ["ann"]
    settle = chouette("settle").stdout.splitlines()
    assert [line.split() for line in settle[2:5]] == [
        ["ann", "bob", "1.00"], ["ann", "cat", "1.00"], ["ann", "dan", "1.00"],
    ]  # fmt: skip
    chouette("check")


def test_a_re_entry_puts_a_player_back_and_undo_takes_it_back(chouette):
    all_in_evening(chouette)
    before = reports(chouette)
    assert chouette("bank", "ANN", "3").stdout == (
        "ann's bank is 3. Line: bob | cat, dan, ann  (banks: bob 4, cat 4, dan 4, ann 3)\n"
    )
    chouette("undo")
    assert reports(chouette) == before


@pytest.mark.parametrize(
    ("options", "args", "message"),
    [
        ((), ("ann", "5"), "this session has no table stakes"),
        (("--table-stakes", "3"), ("zed", "5"), "zed has not played in this session"),
        (("--table-stakes", "3"), ("ann", "3"), "ann's bank is 3 already"),
    ],
)
def test_a_bank_that_cannot_be_set_is_refused_and_nothing_written(chouette, options, args, message):
    chouette("new", "fri", "ann", "bob", "cat", *options)
    before = reports(chouette)
    assert message in chouette("bank", *args, code=1).stderr
    assert reports(chouette) == before


def test_the_florida_preset_plays_table_stakes_of_fifty(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--rules", "florida-challenge")
    assert chouette.json("status")["banks"] == {"ann": 50, "bob": 50, "cat": 50}
    assert "Each player starts with a bank of 50 points" in chouette("rules").stdout


def test_under_table_stakes_the_bank_is_the_credit(chouette):
    chouette("new", "fri", "ann", "bob", "cat", "--table-stakes", "3")
    refused = chouette("credit", "bob", "5", code=1).stderr
    assert "under table stakes a player's bank is their credit" in refused


def broke_then_back(chouette):
    """ann, the box, goes all in on game 1 and buys back in for 1 point; game 2 is played."""
    all_in_evening(chouette)
    chouette("bank", "ann", "1")
    chouette("end", "team", "--gammon")


def test_a_correction_that_changes_a_bank_before_a_re_entry_is_refused(chouette):
    broke_then_back(chouette)
    before = reports(chouette)
    refused = chouette("amend", "1", "--result", "box", "--note", "the box won", code=1).stderr
    assert "'ann's bank is 1' (before game 2) was set on ann's bank of 0" in refused
    assert reports(chouette) == before


def test_engine_games_are_not_imported_into_table_stakes_or_an_ended_session(chouette, tmp_path):
    from tests.ledger.test_undo import NEUTRAL

    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({**NEUTRAL, "session": "fri", "game": 1}) + "\n")
    chouette("new", "fri", "ann", "bob", "cat", "--table-stakes", "3")
    before = reports(chouette)
    refused = chouette("import", str(path), code=1).stderr
    assert "fri plays table stakes: an engine game would move no bank" in refused
    assert reports(chouette) == before
    chouette("new", "sat", "ann", "bob", "--rounds", "1")
    chouette("end", "box")
    path.write_text(json.dumps({**NEUTRAL, "session": "sat", "game": 1}) + "\n")
    assert "the session has ended after game 1" in chouette("import", str(path), code=1).stderr


def test_a_correction_is_undone_after_another_table_took_its_freed_ids(chouette):
    chouette("new", "t", "ann", "bob", "cat", "dan", "--table-stakes", "3", "--no-jacoby")
    chouette("end", "box")
    chouette("end", "box")
    chouette("new", "u", "eve", "fay")
    chouette("--session", "t", "amend", "1", "--result", "team", "gammon", "--note", "x")
    chouette("--session", "u", "end", "team")
    before = chouette("--session", "t", "sheet", "--json").stdout
    chouette("--session", "t", "undo")
    assert chouette("--session", "t", "sheet", "--json").stdout != before
    assert chouette("check").stdout.startswith("The ledger is consistent")


def test_a_game_nobody_can_box_is_refused_before_it_starts(chouette):
    """Issue 34: with nobody able to cover the box's starting cube, the box was seated anyway
    and a member who won was paid 0; the first event of such a game is refused."""
    chouette("new", "fri", "ann", "bob", "cat", "--table-stakes", "2")
    chouette("join", "dan")  # three members now, every bank 2
    before = reports(chouette)
    done = chouette("double", "bob", code=1)
    assert done.stderr == (
        "Error: under table stakes nobody seated can cover the box's starting cube against 3 "
        "members (3 points; banks: ann 2, bob 2, cat 2, dan 2): give one of them a bank of 3 "
        "or more (chouette bank NAME 3) or sit a player out before the game starts\n"
    )
    assert chouette("end", "team", code=1).stderr == done.stderr
    assert reports(chouette) == before
    chouette("bank", "cat", "3")  # cat can cover: cat moves up to the box
    assert "Game 1: the box, cat, doubles bob." in chouette("double", "bob").stdout


def test_new_warns_of_banks_too_small_for_its_line(chouette):
    done = chouette("new", "fri", "ann", "bob", "cat", "dan", "--table-stakes", "2")
    assert done.stderr == (
        "Warning: under table stakes nobody seated can cover the box's starting cube against "
        "3 members (3 points; banks: ann 2, bob 2, cat 2, dan 2): give one of them a bank of 3 "
        "or more (chouette bank NAME 3) or sit a player out before the game starts\n"
    )
    chouette("sit-out", "dan")
    chouette("double", "bob")  # two members: ann covers them
