"""``chouette check``: prove the ledger is what its events say it is.

First the storage (:mod:`db.integrity`: the database's own checks, and every stored value
readable as what its column holds). Then the contents: every game's bookings sum to zero;
the bookings of every chouette game equal what replaying its stored events gives; imported
games pay points × stake; payments balance; fees and shared costs are their splits; the
running balances are the sums of the bookings; every session's games are numbered 1, 2, …;
every player booked or seated is a player of the session; the line is consistent; every
chouette tournament's journal replays, each draw is what its seed draws, and each level's
banks add up to those carried into it (:func:`db.events.event_problems`). Problems are
listed, never repaired here.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy.exc import DBAPIError

from chouette.checks import (
    by_player,
    engine_problems,
    session_problems,
    source_problems,
    stranger_problems,
    sum_problems,
)
from chouette.costs import check_charge
from chouette.errors import ChouetteError
from chouette.game import replay
from chouette.money import format_money
from chouette.outcome import settle_game
from chouette.session import SessionInfo
from chouette.words import Money, Sayable, reason_of, said, said_n
from db.codec import event_from_body, extras_from_detail, line_from_json
from db.events import event_notes, event_problems
from db.journal import journal_problems
from db.ledger import Ledger
from db.values import Booking, StoredGame

#: Damage that stops the check of the contents (what is read would not be what was written).
_UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, ChouetteError, DBAPIError)


@dataclass
class Audit:
    sessions: int = 0
    games: int = 0
    bookings: int = 0
    problems: list[Sayable] = field(default_factory=list)  # (in the reader's words)
    notes: list[Sayable] = field(default_factory=list)  # (not problems: draws taken back)


def check(book: Ledger) -> Audit:
    """Every problem in the ledger, each naming the session, the game and the players."""
    audit = Audit()
    audit.problems += book.storage_problems()
    try:
        _contents(book, audit)
    except _UNREADABLE as err:
        if not audit.problems:
            raise
        if isinstance(err, DBAPIError):
            reason: Sayable = str(err.orig)
        else:
            reason = reason_of(err, lambda e: f"{type(e).__name__}: {e}")
        audit.problems.append(
            said(
                "the rest of the ledger cannot be checked until the problems above are mended "
                "({reason})",
                reason=reason.splitlines()[0][:200] if isinstance(reason, str) else reason,
            )
        )
    return audit


def _money(cents: int, *, sign: bool = True) -> Money:
    """An amount as a finding says it, read now as it was always written: an amount that is
    no amount (a fraction a damaged file holds) stops the check here, as it did."""
    format_money(cents, sign=sign)
    return Money(cents, sign=sign)


def _contents(book: Ledger, audit: Audit) -> None:
    """The ledger's contents, against what its events say."""
    by_game: dict[int | None, list[Booking]] = defaultdict(list)
    by_payment: dict[int, list[Booking]] = defaultdict(list)
    by_charge: dict[int, list[Booking]] = defaultdict(list)
    summed: dict[tuple[int, str], tuple[int, int]] = {}
    total_points = total_cents = 0
    for _, b in book.bookings():
        audit.bookings += 1
        total_points += b.points
        total_cents += b.cents
        if b.payment_id is not None:
            by_payment[b.payment_id].append(b)
        elif b.charge_id is not None:
            by_charge[b.charge_id].append(b)
        else:
            by_game[b.game_id].append(b)
        points, cents = summed.get((b.session_id, b.player), (0, 0))
        summed[b.session_id, b.player] = (points + b.points, cents + b.cents)
    if total_points or total_cents:
        audit.problems.append(
            said(
                "the whole ledger does not sum to zero ({points} points, {amount})",
                points=f"{total_points:+d}",
                amount=_money(total_cents),
            )
        )
    sessions = book.all_sessions()
    for info in sessions:
        audit.sessions += 1
        live = 0
        games = book.stored_games(info)
        for game in games:
            audit.games += 1
            where = said("{session} game {number}", session=info.name, number=game.number)
            booked = by_game.pop(game.id, [])
            audit.problems += sum_problems(where, booked)
            if game.kind == "engine":
                detail = json.loads(game.detail or "{}")
                audit.problems += engine_problems(where, detail, by_player(booked), info)
                continue
            if not game.over:
                live += 1
            audit.problems += _replayed(book, where, game, booked, info)
        audit.problems += session_problems(info, [g.number for g in games], live)
        audit.problems += journal_problems(book, info)
        from db.chained import chain_problems  # (db.chained reads the record as export does)

        audit.problems += chain_problems(book, info)
        audit.problems += _imports(book, info, games)
        named = set(info.line.order) | {player for (s, player) in summed if s == info.id}
        audit.problems += stranger_problems(info.name, named, book.player_names(info))
    for game_id, rows in by_game.items():
        audit.problems.append(
            said_n(
                "{n} booking belongs to no game (game id {id})",
                "{n} bookings belong to no game (game id {id})",
                len(rows),
                n=len(rows),
                id=game_id,
            )
        )
    for payment in book.payments():
        rows = by_payment.pop(payment.id, [])
        got = sorted((r.player, r.cents) for r in rows)
        want = sorted([(payment.payer, payment.cents), (payment.payee, -payment.cents)])
        if got != want:
            audit.problems.append(
                said(
                    "payment {payer} → {payee} {amount}: its bookings are {got}",
                    payer=payment.payer,
                    payee=payment.payee,
                    amount=_money(payment.cents, sign=False),
                    got=str(got),
                )
            )
    for payment_id in by_payment:
        audit.problems.append(
            said("bookings of a payment that does not exist (id {id})", id=payment_id)
        )
    audit.problems += _charges(book, sessions, by_charge)
    audit.problems += _balances(book, sessions, summed)
    audit.problems += event_problems(book)
    audit.notes += event_notes(book)


def _charges(
    book: Ledger, sessions: list[SessionInfo], by_charge: dict[int, list[Booking]]
) -> list[Sayable]:
    """Each fee or shared cost is its own split (:func:`chouette.costs.check_charge`) among
    players of its session, and its bookings are what it moves."""
    names = {info.id: info for info in sessions}
    problems: list[Sayable] = []
    for charged in book.charges():
        info = names.get(charged.session_id)
        rows = by_charge.pop(charged.id, [])
        if info is None:
            continue  # (a session that is not there: the database's own checks say so)
        told = repr(str(charged.charge.told()))  # (as booked: the English kept)
        where = (
            said("{session}: the fee {charge}", session=info.name, charge=told)
            if charged.charge.kind == "fee"
            else said("{session}: the shared cost {charge}", session=info.name, charge=told)
        )
        try:
            check_charge(charged.charge, book.player_names(info), info.name)
        except ChouetteError as err:
            problems.append(said("{where}: {reason}", where=where, reason=err.said))
        got = sorted((r.player, r.cents) for r in rows)
        if got != sorted(charged.charge.moves().items()) or any(r.points for r in rows):
            problems.append(said("{where}: its bookings are {got}", where=where, got=str(got)))
    for charge_id in by_charge:
        problems.append(
            said("bookings of a fee or a shared cost that does not exist (id {id})", id=charge_id)
        )
    return problems


def _imports(book: Ledger, info: SessionInfo, games: list[StoredGame]) -> list[Sayable]:
    """Each imported file's games are the engine games it numbers, as many as it booked."""
    kinds = {g.number: g.kind for g in games}
    problems: list[Sayable] = []
    for source in book.source_files(info):
        problems += source_problems(info.name, source, kinds)
    return problems


def _balances(
    book: Ledger, sessions: list[SessionInfo], summed: dict[tuple[int, str], tuple[int, int]]
) -> list[Sayable]:
    """The running balances must be the sums of the bookings, player by player."""
    names = {info.id: info.name for info in sessions}
    kept = book.balances()
    problems: list[Sayable] = []
    for key in sorted(set(summed) | set(kept), key=lambda k: (names.get(k[0], ""), k[1])):
        want, got = summed.get(key, (0, 0)), kept.get(key, (0, 0))
        if want != got:
            problems.append(
                said(
                    "{session}: {player}'s running balance is {points} points ({amount}); the "
                    "bookings sum to {sum_points} ({sum_amount})",
                    session=names.get(key[0], str(key[0])),
                    player=key[1],
                    points=f"{got[0]:+d}",
                    amount=_money(got[1]),
                    sum_points=f"{want[0]:+d}",
                    sum_amount=_money(want[1]),
                )
            )
    return problems


def _replayed(
    book: Ledger, where: Sayable, game: StoredGame, rows: list[Booking], info: SessionInfo
) -> list[Sayable]:
    bodies = book.event_bodies(game.id)
    if [seq for seq, _ in bodies] != list(range(len(bodies))):
        return [
            said("{where}: its events are not numbered 0, 1, 2, … (some are missing)", where=where)
        ]
    try:
        events = [event_from_body(body) for _, body in bodies]
        played = replay(line_from_json(game.line_before), info.rules, events)
    except (ChouetteError, ValueError, KeyError, TypeError) as err:
        reason = reason_of(err)
        return [
            said("{where}: its stored events do not replay ({reason})", where=where, reason=reason)
        ]
    problems: list[Sayable] = []
    if not game.over:
        if rows:
            problems.append(said("{where}: in progress but has bookings", where=where))
        if played.over:
            problems.append(
                said("{where}: its events finish the game but it is not booked", where=where)
            )
        return problems
    if not played.over:
        return [said("{where}: booked as over, but its events leave it in progress", where=where)]
    outcome = settle_game(played, info.stakes(played.players))
    want = {p: (outcome.points[p], outcome.cents[p]) for p in outcome.points}
    got = by_player(rows)
    if got != want:
        for player in sorted(set(got) | set(want)):
            g, w = got.get(player, (0, 0)), want.get(player, (0, 0))
            if g != w:
                problems.append(
                    said(
                        "{where}: {player} is booked {points} points ({amount}); the events "
                        "give {events_points} ({events_amount})",
                        where=where,
                        player=player,
                        points=f"{g[0]:+d}",
                        amount=_money(g[1]),
                        events_points=f"{w[0]:+d}",
                        events_amount=_money(w[1]),
                    )
                )
    pairs = book.pair_results(game.id)
    if pairs != outcome.pairs:
        problems.append(
            said(
                "{where}: its pair results {pairs} are not the events' {events}",
                where=where,
                pairs=str(pairs),
                events=str(outcome.pairs),
            )
        )
    try:
        extras = extras_from_detail(game.detail)
    except (ValueError, KeyError, TypeError):
        extras = None
    if extras != outcome.extras:
        problems.append(
            said("{where}: the extras it keeps are not what its events booked", where=where)
        )
    if game.line_after is not None and line_from_json(game.line_after) != outcome.next_line:
        problems.append(
            said("{where}: the line after it is not the rotation its result gives", where=where)
        )
    return problems
