"""Fees and shared costs: money owed for the night, not won at the table.

A **fee** (``chouette fee``) charges each player named the same amount (a table fee, the
room's hire), owed to the organiser; the organiser is never charged by themselves. A shared
**expense** (``chouette expense``) is a cost one player paid for several (the pizza): split
to the cent among them, each owes the payer their share. A split that does not come out
even hands the cents left over, one each, to the first sharers in the order written, and
says so.

Either is a :class:`Charge`: who is owed (``to``), and each sharer's part. What it does to
the balances (:meth:`Charge.moves`) sums to zero, as every booking does.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from chouette.errors import ChouetteError
from chouette.limits import check_cents
from chouette.money import Cents, format_money
from chouette.text import check_note

Kind = Literal["fee", "expense"]
KINDS: tuple[Kind, ...] = ("fee", "expense")


@dataclass(frozen=True)
class Charge:
    """A fee or a shared cost: ``cents`` as given (a fee: what each sharer pays; an
    expense: the whole cost), ``shares`` each sharer's part in the order written (an
    expense's payer may be one: their own part is owed to nobody), ``to`` who is owed."""

    kind: Kind
    to: str
    cents: Cents
    shares: tuple[tuple[str, Cents], ...]
    note: str

    @property
    def debts(self) -> tuple[tuple[str, Cents], ...]:
        """What each sharer but ``to`` owes ``to``, in the order written."""
        return tuple((name, cents) for name, cents in self.shares if name != self.to)

    @property
    def owed(self) -> Cents:
        """What ``to`` is owed in all."""
        return sum(cents for _, cents in self.debts)

    def moves(self) -> dict[str, Cents]:
        """What the charge does to each balance: ``to`` +what is owed, each debtor −their
        share (sums to zero)."""
        moved = {name: -cents for name, cents in self.debts}
        moved[self.to] = self.owed
        return moved

    @property
    def left_over(self) -> tuple[str, ...]:
        """The sharers who pay a cent more than the others (the split's remainder)."""
        least = min(cents for _, cents in self.shares)
        return tuple(name for name, cents in self.shares if cents > least)

    def said(self) -> str:
        """The charge in a sentence: ``bob, cat and dan owe ann 5.00 each (table fee)``;
        ``ann paid 10.00 (pizza), shared by ann, bob and cat: ann is owed 3.34 by bob and
        3.33 by cat``."""
        if self.kind == "fee":
            return f"{self.debts_text()} ({self.note})"
        sharers = names([name for name, _ in self.shares])
        paid = f"{self.to} paid {format_money(self.cents)} ({self.note}), shared by {sharers}"
        return f"{paid}: {self.debts_text()}"

    def debts_text(self) -> str:
        """Who owes ``to`` what: ``bob and cat owe ann 5.00 each``, ``bob owes ann 5.00``,
        ``ann is owed 3.34 by bob and 3.33 by cat``."""
        debtors = [name for name, _ in self.debts]
        amounts = {cents for _, cents in self.debts}
        if len(debtors) == 1:
            return f"{debtors[0]} owes {self.to} {format_money(self.debts[0][1])}"
        if len(amounts) == 1:
            return f"{names(debtors)} owe {self.to} {format_money(amounts.pop())} each"
        parts = [f"{format_money(cents)} by {name}" for name, cents in self.debts]
        return f"{self.to} is owed {names(parts)}"

    def remainder(self) -> str | None:
        """The split's remainder, said out loud: ``2 cents left over: ann and bob pay 1 cent
        more`` (None when it came out even)."""
        extra = self.left_over
        if not extra:
            return None
        count = len(extra)
        cents = "1 cent" if count == 1 else f"{count} cents"
        verb = "pays" if count == 1 else "pay"
        return f"{cents} left over: {names(extra)} {verb} 1 cent more"

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "to": self.to,
            "cents": self.cents,
            "shares": [[name, cents] for name, cents in self.shares],
            "note": self.note,
        }


def names(people: Sequence[str]) -> str:
    """``ann``, ``ann and bob``, ``ann, bob and cat``."""
    if len(people) < 2:
        return "".join(people)
    return f"{', '.join(people[:-1])} and {people[-1]}"


def split(total: Cents, among: Sequence[str]) -> tuple[tuple[str, Cents], ...]:
    """``total`` shared among ``among`` to the cent: each the same, and the cents left over
    one each to the first in the order given (they differ by at most one cent)."""
    if not among:
        raise ChouetteError("a cost is shared among somebody: name them")
    each, rest = divmod(total, len(among))
    return tuple((name, each + (1 if i < rest else 0)) for i, name in enumerate(among))


def fee(cents: Cents, charged: Sequence[str], to: str, note: str, *, named: bool = True) -> Charge:
    """Each of ``charged`` owes ``to`` ``cents`` (the organiser, if among them, is left
    out: nobody owes themselves). ``named``: whether the players were named (else they are
    everyone of the session, and the organiser alone among them is no mistake)."""
    _amount(cents, "a fee")
    _once(charged)
    debtors = [name for name in charged if name != to]
    if not debtors:
        alone = f"{to} is the only one named" if named else f"{to} is the only player"
        raise ChouetteError(f"nobody to charge the fee: {to} is the organiser and {alone}")
    check_cents(cents * len(debtors), f"a fee of {format_money(cents)} from {len(debtors)}")
    return Charge("fee", to, cents, tuple((name, cents) for name in debtors), _note(note))


def expense(payer: str, cents: Cents, among: Sequence[str], note: str) -> Charge:
    """``payer`` paid ``cents`` for ``among`` (the payer among them or not): each owes the
    payer their share, :func:`split` to the cent."""
    _amount(cents, "a shared cost")
    _once(among)
    if list(among) == [payer]:
        raise ChouetteError(f"{payer} is the only one sharing the cost: nobody owes {payer}")
    check_cents(cents, f"a shared cost of {format_money(cents)}")
    return Charge("expense", payer, cents, split(cents, among), _note(note))


def check_charge(charge: Charge, players: Collection[str], session: str) -> Charge:
    """A charge read back (a restored export): its shares are what its kind gives, and it
    names only players of the session."""
    if charge.kind == "fee":
        made = fee(charge.cents, [n for n, _ in charge.shares], charge.to, charge.note)
    elif charge.kind == "expense":
        made = expense(charge.to, charge.cents, [n for n, _ in charge.shares], charge.note)
    else:
        raise ChouetteError(f"{charge.kind!r} is neither a fee nor an expense")
    if made != charge:
        what = "a fee" if charge.kind == "fee" else "a shared cost"
        raise ChouetteError(
            f"its shares are not what {what} of {format_money(charge.cents)} gives ({made.said()})"
        )
    for name in [charge.to, *(n for n, _ in charge.shares)]:
        if name not in players:
            raise ChouetteError(f"{name} has not played in {session}")
    return charge


def _amount(cents: Cents, what: str) -> None:
    if cents <= 0:
        raise ChouetteError(f"{what} must be more than zero, not {format_money(cents)}")
    check_cents(cents, f"{what} of {format_money(cents)}")


def _once(people: Sequence[str]) -> None:
    twice = sorted({name for name in people if list(people).count(name) > 1})
    if twice:
        raise ChouetteError(f"{names(twice)} {'is' if len(twice) == 1 else 'are'} named twice")


def _note(note: str) -> str:
    note = check_note(note).strip()
    if not note:
        raise ChouetteError("say what it is for (--note TEXT): the club will ask")
    return note
