"""gnubg's SGF files (``GM[6]``): one game tree per game, with gnubg's own result.

``(;FF[4]GM[6]…MI[length:0][game:1][ws:0][bs:2]PW[Alice]PB[Bob]RU[Jacoby]CV[2]RE[B+4R]
;W[62xrmk];B[double];W[take]…)``: ``PW`` is the first player (``W`` nodes), ``PB`` the
second (``B`` nodes). ``RE[W+n]`` / ``RE[B+n]`` is the winner's points after Jacoby and
automatic doubles — the truth for points — with a trailing ``R`` for a resignation.
``CV[n]`` is the cube after automatic doubles; ``[double]``, ``[take]``, ``[drop]`` are
cube actions, a further ``[double]`` by the other side a beaver (then a raccoon).

Files saved after analysis carry large evaluation properties (``A``, ``DA``, ``GS``, about
65 kB a game). The tokenizer here skips every value it does not need without building it,
one chunk at a time, so memory stays flat and reading stays fast.

Warnings (the game is booked at gnubg's points all the same):

- ``game 3: RE[] gives 8 points, which does not fit the cube 2`` — the cube actions and
  the result disagree (the cube and level booked are then the ones that make 8);
- ``game 3: RE[] gives Ann 8 points, but the next game starts 4-0 after 0-0`` — the next
  game's ``MI[ws:][bs:]`` score disagrees.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from chouette.engines.model import (
    Ending,
    EngineGame,
    EngineRead,
    EngineSession,
    GameKey,
    Played,
    Scored,
    problem,
    roll,
)
from chouette.points import fit_points, kind_of, pair_points
from chouette.words import Said, Sayable, said, said_n

#: The properties read; every other value is skipped unread.
_KEEP = frozenset(
    {
        *("FF", "GM", "CA", "AP", "MI", "PW", "PB", "RE", "RU", "CV", "DT", "EV", "PC", "RO"),
        *("W", "B", "PL", "DI"),
    }
)
_ROOT_TAGS = ("AP", "CA", "DT", "EV", "FF", "PC", "RO", "RU")
_MAX_VALUE = 4096
_READ_AHEAD = 16384
_MAX_DOUBLINGS = 62

_SPACE = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Za-z]+")
_RESULT = re.compile(r"([WB])\+([0-9]{1,9})(R?)")
#: A move node's roll: its first two characters (``52lqfh``: a 5 and a 2, then the move).
_ROLL = re.compile(r"([1-6])([1-6])")
_INFO = re.compile(r"([a-z]+):(-?[0-9]{1,9})")
#: A whole move node with one plain value, when what follows is already in the buffer.
_MOVE_NODE = re.compile(r";[ \t]*([WB])\[([^\]\\\n\r]*)\](?=\s*[;()A-Za-z])")
_ESCAPE = re.compile(r"\\(\r\n|\n\r|.)", re.DOTALL)

_Token = tuple[str, int, str, list[str] | None]  # (kind, line, property, values)


def read_sgf(chunks: Iterable[str], *, jacoby: bool, auto_doubles: int = 0) -> EngineRead:
    """Read a gnubg SGF file: its first game's header now, its games as they stream.

    ``chunks`` are pieces of the text in order (lines, or blocks of any size). The file
    carries its own rules and results, so ``jacoby`` and ``auto_doubles`` (the session's
    house rules, taken for a common signature) change nothing here. Raises
    :class:`~chouette.errors.EngineFileError` (``"line N: reason"``).
    """
    del jacoby, auto_doubles
    trees = _trees(_tokens(chunks))
    first = next(trees, None)
    if first is None:
        raise problem(1, said("no game in the file (an SGF game starts with '(;')"))
    session = _session(first)
    notes: list[Sayable] = []
    return EngineRead(session, _games(first, trees, notes), notes)


@dataclass
class _Tree:
    """What one game tree says: its root properties and its cube actions."""

    line: int
    root: dict[str, tuple[int, list[str]]] = field(default_factory=dict)
    moves: GameKey = field(default_factory=lambda: GameKey("sgf moves"))
    rolls: list[int] = field(default_factory=list)  # in order (:class:`Played`)
    moved: list[int] = field(default_factory=list)  # the rolls of moves alone (older chouette)
    player: str = ""  # the node's PL[] (whose dice a DI[] are)
    set_dice: tuple[str, int] | None = None  # the last node's DI[]: by whom, which dice
    offers: list[tuple[int, str]] = field(default_factory=list)  # (value if taken, by W/B)
    cube: int = 1
    pays: int | None = None
    ended_by_drop: bool = False
    end: int = 0  # the line of its closing ')'


def _session(tree: _Tree) -> EngineSession:
    names = (_text(tree, "PW"), _text(tree, "PB"))
    info = _info(tree)
    rules = _rules(tree)
    variation = next(
        (rule for rule in rules if rule.lower().startswith(("nackgammon", "hypergammon"))), None
    )
    return EngineSession(
        format="sgf",
        players=names,
        match_length=info.get("length", 0),
        jacoby="Jacoby" in rules,
        cube_limit=1 if "NoCube" in rules else None,
        variation=variation,
        name=tree.root["EV"][1][0] if "EV" in tree.root else None,
        tags={key: tree.root[key][1][0] for key in _ROOT_TAGS if key in tree.root},
    )


def _games(first: _Tree, rest: Iterator[_Tree], notes: list[Sayable]) -> Iterator[EngineGame]:
    """Every game, checked against the score the next game starts from. A last game without
    a result (the session is still being played, or the engine stopped) is left out, with a
    note; a game without a result before the next one begins is an error.

    gnubg dates only the first game (``DT[]``): the others are played on that date too."""
    index = 1
    current = first
    date = first.root["DT"][1][0].strip() if "DT" in first.root else None
    for following in rest:
        yield _settle(current, index, following, date)
        index += 1
        current = following
    if "RE" not in current.root:
        notes.append(
            said(
                "game {number} (line {line}) has no result yet: not booked; import the file "
                "again once it has (the games booked now are not booked twice)",
                number=index,
                line=current.line,
            )
        )
        return
    yield _settle(current, index, None, date)


def _settle(tree: _Tree, index: int, following: _Tree | None, date: str | None) -> EngineGame:
    """One game as booked: gnubg's own points, the cube and how the game ended."""
    names = (_text(tree, "PW"), _text(tree, "PB"))
    if names[0] == names[1]:
        raise problem(
            tree.root["PB"][0], said("both players are called {name}", name=repr(names[0]))
        )
    if "RE" not in tree.root:
        raise problem(tree.line, said("game {number} has no winner (no RE[] result)", number=index))
    if tree.offers:
        raise problem(
            tree.end,
            said(
                "game {number} ends with a double to {value} unanswered",
                number=index,
                value=tree.offers[-1][0],
            ),
        )
    line, values = tree.root["RE"]
    result = _RESULT.fullmatch(values[0].strip())
    if result is None:
        raise problem(
            line,
            said("cannot read the result RE[{value}] (expected W+n or B+n)", value=values[0]),
        )
    winner = 0 if result.group(1) == "W" else 1
    points = int(result.group(2))
    if points < 1:
        raise problem(
            line,
            said(
                "game {number}: {player} wins {value} points",
                number=index,
                player=names[winner],
                value=points,
            ),
        )
    info = _info(tree)
    end: Ending = "drop" if tree.ended_by_drop else "resign" if result.group(3) else "bearoff"
    cube = tree.pays if tree.ended_by_drop and tree.pays is not None else tree.cube
    warnings: list[Sayable] = []
    level = kind_of(points, cube)
    if end == "drop" and level != "single":
        level = None
    scored: Scored
    if level is None:
        fit = fit_points(points, cube, "single")
        if fit is None:
            raise problem(
                line,
                said(
                    "game {number}: {value} points is no cube × 1, 2 or 3",
                    number=index,
                    value=points,
                ),
            )
        warnings.append(
            said_n(
                "game {number}: RE[] gives {n} point, which does not fit the cube {cube}",
                "game {number}: RE[] gives {n} points, which does not fit the cube {cube}",
                points,
                number=index,
                n=points,
                cube=cube,
            )
        )
        cube, scored = fit
    else:
        scored = level
    warnings.extend(_score_check(tree, index, following, winner, points, names))
    return EngineGame(
        position=index,
        line=tree.line,
        winner=names[winner],
        loser=names[1 - winner],
        points=pair_points(cube, scored),
        cube=cube,
        result=scored,
        end=end,
        played_at=tree.root["DT"][1][0].strip() if "DT" in tree.root else date,
        warnings=tuple(warnings),
        number=info["game"] + 1 if "game" in info else None,
        key=_key(tree, names, info, values[0]),
        played=(
            Played(
                info["game"] + 1,
                (info["ws"], info["bs"]),
                tuple(tree.rolls),
                winner,
                (tuple(tree.moved),) if tree.moved != tree.rolls else (),
            )
            if {"game", "ws", "bs"} <= info.keys()
            else None
        ),
    )


def _key(tree: _Tree, names: tuple[str, str], info: dict[str, int], result: str) -> str:
    """The game's identity: its players, its number and the score before it, its starting
    cube, every move and cube action, and its result (analysis and comments left out)."""
    cube = tree.root["CV"][1][0].strip() if "CV" in tree.root else "1"
    place = (info.get(k, "") for k in ("game", "ws", "bs"))
    return GameKey("sgf", *names, *place, cube, tree.moves.hex(), result.strip()).hex()


def _score_check(
    tree: _Tree,
    index: int,
    following: _Tree | None,
    winner: int,
    points: int,
    names: tuple[str, str],
) -> list[Sayable]:
    """A warning when the next game's starting score (``MI[ws:][bs:]``) disagrees with RE[]."""
    if following is None:
        return []
    before, after = _info(tree), _info(following)
    keys = ("ws", "bs")
    if not all(key in before and key in after for key in keys):
        return []
    gained = [after[key] - before[key] for key in keys]
    expected = [points if side == winner else 0 for side in (0, 1)]
    if gained == expected:
        return []
    return [
        said_n(
            "game {number}: RE[] gives {player} {n} point, but the next game starts {after} "
            "after {before}",
            "game {number}: RE[] gives {player} {n} points, but the next game starts {after} "
            "after {before}",
            points,
            number=index,
            player=names[winner],
            n=points,
            after=f"{after['ws']}-{after['bs']}",
            before=f"{before['ws']}-{before['bs']}",
        )
    ]


def _text(tree: _Tree, key: str) -> str:
    """A root property that must be there and not be empty (a player's name)."""
    if key not in tree.root or not tree.root[key][1][0].strip():
        raise problem(tree.line, said("the game has no {key}[] (player name)", key=key))
    return tree.root[key][1][0].strip()


def _info(tree: _Tree) -> dict[str, int]:
    """``MI[length:0][game:1][ws:0][bs:2]`` as numbers."""
    if "MI" not in tree.root:
        return {}
    line, values = tree.root["MI"]
    info: dict[str, int] = {}
    for value in values:
        item = _INFO.fullmatch(value.strip())
        if item is None:
            raise problem(line, said("cannot read MI[{value}] (expected key:number)", value=value))
        info[item.group(1)] = int(item.group(2))
    if info.get("length", 0) < 0:
        raise problem(line, said("the match length {value} is negative", value=info["length"]))
    return info


def _rules(tree: _Tree) -> list[str]:
    if "RU" not in tree.root:
        return []
    return [rule for rule in tree.root["RU"][1][0].split(":") if rule]


def _trees(tokens: Iterator[_Token]) -> Iterator[_Tree]:
    """Game trees from the tokens, each with its root properties and cube actions."""
    tree: _Tree | None = None
    node = 0  # nodes seen in the current tree
    for kind, line, ident, values in tokens:
        if kind == "(":
            if tree is not None:
                raise problem(line, said("a game with variations (a tree inside a tree)"))
            tree, node = _Tree(line), 0
        elif tree is None:
            raise problem(line, _outside(kind, ident))
        elif kind == ";":
            node += 1
        elif kind == ")":
            if node == 0:
                raise problem(line, said("an empty game tree '()'"))
            _close(tree, line)
            yield tree
            tree = None
        elif node == 0:
            raise problem(line, said("property {ident} before the first node ';'", ident=ident))
        elif values is not None and node == 1:
            _root_property(tree, line, ident, values)
        elif values is not None:
            _action(tree, line, ident, values)
    if tree is not None:
        raise problem(tree.line, said("the file ends inside a game tree (no closing ')')"))


def _outside(kind: str, ident: str) -> Said:
    """A token outside any game tree: a property, or a character as written."""
    if kind == "prop":
        return said("property {ident} outside a game tree '(…)'", ident=ident)
    return said("{token} outside a game tree '(…)'", token=repr(kind))


def _root_property(tree: _Tree, line: int, ident: str, values: list[str]) -> None:
    if ident in tree.root:
        raise problem(line, said("property {ident} twice in one node", ident=ident))
    tree.root[ident] = (line, values)
    if ident == "GM" and values[0].strip() != "6":
        raise problem(line, said("GM[{value}] is not a backgammon game (GM[6])", value=values[0]))
    if ident == "CV":
        text = values[0].strip()
        if not text.isascii() or not text.isdigit() or len(text) > 18:
            raise problem(line, said("cannot read the cube CV[{value}]", value=values[0]))
        cube = int(text)
        if cube < 1 or cube & (cube - 1):
            raise problem(line, said("the cube CV[{value}] is not a power of two", value=values[0]))
        tree.cube = cube


def _action(tree: _Tree, line: int, ident: str, values: list[str]) -> None:
    """A move node: ``W[double]``, ``B[take]``, ``W[drop]``, or a roll and move; or the dice
    alone, ``PL[B]DI[33]`` (gnubg: rolled, and then no move: the player resigned)."""
    if ident == "PL":
        tree.player = values[0].strip()
        return
    if ident == "DI":
        dice = _ROLL.fullmatch(values[0].strip())
        if dice:
            rolled = roll(int(dice.group(1)), int(dice.group(2)))
            tree.rolls.append(rolled)
            tree.set_dice = (tree.player, rolled)
        return
    if ident not in ("W", "B"):
        return
    tree.moves.add(ident, values[0].strip())
    dice = _ROLL.match(values[0].strip())
    if dice:
        rolled = roll(int(dice.group(1)), int(dice.group(2)))
        if tree.set_dice != (ident, rolled):  # (the dice set, then played: one roll)
            tree.rolls.append(rolled)
        tree.moved.append(rolled)
    tree.set_dice = None
    if tree.ended_by_drop:
        raise problem(line, said("a move after the game was dropped"))
    player = tree.root.get("PW" if ident == "W" else "PB")
    name = player[1][0].strip() if player and player[1][0].strip() else ident
    action = values[0].strip()
    if action == "double":
        if tree.offers and tree.offers[-1][1] == ident:
            raise problem(line, said("{player} doubles {player}'s own offer", player=name))
        top = tree.offers[-1][0] if tree.offers else tree.cube
        if top.bit_length() > _MAX_DOUBLINGS:
            raise problem(line, said("the cube is doubled beyond any real value"))
        tree.offers.append((2 * top, ident))
    elif action in ("take", "drop"):
        if not tree.offers and action == "take":
            raise problem(
                line,
                said(
                    "{player} takes with no double pending ({ident}[take])",
                    player=name,
                    ident=ident,
                ),
            )
        if not tree.offers:
            raise problem(
                line,
                said(
                    "{player} drops with no double pending ({ident}[drop])",
                    player=name,
                    ident=ident,
                ),
            )
        if tree.offers[-1][1] == ident:
            raise problem(line, said("{player} answers {player}'s own double", player=name))
        if action == "take":
            tree.cube = tree.offers[-1][0]
        else:
            tree.pays = tree.offers[-2][0] if len(tree.offers) > 1 else tree.cube
            tree.ended_by_drop = True
        tree.offers.clear()
    elif tree.offers:
        raise problem(
            line,
            said(
                "{player} plays on with a double to {value} unanswered",
                player=name,
                value=tree.offers[-1][0],
            ),
        )


def _close(tree: _Tree, line: int) -> None:
    if "GM" not in tree.root:
        raise problem(tree.line, said("not a backgammon SGF game (no GM[6])"))
    tree.end = line


def _tokens(chunks: Iterable[str]) -> Iterator[_Token]:
    """The SGF tokens: ``(``, ``)``, ``;`` and properties with their values.

    A value of a property outside :data:`_KEEP` is skipped, never built (``values`` is
    ``None``); kept values are unescaped (``\\]`` → ``]``). Works across chunk boundaries.
    """
    source = iter(chunks)
    buffer = ""
    pos = 0
    line = 1
    ended = False
    started = False  # a byte-order mark is dropped from the first text only

    def more() -> bool:
        """Append the next chunks (about :data:`_READ_AHEAD` characters) to what is left of
        the buffer; ``False`` at the end."""
        nonlocal buffer, pos, ended, started
        pieces = [buffer[pos:]]
        size = 0
        while not ended and size < _READ_AHEAD:
            try:
                chunk = next(source)
            except StopIteration:
                ended = True
                break
            except UnicodeError:
                raise problem(line, said("not UTF-8 text")) from None
            if not isinstance(chunk, str):
                raise problem(line, said("not text (the file must be opened as UTF-8 text)"))
            if not started:
                chunk = chunk.removeprefix("\ufeff")
                started = bool(chunk)
            pieces.append(chunk)
            size += len(chunk)
        buffer = "".join(pieces)
        pos = 0
        return size > 0

    while True:
        space = _SPACE.match(buffer, pos)
        end = space.end() if space else pos
        line += buffer.count("\n", pos, end)
        pos = end
        if pos >= len(buffer):
            if more():
                continue
            return
        char = buffer[pos]
        if char == ";":
            node = _MOVE_NODE.match(buffer, pos)
            if node is not None:  # the common ";W[52xvmh]" in one step
                pos = node.end()
                yield ";", line, "", None
                yield "prop", line, node.group(1), [node.group(2)]
                continue
        if char in "();":
            pos += 1
            yield char, line, "", None
            continue
        ident_match = _IDENT.match(buffer, pos)
        if ident_match is None:
            raise problem(
                line,
                said("unexpected {char} (expected '(', ';', ')' or a property)", char=repr(char)),
            )
        if ident_match.end() == len(buffer) and more():
            continue  # the name may go on in the next chunk
        ident = ident_match.group()
        pos = ident_match.end()
        start_line = line
        keep = ident in _KEEP
        values: list[str] = []
        while True:
            space = _SPACE.match(buffer, pos)
            end = space.end() if space else pos
            line += buffer.count("\n", pos, end)
            pos = end
            if pos >= len(buffer):
                if more():
                    continue
                break
            if buffer[pos] != "[":
                break
            pos += 1
            parts: list[str] = []
            size = 0
            while True:
                close = _value_end(buffer, pos)
                if close >= 0:
                    break
                run = len(buffer) - len(buffer.rstrip("\\"))
                tail = len(buffer) - run  # keep a trailing run of backslashes whole
                line += buffer.count("\n", pos, tail)
                if keep:
                    parts.append(buffer[pos:tail])
                    size += tail - pos
                    if size > _MAX_VALUE:
                        raise problem(
                            start_line, said("the value of {ident}[] is too long", ident=ident)
                        )
                pos = tail
                if not more():
                    raise problem(
                        line, said("the file ends inside the value of {ident}[]", ident=ident)
                    )
            line += buffer.count("\n", pos, close)
            if keep:
                parts.append(buffer[pos:close])
                if size + close - pos > _MAX_VALUE:
                    raise problem(
                        start_line, said("the value of {ident}[] is too long", ident=ident)
                    )
                raw = "".join(parts)
                values.append(_ESCAPE.sub(_unescape, raw) if "\\" in raw else raw)
            pos = close + 1
        if not values and keep:
            raise problem(start_line, said("property {ident} has no value", ident=ident))
        yield "prop", start_line, ident, values if keep else None


def _value_end(buffer: str, pos: int) -> int:
    """Where the value starting at ``pos`` ends: its first unescaped ``]``, or -1."""
    close = buffer.find("]", pos)
    while close >= 0:
        backslashes = 0
        k = close - 1
        while k >= pos and buffer[k] == "\\":
            backslashes += 1
            k -= 1
        if backslashes % 2 == 0:
            return close
        close = buffer.find("]", close + 1)
    return -1


def _unescape(match: re.Match[str]) -> str:
    """SGF text: ``\\`` + line break is a soft break (removed); ``\\x`` is ``x``."""
    escaped = match.group(1)
    return "" if escaped in ("\n", "\r\n", "\n\r", "\r") else escaped
