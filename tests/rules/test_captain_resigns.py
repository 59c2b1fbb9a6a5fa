"""House rule ``captain-resigns takeover`` (seed 001, the Czech rules: "if the captain decides
to resign the game, another team member may take over his place"): the captain resigns their
own game at a level and goes to the bottom of the line; the member named takes over the
captain's place, plays the board on, and their result is the captain's for the rotation."""

from __future__ import annotations

import pytest

from chouette.errors import RuleError
from chouette.game import Answer, CaptainResign, Double, End, replay
from chouette.line import new_line
from chouette.outcome import settle_game
from chouette.rules import HouseRules

CZECH = HouseRules(captain_resigns="takeover")
LINE = new_line(("ann", "bob", "cat", "dan"), CZECH)
STAKES = dict.fromkeys(("ann", "bob", "cat", "dan"), 100)


def test_the_worked_example_a_captain_resigns_a_gammon_and_dan_takes_over():
    """ann is the box; bob, cat and dan take her double to 2. bob, the captain, resigns a
    gammon: -4 for bob, who goes to the bottom of the line; dan takes over the captain's
    place and the team wins a single: +2 each for cat and dan, and dan, now the captain, beat
    the box: dan takes it; ann goes to the bottom."""
    game = replay(
        LINE,
        CZECH,
        (Double("box", ("bob", "cat", "dan")), Answer("take", "bob"), Answer("take", "cat"),
         Answer("take", "dan"), CaptainResign("gammon", "dan"), End("team")),
    )  # fmt: skip
    outcome = settle_game(game, STAKES)
    assert outcome.pairs == {"bob": -4, "cat": 2, "dan": 2}
    assert outcome.cents == {"ann": 0, "bob": -400, "cat": 200, "dan": 200}
    assert outcome.next_line.order == ("dan", "cat", "bob", "ann")
    assert str(outcome.why[0]) == (
        "bob, the captain, resigns a gammon (-4): dan takes over the captain's place and bob "
        "goes to the bottom of the line (captain-resigns takeover)"
    )
    assert "box goes: captain rule, dan (the captain by takeover) beat the box (+2)" in (
        tuple(map(str, outcome.why))
    )


def test_the_box_stays_when_the_member_who_took_over_loses():
    game = replay(LINE, CZECH, (CaptainResign("single", "cat"), End("box")))
    outcome = settle_game(game, STAKES)
    assert outcome.pairs == {"bob": -1, "cat": -1, "dan": -1}
    assert outcome.next_line.order == ("ann", "dan", "bob", "cat")  # cat lost as captain


def test_jacoby_counts_a_resigned_gammon_on_a_centred_cube_single():
    game = replay(LINE, CZECH, (CaptainResign("gammon", "cat"),))
    assert game.cubes["bob"].result == -1 and game.acting_captain == "cat"


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ((CaptainResign("single", "bob"),), "bob is the captain: name the member who takes"),
        ((CaptainResign("single", "ann"),), "ann is the box"),
        ((CaptainResign("single", "zed"),), "zed is not playing this game"),
        ((Double("box", ("cat",)), Answer("drop", "cat"), CaptainResign("single", "cat")),
         "cat is already out of this game"),
        ((Double("box", ("bob",)), CaptainResign("single", "cat")),
         "bob, the captain, has a decision pending"),
    ],
)  # fmt: skip
def test_what_the_rule_does_not_allow_is_refused(events, message):
    with pytest.raises(RuleError, match=message):
        replay(LINE, CZECH, events)


def test_without_the_house_rule_the_captains_resignation_is_the_boards():
    with pytest.raises(RuleError, match="the house rule --captain-resigns takeover"):
        replay(new_line(("ann", "bob", "cat"), HouseRules()), HouseRules(),
               (CaptainResign("single", "cat"),))  # fmt: skip


def test_the_rule_is_on_the_card_in_json_and_stored_rules_without_it_read_as_before():
    assert CZECH.to_dict()["captain-resigns"] == "takeover"
    assert "captain-resigns" not in HouseRules().to_dict()  # old sessions digest as they did
    assert HouseRules.from_dict(CZECH.to_dict()) == CZECH
    assert CZECH.summary() == "captain-resigns takeover"
