"""The journal's entries, read against one model per kind: what ``undo`` takes back and
``log`` lists, and what ``check`` validates. An entry of an unknown kind, with a field
missing or of the wrong type, or naming a game, a payment or a charge that is not there, is damaged:
``check`` names it, and ``undo`` refuses to take it back (saying which), so that ``undo``
never reports what it did not do.

The models are pydantic's (strict: a number written as text is no number); an entry may
carry more than its kind needs (what a later chouette notes beside it).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from chouette.chain import RESTORED, journal_digest
from chouette.errors import ChouetteError
from chouette.game import End
from chouette.record import parse_event
from chouette.session import SessionInfo
from chouette.words import Said, Sayable, reason_of, said
from db.codec import line_from_dict
from db.ledger import Ledger
from db.values import Action

#: The key :meth:`db.ledger.Ledger.actions` gives an entry whose detail is not JSON.
UNREADABLE = "\x00unreadable"


class _Entry(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")


class _Said(_Entry):
    said: StrictStr


class Events(_Entry):
    game: StrictInt
    game_id: StrictInt
    first: StrictInt
    events: list[dict[str, Any]]


class Record(_Entry):
    first: StrictInt
    last: StrictInt


class Import(_Entry):
    sha256: StrictStr
    file: StrictStr
    first: StrictInt | None
    last: StrictInt | None


class Payment(_Said):
    id: StrictInt


class Charge(_Said):
    id: StrictInt


class Line(_Said):
    line: dict[str, Any]


class Split(_Said):
    pass


class Rename(_Said):
    before: StrictStr = Field(alias="from")
    to: StrictStr


class Accept(_Said):
    players: list[StrictStr]
    rules: dict[str, Any]
    stake_cents: StrictInt


class Amend(_Said):
    game: StrictInt
    game_id: StrictInt
    first: StrictInt
    before: list[dict[str, Any]]
    was: dict[str, Any]
    now: dict[str, Any] = Field(alias="is")
    note: StrictStr
    line: dict[str, Any]
    games: list[dict[str, Any]]


class Position(_Said):
    game: StrictInt
    game_id: StrictInt
    changed: list[dict[str, Any]]


class Restored(_Said):
    journal: StrictStr | None


KINDS: dict[str, type[_Entry]] = {
    "events": Events,
    "record": Record,
    "import": Import,
    "payment": Payment,
    "charge": Charge,
    "line": Line,
    "split": Split,
    "rename": Rename,
    "accept": Accept,
    "amend": Amend,
    RESTORED: Restored,
    "position": Position,
}


def entry_name(info: SessionInfo, action: Action) -> Said:
    """The entry as a message names it: its session, number in the ledger, kind and time."""
    return said(
        "{session}'s journal entry {number} ({kind}, {at})",
        session=info.name,
        number=action.id,
        kind=repr(action.kind[:40]),
        at=action.at.isoformat(timespec="seconds"),
    )


def _names_game(entry: Events | Amend | Position) -> Said:
    return said(
        "it names game {number} (id {id}), which is not in the session",
        number=entry.game,
        id=entry.game_id,
    )


def entry_problem(book: Ledger, info: SessionInfo, action: Action) -> Sayable | None:
    """What is wrong with a journal entry, or None: its kind, its fields, and the game or
    payment it names."""
    detail = action.detail
    if UNREADABLE in detail:
        return said("its detail is not JSON")
    model = KINDS.get(action.kind)
    if model is None:
        return said("{kind} is no kind of entry chouette writes", kind=repr(action.kind[:40]))
    try:
        entry = model.model_validate(detail)
    except ValidationError as err:
        first = err.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "its detail"
        return f"{field}: {first['msg'].lower()}"  # (pydantic's words)
    if isinstance(entry, Events):
        numbers = {g.id: g for g in book.stored_games(info)}
        game = numbers.get(entry.game_id)
        if game is None or game.number != entry.game:
            return _names_game(entry)
        if not 0 <= entry.first <= len(book.event_bodies(entry.game_id)):
            return said(
                "it names events of game {number} from {first}, which are not there",
                number=entry.game,
                first=entry.first,
            )
    if isinstance(entry, Amend):
        return _amend_problem(book, info, entry)
    if isinstance(entry, Position):
        return _position_problem(book, info, entry)
    if isinstance(entry, Split):
        here = {"line", "session", "id"} <= detail.keys()
        there = {"from", "from_id"} <= detail.keys()
        if not here and not there:
            return said("a split names neither the table it formed nor the one it came from")
    if isinstance(entry, Payment) and entry.id not in {
        p.id for p in book.payments() if p.session_id == info.id
    }:
        return said("it names a payment (id {id}) that is not in the session", id=entry.id)
    if isinstance(entry, Charge) and entry.id not in {c.id for c in book.charges(info)}:
        return said(
            "it names a fee or a shared cost (id {id}) that is not in the session", id=entry.id
        )
    if isinstance(entry, Record | Import) and entry.first is not None:
        have = {g.number for g in book.stored_games(info)}
        last = entry.last if entry.last is not None else entry.first
        missing = [n for n in range(entry.first, last + 1) if n not in have][:3]
        if missing or last < entry.first:
            return said(
                "it names games {first} to {last}, which are not all in the session",
                first=entry.first,
                last=last,
            )
    return None


def _amend_problem(book: Ledger, info: SessionInfo, entry: Amend) -> Sayable | None:
    """What is wrong with a correction's entry: the game, its end or a game it booked again
    not there."""
    games = {g.id: g for g in book.stored_games(info)}
    target = games.get(entry.game_id)
    if target is None or target.number != entry.game:
        return _names_game(entry)
    if not 0 <= entry.first < len(book.event_bodies(entry.game_id)):
        return said(
            "it names event {event} of game {number}, which is not there",
            event=entry.first,
            number=entry.game,
        )
    try:
        for event in entry.before:
            parse_event(event, "a corrected event", allow_end=True)
        was = parse_event(entry.was, "a corrected end", allow_end=True)
        line_from_dict(entry.line)
        for kept in entry.games:
            line_from_dict(kept["line_before"])
            if kept["id"] not in games or not isinstance(kept.get("detail"), str | None):
                return said(
                    "it names a game (id {id}) that is not in the session", id=repr(kept["id"])
                )
    except (ChouetteError, KeyError, TypeError, ValueError) as err:
        return said(
            "it holds what is not a game's end, a line or a game: {reason}", reason=_reason(err)
        )
    if not isinstance(was, End):
        return said("the end it says the game had is not an end")
    return None


def _position_problem(book: Ledger, info: SessionInfo, entry: Position) -> Sayable | None:
    """What is wrong with a board's entry: the game, or an event it rewrote, not there."""
    games = {g.id: g for g in book.stored_games(info)}
    target = games.get(entry.game_id)
    if target is None or target.number != entry.game:
        return _names_game(entry)
    count = len(book.event_bodies(entry.game_id))
    try:
        for change in entry.changed:
            seq = change["seq"]
            if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < count:
                return said(
                    "it names event {event} of game {number}, which is not there",
                    event=repr(seq),
                    number=entry.game,
                )
            parse_event(change["was"], "an event before its board", allow_end=False)
    except (ChouetteError, KeyError, TypeError) as err:
        return said("it holds what is not an event of the game: {reason}", reason=_reason(err))
    return None


def _reason(err: Exception) -> Sayable:
    """Why a value could not be read: chouette's own words, else Python's."""
    return reason_of(err)


def journal_problems(book: Ledger, info: SessionInfo) -> list[Sayable]:
    """Every damaged entry of the session's journal, each named."""
    problems: list[Sayable] = []
    for action in book.actions(info):
        problem = entry_problem(book, info, action)
        if problem is not None:
            problems.append(
                said(
                    "{entry} is damaged: {problem}",
                    entry=entry_name(info, action),
                    problem=problem,
                )
            )
    return problems


def check_entry(book: Ledger, info: SessionInfo, action: Action) -> None:
    """Refuse to take back a damaged entry, naming it (nothing is taken back)."""
    problem = entry_problem(book, info, action)
    if problem is not None:
        raise ChouetteError(
            said(
                "the last thing done to {session} cannot be taken back: {entry} is damaged "
                "({problem}); nothing was taken back. `chouette check` lists what is wrong "
                "with the ledger",
                session=info.name,
                entry=entry_name(info, action),
                problem=problem,
            )
        )


def journal_afresh(book: Ledger, info: SessionInfo) -> str:
    """The digest of the session's journal as it stands, every entry digested again."""
    return journal_digest((kind, detail, at) for _, kind, detail, at in book.journal_entries(info))


def refuse_unfit_journal(book: Ledger, info: SessionInfo) -> None:
    """Refuse (nothing taken back) to ``undo`` at a session whose journal is not the one its
    newest link was made with: an entry edited, taken out, moved or added outside chouette
    would have undo take back another act than the one it says."""
    last = book.last_link(info)
    if last is not None and last.journal is not None and journal_afresh(book, info) != last.journal:
        raise ChouetteError(
            said(
                "{session}'s journal is not the one its newest link ({seq}, {at}) was made "
                "with: an entry was changed, taken out, moved or added outside chouette, so "
                "undo cannot know what to take back (chouette check says so too); nothing "
                "was taken back",
                session=info.name,
                seq=last.seq,
                at=last.at,
            )
        )
