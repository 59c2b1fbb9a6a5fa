"""The club rules of issue 13 as score sheets: extras, the consultation rule, proxies and
splitting a table. Seats and events in, points, money and lines out; every game is checked
to sum to zero (``tests.table.outcome``). Where a law exists, Hypothesis tries it."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError, LineError, RecordError, RuleError
from chouette.game import (
    Answer,
    Cube,
    Double,
    Extra,
    ExtraAnswer,
    ExtraDouble,
    apply,
    replay,
    start,
)
from chouette.line import (
    FOLLOWS,
    Line,
    join,
    line_notes,
    name_proxy,
    new_line,
    split,
    split_due,
    withdraw_proxy,
)
from chouette.outcome import extra_points, settle_game
from chouette.record import parse_record, play_record, to_record
from chouette.rules import HouseRules
from tests.examples import examples
from tests.strategies import games, house_rules, lines
from tests.table import outcome, play, play_on, seats, show

EXTRAS = HouseRules(extras=True)
PROXIES = HouseRules(proxies=True)

# ------------------------------------------------------------ the house rules


def test_the_club_rules_default_to_what_chouette_did_before():
    rules = HouseRules()
    assert (rules.extras, rules.consultation, rules.proxies, rules.split_at) == (
        False,
        "free",
        False,
        None,
    )
    assert rules.summary() == "standard rules"
    new = ("extras", "consultation", "proxies", "split-at")
    stored = {k: v for k, v in rules.to_dict().items() if k not in new}
    assert HouseRules.from_dict(stored) == rules  # a session stored before them


def test_the_club_rules_are_stored_and_described():
    rules = HouseRules(extras=True, consultation="no-cube-no-talk", proxies=True, split_at=8)
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert rules.to_dict()["split-at"] == 8 and rules.to_dict()["consultation"] == "no-cube-no-talk"
    described = dict(rules.describe())
    assert [described[k] for k in ("extras", "consultation", "proxies", "split-at")] == [
        "on",
        "no-cube-no-talk",
        "on",
        "8",
    ]
    assert dict(HouseRules().describe())["split-at"] == "off"
    assert rules.summary() == "extras on, consultation no-cube-no-talk, proxies on, split-at 8"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"consultation": "whisper"}, "consultation must be one of free, no-cube-no-talk, none"),
        ({"split_at": 4}, "split-at must be 5 or more"),
    ],
)
def test_a_club_rule_out_of_its_values_is_refused(options, message):
    with pytest.raises(ChouetteError, match=message):
        HouseRules(**options)


@pytest.mark.parametrize("consultation", ["free", "no-cube-no-talk", "none"])
def test_the_consultation_rule_changes_nothing_the_scorer_books(consultation):
    rules = HouseRules(consultation=consultation)
    game = play("B | C, M1, M2", "double C M1", "take C", "drop M1", "end box gammon", rules=rules)
    assert outcome(game).points == {"B": 6, "C": -4, "M1": -1, "M2": -1}


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
    line, rules, game, _ = data.draw(games(rules=rules))
    assume(game.extras)
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


# ------------------------------------------------------------ proxies: a cube that follows


def away(text: str, *who: tuple[str, str | None], rules: HouseRules = PROXIES) -> Line:
    """Seats with players away: ``("F", FOLLOWS)`` or ``("M1", "C")``."""
    line = seats(text, rules)
    for member, proxy in who:
        line = name_proxy(line, member, proxy, rules)
    return line


def test_p1_the_box_doubling_the_captain_doubles_a_cube_that_follows_and_it_answers_alike():
    line = away("B | C, M1, F", ("F", FOLLOWS))
    game = play(line, "double C M1", rules=PROXIES)
    assert {m: c.offer is not None for m, c in game.cubes.items()} == {
        "C": True,
        "M1": True,
        "F": True,
    }
    game = play_on(game, "take M1", "beaver C")  # F beavers with C: cube 4, F owns it
    assert (game.cubes["F"].value, game.cubes["F"].owner) == (2, "member")
    assert game.cubes["F"].offer is not None and game.cubes["F"].offer.stage == "beaver"
    # the box answers every pair on its own: it takes C's beaver and refuses F's (F wins 2)
    game = play_on(game, "take C", "drop F", "end box")
    result = outcome(game, dict.fromkeys(["B", "C", "M1", "F"], 500))
    assert result.points == {"B": 4, "C": -4, "M1": -2, "F": 2}
    assert result.cents == {"B": 2000, "C": -2000, "M1": -1000, "F": 1000}


def test_p2_the_captains_double_doubles_a_cube_that_follows():
    line = away("B | C, F, M1", ("F", FOLLOWS))
    game = play(line, "double C --by member", rules=PROXIES)
    assert game.cubes["F"].offer is not None and game.cubes["M1"].offer is None
    game = play_on(game, "take C", "drop F", "end team gammon")
    assert outcome(game).points == {"B": -6, "C": 4, "F": 1, "M1": 1}


def test_p3_single_cube_a_cube_that_follows_takes_or_drops_as_the_captain_does():
    rules = HouseRules(cubes="single", proxies=True)
    line = away("B | C, F, M1", ("F", FOLLOWS), rules=rules)
    game = play(line, "double", "drop M1", "take C", "double --by team", "take C", "end box gammon",
                rules=rules)  # fmt: skip
    assert outcome(game).points == {"B": 17, "C": -8, "F": -8, "M1": -1}
    game = play(line, "double", "take M1", "drop C", "end team", rules=rules)
    assert outcome(game).points == {"B": 0, "C": -1, "F": -1, "M1": 2}


def test_p4_an_answer_only_the_away_player_faces_the_captain_gives_by_name():
    line = away("B | C, F", ("F", FOLLOWS))
    game = play(line, "double C --by member", "take C", "beaver F", rules=PROXIES)
    assert game.acting_captain == "C"
    game = play_on(game, "take F", "end team")  # C takes the box's beaver for F
    assert outcome(game).points == {"B": -6, "C": 2, "F": 4}


@pytest.mark.parametrize(
    ("events", "refused", "message"),
    [
        (
            ["double C M1"],
            "take F",
            "F is away and F's cube follows the captain's: C's answer is F",
        ),
        ([], "double F --by member", "F's cube follows the captain's: it doubles when C doubles"),
        ([], "double F", "the box cannot double F alone: F is away"),
        ([], "double M1 F", "the box cannot double F alone"),
        ([], "deal F 1", "F is away: nobody at the table deals for F"),
        (["double C"], "deal C -1", "C cannot deal yet: C's answer to the double is F's too"),
    ],
)
def test_an_away_players_cube_is_moved_only_with_the_captains(events, refused, message):
    game = play(away("B | C, M1, F", ("F", FOLLOWS)), *events, rules=PROXIES)
    with pytest.raises(RuleError, match=message):
        play_on(game, refused)


def test_take_all_answers_an_away_players_cube_with_the_captains():
    from chouette.game import answer_all

    game = play(away("B | C, M1, F", ("F", FOLLOWS)), "double C M1", rules=PROXIES)
    assert answer_all(game, "take") == [Answer("take", "C"), Answer("take", "M1")]


def test_when_the_captain_is_out_the_cube_follows_the_highest_placed_member_at_the_table():
    line = away("B | C, F, M1", ("F", FOLLOWS))
    game = play(line, "double C", "drop C", rules=PROXIES)  # F drops with C
    assert not game.cubes["F"].live
    game = play(line, "double C --by member", "drop C", "take F", rules=PROXIES)
    assert game.acting_captain == "M1"  # C is out, F is away: M1 plays the board
    game = play_on(game, "double M1 --by member")
    assert game.cubes["F"].offer is None  # F's cube is owned by the box: it cannot follow
    game = play_on(game, "take M1", "double M1")
    assert game.cubes["F"].offer is not None  # the box's double of M1 reaches F's cube


@pytest.mark.parametrize(
    ("text", "member", "seat"), [("F | C, M1", "F", "box"), ("B | F, M1", "F", "captain")]
)
def test_a_cube_cannot_follow_the_captains_from_the_box_or_the_captains_seat(text, member, seat):
    with pytest.raises(LineError, match=f"{member} is the {seat} of the next game"):
        name_proxy(seats(text), member, FOLLOWS, PROXIES)
    assert name_proxy(seats(text), member, "M1", PROXIES).proxies == {member: "M1"}


def test_a_rotation_that_seats_an_away_player_as_captain_stops_the_next_game_until_settled():
    line = away("B | C, F, M1", ("F", FOLLOWS))
    nxt = outcome(play(line, "end box", rules=PROXIES)).next_line
    assert show(nxt) == "B | F, M1, C  (away: F's cube follows the captain's)"
    assert line_notes(nxt, PROXIES) == [
        "F is away, their cube following the captain's, but is the captain of the next game: "
        "name a proxy (chouette proxy F --by NAME), withdraw it, or sit F out"
    ]
    with pytest.raises(RuleError, match="F is away, their cube following the captain's, but F"):
        start(nxt, PROXIES)
    assert start(withdraw_proxy(nxt, "F"), PROXIES).captain == "F"


# ------------------------------------------------------------ proxies: a named proxy


def test_p5_a_named_proxys_decisions_are_the_members_and_the_scorer_says_who_made_them():
    from chouette.report import describe_events, game_text

    line = away("B | C, M1, M2", ("M1", "C"))
    before = play(line, "double C M1", rules=PROXIES)
    after = play_on(before, "drop M1")
    assert describe_events(1, before, after)[0] == "Game 1: M1 drops (C for M1)."
    game = play_on(after, "take C", "end box")
    assert outcome(game).points == {"B": 4, "C": -2, "M1": -1, "M2": -1}
    heading, _ = game_text("fri", 1, over=True, game=game, detail=None, line_after=None,
                           bookings=[])  # fmt: skip
    assert heading[1:5] == [
        "Line: B | C, M1, M2  (away: C decides for M1)",
        "  1. double C, M1 --by box",
        "  2. drop M1 (C for M1)",
        "  3. take C",
    ]


def test_proxies_need_the_house_rule_and_a_seated_player_at_the_table():
    with pytest.raises(LineError, match=r"proxies are off in this session \(house rule --pro"):
        name_proxy(seats("B | C, M1"), "M1", "C", HouseRules())
    line = Line(("B", "C", "M1", "M2"), sitting_out=frozenset({"M2"}))
    for name, proxy, message in (
        ("X", "C", "X is not in the line"),
        ("M2", "C", "M2 is sitting out: a proxy is for a player who plays while away"),
        ("M1", "M1", "M1 cannot be their own proxy"),
    ):
        with pytest.raises(LineError, match=message):
            name_proxy(line, name, proxy, PROXIES)
    with pytest.raises(LineError, match="M1 is not away: there is no proxy to withdraw"):
        withdraw_proxy(line, "M1")


def test_a_proxy_named_again_replaces_the_first_and_keeps_its_place():
    line = away("B | C, M1, M2", ("M1", "C"), ("M2", FOLLOWS))
    line = name_proxy(line, "M1", FOLLOWS, PROXIES)
    assert line.away == (("M1", FOLLOWS), ("M2", FOLLOWS))
    assert withdraw_proxy(line, "M1").away == (("M2", FOLLOWS),)


def test_a_proxy_is_at_the_table():
    """Nobody decides for a player away who is away themselves: not a proxy away, and not
    a proxy who goes away while still deciding for someone."""
    line = away("B | C, M1, M2, M3", ("M2", FOLLOWS))
    with pytest.raises(LineError, match="M2 is away too: a proxy decides at the table"):
        name_proxy(line, "M1", "M2", PROXIES)
    line = name_proxy(line, "M1", "M3", PROXIES)
    for proxy in (FOLLOWS, "C"):
        with pytest.raises(LineError, match="M3 decides for M1: name M1 another proxy first"):
            name_proxy(line, "M3", proxy, PROXIES)
    assert name_proxy(line, "M1", "C", PROXIES).away == (("M2", FOLLOWS), ("M1", "C"))


def test_players_away_stay_away_through_rotation_joins_and_leaves():
    line = away("B | C, M1, M2", ("M2", "C"))
    nxt = outcome(play(line, "end team", rules=PROXIES)).next_line
    assert nxt.away == (("M2", "C"),)
    assert join(nxt, "eve", PROXIES).away == (("M2", "C"),)
    from chouette.line import leave

    assert leave(nxt, "M2", PROXIES).away == ()


def test_a_record_checks_who_is_away_and_carries_it():
    line = away("B | C, M1, M2", ("M1", "C"), ("M2", FOLLOWS))
    game = play(line, "double C", "take C", "end box", rules=PROXIES)
    record = to_record(game)
    assert record["away"] == {"M1": "C", "M2": None}
    again, _ = play_record(parse_record(record), line, PROXIES)
    assert again == game
    with pytest.raises(
        RecordError, match=r"its 'away' is M1 \(M2 decides\); in the session it is M1"
    ):
        play_record(parse_record({**record, "away": {"M1": "M2"}}), line, PROXIES)


# ------------------------------------------------------------ the law of a cube that follows


def shape(cube: Cube) -> tuple[object, ...]:
    """A cube without the event number its offer began at (by hand, the events differ)."""
    offer = None if cube.offer is None else (cube.offer.stage, cube.offer.doubler)
    return cube.value, cube.owner, offer, cube.result, cube.ended_by


@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_a_cube_that_follows_the_captains_does_what_the_same_answers_by_hand_would(data):
    """A law: a game with members away whose cubes follow the captain's, and the same game
    with those members present giving the captain's answers by hand (doubled with the
    captain, answering as the captain answers), have the same cubes after every event and
    book the same points and money."""
    rules = replace(data.draw(house_rules()), cubes="multi", acting_captain="keep-seat",
                    proxies=True)  # fmt: skip
    line = data.draw(lines(rules))
    assume(line.followers)
    _, _, game, states = data.draw(games(rules=rules, line=line))
    by_hand = start(replace(line, away=()), rules)
    for before, after in itertools.pairwise(states):
        event = after.events[-1]
        moved = [
            f
            for f in after.followers
            if before.cubes[f] != after.cubes[f]
            and not (isinstance(event, Double) and f in event.members)
            and not (isinstance(event, Answer) and f == event.member)
        ]
        if isinstance(event, Double) and event.by == "box":
            by_hand = apply(by_hand, Double("box", (*event.members, *moved)))
        else:
            by_hand = apply(by_hand, event)
            for follower in moved:  # what the captain's own action did to their cube
                if shape(by_hand.cubes[follower]) == shape(after.cubes[follower]):
                    continue  # the same by hand (an automatic double, the board's end)
                if isinstance(event, Double):
                    by_hand = apply(by_hand, Double("member", (follower,)))
                else:
                    assert isinstance(event, Answer)
                    by_hand = apply(by_hand, Answer(event.act, follower))
        assert {m: shape(c) for m, c in by_hand.cubes.items()} == {
            m: shape(c) for m, c in after.cubes.items()
        }
    stakes = {p: 100 + 7 * i for i, p in enumerate(game.players)}
    away_result, hand_result = settle_game(game, stakes), settle_game(by_hand, stakes)
    assert (away_result.points, away_result.cents) == (hand_result.points, hand_result.cents)
    assert away_result.next_line.order == hand_result.next_line.order


# ------------------------------------------------------------ splitting a table


@pytest.mark.parametrize(
    ("text", "out", "first", "second"),
    [
        ("a | b, c, d, e, f", set(), "a | b, c", "d | e, f"),
        ("a | b, c, d, e, f, g", set(), "a | b, c, d", "e | f, g"),
        ("a | b, c, d, e, f, g, h", set(), "a | b, c, d", "e | f, g, h"),
        ("a | b, c, d, e, f, g", {"d"}, "a | b, c  (sitting out: d)", "e | f, g"),
        ("a | b, c, d, e, f, g", {"g"}, "a | b, c", "d | e, f  (sitting out: g)"),
    ],
)
def test_s1_the_bottom_half_of_the_line_forms_the_new_table(text, out, first, second):
    line = replace(seats(text), sitting_out=frozenset(out))
    old, new = split(line, HouseRules())
    assert (show(old), show(new)) == (first, second)


def test_s2_a_split_needs_six_players_who_play():
    line = replace(seats("a | b, c, d, e, f"), sitting_out=frozenset({"f"}))
    with pytest.raises(LineError, match=r"a split needs 6 players in the line .* 5 play now"):
        split(line, HouseRules())


def test_s3_each_table_keeps_its_players_away_and_picks_a_partner_again():
    rules = HouseRules(partner_from=4, partner_pick="last", proxies=True)
    line = Line(("a", "b", "c", "d", "e", "f", "g", "h"), partner="h", last_down="g")
    line = name_proxy(line, "c", "b", rules)
    line = name_proxy(line, "f", FOLLOWS, rules)
    old, new = split(line, rules)
    assert show(old) == "a+d | b, c  (away: b decides for c)"
    assert show(new) == "e+h | f, g  (away: f's cube follows the captain's)"
    assert new.last_down == "g" and old.last_down is None


def test_a_split_that_would_part_a_player_away_from_their_proxy_is_refused():
    rules = HouseRules(proxies=True)
    line = name_proxy(Line(("a", "b", "c", "d", "e", "f")), "e", "b", rules)
    with pytest.raises(LineError) as err:
        split(line, rules)
    assert str(err.value) == (
        "b decides for e, who is away, and they would sit at different tables after the "
        "split: name e another proxy first (chouette proxy e --by NAME, or --withdraw it)"
    )


def test_split_at_says_when_the_line_has_grown_past_it():
    rules = HouseRules(split_at=6)
    line = new_line(["a", "b", "c", "d", "e", "f"], rules)
    assert split_due(line, rules) is None
    assert split_due(join(line, "g", rules), rules) == (
        "7 play in the line, past the house's split-at 6: `chouette split NAME` moves the "
        "bottom 3 to a new table"
    )
    assert split_due(join(line, "g", HouseRules()), HouseRules()) is None


@settings(max_examples=examples(120), deadline=None)
@given(
    st.integers(6, 14).flatmap(
        lambda n: st.tuples(
            st.just([f"p{i}" for i in range(n)]),
            st.lists(st.sampled_from([f"p{i}" for i in range(n)]), unique=True, max_size=n - 6),
        )
    ),
    house_rules(),
)
def test_a_split_keeps_everyone_once_in_order_each_table_with_three_who_play(players, rules):
    names, out = players
    line = replace(new_line(names, rules), sitting_out=frozenset(out))
    old, new = split(line, rules)
    assert old.order + new.order == line.order
    assert len(old.active) >= 3 and len(new.active) >= 3
    assert len(new.active) == len(line.active) // 2
    assert old.sitting_out | new.sitting_out == line.sitting_out
    for table in (old, new):
        assert table.partner is None or table.partner in table.active[1:]
