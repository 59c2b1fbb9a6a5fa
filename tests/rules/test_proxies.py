"""House rule ``proxies``: a player away from the table still plays, a named proxy deciding
for them or their cube following the captain's; and the law of a cube that follows."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chouette.errors import LineError, RecordError, RuleError
from chouette.game import (
    Answer,
    Cube,
    Double,
    apply,
    start,
)
from chouette.line import (
    FOLLOWS,
    Line,
    join,
    line_notes,
    name_proxy,
    withdraw_proxy,
)
from chouette.outcome import settle_game
from chouette.record import parse_record, play_record, to_record
from chouette.rules import HouseRules
from tests.examples import examples
from tests.strategies import games, house_rules, lines
from tests.table import outcome, play, play_on, seats, show

PROXIES = HouseRules(proxies=True)


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
    assert list(map(str, line_notes(nxt, PROXIES))) == [
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
    assert str(describe_events(1, before, after)[0]) == "Game 1: M1 drops (C for M1)."
    game = play_on(after, "take C", "end box")
    assert outcome(game).points == {"B": 4, "C": -2, "M1": -1, "M2": -1}
    heading, _ = game_text("fri", 1, over=True, game=game, detail=None, line_after=None,
                           bookings=[])  # fmt: skip
    assert list(map(str, heading[1:5])) == [
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
    book the same points and money.

    While both games have the same acting captain, that is: once the captain is out, the
    board goes to the highest-placed live member (RULES.md §2.3), but with members away to the
    highest-placed one *at the table* (HOUSE-RULES.md, Proxies), while by hand a member
    placed above them would be present and play it. From there the rules that name the
    captain (box-doubles with-captain, box-takes break-even's "always the captain's") bind
    different cubes in the two games, as the rules say they should, so the law stops
    comparing (found by Hypothesis; the case is the test after this one)."""
    rules = replace(data.draw(house_rules()), cubes="multi", acting_captain="keep-seat",
                    proxies=True)  # fmt: skip
    line = data.draw(lines(rules))
    assume(line.followers)
    _, _, game, states = data.draw(games(rules=rules, line=line))
    by_hand = start(replace(line, away=()), rules)
    for before, after in itertools.pairwise(states):
        if by_hand.acting_captain != before.acting_captain:
            return  # the board passed a member away by: not the same game (the docstring)
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


def test_with_the_captain_out_the_board_passes_a_member_away_by():
    """The law's limit, as Hypothesis shrank it: C is out, F (away, above M1) follows M1, who
    plays the board; so the box may double M2 at 2 alone, M1's cube being at 1. F at the
    table would play the board, and box-doubles with-captain would bind F's cube at 2."""
    rules = replace(PROXIES, box_doubles="with-captain", acting_captain="keep-seat")
    line = away("B | C, F, M1, M2", ("F", FOLLOWS), rules=rules)
    events = ("double C --by member", "take F", "drop C", "double M2 --by member", "take M2")
    game = play(line, *events, rules=rules)
    assert game.acting_captain == "M1"
    assert play_on(game, "double M2").cubes["M2"].offer is not None
    present = play(replace(line, away=()), events[0], "double F --by member", *events[1:],
                   rules=rules)  # fmt: skip
    assert present.acting_captain == "F"
    with pytest.raises(RuleError, match="the box must double the captain, F, too"):
        play_on(present, "double M2")
