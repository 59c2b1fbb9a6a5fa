"""The whole ledger as JSON Lines: the backup, and the way between SQLite and PostgreSQL.

``chouette export`` writes, one JSON object per line: a heading, every session (house rules,
stake, players and their stakes, the line), then every game (chouette games as their events,
imported games as their results) and payment in the order they were booked. ``chouette
import`` of such a file into an empty database replays every chouette game through the
rules and books it again, so the copy has identical standings, sheets and ledger.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert
from sqlmodel import select

from chouette.errors import ChouetteError
from chouette.game import replay
from chouette.limits import check_cents
from chouette.line import Line, check_name, check_session_name
from chouette.money import check_stake
from chouette.outcome import settle_game
from chouette.record import event_to_json, parse_event
from chouette.rules import HouseRules
from chouette.text import check_note
from db.bulk import insert_bookings
from db.migrations import LATEST
from db.models import (
    BookingRow,
    EventRow,
    GameRow,
    PairRow,
    PaymentRow,
    PlayerRow,
    SessionRow,
    Setting,
    SourceFileRow,
)
from db.store import CURRENT, Ledger, line_from_json, line_to_json, utc

HEADING = "chouette-ledger"
FORMAT = 1


def _line_json(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    return data


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else utc(moment).isoformat()


def export(book: Ledger) -> Iterator[dict[str, Any]]:
    """Every row of the ledger that matters, as JSON-ready objects, in booking order."""
    db = book.db
    current = db.get(Setting, CURRENT)
    yield {
        "kind": HEADING,
        "format": FORMAT,
        "schema": LATEST,
        "exported_at": book.now.isoformat(),
    }
    names: dict[int, str] = {}
    for row in db.exec(select(SessionRow).order_by(SessionRow.id)).all():
        assert row.id is not None
        names[row.id] = row.name
        players = db.exec(
            select(PlayerRow).where(PlayerRow.session_id == row.id).order_by(PlayerRow.id)
        ).all()
        yield {
            "kind": "session",
            "name": row.name,
            "stake_cents": row.stake_cents,
            "rules": json.loads(row.rules),
            "created_at": _time(row.created_at),
            "line": _line_json(row.line),
            "players": [
                {"name": p.name, "stake_cents": p.stake_cents, "joined_at": _time(p.joined_at)}
                for p in players
            ],
            "current": current is not None and current.value == row.name,
        }
    first_booking = dict(
        db.exec(
            select(BookingRow.game_id, func.min(BookingRow.id)).group_by(BookingRow.game_id)
        ).all()
    )
    first_payment = dict(
        db.exec(
            select(BookingRow.payment_id, func.min(BookingRow.id)).group_by(BookingRow.payment_id)
        ).all()
    )
    items: list[tuple[float, int, str, Any]] = []
    for game in db.exec(select(GameRow)).all():
        order = first_booking.get(game.id)
        items.append((float("inf") if order is None else order, game.id or 0, "game", game))
    for payment in db.exec(select(PaymentRow)).all():
        items.append((first_payment.get(payment.id, 0), payment.id or 0, "payment", payment))
    items.sort(key=lambda item: (item[0], item[2], item[1]))
    for _, _, kind, row in items:
        if kind == "payment":
            yield {
                "kind": "payment",
                "session": names[row.session_id],
                "payer": row.payer,
                "payee": row.payee,
                "cents": row.cents,
                "note": row.note,
                "at": _time(row.at),
            }
        else:
            yield _game(book, row, names[row.session_id])
    for source in db.exec(select(SourceFileRow).order_by(SourceFileRow.imported_at)).all():
        yield {
            "kind": "source_file",
            "sha256": source.sha256,
            "name": source.name,
            "format": source.format,
            "session": names[source.session_id],
            "games": source.games,
            "imported_at": _time(source.imported_at),
            "first_game": source.first_game,
            "last_game": source.last_game,
        }


def _game(book: Ledger, game: GameRow, session: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": "game",
        "session": session,
        "number": game.number,
        "type": game.kind,
        "line": _line_json(game.line_before),
        "over": game.over,
        "started_at": _time(game.started_at),
        "ended_at": _time(game.ended_at),
    }
    if game.kind == "engine":
        rows = book.db.exec(
            select(BookingRow).where(BookingRow.game_id == game.id).order_by(BookingRow.id)
        ).all()
        out["detail"] = json.loads(game.detail or "{}")
        out["source"] = [game.source_sha256, game.source_index]
        if game.game_key is not None:
            out["key"] = game.game_key
        out["bookings"] = [{"player": r.player, "points": r.points, "cents": r.cents} for r in rows]
    else:
        bodies = book.db.exec(
            select(EventRow.body).where(EventRow.game_id == game.id).order_by(EventRow.seq)
        ).all()
        out["events"] = [json.loads(b) for b in bodies]
    return out


# ---------------------------------------------------------------- restore


def is_export(first_line: str) -> bool:
    try:
        data = json.loads(first_line)
    except (ValueError, RecursionError):  # not JSON, or nested too deeply to be a heading
        return False
    return isinstance(data, dict) and data.get("kind") == HEADING


def restore(book: Ledger, lines: Iterable[tuple[int, str]]) -> dict[str, int]:
    """Rebuild an exported ledger in this (empty) database; counts of what was restored."""
    db = book.db
    if db.exec(select(func.count()).select_from(SessionRow)).one():
        raise ChouetteError("an export is imported into an empty database only")
    sessions: dict[str, tuple[int, HouseRules, dict[str, int], int]] = {}
    counts = {"sessions": 0, "games": 0, "payments": 0}
    current = None
    for number, text in lines:
        if not text.strip():
            continue
        try:
            item = json.loads(text)
            kind = item["kind"]
            if kind == HEADING:
                if item.get("format") != FORMAT:
                    raise ChouetteError(f"export format {item.get('format')} is not {FORMAT}")
            elif kind == "session":
                sessions[item["name"]] = _session(book, item)
                counts["sessions"] += 1
                if item.get("current"):
                    current = item["name"]
            elif kind == "game":
                _restore_game(book, item, sessions[item["session"]])
                counts["games"] += 1
            elif kind == "payment":
                _payment(book, item, sessions[item["session"]][0])
                counts["payments"] += 1
            elif kind == "source_file":
                db.add(
                    SourceFileRow(
                        sha256=item["sha256"],
                        name=item["name"],
                        format=item["format"],
                        session_id=sessions[item["session"]][0],
                        games=item["games"],
                        imported_at=datetime.fromisoformat(item["imported_at"]),
                        first_game=item.get("first_game"),  # not in an export of schema 3
                        last_game=item.get("last_game"),
                    )
                )
            else:
                raise ChouetteError(f"unknown kind {kind!r}")
        except ChouetteError as err:
            raise ChouetteError(f"line {number}: {err}") from None
        except (ValueError, KeyError, TypeError) as err:
            raise ChouetteError(f"line {number}: not a valid export line ({err!r})") from None
    if current is not None:
        book.use(current)
    return counts


def _whole(value: Any, what: str) -> int:
    """A whole number from the export (not true/false, not a fraction)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ChouetteError(f"{what} must be a whole number, not {value!r}")
    return value


def _session(book: Ledger, item: dict[str, Any]) -> tuple[int, HouseRules, dict[str, int], int]:
    rules = HouseRules.from_dict(item["rules"])
    line = Line(
        order=tuple(check_name(p) for p in item["line"]["order"]),
        sitting_out=frozenset(item["line"].get("sitting_out", ())),
        partner=item["line"].get("partner"),
        last_down=item["line"].get("last_down"),
    )
    stake = check_stake(_whole(item["stake_cents"], "the stake"))
    row = SessionRow(
        name=check_session_name(item["name"]),
        stake_cents=stake,
        rules=json.dumps(rules.to_dict()),
        line=line_to_json(line),
        created_at=datetime.fromisoformat(item["created_at"]),
    )
    book.db.add(row)
    book.db.flush()
    assert row.id is not None
    stakes = {}
    for p in item["players"]:
        name = check_name(p["name"])
        own = p["stake_cents"]
        if own is not None:
            own = stakes[name] = check_stake(_whole(own, f"{name}'s stake"), f"{name}'s stake")
        book.db.add(
            PlayerRow(
                session_id=row.id,
                name=name,
                stake_cents=own,
                joined_at=datetime.fromisoformat(p["joined_at"]),
            )
        )
    return row.id, rules, stakes, stake


def _restore_game(
    book: Ledger, item: dict[str, Any], session: tuple[int, HouseRules, dict[str, int], int]
) -> None:
    session_id, rules, stakes, stake = session
    line_text = json.dumps(item["line"], ensure_ascii=False)
    started = datetime.fromisoformat(item["started_at"])
    ended = datetime.fromisoformat(item["ended_at"]) if item.get("ended_at") else None
    values: dict[str, Any] = {
        "session_id": session_id,
        "number": _whole(item["number"], "a game's number"),
        "kind": item["type"],
        "over": bool(item["over"]),
        "line_before": line_text,
        "started_at": started,
        "ended_at": ended,
    }
    db = book.db
    if item["type"] == "engine":
        sha, index = item["source"]
        values |= {
            "detail": json.dumps(item["detail"], ensure_ascii=False),
            "source_sha256": sha,
            "source_index": index,
            "game_key": item.get("key"),  # not in an export of schema 4 or older
        }
        game_id = db.execute(insert(GameRow).values(values).returning(GameRow.id)).scalar_one()
        insert_bookings(
            db.connection(),
            [
                (session_id, game_id, None, b["player"], b["points"], b["cents"])
                for b in item["bookings"]
            ],
            ended or started,
        )
        return
    events = [parse_event(e, "event", allow_end=True) for e in item["events"]]
    game = replay(line_from_json(line_text), rules, events)
    if game.over != bool(item["over"]):
        raise ChouetteError(f"game {item['number']} of {item['session']}: its events disagree")
    if game.over:
        outcome = settle_game(game, {p: stakes.get(p, stake) for p in game.players})
        values["line_after"] = line_to_json(outcome.next_line)
    game_id = db.execute(insert(GameRow).values(values).returning(GameRow.id)).scalar_one()
    if events:
        db.execute(
            insert(EventRow),
            [
                {"game_id": game_id, "seq": i, "body": json.dumps(event_to_json(e)), "at": started}
                for i, e in enumerate(events)
            ],
        )
    if game.over:
        at = ended or started
        db.execute(
            insert(PairRow),
            [
                {
                    "game_id": game_id,
                    "member": m,
                    "box": game.box,
                    "points": p,
                    "cents": outcome.cents[m],
                }
                for m, p in outcome.pairs.items()
            ],
        )
        insert_bookings(
            db.connection(),
            [
                (session_id, game_id, None, p, outcome.points[p], outcome.cents[p])
                for p in outcome.points
            ],
            at,
        )


def _payment(book: Ledger, item: dict[str, Any], session_id: int) -> None:
    at = datetime.fromisoformat(item["at"])
    cents = _whole(item["cents"], "a payment")
    if cents <= 0:
        raise ChouetteError("a payment must be more than zero")
    check_cents(cents, "a payment")
    payer, payee = check_name(item["payer"]), check_name(item["payee"])
    payment_id = book.db.execute(
        insert(PaymentRow)
        .values(
            session_id=session_id,
            payer=payer,
            payee=payee,
            cents=cents,
            note=check_note(item.get("note", "")),
            at=at,
        )
        .returning(PaymentRow.id)
    ).scalar_one()
    insert_bookings(
        book.db.connection(),
        [
            (session_id, None, payment_id, payer, 0, cents),
            (session_id, None, payment_id, payee, 0, -cents),
        ],
        at,
    )
