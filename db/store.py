"""The ledger inside one transaction: domain values in, domain values out.

Every command opens one :class:`Ledger` (see :func:`db.open_ledger`), asks it for domain
values, calls the rules in ``chouette/``, and hands the results back to be saved. Rows never
leave this module. A refused command raises :class:`~chouette.errors.ChouetteError` inside
the transaction, which rolls back: nothing is written.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, or_, tuple_, update
from sqlmodel import Session, col, select

from chouette.errors import AutoDoubleIgnored, ChouetteError, LimitError
from chouette.game import Event, Game, apply, replay, start
from chouette.limits import check_cents, check_game
from chouette.line import Line, normal_name
from chouette.money import Cents, check_stake, format_money
from chouette.outcome import Outcome, pair_stake, settle_game
from chouette.record import Record, event_to_json, parse_event, play_record
from chouette.report import Entry, GameLine
from chouette.rules import HouseRules
from chouette.text import check_note
from db.bulk import (
    GAME_HEAD,
    Booking,
    allocate_ids,
    bind,
    insert_bookings,
    insert_many,
    move_balances,
)
from db.models import (
    BalanceRow,
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

CURRENT = "current_session"
UPSERT = ("postgresql", "sqlite")  # dialects with INSERT … ON CONFLICT, imported when used


# ---------------------------------------------------------------- codecs


def line_to_json(line: Line) -> str:
    return json.dumps(
        {
            "order": list(line.order),
            "sitting_out": [p for p in line.order if p in line.sitting_out],
            "partner": line.partner,
            "last_down": line.last_down,
        },
        ensure_ascii=False,
    )


def line_from_json(text: str) -> Line:
    data = json.loads(text)
    return Line(
        order=tuple(data["order"]),
        sitting_out=frozenset(data.get("sitting_out", ())),
        partner=data.get("partner"),
        last_down=data.get("last_down"),
    )


def utc(moment: datetime) -> datetime:
    """Stored naive (SQLite drops offsets); read back as aware UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


# ---------------------------------------------------------------- domain values


@dataclass(frozen=True)
class SessionInfo:
    """A session as the rules see it: stake, house rules, the line between games."""

    id: int
    name: str
    stake: Cents
    rules: HouseRules
    line: Line
    created_at: datetime
    player_stakes: dict[str, Cents] = field(default_factory=dict)

    def stake_of(self, player: str) -> Cents:
        return self.player_stakes.get(player, self.stake)

    def stakes(self, players: Iterable[str]) -> dict[str, Cents]:
        return {p: self.stake_of(p) for p in players}

    def pair_stake(self, a: str, b: str) -> Cents:
        """What a point is worth between ``a`` and ``b`` (the rules' lower-stake rule)."""
        return pair_stake(self.stakes((a, b)), a, b)


@dataclass(frozen=True)
class LiveGame:
    """The game in progress, or the number of the next one (``game`` None: not started)."""

    number: int
    game: Game | None = None
    row_id: int | None = None

    @property
    def started(self) -> bool:
        return self.game is not None


@dataclass(frozen=True)
class Played:
    """What a command did to the current game."""

    session: SessionInfo
    number: int
    game: Game
    outcome: Outcome | None
    notices: tuple[str, ...] = ()


@dataclass(frozen=True)
class SessionSummary:
    name: str
    created_at: datetime
    stake: Cents
    rules: HouseRules
    players: int
    games: int
    current: bool


# ---------------------------------------------------------------- the ledger


class Ledger:
    """The ledger in one open transaction."""

    def __init__(
        self, session: Session, now: datetime, clock: Callable[[], datetime] | None = None
    ) -> None:
        self.db = session
        self.now = now.astimezone(UTC)
        self.clock = clock or (lambda: self.now)

    # -------------------------------------------------------- sessions

    def create_session(
        self,
        name: str,
        line: Line,
        stake: Cents,
        rules: HouseRules,
        player_stakes: dict[str, Cents] | None = None,
    ) -> SessionInfo:
        name = name.strip()
        if not name:
            raise ChouetteError("a session needs a name")
        check_stake(stake)
        for player, own in (player_stakes or {}).items():
            check_stake(own, f"{player}'s stake")
        if self.db.exec(select(SessionRow.id).where(SessionRow.name == name)).first():
            raise ChouetteError(f"there is already a session called {name}")
        row = SessionRow(
            name=name,
            stake_cents=stake,
            rules=json.dumps(rules.to_dict()),
            line=line_to_json(line),
            created_at=self.now,
        )
        self.db.add(row)
        self.db.flush()
        assert row.id is not None
        stakes = player_stakes or {}
        self.db.execute(
            insert(PlayerRow),
            [
                {
                    "session_id": row.id,
                    "name": p,
                    "stake_cents": stakes.get(p),
                    "joined_at": self.now,
                }
                for p in line.order
            ],
        )
        self._set_current(name)
        return self._info(row)

    def session(self, name: str | None, *, lock: bool = False) -> SessionInfo:
        """The named session, or the one used last. ``lock``: hold it for this transaction."""
        if name is None:
            current = self.db.get(Setting, CURRENT)
            if current is None:
                raise ChouetteError("no session yet: start one with `chouette new NAME PLAYER...`")
            name = current.value
        query = select(SessionRow).where(SessionRow.name == name)
        if lock:
            query = query.with_for_update()
        row = None if "\x00" in name else self.db.exec(query).first()  # (PostgreSQL refuses NUL)
        if row is None:
            known = ", ".join(self.db.exec(select(SessionRow.name).order_by(SessionRow.id)).all())
            raise ChouetteError(
                f"there is no session called {name}" + (f" (sessions: {known})" if known else "")
            )
        return self._info(row)

    def use(self, name: str) -> None:
        """Remember ``name`` as the session used last."""
        current = self.db.get(Setting, CURRENT)
        if current is None or current.value != name:
            self._set_current(name)

    def _set_current(self, name: str) -> None:
        """An upsert: two terminals starting the ledger's first sessions at the same moment
        both succeed (on PostgreSQL the second waits for the first, then overwrites)."""
        dialect = self.db.get_bind().dialect.name
        if dialect not in UPSERT:  # another database: read, then write
            row = self.db.get(Setting, CURRENT) or Setting(key=CURRENT)
            row.value = name
            self.db.add(row)
            return
        dialect_insert = importlib.import_module(f"sqlalchemy.dialects.{dialect}").insert
        upsert = dialect_insert(Setting).values(key=CURRENT, value=name)
        self.db.execute(upsert.on_conflict_do_update(index_elements=["key"], set_={"value": name}))
        cached = self.db.identity_map.get(self.db.identity_key(Setting, CURRENT))
        if cached is not None:
            self.db.expire(cached)  # read again if asked again in this transaction

    def _info(self, row: SessionRow) -> SessionInfo:
        assert row.id is not None
        stakes = self.db.exec(
            select(PlayerRow.name, PlayerRow.stake_cents).where(
                PlayerRow.session_id == row.id, col(PlayerRow.stake_cents).is_not(None)
            )
        ).all()
        return SessionInfo(
            id=row.id,
            name=row.name,
            stake=row.stake_cents,
            rules=HouseRules.from_dict(json.loads(row.rules)),
            line=line_from_json(row.line),
            created_at=utc(row.created_at),
            player_stakes={n: s for n, s in stakes if s is not None},
        )

    def sessions(self) -> list[SessionSummary]:
        current = self.db.get(Setting, CURRENT)
        players = dict(
            self.db.exec(
                select(PlayerRow.session_id, func.count()).group_by(PlayerRow.session_id)
            ).all()
        )
        games = dict(
            self.db.exec(
                select(GameRow.session_id, func.count())
                .where(GameRow.over == True)  # noqa: E712
                .group_by(GameRow.session_id)
            ).all()
        )
        return [
            SessionSummary(
                name=row.name,
                created_at=utc(row.created_at),
                stake=row.stake_cents,
                rules=HouseRules.from_dict(json.loads(row.rules)),
                players=players.get(row.id, 0),
                games=games.get(row.id, 0),
                current=current is not None and current.value == row.name,
            )
            for row in self.db.exec(select(SessionRow).order_by(SessionRow.id)).all()
        ]

    # -------------------------------------------------------- the line

    def between_games(self, info: SessionInfo) -> None:
        """The line changes only between games."""
        live = self.live(info)
        if live.started:
            raise ChouetteError(f"game {live.number} is in progress: change the line after it ends")

    def set_line(self, info: SessionInfo, line: Line) -> SessionInfo:
        """Save a line changed between games (join, leave, sit out, sit in)."""
        self.between_games(info)
        self.db.execute(
            update(SessionRow).where(col(SessionRow.id) == info.id).values(line=line_to_json(line))
        )
        return replace(info, line=line)

    def add_player(self, info: SessionInfo, name: str, stake: Cents | None) -> None:
        """A player who joins (or joins again): their stake, if they play for their own."""
        if stake is not None:
            check_stake(stake, f"{name}'s stake")
        row = self.db.exec(
            select(PlayerRow).where(PlayerRow.session_id == info.id, PlayerRow.name == name)
        ).first()
        if row is None:
            row = PlayerRow(session_id=info.id, name=name, stake_cents=stake, joined_at=self.now)
        elif stake is not None and stake != info.stake_of(name):
            played = self.db.exec(
                select(BookingRow.id).where(
                    BookingRow.session_id == info.id,
                    BookingRow.player == name,
                    col(BookingRow.game_id).is_not(None),
                )
            ).first()
            if played is not None:
                raise ChouetteError(
                    f"{name} has played in {info.name} at {format_money(info.stake_of(name))} "
                    "a point: a different stake needs a new session (the games already booked "
                    "must replay to the same money)"
                )
            row.stake_cents = stake
        self.db.add(row)

    # -------------------------------------------------------- the game

    def live(self, info: SessionInfo) -> LiveGame:
        """The game in progress, or the next game (not started) if none is."""
        row = self.db.exec(
            select(GameRow).where(
                GameRow.session_id == info.id,
                GameRow.kind == "chouette",
                GameRow.over == False,  # noqa: E712
            )
        ).first()
        if row is None:
            return LiveGame(self.next_number(info))
        return LiveGame(row.number, self._replay(row, info.rules), row.id)

    def _replay(self, row: GameRow, rules: HouseRules) -> Game:
        """A stored chouette game, replayed from its line and events."""
        events = [
            parse_event(json.loads(body), "stored event", allow_end=True)
            for body in self.db.exec(
                select(EventRow.body).where(EventRow.game_id == row.id).order_by(EventRow.seq)
            ).all()
        ]
        return replay(line_from_json(row.line_before), rules, events)

    def next_number(self, info: SessionInfo) -> int:
        """The number the session's next game gets."""
        top = self.db.exec(
            select(func.max(GameRow.number)).where(GameRow.session_id == info.id)
        ).one()
        return (top or 0) + 1

    def play(
        self,
        info: SessionInfo,
        events: Sequence[Event],
        expect: int | None,
        issued_at: datetime | None = None,
    ) -> Played:
        """Apply one command's events to the current game and book it if it ends.

        ``expect``: the game the command is for (refused if another is current).
        ``issued_at``: when the command was given; if no game is in progress and the last one
        ended after that moment, another terminal ended the game this command was meant for,
        and it is refused rather than starting a new game."""
        live = self.live(info)
        if live.game is None and issued_at is not None:
            self._check_not_stale(info, live.number, issued_at)
        if expect is not None and expect != live.number:
            if expect < live.number:
                raise ChouetteError(
                    f"game {expect} is already over (another command booked it first): "
                    "nothing written"
                )
            raise ChouetteError(f"there is no game {expect} yet: the next game is {live.number}")
        game = live.game or start(info.line, info.rules)
        notices: list[str] = []
        applied: list[Event] = []
        for event in events:
            try:
                game = apply(game, event)
            except AutoDoubleIgnored as err:
                notices.append(f"automatic double ignored: {err}")
                continue
            applied.append(event)
        if not applied:
            return Played(info, live.number, game, None, tuple(notices))
        check_game(game, info.stakes(_seated(game)))
        game_id = live.row_id
        if game_id is None:
            game_id = self._create_game(info, live.number, info.line)
        seq = len(game.events) - len(applied)
        self.db.execute(
            insert(EventRow),
            [
                {
                    "game_id": game_id,
                    "seq": seq + i,
                    "body": json.dumps(event_to_json(e)),
                    "at": self.now,
                }
                for i, e in enumerate(applied)
            ],
        )
        outcome = self._finish(info, game_id, game) if game.over else None
        return Played(info, live.number, game, outcome, tuple(notices))

    def _check_not_stale(self, info: SessionInfo, number: int, issued_at: datetime) -> None:
        ended = self.db.exec(
            select(GameRow.ended_at).where(
                GameRow.session_id == info.id, GameRow.number == number - 1
            )
        ).first()
        if ended is not None and utc(ended) > issued_at:
            raise ChouetteError(
                f"game {number - 1} was ended by another command after this one was given: "
                f"nothing written (give the command again to start game {number})"
            )

    def _create_game(self, info: SessionInfo, number: int, line: Line) -> int:
        row = GameRow(
            session_id=info.id,
            number=number,
            kind="chouette",
            line_before=line_to_json(line),
            started_at=self.now,
        )
        self.db.add(row)
        self.db.flush()
        assert row.id is not None
        return row.id

    def _finish(self, info: SessionInfo, game_id: int, game: Game) -> Outcome:
        players = [game.box, *([game.partner] if game.partner else []), *game.members]
        stakes = info.stakes(players)
        outcome = settle_game(game, stakes)
        self.db.execute(
            insert(PairRow),
            [
                {
                    "game_id": game_id,
                    "member": m,
                    "box": game.box,
                    "points": pts,
                    "cents": outcome.cents[m],
                }
                for m, pts in outcome.pairs.items()
            ],
        )
        self._book(info.id, game_id, outcome.points, outcome.cents)
        self.db.execute(
            update(GameRow)
            .where(col(GameRow.id) == game_id)
            .values(over=True, line_after=line_to_json(outcome.next_line), ended_at=self.clock())
        )
        self.db.execute(
            update(SessionRow)
            .where(col(SessionRow.id) == info.id)
            .values(line=line_to_json(outcome.next_line))
        )
        return outcome

    def _book(
        self, session_id: int, game_id: int | None, points: dict[str, int], cents: dict[str, Cents]
    ) -> None:
        if sum(points.values()) != 0 or sum(cents.values()) != 0:
            raise ChouetteError("internal error: a booking that does not sum to zero was refused")
        insert_bookings(
            self.db.connection(),
            [(session_id, game_id, None, p, points[p], cents[p]) for p in points],
            self.now,
        )

    def undo(self, info: SessionInfo) -> str:
        """Take back the last event of the session's games, a game's end included; when the
        last game was imported from an engine file, the whole import."""
        live = self.live(info)
        if live.game is not None and live.row_id is not None:
            return self._drop_last_event(live.row_id, live.number, live.game)
        row = self.db.exec(
            select(GameRow)
            .where(GameRow.session_id == info.id)
            .order_by(col(GameRow.number).desc())
        ).first()
        if row is None or row.id is None:
            raise ChouetteError(f"nothing to undo in {info.name}: no game has been played")
        if row.kind != "chouette":
            return self._undo_import(info, row.number)
        if row.line_after is not None and line_from_json(row.line_after) != info.line:
            raise ChouetteError(
                f"the line has changed since game {row.number} ended (a join, leave or "
                "sit-out): undo that first"
            )
        booked = self.db.exec(
            select(BookingRow.player, BookingRow.points, BookingRow.cents).where(
                BookingRow.game_id == row.id
            )
        ).all()
        move_balances(self.db.connection(), [(info.id, p, -pts, -c) for p, pts, c in booked])
        self.db.execute(delete(BookingRow).where(col(BookingRow.game_id) == row.id))
        self.db.execute(delete(PairRow).where(col(PairRow.game_id) == row.id))
        self.db.execute(
            update(GameRow)
            .where(col(GameRow.id) == row.id)
            .values(over=False, line_after=None, ended_at=None)
        )
        self.db.execute(
            update(SessionRow).where(col(SessionRow.id) == info.id).values(line=row.line_before)
        )
        game = self.live(replace(info, line=line_from_json(row.line_before))).game
        assert game is not None
        return self._drop_last_event(row.id, row.number, game)

    def _undo_import(self, info: SessionInfo, last: int) -> str:
        """Take back the import that booked the session's last game, ``last``: every game
        the file booked, their bookings and balances, and the memory of the file (so it can
        be imported again, into the right session)."""
        source = self.db.exec(
            select(SourceFileRow).where(
                SourceFileRow.session_id == info.id, SourceFileRow.last_game == last
            )
        ).first()
        if source is None or source.first_game is None:
            raise ChouetteError(
                f"game {last} was imported by an older chouette that did not note which games "
                "each file booked: undo cannot take it back"
            )
        first = source.first_game
        games = select(GameRow.id).where(
            GameRow.session_id == info.id, col(GameRow.number).between(first, last)
        )
        booked = self.db.exec(
            select(BookingRow.player, func.sum(BookingRow.points), func.sum(BookingRow.cents))
            .where(col(BookingRow.game_id).in_(games))
            .group_by(BookingRow.player)
        ).all()
        move_balances(
            self.db.connection(), [(info.id, p, -int(pts), -int(c)) for p, pts, c in booked]
        )
        self.db.execute(delete(BookingRow).where(col(BookingRow.game_id).in_(games)))
        self.db.execute(
            delete(GameRow).where(
                col(GameRow.session_id) == info.id, col(GameRow.number).between(first, last)
            )
        )
        self.db.execute(delete(SourceFileRow).where(col(SourceFileRow.sha256) == source.sha256))
        which = f"game {first}" if first == last else f"games {first}–{last}"
        return f"took back the import of {source.name} ({which})"

    def _drop_last_event(self, game_id: int, number: int, game: Game) -> str:
        last = game.events[-1]
        self.db.execute(
            delete(EventRow).where(
                col(EventRow.game_id) == game_id, col(EventRow.seq) == len(game.events) - 1
            )
        )
        if len(game.events) == 1:
            self.db.execute(delete(GameRow).where(col(GameRow.id) == game_id))
            return f"took back {last.describe()} (game {number} has not started now)"
        return f"took back {last.describe()} (game {number})"

    def pay(self, info: SessionInfo, payer: str, payee: str, cents: Cents, note: str) -> None:
        """A payment between two players of the session, booked so the debt disappears."""
        if payer == payee:
            raise ChouetteError(f"{payer} cannot pay themselves")
        if cents <= 0:
            raise ChouetteError("a payment must be more than zero")
        check_cents(cents, f"a payment of {format_money(cents)}")
        check_note(note)
        known = set(self.players(info))
        for name in (payer, payee):
            if name not in known:
                raise ChouetteError(
                    f"{name} has not played in {info.name} (book a payment in the session "
                    "they played in, with --session)"
                )
        row = PaymentRow(
            session_id=info.id, payer=payer, payee=payee, cents=cents, note=note, at=self.now
        )
        self.db.add(row)
        self.db.flush()
        insert_bookings(
            self.db.connection(),
            [(info.id, None, row.id, payer, 0, cents), (info.id, None, row.id, payee, 0, -cents)],
            self.now,
        )

    def record_all(
        self, records: Sequence[tuple[Record, str]], default: str | None
    ) -> list[Played]:
        """Book chouette game records in order, each on the line the one before it left.

        The games are played and settled in memory first; then a handful of set-based
        inserts write them all, however many there are."""
        sessions: dict[str | None, str] = {}
        infos: dict[str, SessionInfo] = {}
        numbers: dict[str, int] = {}
        played: list[Played] = []
        for record, where in records:
            if (
                record.session is not None
                and default is not None
                and normal_name(record.session) != normal_name(default)
            ):
                raise ChouetteError(
                    f"{where}: its 'session' is {record.session}, but --session names "
                    f"{default}: leave 'session' out or make the two agree"
                )
            name = record.session or default
            if name not in sessions:
                info = self.session(name, lock=True)
                live = self.live(info)
                if live.started:
                    raise ChouetteError(
                        f"{where}: game {live.number} is in progress in {info.name}: finish or "
                        "undo it before recording games"
                    )
                sessions[name], infos[info.name], numbers[info.name] = info.name, info, live.number
            info = infos[sessions[name]]
            game, notices = play_record(record, info.line, info.rules, where)
            try:
                check_game(game, info.stakes(_seated(game)))
            except LimitError as err:
                raise LimitError(f"{where}: {err}") from None
            outcome = settle_game(game, info.stakes(_seated(game)))
            info = infos[info.name] = replace(info, line=outcome.next_line)
            played.append(Played(info, numbers[info.name], game, outcome, tuple(notices)))
            numbers[info.name] += 1
        self._write_games(played)
        for info in infos.values():
            self.db.execute(
                update(SessionRow)
                .where(col(SessionRow.id) == info.id)
                .values(line=line_to_json(info.line))
            )
        return played

    def _write_games(self, played: Sequence[Played]) -> None:
        """Finished chouette games, their events, pair results and bookings: four inserts."""
        conn = self.db.connection()
        now = bind(conn, BookingRow, "at", self.now)
        over = bind(conn, GameRow, "over", True)
        games, events, pairs = [], [], []
        bookings: list[Booking] = []
        for game_id, done in zip(allocate_ids(conn, "game", len(played)), played, strict=True):
            game, outcome, info = done.game, done.outcome, done.session
            assert outcome is not None
            if sum(outcome.points.values()) or sum(outcome.cents.values()):
                raise ChouetteError("internal error: a booking that does not sum to zero")
            line_before = line_to_json(game.start_line)
            games.append(
                (
                    game_id,
                    info.id,
                    done.number,
                    "chouette",
                    over,
                    line_before,
                    line_to_json(outcome.next_line),
                    now,
                    now,
                )
            )
            events += [
                (game_id, i, json.dumps(event_to_json(e)), now) for i, e in enumerate(game.events)
            ]
            pairs += [(game_id, m, game.box, p, outcome.cents[m]) for m, p in outcome.pairs.items()]
            bookings += [
                (info.id, game_id, None, p, outcome.points[p], outcome.cents[p])
                for p in outcome.points
            ]
        insert_many(
            conn,
            "game",
            (*GAME_HEAD, "line_after", "started_at", "ended_at"),
            games,
        )
        insert_many(conn, "event", ("game_id", "seq", "body", "at"), events)
        insert_many(conn, "pair", ("game_id", "member", "box", "points", "cents"), pairs)
        insert_bookings(conn, bookings, self.now)

    def game(
        self, info: SessionInfo, number: int
    ) -> tuple[Game | None, dict[str, Any], list[Entry]]:
        """Game ``number``: the replayed game (None for an engine game), its row facts, bookings."""
        row = self.db.exec(
            select(GameRow).where(GameRow.session_id == info.id, GameRow.number == number)
        ).first()
        if row is None:
            raise ChouetteError(f"there is no game {number} in {info.name}")
        facts: dict[str, Any] = {
            "number": row.number,
            "kind": row.kind,
            "over": row.over,
            "started_at": utc(row.started_at),
            "ended_at": utc(row.ended_at) if row.ended_at else None,
            "detail": json.loads(row.detail) if row.detail else None,
            "line_after": line_from_json(row.line_after) if row.line_after else None,
        }
        game = None
        if row.kind == "chouette":
            game = self._replay(row, info.rules)
        bookings = [
            Entry(utc(b.at), info.name, number, b.player, b.points, b.cents, "game")
            for b in self.db.exec(
                select(BookingRow).where(BookingRow.game_id == row.id).order_by(BookingRow.id)
            ).all()
        ]
        return game, facts, bookings

    # -------------------------------------------------------- reports

    def players(self, info: SessionInfo | None) -> list[str]:
        """The players a report lists, in the order they joined: everyone seated in the
        session now (in any session, for the club ledger) and everyone with a game or a
        payment booked there, even at a balance of 0. A player who joined and left without
        playing is not one of them."""
        query = select(PlayerRow.session_id, PlayerRow.name).order_by(
            col(PlayerRow.session_id), col(PlayerRow.id)
        )
        lines = select(SessionRow.id, SessionRow.line)
        balances = select(
            BalanceRow.session_id, BalanceRow.player, BalanceRow.points, BalanceRow.cents
        )
        if info is not None:
            query = query.where(PlayerRow.session_id == info.id)
            lines = lines.where(SessionRow.id == info.id)
            balances = balances.where(BalanceRow.session_id == info.id)
        counted = {
            (session_id, name)
            for session_id, line in self.db.exec(lines).all()
            for name in line_from_json(line).order
        }
        zero: set[tuple[int, str]] = set()
        for session_id, name, points, cents in self.db.exec(balances).all():
            (zero if points == 0 and cents == 0 else counted).add((session_id, name))
        zero -= counted
        if zero:  # a balance back at 0: still listed if any booking remains
            counted |= set(
                self.db.exec(
                    select(BookingRow.session_id, BookingRow.player)
                    .where(tuple_(BookingRow.session_id, BookingRow.player).in_(zero))
                    .distinct()
                ).all()
            )
        seen: dict[str, None] = {}
        for session_id, name in self.db.exec(query).all():
            if (session_id, name) in counted:
                seen.setdefault(name, None)
        return list(seen)

    def totals(self, info: SessionInfo | None) -> dict[str, tuple[int, Cents]]:
        """Points and cents per player: the running balances (a few rows, however long the
        ledger), summed over the sessions for the club ledger. A balance of 0 is left out."""
        query = (
            select(BalanceRow.player, func.sum(BalanceRow.points), func.sum(BalanceRow.cents))
            .where(or_(col(BalanceRow.points) != 0, col(BalanceRow.cents) != 0))
            .group_by(BalanceRow.player)
        )
        if info is not None:
            query = query.where(BalanceRow.session_id == info.id)
        return {p: (int(pts), int(c)) for p, pts, c in self.db.exec(query).all()}

    def paid(self, info: SessionInfo | None) -> dict[str, Cents]:
        """What each player paid (+) or received (−) in the payments booked between players
        (in the session, or in every session); a player in no payment is left out. Read from
        the payments themselves, a few rows, however long the ledger."""
        query = select(PaymentRow.payer, PaymentRow.payee, PaymentRow.cents)
        if info is not None:
            query = query.where(PaymentRow.session_id == info.id)
        paid: dict[str, Cents] = {}
        for payer, payee, cents in self.db.exec(query).all():
            paid[payer] = paid.get(payer, 0) + cents
            paid[payee] = paid.get(payee, 0) - cents
        return paid

    def sheet(self, info: SessionInfo | None) -> list[GameLine]:
        """A row per finished game, in order, with every player's points and cents."""
        query = (
            select(GameRow, SessionRow.name)
            .join(SessionRow, col(SessionRow.id) == col(GameRow.session_id))
            .where(GameRow.over == True)  # noqa: E712
            .order_by(col(GameRow.session_id), col(GameRow.number))
        )
        bookings = select(
            BookingRow.game_id, BookingRow.player, BookingRow.points, BookingRow.cents
        ).where(col(BookingRow.game_id).is_not(None))
        if info is not None:
            query = query.where(GameRow.session_id == info.id)
            bookings = bookings.where(BookingRow.session_id == info.id)
        by_game: dict[int, tuple[dict[str, int], dict[str, Cents]]] = {}
        for game_id, player, points, cents in self.db.exec(bookings.order_by(BookingRow.id)).all():
            pts, cts = by_game.setdefault(game_id or 0, ({}, {}))
            pts[player] = pts.get(player, 0) + points
            cts[player] = cts.get(player, 0) + cents
        lines = []
        for row, session_name in self.db.exec(query).all():
            assert row.id is not None
            if row.kind == "chouette":
                seats = line_from_json(row.line_before)
                box, captain = seats.box or "", seats.captain
            else:
                detail = json.loads(row.detail or "{}")
                box, captain = detail.get("winner", ""), detail.get("loser")
            pts, cts = by_game.get(row.id, ({}, {}))
            lines.append(
                GameLine(
                    number=row.number,
                    kind=row.kind,
                    box=box,
                    captain=captain,
                    points=pts,
                    cents=cts,
                    ended_at=utc(row.ended_at) if row.ended_at else None,
                    session=session_name,
                )
            )
        return lines

    def entries(self, info: SessionInfo | None) -> list[Entry]:
        """Every booking, oldest first: games and payments."""
        query = (
            select(BookingRow, SessionRow.name, GameRow.number, PaymentRow)
            .join(SessionRow, col(SessionRow.id) == col(BookingRow.session_id))
            .join(GameRow, col(GameRow.id) == col(BookingRow.game_id), isouter=True)
            .join(PaymentRow, col(PaymentRow.id) == col(BookingRow.payment_id), isouter=True)
            .order_by(col(BookingRow.id))
        )
        if info is not None:
            query = query.where(BookingRow.session_id == info.id)
        return [
            Entry(utc(b.at), name, number, b.player, b.points, b.cents, _note(b.player, payment))
            for b, name, number, payment in self.db.exec(query).all()
        ]


def _seated(game: Game) -> list[str]:
    """The players of a game: the box, the partner if any, the members."""
    return [game.box, *([game.partner] if game.partner else []), *game.members]


def _note(player: str, payment: PaymentRow | None) -> str:
    if payment is None:
        return "game"
    text = f"paid {payment.payee}" if player == payment.payer else f"paid by {payment.payer}"
    return f"{text}: {payment.note}" if payment.note else text
