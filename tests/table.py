"""Test helpers that read like a score sheet: seats as ``"B | C, M1, M2"``, events as words."""

from __future__ import annotations

from chouette.game import (
    Answer,
    AutoDouble,
    BuyOut,
    Carry,
    Deal,
    Double,
    End,
    Event,
    Extra,
    ExtraAnswer,
    ExtraDouble,
    Game,
    Resign,
    ResignAnswer,
    apply,
    start,
)
from chouette.line import Line, new_line
from chouette.outcome import Outcome, settle_game
from chouette.rules import HouseRules


def seats(text: str, rules: HouseRules | None = None) -> Line:
    """``"B | C, M1"`` -> the line B, C, M1 (a ``+P`` after the box seats a partner next)."""
    box, _, team = text.partition("|")
    names = [n.strip() for n in team.split(",") if n.strip()]
    box, _, partner = box.strip().partition("+")
    order = [box, *([partner] if partner else []), *names]
    line = new_line(order, rules or HouseRules())
    return Line(line.order, line.sitting_out, partner or None, None)


def show(line: Line) -> str:
    """The inverse of :func:`seats`: ``"B+P | C, M1"``."""
    return str(line.describe())


def ev(text: str) -> Event:
    """``"double C M1"`` (box doubles), ``"double C --by member"``, ``"take C"``,
    ``"deal C 2"`` (``"deal C 0 --won-by box"``), ``"extra C M1 2 1"`` (points and
    premium), ``"end box gammon"``,
    ``"auto"`` (``"auto --box-chooses"``), ``"carry accept 1"``, ``"resign gammon C M1"``,
    ``"resign-accept C"``, ``"resign-refuse C"``, ``"double-extra C M1"``,
    ``"take-extra C M1"``, ``"buy-out"``; a cube event may end ``--position ID`` (a
    Position ID, as the command keeps it)."""
    words = text.split()
    act, args = words[0], words[1:]
    position = None
    if "--position" in args:
        i = args.index("--position")
        position = args[i + 1]
        args = args[:i] + args[i + 2 :]
    if act == "auto":
        return AutoDouble(box_chose="--box-chooses" in args)
    if act == "carry":
        return Carry(args[0] == "accept", int(args[1]) if len(args) > 1 else None)
    if act == "resign":
        return Resign(args[0], tuple(args[1:]))  # type: ignore[arg-type]
    if act in ("resign-accept", "resign-refuse"):
        return ResignAnswer(act == "resign-accept", args[0])
    if act == "buy-out":
        return BuyOut()
    if act == "double-extra":
        return ExtraDouble(args[0], args[1])
    if act in ("take-extra", "drop-extra"):
        return ExtraAnswer(act.partition("-")[0], args[0], args[1])  # type: ignore[arg-type]
    if act == "double":
        by = "box"
        if "--by" in args:
            i = args.index("--by")
            by = args[i + 1]
            args = args[:i] + args[i + 2 :]
        return Double(by=by, members=tuple(args), position=position)  # type: ignore[arg-type]
    if act in ("take", "drop", "beaver", "raccoon"):
        return Answer(act, args[0], position)  # type: ignore[arg-type]
    if act == "deal":
        won_by = args[args.index("--won-by") + 1] if "--won-by" in args else None
        return Deal(args[0], int(args[1]), won_by)
    if act == "extra":
        points = int(args[2]) if len(args) > 2 else 2
        premium = int(args[3]) if len(args) > 3 else points // 2  # as the command's default
        return Extra(args[0], args[1], points, premium)
    if act == "end":
        kind = args[1] if len(args) > 1 and args[1] != "resigned" else "single"
        return End(args[0], kind, "resigned" in args)  # type: ignore[arg-type]
    raise ValueError(text)


def play(
    line: Line | str, *events: str, rules: HouseRules | None = None, carry: int | None = None
) -> Game:
    rules = rules or HouseRules()
    if isinstance(line, str):
        line = seats(line, rules)
    game = start(line, rules, carry)
    for text in events:
        game = apply(game, ev(text))
    return game


def play_on(game: Game, *events: str) -> Game:
    for text in events:
        game = apply(game, ev(text))
    return game


def outcome(game: Game, stakes: dict[str, int] | None = None) -> Outcome:
    """The game settled (every stake 1 unless given), checked to sum to zero."""
    players = [game.box, *([game.partner] if game.partner else []), *game.members]
    result = settle_game(game, stakes or dict.fromkeys(players, 1))
    assert sum(result.points.values()) == 0 and sum(result.cents.values()) == 0
    return result
