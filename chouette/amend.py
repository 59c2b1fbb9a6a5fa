"""Corrections with a trail: a past game's result amended, and every game after it played
again in order on the line the correction leaves.

A correction is never an edit: the amended game keeps its events but its last one, the
board's end, which is replaced; the games after it keep their events, which are applied
again from the line the amended game now leaves (its rotation and partnership may change,
and with them the line of every later game), and the changes of the line between games
(joins, leaves, sit-outs, sit-ins, proxies) are made again on the new line. If a later event
no longer fits (a member who doubled is now the box, a player who left is no longer seated),
the correction is refused, naming the first game or change that breaks: nothing changes.

Pure: the ledger (:mod:`db.amending`) reads the games and the journal and writes the
result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from chouette.errors import RuleError
from chouette.game import CubeFix, End, Event, Game, replay
from chouette.limits import NUMBERS
from chouette.line import (
    FOLLOWS,
    Line,
    choose_partner,
    join,
    leave,
    name_proxy,
    normal_name,
    set_bank,
    set_credit,
    sit_in,
    sit_out,
    withdraw_proxy,
)
from chouette.money import Cents
from chouette.outcome import Outcome, Reentry, settle_game
from chouette.record import event_to_json, parse_event
from chouette.rules import HouseRules
from chouette.text import clipped
from chouette.words import Number, Said, Sayable, joined, said

#: How a change of the line is made again (the journal's ``act``): the verb and its names.
SEAT_ACTS = (
    "join", "leave", "sit-out", "sit-in", "proxy", "withdraw", "partner", "bank", "credit",
    "reenter",
)  # fmt: skip


class AmendRefused(RuleError):
    """A correction the games after it cannot follow: ``number`` is the first game (or the
    game after the first change of the line) that breaks."""

    def __init__(self, number: int, message: Sayable) -> None:
        super().__init__(message)
        self.number = number


@dataclass(frozen=True)
class GameStep:
    """A game of the session as stored: its number, events and the line it began with."""

    number: int
    events: tuple[Event, ...]
    line_before: Line


@dataclass(frozen=True)
class SeatStep:
    """A change of the line between games, as the journal keeps it: what was said, the line
    it was made on and the line it left, and how to make it again (``act``: a verb of
    :data:`SEAT_ACTS` and its names; None when an older chouette did not note it)."""

    said: Sayable
    before: Line
    after: Line
    act: tuple[str, ...] | None
    #: The game the change was made before.
    next_game: int


Step = GameStep | SeatStep


@dataclass(frozen=True)
class Correction:
    """The trail a correction leaves on its game: when, the end it had, the end it has now,
    and the table's note."""

    at: datetime
    was: End
    now: End
    note: str
    #: The members' cubes corrected: (member, the value recorded, the value now).
    cubes: tuple[tuple[str, int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The correction as the export, ``sheet --json`` and the game's row keep it."""
        out: dict[str, Any] = {
            "at": self.at.astimezone(UTC).isoformat(),
            "was": event_to_json(self.was),
            "is": event_to_json(self.now),
            "note": self.note,
        }
        if self.cubes:
            out["cubes"] = [{"member": m, "was": a, "is": b} for m, a, b in self.cubes]
        return out

    @classmethod
    def from_json(cls, data: Any) -> Correction:
        """:meth:`to_json`'s data read back; a ``TypeError`` or ``ValueError`` if it is not."""
        if not isinstance(data, dict) or not isinstance(data.get("note"), str):
            raise TypeError(said("a correction is an object with its note"))
        was = parse_event(data["was"], "a corrected end", allow_end=True)
        now = parse_event(data["is"], "a corrected end", allow_end=True)
        if not isinstance(was, End) or not isinstance(now, End):
            raise TypeError(said("a correction replaces a board's end"))
        at = datetime.fromisoformat(data["at"])
        if at.tzinfo is None:
            raise ValueError(said("a correction's time names its zone"))
        cubes = []
        for cube in data.get("cubes", []):
            member, was_value, value = cube["member"], cube["was"], cube["is"]
            if not isinstance(member, str) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in (was_value, value)
            ):
                raise TypeError(said("a corrected cube names its member and two values"))
            cubes.append((member, was_value, value))
        return cls(at.astimezone(UTC), was, now, data["note"], tuple(cubes))

    def said(self) -> Sayable:
        """What was corrected: ``the board's end was box single, is team gammon; bob's cube
        was 2, is 4`` (in the reader's words; ``str()`` of it is the English)."""
        parts: list[Said] = []
        if self.was != self.now:
            parts.append(
                said(
                    "the board's end was {was}, is {now}",
                    was=result_text(self.was),
                    now=result_text(self.now),
                )
            )
        parts += [
            said("{player}'s cube was {was}, is {now}", player=m, was=a, now=b)
            for m, a, b in self.cubes
        ]
        return joined(parts, "; ")

    def text(self, local: Callable[[datetime], datetime] | None = None) -> Said:
        """The correction as the sheet's notes and ``why`` say it; when, in the reader's
        local time (``local`` turns a moment into it; default UTC), the zone named."""
        here = (local or (lambda moment: moment.astimezone(UTC)))(self.at)
        when = f"{here:%Y-%m-%d %H:%M}" + (f" {here.tzname()}" if here.tzname() else "")
        return said("amended {when}: {what} ({note})", when=when, what=self.said(), note=self.note)


@dataclass(frozen=True)
class Replayed:
    """A game played again: the line it now begins with, the game, and its outcome (None
    for the game in progress)."""

    number: int
    line_before: Line
    game: Game
    outcome: Outcome | None


def amended_events(
    events: Sequence[Event], end: End | None, cubes: Mapping[str, int], number: int
) -> tuple[Event, ...]:
    """Game ``number``'s events with its board's end replaced by ``end`` (None: kept) and the
    members' cubes in ``cubes`` corrected just before it (a correction made before of a cube
    not named is kept). Refused for a game that did not end on the board (every cube dropped
    or dealt) or that ended so already."""
    ends = [i for i, e in enumerate(events) if isinstance(e, End)]
    if not ends:
        raise RuleError(
            said(
                "game {number} did not end on the board (every cube was dropped, dealt or "
                "resigned): it has no result to amend",
                number=number,
            )
        )
    at = ends[-1]
    was = events[at]
    assert isinstance(was, End)
    first = at
    while first > 0 and isinstance(events[first - 1], CubeFix):
        first -= 1
    kept = {e.member: e.value for e in events[first:at] if isinstance(e, CubeFix)}
    fixed = {**kept, **cubes}
    now = end or was
    if now == was and fixed == kept:
        if not cubes:
            raise RuleError(
                said(
                    "game {number} already ended so ({end}): nothing to amend",
                    number=number,
                    end=result_text(was),
                )
            )
        raise RuleError(
            said("game {number}'s cubes are so already: nothing to amend", number=number)
        )
    fixes = tuple(CubeFix(member, value) for member, value in fixed.items())
    return (*events[:first], *fixes, now, *events[at + 1 :])


def parse_cubes(items: Iterable[str]) -> dict[str, int]:
    """Corrected cubes as typed (``bob=4``, each item one member), by member as typed.
    Raises :class:`RuleError` naming the first that is not one, or a member given twice
    (``bob=4`` and ``BOB=8`` are bob twice: the last would not silently win)."""
    least, most = NUMBERS["amend --cube"]
    found: dict[str, int] = {}
    typed: dict[str, str] = {}  # each member's name folded, and the item that gave it
    for item in items:
        name, sign, value = item.partition("=")
        if not sign or not name.strip() or not value.strip().isdigit():
            raise RuleError(
                said(
                    "a cube is MEMBER=VALUE, such as bob=4, not {typed}",
                    typed=repr(clipped(item)),
                )
            )
        number = int(value)
        if not least <= number <= most or number & (number - 1):
            raise RuleError(
                said(
                    "{player}'s cube is 1, 2, 4, 8 … up to {most}, not {value}",
                    player=clipped(name.strip()),
                    most=Number(most),
                    value=clipped(value),
                )
            )
        folded = normal_name(name).casefold()
        if folded in typed:
            raise RuleError(
                said(
                    "{member}'s cube is given twice (--cube {first} and --cube {second}): "
                    "give each member's cube once",
                    member=clipped(name.strip()),
                    first=clipped(typed[folded]),
                    second=clipped(item),
                )
            )
        typed[folded] = item
        found[name.strip()] = number
    return found


#: A board's end in a few words, by who won and at what level.
ENDS: Mapping[tuple[str, str], Said] = {
    ("box", "single"): said("box single"),
    ("box", "gammon"): said("box gammon"),
    ("box", "backgammon"): said("box backgammon"),
    ("team", "single"): said("team single"),
    ("team", "gammon"): said("team gammon"),
    ("team", "backgammon"): said("team backgammon"),
}


def result_text(end: End) -> Said:
    """A board's end in a few words: ``team gammon``, ``box single, resigned`` (in the
    reader's words)."""
    words = ENDS[(end.winner, end.kind)]
    return said("{end}, resigned", end=words) if end.resigned else words


def play_again(
    steps: Sequence[Step],
    rules: HouseRules,
    stakes: Callable[[Iterable[str]], Mapping[str, Cents]],
    check: Callable[[Game], None] = lambda game: None,
    reentry: Reentry = "bank",
) -> tuple[list[Replayed], Line]:
    """The games of ``steps`` played again in order, the first from its own line, each later
    one from the line the one before left, the changes of the line made again between them;
    and the line after the last. ``check``: the limits a game is held to (raises
    :class:`RuleError`); ``reentry``: the table's kind (what a game says of a player it
    busts). Raises :class:`AmendRefused` naming the first step that breaks."""
    played: list[Replayed] = []
    line: Line | None = None
    sat_out: dict[str, Line] = {}  # who sat out since the last game, and the line then
    for step in steps:
        if isinstance(step, SeatStep):
            assert line is not None, "a change of the line follows a game"
            line = _seat_again(step, line, rules, sat_out)
            continue
        start = step.line_before if line is None else line
        try:
            game = replay(start, rules, step.events)
            check(game)
            outcome = settle_game(game, stakes(game.players), reentry) if game.over else None
        except RuleError as err:
            if start == step.line_before:
                refusal = said(
                    "game {number} no longer fits the line it begins with: {reason}",
                    number=step.number,
                    reason=err.said,
                )
            else:
                refusal = said(
                    "game {number} no longer fits the line it begins with (now {line}): {reason}",
                    number=step.number,
                    line=start.describe(),
                    reason=err.said,
                )
            raise AmendRefused(step.number, refusal) from None
        played.append(Replayed(step.number, start, game, outcome))
        sat_out = {}
        line = outcome.next_line if outcome is not None else start
    assert line is not None, "there is a game to play again"
    return played, line


def _seat_again(step: SeatStep, line: Line, rules: HouseRules, sat_out: dict[str, Line]) -> Line:
    """A change of the line made again on ``line``: as it was, if the line is the one it was
    made on; else by its act."""
    act = step.act
    if act is not None and act[0] == "sit-out":
        sat_out[act[1]] = line
    if line == step.before:
        return step.after
    if act is not None and act[0] == "split":
        raise AmendRefused(
            step.next_game,
            said(
                "{change} (before game {number}) was made on a line the correction changes: a "
                "correction cannot move players between tables",
                change=step.said,
                number=step.next_game,
            ),
        )
    if act is None or act[0] not in SEAT_ACTS:
        raise AmendRefused(
            step.next_game,
            said(
                "'{change}' (before game {number}) was made on a line the correction changes, "
                "and this chouette cannot make it again (an older chouette did not note how)",
                change=step.said,
                number=step.next_game,
            ),
        )
    verb, *names = act
    name, rest = (names[0] if names else ""), names[1:]
    if verb == "reenter" and line.bank(name) != 0:
        raise AmendRefused(
            step.next_game,
            said(
                "{player} re-entered the event after their bank was gone ('{change}', before "
                "game {number}), but with this correction {player} would still have {now} in "
                "the bank: a correction does not take a re-entry back (chouette event undo "
                "does, while it is the event's last step: then correct the game)",
                player=name,
                change=step.said,
                number=step.next_game,
                now=line.bank(name),
            ),
        )
    if verb == "bank" and line.bank(name) != step.before.bank(name):
        raise AmendRefused(
            step.next_game,
            said(
                "'{change}' (before game {number}) was set on {player}'s bank of {was}, which "
                "the correction makes {now}: a correction does not decide a re-entry again "
                "(undo back to it, correct, and set the bank again)",
                change=step.said,
                number=step.next_game,
                player=name,
                was=step.before.bank(name),
                now=line.bank(name),
            ),
        )
    try:
        if verb == "join" and rest[:1] == ["credit"]:
            return set_credit(join(line, name, rules), name, int(rest[1]), rules)
        if verb == "join":
            return join(line, name, rules)
        if verb == "credit":
            return set_credit(line, name, int(rest[0]), rules)
        if verb == "leave":
            return leave(line, name, rules)
        if verb == "sit-out":
            return sit_out(line, name, rules)
        if verb == "sit-in":
            return sit_in(line, name, rules, sat_out.pop(name, None))
        if verb == "proxy":
            return name_proxy(line, name, rest[0] if rest else FOLLOWS, rules)
        if verb == "partner":
            return choose_partner(line, name or None, rules)
        if verb in ("bank", "reenter"):
            return set_bank(line, name, int(rest[0]), rules)
        return withdraw_proxy(line, name)
    except RuleError as err:
        raise AmendRefused(
            step.next_game,
            said(
                "'{change}' (before game {number}) no longer fits the line {line}: {reason}",
                change=step.said,
                number=step.next_game,
                line=line.describe(),
                reason=err.said,
            ),
        ) from None
