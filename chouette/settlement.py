"""Who pays whom: the fewest payments that clear a set of balances exactly.

Balances that sum to zero split into zero-sum groups; a group of k players needs k − 1
payments, so the fewest payments is n − m where m is the largest number of groups. For up to
:data:`EXACT_LIMIT` non-zero balances that maximum is found exactly by a dynamic programme
over subsets; beyond it, opposite pairs are matched first and the rest settled greedily,
which never needs more than n − 1 payments.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from chouette.errors import ChouetteError
from chouette.money import Cents, format_money

EXACT_LIMIT = 18


@dataclass(frozen=True, order=True)
class Payment:
    payer: str
    payee: str
    cents: Cents


def settle(balances: Mapping[str, Cents]) -> list[Payment]:
    """The fewest payments that bring every balance to zero (positive balance = is owed)."""
    total = sum(balances.values())
    if total != 0:
        raise ChouetteError(f"the balances do not sum to zero (off by {format_money(total)})")
    people = sorted((name, cents) for name, cents in balances.items() if cents)
    payments: list[Payment] = []
    rest: list[tuple[str, Cents]] = []
    # An opposite pair (x, -x) is always a group of its own in some optimal settlement.
    by_amount: dict[Cents, list[str]] = {}
    for name, cents in people:
        partners = by_amount.get(-cents)
        if partners:
            other = partners.pop(0)
            payer, payee = (name, other) if cents < 0 else (other, name)
            payments.append(Payment(payer, payee, abs(cents)))
        else:
            by_amount.setdefault(cents, []).append(name)
    rest = sorted((n, c) for c, names in by_amount.items() for n in names)
    groups = _optimal_groups(rest) if len(rest) <= EXACT_LIMIT else [rest]
    for group in groups:
        payments += _settle_group(group)
    return sorted(payments, key=lambda p: (p.payer, p.payee, p.cents))


def _optimal_groups(people: list[tuple[str, Cents]]) -> list[list[tuple[str, Cents]]]:
    """The largest partition of ``people`` into zero-sum groups (exact, O(2^n · n))."""
    n = len(people)
    if n == 0:
        return []
    full = (1 << n) - 1
    amounts = [c for _, c in people]
    sums = [0] * (1 << n)
    best = [0] * (1 << n)
    came_from = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
        top, top_bit, bits = -1, 0, mask
        while bits:
            bit = bits & -bits
            value = best[mask ^ bit]
            if value > top:
                top, top_bit = value, bit
            bits ^= bit
        best[mask] = top + (1 if sums[mask] == 0 else 0)
        came_from[mask] = top_bit
    groups: list[list[tuple[str, Cents]]] = []
    current: list[tuple[str, Cents]] = []
    mask = full
    # Walk the chain back: each zero-sum mask on it closes a group.
    while mask:
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        bit = came_from[mask]
        current.append(people[bit.bit_length() - 1])
        mask ^= bit
    if current:
        groups.append(current)
    return groups


def _settle_group(group: list[tuple[str, Cents]]) -> list[Payment]:
    """A zero-sum group of k players in at most k − 1 payments: the largest debtor pays the
    largest creditor, and each payment clears at least one of them."""
    debtors = sorted(((-c, n) for n, c in group if c < 0), reverse=True)
    creditors = sorted(((c, n) for n, c in group if c > 0), reverse=True)
    payments = []
    d = c = 0
    owe = [amount for amount, _ in debtors]
    due = [amount for amount, _ in creditors]
    while d < len(debtors) and c < len(creditors):
        amount = min(owe[d], due[c])
        payments.append(Payment(debtors[d][1], creditors[c][1], amount))
        owe[d] -= amount
        due[c] -= amount
        if owe[d] == 0:
            d += 1
        if due[c] == 0:
            c += 1
    return payments


def clears(balances: Mapping[str, Cents], payments: list[Payment]) -> bool:
    """The law every settlement obeys: after the payments every balance is exactly zero."""
    left = dict(balances)
    for p in payments:
        left[p.payer] = left.get(p.payer, 0) + p.cents
        left[p.payee] = left.get(p.payee, 0) - p.cents
    return all(v == 0 for v in left.values())
