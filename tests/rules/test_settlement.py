"""Settlement: the fewest payments, proven, for a whole club night (up to 24 balances).

The optimum is checked two ways: against a brute force over every partition on small
inputs, and by construction on big ones, where the balances are built from zero-sum groups
that cannot split further and cannot mix, so the best split is known."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.settlement import EXACT_LIMIT, Payment, clears, settle, settlement
from tests.examples import examples


def most_groups_by_brute_force(amounts: list[int]) -> int:
    """The largest number of zero-sum groups the non-zero amounts split into: the first
    amount's group is tried as every subset of the others that holds it."""
    items = tuple(sorted(a for a in amounts if a))

    @cache
    def most(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for chosen in range(1 << len(others)):
            group = [others[i] for i in range(len(others)) if chosen >> i & 1]
            if first + sum(group) == 0:
                left = tuple(x for i, x in enumerate(others) if not chosen >> i & 1)
                best = max(best, 1 + most(left))
        return best

    return most(items)


def named(amounts: list[int]) -> dict[str, int]:
    return {f"p{i:02d}": a for i, a in enumerate(amounts)}


# Small amounts, with repeats, so that many subsets sum to zero and the splits compete.
small_balances = st.lists(st.integers(-12, 12).map(lambda x: x * 100), min_size=1, max_size=8).map(
    lambda xs: [*xs, -sum(xs)]
)


@settings(max_examples=examples(400), deadline=None)
@given(small_balances)
def test_the_payments_are_as_few_as_the_brute_force_finds(amounts):
    balances = named(amounts)
    found = settlement(balances)
    nonzero = sum(1 for a in amounts if a)
    assert clears(balances, found.payments)
    assert len(found.payments) == nonzero - most_groups_by_brute_force(amounts)
    assert found.proven and found.balances == nonzero
    assert all(p.cents > 0 for p in found.payments)


# Groups that cannot split: no proper subset sums to zero (shapes checked below).
UNSPLITTABLE = [(1, 2, -3), (1, 3, -4), (2, 3, -5), (1, 2, 4, -7), (1, 1, 3, -5), (2, 5, 6, -13)]
RADIX = 32  # more than twice any group's largest subset sum: groups cannot mix


def test_the_groups_used_for_construction_cannot_split():
    for group in UNSPLITTABLE:
        assert sum(group) == 0
        assert most_groups_by_brute_force(list(group)) == 1, group


def built(shapes: list[int], seed: int) -> dict[str, int]:
    """Balances made of ``len(shapes)`` groups, each its own power of the radix, so that a
    zero-sum subset is a union of whole groups: the best split is the groups."""
    rng = random.Random(seed)
    amounts = []
    for place, shape in enumerate(shapes):
        sign = rng.choice((1, -1))
        amounts += [sign * x * RADIX**place * 100 for x in UNSPLITTABLE[shape]]
    rng.shuffle(amounts)
    names = rng.sample([f"{a}{b}" for a in "abcdefghijk" for b in "xyz"], len(amounts))
    return dict(zip(names, amounts, strict=True))


def mixed(sizes: list[int], seed: int) -> dict[str, int]:
    """Balances made of zero-sum groups of these sizes, amounts of every size mixed (so the
    largest debtor and creditor are rarely in one group)."""
    rng = random.Random(seed)
    amounts = []
    for size in sizes:
        group = [rng.randint(1, 400) * 100 * rng.choice((1, -1)) for _ in range(size - 1)]
        amounts += [*group, -sum(group)]
    rng.shuffle(amounts)
    return named(amounts)


def in_triples(amounts: list[int]) -> bool:
    """Whether the amounts split into zero-sum groups of three (then no split has more
    groups, as no group of an opposite pair or a zero is there: the brute force on triples
    alone)."""

    @cache
    def split(rest: tuple[int, ...]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        for i in range(len(others)):
            for j in range(i + 1, len(others)):
                if first + others[i] + others[j] == 0:
                    left = tuple(x for k, x in enumerate(others) if k not in (i, j))
                    if split(left):
                        return True
        return False

    return split(tuple(sorted(amounts)))


def no_opposite_pair(amounts: list[int]) -> bool:
    return all(a and -a not in amounts for a in amounts)


def test_24_balances_in_groups_of_3_and_4_take_17_payments():
    """Seven groups; no opposite pair, so a group has three players or more, and eight
    groups would be eight triples, which the amounts do not make: 7 is the most, 17 the
    fewest payments (the greedy settlement alone made 23)."""
    balances = mixed([3, 3, 3, 3, 4, 4, 4], seed=0)
    amounts = list(balances.values())
    assert len(amounts) == 24 and no_opposite_pair(amounts) and not in_triples(amounts)
    found = settlement(balances)
    assert len(found.payments) == 17
    assert found.proven and found.note() is None
    assert clears(balances, found.payments)


@settings(max_examples=examples(10), deadline=None)
@given(st.integers())
def test_24_balances_in_eight_triples_take_16_payments(seed):
    """Eight groups of three: no split has more (each needs three players), so 16 payments
    are the fewest, whatever else the amounts allow."""
    balances = mixed([3] * 8, seed)
    amounts = list(balances.values())
    payments = settle(balances)
    assert clears(balances, payments)
    if no_opposite_pair(amounts):
        assert len(payments) == 16
    else:
        assert len(payments) <= 16


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.integers(0, len(UNSPLITTABLE) - 1), min_size=1, max_size=4), st.integers())
def test_balances_built_from_groups_take_one_payment_fewer_per_group(shapes, seed):
    balances = built(shapes, seed)
    payments = settle(balances)
    assert len(payments) == len(balances) - len(shapes)
    assert clears(balances, payments)


def test_the_settlement_is_the_same_whatever_order_the_balances_come_in():
    balances = built([0, 1, 3, 4, 5], seed=7)
    again = dict(reversed(list(balances.items())))
    assert settle(again) == settle(balances)
    assert settle(balances) == sorted(settle(balances), key=lambda p: (p.payer, p.payee))


def test_opposite_pairs_are_settled_first_and_do_not_count_against_the_limit():
    pairs = {f"pair{i:02d}": ((i + 1) * 100 + 7) * (-1) ** i for i in range(20)}
    pairs |= {f"pairx{i:02d}": -c for i, c in enumerate(pairs.values())}
    balances = pairs | built([0, 3], seed=1)
    found = settlement(balances)
    assert found.balances == 47 and found.proven
    assert len(found.payments) == 20 + 7 - 2
    assert clears(balances, found.payments)


def test_beyond_the_limit_the_payments_are_at_most_n_minus_one_and_say_so():
    rng = random.Random(5)
    amounts = [rng.randint(1, 10**9) * (1 if i % 2 else -1) for i in range(EXACT_LIMIT + 1)]
    amounts.append(-sum(amounts))
    balances = named(amounts)
    found = settlement(balances)
    assert not found.proven
    assert found.balances == EXACT_LIMIT + 2 and found.bound == EXACT_LIMIT + 1
    assert len(found.payments) <= found.bound
    assert clears(balances, found.payments)
    assert str(found.note()) == (
        f"{len(found.payments)} payments for 26 balances: at most n − 1 = 25, not proven the "
        "fewest (chouette proves that for up to 24 balances)"
    )


@pytest.mark.parametrize(
    ("balances", "payments"),
    [
        ({}, []),
        ({"ann": 0, "bob": 0}, []),
        ({"ann": 500, "bob": -500}, [Payment("bob", "ann", 500)]),
        (
            {"ann": 300, "bob": 200, "cat": -500, "dan": 100, "eve": -100},
            [Payment("cat", "ann", 300), Payment("cat", "bob", 200), Payment("eve", "dan", 100)],
        ),
    ],
)
def test_small_settlements(balances, payments):
    assert settle(balances) == payments


# ------------------------------------------------------------ a player leaving early


def test_a_player_leaving_pays_those_owed_the_most_first():
    from chouette.settlement import leaving

    balances = {"ann": -700, "bob": 500, "cat": 300, "dan": -100}
    assert leaving(balances, "ann") == [Payment("ann", "bob", 500), Payment("ann", "cat", 200)]
    assert leaving(balances, "cat") == [Payment("ann", "cat", 300)]
    assert leaving({"ann": 0, "bob": 0}, "ann") == []


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(-5000, 5000), min_size=1, max_size=8), st.data())
def test_a_player_leaving_is_settled_and_nobody_else_is_pushed_past_zero(amounts, data):
    """A law: the leaving player's payments clear their balance exactly, and each other
    player's balance only moves toward zero."""
    from chouette.settlement import leaving

    names = [f"p{i}" for i in range(len(amounts) + 1)]
    balances = dict(zip(names, [*amounts, -sum(amounts)], strict=True))
    who = data.draw(st.sampled_from(names))
    after = dict(balances)
    for p in leaving(balances, who):
        after[p.payer] += p.cents
        after[p.payee] -= p.cents
    assert after[who] == 0
    for name in names:
        assert abs(after[name]) <= abs(balances[name])
        assert after[name] * balances[name] >= 0
