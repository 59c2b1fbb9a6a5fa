"""Seats: roll-off, joining and leaving, sitting out, partners, and the rotation rules."""

from __future__ import annotations

import random

import pytest

from chouette.errors import LineError
from chouette.line import (
    Line,
    join,
    leave,
    new_line,
    partner_news,
    roll_off,
    seat,
    sit_in,
    sit_out,
)
from chouette.rules import HouseRules
from files.words import words
from tests.table import outcome, play, play_on, seats, show


class ScriptedDice:
    def __init__(self, *rolls: int) -> None:
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        return self.rolls.pop(0)


def test_roll_off_orders_by_the_highest_die():
    result = roll_off(["ann", "bob", "cat"], ScriptedDice(2, 6, 4))
    assert result.order == ("bob", "cat", "ann")
    assert result.rounds == ((("ann", 2), ("bob", 6), ("cat", 4)),)


def test_roll_off_ties_re_roll_among_the_tied_only():
    result = roll_off(["a", "b", "c", "d"], ScriptedDice(5, 6, 5, 2, 3, 3, 1, 4))
    assert result.order == ("b", "c", "a", "d")
    assert result.rounds == (
        (("a", 5), ("b", 6), ("c", 5), ("d", 2)),
        (("a", 3), ("c", 3)),
        (("a", 1), ("c", 4)),
    )


def test_roll_off_is_reproducible_with_a_seed():
    players = ["ann", "bob", "cat", "dan", "eve"]
    first = roll_off(players, random.Random(7))
    assert roll_off(players, random.Random(7)) == first
    assert sorted(first.order) == sorted(players)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["ann", "ann"], "ann is named twice"),
        (["ann", "  "], "cannot be empty"),
        (["ann", "b\nob"], "control characters"),
        (["ann", "box"], "a word the scorer uses"),
        (["ann", "x" * 81], "longer than 80"),
    ],
)
def test_bad_names_are_refused(players, message):
    with pytest.raises(LineError, match=message):
        new_line(players, HouseRules())


def test_names_keep_quotes_sql_and_accents():
    names = ["O'Brien", 'Robert"); DROP TABLE player;--', "Zoë", "Big Al"]
    assert new_line(names, HouseRules()).order == tuple(names)


def test_roles_skip_a_player_sitting_out():
    rules = HouseRules()
    line = sit_out(seats("B | C, M1, M2"), "C", rules)
    assert (line.box, line.captain, line.crew) == ("B", "M1", ("M2",))
    assert line.order == ("B", "C", "M1", "M2")
    assert show(sit_in(line, "C", rules)) == "B | M1, M2, C"  # back at the bottom


def test_line_changes_name_the_player():
    rules = HouseRules()
    line = seats("B | C")
    with pytest.raises(LineError, match="zed is not in the line"):
        leave(line, "zed", rules)
    with pytest.raises(LineError, match="C is already in the line"):
        join(line, "C", rules)
    with pytest.raises(LineError, match="C is not sitting out"):
        sit_in(line, "C", rules)
    with pytest.raises(LineError, match="C is already sitting out"):
        sit_out(sit_out(line, "C", rules), "C", rules)


@pytest.mark.parametrize(
    ("newcomer", "expected"),
    [("after-loser", "B | M1, M2, C, N"), ("before-loser", "B | M1, M2, N, C")],
)
def test_a_newcomer_sits_by_the_player_just_sent_down(newcomer, expected):
    rules = HouseRules(newcomer=newcomer)
    game = play("B | C, M1, M2", "end box", rules=rules)
    line = outcome(game).next_line
    assert show(join(line, "N", rules)) == expected


def test_a_newcomer_before_any_game_goes_to_the_bottom():
    rules = HouseRules(newcomer="before-loser")
    assert show(join(seats("B | C"), "N", rules)) == "B | C, N"


# ------------------------------------------------------------ rotation (RULES.md §3)

ROTATIONS = [
    # retention, pair results as deals (C, M1, M2), next line
    ("captain", (-1, 1, 1), "B | M1, M2, C"),
    ("captain", (1, -1, -1), "C | M1, M2, B"),
    ("net-profit", (1, -1, -1), "B | M1, M2, C"),
    ("net-profit", (-1, 1, 0), "M1 | M2, C, B"),  # net 0: box goes; captain lost: stand-up
    ("net-profit", (1, 0, -1), "C | M1, M2, B"),
    ("net-not-loss", (-1, 1, 0), "B | M1, M2, C"),
    ("net-not-loss", (-1, 2, 0), "M1 | M2, C, B"),
    ("beat-all", (-1, -1, 1), "M1 | M2, C, B"),
    ("beat-all", (-1, -1, -1), "B | M1, M2, C"),
    ("beat-all", (2, -1, -1), "C | M1, M2, B"),
    # score-sign (T5): the box stays if up; else the captain takes it if up; else nobody moves
    ("score-sign", (-1, -1, -1), "B | M1, M2, C"),
    ("score-sign", (1, 0, -1), "C | M1, M2, B"),
    ("score-sign", (-1, 1, 1), "B | C, M1, M2"),
    ("score-sign", (0, 0, 0), "B | C, M1, M2"),
    # won-not-loss (L.A.): the last pair (M2, dealt last) decides "won"; then the net
    ("won-not-loss", (-1, 1, -1), "B | M1, M2, C"),
    ("won-not-loss", (1, 1, -1), "M1 | M2, C, B"),  # won, but lost points: box last
    ("won-not-loss", (-1, -1, 1), "M1 | M2, C, B"),  # not won; the captain lost: stand-up
    ("won-not-loss", (1, -1, 0), "C | M1, M2, B"),  # a deal at 0 is not a win
]


@pytest.mark.parametrize(("retention", "results", "expected"), ROTATIONS)
def test_rotation_by_retention_rule(retention, results, expected):
    rules = HouseRules(retention=retention)
    deals = [f"deal {m} {p}" for m, p in zip(("C", "M1", "M2"), results, strict=True)]
    game = play("B | C, M1, M2", *deals, rules=rules)
    assert show(outcome(game).next_line) == expected


def test_won_not_loss_a_box_that_wins_the_board_but_loses_points_goes_last():
    rules = HouseRules(retention="won-not-loss")
    game = play(
        "B | C, M1, M2",
        *("double M1 --by member", "drop M1", "double M2 --by member", "drop M2", "end box"),
        rules=rules,
    )
    result = outcome(game)
    assert result.points["B"] == -1
    assert show(result.next_line) == "M1 | M2, C, B"
    assert "box goes last: won-not-loss rule, the box won the board but the box lost -1" in (
        tuple(map(str, result.why))
    )


def test_won_not_loss_the_last_member_passing_the_box_cube_is_a_win():
    rules = HouseRules(retention="won-not-loss")
    game = play("B | C, M1", "double C --by member", "drop C", "double M1", "drop M1", rules=rules)
    result = outcome(game)  # B lost 1 to C, won 1 from M1: net 0, and M1 passed last
    assert show(result.next_line) == "B | M1, C"
    assert any(
        "the last pair still in (M1) ended in the box's favour" in str(w) for w in result.why
    )


def test_won_not_loss_the_box_dropping_last_is_no_win_whatever_the_net():
    rules = HouseRules(retention="won-not-loss")
    game = play(
        "B | C, M1",
        *("double C", "take C", "double C --by member", "drop C"),  # C wins 2... then
        *("double M1 --by member", "drop M1"),  # ...the box drops M1's double last
        rules=rules,
    )
    assert show(outcome(game).next_line) == "C | M1, B"


def test_score_sign_nobody_moves_says_so():
    game = play("B | C, M1", "deal C 0", "deal M1 1", rules=HouseRules(retention="score-sign"))
    result = outcome(game)
    assert show(result.next_line) == "B | C, M1"
    assert "the line stays as it is" in tuple(map(str, result.why))


def test_captain_drop_keep_seat_lets_the_captains_result_decide():
    rules = HouseRules(acting_captain="keep-seat")
    game = play("B | C, M1, M2", "double C", "drop C", rules=rules)
    assert game.acting_captain == "M1" and game.captain == "C"
    assert show(game.line) == "B | C, M1, M2"
    assert show(outcome(play_on(game, "end team")).next_line) == "B | M1, M2, C"


def test_captain_drop_inherit_sends_the_captain_down_at_once():
    rules = HouseRules(acting_captain="inherit")
    game = play("B | C, M1, M2", "double C", "drop C", rules=rules)
    assert game.captain == "M1"
    assert show(game.line) == "B | M1, M2, C"
    assert show(outcome(play_on(game, "end team")).next_line) == "M1 | M2, C, B"
    assert show(outcome(play_on(game, "end box")).next_line) == "B | M2, C, M1"


def test_inherit_a_captain_who_won_by_the_box_dropping_keeps_their_place():
    rules = HouseRules(acting_captain="inherit")
    game = play("B | C, M1, M2", "double C --by member", "drop C", rules=rules)
    assert game.captain == "M1" and show(game.line) == "B | C, M1, M2"
    assert show(outcome(play_on(game, "end box")).next_line) == "B | C, M2, M1"


# ------------------------------------------------------------ partner (RULES.md §4)

PARTNER = HouseRules(partner_from=5)


def test_partner_is_picked_from_five_seated_players():
    assert show(new_line(["B", "C", "M1", "M2"], PARTNER)) == "B | C, M1, M2"
    assert show(new_line(["B", "C", "M1", "M2", "M3"], PARTNER)) == "B+M1 | C, M2, M3"
    last = HouseRules(partner_from=5, partner_pick="last")
    assert show(new_line(["B", "C", "M1", "M2", "M3"], last)) == "B+M3 | C, M1, M2"


def test_partnership_stays_when_the_box_side_wins():
    game = play("B+P | C, M1, M2, M3", "end box", rules=PARTNER)
    assert show(outcome(game).next_line) == "B+P | M1, M2, M3, C"


def test_partnership_breaks_when_the_box_side_loses():
    game = play("B+P | C, M1, M2, M3", "end team", rules=PARTNER)
    assert show(outcome(game).next_line) == "C+M1 | P, M2, M3, B"


@pytest.mark.parametrize(
    ("results", "box", "partner"),
    [((-1, -1, -1, 0), 2, 1), ((1, 1, 1, 0), -2, -1), ((-1, -1, 0, 0), 1, 1)],
)
def test_partner_takes_half_the_box_side_rounded_toward_zero(results, box, partner):
    deals = [f"deal {m} {p}" for m, p in zip(("C", "M1", "M2", "M3"), results, strict=True)]
    result = outcome(play("B+P | C, M1, M2, M3", *deals, rules=PARTNER))
    assert (result.points["B"], result.points["P"]) == (box, partner)
    assert sum(result.points.values()) == 0


def test_partner_split_is_made_in_cents_when_stakes_differ():
    game = play(
        "B+P | C, M1, M2, M3", "deal C -1", "deal M1 -1", "deal M2 -1", "deal M3 0", rules=PARTNER
    )
    stakes = {"B": 300, "P": 300, "C": 100, "M1": 300, "M2": 300, "M3": 300}
    result = outcome(game, stakes)
    # box side wins 100 + 300 + 300 = 700 cents: partner 350, box 350
    assert (result.cents["B"], result.cents["P"]) == (350, 350)
    assert sum(result.cents.values()) == 0


def test_leaving_partner_is_replaced():
    line = seats("B+P | C, M1, M2, M3")
    assert show(leave(line, "P", PARTNER)) == "B+M1 | C, M2, M3"
    assert show(leave(leave(line, "P", PARTNER), "M3", PARTNER)) == "B | C, M1, M2"


# ------------------------------------------------------------ the partner, announced


PARTNER_FROM_5 = HouseRules(partner_from=5)


@pytest.mark.parametrize(
    ("before", "after", "said"),
    [
        (("a", "b", "c", "d"), ("a", "b", "c", "d", "e"),
         ["c becomes the box's partner: 5 seated, a partner from 5 (the next after the box)"]),
        (("a", "b", "c", "d", "e"), ("a", "b", "c", "d"),
         ["c is no longer the box's partner: 4 seated, a partner from 5; c plays on the team "
          "again"]),
        (("a", "b", "c", "d", "e"), ("a", "c", "d", "e"),  # the captain left: c captains
         ["c is no longer the box's partner: 4 seated, a partner from 5; c plays on the team "
          "again, as captain"]),
        (("a", "c", "d", "e"), ("a", "b", "c", "d", "e"),  # the captain became the partner
         ["c becomes the box's partner: 5 seated, a partner from 5 (the next after the box); "
          "b is captain in c's place"]),
        (("a", "b", "c", "d", "e"), ("a", "b", "d", "e", "f"),
         ["c is no longer the box's partner: c left the line",
          "d becomes the box's partner: 5 seated, a partner from 5 (the next after the box)"]),
        (("a", "b", "c", "d", "e"), ("a", "b", "c", "d", "e", "f"), []),
    ],
)  # fmt: skip
def test_a_partnership_that_begins_or_ends_is_announced_with_its_reason(before, after, said):
    old = seat(Line(before), PARTNER_FROM_5)
    new = seat(Line(after), PARTNER_FROM_5)
    assert list(map(str, partner_news(old, new, PARTNER_FROM_5))) == said


def test_a_partnership_undone_or_corrected_gives_the_cause_it_is_given():
    old = seat(Line(("a", "b", "c", "d", "e")), PARTNER_FROM_5)
    new = seat(Line(("b", "c", "d", "e", "a")), PARTNER_FROM_5)
    assert list(
        map(str, partner_news(old, new, PARTNER_FROM_5, "undo put the line back as it was"))
    ) == [
        "c is no longer the box's partner: undo put the line back as it was",
        "d becomes the box's partner: undo put the line back as it was",
    ]


def test_a_partner_who_sits_out_is_no_longer_partner_and_says_why():
    line = seat(Line(("a", "b", "c", "d", "e", "f")), PARTNER_FROM_5)
    out = sit_out(line, "c", PARTNER_FROM_5)
    assert list(map(str, partner_news(line, out, PARTNER_FROM_5))) == [
        "c is no longer the box's partner: c sits out",
        "d becomes the box's partner: 5 seated, a partner from 5 (the next after the box)",
    ]


def test_sitting_back_in_before_a_game_is_played_restores_the_line_exactly():
    """RULES.md: nothing is handed on between games but by rotation. Sitting out and back in
    with no game between gives the line back as it was: the captain keeps the captaincy,
    the box's partner the partnership (after a game, the rotation has moved on: the old
    rule seats them where a newcomer sits)."""
    line = seat(Line(("a", "b", "c", "d", "e", "f")), PARTNER_FROM_5)
    assert show(line) == "a+c | b, d, e, f"
    after_a_game = {"b": "a+c | d, e, f, b", "c": "a+d | b, c, e, f", "d": "a+c | b, d, e, f"}
    for player, moved in after_a_game.items():
        out = sit_out(line, player, PARTNER_FROM_5)
        assert sit_in(out, player, PARTNER_FROM_5, before=line) == line
        assert show(sit_in(out, player, PARTNER_FROM_5)) == moved


def test_a_proxy_deciding_for_someone_cannot_leave_or_sit_out():
    from chouette.line import name_proxy

    rules = HouseRules(proxies=True)
    line = name_proxy(Line(("a", "b", "c", "d")), "d", "c", rules)
    for change, what in ((leave, "leave"), (sit_out, "sit out")):
        with pytest.raises(LineError) as err:
            change(line, "c", rules)
        assert str(err.value) == (
            f"c decides for d, who is away: c cannot {what} while deciding for d (name another "
            "proxy first: chouette proxy d --by NAME, or --withdraw it)"
        )
    for proxy, why in (
        ("zed", "zed is not in the line (a, b, c, d): a proxy decides at the table"),
        ("d", "d cannot be their own proxy"),
    ):
        with pytest.raises(LineError) as err:
            name_proxy(line, "d", proxy, rules)
        assert str(err.value) == why
    with pytest.raises(LineError, match="b is sitting out: a proxy decides at the table"):
        name_proxy(sit_out(line, "b", rules), "a", "b", rules)


# ------------------------------------------------------------ the roll-off's dice


def test_roll_off_with_two_dice_counts_a_double_twice():
    """Colorado [S3]: two dice, doubles count: 3-3 (12) beats 6-5 (11)."""
    result = roll_off(["ann", "bob", "cat"], ScriptedDice(6, 5, 3, 3, 1, 2), "two-dice")
    assert result.order == ("bob", "ann", "cat")
    assert result.rounds == ((("ann", 11), ("bob", 12), ("cat", 3)),)
    assert list(map(str, result.told())) == ["round 1: ann 6-5 (11), bob 3-3 (12), cat 1-2 (3)"]


def test_roll_off_with_four_dice_sums_them_and_ties_roll_again():
    """St Albans [S4]: four dice summed; a tie re-rolls among the tied only."""
    dice = ScriptedDice(1, 2, 3, 4, 4, 3, 2, 1, 6, 6, 6, 6, 1, 1, 1, 1, 2, 2, 2, 2)
    result = roll_off(["ann", "bob", "cat"], dice, "four-dice")
    assert result.order == ("cat", "bob", "ann")
    assert result.rounds == (
        (("ann", 10), ("bob", 10), ("cat", 24)),
        (("ann", 4), ("bob", 8)),
    )


# ------------------------------------------------------------ sitting out and in


def test_a_box_who_sits_out_and_in_does_not_take_the_box_back():
    rules = HouseRules()
    line = sit_out(seats("X | B, C, M1"), "X", rules)
    assert show(line) == "B | C, M1  (sitting out: X)"
    game = play(line, "end box", rules=rules)  # B wins as box and keeps it
    after = sit_in(outcome(game).next_line, "X", rules)
    assert show(after) == "B | M1, C, X"


def test_a_player_the_rotation_carried_past_the_captain_rejoins_where_a_newcomer_sits():
    rules = HouseRules(newcomer="before-loser")
    game = play(sit_out(seats("B | C, M1, M2"), "M1", rules), "end box", rules=rules)
    line = outcome(game).next_line  # B | M2, C (M1 out): C was just sent down
    assert show(sit_in(line, "M1", rules)) == "B | M2, M1, C"
    assert show(join(line, "N", rules)) == "B | M2, N, C  (sitting out: M1)"  # the same place


PARTNER_OF_FIVE = HouseRules(partner_from=5)


def test_a_partner_sitting_out_and_in_leaves_the_partnership_alone():
    line = sit_out(seats("B+P | C, M1, M2, M3"), "P", PARTNER_OF_FIVE)
    assert show(line) == "B+M1 | C, M2, M3  (sitting out: P)"
    assert show(sit_in(line, "P", PARTNER_OF_FIVE)) == "B+M1 | C, M2, M3, P"


def test_a_crew_member_sitting_out_and_in_keeps_their_place_and_the_partnership():
    line = sit_out(seats("B+P | C, M1, M2, M3"), "M2", PARTNER_OF_FIVE)
    assert show(line) == "B+P | C, M1, M3  (sitting out: M2)"
    assert show(sit_in(line, "M2", PARTNER_OF_FIVE)) == "B+P | C, M1, M2, M3"


def test_a_crew_member_back_after_a_game_keeps_their_place_behind_the_captain():
    rules = HouseRules()
    game = play(sit_out(seats("B | C, M1, M2, M3"), "M3", rules), "end box", rules=rules)
    line = outcome(game).next_line  # B | M1, M2, C with M3 away, still behind M2
    assert show(line) == "B | M1, M2, C  (sitting out: M3)"
    assert show(sit_in(line, "M3", rules)) == "B | M1, M2, M3, C"


def test_a_partner_back_when_the_table_is_big_enough_again_is_picked_as_usual():
    rules = HouseRules(partner_from=6)
    line = sit_out(seats("B+P | C, M1, M2, M3"), "P", rules)
    assert show(line) == "B | C, M1, M2, M3  (sitting out: P)"
    assert show(sit_in(line, "P", rules)) == "B+M1 | C, M2, M3, P"


@pytest.mark.parametrize(
    ("code", "refusal", "news"),
    [
        (
            "da",
            "b er allerede i rækken",
            "c er ikke længere boksens partner: c står over",
        ),
        (
            "cs",
            "b už je v řadě",
            "c už není partnerem bankéře: c vynechává",
        ),
    ],
)
def test_a_refusal_and_the_lines_news_read_in_danish_and_czech(code, refusal, news):
    line = seat(Line(("a", "b", "c", "d", "e", "f")), PARTNER_FROM_5)
    with pytest.raises(LineError, match="b is already in the line") as refused:
        join(line, "b", PARTNER_FROM_5)
    assert words(code)(refused.value.said) == refusal
    out = sit_out(line, "c", PARTNER_FROM_5)
    assert words(code)(partner_news(line, out, PARTNER_FROM_5)[0]) == news
