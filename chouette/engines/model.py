"""The values every engine reader produces, and the small text helpers they share."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from chouette.errors import EngineFileError
from chouette.points import Kind
from chouette.words import Said, Sayable, said, said_n

Scored = Kind  # the level a game was scored at
Ending = Literal["bearoff", "drop", "resign", "settle", "forfeit"]


@dataclass(frozen=True)
class EngineSource:
    """Where a neutral record says its game came from (all parts optional)."""

    engine: str | None = None
    file: str | None = None
    sha256: str | None = None
    game_index: int | None = None


class Played(NamedTuple):
    """What was played in a game, said alike by every engine's file of it: the game's number
    in its session, the score before it (the file's first player's, then the second's), each
    roll in order (two digits, the higher die first: ``52`` for a 2 and a 5) and the winner
    (0: the file's first player, 1: the second). With the players' names as the session
    knows them, it is the game's identity across formats (:func:`played_key`).

    Every roll of the dice counts, whatever followed it: a move, no move (the player could
    not move), a move entered by hand, or nothing at all (the player rolled and then
    resigned: gnubg's SGF writes those dice as ``DI[]``, a ``.mat`` as ``61:`` alone, XG as
    ``33: ???``). ``older``: the rolls as an older chouette counted them for this game, from
    this file or from another of the same game, where they differ (it left out the SGF's
    ``DI[]`` and XG's moves entered by hand), so that a game it booked is still found
    (:func:`older_keys`)."""

    number: int
    score: tuple[int, int]
    rolls: tuple[int, ...]
    winner: int
    older: tuple[tuple[int, ...], ...] = ()


def played_key(played: Played, names: tuple[str, str]) -> str:
    """A game's identity from what was played, whatever file it came from: its players (as
    the session names them, in no file's order), the number and the score before it by
    player, its rolls in order and who won. The same game in a ``.mat``, an ``.sgf``, an
    ``.xg`` and a ``.bgf`` file, or in one re-exported with a player renamed and mapped back
    with ``--as``, has the same key; no two games of a session share a number, and no two
    sessions of the same players share their dice."""
    pairs = sorted(zip(names, played.score, strict=True))
    return game_key(
        "played", played.number, *(x for pair in pairs for x in pair), names[played.winner],
        *played.rolls,
    )  # fmt: skip


def older_keys(played: Played, names: tuple[str, str]) -> tuple[str, ...]:
    """The identities an older chouette may have given the game (:attr:`Played.older`)."""
    return tuple(
        played_key(played._replace(rolls=rolls, older=()), names)
        for rolls in dict.fromkeys(played.older)
        if rolls != played.rolls
    )


def unplayed_tail(rolls: tuple[int, ...], tail: int) -> tuple[tuple[int, ...], ...]:
    """:attr:`Played.older` of a game that ended with ``tail`` rolls nobody moved after (the
    dice of a player who then resigned): those rolls left out, as an older chouette's SGF
    reader left out gnubg's ``DI[]``."""
    return (rolls[:-tail],) if tail else ()


def roll(first: int, second: int) -> int:
    """A roll as :class:`Played` keeps it: ``52`` for a 2 and a 5."""
    return 10 * max(first, second) + min(first, second)


class EngineGame(NamedTuple):
    """One settled two-party game as the ledger books it (a named tuple: readers make one
    per game, and a tuple is made several times faster than a frozen dataclass).

    ``position`` is the game's 1-based position in the file and ``line`` the file line where it
    starts (for messages and for remembering what was imported). ``points`` is what the
    winner receives after Jacoby and automatic doubles; ``cube`` the cube value the game was
    decided at (for a drop: the value before the refused offer); ``result`` the level it was
    scored at (``points == cube × 1/2/3`` unless ``end`` is ``settle`` or ``forfeit``).
    ``warnings`` are things a person should look at (the game is still booked as read),
    said as values (:func:`~chouette.words.said`) the door renders in its reader's words.
    ``number`` is the game's own number in its source (`` Game N`` in a ``.mat``, the
    record's ``game``); ``session``, ``rules`` and ``source`` are what a neutral record says
    of itself. ``key`` identifies the game by what it is — its players, its place in its
    session, the score before it, its moves and its result, normalised (see
    :class:`GameKey`) — so the same game read from another export of the session, or from
    the same file saved with other line ends or another encoding, has the same key.
    """

    position: int
    line: int
    winner: str
    loser: str
    points: int
    cube: int
    result: Scored
    end: Ending
    played_at: str | None = None
    warnings: tuple[Sayable, ...] = ()
    number: int | None = None
    session: str | None = None
    rules: str | None = None
    source: EngineSource | None = None
    key: str | None = None
    played: Played | None = None


@dataclass(frozen=True)
class EngineSession:
    """What a file says about itself, read before its games (header).

    ``None`` means the file does not say; the session's house rules decide.
    """

    format: Literal["mat", "sgf", "jsonl", "csv", "xg", "bgf"]
    players: tuple[str, ...]
    match_length: int = 0
    jacoby: bool | None = None
    beavers: bool | None = None
    cube_limit: int | None = None
    stake: str | None = None
    currency: str | None = None
    variation: str | None = None
    name: str | None = None
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def is_match(self) -> bool:
        return self.match_length > 0


@dataclass(frozen=True)
class EngineRead:
    """A file being read: its header now, its games as they stream, and ``notes`` that the
    reader adds as it goes (an unfinished last game that is not booked, say; said as values,
    made only when there is something to say), complete once the games are read to the end."""

    session: EngineSession
    games: Iterator[EngineGame]
    notes: list[Sayable] = field(default_factory=list)


class GameKey:
    """A game's identity, built from its parts as a reader meets them: a 128-bit BLAKE2b
    digest of the format, then each part as text, each closed by a separator no part holds."""

    __slots__ = ("_digest",)

    def __init__(self, kind: str, *parts: object) -> None:
        self._digest = hashlib.blake2b(kind.encode(), digest_size=16)
        self.add(*parts)

    def add(self, *parts: object) -> None:
        if parts:  # the bytes of one update per part, in one (a .mat file adds every word)
            text = "\x1f".join(map(str, parts)) + "\x1f"
            self._digest.update(text.encode("utf-8", "surrogatepass"))

    def hex(self) -> str:
        return self._digest.hexdigest()


def game_key(kind: str, *parts: object) -> str:
    """:class:`GameKey` of parts known at once, in one call (the neutral reader's hot path)."""
    text = "".join([str(part) + "\x1f" for part in parts])
    return hashlib.blake2b(
        kind.encode() + text.encode("utf-8", "surrogatepass"), digest_size=16
    ).hexdigest()


def point_count(points: int) -> Said:
    """``1 point``, ``4 points``: a count of points in a note or a warning, in the reader's
    words (the number as the file wrote it, thousands not grouped)."""
    return said_n("{n} point", "{n} points", points, n=points)


def problem(line: int, reason: Sayable) -> EngineFileError:
    """The error for a file that cannot be read: ``"line 12: reason"`` (the line number and
    the reason values, said in the reader's words; a file's own words as they are)."""
    return EngineFileError(said("line {line}: {reason}", line=line, reason=reason))


def numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The lines with their 1-based numbers, without line ends or a UTF-8 byte-order mark.

    Text that is not UTF-8 (a decoding error while the caller's file is read) becomes an
    :class:`EngineFileError` naming the line.
    """
    number = 0
    iterator = iter(lines)
    while True:
        try:
            text = next(iterator)
        except StopIteration:
            return
        except UnicodeError:
            raise problem(number + 1, said("not UTF-8 text")) from None
        number += 1
        if not isinstance(text, str):
            raise problem(number, said("not text (the file must be opened as UTF-8 text)"))
        if number == 1:
            text = text.removeprefix("\ufeff")
        yield number, text.rstrip("\r\n")
