"""The whole ledger as JSON Lines: the backup, and the way between SQLite and PostgreSQL.

``chouette export`` writes, one JSON object per line: a heading, every session (house rules,
stake, players and their stakes, the line), then every game (chouette games as their events,
imported games as their results), payment and charge (a fee or a shared cost) in the order
they were booked, then the acceptances, the chains and every chouette tournament (its terms,
purse, tables and journal). ``chouette
import`` of such a file into an empty database replays every chouette game through the
rules and books it again, so the copy has identical standings, sheets and ledger.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from chouette.amend import Correction
from chouette.card import ClubPreset, Origin, names_text
from chouette.chain import (
    RESTORED,
    Link,
    chain_problem,
    fingerprint,
    links_from,
    record_order,
    state_digest,
)
from chouette.checks import (
    engine_problems,
    line_problems,
    session_problems,
    source_problems,
    stranger_problems,
)
from chouette.costs import check_charge
from chouette.errors import ChouetteError
from chouette.game import replay
from chouette.line import Line, check_name, check_session_name
from chouette.money import check_payment, check_stake
from chouette.outcome import settle_game
from chouette.payments import Account, check_holder, check_number
from chouette.presets import check_preset_name, preset_key
from chouette.rules import HouseRules
from chouette.session import SessionInfo
from chouette.text import check_note, clipped
from chouette.words import Said, Sayable, as_data, reason_of, said
from db.codec import (
    amended_from_detail,
    charge_from_row,
    event_from_body,
    extras_to_detail,
    iso,
    line_from_dict,
    line_to_dict,
    said_detail,
)
from db.events import export_item, points_only_problems, record_item
from db.events import restore_item as restore_event
from db.ledger import Ledger
from db.migrations import LATEST
from db.values import Charged, Finished, Paid, SourceFile, StoredGame, StoredPlayer

HEADING = "chouette-ledger"
FORMAT = 1


def export(book: Ledger) -> Iterator[dict[str, Any]]:
    """Every row of the ledger that matters, as JSON-ready objects, in booking order."""
    yield {
        "kind": HEADING,
        "format": FORMAT,
        "schema": LATEST,
        "exported_at": book.now.isoformat(),
    }
    current = book.current_name()
    names: dict[int, str] = {}
    for info in book.all_sessions():
        names[info.id] = info.name
        yield _session_item(book, info, current)
    for preset in book.club_presets():
        yield {
            "kind": "preset",
            "name": preset.name,
            "rules": preset.rules.to_dict(),
            "saved_from": preset.saved_from,
            "saved_at": iso(preset.saved_at),
        }
    for account in book.accounts().values():  # where each player is paid (schema 15)
        yield {
            "kind": "account",
            "player": account.player,
            "holder": account.holder,
            "iban": account.iban,
            "phone": account.phone,
            "swish": account.swish,
        }
    first = book.first_bookings()
    items: list[tuple[float, str, int, StoredGame | Paid | Charged]] = [
        (first.get(("game", g.id), float("inf")), "game", g.id, g) for g in book.stored_games()
    ]
    items += [(first.get(("payment", p.id), 0), "payment", p.id, p) for p in book.payments()]
    items += [(first.get(("charge", c.id), 0), "charge", c.id, c) for c in book.charges()]
    items.sort(key=lambda item: (item[0], item[1], item[2]))
    for _, _, _, row in items:
        if isinstance(row, Paid):
            yield _payment_item(row, names[row.session_id])
        elif isinstance(row, Charged):
            yield _charge_item(row, names[row.session_id])
        else:
            yield _game(book, row, names[row.session_id])
    for source in book.source_files():
        yield _source_item(source)
    for info in book.all_sessions():  # the acceptances of each session's rules, in order
        yield from _accept_items(book, info)
    for info in book.all_sessions():  # each session's chain (chouette.chain)
        links = book.chain(info)
        if links:
            yield {"kind": "chain", "session": info.name, "links": [k.to_dict() for k in links]}
    for found in book.tournaments():  # each chouette tournament, its sessions named
        yield export_item(book, found, names)


def session_record(
    book: Ledger, info: SessionInfo, *, games: bool = True, event: bool = True
) -> list[dict[str, Any]]:
    """The session's record as ``export`` writes it, in :func:`chouette.chain.record_order`:
    what its chain's digest is taken of (without its games, for ``games`` False); an
    event's purse, the chain of the event's steps (:func:`db.events.record_item`; not for
    ``event`` False: as an export before schema 21 digested it)."""
    items: list[dict[str, Any]] = [_session_item(book, info, None)]
    if games:
        items += [_game(book, g, info.name) for g in book.stored_games(info)]
    items += [_payment_item(p, info.name) for p in book.payments(info)]
    items += [_charge_item(c, info.name) for c in book.charges(info)]
    items += [_source_item(s) for s in book.source_files(info)]
    items += _accept_items(book, info)
    if event:
        items += record_item(book, info)
    return [dict(i) for i in record_order(items)]


def _session_item(book: Ledger, info: SessionInfo, current: str | None) -> dict[str, Any]:
    return {
        "kind": "session",
        "name": info.name,
        "stake_cents": info.stake,
        "rules": info.rules.to_dict(),
        "created_at": iso(info.created_at),
        "night": info.night,
        "line": line_to_dict(info.line),
        "players": [
            {"name": p.name, "stake_cents": p.stake, "joined_at": iso(p.joined_at)}
            for p in book.session_players(info)
        ],
        "current": current == info.name,
        **({"origin": origin.to_dict()} if (origin := book.origin(info)).known else {}),
    }


def _payment_item(row: Paid, session: str) -> dict[str, Any]:
    return {
        "kind": "payment",
        "session": session,
        "payer": row.payer,
        "payee": row.payee,
        "cents": row.cents,
        "note": row.note,
        "at": iso(row.at),
    }


def _charge_item(row: Charged, session: str) -> dict[str, Any]:
    charge = row.charge
    return {
        "kind": "charge",
        "session": session,
        "type": charge.kind,
        "to": charge.to,
        "cents": charge.cents,
        "shares": [[name, cents] for name, cents in charge.shares],
        "note": str(charge.note),
        "at": iso(row.at),
        **({} if isinstance(charge.note, str) else {"words": as_data(charge.note)}),
    }


def _source_item(source: SourceFile) -> dict[str, Any]:
    return {
        "kind": "source_file",
        "sha256": source.sha256,
        "name": source.name,
        "format": source.format,
        "session": source.session,
        "games": source.games,
        "imported_at": iso(source.imported_at),
        "first_game": source.first_game,
        "last_game": source.last_game,
    }


def _accept_items(book: Ledger, info: SessionInfo) -> list[dict[str, Any]]:
    return [
        {
            "kind": "accept",
            "session": info.name,
            "players": action.detail.get("players"),
            "rules": action.detail.get("rules"),
            "stake_cents": action.detail.get("stake_cents"),
            "at": iso(action.at),
        }
        for action in reversed(book.actions(info, kind="accept"))
    ]


def game_items(book: Ledger, info: SessionInfo, games: list[StoredGame]) -> list[dict[str, Any]]:
    """Games of the session as ``export`` writes them, their events and bookings read at
    once (a command digests the games it changed: an import, thousands)."""
    if not games:
        return []
    numbers = [g.number for g in games]
    events, bookings = book.reads.game_contents(info.id, min(numbers), max(numbers))
    return [
        _game_item(game, info.name, events.get(game.id, []), bookings.get(game.id, []))
        for game in games
    ]


def _game(book: Ledger, game: StoredGame, session: str) -> dict[str, Any]:
    bookings = [(b.player, b.points, b.cents) for b in book.game_bookings(game.id)]
    events = [body for _, body in book.event_bodies(game.id)]
    return _game_item(game, session, events, bookings)


def _game_item(
    game: StoredGame, session: str, events: list[str], bookings: list[tuple[str, int, int]]
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": "game",
        "session": session,
        "number": game.number,
        "type": game.kind,
        "line": json.loads(game.line_before),
        "over": game.over,
        "started_at": iso(game.started_at),
        "ended_at": iso(game.ended_at),
    }
    if game.kind == "engine":
        out["detail"] = json.loads(game.detail or "{}")
        out["source"] = list(game.source)
        if game.key is not None:
            out["key"] = game.key
        out["bookings"] = [
            {"player": player, "points": points, "cents": cents}
            for player, points, cents in bookings
        ]
    else:
        out["events"] = [json.loads(body) for body in events]
        trail = amended_from_detail(game.detail)
        if trail:  # written only for a game corrected (chouette amend)
            out["amended"] = [c.to_json() for c in trail]
    return out


# ---------------------------------------------------------------- restore


def is_export(first_line: str) -> bool:
    try:
        data = json.loads(first_line)
    except (ValueError, RecursionError):  # not JSON, or nested too deeply to be a heading
        return False
    return isinstance(data, dict) and data.get("kind") == HEADING


#: The first schema whose exports carry each chained session's chain (schema 12); an export
#: of an older chouette has none, and its sessions are restored and chained from then on.
CHAINS_FROM = 12
#: The first schema under which every session of a ledger is chained (a ledger migrated to
#: it has every session chained as it moves): its exports give every session a chain.
ALL_CHAINED_FROM = 16
#: The first schema whose purses' records hold the chain of their event's steps: an older
#: export's purse is checked without it, and sealed with it as it is restored.
EVENTS_CHAINED_FROM = 21


@dataclass(frozen=True)
class Verified:
    """A session of an export as its chain vouches for it: its fingerprint (None: no chain),
    what does not fit (None: it checks), the export's line that says so (its chain's, or
    the session's), and whether a restore takes it all the same (``unproven``: an export
    written before chouette chained records, which a restore chains from then on)."""

    session: str
    fingerprint: str | None
    problem: Sayable | None
    line: int
    unproven: bool = False


def restore(book: Ledger, lines: Iterable[tuple[int, str]]) -> dict[str, int]:
    """Rebuild an exported ledger in this (empty) database; counts of what was restored.
    A session whose chain does not check, or that has no chain where its export should give
    one, is refused (:func:`read_export`), naming the line: nothing is restored."""
    counts, found = read_export(book, lines)
    for verdict in found:
        if verdict.problem is not None and not verdict.unproven:
            raise ChouetteError(
                said(
                    "line {line}: {session}'s chain does not check: {problem}; nothing was "
                    "restored",
                    line=verdict.line,
                    session=verdict.session,
                    problem=verdict.problem,
                )
            )
    return counts


def read_export(
    book: Ledger, lines: Iterable[tuple[int, str]]
) -> tuple[dict[str, int], list[Verified]]:
    """Read an export strictly into this (empty) database, as a restore does, and each
    session's verdict: its chain checked against its record as restored. Every line is
    read by one model per kind (:mod:`db.export_lines`) and its values by the rules (a game
    replayed, its bookings and files checked); a line that is not one raises ChouetteError
    naming it. A chain that checks is kept as it is (its fingerprints the same); a session
    without one is chained as the command ends (:func:`db.chained.seal`)."""
    # the export's line models, loaded here: only a restore reads them (every command that
    # writes loads this module, to seal its sessions' chains)
    from db.export_lines import read_line

    if book.all_sessions():
        raise ChouetteError(said("an export is imported into an empty database only"))
    sessions: dict[str, SessionInfo] = {}
    counts = {"sessions": 0, "games": 0, "payments": 0, "charges": 0}
    current = None
    seen = _Seen()
    given: dict[str, int] = {}  # the line of the export that gave each session
    booked: dict[str, int] = {}  # how many lines of its record each session has
    chains: dict[str, tuple[int, list[Link]]] = {}  # each session's chain, and its line
    headed = False
    schema: int | None = None
    for number, text in lines:
        if not text.strip():
            continue
        try:
            item = read_line(text, LATEST)  # one model per kind: db/export_lines.py
            kind = item["kind"]
            if (kind == HEADING) != (not headed):
                raise ChouetteError(
                    said("an export's heading is its first line, once")
                    if headed
                    else said(
                        'an export starts with its heading ({{"kind": "chouette-ledger", …}})'
                    )
                )
            headed = True
            if kind in RECORD_KINDS:
                info = _of(sessions, item)
                booked[info.name] = booked.get(info.name, 0) + 1
            if kind == HEADING:
                if item.get("format") != FORMAT:
                    raise ChouetteError(
                        said(
                            "export format {found} is not {format}",
                            found=repr(item.get("format")),
                            format=FORMAT,
                        )
                    )
                schema = item.get("schema")
            elif kind == "session":
                info = _session(book, item)
                sessions[info.name] = info
                given[info.name] = number
                counts["sessions"] += 1
                if _flag(item.get("current", False), said("current")):
                    current = info.name
            elif kind == "game":
                _restore_game(book, item, info, seen)
                counts["games"] += 1
            elif kind == "payment":
                _payment(book, item, info)
                counts["payments"] += 1
            elif kind == "charge":
                _charge(book, item, info)
                counts["charges"] += 1
            elif kind == "source_file":
                _source_file(book, item, info, seen)
            elif kind == "preset":
                _preset(book, item, seen)
            elif kind == "account":
                _account(book, item, seen)
            elif kind == "accept":
                _acceptance(book, item, info)
            elif kind == "event":
                restore_event(book, item, _time)
                counts["events"] = counts.get("events", 0) + 1
            elif kind == "chain":
                if set(item) != {"kind", "session", "links"}:
                    raise ChouetteError(
                        said("a chain line has kind, session and links, and no more")
                    )
                name = item["session"]
                if name not in sessions or name in chains:
                    raise ChouetteError(
                        said("a chain for {session}, given before it or twice", session=repr(name))
                    )
                chains[name] = (number, links_from(item["links"]))
            else:
                raise ChouetteError(said("unknown kind {kind}", kind=repr(kind)))
        except ChouetteError as err:
            raise ChouetteError(on_line(number, err.said)) from None
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            raise ChouetteError(
                said(
                    "line {line}: not a valid export line ({reason})",
                    line=number,
                    reason=reason_of(err, repr),
                )
            ) from None
    for name, info in sessions.items():  # its games all given: numbered 1, 2, …, one in play
        games = seen.games.get(info.id, {})
        live = sum(not over for _, over in games.values())
        problems = session_problems(info, sorted(games), live)
        if problems:
            raise ChouetteError(on_line(given[name], problems[0]))
    strays = points_only_problems(book)  # (a stake of 0: an event's table, given after it)
    if strays:
        raise ChouetteError(said("{where}: a stake is more than zero", where=strays[0]))
    found = []
    for name, info in sessions.items():  # each chain checks, and is kept as it is
        if name not in chains:
            found.append(_unchained(name, given[name], schema, booked.get(name, 0)))
            continue
        number, links = chains[name]
        chained = schema is None or schema >= EVENTS_CHAINED_FROM
        record = session_record(book, book.session(name), event=chained)
        problem = chain_problem(links, state_digest(record))
        found.append(Verified(name, fingerprint(links), problem, number))
        if problem is None:
            book.add_links(info, links)
            _mark_restored(book, info, links[-1])
            book.touched.pop(info.id, None)  # restored as it was: no link of its own
            if not chained and record_item(book, info):  # its event's steps chained now
                book.changed(info.id, "its event's steps chained as it was restored")
    if current is not None:
        book.use(current)
    return counts, found


def on_line(number: int, problem: Sayable) -> Said:
    """``problem`` found on line ``number`` of the export."""
    return said("line {line}: {problem}", line=number, problem=problem)


def _mark_restored(book: Ledger, info: SessionInfo, newest: Link) -> None:
    """The entry a restore leaves on top of a session's journal (:data:`RESTORED`): an
    export does not carry the journal, so what was done before is not in it; the entry
    holds the journal's digest as the restored chain's newest link gives it (the journal's
    digest goes on from there), and ``undo`` stops at it."""
    book.journal(info, RESTORED, {"journal": newest.journal, "said": "the restore from an export"})
    book.journaled.pop(info.id)  # (its digest is the one it holds: nothing to step on)


#: The lines of a session's record, beside the session's own.
RECORD_KINDS = frozenset({"game", "payment", "charge", "source_file", "accept"})


def _of(sessions: dict[str, SessionInfo], item: dict[str, Any]) -> SessionInfo:
    """The session a line of its record belongs to, given before it."""
    name = item["session"]
    if name not in sessions:
        raise ChouetteError(
            said(
                "it belongs to the session {session}, which the export does not give before it",
                session=clipped(repr(name)),
            )
        )
    return sessions[name]


def _unchained(name: str, line: int, schema: int | None, booked: int) -> Verified:
    """A session the export gives no chain for: nothing proves its record. An export of a
    chouette before chains (schema 11 or older) has none, and is restored all the same; from
    schema 16 on every session has one; between, a session migrated from before chains and
    unchanged since may lack one, if nothing is booked in it."""
    if schema is None or schema < CHAINS_FROM:
        return Verified(
            name,
            None,
            said(
                "the export was written before chouette chained records (schema {schema}): "
                "nothing proves its record",
                schema="?" if schema is None else schema,
            ),
            line,
            unproven=True,
        )
    if schema >= ALL_CHAINED_FROM:
        missing = said(
            "it has no chain, so nothing proves its record: its chain line is missing (an "
            "export of schema {schema} gives one for every session)",
            schema=schema,
        )
        return Verified(name, None, missing, line)
    if booked:
        missing = said(
            "it has no chain, so nothing proves its record: its chain line is missing (an "
            "export of schema {schema} gives one for every session with anything booked)",
            schema=schema,
        )
        return Verified(name, None, missing, line)
    return Verified(name, None, None, line)


def _time(value: Any) -> datetime:
    """A time from the export, in UTC: chouette writes UTC with its offset; a time given
    in another zone is the same moment, and one without an offset is UTC (SQLite would
    keep a time's wall clock and drop its offset, PostgreSQL read it in the server's zone)."""
    moment = datetime.fromisoformat(value)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class _Seen:
    """What the export gave already: a session's game numbers, games' identities and
    sources, imported files. Each is given once (the ledger's unique keys), or the export
    is refused naming the line."""

    def __init__(self) -> None:
        self.given: set[tuple[str, object]] = set()
        #: Each session's games (by its id): number to kind and whether it is over.
        self.games: dict[int, dict[int, tuple[str, bool]]] = {}

    def once(self, kind: str, value: object, what: Sayable) -> None:
        if (kind, value) in self.given:
            raise ChouetteError(said("{what} is given twice in the export", what=what))
        self.given.add((kind, value))


def _line(data: Any, where: Sayable) -> Line:
    """A line from the export: its seats named as players are, none twice, and whoever sits
    out, partners or is away one of them."""
    line = line_from_dict(data)
    line = replace(line, order=tuple(check_name(p) for p in line.order))
    problems = line_problems(where, line)
    if problems:
        raise ChouetteError(problems[0])
    return line


def _whole(value: Any, what: Sayable) -> int:
    """A whole number from the export (not true/false, not a fraction)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ChouetteError(
            said("{what} must be a whole number, not {value}", what=what, value=repr(value))
        )
    return value


def _flag(value: Any, what: Sayable) -> bool:
    """true or false from the export (not "no", not 0 or 1)."""
    if not isinstance(value, bool):
        raise ChouetteError(
            said("{what} must be true or false, not {value}", what=what, value=repr(value))
        )
    return value


def _text(value: Any, what: Sayable) -> str:
    """Text from the export (not a number, not a list)."""
    if not isinstance(value, str):
        raise ChouetteError(said("{what} must be text, not {value}", what=what, value=repr(value)))
    return value


def _session(book: Ledger, item: dict[str, Any]) -> SessionInfo:
    name = check_session_name(_text(item["name"], said("a session's name")))
    line = _line(item["line"], said("the session {session}", session=name))
    players = []
    for p in item["players"]:
        player = check_name(_text(p["name"], said("a player's name")))
        own = p["stake_cents"]
        if own is not None:
            own = _whole(own, said("{player}'s stake", player=player))
        players.append(StoredPlayer(player, own, _time(p["joined_at"])))
    problems = stranger_problems(
        said("the session {session}", session=name), line.order, [p.name for p in players]
    )
    if problems:
        raise ChouetteError(problems[0])
    origin = item.get("origin")  # (not in an export before schema 11)
    night = item.get("night")  # (not before schema 14: the local date it began)
    stake = _whole(item["stake_cents"], said("the stake"))
    return book.create_session(
        name,
        line,
        stake if stake == 0 else check_stake(stake),  # (0: an event's table, checked after)
        HouseRules.from_dict(item["rules"]),
        created_at=_time(item["created_at"]),
        players=players,
        current=False,
        origin=None if origin is None else Origin.from_dict(origin),
        night=None if night is None else _text(night, said("a session's night")),
        points_only=stake == 0,
    )


def _preset(book: Ledger, item: dict[str, Any], seen: _Seen) -> None:
    """A club's own preset."""
    name = check_preset_name(_text(item["name"], said("a preset's name")))
    seen.once("preset", preset_key(name), said("the preset {preset}", preset=name))
    book.save_preset(
        ClubPreset(
            name,
            HouseRules.from_dict(item["rules"]),
            _time(item["saved_at"]),
            check_session_name(_text(item["saved_from"], said("a preset's session"))),
        )
    )


def _account(book: Ledger, item: dict[str, Any], seen: _Seen) -> None:
    """Where a player is paid, checked as ``chouette account`` checks it."""
    from db.iban import checked_iban

    player = check_name(_text(item["player"], said("an account's player")))
    seen.once("account", player, said("the account of {player}", player=player))
    book.save_account(
        Account(
            player,
            check_holder(_text(item["holder"], said("an account's holder"))),
            checked_iban(_text(item["iban"], said("an account's IBAN"))),
            check_number(_text(item["phone"], said("an account's phone")), said("phone number")),
            check_number(_text(item["swish"], said("an account's Swish")), said("Swish number")),
        )
    )


def _acceptance(book: Ledger, item: dict[str, Any], info: SessionInfo) -> None:
    """Players' acceptance of a session's rules, a journal entry as it was."""
    players = item["players"]
    if not isinstance(players, list) or not players:
        raise ChouetteError(
            said("an acceptance names its players, not {found}", found=repr(players))
        )
    names = [check_name(_text(p, said("a player's name"))) for p in players]
    problems = stranger_problems(
        said("an acceptance in {session}", session=info.name), names, book.player_names(info)
    )
    if problems:
        raise ChouetteError(problems[0])
    rules = HouseRules.from_dict(item["rules"]).to_dict()
    book.journal(
        info,
        "accept",
        {
            "players": names,
            "rules": rules,
            "stake_cents": check_stake(_whole(item["stake_cents"], said("an accepted stake"))),
            **said_detail(
                said("the acceptance of the rules by {players}", players=names_text(names))
            ),
        },
        at=_time(item["at"]),
    )


def _restore_game(book: Ledger, item: dict[str, Any], info: SessionInfo, seen: _Seen) -> None:
    number = _whole(item["number"], said("a game's number"))
    if number < 1:
        raise ChouetteError(said("a game's number must be 1 or more, not {number}", number=number))
    of = said("game {number} of {session}", number=number, session=info.name)
    seen.once("number", (info.id, number), of)
    where = said("{session} game {number}", session=info.name, number=number)
    kind, over = item["type"], _flag(item["over"], said("{where}: over", where=where))
    if kind not in ("chouette", "engine"):
        raise ChouetteError(
            said(
                "{where}: its type must be chouette or engine, not {kind}",
                where=where,
                kind=repr(kind),
            )
        )
    seen.games.setdefault(info.id, {})[number] = (kind, over)
    players = book.player_names(info)
    line = _line(item["line"], where)
    problems = stranger_problems(where, line.order, players)
    if problems:
        raise ChouetteError(problems[0])
    started = _time(item["started_at"])
    if over and "ended_at" in item and item["ended_at"] is None:
        raise ChouetteError(
            said("{where}: a game that is over has the time it ended, not null", where=where)
        )
    ended = _time(item["ended_at"]) if item.get("ended_at") else started
    if kind == "engine":
        if not over:
            raise ChouetteError(
                said("{where}: an imported game is over, not in progress", where=where)
            )
        source = _source(item["source"])
        if source is not None:
            sha, index = source
            seen.once(
                "source", source, said("game {index} of the file {file}", index=index, file=sha)
            )
        key = item.get("key")  # not in schema 4's export
        if key is not None:
            identity = _text(key, said("{where}: its identity", where=where))
            seen.once("key", identity, said("the game identity {key}", key=key))
        points: dict[str, int] = {}
        cents: dict[str, int] = {}
        for b in item["bookings"]:
            player = b["player"]
            if player not in players or player in points:
                raise ChouetteError(
                    said(
                        "{game} books {player}: not a player of the session, or booked twice",
                        game=of,
                        player=repr(player),
                    )
                )
            points[player] = _whole(b["points"], said("{player}'s points", player=player))
            cents[player] = _whole(b["cents"], said("{player}'s money", player=player))
        if sum(points.values()) or sum(cents.values()):
            raise ChouetteError(said("{game}: its bookings do not sum to zero", game=of))
        booked = {player: (points[player], cents[player]) for player in points}
        problems = engine_problems(where, item["detail"], booked, info)
        if problems:
            raise ChouetteError(problems[0])
        book.book_games(
            [
                Finished(info.id, number, "engine", line, points, cents, started, ended,
                         detail=json.dumps(item["detail"], ensure_ascii=False),
                         source=source, key=key)
            ],
            move_line=False,
        )  # fmt: skip
        return
    events = [event_from_body(json.dumps(e)) for e in item["events"]]
    game = replay(line, info.rules, events)
    if game.over != over:
        raise ChouetteError(said("{game}: its events disagree", game=of))
    if not game.over:  # the game in progress when the ledger was exported
        game_id = book.start_game(info, number, line, at=started)
        book.add_events(game_id, 0, events, at=started)
        return
    outcome = settle_game(game, info.stakes(game.players))
    try:
        trail = tuple(Correction.from_json(c) for c in item.get("amended") or ())
    except (ChouetteError, KeyError, TypeError, ValueError) as err:
        reason = reason_of(err)
        raise ChouetteError(
            said(
                "{where}: its corrections are not corrections ({reason})",
                where=where,
                reason=reason,
            )
        ) from None
    if trail and trail[-1].now != game.result:
        raise ChouetteError(
            said("{where}: its last correction is not the end its events give", where=where)
        )
    detail = extras_to_detail(outcome.extras, trail)
    book.book_games(
        [
            Finished(info.id, number, "chouette", line, outcome.points, outcome.cents, started,
                     ended, line_after=outcome.next_line, events=events, box=game.box,
                     pairs=outcome.pairs, detail=detail)
        ],
        move_line=False,
    )  # fmt: skip


def _source(value: Any) -> tuple[str, int] | None:
    """An imported game's file (its SHA-256) and its index there, or none ([null, null])."""
    if value == [None, None]:
        return None
    if not isinstance(value, list) or len(value) != 2 or None in value:
        raise ChouetteError(
            said(
                "a game's source must be [file, index] or [null, null], not {value}",
                value=repr(value),
            )
        )
    return _text(value[0], said("a game's file")), _whole(
        value[1], said("a game's index in its file")
    )


def _source_file(book: Ledger, item: dict[str, Any], info: SessionInfo, seen: _Seen) -> None:
    """An imported file, naming the session's engine games it booked (given before it)."""
    sha = _text(item["sha256"], said("a file's SHA-256"))
    seen.once("file", sha, said("the file {file}", file=sha))
    first, last = item.get("first_game"), item.get("last_game")  # not in schema 3's export
    source = SourceFile(
        sha256=sha,
        name=_text(item["name"], said("a file's name")),
        format=_text(item["format"], said("a file's format")),
        session_id=info.id,
        session=info.name,
        games=_whole(item["games"], said("a file's count of games")),
        imported_at=_time(item["imported_at"]),
        first_game=None if first is None else _whole(first, said("a file's first game")),
        last_game=None if last is None else _whole(last, said("a file's last game")),
    )
    kinds = {n: kind for n, (kind, _) in seen.games.get(info.id, {}).items()}
    problems = source_problems(info.name, source, kinds)
    if problems:
        raise ChouetteError(problems[0])
    book.remember_file(source)


def _payment(book: Ledger, item: dict[str, Any], info: SessionInfo) -> None:
    cents = _whole(item["cents"], said("a payment"))
    payer, payee = check_name(item["payer"]), check_name(item["payee"])
    check_payment(payer, payee, cents, book.player_names(info), info.name)
    book.book_payments(
        [
            Paid(
                info.id,
                payer,
                payee,
                cents,
                check_note(_text(item.get("note", ""), said("a payment's note"))),
                _time(item["at"]),
            )
        ]
    )


def _charge(book: Ledger, item: dict[str, Any], info: SessionInfo) -> None:
    """A fee or a shared cost, which must be its own split among players of the session."""
    cents = _whole(item["cents"], said("a fee or a shared cost"))
    try:
        charge = charge_from_row(
            _text(item["type"], said("a charge's type")),
            check_name(item["to"]),
            cents,
            item["shares"],
            check_note(_text(item["note"], said("a charge's note"))),
            item.get("words"),
        )
    except (TypeError, ValueError) as err:
        raise ChouetteError(reason_of(err)) from None
    if "words" in item and isinstance(charge.note, str):
        raise ChouetteError(said("a charge's words do not say its note"))
    check_charge(charge, book.player_names(info), info.name)
    book.book_charge(Charged(info.id, charge, _time(item["at"])))
