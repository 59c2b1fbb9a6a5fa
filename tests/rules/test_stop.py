"""A fair stop (chouette/stop.py): ``--rounds N`` makes game N the last round; ``--until
HH:MM`` the first game started at or after that moment; after it the session plays no more."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chouette.errors import ChouetteError
from chouette.rules import HouseRules
from chouette.stop import check_not_ended, next_at, parse_clock, stop_state

NINE = datetime(2026, 11, 26, 21, 0, tzinfo=UTC)
UNTIL = HouseRules(until="2026-11-26T23:00:00+00:00")


def at(hour: int, minute: int = 0) -> datetime:
    return NINE.replace(hour=hour, minute=minute)


@pytest.mark.parametrize(("typed", "expected"), [("23:30", at(23, 30)), ("01:00", None)])
def test_until_names_the_next_such_time_tomorrow_if_it_has_passed(typed, expected):
    moment = next_at(NINE, *parse_clock(typed))
    assert moment == (expected or datetime(2026, 11, 27, 1, 0, tzinfo=UTC))


@pytest.mark.parametrize("typed", ["25:00", "23", "11pm", "23:5", ""])
def test_until_that_is_no_time_of_day_is_refused(typed):
    with pytest.raises(ChouetteError, match="--until is a time of day, HH:MM"):
        parse_clock(typed)


def test_rounds_makes_game_n_the_last_and_ends_the_session_after_it():
    rules = HouseRules(rounds=3)
    assert stop_state(rules, 2, [], NINE, in_progress=False).last_round is False
    third = stop_state(rules, 3, [], NINE, in_progress=False)
    assert third.last_round
    assert str(third.told(3)) == "game 3 is the last round, as agreed (3 games)"
    fourth = stop_state(rules, 4, [], NINE, in_progress=False)
    assert fourth.ended
    with pytest.raises(ChouetteError, match="the session has ended after game 3, as agreed"):
        check_not_ended(fourth, 4)


def test_until_the_game_in_progress_when_time_is_up_is_played_out_and_one_more():
    started = [(1, at(22, 0)), (2, at(22, 55))]
    in_play = stop_state(UNTIL, 2, started, at(23, 5), in_progress=True)
    assert not in_play.last_round and in_play.last is None  # game 2 began before 23:00
    nxt = stop_state(UNTIL, 3, started, at(23, 10), in_progress=False)
    assert nxt.last_round and nxt.last == 3
    done = stop_state(UNTIL, 4, [*started, (3, at(23, 10))], at(23, 40), in_progress=False)
    assert done.ended and done.last == 3


def test_before_the_time_nothing_is_said():
    state = stop_state(UNTIL, 1, [], at(22, 0), in_progress=False)
    assert state is not None and state.told(1) is None
    assert stop_state(HouseRules(), 1, [], NINE, in_progress=False) is None


def test_rounds_and_until_together_are_refused():
    with pytest.raises(ChouetteError, match="--rounds N or --until HH:MM, not both"):
        HouseRules(rounds=3, until="2026-11-26T23:00:00+00:00")
