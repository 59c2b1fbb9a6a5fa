"""What a player may propose from their phone: their own answers, their own payments."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.errors import RuleError
from chouette.game import Answer, apply
from chouette.proposals import (
    MOST_WAITING,
    Proposal,
    answers_open,
    check_answer,
    check_payment,
    check_waiting,
)
from chouette.rules import HouseRules
from chouette.settlement import Payment, settle
from tests.table import play, play_on

FOUR = "B | C, M1, M2"


def acts(found: tuple[Proposal, ...]) -> set[tuple[str, str, str]]:
    return {(p.player, p.act, p.member) for p in found}


def test_a_member_the_box_doubled_may_propose_their_own_answers_only():
    game = play(FOUR, "double M1")
    assert acts(answers_open(game, 1, "M1")) == {
        ("M1", "take", "M1"),
        ("M1", "drop", "M1"),
        ("M1", "beaver", "M1"),
    }
    for other in ("B", "C", "M2", "nobody"):  # the box, the others: nothing of M1's
        assert answers_open(game, 1, other) == ()


def test_the_box_answers_a_members_double_and_the_member_does_not():
    game = play(FOUR, "double M2 --by member")
    assert acts(answers_open(game, 1, "B")) >= {("B", "take", "M2"), ("B", "drop", "M2")}
    assert answers_open(game, 1, "M2") == ()


def test_no_answer_is_offered_without_a_double_or_between_games():
    assert answers_open(play(FOUR), 1, "C") == ()
    assert answers_open(None, 2, "C") == ()


def test_a_beaver_the_house_rules_forbid_is_not_offered():
    game = play(FOUR, "double C", rules=HouseRules(beavers=False, raccoons=False))
    assert acts(answers_open(game, 1, "C")) == {("C", "take", "C"), ("C", "drop", "C")}


def test_an_answer_checked_again_applies_while_its_double_waits():
    game = play(FOUR, "double C")
    (take, *_rest) = answers_open(game, 1, "C")
    check_answer(game, 1, take)  # nothing raised
    apply(game, Answer("take", "C"))


@pytest.mark.parametrize(
    ("later", "number", "reason"),
    [
        (["take C"], 1, "the double on C's cube that C answered is no longer waiting"),
        (["drop C"], 1, "the double on C's cube that C answered is no longer waiting"),
        (  # answered, then the box doubles again: not the double the player saw
            ["take C", "double C --by member", "take C", "double C"],
            1,
            "the double on C's cube that C answered is no longer waiting",
        ),
        ([], 2, "game 1 is over: C's answer no longer applies"),
    ],
)
def test_an_answer_the_game_moved_past_is_refused_with_its_reason(later, number, reason):
    game = play(FOUR, "double C")
    take = answers_open(game, 1, "C")[0]
    moved = play_on(game, *later)
    with pytest.raises(RuleError) as refused:
        check_answer(moved, number, take)
    assert str(refused.value) == reason


def test_an_answer_forged_for_another_players_cube_is_refused():
    game = play(FOUR, "double M1")
    forged = Proposal("M2", "take", "M1", 1, 0, "double")
    with pytest.raises(RuleError) as refused:
        check_answer(game, 1, forged)
    assert str(refused.value) == (
        "M2 does not answer the double on M1's cube: a player proposes only their own decisions"
    )
    with pytest.raises(RuleError):  # the box cannot take the box's own double either
        check_answer(game, 1, Proposal("B", "take", "M1", 1, 0, "double"))
    with pytest.raises(RuleError):  # nor an act that is no answer
        check_answer(game, 1, Proposal("M1", "pay", "M1", 1, 0, "double"))


def test_a_payment_is_a_settlement_line_the_player_pays():
    payments = settle({"ann": 1250, "bob": -1000, "cat": -250})
    mine = Proposal("bob", "pay", payee="ann", cents=1000)
    check_payment(payments, mine)
    for forged in (
        Proposal("ann", "pay", payee="bob", cents=1000),  # the payee claims to pay
        Proposal("cat", "pay", payee="ann", cents=1000),  # another's amount
        Proposal("bob", "pay", payee="ann", cents=999),
        Proposal("bob", "pay", payee="cat", cents=1000),
    ):
        with pytest.raises(RuleError):
            check_payment(payments, forged)


@given(
    st.dictionaries(
        st.sampled_from(["ann", "bob", "cat", "dan", "eve"]),
        st.integers(-(10**6), 10**6),
        min_size=1,
    )
)
def test_only_the_payer_of_a_settlement_line_may_propose_it(balances):
    """For any balances: every line of the settlement may be proposed by its payer, and by
    nobody else."""
    balances = {**balances, "zed": -sum(balances.values())}
    payments = settle(balances)
    for line in payments:
        check_payment(payments, Proposal(line.payer, "pay", payee=line.payee, cents=line.cents))
        for other in balances:
            if any(
                (p.payer, p.payee, p.cents) == (other, line.payee, line.cents) for p in payments
            ):
                continue
            with pytest.raises(RuleError):
                check_payment(payments, Proposal(other, "pay", payee=line.payee, cents=line.cents))


def test_a_flood_is_refused_past_the_most_waiting():
    for waiting in range(MOST_WAITING):
        check_waiting("bob", waiting)
    with pytest.raises(RuleError) as refused:
        check_waiting("bob", MOST_WAITING)
    assert str(refused.value).startswith(f"bob has {MOST_WAITING} proposals waiting")


def test_a_proposal_is_the_commands_own_line():
    assert Proposal("C", "take", "C", 1, 0, "double").words() == ["take", "--", "C"]
    assert Proposal("bob", "pay", payee="ann", cents=1250).words() == [
        "pay",
        "--",
        "bob",
        "ann",
        "12.50",
    ]
    assert str(Proposal("B", "drop", "M2").told()) == "B drops M2's double"
    assert str(Proposal("C", "beaver", "C").told()) == "C beavers the box's double"
    assert str(Proposal("bob", "pay", payee="ann", cents=1250).told()) == "bob paid ann 12.50"
    assert isinstance(settle({"a": 1, "b": -1})[0], Payment)
