"""The cube's house rules of issue 25 as score sheets: the box's obligations when several
members double it, the captain's cube when the box doubles, automatic doubles past the limit
(the box's choice, carried over), beaver limits, Jacoby once any cube is turned, mandatory
extras and an extra's redoubles, resignations to some members, no settlements, and a deal as
an answer under mandatory beaver. Each rule's worked example from its source (CLUB-RULESETS
§1.5, §1.10–§1.14) is a test here; every game is checked to sum to zero (``outcome``)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.errors import AutoDoubleIgnored, ChouetteError, RuleError
from chouette.game import AutoDouble, apply, carried_over, start
from chouette.record import event_to_json, parse_event, parse_record, play_record, to_record
from chouette.rules import EDITION, HouseRules
from tests.table import ev, outcome, play, play_on, seats

MANDATORY_BEAVER = HouseRules(mandatory_beaver=True)


def refused(game, event: str, message: str) -> None:
    """``event`` is refused with exactly ``message``, and the game is as it was."""
    before = game
    with pytest.raises(RuleError) as err:
        apply(game, ev(event))
    assert str(err.value) == message
    assert game == before


# ------------------------------------------------------------ a deal is an answer


LONE_TAKER = (
    "M2's answer would leave C the only one to take the box's double: under the house rule "
    "mandatory-beaver C must beaver or drop (undo C's take first)"
)


def test_a_deal_that_leaves_a_lone_plain_taker_is_refused_under_mandatory_beaver():
    game = play("B | C, M1, M2", "double C M1 M2", "take C", "drop M1", rules=MANDATORY_BEAVER)
    refused(game, "deal M2 0", LONE_TAKER)


@pytest.mark.parametrize("order", list(itertools.permutations(["take C", "drop M1", "deal M2 0"])))
def test_the_same_answers_get_the_same_verdict_in_any_order(order):
    game = play("B | C, M1, M2", "double C M1 M2", rules=MANDATORY_BEAVER)
    with pytest.raises(RuleError, match="under the house rule mandatory-beaver C must beaver"):
        play_on(game, *order)
    # with a beaver instead of the plain take, every order is accepted
    beaver = [("beaver C" if e == "take C" else e) for e in order]
    assert play_on(game, *beaver).cubes["C"].offer is not None


ACT = HouseRules(mandatory_beaver=True, lone_taker_scope="all")


def test_act_binds_the_lone_taker_only_when_the_box_cubes_all_of_the_team():
    """ACT: "If the box cubes all of the team and only one member decides to take, then they
    MUST beaver the cube." A double to two of three members has no lone taker there."""
    some = play("B | C, M1, M2", "double C M1", "drop M1", rules=ACT)
    assert play_on(some, "take C").cubes["C"].owner == "member"  # a plain take: allowed
    everyone = play("B | C, M1, M2", "double C M1 M2", "take C", "drop M1", rules=ACT)
    refused(everyone, "drop M2", LONE_TAKER)
    # the default scope, several: any double to two or more has a lone taker
    refused(
        play("B | C, M1, M2", "double C M1", "drop M1", rules=MANDATORY_BEAVER),
        "take C",
        "C is the only one to take the box's double: under the house rule mandatory-beaver "
        "C must beaver or drop",
    )


def test_the_whole_team_is_every_member_still_in():
    game = play("B | C, M1, M2", "double M2", "drop M2", "double C M1", "take C", rules=ACT)
    refused(
        game,
        "drop M1",
        "M1's answer would leave C the only one to take the box's double: under the house "
        "rule mandatory-beaver C must beaver or drop (undo C's take first)",
    )


def test_mandatory_extras_follow_the_lone_taker_scope():
    rules = HouseRules(extras=True, mandatory_extras=True, lone_taker_scope="all")
    some = play("B | C, M1, M2", "double C M1", "take C", "drop M1", rules=rules)
    assert some.lone_taker is None  # a double to two of three: no lone taker's choice
    everyone = play("B | C, M1, M2", "double C M1 M2", "take C", "drop M1", "drop M2",
                    rules=rules)  # fmt: skip
    assert everyone.lone_taker is not None and everyone.lone_taker.member == "C"


def test_an_older_session_keeps_the_deal_it_booked():
    old = HouseRules(mandatory_beaver=True, edition=2)
    game = play("B | C, M1, M2", "double C M1 M2", "take C", "drop M1", "deal M2 0", rules=old)
    assert game.cubes["M2"].result == 0 and game.cubes["C"].owner == "member"
    assert EDITION >= 3 and HouseRules().deal_answers and not old.deal_answers


# ------------------------------------------------------------ the box's obligations


HALF = HouseRules(box_takes="half")
BREAK_EVEN = HouseRules(box_takes="break-even")
FOUR = "B | C, M1, M2, M3"
ALL_DOUBLE = [f"double {m} --by member" for m in ("C", "M1", "M2", "M3")]


def test_half_the_box_takes_half_of_the_doubles_or_drops_them_all():
    """Clinton Hill: "the Box must take half or more of cubes offered to continue playing"
    (ESK: at least half, or drop all)."""
    game = play(FOUR, *ALL_DOUBLE, "take C", "drop M1", "take M2", "drop M3", rules=HALF)
    result = outcome(play_on(game, "end box"))
    assert result.points == {"C": -2, "M1": 1, "M2": -2, "M3": 1, "B": 2}
    everyone_out = play(
        FOUR, *ALL_DOUBLE, *(f"drop {m}" for m in ["C", "M1", "M2", "M3"]), rules=HALF
    )
    assert outcome(everyone_out).points == {"C": 1, "M1": 1, "M2": 1, "M3": 1, "B": -4}


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        (
            ["take C", "drop M1", "drop M2", "drop M3"],
            "the box cannot drop M3's double: under box-takes half the box takes at least 2 "
            "of the 4 doubles from C, M1, M2 and M3, or drops them all (it took C's and did "
            "not take M1's, M2's and M3's)",
        ),
        (
            ["drop M1", "drop M2", "drop M3", "take C"],
            "the box cannot take C's double: under box-takes half the box takes at least 2 "
            "of the 4 doubles from C, M1, M2 and M3, or drops them all (it took C's and did "
            "not take M1's, M2's and M3's)",
        ),
        (
            ["take C", "drop M1", "drop M2", "deal M3 1"],
            "M3 and the box cannot deal: under box-takes half the box takes at least 2 of the "
            "4 doubles from C, M1, M2 and M3, or drops them all (it took C's and did not take "
            "M1's, M2's and M3's)",
        ),
    ],
)
def test_half_refuses_the_answer_that_makes_it_impossible(answers, message):
    game = play(FOUR, *ALL_DOUBLE, *answers[:-1], rules=HALF)
    refused(game, answers[-1], message)


def test_with_two_members_the_box_takes_both_or_neither():
    """ESK and Clinton Hill in a three-handed chouette: both or neither."""
    for rules in (HALF, BREAK_EVEN):
        game = play("B | C, M1", "double C --by member", "double M1 --by member", "take C",
                    rules=rules)  # fmt: skip
        refused(
            game,
            "drop M1",
            "the box cannot drop M1's double: with two members the box takes both doubles "
            f"(C and M1) or drops both (house rule box-takes {rules.box_takes}; it took C's "
            "and did not take M1's)",
        )
        assert play_on(game, "take M1").cubes["M1"].owner == "box"


def test_break_even_takes_enough_for_a_single_game_and_always_the_captains():
    """L.A.: "he must take enough cubes to at least break even and he must take the
    captain". Four cubes on 1 doubled: two taken win 4 on a single, two dropped cost 2."""
    game = play(FOUR, *ALL_DOUBLE, "take C", "take M1", "drop M2", "drop M3", rules=BREAK_EVEN)
    assert outcome(play_on(game, "end box")).points == {
        "C": -2, "M1": -2, "M2": 1, "M3": 1, "B": 2,
    }  # fmt: skip
    refused(
        play(FOUR, *ALL_DOUBLE, "take M1", "take M2", rules=BREAK_EVEN),
        "drop C",
        "the box cannot drop C's double: under box-takes break-even the box takes the "
        "captain's double, C's, whenever it takes any (it took M1's and M2's and did not "
        "take C's)",
    )
    refused(
        play(FOUR, *ALL_DOUBLE, "take C", "drop M1", "drop M2", rules=BREAK_EVEN),
        "drop M3",
        "the box cannot drop M3's double: under box-takes break-even the box takes enough of "
        "the doubles from C, M1, M2 and M3 to break even on a single game, or drops them all "
        "(it took C's and did not take M1's, M2's and M3's: a single would win it 2 at most, "
        "against the 3 it pays)",
    )


def test_break_even_binds_the_box_only_when_everyone_doubles_under_scope_all():
    """L.A.: "If the box is doubled by everyone at the same time, he must take enough cubes
    to at least break even and he must take the captain": three of four doubling is no such
    time, so the box drops the captain's double and takes the others as it likes."""
    la = HouseRules(box_takes="break-even", box_takes_scope="all")
    three = play(FOUR, *ALL_DOUBLE[:3], "take M1", "take M2", rules=la)
    assert play_on(three, "drop C").cubes["C"].result == 1  # not everyone: no obligation
    refused(  # the same answers from the whole team at once are refused, as L.A. says
        play(FOUR, *ALL_DOUBLE, "take M1", "take M2", rules=la),
        "drop C",
        "the box cannot drop C's double: under box-takes break-even the box takes the "
        "captain's double, C's, whenever it takes any (it took M1's and M2's and did not "
        "take C's)",
    )
    # scope several (the default) binds any two or more together, as before
    refused(play(FOUR, *ALL_DOUBLE[:3], "take M1", "take M2", rules=BREAK_EVEN), "drop C",
            "the box cannot drop C's double: under box-takes break-even the box takes the "
            "captain's double, C's, whenever it takes any (it took M1's and M2's and did not "
            "take C's)")  # fmt: skip


def test_everyone_means_every_member_still_in():
    """A member who is out (dropped earlier) is not needed for "everyone"."""
    la = HouseRules(box_takes="break-even", box_takes_scope="all")
    game = play(FOUR, "double M3", "drop M3", *ALL_DOUBLE[:3], "take M1", "take M2", rules=la)
    refused(
        game,
        "drop C",
        "the box cannot drop C's double: under box-takes break-even the box takes the "
        "captain's double, C's, whenever it takes any (it took M1's and M2's and did not "
        "take C's)",
    )


def test_break_even_counts_each_cube_at_its_own_level():
    # C's cube is at 2 (C took the box's double): taking C's alone wins 4 on a single, against
    # the 3 the box pays for dropping three 1s (all at 1, one cube taken of four is refused)
    game = play(FOUR, "double C", "take C", *ALL_DOUBLE, rules=BREAK_EVEN)
    game = play_on(game, "drop M1", "drop M2", "drop M3", "take C")
    assert outcome(play_on(game, "end team")).points == {
        "C": 4, "M1": 1, "M2": 1, "M3": 1, "B": -7,
    }  # fmt: skip


def test_a_double_given_after_the_box_began_to_answer_is_a_round_of_its_own():
    game = play(FOUR, "double M1 --by member", "double M2 --by member", "take M1", rules=HALF)
    game = play_on(game, "double C --by member", "drop C")  # C's round: one double, no rule
    assert play_on(game, "take M2").cubes["M2"].owner == "box"


def test_the_obligations_are_off_by_default():
    game = play(FOUR, *ALL_DOUBLE, "take C", "drop M1", "drop M2", "drop M3")
    assert outcome(play_on(game, "end box")).points["B"] == -1


# ------------------------------------------------------------ the captain's cube


WITH_CAPTAIN = HouseRules(box_doubles="with-captain")


def test_the_box_doubles_the_captain_with_any_cube_at_the_captains_level():
    """L.A.: "if the cubes are at the same level and the box doubles anybody, he must double
    the captain (autos are an artificial increase and are not counted)"."""
    refused(
        play("B | C, M1, M2", rules=WITH_CAPTAIN),
        "double M1",
        "the box must double the captain, C, too: under box-doubles with-captain the "
        "captain's cube is doubled whenever the box doubles a cube at its level (M1 at 1)",
    )
    assert play("B | C, M1, M2", "double C M1", rules=WITH_CAPTAIN).cubes["C"].offer
    rules = HouseRules(box_doubles="with-captain", auto_doubles=1)
    refused(
        play("B | C, M1, M2", "auto", rules=rules),
        "double M2",
        "the box must double the captain, C, too: under box-doubles with-captain the "
        "captain's cube is doubled whenever the box doubles a cube at its level (M2 at 2)",
    )


def test_cubes_at_other_levels_or_the_captains_own_are_doubled_alone():
    game = play("B | C, M1, M2", "double C", "take C", rules=WITH_CAPTAIN)  # C's at 2, C owns
    assert play_on(game, "double M1").cubes["M1"].offer
    game = play("B | C, M1, M2", "double C --by member", "take C", rules=WITH_CAPTAIN)
    assert play_on(game, "double M1 M2").cubes["M2"].offer  # the box owns C's cube, at 2


# ------------------------------------------------------------ automatic doubles


def test_further_automatic_doubles_are_the_boxs_choice():
    """ACT rule 5: "After the first automatic double, any others are at the discretion of
    the Box"."""
    rules = HouseRules(auto_doubles=1, auto_past_limit="box-choice")
    game = play("B | C, M1", "auto", rules=rules)
    with pytest.raises(AutoDoubleIgnored) as err:
        play_on(game, "auto")
    assert str(err.value) == (
        "the tied roll doubles nothing unless the box chooses it (chouette auto-double "
        "--box-chooses), as the session's 1 automatic double has been played"
    )
    game = play_on(game, "auto --box-chooses", "end team gammon")
    assert [e for e in game.events if isinstance(e, AutoDouble)] == [
        AutoDouble(), AutoDouble(box_chose=True),
    ]  # fmt: skip
    assert outcome(game).points == {"C": 4, "M1": 4, "B": -8}  # centred at 4: Jacoby single


def test_a_tie_past_the_limit_carries_over_and_the_box_accepts_or_declines_it():
    """rgb 639: "If the dice come up equal again ... then the *next* game is slated to start
    at the two level ... it is usually up to the box to accept or decline the carryover"."""
    rules = HouseRules(auto_doubles=1, auto_past_limit="carry-over")
    first = play("B | C, M1", "auto", "auto", "end box", rules=rules)
    assert first.events[1] == AutoDouble(carried=True) and first.carried_out == 1
    assert carried_over(first.events) == 1
    assert outcome(first).points == {"C": -2, "M1": -2, "B": 4}  # the carry-over is no double
    line = outcome(first).next_line
    waiting = start(line, rules, carry=1)
    refused(
        waiting,
        "double M1",
        "1 automatic double carried over from the last game: the box accepts or declines it "
        "first (chouette carry accept|decline)",
    )
    accepted = play_on(waiting, "carry accept", "end team gammon")
    assert outcome(accepted).points == {"M1": 2, "C": 2, "B": -4}  # centred 2: a single
    declined = play_on(waiting, "carry decline", "end team")
    assert outcome(declined).points == {"M1": 1, "C": 1, "B": -2}


def test_carried_doubles_build_up_and_count_toward_the_limit():
    rules = HouseRules(auto_doubles=1, auto_past_limit="carry-over")
    game = play("B | C, M1", "auto", "auto", "auto", "end box", rules=rules)
    assert game.carried_out == 2
    nxt = play("B | C, M1", "carry accept 2", "auto", rules=rules, carry=2)
    assert nxt.cubes["C"].value == 4 and nxt.carried_out == 1  # the tie carries over again


@pytest.mark.parametrize(
    ("carry", "event", "message"),
    [
        (0, "carry accept 1", "no automatic double was carried over from the last game"),
        (2, "carry accept 1", "2 automatic doubles carried over from the last game, not 1"),
        (None, "carry accept", "say how many automatic doubles were carried over"),
    ],
)
def test_a_carry_answer_must_match_what_was_carried(carry, event, message):
    rules = HouseRules(auto_past_limit="carry-over")
    refused(start(seats("B | C, M1"), rules, carry), event, message)


def test_a_carry_answer_is_refused_where_doubles_do_not_carry():
    refused(
        play("B | C, M1"),
        "carry accept 1",
        "automatic doubles do not carry over in this session (house rule auto-past-limit ignored)",
    )


# ------------------------------------------------------------ beavers


def test_beaver_limit_counts_the_beavers_and_raccoons_of_one_double():
    """gnubg's `set beavers N` caps the beavers and raccoons on one double: its `cBeavers`
    counts the turns while a double is pending and is reset by the take (or the drop)."""
    one = HouseRules(beaver_limit=1)
    refused(
        play("B | C, M1", "double M1", "beaver M1", rules=one),
        "raccoon M1",
        "B cannot raccoon: M1's cube has had a beaver on this double, the limit (beaver-limit 1)",
    )
    two = HouseRules(beaver_limit=2)
    game = play("B | C, M1", "double M1", "beaver M1", "raccoon M1", rules=two)
    assert game.cubes["M1"].turns == 2
    assert play("B | C, M1", "double C", "beaver C", rules=one).cubes["C"].turns == 1


def test_a_fresh_double_may_be_beavered_again_under_the_limit():
    """The limit is not spent over the game: after the take, the next double starts at 0."""
    one = HouseRules(beaver_limit=1)
    game = play("B | C, M1", "double M1", "beaver M1", "take M1", rules=one)
    assert game.cubes["M1"].turns == 0 and game.cubes["M1"].value == 4
    game = play_on(game, "double M1 --by member", "beaver M1")  # a later, fresh double
    assert game.cubes["M1"].turns == 1
    refused(
        game,
        "raccoon M1",
        "M1 cannot raccoon: M1's cube has had a beaver on this double, the limit (beaver-limit 1)",
    )
    assert play_on(game, "take M1").cubes["M1"].value == 16


@given(
    limit=st.integers(1, 2),
    turns=st.lists(st.integers(0, 2), min_size=1, max_size=6),
)
def test_law_every_double_may_be_beavered_up_to_the_limit_whatever_came_before(limit, turns):
    """For any run of doubles, each taken after 0, 1 or 2 turns (a beaver, then a raccoon):
    each double's turns are refused exactly when they pass the limit, never for the turns of
    the doubles before it; the cube ends at 2 × 2^turns for each double taken."""
    game = play("B | C, M1", rules=HouseRules(beaver_limit=limit))
    value = 1
    for number, count in enumerate(turns):
        by = "" if number % 2 == 0 else " --by member"  # the taker owns the cube: sides alternate
        game = play_on(game, f"double M1{by}")
        for act in ("beaver", "raccoon")[:count]:
            if game.cubes["M1"].turns >= limit:
                with pytest.raises(RuleError, match=r"on this double, the limit"):
                    apply(game, ev(f"{act} M1"))
                break
            game = play_on(game, f"{act} M1")
        assert game.cubes["M1"].turns == min(count, limit)
        game = play_on(game, "take M1")
        value *= 2 ** (1 + min(count, limit))
        assert game.cubes["M1"].value == value and game.cubes["M1"].turns == 0
    outcome(play_on(game, "end team"))


def test_beavers_by_one_side_only():
    refused(
        play("B | C, M1", "double C --by member", rules=HouseRules(beavers_by="team")),
        "beaver C",
        "B cannot beaver: only the team's members may beaver in this session (house rule "
        "beavers-by team)",
    )
    refused(
        play("B | C, M1", "double C", rules=HouseRules(beavers_by="box")),
        "beaver C",
        "C cannot beaver: only the box may beaver in this session (house rule beavers-by box)",
    )
    assert play("B | C, M1", "double C", "beaver C", rules=HouseRules(beavers_by="team"))


# ------------------------------------------------------------ Jacoby


def test_jacoby_any_cube_turned_lets_every_pairs_gammon_count():
    per_cube = play("B | C, M1, M2", "double C", "take C", "end team gammon")
    assert outcome(per_cube).points == {"C": 4, "M1": 1, "M2": 1, "B": -6}
    rules = HouseRules(jacoby_scope="any-cube-turned")
    anyone = play("B | C, M1, M2", "double C", "take C", "end team gammon", rules=rules)
    assert outcome(anyone).points == {"C": 4, "M1": 2, "M2": 2, "B": -8}
    # a dropped double, or an automatic double, turns no cube in the game
    dropped = play("B | C, M1, M2", "double C", "drop C", "end team gammon", rules=rules)
    assert outcome(dropped).points == {"C": -1, "M1": 1, "M2": 1, "B": -1}


# ------------------------------------------------------------ extras


MANDATORY_EXTRAS = HouseRules(extras=True, mandatory_extras=True)
LONE = ["double C M1 M2", "drop M1", "drop M2", "take C", "extra C M1"]


@pytest.mark.parametrize(
    ("end", "m1"),
    [("end box", 0), ("end team", -4), ("end box gammon", 2), ("end team gammon", -6)],
)
def test_murphys_extra_for_the_lone_taker(end, m1):
    """Daniel Murphy (rgb 14): you dropped and gave the taker an extra: "If the box wins a
    single game, you break even ... If the taker wins a single game, you lose 4 points ...
    If the box wins a gammon, you win 2 points. If the taker wins a gammon, you lose 6"."""
    result = outcome(play("B | C, M1, M2", *LONE, end, rules=MANDATORY_EXTRAS))
    assert result.points["M1"] == m1


def test_the_lone_taker_may_drop_after_all_and_the_extras_offered_are_void():
    """L.A.: "The lone taker then must make a decision to either pass the box's cube or take
    extras from each crew member that chooses to give one"."""
    game = play("B | C, M1, M2", *LONE, "extra C M2", "drop C", rules=MANDATORY_EXTRAS)
    assert game.over and [c.void for c in game.extra_cubes] == [True, True]
    assert outcome(game).points == {"C": -1, "M1": -1, "M2": -1, "B": 3}
    assert game.cubes["C"].owner == "centre" and game.cubes["C"].value == 1


def test_the_lone_takers_choice_closes_with_the_next_cube_action():
    game = play("B | C, M1, M2", *LONE, "double C --by member", "take C", rules=MANDATORY_EXTRAS)
    refused(game, "drop C", "there is no double on C's cube to drop")
    refused(
        play("B | C, M1, M2", *LONE[:-1], rules=HouseRules(extras=True)),
        "drop C",
        "there is no double on C's cube to drop",
    )


def test_mandatory_extras_and_mandatory_beaver_do_not_go_together():
    with pytest.raises(ChouetteError, match="two answers to the lone taker: choose one"):
        HouseRules(extras=True, mandatory_extras=True, mandatory_beaver=True)
    with pytest.raises(ChouetteError, match="mandatory-extras needs extras"):
        HouseRules(mandatory_extras=True)


REDOUBLES = HouseRules(extras=True, extra_redoubles=True)


def test_the_giver_decides_on_a_redouble_of_the_extra():
    """Wuersch (rgb 208): "The extra giver decides if doubles for that extra cube should be
    taken or not". Taken, the extra is worth 4 and the giver holds its cube."""
    game = play("B | C, M1, M2", *LONE, "double-extra C M1", "take-extra C M1", rules=REDOUBLES)
    assert game.extra_cubes[0].value == 4 and game.extra_cubes[0].holder == "box"
    assert outcome(play_on(game, "end box")).points["M1"] == 2  # -1 -1 +4
    back = play_on(game, "double-extra C M1", "drop-extra C M1")  # M1 redoubles; C drops
    assert back.extra_cubes[0].result == -4
    assert outcome(play_on(back, "end team")).points["M1"] == 2  # -1 -1 +4, settled


def test_a_dropped_redouble_settles_the_extra_whatever_the_board_does():
    game = play("B | C, M1, M2", *LONE, "double-extra C M1", "drop-extra C M1", rules=REDOUBLES)
    for end in ("end box gammon", "end team"):
        result = outcome(play_on(game, end))
        assert result.extras[0].points == 3  # the premium and the extra's 2
    refused(game, "take-extra C M1", "the extra of C and M1 is settled by a drop")


def test_an_extras_redouble_is_refused_without_the_house_rule():
    refused(
        play("B | C, M1, M2", *LONE, rules=HouseRules(extras=True)),
        "double-extra C M1",
        "an extra's cube is not redoubled in this session (house rule --extra-redoubles)",
    )


# ------------------------------------------------------------ resignations and deals


PER_MEMBER = HouseRules(resignations="per-member")


def test_the_box_resigns_to_some_members_and_a_member_who_refuses_plays_on():
    game = play("B | C, M1, M2", "double C", "take C", "resign gammon M1 M2",
                "resign-accept M1", "resign-refuse M2", rules=PER_MEMBER)  # fmt: skip
    assert game.cubes["M1"].result == 1  # a gammon on a centred cube: a single under Jacoby
    assert game.cubes["M2"].live and game.cubes["M2"].resign is None
    assert outcome(play_on(game, "end box")).points == {"C": -2, "M1": 1, "M2": -1, "B": 2}


def test_a_resignation_accepted_by_everyone_still_in_ends_the_board():
    game = play("B | C, M1", "double C", "take C", "resign gammon", "resign-accept C",
                "resign-accept M1", rules=PER_MEMBER)  # fmt: skip
    board = play("B | C, M1", "double C", "take C", "end team gammon resigned")
    assert game.result == board.result and outcome(game).points == outcome(board).points


@pytest.mark.parametrize(
    ("events", "event", "message"),
    [
        ([], "resign single C", "the box resigns the whole board in this session: end team "
         "--resigned (house rule --resignations per-member lets it resign to some members)"),
    ],
)  # fmt: skip
def test_a_resignation_to_some_members_needs_the_house_rule(events, event, message):
    refused(play("B | C, M1", *events), event, message)


@pytest.mark.parametrize(
    ("events", "event", "message"),
    [
        (["resign single M1"], "end box",
         "the game cannot end while the box's resignation waits for an answer from M1: "
         "accept or refuse it first (resign --accept or --refuse)"),
        (["resign single M1"], "double M1",
         "the box cannot double M1: the box's resignation waits for M1's answer (resign "
         "--accept or --refuse)"),
        ([], "resign-accept C", "there is no resignation offered to C to accept"),
        (["double C"], "resign single C",
         "the box cannot resign to C: a double is pending on C's cube (answer it first)"),
    ],
)  # fmt: skip
def test_resignation_refusals(events, event, message):
    refused(play("B | C, M1", *events, rules=PER_MEMBER), event, message)


def test_no_settlements_turns_deals_off():
    """Cambridge: "No settlements"."""
    refused(
        play("B | C, M1", rules=HouseRules(deals=False)),
        "deal C 1",
        "deals are off in this session (house rule --no-deals: no settlements): play the game out",
    )


# ------------------------------------------------------------ the rules themselves


NEW = {
    "jacoby_scope": "any-cube-turned",
    "beavers_by": "team",
    "beaver_limit": 2,
    "auto_past_limit": "carry-over",
    "box_takes": "break-even",
    "box_doubles": "with-captain",
    "extras": True,
    "mandatory_extras": True,
    "extra_redoubles": True,
    "resignations": "per-member",
    "deals": False,
    "consultation": "after-accept",
}


def test_the_new_rules_default_to_what_chouette_did_and_are_stored_and_described():
    rules = HouseRules(**NEW)
    assert HouseRules.from_dict(rules.to_dict()) == rules
    assert rules.summary() == (
        "jacoby any-cube-turned, beavers-by team, beaver-limit 2, auto-past-limit carry-over, "
        "box-doubles with-captain, box-takes break-even, extras on, mandatory-extras on, "
        "extra-redoubles on, resignations per-member, deals off, consultation after-accept"
    )
    assert HouseRules().summary() == "standard rules"
    older = {k: v for k, v in HouseRules().to_dict().items() if k.replace("-", "_") not in NEW}
    assert HouseRules.from_dict(older) == HouseRules(edition=EDITION)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jacoby": False, "jacoby_scope": "any-cube-turned"},
         "jacoby-scope any-cube-turned needs Jacoby"),
        ({"beavers": False, "raccoons": False, "beavers_by": "box"}, "beavers-by needs beavers"),
        ({"beaver_limit": 0}, "beaver-limit must be 1 or more"),
        ({"extra_redoubles": True}, "extra-redoubles needs extras"),
        ({"box_takes": "most"}, "box-takes must be one of any, half, break-even"),
        ({"auto_past_limit": "roll"}, "auto-past-limit must be one of ignored, box-choice, "
         "carry-over"),
    ],
)  # fmt: skip
def test_a_new_rule_out_of_its_values_is_refused(options, message):
    with pytest.raises(ChouetteError, match=message):
        HouseRules(**options)


# ------------------------------------------------------------ the record


def test_the_new_events_round_trip_through_the_record():
    rules = HouseRules(**{**NEW, "deals": True, "box_doubles": "any", "beavers_by": "both"})
    game = play("B | C, M1, M2", "carry accept 1", "auto", "double C M1 M2", "drop M1",
                "drop M2", "take C", "extra C M1", "double-extra C M1", "take-extra C M1",
                "resign gammon C", "resign-refuse C", "end box", rules=rules, carry=1)  # fmt: skip
    for event in game.events:
        assert parse_event(event_to_json(event), "event", allow_end=True) == event
    record = to_record(game, "fri")
    again, _ = play_record(parse_record(record), game.start_line, rules, carry=1)
    assert again == game
    assert to_record(again, "fri") == record
    assert record["events"][:2] == [
        {"act": "carry", "doubles": 1, "accepted": True},
        {"act": "auto-double", "carried": True},
    ]
