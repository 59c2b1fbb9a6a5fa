"""Club nights, pure: a night settled as one, the debts that last (first in, first out),
and the group chat's message."""

from __future__ import annotations

from collections import Counter
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.money import Cents
from chouette.nights import (
    Debt,
    Night,
    debts_clear,
    debts_of,
    earlier,
    message,
    open_lots,
    owed,
    settle_night,
)
from chouette.settlement import Payment, clears
from tests.examples import examples


def night(name: str, day: int, **balances: Cents) -> Night:
    return Night(name, date(2026, 11, day), balances)


N1 = night("n1", 6, ann=1000, bob=-1000)
N2 = night("n2", 13, bob=400, cat=-400)
N3 = night("n3", 20, bob=-500, ann=500)


def test_a_player_at_two_tables_pays_once():
    tables = [{"ann": 500, "bob": -500}, {"bob": 300, "cat": -300}]
    found = settle_night(tables)
    assert found.payments == [Payment("bob", "ann", 200), Payment("cat", "ann", 300)]
    assert clears({"ann": 500, "bob": -200, "cat": -300}, found.payments)


def test_a_later_night_pays_off_the_oldest_lot_first():
    lots = open_lots([N1, N2, N3])
    assert lots["bob"] == [(N1, -600), (N3, -500)]
    assert lots["ann"] == [(N1, 1000), (N3, 500)]
    assert lots["cat"] == [(N2, -400)]


def test_a_night_that_turns_a_player_round_leaves_a_lot_the_other_way():
    assert open_lots([N1, night("n2", 13, bob=1500, ann=-1500)])["bob"] == [
        (night("n2", 13, bob=1500, ann=-1500), 500)
    ]


def test_what_is_owed_is_dated_by_the_night_the_payers_debt_arose():
    debts, found = owed([N1, N2, N3])
    assert found.payments == [Payment("bob", "ann", 1100), Payment("cat", "ann", 400)]
    assert debts == [  # bob's payment is cut where his lots are: 6.00 from n1, 5.00 from n3
        Debt("bob", "ann", 600, "n1", date(2026, 11, 6)),
        Debt("cat", "ann", 400, "n2", date(2026, 11, 13)),
        Debt("bob", "ann", 500, "n3", date(2026, 11, 20)),
    ]
    assert [d.age(date(2026, 11, 20)) for d in debts] == [14, 7, 0]
    assert debts_of(debts, "cat") == [debts[1]]


def test_a_debt_paid_on_a_later_night_is_owed_no_more():
    paid = night("n2", 13, bob=1000, ann=-1000)  # bob pays ann in a later session
    assert owed([N1, paid])[0] == []


def test_settle_carries_forward_only_what_the_nights_players_had_open_before():
    debts, _ = owed([N1, N2, N3])
    assert earlier(debts, [N1, N2, N3], "n3", {"cat", "dan"}) == [debts[1]]
    assert earlier(debts, [N1, N2, N3], "n2", {"ann", "bob", "cat"}) == [debts[0]]


def test_the_message_says_who_pays_whom_what_is_still_open_and_the_fingerprints():
    debts, _ = owed([N1, N2, N3])
    text = message(
        "Night n3 (fri, fri-2)",
        [Payment("bob", "ann", 500)],
        {"fri": "3f9a1c0b2e", "fri-2": None},
        debts[:1],
    )
    assert list(map(str, text)) == [
        "Night n3 (fri, fri-2): who pays whom",
        "bob pays ann 5.00",
        "Still open from earlier nights:",
        "bob pays ann 6.00 (n1)",
        "Fingerprint: fri 3f9a1c0b2e",
    ]
    assert list(map(str, message("fri (night n1)", [], {"fri": "ab", "sat": "cd"})[1:])) == [
        "everyone is square",
        "Fingerprints: fri ab, sat cd",
    ]


PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay"]


@st.composite
def nights(draw: st.DrawFn) -> list[Night]:
    """Up to six nights, each a zero-sum set of balances among some of six players."""
    found = []
    for number in range(draw(st.integers(1, 6))):
        players = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=5, unique=True))
        amounts = [draw(st.integers(-5000, 5000)) for _ in players[1:]]
        balances = dict(zip(players, [-sum(amounts), *amounts], strict=True))
        found.append(Night(f"n{number}", date(2026, 11, 1 + number), balances))
    return found


@settings(max_examples=examples(30))
@given(nights())
def test_what_is_owed_clears_every_balance_exactly_as_the_fewest_payments_do(found):
    debts, settled = owed(found)
    assert debts_clear(found, debts)
    assert all(d.cents > 0 for d in debts)
    pairs: Counter[tuple[str, str]] = Counter()
    for d in debts:
        pairs[(d.payer, d.payee)] += d.cents
    assert pairs == Counter({(p.payer, p.payee): p.cents for p in settled.payments})
    lots = open_lots(found)
    for player in {d.payer for d in debts}:  # each payer's debts are their open lots
        mine = [d for d in debts if d.payer == player]
        per_night = {n.name: -c for n, c in lots[player]}
        assert {d.night for d in mine} <= set(per_night)
        assert {n: sum(d.cents for d in mine if d.night == n) for n in per_night} == per_night
