"""``chouette check``: prove the ledger is what its events say it is.

First the file itself: on SQLite, SQLite's own ``PRAGMA integrity_check`` (every page, every
index entry) and ``PRAGMA foreign_key_check`` (no row refers to a row that is not there), and
on either database every stored value readable as what its column holds (whole numbers,
times, UTF-8 text, JSON). PostgreSQL enforces types and foreign keys itself, and checks its
own pages (with data checksums on). Then the contents: every game's bookings sum to zero;
the bookings of every chouette game equal what replaying its stored events gives; imported
games pay points × stake; payments balance; every session's games are numbered 1, 2, …;
every player booked or seated is a player of the session; the line is consistent. Problems
are listed, never repaired here.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Connection, DateTime, Integer, String, text
from sqlalchemy.exc import DBAPIError
from sqlmodel import SQLModel, col, select

from chouette.errors import ChouetteError
from chouette.game import replay
from chouette.money import format_money
from chouette.outcome import MULTIPLIER, pair_money, pair_points, settle_game
from chouette.record import parse_event
from chouette.rules import HouseRules
from db.models import (
    BalanceRow,
    BookingRow,
    EventRow,
    GameRow,
    PairRow,
    PaymentRow,
    PlayerRow,
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


def _line(data: Any) -> object:
    line = line_from_json(json.dumps(data))
    if not all(isinstance(p, str) for p in line.order):
        raise TypeError("a seat that is not a name")
    return line


def _detail(data: Any) -> object:
    if not isinstance(data, dict):
        raise TypeError("not an object")
    return data


#: Columns of JSON text, by table, and what each must read as.
JSON_COLUMNS: dict[str, dict[str, Callable[[Any], object]]] = {
    "session": {"rules": HouseRules.from_dict, "line": _line},
    "game": {"line_before": _line, "line_after": _line, "detail": _detail},
    "event": {"body": lambda data: parse_event(data, "stored event", allow_end=True)},
}
_SHAPES = (ChouetteError, ValueError, KeyError, TypeError, AttributeError)
#: Damage that stops the check of the contents (what is read would not be what was written).
_UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, ChouetteError, DBAPIError)


def check(book: Ledger) -> Audit:
    """Every problem in the ledger, each naming the session, the game and the players."""
    audit = Audit()
    audit.problems += storage(book.db.connection())
    try:
        _contents(book, audit)
    except _UNREADABLE as err:
        if not audit.problems:
            raise
        reason = str(err.orig) if isinstance(err, DBAPIError) else f"{type(err).__name__}: {err}"
        audit.problems.append(
            "the rest of the ledger cannot be checked until the problems above are mended "
            f"({reason.splitlines()[0][:200]})"
        )
    return audit


def storage(conn: Connection) -> list[str]:
    """The database file (SQLite's own checks) and every stored value: readable as what its
    column holds."""
    problems = []
    if conn.dialect.name == "sqlite":
        try:
            found = [row[0] for row in conn.exec_driver_sql("PRAGMA integrity_check").all()]
        except DBAPIError as err:  # damaged where the check itself must read
            found = [str(err.orig)]
        if found != ["ok"]:
            problems += [
                "the database file is damaged: "
                + line.removeprefix("*** in database main ***\n").replace("\n", "; ")
                for line in found
            ]
            return problems  # a damaged file: what is read from it cannot be trusted
        for table, rowid, parent, _ in conn.exec_driver_sql("PRAGMA foreign_key_check").all():
            problems.append(f"{table} row {rowid} refers to a row of {parent} that is not there")
    return problems + values(conn)


def values(conn: Connection) -> list[str]:
    """Every stored value readable as its column's kind: whole numbers (SQLite keeps any
    value in any column), times, UTF-8 text, JSON."""
    problems: list[str] = []
    sqlite = conn.dialect.name == "sqlite"
    for table in SQLModel.metadata.sorted_tables:
        for column in table.columns:
            kind = getattr(column.type, "impl_instance", column.type)  # SQLModel's AutoString
            name, where = column.name, table.name
            if sqlite and isinstance(kind, Integer | Boolean):
                allowed = "('integer', 'null')" if column.nullable else "('integer')"
                for rowid, found, value in conn.exec_driver_sql(
                    f"SELECT rowid, typeof({name}), CAST({name} AS TEXT) FROM {where} "
                    f"WHERE typeof({name}) NOT IN {allowed} LIMIT 20"
                ).all():
                    problems.append(
                        f"{where} row {rowid}: {name} is {found} {value!r}, not a whole number"
                    )
            elif sqlite and isinstance(kind, String | DateTime):
                problems += _texts(conn, where, name, column.nullable, isinstance(kind, DateTime))
            elif name in JSON_COLUMNS.get(where, ()):
                problems += _json_texts(conn, where, name)
    return problems


def _texts(conn: Connection, table: str, column: str, nullable: bool, time: bool) -> list[str]:
    """SQLite: a column of text holds UTF-8 text (a time: ISO 8601; JSON: JSON)."""
    problems = []
    json_text = column in JSON_COLUMNS.get(table, ())
    for rowid, found, raw in conn.exec_driver_sql(
        f"SELECT rowid, typeof({column}), CAST({column} AS BLOB) FROM {table}"
    ).all():
        if found == "null" and nullable:
            continue
        where = f"{table} row {rowid}: {column}"
        if found != "text":
            problems.append(f"{where} is {found}, not text")
            continue
        try:
            decoded = bytes(raw).decode("utf-8")
            if time:
                datetime.fromisoformat(decoded)
        except UnicodeDecodeError:
            problems.append(f"{where} is not UTF-8 text")
            continue
        except ValueError:
            problems.append(f"{where} is not a time: {decoded[:60]!r}")
            continue
        if json_text:
            problems += _readable(where, JSON_COLUMNS[table][column], decoded)
        if len(problems) >= 20:
            break
    return problems


def _json_texts(conn: Connection, table: str, column: str) -> list[str]:
    """PostgreSQL: a column of JSON text holds JSON."""
    problems = []
    for key, body in conn.execute(text(f"SELECT id, {column} FROM {table}")).all():
        if body is not None:
            problems += _readable(f"{table} {key}: {column}", JSON_COLUMNS[table][column], body)
    return problems


def _readable(where: str, read: Callable[[Any], object], body: str) -> list[str]:
    """JSON text that reads as what its column holds (a line, house rules, an event)."""
    try:
        data = json.loads(body)
    except ValueError:
        return [f"{where} is not JSON: {body[:60]!r}"]
    try:
        read(data)
    except _SHAPES as err:
        return [f"{where} is not what it should hold ({err}): {body[:60]!r}"]
    return []


def damage(url: str) -> list[str]:
    """The damage :func:`storage` finds in the ledger at ``url`` (none: it is sound), looked
    for after a command met data it could not read; read-only, on a connection of its own."""
    from db.engine import connect

    try:
        with connect(url, write=False).connect() as conn:
            return storage(conn)
    except (ChouetteError, DBAPIError, ValueError) as err:
        return [str(err)]


def _contents(book: Ledger, audit: Audit) -> None:
    """The ledger's contents, against what its events say."""
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
    audit.problems += _numbers(book)
    audit.problems += _players(book)


def _numbers(book: Ledger) -> list[str]:
    """A session's games are numbered 1, 2, 3, … without a gap (undo takes the last)."""
    problems = []
    numbers: dict[str, list[int]] = defaultdict(list)
    for name, number in book.db.exec(
        select(SessionRow.name, GameRow.number)
        .join(GameRow, col(GameRow.session_id) == col(SessionRow.id))
        .order_by(col(SessionRow.id), col(GameRow.number))
    ).all():
        numbers[name].append(number)
    for name, found in numbers.items():
        if found != list(range(1, len(found) + 1)):
            gaps = sorted(set(range(1, max(found) + 1)) - set(found))[:5]
            problems.append(
                f"{name}: its games are not numbered 1 to {len(found)} "
                f"(missing: {', '.join(map(str, gaps)) or 'none'}; numbers given twice or past "
                "the end otherwise)"
            )
    return problems


def _players(book: Ledger) -> list[str]:
    """Everyone seated in a session, booked in it or paying in it is one of its players."""
    db = book.db
    problems = []
    for row in db.exec(select(SessionRow).order_by(SessionRow.id)).all():
        known = set(db.exec(select(PlayerRow.name).where(PlayerRow.session_id == row.id)).all())
        named = set(line_from_json(row.line).order)
        named |= set(db.exec(select(BookingRow.player).where(BookingRow.session_id == row.id)))
        missing = sorted(named - known)
        if missing:
            problems.append(
                f"{row.name}: {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                "seated or booked but not a player of the session"
            )
    return problems


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
    outcome = settle_game(played, info.stakes(played.players))
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
    if not isinstance(detail, dict):
        detail = {}
    winner, loser, points = detail.get("winner"), detail.get("loser"), detail.get("points")
    shapes = (winner, str), (loser, str), (points, int), (detail.get("cube", 0), int)
    if not all(isinstance(v, t) for v, t in shapes):
        return [f"{where}: its stored result is not a result ({str(game.detail)[:100]!r})"]
    problems = []
    result = detail.get("result")
    if detail.get("end") not in ("settle", "forfeit") and (
        result not in MULTIPLIER or points != pair_points(detail["cube"], result)
    ):
        problems.append(f"{where}: {points} points is not cube × {result}")
    money = pair_money(points, info.pair_stake(winner, loser))
    want = {winner: (points, money), loser: (-points, -money)}
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
