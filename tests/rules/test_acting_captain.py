"""House rule ``acting-captain`` (RULES.md §3): when the captain is out, who plays the board
and who takes the captain's seat; under ``inherit``, the highest-placed member who took
inherits it, and a box whose double everyone dropped wins cleanly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.game import Event, Game, answer_all, apply
from chouette.line import new_line
from chouette.outcome import settle_game
from chouette.record import parse_record, play_record
from chouette.rules import HouseRules
from tests.table import outcome, play, play_on, seats, show

INHERIT = HouseRules(acting_captain="inherit")
INHERIT_SINGLE = HouseRules(acting_captain="inherit", cubes="single")


def played_out(game: Game, events: list[Event]) -> Game:
    for event in events:
        game = apply(game, event)
    return game


# ------------------------------------------------------------ acting captain, inherit


EVERYONE_DROPS = [
    # rules, seats, the box's double, answers, next line
    (INHERIT, "B | C, M1, M2", "double C M1 M2", ["drop C", "drop M1", "drop M2"], "B | M1, M2, C"),
    (INHERIT, "B | C, M1, M2", "double C M1 M2", ["drop M2", "drop C", "drop M1"], "B | M1, M2, C"),
    (INHERIT, "B | C, M1", "double C M1", ["drop C", "drop M1"], "B | M1, C"),
    (INHERIT_SINGLE, "B | C, M1, M2", "double", ["drop C", "drop M1", "drop M2"], "B | M1, M2, C"),
    (INHERIT_SINGLE, "B | C, M1", "double", ["drop C", "drop M1"], "B | M1, C"),
]


@pytest.mark.parametrize(("rules", "line", "double", "answers", "expected"), EVERYONE_DROPS)
def test_inherit_when_everyone_drops_is_a_clean_box_win(rules, line, double, answers, expected):
    game = play(line, double, *answers, rules=rules)
    assert game.over and game.captain == seats(line).captain
    result = outcome(game)
    assert show(result.next_line) == expected
    assert result.points[game.box] == len(answers)


@pytest.mark.parametrize("rules", [INHERIT, INHERIT_SINGLE])
def test_inherit_drop_all_is_a_clean_box_win(rules):
    game = play(
        "B | C, M1, M2", "double C M1 M2" if rules.cubes == "multi" else "double", rules=rules
    )
    game = played_out(game, answer_all(game, "drop"))
    assert show(outcome(game).next_line) == "B | M1, M2, C"


def test_inherit_through_a_record_is_a_clean_box_win():
    record = parse_record(
        {
            "line": ["B", "C", "M1", "M2"],
            "events": [
                {"act": "double", "members": ["C", "M1", "M2"]},
                {"act": "drop", "member": "C"},
                {"act": "drop", "member": "M1"},
                {"act": "drop", "member": "M2"},
            ],
        }
    )
    game, _ = play_record(record, seats("B | C, M1, M2"), INHERIT)
    assert show(outcome(game).next_line) == "B | M1, M2, C"


@pytest.mark.parametrize(
    "answers",
    [
        ["drop C", "take M1", "drop M2"],
        ["drop M2", "take M1", "drop C"],
        ["take M1", "drop M2", "drop C"],
    ],
)
def test_inherit_the_highest_placed_member_who_took_inherits_whatever_the_order(answers):
    game = play("B | C, M1, M2", "double C M1 M2", *answers, rules=INHERIT)
    assert game.captain == "M1"
    assert show(game.line) == "B | M1, M2, C"  # the captain who dropped went down at once
    assert show(outcome(play_on(game, "end box")).next_line) == "B | M2, C, M1"
    assert show(outcome(play_on(game, "end team")).next_line) == "M1 | M2, C, B"


@pytest.mark.parametrize(
    "answers", [["drop C", "drop M1", "take M2"], ["drop M1", "drop C", "take M2"]]
)
def test_inherit_a_member_who_dropped_without_being_captain_keeps_their_place(answers):
    game = play("B | C, M1, M2", "double C M1 M2", *answers, rules=INHERIT)
    assert game.captain == "M2" and show(game.line) == "B | M1, M2, C"
    assert show(outcome(play_on(game, "end box")).next_line) == "B | M1, C, M2"


def test_inherit_waits_for_every_answer_before_passing_the_seat():
    game = play("B | C, M1, M2", "double C M1 M2", "drop C", rules=INHERIT)
    assert game.captain == "C" and show(game.line) == "B | C, M1, M2"


def test_edition_1_keeps_the_older_inherit_scoring_for_stored_games():
    old = HouseRules(acting_captain="inherit", edition=1)
    game = play("B | C, M1, M2", "double C M1 M2", "drop C", "drop M1", "drop M2", rules=old)
    assert show(outcome(game).next_line) == "B | C, M1, M2"


ANSWER_UNITS = {
    "take": ["take {m}"],
    "drop": ["drop {m}"],
    "beaver, box takes": ["beaver {m}", "take {m}"],
    "beaver, box drops": ["beaver {m}", "drop {m}"],
}


@given(
    data=st.data(),
    players=st.integers(3, 6),
    cubes=st.sampled_from(["multi", "single"]),
    acting=st.sampled_from(["inherit", "keep-seat"]),
    retention=st.sampled_from(["captain", "net-profit", "net-not-loss", "beat-all"]),
    winner=st.sampled_from(["box", "team"]),
    partner_from=st.sampled_from([None, 4]),
)
def test_the_order_members_answer_a_double_in_never_changes_the_game(
    data, players, cubes, acting, retention, winner, partner_from
):
    """A law: the box doubles some members; however they order their answers, the game's
    pairs, money and next line are the same."""
    rules = HouseRules(
        cubes=cubes, acting_captain=acting, retention=retention, partner_from=partner_from
    )
    line = new_line([f"P{i}" for i in range(players)], rules)
    team = list(line.team)
    doubled = (
        team
        if cubes == "single"
        else data.draw(st.lists(st.sampled_from(team), min_size=1, unique=True))
    )
    kinds = ["take", "drop"] if cubes == "single" else list(ANSWER_UNITS)
    answers = {m: data.draw(st.sampled_from(kinds), label=m) for m in doubled}
    order = data.draw(st.permutations(doubled), label="order")
    double = "double" if cubes == "single" else "double " + " ".join(doubled)

    def result(members):
        game = play(line, double, rules=rules)
        for m in members:
            game = play_on(game, *(u.format(m=m) for u in ANSWER_UNITS[answers[m]]))
        if not game.over:
            game = play_on(game, f"end {winner}")
        settled = settle_game(game, dict.fromkeys(line.order, 100))
        return settled.pairs, settled.cents, settled.next_line

    assert result(order) == result(sorted(doubled, key=team.index))
