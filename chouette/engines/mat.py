"""Jellyfish ``.mat`` files, as gnubg, XG, BGBlitz and the servers write them.

A file is a header (``; [Key "Value"]`` tags, then `` N point match``; 0 = money), then one
block per game: `` Game N``, the score **before** the game (``Alice : 3   Bob : 5``), and
numbered lines with the two players' turns side by side (left column = the first player).
A turn is a roll with its moves (``52: 13/8 13/11``), a cube action (``Doubles => 2``,
``Takes``, ``Drops``, ``Beavers => 4``; a raccoon is written ``Beavers`` too, and no
``Takes`` follows a beaver) or the end, ``Wins N points``, written in the winner's column.

What a game was worth is worked out from the cube actions and how the game ended, then
checked against the next game's score header, which is always right: for a game played
out gnubg writes the ``Wins`` line as the board's level times the cube the file shows
(export.c, ``ExportGameJF``: ``n * nFileCube``), without Jacoby and without automatic
doubles, so the file's Jacoby rule (its tag, else the session's) is applied to it. A
resignation is worth its full value, Jacoby or not (gnubg's play.c, ``MOVE_RESIGN``:
``nPoints = nCube * nResigned``), and its line says that value: it is booked as the line
says. The header wins where it exists; a difference it does not explain becomes a warning
on the game. The last game has no header after it and is booked as its moves say.

Warnings (on the game, which is booked as the header says):

- ``game 7: the file's moves say 2 points, the next score header says 4 points`` — a
  difference nothing explains (up to the session's automatic doubles it is explained, and
  silent: the file never shows them);
- ``game 7: the next score header counts the gammon at a centred cube (2 points), as if
  Jacoby were off`` (or ``… as a single …, as if Jacoby were on``) — the file was played
  under the other Jacoby rule than the one used to read it;
- ``game 7: the file's moves say Ann won, the next score header says Bob``;
- ``game 7: 'Wins 5 points' does not fit the cube 4; the next score header says 8``;
- on the last game, when the session has automatic doubles: ``no score header follows the
  last game, so automatic doubles (up to 2) cannot be seen; booked at 1 point as the moves
  say``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from chouette.engines.model import (
    Ending,
    EngineGame,
    EngineRead,
    EngineSession,
    GameKey,
    Played,
    Scored,
    numbered,
    point_count,
    problem,
    roll,
    unplayed_tail,
)
from chouette.errors import EngineFileError
from chouette.game import LEVELS
from chouette.points import fit_points, is_cube_value, kind_of, pair_points, scored_kind
from chouette.words import Said, Sayable, said, said_n

_TAG = re.compile(r';\s*\[\s*([^"\]]*?)\s*"(.*)"\s*\]\s*')
_MATCH = re.compile(r"\s*([0-9]{1,9})\s+point\s+match\s*", re.IGNORECASE)
_GAME = re.compile(r"\s*Game\s+([0-9]{1,9})\s*")
_SCORE_AT = re.compile(r":[ \t]+(-?[0-9]{1,9})")
_NUMBERED = re.compile(r"\s*([0-9]{1,9})\)")
_NUMBER = re.compile(r"[0-9]{1,9}")
_DATE = re.compile(r"([0-9]{4})[.-]([0-9]{2})[.-]([0-9]{2})")
_TOKEN = re.compile(r"\S+")
_DICE = re.compile(r"[1-6][1-6]:")
#: gnubg's ``export match text`` (a board diagram per move, one file per game) begins so.
_TEXT_EXPORT = re.compile(r"The score \(after [0-9]+ games?\) is: ")
TEXT_EXPORT = said(
    "this is gnubg's text export (export match text): a picture of every move, one file per "
    "game, which chouette does not read; in gnubg, load the match and write a file chouette "
    "reads: export match mat FILE.mat (or export match sgf FILE.sgf), then import that"
)
_TURN = re.compile(r"[0-9]{1,9}\)")
#: A move the file does not record (a timeout, or a transcriber's gap): ``32: ????``.
_UNKNOWN = frozenset({"???", "????"})
_MOVE = re.compile(r"(?:bar|[0-9]{1,2})(?:/(?:[0-9]{1,2}|off)\*?)+(?:\(([1-4])\))?", re.IGNORECASE)
#: Each move of a roll's moves (written one after another, spaces between) that bears a
#: checker off, as often as it says (``6/off(2)``, ``3/0``).
_BEARS_OFF = re.compile(r"/(?:0|off)\*?(?:\(([1-4])\))?(?!\S)", re.IGNORECASE)
#: A roll and its moves, as :func:`_entries` reads them: each move a word :data:`_MOVE`
#: matches whole (here an atomic group, its ``*`` greedy, so a move is matched one way and
#: never tried again shorter: the line's match takes half the time).
_ROLL = (
    r"[1-6][1-6]:(?: ++(?>(?:[bB][aA][rR]|[0-9]{1,2})(?:/(?:[0-9]{1,2}|[oO][fF][fF])(?:\*)?)+"
    r"(?:\([1-4]\))?)(?!\S))*"
)
#: Each roll as the file writes its dice (``52``, ``25``), as :class:`Played` keeps it.
_ROLL_OF = {f"{a}{b}": roll(a, b) for a in range(1, 7) for b in range(1, 7)}
#: Most lines of a file: a turn's number and one or two rolls with their moves, spaces
#: between and nothing else (read in one match by :func:`_read_rolls`).
_ROLLS = re.compile(rf" *([0-9]{{1,9}})\) +({_ROLL})(?: +({_ROLL}))? *")

#: A lone entry that starts at or after this column is in the right-hand player's column.
#: gnubg puts the left column at 5-6 and the right at 33-35; XG and Jellyfish are alike.
_RIGHT_COLUMN = 20
_CHECKERS = 15
#: The names of players a file leaves nameless (Backgammon Galaxy does): their side.
NAMELESS = ("Player 1", "Player 2")
_TAB = 8
#: The match length Backgammon Galaxy writes for a money game.
GALAXY_MONEY = 16
_MAX_DOUBLINGS = 62


@dataclass
class _Game:
    """What one game's lines say, gathered as they are read."""

    number: int
    line: int
    score: tuple[int, int]
    score_line: int
    checkers: int
    key: GameKey
    cube: int = 1
    offers: list[tuple[int, int]] = field(default_factory=list)  # (value, offered by)
    taken: bool = False
    borne_off: list[int] = field(default_factory=lambda: [0, 0])
    last_roll: tuple[int, bool] | None = None  # (player, bore off) of the latest event
    move_number: int = 0
    unknown_by: int | None = None  # who made the last move the file does not record
    dropped_by: int | None = None
    pays: int = 0
    winner: int | None = None
    wins: int | None = None
    wins_line: int = 0
    end: Ending = "resign"
    rolls: list[int] = field(default_factory=list)  # in order (:class:`Played`)
    unmoved: int = 0  # the rolls at the end that moved no checker (``61:`` before a resign)
    #: The first line of the game that could not be read (its number and why), after which
    #: its lines are skipped: the next score header alone says what the game was worth.
    unreadable: tuple[int, Sayable] | None = None


@dataclass(frozen=True)
class _Rules:
    names: tuple[str, str]
    jacoby: bool
    auto_doubles: int
    match_length: int
    #: The ``Wins`` line is what the site settled (Backgammon Galaxy's money games).
    site_settles: bool
    played_at: str | None


def read_mat(lines: Iterable[str], *, jacoby: bool, auto_doubles: int = 0) -> EngineRead:
    """Read a ``.mat`` file: its header now, its games as they stream.

    ``jacoby`` and ``auto_doubles`` are the session's house rules, used where the file does
    not say (a ``; [Jacoby "On"]`` tag wins over ``jacoby``). Raises
    :class:`~chouette.errors.EngineFileError` (``"line N: reason"``) for a file that cannot be
    read, here for its header and later, while the games stream, for the rest.
    """
    source = _untabbed(numbered(lines))
    tags, tag_lines, match_length, last = _read_header(source)
    first = _next_game_start(source, last)
    if first is None:
        raise problem(last, said("the file has no games (no ' Game 1' line)"))
    game_line, number = first
    names, score, score_line = _read_score(source, game_line)
    notes: list[Sayable] = []
    site_money = match_length == GALAXY_MONEY and "galaxy" in _tag(tags, "Site").casefold()
    if site_money:
        notes.append(
            said(
                "Backgammon Galaxy writes its money games as 16-point matches: read as money "
                "play, each game booked as Galaxy settled it (at most 16 points)"
            )
        )
        match_length = 0
    session = _session(tags, tag_lines, names, match_length)
    rules = _Rules(
        names=names,
        jacoby=(session.jacoby if session.jacoby is not None else jacoby) and not match_length,
        auto_doubles=0 if match_length else min(max(auto_doubles, 0), _MAX_DOUBLINGS),
        match_length=match_length,
        site_settles=site_money,
        played_at=_event_date(_tag(tags, "EventDate") or None),
    )
    checkers = _checkers(session.variation)
    start = _Game(number, game_line, score, score_line, checkers, _key(names, number, score))
    return EngineRead(session, _games(source, start, rules, notes), notes)


def _tag(tags: dict[str, str], key: str) -> str:
    """A header tag's value ("" when absent), its name matched without regard to case
    (``CubeLimit`` and ``Cubelimit`` are both written)."""
    wanted = key.casefold()
    return next((value for name, value in tags.items() if name.casefold() == wanted), "")


def _untabbed(source: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """Lines with their tabs expanded to the next multiple of 8 columns, as a terminal shows
    them: a writer that puts tabs between the two players' columns means the same columns
    as one that pads with spaces, and a tab is not one column."""
    for number, text in source:
        yield number, text.expandtabs(_TAB) if "\t" in text else text


def _read_header(
    source: Iterator[tuple[int, str]],
) -> tuple[dict[str, str], dict[str, int], int, int]:
    """The tags (and their lines) and the match length, up to the `` N point match`` line."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    last = 0
    for number, text in source:
        last = number
        stripped = text.strip()
        if not stripped:
            continue
        if stripped.startswith(";"):
            tag = _TAG.fullmatch(stripped)
            if tag and tag.group(1):
                tags[tag.group(1)] = tag.group(2)
                tag_lines[tag.group(1)] = number
            continue
        match = _MATCH.fullmatch(text)
        if match is None and _TEXT_EXPORT.match(stripped):
            raise problem(number, TEXT_EXPORT)
        if match is None:
            raise problem(
                number,
                said(
                    "expected the ' N point match' line of a .mat file, found {found}",
                    found=_show(text),
                ),
            )
        return tags, tag_lines, int(match.group(1)), number
    raise problem(last + 1, said("the file ends before its ' N point match' line"))


def _next_game_start(source: Iterator[tuple[int, str]], last: int) -> tuple[int, int] | None:
    """The next `` Game N`` line after blank and comment lines, or ``None`` at the end."""
    for number, text in source:
        stripped = text.strip()
        if not stripped or stripped.startswith(";"):
            continue
        game = _GAME.fullmatch(text)
        if game is None:
            raise problem(number, said("expected ' Game N', found {found}", found=_show(text)))
        return number, int(game.group(1))
    return None


def _read_score(
    source: Iterator[tuple[int, str]], game_line: int
) -> tuple[tuple[str, str], tuple[int, int], int]:
    """The score header right after `` Game N``: the names and the score before the game."""
    for number, text in source:
        score = _score(text)
        if score is None:
            raise problem(
                number,
                said(
                    "expected the score line 'name : score   name : score', found {found}",
                    found=_show(text),
                ),
            )
        left, left_score, right, right_score = score
        names = (left or NAMELESS[0], right or NAMELESS[1])
        if names[0] == names[1]:
            raise problem(number, said("both players are called {name}", name=repr(names[0])))
        return names, (left_score, right_score), number
    raise problem(game_line + 1, said("the file ends before the game's score line"))


def _score(text: str) -> tuple[str, int, str, int] | None:
    """``Alice : 3      Bob : 5`` as its two names and scores, or None. A name runs up to
    its `` : score`` (names hold spaces and accents; some servers write ``Alice: 3``) and
    may be empty (Backgammon Galaxy leaves a player's name out); each search is one pass
    over the line."""
    first = _SCORE_AT.search(text)
    at = text.rfind(":")
    last = _SCORE_AT.match(text, at) if at >= 0 else None
    if first is None or last is None or last.start() <= first.start() or text[last.end() :].strip():
        return None
    left = text[: first.start()].strip()
    right = text[first.end() : last.start()].strip()
    return left, int(first.group(1)), right, int(last.group(1))


def _session(
    tags: dict[str, str], lines: dict[str, int], names: tuple[str, str], match_length: int
) -> EngineSession:
    """What the header says: XG's tags for the rules and stake, and the players."""
    cube_limit = None
    text = _tag(tags, "CubeLimit").strip()
    if text:
        if not _NUMBER.fullmatch(text) or int(text) < 1:
            raise problem(
                _line_of(lines, "CubeLimit"),
                said('CubeLimit must be a whole number of 1 or more, not "{value}"', value=text),
            )
        cube_limit = int(text)
    return EngineSession(
        format="mat",
        players=names,
        match_length=match_length,
        jacoby=_on_off(tags, lines, "Jacoby"),
        beavers=_on_off(tags, lines, "Beaver"),
        cube_limit=cube_limit,
        stake=_tag(tags, "Stake") or None,
        currency=_tag(tags, "Currency") or None,
        variation=_tag(tags, "Variation") or None,
        name=_tag(tags, "Event") or None,
        tags=tags,
    )


def _line_of(lines: dict[str, int], key: str) -> int:
    wanted = key.casefold()
    return next(number for name, number in lines.items() if name.casefold() == wanted)


def _on_off(tags: dict[str, str], lines: dict[str, int], key: str) -> bool | None:
    text = _tag(tags, key)
    if not text:
        return None
    value = text.strip().lower()
    if value in ("on", "yes", "true", "1"):
        return True
    if value in ("off", "no", "false", "0"):
        return False
    raise problem(
        _line_of(lines, key),
        said('the {key} tag must be "On" or "Off", not "{value}"', key=key, value=text),
    )


def _event_date(text: str | None) -> str | None:
    """``; [EventDate "2024.01.27"]`` as an ISO date, ``2024-01-27``."""
    date = _DATE.fullmatch(text.strip()) if text else None
    return "-".join(date.groups()) if date else None


def _checkers(variation: str | None) -> int:
    """Checkers per side: 15, but 1-3 in Hypergammon."""
    if variation and "hyper" in variation.lower():
        digits = [int(c) for c in variation if c in "123"]
        return digits[0] if digits else 3
    return _CHECKERS


_NOT_CUMULATIVE = said(
    "the score headers do not add up (every game starts at 0 : 0): each game is booked as "
    "its own 'Wins' line says"
)


def _games(
    source: Iterator[tuple[int, str]], start: _Game, rules: _Rules, notes: list[Sayable]
) -> Iterator[EngineGame]:
    """Every game, each settled once the next game's score header is known. A last game
    that has not ended (the session is still being played, or the engine stopped) is left
    out, with a note; a game that has not ended before the next one begins is an error."""
    index = 1
    current = start
    for number, text in source:
        if current.unreadable is None:  # most lines: a turn's rolls and moves, at once
            rolls = _ROLLS.fullmatch(text)
            if rolls is not None and (rolls.group(3) is None or rolls.start(2) < _RIGHT_COLUMN):
                try:
                    _read_rolls(current, number, text, rolls, rules)
                except EngineFileError as err:
                    current.unreadable = (number, err.said)
                continue
        stripped = text.strip()
        if not stripped or stripped.startswith(";"):
            continue
        game = _GAME.fullmatch(text)
        if game is None:
            if ": " in text and not _NUMBERED.match(text) and _score(text) is not None:
                raise problem(
                    number,
                    said(
                        "a score line with no ' Game N' line before it: {found}", found=_show(text)
                    ),
                )
            if current.unreadable is None:
                try:
                    _read_line(current, number, text, rules)
                except EngineFileError as err:
                    current.unreadable = (number, err.said)
            continue
        if int(game.group(1)) != current.number + 1:
            raise problem(
                number,
                said(
                    "Game {number} follows Game {last}",
                    number=game.group(1),
                    last=current.number,
                ),
            )
        if current.unreadable is None:
            _close(current, number, rules)
        _, score, score_line = _read_score(source, number)
        following = _Game(
            current.number + 1,
            number,
            score,
            score_line,
            current.checkers,
            _key(rules.names, current.number + 1, score),
        )
        # No game goes from 0 : 0 to 0 : 0: the writer repeats 0 : 0 on every game. (A game
        # that ends 0 : 0 from another score is a net-score file coming back to even.)
        if score == (0, 0) == current.score:
            if current.unreadable is not None:  # no header says what it was worth
                raise EngineFileError(current.unreadable[1])
            if not notes or notes[-1] != _NOT_CUMULATIVE:
                notes.append(_NOT_CUMULATIVE)
            yield _settle(current, index, None, rules)
        elif current.unreadable is not None:
            yield _by_header(current, index, following, rules)
        else:
            yield _settle(current, index, following, rules)
        index += 1
        current = following
    if current.unreadable is not None:  # the last game: no header says what it was worth
        raise EngineFileError(current.unreadable[1])
    if current.winner is None and current.dropped_by is None:
        notes.append(
            said(
                "game {number} (line {line}) has not ended: not booked; import the file again "
                "once it has (the games booked now are not booked twice)",
                number=current.number,
                line=current.line,
            )
        )
        return
    _close(current, None, rules)
    yield _settle(current, index, None, rules, last=True)


def _key(names: tuple[str, str], number: int, score: tuple[int, int]) -> GameKey:
    """A game's identity begins with its players, its number and the score before it; every
    entry of its lines (turn numbers, columns and spacing left out) follows."""
    return GameKey("mat", *names, number, *score)


def _read_line(game: _Game, number: int, text: str, rules: _Rules) -> None:
    """One line of a game: up to two entries, the left player's then the right player's."""
    numbered_line = _NUMBERED.match(text)
    offset = 0
    if numbered_line:
        move_number = int(numbered_line.group(1))
        if move_number != game.move_number + 1:
            raise problem(number, _turn_follows(move_number, game.move_number))
        game.move_number = move_number
        offset = numbered_line.end()
    found = _entries(number, text, offset, f"{game.move_number})")
    game.key.add(*(word for _, entry in found for word in entry))
    entries = [
        entry
        for entry in found
        if entry[1][0] != "Losses"  # Galaxy's note of a loss: its column is not always right
    ]
    if len(entries) > 2:
        raise problem(number, said("more than two turns on one line: {found}", found=_show(text)))
    for position, (column, entry) in enumerate(entries):
        player = 1 if position == 1 or column >= _RIGHT_COLUMN else 0
        if position == 1 and entries[0][0] >= _RIGHT_COLUMN:
            raise problem(
                number, said("two turns in the right-hand column: {found}", found=_show(text))
            )
        _apply(game, number, player, entry, rules)


def _read_rolls(game: _Game, number: int, text: str, rolls: re.Match[str], rules: _Rules) -> None:
    """A line of rolls and their moves alone (most lines), matched whole by :data:`_ROLLS`
    (two rolls: the first in the left-hand column): read as :func:`_read_line` reads any
    line (the same words for the game's key, the same turn for the same player), without
    taking it apart word by word."""
    turn, left, right = rolls.groups()
    move_number = int(turn)
    if move_number != game.move_number + 1:
        raise problem(number, _turn_follows(move_number, game.move_number))
    game.move_number = move_number
    column = rolls.start(2)
    game.key.add(*text[column:].split())
    if right is None:  # one roll: its column says whose
        _roll(game, number, 1 if column >= _RIGHT_COLUMN else 0, left, False, rules)
        return
    _roll(game, number, 0, left, False, rules)
    _roll(game, number, 1, right, False, rules)


def _entries(number: int, text: str, offset: int, turn: str) -> list[tuple[int, list[str]]]:
    """Split a line into entries (a roll and its moves, a cube action, a win or a loss)
    with their columns. ``turn`` (``"24)"``) is the line's own turn number, which Backgammon
    Galaxy sometimes writes again before the right-hand entry."""
    tokens = [(m.start(), m.group()) for m in _TOKEN.finditer(text, offset)]
    entries: list[tuple[int, list[str]]] = []
    i = 0
    while i < len(tokens):
        column, word = tokens[i]
        if word == turn and entries:
            i += 1
            continue
        if _DICE.fullmatch(word):
            j = i + 1
            following = [t for _, t in tokens[j : j + 2]]
            if following == ["Cannot", "Move"]:  # Backgammon Studio's dance
                j += 2
            elif following[:1] and following[0] in _UNKNOWN:
                j += 1
            while j < len(tokens) and _MOVE.fullmatch(tokens[j][1]):
                j += 1
        elif word in ("Doubles", "Beavers", "Raccoons"):
            j = i + 3
            if (
                j > len(tokens)
                or tokens[i + 1][1] != "=>"
                or not _NUMBER.fullmatch(tokens[i + 2][1])
            ):
                raise problem(
                    number,
                    said(
                        "expected '{word} => N', found {found}",
                        word=word,
                        found=_show(text[column:]),
                    ),
                )
        elif word in ("Takes", "Drops", "Resigns"):
            j = i + 1
        elif word in ("Wins", "Losses"):
            j = i + 3
            if (
                j > len(tokens)
                or not _NUMBER.fullmatch(tokens[i + 1][1])
                or tokens[i + 2][1] not in ("point", "points")
            ):
                raise problem(
                    number,
                    said(
                        "expected '{word} N points', found {found}",
                        word=word,
                        found=_show(text[column:]),
                    ),
                )
            if [t for _, t in tokens[j : j + 3]] == ["and", "the", "match"]:
                j += 3
        else:
            raise problem(
                number, said("cannot read {word} in {found}", word=repr(word), found=_show(text))
            )
        entries.append((column, [t for _, t in tokens[i:j]]))
        i = j
    return entries


def _apply(game: _Game, number: int, player: int, entry: list[str], rules: _Rules) -> None:
    """One player's entry, applied to the game as read so far."""
    name = rules.names[player]
    word = entry[0]
    if word == "Resigns":
        return  # the Wins line that follows says what the resignation was worth
    if _DICE.fullmatch(word):
        unknown = len(entry) > 1 and entry[1] in _UNKNOWN
        _roll(game, number, player, " ".join(entry), unknown, rules)
        return
    if game.winner is not None or (game.dropped_by is not None and word != "Wins"):
        raise problem(number, _plays_on(name))
    if word == "Wins":
        _win(game, number, player, int(entry[1]), rules)
        return
    if game.offers and word not in ("Takes", "Drops", "Beavers", "Raccoons", "Doubles"):
        _resolve_beaver(game, number, rules)
    game.last_roll = None
    game.unmoved = 0
    if word in ("Doubles", "Beavers", "Raccoons"):
        _offer(game, number, player, int(entry[2]), word, rules)
    elif not game.offers:
        raise problem(number, _no_double(name, word))
    elif game.offers[-1][1] == player and word == "Takes":
        raise problem(number, said("{player} takes {player}'s own double", player=name))
    elif game.offers[-1][1] == player:
        raise problem(number, said("{player} drops {player}'s own double", player=name))
    elif word == "Takes":
        game.cube = game.offers[-1][0]
        game.offers.clear()
        game.taken = True
    else:
        game.pays = game.offers[-2][0] if len(game.offers) > 1 else game.cube
        game.dropped_by = player
        game.offers.clear()


def _roll(game: _Game, number: int, player: int, entry: str, unknown: bool, rules: _Rules) -> None:
    """A roll and its moves (``entry``, as the file writes them: ``52: 13/8 13/11``;
    ``unknown``: the moves are ``????``), applied to the game as read so far."""
    if game.winner is not None or game.dropped_by is not None:
        raise problem(number, _plays_on(rules.names[player]))
    if game.offers:
        _resolve_beaver(game, number, rules)
    game.rolls.append(_ROLL_OF[entry[:2]])
    game.unmoved = game.unmoved + 1 if unknown or len(entry) <= 3 or "Cannot" in entry else 0
    off = 0
    if "/0" in entry or "/o" in entry or "/O" in entry:
        for times in _BEARS_OFF.findall(entry):
            off += int(times) if times else 1
        game.borne_off[player] += off
    game.last_roll = (player, off > 0)
    game.unknown_by = player if unknown else None


def _offer(game: _Game, number: int, player: int, value: int, word: str, rules: _Rules) -> None:
    """A double, or a beaver or raccoon (an offer while another is pending)."""
    name = rules.names[player]
    if not is_cube_value(value) or value < 2 or value.bit_length() > _MAX_DOUBLINGS:
        raise problem(
            number,
            said(
                "{player} offers a cube of {value}, which no cube shows", player=name, value=value
            ),
        )
    if game.offers:
        top, by = game.offers[-1]
        if by == player:
            raise problem(
                number,
                said("{player} redoubles {player}'s own offer of {top}", player=name, top=top),
            )
        if value != 2 * top:
            raise problem(
                number,
                said(
                    "{player} answers an offer of {top} with {value}",
                    player=name,
                    top=top,
                    value=value,
                ),
            )
        game.offers.append((value, player))
        return
    if word != "Doubles":
        raise problem(number, _no_double(name, word))
    if value <= game.cube:
        raise problem(
            number,
            said(
                "{player} doubles to {value} with the cube already at {cube}",
                player=name,
                value=value,
                cube=game.cube,
            ),
        )
    if value != 2 * game.cube:
        if game.taken:
            raise problem(
                number,
                said(
                    "{player} doubles to {value} with the cube at {cube}",
                    player=name,
                    value=value,
                    cube=game.cube,
                ),
            )
        game.cube = value // 2  # the writer counted cube turns the file does not show
    game.offers.append((value, player))


def _resolve_beaver(game: _Game, number: int, rules: _Rules) -> None:
    """Play goes on after a beaver or raccoon: the last offer stands (no ``Takes`` is written)."""
    if len(game.offers) < 2:
        value, by = game.offers[0]
        raise problem(
            number,
            said(
                "{player} neither takes nor drops the double to {value}",
                player=rules.names[1 - by],
                value=value,
            ),
        )
    game.cube = game.offers[-1][0]
    game.offers.clear()
    game.taken = True


def _win(game: _Game, number: int, player: int, value: int, rules: _Rules) -> None:
    """The ``Wins N points`` line: who won, and how the game ended."""
    if value < 1:
        raise problem(
            number, said("{player} wins {value} points", player=rules.names[player], value=value)
        )
    if game.dropped_by is not None:
        if game.dropped_by == player:
            raise problem(number, said("{player} drops and then wins", player=rules.names[player]))
        game.end = "drop"
    elif game.offers and game.offers[-1][1] == player:
        game.pays = game.offers[-2][0] if len(game.offers) > 1 else game.cube
        game.offers.clear()
        game.dropped_by = 1 - player
        game.end = "drop"
    else:
        if game.offers:
            _resolve_beaver(game, number, rules)
        bore_off = game.last_roll == (player, True)
        game.end = "bearoff" if bore_off and game.borne_off[player] >= game.checkers else "resign"
    game.winner = player
    game.wins = value
    game.wins_line = number


def _close(game: _Game, next_line: int | None, rules: _Rules) -> None:
    """The game's lines are over: it must have a winner (a drop without a ``Wins`` line will do)."""
    if game.winner is not None:
        return
    at = next_line if next_line is not None else game.line
    if game.dropped_by is not None:
        game.winner = 1 - game.dropped_by
        game.end = "drop"
        game.wins_line = at
        return
    raise problem(at, said("game {number} has no winner (no 'Wins' line)", number=game.number))


def _by_header(game: _Game, index: int, following: _Game, rules: _Rules) -> EngineGame:
    """A game with a line that cannot be read, booked as the next score header says: its
    winner and points (the cube and level that make them, as near the cube read before that
    line as can be), with a warning naming the line."""
    _, reason = game.unreadable or (game.line, "")
    winner, points = _header_result(game, following)
    cube, scored = fit_points(points, game.cube, "single") or (game.cube, "single")
    warning = said(
        "{reason}: game {number}'s lines from there are not read; booked as the next score "
        "header says, {points} to {player}",
        reason=reason,
        number=game.number,
        points=point_count(points),
        player=rules.names[winner],
    )
    # how it ended is in the lines not read: the header settled it; and its rolls are not
    # all known, so it is known by this file's own key alone
    booked = _booked(game, index, rules, winner, points, cube, scored, "settle", [warning])
    return booked._replace(played=None)


def _settle(
    game: _Game, index: int, following: _Game | None, rules: _Rules, *, last: bool = False
) -> EngineGame:
    """The game as booked: its own reading, checked against the next score header (or, for
    the ``last`` game and where the headers do not add up, its own lines alone)."""
    reading = _reading(game, rules)
    winner = game.winner if game.winner is not None else 0
    warnings: list[Sayable] = []
    end = game.end
    if following is None:
        cube, scored, end, points = _own_worth(game, reading, rules, warnings, last)
    else:
        winner, points = _header_result(game, following)
        fitted = _fit(points, reading, rules)
        forfeit = fitted is None and game.unknown_by == 1 - winner  # says why itself
        note = None if forfeit else _explain(game, winner, points, reading, rules)
        if note is not None:
            warnings.append(note)
        if fitted is not None:
            cube, scored = fitted
        elif forfeit:
            cube, scored, end = reading.cube, "single", "forfeit"
            warnings.append(
                said(
                    "game {number}: a forfeit ({player}'s last move is '????', the next score "
                    "header counting {points}): booked at the cube in force, {cube}",
                    points=point_count(points),
                    **_forfeit(game, rules, winner, cube),
                )
            )
            points = cube
        else:
            raise problem(
                following.score_line,
                said_n(
                    "game {number} is worth {n} point by the score headers, which no cube × 1, "
                    "2 or 3 makes",
                    "game {number} is worth {n} points by the score headers, which no cube × "
                    "1, 2 or 3 makes",
                    points,
                    number=game.number,
                    n=points,
                ),
            )
        if end not in ("settle", "forfeit"):
            points = pair_points(cube, scored)
    return _booked(game, index, rules, winner, points, cube, scored, end, warnings)


def _booked(
    game: _Game,
    index: int,
    rules: _Rules,
    winner: int,
    points: int,
    cube: int,
    scored: Scored,
    end: Ending,
    warnings: list[Sayable],
) -> EngineGame:
    """A game as it is booked, with its identities."""
    return EngineGame(
        position=index,
        line=game.line,
        winner=rules.names[winner],
        loser=rules.names[1 - winner],
        points=points,
        cube=cube,
        result=scored,
        end=end,
        played_at=rules.played_at,
        warnings=tuple(warnings),
        number=game.number,
        key=game.key.hex(),
        played=Played(
            game.number,
            game.score,
            rolls := tuple(game.rolls),
            winner,
            unplayed_tail(rolls, game.unmoved),
        ),
    )


def _own_worth(
    game: _Game, reading: _Reading, rules: _Rules, warnings: list[Sayable], last: bool
) -> tuple[int, Scored, Ending, int]:
    """What a game no score header follows is worth by its own lines: cube, level, end and
    points. A ``Wins`` line that is no cube × 1, 2 or 3 is booked as the file scored it
    when the file says why: a forfeit (``????``, then a line such as Backgammon Studio's
    ``Wins 4016 point``) is worth the cube in force, a single; the last game of a match,
    whose line the writer capped at what its winner needed, and a money game Backgammon
    Galaxy capped at 16, are worth what the line says."""
    cube = reading.cube
    winner = game.winner if game.winner is not None else 0
    if reading.scored is None:
        wins = game.wins or 0
        if game.unknown_by == 1 - winner:
            warnings.append(
                said(
                    "game {number}: a forfeit ({player}'s last move is '????', then '{wins}', "
                    "which is no cube result): booked at the cube in force, {cube}",
                    wins=_wins(wins),
                    **_forfeit(game, rules, winner, cube),
                )
            )
            return cube, "single", "forfeit", cube
        if rules.match_length or rules.site_settles:
            worth = point_count(wins)
            values = {"number": game.number, "wins": _wins(wins), "cube": cube, "points": worth}
            warnings.append(
                said(
                    "game {number}: '{wins}' at the cube {cube} is what the match scored "
                    "(capped), not the cube × 1, 2 or 3: booked at {points} as the file scored it",
                    **values,
                )
                if rules.match_length
                else said(
                    "game {number}: '{wins}' at the cube {cube} is what Backgammon Galaxy scored "
                    "(capped), not the cube × 1, 2 or 3: booked at {points} as the file scored it",
                    **values,
                )
            )
            return cube, "single", "settle", wins
        raise problem(
            game.wins_line,
            said_n(
                "game {number}: 'Wins {n} point' is not the cube {cube} × 1, 2 or 3",
                "game {number}: 'Wins {n} points' is not the cube {cube} × 1, 2 or 3",
                wins,
                number=game.number,
                n=wins,
                cube=cube,
            ),
        )
    scored = reading.scored
    if reading.other_jacoby is not None and rules.jacoby:  # the line says more than booked
        warnings.append(
            said(
                "game {number}: '{wins}' at a centred cube is booked as a single, {points}, under "
                "Jacoby (gnubg writes the line without it, and no score header follows to say "
                "what the engine scored); if the game was played without Jacoby, import the file "
                "into a session without it",
                number=game.number,
                wins=_wins(game.wins),
                points=point_count(pair_points(cube, scored)),
            )
        )
    if rules.auto_doubles:
        worth = point_count(pair_points(cube, scored))
        values = {"number": game.number, "most": rules.auto_doubles, "points": worth}
        warnings.append(
            said(
                "game {number}: no score header follows the last game, so automatic doubles "
                "(up to {most}) cannot be seen; booked at {points} as the moves say",
                **values,
            )
            if last
            else said(
                "game {number}: no score header follows it, so automatic doubles (up to {most}) "
                "cannot be seen; booked at {points} as the moves say",
                **values,
            )
        )
    return cube, scored, game.end, pair_points(cube, scored)


@dataclass(frozen=True)
class _Reading:
    """A game's worth from its moves alone: the file's cube and the level scored (``None``
    when the ``Wins`` line fits no level), and the level under the other Jacoby setting
    when that would differ."""

    cube: int
    scored: Scored | None
    other_jacoby: Scored | None = None

    @property
    def points(self) -> int | None:
        return None if self.scored is None else pair_points(self.cube, self.scored)


def _reading(game: _Game, rules: _Rules) -> _Reading:
    if game.end == "drop":
        return _Reading(game.pays, "single")
    level = kind_of(game.wins or 0, game.cube)  # the Wins line: the board's level, no Jacoby
    if level is None or rules.site_settles or game.end == "resign":
        # a resignation scores its full value, Jacoby or not (gnubg's play.c, MOVE_RESIGN:
        # nPoints = nCube * nResigned), and the line says that value: booked as it says
        return _Reading(game.cube, level)
    centred = not game.taken
    scored = scored_kind(level, centred=centred, jacoby=rules.jacoby)
    other = scored_kind(level, centred=centred, jacoby=not rules.jacoby)
    return _Reading(game.cube, scored, other if other != scored else None)


def _header_result(game: _Game, following: _Game) -> tuple[int, int]:
    """Who won and how many points, by the score before this game and before the next."""
    (a0, a1), (b0, b1) = game.score, following.score
    d0, d1 = b0 - a0, b1 - a1
    if d0 > 0 and d1 == 0:
        return 0, d0
    if d1 > 0 and d0 == 0:
        return 1, d1
    if a0 + a1 == 0 == b0 + b1 and d0:  # net scores: +n for one player, -n for the other
        return (0, d0) if d0 > 0 else (1, d1)
    before, after = f"{a0}-{a1}", f"{b0}-{b1}"
    raise problem(
        following.score_line,
        said(
            "the score goes from {before} to {after}, which no single game result makes",
            before=before,
            after=after,
        ),
    )


def _explain(
    game: _Game, winner: int, points: int, reading: _Reading, rules: _Rules
) -> Said | None:
    """A warning for a score header the moves do not explain, or ``None`` if they do."""
    names, number = rules.names, game.number
    if winner != game.winner:
        return said(
            "game {number}: the file's moves say {player} won, the next score header says {other}",
            number=number,
            player=names[1 - winner],
            other=names[winner],
        )
    derived = reading.points
    if derived is None:
        return said(
            "game {number}: '{wins}' does not fit the cube {cube}; the next score header says "
            "{points}",
            number=number,
            wins=_wins(game.wins),
            cube=reading.cube,
            points=points,
        )
    if _doublings(points, reading.cube, reading.scored, rules) is not None:
        return None
    if _doublings(points, reading.cube, reading.other_jacoby, rules) is not None:
        level = reading.other_jacoby if rules.jacoby else reading.scored
        values = {"number": number, "level": LEVELS[False, str(level)]}
        values["points"] = point_count(points)
        if rules.jacoby:
            return said(
                "game {number}: the next score header counts {level} at a centred cube "
                "({points}), as if Jacoby were off",
                **values,
            )
        return said(
            "game {number}: the next score header counts {level} at a centred cube as a "
            "single ({points}), as if Jacoby were on",
            **values,
        )
    return said(
        "game {number}: the file's moves say {points}, the next score header says {header}",
        number=number,
        points=point_count(derived),
        header=point_count(points),
    )


def _doublings(points: int, cube: int, scored: Scored | None, rules: _Rules) -> int | None:
    """The cube that makes ``points`` at level ``scored`` after at most the session's
    automatic doubles, or ``None``."""
    if scored is None:
        return None
    for turns in range(rules.auto_doubles + 1):
        if points == pair_points(cube << turns, scored):
            return cube << turns
    return None


def _fit(points: int, reading: _Reading, rules: _Rules) -> tuple[int, Scored] | None:
    """The cube and level that make the header's points, as close to the moves as can be."""
    for scored in (reading.scored, reading.other_jacoby):
        cube = _doublings(points, reading.cube, scored, rules)
        if cube is not None and scored is not None:
            return cube, scored
    return fit_points(points, reading.cube, reading.scored or "single")


def _turn_follows(turn: int, last: int) -> Said:
    return said("turn {turn}) follows turn {last})", turn=turn, last=last)


def _plays_on(name: str) -> Said:
    return said("{player} plays on after the game has ended", player=name)


def _no_double(name: str, word: str) -> Said:
    """A cube answer (``Takes``, ``Drops``) or a beaver or raccoon with no double to answer."""
    found = {
        "Takes": said("{player} takes but no double is pending"),
        "Drops": said("{player} drops but no double is pending"),
        "Beavers": said("{player} beavers but no double is pending"),
        "Raccoons": said("{player} raccoons but no double is pending"),
    }[word]
    return replace(found, values=(("player", name),))


def _forfeit(game: _Game, rules: _Rules, winner: int, cube: int) -> dict[str, object]:
    """What a forfeit's warning names: the game, who forfeited it, the cube it is booked at."""
    return {"number": game.number, "player": rules.names[1 - winner], "cube": point_count(cube)}


def _wins(points: int | None) -> str:
    """A ``Wins`` line as the file writes it (its own words, quoted in a message as they
    are, whatever the reader's language)."""
    return f"Wins {points} point" if points == 1 else f"Wins {points} points"


def _show(text: str) -> str:
    """A line as quoted in a message, cut short."""
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:57] + "...")
