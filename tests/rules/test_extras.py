"""House rule ``extras`` (RULES.md §5, the club rules): a side bet on the board between two
players, booked at its worth between them alone, as score sheets; and its law."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chouette.errors import RecordError, RuleError
from chouette.game import (
    Extra,
    ExtraAnswer,
    ExtraDouble,
    replay,
    start,
)
from chouette.line import (
    name_proxy,
)
from chouette.outcome import extra_points, settle_game
from chouette.record import parse_record, play_record, to_record
from chouette.rules import HouseRules
from tests.examples import examples
from tests.strategies import games, house_rules
from tests.table import outcome, play, play_on, seats

EXTRAS = HouseRules(extras=True)


# ------------------------------------------------------------ extras

CLASSIC = ["double C M1 M2", "drop M1", "drop M2", "take C", "extra C M1"]


@pytest.mark.parametrize(
    ("ending", "expected"),
    [
        # the dropper who gave the extra breaks even on a box single, wins 2 on a box gammon,
        # loses 4 on a team single and 6 on a team gammon (rec.games.backgammon, "Extras")
        ("end box", {"B": 4, "C": -3, "M1": 0, "M2": -1}),
        ("end box gammon", {"B": 6, "C": -7, "M1": 2, "M2": -1}),
        ("end team", {"B": 0, "C": 5, "M1": -4, "M2": -1}),
        ("end team gammon", {"B": -2, "C": 9, "M1": -6, "M2": -1}),
        ("end box backgammon resigned", {"B": 8, "C": -11, "M1": 4, "M2": -1}),
    ],
)
def test_x1_the_classic_extra_a_dropper_pays_the_taker_a_point_to_hold_a_2_cube(ending, expected):
    game = play("B | C, M1, M2", *CLASSIC, ending, rules=EXTRAS)
    result = outcome(game)
    assert result.points == expected
    assert result.pairs == {  # the pairs with the box are as without the extra
        "C": result.pairs["C"],
        "M1": -1,
        "M2": -1,
    }
    (extra,) = result.extras  # M1 dropped for -1: the rest of M1's result is the extra
    assert (extra.team_side, extra.box_side, extra.points) == ("C", "M1", -(expected["M1"] + 1))


def test_x2_an_extra_counts_gammons_in_full_there_is_no_cube_to_be_centred():
    game = play("B | C, M1", "extra M1 box 1 0", "end team gammon", rules=EXTRAS)
    assert game.extras == (Extra("M1", "B", 1, 0),)  # "box" names the box
    result = outcome(game)
    assert result.pairs == {"C": 1, "M1": 1}  # Jacoby: the centred cubes pay a single
    assert result.points == {"B": -4, "C": 1, "M1": 3}


def test_x3_an_extra_is_paid_at_the_lower_of_its_two_players_stakes():
    game = play("B | C, M1, M2", *CLASSIC, "end box", rules=EXTRAS)
    result = outcome(game, {"B": 400, "C": 100, "M1": 400, "M2": 400})
    # pairs: C -2 at 1.00, M1 -1 and M2 -1 at 4.00; the extra: C pays M1 1 point at 1.00
    assert result.cents == {"B": 1000, "C": -300, "M1": -300, "M2": -400}


def test_x4_an_extra_whose_board_never_ends_is_void_premium_and_all():
    game = play(
        "B | C, M1",
        "double C M1",
        "drop M1",
        "take C",
        "extra C M1",
        "double C --by member",
        "drop C",  # the box refuses C's redouble: every pair is over, the board never ends
        rules=EXTRAS,
    )
    result = outcome(game)
    assert result.points == {"B": -1, "C": 2, "M1": -1}
    assert [(e.points, e.cents) for e in result.extras] == [(0, 0)]
    assert extra_points(game.extras[0], None) == 0


def test_x5_the_box_partner_shares_the_pairs_never_the_extras():
    rules = HouseRules(extras=True, partner_from=4)
    game = play("B+P | C, M1", "double C M1", "drop M1", "take C", "extra C M1", "end box",
                rules=rules)  # fmt: skip
    # the box side wins 3 on the pairs: the partner's half is 1 (toward zero), the box 2
    assert outcome(game).points == {"B": 2, "P": 1, "C": -3, "M1": 0}
    game = play("B+P | C, M1", "extra C P 1 0", "end team", rules=rules)
    assert outcome(game).points == {"B": -1, "P": -2, "C": 2, "M1": 1}


def test_several_extras_of_one_game_are_each_booked():
    game = play("B | C, M1, M2", *CLASSIC, "extra C M2 4", "extra M2 box 1 0", "end team",
                rules=EXTRAS)  # fmt: skip
    result = outcome(game)
    assert [(e.team_side, e.box_side, e.points) for e in result.extras] == [
        ("C", "M1", 3),
        ("C", "M2", 6),
        ("M2", "B", 1),
    ]
    assert result.points == {"B": -1, "C": 11, "M1": -4, "M2": -6}


@pytest.mark.parametrize(
    ("rules", "events", "extra", "message"),
    [
        (HouseRules(), [], "extra C M1", r"extras are off in this session \(house rule --extras\)"),
        (EXTRAS, [], "extra B C", "B is the box: the team side of an extra is a member"),
        (EXTRAS, [], "extra C C", "C cannot give themselves an extra"),
        (EXTRAS, [], "extra C X", "X is not playing this game"),
        (EXTRAS, [], "extra C M1 0 0", "an extra is worth 1 point or more, not 0"),
        (EXTRAS, [], "extra C M1 2 -1", "an extra's premium is 0 or more, not -1"),
        (EXTRAS, ["end box"], "extra C M1", "this game is over"),
    ],
)
def test_an_extra_that_does_not_fit_is_refused_and_changes_nothing(rules, events, extra, message):
    game = play("B | C, M1", *events, rules=rules)
    with pytest.raises(RuleError, match=message):
        play_on(game, extra)


def test_an_extra_with_a_player_away_is_refused():
    line = name_proxy(seats("B | C, M1, M2"), "M2", "C", HouseRules(extras=True, proxies=True))
    game = start(line, HouseRules(extras=True, proxies=True))
    with pytest.raises(RuleError, match="M2 is away: an extra is a bet between players at the"):
        play_on(game, "extra C M2")


def test_an_extra_does_not_stop_an_automatic_double_or_a_captains_beaver():
    rules = HouseRules(extras=True, auto_doubles=1)
    game = play("B | C, M1", "extra C M1", "auto", rules=rules)
    assert game.cubes["C"].value == 2
    single = HouseRules(extras=True, cubes="single")
    game = play("B | C, M1", "double", "take M1", "take C", "extra C M1", "beaver C",
                rules=single)  # fmt: skip
    assert {m: (c.value, c.offer and c.offer.stage) for m, c in game.cubes.items()} == {
        "C": (2, "beaver"),  # the captain's beaver covers M1, who took: the box to answer
        "M1": (2, "beaver"),
    }


def test_an_extra_round_trips_through_the_chouette_record():
    game = play("B | C, M1, M2", *CLASSIC, "extra M2 box 1 0", "end team", rules=EXTRAS)
    record = to_record(game, "friday")
    assert record["events"][-2:] == [
        {"act": "extra", "team_side": "C", "box_side": "M1", "points": 2, "premium": 1},
        {"act": "extra", "team_side": "M2", "box_side": "B", "points": 1, "premium": 0},
    ]
    again, _ = play_record(parse_record(record), seats("B | C, M1, M2"), EXTRAS)
    assert again == game


def test_a_record_may_name_the_box_and_leave_out_the_premium():
    record = parse_record(
        {
            "events": [{"act": "extra", "team_side": "C", "box_side": "box", "points": 4}],
            "result": {"winner": "team"},
        }
    )
    game, _ = play_record(record, seats("B | C, M1"), EXTRAS)
    assert game.extras == (Extra("C", "B", 4, 2),)
    assert outcome(game).points == {"B": -8, "C": 7, "M1": 1}


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"act": "extra", "box_side": "M1"}, "extra needs a 'team_side'"),
        ({"act": "extra", "team_side": "C", "box_side": "M1", "points": 1.5},
         "extra 'points' must be a whole number"),
        ({"act": "extra", "team_side": "C", "box_side": "M1", "odds": 2}, "unknown key 'odds'"),
        # found by the fuzzer: a null points gave an internal error (KeyError)
        ({"act": "extra", "team_side": "C", "box_side": "M1", "points": None},
         "extra 'points' must be a whole number"),
    ],
)  # fmt: skip
def test_a_record_with_a_malformed_extra_is_refused(event, message):
    with pytest.raises(RecordError, match=message):
        parse_record({"events": [event]})


# ------------------------------------------------------------ the laws of extras


@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_an_extra_moves_money_only_between_its_two_players_by_its_worth(data):
    """A law: the game settled with its extras differs from the same game without them by
    each extra's worth (premium and points × the board's level, at the pair's stake), paid
    between its two players; the pairs with the box and the next line do not change."""
    rules = replace(data.draw(house_rules()), extras=True, table_stakes=None)
    line, rules, game, _ = data.draw(games(rules=rules, with_extra=True))
    assume(game.extras)  # (none legal: every member away, say)
    stakes = {p: data.draw(st.integers(1, 500), label=f"stake {p}") for p in game.players}
    extra_events = (Extra, ExtraDouble, ExtraAnswer)  # the extras, and their redoubles
    plain = replay(line, rules, [e for e in game.events if not isinstance(e, extra_events)])
    with_extras, without = settle_game(game, stakes), settle_game(plain, stakes)
    assert with_extras.pairs == without.pairs and with_extras.next_line == without.next_line
    moved = {p: with_extras.cents[p] - without.cents[p] for p in game.players}
    owed = dict.fromkeys(game.players, 0)
    for extra, cube, booked in zip(game.extras, game.extra_cubes, with_extras.extras, strict=True):
        worth = extra_points(extra, game.result, cube)
        cents = worth * min(stakes[extra.team_side], stakes[extra.box_side])
        assert (booked.points, booked.cents) == (worth, cents)
        owed[extra.team_side] += cents
        owed[extra.box_side] -= cents
    assert moved == owed
    assert sum(with_extras.points.values()) == 0 and sum(with_extras.cents.values()) == 0
