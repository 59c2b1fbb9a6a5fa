"""What is wrong with a session's record, as values: the checks ``chouette check`` runs and
a restored export must pass, each returning its problems as sentences (empty: none). Pure:
they are handed what the ledger read and never read or repair anything themselves.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from typing import Any, Protocol, cast

from chouette.line import Line
from chouette.points import MULTIPLIER, Kind, pair_money, pair_points
from chouette.session import SessionInfo
from chouette.words import Money, Sayable, said, said_in, said_n


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


def session_problems(info: SessionInfo, found: list[int], live: int) -> list[Sayable]:
    """What is wrong with a session: its line (:func:`line_problems`), more than one game in
    progress (``live``), its games' numbers (``found``, in order) not 1, 2, 3, … without a
    gap (undo takes the last)."""
    problems = line_problems(info.name, info.line)
    if live > 1:
        problems.append(
            said("{where}: {count} games are in progress at once", where=info.name, count=live)
        )
    return problems + numbers_problems(info, found)


def numbers_problems(info: SessionInfo, found: list[int]) -> list[Sayable]:
    if found == list(range(1, len(found) + 1)):
        return []
    given = set(found)  # the first five gaps are among the first len(found) + 5 numbers
    gaps = [n for n in range(1, min(max(found), len(found) + 5) + 1) if n not in given][:5]
    return [
        said(
            "{where}: its games are not numbered 1 to {count} (missing: {missing}; numbers "
            "given twice or past the end otherwise)",
            where=info.name,
            count=len(found),
            missing=", ".join(map(str, gaps)) or said_in("numbers", "none"),
        )
    ]


def stranger_problems(
    where: Sayable, named: Collection[str], players: Collection[str]
) -> list[Sayable]:
    """Everyone seated in a session, booked in it or paying in it (``named``) is one of its
    ``players``."""
    missing = sorted(set(named) - set(players))
    if not missing:
        return []
    return [
        said_n(
            "{where}: {names} is seated or booked but not a player of the session",
            "{where}: {names} are seated or booked but not a player of the session",
            len(missing),
            where=where,
            names=", ".join(missing),
        )
    ]


def source_problems(session: str, source: Imported, kinds: Mapping[int, str]) -> list[Sayable]:
    """An imported file's games are the engine games it numbers (``kinds``: the session's
    games, number to kind), as many as it booked."""
    first, last = source.first_game, source.last_game
    if first is None and last is None:
        return []
    values = {"session": session, "file": source.name, "first": first, "last": last}
    if first is None or last is None or last - first + 1 != source.games:
        return [
            said(
                "{session}: {file} booked {games} games, but names games {first} to {last}",
                games=source.games,
                **values,
            )
        ]
    found = [kinds[n] for n in range(first, last + 1) if n in kinds]
    if len(found) != source.games or set(found) != {"engine"}:
        return [
            said(
                "{session}: {file} booked games {first} to {last}, but the session holds "
                "{engine} engine games there",
                engine=found.count("engine"),
                **values,
            )
        ]
    return []


def sum_problems(where: Sayable, rows: Iterable[Booked]) -> list[Sayable]:
    points = sum(r.points for r in rows)
    cents = sum(r.cents for r in rows)
    if points or cents:
        return [
            said(
                "{where}: the bookings do not sum to zero ({points} points, {amount})",
                where=where,
                points=f"{points:+d}",
                amount=Money(cents, sign=True),
            )
        ]
    return []


def by_player(rows: Iterable[Booked]) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for r in rows:
        points, cents = found.get(r.player, (0, 0))
        found[r.player] = (points + r.points, cents + r.cents)
    return found


def engine_problems(
    where: Sayable, detail: Any, booked: Mapping[str, tuple[int, int]], info: SessionInfo
) -> list[Sayable]:
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
        return [
            said(
                "{where}: its stored result is not a result ({shown})",
                where=where,
                shown=repr(shown),
            )
        ]
    problems: list[Sayable] = []
    result = detail.get("result")
    if detail.get("end") not in ("settle", "forfeit") and (
        result not in MULTIPLIER or points != pair_points(cube, cast(Kind, result))
    ):
        problems.append(
            said(
                "{where}: {points} points is not cube × {result}",
                where=where,
                points=points,
                result=result,
            )
        )
    money = pair_money(points, info.pair_stake(winner, loser))
    want = {winner: (points, money), loser: (-points, -money)}
    if dict(booked) != want:
        problems.append(
            said(
                "{where}: the bookings are not {winner} +{points} from {loser}",
                where=where,
                winner=winner,
                points=points,
                loser=loser,
            )
        )
    return problems


def line_problems(where: Sayable, line: Line) -> list[Sayable]:
    """What is wrong with a line (``where``: the session, for the messages)."""
    problems: list[Sayable] = []
    if len(set(line.order)) != len(line.order):
        problems.append(said("{where}: someone sits twice in the line", where=where))
    if not line.sitting_out <= set(line.order):
        problems.append(said("{where}: someone sits out who is not in the line", where=where))
    if line.partner is not None and line.partner not in line.active[1:]:
        problems.append(
            said(
                "{where}: the partner {partner} is not a seated player",
                where=where,
                partner=line.partner,
            )
        )
    strangers = [p for p, _ in line.away if p not in line.order]
    if strangers or len(dict(line.away)) != len(line.away):
        problems.append(
            said("{where}: someone is away who is not in the line, or away twice", where=where)
        )
    return problems
