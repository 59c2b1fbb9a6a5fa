"""The reasons through the commands: a stored game replays its reasons everywhere (the
command's words, ``game N``, the sheet, JSON, and a record booked again)."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.backends("sqlite", "postgres")


def test_a_stored_game_replays_its_reasons_everywhere(chouette, tmp_path):
    chouette("new", "fri", "ann", "bob", "cat", "dan", "--acting-captain", "inherit")
    chouette("double", "bob", "cat")
    assert "Why:" not in chouette("drop", "bob").stdout  # (the seat passes once cat answers)
    said = chouette("take", "cat").stdout
    assert said.endswith(
        "Why: the captain, bob, is out (bob dropped): cat is acting captain and takes the "
        "captain's seat (acting-captain inherit); bob, who lost, goes to the bottom of the line "
        "at once.\n"
    )
    in_play = chouette.json("game", "1")
    assert in_play["why"] == [
        "the captain, bob, is out (bob dropped): cat is acting captain and takes the captain's "
        "seat (acting-captain inherit); bob, who lost, goes to the bottom of the line at once"
    ]
    assert chouette.json("status")["game"] is not None
    booked = chouette.json("end", "team", "--gammon")
    why = [
        *in_play["why"],
        "the gammon counts single for dan: Jacoby, dan's cube centred",
        "the gammon counts in full for cat: cat's cube was turned (Jacoby)",
        "box goes: captain rule, cat (the captain by inherit) beat the box (+4)",
        "cat takes the box; ann goes to the bottom of the line",
    ]
    assert booked["why"] == why
    assert chouette.json("game", "1")["why"] == why
    shown = chouette("game", "1").stdout
    assert "Why:\n" + "".join(f"  {w}\n" for w in why) in shown
    assert chouette.json("sheet")["games"][0]["why"] == why
    sheet = chouette("sheet").stdout.splitlines()
    at = sheet.index("Why (the rules that decided each game):")
    assert sheet[at + 1 : at + 1 + len(why)] == [
        ("  game 1: " if i == 0 else " " * 10) + w for i, w in enumerate(why)
    ]
    # a game's record with its reasons books the same game, the reasons decided again
    record = chouette.json("game", "1")
    del record["session"]
    chouette("new", "sat", "ann", "bob", "cat", "dan", "--acting-captain", "inherit")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert chouette.json("record", str(path))["why"] == why
