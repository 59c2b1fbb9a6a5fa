"""Corrections (chouette/amend.py), pure: the amended end, the games after it played again on
the line it leaves, the changes of the line made again, and the first game that breaks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chouette.amend import (
    AmendRefused,
    Correction,
    GameStep,
    SeatStep,
    amended_events,
    parse_cubes,
    play_again,
)
from chouette.errors import RuleError
from chouette.game import Answer, CubeFix, Double, End, replay
from chouette.line import new_line, set_bank, sit_out
from chouette.outcome import settle_game
from chouette.rules import HouseRules
from files.words import words

RULES = HouseRules()
PLAYERS = ("ann", "bob", "cat", "dan")


def stakes(players):
    return dict.fromkeys(players, 100)


def test_the_end_is_replaced_and_nothing_else():
    events = (Double("box", ("bob",)), Answer("take", "bob"), End("box"))
    assert amended_events(events, End("team", "gammon"), {}, 3) == (
        Double("box", ("bob",)),
        Answer("take", "bob"),
        End("team", "gammon"),
    )


def test_a_game_that_did_not_end_on_the_board_has_no_result_to_amend():
    events = (Double("box", ("bob", "cat", "dan")), Answer("drop", "bob"))
    with pytest.raises(RuleError, match="game 2 did not end on the board"):
        amended_events(events, End("team"), {}, 2)


def test_the_same_end_again_is_no_correction():
    with pytest.raises(RuleError, match=r"game 1 already ended so \(box single\)"):
        amended_events((End("box"),), End("box"), {}, 1)


def test_later_games_follow_the_rotation_the_correction_gives():
    line = new_line(PLAYERS, RULES)
    first = GameStep(1, (End("team"),), line)  # corrected: the box lost, bob takes it
    stored_second = settle_game(replay(line, RULES, (End("box"),)), stakes(PLAYERS)).next_line
    second = GameStep(2, (End("box"),), stored_second)
    played, after = play_again([first, second], RULES, stakes)
    assert [p.line_before.box for p in played] == ["ann", "bob"]
    fresh = replay(played[0].outcome.next_line, RULES, (End("box"),))
    assert played[1].outcome == settle_game(fresh, stakes(PLAYERS))
    assert after == played[1].outcome.next_line


def test_a_later_event_that_no_longer_fits_names_its_game():
    line = new_line(PLAYERS, RULES)
    stored_second = settle_game(replay(line, RULES, (End("box"),)), stakes(PLAYERS)).next_line
    # in game 2 as played, bob (a member then) doubled the box; corrected, bob is the box
    second = GameStep(2, (Double("member", ("bob",)), Answer("take", "bob"), End("box")),
                      stored_second)  # fmt: skip
    with pytest.raises(AmendRefused, match="game 2 no longer fits the line") as refused:
        play_again([GameStep(1, (End("team"),), line), second], RULES, stakes)
    assert refused.value.number == 2


def test_a_change_of_the_line_is_made_again_on_the_new_line():
    line = new_line(PLAYERS, RULES)
    as_played = settle_game(replay(line, RULES, (End("box"),)), stakes(PLAYERS)).next_line
    out = sit_out(as_played, "cat", RULES)
    steps = [
        GameStep(1, (End("team"),), line),
        SeatStep("cat sits out", as_played, out, ("sit-out", "cat"), 2),
        GameStep(2, (End("box"),), out),
    ]
    played, _ = play_again(steps, RULES, stakes)
    assert played[1].line_before.sitting_out == {"cat"}
    assert played[1].line_before.box == "bob"  # the corrected rotation, cat still out


def test_a_change_an_older_chouette_did_not_note_is_refused_on_a_new_line():
    line = new_line(PLAYERS, RULES)
    as_played = settle_game(replay(line, RULES, (End("box"),)), stakes(PLAYERS)).next_line
    out = sit_out(as_played, "cat", RULES)
    steps = [
        GameStep(1, (End("team"),), line),
        SeatStep("a change of the line no journal entry notes", as_played, out, None, 2),
        GameStep(2, (End("box"),), out),
    ]
    with pytest.raises(AmendRefused, match="cannot make it again") as refused:
        play_again(steps, RULES, stakes)
    assert refused.value.number == 2
    # the same change on the same line is made as it was
    same = [GameStep(1, (End("box", "gammon"),), line), *steps[1:]]
    played, _ = play_again(same, RULES, stakes)
    assert played[1].line_before == out


def test_a_split_cannot_be_crossed_by_a_new_line():
    line = new_line(PLAYERS, RULES)
    as_played = settle_game(replay(line, RULES, (End("box"),)), stakes(PLAYERS)).next_line
    steps = [
        GameStep(1, (End("team"),), line),
        SeatStep("the split of friday", as_played, as_played, ("split",), 2),
    ]
    with pytest.raises(AmendRefused, match="cannot move players between tables"):
        play_again(steps, RULES, stakes)


def test_a_correction_reads_back_as_written():
    done = Correction(datetime(2026, 11, 26, 20, 5, tzinfo=UTC), End("box"),
                      End("team", "gammon", resigned=True), "ann and bob agree")  # fmt: skip
    assert Correction.from_json(done.to_json()) == done
    assert str(done.text()) == (  # a sentence to say: str() is the English
        "amended 2026-11-26 20:05 UTC: the board's end was box single, is team gammon, "
        "resigned (ann and bob agree)"
    )
    with pytest.raises(TypeError):
        Correction.from_json({**done.to_json(), "was": {"act": "take", "member": "bob"}})


def test_cubes_are_corrected_just_before_the_end_and_a_later_correction_replaces_one():
    events = (Double("box", ("bob", "cat")), Answer("take", "bob"), Answer("take", "cat"),
              End("box"))  # fmt: skip
    once = amended_events(events, None, {"bob": 4}, 1)
    assert once == (*events[:3], CubeFix("bob", 4), End("box"))
    twice = amended_events(once, End("team"), {"cat": 1, "bob": 8}, 1)
    assert twice == (*events[:3], CubeFix("bob", 8), CubeFix("cat", 1), End("team"))
    with pytest.raises(RuleError, match="game 1's cubes are so already"):
        amended_events(once, None, {"bob": 4}, 1)


def test_a_corrected_cube_is_settled_by_the_board_at_its_value():
    line = new_line(PLAYERS, RULES)
    events = (Double("box", ("bob",)), Answer("take", "bob"), CubeFix("bob", 8), End("team"))
    game = replay(line, RULES, events)
    assert game.cubes["bob"].value == 8 and game.pairs["bob"] == 8
    centred = replay(line, RULES, (CubeFix("cat", 1), End("team", "gammon")))
    assert centred.pairs["cat"] == 1  # a cube of 1 is centred: Jacoby counts the gammon single


@pytest.mark.parametrize("second", ["bob=8", "BOB=8", " Bob =4"])
def test_a_member_whose_cube_is_given_twice_is_refused_by_name(second):
    """Issue 34: ``amend --cube bob=4 --cube bob=8`` kept the last, silently."""
    with pytest.raises(RuleError, match=r"'s cube is given twice \(--cube bob=4 and --cube "):
        parse_cubes(["bob=4", second])
    assert parse_cubes(["bob=4", "cat=8"]) == {"bob": 4, "cat": 8}


def test_a_correction_and_its_refusal_are_said_in_the_readers_words():
    done = Correction(datetime(2026, 11, 26, 20, 5, tzinfo=UTC), End("box"),
                      End("team", "gammon", resigned=True), "ann and bob agree",
                      (("bob", 2, 4),))  # fmt: skip
    assert words("da")(done.text()) == (
        "rettet 2026-11-26 20:05 UTC: brættets afslutning var almindelig sejr til boksen, er "
        "gammon til holdet, opgivet; bobs terning var 2, er 4 (ann and bob agree)"
    )
    assert words("cs")(done.said()) == (
        "konec hry na desce byl běžná výhra bankéře, je gammon skupiny, vzdáno; kostka hráče "
        "bob byla 2, je 4"
    )
    with pytest.raises(RuleError) as refused:
        amended_events((End("box"),), End("box"), {}, 3)
    assert words("da")(refused.value.said) == (
        "spil 3 endte allerede sådan (almindelig sejr til boksen): intet at rette"
    )
    assert words("cs")(refused.value.said) == (
        "hra 3 už tak skončila (běžná výhra bankéře): není co opravit"
    )


TABLE_STAKES = HouseRules(table_stakes=2, jacoby=False)


@pytest.mark.parametrize(
    ("corrected", "bank"),
    [((End("box", "gammon"),), 2), ((End("team"),), None)],
    ids=["still busted", "no longer busted"],
)
def test_a_re_entry_is_made_again_only_while_the_corrected_game_empties_the_bank(corrected, bank):
    """An event's re-entry after a game (``reenter``: a fresh bank for an empty one) is made
    again on the corrected line while the corrected game still empties that bank; a
    correction that leaves the player points is refused, naming the re-entry."""
    players = ("ann", "bob", "cat")
    line = new_line(players, TABLE_STAKES)
    played = (Double("box", ("bob",)), Answer("take", "bob"))
    as_played = settle_game(replay(line, TABLE_STAKES, (*played, End("box"))), stakes(players))
    assert as_played.next_line.bank("bob") == 0
    fresh = set_bank(as_played.next_line, "bob", 2, TABLE_STAKES)
    steps = [
        GameStep(1, (*played, *corrected), line),
        SeatStep("bob re-enters cup: a fresh bank of 2", as_played.next_line, fresh,
                 ("reenter", "bob", "2"), 2),
        GameStep(2, (End("box"),), fresh),
    ]  # fmt: skip
    if bank is None:
        with pytest.raises(AmendRefused, match="bob re-entered the event after") as refused:
            play_again(steps, TABLE_STAKES, stakes)
        assert refused.value.number == 2
        return
    again, _ = play_again(steps, TABLE_STAKES, stakes)
    assert again[0].outcome is not None and again[0].outcome.next_line != as_played.next_line
    assert again[1].line_before.bank("bob") == bank
