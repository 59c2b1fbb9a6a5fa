"""``chouette check``: prove the ledger is what its events say it is.

Every game's bookings sum to zero; the bookings of every chouette game equal what replaying
its stored events gives; imported games pay points × stake; payments balance; the line is
consistent. Problems are listed, never repaired here.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field

from sqlmodel import col, select

from chouette.engines import MULTIPLIER
from chouette.errors import ChouetteError
from chouette.game import replay
from chouette.money import format_money
from chouette.outcome import settle_game
from chouette.record import parse_event
from db.models import (
    BalanceRow,
    BookingRow,
    EventRow,
    GameRow,
    PairRow,
    PaymentRow,
    SessionRow,
    SourceFileRow,
)
from db.store import Ledger, SessionInfo, line_from_json


@dataclass
class Audit:
    sessions: int = 0
    games: int = 0
    bookings: int = 0
    problems: list[str] = field(default_factory=list)


def check(book: Ledger) -> Audit:
    """Every problem in the ledger, each naming the session, the game and the players."""
    audit = Audit()
    db = book.db
    bookings: dict[int | None, list[BookingRow]] = defaultdict(list)
    by_payment: dict[int, list[BookingRow]] = defaultdict(list)
    total_points = total_cents = 0
    for row in db.exec(select(BookingRow)).all():
        audit.bookings += 1
        total_points += row.points
        total_cents += row.cents
        if row.payment_id is not None:
            by_payment[row.payment_id].append(row)
        else:
            bookings[row.game_id].append(row)
    if total_points or total_cents:
        audit.problems.append(
            f"the whole ledger does not sum to zero ({total_points:+d} points, "
            f"{format_money(total_cents, sign=True)})"
        )
    for row in db.exec(select(SessionRow).order_by(SessionRow.id)).all():
        audit.sessions += 1
        info = book.session(row.name)
        live = 0
        for game in db.exec(
            select(GameRow).where(GameRow.session_id == info.id).order_by(GameRow.number)
        ).all():
            audit.games += 1
            where = f"{info.name} game {game.number}"
            booked = bookings.pop(game.id, [])
            audit.problems += _sums(where, booked)
            if game.kind == "engine":
                audit.problems += _engine(where, game, booked, info)
                continue
            if not game.over:
                live += 1
            audit.problems += _replayed(book, where, game, booked, info)
        audit.problems += _line(info, live)
    for game_id, rows in bookings.items():
        audit.problems.append(f"{len(rows)} bookings belong to no game (game id {game_id})")
    for payment in db.exec(select(PaymentRow)).all():
        rows = by_payment.pop(payment.id or 0, [])
        got = sorted((r.player, r.cents) for r in rows)
        want = sorted([(payment.payer, payment.cents), (payment.payee, -payment.cents)])
        if got != want:
            audit.problems.append(
                f"payment {payment.payer} → {payment.payee} {format_money(payment.cents)}: "
                f"its bookings are {got}"
            )
    for payment_id in by_payment:
        audit.problems.append(f"bookings of a payment that does not exist (id {payment_id})")
    audit.problems += _balances(book)
    audit.problems += _imports(book)
    return audit


def _imports(book: Ledger) -> list[str]:
    """Each imported file's games are the engine games it numbers, as many as it booked."""
    db = book.db
    names = dict(db.exec(select(SessionRow.id, SessionRow.name)).all())
    problems = []
    for source in db.exec(select(SourceFileRow).order_by(SourceFileRow.imported_at)).all():
        first, last = source.first_game, source.last_game
        if first is None and last is None:
            continue
        where = f"{names.get(source.session_id, source.session_id)}: {source.name}"
        if first is None or last is None or last - first + 1 != source.games:
            problems.append(
                f"{where} booked {source.games} games, but names games {first} to {last}"
            )
            continue
        kinds = db.exec(
            select(GameRow.kind).where(
                GameRow.session_id == source.session_id, col(GameRow.number).between(first, last)
            )
        ).all()
        if len(kinds) != source.games or set(kinds) != {"engine"}:
            problems.append(
                f"{where} booked games {first} to {last}, but the session holds "
                f"{kinds.count('engine')} engine games there"
            )
    return problems


def _balances(book: Ledger) -> list[str]:
    """The running balances must be the sums of the bookings, player by player."""
    db = book.db
    names = dict(db.exec(select(SessionRow.id, SessionRow.name)).all())
    summed: dict[tuple[int, str], tuple[int, int]] = {}
    for row in db.exec(select(BookingRow)).all():
        points, cents = summed.get((row.session_id, row.player), (0, 0))
        summed[row.session_id, row.player] = (points + row.points, cents + row.cents)
    kept = {(b.session_id, b.player): (b.points, b.cents) for b in db.exec(select(BalanceRow))}
    problems = []
    for key in sorted(set(summed) | set(kept), key=lambda k: (names.get(k[0], ""), k[1])):
        want, got = summed.get(key, (0, 0)), kept.get(key, (0, 0))
        if want != got:
            problems.append(
                f"{names.get(key[0], key[0])}: {key[1]}'s running balance is {got[0]:+d} points "
                f"({format_money(got[1], sign=True)}); the bookings sum to {want[0]:+d} "
                f"({format_money(want[1], sign=True)})"
            )
    return problems


def _sums(where: str, rows: list[BookingRow]) -> list[str]:
    points = sum(r.points for r in rows)
    cents = sum(r.cents for r in rows)
    if points or cents:
        return [
            f"{where}: the bookings do not sum to zero ({points:+d} points, "
            f"{format_money(cents, sign=True)})"
        ]
    return []


def _by_player(rows: list[BookingRow]) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for r in rows:
        points, cents = found.get(r.player, (0, 0))
        found[r.player] = (points + r.points, cents + r.cents)
    return found


def _replayed(
    book: Ledger, where: str, game: GameRow, rows: list[BookingRow], info: SessionInfo
) -> list[str]:
    bodies = book.db.exec(
        select(EventRow.seq, EventRow.body)
        .where(EventRow.game_id == game.id)
        .order_by(EventRow.seq)
    ).all()
    if [seq for seq, _ in bodies] != list(range(len(bodies))):
        return [f"{where}: its events are not numbered 0, 1, 2, … (some are missing)"]
    try:
        events = [
            parse_event(json.loads(body), "stored event", allow_end=True) for _, body in bodies
        ]
        played = replay(line_from_json(game.line_before), info.rules, events)
    except (ChouetteError, ValueError, KeyError) as err:
        return [f"{where}: its stored events do not replay ({err})"]
    if not game.over:
        problems = [f"{where}: in progress but has bookings"] if rows else []
        if played.over:
            problems.append(f"{where}: its events finish the game but it is not booked")
        return problems
    if not played.over:
        return [f"{where}: booked as over, but its events leave it in progress"]
    players = [played.box, *([played.partner] if played.partner else []), *played.members]
    outcome = settle_game(played, info.stakes(players))
    want = {p: (outcome.points[p], outcome.cents[p]) for p in outcome.points}
    got = _by_player(rows)
    problems = []
    if got != want:
        for player in sorted(set(got) | set(want)):
            g, w = got.get(player, (0, 0)), want.get(player, (0, 0))
            if g != w:
                problems.append(
                    f"{where}: {player} is booked {g[0]:+d} points "
                    f"({format_money(g[1], sign=True)}); the events give {w[0]:+d} "
                    f"({format_money(w[1], sign=True)})"
                )
    pairs = {
        p.member: p.points
        for p in book.db.exec(select(PairRow).where(PairRow.game_id == game.id)).all()
    }
    if pairs != outcome.pairs:
        problems.append(f"{where}: its pair results {pairs} are not the events' {outcome.pairs}")
    if game.line_after is not None and line_from_json(game.line_after) != outcome.next_line:
        problems.append(f"{where}: the line after it is not the rotation its result gives")
    return problems


def _engine(where: str, game: GameRow, rows: list[BookingRow], info: SessionInfo) -> list[str]:
    detail = json.loads(game.detail or "{}")
    winner, loser, points = detail.get("winner"), detail.get("loser"), detail.get("points")
    problems = []
    if detail.get("end") not in ("settle", "forfeit") and points != detail.get("cube", 0) * (
        MULTIPLIER.get(detail.get("result"), 0)  # type: ignore[call-overload]
    ):
        problems.append(f"{where}: {points} points is not cube × {detail.get('result')}")
    stake = info.pair_stake(winner, loser)
    want = {winner: (points, points * stake), loser: (-points, -points * stake)}
    if _by_player(rows) != want:
        problems.append(f"{where}: the bookings are not {winner} +{points} from {loser}")
    return problems


def _line(info: SessionInfo, live: int) -> list[str]:
    line = info.line
    problems = []
    if len(set(line.order)) != len(line.order):
        problems.append(f"{info.name}: someone sits twice in the line")
    if not line.sitting_out <= set(line.order):
        problems.append(f"{info.name}: someone sits out who is not in the line")
    if line.partner is not None and line.partner not in line.active[1:]:
        problems.append(f"{info.name}: the partner {line.partner} is not a seated player")
    if live > 1:
        problems.append(f"{info.name}: {live} games are in progress at once")
    return problems
