"""Exposure (chouette/exposure.py): the most each player can lose on the game as its cubes
stand, and the credit check it feeds (house rule ``credit-rule``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.errors import ChouetteError
from chouette.exposure import exposure, past_credit
from chouette.game import Answer, End, apply
from chouette.line import new_line
from chouette.outcome import settle_game
from chouette.rules import HouseRules
from tests.examples import examples
from tests.strategies import games
from tests.table import ev, outcome, play, play_on

ONES = dict.fromkeys(["B", "P", "C", "M1", "M2"], 100)


def test_a_centred_cube_under_jacoby_risks_a_single_a_turned_one_a_backgammon():
    game = play("B | C, M1", "double C", "take C")
    risk = exposure(game, ONES)
    assert risk.points == {"B": 6 + 1, "C": 6, "M1": 1}
    assert risk.cents == {"B": 700, "C": 600, "M1": 100}


def test_a_double_waiting_for_an_answer_counts_as_taken():
    game = play("B | C, M1", "double C --by member")
    assert exposure(game, ONES).points == {"B": 6 + 1, "C": 6, "M1": 1}


def test_a_pair_over_counts_what_it_booked():
    game = play("B | C, M1", "double C", "drop C")
    assert exposure(game, ONES).points == {"B": 0, "C": 1, "M1": 1}  # B won 1, risks 1


def test_the_partner_shares_the_box_sides_risk():
    rules = HouseRules(partner_from=4)
    game = play("B+P | C, M1", "double C", "take C", rules=rules)
    risk = exposure(game, ONES)
    assert (risk.points["P"], risk.points["B"]) == (3, 4)  # 50% of 7, the odd point to the box


def test_a_double_past_the_credit_is_named_with_the_numbers():
    before = play("B | C, M1")
    after = apply(before, ev("double C --by member"))
    (past,) = past_credit(before, after, (ev("double C --by member"),), ONES, {}, {"C": 500})
    assert (past.player, past.balance, past.most, past.credit) == ("C", 0, 600, 500)
    doubled = (ev("double C --by member"),)
    assert past_credit(before, after, doubled, ONES, {"C": 100}, {"C": 500}) == []
    assert past_credit(before, after, doubled, ONES, {}, {"M1": 0}) == []


def test_a_box_all_in_may_lose_more_money_than_its_bank_at_its_highest_stake():
    """Found by the law below: under table stakes the box's bank caps its points, not its
    money. Three members at a stake of 1 drop the box's double (+3 for the box); two at 2 or
    more take and win a gammon (4 each): the box pays the 3 it took and its bank of 5, all at
    2, and loses 5 points but 13 cents, more than its bank at its highest stake (10)."""
    rules = HouseRules(cubes="single", table_stakes=5, jacoby=False)
    line = new_line(["ann", "bob", "cat", "dan", "eve", "fay"], rules)
    stakes = {"ann": 2, "bob": 1, "cat": 1, "dan": 7, "eve": 1, "fay": 23}
    game = play(line, "double", "drop eve", "drop bob", "drop cat", rules=rules)
    risk = exposure(game, stakes)
    assert (risk.points["ann"], risk.cents["ann"]) == (5, 13)
    result = outcome(play_on(game, "take dan", "take fay", "end team gammon"), stakes)
    assert (result.points["ann"], result.cents["ann"]) == (-5, -13)


def test_a_box_all_in_may_lose_money_most_on_a_board_it_wins():
    """Its worst is the worst of the board's ends: here the box pays C (stake 10) the 2 it
    dropped whatever happens; winning the board takes 1 from M1 at a stake of 1 (-19 cents),
    losing it caps what the box pays at its bank and shares it with M1 (-11 cents)."""
    rules = HouseRules(table_stakes=2)
    stakes = {"B": 10, "C": 10, "M1": 1}
    line = new_line(["B", "C", "M1"], rules)
    game = play(line, "double C", "take C", "double C --by member", "drop C", rules=rules)
    assert exposure(game, stakes).cents["B"] == 19
    assert outcome(play_on(game, "end box"), stakes).cents["B"] == -19
    assert outcome(play_on(game, "end team gammon"), stakes).cents["B"] == -11


@settings(max_examples=examples(40), deadline=None)
@given(games(max_events=15), st.data())
def test_nobody_loses_more_than_their_exposure_when_the_cubes_stand(played, data):
    """A law: from any state of a game, every pending turn taken and the board ended either
    way at any level, nobody loses more than their exposure said."""
    *_, states = played
    state = data.draw(st.sampled_from([s for s in states if not s.over] or states[:1]))
    if state.over or state.resigning or state.carry_in or state.lone_taker is not None:
        return
    if any(c.offered for c in state.extra_cubes):
        return
    stakes = {p: data.draw(st.integers(1, 300), label=p) for p in state.players}
    risk = exposure(state, stakes)
    game = state
    try:
        for member in sorted(state.pending):
            if game.cubes[member].offer is not None:
                game = apply(game, Answer("take", member))
        winner = data.draw(st.sampled_from(["box", "team"]))
        kind = data.draw(st.sampled_from(["single", "gammon", "backgammon"]))
        game = apply(game, End(winner, kind))  # type: ignore[arg-type]
    except ChouetteError:
        return  # (an answer the rules hold back: nothing to compare)
    cents = settle_game(game, stakes).cents
    for player, booked in cents.items():
        assert -booked <= risk.cents[player], (player, booked, risk.cents)
