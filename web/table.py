"""The server's one door to the ledger: what the scoreboard reads, and the scorekeeper's
actions, each one transaction through :mod:`db.commands`, as the CLI's commands are.

A refused action raises the :class:`~chouette.errors.ChouetteError` the CLI would show, and
its transaction writes nothing. Everything here is blocking; the server calls it from worker
threads. The page's own actions go one at a time (the ledger would queue them anyway).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from chouette.card import accepted_text
from chouette.errors import ChouetteError
from chouette.game import End
from chouette.limits import LONGEST_LINE
from chouette.line import LINE_UNDONE, Line, check_name, partner_news
from chouette.money import parse_money
from chouette.names import match
from chouette.outcome import Outcome
from chouette.report import booked_rows, describe_events, joined_text, undone_text, why_lines
from chouette.session import SessionInfo
from chouette.text import clipped
from db import Ledger, open_ledger
from db.amending import amend
from db.commands import SEAT_CHANGES, accept_rules, change_seat, join, play, undo, undoable
from web.board import Board, build_board
from web.moves import PLAY_ACTS, Action, events_for


@dataclass(frozen=True)
class Snapshot:
    """The board (None: the ledger has no session yet) and the ledger's changes it was read
    with (:meth:`db.ledger.Ledger.changes`), in one transaction."""

    changes: tuple[object, ...]
    board: Board | None
    #: Under ``serve --room``: every table of the night, the served one among them.
    room: tuple[Board, ...] = ()


#: The most sessions the keeper's page lists to switch to (the most recent).
PICK_MOST = 30


class Table:
    """The ledger at ``url``, the session ``session`` (None: whichever is current), the
    clock of the commands."""

    def __init__(
        self,
        url: str,
        session: str | None,
        clock: Callable[[], datetime],
        *,
        room: bool = False,
    ) -> None:
        self.url = url
        self.session = session  # (the keeper's page may pick another)
        self._pinned: tuple[str, int] | None = None  # the session served: its name, its id
        self.clock = clock
        self.room = room  # serve --room: every table of the night
        self._writing = threading.Lock()

    @contextmanager
    def _read(self) -> Iterator[Ledger]:
        with open_ledger(self.url, write=False, now=self.clock()) as book:
            yield book

    def open(self) -> str | None:
        """The session served (None: no session yet), checking that the ledger can be read
        (a read never creates or migrates one) and that a named session is there."""
        with self._read() as book:
            if self.session is not None:
                info = book.session(self.session)
                self.session, self._pinned = info.name, (info.name, info.id)
                return info.name
            return book.current_name()

    def settings(self, prefix: str) -> dict[str, str]:
        """The ledger's settings under ``prefix`` (the server's key and devices)."""
        with self._read() as book:
            return book.settings(prefix)

    def put_settings(self, values: Mapping[str, str | None]) -> None:
        """Write (or, for None, remove) settings, in one transaction."""
        if not values:
            return
        with open_ledger(self.url, write=True, now=self.clock(), create=False) as book:
            book.put_settings(values)

    def changes(self) -> tuple[object, ...]:
        """The cheap marker the server polls (:meth:`db.ledger.Ledger.changes`)."""
        with self._read() as book:
            return self._changes(book)

    def _served(self, book: Ledger) -> str | None:
        """The session served by ``--session`` (or picked on the keeper's page) by the name
        it has now, or None for whichever is current. A session renamed since (by any
        door: ``sessions --rename``, undo) is followed by its id; one deleted since
        (``sessions --delete``, a split taken back) gives way to the current one."""
        name = self.session
        if name is None:
            return None
        try:
            found: SessionInfo | None = book.session(name)
        except ChouetteError:
            pinned = self._pinned if self._pinned and self._pinned[0] == name else None
            found = None if pinned is None else book.session_by_id(pinned[1])
        if found is None:  # gone: whichever is current
            self.session = self._pinned = None
            return None
        if (found.name, found.id) != self._pinned:
            if self.session == name:  # (the keeper's page may have picked another meanwhile)
                self.session = found.name
            self._pinned = (found.name, found.id)
        return found.name

    def _name(self, book: Ledger) -> str | None:
        """The session the pages show: the one served, or the current one."""
        served = self._served(book)
        return served if served is not None else book.current_name()

    def _changes(self, book: Ledger) -> tuple[object, ...]:
        served = self._served(book)
        if not self.room:
            return book.changes(served)
        tables = tonight(book, served if served is not None else book.current_name())
        return (served, tuple(tables), *(book.changes(n) for n in tables))

    def tables(self) -> list[str]:
        """The night's tables (``serve --room``): the served session's night, in order."""
        with self._read() as book:
            return tonight(book, self._name(book))

    def choices(self) -> list[str]:
        """The sessions the keeper's page may switch to: under ``serve --room`` the night's
        tables, in order; else every session, the most recent first (the last
        :data:`PICK_MOST`, and the one served, however old)."""
        if self.room:
            return self.tables()
        with self._read() as book:
            every = [s.name for s in reversed(book.all_sessions())]
            served = self._name(book)
        shown = every[:PICK_MOST]
        if served in every and served not in shown:
            shown.append(served)
        return shown

    def snapshot(self) -> Snapshot:
        """Everything the pages show, read in one transaction."""
        with self._read() as book:
            changes = self._changes(book)
            name = self._name(book)
            if name is None:
                return Snapshot(changes, None)
            board = _board(book, name)
            room = tuple(
                board if other == name else _board(book, other)
                for other in (tonight(book, name) if self.room else ())
            )
        return Snapshot(changes, board, room)

    def run_line(self, text: str, session: str | None) -> tuple[bool, list[str]]:
        """A command line as the CLI's own words (``pay mette søren 20 --note cash``), run
        by the CLI itself on this ledger, in ``session`` unless the line names one: whether
        it succeeded, and what it said (standard output, then standard error). One command
        at a time, as the page's buttons; a line the page does not run is refused first."""
        return self.run_words(command_words(text), session)

    def run_words(self, words: list[str], session: str | None) -> tuple[bool, list[str]]:
        """The CLI's own words run by the CLI on this ledger (see :meth:`run_line`)."""
        chosen = [] if "--session" in words or not session else ["--session", session]
        env = {**os.environ, "CHOUETTE_DB": self.url, "NO_COLOR": "1", "COLUMNS": "100"}
        env.pop("FORCE_COLOR", None)
        with self._writing:
            done = subprocess.run(
                [sys.executable, "-m", "chouette", *chosen, *words],
                capture_output=True,
                text=True,
                env=env,
                stdin=subprocess.DEVNULL,
                timeout=120,
                check=False,
            )
        said = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
        return done.returncode == 0, said

    def act(self, action: Action, session: str, game: int | None) -> list[str]:
        """Do ``action`` in ``session`` (the one the page showed; ``game``: the game it
        showed, refused if another is current, as ``--game``), in one transaction. What it
        did, in the CLI's words."""
        with (
            self._writing,
            open_ledger(
                self.url, write=True, now=self.clock(), clock=self.clock, create=False
            ) as book,
        ):
            info = book.session(session, lock=True)
            if self.session is not None:  # as `chouette --session NAME` does
                book.use(info.name)
            if action.act in PLAY_ACTS:
                return _play(book, info, action, game)
            if action.act == "undo":
                said = [f"Undone: {undone_text(undo(book, info))}."]
                now = book.session_by_id(info.id)
                return said + ([] if now is None else _partner(info.line, now, LINE_UNDONE))
            if action.act == "join":
                return _join(book, info, action)
            if action.act == "accept-rules":
                names = accept_rules(book, info, [action.member])
                return [f"{accepted_text(names)} of {info.name}."]
            if action.act == "amend":
                return _amend(book, info, action)
            if action.act in SEAT_CHANGES:
                name, before = action.member, info.line
                info = change_seat(book, info, action.act, name)
                said = [f"{name} {SEAT_CHANGES[action.act]}. Line: {info.line.describe()}"]
                return said + _partner(before, info)
        raise ChouetteError(f"there is no action {action.act!r} on this page")


def _board(book: Ledger, name: str) -> Board:
    """The board of the session ``name``, as every page shows it."""
    info = book.session(name)
    live = book.live(info)
    return build_board(
        info,
        live,
        book.players(info),
        book.totals(info),
        book.sheet(info),
        paid=book.paid(info),
        costs=book.costs(info),
        fingerprint=book.reads.fingerprint(info),
        undo=undoable(book, info, live),
        card=book.card(info),
        stop=book.stop(info, live.number, in_progress=live.game is not None),
    )


def tonight(book: Ledger, name: str | None) -> list[str]:
    """The sessions of the night of the session ``name`` (its tables), in the order they
    were started (none without a session)."""
    if name is None:
        return []
    return [s.name for s in book.reads.night(book.session(name).night)[1]]


#: Commands the page does not run: they read or write files, or hold the server or its
#: prompt (a terminal runs them).
NOT_ON_THE_PAGE = frozenset(
    {"import", "export", "restore", "report", "serve", "table", "migrate", "demo", "record",
     "verify"}
)  # fmt: skip
#: Options that name another ledger or write files.
OPTIONS_REFUSED = ("--db", "--install-completion", "--show-completion")


def command_words(text: str) -> list[str]:
    """A command line as typed at ``chouette table``, split into its words; refused (a
    :class:`ChouetteError`) for one the page does not run, naming why."""
    if len(text) > LONGEST_LINE:
        raise ChouetteError(
            f"a line of {len(text):,} characters, longer than any command: not read"
        )
    try:
        words = shlex.split(text)
    except ValueError as err:
        raise ChouetteError(f"{err} in {clipped(text)!r}") from None
    if not words:
        raise ChouetteError("type a command, as at chouette table (help lists them)")
    for word in words:
        if word.split("=", 1)[0] in OPTIONS_REFUSED:
            raise ChouetteError(
                f"{word.split('=', 1)[0]} is not for the page: it works on the server's ledger"
            )
    command, skip = None, False
    for word in words:
        if skip:
            skip = False
        elif word == "--session":
            skip = True
        elif not word.startswith("-"):
            command = word
            break
    if command in NOT_ON_THE_PAGE:
        raise ChouetteError(
            f"{command} reads or writes files or holds the server: run it at a terminal"
        )
    return words


def _play(book: Ledger, info: SessionInfo, action: Action, game: int | None) -> list[str]:
    """A cube or board action: the events the CLI's command makes, played as it plays them."""
    live = book.live(info)
    events = events_for(action, live.game)
    played = play(book, info, events, game, live=live)
    said = [f"Note: {notice}" for notice in played.notices]
    said += describe_events(played.number, live.game, played.game)
    if played.outcome is not None:
        said += _booked(played.outcome)
        said.append(f"Next line: {played.outcome.next_line.describe()}")
        said += why_lines(played.outcome.why)
    return said


def _amend(book: Ledger, info: SessionInfo, action: Action) -> list[str]:
    """A past game's correction, as ``chouette amend`` makes it and says it."""
    end = (
        None if action.winner == "keep" else End(action.winner, action.kind, action.resigned)  # type: ignore[arg-type]
    )
    done = amend(book, info, action.number, end, action.note, dict(action.cubes))
    head, rest = done.said()
    return [head, *_booked(done.outcome), *rest]


def _booked(outcome: Outcome) -> list[str]:
    """A game's bookings, a line each: ``  ann: +2 (+4.00)``."""
    return [f"  {p}: {points} ({money})" for p, points, money in booked_rows(outcome)[1]]


def _join(book: Ledger, info: SessionInfo, action: Action) -> list[str]:
    name = check_name(action.name)
    cents = None
    if action.stake:
        try:
            cents = parse_money(action.stake)
        except ChouetteError as err:
            raise ChouetteError(f"stake: {err}") from None
    before = info.line
    info = join(book, info, name, cents)  # checks the stake, as `chouette join` has it
    name = match(name, info.line.order) or name  # as the ledger writes them (BOB: bob)
    said = f"{joined_text(name, info.player_stakes.get(name))}. Line: {info.line.describe()}"
    return [said, *_partner(before, info)]


def _partner(before: Line, info: SessionInfo, cause: str | None = None) -> list[str]:
    """A partnership the change began or ended, with its reason, as the CLI says it."""
    return [f"{text}." for text in partner_news(before, info.line, info.rules, cause)]
