"""Fees and shared costs: money owed for the night, not won at the table.

A **fee** (``chouette fee``) charges each player named the same amount (a table fee, the
room's hire), owed to the organiser; the organiser is never charged by themselves. A shared
**expense** (``chouette expense``) is a cost one player paid for several (the pizza): split
to the cent among them, each owes the payer their share. A split that does not come out
even hands the cents left over, one each, to the first sharers in the order written, and
says so.

A **prize** is a chouette tournament's payout (``chouette event end``): the organiser, who
holds the pool, owes a winner their share of it; ``settle`` in the event's purse pays it.

Each is a :class:`Charge`: who is owed (``to``), and each sharer's part. What it does to
the balances (:meth:`Charge.moves`) sums to zero, as every booking does.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from chouette.errors import ChouetteError
from chouette.limits import check_cents
from chouette.money import Cents
from chouette.text import check_note
from chouette.words import Money, Sayable, joined, said, said_n

Kind = Literal["fee", "expense", "prize"]
KINDS: tuple[Kind, ...] = ("fee", "expense", "prize")


@dataclass(frozen=True)
class Charge:
    """A fee or a shared cost: ``cents`` as given (a fee: what each sharer pays; an
    expense: the whole cost), ``shares`` each sharer's part in the order written (an
    expense's payer may be one: their own part is owed to nobody), ``to`` who is owed."""

    kind: Kind
    to: str
    cents: Cents
    shares: tuple[tuple[str, Cents], ...]
    #: What the charge is for: as typed (a fee's, a cost's), or said by chouette (an event's
    #: entries and prizes: ``entry to fcc``), in the reader's words.
    note: Sayable

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

    def told(self) -> Sayable:
        """The charge in a sentence: ``bob, cat and dan owe ann 5.00 each (table fee)``;
        ``ann paid 10.00 (pizza), shared by ann, bob and cat: ann is owed 3.34 by bob and
        3.33 by cat``."""
        if self.kind in ("fee", "prize"):
            return said("{debts} ({note})", debts=self.debts_text(), note=self.note)
        return said(
            "{payer} paid {amount} ({note}), shared by {sharers}: {debts}",
            payer=self.to,
            amount=Money(self.cents),
            note=self.note,
            sharers=names([name for name, _ in self.shares]),
            debts=self.debts_text(),
        )

    def debts_text(self) -> Sayable:
        """Who owes ``to`` what: ``bob and cat owe ann 5.00 each``, ``bob owes ann 5.00``,
        ``ann is owed 3.34 by bob and 3.33 by cat``."""
        debtors = [name for name, _ in self.debts]
        amounts = {cents for _, cents in self.debts}
        if len(debtors) == 1:
            return said(
                "{debtor} owes {to} {amount}",
                debtor=debtors[0],
                to=self.to,
                amount=Money(self.debts[0][1]),
            )
        if len(amounts) == 1:
            return said(
                "{debtors} owe {to} {amount} each",
                debtors=names(debtors),
                to=self.to,
                amount=Money(amounts.pop()),
            )
        parts = [said("{amount} by {debtor}", amount=Money(c), debtor=n) for n, c in self.debts]
        return said("{to} is owed {debts}", to=self.to, debts=names(parts))

    def remainder(self) -> Sayable | None:
        """The split's remainder, said out loud: ``2 cents left over: ann and bob pay 1 cent
        more`` (None when it came out even)."""
        extra = self.left_over
        if not extra:
            return None
        return said_n(
            "{n} cent left over: {names} pays 1 cent more",
            "{n} cents left over: {names} pay 1 cent more",
            len(extra),
            names=names(extra),
        )

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "to": self.to,
            "cents": self.cents,
            "shares": [[name, cents] for name, cents in self.shares],
            "note": str(self.note),
        }


def names(people: Sequence[Sayable]) -> Sayable:
    """``ann``, ``ann and bob``, ``ann, bob and cat`` (names, or things said)."""
    if not people:
        return ""
    if len(people) == 1:
        return people[0]
    return said("{names} and {last}", names=joined(people[:-1]), last=people[-1])


def split(total: Cents, among: Sequence[str]) -> tuple[tuple[str, Cents], ...]:
    """``total`` shared among ``among`` to the cent: each the same, and the cents left over
    one each to the first in the order given (they differ by at most one cent)."""
    if not among:
        raise ChouetteError(said("a cost is shared among somebody: name them"))
    each, rest = divmod(total, len(among))
    return tuple((name, each + (1 if i < rest else 0)) for i, name in enumerate(among))


def fee(
    cents: Cents, charged: Sequence[str], to: str, note: Sayable, *, named: bool = True
) -> Charge:
    """Each of ``charged`` owes ``to`` ``cents`` (the organiser, if among them, is left
    out: nobody owes themselves). ``named``: whether the players were named (else they are
    everyone of the session, and the organiser alone among them is no mistake)."""
    _amount(cents, "fee")
    _once(charged)
    debtors = [name for name in charged if name != to]
    if not debtors and named:
        raise ChouetteError(
            said(
                "nobody to charge the fee: {to} is the organiser and {to} is the only one named",
                to=to,
            )
        )
    if not debtors:
        raise ChouetteError(
            said(
                "nobody to charge the fee: {to} is the organiser and {to} is the only player",
                to=to,
            )
        )
    check_cents(
        cents * len(debtors),
        said("a fee of {amount} from {count}", amount=Money(cents), count=len(debtors)),
    )
    return Charge("fee", to, cents, tuple((name, cents) for name in debtors), _note(note))


def prize(cents: Cents, winner: str, organiser: str, note: Sayable) -> Charge:
    """The ``organiser`` owes ``winner`` ``cents``: a payout of a tournament's pool."""
    _amount(cents, "prize")
    if winner == organiser:
        raise ChouetteError(
            said("{player} is the organiser: nobody owes themselves a prize", player=winner)
        )
    return Charge("prize", winner, cents, ((organiser, cents),), _note(note))


def expense(payer: str, cents: Cents, among: Sequence[str], note: Sayable) -> Charge:
    """``payer`` paid ``cents`` for ``among`` (the payer among them or not): each owes the
    payer their share, :func:`split` to the cent."""
    _amount(cents, "expense")
    _once(among)
    if list(among) == [payer]:
        raise ChouetteError(
            said("{payer} is the only one sharing the cost: nobody owes {payer}", payer=payer)
        )
    return Charge("expense", payer, cents, split(cents, among), _note(note))


def check_charge(charge: Charge, players: Collection[str], session: str) -> Charge:
    """A charge read back (a restored export): its shares are what its kind gives, and it
    names only players of the session."""
    if charge.kind == "fee":
        made = fee(charge.cents, [n for n, _ in charge.shares], charge.to, charge.note)
    elif charge.kind == "prize" and len(charge.shares) == 1:
        made = prize(charge.cents, charge.to, charge.shares[0][0], charge.note)
    elif charge.kind == "expense":
        made = expense(charge.to, charge.cents, [n for n, _ in charge.shares], charge.note)
    else:
        raise ChouetteError(
            said("{kind} is neither a fee, an expense nor a prize", kind=repr(charge.kind))
        )
    if made != charge:
        raise ChouetteError(
            said(
                "its shares are not what {what} gives ({made})",
                what=_of(charge.kind, charge.cents),
                made=made.told(),
            )
        )
    for name in [charge.to, *(n for n, _ in charge.shares)]:
        if name not in players:
            raise ChouetteError(
                said("{player} has not played in {session}", player=name, session=session)
            )
    return charge


def _of(kind: Kind, cents: Cents) -> Sayable:
    """``a fee of 5.00`` / ``a shared cost of 10.00``."""
    if kind == "fee":
        return said("a fee of {amount}", amount=Money(cents))
    if kind == "prize":
        return said("a prize of {amount}", amount=Money(cents))
    return said("a shared cost of {amount}", amount=Money(cents))


def _amount(cents: Cents, kind: Kind) -> None:
    if cents <= 0:
        what = {"fee": said("a fee"), "prize": said("a prize")}.get(kind, said("a shared cost"))
        raise ChouetteError(
            said("{what} must be more than zero, not {amount}", what=what, amount=Money(cents))
        )
    check_cents(cents, _of(kind, cents))


def _once(people: Sequence[str]) -> None:
    twice = sorted({name for name in people if list(people).count(name) > 1})
    if twice:
        raise ChouetteError(
            said_n(
                "{names} is named twice", "{names} are named twice", len(twice), names=names(twice)
            )
        )


def _note(note: Sayable) -> Sayable:
    if not isinstance(note, str):  # said by chouette, not typed
        return note
    note = check_note(note).strip()
    if not note:
        raise ChouetteError(said("say what it is for (--note TEXT): the club will ask"))
    return note


Table = tuple[str, Sequence[str]]


def night_fee(
    cents: Cents, tables: Sequence[Table], to: str, note: str
) -> list[tuple[str, Charge]]:
    """A fee for a whole night of ``tables`` (each a session and its players, in the order
    they began): every player of the night but the organiser ``to`` owes ``to`` ``cents``
    once, booked at the first table they played at; one charge per table with anyone to
    charge. The organiser need not have played at any of them."""
    seen: set[str] = {to}
    charges = []
    for session, players in tables:
        debtors = [p for p in players if p not in seen]
        seen.update(players)
        if debtors:
            charges.append((session, fee(cents, debtors, to, note)))
    if not charges:
        raise ChouetteError(
            said("nobody to charge the fee: {to} is the only player of the night", to=to)
        )
    return charges


def night_expense(
    payer: str, cents: Cents, tables: Sequence[Table], note: str
) -> list[tuple[str, Charge]]:
    """A cost ``payer`` paid for a whole night of ``tables``: shared to the cent among
    every player of the night (:func:`split`, in the order they first played), each share
    booked at the first table its player played at, owed to ``payer`` (one charge per table
    where anyone owes anything)."""
    order: dict[str, str] = {}
    for session, players in tables:
        for player in players:
            order.setdefault(player, session)
    if list(order) in ([], [payer]):
        raise ChouetteError(
            said("{payer} is the only one sharing the cost: nobody owes {payer}", payer=payer)
        )
    _amount(cents, "expense")
    shares = split(cents, list(order))
    charges = []
    for session, _ in tables:
        part = [(name, c) for name, c in shares if order[name] == session]
        owed = [name for name, c in part if name != payer and c]
        if owed:
            made = expense(payer, sum(c for _, c in part), [n for n, _ in part], note)
            assert made.shares == tuple(part)  # a slice of a split is the split of its sum
            charges.append((session, made))
    return charges
