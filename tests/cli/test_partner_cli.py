"""The box's partner through the commands: ``chouette partner`` (``partner-pick box``,
``partner-optional``) and ``chouette buy-out`` (``buy-outs``), on the sheet, in the JSON,
undone, corrected, exported, and refused with nothing written."""

from __future__ import annotations

import pytest

from tests.ledger.test_undo import reports

SIX = ("ann", "bob", "cat", "dan", "eve", "fay")


def test_the_box_names_its_partner_and_undo_takes_it_back(chouette):
    chouette("new", "fri", *SIX, "--partner-from", "6", "--partner-pick", "box")
    before = reports(chouette)
    assert chouette("partner", "DAN").stdout == (
        "dan is ann's partner. Line: ann+dan | bob, cat, eve, fay\n"
    )
    assert chouette.json("status")["partner"] == "dan"
    assert "Box's partner: dan" in chouette("status").stdout
    assert chouette("log").stdout.splitlines()[2].endswith("dan is ann's partner")
    assert chouette("partner", "eve").stdout == (
        "eve is ann's partner. Line: ann+eve | bob, cat, dan, fay\n"
        "dan is no longer the box's partner: ann named eve instead; dan plays on the team "
        "again.\n"
    )
    chouette("undo")
    assert chouette("undo").stdout == (
        "Undone: took back dan is ann's partner.\n"
        "dan is no longer the box's partner: undo put the line back as it was; dan plays on "
        "the team again.\n"
    )
    assert reports(chouette) == before


@pytest.mark.parametrize(
    ("options", "args", "code", "message"),
    [
        ((), ("dan",), 1, "this session has no box partners (house rule --partner-from N)"),
        (("--partner-from", "6"), ("--none",), 1, "a partner is not optional in this session"),
        (("--partner-from", "6", "--partner-pick", "box"), ("bob",), 1, "bob is the captain"),
        (("--partner-from", "6", "--partner-pick", "box"), ("zed",), 1, "zed is not in the line"),
        (("--partner-from", "6", "--partner-pick", "box"), (), 2, "give NAME, or --none"),
        (("--partner-from", "6", "--partner-pick", "box"), ("dan", "--none"), 2, "not both"),
    ],
)
def test_a_partner_that_cannot_be_named_is_refused_and_nothing_written(
    chouette, options, args, code, message
):
    chouette("new", "fri", *SIX, *options)
    before = reports(chouette)
    assert message in chouette("partner", *args, code=code).stderr
    assert reports(chouette) == before


def test_an_optional_partner_declined_and_the_rules_card_says_so(chouette):
    chouette("new", "fri", *SIX, "--rules", "colorado")
    assert chouette.json("status")["partner"] == "fay"  # Colorado invites the last first
    assert chouette("partner", "--none").stdout == (
        "ann plays alone. Line: ann | bob, cat, dan, eve, fay\n"
        "fay is no longer the box's partner: ann plays alone; fay plays on the team again.\n"
    )
    card = chouette("rules").stdout
    assert "The box may decline the partner and play alone for its run." in card
    assert "rolled with two dice each, a double counting twice" in card
    chouette("end", "box")
    assert chouette.json("status")["partner"] is None  # the box's run goes on alone


def test_a_buy_out_is_booked_and_explained_and_survives_an_export(chouette, tmp_path, monkeypatch):
    chouette("new", "fri", *SIX, "--partner-from", "6", "--buy-outs")
    said = chouette("buy-out").stdout
    assert said.startswith("Game 1: the box, ann, buys its partner, cat, out of the live cubes.")
    assert chouette.json("status")["game"]["bought_out"] == {
        "bob": 1, "dan": 1, "eve": 1, "fay": 1,
    }  # fmt: skip
    chouette("end", "box")
    standings = chouette.json("standings")
    points = {row["name"]: row["points"] for row in standings["players"]}
    assert points == {"ann": 2, "cat": 2, "bob": -1, "dan": -1, "eve": -1, "fay": -1}
    why = chouette("game", "1").stdout
    assert "cat, the box's partner, was bought out of" in why
    chouette("check")
    before = {k: v for k, v in reports(chouette).items() if k != "log"}  # (undo's, not kept)
    chouette("export", str(tmp_path / "fri.jsonl"))
    monkeypatch.setenv("CHOUETTE_DB", str(tmp_path / "copy.db"))
    chouette("import", str(tmp_path / "fri.jsonl"))
    assert {k: v for k, v in reports(chouette).items() if k != "log"} == before
    assert "cat, the box's partner, was bought out of" in chouette("game", "1").stdout


def test_a_partner_change_is_made_again_when_an_earlier_game_is_corrected(chouette):
    chouette("new", "fri", *SIX, "--partner-from", "6", "--partner-pick", "box")
    chouette("end", "box")  # ann keeps the box
    chouette("partner", "eve")
    chouette("end", "box")
    chouette("amend", "1", "--result", "box", "gammon", "--note", "it was a gammon")
    assert chouette.json("status")["partner"] == "eve"


def test_a_partnership_is_announced_as_a_session_begins_splits_and_is_corrected(chouette):
    said = chouette("new", "fri", "ann", "bob", "cat", "dan", "eve", "--partner-from", "5")
    assert said.stdout.endswith(
        "Line: ann+cat | bob, dan, eve\n"
        "cat becomes the box's partner: 5 seated, a partner from 5 (the next after the box).\n"
    )
    chouette("end", "team")  # bob+dan | cat, eve, ann
    amended = chouette("amend", "1", "--result", "box", "--note", "the box won").stdout
    assert (
        "Line now: ann+cat | dan, eve, bob\n"
        "dan is no longer the box's partner: the correction of game 1 changed the line.\n"
        "cat becomes the box's partner: the correction of game 1 changed the line.\n"
    ) in amended
    assert chouette("undo").stdout.splitlines()[1:] == [
        "cat is no longer the box's partner: undo put the line back as it was.",
        "dan becomes the box's partner: undo put the line back as it was.",
    ]
    chouette("new", "sat", *SIX, "--partner-from", "3")
    split = chouette("split", "sat-2").stdout.splitlines()
    assert split[-3:] == [
        "sat-2: dan+fay | eve",
        "fay becomes the box's partner: 3 seated, a partner from 3 (the next after the box).",
        "Balances stay where they were earned; play the new table with --session sat-2.",
    ]
