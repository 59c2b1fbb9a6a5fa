"""Club nights: the tables of one evening, settled together, and the debts that last.

A session belongs to a **night**: by default the local date it began (``2026-11-20``), or a
name the club gives it (``chouette new … --night NAME``); a table split off keeps its
night. A night's **totals** are money (points at tables of different stakes do not add up),
and its **settlement** is the fewest payments that clear every player's balances summed
over its tables, so a player at two tables pays once.

**What is still owed** (``chouette owed``) is the fewest payments that clear every player's
balance summed over every session (games, fees and costs, and every payment booked, in any
session): the club's ``settle --all``. Each payment is dated by the night its payer's debt
arose, oldest first (first in, first out): a player's balance on each night, in the order
the nights began, is a lot; a night that goes the other way pays off their oldest lots first.
A payment is cut where the payer's lots are, so one payment may be listed for two nights.
Everything is exact in cents: the debts a player pays and is paid sum to their balance.

Pure: no clock (today's date is passed in), no database.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from chouette.money import Cents
from chouette.report import (
    Cell,
    Rows,
    SessionSummary,
    Standing,
    local_time,
    standings_json,
    standings_rows,
)
from chouette.settlement import Payment, Settlement, settlement
from chouette.words import Money, Sayable, joined, marked, said, said_n

Local = Callable[[datetime], datetime]


def night_of(moment: datetime, local: Local) -> str:
    """The night a session begun at ``moment`` belongs to by default: its local date."""
    return local(moment).date().isoformat()


@dataclass(frozen=True)
class Table:
    """One table (session) of a night, as ``chouette night`` shows it: its ``line`` (as
    the CLI writes it), the games played, each player's standing, the payments and the fees
    and costs booked there (as ``standings`` takes them) and its fingerprint."""

    session: str
    line: Sayable  # (the English, ``str()`` of it, in the JSON)
    games: int
    standings: Sequence[Standing]
    paid: Mapping[str, Cents]
    costs: Mapping[str, Cents]
    fingerprint: str | None


def combined(tables: Sequence[Table]) -> list[Standing]:
    """Each player's money over a night's tables (points left at 0: points at tables of
    different stakes do not add up), ranked as ``standings`` ranks them."""
    money: dict[str, list[Cents]] = {}
    for table in tables:
        for s in table.standings:
            held = money.setdefault(s.name, [0, 0, 0])
            held[0] += s.cents
            held[1] += s.paid
            held[2] += s.costs
    return sorted(
        (Standing(name, 0, *held) for name, held in money.items()),
        key=lambda s: -s.table_cents,
    )


def totals_rows(tables: Sequence[Table]) -> Rows:
    """The night's totals per player, in money (the ``standings`` table without points)."""
    paid = night_totals(t.paid for t in tables)
    costs = night_totals(t.costs for t in tables)
    head, rows = standings_rows(combined(tables), paid, costs)
    return [h for i, h in enumerate(head) if i != 1], [[*r[:1], *r[2:]] for r in rows]


def night_json(night: str, tables: Sequence[Table]) -> dict[str, Any]:
    """``night --json``: each table and the night's totals in money."""
    return {
        "night": night,
        "sessions": [
            {
                "session": t.session,
                "line": str(t.line),
                "games": t.games,
                "fingerprint": t.fingerprint,
            }
            | standings_json(t.session, t.standings, costs=True)
            for t in tables
        ],
        "totals": [
            {
                "name": s.name,
                "cents": s.cents,
                "table_cents": s.table_cents,
                "paid_cents": s.paid,
                "costs_cents": s.costs,
            }
            for s in combined(tables)
        ],
    }


def night_heading(night: str, tables: Sequence[Table]) -> Sayable:
    """``Night 2026-11-20: 2 tables, 7 games.``"""
    games = sum(t.games for t in tables)
    return said(
        "Night {night}: {tables}, {games}.",
        night=night,
        tables=said_n("{n} table", "{n} tables", len(tables), n=len(tables)),
        games=games_count(games),
    )


def games_count(games: int) -> Sayable:
    """``1 game``, ``7 games``."""
    return said_n("{n} game", "{n} games", games, n=games)


def table_heading(table: Table) -> Sayable:
    """``fri: 3 games; line ann | bob, cat``"""
    return said(
        "{session}: {games}; line {line}",
        session=table.session,
        games=games_count(table.games),
        line=table.line,
    )


def nights_json(
    nights: Sequence[tuple[str, datetime]], sessions: Sequence[SessionSummary]
) -> dict[str, Any]:
    """``night --list --json``: each night, when its first table began, its sessions and
    the games played there."""
    return {
        "nights": [
            {
                "night": night,
                "began": began.isoformat(),
                "sessions": [s.name for s in sessions if s.night == night],
                "games": sum(s.games for s in sessions if s.night == night),
            }
            for night, began in nights
        ]
    }


def nights_rows(
    nights: Sequence[tuple[str, datetime]],
    sessions: Sequence[SessionSummary],
    local: Local,
    zone: str = "UTC",
) -> Rows:
    """``night --list``: a row per night, oldest first; when each began in the reader's
    local time (``zone`` named in the heading)."""
    rows: list[list[Cell]] = [
        [n["night"], local_time(began, local, zone), ", ".join(n["sessions"]), str(n["games"])]
        for n, (_, began) in zip(nights_json(nights, sessions)["nights"], nights, strict=True)
    ]
    began = said("began ({zone})", zone=zone)
    return [marked("night"), began, marked("sessions"), marked("games")], rows


@dataclass(frozen=True)
class Night:
    """A night of the ledger: its ``name``, the local ``day`` its first table began, and
    each player's balance there in cents (``balances``: summed over its tables, payments,
    fees and costs included)."""

    name: str
    day: date
    balances: Mapping[str, Cents]


def night_totals(tables: Iterable[Mapping[str, Cents]]) -> dict[str, Cents]:
    """Each player's money summed over a night's tables (a player at none left out)."""
    totals: dict[str, Cents] = {}
    for balances in tables:
        for player, cents in balances.items():
            totals[player] = totals.get(player, 0) + cents
    return totals


def settle_night(tables: Iterable[Mapping[str, Cents]]) -> Settlement:
    """The fewest payments that settle a night: its tables' balances summed per player."""
    return settlement(night_totals(tables))


@dataclass(frozen=True)
class Debt:
    """What ``payer`` still owes ``payee``, from ``night`` (which began on ``day``)."""

    payer: str
    payee: str
    cents: Cents
    night: str
    day: date

    def age(self, today: date) -> int:
        """Days since the night began (0 on the night itself)."""
        return max((today - self.day).days, 0)


def open_lots(nights: Sequence[Night]) -> dict[str, list[tuple[Night, Cents]]]:
    """Each player's open balance, night by night (first in, first out): the lots left
    after each night's balance has paid off the player's oldest lots going the other way.
    A player's lots all go one way and sum to their balance over every night."""
    lots: dict[str, list[tuple[Night, Cents]]] = {}
    for night in nights:
        for player, cents in sorted(night.balances.items()):
            held = lots.setdefault(player, [])
            while cents and held and (held[0][1] > 0) != (cents > 0):
                oldest, amount = held[0]
                if abs(amount) > abs(cents):
                    held[0] = (oldest, amount + cents)
                    cents = 0
                else:
                    held.pop(0)
                    cents += amount
            if cents:
                held.append((night, cents))
    return lots


def owed(nights: Sequence[Night]) -> tuple[list[Debt], Settlement]:
    """What is still owed across ``nights`` (in the order they began): the fewest payments
    clearing every player's balance over all of them, each cut by the nights its payer's
    debt arose (:func:`open_lots`), oldest first; and that settlement."""
    found = settlement(night_totals(n.balances for n in nights))
    lots = {p: list(held) for p, held in open_lots(nights).items()}
    debts = []
    for payment in found.payments:
        left = payment.cents
        held = lots[payment.payer]
        while left:
            night, amount = held[0]
            part = min(left, -amount)
            debts.append(Debt(payment.payer, payment.payee, part, night.name, night.day))
            left -= part
            if part == -amount:
                held.pop(0)
            else:
                held[0] = (night, amount + part)
    debts.sort(key=lambda d: (d.day, d.night, d.payer, d.payee))
    return debts, found


def debts_of(debts: Iterable[Debt], player: str | None) -> list[Debt]:
    """The debts ``player`` pays or is paid (every debt for None)."""
    return [d for d in debts if player is None or player in (d.payer, d.payee)]


def earlier(
    debts: Iterable[Debt], nights: Sequence[Night], night: str, players: Collection[str]
) -> list[Debt]:
    """The debts still open from nights before ``night`` that one of ``players`` (the
    night's) pays or is paid: what ``settle --night`` carries forward."""
    order = {n.name: i for i, n in enumerate(nights)}
    before = order.get(night, len(order))
    return [
        d for d in debts if order[d.night] < before and (d.payer in players or d.payee in players)
    ]


def days(count: int) -> Sayable:
    return said_n("{n} day", "{n} days", count, n=count)


def debt_json(debt: Debt, today: date) -> dict[str, Any]:
    return {
        "from": debt.payer,
        "to": debt.payee,
        "cents": debt.cents,
        "night": debt.night,
        "age_days": debt.age(today),
    }


def debt_rows(debts: Iterable[Debt], today: date) -> Rows:
    """Who still owes whom how much, from which night, and how long ago it began."""
    rows: list[list[Cell]] = [
        [d.payer, d.payee, Money(d.cents), d.night, days(d.age(today))] for d in debts
    ]
    return [marked("from"), marked("to"), marked("amount"), marked("night"), marked("age")], rows


def debts_clear(nights: Sequence[Night], debts: Iterable[Debt]) -> bool:
    """The law ``owed`` obeys: paid, the debts leave every player's balance over every night
    at exactly zero."""
    left = night_totals(n.balances for n in nights)
    for d in debts:
        left[d.payer] = left.get(d.payer, 0) + d.cents
        left[d.payee] = left.get(d.payee, 0) - d.cents
    return all(v == 0 for v in left.values())


def message(
    heading: Sayable,
    payments: Sequence[Payment],
    prints: Mapping[str, str | None],
    carried: Sequence[Debt] = (),
) -> list[Sayable]:
    """The settlement as a short text for the club's group chat: ``heading`` (the session
    or night), who pays whom how much, what is still open from earlier nights, and each
    session's fingerprint (a session not chained yet has none)."""
    lines: list[Sayable] = [said("{heading}: who pays whom", heading=heading)]
    lines += [
        said("{payer} pays {payee} {amount}", payer=p.payer, payee=p.payee, amount=Money(p.cents))
        for p in payments
    ]
    if not payments:
        lines.append(said("everyone is square"))
    if carried:
        lines.append(said("Still open from earlier nights:"))
        lines += [
            said(
                "{payer} pays {payee} {amount} ({night})",
                payer=d.payer,
                payee=d.payee,
                amount=Money(d.cents),
                night=d.night,
            )
            for d in carried
        ]
    shown = [f"{name} {fp}" for name, fp in prints.items() if fp is not None]
    if shown:
        lines.append(
            said_n(
                "Fingerprint: {prints}", "Fingerprints: {prints}", len(shown), prints=joined(shown)
            )
        )
    return lines
