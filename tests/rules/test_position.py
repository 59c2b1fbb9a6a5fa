"""A board at a cube decision: GNU Backgammon's Position ID and eXtreme Gammon's XGID read
from the doubler's side, checked as an engine checks them, kept as one Position ID; and the
board belongs to the exchange of a double and its answers, which are made at one board."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.errors import PositionError, RecordError, RuleError
from chouette.game import apply, exchanges
from chouette.position import BAR, Position, parse_position, position_id
from chouette.record import event_to_json, parse_event, parse_record, play_record
from chouette.rules import HouseRules
from tests.table import ev, play, play_on, seats

START = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
#: The starting position as the side on roll sees it: 2 on its 24 point, 5 on the 13, 3 on
#: the 8, 5 on the 6; the opponent the same.
START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
#: The issue's bear-offs: on roll with two checkers on the ace point against two on the
#: opponent's six point, and the reverse (as gnubg's own board shows them).
ACE_AGAINST_SIX = "YAAAGAAAAAAAAA"
SIX_AGAINST_ACE = "AwAAAAMAAAAAAA"


def side(**points: int) -> tuple[int, ...]:
    """A side's 25 places: ``p6=2`` is two checkers on its six point, ``bar=1`` one on the bar."""
    found = [0] * 25
    for name, count in points.items():
        found[BAR if name == "bar" else int(name[1:]) - 1] = count
    return tuple(found)


def test_the_starting_position_reads_the_same_from_its_position_id_and_its_xgid():
    assert parse_position(START) == Position(START_SIDE, START_SIDE)
    assert parse_position(START_XGID) == Position(START_SIDE, START_SIDE)
    assert parse_position(START_XGID).id == START
    assert parse_position(START).pips() == (167, 167)


def test_the_key_is_the_manuals_worked_example_of_the_starting_position():
    """gnubg's manual: the starting position's 10-byte key is E0 73 F0 01 30 E0 73 F0 01 30."""
    key = base64.b64decode(position_id(Position(START_SIDE, START_SIDE)) + "==")
    assert key.hex(" ").upper() == "E0 73 F0 01 30 E0 73 F0 01 30"


def test_the_side_on_roll_comes_second_in_the_key():
    assert parse_position(ACE_AGAINST_SIX) == Position(side(p1=2), side(p6=2))
    assert parse_position(SIX_AGAINST_ACE) == Position(side(p6=2), side(p1=2))
    assert parse_position(ACE_AGAINST_SIX).pips() == (2, 12)


def test_an_xgid_is_read_from_the_side_its_turn_names():
    # the bottom player (upper case) has one checker on its 2 point, the top player one on
    # its 5 point (place 20: 25 - 20) and one on the bar (place 0)
    board = "a" + "-" + "A" + "-" * 17 + "a" + "-" * 5
    bottom, top = side(p2=1), side(p5=1, bar=1)
    assert parse_position(f"XGID={board}:0:0:1:00:0:0:0:0:10") == Position(bottom, top)
    assert parse_position(f"XGID={board}:1:-1:-1:D:3:2:3:0:10") == Position(top, bottom)
    assert parse_position(f"{board}:0:0:1:00:0:0:0:0:10") == Position(bottom, top)  # no prefix


@given(st.data())
def test_every_board_round_trips_through_its_position_id(data):
    def checkers(forbidden: set[int]) -> tuple[int, ...]:
        places = data.draw(
            st.lists(
                st.sampled_from([p for p in range(25) if p not in forbidden]),
                min_size=1,
                max_size=15,
            )
        )
        return tuple(places.count(p) for p in range(25))

    on_roll = checkers(set())
    opponent = checkers({23 - p for p in range(24) if on_roll[p]})
    board = Position(on_roll, opponent)
    closed = all(on_roll[p] >= 2 for p in range(6)) and all(opponent[p] >= 2 for p in range(6))
    if closed and on_roll[BAR] and opponent[BAR]:
        return
    found = parse_position(board.id)
    assert found == board and found.id == board.id and len(board.id) == 14


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (
            "",
            "a position is a GNU Backgammon Position ID or an XGID",
        ),
        (
            "4HPwATDgc/ABM",
            "4HPwATDgc/ABM is not a position: a GNU Backgammon Position ID is 14 letters, "
            "digits, + or / (4HPwATDgc/ABMA), and an XGID starts with XGID=",
        ),
        (
            "4HPwATDgc/ABMB",
            "4HPwATDgc/ABMB is not a Position ID: its last letter is not one",
        ),
        (
            "/////////////w",
            "/////////////w is not a Position ID: it ends before both sides' 25 places",
        ),
        (
            "AAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAA: the player on roll has borne off every checker: the game is over, "
            "there is no cube decision",
        ),
        (
            "AwAAAAAAAAAAAA",
            "AwAAAAAAAAAAAA: the player on roll has borne off every checker: the game is over, "
            "there is no cube decision",
        ),
        (
            position_id(Position(side(p6=16), side(p6=2))),
            "YAAAAP//AAAAAA: the player on roll has 16 checkers, more than 15",
        ),
        (
            position_id(Position(side(p6=2), side(p19=1))),
            "AAAEgAEAAAAAAA: both players have checkers on the same point (the 6 point of the "
            "player on roll)",
        ),
        (
            position_id(
                Position(
                    side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, bar=1),
                    side(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2, bar=1),
                )
            ),
            "27YBANC2bQAABA: both players are on the bar against closed boards, which no game "
            "can reach",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0 is not an XGID: it is XGID= "
            "then the 26 places (-, A to P, a to p) and 9 fields after colons",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:x:00:0:0:0:0:10",
            "XGID=-b----E-C---eE---c-e----B-:0:0:x:00:0:0:0:0:10 is not an XGID: its fields "
            "after the board are numbers",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
            "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10 is not an XGID: who is on "
            "roll is 1 or -1",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10 is a match position (7 "
            "points): chouette reviews money play, a match length of 0",
        ),
        (
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10 has the dice rolled (52): a "
            "cube decision is made before the roll (00, or D for a double offered)",
        ),
        (
            "XGID=Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
            "XGID=Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10 is not an XGID: its first "
            "place is the top player's bar (a to p)",
        ),
        (
            "XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10",
            "XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:0:10 is not an XGID: its last "
            "place is the bottom player's bar (A to P)",
        ),
    ],
)
def test_a_position_no_game_can_have_is_refused_saying_why(typed, said):
    with pytest.raises(PositionError) as err:
        parse_position(typed)
    assert str(err.value) == said


def test_a_position_typed_very_long_is_echoed_clipped():
    with pytest.raises(PositionError) as err:
        parse_position("x" * 10_000)
    assert "…(10,000 characters)…" in str(err.value) and len(str(err.value)) < 300


# ---------------------------------------------------------------- a board in a game


def test_a_double_keeps_its_board_and_its_answers_share_it():
    game = play("B | C, M1, M2", f"double C M1 --position {START}", "take C", "drop M1")
    assert game.positions == {0: START}
    assert game.events[0].describe() == f"double C, M1 --by box --position {START}"
    later = play_on(game, f"double C --by member --position {ACE_AGAINST_SIX}", "take C")
    assert later.positions == {0: START, 3: ACE_AGAINST_SIX}


def test_an_answer_may_give_the_board_its_double_did_not():
    game = play("B | C, M1", "double C", f"beaver C --position {START}", "raccoon C", "take C")
    assert game.positions == {0: START}
    assert exchanges(seats("B | C, M1"), HouseRules(), game.events) == {0: 0, 1: 0, 2: 0, 3: 0}


def test_an_answer_at_another_board_than_its_doubles_is_refused():
    game = play("B | C, M1", f"double C M1 --position {START}", "take C")
    with pytest.raises(RuleError) as err:
        apply(game, ev(f"take M1 --position {ACE_AGAINST_SIX}"))
    assert str(err.value) == (
        f"the position {ACE_AGAINST_SIX} is not the board of this double, given as {START}: a "
        "double and its answers are made at one board"
    )
    assert apply(game, ev(f"take M1 --position {START}")).positions == {0: START}


def test_single_cube_the_captains_beaver_for_the_team_shares_the_boxs_board():
    rules = HouseRules(cubes="single")
    game = play("B | C, M1, M2", "double", "take M1", "drop M2", rules=rules)
    game = play_on(game, f"beaver C --position {START}")
    assert game.positions == {0: START}


def test_a_record_carries_a_board_as_its_position_id_and_refuses_a_wrong_one():
    record = {
        "line": ["B", "C", "M1"],
        "events": [
            {"act": "double", "by": "box", "members": ["C"], "position": START_XGID},
            {"act": "take", "member": "C"},
        ],
        "result": {"winner": "box", "kind": "single"},
    }
    game, _ = play_record(parse_record(record), seats("B | C, M1"), HouseRules())
    assert game.positions == {0: START}
    assert event_to_json(game.events[0]) == {
        "act": "double",
        "by": "box",
        "members": ["C"],
        "position": START,
    }
    assert event_to_json(game.events[1]) == {"act": "take", "member": "C"}  # as it always was
    with pytest.raises(RecordError) as err:
        parse_event({"act": "take", "member": "C", "position": 42}, "event 2")
    assert str(err.value) == "event 2: the position must be text, not a number"
    with pytest.raises(RecordError) as err:
        parse_event({"act": "take", "member": "C", "position": "4HPw"}, "event 2")
    assert str(err.value).startswith("event 2: 4HPw is not a position: a GNU Backgammon")
