"""The rules at their edges (issue 13), as score sheets: seats and events in, line and money out.

Each edition-2 decision is pinned here, and so is edition 1 where a session started before
it keeps the older scoring (its stored games must replay to what was booked).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.errors import RuleError
from chouette.game import Answer, Event, Game, answer_all, apply
from chouette.line import join, new_line, sit_in, sit_out
from chouette.outcome import book, settle_game
from chouette.record import RecordError, check_seats, parse_record, play_record
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


# ------------------------------------------------------------ the partner's own stake


PARTNER_STAKES = [
    # edition, pair results, stakes (B, P, C, M1, M2), cents (B, P, C, M1, M2)
    # a $4 session, the partner plays for $1: the box side wins 4 points; the partner's half
    # is 2 points at $1 (not at $4), and the box carries the rest
    (2, (-2, -1, -1), (400, 100, 400, 400, 400), (1400, 200, -800, -400, -400)),
    # the pairs pay 4.00 + 2.00 + 0.50 to the box side; the partner's half of its pairs at
    # 1.00, 1.00 and 0.50 a point is 1.25, split in cents
    (2, (-1, -1, -1), (400, 100, 400, 200, 50), (525, 125, -400, -200, -50)),
    # a partner at a higher stake plays every pair at the pair's stake
    (2, (-2, -1, -1), (100, 400, 400, 400, 400), (200, 200, -200, -100, -100)),
    # edition 1 worked the partner's share at the pair's stake, whatever the partner's own
    (1, (-2, -1, -1), (400, 100, 400, 400, 400), (800, 800, -800, -400, -400)),
]


@pytest.mark.parametrize(("edition", "results", "stakes", "cents"), PARTNER_STAKES)
def test_a_partner_shares_at_the_lower_of_their_own_and_the_pairs_stake(
    edition, results, stakes, cents
):
    rules = HouseRules(edition=edition)
    deals = [f"deal {m} {p}" for m, p in zip(("C", "M1", "M2"), results, strict=True)]
    game = play("B+P | C, M1, M2", *deals, rules=rules)
    players = ("B", "P", "C", "M1", "M2")
    result = outcome(game, dict(zip(players, stakes, strict=True)))
    assert result.cents == dict(zip(players, cents, strict=True))
    side = -sum(results)
    assert (result.points["B"], result.points["P"]) == (side - side // 2, side // 2)


@given(
    stakes=st.lists(st.integers(1, 1000), min_size=5, max_size=5),
    results=st.lists(st.integers(-24, 24), min_size=3, max_size=3),
    partner_share=st.integers(0, 100),
)
def test_nobody_risks_more_than_their_own_stake_and_every_game_sums_to_zero(
    stakes, results, partner_share
):
    """A law, for any stakes per player and any partner's share: every game sums to zero to
    the cent; a member is paid at the pair's stake; the partner wins or loses at most their
    share of the pairs' points at their own stake, and the box at most the pairs' points at
    its own."""
    players = ["B", "P", "C", "M1", "M2"]
    stake = dict(zip(players, stakes, strict=True))
    pairs = dict(zip(players[2:], results, strict=True))
    points, cents = book("B", pairs, stake, partner="P", partner_share=partner_share)
    assert sum(points.values()) == 0 and sum(cents.values()) == 0
    for m, pts in pairs.items():
        assert cents[m] == pts * min(stake["B"], stake[m])
    swing = sum(abs(p) for p in pairs.values())
    assert abs(cents["P"]) * 100 <= partner_share * swing * stake["P"]
    assert abs(cents["B"]) <= swing * stake["B"]
    side = -sum(pairs.values())
    assert points["P"] == (1 if side >= 0 else -1) * (abs(side) * partner_share // 100)


# ------------------------------------------------------------ the chouette record


def test_a_record_naming_the_wrong_partner_is_refused():
    line = seats("B+P | C, M1, M2")
    with pytest.raises(
        RecordError, match="record: its 'partner' is M1, but the box's partner is P"
    ):
        check_seats(parse_record({"partner": "M1"}), line)
    check_seats(parse_record({"partner": "P"}), line)


def test_a_record_naming_a_partner_where_there_is_none_is_refused():
    line = seats("B | C, M1")
    with pytest.raises(
        RecordError, match="its 'partner' is C, but the box plays without a partner"
    ):
        check_seats(parse_record({"partner": "C"}), line)
    check_seats(parse_record({"partner": None}), line)
    with pytest.raises(RecordError, match="its 'partner' is nobody, but the box's partner is P"):
        check_seats(parse_record({"partner": None}), seats("B+P | C, M1"))


def test_a_record_of_a_game_with_a_partner_names_the_partner():
    from chouette.record import to_record

    game = play("B+P | C, M1", "end box")
    record = to_record(game)
    assert record["partner"] == "P"
    again, _ = play_record(parse_record(record), game.start_line, HouseRules())
    assert again == game


# ------------------------------------------------------------ debatable choices, settled

MANDATORY = HouseRules(mandatory_beaver=True)


def test_mandatory_beaver_never_binds_a_two_player_session():
    game = play("B | C", "double C", "take C", rules=MANDATORY)
    assert (game.cubes["C"].value, game.cubes["C"].owner) == (2, "member")


def test_mandatory_beaver_never_binds_a_member_the_box_doubled_alone():
    game = play("B | C, M1, M2", "double M1", "take M1", rules=MANDATORY)
    assert game.cubes["M1"].value == 2


def test_mandatory_beaver_binds_the_lone_taker_of_a_double_to_several():
    with pytest.raises(RuleError, match="C is the only one to take the box's double"):
        play("B | C, M1, M2", "double C M1", "drop M1", "take C", rules=MANDATORY)
    game = play("B | C, M1, M2", "double C M1", "drop M1", "beaver C", rules=MANDATORY)
    assert game.cubes["C"].offer is not None and game.cubes["C"].offer.stage == "beaver"


def test_mandatory_beaver_in_single_cube_binds_the_last_member_in():
    rules = HouseRules(mandatory_beaver=True, cubes="single")
    with pytest.raises(RuleError, match="M1 is the only one to take"):
        play("B | C, M1", "double", "drop C", "take M1", rules=rules)
    play("B | C", "double", "take C", rules=rules)  # two players: a plain take


SINGLE = HouseRules(cubes="single")


def test_single_cube_captain_beavers_only_once_every_member_has_answered():
    with pytest.raises(RuleError) as refused:
        play("B | C, M1, M2", "double", "beaver C", rules=SINGLE)
    assert str(refused.value) == (
        "C cannot beaver for the team yet: M1, M2 still have to take or drop the box's double "
        "(the beaver covers only the members who take)"
    )
    with pytest.raises(RuleError, match="M2 still has to take or drop"):
        play("B | C, M1, M2", "double", "drop M1", "beaver C", rules=SINGLE)
    game = play("B | C, M1, M2", "double", "drop M1", "take M2", "beaver C", rules=SINGLE)
    assert sorted(game.pending) == ["C", "M2"]
    assert outcome(play_on(game, "take C", "end team")).pairs == {"C": 4, "M1": -1, "M2": 4}


def test_single_cube_captain_who_took_may_still_beaver_once_the_answers_are_in():
    game = play("B | C, M1, M2", "double", "take C", "take M1", "drop M2", "beaver C", rules=SINGLE)
    assert sorted(game.pending) == ["C", "M1"]
    game = play_on(game, "drop C")  # the box refuses the beaver: pays the doubled value
    assert outcome(game).pairs == {"C": 2, "M1": 2, "M2": -1}


def test_single_cube_the_acting_captain_beavers_for_those_still_in():
    game = play("B | C, M1, M2", "double", "drop C", "take M2", "beaver M1", rules=SINGLE)
    assert sorted(game.pending) == ["M1", "M2"]
    with pytest.raises(RuleError, match="name the captain, M1"):
        play("B | C, M1, M2", "double", "drop C", "take M1", "beaver M2", rules=SINGLE)


def test_single_cube_the_beaver_window_closes_with_the_next_cube_action():
    game = play("B | C, M1", "double", "take C", "take M1", "double --by team", rules=SINGLE)
    game = play_on(game, "take C")
    with pytest.raises(RuleError, match="there is no double on C's cube to beaver"):
        play_on(game, "beaver C")


def test_edition_1_single_cube_beaver_swept_in_the_members_still_to_answer():
    old = HouseRules(cubes="single", edition=1)
    game = play("B | C, M1, M2", "double", "beaver C", rules=old)
    assert sorted(game.pending) == ["C", "M1", "M2"]


PICK_LAST = HouseRules(partner_from=5, partner_pick="last")


def test_partner_pick_last_never_makes_the_box_who_just_lost_the_partner():
    game = play("B+P | C, M1, M2, M3", "end team", rules=PICK_LAST)
    assert show(outcome(game).next_line) == "C+M3 | P, M1, M2, B"


def test_partner_pick_last_passes_over_everyone_a_double_stand_up_sent_down():
    rules = HouseRules(partner_from=5, partner_pick="last", retention="net-profit")
    game = play(
        "B+P | C, M1, M2, M3", "deal C -1", "deal M1 2", "deal M2 0", "deal M3 0", rules=rules
    )
    assert show(outcome(game).next_line) == "M1+M3 | P, M2, C, B"


def test_partner_pick_last_with_nobody_else_to_pick_takes_the_bottom():
    rules = HouseRules(partner_from=3, partner_pick="last")
    game = play("B+P | C", "end team", rules=rules)
    assert show(outcome(game).next_line) == "C+B | P"


def test_edition_1_partner_pick_last_made_the_old_box_the_partner():
    old = HouseRules(partner_from=5, partner_pick="last", edition=1)
    game = play("B+P | C, M1, M2, M3", "end team", rules=old)
    assert show(outcome(game).next_line) == "C+B | P, M1, M2, M3"


@pytest.mark.parametrize(
    ("acting", "ending", "expected"),
    [
        ("keep-seat", "end team", "B | M1, M2, C"),
        ("keep-seat", "end box", "B | M1, M2, C"),
        # under inherit a captain at 0 keeps their place and hands the seat on, like a
        # captain who won by the box dropping; the acting captain's result then counts
        ("inherit", "end team", "M1 | C, M2, B"),
        ("inherit", "end box", "B | C, M2, M1"),
    ],
)
def test_editions_2_and_3_kept_the_box_on_a_deal_at_0_with_the_captain(acting, ending, expected):
    rules = HouseRules(acting_captain=acting, edition=3)
    game = play("B | C, M1, M2", "deal C 0", ending, rules=rules)
    assert show(outcome(game).next_line) == expected


@pytest.mark.parametrize("ending", ["end team", "end box"])
def test_a_deal_at_0_with_the_captain_is_no_win_for_the_box(ending):
    """RULES.md §3: the box stays only if it beat the captain. A pair dealt at 0 is not won
    by the box, so the captain takes the box, whatever the board's end (edition 4)."""
    game = play("B | C, M1, M2", "deal C 0", ending)
    assert show(outcome(game).next_line) == "C | M1, M2, B"


@pytest.mark.parametrize(
    ("won_by", "expected", "why"),
    [
        ("box", "B | M1, M2, C",
         "box stays: captain rule, the deal at 0 with C declared won by the box"),
        ("captain", "C | M1, M2, B",
         "box goes: captain rule, the deal at 0 with C declared won by C"),
    ],
)  # fmt: skip
def test_a_table_that_declares_the_winner_of_a_deal_at_0_is_followed(won_by, expected, why):
    """Amstergammon: "after a deal with the captain a winner must be declared"."""
    game = play("B | C, M1, M2", f"deal C 0 --won-by {won_by}", "end team")
    assert show(outcome(game).next_line) == expected
    assert why in outcome(game).why


@pytest.mark.parametrize(
    ("events", "rules", "refusal"),
    [
        (["deal C 1 --won-by box"], HouseRules(), "a deal at +1 has one"),
        (["deal M1 0 --won-by box"], HouseRules(), "M1 is not the captain"),
        (["deal C 0 --won-by box"], HouseRules(retention="net-profit"),
         "--won-by is for the captain rule (house rule --retention captain)"),
    ],
)  # fmt: skip
def test_a_winner_is_declared_only_for_a_deal_at_0_with_the_captain(events, rules, refusal):
    with pytest.raises(RuleError, match=re.escape(refusal)):
        play("B | C, M1, M2", *events, rules=rules)


def test_a_captain_at_0_when_the_box_goes_for_another_reason_takes_the_box():
    rules = HouseRules(retention="net-profit")
    game = play("B | C, M1, M2", "deal C 0", "deal M1 1", "deal M2 -1", rules=rules)
    assert show(outcome(game).next_line) == "C | M1, M2, B"


def test_edition_1_counted_a_deal_at_0_as_the_captain_beating_the_box():
    game = play("B | C, M1, M2", "deal C 0", "end box", rules=HouseRules(edition=1))
    assert show(outcome(game).next_line) == "C | M1, M2, B"


def test_take_all_answers_one_side_at_a_time():
    game = play("B | C, M1, M2", "double C M1", "double M2 --by member")
    with pytest.raises(RuleError) as refused:
        answer_all(game, "take")
    assert str(refused.value) == (
        "take --all answers for one side, but both have answers pending: the box on M2's "
        "cube, and C, M1 on their own; take them by name"
    )
    game = play_on(game, "take M2")
    assert answer_all(game, "take") == [Answer("take", "C"), Answer("take", "M1")]
    game = play("B | C, M1", "double C M1", "beaver C", "beaver M1")
    assert answer_all(game, "drop") == [Answer("drop", "C"), Answer("drop", "M1")]


def test_a_session_stored_without_an_edition_keeps_the_older_scoring():
    rules = HouseRules(acting_captain="inherit")
    stored = {k: v for k, v in rules.to_dict().items() if k != "edition"}
    assert HouseRules.from_dict(stored).edition == 1
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert (
        HouseRules.from_dict(stored).summary()
        == "acting-captain inherit, edition 1 (older scoring)"
    )
    assert rules.summary() == "acting-captain inherit"
