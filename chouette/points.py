"""What a board is worth: the scoring every part of chouette uses, declared once.

A pair's board result is the cube × 1, 2 or 3 (:func:`pair_points`; under Jacoby a gammon or
backgammon on a centred cube counts single, and a cube turned only by automatic doubles is
still centred), a pair plays at the lower of its two stakes (:func:`pair_stake`), and its
money is its points × that stake (:func:`pair_money`). The live game (:mod:`chouette.game`)
scores its pairs with them, a finished game's outcome (:mod:`chouette.outcome`) books them,
the engine readers (:mod:`chouette.engines`) check the files' results against them, and the
ledger books imported games and ``chouette check`` verifies them with them.

The bottom of the rules' import graph with :mod:`chouette.money` and :mod:`chouette.limits`:
it imports no other room of chouette.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

#: Who won a board.
Winner = Literal["box", "team"]
Kind = Literal["single", "gammon", "backgammon"]
#: What each level of win multiplies the cube by.
MULTIPLIER: Mapping[Kind, int] = {"single": 1, "gammon": 2, "backgammon": 3}
#: The level a multiple of the cube stands for.
LEVELS: Mapping[int, Kind] = {1: "single", 2: "gammon", 3: "backgammon"}


def is_cube_value(value: int) -> bool:
    """1, 2, 4, 8, …: the values a doubling cube can show."""
    return value >= 1 and value & (value - 1) == 0


def scored_kind(kind: Kind, *, centred: bool, jacoby: bool) -> Kind:
    """The level a pair is paid at: under Jacoby a gammon or backgammon on a centred cube
    (never turned and accepted; automatic doubles leave it centred) counts single."""
    return "single" if jacoby and centred else kind


def pair_points(cube: int, kind: Kind, *, centred: bool = False, jacoby: bool = False) -> int:
    """What a pair's board result is worth: the cube × 1, 2 or 3, Jacoby applied."""
    return cube * MULTIPLIER[scored_kind(kind, centred=centred, jacoby=jacoby)]


def kind_of(points: int, cube: int) -> Kind | None:
    """The level that makes ``points`` at ``cube`` (``points = cube × 1/2/3``), or None."""
    return LEVELS.get(points // cube) if cube >= 1 and points % cube == 0 else None


def fit_points(points: int, cube: int, kind: Kind) -> tuple[int, Kind] | None:
    """A cube and level that make ``points``, or None if none can: the given level when it
    fits, then the given cube, then the smallest level."""
    fits = [
        (points // level, scored)
        for level, scored in LEVELS.items()
        if points % level == 0 and is_cube_value(points // level)
    ]
    for candidate in fits:
        if candidate[1] == kind:
            return candidate
    for candidate in fits:
        if candidate[0] == cube:
            return candidate
    return fits[0] if fits else None


def pair_money(points: int, stake: int) -> int:
    """A pair's money: its points at its stake (see :func:`pair_stake`)."""
    return points * stake


def pair_stake(stakes: Mapping[str, int], a: str, b: str) -> int:
    """A pair plays at the lower of the two players' stakes."""
    return min(stakes[a], stakes[b])


def signed_points(points: int) -> str:
    """Points as the reports write them: ``+2``, ``-1``, ``0``."""
    return f"{points:+d}" if points else "0"
