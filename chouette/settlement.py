"""Who pays whom: the fewest payments that clear a set of balances exactly.

Balances that sum to zero split into zero-sum groups; a group of k players needs k − 1
payments, so the fewest payments is n − m, where n is the number of non-zero balances and m
the largest number of groups they split into. Two steps find m:

- An opposite pair (x, −x) is a group of its own in some best split (exchange any best split
  so that it is), so such pairs are matched first; what is left has no opposite pair, and
  every group there has at least three players.
- The rest, up to :data:`EXACT_LIMIT` balances (a whole club night), is split exactly, by a
  dynamic programme over its subsets held as bit sets: bit ``mask`` of ``level[k]`` says that
  the players in ``mask`` (a zero-sum subset) split into at least k zero-sum groups. Level 0
  is the empty set; level k is every zero-sum subset that strictly holds one of level k − 1
  (an upward closure, one shift per player). The zero-sum subsets come from the sums of the
  two halves of the players (meet in the middle). The work is a fixed number of whole-bit-set
  operations, however the amounts fall: 24 balances take about half a second of CPU.

Beyond :data:`EXACT_LIMIT` balances left after the pairs, the rest is settled as one group
(the largest debtor pays the largest creditor, each payment clearing one of them): at most
n − 1 payments, not proven fewest; :func:`settlement` says which of the two it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from chouette.errors import ChouetteError
from chouette.money import Cents
from chouette.words import Money, Sayable, said, said_n

EXACT_LIMIT = 24

Person = tuple[str, Cents]


@dataclass(frozen=True, order=True)
class Payment:
    payer: str
    payee: str
    cents: Cents


@dataclass(frozen=True)
class Settlement:
    """The payments, with what is known of them: ``proven`` (the fewest possible) for up to
    :data:`EXACT_LIMIT` balances left after the opposite pairs; otherwise at most ``bound``
    (n − 1) for the ``balances`` non-zero balances."""

    payments: list[Payment]
    balances: int
    proven: bool

    @property
    def bound(self) -> int:
        """At most this many payments: n − 1 for n non-zero balances (0 for none)."""
        return max(self.balances - 1, 0)

    def note(self) -> Sayable | None:
        """What a report says under payments not proven fewest (None when they are)."""
        if self.proven:
            return None
        return said_n(
            "{n} payment for {balances} balances: at most n − 1 = {bound}, not proven the "
            "fewest (chouette proves that for up to {most} balances)",
            "{n} payments for {balances} balances: at most n − 1 = {bound}, not proven the "
            "fewest (chouette proves that for up to {most} balances)",
            len(self.payments),
            n=len(self.payments),
            balances=self.balances,
            bound=self.bound,
            most=EXACT_LIMIT,
        )


def unbalanced(total: Cents) -> Sayable:
    """Why balances that do not sum to zero cannot be settled."""
    return said("the balances do not sum to zero (off by {amount})", amount=Money(total))


def settle(balances: Mapping[str, Cents]) -> list[Payment]:
    """The fewest payments that bring every balance to zero (positive balance = is owed)."""
    return settlement(balances).payments


def settlement(balances: Mapping[str, Cents]) -> Settlement:
    """:func:`settle`'s payments, and whether they are proven the fewest."""
    total = sum(balances.values())
    if total != 0:
        raise ChouetteError(unbalanced(total))
    people = sorted((name, cents) for name, cents in balances.items() if cents)
    payments: list[Payment] = []
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
    proven = len(rest) <= EXACT_LIMIT
    groups = optimal_groups(rest) if proven else [rest]
    for group in groups:
        payments += _settle_group(group)
    payments.sort(key=lambda p: (p.payer, p.payee, p.cents))
    return Settlement(payments, len(people), proven)


def leaving(balances: Mapping[str, Cents], player: str) -> list[Payment]:
    """The payments that settle ``player`` alone, now (a player leaving early): what they
    owe goes to those owed the most first, or those who owe the most pay them first (ties in
    name order), each no more than their own balance; everyone else's balance moves by what
    they pay or are paid, and the rest settle later."""
    total = sum(balances.values())
    if total != 0:
        raise ChouetteError(unbalanced(total))
    own = balances.get(player, 0)
    sign = 1 if own < 0 else -1  # owing: pay those owed; owed: paid by those who owe
    others = sorted(
        ((name, cents) for name, cents in balances.items() if name != player and sign * cents > 0),
        key=lambda item: (-abs(item[1]), item[0]),
    )
    payments, left = [], abs(own)
    for name, cents in others:
        if left == 0:
            break
        part = min(left, abs(cents))
        payer, payee = (player, name) if own < 0 else (name, player)
        payments.append(Payment(payer, payee, part))
        left -= part
    return payments


def optimal_groups(people: list[Person]) -> list[list[Person]]:
    """The largest partition of ``people`` (whose amounts sum to zero, with no opposite pair
    among them) into zero-sum groups; exact, in O(n · 2^n / word) whole-bit-set operations.
    Ties go the same way every time."""
    n = len(people)
    if n < 3:  # nobody, or one opposite pair
        return [people] if people else []
    amounts = [c for _, c in people]
    zero = _zero_sum_subsets(amounts)
    holding = [_holding(i, n) for i in range(n)]
    most = n // 3  # no opposite pair: every group has three players or more
    # Meet in the middle: the players split into j1 + j2 groups when some zero-sum set M
    # splits into j1 and the others into j2, so levels are built up to half the answer.
    levels = [1]  # level 0: the empty set alone
    best, middle = 1, (0, 0)  # everyone is one group: M = the empty set
    while 2 * len(levels) - 1 <= most:
        above = zero & _strict_supersets(levels[-1], holding)
        if not above:
            break
        levels.append(above)
        j = len(levels) - 1
        for j1, j2 in ((j, j - 1), (j, j)):
            both = levels[j1] & _complements(levels[j2], n)
            if both and j1 + j2 > best:
                best, middle = j1 + j2, (both.bit_length() - 1, j1)
        if best < 2 * j:  # the level below did not meet itself: no more to find
            break
    inside, j1 = middle
    groups = _chain(people, levels, inside, j1)
    groups += _chain(people, levels, inside ^ ((1 << n) - 1), best - j1)
    return groups


def _chain(people: list[Person], levels: list[int], mask: int, k: int) -> list[list[Person]]:
    """``mask`` (a set of level k) as k zero-sum groups: a set of level k holds one of level
    k − 1, and their difference is a group."""
    n = len(people)
    groups = []
    for level in range(k, 0, -1):
        inner = _proper_subset_in(levels[level - 1], mask, n) if level > 1 else 0
        groups.append([people[i] for i in range(n) if (mask ^ inner) >> i & 1])
        mask = inner
    return groups


_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def _complements(sets: int, n: int) -> int:
    """Bit ``mask`` set when the complement of ``mask`` is one of ``sets``: the bit set read
    backwards."""
    size = (1 << n) // 8
    return int.from_bytes(sets.to_bytes(size, "little").translate(_REVERSED), "big")


def _halves(n: int) -> int:
    """How many players the low half holds: a row of the bit sets is 2^low bits (a whole
    number of bytes)."""
    return max(3, (n + 1) // 2)


def _subset_sums(amounts: list[Cents]) -> list[Cents]:
    sums = [0] * (1 << len(amounts))
    for mask in range(1, len(sums)):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
    return sums


def _zero_sum_subsets(amounts: list[Cents]) -> int:
    """Bit ``mask`` set when the players in ``mask`` sum to zero (the empty set included):
    each row (a subset of the high half) is the set of low-half subsets with the opposite
    sum."""
    low = _halves(len(amounts))
    width = (1 << low) // 8
    by_sum: dict[Cents, int] = {}
    for mask, total in enumerate(_subset_sums(amounts[:low])):
        by_sum[total] = by_sum.get(total, 0) | (1 << mask)
    rows: dict[Cents, bytes] = {}
    empty = bytes(width)
    out = []
    for total in _subset_sums(amounts[low:]):
        row = rows.get(-total)
        if row is None:
            bits = by_sum.get(-total)
            row = rows[-total] = empty if bits is None else bits.to_bytes(width, "little")
        out.append(row)
    return int.from_bytes(b"".join(out), "little")


def _holding(player: int, n: int) -> int:
    """Bit ``mask`` set for every subset of n players that holds ``player`` (n ≥ 3)."""
    if player < 3:
        pattern = bytes([(0xAA, 0xCC, 0xF0)[player]])
    else:
        half = 1 << (player - 3)
        pattern = bytes(half) + b"\xff" * half
    return int.from_bytes(pattern * ((1 << n) // 8 // len(pattern)), "little")


def _strict_supersets(sets: int, holding: list[int]) -> int:
    """Every subset that strictly holds one of ``sets``: one player added, then any more
    (``holding[i]``: the subsets that hold player i)."""
    grown = 0
    for i, having in enumerate(holding):
        grown |= (sets << (1 << i)) & having
    for i, having in enumerate(holding):
        grown |= (grown << (1 << i)) & having
    return grown


def _proper_subset_in(sets: int, mask: int, n: int) -> int:
    """The first proper subset of ``mask`` that is one of ``sets`` (there is one), looking
    at the largest subsets of the high half first, then the largest of the low half."""
    low = _halves(n)
    width = (1 << low) // 8
    table = sets.to_bytes(((1 << n) + 7) // 8, "little")
    low_mask, high_mask = mask & ((1 << low) - 1), mask >> low
    within = 0  # the subsets of low_mask, as a row
    sub = low_mask
    while True:
        within |= 1 << sub
        if sub == 0:
            break
        sub = (sub - 1) & low_mask
    high = high_mask
    while True:
        row = int.from_bytes(table[high * width : (high + 1) * width], "little") & within
        if high == high_mask:
            row &= ~(1 << low_mask)  # not mask itself
        if row:
            return (high << low) | (row.bit_length() - 1)
        if high == 0:
            raise AssertionError("no smaller set on the level below")  # the levels say there is
        high = (high - 1) & high_mask


def _settle_group(group: list[Person]) -> list[Payment]:
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
