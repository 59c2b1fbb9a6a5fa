"""The ledger's tables. Rows stay inside ``db/``: the store turns them into domain values.

Money is integer cents (``BIGINT``), never a float or a Decimal column. Time stamps are
UTC, stored without an offset and re-attached on read. House rules, lines and event bodies
are JSON text, so the same schema runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Column, DateTime, Index, Integer, UniqueConstraint
from sqlmodel import Field, SQLModel


def points_column() -> Any:
    """Points, 64 bits wide as money is (schema 5): ``BIGINT`` on PostgreSQL; on SQLite
    ``INTEGER``, which holds 64 bits already (the declared type a ledger has always had)."""
    return Column(BigInteger().with_variant(Integer(), "sqlite"), nullable=False)


class SchemaVersion(SQLModel, table=True):
    __tablename__ = "schema_version"

    version: int = Field(primary_key=True)


class Setting(SQLModel, table=True):
    """Small named values, such as the session used last."""

    __tablename__ = "setting"

    key: str = Field(primary_key=True)
    value: str


class SessionRow(SQLModel, table=True):
    """One evening or money series: its stake, house rules and the line between games."""

    __tablename__ = "session"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    stake_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    rules: str
    line: str
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    night: str  # the club night it belongs to (schema 14): its local date, or a name given


class PlayerRow(SQLModel, table=True):
    """A player of a session, with their own stake if they play for a different one."""

    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("session_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id")
    name: str
    stake_cents: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    joined_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class GameRow(SQLModel, table=True):
    """A game of a session: a chouette game (events) or an imported engine game. An engine
    game keeps the file it came from (its hash and the game's index there) and its own
    identity (``game_key``: players, place in the session, score before, moves and result),
    so that no export of the session books it twice."""

    __tablename__ = "game"
    __table_args__ = (
        UniqueConstraint("session_id", "number"),
        UniqueConstraint("source_sha256", "source_index"),
        Index("game_by_key", "game_key", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id")
    number: int
    kind: str = "chouette"
    over: bool = False
    line_before: str
    line_after: str | None = None
    detail: str | None = None
    source_sha256: str | None = None
    source_index: int | None = None
    game_key: str | None = None
    started_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    ended_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )


class EventRow(SQLModel, table=True):
    """One event of a chouette game, in order."""

    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    seq: int
    body: str
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class PairRow(SQLModel, table=True):
    """What a finished game booked for one box–member pair (from the member's side)."""

    __tablename__ = "pair"

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    member: str = Field(primary_key=True)
    box: str
    points: int = Field(sa_column=points_column())
    cents: int = Field(sa_column=Column(BigInteger, nullable=False))


class PaymentRow(SQLModel, table=True):
    """Money that changed hands between two players (a settle-up, or taking over a balance)."""

    __tablename__ = "payment"

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id")
    payer: str
    payee: str
    cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    note: str = ""
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class ChargeRow(SQLModel, table=True):
    """A fee or a shared cost (:mod:`chouette.costs`, schema 13): who is owed (``creditor``:
    the organiser, or who paid), the amount as given (a fee: each sharer's; a cost: the
    whole), and each sharer's part as JSON ``[[player, cents], ...]`` in the order written."""

    __tablename__ = "charge"

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id")
    kind: str
    creditor: str
    cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    shares: str
    note: str
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    #: A note chouette said rather than a person typed (an event's entries and prizes), as
    #: words kept as data (:func:`chouette.words.as_data`, JSON) to be said in the reader's
    #: language; ``note`` keeps its English. None: the note is as typed (schema 22).
    words: str | None = None


class ActionRow(SQLModel, table=True):
    """Everything done to a session, one row per command that changed it (a game's events,
    a record, an import, a payment, a change of the line): what ``undo`` takes back, the
    newest first, and what ``chouette log`` lists. ``detail`` (JSON) holds what taking it
    back needs."""

    __tablename__ = "action"
    __table_args__ = (Index("action_by_session", "session_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id")
    kind: str
    detail: str
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class ChainRow(SQLModel, table=True):
    """A session's changes as a chain of SHA-256 links (:mod:`chouette.chain`): one row per
    command that changed the session, undo included, never updated or deleted but with the
    session; ``state`` the digest of the session's record after it, ``journal`` that of its
    journal (None: a link made before schema 18)."""

    __tablename__ = "chain"
    __table_args__ = (Index("chain_by_session", "session_id", "seq", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id")
    seq: int
    at: str
    what: str
    state: str
    hash: str
    journal: str | None = None


class KeptDigestRow(SQLModel, table=True):
    """What the session's chain took as its newest link was made, kept so that a command
    digests only what it changed: ``part`` ``record``, the digest of each line of the
    session's record (:func:`chouette.chain.item_digest`; ``number`` 0 the session's own
    line, 1, 2, … its games by number, −m … −1 the rest in order: payments, charges, files,
    acceptances; ``part`` has room for other kinds). The seal uses them only once they give
    its newest link's ``state`` (:mod:`db.chained`); ``check`` and ``verify`` never trust
    them: they digest everything again (and ``check`` names a kept digest that is not what
    it should be)."""

    __tablename__ = "kept_digest"

    session_id: int = Field(foreign_key="session.id", primary_key=True)
    part: str = Field(primary_key=True)
    number: int = Field(primary_key=True)
    digest: str


class SourceFileRow(SQLModel, table=True):
    """An engine file that was imported: its SHA-256 is how a second import books nothing,
    and its games' numbers are how ``undo`` takes the import back."""

    __tablename__ = "source_file"

    sha256: str = Field(primary_key=True)
    name: str
    format: str
    session_id: int = Field(foreign_key="session.id")
    games: int
    imported_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    #: The session's game numbers the file booked, first to last (``undo`` takes them back
    #: together); None when it booked none, or its games cannot be told apart any more.
    first_game: int | None = None
    last_game: int | None = None


class BalanceRow(SQLModel, table=True):
    """Each player's running totals in a session, moved with every booking in the same
    transaction, so the standings of a club's whole ledger are a read of a few rows;
    ``chouette check`` proves they equal the sum of the bookings."""

    __tablename__ = "balance"

    session_id: int = Field(foreign_key="session.id", primary_key=True)
    player: str = Field(primary_key=True)
    points: int = Field(sa_column=Column(BigInteger, nullable=False))
    cents: int = Field(sa_column=Column(BigInteger, nullable=False))


class BookingRow(SQLModel, table=True):
    """A line of the ledger: points and cents to one player from a game, a payment or a
    charge (a fee or a shared cost)."""

    __tablename__ = "booking"
    __table_args__ = (
        Index("booking_session", "session_id"),
        Index("booking_by_game", "game_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id")
    game_id: int | None = Field(default=None, foreign_key="game.id")
    payment_id: int | None = Field(default=None, foreign_key="payment.id")
    player: str
    points: int = Field(sa_column=points_column())
    cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    charge_id: int | None = Field(default=None, foreign_key="charge.id")


class PresetRow(SQLModel, table=True):
    """A club's own preset: a session's house rules kept under a name for another evening
    (``chouette rules --save NAME``), with when and from which session it was saved."""

    __tablename__ = "preset"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    rules: str
    saved_from: str
    saved_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class AccountRow(SQLModel, table=True):
    """Where a player is paid, for the whole club (:mod:`chouette.payments`, schema 17): the
    account holder's name, an IBAN (checked), a phone and a Swish number, each empty when
    not given. Only the keeper's terminal lists them (``chouette account --list``)."""

    __tablename__ = "account"

    player: str = Field(primary_key=True)
    holder: str
    iban: str
    phone: str
    swish: str
    saved_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class OriginRow(SQLModel, table=True):
    """Where a session's house rules came from: the preset and the options given beside it
    (JSON, :class:`chouette.card.Origin`). A session started before schema 11 has none."""

    __tablename__ = "session_origin"

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id", unique=True)
    detail: str


class EvaluationRow(SQLModel, table=True):
    """An engine's evaluation of a cube decision (schema 15), kept so that ``chouette review``
    asks the engine once for it: by the board (a Position ID), the cube as the engine was
    asked (centred or the doubler's, and Jacoby), the session's beavers and the plies; the
    three cubeful equities as the engine wrote them (text: exact decimals, per 1-cube, from
    the doubler's side), which engine, and when. Not part of any session's record."""

    __tablename__ = "evaluation"

    position: str = Field(primary_key=True)
    centred: bool = Field(primary_key=True)
    jacoby: bool = Field(primary_key=True)
    beavers: bool = Field(primary_key=True)
    plies: int = Field(primary_key=True)
    no_double: str
    double_take: str
    double_pass: str
    engine: str
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class TournamentRow(SQLModel, table=True):
    """A chouette tournament (an event, :mod:`chouette.event`; schema 19, named so beside the
    game's ``event`` table): its terms (JSON, :meth:`chouette.event.EventRules.to_dict`) and
    its purse, the session its entries and payouts are booked in; ``digest`` where the chain
    of its steps begins (:func:`chouette.chain.event_head`; schema 21, None before)."""

    __tablename__ = "tournament"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    terms: str
    purse_id: int = Field(foreign_key="session.id", unique=True)
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    digest: str | None = None


class TournamentStepRow(SQLModel, table=True):
    """The event's journal, one row per command that changed it (an entry, a re-entry, a
    draw, a level closed, the end, an acceptance), in order: the event is its steps replayed,
    and ``event undo`` takes back the last. ``detail`` (JSON) holds what taking it back
    needs; ``digest`` the chain of the event's steps up to this one
    (:func:`chouette.chain.event_step`; schema 21, None before)."""

    __tablename__ = "tournament_step"
    __table_args__ = (Index("step_by_tournament", "tournament_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id")
    kind: str
    detail: str
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    digest: str | None = None


class TournamentTableRow(SQLModel, table=True):
    """A session of an event: a table of a level (``level`` 1 on, ``number`` 1 on), or its
    purse (level 0). A table ``closed`` (its level is over) plays no more games."""

    __tablename__ = "tournament_table"
    __table_args__ = (Index("table_by_tournament", "tournament_id", "level", "number"),)

    session_id: int = Field(foreign_key="session.id", primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id")
    level: int
    number: int
    closed: bool = False


class ProposalRow(SQLModel, table=True):
    """A line a player proposed from their phone, waiting for the keeper (schema 20,
    :mod:`chouette.proposals`): who proposed it and when, in which session (its id: a
    proposal is no part of the session's record, nor of an export), what (``act``: an
    answer on ``member``'s cube in game ``game``, the double's ``origin`` and ``stage``; or
    ``pay``: ``cents`` to ``payee``), and what became of it: ``state`` ``waiting``,
    ``approved`` or ``refused``, ``reason`` (a refusal's words, as data) and when."""

    __tablename__ = "proposal"
    __table_args__ = (Index("proposal_by_session", "session_id", "state"),)

    id: int | None = Field(default=None, primary_key=True)
    session_id: int
    player: str
    act: str
    member: str
    game: int
    origin: int
    stage: str
    payee: str
    cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    proposed_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    state: str
    reason: str
    decided_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
