"""``chouette amend``: a past game's result corrected, the games after it played again, all
in one transaction, with a journal entry of its own that ``log`` lists and ``undo`` takes
back. The rules of it are :mod:`chouette.amend`'s; this reads the games and the journal and
books what they give.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chouette.amend import (
    Correction,
    GameStep,
    Replayed,
    SeatStep,
    Step,
    amended_events,
    play_again,
)
from chouette.errors import ChouetteError, RuleError
from chouette.game import CubeFix, End, Event, Game, check_game, replay
from chouette.line import Line, normal_name, partner_news
from chouette.money import Cents
from chouette.names import match
from chouette.outcome import Outcome, settle_game
from chouette.record import event_to_json, parse_event
from chouette.report import amended_lines
from chouette.session import SessionInfo
from chouette.text import check_note
from chouette.words import Sayable, said
from db.codec import (
    amended_from_detail,
    event_from_body,
    extras_to_detail,
    line_from_dict,
    line_from_json,
    line_to_dict,
    said_detail,
    said_of,
)
from db.events import check_open, reentry_of
from db.ledger import Ledger
from db.reads import no_game
from db.values import Action, Finished, StoredGame


@dataclass(frozen=True)
class Amended:
    """What a correction did: the session after it, the game and its ends, the games it
    booked again (the amended one first) and what each player's money moved by."""

    session: SessionInfo
    number: int
    correction: Correction
    games: tuple[Replayed, ...]
    moved: dict[str, Cents]
    line_before: Line

    @property
    def was(self) -> End:
        return self.correction.was

    @property
    def now(self) -> End:
        return self.correction.now

    @property
    def note(self) -> str:
        return self.correction.note

    @property
    def outcome(self) -> Outcome:
        """The amended game's outcome now."""
        found = self.games[0].outcome
        assert found is not None, "the amended game is over"
        return found

    def said(self) -> tuple[Sayable, list[Sayable]]:
        """What the command says, before and after the game's bookings now
        (:func:`chouette.report.amended_lines`)."""
        now = self.session
        line = now.line if now.line != self.line_before else None
        later = [r.number for r in self.games[1:]]
        cause = said("the correction of game {number} changed the line", number=self.number)
        partner = partner_news(self.line_before, now.line, now.rules, cause)
        return amended_lines(
            self.correction, self.number, self.outcome, later, self.moved, line, partner
        )


def amend(
    book: Ledger,
    info: SessionInfo,
    number: int,
    end: End | None,
    note: str,
    cubes: Mapping[str, int] | None = None,
) -> Amended:
    """Correct game ``number``: its board's end to ``end`` (None: kept) and the members'
    cubes in ``cubes`` (as the table agrees they were at the end), with the table's ``note``;
    every later game of the session is played again on the line the correction leaves.
    Refused, with nothing written, for a game that is not a finished chouette game, or when a
    later game or change of the line no longer fits (:class:`chouette.amend.AmendRefused`)."""
    note = check_note(note).strip()
    if not note:
        raise ChouetteError(
            said("say why the game is amended: --note TEXT (it stays on the record)")
        )
    check_open(book, info)  # (a table of a tournament's level that is over: refused)
    stored = book.stored_games(info, from_number=number)
    if not stored or stored[0].number != number:
        raise ChouetteError(no_game(number, info.name))
    target = stored[0]
    if target.kind != "chouette":
        raise ChouetteError(
            said(
                "game {number} is an imported engine game: its result is the file's (undo the "
                "import and import a corrected file)",
                number=number,
            )
        )
    if not target.over:
        raise ChouetteError(
            said(
                "game {number} is in progress: amend corrects a game that is over (end it, or "
                "undo its last event)",
                number=number,
            )
        )
    bodies, booked = book.reads.game_contents(info.id, number, stored[-1].number)
    events = tuple(event_from_body(body) for body in bodies[target.id])
    known = [*info.line.order, *book.players(info)]
    fixes = {_member(known, name): value for name, value in (cubes or {}).items()}
    new_events = amended_events(events, end, fixes, number)
    first = next(
        (i for i, (a, b) in enumerate(zip(events, new_events, strict=False)) if a != b),
        min(len(events), len(new_events)),
    )
    was, now = events[-1], new_events[-1]
    assert isinstance(was, End) and isinstance(now, End)
    line_before = line_from_json(target.line_before)
    try:  # the game itself, first: a cube corrected is a member's live at the end
        recorded = replay(line_before, info.rules, events[: len(events) - 1]).cubes
        replay(line_before, info.rules, new_events)
    except RuleError as err:
        raise ChouetteError(
            said("game {number}: {reason}", number=number, reason=err.said)
        ) from None
    corrected = []
    for member, value in fixes.items():
        if recorded[member].value == value and not _fixed(events, member):
            raise ChouetteError(
                said(
                    "{member}'s cube in game {number} was {value} already",
                    member=member,
                    number=number,
                    value=value,
                )
            )
        corrected.append((member, recorded[member].value, value))
    games = [g for g in stored if g.kind == "chouette"]
    played = {g.number: tuple(event_from_body(b) for b in bodies.get(g.id, [])) for g in games}
    steps = _steps(book, info, games, {**played, number: new_events})
    replayed, line = play_again(
        steps,
        info.rules,
        info.stakes,
        lambda game: check_game(game, info.stakes(game.players)),
        reentry_of(book, info),
    )
    by_number = {g.number: g for g in games}
    touched = [
        r
        for r in replayed
        if r.number == number or r.line_before != line_from_json(by_number[r.number].line_before)
    ]
    moved = _moved(touched, {r.number: booked.get(by_number[r.number].id, []) for r in touched})
    kept_ids = book.game_booking_ids([by_number[r.number].id for r in touched])
    book.replace_events(target.id, first, new_events[first:])
    correction = Correction(book.now, was, now, note, tuple(corrected))
    _book_again(book, info, touched, by_number, {number: correction})
    book.journal(
        info,
        "amend",
        {
            "game": number,
            "game_id": target.id,
            "first": first,
            "before": [event_to_json(e) for e in events[first:]],
            "was": event_to_json(was),
            "is": event_to_json(now),
            "note": note,
            **said_detail(
                said(
                    "the correction of game {number}: {correction}",
                    number=number,
                    correction=correction.said(),
                )
            ),
            "line": line_to_dict(info.line),
            "games": [
                {
                    "id": by_number[r.number].id,
                    "line_before": json_line(by_number[r.number].line_before),
                    "detail": by_number[r.number].detail,
                    "booking_ids": kept_ids.get(by_number[r.number].id, []),
                }
                for r in touched
            ],
        },
    )
    after = book.save_line(info, line)
    return Amended(after, number, correction, tuple(touched), moved, info.line)


def _member(known: Sequence[str], typed: str) -> str:
    """The player a typed name means (BOB is bob), for a corrected cube."""
    return match(normal_name(typed), known) or normal_name(typed)


def _fixed(events: Sequence[Event], member: str) -> bool:
    """Whether an earlier correction fixed ``member``'s cube (then the value recorded is the
    events' before it, and setting it back is a correction too)."""
    return any(isinstance(e, CubeFix) and e.member == member for e in events)


def json_line(text: str) -> dict[str, Any]:
    return line_to_dict(line_from_json(text))


def undo_amend(book: Ledger, info: SessionInfo, action: Action) -> None:
    """Take back a correction (the session's newest journal entry): the game's end as it
    was, and every game it booked again as it was booked before (the line it began with,
    its bookings, its trail). The session's line is put back by ``undo`` itself."""
    detail = action.detail
    before = [parse_event(e, "a corrected event", allow_end=True) for e in detail["before"]]
    book.replace_events(detail["game_id"], detail["first"], before)
    again: list[Finished] = []
    for kept in detail["games"]:
        game = book.stored_game(kept["id"])
        line = line_from_dict(kept["line_before"])
        book.set_line_before(game.id, line)
        if not game.over:
            continue
        book.reopen(info, game)
        events = [event_from_body(body) for _, body in book.event_bodies(game.id)]
        played = replay(line, info.rules, events)
        outcome = settle_game(played, info.stakes(played.players))
        again.append(_finished(info, game, line, played, outcome, kept["detail"]))
    book.book_games(again, move_line=False)
    book.renumber_bookings(
        {
            kept["id"]: kept["booking_ids"]
            for kept in detail["games"]
            if isinstance(kept.get("booking_ids"), list)
            and all(isinstance(i, int) and not isinstance(i, bool) for i in kept["booking_ids"])
        }
    )


def _steps(
    book: Ledger,
    info: SessionInfo,
    games: Sequence[StoredGame],
    events: Mapping[int, tuple[Event, ...]],
) -> list[Step]:
    """The session's chouette games from the first of ``games`` on, each with its events
    (``events``, by number: the amended game's replaced), and the changes of the line
    between them from the journal; a change no journal entry explains (an older chouette's)
    as a change that can be made again only on the line it was made on."""
    first = games[0].number
    changes: dict[int, list[Action]] = {}  # by the game they were made before
    position = 0  # the highest game number the journal has named so far
    for action in reversed(book.actions(info)):
        detail = action.detail
        if action.kind == "events":
            position = max(position, detail["game"])
        elif action.kind in ("record", "import") and detail.get("last") is not None:
            position = max(position, detail["last"])
        elif action.kind in ("line", "split") and position >= first and "line" in detail:
            changes.setdefault(position + 1, []).append(action)
    steps: list[Step] = []
    after: Line | None = None  # the line as stored after the game before
    for game in games:
        before = line_from_json(game.line_before)
        _between(steps, after, changes.get(game.number, []), before, game.number)
        steps.append(GameStep(game.number, events[game.number], before))
        after = line_from_json(game.line_after) if game.line_after is not None else None
    last = games[-1].number + 1
    _between(steps, after, changes.get(last, []), info.line, last)
    return steps


def _between(
    steps: list[Step], after: Line | None, actions: list[Action], upto: Line, next_game: int
) -> None:
    """The changes of the line between a game that left ``after`` and the next step, which
    was made on ``upto``: each journal entry's, leaving the line the next was made on; and
    first, if the two do not meet, a change no entry notes (an older chouette's)."""
    befores = [line_from_dict(a.detail["line"]) for a in actions]
    afters = [*befores[1:], upto] if befores else []
    first = befores[0] if befores else upto
    if after is not None and after != first:
        steps.append(
            SeatStep("a change of the line no journal entry notes", after, first, None, next_game)
        )
    for action, before, left in zip(actions, befores, afters, strict=True):
        act = ["split"] if action.kind == "split" else action.detail.get("act")
        if act is None and "event" in action.detail:
            act = _event_act(before, left)
        steps.append(
            SeatStep(
                said_of(action.detail),
                before,
                left,
                tuple(str(a) for a in act) if isinstance(act, list) else None,
                next_game,
            )
        )


def _event_act(before: Line, after: Line) -> list[str] | None:
    """What an event did to a table's line, as an act a correction can make again (its
    journal entry notes the lines, not the act): a player seated (``join``, as ``event
    enter`` seats one), or a fresh bank for one whose bank was gone (``reenter``)."""
    joined = [p for p in after.order if p not in before.order]
    if len(joined) == 1:
        return ["join", joined[0]]
    fresh = [p for p, bank in after.banks if before.bank(p) == 0 and bank > 0]
    if len(fresh) == 1:
        return ["reenter", fresh[0], str(after.bank(fresh[0]))]
    return None


def _moved(
    touched: Sequence[Replayed], booked: Mapping[int, Sequence[tuple[str, int, int]]]
) -> dict[str, Cents]:
    """What each player's money moves by: the games booked again, as they are now less as
    they were (``booked``: each game's bookings as they were, by number)."""
    moved: dict[str, Cents] = {}
    for r in touched:
        if r.outcome is None:
            continue
        for player, _, cents in booked[r.number]:
            moved[player] = moved.get(player, 0) - cents
        for player, cents in r.outcome.cents.items():
            moved[player] = moved.get(player, 0) + cents
    return {p: c for p, c in moved.items() if c}


def _book_again(
    book: Ledger,
    info: SessionInfo,
    touched: Sequence[Replayed],
    by_number: Mapping[int, StoredGame],
    corrections: Mapping[int, Correction],
) -> None:
    again: list[Finished] = []
    for r in touched:
        game = by_number[r.number]
        book.set_line_before(game.id, r.line_before)
        if r.outcome is None:  # the game in progress begins with the new line
            continue
        book.reopen(info, game)
        trail = amended_from_detail(game.detail)
        if r.number in corrections:
            trail = (*trail, corrections[r.number])
        detail = extras_to_detail(r.outcome.extras, trail)
        again.append(_finished(info, game, r.line_before, r.game, r.outcome, detail))
    book.book_games(again, move_line=False)


def _finished(
    info: SessionInfo,
    game: StoredGame,
    line: Line,
    played: Game,
    outcome: Outcome,
    detail: str | None,
) -> Finished:
    """A stored game booked again as it now plays, at the moments it was played."""
    assert game.ended_at is not None
    return Finished(
        session_id=info.id,
        number=game.number,
        kind="chouette",
        line_before=line,
        points=outcome.points,
        cents=outcome.cents,
        started_at=game.started_at,
        ended_at=game.ended_at,
        line_after=outcome.next_line,
        box=played.box,
        pairs=outcome.pairs,
        detail=detail,
        row_id=game.id,
    )
