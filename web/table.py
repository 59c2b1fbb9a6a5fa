"""The server's one door to the ledger: what the scoreboard reads, and the scorekeeper's
actions, each a command line in the CLI's own words that the CLI runs as at the ``chouette
table`` prompt (one parser for the page, the prompt and scripts), saying what it did to a
:class:`web.heard.Heard` as values that the page renders in its own words.

A refused command says the CLI's own error, and writes nothing. Everything here is blocking;
the server calls it from worker threads. The page's own actions go one at a time (the ledger
would queue them anyway).
"""

from __future__ import annotations

import logging
import shlex
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from chouette.errors import ChouetteError
from chouette.event import Place, card_lines, last_two
from chouette.limits import LONGEST_LINE
from chouette.payments import Account
from chouette.proposals import Proposal, answers_open
from chouette.session import SessionInfo
from chouette.settlement import settle
from chouette.text import clipped
from chouette.words import ENGLISH_WORDS, Number, Said, said
from db import Ledger, open_ledger
from db import events as events_of
from db.commands import propose, undoable
from db.reviewing import Review, gather, mine, scored
from db.values import Proposed
from files.gnubg import DEFAULT_PLIES
from web.board import Board, build_board
from web.heard import Commands, Heard

log = logging.getLogger("chouette.serve")


@dataclass(frozen=True)
class Snapshot:
    """The board (None: the ledger has no session yet) and the ledger's changes it was read
    with (:meth:`db.ledger.Ledger.changes`), in one transaction."""

    changes: tuple[object, ...]
    board: Board | None
    #: Under ``serve --room``: every table of the night, the served one among them; under
    #: ``serve --event``: every table of the level in play.
    room: tuple[Board, ...] = ()
    #: Each player's cube decisions reviewed (``chouette review``), from the evaluations the
    #: ledger keeps: for their own phone only.
    reviews: Mapping[str, Review] = field(default_factory=dict)
    #: Under ``serve --room``: the other tables' reviews, by session (each player's phone at
    #: that table shows their own); under ``serve --event``: every table's of the level.
    table_reviews: Mapping[str, Mapping[str, Review]] = field(default_factory=dict)
    #: Under ``serve --event``: the event as it stands.
    event: EventView | None = None
    #: What the players propose from their phones (:mod:`chouette.proposals`), by table
    #: (every table whose phones are answered): each player's answers open now, the
    #: proposals kept (waiting, and the latest answered), and where each payee is paid.
    proposing: Mapping[str, Proposing] = field(default_factory=dict)


@dataclass(frozen=True)
class EventView:
    """A chouette tournament as its pages show it (``serve --event``): its standings
    (:func:`db.events.standings`), the boards of the level's tables, who may re-enter now,
    its card and who accepted it."""

    standings: events_of.Standings
    boards: tuple[Board, ...]
    reentry: tuple[str, ...]
    card: tuple[tuple[str, Said], ...]
    accepted: frozenset[str]

    @property
    def name(self) -> str:
        return self.standings.event

    @property
    def level(self) -> int:
        return self.standings.level

    @property
    def cube(self) -> int:
        return self.standings.cube

    @property
    def pool(self) -> int:
        return self.standings.pool

    @property
    def drawn(self) -> bool:
        return self.standings.state.drawn is not None

    @property
    def ended(self) -> bool:
        return self.standings.state.ended

    @property
    def left(self) -> int | None:
        """Seconds left in the level (when the snapshot was read; None: no clock)."""
        return self.standings.left

    @property
    def ends_ms(self) -> int | None:
        """When the level ends, in milliseconds since 1970 (the page's countdown)."""
        ends = self.standings.ends
        return None if ends is None or self.ended else int(ends.timestamp() * 1000)

    @property
    def players(self) -> tuple[events_of.Seat, ...]:
        return self.standings.players

    @property
    def places(self) -> tuple[Place, ...]:
        return self.standings.final or ()

    @property
    def notes(self) -> tuple[Said, ...]:
        """What ``event draw`` and ``event standings`` say of the level beside its tables:
        the last two in, playing head to head; every draw taken back, with its seed."""
        drawn = self.standings.state.drawn
        final = None if drawn is None or self.ended else last_two(drawn)
        undone = tuple(
            said("Taken back: {draw}.", draw=u.said(self.name)) for u in self.standings.undone
        )
        return (*(() if final is None else (final,)), *undone)

    @cached_property
    def _seats(self) -> dict[str, events_of.Seat]:
        """Each player's seat by name (the TV's page asks for every player's bank: a look-up
        each, not a walk through all of them)."""
        return {p.name: p for p in self.players}

    def seat(self, player: str) -> events_of.Seat | None:
        return self._seats.get(player)

    def bank(self, player: str) -> int:
        found = self.seat(player)
        return 0 if found is None else found.bank

    def board_of(self, player: str) -> Board | None:
        """The board of ``player``'s table (None: at none)."""
        found = self.seat(player)
        table = None if found is None else found.table
        return next((b for b in self.boards if b.session == table), None)


@dataclass(frozen=True)
class Proposing:
    """A table's proposals: ``offers``, each player's answers they may propose now;
    ``kept``, the proposals of the table, oldest first; ``accounts``, where each player the
    table's settlement pays is paid (their phones' payment codes: never shown to anyone
    else)."""

    offers: Mapping[str, tuple[Proposal, ...]] = field(default_factory=dict)
    kept: tuple[Proposed, ...] = ()
    accounts: Mapping[str, Account] = field(default_factory=dict)
    night: str = ""

    def waiting(self) -> tuple[Proposed, ...]:
        return tuple(p for p in self.kept if p.state == "waiting")

    def of(self, player: str) -> tuple[Proposed, ...]:
        """``player``'s own proposals, the latest :data:`SHOWN_PROPOSALS`, newest first."""
        return tuple(p for p in reversed(self.kept) if p.proposal.player == player)[
            :SHOWN_PROPOSALS
        ]


#: The most of a player's proposals their phone lists.
SHOWN_PROPOSALS = 5


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
        event: str | None = None,
        commands: Commands | None = None,
    ) -> None:
        self.url = url
        self.commands = commands  # runs the CLI's words (None: the pages change nothing)
        self.session = session  # (the keeper's page may pick another)
        self._pinned: tuple[str, int] | None = None  # the session served: its name, its id
        self.clock = clock
        self.room = room  # serve --room: every table of the night
        self.event = event  # serve --event: the event's name ("": the one used last)
        self._writing = threading.Lock()
        #: Under ``serve --event``: each table's board, its players' reviews and its session
        #: by its session's id, with the last link of its chain they were read at (a table
        #: is read again only when it changed).
        self._boards: dict[int, tuple[int | None, Board, dict[str, Review], SessionInfo]] = {}

    @contextmanager
    def _read(self) -> Iterator[Ledger]:
        with open_ledger(self.url, write=False, now=self.clock()) as book:
            yield book

    def open(self) -> str | None:
        """The session served (None: no session yet), checking that the ledger can be read
        (a read never creates or migrates one) and that a named session is there."""
        with self._read() as book:
            if self.event is not None:
                self.event = events_of.find(book, self.event or None).name
                return self._name(book)
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
        """The session the pages show: the one served, or the current one (under ``serve
        --event``: the table of the level the keeper's page picked, else its first)."""
        served = self._served(book)
        if self.event is not None:
            playing = events_of.tables_in_play(book, self._event(book))
            return served if served in playing else (playing[0] if playing else None)
        return served if served is not None else book.current_name()

    def _changes(self, book: Ledger) -> tuple[object, ...]:
        served = self._served(book)
        if self.event is not None:
            return (served, events_of.changes(book, self._event(book)))
        proposals = book.proposals_stamp()  # a phone's proposal, the keeper's answer
        if not self.room:
            return (proposals, *book.changes(served))
        tables = tonight(book, served if served is not None else book.current_name())
        return (proposals, served, tuple(tables), *(book.changes(n) for n in tables))

    def tables(self) -> list[str]:
        """The night's tables (``serve --room``): the served session's night, in order."""
        with self._read() as book:
            return tonight(book, self._name(book))

    def choices(self) -> list[str]:
        """The sessions the keeper's page may switch to: under ``serve --room`` the night's
        tables, in order; else every session, the most recent first (the last
        :data:`PICK_MOST`, and the one served, however old); under ``serve --event`` the
        tables of the level in play."""
        if self.event is not None:
            with self._read() as book:
                return events_of.tables_in_play(book, self._event(book))
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
            if self.event is not None:
                return self._event_snapshot(book)
            changes = self._changes(book)
            name = self._name(book)
            if name is None:
                return Snapshot(changes, None)
            board = _board(book, name)
            room = tuple(
                board if other == name else _board(book, other)
                for other in (tonight(book, name) if self.room else ())
            )
            reviews = _reviews(book, name)
            others = {b.session: _reviews(book, b.session) for b in room if b.session != name}
            proposing = {b.session: _proposing(book, b) for b in (board, *room)}
        return Snapshot(changes, board, room, reviews, others, proposing=proposing)

    def propose(self, session: str, proposal: Proposal) -> int:
        """A player's proposal from their phone, in ``session`` (their table), checked and
        kept (:func:`db.commands.propose`): its number. A refusal raises, nothing written."""
        writing = open_ledger(self.url, write=True, now=self.clock(), create=False)
        with self._writing, writing as book:
            return propose(book, book.session(session), proposal)

    def _event(self, book: Ledger) -> events_of.EventInfo:
        """The event served (``serve --event``)."""
        return events_of.find(book, self.event or None)

    def _event_snapshot(self, book: Ledger) -> Snapshot:
        """The event's pages' snapshot: the board the keeper's page runs (the table it
        picked, else the level's first), every table of the level in play with its players'
        reviews, and the event as it stands. A table (its session, its board) is read again
        only when its chain has grown since."""
        info = self._event(book)
        served = self._served(book)
        changes = (served, events_of.changes(book, info))
        playing = events_of.level_in_play(book, info)
        heads = book.chain_heads(playing)
        boards = []
        reviews: dict[str, Mapping[str, Review]] = {}
        for session_id in playing:
            cached = self._boards.get(session_id)
            if cached is None or cached[0] != heads.get(session_id):
                session = book.session_by_id(session_id)
                if session is None:
                    continue
                read = _board(book, session.name)
                cached = (heads.get(session_id), read, _reviews(book, session.name), session)
                self._boards[session_id] = cached
            boards.append(cached[1])
            reviews[cached[1].session] = cached[2]
        self._boards = {k: v for k, v in self._boards.items() if k in playing}
        known = {k: v[3] for k, v in self._boards.items()}
        standings = events_of.standings(book, info, known)
        names = [b.session for b in boards]
        name = served if served in names else (names[0] if names else None)
        view = EventView(
            standings,
            tuple(boards),
            events_of.reentries(standings),
            tuple(card_lines(info.rules)),
            standings.state.accepted,
        )
        board = next((b for b in boards if b.session == name), None)
        mine = {} if name is None else dict(reviews.get(name, {}))
        return Snapshot(changes, board, tuple(boards), mine, reviews, event=view)

    def run_line(
        self, text: str, session: str | None, heard: Heard | None = None
    ) -> tuple[bool, list[str]]:
        """A command line as the CLI's own words (``pay mette søren 20 --note cash``), run
        by the CLI itself on this ledger, in ``session`` unless the line names one: whether
        it succeeded, and what it said, in the words of ``heard`` (which keeps it as values;
        English when none is given). One command at a time, as the page's buttons; a line
        the page does not run is refused first."""
        return self.run_words(command_words(text), session, heard)

    def run_words(
        self, words: list[str], session: str | None, heard: Heard | None = None
    ) -> tuple[bool, list[str]]:
        """The CLI's own words run by the CLI on this ledger, in this process, saying what
        it did to ``heard`` (see :meth:`run_line`). A failure of chouette's own (a bug) is
        logged and said as an error. ``session`` is given first, so a ``--session`` of the
        words' own comes after it and wins (and a word that merely reads ``--session``, the
        value of ``--note --session``, changes nothing); with ``=``, so a session called
        ``-x`` is a name."""
        heard = Heard(ENGLISH_WORDS) if heard is None else heard
        chosen = [f"--session={session}"] if session else []
        if self.commands is None:
            raise ChouetteError(said("this server runs no commands: start it with chouette serve"))
        with self._writing:
            try:
                code = self.commands(["--db", self.url, *chosen, *words], heard)
            except Exception:  # a bug of chouette's: the server's log has it, the page says so
                log.exception("chouette failed running %r", words[:40])
                heard.add(
                    said(
                        "Error: {message}",
                        message=said("chouette failed (the terminal of chouette serve says why)"),
                    )
                )
                code = 1
        return code == 0, heard.lines(heard.words)


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


def _proposing(book: Ledger, board: Board) -> Proposing:
    """The proposals of ``board``'s table, and what its players may propose now."""
    info = book.session(board.session)
    live = book.live(info)
    players = {*board.line.order, *(s.name for s in board.standings)}
    offers = {p: answers_open(live.game, live.number, p) for p in sorted(players)}
    kept = book.proposals([info.id])
    paid = {p.payee for p in settle({s.name: s.cents for s in board.standings})}
    accounts = {name: a for name, a in book.accounts().items() if name in paid}
    return Proposing({p: o for p, o in offers.items() if o}, tuple(kept), accounts, info.night)


def _reviews(book: Ledger, name: str) -> dict[str, Review]:
    """Each player's decisions of the session reviewed by the evaluations the ledger keeps
    (the engine is asked by ``chouette review``, never by a page)."""
    info = book.session(name)
    if not book.has_positions(info):
        return {}
    gathered = gather(book, info, number=None, player=None, plies=DEFAULT_PLIES)
    players = {decision.player for _, decision, _ in gathered.found}
    return {player: scored(mine(gathered, player)) for player in sorted(players)}


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
#: Commands that tell of the server's computer (its files, its environment: a ledger's URL
#: and its password), which a device on the club's wifi has no need to know.
THE_SERVERS_OWN = frozenset({"where"})
#: Commands whose words are each player's own (a review of their decisions: on their phone,
#: ``/me``, or at a terminal), not for the keeper's page, which others see.
THE_PLAYERS_OWN = frozenset({"review"})
#: Commands that show or keep players' bank accounts: the keeper's terminal's alone.
ACCOUNTS = frozenset({"account"})
#: Options that name another ledger or write files.
OPTIONS_REFUSED = ("--db", "--install-completion", "--show-completion")
#: Options that write files on the server's computer (payment codes, a spreadsheet).
FILE_OPTIONS = ("--qr", "--output")


def command_words(text: str) -> list[str]:
    """A command line as typed at ``chouette table``, split into its words; refused (a
    :class:`ChouetteError`) for one the page does not run, naming why."""
    if len(text) > LONGEST_LINE:
        raise ChouetteError(
            said(
                "a line of {length} characters, longer than any command: not read",
                length=Number(len(text)),
            )
        )
    try:
        words = shlex.split(text)
    except ValueError as err:
        raise ChouetteError(
            said("{reason} in {line}", reason=str(err), line=repr(clipped(text)))
        ) from None
    if not words:
        raise ChouetteError(said("type a command, as at chouette table (help lists them)"))
    options = words[: words.index("--")] if "--" in words else words  # (then names)
    for word in options:
        if word.split("=", 1)[0] in FILE_OPTIONS:
            raise ChouetteError(
                said(
                    "{option} writes files on the server's computer: run it at a terminal",
                    option=word.split("=", 1)[0],
                )
            )
        if word.split("=", 1)[0] in OPTIONS_REFUSED:
            raise ChouetteError(
                said(
                    "{option} is not for the page: it works on the server's ledger",
                    option=word.split("=", 1)[0],
                )
            )
    command, skip = None, False
    for at, word in enumerate(words):
        if skip:
            skip = False
        elif word == "--":
            command = words[at + 1] if at + 1 < len(words) else None
            break
        elif word == "--session":
            skip = True
        elif not word.startswith("-"):
            command = word
            break
    if command in NOT_ON_THE_PAGE:
        raise ChouetteError(
            said(
                "{command} reads or writes files or holds the server: run it at a terminal",
                command=command,
            )
        )
    if command in ACCOUNTS:
        raise ChouetteError(
            said("{command} shows players' bank accounts: run it at a terminal", command=command)
        )
    if command in THE_SERVERS_OWN:
        raise ChouetteError(
            said(
                "{command} tells of the server's computer and its settings: run it at a terminal",
                command=command,
            )
        )
    if command in THE_PLAYERS_OWN:
        raise ChouetteError(
            said(
                "{command} is each player's own: on their phone (their code, at /me), or at a "
                "terminal",
                command=command,
            )
        )
    return words
