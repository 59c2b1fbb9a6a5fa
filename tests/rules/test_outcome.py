"""A finished game booked (chouette/outcome.py): the partner's share at their own stake,
and the box's retention when a pair was dealt at 0 with the captain."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.errors import RuleError
from chouette.outcome import book
from chouette.rules import HouseRules
from tests.table import outcome, play, show

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


# ------------------------------------------------------------ a deal at 0 with the captain


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
    assert why in tuple(map(str, outcome(game).why))


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
