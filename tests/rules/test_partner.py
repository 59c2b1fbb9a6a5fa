"""The box's partner (RULES.md §4, CLUB-RULESETS.md §1.8 and §1.9): who it is
(``partner-pick``, ``partner-optional``), how long it lasts (``partner-run``, Woolsey) and
the Chicago buy-out (``buy-outs``, Simborg), as score sheets."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chouette.errors import ChouetteError
from chouette.line import choose_partner, leave, new_line
from chouette.rules import HouseRules
from tests.table import outcome, play, play_on, show

CHICAGO = HouseRules(partner_from=6, buy_outs=True)


# ------------------------------------------------------------ the Chicago buy-out


def four_cubes_at_two_held_by_the_box():
    game = play("B+P | C, M1, M2, M3", rules=CHICAGO)
    for member in ("C", "M1", "M2", "M3"):
        game = play_on(game, f"double {member} --by member", f"take {member}")
    return game


def test_a_buy_out_of_four_cubes_at_two_pays_the_partner_four_points():
    """Simborg [S19]: "4 cubes at 2 → pay 4 points"; the box plays them alone after it."""
    game = play_on(four_cubes_at_two_held_by_the_box(), "buy-out")
    assert game.bought_out == {"C": 2, "M1": 2, "M2": 2, "M3": 2}
    game = play_on(game, "double C M1 M2 M3", "take C", "take M1", "take M2", "take M3")
    result = outcome(play_on(game, "end box"))
    assert result.points == {"B": 12, "P": 4, "C": -4, "M1": -4, "M2": -4, "M3": -4}
    assert any("P, the box's partner, was bought out" in str(why) for why in result.why)


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("en", "B buys P out of 4 cubes worth 8: P takes 50% of it, and B plays them alone "
         "(buy-outs)"),
        ("da", "B køber P ud af 4 terninger til 8: P får 50% af dem, og B spiller dem alene "
         "(buy-outs)"),
        ("cs", "bankéř B vyplácí partnera P z 4 kostek v hodnotě 8: P bere 50 % z nich a B je "
         "hraje sám (buy-outs)"),
    ],
)  # fmt: skip
def test_a_buy_out_says_why_in_each_language(code, why):
    from files.words import words

    game = play_on(four_cubes_at_two_held_by_the_box(), "buy-out")
    assert words(code)(game.why[-1]) == why


def test_a_partner_bought_out_is_paid_even_when_the_box_loses_the_cubes():
    game = play_on(four_cubes_at_two_held_by_the_box(), "buy-out", "end team")
    result = outcome(game)
    assert result.points == {"B": -12, "P": 4, "C": 2, "M1": 2, "M2": 2, "M3": 2}


def test_the_partner_keeps_their_share_of_the_pairs_over_before_the_buy_out():
    game = play("B+P | C, M1, M2, M3", "double M3 --by member", "drop M3", rules=CHICAGO)
    game = play_on(game, "double M2 --by member", "drop M2", "buy-out", "end box")
    result = outcome(game)  # P: half of -2 (the drops) and half of 2 (the two cubes bought)
    assert result.points == {"B": 0, "P": 0, "C": -1, "M1": -1, "M2": 1, "M3": 1}


def test_a_buy_out_at_a_partner_share_of_a_third_rounds_toward_the_box():
    rules = HouseRules(partner_from=6, buy_outs=True, partner_share=33)
    game = play("B+P | C, M1, M2, M3", "buy-out", "end box", rules=rules)
    result = outcome(game)  # 33% of 4 cubes at 1 is 1.32: 1 to the partner, the rest to the box
    assert result.points["P"] == 1 and result.points["B"] == 3


@pytest.mark.parametrize(
    ("rules", "line", "events", "message"),
    [
        (HouseRules(partner_from=6), "B+P | C, M1, M2, M3", [], "no buy-outs in this session"),
        (CHICAGO, "B | C, M1, M2", [], "B plays without a partner"),
        (CHICAGO, "B+P | C, M1, M2, M3", ["buy-out"], "P was bought out already"),
        (CHICAGO, "B+P | C, M1, M2, M3", ["double C"], "not with a decision pending"),
    ],
)
def test_a_buy_out_is_refused_where_it_cannot_be(rules, line, events, message):
    game = play(line, *events, rules=rules)
    with pytest.raises(ChouetteError, match=message):
        play_on(game, "buy-out")


# ------------------------------------------------------------ who the partner is


def test_the_box_names_its_partner_under_partner_pick_box():
    rules = HouseRules(partner_from=5, partner_pick="box")
    line = new_line(["B", "C", "M1", "M2", "M3"], rules)
    assert line.partner is None  # nobody is picked: the box names one, or plays alone
    line = choose_partner(line, "M2", rules)
    assert show(line) == "B+M2 | C, M1, M3"
    result = outcome(play(line, "end box", rules=rules))  # the partnership keeps the box
    assert show(result.next_line) == "B+M2 | M1, M3, C"
    lost = outcome(play(line, "end team", rules=rules))  # the new box names its own
    assert show(lost.next_line) == "C | M2, M1, M3, B"


@pytest.mark.parametrize(
    ("rules", "name", "message"),
    [
        (HouseRules(), "M1", "no box partners"),
        (HouseRules(partner_from=5), "M1", "picked by the house rule partner-pick next"),
        (HouseRules(partner_from=5, partner_pick="box"), "C", "C is the captain"),
        (HouseRules(partner_from=5, partner_pick="box"), "B", "B is the box"),
        (HouseRules(partner_from=5, partner_pick="box"), "Z", "Z is not in the line"),
        (HouseRules(partner_from=6, partner_pick="box"), "M1", "5 seated, and a partner from 6"),
        (HouseRules(partner_from=5), None, "a partner is not optional"),
    ],
)
def test_a_partner_that_cannot_be_named_is_refused(rules, name, message):
    line = new_line(["B", "C", "M1", "M2", "M3"], rules)
    with pytest.raises(ChouetteError, match=message):
        choose_partner(line, name, rules)


def test_an_optional_partner_declined_stays_declined_for_the_box_run():
    """Colorado [S3]: "Optionally Box may take a Partner when there are 6 or more players"."""
    rules = HouseRules(partner_from=6, partner_pick="last", partner_optional=True)
    line = new_line(["B", "C", "M1", "M2", "M3", "M4"], rules)
    assert line.partner == "M4"
    alone = choose_partner(line, None, rules)
    assert show(alone) == "B | C, M1, M2, M3, M4" and alone.alone
    kept = outcome(play(alone, "end box", rules=rules)).next_line
    assert show(kept) == "B | M1, M2, M3, M4, C"  # the box's run goes on alone
    lost = outcome(play(kept, "end team", rules=rules)).next_line
    assert lost.partner is not None and not lost.alone  # a new box is offered a partner
    with pytest.raises(ChouetteError, match="B already plays alone"):
        choose_partner(alone, None, rules)


def five_left(rules):
    """``B+P | C, M1, M2, M3`` after M3 leaves: five seated, below partner-from 6."""
    line = replace(new_line(["B", "P", "C", "M1", "M2", "M3"], rules), partner="P")
    return leave(line, "M3", rules)


@pytest.mark.parametrize(
    ("run", "expected"), [(False, "B | P, C, M1, M2"), (True, "B+P | C, M1, M2")]
)
def test_a_partnership_ends_below_partner_from_unless_it_lasts_the_box_run(run, expected):
    """Woolsey [S2]: "the partnership remains intact for the remainder of the box run"."""
    assert show(five_left(HouseRules(partner_from=6, partner_run=run))) == expected


def test_a_partnership_kept_through_the_run_ends_with_the_box_run():
    rules = HouseRules(partner_from=6, partner_run=True)
    line = five_left(rules)
    assert show(line) == "B+P | C, M1, M2"
    kept = outcome(play(line, "end box", rules=rules)).next_line
    assert show(kept) == "B+P | M1, M2, C"
    lost = outcome(play(kept, "end team", rules=rules)).next_line
    assert show(lost) == "M1 | P, M2, C, B"  # five seated: no new partnership


# ------------------------------------------------------------ partner-pick last


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
