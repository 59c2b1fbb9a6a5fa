"""``chouette position``: the board of a cube decision already booked, given afterwards (a club
sets its positions up after the evening), and ``undo`` of it.

The board belongs to the whole exchange the decision is part of (the double and its
answers, made at one board): the decision named gets it, and any other event of the exchange
that carried another board gets this one instead. Nothing else of the game changes: no
booking, no line; the events keep their times. It is a journal entry of its own (``log``
lists it, ``undo`` puts the events back as they were) and a link of the session's chain.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from chouette.errors import ChouetteError
from chouette.game import Answer, Double, exchanges, replay
from chouette.record import event_to_json, parse_event
from chouette.session import SessionInfo
from chouette.words import said
from db.codec import event_from_body, line_from_json, said_detail
from db.ledger import Ledger
from db.values import Action, StoredGame


@dataclass(frozen=True)
class Placed:
    """What ``chouette position`` did: the board given to game ``number``'s step ``step``,
    and the steps (1-based) that hold it now."""

    number: int
    step: int
    position: str
    steps: tuple[int, ...]


def chouette_game(book: Ledger, info: SessionInfo, number: int) -> StoredGame:
    """Game ``number`` of the session, a chouette game (refused: none, or an engine's)."""
    game = next(iter(book.stored_games(info, from_number=number, to_number=number)), None)
    if game is None:
        raise ChouetteError(
            said("there is no game {number} in {session}", number=str(number), session=info.name)
        )
    if game.kind != "chouette":
        raise ChouetteError(
            said(
                "game {number} of {session} is an engine's game, imported: it keeps no cube "
                "decisions to review",
                number=str(number),
                session=info.name,
            )
        )
    return game


def place(book: Ledger, info: SessionInfo, number: int, step: int, position: str) -> Placed:
    """Give ``position`` (a Position ID, checked) to game ``number``'s event ``step``."""
    game = chouette_game(book, info, number)
    events = [event_from_body(body) for _, body in book.event_bodies(game.id)]
    if not 1 <= step <= len(events):
        raise ChouetteError(
            said(
                "game {number} has steps 1 to {count} (chouette game {number} lists them), "
                "not {step}",
                number=str(number),
                count=str(len(events)),
                step=str(step),
            )
        )
    chosen = events[step - 1]
    if not isinstance(chosen, Double | Answer):
        raise ChouetteError(
            said(
                "step {step} of game {number} is {event}: a position belongs to a double, a "
                "take, a drop, a beaver or a raccoon",
                step=str(step),
                number=str(number),
                event=chosen.describe(),
            )
        )
    line = line_from_json(game.line_before)
    origins = exchanges(line, info.rules, events)
    origin = origins.get(step - 1)
    if origin is None:
        raise ChouetteError(
            said(
                "step {step} of game {number} answers no double: it has no board of its own",
                step=str(step),
                number=str(number),
            )
        )
    changed = {}
    for index, event in enumerate(events):
        if not isinstance(event, Double | Answer) or origins.get(index) != origin:
            continue
        if (event.position is not None or index == step - 1) and event.position != position:
            changed[index] = replace(event, position=position)
    if not changed:
        raise ChouetteError(
            said(
                "step {step} of game {number} is at the position {position} already",
                step=str(step),
                number=str(number),
                position=position,
            )
        )
    replay(line, info.rules, [changed.get(i, e) for i, e in enumerate(events)])  # as a check
    book.rewrite_events(game.id, changed)
    book.journal(
        info,
        "position",
        {
            "game": number,
            "game_id": game.id,
            "changed": [
                {"seq": i, "was": event_to_json(events[i]), "is": event_to_json(e)}
                for i, e in sorted(changed.items())
            ],
            **said_detail(
                said(
                    "the position {position} of game {number}'s step {step}",
                    position=position,
                    number=number,
                    step=step,
                )
            ),
        },
    )
    held = tuple(
        i + 1
        for i, e in enumerate(events)
        if origins.get(i) == origin and (i in changed or getattr(e, "position", None) == position)
    )
    return Placed(number, step, position, held)


def undo_position(book: Ledger, action: Action) -> None:
    """Take back a board given afterwards (the session's newest journal entry): each event it
    rewrote as it was."""
    detail = action.detail
    book.rewrite_events(
        detail["game_id"],
        {
            change["seq"]: parse_event(change["was"], "an event before its board")
            for change in detail["changed"]
        },
    )
