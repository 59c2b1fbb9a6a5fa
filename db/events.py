"""What ``chouette event`` does to the ledger: a chouette tournament (:mod:`chouette.event`),
kept as three things (schema 19):

- its **journal** of steps (:class:`db.models.TournamentStepRow`): the entries, re-entries,
  draws, levels closed, the end and the acceptances; the event is its steps replayed, and
  ``event undo`` takes back the last. The steps are chained (schema 21,
  :func:`chouette.chain.event_step`): each holds the digest of those before it, from the
  event's terms on, and the purse's record the newest (:func:`record_item`), so the purse's
  chain proves them; ``check`` names a step that does not fit (:func:`chain_problems`);
- its **purse**, a session named as the event, where each entry is a fee owed to the
  organiser and each payout a prize the organiser owes (so ``settle`` there pays them);
- its **tables**, a session for each table of each level (``NAME-L2-T1``): points only (a
  stake of 0: banks are chips, not money), table stakes from the banks, every cube starting
  at the level's cube. A table whose level is over plays no more (:func:`check_open`).

The CLI and the pages call these; each is one transaction, and a refusal writes nothing.
The seed of a draw is the caller's (the CLI draws one when none is given).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from chouette import event as rules_of_events
from chouette.card import Origin, when_text
from chouette.chain import RESTORED, event_head, event_step
from chouette.costs import fee, prize
from chouette.errors import ChouetteError
from chouette.event import (
    Accepted,
    Closed,
    Drawn,
    Ended,
    Entered,
    EventRules,
    EventState,
    Place,
    Reentered,
    Step,
    level_ends,
    seconds_left,
)
from chouette.line import (
    MAX_NAME_LENGTH,
    Line,
    check_session_name,
    normal_name,
    seat,
    set_bank,
)
from chouette.line import join as join_line
from chouette.money import Cents
from chouette.names import match
from chouette.outcome import Reentry
from chouette.session import SessionInfo
from chouette.words import Money, Said, Sayable, joined, reason_of, said
from db.codec import charge_said, line_from_dict, line_to_dict, said_detail
from db.journal import refuse_unfit_journal
from db.ledger import Ledger
from db.values import Action, Charged, Tournament

#: A step that notes a draw taken back by ``event undo``: the draw's level, seed and tables
#: and when it was drawn, kept in the journal, its chain and its export for good (a redraw is
#: visible forever); it changes nothing, and ``event undo`` never takes it back (it takes back
#: the steps before it, and the whole event with it once nothing else is left).
UNDONE = "undone"
#: The setting that names the event used last (``--event`` names another).
CURRENT_EVENT = "current_event"
#: Each session an event makes is its purse's stake (money per point: no game is played
#: there) and its tables' (points only).
PURSE_STAKE = 100
TABLE_STAKE = 0


@dataclass(frozen=True)
class EventInfo:
    """An event as the ledger keeps it: its id, name, terms, purse and when it began."""

    id: int
    name: str
    rules: EventRules
    purse: SessionInfo
    created_at: datetime
    head: str | None = None  # (where the chain of its steps begins: schema 21)


@dataclass(frozen=True)
class Seat:
    """A player of the event as it stands: their bank (live, from their table), their table
    of the level in play (its session's name; None: out, or waiting for the next draw),
    the level they went out at (None: in), and their entries."""

    name: str
    bank: int
    table: str | None
    out_at: int | None
    entries: int

    @property
    def out(self) -> bool:
        return self.out_at is not None


@dataclass(frozen=True)
class UndoneDraw:
    """A draw ``event undo`` took back: its level, seed, and when it was drawn and taken
    back (on the record for good, :data:`UNDONE`)."""

    level: int
    seed: int
    drawn_at: datetime
    undone_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "seed": self.seed,
            "drawn_at": self.drawn_at.isoformat(),
            "undone_at": self.undone_at.isoformat(),
        }

    def said(self, event: str) -> Said:
        return said(
            "level {level} of {event} was drawn with seed {seed} at {drawn} and that draw "
            "was taken back at {undone} (event undo)",
            level=self.level,
            event=event,
            seed=self.seed,
            drawn=when_text(self.drawn_at),
            undone=when_text(self.undone_at),
        )


def undone_draws(actions: Sequence[Action]) -> tuple[UndoneDraw, ...]:
    """The draws taken back, from an event's journal, the first first."""
    return tuple(
        UndoneDraw(
            a.detail["level"], a.detail["seed"], datetime.fromisoformat(a.detail["drawn_at"]), a.at
        )
        for a in actions
        if a.kind == UNDONE
    )


@dataclass(frozen=True)
class Standings:
    """The event as ``event standings`` and the room show it: the level in play, its cube
    and clock, the pool, every table (its session's name and seats, as its line stands now),
    every player, and the final places once it has ended."""

    event: str
    state: EventState
    tables: tuple[tuple[str, tuple[str, ...]], ...]
    players: tuple[Seat, ...]
    started: datetime | None
    ends: datetime | None
    left: int | None
    undone: tuple[UndoneDraw, ...] = ()

    @property
    def level(self) -> int:
        return self.state.level if not self.state.ended else self.state.level - 1

    @property
    def cube(self) -> int:
        return self.state.rules.cube(self.level)

    @property
    def pool(self) -> Cents:
        return self.state.pool

    @property
    def final(self) -> tuple[Place, ...] | None:
        return self.state.final

    def to_json(self) -> dict[str, Any]:
        """The shape of ``event standings --json`` (docs/INTERFACE.md)."""
        return {
            "event": self.event,
            "level": self.level,
            "cube": self.cube,
            "pool_cents": self.pool,
            "ends_at": None if self.ends is None else self.ends.isoformat(),
            "ended": self.state.ended,
            "undone_draws": [u.to_json() for u in self.undone],
            "players": [
                {"name": p.name, "bank": p.bank, "table": p.table, "out": p.out}
                for p in self.players
            ],
        }


# ---------------------------------------------------------------- finding an event


def _info(book: Ledger, found: Tournament) -> EventInfo:
    purse = book.session_by_id(found.purse_id)
    if purse is None:
        raise ChouetteError(said("the purse of the event {event} is gone", event=found.name))
    return EventInfo(
        found.id,
        found.name,
        EventRules.from_dict(found.terms),
        purse,
        found.created_at,
        found.digest,
    )


def find(book: Ledger, name: str | None) -> EventInfo:
    """The event ``name`` names (any case), or the one used last."""
    events = book.tournaments()
    if not events:
        raise ChouetteError(
            said("the ledger has no event yet: chouette event new NAME --bank N --levels 1,2,4")
        )
    wanted = name if name is not None else book.settings(CURRENT_EVENT).get(CURRENT_EVENT)
    if wanted is None:
        wanted = events[-1].name
    known = [e.name for e in events]
    found = match(normal_name(wanted), known)
    if found is None:
        raise ChouetteError(
            said(
                "there is no event called {event} (events: {known})",
                event=wanted,
                known=", ".join(known),
            )
        )
    return _info(book, next(e for e in events if e.name == found))


def use(book: Ledger, info: EventInfo) -> None:
    """Remember ``info`` as the event used last."""
    book.put_settings({CURRENT_EVENT: info.name})


def _steps(action: Action) -> list[Step]:
    """What a journal entry of the event did, as the rules' steps."""
    detail = action.detail
    if action.kind == "enter":
        return [Entered(tuple(detail["players"]))]
    if action.kind == "reenter":
        return [Reentered(detail["player"])]
    if action.kind == "draw":
        return [_drawn(detail)]
    if action.kind == "next":
        return [Closed(dict(detail["banks"])), _drawn(detail["draw"])]
    if action.kind == "end":
        banks = detail.get("banks")
        return [Ended(None if banks is None else dict(banks), detail.get("seed"))]
    if action.kind == "accept":
        return [Accepted(tuple(detail["players"]))]
    if action.kind == UNDONE:
        return []  # (a draw taken back: on the record, changing nothing)
    raise ChouetteError(said("{kind!r} is no step of an event", kind=action.kind[:40]))


def _iso(when: datetime) -> str:
    """A time as an event's chain digests it: ISO 8601 in UTC (the same however read)."""
    return when.astimezone(UTC).isoformat()


def _head(name: str, terms: Mapping[str, Any], created_at: datetime) -> str:
    return event_head(name, terms, _iso(created_at))


def _places(book: Ledger, info: EventInfo) -> Callable[[str, Mapping[str, Any]], dict[str, Any]]:
    """How a step's detail is digested in the event's chain: each session it names by its
    level and table (``[2, 1]``; the purse ``[0, 0]``), each charge by its place among the
    purse's charges, as an export names them, so that a restored ledger, whose ids are
    others, digests the same (None: not the event's)."""
    tables = {t.session_id: [t.level, t.number] for t in book.tournament_tables(info.id)}
    charges = {c.id: i for i, c in enumerate(book.charges(info.purse))}
    return lambda kind, detail: _mapped(kind, detail, tables.get, charges.get)


def _add_step(book: Ledger, info: EventInfo, kind: str, detail: Mapping[str, Any]) -> None:
    """Note a step of the event, chained on from the steps before it (schema 21), and seal
    its purse, whose record holds the chain's newest digest."""
    digests = book.step_digests(info.id)
    previous = (digests[-1] if digests else None) or info.head
    if previous is None:  # (an event the migration to schema 21 did not reach)
        previous = _head(info.name, info.rules.to_dict(), info.created_at)
    digest = event_step(previous, kind, _places(book, info)(kind, detail), _iso(book.now))
    book.add_step(info.id, kind, detail, digest=digest)
    book.changed(info.purse.id, f"{info.name}: {kind}")


def record_item(book: Ledger, session: SessionInfo) -> list[dict[str, Any]]:
    """What the purse's record holds of its event (none for any other session): the chain
    of its steps as it stands (its newest digest and how many), so that the purse's chain
    and fingerprint prove the event's steps too (schema 21)."""
    found = book.tournament_of(session.id)
    if found is None or found[1].level != 0:
        return []
    event = next(t for t in book.tournaments() if t.name == found[0])
    digests = book.step_digests(event.id)
    newest = digests[-1] if digests else event.digest
    return [{"kind": "event", "name": event.name, "steps": len(digests), "digest": newest}]


def chain_problems(book: Ledger, found: Tournament) -> list[Said]:
    """Where the chain of an event's steps does not fit: its terms (or name, or start) not
    those it began with, a step changed (or one before it taken out, moved or added) outside
    chouette since it was noted, each step named by its number, kind and time."""
    info = _info(book, found)
    head = _head(found.name, found.terms, found.created_at)
    problems: list[Said] = []
    if found.digest != head:
        problems.append(_unfit_terms(found.name))
    portable = _places(book, info)
    previous = found.digest or head
    for number, (action, digest) in enumerate(
        zip(book.steps(found.id), book.step_digests(found.id), strict=True), start=1
    ):
        try:
            afresh = event_step(
                previous, action.kind, portable(action.kind, action.detail), _iso(action.at)
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            afresh = None
        if digest is None or digest != afresh:
            problems.append(_unfit_step(number, found.name, action.kind, action.at))
        previous = digest or afresh or previous
    return problems


def _unfit_terms(event: str) -> Said:
    return said(
        "the terms of the event {event} are not those the chain of its steps began with: "
        "they were changed outside chouette",
        event=event,
    )


def _unfit_step(number: int, event: str, kind: str, at: datetime) -> Said:
    return said(
        "step {number} of the event {event} ({kind}, {at}) is not the one its chain was made "
        "with: it was changed outside chouette, or a step before it taken out, moved or added",
        number=number,
        event=event,
        kind=kind[:40],
        at=at.isoformat(timespec="seconds"),
    )


def chain_unchained(book: Ledger) -> None:
    """Chain the steps of every event that has no chain yet, as they stand, and mark its
    purse changed (its seal's record holds the chain): a ledger moving to schema 21. The
    chain proves nothing about what was changed before."""
    for found in book.tournaments():
        if found.digest is not None and None not in book.step_digests(found.id):
            continue
        _rechain(book, _info(book, found), _head(found.name, found.terms, found.created_at))
        book.changed(found.purse_id, "its event's steps chained as its ledger moved to schema 21")


def _drawn(detail: Mapping[str, Any]) -> Drawn:
    return Drawn(
        detail["seed"],
        tuple(tuple(t) for t in detail["tables"]),
        detail["repeats"],
        detail["exact"],
    )


def _dice(seed: int) -> random.Random:
    return random.Random(seed)


def state_of(book: Ledger, info: EventInfo) -> tuple[EventState, list[Action]]:
    """The event its journal makes, and the journal."""
    actions = book.steps(info.id)
    state = rules_of_events.new_event(info.name, info.rules)
    for action in actions:
        for step in _steps(action):
            dice = _dice(step.seed) if isinstance(step, Ended) and step.seed is not None else None
            state = rules_of_events.apply(state, step, dice)
    return state, actions


def create(book: Ledger, name: str, rules: EventRules, origin: Origin | None) -> EventInfo:
    """A new event ``name`` with ``rules``: its purse, a session of that name, holds the
    organiser (``origin``: where the tables' house rules came from)."""
    name = check_session_name(name)
    longest = table_name(name, *LONGEST_TABLE)
    if len(longest) > MAX_NAME_LENGTH:
        raise ChouetteError(
            said(
                "an event's name is at most {most} characters, leaving room for its tables' "
                "names ({table}): not {count}",
                most=MAX_NAME_LENGTH - len(longest) + len(name),
                table=table_name("NAME", *LONGEST_TABLE),
                count=len(name),
            )
        )
    purse = book.create_session(
        name,
        Line((rules.organiser,)),
        PURSE_STAKE,
        rules.table_rules(1),
        current=False,
        origin=origin,
    )
    head = _head(name, rules.to_dict(), book.now)
    tournament_id = book.create_tournament(name, rules.to_dict(), purse, digest=head)
    info = EventInfo(tournament_id, name, rules, purse, book.now, head)
    use(book, info)
    return info


# ---------------------------------------------------------------- entries


def _entry_fee(book: Ledger, info: EventInfo, players: Sequence[str], note: Said) -> int | None:
    """Each of ``players`` owes the organiser the entry (a fee in the purse; the organiser,
    if among them, holds their own): the charge's id, or None when there is none."""
    rules = info.rules
    debtors = [p for p in players if p != rules.organiser]
    if rules.entry == 0 or not debtors:
        return None
    made = fee(rules.entry, debtors, rules.organiser, note)
    charge_id = book.book_charge(Charged(info.purse.id, made, book.now))
    book.journal(
        info.purse,
        "charge",
        {"id": charge_id, **said_detail(charge_said(made)), "event": info.name},
    )
    return charge_id


def _seat_at(book: Ledger, info: EventInfo, state: EventState, player: str, table: int) -> int:
    """``player`` joins the table ``table`` of the level in play, between its games, where
    its house rules seat a newcomer, with a fresh bank: the table's session id."""
    session = _table(book, info, state.level, table)
    rules = session.rules
    _change_line(
        book,
        info,
        session,
        lambda line: join_line(line, player, rules),
        said("{player} joins, entering {event}", player=player, event=info.name),
        player=player,
    )
    book.save_player(session, player, None)
    return session.id


def _table(book: Ledger, info: EventInfo, level: int, number: int) -> SessionInfo:
    for table in book.tournament_tables(info.id):
        if table.level == level and table.number == number:
            found = book.session_by_id(table.session_id, lock=True)
            if found is not None:
                return found
    raise ChouetteError(
        said(
            "table {number} of level {level} of {event} is gone",
            number=number,
            level=level,
            event=info.name,
        )
    )


def _change_line(
    book: Ledger,
    info: EventInfo,
    session: SessionInfo,
    change: Callable[[Line], Line],
    words: Said,
    **noted: Any,
) -> int:
    """The table's line changed by the event, between games, journalled at the table (its
    own ``undo`` refuses it: ``event undo`` takes it back): the journal entry's id."""
    live = book.live(session)
    if live.started:
        raise ChouetteError(
            said(
                "game {number} is in progress at {table}: this waits for its end",
                number=live.number,
                table=session.name,
            )
        )
    line = change(session.line)
    book.journal(
        session,
        "line",
        {
            **said_detail(words),
            "line": line_to_dict(session.line),
            "event": info.name,
            **noted,
        },
    )
    book.save_line(session, line)
    return book.actions(session, limit=1)[0].id


def enter(book: Ledger, info: EventInfo, players: Sequence[str]) -> EventState:
    """``players`` enter: each pays the entry into the pool (a fee owed to the organiser)
    and gets a bank; during a drawn level each sits at the table with the fewest players,
    if one has room."""
    state, _ = state_of(book, info)
    after = rules_of_events.enter(state, [normal_name(p) for p in players])
    names = list(after.entered[len(state.entered) :])
    for name in names:
        book.save_player(info.purse, name, None)
    book.changed(info.purse.id, f"{', '.join(names)} enter {info.name}")  # (with no fee too)
    charge = _entry_fee(book, info, names, rules_of_events.entry_note(info.name))
    seated = []
    for name in names:
        table = after.table_of(name)
        if table is not None:
            seated.append([name, _seat_at(book, info, after, name, table)])
    _add_step(book, info, "enter", {"players": names, "charge": charge, "seated": seated})
    use(book, info)
    return after


def reenter(book: Ledger, info: EventInfo, typed: str) -> tuple[EventState, str]:
    """A player whose bank is gone enters again: another entry into the pool, a fresh bank
    (at their table, between its games), or back in from out (seated at a table with room).
    Refused, with the reason, past the re-entries' last level or for a player with a bank."""
    state, _ = state_of(book, info)
    name = match(normal_name(typed), list(state.entered)) or normal_name(typed)
    table = state.table_of(name) if name not in state.out else None
    session = None if table is None else _table(book, info, state.level, table)
    bank = None if session is None else session.line.bank(name)
    after = rules_of_events.reenter(state, name, bank)
    charge = _entry_fee(book, info, [name], rules_of_events.reentry_note(info.name))
    detail: dict[str, Any] = {"player": name, "charge": charge, "session": None}
    if session is not None:
        rules = session.rules
        fresh = info.rules.bank
        _change_line(
            book,
            info,
            session,
            lambda line: set_bank(line, name, fresh, rules),
            said(
                "{player} re-enters {event}: a fresh bank of {bank}",
                player=name,
                event=info.name,
                bank=fresh,
            ),
        )
        detail["session"] = session.id
    elif after.table_of(name) is not None:
        detail["session"] = _seat_at(book, info, after, name, after.table_of(name) or 0)
    _add_step(book, info, "reenter", detail)
    use(book, info)
    return after, name


def accept(book: Ledger, info: EventInfo, players: Sequence[str]) -> list[str]:
    """Entrants accept the event's rules card (its terms and its tables' house rules)."""
    state, _ = state_of(book, info)
    names = [match(normal_name(p), list(state.entered)) or normal_name(p) for p in players]
    rules_of_events.accept(state, names)
    _add_step(book, info, "accept", {"players": names, "terms": info.rules.to_dict()})
    return names


# ---------------------------------------------------------------- draws and levels


#: The level and table numbers an event's name leaves room for in its tables' names.
LONGEST_TABLE = (9999, 9999)


def table_name(event: str, level: int, number: int) -> str:
    """A table's session: ``fcc-L2-T1``."""
    return f"{event}-L{level}-T{number}"


def _make_tables(book: Ledger, info: EventInfo, state: EventState) -> list[int]:
    """A session for each table of the level in play, its line the seats drawn with their
    banks (the box and the captain able to cover the starting cube), points only."""
    assert state.drawn is not None
    rules = info.rules.table_rules(state.level)
    origin = book.origin(info.purse)
    ids = []
    for number, seats in enumerate(state.drawn.tables, start=1):
        name = check_session_name(table_name(info.name, state.level, number))
        line = seat(Line(seats, banks=tuple((p, state.banks[p]) for p in seats)), rules)
        session = book.create_session(
            name,
            line,
            TABLE_STAKE,
            rules,
            current=False,
            origin=origin if origin.known else None,
            night=info.purse.night,
            points_only=True,
        )
        book.add_tournament_tables(info.id, [(session.id, state.level, number)])
        ids.append(session.id)
    return ids


def _draw_detail(state: EventState, made: Drawn, sessions: list[int]) -> dict[str, Any]:
    return {
        "level": state.level,
        "seed": made.seed,
        "tables": [list(t) for t in made.tables],
        "repeats": made.repeats,
        "exact": made.exact,
        "sessions": sessions,
    }


def draw(book: Ledger, info: EventInfo, seed: int) -> EventState:
    """The tables of the level in play, drawn from ``seed`` (journalled with it: the same
    seed draws them again), each a session of the event."""
    state, _ = state_of(book, info)
    made = rules_of_events.draw(state, seed, _dice(seed))
    after = rules_of_events.drawn(state, made)
    sessions = _make_tables(book, info, after)
    _add_step(book, info, "draw", _draw_detail(after, made, sessions))
    use(book, info)
    return after


def _level_tables(
    book: Ledger,
    info: EventInfo,
    level: int,
    *,
    lock: bool = False,
    known: Mapping[int, SessionInfo] | None = None,
) -> list[SessionInfo]:
    """The sessions of the tables of ``level``, in order (``lock``: held for a change;
    ``known``: sessions by id as they stand now, not read again)."""
    found = []
    for table in book.tournament_tables(info.id):
        if table.level == level:
            session = (known or {}).get(table.session_id) or book.session_by_id(
                table.session_id, lock=lock
            )
            if session is None:
                raise ChouetteError(
                    said(
                        "table {number} of level {level} of {event} is gone",
                        number=table.number,
                        level=level,
                        event=info.name,
                    )
                )
            found.append(session)
    return found


def _closing_banks(
    book: Ledger, info: EventInfo, state: EventState
) -> tuple[dict[str, int], list[int]]:
    """Each seated player's bank as their table leaves it, every game booked and none in
    progress; and the tables' ids."""
    tables = _level_tables(book, info, state.level, lock=True)
    for session in tables:
        live = book.live(session)
        if live.started:
            raise ChouetteError(
                said(
                    "game {number} is in progress at {table}: finish it or undo it before "
                    "the level closes",
                    number=live.number,
                    table=session.name,
                )
            )
    return _table_banks(info, state, tables), [t.id for t in tables]


def next_level(book: Ledger, info: EventInfo, seed: int) -> tuple[EventState, EventState]:
    """The level in play closes (its games booked, none in progress): every bank carried,
    a player whose bank is gone out, the starting cube raised; the next level drawn from
    ``seed``. The event as it closed, and as it is now."""
    state, _ = state_of(book, info)
    if state.drawn is None:
        rules_of_events.close(state, {})  # (refused: not drawn)
    banks, closed_ids = _closing_banks(book, info, state)
    closed = rules_of_events.close(state, banks)
    if len(closed.players_in) < 2:
        raise ChouetteError(
            said(
                "only {players} would be in at level {level}: event end closes the level "
                "and ends the event",
                players=", ".join(closed.players_in) or said("nobody"),
                level=closed.level,
            )
        )
    made = rules_of_events.draw(closed, seed, _dice(seed))
    after = rules_of_events.drawn(closed, made)
    book.close_tables(closed_ids)
    sessions = _make_tables(book, info, after)
    _add_step(
        book,
        info,
        "next",
        {
            "level": state.level,
            "banks": banks,
            "closed": closed_ids,
            "draw": _draw_detail(after, made, sessions),
        },
    )
    use(book, info)
    return closed, after


def end(book: Ledger, info: EventInfo, seed: int) -> EventState:
    """The event ends: the level in play closes (as :func:`next_level` closes it), the
    players are ranked and the pool paid out, each payout booked in the purse as a prize the
    organiser owes (``settle`` there pays it). ``seed`` rolls off ties under ``--ties roll``
    (journalled with the end)."""
    state, _ = state_of(book, info)
    banks, closed_ids = _closing_banks(book, info, state) if state.drawn is not None else (None, [])
    rolled = seed if info.rules.ties == "roll" else None
    after = rules_of_events.end(state, banks, None if rolled is None else _dice(rolled))
    charges = []
    for place in after.final or ():
        if place.cents == 0 or place.name == info.rules.organiser:
            continue
        note = rules_of_events.place_note(place.place, info.name)
        made = prize(place.cents, place.name, info.rules.organiser, note)
        charge_id = book.book_charge(Charged(info.purse.id, made, book.now))
        book.journal(
            info.purse,
            "charge",
            {"id": charge_id, **said_detail(charge_said(made)), "event": info.name},
        )
        charges.append(charge_id)
    book.close_tables(closed_ids)
    _add_step(
        book,
        info,
        "end",
        {"banks": banks, "seed": rolled, "charges": charges, "closed": closed_ids},
    )
    use(book, info)
    return after


# ---------------------------------------------------------------- undo


def _undo_there_first(purse: str, booked: str) -> Said:
    """The refusal to take back an event whose purse has ``booked`` something
    (:meth:`Ledger.booked_anything`), a whole sentence for each."""
    found = {
        "a game": said("{purse} has a game booked: undo it there first"),
        "a payment": said("{purse} has a payment booked: undo it there first"),
    }.get(booked, said("{purse} has a fee or cost booked: undo it there first"))
    return replace(found, values=(("purse", purse),))


def undo(book: Ledger, info: EventInfo) -> Said:
    """Take back the last step of the event, whatever it was, and what it did to its purse
    and tables (refused when something was done at a table since: undo that there first);
    with no step, the event itself (its purse too, if nothing is booked there). What was
    taken back, in words."""
    steps = book.steps(info.id)
    marks = [s for s in steps if s.kind == UNDONE]  # (draws taken back: they stay)
    steps = [s for s in steps if s.kind != UNDONE]
    if not steps:
        booked = book.booked_anything(info.purse)
        if booked is not None:
            raise ChouetteError(_undo_there_first(info.purse.name, booked))
        book.drop_tournament(info.id)
        book.drop_session(info.purse)
        book.put_settings({CURRENT_EVENT: None})
        return said("the event {event} itself", event=info.name)
    last = steps[-1]
    detail = last.detail
    undone: Mapping[str, Any] | None = None
    if last.kind == "enter":
        for player, session_id in detail["seated"]:
            _take_back_at_table(book, session_id, player)
        _drop_fee(book, info, detail["charge"])
        for player in detail["players"]:
            book.restore_player(info.purse, player, None)
        book.changed(info.purse.id, f"undo: {', '.join(detail['players'])} enter {info.name}")
        done = said("the entry of {players}", players=", ".join(detail["players"]))
    elif last.kind == "reenter":
        if detail["session"] is not None:
            _take_back_at_table(book, detail["session"], detail["player"])
        _drop_fee(book, info, detail["charge"])
        done = said("the re-entry of {player}", player=detail["player"])
    elif last.kind == "draw":
        _drop_tables(book, detail["sessions"])
        done = said("the draw of level {level}", level=detail["level"])
        undone = detail
    elif last.kind == "next":
        _drop_tables(book, detail["draw"]["sessions"])
        undone = detail["draw"]
        book.close_tables(detail["closed"], closed=False)
        done = said(
            "the close of level {level} and the draw of level {next}",
            level=detail["level"],
            next=detail["level"] + 1,
        )
    elif last.kind == "end":
        for charge_id in detail["charges"]:
            _drop_fee(book, info, charge_id)
        book.close_tables(detail["closed"], closed=False)
        done = said("the end of {event}", event=info.name)
    else:
        done = said(
            "the acceptance of the rules by {players}", players=", ".join(detail["players"])
        )
    book.forget_step(last.id)
    if marks and marks[-1].id > last.id:  # the draws taken back since stay, chained anew
        _rechain(book, info, info.head or _head(info.name, info.rules.to_dict(), info.created_at))
    book.changed(info.purse.id, f"undo in {info.name}: {last.kind}")  # (its chain's newest)
    if undone is not None:  # the draw stays on the record, for good
        kept = {k: undone[k] for k in ("level", "seed", "tables", "repeats", "exact")}
        _add_step(book, info, UNDONE, {**kept, "drawn_at": _iso(last.at)})
    return done


def _rechain(book: Ledger, info: EventInfo, head: str) -> None:
    """The chain of the event's steps digested afresh from ``head``, as they now stand (a
    ledger moving to schema 21; ``event undo`` took back a step that the record of a draw
    taken back follows)."""
    portable = _places(book, info)
    previous = head
    digests = []
    for action in book.steps(info.id):
        previous = event_step(
            previous, action.kind, portable(action.kind, action.detail), _iso(action.at)
        )
        digests.append(previous)
    book.chain_event(info.id, head, digests)


def _take_back_at_table(book: Ledger, session_id: int, player: str) -> None:
    """Take back what the event did at a table (a player seated, a fresh bank), the newest
    thing done there; refused, naming the table, if anything was done there since."""
    session = book.session_by_id(session_id, lock=True)
    if session is None:
        raise ChouetteError(said("a table of the event is gone"))
    newest = _fit_journal(book, session)
    if not newest or "event" not in newest[0].detail or newest[0].kind != "line":
        raise ChouetteError(
            said(
                "something was done at {table} since: undo it there first (chouette "
                "--session {table} undo)",
                table=session.name,
            )
        )
    action = newest[0]
    book.forget_action(action)
    book.save_line(session, line_from_dict(action.detail["line"]))
    if action.detail.get("player") == player:
        book.restore_player(session, player, None)


def _fit_journal(book: Ledger, session: SessionInfo) -> list[Action]:
    """The newest entry of the journal of a session of the event (none: an empty list),
    before ``event undo`` takes something back there: refused, nothing taken back, where
    the journal is not the one the session's newest link was made with (an entry changed,
    taken out, moved or added outside chouette) or where it begins with a restore (an
    export does not carry the journal: what the event did there before is not in it)."""
    if session.id not in book.forgotten:  # (as the command began: before it took any back)
        refuse_unfit_journal(book, session)
    newest = book.actions(session, limit=1)
    if newest and newest[0].kind == RESTORED:
        raise ChouetteError(
            said(
                "what the event did at {session} before it was restored from an export is "
                "not in this ledger's journal (an export does not carry it): event undo "
                "cannot take it back; nothing was taken back",
                session=session.name,
            )
        )
    return newest


def _drop_fee(book: Ledger, info: EventInfo, charge_id: int | None) -> None:
    """Take back an entry's fee (or a prize) in the purse, and its note in the purse's
    journal."""
    if charge_id is None:
        return
    _fit_journal(book, info.purse)
    noted = [a for a in book.actions(info.purse, kind="charge") if a.detail.get("id") == charge_id]
    if not noted:
        raise ChouetteError(
            said(
                "the journal of {purse} does not hold the charge the event booked there "
                "(restored from an export, or taken out): event undo cannot take it back; "
                "nothing was taken back",
                purse=info.purse.name,
            )
        )
    book.drop_charge(charge_id)
    for action in noted:
        book.forget_action(action)


def _drop_tables(book: Ledger, session_ids: Sequence[int]) -> None:
    """Take back the tables a draw made, if nothing was done at them."""
    for session_id in session_ids:
        session = book.session_by_id(session_id, lock=True)
        if session is None:
            book.drop_tournament_table(session_id)
            continue
        if _fit_journal(book, session) or book.booked_anything(session) is not None:
            raise ChouetteError(
                said(
                    "something was done at {table} since its draw: undo it there first "
                    "(chouette --session {table} undo)",
                    table=session.name,
                )
            )
        book.drop_tournament_table(session_id)
        book.drop_session(session)


# ---------------------------------------------------------------- standings


def standings(
    book: Ledger, info: EventInfo, known: Mapping[int, SessionInfo] | None = None
) -> Standings:
    """The event as it stands: every bank live from its table (``known``: tables' sessions
    by id as they stand now, read already; the others are read)."""
    state, actions = state_of(book, info)
    live: dict[str, int] = {}
    tables: list[tuple[str, tuple[str, ...]]] = []
    where: dict[str, str] = {}
    if state.drawn is not None:
        sessions = _level_tables(book, info, state.level, known=known)
        live = _table_banks(info, state, sessions)
        for session, seats in zip(sessions, state.drawn.tables, strict=True):
            tables.append((session.name, session.line.order))
            where.update((player, session.name) for player in seats)
    players = []
    for name in state.entered:
        out = state.out.get(name)
        bank = 0 if out is not None else live.get(name, state.banks[name])
        players.append(Seat(name, bank, where.get(name), out, state.entries[name]))
    started = _level_started(state, actions)
    minutes = info.rules.minutes
    return Standings(
        info.name,
        state,
        tuple(tables),
        tuple(sorted(players, key=lambda p: (p.out, -p.bank))),
        started,
        None if started is None else level_ends(started, minutes),
        None if started is None or state.ended else seconds_left(started, minutes, book.now),
        undone_draws(actions),
    )


def level_in_play(book: Ledger, info: EventInfo) -> list[int]:
    """The session ids of the tables of the latest level drawn (none before the first
    draw), in order: what the room shows and the keeper's page runs."""
    tables = [t for t in book.tournament_tables(info.id) if t.level > 0]
    last = max((t.level for t in tables), default=0)
    return [t.session_id for t in sorted(tables, key=lambda t: t.number) if t.level == last]


def tables_in_play(book: Ledger, info: EventInfo) -> list[str]:
    """The names of the tables of :func:`level_in_play`, in order."""
    found = (book.session_by_id(session_id) for session_id in level_in_play(book, info))
    return [session.name for session in found if session is not None]


def changes(book: Ledger, info: EventInfo) -> tuple[object, ...]:
    """What a live page of the event watches, as one comparable value: every step of its
    journal (what it is and when), its tables, and the last link of each one's chain (which
    grows with every change there, :meth:`db.ledger.Ledger.chain_heads`). Three small
    reads, however many tables."""
    steps = tuple((a.id, a.kind, a.at) for a in book.steps(info.id))
    tables = book.tournament_tables(info.id)
    heads = book.chain_heads([t.session_id for t in tables])
    return (info.name, steps, tuple(tables), tuple(sorted(heads.items())))


def reentries(standings: Standings) -> tuple[str, ...]:
    """Who may re-enter now (:func:`chouette.event.reentry_problem`), in the standings'
    order."""
    state = standings.state
    return tuple(
        p.name
        for p in standings.players
        if rules_of_events.reentry_problem(state, p.name, p.bank if p.table else None) is None
    )


def _level_started(state: EventState, actions: Sequence[Action]) -> datetime | None:
    """When the level in play was drawn (its clock starts then), or None."""
    if state.drawn is None:
        return None
    drawn_at = [a.at for a in actions if a.kind in ("draw", "next")]
    return drawn_at[-1] if drawn_at else None


# ---------------------------------------------------------------- the doors' guard


def check_open(book: Ledger, session: SessionInfo, doing: str = "play") -> bool:
    """Refuse what the event does not allow at one of its sessions (``doing``: ``play`` a
    game or book one, ``line`` change the line, ``undo``, ``split``, ``delete``,
    ``rename``): nothing at a table whose level is over, no game at the purse, no split of a
    table, no deleting either, no new name for the purse (one look-up by the session's id).
    Whether the session is an event's (at its table a game starts even when nobody seated
    can cover the level's starting cube: at a high level nobody may, and everyone plays all
    in)."""
    found = book.tournament_of(session.id)
    if found is None:
        return False
    event, table = found
    if doing in ("split", "delete"):
        raise ChouetteError(
            said(
                "{session} is a session of the event {event}: its tables are drawn, not split "
                "or deleted (chouette event undo takes a draw back)",
                session=session.name,
                event=event,
            )
        )
    if doing == "rename":  # a table's name is its own; the purse's is the event's
        if table.level == 0:
            raise ChouetteError(
                said(
                    "{session} is the purse of the event {event}: it keeps the event's name "
                    "(an export restores the event by it)",
                    session=session.name,
                    event=event,
                )
            )
        return True
    if table.level == 0:
        if doing in ("play", "line"):
            raise ChouetteError(
                said(
                    "{session} is the purse of the event {event}: its games are played at its "
                    "tables",
                    session=session.name,
                    event=event,
                )
            )
        return True
    if table.closed:
        raise ChouetteError(
            said(
                "{session} is a table of level {level} of the event {event}, which is over: "
                "nothing more is played or changed there (chouette event undo opens it "
                "again)",
                session=session.name,
                level=table.level,
                event=event,
            )
        )
    return True


def reentry_of(book: Ledger, session: SessionInfo) -> Reentry:
    """How a player busted at ``session`` gets back in (the table's kind): ``bank`` at a
    session of no event, else as the event's re-entries allow at the table's level."""
    found = book.tournament_of(session.id)
    if found is None or found[1].level == 0:
        return "bank"
    terms = next(t.terms for t in book.tournaments() if t.name == found[0])
    return reentry_at(terms, found[1].level)


def reentry_at(terms: Mapping[str, Any], level: int) -> Reentry:
    """:func:`chouette.event.reentry_at` of an event's stored terms."""
    return rules_of_events.reentry_at(EventRules.from_dict(terms), level)


def check_line_act(book: Ledger, session: SessionInfo, act: Sequence[str]) -> None:
    """At a table of an event, a new player's seat or bank comes from the event (``event
    enter``, ``event reenter``), never from ``join`` or ``bank``: they would make points the
    level's banks do not hold."""
    if not act or act[0] not in ("join", "bank"):
        return
    found = book.tournament_of(session.id)
    if found is None:
        return
    event, _table = found
    if act[0] == "bank":
        raise ChouetteError(
            said(
                "{session} is a table of the event {event}: a bank is set anew by a re-entry "
                "(chouette event reenter NAME)",
                session=session.name,
                event=event,
            )
        )
    name = act[1] if len(act) > 1 else ""
    if name in dict(session.line.banks):  # (back at the table they left)
        return
    raise ChouetteError(
        said(
            "{session} is a table of the event {event}: a player joins it by entering the "
            "event (chouette event enter NAME)",
            session=session.name,
            event=event,
        )
    )


def check_undo(book: Ledger, session: SessionInfo, action: Action | None) -> None:
    """A table's (or the purse's) ``undo`` does not take back what the event did there."""
    check_open(book, session, "undo")
    if action is not None and "event" in action.detail:
        raise ChouetteError(
            said(
                "the last thing done to {session} was done by the event {event}: chouette "
                "event undo takes it back",
                session=session.name,
                event=action.detail["event"],
            )
        )


# ---------------------------------------------------------------- chouette check


def event_problems(book: Ledger) -> list[str]:
    """What is wrong with the ledger's events, each named: a journal that does not replay,
    a draw its seed does not draw again, a closed table whose banks are not those its level
    closed with, the banks of the level in play not adding up to those carried into it, a
    session of a stake of 0 that is no event's table."""
    problems: list[str] = points_only_problems(book)
    for found in book.tournaments():
        try:
            problems += [str(p) for p in chain_problems(book, found)]
            problems += [str(p) for p in _problems(book, _info(book, found))]
        except (ChouetteError, KeyError, TypeError, ValueError, IndexError) as err:
            problems.append(
                str(
                    said(
                        "the event {event} cannot be read: {reason}",
                        event=found.name,
                        reason=reason_of(err, repr),
                    )
                )
            )
    return problems


def event_notes(book: Ledger) -> list[Said]:
    """What ``check`` notes of the ledger's events without calling it a problem: every draw
    taken back and drawn again (the seed of each is on the record: anyone can see a level
    was drawn twice, and draw both again)."""
    notes: list[Said] = []
    for found in book.tournaments():
        try:
            notes += [u.said(found.name) for u in undone_draws(book.steps(found.id))]
        except (KeyError, TypeError, ValueError):
            continue  # (a damaged step: event_problems names it)
    return notes


def _problems(book: Ledger, info: EventInfo) -> list[Said]:
    problems: list[Said] = []
    state = rules_of_events.new_event(info.name, info.rules)
    for action in book.steps(info.id):
        for step in _steps(action):
            if isinstance(step, Drawn):
                again = rules_of_events.draw(state, step.seed, _dice(step.seed))
                if again != step:
                    problems.append(
                        said(
                            "level {level} of {event}: seed {seed} draws other tables than "
                            "the journal holds",
                            level=state.level,
                            event=info.name,
                            seed=step.seed,
                        )
                    )
            closing = step.banks if isinstance(step, Closed | Ended) else None
            if closing is not None and state.drawn is not None:
                now = _table_banks(info, state, _level_tables(book, info, state.level))
                moved = sorted(p for p in now if now[p] != closing.get(p))
                if moved:
                    problems.append(
                        said(
                            "level {level} of {event} closed with banks its tables no longer "
                            "hold: {players}",
                            level=state.level,
                            event=info.name,
                            players=", ".join(moved),
                        )
                    )
            dice = _dice(step.seed) if isinstance(step, Ended) and step.seed is not None else None
            try:
                state = rules_of_events.apply(state, step, dice)
            except ChouetteError as err:
                problems.append(
                    said(
                        "the journal of {event} does not replay: {reason}",
                        event=info.name,
                        reason=err.said,
                    )
                )
                return problems
    if state.drawn is not None:
        tables = _level_tables(book, info, state.level)
        problem = rules_of_events.bank_problem(state, _table_banks(info, state, tables))
        if problem is not None:
            problems.append(said("{event}: {problem}", event=info.name, problem=problem))
    return problems + _money_problems(book, info, state)


def _money_problems(book: Ledger, info: EventInfo, state: EventState) -> list[Said]:
    """The money the event booked in its purse is the money its terms and journal make:
    each entry's and re-entry's fee, and the end's prizes."""
    rules, purse = info.rules, info.purse
    booked = {c.id: c.charge for c in book.charges(purse)}
    problems: list[Said] = []
    for action in book.steps(info.id):
        detail = action.detail
        if action.kind in ("enter", "reenter"):
            players = detail["players"] if action.kind == "enter" else [detail["player"]]
            debtors = [p for p in players if p != rules.organiser] if rules.entry else []
            made = booked.get(detail["charge"]) if detail["charge"] is not None else None
            found = None if made is None else (made.kind, made.to, made.shares)
            wanted = ("fee", rules.organiser, tuple((p, rules.entry) for p in debtors))
            if found != (wanted if debtors else None):
                problems.append(
                    said(
                        "the entry fee {event} booked for {players} in its purse {purse} is "
                        "not the entry its terms charge ({amount} each)",
                        event=info.name,
                        players=", ".join(players),
                        purse=purse.name,
                        amount=Money(rules.entry),
                    )
                )
        elif action.kind == "end":
            prizes = [booked.get(c) for c in detail["charges"]]
            got = [
                (c.to, c.cents)
                for c in prizes
                if c is not None and c.kind == "prize" and c.shares == ((rules.organiser, c.cents),)
            ]
            wanted_prizes = [
                (p.name, p.cents)
                for p in state.final or ()
                if p.cents and p.name != rules.organiser
            ]
            if len(got) != len(prizes) or got != wanted_prizes:
                problems.append(
                    said(
                        "the prizes {event} booked in its purse {purse} are not the payouts its "
                        "terms and ranking make: {booked} booked; {made} made",
                        event=info.name,
                        purse=purse.name,
                        booked=_paid(got),
                        made=_paid(wanted_prizes),
                    )
                )
    return problems


def _paid(prizes: Sequence[tuple[str, Cents]]) -> Sayable:
    """Prizes in words: ``hal 90.00, cat 54.00`` (none: ``nothing``)."""
    if not prizes:
        return said("nothing")
    return joined(said("{player} {amount}", player=p, amount=Money(c)) for p, c in prizes)


def _table_banks(
    info: EventInfo, state: EventState, sessions: Sequence[SessionInfo]
) -> dict[str, int]:
    """Each seated player's bank at their table of the level in play (``sessions``, in
    order), as it stands."""
    assert state.drawn is not None
    banks = {}
    for session, seats in zip(sessions, state.drawn.tables, strict=True):
        for player in seats:
            bank = session.line.bank(player)
            banks[player] = info.rules.bank if bank is None else bank
    return banks


# ---------------------------------------------------------------- export and restore

#: Where a step's detail names a session (by its id in the ledger, its name in an export)
#: and a charge of the purse (its id; its place among the purse's charges in an export).
_SESSION_KEYS = {
    "reenter": ("session",),
    "draw": ("sessions",),
    "next": ("closed",),
    "end": ("closed",),
}
_CHARGE_KEYS = {"enter": ("charge",), "reenter": ("charge",), "end": ("charges",)}


def _mapped(
    kind: str,
    detail: Mapping[str, Any],
    session: Callable[[Any], Any],
    charge: Callable[[Any], Any],
) -> dict[str, Any]:
    """A step's detail with its sessions and charges named by ``session`` and ``charge``."""

    def each(value: Any, how: Callable[[Any], Any]) -> Any:
        if value is None:
            return None
        return [how(v) for v in value] if isinstance(value, list) else how(value)

    out = dict(detail)
    for key in _SESSION_KEYS.get(kind, ()):
        out[key] = each(out.get(key), session)
    for key in _CHARGE_KEYS.get(kind, ()):
        out[key] = each(out.get(key), charge)
    if kind == "enter":
        out["seated"] = [[player, session(table)] for player, table in detail["seated"]]
    if kind == "next":
        inner = dict(detail["draw"])
        inner["sessions"] = each(inner.get("sessions"), session)
        out["draw"] = inner
    return out


def export_item(book: Ledger, found: Tournament, names: Mapping[int, str]) -> dict[str, Any]:
    """An event as ``export`` writes it: its terms, purse, tables and journal, each session
    by its name and each charge by its place among the purse's charges."""
    charges = {c.id: i for i, c in enumerate(book.charges(_info(book, found).purse))}
    tables = book.tournament_tables(found.id)
    return {
        "kind": "event",
        "name": found.name,
        "terms": found.terms,
        "purse": names[found.purse_id],
        "created_at": found.created_at.isoformat(),
        "tables": [[names[t.session_id], t.level, t.number, t.closed] for t in tables],
        "digest": found.digest,
        "steps": [
            {
                "kind": step.kind,
                "at": step.at.isoformat(),
                "detail": _mapped(step.kind, step.detail, names.__getitem__, charges.__getitem__),
                "digest": digest,
            }
            for step, digest in zip(book.steps(found.id), book.step_digests(found.id), strict=True)
        ],
    }


def restore_item(book: Ledger, item: Mapping[str, Any], at: Callable[[Any], datetime]) -> None:
    """An exported event, its sessions and the purse's charges restored before it: its
    journal must replay (each draw what its seed draws, each level's banks adding up)."""
    rules = EventRules.from_dict(item["terms"])
    name = check_session_name(str(item["name"]))
    purse = book.session(str(item["purse"]))
    if purse.name != name:
        raise ChouetteError(said("the purse of {event} is a session of its name", event=name))
    ids = {s.name: s.id for s in book.all_sessions()}
    charges = [c.id for c in book.charges(purse)]

    def session(value: Any) -> int:
        if value not in ids:
            raise ChouetteError(said("it names a session that is not there: {name!r}", name=value))
        return ids[value]

    def charge(value: Any) -> int:
        if not isinstance(value, int) or not 0 <= value < len(charges):
            raise ChouetteError(said("it names a charge of its purse that is not there"))
        return charges[value]

    created = at(item["created_at"])
    head = _head(name, rules.to_dict(), created)
    if item.get("digest", head) != head:
        raise ChouetteError(_unfit_terms(name))
    tournament_id = book.create_tournament(name, rules.to_dict(), purse, at=created, digest=head)
    for table, level, number, closed in item["tables"]:
        if level == 0:
            continue  # (the purse's own row, made with the event)
        book.add_tournament_tables(tournament_id, [(session(table), level, number)], closed=closed)
    info = _info(book, book.tournaments()[-1])
    portable = _places(book, info)
    previous = head
    for number, step in enumerate(item["steps"], start=1):
        kind, when = step["kind"], at(step["at"])
        detail = _mapped(kind, step["detail"], session, charge)
        previous = event_step(previous, kind, portable(kind, detail), _iso(when))
        if step.get("digest", previous) != previous:  # (an export before schema 21 has none)
            raise ChouetteError(_unfit_step(number, name, kind, when))
        book.add_step(tournament_id, kind, detail, at=when, digest=previous)
    problems = _problems(book, info)
    if problems:
        raise ChouetteError(problems[0])


def points_only_problems(book: Ledger) -> list[str]:
    """A session of a stake of 0 that is no table of an event (only an event's tables play
    for points alone)."""
    problems = []
    for info in book.all_sessions():
        if info.stake != 0:
            continue
        found = book.tournament_of(info.id)
        if found is None or found[1].level == 0:
            problems.append(
                str(
                    said(
                        "the session {session} has a stake of 0, and is no table of an event",
                        session=info.name,
                    )
                )
            )
    return problems
