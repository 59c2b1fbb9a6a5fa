"""The values the ledger hands out and takes in: sessions, games, bookings, what undo did.

Rows stay inside the ledger (:mod:`db.ledger`); these are what the commands, the import,
the export and ``chouette check`` work with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, NamedTuple

from chouette.costs import Charge
from chouette.game import Event, Game
from chouette.line import Line
from chouette.money import Cents
from chouette.outcome import Outcome
from chouette.proposals import Proposal
from chouette.report import Entry
from chouette.session import SessionInfo
from chouette.words import Sayable


@dataclass(frozen=True)
class Played:
    """What a command did to the current game."""

    session: SessionInfo
    number: int
    game: Game
    outcome: Outcome | None
    notices: tuple[Sayable, ...] = ()  # what a person reads, in their words


class Booking(NamedTuple):
    """A line of the ledger as written: to one player, from a game, a payment or a charge
    (a fee or a shared cost)."""

    session_id: int
    game_id: int | None
    payment_id: int | None
    player: str
    points: int
    cents: Cents
    charge_id: int | None = None


class Finished(NamedTuple):
    """A finished game to book: a chouette game (its line, events, pair results and next
    line) or an imported engine game (its result and where it came from). ``row_id`` is a
    live game whose row and events are stored already (its end is a batch of one)."""

    session_id: int
    number: int
    kind: Literal["chouette", "engine"]
    line_before: Line
    points: Mapping[str, int]
    cents: Mapping[str, Cents]
    started_at: datetime
    ended_at: datetime
    line_after: Line | None = None
    events: Sequence[Event] = ()
    box: str | None = None
    pairs: Mapping[str, int] = {}
    detail: str | None = None  # an engine game's result, or a chouette game's extras (JSON)
    source: tuple[str, int] | None = None  # the file (SHA-256) and index it came from
    key: str | None = None  # an engine game's identity
    row_id: int | None = None
    #: the chain's digest of the game as written (an import's engine game: its row, made
    #: from the same values), kept with it; None: the chain digests it as the command ends
    digest: str | None = None


class Won(NamedTuple):
    """An engine game of an import to book: ``winner`` won ``points`` and ``cents`` from
    ``loser``, so its two bookings sum to zero by their making (:meth:`Ledger.book_won
    <db.ledger.Ledger.book_won>`). ``line`` is the pair's line as stored
    (:func:`db.codec.line_to_json` of ``Line((winner, loser))``), ``detail`` the game's
    result as stored, ``sha256`` and ``source_index`` the file it came from and its index
    there, ``key`` its identity and ``digest`` the chain's digest of the game as written."""

    number: int
    line: str
    winner: str
    loser: str
    points: int
    cents: Cents
    detail: str
    sha256: str
    source_index: int
    key: str | None
    digest: str


class Paid(NamedTuple):
    """A payment between two players of a session (``id``: 0 until it is booked)."""

    session_id: int
    payer: str
    payee: str
    cents: Cents
    note: str
    at: datetime
    id: int = 0


class Charged(NamedTuple):
    """A fee or a shared cost booked in a session (``id``: 0 until it is booked)."""

    session_id: int
    charge: Charge
    at: datetime
    id: int = 0


@dataclass(frozen=True)
class GameView:
    """Game ``number`` of a session as ``chouette game N`` shows it: the replayed chouette
    game (None for an imported game), an imported game's result, and its bookings."""

    number: int
    kind: str
    over: bool
    started_at: datetime
    ended_at: datetime | None
    game: Game | None
    detail: Mapping[str, Any] | None
    line_after: Line | None
    bookings: list[Entry]
    why: tuple[Sayable, ...] = ()


@dataclass(frozen=True)
class SourceFile:
    """An imported file the ledger remembers: its SHA-256, name and format, the session and
    the game numbers it booked (None: none, or an older chouette did not note them)."""

    sha256: str
    name: str
    format: str
    session_id: int
    session: str
    games: int
    imported_at: datetime
    first_game: int | None = None
    last_game: int | None = None


class KeylessGame(NamedTuple):
    """An engine game an older chouette booked before games had identities: the file it is
    known by (``sha256``) and its place there (``source_index``), its session and number,
    its stored result."""

    sha256: str
    source_index: int
    session_id: int
    number: int
    detail: str | None


class StoredGame(NamedTuple):
    """A game's row as stored (its texts unread: ``chouette check`` reads them itself)."""

    id: int
    session_id: int
    number: int
    kind: str
    over: bool
    line_before: str
    line_after: str | None
    detail: str | None
    source: tuple[str | None, int | None]
    key: str | None
    started_at: datetime
    ended_at: datetime | None


class StoredPlayer(NamedTuple):
    name: str
    stake: Cents | None
    joined_at: datetime


class Action(NamedTuple):
    """A thing done to a session, as the journal keeps it (see :class:`db.models.ActionRow`)."""

    id: int
    kind: str
    detail: dict[str, Any]
    at: datetime


class Tournament(NamedTuple):
    """An event as stored: its terms (read), its purse (the session its entries and payouts
    are booked in), when it began (see :class:`db.models.TournamentRow`)."""

    id: int
    name: str
    terms: dict[str, Any]
    purse_id: int
    created_at: datetime
    digest: str | None = None  # (where the chain of its steps begins: schema 21)


class TournamentTable(NamedTuple):
    """A session of an event: a table of a level (``level`` 1 on), or its purse (level 0);
    ``closed`` once its level is over."""

    session_id: int
    level: int
    number: int
    closed: bool


@dataclass(frozen=True)
class Proposed:
    """A proposal as the ledger keeps it (:class:`db.models.ProposalRow`): its number
    (``id``), the session it is for, what it proposes, when, and what became of it."""

    id: int
    session_id: int
    proposal: Proposal
    proposed_at: datetime
    state: str = "waiting"
    reason: Sayable = ""
    decided_at: datetime | None = None
