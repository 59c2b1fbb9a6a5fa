"""The ledger in one open transaction: every read, and one writer per fact.

A command opens one :class:`Ledger` (see :func:`db.open_ledger`) and works through it; the
ledger alone holds the database session. Each fact has one writer here, whoever books it:

- a finished game — a live game's end, a batch of chouette records, a restored export — is
  written by :meth:`Ledger.book_games` (a live ``end`` is a batch of one), with the zero-sum
  guard, the running balances and the session's line; an imported file's games, two-party
  and with their bookings zero-sum as they are made, by :meth:`Ledger.book_won`, through
  the same set-based writes;
- a payment by :meth:`Ledger.book_payments`; the line by :meth:`Ledger.save_line`; a session
  and its players by :meth:`Ledger.create_session`; an imported file by
  :meth:`Ledger.remember_file`.

The use cases that call them (playing, recording, undo, paying) are in :mod:`db.commands`,
the import in :mod:`db.imports`, the export in :mod:`db.transfer`, the audit in
:mod:`db.audit`. Values in and out are domain values (:mod:`db.values`); stored text is
read and written by :mod:`db.codec`.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, delete, func, insert, update
from sqlmodel import Session, col, select

from chouette.card import Card, ClubPreset, Origin
from chouette.chain import Link
from chouette.errors import ChouetteError
from chouette.game import Event
from chouette.limits import LIMIT, check_cents, check_points
from chouette.line import Line, check_night_name
from chouette.money import Cents, check_stake
from chouette.nights import night_of
from chouette.payments import Account
from chouette.proposals import Proposal
from chouette.report import Entry, GameLine, SessionSummary
from chouette.review import Asked, CubeState, Equities
from chouette.rules import HouseRules
from chouette.session import LiveGame, SessionInfo
from chouette.stop import StopState
from chouette.words import Said, Sayable, said
from db.bulk import (
    Columns,
    allocate_ids,
    bind,
    columns_of,
    driver_rows,
    insert_many,
    move_balances,
    upsert_many,
)
from db.codec import (
    charge_from_row,
    event_to_body,
    line_from_json,
    line_to_json,
    note_words,
    rules_to_json,
    said_detail,
    said_of,
    shares_to_json,
    utc,
)
from db.models import (
    AccountRow,
    ActionRow,
    BalanceRow,
    BookingRow,
    ChainRow,
    ChargeRow,
    EvaluationRow,
    EventRow,
    GameRow,
    KeptDigestRow,
    OriginRow,
    PairRow,
    PaymentRow,
    PlayerRow,
    PresetRow,
    ProposalRow,
    SessionRow,
    Setting,
    SourceFileRow,
    TournamentRow,
    TournamentStepRow,
    TournamentTableRow,
)
from db.reads import Reads, runner
from db.values import (
    Action,
    Booking,
    Charged,
    Finished,
    GameView,
    KeylessGame,
    Paid,
    Proposed,
    SourceFile,
    StoredGame,
    StoredPlayer,
    Tournament,
    TournamentTable,
    Won,
)

CURRENT = "current_session"
UPSERT = ("postgresql", "sqlite")  # dialects with INSERT … ON CONFLICT, imported when used
#: What a stored cube event given a board holds (its JSON key, ``chouette review`` looks for
#: it before it replays a game; a name spelled so costs only a replay that finds nothing).
BOARD_KEY = '"position"'
#: The columns the set-based writes (:mod:`db.bulk`) give, in their rows' order, named by
#: the models: a game, a booking (of a game or a payment; of a charge), a game's events
#: and pairs, the chain's kept digests, and the ids new games take.
GAME_COLUMNS = columns_of(
    GameRow.id,
    GameRow.session_id,
    GameRow.number,
    GameRow.kind,
    GameRow.over,
    GameRow.line_before,
    GameRow.line_after,
    GameRow.detail,
    GameRow.source_sha256,
    GameRow.source_index,
    GameRow.game_key,
    GameRow.started_at,
    GameRow.ended_at,
)
BOOKINGS = (
    BookingRow.session_id,
    BookingRow.game_id,
    BookingRow.payment_id,
    BookingRow.player,
    BookingRow.points,
    BookingRow.cents,
    BookingRow.at,
)
BOOKING_COLUMNS = columns_of(*BOOKINGS)
CHARGE_BOOKING_COLUMNS = columns_of(*BOOKINGS, BookingRow.charge_id)
EVENT_COLUMNS = columns_of(EventRow.game_id, EventRow.seq, EventRow.body, EventRow.at)
PAIR_COLUMNS = columns_of(
    PairRow.game_id, PairRow.member, PairRow.box, PairRow.points, PairRow.cents
)
KEPT_COLUMNS = columns_of(
    KeptDigestRow.session_id, KeptDigestRow.part, KeptDigestRow.number, KeptDigestRow.digest
)
GAME_IDS = columns_of(GameRow.id)

#: What :meth:`Ledger.book_won` writes of a game and of a booking: the columns it leaves
#: NULL (a game's line after, a booking's payment) are left out, not bound as None (the
#: sqlite3 driver looks up an adapter for each None it binds: a tenth of SQLite's share
#: of an import of 100,000 records).
WON_COLUMNS = GAME_COLUMNS.without("line_after")
WON_BOOKING_COLUMNS = BOOKING_COLUMNS.without("payment_id")


class Ledger:
    """The ledger in one open transaction."""

    def __init__(
        self, session: Session, now: datetime, clock: Callable[[], datetime] | None = None
    ) -> None:
        self._db = session
        self.now = now.astimezone(UTC)
        self.clock = clock or (lambda: self.now)
        self._reads: Reads | None = None
        #: What this transaction did to each session, by its id, for the session's chain
        #: (:mod:`db.chained` seals it when the command ends).
        self.touched: dict[int, list[str]] = {}
        #: The first game number each session's command may have changed.
        self.games_from: dict[int, int] = {}
        #: The first game number whose digest this command kept as it booked it (an
        #: import), by session: the kept digests before it are the ones the newest link
        #: was made with.
        self.digested_from: dict[int, int] = {}
        #: The journal entries this command wrote (their ids), by session; the sessions
        #: whose journal it took an entry of back.
        self.journaled: dict[int, list[int]] = {}
        self.forgotten: set[int] = set()

    def changed(self, session_id: int, what: str, games_from: int | None = None) -> None:
        """Note a change of a session for its chain (``games_from``: the first game number
        it may have changed, whose games are digested again)."""
        self.touched.setdefault(session_id, []).append(what)
        if games_from is not None:
            self.games_from[session_id] = min(
                games_from, self.games_from.get(session_id, games_from)
            )

    @property
    def reads(self) -> Reads:
        """The reports' reads (:mod:`db.reads`), in this transaction: plain SQL on the
        session's connection, after the ORM has flushed what it holds."""
        if self._reads is None:
            dialect = self._conn().dialect
            self._reads = Reads(
                runner(self._execute, dialect.paramstyle),
                stream=runner(self._execute_streamed, dialect.paramstyle),
                dialect=dialect.name,
            )
        return self._reads

    def _execute(self, sql: str, params: Sequence[Any]) -> Iterable[Sequence[Any]]:
        self._db.flush()
        return self._conn().exec_driver_sql(sql, tuple(params)).all()

    def _execute_streamed(self, sql: str, params: Sequence[Any]) -> Iterable[Sequence[Any]]:
        self._db.flush()
        conn = self._conn()
        if conn.dialect.name == "sqlite":
            return driver_rows(conn, sql, tuple(params))
        return conn.exec_driver_sql(sql, tuple(params), execution_options={"stream_results": True})

    def _conn(self) -> Connection:
        return self._db.connection()

    @property
    def dialect(self) -> str:
        return self._conn().dialect.name

    # -------------------------------------------------------- sessions

    def create_session(
        self,
        name: str,
        line: Line,
        stake: Cents,
        rules: HouseRules,
        player_stakes: Mapping[str, Cents] | None = None,
        *,
        created_at: datetime | None = None,
        players: Sequence[StoredPlayer] | None = None,
        current: bool = True,
        origin: Origin | None = None,
        night: str | None = None,
        points_only: bool = False,
    ) -> SessionInfo:
        """A new session with its line and players (``players``: as an export lists them,
        with their own stakes and when they joined; by default the line, joining now),
        where its house rules came from (``origin``; None: not known) and the club night it
        belongs to (``night``; None: the local date it began). ``points_only``: a table of
        a chouette tournament, whose games move banks of points, never money (a stake of
        0)."""
        name = name.strip()
        if not name:
            raise ChouetteError(said("a session needs a name"))
        if not points_only or stake != 0:
            check_stake(stake)
        if self._db.exec(select(SessionRow.id).where(SessionRow.name == name)).first():
            raise ChouetteError(said("there is already a session called {name}", name=name))
        row = SessionRow(
            name=name,
            stake_cents=stake,
            rules=rules_to_json(rules),
            line=line_to_json(line),
            created_at=created_at or self.now,
            night=check_night_name(night)
            if night is not None
            else night_of(created_at or self.now, datetime.astimezone),
        )
        self._db.add(row)
        self._db.flush()
        assert row.id is not None
        self.changed(row.id, f"the session {name} began")
        stakes = player_stakes or {}
        seated = players or [StoredPlayer(p, stakes.get(p), self.now) for p in line.order]
        for player in seated:
            if player.stake is not None:
                check_stake(player.stake, said("{player}'s stake", player=player.name))
        self._db.execute(
            insert(PlayerRow),
            [
                {
                    "session_id": row.id,
                    "name": p.name,
                    "stake_cents": p.stake,
                    "joined_at": p.joined_at,
                }
                for p in seated
            ],
        )
        if current:
            self._set_current(name)
        info = self.reads.session(name)
        if origin is not None:
            self.save_origin(info, origin)
        return info

    def session(self, name: str | None, *, lock: bool = False) -> SessionInfo:
        """The named session, or the one used last. ``lock``: hold it for this transaction."""
        return self.reads.session(name, lock=lock)

    def session_by_id(self, session_id: int, *, lock: bool = False) -> SessionInfo | None:
        """The session with that id, if there is one (whatever it is called now)."""
        return self.reads.session_by_id(session_id, lock=lock)

    def rename_session(self, info: SessionInfo, name: str) -> SessionInfo:
        """The session under a new name (the name used last follows it)."""
        taken = self._db.exec(select(SessionRow.id).where(SessionRow.name == name)).first()
        if taken is not None:
            raise ChouetteError(said("there is already a session called {name}", name=name))
        was_current = self.current_name() == info.name
        self._db.execute(update(SessionRow).where(col(SessionRow.id) == info.id).values(name=name))
        if was_current:
            self._set_current(name)
        return replace(info, name=name)

    def booked_anything(self, info: SessionInfo) -> str | None:
        """What the session has booked, if anything: ``a game``, ``a payment`` or ``a fee or
        a shared cost``."""
        booked = ((GameRow, "a game"), (PaymentRow, "a payment"), (ChargeRow, "a fee or cost"))
        for table, what in booked:
            found = self._db.exec(
                select(table.id).where(table.session_id == info.id).limit(1)
            ).first()
            if found is not None:
                return what
        return None

    def all_sessions(self) -> list[SessionInfo]:
        """Every session, in the order they were started."""
        return self.reads.all_sessions()

    def current_name(self) -> str | None:
        """The session used last."""
        return self.reads.current_name()

    def use(self, name: str) -> None:
        """Remember ``name`` as the session used last."""
        if self.current_name() != name:
            self._set_current(name)

    def _set_current(self, name: str) -> None:
        """An upsert: two terminals starting the ledger's first sessions at the same moment
        both succeed (on PostgreSQL the second waits for the first, then overwrites)."""
        self._put_setting(CURRENT, name)

    def _put_setting(self, key: str, value: str) -> None:
        dialect = self.dialect
        if dialect not in UPSERT:  # another database: read, then write
            row = self._db.get(Setting, key) or Setting(key=key, value=value)
            row.value = value
            self._db.add(row)
            return
        dialect_insert = importlib.import_module(f"sqlalchemy.dialects.{dialect}").insert
        upsert = dialect_insert(Setting).values(key=key, value=value)
        self._db.execute(
            upsert.on_conflict_do_update(index_elements=["key"], set_={"value": value})
        )
        cached = self._db.identity_map.get(self._db.identity_key(Setting, key))
        if cached is not None:
            self._db.expire(cached)  # read again if asked again in this transaction

    def settings(self, prefix: str) -> dict[str, str]:
        """The small named values whose keys start with ``prefix`` (``chouette serve`` keeps
        its key and its devices here)."""
        rows = self._db.exec(
            select(Setting.key, Setting.value).where(
                col(Setting.key).startswith(prefix, autoescape=True)
            )
        ).all()
        return {key: value for key, value in rows}

    def put_settings(self, values: Mapping[str, str | None]) -> None:
        """Set each key to its value, or remove it (None); not ``current_session``, which
        :meth:`use` keeps."""
        for key, value in values.items():
            if key == CURRENT:
                raise ChouetteError(said("the setting {key} is kept by `use`", key=repr(key)))
            if value is None:
                self._db.execute(delete(Setting).where(col(Setting.key) == key))
                cached = self._db.identity_map.get(self._db.identity_key(Setting, key))
                if cached is not None:
                    self._db.expunge(cached)
            else:
                self._put_setting(key, value)

    def sessions(self) -> list[SessionSummary]:
        return self.reads.sessions()

    # -------------------------------------------------------- players and the line

    def save_line(self, info: SessionInfo, line: Line) -> SessionInfo:
        """The session's line between games: the one writer of the line."""
        self._db.execute(
            update(SessionRow).where(col(SessionRow.id) == info.id).values(line=line_to_json(line))
        )
        return replace(info, line=line)

    def session_players(self, info: SessionInfo) -> list[StoredPlayer]:
        """The session's players as they joined, with their own stakes."""
        rows = self._db.exec(
            select(PlayerRow).where(PlayerRow.session_id == info.id).order_by(col(PlayerRow.id))
        ).all()
        return [StoredPlayer(r.name, r.stake_cents, utc(r.joined_at)) for r in rows]

    def has_played(self, info: SessionInfo, name: str) -> bool:
        """Whether ``name`` has a game booked in the session."""
        found = self._db.exec(
            select(BookingRow.id).where(
                BookingRow.session_id == info.id,
                BookingRow.player == name,
                col(BookingRow.game_id).is_not(None),
            )
        ).first()
        return found is not None

    def save_player(self, info: SessionInfo, name: str, stake: Cents | None) -> None:
        """A player of the session (joining, or joining again), with their own stake."""
        row = self._db.exec(
            select(PlayerRow).where(PlayerRow.session_id == info.id, PlayerRow.name == name)
        ).first()
        if row is None:
            row = PlayerRow(session_id=info.id, name=name, stake_cents=stake, joined_at=self.now)
        elif stake is not None:
            row.stake_cents = stake
        self._db.add(row)

    # -------------------------------------------------------- the game in progress

    def live(self, info: SessionInfo) -> LiveGame:
        """The game in progress, or the next game (not started) if none is."""
        return self.reads.live(info)

    def carried_over(self, info: SessionInfo, number: int) -> int:
        """The automatic doubles game ``number`` of the session carried over to the next game
        (none from an imported game, or if there is no such game)."""
        return self.reads.carried_over(info, number)

    def next_number(self, info: SessionInfo) -> int:
        """The number the session's next game gets."""
        return self.reads.next_number(info)

    def ended_at(self, info: SessionInfo, number: int) -> datetime | None:
        """When game ``number`` of the session ended (None: it has not, or there is none)."""
        ended = self._db.exec(
            select(GameRow.ended_at).where(GameRow.session_id == info.id, GameRow.number == number)
        ).first()
        return None if ended is None else utc(ended)

    def stop(self, info: SessionInfo, number: int, *, in_progress: bool) -> StopState | None:
        """Where the session stands against its agreed stop (see :meth:`Reads.stop`)."""
        return self.reads.stop(info, number, self.clock(), in_progress=in_progress)

    def game_starts(self, info: SessionInfo) -> list[tuple[int, datetime]]:
        """When each game of the session started, by number."""
        return self.reads.game_starts(info)

    def start_game(
        self, info: SessionInfo, number: int, line: Line, *, at: datetime | None = None
    ) -> int:
        """A new chouette game's row (started now, or ``at``): its events follow as they come."""
        row = GameRow(
            session_id=info.id,
            number=number,
            kind="chouette",
            line_before=line_to_json(line),
            started_at=at or self.now,
        )
        self._db.add(row)
        self._db.flush()
        assert row.id is not None
        return row.id

    def add_events(
        self, game_id: int, first: int, events: Sequence[Event], *, at: datetime | None = None
    ) -> None:
        """Events of the game in progress, numbered from ``first`` (given now, or ``at``)."""
        if not events:
            return
        self._db.execute(
            insert(EventRow),
            [
                {
                    "game_id": game_id,
                    "seq": first + i,
                    "body": event_to_body(e),
                    "at": at or self.now,
                }
                for i, e in enumerate(events)
            ],
        )

    # -------------------------------------------------------- booking: one writer per fact

    def book_games(self, games: Sequence[Finished], *, move_line: bool = True) -> list[int]:
        """Book finished games, however many, in a handful of set-based writes: their rows
        (or, for a live game, its row marked over), events, pair results and bookings, the
        running balances, and (``move_line``; a restore keeps the exported line) each
        session's line after its last game, and the chain's digest of a game that comes
        with one. Every game's bookings must sum to zero. Returns the games' ids."""
        if not games:
            return []
        conn = self._conn()
        fresh = [g for g in games if g.row_id is None]
        ids = iter(allocate_ids(conn, GAME_IDS, len(fresh)))
        over = bind(conn, GameRow, "over", True)
        stamps: dict[datetime, Any] = {}

        def stamp(moment: datetime) -> Any:  # one conversion per moment, not one per game
            found = stamps.get(moment)
            if found is None:
                found = stamps[moment] = bind(conn, BookingRow, "at", moment)
            return found

        rows: list[tuple[Any, ...]] = []
        events: list[tuple[Any, ...]] = []
        pairs: list[tuple[Any, ...]] = []
        updates: list[tuple[int, str | None, datetime, str | None]] = []
        bookings: list[tuple[Any, ...]] = []
        add_row, add_booking = rows.append, bookings.append  # the loop runs once a game
        game_ids: list[int] = []
        digests: list[tuple[int, int, str]] = []
        lines: dict[int, Line] = {}
        quoted: dict[int, str] = {}  # by the line's id: hashing a Line costs more than this
        for (
            session_id,
            number,
            kind,
            line_before,
            points,
            cents,
            started_at,
            ended_at,
            line_after,
            game_events,
            box,
            game_pairs,
            detail,
            source,
            key,
            row_id,
            digest,
        ) in games:  # fmt: skip (unpacked once: the loop runs once a game)
            if sum(points.values()) or sum(cents.values()):
                raise ChouetteError(
                    said(
                        "internal error: game {number}'s bookings do not sum to zero; refused",
                        number=number,
                    )
                )
            game_id = next(ids) if row_id is None else row_id
            game_ids.append(game_id)
            after = None if line_after is None else line_to_json(line_after)
            ended = stamp(ended_at)
            if row_id is None:
                before = quoted.get(id(line_before))  # the games hold their lines till the end
                if before is None:
                    before = quoted[id(line_before)] = line_to_json(line_before)
                sha, index = source if source is not None else (None, None)
                started = stamp(started_at)
                add_row(
                    (game_id, session_id, number, kind, over, before, after, detail,
                     sha, index, key, started, ended)
                )  # fmt: skip
                if game_events:
                    events += [
                        (game_id, i, event_to_body(e), started) for i, e in enumerate(game_events)
                    ]
            else:
                updates.append((game_id, after, ended_at, detail))
            if game_pairs:
                pairs += [(game_id, m, box, pts, cents[m]) for m, pts in game_pairs.items()]
            for player, gained in points.items():
                add_booking((session_id, game_id, None, player, gained, cents[player], ended))
            if line_after is not None and move_line:
                lines[session_id] = line_after
            if digest is not None:
                digests.append((session_id, number, digest))
        insert_many(conn, GAME_COLUMNS, rows)
        self._keep_digests(digests)
        for game_id, after, ended, detail in updates:
            self._db.execute(
                update(GameRow)
                .where(col(GameRow.id) == game_id)
                .values(over=True, line_after=after, ended_at=ended, detail=detail)
            )
        insert_many(conn, EVENT_COLUMNS, events)
        insert_many(conn, PAIR_COLUMNS, pairs)
        self._book(bookings)
        for session_id, line in lines.items():
            self._db.execute(
                update(SessionRow)
                .where(col(SessionRow.id) == session_id)
                .values(line=line_to_json(line))
            )
        return game_ids

    def book_won(
        self, session_id: int, at: datetime, games: Sequence[Won]
    ) -> dict[tuple[str, str], tuple[int, int]]:
        """Book an import's engine games of one session, all ended ``at``: each game's row,
        the chain's digest it comes with, and its two bookings, the winner's and the
        loser's, which sum to zero as they are made here; and the running balances they move.
        Returns the points and money each winner won from each loser, in the order the
        pairs first played.

        This is :meth:`book_games` for such games, written by the same set-based writes,
        without a :class:`Finished` (a mapping of points and one of money) made and taken
        apart again for each: that was a fifteenth of an import of 100,000 records."""
        if not games:
            return {}
        conn = self._conn()
        ids = allocate_ids(conn, GAME_IDS, len(games))
        over = bind(conn, GameRow, "over", True)
        stamp = bind(conn, BookingRow, "at", at)
        rows: list[tuple[Any, ...]] = []
        bookings: list[tuple[Any, ...]] = []
        digests: list[tuple[int, int, str]] = []
        add_row, add_booking, add_digest = rows.append, bookings.append, digests.append
        pairs: dict[tuple[str, str], list[int]] = {}  # what each winner won from each loser
        for game_id, won in zip(ids, games, strict=True):
            number, line, winner, loser, points, cents, detail, sha, index, key, digest = won
            if not (-LIMIT <= points <= LIMIT and -LIMIT <= cents <= LIMIT):
                _check_booking(winner, points, cents)
            add_row(
                (game_id, session_id, number, "engine", over, line, detail, sha, index, key,
                 stamp, stamp)
            )  # fmt: skip
            add_booking((session_id, game_id, winner, points, cents, stamp))
            add_booking((session_id, game_id, loser, -points, -cents, stamp))
            add_digest((session_id, number, digest))
            moved = pairs.get((winner, loser))
            if moved is None:
                moved = pairs[winner, loser] = [0, 0]
            moved[0] += points
            moved[1] += cents
        insert_many(conn, WON_COLUMNS, rows)
        self._keep_digests(digests)
        moves: list[tuple[int, str, int, int]] = []
        for (winner, loser), (points, cents) in pairs.items():
            moves += [(session_id, winner, points, cents), (session_id, loser, -points, -cents)]
        self._write_bookings(bookings, WON_BOOKING_COLUMNS, moves)
        return {pair: (points, cents) for pair, (points, cents) in pairs.items()}

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """What is written inside, taken back whole if it raises; the rest of this
        transaction stands (a SAVEPOINT)."""
        with self._db.begin_nested():
            yield

    def book_payments(self, payments: Sequence[Paid]) -> list[int]:
        """Payments between players, each booked so the debt it pays disappears. Returns
        their ids."""
        ids = []
        for payment in payments:
            payment_id = self._inserted(
                PaymentRow,
                session_id=payment.session_id,
                payer=payment.payer,
                payee=payment.payee,
                cents=payment.cents,
                note=payment.note,
                at=payment.at,
            )
            at = bind(self._conn(), BookingRow, "at", payment.at)
            self._book(
                [
                    (payment.session_id, None, payment_id, payment.payer, 0, payment.cents, at),
                    (payment.session_id, None, payment_id, payment.payee, 0, -payment.cents, at),
                ]
            )
            ids.append(payment_id)
        return ids

    def book_charge(self, charged: Charged) -> int:
        """A fee or a shared cost, booked as it moves the balances (each debtor −their share,
        who is owed the rest: :meth:`chouette.costs.Charge.moves`). Returns its id."""
        charge = charged.charge
        charge_id = self._inserted(
            ChargeRow,
            session_id=charged.session_id,
            kind=charge.kind,
            creditor=charge.to,
            cents=charge.cents,
            shares=shares_to_json(charge),
            note=str(charge.note),
            words=note_words(charge.note),
            at=charged.at,
        )
        at = bind(self._conn(), BookingRow, "at", charged.at)
        self._book(
            [
                (charged.session_id, None, None, player, 0, cents, at, charge_id)
                for player, cents in charge.moves().items()
            ],
            CHARGE_BOOKING_COLUMNS,
        )
        return charge_id

    def _inserted(self, model: Any, **values: Any) -> int:
        """A new row of ``model`` (a payment, a charge): its id."""
        return int(
            self._db.execute(insert(model).values(**values).returning(model.id)).scalar_one()
        )

    def _book(self, rows: Sequence[tuple[Any, ...]], columns: Columns = BOOKING_COLUMNS) -> None:
        """Bookings (:class:`Booking`'s fields and the time, in ``columns``' order), and the
        running balances they move: the one way bookings are written (:meth:`book_won`
        sums its games' as it makes them)."""
        if not rows:
            return
        points = [r[4] for r in rows]  # the last guard: no number past it (a whole batch
        cents = [r[5] for r in rows]  # at once; one by one for the message, if one is)
        if max(map(abs, points)) > LIMIT or max(map(abs, cents)) > LIMIT:
            for _, _, _, player, gained, paid, *_ in rows:
                _check_booking(player, gained, paid)
        self._write_bookings(
            rows,
            columns,
            zip([r[0] for r in rows], [r[3] for r in rows], points, cents, strict=True),
        )

    def _write_bookings(
        self,
        rows: Sequence[tuple[Any, ...]],
        columns: Columns,
        moves: Iterable[tuple[int, str, int, int]],
    ) -> None:
        """The bookings ``rows``, and the running balances by ``moves`` (session, player,
        points, money: what the rows add up to)."""
        conn = self._conn()
        insert_many(conn, columns, list(rows))
        move_balances(conn, moves)

    def game_booking_ids(self, game_ids: Sequence[int]) -> dict[int, list[int]]:
        """The ids of each game's bookings, in order (kept by a correction, so that its undo
        puts the bookings back where they were in the ledger's order)."""
        if not game_ids:
            return {}
        rows = self._db.exec(
            select(BookingRow.game_id, BookingRow.id)
            .where(col(BookingRow.game_id).in_(list(game_ids)))
            .order_by(col(BookingRow.id))
        ).all()
        found: dict[int, list[int]] = {}
        for game_id, booking_id in rows:
            found.setdefault(int(game_id or 0), []).append(int(booking_id or 0))
        return found

    def renumber_bookings(self, wanted: Mapping[int, Sequence[int]]) -> None:
        """Give each game's bookings (as many as its ids, in order) the ids ``wanted`` gives
        it: those they had before a correction that its undo takes back (freed by it). A game
        now booked to other players is left in the order it was booked again."""
        now = self.game_booking_ids(list(wanted))
        mine = {i for ids in now.values() for i in ids}
        every = [i for ids in wanted.values() for i in ids]
        held = {
            int(i or 0)
            for i in self._db.exec(select(BookingRow.id).where(col(BookingRow.id).in_(every))).all()
        } - mine  # (SQLite gives a freed id to the next booking: another table's, say)
        moves = [
            (old, new)
            for game_id, ids in wanted.items()
            if len(now.get(game_id, [])) == len(ids) and not held & set(ids)
            for old, new in zip(now.get(game_id, []), ids, strict=True)
            if old != new
        ]
        conn = self._conn()
        for old, new in moves:  # two steps, so that no id is ever held twice
            conn.execute(update(BookingRow).where(col(BookingRow.id) == old).values(id=-new))
        for _old, new in moves:
            conn.execute(update(BookingRow).where(col(BookingRow.id) == -new).values(id=new))

    # -------------------------------------------------------- taking things back

    def stored_game(self, game_id: int) -> StoredGame:
        """A game as stored, by its id."""
        row = self._db.get(GameRow, game_id)
        if row is None:
            raise ChouetteError(said("internal error: no game with id {id}", id=game_id))
        return _stored(row)

    def last_game(self, info: SessionInfo) -> StoredGame | None:
        """The session's last game (the highest number), over or not."""
        row = self._db.exec(
            select(GameRow)
            .where(GameRow.session_id == info.id)
            .order_by(col(GameRow.number).desc())
        ).first()
        return None if row is None else _stored(row)

    def reopen(self, info: SessionInfo, game: StoredGame) -> SessionInfo:
        """Take back a chouette game's end: its bookings, pair results and the line it left;
        the game is in progress again."""
        self._unbook([game.id])
        self._db.execute(delete(PairRow).where(col(PairRow.game_id) == game.id))
        self._db.execute(
            update(GameRow)
            .where(col(GameRow.id) == game.id)
            .values(over=False, line_after=None, ended_at=None, detail=None)
        )
        return self.save_line(info, line_from_json(game.line_before))

    def drop_games(self, info: SessionInfo, first: int, last: int) -> None:
        """Take back the session's games ``first`` to ``last``: their bookings and balances,
        events, pair results and rows."""
        ids = list(
            self._db.exec(
                select(GameRow.id).where(
                    GameRow.session_id == info.id, col(GameRow.number).between(first, last)
                )
            ).all()
        )
        self._unbook([i for i in ids if i is not None])
        self._db.execute(delete(EventRow).where(col(EventRow.game_id).in_(ids)))
        self._db.execute(delete(PairRow).where(col(PairRow.game_id).in_(ids)))
        self._db.execute(delete(GameRow).where(col(GameRow.id).in_(ids)))

    def _unbook(self, game_ids: Sequence[int]) -> None:
        """Remove games' bookings and move the running balances back."""
        booked = self._db.exec(
            select(
                BookingRow.session_id,
                BookingRow.player,
                func.sum(BookingRow.points),
                func.sum(BookingRow.cents),
            )
            .where(col(BookingRow.game_id).in_(game_ids))
            .group_by(col(BookingRow.session_id), col(BookingRow.player))
        ).all()
        move_balances(self._conn(), [(s, p, -int(pts), -int(c)) for s, p, pts, c in booked])
        self._db.execute(delete(BookingRow).where(col(BookingRow.game_id).in_(game_ids)))

    def drop_events(self, game_id: int, first: int) -> None:
        """Take back a game's events from number ``first`` on (the game with them, if they
        were all of them)."""
        self._db.execute(
            delete(EventRow).where(col(EventRow.game_id) == game_id, col(EventRow.seq) >= first)
        )
        if first == 0:
            self._db.execute(delete(GameRow).where(col(GameRow.id) == game_id))

    def replace_events(self, game_id: int, first: int, events: Sequence[Event]) -> None:
        """A game's events from number ``first`` on replaced by ``events`` (a correction's,
        given now), the game's row kept."""
        self._db.execute(
            delete(EventRow).where(col(EventRow.game_id) == game_id, col(EventRow.seq) >= first)
        )
        self.add_events(game_id, first, events)

    def rewrite_events(self, game_id: int, events: Mapping[int, Event]) -> None:
        """Some of a game's events written anew in place, by number (each keeps its time): a
        board given to a cube decision booked (``chouette position``), or taken back."""
        for seq, event in events.items():
            self._db.execute(
                update(EventRow)
                .where(col(EventRow.game_id) == game_id, col(EventRow.seq) == seq)
                .values(body=event_to_body(event))
            )

    def set_line_before(self, game_id: int, line: Line) -> None:
        """The line a chouette game begins with, as a correction before it leaves it."""
        self._db.execute(
            update(GameRow).where(col(GameRow.id) == game_id).values(line_before=line_to_json(line))
        )

    def drop_payment(self, payment_id: int) -> None:
        """Take back a payment: its bookings, the balances they moved, the payment."""
        self._unbook_where(col(BookingRow.payment_id) == payment_id)
        self._db.execute(delete(PaymentRow).where(col(PaymentRow.id) == payment_id))

    def _unbook_where(self, which: Any) -> None:
        """Remove the bookings ``which`` selects (a payment's, a charge's) and move the
        running balances back."""
        booked = self._db.exec(
            select(
                BookingRow.session_id, BookingRow.player, BookingRow.points, BookingRow.cents
            ).where(which)
        ).all()
        move_balances(self._conn(), [(s, p, -pts, -c) for s, p, pts, c in booked])
        self._db.execute(delete(BookingRow).where(which))

    def drop_charge(self, charge_id: int) -> None:
        """Take back a fee or a shared cost: its bookings, the balances they moved, itself."""
        self._unbook_where(col(BookingRow.charge_id) == charge_id)
        self._db.execute(delete(ChargeRow).where(col(ChargeRow.id) == charge_id))

    def player(self, info: SessionInfo, name: str) -> StoredPlayer | None:
        """A player of the session, as stored (None: not one)."""
        row = self._db.exec(
            select(PlayerRow).where(PlayerRow.session_id == info.id, PlayerRow.name == name)
        ).first()
        return None if row is None else StoredPlayer(row.name, row.stake_cents, utc(row.joined_at))

    def restore_player(self, info: SessionInfo, name: str, before: StoredPlayer | None) -> None:
        """A player as they were before a join (None: not a player of the session then)."""
        if before is None:
            self._db.execute(
                delete(PlayerRow).where(
                    col(PlayerRow.session_id) == info.id, col(PlayerRow.name) == name
                )
            )
            return
        self._db.execute(
            update(PlayerRow)
            .where(col(PlayerRow.session_id) == info.id, col(PlayerRow.name) == name)
            .values(stake_cents=before.stake)
        )

    def drop_session(self, info: SessionInfo) -> None:
        """Take back a session in which nothing was played, paid or imported (the new table
        of a split): its journal, players, balances and row."""
        booked = self.booked_anything(info)
        if booked is not None:
            raise ChouetteError(_cannot_take_back(info.name, booked))
        for rows in (
            ActionRow,
            BalanceRow,
            PlayerRow,
            SourceFileRow,
            OriginRow,
            ChainRow,
            KeptDigestRow,
        ):
            self._db.execute(delete(rows).where(col(rows.session_id) == info.id))
        self.touched.pop(info.id, None)
        self._db.execute(delete(SessionRow).where(col(SessionRow.id) == info.id))
        if self.current_name() == info.name:  # the newest other session, or none
            newest = self._db.exec(
                select(SessionRow.name).order_by(col(SessionRow.id).desc()).limit(1)
            ).first()
            if newest is None:
                self._db.execute(delete(Setting).where(col(Setting.key) == CURRENT))
                cached = self._db.identity_map.get(self._db.identity_key(Setting, CURRENT))
                if cached is not None:
                    self._db.expunge(cached)
            else:
                self._set_current(newest)

    # -------------------------------------------------------- presets and rules cards

    def save_origin(self, info: SessionInfo, origin: Origin) -> None:
        """Where the session's house rules came from (the one writer of it)."""
        self._db.add(
            OriginRow(session_id=info.id, detail=json.dumps(origin.to_dict(), ensure_ascii=False))
        )
        self._db.flush()

    def origin(self, info: SessionInfo) -> Origin:
        return self.reads.origin(info)

    def card(self, info: SessionInfo) -> Card:
        return self.reads.card(info)

    def club_presets(self) -> list[ClubPreset]:
        return self.reads.club_presets()

    def save_preset(self, preset: ClubPreset) -> None:
        """A club's own preset, new or saved again under its name (the one writer)."""
        self._db.execute(delete(PresetRow).where(col(PresetRow.name) == preset.name))
        self._db.add(
            PresetRow(
                name=preset.name,
                rules=rules_to_json(preset.rules),
                saved_from=preset.saved_from,
                saved_at=preset.saved_at,
            )
        )
        self._db.flush()

    def forget_preset(self, name: str) -> None:
        self._db.execute(delete(PresetRow).where(col(PresetRow.name) == name))

    def accounts(self) -> dict[str, Account]:
        """Every player's account, by player (:meth:`db.reads.Reads.accounts`)."""
        return self.reads.accounts()

    def save_account(self, account: Account) -> None:
        """A player's account, new or saved again (the one writer)."""
        self._db.execute(delete(AccountRow).where(col(AccountRow.player) == account.player))
        self._db.add(
            AccountRow(
                player=account.player,
                holder=account.holder,
                iban=account.iban,
                phone=account.phone,
                swish=account.swish,
                saved_at=self.now,
            )
        )
        self._db.flush()

    # -------------------------------------------------------- tournaments (chouette event)

    def create_tournament(
        self,
        name: str,
        terms: Mapping[str, Any],
        purse: SessionInfo,
        *,
        at: datetime | None = None,
        digest: str | None = None,
    ) -> int:
        """A new event (``terms``: :meth:`chouette.event.EventRules.to_dict`) whose entries
        and payouts are booked in ``purse``, begun now or ``at`` (a restored export's), the
        chain of its steps beginning at ``digest``: its id."""
        if self._db.exec(select(TournamentRow.id).where(TournamentRow.name == name)).first():
            raise ChouetteError(said("there is already an event called {event}", event=name))
        row = TournamentRow(
            name=name,
            terms=json.dumps(terms, ensure_ascii=False),
            purse_id=purse.id,
            created_at=at or self.now,
            digest=digest,
        )
        self._db.add(row)
        self._db.flush()
        assert row.id is not None
        self.add_tournament_tables(row.id, [(purse.id, 0, 0)], closed=True)
        return row.id

    def tournaments(self) -> list[Tournament]:
        """Every event, in the order they began."""
        rows = self._db.exec(select(TournamentRow).order_by(col(TournamentRow.id))).all()
        return [
            Tournament(r.id or 0, r.name, _detail(r.terms), r.purse_id, utc(r.created_at), r.digest)
            for r in rows
        ]

    def drop_tournament(self, tournament_id: int) -> None:
        """Take back an event with nothing in its journal: its tables' rows and itself (its
        purse is the caller's)."""
        for model in (TournamentStepRow, TournamentTableRow):
            self._db.execute(delete(model).where(col(model.tournament_id) == tournament_id))
        self._db.execute(delete(TournamentRow).where(col(TournamentRow.id) == tournament_id))

    def add_step(
        self,
        tournament_id: int,
        kind: str,
        detail: Mapping[str, Any],
        at: datetime | None = None,
        digest: str | None = None,
    ) -> None:
        """Note a step of an event (the one writer of its journal), now or ``at``, with the
        digest of the event's steps up to it (:func:`chouette.chain.event_step`)."""
        self._db.add(
            TournamentStepRow(
                tournament_id=tournament_id,
                kind=kind,
                detail=json.dumps(detail, ensure_ascii=False),
                at=at or self.now,
                digest=digest,
            )
        )
        self._db.flush()

    def step_digests(self, tournament_id: int) -> list[str | None]:
        """The digest each step of an event holds, the first step first (None: a step noted
        before schema 21 and not chained since)."""
        return list(
            self._db.exec(
                select(TournamentStepRow.digest)
                .where(TournamentStepRow.tournament_id == tournament_id)
                .order_by(col(TournamentStepRow.id))
            ).all()
        )

    def chain_event(self, tournament_id: int, head: str, digests: Sequence[str]) -> None:
        """Where an event's chain begins, and each of its steps' digest, in order (a ledger
        moving to schema 21)."""
        self._db.execute(
            update(TournamentRow).where(col(TournamentRow.id) == tournament_id).values(digest=head)
        )
        ids = self._db.exec(
            select(TournamentStepRow.id)
            .where(TournamentStepRow.tournament_id == tournament_id)
            .order_by(col(TournamentStepRow.id))
        ).all()
        for step_id, digest in zip(ids, digests, strict=True):
            self._db.execute(
                update(TournamentStepRow)
                .where(col(TournamentStepRow.id) == step_id)
                .values(digest=digest)
            )

    def steps(self, tournament_id: int) -> list[Action]:
        """An event's journal, the first step first."""
        rows = self._db.exec(
            select(TournamentStepRow)
            .where(TournamentStepRow.tournament_id == tournament_id)
            .order_by(col(TournamentStepRow.id))
        ).all()
        return [Action(r.id or 0, r.kind, _detail(r.detail), utc(r.at)) for r in rows]

    def forget_step(self, step_id: int) -> None:
        self._db.execute(delete(TournamentStepRow).where(col(TournamentStepRow.id) == step_id))

    def add_tournament_tables(
        self, tournament_id: int, tables: Sequence[tuple[int, int, int]], *, closed: bool = False
    ) -> None:
        """Sessions of an event: (session id, level, number) each."""
        for session_id, level, number in tables:
            self._db.add(
                TournamentTableRow(
                    session_id=session_id,
                    tournament_id=tournament_id,
                    level=level,
                    number=number,
                    closed=closed,
                )
            )
        self._db.flush()

    def tournament_tables(self, tournament_id: int) -> list[TournamentTable]:
        """An event's sessions, by level and number (its purse first)."""
        rows = self._db.exec(
            select(TournamentTableRow)
            .where(TournamentTableRow.tournament_id == tournament_id)
            .order_by(col(TournamentTableRow.level), col(TournamentTableRow.number))
        ).all()
        return [TournamentTable(r.session_id, r.level, r.number, r.closed) for r in rows]

    def chain_heads(self, session_ids: Sequence[int]) -> dict[int, int]:
        """The last link of each session's chain (its ``seq``), by session id: one read. A
        chain only grows (every command that changes a session adds a link, undo too), so
        this changes whenever any of the sessions does: what a page of many tables watches
        (``serve --event``)."""
        if not session_ids:
            return {}
        rows = self._db.exec(
            select(ChainRow.session_id, func.max(ChainRow.seq))
            .where(col(ChainRow.session_id).in_(list(session_ids)))
            .group_by(col(ChainRow.session_id))
        ).all()
        return {session_id: seq for session_id, seq in rows}

    def tournament_of(self, session_id: int) -> tuple[str, TournamentTable] | None:
        """The event a session belongs to (its name, and the session as its table or purse),
        or None: one look-up by the session's id."""
        found = self._db.exec(
            select(TournamentRow.name, TournamentTableRow)
            .join(TournamentRow, col(TournamentRow.id) == col(TournamentTableRow.tournament_id))
            .where(TournamentTableRow.session_id == session_id)
        ).first()
        if found is None:
            return None
        name, r = found
        return name, TournamentTable(r.session_id, r.level, r.number, r.closed)

    def close_tables(self, session_ids: Sequence[int], closed: bool = True) -> None:
        """Tables of an event closed (their level is over), or open again (an undo)."""
        if session_ids:
            self._db.execute(
                update(TournamentTableRow)
                .where(col(TournamentTableRow.session_id).in_(list(session_ids)))
                .values(closed=closed)
            )

    def drop_tournament_table(self, session_id: int) -> None:
        """A table of an event taken back (its draw undone): its row; the session is the
        caller's to drop."""
        self._db.execute(
            delete(TournamentTableRow).where(col(TournamentTableRow.session_id) == session_id)
        )

    # -------------------------------------------------------- the players' proposals

    def add_proposal(self, session_id: int, proposal: Proposal) -> int:
        """A player's proposal, waiting for the keeper (the one writer): its number."""
        row = ProposalRow(
            session_id=session_id,
            player=proposal.player,
            act=proposal.act,
            member=proposal.member,
            game=proposal.game,
            origin=proposal.origin,
            stage=proposal.stage,
            payee=proposal.payee,
            cents=proposal.cents,
            proposed_at=self.now,
            state="waiting",
            reason="",
        )
        self._db.add(row)
        self._db.flush()
        assert row.id is not None
        return row.id

    def proposals(
        self,
        session_ids: Iterable[int] | None = None,
        *,
        state: str | None = None,
        player: str | None = None,
        number: int | None = None,
        lock: bool = False,
    ) -> list[Proposed]:
        """The proposals kept (of the sessions ``session_ids``; None: every session), in
        the order they were made; ``state``, ``player``, ``number``: those alone."""
        query = select(ProposalRow).order_by(col(ProposalRow.id))
        if session_ids is not None:
            query = query.where(col(ProposalRow.session_id).in_(list(session_ids)))
        if state is not None:
            query = query.where(ProposalRow.state == state)
        if player is not None:
            query = query.where(ProposalRow.player == player)
        if number is not None:
            query = query.where(ProposalRow.id == number)
        if lock:
            query = query.with_for_update()
        return [proposed_of(row) for row in self._db.exec(query).all()]

    def proposals_stamp(self) -> tuple[object, ...]:
        """What changes whenever a proposal is made or answered (a live page watches it)."""
        made = self._db.exec(select(func.count(), func.max(ProposalRow.id))).one()
        waiting = self._db.exec(select(func.count()).where(ProposalRow.state == "waiting")).one()
        return (*made, waiting)

    def decide_proposal(self, number: int, state: str, reason: Sayable = "") -> None:
        """The keeper's answer to proposal ``number`` (``approved``, ``refused`` with its
        ``reason``), now."""
        self._db.execute(
            update(ProposalRow)
            .where(col(ProposalRow.id) == number)
            .values(
                state=state,
                reason=json.dumps(said_detail(reason)) if reason else "",
                decided_at=self.now,
            )
        )

    # -------------------------------------------------------- the journal

    def journal(
        self,
        info: SessionInfo,
        kind: str,
        detail: Mapping[str, Any],
        *,
        at: datetime | None = None,
        digested: bool = False,
    ) -> None:
        """Note a thing done to the session (the one writer of the journal), now or ``at``
        (a restored export's entry). ``digested``: it changed no game but the new ones it
        booked with their digests (an import), which the chain takes as they were kept."""
        touched = None if digested else games_touched(kind, detail)
        self.changed(info.id, done_text(kind, detail), touched)
        row = ActionRow(
            session_id=info.id,
            kind=kind,
            detail=json.dumps(detail, ensure_ascii=False),
            at=at or self.now,
        )
        self._db.add(row)
        self._db.flush()
        assert row.id is not None
        self.journaled.setdefault(info.id, []).append(row.id)

    def actions(
        self, info: SessionInfo, limit: int | None = None, *, kind: str | None = None
    ) -> list[Action]:
        """The things done to the session (of one ``kind``, if given), newest first."""
        query = (
            select(ActionRow)
            .where(ActionRow.session_id == info.id)
            .order_by(col(ActionRow.id).desc())
        )
        if kind is not None:
            query = query.where(ActionRow.kind == kind)
        if limit is not None:
            query = query.limit(limit)
        return [
            Action(row.id or 0, row.kind, _detail(row.detail), utc(row.at))
            for row in self._db.exec(query).all()
        ]

    def forget_action(self, action: Action) -> None:
        row = self._db.exec(select(ActionRow).where(col(ActionRow.id) == action.id)).first()
        if row is not None:
            self.changed(
                row.session_id,
                f"undo: {done_text(action.kind, action.detail)}",
                games_touched(action.kind, action.detail),
            )
            self.forgotten.add(row.session_id)
        self._db.execute(delete(ActionRow).where(col(ActionRow.id) == action.id))

    def journal_entries(
        self, info: SessionInfo, ids: Sequence[int] | None = None
    ) -> list[tuple[int, str, str, str]]:
        """The session's journal entries as stored (those of ``ids``, or all), the oldest
        first: id, kind, detail (JSON text) and time (ISO 8601, UTC)."""
        query = select(ActionRow).where(ActionRow.session_id == info.id)
        if ids is not None:
            query = query.where(col(ActionRow.id).in_(list(ids)))
        return [
            (row.id or 0, row.kind, row.detail, utc(row.at).isoformat())
            for row in self._db.exec(query.order_by(col(ActionRow.id))).all()
        ]

    # -------------------------------------------------------- the chain

    def chain(self, info: SessionInfo) -> list[Link]:
        """The session's chain of links, the first first (:mod:`chouette.chain`)."""
        rows = self._db.exec(
            select(ChainRow).where(ChainRow.session_id == info.id).order_by(col(ChainRow.seq))
        ).all()
        return [Link(r.seq, r.at, r.what, r.state, r.hash, r.journal) for r in rows]

    def undigested_games(
        self, info: SessionInfo, games_from: int | None, before: int | None = None
    ) -> list[tuple[int, int]]:
        """The session's games, by number, whose digest is to be taken (again): those with
        none kept, those numbered ``games_from`` on (none, for None) and those before
        ``before`` (none, for None): ids and numbers."""
        return self.reads.undigested_games(info, games_from, before)

    def kept_digests(self, info: SessionInfo) -> Iterable[str | None]:
        """The digest kept of each of the session's games, by number (None where none is),
        streamed."""
        return self.reads.kept_digests(info)

    def kept_record(self, info: SessionInfo) -> Iterable[tuple[int, str]]:
        """The digests kept of the session's record, by their number (the rest first, −m …
        −1, then the session's line, 0, then its games), streamed."""
        return self.reads.kept_record(info)

    def keep_game_digests(self, info: SessionInfo, digests: Mapping[int, str]) -> None:
        """Keep these games' digests (by number), in place of any kept before."""
        self._keep_digests([(info.id, number, digest) for number, digest in digests.items()])

    def _keep_digests(self, rows: list[tuple[int, int, str]]) -> None:
        """(session id, game number, digest) rows kept, in place of any kept before: one
        driver-level upsert. Noted: the newest link was not made with these."""
        if rows:
            self._db.flush()
            for session_id, number, _ in rows:
                if number < self.digested_from.get(session_id, number + 1):
                    self.digested_from[session_id] = number
            upsert_many(
                self._conn(), KEPT_COLUMNS, [(s, "record", n, d) for s, n, d in rows], keys=3
            )

    def keep_record(self, info: SessionInfo, head: str, rest: Sequence[str], games: int) -> None:
        """The digests of the session's record besides its games (its own line's, and the
        rest's in order) kept, and none of a game past the last, ``games``."""
        self._db.execute(
            delete(KeptDigestRow).where(
                col(KeptDigestRow.session_id) == info.id,
                col(KeptDigestRow.part) == "record",
                (col(KeptDigestRow.number) <= 0) | (col(KeptDigestRow.number) > games),
            )
        )
        count = len(rest)
        rows = [(info.id, "record", 0, head)]
        rows += [(info.id, "record", i - count, digest) for i, digest in enumerate(rest)]
        insert_many(self._conn(), KEPT_COLUMNS, rows)

    def last_link(self, info: SessionInfo) -> Link | None:
        """The newest link of the session's chain."""
        row = self._db.exec(
            select(ChainRow)
            .where(ChainRow.session_id == info.id)
            .order_by(col(ChainRow.seq).desc())
            .limit(1)
        ).first()
        if row is None:
            return None
        return Link(row.seq, row.at, row.what, row.state, row.hash, row.journal)

    def add_links(self, info: SessionInfo, links: Sequence[Link]) -> None:
        """Append links to the session's chain (made by :func:`chouette.chain.next_link`, or
        a restored export's)."""
        for link in links:
            self._db.add(
                ChainRow(
                    session_id=info.id,
                    seq=link.seq,
                    at=link.at,
                    what=link.what,
                    state=link.state,
                    hash=link.hash,
                    journal=link.journal,
                )
            )
        self._db.flush()

    # -------------------------------------------------------- imported files

    def source_file(self, sha256: str) -> SourceFile | None:
        """The imported file with that SHA-256, if the ledger remembers one."""
        row = self._db.get(SourceFileRow, sha256)
        return None if row is None else self._source(row)

    def source_files(self, info: SessionInfo | None = None) -> list[SourceFile]:
        """The imported files (of a session), in the order they were imported."""
        query = select(SourceFileRow).order_by(col(SourceFileRow.imported_at))
        if info is not None:
            query = query.where(SourceFileRow.session_id == info.id)
        return [self._source(row) for row in self._db.exec(query).all()]

    def _source(self, row: SourceFileRow) -> SourceFile:
        session = self._db.get(SessionRow, row.session_id)
        return SourceFile(
            sha256=row.sha256,
            name=row.name,
            format=row.format,
            session_id=row.session_id,
            session=session.name if session is not None else "another session",
            games=row.games,
            imported_at=utc(row.imported_at),
            first_game=row.first_game,
            last_game=row.last_game,
        )

    def remember_file(self, source: SourceFile) -> None:
        """An imported file: how a second import of it books nothing, and ``undo`` takes it
        back."""
        self._db.add(
            SourceFileRow(
                sha256=source.sha256,
                name=source.name,
                format=source.format,
                session_id=source.session_id,
                games=source.games,
                imported_at=source.imported_at,
                first_game=source.first_game,
                last_game=source.last_game,
            )
        )

    def forget_file(self, sha256: str) -> None:
        self._db.execute(delete(SourceFileRow).where(col(SourceFileRow.sha256) == sha256))

    def known_keys(self, keys: set[str]) -> dict[str, str | None]:
        """Which of these game identities the ledger holds, each with the file (SHA-256) its
        game came from: an index lookup each, one driver-level statement for them all
        (SQLAlchemy would compile one per batch)."""
        if not keys:
            return {}
        args: tuple[Any, ...]
        if self.dialect == "postgresql":
            sql = "SELECT game_key, source_sha256 FROM game WHERE game_key = ANY(%s)"
            args = (list(keys),)
        else:
            marks = ", ".join("?" * len(keys))
            sql = f"SELECT game_key, source_sha256 FROM game WHERE game_key IN ({marks})"
            args = tuple(keys)
        return {key: sha for key, sha in self._conn().exec_driver_sql(sql, args)}

    def cites(self, sha256: str) -> bool:
        """Whether any game of the ledger came from the file with that SHA-256."""
        found = self._db.exec(
            select(GameRow.id).where(GameRow.source_sha256 == sha256).limit(1)
        ).first()
        return found is not None

    def known_indexes(self, sha256: str, indexes: Iterable[int]) -> set[int]:
        """Which games of the file with that SHA-256 (by their index there) are booked."""
        wanted = set(indexes)
        if not wanted:
            return set()
        found = self._db.exec(
            select(GameRow.source_index).where(
                GameRow.source_sha256 == sha256,
                col(GameRow.source_index).between(min(wanted), max(wanted)),
            )
        ).all()
        return {i for i in found if i in wanted}

    def any_game_without_key(self) -> bool:
        """Whether the ledger holds an engine game booked before games had identities."""
        found = self._db.exec(
            select(GameRow.id)
            .where(GameRow.kind == "engine", col(GameRow.game_key).is_(None))
            .limit(1)
        ).first()
        return found is not None

    def games_without_key(self) -> list[KeylessGame]:
        """Engine games booked before games had identities: the file each is known by and its
        index there (a neutral record's game: the file and index it cited), its session and
        number, its stored result."""
        rows = self._db.exec(
            select(GameRow).where(
                GameRow.kind == "engine",
                col(GameRow.game_key).is_(None),
                col(GameRow.source_sha256).is_not(None),
                col(GameRow.source_index).is_not(None),
            )
        ).all()
        return [
            KeylessGame(row.source_sha256, row.source_index, row.session_id, row.number, row.detail)
            for row in rows
            if row.source_sha256 is not None and row.source_index is not None
        ]

    # -------------------------------------------------------- reports

    def changes(self, name: str | None) -> tuple[object, ...]:
        """What a live scoreboard watches, as one comparable value: it differs whenever
        anything the board shows has changed — which session is current (``name`` None) or
        the named one, its line, the game in progress and each of its events, the games
        booked, the running balances, the payments and what undo would take back. A handful
        of small indexed reads, cheap enough to poll a few times a second.

        It reads what is there, not the highest ids alone: SQLite gives a deleted row's id
        to the next row, so an undo followed by another event can leave every highest id as
        it was."""
        current = name if name is not None else self.current_name()
        row = None
        if current is not None and "\x00" not in current:
            row = self._db.exec(
                select(SessionRow.id, SessionRow.line).where(SessionRow.name == current)
            ).first()
        if row is None:
            return (current,)
        session_id, line = row
        games = self._db.exec(
            select(func.count(), func.max(GameRow.number)).where(GameRow.session_id == session_id)
        ).one()
        live = self._db.exec(
            select(EventRow.id, EventRow.body)
            .join(GameRow, col(GameRow.id) == col(EventRow.game_id))
            .where(GameRow.session_id == session_id, GameRow.over == False)  # noqa: E712
            .order_by(col(EventRow.id))
        ).all()
        balances = self._db.exec(
            select(BalanceRow.player, BalanceRow.points, BalanceRow.cents)
            .where(BalanceRow.session_id == session_id)
            .order_by(col(BalanceRow.player))
        ).all()
        payments = self._db.exec(
            select(func.count(), func.max(PaymentRow.id)).where(PaymentRow.session_id == session_id)
        ).one()
        journal = self._db.exec(
            select(func.count(), func.max(ActionRow.id)).where(ActionRow.session_id == session_id)
        ).one()
        return (
            current,
            session_id,
            line,
            tuple(games),
            tuple(map(tuple, live)),
            tuple(map(tuple, balances)),
            tuple(payments),
            tuple(journal),
        )

    def game(self, info: SessionInfo, number: int) -> GameView:
        """Game ``number``: replayed (a chouette game) or as imported, with its bookings."""
        return self.reads.game(info, number)

    def players(self, info: SessionInfo | None) -> list[str]:
        """The players a report lists (see :meth:`db.reads.Reads.players`)."""
        return self.reads.players(info)

    def totals(self, info: SessionInfo | None) -> dict[str, tuple[int, Cents]]:
        """Points and cents per player, from the running balances (a balance of 0 left out)."""
        return self.reads.totals(info)

    def paid(self, info: SessionInfo | None) -> dict[str, Cents]:
        """What each player paid (+) or received (−) in payments between players."""
        return self.reads.paid(info)

    def sheet(self, info: SessionInfo | None) -> list[GameLine]:
        """A row per finished game, in order, with every player's points and cents."""
        return list(self.reads.sheet(info))

    def entries(self, info: SessionInfo | None) -> list[Entry]:
        """Every booking, oldest first: games and payments."""
        return list(self.reads.entries(info))

    # -------------------------------------------------------- every row (check, export)

    def storage_problems(self) -> list[Sayable]:
        """What the database's own checks and a read of every stored value find wrong."""
        from db.integrity import storage

        return storage(self._conn())

    def bookings(self) -> list[tuple[int, Booking]]:
        """Every booking with its id, oldest first."""
        rows = self._db.exec(select(BookingRow).order_by(col(BookingRow.id))).all()
        return [
            (
                r.id or 0,
                Booking(
                    r.session_id, r.game_id, r.payment_id, r.player, r.points, r.cents, r.charge_id
                ),
            )
            for r in rows
        ]

    def game_numbers(self, info: SessionInfo) -> list[tuple[int, int]]:
        """The session's games as ids and numbers, by number (one light query)."""
        query = (
            select(GameRow.id, GameRow.number)
            .where(GameRow.session_id == info.id)
            .order_by(col(GameRow.number))
        )
        return [(int(i or 0), int(n)) for i, n in self._db.exec(query).all()]

    def stored_games(
        self,
        info: SessionInfo | None = None,
        *,
        from_number: int | None = None,
        to_number: int | None = None,
    ) -> list[StoredGame]:
        """The games as stored: a session's by number (from ``from_number`` to
        ``to_number``, if given), or every game by id."""
        query = select(GameRow)
        if from_number is not None:
            query = query.where(GameRow.number >= from_number)
        if to_number is not None:
            query = query.where(GameRow.number <= to_number)
        if info is not None:
            query = query.where(GameRow.session_id == info.id).order_by(col(GameRow.number))
        else:
            query = query.order_by(col(GameRow.id))
        return [_stored(row) for row in self._db.exec(query).all()]

    def first_bookings(self) -> dict[tuple[str, int], int]:
        """The id of each game's, payment's and charge's first booking (the order they were
        booked in), keyed ``("game", id)``, ``("payment", id)`` and ``("charge", id)``."""
        found: dict[tuple[str, int], int] = {}
        for kind, column in (
            ("game", BookingRow.game_id),
            ("payment", BookingRow.payment_id),
            ("charge", BookingRow.charge_id),
        ):
            rows = self._db.exec(
                select(col(column), func.min(BookingRow.id))
                .where(col(column).is_not(None))
                .group_by(col(column))
            ).all()
            found |= {(kind, key): first or 0 for key, first in rows if key is not None}
        return found

    def game_bookings(self, game_id: int) -> list[Booking]:
        """A game's bookings, in the order they were made."""
        rows = self._db.exec(
            select(BookingRow).where(BookingRow.game_id == game_id).order_by(col(BookingRow.id))
        ).all()
        return [
            Booking(r.session_id, r.game_id, r.payment_id, r.player, r.points, r.cents)
            for r in rows
        ]

    def event_bodies(self, game_id: int) -> list[tuple[int, str]]:
        """A game's stored events: their numbers and texts, in order."""
        return self.reads.event_bodies(game_id)

    def pair_results(self, game_id: int) -> dict[str, int]:
        """A chouette game's booked pair results, from the members' side."""
        rows = self._db.exec(
            select(PairRow.member, PairRow.points).where(PairRow.game_id == game_id)
        )
        return dict(rows.all())

    def payments(self, info: SessionInfo | None = None) -> list[Paid]:
        """The payments (of a session), as booked."""
        query = select(PaymentRow).order_by(col(PaymentRow.id))
        if info is not None:
            query = query.where(PaymentRow.session_id == info.id)
        rows = self._db.exec(query).all()
        return [
            Paid(r.session_id, r.payer, r.payee, r.cents, r.note, utc(r.at), r.id or 0)
            for r in rows
        ]

    def charges(self, info: SessionInfo | None = None) -> list[Charged]:
        """The fees and shared costs (of a session), as booked."""
        query = select(ChargeRow).order_by(col(ChargeRow.id))
        if info is not None:
            query = query.where(ChargeRow.session_id == info.id)
        return [
            Charged(
                r.session_id,
                charge_from_row(r.kind, r.creditor, r.cents, r.shares, r.note, r.words),
                utc(r.at),
                r.id or 0,
            )
            for r in self._db.exec(query).all()
        ]

    def costs(self, info: SessionInfo | None) -> dict[str, Cents]:
        """What fees and shared costs did to each balance (see :meth:`db.reads.Reads.costs`)."""
        return self.reads.costs(info)

    def balances(self) -> dict[tuple[int, str], tuple[int, Cents]]:
        """The running balances as kept, by session and player."""
        return {
            (b.session_id, b.player): (b.points, b.cents)
            for b in self._db.exec(select(BalanceRow)).all()
        }

    def player_names(self, info: SessionInfo) -> set[str]:
        return set(self._db.exec(select(PlayerRow.name).where(PlayerRow.session_id == info.id)))

    # -------------------------------------------------------- the engine's evaluations

    def evaluations(
        self, asked: Iterable[Asked], *, beavers: bool, plies: int
    ) -> dict[Asked, tuple[Equities, str]]:
        """The evaluations kept of the boards asked (``chouette review``): each one's
        equities and the engine that gave them."""
        wanted = set(asked)
        if not wanted:
            return {}
        rows = self._db.exec(
            select(EvaluationRow).where(
                col(EvaluationRow.position).in_(sorted({a.position for a in wanted})),
                col(EvaluationRow.beavers) == beavers,
                col(EvaluationRow.plies) == plies,
            )
        ).all()
        found = {}
        for row in rows:
            ask = Asked(row.position, CubeState(row.centred, row.jacoby))
            if ask in wanted:
                equities = Equities(
                    Decimal(row.no_double), Decimal(row.double_take), Decimal(row.double_pass)
                )
                found[ask] = (equities, row.engine)
        return found

    def has_positions(self, info: SessionInfo) -> bool:
        """Whether any cube decision of the session's games was given a board (a cheap look
        before a review replays the games)."""
        found = self._db.exec(
            select(EventRow.id)
            .join(GameRow, col(GameRow.id) == col(EventRow.game_id))
            .where(GameRow.session_id == info.id, col(EventRow.body).contains(BOARD_KEY))
            .limit(1)
        ).first()
        return found is not None

    def keep_evaluations(
        self, answers: Mapping[Asked, Equities], *, beavers: bool, plies: int, engine: str
    ) -> None:
        """Keep an engine's evaluations (the one writer of them): one kept already (another
        review's, meanwhile) stays as it is."""
        rows = [
            {
                "position": ask.position,
                "centred": ask.cube.centred,
                "jacoby": ask.cube.jacoby,
                "beavers": beavers,
                "plies": plies,
                "no_double": str(equities.no_double),
                "double_take": str(equities.double_take),
                "double_pass": str(equities.double_pass),
                "engine": engine[:200],
                "at": self.now,
            }
            for ask, equities in answers.items()
        ]
        if not rows:
            return
        from sqlalchemy.dialects import postgresql, sqlite

        table: Any = EvaluationRow.__table__  # type: ignore[attr-defined]
        if self.dialect == "postgresql":
            self._db.execute(postgresql.insert(table).values(rows).on_conflict_do_nothing())
        else:
            self._db.execute(sqlite.insert(table).values(rows).on_conflict_do_nothing())


def games_touched(kind: str, detail: Mapping[str, Any]) -> int | None:
    """The first game number a journal entry's command may have changed (None: no game)."""
    if kind in ("events", "amend", "position"):
        number = detail.get("game")
    elif kind in ("record", "import"):
        number = detail.get("first")
    else:
        return None
    return number if isinstance(number, int) and not isinstance(number, bool) else 1


def done_text(kind: str, detail: Mapping[str, Any]) -> str:
    """A journal entry in a few words, for the session's chain."""
    said = detail.get("said")
    if isinstance(said, str):
        return said
    if kind == "events":
        acts = [e.get("act", "?") if isinstance(e, dict) else "?" for e in detail.get("events", [])]
        return f"game {detail.get('game')}: {', '.join(str(a) for a in acts)}"
    if kind == "import":
        return f"the import of {detail.get('file')}"
    if kind == "record":
        return f"the record of games {detail.get('first')} to {detail.get('last')}"
    return kind


def _detail(text: str) -> dict[str, Any]:
    """A journal entry's detail; one that is not a JSON object is kept as damaged, for
    :mod:`db.journal` to name (``check``) and refuse (``undo``)."""
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        found = None
    if not isinstance(found, dict):
        return {"\x00unreadable": text[:200]}
    return found


def _cannot_take_back(session: str, booked: str) -> Said:
    """The refusal to take back a split's new table that has ``booked`` something
    (:meth:`Ledger.booked_anything`): a bug, since ``undo`` takes a split back first."""
    if booked == "a game":
        return said("{session} has a game booked: it cannot be taken back", session=session)
    if booked == "a payment":
        return said("{session} has a payment booked: it cannot be taken back", session=session)
    return said("{session} has a fee or cost booked: it cannot be taken back", session=session)


def _stored(row: GameRow) -> StoredGame:
    assert row.id is not None
    return StoredGame(
        id=row.id,
        session_id=row.session_id,
        number=row.number,
        kind=row.kind,
        over=row.over,
        line_before=row.line_before,
        line_after=row.line_after,
        detail=row.detail,
        source=(row.source_sha256, row.source_index),
        key=row.game_key,
        started_at=utc(row.started_at),
        ended_at=utc(row.ended_at) if row.ended_at else None,
    )


def _check_booking(player: str, points: int, cents: Cents) -> None:
    """A booking's points and money within the limit (else refused, naming the player)."""
    check_points(points, said("a booking of {player}", player=player))
    check_cents(cents, said("a booking of money to {player}", player=player))


def proposed_of(row: ProposalRow) -> Proposed:
    """A proposal as its row keeps it."""
    assert row.id is not None
    proposal = Proposal(
        row.player,
        row.act,  # type: ignore[arg-type]
        row.member,
        row.game,
        row.origin,
        row.stage,
        row.payee,
        row.cents,
    )
    reason = said_of(json.loads(row.reason)) if row.reason else ""
    return Proposed(
        row.id,
        row.session_id,
        proposal,
        utc(row.proposed_at),
        row.state,
        reason,
        None if row.decided_at is None else utc(row.decided_at),
    )
