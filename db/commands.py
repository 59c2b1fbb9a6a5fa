"""What the commands do to the ledger: play an event, record games, change the line, pay,
undo. The CLI (``cli.py``) and the pages (``web/``) call the same ones. Each takes the
:class:`~db.ledger.Ledger` of one transaction, asks the rules in ``chouette/`` and books
through the ledger's one writer per fact; a refusal raises a
:class:`~chouette.errors.ChouetteError` and the transaction writes nothing.

"Action" means one thing across the code: a thing done to a session, as its journal keeps
it (:class:`db.values.Action`: what ``log`` lists and ``undo`` takes back). A command here
makes one action; a press on the page is a command.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from chouette import words
from chouette.card import ClubPreset, check_accept, names_text
from chouette.chain import RESTORED
from chouette.costs import Charge, check_charge
from chouette.errors import ChouetteError, LimitError
from chouette.exposure import past_credit
from chouette.game import Answer, Event, Game, apply_all, check_game, start
from chouette.line import (
    Line,
    check_between_games,
    check_covered,
    check_new_session_name,
    normal_name,
    set_credit,
)
from chouette.line import join as join_line
from chouette.line import leave as leave_line
from chouette.line import sit_in as sit_in_line
from chouette.line import sit_out as sit_out_line
from chouette.line import split as split_line
from chouette.money import Advance, Cents, check_new_stake, check_payment
from chouette.names import as_known, match, resolve
from chouette.outcome import Outcome, settle_game
from chouette.payments import Account, check_holder, check_number
from chouette.presets import check_preset_name, preset_key
from chouette.proposals import Proposal, check_answer, check_waiting
from chouette.proposals import check_payment as check_proposed_payment
from chouette.record import Record, event_to_json, parse_event, play_record
from chouette.report import Undone, joined_text
from chouette.rules import EDITION, HouseRules
from chouette.session import LiveGame, SessionInfo
from chouette.settlement import settle
from chouette.stop import check_not_ended, stop_state
from chouette.text import check_note
from chouette.words import Money, Said, Sayable, joined, said, said_n
from db.amending import undo_amend
from db.codec import (
    charge_said,
    event_from_body,
    extras_to_detail,
    iso,
    line_from_dict,
    line_from_json,
    line_to_dict,
    said_detail,
    said_of,
)
from db.events import check_line_act, check_open, check_undo, reentry_of
from db.iban import checked_iban
from db.journal import check_entry, entry_name, entry_problem, refuse_unfit_journal
from db.ledger import Ledger
from db.names import player_names
from db.positions import undo_position
from db.values import Action, Charged, Finished, Paid, Played, Proposed, StoredPlayer

# ---------------------------------------------------------------- the game in progress


def play(
    book: Ledger,
    info: SessionInfo,
    events: Sequence[Event],
    expect: int | None = None,
    issued_at: datetime | None = None,
    *,
    live: LiveGame | None = None,
) -> Played:
    """Apply one command's events to the game in progress (``live``, if the command read it
    already in this transaction) and book the game if it ends.

    ``expect``: the game the command is for (refused if another is current).
    ``issued_at``: when the command was given; if no game is in progress and the last one
    ended after that moment, another terminal ended the game this command was meant for,
    and it is refused rather than starting a new game."""
    if live is None:
        live = book.live(info)
    if live.game is None and issued_at is not None:
        ended = book.ended_at(info, live.number - 1)
        if ended is not None and ended > issued_at:
            raise ChouetteError(
                said(
                    "game {ended} was ended by another command after this one was given: "
                    "nothing written (give the command again to start game {number})",
                    ended=live.number - 1,
                    number=live.number,
                )
            )
    if expect is not None and expect != live.number:
        if expect < live.number:
            raise ChouetteError(
                said(
                    "game {expected} is over, and game {number} is the current game: nothing "
                    "written (--game {number} to act on it)",
                    expected=expect,
                    number=live.number,
                )
            )
        if live.game is not None:
            raise ChouetteError(
                said(
                    "there is no game {expected} yet: game {number} is in progress",
                    expected=expect,
                    number=live.number,
                )
            )
        raise ChouetteError(
            said(
                "there is no game {expected} yet: game {number} is the next",
                expected=expect,
                number=live.number,
            )
        )
    stop = book.stop(info, live.number, in_progress=live.game is not None)
    if live.game is None:
        check_not_ended(stop, live.number)
        if not check_open(book, info):  # (refused at a table of a level that is over)
            check_covered(info.line, info.rules.starting_cube)  # table stakes: a box who can pay
    before = live.game or start(info.line, info.rules, live.carry)
    done = apply_all(before, events)
    game, applied = done.game, done.events
    notices: tuple[Sayable, ...] = tuple(said("{notice}.", notice=why) for _, why in done.ignored)
    if not applied:
        return Played(info, live.number, game, None, notices)
    check_game(game, info.stakes(game.players))
    notices += _credit_notices(book, info, before, game, applied)
    if live.game is None and stop is not None and stop.last_round:
        notices += (said("{notice}.", notice=stop.told(live.number)),)
    game_id = live.row_id
    if game_id is None:
        game_id = book.start_game(info, live.number, info.line)
    first = len(game.events) - len(applied)
    book.add_events(game_id, first, applied)
    book.journal(
        info,
        "events",
        {
            "game": live.number,
            "game_id": game_id,
            "first": first,
            "events": [event_to_json(e) for e in applied],
            "line": line_to_dict(info.line),  # the line before: an end moves it
        },
    )
    outcome = None
    if game.over:
        outcome = settle_game(game, info.stakes(game.players), reentry_of(book, info))
        book.book_games([finished(info, live.number, game, outcome, book, row_id=game_id)])
        info = replace(info, line=outcome.next_line)
        if stop is not None and (stop.last_round or stop.last == live.number):
            stopped = replace(stop, ended=True, last=live.number)
            notices += (said("{notice}.", notice=stopped.told(live.number)),)
    return Played(info, live.number, game, outcome, notices)


def _credit_notices(
    book: Ledger, info: SessionInfo, before: Game, after: Game, events: tuple[Event, ...]
) -> tuple[Sayable, ...]:
    """The players ``events`` would take past their credit (house rule ``credit-rule``):
    refused under ``refuse`` (nothing written), said under ``warn``."""
    credits = dict(info.line.credits)
    if not credits:
        return ()
    balances = {p: cents for p, (_points, cents) in book.totals(info).items()}
    what = joined([e.describe() for e in events], "; ")
    past = past_credit(before, after, events, info.stakes(after.players), balances, credits)
    if past and info.rules.credit_rule == "refuse":
        raise ChouetteError(
            said(
                "{refused} (house rule credit-rule refuse): nothing written",
                refused=past[0].told(what),
            )
        )
    return tuple(said("{warned} (credit-rule warn).", warned=p.told(what)) for p in past)


def finished(
    info: SessionInfo,
    number: int,
    game: Game,
    outcome: Outcome,
    book: Ledger,
    *,
    row_id: int | None = None,
) -> Finished:
    """A finished chouette game as the ledger books it."""
    ended = book.clock() if row_id is not None else book.now
    return Finished(
        session_id=info.id,
        number=number,
        kind="chouette",
        line_before=game.start_line,
        points=outcome.points,
        cents=outcome.cents,
        started_at=book.now,
        ended_at=ended,
        line_after=outcome.next_line,
        events=() if row_id is not None else game.events,
        box=game.box,
        pairs=outcome.pairs,
        detail=extras_to_detail(outcome.extras),
        row_id=row_id,
    )


# ---------------------------------------------------------------- records


def record(
    book: Ledger, records: Sequence[tuple[Record, Sayable]], default: str | None
) -> list[Played]:
    """Book chouette game records in order, each on the line the one before it left
    (``default``: the session ``--session`` names, already resolved).

    The games are played and settled in memory first; then the ledger books them all in
    a handful of set-based writes, however many there are."""
    ids: dict[str | None, int] = {}  # each name a record gives (None: the default), resolved
    infos: dict[int, SessionInfo] = {}  # by the session's id: two names may be one session
    starts: dict[int, SessionInfo] = {}  # each session as the records found it
    numbers: dict[int, int] = {}
    carries: dict[int, int | None] = {}  # what each session's last game carried over
    played: list[Played] = []
    for item, where in records:
        if (
            item.session is not None
            and default is not None
            and normal_name(item.session) != default
        ):
            raise ChouetteError(
                said(
                    "{where}: its 'session' is {session}, but --session names {default}: leave "
                    "'session' out or make the two agree",
                    where=where,
                    session=item.session,
                    default=default,
                )
            )
        name = normal_name(item.session) if item.session is not None else default
        if name not in ids:
            info = book.session(name, lock=True)
            check_open(book, info)
            ids[name] = info.id
            if info.id not in infos:
                live = book.live(info)
                if live.started:
                    raise ChouetteError(
                        said(
                            "{where}: game {number} is in progress in {session}: finish or "
                            "undo it before recording games",
                            where=where,
                            number=live.number,
                            session=info.name,
                        )
                    )
                infos[info.id], numbers[info.id], starts[info.id] = info, live.number, info
                carries[info.id] = live.carry
        key = ids[name]
        info = infos[key]
        if info.rules.rounds is not None or info.rules.until is not None:
            booked = [(p.number, book.now) for p in played if p.session.id == key]
            state = stop_state(
                info.rules,
                numbers[key],
                [*book.game_starts(info), *booked],
                book.now,
                in_progress=False,
            )
            try:
                check_not_ended(state, numbers[key])
            except ChouetteError as err:
                raise ChouetteError(
                    said("{where}: {reason}", where=where, reason=err.said)
                ) from None
        game, notices = play_record(item, info.line, info.rules, where, carries[key])
        if carries[key] is not None:
            carries[key] = game.carried_out
        try:
            check_game(game, info.stakes(game.players))
        except LimitError as err:
            raise LimitError(said("{where}: {reason}", where=where, reason=err.said)) from None
        outcome = settle_game(game, info.stakes(game.players), reentry_of(book, info))
        info = infos[key] = replace(info, line=outcome.next_line)
        played.append(Played(info, numbers[key], game, outcome, tuple(notices)))
        numbers[key] += 1
    book.book_games(
        [
            finished(p.session, p.number, p.game, p.outcome, book)
            for p in played
            if p.outcome is not None
        ]
    )
    for before in starts.values():
        numbers_booked = [p.number for p in played if p.session.id == before.id]
        book.journal(
            before,
            "record",
            {
                "first": min(numbers_booked),
                "last": max(numbers_booked),
                "line": line_to_dict(before.line),
            },
        )
    return played


# ---------------------------------------------------------------- the line


def change_line(
    book: Ledger,
    info: SessionInfo,
    change: Callable[[Line], Line],
    done: Sayable,
    **noted: Any,
) -> SessionInfo:
    """A line changed between games (join, leave, sit out, sit in); ``said`` is what was
    done, as ``undo`` and ``log`` say it (``cat sits out``); ``noted``: what else taking it
    back needs."""
    live = book.live(info)
    check_between_games(live.number if live.started else None)
    check_open(book, info, "line")
    check_line_act(book, info, noted.get("act") or ())
    line = change(info.line)
    book.journal(info, "line", {**said_detail(done), "line": line_to_dict(info.line), **noted})
    return book.save_line(info, line)


#: The changes of a seated player's place between games, and what the scorer says of each.
SEAT_CHANGES = {"leave": "leaves", "sit-out": "sits out", "sit-in": "sits in"}
#: The journal's entries between games that play no game: a sit-out before them is undone
#: by a sit-in as if it had never been.
NO_GAME = frozenset({"line", "payment", "rename", "accept"})


def change_seat(book: Ledger, info: SessionInfo, act: str, name: str) -> SessionInfo:
    """``name`` (as the line writes them) leaves, sits out or sits in (``act``, a key of
    :data:`SEAT_CHANGES`), between games. A player who sits in with no game played since
    they sat out takes back the line as it was (:func:`chouette.line.sit_in`)."""
    rules = info.rules
    told = seat_change(act, name)
    redo = [act, name]  # how a correction of an earlier game makes the change again
    if act == "leave":
        return change_line(book, info, lambda line: leave_line(line, name, rules), told, act=redo)
    if act == "sit-out":
        return change_line(
            book, info, lambda line: sit_out_line(line, name, rules), told, sits_out=name, act=redo
        )
    before = _sat_out_from(book, info, name)
    return change_line(
        book, info, lambda line: sit_in_line(line, name, rules, before), told, act=redo
    )


def seat_change(act: str, name: str) -> Said:
    """What a change of seat (a key of :data:`SEAT_CHANGES`) says: ``cat sits out``."""
    if act == "leave":
        return said("{player} leaves", player=name)
    if act == "sit-out":
        return said("{player} sits out", player=name)
    return said("{player} sits in", player=name)


def _sat_out_from(book: Ledger, info: SessionInfo, name: str) -> Line | None:
    """The line before ``name`` sat out, if no game was played since; else None."""
    for action in book.actions(info):
        if action.kind == "line" and action.detail.get("sits_out") == name:
            return line_from_dict(action.detail["line"])
        if action.kind not in NO_GAME:
            return None
    return None


def join(
    book: Ledger,
    info: SessionInfo,
    typed: str,
    stake: Cents | None,
    credit: Cents | None = None,
    *,
    new: bool = False,
) -> tuple[SessionInfo, Said | None]:
    """A player who joins (or joins again) where the house rules seat a newcomer: with their
    own stake, if they play for one (the same as before, once they have played in the
    session). A name typed in another case is the player it means (BOB is bob: seated, which
    is refused, or back after leaving, their balance going on). A player new to the session
    is written as the ledger writes that person (:func:`chouette.names.as_known`: ``ZOË``
    is ``Zoë``; a name that only looks like a known player's is refused unless ``new``);
    what is said of it is returned with the session."""
    name = match(typed, [*info.line.order, *book.players(info)])
    spelled = None
    if name is None:
        found = as_known(typed, known_players(book), confirm="--new-player", new=new)
        name, spelled = found.name, found.said

    def change(line: Line) -> Line:
        joined = join_line(line, name, info.rules)
        return joined if credit is None else set_credit(joined, name, credit, info.rules)

    before = book.player(info, name)
    told: Sayable = joined_text(name, stake if stake is not None else before and before.stake)
    if credit is not None:
        told = said("{joined}, with a credit of {credit}", joined=told, credit=Money(credit))
    player = None if before is None else {"stake": before.stake, "joined_at": iso(before.joined_at)}
    act = ["join", name, *(["credit", str(credit)] if credit is not None else [])]
    info = change_line(book, info, change, told, player=name, before=player, act=act)
    if stake is not None:
        check_new_stake(
            name, info.name, stake, info.stake_of(name), has_played=book.has_played(info, name)
        )
    book.save_player(info, name, stake)
    if stake is not None:
        info = replace(info, player_stakes={**info.player_stakes, name: stake})
    return info, spelled


def known_players(book: Ledger) -> list[str]:
    """Every player's name the ledger holds, in any session, as first written."""
    return player_names(book.reads.statements)


def check_spellings(book: Ledger, names: Sequence[str], new: Iterable[str]) -> None:
    """A new session's players are written as the ledger writes them (``new``: the names
    given as someone else than a look-alike), checked again in the transaction that writes
    the session: a name the ledger came to write otherwise since it was read is refused."""
    known, others = known_players(book), set(new)
    for name in names:
        spelled = as_known(name, known, confirm="--new-player " + name, new=name in others)
        if spelled.name != name:
            raise ChouetteError(
                said(
                    "{typed} is written {name} in the ledger now: give the command again",
                    typed=name,
                    name=spelled.name,
                )
            )


def split(book: Ledger, info: SessionInfo, name: str) -> tuple[SessionInfo, SessionInfo]:
    """Split the table in two between games: the bottom of the line forms a new session
    ``name`` with the same stake and house rules, each mover at their own stake; balances
    stay where they were earned. Noted in both sessions' journals, so ``undo`` at either
    table takes it back while nothing has happened since at either. Returns both sessions."""
    live = book.live(info)
    check_between_games(live.number if live.started else None)
    check_open(book, info, "split")
    stay, go = split_line(info.line, info.rules)
    own = {p: info.player_stakes[p] for p in go.order if p in info.player_stakes}
    origin = book.origin(info)  # the same rules, from the same preset
    new = book.create_session(
        check_new_session_name(name),
        go,
        info.stake,
        info.rules,
        own,
        current=False,
        origin=origin if origin.known else None,
        night=info.night,  # a table of the same night
    )
    told = said(
        "the split of {session}: {players} to {table}",
        session=info.name,
        players=", ".join(go.order),
        table=new.name,
    )
    book.journal(
        info,
        "split",
        {**said_detail(told), "line": line_to_dict(info.line), "session": new.name, "id": new.id},
    )
    book.journal(new, "split", {**said_detail(told), "from": info.name, "from_id": info.id})
    return book.save_line(info, stay), new


# ---------------------------------------------------------------- the rules card


def accept_rules(book: Ledger, info: SessionInfo, players: Sequence[str]) -> list[str]:
    """``players`` (seated in the session, named as typed) accept its rules as they stand:
    a journal entry of who accepted which rules (and stake) when. Refused, naming them, for
    a player not in the line or one who accepted these rules already. The players, as the
    ledger names them."""
    names = [match(normal_name(p), info.line.order) or normal_name(p) for p in players]
    strangers = [p for p in names if p not in info.line.order]
    if strangers:
        raise ChouetteError(
            said_n(
                "{players} is not in the line of {session}: only a seated player accepts its rules",
                "{players} are not in the line of {session}: only a seated player accepts its "
                "rules",
                len(strangers),
                players=", ".join(strangers),
                session=info.name,
            )
        )
    check_accept(book.card(info), names)
    book.journal(
        info,
        "accept",
        {
            "players": names,
            "rules": info.rules.to_dict(),
            "stake_cents": info.stake,
            **said_detail(
                said("the acceptance of the rules by {players}", players=names_text(names))
            ),
        },
    )
    return names


def save_preset(book: Ledger, info: SessionInfo, name: str, *, replace: bool) -> ClubPreset:
    """The session's house rules kept as the club's own preset ``name``, for another
    evening (scored by this chouette's edition). Refused for a published preset's name, and
    for a name saved already unless ``replace``."""
    name = check_preset_name(name)
    saved = {preset_key(p.name): p for p in book.club_presets()}
    before = saved.get(preset_key(name))
    if before is not None and not replace:
        raise ChouetteError(
            said(
                "the club has a preset called {name} already (saved from {session}): "
                "--replace saves over it",
                name=before.name,
                session=before.saved_from,
            )
        )
    preset = ClubPreset(
        before.name if before is not None else name,
        replace_rules(info.rules),
        book.now,
        info.name,
    )
    book.save_preset(preset)
    return preset


def replace_rules(rules: HouseRules) -> HouseRules:
    """Rules as a preset keeps them: scored by this chouette's edition, without the evening's
    own stop (``--rounds``, ``--until``: each evening agrees its own)."""
    return replace(rules, edition=EDITION, rounds=None, until=None)


def forget_preset(book: Ledger, name: str) -> ClubPreset:
    """Forget the club's own preset ``name`` (sessions started from it keep their rules)."""
    saved = {preset_key(p.name): p for p in book.club_presets()}
    found = saved.get(preset_key(name))
    if found is None:
        known = ", ".join(p.name for p in saved.values())
        if known:
            raise ChouetteError(
                said(
                    "the club has no preset called {name} (its own: {known})",
                    name=name,
                    known=known,
                )
            )
        raise ChouetteError(said("the club has no preset called {name}", name=name))
    book.forget_preset(found.name)
    return found


# ---------------------------------------------------------------- money between players


def pay(
    book: Ledger,
    info: SessionInfo,
    payer: str,
    payee: str,
    cents: Cents,
    note: str,
    *,
    advance: bool = False,
) -> Advance:
    """A payment between two players of the session, booked so the debt disappears. One
    that is more than the payer owes the payee is refused unless it is meant (``advance``);
    what it is against the balances (:class:`chouette.money.Advance`) is returned."""
    check_payment(payer, payee, cents, set(book.players(info)), info.name)
    totals = book.totals(info)
    against = Advance(
        payer, payee, cents, totals.get(payer, (0, 0))[1], totals.get(payee, (0, 0))[1]
    )
    if against.over and not advance:
        raise ChouetteError(against.refusal())
    paid = Paid(info.id, payer, payee, cents, check_note(note), book.now)
    (payment_id,) = book.book_payments([paid])
    book.journal(info, "payment", {"id": payment_id, **said_detail(paid_said(paid))})
    return against


def paid_said(paid: Paid) -> Said:
    """A payment in a few words: ``bob paid ann 4.00``."""
    return said(
        "{payer} paid {payee} {amount}",
        payer=paid.payer,
        payee=paid.payee,
        amount=Money(paid.cents),
    )


def charge(book: Ledger, info: SessionInfo, made: Charge) -> Charge:
    """A fee or a shared cost (:mod:`chouette.costs`) among players of the session, booked
    as it moves the balances, and journalled (``undo`` takes it back whole)."""
    check_charge(made, book.player_names(info), info.name)
    charge_id = book.book_charge(Charged(info.id, made, book.now))
    book.journal(info, "charge", {"id": charge_id, **said_detail(charge_said(made))})
    return made


# ---------------------------------------------------------------- the sessions


def rename_session(book: Ledger, old: str, new: str) -> SessionInfo:
    """The session ``old`` is called ``new`` from now on (a journal entry: undo renames it
    back)."""
    info = book.session(normal_name(old), lock=True)
    check_open(book, info, "rename")
    name = check_new_session_name(new)
    if name == info.name:
        raise ChouetteError(
            said("{session} is called {name} already", session=info.name, name=name)
        )
    renamed = book.rename_session(info, name)
    book.journal(
        renamed,
        "rename",
        {
            **said_detail(said("the rename of {session} to {name}", session=info.name, name=name)),
            "from": info.name,
            "to": name,
        },
    )
    return renamed


def _booked_already(session: str, booked: str) -> Said:
    """The refusal to delete a session that has ``booked`` (:meth:`Ledger.booked_anything`)."""
    if booked == "a game":
        return said(
            "{session} has a game booked, and bookings are the ledger's record: undo them "
            "first (chouette --session {session} undo) to delete it",
            session=session,
        )
    if booked == "a payment":
        return said(
            "{session} has a payment booked, and bookings are the ledger's record: undo them "
            "first (chouette --session {session} undo) to delete it",
            session=session,
        )
    return said(
        "{session} has a fee or cost booked, and bookings are the ledger's record: undo them "
        "first (chouette --session {session} undo) to delete it",
        session=session,
    )


def delete_session(book: Ledger, name: str) -> SessionInfo:
    """Delete a session in which nothing is booked (no game, even one in progress, and no
    payment): its line, players and journal go with it. A session with bookings is the
    ledger's record: undo them first."""
    info = book.session(normal_name(name), lock=True)
    check_open(book, info, "delete")
    booked = book.booked_anything(info)
    if booked is not None:
        raise ChouetteError(_booked_already(info.name, booked))
    book.drop_session(info)
    return info


# ---------------------------------------------------------------- undo


def undo(book: Ledger, info: SessionInfo) -> Undone:
    """Take back the last thing done to the session, whatever it was: a command's events (a
    game's end included), a record of games, an import, a payment, a change of the line.
    What an older chouette did before it kept a journal is taken back as it used to be: the
    last event of the session's games, or the import that booked its last games. A journal
    that is not the one the session's newest link was made with is refused, nothing taken
    back (:func:`db.journal.refuse_unfit_journal`)."""
    journal = book.actions(info, limit=1)
    check_undo(book, info, journal[0] if journal else None)
    if not journal:
        refuse_unfit_journal(book, info)  # (its entries all taken out?)
        undone = _undo_unjournaled(book, info)  # (no entry to forget: the chain is told here)
        noted = f"undo: game {undone.number}" + (" (an import)" if undone.what == "import" else "")
        book.changed(info.id, noted, undone.number)
        return undone
    action = journal[0]
    if action.kind == RESTORED:
        raise ChouetteError(
            words.said(
                "what was done to {session} before it was restored from an export is not in "
                "this ledger's journal (an export does not carry it): undo cannot take it "
                "back; nothing was taken back",
                session=info.name,
            )
        )
    check_entry(book, info, action)  # a damaged entry is refused, named: nothing taken back
    refuse_unfit_journal(book, info)  # an entry edited, moved or taken out: the same
    done, detail = what(action), action.detail
    book.forget_action(action)
    # What undo says it took back is what it takes back, read from the ledger as it goes,
    # not the words the journal noted (its entries are chained: `check` finds one edited)
    if done.what == "events":
        game = book.stored_game(detail["game_id"])  # (games imported since follow it)
        bodies = book.event_bodies(game.id)[detail["first"] :]
        done = replace(
            done,
            number=game.number,
            events=tuple(event_from_body(body) for _, body in bodies),
            game_gone=detail["first"] == 0,
        )
        if game.over:
            book.reopen(info, game)
        book.drop_events(game.id, detail["first"])
    elif done.what in ("record", "import"):
        if detail["first"] is not None:  # an import may have booked no game
            book.drop_games(info, detail["first"], detail["last"])
        if done.what == "import":
            source = book.source_file(detail["sha256"])
            done = replace(done, file=done.file if source is None else source.name)
            book.forget_file(detail["sha256"])
    elif done.what == "payment":
        paid = next(p for p in book.payments(info) if p.id == detail["id"])
        done = replace(done, said=said("the payment: {payment}", payment=paid_said(paid)))
        book.drop_payment(detail["id"])
    elif done.what == "charge":
        charged = next(c for c in book.charges(info) if c.id == detail["id"])
        done = replace(done, said=_the_charge(charge_said(charged.charge)))
        book.drop_charge(detail["id"])
    elif done.what == "split":
        _undo_split(book, info, action)
        return done
    elif done.what == "rename":
        book.rename_session(info, detail["from"])
        return done
    elif done.what == "accept":  # the journal entry was all there was
        return done
    elif done.what == "amend":
        undo_amend(book, info, action)
    elif done.what == "position":
        undo_position(book, action)
    elif "player" in detail:  # a join: the player as they were (not one, or at their stake)
        before = detail["before"]
        book.restore_player(
            info,
            detail["player"],
            None
            if before is None
            else StoredPlayer(
                detail["player"], before["stake"], datetime.fromisoformat(before["joined_at"])
            ),
        )
    if "line" in detail:
        book.save_line(info, line_from_dict(detail["line"]))
    return done


def what(action: Action) -> Undone:
    """What a thing done to a session was, as ``undo`` and ``log`` say it."""
    detail = action.detail
    if action.kind == "events":
        return Undone(
            "events",
            detail["game"],
            events=tuple(
                parse_event(e, "a journaled event", allow_end=True) for e in detail["events"]
            ),
            game_gone=detail["first"] == 0,
        )
    if action.kind == "import":
        return Undone("import", detail["first"] or 0, last=detail["last"], file=detail["file"])
    if action.kind == "record":
        return Undone("record", detail["first"], last=detail["last"])
    kept = said_of(detail)
    if action.kind == "payment":
        return Undone("payment", said=said("the payment: {payment}", payment=kept))
    if action.kind == "charge":
        return Undone("charge", said=_the_charge(kept))
    if action.kind == "split":
        return Undone("split", said=kept)
    if action.kind == "rename":
        return Undone("rename", said=kept)
    if action.kind == "accept":
        return Undone("accept", said=kept)
    if action.kind == "amend":
        return Undone("amend", detail["game"], said=kept)
    if action.kind == "position":
        return Undone("position", detail["game"], said=kept)
    return Undone("line", said=kept)


def _the_charge(kept: Sayable) -> Sayable:
    """A charge's journal entry as ``undo`` names it: ``the fee: …``, ``the shared cost: …``
    (an older chouette's entry: its English)."""
    if isinstance(kept, Said) and kept.text == "fee: {charge}":
        return said("the fee: {charge}", **kept.named)
    if isinstance(kept, Said) and kept.text == "shared cost: {charge}":
        return said("the shared cost: {charge}", **kept.named)
    return f"the {kept}"


def undoable(book: Ledger, info: SessionInfo, live: LiveGame) -> bool:
    """Whether ``undo`` has something to take back: the last thing the journal holds; in a
    session played before the journal, an event of the game in progress, or the last game
    unless the line has changed since that game ended (the conditions of :func:`undo`; the
    tests hold the two together)."""
    newest = book.actions(info, limit=1)
    if newest:
        return newest[0].kind != RESTORED
    if live.game is not None:
        return True
    last = book.last_game(info)
    if last is None:
        return False
    if last.kind != "chouette" or last.line_after is None:
        return True
    return line_from_json(last.line_after) == info.line


def log(book: Ledger, info: SessionInfo, limit: int | None = None) -> list[tuple[datetime, Undone]]:
    """What ``undo`` would take back, newest first: when, and what (a damaged entry as
    damaged, named: ``undo`` refuses it)."""
    listed = []
    for action in book.actions(info, limit):
        problem = entry_problem(book, info, action)
        if problem is not None:
            damaged = said(
                "nothing: {entry} is damaged ({problem})",
                entry=entry_name(info, action),
                problem=problem,
            )
            listed.append((action.at, Undone("line", said=damaged)))
        else:
            listed.append((action.at, what(action)))
    return listed


def _undo_split(book: Ledger, info: SessionInfo, action: Action) -> None:
    """Take back a split (``action``, the newest thing done to ``info``, forgotten there
    already): the new table's session is gone and the first table's line is as it was, if
    nothing has happened at either table since; else refused, naming the table to undo at."""
    detail = action.detail
    if "from" in detail:  # undo given at the new table (found by id: it may be renamed)
        table = book.session_by_id(detail["from_id"], lock=True)
        if table is None:  # (sessions --delete)
            raise ChouetteError(
                said(
                    "the split cannot be taken back: {table}, the table {session} was split "
                    "from, is deleted",
                    table=detail["from"],
                    session=info.name,
                )
            )
        first, new = table, info
        found = book.actions(first, limit=1)
        if not found or found[0].kind != "split" or found[0].detail.get("id") != new.id:
            raise ChouetteError(_changed_since(first.name))
        entry, other = found[0], found[0]
        refuse_unfit_journal(book, first)  # (its entry is taken back too)
    else:
        other_table = book.session_by_id(detail["id"], lock=True)
        if other_table is None:  # the new table was deleted (nothing booked): its players
            book.save_line(info, line_from_dict(detail["line"]))  # come back all the same
            return
        first, new = info, other_table
        found = book.actions(new, limit=2)
        if len(found) != 1 or found[0].kind != "split":
            raise ChouetteError(_changed_since(new.name))
        entry, other = action, found[0]
    book.forget_action(other)
    book.save_line(first, line_from_dict(entry.detail["line"]))
    book.drop_session(new)
    if book.current_name() == new.name:
        book.use(first.name)


def _changed_since(table: str) -> Said:
    return said(
        "the split cannot be taken back: something was done at {table} since (undo that "
        "first: chouette --session {table} undo)",
        table=table,
    )


def _undo_unjournaled(book: Ledger, info: SessionInfo) -> Undone:
    """Undo as an older chouette did it: the last event of the session's games, a game's
    end included, or the whole import that booked its last games."""
    live = book.live(info)
    if live.game is not None and live.row_id is not None:
        return _drop_last_event(book, live.row_id, live.number, live.game)
    last = book.last_game(info)
    if last is None:
        raise ChouetteError(
            said("nothing to undo in {session}: no game has been played", session=info.name)
        )
    if last.kind != "chouette":
        return _undo_import(book, info, last.number)
    if last.line_after is not None and line_from_json(last.line_after) != info.line:
        raise ChouetteError(  # (a change undo could take back would be in the journal)
            said(
                "the line has changed since game {number} ended, by a join, leave or sit-out "
                "made before chouette kept a journal of what was done: undo cannot take game "
                "{number} back",
                number=last.number,
            )
        )
    info = book.reopen(info, last)
    game = book.live(info).game
    assert game is not None
    return _drop_last_event(book, last.id, last.number, game)


def _undo_import(book: Ledger, info: SessionInfo, last: int) -> Undone:
    """Take back the import that booked the session's last game, ``last``: every game the
    file booked, their bookings and balances, and the memory of the file (so it can be
    imported again, into the right session)."""
    source = next((s for s in book.source_files(info) if s.last_game == last), None)
    if source is None or source.first_game is None:
        raise ChouetteError(
            said(
                "game {number} was imported by an older chouette that did not note which "
                "games each file booked: undo cannot take it back",
                number=last,
            )
        )
    book.drop_games(info, source.first_game, last)
    book.forget_file(source.sha256)
    return Undone("import", source.first_game, last=last, file=source.name)


def _drop_last_event(book: Ledger, game_id: int, number: int, game: Game) -> Undone:
    book.drop_events(game_id, len(game.events) - 1)
    return Undone("events", number, events=(game.events[-1],), game_gone=len(game.events) == 1)


# ---------------------------------------------------------------- accounts


def save_account(
    book: Ledger,
    typed: str,
    *,
    holder: str | None = None,
    iban: str | None = None,
    phone: str | None = None,
    swish: str | None = None,
) -> Account:
    """A player's account, the fields given changed and the others kept (empty text clears
    one). The player is one the ledger knows, in any session."""
    player = resolve(
        normal_name(typed), player_names(book.reads.statements), "has played in no session here"
    )
    account = book.accounts().get(player, Account(player))
    if holder is not None:
        account = replace(account, holder=check_holder(holder))
    if iban is not None:
        account = replace(account, iban=checked_iban(iban))
    if phone is not None:
        account = replace(account, phone=check_number(phone, said("phone number")))
    if swish is not None:
        account = replace(account, swish=check_number(swish, said("Swish number")))
    book.save_account(account)
    return account


# ---------------------------------------------------------------- a night's fees and costs


def night_charges(
    book: Ledger,
    night: str,
    make: Callable[[Sequence[tuple[str, Sequence[str]]]], list[tuple[str, Charge]]],
    creditor: str,
) -> tuple[str, list[tuple[SessionInfo, Charge]]]:
    """A fee or a cost for a whole night: ``make`` shares it among the players of the
    night's tables (:func:`chouette.costs.night_fee`, :func:`~chouette.costs.night_expense`);
    each table's part is booked and journalled in that table (``undo`` there takes it back).
    The ``creditor`` (the organiser, or who paid), if they never sat at a table, is one of
    its players from then on, owed its part."""
    name, found = book.reads.night(night)
    sessions = {info.name: book.session(info.name, lock=True) for info in found}
    tables = [(s, book.players(info)) for s, info in sessions.items()]
    booked = []
    for session, made in make(tables):
        info = sessions[session]
        if creditor not in book.player_names(info):
            book.save_player(info, creditor, None)
        booked.append((info, charge(book, info, made)))
    return name, booked


def known_player(book: Ledger, typed: str) -> str:
    """A player the ledger knows, in any session, as it writes them."""
    return resolve(
        normal_name(typed), player_names(book.reads.statements), "has played in no session here"
    )


# ---------------------------------------------------------------- the players' proposals


class NoLongerValid(ChouetteError):
    """A proposal the keeper approved that the game or the balances no longer allow: the
    door books nothing and records it refused with this reason
    (:func:`refuse_proposal`)."""

    def __init__(self, number: int, reason: Sayable) -> None:
        super().__init__(
            said(
                "proposal {number} no longer applies, so it is refused: {reason}",
                number=number,
                reason=reason,
            )
        )
        self.number = number
        self.reason = reason


@dataclass(frozen=True)
class Approved:
    """A proposal approved: what its line did (``played``: an answer; ``against``: a
    payment, against the balances)."""

    proposed: Proposed
    session: str
    played: Played | None = None
    before: Game | None = None
    against: Advance | None = None


def balances_now(book: Ledger, info: SessionInfo) -> dict[str, Cents]:
    """Each player's balance in the session as the settlement settles it."""
    return {player: cents for player, (_points, cents) in book.totals(info).items()}


def propose(book: Ledger, info: SessionInfo, proposal: Proposal) -> int:
    """A player's proposal (from their phone), checked by the rules against the game and
    the settlement as they stand, kept waiting for the keeper: its number. Refused past
    :data:`chouette.proposals.MOST_WAITING` of the player's waiting at once, and the same
    proposal twice."""
    waiting = book.proposals([info.id], state="waiting", player=proposal.player)
    if any(p.proposal == proposal for p in waiting):
        raise ChouetteError(
            said(
                "{player} proposed this already: it waits for the keeper",
                player=proposal.player,
            )
        )
    check_waiting(proposal.player, len(waiting))
    if proposal.act == "pay":
        check_proposed_payment(settle(balances_now(book, info)), proposal)
    else:
        live = book.live(info)
        check_answer(live.game, live.number, proposal)
    return book.add_proposal(info.id, proposal)


def waiting_proposal(book: Ledger, number: int) -> tuple[Proposed, SessionInfo]:
    """Proposal ``number``, held for this transaction, and its session; refused if there
    is none, or if the keeper answered it already (an approval is never run twice)."""
    found = book.proposals(number=number, lock=True)
    if not found:
        raise ChouetteError(said("there is no proposal {number}", number=number))
    (proposed,) = found
    if proposed.state != "waiting":
        if proposed.state == "approved":
            raise ChouetteError(
                said("proposal {number} was approved already: nothing written", number=number)
            )
        raise ChouetteError(
            said("proposal {number} was refused already: nothing written", number=number)
        )
    info = book.session_by_id(proposed.session_id, lock=True)
    if info is None:
        raise NoLongerValid(number, said("its session is gone"))
    return proposed, info


def approve_proposal(book: Ledger, number: int) -> Approved:
    """The keeper approves proposal ``number``: its line runs through the same use case as
    the command (:func:`play`, :func:`pay`), checked again against the game as it stands,
    in this transaction. A line no longer valid raises :class:`NoLongerValid` (nothing
    written: the door records the refusal)."""
    proposed, info = waiting_proposal(book, number)
    p = proposed.proposal
    done = Approved(proposed, info.name)
    try:
        if p.act == "pay":
            done = replace(done, against=pay(book, info, p.player, p.payee, p.cents, ""))
        else:
            live = book.live(info)
            check_answer(live.game, live.number, p)
            event = Answer(p.act, p.member)
            played = play(book, info, [event], p.game, live=live)
            done = replace(done, played=played, before=live.game)
    except NoLongerValid:
        raise
    except ChouetteError as err:
        raise NoLongerValid(number, err.said) from None
    book.decide_proposal(number, "approved")
    return done


def refuse_proposal(book: Ledger, number: int, reason: Sayable = "") -> Proposed:
    """Proposal ``number`` refused, with ``reason`` (the keeper's words, or why it no longer
    applies): its player's phone shows it."""
    try:
        proposed, _info = waiting_proposal(book, number)
    except NoLongerValid:
        (proposed,) = book.proposals(number=number)
    why = reason or said("refused by the keeper")
    book.decide_proposal(number, "refused", why)
    return replace(proposed, state="refused", reason=why)
