"""Each player's cube decisions, reviewed pair by pair: what the engine says each was worth.

A chouette's box plays one board against several cubes, and every member decides for their
own. So a double is reviewed once for each pair it turned, at that pair's cube: its value,
whether it is centred or the doubler's, Jacoby for a centred cube, and the beavers and
raccoons the pair's answers could still have. Only decisions made at a board the table gave
(a :mod:`chouette.position` on the double or one of its answers) are reviewed, and only
decisions made: a double nobody gave has no board.

The engine's numbers come from outside (GNU Backgammon, run by ``files/``, its answers kept by
the ledger): for a board and a cube, the cubeful equities of no double, double-take and
double-pass from the doubler's side, per 1-cube (:class:`Equities`). In money play they do
not depend on the cube's value, so the engine is asked once per board and :class:`CubeState`.
From them, here: each answer open to whoever decided, worth, from the doubler's side and per
the cube before the double,

- a double: no double (ND), or the double as the other side best answers it: the least of a
  take (DT), a drop (+1) and a beaver where one is open;
- a beaver: the doubler then accepts (2 x DT: the cube twice as high, the beaverer's), refuses
  (-2: the doubled value paid) or raccoons where open; a raccoon: the beaverer takes
  (4 x DT) or refuses (+4, the beavered value paid).

Each side's best is the engine's proper action; the error (``error``, equity per 1-cube, EMG)
is what the action taken gave up against it, in points (x the pair's cube before the double)
and in money (x the pair's stake, rounded to the nearest cent, half a cent away from zero).

A decision is not scored, and says why, where the engine's money cube does not hold: under a
maximum cube, when a cube the answers reach could not be turned again (the engine's money
cube has no maximum). Each pair is reviewed as its own money game: the chouette's club rules
around the cubes (the box's obligations to take, a mandatory beaver, another pair's turn
ending Jacoby under ``any-cube-turned`` later in the game) are not the engine's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal, cast

from chouette.game import (
    Answer,
    Cube,
    Double,
    Event,
    Game,
    Party,
    Stage,
    apply,
    exchange_of,
    other,
    start,
)
from chouette.line import Line
from chouette.money import Cents
from chouette.rules import HouseRules
from chouette.words import Fixed, Money, Said, said, said_in

Act = Literal["double", "no double", "take", "drop", "beaver", "raccoon"]

#: What refusing a beaver costs the doubler, and refusing a raccoon the beaverer, per 1-cube.
BEAVER_REFUSED = Decimal(-2)
RACCOON_REFUSED = Decimal(4)


@dataclass(frozen=True)
class CubeState:
    """A pair's cube as the engine is asked about it, from the doubler's side: centred or
    the doubler's, and whether Jacoby counts a gammon single (a centred cube, the session's
    Jacoby, and under ``any-cube-turned`` no cube of the game turned yet)."""

    centred: bool
    jacoby: bool


@dataclass(frozen=True)
class Asked:
    """What the engine is asked: a board (a Position ID) and a cube."""

    position: str
    cube: CubeState


@dataclass(frozen=True)
class Equities:
    """The engine's cubeful equities from the doubler's side, per 1-cube: no double, double
    and take, double and pass."""

    no_double: Decimal
    double_take: Decimal
    double_pass: Decimal

    def to_json(self) -> dict[str, float]:
        return {
            "no_double": float(self.no_double),
            "double_take": float(self.double_take),
            "double_pass": float(self.double_pass),
        }


@dataclass(frozen=True)
class Decision:
    """A cube decision made on one pair's cube: event ``step`` of the game (1-based), in the
    exchange the double at ``exchange`` (0-based) began; ``member`` names the pair, ``player``
    who decided (the box, the member, the captain for the team or a cube that follows the
    captain's, a proxy), on ``side``. ``answered``: the offer answered (None: the double
    itself). ``value``: the pair's cube before the double; ``beaver``/``raccoon``: whether the
    doubled side could beaver, and the doubler then raccoon, by the house rules and the cube;
    ``unscored``: why the engine's money numbers do not hold for it (None: they do)."""

    step: int
    exchange: int
    member: str
    box: str
    player: str
    side: Party
    doubler: Party
    action: Act
    answered: Stage | None
    value: int
    cube: CubeState
    beaver: bool
    raccoon: bool
    position: str | None = None
    unscored: Said | None = None

    @property
    def asked(self) -> Asked | None:
        """What the engine is asked for this decision (None: it has no board)."""
        return None if self.position is None else Asked(self.position, self.cube)


@dataclass(frozen=True)
class Reviewed:
    """A decision as the engine's numbers score it: every action open to whoever decided
    (``options``: each worth, from the doubler's side, per 1-cube), the proper one, the error
    of the one taken (per 1-cube), and its cost in points and cents (None: not scored,
    ``decision.unscored`` says why)."""

    decision: Decision
    equities: Equities | None
    options: Mapping[str, Decimal]
    proper: str | None
    verdict: tuple[str, str] | None
    error: Decimal | None
    points: Decimal | None
    cents: Cents | None


# ---------------------------------------------------------------- the decisions of a game


def decisions(line: Line, rules: HouseRules, events: Sequence[Event]) -> list[Decision]:
    """Every cube decision of a game's ``events`` (played from ``line``), one per pair it
    concerned, each with the board of its exchange where the table gave one."""
    game = start(line, rules)
    found: list[Decision] = []
    cubes: dict[tuple[int, str], tuple[int, CubeState, int]] = {}  # at each exchange's double
    for index, event in enumerate(events):
        after = apply(game, event)
        if isinstance(event, Double):
            for member, cube in after.cubes.items():
                offer = cube.offer
                if offer is None or offer.origin != index or game.cubes[member].offer is not None:
                    continue
                before = game.cubes[member]
                state = _state(game, before, rules)
                cubes[(index, member)] = (before.value, state, before.turns)
                named = event.members[0] if event.by == "member" else game.acting_captain
                found.append(
                    _decision(game, rules, index, member, offer.doubler, "double", None, named,
                              cubes[(index, member)], offer.doubler)
                )  # fmt: skip
        elif isinstance(event, Answer):
            for member in after.cubes:
                was, now = game.cubes[member], after.cubes[member]
                if was == now:
                    continue
                origin = exchange_of(game, after, member)
                start_cube = cubes.get((origin, member)) if origin is not None else None
                if origin is None or start_cube is None:
                    continue
                offer = was.offer or now.offer
                doubler: Party = offer.doubler if offer is not None else "box"
                answered: Stage = was.offer.stage if was.offer is not None else "double"
                side = doubler if answered == "beaver" else other(doubler)
                found.append(
                    _decision(game, rules, index, member, side, event.act, answered,
                              event.member, start_cube, doubler, origin)
                )  # fmt: skip
        game = after
    return [replace(d, position=game.positions.get(d.exchange)) for d in found]


def _state(game: Game, cube: Cube, rules: HouseRules) -> CubeState:
    centred = cube.owner == "centre"
    counts = rules.jacoby and centred
    if rules.jacoby_scope == "any-cube-turned":
        counts = counts and not game.turned
    return CubeState(centred=centred, jacoby=counts)


def _decision(
    game: Game,
    rules: HouseRules,
    index: int,
    member: str,
    side: Party,
    action: str,
    answered: Stage | None,
    named: str | None,
    cube: tuple[int, CubeState, int],
    doubler: Party,
    origin: int | None = None,
) -> Decision:
    value, state, turns = cube
    taker: Party = other(doubler)
    by_side = rules.beavers_by in ("both", "box" if taker == "box" else "team")
    limit = rules.beaver_limit
    most = rules.max_cube
    beaver = (
        rules.beavers
        and by_side
        and (limit is None or turns < limit)
        and (most is None or value * 4 <= most)
    )
    raccoon = (
        beaver
        and rules.raccoons
        and (limit is None or turns + 1 < limit)
        and (most is None or value * 8 <= most)
    )
    top = value * (8 if raccoon else 4 if beaver else 2)
    unscored = None
    if most is not None and top * 2 > most:
        unscored = said(
            "not scored: a cube of {top} could not be turned again under the maximum of {most} "
            "(max-cube), and the engine's money cube has no maximum",
            top=str(top),
            most=str(most),
        )
    return Decision(
        step=index + 1,
        exchange=index if origin is None else origin,
        member=member,
        box=game.box,
        player=_decider(game, side, named or member),
        side=side,
        doubler=doubler,
        action=cast(Act, action),  # an answer's act, or "double"
        answered=answered,
        value=value,
        cube=state,
        beaver=beaver,
        raccoon=raccoon,
        unscored=unscored,
    )


def _decider(game: Game, side: Party, named: str) -> str:
    """Who made a decision: the box for the box's side; for the team, the member named (the
    captain for the team's one cube), the captain for a cube that follows the captain's, and
    for a member away with a proxy, the proxy."""
    if side == "box":
        return game.box
    player = named
    if player in game.start_line.followers:
        player = game.acting_captain or player
    return game.start_line.proxies.get(player, player)


# ---------------------------------------------------------------- scoring one decision


def options(decision: Decision, eq: Equities) -> dict[str, Decimal]:
    """Each action open to whoever made ``decision``, worth from the doubler's side per
    1-cube, as both sides then play on best."""
    dt = eq.double_take
    raccoon = min(4 * dt, RACCOON_REFUSED)
    beaver = max(2 * dt, BEAVER_REFUSED, *((raccoon,) if decision.raccoon else ()))
    answers = {"take": dt, "drop": eq.double_pass}
    if decision.beaver:
        answers["beaver"] = beaver
    if decision.answered is None:
        return {"double": min(answers.values()), "no double": eq.no_double}
    if decision.answered == "double":
        return answers
    if decision.answered == "beaver":
        found = {"take": 2 * dt, "drop": BEAVER_REFUSED}
        if decision.raccoon:
            found["raccoon"] = raccoon
        return found
    return {"take": 4 * dt, "drop": RACCOON_REFUSED}


def maximises(decision: Decision) -> bool:
    """Whether whoever decided is the doubler (who wants the most of the doubler's equity):
    the double itself, and the answer to a beaver."""
    return decision.answered in (None, "beaver")


def review(decision: Decision, eq: Equities | None, stake: Cents) -> Reviewed:
    """``decision`` scored by the engine's ``eq`` (None: the engine has no numbers for it),
    its cost at ``stake`` cents a point."""
    if eq is None or decision.unscored is not None:
        return Reviewed(decision, eq, {}, None, None, None, None, None)
    found = options(decision, eq)
    best_of = max if maximises(decision) else min
    best = best_of(found.values())
    taken = found[decision.action]
    proper = decision.action if taken == best else next(a for a, v in found.items() if v == best)
    error = abs(best - taken)
    points = error * decision.value
    cents = int((points * stake).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return Reviewed(decision, eq, found, proper, verdict(decision, eq), error, points, cents)


def verdict(decision: Decision, eq: Equities) -> tuple[str, str]:
    """The proper cube action at the board for the pair's cube, as the engine words it:
    the doubler's (double, no double, too good) and the answer to a double (take, drop,
    beaver)."""
    asked = replace(decision, answered=None)
    doubling = options(asked, eq)
    answers = options(replace(decision, answered="double"), eq)
    answer = min(answers, key=lambda a: (answers[a], a != "take"))
    if doubling["double"] >= doubling["no double"]:
        return "double", answer
    return ("too good" if eq.no_double > eq.double_pass else "no double"), answer


# ---------------------------------------------------------------- a player's summary


@dataclass(frozen=True)
class Summary:
    """A player's decisions reviewed: how many, how many were not the proper action, how
    many the engine could not score, and what the errors cost in all (per 1-cube, in points
    and in cents: the sum of each decision's, each rounded as it is)."""

    player: str
    decisions: int
    errors: int
    unscored: int
    error: Decimal
    points: Decimal
    cents: Cents

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "decisions": self.decisions,
            "errors": self.errors,
            "unscored": self.unscored,
            "error_emg": float(self.error),
            "cost_points": float(self.points),
            "cost_cents": self.cents,
        }


def summaries(reviewed: Iterable[Reviewed]) -> list[Summary]:
    """Each player's summary, the costliest first (then by name)."""
    by: dict[str, list[Reviewed]] = {}
    for item in reviewed:
        by.setdefault(item.decision.player, []).append(item)
    found = [
        Summary(
            player,
            len(items),
            sum(1 for r in items if r.error),
            sum(1 for r in items if r.error is None),
            sum((r.error for r in items if r.error is not None), Decimal(0)),
            sum((r.points for r in items if r.points is not None), Decimal(0)),
            sum(r.cents for r in items if r.cents is not None),
        )
        for player, items in by.items()
    ]
    return sorted(found, key=lambda s: (-s.cents, -s.error, s.player))


# ---------------------------------------------------------------- what a review says


def decision_json(number: int, item: Reviewed) -> dict[str, object]:
    """One reviewed decision as ``review --json`` writes it (docs/INTERFACE.md)."""
    d = item.decision
    return {
        "game": number,
        "step": d.step,
        "member": d.member,
        "box": d.box,
        "player": d.player,
        "action": d.action,
        "answered": d.answered,
        "position": d.position,
        "cube": {
            "value": d.value,
            "centred": d.cube.centred,
            "jacoby": d.cube.jacoby,
            "beaver": d.beaver,
            "raccoon": d.raccoon,
        },
        "proper": item.proper,
        "verdict": ", ".join(item.verdict) if item.verdict else None,
        "error_emg": None if item.error is None else float(item.error),
        "cost_points": None if item.points is None else float(item.points),
        "cost_cents": item.cents,
        "equities": None if item.equities is None else item.equities.to_json(),
        "options": {act: float(value) for act, value in item.options.items()},
        "unscored": None if d.unscored is None else str(d.unscored),
    }


def review_json(
    session: str,
    plies: int,
    engine: str | None,
    items: Sequence[tuple[int, Reviewed]],
    players: Sequence[Summary],
) -> dict[str, object]:
    """``review --json``: the session, the engine and its plies, every decision, every
    player's summary."""
    return {
        "session": session,
        "engine": engine,
        "plies": plies,
        "decisions": [decision_json(number, item) for number, item in items],
        "players": [s.to_json() for s in players],
    }


def act_said(act: str) -> Said:
    """A cube action in the reader's words."""
    words = {
        "double": said_in("cube action", "double"),
        "no double": said_in("cube action", "no double"),
        "too good": said_in("cube action", "too good"),
        "take": said_in("cube action", "take"),
        "drop": said_in("cube action", "drop"),
        "beaver": said_in("cube action", "beaver"),
        "raccoon": said_in("cube action", "raccoon"),
    }
    return words[act]


def _equity(value: Decimal | None) -> Fixed | str:
    return "" if value is None else Fixed(value, 3, sign=True)


def _cube_said(d: Decision) -> Said:
    if d.cube.centred and d.cube.jacoby:
        return said("{value}, centred, Jacoby", value=str(d.value))
    if d.cube.centred:
        return said("{value}, centred", value=str(d.value))
    return said("{value}, the doubler's", value=str(d.value))


def review_rows(
    items: Sequence[tuple[int, Reviewed]],
) -> tuple[list[Said], list[list[object]]]:
    """``chouette review``'s table: a row per decision."""
    headers = [
        said_in("review", "game"),
        said_in("review", "step"),
        said_in("review", "player"),
        said_in("review", "pair"),
        said_in("review", "cube"),
        said_in("review", "did"),
        said_in("review", "proper"),
        said_in("review", "ND"),
        said_in("review", "D/T"),
        said_in("review", "D/P"),
        said_in("review", "error"),
        said_in("review", "points"),
        said_in("review", "money"),
    ]
    rows: list[list[object]] = []
    for number, item in items:
        d, eq = item.decision, item.equities
        rows.append(
            [
                str(number),
                str(d.step),
                d.player,
                d.member,
                _cube_said(d),
                act_said(d.action),
                act_said(item.proper) if item.proper else said("not scored"),
                _equity(eq.no_double if eq else None),
                _equity(eq.double_take if eq else None),
                _equity(eq.double_pass if eq else None),
                "" if item.error is None else Fixed(item.error),
                "" if item.points is None else Fixed(item.points),
                "" if item.cents is None else Money(item.cents),
            ]
        )
    return headers, rows


def summary_rows(players: Sequence[Summary]) -> tuple[list[Said], list[list[object]]]:
    """Each player's summary: decisions, errors, what they cost."""
    headers = [
        said_in("review", "player"),
        said_in("review", "decisions"),
        said_in("review", "errors"),
        said_in("review", "error (EMG)"),
        said_in("review", "points"),
        said_in("review", "money"),
    ]
    rows: list[list[object]] = [
        [
            s.player,
            str(s.decisions),
            str(s.errors),
            Fixed(s.error),
            Fixed(s.points),
            Money(s.cents),
        ]
        for s in players
    ]
    return headers, rows
