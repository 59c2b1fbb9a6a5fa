"""The line: who sits where, the roll-off, joining and leaving, and the rotation after a game.

The line is the seating order. The first seated player who is not sitting out is the
**box**; the others are the **team**, in order, led by the **captain**. A box **partner**
(house rule ``partner-from``) keeps their place in the order but plays on the box's side.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from chouette.errors import LineError
from chouette.names import case_twin
from chouette.rules import HouseRules

RESERVED_NAMES = frozenset({"box", "team", "centre", "center", "member", "all"})
MAX_NAME_LENGTH = 80


def normal_name(name: str) -> str:
    """A name as typed, the way it is stored: NFC-normalised, without surrounding spaces
    (``zoe`` + a combining diaeresis, as some keyboards send it, is ``zoë``)."""
    return unicodedata.normalize("NFC", name).strip()


def _check_text(name: str, what: str) -> str:
    text = normal_name(name)
    if not text:
        raise LineError(f"{what} cannot be empty")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in text):
        raise LineError(
            f"{text!r} cannot be {what}: it has control characters or is not valid text"
        )
    if len(text) > MAX_NAME_LENGTH:
        raise LineError(
            f"{text[:20]!r}… cannot be {what}: longer than {MAX_NAME_LENGTH} characters"
        )
    return text


def check_name(name: str) -> str:
    """A player's name as stored: NFC-normalised text that a report can show on one line."""
    text = _check_text(name, "a player's name")
    if text.casefold() in RESERVED_NAMES:
        raise LineError(f"{text!r} cannot be a player's name: it is a word the scorer uses")
    return text


def check_session_name(name: str) -> str:
    """A session's name: one line of text, like a player's name."""
    return _check_text(name, "a session's name")


@dataclass(frozen=True)
class Line:
    """The seating order, who sits out, the box's partner, and who was last sent down."""

    order: tuple[str, ...]
    sitting_out: frozenset[str] = field(default_factory=frozenset)
    partner: str | None = None
    last_down: str | None = None

    @property
    def active(self) -> tuple[str, ...]:
        """The seated players who play the next game, in order."""
        return tuple(p for p in self.order if p not in self.sitting_out)

    @property
    def box(self) -> str | None:
        active = self.active
        return active[0] if active else None

    @property
    def team(self) -> tuple[str, ...]:
        """Captain first, then the crew."""
        return tuple(p for p in self.active[1:] if p != self.partner)

    @property
    def captain(self) -> str | None:
        team = self.team
        return team[0] if team else None

    @property
    def crew(self) -> tuple[str, ...]:
        return self.team[1:]

    def describe(self) -> str:
        """``ann+pat | bob, cat`` (with who sits out)."""
        if self.box is None:
            text = "(nobody seated)"
        else:
            box = self.box + (f"+{self.partner}" if self.partner else "")
            text = f"{box} | {', '.join(self.team)}" if self.team else box
        if self.sitting_out:
            out = [p for p in self.order if p in self.sitting_out]
            text += f"  (sitting out: {', '.join(out)})"
        return text


def new_line(players: Sequence[str], rules: HouseRules) -> Line:
    """The line for a new session, in the order given (box first)."""
    names = [check_name(p) for p in players]
    seen: list[str] = []
    for name in names:
        if name in seen:
            raise LineError(f"{name} is named twice")
        twin = case_twin(name, seen)
        if twin is not None:
            raise LineError(f"{twin} and {name} differ only in case: {CASE_TWINS}")
        seen.append(name)
    return seat(Line(tuple(names)), rules)


CASE_TWINS = "one session cannot tell them apart (give one of them another name)"


def seat(line: Line, rules: HouseRules) -> Line:
    """Keep or pick the box's partner as the house rule ``partner-from`` says."""
    active = line.active
    if rules.partner_from is None or len(active) < rules.partner_from:
        return replace(line, partner=None) if line.partner else line
    if line.partner in active[1:]:
        return line
    candidates = active[1:]
    pick = candidates[1] if rules.partner_pick == "next" else candidates[-1]
    return replace(line, partner=pick)


def check_between_games(in_progress: int | None) -> None:
    """The line changes only between games (``in_progress``: the game being played, if any)."""
    if in_progress is not None:
        raise LineError(f"game {in_progress} is in progress: change the line after it ends")


def _require_seated(line: Line, name: str) -> None:
    if name not in line.order:
        raise LineError(f"{name} is not in the line")


def join(line: Line, name: str, rules: HouseRules) -> Line:
    """A newcomer takes a seat at the bottom (or in front of the last loser: ``newcomer``)."""
    name = check_name(name)
    if name in line.order:
        raise LineError(f"{name} is already in the line")
    twin = case_twin(name, line.order)
    if twin is not None:
        raise LineError(f"{twin} is already in the line, and {name} differs only in case")
    return seat(_at_bottom(line, name, rules), rules)


def _at_bottom(line: Line, name: str, rules: HouseRules) -> Line:
    """``name`` seated where a newcomer sits: at the bottom, or in front of the last loser."""
    order = [p for p in line.order if p != name]
    if rules.newcomer == "before-loser" and line.last_down in order:
        order.insert(order.index(line.last_down), name)
    else:
        order.append(name)
    return replace(line, order=tuple(order))


def leave(line: Line, name: str, rules: HouseRules) -> Line:
    """The player leaves the line (their balance stays in the ledger)."""
    name = normal_name(name)
    _require_seated(line, name)
    return seat(
        Line(
            order=tuple(p for p in line.order if p != name),
            sitting_out=line.sitting_out - {name},
            partner=None if line.partner == name else line.partner,
            last_down=None if line.last_down == name else line.last_down,
        ),
        rules,
    )


def sit_out(line: Line, name: str, rules: HouseRules) -> Line:
    """The player keeps their place but is skipped when the seats are filled."""
    name = normal_name(name)
    _require_seated(line, name)
    if name in line.sitting_out:
        raise LineError(f"{name} is already sitting out")
    partner = None if line.partner == name else line.partner
    return seat(replace(line, sitting_out=line.sitting_out | {name}, partner=partner), rules)


def sit_in(line: Line, name: str, rules: HouseRules) -> Line:
    """A player who sat out plays again from their place in the line, unless that place is
    ahead of the captain: the box, the box's partner and the captain change hands only by
    rotation, so a player whose place would give them one of those seats (the box who sat
    out, say, or a member the rotation carried up while they were away) rejoins where a
    newcomer sits instead (at the bottom, or in front of the last loser)."""
    name = normal_name(name)
    _require_seated(line, name)
    if name not in line.sitting_out:
        raise LineError(f"{name} is not sitting out")
    back = replace(line, sitting_out=line.sitting_out - {name})
    captain = line.captain
    if captain is not None and line.order.index(name) < line.order.index(captain):
        back = _at_bottom(back, name, rules)
    return seat(back, rules)


def send_down(line: Line, name: str) -> Line:
    """``name`` goes to the bottom of the line; everyone below moves up."""
    order = [p for p in line.order if p != name]
    order.append(name)
    return replace(line, order=tuple(order), last_down=name)


def rotate(
    line: Line,
    *,
    captain: str,
    box_keeps: bool,
    captain_beat_box: bool,
    rules: HouseRules,
) -> Line:
    """The line for the next game (RULES.md §3 and §4).

    Box keeps: the captain goes to the bottom, the partnership stays. Box goes: the captain
    (or, if the captain lost too, the member after the captain) becomes box, the old partner
    becomes captain, and the bottom of the line ends ``…, [old captain,] old box``.
    """
    box = line.box
    if box is None:
        raise LineError("nobody is seated")
    if box_keeps:
        return seat(send_down(line, captain), rules)
    team = line.team
    downs = [box]
    new_box = captain
    if not captain_beat_box:
        after = team[team.index(captain) + 1 :] if captain in team else ()
        if after:
            new_box = after[0]
            downs = [captain, box]
    order = [new_box] + [p for p in line.order if p != new_box]
    if line.partner is not None:
        order.remove(line.partner)
        order.insert(1, line.partner)
    moved = Line(tuple(order), line.sitting_out, None, line.last_down)
    for player in downs:
        moved = send_down(moved, player)
    if rules.partner_pick == "last" and rules.settled_edges:
        moved = _pick_last(moved, downs, rules)
    return seat(moved, rules)


def _pick_last(line: Line, downs: Sequence[str], rules: HouseRules) -> Line:
    """``partner-pick last`` after the box changed hands: the lowest-placed player the game did
    not just send to the bottom (the box who lost does not join the new box at once), unless
    nobody else could be partner."""
    active = line.active
    if rules.partner_from is None or len(active) < rules.partner_from:
        return line
    candidates = [p for p in active[2:] if p not in downs] or list(active[2:])
    return replace(line, partner=candidates[-1])


class Dice(Protocol):
    """A seeded random generator (``random.Random``): the rules never make their own luck."""

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class RollOff:
    """The order a roll-off gave, with every round of rolls (ties re-roll among the tied)."""

    order: tuple[str, ...]
    rounds: tuple[tuple[tuple[str, int], ...], ...]


def roll_off(players: Iterable[str], dice: Dice) -> RollOff:
    """Everyone rolls one die: highest is box, second captain, and so on."""
    rounds: list[tuple[tuple[str, int], ...]] = []

    def rank(group: list[str]) -> list[str]:
        if len(group) == 1:
            return group
        rolls = tuple((p, dice.randint(1, 6)) for p in group)
        rounds.append(rolls)
        ranked: list[str] = []
        for value in sorted({d for _, d in rolls}, reverse=True):
            ranked += rank([p for p, d in rolls if d == value])
        return ranked

    names = [check_name(p) for p in players]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise LineError(f"{dup} is named twice")
    return RollOff(tuple(rank(names)), tuple(rounds))
