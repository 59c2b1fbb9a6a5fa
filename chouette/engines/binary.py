"""eXtreme Gammon ``.xg`` and BGBlitz ``.bgf`` files, as the gammonview library reads them.

Both are binary (XG: a header, a thumbnail and a zlib archive of fixed-size records; BGBlitz:
a JSON line, then gzip-compressed Smile). chouette does not decode them itself: the optional
library gammonview (MIT, pure Python: the ``xg`` extra) turns a file into a
dict, its OGXM JSON, and this module turns that dict into :class:`EngineGame` values. It is
pure: the importer (``db/imports.py``) reads the file, imports the library and calls it;
nothing here imports gammonview.

What the dict says, and what is taken from it:

- ``match_length`` (0: money), ``jacoby``, ``beaver``, ``cube_limit``: the session's rules
  as the engine played them;
- ``player_white``, ``player_black``: the two players (gammonview puts them in alphabetical
  order, whichever program wrote the file); BGBlitz writes a space in a name as ``_``;
- per game: ``winner`` (0 white, 1 black) and ``points_won``, what the engine settled (its
  Jacoby rule applied), and ``plies``: each with ``color``, ``action_id`` (0-20 a roll, 21
  double, 22 take, 23 drop, 24 and 26 the game is over, 27 and 28 a resignation, 29 a
  forfeit, 30 a roll without dice, 31 a position set by hand) and the position before and
  after as OGID strings, ``white:black:cube:dice:…:score_white:score_black:…``, whose cube
  field is the owner (``N``, ``W``, ``B``), the cube's log2 and the cube action (``N``,
  ``O`` offered, ``T`` taken, ``P`` passed): ``N0P`` is a centred cube of 1, dropped.

How a game is booked: its winner and the points the engine settled. The cube is the one in
force at its end (for a drop, the value before the refused offer); the result is points ÷
cube (single, gammon, backgammon); the end is ``drop`` after a passed double, ``resign``
for a resignation (BGBlitz does not mark one: a game over with the winner's checkers still
on the board was resigned), ``bearoff`` when the winner has borne off every checker,
``forfeit`` for a forfeit (worth the cube in force, a single, as in a ``.mat`` file).

Matches (booked only with ``--match-as-money``): XG stores the last game's points capped at
what the winner needed, as a ``.mat`` file does, and BGBlitz stores them in full; each is
booked as its own file scored it (``Wins 3 points`` at the cube 4 is booked at 3, with a
warning; a BGBlitz game worth more than the match needed, at its worth, with a warning).

Identity: a game's key is its players (``_`` read as a space), its number, the score before
it, every ply (who, what, and the position it left) and its result (in a match, what the
match counted), none of which depends on the program that wrote the file or how it saved it:
the same session as ``.xg`` and as ``.bgf`` has the same keys, and importing both books
its games once.

Warnings (the game is booked at the engine's points all the same):

- ``game 3: the file says 8 points, which does not fit the cube 2 it ends at; booked as
  cube 8, single`` — the cube actions the library followed and the result disagree;
- ``game 7: worth 4 points at the cube 4, more than the 3 the match needed: booked at 4 as
  the file scored it``.

gammonview 3.1 reads an XG beaver as a drop and then loses the rest of the game: it gives
that game no end (and the previous game's winner and points). Such a game, a drop with no
end after it, refuses the file with a word on what to do; a beaver in the first game makes
the library fail, which refuses the file too.
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import PurePath
from typing import Any, Literal

from chouette.engines.model import (
    Ending,
    EngineGame,
    EngineRead,
    EngineSession,
    GameKey,
    Played,
    Scored,
    point_count,
    roll,
)
from chouette.engines.text import GZIP_MAGIC
from chouette.errors import EngineFileError
from chouette.game import KINDS
from chouette.points import fit_points, kind_of
from chouette.words import Said, Sayable, said, said_n

Kind = Literal["xg", "bgf"]
#: The binary engine files, by extension, and what they are called in messages.
BINARY: dict[str, Kind] = {".xg": "xg", ".bgf": "bgf"}
LABELS: dict[Kind, str] = {"xg": "eXtreme Gammon .xg", "bgf": "BGBlitz .bgf"}
#: The largest binary file read (a 7-point match with XG's analysis is about 150 kB; 16 MiB
#: is a session of a thousand games). The library holds a file whole, and more besides.
MAX_BINARY = 16 << 20
#: The most the compressed part of a file may expand to (XG's records are about 11 times
#: the file): past that it is no file of games, and it would only fill the memory.
MAX_INFLATED = 256 << 20

_DOUBLE, _TAKE, _DROP = 21, 22, 23
_GAME_OVER = frozenset({24, 26})
_RESIGN = frozenset({27, 28})
_FORFEIT = 29
#: A position set by hand (a move entered as a board): counted as a roll when it has dice.
_BY_HAND = 31
_ENDS = _GAME_OVER | _RESIGN | {_FORFEIT}
_CUBE_ACTIONS = frozenset({_DOUBLE, _TAKE, _DROP})
_DIE = frozenset(range(1, 7))
_CUBE = re.compile(r"([NWBD?])([0-9]{1,2})([NOTP])")
_MAX_DOUBLINGS = 62
#: Where XG's compressed records start: after its 8,232-byte header and a thumbnail whose
#: size the header gives at byte 20 (XG's published file layout).
_XG_HEADER = 8232
_XG_THUMBNAIL_SIZE = 20
_READ = 1 << 16
#: How an .xg file starts (XG's header), and a .bgf file (a JSON line naming its format).
_XG_MAGIC = b"RGMH"
_BGF_HEAD = re.compile(rb'\{[^\n]{0,2000}?"format"\s*:\s*"BGF"')
#: How many of a file's first bytes :func:`binary_magic` needs.
MAGIC_BYTES = 2048


def binary_kind(name: str) -> Kind | None:
    """``"xg"`` or ``"bgf"`` for a file name that ends so, else ``None``."""
    return BINARY.get(PurePath(name).suffix.lower())


def binary_magic(head: bytes) -> Kind | None:
    """``"xg"`` or ``"bgf"`` for a file whose first bytes (:data:`MAGIC_BYTES` are plenty)
    are an XG header or a BGBlitz JSON line, else ``None``: what a file is when its name
    does not say (``session.gz``, once decompressed)."""
    if head.startswith(_XG_MAGIC):
        return "xg"
    return "bgf" if _BGF_HEAD.match(head) else None


def check_inflated(data: bytes, kind: Kind, limit: int = MAX_INFLATED) -> None:
    """Refuse a file whose compressed part would expand past ``limit`` bytes (a
    decompression bomb), expanding it a piece at a time so that memory stays flat. A part
    that is not compressed, or is damaged, is left for the library to judge."""
    if kind == "xg":
        if len(data) < _XG_THUMBNAIL_SIZE + 4:
            return
        (thumbnail,) = struct.unpack_from("<I", data, _XG_THUMBNAIL_SIZE)
        rest = memoryview(data)[_XG_HEADER + thumbnail :]
        wbits = zlib.MAX_WBITS
    else:  # a JSON line, then the payload: gzip (one member or more), zlib, or plain
        rest = memoryview(data)[data.find(b"\n") + 1 :]
        head = bytes(rest[:2])
        if head == GZIP_MAGIC:
            wbits = 16 + zlib.MAX_WBITS
        elif head[:1] == b"\x78":
            wbits = zlib.MAX_WBITS
        else:
            return
    size = 0
    try:
        while rest:
            stream = zlib.decompressobj(wbits)
            at = 0
            while at < len(rest) and not stream.eof:
                chunk = rest[at : at + _READ]
                piece = chunk
                while piece and not stream.eof:
                    size += len(stream.decompress(piece, _READ))
                    if size > limit:
                        most = f"{limit / (1 << 20):g}"
                        raise EngineFileError(
                            said(
                                "its compressed part expands to more than {most} MiB, which no "
                                "{kind} file of games does: refused",
                                most=most,
                                kind=LABELS[kind],
                            )
                        )
                    piece = memoryview(stream.unconsumed_tail)
                at += len(chunk) - len(stream.unused_data)  # past the end: the next member
            if not stream.eof or wbits == zlib.MAX_WBITS:
                return
            rest = rest[at:]  # gzip's next member, if any
            if bytes(rest[:2]) != GZIP_MAGIC:
                return
    except zlib.error:
        return


def bgblitz_names(
    players: Iterable[str], names: Mapping[str, str], seated: Iterable[str]
) -> dict[str, str]:
    """``--as`` for a BGBlitz file, which writes a space in a name as ``_``: a name the
    mapping and the session do not know as written is known by its spaced spelling
    (``Marion_Castlebury`` is the seated ``Marion Castlebury``, or what ``--as 'Marion
    Castlebury=marion'`` maps); a name known as written (``Lanternwood_123``) stays so."""
    mapping = dict(names)
    here = set(seated)
    for name in players:
        if "_" not in name or name in mapping or name in here:
            continue
        spaced = name.replace("_", " ")
        if spaced in mapping:
            mapping[name] = mapping[spaced]
        elif spaced in here:
            mapping[name] = spaced
    return mapping


@dataclass(frozen=True)
class _File:
    kind: Kind
    names: tuple[str, str]
    match_length: int
    played_at: str | None


def read_gammonview(doc: Mapping[str, Any], kind: Kind) -> EngineRead:
    """The games of an ``.xg`` or ``.bgf`` file, from the dict gammonview made of it.

    Raises :class:`~chouette.errors.EngineFileError` (``"game N: reason"``) for a dict that
    does not say what a game needs, here for the header and later, as the games stream,
    for the rest.
    """
    if not isinstance(doc, Mapping):
        raise EngineFileError(said("the library gave no match (not a dict)"))
    names = (
        _name(doc, "player_white", said("the file names no player white")),
        _name(doc, "player_black", said("the file names no player black")),
    )
    if names[0] == names[1]:
        raise EngineFileError(said("both players are called {name}", name=repr(names[0])))
    match_length = _integer(doc, "match_length", said("the match length"))
    if match_length < 0:
        raise EngineFileError(said("the match length {value} is negative", value=match_length))
    games = doc.get("games")
    if not isinstance(games, list) or not games:
        raise EngineFileError(said("the file has no games"))
    limit = doc.get("cube_limit")
    session = EngineSession(
        format=kind,
        players=names,
        match_length=match_length,
        jacoby=bool(doc["jacoby"]) if "jacoby" in doc else None,
        beavers=bool(doc["beaver"]) if "beaver" in doc else None,
        cube_limit=limit if isinstance(limit, int) and limit >= 1 else None,
        name=_text(doc.get("event")),
        tags={k: v for k in ("event", "site") if (v := _text(doc.get(k)))},
    )
    file = _File(kind, names, match_length, _date(doc.get("timestamp")))
    notes: list[Sayable] = []
    return EngineRead(session, _games(games, file, notes), notes)


def _games(games: list[Any], file: _File, notes: list[Sayable]) -> Iterator[EngineGame]:
    """Every game; a last game that has not ended is left out, with a note."""
    last = len(games)
    for number, game in enumerate(games, start=1):
        if not isinstance(game, Mapping):
            raise EngineFileError(said("game {number}: the library gave no game", number=number))
        plies = game.get("plies")
        if (
            not isinstance(plies, list)
            or not plies
            or not all(isinstance(ply, Mapping) for ply in plies)
        ):
            raise EngineFileError(said("game {number}: the library gave no moves", number=number))
        final = _action(plies[-1], number)
        if final == _DROP and file.kind == "xg":
            raise EngineFileError(
                said(
                    "game {number}: a double the library read as dropped, after which it lost "
                    "the game (gammonview reads XG's beaver as a drop and then cannot follow "
                    "the game): refused rather than booked wrong; export the session from XG "
                    "as a .mat file and import that",
                    number=number,
                )
            )
        ended = final in _ENDS and game.get("winner") in (0, 1)
        points = game.get("points_won")
        if not ended or not isinstance(points, int) or points < 1:
            if number == last:
                notes.append(
                    said(
                        "game {number} has not ended: not booked; import the file again once "
                        "it has (the games booked now are not booked twice)",
                        number=number,
                    )
                )
                return
            raise EngineFileError(
                said(
                    "game {number} has no result, and game {next} follows",
                    number=number,
                    next=number + 1,
                )
            )
        yield _settle(number, game["winner"], points, plies, file, number == last)


def _settle(
    number: int, winner: int, points: int, plies: list[Any], file: _File, last: bool
) -> EngineGame:
    """One game as booked: the engine's points, the cube and how the game ended."""
    before = _fields(plies[0].get("ogid_before"), number)
    score = (_score(before, 6, number), _score(before, 7, number))
    final = plies[-1]
    end_action = _action(final, number)
    at_end = _fields(final.get("ogid_before"), number)
    cube_field = _CUBE.fullmatch(at_end[2])
    if cube_field is None or int(cube_field.group(2)) > _MAX_DOUBLINGS:
        raise EngineFileError(
            said(
                "game {number}: cannot read the cube {value}", number=number, value=repr(at_end[2])
            )
        )
    cube = 1 << int(cube_field.group(2))
    dropped = cube_field.group(3) == "P"
    end: Ending
    if end_action == _FORFEIT:
        end = "forfeit"
    elif dropped:
        end = "drop"
    elif end_action in _RESIGN:
        end = "resign"
    else:  # the winner's side of the position is empty once every checker is off
        end = "bearoff" if at_end[winner] == "" else "resign"
    warnings: list[Sayable] = []
    need = file.match_length - score[winner] if file.match_length else 0
    scored: Scored
    if end == "forfeit":
        scored = "single"
        if points != cube:
            warnings.append(
                said(
                    "game {number}: a forfeit, which the file scores {points}: booked at the "
                    "cube in force, {cube}",
                    number=number,
                    points=point_count(points),
                    cube=point_count(cube),
                )
            )
        points = cube
    elif (level := kind_of(points, cube)) is not None and (not dropped or points == cube):
        scored = level
    elif last and file.match_length and points <= need:
        scored, end = "single", "settle"
        warnings.append(
            said(
                "game {number}: {points} at the cube {cube} is what the match scored (capped), "
                "not the cube × 1, 2 or 3: booked at {points} as the file scored it",
                number=number,
                points=point_count(points),
                cube=cube,
            )
        )
    else:
        fit = fit_points(points, cube, "single")
        if fit is None:
            raise EngineFileError(
                said_n(
                    "game {number}: the file says {n} point, which no cube × 1, 2 or 3 makes",
                    "game {number}: the file says {n} points, which no cube × 1, 2 or 3 makes",
                    points,
                    number=number,
                    n=points,
                )
            )
        cube, scored = fit
        if end == "drop" and scored != "single":
            end = "resign"
        warnings.append(
            said(
                "game {number}: the file says {points}, which does not fit the cube {file_cube} "
                "it ends at; booked as cube {cube}, {level}",
                number=number,
                points=point_count(points),
                file_cube=1 << int(cube_field.group(2)),
                cube=cube,
                level=KINDS[scored],
            )
        )
    if last and file.match_length and points > need > 0:
        warnings.append(
            said(
                "game {number}: worth {points} at the cube {cube}, more than the {need} the "
                "match needed: booked at {value} as the file scored it",
                number=number,
                points=point_count(points),
                cube=cube,
                need=need,
                value=points,
            )
        )
    return EngineGame(
        position=number,
        line=0,
        winner=file.names[winner],
        loser=file.names[1 - winner],
        points=points,
        cube=cube,
        result=scored,
        end=end,
        played_at=file.played_at,
        warnings=tuple(warnings),
        number=number,
        key=_key(number, score, plies, winner, min(points, need) if need > 0 else points, file),
        played=_played(number, score, plies, winner),
    )


def _played(number: int, score: tuple[int, int], plies: list[Any], winner: int) -> Played:
    """The game's rolls in order (:class:`Played`): each ply that is a roll, its dice, and
    each move entered by hand (a position set, ``31``) that has its dice, as the ``.mat`` of
    the same game writes that roll. ``older``: without those (as an older chouette read
    this file), and without the rolls nobody moved after at the end (the dice of a player
    who then resigned, as an older chouette read gnubg's SGF of the game)."""
    found: list[int] = []
    by_hand: list[int] = []  # where in ``found`` a move entered by hand is
    tail = 0  # the rolls at the end that moved no checker
    for ply in plies:
        action, first, second = ply.get("action_id"), ply.get("d1"), ply.get("d2")
        if action in _CUBE_ACTIONS:
            tail = 0
            continue
        if not isinstance(action, int) or first not in _DIE or second not in _DIE:
            continue
        if not (0 <= action <= 20 or action == _BY_HAND):
            continue
        if action == _BY_HAND:
            by_hand.append(len(found))
        found.append(roll(first, second))
        moved = _checkers(ply.get("ogid_before")) != _checkers(ply.get("ogid_after"))
        tail = 0 if moved else tail + 1
    end = range(len(found) - tail, len(found))  # the rolls nobody moved after, at the end
    older = [
        tuple(r for i, r in enumerate(found) if i not in dropped)
        for dropped in (set(by_hand), set(end), set(by_hand) | set(end))
        if dropped
    ]
    rolls = tuple(found)
    return Played(number, score, rolls, winner, tuple(older))


def _checkers(ogid: object) -> tuple[str, ...]:
    """The checkers of an OGID position (its first two fields), or nothing to compare."""
    return tuple(ogid.split(":")[:2]) if isinstance(ogid, str) else ()


def _key(
    number: int,
    score: tuple[int, int],
    plies: list[Any],
    winner: int,
    counted: int,
    file: _File,
) -> str:
    """The game's identity: its players, number and score before, every ply but the end
    (who, what, and for a roll the position it left), and its winner and points (in a
    match, the points it counted). Nothing in it depends on which program wrote the file."""
    names = (name.replace("_", " ") for name in file.names)
    key = GameKey("gammonview", *names, number, *score)
    for ply in plies[:-1]:
        action = _action(ply, number)
        if action in _CUBE_ACTIONS:
            key.add(ply.get("color"), action)
        else:
            after = _fields(ply.get("ogid_after"), number)
            key.add(ply.get("color"), action, after[0], after[1])
    key.add(winner, counted)
    return key.hex()


def _action(ply: Mapping[str, Any], number: int) -> int:
    action = ply.get("action_id")
    if not isinstance(action, int):
        raise EngineFileError(said("game {number}: a move without an action", number=number))
    return action


def _fields(ogid: object, number: int) -> list[str]:
    """An OGID position as its fields (at least the eight up to the scores)."""
    fields = ogid.split(":") if isinstance(ogid, str) else []
    if len(fields) < 8:
        raise EngineFileError(
            said("game {number}: cannot read the position {value}", number=number, value=repr(ogid))
        )
    return fields


def _score(fields: list[str], at: int, number: int) -> int:
    text = fields[at]
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise EngineFileError(
            said("game {number}: cannot read the score {value}", number=number, value=repr(text))
        )
    return int(text)


def _name(doc: Mapping[str, Any], key: str, none: Said) -> str:
    """A player's name (``none``: the refusal of a file that names nobody there)."""
    name = doc.get(key)
    if not isinstance(name, str) or not name.strip():
        raise EngineFileError(none)
    return name.strip()


def _integer(doc: Mapping[str, Any], key: str, what: Said) -> int:
    value = doc.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise EngineFileError(said("the file gives no {what}", what=what))
    return value


def _text(value: object) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _date(timestamp: object) -> str | None:
    """The day the file says the session was played (a Unix time), as an ISO date."""
    if not isinstance(timestamp, int) or isinstance(timestamp, bool) or timestamp <= 0:
        return None
    try:
        return datetime.fromtimestamp(timestamp, tz=UTC).date().isoformat()
    except (OverflowError, OSError, ValueError):
        return None


__all__ = [
    "BINARY",
    "LABELS",
    "MAGIC_BYTES",
    "MAX_BINARY",
    "MAX_INFLATED",
    "Kind",
    "bgblitz_names",
    "binary_kind",
    "binary_magic",
    "check_inflated",
    "read_gammonview",
]
