"""The ledger's reads for the reports, in plain SQL over the database driver.

One implementation of each read, run two ways: by :class:`~db.ledger.Ledger` on the
connection of its ORM session (SQLite or PostgreSQL, in the command's transaction), and by
the quick read path of :mod:`db.reading`, on a bare :mod:`sqlite3` connection, so that a
report on an SQLite ledger loads no ORM. The SQL is the portable kind both databases read
(``?`` marks its parameters; :func:`runner` turns them into the driver's own).

The SQL names only the tables and columns of the models (:mod:`db.models`, the one
schema): tests/ledger/test_raw_sql.py looks up every name it uses in their metadata, so a
column renamed in a model cannot leave a statement here behind.

The reads that grow with the ledger (:meth:`Reads.sheet`, :meth:`Reads.entries`) are
generators over one query, its rows streamed (on PostgreSQL through a server-side cursor):
a report writes each row as it comes, and its memory does not grow with the ledger.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

from chouette.amend import Correction
from chouette.card import UNKNOWN, Acceptance, Card, ClubPreset, Origin
from chouette.chain import FINGERPRINT
from chouette.errors import ChouetteError
from chouette.event import EventRules, reentry_at
from chouette.game import Event, Game, carried_over, replay
from chouette.line import normal_name
from chouette.money import Cents
from chouette.nights import Night, Table
from chouette.outcome import ExtraResult, Reentry, settle_game
from chouette.payments import Account
from chouette.report import GAME_NOTE, Entry, GameLine, SessionSummary, standings
from chouette.rules import HouseRules
from chouette.session import LiveGame, SessionInfo
from chouette.stop import StopState, stop_state
from chouette.text import clipped
from chouette.words import Said, Sayable, said
from db.codec import (
    amended_from_detail,
    charge_from_row,
    event_from_body,
    extras_from_detail,
    line_from_json,
    rules_from_json,
    said_note,
)
from db.names import Run, moment
from db.names import current_name as current_name_of
from db.names import nights as nights_of
from db.names import session_names as session_names_of
from db.values import GameView

SESSION_COLUMNS = "id, name, stake_cents, rules, line, created_at, night"


def runner(
    execute: Callable[[str, Sequence[Any]], Iterable[Sequence[Any]]], paramstyle: str
) -> Run:
    """``execute`` (a driver's) with ``?`` marks turned into the driver's own, where its
    parameter style differs (psycopg: ``%s``)."""
    if paramstyle == "qmark":
        return execute
    if paramstyle not in ("format", "pyformat"):
        raise ChouetteError(
            said("internal error: a database driver with {style} parameters", style=paramstyle)
        )
    converted: dict[str, str] = {}

    def run(sql: str, params: Sequence[Any]) -> Iterable[Sequence[Any]]:
        text = converted.get(sql)
        if text is None:
            text = converted[sql] = sql.replace("%", "%%").replace("?", "%s")
        return execute(text, params)

    return run


class Reads:
    """The reports' reads of one open transaction (``run``: its statements; ``stream``: the
    same, its rows fetched as they are read; ``dialect``: ``sqlite`` or ``postgresql``)."""

    def __init__(self, run: Run, *, dialect: str, stream: Run | None = None) -> None:
        self._run = run
        self._stream = stream or run
        self.dialect = dialect

    @property
    def statements(self) -> Run:
        """What runs these reads' statements (:mod:`db.names` takes it)."""
        return self._run

    def _first(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Any] | None:
        for row in self._run(sql, params):
            return row
        return None

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return list(self._run(sql, params))

    # -------------------------------------------------------- sessions

    def current_name(self) -> str | None:
        """The session used last."""
        return current_name_of(self._run)

    def session(self, name: str | None, *, lock: bool = False) -> SessionInfo:
        """The named session, or the one used last. ``lock``: hold it for this transaction."""
        if name is None:
            name = self.current_name()
            if name is None:
                raise ChouetteError(
                    said("no session yet: start one with `chouette new NAME PLAYER...`")
                )
        sql = f"SELECT {SESSION_COLUMNS} FROM session WHERE name = ?"
        if lock and self.dialect != "sqlite":  # SQLite: the write transaction holds it all
            sql += " FOR UPDATE"
        row = None if "\x00" in name else self._first(sql, (name,))  # (PostgreSQL refuses NUL)
        if row is None:
            known = ", ".join(r[0] for r in self._all("SELECT name FROM session ORDER BY id"))
            if known:
                raise ChouetteError(
                    said(
                        "there is no session called {name} (sessions: {known})",
                        name=clipped(name),
                        known=known,
                    )
                )
            raise ChouetteError(said("there is no session called {name}", name=clipped(name)))
        return self._info(row)

    def session_by_id(self, session_id: int, *, lock: bool = False) -> SessionInfo | None:
        """The session with that id, if there is one (whatever it is called now)."""
        sql = f"SELECT {SESSION_COLUMNS} FROM session WHERE id = ?"
        if lock and self.dialect != "sqlite":
            sql += " FOR UPDATE"
        row = self._first(sql, (session_id,))
        return None if row is None else self._info(row)

    def session_names(self) -> list[str]:
        """Every session's name, in the order they were started."""
        return session_names_of(self._run)

    def all_sessions(self) -> list[SessionInfo]:
        """Every session, in the order they were started."""
        return [
            self._info(r) for r in self._all(f"SELECT {SESSION_COLUMNS} FROM session ORDER BY id")
        ]

    def _info(self, row: Sequence[Any]) -> SessionInfo:
        session_id, name, stake, rules, line, created_at, night = row
        stakes = self._all(
            "SELECT name, stake_cents FROM player WHERE session_id = ? AND stake_cents IS NOT NULL",
            (session_id,),
        )
        return SessionInfo(
            id=session_id,
            name=name,
            stake=stake,
            rules=rules_from_json(rules),
            line=line_from_json(line),
            created_at=moment(created_at),
            night=str(night),
            player_stakes={n: s for n, s in stakes if s is not None},
        )

    def sessions(self) -> list[SessionSummary]:
        current = self.current_name()
        players = {
            s: n
            for s, n in self._run("SELECT session_id, count(*) FROM player GROUP BY session_id", ())
        }
        games = {
            s: n
            for s, n in self._run(
                'SELECT session_id, count(*) FROM game WHERE "over" = ? GROUP BY session_id',
                (True,),
            )
        }
        return [
            SessionSummary(
                name=info.name,
                created_at=info.created_at,
                stake=info.stake,
                rules=info.rules,
                players=players.get(info.id, 0),
                games=games.get(info.id, 0),
                current=current == info.name,
                night=info.night,
            )
            for info in self.all_sessions()
        ]

    # -------------------------------------------------------- club nights

    def night(self, name: str) -> tuple[str, list[SessionInfo]]:
        """The night named (as typed: in any spacing of its ends) and its sessions, in the
        order they began."""
        night = normal_name(name)
        sql = f"SELECT {SESSION_COLUMNS} FROM session WHERE night = ? ORDER BY id"
        found = [self._info(r) for r in self._all(sql, (night,))] if "\x00" not in night else []
        if not found:
            known = ", ".join(n for n, _ in self.nights())
            if known:
                raise ChouetteError(
                    said(
                        "there is no night called {name} (nights: {known})",
                        name=clipped(night),
                        known=known,
                    )
                )
            raise ChouetteError(said("there is no night called {name}", name=clipped(night)))
        return night, found

    def night_tables(self, name: str) -> tuple[str, list[Table]]:
        """The night (:meth:`night`) and each of its tables as ``chouette night`` shows it."""
        night, sessions = self.night(name)
        tables = []
        for info in sessions:
            paid, costs = self.paid(info), self.costs(info)
            table = standings(self.players(info), self.totals(info), paid, costs)
            line, games = info.line.describe(), self.games_over(info)
            tables.append(Table(info.name, line, games, table, paid, costs, self.fingerprint(info)))
        return night, tables

    def nights(self) -> list[tuple[str, datetime]]:
        """Every night, with when its first session began, in that order."""
        return nights_of(self._run)

    def night_balances(self, local: Callable[[datetime], datetime]) -> list[Night]:
        """Every night in the order they began (on the local ``day`` of its first session),
        each player's balance there summed over its sessions (a balance of 0 left out)."""
        sums: dict[str, dict[str, Cents]] = {}
        for night, player, cents in self._all(
            "SELECT s.night, b.player, sum(b.cents) FROM balance b "
            "JOIN session s ON s.id = b.session_id GROUP BY s.night, b.player"
        ):
            if cents:
                sums.setdefault(str(night), {})[str(player)] = int(cents)
        return [Night(n, local(began).date(), sums.get(n, {})) for n, began in self.nights()]

    # -------------------------------------------------------- presets and rules cards

    def club_presets(self) -> list[ClubPreset]:
        """The club's own presets, by name."""
        return [
            ClubPreset(name, rules_from_json(rules), moment(saved_at), saved_from)
            for name, rules, saved_at, saved_from in self._all(
                "SELECT name, rules, saved_at, saved_from FROM preset ORDER BY name"
            )
        ]

    def accounts(self) -> dict[str, Account]:
        """Every player's account (``chouette account``), by player."""
        return {
            player: Account(player, holder, iban, phone, swish)
            for player, holder, iban, phone, swish in self._all(
                "SELECT player, holder, iban, phone, swish FROM account ORDER BY player"
            )
        }

    def origin(self, info: SessionInfo) -> Origin:
        """Where the session's house rules came from (:data:`~chouette.card.UNKNOWN` for a
        session started before chouette kept it)."""
        row = self._first("SELECT detail FROM session_origin WHERE session_id = ?", (info.id,))
        return UNKNOWN if row is None else Origin.from_dict(json.loads(row[0]))

    def acceptances(self, info: SessionInfo) -> list[Acceptance]:
        """Every acceptance of the session's rules the journal holds, oldest first."""
        found = []
        for detail, at in self._all(
            "SELECT detail, at FROM action WHERE session_id = ? AND kind = ? ORDER BY id",
            (info.id, "accept"),
        ):
            data = json.loads(detail)
            when = moment(at)
            found += [
                Acceptance(player, when, data["rules"], data["stake_cents"])
                for player in data["players"]
            ]
        return found

    def card(self, info: SessionInfo) -> Card:
        """The session's rules card: its rules and stakes, their origin, who accepted them."""
        return Card(
            session=info.name,
            stake=info.stake,
            rules=info.rules,
            origin=self.origin(info),
            player_stakes=dict(info.player_stakes),
            seated=info.line.order,
            acceptances=tuple(self.acceptances(info)),
        )

    # -------------------------------------------------------- the game in progress

    def live(self, info: SessionInfo) -> LiveGame:
        """The game in progress, or the next game (not started) if none is."""
        row = self._first(
            "SELECT id, number, line_before FROM game WHERE session_id = ? AND kind = ? "
            'AND "over" = ?',
            (info.id, "chouette", False),
        )
        if row is None:
            number = self.next_number(info)
            if info.rules.auto_past_limit != "carry-over":
                return LiveGame(number)
            return LiveGame(number, carry=self.carried_over(info, number - 1))
        game_id, number, line_before = row
        return LiveGame(number, self.replay(game_id, line_before, info.rules), game_id)

    def game_starts(self, info: SessionInfo) -> list[tuple[int, datetime]]:
        """When each game of the session started, by number (for its stop: ``--until``)."""
        rows = self._all(
            "SELECT number, started_at FROM game WHERE session_id = ? ORDER BY number",
            (info.id,),
        )
        return [(int(n), moment(at)) for n, at in rows]

    def ended(self, info: SessionInfo, now: datetime) -> tuple[int, datetime] | None:
        """The game after which the session ended as agreed (its stop), and when it ended
        (None: it has not, or no stop was agreed)."""
        live = self.live(info)
        state = self.stop(info, live.number, now, in_progress=live.game is not None)
        if state is None or not state.ended or state.last is None:
            return None
        row = self._first(
            "SELECT ended_at FROM game WHERE session_id = ? AND number = ?", (info.id, state.last)
        )
        return None if row is None or row[0] is None else (state.last, moment(row[0]))

    def stop(
        self, info: SessionInfo, number: int, now: datetime, *, in_progress: bool
    ) -> StopState | None:
        """Where the session stands against its agreed stop, game ``number`` in progress or
        next, at ``now`` (None: no stop was agreed)."""
        rules = info.rules
        if rules.rounds is None and rules.until is None:
            return None
        starts = self.game_starts(info) if rules.until is not None else []
        return stop_state(rules, number, starts, now, in_progress=in_progress)

    def carried_over(self, info: SessionInfo, number: int) -> int:
        """The automatic doubles game ``number`` of the session carried over to the next game
        (none from an imported game, or if there is no such game)."""
        row = self._first(
            "SELECT id, kind FROM game WHERE session_id = ? AND number = ?", (info.id, number)
        )
        if row is None or row[1] != "chouette":
            return 0
        return carried_over(event_from_body(body) for _, body in self.event_bodies(row[0]))

    def replay(self, game_id: int, line_before: str, rules: HouseRules) -> Game:
        """A stored chouette game, replayed from its line and events."""
        events = [event_from_body(body) for _, body in self.event_bodies(game_id)]
        return replay(line_from_json(line_before), rules, events)

    def game_contents(
        self, session_id: int, first: int, last: int
    ) -> tuple[dict[int, list[str]], dict[int, list[tuple[str, int, int]]]]:
        """The events (texts, in order) and bookings (player, points, cents, as made) of the
        session's games numbered ``first`` to ``last``, by game id: two queries."""
        events: dict[int, list[str]] = {}
        for game_id, body in self._run(
            "SELECT e.game_id, e.body FROM event e JOIN game g ON g.id = e.game_id "
            "WHERE g.session_id = ? AND g.number BETWEEN ? AND ? ORDER BY e.game_id, e.seq",
            (session_id, first, last),
        ):
            events.setdefault(int(game_id), []).append(str(body))
        bookings: dict[int, list[tuple[str, int, int]]] = {}
        for game_id, player, points, cents in self._run(
            "SELECT b.game_id, b.player, b.points, b.cents FROM booking b JOIN game g "
            "ON g.id = b.game_id WHERE g.session_id = ? AND g.number BETWEEN ? AND ? "
            "ORDER BY b.game_id, b.id",
            (session_id, first, last),
        ):
            bookings.setdefault(int(game_id), []).append((str(player), int(points), int(cents)))
        return events, bookings

    def event_bodies(self, game_id: int) -> list[tuple[int, str]]:
        """A game's stored events: their numbers and texts, in order."""
        rows = self._all("SELECT seq, body FROM event WHERE game_id = ? ORDER BY seq", (game_id,))
        return [(seq, body) for seq, body in rows]

    def next_number(self, info: SessionInfo) -> int:
        """The number the session's next game gets."""
        row = self._first("SELECT max(number) FROM game WHERE session_id = ?", (info.id,))
        return ((row[0] if row else None) or 0) + 1

    def game(self, info: SessionInfo, number: int) -> GameView:
        """Game ``number``: replayed (a chouette game) or as imported, with its bookings."""
        row = self._first(
            'SELECT id, number, kind, "over", line_before, line_after, detail, started_at, '
            "ended_at FROM game WHERE session_id = ? AND number = ?",
            (info.id, number),
        )
        if row is None:
            raise ChouetteError(no_game(number, info.name))
        game_id, number, kind, over, line_before, line_after, detail, started, ended = row
        bookings = [
            Entry(moment(at), info.name, number, player, points, cents, GAME_NOTE)
            for at, player, points, cents in self._all(
                "SELECT at, player, points, cents FROM booking WHERE game_id = ? ORDER BY id",
                (game_id,),
            )
        ]
        game = self.replay(game_id, line_before, info.rules) if kind == "chouette" else None
        return GameView(
            number=number,
            kind=kind,
            over=bool(over),
            started_at=moment(started),
            ended_at=moment(ended) if ended else None,
            game=game,
            detail=json.loads(detail) if detail else None,
            line_after=line_from_json(line_after) if line_after else None,
            bookings=bookings,
            why=reasons(game, info, detail, self.reentry(info)),
        )

    def reentry(self, info: SessionInfo) -> Reentry:
        """How a player busted at the session gets back in (:func:`db.events.reentry_of`, in
        one read)."""
        found = self._first(
            "SELECT t.terms, tt.level FROM tournament_table tt JOIN tournament t ON t.id = "
            "tt.tournament_id WHERE tt.session_id = ?",
            (info.id,),
        )
        if found is None or found[1] == 0:
            return "bank"
        return reentry_at(EventRules.from_dict(json.loads(found[0])), found[1])

    def reasons(self, info: SessionInfo) -> dict[int, tuple[Sayable, ...]]:
        """Why each finished chouette game of the session went as it did (its decisions'
        reasons, :attr:`chouette.outcome.Outcome.why`), by number: every game replayed from
        its events, as stored (one query)."""
        found: dict[int, tuple[Sayable, ...]] = {}
        reentry = self.reentry(info)
        current: tuple[int, str, str | None] | None = None
        events: list[Event] = []
        for number, line_before, detail, body in self._stream(
            "SELECT g.number, g.line_before, g.detail, e.body FROM game g JOIN event e ON "
            'e.game_id = g.id WHERE g.session_id = ? AND g.kind = ? AND g."over" = ? '
            "ORDER BY g.number, e.seq",
            (info.id, "chouette", True),
        ):
            if current is not None and current[0] != number:
                found[current[0]] = reasons(
                    replay(line_from_json(current[1]), info.rules, events),
                    info,
                    current[2],
                    reentry,
                )
                events = []
            current = (number, line_before, detail)
            events.append(event_from_body(body))
        if current is not None:
            found[current[0]] = reasons(
                replay(line_from_json(current[1]), info.rules, events), info, current[2], reentry
            )
        return found

    # -------------------------------------------------------- reports

    def players(self, info: SessionInfo | None) -> list[str]:
        """The players a report lists, in the order they joined: everyone seated in the
        session now (in any session, for the club ledger) and everyone with a game or a
        payment booked there, even at a balance of 0. A player who joined and left without
        playing is not one of them."""
        where, params = ("", ()) if info is None else (" WHERE session_id = ?", (info.id,))
        session_where = "" if info is None else " WHERE id = ?"
        counted = {
            (session_id, name)
            for session_id, line in self._all(
                f"SELECT id, line FROM session{session_where}", params
            )
            for name in line_from_json(line).order
        }
        zero: set[tuple[int, str]] = set()
        for session_id, name, points, cents in self._all(
            f"SELECT session_id, player, points, cents FROM balance{where}", params
        ):
            (zero if points == 0 and cents == 0 else counted).add((session_id, name))
        zero -= counted
        for session_id, name in sorted(zero):  # a balance back at 0: listed if a booking remains
            if self._first(
                "SELECT 1 FROM booking WHERE session_id = ? AND player = ? LIMIT 1",
                (session_id, name),
            ):
                counted.add((session_id, name))
        seen: dict[str, None] = {}
        for session_id, name in self._all(
            f"SELECT session_id, name FROM player{where} ORDER BY session_id, id", params
        ):
            if (session_id, name) in counted:
                seen.setdefault(name, None)
        return list(seen)

    def totals(self, info: SessionInfo | None) -> dict[str, tuple[int, Cents]]:
        """Points and cents per player: the running balances (a few rows, however long the
        ledger), summed over the sessions for the club ledger. A balance of 0 is left out."""
        sql = (
            "SELECT player, sum(points), sum(cents) FROM balance WHERE (points != 0 OR cents != 0)"
        )
        params: tuple[Any, ...] = ()
        if info is not None:
            sql, params = sql + " AND session_id = ?", (info.id,)
        rows = self._all(sql + " GROUP BY player", params)
        return {p: (int(pts), int(c)) for p, pts, c in rows}

    def paid(self, info: SessionInfo | None) -> dict[str, Cents]:
        """What each player paid (+) or received (−) in the payments booked between players
        (in the session, or in every session); a player in no payment is left out. Read from
        the payments themselves, a few rows, however long the ledger."""
        sql = "SELECT payer, payee, cents FROM payment"
        params: tuple[Any, ...] = ()
        if info is not None:
            sql, params = sql + " WHERE session_id = ?", (info.id,)
        paid: dict[str, Cents] = {}
        for payer, payee, cents in self._run(sql, params):
            paid[payer] = paid.get(payer, 0) + cents
            paid[payee] = paid.get(payee, 0) - cents
        return paid

    def costs(self, info: SessionInfo | None) -> dict[str, Cents]:
        """What fees and shared costs did to each balance (owed to them +, owed by them −;
        in the session, or in every session); a player in none is left out. Read from the
        charges themselves, a few rows, however long the ledger."""
        sql = "SELECT kind, creditor, cents, shares, note FROM charge"  # (moves: no words read)
        params: tuple[Any, ...] = ()
        if info is not None:
            sql, params = sql + " WHERE session_id = ?", (info.id,)
        costs: dict[str, Cents] = {}
        for row in self._run(sql, params):
            for player, cents in charge_from_row(*row).moves().items():
                costs[player] = costs.get(player, 0) + cents
        return costs

    def undigested_games(
        self, info: SessionInfo, games_from: int | None, before: int | None = None
    ) -> list[tuple[int, int]]:
        """The session's games by number whose digest its chain keeps none of, or numbered
        ``games_from`` or more, or below ``before``: id and number."""
        sql = (
            "SELECT g.id, g.number FROM game g LEFT JOIN kept_digest d ON d.session_id = "
            "g.session_id AND d.part = 'record' AND d.number = g.number "
            "WHERE g.session_id = ? AND (d.digest IS NULL"
        )
        params: tuple[Any, ...] = (info.id,)
        if games_from is not None:
            sql, params = sql + " OR g.number >= ?", (*params, games_from)
        if before is not None:
            sql, params = sql + " OR g.number < ?", (*params, before)
        rows = self._run(sql + ") ORDER BY g.number", params)
        return [(int(i), int(n)) for i, n in rows]

    def kept_digests(self, info: SessionInfo) -> Iterator[str | None]:
        """The digest the chain keeps of each of the session's games, by number (None where
        none is kept), streamed: one query, however many games."""
        for (digest,) in self._stream(
            "SELECT d.digest FROM game g LEFT JOIN kept_digest d ON d.session_id = "
            "g.session_id AND d.part = 'record' AND d.number = g.number "
            "WHERE g.session_id = ? ORDER BY g.number",
            (info.id,),
        ):
            yield None if digest is None else str(digest)

    def kept_record(self, info: SessionInfo) -> Iterator[tuple[int, str]]:
        """The digests the chain keeps of the session's record, by number (the rest, −m …
        −1; the session's own line, 0; its games, 1, 2, …), streamed."""
        for number, digest in self._stream(
            "SELECT number, digest FROM kept_digest WHERE session_id = ? AND part = 'record' "
            "ORDER BY number",
            (info.id,),
        ):
            yield int(number), str(digest)

    def fingerprint(self, info: SessionInfo) -> str | None:
        """The session's fingerprint (:func:`chouette.chain.fingerprint`): its newest link's
        hash, cut short; None where it is not chained yet."""
        row = self._first(
            "SELECT hash FROM chain WHERE session_id = ? ORDER BY seq DESC LIMIT 1", (info.id,)
        )
        return None if row is None else str(row[0])[:FINGERPRINT]

    def games_over(self, info: SessionInfo | None) -> int:
        """How many games are over (in the session, or in the whole ledger)."""
        sql = 'SELECT count(*) FROM game WHERE "over" = ?'
        params: tuple[Any, ...] = (True,)
        if info is not None:
            sql, params = sql + " AND session_id = ?", (True, info.id)
        row = self._first(sql, params)
        return int(row[0]) if row else 0

    def sheet_players(self, info: SessionInfo | None, players: Sequence[str]) -> list[str]:
        """``players``, then whoever else has a booking in a game over, in the order the
        sheet first shows them (as :func:`chouette.report.sheet_players` over the sheet)."""
        sql = "SELECT DISTINCT player FROM booking WHERE game_id IS NOT NULL"
        params: tuple[Any, ...] = ()
        if info is not None:
            sql, params = sql + " AND session_id = ?", (info.id,)
        known = set(players)
        if all(row[0] in known for row in self._run(sql, params)):
            return list(players)
        names = list(players)
        for line in self.sheet(info):  # rare: a booking of someone not in the list
            names += [p for p in line.points if p not in names]
        return names

    def sheet(self, info: SessionInfo | None) -> Iterator[GameLine]:
        """A row per finished game, in order, with every player's points and cents: one
        query, its rows streamed."""
        sql = (
            "SELECT g.id, g.number, g.kind, g.line_before, g.detail, g.ended_at, s.name, "
            "b.player, b.points, b.cents FROM game g JOIN session s ON s.id = g.session_id "
            'LEFT JOIN booking b ON b.game_id = g.id WHERE g."over" = ?'
        )
        params: tuple[Any, ...] = (True,)
        if info is not None:
            sql, params = sql + " AND g.session_id = ?", (True, info.id)
        rows = self._stream(sql + " ORDER BY g.session_id, g.number, b.id", params)
        current: Sequence[Any] | None = None
        points: dict[str, int] = {}
        cents: dict[str, Cents] = {}
        for row in rows:
            if current is None or row[0] != current[0]:
                if current is not None:
                    yield _game_line(current, points, cents)
                current, points, cents = row, {}, {}
            player = row[7]
            if player is not None:
                points[player] = points.get(player, 0) + row[8]
                cents[player] = cents.get(player, 0) + row[9]
        if current is not None:
            yield _game_line(current, points, cents)

    def entries(self, info: SessionInfo | None) -> Iterator[Entry]:
        """Every booking, oldest first: games and payments (one query, streamed)."""
        sql = (
            "SELECT b.at, s.name, g.number, b.player, b.points, b.cents, p.id, "
            "p.payer, p.payee, p.note, c.kind, c.creditor, c.note, c.words "
            "FROM booking b JOIN session s ON s.id = b.session_id "
            "LEFT JOIN game g ON g.id = b.game_id LEFT JOIN payment p ON p.id = b.payment_id "
            "LEFT JOIN charge c ON c.id = b.charge_id"
        )
        params: tuple[Any, ...] = ()
        if info is not None:
            sql, params = sql + " WHERE b.session_id = ?", (info.id,)
        stored, when = None, None  # bookings made together share their time: read it once
        for row in self._stream(sql + " ORDER BY b.id", params):
            at, name, number, player, points, cents, paid, payer, payee, note = row[:10]
            if at != stored or when is None:
                stored, when = at, moment(at)
            text: Sayable
            if row[10] is not None:
                text = charge_entry(row[10], row[11], player, said_note(row[12], row[13]))
            elif paid is None:
                text = GAME_NOTE
            else:
                text = paid_entry(player, payer, payee, note)
            yield Entry(when, name, number, player, points, cents, text)


def no_game(number: int, session: str) -> Said:
    """The refusal of a game the session does not have."""
    return said("there is no game {number} in {session}", number=number, session=session)


def paid_entry(player: str, payer: str, payee: str, note: str | None) -> Said:
    """A payment's booking in the ledger: ``paid ann``, ``paid by bob: taxi``."""
    if player == payer:
        if note:
            return said("paid {payee}: {note}", payee=payee, note=note)
        return said("paid {payee}", payee=payee)
    if note:
        return said("paid by {payer}: {note}", payer=payer, note=note)
    return said("paid by {payer}", payer=payer)


def charge_entry(kind: str, creditor: str, player: str, note: Sayable) -> Said:
    """A charge's booking in the ledger: ``fee to ann: table``, ``fees charged: table``,
    ``share of ann's cost: pizza``, ``a shared cost paid: pizza``, ``a prize to ann: 1st
    place in fcc``, ``a prize won: 1st place in fcc``."""
    if kind == "fee":
        if player == creditor:
            return said("fees charged: {note}", note=note)
        return said("fee to {creditor}: {note}", creditor=creditor, note=note)
    if kind == "prize":
        if player == creditor:
            return said("a prize won: {note}", note=note)
        return said("a prize to {creditor}: {note}", creditor=creditor, note=note)
    if player == creditor:
        return said("a shared cost paid: {note}", note=note)
    return said("share of {creditor}'s cost: {note}", creditor=creditor, note=note)


def reasons(
    game: Game | None, info: SessionInfo, detail: str | None = None, reentry: Reentry = "bank"
) -> tuple[Sayable, ...]:
    """Why a stored chouette game went as it did, replayed: its outcome's reasons once it is
    over (``reentry``: the table's kind, :func:`chouette.outcome.emptied`), its own so far
    while it is in progress (none for an imported game); and the corrections its row's
    ``detail`` keeps, each in a sentence."""
    if game is None:
        return ()
    if not game.over:
        return game.why
    trail = tuple(c.text(datetime.astimezone) for c in amended_from_detail(detail))
    return settle_game(game, info.stakes(game.players), reentry).why + trail


def _game_line(row: Sequence[Any], points: dict[str, int], cents: dict[str, Cents]) -> GameLine:
    _, number, kind, line_before, detail, ended_at, session = row[:7]
    extras: tuple[ExtraResult, ...] = ()
    amended: tuple[Correction, ...] = ()
    partner = None
    if kind == "chouette":
        seats = line_from_json(line_before)
        box, captain, partner = seats.box or "", seats.captain, seats.partner
        extras = extras_from_detail(detail)
        amended = amended_from_detail(detail)
    else:
        result = json.loads(detail or "{}")
        box, captain = result.get("winner", ""), result.get("loser")
    return GameLine(
        number=number,
        kind=kind,
        box=box,
        captain=captain,
        points=points,
        cents=cents,
        ended_at=moment(ended_at) if ended_at else None,
        session=session,
        extras=extras,
        partner=partner,
        amended=amended,
    )
