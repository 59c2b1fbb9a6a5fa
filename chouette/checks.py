"""What is wrong with a session's record, as values: the checks ``chouette check`` runs and
a restored export must pass, each returning its problems as sentences (empty: none). Pure:
they are handed what the ledger read and never read or repair anything themselves.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from typing import Any, Protocol, cast

from chouette.line import Line
from chouette.money import format_money
from chouette.points import MULTIPLIER, Kind, pair_money, pair_points
from chouette.session import SessionInfo


class Imported(Protocol):
    """An imported file as the ledger remembers it: its name, the games it booked, and the
    numbers of the first and last (None: an older chouette did not note them)."""

    @property
    def name(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def first_game(self) -> int | None: ...
    @property
    def last_game(self) -> int | None: ...


class Booked(Protocol):
    """A booking: a player's points and money."""

    @property
    def player(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def cents(self) -> int: ...


def session_problems(info: SessionInfo, found: list[int], live: int) -> list[str]:
    """What is wrong with a session: its line (:func:`line_problems`), more than one game in
    progress (``live``), its games' numbers (``found``, in order) not 1, 2, 3, … without a
    gap (undo takes the last)."""
    problems = line_problems(info.name, info.line)
    if live > 1:
        problems.append(f"{info.name}: {live} games are in progress at once")
    return problems + numbers_problems(info, found)


def numbers_problems(info: SessionInfo, found: list[int]) -> list[str]:
    if found == list(range(1, len(found) + 1)):
        return []
    gaps = sorted(set(range(1, max(found) + 1)) - set(found))[:5]
    return [
        f"{info.name}: its games are not numbered 1 to {len(found)} "
        f"(missing: {', '.join(map(str, gaps)) or 'none'}; numbers given twice or past "
        "the end otherwise)"
    ]


def stranger_problems(where: str, named: Collection[str], players: Collection[str]) -> list[str]:
    """Everyone seated in a session, booked in it or paying in it (``named``) is one of its
    ``players``."""
    missing = sorted(set(named) - set(players))
    if not missing:
        return []
    return [
        f"{where}: {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
        "seated or booked but not a player of the session"
    ]


def source_problems(session: str, source: Imported, kinds: Mapping[int, str]) -> list[str]:
    """An imported file's games are the engine games it numbers (``kinds``: the session's
    games, number to kind), as many as it booked."""
    first, last = source.first_game, source.last_game
    if first is None and last is None:
        return []
    where = f"{session}: {source.name}"
    if first is None or last is None or last - first + 1 != source.games:
        return [f"{where} booked {source.games} games, but names games {first} to {last}"]
    found = [kinds[n] for n in range(first, last + 1) if n in kinds]
    if len(found) != source.games or set(found) != {"engine"}:
        return [
            f"{where} booked games {first} to {last}, but the session holds "
            f"{found.count('engine')} engine games there"
        ]
    return []


def sum_problems(where: str, rows: Iterable[Booked]) -> list[str]:
    points = sum(r.points for r in rows)
    cents = sum(r.cents for r in rows)
    if points or cents:
        return [
            f"{where}: the bookings do not sum to zero ({points:+d} points, "
            f"{format_money(cents, sign=True)})"
        ]
    return []


def by_player(rows: Iterable[Booked]) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for r in rows:
        points, cents = found.get(r.player, (0, 0))
        found[r.player] = (points + r.points, cents + r.cents)
    return found


def engine_problems(
    where: str, detail: Any, booked: Mapping[str, tuple[int, int]], info: SessionInfo
) -> list[str]:
    """What is wrong with an imported game: its result (``detail``: winner, loser, points,
    cube, result, end) is not a result, its points are not cube × its level, or its bookings
    (points and money per player) are not the winner's points at the pair's stake from the
    loser. ``chouette check`` and restoring an export ask the same."""
    shown = json.dumps(detail, ensure_ascii=False)[:100]
    if not isinstance(detail, dict):
        detail = {}
    winner, loser, points = detail.get("winner"), detail.get("loser"), detail.get("points")
    cube = detail.get("cube", 0)
    if not (
        isinstance(winner, str)
        and isinstance(loser, str)
        and type(points) is int  # not true/false
        and type(cube) is int
    ):
        return [f"{where}: its stored result is not a result ({shown!r})"]
    problems = []
    result = detail.get("result")
    if detail.get("end") not in ("settle", "forfeit") and (
        result not in MULTIPLIER or points != pair_points(cube, cast(Kind, result))
    ):
        problems.append(f"{where}: {points} points is not cube × {result}")
    money = pair_money(points, info.pair_stake(winner, loser))
    want = {winner: (points, money), loser: (-points, -money)}
    if dict(booked) != want:
        problems.append(f"{where}: the bookings are not {winner} +{points} from {loser}")
    return problems


def line_problems(where: str, line: Line) -> list[str]:
    """What is wrong with a line (``where``: the session, for the messages)."""
    problems = []
    if len(set(line.order)) != len(line.order):
        problems.append(f"{where}: someone sits twice in the line")
    if not line.sitting_out <= set(line.order):
        problems.append(f"{where}: someone sits out who is not in the line")
    if line.partner is not None and line.partner not in line.active[1:]:
        problems.append(f"{where}: the partner {line.partner} is not a seated player")
    strangers = [p for p, _ in line.away if p not in line.order]
    if strangers or len(dict(line.away)) != len(line.away):
        problems.append(f"{where}: someone is away who is not in the line, or away twice")
    return problems
