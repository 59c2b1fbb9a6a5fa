"""The board at a cube decision, as the table types it: a GNU Backgammon Position ID
(``4HPwATDgc/ABMA``) or an eXtreme Gammon XGID
(``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10``), read from the point of view of the
player on roll, the one who doubles.

Both are read here, by the formats' own descriptions (gnubg's manual, "A technical
description of the Position ID"; the XGID as gnubg's ``set xgid`` reads it), never by
running an engine, and checked as an engine would: at most 15 checkers a side, never both
sides on one point, not both on the bar against closed boards, and a game still on (each side
has a checker left). A position is kept as its Position ID, whichever way it was typed: one
board, one text, for the record, the export and the engine's cache.

An XGID says more than the checkers: the cube, the score, the dice. Only the checkers and who
is on roll are taken. In a chouette each pair has its own cube, which the ledger knows; an
XGID of a match (a length above 0) or with the dice rolled (a checker play, not a cube
decision) is refused.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from chouette.errors import PositionError
from chouette.text import clipped
from chouette.words import said

#: Checkers a side plays with.
CHECKERS = 15
#: A side's places on the board, from its own point of view: points 1 to 24, then the bar.
PLACES = 25
BAR = 24
#: How long a Position ID is: 80 bits in base 64.
ID_LENGTH = 14

_ID = re.compile(r"[A-Za-z0-9+/]{14}")
_XGID_POINTS = re.compile(r"[-A-Pa-p]{26}")
_NUMBER = re.compile(r"-?[0-9]{1,9}")


@dataclass(frozen=True)
class Position:
    """Checkers on the board: ``on_roll``'s (the doubler's) and ``opponent``'s, each as 25
    counts from that side's own point of view (index 0 its ace point, 23 its 24 point, 24 its
    bar). Borne off is what is left of 15."""

    on_roll: tuple[int, ...]
    opponent: tuple[int, ...]

    @property
    def id(self) -> str:
        """GNU Backgammon's Position ID of the board."""
        return position_id(self)

    def pips(self) -> tuple[int, int]:
        """The pip counts, the player on roll's first."""
        return _pips(self.on_roll), _pips(self.opponent)


def _pips(side: tuple[int, ...]) -> int:
    return sum((index + 1) * count for index, count in enumerate(side))


def position_id(position: Position) -> str:
    """The Position ID of ``position``: for the side not on roll, then the side on roll, a 1
    per checker and a 0 after each place (points 1 to 24, the bar), 80 bits taken a byte at a
    time from the lowest bit, in base 64 without its padding."""
    bits: list[int] = []
    for side in (position.opponent, position.on_roll):
        for count in side:
            bits.extend([1] * count)
            bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    key = bytes(sum(bits[8 * i + b] << b for b in range(8)) for i in range(10))
    return base64.b64encode(key).decode("ascii")[:ID_LENGTH]


def parse_position(text: str) -> Position:
    """The board ``text`` gives, a Position ID or an XGID, checked; else a
    :class:`PositionError` saying what is wrong with it."""
    typed = text.strip()
    if not typed:
        raise PositionError(said("a position is a GNU Backgammon Position ID or an XGID"))
    if typed.upper().startswith("XGID=") or typed.count(":") >= 9:
        position = _from_xgid(typed)
    else:
        position = _from_id(typed)
    _check(position, clipped(typed))
    return position


def _from_id(typed: str) -> Position:
    shown = clipped(typed)
    if not _ID.fullmatch(typed):
        raise PositionError(
            said(
                "{position} is not a position: a GNU Backgammon Position ID is 14 letters, "
                "digits, + or / (4HPwATDgc/ABMA), and an XGID starts with XGID=",
                position=shown,
            )
        )
    try:
        key = base64.b64decode(typed + "==", validate=True)
    except (binascii.Error, ValueError):  # (the pattern above lets none through)
        raise PositionError(said("{position} is not a Position ID", position=shown)) from None
    if base64.b64encode(key).decode("ascii")[:ID_LENGTH] != typed:
        raise PositionError(
            said("{position} is not a Position ID: its last letter is not one", position=shown)
        )
    bits = [(byte >> b) & 1 for byte in key for b in range(8)]
    sides: list[list[int]] = [[], []]
    count, at = 0, 0
    for bit in bits:
        if at == 2 * PLACES:
            if bit:
                raise PositionError(
                    said(
                        "{position} is not a Position ID: it holds more than two sides' checkers",
                        position=shown,
                    )
                )
            continue
        if bit:
            count += 1
        else:
            sides[at // PLACES].append(count)
            count, at = 0, at + 1
    if at < 2 * PLACES:
        raise PositionError(
            said(
                "{position} is not a Position ID: it ends before both sides' 25 places",
                position=shown,
            )
        )
    return Position(on_roll=tuple(sides[1]), opponent=tuple(sides[0]))


def _from_xgid(typed: str) -> Position:
    shown = clipped(typed)
    body = typed[5:] if typed.upper().startswith("XGID=") else typed
    fields = body.split(":")
    if len(fields) != 10 or not _XGID_POINTS.fullmatch(fields[0]):
        raise PositionError(
            said(
                "{position} is not an XGID: it is XGID= then the 26 places (-, A to P, a to p) "
                "and 9 fields after colons",
                position=shown,
            )
        )
    if not all(_NUMBER.fullmatch(f) for i, f in enumerate(fields[1:], 1) if i != 4):
        raise PositionError(
            said(
                "{position} is not an XGID: its fields after the board are numbers",
                position=shown,
            )
        )
    turn, dice, length = int(fields[3]), fields[4], int(fields[8])
    if turn not in (1, -1):
        raise PositionError(
            said("{position} is not an XGID: who is on roll is 1 or -1", position=shown)
        )
    if length != 0:
        raise PositionError(
            said(
                "{position} is a match position ({length} points): chouette reviews money "
                "play, a match length of 0",
                position=shown,
                length=str(length),
            )
        )
    if dice not in ("00", "D"):
        raise PositionError(
            said(
                "{position} has the dice rolled ({dice}): a cube decision is made before the "
                "roll (00, or D for a double offered)",
                position=shown,
                dice=clipped(dice, 10),
            )
        )
    bottom, top = [0] * PLACES, [0] * PLACES
    for index, char in enumerate(fields[0]):
        if char == "-":
            continue
        count = ord(char.lower()) - ord("a") + 1
        if char.isupper():  # the bottom player's: the bar is the last place
            if index == 0:
                raise PositionError(
                    said(
                        "{position} is not an XGID: its first place is the top player's bar "
                        "(a to p)",
                        position=shown,
                    )
                )
            bottom[BAR if index == 25 else index - 1] = count
        else:  # the top player's, counted from the other end: the bar is the first place
            if index == 25:
                raise PositionError(
                    said(
                        "{position} is not an XGID: its last place is the bottom player's bar "
                        "(A to P)",
                        position=shown,
                    )
                )
            top[BAR if index == 0 else 24 - index] = count
    on_roll, opponent = (bottom, top) if turn == 1 else (top, bottom)
    return Position(on_roll=tuple(on_roll), opponent=tuple(opponent))


def _check(position: Position, shown: str) -> None:
    """Refuse a board no game can have, as the engines do."""
    for side, player in ((position.on_roll, "on roll"), (position.opponent, "not on roll")):
        total = sum(side)
        if total > CHECKERS:
            raise PositionError(
                said(
                    "{position}: the player {player} has {count} checkers, more than 15",
                    position=shown,
                    player=said("on roll") if player == "on roll" else said("not on roll"),
                    count=str(total),
                )
            )
        if total == 0:
            raise PositionError(
                said(
                    "{position}: the player {player} has borne off every checker: the game is "
                    "over, there is no cube decision",
                    position=shown,
                    player=said("on roll") if player == "on roll" else said("not on roll"),
                )
            )
    for point in range(24):
        if position.on_roll[point] and position.opponent[23 - point]:
            raise PositionError(
                said(
                    "{position}: both players have checkers on the same point (the {point} "
                    "point of the player on roll)",
                    position=shown,
                    point=str(point + 1),
                )
            )
    closed = all(position.on_roll[p] >= 2 for p in range(6)) and all(
        position.opponent[p] >= 2 for p in range(6)
    )
    if closed and position.on_roll[BAR] and position.opponent[BAR]:
        raise PositionError(
            said(
                "{position}: both players are on the bar against closed boards, which no game "
                "can reach",
                position=shown,
            )
        )
